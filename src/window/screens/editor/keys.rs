//! The editor from the keyboard: every key sends the `EditAct` its button sends. The digits
//! and `-` pick the map characters, letters the other brushes; the arrows move the cursor
//! (Shift grows a selection), Space or Enter paints; Ctrl+Z/Y undo and redo, Ctrl+C/V copy
//! and paste, Ctrl+S saves, Ctrl+N and Ctrl+O start or open a level, F5 play-tests, Esc goes
//! back; Ctrl+= and Ctrl+- zoom the map, Ctrl+0 fits it, Ctrl+arrows move the view; Home and
//! End turn the events panel's pages, F4 opens (or closes) the form of the first event listed;
//! Z turns the fill on and off, Ctrl+G groups the figures selected into one encounter, Ctrl+P
//! shows every field of the selected figure; Ctrl+R draws the selection's outline and Ctrl+L a
//! line to the cursor in the map character, Ctrl+M turns the mirror (Ctrl+Shift+M: mirrored
//! figures change sides), Ctrl+T turns the selection (Shift: the other way), Ctrl+H flips it
//! (Shift: top to bottom), Ctrl+F finds an id and Ctrl+E renames it, Ctrl+I shows what a figure at the cursor sees, Ctrl+K links stairs (one end, then the other). While the name or briefing is typed, the keys are the text's.

use super::state::{EditAct, Editor, EditorSystems, Field, Tool};
use crate::window::GameData;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<EarlyKeys>().add_systems(Update, (read_keys, type_text).chain().in_set(EditorSystems::Input));
}

/// The presses that came in the same frame as, and after, a key that opens a text field (N, B,
/// Ctrl+F, Ctrl+E): they are the field's first letters, typed once the field is open a frame
/// later, not edits of the map (a loaded machine gathers a typist's keys into one frame).
#[derive(Resource, Default)]
struct EarlyKeys(Vec<KeyboardInput>);

/// Whether `act` opens a text field.
fn opens_typing(act: &EditAct) -> bool {
    matches!(act, EditAct::Type(_) | EditAct::Find | EditAct::Rename | EditAct::KeepStamp)
}

/// The longest name and briefing the editor types (the level checks cap them too).
const MAX_NAME: usize = 80;
const MAX_BRIEFING: usize = 1200;

/// The map characters' keys, in `TILES` order.
pub const TILE_KEYS: [(KeyCode, &str); 11] = [
    (KeyCode::Digit1, "1"),
    (KeyCode::Digit2, "2"),
    (KeyCode::Digit3, "3"),
    (KeyCode::Digit4, "4"),
    (KeyCode::Digit5, "5"),
    (KeyCode::Digit6, "6"),
    (KeyCode::Digit7, "7"),
    (KeyCode::Digit8, "8"),
    (KeyCode::Digit9, "9"),
    (KeyCode::Digit0, "0"),
    (KeyCode::Minus, "-"),
];

/// The other brushes' keys.
pub const TOOL_KEYS: [(KeyCode, Tool, &str); 11] = [
    (KeyCode::KeyR, Tool::Room, "R"),
    (KeyCode::KeyH, Tool::Hero(0), "H"),
    (KeyCode::KeyM, Tool::Monster(0), "M"),
    (KeyCode::KeyC, Tool::Chest, "C"),
    (KeyCode::KeyT, Tool::Trap, "T"),
    (KeyCode::KeyX, Tool::Exit, "X"),
    (KeyCode::KeyK, Tool::Dark, "K"),
    (KeyCode::KeyI, Tool::Light, "I"),
    (KeyCode::KeyE, Tool::Erase, "E"),
    (KeyCode::KeyQ, Tool::Select, "Q"),
    (KeyCode::KeyF, Tool::Tile(0), "F"),
];

