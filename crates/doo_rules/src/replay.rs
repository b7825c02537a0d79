//! Matches played back in plain Rust: a save's commands replayed from the match as it was
//! built, through the one flow (`rules::driver`), with the log and the checkpoints the game
//! records as it plays. `doo replay --verify`, Continue and the Load screen (resume), undo, the
//! replay viewer and the fuzzer all replay here; no Bevy app is started.

use crate::data::RuleData;
use crate::level_file::CheckedLevel;
use crate::rules::driver::{self, Start};
use crate::rules::victory::Outcome;
use crate::rules::{Command, Dice, Event, Match, Violation};
use crate::save::{self, Checkpoint, Save};

/// The prefix of the checkpoint a save gets when it is written: the state at that moment.
pub const SAVED: &str = "saved:";
/// The prefix of the checkpoint taken when the match is over.
pub const END: &str = "end:";

/// A match as built from its level, with its dice, before anything was played.
#[derive(Debug, Clone)]
pub struct Origin {
    pub m: Match,
    pub dice: Dice,
    /// Started mid-phase (script start states) rather than by the opening reset.
    pub mid_phase: bool,
    /// The save version whose state hash the checkpoints take (`save::state_hash_of`): the
    /// save's own when it is replayed, [`save::VERSION`] for a match played now.
    pub version: u32,
}

impl Origin {
    /// The match a save starts from: its level built under the save's rules, its dice.
    pub fn of_save(data: &RuleData, save: &Save, level: &CheckedLevel) -> Result<Origin, String> {
        let mut m = level.build(data).map_err(|e| e.join("; "))?;
        // The turn limit the match was played under (its host's, when not the level's).
        if save.turn_limit.is_some() {
            m.turn_limit = save.turn_limit;
        }
        let mut dice = Dice::seeded(save.seed);
        dice.force(save.forced_dice.iter().copied());
        Ok(Origin { m, dice, mid_phase: false, version: save.version })
    }

    /// A match as built, started by the opening reset, its checkpoints this game's.
    pub fn new(m: Match, dice: Dice) -> Origin {
        Origin { m, dice, mid_phase: false, version: save::VERSION }
    }

    /// The match a script starts from (`script::build_match`), with its seeded, forced dice:
    /// what the runner, the fuzzer and the agreement test play.
    pub fn of_script(data: &RuleData, script: &crate::script::Script, level: Option<&CheckedLevel>) -> Result<Origin, Vec<String>> {
        let m = crate::script::build_match(data, script, level)?;
        let mut dice = Dice::seeded(script.seed);
        dice.force(script.dice.iter().copied());
        Ok(Origin { m, dice, mid_phase: script.mid_phase(), version: save::VERSION })
    }

    /// How the driver starts it.
    pub fn start(&self) -> Start {
        if self.mid_phase { Start::MidPhase } else { Start::Fresh }
    }
}

/// One entry of a match's log.
#[derive(Debug, Clone, PartialEq)]
pub enum LogEntry {
    /// The rules' verdict on command `index`.
    Verdict { index: usize, command: Command, result: Result<(), Violation> },
    /// Something the rules did, caused by command `index` (`None`: the flow itself); in a
    /// crawl, the sides that saw it then (`driver::seen_by`, R-EXP-19).
    Event { index: Option<usize>, event: Event, seen_by: Option<Vec<String>> },
}

impl LogEntry {
    /// The entry as `doo run` prints it (docs/scripts.md "Output"): a `command` line with its
    /// verdict, or an `event` line with the event's fields and, in a crawl, `seen_by`.
    pub fn line(&self) -> serde_json::Value {
        use serde_json::{Value, json};
        match self {
            LogEntry::Verdict { index, command, result } => {
                let mut line = json!({ "type": "command", "index": index, "command": command });
                match result {
                    Ok(()) => line["result"] = json!("ok"),
                    Err(v) => {
                        line["result"] = json!("rejected");
                        line["rule"] = json!(v.rule);
                        line["reason"] = json!(v.reason);
                        if !v.also.is_empty() {
                            line["also"] = json!(v.also);
                        }
                    }
                }
                line
            }
            LogEntry::Event { index, event, seen_by } => {
                let mut line = serde_json::Map::new();
                line.insert("type".into(), json!("event"));
                line.insert("index".into(), json!(index));
                if let Value::Object(o) = serde_json::to_value(event).unwrap_or(Value::Null) {
                    line.extend(o);
                }
                if let Some(s) = seen_by {
                    line.insert("seen_by".into(), json!(s));
                }
                Value::Object(line)
            }
        }
    }
}

