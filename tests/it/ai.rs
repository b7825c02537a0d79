//! The monster wrangler: it only ever issues legal commands (through the same validation as a
//! person), every simulated game ends, and a seed gives the same game.

use doo_rules::ai::Difficulty;
use doo_rules::data::RuleData;
use std::collections::BTreeMap;
use std::path::Path;

fn level(name: &str) -> doo_rules::level_file::CheckedLevel {
    let root = crate::common::root();
    doo_rules::level_file::load(&root.join("levels").join(name), &RuleData::builtin(), root).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

// R-AP-1 and every other rule: AI commands go through validation and are never refused; games
// end. A seeded sample (issue 44: a fast loop): every level once, the difficulties taking turns
// over the levels (each plays a third of them); `.ci/run` plays every level again through
// `doo simulate` (step 5, and under A4 in 5e), and `benches/ladder.sh` thousands of games.
#[test]
fn ai_never_issues_an_illegal_command_on_any_level() {
    let data = RuleData::builtin();
    let root = crate::common::root();
    let mut names: Vec<String> = std::fs::read_dir(root.join("levels"))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".ron"))
        .collect();
    names.sort();
    for (n, name) in names.iter().enumerate() {
        let l = level(name);
        let k = n % 3;
        let d = [Difficulty::Easy, Difficulty::Normal, Difficulty::Hard][k];
        {
            let seed = 7 + k as u64;
            let cfg =
                doo_rules::ai::AiConfig::for_level(l.side_ids(), &l.behaviours, &l.level.victory, d, &BTreeMap::new(), seed, doo_rules::ai::AiBook::builtin());
            let r = doo::simulate::play(&data, &l, cfg, seed, 0).unwrap();
            assert_eq!(r.rejected, 0, "{name} {d:?}: the AI issued a refused command");
            assert!(r.ended, "{name} {d:?}: the game did not end");
            assert!(r.decisions > 0 && r.commands >= r.decisions, "{name} {d:?}: every decision is a command");
        }
    }
}

/// `doo simulate levels/tutorial.ron --seed <seed> --games 8` in its own process, with every
/// game's full log (`DOO_SIM_TRACE=1`, JSON lines on stderr): (stderr log, stdout results with
/// the wall-clock fields removed).
fn simulate_in_a_process(seed: u64) -> (String, Vec<serde_json::Value>) {
    let out = std::process::Command::new(crate::common::doo_bin())
        .args(["simulate", "levels/tutorial.ron", "--seed", &seed.to_string(), "--games", "8"])
        .current_dir(crate::common::root())
        .env("DOO_SIM_TRACE", "1")
        .output()
        .expect("run doo simulate");
    let log = String::from_utf8(out.stderr).expect("utf-8 log");
    assert!(out.status.success(), "doo simulate failed ({:?}):\n{log}", out.status);
    // Timing is the only thing allowed to differ: wall_ms, think_ms, mean_think_ms_per_game,
    // median_decision_us, max_decision_us.
    let clockless = |mut v: serde_json::Value| {
        if let Some(o) = v.as_object_mut() {
            o.retain(|k, _| !(k.contains("_ms") || k.ends_with("_us")));
        }
        v
    };
    let results = String::from_utf8(out.stdout)
        .expect("utf-8 results")
        .lines()
        .map(|l| clockless(serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}"))))
        .collect();
    (log, results)
}

#[test] // the same seed gives the same games, line for line, in two separate processes
fn ai_is_deterministic_for_a_seed() {
    let (log_a, results_a) = simulate_in_a_process(42);
    let (log_b, results_b) = simulate_in_a_process(42);
    // non-trivial: eight games, many commands, dice and moves in the log
    let commands = log_a.lines().filter(|l| l.contains("\"type\":\"command\"")).count();
    assert!(commands >= 30, "only {commands} command lines in the log:\n{log_a}");
    assert!(log_a.lines().all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok()), "the log is JSON lines");
    assert!(log_a.contains("\"event\":\"dice\"") && log_a.contains("\"event\":\"moved\""), "dice and moves are logged");
    assert_eq!(results_a.len(), 9, "a line per game and a summary: {results_a:?}");
    assert_eq!(results_a.iter().filter_map(|r| r["commands"].as_u64()).sum::<u64>() as usize, commands, "the results count the logged commands");
    assert!(results_a.iter().all(|r| !r.to_string().contains("_ms") && !r.to_string().contains("_us\"")), "{results_a:?}");
    if log_a != log_b {
        let k = log_a.lines().zip(log_b.lines()).position(|(a, b)| a != b).unwrap_or(0);
        panic!("the logs differ from line {}:\n{}\n{}", k + 1, log_a.lines().nth(k).unwrap_or("(end)"), log_b.lines().nth(k).unwrap_or("(end)"));
    }
    assert_eq!(results_a, results_b, "the results differ");
    // and the comparison can fail: another seed plays other games
    let (log_c, results_c) = simulate_in_a_process(1000);
    assert_ne!(log_a, log_c, "seed 1000 played exactly the games of seed 42");
    assert_ne!(results_a, results_c);
}

