//! The crawl's rules tests (R-EXP-*).

use super::*;
use crate::rules::command::Command;
use crate::rules::dice::Dice;
use crate::rules::grid::{Pos, Tile};
use crate::rules::ruleset::crawl_rules;
use crate::rules::state::Phase;
use crate::rules::turn::Flow;
use crate::rules::violation::RuleResult;

/// Exploration Mode begins (`turns::begin`).
fn begin(m: &mut Match, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    with_crawl(m, |m, x| turns::begin(m, x, dice, ev)).unwrap()
}

/// An order checked as the ruleset checks it: in Exploration Mode, or in a crawl's crisis.
fn validate(m: &Match, a: usize, cmd: &Command) -> RuleResult<()> {
    let x = m.explore.as_deref().unwrap();
    if exploring(m) { validate::order(m, x, a, cmd) } else { super::crisis_orders::in_crisis(m, x, a, cmd) }
}

/// An order of Exploration Mode carried out (`apply::order`).
fn apply(m: &mut Match, a: usize, cmd: &Command, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    let r = crawl_rules(m);
    with_crawl(m, |m, x| apply::order(m, x, a, cmd, r, dice, ev)).unwrap()
}

fn search_spaces(m: &Match, a: usize, n: usize) -> Vec<Pos> {
    tasks::search_spaces(m, m.explore.as_deref().unwrap(), a, n)
}

#[test] // R-EXP-14: the default search order: unsearched walls and doors first, lowest row then column
fn search_order() {
    let mut m = crate::testkit::crawl(&["#####", "#...#", "#...#", "#####"], &[("h", "heroes", (2, 1)), ("o", "monsters", (3, 2))]);
    let got = search_spaces(&m, 0, 4);
    assert_eq!(got, vec![Pos::new(1, 0), Pos::new(2, 0), Pos::new(3, 0), Pos::new(1, 1)]);
    for p in [Pos::new(1, 0), Pos::new(2, 0), Pos::new(3, 0)] {
        let k = m.board.index(p).unwrap();
        m.explore.as_deref_mut().unwrap().searched[k] = true;
    }
    let got = search_spaces(&m, 0, 4);
    assert_eq!(got, vec![Pos::new(1, 1), Pos::new(2, 1), Pos::new(3, 1), Pos::new(1, 2)], "then unsearched floor, his own space included");
}

fn vis(m: &Match, side: &str, p: Pos) -> (bool, bool) {
    let v = side_view(m, side);
    let k = m.board.index(p).unwrap();
    (v.revealed[k], v.visible[k])
}

const ROOMS: [&str; 5] = ["#########", "#...#...#", "#...+...#", "#...#...#", "#########"];

#[test] // R-EXP-19: what a side sees after a move; seen spaces stay revealed; a closed door hides the room behind it
fn fog_after_a_move_and_behind_a_closed_door() {
    let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (1, 2)), ("o", "monsters", (6, 2))]);
    let mut dice = Dice::seeded(1);
    let mut ev = Vec::new();
    assert_eq!(begin(&mut m, &mut dice, &mut ev), Flow::Exploring, "the orc is behind a closed door");
    assert_eq!(vis(&m, "heroes", Pos::new(3, 1)), (true, true), "own room seen");
    assert_eq!(vis(&m, "heroes", Pos::new(4, 2)), (true, true), "the door's face is seen");
    assert_eq!(vis(&m, "heroes", Pos::new(6, 2)), (false, false), "the room behind the closed door is not");
    assert!(!side_view(&m, "heroes").figures.contains(&1), "the orc behind the door is not in the heroes' view");
    // a move within the room keeps everything revealed
    let walk = Command::Walk { actor: "h".into(), path: vec![Pos::new(2, 2), Pos::new(3, 2)], group: false };
    validate(&m, 0, &walk).unwrap();
    assert_eq!(apply(&mut m, 0, &walk, &mut dice, &mut ev), Flow::Exploring);
    assert_eq!(vis(&m, "heroes", Pos::new(1, 1)), (true, true));
    // opening the door: the room and the orc are seen, and the crisis starts (R-EXP-24)
    let door = Command::Door { actor: "h".into(), at: Pos::new(4, 2), open: true };
    validate(&m, 0, &door).unwrap();
    assert_eq!(apply(&mut m, 0, &door, &mut dice, &mut ev), Flow::CrisisStarts);
    assert_eq!(vis(&m, "heroes", Pos::new(6, 2)), (true, true));
    assert!(side_view(&m, "heroes").figures.contains(&1));
    assert!(ev.iter().any(|e| matches!(e, Event::CrisisBegins { participants, .. } if participants == &["h".to_string(), "o".to_string()])), "{ev:?}");
}

