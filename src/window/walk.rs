//! The UI walk (`doo play --ui-walk REPORT`, and the headless UI tests): presses every button a
//! player can reach and every key the game binds, screen by screen, through Bevy's own UI input —
//! real X events from xdotool in the window, the same cursor position and mouse button injected in
//! the headless app — and writes what it pressed, what it saw and what failed as JSON. A button
//! counts as pressed only when the game received its `Act`; a button under a panel that blocks the
//! pointer is not reachable and is not pressed (a player could not press it either).

use super::Display;
use super::screens::Screen;
use super::ui::{Act, Disabled};
use bevy::ecs::message::MessageCursor;
use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use bevy::ui::{ComputedNode, FocusPolicy, UiGlobalTransform, UiStack};
use bevy::window::PrimaryWindow;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, start_walk).add_systems(Last, walk_ui.run_if(resource_exists::<UiWalk>));
}

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
    /// Buttons pressed (the game received their `Act`): "panel|act" -> label.
    pub pressed: BTreeMap<String, String>,
    /// Buttons seen that could be pressed, and those shown disabled (never pressed).
    pub seen: BTreeMap<String, String>,
    pub disabled: BTreeMap<String, String>,
    /// Keys pressed: "state|key".
    pub keys: BTreeSet<String>,
    /// States reached: the screen and the panels on it.
    pub states: BTreeSet<String>,
    /// Settings pressed, and whether the settings file said so afterwards ("persisted").
    pub persisted: BTreeMap<String, bool>,
    /// Presses the game never received, and other faults.
    pub failures: Vec<String>,
    pub steps: u32,
    pub finished: bool,
    idle: u32,
    frame: u32,
    pending: Option<Pending>,
    release: Option<Release>,
    last_sig: u64,
    stable: u32,
    waited: u32,
    rng: u64,
    x_window: Option<String>,
    quitting: u32,
    acts: MessageCursor<Act>,
    /// Failed presses per button (one that fails three times is left).
    tries: BTreeMap<String, u32>,
    /// What the walk learnt: the buttons seen in each state, the state's key place, and where
    /// each button pressed there led (to find the way back to what is left to press).
    state_buttons: BTreeMap<String, BTreeSet<String>>,
    state_keys: BTreeMap<String, String>,
    edges: BTreeMap<String, BTreeMap<String, String>>,
    last_edge: Option<(String, String)>,
    state_at_press: String,
    /// Times the walk stood in a state with nothing left to press there now (work seen there
    /// once may not come back: a bar entry of one moment of the match).
    stale: BTreeMap<String, u32>,
    /// Steps spent moving between states.
    pub moves: u32,
    /// The button pressed just before each button was first seen (what opens it: a bar group
    /// for its entries), the last button pressed, and how often each opener was pressed again.
    opener: BTreeMap<String, String>,
    last_press: Option<String>,
    reopened: BTreeMap<String, u32>,
    /// A settings press to check in the file on this frame.
    persist_check: Option<(Act, u32)>,
    typed: MessageCursor<KeyboardInput>,
}

#[derive(Debug, Clone)]
enum Pending {
    Button { key: String, label: String, act: Act, frames: u32 },
    Key { key: String, code: KeyCode, frames: u32 },
}

#[derive(Debug, Clone, Copy)]
enum Release {
    Mouse,
    Key(KeyCode, bool),
}

impl UiWalk {
    pub fn new(report: Option<PathBuf>) -> Self {
        Self {
            report,
            quit_at_end: true,
            focus: std::env::var("DOO_WALK_FOCUS").map(|f| f.split(',').map(|p| p.trim().to_string()).filter(|p| !p.is_empty()).collect()).unwrap_or_default(),
            max_steps: 2500,
            max_idle: 80,
            pressed: BTreeMap::new(),
            seen: BTreeMap::new(),
            disabled: BTreeMap::new(),
            keys: BTreeSet::new(),
            states: BTreeSet::new(),
            persisted: BTreeMap::new(),
            failures: Vec::new(),
            steps: 0,
            finished: false,
            idle: 0,
            frame: 0,
            pending: None,
            release: None,
            last_sig: 0,
            stable: 0,
            waited: 0,
            rng: 0x9e37_79b9_7f4a_7c15,
            x_window: None,
            quitting: 0,
            acts: MessageCursor::default(),
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
        }
    }

