//! Tests of the orders of `orders.rs` that a script cannot reach easily: CP from an assist,
//! refusals in a crisis, a walk that unlocks a door with its key (R-CHK-7, R-CP-9, R-EXP-*).

use super::*;
use crate::rules::command::Command;
use crate::rules::dice::Dice;
use crate::rules::grid::{Pos, Tile};
use crate::rules::profile::Rank;
use crate::rules::ruleset::crawl_rules;
use crate::rules::state::Phase;
use std::collections::{BTreeMap, BTreeSet};

fn apply(m: &mut Match, a: usize, cmd: &Command, dice: &mut Dice, ev: &mut Vec<Event>) {
    let r = crawl_rules(m);
    with_crawl(m, |m, x| {
        validate::order(m, x, a, cmd).unwrap_or_else(|v| panic!("{cmd:?}: {v:?}"));
        apply::order(m, x, a, cmd, r, dice, ev)
    });
}

const LOCKED: [&str; 5] = ["#########", "#...#...#", "#...L...#", "#...#...#", "#########"];

#[test] // R-CHK-7, G-60, R-CP-9 ("assist checks included"): the helper's check is a task check for CP; a Critical Success (margin 6) earns him 1 CP and adds 1 + 6/2 = 4
fn an_assist_check_earns_cp() {
    let mut m = crate::testkit::crawl(&LOCKED, &[("h", "heroes", (3, 2)), ("g", "heroes", (3, 1)), ("o", "monsters", (6, 2))]);
    m.fighters[1].skills.insert("disable".into(), Rank::Master);
    let (mut dice, mut ev) = (Dice::seeded(3), Vec::new());
    with_crawl(&mut m, |m, x| turns::begin(m, x, &mut dice, &mut ev));
    apply(&mut m, 0, &Command::Task { actor: "h".into(), task: Task::PickLock, at: Pos::new(4, 2) }, &mut dice, &mut ev);
    // g's assist 2d7!+3: 5, 5 = 13 against h's Savvy 7 (margin 6); h's pick 2d7!-2+4: 1, 1 = 4
    dice.force([5, 5, 1, 1]);
    apply(&mut m, 1, &Command::Assist { actor: "g".into(), helped: "h".into() }, &mut dice, &mut ev);
    assert!(ev.iter().any(|e| matches!(e, Event::Assisted { actor, bonus: 4, .. } if actor == "g")), "{ev:?}");
    let heroes: BTreeSet<String> = ["h".to_string(), "g".to_string()].into();
    let cp = crate::rules::heroes::cp_from_events(&ev, &heroes, &BTreeMap::new());
    assert_eq!(cp.iter().filter(|l| l.hero == "g").map(|l| (l.cp, l.rule.as_str())).collect::<Vec<_>>(), vec![(1, "R-CP-9")], "{cp:?}");
    let pick = ev.iter().find_map(|e| match e {
        Event::Dice { actor, purpose, roll, .. } if actor == "h" && purpose == "pick_lock" => Some(roll.total),
        _ => None,
    });
    assert_eq!(pick, Some(4), "2 - 2 + the assist's 4");
}

#[test] // R-EXP-8: sorting loot is not possible in a crisis; R-EXP-21: stabilizing there is the First Aid action (R-HEAL-1), not an exploration task
fn sorting_and_stabilizing_are_refused_in_a_crisis() {
    let mut m = crate::testkit::crawl(&LOCKED, &[("h", "heroes", (3, 2)), ("g", "heroes", (3, 1)), ("o", "monsters", (6, 2))]);
    m.clock.phase = Phase::Action;
    let x = m.explore.as_deref().unwrap();
    let sort = Command::SortLoot { actor: "h".into(), at: Pos::new(2, 2), share: vec![] };
    assert_eq!(super::crisis_orders::in_crisis(&m, x, 0, &sort).unwrap_err().rule, "R-EXP-8");
    let aid = Command::Task { actor: "h".into(), task: Task::Stabilize, at: Pos::new(3, 1) };
    assert_eq!(super::crisis_orders::in_crisis(&m, x, 0, &aid).unwrap_err().rule, "R-EXP-21");
    let assist = Command::Assist { actor: "g".into(), helped: "h".into() };
    assert_eq!(super::crisis_orders::in_crisis(&m, x, 1, &assist).unwrap_err().rule, "R-EXP-1");
}

