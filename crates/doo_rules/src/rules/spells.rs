//! Cast Spell (R-MANA-4, G-26): spells as data (`assets/rules/spells.ron`), paid with Mana
//! (arcane, Savvy check) or Faith (divine, Nerve check), resolved as bolts, heals or conditions.

use super::attack::{Resolution, change_hp, defense_step, report_and_damage};
use super::dice::Dice;
use super::equipment::DiceSpec;
use super::event::Event;
use super::fighter::{Caster, ConditionInstance, Duration, Pool};
use super::grid::Sight;
use super::state::Match;
use super::turn::{Parts, log_roll, log_roll_parts, stat_check, sum};
use super::violation::{RuleResult, Violation};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum SpellEffect {
    /// A casting check against the target's Defense; damage on a hit.
    Bolt { damage: DiceSpec },
    /// A casting check against `cr`; heals and stabilizes on success.
    Heal { amount: DiceSpec, cr: i32 },
    /// A casting check against the target's Defense; the condition on success.
    Inflict { condition: String, duration: Duration },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spell {
    pub id: String,
    pub name: String,
    pub tradition: Caster,
    /// MP (arcane) or FP (divine).
    pub cost: i32,
    /// Cast with gestures: the shield's spellcasting adjustment applies (R-GEAR-8).
    pub gestures: bool,
    /// Spaces (Chebyshev).
    pub range: u32,
    pub effect: SpellEffect,
    #[serde(default)]
    pub description: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SpellBook {
    pub spells: Vec<Spell>,
}

impl SpellBook {
    pub fn get(&self, id: &str) -> Option<&Spell> {
        self.spells.iter().find(|s| s.id == id)
    }
}

fn pool_of(tradition: Caster) -> Pool {
    if tradition == Caster::Divine { Pool::Faith } else { Pool::Mana }
}

/// Can `a` cast `spell` at `target` now (beyond the action's AP)?
pub fn check_spell(m: &Match, a: usize, spell: Option<&str>, target: Option<usize>) -> RuleResult<(String, usize)> {
    let f = &m.fighters[a];
    let Some(id) = spell else { return Err(Violation::new("R-MANA-4", "Cast Spell needs a spell.")) };
    let s = m.spells.get(id).ok_or_else(|| Violation::new("G-26", format!("There is no spell '{id}'.")))?;
    if !f.spells.iter().any(|k| k == id) {
        return Err(Violation::new("G-26", format!("{} does not know {}.", f.name, s.name)));
    }
    if !f.caster.casts(s.tradition) {
        return Err(Violation::new("R-MANA-1", format!("{} is {:?} magic; {} is not that kind of caster.", s.name, s.tradition, f.name).to_lowercase()));
    }
    let (have, pool) = match pool_of(s.tradition) {
        Pool::Mana => (f.mp, "Mana"),
        Pool::Faith => (f.fp, "Faith"),
    };
    if have < s.cost {
        return Err(Violation::new("R-MANA-4", format!("{} costs {} {pool}; {} has {have}.", s.name, s.cost, f.name)));
    }
    let t = target.unwrap_or(a);
    let tf = &m.fighters[t];
    if m.is_dead(t) {
        return Err(Violation::new("R-INJ-8", format!("{} is dead.", tf.name)));
    }
    let d = f.pos.distance(tf.pos);
    if d > s.range {
        return Err(Violation::new("G-26", format!("{} is {d} spaces away; {} reaches {}.", tf.name, s.name, s.range)));
    }
    if !matches!(s.effect, SpellEffect::Heal { .. }) {
        if t == a {
            return Err(Violation::new("G-26", format!("{} needs another target.", s.name)));
        }
        if m.board.line_of_sight(f.pos, tf.pos) == Sight::None {
            return Err(Violation::new("R-ATK-12", format!("{} has no line of sight to {}.", f.name, tf.name)));
        }
    }
    Ok((id.to_string(), t))
}

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
        ev.push(Event::PoolChanged { actor: f.id.clone(), pool, from, to: *cur, reason: s.id.clone() });
    }
    let f = &m.fighters[a];
    let stat = if pool == Pool::Faith { f.stats.nerve } else { f.stats.savvy };
    let mut parts: Parts = Vec::new();
    if s.gestures {
        // R-GEAR-8 / R-MANA-5: the shield's spellcasting adjustment.
        let adj = f.loadout.shield.as_deref().and_then(|x| m.equipment.shield(x)).map_or(0, |x| x.spell);
        parts.push(("shield".into(), adj));
    }
    parts.extend(m.conditions.active(f, m.rules.options.conditions_adv).map(|c| (c.id.clone(), c.attack)));
    match &s.effect {
        SpellEffect::Heal { amount, cr } => {
            let roll = stat_check(m, dice, stat, sum(&parts));
            let total = log_roll_parts(ev, dice, &f.id.clone(), &format!("cast_{}", s.id), roll, parts);
            if total >= *cr {
                let r = dice.roll(amount.0, amount.1, m.rules.options.damage_explodes, 0);
                let v = log_roll(ev, dice, &m.fighters[a].id.clone(), "healing", r);
                change_hp(m, t, v, &s.id, ev);
                let tf = &mut m.fighters[t];
                // R-INJ-7: any healing spell stabilizes.
                super::healing::stop_bleeding(tf, "magical healing", ev);
            }
        }
        SpellEffect::Bolt { .. } | SpellEffect::Inflict { .. } => {
            let cr = defense_step(m, dice, t, false, false, ev);
            let roll = stat_check(m, dice, stat, sum(&parts));
            let total = log_roll_parts(ev, dice, &m.fighters[a].id.clone(), &format!("cast_{}", s.id), roll, parts);
            let margin = total - cr;
            let kind = super::attack::outcome(m, margin);
            let (mut raw, mut reduction, mut dealt) = (0, 0, 0);
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
                        let armor = m.fighters[t].loadout.armor.as_deref().and_then(|x| m.equipment.armor(x)).map_or(0, |x| x.reduction);
                        reduction = if matches!(kind.as_str(), "critical_hit" | "legendary_hit") { 0 } else { armor };
                        dealt = (raw - reduction).max(0);
                        if kind == "solid_hit" {
                            dealt = dealt.max(m.tables.solid_hit_finesse_minimum);
                        }
                    }
                    SpellEffect::Inflict { condition, duration } => {
                        let tf = &mut m.fighters[t];
                        let c = ConditionInstance { id: condition.clone(), duration: *duration, removal_cr: None };
                        tf.conditions.retain(|x| x.id != *condition); // R-COND-5: refresh, no stacking
                        tf.conditions.push(c.clone());
                        ev.push(Event::ConditionAdded { actor: tf.id.clone(), condition: c });
                    }
                    SpellEffect::Heal { .. } => {}
                }
            }
            report_and_damage(m, dice, a, t, &Resolution { cr, total, kind, raw, reduction, dealt }, &s.id, ev);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test] // G-26, R-MANA-4: the starter spells load: damage, healing, a condition
    fn starter_spells_load() {
        let b = SpellBook::builtin();
        assert!(matches!(b.get("firebolt").map(|s| &s.effect), Some(SpellEffect::Bolt { .. })));
        assert!(matches!(b.get("healing_word").map(|s| &s.effect), Some(SpellEffect::Heal { cr: 9, .. })));
        assert!(matches!(b.get("entangle").map(|s| &s.effect), Some(SpellEffect::Inflict { .. })));
    }
}
