//! Input intents (clicks as space/figure intents, action-bar entries, pass) through the headless
//! app: the commands they produce and the state that results. The previews the UI shows are the
//! rules' own, so what a click costs is what the preview said.

use crate::common::*;
use doo::game::intent::{Intent, Mode, PlayerView};
use doo::headless::HeadlessMatch;
use doo_rules::rules::Pos;
use doo_rules::rules::preview::{Aim, MoveKind};

fn view(hm: &HeadlessMatch) -> PlayerView {
    hm.app.world().resource::<PlayerView>().clone()
}

fn send(hm: &mut HeadlessMatch, i: Intent) {
    hm.app.world_mut().write_message(i);
    assert!(hm.settle(), "match did not settle");
}

fn commands(hm: &HeadlessMatch) -> Vec<serde_json::Value> {
    hm.lines().iter().filter(|l| l["type"] == "command").cloned().collect()
}

// R-MOVE-1, R-MOVE-3, R-AP-1: click the figure, click a space 3 away: AP drop by the previewed cost.
#[test]
fn click_figure_then_space_moves_for_the_previewed_cost() {
    let mut hm = mid(None, "()", room(10, 5), vec![lunk(1, 2), orc(9, 2)], "(characters: {\"lunk\": (ap: 3, free_steps: false), \"orc\": (ap: 1)})", &[]);
    let v = view(&hm);
    assert_eq!(v.decider.as_deref(), Some("lunk"));
    send(&mut hm, Intent::ClickFigure("lunk".into()));
    let target = Pos::new(4, 2);
    let d = view(&hm).destinations.get(&target).cloned().expect("(4,2) is reachable");
    assert_eq!(d.kind, MoveKind::Step);
    assert_eq!(d.ap, 3);
    send(&mut hm, Intent::ClickSpace(target));
    let m = hm.snapshot();
    let lunk = &m.fighters[m.index("lunk").unwrap()];
    assert_eq!(lunk.pos, target);
    assert_eq!(lunk.ap.current, 3 - d.ap);
    let c = commands(&hm);
    assert_eq!(c.last().unwrap()["result"], "ok");
    assert_eq!(c.last().unwrap()["command"]["move"]["movement"], "step");
}

// R-FS-1, R-FS-5: a free-step space is offered at 0 AP and clicking it spends the free steps only.
#[test]
fn free_step_spaces_cost_nothing() {
    let mut hm = mid(None, "()", room(10, 5), vec![lunk(1, 2), orc(9, 2)], "(characters: {\"lunk\": (ap: 2), \"orc\": (ap: 1)})", &[]);
    let v = view(&hm);
    let d = v.destinations.get(&Pos::new(2, 2)).cloned().expect("adjacent space offered");
    assert_eq!((d.kind, d.ap), (MoveKind::FreeStep, 0));
    send(&mut hm, Intent::ClickSpace(Pos::new(2, 2)));
    let m = hm.snapshot();
    let lunk = &m.fighters[m.index("lunk").unwrap()];
    assert_eq!((lunk.pos, lunk.ap.current), (Pos::new(2, 2), 2));
    assert!(lunk.opp.free_steps);
    // R-FS-6: the free steps are spent, so no free-step space is offered any more.
    assert!(view(&hm).destinations.values().all(|d| d.kind != MoveKind::FreeStep));
}

// R-MOVE-3: Run spaces carry their Defense penalty and cost 1 AP per 2 spaces.
#[test]
fn run_spaces_show_the_defense_they_cost() {
    let hm = mid(None, "()", room(12, 3), vec![lunk(0, 1), orc(11, 1)], "(characters: {\"lunk\": (ap: 3, free_steps: false), \"orc\": (ap: 1)})", &[]);
    let v = view(&hm);
    let far = v.destinations.get(&Pos::new(6, 1)).cloned().expect("six spaces by running");
    assert_eq!(far.kind, MoveKind::Run);
    assert_eq!(far.ap, 3);
    assert!(far.defense < 0, "a run costs Defense: {far:?}");
    assert!(!v.destinations.contains_key(&Pos::new(7, 1)), "seven spaces are beyond 3 AP of running");
}

