//! Property tests: random command sequences played through the headless app (the same Bevy
//! pipeline the game and `doo run` use), checked against invariants of RULES.md after every
//! command, using the snapshot (`HeadlessMatch::snapshot`) and the JSON event lines.
//!
//! Each test plays its own random cases (`Case`: profile, seed, starting AP, abstract ops) and
//! checks one family of rules over the recorded `Trace`.

use crate::common::*;
use crate::harness::{self, PROFILES, Setup, Trace, Tracker, approach, config, dirs, events, path_from, s, u};

use doo::game::components::{ActionPoints, CharacterId, FreeSteps, GridPos, mirror_differences};
use doo::headless::HeadlessMatch;
use doo_rules::data::RuleData;
use doo_rules::level::build_match;
use doo_rules::rules::Dice;
use doo_rules::rules::command::Command;
use doo_rules::rules::grid::Pos;
use doo_rules::rules::profile::OptionOverrides;
use doo_rules::rules::state::Match;
use doo_rules::script::{StartState, apply_start};
use proptest::prelude::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

const ACTIONS: [&str; 7] = ["attack", "panic_attack", "all_out_attack", "snapshot", "flop", "use_item", "recover"];
const REFLEXES: [&str; 2] = ["parry", "counterattack"];
const IDS: [&str; 4] = ["dara", "lunk", "orc", "goblin"];

// ---------------------------------------------------------------------------------------------
// Random cases

/// An abstract command, made concrete against the snapshot at the moment it is played.
#[derive(Clone, Debug)]
enum Op {
    FreeSteps(Vec<usize>),
    Step(Vec<usize>),
    Run(Vec<usize>),
    Attack {
        kind: usize,
        target: usize,
    },
    Drop,
    Rise,
    Pass,
    End,
    Reflex(usize),
    Decline,
    /// Step (or Run) up to `n` spaces straight toward the nearest living enemy, stopping next to
    /// him: random directions alone rarely bring fighters into reach on a 7x5 room.
    Approach {
        run: bool,
        n: usize,
    },
    /// A command from a character whose opportunity is not open.
    WrongActor {
        who: usize,
        kind: usize,
        target: usize,
    },
}

#[derive(Clone, Debug)]
struct Case {
    profile: usize,
    seed: u64,
    ap: [u32; 4],
    ops: Vec<Op>,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => dirs(3).prop_map(Op::FreeSteps),
        3 => dirs(4).prop_map(Op::Step),
        2 => dirs(7).prop_map(Op::Run),
        7 => (0..ACTIONS.len(), 0..IDS.len()).prop_map(|(kind, target)| Op::Attack { kind, target }),
        4 => (any::<bool>(), 1..7usize).prop_map(|(run, n)| Op::Approach { run, n }),
        1 => Just(Op::Drop),
        1 => Just(Op::Rise),
        2 => Just(Op::Pass),
        3 => Just(Op::End),
        3 => (0..REFLEXES.len()).prop_map(Op::Reflex),
        1 => Just(Op::Decline),
        1 => (0..3usize, 0..5usize, 0..IDS.len()).prop_map(|(who, kind, target)| Op::WrongActor { who, kind, target }),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    (0..PROFILES.len(), any::<u64>(), prop::array::uniform4(0u32..7), prop::collection::vec(op(), 10..40)).prop_map(|(profile, seed, ap, ops)| Case {
        profile,
        seed,
        ap,
        ops,
    })
}

// ---------------------------------------------------------------------------------------------
// Playing a case

/// Like `common::mid`, with a seeded die.
fn mid_seeded(profile: &str, start: &str, seed: u64) -> (Match, HeadlessMatch) {
    let data = RuleData::builtin();
    let chars = vec![dara(0, 0), lunk(0, 2), orc(6, 0), goblin(6, 2)];
    let mut m = build_match(&data, &room(7, 5), &chars, Some(profile), &OptionOverrides::default()).expect("match");
    let s: StartState = doo_rules::data::ron_options().from_str(start).expect("start");
    apply_start(&mut m, &s).expect("start applies");
    let built = m.clone();
    (built, HeadlessMatch::new(m, Dice::seeded(seed), true))
}

