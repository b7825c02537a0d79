//! A client's side (issue 32): it says hello once connected; the host's welcome rebuilds the
//! match (the level's text checked as any untrusted level file, the seed, the commands so far,
//! replayed through the one command path); every command the host then plays is played here in
//! the same order; the host's checkpoints are compared with this match's own (a difference is a
//! desync, reported). Its own seats' commands go to the host, never straight into the match:
//! from the AI here (`doo join --ai`), or from the player.

use super::protocol::{ClientMsg, HostMsg, VERSION};
use crate::game::MatchSystems;
use crate::game::components::MatchState;
use crate::game::flow::FlowStatus;
use crate::game::pipeline::{CheckedCommand, CommandQueue, IssueCommand};
use crate::game::record::MatchRecord;
use bevy::prelude::*;
use bevy_replicon::prelude::*;
use doo_rules::data::RuleData;
use doo_rules::save::Checkpoint;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            (keep_connected, say_hello, read_host_messages, start_welcomed_match, feed_host_commands)
                .chain()
                .run_if(resource_exists::<NetClient>)
                .in_set(MatchSystems::Command)
                .before(crate::game::pipeline::queue_issued_commands),
            (send_own_commands, play_own_seats, compare_checkpoints).chain().run_if(resource_exists::<NetClient>).after(MatchSystems::Present),
        ),
    );
}

/// A host that sent nothing this long while connected is gone (its netcode sends a keep-alive
/// four times a second).
const HOST_SILENT: Duration = Duration::from_secs(3);
/// How often a client whose host is gone tries to connect again.
const RECONNECT_EVERY: Duration = Duration::from_secs(2);

/// The client's AI sends at most one command this often (the host refuses more than
/// `MAX_COMMANDS_PER_SECOND`).
const AI_PACE: std::time::Duration = std::time::Duration::from_millis(1000 / (super::protocol::MAX_COMMANDS_PER_SECOND as u64 / 2));

/// A client of a network match.
#[derive(Resource, Debug)]
pub struct NetClient {
    pub name: String,
    pub data: Arc<RuleData>,
    /// Play the client's seats with the AI at this difficulty (`doo join --ai`).
    pub ai: Option<doo_rules::ai::Difficulty>,
    pub hello_sent: bool,
    /// The welcome came: the match is built.
    pub welcomed: bool,
    /// The sides this client holds.
    pub yours: Vec<String>,
    /// The match's seed and its characters' AI behaviours (the client's AI plays as the
    /// host's would).
    pub seed: u64,
    pub behaviours: std::collections::BTreeMap<String, String>,
    /// Commands received from the host (the next `Played` index expected).
    pub received: usize,
    /// The record's length when this client last sent a command (it waits for the host's
    /// answer before it sends another).
    pub sent_at: Option<usize>,
    /// The host's checkpoints, and how many of this match's own were compared with them.
    pub host_checks: Vec<Checkpoint>,
    pub compared: usize,
    pub matched: usize,
    pub desyncs: Vec<String>,
    /// What the host refused, and other notes (the CLI prints them).
    pub log: Vec<String>,
    /// Who the match waits for, as the host last said ("waiting for Bob").
    pub waiting_for: String,
    /// The welcome could not be played (a bad level, a command the rules refused).
    pub failed: Option<String>,
    /// The host's address (a lost connection is made again to it).
    pub addr: Option<SocketAddr>,
    /// Connected once (a client that never was does not retry: the address is wrong).
    pub ever_connected: bool,
    /// The connection was lost at this moment (retried every `RECONNECT_EVERY`).
    lost: Option<Instant>,
    /// Every command of the host's log this client has: the welcome's, then each `Played`.
    host_log: Vec<doo_rules::rules::Command>,
    /// How many of `host_log` went into this match (the rest go in as the match can take them).
    fed: usize,
    /// The welcome's match: rebuilt here (headless), or by the window's join screen, which
    /// sets `started` (then `feed_host_commands` plays the log).
    pub welcome: Option<Box<Welcomed>>,
    pub started: bool,
    /// A window plays this client (its join screen starts the welcome's match on the board).
    pub window: bool,
    /// The command sent and not yet played by the host: (the log's length then, the command).
    /// A host restarted from its autosave may not have it: it is sent again.
    in_flight: Option<(usize, doo_rules::rules::Command)>,
    /// The window's player's command, to send when the match is ready for it.
    pending_own: Option<doo_rules::rules::Command>,
    /// When the command in flight was sent, and the round trips so far in microseconds (from
    /// a command sent to the host's `Played` of it; the network bench reads them).
    sent_when: Option<Instant>,
    pub rtt_us: Vec<u64>,
    /// When this client was made (a connection that never came is told after a while).
    pub created: Instant,
    /// When its AI last sent a command (at most one every `AI_PACE`).
    ai_sent: Option<Instant>,
    /// The match (its `MatchState`'s last change) in which none of this client's seats decides:
    /// its AI has nothing to do until the match changes (issue 44: it is not asked every frame).
    ai_idle: Option<bevy::ecs::change_detection::Tick>,
}