#[test] // R-EXP-19: a space seen before stays revealed but is no longer in sight once the door closes
fn revealed_stays_when_out_of_sight() {
    let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (3, 2)), ("o", "monsters", (6, 2))]);
    m.explore.as_deref_mut().unwrap().calm[1] = true; // an inactive orc (R-EXP-27): no crisis
    let mut dice = Dice::seeded(1);
    let mut ev = Vec::new();
    begin(&mut m, &mut dice, &mut ev);
    let door = |open| Command::Door { actor: "h".into(), at: Pos::new(4, 2), open };
    assert_eq!(apply(&mut m, 0, &door(true), &mut dice, &mut ev), Flow::Exploring);
    assert_eq!(vis(&m, "heroes", Pos::new(7, 3)), (true, true));
    let x = m.explore.as_deref_mut().unwrap();
    x.acted[0] = Acted::No;
    apply(&mut m, 0, &door(false), &mut dice, &mut ev);
    assert_eq!(vis(&m, "heroes", Pos::new(7, 3)), (true, false), "revealed, not in sight");
    assert!(!side_view(&m, "heroes").figures.contains(&1), "figures only while in sight");
}

#[test] // R-EXP-27, R-EXP-2: the encounter's end: closing reset, exploration resumes a minute on per 3 crisis turns; the encounter is alert
fn the_crisis_ends_and_exploration_resumes() {
    let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (3, 2)), ("o", "monsters", (6, 2))]);
    let mut dice = Dice::seeded(3);
    let mut ev = Vec::new();
    begin(&mut m, &mut dice, &mut ev);
    let door = Command::Door { actor: "h".into(), at: Pos::new(4, 2), open: true };
    let flow = apply(&mut m, 0, &door, &mut dice, &mut ev);
    assert!(super::super::driver::follow(&mut m, &mut dice, flow, &mut ev), "the crisis waits for a command");
    assert_eq!(m.clock.phase, Phase::Action);
    m.clock.turn = 4; // four crisis turns: ceil(4 / 3) = 2 minutes
    m.fighters[1].hp = -m.fighters[1].max_hp; // the orc dies
    let minute = m.explore.as_deref().unwrap().minute;
    let settled = super::super::victory::settle(&m, Flow::PhaseEnded, &mut ev);
    assert_eq!(settled, Flow::EncounterEnded);
    assert!(matches!(ev.last(), Some(Event::EncounterOver { winner: Some(w), .. }) if w == "heroes"));
    assert!(super::super::driver::follow(&mut m, &mut dice, settled, &mut ev));
    assert_eq!(m.clock.phase, Phase::Exploration);
    assert_eq!(m.explore.as_deref().unwrap().minute, minute + 2);
    assert_eq!(m.explore.as_deref().unwrap().encounters[0].awareness, Awareness::Alert);
    assert!(m.fighters.iter().all(|f| !f.dormant));
}

#[test] // R-EXP-27, G-41: when a crawl's crisis ends half of the ammunition each character fired in it (rounded down) comes back to him; a dead one's lies with him
fn half_the_ammunition_fired_comes_back_after_the_crisis() {
    let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (3, 2)), ("o", "monsters", (6, 2)), ("d", "heroes", (1, 1))]);
    let mut dice = Dice::seeded(3);
    let mut ev = Vec::new();
    begin(&mut m, &mut dice, &mut ev);
    // shots spent before the crisis are not recovered
    m.fighters[0].loadout.ammo = Some(10);
    m.fighters[2].loadout.ammo = Some(4);
    let door = Command::Door { actor: "h".into(), at: Pos::new(4, 2), open: true };
    let flow = apply(&mut m, 0, &door, &mut dice, &mut ev);
    assert!(super::super::driver::follow(&mut m, &mut dice, flow, &mut ev));
    // in the crisis: h shoots 5 times (10 -> 5), d throws 3 times (4 -> 1) and dies
    for _ in 0..5 {
        m.fighters[0].loadout.ammo = m.fighters[0].loadout.ammo.map(|n| n - 1);
        count_shot(&mut m, 0);
    }
    for _ in 0..3 {
        m.fighters[2].loadout.ammo = m.fighters[2].loadout.ammo.map(|n| n - 1);
        count_shot(&mut m, 2);
    }
    m.fighters[2].hp = -m.fighters[2].max_hp;
    m.clock.turn = 2;
    m.fighters[1].hp = -m.fighters[1].max_hp; // the orc dies: the crisis is over
    let settled = super::super::victory::settle(&m, Flow::PhaseEnded, &mut ev);
    assert!(super::super::driver::follow(&mut m, &mut dice, settled, &mut ev));
    assert_eq!(m.clock.phase, Phase::Exploration);
    assert_eq!(m.fighters[0].loadout.ammo, Some(7), "5 fired: 2 come back (rounded down)");
    assert_eq!(m.fighters[2].loadout.ammo, Some(2), "3 thrown: 1 comes back into the dead man's space, with what he carried");
    assert!(ev.iter().any(|e| matches!(e, Event::Note { text } if text.contains("G-41") && text.contains("recovers 2 of the 5"))), "told");
    assert!(m.explore.as_deref().unwrap().orders.fired.is_empty(), "counted afresh in the next crisis");
}

