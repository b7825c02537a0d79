//! The level editor writes RON a person would write (issue 46): one field of a hand-formatted
//! entry changed is one line of the file changed, the entry's own layout kept; a new or changed
//! entry too long for a line comes one field per line (no line over 100 characters for a hero);
//! no field that only says its default is written, at any depth; whatever is written reads
//! back as the level edited, and an unchanged level is its own bytes.

use doo_rules::data::{RuleData, parse_ron};
use doo_rules::level_edit::{Brush, Doc, Rect, new_level, write_new};
use doo_rules::level_file::Level;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(name: &str) -> String {
    std::fs::read_to_string(root().join(name)).unwrap()
}

fn parse(name: &str, text: &str) -> Level {
    parse_ron(name, text).unwrap_or_else(|e| panic!("{name}: the written level reads back: {e}\n{text}"))
}

/// Lines of `new` not in `old`, and lines of `old` not in `new` (a diff's size, near enough).
fn diff(old: &str, new: &str) -> (Vec<String>, Vec<String>) {
    let (o, n): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    (n.iter().filter(|l| !o.contains(l)).map(|l| l.to_string()).collect(), o.iter().filter(|l| !n.contains(l)).map(|l| l.to_string()).collect())
}

/// The shipped levels, each with the text it is read from.
fn shipped() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in ["levels", "tests/levels/events", "tests/levels/crawl", "tests/levels/orders"] {
        let mut files: Vec<PathBuf> =
            std::fs::read_dir(root().join(dir)).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect();
        files.sort();
        out.extend(files.into_iter().map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap())));
    }
    assert!(out.len() >= 14, "{}", out.len());
    out
}

/// Issue 46: the figures of the Bell Chapel and the Old King are written over several lines by
/// hand; their starting HP changed in the editor is one line of the file, the rest of the entry
/// as its author wrote it; set back to full, the file is its own bytes again.
#[test]
fn one_field_of_a_multi_line_figure_changed_is_one_line_of_the_file() {
    for file in ["levels/the_bell_chapel.ron", "levels/old_king.ron"] {
        let text = read(file);
        let doc0 = Doc::from_text(file, &text).unwrap();
        let multi: Vec<usize> = (0..doc0.level.characters.len()).filter(|&i| doc0.level.characters[i].template.is_none()).collect();
        assert!(multi.len() >= 3, "{file}: the heroes written by hand");
        for i in multi {
            let mut doc = Doc::from_text(file, &text).unwrap();
            assert!(doc.add_hp(i, -2, 10));
            let saved = doc.text();
            assert_eq!(parse(file, &saved), doc.level, "{file} #{i}: reads back as edited");
            let (added, gone) = diff(&text, &saved);
            assert!(added.len() == 1 && gone.len() <= 1, "{file} #{i}: one line: +{added:#?} -{gone:#?}");
            assert!(added[0].contains("hp: 8") && added[0].chars().count() <= 100, "{added:?}");
            // Saved, then back to full: the hp goes, and with it the line it was on.
            doc.mark_saved(saved.clone());
            assert!(doc.add_hp(i, 2, 10));
            assert_eq!(doc.text(), text, "{file} #{i}: back to full, the file as it was");
            // Changed again where it stands: one line.
            assert!(doc.add_hp(i, -3, 10));
            let again = doc.text();
            let (added, gone) = diff(&saved, &again);
            assert_eq!((added.len(), gone.len()), (1, 1), "{file} #{i}: {added:?} {gone:?}");
            assert!(added[0].contains("hp: 7"), "{added:?}");
        }
    }
}

/// Issue 46: an event of the Bell Chapel written over several lines, its story line typed
/// again in the editor: one line of the file changes (the action after it keeps its
/// `Some("heroes")` as written).
#[test]
fn a_multi_line_events_message_retyped_is_one_line_of_the_file() {
    let file = "levels/the_bell_chapel.ron";
    let text = read(file);
    let mut doc = Doc::from_text(file, &text).unwrap();
    let bell = doc.level.events.iter().position(|e| e.id == "bell").unwrap();
    assert!(doc.set_event_message(bell, "The bell tolls."));
    let saved = doc.text();
    assert_eq!(parse(file, &saved), doc.level);
    let (added, gone) = diff(&text, &saved);
    assert_eq!((added.len(), gone.len()), (1, 1), "+{added:#?} -{gone:#?}");
    assert_eq!(added[0].trim(), "message(\"The bell tolls.\"),");
}

