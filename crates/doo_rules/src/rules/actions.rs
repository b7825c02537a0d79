//! §9 actions and §10 combinations: one action per opportunity after any movement, attack
//! restrictions (melee/ranged, reach, range, line of sight), the Run rule, the charge option.

use super::command::Guide;
use super::equipment::Wielded;
use super::fighter::Pool;
use super::grid::Sight;
use super::movement::is_run;
use super::profile::{ActionEffect, ActionRow, Cost, FreestepCombo, MovementCombo, Posture, Rank, RunThen2apAttack, WeaponUse};
use super::spending::{Price, check_afford, check_cap, price_only};
use super::state::Match;
use super::violation::{RuleResult, Violation};

/// A checked action, ready to apply.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionPlan {
    pub row: ActionRow,
    pub target: Option<usize>,
    pub price: Price,
    pub item: Option<String>,
    pub posture: Option<Posture>,
    pub pool: Option<Pool>,
    pub guide: Option<Guide>,
    pub spell: Option<String>,
    pub critical: Option<super::command::CriticalChoice>,
    /// R-COMBO-4 legacy charge: exempt from the cap.
    pub charge: bool,
    /// Attack: melee or ranged, line of sight and range adjustments.
    pub melee: bool,
    pub sight: Sight,
}

pub fn is_attack(row: &ActionRow) -> bool {
    matches!(row.effect, ActionEffect::Attack { .. })
}

/// R-RNG-3/R-RNG-5, G-30: range adjustment at distance `d` (`step` per doubling of the base
/// range; `adjacent` at distance 1 unless the target is motionless).
pub fn range_adjustment(w: &Wielded, d: u32, motionless: bool, step: i32, adjacent: i32) -> i32 {
    match w {
        Wielded::Ranged(r) => {
            if d == 1 {
                return if motionless { 0 } else { adjacent };
            }
            // −3 per doubling of the base range; other floors (u32::MAX) are out of range anyway.
            let mut band = r.range.max(1);
            let mut adj = 0;
            while d > band && band < u32::MAX / 2 {
                band = band.saturating_mul(2);
                adj += step;
            }
            adj
        }
        _ => 0,
    }
}

/// R-ATK-2 for an attack by `a` on `t` with the weapon restriction `weapon`.
pub fn check_attack_target(m: &Match, a: usize, t: usize, weapon: WeaponUse, name: &str) -> RuleResult<(bool, Sight)> {
    let f = &m.fighters[a];
    let tf = &m.fighters[t];
    if a == t {
        return Err(Violation::new("R-ATK-2", format!("{} cannot attack himself.", f.name)));
    }
    if m.is_dead(t) {
        return Err(Violation::new("R-INJ-8", format!("{} is dead and out of play.", tf.name)));
    }
    if let Some(c) = m.conditions.active(f, m.rules.options.conditions_adv).find(|c| c.no_attacks) {
        return Err(Violation::new("R-COND-3", format!("{} is {} and cannot attack.", f.name, c.name.to_lowercase())));
    }
    let w = m.equipment.wielded(f);
    match (weapon, w.is_melee()) {
        (WeaponUse::Melee, false) => return Err(Violation::new("R-ACT-3", format!("{name} is melee only; {} holds a ranged weapon.", f.name))),
        (WeaponUse::Ranged, true) => return Err(Violation::new("R-ACT-3", format!("{name} is ranged only; {} has no ranged weapon ready.", f.name))),
        _ => {}
    }
    let d = f.pos.distance(tf.pos);
    if !w.reaches(d) {
        let rule = match &w {
            Wielded::Ranged(_) if d == 0 => "R-RNG-5",
            Wielded::Ranged(_) => "R-RNG-4",
            _ => "R-ATK-10",
        };
        let dist = if d == u32::MAX { "on another floor".to_string() } else { format!("{d} spaces away") };
        return Err(Violation::new(rule, format!("{} is {dist}, out of reach of {}'s weapon.", tf.name, f.name)).also("R-ATK-2"));
    }
    let sight = m.board.line_of_sight(f.pos, tf.pos);
    if sight == Sight::None {
        return Err(Violation::new("R-ATK-12", format!("{} has no line of sight to {}.", f.name, tf.name)).also("R-ATK-2"));
    }
    Ok((w.is_melee(), sight))
}

