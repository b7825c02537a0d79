//! Combat property tests: random fights played through the headless app (the same Bevy pipeline
//! the game and `doo run` use), checked against the injury, healing and condition rules of
//! RULES.md (§18 conditions, §19 injury, §20 healing, R-TURN-4 reset steps) after every command.
//!
//! Modelled on `properties.rs` (same `Case` → `Trace` scheme and the same harness, `harness.rs`),
//! but built for frequent combat: six characters start within a step or two of each other in a 5x4
//! room, some wounded, dying, bleeding, slowed, rooted or stunned, with an arcane caster (aud), a
//! divine healer (shaman), potions, First Aid and every attack, reflex and response of the
//! profile in the op mix.

use crate::common::*;
use crate::harness::{self, PROFILES, Setup, Trace, Tracker, approach, config, dirs, events, i, path_from, s};

use doo::headless::HeadlessMatch;
use doo_rules::data::RuleData;
use doo_rules::level::{CharacterDef, build_match};
use doo_rules::rules::Dice;
use doo_rules::rules::command::{Command, Guide};
use doo_rules::rules::profile::{ActionEffect, OptionOverrides, ReactionKind};
use doo_rules::rules::state::Match;
use doo_rules::script::{StartState, apply_start};
use proptest::prelude::*;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};

const IDS: [&str; 6] = ["dara", "lunk", "aud", "orc", "goblin", "shaman"];
const SPELLS: [&str; 3] = ["firebolt", "entangle", "healing_word"];
const OTHER_ACTIONS: [&str; 2] = ["flop", "recover"];

/// Extra starting conditions (id, duration class, removal CR), added through the start state.
const EXTRA_CONDITIONS: [(&str, &str, Option<i32>); 9] = [
    ("rooted", "temporary", None),
    ("slowed", "temporary", None),
    ("frightened", "temporary", None),
    ("dazed", "temporary", None),
    ("poisoned", "persistent", None),
    ("bleeding", "persistent", None),
    ("stunned", "persistent", Some(8)),
    ("blinded", "permanent", None),
    ("rooted", "permanent", None),
];

fn characters() -> Vec<CharacterDef> {
    vec![
        ch(
            r#"(id: "dara", name: Some("Dara"), side: "heroes", pos: (0, 0), stats: (brawn: 8, finesse: 8, savvy: 5, nerve: 7), skills: {"swords": master}, weapon: Some("broadsword"), conditions: ["bleeding"])"#,
        ),
        ch(
            r#"(id: "lunk", name: Some("Lunk"), side: "heroes", pos: (1, 1), stats: (brawn: 9, finesse: 7, savvy: 5, nerve: 6), skills: {"axes": journeyman}, weapon: Some("broad_axe"), items: ["potion_of_healing"])"#,
        ),
        ch(
            r#"(id: "aud", side: "heroes", pos: (0, 2), caster: arcane, spells: ["firebolt", "entangle"], stats: (brawn: 5, finesse: 6, savvy: 9, nerve: 8), items: ["potion_of_healing"])"#,
        ),
        ch(
            r#"(id: "orc", name: Some("Orc"), side: "monsters", pos: (2, 0), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6), skills: {"maces": apprentice}, weapon: Some("mace"), conditions: ["slowed"])"#,
        ),
        ch(
            r#"(id: "goblin", name: Some("Goblin"), side: "monsters", pos: (2, 1), size: small, stats: (brawn: 5, finesse: 7, savvy: 5, nerve: 4), skills: {"knives": apprentice}, weapon: Some("dagger"))"#,
        ),
        ch(
            r#"(id: "shaman", name: Some("Shaman"), side: "monsters", pos: (3, 1), caster: divine, spells: ["healing_word"], stats: (brawn: 6, finesse: 6, savvy: 6, nerve: 9), skills: {"knives": apprentice, "healing": journeyman}, weapon: Some("dagger"), items: ["potion_of_healing"])"#,
        ),
    ]
}

// ---------------------------------------------------------------------------------------------
// Random cases

/// An abstract command, made concrete against the snapshot at the moment it is played.
/// `None` targets are chosen sensibly (nearest enemy, most wounded ally in reach, …).
#[derive(Clone, Debug)]
enum Op {
    FreeSteps(Vec<usize>),
    Step(Vec<usize>),
    Run(Vec<usize>),
    /// Step (or Run) up to `n` spaces straight toward the nearest living enemy.
    Approach {
        run: bool,
        n: usize,
    },
    /// One of the profile's attack actions (`kind` modulo their number).
    Attack {
        kind: usize,
        target: Option<usize>,
    },
    Cast {
        spell: usize,
        target: Option<usize>,
    },
    UseItem,
    FirstAid {
        target: Option<usize>,
    },
    Guide {
        target: Option<usize>,
        how: usize,
    },
    Other(usize),
    Drop,
    Rise,
    Pass,
    End,
    /// One of the profile's reflexes, by the defender of the open window.
    Reflex(usize),
    /// One of the profile's responses, by the defender of the open window.
    Respond(usize),
    Decline,
    /// A command from a dead or incapacitated character (or, if none, from one not holding
    /// the opportunity).
    Ghost {
        who: usize,
        kind: usize,
        target: usize,
    },
}

