//! §13 Defense and §12 posture effects: standing and temporary adjustments summed per attack.

use super::equipment::Wielded;
use super::fighter::AdjTarget;
use super::profile::{Posture, ProneEffects};
use super::state::Match;

/// R-POS-4: prone modifies Defense (−3 in melee, +3 against ranged attacks by default).
pub fn posture_defense(p: Posture, melee: bool, adv: bool, e: &ProneEffects) -> i32 {
    if p == Posture::Prone && adv { if melee { e.melee_defense } else { e.ranged_defense } } else { 0 }
}

/// R-POS-4: a prone attacker's Attack-check adjustment by weapon.
pub fn posture_attack(p: Posture, w: &Wielded, adv: bool, e: &ProneEffects) -> i32 {
    if p != Posture::Prone || !adv {
        return 0;
    }
    match w {
        Wielded::Ranged(r) if r.skill == "crossbows" => e.crossbow_attack,
        Wielded::Ranged(_) => e.other_ranged_attack,
        _ => e.melee_attack,
    }
}

/// R-DEF-2/R-DEF-3/R-DEF-4 and G-33: every adjustment to `d`'s Defense check against an attack.
pub fn defense_adjustment(m: &Match, d: usize, melee: bool, shield_doubled: bool) -> i32 {
    super::roll::sum(&defense_parts(m, d, melee, shield_doubled))
}

/// The named parts of `defense_adjustment` (shown with the Defense roll).
pub fn defense_parts(m: &Match, d: usize, melee: bool, shield_doubled: bool) -> super::roll::Parts {
    let f = &m.fighters[d];
    let adv = m.rules.options.conditions_adv;
    let w = m.equipment.wielded(f);
    let weapon_rank = f.skill(w.skill()).adjustment();
    let shield = f.loadout.shield.as_deref().and_then(|s| m.equipment.shield(s));
    let shield_rank = shield.map(|_| f.skill("shields").adjustment());
    let skill = shield_rank.map_or(weapon_rank, |s| s.max(weapon_rank));
    let shield_bonus = shield.map_or(0, |s| s.defense * if shield_doubled { 2 } else { 1 });
    let shield_deficit = shield.map_or(0, |s| s.brawn.saturating_sub(f.stats.brawn) as i32);
    let mut parts = vec![
        ("skill".into(), skill),
        ("shield".into(), shield_bonus),
        ("shield_brawn_deficit".into(), -shield_deficit),
        ("posture".into(), posture_defense(f.posture, melee, adv, &m.rules.limits.prone)),
    ];
    parts.extend(m.conditions.active(f, adv).map(|c| (c.id.clone().into(), c.defense)));
    parts.extend(
        f.adjustments
            .iter()
            .filter(|a| a.target == AdjTarget::Defense && (a.scope == super::profile::Scope::All || melee))
            .map(|a| (a.source.clone().into(), a.value)),
    );
    parts
}

/// R-ATK-4 / R-DEF-5: makes no Defense check.
pub fn helpless(m: &Match, d: usize) -> bool {
    let f = &m.fighters[d];
    !m.can_act(d) || m.conditions.active(f, m.rules.options.conditions_adv).any(|c| c.no_defense)
}
