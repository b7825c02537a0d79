//! The editor's tools that move what stands on the map (issue 46, "Tools"): stamps copied and
//! put down (ids made unique, clipped to the map), a selection turned and flipped with what
//! stands on it (refused when, turned, it no longer fits), and mirror painting (the opposing
//! side across one axis when the sides are swapped). On the hand-written level of
//! level_edit_tools.rs: the saved text reads back as edited, keeps its comments, has no
//! problem, and each tool is one undo step.

use doo_rules::data::{RuleData, parse_ron};
use doo_rules::level_edit::{Brush, Doc, Mirror, Rect, Turn, new_level, problems};
use doo_rules::level_file::{CharacterEntry, Level};
use doo_rules::rules::grid::Pos;
use doo_rules::rules::orders::Orders;
use doo_rules::rules::story::{Action, Trigger};
use std::path::{Path, PathBuf};

const LEVEL: &str = include_str!("level_edit_tools.ron");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn doc() -> Doc {
    Doc::from_text("tools.ron", LEVEL).unwrap()
}

fn saved(doc: &Doc) -> Level {
    let text = doc.text();
    let level: Level = parse_ron("tools.ron", &text).unwrap_or_else(|e| panic!("reads back: {e}\n{text}"));
    assert_eq!(level, doc.level, "{text}");
    for c in ["// Tools test", "// y 1   the heroes' room", "// The goblin chief and his guard."] {
        assert!(text.contains(c), "the comment {c:?} is kept:\n{text}");
    }
    let data = RuleData::load(&root()).unwrap();
    let found = problems("tools.ron", &text, &level, &data, &root());
    assert!(found.is_empty(), "{found:#?}\n{text}");
    level
}

fn at(l: &Level, id: &str) -> Option<(i32, i32)> {
    l.characters.iter().find(|c| c.id.as_deref() == Some(id)).and_then(|c| c.pos).map(|p| (p.x, p.y))
}

#[test]
fn a_stamp_of_a_figure_and_his_encounter_is_put_down_with_ids_of_its_own() {
    let mut d = doc();
    let s = d.stamp(Rect::new((6, 1), (11, 2)));
    assert_eq!((s.w, s.h, s.figures.len(), s.encounters.len()), (6, 2, 1, 1));
    // Over the lower room: the hunter standing there goes, and his encounter with the spawn
    // that named it.
    let p = d.paste_stamp(6, 5, &s);
    assert!(p.edited);
    assert_eq!(p.removed, vec![("hunter".to_string(), 9, 6)]);
    let l = saved(&d);
    assert_eq!(at(&l, "gob_2"), Some((10, 6)));
    assert_eq!(at(&l, "gob"), Some((10, 2)), "the first stays");
    let e = l.encounters.iter().find(|e| e.members == ["gob_2"]).expect("his encounter copied");
    assert_eq!(e.id, "pair_2");
    assert!(!l.encounters.iter().any(|e| e.id == "den"));
    assert!(!l.events[1].then.iter().any(|a| matches!(a, Action::Spawn(_))));
    assert!(d.undo());
    assert_eq!(d.text(), LEVEL);
}

#[test]
fn a_stamps_figures_keep_their_orders_among_themselves() {
    let mut d = doc();
    let s = d.stamp(Rect::new((10, 2), (11, 3)));
    assert!(d.paste_stamp(7, 5, &s).edited);
    let l = saved(&d);
    assert_eq!((at(&l, "gob_2"), at(&l, "orc_2")), (Some((7, 5)), Some((8, 6))));
    let orc2 = l.characters.iter().find(|c| c.id.as_deref() == Some("orc_2")).unwrap();
    assert_eq!(orc2.orders, Some(Orders::Bodyguard { figure: "gob_2".into() }), "the copy guards the copy");
    let e = l.encounters.iter().find(|e| e.id == "pair_2").unwrap();
    assert_eq!(e.members, ["gob_2", "orc_2"]);
    // A place in the copy moves with it; one outside stays.
    let mut d = doc();
    d.level.characters[3].orders = Some(Orders::Hold { at: Pos::new(10, 2) });
    d.level.encounters[1].orders = Some(Orders::Patrol { route: vec![Pos::new(9, 5), Pos::new(11, 3)] });
    let s = d.stamp(Rect::new((9, 3), (11, 6)));
    assert!(d.paste_stamp(1, 1, &s).edited);
    let l = d.level.clone();
    let orc2 = l.characters.iter().find(|c| c.id.as_deref() == Some("orc_2")).unwrap();
    assert_eq!((orc2.pos, orc2.orders.clone()), (Some(Pos::new(3, 1)), Some(Orders::Hold { at: Pos::new(10, 2) })));
    let den2 = l.encounters.iter().find(|e| e.id == "den_2").unwrap();
    assert_eq!(den2.orders, Some(Orders::Patrol { route: vec![Pos::new(1, 3), Pos::new(3, 1)] }));
    assert!(!den2.arrives, "a copy is on the map from the start: no event spawns it");
}

