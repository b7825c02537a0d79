//! The map (R-TURN-2, §23 G-01/G-02/G-04): spaces, Chebyshev distance, 8-way steps without
//! corner cutting, occupancy, and line of sight.

use serde::de::{self, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

#[cfg(test)]
use super::clip::segment_enters_square;
use super::clip::{Clip, clip_to_square};

/// A space: column `x`, row `y` (row 0 is the first map row), map level `floor`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos {
    pub x: i32,
    pub y: i32,
    pub floor: u8,
}

impl Pos {
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y, floor: 0 }
    }
    pub const fn on(x: i32, y: i32, floor: u8) -> Self {
        Self { x, y, floor }
    }
    /// G-01 / G-31: Chebyshev distance on one floor; spaces on other floors are out of reach.
    pub fn distance(self, other: Pos) -> u32 {
        if self.floor != other.floor {
            return u32::MAX;
        }
        (self.x - other.x).unsigned_abs().max((self.y - other.y).unsigned_abs())
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.floor == 0 { write!(f, "({}, {})", self.x, self.y) } else { write!(f, "({}, {}, floor {})", self.x, self.y, self.floor) }
    }
}

// Positions are written `(x, y)` or `(x, y, floor)` in RON and `[x, y]` / `[x, y, floor]` in JSON.
impl Serialize for Pos {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.floor == 0 { (self.x, self.y).serialize(s) } else { (self.x, self.y, self.floor).serialize(s) }
    }
}

impl<'de> Deserialize<'de> for Pos {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct PosVisitor;
        impl<'de> Visitor<'de> for PosVisitor {
            type Value = Pos;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a position (x, y) or (x, y, floor)")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Pos, A::Error> {
                let x: i32 = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
                let y: i32 = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(1, &self))?;
                let floor: u8 = seq.next_element()?.unwrap_or(0);
                if seq.next_element::<de::IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(4, &self));
                }
                Ok(Pos { x, y, floor })
            }
        }
        d.deserialize_any(PosVisitor)
    }
}

/// What a space holds. Sight and movement blocking follow G-04.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tile {
    Floor,
    Wall,
    DoorOpen,
    DoorClosed,
    DoorLocked,
    /// Blocks movement and sight (G-04).
    Pillar,
    /// A gap: no standing in it, can be leapt over (G-42); does not block sight.
    Pit,
    /// Rubble, mud, brush: walkable, but each space entered counts as two spaces of movement.
    Difficult,
    /// Stairs or ladder: Climb leads to the same space on floor `to` (R-MOVE-1).
    Stairs {
        to: u8,
    },
}

impl Tile {
    /// A figure may stand here.
    pub fn walkable(self) -> bool {
        matches!(self, Tile::Floor | Tile::DoorOpen | Tile::Stairs { .. } | Tile::Difficult)
    }
    /// Blocks line of sight (G-04): walls, closed doors, pillars.
    pub fn blocks_sight(self) -> bool {
        matches!(self, Tile::Wall | Tile::DoorClosed | Tile::DoorLocked | Tile::Pillar)
    }
    /// Counts for the no-corner-cutting rule (G-01).
    pub fn blocks_corner(self) -> bool {
        self.blocks_sight()
    }
    /// A leap may pass over it (G-42): gaps and floor, never walls.
    pub fn leapable(self) -> bool {
        self.walkable() || self == Tile::Pit
    }
}

/// A tile as a designer calls it (in the problems found in a level).
pub(crate) fn tile_name(t: Tile) -> &'static str {
    match t {
        Tile::Floor => "floor",
        Tile::Wall => "a wall",
        Tile::DoorOpen => "an open door",
        Tile::DoorClosed => "a closed door",
        Tile::DoorLocked => "a locked door",
        Tile::Pillar => "a pillar",
        Tile::Pit => "a pit",
        Tile::Difficult => "difficult ground",
        Tile::Stairs { .. } => "stairs",
    }
}

/// Floors a board may have (they are numbered with a `u8`).
pub const MAX_FLOORS: usize = 64;
/// The widest and tallest a floor may be.
pub const MAX_MAP_SIDE: u32 = 1024;

/// One map level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Floor {
    pub width: u32,
    pub height: u32,
    pub tiles: Vec<Tile>,
}

