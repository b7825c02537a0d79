//! The level editor's event form (issue 46): the level's variables made, valued, renamed and
//! removed through the form's "vars" rows and `Doc::add_var`, as the window does, ending in
//! the saved text; and a row whose value names what the level lacks flagged `bad` (the window
//! draws it red), as `validate` names it on the problems line.

use doo_rules::data::{RuleData, parse_ron};
use doo_rules::level_edit::{Doc, IdKind, Rect, Row, RowKind, problems};
use doo_rules::level_file::Level;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn bells() -> Level {
    let text = std::fs::read_to_string(root().join("tests/levels/events/bells.ron")).unwrap();
    parse_ron("bells.ron", &text).unwrap()
}

/// The rows of the k-th event's form in `part` labelled `label`, with their indices.
fn rows_of(doc: &Doc, k: usize, part: &str, label: &str) -> Vec<(usize, Row)> {
    doc.event_form(k).into_iter().enumerate().filter(|(_, r)| r.part == part && r.label == label).collect()
}

/// The index of the "vars" row of variable `name`'s `label` (its name row, then its others).
fn var_row(doc: &Doc, k: usize, name: &str, label: &str) -> usize {
    let rows = doc.event_form(k);
    let at = rows.iter().position(|r| r.part == "vars" && r.label == "variable" && r.value == name).unwrap_or_else(|| panic!("no variable {name}: {rows:#?}"));
    let found = rows[at..].iter().position(|r| r.part == "vars" && r.label == label).map(|i| at + i);
    found.filter(|&i| !rows[at + 1..=i].iter().any(|r| r.label == "variable")).unwrap_or_else(|| panic!("no {label} row for {name}: {rows:#?}"))
}

/// The row after variable `name`'s that removes it, if it has one (it has none while used).
fn remove_row(doc: &Doc, k: usize, name: &str) -> Option<usize> {
    let rows = doc.event_form(k);
    let at = var_row(doc, k, name, "starts at");
    (rows.get(at + 1).is_some_and(|r| r.part == "vars" && r.kind == RowKind::Remove)).then_some(at + 1)
}

