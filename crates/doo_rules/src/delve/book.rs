//! The delve's numbers (`assets/rules/delve.ron`, the copy compiled in when the project has
//! none): each difficulty's encounter budget, boss guard and ambush, the budget's scale, the
//! chances of the optional features, the chests and traps, and the loot table. docs/delve.md.

use super::params::Difficulty;
use serde::Deserialize;
use std::path::Path;

/// What one difficulty changes.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tier {
    /// The encounter budget's factor, in percent.
    pub budget_percent: u32,
    /// The boss's bodyguards on the last floor (0 to 4).
    pub boss_guards: u32,
    /// Figures of the ambush that arrives (0 to 4).
    pub ambushers: u32,
    /// The boss of the last floor at this difficulty (a template of assets/monsters/); the
    /// book's `boss` when absent.
    #[serde(default)]
    pub boss: Option<String>,
}

/// `assets/rules/delve.ron`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DelveBook {
    pub easy: Tier,
    pub normal: Tier,
    pub hard: Tier,
    pub budget_percent_of_strength: u32,
    pub budget_per_floor_percent: u32,
    pub groups: (u32, u32),
    pub least_group_budget: u32,
    pub boss: String,
    pub ambush_percent: u32,
    pub pedlar_percent: u32,
    pub secret_room_percent: u32,
    pub door_trap_percent: u32,
    pub chests: (u32, u32),
    pub chest_locked_percent: u32,
    pub chest_trapped_percent: u32,
    pub corridor_traps: (u32, u32),
    pub hidden_trap_percent: u32,
    pub bleeding_trap_percent: u32,
    /// (item, weight on the first floor, weight added per floor down).
    pub loot: Vec<(String, u32, u32)>,
}

impl DelveBook {
    /// The copy compiled into the binary.
    pub fn builtin() -> DelveBook {
        let text = include_str!("../../../../assets/rules/delve.ron");
        let b: DelveBook = crate::data::parse_ron("assets/rules/delve.ron", text).unwrap_or_else(|e| panic!("built-in {e}"));
        b
    }

    /// `root/assets/rules/delve.ron` if it exists (checked), else the built-in copy.
    pub fn load(root: &Path) -> Result<DelveBook, String> {
        let path = root.join("assets/rules/delve.ron");
        if !path.exists() {
            return Ok(DelveBook::builtin());
        }
        let text = crate::data::read_text(&path, crate::data::MAX_FILE_BYTES).map_err(|e| e.to_string())?;
        let b: DelveBook = crate::data::parse_ron(&path.display().to_string(), &text).map_err(|e| e.to_string())?;
        b.problem().map_or(Ok(b), |p| Err(format!("{}: {p}", path.display())))
    }

    pub fn tier(&self, d: Difficulty) -> &Tier {
        match d {
            Difficulty::Easy => &self.easy,
            Difficulty::Normal => &self.normal,
            Difficulty::Hard => &self.hard,
        }
    }

    /// What difficulty `d` means, for a player choosing it: the foes' worth against the
    /// party's strength on the first floor and deeper, and the boss.
    pub fn describe(&self, d: Difficulty) -> String {
        let t = self.tier(d);
        let worth = self.budget_percent_of_strength * t.budget_percent / 100;
        let guards = match t.boss_guards {
            0 => String::new(),
            1 => " and a bodyguard".into(),
            n => format!(" and {n} bodyguards"),
        };
        let boss = self.boss(d).replace('_', " ");
        let a = if boss.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
        format!("foes worth {worth} % of the party's strength, {} % more each floor down; the boss {a} {boss}{guards}", self.budget_per_floor_percent)
    }

    /// The last floor's boss at difficulty `d`.
    pub fn boss(&self, d: Difficulty) -> &str {
        self.tier(d).boss.as_deref().unwrap_or(&self.boss)
    }

