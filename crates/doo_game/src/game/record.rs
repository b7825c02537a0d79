//! The match's record, for saves and replays: every command that got a verdict, in order, and
//! a state hash at the start of every turn and at the end (checkpoints). With an `Autosave`
//! the record is written after every command, atomically, as soon as the match waits again.
//! The same systems run in the window, in `simulate` and in replays.

use super::ai::AiControl;
use super::components::{MatchDice, MatchState};
use super::flow::FlowStatus;
use super::pipeline::{CheckedCommand, CommandQueue, CommandResolved};
use bevy::prelude::*;
use doo_rules::rules::Command;
use doo_rules::save::{AiPlan, Checkpoint, Save};
use std::path::PathBuf;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MatchRecord>()
        .add_systems(Update, record_commands.in_set(super::MatchSystems::Present).after(super::log::publish_events))
        .add_systems(
            Update,
            checkpoint_turn.in_set(super::MatchSystems::Command).after(super::pipeline::queue_issued_commands).before(super::pipeline::close_stale_windows),
        )
        .add_systems(Last, (checkpoint_end, write_autosave).chain());
}

/// What makes the match: the save's header (level, seed, seats…), the commands so far and the
/// checkpoints. `header` is `None` for matches that are not recorded (scripts, tests).
#[derive(Resource, Debug, Clone, Default)]
pub struct MatchRecord {
    pub header: Option<Save>,
    pub commands: Vec<Command>,
    pub checkpoints: Vec<Checkpoint>,
    /// The match as it was built, before its first command (undo and the replay viewer
    /// rebuild from it). Set when the match starts.
    pub origin: Option<std::sync::Arc<doo_rules::replay::Origin>>,
    /// Commands written by the last autosave.
    written: Option<usize>,
}

impl MatchRecord {
    /// Commands the last autosave holds (`None`: none written yet).
    pub fn written(&self) -> Option<usize> {
        self.written
    }

    /// A fresh record for a match described by `header` (its commands and checkpoints are
    /// ignored: the record fills them as the match is played).
    pub fn new(header: Save) -> Self {
        Self { header: Some(Save { commands: Vec::new(), checkpoints: Vec::new(), ai_plan: None, ..header }), ..default() }
    }

    /// The save as it stands (`None` when the match is not recorded).
    pub fn to_save(&self, turn: u32, plan: Option<AiPlan>) -> Option<Save> {
        let h = self.header.as_ref()?;
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        Some(Save { commands: self.commands.clone(), checkpoints: self.checkpoints.clone(), ai_plan: plan, saved_unix: now, turn, ..h.clone() })
    }
}

/// Write the record here after every command (the window's autosave; `simulate --autosave`).
#[derive(Resource, Debug, Clone)]
pub struct Autosave {
    pub path: PathBuf,
    /// Writes that failed (the disk is full, the folder is gone): shown, never fatal.
    pub last_error: Option<String>,
}

impl Autosave {
    pub fn to(path: PathBuf) -> Self {
        Self { path, last_error: None }
    }
}

fn record_commands(mut resolved: MessageReader<CommandResolved>, mut record: ResMut<MatchRecord>) {
    for r in resolved.read() {
        if record.header.is_some() {
            record.commands.push(r.command.clone());
        }
    }
}

/// True when the match waits for a command (or is over) with nothing in flight: the state then
/// is the same whichever way the commands were sent (frame by frame, or a replay).
pub fn settled(status: &FlowStatus, queue: &CommandQueue, checked: &CheckedCommand) -> bool {
    (status.awaiting || status.over) && queue.queue.is_empty() && checked.current.is_none() && checked.verdict.is_none()
}

/// What the checkpoint systems read: the match, its dice, where the flow stands, the record.
#[derive(bevy::ecs::system::SystemParam)]
struct CheckpointParams<'w> {
    state: Option<Res<'w, MatchState>>,
    dice: Option<Res<'w, MatchDice>>,
    status: Res<'w, FlowStatus>,
    queue: Res<'w, CommandQueue>,
    checked: Res<'w, CheckedCommand>,
    record: ResMut<'w, MatchRecord>,
}

