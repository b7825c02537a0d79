//! The AI explorer (§24): plays the heroes of a crawl in Exploration Mode. The party moves as
//! one group behind its leader toward, in order: an exit it has seen; loot it has seen (open
//! chests, items); the nearest unseen part of the map. Closed doors on the way are opened,
//! locked ones picked (forced once jammed), known traps walked around, or disarmed when the way
//! leads only through them (`Party::disarm`). With
//! nothing left to explore it searches next to walls nobody has searched, then ends turns.
//! Only what the side has seen is used (`explore::side_view`); every order is validated.

use super::config::AiConfig;
use super::party::{self, potion_of};
use super::paths::{route, walk_prefix};
use crate::rules::command::Command;
use crate::rules::engine;
use crate::rules::explore::{self, Acted, Explore, Task};
use crate::rules::grid::{Pos, Tile};
use crate::rules::state::Match;

/// The explorer who gives the next order, if the AI plays one.
pub fn who_explores(m: &Match, cfg: &AiConfig) -> Option<usize> {
    explore::next_hero(m, None, |i| cfg.controls(m, i).is_some())
}

/// A test of a space (seen, passable …).
type Test<'t> = &'t dyn Fn(Pos) -> bool;

fn ok(m: &Match, c: &Command) -> bool {
    engine::validate(m, c).is_ok()
}

/// The next exploration order for hero `a`.
pub fn decide(m: &Match, a: usize, cfg: &AiConfig) -> Command {
    let id = m.fighters[a].id.clone();
    let end = Command::EndTurn { actor: id.clone() };
    let Some(x) = m.explore.as_deref() else { return end };
    // Everyone follows one leader (free orders first).
    let leader = x.groups.iter().filter_map(|g| g.first().copied()).find(|&l| !m.is_dead(l) && m.standing(l) && m.fighters[l].hp > 0);
    let Some(leader) = leader else { return end };
    if let Some(c) = gather(m, x, leader) {
        return c;
    }
    let lid = m.fighters[leader].id.clone();
    // Healing: a hero down (or below half HP) gets a potion from anyone next to him.
    let hurt: Vec<usize> = (0..m.fighters.len())
        .filter(|&i| x.is_explorer(m, i) && !m.is_dead(i) && (m.fighters[i].hp <= 0 || m.fighters[i].hp * 2 < m.fighters[i].max_hp))
        .collect();
    if let Some(c) = give_potions(m, x, &hurt) {
        return c;
    }
    // The party's crawl orders (`party.rs`): a potion handed to the hurt, a chest's loot sorted
    // and shared out, a lock's check assisted.
    let p = &cfg.book.party;
    if let Some(c) = party::hand(m, x, p).or_else(|| party::sort_loot(m, x, p, leader)) {
        return c;
    }
    if let Some(c) = take_loot(m, x, leader) {
        return c;
    }
    if let Some(c) = party::assist(m, x, p) {
        return c;
    }
    // R-EXP-20: a handed item goes to whoever stands in the receiver's space at the end of the
    // turn, so the party stays put meanwhile (the giver's action is spent anyway).
    if x.acted[leader] == Acted::Done || x.tasks.iter().any(|t| t.1 == Task::Hand) {
        return Command::EndTurn { actor: lid };
    }
    go_on(m, x, cfg, leader, &hurt)
}

/// The heroes not yet behind the leader follow him.
fn gather(m: &Match, x: &Explore, leader: usize) -> Option<Command> {
    for g in &x.groups {
        for &i in g {
            if i != leader && !m.is_dead(i) && !x.groups.iter().any(|g| g.first() == Some(&leader) && g.contains(&i)) {
                let c = Command::Follow { actor: m.fighters[i].id.clone(), leader: Some(m.fighters[leader].id.clone()) };
                if ok(m, &c) {
                    return Some(c);
                }
            }
        }
    }
    None
}

/// A hurt hero gets a potion from a hero next to him who has not acted.
fn give_potions(m: &Match, x: &Explore, hurt: &[usize]) -> Option<Command> {
    for &p in hurt {
        for h in (0..m.fighters.len()).filter(|&h| x.is_explorer(m, h) && x.acted[h] == Acted::No && m.fighters[h].pos.distance(m.fighters[p].pos) <= 1) {
            if let Some(item) = potion_of(m, h) {
                let c = Command::Use { actor: m.fighters[h].id.clone(), item, target: (h != p).then(|| m.fighters[p].id.clone()) };
                if ok(m, &c) {
                    return Some(c);
                }
            }
        }
    }
    None
}

