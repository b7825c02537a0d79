//! The crawl part of a level file (§24): `mode: exploration`, the exploring sides, doors with
//! locks and secrets, keys, chests, loose items, traps and encounters. `check` reports each
//! problem at its entry (`file:line:col`); `build` turns a checked crawl into the rules'
//! [`Explore`] state.

use crate::data::{Places, RuleData};
use crate::level::CharacterDef;
use crate::rules::explore::{Acted, Awareness, Chest, Door, Encounter, Explore, ExploreBook, Lock, Trap, TrapOn};
use crate::rules::grid::{Board, Pos, Tile};
use crate::rules::state::Match;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// How a level starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum LevelMode {
    /// One crisis from the first turn.
    #[default]
    Crisis,
    /// A crawl: Exploration Mode first (R-EXP-1).
    Exploration,
}

/// The most entries of each crawl list (doors, chests, items, traps, encounters, keys).
pub const MAX_FEATURES: usize = 4096;
/// Items in one chest.
pub const MAX_CHEST_ITEMS: usize = 64;
/// The range of every CR of §24.
pub const CR_RANGE: (i32, i32) = (1, 40);

/// A lock (R-EXP-12, R-EXP-13): CRs default to the exploration book's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct LockDef {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cr: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force_cr: Option<i32>,
    /// The id of a key in `keys` that opens it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
}

