//! §12 posture and §13 Defense: the Defense check, standing and temporary adjustments, prone,
//! helpless defenders, guiding a stunned ally.

use crate::common::*;
use doo_rules::rules::defense::{defense_adjustment, helpless, posture_defense};
use doo_rules::rules::profile::Posture;

fn prone() -> doo_rules::rules::profile::ProneEffects {
    doo_rules::data::RuleData::builtin().profiles.ruleset(None, &Default::default()).unwrap().limits.prone
}

#[test] // R-POS-1, R-POS-6: four postures; sitting and kneeling carry no Defense modifier
fn postures() {
    let e = prone();
    for p in [Posture::Standing, Posture::Sitting, Posture::Kneeling] {
        assert_eq!(posture_defense(p, true, true, &e), 0);
        assert_eq!(posture_defense(p, false, true, &e), 0);
    }
    assert_eq!(posture_defense(Posture::Prone, true, true, &e), -3);
}

#[test] // R-POS-4, R-COND-4: prone is −3 vs melee and +3 vs ranged; CORE-STRICT (no adv conditions) has neither
fn prone_defense() {
    let e = prone();
    assert_eq!(posture_defense(Posture::Prone, true, true, &e), -3);
    assert_eq!(posture_defense(Posture::Prone, false, true, &e), 3);
    assert_eq!(posture_defense(Posture::Prone, true, false, &e), 0);
    let hm = mid(None, "()", room(6, 2), vec![lunk(0, 0), orc(1, 0)], "(characters: {\"lunk\": (ap: 2, posture: Some(prone))})", &[]);
    let m = hm.snapshot();
    let i = m.index("lunk").unwrap();
    assert_eq!(defense_adjustment(&m, i, true, false), 1 - 3, "Journeyman axes +1, prone −3");
    assert_eq!(defense_adjustment(&m, i, false, false), 1 + 3);
}

