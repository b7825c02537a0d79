//! The editor's feature inspector (issue 31): a door, chest, trap or light on a space, set up
//! beyond the defaults its brush puts down: a door's state (closed, open, locked, secret) and
//! its lock's key; a chest's lock, key and loot; a trap's visibility, what springs it, its
//! damage, condition and rearming; a light's kind and how long it burns. And a figure's arrival
//! (`arrives: true`, brought by a level event's `spawn`). Each change is one undoable edit; the
//! window only shows `features` and sends `FeatureEdit`s.

use super::brush::{pos, unique};
use super::doc::Doc;
use crate::level_crawl::{DoorDef, KeyDef, LightDef, LockDef, TrapDef};
use crate::level_file::Level;
use crate::rules::explore::TrapOn;
use crate::rules::grid::Pos;
use crate::rules::story::{Action, MAX_ACTIONS};

/// The door characters, in the order the inspector cycles them.
const DOOR_STATES: [(char, &str); 4] = [('+', "closed"), ('/', "open"), ('L', "locked"), ('S', "secret")];
/// What a chest's loot button adds after the keys nobody has placed yet (cycled in this order).
pub const LOOT: [&str; 5] = ["potion_of_healing", "bandages", "gold_coins", "gemstone", "torch"];
/// A trap's damage, cycled: the rules' (`None`), then these dice.
const DAMAGE: [Option<(u32, u32)>; 4] = [None, Some((2, 6)), Some((3, 6)), Some((1, 10))];
/// A trap's condition, cycled.
const CONDITIONS: [Option<&str>; 4] = [None, Some("bleeding"), Some("slowed"), Some("rooted")];
/// Light kinds, cycled (the rules' lights, `assets/rules/exploration.ron`), and a step of the
/// minutes button.
const LIGHTS: [(&str, u32); 3] = [("torch", 120), ("lantern", 240), ("candle", 60)];
const MINUTES_STEP: u32 = 30;

/// One change the feature inspector makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FeatureEdit {
    /// The door: closed → open → locked → secret → closed.
    DoorState,
    /// A locked door's or a chest's key: none → each of the level's keys → a new key → none.
    Key,
    /// A chest: locked or not.
    ChestLock,
    /// A chest's loot: the next item in (a key not placed yet first), or the last one out.
    LootAdd,
    LootRemove,
    TrapHidden,
    /// Sprung by entering the space, opening the door there, or opening the chest there.
    TrapOn,
    TrapDamage,
    TrapCondition,
    TrapRearms,
    LightItem,
    /// The light's minutes, up (`true`) or down by 30.
    LightMinutes(bool),
}

/// What the inspector shows of one feature: a heading and its buttons.
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureView {
    pub heading: String,
    pub buttons: Vec<(String, FeatureEdit)>,
}

fn door_tile(c: Option<char>) -> bool {
    DOOR_STATES.iter().any(|(d, _)| Some(*d) == c)
}

fn key_name(l: &Level, id: &Option<String>) -> String {
    match id {
        None => "none".into(),
        Some(k) => l.keys.iter().find(|d| &d.id == k).map_or(k.clone(), |d| d.name.clone()),
    }
}

fn dice(d: Option<(u32, u32)>) -> String {
    d.map_or("the rules' (1d6)".into(), |(n, s)| format!("{n}d{s}"))
}

