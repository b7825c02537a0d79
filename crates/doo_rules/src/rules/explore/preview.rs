//! What a hero may do now in a crawl, worked out by its rules: the spaces he can walk to
//! (R-EXP-5) and the exploration action bar (doors, locks, chests, items, traps, search, wait,
//! the group, the end of the turn); in a DoO crisis of a crawl, the door and lengthy-task entries
//! (R-EXP-8, R-EXP-10); and which hero gives the next order. Every entry was validated.

use super::super::command::Command;
use super::super::grid::{Pos, Tile};
use super::super::offer::{Aim, Choice, Destination, Group, MoveKind};
use super::super::state::Match;
use super::crisis_orders::in_crisis;
use super::preview_share::{Bar, sharing};
use super::sight::{item_name, sees, view_of};
use super::state::{Acted, Explore, Task};
use super::validate::{carried, lock_at, opens_on_the_way, order};
use std::collections::BTreeMap;

/// Spaces hero `a` can walk to with his move left (R-EXP-5), through spaces his side has
/// revealed, around the figures and chests it can see, with the path; every entry validated.
pub fn destinations(m: &Match, x: &Explore, a: usize) -> BTreeMap<Pos, Destination> {
    let mut out = BTreeMap::new();
    let left = x.moves_left(a);
    if left == 0 {
        return out;
    }
    let f = &m.fighters[a];
    let view = view_of(m, x, &f.side);
    let known = |p: Pos| m.board.index(p).is_some_and(|k| view.revealed[k]) && !view.hidden_doors.contains(&p);
    // G-02: allies are passed through (not ended on, below); other figures seen block.
    let blocked = |p: Pos| x.chest_at(p).is_some() || m.occupant(p).is_some_and(|o| o != a && view.figures.contains(&o) && m.fighters[o].side != f.side);
    let group = x.groups.iter().any(|g| g.first() == Some(&a) && g.len() > 1);
    // Dijkstra by movement cost over known spaces.
    let mut best: BTreeMap<Pos, (u32, Vec<Pos>)> = BTreeMap::new();
    let mut frontier = std::collections::BinaryHeap::new();
    frontier.push(std::cmp::Reverse((0u32, f.pos, Vec::<Pos>::new())));
    while let Some(std::cmp::Reverse((cost, p, path))) = frontier.pop() {
        if best.get(&p).is_some_and(|b| b.0 <= cost) && p != f.pos {
            continue;
        }
        if p != f.pos {
            best.insert(p, (cost, path.clone()));
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = Pos::on(p.x + dx, p.y + dy, p.floor);
                // R-EXP-11: a closed door entered straight on is opened on the way (1 space).
                let through = (q.x == p.x || q.y == p.y) && opens_on_the_way(m, x, a, q);
                if (dx, dy) == (0, 0) || !known(q) || blocked(q) || (m.board.step_geometry(p, q).is_err() && !through) {
                    continue;
                }
                let c = cost + m.board.path_cost(&[q]) + u32::from(through);
                if c <= left && best.get(&q).is_none_or(|b| b.0 > c) && q != f.pos {
                    let mut np = path.clone();
                    np.push(q);
                    frontier.push(std::cmp::Reverse((c, q, np)));
                }
            }
        }
    }
    for (p, (cost, path)) in best {
        if m.occupant(p).is_some_and(|o| o != a && view.figures.contains(&o)) {
            continue; // allies may be passed, not stood on
        }
        let command = Command::Walk { actor: f.id.clone(), path: path.clone(), group };
        if order(m, x, a, &command).is_err() {
            continue;
        }
        let label = format!("{} ({cost} of {} spaces)", if group { "Lead the group" } else { "Walk" }, x.book.move_spaces);
        let d = Destination { pos: p, kind: MoveKind::Walk, path, ap: 0, defense: 0, label, command, provokes: Vec::new(), threatened: Vec::new(), note: None };
        out.insert(p, d);
    }
    out
}

