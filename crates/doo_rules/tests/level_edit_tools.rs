//! The editor's tools (issue 46, "Tools" and "every field of a figure"): ids renamed everywhere
//! at once, rectangles and lines of a map character, a figure's HP/MP/FP in his form, and find
//! by id. Each on a small crawl written by hand: the saved text reads back as the level edited,
//! keeps the file's comments, still has no problem, and the tool is one undo step.

use doo_rules::data::{RuleData, parse_ron};
use doo_rules::level_edit::{Doc, FigureLists, IdKind, Mirror, Rect, line_cells, problems};
use doo_rules::level_file::Level;
use doo_rules::rules::goal::Goal;
use doo_rules::rules::orders::{Orders, Prey};
use doo_rules::rules::story::{Action, Trigger, Who};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The level the tools are tried on (comments and a hand-made layout to keep).
pub const LEVEL: &str = include_str!("level_edit_tools.ron");

fn doc() -> Doc {
    Doc::from_text("tools.ron", LEVEL).unwrap()
}

/// The saved text: it reads back as the level edited, keeps the file's comments, and the
/// editor finds no problem in it.
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

#[test]
fn the_test_level_has_no_problem() {
    saved(&doc());
}

#[test]
fn a_key_renamed_is_renamed_in_locks_items_lying_events_and_orders() {
    let mut d = doc();
    assert_eq!(d.rename_id(IdKind::Key, "brass_key", "iron_key"), Ok(true));
    let l = saved(&d);
    assert!(!d.text().contains("brass_key"), "{}", d.text());
    assert_eq!(l.keys[0].id, "iron_key");
    assert_eq!(l.doors[0].lock.as_ref().unwrap().key.as_deref(), Some("iron_key"));
    assert_eq!(l.chests[0].lock.as_ref().unwrap().key.as_deref(), Some("iron_key"));
    assert_eq!(l.items[0].item, "iron_key");
    assert_eq!(l.events[1].when, Trigger::ItemTaken { item: "iron_key".into() });
    assert!(matches!(&l.events[1].then[0], Action::Give { item, .. } if item == "iron_key"));
    assert_eq!(l.characters[4].orders, Some(Orders::Hunt { prey: Prey::Carrier("iron_key".into()) }));
    // One undo step: the level as it was, its text its own bytes.
    assert!(d.undo());
    assert_eq!(d.text(), LEVEL);
    assert!(!d.can_undo());
}

#[test]
fn a_figure_renamed_is_renamed_in_encounters_events_goals_and_orders() {
    let mut d = doc();
    assert_eq!(d.rename_id(IdKind::Figure, "gob", "chief"), Ok(true));
    let l = saved(&d);
    assert_eq!(l.characters[2].id.as_deref(), Some("chief"));
    assert_eq!(l.encounters[0].members, vec!["chief".to_string(), "orc".into()]);
    assert_eq!(l.victory[0].goal, Goal::Defeat("chief".into()));
    assert_eq!(l.characters[3].orders, Some(Orders::Bodyguard { figure: "chief".into() }));
    assert!(matches!(&l.events[1].then[0], Action::Give { figure, .. } if figure == "chief"));
    assert_eq!(d.rename_id(IdKind::Figure, "dara", "lyra"), Ok(true));
    let l = saved(&d);
    assert!(matches!(&l.events[0].when, Trigger::Enters { who: Who::Figure(f), .. } if f == "lyra"));
    assert!(d.undo() && d.undo());
    assert_eq!(d.text(), LEVEL);
}

