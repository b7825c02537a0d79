//! Saves played on: a save replayed in plain Rust (`doo_rules::replay`, the one flow), then
//! handed to a world that goes on playing it — the window (Continue, the Load screen,
//! `doo play --resume`) or a headless app (`doo simulate --resume`, tests).

use crate::game::setup::restore_replay;
use crate::headless::HeadlessMatch;
use doo_rules::data::RuleData;
use doo_rules::level_file::CheckedLevel;
use doo_rules::replay::{Opened, Origin};
use doo_rules::save::Save;

/// Moves a save that replayed to its end into `world`, which goes on playing it from there. An
/// older version's save goes on as a save of this version (`doo_rules::replay::upgraded`): its
/// checkpoints from here on, its autosaves and a hosted match's checkpoints take this version's
/// state hash.
pub fn restore_into(world: &mut bevy::prelude::World, origin: Origin, opened: Opened, save: &Save) {
    let (origin, replay, save) = doo_rules::replay::upgraded(origin, opened.replay, save);
    restore_replay(world, std::sync::Arc::new(origin), replay, &save, false);
}

/// Replays a whole save and goes on with it in a headless app (`doo simulate --resume`,
/// tests). `Err` when the level cannot be built, the rules stop on a command, or the save's
/// checkpoints differ from the replay's.
pub fn resume_headless(data: &RuleData, save: &Save, level: &CheckedLevel) -> Result<HeadlessMatch, String> {
    let origin = Origin::of_save(data, save, level)?;
    let opened = doo_rules::replay::open(&origin, save)?;
    if let Some(problem) = opened.problem {
        return Err(problem);
    }
    let mut hm = HeadlessMatch::empty();
    restore_into(hm.app.world_mut(), origin, opened, save);
    hm.settle();
    Ok(hm)
}
