//! Putting a match on the board: the `MatchState` and its dice, one entity per figure (with
//! its mirrors), then the rules' driver brings it onto the table (the opening reset, a crawl's
//! first exploration turn, or a mid-phase start) — or a match a replay rebuilt is put back
//! exactly where the replay stopped.

use super::components::{CharacterId, MatchDice, MatchGeneration, MatchState, spawn_figure};
use super::flow::FlowStatus;
use super::log::{EventBuffer, MatchLog, MatchOutcome};
use super::pipeline::{CheckedCommand, CommandQueue};
use bevy::prelude::*;
use doo_rules::replay::{Origin, Replay};
use doo_rules::rules::driver::{self, Start};
use doo_rules::rules::{Dice, Match};
use doo_rules::save::Save;

/// Replaces whatever match is running with `m`. With `mid_phase`, the action phase resumes at
/// the match's clock (script start states); otherwise the opening reset runs (R-TURN-3).
pub fn start_match(world: &mut World, m: Match, dice: Dice, mid_phase: bool) {
    let how = if mid_phase { Start::MidPhase } else { Start::Fresh };
    let mut dice = dice;
    driver::configure_dice(&mut dice, &m);
    // the checkpoints of a recorded match take the state hash of its save's version
    let version = world.get_resource::<super::record::MatchRecord>().and_then(|r| r.header.as_ref().map(|h| h.version));
    let origin = version.map(|version| std::sync::Arc::new(Origin { m: m.clone(), dice: dice.clone(), mid_phase, version }));
    put_on_board(world, m, dice, true);
    if let Some(mut r) = world.get_resource_mut::<super::record::MatchRecord>() {
        r.origin = origin;
    }
    let waiting = world.resource_scope(|world, mut state: Mut<MatchState>| {
        world.resource_scope(|world, mut dice: Mut<MatchDice>| {
            let mut buffer = world.resource_mut::<EventBuffer>();
            driver::start(&mut state.0, &mut dice.0, how, &mut buffer.0)
        })
    });
    world.insert_resource(FlowStatus::from_driver(waiting));
    // The opening events are logged before any command's verdict.
    super::log::publish_now(world);
}

/// The match in the world, with fresh resources around it; `new_board` false: the board and
/// the view stay as they are (the same match rebuilt: undo, the replay viewer).
fn put_on_board(world: &mut World, m: Match, dice: Dice, new_board: bool) {
    let old: Vec<Entity> = world.query_filtered::<Entity, With<CharacterId>>().iter(world).collect();
    for e in old {
        world.despawn(e);
    }
    world.insert_resource(MatchDice(dice));
    world.insert_resource(EventBuffer::default());
    world.insert_resource(MatchLog::default());
    world.insert_resource(MatchOutcome::default());
    world.insert_resource(super::intent::PendingIntents::default());
    world.insert_resource(CommandQueue::default());
    world.insert_resource(CheckedCommand::default());
    world.insert_resource(FlowStatus::default());
    // A new match records anew (same header: the caller replaces it for another level).
    if let Some(mut r) = world.get_resource_mut::<super::record::MatchRecord>() {
        let header = r.header.take();
        *r = header.map(super::record::MatchRecord::new).unwrap_or_default();
    }
    let mut commands = world.commands();
    for (i, f) in m.fighters.iter().enumerate() {
        spawn_figure(&mut commands, f, i);
    }
    world.flush();
    world.insert_resource(MatchState(m));
    if new_board {
        world.get_resource_or_init::<MatchGeneration>().0 += 1;
    }
}

/// A match rebuilt elsewhere (a replay in plain Rust, a frame of the replay viewer), handed to
/// the world that goes on playing or showing it: its state, dice, log and record, and whether
/// it is over.
pub struct Restored {
    pub m: Match,
    pub dice: Dice,
    pub log: MatchLog,
    pub outcome: MatchOutcome,
    pub over: bool,
    pub next_index: usize,
    pub record: super::record::MatchRecord,
    /// The same match as the one running (undo, the replay viewer): the board and the view stay.
    pub same_board: bool,
}

/// Replaces whatever match is running with a restored one, waiting for the next command exactly
/// where the replay stopped (or over, as it ended): nothing is rolled, no flow runs.
pub fn restore_match(world: &mut World, r: Restored) {
    put_on_board(world, r.m, r.dice, !r.same_board);
    world.insert_resource(r.log);
    world.insert_resource(r.outcome);
    world.insert_resource(r.record);
    world.resource_mut::<CommandQueue>().next_index = r.next_index;
    world.insert_resource(FlowStatus::from_driver(!r.over));
}

/// Moves a replayed match into `world`, which goes on playing it from where the save stopped,
/// recorded under `save`'s header from `origin`, with the AI's plan as it was. `same_board`:
/// the match replaces itself (undo), so the board and the camera stay.
pub fn restore_replay(world: &mut World, origin: std::sync::Arc<Origin>, r: Replay, save: &Save, same_board: bool) {
    let mut record = super::record::MatchRecord::new(save.clone());
    record.commands = r.commands().cloned().collect();
    record.checkpoints = r.checkpoints;
    record.origin = Some(origin);
    let restored = Restored {
        log: MatchLog::of_replay(&r.log),
        outcome: MatchOutcome(r.outcome),
        over: r.over,
        next_index: record.commands.len(),
        m: r.m,
        dice: r.dice,
        record,
        same_board,
    };
    restore_match(world, restored);
    if let (Some(p), Some(mut ai)) = (&save.ai_plan, world.get_resource_mut::<super::ai::AiControl>()) {
        ai.plan = Some((p.actor, p.turn, p.round, p.commands.iter().cloned().collect()));
    }
}
