//! Stamps kept as files (issue 46, "Tools: stamps — save a selection, paste it"): a stamp kept is
//! a small level file of its own in `levels/stamps/`, its map and whatever stands and lies in it,
//! written as the editor writes any level. So a designer keeps a shelf of stamps between
//! sessions, takes them from one level to another, shares them, and opens one to edit it as a
//! level. Reading one back is reading a level: an untrusted file, its errors named with
//! file:line:column, its size checked before anything is cut from it.

use super::brush::Rect;
use super::doc::{Doc, new_level};
use super::stamp::Stamp;
use std::path::{Path, PathBuf};

/// The folder of stamps, inside the levels folder.
pub const STAMP_DIR: &str = "stamps";
/// Stamps listed at most (the shelf steps through them in name order).
pub const MAX_STAMPS: usize = 64;
/// The most spaces a stamp holds (a kept stamp larger is refused, and so is a file of one).
pub const MAX_STAMP_SPACES: usize = 128 * 128;

impl Stamp {
    /// The stamp as a level of its own size named `name`: what a stamp's file holds (the new
    /// level's two sides, and the stamp put down at its top-left corner).
    pub fn to_level(&self, name: &str) -> Result<crate::level_file::Level, String> {
        if self.is_empty() {
            return Err("Nothing to keep: the selection lies off the map.".into());
        }
        let spaces = self.w as usize * self.h as usize;
        if spaces > MAX_STAMP_SPACES {
            return Err(format!("A stamp holds at most {MAX_STAMP_SPACES} spaces; this one has {spaces} ({} x {}).", self.w, self.h));
        }
        let mut d = Doc::new(new_level(self.w as usize, self.h as usize));
        d.level.name = name.to_string();
        d.paste_stamp(0, 0, self);
        // What only a crawl holds makes the stamp's level a crawl, so the file opened as a level
        // shows no problem for it.
        let l = &mut d.level;
        let crawl = !(l.doors.is_empty() && l.chests.is_empty() && l.items.is_empty() && l.traps.is_empty())
            || !(l.encounters.is_empty() && l.lights.is_empty() && l.checks.is_empty() && l.dark.is_empty());
        if crawl {
            l.mode = crate::level_crawl::LevelMode::Exploration;
        }
        Ok(d.level)
    }

    /// The stamp a stamp file holds (floor 0, whole): the file's errors as `file:line:col:
    /// message`, a map over `MAX_STAMP_SPACES` refused before it is cut.
    pub fn from_file_text(file: &str, text: &str) -> Result<Stamp, String> {
        let doc = Doc::from_text(file, text).map_err(|e| format!("{file}:{}:{}: {}", e.line, e.col, e.message))?;
        let (w, h) = doc.size();
        if w == 0 || h == 0 {
            return Err(format!("{file}: the stamp has no map"));
        }
        if w.saturating_mul(h) > MAX_STAMP_SPACES {
            return Err(format!("{file}: a stamp holds at most {MAX_STAMP_SPACES} spaces; this one has {w} x {h}"));
        }
        Ok(doc.stamp(Rect { x0: 0, y0: 0, x1: w as i32 - 1, y1: h as i32 - 1 }))
    }
}

/// The file a stamp named `name` is kept in, in `levels_dir`'s stamp folder: `None` when the
/// name is not a plain id (letters, digits, `_` and `-`: no path, no dots).
pub fn stamp_path(levels_dir: &Path, name: &str) -> Option<PathBuf> {
    super::rename::plain_id(name).then(|| levels_dir.join(STAMP_DIR).join(format!("{name}.ron")))
}

/// The stamps kept in `levels_dir`'s stamp folder, in name order (at most `MAX_STAMPS`).
pub fn stamp_files(levels_dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(levels_dir.join(STAMP_DIR))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "ron")).take(4 * MAX_STAMPS).collect())
        .unwrap_or_default();
    v.sort();
    v.truncate(MAX_STAMPS);
    v
}

/// A stamp's name: its file's stem.
pub fn stamp_name(path: &Path) -> String {
    path.file_stem().map_or_else(|| path.display().to_string(), |s| s.to_string_lossy().to_string())
}