#[test]
fn a_stamp_carries_doors_locks_chests_traps_and_items() {
    let mut d = doc();
    let s = d.stamp(Rect::new((1, 3), (4, 6)));
    assert_eq!((s.doors.len(), s.chests.len(), s.traps.len(), s.items.len()), (1, 1, 1, 1));
    assert!(d.paste_stamp(7, 3, &s).edited);
    let l = saved(&d);
    assert_eq!(&l.floors[0][3..7], &["#....#......#", "##L#S###L#S##", "#....#......#", "#....#......#"]);
    let door = l.doors.iter().find(|d| (d.pos.x, d.pos.y) == (8, 4)).expect("the lock pasted with its door");
    assert_eq!(door.lock.as_ref().unwrap().key.as_deref(), Some("brass_key"));
    let chest = l.chests.iter().find(|c| (c.pos.x, c.pos.y) == (10, 6)).unwrap();
    assert_eq!(chest.id, "box_2");
    let trap = l.traps.iter().find(|t| (t.pos.x, t.pos.y) == (9, 5)).unwrap();
    assert_eq!(trap.id, "pit_2");
    assert!(l.items.iter().any(|i| (i.pos.x, i.pos.y) == (7, 3) && i.item == "brass_key"));
    assert_eq!(at(&l, "hunter"), None, "pasted over");
    assert!(d.undo());
    assert_eq!(d.text(), LEVEL);
}

#[test]
fn a_stamp_at_the_maps_edge_is_cut_to_the_map() {
    let mut d = doc();
    let s = d.stamp(Rect::new((-3, -3), (2, 2)));
    assert_eq!((s.w, s.h), (3, 3), "the selection cut to the map");
    assert!(d.stamp(Rect::new((20, 20), (22, 22))).is_empty());
    let before = d.level.floors[0].clone();
    // Its top-left corner off the map: only its bottom-right space (floor) lands, at (0, 0).
    assert!(d.paste_stamp(-2, -2, &s).edited);
    assert_eq!(d.level.floors[0][0], ".############");
    assert!(d.undo());
    assert!(d.paste_stamp(11, 6, &d.stamp(Rect::new((1, 1), (4, 2)))).edited);
    let l = d.level.clone();
    assert_eq!(l.floors[0].len(), before.len());
    assert_eq!(l.floors[0][6], "#....#.......", "two columns on the map");
    assert_eq!(l.floors[0][7], "###########..", "two rows on the map");
    assert_eq!(at(&l, "ed_2"), Some((11, 6)));
    assert!(!d.paste_stamp(40, 40, &s).edited);
}

