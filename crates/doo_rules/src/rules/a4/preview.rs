//! What a player may do now under A4, worked out by the rules: the squares a figure can reach
//! (five-foot step, move, run) with who would get an attack of opportunity on the way, the
//! action bar's entries with their slots or the `A4-*` rule that forbids them, and the open
//! reaction window's choices. Every offer is a command `validate` accepted.

use super::super::command::{Command, MAX_PATH};
use super::super::equipment::Wielded;
use super::super::explore::reachable_doors_and_items;
use super::super::grid::Pos;
use super::super::offer::{Aim, Choice, Destination, Group, MoveKind, ReactionChoice, entry};
use super::super::profile::{Posture, ReactionKind};
use super::super::reach::cheapest_paths;
use super::super::state::Match;
use super::super::violation::Violation;
use super::book::Trigger;
use super::check::check;
use super::round;
use super::state::{A4, HELD, OPPORTUNITY, REACTIVE, RoundAct, Task};
use super::stats::{self, full_attack_row, odds, reactive_pool, threateners};
use std::collections::BTreeMap;

fn round(m: &Match, a: usize, act: RoundAct) -> Command {
    Command::Round { actor: m.fighters[a].id.clone(), act }
}

/// Cheapest paths (free walkable squares only, difficult ground counting two, A4-G-01) to every
/// square within `max` squares of movement.
fn paths(m: &Match, a: usize, max: u32) -> Vec<(Pos, Vec<Pos>)> {
    cheapest_paths(m, a, max, &|q: &Pos| m.occupant(*q).is_some_and(|o| o != a))
}

/// A4-4.1, A4-G-23: who would get an attack of opportunity along `path` (each threatener
/// once, A4-4.2), leaving the start safely when `safe_start`.
pub fn provokers(m: &Match, a4: &A4, a: usize, path: &[Pos], safe_start: bool) -> (Vec<usize>, Vec<Pos>) {
    let mut out: Vec<usize> = Vec::new();
    let mut squares = Vec::new();
    let mut at = m.fighters[a].pos;
    for (k, &next) in path.iter().enumerate() {
        if !(k == 0 && safe_start) {
            let new: Vec<usize> = threateners(m, a4, a, at).into_iter().filter(|x| !out.contains(x)).collect();
            if !new.is_empty() {
                squares.push(at);
                out.extend(new);
            }
        }
        at = next;
    }
    (out, squares)
}

/// Squares `a` can reach with one act now, the cheapest way first: the five-foot step (green,
/// never provokes), a move ("M"), a run ("R").
pub fn destinations(m: &Match, a: usize) -> BTreeMap<Pos, Destination> {
    let mut out = BTreeMap::new();
    let Some(a4) = m.a4.as_deref() else { return out };
    let b = &a4.book;
    let end = round(m, a, RoundAct::EndTurn);
    if check(m, a4, &end).is_err() {
        return out;
    }
    let speed = stats::speed(m, a4, a);
    let max = (speed * b.movement.run_times).min(MAX_PATH as u32);
    let names = |v: Vec<usize>| v.into_iter().map(|i| m.fighters[i].name.clone()).collect::<Vec<_>>();
    for (pos, path) in paths(m, a, max) {
        let tries: [(RoundAct, MoveKind, &str, Option<&str>); 3] = [
            (RoundAct::Step { to: pos }, MoveKind::FreeStep, "Five-foot step", None),
            (RoundAct::Move { path: path.clone() }, MoveKind::Step, "Move", Some("M")),
            (RoundAct::Run { path: path.clone() }, MoveKind::Run, "Run", Some("R")),
        ];
        for (act, kind, label, note) in tries {
            if matches!(act, RoundAct::Step { .. }) && path.len() != 1 {
                continue;
            }
            let command = round(m, a, act.clone());
            if check(m, a4, &command).is_ok() {
                let (who, threatened) = if kind == MoveKind::FreeStep { (Vec::new(), Vec::new()) } else { provokers(m, a4, a, &path, false) };
                let provokes = names(who);
                let note = note.map(|n| if provokes.is_empty() { n.to_string() } else { format!("{n}!") });
                out.insert(pos, Destination { pos, kind, path: path.clone(), ap: 0, defense: 0, label: label.into(), command, provokes, threatened, note });
                break;
            }
        }
    }
    out
}

