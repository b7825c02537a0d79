//! An attack thrown under A4 (A4-6.2, A4-6.6, A4-7.1): the pool against the target number
//! (raised by a reactive defence), damage by the margin's band less soak, a stabilized dying
//! target bleeding again, and a shot into melee that may hit another.

use super::super::attack::change_hp;
use super::super::dice::Dice;
use super::super::equipment::Wielded;
use super::super::event::Event;
use super::super::healing;
use super::super::roll::log_roll;
use super::super::state::Match;
use super::pool::Pool;
use super::state::{A4, AttackSpec};
use super::stats::{action_pool, attack_skill, skill_pool, soak, target_number, weapon_damage};

fn name(m: &Match, i: usize) -> &str {
    &m.fighters[i].name
}

/// A4-6.2, A4-6.6, A4-7.1: throws the attack against its TN; on a hit, damage by margin band
/// less soak; a shot into melee that misses by no more than the melee penalty may hit another.
pub(super) fn resolve(m: &mut Match, a4: &A4, dice: &mut Dice, spec: &AttackSpec, ev: &mut Vec<Event>) {
    let b = a4.book.clone();
    let (a, t) = (spec.attacker, spec.defender);
    let Some((mut tn, parts)) = target_number(m, a4, a, t) else { return };
    let adv = m.rules.options.conditions_adv;
    let cond: i32 = m.conditions.active(&m.fighters[a], adv).map(|r| r.attack).sum();
    // A4-G-23: an attack of opportunity is made at the full pool (no penalty dice of its own).
    let pool0 = if spec.opportunity {
        skill_pool(m, a4, a, attack_skill(m, a)).plus_dice(spec.dice).floored(b.pools.min_action_dice, b.pools.max_dice)
    } else {
        action_pool(m, a4, a, attack_skill(m, a), spec.dice)
    };
    let pool = Pool::from_pips(pool0.total_pips(b.pools.pips_per_die) + cond, b.pools.pips_per_die).floored(b.pools.min_action_dice, b.pools.max_dice);
    if let Some(r) = spec.reacted {
        tn += r;
    }
    let ranged = !m.equipment.wielded(&m.fighters[a]).is_melee();
    let roll = dice.roll(pool.dice.max(0) as u32, b.pools.die, false, pool.pips);
    let aid = m.fighters[a].id.clone();
    let total = log_roll(ev, dice, &aid, "attack", roll);
    if ranged {
        let l = &mut m.fighters[a].loadout;
        if let Some(n) = l.ammo.as_mut().filter(|n| **n > 0) {
            *n -= 1;
            super::super::explore::count_shot(m, a); // R-EXP-27, G-41
        }
        let crossbow = matches!(m.equipment.wielded(&m.fighters[a]), Wielded::Ranged(r) if r.hand_reload_brawn.is_some());
        if crossbow {
            m.fighters[a].loadout.loaded = false;
        }
    }
    let into_melee = parts.iter().find(|p| p.0 == "into melee").map_or(0, |p| p.1);
    hit_or_miss(m, a4, dice, a, t, total, tn, ev);
    // A4-7.1, A4-G-37: a stray shot
    if total < tn && into_melee > 0 && total >= tn - into_melee && !m.is_dead(t) {
        let at = m.fighters[t].pos;
        let near: Vec<usize> = (0..m.fighters.len())
            .filter(|&o| o != a && o != t && !m.is_dead(o) && m.fighters[o].pos.floor == at.floor && m.fighters[o].pos.distance(at) == 1)
            .collect();
        if !near.is_empty() {
            let k = dice.throw(near.len() as u32) as usize - 1;
            let s = near[k.min(near.len() - 1)];
            ev.push(Event::Note {
                text: format!(
                    "The shot goes astray toward {} (A4-7.1; d{} = {} among the {} next to {}).",
                    name(m, s),
                    near.len(),
                    k + 1,
                    near.len(),
                    name(m, t)
                ),
            });
            if let Some((tn_s, parts_s)) = target_number(m, a4, a, s) {
                let tn_s = tn_s - parts_s.iter().find(|p| p.0 == "into melee").map_or(0, |p| p.1);
                let roll = dice.roll(pool.dice.max(0) as u32, b.pools.die, false, pool.pips);
                let total = log_roll(ev, dice, &aid, "stray_shot", roll);
                hit_or_miss(m, a4, dice, a, s, total, tn_s, ev);
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn hit_or_miss(m: &mut Match, a4: &A4, dice: &mut Dice, a: usize, t: usize, total: i32, tn: i32, ev: &mut Vec<Event>) {
    let b = &a4.book;
    let (aid, tid) = (m.fighters[a].id.clone(), m.fighters[t].id.clone());
    let margin = total - tn;
    let mut parts: crate::rules::roll::Parts = Vec::new();
    let (outcome, raw, soak, dealt) = match b.band(margin).filter(|_| margin >= 0) {
        Some(band) => {
            let (n, sides, bonus) = weapon_damage(m, a);
            let roll = dice.roll(n, sides, false, bonus);
            let rolled = log_roll(ev, dice, &aid, "damage", roll);
            // A4-6.6: the band's bonus, named in the log (issue 43).
            parts.push(("rolled".into(), rolled));
            if band.bonus != 0 {
                parts.push((band.name.clone().into(), band.bonus));
            }
            let raw = rolled + band.bonus;
            let s = soak(m, a4, t);
            let s = if band.half_soak { s / 2 } else { s };
            (band.name.clone(), raw, s, (raw - s).max(0))
        }
        None => ("miss".to_string(), 0, 0, 0),
    };
    let before = m.fighters[t].hp;
    if dealt > 0 {
        change_hp(m, t, -dealt, "a4_attack", ev);
        healing::rebleed(&mut m.fighters[t], before, ev);
    }
    ev.push(Event::AttackResolved {
        actor: aid.into(),
        target: tid,
        defense_cr: tn,
        attack_total: total,
        margin,
        outcome,
        raw_damage: raw,
        damage_parts: parts,
        reduction: soak,
        damage: before - m.fighters[t].hp.max(before - dealt),
        target_hp: m.fighters[t].hp,
    });
}