// R-AP-1: a space out of reach with 1 AP (a Step there costs 3 AP, a Run 2) is refused with that
// rule and a sentence; nothing is issued and nothing changes.
#[test]
fn unreachable_click_explains_and_changes_nothing() {
    let mut hm = mid(None, "()", room(12, 3), vec![lunk(0, 1), orc(11, 1)], "(characters: {\"lunk\": (ap: 1, free_steps: false), \"orc\": (ap: 1)})", &[]);
    let before = commands(&hm).len();
    let state = state_key(&mut hm.snapshot());
    assert!(!view(&hm).destinations.contains_key(&Pos::new(3, 1)), "three spaces are out of reach with 1 AP");
    send(&mut hm, Intent::ClickSpace(Pos::new(3, 1)));
    let v = view(&hm);
    let why = v.feedback.expect("a refusal is shown");
    assert_eq!(why.rule, "R-AP-1", "{why:?}");
    assert!(why.reason.contains("AP"), "the sentence speaks of AP: {why:?}");
    assert_eq!(commands(&hm).len(), before, "no command was issued");
    assert_eq!(state, state_key(&mut hm.snapshot()), "nothing changed");
}

/// Five spaces away with 1 AP: a Run of 5 spaces is legal (R-MOVE-3, R-MOVE-5) but costs 3 AP,
/// so what keeps Lunk out is his AP (R-AP-1). The engine's `why_not_move` only tries a Step and
/// answers R-MOVE-2 ("Step covers 1 to 3 spaces … difficult ground counts twice"), which is not
/// why the space is out of reach.
#[test] // R-AP-1, R-MOVE-3
fn unreachable_by_ap_names_the_ap_rule_not_the_step_range() {
    let mut hm = mid(None, "()", room(12, 3), vec![lunk(0, 1), orc(11, 1)], "(characters: {\"lunk\": (ap: 1, free_steps: false), \"orc\": (ap: 1)})", &[]);
    send(&mut hm, Intent::ClickSpace(Pos::new(5, 1)));
    let why = view(&hm).feedback.expect("a refusal is shown");
    assert_eq!(why.rule, "R-AP-1", "{why:?}");
}

// R-ATK-2, R-AP-1: clicking an adjacent enemy attacks it; the action bar then greys attacks (R-COMBO-9).
#[test]
fn clicking_an_enemy_attacks_it() {
    let mut hm = mid(None, "()", room(6, 3), vec![lunk(1, 1), orc(2, 1)], "(characters: {\"lunk\": (ap: 3), \"orc\": (ap: 1)})", &[5, 5, 1, 1, 3]);
    let bar = view(&hm).choices;
    let attack = bar.iter().find(|c| c.row == "attack").expect("attack in the bar");
    assert!(attack.available());
    assert_eq!(attack.aim, Aim::Figure(vec!["orc".into()]));
    send(&mut hm, Intent::ClickFigure("orc".into()));
    let c = commands(&hm);
    let last = c.last().unwrap();
    assert_eq!(last["result"], "ok");
    assert_eq!(last["command"]["action"]["action"], "attack");
    assert_eq!(last["command"]["action"]["target"], "orc");
}

// R-ONLY-3, R-ONLY-6: an X/Only row is priced by AP_start; the bar says Only.
#[test]
fn x_only_rows_show_only_mode_by_ap_start() {
    let hm = mid(None, "()", room(6, 3), vec![lunk(1, 1), orc(4, 1)], "(characters: {\"lunk\": (ap: 1, ap_start: 1), \"orc\": (ap: 1)})", &[]);
    let bar = view(&hm).choices;
    let xonly: Vec<_> = bar.iter().filter(|c| c.cost.contains("Only")).collect();
    assert!(!xonly.is_empty(), "with AP_start 1 some rows are Only: {bar:#?}");
    assert!(xonly.iter().all(|c| c.only));
}

