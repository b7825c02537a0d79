//! Issue 46 ("every field of a figure"): a figure's skills and ranks and his encounter's
//! trades (R-EXP-16) edited in the figure form, each step a level that reads back and
//! validates, one undo step each.

use doo_rules::data::{RuleData, parse_ron};
use doo_rules::level_edit::{Doc, FigureLists, problems};
use doo_rules::level_file::Level;
use doo_rules::rules::profile::Rank;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

const LEVEL: &str = include_str!("level_edit_tools.ron");

fn row(doc: &Doc, k: usize, label: &str) -> usize {
    doc.figure_form(k).iter().position(|r| r.label == label).unwrap_or_else(|| panic!("no row {label}: {:#?}", doc.figure_form(k)))
}

fn add_row(doc: &Doc, k: usize, value: &str) -> usize {
    doc.figure_form(k).iter().position(|r| r.value == value).unwrap_or_else(|| panic!("no {value} row"))
}

fn valid(doc: &Doc, data: &RuleData) -> Level {
    let text = doc.text();
    let level: Level = parse_ron("f.ron", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(level, doc.level);
    let found = problems("f.ron", &text, &level, data, &root());
    assert!(found.is_empty(), "{found:#?}\n{text}");
    level
}

#[test]
fn skills_and_ranks_are_stepped_added_and_removed() {
    let data = RuleData::load(&root()).unwrap();
    let lists = FigureLists::new(&data, &["goblin".into(), "orc".into()], &[]);
    let mut doc = Doc::from_text("f.ron", LEVEL).unwrap();
    let dara = doc.level.characters.iter().position(|c| c.id.as_deref() == Some("dara")).unwrap();
    let skills = |doc: &Doc| doc.level.characters[dara].skills.clone().unwrap_or_default();
    assert_eq!(skills(&doc).get("knives"), Some(&Rank::Apprentice));
    // The rank one up: journeyman.
    assert!(doc.figure_step(dara, row(&doc, dara, "rank"), 1, &lists));
    assert_eq!(skills(&doc).get("knives"), Some(&Rank::Journeyman));
    valid(&doc, &data);
    // A second skill, the first of the game's he lacks, at apprentice; then stepped to another.
    assert!(doc.figure_step(dara, add_row(&doc, dara, "+ skill"), 1, &lists));
    assert_eq!(skills(&doc).len(), 2);
    let added: Vec<String> = skills(&doc).keys().filter(|k| *k != "knives").cloned().collect();
    assert!(lists.skills.contains(&added[0]), "{added:?}");
    let i = skills(&doc).keys().position(|k| *k == added[0]).unwrap();
    assert!(doc.figure_step(dara, row(&doc, dara, &format!("skill {}", i + 1)), 1, &lists));
    assert!(!skills(&doc).contains_key(&added[0]) && skills(&doc).len() == 2, "{:?}", skills(&doc));
    valid(&doc, &data);
    // Removed: back to knives alone; one undo puts the second back.
    let remove = doc.figure_form(dara).iter().enumerate().filter(|(_, r)| r.value == "remove").map(|(j, _)| j).last().unwrap();
    assert!(doc.figure_step(dara, remove, 1, &lists));
    assert_eq!(skills(&doc).len(), 1);
    assert!(doc.undo());
    assert_eq!(skills(&doc).len(), 2);
}

#[test]
fn an_encounters_trades_are_made_in_the_figure_form() {
    // R-EXP-16: a trade line gives an item for others, once or again.
    let data = RuleData::load(&root()).unwrap();
    let lists = FigureLists::new(&data, &["goblin".into(), "orc".into()], &[]);
    let mut doc = Doc::from_text("f.ron", LEVEL).unwrap();
    let gob = doc.level.characters.iter().position(|c| c.id.as_deref() == Some("gob")).unwrap();
    let trades = |doc: &Doc| doc.level.encounters.iter().find(|e| e.id == "pair").unwrap().trades.clone();
    assert!(trades(&doc).is_empty());
    // R-CP-16: only a non-hostile encounter trades: no line is offered until it is one.
    assert!(doc.figure_form(gob).iter().all(|r| r.value != "+ trade"));
    assert!(doc.figure_step(gob, row(&doc, gob, "non-hostile"), 1, &lists));
    assert!(doc.figure_step(gob, add_row(&doc, gob, "+ trade"), 1, &lists));
    assert_eq!(trades(&doc).len(), 1);
    assert_eq!((trades(&doc)[0].gives.as_str(), trades(&doc)[0].wants.len(), trades(&doc)[0].repeat), (lists.items[0].as_str(), 1, false));
    valid(&doc, &data);
    assert!(doc.figure_step(gob, row(&doc, gob, "trade 1 gives"), 1, &lists));
    assert_eq!(trades(&doc)[0].gives, lists.items[1]);
    assert!(doc.figure_step(gob, row(&doc, gob, "for"), -1, &lists));
    assert_eq!(trades(&doc)[0].wants, vec![lists.items[0].clone()]);
    assert!(doc.figure_step(gob, row(&doc, gob, "again"), 1, &lists));
    assert!(trades(&doc)[0].repeat);
    let level = valid(&doc, &data);
    assert!(doc.text().contains("trades:"), "{}", doc.text());
    assert_eq!(level.encounters.iter().find(|e| e.id == "pair").unwrap().trades.len(), 1);
    let remove = doc.figure_form(gob).iter().enumerate().filter(|(_, r)| r.value == "remove").map(|(j, _)| j).last().unwrap();
    assert!(doc.figure_step(gob, remove, 1, &lists));
    assert!(trades(&doc).is_empty());
}

/// Issue 46, every field of a figure: posture, surprise, mook, doors, a crossbow's load,
/// ammunition, free steps and sprite are rows of the form, each stepped (or typed) into a level
/// that reads back and validates, and stepped back to unset (nothing written); a caster's
/// spells are added, stepped through the game's and removed; one undo step each.
#[test]
fn posture_surprise_mook_doors_load_ammunition_steps_sprite_and_spells_are_rows() {
    let data = RuleData::load(&root()).unwrap();
    let lists = FigureLists::new(&data, &["goblin".into(), "orc".into()], &[]);
    let text = LEVEL.replace("weapon: \"dagger\")", "weapon: \"dagger\", caster: arcane)");
    let mut doc = Doc::from_text("f.ron", &text).unwrap();
    let k = |doc: &Doc, id: &str| doc.level.characters.iter().position(|c| c.id.as_deref() == Some(id)).unwrap();
    let (dara, gob) = (k(&doc, "dara"), k(&doc, "gob"));
    let value = |doc: &Doc, k: usize, label: &str| doc.figure_form(k)[row(doc, k, label)].value.clone();
    // Posture: standing (unset), then sitting; a goblin's mook and ammunition are his template's.
    assert_eq!(value(&doc, gob, "posture"), "standing");
    assert!(doc.figure_step(gob, row(&doc, gob, "posture"), 1, &lists));
    assert_eq!(doc.level.characters[gob].posture, Some(doo_rules::rules::profile::Posture::Sitting));
    assert_eq!(value(&doc, gob, "mook"), "the template's");
    assert!(doc.figure_step(gob, row(&doc, gob, "mook"), 1, &lists));
    assert_eq!(doc.level.characters[gob].mook, Some(true));
    assert!(doc.figure_step(gob, row(&doc, gob, "surprised"), 1, &lists));
    assert_eq!(doc.level.characters[gob].surprised, Some(true));
    assert!(doc.figure_step(gob, row(&doc, gob, "opens doors"), 1, &lists));
    assert_eq!(doc.level.characters[gob].opens_doors, Some(false), "R-EXP-11: an animal opens no door");
    assert!(doc.figure_step(gob, row(&doc, gob, "crossbow loaded"), 1, &lists));
    assert_eq!(doc.level.characters[gob].loaded, Some(false), "R-RNG-8: a crossbow unloaded at the start");
    assert_eq!(value(&doc, gob, "ammunition"), "the template's");
    for _ in 0..3 {
        assert!(doc.figure_step(gob, row(&doc, gob, "ammunition"), 1, &lists));
    }
    assert_eq!(doc.level.characters[gob].ammo, Some(3));
    // Free steps typed; a word is refused and changes nothing.
    let steps = row(&doc, gob, "free steps");
    assert!(doc.set_figure_text(gob, steps, "2"));
    assert_eq!(doc.level.characters[gob].free_steps, Some(2));
    assert!(!doc.set_figure_text(gob, steps, "two"));
    assert_eq!(doc.figure_text(gob, steps), "2");
    let sprite = row(&doc, gob, "sprite");
    assert!(doc.set_figure_text(gob, sprite, "art/figures.png"));
    assert_eq!(doc.level.characters[gob].sprite.as_deref(), Some("art/figures.png"));
    valid(&doc, &data);
    // Each stepped back: nothing of it is written.
    assert!(doc.figure_step(gob, row(&doc, gob, "posture"), -1, &lists));
    assert!(doc.figure_step(gob, row(&doc, gob, "mook"), -1, &lists));
    assert!(doc.figure_step(gob, row(&doc, gob, "surprised"), 1, &lists));
    assert!(doc.figure_step(gob, row(&doc, gob, "opens doors"), 1, &lists));
    assert!(doc.figure_step(gob, row(&doc, gob, "crossbow loaded"), 1, &lists));
    for _ in 0..4 {
        assert!(doc.figure_step(gob, row(&doc, gob, "ammunition"), -1, &lists));
    }
    assert!(doc.set_figure_text(gob, steps, ""));
    assert!(doc.set_figure_text(gob, sprite, ""));
    let written = doo_rules::level_edit::write_new(&doc.level);
    let line = written.lines().find(|l| l.contains("id: \"gob\"")).unwrap();
    for field in ["posture", "mook", "surprised", "opens_doors", "loaded", "ammo", "free_steps", "sprite"] {
        assert!(!line.contains(field), "{field} unset is not written: {line}");
    }
    // Dara, written out in full with a dagger: no crossbow row (R-RNG-8); a mook or not.
    assert!(!doc.figure_form(dara).iter().any(|r| r.label == "crossbow loaded"));
    assert_eq!(value(&doc, dara, "mook"), "no");
    assert!(doc.figure_step(dara, row(&doc, dara, "mook"), 1, &lists));
    assert_eq!((value(&doc, dara, "mook"), doc.level.characters[dara].mook), ("yes".to_string(), Some(true)));
    assert!(doc.figure_step(dara, row(&doc, dara, "mook"), 1, &lists));
    assert_eq!(doc.level.characters[dara].mook, None);
    // A non-caster has no spell row; the caster adds one, steps it, removes it; undo puts it back.
    assert!(!doc.figure_form(gob).iter().any(|r| r.value == "+ spell"));
    assert!(doc.figure_step(dara, add_row(&doc, dara, "+ spell"), 1, &lists));
    let first = doc.level.characters[dara].spells.clone().unwrap();
    assert_eq!(first.len(), 1);
    assert!(lists.spells.contains(&first[0]));
    assert!(doc.figure_step(dara, row(&doc, dara, "spell 1"), 1, &lists));
    assert_ne!(doc.level.characters[dara].spells.clone().unwrap(), first, "stepped to the next of the game's spells");
    let spells_before = doc.level.characters[dara].spells.clone();
    let remove = row(&doc, dara, "spell 1") + 1;
    assert_eq!(doc.figure_form(dara)[remove].value, "remove");
    assert!(doc.figure_step(dara, remove, 1, &lists));
    assert_eq!(doc.level.characters[dara].spells, None);
    assert!(doc.undo());
    assert_eq!(doc.level.characters[dara].spells, spells_before);
}
