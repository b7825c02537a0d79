//! The game's font: DejaVu Sans Mono (`assets/fonts/`, its licence beside it) in place of Bevy's
//! built-in FiraMono subset, which has only ASCII ("→", "−", "…", "§" were empty boxes: issue 43).
//! Both are monospaced with the same advance (0.6 em), so every layout measured in characters
//! holds. It is compiled in and put at the default font's handle, so every `Text`, `Text2d` and
//! `TextSpan` uses it without naming it; `tests/it/seen_read.rs` checks it has every character
//! the game prints.

use bevy::prelude::*;

/// The font's file, as compiled in.
pub const FONT_DATA: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansMono.ttf");

pub(super) fn plugin(app: &mut App) {
    // After `TextPlugin` put its own font there, before any text is laid out.
    if let Some(mut fonts) = app.world_mut().get_resource_mut::<Assets<Font>>() {
        if let Err(e) = fonts.insert(AssetId::default(), Font::from_bytes(FONT_DATA.to_vec())) {
            warn!("the game's font was not installed: {e}");
        }
    }
}
