//! One floor of a delve, furnished: the start room (the party, a torch), the exit room (the
//! exit spaces, or the boss on the last floor), the locks on the way between them with each
//! key in a room before its lock, a secret door guarding a treasure room off the way, chests of
//! loot scaled to depth, traps (some hidden), dark rooms and a candle, encounters to a budget
//! with their awareness and orders, now and then a pedlar who trades and warns, and level
//! events: a story beat and an ambush that arrives (docs/delve.md).

use super::book::DelveBook;
use super::layout::{Layout, Room, layout};
use super::params::Params;
use super::stock::{Bestiary, Party, loot};
use crate::level_crawl::{AreaDef, ChestDef, DoorDef, EncounterDef, ItemDef, KeyDef, LevelMode, LightDef, LockDef, TrapDef};
use crate::level_file::{CharacterEntry, Level, SideDef};
use crate::rules::area::Area;
use crate::rules::directives::{Orders, Prey};
use crate::rules::explore::{Awareness, TradeLine, TrapOn};
use crate::rules::grid::Pos;
use crate::rules::story::{Action, EventDef, Trigger, Who};
use crate::rules::victory::{Goal, Victory};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

const KEY_NAMES: [&str; 6] = ["Iron key", "Brass key", "Bone key", "Copper key", "Black key", "Silver key"];
const PLACES: [&str; 6] = ["the Old Cellars", "the Bone Halls", "the Drowned Galleries", "the Red Mines", "the Whispering Vaults", "the Deep Gate"];
const BEATS: [&str; 5] = [
    "Scratches on the wall count days: someone was kept here, long ago.",
    "A cold draught comes up from below, and with it a smell of smoke.",
    "Old bones lie in a heap, gnawed. Something still hunts these halls.",
    "A broken standard hangs from a hook: the warband's mark, fresh-painted.",
    "Water drips somewhere ahead; the dripping stops when you listen for it.",
];

/// A floor being furnished.
struct Furnish<'a> {
    rng: &'a mut ChaCha8Rng,
    rules: &'a DelveBook,
    lay: Layout,
    depth: u32,
    /// Per room: the corner spaces (for chests) and the other free spaces.
    corners: Vec<Vec<(i32, i32)>>,
    inner: Vec<Vec<(i32, i32)>>,
    doors: BTreeMap<(i32, i32), char>,
    level: Level,
    /// Rooms that hold an encounter, a key, the treasure or the start.
    busy: Vec<bool>,
}

fn pos((x, y): (i32, i32)) -> Pos {
    Pos::new(x, y)
}

fn area(r: &Room) -> Area {
    Area { from: Pos::new(r.x0, r.y0), to: Pos::new(r.x1, r.y1) }
}

impl Furnish<'_> {
    fn chance(&mut self, percent: u32) -> bool {
        self.rng.random_range(0..100) < percent
    }
    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.rng.random_range(0..v.len())]
    }
    /// A free space of the room (not a corner, not inside a door), taken.
    fn take(&mut self, room: usize) -> Option<(i32, i32)> {
        let v = &mut self.inner[room];
        if v.is_empty() {
            return None;
        }
        let k = self.rng.random_range(0..v.len());
        Some(v.swap_remove(k))
    }
    fn take_corner(&mut self, room: usize) -> Option<(i32, i32)> {
        let v = &mut self.corners[room];
        if v.is_empty() {
            return None;
        }
        let k = self.rng.random_range(0..v.len());
        Some(v.swap_remove(k))
    }
    fn chest(&mut self, room: usize, items: Vec<String>, locked: bool) -> Option<Pos> {
        let at = pos(self.take_corner(room)?);
        let id = format!("chest_{}", self.level.chests.len() + 1);
        let lock = locked.then(|| LockDef { cr: Some(8 + self.depth as i32), ..Default::default() });
        self.level.chests.push(ChestDef { id, pos: at, items, lock });
        Some(at)
    }
}

