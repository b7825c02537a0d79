//! The host's side (issue 32): who is connected and which seats they hold; each client's
//! message checked before any work (a hello, a command for one of its seats at its moment, at
//! most `MAX_COMMANDS_PER_SECOND`, a checkpoint); every command the match played sent to every
//! welcomed client in order, with the host's checkpoints. A client that drops keeps its seat
//! for a rejoin under the same name (the welcome carries the whole log: it catches up).

use super::protocol::{ClientMsg, HostMsg, MAX_COMMANDS_PER_SECOND, Seat, SeatKind, VERSION, WireCommand, name_problem};
use crate::game::MatchSystems;
use crate::game::components::MatchState;
use crate::game::flow::FlowStatus;
use crate::game::pipeline::{CheckedCommand, CommandQueue, IssueCommand};
use crate::game::record::MatchRecord;
use bevy::prelude::*;
use bevy_replicon::prelude::*;
use std::collections::BTreeMap;

pub(super) fn plugin(app: &mut App) {
    app.add_observer(add_peer).add_observer(remove_peer).add_systems(
        Update,
        (
            read_client_messages.run_if(resource_exists::<NetHost>).in_set(MatchSystems::Command).before(crate::game::pipeline::queue_issued_commands),
            (send_played, hand_idle_seats).run_if(resource_exists::<NetHost>).after(MatchSystems::Present),
        ),
    );
}

/// Desync reports kept (the first ones tell where it went wrong).
const MAX_DESYNCS: usize = 100;
/// Lines of the host's log kept (refusals are rate-limited per client, but a match is long).
const MAX_LOG: usize = 10_000;

/// The host of a network match: its level as the clients rebuild it, the seats, the peers.
#[derive(Resource, Debug)]
pub struct NetHost {
    pub level_name: String,
    pub level_text: String,
    /// The rules the match is played under when not the level file's (picked in the window).
    pub profile: Option<String>,
    /// The match's turn limit (the level's, or the host's `--turn-limit`): at its end the match
    /// is a draw, on every peer (sent in the welcome).
    pub turn_limit: Option<u32>,
    pub seed: u64,
    pub seats: Vec<Seat>,
    pub peers: BTreeMap<Entity, Peer>,
    /// What the host refused and why, and who joined and left (the CLI prints them).
    pub log: Vec<String>,
    /// Checkpoints a client reached with another state hash than the host's.
    pub desyncs: Vec<String>,
    /// The AI configuration of the level (its behaviours, exits, book): a client's seats are
    /// checked with it (`who_decides`).
    pub ai: doo_rules::ai::AiConfig,
    /// A remote seat the match has waited on this long goes to the host's AI (`None`: it waits).
    pub hand_over_after: Option<std::time::Duration>,
    pub difficulty: doo_rules::ai::Difficulty,
    /// The remote seat the match waits on, and since when.
    waiting: Option<(String, std::time::Instant)>,
    /// Who the clients were last told the match waits for (any seat's player, or the AI).
    told: Option<String>,
    /// Undecodable messages already logged (`protocol::MALFORMED`), and when last.
    malformed_seen: u64,
    malformed_logged_at: Option<u64>,
}

/// One connected client.
#[derive(Debug, Default)]
pub struct Peer {
    /// Its name once it said hello.
    pub name: Option<String>,
    pub sides: Vec<String>,
    /// Commands and checkpoints of the record already sent to it.
    sent: usize,
    checks_sent: usize,
    /// Commands this second: (the second, how many).
    rate: (u64, u32),
}

impl Peer {
    /// A connection that said hello as `name` and holds `sides`.
    pub fn joined(name: &str, sides: Vec<String>) -> Self {
        Peer { name: Some(name.to_string()), sides, ..Default::default() }
    }
}

impl NetHost {
    pub fn new(level_name: String, level_text: String, seed: u64, seats: Vec<Seat>, ai: doo_rules::ai::AiConfig) -> Self {
        NetHost {
            level_name,
            level_text,
            profile: None,
            turn_limit: None,
            seed,
            seats,
            peers: BTreeMap::new(),
            log: Vec::new(),
            desyncs: Vec::new(),
            ai,
            hand_over_after: None,
            difficulty: doo_rules::ai::Difficulty::Normal,
            waiting: None,
            told: None,
            malformed_seen: super::protocol::MALFORMED.load(std::sync::atomic::Ordering::Relaxed),
            malformed_logged_at: None,
        }
    }

    /// The name of the player at the host's computer (its first own seat's), else "the host".
    pub fn host_name(&self) -> String {
        self.seats
            .iter()
            .find_map(|s| match &s.who {
                SeatKind::Host(n) if !n.is_empty() => Some(n.clone()),
                _ => None,
            })
            .unwrap_or_else(|| "the host".into())
    }

