//! Level events (issue 31; R-EXP-24 (d), R-EXP-26 (1): "a level script says so"): a level's
//! triggers and what each does, as data in the level file (`events: [...]`, docs/levels.md).
//! They run inside the one flow (`driver`), after every command and every step of the flow and
//! before the goals are checked, so they fire the same in the window, `run`, `simulate`, saves
//! and replays: a trigger reads only the match and the events the flow just pushed.
//!
//! Bounded (level files are untrusted): at most `MAX_EVENTS` events of at most `MAX_ACTIONS`
//! actions each, checked when the level is read, and at most `MAX_FIRINGS` firings after one
//! command (a chain of events that trigger each other stops there, with a note in the log).
//! Their work is bounded too (issue 44): the events fired after one command reveal, spawn, give
//! and set doors within one budget (`Work::CAP`); an event that would go past what is left of it
//! is stopped whole, with a note in the log, and one that could never fit is refused when the
//! level is read. A `give` to a figure carrying `MAX_CARRIED` items is refused, said so.

use super::dice::Dice;
use super::event::Event;
pub use super::event_checks::{problems, work};
use super::grid::{Board, Pos, Tile};
use super::state::{Match, Window};
pub use super::story::{Action, Area, Deed, DoorState, EventDef, MAX_ACTIONS, MAX_EVENTS, MAX_FIRINGS, MAX_TEXT, Offer, Story, Trigger, Waiting, Who};
pub use super::story::{MAX_CARRIED, MAX_DOORS, MAX_GIVEN, MAX_REVEAL_AREA, MAX_REVEALED, MAX_SPAWNED, MAX_SPAWNS, Work};
use super::turn::Flow;

use super::event_logic::who_matches;

fn exploring(m: &Match) -> bool {
    super::explore::sight::exploring(m)
}

/// Whether `t` holds now, given the events `new` the flow has just pushed.
fn holds(m: &Match, t: &Trigger, new: &[Event]) -> bool {
    match t {
        Trigger::Enters { area, who } => (0..m.fighters.len()).any(|i| who_matches(m, who, i) && m.standing(i) && area.contains(m.fighters[i].pos)),
        Trigger::Turn(n) => !exploring(m) && m.clock.turn >= *n,
        Trigger::Minute(n) => m.explore.as_deref().is_some_and(|x| x.minute >= *n),
        Trigger::DoorOpens { at } => new.iter().any(|e| matches!(e, Event::DoorChanged { at: p, state, .. } if p == at && state == "open")),
        Trigger::ItemTaken { item } => new.iter().any(|e| matches!(e, Event::ItemTaken { item: it, .. } if it == item)),
        Trigger::Falls { who } => new.iter().any(|e| match e {
            Event::HpChanged { actor, from, to, .. } => *from > 0 && *to <= 0 && m.index(actor).is_some_and(|i| who_matches(m, who, i)),
            Event::Died { actor } => m.index(actor).is_some_and(|i| who_matches(m, who, i)),
            _ => false,
        }),
        Trigger::CrisisBegins => new.iter().any(|e| matches!(e, Event::CrisisBegins { .. })),
        Trigger::CrisisEnds => new.iter().any(|e| matches!(e, Event::CrisisOver { .. } | Event::EncounterOver { .. })),
        Trigger::Acted { what, who, how } => {
            let by = |a: &str| m.index(a).is_some_and(|i| who_matches(m, who, i));
            new.iter().any(|e| did(m, e, *what, how.as_deref()).is_some_and(by))
        }
        // Reads the match: the prompt is open now (so an event armed by `after` while it is open
        // fires at once).
        Trigger::Offered { what, who } => m.pending.as_ref().is_some_and(|p| {
            let want = match what {
                Offer::Reflex => Window::Reflex,
                Offer::Response => Window::Response,
            };
            let open = p.window == Some(want);
            open && p.defender < m.fighters.len() && who_matches(m, who, p.defender)
        }),
        // Issue 46: round_ends, sighted, trap_sprung, hp_at_most.
        _ => super::event_logic::trigger_holds(m, t, new).unwrap_or(false),
    }
}

