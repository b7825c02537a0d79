//! CP a hero earns in play (R-CP-9): critical and legendary results, from the match's events.

use crate::rules::event::Event;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// CP of a result by its margin (R-ATK-7's and R-CHK-5's CP columns): ±6..8 earn 1, ±9 or more 2.
pub fn cp_of_margin(margin: i32) -> u32 {
    match margin.unsigned_abs() {
        0..=5 => 0,
        6..=8 => 1,
        _ => 2,
    }
}

/// CP a hero earned, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CpLine {
    pub hero: String,
    pub cp: u32,
    /// The rule that gives it.
    pub rule: String,
    pub why: String,
}

fn category(margin: i32, attack: bool) -> &'static str {
    match (attack, margin) {
        (true, m) if m >= 9 => "a Legendary Hit",
        (true, m) if m >= 6 => "a Critical Hit",
        (true, m) if m <= -9 => "a Disastrous Miss",
        (true, _) => "a Critical Miss",
        (false, m) if m >= 9 => "a Legendary Success",
        (false, m) if m >= 6 => "a Critical Success",
        (false, m) if m <= -9 => "a Catastrophic Failure",
        (false, _) => "a Critical Failure",
    }
}

/// R-CP-9 (G-79): the CP `heroes` earned in play, from the match's events, in order: attacks they
/// made or suffered with a critical or legendary outcome, and their own task checks, once per
/// hero and object per level. `names` gives each id's name for the sentences.
pub fn cp_from_events(events: &[Event], heroes: &BTreeSet<String>, names: &BTreeMap<String, String>) -> Vec<CpLine> {
    let name = |id: &str| names.get(id).cloned().unwrap_or_else(|| id.to_string());
    let mut out = Vec::new();
    let mut objects: BTreeSet<(String, String)> = BTreeSet::new();
    for e in events {
        match e {
            Event::AttackResolved { actor, target, margin, .. } => {
                let cp = cp_of_margin(*margin);
                if cp == 0 {
                    continue;
                }
                let what = category(*margin, true);
                if heroes.contains(actor) {
                    out.push(CpLine { hero: actor.clone(), cp, rule: "R-CP-9".into(), why: format!("{what} on {}", name(target)) });
                }
                if heroes.contains(target) && target != actor {
                    out.push(CpLine { hero: target.clone(), cp, rule: "R-CP-9".into(), why: format!("suffered {what} from {}", name(actor)) });
                }
            }
            Event::TaskCheck { actor, check, object, margin } => {
                let cp = cp_of_margin(*margin);
                if cp == 0 || !heroes.contains(actor) || !objects.insert((actor.clone(), object.clone())) {
                    continue;
                }
                out.push(CpLine { hero: actor.clone(), cp, rule: "R-CP-9".into(), why: format!("{} ({})", category(*margin, false), check.replace('_', " ")) });
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    // R-CP-9: CP for critical results made or suffered, and for task checks once per object.
    #[test]
    fn cp_from_play() {
        let heroes: BTreeSet<String> = ["h".to_string()].into();
        let names = BTreeMap::new();
        let atk = |actor: &str, target: &str, margin: i32| Event::AttackResolved {
            actor: actor.into(),
            target: target.into(),
            defense_cr: 10,
            attack_total: 10 + margin,
            margin,
            outcome: String::new(),
            raw_damage: 0,
            reduction: 0,
            damage: 0,
            target_hp: 5,
        };
        let task = |margin: i32, object: &str| Event::TaskCheck { actor: "h".into(), check: "pick_lock".into(), object: object.into(), margin };
        let ev = vec![
            atk("h", "orc", 9),
            atk("h", "orc", 5),
            atk("orc", "h", -7),
            atk("orc", "h", 6),
            atk("orc", "goblin", 12),
            task(7, "lock@(1, 1)"),
            task(-9, "lock@(1, 1)"),
            task(-10, "lock@(2, 2)"),
        ];
        let lines = cp_from_events(&ev, &heroes, &names);
        let cps: Vec<u32> = lines.iter().map(|l| l.cp).collect();
        assert_eq!(cps, vec![2, 1, 1, 1, 2], "{lines:#?}");
        assert!(lines.iter().all(|l| l.hero == "h" && l.rule == "R-CP-9"));
        assert!(lines[0].why.contains("Legendary Hit"));
        assert!(lines[1].why.contains("suffered a Critical Miss"));
    }
}
