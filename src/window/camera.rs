//! The camera: fitted to the level (in the part of the window the panels leave free) when a
//! level is put on the board; pan by dragging, WASD or the arrows; zoom with the wheel or +/-;
//! Home fits again.

use super::ui::PointerOverUi;
use crate::game::components::{MatchGeneration, MatchState};
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;

/// Panel sizes in logical pixels at UI scale 1 (the board area is what they leave).
pub const RIGHT_PANEL_PX: f32 = 360.0;
pub const TOP_BAR_PX: f32 = 48.0;
pub const BOTTOM_BAR_PX: f32 = 184.0;
/// Pointer travel (px) after which a press is a drag, not a click.
const DRAG_PX: f32 = 6.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<DragState>()
        .add_systems(Startup, spawn_camera)
        .init_resource::<FitRequest>()
        .add_systems(
            Update,
            fit_camera.run_if(
                resource_exists::<MatchState>
                    .and_then(resource_changed::<MatchGeneration>.or_else(resource_changed::<FitRequest>).or_else(resource_changed::<UiScale>)),
            ),
        )
        .add_systems(
            Update,
            (drag_camera, key_camera).in_set(crate::game::MatchSystems::Input).before(super::board::BoardInput).run_if(in_state(super::screens::Screen::Match)),
        );
}

/// Changed when the view should be fitted to the level again (Home).
#[derive(Resource, Debug, Default)]
pub struct FitRequest;

/// A press that moved far enough is a drag (the board then ignores its release as a click).
#[derive(Resource, Debug, Default)]
pub struct DragState {
    pub from: Option<Vec2>,
    pub dragged: bool,
}

fn spawn_camera(mut commands: Commands) {
    // Pixel art on axis-aligned quads: multisampling smooths no edge here, and under a software
    // renderer it multiplies the cost of every pixel drawn.
    commands.spawn((Name::new("Camera"), Camera2d, Msaa::Off, Transform::from_xyz(0.0, 0.0, 100.0)));
}

/// The board area's centre relative to the window centre (screen px, y down) at this UI scale.
fn area_offset(ui_scale: f32) -> Vec2 {
    Vec2::new(-RIGHT_PANEL_PX * ui_scale / 2.0, (TOP_BAR_PX - BOTTOM_BAR_PX) * ui_scale / 2.0)
}

fn fit_camera(state: Res<MatchState>, windows: Query<&Window>, ui: Res<UiScale>, mut cam: Query<&mut Transform, With<Camera2d>>) {
    let (ww, wh) = windows.single().map_or((1280.0, 720.0), |w| (w.width(), w.height()));
    let (w, h) = state.board.floors.first().map_or((16.0, 10.0), |f| (f.width as f32, f.height as f32));
    let area = Vec2::new(ww - RIGHT_PANEL_PX * ui.0 - 40.0, wh - (TOP_BAR_PX + BOTTOM_BAR_PX) * ui.0 - 30.0).max(Vec2::splat(100.0));
    let scale = ((w * super::board::TILE_PX) / area.x).max((h * super::board::TILE_PX) / area.y).clamp(0.25, 4.0);
    let off = area_offset(ui.0);
    for mut t in &mut cam {
        // The level's centre (world 0,0) sits at the board area's centre.
        *t = Transform::from_xyz(-off.x * scale, off.y * scale, 100.0).with_scale(Vec3::splat(scale));
    }
}

fn drag_camera(
    mouse: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    windows: Query<&Window>,
    over_ui: Res<PointerOverUi>,
    mut drag: ResMut<DragState>,
    mut cam: Query<&mut Transform, With<Camera2d>>,
) {
    let Ok(mut t) = cam.single_mut() else { return };
    let cursor = windows.single().ok().and_then(|w| w.cursor_position());
    let any = [MouseButton::Left, MouseButton::Middle, MouseButton::Right];
    if mouse.any_just_pressed(any) && !over_ui.0 {
        drag.from = cursor;
        drag.dragged = false;
    }
    if let (Some(from), Some(now)) = (drag.from, cursor) {
        if mouse.any_pressed(any) {
            if from.distance(now) > DRAG_PX {
                drag.dragged = true;
            }
            if drag.dragged {
                let d = motion.delta;
                t.translation.x -= d.x * t.scale.x;
                t.translation.y += d.y * t.scale.y;
            }
        }
    }
    if mouse.any_just_released(any) {
        drag.from = None;
    } else if !mouse.any_pressed(any) {
        drag.dragged = false;
    }
    if !over_ui.0 && scroll.delta.y != 0.0 {
        let k = if scroll.delta.y > 0.0 { 1.0 / 1.15 } else { 1.15 };
        t.scale = (t.scale * k).clamp(Vec3::splat(0.25), Vec3::splat(4.0));
    }
}

fn key_camera(keys: Res<ButtonInput<KeyCode>>, time: Res<Time>, mut fit: ResMut<FitRequest>, mut cam: Query<&mut Transform, With<Camera2d>>) {
    let Ok(mut t) = cam.single_mut() else { return };
    let mut d = Vec2::ZERO;
    if keys.any_pressed([KeyCode::KeyA, KeyCode::ArrowLeft]) {
        d.x -= 1.0;
    }
    if keys.any_pressed([KeyCode::KeyD, KeyCode::ArrowRight]) {
        d.x += 1.0;
    }
    if keys.any_pressed([KeyCode::KeyW, KeyCode::ArrowUp]) {
        d.y += 1.0;
    }
    if keys.any_pressed([KeyCode::KeyS, KeyCode::ArrowDown]) {
        d.y -= 1.0;
    }
    if d != Vec2::ZERO {
        // Only a real pan writes the transform: an unchanged camera is not re-extracted and its
        // views (tilemap chunks, sprites) are not re-prepared every frame.
        let speed = 600.0 * time.delta_secs() * t.scale.x;
        t.translation += (d * speed).extend(0.0);
    }
    if keys.any_just_pressed([KeyCode::Equal, KeyCode::NumpadAdd]) {
        t.scale = (t.scale / 1.25).max(Vec3::splat(0.25));
    }
    if keys.any_just_pressed([KeyCode::Minus, KeyCode::NumpadSubtract]) {
        t.scale = (t.scale * 1.25).min(Vec3::splat(4.0));
    }
    if keys.just_pressed(KeyCode::Home) {
        fit.set_changed();
    }
}
