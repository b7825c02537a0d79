//! The level as a Bevy asset, and hot reload. `LevelAssetLoader` runs the same checks as
//! `doo validate` (`level_file::check`); the match starts when the asset is loaded. The level file
//! is watched while the game runs: a good edit restarts the match on the new level; a broken edit
//! keeps the old level playing and shows the errors on screen. Never a crash.

use super::CurrentLevel;
use crate::level::RuleData;
use crate::level_file::{CheckedLevel, LevelError};
use bevy::asset::io::Reader;
use bevy::asset::{AssetLoadFailedEvent, AssetLoader, LoadContext};
use bevy::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::SystemTime;

/// The asset source that holds the level being played (its folder).
pub const LEVEL_SOURCE: &str = "level";
/// Seconds between two AI commands in the window, so a person can follow them (Space skips).
pub const AI_PACE_SECS: f32 = 0.4;
/// How often the level file's modification time is looked at.
const WATCH_INTERVAL_SECS: f32 = 0.5;

pub(super) fn plugin(app: &mut App) {
    app.init_asset::<LevelAsset>()
        .add_systems(Startup, request_level)
        .add_systems(Update, (reload_changed_level, start_loaded_level, toggle_ai_pace).chain().in_set(crate::game::MatchSystems::Input));
}

/// A checked level, ready to play.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct LevelAsset {
    pub checked: CheckedLevel,
}

/// Reads level files through the same checks as the CLI.
#[derive(TypePath)]
pub struct LevelAssetLoader {
    pub data: Arc<RuleData>,
    pub root: PathBuf,
}

/// Every problem of a level file, one `line:col: message` per line.
#[derive(Debug)]
pub struct LevelLoadError(pub Vec<LevelError>);

impl std::fmt::Display for LevelLoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let lines: Vec<String> = self.0.iter().map(|e| format!("{}:{}: {}", e.line, e.col, e.message)).collect();
        f.write_str(&lines.join("\n"))
    }
}

impl std::error::Error for LevelLoadError {}

impl AssetLoader for LevelAssetLoader {
    type Asset = LevelAsset;
    type Settings = ();
    type Error = LevelLoadError;

    async fn load(&self, reader: &mut dyn Reader, _settings: &(), ctx: &mut LoadContext<'_>) -> Result<LevelAsset, LevelLoadError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await.map_err(|e| LevelLoadError(vec![LevelError { line: 1, col: 1, message: format!("cannot read: {e}") }]))?;
        let text = String::from_utf8_lossy(&bytes);
        let file = ctx.path().to_string();
        let checked = crate::level_file::check(&file, &text, &self.data, &self.root).map_err(LevelLoadError)?;
        checked.build(&self.data).map_err(|es| LevelLoadError(es.into_iter().map(|m| LevelError { line: 1, col: 1, message: m }).collect()))?;
        Ok(LevelAsset { checked })
    }

    fn extensions(&self) -> &[&str] {
        &["ron"]
    }
}

/// The level file being played: its asset, the last error of a reload, if any.
#[derive(Resource, Debug, Clone)]
pub struct LevelWatch {
    pub path: PathBuf,
    pub root: PathBuf,
    pub data: Arc<RuleData>,
    pub modified: Option<SystemTime>,
    pub since_check: f32,
    pub handle: Option<Handle<LevelAsset>>,
    pub started: bool,
    /// `file:line:col: message` lines of the last failed reload (shown on screen).
    pub error: Option<String>,
    pub reloads: u32,
}

impl LevelWatch {
    pub fn new(path: PathBuf, root: PathBuf, data: Arc<RuleData>) -> Self {
        let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        Self { path, root, data, modified, since_check: 0.0, handle: None, started: false, error: None, reloads: 0 }
    }

    /// The asset path of the level in its source.
    pub fn asset_path(&self) -> String {
        format!("{LEVEL_SOURCE}://{}", self.path.file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default())
    }
}

/// Space: watch the AI's moves at a readable pace, or skip through them.
fn toggle_ai_pace(keys: Res<ButtonInput<KeyCode>>, ai: Option<ResMut<crate::game::ai::AiControl>>) {
    if let Some(mut ai) = ai {
        if keys.just_pressed(KeyCode::Space) {
            ai.pace_secs = if ai.pace_secs > 0.0 { 0.0 } else { AI_PACE_SECS };
        }
    }
}

fn request_level(server: Res<AssetServer>, mut watch: ResMut<LevelWatch>) {
    watch.handle = Some(server.load(watch.asset_path()));
}

fn reload_changed_level(time: Res<Time>, server: Res<AssetServer>, mut watch: ResMut<LevelWatch>) {
    watch.since_check += time.delta_secs();
    if watch.since_check < WATCH_INTERVAL_SECS {
        return;
    }
    watch.since_check = 0.0;
    let Ok(modified) = std::fs::metadata(&watch.path).and_then(|m| m.modified()) else { return };
    if Some(modified) != watch.modified {
        watch.modified = Some(modified);
        server.reload(watch.asset_path());
    }
}

fn start_loaded_level(
    mut commands: Commands,
    mut loaded: MessageReader<AssetEvent<LevelAsset>>,
    mut failed: MessageReader<AssetLoadFailedEvent<LevelAsset>>,
    levels: Res<Assets<LevelAsset>>,
    opts: Res<super::WindowOptions>,
    mut watch: ResMut<LevelWatch>,
) {
    let Some(handle) = watch.handle.clone() else { return };
    for e in failed.read() {
        if e.id != handle.id() {
            continue;
        }
        // The old level keeps playing; say what is wrong, with positions.
        let lines: Vec<String> = match crate::level_file::load(&watch.path, &watch.data, &watch.root) {
            Err(errs) => errs.iter().map(|x| format!("{}:{}:{}: {}", watch.path.display(), x.line, x.col, x.message)).collect(),
            Ok(_) => vec![format!("{}: {}", watch.path.display(), e.error)],
        };
        for l in &lines {
            warn!("level edit not applied: {l}");
        }
        watch.error = Some(lines.join("\n"));
    }
    for e in loaded.read() {
        let (AssetEvent::LoadedWithDependencies { id } | AssetEvent::Modified { id }) = e else { continue };
        if *id != handle.id() {
            continue;
        }
        let Some(level) = levels.get(*id) else { continue };
        let Ok(m) = level.checked.build(&watch.data) else { continue };
        if watch.started {
            watch.reloads += 1;
            info!("reloaded {}", watch.path.display());
        }
        watch.started = true;
        watch.error = None;
        let seed_ai = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
        commands.insert_resource(crate::game::ai::AiControl {
            config: if opts.watch {
                crate::simulate::ai_for(&level.checked, crate::ai::Difficulty::Normal, &Default::default(), seed_ai)
            } else {
                crate::simulate::ai_for_ai_sides(&level.checked, crate::ai::Difficulty::Normal, seed_ai)
            },
            pace_secs: AI_PACE_SECS,
            waited: 0.0,
            plan: None,
        });
        commands.insert_resource(CurrentLevel { name: level.checked.level.name.clone(), briefing: level.checked.level.briefing.clone() });
        let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
        commands.queue(move |world: &mut World| crate::game::setup::start_match(world, m, crate::rules::Dice::seeded(seed), false));
    }
}