    /// Who the match waits for, when it waits for a remote seat: its player's name, or the side.
    pub fn waiting_for(&self) -> Option<String> {
        let (side, _) = self.waiting.as_ref()?;
        Some(self.seat_owner(side))
    }

    fn seat_owner(&self, side: &str) -> String {
        self.seats.iter().find(|s| s.side == side).map_or(String::new(), |s| match &s.who {
            SeatKind::Remote(n) | SeatKind::Host(n) if !n.is_empty() => n.clone(),
            SeatKind::Ai => "the host's AI".into(),
            _ => format!("a player for {side}"),
        })
    }

    /// Who is in the match, for the host's banner: each player connected and his seats; each
    /// who dropped, and that his seat waits for him (it is kept for his rejoin under the same
    /// name); "nobody has joined yet" when no remote seat has had a player.
    pub fn players_line(&self) -> String {
        let here: Vec<&str> = self.peers.values().filter_map(|p| p.name.as_deref()).collect();
        let mut parts: Vec<String> = self
            .peers
            .values()
            .filter_map(|p| p.name.as_ref().map(|n| format!("{n} ({})", if p.sides.is_empty() { "watching".into() } else { p.sides.join(", ") })))
            .collect();
        let mut dropped: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for s in &self.seats {
            if let SeatKind::Remote(n) = &s.who {
                if !n.is_empty() && !here.contains(&n.as_str()) {
                    dropped.entry(n.as_str()).or_default().push(s.side.as_str());
                }
            }
        }
        for (name, sides) in dropped {
            let (seat, waits) = if sides.len() == 1 { ("seat", "waits") } else { ("seats", "wait") };
            parts.push(format!("{name} dropped, his {seat} ({}) {waits} for him", sides.join(", ")));
        }
        if parts.is_empty() { "nobody has joined yet".into() } else { parts.join(", ") }
    }

    /// The seats `name` holds: those it held before (a rejoin), else the first free remote seat.
    fn take_seats(&mut self, name: &str) -> Vec<String> {
        let held: Vec<String> = self.seats.iter().filter(|s| s.who == SeatKind::Remote(name.to_string())).map(|s| s.side.clone()).collect();
        if !held.is_empty() {
            return held;
        }
        match self.seats.iter_mut().find(|s| s.who == SeatKind::Remote(String::new())) {
            Some(s) => {
                s.who = SeatKind::Remote(name.to_string());
                vec![s.side.clone()]
            }
            None => Vec::new(),
        }
    }
}

/// The address a friend types to join a host listening on `bound`: the address it listens on,
/// or, when it listens on every address of the computer (0.0.0.0, which nobody can join), this
/// computer's address on its network (`lan`); without one, only the port can be told.
pub fn where_to_join(bound: std::net::SocketAddr, lan: Option<std::net::IpAddr>) -> String {
    if !bound.ip().is_unspecified() {
        return format!("at {bound}");
    }
    match lan.filter(|ip| !ip.is_unspecified()) {
        Some(ip) => format!("at {}", std::net::SocketAddr::new(ip, bound.port())),
        None => format!("on port {} (no network address found: give your friends this computer's address)", bound.port()),
    }
}

fn add_peer(add: On<Add, ConnectedClient>, host: Option<ResMut<NetHost>>) {
    if let Some(mut host) = host {
        host.peers.insert(add.entity, Peer::default());
    }
}

fn remove_peer(remove: On<Remove, ConnectedClient>, host: Option<ResMut<NetHost>>) {
    if let Some(mut host) = host {
        if let Some(p) = host.peers.remove(&remove.entity) {
            let name = p.name.unwrap_or_else(|| "a client".into());
            host.log.push(format!("{name} left; the seat waits for a rejoin under the same name"));
        }
    }
}

/// Whether the match waits for a command of `sides` (one of their figures decides now) with
/// nothing in flight.
fn their_moment(m: &doo_rules::rules::state::Match, ai: &doo_rules::ai::AiConfig, sides: &[String]) -> bool {
    let mut cfg = ai.clone();
    cfg.sides.retain(|s, _| sides.contains(s));
    for s in sides {
        cfg.sides.entry(s.clone()).or_insert(doo_rules::ai::Difficulty::Normal);
    }
    doo_rules::ai::who_decides(m, &cfg).is_some()
}

