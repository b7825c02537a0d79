//! The level editor's event form for issue 46's events: every new trigger, action and
//! condition made, and every field set, through `Doc::event_form` / `Doc::event_step` alone;
//! the result reads back as the level format and `validate` accepts it. A nested condition is
//! edited as a tree; events move up and down (they fire in the level's
//! order); variables are declared.

use doo_rules::data::{RuleData, parse_ron};
use doo_rules::level_edit::{Doc, Rect, RowKind, problems};
use doo_rules::level_file::Level;
use doo_rules::rules::story::EventDef;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn bells() -> Level {
    let text = std::fs::read_to_string(root().join("tests/levels/events/bells.ron")).unwrap();
    parse_ron("bells.ron", &text).unwrap()
}

/// The index of the k-th event's n-th row `label` in `part`.
fn nth(doc: &Doc, k: usize, part: &str, label: &str, n: usize) -> usize {
    let rows = doc.event_form(k);
    rows.iter()
        .enumerate()
        .filter(|(_, r)| r.part == part && r.label == label)
        .nth(n)
        .map(|(i, _)| i)
        .unwrap_or_else(|| panic!("no row {part}/{label} #{n} in {rows:#?}"))
}

/// Steps the n-th row `label` of `part` forward until its value is `want`.
fn set_nth(doc: &mut Doc, k: usize, part: &str, label: &str, n: usize, want: &str) {
    for _ in 0..64 {
        let r = nth(doc, k, part, label, n);
        if doc.event_form(k)[r].value == want {
            return;
        }
        assert!(doc.event_step(k, r, 1, Rect::one(0, 0)), "{part}/{label} steps");
    }
    panic!("{part}/{label} never reached {want:?}: {:#?}", doc.event_form(k));
}

fn set(doc: &mut Doc, k: usize, part: &str, label: &str, want: &str) {
    set_nth(doc, k, part, label, 0, want)
}

/// The row whose value is `value` in `part` (an add or remove row), stepped.
fn press(doc: &mut Doc, k: usize, part: &str, value: &str) {
    let r = doc.event_form(k).iter().position(|r| r.part == part && r.value == value).unwrap_or_else(|| panic!("no {part}/{value}"));
    assert!(doc.event_step(k, r, 1, Rect::one(0, 0)), "{part}/{value}");
}

fn add_action(doc: &mut Doc, k: usize, kind: &str) -> String {
    press(doc, k, "then", "+ action");
    let part = format!("then {}", doc.level.events[k].then.len());
    set(doc, k, &part, "action", kind);
    part
}

fn event(doc: &mut Doc, id: &str, text: &str) -> usize {
    assert!(doc.add_event(Rect::one(1, 1), text));
    let k = doc.level.events.len() - 1;
    assert!(doc.rename_event(k, id));
    k
}