#[test]
fn a_selection_flipped_and_turned_takes_what_stands_on_it() {
    let mut d = doc();
    assert_eq!(d.turn_selection(Rect::new((6, 1), (11, 3)), Turn::FlipH), Ok(Rect::new((6, 1), (11, 3))));
    let l = saved(&d);
    assert_eq!((at(&l, "gob"), at(&l, "orc")), (Some((7, 2)), Some((6, 3))));
    assert!(matches!(&l.events[0].when, Trigger::Enters { area, .. } if (area.from.x, area.to.x) == (6, 11)));
    assert!(d.undo());
    // A quarter turn clockwise of 3 x 2 spaces: 2 x 3 from the same corner; the key lying in
    // the space it now covers goes, the spaces it left are rock.
    assert_eq!(d.turn_selection(Rect::new((1, 1), (3, 2)), Turn::Cw), Ok(Rect::new((1, 1), (2, 3))));
    // (The key gone, `doo validate` says so: the level reads back as edited.)
    let l: Level = parse_ron("tools.ron", &d.text()).unwrap();
    assert_eq!(l, d.level);
    assert_eq!((at(&l, "ed"), at(&l, "dara")), (Some((2, 1)), Some((1, 2))));
    assert_eq!(&l.floors[0][1..4], &["#..#.#......#", "#..#.+......#", "#....#......#"]);
    assert!(l.items.is_empty());
    assert_eq!(d.turn_selection(Rect::new((1, 1), (2, 3)), Turn::Ccw), Ok(Rect::new((1, 1), (3, 2))));
    let l = d.level.clone();
    assert_eq!((at(&l, "ed"), at(&l, "dara")), (Some((1, 1)), Some((2, 2))));
    assert!(d.undo() && d.undo());
    assert_eq!(d.text(), LEVEL);
    // Flipped top to bottom with the locked door and its lock.
    assert!(d.turn_selection(Rect::new((1, 3), (4, 5)), Turn::FlipV).is_ok());
    let l = d.level.clone();
    assert_eq!((l.doors[0].pos.x, l.doors[0].pos.y), (2, 4));
    assert_eq!((l.items[0].pos.x, l.items[0].pos.y, l.traps[0].pos.y), (1, 5, 3));
}

#[test]
fn a_turned_selection_that_no_longer_fits_is_refused_with_a_message() {
    let mut d = doc();
    let e = d.turn_selection(Rect::new((1, 5), (4, 6)), Turn::Cw).unwrap_err();
    assert!(e.contains("off the map") && e.contains("2 x 4"), "{e}");
    assert!(d.turn_selection(Rect::new((30, 30), (31, 31)), Turn::Ccw).is_err());
    assert!(!d.can_undo() && !d.dirty());
    // At the map's edge, square: it fits.
    assert!(d.turn_selection(Rect::new((10, 5), (12, 7)), Turn::Cw).is_ok());
}

fn hero() -> Brush {
    Brush::Figure(Box::new(CharacterEntry {
        template: Some("goblin".into()),
        id: Some("scout".into()),
        side: Some("heroes".into()),
        hero: Some(true),
        ..Default::default()
    }))
}

#[test]
fn mirror_painting_paints_the_mirrored_spaces_in_one_step() {
    let mut d = Doc::new(new_level(9, 5));
    assert!(d.paint(Rect::new((0, 0), (8, 4)), &Brush::Room));
    assert!(d.paint_mirrored(Rect::one(1, 1), &Brush::Tile('O'), Mirror::Horizontal, true));
    assert_eq!(d.level.floors[0][1], "#O.....O#");
    assert!(d.paint_mirrored(Rect::new((2, 1), (3, 1)), &Brush::Tile('~'), Mirror::Both, true));
    assert_eq!(d.level.floors[0][1], "#O~~.~~O#");
    assert_eq!(d.level.floors[0][3], "#.~~.~~.#");
    assert!(d.undo());
    assert_eq!(d.level.floors[0][3], "#.......#");
    // On the middle line, a space is its own mirror.
    assert!(d.paint_mirrored(Rect::one(4, 2), &Brush::Tile('O'), Mirror::Both, true));
    assert_eq!(d.level.floors[0][2], "#...O...#");
    let text = d.text();
    assert_eq!(parse_ron::<Level>("new.ron", &text).unwrap(), d.level);
}

#[test]
fn a_figure_mirrored_goes_to_the_other_side_when_sides_are_swapped() {
    let mut d = Doc::new(new_level(9, 5));
    d.paint(Rect::new((0, 0), (8, 4)), &Brush::Room);
    assert!(d.paint_mirrored(Rect::one(1, 1), &hero(), Mirror::Both, true));
    let sides: Vec<(Option<String>, (i32, i32), Option<bool>)> =
        d.level.characters.iter().map(|c| (c.side.clone(), c.pos.map(|p| (p.x, p.y)).unwrap(), c.hero)).collect();
    let s = |x: &str| Some(x.to_string());
    assert_eq!(sides, vec![(s("heroes"), (1, 1), Some(true)), (s("monsters"), (7, 1), None), (s("monsters"), (1, 3), None), (s("heroes"), (7, 3), Some(true))]);
    let ids: Vec<String> = d.level.characters.iter().filter_map(|c| c.id.clone()).collect();
    assert_eq!(ids, ["scout", "scout_2", "scout_3", "scout_4"]);
    assert!(d.undo());
    assert!(d.level.characters.is_empty(), "one undo step");
    // Sides kept.
    assert!(d.paint_mirrored(Rect::one(1, 1), &hero(), Mirror::Horizontal, false));
    assert!(d.level.characters.iter().all(|c| c.side.as_deref() == Some("heroes") && c.hero == Some(true)));
    // Erased mirrored.
    assert!(d.paint_mirrored(Rect::one(7, 1), &Brush::Erase, Mirror::Horizontal, false));
    assert!(d.level.characters.is_empty());
}

