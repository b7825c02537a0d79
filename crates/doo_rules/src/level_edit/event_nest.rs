//! The actions nested in an event's `one_of` and `choice` in the event form (issue 46): the
//! form shows one action list at a time, the event's own or a branch's or an option's (its
//! scope, a path of (action, branch) steps kept in the `Doc`). A branch's or option's row
//! (`▸ edit`) steps into its list, which then has the same rows as the event's own (each
//! action's kind and fields, up, remove, `+ action`); the `inside` rows step back out, and
//! remove the branch or option (2 are kept). Every step keeps the event within the format's
//! caps (`event_logic::actions_problem`: `MAX_ACTIONS` in all, nested `MAX_ACTION_DEPTH` deep):
//! one that would break them is refused.

use super::doc::Doc;
use crate::rules::story::{Action, EventDef};

/// A scope: (action, branch or option) steps from the event's own list.
pub(super) type Path = Vec<(usize, usize)>;

/// The list nested in action `a` at `i` (a `one_of`'s branch, a choice's option's actions).
fn nested(a: &Action, i: usize) -> Option<&Vec<Action>> {
    match a {
        Action::OneOf(b) => b.get(i),
        Action::Choice { options, .. } => options.get(i).map(|o| &o.then),
        _ => None,
    }
}

fn nested_mut(a: &mut Action, i: usize) -> Option<&mut Vec<Action>> {
    match a {
        Action::OneOf(b) => b.get_mut(i),
        Action::Choice { options, .. } => options.get_mut(i).map(|o| &mut o.then),
        _ => None,
    }
}

/// The list at `path` in the event's actions `then`.
pub(super) fn list<'a>(then: &'a Vec<Action>, path: &[(usize, usize)]) -> Option<&'a Vec<Action>> {
    path.iter().try_fold(then, |l, &(a, i)| l.get(a).and_then(|x| nested(x, i)))
}

pub(super) fn list_mut<'a>(then: &'a mut Vec<Action>, path: &[(usize, usize)]) -> Option<&'a mut Vec<Action>> {
    path.iter().try_fold(then, |l, &(a, i)| l.get_mut(a).and_then(|x| nested_mut(x, i)))
}

/// The longest start of `path` that names a list of `then` (after an undo it may name less).
fn valid(then: &Vec<Action>, path: &[(usize, usize)]) -> Path {
    let mut n = 0;
    while n < path.len() && list(then, &path[..=n]).is_some() {
        n += 1;
    }
    path[..n].to_vec()
}

fn clip(s: &str, n: usize) -> String {
    let t: String = s.chars().take(n).collect();
    if s.chars().count() > n { format!("{t}...") } else { t }
}

/// The scope in words: `then 2 ▸ branch 1`, `then 2 ▸ option 'Ring it'`.
pub(super) fn describe(then: &Vec<Action>, path: &[(usize, usize)]) -> String {
    let mut out = vec![];
    for n in 0..path.len() {
        let (a, i) = path[n];
        let what = match list(then, &path[..n]).and_then(|l| l.get(a)) {
            Some(Action::Choice { options, .. }) => format!("option '{}'", clip(options.get(i).map_or("", |o| o.label.as_str()), 20)),
            _ => format!("branch {}", i + 1),
        };
        out.push(format!("then {} ▸ {what}", a + 1));
    }
    out.join(" ▸ ")
}

/// A nested list in a row's value: what it does, short, and that the row steps into it.
pub(super) fn enter_value(list: &[Action]) -> String {
    let does = match list.len() {
        0 => "nothing".to_string(),
        1 => clip(&super::write::compact(&list[0]), 28),
        n => format!("{n} actions: {}", clip(&super::write::compact(&list[0]), 20)),
    };
    format!("{does} ▸ edit")
}

/// Whether the event breaks the caps on its actions as a whole (too many, too deep).
pub(super) fn over_caps(e: &EventDef) -> bool {
    crate::rules::event_logic::actions_problem(e).is_some()
}

/// Whether the event has room for one more action (all its nested ones counted).
pub(super) fn room(e: &EventDef) -> bool {
    let mut more = e.clone();
    more.then.push(Action::Message(String::new()));
    !over_caps(&more)
}

/// The scope's own rows: `◂ back` (one list up) with where it is, `◂ back to the event` from
/// deeper, and the branch's or option's removal while its action has more than 2.
pub(super) enum Inside {
    /// Back to the first n steps of the path.
    Out(usize),
    /// The branch or option the scope is in, removed.
    RemoveHere,
}

pub(super) fn inside_rows(then: &Vec<Action>, path: &[(usize, usize)]) -> Vec<(String, String, super::form_row::RowKind, Inside)> {
    use super::form_row::RowKind;
    let n = path.len();
    if n == 0 {
        return vec![];
    }
    let up = if n == 1 { "◂ back to the event".to_string() } else { format!("◂ back to {}", describe(then, &path[..n - 1])) };
    let mut v = vec![(describe(then, path), up, RowKind::Toggle, Inside::Out(n - 1))];
    if n > 1 {
        v.push((String::new(), "◂ back to the event".into(), RowKind::Toggle, Inside::Out(0)));
    }
    let (a, _) = path[n - 1];
    let siblings = list(then, &path[..n - 1]).and_then(|l| l.get(a)).map_or(0, |x| x.nested().len());
    if siblings > 2 {
        let what = if matches!(list(then, &path[..n - 1]).and_then(|l| l.get(a)), Some(Action::Choice { .. })) { "option" } else { "branch" };
        v.push((String::new(), format!("remove this {what}"), RowKind::Remove, Inside::RemoveHere));
    }
    v
}

/// The branch or option at the end of `path` removed (kept when its action has 2 or fewer).
pub(super) fn remove_here(then: &mut Vec<Action>, path: &[(usize, usize)]) {
    let Some(&(a, i)) = path.last() else { return };
    let Some(act) = list_mut(then, &path[..path.len() - 1]).and_then(|l| l.get_mut(a)) else { return };
    match act {
        Action::OneOf(b) if b.len() > 2 && i < b.len() => {
            b.remove(i);
        }
        Action::Choice { options, .. } if options.len() > 2 && i < options.len() => {
            options.remove(i);
        }
        _ => {}
    }
}

impl Doc {
    /// The scope of event k's form: the path of the list it shows (empty: the event's own).
    pub(super) fn scope_of(&self, k: usize) -> Path {
        match self.level.events.get(k) {
            Some(e) if self.scope.0 == k => valid(&e.then, &self.scope.1),
            _ => vec![],
        }
    }

    /// Where event k's form is, in words (`then 2 ▸ option 'Ring it'`); empty: the event's own
    /// actions.
    pub fn event_scope(&self, k: usize) -> String {
        self.level.events.get(k).map_or(String::new(), |e| describe(&e.then, &self.scope_of(k)))
    }

    /// The list of actions event k's form shows (its scope's).
    pub(super) fn scoped(&self, k: usize) -> Option<&Vec<Action>> {
        list(&self.level.events.get(k)?.then, &self.scope_of(k))
    }
}