// R-ATK-10, R-ATK-2: choosing Attack with nobody in reach is refused with the reason; Esc leaves aiming.
#[test]
fn greyed_attack_explains_why() {
    let mut hm = mid(None, "()", room(8, 3), vec![lunk(0, 1), orc(7, 1)], "(characters: {\"lunk\": (ap: 3), \"orc\": (ap: 1)})", &[]);
    let v = view(&hm);
    let i = v.choices.iter().position(|c| c.row == "attack").unwrap();
    let why = v.choices[i].refusal.clone().expect("no enemy in reach");
    assert_eq!(why.rule, "R-ATK-10", "out of the weapon's reach: {why:?}");
    assert_eq!(why.also, vec!["R-ATK-2"], "{why:?}");
    send(&mut hm, Intent::Choose(i));
    assert_eq!(view(&hm).feedback, Some(why));
    assert_eq!(view(&hm).mode, Mode::Idle);
}

// R-TURN-13: Pass keeps AP; the next character gets the opportunity.
#[test]
fn pass_hands_the_opportunity_on() {
    let mut hm = mid(None, "()", room(8, 3), vec![lunk(0, 1), orc(7, 1)], "(characters: {\"lunk\": (ap: 3), \"orc\": (ap: 2)})", &[]);
    send(&mut hm, Intent::Pass);
    assert_eq!(view(&hm).decider.as_deref(), Some("orc"));
    let m = hm.snapshot();
    assert_eq!(m.fighters[m.index("lunk").unwrap()].ap.current, 3);
}

// G-01, G-02: why a space cannot be reached, in the rules' words (walls; one figure per space).
#[test]
fn why_not_move_names_the_map_rules() {
    let floors = vec![vec!["..#.".to_string(), "..#.".to_string(), "..#.".to_string()]];
    let hm = mid(None, "()", floors, vec![lunk(0, 1), orc(1, 1)], "(characters: {\"lunk\": (ap: 3), \"orc\": (ap: 1)})", &[]);
    let hm = hm;
    let m = hm.snapshot();
    let a = m.index("lunk").unwrap();
    assert_eq!(doo_rules::rules::preview::why_not_move(&m, a, Pos::new(2, 1)).rule, "G-01", "a wall");
    assert_eq!(doo_rules::rules::preview::why_not_move(&m, a, Pos::new(3, 1)).rule, "G-01", "walled off");
    assert_eq!(doo_rules::rules::preview::why_not_move(&m, a, Pos::new(1, 1)).rule, "G-02", "taken by the orc");
}

/// R-MOVE-3, R-MOVE-5: a space farther than a Run reaches in one command is refused with the
/// Run's range (the greatest distance, R-MOVE-5), not with a cost or the Step's range.
#[test] // R-MOVE-3, R-MOVE-5
fn beyond_every_walking_range_names_the_distance_limit() {
    let mut hm = mid(None, "()", room(12, 3), vec![lunk(0, 1), orc(11, 1)], "(characters: {\"lunk\": (ap: 6, free_steps: false), \"orc\": (ap: 1)})", &[]);
    send(&mut hm, Intent::ClickSpace(Pos::new(9, 1)));
    let why = view(&hm).feedback.expect("a refusal is shown");
    assert_eq!(why.rule, "R-MOVE-3", "{why:?}");
    assert!(why.reason.contains("1 to 6 spaces") && why.reason.contains("this path is 9"), "{}", why.reason);
}

