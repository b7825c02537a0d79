//! Two of the editor's tools (issue 46): figures grouped into one encounter with the mouse (the
//! figures in the selection join the first one's encounter: they wake, arrive and are told
//! orders together), and the flood fill (a map character poured over the connected spaces
//! that hold the same character as the one clicked).

use super::brush::Rect;
use super::doc::{Doc, encounter_of};
use crate::level_file::Level;
use crate::rules::orders::Orders;
use crate::rules::story::Action;

/// Every `orders` the level holds (a figure's, an encounter's, an `orders` action's), each
/// passed to `f`.
pub(super) fn each_orders(l: &mut Level, mut f: impl FnMut(&mut Option<Orders>)) {
    l.characters.iter_mut().for_each(|c| f(&mut c.orders));
    l.encounters.iter_mut().for_each(|e| f(&mut e.orders));
    for e in l.events.iter_mut() {
        for a in e.then.iter_mut() {
            if let Action::Orders { to, .. } = a {
                f(to);
            }
        }
    }
}

/// Spaces one flood fill changes at most (a whole 1 024 × 1 024 floor).
pub const MAX_FILL: usize = 1 << 20;

/// What `group_encounter` did, in words for the status line.
#[derive(Clone, Debug, PartialEq)]
pub struct Grouped {
    /// The encounter they are now in.
    pub encounter: String,
    /// Its members.
    pub members: Vec<String>,
    /// The encounters emptied by it, and removed (their `spawn` actions with them).
    pub removed: Vec<String>,
}

impl Grouped {
    pub fn line(&self) -> String {
        let mut s = format!("Encounter {}: {} together.", self.encounter, self.members.join(", "));
        if !self.removed.is_empty() {
            s += &format!(" Emptied and removed: {}.", self.removed.join(", "));
        }
        s
    }
}

/// The encounters `gone` removed from the level with every action naming them (a `spawn`, a
/// stance, orders; a crisis alerts the rest) and every call for help to them (those orders
/// cleared); an event left with no action gets an empty story line (a level event does
/// something).
pub(super) fn drop_encounters(l: &mut Level, gone: &[String]) {
    if gone.is_empty() {
        return;
    }
    l.encounters.retain(|e| !gone.contains(&e.id));
    each_orders(l, |o| {
        if matches!(o, Some(Orders::CallForHelp { encounter }) if gone.contains(encounter)) {
            *o = None;
        }
    });
    for e in l.events.iter_mut() {
        e.then.retain(|a| !matches!(a, Action::Spawn(x) | Action::Stance { encounter: x, .. } | Action::Orders { encounter: x, .. } if gone.contains(x)));
        for a in e.then.iter_mut() {
            if let Action::StartCrisis { encounters, .. } = a {
                encounters.retain(|x| !gone.contains(x));
            }
        }
        if e.then.is_empty() {
            e.then.push(Action::Message(String::new()));
        }
    }
}

impl Doc {
    /// The figures of one side in `area` (on the floor in view) made one encounter: the first
    /// one's (a figure has his own until grouped). The encounters they leave that are left
    /// empty are removed, and so are the actions that name them (`drop_encounters`). `None` when fewer than two figures with ids stand
    /// there, or they are of different sides.
    pub fn group_encounter(&mut self, area: Rect) -> Option<Grouped> {
        let f = self.floor;
        let l = &self.level;
        let inside = |c: &crate::level_file::CharacterEntry| {
            c.pos.is_some_and(|p| p.floor as usize == f && p.x >= area.x0 && p.x <= area.x1 && p.y >= area.y0 && p.y <= area.y1)
        };
        let picked: Vec<(String, Option<String>)> = l.characters.iter().filter(|c| inside(c)).filter_map(|c| Some((c.id.clone()?, c.side.clone()))).collect();
        if picked.len() < 2 || picked.iter().any(|(_, s)| *s != picked[0].1) {
            return None;
        }
        let ids: Vec<String> = picked.into_iter().map(|(id, _)| id).collect();
        let mut out = None;
        self.edit(|l, _| {
            let k = encounter_of(l, &ids[0]);
            let target = l.encounters[k].id.clone();
            let mut left = vec![];
            for e in l.encounters.iter_mut().filter(|e| e.id != target) {
                let before = e.members.len();
                e.members.retain(|m| !ids.contains(m));
                if before > 0 && e.members.is_empty() {
                    left.push(e.id.clone());
                }
            }
            let t = l.encounters.iter_mut().find(|e| e.id == target).expect("the first figure's encounter");
            for id in &ids {
                if !t.members.contains(id) {
                    t.members.push(id.clone());
                }
            }
            let members = t.members.clone();
            drop_encounters(l, &left);
            out = Some(Grouped { encounter: target, members, removed: left });
        });
        out
    }

    /// The map character `c` poured from (x, y) over every space joined to it (up, down, left,
    /// right) that holds the same character, on the floor in view; at most `MAX_FILL` spaces.
    /// True when the map changed.
    pub fn flood_fill(&mut self, x: i32, y: i32, c: char) -> bool {
        self.flood_fill_mirrored(x, y, c, super::Mirror::Off)
    }

    /// `flood_fill` from (x, y) and from each of its mirrors (`mirror`, as a paint's), in one undo
    /// step: each pour takes the character at its own start. True when the map changed.
    pub fn flood_fill_mirrored(&mut self, x: i32, y: i32, c: char, mirror: super::Mirror) -> bool {
        let (w, h) = self.size();
        if w == 0 || h == 0 {
            return false;
        }
        let mut rows: Vec<Vec<char>> = self.level.floors[self.floor].iter().map(|r| r.chars().collect()).collect();
        let mut done = 0;
        for (r, _) in mirror.areas(super::Rect::one(x, y), w as i32, h as i32) {
            done += pour(&mut rows, r.x0, r.y0, c, (w, h));
        }
        if done == 0 {
            return false;
        }
        let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
        self.edit(|l, f| l.floors[f] = rows)
    }
}

/// `c` poured from (x, y) over the spaces joined to it holding its character (at most
/// `MAX_FILL`); the spaces changed.
fn pour(rows: &mut [Vec<char>], x: i32, y: i32, c: char, (w, h): (usize, usize)) -> usize {
    let Some(from) = rows.get(y.max(0) as usize).and_then(|r| r.get(x.max(0) as usize)).copied().filter(|_| x >= 0 && y >= 0) else { return 0 };
    if from == c {
        return 0;
    }
    let mut stack = vec![(x, y)];
    let mut done = 0;
    while let Some((x, y)) = stack.pop() {
        if x < 0 || y < 0 || x as usize >= w || y as usize >= h || done >= MAX_FILL {
            continue;
        }
        match rows.get_mut(y as usize).and_then(|r| r.get_mut(x as usize)) {
            Some(ch) if *ch == from => *ch = c,
            _ => continue,
        }
        done += 1;
        stack.extend([(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]);
    }
    done
}
