//! Fuzz target: any bytes as a save file: the version probe, the full parse and the caps, then
//! (for saves that pass) the commands replayed through the rules' one path on a small built-in
//! board, as `doo replay` does on the save's level. Must never panic or hang.
#![no_main]

use doo_rules::rules::dice::Dice;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static DATA: OnceLock<doo_rules::data::RuleData> = OnceLock::new();

const MAP: [&str; 5] = ["#######", "#.....#", "#..#..#", "#.....#", "#######"];

// The same board every run: the fuzzer explores the save, not the level.

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else { return };
    let Ok(save) = doo_rules::save::parse("fuzz.ron", text) else { return };
    let _ = save.to_text();
    let data = DATA.get_or_init(doo_rules::data::RuleData::builtin);
    let floors = vec![MAP.iter().map(|r| r.to_string()).collect::<Vec<_>>()];
    let chars: Vec<doo_rules::level::CharacterDef> = doo_rules::data::parse_ron(
        "fuzz",
        r#"[(id: "lunk", side: "heroes", pos: (1, 1), stats: (brawn: 9, finesse: 7, savvy: 5, nerve: 6), skills: {"axes": journeyman}, weapon: Some("broad_axe")),
            (id: "orc", side: "monsters", pos: (5, 3), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6))]"#,
    )
    .expect("the fuzz board's characters parse");
    let Ok(m) = doo_rules::level::build_match(data, &floors, &chars, save.profile.as_deref(), &Default::default()) else { return };
    let mut dice = Dice::seeded(save.seed);
    dice.force(save.forced_dice.iter().copied());
    // Replayed as `doo replay` and resume replay (`doo_rules::replay`), its checkpoints checked.
    let origin = doo_rules::replay::Origin { m, dice, mid_phase: false, version: save.version };
    let r = doo_rules::replay::Replay::run(&origin, &save.commands);
    let _ = doo_rules::replay::verify(&save, &r);
});
