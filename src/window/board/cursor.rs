//! The pointer and the keyboard cursor on the board: the hovered space, clicks (a left click
//! that is not a drag; right click cancels), the arrows, Space and F, and PageUp / PageDown
//! between floors. What they point at becomes `Intent`s.

use super::{BoardCamera, BoardInput, BoardPart, DragState, FloorShown, HoveredSpace, KeyCursor, ShownFloor, TILE_PX, no_overlay, space_at, world_of};
use crate::game::MatchSystems;
use crate::game::components::{CharacterId, GridPos, MatchGeneration, MatchState};
use crate::game::intent::{Intent, PlayerView};
use crate::window::screens::Screen;
use crate::window::theme::interaction::PointerOverUi;
use bevy::prelude::*;
use doo_rules::rules::Pos;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (track_hover, move_key_cursor, click_board, switch_floor)
            .chain()
            .in_set(MatchSystems::Input)
            .in_set(BoardInput)
            .run_if(in_state(Screen::Match))
            .run_if(no_overlay),
    )
    .add_systems(Update, show_key_cursor.in_set(MatchSystems::Present).after(FloorShown));
}

fn switch_floor(keys: Res<ButtonInput<KeyCode>>, state: Option<Res<MatchState>>, mut shown: ResMut<ShownFloor>) {
    let floors = state.map_or(1, |s| s.board.floors.len().max(1)) as u8;
    if keys.just_pressed(KeyCode::PageUp) && shown.0 + 1 < floors {
        shown.0 += 1;
    }
    if keys.just_pressed(KeyCode::PageDown) && shown.0 > 0 {
        shown.0 -= 1;
    }
    if shown.0 >= floors {
        shown.0 = 0;
    }
}

#[allow(clippy::too_many_arguments)]
fn move_key_cursor(
    keys: Res<ButtonInput<KeyCode>>,
    view: Res<PlayerView>,
    state: Option<Res<MatchState>>,
    generation: Option<Res<MatchGeneration>>,
    chars: Query<(&CharacterId, &crate::game::components::Side, &GridPos)>,
    shown: Res<ShownFloor>,
    mut cursor: ResMut<KeyCursor>,
    mut hovered: ResMut<HoveredSpace>,
    mut out: MessageWriter<Intent>,
    mut last: Local<Option<String>>,
) {
    // A new figure to decide (or a new match) starts the cursor afresh on him.
    if *last != view.decider || generation.is_some_and(|g| g.is_changed()) {
        last.clone_from(&view.decider);
        if *cursor != KeyCursor::default() {
            *cursor = KeyCursor::default();
        }
    }
    let Some(state) = state else { return };
    let Some(decider) = view.decider.clone() else { return };
    if keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]) {
        return;
    }
    let me = chars.iter().find(|(c, _, _)| c.id == decider).map(|(_, s, p)| (s.0.clone(), p.0));
    let mut d = (0, 0);
    for (k, step) in [(KeyCode::ArrowLeft, (-1, 0)), (KeyCode::ArrowRight, (1, 0)), (KeyCode::ArrowUp, (0, -1)), (KeyCode::ArrowDown, (0, 1))] {
        if keys.just_pressed(k) {
            d = (d.0 + step.0, d.1 + step.1);
        }
    }
    let mut moved = false;
    if d != (0, 0) {
        let from = cursor.at.filter(|_| cursor.active).or(me.as_ref().map(|m| m.1)).unwrap_or(Pos::on(0, 0, shown.0));
        let f = state.board.floors.get(from.floor as usize);
        let (w, h) = f.map_or((1, 1), |f| (f.width as i32, f.height as i32));
        cursor.at = Some(Pos::on((from.x + d.0).clamp(0, w - 1), (from.y + d.1).clamp(0, h - 1), from.floor));
        moved = true;
    }
    if keys.just_pressed(KeyCode::KeyF) {
        // The next figure of the deciding side, in level order, after the one under the cursor.
        if let Some((side, _)) = &me {
            let mut mine: Vec<(usize, Pos)> =
                chars.iter().filter(|(c, s, _)| &s.0 == side && !state.is_dead(c.order)).map(|(c, _, p)| (c.order, p.0)).collect();
            mine.sort_by_key(|x| x.0);
            let now = cursor.at.filter(|_| cursor.active).and_then(|p| mine.iter().position(|m| m.1 == p));
            if let Some(next) = mine.get(now.map_or(0, |k| (k + 1) % mine.len().max(1))) {
                cursor.at = Some(next.1);
                moved = true;
            }
        }
    }
    if moved {
        cursor.active = true;
        if hovered.0 != cursor.at {
            hovered.0 = cursor.at;
        }
    }
    if cursor.active && keys.just_pressed(KeyCode::Space) {
        if let Some(p) = cursor.at {
            out.write(Intent::ClickSpace(p));
        }
    }
}

