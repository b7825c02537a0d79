//! A4-2 to A4-4: what a figure may do in its turn under A4, checked (a refusal names the `A4-*`
//! rule and, where one applies, its gap decision): the act's row and slots (A4-2.1, A4-G-06),
//! the figure's turn, paths, targets, charges, holds, a crawl's doors and items, and the answers
//! to an open window (an attack of opportunity, a reactive defence, a held strike).

use super::super::command::{Command, MAX_PATH, command_name};
use super::super::equipment::Wielded;
use super::super::explore;
use super::super::grid::Pos;
use super::super::plan;
use super::super::profile::Posture;
use super::super::state::{Match, Phase};
use super::super::violation::{RuleResult, Violation};
use super::book::{ActRow, Slot, Trigger};
use super::slots::allocate;
use super::state::{A4, HELD, OPPORTUNITY, REACTIVE, RoundAct, RoundState, Task};
use super::stats::{full_attack_row, reactive_pool, speed, target_number_at};

fn name(m: &Match, i: usize) -> &str {
    &m.fighters[i].name
}

fn v(rule: &str, reason: String) -> Violation {
    Violation::new(rule, reason)
}

/// `cmd` checked as an A4 crisis checks it, its actor looked up first (`plan::actor`): what the
/// A4 previews ask of each offer.
pub fn check(m: &Match, a4: &A4, cmd: &Command) -> RuleResult<()> {
    let a = plan::actor(m, cmd)?;
    validate(m, a4, a, cmd)
}

/// Checks a command of an A4 match (the engine's validation hands them here).
pub fn validate(m: &Match, a4: &A4, a: usize, cmd: &Command) -> RuleResult<()> {
    if let Some(act) = as_act(cmd) {
        return validate_act(m, a4, a, &act);
    }
    match cmd {
        Command::Round { act, .. } => validate_act(m, a4, a, act),
        Command::Pass { .. } | Command::End { .. } => validate_act(m, a4, a, &RoundAct::EndTurn),
        Command::Reflex { reflex, .. } => validate_answer(m, a4, a, Some(reflex)),
        Command::Decline { .. } => validate_answer(m, a4, a, None),
        Command::Delay { .. } => Err(v("A4-3.15", "Under A4 a delay names the new initiative: round(act: delay(initiative: n)).".into())),
        other => Err(v(
            "A4-8",
            format!(
                "'{}' is an order of the Dungeons of Olde profiles; under A4 {} acts with its round's slots (move, attack, five-foot step …).",
                command_name(other),
                name(m, a)
            ),
        )),
    }
}

/// The DoO item orders a crawl's window and scripts send (door, take, drop, use), as A4 acts
/// (A4-3.9, A4-3.10, A4-3.11, A4-3.17).
pub(super) fn as_act(cmd: &Command) -> Option<RoundAct> {
    Some(match cmd {
        Command::Door { at, open, .. } => RoundAct::Door { at: *at, open: *open },
        Command::Take { at, item, .. } => RoundAct::Take { at: *at, item: item.clone() },
        Command::Drop { item, .. } => RoundAct::Drop { item: item.clone() },
        Command::Use { item, target, .. } => RoundAct::UseItem { item: item.clone(), target: target.clone() },
        Command::Task { task: explore::Task::OpenChest, at, .. } => RoundAct::OpenChest { at: *at },
        _ => return None,
    })
}

/// The figure the open window waits for, and what for.
fn waiting_for<'a>(m: &Match, a4: &'a A4) -> Option<(usize, &'a Task)> {
    let t = a4.tasks.front()?;
    m.pending.as_ref().filter(|p| p.window.is_some()).map(|p| (p.defender, t))
}

