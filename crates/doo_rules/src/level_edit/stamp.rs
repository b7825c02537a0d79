//! Stamps (issue 46, "Tools"): the selection copied whole — its map characters and whatever the
//! level holds in its spaces (figures with their encounters and the lights they hold, doors'
//! locks and secrets, chests, items, traps, lights, checks, exits, dark) — and put down again
//! at a space, clipped to the map, every pasted figure, encounter, chest, trap and check given
//! an id of its own. What stood in the spaces pasted over goes (one undo step brings it back).

use super::brush::{Rect, pos, unique};
use super::doc::{Doc, Pasted};
use super::paint::{clear_where, place_figure, set_tile};
use crate::level_crawl::{AreaDef, CheckDef, ChestDef, DoorDef, EncounterDef, ItemDef, LevelMode, LightDef, TrapDef};
use crate::level_file::{CharacterEntry, Level};
use crate::rules::goal::Goal;
use crate::rules::grid::Pos;
use crate::rules::orders::Orders;
use crate::rules::victory::Victory;

/// A copied selection: every place in it counted from its top-left corner (floor 0).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Stamp {
    /// The top-left space of the selection copied (its orders' places are counted from it).
    pub origin: Pos,
    /// Width and height.
    pub w: i32,
    pub h: i32,
    /// The map characters, row by row.
    pub rows: Vec<Vec<char>>,
    pub figures: Vec<CharacterEntry>,
    /// The encounters of the figures copied, with only those members.
    pub encounters: Vec<EncounterDef>,
    pub doors: Vec<DoorDef>,
    pub chests: Vec<ChestDef>,
    pub items: Vec<ItemDef>,
    pub traps: Vec<TrapDef>,
    /// Lights lying in the spaces and those the figures copied hold.
    pub lights: Vec<LightDef>,
    pub checks: Vec<CheckDef>,
    /// Exits: the side whose goal they are, and the space.
    pub exits: Vec<(String, Pos)>,
    /// Dark areas, cut to the selection.
    pub dark: Vec<AreaDef>,
}

impl Stamp {
    pub fn is_empty(&self) -> bool {
        self.w <= 0 || self.h <= 0
    }
}

/// `p` moved by (dx, dy) onto floor `f`.
fn shift(p: Pos, dx: i32, dy: i32, f: usize) -> Pos {
    pos(p.x + dx, p.y + dy, f)
}

/// The stamp of `area` (already on the map) of floor `f`.
pub(super) fn cut(l: &Level, f: usize, area: Rect, rows: Vec<Vec<char>>) -> Stamp {
    let inside = |p: &Pos| p.floor as usize == f && area.contains(p.x, p.y);
    let rel = |p: Pos| shift(p, -area.x0, -area.y0, 0);
    let figures: Vec<CharacterEntry> =
        l.characters.iter().filter(|c| c.pos.as_ref().is_some_and(inside)).map(|c| CharacterEntry { pos: c.pos.map(rel), ..c.clone() }).collect();
    let ids: Vec<&str> = figures.iter().filter_map(|c| c.id.as_deref()).collect();
    let encounters = l
        .encounters
        .iter()
        .filter(|e| e.members.iter().any(|m| ids.contains(&m.as_str())))
        .map(|e| EncounterDef { members: e.members.iter().filter(|m| ids.contains(&m.as_str())).cloned().collect(), ..e.clone() })
        .collect();
    let held = |li: &LightDef| li.held_by.as_deref().is_some_and(|h| ids.contains(&h));
    let mut exits = Vec::new();
    for v in &l.victory {
        if let Goal::ReachExit(e) = &v.goal {
            exits.extend(e.iter().filter(|p| inside(p)).map(|p| (v.side.clone(), rel(*p))));
        }
    }
    let dark = l
        .dark
        .iter()
        .filter(|a| a.from.floor as usize == f)
        .filter_map(|a| {
            let r = Rect::new((a.from.x, a.from.y), (a.to.x, a.to.y));
            let c = Rect { x0: r.x0.max(area.x0), y0: r.y0.max(area.y0), x1: r.x1.min(area.x1), y1: r.y1.min(area.y1) };
            (c.x0 <= c.x1 && c.y0 <= c.y1).then(|| AreaDef { from: rel(pos(c.x0, c.y0, f)), to: rel(pos(c.x1, c.y1, f)) })
        })
        .collect();
    Stamp {
        origin: pos(area.x0, area.y0, f),
        w: area.x1 - area.x0 + 1,
        h: area.y1 - area.y0 + 1,
        rows,
        encounters,
        doors: l.doors.iter().filter(|d| inside(&d.pos)).map(|d| DoorDef { pos: rel(d.pos), ..d.clone() }).collect(),
        chests: l.chests.iter().filter(|c| inside(&c.pos)).map(|c| ChestDef { pos: rel(c.pos), ..c.clone() }).collect(),
        items: l.items.iter().filter(|i| inside(&i.pos)).map(|i| ItemDef { pos: rel(i.pos), ..i.clone() }).collect(),
        traps: l.traps.iter().filter(|t| inside(&t.pos)).map(|t| TrapDef { pos: rel(t.pos), ..t.clone() }).collect(),
        lights: l
            .lights
            .iter()
            .filter(|li| li.pos.as_ref().is_some_and(inside) || held(li))
            .map(|li| LightDef { pos: li.pos.map(rel), ..li.clone() })
            .collect(),
        checks: l.checks.iter().filter(|c| inside(&c.pos)).map(|c| CheckDef { pos: rel(c.pos), ..c.clone() }).collect(),
        exits,
        dark,
        figures,
    }
}

