//! CP a hero earns in play (R-CP-9): critical and legendary results, from the match's events.

use crate::rules::event::Event;
use crate::rules::state::Match;
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

/// R-CP-9 (G-79): the CP lines one event gives `heroes`: an attack they made or suffered with a
/// critical or legendary outcome, or their own task check, once per hero and object per level
/// (`objects` remembers the pairs already paid). `name` gives each id's name for the sentences.
pub fn cp_of_event(e: &Event, heroes: &BTreeSet<String>, objects: &mut BTreeSet<(String, String)>, name: &dyn Fn(&str) -> String) -> Vec<CpLine> {
    let mut out = Vec::new();
    match e {
        Event::AttackResolved { actor, target, margin, .. } => {
            let cp = cp_of_margin(*margin);
            if cp == 0 {
                return out;
            }
            let what = category(*margin, true);
            if heroes.contains(actor.as_str()) {
                out.push(CpLine { hero: actor.to_string(), cp, rule: "R-CP-9".into(), why: format!("{what} on {}", name(target)) });
            }
            if heroes.contains(target) && target != actor {
                out.push(CpLine { hero: target.clone(), cp, rule: "R-CP-9".into(), why: format!("suffered {what} from {}", name(actor)) });
            }
        }
        Event::TaskCheck { actor, check, object, margin } => {
            let cp = cp_of_margin(*margin);
            if cp == 0 || !heroes.contains(actor.as_str()) || !objects.insert((actor.to_string(), object.clone())) {
                return out;
            }
            out.push(CpLine { hero: actor.to_string(), cp, rule: "R-CP-9".into(), why: format!("{} ({})", category(*margin, false), check.replace('_', " ")) });
        }
        _ => {}
    }
    out
}

/// R-CP-9 (G-79): the CP `heroes` earned in play, from a match's events, in order (see
/// [`cp_of_event`]). `names` gives each id's name for the sentences.
pub fn cp_from_events(events: &[Event], heroes: &BTreeSet<String>, names: &BTreeMap<String, String>) -> Vec<CpLine> {
    let name = |id: &str| names.get(id).cloned().unwrap_or_else(|| id.to_string());
    let mut objects: BTreeSet<(String, String)> = BTreeSet::new();
    events.iter().flat_map(|e| cp_of_event(e, heroes, &mut objects, &name)).collect()
}

impl CpLine {
    /// The event that tells it (`{"event": "cp_earned", …}`).
    pub fn event(self) -> Event {
        Event::CpEarned { hero: self.hero, cp: self.cp, rule: self.rule, why: self.why }
    }

    /// The line an event tells, if it is a `CpEarned`.
    pub fn of(e: &Event) -> Option<CpLine> {
        match e {
            Event::CpEarned { hero, cp, rule, why } => Some(CpLine { hero: hero.clone(), cp: *cp, rule: rule.clone(), why: why.clone() }),
            _ => None,
        }
    }
}

/// R-CP-9 as it happens, in the one flow (`rules::driver`): after every event from `from` on
/// that earns the match's heroes CP, an `Event::CpEarned` for each of them. Nothing when the
/// match has no heroes (NPCs earn none).
pub fn award_cp(m: &mut Match, ev: &mut Vec<Event>, from: usize) {
    let earns = |e: &Event| matches!(e, Event::AttackResolved { .. } | Event::TaskCheck { .. });
    if m.heroes.is_empty() || !ev.get(from..).is_some_and(|t| t.iter().any(earns)) {
        return;
    }
    let names: BTreeMap<&str, &str> = m.fighters.iter().map(|f| (f.id.as_str(), f.name.as_str())).collect();
    let name = |id: &str| names.get(id).map_or_else(|| id.to_string(), |n| n.to_string());
    let tail: Vec<Event> = ev.drain(from..).collect();
    for e in tail {
        let lines = if earns(&e) { cp_of_event(&e, &m.heroes, &mut m.cp_objects, &name) } else { Vec::new() };
        ev.push(e);
        ev.extend(lines.into_iter().map(CpLine::event));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An attack of `actor` on `target` resolved with `margin`.
    fn atk(actor: &str, target: &str, margin: i32) -> Event {
        Event::AttackResolved {
            actor: actor.into(),
            target: target.into(),
            defense_cr: 10,
            attack_total: 10 + margin,
            margin,
            outcome: String::new(),
            raw_damage: 0,
            damage_parts: Vec::new(),
            reduction: 0,
            damage: 0,
            target_hp: 5,
        }
    }

    // R-CP-9: CP for critical results made or suffered, and for task checks once per object.
    #[test]
    fn cp_from_play() {
        let heroes: BTreeSet<String> = ["h".to_string()].into();
        let names = BTreeMap::new();
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

    // R-CP-9 (G-79): in the one flow, a hero's CP follow the event that earned them, as
    // `cp_earned` events: an attack made and one suffered, a task check once per object per
    // level; an NPC earns none
    #[test]
    fn cp_are_told_as_they_are_earned() {
        let mut m = crate::testkit::build(
            None,
            &[vec!["....".to_string()]],
            &[
                r#"(id: "h", side: "heroes", pos: (0, 0), hero: true, stats: (brawn: 7, finesse: 7, savvy: 7, nerve: 7))"#,
                r#"(id: "orc", side: "monsters", pos: (1, 0), stats: (brawn: 7, finesse: 7, savvy: 7, nerve: 7))"#,
            ],
        );
        let task = |margin: i32| Event::TaskCheck { actor: "h".into(), check: "pick_lock".into(), object: "lock@(1, 1)".into(), margin };
        let mut ev = vec![Event::Note { text: "before".into() }, atk("h", "orc", 9), atk("orc", "h", -6), task(6)];
        award_cp(&mut m, &mut ev, 1);
        let kinds: Vec<String> = ev.iter().map(|e| serde_json::to_value(e).unwrap()["event"].as_str().unwrap().to_string()).collect();
        assert_eq!(kinds, ["note", "attack_resolved", "cp_earned", "attack_resolved", "cp_earned", "task_check", "cp_earned"]);
        let lines: Vec<CpLine> = ev.iter().filter_map(CpLine::of).collect();
        assert_eq!(lines.iter().map(|l| l.cp).collect::<Vec<_>>(), [2, 1, 1]);
        let mut again = vec![task(9), atk("orc", "orc", 9)];
        award_cp(&mut m, &mut again, 0);
        assert_eq!(again.len(), 2, "the same lock pays once per level; NPCs earn none: {again:?}");
    }
}
