//! The checks of a level's events (issue 31, issue 46) against the match they will run in:
//! every name they use resolves, every space is on the map, and the caps (a level file is
//! untrusted input). Each problem names its event; `validate` puts it at the event's entry.

use super::event_logic;
use super::grid::{Pos, Tile};
use super::state::Match;
use super::story::Work;
use super::story::{Action, Area, Deed, EventDef, MAX_ACTIONS, MAX_EVENTS, MAX_REVEAL_AREA, MAX_TEXT, Trigger, Waiting, Who, clip};

/// Why `how` names no row an `acted(what: ...)` can be done with (`None`: it does).
fn row_bad(m: &Match, what: Deed, how: &str) -> Option<String> {
    let r = &m.rules;
    if !what.names_a_row() {
        return Some("acted: `how` names a movement, action, reflex or response row: only with move, attack, action, reflex or response".into());
    }
    let known = match what {
        Deed::Move => how == "explore" || r.movement(how).is_some(),
        Deed::Attack | Deed::Action => r.action(how).is_some(),
        _ => r.reaction(how).is_some(),
    };
    (!known).then(|| format!("acted: no row '{}' in profile {}", clip(how), r.profile))
}

/// The problems of `defs` against the match they will run in: unknown sides, figures, items,
/// encounters, doors and spaces off the map, and the caps. Each is `(event index, message)`.
pub fn problems(m: &Match, defs: &[EventDef]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    if defs.len() > MAX_EVENTS {
        out.push((MAX_EVENTS, format!("at most {MAX_EVENTS} events in a level (this one has {})", defs.len())));
        return out;
    }
    let waiting: &[Waiting] = m.story.as_deref().map(|s| s.waiting.as_slice()).unwrap_or_default();
    let side_ok = |s: &str| m.fighters.iter().chain(waiting.iter().flat_map(|w| &w.figures)).any(|f| f.side == s);
    let fig_ok = |s: &str| m.index(s).is_some() || waiting.iter().any(|w| w.figures.iter().any(|f| f.id == s));
    let on_map = |p: Pos| m.board.tile(p).is_some();
    let encounter_ok = |e: &str| m.explore.as_deref().is_some_and(|x| x.encounters.iter().any(|n| n.id == e));
    let item_ok = |i: &str| m.equipment.item(i).is_some() || m.explore.as_deref().is_some_and(|x| x.keys.contains_key(i));
    let mut seen_ids: Vec<&str> = Vec::new();
    for (k, d) in defs.iter().enumerate() {
        let mut bad = |msg: String| out.push((k, format!("event '{}': {msg}", clip(&d.id))));
        if d.id.is_empty() || d.id.len() > 64 {
            bad("an event id is 1 to 64 characters".into());
        }
        if seen_ids.contains(&d.id.as_str()) {
            bad("the id is used by an earlier event".into());
        }
        seen_ids.push(&d.id);
        if d.then.is_empty() {
            bad("it does nothing (`then` is empty)".into());
        }
        if let Some(a) = &d.after {
            if a == &d.id || !defs.iter().any(|o| &o.id == a) {
                bad(format!("after: no other event '{}' in the level", clip(a)));
            }
        }
        if d.then.len() > MAX_ACTIONS {
            bad(format!("at most {MAX_ACTIONS} actions per event (this one has {})", d.then.len()));
            continue;
        }
        // Issue 46: the nested actions are counted, their nesting capped.
        if let Some(p) = event_logic::actions_problem(d) {
            bad(p);
            continue;
        }
        if d.times == Some(0) {
            bad("times: at least 1 (an event that may fire 0 times never fires)".into());
        }
        let who = |w: &Who| match w {
            Who::Any => None,
            Who::Side(s) if !side_ok(s) => Some(format!("unknown side '{}'", clip(s))),
            Who::Figure(f) if !fig_ok(f) => Some(format!("unknown figure '{}'", clip(f))),
            _ => None,
        };
        let area_bad = |a: &Area| {
            if a.from.floor != a.to.floor {
                Some("an area's corners are on one floor".to_string())
            } else if !on_map(a.from) || !on_map(a.to) {
                Some(format!("the area {}..{} is not on the map", a.from, a.to))
            } else {
                None
            }
        };
        if let Some(p) = d.only_if.as_ref().and_then(|c| event_logic::cond_problem(m, defs, c, &who, &item_ok)) {
            bad(p);
        }
        let t = match &d.when {
            Trigger::Enters { area, who: w } => area_bad(area).or_else(|| who(w)),
            Trigger::Falls { who: w } | Trigger::Offered { who: w, .. } => who(w),
            Trigger::Acted { what, who: w, how } => who(w).or_else(|| how.as_deref().and_then(|h| row_bad(m, *what, h))),
            Trigger::DoorOpens { at } if !matches!(m.board.tile(*at), Some(Tile::DoorOpen | Tile::DoorClosed | Tile::DoorLocked)) => {
                Some(format!("door_opens: no door at {at}"))
            }
            Trigger::ItemTaken { item } if !item_ok(item) => Some(format!("item_taken: unknown item '{}'", clip(item))),
            Trigger::Minute(_) | Trigger::CrisisBegins if m.explore.is_none() => Some("this trigger needs a crawl (`mode: exploration`)".into()),
            // Issue 46: round_ends, sighted, trap_sprung, hp_at_most.
            t => event_logic::trigger_problem(m, t, &who, &side_ok),
        };
        if let Some(e) = t {
            bad(e);
        }
        for a in event_logic::flat(&d.then, MAX_ACTIONS) {
            let e = match a {
                Action::Message(t) if t.chars().count() > MAX_TEXT => Some(format!("a message is at most {MAX_TEXT} characters")),
                Action::StartCrisis { .. } if m.explore.is_none() => Some("start_crisis needs a crawl (`mode: exploration`)".into()),
                Action::StartCrisis { encounters, surprised } => encounters
                    .iter()
                    .find(|e| !encounter_ok(e))
                    .map(|e| format!("start_crisis: unknown encounter '{}'", clip(e)))
                    .or_else(|| surprised.as_deref().filter(|s| !side_ok(s)).map(|s| format!("start_crisis: unknown side '{}'", clip(s)))),
                Action::Door { at, .. } if !matches!(m.board.tile(*at), Some(Tile::DoorOpen | Tile::DoorClosed | Tile::DoorLocked)) => {
                    Some(format!("door: no door at {at}"))
                }
                Action::Reveal { .. } if m.explore.is_none() => Some("reveal needs a crawl (`mode: exploration`)".into()),
                Action::Reveal { area, side } => area_bad(area)
                    .or_else(|| {
                        (area.size() > MAX_REVEAL_AREA).then(|| {
                            format!("reveal: the area {}..{} has {} spaces; the most is {MAX_REVEAL_AREA} (issue 44)", area.from, area.to, area.size())
                        })
                    })
                    .or_else(|| side.as_deref().filter(|s| !side_ok(s)).map(|s| format!("reveal: unknown side '{}'", clip(s)))),
                Action::Give { figure, item } | Action::Take { figure, item } => {
                    if !fig_ok(figure) {
                        Some(format!("unknown figure '{}'", clip(figure)))
                    } else if !item_ok(item) {
                        Some(format!("unknown item '{}'", clip(item)))
                    } else {
                        None
                    }
                }
                Action::Win(s) | Action::Lose(s) if !side_ok(s) => Some(format!("unknown side '{}'", clip(s))),
                Action::Choice { side, .. } if !side_ok(side) => Some(format!("choice: unknown side '{}'", clip(side))),
                Action::Stance { .. } if m.explore.is_none() => Some("stance needs a crawl (`mode: exploration`)".into()),
                Action::Stance { encounter, .. } if !encounter_ok(encounter) => Some(format!("stance: unknown encounter '{}'", clip(encounter))),
                Action::Spawn(_) if m.explore.is_none() => Some("spawn needs a crawl (`mode: exploration`)".into()),
                Action::Orders { .. } if m.explore.is_none() => Some("orders needs a crawl (`mode: exploration`)".into()),
                Action::Orders { encounter, .. } if !encounter_ok(encounter) => Some(format!("orders: unknown encounter '{}'", clip(encounter))),
                Action::Orders { to: Some(o), .. } => super::directives::problem(m, None, o),
                Action::Spawn(e) if !waiting.iter().any(|w| &w.encounter == e) => Some(if encounter_ok(e) {
                    format!("spawn: encounter '{}' is on the map from the start (mark it `arrives: true`)", clip(e))
                } else {
                    format!("spawn: unknown encounter '{}'", clip(e))
                }),
                Action::Spawn(e)
                    if defs[..k]
                        .iter()
                        .chain(std::iter::once(d))
                        .flat_map(|o| event_logic::flat(&o.then, MAX_ACTIONS))
                        .filter(|a| **a == Action::Spawn(e.clone()))
                        .count()
                        > 1 =>
                {
                    Some(format!("spawn: encounter '{}' is spawned by more than one action (it arrives once)", clip(e)))
                }
                _ => event_logic::action_problem(m, a, &who),
            };
            if let Some(e) = e {
                bad(e);
            }
        }
        // Issue 44: an event whose own actions go past one command's budget could never fire.
        if let Some((what, n, cap)) = work(m, d).over() {
            bad(format!("its actions alone come to {n} {what}, over the cap of {cap} for the events of one command (issue 44): it could never fire"));
        }
    }
    out
}