/// Several intents in one frame are all handled, in order, each against the state the previous
/// one left: select Lunk and click a space 2 away in the same frame, and he moves (R-MOVE-1).
#[test] // R-MOVE-1, R-AP-1
fn intents_in_one_frame_are_all_kept() {
    let mut hm = mid(None, "()", room(10, 5), vec![lunk(1, 2), orc(9, 2)], "(characters: {\"lunk\": (ap: 3, free_steps: false), \"orc\": (ap: 1)})", &[]);
    hm.app.world_mut().write_message(Intent::ClickFigure("lunk".into()));
    hm.app.world_mut().write_message(Intent::ClickSpace(Pos::new(3, 2)));
    hm.app.world_mut().write_message(Intent::Pass);
    assert!(hm.settle());
    for _ in 0..4 {
        assert!(hm.settle());
    }
    let c = commands(&hm);
    assert_eq!(c.len(), 2, "the move and the end of the opportunity: {c:?}");
    assert_eq!(c[0]["result"], "ok");
    assert_eq!(c[1]["result"], "ok");
    assert!(c[1]["command"].get("end").is_some() || c[1]["command"].get("pass").is_some(), "{}", c[1]["command"]);
    let m = hm.snapshot();
    assert_eq!(m.fighters[m.index("lunk").unwrap()].pos, Pos::new(3, 2));
    assert_eq!(m.fighters[m.index("lunk").unwrap()].ap.current, 1, "a 2-space Step costs 2 AP (R-MOVE-2)");
}

// R-ATK-*, R-AP-1: the view the game computes carries, for the one deciding, what attacking each
// enemy now would likely do and whether the rules allow it (the card only shows this). Next to
// the orc, Lunk's attacks are on offer with their odds; across the room they are refused with
// the rule that says why, and the odds are still told.
#[test]
fn the_view_carries_each_enemys_attack_odds_and_whether_the_rules_allow_them() {
    use doo::game::forecast::AttackOdds;
    let near = mid(None, "()", room(10, 5), vec![lunk(1, 2), orc(2, 2)], "(characters: {\"lunk\": (ap: 6), \"orc\": (ap: 1)})", &[]);
    let v = view(&near);
    let m = near.snapshot();
    let (l, o) = (m.index("lunk").unwrap(), m.index("orc").unwrap());
    assert!(!v.forecasts.contains_key(&l), "no odds against oneself");
    let AttackOdds::Rows(rows) = v.forecasts.get(&o).expect("odds against the orc") else { panic!("a DoO match has attack rows") };
    assert!(!rows.is_empty());
    for r in rows {
        assert!(r.forecast.hit > 0.0 && r.forecast.hit <= 1.0, "{}: {}", r.name, r.forecast.hit);
        assert_eq!(
            r.legal,
            doo_rules::rules::engine::validate(&m, &doo_rules::rules::Command::action("lunk", &row_id(&m, &r.name), Some("orc"))).map(|_| ()),
            "{}",
            r.name
        );
    }
    assert!(rows.iter().any(|r| r.legal.is_ok()), "adjacent: some attack is allowed now");
    let far = mid(None, "()", room(10, 5), vec![lunk(1, 2), orc(8, 2)], "(characters: {\"lunk\": (ap: 6), \"orc\": (ap: 1)})", &[]);
    let v = view(&far);
    let AttackOdds::Rows(rows) = v.forecasts.get(&o).expect("odds against the orc") else { panic!() };
    assert!(rows.iter().all(|r| r.legal.as_ref().is_err_and(|e| e.rule.starts_with("R-"))), "out of reach: every attack refused with its rule");
}

fn row_id(m: &doo_rules::rules::Match, name: &str) -> String {
    m.rules.actions.iter().find(|r| r.name == name).map(|r| r.id.clone()).expect("a row of that name")
}

// R-EXP-8, R-EXP-20 (issue 29): the crawl bar's "Hand <item> to <name>" entry sends the `hand`
// order the scripts use; at the end of the turn the item has passed. R-EXP-15: "Drop <weapon>"
// is offered beside it.
#[test]
fn the_crawl_bar_hands_an_item_to_a_neighbour() {
    let root = crate::common::root();
    let data = doo_rules::data::RuleData::builtin();
    let level = doo_rules::level_file::load(&root.join("tests/levels/crawl/orders.ron"), &data, root).unwrap_or_else(|e| panic!("{e:?}"));
    let mut hm = HeadlessMatch::new(level.build(&data).unwrap(), doo_rules::rules::Dice::seeded(1), false);
    assert!(hm.settle());
    send(&mut hm, Intent::ClickFigure("ed".into()));
    let v = view(&hm);
    assert_eq!(v.decider.as_deref(), Some("ed"));
    assert!(v.choices.iter().any(|c| c.label == "Drop Broad Axe" && c.available()), "{:?}", v.choices.iter().map(|c| &c.label).collect::<Vec<_>>());
    let i = v.choices.iter().position(|c| c.label == "Hand Potion of Healing to Dara").expect("a hand entry");
    send(&mut hm, Intent::Choose(i));
    let last = commands(&hm).last().cloned().unwrap();
    assert_eq!(last["result"], "ok", "{last}");
    assert_eq!(last["command"]["hand"]["to"], "dara", "{last}");
    let end = view(&hm).choices.iter().position(|c| c.row == "end_turn").expect("End the turn");
    send(&mut hm, Intent::Choose(end));
    let m = hm.snapshot();
    let items = |id: &str| m.fighters[m.index(id).unwrap()].loadout.items.clone();
    assert_eq!((items("dara"), items("ed")), (vec!["potion_of_healing".to_string()], vec![]));
}