/// Round trips kept (the first ones: a bench's match has far fewer).
const MAX_RTT_SAMPLES: usize = 100_000;

/// The match a welcome describes, checked and built, for whoever starts it.
#[derive(Debug, Clone)]
pub struct Welcomed {
    pub level_name: String,
    pub checked: doo_rules::level_file::CheckedLevel,
    pub m: doo_rules::rules::state::Match,
    pub seed: u64,
    pub header: doo_rules::save::Save,
    pub seats: Vec<super::protocol::Seat>,
}

impl NetClient {
    pub fn new(name: String, data: Arc<RuleData>, ai: Option<doo_rules::ai::Difficulty>) -> Self {
        NetClient {
            name,
            data,
            ai,
            hello_sent: false,
            welcomed: false,
            yours: Vec::new(),
            seed: 0,
            behaviours: Default::default(),
            received: 0,
            sent_at: None,
            host_checks: Vec::new(),
            compared: 0,
            matched: 0,
            desyncs: Vec::new(),
            log: Vec::new(),
            waiting_for: String::new(),
            failed: None,
            addr: None,
            ever_connected: false,
            lost: None,
            host_log: Vec::new(),
            fed: 0,
            welcome: None,
            started: false,
            window: false,
            in_flight: None,
            pending_own: None,
            sent_when: None,
            rtt_us: Vec::new(),
            created: Instant::now(),
            ai_sent: None,
            ai_idle: None,
        }
    }

    /// The welcome's match, for the window to start: the host's log so far goes in with it
    /// (as a save replayed), the rest through `feed_host_commands` once `started`.
    pub fn take_welcome(&mut self) -> Option<Box<Welcomed>> {
        let w = self.welcome.take()?;
        self.fed = self.host_log.len();
        Some(w)
    }

    /// The host waits for this client's player.
    pub fn waiting_for_me(&self) -> bool {
        self.waiting_for == self.name
    }

    /// The commands of the host's log (the match as the host played it so far).
    pub fn host_log(&self) -> &[doo_rules::rules::Command] {
        &self.host_log
    }

    /// Whether this client's AI may send a command now, in a match of `commands` commands last
    /// changed at `changed` (settled, not over): every host command played here, none in
    /// flight, its pace kept, and not known that none of its seats decides. The network bench
    /// updates an app with nothing to read only for this (`bench::Wake`).
    pub fn ai_may_play(&self, commands: usize, changed: bevy::ecs::change_detection::Tick) -> bool {
        self.ai.is_some()
            && self.started
            && commands >= self.received
            && self.sent_at != Some(commands)
            && self.in_flight.is_none()
            && self.ai_sent.is_none_or(|t| t.elapsed() >= AI_PACE)
            && self.ai_idle != Some(changed)
    }

    /// A command of this client's seats was sent: it waits for the host's answer.
    fn sent(&mut self, at: usize, command: doo_rules::rules::Command) {
        self.sent_at = Some(at);
        self.in_flight = Some((at, command));
        self.sent_when = Some(Instant::now());
    }
}

impl NetClient {
    /// Connecting again (the host restarted): everything comes anew with the next welcome.
    pub fn reset(&mut self) {
        let fresh = NetClient::new(std::mem::take(&mut self.name), self.data.clone(), self.ai);
        let log = std::mem::take(&mut self.log);
        let desyncs = std::mem::take(&mut self.desyncs);
        let in_flight = self.in_flight.take();
        *self = NetClient {
            log,
            desyncs,
            in_flight,
            addr: self.addr,
            ever_connected: self.ever_connected,
            lost: self.lost,
            window: self.window,
            ai_sent: self.ai_sent,
            ..fresh
        };
    }
}

