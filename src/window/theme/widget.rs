//! The widget builders: text, a button and a compact bar button that carry their action, and
//! panels that take the pointer. A button's action is a component of the screen's own action
//! type (`interaction.rs` delivers it when the button is pressed).

use super::interaction::{ActionName, Blocks};
use super::palette;
use bevy::prelude::*;
use std::fmt::Debug;

pub fn text(s: impl Into<String>, size: f32, color: Color) -> impl Bundle {
    (Text::new(s), TextFont { font_size: FontSize::Px(size), ..default() }, TextColor(color))
}

/// The box of a full-size button (`button`, `button_off`).
fn button_node() -> Node {
    Node {
        padding: UiRect::axes(Val::Px(12.0), Val::Px(6.0)),
        margin: UiRect::all(Val::Px(3.0)),
        justify_content: JustifyContent::Center,
        align_items: AlignItems::Center,
        border: UiRect::all(Val::Px(1.0)),
        border_radius: BorderRadius::all(Val::Px(4.0)),
        ..default()
    }
}

/// A button that does `act` when pressed (the owner of `act`'s type handles it).
pub fn button<A: Component + Debug>(label: impl Into<String>, act: A) -> impl Bundle {
    (
        Button,
        ActionName::of(&act),
        act,
        button_node(),
        BorderColor::all(palette::BUTTON_BORDER),
        BackgroundColor(palette::BUTTON),
        children![text(label, 16.0, palette::TEXT)],
    )
}

/// A button whose action the rules refuse now: dim, its label saying why (it keeps `act` so a
/// press is still heard, and is told why; the caller adds `Disabled`).
pub fn button_off<A: Component + Debug>(label: impl Into<String>, act: A) -> impl Bundle {
    (
        Button,
        ActionName::of(&act),
        act,
        button_node(),
        BorderColor::all(palette::BAR_BORDER_OFF),
        BackgroundColor(palette::BUTTON),
        children![text(label, 14.0, palette::BAR_TEXT_OFF)],
    )
}

/// A compact button for the action bar; a disabled one has dim text (and `Disabled`).
pub fn bar_button<A: Component + Debug>(label: impl Into<String>, act: A, enabled: bool) -> impl Bundle {
    (
        Button,
        ActionName::of(&act),
        act,
        Node {
            padding: UiRect::axes(Val::Px(5.0), Val::Px(2.0)),
            margin: UiRect::all(Val::Px(1.5)),
            border: UiRect::all(Val::Px(1.0)),
            border_radius: BorderRadius::all(Val::Px(3.0)),
            ..default()
        },
        BorderColor::all(if enabled { palette::BAR_BORDER } else { palette::BAR_BORDER_OFF }),
        BackgroundColor(palette::BUTTON),
        children![text(label, 12.0, if enabled { palette::TEXT } else { palette::BAR_TEXT_OFF })],
    )
}

pub fn panel(node: Node) -> impl Bundle {
    panel_in(node, palette::PANEL)
}

/// A panel of another colour (a bundle takes one `BackgroundColor`: adding a second beside
/// `panel(…)` is refused by Bevy at spawn, which crashed Settings and every reaction prompt).
/// A panel takes the pointer: a click on it never reaches a button or the board under it.
pub fn panel_in(node: Node, color: Color) -> impl Bundle {
    (node, BackgroundColor(color), Interaction::default(), bevy::ui::FocusPolicy::Block, Blocks)
}

/// One key typed into a text field of at most `max` characters (spaces when `spaces`, never a
/// control character): Backspace erases, Enter or Esc ends the typing (returns true).
pub fn type_key(text: &mut String, key: &bevy::input::keyboard::Key, max: usize, spaces: bool) -> bool {
    use bevy::input::keyboard::Key;
    let room = text.chars().count() < max;
    match key {
        Key::Enter | Key::Escape => return true,
        Key::Backspace => {
            text.pop();
        }
        Key::Character(c) if room && !c.chars().any(char::is_control) => text.push_str(c),
        Key::Space if room && spaces => text.push(' '),
        _ => {}
    }
    false
}
