//! Where the player is (`Screen`), the button that leads to another screen (`Go`) and a
//! screen's root node: a leaf that every screen, the board and the HUD import without reaching
//! the screens' plugins (so registering a screen's plugin makes no import cycle).

use bevy::prelude::*;

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
    /// The level editor (issue 31).
    Editor,
    /// Join a network match (issue 32).
    Join,
    /// A generated dungeon's choices (issue 47); then the campaign's screens play it.
    Delve,
}

/// A button that leads to another screen ("Back", "Choose a level", "Leave to the main menu").
/// Leaving by one ends a campaign in play (`campaign::leave_campaign`).
#[derive(Component, Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Go(pub Screen);

/// A screen's root: the whole window, its contents centred in a column.
pub fn root_node() -> Node {
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
