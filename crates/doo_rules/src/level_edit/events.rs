//! The level's events in the editor (issue 31): a story line when a side enters the spaces
//! selected, its text, its removal, and each event in words for the panel. The full trigger and
//! action set (docs/levels.md "Level events") is written in the file; the editor keeps every
//! event it did not touch as it was.

use super::brush::{Rect, pos, unique};
use super::doc::Doc;
use crate::rules::story::{Action, Area, EventDef, MAX_EVENTS, MAX_TEXT, Trigger, Who};

impl Doc {
    /// A new event: when the first side enters `area` (on the floor in view), a message.
    pub fn add_event(&mut self, area: Rect, text: &str) -> bool {
        if self.level.events.len() >= MAX_EVENTS {
            return false;
        }
        let who = self.level.sides.first().map_or(Who::Any, |s| Who::Side(s.id.clone()));
        let text: String = text.chars().take(MAX_TEXT).collect();
        self.edit(|l, f| {
            let taken: Vec<String> = l.events.iter().map(|e| e.id.clone()).collect();
            let area = Area { from: pos(area.x0, area.y0, f), to: pos(area.x1, area.y1, f) };
            l.events.push(EventDef {
                id: unique("event", &taken),
                when: Trigger::Enters { area, who },
                repeat: false,
                after: None,
                only_if: None,
                times: None,
                then: vec![Action::Message(text)],
            });
        })
    }

    pub fn remove_event(&mut self, k: usize) -> bool {
        self.edit(|l, _| {
            if k < l.events.len() {
                l.events.remove(k);
            }
        })
    }

    /// The event's story line: its first message's text (a message is added when it has none).
    pub fn set_event_message(&mut self, k: usize, text: &str) -> bool {
        let text: String = text.chars().take(MAX_TEXT).collect();
        self.edit(|l, _| {
            let Some(e) = l.events.get_mut(k) else { return };
            match e.then.iter_mut().find_map(|a| if let Action::Message(m) = a { Some(m) } else { None }) {
                Some(m) => *m = text,
                None => e.then.insert(0, Action::Message(text)),
            }
        })
    }

    /// The event's first message (empty when it has none).
    pub fn event_message(&self, k: usize) -> String {
        self.level.events.get(k).and_then(|e| e.then.iter().find_map(|a| if let Action::Message(m) = a { Some(m.clone()) } else { None })).unwrap_or_default()
    }

    /// The event in words: its id, when it fires, what it does.
    pub fn event_line(&self, k: usize) -> String {
        let Some(e) = self.level.events.get(k) else { return String::new() };
        let who = |w: &Who| match w {
            Who::Any => "anyone".to_string(),
            Who::Side(s) => s.clone(),
            Who::Figure(f) => f.clone(),
        };
        let when = match &e.when {
            Trigger::Enters { area, who: w } => format!("{} in ({},{})-({},{})", who(w), area.from.x, area.from.y, area.to.x, area.to.y),
            Trigger::DoorOpens { at } => format!("the door at ({}, {}) opens", at.x, at.y),
            Trigger::ItemTaken { item } => format!("{item} is taken"),
            Trigger::Falls { who: w } => format!("{} falls", who(w)),
            Trigger::Turn(n) => format!("turn {n}"),
            Trigger::Minute(n) => format!("minute {n}"),
            Trigger::CrisisBegins => "a crisis begins".into(),
            Trigger::CrisisEnds => "a crisis ends".into(),
            Trigger::Acted { what, who: w, how } => {
                let what = super::write::compact(what);
                format!("{} does {what}{}", who(w), how.as_deref().map(|h| format!(" ({h})")).unwrap_or_default())
            }
            Trigger::Offered { what, who: w } => format!("{} is offered a {}", who(w), super::write::compact(what)),
            Trigger::RoundEnds => "a round ends".into(),
            Trigger::Sighted { who: w, by } => format!("{} is sighted by {by}", who(w)),
            Trigger::TrapSprung { who: w, .. } => format!("{} springs a trap", who(w)),
            Trigger::HpAtMost { who: w, hp } => format!("{} at {hp} HP or less", who(w)),
        };
        let what: Vec<&str> = e
            .then
            .iter()
            .map(|a| match a {
                Action::Message(_) => "message",
                Action::StartCrisis { .. } => "start a crisis",
                Action::Door { .. } => "set a door",
                Action::Reveal { .. } => "reveal",
                Action::Give { .. } => "give",
                Action::Take { .. } => "take",
                Action::Win(_) => "win",
                Action::Lose(_) => "lose",
                Action::Stance { .. } => "stance",
                Action::Spawn(_) => "spawn",
                Action::Orders { .. } => "orders",
                Action::Tile { .. } => "tile",
                Action::SetVar { .. } => "set a variable",
                Action::AddVar { .. } => "add to a variable",
                Action::AwardCp { .. } => "award CP",
                Action::OneOf(_) => "one of",
                Action::Choice { .. } => "a choice",
            })
            .collect();
        format!("{}: {when}: {}", e.id, what.join(", "))
    }

    /// The spaces each `enters` event watches on the floor in view (the map shows them).
    pub fn event_areas(&self) -> Vec<(String, Rect)> {
        self.level
            .events
            .iter()
            .filter_map(|e| match &e.when {
                Trigger::Enters { area, .. } if area.from.floor as usize == self.floor => {
                    Some((e.id.clone(), Rect::new((area.from.x, area.from.y), (area.to.x, area.to.y))))
                }
                _ => None,
            })
            .collect()
    }
}
