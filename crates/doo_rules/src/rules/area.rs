//! A rectangle of spaces (level events' and orders' areas) and `clip`, the shortening of an
//! untrusted value for a message: leaves that `story` and `directives` both read (issue 45).

use super::grid::Pos;
use serde::{Deserialize, Serialize};

/// A rectangle between two corners, on the first corner's floor (both corners included).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Area {
    pub from: Pos,
    pub to: Pos,
}

impl Area {
    /// The spaces of the area, counted (saturating).
    pub fn size(&self) -> usize {
        let w = (i64::from(self.from.x) - i64::from(self.to.x)).unsigned_abs() + 1;
        let h = (i64::from(self.from.y) - i64::from(self.to.y)).unsigned_abs() + 1;
        usize::try_from(w.saturating_mul(h)).unwrap_or(usize::MAX)
    }
    pub fn contains(&self, p: Pos) -> bool {
        p.floor == self.from.floor
            && (self.from.x.min(self.to.x)..=self.from.x.max(self.to.x)).contains(&p.x)
            && (self.from.y.min(self.to.y)..=self.from.y.max(self.to.y)).contains(&p.y)
    }
    /// The spaces of the area (at most `cap`).
    pub fn spaces(&self, cap: usize) -> Vec<Pos> {
        let (x0, x1) = (self.from.x.min(self.to.x), self.from.x.max(self.to.x));
        let (y0, y1) = (self.from.y.min(self.to.y), self.from.y.max(self.to.y));
        (y0..=y1).flat_map(|y| (x0..=x1).map(move |x| Pos::on(x, y, self.from.floor))).take(cap).collect()
    }
}

/// A value from an untrusted file (a level, a script), shortened for a message: its first 40
/// characters, control characters shown as '?', '…' when cut (a 100 000-character id is shown by
/// its start).
pub fn clip(s: &str) -> String {
    const SHOWN: usize = 40;
    let mut out: String = s.chars().take(SHOWN).map(|c| if c.is_control() { '?' } else { c }).collect();
    if s.chars().nth(SHOWN).is_some() {
        out.push('…');
    }
    out
}
