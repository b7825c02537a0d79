//! Property tests of ruleset A4: random seeds and random commands (legal ones from the
//! previews and the AI, and illegal ones on purpose) played through the command path, with the
//! rules' invariants checked after every command.

// The crate's test helpers, shared: `testkit.rs` names what it uses by `crate::` paths, which
// these imports provide here.
use doo_rules::{data, level, level_crawl, rules, script};
#[allow(dead_code)]
#[path = "../src/testkit.rs"]
mod testkit;

use doo_rules::ai;
use proptest::prelude::*;
use rules::a4::acts::{self, RoundAct};
use rules::a4::{preview, st, threateners, threatens};
use rules::command::Command;
use rules::dice::Dice;
use rules::driver;
use rules::event::Event;
use rules::grid::Pos;
use rules::preview::Aim;
use rules::state::Phase;
use std::collections::BTreeMap;
use testkit::{Duel, a4};

const ROWS: &[&str] = &["..........", "....#.....", "..........", "..........", ".....#....", ".........."];
const CHARS: &[&str] = &[
    r#"(id: "lunk", side: "heroes", pos: (0, 0), stats: (brawn: 9, finesse: 7, savvy: 5, nerve: 6), skills: {"axes": journeyman}, weapon: Some("broad_axe"), armor: Some("chainmail"))"#,
    r#"(id: "pell", side: "heroes", pos: (0, 3), stats: (brawn: 5, finesse: 8, savvy: 6, nerve: 7), skills: {"bows": journeyman}, weapon: Some("shortbow"))"#,
    r#"(id: "spear", side: "heroes", pos: (1, 5), stats: (brawn: 7, finesse: 7, savvy: 5, nerve: 6), skills: {"spears": apprentice}, weapon: Some("spear"))"#,
    r#"(id: "orc", side: "monsters", pos: (9, 0), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6), skills: {"maces": apprentice}, weapon: Some("mace"))"#,
    r#"(id: "gob", side: "monsters", pos: (9, 3), size: small, stats: (brawn: 5, finesse: 7, savvy: 5, nerve: 4), skills: {"knives": apprentice}, weapon: Some("dagger"))"#,
    r#"(id: "xbow", side: "monsters", pos: (8, 5), stats: (brawn: 8, finesse: 8, savvy: 5, nerve: 5), skills: {"crossbows": apprentice}, weapon: Some("crossbow"))"#,
];

/// Commands to try now: what the previews offer (aimed at every valid target or space), the
/// window's answers, and some that break a rule on purpose.
fn candidates(g: &Duel) -> Vec<Command> {
    let m = &g.m;
    let mut out = Vec::new();
    let who = m.pending.as_ref().filter(|p| p.window.is_some()).map(|p| p.defender).or(m.clock.current);
    let Some(a) = who else { return out };
    let id = m.fighters[a].id.clone();
    if let Some((_, list)) = preview::reaction_choices(m, a) {
        out.extend(list.into_iter().map(|c| c.command));
        out.push(Command::Decline { actor: id.clone() });
    } else {
        out.extend(preview::destinations(m, a).into_values().map(|d| d.command));
        for c in preview::choices(m, a) {
            match &c.aim {
                Aim::Figure(ts) => {
                    for t in ts {
                        let mut cmd = c.template.clone();
                        if let Command::Round { act, .. } = &mut cmd {
                            match act {
                                RoundAct::Attack { target } | RoundAct::Charge { target, .. } | RoundAct::Stabilize { target } => *target = t.clone(),
                                RoundAct::FullAttack { targets } => *targets = vec![t.clone()],
                                _ => {}
                            }
                        }
                        out.push(cmd);
                    }
                }
                Aim::Space(s) => out.extend(s.iter().take(6).map(|x| x.1.clone())),
                Aim::None => out.push(c.template.clone()),
            }
        }
        out.push(Command::Round { actor: id.clone(), act: RoundAct::EndTurn });
    }
    // on purpose: out of turn, a far attack, a long move, a DoO order, an answer nobody asked for
    let other = m.fighters.iter().position(|f| f.id != id && !m.is_dead(m.index(&f.id).unwrap_or(0))).unwrap_or(0);
    out.push(Command::Round { actor: m.fighters[other].id.clone(), act: RoundAct::EndTurn });
    out.push(Command::Round { actor: id.clone(), act: RoundAct::Move { path: (1..=12).map(|k| Pos::new(m.fighters[a].pos.x + k, 0)).collect() } });
    out.push(Command::action(&id, "attack", Some(&m.fighters[other].id)));
    out.push(Command::Decline { actor: m.fighters[other].id.clone() });
    out.push(Command::Round { actor: id, act: RoundAct::Delay { initiative: 99 } });
    out
}

