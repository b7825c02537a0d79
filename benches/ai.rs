//! AI speed (issue 6): a monster side of 30 finishes its whole action phase within 100 ms of
//! thinking, and a single decision within 10 ms (median). Run with `cargo bench --bench ai`
//! (release profile); prints the figures and exits non-zero if a goal is missed.

use doo::game::ai::{AiControl, AiStats};
use doo::headless::HeadlessMatch;
use doo_rules::ai::{AiConfig, Difficulty};
use doo_rules::data::RuleData;
use doo_rules::level::{CharacterDef, build_match};
use std::collections::BTreeMap;

const MONSTERS: usize = 30;

fn character(id: &str, side: &str, x: i32, y: i32, weapon: &str, stats: (u32, u32, u32, u32)) -> CharacterDef {
    let text = format!(
        r#"(id: "{id}", side: "{side}", pos: ({x}, {y}), weapon: "{weapon}", skills: {{"knives": apprentice, "swords": journeyman, "bows": apprentice}}, stats: (brawn: {}, finesse: {}, savvy: {}, nerve: {}))"#,
        stats.0, stats.1, stats.2, stats.3
    );
    doo_rules::data::ron_options().from_str(&text).expect("character")
}

fn main() {
    let data = RuleData::builtin();
    let (w, h) = (32, 20);
    let mut rows = vec!["#".repeat(w)];
    for y in 1..h - 1 {
        let mut r = String::from("#");
        for x in 1..w - 1 {
            r.push(if x % 7 == 0 && y % 5 == 0 && x < 15 { 'O' } else { '.' });
        }
        r.push('#');
        rows.push(r);
    }
    rows.push("#".repeat(w));
    let mut chars = Vec::new();
    for k in 0..4 {
        chars.push(character(&format!("hero{k}"), "heroes", 3, 4 + 3 * k as i32, "broadsword", (9, 8, 6, 7)));
    }
    for k in 0..MONSTERS {
        let (x, y) = (18 + (k % 6) as i32 * 2, 2 + (k / 6) as i32 * 3);
        let weapon = if k % 4 == 0 { "shortbow" } else { "dagger" };
        chars.push(character(&format!("m{k}"), "monsters", x, y, weapon, (5, 7, 5, 4)));
    }
    let mut report = Vec::new();
    let mut worst_phase_ms: f64 = 0.0;
    let mut medians = Vec::new();
    let mut worst_by: Vec<(Difficulty, f64, u64)> = Vec::new();
    let mut p99s: Vec<u64> = Vec::new();
    for (seed, diff) in [(1u64, Difficulty::Easy), (2, Difficulty::Normal), (3, Difficulty::Hard)] {
        let m = build_match(&data, &[rows.clone()], &chars, None, &Default::default()).expect("bench level");
        let mut hm = HeadlessMatch::new(m, doo_rules::rules::Dice::seeded(seed), false);
        let sides = BTreeMap::from([("heroes".to_string(), Difficulty::Normal), ("monsters".to_string(), diff)]);
        hm.app.world_mut().insert_resource(AiControl {
            config: AiConfig { sides, seed, ..Default::default() },
            pace_secs: 0.0,
            waited: 0.0,
            plan: None,
            remote: Default::default(),
        });
        // Play the first three turns.
        for _ in 0..200_000 {
            hm.app.update();
            if hm.status().over || hm.snapshot_turn() > 3 {
                break;
            }
        }
        let stats = hm.app.world().resource::<AiStats>().clone();
        let mut per_turn: BTreeMap<u32, (u64, usize)> = BTreeMap::new();
        let mut mine: Vec<u64> = Vec::new();
        for (side, turn, us) in &stats.by_side {
            if side == "monsters" {
                let e = per_turn.entry(*turn).or_default();
                e.0 += us;
                e.1 += 1;
                mine.push(*us);
            }
        }
        mine.sort_unstable();
        let median = mine.get(mine.len() / 2).copied().unwrap_or(0);
        let p95 = mine.get(mine.len() * 95 / 100).copied().unwrap_or(0);
        let p99 = mine.get(mine.len() * 99 / 100).copied().unwrap_or(0);
        let phase_ms: Vec<f64> = per_turn.values().map(|(us, _)| *us as f64 / 1000.0).collect();
        let worst = phase_ms.iter().cloned().fold(0.0, f64::max);
        worst_phase_ms = worst_phase_ms.max(worst);
        medians.push(median);
        worst_by.push((diff, worst, mine.last().copied().unwrap_or(0)));
        p99s.push(p99);
        report.push(format!(
            "{diff:?}: {} monster decisions; median {median} µs, p95 {p95} µs, p99 {p99} µs, max {} µs; thinking per action phase (ms): {:?}",
            mine.len(),
            mine.last().copied().unwrap_or(0),
            phase_ms.iter().map(|x| (x * 10.0).round() / 10.0).collect::<Vec<_>>()
        ));
    }
    println!("AI benchmark: {MONSTERS} monsters vs 4 heroes, {w}×{h} map, first 3 turns");
    for r in &report {
        println!("  {r}");
    }
    let worst_median = medians.iter().copied().max().unwrap_or(0);
    println!("worst whole-phase thinking: {worst_phase_ms:.1} ms (goal ≤ 100 ms); worst median decision: {worst_median} µs (goal ≤ 10 000 µs)");
    // The README's speed-table row: hard beside easy (the simplest AI) in the same run, and the
    // longest single decision beside the window's per-decision budget.
    let (easy, hard) = (worst_by[0], worst_by[2]);
    let budget_ms = doo_rules::ai::Budget::INTERACTIVE.deadline.map_or(0.0, |d| d.as_secs_f64() * 1e3);
    println!(
        "| a monster side's whole action phase, {MONSTERS} monsters, hard (longest decision {:.1} ms, budget {budget_ms:.0} ms) | {:.1} ms | {:.1} ms (easy) | {:.1}× | ≤ 100 ms |",
        hard.2 as f64 / 1e3,
        hard.1,
        easy.1,
        hard.1 / easy.1.max(0.001)
    );
    // Issue 45: hard's search stays within a decision's p99 of 50 ms (the window cuts at 25 ms).
    let hard_p99 = p99s.get(2).copied().unwrap_or(0);
    println!("hard's p99 decision: {:.1} ms beside easy's {:.1} ms (goal ≤ 50 ms)", hard_p99 as f64 / 1e3, p99s.first().copied().unwrap_or(0) as f64 / 1e3);
    if worst_phase_ms > 100.0 || worst_median > 10_000 || hard_p99 > 50_000 {
        println!("GOAL MISSED");
        std::process::exit(1);
    }
}