#[test] // R-EXP-16, R-EXP-24 (b), R-EXP-25, G-15: a trap springs with no hostile about: the crisis says at once that it lasts one action phase; the spent trap stays marked
fn a_trap_crisis_with_no_foe_says_it_lasts_one_phase() {
    let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (1, 2)), ("o", "monsters", (7, 2))]);
    let at = Pos::new(2, 2);
    m.explore.as_deref_mut().unwrap().traps.push(Trap {
        id: "pit".into(),
        pos: at,
        on: TrapOn::Space,
        hidden: true,
        find_cr: 9,
        disarm_cr: 9,
        effect_cr: 1,
        damage: (1, 6),
        condition: None,
        rearms: false,
        spent: false,
    });
    let mut dice = Dice::seeded(3);
    let mut ev = Vec::new();
    begin(&mut m, &mut dice, &mut ev);
    assert!(side_view(&m, "heroes").spent_traps.is_empty(), "hidden: nothing to mark");
    let walk = Command::Walk { actor: "h".into(), path: vec![at], group: false };
    let flow = apply(&mut m, 0, &walk, &mut dice, &mut ev);
    assert_eq!(flow, Flow::CrisisStarts);
    assert!(one_phase_crisis(&m), "the orc behind the closed door takes no part");
    let k = ev.iter().position(|e| matches!(e, Event::CrisisBegins { .. })).expect("a crisis");
    assert!(matches!(&ev[k + 1], Event::Note { text } if text.contains("R-EXP-25") && text.contains("one action phase")), "{:?}", &ev[k..]);
    assert_eq!(side_view(&m, "heroes").spent_traps, vec![at], "the sprung trap is marked");
    assert!(side_view(&m, "heroes").traps.is_empty());
    // a crisis with a foe in it says nothing of the kind
    let mut m2 = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (3, 2)), ("o", "monsters", (6, 2))]);
    let mut ev2 = Vec::new();
    begin(&mut m2, &mut dice, &mut ev2);
    let door = Command::Door { actor: "h".into(), at: Pos::new(4, 2), open: true };
    assert_eq!(apply(&mut m2, 0, &door, &mut dice, &mut ev2), Flow::CrisisStarts);
    assert!(!one_phase_crisis(&m2));
    assert!(!ev2.iter().any(|e| matches!(e, Event::Note { text } if text.contains("one action phase"))));
}

#[test] // G-15, R-TURN-17, R-EXP-27: the last foe of a crawl's crisis falls mid-phase: the encounter ends at once
fn the_last_foe_down_ends_the_encounter_at_once() {
    let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (3, 2)), ("o", "monsters", (6, 2))]);
    let mut dice = Dice::seeded(3);
    let mut ev = Vec::new();
    begin(&mut m, &mut dice, &mut ev);
    let door = Command::Door { actor: "h".into(), at: Pos::new(4, 2), open: true };
    let flow = apply(&mut m, 0, &door, &mut dice, &mut ev);
    assert!(super::super::driver::follow(&mut m, &mut dice, flow, &mut ev));
    assert_eq!(m.clock.phase, Phase::Action);
    m.fighters[1].hp = -m.fighters[1].max_hp; // the orc dies, the hero still has his AP
    assert_eq!(super::super::victory::settle(&m, Flow::AwaitCommand, &mut ev), Flow::EncounterEnded, "not at the phase's end: now");
}

