//! Issue 45: the orders of a level are checked when it is read: each problem names the id and
//! points at the character's, encounter's or event's entry (`line:col`); the caps hold.

use crate::data::RuleData;
use crate::level_file::{LevelError, check};
use std::path::Path;

/// A crawl: Dara the hero at (1, 1); the goblins "gob" (encounter "pair" with "gub") and the orc
/// "orc" (encounter "den"). `chars` is added to the orc's entry, `enc` to the pair's, `events` is
/// the level's `events`.
fn crawl(orc: &str, enc: &str, events: &str) -> String {
    let floors = format!("{:?}", [["#########", "#.......#", "#.......#", "####+####", "#.......#", "#########"]]);
    format!(
        r#"Level(
    version: 1,
    name: "Orders",
    mode: exploration,
    floors: {floors},
    characters: [
        (id: "dara", side: "heroes", pos: (1, 1), stats: (brawn: 8, finesse: 7, savvy: 6, nerve: 6)),
        (id: "gob", side: "monsters", pos: (6, 1), stats: (brawn: 5, finesse: 7, savvy: 5, nerve: 4)),
        (id: "gub", side: "monsters", pos: (6, 2), stats: (brawn: 5, finesse: 7, savvy: 5, nerve: 4)),
        (id: "orc", side: "monsters", pos: (6, 4), stats: (brawn: 9, finesse: 6, savvy: 4, nerve: 5){orc}),
    ],
    encounters: [(id: "pair", members: ["gob", "gub"]{enc}), (id: "den", members: ["orc"])],
    events: [{events}],
    victory: [(side: "heroes", goal: ReachExit([(1, 4)]))],
)"#
    )
}

fn problems(text: &str) -> Vec<LevelError> {
    match check("level.ron", text, &RuleData::builtin(), Path::new(".")) {
        Ok(_) => vec![],
        Err(e) => e,
    }
}

/// The one problem of `text`, with the line and column of the entry it points at.
fn one(text: &str) -> LevelError {
    let p = problems(text);
    assert_eq!(p.len(), 1, "{p:?}");
    p[0].clone()
}

#[test] // issue 45: every order kind reads and checks clean
fn every_order_kind_is_read() {
    for o in [
        "guard(area: (from: (5, 1), to: (7, 2)))",
        "patrol(route: [(5, 1), (7, 1), (7, 2)])",
        "ambush(reach: 3)",
        "ambush()",
        "hold(at: (4, 4))",
        "bodyguard(figure: \"orc\")",
        "flee(to: (1, 2), below: 50)",
        "hunt(prey: weakest)",
        "hunt(prey: carrier(\"potion_of_healing\"))",
        "call_for_help(encounter: \"den\")",
    ] {
        assert_eq!(problems(&crawl("", &format!(", orders: {o}"), "")), vec![], "{o}");
    }
    // a character's own orders, and an event's
    assert_eq!(
        problems(&crawl(", orders: hold(at: (6, 4))", "", "(id: \"go\", when: turn(2), then: [orders(encounter: \"pair\", to: hunt(prey: weakest))])")),
        vec![]
    );
    assert_eq!(problems(&crawl("", "", "(id: \"go\", when: turn(2), then: [orders(encounter: \"pair\", to: None)])")), vec![]);
}

#[test] // issue 45: spaces off the map or where nobody stands, at the entry, line:col
fn spaces_off_the_map_or_in_walls_are_refused() {
    let e = one(&crawl("", ", orders: guard(area: (from: (5, 1), to: (40, 2)))", ""));
    assert_eq!((e.line, e.col), (12, 18), "the pair's entry: {e:?}");
    assert_eq!(e.message, "encounter 'pair': orders guard: the area (5, 1)..(40, 2) is not on the map");
    let e = one(&crawl(", orders: hold(at: (0, 0))", "", ""));
    assert_eq!((e.line, e.col), (10, 9), "the orc's entry: {e:?}");
    assert_eq!(e.message, "character 'orc': orders hold: the space (0, 0) is on a wall: no figure can stand there");
    let e = one(&crawl("", ", orders: patrol(route: [(5, 1), (9, 9)])", ""));
    assert_eq!(e.message, "encounter 'pair': orders patrol: the route space (9, 9) is outside the map");
    let e = one(&crawl("", ", orders: flee(to: (4, 3), below: 50)", ""));
    assert!(e.message.contains("the space (4, 3) is on a closed door"), "{e:?}");
    let e = one(&crawl("", ", orders: guard(area: (from: (5, 1), to: (5, 1, 1)))", ""));
    assert_eq!(e.message, "encounter 'pair': orders guard: the area's corners are on one floor");
}

