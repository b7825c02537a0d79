//! `doo host LEVEL` and `doo join ADDR` without a window (issue 32): the host's and a client's
//! apps (the headless app's match systems and the network plugin), run until the match is over
//! and every checkpoint has been compared. Each prints JSON lines: what happened on the
//! connection, then a summary with the winner, the commands, the final state hash and the
//! desyncs.

use super::client::NetClient;
use super::host::NetHost;
use super::protocol::{Seat, SeatKind};
use crate::game::flow::FlowStatus;
use crate::game::record::MatchRecord;
use bevy::prelude::*;
use doo_rules::ai::Difficulty;
use serde_json::json;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// How a host is set up from the command line.
#[derive(Clone, Debug)]
pub struct HostArgs {
    pub level: PathBuf,
    /// Play the level under this profile or ruleset instead of its own (sent in the welcome).
    pub profile: Option<String>,
    /// End the match as a draw when this turn is over and nobody has won, instead of the
    /// level's own limit (sent in the welcome; `rules::victory::turn_limit`).
    pub turn_limit: Option<u32>,
    pub addr: SocketAddr,
    pub seed: u64,
    /// side → "remote" or "ai" (every side not named: remote).
    pub seats: Vec<(String, String)>,
    pub difficulty: Difficulty,
    pub autosave: Option<PathBuf>,
    /// Go on with this save (the host's autosave) instead of a fresh match.
    pub resume: Option<PathBuf>,
    /// A remote seat that has not answered in this long goes to the AI (`None`: it waits).
    pub hand_over: Option<Duration>,
    /// Give up (exit 1) after this long.
    pub timeout: Duration,
}

/// Seconds the host waits after the end for its clients to have everything.
const GRACE: Duration = Duration::from_secs(3);
/// A frame's rest, so that several peers on two cores share them.
const FRAME_SLEEP: Duration = Duration::from_millis(1);

fn line(v: serde_json::Value) {
    println!("{v}");
}

pub(super) fn new_app() -> App {
    let mut app = crate::headless::headless_app();
    app.add_plugins(super::plugin);
    app.finish();
    app
}

pub(super) fn final_hash(app: &App) -> String {
    let w = app.world();
    match (w.get_resource::<crate::game::components::MatchState>(), w.get_resource::<crate::game::components::MatchDice>()) {
        (Some(m), Some(d)) => doo_rules::save::state_hash(&m.0, &d.0),
        _ => String::new(),
    }
}

fn winner(app: &App) -> Option<String> {
    app.world().get_resource::<crate::game::log::MatchOutcome>().and_then(|o| o.0.as_ref()).and_then(|o| o.winner.clone())
}

/// Why the match ended (a goal, G-15, the turn limit's draw), when it is over.
fn reason(app: &App) -> Option<String> {
    app.world().get_resource::<crate::game::log::MatchOutcome>().and_then(|o| o.0.as_ref()).map(|o| o.reason.clone())
}

/// The level, the match and its header a host starts from: the level file, or a save (the
/// host's autosave after a crash: the match goes on where it was).
struct Start {
    level_path: PathBuf,
    level: doo_rules::level_file::CheckedLevel,
    seed: u64,
    seats: Vec<Seat>,
    /// A fresh match (`None`: restored from the save, already in the app).
    fresh: Option<(doo_rules::rules::state::Match, doo_rules::save::Save)>,
}

fn fail(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("{msg}");
    ExitCode::from(2)
}

/// `doo host`: exit 0 when the match ended with no desync, 1 otherwise, 2 when it could not start.
pub fn host(args: &HostArgs) -> ExitCode {
    let data = match crate::cli::rule_data() {
        Ok(d) => d,
        Err(code) => return code,
    };
    match host_app(args, &data) {
        Ok((app, addr)) => {
            let played = app.world().resource::<MatchRecord>().commands.len();
            line(json!({"type": "listening", "addr": addr.to_string(), "port": addr.port(), "commands": played}));
            run_host(app, args.timeout)
        }
        Err(e) => fail(e),
    }
}

