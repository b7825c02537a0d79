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
/// `Err` when the level cannot be built or a command does not replay (see [`open`] for a replay
/// that goes as far as it can).
pub fn replay(data: &RuleData, save: &Save, level: &CheckedLevel) -> Result<HeadlessMatch, String> {
    replay_from(&origin_of(data, save, level)?, save)
}

/// The match a save starts from: its level built under the save's rules, its dice.
pub fn origin_of(data: &RuleData, save: &Save, level: &CheckedLevel) -> Result<Origin, String> {
    let m = level.build(data).map_err(|e| e.join("; "))?;
    let mut dice = Dice::seeded(save.seed);
    dice.force(save.forced_dice.iter().copied());
    Ok(Origin { m, dice, mid_phase: false })
}

/// Commands queued together when a save is replayed.
const REPLAY_BATCH: usize = 256;

/// Replays a save's commands from the match as it was built (`MatchRecord::origin`).
pub fn replay_from(origin: &Origin, save: &Save) -> Result<HeadlessMatch, String> {
    run(origin, save, save.commands.len(), REPLAY_BATCH).map_err(|(_, e)| e)
}

/// A save replayed as far as it goes (Continue, the Load screen, `doo play --resume`).
pub struct Replayed {
    /// The match after the commands that replay: all of the save's when `problem` is `None`.
    pub hm: HeadlessMatch,
    /// How many of the save's commands were replayed into `hm`.
    pub good: usize,
    /// Why the save does not replay to its end: the first bad command and what went wrong
    /// (refused, unsettled, the rules stopped on it, a checkpoint that differs).
    pub problem: Option<String>,
}

/// Replays `save` as far as it goes and checks its checkpoints: the one path every save
/// takes when it is opened to play on. Never panics: a command the rules stop on is caught
/// and named. `Err` only when the level cannot be built or not even the start replays.
pub fn open(data: &RuleData, save: &Save, level: &CheckedLevel) -> Result<Replayed, String> {
    open_from(&origin_of(data, save, level)?, save)
}

/// `open` from the match as it was built.
pub fn open_from(origin: &Origin, save: &Save) -> Result<Replayed, String> {
    let n = save.commands.len();
    let (good, problem) = match run(origin, save, n, REPLAY_BATCH) {
        Ok(hm) => match verify_detail(save, &hm) {
            Ok(_) => return Ok(Replayed { hm, good: n, problem: None }),
            Err(mismatch) => {
                // The last checkpoint that matched, or the first command refused after it
                // (a command edited to be illegal is refused where it stands).
                let from = mismatch.last_good.unwrap_or(0);
                let refused = first_refused(&hm, from, mismatch.first_bad);
                match refused {
                    Some((k, why)) => (k, format!("{}; command {} was refused ({why})", mismatch.message, k + 1)),
                    None => (from, mismatch.message),
                }
            }
        },
        // Which command exactly: one at a time this time.
        Err((at, batch_error)) => match run(origin, save, n, 1) {
            Err((k, e)) => (k, e),
            Ok(_) => (at, batch_error),
        },
    };
    let hm = run(origin, save, good, REPLAY_BATCH).or_else(|_| run(origin, save, 0, 1)).map_err(|(_, e)| e)?;
    let good = if hm.app.world().resource::<MatchRecord>().commands.len() == good { good } else { 0 };
    Ok(Replayed { hm, good, problem: Some(problem) })
}

/// The first command in `from..to` the replay refused: its index and the rule's sentence.
fn first_refused(hm: &HeadlessMatch, from: usize, to: usize) -> Option<(usize, String)> {
    hm.lines().iter().find_map(|l| {
        let k = l.get("index")?.as_u64()? as usize;
        (l.get("type")?.as_str()? == "command" && l.get("result")?.as_str()? == "rejected" && (from..to).contains(&k)).then(|| {
            let rule = l.get("rule").and_then(|r| r.as_str()).unwrap_or_default();
            let reason = l.get("reason").and_then(|r| r.as_str()).unwrap_or_default();
            (k, format!("{rule}: {reason}"))
        })
    })
}