/// Floor `k` of the delve.
pub(super) fn floor(rng: &mut ChaCha8Rng, params: &Params, k: u32, party: &Party, book: &Bestiary, rules: &DelveBook) -> Level {
    let lay = layout(rng, params.width as i32, params.height as i32);
    let n = lay.rooms.len();
    let mut inner = Vec::with_capacity(n);
    let mut corners = Vec::with_capacity(n);
    for (r, room) in lay.rooms.iter().enumerate() {
        let inside: Vec<(i32, i32)> = lay.adj[r]
            .iter()
            .map(|&(_, l)| {
                let (dx, dy) = lay.links[l].door_of(r);
                (dx.clamp(room.x0, room.x1), dy.clamp(room.y0, room.y1))
            })
            .collect();
        let c = [(room.x0, room.y0), (room.x1, room.y0), (room.x0, room.y1), (room.x1, room.y1)];
        corners.push(c.to_vec());
        inner.push(room.cells().into_iter().filter(|p| !c.contains(p) && !inside.contains(p)).collect());
    }
    let mut level = crate::level_edit::new_level(params.width as usize, params.height as usize);
    level.mode = LevelMode::Exploration;
    let mut f = Furnish { rng, rules, lay, depth: k, corners, inner, doors: BTreeMap::new(), level, busy: vec![false; n] };
    for l in 0..f.lay.links.len() {
        let (a, b) = (f.lay.links[l].door_a, f.lay.links[l].door_b);
        for d in [a, b] {
            let c = if f.chance(25) { '/' } else { '+' };
            f.doors.insert(d, c);
        }
    }
    let start = f.rng.random_range(0..n);
    let depths = f.lay.depths(start);
    let exit = (0..n).max_by_key(|&r| (depths[r], std::cmp::Reverse(r))).unwrap_or(0);
    let (path, plinks) = f.lay.path(start, exit);
    f.busy[start] = true;
    f.busy[exit] = true;
    place_party(&mut f, start, party);
    let last = k + 1 == params.floors;
    let tier = rules.tier(params.difficulty);
    goal(&mut f, exit, last, book, tier.boss_guards);
    locks(&mut f, &path, &plinks, &depths);
    secret_room(&mut f, &path, start);
    let budget = party.strength * rules.budget_percent_of_strength / 100 * (100 + rules.budget_per_floor_percent * k) / 100 * tier.budget_percent / 100;
    encounters(&mut f, book, budget, start, exit);
    pedlar(&mut f);
    loot_and_traps(&mut f);
    dark(&mut f, start);
    events(&mut f, &path, book, tier.ambushers);
    let mut level = f.level;
    level.floors = vec![f.lay.rows(&f.doors)];
    level.name = format!("Delve {}: floor {} of {}, {}", params.seed, k + 1, params.floors, PLACES[(k as usize) % PLACES.len()]);
    level.briefing = if last {
        "The last floor. The warlord who holds the deep keeps here, past locked doors: find the keys, find him, end him.".into()
    } else {
        "Find the keys to the locked doors, find the stair down, and take what the dark has hidden.".into()
    };
    level.characters.sort_by_key(|c| c.side.as_deref() != Some("heroes"));
    level
}

/// The party on the start room's spaces, and a burning torch lying among them.
fn place_party(f: &mut Furnish<'_>, start: usize, party: &Party) {
    let mut spaces: Vec<(i32, i32)> = f.inner[start].clone();
    spaces.extend(f.corners[start].iter().copied());
    for e in &party.entries {
        let k = f.rng.random_range(0..spaces.len());
        let at = spaces.swap_remove(k);
        f.inner[start].retain(|p| *p != at);
        f.corners[start].retain(|p| *p != at);
        f.level.characters.push(CharacterEntry { pos: Some(pos(at)), ..e.clone() });
    }
    if let Some(at) = f.take(start) {
        f.level.lights.push(LightDef { item: "torch".into(), minutes: 120, held_by: None, pos: Some(pos(at)) });
    }
}

