//! An event's condition (`only_if`, issue 46) in the form, edited flat: all or any of a list of
//! clauses (a door's state, a figure holding an item, a variable's bounds, an event fired), each
//! with its own `not`. A condition the file nests deeper than that is shown and kept as the
//! file has it (its one row removes it whole).

use super::event_more::{Lists, first_var, who_list};
use super::form_row::RowKind;
use crate::level_file::Level;
use crate::rules::grid::Pos;
use crate::rules::story::{Cond, DoorState, MAX_COND_NODES, Who};

/// A field of the condition.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum C {
    /// All or any.
    Combine,
    /// A clause's kind, its `not`, its fields, its removal.
    Kind(usize),
    Not(usize),
    Door(usize),
    State(usize),
    Who(usize),
    Item(usize),
    Var(usize),
    AtLeast(usize),
    AtMost(usize),
    Event(usize),
    Remove(usize),
    /// The condition the form cannot show flat, removed whole.
    Clear,
    /// A clause added.
    Add,
}

/// A row of the condition: label, value, kind, field.
pub(super) type CondRow = (&'static str, String, RowKind, C);

/// The condition as the form edits it: whether any clause will do (else all must hold), and
/// each clause with its `not`. `None` when it nests deeper.
pub(super) fn flat(c: &Cond) -> Option<(bool, Vec<(bool, Cond)>)> {
    let leaf = |c: &Cond| match c {
        Cond::Not(inner) if !matches!(**inner, Cond::All(_) | Cond::Any(_) | Cond::Not(_)) => Some((true, (**inner).clone())),
        Cond::All(_) | Cond::Any(_) | Cond::Not(_) => None,
        c => Some((false, c.clone())),
    };
    match c {
        Cond::All(v) => v.iter().map(leaf).collect::<Option<Vec<_>>>().map(|v| (false, v)),
        Cond::Any(v) => v.iter().map(leaf).collect::<Option<Vec<_>>>().map(|v| (true, v)),
        c => leaf(c).map(|l| (false, vec![l])),
    }
}

/// The condition of the flat form (`None`: no clause, always).
fn build(any: bool, clauses: Vec<(bool, Cond)>) -> Option<Cond> {
    let v: Vec<Cond> = clauses.into_iter().map(|(not, c)| if not { Cond::Not(Box::new(c)) } else { c }).collect();
    match (v.len(), any) {
        (0, _) => None,
        (1, _) => v.into_iter().next(),
        (_, true) => Some(Cond::Any(v)),
        (_, false) => Some(Cond::All(v)),
    }
}

fn at(p: &Pos) -> String {
    if p.floor == 0 { format!("({}, {})", p.x, p.y) } else { format!("({}, {}) floor {}", p.x, p.y, p.floor + 1) }
}

fn bound(v: i32) -> String {
    if v == i32::MIN || v == i32::MAX { "none".into() } else { v.to_string() }
}

/// The condition's rows.
pub(super) fn rows(c: Option<&Cond>) -> Vec<CondRow> {
    let Some(c) = c else { return vec![("only if", "+ condition".into(), RowKind::Add, C::Add)] };
    let Some((any, clauses)) = flat(c) else {
        return vec![("only if", super::write::compact(c), RowKind::Shown, C::Clear), ("", "remove".into(), RowKind::Remove, C::Clear)];
    };
    let mut v: Vec<CondRow> = vec![("only if", if any { "any of".into() } else { "all of".into() }, RowKind::Choice, C::Combine)];
    for (i, (not, c)) in clauses.iter().enumerate() {
        let kind = match c {
            Cond::Door { .. } => "a door is",
            Cond::Holds { .. } => "someone holds",
            Cond::Var { .. } => "a variable is",
            Cond::Fired(_) => "an event fired",
            _ => "",
        };
        v.push(("if", kind.into(), RowKind::Choice, C::Kind(i)));
        v.push(("not", if *not { "not".into() } else { "-".into() }, RowKind::Toggle, C::Not(i)));
        match c {
            Cond::Door { at: p, state } => {
                v.extend([("door", at(p), RowKind::Choice, C::Door(i)), ("state", super::write::compact(state), RowKind::Choice, C::State(i))])
            }
            Cond::Holds { who, item } => {
                let w = match who {
                    Who::Any => "anyone".into(),
                    Who::Side(s) => format!("side {s}"),
                    Who::Figure(f) => format!("figure {f}"),
                };
                v.extend([("who", w, RowKind::Choice, C::Who(i)), ("item", item.clone(), RowKind::Choice, C::Item(i))]);
            }
            Cond::Var { name, at_least, at_most } => v.extend([
                ("variable", name.clone(), RowKind::Choice, C::Var(i)),
                ("at least", bound(*at_least), RowKind::Number, C::AtLeast(i)),
                ("at most", bound(*at_most), RowKind::Number, C::AtMost(i)),
            ]),
            Cond::Fired(id) => v.push(("event", id.clone(), RowKind::Choice, C::Event(i))),
            _ => {}
        }
        v.push(("", "remove".into(), RowKind::Remove, C::Remove(i)));
    }
    if clauses.len() < MAX_COND_NODES - 1 {
        v.push(("", "+ condition".into(), RowKind::Add, C::Add));
    }
    v
}

/// The clause kinds the level can use, each with its first values.
fn kinds(ls: &Lists, me: &str) -> Vec<Cond> {
    let mut v = vec![];
    if let Some(at) = ls.doors.first() {
        v.push(Cond::Door { at: *at, state: DoorState::Open });
    }
    if let Some(item) = ls.items.first() {
        v.push(Cond::Holds { who: Who::Any, item: item.clone() });
    }
    let name = ls.vars.first().cloned().unwrap_or_else(|| "counter".into());
    v.push(Cond::Var { name, at_least: 1, at_most: i32::MAX });
    if let Some(e) = ls.events.iter().find(|e| *e != me) {
        v.push(Cond::Fired(e.clone()));
    }
    v
}

fn step_in<T: PartialEq + Clone>(list: &[T], now: &mut T, dir: i8) {
    if let Some(n) = super::form_row::step(list, now, dir) {
        *now = n;
    }
}

/// A bound stepped: from none to 0, then by one (clamped to ±9999).
fn step_bound(v: &mut i32, dir: i8) {
    *v = if *v == i32::MIN || *v == i32::MAX { 0 } else { (*v as i64 + dir.signum() as i64).clamp(-9999, 9999) as i32 };
}

/// Event `k`'s condition, field `f` stepped by `dir`.
pub(super) fn step(l: &mut Level, k: usize, f: C, dir: i8, ls: &Lists) {
    let Some(me) = l.events.get(k).map(|e| e.id.clone()) else { return };
    let now = l.events[k].only_if.clone();
    if f == C::Clear {
        l.events[k].only_if = None;
        return;
    }
    let (mut any, mut clauses) = match now.as_ref() {
        None => (false, vec![]),
        Some(c) => match flat(c) {
            Some(x) => x,
            None => return,
        },
    };
    let kinds = kinds(ls, &me);
    let who = who_list(ls);
    match f {
        C::Combine => any = !any,
        C::Add => {
            if clauses.len() < MAX_COND_NODES - 1
                && let Some(c) = kinds.first()
            {
                clauses.push((false, c.clone()));
            }
        }
        C::Remove(i) if i < clauses.len() => {
            clauses.remove(i);
        }
        C::Kind(i) if i < clauses.len() => {
            let n = kinds.len() as i64;
            let pos = kinds.iter().position(|k| std::mem::discriminant(k) == std::mem::discriminant(&clauses[i].1));
            if n > 0 {
                let j = pos.map_or(0, |p| (p as i64 + dir.signum() as i64).rem_euclid(n));
                clauses[i].1 = kinds[j as usize].clone();
            }
        }
        C::Not(i) if i < clauses.len() => clauses[i].0 = !clauses[i].0,
        _ => {
            let i = match f {
                C::Door(i) | C::State(i) | C::Who(i) | C::Item(i) | C::Var(i) | C::AtLeast(i) | C::AtMost(i) | C::Event(i) => i,
                _ => return,
            };
            let others: Vec<String> = ls.events.iter().filter(|e| **e != me).cloned().collect();
            let Some((_, c)) = clauses.get_mut(i) else { return };
            match (c, f) {
                (Cond::Door { at, .. }, C::Door(_)) => step_in(&ls.doors, at, dir),
                (Cond::Door { state, .. }, C::State(_)) => step_in(&[DoorState::Open, DoorState::Closed, DoorState::Locked], state, dir),
                (Cond::Holds { who: w, .. }, C::Who(_)) => step_in(&who, w, dir),
                (Cond::Holds { item, .. }, C::Item(_)) => step_in(&ls.items, item, dir),
                (Cond::Var { name, .. }, C::Var(_)) => step_in(&ls.vars, name, dir),
                (Cond::Var { at_least, .. }, C::AtLeast(_)) => step_bound(at_least, dir),
                (Cond::Var { at_most, .. }, C::AtMost(_)) => step_bound(at_most, dir),
                (Cond::Fired(id), C::Event(_)) => step_in(&others, id, dir),
                _ => {}
            }
        }
    }
    // A variable named is declared (`counter`, at 0, when the level has none).
    if clauses.iter().any(|(_, c)| matches!(c, Cond::Var { .. })) && l.vars.is_empty() {
        first_var(l);
    }
    l.events[k].only_if = build(any, clauses);
}
