//! Find by id (issue 46, "Tools"): the ids the level holds — figures, keys, chests, traps,
//! checks, items lying, encounters, events, variables — that match a typed text, each with the space the
//! window jumps to, the exact matches first, then those that begin with it, then those that
//! contain it (letter case ignored). Doors and dark areas have no ids in the level format.

use super::doc::Doc;
use crate::level_file::Level;
use crate::rules::grid::Pos;
use crate::rules::story::{Action, Trigger};

/// The kinds of ids a level holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum IdKind {
    Figure,
    Key,
    Chest,
    Trap,
    Check,
    /// An item lying in a space (its item id; several may share one).
    Item,
    Encounter,
    Event,
    /// A level variable (`vars`, issue 46): it has no space.
    Var,
}

impl IdKind {
    pub fn word(self) -> &'static str {
        match self {
            IdKind::Figure => "figure",
            IdKind::Key => "key",
            IdKind::Chest => "chest",
            IdKind::Trap => "trap",
            IdKind::Check => "check",
            IdKind::Item => "item",
            IdKind::Encounter => "encounter",
            IdKind::Event => "event",
            IdKind::Var => "variable",
        }
    }
}

/// One id found: its kind, the id, and its space (floor included), when it has one: a key's
/// is where it lies (in a space, in a chest, carried) or else the first door it opens; an
/// encounter's is its first member's on the map; an event's is its area's corner or its door.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub kind: IdKind,
    pub id: String,
    pub at: Option<Pos>,
}

impl Found {
    /// The find list's line: `key gold_key at (3, 4)`.
    pub fn line(&self) -> String {
        match self.at {
            Some(p) if p.floor > 0 => format!("{} {} at ({}, {}) on floor {}", self.kind.word(), self.id, p.x, p.y, p.floor + 1),
            Some(p) => format!("{} {} at ({}, {})", self.kind.word(), self.id, p.x, p.y),
            None => format!("{} {} (no space)", self.kind.word(), self.id),
        }
    }
}

/// The most ids one find lists.
pub const MAX_FOUND: usize = 200;

/// Where the key lies or is used first.
fn key_at(l: &Level, id: &str) -> Option<Pos> {
    let carried = l.characters.iter().find(|c| c.items.iter().flatten().any(|i| i == id)).and_then(|c| c.pos);
    l.items
        .iter()
        .find(|i| i.item == id)
        .map(|i| i.pos)
        .or_else(|| l.chests.iter().find(|c| c.items.iter().any(|i| i == id)).map(|c| c.pos))
        .or(carried)
        .or_else(|| l.doors.iter().find(|d| d.lock.as_ref().and_then(|k| k.key.as_deref()) == Some(id)).map(|d| d.pos))
        .or_else(|| l.chests.iter().find(|c| c.lock.as_ref().and_then(|k| k.key.as_deref()) == Some(id)).map(|c| c.pos))
}

fn event_at(e: &crate::rules::story::EventDef) -> Option<Pos> {
    match &e.when {
        Trigger::Enters { area, .. } => return Some(area.from),
        Trigger::DoorOpens { at } => return Some(*at),
        _ => {}
    }
    e.then.iter().find_map(|a| match a {
        Action::Door { at, .. } => Some(*at),
        Action::Reveal { area, .. } => Some(area.from),
        _ => None,
    })
}

/// Every id of the level with its kind and space, in the level's order (kinds as `IdKind`).
pub(super) fn all_ids(l: &Level) -> Vec<Found> {
    let f = |kind, id: &str, at| Found { kind, id: id.to_string(), at };
    let mut out: Vec<Found> = l.characters.iter().filter_map(|c| Some(f(IdKind::Figure, c.id.as_deref()?, c.pos))).collect();
    out.extend(l.keys.iter().map(|k| f(IdKind::Key, &k.id, key_at(l, &k.id))));
    out.extend(l.chests.iter().map(|c| f(IdKind::Chest, &c.id, Some(c.pos))));
    out.extend(l.traps.iter().map(|t| f(IdKind::Trap, &t.id, Some(t.pos))));
    out.extend(l.checks.iter().map(|c| f(IdKind::Check, &c.id, Some(c.pos))));
    out.extend(l.items.iter().map(|i| f(IdKind::Item, &i.item, Some(i.pos))));
    for e in &l.encounters {
        let at = e.members.iter().find_map(|m| l.characters.iter().find(|c| c.id.as_deref() == Some(m.as_str()))?.pos);
        out.push(f(IdKind::Encounter, &e.id, at));
    }
    out.extend(l.events.iter().map(|e| f(IdKind::Event, &e.id, event_at(e))));
    out.extend(l.vars.keys().map(|v| f(IdKind::Var, v, None)));
    out
}

impl Doc {
    /// The ids that match `text` (trimmed, letter case ignored): exact matches, then those
    /// that begin with it, then those that contain it; each group in the level's order
    /// (figures, keys, chests, traps, checks, items, encounters, events, variables). Nothing for an
    /// empty text; at most `MAX_FOUND`.
    pub fn find_ids(&self, text: &str) -> Vec<Found> {
        let t = text.trim().to_lowercase();
        if t.is_empty() {
            return vec![];
        }
        let mut hits: Vec<(u8, Found)> = all_ids(&self.level)
            .into_iter()
            .filter_map(|found| {
                let id = found.id.to_lowercase();
                let rank = if id == t {
                    0
                } else if id.starts_with(&t) {
                    1
                } else if id.contains(&t) {
                    2
                } else {
                    return None;
                };
                Some((rank, found))
            })
            .collect();
        // Stable: the level's order within each rank.
        hits.sort_by_key(|(rank, _)| *rank);
        hits.into_iter().map(|(_, f)| f).take(MAX_FOUND).collect()
    }
}
