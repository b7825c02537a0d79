//! Monsters a designer directs (issue 45): the `orders` a level gives an encounter or a
//! character (guard an area, patrol a route, ambush, hold a choke, bodyguard a figure, flee when
//! hurt, hunt the weakest or a carrier, call for help), as data; the match's record of who has
//! which orders (`Directed`, part of the level's `Story`: saves and replays rebuild it by playing
//! the same commands); and what the rules do with them. The AI reads the orders as one more
//! input to its planner (`ai::orders`); the rules only keep the record up to date, after every
//! command and step of the flow, deterministically: a patroller's next route space, an ambush
//! sprung (a hero came within its reach), a call for help (the first sight of a hero alerts the
//! named encounter, which joins the crisis at the next reset, R-EXP-25), and a level event's
//! `orders(encounter, to)` switching an encounter's orders.

use super::area::clip;
use super::event::Event;
use super::grid::Pos;
use super::state::Match;

pub use super::orders::{Directed, MAX_REACH, MAX_ROUTE, Orders, Prey, at_start};

/// The orders of figure `i` now, if any.
pub fn of(m: &Match, i: usize) -> Option<&Orders> {
    m.story.as_deref()?.directed.orders.get(&m.fighters.get(i)?.id)
}

/// A patroller's next route space.
pub fn leg(m: &Match, i: usize) -> u32 {
    m.story.as_deref().and_then(|s| s.directed.legs.get(&m.fighters[i].id).copied()).unwrap_or(0)
}

/// Whether `h` is a foe to figure `i` for its orders: an enemy able to act, taking part (in a
/// crawl, an explorer to a monster, a hostile to an explorer).
pub fn hero_to(m: &Match, i: usize, h: usize) -> bool {
    if !m.enemies(i, h) || m.is_dead(h) || m.fighters[h].hp <= 0 || m.fighters[h].dormant {
        return false;
    }
    match m.explore.as_deref() {
        Some(x) => x.is_explorer(m, h) != x.is_explorer(m, i) && !x.peaceful(h),
        None => true,
    }
}

/// Whether figure `i` sees figure `h` (a crawl's sight, R-EXP-19; elsewhere a line of sight).
pub fn sees(m: &Match, i: usize, h: usize) -> bool {
    match m.explore.as_deref() {
        Some(x) => super::explore::sight::sees(m, x, i, h),
        None => m.fighters[i].pos.floor == m.fighters[h].pos.floor && m.board.sees_space(m.fighters[i].pos, m.fighters[h].pos),
    }
}

/// Whether figure `i` sees a hero.
pub fn sees_hero(m: &Match, i: usize) -> bool {
    (0..m.fighters.len()).any(|h| hero_to(m, i, h) && sees(m, i, h))
}

/// Whether figure `i` takes part in the fight now (a crisis on, able to act, not waiting
/// outside it).
fn fighting(m: &Match, i: usize) -> bool {
    !matches!(m.clock.phase, super::state::Phase::Exploration | super::state::Phase::Over) && m.can_act(i) && m.fighters[i].hp > 0
}

/// After every command and step of the flow (inside the level events' pass, so the window,
/// `run`, `simulate`, saves and replays agree): a patroller on its next route space heads for
/// the one after; an ambush a hero came within reach of is sprung (its orders end); a figure
/// told to call for help that sees a hero calls (its orders end; the encounter is alerted and
/// joins at the next reset). Each is told in the log.
pub fn update(m: &mut Match, ev: &mut Vec<Event>) {
    let Some(story) = m.story.as_deref() else { return };
    if story.directed.orders.is_empty() {
        return;
    }
    let list: Vec<(String, Orders)> = story.directed.orders.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    for (id, o) in list {
        let Some(i) = m.index(&id) else { continue };
        match o {
            Orders::Patrol { route } if !route.is_empty() => {
                let k = leg(m, i) as usize % route.len();
                if m.fighters[i].pos == route[k] {
                    let next = ((k + 1) % route.len()) as u32;
                    if let Some(s) = m.story.as_deref_mut() {
                        s.directed.legs.insert(id.clone(), next);
                    }
                }
            }
            Orders::Ambush { reach } if fighting(m, i) => {
                let at = m.fighters[i].pos;
                let near = (0..m.fighters.len()).find(|&h| hero_to(m, i, h) && m.fighters[h].pos.floor == at.floor && m.fighters[h].pos.distance(at) <= reach);
                if let Some(h) = near {
                    let text = format!("{} springs the ambush: {} is within {reach} spaces (orders).", m.fighters[i].name, m.fighters[h].name);
                    end_orders(m, &id);
                    ev.push(Event::Note { text });
                }
            }
            Orders::CallForHelp { encounter } if fighting(m, i) && sees_hero(m, i) => {
                let name = m.fighters[i].name.clone();
                end_orders(m, &id);
                super::explore::crisis::scripted_alert(m, std::slice::from_ref(&encounter), &format!("{name} calls for help"), ev);
                if let Some(s) = m.story.as_deref_mut() {
                    s.directed.called.insert(encounter.clone());
                }
                ev.push(Event::Note { text: format!("{name} calls for help: {encounter} comes (orders, R-EXP-25).") });
            }
            _ => {}
        }
    }
}

fn end_orders(m: &mut Match, id: &str) {
    if let Some(s) = m.story.as_deref_mut() {
        s.directed.orders.remove(id);
        s.directed.legs.remove(id);
    }
}