/// Connects to the host at `addr` as a new client.
pub fn join(world: &mut World, addr: SocketAddr, client: NetClient) -> Result<(), String> {
    super::transport::connect(world, addr, super::transport::fresh_id())?;
    world.insert_resource(NetClient { addr: Some(addr), ..client });
    Ok(())
}

/// Leaves the host (the window's player left the match).
pub fn leave(world: &mut World) {
    super::transport::hang_up(world);
    world.remove_resource::<NetClient>();
}

/// The connection kept: a host that stopped answering is hung up on; a lost connection is made
/// again every `RECONNECT_EVERY` (a host restarted from its autosave welcomes the client back
/// with the whole match, rebuilt here).
fn keep_connected(world: &mut World) {
    let state = *world.resource::<State<ClientState>>().get();
    let silent = super::transport::host_silence(world).is_some_and(|d| d > HOST_SILENT);
    let mut c = world.resource_mut::<NetClient>();
    let Some(addr) = c.addr else { return };
    match state {
        ClientState::Connected if !silent => {
            c.lost = None;
            c.ever_connected = true;
        }
        ClientState::Connected => {
            if c.lost.is_none() {
                c.lost = Some(Instant::now());
                c.log.push("the host stopped answering".into());
            }
            super::transport::hang_up(world);
        }
        ClientState::Disconnected if c.ever_connected => {
            let since = *c.lost.get_or_insert_with(Instant::now);
            if since.elapsed() > RECONNECT_EVERY {
                c.lost = Some(Instant::now());
                c.reset();
                c.log.push("the host is gone: connecting again".into());
                if let Err(e) = super::transport::connect(world, addr, super::transport::fresh_id()) {
                    world.resource_mut::<NetClient>().log.push(e);
                }
            }
        }
        _ => {}
    }
}

fn say_hello(mut client: ResMut<NetClient>, state: Res<State<ClientState>>, mut out: MessageWriter<ClientMsg>) {
    if *state.get() == ClientState::Connected && !client.hello_sent {
        client.hello_sent = true;
        out.write(ClientMsg::Hello { name: client.name.clone(), version: VERSION });
    }
}

fn read_host_messages(mut from: MessageReader<HostMsg>, mut client: ResMut<NetClient>) {
    for msg in from.read() {
        match msg {
            HostMsg::Welcome { level_name, level_text, profile, turn_limit, seed, seats, yours, commands: log } => {
                // Welcomed again on the same connection: the host's next match (a campaign's
                // next level); nothing of this one is in flight any more.
                // A save holds at most `caps::COMMANDS` commands; a longer log is refused before
                // any of it is replayed.
                if log.len() > doo_rules::save::caps::COMMANDS {
                    client.failed = Some(format!("the host's log has {} commands (at most {})", log.len(), doo_rules::save::caps::COMMANDS));
                    continue;
                }
                if client.welcomed {
                    client.in_flight = None;
                    client.sent_at = None;
                    client.pending_own = None;
                    client.waiting_for.clear();
                }
                // A command sent past the end of the host's log (a host restarted from an
                // older save) is not this match's any more.
                if client.in_flight.as_ref().is_some_and(|(at, _)| *at > log.len()) {
                    client.in_flight = None;
                }
                client.host_checks.clear();
                client.compared = 0;
                client.matched = 0;
                let data = client.data.clone();
                match build(&data, level_name, level_text, profile.as_deref(), *turn_limit, *seed, seats) {
                    Ok((welcomed, behaviours)) => {
                        client.seed = *seed;
                        client.behaviours = behaviours;
                        client.welcome = Some(Box::new(welcomed));
                        client.started = false;
                        client.welcomed = true;
                        client.yours = yours.clone();
                        client.host_log = log.iter().map(|c| c.0.clone()).collect();
                        client.received = log.len();
                        client.fed = 0;
                    }
                    Err(e) => {
                        // Nothing of the match before goes on (its log, its feeding).
                        client.failed = Some(e);
                        client.welcomed = false;
                        client.started = false;
                        client.welcome = None;
                        client.host_log.clear();
                        client.received = 0;
                        client.fed = 0;
                    }
                }
            }
            HostMsg::Closed(why) => {
                // For good: no reconnection (another connection plays this name now, or the
                // hello was refused).
                client.log.push(format!("the host closed the connection: {why}"));
                client.failed = Some(format!("the host closed the connection: {why}"));
                client.addr = None;
            }
            HostMsg::Played { index, command } => {
                if !client.welcomed || *index as usize != client.received {
                    continue;
                }
                if client.received >= doo_rules::save::caps::COMMANDS {
                    client.failed = Some(format!("the host's match passed {} commands, the most a save holds", doo_rules::save::caps::COMMANDS));
                    continue;
                }
                client.received += 1;
                client.host_log.push(command.0.clone());
            }
            HostMsg::Check(cp) => client.host_checks.push(cp.clone()),
            HostMsg::Refused(why) => {
                client.log.push(format!("the host refused: {why}"));
                client.sent_at = None;
                client.in_flight = None;
            }
            HostMsg::Waiting(who) => client.waiting_for = who.clone(),
        }
    }
}