#[derive(Clone, Debug)]
struct Case {
    profile: usize,
    seed: u64,
    ap: [u32; 6],
    /// Per character: 0 full HP, 1 wounded (`frac` of max), 2 dying (HP ≤ 0).
    hp: [(u8, u8); 6],
    /// Per character: an extra starting condition (index into EXTRA_CONDITIONS).
    extra: [Option<usize>; 6],
    ops: Vec<Op>,
}

fn target() -> impl Strategy<Value = Option<usize>> {
    prop::option::weighted(0.3, 0..IDS.len())
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        1 => dirs(3).prop_map(Op::FreeSteps),
        2 => dirs(4).prop_map(Op::Step),
        1 => dirs(6).prop_map(Op::Run),
        5 => (any::<bool>(), 1..5usize).prop_map(|(run, n)| Op::Approach { run, n }),
        10 => (0..8usize, target()).prop_map(|(kind, target)| Op::Attack { kind, target }),
        5 => (0..SPELLS.len(), target()).prop_map(|(spell, target)| Op::Cast { spell, target }),
        2 => Just(Op::UseItem),
        2 => target().prop_map(|target| Op::FirstAid { target }),
        1 => (target(), 0..4usize).prop_map(|(target, how)| Op::Guide { target, how }),
        1 => (0..OTHER_ACTIONS.len()).prop_map(Op::Other),
        1 => Just(Op::Drop),
        1 => Just(Op::Rise),
        2 => Just(Op::Pass),
        3 => Just(Op::End),
        5 => (0..4usize).prop_map(Op::Reflex),
        4 => (0..2usize).prop_map(Op::Respond),
        1 => Just(Op::Decline),
        2 => (0..6usize, 0..10usize, 0..IDS.len()).prop_map(|(who, kind, target)| Op::Ghost { who, kind, target }),
    ]
}

fn hp_choice() -> impl Strategy<Value = (u8, u8)> {
    (prop_oneof![3 => Just(0u8), 3 => Just(1u8), 1 => Just(2u8)], 0u8..100)
}

fn case() -> impl Strategy<Value = Case> {
    (
        0..PROFILES.len(),
        any::<u64>(),
        prop::array::uniform6(0u32..7),
        prop::array::uniform6(hp_choice()),
        prop::array::uniform6(prop::option::weighted(0.4, 0..EXTRA_CONDITIONS.len())),
        prop::collection::vec(op(), 15..50),
    )
        .prop_map(|(profile, seed, ap, hp, extra, ops)| Case { profile, seed, ap, hp, extra, ops })
}

// ---------------------------------------------------------------------------------------------
// Playing a case

/// The start state of a case (RON): AP, starting HP, extra conditions.
fn start_of(c: &Case, chars: &[CharacterDef], data: &RuleData) -> String {
    let mut parts = Vec::new();
    for (k, def) in chars.iter().enumerate() {
        let legacy = false;
        let (max_hp, _, _) = doo_rules::rules::Fighter::derived_max(&def.stats, legacy);
        let mut fields = vec![format!("ap: {}", c.ap[k])];
        // The level's own conditions, then the extras (a start list replaces the level's).
        let mut conds: Vec<(String, String, Option<i32>)> =
            def.conditions.iter().map(|c| (c.id().to_string(), format!("{:?}", data.conditions.get(c.id()).unwrap().duration).to_lowercase(), None)).collect();
        let mut set_conds = false;
        if let Some(x) = c.extra[k] {
            let (id, dur, cr) = EXTRA_CONDITIONS[x];
            conds.retain(|(i, _, _)| i != id);
            conds.push((id.into(), dur.into(), cr));
            set_conds = true;
        }
        let (kind, frac) = c.hp[k];
        match kind {
            1 => fields.push(format!("hp: {}", (max_hp * (1 + frac as i32) / 101).max(1))),
            2 => {
                // Dying (R-INJ-3): HP in 1-max..=0, prone, incapacitated and bleeding, no AP.
                let hp = -((max_hp - 1) * frac as i32 / 100);
                fields[0] = "ap: 0".into();
                fields.push(format!("hp: {hp}"));
                fields.push("posture: prone".into());
                for (id, dur) in [("incapacitated", "permanent"), ("bleeding", "persistent")] {
                    if !conds.iter().any(|(i, _, _)| i == id) {
                        conds.push((id.into(), dur.into(), None));
                    }
                }
                set_conds = true;
            }
            _ => {}
        }
        if set_conds {
            let list: Vec<String> = conds
                .iter()
                .map(|(id, dur, cr)| match cr {
                    Some(cr) => format!("(id: \"{id}\", duration: {dur}, removal_cr: {cr})"),
                    None => format!("(id: \"{id}\", duration: {dur})"),
                })
                .collect();
            fields.push(format!("conditions: [{}]", list.join(", ")));
        }
        parts.push(format!("\"{}\": ({})", IDS[k], fields.join(", ")));
    }
    format!("(characters: {{{}}})", parts.join(", "))
}