#[test] // R-TURN-9, R-FS-6: an AI opportunity starts with its free steps when it moves at all
fn ai_uses_free_steps_before_spending_ap() {
    let data = RuleData::builtin();
    let l = level("tutorial.ron");
    let m = l.build(&data).unwrap();
    let mut hm = doo::headless::HeadlessMatch::new(m, doo_rules::rules::Dice::seeded(5), false);
    let cfg = doo_rules::ai::AiConfig::for_level(
        l.side_ids(),
        &l.behaviours,
        &l.level.victory,
        Difficulty::Normal,
        &BTreeMap::new(),
        5,
        doo_rules::ai::AiBook::builtin(),
    );
    hm.app.world_mut().insert_resource(doo::game::ai::AiControl { config: cfg, pace_secs: 0.0, waited: 0.0, plan: None, remote: Default::default() });
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
    let mut cfg = doo_rules::ai::AiConfig::for_level(
        l.side_ids(),
        &l.behaviours,
        &l.level.victory,
        Difficulty::Hard,
        &BTreeMap::new(),
        3,
        doo_rules::ai::AiBook::builtin(),
    );
    cfg.budget = doo_rules::ai::Budget { max_spots: 2, deadline: Some(std::time::Duration::ZERO) };
    let r = doo::simulate::play(&data, &l, cfg.clone(), 3, 0).unwrap();
    assert!(r.budget_cuts > 0, "a budget of 2 spaces must cut some decisions short");
    assert_eq!(r.rejected, 0, "a cut decision still only issues legal commands");
    assert!(r.ended);
    // and the default (deterministic) budget cuts nothing on a shipped level
    cfg.budget = doo_rules::ai::Budget::default();
    let full = doo::simulate::play(&data, &l, cfg, 3, 0).unwrap();
    assert_eq!(full.budget_cuts, 0);
}

