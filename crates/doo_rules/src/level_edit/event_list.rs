//! The steps of an action list in the event form (issue 46): the event's own or, through
//! `event_nest`, a `one_of`'s branch's or a choice option's: an action's kind (within the caps
//! on the event's actions), its fields (an `orders` action's through `orders_form`), up,
//! remove, add; and the `spawn`s `validate` counts (the last one of an encounter that arrives
//! later is not stepped away).

use super::event_more::Lists;
use super::event_target::{F, Target, action_kinds, crawl, step_kind};
use super::form_row::step;
use super::orders_form::OrderCtx;
use crate::level_file::Level;
use crate::rules::story::{Action, Area, DoorState};

fn step_field(act: &mut Action, field: F, dir: i8, ls: &Lists, sel: Area) {
    let opt_sides: Vec<Option<String>> = std::iter::once(None).chain(ls.sides.iter().cloned().map(Some)).collect();
    match (act, field) {
        (Action::Win(s) | Action::Lose(s), F::Side) => {
            if let Some(n) = step(&ls.sides, s, dir) {
                *s = n;
            }
        }
        (Action::StartCrisis { surprised: s, .. } | Action::Reveal { side: s, .. }, F::OptSide) => {
            if let Some(n) = step(&opt_sides, s, dir) {
                *s = n;
            }
        }
        (Action::StartCrisis { encounters, .. }, F::Encounters) => {
            // None, every encounter, then each alone.
            let mut choices: Vec<Vec<String>> = vec![vec![]];
            if ls.encounters.len() > 1 {
                choices.push(ls.encounters.clone());
            }
            choices.extend(ls.encounters.iter().map(|e| vec![e.clone()]));
            if let Some(n) = step(&choices, encounters, dir) {
                *encounters = n;
            }
        }
        (Action::StartCrisis { encounters, .. }, F::Alerts(i)) => {
            if let Some(e) = ls.encounters.get(i) {
                if encounters.contains(e) {
                    encounters.retain(|x| x != e);
                } else {
                    // In the level's order, whatever order they were chosen in.
                    encounters.push(e.clone());
                    encounters.sort_by_key(|x| ls.encounters.iter().position(|y| y == x).unwrap_or(usize::MAX));
                }
            }
        }
        (Action::Door { at, .. }, F::Door) => {
            if let Some(p) = step(&ls.doors, at, dir) {
                *at = p;
            }
        }
        (Action::Door { state, .. }, F::DoorState) => {
            if let Some(s) = step(&[DoorState::Open, DoorState::Closed, DoorState::Locked], state, dir) {
                *state = s;
            }
        }
        (Action::Reveal { area, .. }, F::Area) => *area = sel,
        (Action::Give { figure, .. } | Action::Take { figure, .. }, F::Figure) => {
            if let Some(n) = step(&ls.figures, figure, dir) {
                *figure = n;
            }
        }
        (Action::Give { item, .. } | Action::Take { item, .. }, F::Item) => {
            if let Some(n) = step(&ls.items, item, dir) {
                *item = n;
            }
        }
        (Action::Stance { encounter, .. } | Action::Orders { encounter, .. }, F::Encounter) => {
            if let Some(n) = step(&ls.encounters, encounter, dir) {
                *encounter = n;
            }
        }
        (Action::Spawn(e), F::Encounter) => {
            if let Some(n) = step(&ls.arriving, e, dir) {
                *e = n;
            }
        }
        (Action::Stance { hostile, .. }, F::Hostile) => *hostile = !*hostile,
        _ => {}
    }
}

/// The kind after (or before) action `now` that keeps `e` within its caps when it takes
/// `now`'s place at `path`/`a` (a `one_of` or a choice too deep, or too many actions: skipped).
fn fitting_kind(kinds: &[Action], e: &crate::rules::story::EventDef, path: &[(usize, usize)], a: usize, dir: i8) -> Option<Action> {
    let mut now = super::event_nest::list(&e.then, path)?.get(a)?.clone();
    for _ in 0..kinds.len() {
        let next = step_kind(kinds, &now, dir)?;
        let mut test = e.clone();
        if let Some(slot) = super::event_nest::list_mut(&mut test.then, path).and_then(|l| l.get_mut(a)) {
            *slot = next.clone();
        }
        if !super::event_nest::over_caps(&test) {
            return Some(next);
        }
        now = next;
    }
    None
}