/// Plays `picks` (indices into the candidates) from `seed`, checking the invariants; returns the
/// number of commands applied.
fn play(seed: u64, picks: &[usize]) -> usize {
    let mut g = a4(ROWS, CHARS, &[]);
    g.dice = Dice::seeded(seed);
    let mut applied = 0;
    // (round, actor) → standard slots taken, attacks of opportunity made, turns opened
    let mut standard: BTreeMap<(u32, String), u32> = BTreeMap::new();
    let mut aoo: BTreeMap<(u32, String), u32> = BTreeMap::new();
    let mut turns: BTreeMap<(u32, String), u32> = BTreeMap::new();
    for &k in picks {
        if g.m.clock.phase == Phase::Over {
            break;
        }
        let c = candidates(&g);
        if c.is_empty() {
            break;
        }
        let cmd = c[k % c.len()].clone();
        let before_init: Vec<i32> = g.m.a4.as_ref().map(|x| x.figs.iter().map(|r| r.initiative).collect()).unwrap_or_default();
        let round = g.m.clock.turn;
        let from = g.ev.len();
        match driver::submit(&mut g.m, &mut g.dice, &cmd, &mut g.ev) {
            Ok(_) => applied += 1,
            Err(v) => {
                // property 6: every refusal under A4 names an A4 rule (or bad input)
                assert!(v.rule.starts_with("A4-") || v.rule == "INPUT" || v.rule == "R-TURN-17", "{cmd:?}: {v:?}");
                continue;
            }
        }
        let new = &g.ev[from..];
        // property 3: a five-foot step never opens an attack-of-opportunity window
        if matches!(&cmd, Command::Round { act: RoundAct::Step { .. }, .. }) {
            assert!(
                !new.iter().any(|e| matches!(e, Event::ReflexWindow { options, .. } if options.iter().any(|o| o == acts::OPPORTUNITY))),
                "{cmd:?}: {new:?}"
            );
        }
        // property 7: a delay never raises initiative
        if let Command::Round { act: RoundAct::Delay { .. }, actor } = &cmd {
            let i = g.m.index(actor).unwrap();
            assert!(st(&g.m, i).initiative < before_init[i]);
        }
        let mut r = round;
        for e in new {
            match e {
                Event::Initiative { turn, .. } => r = *turn,
                Event::SlotsUsed { actor, slots, .. } if slots.iter().any(|s| s == "standard") => *standard.entry((r, actor.to_string())).or_default() += 1,
                Event::ReflexDeclared { actor, reflex, .. } if reflex == acts::OPPORTUNITY => *aoo.entry((r, actor.to_string())).or_default() += 1,
                Event::Opportunity { actor, .. } => *turns.entry((r, actor.to_string())).or_default() += 1,
                _ => {}
            }
        }
    }
    // property 1: never two standard actions in a round
    assert!(standard.values().all(|&n| n <= 1), "{standard:?}");
    // property 2: at most one attack of opportunity per character per round
    assert!(aoo.values().all(|&n| n <= 1), "{aoo:?}");
    // property 7: a turn opens at most once per round, except after a delay (re-opened once per delay)
    let delays = g.ev.iter().filter(|e| matches!(e, Event::Note { text } if text.contains("delays"))).count() as u32;
    assert!(turns.values().all(|&n| n <= 1 + delays), "{turns:?}");
    applied
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    // A4-2.1 (one standard action), A4-4.2 (one attack of opportunity), A4-3.19 / A4-4.4 (the
    // five-foot step never provokes), A4-3.15 (a delay goes lower), A4-8 (refusals name A4 rules)
    #[test]
    fn random_play_keeps_the_a4_invariants(seed in 0u64..10_000, picks in proptest::collection::vec(0usize..1000, 40..160)) {
        play(seed, &picks);
    }
}

