//! A4-2 to A4-4 and A4-6: what a figure may do in its turn under A4 (`RoundAct`), checked by
//! `validate` (a refusal names the `A4-*` rule and, where one applies, its gap decision) and
//! carried out by `apply`. Attacks of opportunity and reactive defences are offered through the
//! engine's reaction window (`Reflex` with `a4_opportunity` / `a4_reactive_defense`, or
//! `Decline`), so the window's prompt, its "never ask" list and its timeout serve A4 too.

use super::super::command::{Command, MAX_PATH};
use super::super::dice::Dice;
use super::super::equipment::Wielded;
use super::super::event::Event;
use super::super::explore::{self, CrisisRules};
use super::super::grid::Pos;
use super::super::profile::Posture;
use super::super::roll::log_roll;
use super::super::state::{Match, PendingAttack, Window};
use super::super::turn::Flow;
use super::super::violation::{RuleResult, Violation};
use super::book::{A4Book, Provokes, Slot};
use super::{AttackSpec, Task, book, st, st_mut};

pub use super::super::command::command_name;
pub use super::state::{RoundAct, describe};

/// What a crawl's crises need of A4 (`explore::CrisisRules`): healing dice never explode
/// (A4-G-31); a new wound makes a stabilized dying figure bleed again (A4-3.20, A4-G-20).
pub const CRAWL: CrisisRules = CrisisRules { items_explode: false, rebleeds: true };

/// The reaction id of an attack of opportunity (A4-4.1).
pub const OPPORTUNITY: &str = "a4_opportunity";
/// The reaction id of a reactive defence (A4-3.21).
pub const REACTIVE: &str = "a4_reactive_defense";
/// The reaction id of a held action's strike when its trigger comes (A4-3.16).
pub const HELD: &str = "a4_held_action";

impl RoundAct {
    /// The row of `a4.ron` this act is.
    pub fn row_id(&self, m: &Match, a: usize) -> &'static str {
        match self {
            RoundAct::Move { .. } => "move",
            RoundAct::Run { .. } => "run",
            RoundAct::Withdraw { .. } => "withdraw",
            RoundAct::Charge { .. } => "charge",
            RoundAct::Step { .. } => "step",
            RoundAct::StandUp => "stand_up",
            RoundAct::DropProne => "drop_prone",
            RoundAct::Attack { .. } => "attack",
            RoundAct::FullAttack { .. } => "full_attack",
            RoundAct::FullDefense => "full_defense",
            RoundAct::Reload => {
                let f = &m.fighters[a];
                match m.equipment.wielded(f) {
                    Wielded::Ranged(r) if r.hand_reload_brawn.is_some_and(|b| f.stats.brawn >= b) => "reload_hand",
                    _ => "reload_crank",
                }
            }
            RoundAct::Delay { .. } => "delay",
            RoundAct::Hold { .. } => "hold",
            RoundAct::MovingDefense { .. } => "moving_defense",
            RoundAct::Draw | RoundAct::Sheathe => {
                if great_draw(m, a) {
                    "draw_great"
                } else {
                    "draw"
                }
            }
            RoundAct::Stabilize { .. } => "stabilize",
            RoundAct::Mount => "mount",
            RoundAct::Speak { .. } => "speak",
            RoundAct::Door { .. } | RoundAct::OpenChest { .. } => "door",
            RoundAct::Take { .. } => "take",
            RoundAct::Drop { .. } => "drop",
            RoundAct::UseItem { .. } => "use_item",
            RoundAct::CastSpell { .. } => "cast_spell",
            RoundAct::EndTurn => "end_turn",
        }
    }
}

/// A4-G-12: drawing and sheathing are free and safe when both Athletics and the weapon's attack
/// pool are "Great".
pub fn great_draw(m: &Match, a: usize) -> bool {
    let Some(b) = book(m) else { return false };
    super::skill_pool(m, a, "athletics").dice >= b.pools.great_dice && super::skill_pool(m, a, super::attack_skill(m, a)).dice >= b.pools.great_dice
}

fn name(m: &Match, i: usize) -> &str {
    &m.fighters[i].name
}

fn v(rule: &str, reason: String) -> Violation {
    Violation::new(rule, reason)
}

/// The slots `uses` takes from the figure's round, trading a minor for a move or standard slot
/// (A4-G-06), or the slot that is missing.
pub fn allocate(b: &A4Book, r: &super::RoundState, uses: &[Slot]) -> Result<Vec<Slot>, Slot> {
    let mut taken: Vec<Slot> = Vec::new();
    let free = |s: Slot, taken: &Vec<Slot>| !r.slot_used(s) && !taken.contains(&s);
    let mut need = uses.to_vec();
    need.sort();
    for s in need {
        if free(s, &taken) {
            taken.push(s);
        } else if s == Slot::Minor {
            match b.actions.minor_from.iter().copied().find(|&o| free(o, &taken)) {
                Some(o) => taken.push(o),
                None => return Err(s),
            }
        } else {
            return Err(s);
        }
    }
    Ok(taken)
}