fn validate_answer(m: &Match, a4: &A4, a: usize, reflex: Option<&String>) -> RuleResult<()> {
    match waiting_for(m, a4) {
        Some((who, Task::OfferAoo { mover, .. })) if who == a => match reflex.map(String::as_str) {
            None | Some(OPPORTUNITY) => Ok(()),
            Some(r) => Err(v(
                "A4-4.1",
                format!(
                    "{} may make an attack of opportunity on {} ('{OPPORTUNITY}') or decline; '{r}' is not an A4 reaction here.",
                    name(m, a),
                    name(m, *mover)
                ),
            )),
        },
        Some((who, Task::OfferHeld { mover, .. })) if who == a => match reflex.map(String::as_str) {
            None | Some(HELD) => Ok(()),
            Some(r) => Err(v(
                "A4-3.16",
                format!("{} may strike {} with its held action ('{HELD}') or keep holding; '{r}' is not an A4 reaction here.", name(m, a), name(m, *mover)),
            )),
        },
        Some((who, Task::Attack(spec))) if who == a => match reflex.map(String::as_str) {
            None => Ok(()),
            Some(REACTIVE) => {
                reactive_pool(m, a4, a, spec.attacker).map(|_| ()).map_err(|why| v("A4-3.21", format!("{} cannot defend reactively: {why}.", name(m, a))))
            }
            Some(r) => Err(v("A4-3.21", format!("{} may defend reactively ('{REACTIVE}') or decline; '{r}' is not an A4 reaction here.", name(m, a)))),
        },
        _ => Err(v("A4-3.21", format!("No attack, attack of opportunity or held strike is waiting for {}'s answer.", name(m, a)))),
    }
}

/// A4-1.2, A4-G-01: a path of adjacent, walkable, free squares, at most `max` long.
fn check_path(m: &Match, a: usize, path: &[Pos], max: u32, rule: &str) -> RuleResult<()> {
    if path.is_empty() {
        return Err(v(rule, "The path is empty: name the squares entered, in order.".into()));
    }
    // the length cap before any work on the path
    if path.len() > MAX_PATH {
        return Err(v(rule, format!("A path of {} squares is more than any move covers ({} at most).", path.len(), MAX_PATH)));
    }
    let cost = m.board.path_cost(path);
    if cost > max {
        return Err(v(
            rule,
            format!("{cost} squares of movement (difficult ground counts 2) is more than {} may cover with this ({max} at most).", name(m, a)),
        )
        .also("A4-1.3"));
    }
    let mut at = m.fighters[a].pos;
    for &q in path {
        if at.floor != q.floor || at.distance(q) != 1 {
            return Err(v("A4-1.2", format!("{q} is not next to {at}: a path goes one square at a time.")).also("A4-G-01"));
        }
        if let Err(e) = m.board.step_geometry(at, q) {
            return Err(v("A4-1.2", e).also("A4-G-01"));
        }
        if m.occupant(q).is_some_and(|o| o != a) {
            return Err(
                v("A4-1.2", format!("{q} is taken by {}: figures do not pass through each other.", name(m, m.occupant(q).unwrap_or(a)))).also("A4-G-01")
            );
        }
        at = q;
    }
    Ok(())
}

fn target(m: &Match, a: usize, id: &str) -> RuleResult<usize> {
    let t = m.index(id).ok_or_else(|| v("INPUT", format!("There is no character with id '{id}'.")))?;
    if t == a {
        return Err(v("A4-3.1", format!("{} cannot attack itself.", name(m, a))));
    }
    if m.is_dead(t) {
        return Err(v("A4-3.1", format!("{} is dead.", name(m, t))));
    }
    Ok(t)
}

/// A4-3.1: `a` can attack `t` with its ready weapon now.
pub(super) fn check_attack(m: &Match, a4: &A4, a: usize, t: usize) -> RuleResult<()> {
    check_attack_at(m, a4, a, m.fighters[a].pos, t)
}

