//! Stamps kept as files (issue 46, "Tools: stamps — save a selection, paste it"): a stamp kept is
//! a small level file of its own in `levels/stamps/`, its map and whatever stands and lies in it,
//! written as the editor writes any level. So a designer keeps a shelf of stamps between
//! sessions, takes them from one level to another, shares them, and opens one to edit it as a
//! level. Reading one back is reading a level: an untrusted file, its errors named with
//! file:line:column, its size checked before anything is cut from it. `StampHand` is the
//! stamp in the designer's hand and the shelf, as the window's toolbar works them.

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
    // Every entry is looked at (up to a bound no stamp folder reaches) before the sort, so the
    // first 64 are the first in name order, not in the folder's order.
    let mut v: Vec<PathBuf> = std::fs::read_dir(levels_dir.join(STAMP_DIR))
        .map(|d| d.take(MAX_SCANNED).filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect())
        .unwrap_or_default();
    v.sort();
    v.truncate(MAX_STAMPS);
    v
}

/// Folder entries looked at for the shelf at most.
const MAX_SCANNED: usize = 4096;

/// A stamp's name: its file's stem.
pub fn stamp_name(path: &Path) -> String {
    path.file_stem().map_or_else(|| path.display().to_string(), |s| s.to_string_lossy().to_string())
}

impl Stamp {
    /// What the stamp holds, for the status line: "5 x 4 spaces, 2 figure(s), 1 chest(s)".
    pub fn summary(&self) -> String {
        let n = |k: usize, what: &str| if k == 0 { String::new() } else { format!(", {k} {what}") };
        format!(
            "{} x {} spaces{}{}{}{}{}",
            self.w,
            self.h,
            n(self.figures.len(), "figure(s)"),
            n(self.chests.len(), "chest(s)"),
            n(self.traps.len(), "trap(s)"),
            n(self.items.len(), "item(s)"),
            n(self.lights.len(), "light(s)")
        )
    }
}

/// The stamp in the designer's hand (what Ctrl+V puts down) and the shelf of stamps kept as
/// files: copied from the selection, kept under a name, taken from the shelf. Each step says
/// what happened in a sentence for the status line.
#[derive(Clone, Debug, Default)]
pub struct StampHand {
    pub stamp: Option<Stamp>,
    /// The selection waiting for its name (Ctrl+Shift+C): kept with Enter, the stamp in hand
    /// untouched until then (Esc leaves the hand as it was).
    pub pending: Option<Stamp>,
    /// The stamp's name when it came from the shelf or was kept there.
    pub name: Option<String>,
    /// The shelf's next file (`next` steps through them, round).
    pub shelf_at: usize,
}

impl StampHand {
    /// The selection's stamp in hand (Ctrl+C).
    pub fn copy(&mut self, stamp: Stamp) -> String {
        let said = format!("Copied {}: Ctrl+V puts them down at the cursor (Ctrl+Shift+C keeps them as a stamp file).", stamp.summary());
        (self.stamp, self.name) = (Some(stamp), None);
        said
    }

    /// The selection held for its name (Ctrl+Shift+C), or why it cannot be kept (off the map,
    /// over `MAX_STAMP_SPACES`: said before a name is asked for).
    pub fn hold(&mut self, stamp: Stamp) -> Result<String, String> {
        if stamp.is_empty() {
            return Err("Nothing to keep: the selection lies off the map.".into());
        }
        let spaces = stamp.w as usize * stamp.h as usize;
        if spaces > MAX_STAMP_SPACES {
            return Err(format!("Not kept: a stamp holds at most {MAX_STAMP_SPACES} spaces; this selection has {spaces} ({} x {}).", stamp.w, stamp.h));
        }
        let said = format!(
            "Keep these {} x {} spaces as a stamp: type its name (letters, digits, _ and -), Enter keeps it in levels/stamps/ (Esc: not kept).",
            stamp.w, stamp.h
        );
        self.pending = Some(stamp);
        Ok(said)
    }