#[test]
fn mirror_painting_keeps_the_files_layout() {
    let mut d = doc();
    assert!(d.paint_mirrored(Rect::one(7, 1), &Brush::Tile('~'), Mirror::Vertical, true));
    let l = saved(&d);
    assert_eq!((l.floors[0][1].as_str(), l.floors[0][6].as_str()), ("#....#.~....#", "#....#.~....#"));
    assert!(d.undo());
    assert_eq!(d.text(), LEVEL);
}

/// A stamp kept as a file (issue 46, "stamps: save a selection, paste it"): the selection's
/// level file read back is the same stamp, put down in another level it brings the same
/// figures, doors, locks, chests, traps and items; names and files that are not stamps are
/// refused with the file and place.
#[test]
fn a_stamp_kept_as_a_file_reads_back_and_is_put_down_in_another_level() {
    use doo_rules::level_edit::{MAX_STAMP_SPACES, STAMP_DIR, Stamp, stamp_files, stamp_name, stamp_path};
    let d = doc();
    let s = d.stamp(Rect::new((1, 3), (4, 6)));
    let level = s.to_level("lock_room").unwrap();
    assert_eq!(level.name, "lock_room");
    // Doors, chests, traps and items are a crawl's: the stamp's level is one.
    assert_eq!(level.mode, doo_rules::level_crawl::LevelMode::Exploration);
    assert_eq!(level.floors[0].len(), 4);
    let text = Doc::new(level).text();
    let back = Stamp::from_file_text("lock_room.ron", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!((back.w, back.h, back.rows.clone()), (s.w, s.h, s.rows.clone()));
    assert_eq!((back.doors.len(), back.chests.len(), back.traps.len(), back.items.len()), (1, 1, 1, 1));
    assert_eq!(back.doors[0].lock, s.doors[0].lock, "the lock and its key kept");
    assert_eq!(back.chests[0].pos, s.chests[0].pos);
    // Put down into another level: what the copy put down, the kept stamp puts down.
    let (mut a, mut b) = (doc(), doc());
    assert!(a.paste_stamp(7, 3, &s).edited);
    assert!(b.paste_stamp(7, 3, &back).edited);
    assert_eq!(a.level, b.level, "the stamp from the file puts down what the copy did");
    // Into a new, empty level too: its map is what the stamp brings.
    let mut n = Doc::new(new_level(10, 8));
    assert!(n.paste_stamp(2, 2, &back).edited);
    assert_eq!(&n.level.floors[0][2][2..6], &s.rows[0].iter().collect::<String>());
    // Names: a plain id only (no path, no dots); files in name order.
    let dir = std::env::temp_dir().join(format!("doo-stamps-{}", std::process::id()));
    assert_eq!(stamp_path(&dir, "lock_room"), Some(dir.join(STAMP_DIR).join("lock_room.ron")));
    for bad in ["../x", "a.b", "", "a b", "dir/x"] {
        assert_eq!(stamp_path(&dir, bad), None, "{bad:?} is not a stamp name");
    }
    std::fs::create_dir_all(dir.join(STAMP_DIR)).unwrap();
    for n in ["b_room", "a_room"] {
        std::fs::write(dir.join(STAMP_DIR).join(format!("{n}.ron")), &text).unwrap();
    }
    std::fs::write(dir.join(STAMP_DIR).join("notes.txt"), "not a stamp").unwrap();
    let files = stamp_files(&dir);
    assert_eq!(files.iter().map(|p| stamp_name(p)).collect::<Vec<_>>(), ["a_room", "b_room"]);
    let _ = std::fs::remove_dir_all(&dir);
    // Untrusted files: a broken one named with its line and column, a huge map refused.
    let e = Stamp::from_file_text("bad.ron", "(version: 1, name: \"x\",\n floors: [[\"...\"]] oops").unwrap_err();
    assert!(e.starts_with("bad.ron:2:"), "{e}");
    let huge = Doc::new(new_level(200, 100)).text();
    let e = Stamp::from_file_text("huge.ron", &huge).unwrap_err();
    assert!(e.contains(&format!("at most {MAX_STAMP_SPACES} spaces")) && e.contains("200 x 100"), "{e}");
    let e = d.stamp(Rect::new((40, 40), (50, 50))).to_level("off").unwrap_err();
    assert!(e.contains("off the map"), "{e}");
}

/// The stamps shipped in levels/stamps/ read as stamps (issue 46): each holds a map, and put
/// down in the hand-written level it leaves no problem.
#[test]
fn the_shipped_stamps_read_and_put_down_cleanly() {
    use doo_rules::level_edit::{Stamp, stamp_files};
    let files = stamp_files(&root().join("levels"));
    assert!(!files.is_empty(), "levels/stamps/ ships a stamp");
    let data = RuleData::load(&root()).unwrap();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let s = Stamp::from_file_text(&f.display().to_string(), &text).unwrap_or_else(|e| panic!("{e}"));
        assert!(s.w > 0 && s.h > 0 && !s.figures.is_empty(), "{}: a map and figures", f.display());
        // As the stamp file opened as a level: what it holds needs no more than it says.
        let level: Level = parse_ron("stamp.ron", &text).unwrap();
        let found = problems("stamp.ron", &text, &level, &data, &root());
        let said = |found: &[doo_rules::level_edit::Problem]| found.iter().map(|p| p.message.clone()).collect::<Vec<_>>();
        // Put down in an empty crawl: no problem that the crawl did not have already.
        let mut d = Doc::new(Level { mode: doo_rules::level_crawl::LevelMode::Exploration, ..new_level(20, 12) });
        let before = said(&problems("stamped.ron", &d.text(), &d.level, &data, &root()));
        assert!(d.paste_stamp(2, 2, &s).edited, "{}", f.display());
        let saved = d.text();
        let level: Level = parse_ron("stamped.ron", &saved).unwrap();
        let new: Vec<String> = said(&problems("stamped.ron", &saved, &level, &data, &root())).into_iter().filter(|m| !before.contains(m)).collect();
        assert!(new.is_empty(), "{}: {new:#?}\n{saved}", f.display());
        let own: Vec<String> = said(&found).into_iter().filter(|m| m.contains("mode: exploration") || m.contains("post_goblin")).collect();
        assert!(own.is_empty(), "{}: {own:#?}", f.display());
    }
}

