//! The event form's lists of what a level holds, and the rows of issue 46's triggers
//! (`round_ends`, `sighted`, `trap_sprung`, `hp_at_most`), actions (`tile`, `set_var`,
//! `add_var`, `award_cp`, `one_of`) and `times`: each field a row `event_step` changes, every
//! step leaving an event of the level format. A `one_of`'s branches are counted up and down
//! (a new one is an empty story line); each branch's row, and each choice option's `does` row,
//! steps the form into its actions (`event_nest`). A variable is chosen from the level's `vars`; with none, choosing one declares
//! `counter` (at 0).

use super::doc::Doc;
use super::form_row::RowKind;
use crate::level_crawl::LevelMode;
use crate::level_file::Level;
use crate::rules::grid::Pos;
use crate::rules::story::{Action, Area, ChoiceOption, EventDef, Ground, MAX_BRANCHES, MAX_CP_AWARD, MAX_LABEL, MAX_OPTIONS, Trigger, Who};

/// What the level holds, to choose from.
pub(super) struct Lists {
    pub sides: Vec<String>,
    pub figures: Vec<String>,
    pub doors: Vec<Pos>,
    pub items: Vec<String>,
    pub encounters: Vec<String>,
    pub arriving: Vec<String>,
    pub events: Vec<String>,
    /// Issue 46: the level's variables, and its traps' spaces.
    pub vars: Vec<String>,
    pub traps: Vec<Pos>,
}

fn push_new(v: &mut Vec<String>, s: &str) {
    if !v.iter().any(|x| x == s) {
        v.push(s.to_string());
    }
}

pub(super) fn lists(l: &Level) -> Lists {
    let mut items = vec![];
    for i in &l.items {
        push_new(&mut items, &i.item);
    }
    for c in &l.chests {
        c.items.iter().for_each(|i| push_new(&mut items, i));
    }
    for c in &l.characters {
        c.items.iter().flatten().for_each(|i| push_new(&mut items, i));
    }
    l.keys.iter().for_each(|k| push_new(&mut items, &k.id));
    push_new(&mut items, "potion_of_healing");
    let doors = l
        .floors
        .iter()
        .enumerate()
        .flat_map(|(f, rows)| {
            rows.iter().enumerate().flat_map(move |(y, r)| {
                r.chars().enumerate().filter(|(_, c)| matches!(c, '+' | '/' | 'L' | 'S')).map(move |(x, _)| Pos::on(x as i32, y as i32, f as u8))
            })
        })
        .take(256)
        .collect();
    Lists {
        sides: l.sides.iter().map(|s| s.id.clone()).collect(),
        figures: l.characters.iter().filter_map(|c| c.id.clone()).collect(),
        doors,
        items,
        encounters: l.encounters.iter().map(|e| e.id.clone()).collect(),
        arriving: l.encounters.iter().filter(|e| e.arrives).map(|e| e.id.clone()).collect(),
        events: l.events.iter().map(|e| e.id.clone()).collect(),
        vars: l.vars.keys().cloned().collect(),
        traps: l.traps.iter().map(|t| t.pos).take(256).collect(),
    }
}

/// Who a trigger or a condition may name: anyone, each side, each figure.
pub(super) fn who_list(ls: &Lists) -> Vec<Who> {
    std::iter::once(Who::Any).chain(ls.sides.iter().map(|s| Who::Side(s.clone()))).chain(ls.figures.iter().map(|s| Who::Figure(s.clone()))).collect()
}

/// The variable a new `set_var`, `add_var` or `var` clause names: the level's first, else
/// `counter`, declared at 0.
pub(super) fn first_var(l: &mut Level) -> String {
    if let Some(v) = l.vars.keys().next() {
        return v.clone();
    }
    l.vars.insert("counter".into(), 0);
    "counter".into()
}

/// A field of issue 46's triggers, actions and events.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum M {
    By,
    TrapAt,
    Hp,
    TileAt,
    Ground,
    Var,
    Value,
    Cp,
    Heroes,
    Branches,
    ChoiceSide,
    Prompt,
    Options,
    Shown,
    Times,
    /// The form stepped into the actions of the branch or option (`event_nest`).
    Enter(usize),
}