/// The exploration action bar of hero `a`: doors, locks, chests, items and traps within reach,
/// search, wait, the group, end of turn; each validated (the refusal shown when not open).
pub fn choices(m: &Match, x: &Explore, a: usize) -> Vec<Choice> {
    let f = &m.fighters[a];
    let mut bar = Bar { m, x, a, id: f.id.clone(), out: Vec::new() };
    let around: Vec<Pos> = (-1..=1)
        .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
        .filter(|&d| d != (0, 0))
        .map(|(dx, dy)| Pos::on(f.pos.x + dx, f.pos.y + dy, f.pos.floor))
        .collect();
    for &p in &around {
        doors_and_chests(&mut bar, p);
    }
    for p in around.iter().copied().chain([f.pos]) {
        loot_and_traps(&mut bar, p);
    }
    potions(&mut bar);
    lights_and_speech(&mut bar, &around);
    helping(&mut bar);
    sharing(&mut bar);
    let id = bar.id.clone();
    bar.push("Search".into(), "search", "1 turn", bar.task(Task::Search, f.pos), "R-EXP-14: 4 spaces next to him, for secret doors and traps.");
    bar.push("Wait".into(), "wait", "1 turn", Command::Wait { actor: id.clone() }, "R-EXP-3: his action this turn.");
    if x.groups.iter().any(|g| g.len() > 1 && g.contains(&a)) {
        let cmd = Command::Follow { actor: id.clone(), leader: None };
        bar.push("Leave the group".into(), "follow", "free", cmd, "R-EXP-4: he moves alone until he follows someone again.");
    } else if let Some(l) = x.groups.iter().filter(|g| !g.contains(&a)).filter_map(|g| g.first()).find(|&&l| x.is_explorer(m, l) && !m.is_dead(l)) {
        let cmd = Command::Follow { actor: id.clone(), leader: Some(m.fighters[*l].id.clone()) };
        bar.push(format!("Follow {}", m.fighters[*l].name), "follow", "free", cmd, "R-EXP-4: joins the end of that group's marching order.");
    }
    let end = Command::EndTurn { actor: id };
    bar.push("End the turn".into(), "end_turn", "1 minute", end, "R-EXP-20: tasks take effect, a minute passes; heroes who did nothing wait.");
    bar.out
}

/// The door at `p` (open, close, unlock with the key, pick, force) and a closed chest there.
fn doors_and_chests(bar: &mut Bar, p: Pos) {
    let (m, x, a) = (bar.m, bar.x, bar.a);
    let id = bar.id.clone();
    let hidden = x.door(p).is_some_and(|d| d.hidden);
    match m.board.tile(p) {
        Some(Tile::DoorClosed) if !hidden => {
            let cmd = Command::Door { actor: id.clone(), at: p, open: true };
            bar.push(format!("Open door {p}"), "open_door", "1 space", cmd, "R-EXP-11: opening uses 1 of the move's 6 spaces.");
        }
        Some(Tile::DoorOpen) => {
            let cmd = Command::Door { actor: id.clone(), at: p, open: false };
            bar.push(format!("Close door {p}"), "close_door", "1 space", cmd, "R-EXP-11: the doorway must be empty.");
        }
        Some(Tile::DoorLocked) if !hidden => {
            let key = x.door(p).and_then(|d| d.lock.as_ref()).and_then(|l| l.key.clone()).filter(|k| carried(m, a, k));
            if key.is_some() {
                let cmd = Command::Door { actor: id.clone(), at: p, open: true };
                bar.push(format!("Unlock and open door {p}"), "open_door", "1 space", cmd, "R-EXP-12: the key opens it for good.");
            }
            let pick = bar.task(Task::PickLock, p);
            bar.push(format!("Pick the lock {p}"), "pick_lock", "1 turn", pick, "R-EXP-12: a Disable check (Savvy) at the end of the turn.");
            let force = bar.task(Task::Force, p);
            bar.push(format!("Force door {p}"), "force", "1 turn", force, "R-EXP-13: a Lift/Shift check (Brawn) at the end of the turn.");
        }
        _ => {}
    }
    if let Some(c) = x.chest_at(p) {
        let ch = &x.chests[c];
        if !ch.open {
            let open = bar.task(Task::OpenChest, p);
            bar.push(format!("Open chest {p}"), "open_chest", "1 turn", open, "R-EXP-15: opened and surveyed at the end of the turn.");
            if ch.lock.is_some() {
                let pick = bar.task(Task::PickLock, p);
                bar.push(format!("Pick the chest's lock {p}"), "pick_lock", "1 turn", pick, "R-EXP-12");
                let force = bar.task(Task::Force, p);
                bar.push(format!("Force chest {p}"), "force", "1 turn", force, "R-EXP-13");
            }
        }
    }
}