fn nearest_enemy(m: &Match, a: usize) -> Option<usize> {
    let pos = m.fighters[a].pos;
    (0..m.fighters.len()).filter(|&i| m.enemies(a, i) && !m.is_dead(i)).min_by_key(|&i| (m.fighters[i].hp <= 0, m.fighters[i].pos.distance(pos)))
}

/// The most wounded living ally (or self) within `reach`.
fn wounded_ally(m: &Match, a: usize, reach: u32) -> usize {
    let pos = m.fighters[a].pos;
    (0..m.fighters.len())
        .filter(|&i| !m.enemies(a, i) && !m.is_dead(i) && m.fighters[i].pos.distance(pos) <= reach)
        .min_by_key(|&i| (!m.fighters[i].has_condition("bleeding"), m.fighters[i].hp * 100 / m.fighters[i].max_hp.max(1)))
        .unwrap_or(a)
}

fn attack_ids(m: &Match) -> Vec<String> {
    m.rules.actions.iter().filter(|r| matches!(r.effect, ActionEffect::Attack { .. })).map(|r| r.id.clone()).collect()
}

fn reaction_ids(m: &Match, kind: ReactionKind) -> Vec<String> {
    m.rules.reactions.iter().filter(|r| r.kind == kind).map(|r| r.id.clone()).collect()
}

fn with_target(actor: &str, action: &str, target: Option<usize>) -> Command {
    Command::action(actor, action, target.map(|t| IDS[t]))
}

/// An action with one extra field set (through serde, so new optional fields need no change here).
fn action_with(actor: &str, action: &str, target: Option<usize>, field: &str, value: Value) -> Command {
    let mut v = serde_json::to_value(with_target(actor, action, target)).expect("command to json");
    v["action"][field] = value;
    serde_json::from_value(v).expect("command from json")
}

fn cast(actor: &str, spell: &str, target: usize) -> Command {
    action_with(actor, "cast_spell", Some(target), "spell", json!(spell))
}

fn concrete(m: &Match, op: &Op) -> Command {
    let holder = m.clock.current.unwrap_or(0);
    let defender = m.pending.as_ref().filter(|p| p.window.is_some()).map(|p| p.defender);
    let id = |i: usize| m.fighters[i].id.clone();
    let a = id(holder);
    let pos = m.fighters[holder].pos;
    let attacks = attack_ids(m);
    let reflexes = reaction_ids(m, ReactionKind::Reflex);
    let responses = reaction_ids(m, ReactionKind::Response);
    let pick = |list: &[String], k: usize| list.get(k % list.len().max(1)).cloned().unwrap_or_else(|| "parry".into());
    let spell_target = |who: usize, spell: usize, target: Option<usize>| {
        target.unwrap_or_else(|| if SPELLS[spell] == "healing_word" { wounded_ally(m, who, 1) } else { nearest_enemy(m, who).unwrap_or(who) })
    };
    match op {
        Op::FreeSteps(ds) => Command::FreeSteps { actor: a, path: path_from(pos, ds) },
        Op::Step(ds) => Command::step(&a, "step", path_from(pos, ds)),
        Op::Run(ds) => Command::step(&a, "run", path_from(pos, ds)),
        Op::Approach { run, n } => Command::step(&a, if *run { "run" } else { "step" }, approach(pos, nearest_enemy(m, holder).map(|e| m.fighters[e].pos), *n)),
        Op::Attack { kind, target } => with_target(&a, &pick(&attacks, *kind), target.or_else(|| nearest_enemy(m, holder))),
        Op::Cast { spell, target } => cast(&a, SPELLS[*spell], spell_target(holder, *spell, *target)),
        Op::UseItem => Command::action(&a, "use_item", None),
        Op::FirstAid { target } => with_target(&a, "first_aid", Some(target.unwrap_or_else(|| wounded_ally(m, holder, 1)))),
        Op::Guide { target, how } => {
            let t = target.or_else(|| {
                (0..m.fighters.len())
                    .filter(|&i| i != holder && !m.enemies(holder, i) && m.fighters[i].has_condition("stunned"))
                    .min_by_key(|&i| m.fighters[i].pos.distance(pos))
            });
            let instruction = match how {
                0 => Guide::Sit,
                1 => Guide::LieDown,
                k => {
                    let tp = t.map_or(pos, |t| m.fighters[t].pos);
                    Guide::Step(path_from(tp, &[if *k == 2 { 3 } else { 6 }])[0])
                }
            };
            action_with(&a, "guide_stunned", t, "instruction", serde_json::to_value(instruction).unwrap())
        }
        Op::Other(k) => Command::action(&a, OTHER_ACTIONS[*k], None),
        Op::Drop => Command::step(&a, "drop", vec![]),
        Op::Rise => Command::step(&a, "rise", vec![]),
        Op::Pass => Command::Pass { actor: a },
        Op::End => Command::End { actor: a },
        Op::Reflex(k) => Command::Reflex { actor: id(defender.unwrap_or(holder)), reflex: pick(&reflexes, *k) },
        Op::Respond(k) => Command::Respond { actor: id(defender.unwrap_or(holder)), response: pick(&responses, *k) },
        Op::Decline => Command::Decline { actor: id(defender.unwrap_or(holder)) },
        Op::Ghost { who, kind, target } => {
            let down: Vec<usize> = (0..m.fighters.len()).filter(|&i| m.fighters[i].hp <= 0).collect();
            let others: Vec<usize> = if down.is_empty() { (0..m.fighters.len()).filter(|&i| i != holder).collect() } else { down };
            let w = others[*who % others.len()];
            let wid = id(w);
            let wpos = m.fighters[w].pos;
            let t = Some(*target).filter(|&t| t != w).or_else(|| nearest_enemy(m, w));
            match kind {
                0 => Command::Pass { actor: wid },
                1 => Command::End { actor: wid },
                2 => Command::step(&wid, "step", path_from(wpos, &[4])),
                3 => with_target(&wid, &pick(&attacks, *target), t),
                4 => cast(&wid, SPELLS[*target % SPELLS.len()], t.unwrap_or(w)),
                5 => Command::action(&wid, "use_item", None),
                6 => with_target(&wid, "first_aid", Some(w)),
                7 => Command::Reflex { actor: wid, reflex: pick(&reflexes, *target) },
                8 => Command::Respond { actor: wid, response: pick(&responses, *target) },
                _ => Command::FreeSteps { actor: wid, path: path_from(wpos, &[6]) },
            }
        }
    }
}

