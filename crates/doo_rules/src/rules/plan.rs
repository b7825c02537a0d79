//! A checked command (`Plan`): what `validate` hands to `apply`, per ruleset: the DoO profiles'
//! movements, actions and reactions, an order of Exploration Mode, or an act under A4. Also who
//! gives a command, the first thing every validation asks.

use super::actions::ActionPlan;
use super::command::Command;
use super::fighter::Pool;
use super::grid::Pos;
use super::movement::MovePlan;
use super::profile::ReactionRow;
use super::state::{Match, Phase};
use super::violation::{RuleResult, Violation};

/// A checked command.
#[derive(Clone, Debug, PartialEq)]
pub enum Plan {
    FreeSteps {
        a: usize,
        path: Vec<Pos>,
    },
    Move {
        a: usize,
        plan: MovePlan,
    },
    Action {
        a: usize,
        plan: ActionPlan,
    },
    End {
        a: usize,
    },
    Reflex {
        a: usize,
        row: ReactionRow,
    },
    Respond {
        a: usize,
        row: ReactionRow,
    },
    Decline {
        a: usize,
    },
    Recovery {
        a: usize,
        pool: Pool,
    },
    /// An order of §24 (Exploration Mode, doors, items), carried out by `explore::apply`.
    Explore {
        a: usize,
        cmd: Command,
    },
    /// A command of an A4 match, carried out by `a4::acts::apply`.
    A4 {
        a: usize,
        cmd: Command,
    },
    /// Issue 46: the answer to the choice a level event put (`event_choice`): its option.
    Choose {
        option: usize,
    },
}

/// The index of the command's actor; refused when there is no such character (INPUT) or the
/// crisis is over (R-TURN-17: play has returned to narrative time).
pub fn actor(m: &Match, cmd: &Command) -> RuleResult<usize> {
    let id = cmd.actor();
    let a = m.index(id).ok_or_else(|| Violation::new("INPUT", format!("There is no character with id '{id}'.")))?;
    if m.clock.phase == Phase::Over {
        return Err(Violation::new("R-TURN-17", "The crisis is over: play has returned to narrative time."));
    }
    Ok(a)
}
