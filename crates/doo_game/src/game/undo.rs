//! Undo: the last command of the opportunity in progress taken back, when the rules
//! (`rules::undo`) say nothing it did can be told apart from never having issued it (no dice,
//! nothing revealed, no attack, the same opportunity). The match is rebuilt by replaying the
//! commands before it from the match as it was built, in plain Rust (`doo_rules::replay`), so
//! the record, the autosave and any replay are exactly those of a match in which the command
//! was never issued.

use super::MatchSystems;
use super::components::MatchState;
use super::flow::FlowStatus;
use super::intent::PlayerView;
use super::log::MatchLog;
use super::pipeline::{CheckedCommand, CommandQueue};
use super::record::{MatchRecord, settled};
use bevy::prelude::*;
use doo_rules::replay::LogEntry;
use doo_rules::rules::Violation;
use doo_rules::rules::undo::{self, Step, Undo};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<UndoLast>()
        .add_systems(Update, take_back_command.in_set(MatchSystems::Command).before(super::intent::handle_intents))
        .add_systems(Update, offer_undo.in_set(MatchSystems::Present).in_set(super::intent::ViewRefreshed).after(super::intent::refresh_player_view));
}

/// After the view is worked out: what Undo would take back, for the one who decides now (not
/// while a reaction is asked).
fn offer_undo(
    mut view: ResMut<PlayerView>,
    state: Option<Res<MatchState>>,
    log: Res<MatchLog>,
    record: Res<MatchRecord>,
    unwatched: Option<Res<super::intent::Unwatched>>,
    ai: Option<Res<super::ai::AiControl>>,
) {
    if unwatched.is_some() || !view.is_changed() {
        return;
    }
    let offer = match &state {
        Some(_) if view.decider.is_some() && networked(ai.as_deref()) => Some(Err(network_undo())),
        Some(state) if view.decider.is_some() && view.reactions.is_none() => Some(offer(state, &log, &record)),
        _ => None,
    };
    if view.undo != offer {
        view.undo = offer;
    }
}

/// Some side is played on another computer (a network match).
fn networked(ai: Option<&super::ai::AiControl>) -> bool {
    ai.is_some_and(|a| !a.remote.is_empty())
}

fn network_undo() -> Violation {
    Violation::new("UNDO-7", "A network match cannot take commands back: every player's computer has already played them.")
}

/// Asks for the last command to be taken back (the Undo button, Ctrl+Z).
#[derive(Message, Debug, Clone, Copy, Default)]
pub struct UndoLast;

/// The commands at the end of the log, back to the last accepted one, each with the events it
/// caused and its place among the match's commands.
pub fn tail_steps(log: &MatchLog) -> Vec<Step> {
    let entries = log.entries();
    let mut place = entries.iter().filter(|e| matches!(e, LogEntry::Verdict { .. })).count();
    let mut steps = Vec::new();
    let mut events = Vec::new();
    for e in entries.iter().rev() {
        match e {
            LogEntry::Event { event, .. } => events.push(event.clone()),
            LogEntry::Verdict { command, result, .. } => {
                place -= 1;
                events.reverse();
                steps.push(Step { index: place, command: command.clone(), accepted: result.is_ok(), events: std::mem::take(&mut events) });
                if result.is_ok() {
                    break;
                }
            }
        }
    }
    steps.reverse();
    steps
}

/// What Undo would take back now, or why nothing can be.
pub fn offer(state: &MatchState, log: &MatchLog, record: &MatchRecord) -> Result<Undo, Violation> {
    if record.header.is_none() || record.origin.is_none() {
        return Err(Violation::new("UNDO-6", "This match is not recorded, so nothing can be taken back."));
    }
    undo::last_undo(&tail_steps(log), &state.0)
}

/// Takes the last command back: the match is replayed without it and replaces the running one.
pub fn take_back(world: &mut World) -> Result<Undo, Violation> {
    let busy = !settled(world.resource::<FlowStatus>(), world.resource::<CommandQueue>(), world.resource::<CheckedCommand>());
    if busy {
        return Err(Violation::new("UNDO-1", "The rules are still settling the last command; try again in a moment."));
    }
    let Some(state) = world.get_resource::<MatchState>() else { return Err(Violation::new("INPUT", "No match is running.")) };
    // Hot-seat and against the AI: only the human whose opportunity it is takes back.
    let ai = world.get_resource::<super::ai::AiControl>();
    if networked(ai) {
        return Err(network_undo());
    }
    if let Some(c) = state.clock.current.filter(|_| super::intent::human_decider(&state.0, ai).is_none()) {
        let who = &state.fighters[c].name;
        return Err(Violation::new("UNDO-1", format!("It is {who}'s opportunity, played by the AI: only a player takes back their own commands.")));
    }
    let record = world.resource::<MatchRecord>();
    let u = offer(state, world.resource::<MatchLog>(), record)?;
    let origin = record.origin.clone().expect("offer checked the origin");
    let mut save = record.to_save(state.clock.turn, None).expect("offer checked the header");
    save.commands.truncate(u.keep);
    save.checkpoints.clear();
    let r =
        doo_rules::replay::run_catching(&origin, &save.commands).map_err(|(_, e)| Violation::new("UNDO-6", format!("The match could not be rebuilt: {e}")))?;
    super::setup::restore_replay(world, origin, r, &save, true);
    Ok(u)
}

/// The Undo button and Ctrl+Z: a refusal shows like any other.
fn take_back_command(world: &mut World) {
    let asked = world.resource_mut::<Messages<UndoLast>>().drain().count() > 0;
    if !asked {
        return;
    }
    let result = take_back(world);
    let mut view = world.resource_mut::<PlayerView>();
    view.dirty = true;
    match result {
        Ok(u) => {
            view.feedback = None;
            view.notice = Some(undone_text(&u));
        }
        Err(v) => view.feedback = Some(v),
    }
}

/// "Taken back: Dara: Step to (1, 0) (1 AP back)".
pub fn undone_text(u: &Undo) -> String {
    format!("Taken back: {}{}", u.label, gives_back(u))
}

/// " (1 AP and 2 free steps back)", or nothing.
pub fn gives_back(u: &Undo) -> String {
    let mut parts = Vec::new();
    if u.ap_back > 0 {
        parts.push(format!("{} AP", u.ap_back));
    }
    if u.free_steps_back > 0 {
        parts.push(format!("{} free step{}", u.free_steps_back, if u.free_steps_back == 1 { "" } else { "s" }));
    }
    if parts.is_empty() { String::new() } else { format!(" ({} back)", parts.join(" and ")) }
}
