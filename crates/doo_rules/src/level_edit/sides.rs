//! The level's sides in the editor (issue 31): a new side, and each side's goal besides the
//! exits the exit brush paints (`ReachExit`): none, rout another side, survive some turns, or
//! defeat one figure of another side (docs/levels.md "Victory").

use super::brush::unique;
use super::doc::Doc;
use crate::level_file::{Control, MAX_SIDES, SideDef};
use crate::rules::goal::{Goal, Victory};

/// Turns a `SurviveTurns` goal the editor sets counts (the file can say any number).
pub const SURVIVE_TURNS: u32 = 10;

impl Doc {
    /// The side's goals in words ("reach an exit (2 spaces), rout monsters"; "none": it wins
    /// only as the level's default has it).
    pub fn goal_line(&self, k: usize) -> String {
        let Some(side) = self.level.sides.get(k) else { return String::new() };
        let goals: Vec<String> = self.level.victory.iter().filter(|v| v.side == side.id).map(|v| v.goal.describe()).collect();
        if goals.is_empty() { "none".into() } else { goals.join(", ") }
    }

    /// The side's goals in a few words, for a button ("exit, rout monsters").
    pub fn goal_short(&self, k: usize) -> String {
        let Some(side) = self.level.sides.get(k) else { return String::new() };
        let goals: Vec<String> = self
            .level
            .victory
            .iter()
            .filter(|v| v.side == side.id)
            .map(|v| match &v.goal {
                Goal::ReachExit(_) => "exit".to_string(),
                Goal::Rout(s) => format!("rout {s}"),
                Goal::SurviveTurns(n) => format!("survive {n}"),
                Goal::Defeat(c) => format!("defeat {c}"),
                g => g.describe(),
            })
            .collect();
        if goals.is_empty() { "none".into() } else { goals.join(", ") }
    }

    /// The side's goal other than its exits, cycled: none → rout the next side → survive
    /// `SURVIVE_TURNS` turns → defeat the first figure of another side → none.
    pub fn cycle_goal(&mut self, k: usize) -> bool {
        let Some(side) = self.level.sides.get(k).map(|s| s.id.clone()) else { return false };
        self.edit(|l, _| {
            let other_side = l.sides.iter().map(|s| s.id.clone()).find(|s| *s != side);
            let foe = l.characters.iter().find(|c| c.side.as_deref().is_some_and(|s| s != side)).and_then(|c| c.id.clone());
            let now = l.victory.iter().position(|v| v.side == side && !matches!(v.goal, Goal::ReachExit(_)));
            let next = match now.map(|i| &l.victory[i].goal) {
                None => other_side.map(Goal::Rout).or(Some(Goal::SurviveTurns(SURVIVE_TURNS))),
                Some(Goal::Rout(_)) => Some(Goal::SurviveTurns(SURVIVE_TURNS)),
                Some(Goal::SurviveTurns(_)) => foe.map(Goal::Defeat),
                Some(_) => None,
            };
            match (now, next) {
                (Some(i), Some(g)) => l.victory[i].goal = g,
                (Some(i), None) => {
                    l.victory.remove(i);
                }
                (None, Some(g)) => l.victory.push(Victory { side: side.clone(), goal: g }),
                (None, None) => {}
            }
        })
    }

    /// A new side, played by the AI (its figures are put down with the monster brush, or given
    /// it in the figure inspector).
    pub fn add_side(&mut self) -> bool {
        if self.level.sides.len() >= MAX_SIDES {
            return false;
        }
        self.edit(|l, _| {
            let taken: Vec<String> = l.sides.iter().map(|s| s.id.clone()).collect();
            l.sides.push(SideDef { id: unique("side", &taken), name: None, control: Control::Ai, player: None });
        })
    }
}
