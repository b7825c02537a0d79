//! Dungeons of Olde: Crisis Mode rules (`rules`, plain Rust), their Bevy plugins (`game`),
//! levels and scripts, the headless runner and the game window.

pub mod ai;
pub mod cli;
pub mod game;
pub mod headless;
pub mod level;
pub mod level_file;
pub mod rules;
pub mod script;
pub mod simulate;
pub mod window;