impl CheckpointParams<'_> {
    /// Pushes the checkpoint `make` says is due (`doo_rules::replay`'s rules), when `due`.
    /// The hash is that of the save's version (`doo_rules::save::state_hash_of`).
    fn push(&mut self, due: bool, make: impl Fn(u32, &[Checkpoint], usize, &doo_rules::rules::state::Match, &doo_rules::rules::Dice) -> Option<Checkpoint>) {
        let (Some(state), Some(dice)) = (&self.state, &self.dice) else { return };
        let Some(version) = self.record.header.as_ref().map(|h| h.version) else { return };
        if !due {
            return;
        }
        let n = self.record.commands.len();
        if let Some(c) = make(version, &self.record.checkpoints, n, &state.0, &dice.0) {
            self.record.checkpoints.push(c);
        }
    }
}

/// A checkpoint when the first command of a turn is about to be played (the state then is the
/// same however the commands came: frame by frame from the AI, or all at once in a replay).
fn checkpoint_turn(mut p: CheckpointParams) {
    let due = !p.queue.queue.is_empty() && p.status.awaiting && p.checked.current.is_none();
    p.push(due, doo_rules::replay::turn_checkpoint);
}

/// The last checkpoint, when the match is over (hash `end:…`).
fn checkpoint_end(mut p: CheckpointParams) {
    let due = p.status.over && settled(&p.status, &p.queue, &p.checked);
    p.push(due, doo_rules::replay::end_checkpoint);
}

/// Adds the `saved:` checkpoint to a save about to be written (`doo_rules::replay::seal`).
pub fn seal(save: &mut Save, m: &doo_rules::rules::state::Match, dice: &doo_rules::rules::Dice) {
    doo_rules::replay::seal(save, m, dice);
}

/// The AI's plan for the opportunity in progress, as a save keeps it.
pub fn ai_plan(ai: Option<&AiControl>) -> Option<AiPlan> {
    let (actor, turn, round, rest) = ai?.plan.as_ref()?;
    Some(AiPlan { actor: *actor, turn: *turn, round: *round, commands: rest.iter().cloned().collect() })
}

fn write_autosave(
    autosave: Option<ResMut<Autosave>>,
    mut record: ResMut<MatchRecord>,
    state: Option<Res<MatchState>>,
    status: Res<FlowStatus>,
    queue: Res<CommandQueue>,
    checked: Res<CheckedCommand>,
    ai: Option<Res<AiControl>>,
    dice: Option<Res<MatchDice>>,
) {
    let (Some(mut autosave), Some(state), Some(dice)) = (autosave, state, dice) else { return };
    let n = record.commands.len();
    if record.written == Some(n) || !settled(&status, &queue, &checked) {
        return;
    }
    if n > doo_rules::save::caps::COMMANDS {
        // A save past the cap would be refused when loaded: keep the last good one, and say so.
        let msg = format!("this match passed {} commands, the most a save holds: the autosave keeps its last good state", doo_rules::save::caps::COMMANDS);
        if autosave.last_error.as_deref() != Some(&msg) {
            warn!("{msg}");
        }
        autosave.last_error = Some(msg);
        record.written = Some(n);
        return;
    }
    let Some(mut s) = record.to_save(state.clock.turn, ai_plan(ai.as_deref())) else { return };
    seal(&mut s, &state.0, &dice.0);
    match doo_rules::data::write_atomic(&autosave.path, &s.to_text()) {
        Ok(()) => {
            record.written = Some(n);
            autosave.last_error = None;
        }
        Err(e) => {
            let msg = format!("autosave to {} failed: {e}", autosave.path.display());
            if autosave.last_error.as_deref() != Some(&msg) {
                warn!("{msg}");
            }
            autosave.last_error = Some(msg);
            // Tried once for these commands; the next command tries again.
            record.written = Some(n);
        }
    }
}
