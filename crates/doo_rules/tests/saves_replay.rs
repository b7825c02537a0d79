//! The committed save that verifies (tests/saves/tutorial-seed3.ron; the two crawl saves part at
//! checkpoint 0 since the hobgoblin parried, see tests/it/saves.rs) replays through the rules
//! alone with every checkpoint's state hash: line of sight changed for speed (issue 44) decides
//! attacks exactly as it did (R-ATK-12). The crawls are checked by tests/sight_golden.rs.

use doo_rules::data::RuleData;
use doo_rules::replay::{Origin, Replay, verify};
use std::path::Path;

#[test] // R-ATK-12: the committed save verifies
fn the_committed_saves_verify() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::env::set_current_dir(&root).unwrap(); // saves name their level from the project folder
    let data = RuleData::builtin();
    let mut n = 0;
    for path in ["tests/saves/tutorial-seed3.ron"].map(std::path::PathBuf::from) {
        let (save, _, level) = doo_rules::save::load_save(&path, &data).unwrap_or_else(|e| panic!("{}: {}", path.display(), e.message));
        let origin = Origin::of_save(&data, &save, &level).unwrap();
        let r = Replay::run(&origin, &save.commands);
        let checked = verify(&save, &r).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(checked > 0, "{}: no checkpoint compared", path.display());
        n += 1;
    }
    assert_eq!(n, 1);
}