/// The keyboard cursor's frame.
#[derive(Component)]
struct CursorMark;

fn show_key_cursor(
    mut commands: Commands,
    cursor: Res<KeyCursor>,
    state: Option<Res<MatchState>>,
    mut mark: Query<(Entity, &mut Transform), With<CursorMark>>,
) {
    let Some(state) = state else { return };
    let at = cursor.at.filter(|_| cursor.active);
    match (at, mark.single_mut()) {
        (Some(p), Ok((_, mut t))) => {
            let want = world_of(p, &state.board) + Vec3::Z * 40.0;
            if t.translation != want {
                t.translation = want;
            }
        }
        (Some(p), Err(_)) => {
            commands
                .spawn((
                    Name::new("Keyboard cursor"),
                    CursorMark,
                    BoardPart,
                    Transform::from_translation(world_of(p, &state.board) + Vec3::Z * 40.0),
                    Visibility::default(),
                ))
                .with_children(|c| {
                    // Four gold corner bars.
                    for (x, y, w, h) in [(0.0, 0.47, 1.0, 0.06), (0.0, -0.47, 1.0, 0.06), (0.47, 0.0, 0.06, 1.0), (-0.47, 0.0, 0.06, 1.0)] {
                        c.spawn((
                            Sprite::from_color(Color::srgb(1.0, 0.85, 0.25), Vec2::new(w * TILE_PX, h * TILE_PX)),
                            Transform::from_xyz(x * TILE_PX, y * TILE_PX, 0.0),
                        ));
                    }
                });
        }
        (None, Ok((e, _))) => {
            commands.entity(e).despawn();
        }
        (None, Err(_)) => {}
    }
}

fn track_hover(
    windows: Query<&Window>,
    cams: Query<(&Camera, &GlobalTransform), With<BoardCamera>>,
    over_ui: Res<PointerOverUi>,
    state: Option<Res<MatchState>>,
    shown: Res<ShownFloor>,
    ui: Res<UiScale>,
    mut hovered: ResMut<HoveredSpace>,
    mut cursor: ResMut<KeyCursor>,
    mut last: Local<Option<Vec2>>,
) {
    // The keyboard cursor keeps the hover until the mouse moves.
    let pointer = windows.single().ok().and_then(|w| w.cursor_position());
    if cursor.active {
        if pointer == *last {
            return;
        }
        cursor.active = false;
    }
    *last = pointer;
    let space = (|| {
        if over_ui.0 {
            return None;
        }
        let board = &state.as_ref()?.board;
        let cursor = pointer?;
        let (cam, gt) = cams.single().ok()?;
        // The board is seen only in the board area (the panels cover the rest): a pointer
        // outside it is over a panel, never over a space hidden under one.
        if windows.single().is_ok_and(|w| !super::camera::board_area(w, ui.0).contains(cursor)) {
            return None;
        }
        let world = cam.viewport_to_world_2d(gt, cursor).ok()?;
        space_at(world, board, shown.0)
    })();
    if hovered.0 != space {
        hovered.0 = space;
    }
}

/// A left click (not a drag) on the board is a click on that space; right click cancels.
fn click_board(
    mouse: Res<ButtonInput<MouseButton>>,
    hovered: Res<HoveredSpace>,
    drag: Res<DragState>,
    over_ui: Res<PointerOverUi>,
    mut out: MessageWriter<Intent>,
) {
    if over_ui.0 {
        return;
    }
    if mouse.just_released(MouseButton::Left) && !drag.dragged {
        if let Some(p) = hovered.0 {
            out.write(Intent::ClickSpace(p));
        }
    }
    if mouse.just_pressed(MouseButton::Right) {
        out.write(Intent::Cancel);
    }
}
