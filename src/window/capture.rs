//! `--screenshot FILE`, `--frames N`, `--frame-stats FILE` and `--log FILE`: save what the window
//! shows, quit after a number of frames, write the frame times (for the README's speed table,
//! beside `examples/bare_tilemap.rs`), and append the match log (JSON lines) plus the board's
//! screen layout (where each space is in window pixels) for the end-to-end test and for tools.

use super::WindowOptions;
use crate::game::components::MatchState;
use crate::game::log::MatchLog;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<FrameCount>().init_resource::<FrameTimes>().add_systems(Update, capture_and_exit).add_systems(Last, write_log);
}

#[derive(Resource, Default)]
struct FrameCount(u32);

/// Frame times in ms, kept when `--frame-stats` is given.
#[derive(Resource, Default)]
struct FrameTimes(Vec<f64>);

/// Frames skipped before timing (startup, shader compilation, first uploads), as the baseline does.
const WARM_UP: usize = 60;

/// Frames rendered before the screenshot is taken (assets and layout settle first).
const SCREENSHOT_AFTER_FRAMES: u32 = 30;

fn capture_and_exit(
    mut commands: Commands,
    opts: Res<WindowOptions>,
    mut frames: ResMut<FrameCount>,
    mut times: ResMut<FrameTimes>,
    time: Res<Time<Real>>,
    mut exit: MessageWriter<AppExit>,
) {
    frames.0 += 1;
    if opts.frame_stats.is_some() {
        times.0.push(time.delta_secs_f64() * 1e3);
    }
    if let Some(path) = &opts.screenshot {
        let at = opts.screenshot_frame.unwrap_or(SCREENSHOT_AFTER_FRAMES);
        if frames.0 == at {
            commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path.clone()));
        }
        if frames.0 == at + 15 && opts.exit_after_frames.is_none() {
            exit.write(AppExit::Success);
        }
    }
    if opts.exit_after_frames.is_some_and(|n| frames.0 >= n) {
        if let Some(path) = &opts.frame_stats {
            let mut s = times.0[WARM_UP.min(times.0.len())..].to_vec();
            s.sort_by(f64::total_cmp);
            let at = |q: f64| s.get(((s.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(0.0);
            let json =
                serde_json::json!({"frames": s.len(), "median_ms": at(0.5), "p95_ms": at(0.95), "mean_ms": s.iter().sum::<f64>() / s.len().max(1) as f64});
            let _ = doo_rules::data::write_atomic(path, &json.to_string());
        }
        exit.write(AppExit::Success);
    }
}

/// Appends new log lines; writes a `layout` line whenever the camera or board changes: window
/// pixel of the centre of space (0,0) and pixels per space.
fn write_log(
    opts: Res<WindowOptions>,
    log: Option<Res<MatchLog>>,
    state: Option<Res<MatchState>>,
    view: Option<Res<crate::game::intent::PlayerView>>,
    cams: Query<(&Camera, &GlobalTransform, Ref<Transform>), With<crate::window::board::BoardCamera>>,
    mut written: Local<usize>,
    mut last_layout: Local<Option<(i32, i32, i32)>>,
    mut last_said: Local<(Option<String>, Option<String>)>,
) {
    let Some(path) = &opts.log else { return };
    use std::fmt::Write as _;
    let mut f = String::new();
    // What the player was told (a refusal with its rule id, or a notice such as "Taken back: …").
    if let Some(view) = view.filter(|v| v.is_changed()) {
        let said = (view.feedback.as_ref().map(|v| format!("{}: {}", v.rule, v.reason)), view.notice.clone());
        if said != *last_said {
            if let Some(t) = said.0.as_ref().filter(|t| last_said.0.as_ref() != Some(t)) {
                let _ = writeln!(f, "{}", serde_json::json!({"type": "refused", "text": t}));
            }
            if let Some(t) = said.1.as_ref().filter(|t| last_said.1.as_ref() != Some(t)) {
                let _ = writeln!(f, "{}", serde_json::json!({"type": "notice", "text": t}));
            }
            *last_said = said;
        }
    }
    if let Some(log) = &log {
        if log.len() < *written {
            // Undo (or a new match): the log goes on from its first `entries` entries.
            let _ = writeln!(f, "{}", serde_json::json!({"type": "rewound", "entries": log.len()}));
            *written = log.len();
        }
        for l in &log.lines()[*written..] {
            let _ = writeln!(f, "{l}");
        }
        *written = log.len();
    }
    if let (Some(state), Ok((cam, gt, _))) = (state, cams.single()) {
        let board = &state.board;
        let a = super::board::world_of(doo_rules::rules::Pos::new(0, 0), board);
        let b = super::board::world_of(doo_rules::rules::Pos::new(1, 0), board);
        if let (Ok(pa), Ok(pb)) = (cam.world_to_viewport(gt, a), cam.world_to_viewport(gt, b)) {
            let key = (pa.x.round() as i32, pa.y.round() as i32, (pb.x - pa.x).round() as i32);
            if *last_layout != Some(key) {
                *last_layout = Some(key);
                let _ = writeln!(f, "{}", serde_json::json!({"type": "layout", "origin": [pa.x, pa.y], "space_px": pb.x - pa.x}));
            }
        }
    }
    if !f.is_empty() {
        let _ = doo_rules::data::append_text(path, &f);
    }
}