/// All map levels of a match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct Board {
    pub floors: Vec<Floor>,
    /// Explicit stair and ladder links (both ways); otherwise stairs lead to the same space on their floor.
    #[serde(default)]
    pub links: Vec<(Pos, Pos)>,
}

impl Board {
    /// Reads rows such as `"#..#"` with the standard legend (see docs/levels.md).
    pub fn from_rows(floors: &[Vec<String>]) -> Result<Self, String> {
        if floors.len() > MAX_FLOORS {
            return Err(format!("{} floors; the most is {MAX_FLOORS}", floors.len()));
        }
        let mut out = Vec::new();
        for (fi, rows) in floors.iter().enumerate() {
            let width = rows.first().map(|r| r.chars().count()).unwrap_or(0);
            if rows.len() > MAX_MAP_SIDE as usize || width > MAX_MAP_SIDE as usize {
                return Err(format!("floor {fi} is {width}×{} spaces; the most is {MAX_MAP_SIDE}×{MAX_MAP_SIDE}", rows.len()));
            }
            let (width, height) = (width as u32, rows.len() as u32);
            let mut tiles = Vec::with_capacity((width * height) as usize);
            for (y, row) in rows.iter().enumerate() {
                if row.chars().count() as u32 != width {
                    return Err(format!("floor {fi}, row {y}: {} characters, expected {width} like the first row", row.chars().count()));
                }
                for (x, c) in row.chars().enumerate() {
                    tiles.push(Self::legend(c).ok_or_else(|| format!("floor {fi}, row {y}, column {x}: unknown map character '{c}'"))?);
                }
            }
            out.push(Floor { width, height, tiles });
        }
        // Stairs lead to the neighbouring floor in the direction of their symbol.
        for fi in 0..out.len() {
            for t in out[fi].tiles.iter_mut() {
                if let Tile::Stairs { to } = t {
                    *to = if *to == u8::MAX { (fi as u8).saturating_add(1) } else { (fi as u8).saturating_sub(1) };
                }
            }
        }
        Ok(Self { floors: out, links: Vec::new() })
    }

    /// The default legend: `.` floor, `#` wall, `/` open door, `+` closed door, `L` locked door,
    /// `O` pillar, `_` pit, `~` difficult ground, `>` stairs up (to the next floor), `<` stairs down
    /// (to the previous floor).
    pub fn legend(c: char) -> Option<Tile> {
        Some(match c {
            '.' => Tile::Floor,
            '~' => Tile::Difficult,
            '#' => Tile::Wall,
            '/' => Tile::DoorOpen,
            '+' => Tile::DoorClosed,
            'L' => Tile::DoorLocked,
            'O' => Tile::Pillar,
            '_' => Tile::Pit,
            '>' => Tile::Stairs { to: u8::MAX },
            '<' => Tile::Stairs { to: 0 },
            _ => return None,
        })
    }

    pub fn tile(&self, p: Pos) -> Option<Tile> {
        let f = self.floors.get(p.floor as usize)?;
        if p.x < 0 || p.y < 0 || p.x as u32 >= f.width || p.y as u32 >= f.height {
            return None;
        }
        f.tiles.get((p.y as u32 * f.width + p.x as u32) as usize).copied()
    }

    /// Where the stairs or ladder at `p` lead (R-MOVE-1 Climb).
    pub fn stairs_destination(&self, p: Pos) -> Option<Pos> {
        let Some(Tile::Stairs { to }) = self.tile(p) else { return None };
        for &(a, b) in &self.links {
            if a == p {
                return Some(b);
            }
            if b == p {
                return Some(a);
            }
        }
        Some(Pos::on(p.x, p.y, to))
    }

    /// Spaces of movement a path costs: difficult ground counts twice.
    pub fn path_cost(&self, path: &[Pos]) -> u32 {
        path.iter().map(|&p| if self.tile(p) == Some(Tile::Difficult) { 2 } else { 1 }).sum()
    }

    pub fn walkable(&self, p: Pos) -> bool {
        self.tile(p).is_some_and(Tile::walkable)
    }

    fn blocks_corner(&self, p: Pos) -> bool {
        self.tile(p).is_none_or(Tile::blocks_corner)
    }

