//! Checking a crawl's fields (`check`): the caps, the mode, the explorers, then each list of
//! features, every problem reported at its entry.

use super::format::{
    CR_RANGE, Crawl, CrawlDef, DoorDef, LevelMode, LockDef, MAX_CHECKS, MAX_CHEST_ITEMS, MAX_FEATURES, MAX_START_MINUTE, MAX_TRADE_ITEMS, MAX_TRADES,
};
use crate::data::{Places, RuleData};
use crate::level::CharacterDef;
use crate::rules::explore::TrapOn;
use crate::rules::grid::{Board, Pos, Tile};
use std::collections::{BTreeMap, BTreeSet};

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
        ("checks", def.checks.len()),
        ("lights", def.lights.len()),
        ("non_hostile", def.non_hostile.len()),
    ];
    let mut capped = false;
    for (name, n) in lists {
        let most = if name == "checks" { MAX_CHECKS } else { MAX_FEATURES };
        if n > most {
            err(places.key(name).unwrap_or((1, 1)), format!("{n} {name}; the most is {most}"));
            capped = true;
        }
    }
    if capped {
        return None;
    }
    let any = lists.iter().any(|l| l.1 > 0) || !secret.is_empty() || !def.explorers.is_empty() || def.minute > 0;
    if def.mode == LevelMode::Crisis {
        if any {
            let first = lists.iter().find(|l| l.1 > 0).map(|l| l.0).unwrap_or(if def.minute > 0 { "minute" } else { "explorers" });
            err(
                places.key(first).or_else(|| places.key("mode")).unwrap_or((1, 1)),
                "doors, keys, chests, items, traps, encounters, checks, dark, lights, non_hostile, minute, explorers and secret doors (S) need `mode: exploration`"
                    .into(),
            );
        }
        return None;
    }
    if def.minute > MAX_START_MINUTE {
        err(places.key("minute").unwrap_or((1, 1)), format!("minute {} is out of range (0 to {MAX_START_MINUTE}, R-EXP-2)", def.minute));
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
    let occupied: BTreeMap<Pos, &str> = chars.iter().map(|c| (c.pos, c.id.as_str())).collect();
    let f = Features { def, board, chars, data, places, key_ids, occupied };
    f.keys(err);
    let mut used_keys: BTreeSet<&str> = BTreeSet::new();
    f.doors(&mut used_keys, err);
    let chest_at = f.chests(&mut used_keys, err);
    f.items(err);
    f.keys_used_and_placed(&used_keys, err);
    f.traps(&chest_at, err);
    f.encounters(&explorers, err);
    f.non_hostile(sides, &explorers, err);
    f.dark(err);
    let checks = f.checks(err);
    f.lights(err);
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
        checks,
        minute: def.minute,
        lights: def.lights.to_vec(),
        non_hostile: def.non_hostile.to_vec(),
    })
}

/// What checking a crawl's features needs: its fields, the board (`None` when the map is
/// unusable), the characters, the data, where things are in the file, and the key ids and
/// occupied spaces, worked out once.
struct Features<'a> {
    def: &'a CrawlDef<'a>,
    board: Option<&'a Board>,
    chars: &'a [CharacterDef],
    data: &'a RuleData,
    places: &'a Places<'a>,
    key_ids: BTreeSet<&'a str>,
    occupied: BTreeMap<Pos, &'a str>,
}

/// Where a problem goes: `err(at, message)`.
type Report<'r> = dyn FnMut((usize, usize), String) + 'r;

/// A CR out of its range (§24) is a problem.
fn check_cr(at: (usize, usize), what: &str, v: Option<i32>, err: &mut Report<'_>) {
    if let Some(v) = v.filter(|v| !(CR_RANGE.0..=CR_RANGE.1).contains(v)) {
        err(at, format!("{what} {v} is out of range ({} to {})", CR_RANGE.0, CR_RANGE.1));
    }
}

impl<'a> Features<'a> {
    fn known_item(&self, i: &str) -> bool {
        self.data.equipment.item(i).is_some() || self.key_ids.contains(i)
    }

    fn check_lock(&self, at: (usize, usize), lock: &LockDef, what: &str, err: &mut Report<'_>) {
        check_cr(at, &format!("{what}: lock cr"), lock.cr, err);
        check_cr(at, &format!("{what}: force_cr"), lock.force_cr, err);
        if let Some(k) = &lock.key {
            if !self.key_ids.contains(k.as_str()) {
                err(at, format!("{what}: key '{}' is not in `keys`", clip(k)));
            }
        }
    }

    fn walk(&self, p: Pos) -> bool {
        self.board.is_some_and(|b| b.walkable(p))
    }

