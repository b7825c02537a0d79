//! An event as a form (issue 46): every field of its trigger and of each of its actions is a
//! row the editor shows and steps through the values the level holds (its sides, figures,
//! doors, items, encounters, other events; the map's selection for an area), numbers up and
//! down, switches on and off; actions are added, moved up and removed. `event_form` lists the
//! rows, `event_step` changes one; every step leaves an event of the level format. The actions
//! of a `one_of`'s branch or a choice's option have the same rows, one list at a time
//! (`event_nest`); an `orders` action's orders step through every kind (`orders_form`). An
//! `acted` trigger's `how` steps through the rows of the level's profile its deed can name
//! (`deed_rows::DeedRows`, which the window fills from the game's profiles).

use super::brush::{Rect, pos};
use super::doc::Doc;
use super::event_more::{Lists, M, lists};
use super::event_target::{F, Target, crawl, step_kind};
use crate::level_file::Level;
use crate::rules::grid::Pos;
use crate::rules::story::{Action, Area, Deed, MAX_TEXT, Offer, Trigger, Who};

pub(super) use super::form_row::step;
pub use super::form_row::{Row, RowKind};

fn at(p: &Pos) -> String {
    if p.floor == 0 { format!("({}, {})", p.x, p.y) } else { format!("({}, {}) floor {}", p.x, p.y, p.floor + 1) }
}

fn area_text(a: &Area) -> String {
    format!("{}-{}", at(&a.from), at(&a.to))
}

fn who_text(w: &Who) -> String {
    match w {
        Who::Any => "anyone".into(),
        Who::Side(s) => format!("side {s}"),
        Who::Figure(f) => format!("figure {f}"),
    }
}

fn snake<T: serde::Serialize>(v: &T) -> String {
    super::write::compact(v)
}

fn short(s: &str) -> String {
    let t: String = s.chars().take(40).collect();
    if s.chars().count() > 40 { format!("{t}...") } else { t }
}

/// The trigger kinds the level can use, each with its first values (an area: the event's own,
/// else the selection).
fn trigger_kinds(l: &Level, ls: &Lists, area: Area) -> Vec<Trigger> {
    let mut v = vec![Trigger::Enters { area, who: Who::Any }];
    if let Some(at) = ls.doors.first() {
        v.push(Trigger::DoorOpens { at: *at });
    }
    if let Some(item) = ls.items.first() {
        v.push(Trigger::ItemTaken { item: item.clone() });
    }
    v.push(Trigger::Falls { who: ls.sides.last().map_or(Who::Any, |s| Who::Side(s.clone())) });
    v.push(Trigger::Turn(2));
    if crawl(l) {
        v.extend([Trigger::Minute(10), Trigger::CrisisBegins]);
    }
    v.push(Trigger::CrisisEnds);
    v.push(Trigger::Acted { what: Deed::Move, who: Who::Any, how: None });
    v.push(Trigger::Offered { what: Offer::Reflex, who: Who::Any });
    v.extend(super::event_more::trigger_kinds(l, ls));
    v
}

/// The most encounters a crisis's alerts list a row each for (past them: the `alerted` row).
const MAX_ALERT_ROWS: usize = 24;

/// Whether a `start_crisis` alerts encounter `e`.
fn encounters_has(act: &Action, e: &str) -> bool {
    matches!(act, Action::StartCrisis { encounters, .. } if encounters.iter().any(|x| x == e))
}

fn row(part: &str, label: &str, value: String, kind: RowKind, t: Target) -> (Row, Target) {
    let action = match t {
        Target::Kind(a) | Target::Field(a, _) | Target::Up(a) | Target::Remove(a) | Target::More(Some(a), _) => Some(a),
        _ => None,
    };
    (Row { part: part.into(), label: label.into(), value, kind, action, bad: false }, t)
}