    /// G-01: one 8-way step; no diagonal squeeze between two orthogonally adjacent blockers.
    pub fn step_geometry(&self, from: Pos, to: Pos) -> Result<(), String> {
        if from.floor != to.floor || from.distance(to) != 1 {
            return Err(format!("{to} is not next to {from}"));
        }
        if !self.walkable(to) {
            return Err(format!("{to} cannot be entered"));
        }
        if from.x != to.x && from.y != to.y {
            let a = Pos::on(to.x, from.y, from.floor);
            let b = Pos::on(from.x, to.y, from.floor);
            if self.blocks_corner(a) && self.blocks_corner(b) {
                return Err(format!("the diagonal from {from} to {to} squeezes between two walls"));
            }
        }
        Ok(())
    }

    /// G-04 line of sight between two spaces on one floor.
    pub fn line_of_sight(&self, from: Pos, to: Pos) -> Sight {
        if from.floor != to.floor {
            return Sight::None;
        }
        if from == to {
            return Sight::Clear;
        }
        let c = |p: Pos| (p.x as f64 + 0.5, p.y as f64 + 0.5);
        let points = |p: Pos| {
            let (x, y) = (p.x as f64, p.y as f64);
            [(x + 0.5, y + 0.5), (x, y), (x + 1.0, y), (x, y + 1.0), (x + 1.0, y + 1.0), (x + 0.5, y), (x + 0.5, y + 1.0), (x, y + 0.5), (x + 1.0, y + 0.5)]
        };
        let f = from.floor;
        if self.segment_clear(c(from), c(to), f) {
            return Sight::Clear;
        }
        if points(to).iter().any(|&q| self.segment_clear(c(from), q, f)) {
            return Sight::Partial;
        }
        for p in points(from) {
            if points(to).iter().any(|&q| self.segment_clear(p, q, f)) {
                return Sight::Minimal;
            }
        }
        Sight::None
    }

    /// R-EXP-19: at least minimal line of sight from `from` to the space `to`, a wall or closed
    /// door there counting as not blocking (one sees a wall's face). Costs O(distance) tile
    /// look-ups per segment tried (see [`SightMap`] for many questions on one floor).
    pub fn sees_space(&self, from: Pos, to: Pos) -> bool {
        self.sees_space_in(from, to, None)
    }

    /// [`Board::sees_space`], answered from the blocker counts of `map` where they settle it.
    fn sees_space_in(&self, from: Pos, to: Pos, map: Option<&SightMap>) -> bool {
        if from.floor != to.floor {
            return false;
        }
        if from.distance(to) <= 1 {
            return true;
        }
        let map = map.filter(|s| s.floor == from.floor);
        let skip = Some((to.x, to.y));
        // Every segment tried lies in the two spaces' bounding box; every space any of them can
        // touch lies in that box grown by one. No blocker there: the centre line is clear.
        if let Some(s) = map
            && s.clear(self, from.x.min(to.x) - 1, from.y.min(to.y) - 1, from.x.max(to.x) + 1, from.y.max(to.y) + 1, skip)
        {
            return true;
        }
        let c = |p: Pos| (p.x as f64 + 0.5, p.y as f64 + 0.5);
        let points = |p: Pos| {
            let (x, y) = (p.x as f64, p.y as f64);
            [(x + 0.5, y + 0.5), (x, y), (x + 1.0, y), (x, y + 1.0), (x + 1.0, y + 1.0), (x + 0.5, y), (x + 0.5, y + 1.0), (x, y + 0.5), (x + 1.0, y + 0.5)]
        };
        if self.segment_walk(c(from), c(to), from.floor, skip, map) {
            return true;
        }
        points(from).iter().any(|&p| points(to).iter().any(|&q| self.segment_walk(p, q, from.floor, skip, map)))
    }

    /// Index of a space in a flat list of every space of every floor (fog of war, searches).
    pub fn index(&self, p: Pos) -> Option<usize> {
        let mut base = 0usize;
        for (i, f) in self.floors.iter().enumerate() {
            if i == p.floor as usize {
                if p.x < 0 || p.y < 0 || p.x as u32 >= f.width || p.y as u32 >= f.height {
                    return None;
                }
                return Some(base + (p.y as u32 * f.width + p.x as u32) as usize);
            }
            base += (f.width * f.height) as usize;
        }
        None
    }

