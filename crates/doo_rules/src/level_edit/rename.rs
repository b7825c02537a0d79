//! Renaming an id everywhere at once (issue 46, "Tools"): a figure's, a key's, a chest's, a
//! trap's, a check's, an encounter's, an event's or a level variable's id, with every place the
//! level names it (events' triggers, actions and conditions, orders, victory goals, locks,
//! carried and lying items, trades, lights held), in one undo step. A rename to an id already used is refused with a
//! message naming what uses it. Doors have no ids in the level format (a door is its space).

use super::doc::Doc;
use super::find::IdKind;
use crate::level_file::Level;
use crate::rules::goal::Goal;
use crate::rules::orders::{Orders, Prey};
use crate::rules::story::{Action, Cond, Trigger};

/// A plain id: letters, digits, `_` and `-`, 1 to 64 of them.
pub fn plain_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// The ids of one kind the level holds.
fn ids(l: &Level, kind: IdKind) -> Vec<String> {
    match kind {
        IdKind::Figure => l.characters.iter().filter_map(|c| c.id.clone()).collect(),
        IdKind::Key => l.keys.iter().map(|k| k.id.clone()).collect(),
        IdKind::Chest => l.chests.iter().map(|c| c.id.clone()).collect(),
        IdKind::Trap => l.traps.iter().map(|t| t.id.clone()).collect(),
        IdKind::Check => l.checks.iter().map(|c| c.id.clone()).collect(),
        IdKind::Item => l.items.iter().map(|i| i.item.clone()).collect(),
        IdKind::Encounter => l.encounters.iter().map(|e| e.id.clone()).collect(),
        IdKind::Event => l.events.iter().map(|e| e.id.clone()).collect(),
        IdKind::Var => l.vars.keys().cloned().collect(),
    }
}

/// Every item id the level names (lying, in chests, carried, given, taken, traded, hunted).
fn item_names(l: &Level) -> Vec<String> {
    let mut out: Vec<String> = l.items.iter().map(|i| i.item.clone()).collect();
    out.extend(l.chests.iter().flat_map(|c| c.items.iter().cloned()));
    out.extend(l.characters.iter().flat_map(|c| c.items.iter().flatten().cloned()));
    out.extend(l.encounters.iter().flat_map(|e| e.trades.iter().flat_map(|t| std::iter::once(t.gives.clone()).chain(t.wants.iter().cloned()))));
    for e in &l.events {
        if let Trigger::ItemTaken { item } = &e.when {
            out.push(item.clone());
        }
        for a in &e.then {
            if let Action::Give { item, .. } | Action::Take { item, .. } = a {
                out.push(item.clone());
            }
        }
    }
    out
}

/// Every reference to the figure `old` renamed `new`.
fn rename_figure_refs(l: &mut Level, swap: &dyn Fn(&mut String)) {
    for e in l.encounters.iter_mut() {
        e.members.iter_mut().for_each(swap);
    }
    for li in l.lights.iter_mut() {
        if let Some(h) = li.held_by.as_mut() {
            swap(h);
        }
    }
    // Every figure an event names: its trigger, its condition, its actions (nested too).
    for e in l.events.iter_mut() {
        e.each_figure(&mut |f| swap(f));
    }
    for v in l.victory.iter_mut() {
        if let Goal::Defeat(f) = &mut v.goal {
            swap(f);
        }
    }
    super::group::each_orders(l, |o| {
        if let Some(Orders::Bodyguard { figure }) = o {
            swap(figure);
        }
    });
}

/// Every reference to the key (an item of the level) renamed.
fn rename_key_refs(l: &mut Level, swap: &dyn Fn(&mut String)) {
    for lock in l.doors.iter_mut().filter_map(|d| d.lock.as_mut()).chain(l.chests.iter_mut().filter_map(|c| c.lock.as_mut())) {
        if let Some(k) = lock.key.as_mut() {
            swap(k);
        }
    }
    l.chests.iter_mut().for_each(|c| c.items.iter_mut().for_each(swap));
    l.items.iter_mut().for_each(|i| swap(&mut i.item));
    l.characters.iter_mut().for_each(|c| c.items.iter_mut().flatten().for_each(swap));
    for t in l.encounters.iter_mut().flat_map(|e| e.trades.iter_mut()) {
        swap(&mut t.gives);
        t.wants.iter_mut().for_each(swap);
    }
    for e in l.events.iter_mut() {
        if let Trigger::ItemTaken { item } = &mut e.when {
            swap(item);
        }
        e.each_action(&mut |a| {
            if let Action::Give { item, .. } | Action::Take { item, .. } = a {
                swap(item);
            }
        });
        e.each_clause(&mut |c| {
            if let Cond::Holds { item, .. } = c {
                swap(item);
            }
        });
    }
    super::group::each_orders(l, |o| {
        if let Some(Orders::Hunt { prey: Prey::Carrier(item) }) = o {
            swap(item);
        }
    });
}

