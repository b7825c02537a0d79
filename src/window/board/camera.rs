//! The camera: one camera draws the board and then the UI over the whole window (a second
//! camera for the UI cost a software renderer a depth clear, empty passes and a full-window
//! copy a frame: issue 44's frame time). The board is fitted to the part of the window the
//! panels leave free (between the top bar, the action bar and the right panel, kept up to date
//! on window resize and UI scale): its centre sits at that area's centre, and a panel gets its
//! opaque backing while the board lies under it (`hud::back_panels_over_board`). The camera is
//! fitted to the level when a level is put on the board; pan by dragging or WASD; zoom with the
//! wheel or +/-; Home fits the whole floor in the board area again. It follows the action (a
//! figure walking or striking, the keyboard cursor) when that leaves the board area.

use super::{ActionFocus, BoardCamera, BoardInput, DragState, KeyCursor, TILE_PX, world_of};
use crate::game::components::{MatchGeneration, MatchState};
use crate::window::screens::Screen;
use crate::window::theme::interaction::PointerOverUi;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;

/// Panel sizes in logical pixels (the board area is what they leave): the right panel takes
/// 28 % of the window's logical width, between 200 and 360, so a large UI scale still leaves the
/// board and the action bar room (1280×720 at 2× is 640×360 logical pixels).
pub const TOP_BAR_PX: f32 = 48.0;
pub const BOTTOM_BAR_PX: f32 = 136.0;

/// The right panel's width for a window of `logical_width` UI pixels.
pub fn right_panel_px(logical_width: f32) -> f32 {
    (logical_width * 0.28).clamp(200.0, 360.0)
}
/// The widest view the fit gives (world units per screen pixel): 1 shows the 32-px art 1:1.
const MAX_FIT_SCALE: f32 = 1.0;
/// The widest view zooming out gives (world units per screen pixel).
const MAX_ZOOM_OUT: f32 = 4.0;
/// Pointer travel (px) after which a press is a drag, not a click.
const DRAG_PX: f32 = 6.0;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_camera)
        .init_resource::<FitRequest>()
        .add_systems(
            Update,
            // after the fog has chosen the viewing side (the view opens around its figures)
            fit_camera.after(super::FogDrawn).run_if(
                resource_exists::<MatchState>
                    .and_then(resource_changed::<MatchGeneration>.or_else(resource_changed::<FitRequest>).or_else(resource_changed::<UiScale>)),
            ),
        )
        .add_systems(Update, keep_board_centre.before(fit_camera).run_if(in_state(Screen::Match)))
        .add_systems(Update, follow_action.in_set(crate::game::MatchSystems::Present).run_if(in_state(Screen::Match)))
        .add_systems(Update, (drag_camera, key_camera).in_set(crate::game::MatchSystems::Input).before(BoardInput).run_if(in_state(Screen::Match)));
}

/// Changed when the view should be fitted to the level again (Home): then the whole floor is
/// fitted in the board area, however small its spaces come out (a level is first shown at no
/// less than one art pixel per screen pixel, around the first figure).
#[derive(Resource, Debug, Default)]
pub struct FitRequest {
    pub whole: bool,
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((
        Name::new("Board camera"),
        BoardCamera,
        Camera2d,
        // The UI is drawn by this camera too, after the board, over the whole window.
        bevy::ui::IsDefaultUiCamera,
        Camera {
            // The camera clears its whole picture to the background colour first, so the one
            // blit to the window copies it over whatever the window held: no clear of the window,
            // no blending read of it (under a software renderer two full-window passes).
            output_mode: bevy::camera::CameraOutputMode::Write {
                blend_state: Some(bevy::render::render_resource::BlendState::REPLACE),
                clear_color: ClearColorConfig::None,
            },
            ..default()
        },
        // Pixel art on axis-aligned quads: multisampling smooths no edge here, and under a
        // software renderer it multiplies the cost of every pixel drawn.
        Msaa::Off,
        // Square panels and text only: the rounded-edge smoothing costs every UI pixel a
        // smoothstep under a software renderer and shows nowhere.
        bevy::ui_render::UiAntiAlias::Off,
        Transform::from_xyz(0.0, 0.0, 100.0),
    ));
}

/// How far `area`'s centre lies from the window's (logical pixels, y down).
fn area_offset(window: &Window, area: Rect) -> Vec2 {
    area.center() - Vec2::new(window.width(), window.height()) / 2.0
}

/// The world point at the centre of `area` with the camera at `cam` (the inverse of `camera_at`).
pub fn area_centre(window: &Window, area: Rect, cam: Vec2, scale: f32) -> Vec2 {
    let off = area_offset(window, area);
    Vec2::new(cam.x + off.x * scale, cam.y - off.y * scale)
}

