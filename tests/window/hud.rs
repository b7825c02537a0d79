//! The HUD's words, as the game computes them: the log's lines, the help, the idle hint, and the
//! top bar's lines shortened to their room (no window needed).

use doo_app::window::hud::{describe, fit_chips, fit_chips_or_short, fit_line, help_text, idle_hint, told_to};
use doo_rules::replay::LogEntry;
use doo_rules::rules::explore::Task;
use doo_rules::rules::{Event, Pos};
use std::collections::BTreeMap;

#[test] // R-EXP-8: opening a chest in Exploration Mode is one readable log line (the task's own line repeats it with raw ids)
fn a_chest_opening_is_one_readable_line() {
    let names = BTreeMap::from([("ed".to_string(), "Ed".to_string())]);
    let at = Pos::new(4, 6);
    let events = [
        Event::ChestOpened { actor: "ed".into(), at, items: vec!["potion_of_healing".into(), "brass_key".into()] },
        Event::TaskDone { actor: "ed".into(), task: Task::OpenChest, at, success: true, text: "Ed opens the chest: potion_of_healing, brass_key.".into() },
    ];
    let lines: Vec<String> = events.into_iter().filter_map(|event| describe(&LogEntry::Event { index: Some(0), event, seen_by: None }, &names)).collect();
    assert_eq!(lines, ["Ed opens a chest: potion of healing, brass key"]);
    // other tasks still tell their result
    let search = Event::TaskDone { actor: "ed".into(), task: Task::Search, at, success: true, text: "Ed finds nothing.".into() };
    assert_eq!(describe(&LogEntry::Event { index: Some(0), event: search, seen_by: None }, &names).as_deref(), Some("Ed finds nothing."));
}

#[test] // F1 help: a crawl's orders and ruleset A4's controls, with the keys input.rs binds (Enter ends the turn, 1-9 the bar, N declines)
fn the_help_covers_crawls_and_a4() {
    let doo_help = help_text(false, false);
    assert!(doo_help.contains("free steps") && !doo_help.contains("five-foot") && !doo_help.contains("Crawl"));
    let crawl = help_text(true, false);
    assert!(crawl.contains("Crawl (Exploration Mode") && crawl.contains("Enter: end the turn") && crawl.contains("chest"), "{crawl}");
    let a4 = help_text(false, true);
    assert!(a4.contains("ruleset A4") && a4.contains("five-foot step") && a4.contains("attack of opportunity") && a4.contains("Enter: end the figure's turn"));
    assert!(!a4.contains("free steps, 0 AP"), "no DoO move colours under A4");
    for h in [&doo_help, &crawl, &a4] {
        assert!(h.contains("F1 or H") && h.contains("F2") && h.contains("Esc"), "the keys of every match");
    }
}

#[test] // A4-3.19, A4-4.1: under A4 the hint names A4's moves (five-foot step, move, run) and their colours, not DoO's free steps
fn the_a4_hint_uses_a4_words() {
    assert!(idle_hint(true).contains("five-foot step") && idle_hint(true).contains("attack of opportunity"));
    assert!(!idle_hint(true).contains("free"));
    assert!(idle_hint(false).contains("free steps") && !idle_hint(false).contains("five-foot"));
}

