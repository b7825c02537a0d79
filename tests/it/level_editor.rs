//! The level editor's model (issue 31): what it writes and what it edits, over every shipped
//! level. Load → save without an edit changes nothing; the writer's own output reads back as
//! the same level and is written the same again (idempotent); an edit keeps every comment it
//! did not touch; a level made from an empty map validates clean; problems land on their space.

use doo_rules::data::{RuleData, parse_ron};
use doo_rules::level_edit::{Brush, Doc, Rect, new_level, problems, write_new};
use doo_rules::level_file::{CharacterEntry, Level};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(crate::common::root())
}

fn data() -> RuleData {
    RuleData::load(&root()).unwrap()
}

/// Every level file shipped with the game, and the test levels with events and crawls.
fn shipped() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["levels", "tests/levels/events", "tests/levels/crawl"] {
        out.extend(crate::common::files_with(&root().join(dir), &["ron"]));
    }
    assert!(out.len() >= 11, "{out:?}");
    out
}

fn parse(name: &str, text: &str) -> Level {
    parse_ron(name, text).unwrap_or_else(|e| panic!("{name}: the written level reads back: {e}\n{text}"))
}

fn comments(text: &str) -> Vec<String> {
    text.lines().filter_map(|l| l.find("//").map(|k| l[k..].trim().to_string())).collect()
}

#[test]
fn load_then_save_of_every_shipped_level_changes_nothing() {
    for p in shipped() {
        let text = std::fs::read_to_string(&p).unwrap();
        let name = p.display().to_string();
        let doc = Doc::from_text(&name, &text).unwrap();
        assert_eq!(doc.text(), text, "{name}: saved unedited, the file is its own text");
        assert!(!doc.dirty());
    }
}

#[test]
fn the_writer_reads_back_as_the_same_level_and_is_idempotent() {
    for p in shipped() {
        let text = std::fs::read_to_string(&p).unwrap();
        let name = p.display().to_string();
        let level = parse(&name, &text);
        let once = write_new(&level);
        assert_eq!(parse(&name, &once), level, "{name}: written anew, it is the same level");
        let twice = write_new(&parse(&name, &once));
        assert_eq!(once, twice, "{name}: writing what was written changes nothing");
        // By hand's standards: rows as text, no `Some(`, no field at its default.
        assert!(!once.contains("Some("), "{name}: {once}");
        for noise in ["secret: false", "rearms: false", "control: human", "name: None", "briefing: \"\"", "camp: true", "mode: crisis"] {
            assert!(!once.contains(noise), "{name}: `{noise}` is a default: {once}");
        }
        assert!(once.contains("// y 0"), "{name}: the map rows carry their y");
    }
}

#[test]
fn an_edit_keeps_every_comment_it_did_not_touch_and_saving_again_is_idempotent() {
    let data = data();
    for p in shipped() {
        let text = std::fs::read_to_string(&p).unwrap();
        let name = p.display().to_string();
        let mut doc = Doc::from_text(&name, &text).unwrap();
        // A pillar in the first floor space of the first row with floor, and a goblin on the
        // first floor space of the last row with floor.
        let (w, h) = doc.size();
        let floor_at = |doc: &Doc, rows: Vec<i32>| {
            rows.into_iter().find_map(|y| (0..w as i32).find(|&x| doc.tile(x, y) == Some('.') && doc.figure_at(x, y).is_none()).map(|x| (x, y)))
        };
        let (px, py) = floor_at(&doc, (0..h as i32).collect()).expect("a floor space");
        assert!(doc.paint(Rect::one(px, py), &Brush::Tile('O')));
        let (gx, gy) = floor_at(&doc, (0..h as i32).rev().collect()).expect("another floor space");
        let goblin = CharacterEntry { template: Some("goblin".into()), side: doc.level.sides.last().map(|s| s.id.clone()), ..Default::default() };
        assert!(doc.paint(Rect::one(gx, gy), &Brush::Figure(Box::new(goblin))));
        let saved = doc.text();
        let back = parse(&name, &saved);
        assert_eq!(back, doc.level, "{name}: the edited level reads back as edited");
        let kept = comments(&saved);
        for c in comments(&text) {
            assert!(kept.contains(&c), "{name}: the comment `{c}` is kept:\n{saved}");
        }
        // Saved, read again, saved again: the same text.
        doc.mark_saved(saved.clone());
        let again = Doc::from_text(&name, &saved).unwrap();
        assert_eq!(again.text(), saved, "{name}: saving is idempotent");
        // The edit is only the row and the new figure: every other line is the same.
        let old: Vec<&str> = text.lines().collect();
        let changed = saved.lines().filter(|l| !old.contains(l)).count();
        let new_lines: Vec<&str> = saved.lines().filter(|l| !old.contains(l)).collect();
        assert!(changed <= 2, "{name}: {changed} lines changed: {new_lines:#?}");
        // Still a level the game plays, if it was one.
        let root = doo_rules::level_file::project_root(&p);
        if doo_rules::level_file::check(&name, &text, &data, &root).is_ok() {
            let left = problems(&name, &saved, &doc.level, &data, &root);
            assert!(left.iter().all(|p| p.at.is_some() || p.message.contains("goblin")), "{name}: {left:?}");
        }
    }
}