/// Where the camera sits (world units) for the world point `centre` to show at the centre of
/// `area` (logical window pixels) at `scale` world units a pixel: the camera's own centre is
/// the window's.
pub fn camera_at(window: &Window, area: Rect, centre: Vec2, scale: f32) -> Vec2 {
    let off = area_offset(window, area);
    Vec2::new(centre.x - off.x * scale, centre.y + off.y * scale)
}

/// The board area in logical window pixels: the window less the top bar, the action bar and
/// the right panel (their sizes follow the UI scale).
pub fn board_area(window: &Window, ui_scale: f32) -> Rect {
    let (ww, wh) = (window.width(), window.height());
    let right = right_panel_px(ww / ui_scale.max(0.1)) * ui_scale;
    let min = Vec2::new(0.0, (TOP_BAR_PX * ui_scale).min(wh));
    let max = Vec2::new((ww - right).max(1.0), (wh - BOTTOM_BAR_PX * ui_scale).max(min.y + 1.0));
    Rect { min, max }
}

fn fit_camera(
    state: Res<MatchState>,
    windows: Query<&Window>,
    ui: Res<UiScale>,
    generation: Res<MatchGeneration>,
    fog: Option<Res<super::Fog>>,
    mut request: ResMut<FitRequest>,
    screen: Option<Res<State<Screen>>>,
    mut cam: Query<&mut Transform, With<BoardCamera>>,
) {
    if generation.is_changed() {
        request.bypass_change_detection().whole = false; // a new match opens at the first fit
    }
    let window = windows.single().ok();
    let area = window.map_or(Vec2::new(920.0, 536.0), |w| board_area(w, ui.0).size());
    let (w, h) = state.board.floors.first().map_or((16.0, 10.0), |f| (f.width as f32, f.height as f32));
    let area = (area - Vec2::new(40.0, 30.0)).max(Vec2::splat(100.0));
    let fit = ((w * TILE_PX) / area.x).max((h * TILE_PX) / area.y);
    // A level too big to show whole at one art pixel per screen pixel is shown at that size
    // (spaces of 32 px: figures stay recognisable), around the first figure; the camera then
    // follows the action.
    let max = if request.whole { MAX_ZOOM_OUT } else { MAX_FIT_SCALE };
    let scale = fit.clamp(0.25, max);
    // around the viewing side's first figure (a delve's party can start far from the first
    // figure listed, a monster under the fog)
    let side = fog.as_ref().and_then(|f| f.side.clone());
    let first = state.fighters.iter().find(|f| side.as_ref().is_some_and(|s| &f.side == s)).or(state.fighters.first());
    let centre = if fit > max { first.map_or(Vec3::ZERO, |f| world_of(f.pos, &state.board)) } else { Vec3::ZERO };
    // The level's centre (world 0,0), or the first figure, sits at the board area's centre.
    // (Off the match screen, e.g. a UI scale changed in the menu: the window's centre; the
    // match fits again when it opens.)
    let in_match = screen.is_some_and(|s| *s.get() == Screen::Match);
    let at = window.filter(|_| in_match).map_or(centre.truncate(), |w| camera_at(w, board_area(w, ui.0), centre.truncate(), scale));
    for mut t in &mut cam {
        *t = Transform::from_xyz(at.x, at.y, 100.0).with_scale(Vec3::splat(scale));
    }
}

/// A window resized (or the UI scale changed) moves the board area's centre: the camera moves
/// with it, so what was in the middle of the board area stays there (the player's pan and zoom
/// are kept).
fn keep_board_centre(windows: Query<&Window>, ui: Res<UiScale>, mut last: Local<Option<Vec2>>, mut cam: Query<&mut Transform, With<BoardCamera>>) {
    let (Ok(w), Ok(mut t)) = (windows.single(), cam.single_mut()) else { return };
    let off = area_offset(w, board_area(w, ui.0));
    if let Some(before) = *last
        && before != off
    {
        let d = off - before;
        t.translation.x -= d.x * t.scale.x;
        t.translation.y += d.y * t.scale.y;
    }
    *last = Some(off);
}

/// A zoom from `old` to the camera's scale keeps the world point at the board area's centre
/// where it is (the camera's own centre is the window's, beside the board area's).
fn zoom_about_area(t: &mut Transform, old: f32, window: Option<&Window>, ui_scale: f32) {
    let Some(w) = window else { return };
    let off = area_offset(w, board_area(w, ui_scale));
    let d = old - t.scale.x;
    t.translation.x += off.x * d;
    t.translation.y -= off.y * d;
}

