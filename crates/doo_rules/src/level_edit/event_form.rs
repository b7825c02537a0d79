//! An event as a form (issue 46): every field of its trigger and of each of its actions is a
//! row the editor shows and steps through the values the level holds (its sides, figures,
//! doors, items, encounters, other events; the map's selection for an area), numbers up and
//! down, switches on and off; actions are added, moved up and removed. `event_form` lists the
//! rows, `event_step` changes one; every step leaves an event of the level format. The actions
//! of a `one_of`'s branch or a choice's option have the same rows, one list at a time
//! (`event_nest`); an `orders` action's orders step through every kind (`orders_form`). What
//! cannot be chosen from a list (an `acted` trigger's `how`) is shown and kept as the file has
//! it.

use super::brush::{Rect, pos};
use super::doc::Doc;
use super::event_cond::C;
use super::event_more::{Lists, M, lists};
use super::orders_form::{OF, OrderCtx};
use crate::level_crawl::LevelMode;
use crate::level_file::Level;
use crate::rules::grid::Pos;
use crate::rules::story::{Action, Area, Deed, DoorState, MAX_TEXT, Offer, Trigger, Who};

pub(super) use super::form_row::step;
pub use super::form_row::{Row, RowKind};

/// What a row changes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Target {
    TriggerKind,
    Who,
    TriggerArea,
    TriggerDoor,
    TriggerItem,
    TriggerNumber,
    TriggerDeed,
    TriggerOffer,
    /// A value shown, not stepped.
    Shown,
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
}

/// An action's fields.
#[derive(Clone, Copy, Debug, PartialEq)]
enum F {
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
    Orders(OF),
}

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

fn crawl(l: &Level) -> bool {
    l.mode == LevelMode::Exploration
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

/// The action kinds the level can use, each with its first values.
fn action_kinds(l: &Level, ls: &Lists, area: Area) -> Vec<Action> {
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
fn step_kind<T: Clone>(kinds: &[T], now: &T, dir: i8) -> Option<T> {
    let n = kinds.len() as i64;
    if n == 0 {
        return None;
    }
    let i = kinds.iter().position(|k| same_kind(k, now)).map_or(0, |i| (i as i64 + dir.signum() as i64).rem_euclid(n));
    Some(kinds[i as usize].clone())
}

fn row(part: &str, label: &str, value: String, kind: RowKind, t: Target) -> (Row, Target) {
    let action = match t {
        Target::Kind(a) | Target::Field(a, _) | Target::Up(a) | Target::Remove(a) | Target::More(Some(a), _) => Some(a),
        _ => None,
    };
    (Row { part: part.into(), label: label.into(), value, kind, action }, t)
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
            if let Some(h) = how {
                v.push(row("when", "how", h.clone(), RowKind::Shown, Target::Shown));
            }
        }
        Trigger::Offered { what, who: w } => v.extend([row("when", "offered", snake(what), RowKind::Choice, Target::TriggerOffer), who(w)]),
        Trigger::RoundEnds => {}
        Trigger::Sighted { who: w, .. } | Trigger::TrapSprung { who: w, .. } | Trigger::HpAtMost { who: w, .. } => v.push(who(w)),
    }
    v.extend(super::event_more::trigger_rows(when).into_iter().map(|(l, val, kind, m)| row("when", l, val, kind, Target::More(None, m))));
    v
}

fn action_rows(a: usize, act: &Action) -> Vec<(Row, Target)> {
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
        Action::StartCrisis { encounters, surprised } => v.extend([
            f("alerted", if encounters.is_empty() { "none".into() } else { encounters.join(", ") }, RowKind::Choice, F::Encounters),
            f("surprised", surprised.clone().unwrap_or_else(|| "nobody".into()), RowKind::Choice, F::OptSide),
        ]),
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
        for (a, act) in list.iter().enumerate() {
            v.extend(action_rows(a, act));
        }
        if super::event_nest::room(e) {
            v.push(row("then", "", "+ action".into(), RowKind::Add, Target::Add));
        }
        v
    }

    /// The rows of the event itself (its trigger, repeat, after, times, condition).
    fn own_rows(&self, e: &crate::rules::story::EventDef) -> Vec<(Row, Target)> {
        let mut v = trigger_rows(&e.when);
        v.push(row("when", "repeats", if e.repeat { "each time".into() } else { "once".into() }, RowKind::Toggle, Target::Repeat));
        v.push(row("when", "waits for", e.after.clone().unwrap_or_else(|| "none".into()), RowKind::Choice, Target::After));
        let (l, val, kind, m) = super::event_more::times_row(e);
        v.push(row("when", l, val, kind, Target::More(None, m)));
        v.extend(super::event_cond::rows(e.only_if.as_ref()).into_iter().map(|(l, val, kind, c)| row("if", l, val, kind, Target::Cond(c))));
        v
    }

    /// The k-th event as the form's rows, in order.
    pub fn event_form(&self, k: usize) -> Vec<Row> {
        self.form(k).into_iter().map(|(r, _)| r).collect()
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
        self.edit(|l, _| {
            let before = l.events[k].clone();
            match t {
                Target::More(a, m) => super::event_more::step(l, k, &path, a, m, dir, &ls, sel),
                Target::Cond(c) => super::event_cond::step(l, k, c, dir, &ls),
                Target::Kind(_) | Target::Field(..) | Target::Up(_) | Target::Remove(_) | Target::Add => {
                    let chosen = step_list(&level, k, &path, t, dir, &ls, sel, area, l);
                    if let Some(next) = chosen {
                        super::event_more::chosen(l, &next);
                    }
                }
                _ => step_own(&mut l.events[k], t, dir, &ls, sel, area, &level, &id),
            }
            // Issue 46: the caps on the event's actions as a whole (all of them counted, nested
            // at most so deep): a step that breaks them is no step.
            if super::event_nest::over_caps(&l.events[k]) && !super::event_nest::over_caps(&before) {
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
            if let Trigger::Acted { what, .. } = &mut e.when
                && let Some(d) = step(&all, what, dir)
            {
                *what = d;
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
fn step_list(level: &Level, k: usize, path: &[(usize, usize)], t: Target, dir: i8, ls: &Lists, sel: Area, area: Area, l: &mut Level) -> Option<Action> {
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
