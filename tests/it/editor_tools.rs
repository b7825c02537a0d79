//! The level editor's tools (issue 46): figures grouped into one encounter with the mouse (two
//! skeletons that arrive together need one encounter and one `spawn`, not two of each), and the
//! flood fill.

use doo_rules::data::RuleData;
use doo_rules::level_edit::{Brush, Doc, Rect, new_level, problems};
use doo_rules::level_file::CharacterEntry;
use doo_rules::rules::story::Action;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(crate::common::root())
}

/// A crawl with a room, a hero, and two skeletons of the monsters that each arrive later on the
/// level's one event (the editor gives each its own encounter and its own `spawn`).
fn two_arrivals() -> Doc {
    let mut doc = Doc::new(new_level(12, 8));
    assert!(doc.toggle_mode(), "a crawl");
    assert!(doc.paint(Rect::new((0, 0), (11, 7)), &Brush::Room));
    let hero = CharacterEntry { template: Some("orc".into()), side: Some("heroes".into()), ..Default::default() };
    assert!(doc.paint(Rect::one(1, 1), &Brush::Figure(Box::new(hero))));
    let side = doc.level.sides.last().map(|s| s.id.clone());
    for x in [8, 9] {
        let skeleton = CharacterEntry { template: Some("skeleton".into()), side: side.clone(), ..Default::default() };
        assert!(doc.paint(Rect::one(x, 5), &Brush::Figure(Box::new(skeleton))));
    }
    assert!(doc.paint(Rect::one(10, 1), &Brush::Exit));
    assert!(doc.add_event(Rect::new((4, 1), (6, 3)), "Bones rattle."));
    for k in [1, 2] {
        assert!(doc.cycle_arrival(k), "skeleton {k} arrives on the event");
    }
    doc
}

fn spawns(doc: &Doc) -> Vec<String> {
    doc.level.events.iter().flat_map(|e| e.then.iter()).filter_map(|a| if let Action::Spawn(s) = a { Some(s.clone()) } else { None }).collect()
}

/// R-EXP-24, R-EXP-25 (an encounter acts as one): the two skeletons dragged over become one
/// encounter that arrives by one `spawn`; the emptied encounter and its spawn are gone; the
/// level validates; one undo puts it back.
#[test]
fn figures_in_a_selection_become_one_encounter_with_one_spawn() {
    let mut doc = two_arrivals();
    assert_eq!(spawns(&doc).len(), 2, "{}", doc.text());
    let before = doc.level.clone();
    let g = doc.group_encounter(Rect::new((7, 4), (10, 6))).expect("two skeletons grouped");
    assert_eq!(g.members.len(), 2);
    assert_eq!(g.removed.len(), 1, "{g:?}");
    assert_eq!(spawns(&doc), vec![g.encounter.clone()]);
    let holding: Vec<_> = doc.level.encounters.iter().filter(|e| e.members.iter().any(|m| g.members.contains(m))).collect();
    assert_eq!(holding.len(), 1);
    assert!(holding[0].arrives);
    assert!(g.line().contains("together"), "{}", g.line());
    let data = RuleData::load(&root()).unwrap();
    let text = doc.text();
    assert_eq!(problems("grouped.ron", &text, &doc.level, &data, &root()), vec![], "{text}");
    assert!(doc.undo());
    assert_eq!(doc.level, before);
    // A hero and a skeleton are of different sides: not grouped; one figure alone: nothing.
    assert_eq!(doc.group_encounter(Rect::new((1, 1), (8, 5))), None);
    assert_eq!(doc.group_encounter(Rect::one(8, 5)), None);
}

/// The flood fill pours a character over the joined spaces holding the clicked one, and no
/// further: the room's floor becomes difficult ground; its walls stay.
#[test]
fn the_flood_fill_stops_at_other_characters() {
    let mut doc = Doc::new(new_level(12, 8));
    assert!(doc.paint(Rect::new((0, 0), (5, 7)), &Brush::Room));
    assert!(doc.paint(Rect::new((6, 0), (11, 7)), &Brush::Room));
    let floor = doc.tile(2, 2).unwrap();
    assert!(doc.flood_fill(2, 2, '~'));
    for y in 1..7 {
        for x in 1..5 {
            assert_eq!(doc.tile(x, y), Some('~'), "({x}, {y}) in the west room");
        }
    }
    assert_eq!(doc.tile(0, 3), Some('#'), "its wall stays");
    assert_eq!(doc.tile(8, 3), Some(floor), "the east room is not joined to it");
    assert!(!doc.flood_fill(2, 2, '~'), "the same character again changes nothing");
    assert!(!doc.flood_fill(40, 40, '.'), "off the map: nothing");
    assert!(doc.undo());
    assert_eq!(doc.tile(2, 2), Some(floor));
}