fn drag_camera(
    mouse: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    scroll: Res<AccumulatedMouseScroll>,
    windows: Query<&Window>,
    ui: Res<UiScale>,
    over_ui: Res<PointerOverUi>,
    mut drag: ResMut<DragState>,
    mut cam: Query<&mut Transform, With<BoardCamera>>,
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
        let old = t.scale.x;
        t.scale = (t.scale * k).clamp(Vec3::splat(0.25), Vec3::splat(MAX_ZOOM_OUT));
        zoom_about_area(&mut t, old, windows.single().ok(), ui.0);
    }
}

fn key_camera(
    keys: Res<ButtonInput<KeyCode>>,
    time: Res<Time>,
    windows: Query<&Window>,
    ui: Res<UiScale>,
    mut fit: ResMut<FitRequest>,
    mut cam: Query<&mut Transform, With<BoardCamera>>,
) {
    let Ok(mut t) = cam.single_mut() else { return };
    let mut d = Vec2::ZERO;
    if keys.any_pressed([KeyCode::KeyA]) {
        d.x -= 1.0;
    }
    if keys.any_pressed([KeyCode::KeyD]) {
        d.x += 1.0;
    }
    if keys.any_pressed([KeyCode::KeyW]) {
        d.y += 1.0;
    }
    if keys.any_pressed([KeyCode::KeyS]) {
        d.y -= 1.0;
    }
    if d != Vec2::ZERO {
        // Only a real pan writes the transform: an unchanged camera is not re-extracted and its
        // views (tilemap chunks, sprites) are not re-prepared every frame.
        let speed = 600.0 * time.delta_secs() * t.scale.x;
        t.translation += (d * speed).extend(0.0);
    }
    let old = t.scale.x;
    if keys.any_just_pressed([KeyCode::Equal, KeyCode::NumpadAdd]) {
        t.scale = (t.scale / 1.25).max(Vec3::splat(0.25));
    }
    if keys.any_just_pressed([KeyCode::Minus, KeyCode::NumpadSubtract]) {
        t.scale = (t.scale * 1.25).min(Vec3::splat(MAX_ZOOM_OUT));
    }
    if t.scale.x != old {
        zoom_about_area(&mut t, old, windows.single().ok(), ui.0);
    }
    if keys.just_pressed(KeyCode::Home) {
        fit.whole = true;
        fit.set_changed();
    }
}

/// Keeps the action in view: when the figure walking or striking, the keyboard cursor, or the
/// figure whose opportunity just opened is outside the board area (the window less the panels,
/// a space's margin in), the camera glides toward it (an exponential ease, quick but not a jump).
fn follow_action(
    focus: Res<ActionFocus>,
    cursor: Res<KeyCursor>,
    state: Option<Res<MatchState>>,
    windows: Query<&Window>,
    ui: Res<UiScale>,
    time: Res<Time>,
    view: Res<crate::game::intent::PlayerView>,
    mut decider: Local<(Option<String>, bool)>,
    mut cam: Query<(&Camera, &GlobalTransform, &mut Transform), With<BoardCamera>>,
) {
    // No match on the board (a save that did not open leaves the match screen this frame).
    let Some(state) = state else { return };
    // Issue 43: the figure whose opportunity opens is brought into view once (at 2x the board
    // area shows a part of a larger level, and the acting figure could be off it).
    if decider.0 != view.decider {
        *decider = (view.decider.clone(), view.decider.is_some());
    }
    let acting = decider.0.as_deref().filter(|_| decider.1).and_then(|id| state.index(id)).map(|i| world_of(state.fighters[i].pos, &state.board));
    let target = cursor.at.filter(|_| cursor.active).map(|p| world_of(p, &state.board)).or(focus.0).or(acting);
    let (Some(target), Ok(w), Ok((camera, at, mut t))) = (target, windows.single(), cam.single_mut()) else { return };
    let Ok(on_screen) = camera.world_to_viewport(at, target.with_z(0.0)) else { return };
    let margin = TILE_PX / t.scale.x.max(0.01) * 1.5;
    let b = board_area(w, ui.0);
    let area = Rect::new(b.min.x + margin, b.min.y + margin, b.max.x - margin, b.max.y - margin);
    if area.width() <= 0.0 || area.height() <= 0.0 {
        return;
    }
    let clamped = on_screen.clamp(area.min, area.max);
    let off = on_screen - clamped;
    if off.length_squared() < 1.0 {
        if focus.0.is_none() && !cursor.active {
            decider.1 = false; // in view: the player's own panning is left alone from now on
        }
        return;
    }
    let k = 1.0 - (-time.delta_secs() * 8.0).exp();
    t.translation.x += off.x * t.scale.x * k;
    t.translation.y -= off.y * t.scale.y * k;
}