#[test] // R-EXP-10: in a crisis a lock is picked by a 3/Only action in three consecutive turns, the check at the third; once per turn
fn a_lengthy_task_takes_three_crisis_turns() {
    let rows = ["#########", "#...#...#", "#...+...#", "#...#...#", "##L######", "#.......#", "#########"];
    let mut m = crate::testkit::crawl(&rows, &[("h", "heroes", (2, 3)), ("o", "monsters", (6, 2))]);
    let x = m.explore.as_deref_mut().unwrap();
    x.doors.push(Door { pos: Pos::new(2, 4), lock: Some(Lock { cr: 2, force_cr: 12, key: None, jammed: false }), hidden: false });
    let mut dice = Dice::seeded(5);
    let mut ev = Vec::new();
    begin(&mut m, &mut dice, &mut ev);
    // the orc comes into sight: a crisis
    let door = Command::Door { actor: "h".into(), at: Pos::new(4, 2), open: true };
    let flow = apply(&mut m, 0, &Command::Walk { actor: "h".into(), path: vec![Pos::new(3, 2)], group: false }, &mut dice, &mut ev);
    assert_eq!(flow, Flow::Exploring);
    let flow = apply(&mut m, 0, &door, &mut dice, &mut ev);
    assert_eq!(flow, Flow::CrisisStarts);
    m.fighters[0].pos = Pos::new(2, 3); // back next to the lock
    assert!(super::super::driver::follow(&mut m, &mut dice, flow, &mut ev));
    let pick = crate::testkit::cmd(r#"task(actor: "h", task: pick_lock, at: (2, 4))"#);
    for turn in 1..=3 {
        // pass whoever else is up until the hero's opportunity
        for _ in 0..20 {
            match m.clock.current {
                Some(0) => break,
                Some(c) => {
                    let id = m.fighters[c].id.clone();
                    super::super::driver::submit(&mut m, &mut dice, &Command::Pass { actor: id }, &mut ev).unwrap();
                }
                None => break,
            }
        }
        assert_eq!(m.clock.turn, turn);
        assert_eq!(m.board.tile(Pos::new(2, 4)), Some(Tile::DoorLocked), "still locked before the third turn's action");
        super::super::driver::submit(&mut m, &mut dice, &pick, &mut ev).unwrap_or_else(|v| panic!("turn {turn}: {v:?}"));
        if turn < 3 {
            assert!(!ev.iter().any(|e| matches!(e, Event::Dice { purpose, .. } if purpose == "pick_lock")), "no check before the third turn");
            // the rest of the turn: everyone passes
            for _ in 0..20 {
                if m.clock.turn != turn {
                    break;
                }
                let Some(c) = m.clock.current else { break };
                let id = m.fighters[c].id.clone();
                let again = super::super::driver::submit(&mut m, &mut dice, &pick.clone(), &mut ev);
                if c == 0 {
                    assert!(again.is_err(), "once per turn (or nothing after an Only action)");
                }
                super::super::driver::submit(&mut m, &mut dice, &Command::Pass { actor: id }, &mut ev).ok();
            }
        }
    }
    assert!(ev.iter().any(|e| matches!(e, Event::Dice { purpose, .. } if purpose == "pick_lock")), "the check at the third turn");
    assert_ne!(m.board.tile(Pos::new(2, 4)), Some(Tile::DoorLocked), "CR 2: picked");
}

#[test] // R-EXP-14, R-EXP-10: in a crisis a search of chosen spaces is a lengthy task; the third turn searches the spaces chosen, not the default ones
fn a_search_of_chosen_spaces_takes_three_crisis_turns() {
    let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (3, 2)), ("o", "monsters", (6, 2))]);
    // a hidden trap on the floor at (2, 3): the default search takes the walls and the door first
    let trap = Trap {
        id: "pit".into(),
        pos: Pos::new(2, 3),
        on: TrapOn::Space,
        hidden: true,
        find_cr: 0,
        disarm_cr: 9,
        effect_cr: 9,
        damage: (1, 6),
        condition: None,
        rearms: false,
        spent: false,
    };
    m.explore.as_deref_mut().unwrap().traps.push(trap);
    let mut dice = Dice::seeded(5);
    let mut ev = Vec::new();
    begin(&mut m, &mut dice, &mut ev);
    let door = Command::Door { actor: "h".into(), at: Pos::new(4, 2), open: true };
    let flow = apply(&mut m, 0, &door, &mut dice, &mut ev);
    assert_eq!(flow, Flow::CrisisStarts);
    assert!(!search_spaces(&m, 0, 4).contains(&Pos::new(2, 3)), "not among the default spaces");
    assert!(super::super::driver::follow(&mut m, &mut dice, flow, &mut ev));
    let search = crate::testkit::cmd(r#"search(actor: "h", spaces: [(2, 3)])"#);
    for turn in 1..=3 {
        until_up(&mut m, &mut dice, 0, &mut ev);
        assert_eq!(m.clock.turn, turn);
        assert!(!ev.iter().any(|e| matches!(e, Event::FeatureFound { .. })), "nothing found before the third turn");
        super::super::driver::submit(&mut m, &mut dice, &search, &mut ev).unwrap_or_else(|v| panic!("turn {turn}: {v:?}"));
        if turn < 3 {
            for _ in 0..20 {
                if m.clock.turn != turn {
                    break;
                }
                let Some(c) = m.clock.current else { break };
                let id = m.fighters[c].id.clone();
                super::super::driver::submit(&mut m, &mut dice, &Command::Pass { actor: id }, &mut ev).ok();
            }
        }
    }
    assert!(
        ev.iter().any(|e| matches!(e, Event::FeatureFound { what, at, .. } if what == "trap" && *at == Pos::new(2, 3))),
        "the third turn searched the chosen space"
    );
}

