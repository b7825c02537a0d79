//! Issue 46 (the form's last file-only parts): the actions of a `one_of`'s branches and of a
//! `choice`'s options edited in the event form as the event's own are (a branch's or option's
//! row steps into its list, `inside` rows step out), within the caps of docs/levels.md
//! ("Conditions and variables": 2 to 8 branches, 2 or 3 options, 16 actions in all, nested at
//! most 3 deep); every row of the shipped levels' events, nested ones too, stepped both ways to
//! a level `validate` accepts.

use doo_rules::data::{RuleData, parse_ron};
use doo_rules::level_edit::{Doc, Rect, RowKind, problems};
use doo_rules::level_file::Level;
use doo_rules::rules::story::EventDef;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &str) -> Level {
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    parse_ron(path, &text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The index of the n-th row `label` (in `part`, when given).
fn nth(doc: &Doc, k: usize, part: Option<&str>, label: &str, n: usize) -> usize {
    let rows = doc.event_form(k);
    rows.iter()
        .enumerate()
        .filter(|(_, r)| part.is_none_or(|p| r.part == p) && r.label == label)
        .nth(n)
        .map(|(i, _)| i)
        .unwrap_or_else(|| panic!("no row {part:?}/{label} #{n} in {rows:#?}"))
}

/// Steps the row forward until its value is `want`.
fn set(doc: &mut Doc, k: usize, part: &str, label: &str, want: &str) {
    for _ in 0..64 {
        let r = nth(doc, k, Some(part), label, 0);
        if doc.event_form(k)[r].value == want {
            return;
        }
        assert!(doc.event_step(k, r, 1, Rect::one(0, 0)), "{part}/{label} steps");
    }
    panic!("{part}/{label} never reached {want:?}: {:#?}", doc.event_form(k));
}

/// The row whose value starts with `value`, stepped.
fn press(doc: &mut Doc, k: usize, value: &str) {
    let r = doc.event_form(k).iter().position(|r| r.value.starts_with(value)).unwrap_or_else(|| panic!("no {value} in {:#?}", doc.event_form(k)));
    assert!(doc.event_step(k, r, 1, Rect::one(0, 0)), "{value}");
}

/// The n-th row `label` (a branch's or an option's `does`) stepped: the form shows its list.
fn enter(doc: &mut Doc, k: usize, label: &str, n: usize) {
    let r = nth(doc, k, None, label, n);
    assert!(doc.event_form(k)[r].value.ends_with("▸ edit"), "{:?}", doc.event_form(k)[r]);
    assert!(doc.event_step(k, r, 1, Rect::one(0, 0)));
}

fn add_action(doc: &mut Doc, k: usize, kind: &str) -> String {
    press(doc, k, "+ action");
    let n = doc.event_form(k).iter().filter(|r| r.label == "action").count();
    let part = format!("then {n}");
    set(doc, k, &part, "action", kind);
    part
}

fn validates(doc: &Doc, data: &RuleData, what: &str) -> Level {
    let text = doc.text();
    let back: Level = parse_ron("l.ron", &text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
    assert_eq!(back.events, doc.level.events, "{what}");
    let p = problems("l.ron", &text, &back, data, &root());
    assert!(p.is_empty(), "{what}: {p:#?}");
    back
}

/// A choice with two options, each doing something, and a `one_of` with two branches, made from
/// nothing with the form's steps (and a story line typed inside an option).
#[test]
fn nested_actions_are_built_with_the_form() {
    let data = RuleData::load(&root()).unwrap();
    let mut level = read("tests/levels/events/choice.ron");
    level.events.clear();
    let mut doc = Doc::new(level);
    assert!(doc.add_event(Rect::one(1, 1), "A bell."));
    let k = doc.level.events.len() - 1;
    assert!(doc.rename_event(k, "bell"));
    set(&mut doc, k, "when", "trigger", "crisis turn");
    add_action(&mut doc, k, "a choice for a side");
    // Option 1 ("Yes"): a story line typed in it, and the variable `rung` raised.
    enter(&mut doc, k, "does", 0);
    assert_eq!(doc.event_scope(k), "then 2 ▸ option 'Yes'");
    assert!(doc.event_form(k).iter().all(|r| r.part != "when"), "the event's own rows are not shown inside");
    press(&mut doc, k, "+ action");
    let a = nth(&doc, k, Some("then 1"), "action", 0);
    assert_eq!(doc.event_form(k)[a].action, Some(0));
    assert!(doc.set_action_text(k, 0, "It rings."));
    assert_eq!(doc.action_text(k, 0).as_deref(), Some("It rings."));
    add_action(&mut doc, k, "add to a variable");
    set(&mut doc, k, "then 2", "variable", "rung");
    press(&mut doc, k, "◂ back to the event");
    assert_eq!(doc.event_scope(k), "");
    // Option 2 ("No"): the heroes earn 1 CP.
    enter(&mut doc, k, "does", 1);
    add_action(&mut doc, k, "award CP");
    set(&mut doc, k, "then 1", "heroes", "side heroes");
    press(&mut doc, k, "◂ back to the event");
    // A one_of of two branches: the first wins for the heroes, the second does nothing.
    add_action(&mut doc, k, "one of, drawn");
    enter(&mut doc, k, "branch 1", 0);
    set(&mut doc, k, "then 1", "action", "a side wins");
    press(&mut doc, k, "◂ back to the event");
    enter(&mut doc, k, "branch 2", 0);
    press(&mut doc, k, "remove");
    assert_eq!(doc.event_scope(k), "then 3 ▸ branch 2", "a branch may do nothing");
    press(&mut doc, k, "◂ back to the event");
    let want: EventDef = parse_ron(
        "want",
        r#"(id: "bell", when: turn(2), then: [message("A bell."),
            choice(side: "heroes", prompt: "", options: [
                (label: "Yes", then: [message("It rings."), add_var(name: "rung", by: 1)]),
                (label: "No", then: [award_cp(who: side("heroes"), cp: 1)]),
            ]),
            one_of([[win("heroes")], []]),
        ])"#,
    )
    .unwrap();
    let back = validates(&doc, &data, "built");
    assert_eq!(back.events, vec![want]);
    // The branch and option rows show what they do.
    let rows = doc.event_form(k);
    assert!(rows.iter().any(|r| r.label == "branch 2" && r.value == "nothing ▸ edit"), "{rows:#?}");
    assert!(rows.iter().any(|r| r.label == "does" && r.value.starts_with("2 actions")), "{rows:#?}");
}

/// The caps (docs/levels.md, "Conditions and variables"): a third level of lists holds no
/// `one_of` or choice (nested at most 3 deep); a branch is removed from inside while the
/// `one_of` keeps 2; 16 actions in all.
#[test]
fn nested_steps_keep_the_caps() {
    let data = RuleData::load(&root()).unwrap();
    let mut level = read("tests/levels/events/bells.ron");
    level.events.clear();
    let mut doc = Doc::new(level);
    assert!(doc.add_event(Rect::one(1, 1), "Fate."));
    let k = 0;
    add_action(&mut doc, k, "one of, drawn");
    set(&mut doc, k, "then 2", "branches", "3");
    enter(&mut doc, k, "branch 3", 0);
    set(&mut doc, k, "then 1", "action", "one of, drawn");
    enter(&mut doc, k, "branch 1", 0);
    assert_eq!(doc.event_scope(k), "then 2 ▸ branch 3 ▸ then 1 ▸ branch 1");
    // Depth 3: every kind but one_of and choice, both ways.
    let r = nth(&doc, k, Some("then 1"), "action", 0);
    let mut kinds = vec![];
    for dir in [1, -1] {
        for _ in 0..40 {
            assert!(doc.event_step(k, r, dir, Rect::one(0, 0)));
            kinds.push(doc.event_form(k)[r].value.clone());
        }
    }
    assert!(kinds.iter().any(|v| v == "award CP"), "{kinds:?}");
    assert!(!kinds.iter().any(|v| v == "one of, drawn" || v == "a choice for a side"), "{kinds:?}");
    validates(&doc, &data, "depth 3");
    // Back one list, then to the event; the third branch removed from inside it.
    press(&mut doc, k, "◂ back to then 2 ▸ branch 3");
    assert_eq!(doc.event_scope(k), "then 2 ▸ branch 3");
    press(&mut doc, k, "◂ back to the event");
    enter(&mut doc, k, "branch 3", 0);
    press(&mut doc, k, "remove this branch");
    assert_eq!(doc.event_scope(k), "");
    assert!(matches!(&doc.level.events[k].then[1], doo_rules::rules::story::Action::OneOf(b) if b.len() == 2));
    enter(&mut doc, k, "branch 1", 0);
    assert!(!doc.event_form(k).iter().any(|r| r.value.starts_with("remove this")), "2 branches are kept");
    // 16 actions in all: the add row goes when they are reached, nested ones counted.
    while doc.event_form(k).iter().any(|r| r.value == "+ action") {
        press(&mut doc, k, "+ action");
    }
    assert_eq!(doo_rules::rules::event_logic::actions_problem(&doc.level.events[k]), None);
    let r = nth(&doc, k, Some("then 1"), "action", 0);
    for _ in 0..40 {
        doc.event_step(k, r, 1, Rect::one(0, 0));
        assert_ne!(doc.event_form(k)[r].value, "one of, drawn", "a one_of's 2 more actions would be 17");
    }
    validates(&doc, &data, "16 actions");
}

/// Every row of event k's form in its current list, stepped both ways on a copy and checked;
/// a branch's or option's row stepped into, and its rows walked the same (to the third level).
fn walk(doc: &Doc, k: usize, data: &RuleData, what: &str, steps: &mut usize, lists: &mut usize, bad: &mut Vec<String>) {
    *lists += 1;
    let rows = doc.event_form(k);
    for (r, row) in rows.iter().enumerate() {
        if matches!(row.kind, RowKind::Shown | RowKind::Text) || row.value.starts_with('◂') {
            continue;
        }
        if row.value.ends_with("▸ edit") {
            let mut inner = doc.clone();
            assert!(inner.event_step(k, r, 1, Rect::one(0, 0)));
            let at = format!("{what} ▸ {}", inner.event_scope(k));
            assert!(inner.event_form(k).iter().any(|r| r.part == "inside"), "{at}");
            walk(&inner, k, data, &at, steps, lists, bad);
            continue;
        }
        for dir in [1, -1] {
            let mut d = doc.clone();
            d.event_step(k, r, dir, Rect::new((1, 1), (2, 1)));
            let text = d.text();
            let back: Level = parse_ron("l.ron", &text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
            assert_eq!(back.events, d.level.events, "{what}");
            let p = problems("l.ron", &text, &back, data, &root());
            if !p.is_empty() {
                bad.push(format!("{what}: row {row:?} dir {dir}: {:?}", p.iter().map(|p| &p.message).collect::<Vec<_>>()));
            }
            *steps += 1;
        }
    }
}

/// The shipped levels' events (`levels/`, the bell chapel's among them) and the nested ones of
/// the events' test levels (a choice, a one_of), every row stepped both ways; on the bell
/// chapel, an event nested three deep (a one_of whose branch holds a choice) made by steps and
/// walked too.
#[test]
fn every_row_of_the_shipped_events_nested_ones_too_steps_to_a_valid_level() {
    let data = RuleData::load(&root()).unwrap();
    let mut files: Vec<String> = std::fs::read_dir(root().join("levels"))
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".ron"))
        .map(|n| format!("levels/{n}"))
        .collect();
    files.sort();
    files.extend(["tests/levels/events/choice.ron".into(), "tests/levels/events/bells.ron".into()]);
    let (mut steps, mut lists, mut bad) = (0, 0, vec![]);
    for file in &files {
        let level = read(file);
        for k in 0..level.events.len() {
            walk(&Doc::new(level.clone()), k, &data, &format!("{file} event {}", level.events[k].id), &mut steps, &mut lists, &mut bad);
        }
    }
    let mut doc = Doc::new(read("levels/the_bell_chapel.ron"));
    assert!(doc.add_event(Rect::one(2, 2), "Deep."));
    let k = doc.level.events.len() - 1;
    add_action(&mut doc, k, "one of, drawn");
    enter(&mut doc, k, "branch 1", 0);
    add_action(&mut doc, k, "a choice for a side");
    enter(&mut doc, k, "does", 0);
    add_action(&mut doc, k, "a side wins");
    press(&mut doc, k, "◂ back to the event");
    validates(&doc, &data, "deep");
    let before = lists;
    walk(&doc, k, &data, "bell chapel deep", &mut steps, &mut lists, &mut bad);
    assert_eq!(lists - before, 5, "the event's list, 2 branches, the choice's 2 options in the first");
    assert!(bad.is_empty(), "{} of {steps} steps left problems:\n{}", bad.len(), bad.join("\n"));
    assert!(steps > 1000, "{steps} steps");
}