    /// Spaces on all floors (the length of a list indexed by [`Board::index`]).
    pub fn spaces(&self) -> usize {
        self.floors.iter().map(|f| (f.width * f.height) as usize).sum()
    }

    /// Changes a space (doors opening and closing, R-EXP-11).
    pub fn set_tile(&mut self, p: Pos, t: Tile) {
        if let Some(i) = self.tile(p).and_then(|_| {
            let f = &self.floors[p.floor as usize];
            Some((p.y as u32 * f.width + p.x as u32) as usize)
        }) {
            self.floors[p.floor as usize].tiles[i] = t;
        }
    }

    /// True when the segment crosses the interior of no sight-blocking space (corner touches are
    /// clear), and does not run along the face shared by two blockers (a solid wall face).
    fn segment_clear(&self, a: (f64, f64), b: (f64, f64), floor: u8) -> bool {
        self.segment_walk(a, b, floor, None, None)
    }

    /// G-04 / R-EXP-19: `segment_clear` with one space (the one looked at) never blocking. The
    /// test of each space is the one the whole bounding box of the segment always had
    /// ([`clip_to_square`] against every blocker in it); only the spaces whose closed square the
    /// segment can meet are visited (per column of its major axis, the rows its other coordinate
    /// covers there, with a margin), so O(length) spaces rather than O(length²). Spaces
    /// left out meet the segment nowhere and so never decided the answer. With `map`, runs of
    /// columns without a blocker near the segment are passed over in O(1).
    fn segment_walk(&self, a: (f64, f64), b: (f64, f64), floor: u8, skip: Option<(i32, i32)>, map: Option<&SightMap>) -> bool {
        let (x0, x1) = (floor_i32(a.0.min(b.0)) - 1, ceil_i32(a.0.max(b.0)));
        let (y0, y1) = (floor_i32(a.1.min(b.1)) - 1, ceil_i32(a.1.max(b.1)));
        if let Some(s) = map
            && s.clear(self, x0, y0, x1, y1, skip)
        {
            return true;
        }
        let blocks = |x: i32, y: i32| skip != Some((x, y)) && self.tile(Pos::on(x, y, floor)).is_none_or(Tile::blocks_sight);
        // (u, v): u the major axis (walked column by column), v the other.
        let steep = (b.1 - a.1).abs() > (b.0 - a.0).abs();
        let (au, av, bu, bv) = if steep { (a.1, a.0, b.1, b.0) } else { (a.0, a.1, b.0, b.1) };
        let (u0, u1, v0, v1) = if steep { (y0, y1, x0, x1) } else { (x0, x1, y0, y1) };
        let du = bu - au;
        // The rows (v) of the spaces whose closed square meets the segment while u runs over
        // [ua, ub], within the bounding box: v covers [lo, hi] there, widened by `MARGIN` (far
        // above rounding and the clip's tolerance of 1e-9), so every space the clip can find
        // the segment in is visited.
        const MARGIN: f64 = 1e-6;
        let rows = |ua: f64, ub: f64| -> (i32, i32) {
            if du.abs() < 1e-7 {
                return (v0, v1); // a point, or nearly: the whole (tiny) box
            }
            let (ta, tb) = (((ua - au) / du).clamp(0.0, 1.0), ((ub - au) / du).clamp(0.0, 1.0));
            let (va, vb) = (av + (bv - av) * ta, av + (bv - av) * tb);
            let (lo, hi) = (va.min(vb) - MARGIN, va.max(vb) + MARGIN);
            (ceil_i32(lo - 1.0).max(v0), floor_i32(hi).min(v1))
        };
        let xy = |u: i32, v: i32| if steep { (v, u) } else { (u, v) };
        // With `map`, runs of columns are tried whole: a clear run doubles the next (up to
        // `MAX_RUN`), one that is not clear is halved and tried again, down to `RUN` columns,
        // which are walked space by space. A long clear stretch costs O(log length) counts
        // (issue 44). The spaces passed over hold no blocker, so the answer is the walk's.
        const RUN: i32 = 16;
        const MAX_RUN: i32 = 1 << 16;
        let mut run = RUN;
        let mut u = u0;
        while u <= u1 {
            let ue = (u + run - 1).min(u1);
            if let Some(s) = map {
                let (va, vb) = rows(u as f64 - MARGIN, ue as f64 + 1.0 + MARGIN);
                let ((ax, ay), (bx, by)) = (xy(u, va), xy(ue, vb));
                if s.clear(self, ax, ay, bx, by, skip) {
                    u = ue + 1;
                    run = (run * 2).min(MAX_RUN);
                    continue;
                }
                if run > RUN {
                    run /= 2;
                    continue;
                }
            }
            for uu in u..=ue {
                let (va, vb) = rows(uu as f64 - MARGIN, uu as f64 + 1.0 + MARGIN);
                for vv in va..=vb {
                    let (x, y) = xy(uu, vv);
                    if !blocks(x, y) {
                        continue;
                    }
                    match clip_to_square(a, b, x as f64, y as f64) {
                        Some(Clip::Inside) => return false,
                        Some(Clip::Edge(dx, dy)) if blocks(x + dx, y + dy) => return false,
                        _ => {}
                    }
                }
            }
            u = ue + 1;
        }
        true
    }
}

