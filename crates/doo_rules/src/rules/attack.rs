//! Attack resolution (R-ATK-1 steps 3–7, §15 damage, §19 consequences): Defense check or CR 6,
//! Attack check with every adjustment named, outcome by margin, damage and armor, critical
//! outcomes, miss effects, HP changes, stunning blows, incapacitation and death.

use super::command::CriticalChoice;
use super::defense::{defense_parts, helpless, posture_attack};
use super::dice::Dice;
use super::equipment::{Stat, Wielded};
use super::event::{Event, Text};
use super::fighter::{AdjTarget, ConditionInstance, Duration, Fighter, TempAdjustment};
use super::profile::{ArmorBypass, Posture, Rank, Scope};
use super::roll::{Parts, log_roll, log_roll_parts, stat_check, sum};
use super::state::{Match, PendingAttack};
use serde::Serialize;

/// R-ATK-7 outcome category by margin (the tables' bands).
pub fn outcome(m: &Match, margin: i32) -> String {
    m.tables.band(margin).attack.clone()
}

/// R-INJ-1 injury status (C-28: "wounded" is the data's "bloodied").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Injury {
    Healthy,
    Bruised,
    Wounded,
    Incapacitated,
    Dead,
}

pub fn injury(f: &Fighter) -> Injury {
    match f.hp {
        hp if hp <= -f.max_hp => Injury::Dead,
        hp if hp <= 0 => Injury::Incapacitated,
        hp if hp >= f.max_hp => Injury::Healthy,
        hp if 2 * hp >= f.max_hp => Injury::Bruised,
        _ => Injury::Wounded,
    }
}

/// The die rank of a character's stat now: Finesse after the armor deficit (R-GEAR-6).
pub fn stat_rank(m: &Match, i: usize, s: Stat) -> u32 {
    let f = &m.fighters[i];
    match s {
        Stat::Brawn => f.stats.brawn,
        Stat::Finesse => m.equipment.finesse_rank(f),
        Stat::Savvy => f.stats.savvy,
        Stat::Nerve => f.stats.nerve,
    }
}

/// R-ATK-5: the named adjustments to `a`'s Attack check against `t` that do not depend on the
/// attack action (skill, Brawn deficits, conditions, posture, temporary penalties, range, sight).
pub fn attack_parts(m: &Match, a: usize, t: usize) -> Parts {
    attack_parts_from(m, a, m.fighters[a].pos, t)
}

/// `attack_parts` as if the attacker stood at `at` (previews and the AI).
pub fn attack_parts_from(m: &Match, a: usize, at: super::grid::Pos, t: usize) -> Parts {
    let mut parts = attacker_parts(m, a);
    let tf = &m.fighters[t];
    parts.push(("range".into(), range_part(m, a, at, t, tf.pos)));
    parts.push(("line_of_sight".into(), m.board.line_of_sight(at, tf.pos).attack_adjustment().unwrap_or(0)));
    parts
}

/// The range part of the Attack check for `a` at `at` shooting `t` standing at `t_at` (R-RNG-3, R-RNG-5).
pub fn range_part(m: &Match, a: usize, at: super::grid::Pos, t: usize, t_at: super::grid::Pos) -> i32 {
    let w = m.equipment.wielded(&m.fighters[a]);
    super::actions::range_adjustment(&w, at.distance(t_at), helpless(m, t), m.tables.range_step, m.tables.adjacent_ranged)
}

