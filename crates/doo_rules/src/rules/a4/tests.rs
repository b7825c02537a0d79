//! Rules tests of ruleset A4 on small boards, through the same command path the game uses.
//! Each cites the rule or gap decision it checks.

use super::super::event::Event;
use super::{st, threatens};
use crate::testkit::{Duel, a4};

const ROWS: &[&str] = &["........", "........", "........"];
// Lunk: Brawn 9 + Axes journeyman → melee 9D+1; Athletics ⌊(27+21)/2⌋ − 2 (untrained) = 7D+1.
const LUNK: &str =
    r#"(id: "lunk", side: "heroes", pos: (0, 0), stats: (brawn: 9, finesse: 7, savvy: 5, nerve: 6), skills: {"axes": journeyman}, weapon: Some("broad_axe"))"#;
// Orc: melee 8D; Athletics ⌊(24+18)/2⌋ − 2 = 6D+1; defense_melee 6D.
const ORC: &str =
    r#"(id: "orc", side: "monsters", pos: (1, 1), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6), skills: {"maces": apprentice}, weapon: Some("mace"))"#;

fn windows(g: &Duel, reaction: &str) -> Vec<(String, String)> {
    g.ev.iter()
        .filter_map(|e| match e {
            Event::ReflexWindow { defender, attacker, options } if options.iter().any(|o| o == reaction) => Some((defender.clone(), attacker.clone())),
            _ => None,
        })
        .collect()
}

fn idx(g: &Duel, id: &str) -> usize {
    g.m.index(id).unwrap()
}

/// Lunk first (init 3 + 7 = 10 vs 1 + 6 = 7) or the orc first.
fn duel(orc_first: bool, lunk: &str, orc: &str) -> Duel {
    a4(ROWS, &[lunk, orc], if orc_first { &[1, 6] } else { &[3, 1] })
}

