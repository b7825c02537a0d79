//! The look and feel every screen shares, knowing no screen: the font, the palette, the widget builders,
//! and how a button is pressed and its action delivered (bevy_new_2d's `theme/`).

use bevy::prelude::*;

pub mod font;
pub mod interaction;
pub mod palette;
pub mod widget;

/// What a screen file needs to build and wire its panels.
pub mod prelude {
    pub use super::interaction::{ActionName, Activate, AddButtonAction, Blocks, Disabled, KeyFocus, PointerOverUi, Pressed, Selected};
    pub use super::palette;
    pub use super::widget::{bar_button, button, button_off, panel, panel_in, text, type_key};
}

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((font::plugin, interaction::plugin));
}