/// `v.floor() as i32` (saturating, NaN 0), without the call to the C library's `floor` that
/// costs the walk of [`Board::segment_walk`] a tenth of its time (issue 44).
fn floor_i32(v: f64) -> i32 {
    let t = v as i32;
    if f64::from(t) > v { t.saturating_sub(1) } else { t }
}

/// `v.ceil() as i32` (saturating, NaN 0), as [`floor_i32`].
fn ceil_i32(v: f64) -> i32 {
    let t = v as i32;
    if f64::from(t) < v { t.saturating_add(1) } else { t }
}

/// R-EXP-19 / G-04 at scale: one floor's sight-blocking spaces counted in a summed-area table
/// (prefix counts, `u32`), so that "no blocker in this rectangle" is O(1) and line of sight
/// across open ground costs O(1) instead of a walk. Built for one floor on demand (O(area), a
/// few milliseconds at the caps) by whoever asks many questions of one board at once (sight,
/// `explore::sight`), and dropped with them: no match stores it, so it never outlives a door
/// opening (`Board::set_tile`) or follows a board cloned for undo or the AI's look-ahead. Use it
/// only with the board it was built from, unchanged. Answers exactly as [`Board::sees_space`].
/// (A big floor's last counts are kept per thread and handed out again by [`SightMap::new`]
/// only while that floor's spaces block sight exactly as they did: issue 44.)
#[derive(Clone, Debug)]
pub struct SightMap {
    floor: u8,
    width: i32,
    height: i32,
    /// `(width + 1) × (height + 1)`: blockers in columns `< x` of rows `< y` at `y * (width + 1) + x`.
    counts: std::sync::Arc<[u32]>,
}

/// Floors at least this big keep their last counts (issue 44).
const KEEP_FROM: usize = 1 << 16;

std::thread_local! {
    /// The last big floor counted on this thread, with which of its spaces blocked sight then
    /// (issue 44): one command asks of one board again and again (a door's reveal, the
    /// sightings after it and after each figure a level event spawns). [`SightMap::new`] hands
    /// these counts out again while the floor's spaces block sight exactly as they did (one
    /// comparison pass, far cheaper than counting); the counts are a function of that alone, so
    /// the answers are the same as freshly counted ones.
    /// With them, the answers asked through [`SightMap::sees_space_kept`] (at most `MEMO`).
    static LAST: std::cell::RefCell<Option<Kept>> = const { std::cell::RefCell::new(None) };
}

/// A big floor's last counts (`LAST`): which spaces blocked sight, the counts, and answers
/// (`(from, to)`: sees) given with them.
struct Kept {
    blocks: Vec<bool>,
    map: SightMap,
    seen: std::collections::HashMap<(Pos, Pos), bool>,
}

/// The most answers kept with a floor's counts.
const MEMO: usize = 1 << 14;

