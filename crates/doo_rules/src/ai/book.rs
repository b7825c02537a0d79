//! The AI's weights as data (`assets/ai/behaviours.ron`): monster behaviours and difficulties.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How well the AI plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Difficulty {
    Easy,
    #[default]
    Normal,
    Hard,
}

impl std::str::FromStr for Difficulty {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "easy" => Ok(Difficulty::Easy),
            "normal" => Ok(Difficulty::Normal),
            "hard" => Ok(Difficulty::Hard),
            _ => Err(format!("unknown difficulty '{s}' (easy, normal, hard)")),
        }
    }
}

/// Monster behaviours and how each difficulty thinks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AiBook {
    /// The behaviour of a character that names none.
    pub default_behaviour: String,
    pub behaviours: BTreeMap<String, Behaviour>,
    pub easy: Thinking,
    pub normal: Thinking,
    pub hard: Thinking,
}

/// How a monster template fights.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Behaviour {
    /// Score per space closed on the nearest enemy by a move without an action.
    pub approach: f64,
    /// Moves to stay at its ranged weapon's base range (adjacent with a melee weapon).
    pub keeps_range: bool,
    /// Retreats once HP is at or below this fraction of its maximum (0: never).
    pub retreat_below: f64,
    /// Multiplies the weight of the enemies' answer.
    pub caution: f64,
    /// Passes early in a round to let the enemy come (needs a patient difficulty).
    pub waits: bool,
}

/// How well a difficulty thinks (see the file for the scoring formula).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Thinking {
    pub noise: f64,
    /// Chance to forget its free steps in an opportunity.
    pub forget_free_steps: f64,
    /// Chance to lose track of the fight for a turn (it moves but makes no attack or spell).
    #[serde(default)]
    pub forget_action: f64,
    pub runs: bool,
    pub reacts: bool,
    pub heads_for_exits: bool,
    pub patience: bool,
    pub focus: f64,
    pub finish: f64,
    pub drop: f64,
    pub exposure: f64,
    pub answer: f64,
}

impl AiBook {
    pub fn thinking(&self, d: Difficulty) -> &Thinking {
        match d {
            Difficulty::Easy => &self.easy,
            Difficulty::Normal => &self.normal,
            Difficulty::Hard => &self.hard,
        }
    }

    /// The named behaviour, or the default one.
    pub fn behaviour(&self, name: Option<&str>) -> Behaviour {
        name.and_then(|n| self.behaviours.get(n)).or_else(|| self.behaviours.get(&self.default_behaviour)).copied().unwrap_or(Behaviour {
            approach: 0.4,
            keeps_range: false,
            retreat_below: 0.25,
            caution: 1.0,
            waits: false,
        })
    }

    /// Behaviour names, for level validation.
    pub fn names(&self) -> Vec<&str> {
        self.behaviours.keys().map(String::as_str).collect()
    }
}