/// The window test's level, made with the model: a room, a door, a hero, an orc and an exit.
pub fn made_level(data: &RuleData) -> Doc {
    let mut doc = Doc::new(new_level(12, 7));
    assert!(doc.paint(Rect::new((0, 0), (6, 6)), &Brush::Room));
    assert!(doc.paint(Rect::new((6, 0), (11, 6)), &Brush::Room));
    assert!(doc.paint(Rect::one(6, 3), &Brush::Tile('+')));
    let hero = doo_rules::campaign::sample_hero("Lunk", "warrior", data).expect("a sample hero");
    let (sheet, _) = hero.sheet(&data.heroes).unwrap();
    let entry = hero.entry(&sheet, "heroes", doo_rules::rules::Pos::new(0, 0), data);
    assert!(doc.paint(Rect::one(2, 3), &Brush::Figure(Box::new(entry))));
    let orc = CharacterEntry { template: Some("orc".into()), side: Some("monsters".into()), ..Default::default() };
    assert!(doc.paint(Rect::one(9, 3), &Brush::Figure(Box::new(orc))));
    assert!(doc.paint(Rect::one(4, 3), &Brush::Exit));
    doc
}

#[test]
fn a_level_made_from_an_empty_map_validates_clean_and_plays() {
    let data = data();
    let doc = made_level(&data);
    let text = doc.text();
    let root = root();
    let left = problems("made.ron", &text, &doc.level, &data, &root);
    assert!(left.is_empty(), "{left:?}\n{text}");
    let checked = doo_rules::level_file::check("made.ron", &text, &data, &root).unwrap();
    assert_eq!(checked.characters.len(), 2);
    assert!(text.contains("\"#.....#....#\", // y 3") || text.contains("\"#.....+....#\", // y 3"), "{text}");
    // An empty new level says what it lacks, and nothing panics.
    let empty = Doc::new(new_level(8, 5));
    let p = problems("empty.ron", &empty.text(), &empty.level, &data, &root);
    assert!(!p.is_empty());
}