#[test] // R-EXP-18, R-EXP-8: in a crisis the bar offers lighting a carried torch as the Use Item action (3/Only); taken, it burns at once
fn a_torch_is_lit_at_once_in_a_crisis() {
    let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (3, 2)), ("o", "monsters", (6, 2))]);
    m.fighters[0].loadout.items.push("torch".into());
    let mut dice = Dice::seeded(5);
    let mut ev = Vec::new();
    begin(&mut m, &mut dice, &mut ev);
    let door = Command::Door { actor: "h".into(), at: Pos::new(4, 2), open: true };
    let flow = apply(&mut m, 0, &door, &mut dice, &mut ev);
    assert!(super::super::driver::follow(&mut m, &mut dice, flow, &mut ev));
    until_up(&mut m, &mut dice, 0, &mut ev);
    let bar = preview::crisis_choices(&m, m.explore.as_deref().unwrap(), 0);
    let light = bar.iter().find(|c| c.label.starts_with("Light a")).expect("the bar offers the torch");
    assert!(light.refusal.is_none(), "{:?}", light.refusal);
    assert_eq!(light.row, "use_item");
    super::super::driver::submit(&mut m, &mut dice, &light.template.clone(), &mut ev).unwrap();
    assert_eq!(m.explore.as_deref().unwrap().burning.get(&0), Some(&("torch".to_string(), 120)), "burning at once, its full time");
    assert!(!m.fighters[0].loadout.items.contains(&"torch".to_string()));
}

#[test] // R-EXP-24 (c), R-EXP-26 (4), R-EXP-27: an attack order on an inactive hostile starts the crisis; his unaware encounter is surprised
fn an_attack_order_starts_a_crisis_with_the_target_surprised() {
    let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (1, 2)), ("o", "monsters", (3, 2))]);
    m.explore.as_deref_mut().unwrap().calm[1] = true; // left able to act by an earlier crisis: inactive
    let mut dice = Dice::seeded(2);
    let mut ev = Vec::new();
    assert_eq!(begin(&mut m, &mut dice, &mut ev), Flow::Exploring, "an inactive hostile in sight starts nothing");
    let attack = Command::action("h", "attack", Some("o"));
    validate(&m, 0, &attack).unwrap();
    assert_eq!(apply(&mut m, 0, &attack, &mut dice, &mut ev), Flow::CrisisStarts);
    assert!(
        ev.iter().any(|e| matches!(e, Event::CrisisBegins { surprised, reason, .. } if surprised == &["o".to_string()] && reason == "h attacks o")),
        "{ev:?}"
    );
    assert!(!m.explore.as_deref().unwrap().calm[1], "hostile again");
    // an attack order on a hero is refused
    let mut m2 = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (1, 2)), ("g", "heroes", (2, 2)), ("o", "monsters", (6, 2))]);
    begin(&mut m2, &mut dice, &mut ev);
    assert_eq!(validate(&m2, 0, &Command::action("h", "attack", Some("g"))).unwrap_err().rule, "R-EXP-24");
    assert_eq!(validate(&m2, 0, &Command::action("h", "attack", Some("o"))).unwrap_err().rule, "R-EXP-19", "behind a closed door: not seen");
}

#[test] // R-EXP-22: no camp while a hostile able to act sees a hero (inactive ones included) or a hero bleeds
fn no_camp_in_sight_of_a_hostile_or_while_bleeding() {
    let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (1, 2)), ("o", "monsters", (3, 2))]);
    m.explore.as_deref_mut().unwrap().calm[1] = true;
    let mut dice = Dice::seeded(2);
    let mut ev = Vec::new();
    begin(&mut m, &mut dice, &mut ev);
    let camp = Command::Camp { actor: "h".into() };
    assert_eq!(validate(&m, 0, &camp).unwrap_err().rule, "R-EXP-22", "the inactive orc is in sight");
    m.fighters[1].hp = -m.fighters[1].max_hp; // dead
    assert_eq!(validate(&m, 0, &camp).err(), None);
    m.fighters[0].conditions.push(super::super::fighter::ConditionInstance {
        id: "bleeding".into(),
        duration: super::super::fighter::Duration::Persistent,
        removal_cr: None,
    });
    assert_eq!(validate(&m, 0, &camp).unwrap_err().rule, "R-EXP-22", "bleeding");
}