fn concrete(m: &Match, op: &Op) -> Command {
    let holder = m.clock.current.unwrap_or(0);
    let defender = m.pending.as_ref().filter(|p| p.window.is_some()).map(|p| p.defender);
    let id = |i: usize| m.fighters[i].id.clone();
    let a = id(holder);
    let pos = m.fighters[holder].pos;
    let act = |actor: String, kind: usize, target: usize| {
        let target = (kind < 4).then(|| IDS[target]);
        Command::action(&actor, ACTIONS[kind], target)
    };
    match op {
        Op::FreeSteps(ds) => Command::FreeSteps { actor: a, path: path_from(pos, ds) },
        Op::Step(ds) => Command::step(&a, "step", path_from(pos, ds)),
        Op::Run(ds) => Command::step(&a, "run", path_from(pos, ds)),
        Op::Attack { kind, target } => act(a, *kind, *target),
        Op::Approach { run, n } => {
            let enemy = (0..m.fighters.len()).filter(|&i| m.enemies(holder, i) && !m.is_dead(i)).min_by_key(|&i| m.fighters[i].pos.distance(pos));
            Command::step(&a, if *run { "run" } else { "step" }, approach(pos, enemy.map(|e| m.fighters[e].pos), *n))
        }
        Op::Drop => Command::step(&a, "drop", vec![]),
        Op::Rise => Command::step(&a, "rise", vec![]),
        Op::Pass => Command::Pass { actor: a },
        Op::End => Command::End { actor: a },
        Op::Reflex(k) => Command::Reflex { actor: id(defender.unwrap_or(holder)), reflex: REFLEXES[*k].into() },
        Op::Decline => Command::Decline { actor: id(defender.unwrap_or(holder)) },
        Op::WrongActor { who, kind, target } => {
            let others: Vec<usize> = (0..m.fighters.len()).filter(|&i| i != holder).collect();
            let w = others[*who % others.len()];
            let wpos = m.fighters[w].pos;
            match kind {
                0 => Command::Pass { actor: id(w) },
                1 => Command::End { actor: id(w) },
                2 => Command::step(&id(w), "step", path_from(wpos, &[4])),
                3 => act(id(w), 0, *target),
                _ => Command::FreeSteps { actor: id(w), path: path_from(wpos, &[6]) },
            }
        }
    }
}

/// The match of a case, ready to play.
fn setup(c: &Case) -> Setup {
    let profile = PROFILES[c.profile];
    let chars: Vec<String> = IDS.iter().zip(c.ap).map(|(id, ap)| format!("\"{id}\": (ap: {ap})")).collect();
    let start = format!("(characters: {{{}}})", chars.join(", "));
    let (built, hm) = mid_seeded(profile, &start, c.seed);
    Setup { profile, start, seed: c.seed, built, hm }
}

fn play(c: &Case) -> Trace {
    harness::play(setup(c), &c.ops, concrete, |_, _| {})
}

/// A reaction's payment: the first thing the same actor declares after this ap_spent (before
/// anyone's next payment) is a reflex or a response (R-AP-5).
fn is_reaction_payment(evs: &[&Value], k: usize) -> bool {
    let actor = &evs[k]["actor"];
    for e in &evs[k + 1..] {
        match e["event"].as_str().unwrap_or_default() {
            "ap_spent" => return false,
            "reflex_declared" | "response_declared" if &e["actor"] == actor => return true,
            "action_taken" | "moved" if &e["actor"] == actor => return false,
            _ => {}
        }
    }
    false
}

// ---------------------------------------------------------------------------------------------
// The checks (each returns the first violation, with a reproduction)

