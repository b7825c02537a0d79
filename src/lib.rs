//! Dungeons of Olde on Bevy: the rules' ECS plugins (`game`), the headless runner and the CLI,
//! and the game window. The rules, the AI and the file formats live in the `doo_rules` crate
//! (no Bevy); code here names them `doo_rules::…` wherever it crosses into that crate.

pub mod campaign_sim;
pub mod cli;
pub mod crash;
pub mod game;
pub mod headless;
pub mod ladder;
pub mod net;
pub mod replay;
pub mod saves;
pub mod simulate;
#[cfg(feature = "window")]
pub mod window;