#[test] // A4-5.1, A4-G-25, A4-2.4: initiative is 1d6 + the Athletics dice; the higher acts first and a command out of turn is refused
fn initiative_orders_the_turns() {
    let mut g = duel(false, LUNK, ORC);
    assert_eq!((st(&g.m, 0).initiative, st(&g.m, 1).initiative), (10, 7));
    assert_eq!(g.current(), Some("lunk"));
    let v = g.refused(r#"round(actor: "orc", act: end_turn)"#);
    assert_eq!(v.rule, "A4-2.4", "{}", v.reason);
    g.ok(r#"round(actor: "lunk", act: end_turn)"#);
    assert_eq!(g.current(), Some("orc"));
    g.ok(r#"round(actor: "orc", act: end_turn)"#);
    // A4-G-25: round 2 rolls again (seeded dice now)
    assert_eq!(g.m.clock.turn, 2);
    assert!(g.ev.iter().filter(|e| matches!(e, Event::Initiative { .. })).count() == 2);
}

#[test] // A4-2.1, A4-3.1, A4-5.3: one standard action a round; the flat-footed orc gets no reactive defense; a move after the attack is fine
fn one_standard_action_per_round() {
    let lunk = LUNK.replace("(0, 0)", "(0, 1)");
    let mut g = duel(false, &lunk, ORC);
    // 9 attack dice of 2 = 18 + 1 = 19 vs TN 15: margin 4, partial; d8 damage 5, no armor
    g.dice.force([2, 2, 2, 2, 2, 2, 2, 2, 2, 5]);
    g.ok(r#"round(actor: "lunk", act: attack(target: "orc"))"#);
    assert!(windows(&g, "a4_reactive_defense").is_empty(), "A4-5.3: flat-footed, no reactive defense");
    assert_eq!(g.fighter("orc").hp, 11 - 5);
    let v = g.refused(r#"round(actor: "lunk", act: attack(target: "orc"))"#);
    assert_eq!(v.rule, "A4-2.1", "{}", v.reason);
    g.ok(r#"round(actor: "lunk", act: move(path: [(0, 2)]))"#);
}

#[test] // A4-4.1, A4-4.2, A4-G-23, A4-3.21: moving past a foe draws its attack of opportunity before the step out; only one per round
fn moving_past_provokes_once() {
    let mut g = duel(true, LUNK, ORC);
    g.ok(r#"round(actor: "orc", act: end_turn)"#);
    assert_eq!(g.current(), Some("lunk"));
    g.ok(r#"round(actor: "lunk", act: move(path: [(1, 0), (2, 0), (3, 0)]))"#);
    assert_eq!(windows(&g, "a4_opportunity"), vec![("orc".to_string(), "lunk".to_string())]);
    assert_eq!(g.fighter("lunk").pos, super::super::grid::Pos::new(0, 0), "stopped before leaving its square");
    let v = g.refused(r#"round(actor: "lunk", act: end_turn)"#);
    assert_eq!(v.rule, "A4-4.1");
    // the orc takes it: 8 dice of 1 = 8 vs 15 + Lunk's reactive defense → a miss
    g.dice.force([1; 8]);
    g.ok(r#"reflex(actor: "orc", reflex: "a4_opportunity")"#);
    assert_eq!(windows(&g, "a4_reactive_defense").len(), 1, "Lunk may defend reactively");
    g.ok(r#"decline(actor: "lunk")"#);
    assert_eq!(g.fighter("lunk").pos, super::super::grid::Pos::new(3, 0), "the move went on");
    assert_eq!(windows(&g, "a4_opportunity").len(), 1, "A4-4.2: the second threatened square draws nothing");
    assert_eq!(st(&g.m, idx(&g, "orc")).aoo, 1);
}

#[test] // A4-3.19, A4-4.4, A4-G-19: a five-foot step out of a threatened square never provokes; no move action after it, nor a step after a move
fn five_foot_step_never_provokes() {
    let mut g = duel(true, LUNK, ORC);
    g.ok(r#"round(actor: "orc", act: end_turn)"#);
    assert!(threatens(&g.m, idx(&g, "orc"), g.fighter("lunk").pos));
    g.ok(r#"round(actor: "lunk", act: step(to: (0, 1)))"#);
    assert!(windows(&g, "a4_opportunity").is_empty());
    let v = g.refused(r#"round(actor: "lunk", act: move(path: [(0, 2)]))"#);
    assert_eq!(v.rule, "A4-3.19");
    let v = g.refused(r#"round(actor: "lunk", act: step(to: (0, 2)))"#);
    assert_eq!(v.rule, "A4-3.19");
}

#[test] // A4-3.13, A4-4.4, A4-G-16: a withdraw leaves its first square safely; a later threatened square still provokes
fn withdraw_is_safe_only_from_its_start() {
    let mut g = duel(true, LUNK, ORC);
    g.ok(r#"round(actor: "orc", act: end_turn)"#);
    // (0,0) and (1,0) are both next to the orc at (1,1)
    g.ok(r#"round(actor: "lunk", act: withdraw(path: [(1, 0), (2, 0), (3, 0)]))"#);
    assert_eq!(windows(&g, "a4_opportunity").len(), 1, "leaving (1,0) provokes");
    assert_eq!(g.fighter("lunk").pos, super::super::grid::Pos::new(1, 0));
    g.ok(r#"decline(actor: "orc")"#);
    // straight away from the start: no window at all
    let mut g = duel(true, LUNK, ORC);
    g.ok(r#"round(actor: "orc", act: end_turn)"#);
    let lunk = g.m.index("lunk").unwrap();
    g.m.fighters[lunk].pos = super::super::grid::Pos::new(2, 0);
    g.ok(r#"round(actor: "lunk", act: withdraw(path: [(3, 0), (4, 0), (5, 0)]))"#);
    assert!(windows(&g, "a4_opportunity").is_empty());
}

#[test] // A4-3.21, A4-G-21: a reactive defense adds its roll to the TN and costs 2D on the defender's own rolls this round
fn reactive_defense_adds_to_the_tn() {
    let lunk = LUNK.replace("(0, 0)", "(0, 1)");
    let mut g = duel(true, &lunk, ORC);
    // the orc attacks Lunk, who has not acted: flat-footed (round 1) → no window
    g.dice.force([1; 8]);
    g.ok(r#"round(actor: "orc", act: attack(target: "lunk"))"#);
    assert!(windows(&g, "a4_reactive_defense").is_empty());
    g.ok(r#"round(actor: "orc", act: end_turn)"#);
    // round 2: Lunk first (6 + 7 vs 1 + 6); he ends his turn; the orc attacks: Lunk may react
    g.dice.force([6, 1]);
    g.ok(r#"round(actor: "lunk", act: end_turn)"#);
    assert_eq!((g.m.clock.turn, g.current()), (2, Some("lunk")));
    g.ok(r#"round(actor: "lunk", act: end_turn)"#);
    assert_eq!(g.current(), Some("orc"));
    g.ok(r#"round(actor: "orc", act: attack(target: "lunk"))"#);
    assert_eq!(windows(&g, "a4_reactive_defense").len(), 1);
    // Lunk's defense_melee 7D+1 − 2D = 5D+1: five 6s + 1 = 31 → TN 46; the orc's 8 sixes = 48 hits
    g.dice.force([6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 1]);
    g.ok(r#"reflex(actor: "lunk", reflex: "a4_reactive_defense")"#);
    let resolved = g.ev.iter().rev().find_map(|e| match e {
        Event::AttackResolved { defense_cr, attack_total, .. } => Some((*defense_cr, *attack_total)),
        _ => None,
    });
    assert_eq!(resolved, Some((15 + 31, 48)));
    let r = st(&g.m, idx(&g, "lunk"));
    assert_eq!((r.reactive, r.penalty_now, r.penalty_next), (1, 0, 2), "his turn was done: the cost carries to next round");
}

#[test] // A4-3.2, A4-G-08: a charge runs straight for 2 to 2× speed squares and ends in an attack at +1D; a bent path is refused
fn charge_runs_straight() {
    let orc = ORC.replace("(1, 1)", "(5, 0)");
    let mut g = duel(false, LUNK, &orc);
    let v = g.refused(r#"round(actor: "lunk", act: charge(target: "orc", path: [(1, 0), (2, 1), (3, 0), (4, 0)]))"#);
    assert!(v.rule.starts_with("A4-"), "{v:?}");
    g.dice.force([1; 10]);
    g.ok(r#"round(actor: "lunk", act: charge(target: "orc", path: [(1, 0), (2, 0), (3, 0), (4, 0)]))"#);
    let attack_dice = g.ev.iter().rev().find_map(|e| match e {
        Event::Dice { purpose, roll, .. } if purpose == "attack" => Some(roll.dice.len()),
        _ => None,
    });
    // 9D+1 + 1D (charge) − 1D (counted 2 > … no: counted 2 is free) = 10D
    assert_eq!(attack_dice, Some(10));
    assert!(st(&g.m, idx(&g, "lunk")).charged);
}

#[test] // A4-G-04: a third counted action rolls at −1D
fn third_action_costs_a_die() {
    let lunk = LUNK.replace("(0, 0)", "(0, 1)");
    let orc = ORC.replace("(1, 1)", "(2, 1)");
    // minor (drop prone) + move (stand up) + standard (attack): the attack is the third
    let mut g = duel(false, &lunk.replace("(0, 1)", "(1, 1)"), &orc);
    g.ok(r#"round(actor: "lunk", act: drop_prone)"#);
    g.ok(r#"round(actor: "lunk", act: stand_up)"#);
    g.dice.force([1; 9]);
    g.ok(r#"round(actor: "lunk", act: attack(target: "orc"))"#);
    let attack_dice = g.ev.iter().rev().find_map(|e| match e {
        Event::Dice { purpose, roll, .. } if purpose == "attack" => Some(roll.dice.len()),
        _ => None,
    });
    assert_eq!(attack_dice, Some(8), "9D+1 − 1D");
}

#[test] // A4-3.15, A4-G-17: a delay goes strictly lower and the figure acts after the others at that number
fn delay_moves_the_turn_later() {
    let mut g = duel(false, LUNK, ORC);
    let v = g.refused(r#"round(actor: "lunk", act: delay(initiative: 10))"#);
    assert_eq!(v.rule, "A4-3.15");
    g.ok(r#"round(actor: "lunk", act: delay(initiative: 7))"#);
    assert_eq!(g.current(), Some("orc"), "at 7 the orc was there first");
    g.ok(r#"round(actor: "orc", act: end_turn)"#);
    assert_eq!(g.current(), Some("lunk"));
    assert!(!st(&g.m, 0).flat_footed);
}

#[test] // A4-8: DoO orders are refused under A4 with an A4 rule id
fn doo_orders_are_refused_under_a4() {
    let mut g = duel(false, LUNK, ORC);
    let v = g.refused(r#"action(actor: "lunk", action: "attack", target: Some("orc"))"#);
    assert_eq!(v.rule, "A4-8", "{}", v.reason);
}

#[test] // A4-G-08, A4-3.12: a charge and a full defense last until the figure's next turn, across the round's end
fn charge_lasts_into_the_next_round() {
    let orc = ORC.replace("(1, 1)", "(5, 0)");
    let mut g = duel(true, LUNK, &orc);
    g.ok(r#"round(actor: "orc", act: end_turn)"#);
    // the charge's 10 dice miss; then round 2: the orc first (1 + 7 vs 6 + 6)
    g.dice.force([1; 10]);
    g.dice.force([1, 6]);
    g.ok(r#"round(actor: "lunk", act: charge(target: "orc"))"#);
    g.ok(r#"decline(actor: "orc")"#);
    let lunk = idx(&g, "lunk");
    assert_eq!(g.current(), Some("orc"), "{:?}", g.ev.iter().map(|e| format!("{e:?}").chars().take(60).collect::<String>()).collect::<Vec<_>>());
    assert!(st(&g.m, lunk).charged, "the charge lasts until Lunk's next turn");
    let (tn, _) = super::target_number(&g.m, idx(&g, "orc"), lunk).unwrap();
    assert_eq!(tn, 10, "15 − 5 for the charge");
}