#[test]
fn undo_redo_copy_paste_and_resize() {
    let data = data();
    let mut doc = made_level(&data);
    let made = doc.level.clone();
    assert!(doc.paint(Rect::new((1, 1), (2, 2)), &Brush::Tile('~')));
    assert_eq!(doc.tile(1, 1), Some('~'));
    assert!(doc.undo());
    assert_eq!(doc.level, made);
    assert!(doc.redo());
    assert_eq!(doc.tile(2, 2), Some('~'));
    assert!(doc.undo());
    // Copy the west room with its hero, paste it into the east room: a second hero, a new id.
    let clip = doc.copy(Rect::new((1, 2), (3, 4)));
    assert_eq!(clip.figures.len(), 1);
    assert!(doc.paste(7, 1, &clip));
    assert_eq!(doc.level.characters.len(), 3);
    let ids: std::collections::BTreeSet<_> = doc.level.characters.iter().map(|c| c.id.clone().unwrap()).collect();
    assert_eq!(ids.len(), 3, "pasted figures get ids of their own: {ids:?}");
    // Smaller: the east room and its orc go (undo brings them back); larger: rock.
    assert!(doc.resize(6, 7));
    assert_eq!(doc.size(), (6, 7));
    assert!(doc.level.characters.iter().all(|c| c.pos.unwrap().x < 6));
    assert!(doc.undo());
    assert!(doc.resize(14, 8));
    assert_eq!(doc.tile(13, 7), Some('#'));
    // Nothing paints outside the map; an empty stroke is no edit.
    assert!(!doc.paint(Rect::one(40, 40), &Brush::Tile('.')));
    assert!(!doc.paint(Rect::one(0, 0), &Brush::Tile('#')));
}

/// Issue 42: a paste never takes a figure off the map unsaid (an orc captain under the pasted
/// area vanished on fbd0357): the figures it replaces are named in the status line, and one
/// undo brings the level back as it was.
#[test]
fn paste_names_every_figure_it_replaces_and_is_one_undo_step() {
    let data = data();
    let mut doc = made_level(&data);
    let made = doc.level.clone();
    let orc = doc.level.characters.iter().find(|c| c.template.as_deref() == Some("orc")).and_then(|c| c.id.clone()).expect("the orc");
    // The hero's room corner, pasted so that the hero lands on the orc's space (9, 3).
    let clip = doc.copy(Rect::new((1, 2), (3, 4)));
    let pasted = doc.paste_told(8, 2, &clip);
    assert!(pasted.edited);
    assert_eq!(pasted.removed, vec![(orc.clone(), 9, 3)], "the orc under the pasted hero is reported");
    let line = pasted.line();
    assert!(line.contains(&format!("{orc} at (9, 3)")) && line.contains("removed"), "{line}");
    assert!(!doc.level.characters.iter().any(|c| c.id.as_deref() == Some(orc.as_str())));
    assert!(doc.undo(), "one undo step");
    assert_eq!(doc.level, made, "the paste taken back whole, the orc back");
    // A paste that replaces nobody says only that it pasted.
    let wall_and_floor = doc.copy(Rect::new((0, 1), (1, 1)));
    let quiet = doc.paste_told(8, 4, &wall_and_floor);
    assert!(quiet.edited && quiet.removed.is_empty() && quiet.line() == "Pasted.", "{quiet:?}");
}

#[test]
fn problems_are_placed_on_their_space() {
    let data = data();
    let mut doc = made_level(&data);
    // An orc in the wall (R-MOVE: figures stand on open spaces).
    let orc = CharacterEntry { template: Some("orc".into()), side: Some("monsters".into()), ..Default::default() };
    assert!(doc.paint(Rect::one(11, 0), &Brush::Figure(Box::new(orc))));
    // An unknown map character.
    doc.edit(|l, _| l.floors[0][5].replace_range(3..4, "?"));
    let text = doc.text();
    let p = problems("x.ron", &text, &doc.level, &data, crate::common::root());
    assert!(p.iter().any(|p| p.at == Some((0, 3, 5)) && p.message.contains("unknown map character")), "{p:?}");
    assert!(p.iter().any(|p| p.at == Some((0, 11, 0))), "{p:?}");
}

#[test]
fn names_and_texts_with_quotes_newlines_and_any_character_read_back() {
    for name in ["a \"quoted\" name", "two\nlines", "tab\there", "back\\slash", "r#\"raw\"#", "\u{e9}l\u{e8}ve \u{2014} \u{1f409}", "'single'"] {
        let mut l = new_level(5, 4);
        l.name = name.to_string();
        l.briefing = format!("{name} {name}");
        let text = write_new(&l);
        assert_eq!(parse("q.ron", &text), l, "{name:?}: {text}");
        let mut doc = Doc::from_text("q.ron", &text).unwrap();
        assert!(doc.set_name(&format!("{name}!")));
        assert_eq!(parse("q.ron", &doc.text()).name, format!("{name}!"));
    }
}