/// At a reset (R-EXP-25): the encounters called for help join the crisis, not surprised.
pub fn join_called(m: &mut Match, ev: &mut Vec<Event>) {
    let called: Vec<String> = match m.story.as_deref_mut() {
        Some(s) if !s.directed.called.is_empty() => std::mem::take(&mut s.directed.called).into_iter().collect(),
        _ => return,
    };
    let Some(x) = m.explore.as_deref() else { return };
    let mut join: Vec<usize> = x.encounters.iter().filter(|e| called.contains(&e.id)).flat_map(|e| e.members.iter().copied()).collect();
    join.sort_unstable();
    for i in join {
        if i < m.fighters.len() && m.fighters[i].dormant && !m.is_dead(i) && m.standing(i) {
            m.fighters[i].dormant = false;
            m.fighters[i].surprised = false;
            ev.push(Event::Note { text: format!("{} joins the crisis, called for help (R-EXP-25).", m.fighters[i].name) });
        }
    }
}

/// A level event's `orders(encounter, to)`: every member of the encounter gets `to` (`None`:
/// no orders), told in the log.
pub fn switch(m: &mut Match, encounter: &str, to: Option<&Orders>, event: &str, ev: &mut Vec<Event>) {
    let members: Vec<String> = match m.explore.as_deref() {
        Some(x) => x.encounters.iter().filter(|e| e.id == encounter).flat_map(|e| e.members.iter().map(|&i| m.fighters[i].id.clone())).collect(),
        None => return,
    };
    let waiting: Vec<String> = m
        .story
        .as_deref()
        .map(|s| s.waiting.iter().filter(|w| w.encounter == encounter).flat_map(|w| w.figures.iter().map(|f| f.id.clone())).collect())
        .unwrap_or_default();
    let Some(s) = m.story.as_deref_mut() else { return };
    for id in members.iter().chain(&waiting) {
        s.directed.legs.remove(id);
        match to {
            Some(o) => s.directed.orders.insert(id.clone(), o.clone()),
            None => s.directed.orders.remove(id),
        };
    }
    let what = to.map_or("none", Orders::name);
    ev.push(Event::Note { text: format!("Level event '{event}': {encounter} now has orders {what}.") });
}

/// What is wrong with orders `o` of figure `owner` (`None` for an encounter's or an event's) in
/// match `m`: spaces off the map or where no figure can stand, unknown figures, items and
/// encounters, the caps. `None`: nothing.
pub fn problem(m: &Match, owner: Option<&str>, o: &Orders) -> Option<String> {
    let waiting = m.story.as_deref().map(|s| s.waiting.as_slice()).unwrap_or_default();
    let stand = |what: &str, p: Pos| -> Option<String> {
        match m.board.tile(p) {
            None => Some(format!("{what} {p} is outside the map")),
            Some(t) if !t.walkable() => Some(format!("{what} {p} is on {}: no figure can stand there", super::grid::tile_name(t))),
            _ => None,
        }
    };
    let e = match o {
        Orders::Guard { area } => {
            if area.from.floor != area.to.floor {
                Some("the area's corners are on one floor".to_string())
            } else if m.board.tile(area.from).is_none() || m.board.tile(area.to).is_none() {
                Some(format!("the area {}..{} is not on the map", area.from, area.to))
            } else {
                None
            }
        }
        Orders::Patrol { route } if route.is_empty() || route.len() > MAX_ROUTE => {
            Some(format!("a route has 1 to {MAX_ROUTE} spaces (this one has {})", route.len()))
        }
        Orders::Patrol { route } => route.iter().find_map(|&p| stand("the route space", p)),
        Orders::Ambush { reach } if !(1..=MAX_REACH).contains(reach) => Some(format!("reach {reach} is out of range (1 to {MAX_REACH})")),
        Orders::Ambush { .. } => None,
        Orders::Hold { at } => stand("the space", *at),
        Orders::Bodyguard { figure } => {
            let known = m.index(figure).is_some() || waiting.iter().any(|w| w.figures.iter().any(|f| &f.id == figure));
            if !known {
                Some(format!("unknown figure '{}'", clip(figure)))
            } else if owner == Some(figure.as_str()) {
                Some("a figure cannot guard itself".into())
            } else {
                None
            }
        }
        Orders::Flee { below, .. } if !(1..=99).contains(below) => Some(format!("below {below} is out of range (1 to 99, a percent of its HP)")),
        Orders::Flee { to, .. } => stand("the space", *to),
        Orders::Hunt { prey: Prey::Carrier(item) } => {
            let known = m.equipment.item(item).is_some() || m.explore.as_deref().is_some_and(|x| x.keys.contains_key(item));
            (!known).then(|| format!("unknown item '{}'", clip(item)))
        }
        Orders::Hunt { prey: Prey::Weakest } => None,
        Orders::CallForHelp { encounter } => match m.explore.as_deref() {
            None => Some("call_for_help needs a crawl (`mode: exploration`) and its encounters".into()),
            Some(x) if !x.encounters.iter().any(|e| &e.id == encounter) => Some(format!("unknown encounter '{}'", clip(encounter))),
            _ => None,
        },
    };
    e.map(|e| format!("orders {}: {e}", o.name()))
}

#[cfg(test)]
#[path = "directives_tests.rs"]
mod tests;