    /// The selection held (`hold`) kept as `levels_dir/stamps/NAME.ron`, a level file of its
    /// own, and taken in hand; never written over a stamp kept already, nor past a full shelf.
    pub fn keep(&mut self, levels_dir: &Path, name: &str) -> String {
        let Some(stamp) = self.pending.take() else { return "Nothing to keep: select spaces and press Ctrl+Shift+C first.".into() };
        let Some(path) = stamp_path(levels_dir, name) else {
            return format!("Not kept: '{name}' is not a plain name (letters, digits, _ and -). Ctrl+Shift+C to try again.");
        };
        if path.exists() {
            return format!("Not kept: a stamp named {name} is kept already ({}). Ctrl+Shift+C and another name.", path.display());
        }
        if stamp_files(levels_dir).len() >= MAX_STAMPS {
            return format!("Not kept: the shelf {} holds {MAX_STAMPS} stamps already; remove one first.", levels_dir.join(STAMP_DIR).display());
        }
        let level = match stamp.to_level(name) {
            Ok(l) => l,
            Err(e) => return format!("Not kept: {e}"),
        };
        match crate::data::write_new(&path, &Doc::new(level).text()) {
            Ok(()) => {
                let said = format!(
                    "Kept the stamp {name} ({}) in {}: Ctrl+V puts it down, Ctrl+Shift+V steps through the stamps kept.",
                    stamp.summary(),
                    path.display()
                );
                (self.stamp, self.name) = (Some(stamp), Some(name.to_string()));
                said
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                format!("Not kept: a stamp named {name} is kept already ({}). Ctrl+Shift+C and another name.", path.display())
            }
            Err(e) => format!("Not kept: {} could not be written ({e}).", path.display()),
        }
    }

    /// The next stamp of the shelf (`levels_dir/stamps/`, in name order, round) taken in hand.
    /// A file that does not read or parse is named with its line and column, and the stamp in
    /// hand stays.
    pub fn next(&mut self, levels_dir: &Path) -> String {
        let files = stamp_files(levels_dir);
        if files.is_empty() {
            return format!(
                "No stamps kept yet in {}: select spaces (Shift+arrows or drag) and press Ctrl+Shift+C to keep them as one.",
                levels_dir.join(STAMP_DIR).display()
            );
        }
        let k = self.shelf_at % files.len();
        self.shelf_at = k + 1;
        let path = &files[k];
        let read = crate::data::read_text(path, crate::data::MAX_FILE_BYTES)
            .map_err(|e| format!("{}: {}", path.display(), e.message))
            .and_then(|t| Stamp::from_file_text(&path.display().to_string(), &t));
        match read {
            Ok(stamp) => {
                let name = stamp_name(path);
                let said = format!(
                    "Stamp {name} in hand ({} of {}): {}. Ctrl+V puts it down at the cursor, Ctrl+Shift+V: the next.",
                    k + 1,
                    files.len(),
                    stamp.summary()
                );
                (self.stamp, self.name) = (Some(stamp), Some(name));
                said
            }
            Err(e) => format!("Stamp {} of {} not taken: {e}", k + 1, files.len()),
        }
    }

    /// What the row of the toolbar says is in hand.
    pub fn line(&self) -> String {
        match (&self.stamp, &self.name) {
            (Some(s), Some(name)) => {
                // A long name is cut: the line stays on the toolbar's row.
                let name: String = if name.chars().count() > 24 { format!("{}...", name.chars().take(24).collect::<String>()) } else { name.clone() };
                format!("In hand: the stamp {name}, {} x {} (Ctrl+V puts it down)", s.w, s.h)
            }
            (Some(s), None) => format!("In hand: {} x {} copied (Ctrl+V puts it down)", s.w, s.h),
            (None, _) => "In hand: nothing (Ctrl+C copies the selection)".into(),
        }
    }

    /// What a paste of the stamp in hand said, naming the stamp when it has a name.
    pub fn pasted_line(&self, pasted: &super::doc::Pasted) -> String {
        match (&self.name, pasted.edited) {
            (Some(name), true) => pasted.line().replacen("Pasted", &format!("Put down the stamp {name}"), 1),
            _ => pasted.line(),
        }
    }
}