/// Who did `what` (of row `how`, when given) in event `e`, if it tells that.
fn did<'a>(m: &Match, e: &'a Event, what: Deed, how: Option<&str>) -> Option<&'a str> {
    let row = |id: &str| how.is_none_or(|h| h == id);
    let is_move = |w: &str| m.rules.movement(w).is_some() && row(w);
    let walked = |w: &str| !["free_steps", "guided_step"].contains(&w) && row(w);
    let ended = |passed: bool| passed == (what == Deed::Pass);
    match (what, e) {
        (Deed::FreeStep, Event::FreeStepsUsed { actor, .. }) => Some(actor),
        // A movement that changes posture (drop, rise, stand) moves nobody: its AP tell it.
        (Deed::Move, Event::ApSpent { actor, for_what: w, .. }) if is_move(w) => Some(actor),
        (Deed::Move, Event::Moved { actor, movement: w, .. }) if walked(w) => Some(actor),
        (Deed::Attack, Event::AttackDeclared { actor, action, reaction: false, .. }) if row(action) => Some(actor),
        (Deed::Action, Event::ActionTaken { actor, action, .. }) if row(action) => Some(actor),
        (Deed::Spell, Event::ActionTaken { actor, action, .. }) if action == "cast_spell" => Some(actor),
        (Deed::Pass | Deed::End, Event::OpportunityEnded { actor, passed, .. }) if ended(*passed) => Some(actor),
        (Deed::Reflex, Event::ReflexDeclared { actor, reflex, .. }) if row(reflex) => Some(actor),
        (Deed::Response, Event::ResponseDeclared { actor, response, .. }) if row(response) => Some(actor),
        (Deed::Decline, Event::ReactionDeclined { actor }) => Some(actor),
        _ => None,
    }
}

/// Fires the events whose triggers came true with the events `ev[*cursor..]` and the match as
/// it stands, in the order the level lists them, then those their actions set off, at most
/// `MAX_FIRINGS` in all; `*cursor` moves to the end of `ev`. `spent` is the work the events
/// have done since the command (issue 44): an event whose work would take it past `Work::CAP`
/// is stopped (it does not fire; the log says so). Returns the flow, which an event may change
/// (a crisis it starts: `CrisisStarts`).
pub fn fire(m: &mut Match, dice: &mut Dice, mut flow: Flow, ev: &mut Vec<Event>, cursor: &mut usize, spent: &mut Work) -> Flow {
    if m.story.is_none() {
        *cursor = ev.len();
        return flow;
    }
    // Issue 45: the orders' record (patrol legs, ambushes sprung, calls for help).
    super::directives::update(m, ev);
    let mut firings = 0;
    loop {
        let from = (*cursor).min(ev.len());
        *cursor = ev.len();
        let Some(story) = m.story.as_deref() else { return flow };
        let defs = story.defs.clone();
        // An event `after` another is not watched until that one has fired.
        let fired = |a: &String| defs.iter().position(|o| &o.id == a).is_some_and(|j| story.fired[j] > 0);
        let armed = |d: &EventDef| d.after.as_ref().is_none_or(fired);
        let now: Vec<bool> = defs.iter().map(|d| armed(d) && holds(m, &d.when, &ev[from..])).collect();
        // Issue 46: `times` caps the firings.
        let due: Vec<usize> = (0..defs.len()).filter(|&k| now[k] && !story.held[k] && defs[k].may_fire(story.fired[k])).collect();
        if let Some(s) = m.story.as_deref_mut() {
            s.held = now;
        }
        if due.is_empty() {
            return flow;
        }
        for k in due {
            if firings == MAX_FIRINGS {
                ev.push(Event::Note { text: format!("Level events: more than {MAX_FIRINGS} fired after one command; '{}' and the rest wait.", defs[k].id) });
                return flow;
            }
            // Issue 46: the condition, read as the event is about to fire (after those before it
            // in the level's order): false, it does not fire this time.
            if defs[k].only_if.as_ref().is_some_and(|c| !super::event_logic::cond_holds(m, c)) {
                continue;
            }
            // Issue 44: the whole event's work, counted before it does any.
            let total = spent.plus(work(m, &defs[k]));
            if let Some((what, n, cap)) = total.over() {
                let text = format!(
                    "Level event '{}' is stopped: it would bring this command's {what} to {n}, over the cap of {cap} (issue 44); it does not fire.",
                    defs[k].id
                );
                ev.push(Event::Note { text });
                continue;
            }
            *spent = total;
            firings += 1;
            if let Some(s) = m.story.as_deref_mut() {
                s.fired[k] = s.fired[k].saturating_add(1);
            }
            flow = act_all(m, dice, flow, &defs[k].id, &defs[k].then, ev, 1);
        }
    }
}