fn check_attack_at(m: &Match, a4: &A4, a: usize, at: Pos, t: usize) -> RuleResult<()> {
    let f = &m.fighters[a];
    if a4.figs[a].sheathed {
        return Err(v("A4-3.7", format!("{}'s weapon is sheathed: draw it first.", f.name)).also("A4-G-12"));
    }
    if let Wielded::Ranged(r) = m.equipment.wielded(f) {
        if r.hand_reload_brawn.is_some() && !f.loadout.loaded {
            return Err(v("A4-4.1", format!("{}'s {} is not loaded: reload it first.", f.name, r.name)).also("A4-G-14"));
        }
        if f.loadout.ammo == Some(0) {
            return Err(v("A4-3.1", format!("{} has nothing left to shoot or throw.", f.name)));
        }
    }
    if target_number_at(m, a4, a, at, t).is_none() {
        let what = if m.equipment.wielded(f).is_melee() { "reach" } else { "range or sight" };
        return Err(v("A4-3.1", format!("{} is out of {}'s {what}.", name(m, t), f.name)).also("A4-G-22"));
    }
    Ok(())
}

fn validate_act(m: &Match, a4: &A4, a: usize, act: &RoundAct) -> RuleResult<()> {
    let b = &a4.book;
    if let RoundAct::Speak { text } = act {
        if b.row("speak").is_some_and(|r| !r.enabled) {
            return Err(v("A4-3.18", "Speaking is switched off in a4.ron.".into()));
        }
        return check_speak(m, a4, a, text);
    }
    if let Some((who, _)) = waiting_for(m, a4) {
        return Err(v("A4-4.1", format!("{} must answer first: {}", name(m, who), if who == a { "its reaction is waiting" } else { "a reaction is waiting" })));
    }
    if m.clock.current != Some(a) {
        let now = m.clock.current.map_or_else(|| "nobody's".to_string(), |c| format!("{}'s", name(m, c)));
        return Err(v("A4-2.4", format!("It is {now} turn: figures act one at a time, in initiative order.")).also("A4-5.1"));
    }
    let id = act.row_id(m, a4, a);
    let row = b.row(id).ok_or_else(|| v("A4-8", format!("'{id}' is not in the A4 action table.")))?;
    if !row.enabled {
        let why = match act {
            RoundAct::Mount => v(&row.rule, "There are no steeds in this game: mounting is switched off in a4.ron.".into()).also("A4-G-11"),
            RoundAct::CastSpell { .. } => {
                v(&row.rule, "A spell takes about 20 rounds under A4; casting in a round is switched off in a4.ron (no A4 level has casters yet).".into())
                    .also("A4-G-38")
            }
            _ => v(&row.rule, format!("{} is not used in this ruleset (switched off in a4.ron).", act.label())),
        };
        return Err(why);
    }
    let r = &a4.figs[a];
    if let Err(slot) = allocate(b, r, &row.uses) {
        let spent: Vec<&str> = [Slot::Standard, Slot::Move, Slot::Minor].into_iter().filter(|s| r.slot_used(*s)).map(Slot::name).collect();
        return Err(v(
            "A4-2.1",
            format!(
                "{} needs the {} action, and {} has used {} this round ({}).",
                act.label(),
                slot.name(),
                name(m, a),
                if spent.is_empty() { "none".into() } else { spent.join(", ") },
                row.uses.iter().map(|s| s.name()).collect::<Vec<_>>().join(" + ")
            ),
        )
        .also(&row.rule)
        .also("A4-G-06"));
    }
    match act {
        RoundAct::Move { .. }
        | RoundAct::Run { .. }
        | RoundAct::Withdraw { .. }
        | RoundAct::Charge { .. }
        | RoundAct::Step { .. }
        | RoundAct::StandUp
        | RoundAct::DropProne
        | RoundAct::MovingDefense { .. } => check_movement(m, a4, a, act),
        RoundAct::Attack { .. }
        | RoundAct::FullAttack { .. }
        | RoundAct::FullDefense
        | RoundAct::Reload
        | RoundAct::Delay { .. }
        | RoundAct::EndTurn
        | RoundAct::Hold { .. } => check_fight(m, a4, a, act),
        _ => check_other(m, a4, a, act, row),
    }
}