// Issue 43 (R-MANA-4, G-26; A4-3.2, A4-3.14): the card's odds cover every attack kind: a
// caster's Firebolt against the orc, and under A4 the charge that reaches a foe three squares
// away (it is not "out of reach") beside the attack and the full attack that do not.
#[test]
fn the_view_forecasts_spells_and_a4_charges() {
    use doo::game::forecast::AttackOdds;
    let mira = ch(
        r#"(id: "mira", name: Some("Mira"), side: "heroes", pos: (1, 2), stats: (brawn: 5, finesse: 6, savvy: 9, nerve: 6), caster: arcane, spells: ["firebolt"], weapon: Some("dagger"), skills: {"knives": apprentice})"#,
    );
    let hm = mid(None, "()", room(10, 5), vec![mira, orc(5, 2)], "(characters: {\"mira\": (ap: 3), \"orc\": (ap: 1)})", &[]);
    let m = hm.snapshot();
    let AttackOdds::Rows(rows) = view(&hm).forecasts.get(&m.index("orc").unwrap()).cloned().expect("odds against the orc") else { panic!("DoO rows") };
    let bolt = rows.iter().find(|r| r.name == "Cast Firebolt").expect("the spell has a row");
    assert!(bolt.forecast.hit > 0.0 && bolt.forecast.hit < 1.0 && bolt.forecast.max == 6, "{bolt:?}");
    assert_eq!(bolt.legal, Ok(()), "in range (8) and sight, 2 MP in hand");
    // A4: initiative Lunk 3 + 7, the orc 1 + 6; Lunk three squares from it in a line.
    let hm = opening(Some("A4"), room(8, 5), vec![lunk(0, 2), orc(4, 2)], &[3, 1]);
    let m = hm.snapshot();
    let AttackOdds::A4 { rows, .. } = view(&hm).forecasts.get(&m.index("orc").unwrap()).cloned().expect("odds against the orc") else { panic!("A4 rows") };
    let row = |n: &str| rows.iter().find(|r| r.name.starts_with(n)).unwrap_or_else(|| panic!("{n} in {rows:?}"));
    assert!(row("Attack").odds.is_none() && row("Full attack").odds.is_none(), "out of reach where he stands");
    let charge = row("Charge");
    assert!(charge.odds.as_ref().is_some_and(|o| o.hit > 0.0) && charge.legal.is_ok(), "the charge reaches: {charge:?}");
}