#[allow(clippy::too_many_arguments)]
pub fn check_action(
    m: &Match,
    a: usize,
    row: &ActionRow,
    target: Option<usize>,
    item: Option<&str>,
    posture: Option<Posture>,
    pool: Option<Pool>,
    guide: Option<&Guide>,
    spell: Option<&str>,
) -> RuleResult<ActionPlan> {
    let f = &m.fighters[a];
    let name = &row.name;
    let (price, charge) = check_price(m, a, row)?;

    // R-INJ-8: the dead are out of play — no action targets them (first aid, guiding, attacks…).
    if let Some(t) = target {
        if m.is_dead(t) {
            return Err(Violation::new("R-INJ-8", format!("{} is dead and out of play.", m.fighters[t].name)));
        }
    }
    let mut plan = ActionPlan {
        row: row.clone(),
        target,
        price,
        item: None,
        posture: None,
        pool: None,
        guide: None,
        spell: None,
        critical: None,
        charge,
        melee: true,
        sight: Sight::Clear,
    };
    match &row.effect {
        ActionEffect::Attack { weapon, .. } => {
            let Some(t) = target else { return Err(Violation::new("R-ATK-2", format!("{name} needs a target."))) };
            let (melee, sight) = check_attack_target(m, a, t, *weapon, name)?;
            if let Wielded::Ranged(r) = m.equipment.wielded(f) {
                if r.hand_reload_brawn.is_some() && !f.loadout.loaded {
                    return Err(Violation::new("R-RNG-8", format!("{}'s {} must be reset before it can shoot again.", f.name, r.name)));
                }
                if f.loadout.ammo == Some(0) {
                    return Err(Violation::new("R-RNG-9", format!("{} has no ammunition left for the {}.", f.name, r.name)));
                }
            }
            plan.melee = melee;
            plan.sight = sight;
        }
        ActionEffect::ShieldBlock => {
            if f.loadout.shield.is_none() || f.skill("shields") < Rank::Journeyman {
                return Err(Violation::new("R-ACT-1", format!("{name} needs an equipped shield and Journeyman Shields.")));
            }
        }
        ActionEffect::CastSpell => {
            if f.caster == super::fighter::Caster::None {
                return Err(Violation::new("G-26", format!("{} knows no spells.", f.name)));
            }
            let (id, t) = super::spells::check_spell(m, a, spell, target)?;
            plan.spell = Some(id);
            plan.target = Some(t);
        }
        ActionEffect::UseItem => {
            let id = item.map(str::to_string).or_else(|| f.loadout.items.iter().find(|i| m.equipment.item(i).is_some_and(|it| it.heals.is_some())).cloned());
            match id {
                // A spare weapon, shield or armor is carried, not used.
                Some(id) if m.equipment.knows(&id) && m.equipment.item(&id).is_none() => {
                    return Err(Violation::new("R-HEAL-6", format!("The {id} {} carries is gear, not an item to use.", f.name)));
                }
                Some(id) if f.loadout.items.contains(&id) => plan.item = Some(id),
                Some(id) => return Err(Violation::new("R-HEAL-6", format!("{} carries no {id}.", f.name))),
                None => return Err(Violation::new("R-HEAL-6", format!("{} carries no usable item.", f.name))),
            }
        }
        ActionEffect::FirstAid => {
            let t = target.unwrap_or(a);
            if f.pos.distance(m.fighters[t].pos) > 1 {
                return Err(Violation::new("G-24", format!("{} must be in the same or an adjacent space.", m.fighters[t].name)));
            }
            plan.target = Some(t);
        }
        ActionEffect::Recover { mana_only, .. } => {
            plan.pool = Some(if *mana_only { Pool::Mana } else { pool.or(f.recovery).or(f.caster.default_recovery()).unwrap_or(Pool::Mana) });
        }
        ActionEffect::Flop => {
            let to = posture.unwrap_or(Posture::Prone);
            if to == Posture::Standing || to == f.posture {
                return Err(Violation::new("R-POS-2", format!("{name} throws {} to sitting, kneeling or prone, from a different posture.", f.name)));
            }
            plan.posture = Some(to);
        }
        ActionEffect::GuideStunned => {
            let Some(t) = target else { return Err(Violation::new("R-INJ-5", "Guide Stunned Ally needs the ally.")) };
            let tf = &m.fighters[t];
            if !tf.has_condition("stunned") || m.enemies(a, t) {
                return Err(Violation::new("R-INJ-5", format!("{} is not a stunned ally.", tf.name)));
            }
            if f.pos.distance(tf.pos) > 1 {
                return Err(Violation::new("G-24", format!("{} must be in the same or an adjacent space.", tf.name)));
            }
            let g = guide.cloned().unwrap_or(Guide::Sit);
            if let Guide::Step(p) = &g {
                super::free_steps::check_path(m, t, tf.pos, &[*p], "R-INJ-5")?;
            }
            plan.guide = Some(g);
        }
        ActionEffect::ResetCrossbow => {
            if f.loadout.loaded {
                return Err(Violation::new("R-RNG-8", format!("{}'s crossbow is already loaded.", f.name)));
            }
        }
        ActionEffect::ReadyItem => {}
    }
    Ok(plan)
}

