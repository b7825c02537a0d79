//! What the walk has done and learnt: the buttons seen, pressed and shown disabled, the keys
//! pressed, the states reached and the way between them, the press on its way.

use crate::window::screens::settings::SettingsAct;
use crate::window::theme::interaction::Pressed;
use bevy::ecs::message::MessageCursor;
use bevy::input::keyboard::KeyboardInput;
use bevy::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// Every key the game binds somewhere (menus, the board, overlays, the viewer, the reference),
/// with xdotool's name for it. The walk presses each once in every state it reaches.
pub const KEYS: &[(KeyCode, &str)] = &[
    (KeyCode::F1, "F1"),
    (KeyCode::KeyH, "h"),
    (KeyCode::F2, "F2"),
    (KeyCode::KeyR, "r"),
    (KeyCode::Enter, "Return"),
    (KeyCode::Space, "space"),
    (KeyCode::KeyN, "n"),
    (KeyCode::Tab, "Tab"),
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
    (KeyCode::ArrowUp, "Up"),
    (KeyCode::ArrowDown, "Down"),
    (KeyCode::ArrowLeft, "Left"),
    (KeyCode::ArrowRight, "Right"),
    (KeyCode::PageUp, "Prior"),
    (KeyCode::PageDown, "Next"),
    (KeyCode::Home, "Home"),
    (KeyCode::Equal, "equal"),
    (KeyCode::Minus, "minus"),
    (KeyCode::NumpadAdd, "KP_Add"),
    (KeyCode::NumpadSubtract, "KP_Subtract"),
    (KeyCode::KeyW, "w"),
    (KeyCode::KeyA, "a"),
    (KeyCode::KeyS, "s"),
    (KeyCode::KeyD, "d"),
    (KeyCode::KeyF, "f"),
    (KeyCode::KeyU, "u"),
    (KeyCode::KeyZ, "z"),
    (KeyCode::Comma, "comma"),
    (KeyCode::Period, "period"),
    (KeyCode::BracketLeft, "bracketleft"),
    (KeyCode::BracketRight, "bracketright"),
    (KeyCode::Escape, "Escape"),
];

/// Shortcuts with Ctrl held (undo, save as).
pub const CTRL_KEYS: &[(KeyCode, &str)] = &[(KeyCode::KeyZ, "ctrl+z"), (KeyCode::KeyS, "ctrl+s")];

/// The level editor's own keys (pressed only there: the other screens do not bind them).
pub const EDITOR_KEYS: &[(KeyCode, &str)] = &[
    (KeyCode::KeyC, "c"),
    (KeyCode::KeyT, "t"),
    (KeyCode::KeyX, "x"),
    (KeyCode::KeyK, "k"),
    (KeyCode::KeyI, "i"),
    (KeyCode::KeyE, "e"),
    (KeyCode::KeyQ, "q"),
    (KeyCode::KeyM, "m"),
    (KeyCode::KeyG, "g"),
    (KeyCode::KeyV, "v"),
    (KeyCode::KeyJ, "j"),
    (KeyCode::KeyB, "b"),
    (KeyCode::KeyY, "y"),
    (KeyCode::F3, "F3"),
    (KeyCode::F5, "F5"),
    (KeyCode::F6, "F6"),
    (KeyCode::Delete, "Delete"),
    (KeyCode::Semicolon, "semicolon"),
    (KeyCode::Quote, "apostrophe"),
    (KeyCode::Space, "space"),
    (KeyCode::KeyL, "l"),
    (KeyCode::KeyO, "o"),
    (KeyCode::KeyP, "p"),
    (KeyCode::F7, "F7"),
    (KeyCode::End, "End"),
    (KeyCode::F4, "F4"),
];

/// The level editor's Ctrl shortcuts beyond `CTRL_KEYS`.
pub const EDITOR_CTRL_KEYS: &[(KeyCode, &str)] = &[
    (KeyCode::KeyY, "ctrl+y"),
    (KeyCode::KeyC, "ctrl+c"),
    (KeyCode::KeyV, "ctrl+v"),
    (KeyCode::KeyN, "ctrl+n"),
    (KeyCode::KeyO, "ctrl+o"),
    (KeyCode::Equal, "ctrl+equal"),
    (KeyCode::Minus, "ctrl+minus"),
    (KeyCode::Digit0, "ctrl+0"),
    (KeyCode::ArrowRight, "ctrl+Right"),
];