/// A4-3.5, A4-3.19, A4-G-10: a move action needs the figure standing and no five-foot step
/// taken this round.
fn moving(m: &Match, r: &RoundState, a: usize, rule: &str) -> RuleResult<()> {
    let f = &m.fighters[a];
    if f.posture == Posture::Prone {
        return Err(v(rule, format!("{} is prone: stand up first (A4-3.5).", f.name)).also("A4-G-10"));
    }
    if r.stepped {
        return Err(v("A4-3.19", format!("{} took a five-foot step this round: no move action after it.", f.name)).also("A4-G-19"));
    }
    Ok(())
}

/// The movement acts (A4-3.2 to A4-3.5, A4-3.8, A4-3.13, A4-3.19, A4-6.5): the path within the
/// figure's speed, a charge straight into reach.
fn check_movement(m: &Match, a4: &A4, a: usize, act: &RoundAct) -> RuleResult<()> {
    let (b, r, f) = (&a4.book, &a4.figs[a], &m.fighters[a]);
    let prone = f.posture == Posture::Prone;
    let speed = speed(m, a4, a);
    match act {
        RoundAct::Move { path } => {
            moving(m, r, a, "A4-3.3")?;
            let max = if r.full_defense.is_some() { speed * b.movement.full_defense_percent / 100 } else { speed };
            check_path(m, a, path, max, "A4-3.3")
        }
        RoundAct::Run { path } => {
            moving(m, r, a, "A4-3.4")?;
            check_path(m, a, path, speed * b.movement.run_times, "A4-3.4").map_err(|e| e.also("A4-G-09"))
        }
        RoundAct::Withdraw { path } => {
            moving(m, r, a, "A4-3.13")?;
            check_path(m, a, path, speed * b.movement.withdraw_times, "A4-3.13").map_err(|e| e.also("A4-G-16"))
        }
        RoundAct::Charge { target: tid, path } => {
            moving(m, r, a, "A4-3.2")?;
            if r.sheathed {
                return Err(v("A4-3.7", format!("{}'s weapon is sheathed: draw it first.", f.name)).also("A4-G-12"));
            }
            let t = target(m, a, tid)?;
            let auto;
            let path = if path.is_empty() {
                auto = charge_path(m, a4, a, t).ok_or_else(|| {
                    v(
                        "A4-3.2",
                        format!("No straight charge of {} to {} squares reaches {}.", b.movement.charge_min, speed * b.movement.charge_times, name(m, t)),
                    )
                    .also("A4-G-08")
                })?;
                &auto
            } else {
                path
            };
            if !m.equipment.wielded(f).is_melee() {
                return Err(v("A4-3.2", format!("A charge ends in a melee attack, and {} holds a ranged weapon.", f.name)));
            }
            if (path.len() as u32) < b.movement.charge_min {
                return Err(v("A4-3.2", format!("A charge covers at least {} squares.", b.movement.charge_min)).also("A4-G-08"));
            }
            check_path(m, a, path, speed * b.movement.charge_times, "A4-3.2").map_err(|e| e.also("A4-G-08"))?;
            let mut at = f.pos;
            let dir = (path[0].x - at.x, path[0].y - at.y);
            for &q in path {
                if (q.x - at.x, q.y - at.y) != dir {
                    return Err(v("A4-3.2", "A charge runs in a straight line: every square in the same direction.".into()).also("A4-G-08"));
                }
                at = q;
            }
            check_attack_at(m, a4, a, at, t).map_err(|_| v("A4-3.2", format!("The charge must end with {} in reach.", name(m, t))).also("A4-G-08"))
        }
        RoundAct::Step { to } => {
            if r.moved || r.stepped {
                let why = if r.stepped { "already took its five-foot step" } else { "already took a move action" };
                return Err(v("A4-3.19", format!("{} {why} this round.", f.name)).also("A4-G-19"));
            }
            if prone {
                return Err(v("A4-3.19", format!("{} is prone: no five-foot step.", f.name)).also("A4-G-19"));
            }
            check_path(m, a, &[*to], 1, "A4-3.19")
        }
        RoundAct::StandUp => {
            if f.posture == Posture::Standing {
                return Err(v("A4-3.5", format!("{} is already standing.", f.name)));
            }
            if r.stepped {
                return Err(v("A4-3.19", format!("{} took a five-foot step: standing up is a move action (A4-3.5).", f.name)).also("A4-G-10"));
            }
            Ok(())
        }
        RoundAct::DropProne => {
            if prone {
                return Err(v("A4-3.8", format!("{} is already prone.", f.name)));
            }
            Ok(())
        }
        RoundAct::MovingDefense { path } => {
            moving(m, r, a, "A4-6.5")?;
            check_path(m, a, path, speed * b.moving_defense.speed_percent / 100, "A4-6.5").map_err(|e| e.also("A4-G-33"))
        }
        _ => Ok(()),
    }
}

