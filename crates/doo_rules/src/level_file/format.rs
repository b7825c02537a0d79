//! The level file's format (v1, `docs/levels.md`): the `Level` as written, its characters,
//! sides, stairs and legend, the format's version and caps, and `LevelError`, a problem at its
//! place in the file.

use crate::rules::fighter::{Caster, Size, Stats};
use crate::rules::grid::Pos;
use crate::rules::profile::{OptionOverrides, Posture, Rank};
use crate::rules::victory::Victory;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The only format version so far.
pub const LEVEL_VERSION: u32 = 1;
/// The most sides, stair links and victory goals in a level.
pub const MAX_SIDES: usize = 16;
pub const MAX_STAIR_LINKS: usize = 1024;
pub const MAX_GOALS: usize = 64;
/// The most exit spaces of one `ReachExit` goal.
pub const MAX_EXITS: usize = 256;

/// What a legend character stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TileSpec {
    Floor,
    Wall,
    DoorOpen,
    DoorClosed,
    DoorLocked,
    /// A secret door (crawls): a closed door hidden until found (R-EXP-14).
    SecretDoor,
    Pillar,
    Pit,
    Difficult,
    /// Stairs or ladder; where they lead is in `stairs` (default: the same space one floor up).
    StairsUp,
    /// Stairs or ladder down (default: the same space one floor down).
    StairsDown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Control {
    #[default]
    Human,
    Ai,
}

/// A side: who plays it by default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideDef {
    pub id: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub control: Control,
    /// Default player name for a human side (hot-seat).
    #[serde(default)]
    pub player: Option<String>,
}

/// An explicit stair or ladder link (both ends must be stairs tiles).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StairDef {
    pub from: Pos,
    pub to: Pos,
}

/// A character in a level: every field optional so a `template` can supply it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct CharacterEntry {
    /// A monster template: `assets/monsters/<template>.ron`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pos: Option<Pos>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<Stats>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<Size>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_steps: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "crate::rules::de::unique_keys_opt")]
    pub skills: Option<BTreeMap<String, Rank>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abilities: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon_skill: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub two_handed: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shield: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub armor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caster: Option<Caster>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hp: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub posture: Option<Posture>,
    /// Condition ids, or `(id: "…", duration: persistent, removal_cr: Some(7))` entries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Vec<crate::level::ConditionEntry>>,
    /// Current Mana and Faith points, if not full (R-MANA-1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mp: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fp: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub surprised: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ap_roll_bonus: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mook: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ammo: Option<u32>,
    /// The crossbow starts loaded unless `false` (R-RNG-8, G-22).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loaded: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spells: Option<Vec<String>>,
    /// A sprite under `assets/` (must stay inside it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprite: Option<String>,
    /// The behaviour the monster AI uses (e.g. "brute", "skirmisher", "archer", "coward").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub behaviour: Option<String>,
    /// A hero: earns CP in play (R-CP-9). A campaign level's party figures are heroes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hero: Option<bool>,
    /// R-EXP-11: `false`: he cannot open or close doors (an animal). Absent: he can.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opens_doors: Option<bool>,
    /// Issue 45: what the AI is told to do with him (over his encounter's `orders`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orders: Option<crate::rules::directives::Orders>,
}

impl CharacterEntry {
    /// Fields given here win over the template's.
    pub fn over(self, t: &CharacterEntry) -> CharacterEntry {
        macro_rules! pick {
            ($($f:ident),*) => { CharacterEntry { $($f: self.$f.or_else(|| t.$f.clone()),)* } };
        }
        pick!(
            template,
            id,
            name,
            side,
            pos,
            stats,
            size,
            free_steps,
            skills,
            abilities,
            weapon,
            weapon_skill,
            two_handed,
            shield,
            armor,
            items,
            caster,
            hp,
            posture,
            conditions,
            mp,
            fp,
            surprised,
            ap_roll_bonus,
            mook,
            ammo,
            loaded,
            spells,
            sprite,
            behaviour,
            hero,
            opens_doors,
            orders
        )
    }
}