    /// Buttons seen that were never pressed (their keys).
    pub fn unpressed(&self) -> Vec<String> {
        self.seen.keys().filter(|k| self.in_focus(k) && !self.pressed.contains_key(*k)).cloned().collect()
    }

    /// The report: counts, then every list.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "states": self.states.len(),
            "buttons_pressed": self.pressed.len(),
            "buttons_seen": self.seen.len(),
            "buttons_disabled": self.disabled.len(),
            "keys_pressed": self.keys.len(),
            "focus": self.focus,
            "steps": self.steps,
            "moves": self.moves,
            "failures": self.failures,
            "persisted": self.persisted,
            "unpressed": self.unpressed(),
            "pressed": self.pressed,
            "disabled": self.disabled,
            "state_list": self.states,
            "key_list": self.keys,
        })
    }

    /// A button key or key place that is the walk's work (every one without a focus).
    /// A focus entry "!Panel" leaves that panel out instead.
    fn in_focus(&self, key: &str) -> bool {
        let hit = |f: &str| key.starts_with(&format!("{f}|")) || key.contains(&format!("[{f}]"));
        if self.focus.iter().any(|f| f.strip_prefix('!').is_some_and(hit)) {
            return false;
        }
        let wanted: Vec<&String> = self.focus.iter().filter(|f| !f.starts_with('!')).collect();
        wanted.is_empty() || wanted.iter().any(|f| hit(f))
    }

    /// Something is left to do in `state`: a button seen there not pressed, or a key.
    fn has_work(&self, state: &str) -> bool {
        let buttons = self
            .state_buttons
            .get(state)
            .is_some_and(|b| b.iter().any(|k| self.in_focus(k) && !self.pressed.contains_key(k) && self.tries.get(k).is_none_or(|n| *n < 3)));
        let keys = self
            .state_keys
            .get(state)
            .is_some_and(|at| KEYS.iter().map(|(_, n)| *n).chain(CTRL_KEYS.iter().map(|(_, n)| *n)).any(|n| !self.keys.contains(&format!("{at}|{n}"))));
        (buttons || keys) && self.stale.get(state).is_none_or(|n| *n < 8)
    }

    /// The first button on the shortest known way from `state` to a state with work left.
    fn way_to_work(&self, state: &str) -> Option<String> {
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

    fn next_random(&mut self, n: usize) -> usize {
        // xorshift64: the same walk every run.
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng % n.max(1) as u64) as usize
    }
}

fn start_walk(mut commands: Commands, opts: Res<super::WindowOptions>, display: Res<Display>) {
    if let Some(report) = &opts.ui_walk {
        let mut walk = UiWalk::new(Some(report.clone()));
        if walk.focus.iter().any(|f| !f.starts_with('!')) {
            // One panel's work is done in far fewer steps; what is left then stays in the report.
            walk.max_steps = if *display == Display::Window { 250 } else { 1000 };
        }
        commands.insert_resource(walk);
    }
}

/// A button the pointer can reach now.
struct Target {
    key: String,
    label: String,
    act: Act,
    at: Vec2,
    enabled: bool,
    /// Its centre lies inside the window (a player can click it).
    inside: bool,
}

/// The root panel's name of `e` ("Settings", "Reaction prompt", "Action bar" …).
fn root_name(world: &World, mut e: Entity) -> String {
    while let Some(p) = world.get::<ChildOf>(e) {
        e = p.parent();
    }
    world.get::<Name>(e).map_or_else(|| "?".to_string(), |n| n.as_str().to_string())
}

/// The first text under `e` (a button's label).
fn label_of(world: &World, e: Entity) -> String {
    if let Some(t) = world.get::<Text>(e) {
        return t.0.clone();
    }
    if let Some(children) = world.get::<Children>(e) {
        for c in children.iter() {
            let l = label_of(world, c);
            if !l.is_empty() {
                return l;
            }
        }
    }
    String::new()
}

