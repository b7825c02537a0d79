//! The flow exists once (`doo_rules::rules::driver`): the game's systems call it step by step,
//! frame by frame, and the replay in plain Rust (`doo_rules::replay`) calls it in a loop. Every
//! script and a seeded sample of AI games are played both ways here, and their logs (every
//! verdict and event, in order, with the command that caused it), checkpoints and state hashes
//! must be equal. R-TURN-3 (the crisis's phases), R-TURN-17 (its end), R-EXP-1 (a crawl's
//! Exploration Mode), A4 rounds.

use crate::common::files_with;
use doo::game::ai::AiControl;
use doo::game::components::MatchDice;
use doo::game::log::MatchLog;
use doo::game::record::MatchRecord;
use doo::headless::HeadlessMatch;
use doo_rules::ai::{AiConfig, Difficulty};
use doo_rules::data::RuleData;
use doo_rules::replay::{Origin, Replay};

fn data() -> RuleData {
    RuleData::load(crate::common::root()).unwrap()
}

fn app_hash(hm: &HeadlessMatch) -> String {
    doo_rules::save::state_hash(hm.state(), &hm.app.world().resource::<MatchDice>().0)
}

/// The app's log and the replay's, entry by entry: the first difference named.
fn same_log(what: &str, app: &MatchLog, pure: &Replay) {
    let a = app.entries();
    for (k, (x, y)) in a.iter().zip(&pure.log).enumerate() {
        assert_eq!(x, y, "{what}: log entry {k} differs between the app and the driver");
    }
    assert_eq!(a.len(), pure.log.len(), "{what}: the app logged {} entries, the driver {}", a.len(), pure.log.len());
}

#[test]
fn every_script_plays_the_same_through_the_app_and_through_the_driver() {
    let data = data();
    let root = crate::common::root();
    let mut scripts = Vec::new();
    for dir in ["tests/scenarios", "tests/cases", "tests/a4"] {
        scripts.extend(files_with(&root.join(dir), &["ron"]));
    }
    assert!(scripts.len() > 150, "the scripts were not found ({})", scripts.len());
    let (mut played, mut events) = (0, 0);
    for p in &scripts {
        let (script, level) = doo_rules::script::load(p).unwrap_or_else(|e| panic!("{e}"));
        let Ok(origin) = doo_rules::replay::Origin::of_script(&data, &script, level.as_ref()) else { continue };
        // Through the app: the systems the window runs, one command a frame.
        let mut hm = HeadlessMatch::new(origin.m.clone(), origin.dice.clone(), origin.mid_phase);
        hm.app.world_mut().init_resource::<doo::game::intent::Unwatched>();
        for c in &script.commands {
            assert!(hm.submit(c.clone()), "{}: the app did not settle", p.display());
        }
        // Through the driver alone.
        let pure = Replay::run(&origin, &script.commands);
        let what = p.display().to_string();
        same_log(&what, hm.app.world().resource::<MatchLog>(), &pure);
        assert_eq!(app_hash(&hm), pure.hash(), "{what}: the state hashes differ");
        assert_eq!(hm.status().over, pure.over, "{what}: over in one and not the other");
        // The HUD finds whose doing an event tells by `Event::actor` (fog, R-EXP-19): it names
        // the same figure as the event's "actor" field in the runner's JSON, for every event.
        for e in &pure.log {
            if let doo_rules::replay::LogEntry::Event { event, .. } = e {
                let json = serde_json::to_value(event).unwrap();
                assert_eq!(event.actor(), json.get("actor").and_then(|a| a.as_str()), "{what}: {json}");
            }
        }
        played += 1;
        events += pure.log.len();
    }
    assert!(played > 150, "only {played} scripts could be set up");
    eprintln!("{played} scripts, {events} log entries: the app and the driver agree");
}

/// One AI game in the app, recorded as the window records it; then its commands replayed by
/// the driver alone: the same log, the same checkpoints, the same end.
fn ai_game_agrees(data: &RuleData, level: &str, profile: Option<&str>, seed: u64) -> usize {
    let root = crate::common::root();
    let path = root.join("levels").join(level);
    let mut checked = doo_rules::level_file::load(&path, data, root).unwrap();
    if let Some(p) = profile {
        checked.level.profile = Some(p.to_string());
    }
    let seats = checked.sides.iter().map(|s| doo_rules::save::Seat { side: s.id.clone(), player: String::new(), ai: Some(Difficulty::Normal) }).collect();
    let header = doo_rules::save::save_header(&path, &checked, seed, seats, true).unwrap();
    let origin = Origin::new(checked.build(data).unwrap(), doo_rules::rules::Dice::seeded(seed));
    let mut hm = HeadlessMatch::recorded(origin.m.clone(), origin.dice.clone(), false, Some(header));
    hm.app.world_mut().init_resource::<doo::game::intent::Unwatched>();
    let config =
        AiConfig::for_level(checked.side_ids(), &checked.behaviours, &checked.level.victory, Difficulty::Normal, &Default::default(), seed, data.ai.clone());
    hm.app.world_mut().insert_resource(AiControl { config, pace_secs: 0.0, waited: 0.0, plan: None, remote: Default::default() });
    // A sample, not whole games: up to 12 turns (a crawl: 60 exploration turns) or the end.
    let mut frames = 0;
    while !hm.status().over && hm.snapshot_turn() <= 12 && hm.state().explore.as_deref().is_none_or(|x| x.turn <= 60) && frames < 40_000 {
        hm.app.update();
        frames += 1;
    }
    hm.app.world_mut().remove_resource::<AiControl>();
    hm.settle();
    let record = hm.app.world().resource::<MatchRecord>();
    let what = format!("{level} {profile:?} seed {seed}");
    assert!(!record.commands.is_empty(), "{what}: the AI played nothing");
    let pure = Replay::run(&origin, &record.commands);
    same_log(&what, hm.app.world().resource::<MatchLog>(), &pure);
    assert_eq!(record.checkpoints, pure.checkpoints, "{what}: the checkpoints differ");
    assert_eq!(app_hash(&hm), pure.hash(), "{what}: the state hashes differ");
    assert_eq!(hm.status().over, pure.over, "{what}: over in one and not the other");
    record.commands.len()
}

#[test]
fn a_seeded_sample_of_ai_games_plays_the_same_through_the_app_and_through_the_driver() {
    let data = data();
    let root = crate::common::root();
    let mut commands = 0;
    let mut games = 0;
    for (k, l) in crate::common::level_files(&root).iter().enumerate() {
        let name = l.file_name().unwrap().to_str().unwrap();
        commands += ai_game_agrees(&data, name, None, 1 + k as u64);
        games += 1;
    }
    // Under ruleset A4 as the level select's R plays it, crawls included.
    for (l, seed) in [("skirmish.ron", 2), ("sunken_vault.ron", 3)] {
        commands += ai_game_agrees(&data, l, Some("A4"), seed);
        games += 1;
    }
    eprintln!("{games} AI games, {commands} commands: the app and the driver agree");
}