/// A row of issue 46: its label, value, kind and field.
pub(super) type MoreRow = (&'static str, String, RowKind, M);

fn at(p: &Pos) -> String {
    if p.floor == 0 { format!("({}, {})", p.x, p.y) } else { format!("({}, {}) floor {}", p.x, p.y, p.floor + 1) }
}

/// The new triggers the level can use, each with its first values.
pub(super) fn trigger_kinds(l: &Level, ls: &Lists) -> Vec<Trigger> {
    let who = ls.sides.last().map_or(Who::Any, |s| Who::Side(s.clone()));
    let mut v = vec![Trigger::RoundEnds];
    if let Some(by) = ls.sides.first() {
        v.push(Trigger::Sighted { who: who.clone(), by: by.clone() });
    }
    if l.mode == LevelMode::Exploration {
        v.push(Trigger::TrapSprung { who: Who::Any, at: None });
    }
    v.push(Trigger::HpAtMost { who, hp: 3 });
    v
}

/// The new actions the level can use, each with its first values (a variable: `first_var`'s,
/// named here and declared when the action is chosen).
pub(super) fn action_kinds(ls: &Lists, sel: Area) -> Vec<Action> {
    let var = ls.vars.first().cloned().unwrap_or_else(|| "counter".into());
    let mut v = vec![Action::Tile { at: sel.from, to: Ground::Wall }, Action::SetVar { name: var.clone(), to: 1 }, Action::AddVar { name: var, by: 1 }];
    v.push(Action::AwardCp { who: ls.sides.first().map_or(Who::Any, |s| Who::Side(s.clone())), cp: 1 });
    v.push(Action::OneOf(vec![vec![Action::Message(String::new())], vec![Action::Message(String::new())]]));
    if let Some(side) = ls.sides.first() {
        let option = |label: &str| ChoiceOption { label: label.into(), then: vec![] };
        v.push(Action::Choice { side: side.clone(), prompt: String::new(), options: vec![option("Yes"), option("No")] });
    }
    v
}

pub(super) fn trigger_name(t: &Trigger) -> &'static str {
    match t {
        Trigger::RoundEnds => "a round ends",
        Trigger::Sighted { .. } => "a figure is sighted",
        Trigger::TrapSprung { .. } => "a trap is sprung",
        Trigger::HpAtMost { .. } => "a figure's HP fall to",
        _ => "",
    }
}

/// The rows of a new trigger's own fields (its `who` is the form's own row).
pub(super) fn trigger_rows(t: &Trigger) -> Vec<MoreRow> {
    match t {
        Trigger::Sighted { by, .. } => vec![("by side", by.clone(), RowKind::Choice, M::By)],
        Trigger::TrapSprung { at: p, .. } => vec![("trap at", p.as_ref().map_or("any trap".into(), at), RowKind::Choice, M::TrapAt)],
        Trigger::HpAtMost { hp, .. } => vec![("HP at most", hp.to_string(), RowKind::Number, M::Hp)],
        _ => vec![],
    }
}

pub(super) fn action_name(a: &Action) -> &'static str {
    match a {
        Action::Tile { .. } => "change a space",
        Action::SetVar { .. } => "set a variable",
        Action::AddVar { .. } => "add to a variable",
        Action::AwardCp { .. } => "award CP",
        Action::OneOf(_) => "one of, drawn",
        Action::Choice { .. } => "a choice for a side",
        _ => "",
    }
}

