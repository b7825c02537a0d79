//! How a side wins besides G-15: the goals of a level or script (`Goal`, `Victory`), as data.
//! `victory` checks them after every Apply.

use super::grid::Pos;
use serde::{Deserialize, Serialize};

/// How a side wins.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Goal {
    /// The named side has nobody able to act (G-15).
    Rout(String),
    /// A character of the side, able to act, stands on one of these spaces.
    ReachExit(Vec<Pos>),
    /// The side still has someone able to act when this turn ends.
    SurviveTurns(u32),
    /// The named character (of another side) is incapacitated or dead.
    Defeat(String),
    /// Every other side has nobody able to act while this one has someone. A level whose
    /// goals are all `Rout` (or that names none) gets this for each side.
    LastStanding,
    /// Set by a level event's `win` or `lose` (its id); not listed in a level's `victory`.
    Event(String),
}

impl Goal {
    /// The goal in a few words, for briefings.
    pub fn describe(&self) -> String {
        match self {
            Goal::Rout(s) => format!("rout {s}"),
            Goal::ReachExit(e) => format!("reach an exit ({} space{})", e.len(), if e.len() == 1 { "" } else { "s" }),
            Goal::SurviveTurns(n) => format!("survive {n} turns"),
            Goal::Defeat(c) => format!("defeat {c}"),
            Goal::LastStanding => "be the last side standing".into(),
            Goal::Event(id) => format!("as level event '{id}' decides"),
        }
    }
}

/// One side's goal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Victory {
    pub side: String,
    pub goal: Goal,
}
