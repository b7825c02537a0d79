//! The one command path: every `Command` (mouse, AI, script) is queued, then each step of the
//! rules' driver runs in its set — stale windows closed (Command), the command checked
//! (Validate), applied and the flow moved on (Apply) — and its verdict published (Present).
//! Rejected commands change nothing. The driver is the same code every replay runs.

use super::MatchSystems;
use super::components::{MatchDice, MatchState};
use super::flow::{FlowStatus, awaiting_command, match_on};
use super::log::{EventBuffer, MatchLog};
use bevy::prelude::*;
use doo_rules::rules::driver;
use doo_rules::rules::engine::Plan;
use doo_rules::rules::{Command, Violation};
use std::collections::VecDeque;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<IssueCommand>()
        .add_message::<CommandResolved>()
        .init_resource::<CommandQueue>()
        .init_resource::<CheckedCommand>()
        .configure_sets(Update, (MatchSystems::Validate.run_if(match_on), MatchSystems::Apply.run_if(match_on)))
        .add_systems(Update, (queue_issued_commands, close_stale_windows.run_if(awaiting_command)).chain().in_set(MatchSystems::Command))
        .add_systems(Update, validate_next_command.in_set(MatchSystems::Validate))
        .add_systems(Update, apply_checked_command.in_set(MatchSystems::Apply).before(super::components::spawn_arrivals))
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

pub fn queue_issued_commands(mut issued: MessageReader<IssueCommand>, mut q: ResMut<CommandQueue>) {
    for IssueCommand(c) in issued.read() {
        let i = q.next_index;
        q.next_index += 1;
        q.queue.push_back((i, c.clone()));
    }
}

/// Before the next command is checked: `driver::close_stale`.
pub(super) fn close_stale_windows(
    q: Res<CommandQueue>,
    state: Option<ResMut<MatchState>>,
    mut dice: ResMut<MatchDice>,
    mut log: ResMut<MatchLog>,
    mut buffer: ResMut<EventBuffer>,
    mut status: ResMut<FlowStatus>,
) {
    let Some((i, cmd)) = q.queue.front() else { return };
    let Some(mut state) = state else { return };
    log.index = Some(*i);
    // Change detection fires only when something closed (or wrote an event): no copy of the match.
    let before = buffer.0.len();
    let moved = driver::close_stale(&mut state.bypass_change_detection().0, &mut dice.0, cmd, &mut buffer.0);
    if moved.is_some() || buffer.0.len() != before {
        state.set_changed();
    }
    if let Some(waiting) = moved {
        *status = FlowStatus::from_driver(waiting);
    }
}

/// `driver::validate` on the next queued command (after the crisis is over commands are still
/// answered, refused, never left queued).
fn validate_next_command(mut q: ResMut<CommandQueue>, status: Res<FlowStatus>, state: Option<Res<MatchState>>, mut checked: ResMut<CheckedCommand>) {
    if checked.current.is_some() {
        return;
    }
    let Some((i, cmd)) = q.queue.pop_front() else { return };
    let result = match &state {
        Some(state) => driver::validate(&state.0, status.over, &cmd),
        None => Err(Violation::new("INPUT", "No match is running.")),
    };
    checked.current = Some((i, cmd, result));
}

/// `driver::apply` on the checked command: the rules apply it and run the flow on to the next
/// decision (resets, rounds, the end of the crisis).
pub(super) fn apply_checked_command(
    mut checked: ResMut<CheckedCommand>,
    state: Option<ResMut<MatchState>>,
    mut dice: ResMut<MatchDice>,
    mut log: ResMut<MatchLog>,
    mut buffer: ResMut<EventBuffer>,
    mut status: ResMut<FlowStatus>,
) {
    let Some((i, cmd, result)) = checked.current.take() else { return };
    log.index = Some(i);
    let verdict = match result {
        Ok(plan) => {
            if let Some(mut state) = state {
                let waiting = driver::apply(&mut state.0, &mut dice.0, plan, &mut buffer.0);
                *status = FlowStatus::from_driver(waiting);
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