/// Issue 46: a hero put down in the editor (a campaign hero's entry, 17 skills and all) is
/// written one field per line, no line over 100 characters, without `size: medium` or any
/// other value he has anyway; it reads back as placed.
#[test]
fn a_hero_is_written_one_field_per_line_within_100_characters() {
    let data = RuleData::load(&root()).unwrap();
    let mut doc = Doc::new(new_level(12, 7));
    assert!(doc.paint(Rect::new((0, 0), (6, 6)), &Brush::Room));
    let mut n = 0;
    for (i, package) in ["warrior", "rogue", "ranger", "priest"].iter().enumerate() {
        let hero = doo_rules::campaign::sample_hero("Lunk", package, &data).expect("a sample hero");
        let (sheet, _) = hero.sheet(&data.heroes).unwrap();
        let entry = hero.entry(&sheet, "heroes", doo_rules::rules::Pos::new(0, 0), &data);
        assert_eq!(entry.size, Some(doo_rules::rules::fighter::Size::Medium));
        assert!(doc.paint(Rect::one(1 + i as i32, 3), &Brush::Figure(Box::new(entry))));
        n += 1;
    }
    let text = doc.text();
    assert_eq!(parse("h.ron", &text), doc.level);
    for line in text.lines() {
        assert!(line.chars().count() <= 100, "{} characters: {line}", line.chars().count());
    }
    assert_eq!(text.matches("\n            hero: true,\n").count(), n, "one field per line:\n{text}");
    assert!(!text.contains("size:") && !text.contains("Some("), "{text}");
    // Saved and read again, written again: the same bytes.
    assert_eq!(Doc::from_text("h.ron", &text).unwrap().text(), text);
}

/// Issue 46: no field that only says its default is written, at any depth: a side played by a
/// person, an unaware encounter, a plain door, an empty chest, a trap in a space, hidden, that
/// does not rearm, an event's `who: any`, an `orders` action's `to: None`.
#[test]
fn no_field_at_its_default_is_written_anywhere() {
    // Walls are `W` here (a raw string cannot hold `"#`).
    let text = &r#"Level(version: 1, name: "d", mode: exploration,
        floors: [["WWWWW", "W...W", "W.+.W", "W...W", "WWWWW"]],
        sides: [(id: "heroes", name: None, control: human, player: None), (id: "monsters", control: ai)],
        characters: [(id: "h", side: "heroes", pos: (1, 1), stats: (brawn: 9, finesse: 7, savvy: 5, nerve: 6)),
            (template: "goblin", id: "g", side: "monsters", pos: (3, 3))],
        encounters: [(id: "e", members: ["g"], awareness: unaware, non_hostile: false, arrives: false, trades: [])],
        doors: [(pos: (2, 2), secret: false)],
        chests: [(id: "c", pos: (3, 1), items: [])],
        traps: [(id: "t", pos: (1, 3), on: space, hidden: true, rearms: false)],
        events: [(id: "x", when: falls(who: any), repeat: false, then: [orders(encounter: "e", to: None), reveal(area: (from: (1, 1), to: (2, 2)), side: None)])],
    )"#
    .replace('W', "#");
    let level = parse("d.ron", text);
    let out = write_new(&level);
    assert_eq!(parse("d.ron", &out), level, "{out}");
    for noise in [
        "name: None",
        "control: human",
        "player:",
        "awareness:",
        "non_hostile:",
        "arrives:",
        "trades:",
        "secret:",
        "items: []",
        "on: space",
        "hidden:",
        "rearms:",
        "who:",
        "repeat:",
        "to: None",
        "side: None",
    ] {
        assert!(!out.contains(noise), "`{noise}` is a default:\n{out}");
    }
    assert!(out.contains("when: falls()") && out.contains("orders(encounter: \"e\")"), "{out}");
    // And in an edit of that file: the changed entry loses its defaults too.
    let mut doc = Doc::from_text("d.ron", text).unwrap();
    assert!(doc.cycle_control(0));
    let edited = doc.text();
    assert_eq!(parse("d.ron", &edited), doc.level);
    assert!(edited.contains("(id: \"heroes\", control: ai)"), "{edited}");
}

