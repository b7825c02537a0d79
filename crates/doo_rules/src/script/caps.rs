//! Caps on what a script may hold (docs/scripts.md, "Caps"), checked right after parsing and
//! before any of it is played. Maps and characters share the level caps; a command's path has
//! the command's own cap ([`MAX_PATH`](crate::rules::command::MAX_PATH)).

/// Commands in one script.
pub const COMMANDS: usize = 100_000;
/// Forced die faces, and the largest face one may name.
pub const FORCED_DICE: usize = 100_000;
pub const FACE: u32 = 1_000;
/// The latest turn or round a script may start at.
pub const START_TURN: u32 = 10_000;
/// AP a script may give a character at the start.
pub const START_AP: u32 = 100;
/// HP, MP or FP a script may set at the start.
pub const START_POOL: (i32, i32) = (-100, 1_000);
/// The largest temporary adjustment (either sign) a script may set at the start.
pub const ADJUSTMENT: i32 = 20;
/// The highest removal CR of a condition set at the start.
pub const CR: i32 = 30;
/// Bytes of the path in `level`.
pub const LEVEL_PATH: usize = 4_096;
