//! A selection of the map turned a quarter (clockwise, anticlockwise) or flipped (left to
//! right, top to bottom) with what stands on it (issue 46, "Tools"): its map characters, and
//! every place the level gives in it — figures, doors, chests, items, traps, lights, checks,
//! exits, stairs, and the areas and spaces its dark, events and orders name when they lie
//! wholly in it. Ids stay as they are. A turned selection keeps its top-left corner; one that
//! no longer fits the map is refused with a message.

use super::brush::{Rect, pos};
use super::doc::Doc;
use super::paint::set_tile;
use crate::level_file::Level;
use crate::rules::goal::Goal;
use crate::rules::grid::Pos;
use crate::rules::orders::Orders;
use crate::rules::story::{Action, Trigger};

/// How a selection is turned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// A quarter turn clockwise.
    Cw,
    /// A quarter turn anticlockwise.
    Ccw,
    /// Left to right (the left column becomes the right one).
    FlipH,
    /// Top to bottom.
    FlipV,
}

/// The spaces of `area` (on floor `f`) taken where `t` turns them.
struct Move {
    area: Rect,
    f: usize,
    t: Turn,
}

impl Move {
    fn dims(&self) -> (i32, i32) {
        let (w, h) = (self.area.x1 - self.area.x0 + 1, self.area.y1 - self.area.y0 + 1);
        match self.t {
            Turn::Cw | Turn::Ccw => (h, w),
            Turn::FlipH | Turn::FlipV => (w, h),
        }
    }

    /// The space (x, y) of the area, turned.
    fn xy(&self, x: i32, y: i32) -> (i32, i32) {
        let a = self.area;
        let (w, h) = (a.x1 - a.x0 + 1, a.y1 - a.y0 + 1);
        let (rx, ry) = (x - a.x0, y - a.y0);
        let (nx, ny) = match self.t {
            Turn::Cw => (h - 1 - ry, rx),
            Turn::Ccw => (ry, w - 1 - rx),
            Turn::FlipH => (w - 1 - rx, ry),
            Turn::FlipV => (rx, h - 1 - ry),
        };
        (a.x0 + nx, a.y0 + ny)
    }

    fn inside(&self, p: &Pos) -> bool {
        p.floor as usize == self.f && self.area.contains(p.x, p.y)
    }

    /// A place in the area moved.
    fn pos(&self, p: &mut Pos) {
        if self.inside(p) {
            let (x, y) = self.xy(p.x, p.y);
            *p = pos(x, y, self.f);
        }
    }

    /// An area (two corners) wholly in the selection moved, its corners kept top-left and
    /// bottom-right.
    fn area(&self, from: &mut Pos, to: &mut Pos) {
        if !(self.inside(from) && self.inside(to)) {
            return;
        }
        let (a, b) = (self.xy(from.x, from.y), self.xy(to.x, to.y));
        let r = Rect::new(a, b);
        *from = pos(r.x0, r.y0, self.f);
        *to = pos(r.x1, r.y1, self.f);
    }
}

/// Every place the level gives in the area moved.
fn move_places(l: &mut Level, m: &Move) {
    l.characters.iter_mut().filter_map(|c| c.pos.as_mut()).for_each(|p| m.pos(p));
    l.doors.iter_mut().for_each(|d| m.pos(&mut d.pos));
    l.chests.iter_mut().for_each(|c| m.pos(&mut c.pos));
    l.items.iter_mut().for_each(|i| m.pos(&mut i.pos));
    l.traps.iter_mut().for_each(|t| m.pos(&mut t.pos));
    l.lights.iter_mut().filter_map(|li| li.pos.as_mut()).for_each(|p| m.pos(p));
    l.checks.iter_mut().for_each(|c| m.pos(&mut c.pos));
    for s in l.stairs.iter_mut() {
        m.pos(&mut s.from);
        m.pos(&mut s.to);
    }
    for v in l.victory.iter_mut() {
        if let Goal::ReachExit(e) = &mut v.goal {
            e.iter_mut().for_each(|p| m.pos(p));
        }
    }
    l.dark.iter_mut().for_each(|a| m.area(&mut a.from, &mut a.to));
    for e in l.events.iter_mut() {
        match &mut e.when {
            Trigger::Enters { area, .. } => m.area(&mut area.from, &mut area.to),
            Trigger::DoorOpens { at } => m.pos(at),
            _ => {}
        }
        for a in e.then.iter_mut() {
            match a {
                Action::Door { at, .. } => m.pos(at),
                Action::Reveal { area, .. } => m.area(&mut area.from, &mut area.to),
                _ => {}
            }
        }
    }
    super::group::each_orders(l, |o| match o {
        Some(Orders::Guard { area }) => m.area(&mut area.from, &mut area.to),
        Some(Orders::Patrol { route }) => route.iter_mut().for_each(|p| m.pos(p)),
        Some(Orders::Hold { at }) | Some(Orders::Flee { to: at, .. }) => m.pos(at),
        _ => {}
    });
}

/// The spaces of `area` (on the map) of floor `f` flipped in place with what stands on them
/// (`FlipH` or `FlipV`: the area keeps its size): the mirrored paste's second half.
pub(super) fn flip_in_level(l: &mut Level, f: usize, area: Rect, t: Turn) {
    let m = Move { area, f, t };
    let tile = |l: &Level, x: i32, y: i32| l.floors.get(f).and_then(|rows| rows.get(y as usize)).and_then(|r| r.chars().nth(x as usize)).unwrap_or('#');
    let grid: Vec<((i32, i32), char)> = area.cells().map(|(x, y)| (m.xy(x, y), tile(l, x, y))).collect();
    for ((x, y), ch) in &grid {
        set_tile(l, f, *x, *y, *ch);
    }
    move_places(l, &m);
}

