//! The version of hero, campaign and progress files and their caps (docs/campaigns.md,
//! docs/heroes.md: "Caps"). Every number a hero, campaign or progress file holds is checked
//! against these when the file is read, so no sum or product of them can overflow later.

/// The version of hero, campaign and progress files this game writes and reads.
pub const VERSION: u32 = 1;
/// Caps: heroes in a party, levels in a campaign, purchases in a hero's history, levels played.
pub const MAX_PARTY: usize = 8;
pub const MAX_LEVELS: usize = 100;
pub const MAX_BOUGHT: usize = 1_000;
pub const MAX_HISTORY: usize = 10_000;
pub const MAX_ITEMS: usize = 64;
/// CP a hero may earn in all (R-CP-1); CP past it are not kept, and the result says so.
pub const MAX_CP: u32 = 100_000;
pub const MAX_PURSE: u32 = 1_000_000;
/// A point-buy budget (R-CP-4): the campaign's `point_buy_budget` and a hero's `budget`.
pub const MAX_BUDGET: u32 = 1_000;
/// CP one objective gives each hero (R-CP-10).
pub const MAX_OBJECTIVE_CP: u32 = 100;
/// Objectives of one campaign level.
pub const MAX_OBJECTIVES: usize = 16;
/// Days of rest between levels (R-CP-13).
pub const MAX_REST_DAYS: u32 = 365;
/// Levels played in one campaign (the history's cap): the campaign ends there, said so.
pub const MAX_PLAYS: usize = MAX_HISTORY;