/// A step of an action of the list at `path` (its kind, a field, up, remove, or one added);
/// the new action when its kind was chosen.
#[allow(clippy::too_many_arguments)]
pub(super) fn step_list(
    level: &Level,
    k: usize,
    path: &[(usize, usize)],
    t: Target,
    dir: i8,
    ls: &Lists,
    sel: Area,
    area: Area,
    l: &mut Level,
) -> Option<Action> {
    let kind = match t {
        Target::Kind(a) => fitting_kind(&action_kinds(level, ls, area), &level.events[k], path, a, dir).map(|n| (a, n)),
        _ => None,
    };
    let ctx = match t {
        Target::Field(a, F::Orders(_)) => match super::event_nest::list(&level.events[k].then, path).and_then(|v| v.get(a)) {
            Some(Action::Orders { encounter, .. }) => Some(encounter_ctx(level, ls, encounter, sel)),
            _ => None,
        },
        _ => None,
    };
    let list = super::event_nest::list_mut(&mut l.events[k].then, path)?;
    match t {
        Target::Kind(_) => {
            let (a, next) = kind?;
            list[a] = next.clone();
            return Some(next);
        }
        Target::Field(a, F::Orders(o)) => {
            if let (Some(Action::Orders { to, .. }), Some(cx)) = (list.get_mut(a), ctx) {
                super::orders_form::step_orders(level, to, o, dir, &cx);
            }
        }
        Target::Field(a, field) => {
            if let Some(act) = list.get_mut(a) {
                step_field(act, field, dir, ls, sel);
            }
        }
        Target::Up(a) => {
            if a > 0 && a < list.len() {
                list.swap(a - 1, a);
            }
        }
        Target::Remove(a) => {
            if a < list.len() {
                list.remove(a);
            }
            // An event does something: with nothing left, a story line (empty until typed). A
            // branch or an option may do nothing.
            if list.is_empty() && path.is_empty() {
                list.push(Action::Message(String::new()));
            }
        }
        Target::Add => list.push(Action::Message(String::new())),
        _ => {}
    }
    None
}

/// What an encounter's orders are chosen from: near its first member, the selection, the
/// figures not in it, the items, the other encounters (crawls).
fn encounter_ctx(l: &Level, ls: &Lists, encounter: &str, sel: Area) -> OrderCtx {
    let members: Vec<String> = l.encounters.iter().filter(|e| e.id == encounter).flat_map(|e| e.members.clone()).collect();
    let anchor = l
        .characters
        .iter()
        .filter(|c| c.id.as_ref().is_some_and(|id| members.contains(id)))
        .find_map(|c| c.pos)
        .unwrap_or_else(|| super::orders_form::first_standable(l));
    OrderCtx {
        anchor,
        sel: Some(sel),
        figures: ls.figures.iter().filter(|f| !members.contains(f)).cloned().collect(),
        items: super::orders_form::hunted(l),
        encounters: if crawl(l) { ls.encounters.iter().filter(|e| *e != encounter).cloned().collect() } else { vec![] },
    }
}

/// The encounters that arrive later which an event's own actions spawn (as `validate` counts
/// them: `level_file::check`'s arrivals).
pub(super) fn spawned(l: &Level) -> Vec<&str> {
    let spawns = |id: &str| l.events.iter().any(|d| d.then.iter().take(crate::rules::story::MAX_ACTIONS).any(|a| matches!(a, Action::Spawn(x) if x == id)));
    l.encounters.iter().filter(|e| e.arrives && spawns(&e.id)).map(|e| e.id.as_str()).collect()
}
