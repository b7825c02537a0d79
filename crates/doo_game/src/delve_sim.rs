//! `doo delve simulate` (issue 47): for a run of seeds, each delve generated
//! (`doo_rules::delve`), its floors validated as `doo validate` does and proven solvable
//! (`delve::prove`), then played floor after floor with the AI on every side (the party too)
//! through `doo campaign simulate`'s machinery (`campaign_sim::play_campaign`: each floor's
//! start checked for carry-over, R-CP-12, R-CP-13). A floor not won (the party routed, or the
//! simulator's limits reached) ends the delve: *cleared* means every floor won in one go. One
//! line per seed and a summary, as text or (`--json`) one JSON object a line. Exit 1 on an
//! invalid floor, a refused AI command or a carry-over mismatch; 2 on bad arguments.

use crate::campaign_sim::{self, Run};
use crate::delve_cli::DelveArgs;
use doo_rules::data::RuleData;
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// The most seeds one run plays.
pub const MAX_SEEDS: u64 = 100_000;

/// `doo delve simulate`'s arguments.
#[derive(Clone, Debug)]
pub struct DelveSim {
    pub args: DelveArgs,
    /// Seeds `args.seed`, `args.seed + 1` … this many.
    pub seeds: u64,
    /// The AI on every side.
    pub ai: doo_rules::ai::Difficulty,
    /// Where each seed's delve goes (`OUT/seed-N`); `None`: a temporary folder, removed after.
    pub out: Option<PathBuf>,
    pub json: bool,
}

/// One delve played.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeedResult {
    pub seed: u64,
    pub cleared: bool,
    pub floors: u32,
    /// Floors won before the first one lost (all of them when cleared).
    pub floors_cleared: usize,
    /// Heroes on their feet as the last floor played ended.
    pub standing: usize,
    /// Generation, validation and play, in seconds.
    pub secs: f64,
    pub rejected: usize,
    pub carry_over_failures: usize,
    /// Floors the simulator's limits ended with nobody winning.
    pub unended: usize,
    /// Each floor played: won, winner, crisis turns, heroes standing, milliseconds.
    pub played: Vec<serde_json::Value>,
}

/// Runs `doo delve simulate`; prints as it goes.
pub fn simulate(sim: &DelveSim) -> ExitCode {
    if sim.seeds == 0 || sim.seeds > MAX_SEEDS {
        eprintln!("--seeds {}: give 1 to {MAX_SEEDS}", sim.seeds);
        return ExitCode::from(2);
    }
    let data = match crate::cli::rule_data() {
        Ok(d) => d,
        Err(code) => return code,
    };
    if let Some(e) = sim.args.params().map_or_else(Some, |p| p.problem()) {
        eprintln!("{e}");
        return ExitCode::from(2);
    }
    let (out, temporary) = match &sim.out {
        Some(o) => (o.clone(), false),
        None => (std::env::temp_dir().join(format!("doo-delve-sim-{}", std::process::id())), true),
    };
    let stdout = std::io::stdout();
    let mut w = stdout.lock();
    let mut results: Vec<SeedResult> = Vec::new();
    let mut failed: Option<u8> = None;
    for k in 0..sim.seeds {
        let seed = sim.args.seed.wrapping_add(k);
        let args = DelveArgs { seed, ..sim.args.clone() };
        match play_seed(&data, &args, sim.ai, &out.join(format!("seed-{seed}"))) {
            Ok(r) => {
                let _ = writeln!(w, "{}", if sim.json { seed_json(&r).to_string() } else { seed_text(&r) });
                results.push(r);
            }
            Err((c, e)) => {
                eprintln!("seed {seed}: {e}");
                failed = Some(c);
                break;
            }
        }
    }
    if temporary {
        let _ = std::fs::remove_dir_all(&out);
    }
    if let (Some(c), true) = (failed, results.is_empty()) {
        return ExitCode::from(c); // nothing played: no summary
    }
    let s = summary(&results, &sim.args.difficulty, sim.ai);
    let _ = writeln!(w, "{}", if sim.json { s.to_string() } else { summary_text(&s) });
    let bad: usize = results.iter().map(|r| r.rejected + r.carry_over_failures).sum();
    if bad > 0 && failed.is_none() {
        eprintln!("{bad} refused AI commands or carry-over mismatches (see the lines above)");
        failed = Some(1);
    }
    failed.map_or(ExitCode::SUCCESS, ExitCode::from)
}