#[test] // the top bar's lines are shortened to their room, never longer (at 2x UI scale the room is about 28 characters)
fn top_bar_lines_fit_their_room() {
    let variants = ["Turn 2 | Round 3 | action phase - Player 1 (heroes): Lunk acts".to_string(), "T2 R3 - Player 1: Lunk acts".into(), "Lunk acts".into()];
    assert_eq!(fit_line(&variants, 200), variants[0]);
    assert_eq!(fit_line(&variants, 28), variants[1]);
    assert_eq!(fit_line(&variants, 12), variants[2]);
    assert_eq!(fit_line(&variants, 5).chars().count(), 5, "shortened with an ellipsis");
    let chips: Vec<String> = ["Lunk 5 AP", "Orc 4 AP", "Goblin 3 AP", "Dara 2 AP"].map(String::from).to_vec();
    assert_eq!(fit_chips("Next by AP: ", &chips, 200), "Next by AP: Lunk 5 AP | Orc 4 AP | Goblin 3 AP | Dara 2 AP");
    for room in 10..80 {
        let s = fit_chips("Next by AP: ", &chips, room);
        assert!(s.chars().count() <= room, "{room}: {s}");
    }
    assert_eq!(fit_chips("Next by AP: ", &chips, 40), "Next by AP: Lunk 5 AP | +3 more");
    // when not even one chip fits, the short forms
    let short: Vec<String> = ["Lunk 5", "Orc 4", "Goblin 3", "Dara 2"].map(String::from).to_vec();
    assert_eq!(fit_chips_or_short("Next by AP: ", &chips, "AP: ", &short, 28), "AP: Lunk 5 | Orc 4 | +2 more");
    assert_eq!(fit_chips_or_short("Next by AP: ", &chips, "AP: ", &short, 40), "Next by AP: Lunk 5 AP | +3 more");
}

#[test] // R-EXP-19 (issue 29, bug 6): the log tells a side what it saw when it happened (the
// entry's seen_by, kept by the rules), not what the fog shows now; verdicts only of its own orders
fn the_log_tells_what_a_side_saw_then() {
    let event = |seen_by: Option<Vec<&str>>| LogEntry::Event {
        index: Some(0),
        event: Event::Waited { actor: "orc".into() },
        seen_by: seen_by.map(|s| s.into_iter().map(String::from).collect()),
    };
    let side_of = |id: &str| Some(if id == "orc" { "monsters" } else { "heroes" }.to_string());
    assert!(!told_to(&event(Some(vec!["monsters"])), Some("heroes"), side_of), "unseen then: not told, whatever the fog now");
    assert!(told_to(&event(Some(vec!["heroes", "monsters"])), Some("heroes"), side_of), "seen then: told");
    assert!(told_to(&event(Some(vec!["monsters"])), Some("monsters"), side_of));
    assert!(told_to(&event(None), Some("heroes"), side_of), "no seen_by (not a crawl): every side saw it");
    assert!(told_to(&event(Some(vec!["monsters"])), None, side_of), "no fog: everything is told");
    let verdict = |actor: &str| LogEntry::Verdict { index: 0, command: doo_rules::rules::Command::Pass { actor: actor.into() }, result: Ok(()) };
    assert!(!told_to(&verdict("orc"), Some("heroes"), side_of) && told_to(&verdict("dara"), Some("heroes"), side_of));
}

#[test] // R-ATK-7 (the outcome table), G-19, G-22, issue 43: a broken or dropped weapon and a fall are told in the log and over the figure
fn a_broken_or_dropped_weapon_and_a_fall_are_told() {
    use doo_app::window::board::figures::callout;
    use doo_rules::rules::profile::Posture;
    let names = BTreeMap::from([("yip".to_string(), "Yip".to_string())]);
    let line = |event: Event| describe(&LogEntry::Event { index: Some(0), event, seen_by: None }, &names);
    let broken = Event::WeaponBroken { actor: "yip".into(), weapon: "short_bow".into() };
    assert_eq!(line(broken.clone()).as_deref(), Some("Yip's short bow breaks! (disastrous miss)"));
    assert_eq!(callout(&broken).as_deref(), Some("short bow breaks!"));
    let dropped = Event::WeaponDropped { actor: "yip".into(), weapon: "axe".into(), at: Pos::new(3, 4) };
    assert_eq!(line(dropped.clone()).as_deref(), Some("Yip drops the axe! It lies at (3, 4) until picked up"));
    assert_eq!(callout(&dropped).as_deref(), Some("drops the axe!"));
    let fall = Event::PostureChanged { actor: "yip".into(), from: Posture::Standing, to: Posture::Prone };
    assert_eq!(line(fall.clone()).as_deref(), Some("Yip is now prone (was standing)"));
    assert_eq!(callout(&fall).as_deref(), Some("falls prone!"));
    // A4 (and any turn with no AP left to keep) ends the turn; DoO keeps its AP when passing.
    assert_eq!(line(Event::OpportunityEnded { actor: "yip".into(), passed: true, ap: 0 }).as_deref(), Some("Yip ends the turn"));
    assert_eq!(line(Event::OpportunityEnded { actor: "yip".into(), passed: true, ap: 2 }).as_deref(), Some("Yip passes (2 AP kept)"));
}