/// Without a window: the welcome's match started here, the log so far replayed into it through
/// the one command path (the window's join screen starts it on the board instead).
fn start_welcomed_match(world: &mut World) {
    let mut c = world.resource_mut::<NetClient>();
    if c.started || c.window {
        return;
    }
    let Some(w) = c.welcome.take() else { return };
    c.started = true;
    world.insert_resource(MatchRecord::new(w.header));
    crate::game::setup::start_match(world, w.m, doo_rules::rules::Dice::seeded(w.seed), false);
}

/// The host's commands not yet in this match go in, in order, once it is started.
fn feed_host_commands(mut client: ResMut<NetClient>, state: Option<Res<MatchState>>, mut issue: MessageWriter<IssueCommand>) {
    if !client.started || state.is_none() {
        return;
    }
    let client = &mut *client;
    for c in client.host_log.iter().skip(client.fed) {
        issue.write(IssueCommand(c.clone()));
    }
    client.fed = client.host_log.len();
    // The host played what was in flight (or refused it: it is in the log either way).
    if client.in_flight.as_ref().is_some_and(|(at, _)| client.host_log.len() > *at) {
        client.in_flight = None;
        if let Some(t) = client.sent_when.take() {
            if client.rtt_us.len() < MAX_RTT_SAMPLES {
                client.rtt_us.push(t.elapsed().as_micros() as u64);
            }
        }
    }
}

/// The window's player's command (`CommandRelay`) goes to the host when the match waits with
/// every host command played; the relay is free again once the host played or refused it.
#[allow(clippy::too_many_arguments)]
fn send_own_commands(
    mut client: ResMut<NetClient>,
    status: Res<FlowStatus>,
    queue: Res<CommandQueue>,
    checked: Res<CheckedCommand>,
    record: Option<Res<MatchRecord>>,
    relay: Option<ResMut<crate::game::intent::CommandRelay>>,
    mut out: MessageWriter<ClientMsg>,
) {
    let Some(record) = record else { return };
    let n = record.commands.len();
    if let Some(mut relay) = relay {
        if relay.busy && relay.outbox.is_none() && client.pending_own.is_none() && client.in_flight.is_none() && client.sent_at.is_none_or(|at| n > at) {
            relay.busy = false;
        }
        if let Some(cmd) = relay.outbox.take() {
            client.pending_own = Some(cmd);
        }
    }
    if !client.started || !crate::game::record::settled(&status, &queue, &checked) || n < client.received {
        return;
    }
    // Sent before the host went down and not in the log it came back with: sent again.
    if let Some((at, cmd)) = client.in_flight.clone() {
        if at == n && client.sent_at != Some(n) {
            client.sent_at = Some(n);
            out.write(ClientMsg::Play(super::protocol::WireCommand(cmd)));
        }
        return;
    }
    if client.sent_at == Some(n) {
        return;
    }
    let Some(cmd) = client.pending_own.take() else { return };
    client.sent(n, cmd.clone());
    out.write(ClientMsg::Play(super::protocol::WireCommand(cmd)));
}

/// The match the host's welcome describes: its level checked as any level file, built, seeded;
/// the save header this client records under; the level's AI behaviours.
type Built = (Welcomed, std::collections::BTreeMap<String, String>);