/// Loot within the leader's reach: take it (free).
fn take_loot(m: &Match, x: &Explore, leader: usize) -> Option<Command> {
    let lid = m.fighters[leader].id.clone();
    let here = m.fighters[leader].pos;
    for dy in -1..=1 {
        for dx in -1..=1 {
            let p = Pos::on(here.x + dx, here.y + dy, here.floor);
            if let Some(c) = x.chest_at(p).filter(|&c| x.chests[c].open && !x.orders.sorting.iter().any(|s| s.chest == c)) {
                if let Some(item) = x.chests[c].items.first() {
                    let cmd = Command::Take { actor: lid.clone(), at: p, item: item.clone() };
                    if ok(m, &cmd) {
                        return Some(cmd);
                    }
                }
            }
            if let Some((_, item)) = x.items.iter().find(|(q, _)| *q == p) {
                let cmd = Command::Take { actor: lid.clone(), at: p, item: item.clone() };
                if ok(m, &cmd) {
                    return Some(cmd);
                }
            }
        }
    }
    None
}

/// The leader's way on, by what his side has seen: a light in the dark, a camp when hurt, a
/// potion carried to a hero down, then a seen exit, seen loot, the edge of the unseen.
fn go_on(m: &Match, x: &Explore, cfg: &AiConfig, leader: usize, hurt: &[usize]) -> Command {
    let lid = m.fighters[leader].id.clone();
    let here = m.fighters[leader].pos;
    let view = explore::side_view(m, &m.fighters[leader].side);
    let known = |p: Pos| m.board.index(p).is_some_and(|k| view.revealed[k]);
    let traps: Vec<Pos> = view.traps.clone();
    // Where to go: a seen exit, seen loot, the edge of the unseen.
    let exits: Vec<Pos> = cfg.exits.get(&m.fighters[leader].side).cloned().unwrap_or_default();
    let goal_exit: Vec<Pos> = exits.iter().copied().filter(|&p| known(p)).collect();
    let loot: Vec<Pos> = x
        .chests
        .iter()
        .filter(|c| known(c.pos) && (!c.open || !c.items.is_empty()))
        .map(|c| c.pos)
        .chain(x.items.iter().map(|i| i.0).filter(|&p| known(p)))
        .collect();
    let frontier: Vec<Pos> = frontier(m, &view.revealed, &view.hidden_doors);
    // R-EXP-11: a figure who cannot open doors is stopped by a closed one.
    let opener = |i: usize| m.fighters[i].opens_doors;
    let closed_door = |p: Pos| matches!(m.board.tile(p), Some(Tile::DoorClosed | Tile::DoorLocked));
    // R-EXP-16: the way avoids known traps (`crossing` lets them in, to be disarmed).
    let open_to = |p: Pos, crossing: bool| {
        known(p)
            && !view.hidden_doors.contains(&p)
            && (crossing || !traps.contains(&p))
            && x.chest_at(p).is_none()
            && m.occupant(p).is_none_or(|o| x.is_explorer(m, o) || !view.figures.contains(&o))
            && matches!(m.board.tile(p), Some(t) if t.walkable() || (opener(leader) && matches!(t, Tile::DoorClosed | Tile::DoorLocked)))
    };
    let passable = |p: Pos| open_to(p, false);
    // In the dark with no light burning: whoever carries a torch or lantern lights it (R-EXP-18).
    let group: Vec<usize> = x.groups.iter().find(|g| g.first() == Some(&leader)).cloned().unwrap_or_else(|| vec![leader]);
    if x.in_dark(here) && !group.iter().any(|i| x.burning.contains_key(i)) {
        for &i in &group {
            let c = Command::Task { actor: m.fighters[i].id.clone(), task: Task::Light, at: m.fighters[i].pos };
            if x.acted[i] == Acted::No && ok(m, &c) {
                return c;
            }
        }
    }
    // Hurt and safe, and not rested today: camp (R-EXP-22).
    let rested = |i: usize| x.recuperated.get(&i).is_some_and(|&t| x.minute < t + x.book.recuperation_every_minutes);
    if hurt.iter().any(|&p| !rested(p)) {
        let c = Command::Camp { actor: lid.clone() };
        if ok(m, &c) {
            return c;
        }
    }
    // A hero down and a potion carried by another hero able to act: the carrier goes to him
    // (and gives it next turn, above).
    let able = |i: usize| x.is_explorer(m, i) && !m.is_dead(i) && m.standing(i) && m.fighters[i].hp > 0;
    for &p in hurt.iter().filter(|&&p| m.fighters[p].hp <= 0) {
        let target = m.fighters[p].pos;
        for h in (0..m.fighters.len()).filter(|&h| h != p && able(h) && potion_of(m, h).is_some() && x.acted[h] != Acted::Done) {
            if m.fighters[h].pos.distance(target) <= 1 {
                // Next to him already: the potion goes at the start of the next turn.
                return Command::EndTurn { actor: lid };
            }
            let passable_h = |q: Pos| passable(q) && (opener(h) || !closed_door(q)) && m.occupant(q).is_none_or(|o| o == h || x.is_explorer(m, o));
            if let Some(path) = route(m, m.fighters[h].pos, &passable_h, &|q| q.distance(target) == 1) {
                if let Some(cmd) = walk_prefix(m, x, h, &path) {
                    return cmd;
                }
            }
        }
    }
    let goals = [goal_exit, loot, frontier];
    for targets in &goals {
        if targets.is_empty() {
            continue;
        }
        // Chests are reached by standing next to them.
        let near = |p: Pos| targets.iter().any(|&t| if x.chest_at(t).is_some() { t.distance(p) == 1 } else { t == p });
        let Some(path) = route(m, here, &passable, &near) else { continue };
        if let Some(cmd) = act_on_path(m, x, leader, &path, targets) {
            return cmd;
        }
    }
    // R-EXP-17: nothing reached without crossing a known trap: the way goes through the first
    // one, disarmed from the space before it (a trap sprung or disarmed is spent).
    if cfg.book.party.disarm && !traps.is_empty() {
        let crossing = |p: Pos| open_to(p, true);
        for targets in &goals {
            let near = |p: Pos| targets.iter().any(|&t| if x.chest_at(t).is_some() { t.distance(p) == 1 } else { t == p });
            let Some(path) = route(m, here, &crossing, &near) else { continue };
            if let Some(cmd) = cross_trap(m, x, leader, &path, &traps) {
                return cmd;
            }
        }
    }
    explore_further(m, x, leader, &known, &passable)
}

