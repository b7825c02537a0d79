//! The headless app (MinimalPlugins + StatesPlugin + the rules plugins): the exact match systems
//! the window runs, driven by commands. Used by `doo run`, the tests and the property tests.

use crate::game::components::MatchState;
use crate::game::flow::FlowStatus;
use crate::game::log::MatchLog;
use crate::game::pipeline::IssueCommand;
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use doo_rules::data::RuleData;
use doo_rules::level_file::CheckedLevel;
use doo_rules::rules::state::Match;
use doo_rules::rules::{Command, Dice};
use doo_rules::script::{Script, final_state};
use serde_json::{Value, json};

/// Frames allowed for the flow to settle after a command (resets, round changes).
const SETTLE_FRAMES_MAX: usize = 64;

pub fn headless_app() -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin)).add_plugins(crate::game::plugin);
    // The match systems are small and run in a fixed chain: one thread runs a frame several
    // times faster than handing each schedule to the thread pool (a 1 000-command replay
    // took 0.31 s multi-threaded).
    use bevy::app::{First, Last, PostUpdate, PreUpdate, Update};
    use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
    let labels: [bevy::ecs::intern::Interned<dyn ScheduleLabel>; 6] =
        [First.intern(), PreUpdate.intern(), bevy::state::state::StateTransition.intern(), Update.intern(), PostUpdate.intern(), Last.intern()];
    for label in labels {
        app.edit_schedule(label, |s| {
            s.set_executor(SingleThreadedExecutor::default());
        });
    }
    app
}

/// A match running in a headless app.
pub struct HeadlessMatch {
    pub app: App,
}

impl HeadlessMatch {
    pub fn new(m: Match, dice: Dice, mid_phase: bool) -> Self {
        Self::recorded(m, dice, mid_phase, None)
    }

    /// An app with no match yet (a replayed one is restored into it).
    pub fn empty() -> Self {
        let mut app = headless_app();
        app.update();
        Self { app }
    }

    /// A match whose commands and checkpoints are recorded under `header` (saves, replays).
    pub fn recorded(m: Match, dice: Dice, mid_phase: bool, header: Option<doo_rules::save::Save>) -> Self {
        let mut app = headless_app();
        if let Some(h) = header {
            app.insert_resource(crate::game::record::MatchRecord::new(h));
        }
        app.update();
        crate::game::setup::start_match(app.world_mut(), m, dice, mid_phase);
        let mut me = Self { app };
        me.settle();
        me
    }

    /// Runs frames until the match waits for a command or is over; false if it never settled.
    pub fn settle(&mut self) -> bool {
        self.settle_within(SETTLE_FRAMES_MAX)
    }

    /// `settle` with a frame budget (a batch of queued commands takes a frame each).
    pub fn settle_within(&mut self, frames: usize) -> bool {
        for _ in 0..frames {
            self.app.update();
            let s = *self.app.world().resource::<FlowStatus>();
            let queued = !self.app.world().resource::<crate::game::pipeline::CommandQueue>().queue.is_empty();
            if (s.awaiting || s.over) && !queued {
                // one more frame publishes what the last one produced
                self.app.update();
                return true;
            }
        }
        false
    }

    /// Issues a command through the pipeline and runs the flow until it settles again.
    pub fn submit(&mut self, cmd: Command) -> bool {
        self.app.world_mut().write_message(IssueCommand(cmd));
        self.settle()
    }

    /// Issues commands in order, queued together: the pipeline takes one per frame, each when
    /// the flow waits for it, exactly as if they came one at a time (replays: half the frames).
    pub fn submit_all(&mut self, cmds: &[Command]) -> bool {
        for c in cmds {
            self.app.world_mut().write_message(IssueCommand(c.clone()));
        }
        self.settle_within(SETTLE_FRAMES_MAX * (cmds.len() + 1))
    }

    pub fn lines(&self) -> &[Value] {
        self.app.world().resource::<MatchLog>().lines()
    }

    /// The match as the rules see it now (a copy).
    pub fn snapshot(&self) -> Match {
        self.state().clone()
    }

    /// The match as the rules see it now.
    pub fn state(&self) -> &Match {
        &self.app.world().resource::<MatchState>().0
    }

    /// The turn number, without copying the whole match.
    pub fn snapshot_turn(&self) -> u32 {
        self.state().clock.turn
    }