/// What can be taken at `p` (an open chest's items, items on the floor) and a known trap there.
fn loot_and_traps(bar: &mut Bar, p: Pos) {
    let (m, x) = (bar.m, bar.x);
    let id = bar.id.clone();
    if let Some(c) = x.chest_at(p).filter(|&c| x.chests[c].open) {
        for item in &x.chests[c].items {
            let cmd = Command::Take { actor: id.clone(), at: p, item: item.clone() };
            bar.push(format!("Take {}", item_name(m, x, item)), "take", "free", cmd, "R-EXP-15: taking is free during any order.");
        }
    }
    for (q, item) in x.items.iter().filter(|(q, _)| *q == p) {
        let cmd = Command::Take { actor: id.clone(), at: *q, item: item.clone() };
        bar.push(format!("Pick up {}", item_name(m, x, item)), "take", "free", cmd, "R-EXP-15");
    }
    for t in x.traps.iter().filter(|t| t.pos == p && !t.hidden && !t.spent) {
        let cmd = bar.task(Task::Disarm, t.pos);
        bar.push(format!("Disarm trap {}", t.pos), "disarm", "1 turn", cmd, "R-EXP-17: a Disable check; failing by 3 or more springs it.");
    }
}

/// Lights (R-EXP-18): light one he carries, put out his own or one lying next to him; speech
/// and trade (R-CP-16): each non-hostile NPC he sees, and each trade he offers.
fn lights_and_speech(bar: &mut Bar, around: &[Pos]) {
    let (m, x, a) = (bar.m, bar.x, bar.a);
    let here = m.fighters[a].pos;
    match x.burning.get(&a) {
        Some((item, left)) => {
            let cmd = bar.task(Task::PutOut, here);
            bar.push(format!("Put out the {} ({left} min left)", item_name(m, x, item)), "put_out", "1 turn", cmd, "R-EXP-18: back into his pack, unlit.");
        }
        None => {
            if let Some(l) = x.book.lights.iter().find(|l| carried(m, a, &l.item)) {
                let cmd = bar.task(Task::Light, here);
                bar.push(format!("Light a {}", item_name(m, x, &l.item)), "light", "1 turn", cmd, "R-EXP-18: it burns from the end of the turn.");
            }
        }
    }
    for (p, item, _) in x.more.lit.iter().filter(|l| l.0 == here || around.contains(&l.0)) {
        let cmd = bar.task(Task::PutOut, *p);
        bar.push(format!("Put out the {} {p}", item_name(m, x, item)), "put_out", "1 turn", cmd, "R-EXP-18: it goes out where it lies.");
    }
    let mut offered = Vec::new(); // an encounter's trades once, with the first of it he sees
    for n in (0..m.fighters.len()).filter(|&n| x.peaceful(n) && !m.is_dead(n) && sees(m, x, a, n)) {
        let cmd = bar.task(Task::Speak, m.fighters[n].pos);
        bar.push(format!("Speak to {}", m.fighters[n].name), "speak", "1 turn", cmd, "R-CP-16: he answers at the end of the turn.");
        // R-CP-16: each trade he still offers (refused while the hero cannot pay).
        if offered.contains(&x.encounter_of[n]) {
            continue;
        }
        offered.push(x.encounter_of[n]);
        for (k, t) in super::npc::open_trades(x, n) {
            let cmd = Command::Trade { actor: bar.id.clone(), with: m.fighters[n].id.clone(), trade: k };
            let label = format!("Trade {} for {}", super::npc::items_text(m, x, &t.wants), item_name(m, x, &t.gives));
            bar.push(label, "trade", "1 turn", cmd, "R-CP-16: the items change hands at the end of the turn.");
        }
    }
}

/// His first healing item, for himself or each hurt hero next to him (R-HEAL-6).
fn potions(bar: &mut Bar) {
    let (m, x, a) = (bar.m, bar.x, bar.a);
    let f = &m.fighters[a];
    let potions: Vec<String> = f.loadout.items.iter().filter(|i| m.equipment.item(i).is_some_and(|it| it.heals.is_some())).cloned().collect();
    let Some(p) = potions.first() else { return };
    let hurt: Vec<usize> = (0..m.fighters.len())
        .filter(|&t| x.is_explorer(m, t) && !m.is_dead(t) && m.fighters[t].pos.distance(f.pos) <= 1 && m.fighters[t].hp < m.fighters[t].max_hp)
        .collect();
    for t in hurt {
        let target = (t != a).then(|| m.fighters[t].id.clone());
        let label = if t == a { format!("Drink {}", item_name(m, x, p)) } else { format!("Give {} to {}", item_name(m, x, p), m.fighters[t].name) };
        let cmd = Command::Use { actor: bar.id.clone(), item: p.clone(), target };
        bar.push(label, "use_item", "1 turn", cmd, "R-HEAL-6: heals at the end of the turn and stops bleeding.");
    }
}

