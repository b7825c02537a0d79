//! Keyboard routing over the buttons, in menus, screens and the match's overlays: the arrows (or
//! Tab off the board) move `KeyFocus` in reading order, Enter or Space presses the button it is
//! on. Not on the board (the arrows move the board cursor there), not in the rules reference
//! (they page), not while a name is typed (the keys are the name's).

use super::board::Overlay;
use super::screens::Screen;
use super::screens::campaign::CampaignRun;
use super::screens::editor::Editor;
use super::screens::setup::NameEditing;
use super::theme::interaction::{ActionName, Activate, Disabled, KeyFocus, PressSystems};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(PreUpdate, focus_keys.in_set(PressSystems::Keys));
}

#[allow(clippy::too_many_arguments)]
fn focus_keys(
    mut keys: ResMut<ButtonInput<KeyCode>>,
    screen: Res<State<Screen>>,
    overlay: Option<Res<Overlay>>,
    editing: Option<Res<NameEditing>>,
    run: Option<Res<CampaignRun>>,
    editor: Option<Res<Editor>>,
    buttons: Query<(Entity, &UiGlobalTransform, &ComputedNode, &InheritedVisibility, Has<Disabled>), (With<Button>, With<ActionName>)>,
    layers: Query<(Option<&GlobalZIndex>, Option<&ChildOf>)>,
    mut focus: ResMut<KeyFocus>,
    mut commands: Commands,
) {
    // On the board the arrows move the board cursor; in the rules reference they page; while a
    // name is typed the keys are the name's.
    let on_board = *screen.get() == Screen::Match && overlay.as_ref().is_none_or(|o| o.blocks_board().is_none());
    // In the level editor the keys are the editor's (`screens/editor/keys.rs`), but in its Open list.
    let on_board = on_board || (*screen.get() == Screen::Editor && editor.is_none_or(|e| !e.opening));
    let busy = overlay.as_ref().is_some_and(|o| o.rules.is_some() || o.save_name.is_some())
        || editing.is_some_and(|e| e.0.is_some())
        || run.is_some_and(|r| r.editing_name);
    if on_board || busy || screen.is_changed() {
        if focus.0.is_some() {
            focus.0 = None;
        }
        return;
    }
    let shown: Vec<(Entity, Vec2, i32)> = buttons
        .iter()
        .filter(|(_, _, n, v, off)| v.get() && !off && n.size().x > 0.0)
        .map(|(e, t, _, _, _)| (e, t.translation, layer_of(e, &layers)))
        .collect();
    // Only the buttons of the panel on top: a menu or overlay over the match (issue 43: Tab in
    // the match menu paged the action bar behind it) keeps the keys to itself.
    let top = shown.iter().map(|b| b.2).max().unwrap_or(0);
    let mut list: Vec<(Entity, Vec2)> = shown.into_iter().filter(|b| b.2 == top).map(|(e, t, _)| (e, t)).collect();
    list.sort_by(|a, b| ((a.1.y / 8.0).round(), a.1.x).partial_cmp(&((b.1.y / 8.0).round(), b.1.x)).unwrap_or(std::cmp::Ordering::Equal));
    if focus.0.is_some_and(|e| !list.iter().any(|(x, _)| *x == e)) {
        focus.0 = None;
    }
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    let next = keys.any_just_pressed([KeyCode::ArrowDown, KeyCode::ArrowRight]) || (keys.just_pressed(KeyCode::Tab) && !shift);
    let prev = keys.any_just_pressed([KeyCode::ArrowUp, KeyCode::ArrowLeft]) || (keys.just_pressed(KeyCode::Tab) && shift);
    if (next || prev) && !list.is_empty() {
        let at = focus.0.and_then(|e| list.iter().position(|(x, _)| *x == e));
        let k = match (at, next) {
            (None, true) => 0,
            (None, false) => list.len() - 1,
            (Some(k), true) => (k + 1) % list.len(),
            (Some(k), false) => (k + list.len() - 1) % list.len(),
        };
        focus.0 = Some(list[k].0);
    }
    if let Some(e) = focus.0 {
        if keys.any_just_pressed([KeyCode::Enter, KeyCode::Space]) && buttons.contains(e) {
            commands.trigger(Activate { entity: e });
            // The press is the button's alone: no later system reads it as its own key (issue 43:
            // one Enter ended Grub's opportunity and passed Yip's too, two commands of one press).
            keys.clear_just_pressed(KeyCode::Enter);
            keys.clear_just_pressed(KeyCode::Space);
        }
    }
}

/// The layer a button is drawn in: the `GlobalZIndex` of it or its nearest ancestor that has one.
fn layer_of(e: Entity, layers: &Query<(Option<&GlobalZIndex>, Option<&ChildOf>)>) -> i32 {
    let mut at = e;
    for _ in 0..64 {
        let Ok((z, parent)) = layers.get(at) else { break };
        if let Some(z) = z {
            return z.0;
        }
        let Some(p) = parent else { break };
        at = p.parent();
    }
    0
}
