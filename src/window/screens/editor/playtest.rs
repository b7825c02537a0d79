//! Play-testing from the editor (issue 31): the level as it stands is written to the saves'
//! `editor/` folder and played with its own seats; the result screen and the match menu offer
//! "Back to the editor", which returns to the editor as it was (the level, its undo, the brush,
//! the cursor). A level with problems is not played: the editor says how many are left.

use super::state::{Editor, PlayTest};
use crate::window::GameData;
use crate::window::board::Overlay;
use crate::window::screens::Screen;
use crate::window::session::MatchSetup;
use crate::window::theme::prelude::*;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Editor), end_playtest)
        .add_systems(Update, enter_back_to_editor.run_if(in_state(Screen::Match).and_then(resource_exists::<PlayTest>)));
}

/// Enter on a play-test's result goes back to the editor (as Enter on a campaign level's
/// result goes back to the campaign).
fn enter_back_to_editor(keys: Res<ButtonInput<KeyCode>>, overlay: Res<Overlay>, focus: Res<KeyFocus>, mut next: ResMut<NextState<Screen>>) {
    if overlay.result.is_some() && !overlay.menu && keys.just_pressed(KeyCode::Enter) && focus.0.is_none() {
        next.set(Screen::Editor);
    }
}

/// Where the level being play-tested is written.
pub fn playtest_path() -> std::path::PathBuf {
    crate::saves::save_dir().join("editor").join("playtest.ron")
}

pub fn start_playtest(world: &mut World) {
    let data = world.resource::<GameData>().0.clone();
    let Some(mut ed) = world.get_resource_mut::<Editor>() else { return };
    if ed.blocking() > 0 {
        ed.status = format!("Play-test needs a level without problems: {} left (listed below, marked ! on the map).", ed.blocking());
        return;
    }
    let text = ed.doc.text();
    let root = ed.root();
    let path = playtest_path();
    let written = doo_rules::data::write_atomic(&path, &text);
    if let Err(e) = written {
        ed.status = format!("Could not write the play-test level {}: {e}", path.display());
        return;
    }
    let checked = match doo_rules::level_file::check(&path.display().to_string(), &text, &data, &root) {
        Ok(c) => c,
        Err(errs) => {
            ed.status = format!("Play-test: {}", errs.first().map_or(String::new(), |e| e.message.clone()));
            return;
        }
    };
    ed.status = "Play-testing: the result screen and the match menu (Esc) lead back here.".into();
    let before = world.remove_resource::<MatchSetup>();
    world.insert_resource(PlayTest { before });
    world.insert_resource(MatchSetup::new(path, checked));
    world.resource_mut::<NextState<Screen>>().set(Screen::Match);
}

/// Back in the editor: the menu's match is the one it had before the play-test.
fn end_playtest(mut commands: Commands, test: Option<ResMut<PlayTest>>) {
    let Some(mut test) = test else { return };
    if let Some(before) = test.before.take() {
        commands.insert_resource(before);
    }
    commands.remove_resource::<PlayTest>();
}
