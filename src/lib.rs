//! Dungeons of Olde, the game: the window (`window`: board, HUD, screens, the level editor) and
//! network play (`net`), on top of `doo` (crates/doo_game: the rules' ECS plugins, the headless
//! app, the headless commands), whose modules are re-exported here under their old paths
//! (`crate::game`, `crate::headless`…). The rules, the AI and the file formats live in the
//! `doo_rules` crate (no Bevy).

pub use doo::{campaign_sim, cli, commands, crash, game, headless, ladder, replay, saves, simulate};
pub mod net;
pub mod window;
