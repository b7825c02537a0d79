//! `doo simulate <level> --seed N --games K`: AI against AI without a window, through the same
//! headless app and command pipeline as everything else. One JSON line per game, then a summary.

use crate::ai::AiConfig;
use crate::data::RuleData;
use crate::game::ai::{AiControl, AiStats};
use crate::headless::HeadlessMatch;
use crate::level_file::CheckedLevel;
use crate::rules::Dice;
use serde::Serialize;
use std::time::Instant;

/// Games stop here if nobody has won (a draw).
pub const MAX_TURNS: u32 = 40;
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
}

/// Plays one game AI against AI.
pub fn play(data: &RuleData, level: &CheckedLevel, config: AiConfig, seed: u64, game: u32) -> Result<GameResult, String> {
    let t0 = Instant::now();
    let m = level.build(data).map_err(|e| e.join("; "))?;
    let mut hm = HeadlessMatch::new(m, Dice::seeded(seed), false);
    hm.app.world_mut().insert_resource(AiControl { config, pace_secs: 0.0, waited: 0.0, plan: None });
    // The rules end the match (`Event::CrisisOver`, then the closing reset); a game that
    // outlasts MAX_TURNS is called a draw.
    let mut frames = 0;
    while frames < MAX_FRAMES && !hm.status().over && hm.snapshot_turn() <= MAX_TURNS {
        hm.app.update();
        frames += 1;
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
    let stats = hm.app.world().resource::<AiStats>();
    let budget_cuts = stats.budget_cuts;
    let mut times = stats.decisions_us.clone();
    times.sort_unstable();
    Ok(GameResult {
        game,
        seed,
        winner: win.clone(),
        turns,
        ended: hm.status().over || turns > MAX_TURNS,
        commands,
        rejected,
        decisions: times.len(),
        think_ms: times.iter().sum::<u64>() as f64 / 1000.0,
        median_decision_us: times.get(times.len() / 2).copied().unwrap_or(0),
        max_decision_us: times.last().copied().unwrap_or(0),
        budget_cuts,
        wall_ms: t0.elapsed().as_secs_f64() * 1000.0,
    })
}