/// Why `a` cannot move to `to` now: the validator's refusal for a move there.
pub fn why_not_move(m: &Match, a: usize, to: Pos) -> Violation {
    let Some(a4) = m.a4.as_deref() else { return Violation::new("A4-8", "This match is not played under A4.") };
    let end = round(m, a, RoundAct::EndTurn);
    if let Err(v) = check(m, a4, &end) {
        return v;
    }
    match paths(m, a, 64).into_iter().find(|(q, _)| *q == to) {
        Some((_, path)) => check(m, a4, &round(m, a, RoundAct::Run { path: path.clone() }))
            .and_then(|_| check(m, a4, &round(m, a, RoundAct::Move { path })))
            .err()
            .unwrap_or_else(|| Violation::new("A4-1.3", "Too far for one act.")),
        None if m.occupant(to).is_some_and(|o| o != a) => Violation::new("A4-1.2", "Only one figure may stand in a square.").also("A4-G-01"),
        None => Violation::new("A4-1.2", format!("{} has no way there: walls or figures block every path.", m.fighters[a].name)).also("A4-G-01"),
    }
}

fn slots_label(a4: &A4, id: &str) -> String {
    let b = &a4.book;
    let Some(r) = b.row(id) else { return String::new() };
    match r.uses.len() {
        0 => "free".into(),
        3 => "full round".into(),
        _ => r.uses.iter().map(|s| s.name()).collect::<Vec<_>>().join(" + "),
    }
}

fn choice(m: &Match, a4: &A4, a: usize, act: RoundAct, group: Group, description: &str) -> Choice {
    let id = act.row_id(m, a4, a);
    let rule = a4.book.row(id).map(|r| r.rule.clone()).unwrap_or_default();
    let cmd = round(m, a, act.clone());
    let mut c = entry(act.label().into(), id, &slots_label(a4, id), false, 0, cmd.clone(), &format!("{rule}: {description}"));
    c.group = group;
    c.refusal = check(m, a4, &cmd).err();
    c
}

/// A figure-aimed entry: valid targets, or the refusal for the first enemy.
fn aimed(m: &Match, a4: &A4, a: usize, make: impl Fn(String) -> RoundAct, group: Group, description: &str) -> Choice {
    let enemies: Vec<usize> = (0..m.fighters.len()).filter(|&t| t != a && m.enemies(a, t) && !m.is_dead(t)).collect();
    let valid: Vec<String> = enemies.iter().map(|&t| m.fighters[t].id.clone()).filter(|id| check(m, a4, &round(m, a, make(id.clone()))).is_ok()).collect();
    let first = enemies.first().map(|&t| m.fighters[t].id.clone()).unwrap_or_default();
    let mut c = choice(m, a4, a, make(first), group, description);
    if !valid.is_empty() {
        c.refusal = None;
    } else if enemies.is_empty() {
        c.refusal = Some(Violation::new("A4-3.1", "No enemy is left."));
    }
    c.aim = Aim::Figure(valid);
    c
}

/// A4-7.1, A4-G-37: the allies of `a` a stray shot at one of the aimed targets may strike, with
/// the chance: warnings on the choice, never targets (issue 43).
fn stray_warnings(m: &Match, a4: &A4, a: usize, aim: &Aim) -> Vec<(String, String)> {
    let Aim::Figure(targets) = aim else { return Vec::new() };
    let mut out: Vec<(String, String)> = Vec::new();
    for t in targets.iter().filter_map(|id| m.index(id)) {
        for (s, p) in odds(m, a4, a, t, 0).map(|o| o.stray).unwrap_or_default() {
            if m.enemies(a, s) || p <= 0.0 {
                continue;
            }
            let (ally, foe) = (&m.fighters[s].name, &m.fighters[t].name);
            out.push((m.fighters[s].id.clone(), format!("A shot at {foe} may go astray and strike {ally}: {:.0}% (A4-7.1).", p * 100.0)));
        }
    }
    out
}