fn trigger_rows(when: &Trigger) -> Vec<(Row, Target)> {
    let kind = match when {
        Trigger::Enters { .. } => "a figure enters",
        Trigger::DoorOpens { .. } => "a door opens",
        Trigger::ItemTaken { .. } => "an item is taken",
        Trigger::Falls { .. } => "a figure falls",
        Trigger::Turn(_) => "crisis turn",
        Trigger::Minute(_) => "minute",
        Trigger::CrisisBegins => "a crisis begins",
        Trigger::CrisisEnds => "a crisis ends",
        Trigger::Acted { .. } => "a figure acts",
        Trigger::Offered { .. } => "a reaction is offered",
        t => super::event_more::trigger_name(t),
    };
    let mut v = vec![row("when", "trigger", kind.into(), RowKind::Choice, Target::TriggerKind)];
    let who = |w: &Who| row("when", "who", who_text(w), RowKind::Choice, Target::Who);
    match when {
        Trigger::Enters { area, who: w } => v.extend([row("when", "area", area_text(area), RowKind::Area, Target::TriggerArea), who(w)]),
        Trigger::DoorOpens { at: p } => v.push(row("when", "door", at(p), RowKind::Choice, Target::TriggerDoor)),
        Trigger::ItemTaken { item } => v.push(row("when", "item", item.clone(), RowKind::Choice, Target::TriggerItem)),
        Trigger::Falls { who: w } => v.push(who(w)),
        Trigger::Turn(n) | Trigger::Minute(n) => v.push(row("when", "number", n.to_string(), RowKind::Number, Target::TriggerNumber)),
        Trigger::CrisisBegins | Trigger::CrisisEnds => {}
        Trigger::Acted { what, who: w, how } => {
            v.extend([row("when", "does", snake(what), RowKind::Choice, Target::TriggerDeed), who(w)]);
            if what.names_a_row() {
                v.push(row("when", "how", how.clone().unwrap_or_else(|| "any way".into()), RowKind::Choice, Target::TriggerHow));
            } else if let Some(h) = how {
                // A `how` this deed cannot have (drawn red): stepped, it is cleared.
                v.push(row("when", "how", h.clone(), RowKind::Choice, Target::TriggerHow));
            }
        }
        Trigger::Offered { what, who: w } => v.extend([row("when", "offered", snake(what), RowKind::Choice, Target::TriggerOffer), who(w)]),
        Trigger::RoundEnds => {}
        Trigger::Sighted { who: w, .. } | Trigger::TrapSprung { who: w, .. } | Trigger::HpAtMost { who: w, .. } => v.push(who(w)),
    }
    v.extend(super::event_more::trigger_rows(when).into_iter().map(|(l, val, kind, m)| row("when", l, val, kind, Target::More(None, m))));
    v
}

/// The rows of action `a` (`encounters`: the level's, each a row of a crisis's alerts).
fn action_rows(a: usize, act: &Action, encounters: &[String]) -> Vec<(Row, Target)> {
    let part = format!("then {}", a + 1);
    let p = part.as_str();
    let kind = match act {
        Action::Message(_) => "story line",
        Action::StartCrisis { .. } => "start a crisis",
        Action::Door { .. } => "set a door",
        Action::Reveal { .. } => "reveal an area",
        Action::Give { .. } => "give an item",
        Action::Take { .. } => "take an item",
        Action::Win(_) => "a side wins",
        Action::Lose(_) => "a side loses",
        Action::Stance { .. } => "an encounter's stance",
        Action::Spawn(_) => "an encounter arrives",
        Action::Orders { .. } => "an encounter's orders",
        other => super::event_more::action_name(other),
    };
    let f = |label: &str, value: String, kind: RowKind, field: F| row(p, label, value, kind, Target::Field(a, field));
    let mut v = vec![row(p, "action", kind.into(), RowKind::Choice, Target::Kind(a))];
    match act {
        Action::Message(m) => v.push(f("text", if m.is_empty() { "(type it)".into() } else { short(m) }, RowKind::Text, F::Text)),
        Action::StartCrisis { encounters: alerted, surprised } => {
            v.extend([
                f("alerted", if alerted.is_empty() { "none".into() } else { alerted.join(", ") }, RowKind::Choice, F::Encounters),
                f("surprised", surprised.clone().unwrap_or_else(|| "nobody".into()), RowKind::Choice, F::OptSide),
            ]);
            // Any subset: each of the level's encounters alerted or not, a row each (the
            // `alerted` row above steps through none, all and each alone).
            if encounters.len() > 1 {
                for (i, e) in encounters.iter().enumerate().take(MAX_ALERT_ROWS) {
                    let on = if encounters_has(act, e) { "yes" } else { "no" };
                    v.push(f("· alerts", format!("{}: {on}", short(e)), RowKind::Toggle, F::Alerts(i)));
                }
            }
        }
        Action::Door { at: d, state } => v.extend([f("door", at(d), RowKind::Choice, F::Door), f("to", snake(state), RowKind::Choice, F::DoorState)]),
        Action::Reveal { area, side } => v.extend([
            f("area", area_text(area), RowKind::Area, F::Area),
            f("to", side.clone().unwrap_or_else(|| "every exploring side".into()), RowKind::Choice, F::OptSide),
        ]),
        Action::Give { figure, item } | Action::Take { figure, item } => {
            v.extend([f("figure", figure.clone(), RowKind::Choice, F::Figure), f("item", item.clone(), RowKind::Choice, F::Item)])
        }
        Action::Win(s) | Action::Lose(s) => v.push(f("side", s.clone(), RowKind::Choice, F::Side)),
        Action::Stance { encounter, hostile } => v.extend([
            f("encounter", encounter.clone(), RowKind::Choice, F::Encounter),
            f("hostile", if *hostile { "yes".into() } else { "no".into() }, RowKind::Toggle, F::Hostile),
        ]),
        Action::Spawn(e) => v.push(f("encounter", e.clone(), RowKind::Choice, F::Encounter)),
        Action::Orders { encounter, to } => {
            // Issue 46: every kind of orders, each field stepped (`orders_form`).
            v.push(f("encounter", encounter.clone(), RowKind::Choice, F::Encounter));
            v.extend(super::orders_form::rows(to.as_ref(), true).into_iter().map(|(l, val, kind, o)| f(l, val, kind, F::Orders(o))));
        }
        other => v.extend(super::event_more::action_rows(other).into_iter().map(|(l, val, kind, m)| row(p, l, val, kind, Target::More(Some(a), m)))),
    }
    v.push(row(p, "", "up".into(), RowKind::Up, Target::Up(a)));
    v.push(row(p, "", "remove".into(), RowKind::Remove, Target::Remove(a)));
    v
}

