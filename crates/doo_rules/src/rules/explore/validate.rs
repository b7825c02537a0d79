//! Orders checked (R-EXP-*): in Exploration Mode every order of a hero's minute (walk, doors,
//! tasks, items, camp, climb, follow, an attack order that starts a crisis); in a crawl's crisis
//! the door, item and lengthy-task orders (R-EXP-8, R-EXP-10). A refusal names the rule.

use super::super::actions::is_attack;
use super::super::command::Command;
use super::super::grid::{Pos, Tile};
use super::super::state::Match;
use super::super::violation::{RuleResult, Violation};
use super::orders;
use super::sight::{item_name, sees, view_of};
use super::state::{Acted, Explore, Lock, Task};

pub(super) fn refuse(rule: &str, text: impl Into<String>) -> Violation {
    Violation::new(rule, text)
}

/// Checks an order in Exploration Mode (R-EXP-1, R-EXP-3).
pub fn order(m: &Match, x: &Explore, a: usize, cmd: &Command) -> RuleResult<()> {
    let f = &m.fighters[a];
    // R-EXP-20 step 5, R-MANA-2: the Mana/Faith recovery choice is no order: made at any time,
    // by anyone, as in a crisis.
    if let Command::Recovery { .. } = cmd {
        return super::super::doo::validate::validate(m, a, cmd).map(|_| ());
    }
    if !x.is_explorer(m, a) {
        return Err(refuse("R-EXP-23", format!("{} does not act in Exploration Mode: only the heroes explore.", f.name)));
    }
    if m.is_dead(a) || !m.standing(a) || f.hp <= 0 {
        return Err(refuse("R-EXP-3", format!("{} is unable to act (stunned, incapacitated or dead).", f.name)));
    }
    let acted = x.acted.get(a).copied().unwrap_or_default();
    let left = x.moves_left(a);
    if let Some(&(h, p, left)) = x.busy.get(&a) {
        if !matches!(cmd, Command::EndTurn { .. } | Command::Wait { .. } | Command::Follow { .. } | Command::Take { .. } | Command::Drop { .. }) {
            let other = if h == a { p } else { h };
            return Err(refuse(
                "R-EXP-9",
                format!(
                    "{} is busy binding wounds with {} for {left} more turn{} (Wait aborts it, losing the progress).",
                    f.name,
                    m.fighters[other].name,
                    if left == 1 { "" } else { "s" }
                ),
            ));
        }
    }
    if let Some(k) = super::orders::sorting_of(x, a) {
        if !matches!(cmd, Command::EndTurn { .. } | Command::Wait { .. } | Command::Follow { .. } | Command::Take { .. } | Command::Drop { .. }) {
            let left = x.orders.sorting[k].left;
            return Err(refuse(
                "R-EXP-9",
                format!(
                    "{} is busy sorting the chest's loot for {left} more turn{} (Wait aborts it, losing the progress).",
                    f.name,
                    if left == 1 { "" } else { "s" }
                ),
            ));
        }
    }
    let used_up = || refuse("R-EXP-3", format!("{} has used his exploration action this turn: end the turn (Enter) for the next minute.", f.name));
    match cmd {
        Command::Walk { path, group, .. } => {
            if left == 0 {
                return Err(used_up());
            }
            check_walk(m, x, a, path, *group, left)
        }
        Command::Door { at, open, .. } => {
            if left == 0 {
                return Err(used_up());
            }
            check_door(m, x, a, *at, *open)
        }
        Command::Task { task, at, .. } => {
            if acted != Acted::No {
                return Err(refuse(
                    "R-EXP-3",
                    format!(
                        "{} has already {} this turn; a task takes the whole exploration action.",
                        f.name,
                        if acted == Acted::Done { "acted" } else { "moved" }
                    ),
                ));
            }
            check_task(m, x, a, *task, *at)
        }
        Command::Take { at, item, .. } => check_take(m, x, a, *at, item),
        Command::Drop { item, .. } => check_drop(m, a, item),
        Command::Assist { helped, .. } => {
            whole_action(m, x, a, "assisting")?;
            orders::check_assist(m, x, a, helped)
        }
        Command::Search { spaces, .. } => {
            whole_action(m, x, a, "a search")?;
            orders::check_search(m, x, a, spaces)
        }
        Command::Hand { to, item, .. } => {
            whole_action(m, x, a, "handing an item")?;
            orders::check_hand(m, x, a, to, item)
        }
        Command::Trade { with, trade, .. } => {
            whole_action(m, x, a, "trading")?;
            super::npc::check_trade(m, x, a, with, *trade)
        }
        Command::SortLoot { at, share, .. } => {
            whole_action(m, x, a, "sorting loot")?;
            orders::check_sort(m, x, a, *at, share)
        }
        Command::Use { item, target, .. } => {
            if acted != Acted::No {
                return Err(refuse("R-EXP-3", format!("{} has already acted this turn; using an item takes the whole exploration action.", f.name)));
            }
            check_use(m, x, a, item, target.as_deref())
        }
        Command::Wait { .. } => {
            if acted == Acted::Done && !x.busy.contains_key(&a) && orders::sorting_of(x, a).is_none() {
                return Err(used_up());
            }
            Ok(())
        }
        Command::Camp { .. } => check_camp(m, x),
        Command::Climb { .. } => {
            if acted != Acted::No {
                return Err(refuse("R-EXP-7", format!("{} has already acted this turn; climbing takes the whole exploration action.", f.name)));
            }
            check_climb(m, a)
        }
        Command::EndTurn { .. } => Ok(()),
        Command::Follow { leader, .. } => match leader {
            None => Ok(()),
            Some(l) => check_follow(m, x, a, l),
        },
        Command::Action { action, target: Some(t), .. } if m.rules.action(action).is_some_and(is_attack) => check_attack_order(m, x, a, t),
        _ => Err(refuse(
            "R-EXP-1",
            format!(
                "Exploration Mode: {} walks (up to {} spaces), opens doors, searches, picks locks, loots or waits; crisis actions wait for a crisis.",
                f.name, x.book.move_spaces
            ),
        )),
    }
}