/// The action bar under A4, in bar order.
pub fn choices(m: &Match, a: usize) -> Vec<Choice> {
    let mut out = Vec::new();
    let Some(a4) = m.a4.as_deref() else { return out };
    let b = &a4.book;
    let f = &m.fighters[a];
    let crossbow = matches!(m.equipment.wielded(f), Wielded::Ranged(r) if r.hand_reload_brawn.is_some());
    let melee = m.equipment.wielded(f).is_melee();
    let mut attack = aimed(m, a4, a, |t| RoundAct::Attack { target: t }, Group::Attack, "one melee or ranged attack (standard action).");
    attack.warn = stray_warnings(m, a4, a, &attack.aim);
    out.push(attack);
    let fa = full_attack_row(m, a4, a);
    let mut full = aimed(
        m,
        a4,
        a,
        |t| RoundAct::FullAttack { targets: vec![t] },
        Group::Attack,
        &format!("{} attacks at −{}D each; uses the whole round (a five-foot step is still allowed).", fa.attacks, fa.penalty_dice),
    );
    full.label = format!("Full attack x{}", fa.attacks);
    full.warn = stray_warnings(m, a4, a, &full.aim);
    full.applies = !crossbow;
    out.push(full);
    let mut charge = aimed(
        m,
        a4,
        a,
        |t| RoundAct::Charge { target: t, path: Vec::new() },
        Group::Attack,
        &format!(
            "run straight at a foe (2 to {}× speed) and attack at +{}D; attacks on you are at {} TN until your next turn.",
            b.movement.charge_times, b.movement.charge_attack_dice, b.movement.charged_tn
        ),
    );
    charge.applies = melee;
    out.push(charge);
    let mut reload = choice(m, a4, a, RoundAct::Reload, Group::Attack, "reload the crossbow; it provokes.");
    reload.applies = crossbow;
    out.push(reload);
    let prone = f.posture == Posture::Prone;
    let mut stand = choice(m, a4, a, RoundAct::StandUp, Group::Move, "stand up (move action); it provokes.");
    stand.applies = true;
    out.push(stand);
    let _ = prone;
    out.push(choice(m, a4, a, RoundAct::DropProne, Group::Move, "drop prone (minor action): harder to shoot, easier to stab."));
    // Withdraw: aimed at a square
    let speed = stats::speed(m, a4, a);
    let mut w =
        choice(m, a4, a, RoundAct::Withdraw { path: Vec::new() }, Group::Move, "up to 2× speed; leaving the first square does not provoke (whole round).");
    let spots: Vec<(Pos, Command)> = paths(m, a, speed * b.movement.withdraw_times)
        .into_iter()
        .map(|(p, path)| (p, round(m, a, RoundAct::Withdraw { path })))
        .filter(|(_, c)| check(m, a4, c).is_ok())
        .collect();
    if !spots.is_empty() {
        w.refusal = None;
    } else if w.refusal.as_ref().is_some_and(|v| v.rule == "A4-3.13") {
        w.refusal = Some(Violation::new("A4-3.13", "No square to withdraw to."));
    }
    w.aim = Aim::Space(spots);
    out.push(w);
    // Moving defense: aimed at a square, like withdraw (A4-6.5).
    let mut md = choice(
        m,
        a4,
        a,
        RoundAct::MovingDefense { path: Vec::new() },
        Group::Defend,
        &format!("move up to {}% of your speed; an Athletics roll adds to the TN of shots at you until your next turn.", b.moving_defense.speed_percent),
    );
    let spots: Vec<(Pos, Command)> = paths(m, a, speed * b.moving_defense.speed_percent / 100)
        .into_iter()
        .map(|(p, path)| (p, round(m, a, RoundAct::MovingDefense { path })))
        .filter(|(_, c)| check(m, a4, c).is_ok())
        .collect();
    if !spots.is_empty() {
        md.refusal = None;
    }
    md.aim = Aim::Space(spots);
    out.push(md);
    // Hold (A4-3.16): the trigger that fits the ready weapon.
    let trigger = if melee { Trigger::EnemyEntersReach } else { Trigger::EnemyEntersRange };
    let when = if melee { "an enemy steps into your reach" } else { "an enemy comes within your weapon's base range" };
    let mut h = choice(m, a4, a, RoundAct::Hold { trigger }, Group::Other, &format!("end your turn now; when {when} this round, strike it before it goes on."));
    h.label = if melee { "Hold (reach)".into() } else { "Hold (range)".into() };
    out.push(h);
    // Draw or sheathe (A4-3.7).
    let unarmed = matches!(m.equipment.wielded(f), Wielded::Unarmed);
    let (act, what) = if a4.figs[a].sheathed { (RoundAct::Draw, "draw your weapon") } else { (RoundAct::Sheathe, "sheathe your weapon") };
    let mut ds = choice(m, a4, a, act, Group::Other, &format!("{what}; a move action that provokes, free and safe with Great Athletics and weapon skill."));
    ds.applies = !unarmed;
    out.push(ds);
    // Stabilize a dying friend next to you (A4-3.20).
    let dying: Vec<String> = (0..m.fighters.len())
        .filter(|&t| !m.enemies(a, t))
        .map(|t| m.fighters[t].id.clone())
        .filter(|id| check(m, a4, &round(m, a, RoundAct::Stabilize { target: id.clone() })).is_ok())
        .collect();
    let mut sb =
        choice(m, a4, a, RoundAct::Stabilize { target: dying.first().cloned().unwrap_or_default() }, Group::Other, "stop a dying friend's bleeding (free).");
    sb.applies = !dying.is_empty();
    sb.aim = Aim::Figure(dying);
    out.push(sb);
    out.extend(items(m, a4, a));
    out.push(choice(
        m,
        a4,
        a,
        RoundAct::FullDefense,
        Group::Defend,
        "throw your melee defense now; it adds to the TN of every attack on you until your next turn.",
    ));
    // Delay: to just after the next figure in the order
    let next = round::order(m, a4).into_iter().find(|&i| i != a);
    let init = next.map_or(a4.figs[a].initiative - 1, |i| a4.figs[i].initiative.min(a4.figs[a].initiative - 1));
    let mut d = choice(m, a4, a, RoundAct::Delay { initiative: init }, Group::Other, "act later this round, at a lower initiative.");
    if let Some(i) = next {
        d.label = format!("Delay (after {})", m.fighters[i].name);
    }
    out.push(d);
    out
}

