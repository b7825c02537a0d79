//! §4 turn structure through the headless app: reset steps, AP rolls, surprise, dynamic order,
//! ties, passing, round and phase end, closing reset.

use crate::common::*;

#[test] // R-TURN-1, R-TURN-3, R-TURN-7: a crisis opens with a reset phase of all six steps, then an action phase
fn crisis_opens_with_a_full_reset() {
    let hm = opening(None, room(6, 2), vec![lunk(0, 0), orc(5, 1)], &[4, 3]);
    let steps: Vec<i64> = events(&hm, "reset_step").iter().map(|e| e["step"].as_i64().unwrap()).collect();
    assert_eq!(steps, vec![1, 2, 3, 4, 5, 6]); // R-TURN-4: strictly in order
    let phases: Vec<&str> = events(&hm, "phase").iter().map(|e| e["phase"].as_str().unwrap()).collect();
    assert_eq!(phases, vec!["opening_reset", "action"]);
    let m = hm.snapshot();
    assert_eq!((m.clock.turn, m.clock.round), (1, 1));
    assert_eq!(f(&m, "lunk").ap.current, 4);
}

#[test] // R-TURN-7, R-MANA-2: the opening reset's step 4 gives +1 MP to a caster below maximum (G-37)
fn opening_reset_step_four_recovers() {
    let wiz = ch(r#"(id: "aud", side: "heroes", pos: (0, 0), caster: arcane, stats: (brawn: 5, finesse: 6, savvy: 9, nerve: 8))"#);
    let data = doo_rules::data::RuleData::builtin();
    let mut m = doo_rules::level::build_match(&data, &room(4, 2), &[wiz, orc(3, 1)], None, &Default::default()).unwrap();
    m.fighters[0].mp = 5;
    let mut d = doo_rules::rules::Dice::seeded(1);
    d.force([2, 2]);
    let hm = doo::headless::HeadlessMatch::new(m, d, false);
    assert_eq!(f(&hm.snapshot(), "aud").mp, 6);
}

#[test] // R-TURN-5, R-DICE-3: the AP roll is one exploding die of current Finesse plus adjustments, at least 1 (G-12)
fn ap_roll_explodes_and_has_a_floor() {
    let slowed = ch(r#"(id: "s", side: "heroes", pos: (0, 0), conditions: ["slowed"], stats: (brawn: 5, finesse: 6, savvy: 5, nerve: 5))"#);
    let hm = opening(None, room(6, 2), vec![lunk(0, 1), slowed, orc(5, 1)], &[7, 3, 2, 4]);
    let sets: Vec<(String, i64)> = events(&hm, "ap_set").iter().map(|e| (e["actor"].as_str().unwrap().to_string(), e["ap"].as_i64().unwrap())).collect();
    // lunk: d7 7 explodes, +3 = 10; slowed: d6 2 − 3 → floor 1; orc 4
    assert_eq!(sets, vec![("lunk".into(), 10), ("s".into(), 1), ("orc".into(), 4)]);
}

#[test] // R-TURN-5 / G-13: a character unable to act gets 0 AP and no free steps
fn stunned_at_reset_gets_no_ap() {
    let stunned = ch(r#"(id: "st", side: "heroes", pos: (0, 0), conditions: ["stunned"], stats: (brawn: 5, finesse: 6, savvy: 5, nerve: 5))"#);
    let hm = opening(None, room(6, 2), vec![stunned, lunk(1, 1), orc(5, 1)], &[3, 3]);
    let m = hm.snapshot();
    assert_eq!(f(&m, "st").ap.current, 0);
    assert!(!f(&m, "st").free_steps.available);
}

#[test] // R-TURN-6 / C-40: when both sides are surprised everyone gets exactly 1 AP, and still free steps
fn both_sides_surprised() {
    let mut a = lunk(0, 0);
    a.surprised = true;
    let mut b = orc(5, 1);
    b.surprised = true;
    let hm = opening(None, room(6, 2), vec![a, b], &[]);
    let m = hm.snapshot();
    assert_eq!((f(&m, "lunk").ap.current, f(&m, "orc").ap.current), (1, 1));
    assert!(f(&m, "lunk").free_steps.available);
    assert!(events(&hm, "dice").iter().all(|d| d["purpose"] != "ap_roll"), "surprised characters do not roll");
}

#[test] // R-TURN-8, R-TURN-14: every eligible character gets exactly one opportunity per round
fn one_opportunity_each_per_round() {
    let mut hm =
        mid(None, "()", room(6, 3), vec![lunk(0, 0), orc(5, 0), goblin(5, 2)], "(characters: {\"lunk\": (ap: 3), \"orc\": (ap: 2), \"goblin\": (ap: 1)})", &[]);
    ok(&mut hm, r#"move(actor: "lunk", movement: "step", path: [(1, 0)])"#);
    ok(&mut hm, r#"end(actor: "lunk")"#);
    refused(&mut hm, r#"move(actor: "lunk", movement: "step", path: [(2, 0)])"#, "R-TURN-9");
    ok(&mut hm, r#"move(actor: "orc", movement: "step", path: [(4, 0)])"#);
    ok(&mut hm, r#"end(actor: "orc")"#);
    ok(&mut hm, r#"pass(actor: "goblin")"#);
    assert_eq!(hm.snapshot().clock.round, 2);
}

#[test] // R-TURN-9, R-REACT-11: dynamic order — AP spent on a reflex moves the defender later in the same round
fn reflex_spending_moves_the_defender_later() {
    // Dara 3 AP, orc 4 AP, goblin 2: order orc (4), Dara (3), goblin.
    let mut hm = mid(
        None,
        "()",
        room(6, 3),
        vec![dara(1, 0), orc(2, 0), goblin(4, 2)],
        "(characters: {\"dara\": (ap: 3), \"orc\": (ap: 4), \"goblin\": (ap: 2)})",
        &[4, 4, 2, 2, 3, 3, 1],
    );
    assert_eq!(hm.snapshot().clock.current, Some(1));
    ok(&mut hm, r#"action(actor: "orc", action: "attack", target: Some("dara"))"#);
    ok(&mut hm, r#"reflex(actor: "dara", reflex: "counterattack")"#); // 2 AP: Dara at 1, now behind the goblin (2)
    let m = hm.snapshot();
    assert_eq!(f(&m, "dara").ap.current, 1);
    assert_eq!(m.clock.current, m.index("goblin"));
}

#[test] // R-TURN-9 / G-07: option order_mode = snapshot orders by AP at the start of the round
fn snapshot_order_option() {
    let mut hm = mid(
        None,
        "(order_mode: Some(snapshot))",
        room(6, 3),
        vec![dara(1, 0), orc(2, 0), goblin(4, 2)],
        "(characters: {\"dara\": (ap: 3), \"orc\": (ap: 4), \"goblin\": (ap: 2)})",
        &[4, 4, 2, 2, 3, 3, 1],
    );
    ok(&mut hm, r#"action(actor: "orc", action: "attack", target: Some("dara"))"#);
    ok(&mut hm, r#"reflex(actor: "dara", reflex: "counterattack")"#);
    let m = hm.snapshot();
    assert_eq!(m.clock.current, m.index("dara"), "snapshot order keeps Dara's round-start 3 AP");
}

#[test] // R-TURN-10, G-06, G-39: equal AP and equal Finesse → Finesse check roll-off, ties re-rolled, logged
fn tie_roll_off() {
    let a = ch(r#"(id: "a", side: "heroes", pos: (0, 0), stats: (brawn: 5, finesse: 6, savvy: 5, nerve: 5))"#);
    let b = ch(r#"(id: "b", side: "monsters", pos: (5, 1), stats: (brawn: 5, finesse: 6, savvy: 5, nerve: 5))"#);
    // roll-off: a 2+3 = 5, b 1+4 = 5 (tie, re-roll); a 1+1 = 2, b 3+3 = 6 → b first
    let hm = mid(None, "()", room(6, 2), vec![a, b], "(characters: {\"a\": (ap: 2), \"b\": (ap: 2)})", &[2, 3, 1, 4, 1, 1, 3, 3]);
    let m = hm.snapshot();
    assert_eq!(m.clock.current, m.index("b"));
    let t = events(&hm, "tie_broken");
    assert_eq!(t[0]["by"], "roll_off");
    assert_eq!(events(&hm, "dice").len(), 4);
}

#[test] // R-TURN-11: a character at 0 AP gets no opportunity
fn zero_ap_gets_no_opportunity() {
    let mut hm = mid(None, "()", room(6, 2), vec![lunk(0, 0), orc(5, 1)], "(characters: {\"lunk\": (ap: 0), \"orc\": (ap: 1)})", &[]);
    let m = hm.snapshot();
    assert_eq!(m.clock.current, m.index("orc"));
    refused(&mut hm, r#"pass(actor: "lunk")"#, "R-TURN-9");
}

#[test] // R-TURN-12: no acting out of order and no delaying — another character's command is refused
fn no_acting_out_of_turn() {
    let mut hm = mid(None, "()", room(6, 2), vec![lunk(0, 0), orc(5, 1)], "(characters: {\"lunk\": (ap: 3), \"orc\": (ap: 2)})", &[]);
    refused(&mut hm, r#"move(actor: "orc", movement: "step", path: [(4, 1)])"#, "R-TURN-9");
    refused(&mut hm, r#"end(actor: "orc")"#, "R-TURN-12");
}

#[test] // R-TURN-13, R-AP-4, G-08: passing keeps AP and free steps for a later round; free steps alone are acting
fn passing_keeps_ap_and_free_steps() {
    let mut hm = mid(None, "()", room(6, 2), vec![lunk(0, 0), orc(5, 1)], "(characters: {\"lunk\": (ap: 3), \"orc\": (ap: 2)})", &[]);
    ok(&mut hm, r#"pass(actor: "lunk")"#);
    ok(&mut hm, r#"free_steps(actor: "orc", path: [(4, 1)])"#);
    ok(&mut hm, r#"end(actor: "orc")"#);
    let m = hm.snapshot();
    assert_eq!(m.clock.round, 2, "the orc's free steps counted as acting, so a new round starts");
    assert_eq!(f(&m, "lunk").ap.current, 3);
    assert!(f(&m, "lunk").free_steps.available);
    ok(&mut hm, r#"free_steps(actor: "lunk", path: [(1, 0), (2, 0)])"#);
}

#[test] // R-TURN-15 (a): everyone who still has AP passes in the same round → the phase ends and those AP are lost
fn all_pass_ends_the_phase() {
    let mut hm = mid(None, "()", room(6, 2), vec![lunk(0, 0), orc(5, 1)], "(characters: {\"lunk\": (ap: 3), \"orc\": (ap: 2)})", &[2, 2]);
    ok(&mut hm, r#"pass(actor: "lunk")"#);
    ok(&mut hm, r#"pass(actor: "orc")"#);
    let end = events(&hm, "phase_ended");
    assert_eq!(end.len(), 1);
    assert_eq!(end[0]["lost_ap"], serde_json::json!([["lunk", 3], ["orc", 2]]));
    let m = hm.snapshot();
    assert_eq!((m.clock.turn, m.clock.round), (2, 1)); // R-AP-4: discarded at reset step 5, new AP rolled
    assert_eq!(f(&m, "lunk").ap.current, 2);
}

#[test] // R-TURN-15 (b): a character who passes while every other spends down to 0 in that round loses his AP
fn passer_loses_ap_when_others_spend_out() {
    let mut hm = mid(None, "()", room(6, 2), vec![lunk(0, 0), orc(5, 1)], "(characters: {\"lunk\": (ap: 3), \"orc\": (ap: 2)})", &[1, 1]);
    ok(&mut hm, r#"pass(actor: "lunk")"#);
    ok(&mut hm, r#"move(actor: "orc", movement: "step", path: [(4, 1), (3, 1)])"#);
    ok(&mut hm, r#"end(actor: "orc")"#);
    let end = events(&hm, "phase_ended");
    assert_eq!(end.len(), 1, "phase ends at the end of that round");
    assert_eq!(end[0]["lost_ap"], serde_json::json!([["lunk", 3]]));
}

#[test] // R-TURN-15, R-TURN-16: a round with someone acting and keeping AP starts another; no round limit
fn many_rounds() {
    let mut hm = mid(None, "()", room(8, 2), vec![lunk(0, 0), orc(7, 1)], "(characters: {\"lunk\": (ap: 6), \"orc\": (ap: 0)})", &[]);
    for x in 1..=6 {
        ok(&mut hm, &format!(r#"move(actor: "lunk", movement: "step", path: [({x}, 0)])"#));
        if x < 6 {
            ok(&mut hm, r#"end(actor: "lunk")"#);
            assert_eq!(hm.snapshot().clock.round, x as u32 + 1);
        }
    }
    ok(&mut hm, r#"end(actor: "lunk")"#);
    assert_eq!(events(&hm, "phase_ended")[0]["rounds"], 6);
}

#[test] // R-TURN-17, G-15: when a side has nobody able to act, the closing reset runs steps 1–4 and rolls no AP
fn closing_reset_ends_the_crisis() {
    let stunned_orc = ch(r#"(id: "orc", side: "monsters", pos: (5, 1), conditions: ["stunned"], stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6))"#);
    let mut hm = mid(None, "()", room(6, 2), vec![lunk(0, 0), stunned_orc], "(characters: {\"lunk\": (ap: 2)})", &[1, 1]);
    ok(&mut hm, r#"pass(actor: "lunk")"#);
    let m = hm.snapshot();
    assert_eq!(m.clock.phase, doo_rules::rules::Phase::Over);
    assert_eq!(events(&hm, "crisis_over")[0]["winner"], "heroes");
    assert!(events(&hm, "phase").iter().any(|p| p["phase"] == "closing_reset"));
    assert!(events(&hm, "reset_step").iter().all(|s| s["step"].as_i64().unwrap() <= 4));
    assert_eq!(f(&m, "lunk").ap.current, 0);
    // commands after the end are answered (refused: the crisis is over), not left waiting
    refused(&mut hm, r#"pass(actor: "lunk")"#, "R-TURN-17");
}

#[test] // R-TURN-18, R-COND-2: in crisis mode bleeding costs 1 HP at each reset step 1 (not per minute)
fn bleeding_in_crisis_time() {
    let bleeder = ch(r#"(id: "b", side: "heroes", pos: (0, 0), conditions: ["bleeding"], stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6))"#);
    let mut hm = mid(None, "()", room(6, 2), vec![bleeder, orc(5, 1)], "(characters: {\"b\": (ap: 1)})", &[1, 1, 4, 4]);
    ok(&mut hm, r#"pass(actor: "b")"#);
    let hp = events(&hm, "hp_changed");
    assert_eq!(hp.len(), 1);
    assert_eq!((hp[0]["from"].as_i64(), hp[0]["to"].as_i64()), (Some(11), Some(10)));
}

#[test] // G-15: with three sides the crisis goes on while two can still act
fn three_sides_fight_on() {
    let a = ch(r#"(id: "a", side: "red", pos: (0, 0), stats: (brawn: 5, finesse: 6, savvy: 5, nerve: 5))"#);
    let b = ch(r#"(id: "b", side: "blue", pos: (5, 1), stats: (brawn: 5, finesse: 6, savvy: 5, nerve: 5))"#);
    let c = ch(r#"(id: "c", side: "green", pos: (3, 0), conditions: ["stunned"], stats: (brawn: 5, finesse: 6, savvy: 5, nerve: 5))"#);
    let mut hm = mid(None, "()", room(6, 2), vec![a, b, c], "(characters: {\"a\": (ap: 1), \"b\": (ap: 2)})", &[2, 2, 2, 2]);
    ok(&mut hm, r#"pass(actor: "b")"#);
    ok(&mut hm, r#"pass(actor: "a")"#);
    let m = hm.snapshot();
    assert_eq!(m.clock.phase, doo_rules::rules::Phase::Action, "green is out but red and blue fight on");
    assert!(events(&hm, "crisis_over").is_empty());
}
