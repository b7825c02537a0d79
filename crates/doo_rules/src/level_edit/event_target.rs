//! What a row of the event form changes (`Target`, an action's field `F`), and the kinds of
//! action an action list steps through (issue 46), shared by `event_form` (the rows) and
//! `event_list` (the steps of an action list).

use super::event_cond::C;
use super::event_more::{Lists, M};
use super::event_vars::V;
use super::orders_form::OF;
use crate::level_crawl::LevelMode;
use crate::level_file::Level;
use crate::rules::story::{Action, Area, DoorState};

/// What a row changes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Target {
    TriggerKind,
    Who,
    TriggerArea,
    TriggerDoor,
    TriggerItem,
    TriggerNumber,
    TriggerDeed,
    /// An `acted` trigger's `how`: any, or a row of the level's profile for its deed.
    TriggerHow,
    TriggerOffer,
    Repeat,
    After,
    Kind(usize),
    Field(usize, F),
    Up(usize),
    Remove(usize),
    Add,
    /// Issue 46: a field of a new trigger (`None`) or action, or the event's `times`.
    More(Option<usize>, M),
    /// Issue 46: a field of the event's condition.
    Cond(C),
    /// Issue 46: back out of a nested list to the first n steps of its path.
    Out(usize),
    /// Issue 46: the branch or option the form is in, removed.
    RemoveHere,
    /// Issue 46: a row of the level's variables (`event_vars`).
    Var(V),
}

/// An action's fields.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum F {
    Text,
    Side,
    OptSide,
    Door,
    DoorState,
    Area,
    Figure,
    Item,
    Encounter,
    Hostile,
    Encounters,
    /// One encounter of the level (by its place in the list) alerted or not: any subset.
    Alerts(usize),
    Orders(OF),
}

pub(super) fn crawl(l: &Level) -> bool {
    l.mode == LevelMode::Exploration
}

/// The action kinds the level can use, each with its first values.
pub(super) fn action_kinds(l: &Level, ls: &Lists, area: Area) -> Vec<Action> {
    let side = ls.sides.first().cloned();
    let mut v = vec![Action::Message(String::new())];
    if crawl(l) {
        v.push(Action::StartCrisis { encounters: vec![], surprised: None });
    }
    if let Some(at) = ls.doors.first() {
        v.push(Action::Door { at: *at, state: DoorState::Open });
    }
    if crawl(l) {
        v.push(Action::Reveal { area, side: None });
    }
    if let (Some(figure), Some(item)) = (ls.figures.first(), ls.items.first()) {
        v.push(Action::Give { figure: figure.clone(), item: item.clone() });
        v.push(Action::Take { figure: figure.clone(), item: item.clone() });
    }
    if let Some(s) = side {
        v.extend([Action::Win(s.clone()), Action::Lose(s)]);
    }
    if let Some(e) = ls.encounters.first() {
        v.push(Action::Stance { encounter: e.clone(), hostile: true });
    }
    if let Some(e) = ls.arriving.first() {
        v.push(Action::Spawn(e.clone()));
    }
    if let Some(e) = ls.encounters.first() {
        v.push(Action::Orders { encounter: e.clone(), to: None });
    }
    v.extend(super::event_more::action_kinds(ls, area));
    v
}

fn same_kind<T>(a: &T, b: &T) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
}

/// The kind after (or before) `now` among `kinds` (matched by kind, not value).
pub(super) fn step_kind<T: Clone>(kinds: &[T], now: &T, dir: i8) -> Option<T> {
    let n = kinds.len() as i64;
    if n == 0 {
        return None;
    }
    let i = kinds.iter().position(|k| same_kind(k, now)).map_or(0, |i| (i as i64 + dir.signum() as i64).rem_euclid(n));
    Some(kinds[i as usize].clone())
}
