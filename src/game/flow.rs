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
        .add_systems(OnEnter(CrisisPhase::Action), open_action_phase);
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
}

/// Inside the action phase: an opportunity is open, or a defender decides on a reaction.
#[derive(SubStates, Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[source(CrisisPhase = CrisisPhase::Action)]
pub enum ActionStage {
    #[default]
    Opportunity,
    ReactionWindow,
}

/// Which reset runs on the next entry to `Reset`.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct NextReset(pub ResetKind);

impl Default for NextReset {
    fn default() -> Self {
        Self(ResetKind::Opening)
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
                self.next_reset.0 = ResetKind::Normal;
                self.next_phase.set(CrisisPhase::Reset);
            }
            Flow::CrisisEnded => {
                // R-TURN-17: the closing reset, then the crisis is over.
                self.status.awaiting = false;
                self.next_reset.0 = ResetKind::Closing;
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

fn run_reset_phase(
    state: Option<ResMut<MatchState>>,
    mut dice: ResMut<MatchDice>,
    mut buffer: ResMut<EventBuffer>,
    mut next_phase: ResMut<NextState<CrisisPhase>>,
    next_reset: Res<NextReset>,
    mut status: ResMut<FlowStatus>,
) {
    let Some(mut state) = state else { return };
    status.awaiting = false;
    turn::run_reset(&mut state.0, &mut dice.0, next_reset.0, &mut buffer.0);
    if next_reset.0 == ResetKind::Closing {
        status.over = true;
        next_phase.set(CrisisPhase::Over);
    } else {
        next_phase.set(CrisisPhase::Action);
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
        flow.buffer.0.push(crate::rules::Event::Round { round: m.clock.round, turn: m.clock.turn });
        turn::advance(m, &mut dice.0, &mut flow.buffer.0)
    } else {
        turn::begin_action_phase(m, &mut dice.0, &mut flow.buffer.0)
    };
    flow.handle(next, m);
}