/// R-AP-1: every payment is covered by the AP in hand, and the event stream accounts for every AP.
fn check_ap_never_overspent(t: &Trace) -> Result<usize, String> {
    let mut tr = Tracker::new(&t.built);
    let mut payments = 0;
    for (b, lines) in t.batches().into_iter().enumerate() {
        for e in events(lines) {
            if e["event"] == "ap_spent" {
                payments += 1;
                let actor = s(e, "actor");
                let before = tr.ap[&actor];
                let (amount, ap) = (u(e, "amount"), u(e, "ap"));
                if amount > before || before != amount + ap {
                    return Err(format!("{actor} paid {amount} AP with {before} in hand (left {ap}): {e}\n{}", t.step_label(b)));
                }
            }
            tr.update(e);
        }
        let (m, over) = if b == 0 { (&t.init, t.init_over) } else { (&t.steps[b - 1].after, t.steps[b - 1].over) };
        tr.resync_dead(m);
        if !over {
            for f in &m.fighters {
                if tr.ap[&f.id] != f.ap.current {
                    return Err(format!("{} has {} AP but the events account for {}\n{}", f.id, f.ap.current, tr.ap[&f.id], t.step_label(b)));
                }
            }
        }
    }
    Ok(payments)
}

/// R-AP-3 (R-AP-5, R-ONLY-6, R-COMBO-4): AP paid by the holder within one opportunity.
fn check_opportunity_cap(t: &Trace) -> Result<usize, String> {
    let legacy = t.profile.starts_with("LEGACY-2016");
    struct Opp {
        actor: String,
        spent: u32,
        only: bool,
        moved: bool,
        charge: bool,
    }
    let mut open: Option<Opp> =
        t.built.clock.current.map(|i| Opp { actor: t.built.fighters[i].id.clone(), spent: 0, only: false, moved: false, charge: false });
    let mut counted = 0;
    for (b, lines) in t.batches().into_iter().enumerate() {
        let evs = events(lines);
        for (k, e) in evs.iter().enumerate() {
            let actor = s(e, "actor");
            match e["event"].as_str().unwrap_or_default() {
                "opportunity" => open = Some(Opp { actor, spent: 0, only: false, moved: false, charge: false }),
                "opportunity_ended" => {
                    if open.as_ref().is_some_and(|o| o.actor == actor) {
                        open = None;
                    }
                }
                "phase" => open = None,
                "only_mode" => {
                    if let Some(o) = open.as_mut().filter(|o| o.actor == actor) {
                        o.only = true;
                    }
                }
                "ap_spent" => {
                    let Some(o) = open.as_mut().filter(|o| o.actor == actor) else { continue };
                    if is_reaction_payment(&evs, k) {
                        continue;
                    }
                    let what = s(e, "for_what");
                    if what == "all_out_attack" && o.moved {
                        o.charge = true;
                    }
                    if what == "step" || what == "run" {
                        o.moved = true;
                    }
                    o.spent += u(e, "amount");
                    counted += 1;
                    let cap = if legacy && o.charge { 6 } else { 3 };
                    if !o.only && o.spent > cap {
                        return Err(format!("{actor} spent {} AP in one opportunity (cap {cap}): {e}\n{}", o.spent, t.step_label(b)));
                    }
                }
                _ => {}
            }
        }
    }
    Ok(counted)
}

/// R-FS-3 (R-FS-1): free steps once per turn, in the holder's own opportunity, within the allowance.
fn check_free_steps_once(t: &Trace) -> Result<usize, String> {
    let mut tr = Tracker::new(&t.built);
    let mut used: BTreeSet<String> = BTreeSet::new();
    let mut moves: BTreeSet<String> = BTreeSet::new();
    let mut seen = 0;
    for (b, lines) in t.batches().into_iter().enumerate() {
        for e in events(lines) {
            let actor = s(e, "actor");
            match e["event"].as_str().unwrap_or_default() {
                "phase" if e["phase"] == "action" => {
                    used.clear();
                    moves.clear();
                }
                "free_steps_used" => {
                    seen += 1;
                    let allowance = t.built.fighters[t.built.index(&actor).unwrap()].free_steps.allowance;
                    if !used.insert(actor.clone()) {
                        return Err(format!("{actor} used free steps twice in one turn: {e}\n{}", t.step_label(b)));
                    }
                    if tr.holder.as_deref() != Some(actor.as_str()) {
                        return Err(format!("{actor} used free steps outside his opportunity (holder {:?}): {e}\n{}", tr.holder, t.step_label(b)));
                    }
                    if u(e, "spaces") == 0 || u(e, "spaces") > allowance {
                        return Err(format!("{actor} took {} free steps with an allowance of {allowance}\n{}", u(e, "spaces"), t.step_label(b)));
                    }
                }
                "moved" if e["movement"] == "free_steps" => {
                    if !moves.insert(actor.clone()) {
                        return Err(format!("{actor} moved by free steps twice in one turn: {e}\n{}", t.step_label(b)));
                    }
                }
                _ => {}
            }
            tr.update(e);
        }
    }
    Ok(seen)
}

