//! Keys and buttons during a match: bar entries, end/pass, reactions, help, overlays. Match
//! decisions go out as `Intent`s; the rest only changes what the HUD shows.

use super::MatchAct;
use super::prompt::PromptState;
use crate::game::MatchSystems;
use crate::game::ai::AiControl;
use crate::game::components::MatchState;
use crate::game::intent::{Intent, PlayerView, Seats};
use crate::game::record::{MatchRecord, ai_plan};
use crate::game::undo::UndoLast;
use crate::window::board::Overlay;
use crate::window::screens::Screen;
use crate::window::session;
use crate::window::settings::Settings;
use crate::window::theme::prelude::*;
use bevy::ecs::system::SystemParam;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;

/// What "Save as" needs: the record, the clock, the AI's plan, the level's name.
#[derive(SystemParam)]
struct SaveParams<'w> {
    record: Res<'w, MatchRecord>,
    state: Option<Res<'w, MatchState>>,
    ai: Option<Res<'w, AiControl>>,
    dice: Option<Res<'w, crate::game::components::MatchDice>>,
}

impl SaveParams<'_> {
    /// "Ambush, turn 3".
    fn default_name(&self) -> String {
        let level = self.record.header.as_ref().map_or("match".to_string(), |h| h.level_name.clone());
        let turn = format!(", turn {}", self.state.as_ref().map_or(0, |s| s.clock.turn));
        // The level's name shortened so that the turn always fits.
        let room = MAX_SLOT_NAME.saturating_sub(turn.chars().count());
        level.chars().take(room).collect::<String>().trim_end().to_string() + &turn
    }

    /// Writes the match to the slot `name`: what happened, for the menu (and whether it worked).
    fn write(&self, name: &str) -> (String, bool) {
        if name.is_empty() {
            return ("Not saved: the name is empty.".into(), false);
        }
        let turn = self.state.as_ref().map_or(0, |s| s.clock.turn);
        let Some(mut save) = self.record.to_save(turn, ai_plan(self.ai.as_deref())) else {
            return ("Not saved: this match is not recorded.".into(), false);
        };
        save.label = name.to_string();
        if let (Some(state), Some(dice)) = (&self.state, &self.dice) {
            crate::game::record::seal(&mut save, &state.0, &dice.0);
        }
        let path = crate::saves::slot_path(name);
        let existed = path.exists();
        match doo_rules::data::write_atomic(&path, &save.to_text()) {
            Ok(()) => {
                info!("saved as {}", path.display());
                (format!("Saved as \"{name}\"{}", if existed { " (it replaced the save of that name)" } else { "" }), true)
            }
            Err(e) => (format!("Not saved: {}: {e}", path.display()), false),
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (type_save_name, match_keys, forward_acts).chain().in_set(MatchSystems::Input).before(crate::window::board::BoardInput).run_if(in_state(Screen::Match)),
    );
}

/// Save as: the slot's name is typed (Enter saves, Esc goes back to the menu).
fn type_save_name(mut keys: MessageReader<KeyboardInput>, held: Res<ButtonInput<KeyCode>>, mut overlay: ResMut<Overlay>, mut acts: MessageWriter<MatchAct>) {
    let Some(name) = overlay.save_name.as_ref() else {
        keys.clear();
        return;
    };
    let mut name = name.clone();
    let ctrl = ctrl_held(&held);
    for e in keys.read() {
        if !e.state.is_pressed() {
            continue;
        }
        if ctrl {
            // Ctrl+A or Ctrl+U clears the field; other shortcuts type nothing.
            if matches!(e.key_code, KeyCode::KeyA | KeyCode::KeyU) {
                name.clear();
            }
            continue;
        }
        match &e.logical_key {
            Key::Enter => {
                acts.write(MatchAct::SaveNow);
            }
            Key::Escape => {
                acts.write(MatchAct::MatchMenu);
            }
            Key::Backspace => {
                name.pop();
            }
            Key::Character(c) if name.chars().count() < MAX_SLOT_NAME && c.chars().all(|c| !c.is_control()) => name.push_str(c),
            Key::Space if name.chars().count() < MAX_SLOT_NAME => name.push(' '),
            _ => {}
        }
    }
    if overlay.save_name.as_ref() != Some(&name) {
        overlay.save_name = Some(name);
    }
}

