//! Live validation (issue 31): every problem `doo validate` reports for the level's text, with
//! the space it is about when there is one — a map row's character, a figure's or a feature's
//! place, or a position the message names — so the editor shows it on the map where it is.

use super::scan;
use crate::data::RuleData;
use crate::level_file::Level;
use std::path::Path;

/// The longest stretch of a line read to find a map row's column.
const MAX_COL_SCAN: usize = 4096;

/// A problem of the level, at its line and column, and the space it is about (floor, x, y).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub col: usize,
    pub message: String,
    pub at: Option<(usize, i32, i32)>,
    /// Not a problem `doo validate` reports: the level validates and plays, but the editor
    /// points it out (a door in the open, doors in a block, what a resize took off the map).
    pub warning: bool,
}

/// What `doo validate` says of `text` (and whether the match builds), each problem placed;
/// then the doors it lets pass that stand in the open or in a block (`warning`, at the door's
/// map character).
pub fn problems(file: &str, text: &str, level: &Level, data: &RuleData, root: &Path) -> Vec<Problem> {
    let errs = match crate::level_file::check(file, text, data, root) {
        Ok(checked) => match checked.build(data) {
            Ok(_) => vec![],
            Err(e) => e.into_iter().map(|message| crate::level_file::LevelError { line: 1, col: 1, message }).collect(),
        },
        Err(e) => e,
    };
    let doors = super::doors::door_problems(level);
    if errs.is_empty() && doors.is_empty() {
        return vec![];
    }
    let places = Layout::of(text, level);
    let mut out: Vec<Problem> = errs
        .into_iter()
        .map(|e| {
            let at = places.as_ref().and_then(|p| p.space(e.line, e.col)).or_else(|| named_space(&e.message));
            Problem { line: e.line, col: e.col, message: e.message, at, warning: false }
        })
        .collect();
    for (f, x, y, message) in doors {
        let (line, col) = places.as_ref().and_then(|p| p.cell(f, x, y)).unwrap_or((1, 1));
        out.push(Problem { line, col, message, at: Some((f, x, y)), warning: true });
    }
    out
}

/// The first `(x, y)` or `(x, y, floor)` a message names.
fn named_space(message: &str) -> Option<(usize, i32, i32)> {
    let mut rest = message;
    while let Some(k) = rest.find('(') {
        rest = &rest[k + 1..];
        let inner = rest.split(')').next()?;
        let nums: Vec<Option<i32>> = inner.split(',').map(|n| n.trim().parse().ok()).collect();
        if (2..=3).contains(&nums.len()) && nums.iter().all(Option::is_some) {
            let n: Vec<i32> = nums.into_iter().flatten().collect();
            return Some((n.get(2).map_or(0, |f| *f as usize), n[0], n[1]));
        }
    }
    None
}

/// Lines of the text and what lies on them: map rows, and the entries with a place.
struct Layout {
    /// (first line, last line, floor, x, y) of an entry with a place, or a row (x from the column).
    entries: Vec<(usize, usize, usize, i32, i32)>,
    /// (line, floor, y, the column of the row's first character).
    rows: Vec<(usize, usize, i32, usize)>,
}

impl Layout {
    fn of(text: &str, level: &Level) -> Option<Layout> {
        // Line starts once (a file may hold thousands of entries): a line by binary search, a
        // column only on a line of reasonable length (else the row is not placed).
        let starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        let line_of = |b: usize| starts.partition_point(|s| *s <= b.min(text.len()));
        let col_of = |b: usize| {
            let start = starts[line_of(b) - 1];
            (b - start <= MAX_COL_SCAN).then(|| text[start..b].chars().count() + 1)
        };
        let (items, _) = scan::items(text, scan::top_open(text)?)?;
        let mut out = Layout { entries: vec![], rows: vec![] };
        for it in &items {
            let key = it.key.as_deref().unwrap_or("");
            if key == "floors" {
                let (floors, _) = scan::items(text, it.value.0)?;
                for (f, fl) in floors.iter().enumerate() {
                    let (rows, _) = scan::items(text, fl.value.0)?;
                    for (y, r) in rows.iter().enumerate() {
                        if let Some(c) = col_of(r.value.0) {
                            out.rows.push((line_of(r.value.0), f, y as i32, c + 1));
                        }
                    }
                }
                continue;
            }
            let places: Vec<Option<crate::rules::grid::Pos>> = match key {
                "characters" => level.characters.iter().map(|c| c.pos).collect(),
                "chests" => level.chests.iter().map(|c| Some(c.pos)).collect(),
                "traps" => level.traps.iter().map(|c| Some(c.pos)).collect(),
                "items" => level.items.iter().map(|c| Some(c.pos)).collect(),
                "doors" => level.doors.iter().map(|c| Some(c.pos)).collect(),
                "lights" => level.lights.iter().map(|c| c.pos).collect(),
                "dark" => level.dark.iter().map(|c| Some(c.from)).collect(),
                "checks" => level.checks.iter().map(|c| Some(c.pos)).collect(),
                _ => continue,
            };
            let Some((elems, _)) = scan::items(text, it.value.0) else { continue };
            for (e, p) in elems.iter().zip(places) {
                if let Some(p) = p {
                    out.entries.push((line_of(e.start), line_of(e.value.1), p.floor as usize, p.x, p.y));
                }
            }
        }
        Some(out)
    }

    /// The line and column of a map character.
    fn cell(&self, f: usize, x: i32, y: i32) -> Option<(usize, usize)> {
        self.rows.iter().find(|r| r.1 == f && r.2 == y).map(|r| (r.0, r.3 + x as usize))
    }

    fn space(&self, line: usize, col: usize) -> Option<(usize, i32, i32)> {
        if let Some((_, f, y, c0)) = self.rows.iter().find(|r| r.0 == line) {
            return Some((*f, col.saturating_sub(*c0) as i32, *y));
        }
        self.entries.iter().find(|e| (e.0..=e.1).contains(&line)).map(|e| (e.2, e.3, e.4))
    }
}