/// Within reach: assist a neighbour's check ordered this turn (R-CHK-7), stabilize the bleeding
/// (R-EXP-21), the level's checks (R-EXP-8). Handing items, dropping the weapon and sorting
/// loot are in preview_share.rs; choosing a search's spaces is an order of scripts only.
fn helping(bar: &mut Bar) {
    let (m, x, a) = (bar.m, bar.x, bar.a);
    let f = &m.fighters[a];
    let id = bar.id.clone();
    for t in (0..m.fighters.len()).filter(|&t| !m.is_dead(t) && m.fighters[t].pos.distance(f.pos) <= 1) {
        let (name, pos) = (m.fighters[t].name.clone(), m.fighters[t].pos);
        if t != a && x.is_explorer(m, t) && x.tasks.iter().any(|k| k.0 == t) {
            let cmd = Command::Assist { actor: id.clone(), helped: m.fighters[t].id.clone() };
            bar.push(format!("Assist {name}"), "assist", "1 turn", cmd, "R-CHK-7: his check of the same skill adds to the other's.");
        }
        if m.fighters[t].has_condition("bleeding") {
            let cmd = bar.task(Task::Stabilize, pos);
            bar.push(format!("Stabilize {name}"), "stabilize", "1 turn", cmd, "R-EXP-21: first aid, a Healing check at the end of the turn.");
        }
    }
    for c in x.orders.checks.iter().filter(|c| c.pos.floor == f.pos.floor && c.pos.distance(f.pos) <= 1) {
        let cmd = bar.task(Task::Check, c.pos);
        let what = format!("{} (R-EXP-8: a {} check at the end of the turn)", c.text, c.skill.replace('_', " "));
        bar.push(format!("Examine {}", c.pos), "check", "1 turn", cmd, &what);
    }
}

/// A crawl's DoO crisis: the doors next to `a` as 1-AP actions (R-EXP-8, R-EXP-11) and the
/// lengthy tasks (R-EXP-10) for the action bar, each validated.
pub fn crisis_choices(m: &Match, x: &Explore, a: usize) -> Vec<Choice> {
    let f = &m.fighters[a];
    let mut out = Vec::new();
    for (p, open) in doors_next_to(m, x, a) {
        let cmd = Command::Door { actor: f.id.clone(), at: p, open };
        let refusal = in_crisis(m, x, a, &cmd).err();
        out.push(Choice {
            label: format!("{} door {p}", if open { "Open" } else { "Close" }),
            row: "door".into(),
            cost: "1 AP".into(),
            only: false,
            defense: 0,
            template: cmd,
            aim: Aim::None,
            refusal,
            description: "R-EXP-11: a 1-AP action; going through needs a later opportunity (R-AP-2).".into(),
            group: Group::Other,
            applies: true,
            warn: Vec::new(),
        });
    }
    // R-EXP-18, R-EXP-8: a light he carries is lit with the Use Item action, 3/Only, at once.
    if let Some(l) = x.book.lights.iter().find(|l| super::validate::carried(m, a, &l.item)).filter(|_| !x.burning.contains_key(&a)) {
        let cmd = Command::Task { actor: f.id.clone(), task: Task::Light, at: f.pos };
        let refusal = in_crisis(m, x, a, &cmd).err();
        out.push(Choice {
            label: format!("Light a {}", item_name(m, x, &l.item)),
            row: "use_item".into(),
            cost: "3 AP (X/Only)".into(),
            only: f.ap.start < 3,
            defense: 0,
            template: cmd,
            aim: Aim::None,
            refusal,
            description: "R-EXP-18: the Use Item action, 3/Only; it burns at once.".into(),
            group: Group::Other,
            applies: true,
            warn: Vec::new(),
        });
    }
    // R-EXP-10: lengthy tasks, 3/Only in three consecutive turns.
    let mut tasks = vec![(Task::Search, f.pos)];
    for dy in -1..=1 {
        for dx in -1..=1 {
            let p = Pos::on(f.pos.x + dx, f.pos.y + dy, f.pos.floor);
            if lock_at(m, x, p).is_some() {
                tasks.push((Task::PickLock, p));
                tasks.push((Task::Force, p));
            }
            if x.traps.iter().any(|t| t.pos == p && !t.hidden && !t.spent) {
                tasks.push((Task::Disarm, p));
            }
        }
    }
    for (task, at) in tasks {
        let cmd = Command::Task { actor: f.id.clone(), task, at };
        let refusal = in_crisis(m, x, a, &cmd).err();
        let done = x.crisis_tasks.get(&a).filter(|t| t.0 == task && t.1 == at && t.3 + 1 == m.clock.turn).map_or(0, |t| t.2);
        out.push(Choice {
            label: format!("{} {at} ({} of 3)", task.label(), done + 1),
            row: "lengthy_task".into(),
            cost: "3 AP (X/Only), 3 turns".into(),
            only: f.ap.start < 3,
            defense: 0,
            template: cmd,
            aim: Aim::None,
            refusal,
            description: "R-EXP-10: a 3/Only action in three consecutive turns; the check is rolled at the third.".into(),
            group: Group::Other,
            applies: true,
            warn: Vec::new(),
        });
    }
    out
}

