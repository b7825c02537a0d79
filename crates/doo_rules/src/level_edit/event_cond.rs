//! An event's condition (`only_if`, issue 46) in the form, as a tree: all or any of a list of
//! clauses (a door's state, a figure holding an item, a variable's bounds, an event fired) and
//! of groups (all or any of their own clauses), each clause and group with its own `not`.
//! Groups nest two deep below the condition's own (`FORM_GROUP_DEPTH`), within the format's
//! caps (`MAX_COND_NODES` clauses, `MAX_COND_DEPTH`). A node is named by its place in the
//! tree's pre-order (0: the condition itself).

use super::event_more::{Lists, first_var, who_list};
use super::form_row::RowKind;
use crate::level_file::Level;
use crate::rules::grid::Pos;
use crate::rules::story::{Cond, DoorState, MAX_COND_NODES, Who};

/// A field of the condition; each names its node (pre-order, 0 the condition's own group).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum C {
    /// A group's all or any.
    Combine(usize),
    /// A clause's kind, a node's `not`, a clause's fields, a node's removal.
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
    /// A clause added to a group.
    Add(usize),
    /// A group (any of one clause) added to a group.
    AddGroup(usize),
}

/// A row of the condition: label, value, kind, field.
pub(super) type CondRow = (std::borrow::Cow<'static, str>, String, RowKind, C);

/// How deep groups nest below the condition's own in the form.
const FORM_GROUP_DEPTH: usize = 2;

/// Row labels by depth (a clause of the condition's own group is depth 0).
const IF: [&str; 3] = ["if", "· if", "· · if"];
const NOT: [&str; 3] = ["not", "· not", "· · not"];
const GROUP: [&str; 2] = ["group", "· group"];

/// A node of the condition as the form edits it.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Node {
    pub not: bool,
    pub kind: NodeKind,
}

#[derive(Clone, Debug, PartialEq)]
pub(super) enum NodeKind {
    Group { any: bool, kids: Vec<Node> },
    Leaf(Cond),
}

fn node(c: &Cond, not: bool) -> Node {
    match c {
        Cond::Not(inner) => node(inner, !not),
        Cond::All(v) => Node { not, kind: NodeKind::Group { any: false, kids: v.iter().map(|c| node(c, false)).collect() } },
        Cond::Any(v) => Node { not, kind: NodeKind::Group { any: true, kids: v.iter().map(|c| node(c, false)).collect() } },
        c => Node { not, kind: NodeKind::Leaf(c.clone()) },
    }
}

/// The condition as a tree whose root is a group (no condition: all of nothing).
pub(super) fn tree(c: Option<&Cond>) -> Node {
    match c.map(|c| node(c, false)) {
        None => Node { not: false, kind: NodeKind::Group { any: false, kids: vec![] } },
        Some(n @ Node { kind: NodeKind::Group { .. }, .. }) => n,
        Some(leaf) => Node { not: false, kind: NodeKind::Group { any: false, kids: vec![leaf] } },
    }
}

fn with_not(not: bool, c: Cond) -> Cond {
    if not { Cond::Not(Box::new(c)) } else { c }
}

/// A node back as a condition: a group of no clause is none; a nested group keeps its one
/// clause as a group (so it stays one in the form).
fn cond_of(n: &Node) -> Option<Cond> {
    match &n.kind {
        NodeKind::Leaf(c) => Some(with_not(n.not, c.clone())),
        NodeKind::Group { any, kids } => {
            let v: Vec<Cond> = kids.iter().filter_map(cond_of).collect();
            (!v.is_empty()).then(|| with_not(n.not, if *any { Cond::Any(v) } else { Cond::All(v) }))
        }
    }
}

/// The condition of the tree (the root's one clause on its own, as a file would say it).
pub(super) fn build(root: &Node) -> Option<Cond> {
    match &root.kind {
        NodeKind::Group { kids, .. } if kids.len() == 1 && !root.not => cond_of(&kids[0]),
        _ => cond_of(root),
    }
}

/// Every node in pre-order, with its depth (the root 0).
pub(super) fn preorder(root: &Node) -> Vec<(&Node, usize)> {
    fn go<'a>(n: &'a Node, d: usize, out: &mut Vec<(&'a Node, usize)>) {
        out.push((n, d));
        if let NodeKind::Group { kids, .. } = &n.kind {
            for k in kids {
                go(k, d + 1, out);
            }
        }
    }
    let mut v = vec![];
    go(root, 0, &mut v);
    v
}

