//! An event as a form (issue 46): every field of its trigger and of each of its actions is a
//! row the editor shows and steps through the values the level holds (its sides, figures,
//! doors, items, encounters, other events; the map's selection for an area), numbers up and
//! down, switches on and off; actions are added, moved up and removed. `event_form` lists the
//! rows, `event_step` changes one; every step leaves an event of the level format. What cannot
//! be chosen from a list (an `orders` action's orders, an `acted` trigger's `how`) is shown
//! and kept as the file has it.

use super::brush::{Rect, pos};
use super::doc::Doc;
use super::event_cond::C;
use super::event_more::{Lists, M, lists};
use crate::level_crawl::LevelMode;
use crate::level_file::Level;
use crate::rules::grid::Pos;
use crate::rules::story::{Action, Area, Deed, DoorState, MAX_ACTIONS, MAX_TEXT, Offer, Trigger, Who};

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
    Orders,
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
        Action::Orders { encounter, to } => v.extend([
            f("encounter", encounter.clone(), RowKind::Choice, F::Encounter),
            // Issue 46: stepped through the orders that need no place (none, ambush, hunt the
            // weakest); others are set in the file, shown, and kept until stepped.
            f("orders", to.as_ref().map_or("none".into(), snake), RowKind::Choice, F::Orders),
        ]),
        other => v.extend(super::event_more::action_rows(other).into_iter().map(|(l, val, kind, m)| row(p, l, val, kind, Target::More(Some(a), m)))),
    }
    v.push(row(p, "", "up".into(), RowKind::Up, Target::Up(a)));
    v.push(row(p, "", "remove".into(), RowKind::Remove, Target::Remove(a)));
    v
}

impl Doc {
    fn form(&self, k: usize) -> Vec<(Row, Target)> {
        let Some(e) = self.level.events.get(k) else { return vec![] };
        let mut v = trigger_rows(&e.when);
        v.push(row("when", "repeats", if e.repeat { "each time".into() } else { "once".into() }, RowKind::Toggle, Target::Repeat));
        v.push(row("when", "waits for", e.after.clone().unwrap_or_else(|| "none".into()), RowKind::Choice, Target::After));
        let (l, val, kind, m) = super::event_more::times_row(e);
        v.push(row("when", l, val, kind, Target::More(None, m)));
        v.extend(super::event_cond::rows(e.only_if.as_ref()).into_iter().map(|(l, val, kind, c)| row("if", l, val, kind, Target::Cond(c))));
        for (a, act) in e.then.iter().enumerate() {
            v.extend(action_rows(a, act));
        }
        if e.then.len() < MAX_ACTIONS {
            v.push(row("then", "", "+ action".into(), RowKind::Add, Target::Add));
        }
        v
    }

    /// The k-th event as the form's rows, in order.
    pub fn event_form(&self, k: usize) -> Vec<Row> {
        self.form(k).into_iter().map(|(r, _)| r).collect()
    }

    /// The k-th event's `row` changed: a step forward (`dir` 1) or back (-1) through its
    /// choices or its number, a switch, the selection `sel` (on the floor in view) for an
    /// area, an action moved up, removed or added. True when the level changed.
    pub fn event_step(&mut self, k: usize, row: usize, dir: i8, sel: Rect) -> bool {
        let Some((_, t)) = self.form(k).get(row).cloned() else { return false };
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
        let who_list: Vec<Who> =
            std::iter::once(Who::Any).chain(ls.sides.iter().map(|s| Who::Side(s.clone()))).chain(ls.figures.iter().map(|s| Who::Figure(s.clone()))).collect();
        self.edit(|l, _| {
            match t {
                Target::More(a, m) => return super::event_more::step(l, k, a, m, dir, &ls, sel),
                Target::Cond(c) => return super::event_cond::step(l, k, c, dir, &ls),
                _ => {}
            }
            let e = &mut l.events[k];
            match t {
                Target::TriggerKind => {
                    if let Some(next) = step_kind(&trigger_kinds(&level, &ls, area), &e.when, dir) {
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
                        && let Some(w) = step(&who_list, who, dir)
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
                Target::Shown | Target::More(..) | Target::Cond(_) => {}
                Target::Repeat => e.repeat = !e.repeat,
                Target::After => {
                    let others: Vec<Option<String>> = std::iter::once(None).chain(ls.events.iter().filter(|x| **x != id).map(|x| Some(x.clone()))).collect();
                    if let Some(a) = step(&others, &e.after, dir) {
                        e.after = a;
                    }
                }
                Target::Kind(a) => {
                    if let Some(next) = e.then.get(a).and_then(|now| step_kind(&action_kinds(&level, &ls, area), now, dir)) {
                        e.then[a] = next.clone();
                        super::event_more::chosen(l, &next);
                    }
                }
                Target::Field(a, field) => {
                    if let Some(act) = e.then.get_mut(a) {
                        step_field(act, field, dir, &ls, sel);
                    }
                }
                Target::Up(a) => {
                    if a > 0 && a < e.then.len() {
                        e.then.swap(a - 1, a);
                    }
                }
                Target::Remove(a) => {
                    if a < e.then.len() {
                        e.then.remove(a);
                    }
                    // An event does something: with nothing left, a story line (empty until typed).
                    if e.then.is_empty() {
                        e.then.push(Action::Message(String::new()));
                    }
                }
                Target::Add => {
                    if e.then.len() < MAX_ACTIONS {
                        e.then.push(Action::Message(String::new()));
                    }
                }
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

    /// The text of the k-th event's a-th action, a story line or a choice's prompt (capped at
    /// `MAX_TEXT`).
    pub fn set_action_text(&mut self, k: usize, a: usize, text: &str) -> bool {
        let text: String = text.chars().take(MAX_TEXT).collect();
        self.edit(|l, _| {
            if let Some(Action::Message(m) | Action::Choice { prompt: m, .. }) = l.events.get_mut(k).and_then(|e| e.then.get_mut(a)) {
                *m = text;
            }
        })
    }

    /// The text of the k-th event's a-th action, when it is a story line or a choice.
    pub fn action_text(&self, k: usize, a: usize) -> Option<String> {
        match self.level.events.get(k)?.then.get(a)? {
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
        (Action::Orders { to, .. }, F::Orders) => {
            use crate::rules::orders::{Orders, Prey};
            let all = [None, Some(Orders::Ambush { reach: 2 }), Some(Orders::Hunt { prey: Prey::Weakest })];
            if let Some(n) = step(&all, to, dir) {
                *to = n;
            }
        }
        _ => {}
    }
}