/// The match of a case, ready to play.
fn setup(c: &Case) -> Setup {
    let profile = PROFILES[c.profile];
    let data = RuleData::builtin();
    let chars = characters();
    let start = start_of(c, &chars, &data);
    let mut m = build_match(&data, &room(5, 4), &chars, Some(profile), &OptionOverrides::default()).expect("match");
    let s: StartState = doo_rules::data::ron_options().from_str(&start).unwrap_or_else(|e| panic!("start {start}: {e}"));
    apply_start(&mut m, &s).expect("start applies");
    let built = m.clone();
    let hm = HeadlessMatch::new(m, Dice::seeded(c.seed), true);
    Setup { profile, start, seed: c.seed, built, hm }
}

fn play(c: &Case) -> Trace {
    harness::play(setup(c), &c.ops, concrete, |_, _| {})
}

/// Events naming their actor as the one doing something (R-INJ-8, R-TURN-11).
const ACTING: [&str; 6] = ["ap_spent", "moved", "action_taken", "reflex_declared", "response_declared", "opportunity"];

// ---------------------------------------------------------------------------------------------
// The checks (each returns how much it saw, or the first violation with a reproduction)

/// R-HEAL-9, G-23: HP never above max HP, in any snapshot or any hp_changed event.
fn check_hp_cap(t: &Trace) -> Result<usize, String> {
    let mut seen = 0;
    for (b, lines) in t.batches().into_iter().enumerate() {
        for e in events(lines) {
            if e["event"] == "hp_changed" {
                seen += 1;
                let actor = s(e, "actor");
                if i(e, "to") > t.max_hp(&actor) {
                    return Err(format!("{actor} healed above max HP {}: {e}\n{}", t.max_hp(&actor), t.step_label(b)));
                }
            }
        }
        for f in &t.after(b).fighters {
            if f.hp > f.max_hp {
                return Err(format!("{} has {} HP of {}\n{}", f.id, f.hp, f.max_hp, t.step_label(b)));
            }
        }
    }
    Ok(seen)
}

/// R-INJ-8, R-INJ-1: the dead never act, and their commands are refused.
fn check_dead_never_act(t: &Trace) -> Result<usize, String> {
    let mut tr = Tracker::new(&t.built);
    let mut seen = 0;
    for (b, lines) in t.batches().into_iter().enumerate() {
        if b > 0 {
            let st = &t.steps[b - 1];
            let actor = st.cmd.actor();
            if tr.dead(actor) {
                seen += 1;
                if st.verdict["result"] != "rejected" {
                    return Err(format!("the dead {actor}'s command was accepted: {}\n{}", st.verdict, t.step_label(b)));
                }
            }
        }
        for e in events(lines) {
            let actor = s(e, "actor");
            let kind = e["event"].as_str().unwrap_or_default();
            if ACTING.contains(&kind) && tr.dead(&actor) {
                return Err(format!("the dead {actor} acts: {e}\n{}", t.step_label(b)));
            }
            if kind == "died" {
                seen += 1;
            }
            tr.update(e);
        }
    }
    Ok(seen)
}