/// Clears the spaces of `area` on floor `f` (what stands and lies there, exits, checks; dark
/// stays): an encounter left without members goes with the actions naming it.
pub(super) fn clear_area(l: &mut Level, f: usize, area: Rect) {
    let here = |p: &Pos| p.floor as usize == f && area.contains(p.x, p.y);
    let before: Vec<String> = l.encounters.iter().map(|e| e.id.clone()).collect();
    clear_where(l, here, |_, _| false);
    l.checks.retain(|c| !here(&c.pos));
    let gone: Vec<String> = before.into_iter().filter(|id| !l.encounters.iter().any(|e| e.id == *id)).collect();
    super::group::drop_encounters(l, &gone);
}

/// `area` cleared (`clear_area`) and the stamp's map characters written.
fn clear_and_draw(l: &mut Level, f: usize, x: i32, y: i32, area: Rect, s: &Stamp) {
    clear_area(l, f, area);
    for (dy, row) in s.rows.iter().enumerate() {
        for (dx, ch) in row.iter().enumerate() {
            let (px, py) = (x + dx as i32, y + dy as i32);
            if area.contains(px, py) {
                set_tile(l, f, px, py, *ch);
            }
        }
    }
}

/// The stamp's figures put down (fresh ids), with their encounters and held lights; what each
/// copied id became.
fn put_figures(l: &mut Level, f: usize, at: &dyn Fn(Pos) -> Option<Pos>, s: &Stamp) -> Vec<(String, String)> {
    let mut renamed: Vec<(String, String)> = Vec::new();
    for c in &s.figures {
        let Some(p) = c.pos.and_then(at) else { continue };
        place_figure(l, f, p.x, p.y, c);
        if let (Some(old), Some(new)) = (c.id.clone(), l.characters.last().and_then(|n| n.id.clone())) {
            renamed.push((old, new));
        }
    }
    let new_id = |old: &str| renamed.iter().find(|(o, _)| o == old).map(|(_, n)| n.clone());
    let mut encounters: Vec<(String, String)> = Vec::new();
    for e in &s.encounters {
        let members: Vec<String> = e.members.iter().filter_map(|m| new_id(m)).collect();
        if members.is_empty() {
            continue;
        }
        let taken: Vec<String> = l.encounters.iter().map(|e| e.id.clone()).collect();
        let id = unique(&e.id, &taken);
        encounters.push((e.id.clone(), id.clone()));
        // A copy of an encounter that arrives later is on the map from the start (no event
        // spawns it: one `spawn` brings one encounter).
        l.encounters.push(EncounterDef { id, members, arrives: false, ..e.clone() });
    }
    // Their orders follow them: places in the selection copied, the figures and encounters
    // copied with them.
    let fix = Refs { s, at, figures: &renamed, encounters: &encounters };
    for c in l.characters.iter_mut().filter(|c| c.id.as_ref().is_some_and(|id| renamed.iter().any(|(_, n)| n == id))) {
        fix.orders(&mut c.orders);
    }
    for e in l.encounters.iter_mut().filter(|e| encounters.iter().any(|(_, n)| *n == e.id)) {
        fix.orders(&mut e.orders);
    }
    for li in s.lights.iter().filter(|li| li.held_by.is_some()) {
        if let Some(h) = li.held_by.as_deref().and_then(new_id) {
            l.lights.push(LightDef { held_by: Some(h), pos: None, ..li.clone() });
        }
    }
    renamed
}

