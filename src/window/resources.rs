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

/// The seeds the screens draw for what a player starts (a delve's dungeon, a campaign's dice, a
/// generated level): the clock's, or with `--seed N` a fixed sequence from N, so a seeded run (the
/// UI walk, a bug report's steps) plays the same every time.
#[derive(Resource, Debug, Clone, Default)]
pub struct FreshSeeds {
    base: Option<u64>,
    drawn: u64,
}

impl FreshSeeds {
    pub fn new(base: Option<u64>) -> Self {
        Self { base, drawn: 0 }
    }

    /// The next seed, at most seven digits (players read them out to each other).
    pub fn draw(&mut self) -> u64 {
        self.drawn += 1;
        let x = match self.base {
            Some(b) => b.wrapping_add(self.drawn.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
            None => {
                let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos());
                t as u64 ^ (t >> 64) as u64
            }
        };
        // splitmix64's finaliser: neighbouring inputs give unrelated seeds.
        let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % 10_000_000
    }
}

#[cfg(test)]
mod tests {
    use super::FreshSeeds;

    /// A seeded run draws the same seeds each time (the UI walk's path, a bug report's delve);
    /// each draw differs from the last, and each is one players can read out (seven digits).
    #[test]
    fn a_seeded_run_draws_the_same_seeds_each_time() {
        let draws = |base| {
            let mut s = FreshSeeds::new(base);
            (0..8).map(|_| s.draw()).collect::<Vec<_>>()
        };
        let (a, b) = (draws(Some(1)), draws(Some(1)));
        assert_eq!(a, b);
        assert_ne!(a, draws(Some(2)));
        assert!(a.windows(2).all(|w| w[0] != w[1]), "{a:?}");
        assert!(a.iter().chain(&draws(None)).all(|&x| x < 10_000_000), "{a:?}");
    }
}
