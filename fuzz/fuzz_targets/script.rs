//! Fuzz target: any bytes as a match script with an inline map: parsed, its caps checked, the
//! match built and started, and every command sent through the rules' one path (close stale
//! windows, validate, apply, victory) as the game does. Must never panic or hang.
#![no_main]

use doo_rules::rules::{dice::Dice, driver, turn, victory};
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
    let running = match &script.start {
        Some(start) => {
            if doo_rules::script::apply_start(&mut m, start).is_err() {
                return;
            }
            let flow = turn::advance(&mut m, &mut dice, &mut ev);
            driver::follow(&mut m, &mut dice, flow, &mut ev)
        }
        None => driver::open(&mut m, &mut dice, &mut ev),
    };
    if !running {
        return;
    }
    for c in &script.commands {
        // refusals are fine; a crisis that ends stops the run
        if driver::submit(&mut m, &mut dice, c, &mut ev) == Ok(false) {
            return;
        }
        ev.clear();
    }
});