/// Node `id` (pre-order), to change.
fn node_mut(root: &mut Node, id: usize) -> Option<&mut Node> {
    fn go<'a>(n: &'a mut Node, id: usize, next: &mut usize) -> Option<&'a mut Node> {
        if *next == id {
            return Some(n);
        }
        *next += 1;
        if let NodeKind::Group { kids, .. } = &mut n.kind {
            for k in kids.iter_mut() {
                if let Some(x) = go(k, id, next) {
                    return Some(x);
                }
            }
        }
        None
    }
    go(root, id, &mut 0)
}

/// Node `id` taken out of its group (not the root).
fn remove(root: &mut Node, id: usize) {
    fn go(n: &mut Node, id: usize, next: &mut usize) -> bool {
        *next += 1;
        let NodeKind::Group { kids, .. } = &mut n.kind else { return false };
        let mut i = 0;
        while i < kids.len() {
            if *next == id {
                kids.remove(i);
                return true;
            }
            if go(&mut kids[i], id, next) {
                return true;
            }
            i += 1;
        }
        false
    }
    go(root, id, &mut 0);
}

/// The clause at node `id`, if it is one.
pub(super) fn leaf(c: Option<&Cond>, id: usize) -> Option<Cond> {
    let root = tree(c);
    match preorder(&root).get(id) {
        Some((Node { kind: NodeKind::Leaf(c), .. }, _)) => Some(c.clone()),
        _ => None,
    }
}

