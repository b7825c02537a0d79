//! `doo ladder`: the difficulty ladder as a table (issue 30). Each level under its own ruleset
//! and under A4, each pairing (`hard:normal`, `normal:easy`) with the sides swapped, in plain
//! Rust through the one flow (`doo_rules::ladder`), split over `--jobs` threads. Every game
//! is seeded, so the table is the same on any machine and any number of threads.

use doo_rules::ai::Difficulty;
use doo_rules::data::RuleData;
use doo_rules::ladder::{Tally, pairing_within};
use doo_rules::level_file::CheckedLevel;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;

/// What `doo ladder` is asked.
#[derive(Clone, Debug)]
pub struct LadderArgs {
    pub levels: Vec<PathBuf>,
    pub pairs: Vec<(Difficulty, Difficulty)>,
    pub games: u32,
    pub seed: u64,
    /// Only each level's own ruleset (no A4 row).
    pub own_only: bool,
    pub jobs: usize,
    /// Exit 1 when the stronger difficulty's share of decided games (all rows together, per
    /// pairing) is below this.
    pub min_share: Option<f64>,
    /// Every AI decision's wall-clock cut, in milliseconds (the window's is 25:
    /// `Budget::INTERACTIVE`); None: the deterministic budget only, so a seed is the same game
    /// on every machine. With a cut the table is what players meet, but may vary run to run.
    pub deadline_ms: Option<u64>,
    /// The weaker side plays idle: easy's planner that never attacks (`forget_action` 1), the
    /// ceiling where the dice decide (rows are named `stronger:idle`).
    pub idle: bool,
}

/// Parses `hard:normal`.
pub fn parse_pair(s: &str) -> Result<(Difficulty, Difficulty), String> {
    let (a, b) = s.split_once(':').ok_or_else(|| format!("'{s}': expected stronger:weaker, e.g. hard:normal"))?;
    Ok((a.parse()?, b.parse()?))
}

struct Row {
    level: String,
    ruleset: String,
    pair: (Difficulty, Difficulty),
    checked: CheckedLevel,
}

fn name(d: Difficulty) -> &'static str {
    d.name()
}

/// A row of the ladder's table: the level, the pairing's tally, the stronger's decision times.
fn row_line(row: &Row, t: &Tally, idle: bool) -> String {
    let per_side: Vec<String> = t.sides.iter().map(|(s, (ws, gs, ww, gw))| format!("{s} {ws}/{gs} vs {ww}/{gw}")).collect();
    let behind = t.sides_not_ahead();
    let mark = if behind.is_empty() { "" } else { " ✗" };
    let mut us = t.strong_us.clone();
    let (med, p99, max) = (percentile(&mut us, 0.5), percentile(&mut us, 0.99), percentile(&mut us, 1.0));
    format!(
        "| {} | {} | {} | {} | {} | {} | {:.0} %{} | {} | {} | {:.2} / {:.2} / {:.2} |",
        row.level,
        row.ruleset,
        pair_name(row.pair, idle),
        t.strong_wins,
        t.weak_wins,
        t.draws,
        t.share() * 100.0,
        mark,
        per_side.join(", "),
        t.refused,
        med,
        p99,
        max
    )
}

fn pair_name(p: (Difficulty, Difficulty), idle: bool) -> String {
    if idle { format!("{}:idle", name(p.0)) } else { format!("{}:{}", name(p.0), name(p.1)) }
}

fn percentile(v: &mut [u64], q: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_unstable();
    v[((v.len() - 1) as f64 * q) as usize] as f64 / 1000.0
}