/// The checkpoint due as the first command of a turn is about to be played, `commands` having
/// been played: the state then is the same however the commands came. Its hash is that of saves
/// of `version` (`save::state_hash_of`).
pub fn turn_checkpoint(version: u32, have: &[Checkpoint], commands: usize, m: &Match, dice: &Dice) -> Option<Checkpoint> {
    let turn = m.clock.turn;
    have.last().is_none_or(|c| c.turn != turn).then(|| Checkpoint { commands, turn, hash: save::state_hash_of(version, m, dice) })
}

/// The checkpoint due when the match is over after `commands` commands (hash `end:…`).
pub fn end_checkpoint(version: u32, have: &[Checkpoint], commands: usize, m: &Match, dice: &Dice) -> Option<Checkpoint> {
    let new = have.last().is_none_or(|c| c.commands != commands || !c.hash.starts_with(END));
    new.then(|| Checkpoint { commands, turn: m.clock.turn, hash: format!("{END}{}", save::state_hash_of(version, m, dice)) })
}

/// Adds the `saved:` checkpoint to a save about to be written: the state hash now (of the
/// save's version), after all its commands. A replay must reach that state, so a command
/// changed anywhere in the save (in the last turn too, after the last turn's checkpoint) is
/// found when the save is opened.
pub fn seal(save: &mut Save, m: &Match, dice: &Dice) {
    let n = save.commands.len();
    if save.checkpoints.last().is_some_and(|c| c.commands == n && c.hash.starts_with(END)) {
        return; // over: the end checkpoint says it already
    }
    let hash = save::state_hash_of(save.version, m, dice);
    save.checkpoints.push(Checkpoint { commands: n, turn: m.clock.turn, hash: format!("{SAVED}{hash}") });
}

/// What a replay keeps besides the match, its checkpoints and its outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Every command and the log, with `seen_by` (a match played on, the viewer, undo).
    Log,
    /// Nothing per command (issue 44): no log and no copy of the commands, only their count
    /// and the first refusal after each checkpoint: what `verify` and `open` need to tell where
    /// a save parts. Memory grows with the turns (the checkpoints), not with the commands.
    Checkpoints,
}

/// A match being played back: the state after the commands pushed so far, with everything the
/// game records as it plays (the log, the checkpoints, the outcome).
#[derive(Debug, Clone)]
pub struct Replay {
    pub m: Match,
    pub dice: Dice,
    /// The crisis is over (every later command is refused, R-TURN-17).
    pub over: bool,
    /// Commands pushed (each kept once, in its verdict in the log: [`Replay::commands`]).
    pub played: usize,
    pub checkpoints: Vec<Checkpoint>,
    /// Empty under `Keep::Checkpoints`.
    pub log: Vec<LogEntry>,
    pub outcome: Option<Outcome>,
    /// The first command refused after each checkpoint (and after the start), with the rule's
    /// sentence: at most one more than the checkpoints.
    pub refusals: Vec<(usize, String)>,
    /// The save version whose state hash the checkpoints take (`Origin::version`).
    pub version: u32,
    pub keep: Keep,
    /// A command was refused since the last checkpoint (`refusals` has it).
    refused_since_checkpoint: bool,
    /// The events of the command being pushed, the buffer kept from one command to the next
    /// (issue 44: no allocation per command).
    scratch: Vec<Event>,
}

impl Replay {
    /// The match brought onto the table as the game does (the opening reset, or a crawl's
    /// first exploration turn, or a script's mid-phase start), keeping the log.
    pub fn start(origin: &Origin) -> Self {
        Self::start_keeping(origin, Keep::Log)
    }

    /// `start`, keeping nothing per command (`Keep::Checkpoints`): verifying a save.
    pub fn start_streaming(origin: &Origin) -> Self {
        Self::start_keeping(origin, Keep::Checkpoints)
    }

    pub fn start_keeping(origin: &Origin, keep: Keep) -> Self {
        let (mut m, mut dice) = (origin.m.clone(), origin.dice.clone());
        let mut ev = Vec::new();
        let over = !driver::start(&mut m, &mut dice, origin.start(), &mut ev);
        let mut r = Self {
            m,
            dice,
            over,
            played: 0,
            checkpoints: Vec::new(),
            log: Vec::new(),
            outcome: None,
            refusals: Vec::new(),
            version: origin.version,
            keep,
            refused_since_checkpoint: false,
            scratch: Vec::new(),
        };
        r.log_events(None, &mut ev);
        r.scratch = ev;
        r.check_end();
        r
    }

    /// Plays `commands` from `origin`, keeping the log.
    pub fn run(origin: &Origin, commands: &[Command]) -> Self {
        Self::run_keeping(origin, commands, Keep::Log)
    }