/// R-INJ-3, G-13, R-TURN-11: the incapacitated (HP ≤ 0) get no opportunity, spend no AP, and
/// their commands are refused.
fn check_incapacitated_idle(t: &Trace) -> Result<usize, String> {
    let mut tr = Tracker::new(&t.built);
    let mut seen = 0;
    for (b, lines) in t.batches().into_iter().enumerate() {
        if b > 0 {
            let st = &t.steps[b - 1];
            let actor = st.cmd.actor();
            if tr.hp[actor] <= 0 {
                seen += 1;
                if st.verdict["result"] != "rejected" {
                    return Err(format!("{actor} at {} HP had a command accepted: {}\n{}", tr.hp[actor], st.verdict, t.step_label(b)));
                }
            }
        }
        for e in events(lines) {
            let actor = s(e, "actor");
            match e["event"].as_str().unwrap_or_default() {
                "opportunity" | "ap_spent" if tr.hp[&actor] <= 0 => {
                    return Err(format!("{actor} at {} HP (incapacitated) acts: {e}\n{}", tr.hp[&actor], t.step_label(b)));
                }
                "hp_changed" if i(e, "to") <= 0 && i(e, "from") > 0 => seen += 1,
                _ => {}
            }
            tr.update(e);
        }
    }
    Ok(seen)
}

/// R-COND-1, R-TURN-4 (R-COND-3, R-INJ-7, R-HEAL-1): conditions go exactly when their class
/// says; temporary conditions and all temporary adjustments never outlive a reset.
/// Returns (removed at step 2, removed at step 3).
fn check_condition_classes_counts(t: &Trace) -> Result<(usize, usize), String> {
    let mut tr = Tracker::new(&t.built);
    let (mut at2, mut at3) = (0, 0);
    // Temporary adjustments per character, as the events tell them.
    let mut adjustments: BTreeMap<String, Vec<String>> = t
        .built
        .fighters
        .iter()
        .map(|f| (f.id.clone(), f.adjustments.iter().map(|a| format!("{}/{:?}/{}", a.source, a.target, a.value).to_lowercase()).collect()))
        .collect();
    for (b, lines) in t.batches().into_iter().enumerate() {
        // Temporary conditions present when step 2 began, not yet seen removed.
        let mut due: BTreeSet<(String, String)> = BTreeSet::new();
        let mut reset_done = false;
        for e in events(lines) {
            let actor = s(e, "actor");
            match e["event"].as_str().unwrap_or_default() {
                "reset_step" => {
                    let step = e["step"].as_u64().unwrap();
                    if step == 2 {
                        reset_done = true;
                        due = tr.conds.iter().flat_map(|(id, cs)| cs.iter().filter(|c| c.1 == "temporary").map(move |c| (id.clone(), c.0.clone()))).collect();
                    }
                    if step == 3 && !due.is_empty() {
                        return Err(format!("temporary conditions {due:?} survived reset step 2\n{}", t.step_label(b)));
                    }
                    if step == 3 {
                        if let Some((id, left)) = adjustments.iter().find(|(_, v)| !v.is_empty()) {
                            return Err(format!("{id}'s temporary adjustments {left:?} were not removed at reset step 2\n{}", t.step_label(b)));
                        }
                    }
                }
                "adjustment_added" => adjustments.entry(actor.clone()).or_default().push(adjustment_key(e)),
                "adjustment_removed" => {
                    let v = adjustments.entry(actor.clone()).or_default();
                    match v.iter().position(|k| *k == adjustment_key(e)) {
                        Some(k) => {
                            v.remove(k);
                        }
                        None => return Err(format!("{actor} lost an adjustment he did not have: {e}\n{}", t.step_label(b))),
                    }
                }
                "condition_removed" => {
                    let cond = s(e, "condition");
                    let reason = s(e, "reason");
                    let class = tr.conds[&actor].get(&cond).cloned().unwrap_or_else(|| "absent".into());
                    let ok = match (reason.as_str(), tr.step) {
                        ("temporary", Some(2)) => class == "temporary",
                        ("recovery check", Some(3)) => class == "persistent",
                        ("first aid" | "magical healing", None) => cond == "bleeding" && class != "permanent",
                        ("healed", None) => cond == "incapacitated" && class == "permanent",
                        _ => false,
                    };
                    if !ok {
                        return Err(format!("{actor}'s {class} condition {cond} removed by '{reason}' at reset step {:?}: {e}\n{}", tr.step, t.step_label(b)));
                    }
                    match reason.as_str() {
                        "temporary" => {
                            due.remove(&(actor.clone(), cond));
                            at2 += 1;
                        }
                        "recovery check" => at3 += 1,
                        _ => {}
                    }
                }
                _ => {}
            }
            tr.update(e);
        }
        // The snapshot shows the state right after the reset only when nothing was applied after
        // it: the command was refused, or its verdict came before the reset (a command arriving
        // while a reaction window is open first closes the window, which may end the phase and
        // run the reset; the command is then checked and applied in the new action phase).
        let verdict_at = lines.iter().position(|l| l["type"] == "command");
        let reset_at = lines.iter().position(|l| l["event"] == "reset_step" && l["step"] == 2);
        let nothing_after = match (verdict_at, reset_at) {
            (Some(v), Some(r)) => v < r || lines[v]["result"] == "rejected",
            _ => true,
        };
        if reset_done && nothing_after {
            let m = t.after(b);
            for f in &m.fighters {
                if let Some(c) = f.conditions.iter().find(|c| c.duration == doo_rules::rules::fighter::Duration::Temporary) {
                    return Err(format!("{} keeps the temporary condition {} after the reset\n{}", f.id, c.id, t.step_label(b)));
                }
                if !f.adjustments.is_empty() {
                    return Err(format!("{} keeps temporary adjustments {:?} after the reset\n{}", f.id, f.adjustments, t.step_label(b)));
                }
            }
        }
    }
    Ok((at2, at3))
}

