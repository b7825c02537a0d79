//! §5–§10 through the headless app: spending AP, free steps, Only and X/Only, movement,
//! actions, and how they combine in one opportunity.

use crate::common::*;

fn duel(start: &str) -> doo::headless::HeadlessMatch {
    mid(None, "()", room(8, 4), vec![lunk(0, 0), orc(7, 3)], start, &[])
}

#[test] // R-FS-1, R-FS-3, R-FS-4: allowance by size; all in one go; 0 AP, no Defense penalty; the rest forfeited
fn free_step_allowance_and_forfeit() {
    let mut hm = mid(None, "()", room(8, 4), vec![lunk(0, 0), goblin(7, 3)], "(characters: {\"goblin\": (ap: 2), \"lunk\": (ap: 1)})", &[]);
    // goblin (small): allowance 1
    refused(&mut hm, r#"free_steps(actor: "goblin", path: [(6, 3), (5, 3)])"#, "R-FS-1");
    ok(&mut hm, r#"free_steps(actor: "goblin", path: [(6, 3)])"#);
    let m = hm.snapshot();
    let g = f(&m, "goblin");
    assert_eq!((g.ap.current, g.adjustments.len()), (2, 0));
    // lunk (medium): 2; uses 1, forfeits the other
    ok(&mut hm, r#"free_steps(actor: "lunk", path: [(1, 0)])"#);
    assert_eq!(events(&hm, "free_steps_used")[1]["forfeited"], 1);
    refused(&mut hm, r#"free_steps(actor: "lunk", path: [(2, 0)])"#, "R-FS-3");
}

#[test] // R-FS-3, R-FS-11: free steps cannot be split over rounds; what is unused is gone at the reset
fn free_steps_once_per_turn() {
    let mut hm = mid(None, "()", room(8, 4), vec![lunk(0, 0), orc(7, 3)], "(characters: {\"lunk\": (ap: 3), \"orc\": (ap: 1)})", &[3, 3]);
    ok(&mut hm, r#"free_steps(actor: "lunk", path: [(1, 0)])"#);
    ok(&mut hm, r#"end(actor: "lunk")"#);
    ok(&mut hm, r#"pass(actor: "orc")"#);
    refused(&mut hm, r#"free_steps(actor: "lunk", path: [(2, 0)])"#, "R-FS-3");
    ok(&mut hm, r#"pass(actor: "lunk")"#);
    ok(&mut hm, r#"pass(actor: "orc")"#);
    // new turn: a fresh allowance of 2, never 2 + leftovers
    let m = hm.snapshot();
    assert_eq!(m.clock.turn, 2);
    assert!(f(&m, "lunk").free_steps.available);
    refused(&mut hm, r#"free_steps(actor: "lunk", path: [(2, 0), (3, 0), (4, 0)])"#, "R-FS-1");
}

#[test] // R-FS-2, R-POS-3: only characters standing at reset step 5 get free steps
fn no_free_steps_unless_standing_at_reset() {
    let mut sitting = lunk(0, 0);
    sitting.posture = Some(doo_rules::rules::profile::Posture::Sitting);
    let hm = opening(None, room(8, 4), vec![sitting, orc(7, 3)], &[4, 1]);
    let m = hm.snapshot();
    assert!(!f(&m, "lunk").free_steps.available);
    assert!(f(&m, "orc").free_steps.available);
    assert!(events(&hm, "free_steps_granted").iter().all(|e| e["actor"] != "lunk"));
}

#[test] // R-FS-9, R-POS-2, R-POS-3, R-MOVE-7: Drop loses free steps; no Step while down; Rise does not restore them
fn dropping_loses_free_steps() {
    let mut hm = duel("(characters: {\"lunk\": (ap: 5), \"orc\": (ap: 1)})");
    ok(&mut hm, r#"move(actor: "lunk", movement: "drop", posture: Some(kneeling))"#);
    let m = hm.snapshot();
    assert!(!f(&m, "lunk").free_steps.available);
    assert_eq!(events(&hm, "free_steps_lost")[0]["reason"], "no longer standing");
    ok(&mut hm, r#"end(actor: "lunk")"#);
    ok(&mut hm, r#"pass(actor: "orc")"#);
    refused(&mut hm, r#"move(actor: "lunk", movement: "step", path: [(1, 0)])"#, "R-MOVE-7");
    refused(&mut hm, r#"free_steps(actor: "lunk", path: [(1, 0)])"#, "R-FS-9");
    ok(&mut hm, r#"move(actor: "lunk", movement: "rise")"#);
    assert!(!f(&hm.snapshot(), "lunk").free_steps.available);
}

#[test] // R-FS-10: rooted (and other movement-stopping conditions) forbid free steps
fn rooted_forbids_free_steps() {
    let rooted = ch(r#"(id: "r", side: "heroes", pos: (0, 0), conditions: ["rooted"], stats: (brawn: 5, finesse: 6, savvy: 5, nerve: 5))"#);
    let mut hm = mid(None, "()", room(8, 4), vec![rooted, orc(7, 3)], "(characters: {\"r\": (ap: 3, free_steps: Some(true))})", &[]);
    refused(&mut hm, r#"free_steps(actor: "r", path: [(1, 0)])"#, "R-FS-10");
    refused(&mut hm, r#"move(actor: "r", movement: "step", path: [(1, 0)])"#, "R-COND-3");
}

#[test] // R-FS-12, G-01, G-02: free steps follow Step's map rules — no walls, no corner cutting, no passing enemies; allies may be passed
fn free_steps_follow_map_rules() {
    let floors = vec![vec!["#.#....".to_string(), "...#...".to_string(), ".......".to_string()]];
    let ally = ch(r#"(id: "ally", side: "heroes", pos: (1, 2), stats: (brawn: 5, finesse: 6, savvy: 5, nerve: 5))"#);
    let mut hm = mid(None, "()", floors, vec![lunk(0, 1), ally, orc(2, 2)], "(characters: {\"lunk\": (ap: 2)})", &[]);
    refused(&mut hm, r#"free_steps(actor: "lunk", path: [(0, 0)])"#, "R-FS-12");
    refused(&mut hm, r#"free_steps(actor: "lunk", path: [(1, 1), (2, 1), (3, 1)])"#, "R-FS-1");
    refused(&mut hm, r#"free_steps(actor: "lunk", path: [(1, 2)])"#, "G-02"); // cannot end on the ally
    refused(&mut hm, r#"free_steps(actor: "lunk", path: [(1, 1), (2, 2)])"#, "G-02"); // the orc blocks
    ok(&mut hm, r#"free_steps(actor: "lunk", path: [(1, 2), (1, 1)])"#); // through the ally
}

#[test] // R-AP-1, R-AP-2, R-COMBO-7: an action then a movement is illegal, and the refusal changes nothing
fn no_movement_after_action() {
    let mut hm = mid(None, "()", room(8, 4), vec![lunk(0, 0), orc(1, 0)], "(characters: {\"lunk\": (ap: 3), \"orc\": (ap: 1)})", &[6, 6, 1, 1]);
    ok(&mut hm, r#"action(actor: "lunk", action: "flop", posture: Some(sitting))"#);
    refused(&mut hm, r#"move(actor: "lunk", movement: "rise")"#, "R-COMBO-7");
}

#[test] // R-AP-7, R-COMBO-9: a 0-AP Flop is still the opportunity's one action; no second action
fn flop_is_the_action() {
    let mut hm = mid(None, "()", room(8, 4), vec![lunk(0, 0), orc(1, 0)], "(characters: {\"lunk\": (ap: 3), \"orc\": (ap: 1)})", &[]);
    ok(&mut hm, r#"move(actor: "lunk", movement: "step", path: [(0, 1)])"#);
    ok(&mut hm, r#"action(actor: "lunk", action: "flop", posture: Some(prone))"#); // R-COMBO-8: any movement + Flop
    let m = hm.snapshot();
    assert_eq!(f(&m, "lunk").ap.current, 2, "Flop costs 0");
    assert_eq!(m.clock.current, m.index("orc"), "the action ended the opportunity");
    refused(&mut hm, r#"action(actor: "lunk", action: "panic_attack", target: Some("orc"))"#, "R-COMBO-9");
}

#[test] // R-AP-3, R-COMBO-1, R-COMBO-2: Step 1 + Attack is 3 AP and legal; Step 2 + Attack is 4 and illegal
fn step_and_attack_cap() {
    let mut hm = mid(None, "()", room(8, 4), vec![lunk(0, 0), orc(3, 0)], "(characters: {\"lunk\": (ap: 6), \"orc\": (ap: 1)})", &[1, 1, 1, 1]);
    ok(&mut hm, r#"move(actor: "lunk", movement: "step", path: [(1, 0), (2, 0)])"#);
    refused(&mut hm, r#"action(actor: "lunk", action: "attack", target: Some("orc"))"#, "R-AP-3");
    ok(&mut hm, r#"action(actor: "lunk", action: "panic_attack", target: Some("orc"))"#);
    let l = events(&hm, "ap_spent").iter().filter(|e| e["actor"] == "lunk").map(|e| e["amount"].as_i64().unwrap()).sum::<i64>();
    assert_eq!(l, 3);
}

#[test] // R-COMBO-3, C-44: after a Run only a 1-AP attack; option run_then_2ap_attack = allowed lifts it
fn run_then_attack() {
    let start = "(characters: {\"lunk\": (ap: 6), \"orc\": (ap: 1)})";
    let mut hm = mid(None, "()", room(8, 4), vec![lunk(0, 0), orc(3, 0)], start, &[1, 1, 1, 1]);
    ok(&mut hm, r#"move(actor: "lunk", movement: "run", path: [(1, 0), (2, 0)])"#);
    refused(&mut hm, r#"action(actor: "lunk", action: "attack", target: Some("orc"))"#, "R-COMBO-3");
    ok(&mut hm, r#"action(actor: "lunk", action: "panic_attack", target: Some("orc"))"#);
    assert_eq!(f(&hm.snapshot(), "lunk").temp_adjustment(doo_rules::rules::fighter::AdjTarget::Defense, true), -2, "Run −1 and Panic −1 add up");
    let mut hm = mid(None, "(run_then_2ap_attack: Some(allowed))", room(8, 4), vec![lunk(0, 0), orc(3, 0)], start, &[1, 1, 1, 1]);
    ok(&mut hm, r#"move(actor: "lunk", movement: "run", path: [(1, 0), (2, 0)])"#);
    ok(&mut hm, r#"action(actor: "lunk", action: "attack", target: Some("orc"))"#);
}

#[test] // R-MOVE-1, R-MOVE-2, R-MOVE-3, R-MOVE-4: Step ≤ 3 spaces at 1 each; Run ≤ 6 at 1 per 2 with −1 per AP; one movement
fn step_and_run_limits() {
    let mut hm = duel("(characters: {\"lunk\": (ap: 9), \"orc\": (ap: 1)})");
    refused(&mut hm, r#"move(actor: "lunk", movement: "step", path: [(1, 0), (2, 0), (3, 0), (4, 0)])"#, "R-MOVE-2");
    refused(&mut hm, r#"move(actor: "lunk", movement: "crawl", path: [(1, 0)])"#, "R-MOVE-1");
    ok(&mut hm, r#"move(actor: "lunk", movement: "run", path: [(1, 0), (2, 0), (3, 0)])"#);
    let m = hm.snapshot();
    assert_eq!(f(&m, "lunk").ap.current, 7, "3 spaces of Run cost 2 AP");
    assert_eq!(f(&m, "lunk").temp_adjustment(doo_rules::rules::fighter::AdjTarget::Defense, true), -2);
    refused(&mut hm, r#"move(actor: "lunk", movement: "step", path: [(4, 0)])"#, "R-MOVE-4");
}

#[test] // R-MOVE-5, R-COMBO-6: free steps 2 + Run 6 = 8 spaces in one opportunity at −3; free steps + movement + action legal
fn greatest_distance() {
    let mut hm = mid(None, "()", room(12, 3), vec![lunk(0, 0), orc(11, 2)], "(characters: {\"lunk\": (ap: 5), \"orc\": (ap: 1)})", &[]);
    ok(&mut hm, r#"free_steps(actor: "lunk", path: [(1, 0), (2, 0)])"#);
    ok(&mut hm, r#"move(actor: "lunk", movement: "run", path: [(3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (8, 0)])"#);
    let m = hm.snapshot();
    assert_eq!(f(&m, "lunk").pos, doo_rules::rules::Pos::new(8, 0));
    assert_eq!(f(&m, "lunk").temp_adjustment(doo_rules::rules::fighter::AdjTarget::Defense, true), -3);
    ok(&mut hm, r#"action(actor: "lunk", action: "flop", posture: Some(prone))"#); // R-COMBO-8: Flop (0) fits after any movement
}

#[test] // R-COMBO-6: free steps, Step 1, Attack in one opportunity
fn free_steps_step_attack() {
    let mut hm = mid(None, "()", room(8, 3), vec![lunk(0, 0), orc(4, 0)], "(characters: {\"lunk\": (ap: 3), \"orc\": (ap: 1)})", &[1, 1, 1, 1]);
    ok(&mut hm, r#"free_steps(actor: "lunk", path: [(1, 0), (2, 0)])"#);
    ok(&mut hm, r#"move(actor: "lunk", movement: "step", path: [(3, 0)])"#);
    ok(&mut hm, r#"action(actor: "lunk", action: "attack", target: Some("orc"))"#);
}

#[test] // R-MOVE-6, R-COMBO-8: a paid Rise (2) leaves room for a 1-AP action only; AP_start 1 rises only in Only mode
fn rise_costs() {
    let mut hm =
        mid(None, "()", room(8, 3), vec![lunk(0, 0), orc(1, 0)], "(characters: {\"lunk\": (ap: 4, posture: Some(prone)), \"orc\": (ap: 1)})", &[1, 1, 1, 1]);
    ok(&mut hm, r#"move(actor: "lunk", movement: "rise")"#);
    refused(&mut hm, r#"action(actor: "lunk", action: "attack", target: Some("orc"))"#, "R-AP-3");
    ok(&mut hm, r#"action(actor: "lunk", action: "panic_attack", target: Some("orc"))"#);
    let mut hm = mid(None, "()", room(8, 3), vec![lunk(0, 0), orc(5, 0)], "(characters: {\"lunk\": (ap: 1, posture: Some(sitting)), \"orc\": (ap: 1)})", &[]);
    ok(&mut hm, r#"move(actor: "lunk", movement: "rise")"#);
    assert!(events(&hm, "only_mode").iter().any(|e| e["actor"] == "lunk"));
    let m = hm.snapshot();
    assert!(f(&m, "lunk").turn.took_only);
}

#[test] // R-MOVE-8, R-ACT-2, R-ACT-6: ADV-2017 — Rise 1 from sitting, Stand 3/Only from prone, Melee Attack/Shot split, Shield Block reflex
fn adv_2017_tables() {
    let mut hm =
        mid(Some("ADV-2017"), "()", room(8, 3), vec![lunk(0, 0), orc(5, 0)], "(characters: {\"lunk\": (ap: 4, posture: Some(prone)), \"orc\": (ap: 1)})", &[]);
    refused(&mut hm, r#"move(actor: "lunk", movement: "rise")"#, "R-MOVE-8");
    ok(&mut hm, r#"move(actor: "lunk", movement: "stand")"#);
    assert_eq!(f(&hm.snapshot(), "lunk").ap.current, 1, "AP_start 4 ≥ 3: Stand costs 3");
    refused(&mut hm, r#"action(actor: "lunk", action: "attack", target: Some("orc"))"#, "R-ACT-1");
    let data = doo_rules::data::RuleData::builtin();
    let r = data.profiles.ruleset(Some("ADV-2017"), &Default::default()).unwrap();
    assert!(r.action("melee_attack").is_some() && r.action("shot").map(|s| s.defense) == Some(-1));
    assert_eq!(r.reaction("shield_block").map(|s| s.cost), Some(1));
    assert!(r.action("shield_block").is_none());
    assert_eq!(r.movement("rise").map(|m| m.cost), Some(doo_rules::rules::profile::Cost::Fixed(1)));
}

#[test] // R-MOVE-8: LEGACY-2016-EARLY Run is a flat −3 whatever the distance
fn legacy_early_flat_run_penalty() {
    let mut hm = mid(Some("LEGACY-2016-EARLY"), "()", room(8, 3), vec![lunk(0, 0), orc(7, 2)], "(characters: {\"lunk\": (ap: 4), \"orc\": (ap: 1)})", &[]);
    ok(&mut hm, r#"move(actor: "lunk", movement: "run", path: [(1, 0)])"#);
    assert_eq!(f(&hm.snapshot(), "lunk").temp_adjustment(doo_rules::rules::fighter::AdjTarget::Defense, true), -3);
}

#[test] // R-ONLY-1, R-ONLY-2, R-ONLY-3, R-ONLY-4: X/Only by AP_start — at AP_start ≥ X a fixed cost counted toward the cap
fn x_only_decided_by_ap_start() {
    let mut hm =
        mid(None, "()", room(8, 3), vec![lunk(0, 0), orc(1, 0)], "(characters: {\"lunk\": (ap: 4, ap_start: 4, mp: 0), \"orc\": (ap: 1)})", &[1, 1, 1, 1]);
    // Recover 3/Only at AP_start 4: costs exactly 3, not Only mode
    ok(&mut hm, r#"action(actor: "lunk", action: "recover")"#);
    let m = hm.snapshot();
    assert_eq!(f(&m, "lunk").ap.current, 1);
    assert!(!f(&m, "lunk").turn.took_only);
    assert!(events(&hm, "only_mode").is_empty());
}

#[test] // R-ONLY-7: AP_start ≥ X but current AP below X → neither form this turn
fn x_only_unavailable_after_dropping_below_x() {
    let mut hm = mid(None, "()", room(8, 3), vec![lunk(0, 0), orc(1, 0)], "(characters: {\"lunk\": (ap: 2, ap_start: 3), \"orc\": (ap: 1)})", &[]);
    refused(&mut hm, r#"action(actor: "lunk", action: "all_out_attack", target: Some("orc"))"#, "R-ONLY-7");
}

#[test] // R-ONLY-6, G-10: a reflex earlier this turn forbids a later Only action
fn reflex_forbids_later_only() {
    let mut hm = mid(None, "()", room(8, 3), vec![dara(0, 0), orc(1, 0)], "(characters: {\"dara\": (ap: 2), \"orc\": (ap: 3)})", &[5, 5, 1, 1]);
    ok(&mut hm, r#"action(actor: "orc", action: "attack", target: Some("dara"))"#);
    ok(&mut hm, r#"reflex(actor: "dara", reflex: "parry")"#);
    refused(&mut hm, r#"action(actor: "dara", action: "all_out_attack", target: Some("orc"))"#, "R-ONLY-6");
}

#[test] // R-ONLY-9: a pure `Only` cost (LEGACY-2016 Recover) always uses Only mode, whatever AP_start
fn pure_only_always_only_mode() {
    let wiz = ch(r#"(id: "w", side: "heroes", pos: (0, 0), caster: arcane, stats: (brawn: 5, finesse: 6, savvy: 9, nerve: 8))"#);
    let mut hm = mid(Some("LEGACY-2016"), "()", room(8, 3), vec![wiz, orc(7, 2)], "(characters: {\"w\": (ap: 6, mp: 3), \"orc\": (ap: 1)})", &[]);
    ok(&mut hm, r#"action(actor: "w", action: "recover")"#);
    let m = hm.snapshot();
    assert_eq!((f(&m, "w").ap.current, f(&m, "w").mp), (0, 4), "all AP spent, +1 Mana (2016)");
}

#[test] // R-ACT-1, R-ACT-3: melee-only and ranged-only restrictions; reach
fn weapon_restrictions() {
    let archer = ch(
        r#"(id: "pell", side: "heroes", pos: (0, 0), stats: (brawn: 5, finesse: 8, savvy: 6, nerve: 7), weapon: Some("shortbow"), skills: {"bows": apprentice})"#,
    );
    let mut hm = mid(None, "()", room(8, 3), vec![archer, orc(1, 0), lunk(5, 2)], "(characters: {\"pell\": (ap: 5)})", &[]);
    refused(&mut hm, r#"action(actor: "pell", action: "panic_attack", target: Some("orc"))"#, "R-ACT-3");
    refused(&mut hm, r#"action(actor: "pell", action: "all_out_attack", target: Some("orc"))"#, "R-ACT-3");
    let mut hm = mid(None, "()", room(8, 3), vec![lunk(0, 0), orc(2, 0)], "(characters: {\"lunk\": (ap: 5)})", &[]);
    refused(&mut hm, r#"action(actor: "lunk", action: "snapshot", target: Some("orc"))"#, "R-ACT-3");
    refused(&mut hm, r#"action(actor: "lunk", action: "attack", target: Some("orc"))"#, "R-ATK-10");
}

#[test] // R-ACT-4: attack-action modifiers are adjustments to the Attack check (All-Out +2)
fn all_out_adjusts_the_attack_check() {
    let mut hm = mid(None, "()", room(8, 3), vec![lunk(0, 0), orc(1, 0)], "(characters: {\"lunk\": (ap: 3), \"orc\": (ap: 1)})", &[6, 6, 1, 1]);
    ok(&mut hm, r#"action(actor: "lunk", action: "all_out_attack", target: Some("orc"))"#);
    let atk = events(&hm, "dice").into_iter().find(|d| d["purpose"] == "attack").unwrap().clone();
    assert_eq!(atk["adjustment"], 3, "Journeyman +1, All-Out +2");
}

#[test] // R-ACT-5: the 3-AP Aimed Attack exists only in the legacy profiles
fn aimed_attack_only_in_legacy() {
    let data = doo_rules::data::RuleData::builtin();
    for (p, has) in [("DOO-2017", false), ("ADV-2017", false), ("LEGACY-2016", true), ("LEGACY-2016-EARLY", true)] {
        let r = data.profiles.ruleset(Some(p), &Default::default()).unwrap();
        assert_eq!(r.action("aimed_attack").is_some(), has, "{p}");
    }
}

#[test] // R-AP-5, G-09: reflex AP do not count toward the opportunity cap
fn reflex_outside_the_cap() {
    let mut hm = mid(None, "()", room(8, 3), vec![dara(0, 0), orc(1, 0)], "(characters: {\"dara\": (ap: 4), \"orc\": (ap: 5)})", &[5, 5, 1, 1, 1, 1, 1, 1]);
    ok(&mut hm, r#"action(actor: "orc", action: "attack", target: Some("dara"))"#);
    ok(&mut hm, r#"reflex(actor: "dara", reflex: "parry")"#);
    // Dara now has 3 AP: Step 1 + Attack (3 AP) is still open to her in her own opportunity
    ok(&mut hm, r#"move(actor: "dara", movement: "step", path: [(0, 1)])"#);
    ok(&mut hm, r#"action(actor: "dara", action: "attack", target: Some("orc"))"#);
}

#[test] // R-FS-9: free steps lost by a Flop are not restored by rising, and the refusal says so
fn free_steps_lost_on_flop_stay_lost_after_rising() {
    let mut hm = duel("(characters: {\"lunk\": (ap: 5), \"orc\": (ap: 2)})");
    ok(&mut hm, r#"action(actor: "lunk", action: "flop", posture: Some(sitting))"#);
    ok(&mut hm, r#"pass(actor: "orc")"#);
    ok(&mut hm, r#"move(actor: "lunk", movement: "rise")"#);
    ok(&mut hm, r#"end(actor: "lunk")"#);
    ok(&mut hm, r#"pass(actor: "orc")"#);
    refused(&mut hm, r#"free_steps(actor: "lunk", path: [(1, 0)])"#, "R-FS-9");
}

#[test] // R-AP-2, C-46: under movement_combo = attacks_only only an attack may follow a movement — not even a Flop
fn attacks_only_after_movement() {
    let mut hm = mid(Some("LEGACY-2016"), "()", room(8, 4), vec![lunk(0, 0), orc(2, 0)], "(characters: {\"lunk\": (ap: 3), \"orc\": (ap: 1)})", &[1, 1, 1, 1]);
    ok(&mut hm, r#"move(actor: "lunk", movement: "step", path: [(1, 0)])"#);
    refused(&mut hm, r#"action(actor: "lunk", action: "flop", posture: Some(prone))"#, "R-AP-2");
    refused(&mut hm, r#"action(actor: "lunk", action: "recover")"#, "R-AP-2");
    ok(&mut hm, r#"action(actor: "lunk", action: "attack", target: Some("orc"))"#);
}
