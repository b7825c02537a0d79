//! The monster wrangler: it only ever issues legal commands (through the same validation as a
//! person), every simulated game ends, and a seed gives the same game.

use doo::ai::Difficulty;
use doo::level::RuleData;
use std::collections::BTreeMap;
use std::path::Path;

fn level(name: &str) -> doo::level_file::CheckedLevel {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    doo::level_file::load(&root.join("levels").join(name), &RuleData::builtin(), root).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

#[test] // R-AP-1 and every other rule: AI commands go through validation and are never refused; games end
fn ai_never_issues_an_illegal_command_on_any_level() {
    let data = RuleData::builtin();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(root.join("levels"))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".ron"))
        .collect();
    names.sort();
    for name in &names {
        let l = level(name);
        for (k, d) in [Difficulty::Easy, Difficulty::Normal, Difficulty::Hard].into_iter().enumerate() {
            let seed = 7 + k as u64;
            let cfg = doo::simulate::ai_for(&l, d, &BTreeMap::new(), seed);
            let r = doo::simulate::play(&data, &l, cfg, seed, 0).unwrap();
            assert_eq!(r.rejected, 0, "{name} {d:?}: the AI issued a refused command");
            assert!(r.ended, "{name} {d:?}: the game did not end");
            assert!(r.decisions > 0 && r.commands >= r.decisions, "{name} {d:?}: every decision is a command");
        }
    }
}

#[test] // the same seed gives the same game
fn ai_is_deterministic_for_a_seed() {
    let data = RuleData::builtin();
    let l = level("tutorial.ron");
    let run = || {
        let cfg = doo::simulate::ai_for(&l, Difficulty::Normal, &BTreeMap::new(), 42);
        let r = doo::simulate::play(&data, &l, cfg, 42, 0).unwrap();
        (r.winner, r.turns, r.commands)
    };
    assert_eq!(run(), run());
}

#[test] // R-TURN-9, R-FS-6: an AI opportunity starts with its free steps when it moves at all
fn ai_uses_free_steps_before_spending_ap() {
    let data = RuleData::builtin();
    let l = level("tutorial.ron");
    let m = l.build(&data).unwrap();
    let mut hm = doo::headless::HeadlessMatch::new(m, doo::rules::Dice::seeded(5), false);
    let cfg = doo::simulate::ai_for(&l, Difficulty::Normal, &BTreeMap::new(), 5);
    hm.app.world_mut().insert_resource(doo::game::ai::AiControl { config: cfg, pace_secs: 0.0, waited: 0.0, plan: None });
    for _ in 0..40 {
        hm.app.update();
    }
    let lines = hm.lines();
    let first_move = lines.iter().find(|l| l["type"] == "command" && (l["command"].get("move").is_some() || l["command"].get("free_steps").is_some())).cloned();
    let first = first_move.expect("someone moved");
    assert!(first["command"].get("free_steps").is_some(), "free steps come first: {first}");
}