/// Runs the ladder and prints its table.
pub fn run(data: &RuleData, args: &LadderArgs) -> ExitCode {
    let mut data = data.clone();
    if args.idle {
        // Only the weaker seats play idle: every pair's weaker difficulty takes easy's weights
        // with every attack forgotten.
        let mut book = (*data.ai).clone();
        let idle = doo_rules::ai::Thinking { forget_action: 1.0, lookahead: None, ..book.easy };
        for &(hi, lo) in &args.pairs {
            if hi == lo {
                eprintln!("--idle needs a weaker difficulty other than the stronger one");
                return ExitCode::from(2);
            }
            match lo {
                Difficulty::Easy => book.easy = idle,
                Difficulty::Normal => book.normal = idle,
                Difficulty::Hard => book.hard = idle,
                Difficulty::Sharp => book.sharp = idle,
            }
        }
        data.ai = std::sync::Arc::new(book);
    }
    let data = &data;
    let budget = doo_rules::ai::Budget { deadline: args.deadline_ms.map(std::time::Duration::from_millis), ..Default::default() };
    let mut levels = args.levels.clone();
    if levels.is_empty() {
        levels = std::fs::read_dir("levels")
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect())
            .unwrap_or_default();
        levels.sort();
    }
    let mut rows = Vec::new();
    let mut skipped = Vec::new();
    for path in &levels {
        let root = doo_rules::level_file::project_root(path);
        let level = match doo_rules::level_file::load(path, data, &root) {
            Ok(l) => l,
            Err(errs) => {
                for e in errs {
                    eprintln!("{}:{}:{}: {}", path.display(), e.line, e.col, e.message);
                }
                return ExitCode::from(2);
            }
        };
        let own = level.level.profile.clone().unwrap_or_else(|| data.profiles.default.clone());
        let mut rulesets = vec![own.clone()];
        if !args.own_only && own != data.a4.name {
            match doo_rules::ladder::a4_unwinnable(&level) {
                None => rulesets.push(data.a4.name.clone()),
                Some(why) => skipped.push(format!("{}: not played under {}: {why}", path.display(), data.a4.name)),
            }
        }
        let stem = path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
        for r in rulesets {
            let mut checked = level.clone();
            checked.level.profile = Some(r.clone());
            for &pair in &args.pairs {
                rows.push(Row { level: stem.clone(), ruleset: r.clone(), pair, checked: checked.clone() });
            }
        }
    }
    // Work in chunks of games, shared by the threads; each chunk's seeds are fixed.
    const CHUNK: u32 = 20;
    let mut work = Vec::new();
    for (ri, _) in rows.iter().enumerate() {
        let mut g = 0;
        while g < args.games {
            work.push((ri, g, CHUNK.min(args.games - g)));
            g += CHUNK;
        }
    }
    let work = Mutex::new(work.into_iter().rev().collect::<Vec<_>>());
    let results: Mutex<Vec<(usize, u32, Result<Tally, String>)>> = Mutex::new(Vec::new());
    let t0 = std::time::Instant::now();
    std::thread::scope(|s| {
        for _ in 0..args.jobs.max(1) {
            s.spawn(|| {
                loop {
                    let Some((ri, g, n)) = work.lock().map(|mut w| w.pop()).ok().flatten() else { break };
                    let row = &rows[ri];
                    // Seeds stay in step with the seatings: chunk starts are multiples of CHUNK (even).
                    let t = pairing_within(data, &row.checked, row.pair.0, row.pair.1, n, args.seed.wrapping_add(g as u64 / 2), budget);
                    if let Ok(mut r) = results.lock() {
                        r.push((ri, g, t));
                    }
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|r| (r.0, r.1));
    let mut tallies: Vec<Tally> = rows.iter().map(|_| Tally::default()).collect();
    for (ri, _, t) in results {
        match t {
            Ok(t) => tallies[ri].add(&t),
            Err(e) => {
                eprintln!("{}: {e}", rows[ri].level);
                return ExitCode::from(2);
            }
        }
    }
    println!(
        "| level | ruleset | stronger:weaker | stronger wins | weaker wins | draws | stronger's share | per side: wins as stronger / as weaker | refused | decision ms (stronger median / p99 / max) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut total: Vec<((Difficulty, Difficulty), Tally)> = Vec::new();
    let mut failed = false;
    let idle = args.idle;
    for (row, t) in rows.iter().zip(tallies.iter_mut()) {
        println!("{}", row_line(row, t, idle));
        failed |= t.refused > 0 || t.stuck > 0;
        match total.iter_mut().find(|(p, _)| *p == row.pair) {
            Some((_, all)) => all.add(t),
            None => total.push((row.pair, t.clone())),
        }
    }
    for (p, t) in &total {
        let rows_behind = rows.iter().zip(tallies.iter()).filter(|(r, t)| r.pair == *p && !t.sides_not_ahead().is_empty()).count();
        println!(
            "| **all** | | {} | {} | {} | {} | **{:.1} %** | rows with a side not ahead: {} | {} | |",
            pair_name(*p, args.idle),
            t.strong_wins,
            t.weak_wins,
            t.draws,
            t.share() * 100.0,
            rows_behind,
            t.refused
        );
        if args.min_share.is_some_and(|m| t.share() < m) {
            failed = true;
        }
    }
    if !skipped.is_empty() {
        println!();
        for s in &skipped {
            println!("- {s}");
        }
    }
    eprintln!("{} games in {:.1} s", tallies.iter().map(Tally::games).sum::<u32>(), t0.elapsed().as_secs_f64());
    if failed { ExitCode::from(1) } else { ExitCode::SUCCESS }
}
