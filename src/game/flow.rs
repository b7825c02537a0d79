//! Crisis phases as Bevy states (R-TURN-3): the reset phase runs its six steps on entering
//! `Reset`; entering `Action` opens round 1; after every Apply the rules settle the flow
//! (`victory::settle`: goals and G-15) and the states follow what they say.

use super::components::{MatchDice, MatchState};
use super::log::EventBuffer;
use crate::rules::state::Match;
use crate::rules::turn::{self, Flow, ResetKind};
use crate::rules::victory;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_state::<CrisisPhase>()
        .add_sub_state::<ActionStage>()
        .init_resource::<NextReset>()
        .init_resource::<FlowStatus>()
        .add_systems(OnEnter(CrisisPhase::Reset), run_reset_phase)
        .add_systems(OnEnter(CrisisPhase::Action), open_action_phase)
        .add_systems(OnEnter(CrisisPhase::Exploring), open_exploration);
}

/// Where the crisis is (R-TURN-3).
#[derive(States, Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum CrisisPhase {
    /// No match yet, or being placed.
    #[default]
    Setup,
    Reset,
    Action,
    Over,
    /// A crawl's Exploration Mode (R-EXP-1): entering it begins the crawl the first time.
    Exploring,
}

/// Inside the action phase: an opportunity is open, or a defender decides on a reaction.
#[derive(SubStates, Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[source(CrisisPhase = CrisisPhase::Action)]
pub enum ActionStage {
    #[default]
    Opportunity,
    ReactionWindow,
}

/// Which reset runs on the next entry to `Reset`; for a closing reset, whether Exploration
/// Mode resumes after it (a crawl's encounter is over, R-EXP-27).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct NextReset(pub ResetKind, pub bool);

impl Default for NextReset {
    fn default() -> Self {
        Self(ResetKind::Opening, false)
    }
}

/// Whether the match waits for a command (input may be taken), whether the next entry to
/// `Action` resumes a given round (scripts that start mid-phase) instead of opening round 1,
/// and whether the crisis is over (`CrisisPhase::Over` entered or about to be).
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct FlowStatus {
    pub awaiting: bool,
    pub resume: bool,
    pub over: bool,
    /// The match was rebuilt from a save: the next entry to `Action` waits for the next command
    /// exactly where the replay stopped (no round opens, nothing is rolled).
    pub restored: bool,
}

/// Everything a system needs to move the crisis on after the rules said what comes next.
#[derive(SystemParam)]
pub struct FlowControl<'w> {
    pub buffer: ResMut<'w, EventBuffer>,
    phase: Res<'w, State<CrisisPhase>>,
    next_phase: ResMut<'w, NextState<CrisisPhase>>,
    next_reset: ResMut<'w, NextReset>,
    next_stage: Option<ResMut<'w, NextState<ActionStage>>>,
    pub status: ResMut<'w, FlowStatus>,
}

impl FlowControl<'_> {
    /// Acts on what the rules say the flow needs next, once they have checked the goals.
    pub fn handle(&mut self, flow: Flow, m: &Match) {
        match victory::settle(m, flow, &mut self.buffer.0) {
            Flow::AwaitCommand => {
                self.status.awaiting = true;
                if let Some(s) = self.next_stage.as_mut() {
                    s.set(if m.pending.as_ref().is_some_and(|p| p.window.is_some()) { ActionStage::ReactionWindow } else { ActionStage::Opportunity });
                }
            }
            Flow::PhaseEnded => {
                self.status.awaiting = false;
                *self.next_reset = NextReset(ResetKind::Normal, false);
                self.next_phase.set(CrisisPhase::Reset);
            }
            Flow::CrisisEnded => {
                // R-TURN-17: the closing reset, then the crisis is over.
                self.status.awaiting = false;
                *self.next_reset = NextReset(ResetKind::Closing, false);
                self.next_phase.set(CrisisPhase::Reset);
            }
            Flow::Exploring => {
                self.status.awaiting = true;
                if *self.phase.get() != CrisisPhase::Exploring {
                    self.next_phase.set(CrisisPhase::Exploring);
                }
            }
            Flow::CrisisStarts => {
                // R-EXP-25: the opening reset of the crawl's crisis.
                self.status.awaiting = false;
                *self.next_reset = NextReset(ResetKind::Opening, false);
                self.next_phase.set(CrisisPhase::Reset);
            }
            Flow::EncounterEnded => {
                // R-TURN-17, R-EXP-27: the closing reset, then exploration again.
                self.status.awaiting = false;
                *self.next_reset = NextReset(ResetKind::Closing, true);
                self.next_phase.set(CrisisPhase::Reset);
            }
            Flow::Over => {
                self.status.awaiting = false;
                self.status.over = true;
                self.next_phase.set(CrisisPhase::Over);
            }
        }
    }
}