/// The actions `list` of event `id`, in order, nested `depth` deep (issue 46: a `one_of`'s
/// branch is one deeper; past `MAX_ACTION_DEPTH`, which `validate` refuses, nothing is done).
pub(super) fn act_all(m: &mut Match, dice: &mut Dice, mut flow: Flow, id: &str, list: &[Action], ev: &mut Vec<Event>, depth: usize) -> Flow {
    if depth > super::story::MAX_ACTION_DEPTH {
        return flow;
    }
    for a in list {
        flow = act(m, dice, flow, id, a, ev, depth);
    }
    flow
}

/// One action of event `id`.
fn act(m: &mut Match, dice: &mut Dice, flow: Flow, id: &str, a: &Action, ev: &mut Vec<Event>, depth: usize) -> Flow {
    match a {
        // Issue 46: one branch, drawn with one die of as many faces as branches (the match's
        // dice: replays and saves draw the same, a script may force the face).
        Action::OneOf(branches) if !branches.is_empty() => {
            let n = branches.len().min(super::story::MAX_BRANCHES) as u32;
            let face = dice.throw(n);
            ev.push(Event::Note { text: format!("Level event '{id}': one of {n} is drawn: {face}.") });
            return act_all(m, dice, flow, id, &branches[(face as usize - 1).min(branches.len() - 1)], ev, depth + 1);
        }
        Action::OneOf(_) => {}
        // Issue 46: the choice waits for its side's answer (`event_choice`); one at a time.
        Action::Choice { side, prompt, options } => {
            let Some(story) = m.story.as_deref_mut() else { return flow };
            if let Some(p) = &story.pending {
                let text = format!("Level event '{id}': side {} has a choice to make already ('{}'); this one is not put.", p.side, p.event);
                ev.push(Event::Note { text });
                return flow;
            }
            story.pending =
                Some(super::story::PendingChoice { event: id.into(), side: side.clone(), prompt: prompt.clone(), options: options.clone(), depth: depth + 1 });
            ev.push(Event::Story { id: id.to_string(), text: prompt.clone() });
            let list: Vec<String> = options.iter().enumerate().map(|(i, o)| format!("{}. {}", i + 1, o.label)).collect();
            ev.push(Event::Note { text: format!("Side {side} chooses (level event '{id}'): {}.", list.join("; ")) });
        }
        Action::Tile { .. } | Action::SetVar { .. } | Action::AddVar { .. } | Action::AwardCp { .. } => {
            super::event_logic::act(m, id, a, ev);
        }
        Action::Message(text) => ev.push(Event::Story { id: id.to_string(), text: text.clone() }),
        Action::StartCrisis { encounters, surprised } => {
            if flow == Flow::Exploring && exploring(m) {
                if let Some(mut x) = m.explore.take() {
                    super::explore::crisis::scripted(m, &mut x, dice, encounters, surprised.as_deref(), &format!("level event '{id}'"), ev);
                    m.explore = Some(x);
                    return Flow::CrisisStarts;
                }
            } else if m.explore.is_some() && !exploring(m) {
                // A crisis is on: the named encounters are alerted, and join it when they see a
                // participant (R-EXP-25).
                super::explore::crisis::scripted_alert(m, encounters, &format!("level event '{id}'"), ev);
            }
        }
        Action::Door { at, state } => set_door(m, *at, *state, id, ev),
        Action::Reveal { area, side } => {
            if let Some(x) = m.explore.as_deref_mut() {
                let sides: Vec<String> = side.clone().map(|s| vec![s]).unwrap_or_else(|| x.explorers.clone());
                let spaces = area_indices(&m.board, area, m.board.spaces());
                for s in sides {
                    let explorer = x.explorers.contains(&s);
                    let n = x.reveal_spaces(&s, &spaces, m.board.spaces(), explorer);
                    if n > 0 {
                        ev.push(Event::Revealed { side: s, spaces: n as u32 });
                    }
                }
            }
        }
        Action::Give { figure, item } => {
            if let Some(i) = m.index(figure) {
                // Issue 44: carried items are capped; a give past the cap is refused.
                if m.fighters[i].loadout.items.len() >= MAX_CARRIED {
                    let text = format!(
                        "Level event '{id}': {} carries {MAX_CARRIED} items, the most, and does not get {} (issue 44).",
                        m.fighters[i].name,
                        item_name(m, item)
                    );
                    ev.push(Event::Note { text });
                    return flow;
                }
                m.fighters[i].loadout.items.push(item.clone());
                ev.push(Event::Note { text: format!("{} gets {}.", m.fighters[i].name, item_name(m, item)) });
            }
        }
        Action::Take { figure, item } => {
            if let Some(i) = m.index(figure) {
                if let Some(k) = m.fighters[i].loadout.items.iter().position(|x| x == item) {
                    m.fighters[i].loadout.items.remove(k);
                    ev.push(Event::Note { text: format!("{} loses {}.", m.fighters[i].name, item_name(m, item)) });
                }
            }
        }
        Action::Win(side) => decide(m, Some(side.clone()), id, format!("side '{side}' wins by level event '{id}'")),
        Action::Lose(side) => {
            let mut others: Vec<&str> = m.fighters.iter().map(|f| f.side.as_str()).filter(|s| s != side).collect();
            others.sort();
            others.dedup();
            let winner = (others.len() == 1).then(|| others[0].to_string());
            decide(m, winner, id, format!("side '{side}' loses by level event '{id}'"));
        }
        Action::Stance { encounter, hostile } => {
            if let Some(x) = m.explore.as_deref_mut() {
                if let Some(e) = x.encounters.iter().position(|e| &e.id == encounter) {
                    let changed = if *hostile { x.more.peaceful.remove(&e) } else { x.more.peaceful.insert(e) };
                    if changed {
                        ev.push(Event::Note { text: format!("{encounter} {}.", if *hostile { "turns hostile" } else { "is no longer hostile" }) });
                    }
                }
            }
        }
        Action::Orders { encounter, to } => super::directives::switch(m, encounter, to.as_ref(), id, ev),
        Action::Spawn(encounter) => {
            spawn(m, encounter, id, ev);
            // R-EXP-24 (a): in Exploration Mode, arrivals who see or are seen by a hero start a
            // crisis at once.
            if flow == Flow::Exploring && exploring(m) {
                if let Some(mut x) = m.explore.take() {
                    let next = super::explore::crisis::check_triggers(m, &mut x, dice, None, ev);
                    m.explore = Some(x);
                    return next;
                }
            }
        }
    }
    flow
}

