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
use std::sync::Arc;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            (say_hello, read_host_messages).chain().run_if(resource_exists::<NetClient>).in_set(MatchSystems::Command),
            (play_own_seats, compare_checkpoints).run_if(resource_exists::<NetClient>).after(MatchSystems::Present),
        ),
    );
}

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
        }
    }
}

impl NetClient {
    /// Connecting again (the host restarted): everything comes anew with the next welcome.
    pub fn reset(&mut self) {
        let fresh = NetClient::new(std::mem::take(&mut self.name), self.data.clone(), self.ai);
        let log = std::mem::take(&mut self.log);
        let desyncs = std::mem::take(&mut self.desyncs);
        *self = NetClient { log, desyncs, ..fresh };
    }
}

fn say_hello(mut client: ResMut<NetClient>, state: Res<State<ClientState>>, mut out: MessageWriter<ClientMsg>) {
    if *state.get() == ClientState::Connected && !client.hello_sent {
        client.hello_sent = true;
        out.write(ClientMsg::Hello { name: client.name.clone(), version: VERSION });
    }
}

fn read_host_messages(mut from: MessageReader<HostMsg>, mut client: ResMut<NetClient>, mut issue: MessageWriter<IssueCommand>, mut commands: Commands) {
    for msg in from.read() {
        match msg {
            HostMsg::Welcome { level_name, level_text, seed, seats, yours, commands: log } => {
                if client.welcomed {
                    continue;
                }
                client.host_checks.clear();
                client.compared = 0;
                let data = client.data.clone();
                match build(&data, level_name, level_text, *seed, seats) {
                    Ok((m, dice, header, behaviours)) => {
                        client.seed = *seed;
                        client.behaviours = behaviours;
                        // The commands so far go in once the match is started (starting it
                        // empties the command queue).
                        let replay: Vec<_> = log.iter().map(|c| c.0.clone()).collect();
                        commands.queue(move |world: &mut World| {
                            world.insert_resource(MatchRecord::new(header));
                            crate::game::setup::start_match(world, m, dice, false);
                            for c in replay {
                                world.write_message(IssueCommand(c));
                            }
                        });
                        client.welcomed = true;
                        client.yours = yours.clone();
                        client.received = log.len();
                    }
                    Err(e) => client.failed = Some(e),
                }
            }
            HostMsg::Played { index, command } => {
                if !client.welcomed || (*index as usize) < client.received {
                    continue;
                }
                client.received += 1;
                issue.write(IssueCommand(command.0.clone()));
            }
            HostMsg::Check(cp) => client.host_checks.push(cp.clone()),
            HostMsg::Refused(why) => {
                client.log.push(format!("the host refused: {why}"));
                client.sent_at = None;
            }
            HostMsg::Waiting(who) => client.waiting_for = who.clone(),
        }
    }
}

/// The match the host's welcome describes: its level checked as any level file, built, seeded;
/// the save header this client records under.
type Built = (doo_rules::rules::state::Match, doo_rules::rules::Dice, doo_rules::save::Save, std::collections::BTreeMap<String, String>);

fn build(data: &RuleData, name: &str, text: &str, seed: u64, seats: &[super::protocol::Seat]) -> Result<Built, String> {
    let root = std::env::current_dir().unwrap_or_default();
    let file = format!("host's {}", doo_rules::rules::story::clip(name));
    let level = doo_rules::level_file::check(&file, text, data, &root)
        .map_err(|e| e.iter().map(|e| format!("{file}:{}:{}: {}", e.line, e.col, e.message)).collect::<Vec<_>>().join("; "))?;
    let m = level.build(data).map_err(|e| e.join("; "))?;
    let seats = seats.iter().map(|s| doo_rules::save::Seat { side: s.side.clone(), player: format!("{:?}", s.who), ai: None }).collect();
    let mut header = doo_rules::save::header_of(file, text, &level, seed, seats, false);
    header.label = format!("network match: {}", level.level.name);
    Ok((m, doo_rules::rules::Dice::seeded(seed), header, level.behaviours.clone()))
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
    mut last: Local<Option<std::time::Instant>>,
    mut out: MessageWriter<ClientMsg>,
) {
    let (Some(state), Some(record)) = (state, record) else { return };
    let Some(difficulty) = client.ai else { return };
    if !client.welcomed || status.over || !crate::game::record::settled(&status, &queue, &checked) || record.commands.len() < client.received {
        return;
    }
    if client.sent_at == Some(record.commands.len()) {
        return;
    }
    // Under the host's flood limit: at most one command every `AI_PACE`.
    if last.is_some_and(|t: std::time::Instant| t.elapsed() < AI_PACE) {
        return;
    }
    let m = &state.0;
    let per_side = client.yours.iter().map(|s| (s.clone(), difficulty)).collect();
    let sides: Vec<&str> = client.yours.iter().map(String::as_str).collect();
    let cfg = doo_rules::ai::AiConfig::for_level(sides, &client.behaviours, &m.goals, difficulty, &per_side, client.seed, client.data.ai.clone());
    if doo_rules::ai::who_decides(m, &cfg).is_none() {
        return;
    }
    let Some(next) = doo_rules::ai::next_command(m, &cfg, &mut plan) else { return };
    client.sent_at = Some(record.commands.len());
    *last = Some(std::time::Instant::now());
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
        } else {
            client.desyncs.push(format!("at command {} (turn {}): {} here, {} on the host", mine.commands, mine.turn, mine.hash, theirs.hash));
        }
        out.write(ClientMsg::Check(mine.clone()));
        client.compared += 1;
    }
}