/// The known doors next to `a`: `(space, open it?)` (closed or locked: open; open: close).
fn doors_next_to(m: &Match, x: &Explore, a: usize) -> Vec<(Pos, bool)> {
    let f = &m.fighters[a];
    let mut doors = Vec::new();
    for dy in -1..=1 {
        for dx in -1..=1 {
            let p = Pos::on(f.pos.x + dx, f.pos.y + dy, f.pos.floor);
            if (dx, dy) == (0, 0) || x.door(p).is_some_and(|d| d.hidden) {
                continue;
            }
            match m.board.tile(p) {
                Some(Tile::DoorClosed | Tile::DoorLocked) => doors.push((p, true)),
                Some(Tile::DoorOpen) => doors.push((p, false)),
                _ => {}
            }
        }
    }
    doors
}

/// The doors next to `a` (`(space, open it?)`), the loose items it could pick up and the closed
/// chests next to it, for the A4 bar (A4-3.9, A4-3.10); nothing outside a crawl.
pub fn reachable_doors_and_items(m: &Match, a: usize) -> (Vec<(Pos, bool)>, Vec<(Pos, String)>, Vec<Pos>) {
    let Some(x) = m.explore.as_deref() else { return (Vec::new(), Vec::new(), Vec::new()) };
    let f = &m.fighters[a];
    let doors = doors_next_to(m, x, a);
    let mut items: Vec<(Pos, String)> = x.items.iter().filter(|(p, _)| p.floor == f.pos.floor && p.distance(f.pos) <= 1).cloned().collect();
    for c in x.chests.iter().filter(|c| c.open && c.pos.floor == f.pos.floor && c.pos.distance(f.pos) <= 1) {
        items.extend(c.items.iter().map(|i| (c.pos, i.clone())));
    }
    items.sort();
    items.dedup();
    let chests = x.chests.iter().filter(|c| !c.open && c.pos.floor == f.pos.floor && c.pos.distance(f.pos) <= 1).map(|c| c.pos).collect();
    (doors, items, chests)
}

/// The hero of `sides` who gives the next order: `pick` if he still can, else the first who
/// has not used his action, else the first able to act.
pub fn next_hero(m: &Match, pick: Option<usize>, human: impl Fn(usize) -> bool) -> Option<usize> {
    let x = m.explore.as_deref()?;
    let able = |i: usize| x.is_explorer(m, i) && !m.is_dead(i) && m.standing(i) && m.fighters[i].hp > 0 && human(i);
    if let Some(p) = pick.filter(|&p| able(p)) {
        return Some(p);
    }
    let leaders: Vec<usize> = x.groups.iter().filter_map(|g| g.first().copied()).collect();
    leaders.iter().copied().chain(0..m.fighters.len()).find(|&i| able(i) && x.acted[i] != Acted::Done).or_else(|| (0..m.fighters.len()).find(|&i| able(i)))
}