impl Doc {
    /// The rows of the k-th event's form with what each changes; a row naming what the level
    /// lacks is `bad` (`event_bad`; items checked against `items`, the game's, when given).
    fn form_checked(&self, k: usize, items: Option<&[String]>) -> Vec<(Row, Target)> {
        let mut v = self.form(k);
        let Some(e) = self.level.events.get(k) else { return v };
        let ls = lists(&self.level);
        let known = super::event_bad::Known { ls: &ls, level: &self.level, items };
        let list = self.scoped(k).map_or(&[][..], |l| l.as_slice());
        for (r, t) in v.iter_mut() {
            r.bad = match t {
                Target::TriggerHow => self.deed_rows.how_bad(&e.when),
                _ => super::event_bad::bad(&known, e, list, *t),
            };
        }
        v
    }

    fn form(&self, k: usize) -> Vec<(Row, Target)> {
        let Some(e) = self.level.events.get(k) else { return vec![] };
        let path = self.scope_of(k);
        let mut v = if path.is_empty() { self.own_rows(e) } else { vec![] };
        for (label, value, kind, what) in super::event_nest::inside_rows(&e.then, &path) {
            let t = match what {
                super::event_nest::Inside::Out(n) => Target::Out(n),
                super::event_nest::Inside::RemoveHere => Target::RemoveHere,
            };
            v.push(row("inside", &label, value, kind, t));
        }
        let list = super::event_nest::list(&e.then, &path).map_or(&[][..], |l| l.as_slice());
        let encounters = lists(&self.level).encounters;
        for (a, act) in list.iter().enumerate() {
            v.extend(action_rows(a, act, &encounters));
        }
        if super::event_nest::room(e) {
            v.push(row("then", "", "+ action".into(), RowKind::Add, Target::Add));
        }
        // Issue 46: the level's variables, which events set, add to and test.
        v.extend(super::event_vars::rows(&self.level).into_iter().map(|(l, val, kind, x)| row("vars", l, val, kind, Target::Var(x))));
        v
    }

    /// The rows of the event itself (its trigger, repeat, after, times, condition).
    fn own_rows(&self, e: &crate::rules::story::EventDef) -> Vec<(Row, Target)> {
        let mut v = trigger_rows(&e.when);
        v.push(row("when", "repeats", if e.repeat { "each time".into() } else { "once".into() }, RowKind::Toggle, Target::Repeat));
        v.push(row("when", "waits for", e.after.clone().unwrap_or_else(|| "none".into()), RowKind::Choice, Target::After));
        let (l, val, kind, m) = super::event_more::times_row(e);
        v.push(row("when", l, val, kind, Target::More(None, m)));
        v.extend(super::event_cond::rows(e.only_if.as_ref()).into_iter().map(|(l, val, kind, c)| row("if", &l, val, kind, Target::Cond(c))));
        v
    }

