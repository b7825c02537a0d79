//! Saves played back: a save's commands replayed through the headless app (the exact systems
//! the window runs), its checkpoints compared (`doo replay --verify`), and the replayed match
//! handed to a window or a headless game that goes on playing it (resume, Continue).

use crate::data::RuleData;
use crate::game::record::{MatchRecord, Origin};
use crate::headless::HeadlessMatch;
use crate::level_file::CheckedLevel;
use crate::rules::Dice;
use bevy::prelude::*;
use doo_rules::save::Save;

/// Replays a save's commands on its level. The replay records its own checkpoints as it goes.
pub fn replay(data: &RuleData, save: &Save, level: &CheckedLevel) -> Result<HeadlessMatch, String> {
    let m = level.build(data).map_err(|e| e.join("; "))?;
    let mut dice = Dice::seeded(save.seed);
    dice.force(save.forced_dice.iter().copied());
    replay_from(&Origin { m, dice, mid_phase: false }, save)
}

/// Commands queued together when a save is replayed.
const REPLAY_BATCH: usize = 256;

/// Replays a save's commands from the match as it was built (`MatchRecord::origin`).
pub fn replay_from(origin: &Origin, save: &Save) -> Result<HeadlessMatch, String> {
    let mut hm = HeadlessMatch::recorded(origin.m.clone(), origin.dice.clone(), origin.mid_phase, Some(save.clone()));
    hm.app.world_mut().init_resource::<crate::game::intent::Unwatched>();
    // Queued in batches: one frame a command instead of two (a save at the command cap
    // verifies within a second).
    for (k, batch) in save.commands.chunks(REPLAY_BATCH).enumerate() {
        if !hm.submit_all(batch) {
            return Err(format!("commands {} to {} left the match unsettled (engine bug)", k * REPLAY_BATCH, k * REPLAY_BATCH + batch.len() - 1));
        }
    }
    // Watching again afterwards: whoever goes on playing sees previews.
    hm.app.world_mut().remove_resource::<crate::game::intent::Unwatched>();
    Ok(hm)
}

/// Compares the replay's checkpoints with the save's. `Err` names the first checkpoint that
/// differs, the command it follows, and the last one that matched.
pub fn verify(save: &Save, hm: &HeadlessMatch) -> Result<usize, String> {
    let got = &hm.app.world().resource::<MatchRecord>().checkpoints;
    let mut last_good = None;
    for (k, want) in save.checkpoints.iter().enumerate() {
        match got.get(k) {
            Some(g) if g == want => last_good = Some(want.commands),
            Some(g) => {
                let since = last_good.map_or("the start".to_string(), |c| format!("command {c}"));
                let first = if g.commands == want.commands { want.commands } else { g.commands.min(want.commands) };
                return Err(format!(
                    "checkpoint {k} differs: after {} commands (turn {}) the replay's state hash is {} where the save has {} (after {} commands, turn {}); the first command whose state differs is between {since} and command {first}",
                    g.commands, g.turn, g.hash, want.hash, want.commands, want.turn
                ));
            }
            None => {
                let since = last_good.map_or("the start".to_string(), |c| format!("command {c}"));
                return Err(format!(
                    "checkpoint {k} (after {} commands, turn {}) was never reached by the replay: the first command whose state differs is between {since} and command {}",
                    want.commands, want.turn, want.commands
                ));
            }
        }
    }
    Ok(save.checkpoints.len())
}

/// Moves a replayed match into `world`, which goes on playing it from where the save stopped,
/// with the AI's plan as it was. `same_board`: the match replaces itself (undo, the replay
/// viewer), so the board and the camera stay.
pub fn restore_into(world: &mut World, mut hm: HeadlessMatch, save: &Save, same_board: bool) {
    let w = hm.app.world_mut();
    let over = w.resource::<crate::game::flow::FlowStatus>().over;
    let restored = crate::game::setup::Restored {
        m: w.remove_resource::<crate::game::components::MatchState>().map(|s| s.0).expect("a replayed match has a state"),
        dice: w.remove_resource::<crate::game::components::MatchDice>().map(|d| d.0).expect("a replayed match has dice"),
        log: w
            .remove_resource::<crate::game::log::MatchLog>()
            .map(|mut l| {
                l.shown_from = l.len();
                l
            })
            .unwrap_or_default(),
        outcome: w.remove_resource::<crate::game::log::MatchOutcome>().unwrap_or_default(),
        over,
        next_index: w.resource::<crate::game::pipeline::CommandQueue>().next_index,
        record: w.remove_resource::<MatchRecord>().unwrap_or_default(),
        same_board,
    };
    crate::game::setup::restore_match(world, restored);
    if let (Some(p), Some(mut ai)) = (&save.ai_plan, world.get_resource_mut::<crate::game::ai::AiControl>()) {
        ai.plan = Some((p.actor, p.turn, p.round, p.commands.iter().cloned().collect()));
    }
}

/// Where saves live: `$DOO_SAVE_DIR`, else the platform's data folder
/// (`~/.local/share/dungeons-of-olde/saves` on Linux).
pub fn save_dir() -> std::path::PathBuf {
    if let Some(d) = std::env::var_os("DOO_SAVE_DIR") {
        return d.into();
    }
    directories::ProjectDirs::from("", "", "dungeons-of-olde").map_or_else(|| std::path::PathBuf::from("saves"), |p| p.data_dir().join("saves"))
}

/// The automatic save (Continue, `doo play --resume`).
pub fn autosave_path() -> std::path::PathBuf {
    save_dir().join("autosave.ron")
}

/// A named slot's file: the name with anything but letters, digits, '-' and '_' replaced.
pub fn slot_path(name: &str) -> std::path::PathBuf {
    let clean: String = name.chars().take(64).map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    save_dir().join(format!("{}.ron", if clean.is_empty() { "save".into() } else { clean }))
}
