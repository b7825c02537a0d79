//! The rules running on Bevy ECS: character components, crisis phases as states, and the one
//! command pipeline (Input → Command → Validate → Apply → Present). Everything here works
//! without rendering; the window adds board, input and UI on top.

use bevy::prelude::*;

pub mod ai;
pub mod choice;
pub mod components;
pub mod flow;
pub mod forecast;
pub mod intent;
pub mod log;
pub mod pipeline;
pub mod policy;
pub mod record;
pub mod sets;
pub mod setup;
pub mod undo;

pub use sets::MatchSystems;

/// The rules plugins: all a headless match needs.
pub fn plugin(app: &mut App) {
    app.configure_sets(Update, (MatchSystems::Input, MatchSystems::Command, MatchSystems::Validate, MatchSystems::Apply, MatchSystems::Present).chain());
    app.add_plugins((components::plugin, log::plugin, flow::plugin, pipeline::plugin, ai::plugin, intent::plugin, record::plugin, undo::plugin));
}