    /// The k-th event as the form's rows, in order. A row whose value names a figure, side,
    /// door, encounter, event or variable the level lacks is `bad` (items are not checked:
    /// `event_form_known`).
    pub fn event_form(&self, k: usize) -> Vec<Row> {
        self.form_checked(k, None).into_iter().map(|(r, _)| r).collect()
    }

    /// `event_form` with items checked too: a row naming an item that is neither one of
    /// `items` (the game's item ids) nor a key of the level is `bad`, as `validate` has it.
    pub fn event_form_known(&self, k: usize, items: &[String]) -> Vec<Row> {
        self.form_checked(k, Some(items)).into_iter().map(|(r, _)| r).collect()
    }

    /// The variable a typed row of the k-th event's form is about (issue 46):
    /// `Some(Some(i))` for the i-th variable's name (typing renames it), `Some(None)` for
    /// "+ variable" (typing names a new one); `None` for any other row.
    pub fn event_form_var(&self, k: usize, row: usize) -> Option<Option<usize>> {
        match self.form(k).get(row)?.1 {
            Target::Var(super::event_vars::V::Name(i)) => Some(Some(i)),
            Target::Var(super::event_vars::V::Add) => Some(None),
            _ => None,
        }
    }

    /// The k-th event's `row` changed: a step forward (`dir` 1) or back (-1) through its
    /// choices or its number, a switch, the selection `sel` (on the floor in view) for an
    /// area, an action moved up, removed or added; a branch's or option's actions stepped into
    /// and out of (`event_nest`). True when the level or the form's list changed. A step that
    /// would break the caps on the event's actions (`MAX_ACTIONS`, `MAX_ACTION_DEPTH`) is refused.
    pub fn event_step(&mut self, k: usize, row: usize, dir: i8, sel: Rect) -> bool {
        let Some((_, t)) = self.form(k).get(row).cloned() else { return false };
        let path = self.scope_of(k);
        match t {
            Target::More(Some(a), M::Enter(i)) => {
                self.scope = (k, path.into_iter().chain([(a, i)]).collect());
                return true;
            }
            Target::Out(n) => {
                self.scope = (k, path[..n.min(path.len())].to_vec());
                return true;
            }
            Target::Var(v) => return self.var_step(v, dir),
            Target::RemoveHere => {
                let done = self.edit(|l, _| super::event_nest::remove_here(&mut l.events[k].then, &path));
                self.scope = (k, path[..path.len().saturating_sub(1)].to_vec());
                return done;
            }
            _ => {}
        }
        let ls = lists(&self.level);
        let f = self.floor;
        let sel = Area { from: pos(sel.x0, sel.y0, f), to: pos(sel.x1, sel.y1, f) };
        let id = self.level.events[k].id.clone();
        let own_area = match &self.level.events[k].when {
            Trigger::Enters { area, .. } => Some(*area),
            _ => self.areas.get(&id).copied(),
        };
        if let Some(a) = own_area {
            self.areas.insert(id.clone(), a);
        }
        let area = own_area.unwrap_or(sel);
        let level = self.level.clone();
        let hows = self.deed_rows.clone();
        self.edit(|l, _| {
            let before = l.events[k].clone();
            match t {
                Target::TriggerHow => {
                    if let Trigger::Acted { what, how, .. } = &mut l.events[k].when
                        && let Some(h) = step(&hows.choices(*what), how, dir)
                    {
                        *how = h;
                    }
                }
                Target::More(a, m) => super::event_more::step(l, k, &path, a, m, dir, &ls, sel),
                Target::Cond(c) => super::event_cond::step(l, k, c, dir, &ls),
                Target::Kind(_) | Target::Field(..) | Target::Up(_) | Target::Remove(_) | Target::Add => {
                    let chosen = super::event_list::step_list(&level, k, &path, t, dir, &ls, sel, area, l);
                    if let Some(next) = chosen {
                        super::event_more::chosen(l, &next);
                    }
                }
                _ => step_own(&mut l.events[k], t, dir, &ls, sel, area, &level, &id),
            }
            // Issue 46: the caps on the event's actions as a whole (all of them counted, nested
            // at most so deep), and the `spawn` of an encounter that arrives later (the last one
            // gone, it would never come): a step that breaks them is no step.
            let caps = super::event_nest::over_caps(&l.events[k]) && !super::event_nest::over_caps(&before);
            // (a step that adds a spawn is one: a level built from nothing gets its first so)
            let had = super::event_list::spawned(&level);
            let lost = {
                let now = super::event_list::spawned(l);
                had.iter().any(|e| !now.contains(e))
            };
            if caps || lost {
                l.events[k] = before;
            }
        })
    }