/// Where keys are pressed: the screen and its topmost named panel (each key is pressed once
/// there, whatever else is open under it).
fn key_state(world: &World) -> String {
    let screen = world.get_resource::<State<Screen>>().map_or_else(|| "?".into(), |s| format!("{:?}", s.get()));
    let Some(stack) = world.get_resource::<UiStack>() else { return screen };
    let top = stack
        .uinodes
        .iter()
        .rev()
        .find(|&&e| world.get::<ChildOf>(e).is_none() && world.get::<Name>(e).is_some() && world.get::<InheritedVisibility>(e).is_some_and(|v| v.get()))
        .and_then(|&e| world.get::<Name>(e).map(|n| n.as_str().to_string()));
    format!("{screen}[{}]", top.unwrap_or_default())
}

/// Where a key counts as pressed: in the window (a frame takes tens of milliseconds under a
/// software renderer) once per screen; headless, once per screen and panel on top.
fn key_place(world: &World, display: Display) -> String {
    match display {
        Display::Window => key_state(world).split('[').next().unwrap_or_default().to_string(),
        Display::Headless => key_state(world),
    }
}

/// What the walk is looking at: the screen and the names of the root panels shown.
fn state_key(world: &World) -> String {
    let screen = world.get_resource::<State<Screen>>().map_or_else(|| "?".into(), |s| format!("{:?}", s.get()));
    let mut roots = BTreeSet::new();
    let Some(stack) = world.get_resource::<UiStack>() else { return screen };
    for &e in &stack.uinodes {
        if world.get::<ChildOf>(e).is_none() && world.get::<InheritedVisibility>(e).is_some_and(|v| v.get()) {
            if let Some(n) = world.get::<Name>(e) {
                roots.insert(n.as_str().to_string());
            }
        }
    }
    format!("{screen}[{}]", roots.into_iter().collect::<Vec<_>>().join(","))
}

/// The buttons the pointer reaches at their centre (as Bevy's UI input decides: the topmost node
/// under the pointer first, down to the first that blocks), in reading order.
fn targets(world: &mut World) -> Vec<Target> {
    let Some(stack) = world.get_resource::<UiStack>() else { return Vec::new() };
    let order: Vec<Entity> = stack.uinodes.iter().rev().copied().collect();
    let mut buttons: Vec<(Entity, Vec2)> = Vec::new();
    let mut q = world.query_filtered::<(Entity, &ComputedNode, &UiGlobalTransform, &InheritedVisibility), (With<Button>, With<Act>)>();
    for (e, n, t, v) in q.iter(world) {
        if v.get() && n.size().x > 0.0 && n.size().y > 0.0 {
            buttons.push((e, t.translation));
        }
    }
    let size = world.query_filtered::<&Window, With<PrimaryWindow>>().iter(world).next().map(|w| w.physical_size().as_vec2()).unwrap_or(Vec2::ZERO);
    let mut out = Vec::new();
    for (e, at) in buttons {
        let mut reachable = false;
        for &o in &order {
            let (Some(n), Some(t)) = (world.get::<ComputedNode>(o), world.get::<UiGlobalTransform>(o)) else { continue };
            if !world.get::<InheritedVisibility>(o).is_some_and(|v| v.get()) || !n.contains_point(*t, at) {
                continue;
            }
            if world.get::<Interaction>(o).is_none() {
                continue;
            }
            if o == e {
                reachable = true;
                break;
            }
            if world.get::<FocusPolicy>(o).is_some_and(|p| *p == FocusPolicy::Block) {
                break;
            }
        }
        if !reachable {
            continue;
        }
        let act = world.get::<Act>(e).cloned().expect("queried with Act");
        // The reference's entries are one list drawn by one piece of code: one of them stands
        // for all (there are hundreds).
        let label = label_of(world, e);
        let key = match &act {
            Act::Rules(Some(_)) => format!("{}|Rules(an entry)", root_name(world, e)),
            // A bar entry's index changes with the moment of the match: its name is what it is
            // ("[2] Drop (kneel) | 1 AP" -> "Drop (kneel)").
            Act::Choose(_) => {
                let name = label.split(" | ").next().unwrap_or_default();
                let name = name.split_once("] ").map_or(name, |(_, n)| n);
                format!("{}|Choose: {name}", root_name(world, e))
            }
            // "Never ask for X" is one button drawn for whoever defends: pressed for one, it is
            // pressed (which figure's prompt comes back is up to the dice and the walk's moves).
            Act::NeverAsk(_) => format!("{}|NeverAsk", root_name(world, e)),
            _ => format!("{}|{:?}", root_name(world, e), act),
        };
        let inside = at.x >= 0.0 && at.y >= 0.0 && at.x < size.x && at.y < size.y;
        out.push(Target { key, label, act, at, enabled: world.get::<Disabled>(e).is_none(), inside });
    }
    out.sort_by(|a, b| ((a.at.y / 8.0).round(), a.at.x).partial_cmp(&((b.at.y / 8.0).round(), b.at.x)).unwrap_or(std::cmp::Ordering::Equal));
    out
}