/// Conditions counted as the format counts them (all, any and not too).
fn count(c: &Cond) -> usize {
    1 + match c {
        Cond::All(v) | Cond::Any(v) => v.iter().map(count).sum(),
        Cond::Not(inner) => count(inner),
        _ => 0,
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
    let root = tree(c);
    let nodes = preorder(&root);
    let room = c.map_or(0, count) + 2 < MAX_COND_NODES;
    let NodeKind::Group { any, kids } = &root.kind else { return vec![] };
    if kids.is_empty() {
        return vec![("only if".into(), "+ condition".into(), RowKind::Add, C::Add(0))];
    }
    let mut v: Vec<CondRow> = vec![("only if".into(), if *any { "any of".into() } else { "all of".into() }, RowKind::Choice, C::Combine(0))];
    if root.not {
        v.push(("not".into(), "not".into(), RowKind::Toggle, C::Not(0)));
    }
    // Each node after the root, in pre-order; a group's add rows once its last clause is shown.
    let mut open: Vec<(usize, usize)> = vec![(0, 0)]; // (group id, depth) whose add rows are owed
    let close = |v: &mut Vec<CondRow>, open: &mut Vec<(usize, usize)>, down_to: usize| {
        while open.last().is_some_and(|(_, d)| *d >= down_to) {
            let (g, d) = open.pop().expect("open");
            if room {
                v.push(("".into(), "+ condition".into(), RowKind::Add, C::Add(g)));
                if d < FORM_GROUP_DEPTH {
                    v.push(("".into(), if d == 0 { "+ group".into() } else { "+ group in it".into() }, RowKind::Add, C::AddGroup(g)));
                }
            }
            if d > 0 {
                v.push(("".into(), "remove group".into(), RowKind::Remove, C::Remove(g)));
            }
        }
    };
    for (id, (n, depth)) in nodes.iter().enumerate().skip(1) {
        close(&mut v, &mut open, *depth);
        let d = (depth - 1).min(2);
        let not = (NOT[d].into(), if n.not { "not".into() } else { "-".into() }, RowKind::Toggle, C::Not(id));
        match &n.kind {
            NodeKind::Group { any, .. } => {
                v.push((GROUP[d.min(1)].into(), if *any { "any of".into() } else { "all of".into() }, RowKind::Choice, C::Combine(id)));
                v.push(not);
                open.push((id, *depth));
            }
            NodeKind::Leaf(c) => {
                let kind = match c {
                    Cond::Door { .. } => "a door is",
                    Cond::Holds { .. } => "someone holds",
                    Cond::Var { .. } => "a variable is",
                    Cond::Fired(_) => "an event fired",
                    _ => "",
                };
                v.push((IF[d].into(), kind.into(), RowKind::Choice, C::Kind(id)));
                v.push(not);
                // The clause's fields under its `if`, as deep as it (`· who` in a group).
                let mut fields: Vec<(&'static str, String, RowKind, C)> = Vec::new();
                match c {
                    Cond::Door { at: p, state } => {
                        fields.extend([("door", at(p), RowKind::Choice, C::Door(id)), ("state", super::write::compact(state), RowKind::Choice, C::State(id))])
                    }
                    Cond::Holds { who, item } => {
                        let w = match who {
                            Who::Any => "anyone".into(),
                            Who::Side(s) => format!("side {s}"),
                            Who::Figure(f) => format!("figure {f}"),
                        };
                        fields.extend([("who", w, RowKind::Choice, C::Who(id)), ("item", item.clone(), RowKind::Choice, C::Item(id))]);
                    }
                    Cond::Var { name, at_least, at_most } => fields.extend([
                        ("variable", name.clone(), RowKind::Choice, C::Var(id)),
                        ("at least", bound(*at_least), RowKind::Number, C::AtLeast(id)),
                        ("at most", bound(*at_most), RowKind::Number, C::AtMost(id)),
                    ]),
                    Cond::Fired(e) => fields.push(("event", e.clone(), RowKind::Choice, C::Event(id))),
                    _ => {}
                }
                let pad = ["", "· ", "· · "][d];
                v.extend(fields.into_iter().map(|(l, val, kind, c)| (if pad.is_empty() { l.into() } else { format!("{pad}{l}").into() }, val, kind, c)));
                v.push(("".into(), "remove".into(), RowKind::Remove, C::Remove(id)));
            }
        }
    }
    close(&mut v, &mut open, 0);
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
    let mut root = tree(l.events[k].only_if.as_ref());
    let kinds = kinds(ls, &me);
    let who = who_list(ls);
    let others: Vec<String> = ls.events.iter().filter(|e| **e != me).cloned().collect();
    match f {
        C::Combine(id) => {
            if let Some(Node { kind: NodeKind::Group { any, .. }, .. }) = node_mut(&mut root, id) {
                *any = !*any;
            }
        }
        C::Add(id) | C::AddGroup(id) => {
            let Some(first) = kinds.first().cloned() else { return };
            let new = match f {
                C::Add(_) => Node { not: false, kind: NodeKind::Leaf(first) },
                _ => Node { not: false, kind: NodeKind::Group { any: true, kids: vec![Node { not: false, kind: NodeKind::Leaf(first) }] } },
            };
            if let Some(Node { kind: NodeKind::Group { kids, .. }, .. }) = node_mut(&mut root, id) {
                kids.push(new);
            }
            // Within the format's caps, or not at all.
            if build(&root).as_ref().map_or(0, count) >= MAX_COND_NODES {
                return;
            }
        }
        // (The condition's own group, 0, is never removed: it has no remove row.)
        C::Remove(id) => remove(&mut root, id),
        C::Not(id) => {
            if let Some(n) = node_mut(&mut root, id) {
                n.not = !n.not;
            }
        }
        C::Kind(id) => {
            if let Some(Node { kind: NodeKind::Leaf(c), .. }) = node_mut(&mut root, id) {
                let n = kinds.len() as i64;
                let pos = kinds.iter().position(|k| std::mem::discriminant(k) == std::mem::discriminant(c));
                if n > 0 {
                    let j = pos.map_or(0, |p| (p as i64 + dir.signum() as i64).rem_euclid(n));
                    *c = kinds[j as usize].clone();
                }
            }
        }
        C::Door(id) | C::State(id) | C::Who(id) | C::Item(id) | C::Var(id) | C::AtLeast(id) | C::AtMost(id) | C::Event(id) => {
            let Some(Node { kind: NodeKind::Leaf(c), .. }) = node_mut(&mut root, id) else { return };
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
    let uses_var = preorder(&root).iter().any(|(n, _)| matches!(n.kind, NodeKind::Leaf(Cond::Var { .. })));
    if uses_var && l.vars.is_empty() {
        first_var(l);
    }
    l.events[k].only_if = build(&root);
}