/// The fighting acts (A4-3.1, A4-3.12, A4-3.14 to A4-3.16, A4-G-14): a target in reach or
/// range, a loaded weapon, a delay or a hold before anything else.
fn check_fight(m: &Match, a4: &A4, a: usize, act: &RoundAct) -> RuleResult<()> {
    let (b, r, f) = (&a4.book, &a4.figs[a], &m.fighters[a]);
    let speed = speed(m, a4, a);
    match act {
        RoundAct::Attack { target: tid } => {
            let t = target(m, a, tid)?;
            check_attack(m, a4, a, t)
        }
        RoundAct::FullAttack { targets } => {
            let n = full_attack_row(m, a4, a).attacks as usize;
            if targets.is_empty() || targets.len() > n {
                return Err(v("A4-3.14", format!("A full attack names 1 to {n} targets.")).also("A4-G-05"));
            }
            if let Wielded::Ranged(w) = m.equipment.wielded(f) {
                if w.hand_reload_brawn.is_some() {
                    return Err(v("A4-3.14", format!("A {} shoots once and needs reloading: no full attack.", w.name)).also("A4-G-14"));
                }
            }
            let first = target(m, a, &targets[0])?;
            for t in &targets[1..] {
                target(m, a, t)?;
            }
            check_attack(m, a4, a, first)
        }
        RoundAct::FullDefense => {
            // A4-3.12, A4-G-15: its move this turn is at half speed, before or after.
            let half = speed * b.movement.full_defense_percent / 100;
            if r.moved_squares > half {
                return Err(v("A4-3.12", format!("{} moved {} squares this turn; full defense allows only half speed ({half}).", f.name, r.moved_squares))
                    .also("A4-G-15"));
            }
            Ok(())
        }
        RoundAct::Reload => match m.equipment.wielded(f) {
            Wielded::Ranged(w) if w.hand_reload_brawn.is_some() => {
                if f.loadout.loaded {
                    Err(v("A4-4.1", format!("{}'s {} is already loaded.", f.name, w.name)).also("A4-G-14"))
                } else {
                    Ok(())
                }
            }
            _ => Err(v("A4-4.1", format!("{} has no crossbow to reload.", f.name)).also("A4-G-14")),
        },
        RoundAct::Delay { initiative } => {
            if r.acted() {
                return Err(v("A4-3.15", format!("{} has acted this turn: a delay comes before anything else.", f.name)).also("A4-G-17"));
            }
            if *initiative >= r.initiative || *initiative < -99 {
                return Err(v("A4-3.15", format!("The new initiative must be below {} (and not below −99).", r.initiative)).also("A4-G-17"));
            }
            Ok(())
        }
        RoundAct::EndTurn => Ok(()),
        RoundAct::Hold { trigger } => {
            if r.acted() {
                return Err(v("A4-3.16", format!("{} has acted this turn: an action is held before anything else.", f.name)).also("A4-G-18"));
            }
            if !b.hold.triggers.contains(trigger) {
                return Err(v("A4-3.16", format!("Holding for {} is switched off in a4.ron.", trigger.describe())).also("A4-G-18"));
            }
            let melee = m.equipment.wielded(f).is_melee();
            match trigger {
                Trigger::EnemyEntersReach if !melee => {
                    Err(v("A4-3.16", format!("{} holds a ranged weapon: hold for an enemy entering its range instead.", f.name)).also("A4-G-18"))
                }
                Trigger::EnemyEntersRange if melee => {
                    Err(v("A4-4.3", format!("Only a shooter holds for an enemy entering its range, and {} holds a melee weapon.", f.name)).also("A4-G-18"))
                }
                _ if r.sheathed => Err(v("A4-3.7", format!("{}'s weapon is sheathed: draw it first.", f.name)).also("A4-G-12")),
                _ => match m.equipment.wielded(f) {
                    Wielded::Ranged(w) if w.hand_reload_brawn.is_some() && !f.loadout.loaded => {
                        Err(v("A4-3.16", format!("{}'s {} is not loaded: a held shot needs it loaded.", f.name, w.name)).also("A4-G-18"))
                    }
                    Wielded::Ranged(_) if f.loadout.ammo == Some(0) => {
                        Err(v("A4-3.16", format!("{} has nothing left to shoot: no held shot.", f.name)).also("A4-G-18"))
                    }
                    _ => Ok(()),
                },
            }
        }
        _ => Ok(()),
    }
}