/// The editor's level events (issue 31): a story line when the first side enters the selected
/// spaces is written as a level event the checks accept (docs/levels.md "Level events"); its
/// text can be typed again; removed, it is gone; the events it did not touch keep their lines.
#[test]
fn events_made_in_the_editor_are_written_checked_and_kept() {
    let data = data();
    let mut doc = made_level(&data);
    assert!(doc.add_event(Rect::new((7, 1), (10, 5)), "The orc's den reeks."));
    assert!(doc.set_event_message(0, "The orc's den reeks of smoke."));
    assert_eq!(doc.event_message(0), "The orc's den reeks of smoke.");
    assert_eq!(doc.event_line(0), "event: heroes in (7,1)-(10,5): message");
    let text = doc.text();
    assert!(text.contains("when: enters(area: (from: (7, 1), to: (10, 5)), who: side(\"heroes\"))"), "{text}");
    let left = problems("ev.ron", &text, &doc.level, &data, &root());
    assert!(left.is_empty(), "{left:?}");
    assert_eq!(doc.event_areas(), vec![("event".to_string(), Rect::new((7, 1), (10, 5)))]);
    // The Bell Chapel: one more event, the others' lines (and comments) unchanged.
    let chapel = std::fs::read_to_string(root().join("levels/the_bell_chapel.ron")).unwrap();
    let mut doc = Doc::from_text("chapel", &chapel).unwrap();
    let n = doc.level.events.len();
    assert!(doc.add_event(Rect::one(3, 3), "A draught from the west door."));
    let saved = doc.text();
    assert_eq!(parse("chapel", &saved).events.len(), n + 1);
    let old: Vec<&str> = chapel.lines().collect();
    let new_lines: Vec<&str> = saved.lines().filter(|l| !old.contains(l)).collect();
    // Issue 46: the new event, too long for a line, is written one field per line (its `(` and
    // `),` lines are like the other events'); no line of the file is lost.
    assert!((1..=5).contains(&new_lines.len()) && new_lines.iter().all(|l| l.chars().count() <= 100), "{new_lines:#?}");
    assert!(old.iter().all(|l| saved.lines().any(|s| s == *l)), "every line kept");
    assert!(doc.remove_event(n));
    assert_eq!(doc.text(), chapel, "removed again, the file is its own text");
}

/// Every file of the hostile corpus opened in the editor (issue 15's files, shared between
/// players): a located error, or a level that is written, checked, painted and written again;
/// never a panic, each within a second (`read_text` caps the size first, as the editor does).
#[test]
fn the_editor_opens_every_hostile_file_without_a_panic() {
    let data = data();
    let root = root();
    let mut slowest = (std::time::Duration::ZERO, String::new());
    for p in crate::common::files_with(&root.join("tests/hostile"), &["ron"]) {
        let name = p.display().to_string();
        let start = std::time::Instant::now();
        let Ok(text) = doo_rules::data::read_text(&p, doo_rules::data::MAX_FILE_BYTES) else { continue };
        match Doc::from_text(&name, &text) {
            Err(e) => assert!(e.line >= 1 && !e.message.is_empty(), "{name}: {e:?}"),
            Ok(mut doc) => {
                assert_eq!(doc.text(), text, "{name}: unedited, its own text");
                let _ = problems(&name, &text, &doc.level, &data, &root);
                doc.paint(Rect::new((0, 0), (2, 2)), &Brush::Room);
                let again = doc.text();
                if doc.dirty() {
                    assert_eq!(parse(&name, &again), doc.level, "{name}: the edit reads back");
                }
                assert!(doc.undo() || !doc.dirty());
            }
        }
        let took = start.elapsed();
        if took > slowest.0 {
            slowest = (took, name.clone());
        }
    }
    eprintln!("slowest hostile file in the editor: {:?} ({})", slowest.0, slowest.1);
    assert!(slowest.0 < std::time::Duration::from_secs(1), "{slowest:?}");
}