fn signature(state: &str, targets: &[Target]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    state.hash(&mut h);
    for t in targets {
        t.key.hash(&mut h);
        t.enabled.hash(&mut h);
        ((t.at.x / 4.0) as i32, (t.at.y / 4.0) as i32).hash(&mut h);
    }
    h.finish()
}

/// Frames a state must stay the same before the walk acts, and frames a press may take to arrive.
fn pace(display: Display) -> (u32, u32) {
    match display {
        Display::Headless => (2, 6),
        Display::Window => (4, 120),
    }
}

fn xdotool(args: &[&str]) -> bool {
    std::process::Command::new("xdotool").args(args).status().is_ok_and(|s| s.success())
}

/// The game window's X id (xdotool), found once.
fn x_window(walk: &mut UiWalk) -> Option<String> {
    if walk.x_window.is_none() {
        let out = std::process::Command::new("xdotool").args(["search", "--name", super::WINDOW_TITLE]).output().ok()?;
        walk.x_window = String::from_utf8_lossy(&out.stdout).lines().next().map(str::to_string);
        if let Some(w) = &walk.x_window {
            // No window manager under Xvfb: give the window the keyboard once.
            xdotool(&["windowfocus", "--sync", w]);
        }
    }
    walk.x_window.clone()
}

/// A left click at `at` (physical window pixels).
fn click(world: &mut World, display: Display, walk: &mut UiWalk, at: Vec2) -> bool {
    let Some((window, scale)) = world.query_filtered::<(Entity, &Window), With<PrimaryWindow>>().iter(world).next().map(|(e, w)| (e, w.scale_factor())) else {
        return false;
    };
    match display {
        Display::Window => {
            let Some(w) = x_window(walk) else { return false };
            let (x, y) = ((at.x / scale).round() as i32, (at.y / scale).round() as i32);
            xdotool(&["mousemove", "--window", &w, &x.to_string(), &y.to_string(), "click", "1"])
        }
        Display::Headless => {
            if let Some(mut win) = world.get_mut::<Window>(window) {
                win.set_physical_cursor_position(Some(at.as_dvec2()));
            }
            world.write_message(MouseButtonInput { button: MouseButton::Left, state: ButtonState::Pressed, window });
            walk.release = Some(Release::Mouse);
            true
        }
    }
}

fn key_message(window: Entity, code: KeyCode, state: ButtonState) -> KeyboardInput {
    let logical_key = match code {
        KeyCode::Enter => Key::Enter,
        KeyCode::Escape => Key::Escape,
        KeyCode::Tab => Key::Tab,
        KeyCode::Space => Key::Space,
        _ => Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified),
    };
    KeyboardInput { key_code: code, logical_key, state, text: None, repeat: false, window }
}

/// A key press (with Ctrl held when `ctrl`).
fn press_key(world: &mut World, display: Display, walk: &mut UiWalk, code: KeyCode, name: &str, ctrl: bool) -> bool {
    match display {
        Display::Window => {
            let Some(w) = x_window(walk) else { return false };
            xdotool(&["key", "--window", &w, name])
        }
        Display::Headless => {
            let Some(window) = world.query_filtered::<Entity, With<PrimaryWindow>>().iter(world).next() else { return false };
            if ctrl {
                world.write_message(key_message(window, KeyCode::ControlLeft, ButtonState::Pressed));
            }
            world.write_message(key_message(window, code, ButtonState::Pressed));
            walk.release = Some(Release::Key(code, ctrl));
            true
        }
    }
}