/// A walk in progress.
#[derive(Resource, Debug)]
pub struct UiWalk {
    /// Where the report goes when the walk ends (none: the test reads the resource).
    pub report: Option<PathBuf>,
    /// Press Quit at the end (the app exits), as a player leaves.
    pub quit_at_end: bool,
    /// Only these panels' buttons and keys are the walk's work (`DOO_WALK_FOCUS`, comma-separated
    /// panel names; empty: everything). The walk still moves through any button to reach them.
    pub focus: Vec<String>,
    /// Steps (a press or a key) at most, and steps without anything new before the walk ends.
    pub max_steps: u32,
    pub max_idle: u32,
    /// Buttons pressed (the game received their action): "panel|action" -> label.
    pub pressed: BTreeMap<String, String>,
    /// Buttons seen that could be pressed, and those shown disabled (never pressed).
    pub seen: BTreeMap<String, String>,
    pub disabled: BTreeMap<String, String>,
    /// Keys pressed: "state|key".
    pub keys: BTreeSet<String>,
    /// States reached: the screen and the panels on it.
    pub states: BTreeSet<String>,
    /// Every text shown on the campaign's screens, and the main menu's first button at each
    /// visit (issue 43: the result's sentences, "Continue the campaign" first after a level).
    pub campaign_texts: BTreeSet<String>,
    pub menu_first: BTreeSet<String>,
    /// Settings pressed, and whether the settings file said so afterwards ("persisted").
    pub persisted: BTreeMap<String, bool>,
    /// Presses the game never received, and other faults.
    pub failures: Vec<String>,
    pub steps: u32,
    /// The step of the last press of something not pressed before (a button or a key): how
    /// much of a walk found work (the report says it beside `steps`).
    pub last_new: u32,
    /// `DOO_WALK_NO_KEYS`: a walk of one panel's buttons (a prompt that goes with its first
    /// answer: its keys are walked by a walk of their own) presses no key, and so ends when the
    /// buttons are done rather than wandering until its step cap.
    pub no_keys: bool,
    pub finished: bool,
    pub(super) idle: u32,
    pub(super) frame: u32,
    pub(super) pending: Option<Pending>,
    pub(super) release: Option<Release>,
    pub(super) last_sig: u64,
    pub(super) stable: u32,
    pub(super) waited: u32,
    pub(super) rng: u64,
    pub(super) x_window: Option<String>,
    pub(super) quitting: u32,
    /// The actions delivered (`Pressed`), read each frame.
    pub(super) deliveries: MessageCursor<Pressed>,
    /// Failed presses per button (one that fails three times is left).
    pub(super) tries: BTreeMap<String, u32>,
    /// What the walk learnt: the buttons seen in each state, the state's key place, and where
    /// each button pressed there led (to find the way back to what is left to press).
    pub(super) state_buttons: BTreeMap<String, BTreeSet<String>>,
    pub(super) state_keys: BTreeMap<String, String>,
    pub(super) edges: BTreeMap<String, BTreeMap<String, String>>,
    pub(super) last_edge: Option<(String, String)>,
    pub(super) state_at_press: String,
    /// Times the walk stood in a state with nothing left to press there now (work seen there
    /// once may not come back: a bar entry of one moment of the match).
    pub(super) stale: BTreeMap<String, u32>,
    /// Steps spent moving between states.
    pub moves: u32,
    /// The button pressed just before each button was first seen (what opens it: a bar group
    /// for its entries), the last button pressed, and how often each opener was pressed again.
    pub(super) opener: BTreeMap<String, String>,
    pub(super) last_press: Option<String>,
    pub(super) reopened: BTreeMap<String, u32>,
    /// A settings press to check in the file on this frame.
    pub(super) persist_check: Option<(SettingsAct, u32)>,
    pub(super) typed: MessageCursor<KeyboardInput>,
    /// "Play again" was received on this frame: until the new match is seen playable (or a
    /// time runs out: a failure) the walk presses nothing (issue 42). The checks passed.
    pub(super) after_play_again: Option<u32>,
    pub play_again_checked: u32,
    /// Enter was pressed in a match every side of which is played here by hand: the match's
    /// commands then, and where (one press issues one command at most: issue 43).
    pub(super) commands_at_enter: Option<(usize, String)>,
}

#[derive(Debug, Clone)]
pub(super) enum Pending {
    Button { key: String, label: String, action: String, setting: Option<SettingsAct>, frames: u32 },
    Key { key: String, code: KeyCode, frames: u32 },
}

#[derive(Debug, Clone, Copy)]
pub(super) enum Release {
    Mouse,
    Key(KeyCode, bool),
}

