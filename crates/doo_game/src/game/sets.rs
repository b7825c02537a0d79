//! The frame's order for match logic, in chained sets: Input → Command → Validate → Apply →
//! Present (each plugin of `game/` and the window puts its systems in one).

use bevy::prelude::*;

/// The frame's order for match logic.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MatchSystems {
    /// Read devices and turn them into intents (window only).
    Input,
    /// Queue `Command`s from every source (UI, AI, scripts).
    Command,
    /// Ask the rules whether the next command is legal.
    Validate,
    /// Apply the legal command and move the turn structure on.
    Apply,
    /// Publish what happened (log, UI refresh).
    Present,
}