#[test] // issue 45: unknown ids are named
fn unknown_ids_are_named() {
    let e = one(&crawl("", ", orders: bodyguard(figure: \"ghost\")", ""));
    assert_eq!(e.message, "encounter 'pair': orders bodyguard: unknown figure 'ghost'");
    let e = one(&crawl(", orders: bodyguard(figure: \"orc\")", "", ""));
    assert_eq!(e.message, "character 'orc': orders bodyguard: a figure cannot guard itself");
    let e = one(&crawl("", ", orders: hunt(prey: carrier(\"holy_grail\"))", ""));
    assert_eq!(e.message, "encounter 'pair': orders hunt: unknown item 'holy_grail'");
    let e = one(&crawl("", ", orders: call_for_help(encounter: \"nobody\")", ""));
    assert_eq!(e.message, "encounter 'pair': orders call_for_help: unknown encounter 'nobody'");
    let e = one(&crawl("", "", "(id: \"go\", when: turn(2), then: [orders(encounter: \"nobody\", to: None)])"));
    assert_eq!((e.line, e.col), (13, 14), "the event's entry: {e:?}");
    assert_eq!(e.message, "event 'go': orders: unknown encounter 'nobody'");
    let e = one(&crawl("", "", "(id: \"go\", when: turn(2), then: [orders(encounter: \"pair\", to: hold(at: (99, 1)))])"));
    assert_eq!(e.message, "event 'go': orders hold: the space (99, 1) is outside the map");
}

#[test] // issue 45: the caps on routes, reach and the HP share
fn caps_are_checked() {
    let long: Vec<String> = (0..33).map(|k| format!("({}, 1)", 1 + k % 7)).collect();
    let e = one(&crawl("", &format!(", orders: patrol(route: [{}])", long.join(", ")), ""));
    assert_eq!(e.message, "encounter 'pair': orders patrol: a route has 1 to 32 spaces (this one has 33)");
    let e = one(&crawl("", ", orders: patrol(route: [])", ""));
    assert!(e.message.contains("a route has 1 to 32 spaces (this one has 0)"), "{e:?}");
    let e = one(&crawl("", ", orders: ambush(reach: 0)", ""));
    assert_eq!(e.message, "encounter 'pair': orders ambush: reach 0 is out of range (1 to 32)");
    let e = one(&crawl("", ", orders: flee(to: (1, 2), below: 100)", ""));
    assert_eq!(e.message, "encounter 'pair': orders flee: below 100 is out of range (1 to 99, a percent of its HP)");
}

#[test] // issue 45: a misspelt order or parameter is a parse error at its place
fn unknown_order_kinds_and_fields_are_parse_errors() {
    let e = one(&crawl("", ", orders: berserk(at: (1, 1))", ""));
    assert!(e.message.contains("berserk"), "{e:?}");
    assert_eq!(e.line, 12);
    let e = one(&crawl("", ", orders: hold(at: (1, 1), until: 3)", ""));
    assert!(e.message.contains("until"), "{e:?}");
}

#[test] // issue 45: call_for_help and the `orders` action need a crawl's encounters
fn one_fight_levels_have_no_encounters_to_call() {
    let floors = format!("{:?}", [["#######", "#.....#", "#######"]]);
    let text = format!(
        r#"Level(
    version: 1,
    name: "Duel",
    floors: {floors},
    characters: [
        (id: "lunk", side: "heroes", pos: (1, 1), stats: (brawn: 9, finesse: 7, savvy: 5, nerve: 6)),
        (id: "gob", side: "monsters", pos: (5, 1), stats: (brawn: 5, finesse: 7, savvy: 5, nerve: 4), orders: call_for_help(encounter: "x")),
    ],
)"#
    );
    let e = one(&text);
    assert_eq!(e.message, "character 'gob': orders call_for_help: call_for_help needs a crawl (`mode: exploration`) and its encounters");
    assert_eq!((e.line, e.col), (7, 9));
    // a character's own orders win over his encounter's
    let m = check("level.ron", &crawl(", orders: hold(at: (6, 4))", ", orders: ambush()", ""), &RuleData::builtin(), Path::new("."))
        .unwrap()
        .build(&RuleData::builtin())
        .unwrap();
    let d = &m.story.as_deref().unwrap().directed.orders;
    assert_eq!(d.get("gob"), Some(&super::Orders::Ambush { reach: 2 }));
    assert_eq!(d.get("orc"), Some(&super::Orders::Hold { at: crate::rules::grid::Pos::new(6, 4) }));
    assert_eq!(d.get("dara"), None);
}