#[test] // R-EXP-11, R-EXP-12: a locked door on the way opens for the hero who carries its key (unlocked for good, 1 space of the move); without the key the walk is refused whole
fn a_walk_unlocks_a_door_with_its_key() {
    let rows = ["###########", "#...#...#.#", "#...L...#.#", "#...#...#.#", "###########"];
    let mut m = crate::testkit::crawl(&rows, &[("h", "heroes", (3, 2)), ("o", "monsters", (9, 2))]);
    m.explore.as_deref_mut().unwrap().doors.iter_mut().for_each(|d| d.lock.as_mut().unwrap().key = Some("k".into()));
    let (mut dice, mut ev) = (Dice::seeded(3), Vec::new());
    with_crawl(&mut m, |m, x| turns::begin(m, x, &mut dice, &mut ev));
    let walk = Command::Walk { actor: "h".into(), path: vec![Pos::new(4, 2), Pos::new(5, 2)], group: false };
    let x = m.explore.as_deref().unwrap();
    assert_eq!(validate::order(&m, x, 0, &walk).unwrap_err().rule, "R-EXP-5", "no key");
    m.fighters[0].loadout.items.push("k".into());
    ev.clear();
    let r = crawl_rules(&m);
    with_crawl(&mut m, |m, x| apply::order(m, x, 0, &walk, r, &mut dice, &mut ev));
    assert_eq!(m.board.tile(Pos::new(4, 2)), Some(Tile::DoorOpen));
    assert!(ev.iter().any(|e| matches!(e, Event::DoorChanged { state, .. } if state == "unlocked")), "{ev:?}");
    assert_eq!(m.explore.as_deref().unwrap().moves_left(0), 3, "2 spaces and the door: 3 of 6");
}

#[test] // R-EXP-11, R-EXP-5: the window's walking destinations pass through a closed door (its space counts 1 more), and the order they carry opens it
fn destinations_go_through_a_closed_door() {
    let rows = ["###########", "#...#...#.#", "#...+...#.#", "#...#...#.#", "###########"];
    let mut m = crate::testkit::crawl(&rows, &[("h", "heroes", (3, 2)), ("o", "monsters", (9, 2))]);
    let (mut dice, mut ev) = (Dice::seeded(3), Vec::new());
    with_crawl(&mut m, |m, x| turns::begin(m, x, &mut dice, &mut ev));
    // the room beyond is unseen: reveal it for the heroes, as a look through the door would
    let x = m.explore.as_deref_mut().unwrap();
    let k = m.board.index(Pos::new(5, 2)).unwrap();
    x.fog.0.entry("heroes".into()).or_default()[k] = true;
    let x = m.explore.as_deref().unwrap();
    let d = preview::destinations(&m, x, 0);
    let beyond = d.get(&Pos::new(5, 2)).expect("the space behind the door is offered");
    assert_eq!(beyond.path, vec![Pos::new(4, 2), Pos::new(5, 2)]);
    assert!(beyond.label.contains("3 of 6"), "2 spaces and the door: {}", beyond.label);
}

#[test] // R-CHK-7: the exploration bar offers to assist a neighbour once he has ordered a task, and only then
fn the_bar_offers_an_assist() {
    let mut m = crate::testkit::crawl(&LOCKED, &[("h", "heroes", (3, 2)), ("g", "heroes", (3, 1)), ("o", "monsters", (6, 2))]);
    let (mut dice, mut ev) = (Dice::seeded(3), Vec::new());
    with_crawl(&mut m, |m, x| turns::begin(m, x, &mut dice, &mut ev));
    let assist = |m: &Match| preview::choices(m, m.explore.as_deref().unwrap(), 1).into_iter().find(|c| c.row == "assist");
    assert!(assist(&m).is_none(), "nothing to assist yet");
    apply(&mut m, 0, &Command::Task { actor: "h".into(), task: Task::PickLock, at: Pos::new(4, 2) }, &mut dice, &mut ev);
    let c = assist(&m).expect("Assist H");
    assert!(c.refusal.is_none(), "{:?}", c.refusal);
    assert_eq!(c.template, Command::Assist { actor: "g".into(), helped: "h".into() });
}