#[test]
fn an_encounter_and_an_event_renamed_are_renamed_where_they_are_named() {
    let mut d = doc();
    assert_eq!(d.rename_id(IdKind::Encounter, "pair", "guards"), Ok(true));
    let l = saved(&d);
    assert_eq!(l.encounters[0].id, "guards");
    assert_eq!(l.encounters[1].orders, Some(Orders::CallForHelp { encounter: "guards".into() }));
    assert!(matches!(&l.events[0].then[1], Action::StartCrisis { encounters, .. } if encounters == &["guards".to_string()]));
    assert!(matches!(&l.events[1].then[1], Action::Stance { encounter, .. } if encounter == "guards"));
    assert_eq!(d.rename_id(IdKind::Encounter, "den", "lair"), Ok(true));
    assert!(matches!(&d.level.events[1].then[2], Action::Spawn(e) if e == "lair"));
    assert_eq!(d.rename_id(IdKind::Event, "enter_b", "ambush"), Ok(true));
    let l = saved(&d);
    assert_eq!((l.events[0].id.as_str(), l.events[1].after.as_deref()), ("ambush", Some("ambush")));
    assert_eq!(d.rename_id(IdKind::Chest, "box", "coffer"), Ok(true));
    assert_eq!(d.rename_id(IdKind::Trap, "pit", "snare"), Ok(true));
    let l = saved(&d);
    assert_eq!((l.chests[0].id.as_str(), l.traps[0].id.as_str()), ("coffer", "snare"));
}

#[test]
fn a_rename_to_an_id_in_use_is_refused_with_a_message_naming_it() {
    let mut d = doc();
    let e = d.rename_id(IdKind::Figure, "gob", "orc").unwrap_err();
    assert!(e.contains("'orc'") && e.contains("figure"), "{e}");
    let e = d.rename_id(IdKind::Encounter, "den", "pair").unwrap_err();
    assert!(e.contains("'pair'") && e.contains("encounter"), "{e}");
    let e = d.rename_id(IdKind::Event, "loot", "enter_b").unwrap_err();
    assert!(e.contains("'enter_b'"), "{e}");
    // A key named as an item the level already names (the chest's gemstone).
    let e = d.rename_id(IdKind::Key, "brass_key", "gemstone").unwrap_err();
    assert!(e.contains("'gemstone'"), "{e}");
    assert!(d.rename_id(IdKind::Key, "brass_key", "two words").is_err());
    assert!(d.rename_id(IdKind::Chest, "nothing", "x").unwrap_err().contains("No chest 'nothing'"));
    assert_eq!(d.rename_id(IdKind::Trap, "pit", "pit"), Ok(false));
    assert!(!d.can_undo() && !d.dirty());
}

#[test]
fn a_rectangle_outline_or_filled_and_a_line_are_painted_in_one_undo_step() {
    let mut d = doc();
    // The goblins' room: an outline of pillars, clipped where it would leave the map.
    assert!(d.paint_rect(Rect::new((7, 1), (14, 3)), '~', false, Mirror::Off));
    let l = saved(&d);
    assert_eq!(&l.floors[0][1..4], &["#....#.~~~~~~", "#....+.~....#", "#....#.~~~~~~"]);
    assert!(d.undo());
    assert_eq!(d.text(), LEVEL);
    assert!(d.paint_rect(Rect::new((6, 1), (8, 3)), '~', true, Mirror::Off));
    let l = saved(&d);
    assert_eq!(&l.floors[0][1..4], &["#....#~~~...#", "#....+~~~...#", "#....#~~~...#"]);
    assert!(d.undo());
    // Off the map: nothing.
    assert!(!d.paint_rect(Rect::new((20, 20), (30, 30)), '.', true, Mirror::Off));
    // A line of difficult ground, diagonal and shallow.
    assert!(d.paint_line((6, 1), (11, 3), '~', Mirror::Off));
    let l = saved(&d);
    assert_eq!(&l.floors[0][1..4], &["#....#~~....#", "#....+..~~..#", "#....#....~~#"]);
    assert!(d.undo());
    assert_eq!(d.text(), LEVEL);
    assert!(!d.can_undo());
    // Mirrored top to bottom: the lower room gets the line too, in the same undo step.
    assert!(d.paint_line((6, 1), (8, 1), '~', Mirror::Vertical));
    let l = saved(&d);
    assert_eq!((l.floors[0][1].as_str(), l.floors[0][6].as_str()), ("#....#~~~...#", "#....#~~~...#"));
    assert!(d.undo());
    assert!(!d.can_undo());
    // A locked door painted over loses its lock with it.
    assert!(d.paint_line((1, 4), (3, 4), '#', Mirror::Off));
    assert!(d.level.doors.is_empty());
}