#[test] // R-DMG-1, R-DMG-3, issue 43: the log names every part of a damage total (a solid hit's +2 with a Brawn weapon, the Finesse minimum)
fn the_log_names_every_part_of_a_damage_total() {
    let names = BTreeMap::from([("lunk".to_string(), "Lunk".to_string()), ("orc".to_string(), "Orc".to_string())]);
    let line = |parts: Vec<(&str, i32)>, raw: i32, armor: i32, damage: i32| {
        let event = Event::AttackResolved {
            actor: "lunk".into(),
            target: "orc".into(),
            defense_cr: 2,
            attack_total: 5,
            margin: 3,
            outcome: "solid_hit".into(),
            raw_damage: raw,
            damage_parts: parts.into_iter().map(|(w, v)| (w.to_string().into(), v)).collect(),
            reduction: armor,
            damage,
            target_hp: 11 - damage,
        };
        describe(&LogEntry::Event { index: Some(0), event, seen_by: None }, &names).unwrap()
    };
    assert_eq!(line(vec![("rolled", 3), ("solid_hit", 2)], 5, 1, 4), "Lunk vs Orc: 5 against 2 - solid hit, 4 damage (3 rolled + 2 solid hit = 5 - armor 1)");
    assert_eq!(
        line(vec![("rolled", 1), ("solid_hit:_at_least_2", 0)], 1, 3, 2),
        "Lunk vs Orc: 5 against 2 - solid hit, 2 damage (1 rolled - armor 3; solid hit: at least 2)"
    ); // a miss tells no "0 damage (0 - armor 0)"
    let miss = Event::AttackResolved {
        actor: "lunk".into(),
        target: "orc".into(),
        defense_cr: 35,
        attack_total: 22,
        margin: -13,
        outcome: "miss".into(),
        raw_damage: 0,
        damage_parts: vec![],
        reduction: 0,
        damage: 0,
        target_hp: 11,
    };
    assert_eq!(describe(&LogEntry::Event { index: Some(0), event: miss, seen_by: None }, &names).as_deref(), Some("Lunk vs Orc: 22 against 35 - miss"));
}

#[test] // A4-4.1, A4-3.16, A4-3.21, issue 43: A4's log names its out-of-turn choices in A4's words, not their ids
fn a4_reactions_are_told_in_a4_words() {
    let names = BTreeMap::from([("lunk".to_string(), "Lunk".to_string()), ("orc".to_string(), "Orc".to_string())]);
    let line = |event: Event| describe(&LogEntry::Event { index: Some(0), event, seen_by: None }, &names).unwrap();
    let window = Event::ReflexWindow { defender: "lunk".into(), attacker: "orc".into(), options: vec!["a4_reactive_defense".into()] };
    assert_eq!(line(window), "Lunk may answer Orc's attack: a reactive defense");
    let declared = Event::ReflexDeclared { actor: "orc".into(), reflex: "a4_opportunity".into(), attacker: "lunk".into() };
    assert_eq!(line(declared), "Orc answers with an attack of opportunity");
    let offered = Event::ReflexWindow { defender: "lunk".into(), attacker: "orc".into(), options: vec!["a4_opportunity".into()] };
    assert_eq!(line(offered), "Lunk may strike Orc out of turn: an attack of opportunity");
}
