//! `doo simulate <level> --seed N --games K`: AI against AI without a window, through the same
//! headless app and command pipeline as everything else. One JSON line per game, then a summary.

use crate::game::ai::{AiControl, AiStats};
use crate::headless::HeadlessMatch;
use doo_rules::ai::AiConfig;
use doo_rules::data::RuleData;
use doo_rules::level_file::CheckedLevel;
use doo_rules::rules::Dice;
use serde::Serialize;
use std::time::Instant;

/// Games stop here if nobody has won (a draw); the ladder stops at the same turn.
pub const MAX_TURNS: u32 = doo_rules::ladder::MAX_TURNS;
/// A crawl whose exploration outlasts this many turns (minutes) is called a draw.
pub const MAX_EXPLORATION_TURNS: u32 = doo_rules::ladder::MAX_EXPLORATION_TURNS;
/// Frames allowed per game before it is called stuck (an engine or AI bug).
const MAX_FRAMES: usize = 200_000;

#[derive(Clone, Debug, Serialize)]
pub struct GameResult {
    pub game: u32,
    pub seed: u64,
    pub winner: Option<String>,
    pub turns: u32,
    pub ended: bool,
    pub commands: usize,
    pub rejected: usize,
    pub decisions: usize,
    pub think_ms: f64,
    pub median_decision_us: u64,
    pub max_decision_us: u64,
    /// Decisions the thinking budget cut short.
    pub budget_cuts: usize,
    pub wall_ms: f64,
    /// The state hash at the end, when the game was recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub final_hash: Option<String>,
    /// The game as a save, when it was recorded.
    #[serde(skip)]
    pub save: Option<doo_rules::save::Save>,
    /// The match as it ended, and every rules event in order (campaigns read CP and carry-over
    /// from them).
    #[serde(skip)]
    pub end_state: Option<Box<doo_rules::rules::state::Match>>,
    #[serde(skip)]
    pub events: Vec<doo_rules::rules::Event>,
    /// The CP the level's heroes earned as the match told them (`cp_earned` events, R-CP-9).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cp_earned: Vec<serde_json::Value>,
}

/// How a game is recorded: the save's header, and a file to autosave to after every command.
#[derive(Clone, Debug, Default)]
pub struct Recording {
    pub header: Option<doo_rules::save::Save>,
    pub autosave: Option<std::path::PathBuf>,
}

/// Plays one game AI against AI.
pub fn play(data: &RuleData, level: &CheckedLevel, config: AiConfig, seed: u64, game: u32) -> Result<GameResult, String> {
    play_recorded(data, level, config, seed, game, &Recording::default())
}

/// Plays one game AI against AI, recorded as `rec` says.
pub fn play_recorded(data: &RuleData, level: &CheckedLevel, config: AiConfig, seed: u64, game: u32, rec: &Recording) -> Result<GameResult, String> {
    let t0 = Instant::now();
    let m = level.build(data).map_err(|e| e.join("; "))?;
    let mut hm = HeadlessMatch::recorded(m, Dice::seeded(seed), false, rec.header.clone());
    if let Some(p) = &rec.autosave {
        hm.app.world_mut().insert_resource(crate::game::record::Autosave::to(p.clone()));
    }
    hm.app.world_mut().insert_resource(AiControl { config, pace_secs: 0.0, waited: 0.0, plan: None, remote: Default::default() });
    finish(hm, seed, game, t0)
}

/// Goes on with a saved game, AI against AI: the save is replayed (its checkpoints checked),
/// then played to the end, autosaving to `autosave` if given.
pub fn resume(
    data: &RuleData,
    level: &CheckedLevel,
    config: AiConfig,
    save: &doo_rules::save::Save,
    autosave: Option<std::path::PathBuf>,
) -> Result<GameResult, String> {
    let t0 = Instant::now();
    let mut hm = crate::replay::resume_headless(data, save, level)?;
    let plan = save.ai_plan.as_ref().map(|p| (p.actor, p.turn, p.round, p.commands.iter().cloned().collect()));
    hm.app.world_mut().insert_resource(AiControl { config, pace_secs: 0.0, waited: 0.0, plan, remote: Default::default() });
    if let Some(p) = autosave {
        hm.app.world_mut().insert_resource(crate::game::record::Autosave::to(p));
    }
    finish(hm, save.seed, 0, t0)
}

fn finish(mut hm: HeadlessMatch, seed: u64, game: u32, t0: Instant) -> Result<GameResult, String> {
    // The rules end the match (`Event::CrisisOver`, then the closing reset); a game that
    // outlasts MAX_TURNS is called a draw.
    let mut frames = 0;
    let minutes = |hm: &HeadlessMatch| hm.state().explore.as_deref().map_or(0, |x| x.turn);
    let limit = doo_rules::ladder::exploration_limit(&hm.state().board);
    while frames < MAX_FRAMES && !hm.status().over && hm.snapshot_turn() <= MAX_TURNS && minutes(&hm) <= limit {
        hm.app.update();
        frames += 1;
    }
    // A draw is called where the match next waits, the AI's plan kept for the save: a replay of
    // the save ends in the same state.
    let plan = crate::game::record::ai_plan(hm.app.world().get_resource::<AiControl>());
    if !hm.status().over {
        hm.app.world_mut().remove_resource::<AiControl>();
        hm.settle();
    }
    let turns = hm.snapshot_turn();
    let win = hm.outcome().and_then(|o| o.winner.clone());
    let lines = hm.lines();
    if std::env::var_os("DOO_SIM_TRACE").is_some() {
        for l in lines.iter() {
            eprintln!("{l}");
        }
    }
    let commands = lines.iter().filter(|l| l["type"] == "command").count();
    let rejected = lines.iter().filter(|l| l["type"] == "command" && l["result"] == "rejected").count();
    let final_hash = {
        let w = hm.app.world();
        doo_rules::save::state_hash(hm.state(), &w.resource::<crate::game::components::MatchDice>().0)
    };
    let save = {
        let w = hm.app.world();
        w.resource::<crate::game::record::MatchRecord>().to_save(turns, plan)
    };
    let stats = hm.app.world().resource::<AiStats>();
    let budget_cuts = stats.budget_cuts;
    let mut times = stats.decisions_us.clone();
    times.sort_unstable();
    let events: Vec<doo_rules::rules::Event> = hm
        .app
        .world()
        .resource::<crate::game::log::MatchLog>()
        .entries()
        .iter()
        .filter_map(|e| match e {
            doo_rules::replay::LogEntry::Event { event, .. } => Some(event.clone()),
            _ => None,
        })
        .collect();
    Ok(GameResult {
        game,
        seed,
        winner: win.clone(),
        turns,
        ended: hm.status().over || turns > MAX_TURNS || minutes(&hm) > limit,
        commands,
        rejected,
        decisions: times.len(),
        think_ms: times.iter().sum::<u64>() as f64 / 1000.0,
        median_decision_us: times.get(times.len() / 2).copied().unwrap_or(0),
        max_decision_us: times.last().copied().unwrap_or(0),
        budget_cuts,
        wall_ms: t0.elapsed().as_secs_f64() * 1000.0,
        final_hash: save.is_some().then_some(final_hash),
        save,
        end_state: Some(Box::new(hm.snapshot())),
        cp_earned: events.iter().filter(|e| matches!(e, doo_rules::rules::Event::CpEarned { .. })).filter_map(|e| serde_json::to_value(e).ok()).collect(),
        events,
    })
}