/// R-EXP-3: an order that takes the whole exploration action.
fn whole_action(m: &Match, x: &Explore, a: usize, what: &str) -> RuleResult<()> {
    let acted = x.acted.get(a).copied().unwrap_or_default();
    if acted != Acted::No {
        let f = &m.fighters[a];
        let done = if acted == Acted::Done { "acted" } else { "moved" };
        return Err(refuse("R-EXP-3", format!("{} has already {done} this turn; {what} takes the whole exploration action.", f.name)));
    }
    Ok(())
}

/// R-EXP-5: a walk of at most `left` spaces, alone or leading his group, through spaces that
/// can be entered; only figures the side can see block the plan (the rest stop the walk).
fn check_walk(m: &Match, x: &Explore, a: usize, path: &[Pos], group: bool, left: u32) -> RuleResult<()> {
    let f = &m.fighters[a];
    if path.is_empty() {
        return Err(refuse("INPUT", "The walk has no spaces."));
    }
    let members: Vec<usize> = if group { x.groups.iter().find(|g| g.first() == Some(&a)).cloned().unwrap_or_else(|| vec![a]) } else { vec![a] };
    if group && members.len() > 1 && x.groups.iter().all(|g| g.first() != Some(&a)) {
        return Err(refuse("R-EXP-5", format!("{} does not lead a group.", f.name)));
    }
    let cost = m.board.path_cost(path);
    if cost > left {
        return Err(refuse(
            "R-EXP-5",
            format!(
                "An exploration move is at most {} spaces; this path is {cost}{}.",
                x.book.move_spaces,
                if left < x.book.move_spaces { format!(" and {} has {left} left", f.name) } else { String::new() }
            ),
        ));
    }
    let view = view_of(m, x, &f.side);
    let mut at = f.pos;
    // R-EXP-11: a closed door on the way is opened as part of the move (1 of its spaces); the
    // rest of the walk is checked with it open, and refused as a whole if any part is illegal.
    let mut opened: Option<super::super::grid::Board> = None;
    let mut doors = 0u32;
    for (k, &p) in path.iter().enumerate() {
        let board = opened.as_ref().unwrap_or(&m.board);
        let mut geometry = board.step_geometry(at, p);
        if geometry.is_err() && opens_on_the_way(m, x, a, p) {
            let mut b = board.clone();
            b.set_tile(p, Tile::DoorOpen);
            geometry = b.step_geometry(at, p);
            if geometry.is_ok() {
                opened = Some(b);
                doors += 1;
            }
        }
        if let Err(why) = geometry {
            let closed = matches!(m.board.tile(p), Some(Tile::DoorClosed | Tile::DoorLocked)) && !x.door(p).is_some_and(|d| d.hidden);
            if closed && !f.opens_doors {
                return Err(refuse("R-EXP-11", format!("Step {} of the walk: the door at {p} is closed, and {} cannot open doors.", k + 1, f.name)));
            }
            let why = if x.door(p).is_some_and(|d| d.hidden) {
                format!("{p} cannot be entered")
            } else if m.board.tile(p) == Some(Tile::DoorLocked) {
                format!("the door at {p} is locked (R-EXP-12)")
            } else {
                why
            };
            return Err(refuse(
                "R-EXP-5",
                format!("Step {} of the walk: {why} (walls and locked doors block; a closed door on the way is opened, R-EXP-11).", k + 1),
            ));
        }
        if x.chest_at(p).is_some() {
            return Err(refuse("R-EXP-15", format!("A chest fills {p}: walk around it.")));
        }
        // Only figures the side can see block the plan; the rest stop the walk when met.
        if let Some(o) = m.occupant(p).filter(|&o| !members.contains(&o) && view.figures.contains(&o)) {
            // G-02: allies are passed through, not ended on.
            if k + 1 == path.len() || m.fighters[o].side != f.side {
                return Err(refuse("G-02", format!("{} stands on {p}.", m.fighters[o].name)));
            }
        }
        at = p;
    }
    if cost + doors > left {
        return Err(refuse(
            "R-EXP-11",
            format!(
                "Each door opened on the way uses 1 space of the move: {} spaces with {doors} door{}, and {} has {left}.",
                cost + doors,
                if doors == 1 { "" } else { "s" },
                f.name
            ),
        ));
    }
    Ok(())
}