/// The feature inspector's buttons, in order (a space holds at most a door or chest, a trap
/// and a light: 10 buttons).
pub const FEATURE_KEYS: [(KeyCode, &str); 10] = [
    (KeyCode::KeyL, "L"),
    (KeyCode::KeyU, "U"),
    (KeyCode::KeyO, "O"),
    (KeyCode::KeyP, "P"),
    (KeyCode::KeyD, "D"),
    (KeyCode::F7, "F7"),
    (KeyCode::F8, "F8"),
    (KeyCode::F9, "F9"),
    (KeyCode::F10, "F10"),
    (KeyCode::F11, "F11"),
];

/// Keys with an action of their own (with Ctrl held, or not).
const PLAIN: [(KeyCode, EditAct); 29] = [
    (KeyCode::KeyZ, EditAct::Fill),
    (KeyCode::F4, EditAct::EventForm(u8::MAX)),
    (KeyCode::Home, EditAct::EventPage(-1)),
    (KeyCode::End, EditAct::EventPage(1)),
    (KeyCode::KeyW, EditAct::FigArrival),
    (KeyCode::KeyY, EditAct::EventAdd),
    (KeyCode::Space, EditAct::Apply),
    (KeyCode::Enter, EditAct::Apply),
    (KeyCode::NumpadEnter, EditAct::Apply),
    (KeyCode::Escape, EditAct::Back),
    (KeyCode::F5, EditAct::PlayTest),
    (KeyCode::F2, EditAct::Profile),
    (KeyCode::F3, EditAct::Mode),
    (KeyCode::F6, EditAct::AddFloor),
    (KeyCode::PageUp, EditAct::Floor(1)),
    (KeyCode::PageDown, EditAct::Floor(-1)),
    (KeyCode::Comma, EditAct::Width(-1)),
    (KeyCode::Period, EditAct::Width(1)),
    (KeyCode::Semicolon, EditAct::Height(-1)),
    (KeyCode::Quote, EditAct::Height(1)),
    (KeyCode::KeyN, EditAct::Type(Field::Name)),
    (KeyCode::KeyB, EditAct::Type(Field::Briefing)),
    (KeyCode::KeyG, EditAct::FigSide),
    (KeyCode::KeyV, EditAct::FigBehaviour),
    (KeyCode::KeyA, EditAct::FigStance),
    (KeyCode::KeyJ, EditAct::FigPosture),
    (KeyCode::BracketLeft, EditAct::FigHp(-1)),
    (KeyCode::BracketRight, EditAct::FigHp(1)),
    (KeyCode::Delete, EditAct::FigRemove),
];

const CTRL: [(KeyCode, EditAct); 22] = [
    (KeyCode::KeyK, EditAct::Stairs),
    (KeyCode::KeyI, EditAct::Sight),
    (KeyCode::KeyR, EditAct::Outline),
    (KeyCode::KeyL, EditAct::Line),
    (KeyCode::KeyM, EditAct::MirrorMode),
    (KeyCode::KeyT, EditAct::Turn(0)),
    (KeyCode::KeyH, EditAct::Turn(2)),
    (KeyCode::KeyF, EditAct::Find),
    (KeyCode::KeyE, EditAct::Rename),
    (KeyCode::KeyP, EditAct::FigureForm),
    (KeyCode::KeyG, EditAct::Group),
    (KeyCode::Minus, EditAct::Zoom(-1)),
    (KeyCode::Equal, EditAct::Zoom(1)),
    (KeyCode::NumpadAdd, EditAct::Zoom(1)),
    (KeyCode::Digit0, EditAct::Zoom(0)),
    (KeyCode::KeyZ, EditAct::Undo),
    (KeyCode::KeyY, EditAct::Redo),
    (KeyCode::KeyC, EditAct::Copy),
    (KeyCode::KeyV, EditAct::Paste),
    (KeyCode::KeyS, EditAct::Save),
    (KeyCode::KeyN, EditAct::New),
    (KeyCode::KeyO, EditAct::Open),
];