/// One seed: the delve written into `dir`, each floor validated and proven, then the campaign
/// played until a floor is not won. `Err`: the exit code and why (2: the arguments or the
/// data; 1: an invalid or unproven floor, or a game that could not be played).
pub fn play_seed(data: &RuleData, args: &DelveArgs, ai: doo_rules::ai::Difficulty, dir: &Path) -> Result<SeedResult, (u8, String)> {
    let t0 = Instant::now();
    let params = args.params().map_err(|e| (2, e))?;
    let files = doo_rules::delve::write_delve(&params, data, dir).map_err(|e| (2, e))?;
    let (campaign_file, floors) = files.split_last().ok_or((1, "no file written".to_string()))?;
    for f in floors {
        let root = doo_rules::level_file::project_root(f);
        let level = doo_rules::level_file::load(f, data, &root)
            .map_err(|errs| (1, errs.iter().map(|e| format!("{}:{}:{}: {}", f.display(), e.line, e.col, e.message)).collect::<Vec<_>>().join("\n")))?;
        doo_rules::delve::prove(&level.level).map_err(|e| (1, format!("{}: not proven solvable: {e}", f.display())))?;
    }
    let heroes: Vec<PathBuf> = params.party.iter().map(|h| params.root.join("heroes").join(format!("{h}.ron"))).collect();
    let (c, roster) = campaign_sim::load(data, campaign_file, &heroes).map_err(|e| (1, e))?;
    let run = Run { seed: params.seed, difficulty: ai, dir: dir.join("play"), stop_after: None, stop_on_loss: true };
    let mut played = Vec::new();
    let p = campaign_sim::play_campaign(data, &c, roster, &run, &mut |l| {
        played.push(json!({
            "floor": l["level"], "won": l["won"], "winner": l["winner"], "turns": l["turns"], "standing": l["standing"],
            "rejected": l["rejected"], "ms": l["wall_ms"], "carry_over": l["carry_over"],
        }));
    })?;
    Ok(SeedResult {
        seed: params.seed,
        cleared: p.progress.won,
        floors: params.floors,
        floors_cleared: p.levels_won,
        standing: p.standing,
        secs: t0.elapsed().as_secs_f64(),
        rejected: p.rejected,
        carry_over_failures: p.carry_over_failures,
        unended: p.unended,
        played,
    })
}

fn seed_json(r: &SeedResult) -> serde_json::Value {
    json!({
        "type": "delve", "seed": r.seed, "cleared": r.cleared, "floors": r.floors, "floors_cleared": r.floors_cleared,
        "standing": r.standing, "secs": (r.secs * 1000.0).round() / 1000.0, "rejected": r.rejected,
        "carry_over_failures": r.carry_over_failures, "unended": r.unended, "played": r.played,
    })
}

fn seed_text(r: &SeedResult) -> String {
    let how = if r.cleared {
        "cleared".to_string()
    } else if r.unended > 0 {
        format!("not cleared (floor {} undecided at the simulator's limits)", r.floors_cleared + 1)
    } else {
        format!("not cleared (the party routed on floor {})", r.floors_cleared + 1)
    };
    let mut s = format!("seed {}: {how}, {} of {} floors, {} heroes standing, {:.1} s", r.seed, r.floors_cleared, r.floors, r.standing, r.secs);
    if r.rejected + r.carry_over_failures > 0 {
        s.push_str(&format!(", {} refused AI commands, {} carry-over mismatches", r.rejected, r.carry_over_failures));
    }
    s
}

/// The quantile `q` of sorted `v` (nearest rank), 0 when empty.
fn quantile(v: &[f64], q: f64) -> f64 {
    if v.is_empty() { 0.0 } else { v[((v.len() - 1) as f64 * q).round() as usize] }
}

fn summary(results: &[SeedResult], difficulty: &str, ai: doo_rules::ai::Difficulty) -> serde_json::Value {
    let n = results.len();
    let cleared = results.iter().filter(|r| r.cleared).count();
    let mut secs: Vec<f64> = results.iter().map(|r| r.secs).collect();
    secs.sort_by(f64::total_cmp);
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    json!({
        "type": "summary", "difficulty": difficulty, "ai": format!("{ai:?}").to_lowercase(), "seeds": n, "cleared": cleared,
        "clear_rate": round(cleared as f64 / n.max(1) as f64),
        "mean_floors_cleared": round(results.iter().map(|r| r.floors_cleared as f64).sum::<f64>() / n.max(1) as f64),
        "mean_standing": round(results.iter().map(|r| r.standing as f64).sum::<f64>() / n.max(1) as f64),
        "median_secs": round(quantile(&secs, 0.5)), "p99_secs": round(quantile(&secs, 0.99)), "total_secs": round(secs.iter().sum()),
        "rejected_commands": results.iter().map(|r| r.rejected).sum::<usize>(),
        "carry_over_failures": results.iter().map(|r| r.carry_over_failures).sum::<usize>(),
        "unended_floors": results.iter().map(|r| r.unended).sum::<usize>(),
    })
}

fn summary_text(s: &serde_json::Value) -> String {
    format!(
        "{}: {} seeds, {} cleared ({:.1} %), {} floors cleared on average, {} heroes standing at the end on average; median {:.1} s, p99 {:.1} s a delve; {} refused AI commands, {} carry-over mismatches, {} floors undecided",
        s["difficulty"].as_str().unwrap_or("?"),
        s["seeds"],
        s["cleared"],
        s["clear_rate"].as_f64().unwrap_or(0.0) * 100.0,
        s["mean_floors_cleared"],
        s["mean_standing"],
        s["median_secs"].as_f64().unwrap_or(0.0),
        s["p99_secs"].as_f64().unwrap_or(0.0),
        s["rejected_commands"],
        s["carry_over_failures"],
        s["unended_floors"],
    )
}