fn adjustment_key(e: &Value) -> String {
    format!("{}/{}/{}", s(e, "source"), s(e, "target"), e["value"]).to_lowercase()
}

fn check_condition_classes(t: &Trace) -> Result<usize, String> {
    check_condition_classes_counts(t).map(|(a, b)| a + b)
}

/// R-COND-2, R-INJ-6 (R-TURN-4 step 1): per-turn HP loss only at reset step 1, and there exactly
/// the sum of the living character's per-turn effects (bleeding −1, poisoned −1).
fn check_per_turn_at_step_1(t: &Trace) -> Result<usize, String> {
    let adv = t.built.rules.options.conditions_adv;
    let book = &t.built.conditions;
    let mut tr = Tracker::new(&t.built);
    let mut seen = 0;
    // Expected (from, to) per character for the step 1 in progress.
    let mut expected: BTreeMap<String, (i32, i32)> = BTreeMap::new();
    for (b, lines) in t.batches().into_iter().enumerate() {
        for e in events(lines) {
            let actor = s(e, "actor");
            match e["event"].as_str().unwrap_or_default() {
                "reset_step" if e["step"] == 1 => {
                    expected.clear();
                    for (id, cs) in &tr.conds {
                        if tr.dead(id) {
                            continue;
                        }
                        let delta: i32 = cs
                            .keys()
                            .filter_map(|c| book.get(c))
                            .filter(|r| adv || r.set == doo_rules::rules::conditions::RuleSet::Core)
                            .map(|r| r.per_turn_hp)
                            .sum();
                        if delta != 0 {
                            expected.insert(id.clone(), (tr.hp[id], (tr.hp[id] + delta).min(tr.max[id])));
                        }
                    }
                }
                "reset_step" if e["step"] == 2 => {
                    if !expected.is_empty() {
                        return Err(format!("per-turn effects {expected:?} (from, to) were not applied at reset step 1\n{}", t.step_label(b)));
                    }
                }
                "hp_changed" if e["reason"] == "per-turn effects" => {
                    seen += 1;
                    if tr.step != Some(1) {
                        return Err(format!("per-turn HP change outside reset step 1 (step {:?}): {e}\n{}", tr.step, t.step_label(b)));
                    }
                    let got = (i(e, "from"), i(e, "to"));
                    if expected.remove(&actor) != Some(got) {
                        return Err(format!(
                            "{actor}'s per-turn HP change {got:?} is not what his conditions {:?} give: {e}\n{}",
                            tr.conds[&actor],
                            t.step_label(b)
                        ));
                    }
                }
                "hp_changed" if tr.step == Some(1) => {
                    return Err(format!("HP changed at reset step 1 other than by per-turn effects: {e}\n{}", t.step_label(b)));
                }
                _ => {}
            }
            tr.update(e);
        }
    }
    Ok(seen)
}

// ---------------------------------------------------------------------------------------------
// The properties

fn run(c: &Case, check: fn(&Trace) -> Result<usize, String>) -> Result<(), TestCaseError> {
    harness::run(c, play, check)
}

proptest! {
    #![proptest_config(config())]

    #[test] // R-HEAL-9, G-23: HP never above max HP (snapshots and every hp_changed)
    fn hp_never_above_maximum(c in case()) {
        run(&c, check_hp_cap)?;
    }

    #[test] // R-INJ-8, R-INJ-1: the dead never act (no payment, movement, action, reaction, opportunity) and their commands are refused

    fn dead_characters_never_act(c in case()) {
        run(&c, check_dead_never_act)?;
    }

    #[test] // R-INJ-3, G-13, R-TURN-11: the incapacitated (HP ≤ 0) get no opportunity and spend no AP
    fn incapacitated_characters_never_act(c in case()) {
        run(&c, check_incapacitated_idle)?;
    }

    #[test] // R-COND-1, R-TURN-4 (R-COND-3, R-INJ-7, R-HEAL-1): conditions go exactly at the reset step their class says
    fn conditions_end_at_their_reset_step(c in case()) {
        run(&c, check_condition_classes)?;
    }

    #[test] // R-COND-2, R-INJ-6, R-TURN-4: per-turn HP loss only at reset step 1, exactly as the conditions give
    fn per_turn_hp_loss_only_at_reset_step_1(c in case()) {
        run(&c, check_per_turn_at_step_1)?;
    }
}

