//! Every integration test in one binary (one link of the render stack instead of fourteen).
//! Tests that need a display are `#[ignore]`d with a reason; `.ci/run` runs them under Xvfb.

#![allow(dead_code)]

mod action_economy;
mod ai;
mod campaigns;
mod cli;
mod combat;
mod combat_properties;
mod common;
mod conditions_healing;
mod harness;
mod hostile;
mod hud;
mod intents;
mod levels;
mod one_flow;
mod pending;
mod posture_defense;
mod properties;
mod reference;
mod resume;
mod rule_coverage;
mod saves;
mod scenarios;
mod turn_structure;
mod ui_walk;
mod undo;
mod window;
