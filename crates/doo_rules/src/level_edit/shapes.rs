//! Rectangles and lines of a map character (issue 46, "Tools"): a rectangle's outline or the
//! whole of it, and the line between two spaces (Bresenham), each one undo step, clipped to the
//! map. A door's lock or secret goes with a door painted over, as with the brush.

use super::brush::{Brush, Rect};
use super::doc::Doc;
use super::mirror::Mirror;
use super::paint::paint_level;

/// The spaces of the line from `a` to `b`, both included (Bresenham: each step one space
/// across, up, down or diagonally).
pub fn line_cells(a: (i32, i32), b: (i32, i32)) -> Vec<(i32, i32)> {
    let (mut x, mut y) = (i64::from(a.0), i64::from(a.1));
    let (x1, y1) = (i64::from(b.0), i64::from(b.1));
    let (dx, dy) = ((x1 - x).abs(), -(y1 - y).abs());
    let (sx, sy) = (if x < x1 { 1 } else { -1 }, if y < y1 { 1 } else { -1 });
    let mut err = dx + dy;
    let mut out = Vec::new();
    loop {
        out.push((x as i32, y as i32));
        if x == x1 && y == y1 {
            break;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
    out
}

impl Doc {
    /// The spaces of `cells` on the map, and their mirrors, painted `ch`, one undo step. True
    /// when the map changed.
    fn paint_cells(&mut self, cells: &[(i32, i32)], ch: char, mirror: Mirror) -> bool {
        let (w, h) = self.size();
        let on_map = |&(x, y): &(i32, i32)| x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h;
        let mut cells: Vec<(i32, i32)> = cells.iter().copied().filter(on_map).collect();
        if mirror != Mirror::Off {
            let mirrored: Vec<(i32, i32)> =
                cells.iter().flat_map(|&(x, y)| mirror.areas(Rect::one(x, y), w as i32, h as i32).into_iter().skip(1).map(|(r, _)| (r.x0, r.y0))).collect();
            cells.extend(mirrored);
        }
        if cells.is_empty() {
            return false;
        }
        let brush = Brush::Tile(ch);
        self.edit(|l, f| {
            for &(x, y) in &cells {
                paint_level(l, f, Rect::one(x, y), &brush);
            }
        })
    }

    /// The rectangle between two corners painted with the map character `ch`: the whole of it
    /// (`filled`), or its outline, and its mirrors (`mirror`, as `paint_mirrored`). Clipped to
    /// the map; one undo step; true when the map changed.
    pub fn paint_rect(&mut self, area: Rect, ch: char, filled: bool, mirror: Mirror) -> bool {
        let (w, h) = self.size();
        // Only the spaces on the map are walked (a rectangle may be given far larger).
        let clip = Rect { x0: area.x0.max(0), y0: area.y0.max(0), x1: area.x1.min(w as i32 - 1), y1: area.y1.min(h as i32 - 1) };
        if clip.x0 > clip.x1 || clip.y0 > clip.y1 {
            return false;
        }
        let cells: Vec<(i32, i32)> = clip.cells().filter(|&(x, y)| filled || area.border(x, y)).collect();
        self.paint_cells(&cells, ch, mirror)
    }

    /// The line from `a` to `b` painted with the map character `ch` (Bresenham), and its
    /// mirrors (`mirror`), clipped to the map; one undo step; true when the map changed.
    pub fn paint_line(&mut self, a: (i32, i32), b: (i32, i32), ch: char, mirror: Mirror) -> bool {
        // A line longer than the largest map's diagonal is never drawn whole.
        let side = i64::from(crate::level_file::MAX_MAP_SIDE);
        let far = |v: i32| i64::from(v).abs() > 4 * side;
        if far(a.0) || far(a.1) || far(b.0) || far(b.1) {
            return false;
        }
        self.paint_cells(&line_cells(a, b), ch, mirror)
    }
}