#[test]
fn bresenham_lines_are_joined_and_symmetric() {
    assert_eq!(line_cells((0, 0), (3, 0)), vec![(0, 0), (1, 0), (2, 0), (3, 0)]);
    assert_eq!(line_cells((2, 2), (2, 2)), vec![(2, 2)]);
    assert_eq!(line_cells((0, 0), (2, 2)), vec![(0, 0), (1, 1), (2, 2)]);
    for (a, b) in [((0, 0), (7, 3)), ((5, 1), (-2, 9)), ((3, 3), (3, -4))] {
        let cells = line_cells(a, b);
        assert_eq!((cells[0], *cells.last().unwrap()), (a, b));
        for w in cells.windows(2) {
            assert!((w[0].0 - w[1].0).abs() <= 1 && (w[0].1 - w[1].1).abs() <= 1, "{cells:?}");
        }
        let mut back = line_cells(b, a);
        back.reverse();
        assert_eq!(back.len(), cells.len());
    }
}

#[test]
fn a_figures_hp_mp_fp_are_rows_of_his_form_stepped_and_typed() {
    let mut d = doc();
    let rows = d.figure_form(0);
    let at = |label: &str| rows.iter().position(|r| r.label == label).unwrap();
    let (hp, mp, fp) = (at("HP"), at("MP"), at("FP"));
    assert_eq!((rows[hp].value.as_str(), rows[mp].value.as_str()), ("full", "full"));
    let mut lists = FigureLists::default();
    // Full not known: an unset pool does not step.
    assert!(!d.figure_step(0, hp, -1, &lists));
    // Dara: 9 HP (Brawn 6 + Nerve 6 / 2), no mana, no faith.
    lists.full = Some([9, 0, 0]);
    assert!(d.figure_step(0, hp, -1, &lists));
    assert!(d.figure_step(0, hp, -1, &lists));
    assert!(!d.figure_step(0, mp, -1, &lists), "MP 0 of 0");
    assert!(!d.figure_step(0, fp, 1, &lists), "FP 0 of 0");
    let l = saved(&d);
    assert_eq!((l.characters[0].hp, l.characters[0].mp, l.characters[0].fp), (Some(7), None, None));
    assert!(d.text().contains("hp: 7"), "{}", d.text());
    // Stepped back up to full: unset again, never above.
    assert!(d.figure_step(0, hp, 1, &lists) && d.figure_step(0, hp, 1, &lists));
    assert_eq!(d.level.characters[0].hp, None);
    assert!(!d.figure_step(0, hp, 1, &lists), "never above full");
    assert_eq!(d.text(), LEVEL, "back to full: the file as it was");
    assert!(d.set_figure_text(0, hp, "5"));
    assert_eq!(d.figure_text(0, hp), "5");
    assert_eq!(d.figure_form(0)[hp].value, "5");
    saved(&d);
    assert!(!d.set_figure_text(0, hp, "lots"));
    assert!(d.set_figure_text(0, mp, "0"));
    assert_eq!(d.level.characters[0].mp, Some(0));
    assert!(d.undo());
    assert_eq!(d.level.characters[0].hp, Some(5));
}

#[test]
fn find_by_id_lists_exact_then_prefix_then_contains_with_their_spaces() {
    let d = doc();
    let found: Vec<String> = d.find_ids("gob").iter().map(|f| f.line()).collect();
    assert_eq!(found, vec!["figure gob at (10, 2)"]);
    let found: Vec<(IdKind, String)> = d.find_ids("P").into_iter().map(|f| (f.kind, f.id)).collect();
    // Exact: the encounter "p"? none; prefix: pair, pit; contains: the rest, in the level's order.
    assert_eq!(found, vec![(IdKind::Trap, "pit".into()), (IdKind::Encounter, "pair".into())], "prefix first (traps before encounters in the level's order)");
    let key = d.find_ids("brass");
    assert_eq!(key[0].kind, IdKind::Key);
    assert_eq!(key[0].at.map(|p| (p.x, p.y)), Some((1, 3)), "where the key lies");
    let e = d.find_ids("e");
    let ids: Vec<&str> = e.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(ids[0], "ed", "the prefix before the rest");
    assert!(ids.contains(&"enter_b") && ids.contains(&"den") && ids.contains(&"hunter"), "{ids:?}");
    assert_eq!(d.find_ids("enter_b")[0].at.map(|p| (p.x, p.y)), Some((6, 1)), "an event's area");
    assert_eq!(d.find_ids("pair")[0].at.map(|p| (p.x, p.y)), Some((10, 2)), "an encounter's first member");
    assert!(d.find_ids("  ").is_empty() && d.find_ids("zzz").is_empty());
}