#[allow(clippy::too_many_arguments)]
fn read_client_messages(
    mut from: MessageReader<FromClient<ClientMsg>>,
    mut host: ResMut<NetHost>,
    state: Option<Res<MatchState>>,
    status: Res<FlowStatus>,
    queue: Res<CommandQueue>,
    checked: Res<CheckedCommand>,
    mut record: ResMut<MatchRecord>,
    autosave: Option<Res<crate::game::record::Autosave>>,
    time: Res<Time<Real>>,
    mut issue: MessageWriter<IssueCommand>,
    mut out: MessageWriter<ToClients<HostMsg>>,
    mut drop: MessageWriter<DisconnectRequest>,
) {
    let host = &mut *host;
    // One client command goes into the match a frame: the next is checked against the state it
    // leaves (two sent together would both pass the same check).
    let mut issued = false;
    // Connections closed for good, told why after the loop (`HostMsg::Closed`: no reconnection).
    let mut closed: Vec<(Entity, String)> = Vec::new();
    // Messages the transport could not decode since the last look: logged, at most once a second.
    let second = time.elapsed_secs_f64() as u64;
    if host.malformed_logged_at != Some(second) {
        let now = super::protocol::MALFORMED.load(std::sync::atomic::Ordering::Relaxed);
        if now > host.malformed_seen {
            host.log.push(format!("dropped {} message(s) that did not decode (garbage, oversized or of another shape)", now - host.malformed_seen));
            host.malformed_seen = now;
            host.malformed_logged_at = Some(second);
        }
    }
    for FromClient { client_id, message } in from.read() {
        let ClientId::Client(e) = *client_id else { continue };
        let to = SendTargets::Single(*client_id);
        let mut refuse = |host: &mut NetHost, why: String| {
            if host.log.len() < MAX_LOG {
                host.log.push(format!("refused {}: {why}", host.peers.get(&e).and_then(|p| p.name.clone()).unwrap_or_else(|| format!("{e}"))));
            }
            out.write(ToClients { targets: to, message: HostMsg::Refused(why) });
        };
        let Some(peer) = host.peers.get(&e) else { continue };
        // A flood (of any message): the first one over the limit each second is refused and
        // logged, the rest are dropped unread (the log does not grow with the flood).
        let second = time.elapsed_secs_f64() as u64;
        let rate = if peer.rate.0 == second { peer.rate.1.saturating_add(1) } else { 1 };
        if let Some(p) = host.peers.get_mut(&e) {
            p.rate = (second, rate);
        }
        if rate > MAX_COMMANDS_PER_SECOND {
            if rate == MAX_COMMANDS_PER_SECOND + 1 {
                refuse(host, format!("more than {MAX_COMMANDS_PER_SECOND} messages a second"));
            }
            continue;
        }
        let Some(peer) = host.peers.get(&e) else { continue };
        match message {
            ClientMsg::Hello { name, version } => {
                if peer.name.is_some() {
                    refuse(host, "said hello twice".into());
                    continue;
                }
                let problem = if *version != VERSION {
                    Some(format!("this host plays protocol version {VERSION}, the client {version}"))
                } else if let Some(p) = name_problem(name) {
                    Some(p)
                } else {
                    None
                };
                if let Some(p) = problem {
                    refuse(host, p.clone());
                    closed.push((e, p));
                    drop.write(DisconnectRequest { client: e });
                    continue;
                }
                // A rejoin under a name still connected (the old connection has not timed out
                // yet): the newest connection holds the seats.
                let old: Vec<Entity> = host.peers.iter().filter(|(k, p)| **k != e && p.name.as_deref() == Some(name.as_str())).map(|(k, _)| *k).collect();
                for o in old {
                    host.peers.remove(&o);
                    closed.push((o, format!("{name} joined again from another connection")));
                    drop.write(DisconnectRequest { client: o });
                    host.log.push(format!("{name} rejoined; the old connection is closed"));
                }
                let welcome = welcome(host, &mut record, autosave.as_deref(), e, name);
                out.write(ToClients { targets: to, message: welcome });
                if let Some(w) = host.told.clone() {
                    out.write(ToClients { targets: to, message: HostMsg::Waiting(w) });
                }
            }
            ClientMsg::Play(WireCommand(cmd)) => {
                let Some(name) = peer.name.clone() else {
                    refuse(host, "a command before hello".into());
                    continue;
                };
                let sides = peer.sides.clone();
                let Some(m) = state.as_deref() else { continue };
                let side = m.index(cmd.actor()).map(|i| m.fighters[i].side.clone());
                if !side.as_ref().is_some_and(|s| sides.contains(s)) {
                    refuse(host, format!("{name} does not hold the seat of '{}'", doo_rules::rules::story::clip(cmd.actor())));
                    continue;
                }
                let settled = crate::game::record::settled(&status, &queue, &checked);
                if issued || status.over || !settled || !their_moment(m, &host.ai, &sides) {
                    refuse(host, format!("not {name}'s moment"));
                    continue;
                }
                issued = true;
                issue.write(IssueCommand(cmd.clone()));
            }
            ClientMsg::Check(cp) => {
                let name = peer.name.clone().unwrap_or_default();
                if let Some(mine) = record.checkpoints.iter().find(|c| c.commands == cp.commands && c.turn == cp.turn) {
                    // At most `MAX_DESYNCS` kept: a client that sends false ones cannot grow them.
                    if mine.hash != cp.hash && host.desyncs.len() < MAX_DESYNCS {
                        host.desyncs.push(format!("{name} at command {}: {} ≠ host {}", cp.commands, cp.hash, mine.hash));
                    }
                }
            }
        }
    }
    for (e, why) in closed {
        out.write(ToClients { targets: SendTargets::Single(ClientId::Client(e)), message: HostMsg::Closed(why) });
    }
}

