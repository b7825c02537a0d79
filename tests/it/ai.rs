//! The monster wrangler: it only ever issues legal commands (through the same validation as a
//! person), every simulated game ends, and a seed gives the same game.

use doo::ai::Difficulty;
use doo::data::RuleData;
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
            let cfg = doo::ai::AiConfig::for_level(&l, d, &BTreeMap::new(), seed, doo::ai::AiBook::builtin());
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
        let cfg = doo::ai::AiConfig::for_level(&l, Difficulty::Normal, &BTreeMap::new(), 42, doo::ai::AiBook::builtin());
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
    let cfg = doo::ai::AiConfig::for_level(&l, Difficulty::Normal, &BTreeMap::new(), 5, doo::ai::AiBook::builtin());
    hm.app.world_mut().insert_resource(doo::game::ai::AiControl { config: cfg, pace_secs: 0.0, waited: 0.0, plan: None });
    for _ in 0..40 {
        hm.app.update();
    }
    let lines = hm.lines();
    let first_move = lines.iter().find(|l| l["type"] == "command" && (l["command"].get("move").is_some() || l["command"].get("free_steps").is_some())).cloned();
    let first = first_move.expect("someone moved");
    assert!(first["command"].get("free_steps").is_some(), "free steps come first: {first}");
}

#[test] // R-AP-1 and the budget: a decision cut short still returns a command the rules accept
fn a_decision_cut_by_its_budget_is_still_legal() {
    let data = RuleData::builtin();
    let l = level("arena.ron");
    let mut cfg = doo::ai::AiConfig::for_level(&l, Difficulty::Hard, &BTreeMap::new(), 3, doo::ai::AiBook::builtin());
    cfg.budget = doo::ai::Budget { max_spots: 2, deadline: Some(std::time::Duration::ZERO) };
    let r = doo::simulate::play(&data, &l, cfg.clone(), 3, 0).unwrap();
    assert!(r.budget_cuts > 0, "a budget of 2 spaces must cut some decisions short");
    assert_eq!(r.rejected, 0, "a cut decision still only issues legal commands");
    assert!(r.ended);
    // and the default (deterministic) budget cuts nothing on a shipped level
    cfg.budget = doo::ai::Budget::default();
    let full = doo::simulate::play(&data, &l, cfg, 3, 0).unwrap();
    assert_eq!(full.budget_cuts, 0);
}

#[test] // the weights are data: the shipped file parses and is the compiled-in copy
fn ai_weights_are_data() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let loaded = RuleData::load(root).expect("assets load");
    assert_eq!(*loaded.ai, *doo::ai::AiBook::builtin());
    for name in ["brute", "skirmisher", "archer", "coward"] {
        assert!(loaded.ai.behaviours.contains_key(name), "{name}");
    }
    // easy is the one that forgets; hard the one that weighs the enemies' answer
    assert!(loaded.ai.easy.forget_action > 0.0 && loaded.ai.hard.forget_action == 0.0);
    assert!(loaded.ai.hard.answer > 0.0 && loaded.ai.normal.answer == 0.0);
}

#[test] // R-TURN-13: a figure with nothing better to do keeps its AP (passes) instead of walking in place
fn ai_does_not_walk_back_and_forth() {
    let data = RuleData::builtin();
    let l = level("arena.ron");
    for seed in [1u64, 2, 3] {
        let cfg = doo::ai::AiConfig::for_level(&l, Difficulty::Normal, &BTreeMap::new(), seed, doo::ai::AiBook::builtin());
        let m = l.build(&data).unwrap();
        let mut hm = doo::headless::HeadlessMatch::new(m, doo::rules::Dice::seeded(seed), false);
        hm.app.world_mut().insert_resource(doo::game::ai::AiControl { config: cfg, pace_secs: 0.0, waited: 0.0, plan: None });
        for _ in 0..3000 {
            hm.app.update();
            if hm.status().over {
                break;
            }
        }
        // stepping X→Y→X→Y within one turn (two round trips) only wastes AP
        let mut trail: BTreeMap<String, Vec<serde_json::Value>> = BTreeMap::new();
        let mut turn = 0u64;
        for e in hm.lines() {
            if e["event"] == "phase" && e["phase"] == "action" {
                turn = e["turn"].as_u64().unwrap_or(0);
                trail.clear();
            }
            if e["event"] == "moved" && e["movement"] == "step" {
                let who = e["actor"].as_str().unwrap_or("").to_string();
                let t = trail.entry(who.clone()).or_insert_with(|| vec![e["from"].clone()]);
                t.push(e["to"].clone());
                let n = t.len();
                assert!(!(n >= 4 && t[n - 1] == t[n - 3] && t[n - 2] == t[n - 4]), "seed {seed}: {who} walked back and forth in turn {turn}: {t:?}");
            }
        }
    }
}