/// The exit spaces, or on the last floor the boss and his guard, to defeat.
fn goal(f: &mut Furnish<'_>, exit: usize, last: bool, book: &Bestiary, guards: u32) {
    let heroes = "heroes".to_string();
    if last {
        let at = f.take(exit).unwrap_or((f.lay.rooms[exit].x0, f.lay.rooms[exit].y0));
        let boss = CharacterEntry {
            template: Some(book.boss.template.clone()),
            id: Some("boss".into()),
            name: Some("Warlord of the Deep".into()),
            side: Some("monsters".into()),
            pos: Some(pos(at)),
            ..Default::default()
        };
        f.level.characters.push(boss);
        let mut members = vec!["boss".to_string()];
        for g in 0..guards {
            if let Some(at) = f.take(exit) {
                let id = format!("guard_{}", g + 1);
                let orders = Some(Orders::Bodyguard { figure: "boss".into() });
                let t = book.beasts[book.beasts.len() - 2].template.clone();
                f.level.characters.push(CharacterEntry {
                    template: Some(t),
                    id: Some(id.clone()),
                    side: Some("monsters".into()),
                    pos: Some(pos(at)),
                    orders,
                    ..Default::default()
                });
                members.push(id);
            }
        }
        let room = f.lay.rooms[exit];
        let e = EncounterDef {
            id: "throne".into(),
            members,
            awareness: Awareness::Alert,
            non_hostile: false,
            says: None,
            trades: vec![],
            arrives: false,
            orders: None,
        };
        f.level.encounters.push(EncounterDef { orders: Some(Orders::Guard { area: area(&room) }), ..e });
        f.level.victory.push(Victory { side: heroes.clone(), goal: Goal::Defeat("boss".into()) });
    } else {
        let exits: Vec<Pos> = (0..2).filter_map(|_| f.take(exit)).map(pos).collect();
        f.level.victory.push(Victory { side: heroes.clone(), goal: Goal::ReachExit(exits) });
    }
    f.level.victory.push(Victory { side: "monsters".into(), goal: Goal::Rout(heroes) });
}

/// Locks on the way from the start to the exit, each key in a room reached before its lock
/// (of the lock level just below: opened by the locks before it), never behind its own door.
fn locks(f: &mut Furnish<'_>, path: &[usize], plinks: &[usize], _depths: &[usize]) {
    if plinks.is_empty() {
        return;
    }
    let most = (1 + f.depth as usize / 2).min(3).min(plinks.len());
    let count = f.rng.random_range(1..=most);
    let mut at: Vec<usize> = (0..plinks.len()).collect();
    let mut chosen = Vec::new();
    for _ in 0..count {
        let k = f.rng.random_range(0..at.len());
        chosen.push(at.swap_remove(k));
    }
    chosen.sort_unstable();
    // Each room's lock level: how many chosen locks lie between it and the start.
    let n = f.lay.rooms.len();
    let mut level = vec![0usize; n];
    let locked: Vec<usize> = chosen.iter().map(|&i| plinks[i]).collect();
    let mut queue = std::collections::VecDeque::from([path[0]]);
    let mut seen = vec![false; n];
    seen[path[0]] = true;
    while let Some(r) = queue.pop_front() {
        for &(o, l) in &f.lay.adj[r] {
            if !seen[o] {
                seen[o] = true;
                level[o] = level[r] + usize::from(locked.contains(&l));
                queue.push_back(o);
            }
        }
    }
    for (i, &pi) in chosen.iter().enumerate() {
        let link = plinks[pi];
        let far = path[pi + 1];
        let door = f.lay.links[link].door_of(far);
        f.doors.insert(door, 'L');
        let id = format!("key_{}", i + 1);
        let name = KEY_NAMES[(f.depth as usize + i) % KEY_NAMES.len()].to_string();
        f.level.keys.push(KeyDef { id: id.clone(), name });
        let lock = LockDef { cr: Some(10 + f.depth as i32), force_cr: Some(13 + f.depth as i32), key: Some(id.clone()), jammed: false };
        f.level.doors.push(DoorDef { pos: pos(door), lock: Some(lock), secret: false });
        // A room of lock level i, off the way if there is one.
        let mut rooms: Vec<usize> = (0..n).filter(|&r| level[r] == i && !path.contains(&r) && !f.busy[r]).collect();
        if rooms.is_empty() {
            rooms = (0..n).filter(|&r| level[r] == i).collect();
        }
        let room = f.pick(&rooms);
        f.busy[room] = true;
        let in_chest = f.chance(50) && !f.corners[room].is_empty();
        if in_chest {
            f.chest(room, vec![id.clone()], false);
        } else if let Some(p) = f.take(room).or_else(|| f.take_corner(room)) {
            f.level.items.push(ItemDef { pos: pos(p), item: id.clone() });
        }
    }
}