/// Issue 46 ("level variables/counters"): a designer adds a variable with the form's
/// "+ variable" (a name typed), steps its starting value, renames it wherever an event names
/// it, cannot remove it while an event uses it, and removes an unused one; each ends up in the
/// saved level's text, which `validate` accepts.
#[test]
fn a_variable_is_added_valued_renamed_and_removed_in_the_event_form() {
    let mut bare = bells();
    bare.events.clear();
    bare.vars.clear();
    let mut doc = Doc::new(bare);
    assert!(doc.add_event(Rect::one(1, 1), "The hall."));
    let k = 0;
    // The "+ variable" row is typed: `event_form_var` tells the window so.
    let add = doc.event_form(k).iter().position(|r| r.part == "vars" && r.value == "+ variable").expect("a + variable row");
    assert_eq!(doc.event_form(k)[add].kind, RowKind::Text);
    assert_eq!(doc.event_form_var(k, add), Some(None));
    assert!(!doc.event_step(k, add, 1, Rect::one(0, 0)), "a typed row is not stepped");
    assert_eq!(doc.add_var("alarm"), Ok(()));
    assert!(doc.add_var("alarm").unwrap_err().contains("already"), "a name is taken once");
    assert!(doc.add_var("two words").is_err(), "a variable's name is an id");
    assert!(doc.add_var("").is_err());
    assert_eq!(doc.level.vars.get("alarm"), Some(&0));
    // Its name row is typed too (a rename), its starting value stepped with - and +.
    let name = var_row(&doc, k, "alarm", "variable");
    assert_eq!(doc.event_form_var(k, name), Some(Some(0)));
    let start = var_row(&doc, k, "alarm", "starts at");
    assert_eq!(doc.event_form(k)[start].kind, RowKind::Number);
    for _ in 0..3 {
        assert!(doc.event_step(k, start, 1, Rect::one(0, 0)));
    }
    assert!(doc.event_step(k, start, -1, Rect::one(0, 0)));
    assert_eq!(doc.event_form(k)[start].value, "2");
    let saved: Level = parse_ron("bells.ron", &doc.text()).unwrap();
    assert_eq!(saved.vars.get("alarm"), Some(&2), "{}", doc.text());
    // An event uses it: no remove row, and `remove_var` refuses.
    assert!(remove_row(&doc, k, "alarm").is_some(), "unused: it can go");
    let r = doc.event_form(k).iter().position(|r| r.part == "then" && r.value == "+ action").unwrap();
    assert!(doc.event_step(k, r, 1, Rect::one(0, 0)));
    let kind = rows_of(&doc, k, "then 2", "action")[0].0;
    while doc.event_form(k)[kind].value != "set a variable" {
        assert!(doc.event_step(k, kind, 1, Rect::one(0, 0)));
    }
    assert_eq!(remove_row(&doc, k, "alarm"), None, "used by a set_var: no remove");
    assert!(!doc.remove_var("alarm"));
    // Renamed (the window's typed name row): the action follows it.
    assert_eq!(doc.rename_id(IdKind::Var, "alarm", "bells_rung"), Ok(true));
    assert!(doc.rename_id(IdKind::Var, "bells_rung", "no way").is_err());
    assert_eq!(doc.level.vars.get("bells_rung"), Some(&2));
    assert!(!doc.level.vars.contains_key("alarm"));
    assert_eq!(rows_of(&doc, k, "then 2", "variable")[0].1.value, "bells_rung");
    // Find lists variables (Ctrl+E renames what it shows).
    assert!(doc.find_ids("bells_r").iter().any(|f| f.kind == IdKind::Var && f.id == "bells_rung"));
    // A spare one, unused, removed with its row.
    assert_eq!(doc.add_var("spare"), Ok(()));
    let rm = remove_row(&doc, k, "spare").expect("an unused variable has a remove row");
    assert!(doc.event_step(k, rm, 1, Rect::one(0, 0)));
    assert!(!doc.level.vars.contains_key("spare"));
    let text = doc.text();
    let saved: Level = parse_ron("bells.ron", &text).unwrap();
    assert_eq!(saved.vars.clone().into_iter().collect::<Vec<_>>(), vec![("bells_rung".to_string(), 2)], "{text}");
    assert!(text.contains("set_var(name: \"bells_rung\""), "{text}");
    assert!(!text.contains("spare") && !text.contains("alarm"), "{text}");
    let data = RuleData::load(&root()).unwrap();
    assert_eq!(problems("bells.ron", &text, &saved, &data, &root()), vec![], "{text}");
    // Undo brings the removed one back.
    assert!(doc.undo());
    assert!(doc.level.vars.contains_key("spare"));
}

/// Issue 46: at most `MAX_VARS` variables; the form's "+ variable" row goes at the cap.
#[test]
fn the_form_adds_no_variable_past_the_cap() {
    let mut doc = Doc::new(bells());
    let cap = doo_rules::rules::story::MAX_VARS;
    for i in doc.level.vars.len()..cap {
        assert_eq!(doc.add_var(&format!("v{i}")), Ok(()));
    }
    assert!(doc.add_var("one_more").is_err());
    assert!(!doc.event_form(0).iter().any(|r| r.value == "+ variable"));
}