/// The parts of the Attack check that depend on the attacker alone, not on where either figure
/// stands (skill, gear, conditions, posture, adjustments).
pub fn attacker_parts(m: &Match, a: usize) -> Parts {
    let f = &m.fighters[a];
    let adv = m.rules.options.conditions_adv;
    let w = m.equipment.wielded(f);
    let mut parts: Parts = vec![("skill".into(), f.skill(w.skill()).adjustment())];
    if f.loadout.shield.is_some() && f.skill("shields") == Rank::Untrained {
        parts.push(("untrained_shield".into(), -2)); // R-GEAR-8
    }
    parts.push(("weapon_brawn_deficit".into(), -(weapon_deficit(m, a) as i32))); // R-GEAR-3, R-RNG-7
    if let Wielded::Melee(mw, _) = &w {
        parts.push(("improvised".into(), mw.attack_adj)); // R-GEAR-9
    }
    if let Some(s) = f.loadout.shield.as_deref().and_then(|s| m.equipment.shield(s)) {
        parts.push(("shield_brawn_deficit".into(), -(s.brawn.saturating_sub(f.stats.brawn) as i32)));
    }
    if w.check_stat() == Stat::Brawn {
        parts.push(("armor_brawn_deficit".into(), -(m.equipment.armor_deficit(f) as i32))); // R-GEAR-6
    }
    parts.extend(m.conditions.active(f, adv).map(|c| (c.id.clone().into(), c.attack)));
    parts.push(("posture".into(), posture_attack(f.posture, &w, adv, &m.rules.limits.prone)));
    parts.extend(f.adjustments.iter().filter(|x| x.target == AdjTarget::Attack).map(|x| (x.source.clone().into(), x.value)));
    parts
}