/// Nothing seen to go to: stairs to a floor with unseen spaces (R-EXP-7), then walls nobody
/// has searched; else the turn ends.
fn explore_further(m: &Match, x: &Explore, leader: usize, known: Test, passable: Test) -> Command {
    let lid = m.fighters[leader].id.clone();
    let here = m.fighters[leader].pos;
    // Stairs to a floor with unseen spaces (R-EXP-7): go there and climb.
    let unseen_floor = |f: u8| {
        let fl = &m.board.floors[f as usize];
        (0..fl.height as i32).any(|y| (0..fl.width as i32).any(|xx| m.board.walkable(Pos::on(xx, y, f)) && !known(Pos::on(xx, y, f))))
    };
    let good_stairs = |p: Pos| m.board.stairs_destination(p).is_some_and(|d| d.floor != p.floor && unseen_floor(d.floor) && m.occupant(d).is_none());
    if good_stairs(here) {
        let c = if x.acted[leader] == Acted::No { Command::Climb { actor: lid.clone() } } else { Command::EndTurn { actor: lid.clone() } };
        if ok(m, &c) {
            return c;
        }
    }
    if let Some(path) = route(m, here, passable, &good_stairs) {
        if let Some(cmd) = act_on_path(m, x, leader, &path, &[]) {
            return cmd;
        }
    }
    // Nothing to walk to: search walls nobody has searched, from the nearest spot.
    let unsearched_wall = |p: Pos| {
        (-1..=1).any(|dy| {
            (-1..=1).any(|dx| {
                let q = Pos::on(p.x + dx, p.y + dy, p.floor);
                matches!(m.board.tile(q), Some(Tile::Wall) | Some(Tile::DoorClosed)) && known(q) && m.board.index(q).is_some_and(|k| !x.searched[k])
            })
        })
    };
    if unsearched_wall(here) {
        let c = Command::Task { actor: lid.clone(), task: Task::Search, at: here };
        if ok(m, &c) {
            return c;
        }
    }
    if let Some(path) = route(m, here, passable, &|p| m.board.walkable(p) && unsearched_wall(p)) {
        if let Some(cmd) = walk_prefix(m, x, leader, &path) {
            return cmd;
        }
    }
    Command::EndTurn { actor: lid }
}