/// A file's dark area may be any size: erasing beside it, erasing on it and resizing answer from
/// its corners, at once (a walk over its spaces would be 4·10^18 steps).
#[test]
fn a_huge_dark_area_is_erased_and_resized_without_walking_it() {
    let text = "Level(version: 1, name: \"d\", mode: exploration, floors: [[\"#####\", \"#...#\", \"#####\"]], characters: [], dark: [(from: (0, 0), to: (2000000000, 2000000000))])";
    let mut doc = Doc::from_text("d.ron", text).unwrap();
    let start = std::time::Instant::now();
    assert!(!doc.paint(Rect::one(9, 9), &Brush::Erase), "off the map: nothing");
    assert!(doc.resize(4, 3), "smaller: the area reaches outside and goes");
    assert!(doc.level.dark.is_empty());
    assert!(doc.undo());
    assert!(doc.paint(Rect::one(1, 1), &Brush::Erase), "erased on it: it goes whole");
    assert!(doc.level.dark.is_empty());
    assert!(start.elapsed() < std::time::Duration::from_secs(1));
}

/// A file with no floor opens; a floor can be added, or the map sized, from nothing.
#[test]
fn a_level_without_floors_gets_one() {
    let mut doc = Doc::from_text("e.ron", "Level(version: 1, name: \"e\", floors: [], characters: [])").unwrap();
    assert_eq!(doc.size(), (0, 0));
    assert!(doc.add_floor());
    assert_eq!(doc.size(), doo_rules::level_edit::NEW_SIZE);
    assert!(doc.undo());
    assert!(doc.resize(5, 4));
    assert_eq!(doc.size(), (5, 4));
}

proptest::proptest! {
    /// Any text: the layout reader finds items or gives up; it never panics or loops.
    #[test]
    fn the_layout_reader_never_panics(text in "[ -~\n]{0,300}") {
        if let Some(open) = doo_rules::level_edit::scan::top_open(&text) {
            let _ = doo_rules::level_edit::scan::items(&text, open);
        }
        let _ = Doc::from_text("p.ron", &text).map(|d| d.text());
    }

    /// A shipped level with a random stroke: what is written reads back as the edited level,
    /// and written again is the same text.
    #[test]
    fn any_stroke_on_a_shipped_level_reads_back(k in 0usize..11, x0 in 0i32..30, y0 in 0i32..20, x1 in 0i32..30, y1 in 0i32..20, brush in 0usize..8) {
        let files = shipped();
        let p = &files[k % files.len()];
        let text = std::fs::read_to_string(p).unwrap();
        let mut doc = Doc::from_text("s.ron", &text).unwrap();
        let b = [Brush::Tile('.'), Brush::Tile('#'), Brush::Room, Brush::Erase, Brush::Exit, Brush::Dark, Brush::Chest, Brush::Light][brush].clone();
        doc.paint(Rect::new((x0, y0), (x1, y1)), &b);
        let out = doc.text();
        proptest::prop_assert_eq!(parse("s.ron", &out), doc.level.clone());
        let mut again = Doc::from_text("s.ron", &out).unwrap();
        proptest::prop_assert_eq!(again.text(), out.clone());
        again.mark_saved(out);
    }
}