/// The other acts: drawing and sheathing (A4-3.7), stabilizing (A4-3.20), and a crawl's doors,
/// chests and items (A4-3.9 to A4-3.11, A4-3.17).
fn check_other(m: &Match, a4: &A4, a: usize, act: &RoundAct, row: &ActRow) -> RuleResult<()> {
    let (r, f) = (&a4.figs[a], &m.fighters[a]);
    match act {
        RoundAct::Draw | RoundAct::Sheathe => {
            let drawing = matches!(act, RoundAct::Draw);
            if matches!(m.equipment.wielded(f), Wielded::Unarmed) {
                return Err(v("A4-3.7", format!("{} fights bare-handed: there is no weapon to draw or sheathe.", f.name)));
            }
            if drawing != r.sheathed {
                return Err(v("A4-3.7", format!("{}'s weapon is already {}.", f.name, if drawing { "drawn" } else { "sheathed" })));
            }
            if r.stepped && row.uses.contains(&Slot::Move) {
                return Err(
                    v("A4-3.19", format!("{} took a five-foot step: drawing or sheathing is a move action without \"Great\" skill.", f.name)).also("A4-G-12")
                );
            }
            Ok(())
        }
        RoundAct::Stabilize { target: tid } => {
            let t = m.index(tid).ok_or_else(|| v("INPUT", format!("There is no character with id '{tid}'.")))?;
            let ft = &m.fighters[t];
            if m.is_dead(t) {
                return Err(v("A4-3.20", format!("{} is dead: there is nothing left to stabilize.", ft.name)).also("A4-G-20"));
            }
            if !ft.has_condition("bleeding") {
                return Err(v("A4-3.20", format!("{} is not dying: only a bleeding figure is stabilized.", ft.name)).also("A4-G-20"));
            }
            if ft.pos.floor != f.pos.floor || ft.pos.distance(f.pos) > 1 {
                return Err(v("A4-3.20", format!("{} must stand in or next to {}'s square.", f.name, ft.name)).also("A4-G-20"));
            }
            Ok(())
        }
        RoundAct::Mount | RoundAct::CastSpell { .. } | RoundAct::Speak { .. } => Ok(()),
        RoundAct::Door { at, open } => {
            let x = m.explore.as_deref().ok_or_else(|| v("A4-3.9", "There are no doors to work in this level.".into()).also("A4-G-14"))?;
            explore::check_door(m, x, a, *at, *open).map_err(|e| e.also("A4-3.9"))
        }
        RoundAct::OpenChest { at } => {
            let x = m.explore.as_deref().ok_or_else(|| v("A4-3.9", "There are no containers in this level.".into()).also("A4-G-14"))?;
            explore::check_task(m, x, a, explore::Task::OpenChest, *at).map_err(|e| e.also("A4-3.9"))
        }
        RoundAct::Take { at, item } => {
            let x = m.explore.as_deref().ok_or_else(|| v("A4-3.10", "There is nothing to pick up in this level.".into()).also("A4-G-14"))?;
            // A4-3.10: from one's own square or a free one within reach.
            if *at != f.pos {
                if let Some(o) = m.occupant(*at) {
                    return Err(v("A4-3.10", format!("{} stands on {at}: an item is picked up from one's own square or a free one.", name(m, o))));
                }
            }
            explore::check_take(m, x, a, *at, item).map_err(|e| e.also("A4-3.10"))
        }
        RoundAct::Drop { item } => explore::check_drop(m, a, item).map_err(|e| e.also("A4-3.17")),
        RoundAct::UseItem { item, target } => {
            explore::check_drop(m, a, item).map_err(|e| e.also("A4-3.11"))?;
            if m.equipment.item(item).is_none_or(|i| i.heals.is_none()) {
                return Err(v("A4-3.11", format!("The {} has no use here.", item.replace('_', " "))).also("A4-G-14"));
            }
            if let Some(tid) = target {
                let t = m.index(tid).ok_or_else(|| v("INPUT", format!("There is no character with id '{tid}'.")))?;
                if m.is_dead(t) || m.fighters[t].pos.floor != f.pos.floor || m.fighters[t].pos.distance(f.pos) > 1 {
                    return Err(v("A4-3.11", format!("{} must be living and in or next to {}'s square.", m.fighters[t].name, f.name)).also("A4-G-14"));
                }
            }
            Ok(())
        }

        _ => Ok(()),
    }
}