/// One frame of the walk: release what the last frame pressed (headless), wait for the game to
/// receive a press and for the screen to settle, then press the next button or key.
fn walk_ui(world: &mut World) {
    let display = *world.resource::<Display>();
    let mut walk = world.remove_resource::<UiWalk>().expect("run_if");
    walk.frame += 1;
    step(world, display, &mut walk);
    world.insert_resource(walk);
}

fn step(world: &mut World, display: Display, walk: &mut UiWalk) {
    if walk.finished {
        return;
    }
    // Headless: the button or key goes up the frame after it went down.
    if let Some(r) = walk.release.take() {
        let window = world.query_filtered::<Entity, With<PrimaryWindow>>().iter(world).next();
        if let Some(window) = window {
            match r {
                Release::Mouse => {
                    world.write_message(MouseButtonInput { button: MouseButton::Left, state: ButtonState::Released, window });
                }
                Release::Key(code, ctrl) => {
                    world.write_message(key_message(window, code, ButtonState::Released));
                    if ctrl {
                        world.write_message(key_message(window, KeyCode::ControlLeft, ButtonState::Released));
                    }
                }
            }
        }
    }
    if let Some((act, due)) = walk.persist_check.take() {
        if walk.frame < due {
            walk.persist_check = Some((act, due));
            return;
        }
        if let Some(ok) = persisted(&act) {
            walk.persisted.insert(format!("{act:?}"), ok);
        }
    }
    let (settle, arrive) = pace(display);
    // Did the game receive the press?
    let received: Vec<Act> = walk.acts.read(world.resource::<Messages<Act>>()).cloned().collect();
    let typed: Vec<KeyCode> = walk.typed.read(world.resource::<Messages<KeyboardInput>>()).filter(|k| k.state.is_pressed()).map(|k| k.key_code).collect();
    if walk.quitting > 0 {
        walk.quitting += 1;
        if walk.quitting > arrive + 30 {
            walk.failures.push("Quit was pressed but the game did not exit".into());
            finish(world, walk);
        }
        return;
    }
    match walk.pending.take() {
        Some(Pending::Button { key, label, act, frames }) => {
            if received.contains(&act) {
                walk.last_edge = Some((walk.state_at_press.clone(), key.clone()));
                walk.last_press = Some(key.clone());
                walk.pressed.insert(key, label);
                walk.idle = 0;
                if persisted(&act).is_some() {
                    walk.persist_check = Some((act, walk.frame + 3));
                    return;
                }
            } else if frames < arrive {
                walk.pending = Some(Pending::Button { key, label, act, frames: frames + 1 });
                return;
            } else {
                walk.failures.push(format!("clicked \"{label}\" ({key}) but the game did not receive it"));
                *walk.tries.entry(key).or_default() += 1;
            }
            walk.stable = 0;
        }
        Some(Pending::Key { key, code, frames }) => {
            if typed.contains(&code) {
                walk.keys.insert(key);
                walk.idle = 0;
            } else if frames < arrive {
                walk.pending = Some(Pending::Key { key, code, frames: frames + 1 });
                return;
            } else {
                walk.failures.push(format!("pressed the key {key} but the game did not receive it"));
            }
            walk.stable = 0;
        }
        None => {}
    }
    // Wait for the screen to settle (an AI turn may keep it moving: then act anyway).
    let state = state_key(world);
    let ts = targets(world);
    let sig = signature(&state, &ts);
    if sig == walk.last_sig {
        walk.stable += 1;
    } else {
        walk.last_sig = sig;
        walk.stable = 0;
    }
    walk.waited += 1;
    if walk.stable < settle && walk.waited < 240 {
        return;
    }
    walk.waited = 0;
    walk.states.insert(state.clone());
    for t in &ts {
        if !t.inside && t.enabled && !walk.pressed.contains_key(&t.key) {
            let f = format!("\"{}\" ({}) lies outside the window at ({:.0}, {:.0}) in {state}", t.label, t.key, t.at.x, t.at.y);
            if !walk.failures.contains(&f) {
                walk.failures.push(f);
            }
        }
        if t.enabled {
            if !walk.seen.contains_key(&t.key) {
                if let Some(o) = walk.last_press.clone() {
                    walk.opener.insert(t.key.clone(), o);
                }
            }
            walk.seen.insert(t.key.clone(), t.label.clone());
        } else if !walk.seen.contains_key(&t.key) {
            walk.disabled.insert(t.key.clone(), t.label.clone());
        }
    }
    walk.disabled.retain(|k, _| !walk.seen.contains_key(k));
    if let Some((from, key)) = walk.last_edge.take() {
        walk.edges.entry(from).or_default().insert(key, state.clone());
    }
    walk.state_buttons.entry(state.clone()).or_default().extend(ts.iter().filter(|t| t.enabled && t.inside && t.act != Act::Quit).map(|t| t.key.clone()));
    let place = key_place(world, display);
    if walk.in_focus(&key_state(world)) {
        walk.state_keys.insert(state.clone(), place);
    } else {
        walk.state_keys.remove(&state);
    }
    walk.state_at_press = state.clone();
    if walk.steps >= walk.max_steps || walk.idle >= walk.max_idle {
        end_walk(world, display, walk, &ts);
        return;
    }
    walk.steps += 1;
    walk.idle += 1;
    let pressable: Vec<&Target> = ts.iter().filter(|t| t.enabled && t.inside && t.act != Act::Quit).collect();
    // 0. `DOO_WALK_KEYS_FIRST`: keys before buttons (a prompt goes away with its first answer,
    //    by button or by key: this walk answers it by key).
    if std::env::var_os("DOO_WALK_KEYS_FIRST").is_some() && press_next_key(world, display, walk) {
        return;
    }
    // 1. A button not pressed yet. Settings are pressed from the last option of each row to the
    //    first, so the walk goes on with the defaults (1x, ask, no timeout) once each was pressed.
    let fresh = |t: &&&Target| walk.in_focus(&t.key) && !walk.pressed.contains_key(&t.key) && walk.tries.get(&t.key).is_none_or(|n| *n < 3);
    //    A bar entry of this moment goes first: the next move of the match may take it away.
    let next = match pressable.iter().rev().find(|t| t.key.starts_with("Settings|") && fresh(t)) {
        Some(t) => Some(t),
        None => pressable.iter().find(|t| t.key.contains("|Choose: ") && fresh(t)).or_else(|| pressable.iter().find(fresh)),
    };
    if let Some(t) = next {
        let (key, label, act, at) = (t.key.clone(), t.label.clone(), t.act.clone(), t.at);
        if click(world, display, walk, at) {
            walk.pending = Some(Pending::Button { key, label, act, frames: 0 });
        } else {
            walk.failures.push(format!("could not click \"{label}\" ({key})"));
        }
        return;
    }
    // 2. A key not pressed yet in this state.
    if press_next_key(world, display, walk) {
        return;
    }
    // 3. Everything here was pressed: move on through a button pressed before (seeded, so the
    //    same walk every run).
    if pressable.is_empty() {
        // Nothing to press here (a screen waiting on the AI): Escape, then the menu.
        if walk.idle % 8 == 0 {
            world.resource_mut::<NextState<Screen>>().set(Screen::Menu);
        } else {
            press_key(world, display, walk, KeyCode::Escape, "Escape", false);
        }
        return;
    }
    walk.moves += 1;
    *walk.stale.entry(state.clone()).or_default() += 1;
    // Nothing left anywhere the walk knows: done.
    // (With a focus, not before its panel has shown up: a handover or an AI move may come first.)
    let focus_seen = walk.focus.iter().all(|f| f.starts_with('!')) || walk.seen.keys().any(|k| walk.in_focus(k));
    if !walk.state_buttons.keys().any(|s| walk.has_work(s)) && (focus_seen || walk.steps > 400) {
        end_walk(world, display, walk, &ts);
        return;
    }
    // Settings lead nowhere (and would leave the walk at another UI scale).
    // One entry per key (a list of hundreds of entries is one choice, not hundreds).
    let mut keys_seen = BTreeSet::new();
    let pressable: Vec<&Target> = pressable.into_iter().filter(|t| !t.key.starts_with("Settings|")).filter(|t| keys_seen.insert(t.key.clone())).collect();
    if pressable.is_empty() {
        // Only settings here (the panel over a screen pressed through): close it.
        press_key(world, display, walk, KeyCode::Escape, "Escape", false);
        return;
    }
    // What opens a button not pressed yet, when it is here (a bar group for its entry).
    let reopen = walk
        .seen
        .keys()
        .filter(|k| walk.in_focus(k) && !walk.pressed.contains_key(*k) && walk.tries.get(*k).is_none_or(|n| *n < 3))
        .filter_map(|k| walk.opener.get(k))
        .find(|o| walk.reopened.get(*o).is_none_or(|n| *n < 4) && pressable.iter().any(|t| &t.key == *o))
        .cloned();
    if let Some(o) = &reopen {
        *walk.reopened.entry(o.clone()).or_default() += 1;
    }
    let k = match reopen.or_else(|| walk.way_to_work(&state)).and_then(|key| pressable.iter().position(|t| t.key == key)) {
        Some(k) => k,
        None => walk.next_random(pressable.len()),
    };
    let (key, label, act, at) = (pressable[k].key.clone(), pressable[k].label.clone(), pressable[k].act.clone(), pressable[k].at);
    if std::env::var_os("DOO_WALK_TRACE").is_some() {
        eprintln!("walk: move in {state} by {key}");
    }
    if click(world, display, walk, at) {
        walk.pending = Some(Pending::Button { key, label, act, frames: 0 });
    }
}