/// Revealed walkable spaces (or doors) next to an unrevealed space.
fn frontier(m: &Match, revealed: &[bool], hidden_doors: &[Pos]) -> Vec<Pos> {
    let mut out = Vec::new();
    for (fi, f) in m.board.floors.iter().enumerate() {
        for y in 0..f.height as i32 {
            for x in 0..f.width as i32 {
                let p = Pos::on(x, y, fi as u8);
                let Some(k) = m.board.index(p) else { continue };
                if !revealed[k] || hidden_doors.contains(&p) {
                    continue;
                }
                let t = m.board.tile(p);
                if !matches!(t, Some(t) if t.walkable() || matches!(t, Tile::DoorClosed | Tile::DoorLocked)) {
                    continue;
                }
                let edge = (-1..=1).any(|dy| (-1..=1).any(|dx| m.board.index(Pos::on(x + dx, y + dy, fi as u8)).is_some_and(|q| !revealed[q])));
                if edge {
                    out.push(p);
                }
            }
        }
    }
    out
}

/// The order that follows `path` this turn: walk its open part, open (or unlock) the door in
/// the way, pick or force a lock, open a chest at the end.
fn act_on_path(m: &Match, x: &Explore, a: usize, path: &[Pos], targets: &[Pos]) -> Option<Command> {
    let id = m.fighters[a].id.clone();
    let here = m.fighters[a].pos;
    if path.is_empty() {
        // At the goal: a chest next to him is opened (or its lock worked on).
        for &t in targets {
            if let Some(c) = x.chest_at(t).filter(|_| t.distance(here) == 1) {
                if !x.chests[c].open {
                    if x.acted[a] != Acted::No {
                        return Some(Command::EndTurn { actor: id }); // a task needs a fresh turn
                    }
                    return [Task::OpenChest, Task::PickLock, Task::Force].into_iter().map(|task| Command::Task { actor: id.clone(), task, at: t }).find(|c| {
                        ok(m, c)
                            && !(matches!(c, Command::Task { task: Task::PickLock, .. })
                                && x.chests[x.chest_at(t).unwrap_or(0)].lock.as_ref().is_some_and(|l| l.jammed))
                    });
                }
            }
        }
        return None;
    }
    let first = path[0];
    match m.board.tile(first) {
        Some(Tile::DoorClosed) => {
            let c = Command::Door { actor: id.clone(), at: first, open: true };
            return ok(m, &c).then_some(c);
        }
        Some(Tile::DoorLocked) => {
            let open = Command::Door { actor: id.clone(), at: first, open: true };
            if ok(m, &open) {
                return Some(open);
            }
            if x.acted[a] != Acted::No {
                return Some(Command::EndTurn { actor: id });
            }
            let jammed = x.door(first).and_then(|d| d.lock.as_ref()).is_some_and(|l| l.jammed);
            let task = if jammed || x.minute % 4 == 3 { Task::Force } else { Task::PickLock };
            let c = Command::Task { actor: id, task, at: first };
            return ok(m, &c).then_some(c);
        }
        _ => {}
    }
    walk_prefix(m, x, a, path)
}

/// The order that takes `path` up to its first known trap: walk (or open the door) to the space
/// before it, then disarm it (a task: a fresh turn). `None` when the path crosses no trap or
/// nothing on it can be done this turn.
fn cross_trap(m: &Match, x: &Explore, a: usize, path: &[Pos], traps: &[Pos]) -> Option<Command> {
    let k = path.iter().position(|p| traps.contains(p))?;
    let id = m.fighters[a].id.clone();
    if k > 0 {
        return act_on_path(m, x, a, &path[..k], &[]);
    }
    if x.acted[a] != Acted::No {
        return Some(Command::EndTurn { actor: id });
    }
    let c = Command::Task { actor: id, task: Task::Disarm, at: path[0] };
    ok(m, &c).then_some(c)
}

/// For tests and tools: every space the AI's side has revealed, by floor.
pub fn revealed_count(m: &Match, side: &str) -> usize {
    m.explore.as_deref().map_or(0, |x| x.fog.count(side))
}