/// The keys, one press at a time in the order they came (a fast typist, or xdotool, can press
/// the same key twice in a frame, or Shift and an arrow and let go of both in one frame).
fn read_keys(
    mut input: MessageReader<KeyboardInput>,
    editor: Option<Res<Editor>>,
    mut mods: Local<(bool, bool)>,
    mut early: ResMut<EarlyKeys>,
    mut acts: MessageWriter<EditAct>,
) {
    let Some(ed) = editor else {
        input.clear();
        return;
    };
    let mut opened = false;
    for e in input.read() {
        let down = e.state.is_pressed();
        match e.key_code {
            KeyCode::ShiftLeft | KeyCode::ShiftRight => mods.0 = down,
            KeyCode::ControlLeft | KeyCode::ControlRight => mods.1 = down,
            _ => {}
        }
        if opened {
            early.0.push(e.clone());
            continue;
        }
        // While a text is typed the keys are its (`type_text`); Enter or Esc that ended it this
        // frame is not an edit either.
        if !down || ed.typing.is_some() {
            continue;
        }
        // A question on the screen takes the keys: S, D and Esc answer it (R recovers).
        if ed.asking.is_some() || ed.recovery.is_some() {
            if let Some(act) = answer_of(e.key_code, ed.recovery.is_some()) {
                acts.write(act);
            }
            continue;
        }
        if let Some(act) = act_of(e.key_code, mods.0, mods.1, ed.opening, e.repeat) {
            opened = opens_typing(&act);
            acts.write(act);
        }
    }
}

/// What a key answers to the question on the screen: unsaved edits (S saves, D discards, Esc
/// cancels) or a recovery copy (R recovers, D discards; Esc does not decide for the designer).
pub fn answer_of(k: KeyCode, recovery: bool) -> Option<EditAct> {
    use doo_rules::level_edit::leave::Answer;
    match (k, recovery) {
        (KeyCode::KeyR, true) => Some(EditAct::Recover(true)),
        (KeyCode::KeyD, true) => Some(EditAct::Recover(false)),
        (KeyCode::KeyS, false) => Some(EditAct::Answer(Answer::Save)),
        (KeyCode::KeyD, false) => Some(EditAct::Answer(Answer::Discard)),
        (KeyCode::Escape, false) => Some(EditAct::Answer(Answer::Cancel)),
        _ => None,
    }
}

/// What a key does in the editor (`None`: nothing).
pub fn act_of(k: KeyCode, shift: bool, ctrl: bool, opening: bool, repeat: bool) -> Option<EditAct> {
    // The Open list is worked with the arrows and Enter on its buttons (`focus.rs`); Esc closes it.
    if opening {
        return (k == KeyCode::Escape).then_some(EditAct::Back);
    }
    if ctrl {
        // Ctrl+arrows move the view over the map (a quarter of a screen of 512 pixels).
        for (key, dx, dy) in [(KeyCode::ArrowLeft, -128, 0), (KeyCode::ArrowRight, 128, 0), (KeyCode::ArrowUp, 0, -128), (KeyCode::ArrowDown, 0, 128)] {
            if k == key {
                return Some(EditAct::Pan(dx, dy));
            }
        }
        // With Shift: Ctrl+Shift+Z redoes, Ctrl+Shift+T turns anticlockwise, Ctrl+Shift+H flips
        // top to bottom, Ctrl+Shift+M sets whether mirrored figures change sides, Ctrl+Shift+C
        // keeps the selection as a stamp file and Ctrl+Shift+V takes the next one kept in hand.
        return CTRL.iter().find(|(key, _)| *key == k).map(|(_, act)| match (*act, shift) {
            (EditAct::Undo, true) => EditAct::Redo,
            (EditAct::Turn(t), true) => EditAct::Turn(t + 1),
            (EditAct::MirrorMode, true) => EditAct::MirrorSides,
            (EditAct::New, true) => EditAct::Generate,
            (EditAct::Copy, true) => EditAct::KeepStamp,
            (EditAct::Paste, true) => EditAct::NextStamp,
            (act, _) => act,
        });
    }
    for (key, dx, dy) in [(KeyCode::ArrowLeft, -1, 0), (KeyCode::ArrowRight, 1, 0), (KeyCode::ArrowUp, 0, -1), (KeyCode::ArrowDown, 0, 1)] {
        if k == key {
            return Some(EditAct::Move(dx, dy, shift));
        }
    }
    // Held keys repeat only for the cursor.
    if repeat {
        return None;
    }
    if let Some(i) = TILE_KEYS.iter().position(|(key, _)| *key == k) {
        return Some(EditAct::Tool(Tool::Tile(i as u8)));
    }
    if let Some((_, tool, _)) = TOOL_KEYS.iter().find(|(key, _, _)| *key == k) {
        return Some(EditAct::Tool(*tool));
    }
    if let Some(i) = FEATURE_KEYS.iter().position(|(key, _)| *key == k) {
        return Some(EditAct::Feature(i as u8));
    }
    PLAIN.iter().find(|(key, _)| *key == k).map(|(_, act)| *act)
}

