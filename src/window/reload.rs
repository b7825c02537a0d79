//! The level as a Bevy asset, and hot reload. `LevelAssetLoader` runs the same checks as
//! `doo validate` (`level_file::check`); the match starts when the asset is loaded. The level file
//! is watched while the game runs: a good edit restarts the match on the new level; a broken edit
//! keeps the old level playing and shows the errors on screen. Never a crash.

use crate::window::session::{self, MatchBegun, MatchEnded, MatchSetup};
use bevy::asset::io::Reader;
use bevy::asset::{AssetLoadFailedEvent, AssetLoader, LoadContext};
use bevy::prelude::*;
use doo_rules::data::RuleData;
use doo_rules::level_file::{CheckedLevel, LevelError};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::SystemTime;

/// The asset source that holds the level being played (its folder).
pub const LEVEL_SOURCE: &str = "level";
/// How often the level file's modification time is looked at.
const WATCH_INTERVAL_SECS: f32 = 0.5;

pub(super) fn plugin(app: &mut App) {
    app.init_asset::<LevelAsset>()
        .add_observer(watch_level)
        .add_observer(unwatch_level)
        .add_systems(Update, (reload_changed_level, start_loaded_level).chain().in_set(crate::game::MatchSystems::Input).before(session::toggle_ai_pace));
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
        let fail = |message: String| LevelLoadError(vec![LevelError { line: 1, col: 1, message }]);
        // Read in chunks and stop past the cap: a level that grew to gigabytes never fills memory.
        let cap = doo_rules::data::MAX_FILE_BYTES as usize;
        let (mut bytes, mut chunk) = (Vec::new(), vec![0u8; 64 * 1024]);
        loop {
            let n = bevy::asset::AsyncReadExt::read(reader, &mut chunk).await.map_err(|e| fail(format!("cannot read: {e}")))?;
            if n == 0 {
                break;
            }
            bytes.extend_from_slice(&chunk[..n]);
            if bytes.len() > cap {
                return Err(fail(format!("the file is over {cap} bytes")));
            }
        }
        let text = String::from_utf8(bytes).map_err(|_| fail("the file is not UTF-8 text".into()))?;
        let file = ctx.path().to_string();
        let checked = doo_rules::level_file::check(&file, &text, &self.data, &self.root).map_err(LevelLoadError)?;
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
    /// The folder the `level` asset source reads (levels elsewhere are not watched).
    pub source_dir: PathBuf,
    /// The first load of a watched level is the match already started: not a reload.
    pub skip_first: bool,
}

impl LevelWatch {
    pub fn new(path: PathBuf, root: PathBuf, data: Arc<RuleData>) -> Self {
        let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        let source_dir = path.canonicalize().ok().and_then(|p| p.parent().map(|d| d.to_path_buf())).unwrap_or_default();
        Self { path, root, data, modified, since_check: 0.0, handle: None, started: false, error: None, reloads: 0, source_dir, skip_first: false }
    }

    /// The asset path of the level in its source.
    pub fn asset_path(&self) -> String {
        format!("{LEVEL_SOURCE}://{}", self.path.file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default())
    }
}

/// Watches the level of the match just started (when it lives in the watched folder).
fn watch_level(begun: On<MatchBegun>, server: Res<AssetServer>, watch: Option<ResMut<LevelWatch>>) {
    let path = begun.level.as_path();
    let dir = path.canonicalize().ok().and_then(|p| p.parent().map(|d| d.to_path_buf()));
    let Some(mut watch) = watch else { return };
    watch.error = None;
    if dir.as_ref() != Some(&watch.source_dir) {
        watch.handle = None;
        return;
    }
    if watch.path != path {
        watch.path = path.to_path_buf();
        watch.modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    }
    let handle: Handle<LevelAsset> = server.load(watch.asset_path());
    // Already loaded (the same level again): no load event will come.
    watch.skip_first = !server.is_loaded_with_dependencies(&handle);
    watch.handle = Some(handle);
    watch.started = true;
}

/// The match left the board: its level is no longer watched.
fn unwatch_level(_: On<MatchEnded>, watch: Option<ResMut<LevelWatch>>) {
    if let Some(mut w) = watch {
        w.handle = None;
    }
}

fn reload_changed_level(time: Res<Time>, server: Res<AssetServer>, mut watch: ResMut<LevelWatch>) {
    watch.since_check += time.delta_secs();
    if watch.since_check < WATCH_INTERVAL_SECS || watch.handle.is_none() {
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
    mut watch: ResMut<LevelWatch>,
    setup: Option<Res<MatchSetup>>,
) {
    let Some(handle) = watch.handle.clone() else {
        loaded.clear();
        failed.clear();
        return;
    };
    for e in failed.read() {
        if e.id != handle.id() {
            continue;
        }
        watch.skip_first = false;
        // The old level keeps playing; say what is wrong, with positions.
        let lines: Vec<String> = match doo_rules::level_file::load(&watch.path, &watch.data, &watch.root) {
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
        if std::mem::take(&mut watch.skip_first) {
            continue;
        }
        let Some(level) = levels.get(*id) else { continue };
        if level.checked.build(&watch.data).is_err() {
            continue;
        }
        watch.reloads += 1;
        watch.error = None;
        info!("reloaded {}", watch.path.display());
        // Same seats where the sides are the same; the level's own seating otherwise.
        let mut next = MatchSetup::new(watch.path.clone(), level.checked.clone());
        if let Some(old) = &setup {
            for s in &mut next.seats {
                if let Some(o) = old.seats.iter().find(|o| o.side == s.side) {
                    *s = o.clone();
                }
            }
        }
        commands.insert_resource(next);
        commands.queue(session::restart);
    }
}
