//! Problems the level editor shows besides `doo validate`'s (issue 46): a door standing in the
//! open and a block of doors, each at its space with a plain sentence, marked as warnings (the
//! level still validates and plays); no shipped level has one.

use doo_rules::data::RuleData;
use doo_rules::level_edit::{Brush, Doc, Rect, problems};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Issue 46: every shipped level (levels/, which the campaign plays too) has no door in the
/// open and no block of doors: the editor shows no new problem on any of them.
#[test]
fn no_shipped_level_gets_a_door_problem() {
    let data = RuleData::load(&root()).unwrap();
    let mut n = 0;
    for e in std::fs::read_dir(root().join("levels")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "ron") {
            continue;
        }
        let name = p.display().to_string();
        let text = std::fs::read_to_string(&p).unwrap();
        let doc = Doc::from_text(&name, &text).unwrap();
        let found = problems(&name, &text, &doc.level, &data, &root());
        assert!(found.is_empty(), "{name}: {found:#?}");
        n += 1;
    }
    assert!(n >= 14, "{n}");
}

/// Issue 46: a door painted in the middle of the Bell Chapel's nave, and a second beside the
/// west door, are each named at their space (its map character's line and column), as warnings.
#[test]
fn a_door_in_the_open_and_a_block_of_doors_are_named_at_their_space() {
    let data = RuleData::load(&root()).unwrap();
    let file = "levels/the_bell_chapel.ron";
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    let mut doc = Doc::from_text(file, &text).unwrap();
    assert!(doc.paint(Rect::one(11, 3), &Brush::Tile('+')));
    let saved = doc.text();
    let found = problems(file, &saved, &doc.level, &data, &root());
    assert_eq!(found.len(), 1, "{found:#?}");
    let p = &found[0];
    assert!(p.warning && p.at == Some((0, 11, 3)) && p.message.contains("the door at (11, 3) stands in the open"), "{p:?}");
    // Row y 3 is the file's line with `// y 3`; its first map character is after the quote.
    let line = saved.lines().position(|l| l.contains("// y 3")).unwrap() + 1;
    let col = saved.lines().nth(line - 1).unwrap().find('"').unwrap() + 2;
    assert_eq!((p.line, p.col), (line, col + 11), "{p:?}");
    // A second door beside the nave's west door (5, 3): a block of doors.
    assert!(doc.undo());
    assert!(doc.paint(Rect::one(5, 2), &Brush::Tile('+')));
    let found = problems(file, &doc.text(), &doc.level, &data, &root());
    assert!(found.iter().any(|p| p.warning && p.at == Some((0, 5, 2)) && p.message.contains("(5, 2) and (5, 3) stand side by side")), "{found:#?}");
}