/// The indices (`Board::index`) of the spaces of `area` on the map, in its order: those of
/// `area.spaces(cap)`, without the list of positions nor a search of the floors per space
/// (a reveal at the caps covers 2^20 spaces, issue 44).
fn area_indices(b: &Board, area: &Area, cap: usize) -> Vec<usize> {
    let fl = area.from.floor as usize;
    let Some(f) = b.floors.get(fl) else { return Vec::new() };
    let base: usize = b.floors[..fl].iter().map(|f| (f.width * f.height) as usize).sum();
    let (x0, x1) = (area.from.x.min(area.to.x), area.from.x.max(area.to.x));
    let (y0, y1) = (area.from.y.min(area.to.y), area.from.y.max(area.to.y));
    let mut out = Vec::with_capacity(area.size().min(cap).min(f.width as usize * f.height as usize));
    let mut left = cap;
    'rows: for y in y0..=y1 {
        for x in x0..=x1 {
            if left == 0 {
                break 'rows;
            }
            left -= 1;
            if x >= 0 && y >= 0 && (x as u32) < f.width && (y as u32) < f.height {
                out.push(base + (y as u32 * f.width + x as u32) as usize);
            }
        }
    }
    out
}

/// Takes the figures of the encounters that arrive later (`arrives: true`: `(encounter id,
/// member ids)`) off a match just built, before its crawl state is (their encounters start
/// empty), to wait in its story for a `spawn`.
pub fn hold_back(m: &mut Match, arriving: &[(String, Vec<String>)]) -> Vec<Waiting> {
    let mut out = Vec::new();
    for (encounter, members) in arriving {
        let mut figures = Vec::new();
        for id in members {
            if let Some(i) = m.index(id) {
                figures.push(m.fighters.remove(i));
                if let Some(a4) = m.a4.as_deref_mut() {
                    if i < a4.figs.len() {
                        a4.figs.remove(i);
                    }
                }
            }
        }
        out.push(Waiting { encounter: encounter.clone(), figures });
    }
    out
}

