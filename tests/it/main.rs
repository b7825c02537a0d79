//! Every integration test in one binary (one link of the render stack instead of fourteen).
//! Tests that need a display are `#[ignore]`d with a reason; `.ci/run` runs them under Xvfb.

#![allow(dead_code)]

mod action_economy;
mod ai;
mod campaign_scripts;
mod campaigns;
mod cli;
mod combat;
mod combat_properties;
mod common;
mod conditions_healing;
mod harness;
mod hostile;
#[cfg(feature = "window")]
mod hud;
mod intents;
mod level_editor;
mod level_events;
mod levels;
mod net;
mod one_flow;
mod pending;
mod posture_defense;
mod properties;
mod reference;
#[cfg(feature = "window")]
mod resume;
mod rule_coverage;
mod saves;
mod scenarios;
#[cfg(feature = "window")]
mod seen_read;
mod turn_structure;
#[cfg(feature = "window")]
mod ui_walk;
mod undo;
#[cfg(feature = "window")]
mod window;