/// A leaf room off the way behind a secret door, with a treasure chest.
fn secret_room(f: &mut Furnish<'_>, path: &[usize], start: usize) {
    let leaves: Vec<usize> = (0..f.lay.rooms.len()).filter(|&r| f.lay.adj[r].len() == 1 && !path.contains(&r) && !f.busy[r] && r != start).collect();
    if leaves.is_empty() || !f.chance(f.rules.secret_room_percent) {
        return;
    }
    let room = f.pick(&leaves);
    let link = f.lay.adj[room][0].1;
    let door = f.lay.links[link].door_of(room);
    f.doors.insert(door, 'S');
    f.busy[room] = true;
    let items = loot(f.rng, &f.rules.loot, f.depth, true);
    f.chest(room, items, false);
}

/// Encounters to the budget in rooms not yet busy, with awareness and orders.
fn encounters(f: &mut Furnish<'_>, book: &Bestiary, budget: u32, start: usize, exit: usize) {
    let n = f.lay.rooms.len();
    let mut rooms: Vec<usize> = (0..n).filter(|&r| r != start && r != exit).collect();
    let (lo, hi) = f.rules.groups;
    let groups = f.rng.random_range(lo as usize..=hi as usize).min(rooms.len());
    let each = (budget / groups.max(1) as u32).max(f.rules.least_group_budget);
    for g in 0..groups {
        let k = f.rng.random_range(0..rooms.len());
        let room = rooms.swap_remove(k);
        let most = f.inner[room].len().saturating_sub(2).clamp(1, 4);
        let beasts = book.group(f.rng, each, f.depth, most);
        let mut members = Vec::new();
        for (m, b) in beasts.iter().enumerate() {
            let Some(at) = f.take(room) else { break };
            let id = format!("{}_{}_{}", b.template, g + 1, m + 1);
            let mut e = CharacterEntry {
                template: Some(b.template.clone()),
                id: Some(id.clone()),
                side: Some("monsters".into()),
                pos: Some(pos(at)),
                ..Default::default()
            };
            if b.ranged && f.chance(50) {
                e.orders = Some(Orders::Hold { at: pos(at) });
            }
            f.level.characters.push(e);
            members.push(id);
        }
        if members.is_empty() {
            continue;
        }
        f.busy[room] = true;
        let id = format!("band_{}", g + 1);
        let r = f.lay.rooms[room];
        let (awareness, orders) = match f.rng.random_range(0..6) {
            0 => (Awareness::Ambush, Some(Orders::Ambush { reach: 2 })),
            1 => (Awareness::Alert, Some(Orders::Guard { area: area(&r) })),
            2 => (Awareness::Unaware, Some(Orders::Patrol { route: vec![Pos::new(r.x0 + 1, r.y0), Pos::new(r.x1 - 1, r.y1)] })),
            // Not `call_for_help` (version 1 had it): a band called from behind a door it guards
            // held a crisis at a standstill, each side out of the other's reach (issue 47).
            3 => (Awareness::Alert, None),
            4 => (Awareness::Unaware, Some(Orders::Hunt { prey: Prey::Weakest })),
            _ => (Awareness::Unaware, None),
        };
        f.level.encounters.push(EncounterDef { id, members, awareness, non_hostile: false, says: None, trades: vec![], arrives: false, orders });
    }
}

