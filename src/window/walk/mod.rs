//! The UI walk (`doo play --ui-walk REPORT`, and the headless UI tests): presses every button a
//! player can reach and every key the game binds, screen by screen, through Bevy's own UI input —
//! real X events from xdotool in the window, the same cursor position and mouse button injected in
//! the headless app — and writes what it pressed, what it saw and what failed as JSON. A button
//! counts as pressed only when the game received its action: every screen's action goes through
//! `theme::interaction::Pressed` as it is delivered. A button under a panel that blocks the
//! pointer is not reachable and is not pressed (a player could not press it either). What the
//! walk sees is `sight.rs`, how it presses `press.rs`, what it reports `report.rs`;
//! what it has done and learnt, `state.rs`.

use super::Display;
use super::screens::Screen;
use super::theme::interaction::Pressed;
use bevy::input::keyboard::KeyboardInput;
use bevy::prelude::*;
use press::{click, press_key};
use sight::{Target, key_place, key_state, pace, signature, state_key, targets};
use state::Pending;
pub use state::{CTRL_KEYS, KEYS, UiWalk};
use std::collections::BTreeSet;

mod press;
mod report;
mod sight;
mod state;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, start_walk).add_systems(Last, walk_ui.run_if(resource_exists::<UiWalk>));
}