/// G-02: one figure per space among the living.
fn check_one_figure_per_space(t: &Trace) -> Result<usize, String> {
    let states = std::iter::once(&t.init).chain(t.steps.iter().map(|s| &s.after));
    for (b, m) in states.enumerate() {
        let mut seen = BTreeMap::new();
        for (i, f) in m.fighters.iter().enumerate() {
            if m.is_dead(i) {
                continue;
            }
            if let Some(other) = seen.insert(f.pos, f.id.clone()) {
                return Err(format!("{} and {other} share {}\n{}", f.id, f.pos, t.step_label(b)));
            }
        }
    }
    Ok(t.steps.len())
}

/// R-ONLY-6: after an Only action its taker pays, moves, acts and reacts no more this turn.
fn check_nothing_after_only(t: &Trace) -> Result<usize, String> {
    let mut only: BTreeSet<String> = BTreeSet::new();
    let mut taken = 0;
    for (b, lines) in t.batches().into_iter().enumerate() {
        // The Only declaration itself: its payment and its one action/movement, same command.
        let mut grace: BTreeMap<String, (bool, bool)> = BTreeMap::new();
        for e in events(lines) {
            let actor = s(e, "actor");
            let kind = e["event"].as_str().unwrap_or_default();
            match kind {
                "phase" if e["phase"].as_str().unwrap_or_default().contains("reset") => only.clear(),
                "only_mode" => {
                    taken += 1;
                    if !only.insert(actor.clone()) {
                        return Err(format!("{actor} took a second Only action in one turn: {e}\n{}", t.step_label(b)));
                    }
                    grace.insert(actor, (false, false));
                }
                "ap_spent" | "moved" | "action_taken" | "reflex_declared" | "response_declared" if only.contains(&actor) => {
                    if kind == "moved" && e["movement"] == "guided_step" {
                        continue;
                    }
                    let g = grace.get_mut(&actor);
                    let excused = match (kind, g) {
                        ("ap_spent", Some(g)) if !g.0 => {
                            g.0 = true;
                            true
                        }
                        ("moved" | "action_taken", Some(g)) if g.0 && !g.1 => {
                            g.1 = true;
                            true
                        }
                        _ => false,
                    };
                    if !excused {
                        return Err(format!("{actor} did something after an Only action: {e}\n{}", t.step_label(b)));
                    }
                }
                _ => {}
            }
        }
    }
    Ok(taken)
}