/// The most work event `d`'s actions can do in match `m` (issue 44): the spaces its reveals
/// cover times the sides each reveals to, the figures its spawns bring and its spawns, its
/// gives and its doors. Counted from the match alone, so replays agree.
pub fn work(m: &Match, d: &EventDef) -> Work {
    work_of(m, &d.then, 1)
}

/// The most work of the actions `list` (issue 46: a `one_of` counts the most of each of its
/// branches' counts).
fn work_of(m: &Match, list: &[Action], depth: usize) -> Work {
    let mut w = Work::default();
    let spaces = m.board.spaces();
    if depth > super::story::MAX_ACTION_DEPTH {
        return w;
    }
    for a in list {
        match a {
            Action::Reveal { area, side } => {
                if let Some(x) = m.explore.as_deref() {
                    let sides = if side.is_some() { 1 } else { x.explorers.len().max(1) };
                    w.revealed = w.revealed.saturating_add(area.size().min(spaces).saturating_mul(sides));
                }
            }
            Action::Spawn(e) => {
                let waiting = m.story.as_deref().and_then(|s| s.waiting.iter().find(|w| &w.encounter == e));
                w.spawned = w.spawned.saturating_add(waiting.map_or(0, |w| w.figures.len()));
                w.spawns += 1;
            }
            Action::Give { .. } => w.given += 1,
            Action::Door { .. } => w.doors += 1,
            Action::OneOf(_) | Action::Choice { .. } => w = w.plus(a.nested().into_iter().map(|b| work_of(m, b, depth + 1)).fold(Work::default(), Work::most)),
            _ => {}
        }
    }
    w
}
