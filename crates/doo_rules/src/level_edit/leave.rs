//! Leaving a level with unsaved edits (issue 42): every way out of a changed level — New, Open,
//! Back, closing the window, a play-test of a level never saved — asks Save / Discard / Cancel
//! first, and while the level has unsaved edits a recovery copy is kept that the editor offers
//! the next time it opens. The editor's words for it, and the recovery file's format, live here
//! with the rest of the editor's model; the window only shows them and writes the file.

use std::path::PathBuf;

/// A way out of the level being edited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Leave {
    /// A new level (Ctrl+N).
    New,
    /// A new level generated from a seed, as a delve's floor (Ctrl+Shift+N, issue 47).
    Generate,
    /// The k-th level of the Open list.
    Open(u16),
    /// Back to the main menu (Esc).
    Back,
    /// The window is being closed.
    Quit,
    /// A play-test of the level.
    PlayTest,
}

/// The answer to the question `Leave` asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Answer {
    /// Save the level, then leave (a failed save stays, and says why).
    Save,
    /// Leave without saving (a play-test: play the level as it is, unsaved).
    Discard,
    /// Stay with the level.
    Cancel,
}

/// Whether leaving by `leave` asks first: the level has edits not saved. A play-test leaves
/// the level in the editor, so it asks only for a level never written to its file (`on_disk`
/// false): the edits a crash during the play-test would lose.
pub fn must_ask(leave: Leave, dirty: bool, on_disk: bool) -> bool {
    match leave {
        Leave::PlayTest => dirty && !on_disk,
        _ => dirty,
    }
}

/// The question, and the labels of its three buttons (Save, Discard, Cancel) with their keys.
pub fn question(leave: Leave, file: &str) -> (String, [&'static str; 3]) {
    let what = match leave {
        Leave::New => "before starting a new level",
        Leave::Generate => "before generating a new level",
        Leave::Open(_) => "before opening another level",
        Leave::Back => "before leaving the editor",
        Leave::Quit => "before closing the game",
        Leave::PlayTest => "before play-testing it (it has never been saved)",
    };
    let text = format!("{file} has unsaved edits. Save them {what}?");
    let labels = match leave {
        Leave::PlayTest => ["Save, then play-test [S]", "Play-test unsaved [D]", "Cancel [Esc]"],
        Leave::Quit => ["Save and close [S]", "Close without saving [D]", "Cancel [Esc]"],
        _ => ["Save [S]", "Discard edits [D]", "Cancel [Esc]"],
    };
    (text, labels)
}

/// The first line of a recovery copy: the file the level was edited for follows it.
const RECOVERY_HEADER: &str = "// Dungeons of Olde level editor: unsaved edits of ";

/// A recovery copy of the level being edited: a header naming its file, then the level's text
/// (itself a level file: the header is a comment).
pub fn recovery_text(path: &std::path::Path, level_text: &str) -> String {
    // A path with a line break could not be read back from one line: it is written as one.
    let p = path.display().to_string().replace(['\n', '\r'], " ");
    format!("{RECOVERY_HEADER}{p}\n{level_text}")
}

/// A recovery copy read back: the file it was edited for and the level's text. `None` when the
/// text is not a recovery copy (no header, or no file named).
pub fn read_recovery(text: &str) -> Option<(PathBuf, String)> {
    let rest = text.strip_prefix(RECOVERY_HEADER)?;
    let (path, level) = rest.split_once('\n')?;
    let path = path.trim_end_matches('\r').trim();
    (!path.is_empty()).then(|| (PathBuf::from(path), level.to_string()))
}

/// The offer of a recovery copy: the sentence and the buttons' labels (Recover, Discard).
pub fn recovery_offer(file: &str) -> (String, [&'static str; 2]) {
    (format!("Unsaved edits of {file} were kept when the editor last closed without saving them. Recover them?"), ["Recover the edits [R]", "Discard them [D]"])
}
