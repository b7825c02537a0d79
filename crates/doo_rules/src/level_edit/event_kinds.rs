//! An event's trigger and deed in the editor (issue 31): each cycled through the kinds the
//! level can use, with values taken from the level (its first door, an item that lies somewhere,
//! its last side, the event's own area), so that each step is an event `validate` accepts. Its
//! story line is typed (`events.rs`); a `spawn` is set from the figure that arrives
//! (`features.rs`); the rest (stance, take, other values) is written in the file.

use super::doc::Doc;
use crate::level_crawl::LevelMode;
use crate::level_file::Level;
use crate::rules::grid::Pos;
use crate::rules::story::{Action, Area, DoorState, Trigger, Who};

/// The first door on the map (any floor).
fn first_door(l: &Level) -> Option<Pos> {
    l.floors.iter().enumerate().find_map(|(f, rows)| {
        rows.iter().enumerate().find_map(|(y, r)| r.chars().position(|c| matches!(c, '+' | '/' | 'L' | 'S')).map(|x| Pos::on(x as i32, y as i32, f as u8)))
    })
}

/// An item some figure could take: one lying on a space, or in a chest.
fn first_item(l: &Level) -> Option<String> {
    l.items.first().map(|i| i.item.clone()).or_else(|| l.chests.iter().find_map(|c| c.items.first().cloned()))
}

fn crawl(l: &Level) -> bool {
    l.mode == LevelMode::Exploration
}

/// The triggers the level can use after `now`, in the editor's order (`None`: back to `enters`).
fn next_trigger(l: &Level, now: &Trigger) -> Option<Trigger> {
    let order = |t: &Trigger| match t {
        Trigger::Enters { .. } => 0,
        Trigger::DoorOpens { .. } => 1,
        Trigger::ItemTaken { .. } => 2,
        Trigger::Falls { .. } => 3,
        Trigger::Turn(_) => 4,
        Trigger::Minute(_) => 5,
        Trigger::CrisisBegins => 6,
        Trigger::CrisisEnds => 7,
        // Written in the file (issue 43's tutorial steps): the cycle goes back to `enters`.
        // Written in the file, or set in the event's form (issue 46): the cycle goes back to
        // `enters`.
        _ => 8,
    };
    let last_side = l.sides.last().map(|s| s.id.clone());
    let all: [Option<Trigger>; 8] = [
        None,
        first_door(l).map(|at| Trigger::DoorOpens { at }),
        first_item(l).map(|item| Trigger::ItemTaken { item }),
        last_side.map(|s| Trigger::Falls { who: Who::Side(s) }),
        Some(Trigger::Turn(2)),
        crawl(l).then_some(Trigger::Minute(10)),
        crawl(l).then_some(Trigger::CrisisBegins),
        Some(Trigger::CrisisEnds),
    ];
    all.into_iter().skip(order(now) + 1).flatten().next()
}

/// The deeds (actions besides the story line and a spawn) after the event's `now`, in order.
fn next_deed(l: &Level, now: Option<&Action>, area: Option<Area>) -> Option<Action> {
    let order = |a: Option<&Action>| match a {
        None => 0,
        Some(Action::Win(_)) => 1,
        Some(Action::Lose(_)) => 2,
        Some(Action::Door { .. }) => 3,
        Some(Action::StartCrisis { .. }) => 4,
        Some(Action::Reveal { .. }) => 5,
        Some(Action::Give { .. }) => 6,
        Some(_) => 7,
    };
    let first_side = l.sides.first().map(|s| s.id.clone());
    let figure = l.characters.iter().find(|c| c.side == first_side).and_then(|c| c.id.clone());
    let all: [Option<Action>; 7] = [
        None,
        first_side.clone().map(Action::Win),
        first_side.map(Action::Lose),
        first_door(l).map(|at| Action::Door { at, state: DoorState::Open }),
        crawl(l).then(|| Action::StartCrisis { encounters: vec![], surprised: None }),
        area.filter(|_| crawl(l)).map(|area| Action::Reveal { area, side: None }),
        figure.map(|figure| Action::Give { figure, item: "potion_of_healing".into() }),
    ];
    all.into_iter().skip(order(now) + 1).flatten().next()
}

fn is_deed(a: &Action) -> bool {
    !matches!(a, Action::Message(_) | Action::Spawn(_))
}

impl Doc {
    /// The event's trigger, cycled: enters (its area) → the first door opens → an item lying
    /// somewhere is taken → a figure of the last side falls → turn 2 → minute 10 and a crisis
    /// begins (crawls) → a crisis ends → enters again.
    pub fn cycle_trigger(&mut self, k: usize) -> bool {
        let Some(e) = self.level.events.get(k) else { return false };
        let id = e.id.clone();
        if let Trigger::Enters { area, .. } = &e.when {
            self.areas.insert(id.clone(), *area);
        }
        let area = self.areas.get(&id).copied();
        let who = self.level.sides.first().map_or(Who::Any, |s| Who::Side(s.id.clone()));
        self.edit(|l, f| {
            let Some(now) = l.events.get(k).map(|e| e.when.clone()) else { return };
            let next = next_trigger(l, &now).unwrap_or_else(|| {
                let p = Pos::on(1, 1, f as u8);
                Trigger::Enters { area: area.unwrap_or(Area { from: p, to: p }), who }
            });
            l.events[k].when = next;
        })
    }

    /// What the event does besides its story line (and a figure's arrival), cycled: nothing →
    /// the first side wins → it loses → the first door opens → a crisis starts and reveal its
    /// area (crawls) → a potion for the first side's first figure → nothing.
    pub fn cycle_deed(&mut self, k: usize) -> bool {
        let Some(e) = self.level.events.get(k) else { return false };
        let area = match &e.when {
            Trigger::Enters { area, .. } => Some(*area),
            _ => self.areas.get(&e.id).copied(),
        };
        self.edit(|l, _| {
            let Some(e) = l.events.get(k) else { return };
            let now = e.then.iter().find(|a| is_deed(a)).cloned();
            let next = next_deed(l, now.as_ref(), area);
            let e = &mut l.events[k];
            e.then.retain(|a| !is_deed(a));
            if let Some(a) = next {
                e.then.push(a);
            }
            // An event does something: with nothing else, a story line (empty until typed).
            if e.then.is_empty() {
                e.then.push(Action::Message(String::new()));
            }
        })
    }
}
