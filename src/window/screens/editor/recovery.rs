//! Nothing the designer made is lost (issue 42): while the level has unsaved edits a recovery
//! copy of it is kept (written atomically, under the saves folder), the next editor offers it,
//! and closing the window with unsaved edits asks Save / Discard / Cancel first. What the copy
//! holds and the words are the editor's model (`doo_rules::level_edit::leave`).

use super::state::Editor;
use crate::window::screens::Screen;
use bevy::prelude::*;
use bevy::window::{ClosingWindow, ExitSystems, WindowCloseRequested};
use doo_rules::level_edit::leave::{Leave, read_recovery, recovery_text};
use std::path::PathBuf;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, keep_recovery_copy.after(super::EditorSystems::Apply)).add_systems(Last, ask_before_closing.before(ExitSystems));
}

/// Where the recovery copy is kept.
pub fn recovery_path() -> PathBuf {
    crate::saves::save_dir().join("editor").join("recovery.ron")
}

/// The recovery copy left by an editor that closed with unsaved edits: the file it was edited
/// for and the level's text (none when there is no copy, or it is unreadable).
pub(super) fn offer() -> Option<(PathBuf, String)> {
    let p = recovery_path();
    if !p.is_file() {
        return None;
    }
    match doo_rules::data::read_text(&p, doo_rules::data::MAX_FILE_BYTES) {
        Ok(text) => read_recovery(&text),
        Err(e) => {
            warn!("{}: {}", p.display(), e.message);
            None
        }
    }
}

/// The recovery copy is no longer wanted (saved, or the edits discarded).
pub(super) fn forget() {
    let p = recovery_path();
    if p.is_file() {
        if let Err(e) = std::fs::remove_file(&p) {
            warn!("{}: {e}", p.display());
        }
    }
}

/// After every edit: a level with unsaved edits has its recovery copy, a level without has none
/// (a copy offered and not yet answered is left alone).
fn keep_recovery_copy(editor: Option<Res<Editor>>, mut written: Local<Option<String>>) {
    let Some(ed) = editor else {
        *written = None;
        return;
    };
    if !ed.is_changed() || ed.recovery.is_some() {
        return;
    }
    if ed.doc.dirty() {
        let text = recovery_text(&ed.path, &ed.doc.text());
        if written.as_ref() != Some(&text) {
            match doo_rules::data::write_atomic(&recovery_path(), &text) {
                Ok(()) => *written = Some(text),
                Err(e) => warn!("the recovery copy {}: {e}", recovery_path().display()),
            }
        }
    } else if written.take().is_some() || recovery_path().is_file() {
        forget();
    }
}

/// Closing the window: with unsaved edits in the editor it asks first (Save and close / Close
/// without saving / Cancel); otherwise the window closes as Bevy's own `close_when_requested`
/// closes it (marked this frame, despawned the next), which `WindowPlugin` leaves to this.
fn ask_before_closing(
    mut commands: Commands,
    mut requests: MessageReader<WindowCloseRequested>,
    closing: Query<Entity, With<ClosingWindow>>,
    editor: Option<ResMut<Editor>>,
    screen: Option<Res<State<Screen>>>,
) {
    for w in &closing {
        commands.entity(w).despawn();
    }
    let in_editor = screen.is_some_and(|s| *s.get() == Screen::Editor);
    let mut editor = editor.filter(|e| in_editor && e.doc.dirty());
    for r in requests.read() {
        match editor.as_mut() {
            Some(ed) => ed.ask(Leave::Quit),
            None => {
                commands.entity(r.window).try_insert(ClosingWindow);
            }
        }
    }
}