#[test] // R-EXP-18, R-EXP-19: in a dark area a hero sees only the spaces next to him until a torch burns; a light lit at the end of the turn shows the orc: a crisis
fn a_torch_lights_the_dark() {
    let rows = ["##########", "#........#", "#........#", "##########"];
    let mut m = crate::testkit::crawl(&rows, &[("h", "heroes", (1, 1)), ("o", "monsters", (7, 2))]);
    m.explore.as_deref_mut().unwrap().dark = vec![(Pos::new(0, 0), Pos::new(9, 3))];
    m.fighters[0].loadout.items.push("torch".into());
    let mut dice = Dice::seeded(4);
    let mut ev = Vec::new();
    assert_eq!(begin(&mut m, &mut dice, &mut ev), Flow::Exploring, "the orc is in the dark");
    assert_eq!(vis(&m, "heroes", Pos::new(2, 2)), (true, true), "next to him");
    assert_eq!(vis(&m, "heroes", Pos::new(4, 1)), (false, false), "the dark");
    let light = Command::Task { actor: "h".into(), task: Task::Light, at: Pos::new(1, 1) };
    validate(&m, 0, &light).unwrap();
    // the only hero has acted: the turn ends, the torch burns, the orc 6 spaces off is seen
    assert_eq!(apply(&mut m, 0, &light, &mut dice, &mut ev), Flow::CrisisStarts);
    assert_eq!(vis(&m, "heroes", Pos::new(4, 1)), (true, true));
    assert_eq!(
        m.explore.as_deref().unwrap().burning.get(&0).map(|b| b.1),
        Some(120),
        "the crisis began at step 1: the rest of the minute, burning included, is dropped (G-71)"
    );
    assert!(!m.fighters[0].loadout.items.contains(&"torch".to_string()), "in his hand now");
}

#[test] // R-EXP-9, R-EXP-21, R-HEAL-5: binding a bruised hero's wounds keeps healer and patient busy 3 turns, then a Healing check: +1 HP; once per crisis; only within 30 minutes
fn binding_wounds_takes_turns_and_heals_once() {
    let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (1, 2)), ("g", "heroes", (2, 2)), ("o", "monsters", (6, 2))]);
    let mut dice = Dice::seeded(9);
    let mut ev = Vec::new();
    begin(&mut m, &mut dice, &mut ev);
    m.fighters[1].hp = m.fighters[1].max_hp - 1; // bruised in the last crisis
    let x = m.explore.as_deref_mut().unwrap();
    x.hurt_in_crisis.insert(1);
    x.last_crisis_end = Some(x.minute);
    let bind = Command::Task { actor: "h".into(), task: Task::Bind, at: Pos::new(2, 2) };
    validate(&m, 0, &bind).unwrap();
    dice.force([6, 6]); // h's Healing 2d7!-2: 6, 6 = 10 ≥ 6
    // both busy: the turn ends by itself (every hero has acted)
    assert_eq!(apply(&mut m, 0, &bind, &mut dice, &mut ev), Flow::Exploring);
    // issue 43: the automatic end is told (the player did not press Enter for it)
    let told = |ev: &[Event]| ev.iter().filter(|e| matches!(e, Event::Note { text } if text.contains("ends by itself") && text.contains("R-EXP-3"))).count();
    assert_eq!(told(&ev), 1, "R-EXP-3: every hero has acted, the turn ended by itself and says so");
    assert_eq!(validate(&m, 1, &Command::Walk { actor: "g".into(), path: vec![Pos::new(3, 2)], group: false }).unwrap_err().rule, "R-EXP-9");
    let hp = m.fighters[1].hp;
    for _ in 0..2 {
        assert_eq!(m.fighters[1].hp, hp, "not before the last turn");
        apply(&mut m, 0, &Command::EndTurn { actor: "h".into() }, &mut dice, &mut ev);
    }
    assert_eq!(m.fighters[1].hp, hp + 1, "bruised: +1 HP");
    assert_eq!(told(&ev), 1, "a turn the player ends is not told as ending by itself");
    assert!(m.explore.as_deref().unwrap().busy.is_empty());
    assert_eq!(validate(&m, 0, &bind).unwrap_err().rule, "R-HEAL-5", "at full HP now, and once per crisis");
    // too late: more than 30 minutes after the crisis
    m.fighters[1].hp -= 1;
    m.explore.as_deref_mut().unwrap().bound.clear();
    m.explore.as_deref_mut().unwrap().minute += 31;
    assert_eq!(validate(&m, 0, &bind).unwrap_err().rule, "R-EXP-21");
}

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    // R-EXP-19: whatever the heroes do, no figure the side cannot see now (and no hidden
    // secret door's true tile) reaches the side's view model.
    #[test]
    fn no_hidden_figure_reaches_the_view(steps in proptest::collection::vec((0usize..8, 0usize..3), 1..24), seed in 0u64..1000) {
        let rows = ["###########", "#....#....#", "#....+....#", "#..O.#....#", "##+######+#", "#.........#", "###########"];
        let mut m = crate::testkit::crawl(&rows, &[("a", "heroes", (1, 1)), ("b", "heroes", (2, 2)), ("o1", "monsters", (8, 2)), ("o2", "monsters", (8, 5))]);
        m.explore.as_deref_mut().unwrap().calm = vec![false, false, true, true]; // they never start a crisis here
        m.explore.as_deref_mut().unwrap().doors.push(Door { pos: Pos::new(2, 4), lock: None, hidden: true });
        let mut dice = Dice::seeded(seed);
        let mut ev = Vec::new();
        begin(&mut m, &mut dice, &mut ev);
        for (dir, who) in steps {
            let a = who.min(1);
            let (dx, dy) = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)][dir];
            let p = m.fighters[a].pos;
            let q = Pos::new(p.x + dx, p.y + dy);
            let cmd = if matches!(m.board.tile(q), Some(Tile::DoorClosed | Tile::DoorOpen)) && m.occupant(q).is_none() {
                Command::Door { actor: m.fighters[a].id.clone(), at: q, open: m.board.tile(q) == Some(Tile::DoorClosed) }
            } else if who == 2 {
                Command::EndTurn { actor: "a".into() }
            } else {
                Command::Walk { actor: m.fighters[a].id.clone(), path: vec![q], group: false }
            };
            if validate(&m, a, &cmd).is_ok() {
                apply(&mut m, a, &cmd, &mut dice, &mut ev);
            }
            let v = side_view(&m, "heroes");
            for &i in &v.figures {
                let f = &m.fighters[i];
                if f.side != "heroes" {
                    let seen = (0..2).any(|h| m.board.sees_space(m.fighters[h].pos, f.pos));
                    prop_assert!(seen, "{} at {} is in the view but no hero sees it", f.id, f.pos);
                }
            }
            for i in 2..4 {
                let seen = (0..2).any(|h| m.board.sees_space(m.fighters[h].pos, m.fighters[i].pos));
                prop_assert_eq!(v.figures.contains(&i), seen, "figure {} shown iff seen", i);
            }
            prop_assert!(v.hidden_doors.contains(&Pos::new(2, 4)), "the secret door stays hidden (nobody searched)");
        }
    }
}