/// The checks really see their events: over a fixed batch of cases they find HP changes,
/// removals at reset steps 2 and 3, incapacitations, deaths, casts, potions and first aid.
#[test] // R-HEAL-9, R-INJ-8, R-INJ-3, R-COND-1, R-COND-2 (coverage of the properties above)
fn properties_are_not_vacuous() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &[11; 32]));
    let mut n: BTreeMap<&str, usize> = BTreeMap::new();
    for _ in 0..24 {
        let c = case().new_tree(&mut runner).unwrap().current();
        let t = play(&c);
        *n.entry("commands").or_default() += t.steps.len();
        *n.entry("accepted").or_default() += t.steps.iter().filter(|s| s.verdict["result"] == "ok").count();
        for e in t.batches().into_iter().flat_map(events) {
            let key = match (e["event"].as_str().unwrap_or_default(), s(e, "reason").as_str()) {
                ("hp_changed", "per-turn effects") => "hp_changed per-turn",
                ("hp_changed", _) if i(e, "to") > i(e, "from") => "hp_changed healing",
                ("hp_changed", _) => "hp_changed damage",
                ("died", _) => "died",
                ("condition_removed", "temporary") => "removed at step 2",
                ("condition_removed", "recovery check") => "removed at step 3",
                ("condition_removed", "first aid") => "removed by first aid",
                ("condition_removed", "magical healing") => "removed by magical healing",
                ("condition_removed", "healed") => "incapacitated healed",
                ("item_used", _) => "item_used",
                ("pool_changed", "firebolt" | "entangle" | "healing_word") => "spell cast",
                ("reflex_declared", _) => "reflex_declared",
                ("response_declared", _) => "response_declared",
                ("reset_step", _) if e["step"] == 2 => "resets",
                ("adjustment_removed", _) => "adjustments removed",
                _ => continue,
            };
            *n.entry(key).or_default() += 1;
        }
        let checks: [(&str, fn(&Trace) -> Result<usize, String>); 5] = [
            ("check hp cap", check_hp_cap),
            ("check dead", check_dead_never_act),
            ("check incapacitated", check_incapacitated_idle),
            ("check conditions", check_condition_classes),
            ("check per-turn", check_per_turn_at_step_1),
        ];
        for (name, f) in checks {
            *n.entry(name).or_default() += f(&t).unwrap_or_else(|e| panic!("{name} failed on a fixed case: {e}"));
        }
        let incap = t.batches().into_iter().flat_map(events).filter(|e| e["event"] == "hp_changed" && i(e, "to") <= 0 && i(e, "from") > 0).count();
        *n.entry("incapacitations").or_default() += incap;
    }
    eprintln!("combat property counts: {n:#?}");
    for key in [
        "check hp cap",
        "check dead",
        "check incapacitated",
        "check conditions",
        "check per-turn",
        "hp_changed damage",
        "hp_changed healing",
        "hp_changed per-turn",
        "removed at step 2",
        "removed at step 3",
        "incapacitations",
        "died",
        "spell cast",
        "item_used",
    ] {
        assert!(n.get(key).copied().unwrap_or(0) > 0, "never saw {key}: {n:#?}");
    }
}

