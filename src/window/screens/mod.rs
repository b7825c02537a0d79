//! The screens around a match, one file each: the main menu, level select (briefing, profile,
//! sides), the seats, the settings panel, the match's result, the Load screen, the replay viewer,
//! the campaign's screens, the Delve screen and the level editor. `Screen` is where the player is. Each screen owns its actions:
//! its buttons carry them and its systems handle them, with its keyboard shortcuts. A button
//! that only leads to another screen carries `Go`.

use crate::window::theme::prelude::*;
use bevy::prelude::*;

pub mod campaign;
pub mod delve;
pub mod editor;
pub mod join;
pub mod levels;
pub mod load;
pub mod menu;
pub mod result;
mod screen;
pub mod settings;
pub mod setup;
pub mod viewer;
pub use screen::{Go, Screen, root_node};

pub(super) fn plugin(app: &mut App) {
    app.add_button_action::<Go>().add_systems(Update, go_to_screen).add_plugins((
        settings::plugin,
        menu::plugin,
        levels::plugin,
        setup::plugin,
        result::plugin,
        campaign::plugin,
        load::plugin,
        viewer::plugin,
        editor::plugin,
        join::plugin,
        delve::plugin,
    ));
}

fn go_to_screen(mut go: MessageReader<Go>, mut next: ResMut<NextState<Screen>>) {
    for Go(screen) in go.read() {
        next.set(*screen);
    }
}
