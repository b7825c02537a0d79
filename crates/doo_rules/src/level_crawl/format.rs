//! The crawl's fields as a level file writes them (§24, `docs/levels.md`): the level's mode,
//! locks, doors, keys, chests, items, traps, encounters and dark areas, their caps, and a
//! checked `Crawl`.

use crate::rules::explore::{Awareness, TrapOn};
use crate::rules::grid::Pos;
use serde::{Deserialize, Serialize};

/// How a level starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum LevelMode {
    /// One crisis from the first turn.
    #[default]
    Crisis,
    /// A crawl: Exploration Mode first (R-EXP-1).
    Exploration,
}

/// The most entries of each crawl list (doors, chests, items, traps, encounters, keys).
pub const MAX_FEATURES: usize = 4096;
/// Items in one chest.
pub const MAX_CHEST_ITEMS: usize = 64;
/// R-CP-16: trades of one encounter, and items asked in one trade.
pub const MAX_TRADES: usize = 16;
pub const MAX_TRADE_ITEMS: usize = 8;
/// The most plain skill checks a level asks for (`checks`).
pub const MAX_CHECKS: usize = 256;
/// The range of every CR of §24.
pub const CR_RANGE: (i32, i32) = (1, 40);

/// A lock (R-EXP-12, R-EXP-13): CRs default to the exploration book's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct LockDef {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cr: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force_cr: Option<i32>,
    /// The id of a key in `keys` that opens it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// A pick already failed by 9 or more: no more picking, key or force still work (R-EXP-12).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub jammed: bool,
}

/// A light burning when the level begins (R-EXP-18): the item (a light of the exploration book),
/// the minutes it has left, and either who holds it or the space it lies in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LightDef {
    pub item: String,
    pub minutes: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub held_by: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pos: Option<Pos>,
}

/// The latest minute the level clock may start at (R-EXP-2): a year.
pub const MAX_START_MINUTE: u32 = 525_600;

/// A door with more to it than its map character.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DoorDef {
    pub pos: Pos,
    /// A locked door (`L` on the map): its lock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<LockDef>,
    /// A secret door (also `S` on the map): hidden until found by searching (R-EXP-14).
    #[serde(default)]
    pub secret: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyDef {
    pub id: String,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChestDef {
    pub id: String,
    pub pos: Pos,
    #[serde(default)]
    pub items: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<LockDef>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemDef {
    pub pos: Pos,
    pub item: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrapDef {
    pub id: String,
    pub pos: Pos,
    /// In the space (default), on the door there, or on the chest there.
    #[serde(default)]
    pub on: TrapOn,
    /// Hidden until found or sprung (default true).
    #[serde(default = "yes")]
    pub hidden: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub find_cr: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disarm_cr: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect_cr: Option<i32>,
    /// Damage dice as (count, sides); default 1d6.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<(u32, u32)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    #[serde(default)]
    pub rearms: bool,
}

fn yes() -> bool {
    true
}

/// A crawl lets the party camp unless it says `camp: false`.
pub fn yes_camp() -> bool {
    true
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterDef {
    pub id: String,
    pub members: Vec<String>,
    #[serde(default)]
    pub awareness: Awareness,
    /// R-CP-16: never active hostiles until attacked (R-EXP-24c).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub non_hostile: bool,
    /// R-CP-16: what its figures say when spoken to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub says: Option<String>,
    /// R-CP-16: what its figures trade (only on a non-hostile encounter).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trades: Vec<crate::rules::explore::TradeLine>,
    /// Level events (issue 31): its figures are not on the map at the start; a level event's
    /// `spawn` brings them, each at its `pos` or the nearest free space.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub arrives: bool,
    /// Issue 45: what its members are told to do (a member's own `orders` win), e.g.
    /// `guard(area: (from: (1, 1), to: (4, 3)))`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orders: Option<crate::rules::directives::Orders>,
}

/// A plain skill check at a space (R-EXP-8): a hero at distance ≤ 1 spends a turn (`task(task:
/// check, at: pos)`) and rolls `skill` (its stat, `assets/rules/heroes.ron`) against `cr`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckDef {
    pub id: String,
    pub pos: Pos,
    pub skill: String,
    pub cr: i32,
    /// What the heroes find there (told with the result).
    pub text: String,
    /// What a success tells.
    pub success: String,
}

/// The crawl fields of a level, as written.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CrawlDef<'a> {
    pub mode: LevelMode,
    pub camp: bool,
    pub dark: &'a [AreaDef],
    pub explorers: &'a [String],
    pub doors: &'a [DoorDef],
    pub keys: &'a [KeyDef],
    pub chests: &'a [ChestDef],
    pub items: &'a [ItemDef],
    pub traps: &'a [TrapDef],
    pub encounters: &'a [EncounterDef],
    pub checks: &'a [CheckDef],
    /// R-EXP-2: the minute the level clock starts at.
    pub minute: u32,
    /// R-EXP-18: lights already burning.
    pub lights: &'a [LightDef],
    /// R-CP-16: sides whose figures are non-hostile.
    pub non_hostile: &'a [String],
}

/// A dark area (R-EXP-18): the rectangle between two corners, on their floor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AreaDef {
    pub from: Pos,
    pub to: Pos,
}

/// A checked crawl, ready to build.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Crawl {
    /// The party may camp (R-EXP-22).
    pub camp: bool,
    /// Dark areas (R-EXP-18).
    pub dark: Vec<AreaDef>,
    pub explorers: Vec<String>,
    pub doors: Vec<DoorDef>,
    pub keys: Vec<KeyDef>,
    pub chests: Vec<ChestDef>,
    pub items: Vec<ItemDef>,
    pub traps: Vec<TrapDef>,
    pub encounters: Vec<EncounterDef>,
    /// Plain skill checks (R-EXP-8), their stats looked up.
    pub checks: Vec<crate::rules::explore::LevelCheck>,
    /// R-EXP-2: the minute the level clock starts at.
    pub minute: u32,
    /// R-EXP-18: lights already burning.
    pub lights: Vec<LightDef>,
    /// R-CP-16: sides whose figures are non-hostile.
    pub non_hostile: Vec<String>,
}

impl Crawl {
    /// The encounters that arrive later (`arrives: true`), with their members' ids.
    pub fn arriving(&self) -> Vec<(String, Vec<String>)> {
        self.encounters.iter().filter(|e| e.arrives).map(|e| (e.id.clone(), e.members.clone())).collect()
    }
}