/// Now and then a pedlar who trades and warns, in a quiet room.
fn pedlar(f: &mut Furnish<'_>) {
    let quiet: Vec<usize> = (0..f.lay.rooms.len()).filter(|&r| !f.busy[r]).collect();
    if quiet.is_empty() || !f.chance(f.rules.pedlar_percent) {
        return;
    }
    let room = f.pick(&quiet);
    let Some(at) = f.take(room) else { return };
    f.busy[room] = true;
    f.level.sides.push(SideDef { id: "folk".into(), name: Some("Folk of the Deep".into()), control: crate::level_file::Control::Ai, player: None });
    f.level.non_hostile.push("folk".into());
    f.level.characters.push(CharacterEntry {
        template: Some("kobold".into()),
        id: Some("pedlar".into()),
        name: Some("Pell the Pedlar".into()),
        side: Some("folk".into()),
        pos: Some(pos(at)),
        ..Default::default()
    });
    let trades = vec![
        TradeLine { gives: "potion_of_healing".into(), wants: vec!["gold_coins".into(), "gold_coins".into()], repeat: true },
        TradeLine { gives: "torch".into(), wants: vec!["candle".into()], repeat: false },
    ];
    let says = "Pell squints at you. \"Keys open what's locked, friends - and the quiet walls hide the best of it. Mind the floor in the passages.\"";
    f.level.encounters.push(EncounterDef {
        id: "pedlar_stall".into(),
        members: vec!["pedlar".into()],
        awareness: Awareness::Unaware,
        non_hostile: true,
        says: Some(says.into()),
        trades,
        arrives: false,
        orders: None,
    });
}

/// Chests of loot (some locked or trapped) and traps in the passages and on doors.
fn loot_and_traps(f: &mut Furnish<'_>) {
    let n = f.lay.rooms.len();
    let (lo, hi) = f.rules.chests;
    let chests = f.rng.random_range(lo as usize..=hi as usize);
    for _ in 0..chests {
        let room = f.rng.random_range(0..n);
        let items = loot(f.rng, &f.rules.loot, f.depth, false);
        let locked = f.chance(f.rules.chest_locked_percent);
        let trapped = f.chance(f.rules.chest_trapped_percent);
        if let Some(at) = f.chest(room, items, locked)
            && trapped
        {
            let id = format!("trap_{}", f.level.traps.len() + 1);
            let cr = 8 + f.depth as i32;
            f.level.traps.push(TrapDef {
                id,
                pos: at,
                on: TrapOn::Chest,
                hidden: true,
                find_cr: Some(cr),
                disarm_cr: Some(cr),
                effect_cr: Some(cr),
                damage: Some((1, 4)),
                condition: None,
                rearms: false,
            });
        }
    }
    let links = f.lay.links.len();
    let (lo, hi) = f.rules.corridor_traps;
    for _ in 0..f.rng.random_range(lo as usize..=hi as usize) {
        let l = f.rng.random_range(0..links);
        let cells = f.lay.links[l].cells.clone();
        let at = pos(f.pick(&cells));
        if f.level.traps.iter().any(|t| t.pos == at) {
            continue;
        }
        let id = format!("trap_{}", f.level.traps.len() + 1);
        let hidden = f.chance(f.rules.hidden_trap_percent);
        let cr = 8 + f.depth as i32 + f.rng.random_range(0..3);
        let condition = f.chance(f.rules.bleeding_trap_percent).then(|| "bleeding".to_string());
        f.level.traps.push(TrapDef {
            id,
            pos: at,
            on: TrapOn::Space,
            hidden,
            find_cr: Some(cr),
            disarm_cr: Some(cr),
            effect_cr: Some(cr),
            damage: Some((1, 6)),
            condition,
            rearms: false,
        });
    }
    let closed: Vec<(i32, i32)> = f.doors.iter().filter(|(_, c)| **c == '+').map(|(p, _)| *p).collect();
    if !closed.is_empty() && f.chance(f.rules.door_trap_percent) {
        let at = pos(f.pick(&closed));
        let id = format!("trap_{}", f.level.traps.len() + 1);
        f.level.traps.push(TrapDef {
            id,
            pos: at,
            on: TrapOn::Door,
            hidden: true,
            find_cr: Some(9),
            disarm_cr: Some(9),
            effect_cr: Some(9),
            damage: Some((1, 6)),
            condition: None,
            rearms: false,
        });
    }
}

