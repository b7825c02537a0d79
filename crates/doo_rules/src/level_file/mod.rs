//! Level files (format v1, `docs/levels.md`): map rows with a legend, several floors linked by
//! stairs, sides and who controls them, characters (from reusable monster templates with
//! per-level overrides), ruleset, victory goals, briefing. `check` reports every problem with
//! its `file:line:col`, like a compiler; nothing here panics on bad input.
//!
//! The parts: `format` (the file's types and caps), `assets` (the project folder, monster
//! templates, asset paths), `check` (the checker, part by part: `map`, `characters`, `sides`,
//! with `found`, the problem list they share) and `generated` (levels for benches and tests).

mod assets;
mod characters;
mod check;
mod format;
mod found;
mod generated;
mod keys;
mod map;
mod sides;

pub use crate::rules::grid::MAX_MAP_SIDE;
pub use crate::rules::victory::{Goal, Victory};
pub use assets::{project_root, read_template, safe_asset_path, templates_dir};
pub use check::{CheckedLevel, check, check_level, load, turn_limit_problem};
pub use format::{CharacterEntry, Control, Level, LevelError, SideDef, StairDef, TileSpec};
pub use format::{LEVEL_VERSION, MAX_EXITS, MAX_GOALS, MAX_SIDES, MAX_STAIR_LINKS, MAX_SURVIVE_TURNS, MAX_TURN_LIMIT};
pub use generated::{generated, generated_events};
pub use keys::{Proof, Reach, prove, reach_with_keys, shut_words};
pub use map::reachable_from;
