//! The one command path: every `Command` (mouse, AI, script) is queued, validated by the
//! rules, applied if legal to the one `MatchState`, and its verdict published. Rejected
//! commands change nothing.

use super::MatchSystems;
use super::components::{MatchDice, MatchState};
use super::flow::{FlowControl, FlowStatus};
use super::log::MatchLog;
use crate::rules::engine::{self, Plan};
use crate::rules::{Command, Violation};
use bevy::prelude::*;
use std::collections::VecDeque;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<IssueCommand>()
        .add_message::<CommandResolved>()
        .init_resource::<CommandQueue>()
        .init_resource::<CheckedCommand>()
        .add_systems(Update, (queue_issued_commands, close_stale_windows).chain().in_set(MatchSystems::Command))
        .add_systems(Update, validate_next_command.in_set(MatchSystems::Validate))
        .add_systems(Update, apply_checked_command.in_set(MatchSystems::Apply))
        .add_systems(Update, publish_verdict.in_set(MatchSystems::Present).before(super::log::publish_events));
}

/// Any source asks for a command to be carried out.
#[derive(Message, Debug, Clone)]
pub struct IssueCommand(pub Command);

/// The verdict on a command, for the UI and tools.
#[derive(Message, Debug, Clone)]
pub struct CommandResolved {
    pub index: usize,
    pub command: Command,
    pub result: Result<(), Violation>,
}

/// Commands waiting their turn, numbered in arrival order.
#[derive(Resource, Debug, Default)]
pub struct CommandQueue {
    pub next_index: usize,
    pub queue: VecDeque<(usize, Command)>,
}

/// The command this frame checks and applies.
#[derive(Resource, Debug, Default)]
pub struct CheckedCommand {
    pub current: Option<(usize, Command, Result<Plan, Violation>)>,
    pub verdict: Option<(usize, Command, Result<(), Violation>)>,
}

pub(super) fn queue_issued_commands(mut issued: MessageReader<IssueCommand>, mut q: ResMut<CommandQueue>) {
    for IssueCommand(c) in issued.read() {
        let i = q.next_index;
        q.next_index += 1;
        q.queue.push_back((i, c.clone()));
    }
}

/// Before the next command is checked: a reaction window it does not answer is declined, and
/// an opportunity in which something was done ends if another character's command arrives.
pub(super) fn close_stale_windows(
    q: Res<CommandQueue>,
    state: Option<ResMut<MatchState>>,
    mut dice: ResMut<MatchDice>,
    mut log: ResMut<MatchLog>,
    mut flow: FlowControl,
) {
    let Some((i, cmd)) = q.queue.front() else { return };
    let Some(mut state) = state else { return };
    if !flow.status.awaiting {
        return;
    }
    log.index = Some(*i);
    // Change detection fires only when something closed (or wrote an event): no copy of the match.
    let before = flow.buffer.0.len();
    let next = engine::close_stale(&mut state.bypass_change_detection().0, cmd, &mut dice.0, &mut flow.buffer.0);
    if next.is_some() || flow.buffer.0.len() != before {
        state.set_changed();
    }
    if let Some(next) = next {
        flow.handle(next, &state.0);
    }
}

fn validate_next_command(mut q: ResMut<CommandQueue>, status: Res<FlowStatus>, state: Option<Res<MatchState>>, mut checked: ResMut<CheckedCommand>) {
    // After the crisis is over commands are still answered (refused by the rules), never left queued.
    if !(status.awaiting || status.over) || checked.current.is_some() {
        return;
    }
    let Some((i, cmd)) = q.queue.pop_front() else { return };
    let result = match &state {
        Some(state) => engine::validate(&state.0, &cmd),
        None => Err(Violation::new("INPUT", "No match is running.")),
    };
    checked.current = Some((i, cmd, result));
}

pub(super) fn apply_checked_command(
    mut checked: ResMut<CheckedCommand>,
    state: Option<ResMut<MatchState>>,
    mut dice: ResMut<MatchDice>,
    mut log: ResMut<MatchLog>,
    mut flow: FlowControl,
) {
    let Some((i, cmd, result)) = checked.current.take() else { return };
    log.index = Some(i);
    let verdict = match result {
        Ok(plan) => {
            if let Some(mut state) = state {
                let next = engine::apply(&mut state.0, plan, &mut dice.0, &mut flow.buffer.0);
                flow.handle(next, &state.0);
            }
            Ok(())
        }
        Err(v) => Err(v),
    };
    checked.verdict = Some((i, cmd, verdict));
}

/// Writes the verdict line before the events it caused.
fn publish_verdict(mut checked: ResMut<CheckedCommand>, mut log: ResMut<MatchLog>, mut out: MessageWriter<CommandResolved>) {
    let Some((index, command, result)) = checked.verdict.take() else { return };
    log.push_verdict(index, command.clone(), result.clone());
    out.write(CommandResolved { index, command, result });
}