#[test] // issue 31: the feature inspector: a locked door with its key, a chest with its lock and loot, a trap's data, a light; a figure that arrives on an event
fn the_feature_inspector_sets_up_doors_chests_traps_lights_and_arrivals() {
    use doo_rules::level_edit::FeatureEdit as E;
    let data = data();
    let mut doc = made_level(&data);
    assert!(doc.toggle_mode());
    assert!(doc.paint(Rect::one(1, 1), &Brush::Chest));
    assert!(doc.paint(Rect::one(3, 5), &Brush::Trap));
    assert!(doc.paint(Rect::one(5, 5), &Brush::Light));
    let labels = |doc: &Doc, x, y| doc.features(x, y).iter().flat_map(|f| f.buttons.iter().map(|b| b.0.clone())).collect::<Vec<_>>();
    // The door: closed → open → locked, then a key made for it.
    assert_eq!(labels(&doc, 6, 3), ["Door: closed"]);
    assert!(doc.edit_feature(6, 3, E::DoorState));
    assert_eq!(doc.tile(6, 3), Some('/'));
    assert!(doc.edit_feature(6, 3, E::DoorState));
    assert_eq!(labels(&doc, 6, 3), ["Door: locked", "Key: none"]);
    assert!(doc.edit_feature(6, 3, E::Key));
    assert_eq!(labels(&doc, 6, 3), ["Door: locked", "Key: Key 1"]);
    assert_eq!(doc.level.keys.len(), 1);
    // The key lies nowhere yet: a problem, at the key.
    let p = problems("f.ron", &doc.text(), &doc.level, &data, &root());
    assert!(p.iter().any(|p| p.message.contains("is nowhere")), "{p:?}");
    // The chest (a potion in it, as the brush puts it down): locked, then its loot: the key first
    // (nobody has placed it), then the next item after the potion.
    assert!(doc.edit_feature(1, 1, E::ChestLock));
    assert!(doc.edit_feature(1, 1, E::LootAdd));
    assert!(doc.edit_feature(1, 1, E::LootAdd));
    assert!(labels(&doc, 1, 1).contains(&"Lock: locked".to_string()));
    let chest = doc.level.chests.iter().find(|c| c.pos.x == 1 && c.pos.y == 1).unwrap();
    assert_eq!(chest.items, ["potion_of_healing".to_string(), doc.level.keys[0].id.clone(), "bandages".into()]);
    // The trap: seen, 2d6, bleeding, rearms; the light: a lantern, 30 minutes more (at most its full 240).
    for e in [E::TrapHidden, E::TrapDamage, E::TrapCondition, E::TrapRearms] {
        assert!(doc.edit_feature(3, 5, e), "{e:?}");
    }
    let t = &doc.level.traps[0];
    assert_eq!((t.hidden, t.damage, t.condition.as_deref(), t.rearms), (false, Some((2, 6)), Some("bleeding"), true));
    assert!(!doc.edit_feature(3, 5, E::TrapOn), "a trap on floor is sprung by entering only");
    assert!(doc.edit_feature(5, 5, E::LightItem));
    assert!(doc.edit_feature(5, 5, E::LightMinutes(true)));
    assert_eq!(labels(&doc, 5, 5)[..2], ["Light: lantern".to_string(), "Burns 90 min: +".to_string()]);
    // The orc arrives on the level's event (none yet: nothing to arrive on).
    let orc = doc.figure_at(9, 3).unwrap();
    assert!(!doc.cycle_arrival(orc));
    assert!(doc.add_event(Rect::new((3, 1), (3, 5)), "The orc comes!"));
    assert!(doc.cycle_arrival(orc));
    assert_eq!(doc.arrival(orc), "on event event");
    let text = doc.text();
    assert!(text.contains("arrives: true") && text.contains("spawn("), "{text}");
    let left = problems("f.ron", &text, &doc.level, &data, &root());
    assert!(left.is_empty(), "{left:?}\n{text}");
    doo_rules::level_file::check("f.ron", &text, &data, &root()).unwrap();
    // Around again: from the start, and the event no longer spawns it.
    assert!(doc.cycle_arrival(orc));
    assert_eq!(doc.arrival(orc), "from the start");
    assert!(!doc.text().contains("spawn("));
    // Unlocking the door drops its key's lock; the key stays (it lies in the chest), and says so.
    assert!(doc.edit_feature(6, 3, E::DoorState));
    assert_eq!(doc.tile(6, 3), Some('S'));
    let p = problems("f.ron", &doc.text(), &doc.level, &data, &root());
    assert!(p.iter().any(|p| p.message.contains("opens no door or chest")), "{p:?}");
    // Every change is one undo.
    let n = doc.level.clone();
    assert!(doc.undo());
    assert_ne!(doc.level, n);
}