/// The stamp in hand (issue 46): copied, kept under a name (never over one kept, never under a
/// name that is not plain), the shelf stepped round in name order, a broken file on it named
/// with its line and column while the stamp in hand stays.
#[test]
fn the_stamp_in_hand_is_kept_and_taken_from_the_shelf() {
    use doo_rules::level_edit::StampHand;
    let dir = std::env::temp_dir().join(format!("doo-hand-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = doc();
    let mut hand = StampHand::default();
    assert!(hand.next(&dir).starts_with("No stamps kept yet"), "an empty shelf says how to fill it");
    assert!(hand.keep(&dir, "x").starts_with("Nothing to keep"));
    let said = hand.copy(d.stamp(Rect::new((1, 3), (4, 6))));
    assert!(said.starts_with("Copied 4 x 4 spaces, 1 chest(s), 1 trap(s), 1 item(s)"), "{said}");
    assert_eq!(hand.line(), "In hand: 4 x 4 copied (Ctrl+V puts it down)");
    // Held for a name, then left (Esc): the hand is as it was.
    assert!(hand.hold(d.stamp(Rect::new((6, 1), (11, 2)))).unwrap().starts_with("Keep these 6 x 2 spaces as a stamp"));
    assert_eq!(hand.line(), "In hand: 4 x 4 copied (Ctrl+V puts it down)", "holding does not touch the hand");
    assert!(hand.hold(d.stamp(Rect::new((40, 40), (50, 50)))).unwrap_err().contains("off the map"));
    hand.hold(d.stamp(Rect::new((1, 3), (4, 6)))).unwrap();
    assert!(hand.keep(&dir, "../up").starts_with("Not kept: '../up' is not a plain name"));
    assert_eq!(hand.line(), "In hand: 4 x 4 copied (Ctrl+V puts it down)", "a refused name leaves the hand as it was");
    hand.hold(d.stamp(Rect::new((1, 3), (4, 6)))).unwrap();
    assert!(hand.keep(&dir, "lock_room").starts_with("Kept the stamp lock_room"));
    assert_eq!(hand.line(), "In hand: the stamp lock_room, 4 x 4 (Ctrl+V puts it down)");
    let first = std::fs::read_to_string(dir.join("stamps/lock_room.ron")).unwrap();
    hand.hold(d.stamp(Rect::new((6, 1), (11, 2)))).unwrap();
    assert!(hand.keep(&dir, "lock_room").starts_with("Not kept: a stamp named lock_room is kept already"));
    assert_eq!(std::fs::read_to_string(dir.join("stamps/lock_room.ron")).unwrap(), first, "nothing written over");
    // The write itself never replaces a file (one made under the name after the check, by
    // another editor): `write_new` refuses, the file stays, no temporary file is left.
    std::fs::write(dir.join("stamps/late.ron"), "mine").unwrap();
    let e = doo_rules::data::write_new(&dir.join("stamps/late.ron"), "theirs").unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists);
    assert_eq!(std::fs::read_to_string(dir.join("stamps/late.ron")).unwrap(), "mine");
    std::fs::remove_file(dir.join("stamps/late.ron")).unwrap();
    assert!(std::fs::read_dir(dir.join("stamps")).unwrap().all(|e| !e.unwrap().file_name().to_string_lossy().ends_with(".tmp")), "no temporary file left");
    hand.hold(d.stamp(Rect::new((6, 1), (11, 2)))).unwrap();
    assert!(hand.keep(&dir, "gob_pair").starts_with("Kept the stamp gob_pair (6 x 2 spaces, 1 figure(s))"));
    // The shelf in name order, round.
    let mut fresh = StampHand::default();
    assert!(fresh.next(&dir).starts_with("Stamp gob_pair in hand (1 of 2): 6 x 2 spaces"));
    assert!(fresh.next(&dir).starts_with("Stamp lock_room in hand (2 of 2): 4 x 4 spaces"));
    assert!(fresh.next(&dir).starts_with("Stamp gob_pair in hand (1 of 2)"));
    // A broken stamp: named with its place; the stamp in hand stays.
    std::fs::write(dir.join("stamps/a_broken.ron"), "(version: 1,\n  floors: oops").unwrap();
    fresh.shelf_at = 0;
    let said = fresh.next(&dir);
    assert!(said.starts_with("Stamp 1 of 3 not taken: ") && said.contains("a_broken.ron:2:"), "{said}");
    assert_eq!(fresh.name.as_deref(), Some("gob_pair"), "the stamp in hand stays");
    // Put down: the status line names the stamp.
    let mut into = doc();
    let stamp = fresh.stamp.clone().unwrap();
    let pasted = into.paste_stamp(6, 5, &stamp);
    assert!(fresh.pasted_line(&pasted).starts_with("Put down the stamp gob_pair"), "{}", fresh.pasted_line(&pasted));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ids pasted again count on (issue 46): a stamp of `gob` put down twice brings `gob_2` and
/// `gob_3`, and a copy of `gob_2` brings `gob_4`, not `gob_2_2`.
#[test]
fn pasted_ids_count_on() {
    let mut d = doc();
    let s = d.stamp(Rect::new((6, 1), (11, 2)));
    assert!(d.paste_stamp(6, 5, &s).edited);
    assert_eq!(at(&d.level, "gob_2"), Some((10, 6)));
    assert!(d.paste_stamp(0, 5, &s).edited);
    assert!(d.level.characters.iter().any(|c| c.id.as_deref() == Some("gob_3")), "{:?}", d.level.characters.iter().map(|c| c.id.clone()).collect::<Vec<_>>());
    let again = d.stamp(Rect::new((6, 5), (11, 6)));
    assert_eq!(again.figures[0].id.as_deref(), Some("gob_2"));
    assert!(d.paste_stamp(6, 1, &again).edited);
    let ids: Vec<String> = d.level.characters.iter().filter_map(|c| c.id.clone()).collect();
    assert!(ids.contains(&"gob_4".to_string()) && !ids.iter().any(|i| i.contains("_2_")), "{ids:?}");
}