impl Doc {
    /// The features on the space (floor in view), each with what the inspector can change.
    pub fn features(&self, x: i32, y: i32) -> Vec<FeatureView> {
        let l = &self.level;
        let p = pos(x, y, self.floor);
        let mut out = Vec::new();
        if door_tile(self.tile(x, y)) {
            let t = self.tile(x, y).unwrap_or('+');
            let state = DOOR_STATES.iter().find(|(c, _)| *c == t).map_or("closed", |(_, n)| n);
            let mut buttons = vec![(format!("Door: {state}"), FeatureEdit::DoorState)];
            if t == 'L' {
                let key = l.doors.iter().find(|d| d.pos == p).and_then(|d| d.lock.as_ref()).and_then(|k| k.key.clone());
                buttons.push((format!("Key: {}", key_name(l, &key)), FeatureEdit::Key));
            }
            out.push(FeatureView { heading: format!("Door at ({x}, {y})"), buttons });
        }
        for c in l.chests.iter().filter(|c| c.pos == p) {
            let mut buttons = vec![(format!("Lock: {}", if c.lock.is_some() { "locked" } else { "none" }), FeatureEdit::ChestLock)];
            if let Some(lock) = &c.lock {
                buttons.push((format!("Key: {}", key_name(l, &lock.key)), FeatureEdit::Key));
            }
            let loot: Vec<String> = c.items.iter().map(|i| l.keys.iter().find(|k| &k.id == i).map_or(i.clone(), |k| k.name.clone())).collect();
            buttons.push((format!("Loot: {}", if loot.is_empty() { "nothing".into() } else { loot.join(", ") }), FeatureEdit::LootAdd));
            buttons.push(("Loot: take the last out".into(), FeatureEdit::LootRemove));
            out.push(FeatureView { heading: format!("Chest '{}'", c.id), buttons });
        }
        for t in l.traps.iter().filter(|t| t.pos == p) {
            let on = match t.on {
                TrapOn::Space => "entering the space",
                TrapOn::Door => "opening the door",
                TrapOn::Chest => "opening the chest",
            };
            let buttons = vec![
                (format!("Hidden: {}", if t.hidden { "yes" } else { "no (seen)" }), FeatureEdit::TrapHidden),
                (format!("Sprung by {on}"), FeatureEdit::TrapOn),
                (format!("Damage: {}", dice(t.damage)), FeatureEdit::TrapDamage),
                (format!("Condition: {}", t.condition.clone().unwrap_or_else(|| "none".into())), FeatureEdit::TrapCondition),
                (format!("Rearms: {}", if t.rearms { "yes" } else { "no" }), FeatureEdit::TrapRearms),
            ];
            out.push(FeatureView { heading: format!("Trap '{}'", t.id), buttons });
        }
        for li in l.lights.iter().filter(|li| li.pos == Some(p)) {
            let buttons = vec![
                (format!("Light: {}", li.item), FeatureEdit::LightItem),
                (format!("Burns {} min: +", li.minutes), FeatureEdit::LightMinutes(true)),
                ("Burns: -".into(), FeatureEdit::LightMinutes(false)),
            ];
            out.push(FeatureView { heading: format!("Light at ({x}, {y})"), buttons });
        }
        out
    }

    /// Makes one change to the features on the space; false when nothing changed.
    pub fn edit_feature(&mut self, x: i32, y: i32, e: FeatureEdit) -> bool {
        let tile = self.tile(x, y);
        self.edit(|l, f| {
            let p = pos(x, y, f);
            match e {
                FeatureEdit::DoorState => door_state(l, f, p, tile),
                FeatureEdit::Key => {
                    if tile == Some('L') {
                        let k = match l.doors.iter().position(|d| d.pos == p) {
                            Some(k) => k,
                            None => {
                                l.doors.push(DoorDef { pos: p, lock: None, secret: false });
                                l.doors.len() - 1
                            }
                        };
                        let now = l.doors[k].lock.as_ref().and_then(|k| k.key.clone());
                        let next = next_key(l, now.clone());
                        l.doors[k].lock.get_or_insert_with(LockDef::default).key = next;
                        drop_unused_key(l, now);
                        // A lock with nothing of its own is the default lock: no entry needed.
                        if l.doors[k].lock.as_ref().is_some_and(|k| *k == LockDef::default()) && !l.doors[k].secret {
                            l.doors.remove(k);
                        }
                    } else if let Some(c) = l.chests.iter().position(|c| c.pos == p && c.lock.is_some()) {
                        let now = l.chests[c].lock.as_ref().and_then(|k| k.key.clone());
                        let next = next_key(l, now.clone());
                        if let Some(lock) = l.chests[c].lock.as_mut() {
                            lock.key = next;
                        }
                        drop_unused_key(l, now);
                    }
                }
                FeatureEdit::ChestLock => {
                    if let Some(c) = l.chests.iter().position(|c| c.pos == p) {
                        match l.chests[c].lock.take() {
                            Some(lock) => drop_unused_key(l, lock.key),
                            None => l.chests[c].lock = Some(LockDef::default()),
                        }
                    }
                }
                FeatureEdit::LootAdd => loot_add(l, p),
                FeatureEdit::LootRemove => {
                    if let Some(c) = l.chests.iter_mut().find(|c| c.pos == p) {
                        c.items.pop();
                    }
                }
                FeatureEdit::TrapHidden | FeatureEdit::TrapOn | FeatureEdit::TrapDamage | FeatureEdit::TrapCondition | FeatureEdit::TrapRearms => {
                    let door = door_tile(tile);
                    let chest = l.chests.iter().any(|c| c.pos == p);
                    if let Some(t) = l.traps.iter_mut().find(|t| t.pos == p) {
                        trap_edit(t, e, door, chest);
                    }
                }
                FeatureEdit::LightItem | FeatureEdit::LightMinutes(_) => {
                    if let Some(li) = l.lights.iter_mut().find(|li| li.pos == Some(p)) {
                        light_edit(li, e);
                    }
                }
            }
        })
    }

