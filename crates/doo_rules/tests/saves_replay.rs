//! The committed saves (tests/saves/*.ron, crawls among them) replay through the rules alone
//! with every checkpoint's state hash, the explorers' `seen` map included (R-EXP-19): sight
//! changed for speed (issue 44) must reveal exactly what it did.

use doo_rules::data::RuleData;
use doo_rules::replay::{Origin, Replay, verify};
use std::path::Path;

#[test] // R-EXP-19, R-ATK-12: every committed save verifies
fn the_committed_saves_verify() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::env::set_current_dir(&root).unwrap(); // saves name their level from the project folder
    let data = RuleData::builtin();
    let mut n = 0;
    for entry in std::fs::read_dir("tests/saves").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ron") {
            continue;
        }
        let (save, _, level) = doo_rules::save::load_save(&path, &data).unwrap_or_else(|e| panic!("{}: {}", path.display(), e.message));
        let origin = Origin::of_save(&data, &save, &level).unwrap();
        let r = Replay::run(&origin, &save.commands);
        let checked = verify(&save, &r).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(checked > 0, "{}: no checkpoint compared", path.display());
        n += 1;
    }
    assert!(n >= 3, "the saves are there");
}
