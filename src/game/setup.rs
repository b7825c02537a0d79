//! Putting a match on the board: the `MatchState` and its dice, one entity per figure (with
//! its mirrors), then the opening reset (or a mid-phase start).

use super::components::{CharacterId, MatchDice, MatchGeneration, MatchState, spawn_figure};
use super::flow::{CrisisPhase, FlowStatus, NextReset};
use super::log::{EventBuffer, MatchLog, MatchOutcome};
use super::pipeline::{CheckedCommand, CommandQueue};
use crate::rules::Dice;
use crate::rules::state::Match;
use crate::rules::turn::ResetKind;
use bevy::prelude::*;

/// R-DICE-4 / R-DICE-5: the profile's dice options.
pub fn configure_dice(dice: &mut Dice, m: &Match) {
    dice.odd = m.rules.options.odd_dice;
    dice.large = if m.rules.options.large_dice == crate::rules::profile::LargeDice::Table { m.tables.large_dice.clone() } else { Vec::new() };
}

/// Replaces whatever match is running with `m`. With `mid_phase`, the action phase resumes at
/// the match's clock (script start states); otherwise the opening reset runs (R-TURN-3).
pub fn start_match(world: &mut World, m: Match, dice: Dice, mid_phase: bool) {
    start_match_on(world, m, dice, mid_phase, true);
}

/// `start_match`; with `new_board` false the board and the view stay as they are (the same
/// match rebuilt: undo, the replay viewer).
fn start_match_on(world: &mut World, m: Match, dice: Dice, mid_phase: bool, new_board: bool) {
    let old: Vec<Entity> = world.query_filtered::<Entity, With<CharacterId>>().iter(world).collect();
    for e in old {
        world.despawn(e);
    }
    let mut dice = dice;
    configure_dice(&mut dice, &m);
    world.insert_resource(MatchDice(dice.clone()));
    world.insert_resource(EventBuffer::default());
    world.insert_resource(MatchLog::default());
    world.insert_resource(MatchOutcome::default());
    world.insert_resource(super::intent::PendingIntents::default());
    world.insert_resource(CommandQueue::default());
    world.insert_resource(CheckedCommand::default());
    world.insert_resource(NextReset(ResetKind::Opening, false));
    world.insert_resource(FlowStatus { awaiting: false, resume: mid_phase, over: false, restored: false });
    // A new match records anew (same header: the caller replaces it for another level).
    if let Some(mut r) = world.get_resource_mut::<super::record::MatchRecord>() {
        let header = r.header.take();
        *r = header.map(super::record::MatchRecord::new).unwrap_or_default();
        if r.header.is_some() {
            r.origin = Some(std::sync::Arc::new(super::record::Origin { m: m.clone(), dice: dice.clone(), mid_phase }));
        }
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
    let crawl = world.resource::<MatchState>().0.explore.is_some();
    let target = if mid_phase {
        CrisisPhase::Action
    } else if crawl {
        CrisisPhase::Exploring
    } else {
        CrisisPhase::Reset
    };
    // Leave and re-enter so OnEnter runs even when the phase is the same as before.
    world.resource_mut::<NextState<CrisisPhase>>().set(CrisisPhase::Setup);
    world.run_schedule(bevy::state::state::StateTransition);
    world.resource_mut::<NextState<CrisisPhase>>().set(target);
}

/// A match replayed elsewhere (a headless app, from a save), handed to the world that goes on
/// playing it: its state, dice, log and record, and where the flow stood.
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
/// where the replay stopped (or over, as it ended).
pub fn restore_match(world: &mut World, r: Restored) {
    start_match_on(world, r.m, r.dice, false, !r.same_board);
    world.insert_resource(r.log);
    world.insert_resource(r.outcome);
    world.insert_resource(r.record);
    world.resource_mut::<CommandQueue>().next_index = r.next_index;
    world.insert_resource(FlowStatus { awaiting: false, resume: false, over: r.over, restored: !r.over });
    let exploring = world.resource::<MatchState>().0.clock.phase == crate::rules::Phase::Exploration;
    let phase = if r.over {
        CrisisPhase::Over
    } else if exploring {
        CrisisPhase::Exploring
    } else {
        CrisisPhase::Action
    };
    world.resource_mut::<NextState<CrisisPhase>>().set(phase);
}