/// A4-3.18: a figure may speak at any time, unless flat-footed or surprised.
fn check_speak(m: &Match, a4: &A4, a: usize, text: &str) -> RuleResult<()> {
    let b = &a4.book;
    let f = &m.fighters[a];
    let r = &a4.figs[a];
    if m.is_dead(a) || !m.can_act(a) || f.dormant || m.clock.phase != Phase::Action {
        return Err(v("A4-3.18", format!("{} cannot speak now: only a figure in the fight, while the round is played.", f.name)));
    }
    if r.surprised || r.flat_footed {
        let why = if r.surprised { "surprised" } else { "flat-footed: it has not acted yet this combat" };
        return Err(v("A4-3.18", format!("{} is {why}, and so cannot speak yet.", f.name)).also(if r.surprised { "A4-5.4" } else { "A4-5.3" }));
    }
    let n = text.chars().count();
    if text.trim().is_empty() || n > b.actions.speak_max_chars as usize || text.chars().any(char::is_control) {
        return Err(v("A4-3.18", format!("Say 1 to {} characters on one line ({n} given).", b.actions.speak_max_chars)));
    }
    Ok(())
}

/// A4-3.2, A4-G-08: the shortest straight charge path from `a` that ends with `t` in reach.
pub fn charge_path(m: &Match, a4: &A4, a: usize, t: usize) -> Option<Vec<Pos>> {
    let b = &a4.book;
    let max = speed(m, a4, a) * b.movement.charge_times;
    let from = m.fighters[a].pos;
    let mut best: Option<Vec<Pos>> = None;
    for (dx, dy) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
        let mut path = Vec::new();
        for k in 1..=max as i32 {
            let q = Pos::on(from.x + dx * k, from.y + dy * k, from.floor);
            path.push(q);
            if check_path(m, a, &path, max, "A4-3.2").is_err() {
                break;
            }
            if k as u32 >= b.movement.charge_min && check_attack_at(m, a4, a, q, t).is_ok() {
                if best.as_ref().is_none_or(|p| p.len() > path.len()) {
                    best = Some(path.clone());
                }
                break;
            }
        }
    }
    best
}