/// R-EXP-11, R-EXP-12: the door at `p` is one `a` opens as part of a walk: closed and found,
/// or locked and he carries its key.
pub(super) fn opens_on_the_way(m: &Match, x: &Explore, a: usize, p: Pos) -> bool {
    let door = x.door(p);
    if door.is_some_and(|d| d.hidden) || !m.fighters[a].opens_doors {
        return false;
    }
    match m.board.tile(p) {
        Some(Tile::DoorClosed) => true,
        Some(Tile::DoorLocked) => door.and_then(|d| d.lock.as_ref()).and_then(|l| l.key.as_deref()).is_some_and(|k| carried(m, a, k)),
        _ => false,
    }
}

/// R-EXP-8, R-HEAL-6: a healing item he carries, on himself or a living hero next to him.
fn check_use(m: &Match, x: &Explore, a: usize, item: &str, target: Option<&str>) -> RuleResult<()> {
    check_drop(m, a, item)?;
    if m.equipment.item(item).is_none_or(|i| i.heals.is_none()) {
        return Err(refuse("R-HEAL-6", format!("The {} has no use here.", item_name(m, x, item))));
    }
    if let Some(t) = target {
        let Some(ti) = m.index(t) else { return Err(refuse("INPUT", format!("There is no character with id '{t}'."))) };
        if m.is_dead(ti) || m.fighters[ti].pos.distance(m.fighters[a].pos) > 1 {
            return Err(refuse("G-24", format!("{} must be living and in the same or an adjacent space.", m.fighters[ti].name)));
        }
    }
    Ok(())
}

/// R-EXP-22: the level allows a camp, nobody bleeds, and no hostile able to act is in sight.
fn check_camp(m: &Match, x: &Explore) -> RuleResult<()> {
    if !x.camp_allowed {
        return Err(refuse("R-EXP-22", "This level does not let the party camp."));
    }
    if let Some(s) = x.orders.sorting.first() {
        let who = m.fighters[s.members[0]].name.as_str();
        return Err(refuse("R-EXP-9", format!("{who} is sorting a chest's loot: finish it, or stop it (Wait), before camping.")));
    }
    if let Some(h) = (0..m.fighters.len()).find(|&i| x.is_explorer(m, i) && !m.is_dead(i) && m.fighters[i].has_condition("bleeding")) {
        return Err(refuse("R-EXP-22", format!("{} is bleeding: stop the bleeding before camping.", m.fighters[h].name)));
    }
    let heroes: Vec<usize> = (0..m.fighters.len()).filter(|&i| x.is_explorer(m, i) && !m.is_dead(i)).collect();
    let watcher = (0..m.fighters.len()).find(|&n| {
        !x.is_explorer(m, n) && !x.peaceful(n) && m.standing(n) && m.fighters[n].hp > 0 && heroes.iter().any(|&h| sees(m, x, n, h) || sees(m, x, h, n))
    });
    if let Some(n) = watcher {
        return Err(refuse("R-EXP-22", format!("{} is able to act and in sight: no camp here.", m.fighters[n].name)));
    }
    Ok(())
}