/// Issue 46: each new trigger (`round_ends`, `sighted`, `hp_at_most`), action (`add_var`,
/// `set_var`, `tile`, `award_cp`, `one_of`), condition clause (`var`, `door`, `holds`, `fired`,
/// `not`, `all`, `any`) and `times`, built with the form from nothing.
#[test]
fn issue_46s_events_are_built_with_the_form() {
    let mut bare = bells();
    bare.events.clear();
    bare.vars.clear();
    let mut doc = Doc::new(bare);
    assert!(doc.set_var("bells", 0));
    assert!(!doc.set_var("two words", 0), "a variable's name is an id");
    // toll: each round's end, at most 3 times, a bell more.
    let k = event(&mut doc, "toll", "A bell tolls.");
    set(&mut doc, k, "when", "trigger", "a round ends");
    set(&mut doc, k, "when", "at most", "3 times");
    let p = add_action(&mut doc, k, "add to a variable");
    set(&mut doc, k, &p, "variable", "bells");
    // second: a round's end, with 2 to 3 bells: (5, 1) caves in.
    let k = event(&mut doc, "second", "The floor caves in.");
    set(&mut doc, k, "when", "trigger", "a round ends");
    press(&mut doc, k, "if", "+ condition");
    set(&mut doc, k, "if", "if", "a variable is");
    set(&mut doc, k, "if", "at least", "2");
    set(&mut doc, k, "if", "at most", "3");
    let p = add_action(&mut doc, k, "change a space");
    let r = nth(&doc, k, &p, "space", 0);
    assert!(doc.event_step(k, r, 1, Rect::one(5, 1)));
    set(&mut doc, k, &p, "to", "pit");
    // gate: turn 2, the door not open, Lunk holding his potion, toll fired: bells set to 5.
    let k = event(&mut doc, "gate", "Shut.");
    set(&mut doc, k, "when", "trigger", "crisis turn");
    for _ in 0..3 {
        press(&mut doc, k, "if", "+ condition");
    }
    set_nth(&mut doc, k, "if", "if", 0, "a door is");
    set_nth(&mut doc, k, "if", "not", 0, "not");
    set_nth(&mut doc, k, "if", "if", 1, "someone holds");
    set_nth(&mut doc, k, "if", "who", 0, "figure lunk");
    set_nth(&mut doc, k, "if", "item", 0, "potion_of_healing");
    set_nth(&mut doc, k, "if", "if", 2, "an event fired");
    set_nth(&mut doc, k, "if", "event", 0, "toll");
    let p = add_action(&mut doc, k, "set a variable");
    for _ in 0..4 {
        let r = nth(&doc, k, &p, "to", 0);
        assert!(doc.event_step(k, r, 1, Rect::one(0, 0)));
    }
    // seen: the goblin sighted by the heroes.
    let k = event(&mut doc, "seen", "Spotted.");
    set(&mut doc, k, "when", "trigger", "a figure is sighted");
    set(&mut doc, k, "when", "who", "figure goblin");
    set(&mut doc, k, "when", "by side", "heroes");
    // hurt: Lunk at 5 HP or less: 2 CP for the heroes.
    let k = event(&mut doc, "hurt", "Bleeding.");
    set(&mut doc, k, "when", "trigger", "a figure's HP fall to");
    set(&mut doc, k, "when", "who", "figure lunk");
    set(&mut doc, k, "when", "HP at most", "5");
    let p = add_action(&mut doc, k, "award CP");
    set(&mut doc, k, &p, "heroes", "side heroes");
    set(&mut doc, k, &p, "CP", "2");
    // fate: turn 3, any of a bell rung or hurt not fired: one of three.
    let k = event(&mut doc, "fate", "Fate.");
    set(&mut doc, k, "when", "trigger", "crisis turn");
    set(&mut doc, k, "when", "number", "3");
    press(&mut doc, k, "if", "+ condition");
    press(&mut doc, k, "if", "+ condition");
    set(&mut doc, k, "if", "only if", "any of");
    set_nth(&mut doc, k, "if", "if", 0, "a variable is");
    set_nth(&mut doc, k, "if", "if", 1, "an event fired");
    set_nth(&mut doc, k, "if", "event", 0, "hurt");
    set_nth(&mut doc, k, "if", "not", 1, "not");
    let p = add_action(&mut doc, k, "one of, drawn");
    set(&mut doc, k, &p, "branches", "3");
    let want: Vec<EventDef> = parse_ron(
        "want",
        r#"[
        (id: "toll", when: round_ends, times: 3, then: [message("A bell tolls."), add_var(name: "bells", by: 1)]),
        (id: "second", when: round_ends, only_if: var(name: "bells", at_least: 2, at_most: 3), then: [message("The floor caves in."), tile(at: (5, 1), to: pit)]),
        (id: "gate", when: turn(2), only_if: all([not(door(at: (4, 2), state: open)), holds(who: figure("lunk"), item: "potion_of_healing"), fired("toll")]),
            then: [message("Shut."), set_var(name: "bells", to: 5)]),
        (id: "seen", when: sighted(who: figure("goblin"), by: "heroes"), then: [message("Spotted.")]),
        (id: "hurt", when: hp_at_most(who: figure("lunk"), hp: 5), then: [message("Bleeding."), award_cp(who: side("heroes"), cp: 2)]),
        (id: "fate", when: turn(3), only_if: any([var(name: "bells", at_least: 1), not(fired("hurt"))]),
            then: [message("Fate."), one_of([[message("")], [message("")], [message("")]])]),
    ]"#,
    )
    .unwrap();
    let text = doc.text();
    let saved: Level = parse_ron("bells.ron", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(saved.events, want, "{text}");
    assert_eq!(saved.vars.get("bells"), Some(&0));
    let data = RuleData::load(&root()).unwrap();
    let p = problems("bells.ron", &text, &saved, &data, &root());
    // The one_of's branches are empty story lines, to type: the rest is valid.
    assert_eq!(p, vec![], "{text}");
}