/// Whether `a` may take the action of `row` now, and at what price: one action per opportunity
/// (but the shot after a crossbow reset, R-COMBO-9, R-RNG-8), what may follow a movement or free
/// steps under the options (R-AP-2, R-FS-7, R-ONLY-8, R-COMBO-3), X/Only and Only decided by
/// AP_start (§7), the legacy charge (R-COMBO-4), the opportunity's cap and the AP he has. Returns
/// the price and whether the action is a charge.
fn check_price(m: &Match, a: usize, row: &ActionRow) -> RuleResult<(Price, bool)> {
    let f = &m.fighters[a];
    let opts = &m.rules.options;
    let name = &row.name;
    let attack = is_attack(row);
    // R-COMBO-9, R-RNG-8: one action per opportunity, except a crossbow reset followed by the shot.
    let reset_then_shot = attack
        && f.opp.action.as_deref().and_then(|id| m.rules.action(id)).is_some_and(|r| r.effect == ActionEffect::ResetCrossbow)
        && matches!(m.equipment.wielded(f), Wielded::Ranged(r) if r.hand_reload_brawn.is_some());
    if f.opp.action.is_some() && !reset_then_shot {
        return Err(Violation::new("R-COMBO-9", format!("Only one action per opportunity: {} already took one.", f.name)).also("R-AP-2"));
    }
    // R-AP-2 / C-46: the option's "only an attack" also covers the 0-AP Flop.
    if f.opp.movement.is_some() && !attack && opts.movement_combo == MovementCombo::AttacksOnly {
        return Err(Violation::new("R-AP-2", format!("Under the 2016 rule only an attack may follow a movement in the same opportunity; {name} is not one.")));
    }
    if f.opp.free_steps && f.opp.movement.is_some() && opts.freestep_combo == FreestepCombo::Legacy {
        return Err(Violation::new("R-FS-7", "Under the 2016 rule free steps may be followed by a movement or by an action, not both."));
    }
    // Price: X/Only and Only decided by AP_start (§7); the legacy charge (R-COMBO-4).
    let moved_by_path = f.opp.movement.as_deref().and_then(|id| m.rules.movement(id)).is_some_and(|r| matches!(r.effect, super::profile::MovementEffect::Path));
    let charge = row.charge && opts.allout_charge && moved_by_path && !(f.opp.free_steps && opts.freestep_combo == FreestepCombo::Legacy);
    let price = match row.cost {
        Cost::Crossbow { hand, crank } => {
            let w = m.equipment.wielded(f);
            let brawn = f.stats.brawn;
            match w {
                Wielded::Ranged(r) if r.hand_reload_brawn.is_some() => {
                    Price { ap: if brawn >= r.hand_reload_brawn.unwrap_or(u32::MAX) { hand } else { crank }, only: false }
                }
                _ => return Err(Violation::new("R-RNG-8", format!("{} has no crossbow ready to reset.", f.name))),
            }
        }
        Cost::XOnly(x) if charge && f.ap.start >= x => Price { ap: x, only: false },
        c => price_only(f, c, name)?,
    };
    if price.only && (f.opp.movement.is_some()) {
        return Err(Violation::new("R-ONLY-8", format!("{name} in Only mode cannot follow a movement; only free steps may precede it.")).also("R-ONLY-6"));
    }
    if !charge {
        check_cap(m, f, price, name)?;
    }
    // R-COMBO-3: after a Run only a 1-AP attack (option run_then_2ap_attack).
    let ran = f.opp.ran || f.opp.movement.as_deref().and_then(|id| m.rules.movement(id)).is_some_and(is_run);
    if attack && ran && price.ap >= 2 && !charge && opts.run_then_2ap_attack == RunThen2apAttack::Forbidden {
        return Err(Violation::new("R-COMBO-3", format!("After a Run only a 1-AP attack may follow in the same opportunity; {name} costs {}.", price.ap)));
    }
    check_afford(f, price, name)?;
    Ok((price, charge))
}
