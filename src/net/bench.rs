//! The network bench (issue 32), `doo net-bench --matches 50`: one host process runs that many
//! matches at once on 127.0.0.1 (one host app each, as `doo host` runs one), and a second
//! process (this one again, `--clients-for`) plays every seat of every match with the AI, two
//! clients per match. Measured: the commands the host played a second, the host process's CPU
//! and memory, and each command's round trip as a client sees it (from sending it to the host's
//! `Played` of it), median and 99th percentile; and every checkpoint of every client compared
//! with its host's (the desyncs are counted; each client's final state hash must be its host's).
//! Prints Markdown rows for the README and one JSON summary line; exits 1 when it misses one of
//! its goals (`missed_goals`: every match ends, p99 round trip within the goal, no desync), and
//! says which on stderr.

use super::cli::{HostArgs, final_hash, host_app, new_app};
use super::client::NetClient;
use super::host::NetHost;
use crate::game::flow::FlowStatus;
use crate::game::record::MatchRecord;
use bevy::prelude::*;
use serde_json::json;
use std::net::SocketAddr;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// What the bench runs.
#[derive(Clone, Debug)]
pub struct BenchArgs {
    pub matches: usize,
    pub level: std::path::PathBuf,
    pub seed: u64,
    /// The clients' process: the hosts' ports to join (two AI clients each).
    pub clients_for: Option<Vec<u16>>,
    pub timeout: Duration,
    /// The goal for a command's round trip, 99th percentile (`--p99-goal-ms`, 250 by default).
    pub p99_goal: Duration,
}

/// The bench's own goal for a command's round trip (p99), the README's "goal" column.
pub const P99_GOAL: Duration = Duration::from_millis(250);

/// What one bench run measured, against which its goals are checked.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub matches: usize,
    pub ended: usize,
    pub rtt_samples: usize,
    pub rtt_p99: Duration,
    pub desyncs: usize,
    pub unequal_finals: usize,
}

/// The goals the run missed, each in a sentence (empty: every goal met, exit 0). A run with no
/// round trip measured has not shown it meets the round-trip goal.
pub fn missed_goals(o: &Outcome, p99_goal: Duration) -> Vec<String> {
    let mut out = Vec::new();
    if o.ended < o.matches {
        out.push(format!("{} of {} matches did not end", o.matches - o.ended, o.matches));
    }
    if o.rtt_samples == 0 {
        out.push("no command's round trip was measured".into());
    } else if o.rtt_p99 > p99_goal {
        out.push(format!("the round trip's p99 is {:.1} ms, over the goal of {} ms", o.rtt_p99.as_secs_f64() * 1000.0, p99_goal.as_millis()));
    }
    if o.desyncs > 0 {
        out.push(format!("{} desync(s)", o.desyncs));
    }
    if o.unequal_finals > 0 {
        out.push(format!("{} client(s) ended with another state than their host", o.unequal_finals));
    }
    out
}

/// A frame's rest in each process's loop (as `doo host` and `doo join` rest).
const ROUND_SLEEP: Duration = Duration::from_millis(1);

/// The process's CPU time (user + system) so far, from /proc (Linux; clock ticks of 1/100 s).
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// A /proc/self/status field in kB (VmRSS, VmHWM).
fn status_kb(field: &str) -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    s.lines().find(|l| l.starts_with(field))?.split_whitespace().nth(1)?.parse().ok()
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

pub fn run(args: &BenchArgs) -> ExitCode {
    match &args.clients_for {
        Some(ports) => clients(ports, args.timeout),
        None => hosts(args),
    }
}

