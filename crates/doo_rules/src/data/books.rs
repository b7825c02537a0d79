//! The rule data every match needs (`RuleData`): every built-in table compiled in (`builtin()`,
//! from the same files as under `assets/`) or read from `assets/`, and the figure book.

use super::caps::MAX_FILE_BYTES;
use super::files::{parse_ron, read_text};
use crate::ai::AiBook;
use crate::rules::a4::book::A4Book;
use crate::rules::conditions::ConditionBook;
use crate::rules::de::unique_keys;
use crate::rules::equipment::EquipmentBook;
use crate::rules::explore::ExploreBook;
use crate::rules::heroes::HeroBook;
use crate::rules::profile::ProfileBook;
use crate::rules::spells::SpellBook;
use crate::rules::tables::TableBook;
use std::sync::{Arc, OnceLock};

/// A file compiled into the binary: a broken copy is a build defect, caught by every test.
fn builtin_file<T: serde::de::DeserializeOwned>(path: &str, text: &str) -> T {
    parse_ron(path, text).unwrap_or_else(|e| panic!("built-in {e}"))
}

impl ProfileBook {
    /// The copy of `assets/rules/profiles.ron` compiled into the binary.
    pub fn builtin() -> Self {
        builtin_file("assets/rules/profiles.ron", include_str!("../../../../assets/rules/profiles.ron"))
    }
}

impl EquipmentBook {
    /// The copy of `assets/equipment/equipment.ron` compiled into the binary.
    pub fn builtin() -> Self {
        builtin_file("assets/equipment/equipment.ron", include_str!("../../../../assets/equipment/equipment.ron"))
    }
}

impl SpellBook {
    /// The copy of `assets/rules/spells.ron` compiled into the binary.
    pub fn builtin() -> Self {
        builtin_file("assets/rules/spells.ron", include_str!("../../../../assets/rules/spells.ron"))
    }
}

impl ConditionBook {
    /// The copy of `assets/rules/conditions.ron` compiled into the binary.
    pub fn builtin() -> Self {
        builtin_file("assets/rules/conditions.ron", include_str!("../../../../assets/rules/conditions.ron"))
    }
}

impl TableBook {
    /// The copy of `assets/rules/tables.ron` compiled into the binary.
    pub fn builtin() -> Self {
        builtin_file("assets/rules/tables.ron", include_str!("../../../../assets/rules/tables.ron"))
    }
}

impl ExploreBook {
    /// The copy of `assets/rules/exploration.ron` compiled into the binary.
    pub fn builtin() -> Self {
        builtin_file("assets/rules/exploration.ron", include_str!("../../../../assets/rules/exploration.ron"))
    }
}

impl HeroBook {
    /// The copy of `assets/rules/heroes.ron` compiled into the binary.
    pub fn builtin() -> Self {
        builtin_file("assets/rules/heroes.ron", include_str!("../../../../assets/rules/heroes.ron"))
    }
}

impl A4Book {
    /// The copy of `assets/rules/a4.ron` compiled into the binary.
    pub fn builtin() -> Self {
        builtin_file("assets/rules/a4.ron", include_str!("../../../../assets/rules/a4.ron"))
    }
}

impl AiBook {
    /// The copy of `assets/ai/behaviours.ron` compiled into the binary (the same file as under
    /// `assets/`), parsed once and shared.
    pub fn builtin() -> Arc<Self> {
        static BOOK: OnceLock<Arc<AiBook>> = OnceLock::new();
        BOOK.get_or_init(|| Arc::new(builtin_file("assets/ai/behaviours.ron", include_str!("../../../../assets/ai/behaviours.ron")))).clone()
    }
}

/// The shared rule data every match needs.
#[derive(Clone, Debug)]
pub struct RuleData {
    pub profiles: ProfileBook,
    pub conditions: ConditionBook,
    pub equipment: EquipmentBook,
    pub tables: TableBook,
    pub spells: SpellBook,
    /// The monster AI's behaviours and difficulties.
    pub ai: Arc<AiBook>,
    /// The numbers of Exploration Mode (§24).
    pub exploration: Arc<ExploreBook>,
    /// Heroes and character points (§25).
    pub heroes: Arc<HeroBook>,
    /// The figure sprites levels may name.
    pub figures: Arc<FigureBook>,
    /// Ruleset A4's numbers (`assets/rules/a4.ron`, docs/ruleset-a4.md).
    pub a4: Arc<A4Book>,
}

