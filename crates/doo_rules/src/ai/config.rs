//! Who the AI plays and how: its sides and their difficulty, the characters' behaviours, the
//! exits it races for, its seed, its search budget and its weights.

use super::book::{AiBook, Behaviour, Difficulty};
use super::opportunity::Budget;
use crate::rules::grid::Pos;
use crate::rules::state::Match;
use crate::rules::victory::{Goal, Victory};
use std::collections::BTreeMap;

/// The rest of the plan of an opportunity in progress: (actor, turn, round, commands).
pub type PlanCache = Option<(usize, u32, u32, std::collections::VecDeque<crate::rules::command::Command>)>;

/// Who the AI plays and how.
#[derive(Clone, Debug)]
pub struct AiConfig {
    pub sides: BTreeMap<String, Difficulty>,
    /// Character id → behaviour name (from the level or its template).
    pub behaviours: BTreeMap<String, String>,
    /// Spaces a side wins by reaching (the level's ReachExit goals).
    pub exits: BTreeMap<String, Vec<Pos>>,
    pub seed: u64,
    pub budget: Budget,
    /// The weights (`assets/ai/behaviours.ron`).
    pub book: std::sync::Arc<AiBook>,
}

impl Default for AiConfig {
    fn default() -> Self {
        Self { sides: BTreeMap::new(), behaviours: BTreeMap::new(), exits: BTreeMap::new(), seed: 0, budget: Budget::default(), book: AiBook::builtin() }
    }
}

impl AiConfig {
    /// The configuration for a level: each of its `sides` played at `difficulty` unless
    /// `per_side` says otherwise, its characters' `behaviours` (character id → behaviour name),
    /// the exits its `goals` make sides win by reaching, and the weights `book`.
    pub fn for_level<'a>(
        sides: impl IntoIterator<Item = &'a str>,
        behaviours: &BTreeMap<String, String>,
        goals: &[Victory],
        difficulty: Difficulty,
        per_side: &BTreeMap<String, Difficulty>,
        seed: u64,
        book: std::sync::Arc<AiBook>,
    ) -> Self {
        AiConfig {
            sides: sides.into_iter().map(|s| (s.to_string(), per_side.get(s).copied().unwrap_or(difficulty))).collect(),
            behaviours: behaviours.clone(),
            exits: goals
                .iter()
                .filter_map(|v| match &v.goal {
                    Goal::ReachExit(e) => Some((v.side.clone(), e.clone())),
                    _ => None,
                })
                .collect(),
            seed,
            budget: Default::default(),
            book,
        }
    }

    pub fn controls(&self, m: &Match, i: usize) -> Option<Difficulty> {
        self.sides.get(&m.fighters[i].side).copied()
    }
    pub(super) fn behaviour(&self, m: &Match, i: usize) -> Behaviour {
        self.book.behaviour(self.behaviours.get(&m.fighters[i].id).map(String::as_str))
    }
}