/// A door with more to it than its map character.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DoorDef {
    pub pos: Pos,
    /// A locked door (`L` on the map): its lock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<LockDef>,
    /// A secret door (also `S` on the map): hidden until found by searching (R-EXP-14).
    #[serde(default)]
    pub secret: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyDef {
    pub id: String,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChestDef {
    pub id: String,
    pub pos: Pos,
    #[serde(default)]
    pub items: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lock: Option<LockDef>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemDef {
    pub pos: Pos,
    pub item: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrapDef {
    pub id: String,
    pub pos: Pos,
    /// In the space (default), on the door there, or on the chest there.
    #[serde(default)]
    pub on: TrapOn,
    /// Hidden until found or sprung (default true).
    #[serde(default = "yes")]
    pub hidden: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub find_cr: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disarm_cr: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect_cr: Option<i32>,
    /// Damage dice as (count, sides); default 1d6.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<(u32, u32)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
    #[serde(default)]
    pub rearms: bool,
}

fn yes() -> bool {
    true
}

/// A crawl lets the party camp unless it says `camp: false`.
pub fn yes_camp() -> bool {
    true
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncounterDef {
    pub id: String,
    pub members: Vec<String>,
    #[serde(default)]
    pub awareness: Awareness,
}

/// The crawl fields of a level, as written.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct CrawlDef<'a> {
    pub mode: LevelMode,
    pub camp: bool,
    pub dark: &'a [AreaDef],
    pub explorers: &'a [String],
    pub doors: &'a [DoorDef],
    pub keys: &'a [KeyDef],
    pub chests: &'a [ChestDef],
    pub items: &'a [ItemDef],
    pub traps: &'a [TrapDef],
    pub encounters: &'a [EncounterDef],
}

/// A dark area (R-EXP-18): the rectangle between two corners, on their floor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AreaDef {
    pub from: Pos,
    pub to: Pos,
}

/// A checked crawl, ready to build.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Crawl {
    /// The party may camp (R-EXP-22).
    pub camp: bool,
    /// Dark areas (R-EXP-18).
    pub dark: Vec<AreaDef>,
    pub explorers: Vec<String>,
    pub doors: Vec<DoorDef>,
    pub keys: Vec<KeyDef>,
    pub chests: Vec<ChestDef>,
    pub items: Vec<ItemDef>,
    pub traps: Vec<TrapDef>,
    pub encounters: Vec<EncounterDef>,
}

/// Checks the crawl fields. `secret`: spaces marked `S` on the map. `err(at, message)`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn check(
    def: &CrawlDef,
    board: Option<&Board>,
    secret: &[Pos],
    chars: &[CharacterDef],
    sides: &[String],
    data: &RuleData,
    places: &Places,
    err: &mut dyn FnMut((usize, usize), String),
) -> Option<Crawl> {
    let lists = [
        ("doors", def.doors.len()),
        ("keys", def.keys.len()),
        ("chests", def.chests.len()),
        ("items", def.items.len()),
        ("traps", def.traps.len()),
        ("encounters", def.encounters.len()),
        ("dark", def.dark.len()),
    ];
    let mut capped = false;
    for (name, n) in lists {
        if n > MAX_FEATURES {
            err(places.key(name).unwrap_or((1, 1)), format!("{n} {name}; the most is {MAX_FEATURES}"));
            capped = true;
        }
    }
    if capped {
        return None;
    }
    let any = lists.iter().any(|l| l.1 > 0) || !secret.is_empty() || !def.explorers.is_empty();
    if def.mode == LevelMode::Crisis {
        if any {
            let first = lists.iter().find(|l| l.1 > 0).map(|l| l.0).unwrap_or("explorers");
            err(
                places.key(first).or_else(|| places.key("mode")).unwrap_or((1, 1)),
                "doors, keys, chests, items, traps, encounters, explorers and secret doors (S) need `mode: exploration`".into(),
            );
        }
        return None;
    }
    let explorers: Vec<String> = if def.explorers.is_empty() { sides.first().cloned().into_iter().collect() } else { def.explorers.to_vec() };
    for e in &explorers {
        if !sides.contains(e) {
            err(places.key("explorers").unwrap_or((1, 1)), format!("explorers: unknown side '{}'", clip(e)));
        }
    }
    if explorers.len() >= sides.len() && !sides.is_empty() {
        err(places.key("explorers").unwrap_or((1, 1)), "explorers: at least one side must be left to meet in the dungeon".into());
    }
    let key_ids: BTreeSet<&str> = def.keys.iter().map(|k| k.id.as_str()).collect();
    let known_item = |i: &str| data.equipment.item(i).is_some() || key_ids.contains(i);
    let check_cr = |at: (usize, usize), what: &str, v: Option<i32>, err: &mut dyn FnMut((usize, usize), String)| {
        if let Some(v) = v.filter(|v| !(CR_RANGE.0..=CR_RANGE.1).contains(v)) {
            err(at, format!("{what} {v} is out of range ({} to {})", CR_RANGE.0, CR_RANGE.1));
        }
    };
    let mut used_keys: BTreeSet<&str> = BTreeSet::new();
    let check_lock = |at: (usize, usize), lock: &LockDef, what: &str, err: &mut dyn FnMut((usize, usize), String)| {
        check_cr(at, &format!("{what}: lock cr"), lock.cr, err);
        check_cr(at, &format!("{what}: force_cr"), lock.force_cr, err);
        if let Some(k) = &lock.key {
            if !key_ids.contains(k.as_str()) {
                err(at, format!("{what}: key '{}' is not in `keys`", clip(k)));
            }
        }
    };
    // Keys.
    for (k, key) in def.keys.iter().enumerate() {
        let at = places.item("keys", k);
        if let Some(p) = crate::data::id_problem(&key.id) {
            err(at, format!("key: {p}"));
        }
        if let Some(p) = crate::data::text_problem("the key's name", &key.name, crate::data::MAX_NAME_CHARS) {
            err(at, format!("key '{}': {p}", clip(&key.id)));
        }
        if data.equipment.knows(&key.id) {
            err(at, format!("key '{}': the id is already an equipment item", clip(&key.id)));
        }
        if def.keys[..k].iter().any(|o| o.id == key.id) {
            err(at, format!("key '{}' is listed twice", clip(&key.id)));
        }
    }
    let walk = |p: Pos| board.is_some_and(|b| b.walkable(p));
    let is_door = |p: Pos| board.is_some_and(|b| matches!(b.tile(p), Some(Tile::DoorOpen | Tile::DoorClosed | Tile::DoorLocked)));
    let where_ = |p: Pos| match board.and_then(|b| b.tile(p)) {
        None => "outside the map".to_string(),
        Some(t) => format!("on {}", crate::rules::grid::tile_name(t)),
    };
    let occupied: BTreeMap<Pos, &str> = chars.iter().map(|c| (c.pos, c.id.as_str())).collect();
    // Doors.
    for (k, d) in def.doors.iter().enumerate() {
        let at = places.item("doors", k);
        if board.is_some() && !is_door(d.pos) {
            err(at, format!("door: {} is not a door space (/ + L S), it is {}", d.pos, where_(d.pos)));
            continue;
        }
        if let Some(l) = &d.lock {
            if board.is_some_and(|b| b.tile(d.pos) != Some(Tile::DoorLocked)) {
                err(at, format!("door at {}: a lock needs a locked door (L) on the map", d.pos));
            }
            check_lock(at, l, &format!("door at {}", d.pos), err);
            if let Some(key) = &l.key {
                used_keys.insert(key.as_str());
            }
        }
        if d.secret && board.is_some_and(|b| b.tile(d.pos) == Some(Tile::DoorOpen)) {
            err(at, format!("door at {}: a secret door starts closed (+ or S on the map)", d.pos));
        }
        if def.doors[..k].iter().any(|o| o.pos == d.pos) {
            err(at, format!("door at {} is listed twice", d.pos));
        }
    }
    // Chests.
    let mut chest_at: BTreeMap<Pos, usize> = BTreeMap::new();
    for (k, c) in def.chests.iter().enumerate() {
        let at = places.item("chests", k);
        if let Some(p) = crate::data::id_problem(&c.id) {
            err(at, format!("chest: {p}"));
        }
        if board.is_some() && (!walk(c.pos) || is_door(c.pos)) {
            err(at, format!("chest '{}': {} is {}; a chest stands on floor", clip(&c.id), c.pos, where_(c.pos)));
        }
        if let Some(o) = occupied.get(&c.pos) {
            err(at, format!("chest '{}': {} is taken by character '{o}'", clip(&c.id), c.pos));
        }
        if let Some(o) = chest_at.insert(c.pos, k) {
            err(at, format!("chest '{}': {} already holds chest '{}'", clip(&c.id), c.pos, clip(&def.chests[o].id)));
        }
        if def.chests[..k].iter().any(|o| o.id == c.id) {
            err(at, format!("chest id '{}' is used twice", clip(&c.id)));
        }
        if c.items.len() > MAX_CHEST_ITEMS {
            err(at, format!("chest '{}': {} items; the most is {MAX_CHEST_ITEMS}", clip(&c.id), c.items.len()));
            continue;
        }
        for i in &c.items {
            if !known_item(i) {
                err(at, format!("chest '{}': unknown item '{}' (an item of assets/equipment/equipment.ron or a key in `keys`)", clip(&c.id), clip(i)));
            }
        }
        if let Some(l) = &c.lock {
            check_lock(at, l, &format!("chest '{}'", clip(&c.id)), err);
            if let Some(key) = &l.key {
                used_keys.insert(key.as_str());
                if c.items.iter().any(|i| i == key) {
                    err(at, format!("chest '{}': its own key '{}' is locked inside it", clip(&c.id), clip(key)));
                }
            }
        }
    }
    // Items.
    for (k, it) in def.items.iter().enumerate() {
        let at = places.item("items", k);
        if board.is_some() && !walk(it.pos) {
            err(at, format!("item '{}': {} is {}", clip(&it.item), it.pos, where_(it.pos)));
        }
        if !known_item(&it.item) {
            err(at, format!("unknown item '{}' (an item of assets/equipment/equipment.ron or a key in `keys`)", clip(&it.item)));
        }
    }
    // Keys must open something and lie somewhere.
    for (k, key) in def.keys.iter().enumerate() {
        let at = places.item("keys", k);
        if !used_keys.contains(key.id.as_str()) {
            err(at, format!("key '{}' opens no door or chest (name it in a lock's `key`)", clip(&key.id)));
        }
        let placed = def.chests.iter().any(|c| c.items.contains(&key.id)) || def.items.iter().any(|i| i.item == key.id);
        if !placed {
            err(at, format!("key '{}' is nowhere: put it in a chest or in `items`", clip(&key.id)));
        }
    }
    // Traps.
    for (k, t) in def.traps.iter().enumerate() {
        let at = places.item("traps", k);
        if let Some(p) = crate::data::id_problem(&t.id) {
            err(at, format!("trap: {p}"));
        }
        if def.traps[..k].iter().any(|o| o.id == t.id) {
            err(at, format!("trap id '{}' is used twice", clip(&t.id)));
        }
        match t.on {
            TrapOn::Space if board.is_some() && (!walk(t.pos) || is_door(t.pos)) => {
                err(at, format!("trap '{}': {} is {}; a trap in a space needs floor (use `on: door` for a door)", clip(&t.id), t.pos, where_(t.pos)))
            }
            TrapOn::Door if board.is_some() && !is_door(t.pos) => err(at, format!("trap '{}': no door at {} ({})", clip(&t.id), t.pos, where_(t.pos))),
            TrapOn::Chest if !chest_at.contains_key(&t.pos) => err(at, format!("trap '{}': no chest at {}", clip(&t.id), t.pos)),
            _ => {}
        }
        for (what, v) in [("find_cr", t.find_cr), ("disarm_cr", t.disarm_cr), ("effect_cr", t.effect_cr)] {
            check_cr(at, &format!("trap '{}': {what}", clip(&t.id)), v, err);
        }
        if let Some((n, s)) = t.damage {
            if !(1..=10).contains(&n) || ![4, 6, 8, 10, 12, 20].contains(&s) {
                err(at, format!("trap '{}': damage ({n}, {s}) must be 1 to 10 dice of 4, 6, 8, 10, 12 or 20 sides", clip(&t.id)));
            }
        }
        if let Some(c) = &t.condition {
            if data.conditions.get(c).is_none() {
                err(at, format!("trap '{}': unknown condition '{}'", clip(&t.id), clip(c)));
            }
        }
    }
    // Encounters.
    let mut member_of: BTreeMap<&str, &str> = BTreeMap::new();
    for (k, e) in def.encounters.iter().enumerate() {
        let at = places.item("encounters", k);
        if let Some(p) = crate::data::id_problem(&e.id) {
            err(at, format!("encounter: {p}"));
        }
        if def.encounters[..k].iter().any(|o| o.id == e.id) {
            err(at, format!("encounter id '{}' is used twice", clip(&e.id)));
        }
        if e.members.is_empty() {
            err(at, format!("encounter '{}' has no members", clip(&e.id)));
        }
        for mem in e.members.iter().take(crate::data::MAX_ENTITIES) {
            match chars.iter().find(|c| &c.id == mem) {
                None => err(at, format!("encounter '{}': unknown character '{}'", clip(&e.id), clip(mem))),
                Some(c) if explorers.contains(&c.side) => err(at, format!("encounter '{}': '{}' is an explorer (side '{}')", clip(&e.id), clip(mem), c.side)),
                Some(_) => {
                    if let Some(o) = member_of.insert(mem.as_str(), e.id.as_str()) {
                        err(at, format!("encounter '{}': '{}' already belongs to encounter '{}'", clip(&e.id), clip(mem), clip(o)));
                    }
                }
            }
        }
    }
    // Dark areas: both corners on the map, on one floor.
    for (k, d) in def.dark.iter().enumerate() {
        let at = places.item("dark", k);
        if let Some(b) = board {
            if b.tile(d.from).is_none() || b.tile(d.to).is_none() {
                err(at, format!("dark area {}–{}: a corner is outside the map", d.from, d.to));
            } else if d.from.floor != d.to.floor {
                err(at, format!("dark area {}–{}: both corners must be on one floor", d.from, d.to));
            }
        }
    }
    let mut doors = def.doors.to_vec();
    for &p in secret {
        match doors.iter_mut().find(|d| d.pos == p) {
            Some(d) => d.secret = true,
            None => doors.push(DoorDef { pos: p, lock: None, secret: true }),
        }
    }
    Some(Crawl {
        camp: def.camp,
        dark: def.dark.to_vec(),
        explorers,
        doors,
        keys: def.keys.to_vec(),
        chests: def.chests.to_vec(),
        items: def.items.to_vec(),
        traps: def.traps.to_vec(),
        encounters: def.encounters.to_vec(),
    })
}