/// Typing the level's name or briefing: Enter keeps it, Esc leaves it as it was.
fn type_text(
    mut keys: MessageReader<KeyboardInput>,
    mut early: ResMut<EarlyKeys>,
    mut held: ResMut<ButtonInput<KeyCode>>,
    editor: Option<ResMut<Editor>>,
    data: Res<GameData>,
    mut started: Local<bool>,
) {
    let Some(mut ed) = editor else {
        keys.clear();
        return;
    };
    let Some((field, mut buf)) = ed.typing.clone() else {
        *started = false;
        keys.clear();
        // Kept for a field opened this frame (`EditorSystems::Apply` opens it after this system).
        if !early.0.is_empty() && !early.is_changed() {
            early.0.clear();
        }
        return;
    };
    // The key that started the typing was read (and dropped) by this system in the frame the
    // typing began (the typing starts in `EditorSystems::Apply`, after this system), so what
    // comes in the first frame of typing is typed: a fast typist's (or a loaded machine's)
    // first letter, in the same frame as the frame after the opening key, is not lost. Only
    // Enter and Esc wait a frame, so a key that opened the field from elsewhere cannot also
    // close it.
    let first = !*started;
    *started = true;
    let cap = match field {
        Field::Name => MAX_NAME,
        Field::Briefing => MAX_BRIEFING,
        Field::Event(_) | Field::Action(..) => doo_rules::rules::story::MAX_TEXT,
        Field::EventId(_) => 64,
        Field::Figure(..) => doo_rules::rules::story::MAX_TEXT,
        Field::Find | Field::Rename | Field::StampName => 64,
        Field::ChoiceLabel(..) => 60,
        Field::Var(_) | Field::NewVar => doo_rules::rules::story::MAX_VAR_NAME,
    };
    let mut done = None;
    let early_keys = if early.0.is_empty() { Vec::new() } else { std::mem::take(&mut early.0) };
    for (e, late) in early_keys.iter().map(|e| (e, false)).chain(keys.read().map(|e| (e, true))) {
        if !e.state.is_pressed() {
            continue;
        }
        match &e.logical_key {
            Key::Enter | Key::Escape if first && late => {}
            Key::Enter => done = Some(true),
            Key::Escape => done = Some(false),
            Key::Backspace => {
                buf.pop();
            }
            Key::Character(c) if buf.chars().count() < cap && !c.chars().any(char::is_control) => buf.push_str(c),
            Key::Space if buf.chars().count() < cap => buf.push(' '),
            _ => {}
        }
    }
    match done {
        Some(keep) => {
            // Enter or Esc ended the typing: it does not paint or leave as well.
            held.clear_just_pressed(KeyCode::Enter);
            held.clear_just_pressed(KeyCode::Escape);
            held.clear_just_pressed(KeyCode::NumpadEnter);
            *started = false;
            ed.typing = Some((field, buf));
            if keep {
                ed.commit_typing(&data.0);
            } else {
                ed.typing = None;
            }
        }
        None => {
            if ed.typing.as_ref().is_some_and(|(_, b)| *b != buf) {
                ed.typing = Some((field, buf));
            }
        }
    }
}