fn build(
    data: &RuleData,
    name: &str,
    text: &str,
    profile: Option<&str>,
    turn_limit: Option<u32>,
    seed: u64,
    seats: &[super::protocol::Seat],
) -> Result<Built, String> {
    let root = std::env::current_dir().unwrap_or_default();
    let file = format!("host's {}", doo_rules::rules::story::clip(name));
    let mut level = doo_rules::level_file::check(&file, text, data, &root)
        .map_err(|e| e.iter().map(|e| format!("{file}:{}:{}: {}", e.line, e.col, e.message)).collect::<Vec<_>>().join("; "))?;
    // The rules the host picked (a profile or A4), when not the file's: only ones known here.
    if let Some(p) = profile {
        if !data.profiles.profiles.contains_key(p) && p != data.a4.name {
            return Err(format!("the host plays under rules '{}', not known here", doo_rules::rules::story::clip(p)));
        }
        level.level.profile = Some(p.to_string());
    }
    // The host's turn limit, when not the file's: the match is a draw at its end here too
    // (it is part of the state the checkpoints hash).
    if turn_limit.is_some() {
        if let Some(p) = doo_rules::level_file::turn_limit_problem(turn_limit) {
            return Err(format!("the host's {p}"));
        }
        level.level.turn_limit = turn_limit;
    }
    let m = level.build(data).map_err(|e| e.join("; "))?;
    let mut header = doo_rules::save::header_of(file, text, &level, seed, seats_of(seats), false);
    header.label = format!("network match: {}", level.level.name);
    let behaviours = level.behaviours.clone();
    Ok((Welcomed { level_name: name.to_string(), checked: level, m, seed, header, seats: seats.to_vec() }, behaviours))
}

fn seats_of(seats: &[super::protocol::Seat]) -> Vec<doo_rules::save::Seat> {
    seats.iter().map(|s| doo_rules::save::Seat { side: s.side.clone(), player: format!("{:?}", s.who), ai: None }).collect()
}

/// The client's own seats, played by its AI: when one of its figures decides, all the host's
/// commands played here and nothing in flight, the AI's command goes to the host.
#[allow(clippy::too_many_arguments)]
fn play_own_seats(
    mut client: ResMut<NetClient>,
    state: Option<Res<MatchState>>,
    status: Res<FlowStatus>,
    queue: Res<CommandQueue>,
    checked: Res<CheckedCommand>,
    record: Option<Res<MatchRecord>>,
    mut plan: Local<doo_rules::ai::PlanCache>,
    mut out: MessageWriter<ClientMsg>,
) {
    let (Some(state), Some(record)) = (state, record) else { return };
    let Some(difficulty) = client.ai else { return };
    // Under the host's flood limit: at most one command every `AI_PACE` (`ai_may_play`).
    if status.over || !crate::game::record::settled(&status, &queue, &checked) || !client.ai_may_play(record.commands.len(), state.last_changed()) {
        return;
    }
    let m = &state.0;
    let per_side = client.yours.iter().map(|s| (s.clone(), difficulty)).collect();
    let sides: Vec<&str> = client.yours.iter().map(String::as_str).collect();
    let cfg = doo_rules::ai::AiConfig::for_level(sides, &client.behaviours, &m.goals, difficulty, &per_side, client.seed, client.data.ai.clone());
    if doo_rules::ai::who_decides(m, &cfg).is_none() {
        client.ai_idle = Some(state.last_changed());
        return;
    }
    let Some(next) = doo_rules::ai::next_command(m, &cfg, &mut plan) else { return };
    client.sent(record.commands.len(), next.command.clone());
    client.ai_sent = Some(Instant::now());
    out.write(ClientMsg::Play(super::protocol::WireCommand(next.command)));
}

/// This match's checkpoints against the host's, each once; each is sent to the host too.
fn compare_checkpoints(mut client: ResMut<NetClient>, record: Option<Res<MatchRecord>>, mut out: MessageWriter<ClientMsg>) {
    let Some(record) = record else { return };
    let client = &mut *client;
    while client.compared < record.checkpoints.len() {
        let mine = &record.checkpoints[client.compared];
        let Some(theirs) = client.host_checks.iter().find(|c| c.commands == mine.commands && c.turn == mine.turn) else { return };
        if theirs.hash == mine.hash {
            client.matched += 1;
            info!("network: checkpoint {} (command {}, turn {}) matches the host's", client.matched, mine.commands, mine.turn);
        } else {
            let d = format!("at command {} (turn {}): {} here, {} on the host", mine.commands, mine.turn, mine.hash, theirs.hash);
            warn!("network: desync {d}");
            client.desyncs.push(d);
        }
        out.write(ClientMsg::Check(mine.clone()));
        client.compared += 1;
    }
}
