//! Issue 46: ids renamed everywhere at once reach what issue 46's events name — a `fired`
//! condition, a `holds` condition's figure and item, and actions nested in a `one_of`.

use doo_rules::level_edit::{Doc, IdKind};
use doo_rules::rules::story::{Action, Cond};

const BELLS: &str = include_str!("../../../tests/levels/events/bells.ron");

fn clauses(doc: &Doc, event: &str) -> Vec<Cond> {
    let mut e = doc.level.events.iter().find(|e| e.id == event).expect("the event").clone();
    let mut out = Vec::new();
    e.each_clause(&mut |c| out.push(c.clone()));
    out
}

#[test]
fn renames_reach_conditions_and_nested_actions() {
    let mut doc = Doc::from_text("bells.ron", BELLS).unwrap();
    // The event "hurt" is named by gate's `fired("hurt")`: renamed there too.
    let k = doc.level.events.iter().position(|e| e.id == "hurt").unwrap();
    assert!(doc.rename_event(k, "bleeding"));
    assert!(clauses(&doc, "gate").contains(&Cond::Fired("bleeding".into())), "{:?}", clauses(&doc, "gate"));
    assert!(!doc.text().contains("fired(\"hurt\")"), "{}", doc.text());
    // The figure "lunk" is named by gate's `holds(who: figure("lunk"), …)`.
    assert_eq!(doc.rename_id(IdKind::Figure, "lunk", "lunk_the_bold"), Ok(true));
    assert!(doc.text().contains("holds(who: figure(\"lunk_the_bold\")"), "{}", doc.text());
    // An id nested in a one_of: the event "fate" sets the var inside its second branch; a give
    // added there is renamed with its figure.
    let fate = doc.level.events.iter().position(|e| e.id == "fate").unwrap();
    assert!(doc.edit(|l, _| {
        if let Some(Action::OneOf(b)) = l.events[fate].then.get_mut(1) {
            b[0].push(Action::Give { figure: "goblin".into(), item: "potion_of_healing".into() });
        }
    }));
    assert_eq!(doc.rename_id(IdKind::Figure, "goblin", "gob"), Ok(true));
    let text = doc.text();
    assert!(text.contains("give(figure: \"gob\"") && !text.contains("\"goblin\""), "{text}");
    // One undo step per rename.
    assert!(doc.undo());
    assert!(doc.text().contains("give(figure: \"goblin\""));
}