/// What a pasted figure's or encounter's orders name, moved with the paste.
struct Refs<'a> {
    s: &'a Stamp,
    at: &'a dyn Fn(Pos) -> Option<Pos>,
    figures: &'a [(String, String)],
    encounters: &'a [(String, String)],
}

impl Refs<'_> {
    /// A place of the selection copied, where the paste put it (`None`: elsewhere, or cut off).
    fn place(&self, p: Pos) -> Option<Pos> {
        let o = self.s.origin;
        let inside = p.floor == o.floor && Rect { x0: o.x, y0: o.y, x1: o.x + self.s.w - 1, y1: o.y + self.s.h - 1 }.contains(p.x, p.y);
        if inside { (self.at)(pos(p.x - o.x, p.y - o.y, 0)) } else { None }
    }

    fn orders(&self, o: &mut Option<Orders>) {
        let moved = |p: &mut Pos| {
            if let Some(q) = self.place(*p) {
                *p = q;
            }
        };
        let new = |list: &[(String, String)], id: &mut String| {
            if let Some((_, n)) = list.iter().find(|(old, _)| old == id) {
                *id = n.clone();
            }
        };
        match o {
            Some(Orders::Guard { area }) => {
                if let (Some(a), Some(b)) = (self.place(area.from), self.place(area.to)) {
                    (area.from, area.to) = (a, b);
                }
            }
            Some(Orders::Patrol { route }) => route.iter_mut().for_each(moved),
            Some(Orders::Hold { at }) | Some(Orders::Flee { to: at, .. }) => moved(at),
            Some(Orders::Bodyguard { figure }) => new(self.figures, figure),
            Some(Orders::CallForHelp { encounter }) => new(self.encounters, encounter),
            _ => {}
        }
    }
}

/// The stamp's features put down where `at` places them (fresh ids).
fn put_features(l: &mut Level, at: &dyn Fn(Pos) -> Option<Pos>, s: &Stamp) {
    for d in &s.doors {
        if let Some(p) = at(d.pos) {
            l.doors.push(DoorDef { pos: p, ..d.clone() });
        }
    }
    for c in &s.chests {
        if let Some(p) = at(c.pos) {
            let taken: Vec<String> = l.chests.iter().map(|c| c.id.clone()).collect();
            l.chests.push(ChestDef { id: unique(&c.id, &taken), pos: p, ..c.clone() });
        }
    }
    l.items.extend(s.items.iter().filter_map(|i| Some(ItemDef { pos: at(i.pos)?, ..i.clone() })));
    for t in &s.traps {
        if let Some(p) = at(t.pos) {
            let taken: Vec<String> = l.traps.iter().map(|t| t.id.clone()).collect();
            l.traps.push(TrapDef { id: unique(&t.id, &taken), pos: p, ..t.clone() });
        }
    }
    l.lights.extend(s.lights.iter().filter_map(|li| Some(LightDef { pos: Some(at(li.pos?)?), ..li.clone() })));
    for c in &s.checks {
        if let Some(p) = at(c.pos) {
            let taken: Vec<String> = l.checks.iter().map(|c| c.id.clone()).collect();
            l.checks.push(CheckDef { id: unique(&c.id, &taken), pos: p, ..c.clone() });
        }
    }
    for (side, p) in &s.exits {
        let Some(p) = at(*p) else { continue };
        match l.victory.iter_mut().find(|v| v.side == *side && matches!(v.goal, Goal::ReachExit(_))) {
            Some(Victory { goal: Goal::ReachExit(e), .. }) => e.push(p),
            _ => l.victory.push(Victory { side: side.clone(), goal: Goal::ReachExit(vec![p]) }),
        }
    }
    for a in &s.dark {
        if let (Some(from), Some(to)) = (at(a.from), at(a.to)) {
            l.dark.push(AreaDef { from, to });
        }
    }
    let crawl = !(s.doors.is_empty() && s.chests.is_empty() && s.items.is_empty() && s.traps.is_empty() && s.checks.is_empty() && s.dark.is_empty());
    if crawl || !s.lights.is_empty() {
        l.mode = LevelMode::Exploration;
    }
}