    /// The figure's arrival, as its stance line says it: "from the start" or "arrives on
    /// event 'id'" (its encounter is `arrives: true` and that event spawns it).
    pub fn arrival(&self, i: usize) -> String {
        let l = &self.level;
        let Some(id) = l.characters.get(i).and_then(|c| c.id.clone()) else { return String::new() };
        let Some(e) = l.encounters.iter().find(|e| e.members.contains(&id) && e.arrives) else { return "from the start".into() };
        match l.events.iter().find(|d| d.then.contains(&Action::Spawn(e.id.clone()))) {
            Some(d) => format!("on event {}", d.id),
            None => "later (no event brings it)".into(),
        }
    }

    /// The figure's arrival, cycled: from the start → on the level's first event → the next … →
    /// from the start. Its whole encounter arrives with it (one made for it when it has none);
    /// the event chosen spawns it, and no other does.
    pub fn cycle_arrival(&mut self, i: usize) -> bool {
        let Some(id) = self.level.characters.get(i).and_then(|c| c.id.clone()) else { return false };
        if self.level.events.is_empty() {
            return false;
        }
        self.edit(|l, _| {
            let k = super::doc::encounter_of(l, &id);
            let spawn = Action::Spawn(l.encounters[k].id.clone());
            let now = if l.encounters[k].arrives { l.events.iter().position(|d| d.then.contains(&spawn)) } else { None };
            // The next event that has room for one more action.
            let from = now.map_or(0, |n| n + 1);
            let next = (from..l.events.len()).find(|&n| l.events[n].then.len() < MAX_ACTIONS);
            for d in &mut l.events {
                d.then.retain(|a| *a != spawn);
            }
            match next {
                Some(n) => {
                    l.encounters[k].arrives = true;
                    l.events[n].then.push(spawn);
                }
                None => l.encounters[k].arrives = false,
            }
        })
    }
}

fn door_state(l: &mut Level, f: usize, p: Pos, tile: Option<char>) {
    let Some(t) = tile.filter(|t| door_tile(Some(*t))) else { return };
    let k = DOOR_STATES.iter().position(|(c, _)| *c == t).unwrap_or(0);
    let next = DOOR_STATES[(k + 1) % DOOR_STATES.len()].0;
    super::paint::set_tile(l, f, p.x, p.y, next);
    // Leaving "locked": the door's lock goes, and its key when nothing else uses it.
    if t == 'L' {
        let gone = l.doors.iter_mut().find(|d| d.pos == p).and_then(|d| d.lock.take()).and_then(|k| k.key);
        l.doors.retain(|d| d.pos != p || d.lock.is_some() || d.secret);
        drop_unused_key(l, gone);
    }
}

/// The key after `now`: none → each of the level's keys → a new one → none.
fn next_key(l: &mut Level, now: Option<String>) -> Option<String> {
    let ids: Vec<String> = l.keys.iter().map(|k| k.id.clone()).collect();
    let at = now.as_ref().and_then(|n| ids.iter().position(|i| i == n));
    match (now.as_deref(), at) {
        (None, _) if !ids.is_empty() => Some(ids[0].clone()),
        (Some(_), Some(k)) if k + 1 < ids.len() => Some(ids[k + 1].clone()),
        // After a key just made for this lock (used by it alone, lying nowhere): none.
        (Some(n), Some(_)) if uses(l, n) <= 1 && !placed(l, n) => None,
        (Some(_), None) => None,
        _ => {
            let id = unique("key", &ids);
            l.keys.push(KeyDef { id: id.clone(), name: format!("Key {}", ids.len() + 1) });
            Some(id)
        }
    }
}