/// `Action::Spawn`: the waiting encounter's figures join the match (appended: every other
/// figure keeps its index), each at its space or the nearest free one it can reach from there;
/// during a crisis they wait outside it (R-EXP-25: they join when they see a participant).
fn spawn(m: &mut Match, encounter: &str, id: &str, ev: &mut Vec<Event>) {
    let Some(k) = m.story.as_deref().and_then(|s| s.waiting.iter().position(|w| w.encounter == encounter)) else { return };
    let Some(w) = m.story.as_deref_mut().map(|s| s.waiting.remove(k)) else { return };
    let in_crisis = m.explore.is_some() && !exploring(m);
    let mut arrived = Vec::new();
    for mut f in w.figures {
        let Some(p) = free_space_near(m, f.pos) else {
            ev.push(Event::Note { text: format!("Level event '{id}': no free space near {} for {}; it does not arrive.", f.pos, f.name) });
            continue;
        };
        f.pos = p;
        f.dormant = in_crisis;
        arrived.push((m.fighters.len(), f.name.clone(), p));
        m.fighters.push(f);
        if let Some(a4) = m.a4.as_deref_mut() {
            a4.figs.push(Default::default());
        }
    }
    let n = m.fighters.len();
    if let Some(x) = m.explore.as_deref_mut() {
        let e = x.encounters.iter().position(|e| e.id == encounter);
        let calm = e.is_some_and(|e| x.more.peaceful.contains(&e));
        x.encounter_of.resize(n, None);
        x.calm.resize(n, false);
        x.acted.resize(n, super::explore::Acted::No);
        for &(i, _, _) in &arrived {
            if let Some(e) = e {
                x.encounters[e].members.push(i);
                x.encounter_of[i] = Some(e);
            }
            x.calm[i] = calm;
        }
    }
    if !arrived.is_empty() {
        let who: Vec<String> = arrived.iter().map(|(_, name, p)| format!("{name} at {p}")).collect();
        ev.push(Event::Note { text: format!("{} arrive{}: {} (level event '{id}').", encounter, if arrived.len() == 1 { "s" } else { "" }, who.join(", ")) });
    }
}