    /// The first number out of range, as a sentence.
    fn problem(&self) -> Option<String> {
        for (name, t) in [("easy", &self.easy), ("normal", &self.normal), ("hard", &self.hard)] {
            if !(10..=500).contains(&t.budget_percent) || t.boss_guards > 4 || t.ambushers > 4 {
                return Some(format!("{name}: budget_percent is 10 to 500, boss_guards and ambushers 0 to 4"));
            }
        }
        let percents = [
            ("ambush_percent", self.ambush_percent),
            ("pedlar_percent", self.pedlar_percent),
            ("secret_room_percent", self.secret_room_percent),
            ("door_trap_percent", self.door_trap_percent),
            ("chest_locked_percent", self.chest_locked_percent),
            ("chest_trapped_percent", self.chest_trapped_percent),
            ("hidden_trap_percent", self.hidden_trap_percent),
            ("bleeding_trap_percent", self.bleeding_trap_percent),
        ];
        if let Some((name, p)) = percents.iter().find(|(_, p)| *p > 100) {
            return Some(format!("{name} {p}: a chance is 0 to 100"));
        }
        let ranges = [("groups", self.groups, 1, 8), ("chests", self.chests, 0, 8), ("corridor_traps", self.corridor_traps, 0, 8)];
        if let Some((name, (lo, hi), a, b)) = ranges.iter().find(|(_, (lo, hi), a, b)| lo > hi || lo < a || hi > b) {
            return Some(format!("{name} ({lo}, {hi}): fewest ≤ most, within {a} to {b}"));
        }
        if !(50..=1000).contains(&self.budget_percent_of_strength) || self.budget_per_floor_percent > 200 || !(1..=200).contains(&self.least_group_budget) {
            return Some("budget_percent_of_strength is 50 to 1000, budget_per_floor_percent 0 to 200, least_group_budget 1 to 200".into());
        }
        if self.loot.is_empty() || self.loot.len() > 64 || self.loot.iter().all(|(_, w, _)| *w == 0) || self.loot.iter().any(|(_, w, d)| *w > 1000 || *d > 1000)
        {
            return Some("loot: 1 to 64 lines, weights 0 to 1000, some weight on the first floor".into());
        }
        None
    }
}

#[cfg(test)]
mod tests {
    #[test] // the shipped file is the built-in copy, and it is in range
    fn the_shipped_book_loads_and_is_in_range() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let b = super::DelveBook::load(&root).unwrap();
        assert_eq!(b, super::DelveBook::builtin());
        assert_eq!(b.problem(), None);
        let bad = super::DelveBook { pedlar_percent: 101, ..b.clone() };
        assert!(bad.problem().is_some_and(|p| p.contains("pedlar_percent")));
        let bad = super::DelveBook { groups: (4, 2), ..b };
        assert!(bad.problem().is_some_and(|p| p.contains("groups")));
    }

    /// The Delve screen's words for a difficulty come from the book: the foes' worth (150 % of
    /// the party's strength times the difficulty's factor), the share more a floor down, the
    /// boss with his article and his bodyguards.
    #[test]
    fn a_difficulty_is_described_from_the_book() {
        use super::Difficulty;
        let b = super::DelveBook::builtin();
        let normal = b.describe(Difficulty::Normal);
        let worth = b.budget_percent_of_strength * b.normal.budget_percent / 100;
        assert!(normal.starts_with(&format!("foes worth {worth} % of the party's strength, {} % more", b.budget_per_floor_percent)), "{normal}");
        let easy = super::DelveBook { easy: super::Tier { boss: Some("hobgoblin".into()), boss_guards: 0, ..b.easy.clone() }, ..b.clone() };
        assert!(easy.describe(Difficulty::Easy).ends_with("the boss a hobgoblin"), "{}", easy.describe(Difficulty::Easy));
        let hard = super::DelveBook { hard: super::Tier { boss: Some("orc_captain".into()), boss_guards: 2, ..b.hard.clone() }, ..b };
        assert!(hard.describe(Difficulty::Hard).ends_with("the boss an orc captain and 2 bodyguards"), "{}", hard.describe(Difficulty::Hard));
    }
}