/// Each check fails on a trace that breaks its rule: real traces, one event or snapshot altered.
#[test] // R-HEAL-9, R-INJ-8, R-INJ-3, R-COND-1, R-COND-2 (the checks can fail)
fn checks_reject_tampered_traces() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let mut runner = TestRunner::new_with_rng(Config::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &[11; 32]));
    let traces: Vec<Trace> = (0..24).map(|_| play(&case().new_tree(&mut runner).unwrap().current())).collect();
    // Finds a trace and batch with an event matching `pick`, alters it, and runs `check`.
    fn tamper(traces: &[Trace], check: fn(&Trace) -> Result<usize, String>, pick: impl Fn(&Value) -> bool, alter: impl Fn(&mut Trace, usize, usize)) -> bool {
        for (k, t) in traces.iter().enumerate() {
            for (b, st) in t.steps.iter().enumerate() {
                if let Some(pos) = st.lines.iter().position(&pick) {
                    let mut copy = t.clone();
                    assert!(check(&copy).is_ok(), "trace {k} fails before tampering");
                    alter(&mut copy, b, pos);
                    return check(&copy).is_err();
                }
            }
        }
        panic!("no trace has the event to tamper with");
    }
    // 1. A heal past max HP.
    assert!(tamper(
        &traces,
        check_hp_cap,
        |l| l["event"] == "hp_changed",
        |t, b, p| {
            let l = &mut t.steps[b].lines[p];
            let max = t.built.fighters[t.built.index(l["actor"].as_str().unwrap()).unwrap()].max_hp;
            l["to"] = json!(max + 1);
        }
    ));
    // 2. A dead character moving after his death.
    assert!(tamper(
        &traces,
        check_dead_never_act,
        |l| l["event"] == "died",
        |t, b, p| {
            let who = t.steps[b].lines[p]["actor"].clone();
            t.steps[b].lines.push(json!({"type": "event", "event": "moved", "actor": who}));
        }
    ));
    // 3. An incapacitated character getting an opportunity.
    assert!(tamper(
        &traces,
        check_incapacitated_idle,
        |l| l["event"] == "hp_changed" && l["to"].as_i64().unwrap() <= 0 && l["from"].as_i64().unwrap() > 0,
        |t, b, p| {
            let who = t.steps[b].lines[p]["actor"].clone();
            t.steps[b].lines.push(json!({"type": "event", "event": "opportunity", "actor": who, "ap": 1}));
        }
    ));
    // 4a. A temporary condition removed at step 3 instead of step 2.
    assert!(tamper(
        &traces,
        check_condition_classes,
        |l| l["event"] == "condition_removed" && l["reason"] == "temporary",
        |t, b, p| {
            let e = t.steps[b].lines.remove(p);
            let s3 = t.steps[b].lines.iter().position(|l| l["event"] == "reset_step" && l["step"] == 3).unwrap();
            t.steps[b].lines.insert(s3 + 1, e);
        }
    ));
    // 4b. A persistent condition "recovered" at step 2.
    assert!(tamper(
        &traces,
        check_condition_classes,
        |l| l["event"] == "condition_removed" && l["reason"] == "recovery check",
        |t, b, p| {
            let e = t.steps[b].lines.remove(p);
            let s2 = t.steps[b].lines.iter().position(|l| l["event"] == "reset_step" && l["step"] == 2).unwrap();
            t.steps[b].lines.insert(s2 + 1, e);
        }
    ));
    // 4c. An adjustment left over after a reset.
    assert!(tamper(
        &traces,
        check_condition_classes,
        |l| l["event"] == "reset_step" && l["step"] == 6,
        |t, b, _| {
            let adj = doo_rules::rules::fighter::TempAdjustment {
                source: "run".into(),
                target: doo_rules::rules::fighter::AdjTarget::Defense,
                value: -2,
                scope: doo_rules::rules::profile::Scope::All,
            };
            t.steps[b].after.fighters[0].adjustments.push(adj);
        }
    ));
    // 4d. An adjustment that reset step 2 did not remove (by the events).
    assert!(tamper(
        &traces,
        check_condition_classes,
        |l| l["event"] == "adjustment_removed",
        |t, b, p| {
            t.steps[b].lines.remove(p);
        }
    ));
    // 5. Bleeding applied after reset step 2.
    assert!(tamper(
        &traces,
        check_per_turn_at_step_1,
        |l| l["event"] == "hp_changed" && l["reason"] == "per-turn effects",
        |t, b, p| {
            let e = t.steps[b].lines.remove(p);
            let s2 = t.steps[b].lines.iter().position(|l| l["event"] == "reset_step" && l["step"] == 2).unwrap();
            t.steps[b].lines.insert(s2 + 1, e);
        }
    ));
}

/// Minimal reproduction of the engine bug the dead-never-act property found: Guide Stunned Ally
/// (R-INJ-5) accepts a dead ally who still carries "stunned" (the dead skip reset step 3, so a
/// character stunned and then killed keeps it) and moves the body: a "moved" event for a dead
/// character (R-INJ-8: the dead are out of play). Found by `dead_characters_never_act` with
/// profile LEGACY-2016-EARLY seed 13730923725209905166 (goblin stunned by a blow, killed, then
/// guided by the shaman).
#[test] // R-INJ-8, R-INJ-5

fn dead_stunned_ally_cannot_be_guided() {
    let start = r#"(characters: {"shaman": (ap: 3), "goblin": (hp: -7, posture: prone, conditions: [(id: "stunned", duration: persistent, removal_cr: 8), (id: "incapacitated", duration: permanent), (id: "bleeding", duration: persistent)])})"#;
    let mut hm = mid(Some("DOO-2017"), "()", room(5, 4), characters(), start, &[]);
    assert!(hm.snapshot().is_dead(hm.snapshot().index("goblin").unwrap()), "the goblin starts dead (HP -7 of 7)");
    let n = hm.lines().len();
    let v = go(&mut hm, r#"action(actor: "shaman", action: "guide_stunned", target: Some("goblin"), instruction: Some(step((2, 2))))"#);
    let moved: Vec<&Value> = hm.lines()[n..].iter().filter(|l| l["event"] == "moved" && l["actor"] == "goblin").collect();
    assert!(moved.is_empty(), "the dead goblin was moved: {moved:?}");
    assert_eq!(v["result"], "rejected", "guiding a dead ally must be refused (R-INJ-8): {v}");
    assert_eq!(v["rule"], "R-INJ-8", "the refusal names the rule: {v}");
}