/// A crawl's doors, closed chests and loose items within reach (A4-3.9, A4-3.10), and the healing
/// items `a` carries (A4-3.11), as bar entries.
fn items(m: &Match, a4: &A4, a: usize) -> Vec<Choice> {
    let f = &m.fighters[a];
    let mut out = Vec::new();
    // Doors and loose items within reach, in a crawl's crisis (A4-3.9, A4-3.10).
    let (doors, loose, chests) = reachable_doors_and_items(m, a);
    for at in chests {
        let mut c = choice(m, a4, a, RoundAct::OpenChest { at }, Group::Other, "open the chest (minor action); a locked one waits for Exploration Mode.");
        c.label = format!("Open chest {at}");
        out.push(c);
    }
    for (at, open) in doors {
        let mut c = choice(m, a4, a, RoundAct::Door { at, open }, Group::Other, "open or close the door (minor action).");
        c.label = format!("{} door {at}", if open { "Open" } else { "Close" });
        out.push(c);
    }
    for (at, item) in loose.into_iter().take(6) {
        let mut c = choice(m, a4, a, RoundAct::Take { at, item: item.clone() }, Group::Other, "pick it up (minor action).");
        c.label = format!("Pick up {}", item.replace('_', " "));
        out.push(c);
    }
    // Use a healing item (A4-3.11).
    let mut usable: Vec<String> = f.loadout.items.iter().filter(|i| m.equipment.item(i).is_some_and(|x| x.heals.is_some())).cloned().collect();
    usable.sort();
    usable.dedup();
    for item in usable {
        let mut u = choice(
            m,
            a4,
            a,
            RoundAct::UseItem { item: item.clone(), target: None },
            Group::Other,
            "take it out and use it on yourself (standard action); it provokes.",
        );
        u.label = format!("Use {}", item.replace('_', " "));
        out.push(u);
    }
    out
}

