//! What every part of the window reads, and nothing else: the command line's options, where
//! the app draws, the rule data and the level being played (a leaf: it imports no other part
//! of the window, so the parts never import the app's root to reach them).

use bevy::prelude::*;
use doo_rules::data::RuleData;
use std::path::PathBuf;

pub const DEFAULT_LEVEL: &str = "levels/tutorial_1_moving.ron";
pub const WINDOW_TITLE: &str = "Dungeons of Olde";

/// Rule data for building matches.
#[derive(Resource, Clone)]
pub struct GameData(pub std::sync::Arc<RuleData>);

/// The level being played (for its goals, its sides and sprites, the result screen).
#[derive(Resource, Clone, Debug)]
pub struct PlayingLevel(pub doo_rules::level_file::CheckedLevel);

/// Window options from the command line.
#[derive(Resource, Debug, Clone, Default)]
pub struct WindowOptions {
    pub screenshot: Option<PathBuf>,
    /// Frame at which the screenshot is taken (default 30).
    pub screenshot_frame: Option<u32>,
    pub exit_after_frames: Option<u32>,
    /// Every side played by the AI (watch a match).
    pub watch: bool,
    /// Open on the main menu instead of the level.
    pub menu: bool,
    /// Dice and AI seed (default: the clock).
    pub seed: Option<u64>,
    /// Append the match log (JSON lines) and the board's screen layout to this file.
    pub log: Option<PathBuf>,
    /// Write the frame times (median, 95th percentile, mean) as JSON here when `--frames` ends.
    pub frame_stats: Option<PathBuf>,
    /// Go on with this save (its level replaces `level`).
    pub resume: Option<PathBuf>,
    /// Watch `resume` in the replay viewer instead of playing on (`doo replay --watch`).
    pub replay: bool,
    /// Open on this campaign's party screen (`doo play --campaign FILE`).
    pub campaign: Option<PathBuf>,
    /// Walk the UI (`doo play --ui-walk REPORT`): press every button and bound key that can be
    /// reached, write what was pressed to REPORT (JSON), then quit (window/walk/).
    pub ui_walk: Option<PathBuf>,
    /// No window and no renderer (`--headless`): every other plugin runs, frame after frame,
    /// until the app exits (the UI walk's headless runs).
    pub headless: bool,
    /// Open on the level editor (`doo edit [LEVEL]`), with this level (`None`: a new one).
    pub edit: bool,
    pub edit_path: Option<PathBuf>,
    /// Host the level over the network (`doo play LEVEL --host --name N`): the first side is
    /// this window's player's (named N), every other side a remote player's.
    pub host: Option<String>,
    /// Where a hosted match listens (`doo play --listen ADDR:PORT`; default every address, port
    /// 5000).
    pub listen: Option<std::net::SocketAddr>,
    /// Join the network match at this address as this player (`doo play --join ADDR --name N`).
    pub join: Option<(String, String)>,
}

/// Where the app draws: a real window, or nowhere (the UI tests: every plugin of the window
/// but the window system, the renderer and the tilemap's render stage, driven frame by frame).
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Display {
    Window,
    Headless,
}