/// Whether the key lies somewhere (a chest, a space, a trade).
fn placed(l: &Level, key: &str) -> bool {
    l.chests.iter().any(|c| c.items.iter().any(|i| i == key))
        || l.items.iter().any(|i| i.item == key)
        || l.encounters.iter().any(|e| e.trades.iter().any(|t| t.gives == key))
}

/// How many locks name the key.
fn uses(l: &Level, key: &str) -> usize {
    let door = l.doors.iter().filter(|d| d.lock.as_ref().and_then(|k| k.key.as_deref()) == Some(key)).count();
    door + l.chests.iter().filter(|c| c.lock.as_ref().and_then(|k| k.key.as_deref()) == Some(key)).count()
}

/// A key no lock names and that lies nowhere is dropped from `keys` (one the inspector made and
/// then moved past); a key placed somewhere stays.
fn drop_unused_key(l: &mut Level, key: Option<String>) {
    if let Some(k) = key {
        if uses(l, &k) == 0 && !placed(l, &k) {
            l.keys.retain(|d| d.id != k);
        }
    }
}

/// The chest's next item: a key some lock needs that lies nowhere yet, else the next of `LOOT`
/// after the chest's last item.
fn loot_add(l: &mut Level, p: Pos) {
    let unplaced = l.keys.iter().map(|k| k.id.clone()).find(|k| uses(l, k) > 0 && !placed(l, k));
    let Some(c) = l.chests.iter_mut().find(|c| c.pos == p) else { return };
    if c.items.len() >= crate::level_crawl::MAX_CHEST_ITEMS {
        return;
    }
    let item = unplaced.unwrap_or_else(|| {
        let last = c.items.iter().rev().find_map(|i| LOOT.iter().position(|x| x == i));
        LOOT[last.map_or(0, |k| (k + 1) % LOOT.len())].to_string()
    });
    c.items.push(item);
}

fn trap_edit(t: &mut TrapDef, e: FeatureEdit, door: bool, chest: bool) {
    match e {
        FeatureEdit::TrapHidden => t.hidden = !t.hidden,
        FeatureEdit::TrapOn => {
            let ons: Vec<TrapOn> = [(TrapOn::Space, !door), (TrapOn::Door, door), (TrapOn::Chest, chest)].into_iter().filter(|o| o.1).map(|o| o.0).collect();
            let k = ons.iter().position(|o| *o == t.on).map_or(0, |k| (k + 1) % ons.len().max(1));
            if let Some(o) = ons.get(k) {
                t.on = *o;
            }
        }
        FeatureEdit::TrapDamage => {
            let k = DAMAGE.iter().position(|d| *d == t.damage).map_or(0, |k| (k + 1) % DAMAGE.len());
            t.damage = DAMAGE[k];
        }
        FeatureEdit::TrapCondition => {
            let k = CONDITIONS.iter().position(|c| *c == t.condition.as_deref()).map_or(0, |k| (k + 1) % CONDITIONS.len());
            t.condition = CONDITIONS[k].map(str::to_string);
        }
        FeatureEdit::TrapRearms => t.rearms = !t.rearms,
        _ => {}
    }
}

fn light_edit(li: &mut LightDef, e: FeatureEdit) {
    let full = |item: &str| LIGHTS.iter().find(|(i, _)| *i == item).map_or(60, |(_, m)| *m);
    match e {
        FeatureEdit::LightItem => {
            let k = LIGHTS.iter().position(|(i, _)| *i == li.item).map_or(0, |k| (k + 1) % LIGHTS.len());
            li.item = LIGHTS[k].0.to_string();
            li.minutes = li.minutes.min(full(&li.item));
        }
        FeatureEdit::LightMinutes(up) => {
            let full = full(&li.item);
            li.minutes = if up { (li.minutes + MINUTES_STEP).min(full) } else { li.minutes.saturating_sub(MINUTES_STEP).max(1) };
        }
        _ => {}
    }
}