/// `cmd` checked as an A4 crisis checks it, its actor looked up first (`plan::actor`): what the
/// A4 previews ask of each offer.
pub fn check(m: &Match, cmd: &Command) -> RuleResult<()> {
    let a = super::super::plan::actor(m, cmd)?;
    validate(m, a, cmd)
}

/// Checks a command of an A4 match (the engine's validation hands them here).
pub fn validate(m: &Match, a: usize, cmd: &Command) -> RuleResult<()> {
    if let Some(act) = as_act(cmd) {
        return validate_act(m, a, &act);
    }
    match cmd {
        Command::Round { act, .. } => validate_act(m, a, act),
        Command::Pass { .. } | Command::End { .. } => validate_act(m, a, &RoundAct::EndTurn),
        Command::Reflex { reflex, .. } => validate_answer(m, a, Some(reflex)),
        Command::Decline { .. } => validate_answer(m, a, None),
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
fn as_act(cmd: &Command) -> Option<RoundAct> {
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
fn waiting_for(m: &Match) -> Option<(usize, &Task)> {
    let x = m.a4.as_deref()?;
    let t = x.tasks.front()?;
    m.pending.as_ref().filter(|p| p.window.is_some()).map(|p| (p.defender, t))
}

fn validate_answer(m: &Match, a: usize, reflex: Option<&String>) -> RuleResult<()> {
    match waiting_for(m) {
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
                super::reactive_pool(m, a, spec.attacker).map(|_| ()).map_err(|why| v("A4-3.21", format!("{} cannot defend reactively: {why}.", name(m, a))))
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
fn check_attack(m: &Match, a: usize, t: usize) -> RuleResult<()> {
    check_attack_at(m, a, m.fighters[a].pos, t)
}

fn check_attack_at(m: &Match, a: usize, at: Pos, t: usize) -> RuleResult<()> {
    let f = &m.fighters[a];
    if st(m, a).sheathed {
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
    if super::target_number_at(m, a, at, t).is_none() {
        let what = if m.equipment.wielded(f).is_melee() { "reach" } else { "range or sight" };
        return Err(v("A4-3.1", format!("{} is out of {}'s {what}.", name(m, t), f.name)).also("A4-G-22"));
    }
    Ok(())
}

fn validate_act(m: &Match, a: usize, act: &RoundAct) -> RuleResult<()> {
    let b = book(m).expect("an A4 match");
    if let RoundAct::Speak { text } = act {
        if b.row("speak").is_some_and(|r| !r.enabled) {
            return Err(v("A4-3.18", "Speaking is switched off in a4.ron.".into()));
        }
        return check_speak(m, a, text);
    }
    if let Some((who, _)) = waiting_for(m) {
        return Err(v("A4-4.1", format!("{} must answer first: {}", name(m, who), if who == a { "its reaction is waiting" } else { "a reaction is waiting" })));
    }
    if m.clock.current != Some(a) {
        let now = m.clock.current.map_or_else(|| "nobody's".to_string(), |c| format!("{}'s", name(m, c)));
        return Err(v("A4-2.4", format!("It is {now} turn: figures act one at a time, in initiative order.")).also("A4-5.1"));
    }
    let id = act.row_id(m, a);
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
    let r = st(m, a);
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
    let f = &m.fighters[a];
    let prone = f.posture == Posture::Prone;
    let speed = super::speed(m, a);
    let moving = |rule: &str| -> RuleResult<()> {
        if prone {
            return Err(v(rule, format!("{} is prone: stand up first (A4-3.5).", f.name)).also("A4-G-10"));
        }
        if r.stepped {
            return Err(v("A4-3.19", format!("{} took a five-foot step this round: no move action after it.", f.name)).also("A4-G-19"));
        }
        Ok(())
    };
    match act {
        RoundAct::Move { path } => {
            moving("A4-3.3")?;
            let max = if r.full_defense.is_some() { speed * b.movement.full_defense_percent / 100 } else { speed };
            check_path(m, a, path, max, "A4-3.3")
        }
        RoundAct::Run { path } => {
            moving("A4-3.4")?;
            check_path(m, a, path, speed * b.movement.run_times, "A4-3.4").map_err(|e| e.also("A4-G-09"))
        }
        RoundAct::Withdraw { path } => {
            moving("A4-3.13")?;
            check_path(m, a, path, speed * b.movement.withdraw_times, "A4-3.13").map_err(|e| e.also("A4-G-16"))
        }
        RoundAct::Charge { target: tid, path } => {
            moving("A4-3.2")?;
            if r.sheathed {
                return Err(v("A4-3.7", format!("{}'s weapon is sheathed: draw it first.", f.name)).also("A4-G-12"));
            }
            let t = target(m, a, tid)?;
            let auto;
            let path = if path.is_empty() {
                auto = charge_path(m, a, t).ok_or_else(|| {
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
            check_attack_at(m, a, at, t).map_err(|_| v("A4-3.2", format!("The charge must end with {} in reach.", name(m, t))).also("A4-G-08"))
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
        RoundAct::Attack { target: tid } => {
            let t = target(m, a, tid)?;
            check_attack(m, a, t)
        }
        RoundAct::FullAttack { targets } => {
            let n = full_attack_row(m, a).attacks as usize;
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
            check_attack(m, a, first)
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
                super::book::Trigger::EnemyEntersReach if !melee => {
                    Err(v("A4-3.16", format!("{} holds a ranged weapon: hold for an enemy entering its range instead.", f.name)).also("A4-G-18"))
                }
                super::book::Trigger::EnemyEntersRange if melee => {
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
        RoundAct::MovingDefense { path } => {
            moving("A4-6.5")?;
            check_path(m, a, path, speed * b.moving_defense.speed_percent / 100, "A4-6.5").map_err(|e| e.also("A4-G-33"))
        }
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
    }
}

/// A4-3.18: a figure may speak at any time, unless flat-footed or surprised.
fn check_speak(m: &Match, a: usize, text: &str) -> RuleResult<()> {
    let b = book(m).expect("an A4 match");
    let f = &m.fighters[a];
    let r = st(m, a);
    if m.is_dead(a) || !m.can_act(a) || f.dormant || m.clock.phase != super::super::state::Phase::Action {
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
pub fn charge_path(m: &Match, a: usize, t: usize) -> Option<Vec<Pos>> {
    let b = book(m)?;
    let max = super::speed(m, a) * b.movement.charge_times;
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
            if k as u32 >= b.movement.charge_min && check_attack_at(m, a, q, t).is_ok() {
                if best.as_ref().is_none_or(|p| p.len() > path.len()) {
                    best = Some(path.clone());
                }
                break;
            }
        }
    }
    best
}

/// A4-G-05: the full-attack row for the figure's attack pool before penalties.
pub fn full_attack_row(m: &Match, a: usize) -> super::book::FullAttackRow {
    let b = book(m).expect("an A4 match");
    let dice = super::skill_pool(m, a, super::attack_skill(m, a)).dice;
    b.actions.full_attack.iter().filter(|r| dice >= r.min_attack_dice).max_by_key(|r| r.min_attack_dice).cloned().unwrap_or(b.actions.full_attack[0].clone())
}

/// Carries out a checked command, then plays its steps until an answer is needed or the turn
/// moves on.
pub fn apply(m: &mut Match, a: usize, cmd: &Command, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    if let Command::Round { act: RoundAct::Speak { text }, .. } = cmd {
        // A4-3.18: free and at any time: only the words are logged; nobody's round changes.
        ev.push(Event::Note { text: format!("{} says: \u{201c}{}\u{201d} (A4-3.18)", name(m, a), text.trim()) });
        return if m.pending.as_ref().is_some_and(|p| p.window.is_some()) { Flow::AwaitCommand } else { super::round::advance(m, ev) };
    }
    m.clock.last_closed = None;
    if let Some(act) = as_act(cmd) {
        apply_act(m, a, &act, dice, ev);
        run_tasks(m, dice, ev);
        return settle_turn(m, dice, ev);
    }
    match cmd {
        Command::Round { act, .. } => apply_act(m, a, act, dice, ev),
        Command::Pass { .. } | Command::End { .. } => apply_act(m, a, &RoundAct::EndTurn, dice, ev),
        Command::Reflex { reflex, .. } => answer(m, a, Some(reflex), dice, ev),
        Command::Decline { .. } => answer(m, a, None, dice, ev),
        _ => {}
    }
    run_tasks(m, dice, ev);
    settle_turn(m, dice, ev)
}

fn tasks(m: &mut Match) -> &mut std::collections::VecDeque<Task> {
    &mut m.a4.as_deref_mut().expect("an A4 match").tasks
}

/// Queues the attacks of opportunity `a` draws where it stands (A4-4.1).
fn offer_aoos(m: &mut Match, a: usize) {
    let pos = m.fighters[a].pos;
    for who in super::threateners(m, a, pos) {
        tasks(m).push_back(Task::OfferAoo { who, mover: a });
    }
}

/// A4-4.1, A4-G-23: an attack provokes when its row says `always`, or `ranged_shot` and it is
/// a shot with a weapon whose skill is not listed as safe (thrown weapons).
fn shot_provokes(m: &Match, a: usize, p: Provokes) -> bool {
    let b = book(m).expect("an A4 match");
    match (p, m.equipment.wielded(&m.fighters[a])) {
        (Provokes::Always, _) => true,
        (Provokes::RangedShot, Wielded::Ranged(r)) => !b.non_provoking_skills.contains(&r.skill),
        _ => false,
    }
}

fn apply_act(m: &mut Match, a: usize, act: &RoundAct, dice: &mut Dice, ev: &mut Vec<Event>) {
    let b = book(m).expect("an A4 match").clone();
    let id = act.row_id(m, a);
    let row = b.row(id).cloned().expect("validated");
    let slots = allocate(&b, st(m, a), &row.uses).unwrap_or_default();
    {
        let r = st_mut(m, a);
        for s in &slots {
            r.use_slot(*s);
        }
        r.counted += row.counts;
    }
    if !matches!(act, RoundAct::EndTurn | RoundAct::Delay { .. } | RoundAct::Speak { .. }) {
        ev.push(Event::SlotsUsed {
            actor: m.fighters[a].id.clone(),
            act: row.id.clone(),
            slots: slots.iter().map(|s| s.name().to_string()).collect(),
            counted: st(m, a).counted,
        });
    }
    let attack = |t: usize, dice_adj: i32, why: &str| {
        Task::Attack(AttackSpec { attacker: a, defender: t, dice: dice_adj, why: why.into(), opportunity: false, reacted: None, asked: false })
    };
    match act {
        RoundAct::Move { path } | RoundAct::Run { path } | RoundAct::Withdraw { path } => {
            st_mut(m, a).moved = true;
            let safe = matches!(act, RoundAct::Withdraw { .. }) && b.threat.withdraw_start_safe;
            tasks(m).push_back(Task::Walk { actor: a, rest: path.clone(), safe, kind: id.into(), provokes: row.provokes == Provokes::Movement });
        }
        RoundAct::Charge { target: tid, path } => {
            let t = m.index(tid).expect("validated");
            let path = if path.is_empty() { charge_path(m, a, t).unwrap_or_default() } else { path.clone() };
            let r = st_mut(m, a);
            r.moved = true;
            r.stepped = true; // A4-G-08: nothing else this round, no five-foot step either
            r.charged = true;
            tasks(m).push_back(Task::Walk { actor: a, rest: path, safe: false, kind: "charge".into(), provokes: row.provokes == Provokes::Movement });
            tasks(m).push_back(attack(t, b.movement.charge_attack_dice, "charge"));
        }
        RoundAct::Step { to } => {
            st_mut(m, a).stepped = true;
            let from = m.fighters[a].pos;
            m.fighters[a].pos = *to;
            ev.push(Event::Moved { actor: m.fighters[a].id.clone(), movement: "step".into(), from, to: *to, path: vec![*to] });
            // R-EXP-19: sight is tested after every space entered, in a crisis too.
            explore::reveal_path(m, a, &[], ev);
            // A4-G-18: a five-foot step into a holder's reach or range fires its hold too.
            for who in holders(m, a) {
                tasks(m).push_back(Task::OfferHeld { who, mover: a });
            }
        }
        RoundAct::StandUp => {
            st_mut(m, a).moved = true;
            if row.provokes == Provokes::Always {
                offer_aoos(m, a);
            }
            tasks(m).push_back(Task::Finish { actor: a, act: act.clone() });
        }
        RoundAct::DropProne => set_posture(m, a, Posture::Prone, ev),
        RoundAct::Attack { target: tid } => {
            let t = m.index(tid).expect("validated");
            if shot_provokes(m, a, row.provokes) {
                offer_aoos(m, a);
            }
            tasks(m).push_back(attack(t, 0, "attack"));
        }
        RoundAct::FullAttack { targets } => {
            let fa = full_attack_row(m, a);
            if shot_provokes(m, a, row.provokes) {
                offer_aoos(m, a);
            }
            for k in 0..fa.attacks as usize {
                let tid = targets.get(k).or(targets.last()).expect("validated");
                let t = m.index(tid).expect("validated");
                tasks(m).push_back(attack(t, -fa.penalty_dice, "full_attack"));
            }
        }
        RoundAct::FullDefense => {
            let pool = super::action_pool(m, a, &b.full_defense.skill, 0);
            let roll = dice.roll(pool.dice.max(0) as u32, b.pools.die, false, pool.pips);
            let fid = m.fighters[a].id.clone();
            let total = log_roll(ev, dice, &fid, "full_defense", roll);
            st_mut(m, a).full_defense = Some(total);
        }
        RoundAct::Reload => {
            if row.provokes == Provokes::Always {
                offer_aoos(m, a);
            }
            tasks(m).push_back(Task::Finish { actor: a, act: act.clone() });
        }
        RoundAct::Delay { initiative } => {
            let r = st_mut(m, a);
            r.initiative = *initiative;
            r.delayed = true;
            r.flat_footed = false;
            ev.push(Event::Note { text: format!("{} delays to initiative {initiative} (A4-3.15).", name(m, a)) });
            super::round::end_turn(m, a, ev);
        }
        RoundAct::EndTurn => st_mut(m, a).done = true,
        RoundAct::Hold { trigger } => {
            let r = st_mut(m, a);
            r.hold = Some(*trigger);
            r.flat_footed = false;
            r.done = true;
            ev.push(Event::Note { text: format!("{} holds its action for {} (A4-3.16).", name(m, a), trigger.describe()) });
            super::round::end_turn(m, a, ev);
        }
        RoundAct::MovingDefense { path } => {
            let pool = super::action_pool(m, a, &b.moving_defense.skill, 0);
            let roll = dice.roll(pool.dice.max(0) as u32, b.pools.die, false, pool.pips);
            let fid = m.fighters[a].id.clone();
            let total = log_roll(ev, dice, &fid, "moving_defense", roll);
            let r = st_mut(m, a);
            r.moving_defense = Some(total);
            r.moved = true;
            tasks(m).push_back(Task::Walk { actor: a, rest: path.clone(), safe: false, kind: id.into(), provokes: row.provokes == Provokes::Movement });
        }
        RoundAct::Draw | RoundAct::Sheathe => {
            if row.uses.contains(&Slot::Move) {
                st_mut(m, a).moved = true;
            }
            if row.provokes == Provokes::Always {
                offer_aoos(m, a);
            }
            tasks(m).push_back(Task::Finish { actor: a, act: act.clone() });
        }
        RoundAct::Stabilize { target: tid } => {
            let t = m.index(tid).expect("validated");
            super::super::healing::stop_bleeding(&mut m.fighters[t], "stabilized (A4-3.20)", ev);
            ev.push(Event::Note { text: format!("{} stabilizes {}: the bleeding stops until a new wound (A4-3.20).", name(m, a), name(m, t)) });
        }
        RoundAct::Speak { .. } => {} // logged in `apply`, before any slot is touched
        RoundAct::Mount | RoundAct::CastSpell { .. } => {}
        RoundAct::Door { at, open } => {
            explore::with_crawl(m, |m, x| explore::items::door(m, x, a, *at, *open, CRAWL, dice, ev));
        }
        RoundAct::Take { at, item } => {
            explore::with_crawl(m, |m, x| explore::items::take(m, x, a, *at, item, ev));
        }
        RoundAct::OpenChest { at } => {
            explore::with_crawl(m, |m, x| explore::items::open_chest_at(m, x, a, *at, CRAWL, dice, ev));
        }
        RoundAct::Drop { item } => {
            // A4-3.17: in a crawl the item lies in the square; elsewhere it is gone.
            let mut x = m.explore.take();
            explore::items::drop_item(m, x.as_deref_mut(), a, item, ev);
            m.explore = x;
        }
        RoundAct::UseItem { .. } => {
            if row.provokes == Provokes::Always {
                offer_aoos(m, a);
            }
            tasks(m).push_back(Task::Finish { actor: a, act: act.clone() });
        }
    }
}

fn set_posture(m: &mut Match, a: usize, to: Posture, ev: &mut Vec<Event>) {
    let f = &mut m.fighters[a];
    if f.posture != to {
        ev.push(Event::PostureChanged { actor: f.id.clone(), from: f.posture, to });
        f.posture = to;
    }
}

fn open_window(m: &mut Match, asked: usize, other: usize, reaction: &str, ev: &mut Vec<Event>) {
    m.pending = Some(PendingAttack {
        attacker: other,
        defender: asked,
        with: reaction.into(),
        melee: true,
        attack_adj: 0,
        damage_adj: 0,
        window: Some(Window::Reflex),
        is_reaction: reaction == OPPORTUNITY,
        shield_doubled: false,
        damage_dealt: 0,
        critical: None,
        resumes: None,
    });
    ev.push(Event::ReflexWindow { defender: m.fighters[asked].id.clone(), attacker: m.fighters[other].id.clone(), options: vec![reaction.into()] });
}

/// An answer to the open window (A4-4.1, A4-3.21).
fn answer(m: &mut Match, a: usize, reflex: Option<&String>, dice: &mut Dice, ev: &mut Vec<Event>) {
    let b = book(m).expect("an A4 match").clone();
    m.pending = None;
    let front = tasks(m).front().cloned();
    let aid = m.fighters[a].id.clone();
    match (front, reflex) {
        (Some(Task::OfferAoo { mover, .. }), Some(_)) => {
            tasks(m).pop_front();
            st_mut(m, a).aoo += 1;
            ev.push(Event::ReflexDeclared { actor: aid, reflex: OPPORTUNITY.into(), attacker: m.fighters[mover].id.clone() });
            tasks(m).push_front(Task::Attack(AttackSpec {
                attacker: a,
                defender: mover,
                dice: 0,
                why: "attack_of_opportunity".into(),
                opportunity: true,
                reacted: None,
                asked: false,
            }));
        }
        (Some(Task::OfferAoo { .. }), None) => {
            tasks(m).pop_front();
            ev.push(Event::ReactionDeclined { actor: aid });
        }
        (Some(Task::OfferHeld { mover, .. }), Some(_)) => {
            tasks(m).pop_front();
            let r = st_mut(m, a);
            r.hold = None;
            r.standard = true;
            r.counted += 1;
            let counted = r.counted;
            ev.push(Event::ReflexDeclared { actor: aid.clone(), reflex: HELD.into(), attacker: m.fighters[mover].id.clone() });
            ev.push(Event::SlotsUsed { actor: aid, act: "held_action".into(), slots: vec!["standard".into()], counted });
            tasks(m).push_front(Task::Attack(AttackSpec {
                attacker: a,
                defender: mover,
                dice: 0,
                why: "held_action".into(),
                opportunity: false,
                reacted: None,
                asked: false,
            }));
            // A4-G-23: a held shot made while threatened provokes like any other shot.
            let provokes = b.row("attack").map(|r| r.provokes).unwrap_or(Provokes::Never);
            if shot_provokes(m, a, provokes) {
                let pos = m.fighters[a].pos;
                for who in super::threateners(m, a, pos).into_iter().rev() {
                    tasks(m).push_front(Task::OfferAoo { who, mover: a });
                }
            }
        }
        (Some(Task::OfferHeld { .. }), None) => {
            tasks(m).pop_front();
            ev.push(Event::ReactionDeclined { actor: aid });
        }
        (Some(Task::Attack(mut spec)), Some(_)) => {
            ev.push(Event::ReflexDeclared { actor: aid.clone(), reflex: REACTIVE.into(), attacker: m.fighters[spec.attacker].id.clone() });
            // A4-G-21: thrown with the pool offered, before this defence's own cost counts
            let pool = super::reactive_pool(m, a, spec.attacker).unwrap_or(super::pool::Pool { dice: 1, pips: 0 });
            let roll = dice.roll(pool.dice.max(0) as u32, b.pools.die, false, pool.pips);
            spec.reacted = Some(log_roll(ev, dice, &aid, "reactive_defense", roll));
            spec.asked = true;
            let r = st_mut(m, a);
            r.reactive += 1;
            if r.done {
                r.penalty_next += b.reactive_defense.own_penalty_dice;
            } else {
                r.penalty_now += b.reactive_defense.own_penalty_dice;
            }
            if let Some(Task::Attack(s)) = tasks(m).front_mut() {
                *s = spec;
            }
        }
        (Some(Task::Attack(_)), None) => {
            ev.push(Event::ReactionDeclined { actor: aid });
        }
        _ => {}
    }
}

/// Plays the queued steps until one needs an answer (a window opens) or none are left.
/// Returns true while waiting for an answer.
pub fn run_tasks(m: &mut Match, dice: &mut Dice, ev: &mut Vec<Event>) -> bool {
    for _ in 0..100_000 {
        if m.pending.as_ref().is_some_and(|p| p.window.is_some()) {
            return true;
        }
        let Some(task) = m.a4.as_deref().and_then(|x| x.tasks.front().cloned()) else { return false };
        match task {
            Task::OfferAoo { who, mover } => {
                let b = book(m).expect("an A4 match");
                let ok = !m.is_dead(mover) && st(m, who).aoo < b.threat.aoo_per_round && super::threatens(m, who, m.fighters[mover].pos);
                if ok {
                    open_window(m, who, mover, OPPORTUNITY, ev);
                    return true;
                }
                tasks(m).pop_front();
            }
            Task::Attack(mut spec) => {
                let (a, t) = (spec.attacker, spec.defender);
                if m.is_dead(t) || !m.can_act(a) || m.is_dead(a) {
                    tasks(m).pop_front();
                    continue;
                }
                if super::target_number(m, a, t).is_none() {
                    ev.push(Event::AttackCancelled {
                        actor: m.fighters[a].id.clone(),
                        target: m.fighters[t].id.clone(),
                        reason: "out of reach, range or sight (A4-3.1)".into(),
                    });
                    tasks(m).pop_front();
                    continue;
                }
                if !spec.asked {
                    spec.asked = true;
                    ev.push(Event::AttackDeclared {
                        actor: m.fighters[a].id.clone(),
                        target: m.fighters[t].id.clone(),
                        action: spec.why.clone(),
                        melee: m.equipment.wielded(&m.fighters[a]).is_melee(),
                        reaction: spec.opportunity,
                    });
                    let can_react = super::reactive_pool(m, t, a).is_ok();
                    if let Some(Task::Attack(s)) = tasks(m).front_mut() {
                        *s = spec.clone();
                    }
                    if can_react {
                        open_window(m, t, a, REACTIVE, ev);
                        return true;
                    }
                }
                tasks(m).pop_front();
                resolve(m, dice, &spec, ev);
            }
            Task::OfferHeld { who, mover } => {
                let ok = st(m, who).hold.is_some() && m.can_act(who) && m.can_act(mover) && !m.is_dead(mover) && check_attack(m, who, mover).is_ok();
                if ok {
                    open_window(m, who, mover, HELD, ev);
                    return true;
                }
                tasks(m).pop_front();
            }
            Task::Walk { actor, rest, safe, kind, provokes } => {
                tasks(m).pop_front();
                walk(m, actor, rest, safe || !provokes, provokes, &kind, ev);
            }
            Task::Finish { actor, act } => {
                tasks(m).pop_front();
                if m.can_act(actor) && !m.is_dead(actor) {
                    match act {
                        RoundAct::StandUp => set_posture(m, actor, Posture::Standing, ev),
                        RoundAct::Reload => {
                            m.fighters[actor].loadout.loaded = true;
                            ev.push(Event::Note { text: format!("{} reloads.", name(m, actor)) });
                        }
                        RoundAct::Draw | RoundAct::Sheathe => {
                            let drawn = matches!(act, RoundAct::Draw);
                            st_mut(m, actor).sheathed = !drawn;
                            ev.push(Event::Note { text: format!("{} {} its weapon (A4-3.7).", name(m, actor), if drawn { "draws" } else { "sheathes" }) });
                        }
                        RoundAct::UseItem { item, target } => {
                            let at = target.as_deref().and_then(|t| m.index(t)).map_or(m.fighters[actor].pos, |t| m.fighters[t].pos);
                            explore::items::use_item(m, actor, at, &item, CRAWL, dice, ev);
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    false
}

/// Walks `rest`, stopping before a step out of a threatened square to offer the attacks of
/// opportunity it draws (A4-4.1, A4-G-23); the rest of the walk is queued after them.
fn walk(m: &mut Match, a: usize, rest: Vec<Pos>, mut safe: bool, provokes: bool, kind: &str, ev: &mut Vec<Event>) {
    let from = m.fighters[a].pos;
    let mut walked = Vec::new();
    for (k, &next) in rest.iter().enumerate() {
        if !m.can_act(a) || m.is_dead(a) {
            break;
        }
        if !safe {
            let here = m.fighters[a].pos;
            let th = super::threateners(m, a, here);
            if !th.is_empty() {
                moved(m, a, from, &walked, kind, ev);
                tasks(m).push_front(Task::Walk { actor: a, rest: rest[k..].to_vec(), safe: true, kind: kind.into(), provokes });
                for who in th.into_iter().rev() {
                    tasks(m).push_front(Task::OfferAoo { who, mover: a });
                }
                return;
            }
        }
        if m.occupant(next).is_some_and(|o| o != a) {
            ev.push(Event::Note { text: format!("{} stops: {next} is taken.", name(m, a)) });
            break;
        }
        m.fighters[a].pos = next;
        walked.push(next);
        safe = !provokes;
        // R-EXP-19: sight is tested after every space entered (a crawl's crisis).
        explore::reveal_path(m, a, &[], ev);
        // A4-G-15: the squares of movement actually walked this turn (a move cut short counts
        // only what it covered).
        if matches!(kind, "move" | "run" | "withdraw") {
            st_mut(m, a).moved_squares += m.board.path_cost(&[next]);
        }
        // A4-3.16, A4-G-18: holders whose trigger this square fires strike before it goes on.
        let held = holders(m, a);
        if !held.is_empty() {
            moved(m, a, from, &walked, kind, ev);
            tasks(m).push_front(Task::Walk { actor: a, rest: rest[k + 1..].to_vec(), safe, kind: kind.into(), provokes });
            for who in held.into_iter().rev() {
                tasks(m).push_front(Task::OfferHeld { who, mover: a });
            }
            return;
        }
    }
    moved(m, a, from, &walked, kind, ev);
}

/// A4-3.16, A4-4.3, A4-G-18: the enemies of `mover` holding their action whose trigger its
/// square fires (in reach for a melee weapon; within base range and sight for a ranged one), in
/// initiative order.
pub fn holders(m: &Match, mover: usize) -> Vec<usize> {
    use super::book::Trigger;
    let at = m.fighters[mover].pos;
    let mut v: Vec<usize> = (0..m.fighters.len())
        .filter(|&x| x != mover && m.enemies(x, mover) && m.can_act(x) && !m.is_dead(x) && m.can_act(mover))
        .filter(|&x| match st(m, x).hold {
            Some(Trigger::EnemyEntersReach) => m.equipment.wielded(&m.fighters[x]).is_melee() && check_attack(m, x, mover).is_ok(),
            Some(Trigger::EnemyEntersRange) => match m.equipment.wielded(&m.fighters[x]) {
                Wielded::Ranged(r) => m.fighters[x].pos.distance(at) <= r.range && check_attack(m, x, mover).is_ok(),
                _ => false,
            },
            None => false,
        })
        .collect();
    v.sort_by_key(|&x| super::round::order_key(m, x));
    v
}

fn moved(m: &Match, a: usize, from: Pos, walked: &[Pos], kind: &str, ev: &mut Vec<Event>) {
    if let Some(&to) = walked.last() {
        ev.push(Event::Moved { actor: m.fighters[a].id.clone(), movement: kind.into(), from, to, path: walked.to_vec() });
    }
}

/// A4-6.2, A4-6.6, A4-7.1: throws the attack against its TN; on a hit, damage by margin band
/// less soak; a shot into melee that misses by no more than the melee penalty may hit another.
fn resolve(m: &mut Match, dice: &mut Dice, spec: &AttackSpec, ev: &mut Vec<Event>) {
    let b = book(m).expect("an A4 match").clone();
    let (a, t) = (spec.attacker, spec.defender);
    let Some((mut tn, parts)) = super::target_number(m, a, t) else { return };
    let adv = m.rules.options.conditions_adv;
    let cond: i32 = m.conditions.active(&m.fighters[a], adv).map(|r| r.attack).sum();
    // A4-G-23: an attack of opportunity is made at the full pool (no penalty dice of its own).
    let pool0 = if spec.opportunity {
        super::skill_pool(m, a, super::attack_skill(m, a)).plus_dice(spec.dice).floored(b.pools.min_action_dice, b.pools.max_dice)
    } else {
        super::action_pool(m, a, super::attack_skill(m, a), spec.dice)
    };
    let pool =
        super::pool::Pool::from_pips(pool0.total_pips(b.pools.pips_per_die) + cond, b.pools.pips_per_die).floored(b.pools.min_action_dice, b.pools.max_dice);
    if let Some(r) = spec.reacted {
        tn += r;
    }
    let ranged = !m.equipment.wielded(&m.fighters[a]).is_melee();
    let roll = dice.roll(pool.dice.max(0) as u32, b.pools.die, false, pool.pips);
    let aid = m.fighters[a].id.clone();
    let total = log_roll(ev, dice, &aid, "attack", roll);
    if ranged {
        let l = &mut m.fighters[a].loadout;
        if let Some(n) = l.ammo.as_mut() {
            *n = n.saturating_sub(1);
        }
        let crossbow = matches!(m.equipment.wielded(&m.fighters[a]), Wielded::Ranged(r) if r.hand_reload_brawn.is_some());
        if crossbow {
            m.fighters[a].loadout.loaded = false;
        }
    }
    let into_melee = parts.iter().find(|p| p.0 == "into melee").map_or(0, |p| p.1);
    hit_or_miss(m, dice, a, t, total, tn, &b, ev);
    // A4-7.1, A4-G-37: a stray shot
    if total < tn && into_melee > 0 && total >= tn - into_melee && !m.is_dead(t) {
        let at = m.fighters[t].pos;
        let near: Vec<usize> = (0..m.fighters.len())
            .filter(|&o| o != a && o != t && !m.is_dead(o) && m.fighters[o].pos.floor == at.floor && m.fighters[o].pos.distance(at) == 1)
            .collect();
        if !near.is_empty() {
            let k = dice.throw(near.len() as u32) as usize - 1;
            let s = near[k.min(near.len() - 1)];
            ev.push(Event::Note {
                text: format!(
                    "The shot goes astray toward {} (A4-7.1; d{} = {} among the {} next to {}).",
                    name(m, s),
                    near.len(),
                    k + 1,
                    near.len(),
                    name(m, t)
                ),
            });
            if let Some((tn_s, parts_s)) = super::target_number(m, a, s) {
                let tn_s = tn_s - parts_s.iter().find(|p| p.0 == "into melee").map_or(0, |p| p.1);
                let roll = dice.roll(pool.dice.max(0) as u32, b.pools.die, false, pool.pips);
                let total = log_roll(ev, dice, &aid, "stray_shot", roll);
                hit_or_miss(m, dice, a, s, total, tn_s, &b, ev);
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn hit_or_miss(m: &mut Match, dice: &mut Dice, a: usize, t: usize, total: i32, tn: i32, b: &A4Book, ev: &mut Vec<Event>) {
    let (aid, tid) = (m.fighters[a].id.clone(), m.fighters[t].id.clone());
    let margin = total - tn;
    let (outcome, raw, soak, dealt) = match b.band(margin).filter(|_| margin >= 0) {
        Some(band) => {
            let (n, sides, bonus) = super::weapon_damage(m, a);
            let roll = dice.roll(n, sides, false, bonus);
            let raw = log_roll(ev, dice, &aid, "damage", roll) + band.bonus;
            let s = super::soak(m, t);
            let s = if band.half_soak { s / 2 } else { s };
            (band.name.clone(), raw, s, (raw - s).max(0))
        }
        None => ("miss".to_string(), 0, 0, 0),
    };
    let before = m.fighters[t].hp;
    if dealt > 0 {
        super::super::attack::change_hp(m, t, -dealt, "a4_attack", ev);
        super::super::healing::rebleed(&mut m.fighters[t], before, ev);
    }
    ev.push(Event::AttackResolved {
        actor: aid,
        target: tid,
        defense_cr: tn,
        attack_total: total,
        margin,
        outcome,
        raw_damage: raw,
        reduction: soak,
        damage: before - m.fighters[t].hp.max(before - dealt),
        target_hp: m.fighters[t].hp,
    });
}

/// After a command: the acting figure's turn ends by itself when nothing is left to it but free
/// acts (every slot used and no five-foot step possible), or when it can no longer act.
fn settle_turn(m: &mut Match, _dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    if m.pending.as_ref().is_some_and(|p| p.window.is_some()) {
        return Flow::AwaitCommand;
    }
    if let Some(c) = m.clock.current {
        let r = st(m, c);
        let spent = r.standard && r.move_ && r.minor && (r.stepped || r.moved || m.fighters[c].posture == Posture::Prone);
        if spent || !m.can_act(c) || m.is_dead(c) {
            st_mut(m, c).done = true;
        }
    }
    super::round::advance(m, ev)
}