/// A level file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    pub version: u32,
    pub name: String,
    #[serde(default)]
    pub briefing: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    #[serde(default)]
    pub options: OptionOverrides,
    /// The turn after which the match is over, a draw, if no side has won by then
    /// (`rules::victory::turn_limit`): 1 to `MAX_TURN_LIMIT` turns; absent, none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_limit: Option<u32>,
    /// Extra or replaced map characters.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "crate::rules::de::unique_keys")]
    pub legend: BTreeMap<char, TileSpec>,
    /// One list of rows per floor, row 0 at the top.
    pub floors: Vec<Vec<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub floor_names: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stairs: Vec<StairDef>,
    /// Sides in play order; when empty, every side of the characters, the first one human.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<SideDef>,
    pub characters: Vec<CharacterEntry>,
    /// When empty: each side wins by routing all the others.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub victory: Vec<Victory>,
    /// `exploration`: a crawl that starts in Exploration Mode (§24); `crisis` (default): one fight.
    #[serde(default)]
    pub mode: crate::level_crawl::LevelMode,
    /// Crawls: whether the party may camp (R-EXP-22; default true).
    #[serde(default = "crate::level_crawl::yes_camp")]
    pub camp: bool,
    /// Crawls: dark areas (R-EXP-18), `(from: (x, y), to: (x, y))`; elsewhere is lit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dark: Vec<crate::level_crawl::AreaDef>,
    /// Crawls: the sides that explore (default: the first side).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub explorers: Vec<String>,
    /// Crawls: doors with locks or secrets (R-EXP-11, R-EXP-12).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub doors: Vec<crate::level_crawl::DoorDef>,
    /// Crawls: key items and their names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<crate::level_crawl::KeyDef>,
    /// Crawls: chests (R-EXP-15).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chests: Vec<crate::level_crawl::ChestDef>,
    /// Crawls: items lying in spaces (R-EXP-15).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<crate::level_crawl::ItemDef>,
    /// Crawls: traps (R-EXP-16).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traps: Vec<crate::level_crawl::TrapDef>,
    /// Crawls: encounters (R-EXP-23); an NPC in none is an encounter of his own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub encounters: Vec<crate::level_crawl::EncounterDef>,
    /// Crawls: plain skill checks at spaces (R-EXP-8), e.g. an inscription to read (Literacy).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<crate::level_crawl::CheckDef>,
    /// Crawls: the minute the level clock starts at (R-EXP-2; default 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub minute: u32,
    /// Crawls: lights already burning, held or lying in a space (R-EXP-18).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lights: Vec<crate::level_crawl::LightDef>,
    /// Crawls: sides whose figures are non-hostile (R-CP-16).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub non_hostile: Vec<String>,
    /// Level events (issue 31): what happens when (a figure enters an area, a door opens, an
    /// item is taken, a figure falls, turn or minute N, a crisis begins or ends), in order
    /// (docs/levels.md, `rules::level_events`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<crate::rules::story::EventDef>,
    /// Issue 46: the level's variables (counters) and their values at the start, set and
    /// added to by events (`set_var`, `add_var`) and read by their conditions (`var`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "crate::rules::de::unique_keys")]
    pub vars: BTreeMap<String, i32>,
}

/// The longest turn limit a level, a save or a host may set (`Level::turn_limit`).
pub const MAX_TURN_LIMIT: u32 = 100_000;

fn is_zero(v: &u32) -> bool {
    *v == 0
}

/// One problem in a level, at a place in its file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LevelError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

/// The longest survival goal.
pub const MAX_SURVIVE_TURNS: u32 = 1000;

#[cfg(test)]
mod tests {
    use super::CharacterEntry;

    #[test] // R-EXP-11: a template's `opens_doors: false` (an animal) reaches the figure unless the level says otherwise
    fn a_template_says_who_cannot_open_doors() {
        let rat: CharacterEntry = ron::from_str("(name: Some(\"Rat\"), opens_doors: Some(false))").unwrap();
        let from_template = CharacterEntry { id: Some("rat1".into()), ..Default::default() }.over(&rat);
        assert_eq!(from_template.opens_doors, Some(false));
        let trained = CharacterEntry { id: Some("rat2".into()), opens_doors: Some(true), ..Default::default() }.over(&rat);
        assert_eq!(trained.opens_doors, Some(true), "the level's value wins");
    }
}
