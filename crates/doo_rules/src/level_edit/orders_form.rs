//! Orders (issue 45) as rows of the editor's forms (issue 46): the figure form's `orders` and
//! the event form's `orders` action step through every kind the format has (docs/levels.md,
//! "Orders"), each with a default the level holds and that `validate` accepts, and each field
//! through the level's lists: guard an area (the map's selection, or grown around the figure),
//! patrol a route (the selection's corners, or his space and another near it), ambush (its
//! reach), hold a space and flee to one (the selection's, or one near him), bodyguard another
//! figure, hunt the weakest or the carrier of an item, call another encounter for help (crawls).

use super::form_row::{RowKind, step};
use crate::level_file::{Level, TileSpec};
use crate::rules::grid::Pos;
use crate::rules::orders::{MAX_REACH, MAX_ROUTE, Orders, Prey};
use crate::rules::story::Area;

/// A field of the orders.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum OF {
    Kind,
    Area,
    Route,
    At,
    Reach,
    Figure,
    Below,
    Prey,
    Encounter,
}

/// What the orders' fields are chosen from.
pub(super) struct OrderCtx {
    /// The figure's space (an encounter's: its first member's); what "near him" is about.
    pub anchor: Pos,
    /// The map's selection (the event form's); `None`: the fields step near the anchor.
    pub sel: Option<Area>,
    /// Whom a bodyguard may guard (never himself).
    pub figures: Vec<String>,
    /// What a hunter may hunt the carrier of.
    pub items: Vec<String>,
    /// Whom a call for help may call (crawls only; never his own encounter).
    pub encounters: Vec<String>,
}

/// Whether a figure can stand on the space (`Tile::walkable`: floor, open door, stairs,
/// difficult ground).
pub(super) fn standable(l: &Level, p: Pos) -> bool {
    let Some(c) = l.floors.get(p.floor as usize).and_then(|f| f.get(usize::try_from(p.y).ok()?)).and_then(|r| r.chars().nth(usize::try_from(p.x).ok()?)) else {
        return false;
    };
    match l.legend.get(&c) {
        Some(t) => matches!(t, TileSpec::Floor | TileSpec::DoorOpen | TileSpec::Difficult | TileSpec::StairsUp | TileSpec::StairsDown),
        None => matches!(c, '.' | '/' | '~' | '>' | '<'),
    }
}

fn on_map(l: &Level, p: Pos) -> bool {
    l.floors.get(p.floor as usize).and_then(|f| f.get(usize::try_from(p.y).ok()?)).is_some_and(|r| p.x >= 0 && (p.x as usize) < r.chars().count())
}

/// The standable spaces within 3 of `a` on its floor, nearest first (then by row, column).
pub(super) fn near(l: &Level, a: Pos) -> Vec<Pos> {
    let mut v: Vec<Pos> = (-3..=3).flat_map(|dy| (-3..=3).map(move |dx| Pos::on(a.x + dx, a.y + dy, a.floor))).filter(|p| standable(l, *p)).collect();
    v.sort_by_key(|p| ((p.x - a.x).abs().max((p.y - a.y).abs()), p.y, p.x));
    v
}

/// The first standable space of the map (a figure with no space yet is "near" it).
pub(super) fn first_standable(l: &Level) -> Pos {
    l.floors
        .iter()
        .enumerate()
        .find_map(|(f, rows)| {
            rows.iter().enumerate().find_map(|(y, r)| r.chars().enumerate().map(|(x, _)| Pos::on(x as i32, y as i32, f as u8)).find(|p| standable(l, *p)))
        })
        .unwrap_or(Pos::on(0, 0, 0))
}

/// The area `r` spaces round `a`, cut to the map.
fn around(l: &Level, a: Pos, r: i32) -> Area {
    let h = l.floors.get(a.floor as usize).map_or(1, |f| f.len() as i32);
    let w = l.floors.get(a.floor as usize).and_then(|f| f.first()).map_or(1, |r| r.chars().count() as i32);
    let c = |x: i32, hi: i32| x.clamp(0, (hi - 1).max(0));
    Area { from: Pos::on(c(a.x - r, w), c(a.y - r, h), a.floor), to: Pos::on(c(a.x + r, w), c(a.y + r, h), a.floor) }
}

/// Every kind of orders with its default (none first).
fn kinds(l: &Level, cx: &OrderCtx) -> Vec<Option<Orders>> {
    let a = cx.anchor;
    let near = near(l, a);
    let other = near.iter().copied().find(|p| *p != a);
    let mut v = vec![None, Some(Orders::Guard { area: around(l, a, 1) })];
    if standable(l, a) {
        v.push(Some(Orders::Patrol { route: std::iter::once(a).chain(other).collect() }));
    }
    v.push(Some(Orders::Ambush { reach: 2 }));
    if standable(l, a) {
        v.push(Some(Orders::Hold { at: a }));
    }
    if let Some(f) = cx.figures.first() {
        v.push(Some(Orders::Bodyguard { figure: f.clone() }));
    }
    if let Some(to) = other.or(standable(l, a).then_some(a)) {
        v.push(Some(Orders::Flee { to, below: 50 }));
    }
    v.push(Some(Orders::Hunt { prey: Prey::Weakest }));
    if let Some(e) = cx.encounters.first() {
        v.push(Some(Orders::CallForHelp { encounter: e.clone() }));
    }
    v
}

fn at(p: &Pos) -> String {
    if p.floor == 0 { format!("({}, {})", p.x, p.y) } else { format!("({}, {}) floor {}", p.x, p.y, p.floor + 1) }
}

