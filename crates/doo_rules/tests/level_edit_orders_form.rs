//! Issue 46: a figure's orders (issue 45) in the figure form: every kind of docs/levels.md
//! "Orders" stepped to, both ways, each with a default the level holds, and each field stepped
//! both ways through the level's lists (spaces near him, the figures of his side, the items,
//! the other encounters); every step a level `validate` accepts.

use doo_rules::data::{RuleData, parse_ron};
use doo_rules::level_edit::{Doc, FigureLists, RowKind, problems};
use doo_rules::level_file::Level;
use doo_rules::rules::orders::{Orders, Prey};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn chapel() -> Level {
    let text = std::fs::read_to_string(root().join("levels/the_bell_chapel.ron")).unwrap();
    parse_ron("the_bell_chapel.ron", &text).unwrap()
}

fn valid(doc: &Doc, data: &RuleData, what: &str) {
    let text = doc.text();
    let level: Level = parse_ron("c.ron", &text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
    assert_eq!(level, doc.level);
    let found = problems("c.ron", &text, &level, data, &root());
    assert!(found.is_empty(), "{what}: {found:#?}");
}

#[test]
fn every_order_kind_and_field_is_stepped_in_the_figure_form() {
    let data = RuleData::load(&root()).unwrap();
    let lists = FigureLists::new(&data, &["goblin".into(), "skeleton".into()], &[]);
    let mut doc = Doc::new(chapel());
    let k = doc.level.characters.iter().position(|c| c.id.as_deref() == Some("priest")).unwrap();
    let r = doc.figure_form(k).iter().position(|r| r.label == "orders").unwrap();
    assert_eq!(doc.figure_form(k)[r].kind, RowKind::Choice);
    assert_eq!(doc.figure_form(k)[r].value, "none");
    let all = ["guard", "patrol", "ambush", "hold", "bodyguard", "flee", "hunt", "call_for_help", "none"];
    let mut changed = 0;
    for dir in [1, -1] {
        let mut seen = vec![];
        for _ in 0..all.len() {
            assert!(doc.figure_step(k, r, dir, &lists));
            let kind = doc.figure_form(k)[r].value.clone();
            valid(&doc, &data, &kind);
            // Each field of these orders, both ways, on a copy.
            let rows = doc.figure_form(k);
            for f in r + 1..rows.len() {
                for d in [1, -1] {
                    let mut c = doc.clone();
                    if c.figure_step(k, f, d, &lists) {
                        changed += 1;
                    }
                    valid(&c, &data, &format!("{kind}: {:?} {d}", rows[f]));
                }
            }
            seen.push(kind);
        }
        let mut want: Vec<&str> = all.to_vec();
        if dir < 0 {
            want.pop();
            want.reverse();
            want.push("none");
        }
        assert_eq!(seen, want);
    }
    assert!(changed >= 16, "{changed} field steps changed the orders");
    // The defaults and the lists: a bodyguard guards another figure of his side, a call for help
    // names another encounter, a hunter steps from the weakest to the carrier of an item.
    let set = |doc: &mut Doc, want: &str| {
        while doc.figure_form(k)[r].value != want {
            assert!(doc.figure_step(k, r, 1, &lists));
        }
    };
    set(&mut doc, "bodyguard");
    assert!(matches!(&doc.level.characters[k].orders, Some(Orders::Bodyguard { figure }) if figure == "pew_1"));
    set(&mut doc, "hunt");
    assert!(doc.figure_step(k, r + 1, 1, &lists));
    assert!(matches!(&doc.level.characters[k].orders, Some(Orders::Hunt { prey: Prey::Carrier(_) })));
    valid(&doc, &data, "carrier");
    set(&mut doc, "call_for_help");
    assert!(matches!(&doc.level.characters[k].orders, Some(Orders::CallForHelp { encounter }) if encounter == "pews"));
    assert!(doc.figure_step(k, r + 1, 1, &lists));
    assert!(matches!(&doc.level.characters[k].orders, Some(Orders::CallForHelp { encounter }) if encounter == "wardens"));
    valid(&doc, &data, "wardens");
}
