//! Fuzz target: any bytes as a level file, through the whole checker and, when it is valid,
//! the match builder. Must never panic, hang or allocate without bound.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static DATA: OnceLock<doo_rules::data::RuleData> = OnceLock::new();

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else { return };
    let data = DATA.get_or_init(doo_rules::data::RuleData::builtin);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if let Ok(level) = doo_rules::level_file::check("fuzz.ron", text, data, &root) {
        let _ = level.build(data);
    }
});
