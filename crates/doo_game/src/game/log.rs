//! What happened in the match: command verdicts and rules events, each tagged with the command
//! that caused it. Kept typed (`entries`, what the HUD describes) and as JSON lines (`lines`,
//! the runner's output and the window's `--log`); both are appended together, only here.

use bevy::prelude::*;
use doo_rules::replay::LogEntry;
use doo_rules::rules::driver;
use doo_rules::rules::victory::Outcome;
use doo_rules::rules::{Command, Event, Violation};
use serde_json::Value;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<EventBuffer>()
        .init_resource::<MatchLog>()
        .init_resource::<MatchOutcome>()
        .add_message::<RulesEvent>()
        .add_systems(Update, publish_events.in_set(super::MatchSystems::Present));
}

/// Events produced this frame, not yet published.
#[derive(Resource, Debug, Default)]
pub struct EventBuffer(pub Vec<Event>);

/// Every entry so far, in order, typed and as JSON lines (same length, same order).
#[derive(Resource, Debug, Default)]
pub struct MatchLog {
    entries: Vec<LogEntry>,
    lines: Vec<Value>,
    /// Index of the command being processed (events are tagged with it).
    pub index: Option<usize>,
    /// Entries before this one were played elsewhere (a replay: resume, undo, the replay
    /// viewer): displays of what just happened (the reset ticker) start here.
    pub shown_from: usize,
}

/// How the match ended, once the rules said so (`Event::CrisisOver`): the window's result
/// screen, `doo simulate` and `doo run` all read it here.
#[derive(Resource, Debug, Clone, Default)]
pub struct MatchOutcome(pub Option<Outcome>);

/// A rules event, for the UI.
#[derive(Message, Debug, Clone)]
pub struct RulesEvent(pub Event);

impl MatchLog {
    /// The typed entries, for the UI.
    pub fn entries(&self) -> &[LogEntry] {
        &self.entries
    }

    /// The same entries as JSON lines (docs/scripts.md documents them).
    pub fn lines(&self) -> &[Value] {
        &self.lines
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The first `len` entries (the log as it stood then: the replay viewer).
    pub fn truncated(&self, len: usize) -> MatchLog {
        let len = len.min(self.entries.len());
        MatchLog { entries: self.entries[..len].to_vec(), lines: self.lines[..len].to_vec(), index: None, shown_from: len }
    }

    /// The log a replay kept (`doo_rules::replay`), every entry as if shown already.
    pub fn of_replay(entries: &[LogEntry]) -> MatchLog {
        let mut log = MatchLog::default();
        for e in entries {
            match e {
                LogEntry::Verdict { index, command, result } => log.push_verdict(*index, command.clone(), result.clone()),
                LogEntry::Event { index, event, seen_by } => {
                    log.index = *index;
                    log.push_event(event, seen_by.clone());
                }
            }
        }
        log.index = None;
        log.shown_from = log.len();
        log
    }

    /// The verdict line comes before the events the command caused.
    pub fn push_verdict(&mut self, index: usize, command: Command, result: Result<(), Violation>) {
        self.push(LogEntry::Verdict { index, command, result });
    }

    /// An event and, in a crawl, the sides that saw it (`driver::seen_by`, written as the
    /// line's `seen_by`).
    pub fn push_event(&mut self, e: &Event, seen_by: Option<Vec<String>>) {
        self.push(LogEntry::Event { index: self.index, event: e.clone(), seen_by });
    }

    /// The entry and its line as `doo run` prints it (`LogEntry::line`, one writer for both).
    fn push(&mut self, entry: LogEntry) {
        self.lines.push(entry.line());
        self.entries.push(entry);
    }
}

/// Moves this frame's events into the log and out as messages (Present). Who saw each is asked
/// of the match as the command left it (R-EXP-19).
pub fn publish_events(
    mut buffer: ResMut<EventBuffer>,
    mut log: ResMut<MatchLog>,
    mut outcome: ResMut<MatchOutcome>,
    mut out: MessageWriter<RulesEvent>,
    state: Option<Res<super::components::MatchState>>,
) {
    for e in buffer.0.drain(..) {
        if let Event::CrisisOver { winner, goal, reason } = &e {
            outcome.0 = Some(Outcome { winner: winner.clone(), goal: goal.clone(), reason: reason.clone() });
        }
        let seen_by = state.as_ref().and_then(|s| driver::seen_by(&s.0, &e));
        log.push_event(&e, seen_by);
        out.write(RulesEvent(e));
    }
}

/// `publish_events` at once, outside the schedule (a match just started: its opening events
/// come before any command's verdict).
pub fn publish_now(world: &mut World) {
    let events = std::mem::take(&mut world.resource_mut::<EventBuffer>().0);
    for e in events {
        if let Event::CrisisOver { winner, goal, reason } = &e {
            world.resource_mut::<MatchOutcome>().0 = Some(Outcome { winner: winner.clone(), goal: goal.clone(), reason: reason.clone() });
        }
        let seen_by = world.get_resource::<super::components::MatchState>().and_then(|s| driver::seen_by(&s.0, &e));
        world.resource_mut::<MatchLog>().push_event(&e, seen_by);
        world.write_message(RulesEvent(e));
    }
}