#[test] // issue 31: a side's goal besides its exits (rout, survive, defeat, none) and a new side, from the editor
fn goals_and_sides_are_set_in_the_editor() {
    use doo_rules::rules::goal::Goal;
    let data = data();
    let mut doc = made_level(&data);
    // The heroes win by their exit, the monsters by routing them (as the exit brush sets it).
    assert_eq!(doc.goal_line(0), "reach an exit (1 space)");
    assert_eq!(doc.goal_line(1), "rout heroes");
    let goals = |doc: &Doc| doc.level.victory.iter().filter(|v| v.side == "monsters").map(|v| v.goal.clone()).collect::<Vec<_>>();
    assert_eq!(goals(&doc), [Goal::Rout("heroes".into())]);
    assert!(doc.cycle_goal(1));
    assert_eq!(goals(&doc), [Goal::SurviveTurns(doo_rules::level_edit::SURVIVE_TURNS)]);
    let hero = doc.level.characters.iter().find(|c| c.side.as_deref() == Some("heroes")).and_then(|c| c.id.clone()).unwrap();
    assert!(doc.cycle_goal(1));
    assert_eq!(goals(&doc), [Goal::Defeat(hero)]);
    // Each is a level `validate` passes.
    let p = problems("g.ron", &doc.text(), &doc.level, &data, &root());
    assert!(p.is_empty(), "{p:?}");
    assert!(doc.cycle_goal(1));
    assert!(goals(&doc).is_empty());
    assert_eq!(doc.goal_line(1), "none");
    assert!(doc.cycle_goal(1));
    assert_eq!(goals(&doc), [Goal::Rout("heroes".into())]);
    // The heroes' exits stay whatever their other goal does.
    assert!(doc.cycle_goal(0));
    assert_eq!(doc.goal_line(0), "reach an exit (1 space), rout monsters");
    // A new side, AI-played; without figures it is a problem the editor shows.
    assert!(doc.add_side());
    assert_eq!(doc.level.sides.last().map(|s| (s.id.as_str(), s.control)), Some(("side", doo_rules::level_file::Control::Ai)));
    let p = problems("g.ron", &doc.text(), &doc.level, &data, &root());
    assert!(p.iter().any(|p| p.message.contains("side 'side'")), "{p:?}");
}

#[test] // issue 31: an event's trigger and deed cycled in the editor, each step an event `validate` accepts
fn event_triggers_and_deeds_are_cycled_in_the_editor() {
    use doo_rules::rules::story::{Action, Trigger};
    let data = data();
    let mut doc = made_level(&data);
    assert!(doc.add_event(Rect::new((3, 2), (3, 4)), "A draft."));
    let kind = |doc: &Doc| format!("{:?}", doc.level.events[0].when).split([' ', '(', '{']).next().unwrap().to_string();
    let clean = |doc: &Doc, what: &str| {
        let p = problems("e.ron", &doc.text(), &doc.level, &data, &root());
        assert!(p.is_empty(), "{what}: {p:?}\n{}", doc.text());
    };
    // A one-fight level: no item lies anywhere, no minute, no crisis beginning.
    let mut seen = vec![kind(&doc)];
    for _ in 0..5 {
        assert!(doc.cycle_trigger(0));
        clean(&doc, &kind(&doc));
        seen.push(kind(&doc));
    }
    assert_eq!(seen, ["Enters", "DoorOpens", "Falls", "Turn", "CrisisEnds", "Enters"]);
    assert!(matches!(doc.level.events[0].when, Trigger::Enters { area, .. } if area.from.x == 3 && area.to.y == 4), "its area comes back");
    // Deeds: win, lose, open the door, a potion, nothing; the story line stays.
    let deed = |doc: &Doc| {
        doc.level.events[0].then.iter().find(|a| !matches!(a, Action::Message(_))).map(|a| format!("{a:?}").split([' ', '(', '{']).next().unwrap().to_string())
    };
    let mut deeds = Vec::new();
    for _ in 0..5 {
        assert!(doc.cycle_deed(0));
        clean(&doc, &format!("{:?}", deed(&doc)));
        deeds.push(deed(&doc).unwrap_or_default());
    }
    assert_eq!(deeds, ["Win", "Lose", "Door", "Give", ""]);
    assert_eq!(doc.event_message(0), "A draft.");
    // A crawl with a chest: an item to take, the minute, a crisis beginning; start a crisis, reveal.
    assert!(doc.paint(Rect::one(1, 1), &Brush::Chest));
    let mut seen = Vec::new();
    for _ in 0..8 {
        assert!(doc.cycle_trigger(0));
        seen.push(kind(&doc));
    }
    assert_eq!(seen, ["DoorOpens", "ItemTaken", "Falls", "Turn", "Minute", "CrisisBegins", "CrisisEnds", "Enters"]);
    let mut deeds = Vec::new();
    for _ in 0..7 {
        assert!(doc.cycle_deed(0));
        clean(&doc, &format!("{:?}", deed(&doc)));
        deeds.push(deed(&doc).unwrap_or_default());
    }
    assert_eq!(deeds, ["Win", "Lose", "Door", "StartCrisis", "Reveal", "Give", ""]);
}