/// The stamp put down with its top-left corner at (x, y) of floor `f`, clipped to the map.
pub(super) fn put(l: &mut Level, f: usize, x: i32, y: i32, s: &Stamp, size: (usize, usize)) {
    let (w, h) = (size.0 as i32, size.1 as i32);
    let area = Rect { x0: x.max(0), y0: y.max(0), x1: (x + s.w - 1).min(w - 1), y1: (y + s.h - 1).min(h - 1) };
    if area.x0 > area.x1 || area.y0 > area.y1 {
        return;
    }
    clear_and_draw(l, f, x, y, area, s);
    let at = |p: Pos| {
        let q = shift(p, x, y, f);
        area.contains(q.x, q.y).then_some(q)
    };
    // A dark area cut by the map's edge keeps its part on the map.
    let dark: Vec<AreaDef> = s
        .dark
        .iter()
        .filter_map(|a| {
            let r = Rect::new((a.from.x + x, a.from.y + y), (a.to.x + x, a.to.y + y));
            let c = Rect { x0: r.x0.max(area.x0), y0: r.y0.max(area.y0), x1: r.x1.min(area.x1), y1: r.y1.min(area.y1) };
            (c.x0 <= c.x1 && c.y0 <= c.y1).then(|| AreaDef { from: pos(c.x0 - x, c.y0 - y, 0), to: pos(c.x1 - x, c.y1 - y, 0) })
        })
        .collect();
    let s = &Stamp { dark, ..s.clone() };
    put_figures(l, f, &at, s);
    put_features(l, &at, s);
}

impl Doc {
    /// The selection `area` (cut to the map) of the floor in view as a stamp: empty when it
    /// lies off the map.
    pub fn stamp(&self, area: Rect) -> Stamp {
        let (w, h) = self.size();
        let area = Rect { x0: area.x0.max(0), y0: area.y0.max(0), x1: area.x1.min(w as i32 - 1), y1: area.y1.min(h as i32 - 1) };
        if area.x0 > area.x1 || area.y0 > area.y1 {
            return Stamp::default();
        }
        let rows = (area.y0..=area.y1).map(|y| (area.x0..=area.x1).map(|x| self.tile(x, y).unwrap_or('#')).collect()).collect();
        cut(&self.level, self.floor, area, rows)
    }

    /// The stamp put down with its top-left corner at (x, y) on the floor in view, one undo
    /// step: what was in the spaces it covers (on the map) goes, the stamp's map characters and
    /// everything it holds come, figures, encounters, chests, traps and checks with ids of their
    /// own (`orc` pasted again is `orc_2`), a pasted encounter on the map from the start (even when
    /// the one copied arrives later); what falls off the map is left out. The figures
    /// taken off the map by it are told, as `paste_told` tells them.
    pub fn paste_stamp(&mut self, x: i32, y: i32, stamp: &Stamp) -> Pasted {
        let size = self.size();
        if stamp.is_empty() || size.0 == 0 || size.1 == 0 {
            return Pasted { edited: false, removed: vec![] };
        }
        let before: Vec<(String, i32, i32)> = figures_placed(&self.level, self.floor);
        let done = self.edit(|l, f| put(l, f, x, y, stamp, size));
        let after = figures_placed(&self.level, self.floor);
        let removed = if done { before.into_iter().filter(|k| !after.contains(k)).collect() } else { vec![] };
        Pasted { edited: done, removed }
    }
}

/// The figures on floor `f`: id (or template) and space.
pub(super) fn figures_placed(l: &Level, f: usize) -> Vec<(String, i32, i32)> {
    l.characters
        .iter()
        .filter_map(|c| {
            let p = c.pos.filter(|p| p.floor as usize == f)?;
            Some((c.id.clone().or_else(|| c.template.clone()).unwrap_or_else(|| "figure".into()), p.x, p.y))
        })
        .collect()
}
