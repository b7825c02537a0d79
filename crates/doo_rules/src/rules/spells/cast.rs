//! Cast Spell resolved (R-MANA-4, G-26): the points paid (Mana for arcane, Savvy check; Faith
//! for divine, Nerve check), then a bolt, a heal or a condition.

use super::super::attack::{Resolution, change_hp, defense_step, report_and_damage};
use super::super::dice::Dice;
use super::super::event::Event;
use super::super::fighter::{ConditionInstance, Pool};
use super::super::roll::{Parts, log_roll, log_roll_parts, stat_check, sum};
use super::super::state::Match;
use super::book::SpellEffect;
use super::check::pool_of;

/// Pays the spell's points, rolls the casting check and applies the effect.
pub fn cast(m: &mut Match, a: usize, id: &str, t: usize, dice: &mut Dice, ev: &mut Vec<Event>) {
    let Some(s) = m.spells.get(id).cloned() else { return };
    let pool = pool_of(s.tradition);
    {
        let f = &mut m.fighters[a];
        let cur = match pool {
            Pool::Mana => &mut f.mp,
            Pool::Faith => &mut f.fp,
        };
        let from = *cur;
        *cur -= s.cost;
        ev.push(Event::PoolChanged { actor: f.id.as_str().into(), pool, from, to: *cur, reason: s.id.clone() });
    }
    let f = &m.fighters[a];
    let stat = if pool == Pool::Faith { f.stats.nerve } else { f.stats.savvy };
    let mut parts: Parts = Vec::new();
    if s.gestures {
        // R-GEAR-8 / R-MANA-5: the shield's spellcasting adjustment.
        let adj = f.loadout.shield.as_deref().and_then(|x| m.equipment.shield(x)).map_or(0, |x| x.spell);
        parts.push(("shield".into(), adj));
    }
    parts.extend(m.conditions.active(f, m.rules.options.conditions_adv).map(|c| (c.id.clone().into(), c.attack)));
    match &s.effect {
        SpellEffect::Heal { amount, cr } => {
            let roll = stat_check(m, dice, stat, sum(&parts));
            let total = log_roll_parts(ev, dice, &f.id.clone(), format!("cast_{}", s.id), roll, parts);
            if total >= *cr {
                let r = dice.roll(amount.0, amount.1, m.rules.options.damage_explodes, 0);
                let v = log_roll(ev, dice, &m.fighters[a].id.clone(), "healing", r);
                change_hp(m, t, v, s.id.clone(), ev);
                let tf = &mut m.fighters[t];
                // R-INJ-7: any healing spell stabilizes.
                super::super::healing::stop_bleeding(tf, "magical healing", ev);
            }
        }
        SpellEffect::Bolt { .. } | SpellEffect::Inflict { .. } => {
            let cr = defense_step(m, dice, t, false, false, ev);
            let roll = stat_check(m, dice, stat, sum(&parts));
            let total = log_roll_parts(ev, dice, &m.fighters[a].id.clone(), format!("cast_{}", s.id), roll, parts);
            let margin = total - cr;
            let kind = super::super::attack::outcome(m, margin);
            let (mut raw, mut reduction, mut dealt, mut parts) = (0, 0, 0, Vec::new());
            if margin >= 0 {
                match &s.effect {
                    SpellEffect::Bolt { damage } => {
                        // A spell bolt counts as a Finesse weapon for critical outcomes (R-DMG-3).
                        raw = if kind == "legendary_hit" {
                            (damage.0 * damage.1) as i32
                        } else {
                            let r = dice.roll(damage.0, damage.1, m.rules.options.damage_explodes, 0);
                            log_roll(ev, dice, &m.fighters[a].id.clone(), "damage", r)
                        };
                        parts.push((if kind == "legendary_hit" { "die_maximum" } else { "rolled" }.into(), raw));
                        let armor = m.fighters[t].loadout.armor.as_deref().and_then(|x| m.equipment.armor(x)).map_or(0, |x| x.reduction);
                        reduction = if matches!(kind.as_str(), "critical_hit" | "legendary_hit") { 0 } else { armor };
                        dealt = (raw - reduction).max(0);
                        if kind == "solid_hit" && dealt < m.tables.solid_hit_finesse_minimum {
                            dealt = m.tables.solid_hit_finesse_minimum;
                            parts.push((format!("solid_hit:_at_least_{dealt}").into(), 0));
                        }
                    }
                    SpellEffect::Inflict { condition, duration } => {
                        let tf = &mut m.fighters[t];
                        let c = ConditionInstance { id: condition.clone(), duration: *duration, removal_cr: None };
                        tf.conditions.retain(|x| x.id != *condition); // R-COND-5: refresh, no stacking
                        tf.conditions.push(c.clone());
                        ev.push(Event::ConditionAdded { actor: tf.id.as_str().into(), condition: c });
                    }
                    SpellEffect::Heal { .. } => {}
                }
            }
            report_and_damage(m, dice, a, t, &Resolution { cr, total, kind, raw, parts, reduction, dealt }, s.id.clone(), ev);
        }
    }
}
