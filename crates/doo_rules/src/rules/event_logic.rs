//! Issue 46: what level events gained: conditions (`only_if`), the level's variables, the
//! triggers `round_ends`, `sighted`, `trap_sprung` and `hp_at_most`, and the actions `tile`,
//! `set_var`, `add_var` and `award_cp` (`one_of` is drawn in `level_events::act`), with their
//! checks and caps. Everything here reads only the match and the events the flow just pushed,
//! so the window, `doo run`, saves and replays agree.

use super::event::Event;
use super::grid::{Pos, Tile};
use super::state::Match;
use super::story::{Action, Cond, DoorState, EventDef, Ground, Trigger, Who, clip};
use super::story::{
    MAX_ACTION_DEPTH, MAX_ACTIONS, MAX_BRANCHES, MAX_COND_DEPTH, MAX_COND_NODES, MAX_CP_AWARD, MAX_LABEL, MAX_OPTIONS, MAX_SIGHT_PAIRS, MAX_TEXT, MAX_VAR_NAME,
    MAX_VARS,
};

pub(crate) fn who_matches(m: &Match, who: &Who, i: usize) -> bool {
    match who {
        Who::Any => true,
        Who::Side(s) => &m.fighters[i].side == s,
        Who::Figure(id) => m.fighters[i].id == *id,
    }
}

fn is_door(t: Option<Tile>) -> bool {
    matches!(t, Some(Tile::DoorOpen | Tile::DoorClosed | Tile::DoorLocked))
}

/// Whether condition `c` holds in match `m` (a level's condition is within its caps: depth
/// `MAX_COND_DEPTH`; `depth` stops a deeper one anyway, as false).
pub fn cond_holds(m: &Match, c: &Cond) -> bool {
    holds_at(m, c, 0)
}

fn holds_at(m: &Match, c: &Cond, depth: usize) -> bool {
    if depth >= MAX_COND_DEPTH {
        return false;
    }
    match c {
        Cond::All(v) => v.iter().all(|c| holds_at(m, c, depth + 1)),
        Cond::Any(v) => v.iter().any(|c| holds_at(m, c, depth + 1)),
        Cond::Not(c) => !holds_at(m, c, depth + 1),
        Cond::Door { at, state } => match (m.board.tile(*at), state) {
            (Some(Tile::DoorOpen), DoorState::Open) => true,
            (Some(Tile::DoorClosed | Tile::DoorLocked), DoorState::Closed) => true,
            (Some(Tile::DoorLocked), DoorState::Locked) => true,
            _ => false,
        },
        Cond::Holds { who, item } => (0..m.fighters.len()).any(|i| who_matches(m, who, i) && m.fighters[i].loadout.items.iter().any(|x| x == item)),
        Cond::Var { name, at_least, at_most } => m.story.as_deref().and_then(|s| s.vars.get(name)).is_some_and(|v| v >= at_least && v <= at_most),
        Cond::Fired(id) => m.story.as_deref().is_some_and(|s| s.defs.iter().position(|d| &d.id == id).is_some_and(|k| s.fired.get(k).is_some_and(|n| *n > 0))),
    }
}

/// Whether one of the triggers of issue 46 holds now, given the events `new` the flow has just
/// pushed (`None`: not one of them).
pub fn trigger_holds(m: &Match, t: &Trigger, new: &[Event]) -> Option<bool> {
    let by = |a: &str, who: &Who| m.index(a).is_some_and(|i| who_matches(m, who, i));
    Some(match t {
        Trigger::RoundEnds => new.iter().any(|e| matches!(e, Event::Round { round, .. } if *round > 1) || matches!(e, Event::PhaseEnded { .. })),
        Trigger::TrapSprung { who, at } => {
            new.iter().any(|e| matches!(e, Event::TrapSprung { actor, at: p, .. } if at.is_none_or(|a| a == *p) && by(actor, who)))
        }
        Trigger::HpAtMost { who, hp } => (0..m.fighters.len()).any(|i| who_matches(m, who, i) && !m.is_dead(i) && m.fighters[i].hp <= *hp),
        Trigger::Sighted { who, by: side } => sighted(m, who, side),
        _ => return None,
    })
}