#[test] // R-POS-2: Flop throws to sitting, kneeling or prone as the action; not to standing or the same posture
fn flop_postures() {
    let mut hm = mid(None, "()", room(6, 2), vec![lunk(0, 0), orc(5, 1)], "(characters: {\"lunk\": (ap: 2)})", &[]);
    refused(&mut hm, r#"action(actor: "lunk", action: "flop", posture: Some(standing))"#, "R-POS-2");
    ok(&mut hm, r#"action(actor: "lunk", action: "flop", posture: Some(kneeling))"#);
    assert_eq!(f(&hm.snapshot(), "lunk").posture, Posture::Kneeling);
}

#[test] // R-POS-5, R-DEF-5, R-ATK-4: unconscious or stunned defenders make no Defense check: CR 6
fn helpless_defenders_are_cr_6() {
    let down =
        ch(r#"(id: "down", side: "monsters", pos: (1, 0), hp: Some(0), conditions: ["incapacitated"], stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6))"#);
    let mut hm = mid(None, "()", room(6, 2), vec![lunk(0, 0), down, orc(5, 1)], "(characters: {\"lunk\": (ap: 2)})", &[2, 2, 1]);
    let m = hm.snapshot();
    assert!(helpless(&m, m.index("down").unwrap()));
    ok(&mut hm, r#"action(actor: "lunk", action: "attack", target: Some("down"))"#);
    let r = events(&hm, "attack_resolved")[0].clone();
    assert_eq!(r["defense_cr"], 6);
    assert!(events(&hm, "dice").iter().all(|d| d["purpose"] != "defense"));
}

#[test] // R-POS-7, R-INJ-5: an ally guides a stunned character to sit (1 AP per instruction)
fn guide_stunned_ally() {
    let stunned = ch(r#"(id: "st", side: "heroes", pos: (1, 0), conditions: ["stunned"], stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6))"#);
    let mut hm = mid(None, "()", room(6, 2), vec![lunk(0, 0), stunned, orc(5, 1)], "(characters: {\"lunk\": (ap: 2)})", &[]);
    ok(&mut hm, r#"action(actor: "lunk", action: "guide_stunned", target: Some("st"), instruction: Some(sit))"#);
    let m = hm.snapshot();
    assert_eq!(f(&m, "st").posture, Posture::Sitting);
    assert_eq!(f(&m, "lunk").ap.current, 1);
}

#[test] // R-DEF-1, R-DEF-2, G-33: Defense = 2 exploding Finesse dice + the better of weapon and shield skill + shield bonus
fn defense_check_and_standing_adjustments() {
    let knight = ch(
        r#"(id: "k", side: "heroes", pos: (1, 0), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6), weapon: Some("broadsword"), shield: Some("heater"), skills: {"swords": apprentice, "shields": foreman})"#,
    );
    let mut hm = mid(None, "()", room(6, 2), vec![orc(0, 0), knight], "(characters: {\"orc\": (ap: 2)})", &[3, 6, 2, 1, 1]);
    let m = hm.snapshot();
    assert_eq!(defense_adjustment(&m, m.index("k").unwrap(), true, false), 2 + 2, "Shields Foreman +2 beats Swords Apprentice 0; heater +2");
    ok(&mut hm, r#"action(actor: "orc", action: "attack", target: Some("k"))"#);
    let d = events(&hm, "dice").into_iter().find(|d| d["purpose"] == "defense").unwrap().clone();
    assert_eq!(d["rank"], 6);
    assert_eq!(d["dice"][1]["faces"], serde_json::json!([6, 2]), "the 6 exploded");
    assert_eq!(d["total"], 3 + 6 + 2 + 4);
}

#[test] // R-DEF-3, R-DEF-4: temporary Defense adjustments are listed with their scope and summed per attack; Shield Block counts vs melee only
fn temporary_adjustments_scope_and_reset() {
    let knight = ch(
        r#"(id: "k", side: "heroes", pos: (0, 0), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6), weapon: Some("broadsword"), shield: Some("heater"), skills: {"swords": apprentice, "shields": journeyman})"#,
    );
    let mut hm = mid(None, "()", room(8, 2), vec![knight, orc(7, 1)], "(characters: {\"k\": (ap: 5), \"orc\": (ap: 1)})", &[2, 2]);
    ok(&mut hm, r#"move(actor: "k", movement: "run", path: [(1, 0), (2, 0)])"#);
    ok(&mut hm, r#"action(actor: "k", action: "shield_block")"#);
    let m = hm.snapshot();
    let k = f(&m, "k");
    use doo_rules::rules::fighter::AdjTarget::Defense;
    assert_eq!(k.adjustments.len(), 2);
    assert_eq!(k.temp_adjustment(Defense, true), -1 + 2);
    assert_eq!(k.temp_adjustment(Defense, false), -1);
    ok(&mut hm, r#"pass(actor: "orc")"#);
    ok(&mut hm, r#"pass(actor: "k")"#);
    ok(&mut hm, r#"pass(actor: "orc")"#);
    let m = hm.snapshot();
    assert_eq!(m.clock.turn, 2);
    assert!(f(&m, "k").adjustments.is_empty(), "reset step 2 clears the list");
}

#[test] // R-ACT-1, R-DEF-3: Shield Block needs a shield and Journeyman Shields
fn shield_block_requirements() {
    let mut hm = mid(None, "()", room(6, 2), vec![lunk(0, 0), orc(5, 1)], "(characters: {\"lunk\": (ap: 3)})", &[]);
    refused(&mut hm, r#"action(actor: "lunk", action: "shield_block")"#, "R-ACT-1");
}

#[test] // R-COMBO-7: moving after attacking needs a later opportunity (and AP left)
fn move_after_attack_in_a_later_opportunity() {
    let mut hm = mid(None, "()", room(6, 2), vec![lunk(0, 0), orc(1, 0)], "(characters: {\"lunk\": (ap: 4), \"orc\": (ap: 1)})", &[6, 6, 1, 1]);
    ok(&mut hm, r#"action(actor: "lunk", action: "attack", target: Some("orc"))"#);
    refused(&mut hm, r#"move(actor: "lunk", movement: "step", path: [(0, 1)])"#, "R-COMBO-7");
    ok(&mut hm, r#"pass(actor: "orc")"#);
    ok(&mut hm, r#"move(actor: "lunk", movement: "step", path: [(0, 1)])"#);
}