/// Two corridors joined at the east end: the hero (7, 1) and the orc (1, 1) see each other
/// down the north one (a crisis at once); the south one (row 4) is out of sight behind the
/// walls until the hero comes down the bend to (8, 3).
const CORRIDORS: [&str; 6] = ["##########", "#........#", "########.#", "########.#", "#........#", "##########"];

/// Passes for everyone else until `who` has the opportunity (a crisis).
fn until_up(m: &mut Match, dice: &mut Dice, who: usize, ev: &mut Vec<Event>) {
    for _ in 0..20 {
        match m.clock.current {
            Some(c) if c == who => return,
            Some(c) => {
                let id = m.fighters[c].id.clone();
                let pass = if m.a4.is_some() { crate::testkit::cmd(&format!(r#"round(actor: "{id}", act: end_turn)"#)) } else { Command::Pass { actor: id } };
                super::super::driver::submit(m, dice, &pass, ev).unwrap();
            }
            None => panic!("nobody is up"),
        }
    }
    panic!("{who} never got a turn");
}

#[test] // R-EXP-19: in a crisis, sight is tested after every space entered: a hero's move reveals what he sees from each space, for his side only
fn a_move_in_a_crisis_reveals() {
    let mut m = crate::testkit::crawl(&CORRIDORS, &[("h", "heroes", (7, 1)), ("o", "monsters", (1, 1))]);
    let mut dice = Dice::seeded(2);
    let mut ev = Vec::new();
    let flow = begin(&mut m, &mut dice, &mut ev);
    assert_eq!(flow, Flow::CrisisStarts, "the orc is in sight");
    assert!(super::super::driver::follow(&mut m, &mut dice, flow, &mut ev));
    assert_eq!(m.clock.phase, Phase::Action, "a crisis");
    let south = Pos::new(2, 4);
    assert_eq!(vis(&m, "heroes", south), (false, false), "the south corridor is not seen from the north one");
    until_up(&mut m, &mut dice, 0, &mut ev);
    let monsters_before = side_view(&m, "monsters").revealed.clone();
    ev.clear();
    for c in [r#"free_steps(actor: "h", path: [(8, 1)])"#, r#"move(actor: "h", movement: "run", path: [(8, 2), (8, 3)])"#] {
        super::super::driver::submit(&mut m, &mut dice, &crate::testkit::cmd(c), &mut ev).unwrap_or_else(|v| panic!("{c}: {v:?}"));
    }
    assert_eq!(m.fighters[0].pos, Pos::new(8, 3));
    assert_eq!(vis(&m, "heroes", south), (true, true), "the south corridor, seen from the space he entered");
    assert!(ev.iter().any(|e| matches!(e, Event::Revealed { side, .. } if side == "heroes")), "a Revealed event: {ev:?}");
    assert_eq!(side_view(&m, "monsters").revealed, monsters_before, "the other side's map is its own");
    // the explorers' `seen` (the state hash's) is left as it always was: no crisis reveals
    let k = m.board.index(south).unwrap();
    assert!(!m.explore.as_deref().unwrap().seen["heroes"][k], "the hashed map is unchanged by a crisis move");
}

#[test] // R-EXP-19: every side keeps its own revealed map (hot-seat): the monsters' side has seen its own room from the start, the heroes have not
fn each_side_reveals_its_own_map() {
    let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (1, 2)), ("o", "monsters", (6, 2))]);
    let mut dice = Dice::seeded(1);
    let mut ev = Vec::new();
    assert_eq!(begin(&mut m, &mut dice, &mut ev), Flow::Exploring);
    assert_eq!(vis(&m, "monsters", Pos::new(7, 3)), (true, true), "the orc's own room");
    assert_eq!(vis(&m, "monsters", Pos::new(1, 1)), (false, false), "not the heroes' room behind the door");
    assert_eq!(vis(&m, "heroes", Pos::new(7, 3)), (false, false));
    assert!(side_view(&m, "monsters").figures.contains(&1) && !side_view(&m, "monsters").figures.contains(&0));
    assert!(ev.iter().any(|e| matches!(e, Event::Revealed { side, .. } if side == "monsters")));
}

