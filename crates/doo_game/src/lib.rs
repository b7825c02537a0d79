//! Dungeons of Olde without a window: the rules' ECS plugins (`game`), the headless app that runs
//! them exactly as the window does, and the commands that need no window (the CLI's run,
//! simulate, ladder, replay, validate, campaign simulate). The rules, the AI and the file formats
//! live in `doo_rules` (no Bevy); the window and network play in the game package (`doo_app`).
//! `bevy` here is Bevy's app, ECS, states and time only (crates/bevy_headless): `cargo test`
//! builds this crate and its tests without the render stack.

pub mod campaign_sim;
pub mod cli;
pub mod commands;
pub mod crash;
pub mod delve_cli;
pub mod delve_sim;
pub mod game;
pub mod headless;
pub mod ladder;
pub mod replay;
pub mod saves;
pub mod simulate;