/// R-EXP-7: he stands on stairs or a ladder whose other end is free.
fn check_climb(m: &Match, a: usize) -> RuleResult<()> {
    let f = &m.fighters[a];
    let Some(dest) = m.board.stairs_destination(f.pos).filter(|d| m.board.walkable(*d)) else {
        return Err(refuse("R-EXP-7", format!("{} does not stand on stairs or a ladder.", f.name)));
    };
    if let Some(o) = m.occupant(dest) {
        return Err(refuse("G-02", format!("{} stands where the stairs arrive ({dest}).", m.fighters[o].name)));
    }
    Ok(())
}

/// R-EXP-4: he follows another living hero.
fn check_follow(m: &Match, x: &Explore, a: usize, leader: &str) -> RuleResult<()> {
    let f = &m.fighters[a];
    let Some(li) = m.index(leader) else { return Err(refuse("INPUT", format!("There is no character with id '{leader}'."))) };
    if li == a {
        return Err(refuse("R-EXP-4", format!("{} cannot follow himself.", f.name)));
    }
    if !x.is_explorer(m, li) || m.is_dead(li) {
        return Err(refuse("R-EXP-4", format!("{} can only follow a living hero.", f.name)));
    }
    Ok(())
}

/// R-EXP-24 (c): an attack order on an NPC not yet fighting starts the crisis.
fn check_attack_order(m: &Match, x: &Explore, a: usize, t: &str) -> RuleResult<()> {
    let f = &m.fighters[a];
    let Some(ti) = m.index(t) else { return Err(refuse("INPUT", format!("There is no character with id '{t}'."))) };
    if x.is_explorer(m, ti) || m.is_dead(ti) {
        return Err(refuse("R-EXP-24", format!("{} attacks only someone not of the party.", f.name)));
    }
    if !sees(m, x, a, ti) {
        return Err(refuse("R-EXP-19", format!("{} does not see {}: one attacks only whom one sees.", f.name, m.fighters[ti].name)));
    }
    Ok(())
}

/// R-CP-16, R-EXP-25: in a crawl's crisis a non-hostile NPC (outside it) is not attacked; the
/// attack order that makes his encounter hostile is given in Exploration Mode (R-EXP-24c).
pub fn not_at_peace(m: &Match, x: &Explore, cmd: &Command) -> RuleResult<()> {
    let Command::Action { action, target: Some(t), .. } = cmd else { return Ok(()) };
    let attack = m.rules.action(action).is_some_and(is_attack) || action == "cast_spell";
    match m.index(t) {
        Some(ti) if attack && x.peaceful(ti) && !x.is_explorer(m, ti) => {
            Err(refuse("R-CP-16", format!("{} is not hostile and takes no part in this crisis.", m.fighters[ti].name)))
        }
        _ => Ok(()),
    }
}

pub(super) use super::orders::carried;

pub fn check_door(m: &Match, x: &Explore, a: usize, at: Pos, open: bool) -> RuleResult<()> {
    let f = &m.fighters[a];
    let tile = m.board.tile(at);
    let is_door = matches!(tile, Some(Tile::DoorOpen | Tile::DoorClosed | Tile::DoorLocked)) && !x.door(at).is_some_and(|d| d.hidden);
    if !is_door {
        return Err(refuse("R-EXP-11", format!("There is no door at {at}.")));
    }
    if !f.opens_doors {
        return Err(refuse("R-EXP-11", format!("{} cannot open or close doors (his stat block says `opens_doors: false`).", f.name)));
    }
    if f.pos.distance(at) != 1 {
        return Err(refuse("R-EXP-11", format!("{} must stand next to the door at {at} to {} it.", f.name, if open { "open" } else { "close" })));
    }
    match (open, tile) {
        (true, Some(Tile::DoorOpen)) => Err(refuse("R-EXP-11", format!("The door at {at} is already open."))),
        (false, Some(Tile::DoorClosed | Tile::DoorLocked)) => Err(refuse("R-EXP-11", format!("The door at {at} is already closed."))),
        (false, _) if m.occupant(at).is_some() => Err(refuse("R-EXP-11", format!("Someone stands in the doorway at {at}: it cannot be closed."))),
        (true, Some(Tile::DoorLocked)) => {
            let lock = x.door(at).and_then(|d| d.lock.as_ref());
            match lock.and_then(|l| l.key.as_deref()) {
                Some(k) if carried(m, a, k) => Ok(()),
                key => Err(refuse(
                    "R-EXP-12",
                    format!(
                        "The door at {at} is locked: {}pick the lock (Disable) or force it (Lift/Shift).",
                        key.map(|k| format!("the {} opens it, or ", x.keys.get(k).map_or(k, |s| s.as_str()))).unwrap_or_default()
                    ),
                )),
            }
        }
        _ => Ok(()),
    }
}

