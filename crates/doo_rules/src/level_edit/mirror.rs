//! Mirror painting (issue 46, "Tools"): a paint, an erase or a figure put down on the floor in
//! view is also done in the mirrored spaces — left to right, top to bottom, or both (four
//! corners) — in one undo step, for maps fair to both sides. A figure put down in a mirrored
//! space goes to the opposing side when the sides are swapped (a hero becomes a figure of the
//! other side, no longer a hero), or keeps his side.

use super::brush::{Brush, Rect};
use super::doc::Doc;
use super::paint::paint_level;
use crate::level_file::{CharacterEntry, Level};

/// Which spaces mirror a paint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mirror {
    /// No mirror: the space painted only.
    #[default]
    Off,
    /// Left to right: (x, y) and (width - 1 - x, y).
    Horizontal,
    /// Top to bottom: (x, y) and (x, height - 1 - y).
    Vertical,
    /// Both: the four corners' spaces.
    Both,
}

impl Mirror {
    /// The next mode (the window's one key): off, horizontal, vertical, both, off.
    pub fn next(self) -> Mirror {
        match self {
            Mirror::Off => Mirror::Horizontal,
            Mirror::Horizontal => Mirror::Vertical,
            Mirror::Vertical => Mirror::Both,
            Mirror::Both => Mirror::Off,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Mirror::Off => "off",
            Mirror::Horizontal => "left to right",
            Mirror::Vertical => "top to bottom",
            Mirror::Both => "both ways",
        }
    }

    /// The rectangles a paint of `area` covers on a `w` × `h` map: `area` first, then each
    /// mirror of it, with how many axes it crossed (one: the opposing side; two: the same side
    /// again, the corner across); a mirror that is `area` itself (on the middle line) is left out.
    pub fn areas(self, area: Rect, w: i32, h: i32) -> Vec<(Rect, u8)> {
        let fx = |r: Rect| Rect::new((w - 1 - r.x0, r.y0), (w - 1 - r.x1, r.y1));
        let fy = |r: Rect| Rect::new((r.x0, h - 1 - r.y0), (r.x1, h - 1 - r.y1));
        let mut out = vec![(area, 0)];
        let more: Vec<(Rect, u8)> = match self {
            Mirror::Off => vec![],
            Mirror::Horizontal => vec![(fx(area), 1)],
            Mirror::Vertical => vec![(fy(area), 1)],
            Mirror::Both => vec![(fx(area), 1), (fy(area), 1), (fx(fy(area)), 2)],
        };
        for (r, n) in more {
            if !out.iter().any(|(o, _)| *o == r) {
                out.push((r, n));
            }
        }
        out
    }
}

/// The side facing `side`: with two sides or more, the first side's is the second, every other
/// side's is the first.
fn opposing(l: &Level, side: &Option<String>) -> Option<String> {
    let ids: Vec<&str> = l.sides.iter().map(|s| s.id.as_str()).collect();
    if ids.len() < 2 {
        return side.clone();
    }
    Some(if side.as_deref() == Some(ids[0]) { ids[1] } else { ids[0] }.to_string())
}

/// The figure put down across `crossed` axes: on the opposing side when the sides are swapped
/// and it crossed one (no longer a hero when his new side is not the first).
fn mirrored_figure(l: &Level, c: &CharacterEntry, crossed: u8, swap: bool) -> CharacterEntry {
    let mut c = c.clone();
    if swap && crossed % 2 == 1 {
        c.side = opposing(l, &c.side);
        if c.side.as_deref() != l.sides.first().map(|s| s.id.as_str()) {
            c.hero = None;
        }
    }
    c
}

impl Doc {
    /// `brush` painted in `area` (as `paint`) and in its mirrors on the floor in view (`mirror`),
    /// one undo step; a figure in a mirrored space is of the opposing side when `swap_sides`
    /// (across both axes, the corner across: his own side). Each rectangle clipped to the map.
    /// True when the level changed.
    pub fn paint_mirrored(&mut self, area: Rect, brush: &Brush, mirror: Mirror, swap_sides: bool) -> bool {
        let (w, h) = self.size();
        if w == 0 || h == 0 {
            return false;
        }
        let (w, h) = (w as i32, h as i32);
        // What goes in one space (a figure, a chest, a trap, a light) is mirrored from it.
        let area = if matches!(brush, Brush::Figure(_) | Brush::Chest | Brush::Trap | Brush::Light) { Rect::one(area.x0, area.y0) } else { area };
        let areas: Vec<(Rect, u8)> = mirror
            .areas(area, w, h)
            .into_iter()
            .map(|(r, n)| (Rect { x0: r.x0.max(0), y0: r.y0.max(0), x1: r.x1.min(w - 1), y1: r.y1.min(h - 1) }, n))
            .filter(|(r, _)| r.x0 <= r.x1 && r.y0 <= r.y1)
            .collect();
        self.edit(|l, f| {
            for (r, crossed) in &areas {
                match brush {
                    Brush::Figure(c) => {
                        let c = mirrored_figure(l, c, *crossed, swap_sides);
                        paint_level(l, f, *r, &Brush::Figure(Box::new(c)));
                    }
                    b => paint_level(l, f, *r, b),
                }
            }
        })
    }
}
