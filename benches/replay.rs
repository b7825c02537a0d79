//! Headless replay speed (issue 15): a 1 000-command match, recorded from AI-vs-AI play, replayed
//! through the headless app — the exact systems the window runs, command by command, as a save
//! or `doo run` replays it — beside the same commands through the rules alone (`rules::driver`)
//! in the same run. Both must end in the same state. `cargo bench --bench replay` (release).
//! Prints a Markdown row; exits non-zero when the goal (≤ 200 ms) is missed.

use doo::ai::{AiConfig, Difficulty};
use doo::data::RuleData;
use doo::headless::HeadlessMatch;
use doo::rules::Dice;
use doo::rules::driver;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

fn median(mut t: Vec<Duration>) -> Duration {
    t.sort();
    t[t.len() / 2]
}

fn main() {
    let data = RuleData::builtin();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let level = doo::level_file::check("bench.ron", &doo::level_file::generated(80, 50, 120), &data, root).expect("bench level");
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
        let Some(a) = doo::ai::who_decides(&m, &cfg) else { break };
        let c = doo::ai::decide(&m, a, &cfg);
        commands.push(c.clone());
        ev.clear();
        if driver::submit(&mut m, &mut dice, &c, &mut ev) == Ok(false) {
            break;
        }
    }
    let recorded = m;
    // Replay, alternating the headless app and the rules alone.
    let (mut app_t, mut rules_t) = (Vec::new(), Vec::new());
    for _ in 0..7 {
        let t = Instant::now();
        let mut hm = HeadlessMatch::new(level.build(&data).expect("match"), Dice::seeded(seed), false);
        hm.app.world_mut().init_resource::<doo::game::intent::Unwatched>();
        for c in &commands {
            assert!(hm.submit(c.clone()), "the flow settles");
        }
        app_t.push(t.elapsed());
        assert_eq!(hm.state().fighters, recorded.fighters, "the app replays to the recorded state");
        let t = Instant::now();
        let mut m = level.build(&data).expect("match");
        let mut dice = Dice::seeded(seed);
        let mut ev = Vec::new();
        driver::open(&mut m, &mut dice, &mut ev);
        for c in &commands {
            ev.clear();
            let _ = driver::submit(&mut m, &mut dice, c, &mut ev);
        }
        rules_t.push(t.elapsed());
        assert_eq!(m.fighters, recorded.fighters, "the rules replay to the recorded state");
    }
    let (app, rules) = (median(app_t), median(rules_t));
    println!(
        "| headless replay of a {}-command match (80×50, 120 figures) through the app's systems | {:.1} ms | {:.1} ms (the rules alone) | {:.1}× | ≤ 200 ms |",
        commands.len(),
        app.as_secs_f64() * 1e3,
        rules.as_secs_f64() * 1e3,
        app.as_secs_f64() / rules.as_secs_f64()
    );
    if app > Duration::from_millis(200) {
        eprintln!("goal missed: replay over 200 ms");
        std::process::exit(1);
    }
}
