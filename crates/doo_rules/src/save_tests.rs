//! Unit tests of save.rs (moved beside it to keep the file short).
use super::*;

#[test] // the Load menu's dates: known instants, leap days, the epoch
fn dates_are_civil_utc() {
    assert_eq!(utc_date(0), "1970-01-01 00:00 UTC");
    assert_eq!(utc_date(951_782_400), "2000-02-29 00:00 UTC");
    assert_eq!(utc_date(1_795_530_300), "2026-11-24 14:25 UTC");
}

#[test] // the Load menu's line: level, turn, players (names, or the AI and its difficulty), date
fn the_summary_names_level_turn_players_and_date() {
    let s = Save {
        version: VERSION,
        label: "evening".into(),
        level: "/x/levels/ambush.ron".into(),
        level_name: "Ambush".into(),
        level_hash: "0".repeat(64),
        profile: None,
        turn_limit: None,
        seed: 1,
        forced_dice: vec![],
        seats: vec![
            Seat { side: "heroes".into(), player: "Ann".into(), ai: None },
            Seat { side: "monsters".into(), player: String::new(), ai: Some(Difficulty::Hard) },
        ],
        watch: false,
        saved_unix: 1_795_530_300,
        turn: 3,
        commands: vec![],
        checkpoints: vec![],
        ai_plan: None,
        campaign: None,
        hosted: None,
    };
    assert_eq!(s.summary(), "Ambush - turn 3 - Ann (heroes) vs AI, hard (monsters) - 2026-11-24 14:25 UTC");
}

#[test] // R-EXP-19: version 1's hash leaves the per-side fog maps out (saved crawls keep verifying) and hashes the explorers' map
fn the_version_1_state_hash_leaves_the_fog_maps_out() {
    let mut m = crate::testkit::crawl(&["#####", "#...#", "#####"], &[("h", "heroes", (1, 1)), ("o", "monsters", (3, 1))]);
    let dice = crate::rules::Dice::seeded(1);
    let before = state_hash_v1(&m, &dice);
    let x = m.explore.as_deref_mut().unwrap();
    x.fog.0.insert("monsters".into(), vec![true; 15]);
    assert_eq!(state_hash_v1(&m, &dice), before, "the fog maps are not hashed");
    m.explore.as_deref_mut().unwrap().seen.insert("heroes".into(), vec![true; 15]);
    assert_ne!(state_hash_v1(&m, &dice), before, "the explorers' hashed map is");
}

#[test] // issue 44: version 2 hashes the fog maps (what each side has seen), not the explorers' `seen` (version 1's duplicate), nor the crawl's book
fn the_version_2_state_hash_reads_the_fog_maps_not_the_old_map() {
    let mut m = crate::testkit::crawl(&["#####", "#...#", "#####"], &[("h", "heroes", (1, 1)), ("o", "monsters", (3, 1))]);
    let dice = crate::rules::Dice::seeded(1);
    let before = state_hash(&m, &dice);
    assert_eq!(before.len(), 16);
    assert_eq!(state_hash_of(VERSION, &m, &dice), before);
    assert_eq!(state_hash_of(1, &m, &dice), state_hash_v1(&m, &dice));
    assert_ne!(before, state_hash_v1(&m, &dice));
    m.explore.as_deref_mut().unwrap().seen.insert("heroes".into(), vec![true; 15]);
    assert_eq!(state_hash(&m, &dice), before, "version 1's map is not hashed");
    m.explore.as_deref_mut().unwrap().fog.0.insert("monsters".into(), vec![true; 15]);
    let fog = state_hash(&m, &dice);
    assert_ne!(fog, before, "the fog maps are");
    m.explore.as_deref_mut().unwrap().orders.fired.insert(0, 1);
    assert_ne!(state_hash(&m, &dice), fog, "the shots spent are");
    let mut d2 = dice.clone();
    d2.throw(6);
    assert_ne!(state_hash(&m, &d2), state_hash(&m, &dice), "where the dice stand is");
    m.fighters[0].hp -= 1;
    assert_ne!(state_hash(&m, &dice), state_hash(&m.clone(), &d2));
}

#[test] // issue 44: version-1 saves are still read; versions 0 and 3 are refused by what they are
fn versions_1_and_2_are_read() {
    let text = |v: u32| format!("(version: {v}, level: \"/x/l.ron\", level_hash: \"{}\", seed: 1, seats: [(side: \"heroes\")], commands: [])", "0".repeat(64));
    assert_eq!(parse("s.ron", &text(1)).unwrap().version, 1);
    assert_eq!(parse("s.ron", &text(2)).unwrap().version, 2);
    assert!(parse("s.ron", &text(0)).unwrap_err().message.contains("no longer reads"));
    assert!(parse("s.ron", &text(3)).unwrap_err().message.contains("newer game"));
}
