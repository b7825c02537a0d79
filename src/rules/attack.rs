//! Attack resolution (R-ATK-1 steps 3–7, §15 damage) and HP changes with their consequences
//! (R-INJ-1/3/4, G-13). The full critical-outcome menu arrives with the combat issue.

use super::defense::{defense_adjustment, helpless, posture_attack};
use super::dice::Dice;
use super::equipment::{Stat, Wielded};
use super::event::Event;
use super::fighter::{AdjTarget, ConditionInstance, Duration, TempAdjustment};
use super::profile::{Posture, Scope};
use super::state::{Match, PendingAttack};
use super::turn::{log_roll, stat_check};

/// R-ATK-7 outcome category by margin.
pub fn outcome(margin: i32) -> &'static str {
    match margin {
        m if m >= 9 => "legendary_hit",
        6..=8 => "critical_hit",
        3..=5 => "solid_hit",
        0..=2 => "hit",
        -2..=-1 => "miss",
        -5..=-3 => "clean_miss",
        -8..=-6 => "critical_miss",
        _ => "disastrous_miss",
    }
}

fn stat_rank(m: &Match, i: usize, s: Stat) -> u32 {
    let f = &m.fighters[i];
    match s {
        Stat::Brawn => f.stats.brawn,
        Stat::Finesse => m.equipment.finesse_rank(f),
        Stat::Savvy => f.stats.savvy,
        Stat::Nerve => f.stats.nerve,
    }
}

/// R-ATK-5: adjustments to an Attack check that do not depend on the action.
pub fn attack_adjustment(m: &Match, a: usize, t: usize) -> i32 {
    let f = &m.fighters[a];
    let adv = m.rules.options.conditions_adv;
    let w = m.equipment.wielded(f);
    let mut adj = f.skill(w.skill()).adjustment();
    if f.loadout.shield.is_some() && f.skill("shields") == super::profile::Rank::Untrained {
        adj -= 2; // R-GEAR-8
    }
    adj -= weapon_deficit(m, a) as i32; // R-GEAR-3, R-RNG-7
    if let Some(s) = f.loadout.shield.as_deref().and_then(|s| m.equipment.shield(s)) {
        adj -= s.brawn.saturating_sub(f.stats.brawn) as i32;
    }
    if w.check_stat() == Stat::Brawn {
        adj -= m.equipment.armor_deficit(f) as i32; // R-GEAR-6
    }
    adj += m.conditions.active(f, adv).map(|c| c.attack).sum::<i32>();
    adj += posture_attack(f.posture, &w, adv, &m.rules.limits.prone);
    adj += f.temp_adjustment(AdjTarget::Attack, true);
    let tf = &m.fighters[t];
    let d = f.pos.distance(tf.pos);
    adj += super::actions::range_adjustment(&w, d, helpless(m, t));
    adj += m.board.line_of_sight(f.pos, tf.pos).attack_adjustment().unwrap_or(0);
    adj
}

/// R-GEAR-3 / R-RNG-7: Brawn below the weapon's minimum for the grip used.
pub fn weapon_deficit(m: &Match, a: usize) -> u32 {
    let f = &m.fighters[a];
    match m.equipment.wielded(f) {
        Wielded::Melee(_, mode) => {
            let min = if f.loadout.two_handed { mode.two_hand_brawn.unwrap_or(mode.one_hand_brawn) } else { mode.one_hand_brawn };
            min.saturating_sub(f.stats.brawn)
        }
        Wielded::Ranged(r) => r.brawn.saturating_sub(f.stats.brawn),
        Wielded::Unarmed => 0,
    }
}

/// G-13: a character who can no longer act drops to 0 AP and loses his free steps at once.
fn lose_ability_to_act(f: &mut super::fighter::Fighter, why: &str, ev: &mut Vec<Event>) {
    if f.ap.current > 0 {
        f.ap.current = 0;
        ev.push(Event::ApSet { actor: f.id.clone(), ap: 0, ap_start: f.ap.start, reason: format!("{why} (G-13)") });
    }
    if f.free_steps.available {
        f.free_steps.lose(super::fighter::FreeStepsLoss::UnableToAct);
        ev.push(Event::FreeStepsLost { actor: f.id.clone(), reason: why.into() });
    }
}

/// Changes HP and applies what follows: incapacitation (prone, no AP, no free steps, bleeding),
/// death, and HP cap (R-INJ-1, R-INJ-3, G-13, G-23).
pub fn change_hp(m: &mut Match, i: usize, delta: i32, reason: &str, ev: &mut Vec<Event>) {
    let f = &mut m.fighters[i];
    let from = f.hp;
    f.hp = (f.hp + delta).min(f.max_hp);
    if f.hp == from {
        return;
    }
    ev.push(Event::HpChanged { actor: f.id.clone(), from, to: f.hp, reason: reason.to_string() });
    if f.hp <= 0 && from > 0 {
        // R-INJ-3: incapacitated and dying: falls prone, loses AP and free steps, bleeds.
        lose_ability_to_act(f, "incapacitated", ev);
        if f.posture != Posture::Prone {
            ev.push(Event::PostureChanged { actor: f.id.clone(), from: f.posture, to: Posture::Prone });
            f.posture = Posture::Prone;
        }
        for (id, dur) in [("incapacitated", Duration::Permanent), ("bleeding", Duration::Persistent)] {
            if !f.has_condition(id) {
                let c = ConditionInstance { id: id.into(), duration: dur, removal_cr: None };
                ev.push(Event::ConditionAdded { actor: f.id.clone(), condition: c.clone() });
                f.conditions.push(c);
            }
        }
    }
    if f.hp > 0 && from <= 0 {
        f.conditions.retain(|c| c.id != "incapacitated");
        ev.push(Event::ConditionRemoved { actor: f.id.clone(), condition: "incapacitated".into(), reason: "healed".into() });
    }
    if f.hp <= -f.max_hp {
        ev.push(Event::Note { text: format!("{} is dead.", f.name) });
    }
}

