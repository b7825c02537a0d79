//! The crawl part of a level file (§24): `mode: exploration`, the exploring sides, doors with
//! locks and secrets, keys, chests, loose items, traps and encounters. `check` reports each
//! problem at its entry (`file:line:col`); `build` turns a checked crawl into the rules'
//! [`Explore`] state.
//!
//! The parts: `format` (the crawl's fields as a level file writes them, and their caps),
//! `check` and `build`.

mod build;
mod check;
mod format;
mod start;

pub use build::build;
pub(crate) use check::check;
pub use format::{AreaDef, CheckDef, ChestDef, DoorDef, EncounterDef, ItemDef, KeyDef, LightDef, LockDef, TrapDef};
pub use format::{CR_RANGE, MAX_CHECKS, MAX_CHEST_ITEMS, MAX_FEATURES, MAX_START_MINUTE};
pub use format::{Crawl, CrawlDef, LevelMode, yes_camp};
pub use start::{ExploreStart, LightStart, check_positions, explore_start, hand_lights};