/// Issue 46 ("an unresolved reference is shown in red and named in the problems line, as
/// `validate` would"): each row naming a figure, side, item, encounter, event, door or variable
/// the level lacks is `bad`, the others are not; `validate` names each; a row stepped to what
/// the level holds is no longer bad.
#[test]
fn a_row_naming_what_the_level_lacks_is_bad_and_a_valid_one_is_not() {
    let mut level = bells();
    let events: Vec<doo_rules::rules::story::EventDef> = parse_ron(
        "events",
        r#"[
        (id: "good", when: door_opens(at: (4, 2)), after: "toll", only_if: var(name: "bells", at_least: 1),
            then: [give(figure: "lunk", item: "potion_of_healing"), win("heroes"), set_var(name: "bells", to: 2)]),
        (id: "broken", when: falls(who: figure("ghost")), after: "missing",
            then: [give(figure: "ghost", item: "moonstone"), lose("nobody"), add_var(name: "undeclared", by: 1),
                door(at: (2, 1), state: open), spawn("nowhere")]),
        (id: "iffy", when: door_opens(at: (1, 1)), only_if: fired("missing"), then: [message("No.")]),
    ]"#,
    )
    .unwrap();
    level.events.extend(events);
    let n = level.events.len();
    let (good, broken, iffy) = (n - 3, n - 2, n - 1);
    let mut doc = Doc::new(level);
    let data = RuleData::load(&root()).unwrap();
    let game: Vec<String> = data.equipment.items.iter().map(|i| i.id.clone()).collect();
    let bad_of = |rows: &[Row]| rows.iter().filter(|r| r.bad).map(|r| format!("{}/{}={}", r.part, r.label, r.value)).collect::<Vec<_>>();
    // Every reference of "good" resolves: no row is bad, items checked against the game's too.
    assert_eq!(bad_of(&doc.event_form_known(good, &game)), Vec::<String>::new());
    assert_eq!(bad_of(&doc.event_form(good)), Vec::<String>::new());
    // Each unresolved one of "broken" is; its trigger and action kinds are not.
    let want = [
        "when/who=figure ghost",
        "when/waits for=missing",
        "then 1/figure=ghost",
        "then 1/item=moonstone",
        "then 2/side=nobody",
        "then 3/variable=undeclared",
        "then 4/door=(2, 1)",
        "then 5/encounter=nowhere",
    ];
    assert_eq!(bad_of(&doc.event_form_known(broken, &game)), want);
    // Without the game's item list an item is not judged (nothing flagged that is valid).
    let without: Vec<String> = want.iter().filter(|w| !w.contains("moonstone")).map(|s| s.to_string()).collect();
    assert_eq!(bad_of(&doc.event_form(broken)), without);
    // The condition's rows: an event fired that the level lacks, a door that is no door.
    assert_eq!(bad_of(&doc.event_form(iffy)), ["when/door=(1, 1)", "if/event=missing"]);
    // `validate` names each on the problems line.
    let text = doc.text();
    let saved: Level = parse_ron("bells.ron", &text).unwrap();
    let said: Vec<String> = problems("bells.ron", &text, &saved, &data, &root()).into_iter().map(|p| p.message).collect();
    for name in ["unknown figure 'ghost'", "no other event 'missing'", "no door at (1, 1)", "fired: no event 'missing'"] {
        assert!(said.iter().any(|m| m.contains(name)), "{name} not in {said:#?}");
    }
    // The figure stepped to one the level holds: no longer bad.
    let row = rows_of(&doc, broken, "then 1", "figure")[0].0;
    assert!(doc.event_step(broken, row, 1, Rect::one(0, 0)));
    let now = &doc.event_form(broken)[row];
    assert!(!now.bad && ["lunk", "goblin"].contains(&now.value.as_str()), "{now:?}");
    // A variable declared: its rows resolve.
    assert_eq!(doc.add_var("undeclared"), Ok(()));
    assert!(!rows_of(&doc, broken, "then 3", "variable")[0].1.bad);
}

/// Issue 46: no false alarm — in every shipped level and test level of events that `validate`
/// accepts, no row of any event's form is `bad` (items checked against the game's).
#[test]
fn a_valid_level_shows_no_bad_row() {
    let data = RuleData::load(&root()).unwrap();
    let game: Vec<String> = data.equipment.items.iter().map(|i| i.id.clone()).collect();
    let mut forms = 0;
    for dir in ["levels", "tests/levels/events"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir)).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        for f in files.into_iter().filter(|f| f.extension().is_some_and(|x| x == "ron")) {
            let name = f.display().to_string();
            let text = std::fs::read_to_string(&f).unwrap();
            let Ok(level) = parse_ron::<Level>(&name, &text) else { continue };
            let blocking = problems(&name, &text, &level, &data, &root()).into_iter().filter(|p| !p.warning).count();
            if blocking > 0 {
                continue;
            }
            let doc = Doc::new(level);
            for k in 0..doc.level.events.len() {
                let bad: Vec<Row> = doc.event_form_known(k, &game).into_iter().filter(|r| r.bad).collect();
                assert!(bad.is_empty(), "{name} event {}: {bad:#?}", doc.level.events[k].id);
                forms += 1;
            }
        }
    }
    assert!(forms > 30, "{forms} event forms looked at");
}
