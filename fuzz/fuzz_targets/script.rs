//! Fuzz target: any bytes as a match script with an inline map: parsed, its caps checked, the
//! match built and started, and every command sent through the rules' one path (close stale
//! windows, validate, apply, victory) as the game does. Must never panic or hang.
#![no_main]

use doo_rules::rules::{dice::Dice, engine, turn, victory};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static DATA: OnceLock<doo_rules::data::RuleData> = OnceLock::new();

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else { return };
    let Ok(script) = doo_rules::data::parse_ron::<doo_rules::script::Script>("fuzz.ron", text) else { return };
    if !script.cap_problems().is_empty() {
        return;
    }
    let data = DATA.get_or_init(doo_rules::data::RuleData::builtin);
    let floors = script.floors.clone().or_else(|| script.map.clone().map(|m| vec![m])).unwrap_or_default();
    let Ok(mut m) = doo_rules::level::build_match(data, &floors, &script.characters, script.profile.as_deref(), &script.options) else { return };
    m.goals = script.victory.clone();
    if !victory::goal_problems(&m).is_empty() {
        return;
    }
    let mut dice = Dice::seeded(script.seed);
    dice.force(script.dice.iter().copied());
    let mut ev = Vec::new();
    match &script.start {
        Some(start) => {
            if doo_rules::script::apply_start(&mut m, start).is_err() {
                return;
            }
            turn::advance(&mut m, &mut dice, &mut ev);
        }
        None => {
            turn::run_reset(&mut m, &mut dice, turn::ResetKind::Opening, &mut ev);
            turn::begin_action_phase(&mut m, &mut dice, &mut ev);
        }
    }
    let follow = |m: &mut doo_rules::rules::state::Match, dice: &mut Dice, ev: &mut Vec<_>, flow| match flow {
        turn::Flow::PhaseEnded => {
            turn::run_reset(m, dice, turn::ResetKind::Normal, ev);
            turn::begin_action_phase(m, dice, ev);
            true
        }
        turn::Flow::CrisisEnded | turn::Flow::Over => false,
        turn::Flow::AwaitCommand => true,
    };
    for c in &script.commands {
        if let Some(flow) = engine::close_stale(&mut m, c, &mut dice, &mut ev) {
            if !follow(&mut m, &mut dice, &mut ev, flow) {
                return;
            }
        }
        if let Ok(plan) = engine::validate(&m, c) {
            let flow = engine::apply(&mut m, plan, &mut dice, &mut ev);
            let flow = victory::settle(&m, flow, &mut ev);
            if !follow(&mut m, &mut dice, &mut ev, flow) {
                return;
            }
        }
        ev.clear();
    }
});