/// A host's app, listening, its match started (or resumed): what `doo host` runs, and each of
/// the network bench's matches.
pub fn host_app(args: &HostArgs, data: &doo_rules::data::RuleData) -> Result<(App, SocketAddr), String> {
    let mut app = new_app();
    let start = match &args.resume {
        Some(save) => resume(&mut app, save, data),
        None => fresh(args, data),
    }?;
    let addr = super::transport::listen(app.world_mut(), args.addr)?;
    let text = doo_rules::data::read_text(&start.level_path, doo_rules::data::MAX_FILE_BYTES).unwrap_or_default();
    let level = &start.level;
    let ai_sides: std::collections::BTreeMap<String, Difficulty> =
        start.seats.iter().filter(|s| s.who == SeatKind::Ai).map(|s| (s.side.clone(), args.difficulty)).collect();
    let ai = doo_rules::ai::AiConfig::for_level(
        ai_sides.keys().map(String::as_str),
        &level.behaviours,
        &level.level.victory,
        args.difficulty,
        &ai_sides,
        start.seed,
        data.ai.clone(),
    );
    let name = start.level_path.file_name().map_or(String::new(), |f| f.to_string_lossy().to_string());
    let mut net = NetHost::new(name, text, start.seed, start.seats.clone(), ai.clone());
    net.profile = start.level.level.profile.clone();
    net.turn_limit = start.level.level.turn_limit;
    net.hand_over_after = args.hand_over;
    net.difficulty = args.difficulty;
    app.insert_resource(net);
    if !ai_sides.is_empty() {
        app.insert_resource(crate::game::ai::AiControl { config: ai, pace_secs: 0.0, waited: 0.0, plan: None, remote: Default::default() });
    }
    if let Some(p) = &args.autosave {
        app.insert_resource(crate::game::record::Autosave::to(p.clone()));
    }
    if let Some((m, header)) = start.fresh {
        app.update();
        app.world_mut().insert_resource(MatchRecord::new(header));
        crate::game::setup::start_match(app.world_mut(), m, doo_rules::rules::Dice::seeded(start.seed), false);
    }
    // The autosave says where the match listened and which seats are remote (docs/saves.md).
    let remote: Vec<String> = start.seats.iter().filter(|s| matches!(s.who, SeatKind::Remote(_))).map(|s| s.side.clone()).collect();
    if let Some(h) = app.world_mut().resource_mut::<MatchRecord>().header.as_mut().filter(|_| !remote.is_empty()) {
        h.hosted = Some(doo_rules::save::Hosted { listen: addr.to_string(), remote });
    }
    Ok((app, addr))
}

fn fresh(args: &HostArgs, data: &doo_rules::data::RuleData) -> Result<Start, String> {
    let root = doo_rules::level_file::project_root(&args.level);
    let mut level = doo_rules::level_file::load(&args.level, data, &root)
        .map_err(|errs| errs.iter().map(|e| format!("{}:{}:{}: {}", args.level.display(), e.line, e.col, e.message)).collect::<Vec<_>>().join("\n"))?;
    if let Some(p) = &args.profile {
        if !data.profiles.profiles.contains_key(p) && *p != data.a4.name {
            return Err(format!("--profile {p}: unknown (known: {}, {})", data.profiles.profiles.keys().cloned().collect::<Vec<_>>().join(", "), data.a4.name));
        }
        level.level.profile = Some(p.clone());
    }
    if args.turn_limit.is_some() {
        if let Some(p) = doo_rules::level_file::turn_limit_problem(args.turn_limit) {
            return Err(format!("--turn-limit: {p}"));
        }
        level.level.turn_limit = args.turn_limit;
    }
    for (side, kind) in &args.seats {
        if !level.side_ids().any(|s| s == side) || !matches!(kind.as_str(), "remote" | "ai") {
            return Err(format!(
                "--seat {side}={kind}: expected one of the level's sides ({}) = remote or ai",
                level.side_ids().collect::<Vec<_>>().join(", ")
            ));
        }
    }
    let seats: Vec<Seat> = level
        .side_ids()
        .map(|s| {
            let ai = args.seats.iter().any(|(side, k)| side == s && k == "ai");
            Seat { side: s.to_string(), who: if ai { SeatKind::Ai } else { SeatKind::Remote(String::new()) } }
        })
        .collect();
    let header = doo_rules::save::save_header(&args.level, &level, args.seed, save_seats(&seats, args.difficulty), false)?;
    let m = level.build(data).map_err(|e| format!("{}: {}", args.level.display(), e.join("; ")))?;
    Ok(Start { level_path: args.level.clone(), level, seed: args.seed, seats, fresh: Some((m, header)) })
}

/// A host restarted from its autosave: the save replayed (its checkpoints checked) into the
/// app; the seats as the save names them (a remote seat keeps its player's name for the rejoin).
fn resume(app: &mut App, path: &std::path::Path, data: &doo_rules::data::RuleData) -> Result<Start, String> {
    let (save, level_path, level) = doo_rules::save::load_save(path, data).map_err(|e| e.to_string())?;
    let origin = doo_rules::replay::Origin::of_save(data, &save, &level)?;
    let opened = doo_rules::replay::open(&origin, &save)?;
    if let Some(problem) = opened.problem {
        return Err(problem);
    }
    app.update();
    crate::replay::restore_into(app.world_mut(), origin, opened, &save);
    let seats =
        save.seats.iter().map(|s| Seat { side: s.side.clone(), who: if s.ai.is_some() { SeatKind::Ai } else { SeatKind::Remote(s.player.clone()) } }).collect();
    Ok(Start { level_path, level, seed: save.seed, seats, fresh: None })
}

