//! The problems a level check finds, each at its place in the file and capped (`Found`), and
//! values from the file shortened for the messages (`clip`).

use super::format::LevelError;
use crate::data::Places;

/// Problems found so far, capped: past the cap they are only counted.
pub(super) struct Found<'p, 'a> {
    pub(super) places: &'p Places<'a>,
    pub(super) problems: crate::data::Problems<LevelError>,
}

impl Found<'_, '_> {
    pub(super) fn at(&mut self, at: (usize, usize), message: impl Into<String>) {
        self.problems.push(LevelError { line: at.0, col: at.1, message: message.into() });
    }
    /// A problem whose place and words are only worked out while the list has room (a file
    /// with a million bad characters costs a count past the cap, not a million look-ups).
    pub(super) fn lazy(&mut self, at: impl FnOnce() -> (usize, usize), message: impl FnOnce() -> String) {
        if self.full() {
            self.problems.more += 1;
        } else {
            self.at(at(), message());
        }
    }
    pub(super) fn key(&mut self, key: &str, message: impl Into<String>) {
        let at = self.places.key(key).unwrap_or((1, 1));
        self.at(at, message);
    }
    pub(super) fn full(&self) -> bool {
        self.problems.full()
    }
    pub(super) fn into_result(self) -> Result<(), Vec<LevelError>> {
        if self.problems.is_empty() {
            return Ok(());
        }
        let mut list = self.problems.list;
        list.sort();
        list.dedup();
        if self.problems.more > 0 {
            let last = list.last().map_or((1, 1), |e| (e.line, e.col));
            list.push(LevelError { line: last.0, col: last.1, message: format!("… and {} more problems", self.problems.more) });
        }
        Err(list)
    }
}

/// A value from the file, shortened for an error message (the rules' one, shared with the level
/// events' checks).
pub(super) use crate::rules::story::clip;

/// A message that quotes values from the file, kept to a sensible length.
pub(super) fn clip_message(m: &str) -> String {
    if m.chars().count() <= 300 { m.to_string() } else { format!("{}…", m.chars().take(300).collect::<String>()) }
}