impl SightMap {
    /// The counts of floor `floor` of `board` (empty for a floor it lacks).
    pub fn new(board: &Board, floor: u8) -> Self {
        let (w, h, tiles) = board.floors.get(floor as usize).map_or((0, 0, &[][..]), |f| (f.width as usize, f.height as usize, &f.tiles[..]));
        let keep = w * h >= KEEP_FROM && tiles.len() == w * h;
        if keep {
            let same = |k: &Kept| {
                let s = &k.map;
                s.floor == floor
                    && s.width as usize == w
                    && s.height as usize == h
                    && k.blocks.len() == tiles.len()
                    && k.blocks.iter().zip(tiles).all(|(&b, t)| b == t.blocks_sight())
            };
            if let Some(s) = LAST.with_borrow(|last| last.as_ref().filter(|k| same(k)).map(|k| k.map.clone())) {
                return s;
            }
        }
        let mut counts = vec![0u32; (w + 1) * (h + 1)];
        for y in 0..h {
            let mut row = 0u32;
            for x in 0..w {
                row += u32::from(tiles[y * w + x].blocks_sight());
                counts[(y + 1) * (w + 1) + x + 1] = counts[y * (w + 1) + x + 1] + row;
            }
        }
        let map = Self { floor, width: w as i32, height: h as i32, counts: counts.into() };
        if keep {
            let blocks = tiles.iter().map(|t| t.blocks_sight()).collect();
            LAST.with_borrow_mut(|last| *last = Some(Kept { blocks, map: map.clone(), seen: Default::default() }));
        }
        map
    }

    /// The floor counted.
    pub fn floor(&self) -> u8 {
        self.floor
    }

    /// True when the rectangle of columns `x0..=x1`, rows `y0..=y1` lies on the floor and holds
    /// no sight-blocking space other than `skip` (of `board`, the one counted).
    fn clear(&self, board: &Board, x0: i32, y0: i32, x1: i32, y1: i32, skip: Option<(i32, i32)>) -> bool {
        if x0 < 0 || y0 < 0 || x1 >= self.width || y1 >= self.height || x0 > x1 || y0 > y1 {
            return false; // off the map counts as blocking
        }
        let w = self.width as usize + 1;
        let at = |x: i32, y: i32| self.counts[y as usize * w + x as usize];
        let n = at(x1 + 1, y1 + 1) + at(x0, y0) - at(x0, y1 + 1) - at(x1 + 1, y0);
        if n == 0 {
            return true;
        }
        // The space looked at never blocks: one blocker there alone leaves the rest clear.
        n == 1
            && skip.is_some_and(|(sx, sy)| {
                (x0..=x1).contains(&sx) && (y0..=y1).contains(&sy) && board.tile(Pos::on(sx, sy, self.floor)).is_some_and(Tile::blocks_sight)
            })
    }

    /// [`Board::sees_space`] (R-EXP-19) of `board`, the board counted: the same answer, faster on
    /// this map's floor.
    pub fn sees_space(&self, board: &Board, from: Pos, to: Pos) -> bool {
        board.sees_space_in(from, to, Some(self))
    }

    /// [`SightMap::sees_space`], the answer kept with these counts when they are a big floor's
    /// kept ones (issue 44: the sightings after each figure a level event spawns ask the same
    /// pairs again). An answer is a function of the floor's blockers alone, which the kept
    /// counts are handed out for only while unchanged, so a kept answer is the walk's.
    pub fn sees_space_kept(&self, board: &Board, from: Pos, to: Pos) -> bool {
        let mine = |k: &Kept| std::sync::Arc::ptr_eq(&k.map.counts, &self.counts);
        let on = from.floor == self.floor && to.floor == self.floor;
        if let Some(v) = LAST.with_borrow(|last| last.as_ref().filter(|k| on && mine(k)).and_then(|k| k.seen.get(&(from, to)).copied())) {
            return v;
        }
        let v = self.sees_space(board, from, to);
        LAST.with_borrow_mut(|last| {
            if let Some(k) = last.as_mut().filter(|k| on && mine(k) && k.seen.len() < MEMO) {
                k.seen.insert((from, to), v);
            }
        });
        v
    }
}

/// R-ATK-12 line-of-sight grades.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Sight {
    Clear,
    Partial,
    Minimal,
    None,
}

impl Sight {
    /// R-ATK-5 / R-ATK-12: the Attack-check adjustment.
    pub fn attack_adjustment(self) -> Option<i32> {
        match self {
            Sight::Clear => Some(0),
            Sight::Partial => Some(-3),
            Sight::Minimal => Some(-6),
            Sight::None => None,
        }
    }
}

#[cfg(test)]
#[path = "grid_tests.rs"]
mod tests;