/// " (62% to hit, 41% if it defends)": an out-of-turn strike's chance undefended and, when
/// the target can throw a reactive defence, with it (A4-4.1, A4-3.21).
fn both_chances(m: &Match, a4: &A4, a: usize, t: usize, extra: i32) -> String {
    let Some(o) = odds(m, a4, a, t, extra) else { return String::new() };
    match o.hit_defended {
        Some((_, d)) => format!(" ({:.0}% to hit, {:.0}% if it defends)", o.hit * 100.0, d * 100.0),
        None => format!(" ({:.0}% to hit; it cannot defend)", o.hit * 100.0),
    }
}

/// The reaction prompt's headline for `a`, the one asked: which choice the open window offers,
/// in A4's words (an attack of opportunity, a held strike, a reactive defence).
pub fn window_headline(m: &Match, a: usize) -> Option<String> {
    let p = m.pending.as_ref().filter(|p| p.window.is_some() && p.defender == a)?;
    let task = m.a4.as_deref()?.tasks.front()?;
    let (me, other) = (&m.fighters[a].name, &m.fighters[p.attacker].name);
    Some(match task {
        Task::OfferAoo { .. } => format!("{other} provokes: {me} may make an attack of opportunity (A4-4.1)"),
        Task::OfferHeld { .. } => format!("{other} sets off {me}'s held action: {me} may strike first (A4-3.16)"),
        Task::Attack(_) => format!("{other} attacks {me}: {me} may throw a reactive defense (A4-3.21)"),
        _ => return None,
    })
}

/// The open window, if `a` is the one asked: the attack of opportunity or the reactive defence
/// (A4-4.1, A4-3.21).
pub fn reaction_choices(m: &Match, a: usize) -> Option<(ReactionKind, Vec<ReactionChoice>)> {
    let p = m.pending.as_ref().filter(|p| p.window.is_some() && p.defender == a)?;
    let a4 = m.a4.as_deref()?;
    let task = a4.tasks.front()?;
    let id = m.fighters[a].id.clone();
    let other = &m.fighters[p.attacker].name;
    let c = match task {
        Task::OfferAoo { .. } => {
            let cmd = Command::Reflex { actor: id, reflex: OPPORTUNITY.into() };
            // A4-G-23: at the full pool, its own penalty dice not counted.
            let odds = both_chances(m, a4, a, p.attacker, stats::penalty_dice(a4, a));
            ReactionChoice {
                label: format!("Attack of opportunity on {other}{odds}"),
                kind: ReactionKind::Reflex,
                cost: "your one this round".into(),
                refusal: check(m, a4, &cmd).err(),
                command: cmd,
                description: format!("A4-4.1: {other} leaves a square you threaten, or does something that provokes: one melee attack at your full pool."),
            }
        }
        Task::OfferHeld { .. } => {
            let cmd = Command::Reflex { actor: id, reflex: HELD.into() };
            let odds = both_chances(m, a4, a, p.attacker, 0);
            ReactionChoice {
                label: format!("Held action: strike {other}{odds}"),
                kind: ReactionKind::Reflex,
                cost: "your standard action".into(),
                refusal: check(m, a4, &cmd).err(),
                command: cmd,
                description: format!("A4-3.16: your trigger came: {other} is in reach or range. Strike now, before it goes on; decline to keep holding."),
            }
        }
        Task::Attack(spec) => {
            let cmd = Command::Reflex { actor: id, reflex: REACTIVE.into() };
            let pool = reactive_pool(m, a4, a, spec.attacker).map(|p| p.label()).unwrap_or_default();
            let odds = odds(m, a4, spec.attacker, a, spec.dice)
                .and_then(|o| o.hit_defended.map(|d| format!(" ({other} hits {:.0}%, {:.0}% if you defend)", o.hit * 100.0, d.1 * 100.0)))
                .unwrap_or_default();
            let b = &a4.book;
            ReactionChoice {
                label: format!("Reactive defense {pool}{odds}"),
                kind: ReactionKind::Reflex,
                cost: format!("-{}D on your rolls", b.reactive_defense.own_penalty_dice),
                refusal: check(m, a4, &cmd).err(),
                command: cmd,
                description: format!("A4-3.21: dodge, parry or block {other}'s attack: your roll adds to its TN."),
            }
        }
        _ => return None,
    };
    Some((ReactionKind::Reflex, vec![c]))
}