pub fn attack_adjustment(m: &Match, a: usize, t: usize) -> i32 {
    sum(&attack_parts(m, a, t))
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
fn lose_ability_to_act(f: &mut Fighter, why: &'static str, ev: &mut Vec<Event>) {
    if f.ap.current > 0 {
        f.ap.current = 0;
        ev.push(Event::ApSet { actor: f.id.as_str().into(), ap: 0, ap_start: f.ap.start, reason: format!("{why} (G-13)").into() });
    }
    if f.free_steps.available {
        f.free_steps.lose(super::fighter::FreeStepsLoss::UnableToAct);
        ev.push(Event::FreeStepsLost { actor: f.id.as_str().into(), reason: why.into() });
    }
}

/// Changes HP and applies what follows: incapacitation (prone, no AP, no free steps, bleeding),
/// death, and the HP cap (R-DMG-4, R-INJ-1, R-INJ-3, R-INJ-8, G-13, G-14, G-23).
pub fn change_hp(m: &mut Match, i: usize, delta: i32, reason: impl Into<Text>, ev: &mut Vec<Event>) {
    let f = &mut m.fighters[i];
    let from = f.hp;
    f.hp = (f.hp + delta).min(f.max_hp);
    if f.hp == from {
        return;
    }
    ev.push(Event::HpChanged { actor: f.id.as_str().into(), from, to: f.hp, reason: reason.into() });
    if f.hp <= 0 && from > 0 {
        // R-INJ-3: incapacitated and dying: falls prone, loses AP and free steps, bleeds.
        lose_ability_to_act(f, "incapacitated", ev);
        if f.posture != Posture::Prone {
            ev.push(Event::PostureChanged { actor: f.id.as_str().into(), from: f.posture, to: Posture::Prone });
            f.posture = Posture::Prone;
        }
        for (id, dur) in [("incapacitated", Duration::Permanent), ("bleeding", Duration::Persistent)] {
            if !f.has_condition(id) {
                let c = ConditionInstance { id: id.into(), duration: dur, removal_cr: None };
                ev.push(Event::ConditionAdded { actor: f.id.as_str().into(), condition: c.clone() });
                f.conditions.push(c);
            }
        }
    }
    if f.hp > 0 && from <= 0 {
        f.conditions.retain(|c| c.id != "incapacitated");
        ev.push(Event::ConditionRemoved { actor: f.id.as_str().into(), condition: "incapacitated".into(), reason: "healed".into() });
    }
    if f.hp <= 0 && f.mook && f.hp > -f.max_hp {
        // G-14: minor monsters die at 0 HP and are removed.
        f.hp = -f.max_hp;
    }
    if f.hp <= -f.max_hp && from > -f.max_hp {
        // R-INJ-8: out of play.
        ev.push(Event::Died { actor: f.id.as_str().into() });
        f.ap.current = 0;
    }
}

/// Damage of `a`'s ready weapon: the die (exploding per `damage_explodes`, R-DMG-1), or the
/// unarmed Brawn die halved rounding up (R-ATK-11).
fn roll_weapon_damage(m: &Match, a: usize, dice: &mut Dice, ev: &mut Vec<Event>, purpose: &'static str) -> i32 {
    let f = &m.fighters[a];
    let explode = m.rules.options.damage_explodes;
    let (n, rank, explode, halve, bonus) = match m.equipment.wielded(f) {
        // R-ATK-11: small improvised weapons hit like fists, +1 per full 5 points of Brawn.
        Wielded::Melee(w, _) if w.small_improvised => (1, f.stats.brawn, true, true, (f.stats.brawn / 5) as i32),
        Wielded::Melee(w, _) => (w.damage.0, w.damage.1, explode, false, w.damage_adj),
        Wielded::Ranged(w) => (w.damage.0, w.damage.1, explode, false, 0),
        Wielded::Unarmed => (1, f.stats.brawn, true, true, 0),
    };
    let roll = dice.roll(n, rank, explode, 0);
    let v = log_roll(ev, dice, &f.id, purpose, roll);
    (if halve { (v + 1) / 2 } else { v }) + bonus
}

/// G-20: the damage die's highest face, no explosions (unarmed: ceil(Brawn / 2)).
fn die_maximum(m: &Match, a: usize) -> i32 {
    let f = &m.fighters[a];
    match m.equipment.wielded(f) {
        Wielded::Melee(w, _) if w.small_improvised => (f.stats.brawn as i32 + 1) / 2 + (f.stats.brawn / 5) as i32,
        Wielded::Melee(w, _) => (w.damage.0 * w.damage.1) as i32 + w.damage_adj,
        Wielded::Ranged(w) => (w.damage.0 * w.damage.1) as i32,
        Wielded::Unarmed => (f.stats.brawn as i32 + 1) / 2,
    }
}

fn armor_of(m: &Match, t: usize) -> i32 {
    m.fighters[t].loadout.armor.as_deref().and_then(|x| m.equipment.armor(x)).map_or(0, |x| x.reduction)
}

fn add_temp(m: &mut Match, i: usize, source: &str, value: i32, ev: &mut Vec<Event>) {
    let adj = TempAdjustment { source: source.into(), target: AdjTarget::Defense, value, scope: Scope::All };
    ev.push(Event::AdjustmentAdded { actor: m.fighters[i].id.as_str().into(), adjustment: adj.clone() });
    m.fighters[i].adjustments.push(adj);
}

/// Step 3 of R-ATK-1: the defender's Defense check, or CR 6 for one who makes none (R-DEF-1,
/// R-ATK-3, R-ATK-4). Returns the CR the attack must reach.
pub fn defense_step(m: &Match, dice: &mut Dice, t: usize, melee: bool, shield_doubled: bool, ev: &mut Vec<Event>) -> i32 {
    if helpless(m, t) {
        return m.rules.limits.helpless_defense_cr;
    }
    let parts = defense_parts(m, t, melee, shield_doubled);
    let rank = m.equipment.finesse_rank(&m.fighters[t]);
    let roll = stat_check(m, dice, rank, sum(&parts));
    log_roll_parts(ev, dice, &m.fighters[t].id, "defense", roll, parts)
}

/// What an attack (or a spell cast like one) came to.
pub struct Resolution {
    pub cr: i32,
    pub total: i32,
    pub kind: String,
    pub raw: i32,
    /// The parts of `raw`, each named (the log tells them).
    pub parts: Parts,
    pub reduction: i32,
    pub dealt: i32,
}

/// Reports a resolved attack, then applies its damage and the stunning-blow check (R-DMG-4, R-INJ-4).
pub fn report_and_damage(m: &mut Match, dice: &mut Dice, a: usize, t: usize, r: &Resolution, reason: impl Into<Text>, ev: &mut Vec<Event>) {
    ev.push(Event::AttackResolved {
        actor: m.fighters[a].id.as_str().into(),
        target: m.fighters[t].id.clone(),
        defense_cr: r.cr,
        attack_total: r.total,
        margin: r.total - r.cr,
        outcome: r.kind.clone(),
        raw_damage: r.raw,
        damage_parts: r.parts.clone(),
        reduction: r.reduction,
        damage: r.dealt,
        target_hp: (m.fighters[t].hp - r.dealt).min(m.fighters[t].max_hp),
    });
    if r.dealt > 0 {
        change_hp(m, t, -r.dealt, reason, ev);
        stun_check(m, dice, t, r.dealt, ev);
    }
}

/// Steps 3–7 of R-ATK-1 for `p` (the reflex window is already closed).
pub fn resolve(m: &mut Match, dice: &mut Dice, p: &mut PendingAttack, ev: &mut Vec<Event>) {
    let (a, t) = (p.attacker, p.defender);
    let cr = defense_step(m, dice, t, p.melee, p.shield_doubled, ev);
    // Step 4: Attack check (R-ATK-5).
    let stat = m.equipment.wielded(&m.fighters[a]).check_stat();
    let mut parts = attack_parts(m, a, t);
    parts.push((p.with.clone().into(), p.attack_adj));
    let roll = stat_check(m, dice, stat_rank(m, a, stat), sum(&parts));
    let total = log_roll_parts(ev, dice, &m.fighters[a].id, "attack", roll, parts);
    // Step 5: hit on a tie; the category by margin (R-ATK-6, R-ATK-7).
    let margin = total - cr;
    let kind = outcome(m, margin);
    let brawn_weapon = stat == Stat::Brawn;
    let (mut raw, mut reduction, mut dealt, mut dparts) = (0, 0, 0, Vec::new());
    // R-ATK-8, R-ATK-9: with `crit_outcomes_adv` the attacker may pick another effect.
    let special = match (m.rules.options.crit_outcomes_adv, kind.as_str(), p.critical) {
        (true, "critical_hit", Some(c @ (CriticalChoice::Blind | CriticalChoice::Disarm | CriticalChoice::Trip))) => Some(c),
        (true, "legendary_hit", Some(c @ (CriticalChoice::Blind | CriticalChoice::BreakWeapon))) => Some(c),
        _ => None,
    };
    if let Some(c) = special {
        critical_effect(m, t, c, kind == "legendary_hit", ev);
    } else if margin >= 0 {
        // Step 6 / §15: raw damage with its adjustments summed first (R-DMG-1), then armor (R-DMG-2).
        // Issue 43: every part of the total is named for the log (`damage_parts`).
        let max = die_maximum(m, a);
        let tb = &m.tables;
        dparts = match (kind.as_str(), brawn_weapon) {
            ("critical_hit", true) => vec![("die_maximum".into(), max), ("critical_hit".into(), tb.critical_hit_brawn_bonus)], // R-DMG-3
            ("legendary_hit", true) => vec![(format!("die_maximum_x{}", tb.legendary_hit_brawn_multiplier).into(), tb.legendary_hit_brawn_multiplier * max)],
            ("legendary_hit", false) => vec![("die_maximum".into(), max)],
            (k, b) => {
                let mut v: Parts = vec![("rolled".into(), roll_weapon_damage(m, a, dice, ev, "damage"))];
                if k == "solid_hit" && b {
                    v.push(("solid_hit".into(), tb.solid_hit_brawn_damage));
                }
                v
            }
        };
        dparts.push((p.with.clone().into(), p.damage_adj));
        dparts.push(("below_the_weapon's_brawn".into(), -(weapon_deficit(m, a) as i32)));
        dparts.retain(|d| d.1 != 0 || d.0 == "rolled");
        raw = dparts.iter().map(|d| d.1).sum();
        let armor = armor_of(m, t);
        let bypass = match m.rules.options.armor_bypass {
            ArmorBypass::CritTable => !brawn_weapon && matches!(kind.as_str(), "critical_hit" | "legendary_hit"),
            ArmorBypass::LegacyMargin => margin >= m.tables.legacy_armor_bypass_margin, // C-30
        };
        reduction = if bypass { 0 } else { armor };
        dealt = (raw - reduction).max(0); // R-DMG-2: never below 0
        if kind == "solid_hit" && !brawn_weapon && dealt < m.tables.solid_hit_finesse_minimum {
            dealt = m.tables.solid_hit_finesse_minimum;
            dparts.push((format!("solid_hit:_at_least_{dealt}").into(), 0));
        }
        if kind == "solid_hit" && m.rules.options.crit_outcomes_adv {
            let v = m.tables.solid_hit_stumble_defense;
            add_temp(m, t, "solid_hit_stumble", v, ev); // R-ATK-9
        }
    }
    p.damage_dealt = dealt;
    let result = Resolution { cr, total, kind: kind.clone(), raw, parts: dparts, reduction, dealt };
    report_and_damage(m, dice, a, t, &result, "damage", ev);
    // Step 7: miss effects (R-ATK-7, R-ATK-8; the engine's choices per G-19, G-21).
    match kind.as_str() {
        "clean_miss" => {
            let v = m.tables.clean_miss_defense;
            add_temp(m, a, "clean_miss", v, ev);
        }
        "critical_miss" => {
            let f = &mut m.fighters[a];
            if let Some(w) = f.loadout.weapon.take() {
                ev.push(Event::WeaponDropped { actor: f.id.as_str().into(), weapon: w.clone(), at: f.pos });
                f.loadout.dropped.push((w, f.pos));
            } else if f.posture != Posture::Prone {
                ev.push(Event::PostureChanged { actor: f.id.as_str().into(), from: f.posture, to: Posture::Prone });
                f.posture = Posture::Prone;
                if f.free_steps.available {
                    f.free_steps.lose(super::fighter::FreeStepsLoss::LeftStanding);
                    ev.push(Event::FreeStepsLost { actor: f.id.as_str().into(), reason: "tripped".into() });
                }
            }
        }
        "disastrous_miss" => {
            if let Some(w) = m.fighters[a].loadout.weapon.take() {
                ev.push(Event::WeaponBroken { actor: m.fighters[a].id.as_str().into(), weapon: w });
            } else if m.can_act(t) {
                // R-DMG-5 / G-21: the defender's weapon damage with his adjustments; the attacker's armor applies.
                let roll = roll_weapon_damage(m, t, dice, ev, "disastrous_miss_damage") - weapon_deficit(m, t) as i32;
                let hurt = (roll - armor_of(m, a)).max(0);
                if hurt > 0 {
                    change_hp(m, a, -hurt, "disastrous miss", ev);
                    stun_check(m, dice, a, hurt, ev);
                }
            }
        }
        _ => {}
    }
}

/// R-ATK-9: a critical effect chosen instead of damage.
fn critical_effect(m: &mut Match, t: usize, c: CriticalChoice, legendary: bool, ev: &mut Vec<Event>) {
    let f = &mut m.fighters[t];
    ev.push(Event::Note { text: format!("{} suffers {:?} (critical outcome)", f.name, c).to_lowercase() });
    match c {
        CriticalChoice::Blind => {
            let dur = if legendary { Duration::Permanent } else { Duration::Temporary };
            let cond = ConditionInstance { id: "blinded".into(), duration: dur, removal_cr: None };
            f.conditions.retain(|x| x.id != "blinded");
            f.conditions.push(cond.clone());
            ev.push(Event::ConditionAdded { actor: f.id.as_str().into(), condition: cond });
        }
        CriticalChoice::Disarm => {
            if let Some(w) = f.loadout.weapon.take() {
                ev.push(Event::WeaponDropped { actor: f.id.as_str().into(), weapon: w.clone(), at: f.pos });
                f.loadout.dropped.push((w, f.pos));
            }
        }
        CriticalChoice::Trip => {
            if f.posture != Posture::Prone {
                ev.push(Event::PostureChanged { actor: f.id.as_str().into(), from: f.posture, to: Posture::Prone });
                f.posture = Posture::Prone;
                if f.free_steps.available {
                    f.free_steps.lose(super::fighter::FreeStepsLoss::LeftStanding);
                    ev.push(Event::FreeStepsLost { actor: f.id.as_str().into(), reason: "tripped".into() });
                }
            }
        }
        CriticalChoice::BreakWeapon => {
            if let Some(w) = f.loadout.weapon.take() {
                ev.push(Event::WeaponBroken { actor: f.id.as_str().into(), weapon: w });
            }
        }
        CriticalChoice::Damage => {}
    }
}

/// R-INJ-4: more than half of max HP in one blow → Brawn-or-Nerve check vs the damage, or stunned.
pub fn stun_check(m: &mut Match, dice: &mut Dice, t: usize, dealt: i32, ev: &mut Vec<Event>) {
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
        ev.push(Event::ConditionAdded { actor: f.id.as_str().into(), condition: c });
        lose_ability_to_act(f, "stunned", ev);
    }
}