/// The rows of a new action's fields.
pub(super) fn action_rows(a: &Action) -> Vec<MoreRow> {
    match a {
        Action::Tile { at: p, to } => vec![("space", at(p), RowKind::Area, M::TileAt), ("to", super::write::compact(to), RowKind::Choice, M::Ground)],
        Action::SetVar { name, to: n } | Action::AddVar { name, by: n } => {
            let verb = if matches!(a, Action::SetVar { .. }) { "to" } else { "by" };
            vec![("variable", name.clone(), RowKind::Choice, M::Var), (verb, n.to_string(), RowKind::Number, M::Value)]
        }
        Action::AwardCp { who, cp } => {
            let w = match who {
                Who::Any => "every hero".into(),
                Who::Side(s) => format!("side {s}"),
                Who::Figure(f) => format!("figure {f}"),
            };
            vec![("heroes", w, RowKind::Choice, M::Heroes), ("CP", cp.to_string(), RowKind::Number, M::Cp)]
        }
        Action::OneOf(b) => {
            let mut v: Vec<MoreRow> = vec![("branches", b.len().to_string(), RowKind::Number, M::Branches)];
            for (i, branch) in b.iter().take(MAX_BRANCHES).enumerate() {
                v.push((BRANCH[i], super::event_nest::enter_value(branch), RowKind::Toggle, M::Enter(i)));
            }
            v
        }
        Action::Choice { side, prompt, options } => {
            let mut v: Vec<MoreRow> = vec![
                ("side", side.clone(), RowKind::Choice, M::ChoiceSide),
                ("prompt", if prompt.is_empty() { "(type it)".into() } else { short(prompt) }, RowKind::Text, M::Prompt),
                ("options", options.len().to_string(), RowKind::Number, M::Options),
            ];
            for (i, o) in options.iter().take(MAX_OPTIONS).enumerate() {
                // Its label is typed (the window: `set_choice_label`); what it does is a list of
                // actions the form steps into.
                v.push(("option", short(&o.label), RowKind::Text, M::Shown));
                v.push(("does", super::event_nest::enter_value(&o.then), RowKind::Toggle, M::Enter(i)));
            }
            v
        }
        _ => vec![],
    }
}

fn short(s: &str) -> String {
    let t: String = s.chars().take(60).collect();
    if s.chars().count() > 60 { format!("{t}...") } else { t }
}

/// The `times` row: how many times the event may fire (`none`: once, or each time with
/// `repeat`).
pub(super) fn times_row(e: &EventDef) -> MoreRow {
    ("at most", e.times.map_or("no limit".into(), |t| format!("{t} times")), RowKind::Number, M::Times)
}

fn step_in<T: PartialEq + Clone>(list: &[T], now: &mut T, dir: i8) {
    if let Some(n) = super::form_row::step(list, now, dir) {
        *now = n;
    }
}

fn num(n: i64, dir: i8, lo: i64, hi: i64) -> i64 {
    (n + dir.signum() as i64).clamp(lo, hi)
}

/// The labels of a `one_of`'s branch rows.
const BRANCH: [&str; MAX_BRANCHES] = ["branch 1", "branch 2", "branch 3", "branch 4", "branch 5", "branch 6", "branch 7", "branch 8"];

/// Event `k`'s field `m` (of its trigger, of its action `a` in the list at `path`, or its own)
/// stepped by `dir`; `sel` is the map's selection.
#[allow(clippy::too_many_arguments)]
pub(super) fn step(l: &mut Level, k: usize, path: &[(usize, usize)], a: Option<usize>, m: M, dir: i8, ls: &Lists, sel: Area) {
    if matches!(m, M::Var) && ls.vars.is_empty() {
        first_var(l);
    }
    let vars: Vec<String> = l.vars.keys().cloned().collect();
    let who = who_list(ls);
    let traps: Vec<Option<Pos>> = std::iter::once(None).chain(ls.traps.iter().copied().map(Some)).collect();
    let Some(e) = l.events.get_mut(k) else { return };
    if m == M::Times {
        let t = num(e.times.unwrap_or(0) as i64, dir, 0, 9999);
        e.times = (t > 0).then_some(t as u32);
        return;
    }
    let Some(a) = a else {
        match (&mut e.when, m) {
            (Trigger::Sighted { by, .. }, M::By) => step_in(&ls.sides, by, dir),
            (Trigger::TrapSprung { at, .. }, M::TrapAt) => step_in(&traps, at, dir),
            (Trigger::HpAtMost { hp, .. }, M::Hp) => *hp = num(*hp as i64, dir, -100, 100) as i32,
            _ => {}
        }
        return;
    };
    let Some(act) = super::event_nest::list_mut(&mut e.then, path).and_then(|v| v.get_mut(a)) else { return };
    match (act, m) {
        (Action::Tile { at, .. }, M::TileAt) => *at = sel.from,
        (Action::Tile { to, .. }, M::Ground) => step_in(&[Ground::Floor, Ground::Wall, Ground::Pillar, Ground::Pit, Ground::Difficult], to, dir),
        (Action::SetVar { name, .. } | Action::AddVar { name, .. }, M::Var) => step_in(&vars, name, dir),
        (Action::SetVar { to: n, .. } | Action::AddVar { by: n, .. }, M::Value) => *n = num(*n as i64, dir, -9999, 9999) as i32,
        (Action::AwardCp { who: w, .. }, M::Heroes) => step_in(&who, w, dir),
        (Action::AwardCp { cp, .. }, M::Cp) => *cp = num(*cp as i64, dir, 1, MAX_CP_AWARD as i64) as u32,
        (Action::Choice { side, .. }, M::ChoiceSide) => step_in(&ls.sides, side, dir),
        (Action::Choice { options, .. }, M::Options) => {
            if dir > 0 && options.len() < MAX_OPTIONS {
                options.push(ChoiceOption { label: format!("Option {}", options.len() + 1), then: vec![] });
            } else if dir < 0 && options.len() > 2 {
                options.pop();
            }
        }
        (Action::OneOf(b), M::Branches) => {
            if dir > 0 && b.len() < MAX_BRANCHES {
                b.push(vec![Action::Message(String::new())]);
            } else if dir < 0 && b.len() > 2 {
                b.pop();
            }
        }
        _ => {}
    }
}