/// R-TURN-15 (R-TURN-14, G-13): the phase ends exactly when everyone with AP passed this round.
fn check_phase_end(t: &Trace) -> Result<usize, String> {
    let mut tr = Tracker::new(&t.built);
    // This round: who ended an opportunity, and whether it was a pass.
    let mut round: BTreeMap<String, bool> = BTreeMap::new();
    let mut checked = 0;
    for (b, lines) in t.batches().into_iter().enumerate() {
        for e in events(lines) {
            let actor = s(e, "actor");
            match e["event"].as_str().unwrap_or_default() {
                "opportunity_ended" => {
                    round.insert(actor.clone(), e["passed"].as_bool().unwrap());
                }
                "round" => {
                    if u(e, "round") > 1 {
                        checked += 1;
                        if !round.values().any(|passed| !passed) {
                            return Err(format!("round {} began although nobody acted in the last one ({round:?}): {e}\n{}", u(e, "round"), t.step_label(b)));
                        }
                        let goes_on = tr.ap.iter().any(|(id, &ap)| ap > 0 && tr.able(id) && round.get(id) != Some(&true));
                        if !goes_on {
                            return Err(format!(
                                "round {} began although everyone with AP passed or is at 0 (AP {:?}, round {round:?})\n{}",
                                u(e, "round"),
                                tr.ap,
                                t.step_label(b)
                            ));
                        }
                    }
                    round.clear();
                }
                "phase_ended" => {
                    checked += 1;
                    let lost: BTreeMap<String, u32> =
                        e["lost_ap"].as_array().unwrap().iter().map(|p| (p[0].as_str().unwrap().to_string(), p[1].as_u64().unwrap() as u32)).collect();
                    let with_ap: BTreeMap<String, u32> = tr.ap.iter().filter(|&(_, &ap)| ap > 0).map(|(k, &v)| (k.clone(), v)).collect();
                    if lost != with_ap {
                        return Err(format!("phase_ended lists lost AP {lost:?}, the events say {with_ap:?}\n{}", t.step_label(b)));
                    }
                    for id in lost.keys() {
                        if tr.able(id) && round.get(id) != Some(&true) {
                            return Err(format!(
                                "the phase ended while {id} still had {} AP and did not pass this round ({round:?}): {e}\n{}",
                                lost[id],
                                t.step_label(b)
                            ));
                        }
                    }
                    round.clear();
                }
                _ => {}
            }
            tr.update(e);
        }
        let m = if b == 0 { &t.init } else { &t.steps[b - 1].after };
        tr.resync_dead(m);
    }
    Ok(checked)
}

/// R-AP-1: a refused declaration changes nothing (unless an implicit close happened first).
fn check_rejected_changes_nothing(t: &Trace) -> Result<usize, String> {
    let key = |m: &Match| format!("{:?}", (&m.fighters, &m.clock, &m.pending));
    let mut checked = 0;
    for (k, st) in t.steps.iter().enumerate() {
        if st.verdict["result"] != "rejected" {
            continue;
        }
        let caused = st.lines.iter().any(|l| l["type"] == "event" && l["index"].as_u64() == Some(st.index));
        if caused {
            continue;
        }
        checked += 1;
        if key(&st.before) != key(&st.after) {
            return Err(format!("refused {} ({}) changed the match\n{}", st.verdict["rule"], st.verdict["reason"], t.repro(k)));
        }
    }
    Ok(checked)
}

// ---------------------------------------------------------------------------------------------
// The properties

fn run(c: &Case, check: fn(&Trace) -> Result<usize, String>) -> Result<(), TestCaseError> {
    harness::run(c, play, check)
}

proptest! {
    #![proptest_config(config())]

    #[test] // R-AP-1: no payment exceeds the AP in hand; AP in the match always match the events
    fn ap_are_never_overspent(c in case()) {
        run(&c, check_ap_never_overspent)?;
    }

    #[test] // R-AP-3, R-AP-5, R-ONLY-6, R-COMBO-4: at most 3 AP per opportunity (legacy charge 6, Only mode exempt)
    fn at_most_three_ap_per_opportunity(c in case()) {
        run(&c, check_opportunity_cap)?;
    }

    #[test] // R-FS-3, R-FS-1: free steps once per turn, all in one opportunity of their owner
    fn free_steps_once_per_turn(c in case()) {
        run(&c, check_free_steps_once)?;
    }

    #[test] // G-02, R-FS-12: one figure per space after every command
    fn one_figure_per_space(c in case()) {
        run(&c, check_one_figure_per_space)?;
    }

    #[test] // R-ONLY-6, R-ONLY-8: nothing after an Only action until the next reset
    fn nothing_after_an_only_action(c in case()) {
        run(&c, check_nothing_after_only)?;
    }

    #[test] // R-TURN-15, R-TURN-14, G-13: the phase ends exactly when everyone with AP passed in the round
    fn phase_ends_exactly_per_r_turn_15(c in case()) {
        run(&c, check_phase_end)?;
    }

    #[test] // R-AP-1: a refused declaration changes nothing
    fn rejected_commands_change_nothing(c in case()) {
        run(&c, check_rejected_changes_nothing)?;
    }
}