#[test] // issue 46 "Tools": flood fill follows the mirror: the pour from a space and from its mirror, one undo step
fn a_flood_fill_follows_the_mirror_in_one_undo_step() {
    let mut d = doc();
    let before = d.level.floors[0].clone();
    // (1, 5) lies in the lower left room (x 1-4, y 5-6); left to right its mirror is (11, 5),
    // in the lower right room (x 6-11, y 5-6): each room's floor takes the difficult ground.
    assert!(d.flood_fill_mirrored(1, 5, '~', Mirror::Horizontal));
    let rows = &d.level.floors[0];
    assert_eq!(rows[5], "#~~~~#~~~~~~#");
    assert_eq!(rows[6], "#~~~~#~~~~~~#");
    assert_eq!(rows[1], before[1], "the rooms above are not joined to them");
    saved(&d);
    assert!(d.undo());
    assert_eq!(d.level.floors[0], before, "one undo step takes both pours back");
    // Without the mirror only the room clicked is poured.
    assert!(d.flood_fill_mirrored(1, 5, '~', Mirror::Off));
    assert_eq!(d.level.floors[0][5], "#~~~~#......#");
    // A space that holds the character already pours nothing, nor does its mirror's.
    assert!(!d.flood_fill_mirrored(2, 6, '~', Mirror::Off));
}

#[test] // issue 46 "Tools": a stamp pasted with the mirror on is also put down flipped in the mirrored place, one undo step
fn a_stamp_pasted_with_the_mirror_is_flipped_into_the_mirrored_place() {
    let mut d = doc();
    let before = d.level.floors[0].clone();
    // ".#" (the floor and the wall at x 4-5 of row 1) pasted at (1, 5), left to right: "#." at
    // x 10-11 of the same row.
    let wall = d.stamp(Rect::new((4, 1), (5, 1)));
    assert!(d.paste_stamp_mirrored(1, 5, &wall, Mirror::Horizontal).edited);
    assert_eq!(d.level.floors[0][5], "#.#..#....#.#");
    saved(&d);
    assert!(d.undo());
    assert_eq!(d.level.floors[0], before, "one undo step takes both back");
    // Ed (1, 1) with the floor beside him, pasted at (1, 5): a copy of him there, and one at
    // the mirrored end of the flipped stamp, (11, 5), of his side (figures keep their sides).
    let ed = d.stamp(Rect::new((1, 1), (2, 1)));
    assert!(d.paste_stamp_mirrored(1, 5, &ed, Mirror::Horizontal).edited);
    let at = |x: i32, y: i32| d.level.characters.iter().find(|c| c.pos.is_some_and(|p| p.x == x && p.y == y && p.floor == 0)).cloned();
    for (x, y) in [(1, 5), (11, 5)] {
        let c = at(x, y).unwrap_or_else(|| panic!("a copy of Ed at ({x}, {y})"));
        assert_eq!((c.name.as_deref(), c.side.as_deref()), (Some("Ed"), Some("heroes")), "({x}, {y})");
        assert_ne!(c.id.as_deref(), Some("ed"), "a fresh id");
    }
    assert!(at(10, 5).is_none(), "the flipped stamp puts him at its other end");
    saved(&d);
    // Without the mirror, the stamp alone.
    let mut d = doc();
    assert!(d.paste_stamp_mirrored(1, 5, &wall, Mirror::Off).edited);
    assert_eq!(d.level.floors[0][5], "#.#..#......#");
}