/// Steps 3–7 of R-ATK-1 for `p` (the reflex window is already closed).
pub fn resolve(m: &mut Match, dice: &mut Dice, p: &mut PendingAttack, ev: &mut Vec<Event>) {
    let (a, t) = (p.attacker, p.defender);
    let helpless_cr = m.rules.limits.helpless_defense_cr;
    // Step 3: Defense check or CR 6 (R-DEF-1, R-ATK-4).
    let cr = if helpless(m, t) {
        helpless_cr
    } else {
        let adj = defense_adjustment(m, t, p.melee, p.shield_doubled);
        let rank = m.equipment.finesse_rank(&m.fighters[t]);
        let roll = stat_check(m, dice, rank, adj);
        log_roll(ev, dice, &m.fighters[t].id.clone(), "defense", roll)
    };
    // Step 4: Attack check (R-ATK-5).
    let w = m.equipment.wielded(&m.fighters[a]);
    let stat = w.check_stat();
    let damage_spec = match &w {
        Wielded::Melee(wp, _) => Some(wp.damage),
        Wielded::Ranged(r) => Some(r.damage),
        Wielded::Unarmed => None,
    };
    let rank = stat_rank(m, a, stat);
    let adj = attack_adjustment(m, a, t) + p.attack_adj;
    let roll = stat_check(m, dice, rank, adj);
    let total = log_roll(ev, dice, &m.fighters[a].id.clone(), "attack", roll);
    let margin = total - cr;
    let kind = outcome(margin);
    let (mut raw, mut reduction, mut dealt) = (0, 0, 0);
    if margin >= 0 {
        // §15: raw damage, critical arithmetic (R-DMG-3), armor (R-DMG-2).
        let explode = m.rules.options.damage_explodes;
        let deficit = weapon_deficit(m, a) as i32;
        let adjust = p.damage_adj - deficit;
        let brawn_weapon = stat == Stat::Brawn;
        let (n, die) = damage_spec.map_or((1, m.fighters[a].stats.brawn), |d| (d.0, d.1));
        let die_max = if damage_spec.is_some() { (n * die) as i32 } else { (die as i32 + 1) / 2 };
        raw = match (kind, brawn_weapon) {
            ("critical_hit", true) => die_max + 2 + adjust,
            ("legendary_hit", true) => 2 * die_max + adjust,
            ("legendary_hit", false) => die_max + adjust,
            _ => {
                let r = dice.roll(n, die, explode, 0);
                let mut v = log_roll(ev, dice, &m.fighters[a].id.clone(), "damage", r);
                if damage_spec.is_none() {
                    v = (v + 1) / 2; // R-ATK-11: unarmed halves, rounding up
                }
                v + adjust + if kind == "solid_hit" && brawn_weapon { 2 } else { 0 }
            }
        };
        let armor = m.fighters[t].loadout.armor.as_deref().and_then(|x| m.equipment.armor(x)).map_or(0, |x| x.reduction);
        let ignore_armor = !brawn_weapon && matches!(kind, "critical_hit" | "legendary_hit");
        reduction = if ignore_armor { 0 } else { armor };
        dealt = (raw - reduction).max(0);
        if kind == "solid_hit" && !brawn_weapon {
            dealt = dealt.max(2);
        }
    } else if kind == "clean_miss" {
        // R-ATK-7: the attacker stumbles.
        let adj = TempAdjustment { source: "clean_miss".into(), target: AdjTarget::Defense, value: -2, scope: Scope::All };
        ev.push(Event::AdjustmentAdded { actor: m.fighters[a].id.clone(), adjustment: adj.clone() });
        m.fighters[a].adjustments.push(adj);
    }
    p.damage_dealt = dealt;
    ev.push(Event::AttackResolved {
        actor: m.fighters[a].id.clone(),
        target: m.fighters[t].id.clone(),
        defense_cr: cr,
        attack_total: total,
        margin,
        outcome: kind.into(),
        raw_damage: raw,
        reduction,
        damage: dealt,
        target_hp: (m.fighters[t].hp - dealt).min(m.fighters[t].max_hp),
    });
    if dealt > 0 {
        change_hp(m, t, -dealt, "damage", ev);
        stun_check(m, dice, t, dealt, ev);
    }
}

/// R-INJ-4: more than half of max HP in one blow → Brawn-or-Nerve check vs the damage, or stunned.
fn stun_check(m: &mut Match, dice: &mut Dice, t: usize, dealt: i32, ev: &mut Vec<Event>) {
    let f = &m.fighters[t];
    if 2 * dealt <= f.max_hp || f.hp <= 0 {
        return;
    }
    let rank = f.stats.brawn.max(f.stats.nerve);
    let roll = stat_check(m, dice, rank, 0);
    let total = log_roll(ev, dice, &f.id.clone(), "stunning_blow", roll);
    if total < dealt {
        let f = &mut m.fighters[t];
        let c = ConditionInstance { id: "stunned".into(), duration: Duration::Persistent, removal_cr: Some(dealt) };
        f.conditions.retain(|c| c.id != "stunned"); // R-COND-5: refresh, no stacking
        f.conditions.push(c.clone());
        ev.push(Event::ConditionAdded { actor: f.id.clone(), condition: c });
        lose_ability_to_act(f, "stunned", ev);
    }
}