fn clip(s: &str) -> String {
    s.chars().take(40).map(|c| if c.is_control() { '?' } else { c }).collect()
}

/// The rules' state of a checked crawl on a built match (every figure placed).
pub fn build(c: &Crawl, m: &Match, book: Arc<ExploreBook>) -> Explore {
    let n = m.fighters.len();
    let lock = |l: &LockDef| Lock { cr: l.cr.unwrap_or(book.lock_cr), force_cr: l.force_cr.unwrap_or(book.force_cr), key: l.key.clone(), jammed: false };
    let mut doors: Vec<Door> = c.doors.iter().map(|d| Door { pos: d.pos, lock: d.lock.as_ref().map(lock), hidden: d.secret }).collect();
    // Every locked door has a lock (the book's CRs unless the level gives its own).
    for (fi, f) in m.board.floors.iter().enumerate() {
        for y in 0..f.height as i32 {
            for x in 0..f.width as i32 {
                let p = Pos::on(x, y, fi as u8);
                if m.board.tile(p) == Some(Tile::DoorLocked) {
                    match doors.iter_mut().find(|d| d.pos == p) {
                        Some(d) if d.lock.is_none() => d.lock = Some(lock(&LockDef::default())),
                        Some(_) => {}
                        None => doors.push(Door { pos: p, lock: Some(lock(&LockDef::default())), hidden: false }),
                    }
                }
            }
        }
    }
    let heroes: Vec<usize> = (0..n).filter(|&i| c.explorers.contains(&m.fighters[i].side)).collect();
    let mut encounters: Vec<Encounter> = c
        .encounters
        .iter()
        .map(|e| Encounter { id: e.id.clone(), members: e.members.iter().filter_map(|id| m.index(id)).collect(), awareness: e.awareness })
        .collect();
    let mut encounter_of = vec![None; n];
    for (k, e) in encounters.iter().enumerate() {
        for &i in &e.members {
            encounter_of[i] = Some(k);
        }
    }
    // R-EXP-23: an NPC in no encounter is an encounter of his own.
    for i in 0..n {
        if encounter_of[i].is_none() && !heroes.contains(&i) {
            encounter_of[i] = Some(encounters.len());
            encounters.push(Encounter { id: m.fighters[i].id.clone(), members: vec![i], awareness: Awareness::Unaware });
        }
    }
    let mut groups = Vec::new();
    for side in &c.explorers {
        let g: Vec<usize> = heroes.iter().copied().filter(|&i| &m.fighters[i].side == side).collect();
        if !g.is_empty() {
            groups.push(g);
        }
    }
    Explore {
        minute: 0,
        turn: 0,
        explorers: c.explorers.clone(),
        groups,
        acted: vec![Acted::No; n],
        tasks: Vec::new(),
        doors,
        chests: c
            .chests
            .iter()
            .map(|ch| Chest { id: ch.id.clone(), pos: ch.pos, items: ch.items.clone(), open: false, lock: ch.lock.as_ref().map(lock) })
            .collect(),
        items: c.items.iter().map(|i| (i.pos, i.item.clone())).collect(),
        traps: c
            .traps
            .iter()
            .map(|t| Trap {
                id: t.id.clone(),
                pos: t.pos,
                on: t.on,
                hidden: t.hidden,
                find_cr: t.find_cr.unwrap_or(book.find_cr),
                disarm_cr: t.disarm_cr.unwrap_or(book.disarm_cr),
                effect_cr: t.effect_cr.unwrap_or(book.effect_cr),
                damage: t.damage.unwrap_or(book.trap_damage),
                condition: t.condition.clone(),
                rearms: t.rearms,
                spent: false,
            })
            .collect(),
        encounters,
        encounter_of,
        calm: vec![false; n],
        seen: BTreeMap::new(),
        fog: Default::default(),
        searched: vec![false; m.board.spaces()],
        keys: c.keys.iter().map(|k| (k.id.clone(), k.name.clone())).collect(),
        crisis_minute: None,
        crisis_tasks: BTreeMap::new(),
        camp_allowed: c.camp,
        recuperated: BTreeMap::new(),
        dark: c.dark.iter().map(|d| (d.from, d.to)).collect(),
        burning: BTreeMap::new(),
        busy: BTreeMap::new(),
        last_crisis_end: None,
        hurt_in_crisis: Default::default(),
        bound: Default::default(),
        hp_at_crisis: BTreeMap::new(),
        book,
    }
}