    /// The k-th event's id, renamed everywhere it is named (other events' `after` and `fired`
    /// conditions, `Event` goals: `rename_id`); refused (false) when another event has it, or it
    /// is empty or not a plain id.
    pub fn rename_event(&mut self, k: usize, id: &str) -> bool {
        let id = id.trim();
        let Some(old) = self.level.events.get(k).map(|e| e.id.clone()) else { return false };
        if !matches!(self.rename_id(super::IdKind::Event, &old, id), Ok(true)) {
            return false;
        }
        if let Some(a) = self.areas.remove(&old) {
            self.areas.insert(id.to_string(), a);
        }
        true
    }

    /// The text of the k-th event's a-th action (of the list its form shows: `event_nest`), a
    /// story line or a choice's prompt (capped at `MAX_TEXT`).
    pub fn set_action_text(&mut self, k: usize, a: usize, text: &str) -> bool {
        let text: String = text.chars().take(MAX_TEXT).collect();
        let path = self.scope_of(k);
        self.edit(|l, _| {
            let list = l.events.get_mut(k).and_then(|e| super::event_nest::list_mut(&mut e.then, &path));
            if let Some(Action::Message(m) | Action::Choice { prompt: m, .. }) = list.and_then(|v| v.get_mut(a)) {
                *m = text;
            }
        })
    }

    /// The text of the k-th event's a-th action (of the list its form shows), when it is a
    /// story line or a choice.
    pub fn action_text(&self, k: usize, a: usize) -> Option<String> {
        match self.scoped(k)?.get(a)? {
            Action::Message(m) | Action::Choice { prompt: m, .. } => Some(m.clone()),
            _ => None,
        }
    }
}

/// A step of the event's own rows (its trigger, repeat, after).
#[allow(clippy::too_many_arguments)]
fn step_own(e: &mut crate::rules::story::EventDef, t: Target, dir: i8, ls: &Lists, sel: Area, area: Area, level: &Level, id: &str) {
    match t {
        Target::TriggerKind => {
            if let Some(next) = step_kind(&trigger_kinds(level, ls, area), &e.when, dir) {
                e.when = next;
            }
        }
        Target::Who => {
            if let Trigger::Enters { who, .. }
            | Trigger::Falls { who }
            | Trigger::Acted { who, .. }
            | Trigger::Offered { who, .. }
            | Trigger::Sighted { who, .. }
            | Trigger::TrapSprung { who, .. }
            | Trigger::HpAtMost { who, .. } = &mut e.when
                && let Some(w) = step(&super::event_more::who_list(ls), who, dir)
            {
                *who = w;
            }
        }
        Target::TriggerArea => {
            if let Trigger::Enters { area, .. } = &mut e.when {
                *area = sel;
            }
        }
        Target::TriggerDoor => {
            if let Trigger::DoorOpens { at } = &mut e.when
                && let Some(p) = step(&ls.doors, at, dir)
            {
                *at = p;
            }
        }
        Target::TriggerItem => {
            if let Trigger::ItemTaken { item } = &mut e.when
                && let Some(i) = step(&ls.items, item, dir)
            {
                *item = i;
            }
        }
        Target::TriggerNumber => {
            if let Trigger::Turn(n) | Trigger::Minute(n) = &mut e.when {
                *n = (*n as i64 + dir.signum() as i64).clamp(1, 9999) as u32;
            }
        }
        Target::TriggerDeed => {
            use Deed::*;
            let all = [FreeStep, Move, Attack, Action, Spell, Pass, End, Reflex, Response, Decline];
            if let Trigger::Acted { what, how, .. } = &mut e.when
                && let Some(d) = step(&all, what, dir)
            {
                *what = d;
                // `how` names a row of the deed's table: kept with its deed only.
                *how = None;
            }
        }
        Target::TriggerOffer => {
            if let Trigger::Offered { what, .. } = &mut e.when
                && let Some(o) = step(&[Offer::Reflex, Offer::Response], what, dir)
            {
                *what = o;
            }
        }
        Target::Repeat => e.repeat = !e.repeat,
        Target::After => {
            let others: Vec<Option<String>> = std::iter::once(None).chain(ls.events.iter().filter(|x| *x != id).map(|x| Some(x.clone()))).collect();
            if let Some(a) = step(&others, &e.after, dir) {
                e.after = a;
            }
        }
        _ => {}
    }
}
