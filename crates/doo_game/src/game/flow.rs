//! Where the match stands, as the rules' driver says (`doo_rules::rules::driver`): whether it
//! waits for a command or is over (`FlowStatus`, written only by the command path), and the
//! crisis phase as a Bevy state derived from the match (R-TURN-3), never set beside it. The
//! flow itself — resets, rounds, the end of a crisis — runs inside the driver.

use super::components::MatchState;
use bevy::prelude::*;
use doo_rules::rules::Phase;

pub(super) fn plugin(app: &mut App) {
    app.init_state::<CrisisPhase>().init_resource::<FlowStatus>().add_systems(Update, derive_crisis_phase.in_set(super::MatchSystems::Present));
}

/// Where the crisis is (R-TURN-3), derived from the match after every command.
#[derive(States, Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum CrisisPhase {
    /// No match yet.
    #[default]
    Setup,
    Reset,
    Action,
    Over,
    /// A crawl's Exploration Mode (R-EXP-1).
    Exploring,
}

impl CrisisPhase {
    /// The phase of `m`, `over` as the driver said.
    pub fn of(m: &doo_rules::rules::Match, over: bool) -> Self {
        if over {
            return CrisisPhase::Over;
        }
        match m.clock.phase {
            Phase::Setup => CrisisPhase::Setup,
            Phase::Reset => CrisisPhase::Reset,
            Phase::Action => CrisisPhase::Action,
            Phase::Over => CrisisPhase::Over,
            Phase::Exploration => CrisisPhase::Exploring,
        }
    }
}

/// Whether the match waits for a command (input may be taken) and whether it is over. Between
/// frames a running match is always one or the other: the driver runs the flow to the next
/// decision within the command that caused it.
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct FlowStatus {
    pub awaiting: bool,
    pub over: bool,
}

impl FlowStatus {
    /// After the driver said whether the match waits (`waiting`) or is over.
    pub fn from_driver(waiting: bool) -> Self {
        Self { awaiting: waiting, over: !waiting }
    }
}

/// Run condition: a match waits for a command.
pub fn awaiting_command(status: Res<FlowStatus>) -> bool {
    status.awaiting
}

/// Run condition: a match is on (waiting, or over and still answering commands with R-TURN-17).
pub fn match_on(status: Res<FlowStatus>) -> bool {
    status.awaiting || status.over
}

fn derive_crisis_phase(state: Option<Res<MatchState>>, status: Res<FlowStatus>, phase: Res<State<CrisisPhase>>, mut next: ResMut<NextState<CrisisPhase>>) {
    let want = state.map_or(CrisisPhase::Setup, |s| CrisisPhase::of(&s.0, status.over));
    if *phase.get() != want {
        next.set(want);
    }
}
