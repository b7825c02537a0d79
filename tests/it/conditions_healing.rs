//! §1–§2 leftovers, §18 conditions, §19 injury, §20 healing and §21 Mana/Faith through the
//! headless app, each test citing its rule ids.

use crate::common::*;
use doo_rules::rules::attack::{Injury, injury};
use doo_rules::rules::fighter::{Fighter, Stats};
use doo_rules::rules::profile::Rank;

fn aud(x: i32, y: i32) -> doo_rules::level::CharacterDef {
    ch(&format!(
        r#"(id: "aud", name: "Audacia", side: "heroes", pos: ({x}, {y}), caster: arcane, spells: ["firebolt", "entangle"], items: ["potion_of_healing"], weapon: "dagger", stats: (brawn: 5, finesse: 6, savvy: 9, nerve: 8))"#
    ))
}

fn priest(x: i32, y: i32) -> doo_rules::level::CharacterDef {
    ch(&format!(
        r#"(id: "fustus", name: "Fustus", side: "heroes", pos: ({x}, {y}), caster: divine, spells: ["healing_word"], skills: {{"healing": journeyman}}, weapon: "club", stats: (brawn: 5, finesse: 6, savvy: 6, nerve: 9))"#
    ))
}

#[test] // R-STAT-3, C-31: HP = Brawn + Nerve/2 (Brawn 9, Nerve 6 → 12; 5, 9 → 9); MP, FP; option hp_formula = legacy_max
fn derived_stats() {
    let s = |b, f, sv, n| Stats { brawn: b, finesse: f, savvy: sv, nerve: n };
    assert_eq!(Fighter::derived_max(&s(9, 7, 5, 6), false), (12, 8, 8));
    assert_eq!(Fighter::derived_max(&s(5, 6, 9, 8), false).0, 9);
    assert_eq!(Fighter::derived_max(&s(5, 6, 9, 8), false).1, 13, "MP = Savvy + Nerve/2");
    assert_eq!(Fighter::derived_max(&s(5, 6, 9, 8), false).2, 12, "FP = Nerve + Savvy/2");
    assert_eq!(Fighter::derived_max(&s(5, 6, 9, 9), true).0, 11, "legacy: the larger of 5 + 4 and 9 + 2");
}

