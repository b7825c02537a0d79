//! Level events (issue 31; R-EXP-24 (d), R-EXP-26 (1)): every trigger and action has a script
//! under tests/events/ (played by `scenarios::every_level_event_script_meets_its_expectations`),
//! events fire the same in the plain flow and through the app, and a level's events are checked
//! against its figures, sides, items, doors and encounters, each problem at its event.

use doo_rules::ai::Difficulty;
use doo_rules::data::RuleData;
use doo_rules::rules::level_events::{Action, Trigger};
use std::collections::BTreeMap;
use std::path::Path;

/// The name a trigger is written with (a new variant does not compile until it is named here,
/// and then needs a script).
fn trigger_name(t: &Trigger) -> &'static str {
    match t {
        Trigger::Enters { .. } => "enters",
        Trigger::DoorOpens { .. } => "door_opens",
        Trigger::ItemTaken { .. } => "item_taken",
        Trigger::Falls { .. } => "falls",
        Trigger::Turn(_) => "turn",
        Trigger::Minute(_) => "minute",
        Trigger::CrisisBegins => "crisis_begins",
        Trigger::CrisisEnds => "crisis_ends",
    }
}

fn action_name(a: &Action) -> &'static str {
    match a {
        Action::Message(_) => "message",
        Action::StartCrisis { .. } => "start_crisis",
        Action::Door { .. } => "door",
        Action::Reveal { .. } => "reveal",
        Action::Give { .. } => "give",
        Action::Take { .. } => "take",
        Action::Win(_) => "win",
        Action::Lose(_) => "lose",
        Action::Stance { .. } => "stance",
    }
}

fn level(rel: &str) -> doo_rules::level_file::CheckedLevel {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    doo_rules::level_file::load(&root.join(rel), &RuleData::builtin(), root).unwrap_or_else(|e| panic!("{rel}: {e:?}"))
}

#[test] // issue 31: each trigger and action is used by the test levels and named in a script's opening comment
fn every_trigger_and_action_has_a_script() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut used: Vec<&str> = Vec::new();
    for l in ["tests/levels/events/hall.ron", "tests/levels/events/duel.ron"] {
        for e in &level(l).level.events {
            used.push(trigger_name(&e.when));
            used.extend(e.then.iter().map(action_name));
        }
    }
    let mut comments = String::new();
    for f in std::fs::read_dir(root.join("tests/events")).unwrap().filter_map(|e| e.ok()) {
        let text = std::fs::read_to_string(f.path()).unwrap();
        comments.extend(text.lines().take_while(|l| l.starts_with("//")).map(|l| format!("{l}\n")));
    }
    let all = [
        "enters",
        "door_opens",
        "item_taken",
        "falls",
        "turn",
        "minute",
        "crisis_begins",
        "crisis_ends",
        "message",
        "start_crisis",
        "door",
        "reveal",
        "give",
        "take",
        "win",
        "lose",
        "stance",
    ];
    for name in all {
        assert!(used.contains(&name), "no test level uses `{name}`");
        assert!(comments.contains(&format!("`{name}`")), "no script in tests/events/ names `{name}` in its opening comment");
    }
}

#[test] // issue 31: events fire inside the one flow: the plain driver and the app play the same game
fn level_events_fire_the_same_in_the_plain_flow_and_the_app() {
    let data = RuleData::builtin();
    let l = level("tests/levels/events/duel.ron");
    for seed in [1u64, 2, 3] {
        let who: BTreeMap<String, Difficulty> = l.side_ids().map(|s| (s.to_string(), Difficulty::Hard)).collect();
        let cfg = doo_rules::ai::AiConfig::for_level(l.side_ids(), &l.behaviours, &l.level.victory, Difficulty::Hard, &who, seed, data.ai.clone());
        let app = doo::simulate::play(&data, &l, cfg, seed, 0).unwrap();
        let plain = doo_rules::ladder::play(&data, &l, &who, seed).unwrap();
        assert_eq!((plain.winner.clone(), plain.turns, plain.commands), (app.winner.clone(), app.turns, app.commands), "seed {seed}");
        assert_eq!(plain.refused, 0);
        // Somebody wins: by the altar, by a fall (the `slain` event), or the goblin by routing.
        assert!(plain.winner.is_some(), "seed {seed}: {plain:?}");
    }
}

#[test] // issue 31: a level's events are checked against the match, each problem pointing at its event
fn bad_events_are_reported_at_their_entry() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("tests/levels/events/duel.ron")).unwrap();
    let bad = text.replace(r#"win("heroes")"#, r#"win("pirates")"#).replace(r#"when: turn(2)"#, r#"when: falls(who: figure("ghost"))"#);
    let errs = doo_rules::level_file::check("duel.ron", &bad, &RuleData::builtin(), root).unwrap_err();
    let lines: Vec<String> = errs.iter().map(|e| format!("{}:{}: {}", e.line, e.col, e.message)).collect();
    let at = |needle: &str| text.lines().position(|l| l.contains(needle)).unwrap() + 1;
    assert!(lines.contains(&format!("{}:9: event 'second': unknown figure 'ghost'", at(r#"id: "second""#))), "{lines:?}");
    assert!(lines.contains(&format!("{}:9: event 'altar': unknown side 'pirates'", at(r#"id: "altar""#) - 1)), "{lines:?}");
    // a crawl-only trigger in a one-fight level
    let bad = text.replace("when: turn(2)", "when: minute(2)");
    let errs = doo_rules::level_file::check("duel.ron", &bad, &RuleData::builtin(), root).unwrap_err();
    assert!(errs.iter().any(|e| e.message == "event 'second': this trigger needs a crawl (`mode: exploration`)"), "{errs:?}");
}

#[test] // issue 31, R-EXP-14: a secret door a level event sets (open or locked) is found, no longer a wall
fn a_secret_door_an_event_sets_is_found() {
    use doo_rules::rules::grid::Pos;
    let l = level("tests/levels/events/hall.ron");
    let mut m = l.build(&RuleData::builtin()).unwrap();
    let x = m.explore.as_deref_mut().unwrap();
    let secret = Pos { x: 4, y: 4, floor: 0 };
    assert!(x.door(secret).is_some_and(|d| d.hidden), "the hall's secret door starts hidden");
    x.door_scripted(secret, true);
    let d = x.door(secret).unwrap();
    assert!(!d.hidden && d.lock.is_some(), "locked by the event, and found: {d:?}");
    x.door_scripted(secret, false);
    let d = x.door(secret).unwrap();
    assert!(!d.hidden && d.lock.is_none(), "unlocked: {d:?}");
}
