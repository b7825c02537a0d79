//! What the walk sees: the screen and the panels on it, and the buttons the pointer can reach
//! (as Bevy's UI input decides), each with its key in the report.

use super::super::Display;
use crate::window::hud::MatchAct;
use crate::window::screens::Screen;
use crate::window::screens::menu::MenuAct;
use crate::window::screens::settings::SettingsAct;
use crate::window::theme::interaction::{ActionName, Disabled};
use bevy::prelude::*;
use bevy::ui::{ComputedNode, FocusPolicy, UiGlobalTransform, UiStack};
use bevy::window::PrimaryWindow;
use std::collections::BTreeSet;

/// A button the pointer can reach now.
pub(super) struct Target {
    pub key: String,
    pub label: String,
    /// Its action's name (`ActionName`), as `Pressed` reports it when the game receives it.
    pub action: String,
    /// A settings option (checked in the settings file after the press).
    pub setting: Option<SettingsAct>,
    /// The menu's Quit (pressed last, to end the walk).
    pub quit: bool,
    pub at: Vec2,
    pub enabled: bool,
    /// Its centre lies inside the window (a player can click it).
    pub inside: bool,
    pub entity: Entity,
}

/// The layer `e` is drawn in: the `GlobalZIndex` of it or its nearest ancestor that has one.
pub(super) fn layer(world: &World, mut e: Entity) -> i32 {
    loop {
        if let Some(z) = world.get::<GlobalZIndex>(e) {
            return z.0;
        }
        let Some(p) = world.get::<ChildOf>(e) else { return 0 };
        e = p.parent();
    }
}

/// The root panel's name of `e` ("Settings", "Reaction prompt", "Action bar" …).
fn root_name(world: &World, mut e: Entity) -> String {
    while let Some(p) = world.get::<ChildOf>(e) {
        e = p.parent();
    }
    world.get::<Name>(e).map_or_else(|| "?".to_string(), |n| n.as_str().to_string())
}

/// The first text under `e` (a button's label).
pub(super) fn label_of(world: &World, e: Entity) -> String {
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
/// there, whatever else is open under it). Panels side by side at one stacking level (the
/// match's top bar, right panel and action bar) are one place, named by the last name: the UI
/// stack orders them as the ECS stores them, which any change to the game's entities reshuffles.
pub(super) fn key_state(world: &World) -> String {
    let screen = world.get_resource::<State<Screen>>().map_or_else(|| "?".into(), |s| format!("{:?}", s.get()));
    let Some(stack) = world.get_resource::<UiStack>() else { return screen };
    let level = |e: Entity| (world.get::<GlobalZIndex>(e).map_or(0, |z| z.0), world.get::<ZIndex>(e).map_or(0, |z| z.0));
    let top = stack
        .uinodes
        .iter()
        .filter(|&&e| world.get::<ChildOf>(e).is_none() && world.get::<InheritedVisibility>(e).is_some_and(|v| v.get()))
        .filter_map(|&e| world.get::<Name>(e).map(|n| (level(e), n.as_str().to_string())))
        .max()
        .map(|(_, name)| name);
    format!("{screen}[{}]", top.unwrap_or_default())
}

/// Where a key counts as pressed: in the window (a frame takes tens of milliseconds under a
/// software renderer) once per screen; headless, once per screen and panel on top.
pub(super) fn key_place(world: &World, display: Display) -> String {
    match display {
        Display::Window => key_state(world).split('[').next().unwrap_or_default().to_string(),
        Display::Headless => key_state(world),
    }
}

/// What the walk is looking at: the screen and the names of the root panels shown.
pub(super) fn state_key(world: &World) -> String {
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
pub(super) fn targets(world: &mut World) -> Vec<Target> {
    let Some(stack) = world.get_resource::<UiStack>() else { return Vec::new() };
    let order: Vec<Entity> = stack.uinodes.iter().rev().copied().collect();
    let mut buttons: Vec<(Entity, Vec2)> = Vec::new();
    let mut q = world.query_filtered::<(Entity, &ComputedNode, &UiGlobalTransform, &InheritedVisibility), (With<Button>, With<ActionName>)>();
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
        let action = world.get::<ActionName>(e).map(|a| a.0.clone()).unwrap_or_default();
        // The reference's entries are one list drawn by one piece of code: one of them stands
        // for all (there are hundreds).
        let label = label_of(world, e);
        let is_turn = matches!(world.get::<crate::window::screens::viewer::ReplayAct>(e), Some(crate::window::screens::viewer::ReplayAct::ToTurn(_)));
        let key = match world.get::<MatchAct>(e) {
            Some(MatchAct::Rules(Some(_))) => format!("{}|Rules(an entry)", root_name(world, e)),
            // The viewer's "Jump to turn" buttons are one list too, one per turn of the match
            // watched (a match of turn 2 is met by chance of the walk's path).
            _ if is_turn => format!("{}|ToTurn(a turn)", root_name(world, e)),
            // A bar entry's index changes with the moment of the match: its name is what it is
            // ("[2] Drop (kneel) | 1 AP" -> "Drop (kneel)").
            // A crawl's orders are one list a kind ("Hand Torch to Lunk", "Hand Rope to
            // Mira"…: items × neighbours, doors, chests): one of a kind stands for them all.
            Some(MatchAct::Choose(_)) if world.get::<crate::window::hud::OrderKind>(e).is_some() => {
                let kind = &world.get::<crate::window::hud::OrderKind>(e).expect("checked").0;
                format!("{}|Choose: {kind} (an order)", root_name(world, e))
            }
            Some(MatchAct::Choose(_)) => {
                let name = label.split(" | ").next().unwrap_or_default();
                let name = name.split_once("] ").map_or(name, |(_, n)| n);
                format!("{}|Choose: {name}", root_name(world, e))
            }
            // "Never ask for X" is one button drawn for whoever defends: pressed for one, it is
            // pressed (which figure's prompt comes back is up to the dice and the walk's moves).
            Some(MatchAct::NeverAsk(_)) => format!("{}|NeverAsk", root_name(world, e)),
            _ => format!("{}|{action}", root_name(world, e)),
        };
        let inside = at.x >= 0.0 && at.y >= 0.0 && at.x < size.x && at.y < size.y;
        let setting = world.get::<SettingsAct>(e).copied();
        let quit = world.get::<MenuAct>(e) == Some(&MenuAct::Quit);
        out.push(Target { key, label, action, setting, quit, at, enabled: world.get::<Disabled>(e).is_none(), inside, entity: e });
    }
    out.sort_by(|a, b| ((a.at.y / 8.0).round(), a.at.x).partial_cmp(&((b.at.y / 8.0).round(), b.at.x)).unwrap_or(std::cmp::Ordering::Equal));
    out
}

pub(super) fn signature(state: &str, targets: &[Target]) -> u64 {
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
pub(super) fn pace(display: Display) -> (u32, u32) {
    match display {
        Display::Headless => (2, 6),
        Display::Window => (4, 120),
    }
}