impl Doc {
    /// The selection `area` of the floor in view (cut to the map) turned or flipped with what
    /// stands on it, one undo step; its top-left corner stays. A quarter turn of a selection
    /// that is not square makes it `h` × `w`: the spaces it leaves become rock (`#`), and
    /// whatever stood in the spaces it now covers goes. `Ok` with the selection as it is now
    /// (the window selects it); `Err` with the message for the status line when the selection
    /// is off the map or, turned, would not fit the map (nothing changes).
    pub fn turn_selection(&mut self, area: Rect, t: Turn) -> Result<Rect, String> {
        let (mw, mh) = self.size();
        let area = Rect { x0: area.x0.max(0), y0: area.y0.max(0), x1: area.x1.min(mw as i32 - 1), y1: area.y1.min(mh as i32 - 1) };
        if area.x0 > area.x1 || area.y0 > area.y1 {
            return Err("No spaces of the map selected: nothing to turn.".into());
        }
        let m = Move { area, f: self.floor, t };
        let (nw, nh) = m.dims();
        let now = Rect { x0: area.x0, y0: area.y0, x1: area.x0 + nw - 1, y1: area.y0 + nh - 1 };
        if now.x1 >= mw as i32 || now.y1 >= mh as i32 {
            return Err(format!(
                "Turned, the selection ({} x {} at ({}, {})) would be {nw} x {nh} and run off the map ({mw} x {mh}): not turned.",
                area.x1 - area.x0 + 1,
                area.y1 - area.y0 + 1,
                area.x0,
                area.y0
            ));
        }
        let grid: Vec<((i32, i32), char)> = area.cells().map(|(x, y)| (m.xy(x, y), self.tile(x, y).unwrap_or('#'))).collect();
        self.edit(|l, f| {
            // The spaces the turned selection covers anew lose what stood there.
            if now != area {
                let new_part = if now.y1 > area.y1 { Rect { y0: area.y1 + 1, ..now } } else { Rect { x0: area.x1 + 1, ..now } };
                super::stamp::clear_area(l, f, new_part);
            }
            for (x, y) in area.cells().filter(|&(x, y)| !now.contains(x, y)) {
                set_tile(l, f, x, y, '#');
            }
            for ((x, y), ch) in &grid {
                set_tile(l, f, *x, *y, *ch);
            }
            move_places(l, &m);
        });
        Ok(now)
    }
}

impl Doc {
    /// `paste_stamp` at (x, y) and, with the mirror on (as a paint's), the stamp flipped into
    /// each mirrored place too (left to right, top to bottom, both), in one undo step; a mirror
    /// that would overlap the stamp itself (it crosses the middle line) is left out. Figures keep
    /// their sides. The figures taken off the map by it are told.
    pub fn paste_stamp_mirrored(&mut self, x: i32, y: i32, stamp: &super::stamp::Stamp, mirror: super::Mirror) -> super::doc::Pasted {
        use super::Mirror;
        let size = self.size();
        if stamp.is_empty() || size.0 == 0 || size.1 == 0 {
            return super::doc::Pasted { edited: false, removed: vec![] };
        }
        let (w, h) = (size.0 as i32, size.1 as i32);
        let area = Rect::new((x, y), (x + stamp.w - 1, y + stamp.h - 1));
        let fx = |r: Rect| Rect::new((w - 1 - r.x0, r.y0), (w - 1 - r.x1, r.y1));
        let fy = |r: Rect| Rect::new((r.x0, h - 1 - r.y0), (r.x1, h - 1 - r.y1));
        let flips: Vec<(Rect, Vec<Turn>)> = match mirror {
            Mirror::Off => vec![],
            Mirror::Horizontal => vec![(fx(area), vec![Turn::FlipH])],
            Mirror::Vertical => vec![(fy(area), vec![Turn::FlipV])],
            Mirror::Both => vec![(fx(area), vec![Turn::FlipH]), (fy(area), vec![Turn::FlipV]), (fx(fy(area)), vec![Turn::FlipH, Turn::FlipV])],
        };
        let apart = |r: &Rect| r.x1 < area.x0 || r.x0 > area.x1 || r.y1 < area.y0 || r.y0 > area.y1;
        let flips: Vec<(Rect, Vec<Turn>)> = flips.into_iter().filter(|(r, _)| apart(r) && r.x0 >= 0 && r.y0 >= 0 && r.x1 < w && r.y1 < h).collect();
        let before: Vec<(String, i32, i32)> = super::stamp::figures_placed(&self.level, self.floor);
        let done = self.edit(|l, f| {
            super::stamp::put(l, f, x, y, stamp, size);
            for (r, turns) in &flips {
                super::stamp::put(l, f, r.x0, r.y0, stamp, size);
                for t in turns {
                    flip_in_level(l, f, *r, *t);
                }
            }
        });
        let after = super::stamp::figures_placed(&self.level, self.floor);
        let removed = if done { before.into_iter().filter(|k| !after.contains(k)).collect() } else { vec![] };
        super::doc::Pasted { edited: done, removed }
    }
}
