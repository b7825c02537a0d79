//! Keys and buttons during a match: bar entries, end/pass, reactions, help, overlays. Match
//! decisions go out as `Intent`s; the rest only changes what the HUD shows.

use super::Overlay;
use super::prompt::PromptState;
use crate::game::MatchSystems;
use crate::game::intent::{Intent, PlayerView, Seats};
use crate::window::screens::Screen;
use crate::window::settings::Settings;
use crate::window::ui::Act;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (match_keys, forward_acts).chain().in_set(MatchSystems::Input).before(crate::window::board::BoardInput).run_if(in_state(Screen::Match)),
    );
}

/// Keyboard: 1-9, 0 (and Shift for entries 11-20) choose bar entries, Enter ends/passes, Esc
/// cancels or closes, F1 or H help, R skips the reset display, Y/N answer a reaction prompt.
fn match_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut overlay: ResMut<Overlay>,
    view: Res<PlayerView>,
    mut acts: MessageWriter<Act>,
    mut intents: MessageWriter<Intent>,
) {
    const DIGITS: [KeyCode; 10] = [
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
        KeyCode::Digit7,
        KeyCode::Digit8,
        KeyCode::Digit9,
        KeyCode::Digit0,
    ];
    if keys.any_just_pressed([KeyCode::F1, KeyCode::KeyH]) {
        overlay.help = !overlay.help;
    }
    if keys.just_pressed(KeyCode::KeyR) {
        acts.write(Act::SkipReset);
    }
    if keys.just_pressed(KeyCode::Escape) {
        if overlay.help {
            overlay.help = false;
        } else {
            intents.write(Intent::Cancel);
        }
    }
    if overlay.handover.is_some() {
        if keys.any_just_pressed([KeyCode::Enter, KeyCode::Space]) {
            acts.write(Act::HandoverReady);
        }
        return;
    }
    if overlay.blocks_board().is_some() {
        return;
    }
    if keys.just_pressed(KeyCode::Enter) {
        acts.write(Act::Pass);
    }
    if let Some((_, list)) = &view.reactions {
        for (k, d) in DIGITS.iter().enumerate() {
            if keys.just_pressed(*d) && k < list.len() {
                acts.write(Act::React(k));
            }
        }
        if keys.just_pressed(KeyCode::KeyN) {
            acts.write(Act::Decline);
        }
        return;
    }
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    for (k, d) in DIGITS.iter().enumerate() {
        if keys.just_pressed(*d) {
            acts.write(Act::Choose(k + if shift { 10 } else { 0 }));
        }
    }
}

/// Buttons and keys that are match decisions become intents (not while an overlay covers the board).
fn forward_acts(
    mut acts: MessageReader<Act>,
    mut intents: MessageWriter<Intent>,
    mut overlay: ResMut<Overlay>,
    mut settings: ResMut<Settings>,
    mut prompt: ResMut<PromptState>,
    mut next: ResMut<NextState<Screen>>,
    view: Res<PlayerView>,
    seats: Res<Seats>,
) {
    for act in acts.read() {
        match act {
            Act::Help => overlay.help = !overlay.help,
            Act::HandoverReady => {
                prompt.last_player = overlay.handover.take();
                if prompt.last_player.is_none() {
                    prompt.last_player = view.side.as_ref().and_then(|s| seats.players.get(s).cloned());
                }
            }
            Act::SkipReset => overlay.reset = None,
            Act::ToMenu => next.set(Screen::Menu),
            Act::ToLevels => next.set(Screen::Levels),
            Act::NeverAsk(id) => {
                settings.never_ask.insert(id.clone());
                intents.write(Intent::Decline);
            }
            _ if overlay.blocks_board().is_some() => {}
            Act::Choose(i) => {
                intents.write(Intent::Choose(*i));
            }
            Act::Pass => {
                intents.write(Intent::Pass);
            }
            Act::React(i) => {
                intents.write(Intent::React(*i));
            }
            Act::Decline => {
                intents.write(Intent::Decline);
            }
            _ => {}
        }
    }
}