fn start_walk(mut commands: Commands, opts: Res<super::WindowOptions>, display: Res<Display>) {
    if let Some(report) = &opts.ui_walk {
        let mut walk = UiWalk::new(Some(report.clone()));
        // A walk whose work is other panels leaves the level editor out (it has its own walk;
        // wandering through it would paint and save levels).
        // Nor does a walk without its own copy of the levels folder (`DOO_LEVELS_DIR`): the
        // editor's Save and New would write the shipped levels.
        let no_copy = std::env::var_os("DOO_LEVELS_DIR").is_none();
        if (no_copy || walk.focus.iter().any(|f| !f.starts_with('!'))) && !walk.focus.iter().any(|f| f == "Level editor") {
            walk.focus.extend(["!Level editor".to_string(), "!Open a level".to_string(), "!Unsaved edits".to_string()]);
        }
        if walk.focus.iter().any(|f| !f.starts_with('!')) {
            // One panel's work is done in far fewer steps; what is left then stays in the report.
            // Headless: a panel reached again only through a screen that changes under the
            // walk (the broken-save dialog, opened from Load screen slots that shift as the walk's
            // own saves are added) is found by the seeded wander of `move_on`, which used all of
            // 1000 steps already before issue 29's crawl-bar entries (more entries, another
            // wander), and took 2720 of 3000 once the level editor's button was on the menu
            // (issue 31). Since Play again starts a match that plays (issue 42: it soft-locked
            // before), a walk that presses it plays that match too, and the broken-save walk
            // took over 3000: 5000. The cap still ends a walk that would never end.
            // The real window's editor walk took 251 once the event form had its vars part
            // (issue 46, session 10: the form's scroll and Open were left unpressed): 400.
            walk.max_steps = if *display == Display::Window { 400 } else { 5000 };
        }
        commands.insert_resource(walk);
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
    press::release(world, walk);
    if let Some((act, due)) = walk.persist_check.take() {
        if walk.frame < due {
            walk.persist_check = Some((act, due));
            return;
        }
        if let Some(ok) = report::persisted(&act) {
            walk.persisted.insert(format!("{act:?}"), ok);
        }
    }
    let (settle, arrive) = pace(display);
    // Did the game receive the press? (Every button's action goes through `Pressed`.)
    let received: Vec<String> = walk.deliveries.read(world.resource::<Messages<Pressed>>()).map(|p| p.action.clone()).collect();
    let typed: Vec<KeyCode> = walk.typed.read(world.resource::<Messages<KeyboardInput>>()).filter(|k| k.state.is_pressed()).map(|k| k.key_code).collect();
    if walk.quitting > 0 {
        walk.quitting += 1;
        if walk.quitting > arrive + 30 {
            walk.failures.push("Quit was pressed but the game did not exit".into());
            report::finish(world, walk);
        }
        return;
    }
    if !settle_pending(walk, &received, &typed, arrive) {
        return;
    }
    if let Some(since) = walk.after_play_again {
        // A minute of game time (headless frames are 1/60 s) for the new match to get going.
        match play_again_faults(world) {
            None => {
                walk.play_again_checked += 1;
                walk.after_play_again = None;
            }
            Some(faults) if walk.frame > since + 3600 => {
                walk.failures.push(format!("after Play again: {}", faults.join("; ")));
                walk.after_play_again = None;
            }
            Some(_) => return,
        }
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
    observe(world, display, walk, &state, &ts);
    if walk.steps >= walk.max_steps || walk.idle >= walk.max_idle {
        end_walk(world, display, walk, &ts);
        return;
    }
    walk.steps += 1;
    walk.idle += 1;
    press_next(world, display, walk, &state, &ts);
}

/// The press on its way: received (recorded), still on its way (false: nothing more this
/// frame), or lost (a failure).
fn settle_pending(walk: &mut UiWalk, received: &[String], typed: &[KeyCode], arrive: u32) -> bool {
    match walk.pending.take() {
        Some(Pending::Button { key, label, action, setting, frames }) => {
            if received.contains(&action) {
                if action == "PlayAgain" {
                    walk.after_play_again = Some(walk.frame);
                }
                walk.last_edge = Some((walk.state_at_press.clone(), key.clone()));
                walk.last_press = Some(key.clone());
                if walk.pressed.insert(key, label).is_none() {
                    walk.last_new = walk.steps;
                }
                walk.idle = 0;
                if let Some(s) = setting.filter(|s| report::persisted(s).is_some()) {
                    walk.persist_check = Some((s, walk.frame + 3));
                    return false;
                }
            } else if frames < arrive {
                walk.pending = Some(Pending::Button { key, label, action, setting, frames: frames + 1 });
                return false;
            } else {
                walk.failures.push(format!("clicked \"{label}\" ({key}) but the game did not receive it"));
                *walk.tries.entry(key).or_default() += 1;
            }
            walk.stable = 0;
        }
        Some(Pending::Key { key, code, frames }) => {
            if typed.contains(&code) {
                if walk.keys.insert(key) {
                    walk.last_new = walk.steps;
                }
                walk.idle = 0;
            } else if frames < arrive {
                walk.pending = Some(Pending::Key { key, code, frames: frames + 1 });
                return false;
            } else {
                walk.failures.push(format!("pressed the key {key} but the game did not receive it"));
            }
            walk.stable = 0;
        }
        None => {}
    }
    true
}

/// Notes what is on screen now: the state, the buttons seen (and any outside the window), the
/// way here from the last press, the keys' place.
fn observe(world: &World, display: Display, walk: &mut UiWalk, state: &str, ts: &[Target]) {
    walk.states.insert(state.to_string());
    if (state.starts_with("Campaign[") || state.starts_with("Delve["))
        && let Some(stack) = world.get_resource::<bevy::ui::UiStack>()
    {
        let shown = stack.uinodes.iter().filter(|&&e| world.get::<InheritedVisibility>(e).is_some_and(|v| v.get()));
        walk.campaign_texts.extend(shown.filter_map(|&e| world.get::<Text>(e)).map(|t| t.0.clone()));
    }
    if state.starts_with("Menu[")
        && let Some(first) = ts.first()
    {
        walk.menu_first.insert(first.label.clone());
    }
    for t in ts {
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
        walk.edges.entry(from).or_default().insert(key, state.to_string());
    }
    walk.state_buttons.entry(state.to_string()).or_default().extend(ts.iter().filter(|t| t.enabled && t.inside && !t.quit).map(|t| t.key.clone()));
    let place = key_place(world, display);
    if walk.in_focus(&key_state(world)) {
        walk.state_keys.insert(state.to_string(), place);
    } else {
        walk.state_keys.remove(state);
    }
    walk.state_at_press = state.to_string();
    // Issue 43: the keyboard focus is never on a button under the panel on top (Tab in the
    // match menu paged the action bar behind it).
    // Issue 43: one Enter issues one command at most (it once ended Grub's opportunity and
    // passed Yip's too in hot-seat).
    if let Some((before, place)) = walk.commands_at_enter.take() {
        let now = world.get_resource::<crate::game::record::MatchRecord>().map_or(0, |r| r.commands.len());
        if now > before + 1 {
            walk.failures.push(format!("one Enter in {place} issued {} commands", now - before));
        }
    }
    // Issue 43: a finished match (Continue, --resume) shows its log beside the result.
    let over = world.get_resource::<crate::window::board::Overlay>().is_some_and(|o| o.result.is_some());
    let mut logs = world.try_query_filtered::<&Text, With<crate::window::hud::log::LogText>>();
    if over && logs.as_mut().is_some_and(|q| q.iter(world).any(|t| t.0.trim().is_empty())) {
        let f = format!("the finished match's log is empty in {state}");
        if !walk.failures.contains(&f) {
            walk.failures.push(f);
        }
    }
    // (A focus on a button despawned this frame is let go by `focus.rs` on the next.)
    let focus = world.get_resource::<super::theme::interaction::KeyFocus>().and_then(|f| f.0);
    if let Some(e) = focus.filter(|&e| world.get::<Button>(e).is_some()) {
        let top = ts.iter().map(|t| sight::layer(world, t.entity)).max().unwrap_or(0);
        if sight::layer(world, e) < top {
            let (label, z) = (sight::label_of(world, e), sight::layer(world, e));
            let f = format!("the keyboard focus is on \"{label}\" (layer {z}), under the panel on top (layer {top}) in {state}");
            if !walk.failures.contains(&f) {
                walk.failures.push(f);
            }
        }
    }
}

/// After "Play again" (issue 42: it soft-locked every match on fbd0357): what is still wrong
/// with the new match, if anything. It is on the board with its figures drawn, nothing covers
/// it, and the side to act acts: a person at this computer is asked, or the AI has played.
fn play_again_faults(world: &mut World) -> Option<Vec<String>> {
    let mut faults = Vec::new();
    if world.get_resource::<State<Screen>>().is_none_or(|s| *s.get() != Screen::Match) {
        faults.push("not on the match screen".to_string());
    }
    let overlay = world.resource::<crate::window::board::Overlay>().clone();
    if let Some(r) = &overlay.result {
        faults.push(format!("the last match's result is still shown ({})", r.lines().next().unwrap_or("")));
    }
    if let Some(what) = overlay.blocks_board().filter(|w| *w != "handover") {
        faults.push(format!("the {what} overlay takes the board's input"));
    }
    let figures = world.query_filtered::<Entity, With<crate::game::components::CharacterId>>().iter(world).count();
    let drawn = world.query_filtered::<&Visibility, With<crate::window::board::Token>>().iter(world).filter(|v| **v != Visibility::Hidden).count();
    if figures == 0 || drawn == 0 {
        faults.push(format!("{figures} figures in the match, {drawn} drawn"));
    }
    let asked = world.get_resource::<crate::game::intent::PlayerView>().is_some_and(|v| v.decider.is_some());
    let played = world.get_resource::<crate::game::record::MatchRecord>().is_some_and(|r| !r.commands.is_empty());
    if !asked && !played {
        let held = world.get_resource::<crate::game::ai::AiHold>().is_some_and(|h| h.0);
        faults.push(format!("nobody acts: no person is asked and the AI has not played (held: {held})"));
    }
    (!faults.is_empty()).then_some(faults)
}

/// Clicks `t` and waits for the game to receive its action.
fn click_target(world: &mut World, display: Display, walk: &mut UiWalk, t: &Target) -> bool {
    let pending = Pending::Button { key: t.key.clone(), label: t.label.clone(), action: t.action.clone(), setting: t.setting, frames: 0 };
    if std::env::var_os("DOO_WALK_TRACE").is_some() {
        eprintln!("walk: step {} frame {} click {}", walk.steps, walk.frame, t.key);
    }
    if click(world, display, walk, t.at) {
        walk.pending = Some(pending);
        true
    } else {
        false
    }
}

/// The next press: a button not pressed yet, else a key not pressed yet here, else a move
/// toward work left elsewhere.
fn press_next(world: &mut World, display: Display, walk: &mut UiWalk, state: &str, ts: &[Target]) {
    let pressable: Vec<&Target> = ts.iter().filter(|t| t.enabled && t.inside && !t.quit).collect();
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
        if !click_target(world, display, walk, t) {
            walk.failures.push(format!("could not click \"{}\" ({})", t.label, t.key));
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
    move_on(world, display, walk, state, ts, pressable);
}

/// Everything here was pressed: ends the walk when nothing is left anywhere it knows, else
/// presses what opens a button not pressed yet, or the first step of the shortest way to work
/// left, or any button (seeded).
fn move_on(world: &mut World, display: Display, walk: &mut UiWalk, state: &str, ts: &[Target], pressable: Vec<&Target>) {
    walk.moves += 1;
    *walk.stale.entry(state.to_string()).or_default() += 1;
    // Nothing left anywhere the walk knows: done.
    // (With a focus, not before its panel has shown up: a handover or an AI move may come first.)
    let focus_seen = walk.focus.iter().all(|f| f.starts_with('!')) || walk.seen.keys().any(|k| walk.in_focus(k));
    if !walk.state_buttons.keys().any(|s| walk.has_work(s)) && (focus_seen || walk.steps > 400) {
        end_walk(world, display, walk, ts);
        return;
    }
    // Settings lead nowhere (and would leave the walk at another UI scale).
    // One entry per key (a list of hundreds of entries is one choice, not hundreds).
    let mut keys_seen = BTreeSet::new();
    let pressable: Vec<&Target> =
        pressable.into_iter().filter(|t| !t.key.starts_with("Settings|") && !walk.excluded(&t.key)).filter(|t| keys_seen.insert(t.key.clone())).collect();
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
    let way = reopen.or_else(|| walk.way_to_work(state));
    // A screen the focus leaves out ("!Panel") and no known way on: Escape leaves it, as a player would (the level editor asks Save / Discard / Cancel when it has unsaved edits).
    let here = key_state(world);
    let panels: Vec<&str> = here.split_once('[').map_or("", |(_, p)| p.trim_end_matches(']')).split(',').collect();
    let left_out = walk.focus.iter().filter_map(|f| f.strip_prefix('!')).any(|p| panels.contains(&p));
    if way.is_none() && left_out {
        press_key(world, display, walk, KeyCode::Escape, "Escape", false);
        return;
    }
    // Long in one place with no known way on (one key left here that leads nowhere, say a
    // panel's entries over the buttons at 2x), or a known way that has not led on for long (a
    // rules entry that once led out, pressed again and again: the 2x walk after issue 42, whose
    // hosted matches are hosted again from Continue): every fourth move is Escape, as a
    // player's would be.
    let stale = walk.stale.get(state).copied().unwrap_or(0);
    if (way.is_none() && stale > 12 || stale > 48) && stale % 4 == 0 {
        press_key(world, display, walk, KeyCode::Escape, "Escape", false);
        return;
    }
    let k = match way.and_then(|key| pressable.iter().position(|t| t.key == key)) {
        Some(k) => k,
        None => walk.next_random(pressable.len()),
    };
    if std::env::var_os("DOO_WALK_TRACE").is_some() {
        eprintln!("walk: move in {state} by {}", pressable[k].key);
    }
    click_target(world, display, walk, pressable[k]);
}

/// Presses the next key not pressed yet where the walk stands; false when none is left.
fn press_next_key(world: &mut World, display: Display, walk: &mut UiWalk) -> bool {
    if walk.no_keys {
        return false;
    }
    let in_editor = key_state(world).starts_with("Editor[");
    let (more, more_ctrl) = if in_editor { (state::EDITOR_KEYS, state::EDITOR_CTRL_KEYS) } else { (&[][..], &[][..]) };
    let keys = KEYS
        .iter()
        .map(|(c, n)| (*c, *n, false))
        .chain(CTRL_KEYS.iter().map(|(c, n)| (*c, *n, true)))
        .chain(more.iter().map(|(c, n)| (*c, *n, false)))
        .chain(more_ctrl.iter().map(|(c, n)| (*c, *n, true)));
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
        if let Some(q) = ts.iter().find(|t| t.quit && t.enabled) {
            walk.pressed.insert(q.key.clone(), q.label.clone());
            report::write_report(walk);
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
    report::finish(world, walk);
}
