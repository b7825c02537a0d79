//! The version of hero, campaign and progress files and their caps.

/// The version of hero, campaign and progress files this game writes and reads.
pub const VERSION: u32 = 1;
/// Caps: heroes in a party, levels in a campaign, purchases in a hero's history, levels played.
pub const MAX_PARTY: usize = 8;
pub const MAX_LEVELS: usize = 100;
pub const MAX_BOUGHT: usize = 1_000;
pub const MAX_HISTORY: usize = 10_000;
pub const MAX_ITEMS: usize = 64;
pub const MAX_CP: u32 = 100_000;
pub const MAX_PURSE: u32 = 1_000_000;