/// Replays the first `n` commands of `save`, `step` at a time. `Err` names the first command
/// (or batch) that left the match unsettled or that the rules stopped on (a panic, caught).
fn run(origin: &Origin, save: &Save, n: usize, step: usize) -> Result<HeadlessMatch, (usize, String)> {
    let start = catch(|| HeadlessMatch::recorded(origin.m.clone(), origin.dice.clone(), origin.mid_phase, Some(save.clone())));
    let mut hm = start.map_err(|e| (0, format!("the match could not be started: {e}")))?;
    hm.app.world_mut().init_resource::<crate::game::intent::Unwatched>();
    // Queued in batches: one frame a command instead of two (a save at the command cap
    // verifies within a second).
    let cmds = &save.commands[..n.min(save.commands.len())];
    for (k, batch) in cmds.chunks(step.max(1)).enumerate() {
        let at = k * step.max(1);
        let what = if batch.len() == 1 {
            format!("command {} ({})", at + 1, crate::rules::a4::acts::command_name(&batch[0]))
        } else {
            format!("commands {} to {}", at + 1, at + batch.len())
        };
        match catch(|| hm.submit_all(batch)) {
            Ok(true) => {}
            Ok(false) => return Err((at, format!("{what} left the match unsettled (engine bug)"))),
            Err(e) => return Err((at, format!("the rules stopped on {what}: {e}"))),
        }
    }
    // Watching again afterwards: whoever goes on playing sees previews.
    hm.app.world_mut().remove_resource::<crate::game::intent::Unwatched>();
    Ok(hm)
}

/// Runs `f`, turning a panic into its message (the panic hook has logged it already).
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| crate::crash::panic_message(p.as_ref()))
}

/// A save's checkpoints against a replay's: where they part.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// Commands played at the last checkpoint that matched (none matched: `None`).
    pub last_good: Option<usize>,
    /// Commands played at the first checkpoint that differs.
    pub first_bad: usize,
    pub message: String,
}

/// Compares the replay's checkpoints with the save's. `Err` names the first checkpoint that
/// differs, the command it follows, and the last one that matched.
pub fn verify(save: &Save, hm: &HeadlessMatch) -> Result<usize, String> {
    verify_detail(save, hm).map_err(|m| m.message)
}

/// `verify`, saying where the checkpoints part. A `saved:` checkpoint (the state when the save
/// was written) is compared with the replay's state after all its commands.
pub fn verify_detail(save: &Save, hm: &HeadlessMatch) -> Result<usize, Mismatch> {
    let got = &hm.app.world().resource::<MatchRecord>().checkpoints;
    let played = hm.app.world().resource::<MatchRecord>().commands.len();
    let mut last_good = None;
    let since = |last_good: Option<usize>| last_good.map_or("the start".to_string(), |c| format!("command {c}"));
    for (k, want) in save.checkpoints.iter().enumerate() {
        if let Some(h) = want.hash.strip_prefix(SAVED) {
            let dice = &hm.app.world().resource::<crate::game::components::MatchDice>().0;
            let now = doo_rules::save::state_hash(hm.state(), dice);
            if want.commands == played && h == now {
                last_good = Some(want.commands);
                continue;
            }
            return Err(Mismatch {
                last_good,
                first_bad: want.commands,
                message: format!(
                    "checkpoint {k}: after its {} commands the replay's state hash is {now} where the save has {h} (written after {} commands, turn {}); the first command whose state differs is between {} and command {}",
                    played,
                    want.commands,
                    want.turn,
                    since(last_good),
                    want.commands
                ),
            });
        }
        match got.get(k) {
            Some(g) if g == want => last_good = Some(want.commands),
            Some(g) => {
                let first = if g.commands == want.commands { want.commands } else { g.commands.min(want.commands) };
                return Err(Mismatch {
                    last_good,
                    first_bad: first,
                    message: format!(
                        "checkpoint {k} differs: after {} commands (turn {}) the replay's state hash is {} where the save has {} (after {} commands, turn {}); the first command whose state differs is between {} and command {first}",
                        g.commands,
                        g.turn,
                        g.hash,
                        want.hash,
                        want.commands,
                        want.turn,
                        since(last_good)
                    ),
                });
            }
            None => {
                return Err(Mismatch {
                    last_good,
                    first_bad: want.commands,
                    message: format!(
                        "checkpoint {k} (after {} commands, turn {}) was never reached by the replay: the first command whose state differs is between {} and command {}",
                        want.commands,
                        want.turn,
                        since(last_good),
                        want.commands
                    ),
                });
            }
        }
    }
    Ok(save.checkpoints.len())
}

/// The prefix of the checkpoint a save gets when it is written: the state at that moment.
pub const SAVED: &str = "saved:";

/// The save cut after its first `n` commands (its checkpoints up to there, no AI plan): what
/// "continue from the last command that replays" plays on from.
pub fn truncated(save: &Save, n: usize) -> Save {
    let mut s = save.clone();
    s.commands.truncate(n);
    // A turn's checkpoint is taken as its first command is about to be played: those after
    // the cut are never reached.
    s.checkpoints.retain(|c| c.commands < n && !c.hash.starts_with(SAVED) && !c.hash.starts_with("end:"));
    s.ai_plan = None;
    s
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