/// The lock a task works on at `at`: a locked door's or a locked chest's.
pub(super) fn lock_at<'a>(m: &Match, x: &'a Explore, at: Pos) -> Option<&'a Lock> {
    if m.board.tile(at) == Some(Tile::DoorLocked) {
        return x.door(at).filter(|d| !d.hidden).and_then(|d| d.lock.as_ref());
    }
    x.chest_at(at).and_then(|c| x.chests[c].lock.as_ref())
}

pub fn check_task(m: &Match, x: &Explore, a: usize, task: Task, at: Pos) -> RuleResult<()> {
    let f = &m.fighters[a];
    match task {
        Task::Search => Ok(()),
        Task::UseItem => Err(refuse("R-EXP-8", "Use an item with its own order (`use`).")),
        Task::Assist => Err(refuse("R-CHK-7", "Assist with its own order (`assist`).")),
        Task::Hand => Err(refuse("R-EXP-8", "Hand an item with its own order (`hand`).")),
        Task::Trade => Err(refuse("R-CP-16", "Trade with its own order (`trade`).")),
        Task::SortLoot => Err(refuse("R-EXP-15", "Sort a chest's loot with its own order (`sort_loot`).")),
        Task::Stabilize => orders::check_stabilize(m, a, at),
        Task::Check => orders::check_level_check(m, x, a, at),
        Task::Bind => {
            let Some(p) = m.occupant(at).filter(|&p| x.is_explorer(m, p) && !m.is_dead(p)) else {
                return Err(refuse("R-EXP-21", format!("No hero to bind at {at}.")));
            };
            let pf = &m.fighters[p];
            if f.pos.distance(at) > 1 {
                return Err(refuse("R-EXP-21", format!("{} must be next to {}.", f.name, pf.name)));
            }
            if pf.hp >= pf.max_hp || !x.hurt_in_crisis.contains(&p) {
                return Err(refuse("R-HEAL-5", format!("{} has no wounds from the last crisis to bind.", pf.name)));
            }
            if x.last_crisis_end.is_none_or(|e| x.minute > e + x.book.binding.within_minutes) {
                return Err(refuse(
                    "R-EXP-21",
                    format!("Binding must begin within {} minutes of the crisis that hurt {}.", x.book.binding.within_minutes, pf.name),
                ));
            }
            if pf.has_condition("bleeding") {
                return Err(refuse("R-EXP-21", format!("{} is bleeding: stabilize first.", pf.name)));
            }
            if x.bound.contains(&p) {
                return Err(refuse("R-HEAL-5", format!("{}'s wounds have been bound once since that crisis: once per crisis.", pf.name)));
            }
            if p != a && (x.busy.contains_key(&p) || x.acted[p] != Acted::No) && m.standing(p) && pf.hp > 0 {
                return Err(refuse("R-EXP-21", format!("{} is not free this turn: patient and healer are both busy.", pf.name)));
            }
            Ok(())
        }
        Task::Light => {
            if x.burning.contains_key(&a) {
                return Err(refuse("R-EXP-18", format!("{} already holds a burning light.", f.name)));
            }
            if !x.book.lights.iter().any(|l| carried(m, a, &l.item)) {
                return Err(refuse("R-EXP-18", format!("{} carries no torch or lantern.", f.name)));
            }
            Ok(())
        }
        Task::PutOut => check_put_out(m, x, a, at),
        Task::Speak => super::npc::check_speak(m, x, a, at),
        Task::PickLock | Task::Force => {
            if f.pos.distance(at) != 1 {
                return Err(refuse(if task == Task::Force { "R-EXP-13" } else { "R-EXP-12" }, format!("{} must stand next to {at}.", f.name)));
            }
            let lock = lock_at(m, x, at).ok_or_else(|| refuse("R-EXP-12", format!("Nothing at {at} is locked.")))?;
            if task == Task::PickLock && lock.jammed {
                return Err(refuse("R-EXP-12", format!("The lock at {at} is jammed: only its key or force opens it now.")));
            }
            Ok(())
        }
        Task::Disarm => {
            if f.pos.distance(at) > 1 {
                return Err(refuse("R-EXP-17", format!("{} must be at most 1 space from the trap at {at}.", f.name)));
            }
            match x.traps.iter().find(|t| t.pos == at && !t.spent && !t.hidden) {
                Some(_) => Ok(()),
                None => Err(refuse("R-EXP-17", format!("No known trap at {at}."))),
            }
        }
        Task::OpenChest => {
            let c = x.chest_at(at).ok_or_else(|| refuse("R-EXP-15", format!("There is no chest at {at}.")))?;
            if f.pos.distance(at) != 1 {
                return Err(refuse("R-EXP-15", format!("{} must stand next to the chest at {at}.", f.name)));
            }
            let chest = &x.chests[c];
            if chest.open {
                return Err(refuse("R-EXP-15", format!("The chest at {at} is already open.")));
            }
            if let Some(l) = &chest.lock {
                if !l.key.as_deref().is_some_and(|k| carried(m, a, k)) {
                    return Err(refuse(
                        "R-EXP-12",
                        format!("The chest at {at} is locked: pick the lock or force it{}.", if l.key.is_some() { ", or bring its key" } else { "" }),
                    ));
                }
            }
            Ok(())
        }
    }
}