/// Ctrl is down for this frame's keys: held, or pressed or released within the frame (a fast
/// Ctrl+Z — a macro, or a slow frame — can press and release Ctrl before the frame reads it).
fn ctrl_held(keys: &ButtonInput<KeyCode>) -> bool {
    const CTRL: [KeyCode; 2] = [KeyCode::ControlLeft, KeyCode::ControlRight];
    keys.any_pressed(CTRL) || keys.any_just_pressed(CTRL) || keys.any_just_released(CTRL)
}

/// Letters in a save slot's name.
const MAX_SLOT_NAME: usize = 40;

/// Keyboard: 1-9, 0 (and Shift for entries 11-20) choose the open group's bar entries, Tab and
/// Shift+Tab switch groups (Tab shows a long group's next page first), F2 opens the rules reference, Enter ends/passes, Esc
/// cancels an aim, closes what is open, or opens the match menu; F1 or H help, R skips the
/// reset display, Y/N answer a reaction prompt, 1-3 a level event's choice; Ctrl+Z undo, Ctrl+S save as.
fn match_keys(
    mut keys: ResMut<ButtonInput<KeyCode>>,
    mut overlay: ResMut<Overlay>,
    view: Res<PlayerView>,
    bar: Res<super::action_bar::BarState>,
    focus: Res<KeyFocus>,
    mut acts: MessageWriter<MatchAct>,
    mut intents: MessageWriter<Intent>,
    state: Option<Res<crate::game::components::MatchState>>,
) {
    if overlay.save_name.is_some() {
        return; // the name field has the keys
    }
    if ctrl_held(&keys) {
        if keys.just_pressed(KeyCode::KeyZ) {
            acts.write(MatchAct::Undo);
        }
        if keys.just_pressed(KeyCode::KeyS) {
            acts.write(MatchAct::SaveAs);
        }
        return;
    }
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
    if keys.just_pressed(KeyCode::F2) {
        acts.write(MatchAct::Rules(None));
    }
    if keys.just_pressed(KeyCode::KeyR) {
        acts.write(MatchAct::SkipReset);
    }
    if keys.just_pressed(KeyCode::Escape) {
        if overlay.rules.is_some() {
            overlay.rules = None;
        } else if overlay.help {
            overlay.help = false;
        } else if overlay.menu || (view.aiming().is_none() && overlay.handover.is_none() && overlay.result.is_none()) {
            acts.write(MatchAct::MatchMenu);
        } else {
            intents.write(Intent::Cancel);
        }
    }
    if overlay.handover.is_some() {
        if keys.any_just_pressed([KeyCode::Enter, KeyCode::Space]) && focus.0.is_none() {
            acts.write(MatchAct::HandoverReady);
            // The key shows the board; it does not also click it or end the opportunity.
            keys.clear_just_pressed(KeyCode::Enter);
            keys.clear_just_pressed(KeyCode::Space);
        }
        return;
    }
    if overlay.blocks_board().is_some() {
        return;
    }
    // Enter on a button that has the keyboard focus (Tab, arrows: `focus.rs`) presses that
    // button only: it does not also pass (issue 43: one Enter ended Grub's opportunity through
    // the focused button and passed Yip's through this key, two commands from one press).
    if keys.just_pressed(KeyCode::Enter) && focus.0.is_none() {
        acts.write(MatchAct::Pass);
    }
    // Issue 46: a level event's choice waiting: the digits answer it.
    if let Some(p) = state.as_ref().and_then(|s| doo_rules::rules::event_choice::pending(&s.0)) {
        for (k, d) in DIGITS.iter().enumerate().take(p.options.len()) {
            if keys.just_pressed(*d) {
                acts.write(MatchAct::Answer(k as u32));
            }
        }
        return;
    }
    if let Some((_, list)) = &view.reactions {
        for (k, d) in DIGITS.iter().enumerate() {
            if keys.just_pressed(*d) && k < list.len() {
                acts.write(MatchAct::React(k));
            }
        }
        if keys.just_pressed(KeyCode::KeyN) {
            acts.write(MatchAct::Decline);
        }
        return;
    }
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    for (k, d) in DIGITS.iter().enumerate() {
        if keys.just_pressed(*d) {
            if let Some(&i) = bar.slots.get(k + if shift { 10 } else { 0 }) {
                acts.write(MatchAct::Choose(i));
            }
        }
    }
    // Tab / Shift+Tab: the next or previous group of the bar that has entries.
    if keys.just_pressed(KeyCode::Tab) {
        let n = doo_rules::rules::preview::Group::ALL.len();
        let at = doo_rules::rules::preview::Group::ALL.iter().position(|g| *g == bar.open).unwrap_or(0);
        let has = |g: doo_rules::rules::preview::Group| view.choices.iter().any(|c| c.group == g && c.applies);
        let next = (1..=n).map(|d| if shift { (at + n * 2 - d) % n } else { (at + d) % n }).find(|&k| has(doo_rules::rules::preview::Group::ALL[k]));
        if !shift && bar.page + 1 < bar.pages {
            acts.write(MatchAct::BarGroup(at)); // the open group's next page
        } else if let Some(k) = next {
            acts.write(MatchAct::BarGroup(k));
        }
    }
}