impl UiWalk {
    pub fn new(report: Option<PathBuf>) -> Self {
        Self {
            report,
            quit_at_end: true,
            focus: std::env::var("DOO_WALK_FOCUS").map(|f| f.split(',').map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect()).unwrap_or_default(),
            max_steps: 4000,
            max_idle: 80,
            pressed: BTreeMap::new(),
            seen: BTreeMap::new(),
            disabled: BTreeMap::new(),
            keys: BTreeSet::new(),
            states: BTreeSet::new(),
            campaign_texts: BTreeSet::new(),
            menu_first: BTreeSet::new(),
            persisted: BTreeMap::new(),
            failures: Vec::new(),
            steps: 0,
            last_new: 0,
            no_keys: std::env::var_os("DOO_WALK_NO_KEYS").is_some(),
            finished: false,
            idle: 0,
            frame: 0,
            pending: None,
            release: None,
            last_sig: 0,
            stable: 0,
            waited: 0,
            rng: 0x9e37_79b9_7f4a_7c15,
            after_play_again: None,
            play_again_checked: 0,
            x_window: None,
            quitting: 0,
            deliveries: MessageCursor::default(),
            tries: BTreeMap::new(),
            state_buttons: BTreeMap::new(),
            state_keys: BTreeMap::new(),
            edges: BTreeMap::new(),
            last_edge: None,
            state_at_press: String::new(),
            stale: BTreeMap::new(),
            moves: 0,
            opener: BTreeMap::new(),
            last_press: None,
            reopened: BTreeMap::new(),
            persist_check: None,
            typed: MessageCursor::default(),
            commands_at_enter: None,
        }
    }

    /// Buttons seen that were never pressed (their keys).
    pub fn unpressed(&self) -> Vec<String> {
        self.seen.keys().filter(|k| self.in_focus(k) && !self.pressed.contains_key(*k)).cloned().collect()
    }

    /// A button key or key place that is the walk's work (every one without a focus).
    /// A focus entry "!Panel" leaves that panel out instead.
    pub(super) fn in_focus(&self, key: &str) -> bool {
        let hit = |f: &str| key == f || key.starts_with(&format!("{f}|")) || key.contains(&format!("[{f}]"));
        if self.excluded(key) {
            return false;
        }
        let wanted: Vec<&String> = self.focus.iter().filter(|f| !f.starts_with('!')).collect();
        wanted.is_empty() || wanted.iter().any(|f| hit(f))
    }

    /// A button or key place a "!Panel" focus entry leaves out. The buttons that open the level
    /// editor (`Go(Editor)`) belong to it: a walk that leaves the editor out never enters it.
    pub(super) fn excluded(&self, key: &str) -> bool {
        let hit = |f: &str| key.starts_with(&format!("{f}|")) || key.contains(&format!("[{f}]")) || (f == "Level editor" && key.ends_with("|Go(Editor)"));
        self.focus.iter().any(|f| f.strip_prefix('!').is_some_and(hit))
    }

    /// Something is left to do in `state`: a button seen there not pressed, or a key.
    pub(super) fn has_work(&self, state: &str) -> bool {
        let buttons = self
            .state_buttons
            .get(state)
            .is_some_and(|b| b.iter().any(|k| self.in_focus(k) && !self.pressed.contains_key(k) && self.tries.get(k).is_none_or(|n| *n < 3)));
        let keys = !self.no_keys
            && self
                .state_keys
                .get(state)
                .is_some_and(|at| KEYS.iter().map(|(_, n)| *n).chain(CTRL_KEYS.iter().map(|(_, n)| *n)).any(|n| !self.keys.contains(&format!("{at}|{n}"))));
        (buttons || keys) && self.stale.get(state).is_none_or(|n| *n < 8)
    }

    /// The first button on the shortest known way from `state` to a state with work left.
    pub(super) fn way_to_work(&self, state: &str) -> Option<String> {
        let mut seen = BTreeSet::from([state.to_string()]);
        let mut queue = std::collections::VecDeque::new();
        for (key, to) in self.edges.get(state).into_iter().flatten() {
            if seen.insert(to.clone()) {
                queue.push_back((to.clone(), key.clone()));
            }
        }
        while let Some((at, first)) = queue.pop_front() {
            if self.has_work(&at) {
                return Some(first);
            }
            for to in self.edges.get(&at).into_iter().flat_map(|e| e.values()) {
                if seen.insert(to.clone()) {
                    queue.push_back((to.clone(), first.clone()));
                }
            }
        }
        None
    }

    pub(super) fn next_random(&mut self, n: usize) -> usize {
        // xorshift64: the same walk every run.
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng % n.max(1) as u64) as usize
    }
}