/// A settings button pressed: does the settings file now hold its value? (`None`: not a setting.)
/// Read a few frames after the press arrived (the game saves changed settings in `Update`).
fn persisted(act: &Act) -> Option<bool> {
    let s = super::settings::load();
    Some(match act {
        Act::UiScale(v) => s.ui_scale == *v,
        Act::Speed(v) => s.animation_speed == *v,
        Act::Volume(v) => s.volume == *v,
        Act::Prompts(v) => s.reaction_prompts == *v,
        Act::Timeout(v) => s.prompt_timeout_secs == *v,
        _ => return None,
    })
}

/// Presses the next key not pressed yet where the walk stands; false when none is left.
fn press_next_key(world: &mut World, display: Display, walk: &mut UiWalk) -> bool {
    let keys = KEYS.iter().map(|(c, n)| (*c, *n, false)).chain(CTRL_KEYS.iter().map(|(c, n)| (*c, *n, true)));
    // In the window (a frame takes tens of milliseconds under a software renderer) each key is
    // pressed once per screen; headless, once per screen and panel on top.
    let at = key_place(world, display);
    let keys: Vec<_> = if walk.in_focus(&key_state(world)) { keys.collect() } else { Vec::new() };
    for (code, name, ctrl) in keys {
        let key = format!("{at}|{name}");
        if walk.keys.contains(&key) {
            continue;
        }
        if press_key(world, display, walk, code, name, ctrl) {
            walk.pending = Some(Pending::Key { key, code, frames: 0 });
        } else {
            walk.failures.push(format!("could not press the key {name}"));
            walk.keys.insert(key);
        }
        return true;
    }
    false
}

/// The walk is over: press Quit where it is shown (else go to the menu first), write the report.
fn end_walk(world: &mut World, display: Display, walk: &mut UiWalk, ts: &[Target]) {
    if walk.quit_at_end {
        if let Some(q) = ts.iter().find(|t| t.act == Act::Quit && t.enabled) {
            walk.pressed.insert(q.key.clone(), q.label.clone());
            write_report(walk);
            if click(world, display, walk, q.at) {
                walk.quitting = 1;
                return;
            }
        } else if world.get_resource::<State<Screen>>().is_some_and(|s| *s.get() != Screen::Menu) && walk.steps < walk.max_steps + 20 {
            walk.steps += 1;
            world.resource_mut::<NextState<Screen>>().set(Screen::Menu);
            return;
        }
    }
    finish(world, walk);
}

fn write_report(walk: &UiWalk) {
    if let Some(p) = &walk.report {
        if let Err(e) = std::fs::write(p, walk.to_json().to_string()) {
            error!("ui walk: cannot write {}: {e}", p.display());
        }
    }
}

fn finish(world: &mut World, walk: &mut UiWalk) {
    walk.finished = true;
    write_report(walk);
    if walk.report.is_some() {
        world.write_message(AppExit::Success);
    }
}