/// Buttons and keys that are match decisions become intents (not while an overlay covers the board).
fn forward_acts(
    mut acts: MessageReader<MatchAct>,
    mut intents: MessageWriter<Intent>,
    mut overlay: ResMut<Overlay>,
    mut settings: ResMut<Settings>,
    mut prompt: ResMut<PromptState>,
    mut commands: Commands,
    mut view: ResMut<PlayerView>,
    seats: Res<Seats>,
    mut undo: MessageWriter<UndoLast>,
    saving: SaveParams,
) {
    for act in acts.read() {
        match act {
            MatchAct::MatchMenu => {
                if overlay.save_name.take().is_none() {
                    overlay.menu = !overlay.menu;
                    overlay.menu_note = None;
                }
            }
            MatchAct::SaveAs => {
                overlay.menu = true;
                overlay.save_name = Some(saving.default_name());
            }
            MatchAct::SaveNow => {
                let name = overlay.save_name.take().unwrap_or_default();
                overlay.menu_note = Some(saving.write(name.trim()));
            }
            MatchAct::Help => overlay.help = !overlay.help,
            MatchAct::HandoverReady => {
                prompt.last_player = overlay.handover.take();
                if prompt.last_player.is_none() {
                    prompt.last_player = seats.player_of(&view).cloned();
                }
            }
            MatchAct::SkipReset => overlay.reset = None,
            // The match just played, from its first command, in the replay viewer.
            MatchAct::WatchThis => commands.queue(session::watch_from_start),
            MatchAct::NeverAsk(id) => {
                settings.never_ask.insert(id.clone());
                intents.write(Intent::Decline);
            }
            _ if overlay.blocks_board().is_some() => {}
            MatchAct::Choose(i) => {
                intents.write(Intent::Choose(*i));
            }
            MatchAct::Pass => {
                intents.write(Intent::Pass);
            }
            MatchAct::React(i) => {
                intents.write(Intent::React(*i));
            }
            MatchAct::Decline => {
                intents.write(Intent::Decline);
            }
            MatchAct::Answer(k) => {
                intents.write(Intent::Answer(*k));
            }
            // Only the human who decides now takes back, and only their own (the rules check the rest).
            MatchAct::Undo => match &view.undo {
                Some(_) => {
                    undo.write(UndoLast);
                }
                None => {
                    view.feedback = Some(doo_rules::rules::Violation::new("UNDO-1", "Nothing of yours can be taken back now: it is not your opportunity."));
                    view.dirty = true;
                }
            },
            // The bar's groups and the rules reference answer these (action_bar.rs, reference.rs).
            MatchAct::BarGroup(_) | MatchAct::Rules(_) => {}
        }
    }
}
