//! What happened in the match, as JSON lines (the runner's output, the game's combat log):
//! command verdicts, rules events, each tagged with the command that caused it.

use crate::rules::Event;
use crate::rules::victory::Outcome;
use bevy::prelude::*;
use serde_json::{Value, json};

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

/// Every line so far, in order.
#[derive(Resource, Debug, Default)]
pub struct MatchLog {
    pub lines: Vec<Value>,
    /// Index of the command being processed (events are tagged with it).
    pub index: Option<usize>,
}

/// How the match ended, once the rules said so (`Event::CrisisOver`): the window's result
/// screen, `doo simulate` and `doo run` all read it here.
#[derive(Resource, Debug, Clone, Default)]
pub struct MatchOutcome(pub Option<Outcome>);

/// A rules event, for the UI.
#[derive(Message, Debug, Clone)]
pub struct RulesEvent(pub Event);

impl MatchLog {
    pub fn push_event(&mut self, e: &Event) {
        let mut v = serde_json::to_value(e).unwrap_or(Value::Null);
        if let Value::Object(o) = &mut v {
            let mut line = serde_json::Map::new();
            line.insert("type".into(), json!("event"));
            line.insert("index".into(), json!(self.index));
            line.extend(std::mem::take(o));
            v = Value::Object(line);
        }
        self.lines.push(v);
    }
}

/// Moves this frame's events into the log and out as messages (Present).
pub fn publish_events(mut buffer: ResMut<EventBuffer>, mut log: ResMut<MatchLog>, mut outcome: ResMut<MatchOutcome>, mut out: MessageWriter<RulesEvent>) {
    for e in buffer.0.drain(..) {
        if let Event::CrisisOver { winner, goal, reason } = &e {
            outcome.0 = Some(Outcome { winner: winner.clone(), goal: goal.clone(), reason: reason.clone() });
        }
        log.push_event(&e);
        out.write(RulesEvent(e));
    }
}
