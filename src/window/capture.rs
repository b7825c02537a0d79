//! `--screenshot FILE` and `--frames N`: save what the window shows, then quit (used to look
//! at the game under Xvfb and by the window test).

use super::WindowOptions;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<FrameCount>().add_systems(Update, capture_and_exit);
}

#[derive(Resource, Default)]
struct FrameCount(u32);

/// Frames rendered before the screenshot is taken (assets and layout settle first).
const SCREENSHOT_AFTER_FRAMES: u32 = 30;

fn capture_and_exit(mut commands: Commands, opts: Res<WindowOptions>, mut frames: ResMut<FrameCount>, mut exit: MessageWriter<AppExit>) {
    frames.0 += 1;
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
        exit.write(AppExit::Success);
    }
}
