//! Fuzz target: any bytes as a match script with an inline map: parsed, its caps checked, the
//! match built and started, and every command replayed through the rules' one flow
//! (`doo_rules::replay`, which the game's systems call step by step). Must never panic or hang.
#![no_main]

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
    // The match the runner builds (`script::origin`), replayed as every replay is.
    let Ok(origin) = doo_rules::replay::Origin::of_script(data, &script, None) else { return };
    let r = doo_rules::replay::Replay::run(&origin, &script.commands);
    let _ = r.hash();
});