/// Property 4 (A4-3.13, A4-G-16): a withdraw opens a window only at a step out of a square
/// other than its start, and only from a figure threatening that square.
#[test]
fn withdraw_windows_only_after_the_first_square() {
    for seed in 0..30u64 {
        let mut g = a4(ROWS, CHARS, &[]);
        g.dice = Dice::seeded(seed);
        for _ in 0..400 {
            if g.m.clock.phase == Phase::Over {
                break;
            }
            let Some(c) = g.m.clock.current.filter(|_| g.m.pending.is_none()) else {
                // answer windows with the AI
                let who = g.m.pending.as_ref().map(|p| p.defender).unwrap_or(0);
                let cmd = ai::a4::decide(&g.m, who, &Default::default());
                let _ = driver::submit(&mut g.m, &mut g.dice, &cmd, &mut g.ev);
                continue;
            };
            let start = g.m.fighters[c].pos;
            let withdraw = preview::choices(&g.m, c).into_iter().find(|x| x.row == "withdraw" && x.available());
            let cmd = match withdraw.and_then(|w| match w.aim {
                Aim::Space(s) => s.into_iter().max_by_key(|(p, _)| p.distance(start)).map(|x| x.1),
                _ => None,
            }) {
                Some(cmd) if seed % 2 == 0 => cmd,
                _ => ai::a4::decide(&g.m, c, &Default::default()),
            };
            let from = g.ev.len();
            let was_threatened: Vec<usize> = threateners(&g.m, c, start);
            if driver::submit(&mut g.m, &mut g.dice, &cmd, &mut g.ev).is_err() {
                break;
            }
            if let Command::Round { act: RoundAct::Withdraw { path }, .. } = &cmd {
                let first = g.ev[from..].iter().find_map(|e| match e {
                    Event::ReflexWindow { defender, options, .. } if options.iter().any(|o| o == acts::OPPORTUNITY) => Some(defender.clone()),
                    _ => None,
                });
                if let Some(d) = first {
                    // the mover stands on a square of its path, not its start
                    assert_ne!(g.m.fighters[c].pos, start, "seed {seed}: a withdraw provoked on its first square (threatened by {was_threatened:?})");
                    assert!(path.contains(&g.m.fighters[c].pos));
                    let x = g.m.index(&d).unwrap();
                    assert!(threatens(&g.m, x, g.m.fighters[c].pos), "seed {seed}: {d} does not threaten the square left");
                }
            }
        }
    }
}

/// A4-8: the AI plays both sides to the end with every command accepted, over many seeds.
#[test]
fn the_ai_plays_a4_to_the_end_without_a_refusal() {
    let mut ends = 0;
    for seed in 0..40u64 {
        let mut g = a4(ROWS, CHARS, &[]);
        g.dice = Dice::seeded(seed);
        let cfg =
            ai::AiConfig { sides: [("heroes".to_string(), Default::default()), ("monsters".to_string(), Default::default())].into(), ..Default::default() };
        for _ in 0..3000 {
            let Some(who) = ai::who_decides(&g.m, &cfg) else { break };
            let cmd = ai::decide(&g.m, who, &cfg);
            if let Err(v) = driver::submit(&mut g.m, &mut g.dice, &cmd, &mut g.ev) {
                panic!("seed {seed}: the AI's {cmd:?} was refused: {} {}", v.rule, v.reason);
            }
        }
        if g.m.clock.phase == Phase::Over {
            ends += 1;
        }
    }
    assert!(ends >= 36, "{ends} of 40 AI duels ended");
}