/// Runs the host until the match is over and its clients have everything (or have left).
fn run_host(mut app: App, timeout: Duration) -> ExitCode {
    let start = Instant::now();
    let mut ended: Option<Instant> = None;
    let mut printed = 0;
    loop {
        app.update();
        let host = app.world().resource::<NetHost>();
        for l in host.log.iter().skip(printed) {
            line(json!({"type": "host", "note": l}));
        }
        printed = host.log.len();
        let over = app.world().resource::<FlowStatus>().over;
        if over && ended.is_none() {
            ended = Some(Instant::now());
        }
        let everyone_left = host.peers.is_empty();
        if ended.is_some_and(|t| t.elapsed() > GRACE || everyone_left && t.elapsed() > Duration::from_millis(200)) {
            break;
        }
        if start.elapsed() > timeout {
            line(json!({"type": "timeout", "secs": timeout.as_secs()}));
            return ExitCode::from(1);
        }
        std::thread::sleep(FRAME_SLEEP);
    }
    let host = app.world().resource::<NetHost>();
    let record = app.world().resource::<MatchRecord>();
    let desyncs = host.desyncs.clone();
    line(json!({
        "type": "summary",
        "role": "host",
        "winner": winner(&app),
        "reason": reason(&app),
        "commands": record.commands.len(),
        "checkpoints": record.checkpoints.len(),
        "final_hash": final_hash(&app),
        "desyncs": desyncs,
    }));
    if desyncs.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

fn save_seats(seats: &[Seat], difficulty: Difficulty) -> Vec<doo_rules::save::Seat> {
    seats
        .iter()
        .map(|s| doo_rules::save::Seat {
            side: s.side.clone(),
            player: match &s.who {
                SeatKind::Remote(n) => n.clone(),
                _ => String::new(),
            },
            ai: (s.who == SeatKind::Ai).then_some(difficulty),
        })
        .collect()
}

/// `doo join ADDR --name N --ai D`: exit 0 when the match ended here as on the host (every
/// checkpoint the same), 1 on a desync, a refusal that ends the match for it, or a timeout.
/// `matches`: how many of the host's matches to play before exiting (a campaign's levels, each
/// welcomed on the same connection).
pub fn join(addr: &str, name: &str, ai: Option<Difficulty>, matches: usize, timeout: Duration) -> ExitCode {
    let data = match crate::cli::rule_data() {
        Ok(d) => std::sync::Arc::new(d),
        Err(code) => return code,
    };
    let addr: SocketAddr = match resolve(addr) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let mut app = new_app();
    if let Err(e) = super::client::join(app.world_mut(), addr, NetClient::new(name.to_string(), data, ai)) {
        eprintln!("{e}");
        return ExitCode::from(2);
    }
    let start = Instant::now();
    let mut printed = 0;
    let (mut ended, mut was_done) = (0usize, false);
    loop {
        app.update();
        let c = app.world().resource::<NetClient>();
        for l in c.log.iter().skip(printed) {
            line(json!({"type": "client", "note": l}));
        }
        printed = c.log.len();
        if let Some(f) = &c.failed {
            eprintln!("{f}");
            return ExitCode::from(1);
        }
        let over = app.world().resource::<FlowStatus>().over;
        let own = app.world().get_resource::<MatchRecord>().map_or(0, |r| r.checkpoints.len());
        let ends = c.host_checks.iter().any(|h| h.hash.starts_with("end:"));
        // A match is done here when it is over and every checkpoint is compared; the next one
        // (a campaign's next level) begins with the host's next welcome.
        let done = c.welcomed && over && ends && c.compared >= own;
        if done && !was_done {
            ended += 1;
            line(
                json!({"type": "match_over", "match": ended, "commands": app.world().resource::<MatchRecord>().commands.len(), "final_hash": final_hash(&app), "desyncs": c.desyncs.len()}),
            );
        }
        was_done = done;
        if done && ended >= matches.max(1) {
            break;
        }
        if start.elapsed() > timeout {
            line(json!({"type": "timeout", "secs": timeout.as_secs()}));
            return ExitCode::from(1);
        }
        std::thread::sleep(FRAME_SLEEP);
    }
    let c = app.world().resource::<NetClient>();
    let record = app.world().resource::<MatchRecord>();
    line(json!({
        "type": "summary",
        "role": "client",
        "name": c.name,
        "sides": c.yours,
        "winner": winner(&app),
        "reason": reason(&app),
        "commands": record.commands.len(),
        "checkpoints_compared": c.compared,
        "checkpoints_matched": c.matched,
        "final_hash": final_hash(&app),
        "desyncs": c.desyncs,
    }));
    if c.desyncs.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

/// `ADDR` as `host:port` (a name is looked up).
fn resolve(addr: &str) -> Result<SocketAddr, String> {
    use std::net::ToSocketAddrs;
    addr.to_socket_addrs().map_err(|e| format!("{addr}: {e}"))?.next().ok_or_else(|| format!("{addr}: no address"))
}
