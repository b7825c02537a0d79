//! §11 reflexes and responses: declared by the defender in the windows an attack opens,
//! paid from AP outside the opportunity (R-AP-5), with the rows' requirements and penalties.

use super::equipment::Wielded;
use super::profile::{ReactionKind, ReactionRow, ReflexRules, Requirement};
use super::state::{Match, PendingAttack, Window};
use super::violation::{RuleResult, Violation};

/// Can defender `d` declare `row` against `p` now?
pub fn check_reaction(m: &Match, d: usize, row: &ReactionRow, p: &PendingAttack) -> RuleResult {
    let f = &m.fighters[d];
    let name = &row.name;
    let (window, rule) = match row.kind {
        ReactionKind::Reflex => (Window::Reflex, "R-REACT-2"),
        ReactionKind::Response => (Window::Response, "R-REACT-8"),
    };
    if p.defender != d || p.window != Some(window) || p.is_reaction {
        let what = if row.kind == ReactionKind::Reflex { "a reflex" } else { "a response" };
        return Err(Violation::new(rule, format!("No attack on {} is waiting for {what}.", f.name)));
    }
    if !m.can_act(d) {
        return Err(Violation::new("R-REACT-3", format!("{} is unable to act and cannot react.", f.name)));
    }
    if f.turn.took_only {
        return Err(Violation::new("R-ONLY-6", format!("{} took an Only action this turn and cannot react.", f.name)));
    }
    if f.ap.current < row.cost {
        return Err(Violation::new("R-REACT-3", format!("{name} costs {} AP; {} has {}.", row.cost, f.name, f.ap.current)).also("R-AP-1"));
    }
    let legacy = m.rules.options.reflex_rules == ReflexRules::LegacyAbility;
    if !legacy && !p.melee {
        return Err(Violation::new("R-REACT-3", format!("{name} answers melee attacks only.")));
    }
    let w = m.equipment.wielded(f);
    let req_rule = if row.kind == ReactionKind::Response { "R-REACT-9" } else { "R-REACT-5" };
    match (&row.requires, legacy) {
        (Requirement::Shield { .. }, true) | (Requirement::Shield { rank: None }, false) => {
            if f.loadout.shield.is_none() {
                return Err(Violation::new(req_rule, format!("{name} needs a shield.")));
            }
        }
        (Requirement::Shield { rank: Some(r) }, false) => {
            if f.loadout.shield.is_none() || f.skill("shields") < *r {
                return Err(Violation::new(req_rule, format!("{name} needs a shield and {r:?} Shields or better.")));
            }
        }
        (_, true) => {
            if let Some(ab) = &row.legacy_ability {
                if !f.abilities.iter().any(|x| x == ab) {
                    return Err(Violation::new("R-REACT-3", format!("{name} needs the {ab} ability (2016 rules).")));
                }
            }
        }
        (Requirement::Weapon { skills, rank }, false) => {
            let ok = matches!(w, Wielded::Melee(..)) && skills.iter().any(|s| s == w.skill()) && f.skill(w.skill()) >= *rank;
            if !ok {
                return Err(Violation::new(req_rule, format!("{name} needs a ready {} weapon and {rank:?} rank or better with it.", skills.join("/"))));
            }
        }
        (Requirement::None, false) => {}
    }
    // G-48: attacks back need the attacker within the reactor's reach.
    if matches!(row.effect, super::profile::ReactionEffect::Counterattack | super::profile::ReactionEffect::Riposte) {
        let dist = f.pos.distance(m.fighters[p.attacker].pos);
        if !w.is_melee() || !w.reaches(dist) {
            return Err(Violation::new("G-48", format!("{} is out of {}'s reach.", m.fighters[p.attacker].name, f.name)));
        }
    }
    Ok(())
}

/// Reactions of `kind` the defender could declare now (for prompts and for skipping empty windows).
pub fn options(m: &Match, d: usize, p: &PendingAttack, kind: ReactionKind) -> Vec<String> {
    let mut probe = p.clone();
    probe.window = Some(if kind == ReactionKind::Reflex { Window::Reflex } else { Window::Response });
    m.rules.reactions.iter().filter(|r| r.kind == kind && check_reaction(m, d, r, &probe).is_ok()).map(|r| r.id.clone()).collect()
}