/// Dark rooms (not the start), a candle burning in one of them.
fn dark(f: &mut Furnish<'_>, start: usize) {
    let n = f.lay.rooms.len();
    let count = f.rng.random_range(0..=(1 + f.depth as usize).min(3));
    let mut rooms: Vec<usize> = (0..n).filter(|&r| r != start).collect();
    for i in 0..count.min(rooms.len()) {
        let k = f.rng.random_range(0..rooms.len());
        let room = rooms.swap_remove(k);
        let r = f.lay.rooms[room];
        f.level.dark.push(AreaDef { from: Pos::new(r.x0, r.y0), to: Pos::new(r.x1, r.y1) });
        if i == 0
            && let Some(at) = f.take(room)
        {
            f.level.lights.push(LightDef { item: "candle".into(), minutes: 60, held_by: None, pos: Some(pos(at)) });
        }
    }
}

/// A story beat on the way, and an ambush that arrives when the first key is taken (else
/// when the party is halfway).
fn events(f: &mut Furnish<'_>, path: &[usize], book: &Bestiary, ambushers: u32) {
    let heroes = || Who::Side("heroes".into());
    let mid = path[path.len() / 2];
    let beat = f.pick(&BEATS);
    let when = Trigger::Enters { area: area(&f.lay.rooms[mid]), who: heroes() };
    f.level.events.push(EventDef {
        id: "story".into(),
        when,
        repeat: false,
        after: None,
        only_if: None,
        times: None,
        then: vec![Action::Message(beat.into())],
    });
    if !f.chance(f.rules.ambush_percent) {
        return;
    }
    // The ambushers come in at a room the party has passed.
    let room = path[path.len() / 3];
    let mut members = Vec::new();
    for m in 0..ambushers {
        let Some(at) = f.take(room) else { break };
        let t = book.beasts[f.rng.random_range(0..3)].template.clone();
        let id = format!("ambusher_{}", m + 1);
        f.level.characters.push(CharacterEntry {
            template: Some(t),
            id: Some(id.clone()),
            side: Some("monsters".into()),
            pos: Some(pos(at)),
            ..Default::default()
        });
        members.push(id);
    }
    if members.is_empty() {
        return;
    }
    f.level.encounters.push(EncounterDef {
        id: "ambush".into(),
        members,
        awareness: Awareness::Alert,
        non_hostile: false,
        says: None,
        trades: vec![],
        arrives: true,
        orders: Some(Orders::Hunt { prey: Prey::Weakest }),
    });
    let when = match f.level.keys.first() {
        Some(k) => Trigger::ItemTaken { item: k.id.clone() },
        None => Trigger::Enters { area: area(&f.lay.rooms[mid]), who: heroes() },
    };
    let then = vec![Action::Message("Feet in the passage behind you: they heard you, and they are coming.".into()), Action::Spawn("ambush".into())];
    f.level.events.push(EventDef { id: "ambush".into(), when, repeat: false, after: None, only_if: None, times: None, then });
}