/// The welcome of `name` (connection `e`) to the match: its seats (those it held, else the first
/// free remote one), the level, the seed and the commands so far; the peer is set up to receive
/// the rest.
fn welcome(host: &mut NetHost, record: &mut MatchRecord, autosave: Option<&crate::game::record::Autosave>, e: Entity, name: &str) -> HostMsg {
    let sides = host.take_seats(name);
    // The autosave names who holds each seat (a host restarted from it gives the seats back to
    // the same names).
    if let Some(h) = record.header.as_mut() {
        for s in h.seats.iter_mut().filter(|s| sides.contains(&s.side)) {
            s.player = name.to_string();
        }
    }
    let n = shareable(record, autosave);
    let commands = record.commands.iter().take(n).cloned().map(WireCommand).collect();
    let msg = HostMsg::Welcome {
        level_name: host.level_name.clone(),
        level_text: host.level_text.clone(),
        profile: host.profile.clone(),
        turn_limit: host.turn_limit,
        seed: host.seed,
        seats: host.seats.clone(),
        yours: sides.clone(),
        commands,
    };
    let seats = if sides.is_empty() { "watching".to_string() } else { sides.join(", ") };
    host.log.push(format!("{name} joined: {seats}"));
    if let Some(p) = host.peers.get_mut(&e) {
        p.name = Some(name.to_string());
        p.sides = sides;
        p.sent = n;
        p.checks_sent = 0;
    }
    msg
}

impl NetHost {
    /// The next match on the same connections (a campaign's next level): its level, seed, seats
    /// and AI. `welcome_everyone` then sends it to every client.
    pub fn next_match(&mut self, level_name: String, level_text: String, profile: Option<String>, seed: u64, seats: Vec<Seat>, ai: doo_rules::ai::AiConfig) {
        self.profile = profile;
        // The next level's own limit, if any (its text carries it).
        self.turn_limit = None;
        self.level_name = level_name;
        self.level_text = level_text;
        self.seed = seed;
        self.seats = seats;
        self.ai = ai;
        self.waiting = None;
        self.told = None;
    }
}

/// Every client who said hello is welcomed to the match now in `NetHost` (a campaign's next
/// level), with the seats its name holds there.
pub fn welcome_everyone(world: &mut World) {
    world.resource_scope(|world, mut host: Mut<NetHost>| {
        world.resource_scope(|world, mut record: Mut<MatchRecord>| {
            let named: Vec<(Entity, String)> = host.peers.iter().filter_map(|(e, p)| p.name.clone().map(|n| (*e, n))).collect();
            for (e, name) in named {
                let msg = welcome(&mut host, &mut record, world.get_resource::<crate::game::record::Autosave>(), e, &name);
                world.write_message(ToClients { targets: SendTargets::Single(ClientId::Client(e)), message: msg });
                if let Some(w) = host.told.clone() {
                    world.write_message(ToClients { targets: SendTargets::Single(ClientId::Client(e)), message: HostMsg::Waiting(w) });
                }
            }
        });
    });
}

/// Tells every client what the match waits for when no seat's moment is it (say, the host
/// between a campaign's levels).
pub fn tell_everyone(world: &mut World, waiting_for: String) {
    if let Some(mut host) = world.get_resource_mut::<NetHost>() {
        host.told = Some(waiting_for.clone());
    }
    world.write_message(ToClients { targets: SendTargets::CLIENTS_ONLY, message: HostMsg::Waiting(waiting_for) });
}

