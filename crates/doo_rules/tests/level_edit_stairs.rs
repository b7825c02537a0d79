//! Stairs linked between floors with the editor's picker (issue 46, "Tools"): a `stairs` link
//! written (both ends stairs; each end one link), the same pair again unlinks, a space that is
//! no stairs is refused, and each is one undo step.

use doo_rules::level_edit::{Brush, Doc, Rect, new_level};
use doo_rules::level_file::StairDef;
use doo_rules::rules::Pos;

/// Two floors: stairs up at (2, 2) and (6, 4) on the first, stairs down at (5, 5) on the second.
fn two_floors() -> Doc {
    let mut doc = Doc::new(new_level(10, 8));
    assert!(doc.paint(Rect::new((1, 1), (8, 6)), &Brush::Room));
    assert!(doc.paint(Rect::one(2, 2), &Brush::Tile('>')));
    assert!(doc.paint(Rect::one(6, 4), &Brush::Tile('>')));
    assert!(doc.add_floor());
    doc.floor = 1;
    assert!(doc.paint(Rect::new((1, 1), (8, 6)), &Brush::Room));
    assert!(doc.paint(Rect::one(5, 5), &Brush::Tile('<')));
    doc
}

#[test]
fn stairs_are_linked_unlinked_and_refused_by_the_picker() {
    let mut doc = two_floors();
    let (up, up2, down) = (Pos::on(2, 2, 0), Pos::on(6, 4, 0), Pos::on(5, 5, 1));
    let said = doc.link_stairs(up, down).expect("linked");
    assert!(said.contains("(2, 2) on floor 1") && said.contains("(5, 5) on floor 2"), "{said}");
    assert_eq!(doc.level.stairs, vec![StairDef { from: up, to: down }]);
    // The text written carries the link.
    assert!(doc.text().contains("stairs:"), "{}", doc.text());
    // Each end leads one way: linking the second stairs up to the same stairs down replaces it.
    let said = doc.link_stairs(up2, down).expect("linked again");
    assert!(said.contains("1 earlier link"), "{said}");
    assert_eq!(doc.level.stairs, vec![StairDef { from: up2, to: down }]);
    // The same pair again (either way round) unlinks.
    assert!(doc.link_stairs(down, up2).expect("unlinked").starts_with("Unlinked"));
    assert!(doc.level.stairs.is_empty());
    // A floor space is no stairs: refused, nothing changed.
    let no = doc.link_stairs(up, Pos::on(3, 3, 1)).unwrap_err();
    assert!(no.contains("(3, 3) on floor 2 is not a stairs"), "{no}");
    assert!(doc.link_stairs(up, up).is_err());
    assert!(doc.level.stairs.is_empty());
    // One undo step each: the unlink, then the second link, then the first.
    assert!(doc.undo());
    assert_eq!(doc.level.stairs, vec![StairDef { from: up2, to: down }]);
    assert!(doc.undo());
    assert_eq!(doc.level.stairs, vec![StairDef { from: up, to: down }]);
    assert_eq!(doc.stairs_links_here(), vec![(down, up)], "floor 2 in view: the link's end here first");
}
