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
    pub addr: SocketAddr,
    pub seed: u64,
    /// side → "remote" or "ai" (every side not named: remote).
    pub seats: Vec<(String, String)>,
    pub difficulty: Difficulty,
    pub autosave: Option<PathBuf>,
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

fn new_app() -> App {
    let mut app = crate::headless::headless_app();
    app.add_plugins(super::plugin);
    app.finish();
    app
}

fn final_hash(app: &App) -> String {
    let w = app.world();
    match (w.get_resource::<crate::game::components::MatchState>(), w.get_resource::<crate::game::components::MatchDice>()) {
        (Some(m), Some(d)) => doo_rules::save::state_hash(&m.0, &d.0),
        _ => String::new(),
    }
}

fn winner(app: &App) -> Option<String> {
    app.world().get_resource::<crate::game::log::MatchOutcome>().and_then(|o| o.0.as_ref()).and_then(|o| o.winner.clone())
}

/// `doo host`: exit 0 when the match ended with no desync, 1 otherwise, 2 when it could not start.
pub fn host(args: &HostArgs) -> ExitCode {
    let data = match crate::cli::rule_data() {
        Ok(d) => d,
        Err(code) => return code,
    };
    let root = doo_rules::level_file::project_root(&args.level);
    let level = match doo_rules::level_file::load(&args.level, &data, &root) {
        Ok(l) => l,
        Err(errs) => {
            for e in errs {
                eprintln!("{}:{}:{}: {}", args.level.display(), e.line, e.col, e.message);
            }
            return ExitCode::from(2);
        }
    };
    for (side, kind) in &args.seats {
        if !level.side_ids().any(|s| s == side) || !matches!(kind.as_str(), "remote" | "ai") {
            eprintln!("--seat {side}={kind}: expected one of the level's sides ({}) = remote or ai", level.side_ids().collect::<Vec<_>>().join(", "));
            return ExitCode::from(2);
        }
    }
    let seats: Vec<Seat> = level
        .side_ids()
        .map(|s| {
            let ai = args.seats.iter().any(|(side, k)| side == s && k == "ai");
            Seat { side: s.to_string(), who: if ai { SeatKind::Ai } else { SeatKind::Remote(String::new()) } }
        })
        .collect();
    let text = doo_rules::data::read_text(&args.level, doo_rules::data::MAX_FILE_BYTES).unwrap_or_default();
    let header = match doo_rules::save::save_header(&args.level, &level, args.seed, save_seats(&seats, args.difficulty), false) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let m = match level.build(&data) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{}: {}", args.level.display(), e.join("; "));
            return ExitCode::from(2);
        }
    };
    let mut app = new_app();
    let addr = match super::transport::listen(&mut app, args.addr) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let ai_sides: std::collections::BTreeMap<String, Difficulty> =
        seats.iter().filter(|s| s.who == SeatKind::Ai).map(|s| (s.side.clone(), args.difficulty)).collect();
    let ai = doo_rules::ai::AiConfig::for_level(
        ai_sides.keys().map(String::as_str),
        &level.behaviours,
        &level.level.victory,
        args.difficulty,
        &ai_sides,
        args.seed,
        data.ai.clone(),
    );
    let name = args.level.file_name().map_or(String::new(), |f| f.to_string_lossy().to_string());
    app.insert_resource(NetHost::new(name, text, args.seed, seats, ai.clone()));
    if !ai_sides.is_empty() {
        app.insert_resource(crate::game::ai::AiControl { config: ai, pace_secs: 0.0, waited: 0.0, plan: None });
    }
    if let Some(p) = &args.autosave {
        app.insert_resource(crate::game::record::Autosave::to(p.clone()));
    }
    app.update();
    app.world_mut().insert_resource(MatchRecord::new(header));
    crate::game::setup::start_match(app.world_mut(), m, doo_rules::rules::Dice::seeded(args.seed), false);
    line(json!({"type": "listening", "addr": addr.to_string(), "port": addr.port()}));
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
        if start.elapsed() > args.timeout {
            line(json!({"type": "timeout", "secs": args.timeout.as_secs()}));
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
pub fn join(addr: &str, name: &str, ai: Option<Difficulty>, timeout: Duration) -> ExitCode {
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
    if let Err(e) = super::transport::connect(&mut app, addr, super::transport::fresh_id()) {
        eprintln!("{e}");
        return ExitCode::from(2);
    }
    app.insert_resource(NetClient::new(name.to_string(), data, ai));
    let start = Instant::now();
    let mut printed = 0;
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
        if std::env::var_os("DOO_NET_TRACE").is_some() && start.elapsed().as_millis() % 1000 < 2 {
            let status = app.world().resource::<FlowStatus>();
            let n = app.world().get_resource::<MatchRecord>().map_or(0, |r| r.commands.len());
            eprintln!(
                "welcomed {} received {} record {n} awaiting {} over {} sent_at {:?} yours {:?}",
                c.welcomed, c.received, status.awaiting, status.over, c.sent_at, c.yours
            );
        }
        let ends = c.host_checks.iter().any(|h| h.hash.starts_with("end:"));
        if c.welcomed && over && ends && c.compared >= own {
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