// ---------------------------------------------------------------------------------------------
// The ECS mirrors: every figure entity's components equal the match after every command

/// Plays `c` and reads `mirror_differences` after the start and after every command; returns
/// how many states were compared, or the first difference with a reproduction.
fn check_mirrors(c: &Case) -> Result<usize, String> {
    let mut compared = 0;
    let mut failure = None;
    harness::play(setup(c), &c.ops, concrete, |hm, t| {
        if failure.is_some() {
            return;
        }
        compared += 1;
        let diffs = mirror_differences(hm.app.world_mut());
        if !diffs.is_empty() {
            failure = Some(format!("figure entities out of sync with MatchState:\n  {}\n{}", diffs.join("\n  "), t.step_label(t.steps.len())));
        }
    });
    failure.map_or(Ok(compared), Err)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..config() })]

    /// Each case is played under all five profiles.
    #[test] // R-AP-1: what each command spends and changes (AP, free steps, position, posture, adjustments, conditions, vitals) is on the figure entities too
    fn mirrors_equal_the_match_after_every_command(c in case()) {
        for profile in 0..PROFILES.len() {
            let c = Case { profile, ..c.clone() };
            check_mirrors(&c).map_err(TestCaseError::fail)?;
        }
    }
}

/// The entity of character `id`: its position, AP and free steps mirrors.
fn mirrored(hm: &mut HeadlessMatch, id: &str) -> (Pos, doo_rules::rules::fighter::ActionPoints, doo_rules::rules::fighter::FreeSteps) {
    let world = hm.app.world_mut();
    let mut q = world.query::<(&CharacterId, &GridPos, &ActionPoints, &FreeSteps)>();
    let found: Vec<_> = q.iter(world).filter(|(c, ..)| c.id == id).map(|(_, p, a, f)| (p.0, a.0, f.0)).collect();
    assert_eq!(found.len(), 1, "one entity for {id}");
    found[0]
}