/// Whether a figure of `who` is in sight of one of side `side`'s able figures (R-EXP-19: in a
/// crawl, line of sight and light; in a fight, line of sight). At most `MAX_SIGHT_PAIRS` pairs
/// are looked at, the first in the match's order.
fn sighted(m: &Match, who: &Who, side: &str) -> bool {
    let n = m.fighters.len();
    let seen: Vec<usize> = (0..n).filter(|&i| who_matches(m, who, i) && m.fighters[i].side != side && !m.is_dead(i)).collect();
    let seers: Vec<usize> = (0..n).filter(|&i| m.fighters[i].side == side && m.standing(i)).collect();
    let mut pairs = 0usize;
    for &a in &seers {
        for &b in &seen {
            pairs += 1;
            if pairs > MAX_SIGHT_PAIRS {
                return false;
            }
            let yes = match m.explore.as_deref() {
                Some(x) => super::explore::sight::sees(m, x, a, b),
                None => m.fighters[a].pos.floor == m.fighters[b].pos.floor && m.board.sees_space(m.fighters[a].pos, m.fighters[b].pos),
            };
            if yes {
                return true;
            }
        }
    }
    false
}

/// Does one of the actions of issue 46 (`tile`, `set_var`, `add_var`, `award_cp`) of event
/// `id`; false when `a` is none of them.
pub fn act(m: &mut Match, id: &str, a: &Action, ev: &mut Vec<Event>) -> bool {
    match a {
        Action::Tile { at, to } => set_ground(m, *at, *to, id, ev),
        Action::SetVar { name, to } => set_var(m, name, |_| *to, id, ev),
        Action::AddVar { name, by } => set_var(m, name, |v| v.saturating_add(*by), id, ev),
        Action::AwardCp { who, cp } => {
            let cp = (*cp).min(MAX_CP_AWARD);
            let heroes: Vec<usize> =
                (0..m.fighters.len()).filter(|&i| who_matches(m, who, i) && m.heroes.contains(&m.fighters[i].id) && !m.is_dead(i)).collect();
            for i in heroes {
                // R-CP-10: CP the level's own objectives give; told as they are earned (R-CP-9's
                // `cp_earned`), so a campaign's level end counts them.
                let hero = m.fighters[i].id.clone();
                ev.push(Event::CpEarned { hero, cp, rule: "R-CP-10".into(), why: format!("level event '{id}'") });
            }
        }
        _ => return false,
    }
    true
}

fn set_var(m: &mut Match, name: &str, f: impl Fn(i32) -> i32, id: &str, ev: &mut Vec<Event>) {
    let Some(v) = m.story.as_deref_mut().and_then(|s| s.vars.get_mut(name)) else { return };
    let was = *v;
    *v = f(was);
    if *v != was {
        ev.push(Event::Note { text: format!("Level event '{id}': {name} is now {} (was {was}).", *v) });
    }
}

/// `Action::Tile`: the space becomes `to`; a door's or a stair's space is left as it is
/// (`validate` refuses them), and so is a space a figure stands on when `to` is no ground to
/// stand on.
fn set_ground(m: &mut Match, at: Pos, to: Ground, id: &str, ev: &mut Vec<Event>) {
    let Some(now) = m.board.tile(at) else { return };
    let tile = to.tile();
    if is_door(Some(now)) || matches!(now, Tile::Stairs { .. }) || now == tile {
        return;
    }
    if !tile.walkable() && m.occupant(at).is_some() {
        ev.push(Event::Note { text: format!("Level event '{id}': the space {at} stays as it is: a figure stands on it.") });
        return;
    }
    m.board.set_tile(at, tile);
    ev.push(Event::Note { text: format!("Level event '{id}': the space {at} is now {}.", super::grid::tile_name(tile)) });
}