impl RuleData {
    /// The copies compiled into the binary (the same files as under `assets/`).
    pub fn builtin() -> Self {
        Self {
            profiles: ProfileBook::builtin(),
            conditions: ConditionBook::builtin(),
            equipment: EquipmentBook::builtin(),
            tables: TableBook::builtin(),
            spells: SpellBook::builtin(),
            ai: AiBook::builtin(),
            exploration: Arc::new(ExploreBook::builtin()),
            heroes: Arc::new(HeroBook::builtin()),
            figures: Arc::new(FigureBook::builtin()),
            a4: Arc::new(A4Book::builtin()),
        }
    }

    /// The rule data under `root/assets/` where those files exist, so edited tables need no
    /// rebuild; the compiled-in copy for any file that is absent. Errors are `file:line:col: …`.
    pub fn load(root: &std::path::Path) -> Result<Self, String> {
        fn read<T: serde::de::DeserializeOwned>(path: std::path::PathBuf, builtin: impl FnOnce() -> T) -> Result<T, String> {
            if !path.exists() {
                return Ok(builtin());
            }
            let text = read_text(&path, MAX_FILE_BYTES).map_err(|e| e.to_string())?;
            parse_ron(&path.display().to_string(), &text).map_err(|e| e.to_string())
        }
        let dir = root.join("assets");
        let data = Self {
            profiles: read(dir.join("rules/profiles.ron"), ProfileBook::builtin)?,
            conditions: read(dir.join("rules/conditions.ron"), ConditionBook::builtin)?,
            equipment: read(dir.join("equipment/equipment.ron"), EquipmentBook::builtin)?,
            tables: read(dir.join("rules/tables.ron"), TableBook::builtin)?,
            spells: read(dir.join("rules/spells.ron"), SpellBook::builtin)?,
            ai: Arc::new(read(dir.join("ai/behaviours.ron"), || (*AiBook::builtin()).clone())?),
            exploration: Arc::new(read(dir.join("rules/exploration.ron"), ExploreBook::builtin)?),
            heroes: Arc::new(read(dir.join("rules/heroes.ron"), HeroBook::builtin)?),
            figures: Arc::new({
                let f: FigureBook = read(dir.join("art/figures.ron"), FigureBook::builtin)?;
                f.check().map_err(|e| format!("{}: {e}", dir.join("art/figures.ron").display()))?;
                f
            }),
            a4: Arc::new({
                let b: A4Book = read(dir.join("rules/a4.ron"), A4Book::builtin)?;
                b.check().map_err(|e| format!("{}: {e}", dir.join("rules/a4.ron").display()))?;
                b
            }),
        };
        if let Some((weapon, e)) = data.weapon_skill_problem() {
            let path = dir.join("equipment/equipment.ron");
            let (line, col) = read_text(&path, MAX_FILE_BYTES).map(|t| super::places::MessageLocator::new(&t).locate(&format!("'{weapon}'"))).unwrap_or((1, 1));
            return Err(format!("{}:{line}:{col}: {e}", path.display()));
        }
        Ok(data)
    }

    /// Every weapon's skill (each mode of a melee weapon, a ranged weapon's skill) is a skill
    /// of the hero book (`assets/rules/heroes.ron`, R-STAT-7), so a hero trained in it is
    /// trained with the weapon: the weapon's id and the problem, or `None`.
    pub fn weapon_skill_problem(&self) -> Option<(String, String)> {
        let known = |s: &str| self.heroes.skills.contains_key(s);
        let melee = self.equipment.melee.iter().flat_map(|w| w.modes.iter().map(move |m| (&w.id, &m.skill)));
        let ranged = self.equipment.ranged.iter().map(|w| (&w.id, &w.skill));
        melee.chain(ranged).find(|(_, s)| !known(s)).map(|(w, s)| {
            (w.clone(), format!("weapon '{w}': skill '{s}' is not a skill of assets/rules/heroes.ron (a hero trained in it would fight untrained)"))
        })
    }
}

/// The figure sprites there are, and how a character without one gets his
/// (`assets/art/figures.ron`): the window draws them; levels are checked against the names.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FigureBook {
    /// Kinds in atlas order.
    pub kinds: Vec<String>,
    pub marks: FigureMarks,
    #[serde(deserialize_with = "unique_keys")]
    pub by_skill: std::collections::BTreeMap<String, String>,
    pub arcane: String,
    pub divine: String,
    pub default: String,
}

/// Atlas cells of the marks drawn over or instead of a figure.
#[derive(Clone, Copy, Debug, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FigureMarks {
    pub remains: usize,
    pub stunned: usize,
    pub bleeding: usize,
    pub dropped_weapon: usize,
}

