//! The UI's colours: panels, text, buttons in each state (the board's own colours are in
//! `board::palette`).

use bevy::prelude::Color;

pub const PANEL: Color = Color::srgba(0.05, 0.045, 0.06, 0.88);
pub const PANEL_SOLID: Color = Color::srgb(0.07, 0.06, 0.08);
pub const TEXT: Color = Color::srgb(0.93, 0.90, 0.84);
pub const DIM: Color = Color::srgb(0.60, 0.57, 0.52);
pub const GOLD: Color = Color::srgb(0.95, 0.78, 0.35);
pub const BAD: Color = Color::srgb(1.0, 0.50, 0.42);
pub const GOOD: Color = Color::srgb(0.50, 0.88, 0.50);
pub const BUTTON: Color = Color::srgb(0.20, 0.17, 0.15);
pub const BUTTON_HOVER: Color = Color::srgb(0.32, 0.27, 0.22);
pub const BUTTON_PRESSED: Color = Color::srgb(0.45, 0.37, 0.25);
pub const BUTTON_OFF: Color = Color::srgb(0.12, 0.11, 0.11);
pub const BUTTON_ON: Color = Color::srgb(0.30, 0.40, 0.22);
/// A button's border, and a bar button's when it can be pressed or not.
pub const BUTTON_BORDER: Color = Color::srgb(0.45, 0.38, 0.28);
pub const BAR_BORDER: Color = Color::srgb(0.55, 0.46, 0.30);
pub const BAR_BORDER_OFF: Color = Color::srgb(0.22, 0.20, 0.19);
pub const BAR_TEXT_OFF: Color = Color::srgb(0.42, 0.40, 0.38);