    fn is_door(&self, p: Pos) -> bool {
        self.board.is_some_and(|b| matches!(b.tile(p), Some(Tile::DoorOpen | Tile::DoorClosed | Tile::DoorLocked)))
    }

    fn where_(&self, p: Pos) -> String {
        match self.board.and_then(|b| b.tile(p)) {
            None => "outside the map".to_string(),
            Some(t) => format!("on {}", crate::rules::grid::tile_name(t)),
        }
    }

    /// Keys: usable ids and names, no equipment item's id, each listed once.
    fn keys(&self, err: &mut Report<'_>) {
        let (def, places, data) = (self.def, self.places, self.data);
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
    }

    /// Doors: on door spaces, a lock only on a locked door (its key noted in `used_keys`), a
    /// secret door closed, each listed once.
    fn doors(&self, used_keys: &mut BTreeSet<&'a str>, err: &mut Report<'_>) {
        let (def, places, board) = (self.def, self.places, self.board);
        for (k, d) in def.doors.iter().enumerate() {
            let at = places.item("doors", k);
            if board.is_some() && !self.is_door(d.pos) {
                err(at, format!("door: {} is not a door space (/ + L S), it is {}", d.pos, self.where_(d.pos)));
                continue;
            }
            if let Some(l) = &d.lock {
                if board.is_some_and(|b| b.tile(d.pos) != Some(Tile::DoorLocked)) {
                    err(at, format!("door at {}: a lock needs a locked door (L) on the map", d.pos));
                }
                self.check_lock(at, l, &format!("door at {}", d.pos), err);
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
    }

    /// Chests: on free floor, one per space, known items, a lock (its key noted in `used_keys`)
    /// that does not lock its own key inside. Returns the chest of each space.
    fn chests(&self, used_keys: &mut BTreeSet<&'a str>, err: &mut Report<'_>) -> BTreeMap<Pos, usize> {
        let (def, places, board, occupied) = (self.def, self.places, self.board, &self.occupied);
        let mut chest_at: BTreeMap<Pos, usize> = BTreeMap::new();
        for (k, c) in def.chests.iter().enumerate() {
            let at = places.item("chests", k);
            if let Some(p) = crate::data::id_problem(&c.id) {
                err(at, format!("chest: {p}"));
            }
            if board.is_some() && (!self.walk(c.pos) || self.is_door(c.pos)) {
                err(at, format!("chest '{}': {} is {}; a chest stands on floor", clip(&c.id), c.pos, self.where_(c.pos)));
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
                if !self.known_item(i) {
                    err(at, format!("chest '{}': unknown item '{}' (an item of assets/equipment/equipment.ron or a key in `keys`)", clip(&c.id), clip(i)));
                }
            }
            if let Some(l) = &c.lock {
                self.check_lock(at, l, &format!("chest '{}'", clip(&c.id)), err);
                if let Some(key) = &l.key {
                    used_keys.insert(key.as_str());
                    if c.items.iter().any(|i| i == key) {
                        err(at, format!("chest '{}': its own key '{}' is locked inside it", clip(&c.id), clip(key)));
                    }
                }
            }
        }
        chest_at
    }

    /// Items lying in spaces: on walkable spaces, known items.
    fn items(&self, err: &mut Report<'_>) {
        let (def, places, board) = (self.def, self.places, self.board);
        for (k, it) in def.items.iter().enumerate() {
            let at = places.item("items", k);
            if board.is_some() && !self.walk(it.pos) {
                err(at, format!("item '{}': {} is {}", clip(&it.item), it.pos, self.where_(it.pos)));
            }
            if !self.known_item(&it.item) {
                err(at, format!("unknown item '{}' (an item of assets/equipment/equipment.ron or a key in `keys`)", clip(&it.item)));
            }
        }
    }

    /// Keys must open something and lie somewhere.
    fn keys_used_and_placed(&self, used_keys: &BTreeSet<&str>, err: &mut Report<'_>) {
        let (def, places) = (self.def, self.places);
        for (k, key) in def.keys.iter().enumerate() {
            let at = places.item("keys", k);
            if !used_keys.contains(key.id.as_str()) {
                err(at, format!("key '{}' opens no door or chest (name it in a lock's `key`)", clip(&key.id)));
            }
            let traded = def.encounters.iter().any(|e| e.trades.iter().any(|t| t.gives == key.id)); // R-CP-16
            let placed = def.chests.iter().any(|c| c.items.contains(&key.id)) || def.items.iter().any(|i| i.item == key.id) || traded;
            if !placed {
                err(at, format!("key '{}' is nowhere: put it in a chest, in `items` or in a trade", clip(&key.id)));
            }
        }
    }

    /// Traps: usable ids, each used once, where they lie (a space, a door, a chest), their CRs,
    /// damage and condition.
    fn traps(&self, chest_at: &BTreeMap<Pos, usize>, err: &mut Report<'_>) {
        let (def, places, data, board) = (self.def, self.places, self.data, self.board);
        for (k, t) in def.traps.iter().enumerate() {
            let at = places.item("traps", k);
            if let Some(p) = crate::data::id_problem(&t.id) {
                err(at, format!("trap: {p}"));
            }
            if def.traps[..k].iter().any(|o| o.id == t.id) {
                err(at, format!("trap id '{}' is used twice", clip(&t.id)));
            }
            match t.on {
                TrapOn::Space if board.is_some() && (!self.walk(t.pos) || self.is_door(t.pos)) => {
                    err(at, format!("trap '{}': {} is {}; a trap in a space needs floor (use `on: door` for a door)", clip(&t.id), t.pos, self.where_(t.pos)))
                }
                TrapOn::Door if board.is_some() && !self.is_door(t.pos) => {
                    err(at, format!("trap '{}': no door at {} ({})", clip(&t.id), t.pos, self.where_(t.pos)))
                }
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
    }

    /// Encounters: usable ids, each used once, members who are characters, not explorers, and
    /// in one encounter only.
    fn encounters(&self, explorers: &[String], err: &mut Report<'_>) {
        let (def, places, chars) = (self.def, self.places, self.chars);
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
            if let Some(p) = e.says.as_deref().and_then(|t| crate::data::text_problem("what it says", t, crate::data::MAX_TEXT_CHARS)) {
                err(at, format!("encounter '{}': {p}", clip(&e.id)));
            }
            // R-CP-16: an encounter is non-hostile as a whole, or not at all.
            let calm_side = |id: &String| chars.iter().find(|c| &c.id == id).is_some_and(|c| def.non_hostile.contains(&c.side));
            if !e.non_hostile && e.members.iter().any(calm_side) && !e.members.iter().all(calm_side) {
                err(
                    at,
                    format!("encounter '{}' mixes figures of a non-hostile side with hostile ones (mark it `non_hostile: true`, or split it)", clip(&e.id)),
                );
            }
            let calm = e.non_hostile || (!e.members.is_empty() && e.members.iter().all(calm_side));
            self.trades(at, e, calm, err);
            for mem in e.members.iter().take(crate::data::MAX_ENTITIES) {
                match chars.iter().find(|c| &c.id == mem) {
                    None => err(at, format!("encounter '{}': unknown character '{}'", clip(&e.id), clip(mem))),
                    Some(c) if explorers.contains(&c.side) => {
                        err(at, format!("encounter '{}': '{}' is an explorer (side '{}')", clip(&e.id), clip(mem), c.side))
                    }
                    Some(_) => {
                        if let Some(o) = member_of.insert(mem.as_str(), e.id.as_str()) {
                            err(at, format!("encounter '{}': '{}' already belongs to encounter '{}'", clip(&e.id), clip(mem), clip(o)));
                        }
                    }
                }
            }
        }
    }

    /// An encounter's trades (R-CP-16): only on a non-hostile one, capped, of known items.
    fn trades(&self, at: (usize, usize), e: &super::format::EncounterDef, calm: bool, err: &mut Report<'_>) {
        if e.trades.is_empty() {
            return;
        }
        if !calm {
            return err(at, format!("encounter '{}': only a non-hostile encounter trades (R-CP-16)", clip(&e.id)));
        }
        if e.trades.len() > MAX_TRADES {
            return err(at, format!("encounter '{}': {} trades; the most is {MAX_TRADES}", clip(&e.id), e.trades.len()));
        }
        for (k, t) in e.trades.iter().enumerate() {
            let what = format!("encounter '{}': trade {k}", clip(&e.id));
            if t.wants.is_empty() || t.wants.len() > MAX_TRADE_ITEMS {
                err(at, format!("{what}: asks for {} items; 1 to {MAX_TRADE_ITEMS}", t.wants.len()));
                continue;
            }
            for i in std::iter::once(&t.gives).chain(&t.wants) {
                if !self.known_item(i) {
                    err(at, format!("{what}: unknown item '{}' (an item of assets/equipment/equipment.ron or a key in `keys`)", clip(i)));
                }
            }
        }
    }

    /// Non-hostile sides (R-CP-16): sides of the level, not exploring.
    fn non_hostile(&self, sides: &[String], explorers: &[String], err: &mut Report<'_>) {
        let at = self.places.key("non_hostile").unwrap_or((1, 1));
        for (k, s) in self.def.non_hostile.iter().enumerate() {
            if !sides.contains(s) {
                err(at, format!("non_hostile: unknown side '{}'", clip(s)));
            } else if explorers.contains(s) {
                err(at, format!("non_hostile: '{}' explores; only the sides met in the dungeon can be non-hostile", clip(s)));
            }
            if self.def.non_hostile[..k].contains(s) {
                err(at, format!("non_hostile: side '{}' is listed twice", clip(s)));
            }
        }
    }

    /// Lights burning at the start (R-EXP-18): a light of the book, 1 to its full minutes, held
    /// by one character (one light each) or lying on floor.
    fn lights(&self, err: &mut Report<'_>) {
        let (def, places, data) = (self.def, self.places, self.data);
        for (k, l) in def.lights.iter().enumerate() {
            let at = places.item("lights", k);
            let Some(row) = data.exploration.lights.iter().find(|r| r.item == l.item) else {
                let known: Vec<&str> = data.exploration.lights.iter().map(|r| r.item.as_str()).collect();
                err(at, format!("light: '{}' is not a light (known: {})", clip(&l.item), known.join(", ")));
                continue;
            };
            if !(1..=row.minutes).contains(&l.minutes) {
                err(at, format!("light '{}': minutes {} is out of range (1 to {}, R-EXP-18)", clip(&l.item), l.minutes, row.minutes));
            }
            match (&l.held_by, l.pos) {
                (Some(h), None) => {
                    if !self.chars.iter().any(|c| &c.id == h) {
                        err(at, format!("light '{}': unknown character '{}'", clip(&l.item), clip(h)));
                    } else if def.lights[..k].iter().any(|o| o.held_by.as_ref() == Some(h)) {
                        err(at, format!("light '{}': '{}' already holds a burning light (one each)", clip(&l.item), clip(h)));
                    }
                }
                (None, Some(p)) => {
                    if self.board.is_some() && (!self.walk(p) || self.is_door(p)) {
                        err(at, format!("light '{}': {p} is {}; a light lies on floor", clip(&l.item), self.where_(p)));
                    }
                    if def.chests.iter().any(|c| c.pos == p) {
                        err(at, format!("light '{}': a chest fills {p}", clip(&l.item)));
                    }
                }
                _ => err(at, format!("light '{}': give exactly one of `held_by` (a character) and `pos` (a space)", clip(&l.item))),
            }
        }
    }

    /// Dark areas: both corners on the map, on one floor.
    fn dark(&self, err: &mut Report<'_>) {
        let (def, places, board) = (self.def, self.places, self.board);
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
    }
}

impl Features<'_> {
    /// Plain skill checks (R-EXP-8): usable ids, each once, one per space, on a space a hero
    /// can reach within 1, a known skill, a CR in range, texts within the caps.
    fn checks(&self, err: &mut Report<'_>) -> Vec<crate::rules::explore::LevelCheck> {
        let (def, places, board, data) = (self.def, self.places, self.board, self.data);
        let mut out = Vec::new();
        for (k, c) in def.checks.iter().enumerate() {
            let at = places.item("checks", k);
            let mut ok = true;
            let mut bad = |m: String| {
                err(at, m);
                ok = false;
            };
            if let Some(p) = crate::data::id_problem(&c.id) {
                bad(format!("check: {p}"));
            }
            if def.checks[..k].iter().any(|o| o.id == c.id) {
                bad(format!("check id '{}' is used twice", clip(&c.id)));
            }
            if def.checks[..k].iter().any(|o| o.pos == c.pos) {
                bad(format!("check '{}': {} already has a check", clip(&c.id), c.pos));
            }
            if let Some(b) = board {
                if b.tile(c.pos).is_none() {
                    bad(format!("check '{}': {} is outside the map", clip(&c.id), c.pos));
                }
            }
            let stat = data.heroes.skills.get(&c.skill).copied();
            if stat.is_none() {
                bad(format!("check '{}': unknown skill '{}' (a skill of assets/rules/heroes.ron)", clip(&c.id), clip(&c.skill)));
            }
            if !(CR_RANGE.0..=CR_RANGE.1).contains(&c.cr) {
                bad(format!("check '{}': cr {} is out of range ({} to {})", clip(&c.id), c.cr, CR_RANGE.0, CR_RANGE.1));
            }
            for (what, t) in [("text", &c.text), ("success", &c.success)] {
                if let Some(p) = crate::data::text_problem(&format!("the check's {what}"), t, crate::data::MAX_TEXT_CHARS) {
                    bad(format!("check '{}': {p}", clip(&c.id)));
                }
            }
            if let (true, Some(stat)) = (ok, stat) {
                out.push(crate::rules::explore::LevelCheck {
                    id: c.id.clone(),
                    pos: c.pos,
                    skill: c.skill.clone(),
                    stat,
                    cr: c.cr,
                    text: c.text.clone(),
                    success: c.success.clone(),
                });
            }
        }
        out
    }
}

fn clip(s: &str) -> String {
    s.chars().take(40).map(|c| if c.is_control() { '?' } else { c }).collect()
}