/// Issue 46: every shipped level read and saved unedited is its own bytes; with one figure's
/// HP changed, the file reads back as edited, saving again changes nothing, and the lines that
/// changed are at most 100 characters unless the author's line already was longer.
#[test]
fn every_shipped_level_edited_reads_back_and_keeps_the_rest() {
    for (name, text) in shipped() {
        let doc = Doc::from_text(&name, &text).unwrap();
        assert_eq!(doc.text(), text, "{name}: unedited, its own bytes");
        let long_before = text.lines().filter(|l| l.chars().count() > 100).count();
        for i in 0..doc.level.characters.len() {
            let mut doc = Doc::from_text(&name, &text).unwrap();
            if !doc.add_hp(i, -1, 6) {
                continue;
            }
            let saved = doc.text();
            assert_eq!(parse(&name, &saved), doc.level, "{name} #{i}");
            assert_eq!(Doc::from_text(&name, &saved).unwrap().text(), saved, "{name} #{i}: idempotent");
            let (added, gone) = diff(&text, &saved);
            assert!(added.len() <= 12 && gone.len() <= 1, "{name} #{i}: +{added:#?} -{gone:#?}");
            let long_after = saved.lines().filter(|l| l.chars().count() > 100).count();
            assert!(long_after <= long_before, "{name} #{i}: no new line over 100 characters: {added:#?}");
        }
        // Each event's story line retyped, each figure's side changed: read back, merged (never
        // written anew: every comment of the file is kept).
        let comments: Vec<&str> = text.lines().filter_map(|l| l.find("//").map(|k| l[k..].trim())).collect();
        let edits = doc.level.events.len() + doc.level.characters.len();
        for k in 0..edits {
            let mut doc = Doc::from_text(&name, &text).unwrap();
            let edited = match k.checked_sub(doc.level.events.len()) {
                None => doc.set_event_message(k, "Retyped."),
                Some(i) => doc.cycle_side(i),
            };
            if !edited {
                continue;
            }
            let saved = doc.text();
            assert_eq!(parse(&name, &saved), doc.level, "{name} edit {k}");
            for c in &comments {
                assert!(saved.contains(c), "{name} edit {k}: the comment `{c}` is kept");
            }
            let (added, gone) = diff(&text, &saved);
            assert!(gone.len() <= 2, "{name} edit {k}: +{added:#?} -{gone:#?}");
        }
    }
}

/// Issue 46: the writer's new work (defaults learnt per kind of field, entries broken, what is
/// merged read back before it is kept) stays within the editor's second on every file of the
/// hostile corpus (issue 15's files), a stroke painted and the level written and checked.
#[test]
fn the_writer_stays_fast_on_the_hostile_corpus() {
    let data = RuleData::load(&root()).unwrap();
    let mut slowest = (std::time::Duration::ZERO, String::new());
    for e in std::fs::read_dir(root().join("tests/hostile")).unwrap() {
        let p = e.unwrap().path();
        let name = p.display().to_string();
        let Ok(text) = doo_rules::data::read_text(&p, doo_rules::data::MAX_FILE_BYTES) else { continue };
        let start = std::time::Instant::now();
        let Ok(mut doc) = Doc::from_text(&name, &text) else { continue };
        doc.paint(Rect::new((0, 0), (2, 2)), &Brush::Room);
        let out = doc.text();
        if doc.dirty() {
            assert_eq!(parse(&name, &out), doc.level, "{name}");
        }
        let _ = doo_rules::level_edit::problems(&name, &out, &doc.level, &data, &root());
        let took = start.elapsed();
        if took > slowest.0 {
            slowest = (took, name);
        }
    }
    eprintln!("slowest: {slowest:?}");
    assert!(slowest.0 < std::time::Duration::from_secs(1), "{slowest:?}");
}