fn rename_encounter_refs(l: &mut Level, swap: &dyn Fn(&mut String)) {
    for e in l.events.iter_mut() {
        e.each_action(&mut |a| match a {
            Action::StartCrisis { encounters, .. } => encounters.iter_mut().for_each(swap),
            Action::Stance { encounter, .. } | Action::Orders { encounter, .. } | Action::Spawn(encounter) => swap(encounter),
            _ => {}
        });
    }
    super::group::each_orders(l, |o| {
        if let Some(Orders::CallForHelp { encounter }) = o {
            swap(encounter);
        }
    });
}

fn rename_event_refs(l: &mut Level, swap: &dyn Fn(&mut String)) {
    for e in l.events.iter_mut() {
        if let Some(a) = e.after.as_mut() {
            swap(a);
        }
        e.each_clause(&mut |c| {
            if let Cond::Fired(id) = c {
                swap(id);
            }
        });
    }
    for v in l.victory.iter_mut() {
        if let Goal::Event(id) = &mut v.goal {
            swap(id);
        }
    }
}

/// Every event's `set_var`, `add_var` and `var` clause naming the variable, renamed.
fn rename_var_refs(l: &mut Level, swap: &dyn Fn(&mut String)) {
    for e in l.events.iter_mut() {
        e.each_action(&mut |a| {
            if let Action::SetVar { name, .. } | Action::AddVar { name, .. } = a {
                swap(name);
            }
        });
        e.each_clause(&mut |c| {
            if let Cond::Var { name, .. } = c {
                swap(name);
            }
        });
    }
}

/// The id itself and every reference to it renamed, in the level.
fn rename_in(l: &mut Level, kind: IdKind, old: &str, new: &str) {
    let swap = |s: &mut String| {
        if s == old {
            *s = new.to_string();
        }
    };
    match kind {
        IdKind::Figure => {
            l.characters.iter_mut().filter_map(|c| c.id.as_mut()).for_each(swap);
            rename_figure_refs(l, &swap);
        }
        IdKind::Key => {
            l.keys.iter_mut().for_each(|k| swap(&mut k.id));
            rename_key_refs(l, &swap);
        }
        IdKind::Chest => l.chests.iter_mut().for_each(|c| swap(&mut c.id)),
        IdKind::Trap => l.traps.iter_mut().for_each(|t| swap(&mut t.id)),
        IdKind::Check => l.checks.iter_mut().for_each(|c| swap(&mut c.id)),
        IdKind::Item => {}
        IdKind::Encounter => {
            l.encounters.iter_mut().for_each(|e| swap(&mut e.id));
            rename_encounter_refs(l, &swap);
        }
        IdKind::Event => {
            l.events.iter_mut().for_each(|e| swap(&mut e.id));
            rename_event_refs(l, &swap);
        }
        IdKind::Var => {
            if let Some(v) = l.vars.remove(old) {
                l.vars.insert(new.to_string(), v);
            }
            rename_var_refs(l, &swap);
        }
    }
}

impl Doc {
    /// The `kind` id `old` renamed `new` (trimmed) everywhere the level names it, one undo step:
    /// `Ok(true)` when renamed, `Ok(false)` when `new` is `old`. Refused (`Err`, the message for
    /// the status line) when `new` is not a plain id, when no such id is in the level, when
    /// another of its kind has it already (a key: or an item the level names), or for an item
    /// lying (items are named by the game's item ids: rename the key instead).
    pub fn rename_id(&mut self, kind: IdKind, old: &str, new: &str) -> Result<bool, String> {
        let new = new.trim();
        let what = kind.word();
        if kind == IdKind::Item {
            return Err(format!("An item lying is named by its item id ('{old}'): choose another item, or rename a key."));
        }
        if !plain_id(new) {
            return Err(format!("'{new}' is not an id: letters, digits, _ and -, at most 64."));
        }
        let taken = ids(&self.level, kind);
        if !taken.iter().any(|t| t == old) {
            return Err(format!("No {what} '{old}' in the level."));
        }
        if new == old {
            return Ok(false);
        }
        if taken.iter().any(|t| t == new) {
            return Err(format!("'{new}' is already the id of a {what}: not renamed."));
        }
        if kind == IdKind::Key && item_names(&self.level).iter().any(|i| i == new) {
            return Err(format!("'{new}' is already an item of the level: not renamed."));
        }
        if kind == IdKind::Event
            && let Some(a) = self.areas.remove(old)
        {
            self.areas.insert(new.to_string(), a);
        }
        Ok(self.edit(|l, _| rename_in(l, kind, old, new)))
    }
}