#[test] // R-STAT-4, R-DICE-1: a stat's die has the stat's rank (Savvy 9 casts with 2d9!)
fn stat_die_rank() {
    let mut hm = mid(None, "()", room(6, 2), vec![aud(0, 0), orc(3, 0)], "(characters: {\"aud\": (ap: 2)})", &[1, 1, 1, 1]);
    ok(&mut hm, r#"action(actor: "aud", action: "cast_spell", target: "orc", spell: "firebolt")"#);
    let cast = events(&hm, "dice").into_iter().find(|d| d["purpose"] == "cast_firebolt").unwrap().clone();
    assert_eq!((cast["rank"].as_i64(), cast["dice"].as_array().map(|a| a.len())), (Some(9), Some(2)));
}

#[test] // R-STAT-6, R-FS-1: size sets the free-step allowance (small 1, medium 2, large 3)
fn size_sets_allowance() {
    let big = ch(r#"(id: "ogre", side: "monsters", pos: (5, 1), size: large, stats: (brawn: 14, finesse: 5, savvy: 3, nerve: 6))"#);
    let m =
        doo_rules::level::build_match(&doo_rules::data::RuleData::builtin(), &room(6, 2), &[lunk(0, 0), goblin(2, 0), big], None, &Default::default()).unwrap();
    let a: Vec<u32> = m.fighters.iter().map(|f| f.free_steps.allowance).collect();
    assert_eq!(a, vec![2, 1, 3]);
}

#[test] // R-STAT-7, R-STAT-8: rank adjustments −2 … +5; an untrained shield costs −2 on Attack checks
fn skill_ranks() {
    let r = [Rank::Untrained, Rank::Apprentice, Rank::Journeyman, Rank::Foreman, Rank::Master, Rank::GrandMaster, Rank::LegendaryMaster];
    assert_eq!(r.map(|x| x.adjustment()), [-2, 0, 1, 2, 3, 4, 5]);
    let mut l = lunk(0, 0);
    l.shield = Some("buckler".into());
    let mut hm = mid(None, "()", room(6, 2), vec![l, orc(1, 0)], "(characters: {\"lunk\": (ap: 2)})", &[1, 1, 1, 1, 1]);
    ok(&mut hm, r#"action(actor: "lunk", action: "attack", target: Some("orc"))"#);
    let atk = events(&hm, "dice").into_iter().find(|d| d["purpose"] == "attack").unwrap().clone();
    assert!(atk["parts"].as_array().unwrap().iter().any(|p| p[0] == "untrained_shield" && p[1] == -2));
}

#[test] // R-DICE-3, C-38: damage dice explode by default; option damage_explodes = false stops it
fn damage_explosion_option() {
    for (opts, want) in [("()", 8 + 3), ("(damage_explodes: Some(false))", 8)] {
        let mut hm = mid(None, opts, room(6, 2), vec![lunk(0, 0), orc(1, 0)], "(characters: {\"lunk\": (ap: 2)})", &[1, 1, 1, 1, 8, 3]);
        ok(&mut hm, r#"action(actor: "lunk", action: "attack", target: Some("orc"))"#);
        assert_eq!(events(&hm, "attack_resolved")[0]["raw_damage"].as_i64(), Some(want), "{opts}");
    }
}

#[test] // R-DICE-4, R-DICE-5: the match configures its dice from the profile options (emulated odd dice, large-dice table)
fn dice_options_reach_the_match() {
    let keen = ch(r#"(id: "keen", side: "heroes", pos: (0, 0), stats: (brawn: 6, finesse: 9, savvy: 6, nerve: 6))"#);
    let data = doo_rules::data::RuleData::builtin();
    let o: doo_rules::rules::profile::OptionOverrides = doo_rules::data::ron_options().from_str("(odd_dice: Some(emulate_physical))").unwrap();
    let m = doo_rules::level::build_match(&data, &room(6, 2), &[keen, orc(5, 1)], None, &o).unwrap();
    let mut d = doo_rules::rules::Dice::seeded(3);
    d.force([10, 4, 2]); // the AP die d9 is thrown as a d10: a 10 counts 5
    let hm = doo::headless::HeadlessMatch::new(m, d, false);
    let ap = events(&hm, "dice").into_iter().find(|e| e["actor"] == "keen").unwrap().clone();
    assert_eq!(ap["dice"][0]["thrown"], serde_json::json!([10]));
    assert_eq!(f(&hm.snapshot(), "keen").ap.current, 5);
}

#[test] // R-COND-1, R-COND-3, R-COND-5, R-MANA-4: Entangle roots the target (temporary), no stacking; gone at reset step 2
fn entangle_is_temporary() {
    // orc Defense 1+1 = 2; Savvy 2d9!: 3+3 = 6 → success
    let mut hm =
        mid(None, "()", room(8, 2), vec![aud(0, 0), orc(4, 0)], "(characters: {\"aud\": (ap: 4, mp: 13), \"orc\": (ap: 1)})", &[1, 1, 3, 3, 1, 1, 3, 3, 2, 2]);
    ok(&mut hm, r#"action(actor: "aud", action: "cast_spell", target: "orc", spell: "entangle")"#);
    let m = hm.snapshot();
    assert_eq!(f(&m, "aud").mp, 10, "Entangle costs 3 MP");
    assert!(f(&m, "orc").has_condition("rooted"));
    refused(&mut hm, r#"move(actor: "orc", movement: "step", path: [(5, 0)])"#, "R-COND-3");
    ok(&mut hm, r#"pass(actor: "orc")"#);
    ok(&mut hm, r#"action(actor: "aud", action: "cast_spell", target: "orc", spell: "entangle")"#);
    assert_eq!(f(&hm.snapshot(), "orc").conditions.iter().filter(|c| c.id == "rooted").count(), 1, "refreshed, not stacked");
    ok(&mut hm, r#"pass(actor: "orc")"#);
    let m = hm.snapshot();
    assert_eq!(m.clock.turn, 2);
    assert!(!f(&m, "orc").has_condition("rooted"), "temporary: removed at reset step 2");
}

#[test] // R-COND-2, R-COND-4, R-INJ-6, C-37: bleeding at step 1 of every reset; a dying character cannot roll it off; CORE-STRICT ignores adv conditions
fn bleeding_and_dying() {
    let dying = ch(
        r#"(id: "d", side: "heroes", pos: (0, 0), hp: Some(0), conditions: ["incapacitated", "bleeding"], stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6))"#,
    );
    let mut hm = mid(None, "()", room(6, 2), vec![dying, lunk(0, 1), orc(5, 1)], "(characters: {\"lunk\": (ap: 1)})", &[1, 1, 1, 1, 1, 1]);
    ok(&mut hm, r#"pass(actor: "lunk")"#);
    let m = hm.snapshot();
    assert_eq!(f(&m, "d").hp, -1);
    assert!(events(&hm, "dice").iter().all(|d| d["purpose"] != "remove_bleeding"), "no self-stabilizing while dying");
    let blind =
        ch(r#"(id: "b", side: "heroes", pos: (0, 0), conditions: ["blinded"], weapon: "broad_axe", stats: (brawn: 9, finesse: 7, savvy: 5, nerve: 6))"#);
    let mut hm = mid(Some("CORE-STRICT"), "()", room(6, 2), vec![blind, orc(1, 0)], "(characters: {\"b\": (ap: 2)})", &[1, 1, 1, 1, 1]);
    ok(&mut hm, r#"action(actor: "b", action: "attack", target: Some("orc"))"#);
    let atk = events(&hm, "dice").into_iter().find(|d| d["purpose"] == "attack").unwrap().clone();
    assert!(atk["parts"].as_array().is_none_or(|p| p.iter().all(|x| x[0] != "blinded")), "blinded is an adv condition");
}

#[test] // R-COND-3, R-TURN-4 step 3, R-INJ-5: persistent conditions roll at step 3 (bleeding vs CR 9; stunned vs its damage)
fn persistent_removal_checks() {
    let b = ch(r#"(id: "b", side: "heroes", pos: (0, 0), conditions: ["bleeding"], stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6))"#);
    let mut hm = mid(None, "()", room(6, 2), vec![b, orc(5, 1)], "(characters: {\"b\": (ap: 1), \"orc\": (ap: 2)})", &[5, 4, 2, 2]);
    ok(&mut hm, r#"pass(actor: "orc")"#);
    ok(&mut hm, r#"pass(actor: "b")"#);
    let r = events(&hm, "condition_removed");
    assert_eq!((r[0]["condition"].as_str(), r[0]["reason"].as_str()), (Some("bleeding"), Some("recovery check")));
    assert_eq!(f(&hm.snapshot(), "b").hp, 10, "bled once at step 1 before the check");
}

#[test] // R-INJ-1, R-INJ-2, C-28: statuses by HP (wounded = bloodied); no combat penalty
fn injury_statuses() {
    let mut m = doo_rules::level::build_match(&doo_rules::data::RuleData::builtin(), &room(3, 1), &[lunk(0, 0)], None, &Default::default()).unwrap();
    let st: Vec<Injury> = [12, 11, 6, 5, 1, 0, -11, -12]
        .iter()
        .map(|&hp| {
            m.fighters[0].hp = hp;
            injury(&m.fighters[0])
        })
        .collect();
    use Injury::*;
    assert_eq!(st, vec![Healthy, Bruised, Bruised, Wounded, Wounded, Incapacitated, Incapacitated, Dead]);
}

#[test] // R-INJ-3, R-INJ-8, R-DMG-4, G-13: at 0 HP incapacitated, prone, bleeding, no AP; at −max HP dead and out of play
fn incapacitation_and_death() {
    let frail = ch(r#"(id: "f", side: "monsters", pos: (1, 0), stats: (brawn: 2, finesse: 4, savvy: 2, nerve: 2))"#);
    // f HP 3. Defense 1+1 = 2; Lunk 2+2+1 = 5 → +3 Solid: 1d8 3 + 2 = 5 → HP −2
    let mut hm =
        mid(None, "()", room(6, 2), vec![lunk(0, 0), frail, orc(5, 1)], "(characters: {\"lunk\": (ap: 4), \"f\": (ap: 3)})", &[1, 1, 2, 2, 3, 4, 4, 4]);
    ok(&mut hm, r#"action(actor: "lunk", action: "attack", target: Some("f"))"#);
    let m = hm.snapshot();
    let fr = f(&m, "f");
    assert_eq!((fr.hp, fr.ap.current, fr.posture), (-2, 0, doo_rules::rules::profile::Posture::Prone));
    assert!(fr.has_condition("incapacitated") && fr.has_condition("bleeding"));
    // the next round: CR 6 (R-POS-5); 4+4+1 = 9 → +3 Solid: 1d8 4 + 2 = 6 → −8 ≤ −3: dead
    assert_eq!(hm.snapshot().clock.round, 2);
    ok(&mut hm, r#"action(actor: "lunk", action: "attack", target: Some("f"))"#);
    assert_eq!(events(&hm, "attack_resolved")[1]["defense_cr"], 6);
    assert_eq!(events(&hm, "died")[0]["actor"], "f");
    refused(&mut hm, r#"pass(actor: "f")"#, "R-INJ-8");
}

#[test] // G-14, R-INJ-8: a mook dies at 0 HP and no longer occupies its space
fn mooks_die() {
    let mook = ch(r#"(id: "m", side: "monsters", pos: (1, 0), mook: true, stats: (brawn: 2, finesse: 4, savvy: 2, nerve: 2))"#);
    let mut hm = mid(None, "()", room(6, 2), vec![lunk(0, 0), mook, orc(5, 1)], "(characters: {\"lunk\": (ap: 4)})", &[1, 1, 1, 1, 3]);
    ok(&mut hm, r#"action(actor: "lunk", action: "attack", target: Some("m"))"#);
    assert_eq!(events(&hm, "died")[0]["actor"], "m");
    let m = hm.snapshot();
    assert!(m.is_dead(m.index("m").unwrap()));
    assert_eq!(m.occupant(doo_rules::rules::Pos::new(1, 0)), None);
}

#[test] // R-INJ-4: a stunning blow (more than half max HP) → Brawn-or-Nerve check vs the damage; stunned on failure, recovered at step 3
fn stunning_blow_and_recovery() {
    // S-08 numbers: the orc (HP 11) takes 7, checks 2d8! vs 7: 2+4 = 6 → stunned; at the reset 4+4 = 8 ≥ 7 → recovers
    let mut o = orc(1, 0);
    o.armor = Some("chainmail".into());
    let mut hm = mid(None, "()", room(6, 2), vec![lunk(0, 0), o], "(characters: {\"lunk\": (ap: 4), \"orc\": (ap: 3)})", &[3, 4, 9, 2, 3, 2, 4, 4, 4, 3, 3]);
    ok(&mut hm, r#"action(actor: "lunk", action: "attack", target: Some("orc"))"#);
    let m = hm.snapshot();
    assert!(f(&m, "orc").has_condition("stunned"));
    assert_eq!(f(&m, "orc").ap.current, 0, "G-13: stunned drops to 0 AP");
    ok(&mut hm, r#"pass(actor: "lunk")"#);
    let r = events(&hm, "condition_removed");
    assert!(r.iter().any(|e| e["condition"] == "stunned" && e["reason"] == "recovery check"), "recovered at reset step 3");
}

#[test] // R-HEAL-1, R-HEAL-3, R-HEAL-4, R-INJ-7, G-24: First Aid (3/Only) — Healing check vs the patient's CR stops bleeding; untrained −2; retries allowed
fn first_aid() {
    let hurt = ch(
        r#"(id: "h", side: "heroes", pos: (1, 0), hp: Some(-2), conditions: ["incapacitated", "bleeding"], stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6))"#,
    );
    // Fustus Savvy 2d6!+1 (Journeyman Healing): 4+4+1 = 9 ≥ 9 (incapacitated: Moderate)
    let mut hm = mid(None, "()", room(6, 2), vec![priest(0, 0), hurt, orc(5, 1)], "(characters: {\"fustus\": (ap: 3)})", &[4, 4]);
    ok(&mut hm, r#"action(actor: "fustus", action: "first_aid", target: Some("h"))"#);
    let m = hm.snapshot();
    assert!(!f(&m, "h").has_condition("bleeding"), "stabilized");
    assert_eq!(f(&m, "h").hp, -2, "first aid restores no HP");
    let far = ch(
        r#"(id: "h", side: "heroes", pos: (3, 0), hp: Some(-2), conditions: ["incapacitated", "bleeding"], stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6))"#,
    );
    let mut hm = mid(None, "()", room(6, 2), vec![priest(0, 0), far, orc(5, 1)], "(characters: {\"fustus\": (ap: 3)})", &[]);
    refused(&mut hm, r#"action(actor: "fustus", action: "first_aid", target: Some("h"))"#, "G-24");
}

#[test] // R-HEAL-6, G-25, R-HEAL-9, G-23: a Potion of Healing (Use Item 3/Only) heals 1d6, capped at max HP, and is used up
fn potion() {
    let mut hm = mid(None, "()", room(6, 2), vec![aud(0, 0), orc(5, 1)], "(characters: {\"aud\": (ap: 2, hp: Some(7))})", &[6, 3]);
    ok(&mut hm, r#"action(actor: "aud", action: "use_item", item: Some("potion_of_healing"))"#);
    let m = hm.snapshot();
    assert_eq!(f(&m, "aud").hp, 9, "7 + 9 capped at 9");
    assert!(f(&m, "aud").loadout.items.is_empty());
    assert!(events(&hm, "only_mode").len() == 1, "AP_start 2 < 3: Only mode");
}

#[test] // R-MANA-1, R-MANA-4, R-MANA-5, R-GEAR-8: only casters cast; points paid; the shield's spellcasting adjustment applies to spells with gestures
fn casting_rules() {
    let mut hm = mid(None, "()", room(6, 2), vec![lunk(0, 0), orc(3, 0)], "(characters: {\"lunk\": (ap: 2)})", &[]);
    refused(&mut hm, r#"action(actor: "lunk", action: "cast_spell", target: "orc", spell: "firebolt")"#, "G-26");
    let mut a = aud(0, 0);
    a.shield = Some("targe".into());
    a.weapon = None;
    let mut hm = mid(None, "()", room(6, 2), vec![a, orc(3, 0)], "(characters: {\"aud\": (ap: 4, mp: 1)})", &[1, 1, 1, 1]);
    refused(&mut hm, r#"action(actor: "aud", action: "cast_spell", target: "orc", spell: "firebolt")"#, "R-MANA-4");
    let mut a = aud(0, 0);
    a.shield = Some("targe".into());
    a.weapon = None;
    let mut hm = mid(None, "()", room(6, 2), vec![a, orc(3, 0)], "(characters: {\"aud\": (ap: 4, mp: 5)})", &[1, 1, 1, 1]);
    ok(&mut hm, r#"action(actor: "aud", action: "cast_spell", target: "orc", spell: "firebolt")"#);
    let cast = events(&hm, "dice").into_iter().find(|d| d["purpose"] == "cast_firebolt").unwrap().clone();
    assert!(cast["parts"].as_array().unwrap().iter().any(|p| p[0] == "shield" && p[1] == -2), "{cast}");
}

#[test] // R-MANA-2, R-MANA-3, R-HEAL-6, R-INJ-7: Recover +2 (3/Only); reset +1 by choice; Healing Word heals and stabilizes
fn mana_faith_and_healing_word() {
    let hurt = ch(r#"(id: "h", side: "heroes", pos: (1, 0), hp: Some(2), conditions: ["bleeding"], stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6))"#);
    // Fustus Nerve 2d9!: 5+4 = 9 ≥ 9; heals 1d6 3
    let mut hm = mid(None, "()", room(6, 2), vec![priest(0, 0), hurt, orc(5, 1)], "(characters: {\"fustus\": (ap: 4, fp: 5), \"h\": (ap: 1)})", &[5, 4, 3]);
    ok(&mut hm, r#"action(actor: "fustus", action: "cast_spell", target: "h", spell: "healing_word")"#);
    let m = hm.snapshot();
    assert_eq!((f(&m, "h").hp, f(&m, "fustus").fp), (5, 3));
    assert!(!f(&m, "h").has_condition("bleeding"));
    ok(&mut hm, r#"recovery(actor: "fustus", pool: faith)"#);
    ok(&mut hm, r#"pass(actor: "h")"#);
    // R-ONLY-7: AP_start 4 ≥ 3 but only 2 AP left — Recover is out of reach this turn
    refused(&mut hm, r#"action(actor: "fustus", action: "recover", pool: Some(faith))"#, "R-ONLY-7");
    ok(&mut hm, r#"pass(actor: "fustus")"#);
    ok(&mut hm, r#"pass(actor: "h")"#);
    let m = hm.snapshot();
    assert_eq!(m.clock.turn, 2);
    assert_eq!(f(&m, "fustus").fp, 4, "reset step 4: +1 Faith, the chosen pool");
    // R-MANA-3: Recover in Only mode (AP_start 2): +2
    let mut hm = mid(None, "()", room(6, 2), vec![priest(0, 0), orc(5, 1)], "(characters: {\"fustus\": (ap: 2, fp: 3)})", &[]);
    ok(&mut hm, r#"action(actor: "fustus", action: "recover", pool: Some(faith))"#);
    let p = events(&hm, "pool_changed")[0].clone();
    assert_eq!((p["reason"].as_str(), p["from"].as_i64(), p["to"].as_i64()), (Some("recover"), Some(3), Some(5)));
    assert_eq!(events(&hm, "only_mode").len(), 1);
}