    /// Plays `commands` from `origin`, keeping what `keep` says.
    pub fn run_keeping(origin: &Origin, commands: &[Command], keep: Keep) -> Self {
        let mut r = Self::start_keeping(origin, keep);
        if keep == Keep::Log {
            // About ten log entries a command (its verdict and its events); the reservation is
            // capped, the log grows past it as it must (commands come from untrusted saves).
            r.log.reserve(commands.len().saturating_mul(10).min(1 << 16));
        }
        for c in commands {
            let _ = r.push(c);
        }
        r
    }

    /// Sends one command down the one flow; the verdict and the events go to the log, and the
    /// checkpoints are taken where the game takes them.
    pub fn push(&mut self, cmd: &Command) -> Result<(), Violation> {
        let index = self.played;
        if !self.over {
            if let Some(c) = turn_checkpoint(self.version, &self.checkpoints, index, &self.m, &self.dice) {
                self.checkpoints.push(c);
                self.refused_since_checkpoint = false;
            }
        }
        let mut ev = std::mem::take(&mut self.scratch);
        ev.clear();
        let result = driver::step(&mut self.m, &mut self.dice, &mut self.over, cmd, &mut ev);
        self.played += 1;
        if let Err(v) = &result {
            if !self.refused_since_checkpoint {
                self.refusals.push((index, format!("{}: {}", v.rule, v.reason)));
                self.refused_since_checkpoint = true;
            }
        }
        if self.keep == Keep::Log {
            self.log.push(LogEntry::Verdict { index, command: cmd.clone(), result: result.clone() });
        }
        self.log_events(Some(index), &mut ev);
        self.scratch = ev;
        self.check_end();
        result
    }

    /// Takes the events out of `ev` (left empty, its buffer kept) into the log.
    fn log_events(&mut self, index: Option<usize>, ev: &mut Vec<Event>) {
        for event in ev.iter() {
            if let Event::CrisisOver { winner, goal, reason } = event {
                self.outcome = Some(Outcome { winner: winner.clone(), goal: goal.clone(), reason: reason.clone() });
            }
        }
        if self.keep == Keep::Log {
            // One `extend` (issue 44): each event moved once, into the log's own buffer.
            let m = &self.m;
            self.log.extend(ev.drain(..).map(|event| {
                let seen_by = driver::seen_by(m, &event);
                LogEntry::Event { index, event, seen_by }
            }));
        } else {
            ev.clear();
        }
    }

    fn check_end(&mut self) {
        if self.over {
            if let Some(c) = end_checkpoint(self.version, &self.checkpoints, self.played, &self.m, &self.dice) {
                self.checkpoints.push(c);
                self.refused_since_checkpoint = false;
            }
        }
    }

    /// Every command pushed, refused ones too (a save keeps them: the game answered them), as
    /// their verdicts in the log keep them (issue 44: each command kept once). None under
    /// `Keep::Checkpoints`: `played` counts them.
    pub fn commands(&self) -> impl Iterator<Item = &Command> {
        self.log.iter().filter_map(|e| match e {
            LogEntry::Verdict { command, .. } => Some(command),
            LogEntry::Event { .. } => None,
        })
    }

    /// The state hash now, of the version the checkpoints take.
    pub fn hash(&self) -> String {
        save::state_hash_of(self.version, &self.m, &self.dice)
    }

    /// The first command in `from..to` the replay refused: its index and the rule's sentence.
    /// `from` is where a checkpoint was taken (or 0).
    pub fn first_refused(&self, from: usize, to: usize) -> Option<(usize, String)> {
        self.refusals.iter().find(|(i, _)| *i >= from).filter(|(i, _)| *i < to).cloned()
    }
}

/// A save replayed as far as it goes (Continue, the Load screen, `doo play --resume`).
pub struct Opened {
    /// The match after the commands that replay: all of the save's when `problem` is `None`.
    pub replay: Replay,
    /// How many of the save's commands were replayed into `replay`.
    pub good: usize,
    /// Why the save does not replay to its end: the first bad command and what went wrong
    /// (refused, the rules stopped on it, a checkpoint that differs).
    pub problem: Option<String>,
}

/// Replays `save` as far as it goes and checks its checkpoints: the one path every save takes
/// when it is opened to play on or verified. Never panics: a command the rules stop on is
/// caught and named. `Err` only when not even the start replays. The replay keeps the log (the
/// match is played on); `open_keeping` with `Keep::Checkpoints` only verifies.
pub fn open(origin: &Origin, save: &Save) -> Result<Opened, String> {
    open_keeping(origin, save, Keep::Log)
}

