//! Tables shared by every profile (`assets/rules/tables.ron`): challenge ratings (R-CHK-1),
//! large-dice substitutes (R-DICE-5), outcome bands by margin (R-CHK-5, R-ATK-7) and the
//! critical-outcome numbers (R-DMG-3).

use super::dice::LargeDie;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Challenge {
    pub name: String,
    pub rating: i32,
}

/// One band of margins: `min_margin` and above (up to the band before it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutcomeBand {
    pub min_margin: i32,
    /// Non-combat category (R-CHK-5).
    pub check: String,
    /// Combat category (R-ATK-7).
    pub attack: String,
    /// Character points a hero earns when he makes or suffers it.
    pub cp: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableBook {
    pub stat_arrays: Vec<(u32, u32, u32, u32)>,
    pub challenges: Vec<Challenge>,
    pub large_dice: Vec<LargeDie>,
    pub outcomes: Vec<OutcomeBand>,
    pub clean_miss_defense: i32,
    pub solid_hit_stumble_defense: i32,
    pub solid_hit_brawn_damage: i32,
    pub solid_hit_finesse_minimum: i32,
    pub critical_hit_brawn_bonus: i32,
    pub legendary_hit_brawn_multiplier: i32,
    pub legacy_armor_bypass_margin: i32,
    pub range_step: i32,
    pub adjacent_ranged: i32,
}

impl TableBook {
    /// R-STAT-2: do these four stats form one of the Core hero arrays (in any order)?
    pub fn is_hero_array(&self, s: &super::fighter::Stats) -> bool {
        let mut v = [s.brawn, s.finesse, s.savvy, s.nerve];
        v.sort_unstable_by(|a, b| b.cmp(a));
        self.stat_arrays.iter().any(|a| [a.0, a.1, a.2, a.3] == v)
    }

    /// R-CHK-1: the rating of a named challenge (case-insensitive).
    pub fn challenge(&self, name: &str) -> Option<i32> {
        self.challenges.iter().find(|c| c.name.eq_ignore_ascii_case(name)).map(|c| c.rating)
    }

    /// R-CHK-5 / R-ATK-7: the band a margin falls in.
    pub fn band(&self, margin: i32) -> &OutcomeBand {
        self.outcomes.iter().find(|b| margin >= b.min_margin).unwrap_or_else(|| self.outcomes.last().expect("tables.ron lists outcome bands"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test] // R-STAT-1, R-STAT-2: four stats; a Core hero takes one of the fifteen arrays in any order
    fn hero_stat_arrays() {
        let t = TableBook::builtin();
        assert_eq!(t.stat_arrays.len(), 15);
        let s = |b, f, sv, n| super::super::fighter::Stats { brawn: b, finesse: f, savvy: sv, nerve: n };
        assert!(!t.is_hero_array(&s(5, 6, 9, 8)));
        assert!(t.is_hero_array(&s(4, 9, 6, 7)));
        assert!(!t.is_hero_array(&s(4, 9, 4, 7)));
        assert!(t.is_hero_array(&s(3, 4, 12, 4)));
        assert!(!t.is_hero_array(&s(12, 12, 12, 12)));
    }

    #[test] // R-CHK-1: Trivial 3 … Godly 21
    fn challenge_ratings() {
        let t = TableBook::builtin();
        let r: Vec<i32> = ["trivial", "easy", "moderate", "hard", "heroic", "superhuman", "godly"].iter().map(|n| t.challenge(n).unwrap()).collect();
        assert_eq!(r, vec![3, 6, 9, 12, 15, 18, 21]);
    }

    #[test] // R-CHK-5, R-ATK-7: margin bands at their edges
    fn outcome_bands() {
        let t = TableBook::builtin();
        let at = |m: i32| t.band(m).attack.clone();
        assert_eq!(
            [at(9), at(8), at(6), at(5), at(3), at(2), at(0)],
            ["legendary_hit", "critical_hit", "critical_hit", "solid_hit", "solid_hit", "hit", "hit"]
        );
        assert_eq!(
            [at(-1), at(-2), at(-3), at(-5), at(-6), at(-8), at(-9), at(-40)],
            ["miss", "miss", "clean_miss", "clean_miss", "critical_miss", "critical_miss", "disastrous_miss", "disastrous_miss"]
        );
        assert_eq!((t.band(7).check.as_str(), t.band(7).cp), ("critical_success", 1));
        assert_eq!((t.band(-10).check.as_str(), t.band(-10).cp), ("catastrophic_failure", 2));
    }

    #[test] // R-DICE-5: the large-dice table as printed (1d14 → 2d6+1, 2d16 → 3d10+1)
    fn large_dice_rows() {
        let t = TableBook::builtin();
        let row = |r: u32| t.large_dice.iter().find(|l| l.rank == r).unwrap().substitutes.clone();
        assert_eq!(row(14)[0], (2, 6, 1));
        assert_eq!(row(16)[1], (3, 10, 1));
        assert_eq!(row(18)[3], (6, 12, -1));
    }
}