/// A new action chosen in the form: the variable it names is declared when the level has none.
pub(super) fn chosen(l: &mut Level, a: &Action) {
    if matches!(a, Action::SetVar { .. } | Action::AddVar { .. }) && l.vars.is_empty() {
        first_var(l);
    }
}

impl Doc {
    /// The label of option `o` of the k-th event's a-th action (of the list its form shows), a
    /// choice (issue 46: 1 to
    /// `MAX_LABEL` characters, no control characters); false when it is no choice's option or
    /// the label is empty.
    pub fn set_choice_label(&mut self, k: usize, a: usize, o: usize, label: &str) -> bool {
        let label: String = label.chars().filter(|c| !c.is_control()).take(MAX_LABEL).collect();
        let label = label.trim().to_string();
        let is_option = matches!(self.scoped(k).and_then(|v| v.get(a)), Some(Action::Choice { options, .. }) if o < options.len());
        if label.is_empty() || !is_option {
            return false;
        }
        let path = self.scope_of(k);
        self.edit(|l, _| {
            let list = l.events.get_mut(k).and_then(|e| super::event_nest::list_mut(&mut e.then, &path));
            if let Some(Action::Choice { options, .. }) = list.and_then(|v| v.get_mut(a)) {
                options[o].label = label;
            }
        })
    }

    /// The label of option `o` of the k-th event's a-th action, when it is a choice.
    pub fn choice_label(&self, k: usize, a: usize, o: usize) -> Option<String> {
        match self.scoped(k)?.get(a)? {
            Action::Choice { options, .. } => options.get(o).map(|x| x.label.clone()),
            _ => None,
        }
    }

    /// The k-th event moved one place up (`dir` -1) or down (1) in the level's list: events
    /// fire in the order the level lists them. False when it cannot move.
    pub fn move_event(&mut self, k: usize, dir: i8) -> bool {
        let n = self.level.events.len();
        let j = k as i64 + dir.signum() as i64;
        if k >= n || j < 0 || j as usize >= n || dir == 0 {
            return false;
        }
        self.edit(|l, _| l.events.swap(k, j as usize))
    }

    /// The level variable `name` declared (or set) at `value` (issue 46); refused when it is
    /// not a plain id or the level has `MAX_VARS` already.
    pub fn set_var(&mut self, name: &str, value: i32) -> bool {
        let name = name.trim();
        let plain =
            !name.is_empty() && name.len() <= crate::rules::story::MAX_VAR_NAME && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !plain || (!self.level.vars.contains_key(name) && self.level.vars.len() >= crate::rules::story::MAX_VARS) {
            return false;
        }
        let name = name.to_string();
        self.edit(|l, _| {
            l.vars.insert(name, value);
        })
    }

    /// The level variable `name` no longer declared; refused while an event uses it (a
    /// `set_var`, an `add_var`, a `var` clause: `event_vars::used`).
    pub fn remove_var(&mut self, name: &str) -> bool {
        if super::event_vars::used(&self.level, name) || !self.level.vars.contains_key(name) {
            return false;
        }
        let name = name.to_string();
        self.edit(|l, _| {
            l.vars.remove(&name);
        })
    }
}