/// A copy of the project's `assets/` in a fresh temporary directory (the root to load from).
fn assets_copy(tag: &str) -> std::path::PathBuf {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                copy(&p, &to.join(e.file_name()));
            } else {
                std::fs::copy(&p, to.join(e.file_name())).unwrap();
            }
        }
    }
    let root = std::env::temp_dir().join(format!("doo-ai-weights-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    copy(&crate::common::root().join("assets"), &root.join("assets"));
    root
}

#[test] // the weights are data: they are read from assets/ai/behaviours.ron, not compiled in
fn ai_weights_are_data() {
    let builtin = doo_rules::ai::AiBook::builtin();
    for name in ["brute", "skirmisher", "archer", "coward"] {
        assert!(builtin.behaviours.contains_key(name), "{name}");
    }
    // easy is the one that forgets; hard the one that weighs the enemies' answer
    assert!(builtin.easy.forget_action > builtin.normal.forget_action && builtin.normal.forget_action > 0.0 && builtin.hard.forget_action == 0.0);
    assert!(builtin.hard.answer > 0.0 && builtin.normal.answer == 0.0);

    // One weight changed in a copy of the assets: the loaded book has exactly that change.
    let root = assets_copy("edit");
    let file = root.join("assets/ai/behaviours.ron");
    let text = std::fs::read_to_string(&file).unwrap();
    let (key, old) = ("answer: ", format!("answer: {:?}", builtin.hard.answer));
    let hard = text.find("hard:").expect("a hard section");
    let at = hard + text[hard..].find(&old).unwrap_or_else(|| panic!("no `{old}` after `hard:` in behaviours.ron"));
    let edited = format!("{}{key}0.123{}", &text[..at], &text[at + old.len()..]);
    std::fs::write(&file, &edited).unwrap();
    let loaded = RuleData::load(&root).expect("the edited assets load");
    assert_eq!(loaded.ai.hard.answer, 0.123, "the edit is read");
    let mut expected: doo_rules::ai::AiBook = (*builtin).clone();
    expected.hard.answer = 0.123;
    assert_eq!(*loaded.ai, expected, "nothing else changed");
    assert_ne!(*loaded.ai, *builtin);

    // A malformed edit is an error naming the file, with line:col.
    let line = edited[..at].lines().count();
    std::fs::write(&file, format!("{}{key}[oops{}", &edited[..at], &edited[at + key.len() + 5..])).unwrap();
    let err = format!("{}", RuleData::load(&root).err().expect("a malformed behaviours.ron is an error"));
    assert!(err.contains("behaviours.ron"), "names the file: {err}");
    assert!(err.contains(&format!(":{line}:")), "names line {line} (line:col): {err}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test] // R-TURN-13: a figure with nothing better to do keeps its AP (passes) instead of walking in place
fn ai_does_not_walk_back_and_forth() {
    let data = RuleData::builtin();
    let l = level("arena.ron");
    for seed in [1u64, 2, 3] {
        let cfg = doo_rules::ai::AiConfig::for_level(
            l.side_ids(),
            &l.behaviours,
            &l.level.victory,
            Difficulty::Normal,
            &BTreeMap::new(),
            seed,
            doo_rules::ai::AiBook::builtin(),
        );
        let m = l.build(&data).unwrap();
        let mut hm = doo::headless::HeadlessMatch::new(m, doo_rules::rules::Dice::seeded(seed), false);
        hm.app.world_mut().insert_resource(doo::game::ai::AiControl { config: cfg, pace_secs: 0.0, waited: 0.0, plan: None, remote: Default::default() });
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

#[test] // issue 30: the ladder (plain Rust, the one flow) plays the very game `doo simulate` plays through the app
fn the_ladder_plays_the_game_simulate_plays() {
    let data = RuleData::builtin();
    for (name, seed) in [("a4_duel_hall.ron", 3u64), ("tutorial.ron", 4)] {
        let l = level(name);
        let sides: Vec<String> = l.side_ids().map(String::from).collect();
        let who = doo_rules::ladder::seating(&sides, &[0], Difficulty::Hard, Difficulty::Normal);
        let cfg = doo_rules::ai::AiConfig::for_level(l.side_ids(), &l.behaviours, &l.level.victory, Difficulty::Normal, &who, seed, data.ai.clone());
        let app = doo::simulate::play(&data, &l, cfg, seed, 0).unwrap();
        let plain = doo_rules::ladder::play(&data, &l, &who, seed).unwrap();
        assert_eq!(plain.refused, 0, "{name}: an AI command was refused");
        assert_eq!((plain.winner.clone(), plain.turns, plain.commands), (app.winner.clone(), app.turns, app.commands), "{name}: ladder and simulate differ");
        assert!(plain.decisions > 0);
    }
}

#[test] // issue 30: a seating swaps the sides, and a tally counts each side's wins as stronger and as weaker
fn ladder_seatings_swap_the_sides() {
    use doo_rules::ladder::{seating, seatings};
    assert_eq!(seatings(2), vec![vec![0], vec![1]]);
    assert_eq!(seatings(4), vec![vec![0, 2], vec![1, 3]]);
    let sides = vec!["heroes".to_string(), "monsters".to_string()];
    let s = seating(&sides, &[1], Difficulty::Hard, Difficulty::Normal);
    assert_eq!(s["heroes"], Difficulty::Normal);
    assert_eq!(s["monsters"], Difficulty::Hard);
    let l = level("tutorial.ron");
    let t = doo_rules::ladder::pairing(&RuleData::builtin(), &l, Difficulty::Normal, Difficulty::Easy, 4, 11).unwrap();
    assert_eq!(t.games(), 4);
    let (ws, gs, ww, gw) = t.sides["heroes"];
    assert_eq!((gs, gw), (2, 2), "each side is played twice by each difficulty");
    let (ms, mgs, mw, mgw) = t.sides["monsters"];
    assert_eq!((mgs, mgw), (2, 2));
    assert_eq!(ws + ww + ms + mw + t.draws, 4, "every game has one winner or is a draw");
    assert_eq!(t.strong_wins, ws + ms);
}

#[test] // issue 30: the ladder leaves out a level under A4 when a side's exit is on a floor it cannot reach (A4-G-01)
fn ladder_leaves_out_a4_rows_a_side_cannot_win() {
    use doo_rules::ladder::a4_unwinnable;
    // The crypt's heroes win on the chapel porch, one floor up; an A4 fight stays on its floor.
    let why = a4_unwinnable(&level("crypt.ron")).expect("the crypt cannot be won by its heroes under A4");
    assert!(why.contains("'heroes'") && why.contains("A4-G-01"), "{why}");
    for name in ["arena.ron", "tutorial.ron", "a4_ford_ambush.ron", "gauntlet.ron"] {
        assert_eq!(a4_unwinnable(&level(name)), None, "{name}");
    }
}

#[test] // issue 30: the difficulties are told apart by how often they lose track of the fight (a turn with no attack)
fn weaker_difficulties_forget_their_attacks_more_under_every_ruleset() {
    let book = doo_rules::ai::AiBook::builtin();
    assert!(book.easy.forget_action > book.normal.forget_action && book.normal.forget_action > book.hard.forget_action);
    // Under A4 too (ai/a4.rs): two sides that always forget never strike, so nobody wins the
    // tutorial's duel; the same sides remembering end it.
    let mut l = level("tutorial.ron");
    l.level.profile = Some("A4".into());
    let both = |d: Difficulty| BTreeMap::from([("heroes".to_string(), d), ("monsters".to_string(), d)]);
    let mut data = RuleData::builtin();
    let mut b = (*data.ai).clone();
    b.easy.forget_action = 1.0;
    data.ai = std::sync::Arc::new(b);
    let idle = doo_rules::ladder::play(&data, &l, &both(Difficulty::Easy), 7).unwrap();
    assert_eq!((idle.winner.as_deref(), idle.refused, idle.stuck), (None, 0, false), "no attack, no winner");
    assert!(idle.turns >= doo_rules::ladder::MAX_TURNS, "played to the turn cap: {}", idle.turns);
    let fight = doo_rules::ladder::play(&data, &l, &both(Difficulty::Hard), 7).unwrap();
    assert!(fight.winner.is_some() && fight.turns < doo_rules::ladder::MAX_TURNS, "{fight:?}");
}

#[test] // issue 45: sharp is normal's careful planner without its slips, the reference hard is measured against
fn sharp_is_normal_without_slips() {
    let book = doo_rules::ai::AiBook::builtin();
    assert_eq!("sharp".parse::<Difficulty>(), Ok(Difficulty::Sharp));
    assert_eq!(Difficulty::Sharp.name(), "sharp");
    let (s, n) = (book.sharp, book.normal);
    assert_eq!((s.noise, s.forget_action, s.forget_free_steps), (0.0, 0.0, 0.0), "sharp never slips");
    assert!(s.lookahead.is_none(), "sharp thinks one step deep");
    assert!(n.noise > 0.0 && n.forget_action > 0.0, "normal slips");
    assert_eq!((s.focus, s.finish, s.exposure, s.answer, s.reacts, s.runs), (n.focus, n.finish, n.exposure, n.answer, n.reacts, n.runs), "normal's weights");
    // and it plays through the one flow: no refused command, the game ends
    let l = level("tutorial.ron");
    let sides: Vec<String> = l.side_ids().map(String::from).collect();
    let who = doo_rules::ladder::seating(&sides, &[0], Difficulty::Hard, Difficulty::Sharp);
    let end = doo_rules::ladder::play(&RuleData::builtin(), &l, &who, 5).unwrap();
    assert_eq!((end.refused, end.stuck), (0, false));
    assert!(end.winner.is_some() || end.turns > doo_rules::ladder::MAX_TURNS, "{end:?}");
}

#[test] // issue 45: hard's search is deterministic for a seed (a count budget, the sight memo per decision), and anytime under a deadline
fn hard_search_is_seeded_and_anytime() {
    let data = RuleData::builtin();
    let l = level("arena.ron");
    let sides: Vec<String> = l.side_ids().map(String::from).collect();
    let who = doo_rules::ladder::seating(&sides, &[1], Difficulty::Hard, Difficulty::Sharp);
    let a = doo_rules::ladder::play(&data, &l, &who, 9).unwrap();
    let b = doo_rules::ladder::play(&data, &l, &who, 9).unwrap();
    assert_eq!((a.winner.clone(), a.turns, a.commands), (b.winner, b.turns, b.commands), "a seed is one game");
    assert_eq!(a.refused, 0);
    // A deadline of zero cuts every search at once: the planner's first choice, still legal.
    let cut = doo_rules::ai::Budget { deadline: Some(std::time::Duration::ZERO), ..Default::default() };
    let c = doo_rules::ladder::play_within(&data, &l, &who, 9, cut).unwrap();
    assert_eq!((c.refused, c.stuck), (0, false), "{c:?}");
}