/// The rows of orders `o`: the kind, then its fields (label, value, kind, field).
pub(super) fn rows(o: Option<&Orders>, sel: bool) -> Vec<(&'static str, String, RowKind, OF)> {
    let place = if sel { RowKind::Area } else { RowKind::Choice };
    let mut v = vec![("orders", o.map_or("none", Orders::name).to_string(), RowKind::Choice, OF::Kind)];
    match o {
        None => {}
        Some(Orders::Guard { area }) => {
            v.push(("area", format!("{}-{}", at(&area.from), at(&area.to)), if sel { RowKind::Area } else { RowKind::Number }, OF::Area))
        }
        Some(Orders::Patrol { route }) => v.push(("route", route.iter().map(at).collect::<Vec<_>>().join(" > "), place, OF::Route)),
        Some(Orders::Ambush { reach }) => v.push(("reach", reach.to_string(), RowKind::Number, OF::Reach)),
        Some(Orders::Hold { at: p }) => v.push(("at", at(p), place, OF::At)),
        Some(Orders::Bodyguard { figure }) => v.push(("figure", figure.clone(), RowKind::Choice, OF::Figure)),
        Some(Orders::Flee { to, below }) => v.extend([("to", at(to), place, OF::At), ("below %", below.to_string(), RowKind::Number, OF::Below)]),
        Some(Orders::Hunt { prey }) => {
            let p = match prey {
                Prey::Weakest => "the weakest".to_string(),
                Prey::Carrier(i) => format!("the carrier of {i}"),
            };
            v.push(("prey", p, RowKind::Choice, OF::Prey));
        }
        Some(Orders::CallForHelp { encounter }) => v.push(("encounter", encounter.clone(), RowKind::Choice, OF::Encounter)),
    }
    v
}

fn same(a: &Option<Orders>, b: &Option<Orders>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => std::mem::discriminant(a) == std::mem::discriminant(b),
        (None, None) => true,
        _ => false,
    }
}

/// The space the selection names (its first corner), when a figure can stand there.
fn sel_space(l: &Level, cx: &OrderCtx) -> Option<Pos> {
    cx.sel.map(|s| s.from).filter(|p| standable(l, *p))
}

/// Orders `o`'s field `f` stepped `dir` (the kind: the next kind, with its default); a place
/// taken from the selection is refused (kept) where no figure can stand or off the map.
pub(super) fn step_orders(l: &Level, o: &mut Option<Orders>, f: OF, dir: i8, cx: &OrderCtx) {
    let d = dir.signum() as i32;
    if f == OF::Kind {
        let all = kinds(l, cx);
        let i = all.iter().position(|k| same(k, o)).map_or(0, |i| (i as i32 + d).rem_euclid(all.len() as i32) as usize);
        *o = all[i].clone();
        return;
    }
    let near = near(l, cx.anchor);
    let Some(now) = o.as_mut() else { return };
    match (now, f) {
        (Orders::Guard { area }, OF::Area) => match cx.sel {
            Some(s) if on_map(l, s.from) && on_map(l, s.to) && s.from.floor == s.to.floor => *area = s,
            Some(_) => {}
            None => {
                let r = ((area.to.x - area.from.x).max(area.to.y - area.from.y) / 2 + d).clamp(0, 8);
                *area = around(l, cx.anchor, r);
            }
        },
        (Orders::Patrol { route }, OF::Route) => match cx.sel {
            Some(s) => {
                let mut r: Vec<Pos> = vec![s.from];
                if s.to != s.from {
                    r.push(s.to);
                }
                if r.iter().all(|p| standable(l, *p)) {
                    *route = r;
                }
            }
            None => {
                let last = route.last().copied().unwrap_or(cx.anchor);
                if let Some(p) = step(&near, &last, dir) {
                    *route = if p == cx.anchor || !standable(l, cx.anchor) { vec![p] } else { vec![cx.anchor, p] };
                    route.truncate(MAX_ROUTE);
                }
            }
        },
        (Orders::Hold { at: p } | Orders::Flee { to: p, .. }, OF::At) => {
            if cx.sel.is_some() {
                if let Some(s) = sel_space(l, cx) {
                    *p = s;
                }
            } else if let Some(n) = step(&near, p, dir) {
                *p = n;
            }
        }
        (Orders::Ambush { reach }, OF::Reach) => *reach = (*reach as i32 + d).clamp(1, MAX_REACH as i32) as u32,
        (Orders::Flee { below, .. }, OF::Below) => *below = (*below as i32 + d).clamp(1, 99) as u32,
        (Orders::Bodyguard { figure }, OF::Figure) => {
            if let Some(n) = step(&cx.figures, figure, dir) {
                *figure = n;
            }
        }
        (Orders::Hunt { prey }, OF::Prey) => {
            let all: Vec<Prey> = std::iter::once(Prey::Weakest).chain(cx.items.iter().map(|i| Prey::Carrier(i.clone()))).collect();
            if let Some(n) = step(&all, prey, dir) {
                *prey = n;
            }
        }
        (Orders::CallForHelp { encounter }, OF::Encounter) => {
            if let Some(n) = step(&cx.encounters, encounter, dir) {
                *encounter = n;
            }
        }
        _ => {}
    }
}

/// What a hunter may hunt the carrier of in the event form: the level's keys, the items its
/// figures carry and that lie on the map, and a potion of healing.
pub(super) fn hunted(l: &Level) -> Vec<String> {
    let mut v: Vec<String> = l.keys.iter().map(|k| k.id.clone()).collect();
    let more = l.characters.iter().flat_map(|c| c.items.iter().flatten().cloned()).chain(l.items.iter().map(|i| i.item.clone()));
    for i in more.chain(["potion_of_healing".to_string()]) {
        if !v.contains(&i) {
            v.push(i);
        }
    }
    v
}