/// The actions of `list` and those nested in them, depth first, at most `limit` (a hostile
/// level's are counted without being listed past that).
pub fn flat(list: &[Action], limit: usize) -> Vec<&Action> {
    fn go<'a>(list: &'a [Action], out: &mut Vec<&'a Action>, limit: usize, depth: usize) {
        for a in list {
            if out.len() >= limit || depth > MAX_ACTION_DEPTH + 1 {
                return;
            }
            out.push(a);
            for b in a.nested() {
                go(b, out, limit, depth + 1);
            }
        }
    }
    let mut out = Vec::new();
    go(list, &mut out, limit, 1);
    out
}

/// The deepest nesting of `list` (its own actions: 1), counted up to `MAX_ACTION_DEPTH + 1`.
fn depth(list: &[Action], at: usize) -> usize {
    if at > MAX_ACTION_DEPTH {
        return at;
    }
    list.iter().flat_map(|a| a.nested()).map(|b| depth(b, at + 1)).max().unwrap_or(at)
}

/// The caps of event `d`'s actions as a whole (issue 46): at most `MAX_ACTIONS` counting those
/// nested in a `one_of`, nested at most `MAX_ACTION_DEPTH` deep.
pub fn actions_problem(d: &EventDef) -> Option<String> {
    let n = flat(&d.then, MAX_ACTIONS + 1).len();
    if n > MAX_ACTIONS {
        return Some(format!("at most {MAX_ACTIONS} actions per event, those inside a `one_of` counted (this one has more)"));
    }
    let deep = depth(&d.then, 1);
    (deep > MAX_ACTION_DEPTH).then(|| format!("actions are nested at most {MAX_ACTION_DEPTH} deep (`one_of` in `one_of`); this one is deeper"))
}

/// The problem of one action of issue 46 (`None`: none, or not one of them).
pub fn action_problem(m: &Match, a: &Action, who_bad: &dyn Fn(&Who) -> Option<String>) -> Option<String> {
    let vars = m.story.as_deref().map(|s| &s.vars);
    let var_bad =
        |name: &str| (!vars.is_some_and(|v| v.contains_key(name))).then(|| format!("unknown variable '{}' (declare it in the level's `vars`)", clip(name)));
    match a {
        Action::Tile { at, .. } => match m.board.tile(*at) {
            None => Some(format!("tile: the space {at} is not on the map")),
            Some(t) if is_door(Some(t)) => Some(format!("tile: the space {at} is a door (set it with `door`)")),
            Some(Tile::Stairs { .. }) => Some(format!("tile: the space {at} is stairs (the map's links stay)")),
            _ => None,
        },
        Action::SetVar { name, .. } | Action::AddVar { name, .. } => var_bad(name),
        Action::AwardCp { who, cp } => {
            if *cp == 0 || *cp > MAX_CP_AWARD {
                Some(format!("award_cp: 1 to {MAX_CP_AWARD} CP (this one gives {cp})"))
            } else {
                who_bad(who)
            }
        }
        Action::OneOf(b) if b.len() < 2 || b.len() > MAX_BRANCHES => Some(format!("one_of: 2 to {MAX_BRANCHES} branches (this one has {})", b.len())),
        Action::Choice { options, prompt, .. } => {
            if options.len() < 2 || options.len() > MAX_OPTIONS {
                Some(format!("choice: 2 to {MAX_OPTIONS} options (this one has {})", options.len()))
            } else if prompt.chars().count() > MAX_TEXT {
                Some(format!("choice: a prompt is at most {MAX_TEXT} characters"))
            } else {
                options
                    .iter()
                    .find(|o| o.label.trim().is_empty() || o.label.chars().count() > MAX_LABEL || o.label.chars().any(char::is_control))
                    .map(|o| format!("choice: an option's label is 1 to {MAX_LABEL} characters, no control characters ('{}')", clip(&o.label)))
            }
        }
        _ => None,
    }
}