impl FigureBook {
    /// The copy of `assets/art/figures.ron` compiled into the binary.
    pub fn builtin() -> Self {
        builtin_file("assets/art/figures.ron", include_str!("../../../../assets/art/figures.ron"))
    }

    /// Cells of the atlas: every kind, then the marks.
    pub fn cells(&self) -> usize {
        let m = self.marks;
        self.kinds.len().max([m.remains, m.stunned, m.bleeding, m.dropped_weapon].into_iter().max().unwrap_or(0) + 1)
    }

    /// The book is whole: kinds are named once, the marks are four distinct cells after the
    /// kinds (at most 64 cells in all), and every kind it picks is one of its kinds.
    pub fn check(&self) -> Result<(), String> {
        let m = self.marks;
        let marks = [m.remains, m.stunned, m.bleeding, m.dropped_weapon];
        if self.kinds.is_empty() || self.kinds.len() > 60 {
            return Err(format!("{} kinds: between 1 and 60", self.kinds.len()));
        }
        if let Some(k) = self.kinds.iter().enumerate().find(|(i, k)| self.kinds[..*i].contains(k)).map(|x| x.1) {
            return Err(format!("the kind '{k}' is listed twice"));
        }
        if marks.iter().any(|&x| x < self.kinds.len() || x >= 64) || (1..4).any(|i| marks[..i].contains(&marks[i])) {
            return Err(format!("marks {marks:?} must be four different cells after the {} kinds, below 64", self.kinds.len()));
        }
        let picked = [&self.default, &self.arcane, &self.divine].into_iter().chain(self.by_skill.values());
        if let Some(k) = picked.into_iter().find(|k| self.index(k).is_none()) {
            return Err(format!("'{k}' is not one of the kinds"));
        }
        Ok(())
    }

    /// The atlas cell of a kind.
    pub fn index(&self, kind: &str) -> Option<usize> {
        self.kinds.iter().position(|k| k == kind)
    }

    /// A level's `sprite` value names a kind or a PNG under assets/.
    pub fn known(&self, sprite: &str) -> bool {
        self.index(sprite).is_some() || sprite.ends_with(".png")
    }

    /// The kind for a character: `sprite` (a kind), else by his weapon's skill, then by his
    /// spells, else the default.
    pub fn pick(&self, sprite: Option<&str>, weapon_skill: Option<&str>, caster: crate::rules::fighter::Caster) -> usize {
        let by = |k: &str| self.index(k);
        sprite
            .and_then(by)
            .or_else(|| weapon_skill.and_then(|s| self.by_skill.get(s)).and_then(|k| by(k)))
            .or_else(|| {
                if caster.arcane() {
                    by(&self.arcane)
                } else if caster.divine() {
                    by(&self.divine)
                } else {
                    None
                }
            })
            .or_else(|| by(&self.default))
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test] // R-STAT-7, R-RNG-1: every shipped weapon names a hero skill (a throwing axe is Thrown Weapons)
    fn every_weapon_names_a_known_skill() {
        let data = RuleData::builtin();
        assert_eq!(data.weapon_skill_problem(), None);
        assert_eq!(data.equipment.ranged("javelin").map(|w| w.skill.as_str()), Some("thrown_weapons"));
        let mut bad = data.clone();
        bad.equipment.ranged.iter_mut().find(|w| w.id == "javelin").unwrap().skill = "thrown".into();
        let (w, e) = bad.weapon_skill_problem().unwrap();
        assert_eq!(w, "javelin");
        assert!(e.contains("skill 'thrown' is not a skill"), "{e}");
    }

    #[test] // the check runs at load: an assets/ copy with a weapon of an unknown skill is refused, located
    fn load_refuses_a_weapon_of_an_unknown_skill() {
        let root = std::env::temp_dir().join(format!("doo-books-{}", std::process::id()));
        let eq = root.join("assets/equipment");
        std::fs::create_dir_all(&eq).unwrap();
        let text = include_str!("../../../../assets/equipment/equipment.ron").replacen("skill: \"thrown_weapons\"", "skill: \"thrown\"", 1);
        std::fs::write(eq.join("equipment.ron"), text).unwrap();
        let e = RuleData::load(&root).unwrap_err();
        let _ = std::fs::remove_dir_all(&root);
        assert!(e.contains("equipment.ron:") && e.contains("weapon 'throwing_knife': skill 'thrown'"), "{e}");
    }
}