/// The sync after Apply, command by command: free steps, then a 2-space Step, then a refused Drop.
#[test] // R-FS-3, R-FS-4, R-MOVE-2, R-AP-1, R-MOVE-4
fn mirrors_follow_a_step_and_its_payment() {
    let mut hm = mid(None, "()", room(10, 5), vec![lunk(1, 2), orc(9, 2)], "(characters: {\"lunk\": (ap: 3), \"orc\": (ap: 1)})", &[]);
    assert_eq!(mirror_differences(hm.app.world_mut()), Vec::<String>::new(), "in sync at the start");
    let (pos, ap, fs) = mirrored(&mut hm, "lunk");
    assert_eq!((pos, ap.current, fs.available), (Pos::new(1, 2), 3, true));
    // R-FS-3, R-FS-4: free steps move him for 0 AP and are gone for the turn.
    ok(&mut hm, r#"free_steps(actor: "lunk", path: [(2, 2)])"#);
    let (pos, ap, fs) = mirrored(&mut hm, "lunk");
    assert_eq!((pos, ap.current, fs.available), (Pos::new(2, 2), 3, false));
    // R-MOVE-2, R-AP-1: a 2-space Step costs 2 AP; the entity shows the new space and 1 AP.
    ok(&mut hm, r#"move(actor: "lunk", movement: "step", path: [(3, 2), (4, 2)])"#);
    let m = hm.snapshot();
    let (pos, ap, _) = mirrored(&mut hm, "lunk");
    assert_eq!(pos, Pos::new(4, 2));
    assert_eq!(pos, f(&m, "lunk").pos);
    assert_eq!(ap.current, 1);
    assert_eq!(ap, f(&m, "lunk").ap, "the AP mirror is the match's AP");
    // R-MOVE-4: a second movement (Drop) in the opportunity is refused; R-AP-1: nothing changes.
    refused(&mut hm, r#"move(actor: "lunk", movement: "drop", path: [])"#, "R-MOVE-4");
    assert_eq!(mirrored(&mut hm, "lunk").0, Pos::new(4, 2));
    assert_eq!(mirror_differences(hm.app.world_mut()), Vec::<String>::new());
}

/// `mirror_differences` sees a mirror that disagrees with the match (so the property can fail).
#[test]
fn mirror_differences_reports_a_stale_mirror() {
    let mut hm = mid(None, "()", room(10, 5), vec![lunk(1, 2), orc(9, 2)], "(characters: {\"lunk\": (ap: 3), \"orc\": (ap: 1)})", &[]);
    let world = hm.app.world_mut();
    let mut q = world.query::<(&CharacterId, &mut GridPos, &mut ActionPoints)>();
    for (c, mut pos, mut ap) in q.iter_mut(world) {
        if c.id == "lunk" {
            pos.0 = Pos::new(5, 2);
            ap.0.current = 0;
        }
    }
    let diffs = mirror_differences(hm.app.world_mut());
    assert_eq!(diffs.len(), 1, "{diffs:?}");
    assert!(diffs[0].starts_with("lunk:"), "{diffs:?}");
}

/// The checks really see their events: over a fixed batch of cases, each finds something to count.
#[test] // R-AP-1, R-AP-3, R-FS-3, R-ONLY-6, R-TURN-15 (coverage of the properties above)
fn properties_are_not_vacuous() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]));
    let mut totals = [0usize; 6];
    let (mut submitted, mut accepted, mut rounds, mut phases, mut charges) = (0, 0, 0, 0, 0);
    for _ in 0..24 {
        let c = case().new_tree(&mut runner).unwrap().current();
        let t = play(&c);
        submitted += t.steps.len();
        accepted += t.steps.iter().filter(|s| s.verdict["result"] == "ok").count();
        for st in &t.steps {
            for l in &st.lines {
                if l["event"] == "round" {
                    rounds += 1;
                }
                if l["event"] == "phase_ended" {
                    phases += 1;
                }
                if l["event"] == "ap_spent" && l["for_what"] == "all_out_attack" {
                    charges += 1;
                }
            }
        }
        let r =
            [check_ap_never_overspent, check_opportunity_cap, check_free_steps_once, check_nothing_after_only, check_phase_end, check_rejected_changes_nothing]
                .map(|f| f(&t));
        for (k, x) in r.into_iter().enumerate() {
            totals[k] += x.unwrap_or(1);
        }
    }
    eprintln!("property counts {totals:?} accepted {accepted}/{submitted} rounds {rounds} phases {phases} charges {charges}");
    assert!(totals.iter().all(|&n| n > 0), "some property never saw its events: {totals:?}");
}

/// The legacy charge really reaches past 3 AP, and the cap check accepts it only there.
#[test] // R-AP-3, R-COMBO-4 (option allout_charge)
fn legacy_charge_is_the_only_way_past_three() {
    let ops = vec![Op::Approach { run: true, n: 5 }, Op::Attack { kind: 2, target: 2 }];
    for (profile, charged) in [(3, true), (4, true), (0, false)] {
        let t = play(&Case { profile, seed: 1, ap: [6, 0, 0, 0], ops: ops.clone() });
        let spent: u32 =
            t.steps.iter().flat_map(|s| events(&s.lines)).filter(|e| e["event"] == "ap_spent" && e["actor"] == "dara").map(|e| u(e, "amount")).sum();
        assert_eq!(spent, if charged { 6 } else { 3 }, "{}: run 5 then All-Out\n{}", t.profile, t.repro(1));
        assert!(check_opportunity_cap(&t).is_ok());
        if charged {
            // The same events read under a profile without the charge break the cap.
            let strict = Trace { profile: "DOO-2017", ..t };
            assert!(check_opportunity_cap(&strict).is_err(), "the cap check must see the 6 AP");
        }
    }
}
