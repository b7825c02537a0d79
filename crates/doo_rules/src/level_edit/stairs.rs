//! Stairs linked between floors with a picker (issue 46, "Tools"): the window marks one end
//! (the cursor on a stairs space), the designer goes to the other floor and picks the other
//! end; `link_stairs` writes the `stairs` link (it works both ways and replaces the default
//! destination of both ends), or takes it away when the two are linked already.

use super::doc::Doc;
use crate::level_file::{Level, MAX_STAIR_LINKS, StairDef, TileSpec};
use crate::rules::grid::Pos;

/// Whether the space holds stairs or a ladder (`>`, `<`, or a legend character for them).
pub fn is_stairs(l: &Level, p: Pos) -> bool {
    let Some(c) = l.floors.get(p.floor as usize).and_then(|f| f.get(usize::try_from(p.y).ok()?)).and_then(|row| row.chars().nth(usize::try_from(p.x).ok()?))
    else {
        return false;
    };
    match l.legend.get(&c) {
        Some(spec) => matches!(spec, TileSpec::StairsUp | TileSpec::StairsDown),
        None => c == '>' || c == '<',
    }
}

/// A space as the status line names it.
fn named(p: Pos) -> String {
    format!("({}, {}) on floor {}", p.x, p.y, p.floor as usize + 1)
}

impl Doc {
    /// Links the stairs at `from` and `to` (one undo step): any other link of either end goes
    /// (an end leads one way); the same two linked again are unlinked. `Ok` is the status line,
    /// `Err` why nothing changed.
    pub fn link_stairs(&mut self, from: Pos, to: Pos) -> Result<String, String> {
        if from == to {
            return Err("Pick the other end of the stairs: another stairs space (PageUp/PageDown for another floor).".into());
        }
        for p in [from, to] {
            if !is_stairs(&self.level, p) {
                return Err(format!("{} is not a stairs or ladder space (> or <).", named(p)));
            }
        }
        let same = |s: &StairDef| (s.from == from && s.to == to) || (s.from == to && s.to == from);
        if self.level.stairs.iter().any(same) {
            self.edit(|l, _| l.stairs.retain(|s| !same(s)));
            return Ok(format!("Unlinked the stairs {} and {}: each leads to its own default again.", named(from), named(to)));
        }
        let touches = |s: &StairDef| [from, to].iter().any(|p| s.from == *p || s.to == *p);
        let dropped = self.level.stairs.iter().filter(|s| touches(s)).count();
        if self.level.stairs.len() - dropped >= MAX_STAIR_LINKS {
            return Err(format!("At most {MAX_STAIR_LINKS} stairs links in a level."));
        }
        self.edit(|l, _| {
            l.stairs.retain(|s| !touches(s));
            l.stairs.push(StairDef { from, to });
        });
        let also = if dropped > 0 { format!(" ({dropped} earlier link(s) of these ends removed)") } else { String::new() };
        Ok(format!("Linked the stairs {} and {}: each leads to the other{also}.", named(from), named(to)))
    }

    /// The links with an end on the floor in view: (the end here, the other end).
    pub fn stairs_links_here(&self) -> Vec<(Pos, Pos)> {
        let f = self.floor as u8;
        self.level.stairs.iter().flat_map(|s| [(s.from, s.to), (s.to, s.from)]).filter(|(here, _)| here.floor == f).collect()
    }
}
