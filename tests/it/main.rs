//! Every headless integration test in one binary (`cargo test`: no render stack). The window's
//! and the network's tests are tests/window (the game package's own binary, built by `.ci/run`).

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
mod delve;
mod editor_tools;
mod event_form;
mod harness;
mod hostile;
mod intents;
mod level_editor;
mod level_events;
mod levels;
mod one_flow;
mod pending;
mod posture_defense;
mod properties;
mod reference;
mod rule_coverage;
mod saves;
mod scenarios;
mod turn_structure;
mod undo;
