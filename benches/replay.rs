//! Replay speed (issues 15, 28): a 1 000-command match, recorded from AI-vs-AI play, replayed
//! the one way every save is replayed (`doo_rules::replay`: the driver, with the log and the
//! checkpoints; `doo replay --verify`, resume, undo, the viewer) beside the same commands
//! through the headless app frame by frame (the systems the window runs, which call the same
//! driver), in the same run. Both must end in the same state hash. `cargo bench --bench
//! replay` (release). Prints Markdown rows; exits non-zero when a goal (replay ≤ 5 ms, the app
//! ≤ 200 ms) is missed.

use doo::headless::HeadlessMatch;
use doo_rules::ai::{AiConfig, Difficulty};
use doo_rules::data::RuleData;
use doo_rules::rules::Dice;
use doo_rules::rules::driver;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

fn median(mut t: Vec<Duration>) -> Duration {
    t.sort();
    t[t.len() / 2]
}

fn main() {
    let data = RuleData::builtin();
    let root = &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let level = doo_rules::level_file::check("bench.ron", &doo_rules::level_file::generated(80, 50, 120), &data, root).expect("bench level");
    let sides = BTreeMap::from([("heroes".to_string(), Difficulty::Normal), ("monsters".to_string(), Difficulty::Normal)]);
    let cfg = AiConfig::for_level(level.side_ids(), &level.behaviours, &level.level.victory, Difficulty::Normal, &sides, 7, data.ai.clone());
    // Record: the AI plays both sides through the rules until 1 000 commands.
    let seed = 7;
    let mut m = level.build(&data).expect("match");
    let mut dice = Dice::seeded(seed);
    let mut ev = Vec::new();
    driver::open(&mut m, &mut dice, &mut ev);
    let mut commands = Vec::new();
    while commands.len() < 1000 {
        let Some(a) = doo_rules::ai::who_decides(&m, &cfg) else { break };
        let c = doo_rules::ai::decide(&m, a, &cfg);
        commands.push(c.clone());
        ev.clear();
        if driver::submit(&mut m, &mut dice, &c, &mut ev) == Ok(false) {
            break;
        }
    }
    let recorded = doo_rules::save::state_hash(&m, &dice);
    let origin = doo_rules::replay::Origin::new(level.build(&data).expect("match"), Dice::seeded(seed));
    // Replay, alternating the headless app and the replay in plain Rust.
    let (mut app_t, mut replay_t) = (Vec::new(), Vec::new());
    for _ in 0..7 {
        let t = Instant::now();
        let mut hm = HeadlessMatch::new(origin.m.clone(), origin.dice.clone(), false);
        hm.app.world_mut().init_resource::<doo::game::intent::Unwatched>();
        for c in &commands {
            assert!(hm.submit(c.clone()), "the flow settles");
        }
        app_t.push(t.elapsed());
        let dice = &hm.app.world().resource::<doo::game::components::MatchDice>().0;
        assert_eq!(doo_rules::save::state_hash(hm.state(), dice), recorded, "the app replays to the recorded state");
        let t = Instant::now();
        let r = doo_rules::replay::Replay::run(&origin, &commands);
        replay_t.push(t.elapsed());
        assert_eq!(r.hash(), recorded, "the replay ends in the recorded state");
    }
    let (app, replay) = (median(app_t), median(replay_t));
    println!(
        "| replay of a {}-command match (80×50, 120 figures), `doo_rules::replay` (log and checkpoints) | {:.1} ms | ≤ 5 ms |",
        commands.len(),
        replay.as_secs_f64() * 1e3
    );
    println!("| the same commands through the headless app, one a frame | {:.1} ms | ≤ 200 ms |", app.as_secs_f64() * 1e3);
    if replay > Duration::from_millis(5) || app > Duration::from_millis(200) {
        eprintln!("goal missed");
        std::process::exit(1);
    }
}
