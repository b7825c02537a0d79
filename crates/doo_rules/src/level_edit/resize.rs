//! What a resize takes off the map (issue 46): the figures, chests, traps, items, lights,
//! doors' records, exits and dark areas that stood outside the new size. `resize_told` names
//! them for the status line; `dropped` keeps naming them, as problems, until the resize is
//! undone or the level saved, so the editor never says "no problems" over a loss unsaid.

use super::doc::Doc;
use super::paint::lost;
use super::problems::Problem;
use crate::rules::grid::Pos;

/// What a resize did: whether the level changed, and what it took off the map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resized {
    pub edited: bool,
    pub size: (usize, usize),
    pub removed: Vec<(String, Pos)>,
}

impl Resized {
    /// The editor's status line: everything taken off the map is named.
    pub fn line(&self) -> String {
        let (w, h) = self.size;
        if !self.edited {
            return format!("The map stays {w} x {h}.");
        }
        if self.removed.is_empty() {
            return format!("Resized to {w} x {h}.");
        }
        let names: Vec<String> = self.removed.iter().map(|(what, p)| format!("{what} at {p}")).collect();
        format!("Resized to {w} x {h}: {} thing(s) outside it removed: {}. Ctrl+Z brings them back.", self.removed.len(), names.join(", "))
    }
}

impl Doc {
    /// `resize`, and what it took off the map (it was outside the new size).
    pub fn resize_told(&mut self, w: usize, h: usize) -> Resized {
        let before = self.level.clone();
        let edited = self.resize(w, h);
        let removed = if edited { lost(&before, &self.level) } else { Vec::new() };
        Resized { edited, size: self.size(), removed }
    }

    /// What a resize took off the map since the level was last saved (or read), and is still
    /// gone: each a problem (a `warning`, at no space: it was off the map) until the resize is
    /// undone or the level saved.
    pub fn dropped(&self) -> Vec<Problem> {
        let gone = lost(self.saved(), &self.level);
        let mut out: Vec<Problem> = Vec::new();
        for (what, p) in self.cut.iter().filter(|t| gone.contains(t)) {
            let message = format!("{what} at {p} was taken off the map by a resize (it stood outside the new size); undo brings it back");
            if !out.iter().any(|o| o.message == message) {
                out.push(Problem { line: 1, col: 1, message, at: None, warning: true });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::level_edit::{Brush, Doc, Rect, new_level};
    use crate::level_file::CharacterEntry;

    #[test] // issue 46: a resize that cuts off a figure, a chest and an exit names each, in its line and as problems until undone
    fn a_resize_names_what_it_took_off_the_map() {
        let mut doc = Doc::new(new_level(12, 7));
        assert!(doc.paint(Rect::new((0, 0), (11, 6)), &Brush::Room));
        let orc = CharacterEntry { template: Some("orc".into()), side: Some("monsters".into()), ..Default::default() };
        assert!(doc.paint(Rect::one(9, 3), &Brush::Figure(Box::new(orc))));
        assert!(doc.paint(Rect::one(10, 1), &Brush::Chest));
        assert!(doc.paint(Rect::one(10, 5), &Brush::Exit));
        assert!(doc.paint(Rect::one(2, 2), &Brush::Exit));
        doc.mark_saved(doc.text());
        assert!(doc.dropped().is_empty());
        let r = doc.resize_told(8, 7);
        assert!(r.edited);
        let line = r.line();
        for what in ["figure 'orc' at (9, 3)", "chest", "at (10, 1)", "exit of 'heroes' at (10, 5)"] {
            assert!(line.contains(what), "{what}: {line}");
        }
        assert!(!line.contains("(2, 2)"), "the exit inside stays: {line}");
        let p = doc.dropped();
        assert_eq!(p.len(), 3, "{p:?}");
        assert!(p.iter().all(|p| p.warning && p.message.contains("taken off the map by a resize")), "{p:?}");
        assert!(p.iter().any(|p| p.message.contains("figure 'orc' at (9, 3)")), "{p:?}");
        // Larger again: they do not come back, and are still named; undone, they are back.
        assert!(doc.resize(12, 7));
        assert_eq!(doc.dropped().len(), 3);
        assert!(doc.undo() && doc.undo());
        assert!(doc.dropped().is_empty());
        // A resize that cuts off nothing says so.
        let r = doc.resize_told(12, 9);
        assert!(r.edited && r.removed.is_empty() && r.line() == "Resized to 12 x 9.", "{r:?}");
    }
}
