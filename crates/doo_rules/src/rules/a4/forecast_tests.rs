//! What the forecast card and the reaction prompt are told under A4 before the click: a stray
//! shot's risk and whom it strikes, a charge's and a full attack's odds, both chances of an
//! attack of opportunity, and the prompt's headline. Each test cites the rule it checks.

use super::pool::at_least;
use super::preview::reaction_choices;
use crate::testkit::{Duel, a4};

const MAP: &[&str] = &["........", "........", "........", "........"];
const AY: &str = r#"(id: "ay", name: Some("Ay"), side: "heroes", pos: (0, 1), stats: (brawn: 6, finesse: 8, savvy: 5, nerve: 5), skills: {"bows": journeyman}, weapon: Some("shortbow"))"#;
const LUNK: &str = r#"(id: "lunk", name: Some("Lunk"), side: "heroes", pos: (5, 2), stats: (brawn: 9, finesse: 7, savvy: 5, nerve: 6), skills: {"axes": journeyman}, weapon: Some("broad_axe"))"#;
const GOB: &str = r#"(id: "gob", name: Some("Gob"), side: "monsters", pos: (4, 1), size: small, stats: (brawn: 5, finesse: 7, savvy: 5, nerve: 4), skills: {"knives": apprentice}, weapon: Some("dagger"))"#;
const ORC: &str = r#"(id: "orc", name: Some("Orc"), side: "monsters", pos: (4, 2), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6), skills: {"maces": apprentice}, weapon: Some("mace"))"#;

fn idx(g: &Duel, id: &str) -> usize {
    g.m.index(id).unwrap()
}

