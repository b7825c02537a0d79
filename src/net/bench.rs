//! The network bench (issue 32), `doo net-bench --matches 50`: one host process runs that many
//! matches at once on 127.0.0.1 (one host app each, as `doo host` runs one), and a second
//! process (this one again, `--clients-for`) plays every seat of every match with the AI, two
//! clients per match; each process's apps updated in turn, each only when it has work (`Pacing`:
//! threads, frames, idle apps skipped; issue 44). Measured: the commands the host played a
//! second, the host process's CPU and memory, and each command's round trip as a client sees it (from sending it to the host's
//! `Played` of it), median and 99th percentile; and every checkpoint of every client compared
//! with its host's (the desyncs are counted; each client's final state hash must be its host's).
//! Prints Markdown rows for the README and one JSON summary line; exits 1 when it misses one of
//! its goals (`missed_goals`: every match ends, p99 round trip within the goal, no desync), and
//! says which on stderr.

use super::cli::{HostArgs, final_hash, host_app, new_app};
use super::client::NetClient;
use super::host::NetHost;
use super::pacing::{Due, STACK, Wake};
pub use super::pacing::{FRAME, Pacing};
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
    /// How each process runs its apps (threads, frames).
    pub pacing: Pacing,
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
        Some(ports) => clients(ports, args.timeout, args.pacing),
        None => hosts(args),
    }
}

/// One host app's match as its thread leaves it.
struct HostDone {
    port: u16,
    seed: u64,
    ended: bool,
    commands: usize,
    desyncs: usize,
    final_hash: String,
}

/// What one thread of either process reports: its apps' results, its rounds and how long they took.
struct ThreadDone<T> {
    apps: Vec<T>,
    rounds: u64,
    /// Frames of its apps (an app over and done with is updated no more).
    frames: u64,
    secs: f64,
}