#[test] // R-EXP-19: under ruleset A4 too, a move in a crawl's crisis reveals square by square
fn an_a4_move_in_a_crisis_reveals() {
    let mut m = crate::testkit::crawl_under(Some("A4"), &CORRIDORS, &[("h", "heroes", (7, 1)), ("o", "monsters", (1, 1))]);
    let mut dice = Dice::seeded(2);
    let mut ev = Vec::new();
    let flow = begin(&mut m, &mut dice, &mut ev);
    assert_eq!(flow, Flow::CrisisStarts);
    assert!(super::super::driver::follow(&mut m, &mut dice, flow, &mut ev));
    let south = Pos::new(2, 4);
    assert_eq!(vis(&m, "heroes", south), (false, false));
    until_up(&mut m, &mut dice, 0, &mut ev);
    let c = r#"round(actor: "h", act: move(path: [(8, 1), (8, 2), (8, 3)]))"#;
    super::super::driver::submit(&mut m, &mut dice, &crate::testkit::cmd(c), &mut ev).unwrap_or_else(|v| panic!("{c}: {v:?}"));
    assert_eq!(m.fighters[0].pos, Pos::new(8, 3));
    assert_eq!(vis(&m, "heroes", south), (true, true), "the south corridor, from the square he entered");
}

#[test] // G-02, R-EXP-5: a foe met on the way (one the side did not see when it gave the order)
// stops the walk before him; the walker may not stop on the ally he was passing through, so he
// stops on the last space nobody else holds
fn a_walk_stopped_on_an_ally_stops_short_of_him() {
    let mut m = crate::testkit::crawl(&["#######", "#.....#", "#######"], &[("h", "heroes", (1, 1)), ("g", "heroes", (3, 1)), ("o", "monsters", (4, 1))]);
    m.clock.phase = Phase::Exploration;
    let (mut dice, mut ev) = (Dice::seeded(1), Vec::new());
    let path = vec![Pos::new(2, 1), Pos::new(3, 1), Pos::new(4, 1), Pos::new(5, 1)];
    apply(&mut m, 0, &Command::Walk { actor: "h".into(), path, group: false }, &mut dice, &mut ev);
    assert_eq!(m.fighters[0].pos, Pos::new(2, 1), "{ev:?}");
    assert_eq!(m.fighters[1].pos, Pos::new(3, 1));
    let notes: Vec<&str> = ev.iter().filter_map(|e| if let Event::Note { text } = e { Some(text.as_str()) } else { None }).collect();
    assert!(notes.iter().any(|t| t.contains("stops: (4, 1) is blocked")), "{notes:?}");
    assert!(notes.iter().any(|t| t.contains("stops short: g holds (3, 1)")), "{notes:?}");
}