// Issue 43, R-ATK-2: an ally in reach is a warning on the attack, not one of its targets: a
// click on him tells why and strikes nobody; a second click on him strikes anyway (the rules
// allow it).
#[test]
fn an_ally_is_a_warning_and_a_second_click_strikes_anyway() {
    let ally = ch(r#"(id: "bo", name: Some("Bo"), side: "heroes", pos: (2, 2), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6))"#);
    let mut hm = mid(None, "()", room(10, 5), vec![lunk(1, 2), ally, orc(1, 3)], "(characters: {\"lunk\": (ap: 3), \"bo\": (ap: 1), \"orc\": (ap: 1)})", &[]);
    let i = view(&hm).choices.iter().position(|c| c.row == "attack" && c.available()).expect("an attack");
    send(&mut hm, Intent::Choose(i));
    assert_eq!(view(&hm).aim_targets(), ["orc".to_string()], "the ally is no target");
    send(&mut hm, Intent::ClickFigure("bo".into()));
    let v = view(&hm);
    assert!(v.feedback.as_ref().is_some_and(|f| f.reason.contains("Bo is on your side") && f.reason.contains("again")), "{:?}", v.feedback);
    assert!(commands(&hm).is_empty(), "the first click strikes nobody");
    send(&mut hm, Intent::ClickFigure("bo".into()));
    let c = commands(&hm);
    assert_eq!((c.len(), c[0]["result"].as_str(), c[0]["command"]["action"]["target"].as_str()), (1, Some("ok"), Some("bo")), "{c:?}");
}

// R-EXP-3, issue 43: in a minute nobody has acted in yet (the last one ended by itself), Enter
// first asks; the second Enter lets the minute pass.
#[test]
fn enter_in_an_idle_minute_asks_before_a_minute_passes() {
    let root = crate::common::root();
    let data = doo_rules::data::RuleData::builtin();
    let level = doo_rules::level_file::load(&root.join("tests/levels/crawl/orders.ron"), &data, root).unwrap_or_else(|e| panic!("{e:?}"));
    let mut hm = HeadlessMatch::new(level.build(&data).unwrap(), doo_rules::rules::Dice::seeded(1), false);
    assert!(hm.settle());
    let minute = |hm: &HeadlessMatch| hm.snapshot().explore.as_deref().map(|x| x.minute);
    let before = minute(&hm);
    send(&mut hm, Intent::Pass);
    assert!(view(&hm).notice.as_ref().is_some_and(|n| n.contains("Enter again") && n.contains("R-EXP-3")), "{:?}", view(&hm).notice);
    assert_eq!(minute(&hm), before, "the first Enter lets no minute pass");
    send(&mut hm, Intent::Pass);
    assert_eq!(minute(&hm), before.map(|m| m + 1), "the second Enter ends the minute");
}

// Issue 46 (EVENT-1, EVENT-2): a level event's choice put to the player's side: while it waits
// nothing else is offered and any other intent is refused with EVENT-1; the answer (the second
// option) is a `choose` command, the option's actions done; a second answer is refused (EVENT-2).
#[test]
fn a_level_events_choice_is_answered_and_nothing_else_is_taken_meanwhile() {
    let root = crate::common::root();
    let data = doo_rules::data::RuleData::builtin();
    let level = doo_rules::level_file::load(&root.join("tests/levels/events/choice.ron"), &data, root).unwrap_or_else(|e| panic!("{e:?}"));
    let mut hm = HeadlessMatch::new(level.build(&data).unwrap(), doo_rules::rules::Dice::seeded(1), false);
    assert!(hm.settle());
    let waiting = |hm: &HeadlessMatch| doo_rules::rules::event_choice::pending(hm.state()).map(|p| p.prompt.clone());
    assert_eq!(waiting(&hm).as_deref(), Some("A bell hangs by the door. Ring it?"));
    let v = view(&hm);
    assert_eq!(v.decider.as_deref(), Some("lunk"), "the heroes' figure answers");
    assert!(v.choices.is_empty() && v.destinations.is_empty(), "nothing but the answer is offered");
    send(&mut hm, Intent::Pass);
    assert_eq!(view(&hm).feedback.map(|f| f.rule), Some("EVENT-1".into()));
    assert!(waiting(&hm).is_some(), "the pass was refused: the choice still waits");
    send(&mut hm, Intent::Answer(1));
    assert_eq!(waiting(&hm), None, "answered");
    let c = commands(&hm);
    assert_eq!(c.last().unwrap()["command"]["choose"]["option"], 1, "{:?}", c.last());
    assert!(hm.lines().iter().any(|l| l.to_string().contains("Lunk leaves the bell be.")), "the second option's message");
    send(&mut hm, Intent::Answer(0));
    assert_eq!(view(&hm).feedback.map(|f| f.rule), Some("EVENT-2".into()));
}