/// `open`, the replay keeping what `keep` says. A save that replays to its end is replayed once;
/// one that does not is replayed a second time only as far as it goes (none of it when it parts
/// at the start), for the match there.
pub fn open_keeping(origin: &Origin, save: &Save, keep: Keep) -> Result<Opened, String> {
    let n = save.commands.len();
    let (good, problem, r) = match run_catching_keeping(origin, &save.commands, keep) {
        Ok(r) => match verify_detail(save, &r) {
            Ok(_) => return Ok(Opened { replay: r, good: n, problem: None }),
            Err(mismatch) => {
                // The last checkpoint that matched, or the first command refused after it
                // (a command edited to be illegal is refused where it stands).
                let from = mismatch.last_good.unwrap_or(0);
                match r.first_refused(from, mismatch.first_bad) {
                    Some((k, why)) => (k, format!("{}; command {} was refused ({why})", mismatch.message, k + 1), Some(r)),
                    None => (from, mismatch.message, Some(r)),
                }
            }
        },
        Err((k, e)) => (k, e, None),
    };
    // The match as it stands after the `good` commands: the replay itself when that is all of
    // them, else a second replay that far (after a panic, the first one's match is unsound).
    let r = match r {
        Some(r) if r.played == good.min(n) => r,
        _ => run_catching_keeping(origin, &save.commands[..good.min(n)], keep).or_else(|_| run_catching_keeping(origin, &[], keep)).map_err(|(_, e)| e)?,
    };
    let good = if r.played == good { good } else { 0 };
    Ok(Opened { replay: r, good, problem: Some(problem) })
}

/// A save opened to be played on, made a save of this game's version ([`save::VERSION`]): an
/// older save's replay (checked with its own version's state hash) has its checkpoints taken
/// again with this version's, by one more replay of its commands, so that the match goes on
/// with one hash (its autosaves, undo, and a hosted match's checkpoints, compared with the
/// clients' of this version). A save of this version is returned as it is.
pub fn upgraded(origin: Origin, mut r: Replay, save: &Save) -> (Origin, Replay, Save) {
    let mut save = save.clone();
    if origin.version == save::VERSION && save.version == save::VERSION {
        return (origin, r, save);
    }
    let origin = Origin { version: save::VERSION, ..origin };
    // The replay is the save's (`open`): its commands are the save's first `played`.
    let again = Replay::run_keeping(&origin, &save.commands[..r.played.min(save.commands.len())], Keep::Checkpoints);
    r.checkpoints = again.checkpoints;
    r.refusals = again.refusals;
    r.version = save::VERSION;
    save.version = save::VERSION;
    save.checkpoints.clear();
    (origin, r, save)
}

/// Replays `commands`, one at a time, a panic in the rules caught: `Err` names the command it
/// stopped on.
pub fn run_catching(origin: &Origin, commands: &[Command]) -> Result<Replay, (usize, String)> {
    run_catching_keeping(origin, commands, Keep::Log)
}

/// `run_catching`, the replay keeping what `keep` says.
pub fn run_catching_keeping(origin: &Origin, commands: &[Command], keep: Keep) -> Result<Replay, (usize, String)> {
    let mut r = catch(|| Replay::start_keeping(origin, keep)).map_err(|e| (0, format!("the match could not be started: {e}")))?;
    for (k, c) in commands.iter().enumerate() {
        if let Err(e) = catch(|| {
            let _ = r.push(c);
        }) {
            return Err((k, format!("the rules stopped on command {} ({}): {e}", k + 1, crate::rules::a4::acts::command_name(c))));
        }
    }
    Ok(r)
}

/// Runs `f`, turning a panic into its message (a panic hook, if any, has logged it already).
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| panic_message(p.as_ref()))
}

/// A panic's message.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(a panic without a message)".to_string()
    }
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
pub fn verify(save: &Save, r: &Replay) -> Result<usize, String> {
    verify_detail(save, r).map_err(|m| m.message)
}

/// `verify`, saying where the checkpoints part. A `saved:` checkpoint (the state when the save
/// was written) is compared with the replay's state after all its commands.
pub fn verify_detail(save: &Save, r: &Replay) -> Result<usize, Mismatch> {
    let got = &r.checkpoints;
    let played = r.played;
    let mut last_good = None;
    let since = |last_good: Option<usize>| last_good.map_or("the start".to_string(), |c| format!("command {c}"));
    for (k, want) in save.checkpoints.iter().enumerate() {
        if let Some(h) = want.hash.strip_prefix(SAVED) {
            let now = r.hash();
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

/// The save cut after its first `n` commands (its checkpoints up to there, no AI plan): what
/// "continue from the last command that replays" plays on from.
pub fn truncated(save: &Save, n: usize) -> Save {
    let mut s = save.clone();
    s.commands.truncate(n);
    // A turn's checkpoint is taken as its first command is about to be played: those after
    // the cut are never reached.
    s.checkpoints.retain(|c| c.commands < n && !c.hash.starts_with(SAVED) && !c.hash.starts_with(END));
    s.ai_plan = None;
    s
}