/// The host process: every match's host app, updated in turn until every match is over and its
/// clients have had everything.
fn hosts(args: &BenchArgs) -> ExitCode {
    let data = match crate::cli::rule_data() {
        Ok(d) => d,
        Err(code) => return code,
    };
    // The process before any match (the baseline of the memory a match takes).
    let base_kb = status_kb("VmRSS:").unwrap_or(0);
    let mut apps = Vec::new();
    for k in 0..args.matches {
        let host = HostArgs {
            level: args.level.clone(),
            profile: None,
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            seed: args.seed + k as u64,
            seats: Vec::new(),
            difficulty: doo_rules::ai::Difficulty::Normal,
            autosave: None,
            resume: None,
            hand_over: None,
            timeout: args.timeout,
        };
        match host_app(&host, &data) {
            Ok((app, addr)) => apps.push((app, addr.port())),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
        }
    }
    let ports: Vec<String> = apps.iter().map(|(_, p)| p.to_string()).collect();
    let exe = std::env::current_exe().unwrap_or_else(|_| "doo".into());
    let child = Command::new(exe)
        .args(["net-bench", "--clients-for", &ports.join(","), "--timeout", &args.timeout.as_secs().to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn();
    let child = match child {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cannot start the clients' process: {e}");
            return ExitCode::from(2);
        }
    };
    let (t0, cpu0) = (Instant::now(), cpu_time().unwrap_or_default());
    let mut ended: Vec<Option<Instant>> = vec![None; apps.len()];
    let mut rounds = 0u64;
    loop {
        for (k, (app, _)) in apps.iter_mut().enumerate() {
            app.update();
            if ended[k].is_none() && app.world().resource::<FlowStatus>().over {
                ended[k] = Some(Instant::now());
            }
        }
        rounds += 1;
        let done = apps.iter().zip(&ended).all(|((app, _), e)| {
            e.is_some_and(|t| {
                t.elapsed() > Duration::from_secs(3) || app.world().resource::<NetHost>().peers.is_empty() && t.elapsed() > Duration::from_millis(200)
            })
        });
        if done || t0.elapsed() > args.timeout {
            break;
        }
        std::thread::sleep(ROUND_SLEEP);
    }
    let wall = t0.elapsed();
    let cpu = cpu_time().unwrap_or_default().saturating_sub(cpu0);
    let (rss, peak) = (status_kb("VmRSS:").unwrap_or(0), status_kb("VmHWM:").unwrap_or(0));
    let out = child.wait_with_output().map(|o| String::from_utf8_lossy(&o.stdout).to_string()).unwrap_or_default();
    let theirs: serde_json::Value = out.lines().rev().find_map(|l| serde_json::from_str(l).ok()).unwrap_or_default();
    let commands: usize = apps.iter().map(|(a, _)| a.world().resource::<MatchRecord>().commands.len()).sum();
    let host_desyncs: usize = apps.iter().map(|(a, _)| a.world().resource::<NetHost>().desyncs.len()).sum();
    let over = ended.iter().filter(|e| e.is_some()).count();
    // Each client's final hash is its host's.
    let mut unequal = 0;
    for (app, port) in &apps {
        let mine = final_hash(app);
        for h in theirs["finals"][port.to_string()].as_array().into_iter().flatten() {
            if h.as_str() != Some(mine.as_str()) {
                unequal += 1;
            }
        }
    }
    let mut rtt: Vec<u64> = theirs["rtt_us"].as_array().into_iter().flatten().filter_map(|v| v.as_u64()).collect();
    rtt.sort_unstable();
    let (median, p99) = (percentile(&rtt, 0.5), percentile(&rtt, 0.99));
    let desyncs = host_desyncs + theirs["desyncs"].as_u64().unwrap_or(0) as usize;
    let n = apps.len();
    let secs = wall.as_secs_f64();
    println!("| what | figure | baseline, same run | goal |");
    println!("|---|---|---|---|");
    println!(
        "| {n} matches at once on one host process ({}; {} AI clients in a second process) | {over} of {n} ended; {commands} commands in {secs:.1} s: {:.0} commands/s | {} host frames ({:.1} ms a round of {n} matches) | every match ends |",
        args.level.display(),
        2 * n,
        commands as f64 / secs,
        rounds,
        secs * 1000.0 / rounds.max(1) as f64
    );
    println!(
        "| a command's round trip, client → host → client ({} commands) | median {:.1} ms, p99 {:.1} ms | a round of the host's {n} matches {:.1} ms; of the {} clients {:.1} ms | p99 ≤ {} ms |",
        rtt.len(),
        median as f64 / 1000.0,
        p99 as f64 / 1000.0,
        secs * 1000.0 / rounds.max(1) as f64,
        2 * n,
        theirs["round_ms"].as_f64().unwrap_or(0.0),
        args.p99_goal.as_millis()
    );
    println!(
        "| host process CPU and memory | {:.0}% of one core; RSS {} MiB (peak {} MiB): {:.1} MiB a match | {} MiB (the process before its matches) | — |",
        100.0 * cpu.as_secs_f64() / secs,
        rss / 1024,
        peak / 1024,
        rss.saturating_sub(base_kb) as f64 / 1024.0 / n.max(1) as f64,
        base_kb / 1024
    );
    println!(
        "| checkpoints compared with the host's | {} compared, {} matched; {desyncs} desyncs; {unequal} final hashes unlike the host's | — | 0 desyncs |",
        theirs["compared"], theirs["matched"]
    );
    println!(
        "{}",
        json!({"type": "summary", "matches": n, "ended": over, "commands": commands, "secs": secs, "cpu_secs": cpu.as_secs_f64(), "rss_kb": rss, "peak_kb": peak,
            "rtt_median_us": median, "rtt_p99_us": p99, "rtt_p99_goal_ms": args.p99_goal.as_millis() as u64, "rtt_samples": rtt.len(), "desyncs": desyncs, "unequal_finals": unequal})
    );
    let outcome = Outcome { matches: n, ended: over, rtt_samples: rtt.len(), rtt_p99: Duration::from_micros(p99), desyncs, unequal_finals: unequal };
    let missed = missed_goals(&outcome, args.p99_goal);
    for m in &missed {
        eprintln!("net-bench missed its goal: {m}");
    }
    if missed.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

/// The clients' process: two AI clients for each port, updated in turn until each has seen its
/// match end and compared every checkpoint; then one JSON line.
fn clients(ports: &[u16], timeout: Duration) -> ExitCode {
    let data = match crate::cli::rule_data() {
        Ok(d) => std::sync::Arc::new(d),
        Err(code) => return code,
    };
    let mut apps: Vec<(u16, App)> = Vec::new();
    for &port in ports {
        for name in ["alice", "bob"] {
            let mut app = new_app();
            let client = NetClient::new(name.to_string(), data.clone(), Some(doo_rules::ai::Difficulty::Normal));
            if let Err(e) = super::client::join(app.world_mut(), SocketAddr::from(([127, 0, 0, 1], port)), client) {
                eprintln!("{e}");
                return ExitCode::from(2);
            }
            apps.push((port, app));
        }
    }
    let t0 = Instant::now();
    let mut rounds = 0u64;
    let done = |app: &App| {
        let w = app.world();
        let c = w.resource::<NetClient>();
        let own = w.get_resource::<MatchRecord>().map_or(0, |r| r.checkpoints.len());
        c.welcomed && w.resource::<FlowStatus>().over && c.host_checks.iter().any(|h| h.hash.starts_with("end:")) && c.compared >= own
    };
    while t0.elapsed() < timeout {
        let mut all = true;
        for (_, app) in apps.iter_mut() {
            if !done(app) {
                app.update();
                all = false;
            }
        }
        if all {
            break;
        }
        rounds += 1;
        std::thread::sleep(ROUND_SLEEP);
    }
    let round_ms = t0.elapsed().as_secs_f64() * 1000.0 / rounds.max(1) as f64;
    let mut finals: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let (mut rtt, mut desyncs, mut compared, mut matched) = (Vec::new(), 0, 0, 0);
    for (port, app) in &apps {
        let c = app.world().resource::<NetClient>();
        rtt.extend(c.rtt_us.iter().copied());
        desyncs += c.desyncs.len();
        compared += c.compared;
        matched += c.matched;
        finals.entry(port.to_string()).or_default().push(final_hash(app));
    }
    println!("{}", json!({"rtt_us": rtt, "desyncs": desyncs, "compared": compared, "matched": matched, "finals": finals, "round_ms": round_ms}));
    ExitCode::SUCCESS
}