/// The commands a client may have: with an autosave, only those it holds (a host restarted
/// from it then has everything any client saw: nothing is lost, nobody is ahead).
fn shareable(record: &MatchRecord, autosave: Option<&crate::game::record::Autosave>) -> usize {
    match autosave {
        Some(a) if a.last_error.is_none() => record.written().unwrap_or(0).min(record.commands.len()),
        _ => record.commands.len(),
    }
}

/// Every command the match played, and every checkpoint, to each welcomed client, in order.
fn send_played(
    mut host: ResMut<NetHost>,
    record: Res<MatchRecord>,
    autosave: Option<Res<crate::game::record::Autosave>>,
    mut out: MessageWriter<ToClients<HostMsg>>,
) {
    let n = shareable(&record, autosave.as_deref());
    for (e, p) in host.peers.iter_mut().filter(|(_, p)| p.name.is_some()) {
        let to = SendTargets::Single(ClientId::Client(*e));
        for (i, c) in record.commands.iter().enumerate().take(n).skip(p.sent) {
            out.write(ToClients { targets: to, message: HostMsg::Played { index: i as u32, command: WireCommand(c.clone()) } });
        }
        p.sent = p.sent.max(n);
        for c in record.checkpoints.iter().filter(|c| c.commands <= n).skip(p.checks_sent) {
            out.write(ToClients { targets: to, message: HostMsg::Check(c.clone()) });
            p.checks_sent += 1;
        }
    }
}

/// The remote seat the match waits on: everyone is told who it waits for; when the host chose a
/// timeout and the seat's owner has not answered in it (gone, or idle), the seat goes to the
/// host's AI for the rest of the match.
fn hand_idle_seats(
    mut host: ResMut<NetHost>,
    state: Option<Res<MatchState>>,
    status: Res<FlowStatus>,
    queue: Res<CommandQueue>,
    checked: Res<CheckedCommand>,
    ai: Option<ResMut<crate::game::ai::AiControl>>,
    mut record: ResMut<MatchRecord>,
    mut out: MessageWriter<ToClients<HostMsg>>,
    mut commands: Commands,
) {
    let Some(m) = state.as_deref() else { return };
    let settled = crate::game::record::settled(&status, &queue, &checked);
    let deciding = (!status.over && settled).then(|| host.seats.iter().find(|s| their_moment(m, &host.ai, std::slice::from_ref(&s.side))).cloned()).flatten();
    // Every client hears whose moment it is, a player at the host's computer included ("waiting
    // for Hank"); once per change (not again while a command is on its way).
    if let Some(who) = deciding.as_ref().map(|s| host.seat_owner(&s.side)) {
        if host.told.as_ref() != Some(&who) {
            host.told = Some(who.clone());
            out.write(ToClients { targets: SendTargets::CLIENTS_ONLY, message: HostMsg::Waiting(who) });
        }
    }
    let Some(side) = deciding.filter(|s| matches!(s.who, SeatKind::Remote(_))).map(|s| s.side) else {
        host.waiting = None;
        return;
    };
    if host.waiting.as_ref().is_none_or(|(s, _)| *s != side) {
        host.waiting = Some((side.clone(), std::time::Instant::now()));
    }
    let Some(after) = host.hand_over_after else { return };
    if host.waiting.as_ref().is_some_and(|(_, t)| t.elapsed() > after) {
        let d = host.difficulty;
        if let Some(seat) = host.seats.iter_mut().find(|s| s.side == side) {
            seat.who = SeatKind::Ai;
        }
        // Its owner, if he comes back or was only slow, plays it no more.
        for p in host.peers.values_mut() {
            p.sides.retain(|s| *s != side);
        }
        host.ai.sides.insert(side.clone(), d);
        // The autosave says so too (a host restarted from it keeps the AI in that seat).
        if let Some(h) = record.header.as_mut() {
            for s in h.seats.iter_mut().filter(|s| s.side == side) {
                s.ai = Some(d);
            }
            if let Some(hosted) = h.hosted.as_mut() {
                hosted.remote.retain(|s| *s != side);
            }
            if h.hosted.as_ref().is_some_and(|x| x.remote.is_empty()) {
                h.hosted = None;
            }
        }
        match ai {
            Some(mut ai) => {
                ai.config.sides.insert(side.clone(), d);
            }
            None => {
                let mut config = host.ai.clone();
                config.sides.retain(|s, _| *s == side);
                commands.insert_resource(crate::game::ai::AiControl { config, pace_secs: 0.0, waited: 0.0, plan: None, remote: Default::default() });
            }
        }
        host.log.push(format!("no answer for {side} in {} s: the seat goes to the AI", after.as_secs()));
        host.waiting = None;
    }
}
