//! The game window: the headless match plus a board view, a status panel and screenshots.
//! (Mouse play, the tilemap and the full UI arrive with the playable-game issue.)

use crate::level::RuleData;
use bevy::prelude::*;
use std::path::PathBuf;
use std::process::ExitCode;

pub mod board;
pub mod capture;
pub mod hud;
pub mod reload;

pub const DEFAULT_LEVEL: &str = "levels/tutorial.ron";
pub const WINDOW_TITLE: &str = "Dungeons of Olde";

/// Window options from the command line.
#[derive(Resource, Debug, Clone, Default)]
pub struct WindowOptions {
    pub screenshot: Option<PathBuf>,
    /// Frame at which the screenshot is taken (default 30).
    pub screenshot_frame: Option<u32>,
    pub exit_after_frames: Option<u32>,
    /// Every side played by the AI (watch a match).
    pub watch: bool,
}

/// Opens the window on `level` (default level when `None`).
pub fn run(level: Option<PathBuf>) -> ExitCode {
    run_with(level, WindowOptions::default())
}

pub fn run_with(level: Option<PathBuf>, opts: WindowOptions) -> ExitCode {
    let path = level.unwrap_or_else(|| PathBuf::from(DEFAULT_LEVEL));
    let data = match RuleData::load(std::path::Path::new(".")) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let root = crate::level_file::project_root(&path);
    let checked = match crate::level_file::load(&path, &data, &root) {
        Ok(c) => c,
        Err(errs) => {
            for e in errs {
                eprintln!("{}:{}:{}: {}", path.display(), e.line, e.col, e.message);
            }
            return ExitCode::from(2);
        }
    };
    // The same checks run again when the level asset loads; here they give the exit code.
    if let Err(errs) = checked.build(&data) {
        for e in errs {
            eprintln!("{}: {e}", path.display());
        }
        return ExitCode::from(2);
    }
    let lvl = &checked.level;
    let data = std::sync::Arc::new(data);
    let level_dir = path.canonicalize().ok().and_then(|p| p.parent().map(|d| d.to_path_buf())).unwrap_or_else(|| PathBuf::from("."));
    let mut app = App::new();
    // The level's folder is an asset source of its own, so levels need not live under assets/.
    app.register_asset_source(reload::LEVEL_SOURCE, bevy::asset::io::AssetSourceBuilder::platform_default(&level_dir.to_string_lossy(), None));
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin { primary_window: Some(Window { title: WINDOW_TITLE.into(), resolution: (1280, 720).into(), ..default() }), ..default() }),
    )
    .insert_resource(ClearColor(board::palette::BACKGROUND))
    .insert_resource(opts)
    .insert_resource(CurrentLevel { name: lvl.name.clone(), briefing: lvl.briefing.clone() })
    .add_plugins(crate::game::plugin)
    .insert_resource(reload::LevelWatch::new(path.clone(), root.clone(), data.clone()))
    .register_asset_loader(reload::LevelAssetLoader { data: data.clone(), root: root.clone() })
    .add_plugins((board::plugin, hud::plugin, capture::plugin, reload::plugin));
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(_) => ExitCode::from(1),
    }
}

#[derive(Resource, Debug, Clone)]
pub struct CurrentLevel {
    pub name: String,
    pub briefing: String,
}
