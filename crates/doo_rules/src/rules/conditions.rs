//! Condition table (R-COND-3) as data: what each condition stops and what it adjusts.

use super::fighter::{Duration, Fighter};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleSet {
    Core,
    Adv,
}

/// One row of `assets/rules/conditions.ron`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConditionRow {
    pub id: String,
    pub name: String,
    pub set: RuleSet,
    /// Default duration class when applied without one.
    pub duration: Duration,
    #[serde(default)]
    pub cannot_move: bool,
    #[serde(default)]
    pub cannot_act: bool,
    /// Makes no Defense check (R-ATK-4).
    #[serde(default)]
    pub no_defense: bool,
    /// Forbids attacks and spells (dazed).
    #[serde(default)]
    pub no_attacks: bool,
    #[serde(default)]
    pub ap_roll: i32,
    #[serde(default)]
    pub attack: i32,
    #[serde(default)]
    pub defense: i32,
    /// HP change at reset step 1 (bleeding −1).
    #[serde(default)]
    pub per_turn_hp: i32,
    /// Removal CR at reset step 3 (Brawn-or-Nerve check).
    #[serde(default)]
    pub removal_cr: Option<i32>,
    /// May not roll its own removal while HP ≤ 0 (C-37).
    #[serde(default)]
    pub conscious_removal_only: bool,
    #[serde(default)]
    pub description: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConditionBook {
    pub conditions: Vec<ConditionRow>,
}

impl ConditionBook {
    pub fn get(&self, id: &str) -> Option<&ConditionRow> {
        self.conditions.iter().find(|c| c.id == id)
    }

    /// The rows of a character's conditions that are active (`conditions_adv`, R-COND-4).
    pub fn active<'a>(&'a self, f: &'a Fighter, adv: bool) -> impl Iterator<Item = &'a ConditionRow> + 'a {
        f.conditions.iter().filter_map(|c| self.get(&c.id)).filter(move |r| adv || r.set == RuleSet::Core)
    }

    /// R-TURN-11 / G-13: stunned, incapacitated, dead or otherwise barred.
    pub fn can_act(&self, f: &Fighter, adv: bool) -> bool {
        f.hp > 0 && !self.active(f, adv).any(|r| r.cannot_act)
    }

    /// R-FS-10 / R-COND-3: rooted, restrained, stunned, incapacitated.
    pub fn movement_blocker<'a>(&'a self, f: &'a Fighter, adv: bool) -> Option<&'a ConditionRow> {
        self.active(f, adv).find(|r| r.cannot_move || r.cannot_act)
    }

    pub fn ap_roll_adjustment(&self, f: &Fighter, adv: bool) -> i32 {
        self.active(f, adv).map(|r| r.ap_roll).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test] // R-COND-3, R-COND-1: table loads with classes and effects
    fn builtin_conditions() {
        let b = ConditionBook::builtin();
        assert_eq!(b.get("slowed").map(|c| c.ap_roll), Some(-3));
        assert!(b.get("stunned").is_some_and(|c| c.cannot_act && c.no_defense && c.duration == Duration::Persistent));
        assert!(b.get("rooted").is_some_and(|c| c.cannot_move));
        assert_eq!(b.get("bleeding").map(|c| c.per_turn_hp), Some(-1));
        assert_eq!(b.get("dazed").map(|c| c.set), Some(RuleSet::Adv));
    }
}