/// Issue 46: a nested condition (an `any` inside an `all`) is edited in the form as a tree:
/// the group's own rows (any of, not) and its clauses one step in ("· if"); a clause's field
/// stepped inside the group; a clause added to the group; a group added to the condition and
/// removed; the file's meaning kept by every step that changes nothing else; each step a level
/// that validates.
#[test]
fn a_nested_condition_is_edited_as_a_tree() {
    let level = bells();
    let data = RuleData::load(&root()).unwrap();
    let k = level.events.iter().position(|e| e.id == "gate").unwrap();
    let mut doc = Doc::new(level.clone());
    let labels = |doc: &Doc| doc.event_form(k).iter().filter(|r| r.part == "if").map(|r| format!("{}|{}", r.label, r.value)).collect::<Vec<_>>();
    assert_eq!(
        labels(&doc),
        [
            "only if|all of",
            "if|a door is",
            "not|not",
            "door|(4, 2)",
            "state|open",
            "|remove",
            "group|any of",
            "not|-",
            "· if|someone holds",
            "· not|-",
            // The clause's fields as deep as its `if`.
            "· who|figure lunk",
            "· item|potion_of_healing",
            "|remove",
            "· if|an event fired",
            "· not|-",
            "· event|hurt",
            "|remove",
            "|+ condition",
            "|+ group in it",
            "|remove group",
            "if|an event fired",
            "not|-",
            "event|seen",
            "|remove",
            "|+ condition",
            "|+ group",
        ]
    );
    let valid = |doc: &Doc| {
        let text = doc.text();
        let saved: Level = parse_ron("bells.ron", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(problems("bells.ron", &text, &saved, &data, &root()), vec![], "{text}");
        saved.events[k].only_if.clone().unwrap()
    };
    // Another trigger number: the condition is kept as the file has it.
    set(&mut doc, k, "when", "number", "3");
    assert_eq!(doc.level.events[k].only_if, level.events[k].only_if, "kept");
    // The group all of, its second clause not: all([not(door), all([holds, not(fired)])]).
    set(&mut doc, k, "if", "group", "all of");
    set_nth(&mut doc, k, "if", "· not", 1, "not");
    let want: doo_rules::rules::story::Cond = parse_ron(
        "want",
        r#"all([not(door(at: (4, 2), state: open)), all([holds(who: figure("lunk"), item: "potion_of_healing"), not(fired("hurt"))]), fired("seen")])"#,
    )
    .unwrap();
    assert_eq!(valid(&doc), want);
    // A clause added inside the group (the first kind: a door), a group added to the condition.
    let add_in = doc.event_form(k).iter().position(|r| r.part == "if" && r.value == "+ condition").unwrap();
    assert!(doc.event_step(k, add_in, 1, Rect::one(0, 0)));
    press(&mut doc, k, "if", "+ group");
    let c = valid(&doc);
    let doo_rules::rules::story::Cond::All(top) = &c else { panic!("{c:?}") };
    assert_eq!(top.len(), 4, "{c:?}");
    assert!(matches!(&top[1], doo_rules::rules::story::Cond::All(v) if v.len() == 3), "{c:?}");
    assert!(matches!(&top[3], doo_rules::rules::story::Cond::Any(v) if v.len() == 1), "{c:?}");
    // A group in the group (two deep: no deeper is offered).
    press(&mut doc, k, "if", "+ group in it");
    assert!(labels(&doc).iter().any(|l| l == "· group|any of"), "{:#?}", labels(&doc));
    let offers = labels(&doc).iter().filter(|l| l.ends_with("|+ group in it")).count();
    let one_deep = labels(&doc).iter().filter(|l| l.starts_with("group|")).count();
    assert_eq!((offers, one_deep), (2, 2), "each one-deep group offers a group in it, the two-deep one none: {:#?}", labels(&doc));
    valid(&doc);
    // Groups removed (the last first), then the first clause: one undo puts it back.
    while doc.event_form(k).iter().any(|r| r.part == "if" && r.value == "remove group") {
        let r = doc.event_form(k).iter().rposition(|r| r.part == "if" && r.value == "remove group").unwrap();
        assert!(doc.event_step(k, r, 1, Rect::one(0, 0)));
    }
    assert_eq!(doc.level.events[k].only_if, Some(parse_ron("c", r#"all([not(door(at: (4, 2), state: open)), fired("seen")])"#).unwrap()));
    assert!(doc.undo());
    assert!(matches!(doc.level.events[k].only_if, Some(doo_rules::rules::story::Cond::All(_))));
}

/// Issue 46: events fire in the level's order: the form's model moves one up or down.
#[test]
fn events_move_up_and_down() {
    let level = bells();
    let ids = |d: &Doc| d.level.events.iter().map(|e| e.id.clone()).collect::<Vec<_>>();
    let mut doc = Doc::new(level);
    let before = ids(&doc);
    assert!(!doc.move_event(0, -1), "the first cannot go up");
    assert!(!doc.move_event(before.len() - 1, 1), "the last cannot go down");
    assert!(doc.move_event(0, 1));
    assert_eq!(ids(&doc)[..2], [before[1].clone(), before[0].clone()]);
    assert!(doc.undo());
    assert_eq!(ids(&doc), before);
    // A variable an event uses is not removed; another is.
    assert!(!doc.remove_var("bells"));
    assert!(doc.set_var("spare", 3));
    assert!(doc.remove_var("spare"));
}

/// Issue 46: every row of bells.ron's events, stepped both ways, leaves a level that reads back
/// and that `validate` accepts.
#[test]
fn every_row_of_the_bells_events_steps_to_a_valid_level() {
    let data = RuleData::load(&root()).unwrap();
    let level = bells();
    let mut steps = 0;
    for k in 0..level.events.len() {
        let rows = Doc::new(level.clone()).event_form(k);
        for r in 0..rows.len() {
            if matches!(rows[r].kind, RowKind::Shown | RowKind::Text) {
                continue;
            }
            for dir in [1, -1] {
                let mut doc = Doc::new(level.clone());
                doc.event_step(k, r, dir, Rect::new((1, 1), (2, 1)));
                let text = doc.text();
                let back: Level = parse_ron("bells.ron", &text).unwrap_or_else(|e| panic!("event {k} row {:?}: {e}", rows[r]));
                assert_eq!(back.events, doc.level.events);
                let p = problems("bells.ron", &text, &back, &data, &root());
                assert!(p.is_empty(), "event {k} ({}) row {:?} dir {dir}: {p:#?}", level.events[k].id, rows[r]);
                steps += 1;
            }
        }
    }
    assert!(steps > 60, "{steps} steps");
}

/// Issue 46: a figure renamed is renamed in the new triggers (`hp_at_most`), conditions
/// (`holds`) and actions (`award_cp`, inside a `one_of` too) that name him.
#[test]
fn a_figure_renamed_is_renamed_in_conditions_and_new_events() {
    let mut level = bells();
    let extra: EventDef = parse_ron("e", r#"(id: "extra", when: turn(4), then: [one_of([[award_cp(who: figure("lunk"), cp: 1)], []])])"#).unwrap();
    level.events.push(extra);
    let k = level.characters.iter().position(|c| c.id.as_deref() == Some("lunk")).unwrap();
    let mut doc = Doc::new(level);
    assert!(doc.rename_figure(k, "lunk_the_bold"));
    let text = doc.text();
    assert!(!text.contains("\"lunk\""), "{text}");
    assert_eq!(text.matches("figure(\"lunk_the_bold\")").count(), 3, "hp_at_most, holds, award_cp: {text}");
    let data = RuleData::load(&root()).unwrap();
    let back: Level = parse_ron("bells.ron", &text).unwrap();
    assert_eq!(problems("bells.ron", &text, &back, &data, &root()), vec![]);
}

/// Issue 46: a choice for a side made with the form: its side, its prompt typed
/// (`set_action_text`), its options counted up and down (2 to 3) and each label typed
/// (`set_choice_label`, capped at 60 characters).
#[test]
fn a_choice_is_built_with_the_form() {
    let text = std::fs::read_to_string(root().join("tests/levels/events/choice.ron")).unwrap();
    let mut level: Level = parse_ron("choice.ron", &text).unwrap();
    level.events.clear();
    let mut doc = Doc::new(level);
    let k = event(&mut doc, "ask", "A voice asks.");
    set(&mut doc, k, "when", "trigger", "crisis turn");
    let p = add_action(&mut doc, k, "a choice for a side");
    set(&mut doc, k, &p, "side", "monsters");
    set(&mut doc, k, &p, "options", "3");
    let a = doc.level.events[k].then.len() - 1;
    let r = nth(&doc, k, &p, "prompt", 0);
    assert_eq!(doc.event_form(k)[r].kind, RowKind::Text);
    assert_eq!(doc.event_form(k)[r].action, Some(a), "the window types it with set_action_text");
    assert!(doc.set_action_text(k, a, "Which way?"));
    assert!(doc.set_choice_label(k, a, 0, "North"));
    assert!(doc.set_choice_label(k, a, 2, &"x".repeat(80)));
    assert_eq!(doc.choice_label(k, a, 2).map(|l| l.chars().count()), Some(60));
    assert!(!doc.set_choice_label(k, a, 3, "No such option"));
    assert!(!doc.set_choice_label(k, a, 1, "  "), "a label is not empty");
    let want: EventDef = parse_ron(
        "want",
        &format!(
            r#"(id: "ask", when: turn(2), then: [message("A voice asks."), choice(side: "monsters", prompt: "Which way?",
                options: [(label: "North"), (label: "No"), (label: "{}")])])"#,
            "x".repeat(60)
        ),
    )
    .unwrap();
    let text = doc.text();
    let saved: Level = parse_ron("choice.ron", &text).unwrap();
    assert_eq!(saved.events, vec![want], "{text}");
    let data = RuleData::load(&root()).unwrap();
    assert_eq!(problems("choice.ron", &text, &saved, &data, &root()), vec![]);
    let r = nth(&doc, k, &p, "options", 0);
    assert!(doc.event_step(k, r, -1, Rect::one(0, 0)), "3 options down to 2");
    assert!(!doc.event_step(k, r, -1, Rect::one(0, 0)), "2 is the fewest");
    assert_eq!(doc.choice_label(k, a, 2), None);
}

/// Issue 46 ("switch an encounter's behaviour"): the `orders` action (issue 45) in the form: its
/// encounter chosen, its orders stepped through every kind of docs/levels.md "Orders" the level
/// can use (no `call_for_help` with no other encounter), each field stepped both ways (places
/// from the selection), each a level `validate` accepts.
#[test]
fn an_encounters_orders_are_switched_with_the_form() {
    let text = std::fs::read_to_string(root().join("tests/levels/events/hall.ron")).unwrap();
    let level: Level = parse_ron("hall.ron", &text).unwrap();
    let mut doc = Doc::new(level);
    let k = event(&mut doc, "horn", "A horn sounds.");
    let p = add_action(&mut doc, k, "an encounter's orders");
    set(&mut doc, k, &p, "encounter", "pair");
    let a = doc.level.events[k].then.len() - 1;
    let r = nth(&doc, k, &p, "orders", 0);
    assert_eq!(doc.event_form(k)[r].kind, RowKind::Choice);
    let data = RuleData::load(&root()).unwrap();
    let check = |doc: &Doc| {
        let text = doc.text();
        let back: Level = parse_ron("hall.ron", &text).unwrap();
        assert_eq!(problems("hall.ron", &text, &back, &data, &root()), vec![], "{text}");
    };
    let mut seen = Vec::new();
    let mut fields = 0;
    for _ in 0..8 {
        assert!(doc.event_step(k, r, 1, Rect::one(0, 0)));
        check(&doc);
        seen.push(doc.event_form(k)[r].value.clone());
        assert!(matches!(doc.level.events[k].then[a], doo_rules::rules::story::Action::Orders { .. }));
        let rows = doc.event_form(k);
        for f in (r + 1..rows.len()).take_while(|&f| rows[f].part == p && rows[f].action == Some(a) && rows[f].label != "") {
            for dir in [1, -1] {
                let mut d = doc.clone();
                // (7, 2) and (9, 3): floor in room B.
                if d.event_step(k, f, dir, Rect::new((7, 2), (9, 3))) {
                    fields += 1;
                }
                check(&d);
            }
        }
    }
    assert_eq!(seen, ["guard", "patrol", "ambush", "hold", "bodyguard", "flee", "hunt", "none"]);
    assert!(fields >= 12, "{fields} field steps changed the orders");
}

/// Issue 46: an `acted` trigger's `how` is chosen from the rows of the level's profile its deed
/// can name (a movement for `move`, an action for `attack`, a reaction for `reflex`), "any
/// way" first; every choice validates. Without the profile's rows it steps between any way
/// and `explore` only (R-EXP-*: a hero's walk).
#[test]
fn an_acted_triggers_how_is_chosen_from_the_profiles_rows() {
    let data = RuleData::load(&root()).unwrap();
    let text = std::fs::read_to_string(root().join("levels/tutorial_1_moving.ron")).unwrap();
    let level: Level = parse_ron("tutorial_1_moving.ron", &text).unwrap();
    let rules = data.profiles.ruleset(level.profile.as_deref(), &level.options).unwrap();
    let k = level.events.iter().position(|e| e.id == "step").unwrap();
    let mut doc = Doc::new(level.clone());
    // Without the profile's rows: any way, explore, back to any way.
    let r = nth(&doc, k, "when", "how", 0);
    assert_eq!(doc.event_form(k)[r].value, "step");
    assert_eq!(doc.event_form(k)[r].kind, RowKind::Choice);
    assert!(doc.event_step(k, r, 1, Rect::one(0, 0)));
    assert_eq!(doc.event_form(k)[r].value, "any way");
    assert_eq!(
        format!("{:?}", doc.level.events[k].when),
        format!(
            "{:?}",
            doo_rules::rules::story::Trigger::Acted {
                what: doo_rules::rules::story::Deed::Move,
                who: doo_rules::rules::story::Who::Figure("wren".into()),
                how: None
            }
        )
    );
    doc.event_step(k, r, 1, Rect::one(0, 0));
    assert_eq!(doc.event_form(k)[r].value, "explore");
    // With the profile's rows: every movement of DOO-2017, each valid.
    doc.deed_rows = doo_rules::level_edit::DeedRows::of(&rules);
    let mut seen = vec![];
    for _ in 0..=rules.movements.len() + 1 {
        doc.event_step(k, r, 1, Rect::one(0, 0));
        let v = doc.event_form(k)[r].value.clone();
        let t = doc.text();
        let back: Level = parse_ron("tutorial_1_moving.ron", &t).unwrap();
        let p = problems("tutorial_1_moving.ron", &t, &back, &data, &root());
        assert!(p.is_empty(), "how {v}: {p:#?}");
        seen.push(v);
    }
    for m in &rules.movements {
        assert!(seen.contains(&m.id), "{} offered: {seen:?}", m.id);
    }
    assert!(seen.iter().any(|v| v == "any way") && seen.iter().any(|v| v == "explore"), "{seen:?}");
    assert!(
        !seen.iter().any(|v| rules.actions.iter().any(|a| &a.id == v && !rules.movements.iter().any(|m| &m.id == v))),
        "an action row offered to a move: {seen:?}"
    );
    // Another deed: the how goes (it names a row of the deed's table), and an attack's how
    // steps through the actions.
    let d = nth(&doc, k, "when", "does", 0);
    set(&mut doc, k, "when", "does", "attack");
    let _ = d;
    let r = nth(&doc, k, "when", "how", 0);
    assert_eq!(doc.event_form(k)[r].value, "any way");
    doc.event_step(k, r, 1, Rect::one(0, 0));
    assert_eq!(doc.event_form(k)[r].value, rules.actions[0].id);
    // A deed with no rows (end) shows no how row.
    set(&mut doc, k, "when", "does", "end");
    assert!(!doc.event_form(k).iter().any(|r| r.part == "when" && r.label == "how"));
    // A `how` the file gives a deed it cannot have is drawn red, as validate names it; stepped,
    // it goes. A move's `how` naming no row of the profile is red too; a good one is not.
    let bad_how = |doc: &Doc| doc.event_form(k).iter().find(|r| r.part == "when" && r.label == "how").map(|r| (r.value.clone(), r.bad));
    let with_how = |what: doo_rules::rules::story::Deed, how: &str| {
        let mut l = level.clone();
        l.events[k].when = doo_rules::rules::story::Trigger::Acted { what, who: doo_rules::rules::story::Who::Any, how: Some(how.into()) };
        let mut d = Doc::new(l);
        d.deed_rows = doo_rules::level_edit::DeedRows::of(&rules);
        d
    };
    let mut end = with_how(doo_rules::rules::story::Deed::End, "step");
    assert_eq!(bad_how(&end), Some(("step".to_string(), true)));
    let t = end.text();
    let p = problems("t.ron", &t, &parse_ron("t.ron", &t).unwrap(), &data, &root());
    assert!(p.iter().any(|p| p.message.contains("`how` names a movement")), "validate names it too: {p:#?}");
    let r = nth(&end, k, "when", "how", 0);
    assert!(end.event_step(k, r, 1, Rect::one(0, 0)));
    assert_eq!(bad_how(&end), None, "stepped, the how goes");
    assert_eq!(bad_how(&with_how(doo_rules::rules::story::Deed::Move, "fly")), Some(("fly".to_string(), true)));
    assert_eq!(bad_how(&with_how(doo_rules::rules::story::Deed::Move, "step")), Some(("step".to_string(), false)));
    // One undo step each: undo back to the file's own.
    while doc.undo() {}
    assert_eq!(doc.level.events, level.events);
}

/// Issue 46: a crisis's `alerted` encounters are any subset (R-EXP-25: the encounters the crisis
/// brings in), each of the level's encounters a yes/no row; they are kept in the level's
/// order; each toggle validates and is one undo step.
#[test]
fn a_crisis_alerts_any_subset_of_the_encounters() {
    let data = RuleData::load(&root()).unwrap();
    let text = std::fs::read_to_string(root().join("levels/the_bell_chapel.ron")).unwrap();
    let level: Level = parse_ron("the_bell_chapel.ron", &text).unwrap();
    let k = level.events.iter().position(|e| e.then.iter().any(|a| matches!(a, doo_rules::rules::story::Action::StartCrisis { .. }))).unwrap();
    let mut doc = Doc::new(level.clone());
    let part = {
        let rows = doc.event_form(k);
        rows.iter().find(|r| r.label == "alerted").map(|r| r.part.clone()).unwrap()
    };
    let alerts: Vec<String> = doc.event_form(k).iter().filter(|r| r.part == part && r.label == "· alerts").map(|r| r.value.clone()).collect();
    assert_eq!(alerts, ["pews: no", "chamber: yes", "wardens: no"]);
    let alerted = |doc: &Doc| match doc.level.events[k].then.iter().find_map(|a| match a {
        doo_rules::rules::story::Action::StartCrisis { encounters, .. } => Some(encounters.clone()),
        _ => None,
    }) {
        Some(v) => v,
        None => panic!("no start_crisis"),
    };
    let valid = |doc: &Doc| {
        let t = doc.text();
        let back: Level = parse_ron("the_bell_chapel.ron", &t).unwrap();
        assert_eq!(back.events, doc.level.events);
        let p = problems("the_bell_chapel.ron", &t, &back, &data, &root());
        assert!(p.is_empty(), "{p:#?}");
    };
    // wardens on, then pews on: in the level's order, whatever order they were chosen in.
    let r = nth(&doc, k, &part, "· alerts", 2);
    assert!(doc.event_step(k, r, 1, Rect::one(0, 0)));
    valid(&doc);
    let r = nth(&doc, k, &part, "· alerts", 0);
    assert!(doc.event_step(k, r, 1, Rect::one(0, 0)));
    valid(&doc);
    assert_eq!(alerted(&doc), ["pews", "chamber", "wardens"]);
    assert_eq!(doc.event_form(k)[nth(&doc, k, &part, "alerted", 0)].value, "pews, chamber, wardens");
    // chamber off: a subset the alerted row's none/all/each-alone never reaches.
    let r = nth(&doc, k, &part, "· alerts", 1);
    assert!(doc.event_step(k, r, 1, Rect::one(0, 0)));
    valid(&doc);
    assert_eq!(alerted(&doc), ["pews", "wardens"]);
    assert_eq!(doc.event_form(k)[r].value, "chamber: no");
    // One undo step each.
    for _ in 0..3 {
        assert!(doc.undo());
    }
    assert_eq!(doc.level.events, level.events);
}
