//! The editor's sight preview (issue 46, "a fog/sight preview from any space"): what a hero on a
//! space would see, by the rules' own sight, in the level as built.

use doo_rules::data::RuleData;
use doo_rules::level_edit::sight_preview;
use doo_rules::rules::Pos;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

const LEVEL: &str = include_str!("level_edit_tools.ron");

fn built() -> doo_rules::rules::Match {
    let data = RuleData::load(&root()).unwrap();
    doo_rules::level_file::check("tools.ron", LEVEL, &data, &root()).unwrap().build(&data).unwrap()
}

/// R-EXP-19: from the heroes' room a hero sees that room and its walls, not through the closed
/// door (5, 2) into the goblins' room nor through the wall row into the rooms below; from the
/// lower right room he sees it and not the heroes' room.
#[test]
fn the_preview_sees_what_a_hero_there_would_see() {
    let m = built();
    let from_top = sight_preview(&m, Pos::on(2, 2, 0)).unwrap();
    for p in [(1, 1), (4, 3), (5, 2), (0, 0)] {
        assert!(from_top.contains(&Pos::on(p.0, p.1, 0)), "{p:?} is seen from (2, 2)");
    }
    for p in [(8, 2), (10, 1), (2, 6), (9, 6)] {
        assert!(!from_top.contains(&Pos::on(p.0, p.1, 0)), "{p:?} is behind a closed door or a wall");
    }
    let from_low = sight_preview(&m, Pos::on(8, 5, 0)).unwrap();
    assert!(from_low.contains(&Pos::on(11, 6, 0)) && !from_low.contains(&Pos::on(2, 2, 0)), "{from_low:?}");
    // The level's own figures stay where they are: the preview moved a copy.
    assert_eq!(m.fighters.iter().find(|f| f.id == "dara").map(|f| f.pos), Some(Pos::on(2, 2, 0)));
}

/// A space off the map or a floor the level lacks is refused with a sentence, never a panic.
#[test]
fn the_preview_refuses_spaces_off_the_map() {
    let m = built();
    let off = sight_preview(&m, Pos::on(40, 2, 0)).unwrap_err();
    assert!(off.contains("(40, 2)"), "{off}");
    let floor = sight_preview(&m, Pos::on(1, 1, 3)).unwrap_err();
    assert!(floor.contains("floor 4"), "{floor}");
}