/// Issue 42: a click whose press and release fall in one frame is one click on one space (on
/// fbd0357 it was lost, and the next click painted a rectangle from it).
#[test]
fn a_click_is_a_click_however_short() {
    use doo_rules::level_edit::Stroke;
    let size = (12, 7);
    let mut s = Stroke::default();
    assert_eq!(s.frame(true, true, (3, 2), true, size), Some(((3, 2), (3, 2))), "press and release in one frame: one space");
    assert!(!s.active(), "nothing left over from it");
    assert_eq!(s.frame(true, false, (8, 5), true, size), None, "the next press begins its own stroke");
    assert_eq!(s.frame(false, true, (8, 5), true, size), Some(((8, 5), (8, 5))), "and paints its own space only");
    // A drag: press on (2, 2), release off the map: the nearest space ends it.
    assert_eq!(s.frame(true, false, (2, 2), true, size), None);
    assert_eq!(s.frame(false, false, (5, 4), true, size), None);
    assert_eq!(s.frame(false, true, (40, -3), false, size), Some(((2, 2), (11, 0))));
    // A press over a panel begins nothing; its release paints nothing.
    assert_eq!(s.frame(true, true, (1, 1), false, size), None);
    assert_eq!(s.frame(true, false, (1, 1), false, size), None);
    assert_eq!(s.frame(false, true, (1, 1), true, size), None);
}

/// Issue 42: every way out of a changed level asks first; a play-test asks only for a level
/// never saved (the editor keeps the level while it is played).
#[test]
fn every_way_out_of_a_changed_level_asks_and_a_recovery_copy_reads_back() {
    use doo_rules::level_edit::leave::{Leave, must_ask, question, read_recovery, recovery_text};
    for leave in [Leave::New, Leave::Open(3), Leave::Back, Leave::Quit] {
        assert!(must_ask(leave, true, true), "{leave:?} with unsaved edits asks");
        assert!(must_ask(leave, true, false), "{leave:?} of a level never saved asks");
        assert!(!must_ask(leave, false, true), "{leave:?} with nothing unsaved goes at once");
        let (text, labels) = question(leave, "crypt.ron");
        assert!(text.contains("crypt.ron") && text.contains("unsaved"), "{text}");
        assert!(labels[0].contains("Save") && labels[1].contains("[D]") && labels[2].contains("Cancel"), "{labels:?}");
    }
    assert!(must_ask(Leave::PlayTest, true, false), "a play-test of a level never saved asks");
    assert!(!must_ask(Leave::PlayTest, true, true), "a play-test of a saved level with edits plays them (the editor keeps them)");
    // The recovery copy: the file it was edited for, then the level's text, which reads back.
    let data = data();
    let doc = made_level(&data);
    let copy = recovery_text(Path::new("levels/my level.ron"), &doc.text());
    assert!(copy.starts_with("//"), "the header is a comment: the copy is a level file too");
    parse("copy", &copy);
    let (path, text) = read_recovery(&copy).expect("a recovery copy");
    assert_eq!(path, PathBuf::from("levels/my level.ron"));
    assert_eq!(text, doc.text());
    assert_eq!(read_recovery(&doc.text()), None, "a level file is not a recovery copy");
}