    /// How the match ended, once it has.
    pub fn outcome(&self) -> Option<&doo_rules::rules::victory::Outcome> {
        self.app.world().resource::<crate::game::log::MatchOutcome>().0.as_ref()
    }

    pub fn status(&self) -> FlowStatus {
        *self.app.world().resource::<FlowStatus>()
    }
}

/// Builds the match a script describes (`doo_rules::script::build_match`).
pub fn script_match(data: &RuleData, script: &Script, level: Option<&CheckedLevel>) -> Result<Match, Vec<String>> {
    doo_rules::script::build_match(data, script, level)
}

/// Plays a script; returns every output line (setup events, verdicts, events, final state).
pub fn run_script(data: &RuleData, script: &Script, level: Option<&CheckedLevel>) -> Result<Vec<Value>, Vec<String>> {
    let m = script_match(data, script, level)?;
    let mut dice = Dice::seeded(script.seed);
    dice.force(script.dice.iter().copied());
    let mut hm = HeadlessMatch::new(m, dice, script.mid_phase());
    // A script has no player looking at the board: no previews are worked out.
    hm.app.world_mut().init_resource::<crate::game::intent::Unwatched>();
    // Issue 45: the sides the AI plays, before each command and after the last.
    let ai = script.ai.as_ref().map(|ai| {
        let behaviours = level.map(|l| l.behaviours.clone()).unwrap_or_default();
        let goals = hm.state().goals.clone();
        let difficulty = doo_rules::ai::Difficulty::default();
        let config = doo_rules::ai::AiConfig::for_level(
            ai.sides.iter().map(String::as_str),
            &behaviours,
            &goals,
            difficulty,
            &Default::default(),
            script.seed,
            data.ai.clone(),
        );
        hm.app.world_mut().insert_resource(crate::game::ai::AiControl { config, pace_secs: 0.0, waited: 0.0, plan: None, remote: Default::default() });
        ai.until_turn
    });
    for cmd in &script.commands {
        if let Some(until) = ai {
            play_ai(&mut hm, until)?;
        }
        if !hm.submit(cmd.clone()) {
            return Err(vec!["the match did not settle after a command (engine bug)".into()]);
        }
    }
    if let Some(until) = ai {
        play_ai(&mut hm, until)?;
    }
    let m = hm.snapshot();
    let mut lines = hm.lines().to_vec();
    let mut fin = final_state(&m);
    if let Some(o) = hm.outcome() {
        fin["outcome"] = json!({ "winner": o.winner, "goal": o.goal, "reason": o.reason });
    }
    if let Some(p) = &m.pending {
        fin["waiting_for"] = json!({
            "window": p.window,
            "defender": m.fighters[p.defender].id,
            "attacker": m.fighters[p.attacker].id,
        });
    }
    let left = hm.app.world().resource::<crate::game::components::MatchDice>().forced_remaining();
    fin["forced_dice_left"] = json!(left);
    lines.push(fin);
    Ok(lines)
}

/// Frames the AI of a script may play between two of its commands.
const AI_FRAMES_MAX: usize = 20_000;

/// Lets the script's AI sides play until none of their characters must decide (someone else
/// must), the match is over, or crisis turn `until` is over (the AI then stops for good).
fn play_ai(hm: &mut HeadlessMatch, until: Option<u32>) -> Result<(), Vec<String>> {
    use crate::game::ai::AiControl;
    for _ in 0..AI_FRAMES_MAX {
        let Some(cfg) = hm.app.world().get_resource::<AiControl>().map(|a| a.config.clone()) else { return Ok(()) };
        let s = hm.status();
        if s.over {
            return Ok(());
        }
        if until.is_some_and(|u| hm.state().clock.turn > u) {
            hm.app.world_mut().remove_resource::<AiControl>();
            hm.settle();
            return Ok(());
        }
        let queued = !hm.app.world().resource::<crate::game::pipeline::CommandQueue>().queue.is_empty();
        if s.awaiting && !queued && doo_rules::ai::who_decides(hm.state(), &cfg).is_none() {
            return Ok(());
        }
        hm.app.update();
    }
    Err(vec![format!("the AI played {AI_FRAMES_MAX} frames without stopping (give `ai.until_turn`)")])
}