/// The host process: every match's host app, each thread's in turn once a frame, until every
/// match is over and its clients have had everything.
fn hosts(args: &BenchArgs) -> ExitCode {
    let data = match crate::cli::rule_data() {
        Ok(d) => d,
        Err(code) => return code,
    };
    // The process before any match (the baseline of the memory a match takes).
    let base_kb = status_kb("VmRSS:").unwrap_or(0);
    let n = args.matches;
    let groups = args.pacing.groups(n);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (ports_tx, ports_rx) = std::sync::mpsc::channel::<Result<(usize, u16), String>>();
    let mut outcome: Option<(Duration, Duration, u64, u64, String, Vec<ThreadDone<HostDone>>)> = None;
    let code = std::thread::scope(|s| {
        let mut handles = Vec::new();
        for g in groups {
            let (data, stop, tx) = (&data, &stop, ports_tx.clone());
            let h = std::thread::Builder::new().stack_size(STACK).spawn_scoped(s, move || host_thread(args, data, g, stop, tx));
            match h {
                Ok(h) => handles.push(h),
                Err(e) => {
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                    eprintln!("cannot start a thread: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        drop(ports_tx);
        let mut ports = vec![0u16; n];
        for _ in 0..n {
            match ports_rx.recv() {
                Ok(Ok((k, p))) => ports[k] = p,
                Ok(Err(e)) => {
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                    eprintln!("{e}");
                    return ExitCode::from(2);
                }
                Err(_) => {
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                    eprintln!("a host thread ended before listening");
                    return ExitCode::from(2);
                }
            }
        }
        let ports: Vec<String> = ports.iter().map(u16::to_string).collect();
        let exe = std::env::current_exe().unwrap_or_else(|_| "doo".into());
        let child = Command::new(exe)
            .args(["net-bench", "--clients-for", &ports.join(","), "--timeout", &args.timeout.as_secs().to_string()])
            .args(["--apps-per-thread", &args.pacing.per_thread.to_string(), "--frame-ms", &format!("{}", args.pacing.frame.as_secs_f64() * 1000.0)])
            .args((!args.pacing.skip_idle).then_some("--update-idle"))
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn();
        let child = match child {
            Ok(c) => c,
            Err(e) => {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                eprintln!("cannot start the clients' process: {e}");
                return ExitCode::from(2);
            }
        };
        let (t0, cpu0) = (Instant::now(), cpu_time().unwrap_or_default());
        let mut threads = Vec::new();
        for h in handles {
            match h.join() {
                Ok(t) => threads.push(t),
                Err(_) => {
                    eprintln!("a host thread panicked");
                    return ExitCode::from(2);
                }
            }
        }
        let wall = t0.elapsed();
        let cpu = cpu_time().unwrap_or_default().saturating_sub(cpu0);
        let (rss, peak) = (status_kb("VmRSS:").unwrap_or(0), status_kb("VmHWM:").unwrap_or(0));
        let out = child.wait_with_output().map(|o| String::from_utf8_lossy(&o.stdout).to_string()).unwrap_or_default();
        outcome = Some((wall, cpu, rss, peak, out, threads));
        ExitCode::SUCCESS
    });
    let Some((wall, cpu, rss, peak, out, threads)) = outcome else { return code };
    report(args, base_kb, wall, cpu, rss, peak, &out, threads)
}

/// The host apps `group` of the bench, built in this thread (each tells its port), updated in
/// turn once a frame until each match is over and its clients have everything (or `stop`).
fn host_thread(
    args: &BenchArgs,
    data: &doo_rules::data::RuleData,
    group: std::ops::Range<usize>,
    stop: &std::sync::atomic::AtomicBool,
    ports: std::sync::mpsc::Sender<Result<(usize, u16), String>>,
) -> ThreadDone<HostDone> {
    let mut apps: Vec<(App, u16, Option<Instant>, bool, u64, Wake)> = Vec::new();
    for k in group {
        let host = HostArgs {
            level: args.level.clone(),
            profile: None,
            // `doo simulate`'s and the ladder's cap, as a rule the clients play too: a
            // stalemate (seed 30 on the arena) ends as a draw (issue 44).
            turn_limit: Some(doo_rules::ladder::MAX_TURNS),
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            seed: args.seed + k as u64,
            seats: Vec::new(),
            difficulty: doo_rules::ai::Difficulty::Normal,
            autosave: None,
            resume: None,
            hand_over: None,
            timeout: args.timeout,
        };
        match host_app(&host, data) {
            Ok((app, addr)) => {
                let _ = ports.send(Ok((k, addr.port())));
                apps.push((app, addr.port(), None, false, host.seed, Wake::new()));
            }
            Err(e) => {
                let _ = ports.send(Err(e));
                return ThreadDone { apps: Vec::new(), rounds: 0, frames: 0, secs: 0.0 };
            }
        }
    }
    drop(ports);
    let t0 = Instant::now();
    let (mut rounds, mut frames) = (0u64, 0u64);
    while !stop.load(std::sync::atomic::Ordering::Relaxed) && t0.elapsed() < args.timeout {
        let began = Instant::now();
        let (mut all, mut worked) = (true, false);
        for (app, _, ended, done, _, wake) in apps.iter_mut().filter(|a| !a.3) {
            match wake.due(&args.pacing, app) {
                Due::Skip => {
                    all = false;
                    continue;
                }
                due => worked |= due == Due::Work,
            }
            app.update();
            frames += 1;
            if ended.is_none() && app.world().resource::<FlowStatus>().over {
                *ended = Some(Instant::now());
            }
            *done = ended.is_some_and(|t| {
                t.elapsed() > Duration::from_secs(3) || app.world().resource::<NetHost>().peers.is_empty() && t.elapsed() > Duration::from_millis(200)
            });
            all &= *done;
        }
        rounds += 1;
        if all {
            break;
        }
        args.pacing.rest(began, worked);
    }
    let secs = t0.elapsed().as_secs_f64();
    let apps = apps
        .iter()
        .map(|(app, port, ended, _, seed, _)| HostDone {
            port: *port,
            seed: *seed,
            ended: ended.is_some(),
            commands: app.world().resource::<MatchRecord>().commands.len(),
            desyncs: app.world().resource::<NetHost>().desyncs.len(),
            final_hash: final_hash(app),
        })
        .collect();
    ThreadDone { apps, rounds, frames, secs }
}

/// The bench's rows and summary line from the host threads' results and the clients' process's
/// line (`out`); the exit code its goals give.
#[allow(clippy::too_many_arguments)]
fn report(args: &BenchArgs, base_kb: u64, wall: Duration, cpu: Duration, rss: u64, peak: u64, out: &str, threads: Vec<ThreadDone<HostDone>>) -> ExitCode {
    // Between two rounds of a thread's apps, averaged over the threads.
    let round_ms = |rounds: u64, secs: f64| secs * 1000.0 / rounds.max(1) as f64;
    let host_round = threads.iter().map(|t| round_ms(t.rounds, t.secs)).sum::<f64>() / threads.len().max(1) as f64;
    let host_frames: u64 = threads.iter().map(|t| t.frames).sum();
    let apps: Vec<HostDone> = threads.into_iter().flat_map(|t| t.apps).collect();
    let theirs: serde_json::Value = out.lines().rev().find_map(|l| serde_json::from_str(l).ok()).unwrap_or_default();
    let commands: usize = apps.iter().map(|a| a.commands).sum();
    let host_desyncs: usize = apps.iter().map(|a| a.desyncs).sum();
    let over = apps.iter().filter(|a| a.ended).count();
    // Each client's final hash is its host's.
    let mut unequal = 0;
    for a in &apps {
        for h in theirs["finals"][a.port.to_string()].as_array().into_iter().flatten() {
            if h.as_str() != Some(a.final_hash.as_str()) {
                unequal += 1;
            }
        }
    }
    let mut rtt: Vec<u64> = theirs["rtt_us"].as_array().into_iter().flatten().filter_map(|v| v.as_u64()).collect();
    rtt.sort_unstable();
    let (median, p99) = (percentile(&rtt, 0.5), percentile(&rtt, 0.99));
    let desyncs = host_desyncs + theirs["desyncs"].as_u64().unwrap_or(0) as usize;
    let n = args.matches;
    let secs = wall.as_secs_f64();
    let pacing = match args.pacing.per_thread {
        0 => "all in one thread".to_string(),
        1 => "an app a thread".to_string(),
        k => format!("{k} apps a thread"),
    };
    let frame = if args.pacing.frame.is_zero() {
        format!("{pacing}, 1 ms of rest between two rounds")
    } else {
        format!("{pacing}, a round every {:.0} ms", args.pacing.frame.as_secs_f64() * 1000.0)
    };
    let frame = if args.pacing.skip_idle { format!("{frame}, idle apps skipped") } else { format!("{frame}, every app every round") };
    let client_frames = theirs["frames"].as_u64().unwrap_or(0);
    println!("| what | figure | baseline, same run | goal |");
    println!("|---|---|---|---|");
    println!(
        "| {n} matches at once on one host process ({}; {} AI clients in a second process) | {over} of {n} ended; {commands} commands in {secs:.1} s: {:.0} commands/s | {host_frames} host frames, {client_frames} client frames: {:.0} and {:.0} a second an app ({frame}) | every match ends |",
        args.level.display(),
        2 * n,
        commands as f64 / secs,
        host_frames as f64 / secs / n.max(1) as f64,
        client_frames as f64 / secs / (2 * n).max(1) as f64,
    );
    println!(
        "| a command's round trip, client → host → client ({} commands) | median {:.1} ms, p99 {:.1} ms, max {:.1} ms | a round of a thread's apps: the host's {host_round:.1} ms, the clients' {:.1} ms; {} commands refused, sent again | p99 ≤ {} ms |",
        rtt.len(),
        median as f64 / 1000.0,
        p99 as f64 / 1000.0,
        rtt.last().copied().unwrap_or(0) as f64 / 1000.0,
        theirs["round_ms"].as_f64().unwrap_or(0.0),
        theirs["refused"].as_u64().unwrap_or(0),
        args.p99_goal.as_millis()
    );
    println!(
        "| host process CPU and memory | {:.0}% of one core (the clients' process {:.0}%); RSS {} MiB (peak {} MiB): {:.1} MiB a match | {} MiB (the process before its matches) | — |",
        100.0 * cpu.as_secs_f64() / secs,
        100.0 * theirs["cpu_secs"].as_f64().unwrap_or(0.0) / secs,
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
        json!({"type": "summary", "matches": n, "ended": over, "commands": commands, "secs": secs, "cpu_secs": cpu.as_secs_f64(), "clients_cpu_secs": theirs["cpu_secs"], "rss_kb": rss, "peak_kb": peak,
            "rtt_median_us": median, "rtt_p99_us": p99, "rtt_max_us": rtt.last().copied().unwrap_or(0), "host_round_ms": host_round, "client_round_ms": theirs["round_ms"], "refused": theirs["refused"],
            "host_frames": host_frames, "client_frames": client_frames,
            "apps_per_thread": args.pacing.per_thread, "frame_ms": args.pacing.frame.as_secs_f64() * 1000.0, "skip_idle": args.pacing.skip_idle, "rtt_p99_goal_ms": args.p99_goal.as_millis() as u64, "rtt_samples": rtt.len(), "desyncs": desyncs, "unequal_finals": unequal})
    );
    let outcome = Outcome { matches: n, ended: over, rtt_samples: rtt.len(), rtt_p99: Duration::from_micros(p99), desyncs, unequal_finals: unequal };
    let missed = missed_goals(&outcome, args.p99_goal);
    for a in apps.iter().filter(|a| !a.ended) {
        eprintln!("net-bench: the match of seed {} did not end ({} commands played)", a.seed, a.commands);
    }
    if over < n {
        // The round trips of the matches that ended apart (a match that never ends plays on
        // alone, its round trips many of the samples).
        let mut ended_rtt: Vec<u64> = apps
            .iter()
            .filter(|a| a.ended)
            .flat_map(|a| theirs["rtt_us_by_port"][a.port.to_string()].as_array().into_iter().flatten().filter_map(|v| v.as_u64()))
            .collect();
        ended_rtt.sort_unstable();
        eprintln!(
            "net-bench: the round trip in the {over} matches that ended ({} commands): median {:.1} ms, p99 {:.1} ms",
            ended_rtt.len(),
            percentile(&ended_rtt, 0.5) as f64 / 1000.0,
            percentile(&ended_rtt, 0.99) as f64 / 1000.0
        );
    }
    for m in &missed {
        eprintln!("net-bench missed its goal: {m}");
    }
    if missed.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

/// One client as its thread leaves it.
struct ClientDone {
    port: u16,
    rtt_us: Vec<u64>,
    desyncs: usize,
    compared: usize,
    matched: usize,
    refused: usize,
    final_hash: String,
}

/// The clients' process: two AI clients for each port, each thread's updated in turn once a
/// frame until each has seen its match end and compared every checkpoint; then one JSON line.
fn clients(ports: &[u16], timeout: Duration, pacing: Pacing) -> ExitCode {
    let data = match crate::cli::rule_data() {
        Ok(d) => std::sync::Arc::new(d),
        Err(code) => return code,
    };
    let seats: Vec<(u16, &str)> = ports.iter().flat_map(|&p| [(p, "alice"), (p, "bob")]).collect();
    let cpu0 = cpu_time().unwrap_or_default();
    let groups = pacing.groups(seats.len());
    // Every client is made before any plays (as issue 32's bench made them all, then ran them):
    // no round trip is measured while the others' apps are still being built.
    let ready = std::sync::Barrier::new(groups.len());
    let threads: Result<Vec<ThreadDone<ClientDone>>, String> = std::thread::scope(|s| {
        let mut handles = Vec::new();
        for g in groups {
            let (data, seats, ready) = (data.clone(), &seats[g], &ready);
            let h = std::thread::Builder::new().stack_size(STACK).spawn_scoped(s, move || client_thread(seats, data, timeout, pacing, ready));
            handles.push(h.map_err(|e| format!("cannot start a thread: {e}"))?);
        }
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("a client thread panicked".into()))).collect()
    });
    let threads = match threads {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let round_ms = threads.iter().map(|t| t.secs * 1000.0 / t.rounds.max(1) as f64).sum::<f64>() / threads.len().max(1) as f64;
    let frames: u64 = threads.iter().map(|t| t.frames).sum();
    let mut finals: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let mut by_port: std::collections::BTreeMap<String, Vec<u64>> = Default::default();
    let (mut rtt, mut desyncs, mut compared, mut matched, mut refused) = (Vec::new(), 0, 0, 0, 0);
    for c in threads.into_iter().flat_map(|t| t.apps) {
        rtt.extend(c.rtt_us.iter().copied());
        by_port.entry(c.port.to_string()).or_default().extend(c.rtt_us);
        desyncs += c.desyncs;
        compared += c.compared;
        matched += c.matched;
        refused += c.refused;
        finals.entry(c.port.to_string()).or_default().push(c.final_hash);
    }
    println!(
        "{}",
        json!({"rtt_us": rtt, "desyncs": desyncs, "compared": compared, "matched": matched, "finals": finals, "round_ms": round_ms, "frames": frames, "refused": refused, "rtt_us_by_port": by_port,
        "cpu_secs": cpu_time().unwrap_or_default().saturating_sub(cpu0).as_secs_f64()})
    );
    ExitCode::SUCCESS
}

/// The clients `seats` (a host's port, a name), joined from this thread and updated in turn once
/// a frame until each is done with its match.
fn client_thread(
    seats: &[(u16, &str)],
    data: std::sync::Arc<doo_rules::data::RuleData>,
    timeout: Duration,
    pacing: Pacing,
    ready: &std::sync::Barrier,
) -> Result<ThreadDone<ClientDone>, String> {
    let mut apps: Vec<(u16, App, bool, Wake)> = Vec::new();
    let mut failed = None;
    for &(port, name) in seats {
        let mut app = new_app();
        let client = NetClient::new(name.to_string(), data.clone(), Some(doo_rules::ai::Difficulty::Normal));
        if let Err(e) = super::client::join(app.world_mut(), SocketAddr::from(([127, 0, 0, 1], port)), client) {
            failed = Some(e);
            break;
        }
        apps.push((port, app, false, Wake::new()));
    }
    // Every thread reaches the barrier, one that failed too (the others would wait for it).
    ready.wait();
    if let Some(e) = failed {
        return Err(e);
    }
    let t0 = Instant::now();
    let (mut rounds, mut frames) = (0u64, 0u64);
    let done = |app: &App| {
        let w = app.world();
        let c = w.resource::<NetClient>();
        let own = w.get_resource::<MatchRecord>().map_or(0, |r| r.checkpoints.len());
        c.welcomed && w.resource::<FlowStatus>().over && c.host_checks.iter().any(|h| h.hash.starts_with("end:")) && c.compared >= own
    };
    while t0.elapsed() < timeout {
        let began = Instant::now();
        let (mut all, mut worked) = (true, false);
        for (_, app, finished, wake) in apps.iter_mut().filter(|a| !a.2) {
            match wake.due(&pacing, app) {
                Due::Skip => {
                    all = false;
                    continue;
                }
                due => worked |= due == Due::Work,
            }
            app.update();
            frames += 1;
            *finished = done(app);
            all &= *finished;
        }
        rounds += 1;
        if all {
            break;
        }
        pacing.rest(began, worked);
    }
    let secs = t0.elapsed().as_secs_f64();
    let apps = apps
        .iter()
        .map(|(port, app, _, _)| {
            let c = app.world().resource::<NetClient>();
            ClientDone {
                port: *port,
                rtt_us: c.rtt_us.clone(),
                desyncs: c.desyncs.len(),
                compared: c.compared,
                matched: c.matched,
                refused: c.log.iter().filter(|l| l.starts_with("the host refused")).count(),
                final_hash: final_hash(app),
            }
        })
        .collect();
    Ok(ThreadDone { apps, rounds, frames, secs })
}
