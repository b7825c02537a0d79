//! Hot reload: the level file is watched while the game runs. A good edit restarts the match on
//! the new level; a broken edit keeps the old level playing and shows the errors on screen.

use super::CurrentLevel;
use crate::level::RuleData;
use bevy::prelude::*;
use std::path::PathBuf;
use std::time::SystemTime;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, reload_changed_level.in_set(crate::game::MatchSystems::Input));
}

/// How often the level file's modification time is looked at.
const WATCH_INTERVAL_SECS: f32 = 0.5;

/// The level file being played, and the last error of a reload, if any.
#[derive(Resource, Debug, Clone)]
pub struct LevelWatch {
    pub path: PathBuf,
    pub root: PathBuf,
    pub modified: Option<SystemTime>,
    pub since_check: f32,
    /// `file:line:col: message` lines of the last failed reload (shown on screen).
    pub error: Option<String>,
    pub reloads: u32,
}

impl LevelWatch {
    pub fn new(path: PathBuf, root: PathBuf) -> Self {
        let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        Self { path, root, modified, since_check: 0.0, error: None, reloads: 0 }
    }
}

fn reload_changed_level(mut commands: Commands, time: Res<Time>, watch: Option<ResMut<LevelWatch>>) {
    let Some(mut watch) = watch else { return };
    watch.since_check += time.delta_secs();
    if watch.since_check < WATCH_INTERVAL_SECS {
        return;
    }
    watch.since_check = 0.0;
    let Ok(modified) = std::fs::metadata(&watch.path).and_then(|m| m.modified()) else { return };
    if Some(modified) == watch.modified {
        return;
    }
    watch.modified = Some(modified);
    let data = match RuleData::load(&watch.root) {
        Ok(d) => d,
        Err(e) => {
            watch.error = Some(e);
            return;
        }
    };
    let checked = crate::level_file::load(&watch.path, &data, &watch.root);
    match checked.map_err(|errs| errs.iter().map(|e| format!("{}:{}:{}: {}", watch.path.display(), e.line, e.col, e.message)).collect::<Vec<_>>()).and_then(|c| c.build(&data).map(|m| (c, m))) {
        Ok((c, m)) => {
            watch.error = None;
            watch.reloads += 1;
            info!("reloaded {}", watch.path.display());
            commands.insert_resource(CurrentLevel { name: c.level.name.clone(), briefing: c.level.briefing.clone() });
            let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
            commands.queue(move |world: &mut World| crate::game::setup::start_match(world, m, crate::rules::Dice::seeded(seed), false));
        }
        Err(lines) => {
            // Never a crash: the old level keeps playing.
            for l in &lines {
                warn!("level edit not applied: {l}");
            }
            watch.error = Some(lines.join("\n"));
        }
    }
}
