//! The shapes of an edit (issue 31): a rectangle of spaces, what a paint stroke puts in it,
//! and the small helpers both the level's edits and its paint strokes use.

use crate::level_file::CharacterEntry;
use crate::rules::grid::Pos;

/// A rectangle of spaces, corners included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
}

impl Rect {
    pub fn new(a: (i32, i32), b: (i32, i32)) -> Rect {
        Rect { x0: a.0.min(b.0), y0: a.1.min(b.1), x1: a.0.max(b.0), y1: a.1.max(b.1) }
    }
    pub fn one(x: i32, y: i32) -> Rect {
        Rect { x0: x, y0: y, x1: x, y1: y }
    }
    pub fn intersects(&self, o: &Rect) -> bool {
        self.x0 <= o.x1 && o.x0 <= self.x1 && self.y0 <= o.y1 && o.y0 <= self.y1
    }
    pub fn contains(&self, x: i32, y: i32) -> bool {
        (self.x0..=self.x1).contains(&x) && (self.y0..=self.y1).contains(&y)
    }
    pub(super) fn border(&self, x: i32, y: i32) -> bool {
        x == self.x0 || x == self.x1 || y == self.y0 || y == self.y1
    }
    pub fn cells(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        (self.y0..=self.y1).flat_map(move |y| (self.x0..=self.x1).map(move |x| (x, y)))
    }
}

/// What a paint stroke puts in the spaces of its rectangle.
#[derive(Clone, Debug, PartialEq)]
pub enum Brush {
    /// A map character: `. # / + L S O _ ~ > <` (docs/levels.md's legend).
    Tile(char),
    /// A room: walls around, floor inside.
    Room,
    /// Whatever stands or lies in the spaces (figures, chests, items, traps, lights, exits, dark);
    /// the map stays.
    Erase,
    /// A figure, as the level will list it (its id is made unique; its place set).
    Figure(Box<CharacterEntry>),
    Chest,
    Trap,
    /// An exit of the first side's `ReachExit` goal.
    Exit,
    /// A dark space (R-EXP-18).
    Dark,
    /// A torch burning in the space (R-EXP-18).
    Light,
}

pub(super) fn at(p: &Option<Pos>, x: i32, y: i32, floor: usize) -> bool {
    p.is_some_and(|p| p.x == x && p.y == y && p.floor as usize == floor)
}

pub(super) fn pos(x: i32, y: i32, floor: usize) -> Pos {
    Pos::on(x, y, floor as u8)
}

/// `base`, or `base_2`, `base_3` … : the first not in `taken`; a numbered `base` counts on from
/// its number (`orc_2` → `orc_3`).
pub(super) fn unique(base: &str, taken: &[String]) -> String {
    if !taken.iter().any(|t| t == base) {
        return base.to_string();
    }
    // An id that is already numbered counts on (`pew_1` again is `pew_2`, `orc_2` is `orc_3`),
    // not `pew_1_2`.
    let (stem, from) = match base.rsplit_once('_') {
        Some((stem, n)) if !stem.is_empty() && !n.is_empty() && n.len() <= 6 && n.bytes().all(|b| b.is_ascii_digit()) => {
            (stem, n.parse::<u32>().unwrap_or(1).saturating_add(1).max(2))
        }
        _ => (base, 2),
    };
    (from..).map(|n| format!("{stem}_{n}")).find(|c| !taken.iter().any(|t| t == c)).unwrap_or_default()
}

/// A stroke of the left button on the map: a press on a space begins it, the release ends it,
/// and the rectangle from where it began to where it ended is painted. A press and its release
/// in one frame are one click on one space (issue 42: on fbd0357 such a click was lost, and the
/// next click painted a rectangle from it).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Stroke(Option<(i32, i32)>);

impl Stroke {
    /// One frame of the left button: `pressed` and `released` this frame, the space under the
    /// pointer `at` (it may lie off the map), whether a press there begins a stroke (`on_map`:
    /// on the map and not over a panel), and the map's size (a release off the map ends the
    /// stroke at the nearest space). The stroke's start and end, when one ends this frame.
    pub fn frame(&mut self, pressed: bool, released: bool, at: (i32, i32), on_map: bool, size: (usize, usize)) -> Option<((i32, i32), (i32, i32))> {
        if pressed {
            self.0 = on_map.then_some(at);
        }
        if !released {
            return None;
        }
        let start = self.0.take()?;
        let (w, h) = (size.0.min(i32::MAX as usize) as i32, size.1.min(i32::MAX as usize) as i32);
        Some((start, (at.0.clamp(0, (w - 1).max(0)), at.1.clamp(0, (h - 1).max(0)))))
    }

    /// A stroke is under way (the button is down since a press on the map).
    pub fn active(&self) -> bool {
        self.0.is_some()
    }

    /// Forgets a stroke (typing, a list over the map).
    pub fn cancel(&mut self) {
        self.0 = None;
    }
}