#[test] // A4-7.1, A4-G-37: the odds of a shot into melee name each figure next to the target and the chance a stray strikes it
fn stray_shot_risk_is_forecast_per_neighbour() {
    // initiative as in tests/a4/g37_stray_shot.ron: Gob 11, Ay 10, Lunk 8, Orc 7
    let mut g = a4(MAP, &[AY, LUNK, GOB, ORC], &[4, 1, 6, 1]);
    g.ok(r#"round(actor: "gob", act: end_turn)"#);
    let (ay, lunk, gob, orc) = (idx(&g, "ay"), idx(&g, "lunk"), idx(&g, "gob"), idx(&g, "orc"));
    let o = super::odds(&g.m, ay, orc, 0).expect("in range and sight");
    // 8D+1 against 15 + 7 (into melee); a total in 15..22 is a fumble, then d2 picks Lunk or Gob,
    // each struck on 8D+1 against its own TN 15 (no +7, no reactive defense).
    assert_eq!((o.pool.dice, o.pool.pips, o.tn), (8, 1, 22));
    let fumble = at_least(o.pool, 15, 6).value() - at_least(o.pool, 22, 6).value();
    let each = fumble / 2.0 * at_least(o.pool, 15, 6).value();
    let mut who: Vec<usize> = o.stray.iter().map(|s| s.0).collect();
    who.sort();
    let mut want = vec![lunk, gob];
    want.sort();
    assert_eq!(who, want, "both figures next to the orc, ally and foe");
    for (_, p) in &o.stray {
        assert!((p - each).abs() < 1e-12, "{p} vs {each}");
    }
    // Issue 43: on Ay's bar the attack warns of Lunk (an ally), not of Gob, and Lunk is no target.
    let bar = super::preview::choices(&g.m, ay);
    let attack = bar.iter().find(|c| c.row == "attack").expect("an attack entry");
    // (Lunk stands next to both foes: a shot at either may stray to him)
    assert!(!attack.warn.is_empty() && attack.warn.iter().all(|w| w.0 == "lunk"), "{:?}", attack.warn);
    let at_orc = format!("A shot at Orc may go astray and strike Lunk: {:.0}% (A4-7.1).", each * 100.0);
    assert!(attack.warn.iter().any(|w| w.1 == at_orc), "{:?}", attack.warn);
    assert!(matches!(&attack.aim, super::super::offer::Aim::Figure(t) if !t.contains(&"lunk".to_string())));
    // Lunk's own swing at the orc is not a shot: no stray.
    assert!(super::odds(&g.m, lunk, orc, 0).expect("in reach").stray.is_empty());
}

#[test] // A4-3.2, A4-G-08: a charge that reaches is forecast from its last square, at its extra dice
fn charge_odds_come_from_the_charge_square() {
    // Lunk 3 squares from the orc in a straight line: no attack from here, a charge reaches.
    let lunk = LUNK.replace("(5, 2)", "(0, 2)");
    let g = a4(MAP, &[&lunk, ORC], &[3, 1]);
    let (l, o) = (idx(&g, "lunk"), idx(&g, "orc"));
    assert!(super::odds(&g.m, l, o, 0).is_none(), "out of reach where it stands");
    let c = super::charge_odds(&g.m, l, o).expect("a straight charge reaches the orc");
    let plain = super::stats::odds_at(&g.m, g.m.a4.as_deref().unwrap(), l, super::super::grid::Pos::new(3, 2), o, 0).unwrap();
    assert_eq!(c.pool.dice, plain.pool.dice + g.m.a4.as_ref().unwrap().book.movement.charge_attack_dice);
    assert!(c.hit > plain.hit);
    // A4-3.14: a full attack's each attack at its penalty dice
    let near = LUNK.replace("(5, 2)", "(3, 2)");
    let g = a4(MAP, &[&near, ORC], &[3, 1]);
    let (n, fa) = super::full_attack_odds(&g.m, idx(&g, "lunk"), idx(&g, "orc")).unwrap();
    let one = super::odds(&g.m, idx(&g, "lunk"), idx(&g, "orc"), 0).unwrap();
    assert!(n >= 2 && fa.pool.dice < one.pool.dice && fa.hit < one.hit);
}

#[test] // A4-4.1, A4-3.21: the attack of opportunity's choice shows both chances; the reactive defence's prompt says what it is
fn opportunity_shows_both_chances_and_prompts_name_their_choice() {
    // as moving_past_provokes_once in tests.rs: the orc first, then Lunk walks past it
    let lunk = r#"(id: "lunk", side: "heroes", pos: (0, 0), stats: (brawn: 9, finesse: 7, savvy: 5, nerve: 6), skills: {"axes": journeyman}, weapon: Some("broad_axe"))"#;
    let orc =
        r#"(id: "orc", side: "monsters", pos: (1, 1), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6), skills: {"maces": apprentice}, weapon: Some("mace"))"#;
    let mut g = a4(MAP, &[lunk, orc], &[1, 6]);
    g.ok(r#"round(actor: "orc", act: end_turn)"#);
    g.ok(r#"round(actor: "lunk", act: move(path: [(1, 0), (2, 0), (3, 0)]))"#);
    let (o, l) = (idx(&g, "orc"), idx(&g, "lunk"));
    let (_, list) = reaction_choices(&g.m, o).expect("the orc is asked");
    let odds = super::odds(&g.m, o, l, 0).unwrap();
    let (_, defended) = odds.hit_defended.expect("Lunk can defend reactively");
    let label = &list[0].label;
    assert!(label.contains(&format!("{:.0}%", odds.hit * 100.0)) && label.contains(&format!("{:.0}%", defended * 100.0)), "{label}");
    assert!(odds.hit > defended, "a defence lowers the chance");
    let h = super::preview::window_headline(&g.m, o).expect("a headline");
    assert!(h.contains("attack of opportunity") && h.contains("A4-4.1"), "{h}");
    g.dice.force([1; 8]);
    g.ok(r#"reflex(actor: "orc", reflex: "a4_opportunity")"#);
    let h = super::preview::window_headline(&g.m, l).expect("Lunk is asked");
    assert!(h.contains("reactive defense") && h.contains("A4-3.21") && !h.contains("out of turn"), "{h}");
    let (_, list) = reaction_choices(&g.m, l).expect("Lunk is offered his defence");
    let o = super::odds(&g.m, o, l, 0).unwrap();
    let both = format!("hits {:.0}%, {:.0}% if you defend", o.hit * 100.0, o.hit_defended.unwrap().1 * 100.0);
    assert!(list[0].label.contains(&both), "both chances: {}", list[0].label);
}