/// R-EXP-18: the light he holds (`at` his own space) or one lying at distance ≤ 1 is burning.
pub(super) fn check_put_out(m: &Match, x: &Explore, a: usize, at: Pos) -> RuleResult<()> {
    let f = &m.fighters[a];
    if at == f.pos && x.burning.contains_key(&a) {
        return Ok(());
    }
    if f.pos.distance(at) > 1 {
        return Err(refuse("R-EXP-18", format!("{} can put out only his own light or one lying in his space or next to it.", f.name)));
    }
    if !x.more.lit.iter().any(|(p, _, _)| *p == at) {
        return Err(refuse("R-EXP-18", format!("No light burns at {at}{}.", if at == f.pos { " and he holds none" } else { "" })));
    }
    Ok(())
}

pub fn check_take(m: &Match, x: &Explore, a: usize, at: Pos, item: &str) -> RuleResult<()> {
    let f = &m.fighters[a];
    if f.pos.distance(at) > 1 {
        return Err(refuse("R-EXP-15", format!("{} can take items only from his space or one next to it.", f.name)));
    }
    let in_chest = x.chest_at(at).is_some_and(|c| x.chests[c].open && x.chests[c].items.iter().any(|i| i == item));
    let on_floor = x.items.iter().any(|(p, i)| *p == at && i == item);
    if !in_chest && !on_floor {
        return Err(refuse(
            "R-EXP-15",
            format!("There is no {item} to take at {at}{}.", if x.chest_at(at).is_some_and(|c| !x.chests[c].open) { " (open the chest first)" } else { "" }),
        ));
    }
    // R-EXP-18: a burning light taken keeps burning in his hand; he holds one at most.
    let unlit_there =
        in_chest || x.items.iter().filter(|(p, i)| *p == at && i == item).count() > x.more.lit.iter().filter(|l| l.0 == at && l.1 == item).count();
    if !unlit_there && x.burning.contains_key(&a) {
        return Err(refuse("R-EXP-18", format!("{} already holds a burning light: put it out or drop it first.", f.name)));
    }
    Ok(())
}

pub fn check_drop(m: &Match, a: usize, item: &str) -> RuleResult<()> {
    let l = &m.fighters[a].loadout;
    // R-EXP-8, R-EXP-15: the wielded weapon or the shield may be dropped too; R-EXP-18: the
    // burning light in his hand too (it goes on burning there).
    let burning = m.explore.as_deref().and_then(|x| x.burning.get(&a)).is_some_and(|(i, _)| i == item);
    if !carried(m, a, item) && l.weapon.as_deref() != Some(item) && l.shield.as_deref() != Some(item) && !burning {
        return Err(refuse("R-EXP-15", format!("{} carries no {item}.", m.fighters[a].name)));
    }
    Ok(())
}
