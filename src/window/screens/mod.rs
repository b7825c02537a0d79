//! The screens around a match, one file each: the main menu, level select (briefing, profile,
//! sides), the seats, the settings panel, the match's result, the Load screen, the replay viewer
//! and the campaign's screens. `Screen` is where the player is. Each screen owns its actions:
//! its buttons carry them and its systems handle them, with its keyboard shortcuts. A button
//! that only leads to another screen carries `Go`.

use crate::window::theme::prelude::*;
use bevy::prelude::*;

pub mod campaign;
pub mod levels;
pub mod load;
pub mod menu;
pub mod result;
pub mod settings;
pub mod setup;
pub mod viewer;

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
    ));
}

/// Where the player is.
#[derive(States, Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    #[default]
    Menu,
    Levels,
    Setup,
    Match,
    /// The saves: continue one, or watch it.
    Load,
    /// A campaign between its levels: party, briefing, result, advancement.
    Campaign,
}

/// A button that leads to another screen ("Back", "Choose a level", "Leave to the main menu").
/// Leaving by one ends a campaign in play (`campaign::leave_campaign`).
#[derive(Component, Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Go(pub Screen);

fn go_to_screen(mut go: MessageReader<Go>, mut next: ResMut<NextState<Screen>>) {
    for Go(screen) in go.read() {
        next.set(*screen);
    }
}

/// A screen's root: the whole window, its contents centred in a column.
fn root_node() -> Node {
    Node {
        width: Val::Percent(100.0),
        height: Val::Percent(100.0),
        flex_direction: FlexDirection::Column,
        align_items: AlignItems::Center,
        justify_content: JustifyContent::Center,
        row_gap: Val::Px(8.0),
        ..default()
    }
}