/// The problem of one trigger of issue 46 (`None`: none, or not one of them).
pub fn trigger_problem(m: &Match, t: &Trigger, who_bad: &dyn Fn(&Who) -> Option<String>, side_ok: &dyn Fn(&str) -> bool) -> Option<String> {
    match t {
        Trigger::Sighted { by, .. } if !side_ok(by) => Some(format!("sighted: unknown side '{}'", clip(by))),
        Trigger::TrapSprung { at: Some(p), .. } if m.board.tile(*p).is_none() => Some(format!("trap_sprung: the space {p} is not on the map")),
        Trigger::Sighted { who, .. } | Trigger::TrapSprung { who, .. } | Trigger::HpAtMost { who, .. } => who_bad(who),
        _ => None,
    }
}

/// The problem of an event's condition: its caps (depth, clauses), then the names it uses (an
/// unknown door, item, figure or side, variable or event).
pub fn cond_problem(m: &Match, defs: &[EventDef], c: &Cond, who_bad: &dyn Fn(&Who) -> Option<String>, item_ok: &dyn Fn(&str) -> bool) -> Option<String> {
    let mut nodes = 0usize;
    let mut first: Option<String> = None;
    let leaf_problem = |c: &Cond| leaf_problem_of(m, defs, c, who_bad, item_ok);
    walk(c, 1, &mut nodes, &mut |c, depth| {
        let problem = if depth > MAX_COND_DEPTH {
            Some(format!("only_if: conditions are nested at most {MAX_COND_DEPTH} deep (all, any, not)"))
        } else {
            leaf_problem(c)
        };
        problem.map(|p| first.get_or_insert(p).clone())
    });
    if nodes > MAX_COND_NODES {
        return Some(format!("only_if: at most {MAX_COND_NODES} clauses (all, any and not counted) in a condition (this one has more)"));
    }
    first
}

fn leaf_problem_of(m: &Match, defs: &[EventDef], c: &Cond, who_bad: &dyn Fn(&Who) -> Option<String>, item_ok: &dyn Fn(&str) -> bool) -> Option<String> {
    match c {
        Cond::Door { at, .. } if !is_door(m.board.tile(*at)) => Some(format!("only_if: no door at {at}")),
        Cond::Holds { who, item } => who_bad(who).or_else(|| (!item_ok(item)).then(|| format!("only_if: unknown item '{}'", clip(item)))),
        Cond::Var { name, .. } if !m.story.as_deref().is_some_and(|s| s.vars.contains_key(name)) => {
            Some(format!("only_if: unknown variable '{}' (declare it in the level's `vars`)", clip(name)))
        }
        Cond::Fired(id) if !defs.iter().any(|d| &d.id == id) => Some(format!("only_if: fired: no event '{}' in the level", clip(id))),
        _ => None,
    }
}

/// Visits `c` and its clauses, depth first, stopping at the first problem `f` finds or past
/// `MAX_COND_NODES` nodes (`nodes` counts them) or one level past `MAX_COND_DEPTH`.
fn walk(c: &Cond, depth: usize, nodes: &mut usize, f: &mut dyn FnMut(&Cond, usize) -> Option<String>) -> bool {
    *nodes += 1;
    if *nodes > MAX_COND_NODES || f(c, depth).is_some() {
        return true;
    }
    let inner: &[Cond] = match c {
        Cond::All(v) | Cond::Any(v) => v,
        Cond::Not(c) => std::slice::from_ref(c.as_ref()),
        _ => &[],
    };
    inner.iter().any(|c| walk(c, depth + 1, nodes, f))
}

/// The problems of a level's `vars` (issue 46): at most `MAX_VARS`, each name an id.
pub fn vars_problem(vars: &std::collections::BTreeMap<String, i32>) -> Option<String> {
    if vars.len() > MAX_VARS {
        return Some(format!("at most {MAX_VARS} variables in a level (this one has {})", vars.len()));
    }
    vars.keys()
        .find(|k| k.is_empty() || k.len() > MAX_VAR_NAME || !k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .map(|k| format!("variable '{}': a name is 1 to {MAX_VAR_NAME} letters, digits, '_' or '-'", clip(k)))
}
