//! How the walk presses: real X events from xdotool in the window, the same cursor position,
//! mouse button and keys injected in the headless app (and let go the frame after).

use super::super::Display;
use super::state::{Release, UiWalk};
use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;

fn xdotool(args: &[&str]) -> bool {
    std::process::Command::new("xdotool").args(args).status().is_ok_and(|s| s.success())
}

/// The game window's X id (xdotool), found once.
fn x_window(walk: &mut UiWalk) -> Option<String> {
    if walk.x_window.is_none() {
        let out = std::process::Command::new("xdotool").args(["search", "--name", crate::window::WINDOW_TITLE]).output().ok()?;
        walk.x_window = String::from_utf8_lossy(&out.stdout).lines().next().map(str::to_string);
        if let Some(w) = &walk.x_window {
            // No window manager under Xvfb: give the window the keyboard once.
            xdotool(&["windowfocus", "--sync", w]);
        }
    }
    walk.x_window.clone()
}

/// A left click at `at` (physical window pixels).
pub(super) fn click(world: &mut World, display: Display, walk: &mut UiWalk, at: Vec2) -> bool {
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

pub(super) fn key_message(window: Entity, code: KeyCode, state: ButtonState) -> KeyboardInput {
    let logical_key = match code {
        KeyCode::Enter => Key::Enter,
        KeyCode::Escape => Key::Escape,
        KeyCode::Tab => Key::Tab,
        KeyCode::Space => Key::Space,
        _ => Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified),
    };
    KeyboardInput { key_code: code, logical_key, state, text: None, repeat: false, window }
}

/// The match's commands, when every side of it is played by hand at this computer (then every
/// command comes from a press).
fn commands_by_hand(world: &World) -> Option<usize> {
    let on_match = world.get_resource::<State<crate::window::screens::Screen>>().is_some_and(|s| *s.get() == crate::window::screens::Screen::Match);
    let ai = world.get_resource::<crate::game::ai::AiControl>().is_some_and(|a| !a.config.sides.is_empty() || !a.remote.is_empty());
    (on_match && !ai).then(|| world.get_resource::<crate::game::record::MatchRecord>().map(|r| r.commands.len())).flatten()
}

/// A key press (with Ctrl held when `ctrl`).
pub(super) fn press_key(world: &mut World, display: Display, walk: &mut UiWalk, code: KeyCode, name: &str, ctrl: bool) -> bool {
    if std::env::var_os("DOO_WALK_TRACE").is_some() {
        eprintln!("walk: step {} frame {} key {name}{}", walk.steps, walk.frame, if ctrl { " (ctrl)" } else { "" });
    }
    walk.commands_at_enter = (code == KeyCode::Enter && !ctrl).then(|| commands_by_hand(world)).flatten().map(|n| (n, super::sight::key_state(world)));
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

/// Headless: the button or key goes up the frame after it went down.
pub(super) fn release(world: &mut World, walk: &mut UiWalk) {
    let Some(r) = walk.release.take() else { return };
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
