//! The Crisis Mode rules as plain Rust: no rendering, window or UI. Pure functions decide
//! legality (returning a `Violation` with the rule id) and outcomes; Bevy systems call them.

pub mod a4;
pub mod actions;
pub mod attack;
pub mod checks;
pub mod command;
pub mod conditions;
pub mod de;
pub mod defense;
pub mod dice;
pub mod doo;
pub mod driver;
pub mod engine;
pub mod equipment;
pub mod event;
pub mod explore;
pub mod fighter;
pub mod free_steps;
pub mod goal;
pub mod grid;
pub mod healing;
pub mod heroes;
pub mod movement;
pub mod offer;
pub mod plan;
pub mod preview;
pub mod profile;
pub mod reach;
pub mod reactions;
pub mod roll;
pub mod ruleset;
pub mod spells;
pub mod spending;
pub mod state;
pub mod tables;
pub mod turn;
pub mod undo;
pub mod victory;
pub mod violation;

pub use command::Command;
pub use dice::Dice;
pub use event::Event;
pub use fighter::Fighter;
pub use grid::{Board, Pos};
pub use state::{Match, Phase};
pub use violation::Violation;
