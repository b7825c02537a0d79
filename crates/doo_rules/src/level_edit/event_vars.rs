//! The level's variables in the event form (issue 46): a "vars" part after the event's own
//! rows lists each variable of the level (`vars`: a name and its starting value), its name
//! typed (renamed wherever an event names it: `rename_id` with `IdKind::Var`), its starting
//! value stepped down and up, and a remove for one no event uses; a last row adds one (its
//! name typed). `Doc::add_var`, `Doc::set_var` and `Doc::remove_var` make the edits.

use super::doc::Doc;
use super::form_row::RowKind;
use crate::level_file::Level;
use crate::rules::story::{Action, Cond, MAX_VARS};

/// A variable's row: its name (typed), its starting value, its removal; or the new one's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum V {
    Name(usize),
    Start(usize),
    Remove(usize),
    Add,
}

/// The most and the least starting value the form steps to (as the form's other numbers).
const BOUND: i32 = 9999;

/// The rows of the level's variables: label, value, kind, field.
pub(super) fn rows(l: &Level) -> Vec<(&'static str, String, RowKind, V)> {
    let mut v = vec![];
    for (i, (name, start)) in l.vars.iter().enumerate() {
        v.push(("variable", name.clone(), RowKind::Text, V::Name(i)));
        v.push(("starts at", start.to_string(), RowKind::Number, V::Start(i)));
        if !used(l, name) {
            v.push(("", "remove".to_string(), RowKind::Remove, V::Remove(i)));
        }
    }
    if l.vars.len() < MAX_VARS {
        v.push(("", "+ variable".to_string(), RowKind::Text, V::Add));
    }
    v
}

/// Whether an event of the level names the variable `name` (a `set_var`, an `add_var`, a `var`
/// clause of a condition; nested ones too).
pub(super) fn used(l: &Level, name: &str) -> bool {
    let mut hit = false;
    for mut e in l.events.iter().cloned() {
        e.each_action(&mut |a| {
            if let Action::SetVar { name: n, .. } | Action::AddVar { name: n, .. } = a {
                hit |= n == name;
            }
        });
        e.each_clause(&mut |c| {
            if let Cond::Var { name: n, .. } = c {
                hit |= n == name;
            }
        });
        if hit {
            return true;
        }
    }
    false
}

/// The name of the level's i-th variable (in the order the form lists them).
pub(super) fn name_of(l: &Level, i: usize) -> Option<String> {
    l.vars.keys().nth(i).cloned()
}

impl Doc {
    /// A new level variable `name` (trimmed), starting at 0 (issue 46: the event form's
    /// "+ variable"). Refused, with the message for the status line, when it is not a plain
    /// id of at most `MAX_VAR_NAME` characters, the level has it already, or has `MAX_VARS`.
    pub fn add_var(&mut self, name: &str) -> Result<(), String> {
        let name = name.trim();
        if self.level.vars.contains_key(name) {
            return Err(format!("The level has a variable '{name}' already."));
        }
        if self.level.vars.len() >= MAX_VARS {
            return Err(format!("At most {MAX_VARS} variables in a level."));
        }
        if !self.set_var(name, 0) {
            return Err(format!("'{name}' is not a variable's name: letters, digits, _ and -, at most {}.", crate::rules::story::MAX_VAR_NAME));
        }
        Ok(())
    }

    /// A variable's row of the form stepped: its starting value down (`dir` -1) or up (1),
    /// or the variable removed (when no event uses it). True when the level changed.
    pub(super) fn var_step(&mut self, v: V, dir: i8) -> bool {
        match v {
            V::Start(i) => {
                let Some(name) = name_of(&self.level, i) else { return false };
                let now = self.level.vars[&name];
                let next = (now as i64 + dir.signum() as i64).clamp(-BOUND as i64, BOUND as i64) as i32;
                next != now && self.set_var(&name, next)
            }
            V::Remove(i) => name_of(&self.level, i).is_some_and(|name| self.remove_var(&name)),
            // Typed: the window's text field (`add_var`, `rename_id`).
            V::Name(_) | V::Add => false,
        }
    }
}