fn run_reset_phase(state: Option<ResMut<MatchState>>, mut dice: ResMut<MatchDice>, mut flow: FlowControl) {
    let Some(mut state) = state else { return };
    flow.status.awaiting = false;
    let m = &mut state.0;
    let NextReset(mut kind, then_explore) = *flow.next_reset;
    *flow.next_reset = NextReset(ResetKind::Opening, false);
    loop {
        turn::run_reset(m, &mut dice.0, kind, &mut flow.buffer.0);
        if kind != ResetKind::Closing {
            flow.next_phase.set(CrisisPhase::Action);
            return;
        }
        if !then_explore {
            flow.status.over = true;
            flow.next_phase.set(CrisisPhase::Over);
            return;
        }
        // R-EXP-27: exploration resumes; a hostile in sight at once starts the next crisis.
        let next = crate::rules::explore::resume(m, &mut dice.0, &mut flow.buffer.0);
        match victory::settle(m, next, &mut flow.buffer.0) {
            Flow::CrisisStarts => kind = ResetKind::Opening,
            Flow::Over => {
                flow.status.over = true;
                flow.next_phase.set(CrisisPhase::Over);
                return;
            }
            _ => {
                flow.status.awaiting = true;
                flow.next_phase.set(CrisisPhase::Exploring);
                return;
            }
        }
    }
}

/// Entering Exploration Mode: a fresh crawl begins (R-EXP-1, R-EXP-4); a resumed or restored
/// one waits for the next order.
fn open_exploration(state: Option<ResMut<MatchState>>, mut dice: ResMut<MatchDice>, mut flow: FlowControl) {
    let Some(mut state) = state else { return };
    let m = &mut state.0;
    if flow.status.restored {
        flow.status.restored = false;
        flow.status.awaiting = true;
        return;
    }
    let fresh = m.explore.as_deref().is_some_and(|x| x.turn == 0);
    if fresh {
        let next = crate::rules::explore::begin(m, &mut dice.0, &mut flow.buffer.0);
        flow.handle(next, m);
    } else {
        flow.status.awaiting = true;
    }
}

fn open_action_phase(state: Option<ResMut<MatchState>>, mut dice: ResMut<MatchDice>, mut flow: FlowControl) {
    let Some(mut state) = state else { return };
    let m = &mut state.0;
    if flow.status.restored {
        flow.status.restored = false;
        flow.handle(Flow::AwaitCommand, m);
        return;
    }
    let next = if flow.status.resume {
        flow.status.resume = false;
        flow.buffer.0.push(crate::rules::Event::Phase { phase: "action".into(), turn: m.clock.turn });
        if m.a4.is_none() {
            flow.buffer.0.push(crate::rules::Event::Round { round: m.clock.round, turn: m.clock.turn });
        }
        turn::advance(m, &mut dice.0, &mut flow.buffer.0)
    } else {
        turn::begin_action_phase(m, &mut dice.0, &mut flow.buffer.0)
    };
    flow.handle(next, m);
}