/// The space nearest `at` (itself first) that a figure can stand on (not a closed door, which
/// an earlier action may have just closed) and nobody stands on, searched breadth first through
/// the spaces a figure can walk from `at`; `None` when every such space is taken.
/// (The spaces seen are a set, not a map-sized table: the search visits few spaces, and a
/// spawn of 64 figures on a 1 024×1 024 floor would clear 64 MB, issue 44.)
fn free_space_near(m: &Match, at: Pos) -> Option<Pos> {
    let mut seen = std::collections::HashSet::new();
    let mut queue = std::collections::VecDeque::from([at]);
    seen.insert(m.board.index(at)?);
    while let Some(p) = queue.pop_front() {
        if m.occupant(p).is_none() && m.board.walkable(p) {
            return Some(p);
        }
        for (dx, dy) in [(0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1)] {
            let q = Pos::on(p.x + dx, p.y + dy, p.floor);
            let Some(k) = m.board.index(q) else { continue };
            if !seen.contains(&k) && m.board.walkable(q) && m.board.step_geometry(p, q).is_ok() {
                seen.insert(k);
                queue.push_back(q);
            }
        }
    }
    None
}

/// An item's name: from the equipment, or a crawl's key.
fn item_name(m: &Match, id: &str) -> String {
    m.equipment.item(id).map(|x| x.name.clone()).or_else(|| m.explore.as_deref().and_then(|x| x.keys.get(id).cloned())).unwrap_or_else(|| id.to_string())
}

fn decide(m: &mut Match, winner: Option<String>, id: &str, reason: String) {
    if let Some(s) = m.story.as_deref_mut() {
        if s.decided.is_none() {
            s.decided = Some((winner, id.to_string(), reason));
        }
    }
}

/// Sets the door at `at` (a door space) open, closed or locked, and tells it.
fn set_door(m: &mut Match, at: Pos, state: DoorState, id: &str, ev: &mut Vec<Event>) {
    let Some(now) = m.board.tile(at) else { return };
    if !matches!(now, Tile::DoorOpen | Tile::DoorClosed | Tile::DoorLocked) {
        return;
    }
    // A figure in the doorway keeps it open.
    if state != DoorState::Open && m.occupant(at).is_some() {
        ev.push(Event::Note { text: format!("Level event '{id}': the door at {at} is held open by the figure standing in it.") });
        return;
    }
    let tile = match state {
        DoorState::Open => Tile::DoorOpen,
        DoorState::Closed => Tile::DoorClosed,
        DoorState::Locked => Tile::DoorLocked,
    };
    if tile == now {
        return;
    }
    m.board.set_tile(at, tile);
    if let Some(x) = m.explore.as_deref_mut() {
        x.door_scripted(at, state == DoorState::Locked);
    }
    let word = match state {
        DoorState::Open => "open",
        DoorState::Closed => "closed",
        DoorState::Locked => "locked",
    };
    ev.push(Event::DoorChanged { actor: Default::default(), at, state: word.into() });
}

#[cfg(test)]
mod tests {
    use super::super::grid::{Board, Floor, Pos, Tile};
    use super::{Area, area_indices};

    // Issue 44 (R-EXP-19): a reveal's spaces, counted without the list of positions, are those
    // of `Area::spaces` then `Board::index`, in order: on any floor, corners off the map, the
    // cap cutting the list short.
    #[test]
    fn area_indices_are_the_spaces_indexed() {
        let floor = |w: u32, h: u32| Floor { width: w, height: h, tiles: vec![Tile::Floor; (w * h) as usize] };
        let b = Board { floors: vec![floor(7, 5), floor(4, 9), floor(0, 0), floor(6, 6)], links: Vec::new() };
        let mut n = 0;
        for fl in 0..5u8 {
            for (x0, y0, x1, y1) in [(0, 0, 6, 4), (-2, -1, 3, 2), (5, 8, 1, 1), (3, 3, 3, 3), (-3, -3, 12, 12), (2, 0, 2, 8)] {
                for cap in [0, 1, 5, 17, 1000] {
                    let area = Area { from: Pos::on(x0, y0, fl), to: Pos::on(x1, y1, fl) };
                    let old: Vec<usize> = area.spaces(cap).into_iter().filter_map(|p| b.index(p)).collect();
                    assert_eq!(area_indices(&b, &area, cap), old, "{area:?} cap {cap}");
                    n += old.len();
                }
            }
        }
        assert!(n > 100, "the cases reveal spaces");
    }
}
