//! Exploration Mode (RULES.md §24, `R-EXP-*`): a crawl walks the dungeon a minute per turn,
//! opens doors, searches, picks locks, loots chests and springs traps, and drops into Crisis
//! Mode the moment something dangerous happens (R-EXP-24), then comes back (R-EXP-27).
//!
//! The state lives in [`Explore`] (`Match::explore`); orders are ordinary `Command`s checked by
//! [`validate`] and carried out by [`apply`], which return a violation naming the rule or the
//! `Flow` the game follows: `Exploring`, or `CrisisStarts` when a trigger fired. Sight and the
//! fog of war (R-EXP-19) are [`visible`], [`reveal`] and [`side_view`].

use super::command::Command;
use super::dice::Dice;
use super::event::Event;
use super::grid::{Pos, Tile};
use super::roll::{log_roll, stat_check};
use super::state::{Match, Phase};
use super::turn::Flow;
use super::violation::{RuleResult, Violation};
use std::collections::BTreeMap;

pub mod state;
pub use state::*;

fn refuse(rule: &str, text: impl Into<String>) -> Violation {
    Violation::new(rule, text)
}

impl Explore {
    pub fn is_explorer(&self, m: &Match, i: usize) -> bool {
        self.explorers.contains(&m.fighters[i].side)
    }
}

/// The crawl of a match, or a refusal saying Exploration Mode is not on.
fn crawl(m: &Match) -> RuleResult<&Explore> {
    m.explore.as_deref().ok_or_else(|| refuse("R-EXP-1", "This level has no Exploration Mode: it is one crisis."))
}

/// True in Exploration Mode.
pub fn exploring(m: &Match) -> bool {
    m.clock.phase == Phase::Exploration && m.explore.is_some()
}

/// R-EXP-25, G-15: a crawl's crisis in which no hostile takes part (a trap began it and nobody
/// was seen): it runs one action phase, then Exploration Mode resumes. The HUD says so.
pub fn one_phase_crisis(m: &Match) -> bool {
    let Some(x) = m.explore.as_deref() else { return false };
    !exploring(m) && m.clock.phase != Phase::Over && !(0..m.fighters.len()).any(|i| !m.fighters[i].dormant && !x.is_explorer(m, i) && alive(m, i))
}

/// The line that tells why a crisis with no foe lasts one action phase (R-EXP-25).
pub const ONE_PHASE_CRISIS: &str = "No foe takes part: this crisis lasts one action phase, then exploration resumes (R-EXP-25)";

/// Characters on the map who are not dead.
fn alive(m: &Match, i: usize) -> bool {
    !m.is_dead(i)
}

/// A character who can see: alive and conscious.
fn can_see(m: &Match, i: usize) -> bool {
    alive(m, i) && m.fighters[i].hp > 0
}

/// R-EXP-19: the spaces character `i` sees now (every area is lit: dark areas and lights,
/// R-EXP-18, are not part of the level format yet). Only spaces joined to his by see-through
/// spaces are tried (with the walls and doors around them), so a closed room costs nothing.
/// R-EXP-18, R-EXP-19: space `p` is lit for viewer `i`: outside every dark area, next to him,
/// within reach of a burning light with minimal line of sight from it, or he has darkvision.
pub fn lit_for(m: &Match, i: usize, p: Pos) -> bool {
    let Some(x) = m.explore.as_deref() else { return true };
    if x.dark.is_empty() || !x.in_dark(p) || m.fighters[i].pos.distance(p) <= 1 || m.fighters[i].abilities.iter().any(|a| a == "darkvision") {
        return true;
    }
    x.burning.iter().any(|(&h, (item, _))| {
        let at = m.fighters[h].pos;
        let r = x.book.lights.iter().find(|l| &l.item == item).map_or(0, |l| l.radius);
        !m.is_dead(h) && at.distance(p) <= r && m.board.sees_space(at, p)
    })
}

pub fn visible(m: &Match, i: usize) -> Vec<Pos> {
    let from = m.fighters[i].pos;
    let b = &m.board;
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut queue = std::collections::VecDeque::from([from]);
    seen.insert(from);
    while let Some(p) = queue.pop_front() {
        if !b.sees_space(from, p) {
            continue;
        }
        if lit_for(m, i, p) {
            out.push(p);
        }
        if p != from && b.tile(p).is_none_or(Tile::blocks_sight) {
            continue; // a wall or closed door is seen, not seen through
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = Pos::on(p.x + dx, p.y + dy, p.floor);
                if b.tile(q).is_some() && seen.insert(q) {
                    queue.push_back(q);
                }
            }
        }
        if seen.len() > 1 << 20 {
            break;
        }
    }
    out
}

/// Whether `a` sees the space of `b` (R-EXP-19), both on the map.
pub fn sees(m: &Match, a: usize, b: usize) -> bool {
    can_see(m, a) && m.board.sees_space(m.fighters[a].pos, m.fighters[b].pos) && lit_for(m, a, m.fighters[b].pos)
}

/// Marks what the side's characters see as revealed; returns how many spaces were new.
pub fn reveal(m: &mut Match, side: &str) -> usize {
    let who: Vec<usize> = (0..m.fighters.len()).filter(|&i| m.fighters[i].side == side).collect();
    let legacy = m.explore.as_deref().is_some_and(|x| x.explorers.iter().any(|s| s == side));
    reveal_by(m, side, &who, legacy)
}

/// Marks what characters `who` (all of side `side`) see as revealed for that side (`fog`);
/// returns how many spaces were new (R-EXP-19). With `legacy`, the explorers' `seen` (the
/// state hash's) is marked as well, exactly as it always was.
fn reveal_by(m: &mut Match, side: &str, who: &[usize], legacy: bool) -> usize {
    let Some(x) = m.explore.as_deref() else { return 0 };
    let n = m.board.spaces();
    let mut sight = Vec::new();
    for &i in who.iter().filter(|&&i| m.fighters[i].side == side && can_see(m, i)) {
        sight.extend(visible(m, i).into_iter().filter_map(|p| m.board.index(p)));
    }
    sight.sort_unstable();
    sight.dedup();
    let fresh: Vec<usize> = sight.iter().copied().filter(|&k| !x.fog.revealed(side, k)).collect();
    let x = m.explore.as_deref_mut().expect("checked");
    if legacy {
        let seen = x.seen.entry(side.to_string()).or_insert_with(|| vec![false; n]);
        for &k in &sight {
            if let Some(s) = seen.get_mut(k) {
                *s = true;
            }
        }
    }
    if !fresh.is_empty() {
        let map = x.fog.0.entry(side.to_string()).or_insert_with(|| vec![false; n]);
        map.resize(n, false);
        for &k in &fresh {
            map[k] = true;
        }
    }
    fresh.len()
}

/// The exploring sides, then the other sides with a character on the map in the order of their
/// first character (deterministic).
fn sides_on_map(m: &Match) -> Vec<String> {
    let mut out: Vec<String> = m.explore.as_deref().map(|x| x.explorers.clone()).unwrap_or_default();
    for f in &m.fighters {
        if !out.contains(&f.side) {
            out.push(f.side.clone());
        }
    }
    out
}

/// Reveals for every side with a character on the map (each side keeps its own revealed map,
/// R-EXP-19: hot-seat shows each player his own), pushing one `Revealed` event per side that
/// saw new spaces.
fn reveal_all(m: &mut Match, ev: &mut Vec<Event>) {
    if m.explore.is_none() {
        return;
    }
    for s in sides_on_map(m) {
        let n = reveal(m, &s);
        if n > 0 {
            ev.push(Event::Revealed { side: s, spaces: n as u32 });
        }
    }
}

/// R-EXP-19, in both modes: sight is "tested after every space entered". Character `a` entered
/// the spaces of `path` in order (he stands on the last one, or where he stands now when `path`
/// is empty); what he saw from each is revealed for his side, in one `Revealed` event. Nothing
/// outside a crawl.
pub fn reveal_path(m: &mut Match, a: usize, path: &[Pos], ev: &mut Vec<Event>) {
    if m.explore.is_none() || a >= m.fighters.len() {
        return;
    }
    let side = m.fighters[a].side.clone();
    let end = m.fighters[a].pos;
    let mut n = 0;
    for &p in path.iter().filter(|&&p| p != end) {
        m.fighters[a].pos = p;
        n += reveal_by(m, &side, &[a], false);
    }
    m.fighters[a].pos = end;
    n += reveal_by(m, &side, &[a], false);
    if n > 0 {
        ev.push(Event::Revealed { side, spaces: n as u32 });
    }
}

/// What one side may be shown (R-EXP-19): the spaces it has revealed, the spaces it sees now,
/// and the characters standing in those (its own always). Hidden features are not in it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SideView {
    /// Per space (`Board::index`): revealed.
    pub revealed: Vec<bool>,
    /// Per space: seen now.
    pub visible: Vec<bool>,
    /// Characters shown.
    pub figures: Vec<usize>,
    /// Secret doors still hidden: drawn as wall.
    pub hidden_doors: Vec<Pos>,
    /// Traps the side knows of (found or sprung, not spent).
    pub traps: Vec<Pos>,
    /// Traps known and spent: sprung (not re-arming) or disarmed. The board marks their spaces
    /// (R-EXP-16, R-EXP-17).
    pub spent_traps: Vec<Pos>,
}

/// The view model of side `side` (the whole board for a level without Exploration Mode).
pub fn side_view(m: &Match, side: &str) -> SideView {
    let n = m.board.spaces();
    let Some(x) = m.explore.as_deref() else {
        return SideView { revealed: vec![true; n], visible: vec![true; n], figures: (0..m.fighters.len()).collect(), ..Default::default() };
    };
    let mut visible = vec![false; n];
    for i in (0..m.fighters.len()).filter(|&i| m.fighters[i].side == side && can_see(m, i)) {
        for p in visible_cached(m, i) {
            if let Some(k) = m.board.index(p) {
                visible[k] = true;
            }
        }
    }
    let revealed = x.fog.0.get(side).cloned().unwrap_or_else(|| vec![false; n]);
    let figures = (0..m.fighters.len())
        .filter(|&i| {
            m.fighters[i].side == side
                || m.board.index(m.fighters[i].pos).is_some_and(|k| visible[k] && !m.is_dead(i))
                || (m.is_dead(i) && m.board.index(m.fighters[i].pos).is_some_and(|k| visible[k]))
        })
        .collect();
    let explorer = x.explorers.iter().any(|s| s == side);
    SideView {
        revealed,
        visible,
        figures,
        hidden_doors: x.doors.iter().filter(|d| d.hidden && explorer).map(|d| d.pos).collect(),
        traps: x.traps.iter().filter(|t| !t.hidden && !t.spent).map(|t| t.pos).collect(),
        spent_traps: x.traps.iter().filter(|t| !t.hidden && t.spent).map(|t| t.pos).collect(),
    }
}

fn visible_cached(m: &Match, i: usize) -> Vec<Pos> {
    visible(m, i)
}

/// An active hostile (R-EXP-23): not an explorer, able to act, not calmed (R-EXP-27).
pub fn active_hostile(m: &Match, x: &Explore, i: usize) -> bool {
    !x.is_explorer(m, i) && m.standing(i) && !x.calm.get(i).copied().unwrap_or(false) && m.fighters[i].hp > 0
}

/// R-EXP-24(a): pairs (hero, hostile) in which one sees the other.
fn sightings(m: &Match) -> Vec<(usize, usize)> {
    let Some(x) = m.explore.as_deref() else { return Vec::new() };
    let heroes: Vec<usize> = (0..m.fighters.len()).filter(|&i| x.is_explorer(m, i) && alive(m, i)).collect();
    let mut out = Vec::new();
    for n in (0..m.fighters.len()).filter(|&i| active_hostile(m, x, i)) {
        for &h in &heroes {
            if sees(m, h, n) || sees(m, n, h) {
                out.push((h, n));
            }
        }
    }
    out
}

/// Starts Exploration Mode for a freshly built crawl: groups, the first turn, what the heroes
/// see from where they stand (R-EXP-4, R-EXP-19). A hostile in sight at once starts a crisis.
pub fn begin(m: &mut Match, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    m.clock.phase = Phase::Exploration;
    m.clock.turn = 0;
    for f in m.fighters.iter_mut() {
        f.dormant = false;
    }
    let x = m.explore.as_deref_mut().expect("a crawl");
    x.turn = 1;
    x.acted = vec![Acted::No; m.fighters.len()];
    ev.push(Event::ExplorationTurn { turn: x.turn, minute: x.minute });
    reveal_all(m, ev);
    check_triggers(m, dice, None, ev)
}

/// Checks an order in Exploration Mode (or a door or item order in a crisis).
pub fn validate(m: &Match, a: usize, cmd: &Command) -> RuleResult<()> {
    let x = crawl(m)?;
    let f = &m.fighters[a];
    if !exploring(m) {
        return validate_in_crisis(m, x, a, cmd);
    }
    if !x.is_explorer(m, a) {
        return Err(refuse("R-EXP-23", format!("{} does not act in Exploration Mode: only the heroes explore.", f.name)));
    }
    if m.is_dead(a) || !m.standing(a) || f.hp <= 0 {
        return Err(refuse("R-EXP-3", format!("{} is unable to act (stunned, incapacitated or dead).", f.name)));
    }
    let acted = x.acted.get(a).copied().unwrap_or_default();
    let left = match acted {
        Acted::No => x.book.move_spaces,
        Acted::Moving(u) => x.book.move_spaces.saturating_sub(u),
        Acted::Done => 0,
    };
    if let Some(&(h, p, left)) = x.busy.get(&a) {
        if !matches!(cmd, Command::EndTurn { .. } | Command::Wait { .. } | Command::Follow { .. } | Command::Take { .. } | Command::Drop { .. }) {
            let other = if h == a { p } else { h };
            return Err(refuse(
                "R-EXP-9",
                format!(
                    "{} is busy binding wounds with {} for {left} more turn{} (Wait aborts it, losing the progress).",
                    f.name,
                    m.fighters[other].name,
                    if left == 1 { "" } else { "s" }
                ),
            ));
        }
    }
    let used_up = || refuse("R-EXP-3", format!("{} has used his exploration action this turn: end the turn (Enter) for the next minute.", f.name));
    match cmd {
        Command::Walk { path, group, .. } => {
            if left == 0 {
                return Err(used_up());
            }
            if path.is_empty() {
                return Err(refuse("INPUT", "The walk has no spaces."));
            }
            let members: Vec<usize> = if *group { x.groups.iter().find(|g| g.first() == Some(&a)).cloned().unwrap_or_else(|| vec![a]) } else { vec![a] };
            if *group && members.len() > 1 && x.groups.iter().all(|g| g.first() != Some(&a)) {
                return Err(refuse("R-EXP-5", format!("{} does not lead a group.", f.name)));
            }
            let cost = m.board.path_cost(path);
            if cost > left {
                return Err(refuse(
                    "R-EXP-5",
                    format!(
                        "An exploration move is at most {} spaces; this path is {cost}{}.",
                        x.book.move_spaces,
                        if left < x.book.move_spaces { format!(" and {} has {left} left", f.name) } else { String::new() }
                    ),
                ));
            }
            let view = side_view(m, &f.side);
            let mut at = f.pos;
            for (k, &p) in path.iter().enumerate() {
                if let Err(why) = m.board.step_geometry(at, p) {
                    let why = if x.door(p).is_some_and(|d| d.hidden) { format!("{p} cannot be entered") } else { why };
                    return Err(refuse("R-EXP-5", format!("Step {} of the walk: {why} (walls and closed doors block; open a door first, R-EXP-11).", k + 1)));
                }
                if x.chest_at(p).is_some() {
                    return Err(refuse("R-EXP-15", format!("A chest fills {p}: walk around it.")));
                }
                // Only figures the side can see block the plan; the rest stop the walk when met.
                if let Some(o) = m.occupant(p).filter(|&o| !members.contains(&o) && view.figures.contains(&o)) {
                    if k + 1 == path.len() || !x.is_explorer(m, o) {
                        return Err(refuse("G-02", format!("{} stands on {p}.", m.fighters[o].name)));
                    }
                }
                at = p;
            }
            Ok(())
        }
        Command::Door { at, open, .. } => {
            if left == 0 {
                return Err(used_up());
            }
            check_door(m, x, a, *at, *open)
        }
        Command::Task { task, at, .. } => {
            if acted != Acted::No {
                return Err(refuse(
                    "R-EXP-3",
                    format!(
                        "{} has already {} this turn; a task takes the whole exploration action.",
                        f.name,
                        if acted == Acted::Done { "acted" } else { "moved" }
                    ),
                ));
            }
            check_task(m, x, a, *task, *at)
        }
        Command::Take { at, item, .. } => check_take(m, x, a, *at, item),
        Command::Drop { item, .. } => check_drop(m, a, item),
        Command::Use { item, target, .. } => {
            if acted != Acted::No {
                return Err(refuse("R-EXP-3", format!("{} has already acted this turn; using an item takes the whole exploration action.", f.name)));
            }
            check_drop(m, a, item)?;
            if m.equipment.item(item).is_none_or(|i| i.heals.is_none()) {
                return Err(refuse("R-HEAL-6", format!("The {} has no use here.", item_name(m, x, item))));
            }
            if let Some(t) = target {
                let Some(ti) = m.index(t) else { return Err(refuse("INPUT", format!("There is no character with id '{t}'."))) };
                if m.is_dead(ti) || m.fighters[ti].pos.distance(f.pos) > 1 {
                    return Err(refuse("G-24", format!("{} must be living and in the same or an adjacent space.", m.fighters[ti].name)));
                }
            }
            Ok(())
        }
        Command::Wait { .. } => {
            if acted == Acted::Done && !x.busy.contains_key(&a) {
                return Err(used_up());
            }
            Ok(())
        }
        Command::Camp { .. } => {
            if !x.camp_allowed {
                return Err(refuse("R-EXP-22", "This level does not let the party camp."));
            }
            if let Some(h) = (0..m.fighters.len()).find(|&i| x.is_explorer(m, i) && !m.is_dead(i) && m.fighters[i].has_condition("bleeding")) {
                return Err(refuse("R-EXP-22", format!("{} is bleeding: stop the bleeding before camping.", m.fighters[h].name)));
            }
            let heroes: Vec<usize> = (0..m.fighters.len()).filter(|&i| x.is_explorer(m, i) && !m.is_dead(i)).collect();
            let watcher = (0..m.fighters.len())
                .find(|&n| !x.is_explorer(m, n) && m.standing(n) && m.fighters[n].hp > 0 && heroes.iter().any(|&h| sees(m, n, h) || sees(m, h, n)));
            if let Some(n) = watcher {
                return Err(refuse("R-EXP-22", format!("{} is able to act and in sight: no camp here.", m.fighters[n].name)));
            }
            Ok(())
        }
        Command::Climb { .. } => {
            if acted != Acted::No {
                return Err(refuse("R-EXP-7", format!("{} has already acted this turn; climbing takes the whole exploration action.", f.name)));
            }
            let Some(dest) = m.board.stairs_destination(f.pos).filter(|d| m.board.walkable(*d)) else {
                return Err(refuse("R-EXP-7", format!("{} does not stand on stairs or a ladder.", f.name)));
            };
            if let Some(o) = m.occupant(dest) {
                return Err(refuse("G-02", format!("{} stands where the stairs arrive ({dest}).", m.fighters[o].name)));
            }
            Ok(())
        }
        Command::EndTurn { .. } => Ok(()),
        Command::Follow { leader, .. } => match leader {
            None => Ok(()),
            Some(l) => {
                let Some(li) = m.index(l) else { return Err(refuse("INPUT", format!("There is no character with id '{l}'."))) };
                if li == a {
                    return Err(refuse("R-EXP-4", format!("{} cannot follow himself.", f.name)));
                }
                if !x.is_explorer(m, li) || m.is_dead(li) {
                    return Err(refuse("R-EXP-4", format!("{} can only follow a living hero.", f.name)));
                }
                Ok(())
            }
        },
        Command::Action { action, target: Some(t), .. } if m.rules.action(action).is_some_and(super::actions::is_attack) => {
            // R-EXP-24 (c): an attack order on an NPC not yet fighting starts the crisis.
            let Some(ti) = m.index(t) else { return Err(refuse("INPUT", format!("There is no character with id '{t}'."))) };
            if x.is_explorer(m, ti) || m.is_dead(ti) {
                return Err(refuse("R-EXP-24", format!("{} attacks only someone not of the party.", f.name)));
            }
            if !sees(m, a, ti) {
                return Err(refuse("R-EXP-19", format!("{} does not see {}: one attacks only whom one sees.", f.name, m.fighters[ti].name)));
            }
            Ok(())
        }
        _ => Err(refuse(
            "R-EXP-1",
            format!(
                "Exploration Mode: {} walks (up to {} spaces), opens doors, searches, picks locks, loots or waits; crisis actions wait for a crisis.",
                f.name, x.book.move_spaces
            ),
        )),
    }
}

/// Door, take and drop orders in a crisis (R-EXP-8: a door or a take is a 1-AP action; a drop
/// costs nothing). Lengthy tasks are refused (R-EXP-10 is not built yet).
fn validate_in_crisis(m: &Match, x: &Explore, a: usize, cmd: &Command) -> RuleResult<()> {
    let f = &m.fighters[a];
    match cmd {
        Command::Door { at, open, .. } => {
            crisis_action(m, a, "Opening or closing a door")?;
            check_door(m, x, a, *at, *open)
        }
        Command::Take { at, item, .. } => {
            crisis_action(m, a, "Taking an item")?;
            check_take(m, x, a, *at, item)
        }
        Command::Drop { item, .. } => {
            super::spending::guard_opportunity(m, a)?;
            check_drop(m, a, item)
        }
        Command::Task { task: Task::OpenChest, at, .. } => {
            // R-EXP-8 †: opening an unlocked chest is a 1-AP action in a crisis.
            crisis_action(m, a, "Opening a chest")?;
            check_task(m, x, a, Task::OpenChest, *at)
        }
        Command::Task { task, at, .. } => {
            // R-EXP-10: a one-turn task is a 3/Only action taken in three consecutive turns.
            if *task == Task::UseItem {
                return Err(refuse("R-EXP-8", "In a crisis an item is used with the Use Item action."));
            }
            super::spending::guard_opportunity(m, a)?;
            if f.opp.action.is_some() || f.opp.movement.is_some() {
                return Err(refuse("R-AP-2", format!("{} has already moved or acted in this opportunity.", f.name)));
            }
            if x.crisis_tasks.get(&a).is_some_and(|t| t.3 == m.clock.turn) {
                return Err(refuse("R-EXP-10", format!("{} has already worked at a lengthy task this turn: once per turn.", f.name)));
            }
            let what = format!("To {} (lengthy task)", task.label());
            let price = super::spending::price_only(f, super::profile::Cost::XOnly(3), &what)?;
            super::spending::check_afford(f, price, &what)?;
            super::spending::check_cap(m, f, price, &what)?;
            check_task(m, x, a, *task, *at)
        }
        _ => Err(refuse("R-EXP-1", "That order is for Exploration Mode: a crisis is on.")),
    }
}

/// A 1-AP action in a crisis: his opportunity, no action yet, the AP and the cap (R-AP-1..3).
fn crisis_action(m: &Match, a: usize, what: &str) -> RuleResult<()> {
    super::spending::guard_opportunity(m, a)?;
    let f = &m.fighters[a];
    if f.opp.action.is_some() {
        return Err(refuse("R-AP-2", format!("{} has already taken an action in this opportunity.", f.name)));
    }
    let price = super::spending::Price { ap: 1, only: false };
    super::spending::check_afford(f, price, what)?;
    super::spending::check_cap(m, f, price, what)
}

fn carried(m: &Match, a: usize, item: &str) -> bool {
    m.fighters[a].loadout.items.iter().any(|i| i == item)
}

pub(crate) fn check_door(m: &Match, x: &Explore, a: usize, at: Pos, open: bool) -> RuleResult<()> {
    let f = &m.fighters[a];
    let tile = m.board.tile(at);
    let is_door = matches!(tile, Some(Tile::DoorOpen | Tile::DoorClosed | Tile::DoorLocked)) && !x.door(at).is_some_and(|d| d.hidden);
    if !is_door {
        return Err(refuse("R-EXP-11", format!("There is no door at {at}.")));
    }
    if f.pos.distance(at) != 1 {
        return Err(refuse("R-EXP-11", format!("{} must stand next to the door at {at} to {} it.", f.name, if open { "open" } else { "close" })));
    }
    match (open, tile) {
        (true, Some(Tile::DoorOpen)) => Err(refuse("R-EXP-11", format!("The door at {at} is already open."))),
        (false, Some(Tile::DoorClosed | Tile::DoorLocked)) => Err(refuse("R-EXP-11", format!("The door at {at} is already closed."))),
        (false, _) if m.occupant(at).is_some() => Err(refuse("R-EXP-11", format!("Someone stands in the doorway at {at}: it cannot be closed."))),
        (true, Some(Tile::DoorLocked)) => {
            let lock = x.door(at).and_then(|d| d.lock.as_ref());
            match lock.and_then(|l| l.key.as_deref()) {
                Some(k) if carried(m, a, k) => Ok(()),
                key => Err(refuse(
                    "R-EXP-12",
                    format!(
                        "The door at {at} is locked: {}pick the lock (Disable) or force it (Lift/Shift).",
                        key.map(|k| format!("the {} opens it, or ", x.keys.get(k).map_or(k, |s| s.as_str()))).unwrap_or_default()
                    ),
                )),
            }
        }
        _ => Ok(()),
    }
}

/// The lock a task works on at `at`: a locked door's or a locked chest's.
fn lock_at<'a>(m: &Match, x: &'a Explore, at: Pos) -> Option<&'a Lock> {
    if m.board.tile(at) == Some(Tile::DoorLocked) {
        return x.door(at).filter(|d| !d.hidden).and_then(|d| d.lock.as_ref());
    }
    x.chest_at(at).and_then(|c| x.chests[c].lock.as_ref())
}

pub(crate) fn check_task(m: &Match, x: &Explore, a: usize, task: Task, at: Pos) -> RuleResult<()> {
    let f = &m.fighters[a];
    match task {
        Task::Search => Ok(()),
        Task::UseItem => Err(refuse("R-EXP-8", "Use an item with its own order (`use`).")),
        Task::Bind => {
            let Some(p) = m.occupant(at).filter(|&p| x.is_explorer(m, p) && !m.is_dead(p)) else {
                return Err(refuse("R-EXP-21", format!("No hero to bind at {at}.")));
            };
            let pf = &m.fighters[p];
            if f.pos.distance(at) > 1 {
                return Err(refuse("R-EXP-21", format!("{} must be next to {}.", f.name, pf.name)));
            }
            if pf.hp >= pf.max_hp || !x.hurt_in_crisis.contains(&p) {
                return Err(refuse("R-HEAL-5", format!("{} has no wounds from the last crisis to bind.", pf.name)));
            }
            if x.last_crisis_end.is_none_or(|e| x.minute > e + x.book.binding.within_minutes) {
                return Err(refuse(
                    "R-EXP-21",
                    format!("Binding must begin within {} minutes of the crisis that hurt {}.", x.book.binding.within_minutes, pf.name),
                ));
            }
            if pf.has_condition("bleeding") {
                return Err(refuse("R-EXP-21", format!("{} is bleeding: stabilize first.", pf.name)));
            }
            if x.bound.contains(&p) {
                return Err(refuse("R-HEAL-5", format!("{}'s wounds have been bound once since that crisis: once per crisis.", pf.name)));
            }
            if p != a && (x.busy.contains_key(&p) || x.acted[p] != Acted::No) && m.standing(p) && pf.hp > 0 {
                return Err(refuse("R-EXP-21", format!("{} is not free this turn: patient and healer are both busy.", pf.name)));
            }
            Ok(())
        }
        Task::Light => {
            if x.burning.contains_key(&a) {
                return Err(refuse("R-EXP-18", format!("{} already holds a burning light.", f.name)));
            }
            if !x.book.lights.iter().any(|l| carried(m, a, &l.item)) {
                return Err(refuse("R-EXP-18", format!("{} carries no torch or lantern.", f.name)));
            }
            Ok(())
        }
        Task::PickLock | Task::Force => {
            if f.pos.distance(at) != 1 {
                return Err(refuse(if task == Task::Force { "R-EXP-13" } else { "R-EXP-12" }, format!("{} must stand next to {at}.", f.name)));
            }
            let lock = lock_at(m, x, at).ok_or_else(|| refuse("R-EXP-12", format!("Nothing at {at} is locked.")))?;
            if task == Task::PickLock && lock.jammed {
                return Err(refuse("R-EXP-12", format!("The lock at {at} is jammed: only its key or force opens it now.")));
            }
            Ok(())
        }
        Task::Disarm => {
            if f.pos.distance(at) > 1 {
                return Err(refuse("R-EXP-17", format!("{} must be at most 1 space from the trap at {at}.", f.name)));
            }
            match x.traps.iter().find(|t| t.pos == at && !t.spent && !t.hidden) {
                Some(_) => Ok(()),
                None => Err(refuse("R-EXP-17", format!("No known trap at {at}."))),
            }
        }
        Task::OpenChest => {
            let c = x.chest_at(at).ok_or_else(|| refuse("R-EXP-15", format!("There is no chest at {at}.")))?;
            if f.pos.distance(at) != 1 {
                return Err(refuse("R-EXP-15", format!("{} must stand next to the chest at {at}.", f.name)));
            }
            let chest = &x.chests[c];
            if chest.open {
                return Err(refuse("R-EXP-15", format!("The chest at {at} is already open.")));
            }
            if let Some(l) = &chest.lock {
                if !l.key.as_deref().is_some_and(|k| carried(m, a, k)) {
                    return Err(refuse(
                        "R-EXP-12",
                        format!("The chest at {at} is locked: pick the lock or force it{}.", if l.key.is_some() { ", or bring its key" } else { "" }),
                    ));
                }
            }
            Ok(())
        }
    }
}

pub(crate) fn check_take(m: &Match, x: &Explore, a: usize, at: Pos, item: &str) -> RuleResult<()> {
    let f = &m.fighters[a];
    if f.pos.distance(at) > 1 {
        return Err(refuse("R-EXP-15", format!("{} can take items only from his space or one next to it.", f.name)));
    }
    let in_chest = x.chest_at(at).is_some_and(|c| x.chests[c].open && x.chests[c].items.iter().any(|i| i == item));
    let on_floor = x.items.iter().any(|(p, i)| *p == at && i == item);
    if !in_chest && !on_floor {
        return Err(refuse(
            "R-EXP-15",
            format!("There is no {item} to take at {at}{}.", if x.chest_at(at).is_some_and(|c| !x.chests[c].open) { " (open the chest first)" } else { "" }),
        ));
    }
    Ok(())
}

pub(crate) fn check_drop(m: &Match, a: usize, item: &str) -> RuleResult<()> {
    if !carried(m, a, item) {
        return Err(refuse("R-EXP-15", format!("{} carries no {item}.", m.fighters[a].name)));
    }
    Ok(())
}

/// Carries out a checked order. Returns the flow: exploration goes on, or a crisis starts.
pub fn apply(m: &mut Match, a: usize, cmd: &Command, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    if !exploring(m) {
        apply_in_crisis(m, a, cmd, dice, ev);
        return super::turn::advance(m, dice, ev);
    }
    let id = m.fighters[a].id.clone();
    // R-EXP-21: a crisis this order starts counts the harm done on the way in (a trap) as its own.
    let hp: BTreeMap<usize, i32> = m.fighters.iter().enumerate().map(|(i, f)| (i, f.hp)).collect();
    m.explore.as_deref_mut().expect("crawl").hp_at_crisis = hp;
    let flow = match cmd {
        Command::Walk { path, group, .. } => walk(m, a, path, *group, dice, ev),
        Command::Door { at, open, .. } => {
            use_spaces(m, a, 1);
            door(m, a, *at, *open, dice, ev)
        }
        Command::Task { task: Task::Bind, at, .. } => {
            // R-EXP-21: healer and patient busy 3 turns per HP it can restore.
            let p = m.occupant(*at).expect("validated");
            let gain = bind_gain(m, p);
            let x = m.explore.as_deref_mut().expect("crawl");
            let turns = x.book.binding.turns_per_hp * gain as u32;
            x.busy.insert(a, (a, p, turns));
            x.busy.insert(p, (a, p, turns));
            x.acted[a] = Acted::Done;
            x.acted[p] = Acted::Done;
            ev.push(Event::TaskOrdered { actor: id, task: Task::Bind, at: *at });
            ev.push(Event::Note { text: format!("{} binds {}'s wounds: {turns} turns (R-EXP-21).", m.fighters[a].name, m.fighters[p].name) });
            None
        }
        Command::Task { task, at, .. } => {
            let x = m.explore.as_deref_mut().expect("crawl");
            x.acted[a] = Acted::Done;
            x.tasks.push((a, *task, *at, None));
            ev.push(Event::TaskOrdered { actor: id, task: *task, at: *at });
            None
        }
        Command::Take { at, item, .. } => {
            take(m, a, *at, item, ev);
            None
        }
        Command::Drop { item, .. } => {
            drop_item(m, a, item, ev);
            None
        }
        Command::Use { item, target, .. } => {
            let at = target.as_deref().and_then(|t| m.index(t)).map_or(m.fighters[a].pos, |t| m.fighters[t].pos);
            let x = m.explore.as_deref_mut().expect("crawl");
            x.acted[a] = Acted::Done;
            x.tasks.push((a, Task::UseItem, at, Some(item.clone())));
            ev.push(Event::TaskOrdered { actor: id, task: Task::UseItem, at });
            None
        }
        Command::Climb { .. } => {
            climb(m, a, ev);
            None
        }
        Command::Camp { .. } => {
            camp(m, dice, ev);
            return Flow::Exploring;
        }
        Command::Wait { .. } if m.explore.as_deref().is_some_and(|x| x.busy.contains_key(&a)) => {
            // R-EXP-9: aborting loses all progress.
            let x = m.explore.as_deref_mut().expect("crawl");
            if let Some((h, p, _)) = x.busy.remove(&a) {
                x.busy.remove(&h);
                x.busy.remove(&p);
            }
            ev.push(Event::Note { text: format!("{} stops binding wounds: the work is lost (R-EXP-9).", m.fighters[a].name) });
            None
        }
        Command::Wait { .. } => {
            m.explore.as_deref_mut().expect("crawl").acted[a] = Acted::Done;
            ev.push(Event::Waited { actor: id });
            None
        }
        Command::EndTurn { .. } => return end_turn(m, dice, ev),
        Command::Action { target: Some(t), .. } => {
            // R-EXP-24 (c), R-EXP-25: the target and his encounter take part (hostile now); the
            // attack itself is made in the crisis, at the attacker's opportunity.
            let ti = m.index(t).expect("validated");
            let x = m.explore.as_deref_mut().expect("crawl");
            if let Some(e) = x.encounter_of[ti] {
                for i in x.encounters[e].members.clone() {
                    x.calm[i] = false;
                }
            }
            let reason = format!("{} attacks {}", m.fighters[a].name, m.fighters[ti].name);
            let mut seen = sightings(m);
            seen.push((a, ti));
            begin_crisis(m, dice, &seen, &reason, Some(ti), ev);
            return Flow::CrisisStarts;
        }
        Command::Follow { leader, .. } => {
            follow(m, a, leader.as_deref(), ev);
            None
        }
        _ => None,
    };
    if let Some(f) = flow {
        return f;
    }
    if let Some(f) = check_triggers(m, dice, None, ev).into_crisis() {
        return f;
    }
    // Every hero able to act has acted: the turn ends (R-EXP-3).
    let x = m.explore.as_deref().expect("crawl");
    let all_done = (0..m.fighters.len()).filter(|&i| x.is_explorer(m, i) && m.standing(i) && m.fighters[i].hp > 0).all(|i| x.acted[i] == Acted::Done);
    if all_done { end_turn(m, dice, ev) } else { Flow::Exploring }
}

trait IntoCrisis {
    fn into_crisis(self) -> Option<Flow>;
}
impl IntoCrisis for Flow {
    fn into_crisis(self) -> Option<Flow> {
        (self == Flow::CrisisStarts).then_some(self)
    }
}

fn use_spaces(m: &mut Match, a: usize, n: u32) {
    let x = m.explore.as_deref_mut().expect("crawl");
    let used = match x.acted[a] {
        Acted::No => n,
        Acted::Moving(u) => u + n,
        Acted::Done => x.book.move_spaces,
    };
    x.acted[a] = if used >= x.book.move_spaces { Acted::Done } else { Acted::Moving(used) };
}

fn apply_in_crisis(m: &mut Match, a: usize, cmd: &Command, dice: &mut Dice, ev: &mut Vec<Event>) {
    let pay = |m: &mut Match, what: &str, ev: &mut Vec<Event>| {
        let f = &mut m.fighters[a];
        let amount = super::spending::pay(f, super::spending::Price { ap: 1, only: false }, true);
        f.turn.did_anything = true;
        f.opp.action = Some(what.to_string());
        m.clock.last_closed = None;
        ev.push(Event::ApSpent { actor: f.id.clone(), amount, ap: f.ap.current, for_what: what.to_string() });
    };
    match cmd {
        Command::Door { at, open, .. } => {
            pay(m, "door", ev);
            let _ = door(m, a, *at, *open, dice, ev);
            super::turn::close_opportunity(m, false, ev);
        }
        Command::Take { at, item, .. } => {
            pay(m, "take_item", ev);
            take(m, a, *at, item, ev);
            super::turn::close_opportunity(m, false, ev);
        }
        Command::Drop { item, .. } => drop_item(m, a, item, ev),
        Command::Task { task: Task::OpenChest, at, .. } => {
            pay(m, "open_chest", ev);
            open_chest_at(m, a, *at, dice, ev);
            super::turn::close_opportunity(m, false, ev);
        }
        Command::Task { task, at, .. } => {
            // R-EXP-10: the third consecutive turn rolls the check.
            let f = &m.fighters[a];
            let what = format!("{}_lengthy", task.label().replace(' ', "_"));
            let price = super::spending::price_only(f, super::profile::Cost::XOnly(3), &what).unwrap_or(super::spending::Price { ap: 3, only: false });
            let f = &mut m.fighters[a];
            let amount = super::spending::pay(f, price, true);
            f.turn.did_anything = true;
            f.opp.action = Some(what.clone());
            m.clock.last_closed = None;
            if price.only {
                ev.push(Event::OnlyMode { actor: f.id.clone(), action: what.clone() });
            }
            ev.push(Event::ApSpent { actor: f.id.clone(), amount, ap: f.ap.current, for_what: what });
            let turn = m.clock.turn;
            let x = m.explore.as_deref_mut().expect("crawl");
            let done = match x.crisis_tasks.get(&a) {
                Some(&(t, p, n, last)) if t == *task && p == *at && last + 1 == turn => n + 1,
                _ => 1,
            };
            x.crisis_tasks.insert(a, (*task, *at, done, turn));
            ev.push(Event::TaskOrdered { actor: m.fighters[a].id.clone(), task: *task, at: *at });
            ev.push(Event::Note { text: format!("{}: turn {done} of 3 at the task (R-EXP-10).", m.fighters[a].name) });
            if done >= 3 {
                m.explore.as_deref_mut().expect("crawl").crisis_tasks.remove(&a);
                let _ = resolve_task(m, a, *task, *at, dice, ev);
            }
            super::turn::close_opportunity(m, false, ev);
        }
        _ => {}
    }
}

/// Opens or closes a door (R-EXP-11): a key unlocks it for good; a trap on it springs.
/// Returns `Some(flow)` when a crisis started.
pub(crate) fn door(m: &mut Match, a: usize, at: Pos, open: bool, dice: &mut Dice, ev: &mut Vec<Event>) -> Option<Flow> {
    let id = m.fighters[a].id.clone();
    if !open {
        m.board.set_tile(at, Tile::DoorClosed);
        ev.push(Event::DoorChanged { actor: id, at, state: "closed".into() });
        return None;
    }
    if m.board.tile(at) == Some(Tile::DoorLocked) {
        if let Some(d) = m.explore.as_deref_mut().and_then(|x| x.doors.iter_mut().find(|d| d.pos == at)) {
            d.lock = None;
        }
        ev.push(Event::DoorChanged { actor: id.clone(), at, state: "unlocked".into() });
    }
    m.board.set_tile(at, Tile::DoorOpen);
    ev.push(Event::DoorChanged { actor: id, at, state: "open".into() });
    let sprang = m.explore.as_deref().and_then(|x| x.trap_at(at, TrapOn::Door));
    if let Some(t) = sprang {
        spring(m, t, a, dice, ev);
    }
    reveal_all(m, ev);
    if sprang.is_some() && exploring(m) {
        return Some(check_triggers(m, dice, Some("a trap sprang"), ev));
    }
    None
}

/// Opens the chest at `at` (a crisis action: R-EXP-8 †, A4-3.9), springing its trap.
pub(crate) fn open_chest_at(m: &mut Match, a: usize, at: Pos, dice: &mut Dice, ev: &mut Vec<Event>) {
    if let Some(c) = m.explore.as_deref().and_then(|x| x.chest_at(at)) {
        open_chest(m, a, c, ev);
        if let Some(t) = m.explore.as_deref().and_then(|x| x.trap_at(at, TrapOn::Chest)) {
            spring(m, t, a, dice, ev);
        }
    }
}

pub(crate) fn take(m: &mut Match, a: usize, at: Pos, item: &str, ev: &mut Vec<Event>) {
    let x = m.explore.as_deref_mut().expect("crawl");
    if let Some(c) = x.chest_at(at).filter(|&c| x.chests[c].open && x.chests[c].items.iter().any(|i| i == item)) {
        let k = x.chests[c].items.iter().position(|i| i == item).expect("checked");
        x.chests[c].items.remove(k);
    } else if let Some(k) = x.items.iter().position(|(p, i)| *p == at && i == item) {
        x.items.remove(k);
    }
    m.fighters[a].loadout.items.push(item.to_string());
    ev.push(Event::ItemTaken { actor: m.fighters[a].id.clone(), item: item.to_string(), at });
}

pub(crate) fn drop_item(m: &mut Match, a: usize, item: &str, ev: &mut Vec<Event>) {
    let f = &mut m.fighters[a];
    if let Some(k) = f.loadout.items.iter().position(|i| i == item) {
        f.loadout.items.remove(k);
    }
    let at = f.pos;
    ev.push(Event::ItemDropped { actor: f.id.clone(), item: item.to_string(), at });
    if let Some(x) = m.explore.as_deref_mut() {
        x.items.push((at, item.to_string()));
    }
}

/// R-EXP-4: leaves his group; with a leader, joins the end of the leader's group.
fn follow(m: &mut Match, a: usize, leader: Option<&str>, ev: &mut Vec<Event>) {
    let li = leader.and_then(|l| m.index(l));
    let x = m.explore.as_deref_mut().expect("crawl");
    for g in x.groups.iter_mut() {
        g.retain(|&i| i != a);
    }
    x.groups.retain(|g| !g.is_empty());
    match li.and_then(|l| x.group_of(l)) {
        Some(g) => x.groups[g].push(a),
        None => x.groups.push(vec![a]),
    }
    let groups = x.groups.iter().map(|g| g.iter().map(|&i| m.fighters[i].id.clone()).collect()).collect();
    ev.push(Event::Groups { groups });
}

/// R-EXP-5: a walk, alone or as a group's leader, step by step; the group follows by the
/// trail; after each whole step traps spring and sight is tested (R-EXP-24).
fn walk(m: &mut Match, a: usize, path: &[Pos], group: bool, dice: &mut Dice, ev: &mut Vec<Event>) -> Option<Flow> {
    let x = m.explore.as_deref().expect("crawl");
    let mut members: Vec<usize> = if group { x.groups.iter().find(|g| g.first() == Some(&a)).cloned().unwrap_or_else(|| vec![a]) } else { vec![a] };
    // R-EXP-6: a member who already used his action (or cannot act) stays behind, alone.
    // Members who walked with him earlier this turn keep up: their action is his.
    let lead = x.acted[a];
    let behind: Vec<usize> =
        members.iter().copied().skip(1).filter(|&i| (x.acted[i] != Acted::No && x.acted[i] != lead) || !m.standing(i) || m.fighters[i].hp <= 0).collect();
    for &i in &behind {
        let id = m.fighters[i].id.clone();
        follow(m, i, None, ev);
        ev.push(Event::Note { text: format!("{id} stays behind (R-EXP-6).") });
    }
    members.retain(|i| !behind.contains(i));
    let starts: Vec<Pos> = members.iter().map(|&i| m.fighters[i].pos).collect();
    let mut left: Vec<Pos> = Vec::new(); // spaces the leader left, oldest first
    let mut walked = 0u32;
    let mut moved: Vec<Vec<Pos>> = vec![Vec::new(); members.len()];
    let mut crisis = None;
    for &p in path {
        if m.occupant(p).is_some_and(|o| !members.contains(&o)) || m.board.step_geometry(m.fighters[a].pos, p).is_err() {
            ev.push(Event::Note { text: format!("{} stops: {p} is blocked.", m.fighters[a].name) });
            break;
        }
        // A member standing there steps aside along the trail below; the leader goes first.
        let from = m.fighters[a].pos;
        if let Some(o) = m.occupant(p).filter(|&o| o != a) {
            // swap: the member takes the leader's old space
            m.fighters[o].pos = from;
            if let Some(k) = members.iter().position(|&i| i == o) {
                moved[k].push(from);
            }
        }
        m.fighters[a].pos = p;
        moved[0].push(p);
        left.insert(0, from);
        walked += m.board.path_cost(&[p]);
        // Members follow in marching order (G-54).
        let mut trail: Vec<Pos> = left.clone();
        trail.extend(starts.iter().skip(1));
        let mut entered: Vec<usize> = vec![a];
        for k in 1..members.len() {
            let i = members[k];
            let slot = trail[k - 1];
            let here = m.fighters[i].pos;
            if here == slot {
                continue;
            }
            if let Some(next) = step_toward(m, here, slot) {
                if m.occupant(next).is_none() && m.board.step_geometry(here, next).is_ok() && !m.explore.as_deref().is_some_and(|x| x.chest_at(next).is_some())
                {
                    m.fighters[i].pos = next;
                    moved[k].push(next);
                    entered.push(i);
                }
            }
        }
        // Traps in the spaces entered, in marching order (R-EXP-16).
        let mut sprang = false;
        for &i in &entered {
            if let Some(t) = m.explore.as_deref().and_then(|x| x.trap_at(m.fighters[i].pos, TrapOn::Space)) {
                spring(m, t, i, dice, ev);
                sprang = true;
            }
        }
        reveal_all(m, ev);
        // R-EXP-24 (a) and (b): a sighting, or a trap that sprang (resolved first).
        let flow = check_triggers(m, dice, sprang.then_some("a trap sprang"), ev);
        if flow == Flow::CrisisStarts {
            crisis = Some(flow);
            break;
        }
    }
    for (k, &i) in members.iter().enumerate() {
        if !moved[k].is_empty() {
            ev.push(Event::Moved {
                actor: m.fighters[i].id.clone(),
                movement: "explore".into(),
                from: starts[k],
                to: m.fighters[i].pos,
                path: moved[k].clone(),
            });
        }
    }
    if crisis.is_some() {
        return crisis;
    }
    use_spaces(m, a, walked.max(1));
    let x = m.explore.as_deref_mut().expect("crawl");
    let lead = x.acted[a];
    for &i in members.iter().skip(1) {
        x.acted[i] = lead;
    }
    None
}

/// R-EXP-7: the climber reaches the other end of his stairs; as a group's leader, members
/// within 6 walking spaces (through heroes, not walls or closed doors) who have not acted
/// climb too, placed in marching order on the nearest free spaces to the arrival (ties: lowest
/// row, then column); the others stay behind, each a group of his own.
fn climb(m: &mut Match, a: usize, ev: &mut Vec<Event>) {
    let from = m.fighters[a].pos;
    let Some(dest) = m.board.stairs_destination(from) else { return };
    let x = m.explore.as_deref().expect("crawl");
    let reach = x.book.move_spaces;
    let members: Vec<usize> = x.groups.iter().find(|g| g.first() == Some(&a)).map(|g| g[1..].to_vec()).unwrap_or_default();
    // walking distance from the stairs, passing through heroes
    let b = &m.board;
    let near = |p: Pos| -> bool {
        let found = pathfinding::directed::bfs::bfs(
            &from,
            |q: &Pos| {
                let mut out = Vec::new();
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        let r = Pos::on(q.x + dx, q.y + dy, q.floor);
                        if (dx, dy) != (0, 0) && r.distance(from) <= reach && b.step_geometry(*q, r).is_ok() {
                            out.push(r);
                        }
                    }
                }
                out
            },
            |q| *q == p,
        );
        found.is_some_and(|path| path.len() as u32 - 1 <= reach)
    };
    let climbing: Vec<usize> =
        members.iter().copied().filter(|&i| x.acted[i] == Acted::No && m.standing(i) && m.fighters[i].hp > 0 && near(m.fighters[i].pos)).collect();
    let behind: Vec<usize> = members.iter().copied().filter(|i| !climbing.contains(i)).collect();
    m.fighters[a].pos = dest;
    ev.push(Event::Moved { actor: m.fighters[a].id.clone(), movement: "climb".into(), from, to: dest, path: vec![dest] });
    for &i in &climbing {
        // the nearest free walkable space to the arrival
        let mut best: Option<(u32, i32, i32, Pos)> = None;
        let fl = &m.board.floors[dest.floor as usize];
        for y in 0..fl.height as i32 {
            for xx in 0..fl.width as i32 {
                let p = Pos::on(xx, y, dest.floor);
                if !m.board.walkable(p) || m.occupant(p).is_some() || m.explore.as_deref().is_some_and(|x| x.chest_at(p).is_some()) {
                    continue;
                }
                let key = (p.distance(dest), p.y, p.x, p);
                if best.is_none_or(|b| (key.0, key.1, key.2) < (b.0, b.1, b.2)) {
                    best = Some(key);
                }
            }
        }
        if let Some((_, _, _, p)) = best {
            let old = m.fighters[i].pos;
            m.fighters[i].pos = p;
            ev.push(Event::Moved { actor: m.fighters[i].id.clone(), movement: "climb".into(), from: old, to: p, path: vec![p] });
        }
    }
    let x = m.explore.as_deref_mut().expect("crawl");
    x.acted[a] = Acted::Done;
    for &i in &climbing {
        x.acted[i] = Acted::Done;
    }
    for i in behind {
        let id = m.fighters[i].id.clone();
        follow(m, i, None, ev);
        ev.push(Event::Note { text: format!("{id} stays behind (R-EXP-7).") });
    }
    reveal_all(m, ev);
}

/// R-EXP-22: the party camps: 505 minutes pass at once (no end-of-turn steps); MP and FP fill,
/// temporary and persistent conditions end; each injured hero not recuperated in the last day
/// makes a recuperation check (R-HEAL-7: scaling Brawn-or-Nerve against CR 12), helped by the
/// best other healer able to act (R-HEAL-8: his scaling Healing check against the patient's
/// injury CR gives +1 per rank of success).
fn camp(m: &mut Match, dice: &mut Dice, ev: &mut Vec<Event>) {
    use super::attack::Injury;
    let x = m.explore.as_deref().expect("crawl");
    let book = x.book.clone();
    let start = x.minute;
    let heroes: Vec<usize> = (0..m.fighters.len()).filter(|&i| x.is_explorer(m, i) && !m.is_dead(i)).collect();
    let end = start + book.camp_minutes;
    ev.push(Event::Note { text: format!("The party camps: {} minutes pass (R-EXP-22).", book.camp_minutes) });
    for &i in &heroes {
        let f = &mut m.fighters[i];
        f.mp = f.max_mp;
        f.fp = f.max_fp;
        for c in std::mem::take(&mut f.conditions) {
            ev.push(Event::ConditionRemoved { actor: f.id.clone(), condition: c.id, reason: "camp".into() });
        }
    }
    for &p in &heroes {
        let recent = m.explore.as_deref().expect("crawl").recuperated.get(&p).is_some_and(|&t| end < t + book.recuperation_every_minutes);
        if m.fighters[p].hp >= m.fighters[p].max_hp || recent {
            continue;
        }
        let cr = match super::attack::injury(&m.fighters[p]) {
            Injury::Healthy | Injury::Bruised => book.caregiver_cr.0,
            Injury::Wounded => book.caregiver_cr.1,
            _ => book.caregiver_cr.2,
        };
        // the best other healer able to act: Healing adjustment, then Savvy, then hero order
        let healer = heroes.iter().copied().filter(|&h| h != p && m.standing(h) && m.fighters[h].hp > 0).max_by(|&a, &b| {
            let k = |i: usize| (m.fighters[i].skill("healing").adjustment(), m.fighters[i].stats.savvy);
            k(a).cmp(&k(b)).then(b.cmp(&a))
        });
        let mut bonus = 0i32;
        if let Some(h) = healer {
            let f = &m.fighters[h];
            let roll = stat_check(m, dice, f.stats.savvy, f.skill("healing").adjustment());
            let total = log_roll(ev, dice, &f.id.clone(), "caregiver", roll);
            bonus = super::checks::scaling_steps(total - cr) as i32;
        }
        let f = &m.fighters[p];
        let roll = stat_check(m, dice, f.stats.brawn.max(f.stats.nerve), bonus);
        let total = log_roll(ev, dice, &f.id.clone(), "recuperation", roll);
        let gained = super::checks::scaling_steps(total - book.camp_recuperation_cr) as i32;
        if gained > 0 {
            super::attack::change_hp(m, p, gained, "recuperation", ev);
        }
        m.explore.as_deref_mut().expect("crawl").recuperated.insert(p, end);
    }
    let x = m.explore.as_deref_mut().expect("crawl");
    x.minute = end;
    x.turn += 1;
    x.acted = vec![Acted::No; m.fighters.len()];
    x.tasks.clear();
    ev.push(Event::ExplorationTurn { turn: x.turn, minute: x.minute });
}

/// One step from `from` toward `to` along a shortest walkable path (ties: the step to the
/// lowest row, then column; G-54).
fn step_toward(m: &Match, from: Pos, to: Pos) -> Option<Pos> {
    let b = &m.board;
    let succ = |p: &Pos| -> Vec<(Pos, u32)> {
        let mut out = Vec::with_capacity(8);
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = Pos::on(p.x + dx, p.y + dy, p.floor);
                if (dx, dy) != (0, 0) && b.step_geometry(*p, q).is_ok() {
                    out.push((q, 1));
                }
            }
        }
        out
    };
    // Distances from the goal, then the best neighbour of `from`.
    let far = from.distance(to);
    if far > 64 {
        return None;
    }
    let dist = |q: Pos| {
        pathfinding::directed::bfs::bfs(&q, |p| succ(p).into_iter().map(|x| x.0).filter(|s| s.distance(to) <= far + 8).collect::<Vec<_>>(), |p| *p == to)
            .map(|p| p.len())
    };
    let mut best: Option<(usize, i32, i32, Pos)> = None;
    for (q, _) in succ(&from) {
        if let Some(d) = dist(q) {
            let key = (d, q.y, q.x, q);
            if best.is_none_or(|b| (key.0, key.1, key.2) < (b.0, b.1, b.2)) {
                best = Some(key);
            }
        }
    }
    best.map(|b| b.3)
}

/// Records a task check's margin for character points (R-CP-9).
fn task_check(ev: &mut Vec<Event>, actor: &str, check: &str, object: String, margin: i32) {
    ev.push(Event::TaskCheck { actor: actor.to_string(), check: check.to_string(), object, margin });
}

/// A skill check of a character: the skill's stat die, the skill's adjustment (untrained −2).
fn skill_check(m: &Match, dice: &mut Dice, i: usize, skill: &str, stat: super::equipment::Stat, ev: &mut Vec<Event>, purpose: &str) -> i32 {
    let rank = super::attack::stat_rank(m, i, stat);
    let adj = m.fighters[i].skill(skill).adjustment();
    let roll = stat_check(m, dice, rank, adj);
    log_roll(ev, dice, &m.fighters[i].id.clone(), purpose, roll)
}

/// R-EXP-16: a trap springs on `victim`: a Dodge check against its effect CR, else damage
/// (armor counts) and its condition. It is then spent unless it re-arms.
pub fn spring(m: &mut Match, t: usize, victim: usize, dice: &mut Dice, ev: &mut Vec<Event>) {
    let x = m.explore.as_deref().expect("crawl");
    let trap = x.traps[t].clone();
    let dodge = x.book.skills.dodge.clone();
    ev.push(Event::TrapSprung { actor: m.fighters[victim].id.clone(), trap: trap.id.clone(), at: trap.pos });
    let total = skill_check(m, dice, victim, &dodge, super::equipment::Stat::Finesse, ev, "dodge_trap");
    if total < trap.effect_cr {
        let explode = m.rules.options.damage_explodes;
        let roll = dice.roll(trap.damage.0, trap.damage.1, explode, 0);
        let raw = log_roll(ev, dice, &trap.id, "trap_damage", roll);
        let armor = m.fighters[victim].loadout.armor.as_deref().and_then(|a| m.equipment.armor(a)).map_or(0, |a| a.reduction);
        let dealt = (raw - armor).max(0);
        if dealt > 0 {
            let before = m.fighters[victim].hp;
            super::attack::change_hp(m, victim, -dealt, "trap", ev);
            super::attack::stun_check(m, dice, victim, dealt, ev);
            if m.a4.is_some() {
                super::a4::acts::rebleed(m, victim, before, ev);
            }
        }
        if let Some(c) = &trap.condition {
            if !m.fighters[victim].has_condition(c) && m.conditions.get(c).is_some() {
                let duration = m.conditions.get(c).map(|r| r.duration).unwrap_or(super::fighter::Duration::Temporary);
                let inst = super::fighter::ConditionInstance { id: c.clone(), duration, removal_cr: None };
                ev.push(Event::ConditionAdded { actor: m.fighters[victim].id.clone(), condition: inst.clone() });
                m.fighters[victim].conditions.push(inst);
            }
        }
    } else {
        ev.push(Event::Note { text: format!("{} dodges the trap.", m.fighters[victim].name) });
    }
    let x = m.explore.as_deref_mut().expect("crawl");
    x.traps[t].hidden = false;
    if !trap.rearms {
        x.traps[t].spent = true;
    }
}

/// R-EXP-24: a hero and an active hostile see each other (or `forced`, a trap or an attack
/// order): Crisis Mode starts. Returns `CrisisStarts` or `Exploring`.
pub fn check_triggers(m: &mut Match, dice: &mut Dice, forced: Option<&str>, ev: &mut Vec<Event>) -> Flow {
    let seen = sightings(m);
    if seen.is_empty() && forced.is_none() {
        return Flow::Exploring;
    }
    let reason = match (forced, seen.first()) {
        (Some(r), _) => r.to_string(),
        (None, Some(&(h, n))) => format!("{} and {} see each other", m.fighters[h].name, m.fighters[n].name),
        (None, None) => return Flow::Exploring,
    };
    begin_crisis(m, dice, &seen, &reason, None, ev);
    Flow::CrisisStarts
}

/// R-EXP-25, R-EXP-26: the participants (every hero; the hostiles seen or seeing, and their
/// encounters), surprise per encounter; everyone stays where he is. The opening reset follows.
/// `attacked`: the target of an attack order (R-EXP-24c), whose encounter is surprised unless
/// alert (R-EXP-26 (4)).
fn begin_crisis(m: &mut Match, dice: &mut Dice, seen: &[(usize, usize)], reason: &str, attacked: Option<usize>, ev: &mut Vec<Event>) {
    let x = m.explore.as_deref().expect("crawl");
    let mut part = vec![false; m.fighters.len()];
    let mut encounters: Vec<usize> = Vec::new();
    for i in 0..m.fighters.len() {
        part[i] = x.is_explorer(m, i) && alive(m, i);
    }
    for &(_, n) in seen {
        part[n] = true;
        if let Some(e) = x.encounter_of[n] {
            if !encounters.contains(&e) {
                encounters.push(e);
            }
        }
    }
    for &e in &encounters {
        for &i in &x.encounters[e].members {
            if alive(m, i) {
                part[i] = true;
            }
        }
    }
    // Surprise (R-EXP-26), per encounter.
    let sneak = x.book.skills.sneak.clone();
    let alert = x.book.skills.alertness.clone();
    let check_adj =
        |m: &Match, i: usize, skill: &str, stat: super::equipment::Stat| (super::attack::stat_rank(m, i, stat), m.fighters[i].skill(skill).adjustment());
    let heroes: Vec<usize> = (0..m.fighters.len()).filter(|&i| x.is_explorer(m, i) && alive(m, i)).collect();
    let mut surprised: Vec<usize> = Vec::new();
    let enc_list: Vec<(Vec<usize>, Awareness, String)> = encounters
        .iter()
        .map(|&e| {
            (x.encounters[e].members.iter().copied().filter(|&i| alive(m, i) && m.standing(i)).collect(), x.encounters[e].awareness, x.encounters[e].id.clone())
        })
        .collect();
    use super::equipment::Stat;
    // Lowest (or highest) by check adjustment, then stat, then listing order.
    let pick = |m: &Match, who: &[usize], skill: &str, stat: Stat, lowest: bool| -> Option<usize> {
        let key = |&i: &usize| {
            let (r, a) = check_adj(m, i, skill, stat);
            (a, r as i32)
        };
        if lowest { who.iter().copied().min_by_key(|i| key(i)) } else { who.iter().copied().max_by(|a, b| key(a).cmp(&key(b)).then(b.cmp(a))) }
    };
    for (members, awareness, eid) in &enc_list {
        if attacked.is_some_and(|t| members.contains(&t)) {
            if *awareness != Awareness::Alert {
                surprised.extend(members.iter().copied());
                ev.push(Event::Note { text: format!("{eid} is attacked unawares (R-EXP-26).") });
            }
            continue;
        }
        match awareness {
            Awareness::Alert => {}
            Awareness::Ambush => {
                let (Some(s), Some(h)) = (pick(m, members, &sneak, Stat::Finesse, true), pick(m, &heroes, &alert, Stat::Savvy, false)) else { continue };
                let o = super::checks::opposed(dice, check_adj(m, h, &alert, Stat::Savvy), check_adj(m, s, &sneak, Stat::Finesse));
                ev.push(Event::Dice { actor: m.fighters[h].id.clone(), purpose: "alertness".into(), roll: o.target, parts: vec![] });
                ev.push(Event::Dice { actor: m.fighters[s].id.clone(), purpose: "sneak".into(), roll: o.instigator, parts: vec![] });
                if o.instigator_wins {
                    surprised.extend(heroes.iter().copied());
                    ev.push(Event::Note { text: format!("Ambush: the heroes are surprised by {eid} (R-EXP-26).") });
                }
            }
            Awareness::Unaware => {
                let spotters: Vec<usize> = heroes.iter().copied().filter(|&h| members.iter().any(|&n| sees(m, h, n) || sees(m, n, h))).collect();
                // R-EXP-26 (3): a spotter carrying a burning light in a dark area loses at once.
                if spotters.iter().any(|&h| x.burning.contains_key(&h) && x.in_dark(m.fighters[h].pos)) {
                    ev.push(Event::Note { text: format!("{eid} sees the light coming: no surprise (R-EXP-26).") });
                    continue;
                }
                let (Some(s), Some(w)) = (pick(m, &spotters, &sneak, Stat::Finesse, true), pick(m, members, &alert, Stat::Savvy, false)) else { continue };
                let o = super::checks::opposed(dice, check_adj(m, w, &alert, Stat::Savvy), check_adj(m, s, &sneak, Stat::Finesse));
                ev.push(Event::Dice { actor: m.fighters[w].id.clone(), purpose: "alertness".into(), roll: o.target, parts: vec![] });
                ev.push(Event::Dice { actor: m.fighters[s].id.clone(), purpose: "sneak".into(), roll: o.instigator, parts: vec![] });
                if o.instigator_wins {
                    surprised.extend(members.iter().copied());
                    ev.push(Event::Note { text: format!("{eid} is caught unaware (R-EXP-26).") });
                }
            }
        }
    }
    let x = m.explore.as_deref_mut().expect("crawl");
    x.tasks.clear(); // unfinished tasks are lost (R-EXP-9)
    x.crisis_tasks.clear();
    x.busy.clear();
    x.crisis_minute = Some(x.minute);
    for i in 0..m.fighters.len() {
        let f = &mut m.fighters[i];
        f.dormant = !part[i];
        f.surprised = surprised.contains(&i);
        f.turn = Default::default();
        f.opp = Default::default();
    }
    m.clock.phase = Phase::Setup;
    m.clock.turn = 0;
    m.clock.round = 0;
    m.clock.current = None;
    m.clock.last_closed = None;
    ev.push(Event::CrisisBegins {
        reason: reason.to_string(),
        participants: (0..m.fighters.len()).filter(|&i| part[i]).map(|i| m.fighters[i].id.clone()).collect(),
        surprised: surprised.iter().map(|&i| m.fighters[i].id.clone()).collect(),
    });
    if one_phase_crisis(m) {
        ev.push(Event::Note { text: format!("{ONE_PHASE_CRISIS}.") });
    }
}

/// R-EXP-25: at a normal reset, inactive hostiles who see or are seen by a participant join
/// the crisis (with their encounters), not surprised.
pub fn join_crisis(m: &mut Match, ev: &mut Vec<Event>) {
    let Some(x) = m.explore.as_deref() else { return };
    let mut join = Vec::new();
    for n in (0..m.fighters.len()).filter(|&i| m.fighters[i].dormant && active_hostile(m, x, i)) {
        if (0..m.fighters.len()).any(|p| !m.fighters[p].dormant && alive(m, p) && (sees(m, p, n) || sees(m, n, p))) {
            join.push(n);
            if let Some(e) = x.encounter_of[n] {
                join.extend(x.encounters[e].members.iter().copied());
            }
        }
    }
    join.sort_unstable();
    join.dedup();
    for i in join {
        if m.fighters[i].dormant && alive(m, i) {
            m.fighters[i].dormant = false;
            m.fighters[i].surprised = false;
            ev.push(Event::Note { text: format!("{} joins the crisis (R-EXP-25).", m.fighters[i].name) });
        }
    }
}

/// R-EXP-27: after the closing reset of a crawl's crisis, Exploration Mode resumes with a new
/// turn: the clock gains the crisis's minutes, the encounters that fought are alert.
pub fn resume(m: &mut Match, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    let turns = m.clock.turn;
    // A4-1.1, A4-G-39: under A4 a crisis turn is a round of `seconds_per_round`, and the
    // clock gains ⌈rounds × seconds / 60⌉ minutes, at least 1.
    let minutes = match m.a4.as_deref() {
        Some(a4) => turns.saturating_mul(a4.book.time.seconds_per_round).div_ceil(60).max(1),
        None => turns.div_ceil(m.explore.as_deref().expect("crawl").book.crisis_turns_per_minute.max(1)),
    };
    let x = m.explore.as_deref_mut().expect("crawl");
    x.minute += minutes;
    let burnt = minutes;
    x.crisis_minute = None;
    x.crisis_tasks.clear(); // progress left when the crisis ends is lost (R-EXP-10)
    // R-EXP-21: who this crisis hurt, and when it ended (binding may begin within 30 minutes).
    x.last_crisis_end = Some(x.minute);
    x.hurt_in_crisis = x.hp_at_crisis.iter().filter(|(i, hp)| m.fighters[**i].hp < **hp).map(|(i, _)| *i).collect();
    x.bound.clear();
    for e in x.encounters.iter_mut() {
        if e.members.iter().any(|&i| !m.fighters[i].dormant) {
            e.awareness = Awareness::Alert;
        }
    }
    // Hostiles still able to act (a script ended the crisis) become inactive (R-EXP-27).
    let calm: Vec<usize> =
        (0..m.fighters.len()).filter(|&i| !m.fighters[i].dormant && !x.explorers.contains(&m.fighters[i].side) && m.fighters[i].hp > 0).collect();
    for i in calm {
        if m.conditions.can_act(&m.fighters[i], m.rules.options.conditions_adv) {
            x.calm[i] = true;
        }
    }
    for f in m.fighters.iter_mut() {
        f.dormant = false;
        f.surprised = false;
        f.turn = Default::default();
        f.opp = Default::default();
    }
    // Mooks at 0 HP are removed (G-14): they are dead already; the dead stay where they fell.
    burn_lights(m, burnt, ev); // G-51: lights burn the crisis's minutes too
    let x = m.explore.as_deref_mut().expect("crawl");
    m.clock.phase = Phase::Exploration;
    m.clock.current = None;
    m.clock.last_closed = None;
    m.pending = None;
    x.turn += 1;
    x.acted = vec![Acted::No; m.fighters.len()];
    x.tasks.clear();
    ev.push(Event::ExplorationTurn { turn: x.turn, minute: x.minute });
    drop_unable(m, ev);
    reveal_all(m, ev);
    let hp: BTreeMap<usize, i32> = m.fighters.iter().enumerate().map(|(i, f)| (i, f.hp)).collect();
    m.explore.as_deref_mut().expect("crawl").hp_at_crisis = hp;
    check_triggers(m, dice, None, ev)
}

/// R-EXP-18 (step 6 of R-EXP-20): burning lights lose `minutes`; a spent one goes out.
fn burn_lights(m: &mut Match, minutes: u32, ev: &mut Vec<Event>) {
    let Some(x) = m.explore.as_deref_mut() else { return };
    let mut out = Vec::new();
    for (&h, (item, left)) in x.burning.iter_mut() {
        *left = left.saturating_sub(minutes);
        if *left == 0 {
            out.push((h, item.clone()));
        }
    }
    for (h, item) in out {
        x.burning.remove(&h);
        ev.push(Event::Note { text: format!("{}'s {} burns out (R-EXP-18).", m.fighters[h].name, item.replace('_', " ")) });
    }
}

/// R-HEAL-5: the HP binding restores: bruised 1, wounded or incapacitated 2.
fn bind_gain(m: &Match, p: usize) -> i32 {
    let b = &m.explore.as_deref().expect("crawl").book.binding;
    match super::attack::injury(&m.fighters[p]) {
        super::attack::Injury::Healthy | super::attack::Injury::Bruised => b.hp.0,
        _ => b.hp.1,
    }
}

/// R-EXP-9, R-EXP-21: a turn of the multi-turn tasks passes (end of turn, step 1); a binding
/// whose last turn this was is resolved: the healer's Healing check (Savvy) against R-HEAL-5's
/// CR (one's own wounds harder); success restores its HP. Once per patient per crisis.
fn advance_busy(m: &mut Match, dice: &mut Dice, ev: &mut Vec<Event>) {
    let Some(x) = m.explore.as_deref_mut() else { return };
    let mut done = Vec::new();
    for (&i, (h, p, left)) in x.busy.iter_mut() {
        if i == *h {
            *left = left.saturating_sub(1);
            if *left == 0 {
                done.push((*h, *p));
            }
        } else {
            *left = left.saturating_sub(1);
        }
    }
    for (h, p) in done {
        let x = m.explore.as_deref_mut().expect("crawl");
        x.busy.remove(&h);
        x.busy.remove(&p);
        if m.is_dead(p) || m.is_dead(h) {
            continue;
        }
        let b = m.explore.as_deref().expect("crawl").book.binding.clone();
        let wounded = !matches!(super::attack::injury(&m.fighters[p]), super::attack::Injury::Healthy | super::attack::Injury::Bruised);
        let cr = match (h == p, wounded) {
            (false, false) => b.cr.0,
            (false, true) => b.cr.1,
            (true, false) => b.own_cr.0,
            (true, true) => b.own_cr.1,
        };
        let gain = bind_gain(m, p);
        let f = &m.fighters[h];
        let roll = stat_check(m, dice, f.stats.savvy, f.skill("healing").adjustment());
        let total = log_roll(ev, dice, &f.id.clone(), "binding", roll);
        task_check(ev, &m.fighters[h].id.clone(), "binding", format!("patient:{}", m.fighters[p].id), total - cr);
        m.explore.as_deref_mut().expect("crawl").bound.insert(p);
        let (ok, text) = if total >= cr {
            super::attack::change_hp(m, p, gain, "binding wounds", ev);
            (true, format!("{} binds {}'s wounds: +{gain} HP.", m.fighters[h].name, m.fighters[p].name))
        } else {
            (false, format!("{}'s binding of {}'s wounds does no good (R-HEAL-5: one check only).", m.fighters[h].name, m.fighters[p].name))
        };
        let at = m.fighters[p].pos;
        ev.push(Event::TaskDone { actor: m.fighters[h].id.clone(), task: Task::Bind, at, success: ok, text });
    }
}

/// Heroes busy with a task of several turns spend the new turn's action on it (R-EXP-3, R-EXP-9).
fn mark_busy(m: &mut Match) {
    if let Some(x) = m.explore.as_deref_mut() {
        for &i in x.busy.keys() {
            x.acted[i] = Acted::Done;
        }
    }
}

/// R-EXP-6: a hero unable to act leaves his group (a group of his own); the next member
/// leads. Returns whether the groups changed.
fn drop_unable(m: &mut Match, ev: &mut Vec<Event>) {
    let Some(x) = m.explore.as_deref() else { return };
    let unable: Vec<usize> =
        x.groups.iter().filter(|g| g.len() > 1).flatten().copied().filter(|&i| m.is_dead(i) || !m.standing(i) || m.fighters[i].hp <= 0).collect();
    if unable.is_empty() {
        return;
    }
    let x = m.explore.as_deref_mut().expect("crawl");
    for g in x.groups.iter_mut() {
        g.retain(|i| !unable.contains(i));
    }
    x.groups.retain(|g| !g.is_empty());
    for &i in &unable {
        x.groups.push(vec![i]);
    }
    let groups = x.groups.iter().map(|g| g.iter().map(|&i| m.fighters[i].id.clone()).collect()).collect();
    ev.push(Event::Groups { groups });
}

/// R-EXP-20: the end of an exploration turn: tasks take effect in order (1), then the minute's
/// upkeep (2–5, as reset steps 1–4), the clock advances (6); sight is tested after (G-71).
pub fn end_turn(m: &mut Match, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    let tasks = std::mem::take(&mut m.explore.as_deref_mut().expect("crawl").tasks);
    for (a, task, at, item) in tasks {
        let forced =
            if task == Task::UseItem { use_item(m, a, at, item.as_deref().unwrap_or_default(), dice, ev) } else { resolve_task(m, a, task, at, dice, ev) };
        reveal_all(m, ev);
        let flow = check_triggers(m, dice, forced.as_deref(), ev);
        if flow == Flow::CrisisStarts {
            return flow; // the rest of the minute is dropped (G-71)
        }
    }
    advance_busy(m, dice, ev);
    super::turn::upkeep(m, dice, false, ev);
    drop_unable(m, ev);
    burn_lights(m, 1, ev);
    let x = m.explore.as_deref_mut().expect("crawl");
    x.minute += 1;
    x.turn += 1;
    x.acted = vec![Acted::No; m.fighters.len()];
    mark_busy(m);
    let x = m.explore.as_deref_mut().expect("crawl");
    ev.push(Event::ExplorationTurn { turn: x.turn, minute: x.minute });
    reveal_all(m, ev);
    check_triggers(m, dice, None, ev)
}

/// One task at the end of the turn. Returns a crisis reason when a trap sprang.
fn resolve_task(m: &mut Match, a: usize, task: Task, at: Pos, dice: &mut Dice, ev: &mut Vec<Event>) -> Option<String> {
    use super::equipment::Stat;
    if m.is_dead(a) || !m.standing(a) || m.fighters[a].hp <= 0 {
        return None;
    }
    let book = m.explore.as_deref().expect("crawl").book.clone();
    let id = m.fighters[a].id.clone();
    let result = |ev: &mut Vec<Event>, success: bool, text: String| ev.push(Event::TaskDone { actor: id.clone(), task, at, success, text });
    match task {
        Task::Search => {
            let spaces = search_spaces(m, a, book.search_spaces);
            let x = m.explore.as_deref_mut().expect("crawl");
            for p in &spaces {
                if let Some(k) = m.board.index(*p) {
                    x.searched[k] = true;
                }
            }
            let mut found = Vec::new();
            let hidden_doors: Vec<Pos> = x.doors.iter().filter(|d| d.hidden && spaces.contains(&d.pos)).map(|d| d.pos).collect();
            let hidden_traps: Vec<usize> = (0..x.traps.len()).filter(|&t| x.traps[t].hidden && !x.traps[t].spent && spaces.contains(&x.traps[t].pos)).collect();
            for p in hidden_doors {
                let total = best_search(m, dice, a, &book, ev);
                task_check(ev, &m.fighters[a].id.clone(), "search", format!("door@{p}"), total - book.find_cr);
                if total >= book.find_cr {
                    m.explore.as_deref_mut().expect("crawl").doors.iter_mut().filter(|d| d.pos == p).for_each(|d| d.hidden = false);
                    found.push(format!("a secret door at {p}"));
                    ev.push(Event::FeatureFound { actor: m.fighters[a].id.clone(), what: "secret_door".into(), at: p });
                }
            }
            for t in hidden_traps {
                let (cr, p) = {
                    let tr = &m.explore.as_deref().expect("crawl").traps[t];
                    (tr.find_cr, tr.pos)
                };
                let total = best_search(m, dice, a, &book, ev);
                let trap_id = m.explore.as_deref().expect("crawl").traps[t].id.clone();
                task_check(ev, &m.fighters[a].id.clone(), "search", format!("trap:{trap_id}"), total - cr);
                if total >= cr {
                    m.explore.as_deref_mut().expect("crawl").traps[t].hidden = false;
                    found.push(format!("a trap at {p}"));
                    ev.push(Event::FeatureFound { actor: m.fighters[a].id.clone(), what: "trap".into(), at: p });
                }
            }
            let text = if found.is_empty() {
                format!("{} searched {} spaces and found nothing.", m.fighters[a].name, spaces.len())
            } else {
                format!("{} found {}.", m.fighters[a].name, found.join(" and "))
            };
            result(ev, !found.is_empty(), text);
            None
        }
        Task::PickLock => {
            let Some((cr, jammed)) = lock_at(m, m.explore.as_deref().expect("crawl"), at).map(|l| (l.cr, l.jammed)) else { return None };
            if jammed {
                result(ev, false, format!("The lock at {at} is jammed: {} cannot pick it (R-EXP-12).", m.fighters[a].name));
                return None;
            }
            let total = skill_check(m, dice, a, &book.skills.disable, Stat::Savvy, ev, "pick_lock");
            let margin = total - cr;
            task_check(ev, &id, "pick_lock", format!("lock@{at}"), margin);
            if margin >= 0 {
                unlock(m, at, ev, &id);
                result(ev, true, format!("{} picks the lock at {at}.", m.fighters[a].name));
            } else if -margin >= book.jam_margin {
                if let Some(l) = lock_mut(m, at) {
                    l.jammed = true;
                }
                result(ev, false, format!("{} jams the lock at {at}: no more picking (R-EXP-12).", m.fighters[a].name));
            } else {
                result(ev, false, format!("{} fails to pick the lock at {at}; he may try again.", m.fighters[a].name));
            }
            None
        }
        Task::Force => {
            let Some(cr) = lock_at(m, m.explore.as_deref().expect("crawl"), at).map(|l| l.force_cr) else { return None };
            let total = skill_check(m, dice, a, &book.skills.force, Stat::Brawn, ev, "force");
            task_check(ev, &id, "force", format!("lock@{at}"), total - cr);
            if total >= cr {
                unlock(m, at, ev, &id);
                if m.board.tile(at) == Some(Tile::DoorClosed) {
                    m.board.set_tile(at, Tile::DoorOpen);
                    ev.push(Event::DoorChanged { actor: id.clone(), at, state: "open".into() });
                } else if let Some(c) = m.explore.as_deref().and_then(|x| x.chest_at(at)) {
                    open_chest(m, a, c, ev);
                }
                result(ev, true, format!("{} forces it open; the lock is broken.", m.fighters[a].name));
                if let Some(t) = m.explore.as_deref().and_then(|x| x.trap_at(at, TrapOn::Door).or(x.trap_at(at, TrapOn::Chest))) {
                    spring(m, t, a, dice, ev);
                    return Some(format!("a trap sprang on {}", m.fighters[a].name));
                }
            } else {
                result(ev, false, format!("{} fails to force it; he may try again.", m.fighters[a].name));
            }
            None
        }
        Task::Disarm => {
            let Some(t) = m.explore.as_deref().and_then(|x| x.traps.iter().position(|t| t.pos == at && !t.spent && !t.hidden)) else { return None };
            let cr = m.explore.as_deref().expect("crawl").traps[t].disarm_cr;
            let total = skill_check(m, dice, a, &book.skills.disable, Stat::Savvy, ev, "disarm");
            let margin = total - cr;
            let trap_id = m.explore.as_deref().expect("crawl").traps[t].id.clone();
            task_check(ev, &id, "disarm", format!("trap:{trap_id}"), margin);
            if margin >= 0 {
                m.explore.as_deref_mut().expect("crawl").traps[t].spent = true;
                result(ev, true, format!("{} disarms the trap at {at}.", m.fighters[a].name));
            } else if -margin >= book.spring_margin {
                result(ev, false, format!("{} sets the trap off (R-EXP-17).", m.fighters[a].name));
                spring(m, t, a, dice, ev);
                return Some(format!("a trap sprang on {}", m.fighters[a].name));
            } else {
                result(ev, false, format!("{} fails to disarm the trap at {at}; he may try again.", m.fighters[a].name));
            }
            None
        }
        Task::UseItem | Task::Bind => None,
        Task::Light => {
            let x = m.explore.as_deref().expect("crawl");
            let Some(l) = x.book.lights.iter().find(|l| carried(m, a, &l.item)).cloned() else { return None };
            let k = m.fighters[a].loadout.items.iter().position(|i| *i == l.item).expect("carried");
            m.fighters[a].loadout.items.remove(k);
            m.explore.as_deref_mut().expect("crawl").burning.insert(a, (l.item.clone(), l.minutes));
            result(ev, true, format!("{} lights a {} ({} minutes).", m.fighters[a].name, l.item.replace('_', " "), l.minutes));
            None
        }
        Task::OpenChest => {
            let Some(c) = m.explore.as_deref().and_then(|x| x.chest_at(at)) else { return None };
            if let Some(l) = m.explore.as_deref().expect("crawl").chests[c].lock.clone() {
                if l.key.as_deref().is_some_and(|k| carried(m, a, k)) {
                    m.explore.as_deref_mut().expect("crawl").chests[c].lock = None;
                } else {
                    return None;
                }
            }
            open_chest(m, a, c, ev);
            let x = m.explore.as_deref().expect("crawl");
            let items: Vec<String> = x.chests[c].items.iter().map(|i| item_name(m, x, i)).collect();
            result(ev, true, format!("{} opens the chest: {}.", m.fighters[a].name, if items.is_empty() { "empty".to_string() } else { items.join(", ") }));
            if let Some(t) = m.explore.as_deref().and_then(|x| x.trap_at(at, TrapOn::Chest)) {
                spring(m, t, a, dice, ev);
                return Some(format!("a trap sprang on {}", m.fighters[a].name));
            }
            None
        }
    }
}

/// R-EXP-8, R-HEAL-6: a healing item takes effect at the end of the turn on whoever stands at
/// `at` (the user or a hero next to him): its dice in HP, and bleeding stops (R-INJ-7).
pub(crate) fn use_item(m: &mut Match, a: usize, at: Pos, item: &str, dice: &mut Dice, ev: &mut Vec<Event>) -> Option<String> {
    let Some(t) = m.occupant(at).filter(|&t| !m.is_dead(t)) else { return None };
    let Some(k) = m.fighters[a].loadout.items.iter().position(|i| i == item) else { return None };
    let Some(it) = m.equipment.item(item).cloned() else { return None };
    if it.consumable {
        m.fighters[a].loadout.items.remove(k);
    }
    ev.push(Event::ItemUsed { actor: m.fighters[a].id.clone(), item: item.to_string() });
    if let Some(h) = it.heals {
        // A4-G-31: under A4 dice never explode.
        let r = dice.roll(h.0, h.1, m.rules.options.damage_explodes && m.a4.is_none(), 0);
        let v = log_roll(ev, dice, &m.fighters[a].id.clone(), "healing", r);
        super::attack::change_hp(m, t, v, item, ev);
        super::healing::stop_bleeding(&mut m.fighters[t], "magical healing", ev);
    }
    None
}

fn best_search(m: &Match, dice: &mut Dice, a: usize, book: &ExploreBook, ev: &mut Vec<Event>) -> i32 {
    let best = book.skills.search.iter().max_by_key(|s| m.fighters[a].skill(s).adjustment()).cloned().unwrap_or_default();
    skill_check(m, dice, a, &best, super::equipment::Stat::Savvy, ev, "search")
}

fn open_chest(m: &mut Match, a: usize, c: usize, ev: &mut Vec<Event>) {
    let x = m.explore.as_deref_mut().expect("crawl");
    x.chests[c].open = true;
    x.chests[c].lock = None;
    ev.push(Event::ChestOpened { actor: m.fighters[a].id.clone(), at: x.chests[c].pos, items: x.chests[c].items.clone() });
}

fn lock_mut(m: &mut Match, at: Pos) -> Option<&mut Lock> {
    let door = m.board.tile(at) == Some(Tile::DoorLocked);
    let x = m.explore.as_deref_mut()?;
    if door {
        return x.doors.iter_mut().find(|d| d.pos == at).and_then(|d| d.lock.as_mut());
    }
    let c = x.chest_at(at)?;
    x.chests[c].lock.as_mut()
}

fn unlock(m: &mut Match, at: Pos, ev: &mut Vec<Event>, actor: &str) {
    if m.board.tile(at) == Some(Tile::DoorLocked) {
        m.board.set_tile(at, Tile::DoorClosed);
        if let Some(d) = m.explore.as_deref_mut().and_then(|x| x.doors.iter_mut().find(|d| d.pos == at)) {
            d.lock = None;
        }
        ev.push(Event::DoorChanged { actor: actor.to_string(), at, state: "unlocked".into() });
    } else if let Some(x) = m.explore.as_deref_mut() {
        if let Some(c) = x.chest_at(at) {
            x.chests[c].lock = None;
        }
    }
}

/// R-EXP-14 default choice: unsearched wall and door spaces first, then other unsearched
/// spaces (his own included), then searched ones; each lowest row, then column.
pub fn search_spaces(m: &Match, a: usize, n: usize) -> Vec<Pos> {
    let x = m.explore.as_deref().expect("crawl");
    let at = m.fighters[a].pos;
    let mut cands: Vec<(u8, i32, i32, Pos)> = Vec::new();
    for dy in -1..=1 {
        for dx in -1..=1 {
            let p = Pos::on(at.x + dx, at.y + dy, at.floor);
            let Some(t) = m.board.tile(p) else { continue };
            let searched = m.board.index(p).is_some_and(|k| x.searched[k]);
            let wallish = matches!(t, Tile::Wall | Tile::DoorClosed | Tile::DoorLocked | Tile::DoorOpen);
            let class = match (searched, wallish) {
                (false, true) => 0,
                (false, false) => 1,
                (true, _) => 2,
            };
            cands.push((class, p.y, p.x, p));
        }
    }
    cands.sort();
    cands.into_iter().take(n).map(|c| c.3).collect()
}

/// Spaces hero `a` can walk to with his move left (R-EXP-5), through spaces his side has
/// revealed, around the figures and chests it can see, with the path; every entry validated.
pub fn destinations(m: &Match, a: usize) -> BTreeMap<Pos, super::preview::Destination> {
    let mut out = BTreeMap::new();
    let Some(x) = m.explore.as_deref() else { return out };
    if !exploring(m) {
        return out;
    }
    let left = match x.acted.get(a).copied().unwrap_or_default() {
        Acted::No => x.book.move_spaces,
        Acted::Moving(u) => x.book.move_spaces.saturating_sub(u),
        Acted::Done => 0,
    };
    if left == 0 {
        return out;
    }
    let f = &m.fighters[a];
    let view = side_view(m, &f.side);
    let known = |p: Pos| m.board.index(p).is_some_and(|k| view.revealed[k]) && !view.hidden_doors.contains(&p);
    let blocked = |p: Pos| x.chest_at(p).is_some() || m.occupant(p).is_some_and(|o| o != a && view.figures.contains(&o) && !x.is_explorer(m, o));
    let group = x.groups.iter().any(|g| g.first() == Some(&a) && g.len() > 1);
    // Dijkstra by movement cost over known spaces.
    let mut best: BTreeMap<Pos, (u32, Vec<Pos>)> = BTreeMap::new();
    let mut frontier = std::collections::BinaryHeap::new();
    frontier.push(std::cmp::Reverse((0u32, f.pos, Vec::<Pos>::new())));
    while let Some(std::cmp::Reverse((cost, p, path))) = frontier.pop() {
        if best.get(&p).is_some_and(|b| b.0 <= cost) && p != f.pos {
            continue;
        }
        if p != f.pos {
            best.insert(p, (cost, path.clone()));
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = Pos::on(p.x + dx, p.y + dy, p.floor);
                if (dx, dy) == (0, 0) || !known(q) || blocked(q) || m.board.step_geometry(p, q).is_err() {
                    continue;
                }
                let c = cost + m.board.path_cost(&[q]);
                if c <= left && best.get(&q).is_none_or(|b| b.0 > c) && q != f.pos {
                    let mut np = path.clone();
                    np.push(q);
                    frontier.push(std::cmp::Reverse((c, q, np)));
                }
            }
        }
    }
    for (p, (cost, path)) in best {
        if m.occupant(p).is_some_and(|o| o != a && view.figures.contains(&o)) {
            continue; // allies may be passed, not stood on
        }
        let command = Command::Walk { actor: f.id.clone(), path: path.clone(), group };
        if validate(m, a, &command).is_err() {
            continue;
        }
        out.insert(
            p,
            super::preview::Destination {
                pos: p,
                kind: super::preview::MoveKind::Walk,
                path,
                ap: 0,
                defense: 0,
                label: format!("{} ({cost} of {} spaces)", if group { "Lead the group" } else { "Walk" }, x.book.move_spaces),
                command,
                provokes: Vec::new(),
                threatened: Vec::new(),
                note: None,
            },
        );
    }
    out
}

/// The exploration action bar of hero `a`: doors, locks, chests, items and traps within reach,
/// search, wait, the group, end of turn; each validated (the refusal shown when not open).
pub fn choices(m: &Match, a: usize) -> Vec<super::preview::Choice> {
    use super::preview::{Aim, Choice};
    let mut out = Vec::new();
    let Some(x) = m.explore.as_deref() else { return out };
    if !exploring(m) {
        return out;
    }
    let f = &m.fighters[a];
    let id = f.id.clone();
    let mut push = |label: String, row: &str, cost: &str, cmd: Command, description: String| {
        let refusal = validate(m, a, &cmd).err();
        out.push(Choice {
            label,
            row: row.into(),
            cost: cost.into(),
            only: false,
            defense: 0,
            template: cmd,
            aim: Aim::None,
            refusal,
            description,
            group: super::preview::Group::Other,
            applies: true,
        });
    };
    let around: Vec<Pos> = (-1..=1)
        .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
        .filter(|&d| d != (0, 0))
        .map(|(dx, dy)| Pos::on(f.pos.x + dx, f.pos.y + dy, f.pos.floor))
        .collect();
    for &p in &around {
        let hidden = x.door(p).is_some_and(|d| d.hidden);
        match m.board.tile(p) {
            Some(Tile::DoorClosed) if !hidden => push(
                format!("Open door {p}"),
                "open_door",
                "1 space",
                Command::Door { actor: id.clone(), at: p, open: true },
                "R-EXP-11: opening uses 1 of the move's 6 spaces.".into(),
            ),
            Some(Tile::DoorOpen) => push(
                format!("Close door {p}"),
                "close_door",
                "1 space",
                Command::Door { actor: id.clone(), at: p, open: false },
                "R-EXP-11: the doorway must be empty.".into(),
            ),
            Some(Tile::DoorLocked) if !hidden => {
                let key = x.door(p).and_then(|d| d.lock.as_ref()).and_then(|l| l.key.clone()).filter(|k| carried(m, a, k));
                if key.is_some() {
                    push(
                        format!("Unlock and open door {p}"),
                        "open_door",
                        "1 space",
                        Command::Door { actor: id.clone(), at: p, open: true },
                        "R-EXP-12: the key opens it for good.".into(),
                    );
                }
                push(
                    format!("Pick the lock {p}"),
                    "pick_lock",
                    "1 turn",
                    Command::Task { actor: id.clone(), task: Task::PickLock, at: p },
                    "R-EXP-12: a Disable check (Savvy) at the end of the turn.".into(),
                );
                push(
                    format!("Force door {p}"),
                    "force",
                    "1 turn",
                    Command::Task { actor: id.clone(), task: Task::Force, at: p },
                    "R-EXP-13: a Lift/Shift check (Brawn) at the end of the turn.".into(),
                );
            }
            _ => {}
        }
        if let Some(c) = x.chest_at(p) {
            let ch = &x.chests[c];
            if !ch.open {
                push(
                    format!("Open chest {p}"),
                    "open_chest",
                    "1 turn",
                    Command::Task { actor: id.clone(), task: Task::OpenChest, at: p },
                    "R-EXP-15: opened and surveyed at the end of the turn.".into(),
                );
                if ch.lock.is_some() {
                    push(
                        format!("Pick the chest's lock {p}"),
                        "pick_lock",
                        "1 turn",
                        Command::Task { actor: id.clone(), task: Task::PickLock, at: p },
                        "R-EXP-12".into(),
                    );
                    push(format!("Force chest {p}"), "force", "1 turn", Command::Task { actor: id.clone(), task: Task::Force, at: p }, "R-EXP-13".into());
                }
            }
        }
    }
    for p in around.iter().copied().chain([f.pos]) {
        if let Some(c) = x.chest_at(p).filter(|&c| x.chests[c].open) {
            for item in &x.chests[c].items {
                push(
                    format!("Take {}", item_name(m, x, item)),
                    "take",
                    "free",
                    Command::Take { actor: id.clone(), at: p, item: item.clone() },
                    "R-EXP-15: taking is free during any order.".into(),
                );
            }
        }
        for (q, item) in x.items.iter().filter(|(q, _)| *q == p) {
            push(
                format!("Pick up {}", item_name(m, x, item)),
                "take",
                "free",
                Command::Take { actor: id.clone(), at: *q, item: item.clone() },
                "R-EXP-15".into(),
            );
        }
        for t in x.traps.iter().filter(|t| t.pos == p && !t.hidden && !t.spent) {
            push(
                format!("Disarm trap {}", t.pos),
                "disarm",
                "1 turn",
                Command::Task { actor: id.clone(), task: Task::Disarm, at: t.pos },
                "R-EXP-17: a Disable check; failing by 3 or more springs it.".into(),
            );
        }
    }
    let potions: Vec<String> = f.loadout.items.iter().filter(|i| m.equipment.item(i).is_some_and(|it| it.heals.is_some())).cloned().collect();
    if let Some(p) = potions.first() {
        let hurt: Vec<usize> = (0..m.fighters.len())
            .filter(|&t| x.is_explorer(m, t) && !m.is_dead(t) && m.fighters[t].pos.distance(f.pos) <= 1 && m.fighters[t].hp < m.fighters[t].max_hp)
            .collect();
        for t in hurt {
            let target = (t != a).then(|| m.fighters[t].id.clone());
            let label = if t == a { format!("Drink {}", item_name(m, x, p)) } else { format!("Give {} to {}", item_name(m, x, p), m.fighters[t].name) };
            push(
                label,
                "use_item",
                "1 turn",
                Command::Use { actor: id.clone(), item: p.clone(), target },
                "R-HEAL-6: heals at the end of the turn and stops bleeding.".into(),
            );
        }
    }
    push(
        "Search".into(),
        "search",
        "1 turn",
        Command::Task { actor: id.clone(), task: Task::Search, at: f.pos },
        "R-EXP-14: 4 spaces next to him, for secret doors and traps.".into(),
    );
    push("Wait".into(), "wait", "1 turn", Command::Wait { actor: id.clone() }, "R-EXP-3: his action this turn.".into());
    if x.groups.iter().any(|g| g.len() > 1 && g.contains(&a)) {
        push(
            "Leave the group".into(),
            "follow",
            "free",
            Command::Follow { actor: id.clone(), leader: None },
            "R-EXP-4: he moves alone until he follows someone again.".into(),
        );
    } else if let Some(l) = x.groups.iter().filter(|g| !g.contains(&a)).filter_map(|g| g.first()).find(|&&l| x.is_explorer(m, l) && !m.is_dead(l)) {
        push(
            format!("Follow {}", m.fighters[*l].name),
            "follow",
            "free",
            Command::Follow { actor: id.clone(), leader: Some(m.fighters[*l].id.clone()) },
            "R-EXP-4: joins the end of that group's marching order.".into(),
        );
    }
    push(
        "End the turn".into(),
        "end_turn",
        "1 minute",
        Command::EndTurn { actor: id },
        "R-EXP-20: tasks take effect, a minute passes; heroes who did nothing wait.".into(),
    );
    out
}

/// A crawl's crisis: the doors next to `a` as 1-AP actions (R-EXP-8, R-EXP-11) for the action
/// bar, each validated.
pub fn crisis_choices(m: &Match, a: usize) -> Vec<super::preview::Choice> {
    use super::preview::{Aim, Choice};
    let Some(x) = m.explore.as_deref() else { return Vec::new() };
    if exploring(m) || m.a4.is_some() {
        // Under A4 the doors and items are in the A4 bar (a4::preview::choices).
        return Vec::new();
    }
    let f = &m.fighters[a];
    let mut out = Vec::new();
    for (p, open) in doors_next_to(m, x, a) {
        let cmd = Command::Door { actor: f.id.clone(), at: p, open };
        let refusal = validate(m, a, &cmd).err();
        out.push(Choice {
            label: format!("{} door {p}", if open { "Open" } else { "Close" }),
            row: "door".into(),
            cost: "1 AP".into(),
            only: false,
            defense: 0,
            template: cmd,
            aim: Aim::None,
            refusal,
            description: "R-EXP-11: a 1-AP action; going through needs a later opportunity (R-AP-2).".into(),
            group: super::preview::Group::Other,
            applies: true,
        });
    }
    // R-EXP-10: lengthy tasks, 3/Only in three consecutive turns.
    let mut tasks = vec![(Task::Search, f.pos)];
    for dy in -1..=1 {
        for dx in -1..=1 {
            let p = Pos::on(f.pos.x + dx, f.pos.y + dy, f.pos.floor);
            if lock_at(m, x, p).is_some() {
                tasks.push((Task::PickLock, p));
                tasks.push((Task::Force, p));
            }
            if x.traps.iter().any(|t| t.pos == p && !t.hidden && !t.spent) {
                tasks.push((Task::Disarm, p));
            }
        }
    }
    for (task, at) in tasks {
        let cmd = Command::Task { actor: f.id.clone(), task, at };
        let refusal = validate(m, a, &cmd).err();
        let done = x.crisis_tasks.get(&a).filter(|t| t.0 == task && t.1 == at && t.3 + 1 == m.clock.turn).map_or(0, |t| t.2);
        out.push(Choice {
            label: format!("{} {at} ({} of 3)", task.label(), done + 1),
            row: "lengthy_task".into(),
            cost: "3 AP (X/Only), 3 turns".into(),
            only: f.ap.start < 3,
            defense: 0,
            template: cmd,
            aim: Aim::None,
            refusal,
            description: "R-EXP-10: a 3/Only action in three consecutive turns; the check is rolled at the third.".into(),
            group: super::preview::Group::Other,
            applies: true,
        });
    }
    out
}

/// An item's name: a key's from the level, equipment's from the book.
/// The known doors next to `a`: `(space, open it?)` (closed or locked: open; open: close).
fn doors_next_to(m: &Match, x: &Explore, a: usize) -> Vec<(Pos, bool)> {
    let f = &m.fighters[a];
    let mut doors = Vec::new();
    for dy in -1..=1 {
        for dx in -1..=1 {
            let p = Pos::on(f.pos.x + dx, f.pos.y + dy, f.pos.floor);
            if (dx, dy) == (0, 0) || x.door(p).is_some_and(|d| d.hidden) {
                continue;
            }
            match m.board.tile(p) {
                Some(Tile::DoorClosed | Tile::DoorLocked) => doors.push((p, true)),
                Some(Tile::DoorOpen) => doors.push((p, false)),
                _ => {}
            }
        }
    }
    doors
}

/// The doors next to `a` (`(space, open it?)`), the loose items it could pick up and the closed
/// chests next to it, for the A4 bar (A4-3.9, A4-3.10).
pub fn reachable_doors_and_items(m: &Match, a: usize) -> (Vec<(Pos, bool)>, Vec<(Pos, String)>, Vec<Pos>) {
    let Some(x) = m.explore.as_deref() else { return (Vec::new(), Vec::new(), Vec::new()) };
    let f = &m.fighters[a];
    let doors = doors_next_to(m, x, a);
    let mut items: Vec<(Pos, String)> = x.items.iter().filter(|(p, _)| p.floor == f.pos.floor && p.distance(f.pos) <= 1).cloned().collect();
    for c in x.chests.iter().filter(|c| c.open && c.pos.floor == f.pos.floor && c.pos.distance(f.pos) <= 1) {
        items.extend(c.items.iter().map(|i| (c.pos, i.clone())));
    }
    items.sort();
    items.dedup();
    let chests = x.chests.iter().filter(|c| !c.open && c.pos.floor == f.pos.floor && c.pos.distance(f.pos) <= 1).map(|c| c.pos).collect();
    (doors, items, chests)
}

pub fn item_name(m: &Match, x: &Explore, id: &str) -> String {
    x.keys.get(id).cloned().or_else(|| m.equipment.item(id).map(|i| i.name.clone())).unwrap_or_else(|| id.to_string())
}

/// The hero of `sides` who gives the next order: `pick` if he still can, else the first who
/// has not used his action, else the first able to act.
pub fn next_hero(m: &Match, pick: Option<usize>, human: impl Fn(usize) -> bool) -> Option<usize> {
    let x = m.explore.as_deref()?;
    let able = |i: usize| x.is_explorer(m, i) && !m.is_dead(i) && m.standing(i) && m.fighters[i].hp > 0 && human(i);
    if let Some(p) = pick.filter(|&p| able(p)) {
        return Some(p);
    }
    let leaders: Vec<usize> = x.groups.iter().filter_map(|g| g.first().copied()).collect();
    leaders.iter().copied().chain(0..m.fighters.len()).find(|&i| able(i) && x.acted[i] != Acted::Done).or_else(|| (0..m.fighters.len()).find(|&i| able(i)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test] // R-EXP-14: the default search order: unsearched walls and doors first, lowest row then column
    fn search_order() {
        let mut m = crate::testkit::crawl(&["#####", "#...#", "#...#", "#####"], &[("h", "heroes", (2, 1)), ("o", "monsters", (3, 2))]);
        let got = search_spaces(&m, 0, 4);
        assert_eq!(got, vec![Pos::new(1, 0), Pos::new(2, 0), Pos::new(3, 0), Pos::new(1, 1)]);
        for p in [Pos::new(1, 0), Pos::new(2, 0), Pos::new(3, 0)] {
            let k = m.board.index(p).unwrap();
            m.explore.as_deref_mut().unwrap().searched[k] = true;
        }
        let got = search_spaces(&m, 0, 4);
        assert_eq!(got, vec![Pos::new(1, 1), Pos::new(2, 1), Pos::new(3, 1), Pos::new(1, 2)], "then unsearched floor, his own space included");
    }

    fn vis(m: &Match, side: &str, p: Pos) -> (bool, bool) {
        let v = side_view(m, side);
        let k = m.board.index(p).unwrap();
        (v.revealed[k], v.visible[k])
    }

    const ROOMS: [&str; 5] = ["#########", "#...#...#", "#...+...#", "#...#...#", "#########"];

    #[test] // R-EXP-19: what a side sees after a move; seen spaces stay revealed; a closed door hides the room behind it
    fn fog_after_a_move_and_behind_a_closed_door() {
        let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (1, 2)), ("o", "monsters", (6, 2))]);
        let mut dice = Dice::seeded(1);
        let mut ev = Vec::new();
        assert_eq!(begin(&mut m, &mut dice, &mut ev), Flow::Exploring, "the orc is behind a closed door");
        assert_eq!(vis(&m, "heroes", Pos::new(3, 1)), (true, true), "own room seen");
        assert_eq!(vis(&m, "heroes", Pos::new(4, 2)), (true, true), "the door's face is seen");
        assert_eq!(vis(&m, "heroes", Pos::new(6, 2)), (false, false), "the room behind the closed door is not");
        assert!(!side_view(&m, "heroes").figures.contains(&1), "the orc behind the door is not in the heroes' view");
        // a move within the room keeps everything revealed
        let walk = Command::Walk { actor: "h".into(), path: vec![Pos::new(2, 2), Pos::new(3, 2)], group: false };
        validate(&m, 0, &walk).unwrap();
        assert_eq!(apply(&mut m, 0, &walk, &mut dice, &mut ev), Flow::Exploring);
        assert_eq!(vis(&m, "heroes", Pos::new(1, 1)), (true, true));
        // opening the door: the room and the orc are seen, and the crisis starts (R-EXP-24)
        let door = Command::Door { actor: "h".into(), at: Pos::new(4, 2), open: true };
        validate(&m, 0, &door).unwrap();
        assert_eq!(apply(&mut m, 0, &door, &mut dice, &mut ev), Flow::CrisisStarts);
        assert_eq!(vis(&m, "heroes", Pos::new(6, 2)), (true, true));
        assert!(side_view(&m, "heroes").figures.contains(&1));
        assert!(ev.iter().any(|e| matches!(e, Event::CrisisBegins { participants, .. } if participants == &["h".to_string(), "o".to_string()])), "{ev:?}");
    }

    #[test] // R-EXP-19: a space seen before stays revealed but is no longer in sight once the door closes
    fn revealed_stays_when_out_of_sight() {
        let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (3, 2)), ("o", "monsters", (6, 2))]);
        m.explore.as_deref_mut().unwrap().calm[1] = true; // an inactive orc (R-EXP-27): no crisis
        let mut dice = Dice::seeded(1);
        let mut ev = Vec::new();
        begin(&mut m, &mut dice, &mut ev);
        let door = |open| Command::Door { actor: "h".into(), at: Pos::new(4, 2), open };
        assert_eq!(apply(&mut m, 0, &door(true), &mut dice, &mut ev), Flow::Exploring);
        assert_eq!(vis(&m, "heroes", Pos::new(7, 3)), (true, true));
        let x = m.explore.as_deref_mut().unwrap();
        x.acted[0] = Acted::No;
        apply(&mut m, 0, &door(false), &mut dice, &mut ev);
        assert_eq!(vis(&m, "heroes", Pos::new(7, 3)), (true, false), "revealed, not in sight");
        assert!(!side_view(&m, "heroes").figures.contains(&1), "figures only while in sight");
    }

    #[test] // R-EXP-27, R-EXP-2: the encounter's end: closing reset, exploration resumes a minute on per 3 crisis turns; the encounter is alert
    fn the_crisis_ends_and_exploration_resumes() {
        let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (3, 2)), ("o", "monsters", (6, 2))]);
        let mut dice = Dice::seeded(3);
        let mut ev = Vec::new();
        begin(&mut m, &mut dice, &mut ev);
        let door = Command::Door { actor: "h".into(), at: Pos::new(4, 2), open: true };
        let flow = apply(&mut m, 0, &door, &mut dice, &mut ev);
        assert!(super::super::driver::follow(&mut m, &mut dice, flow, &mut ev), "the crisis waits for a command");
        assert_eq!(m.clock.phase, Phase::Action);
        m.clock.turn = 4; // four crisis turns: ceil(4 / 3) = 2 minutes
        m.fighters[1].hp = -m.fighters[1].max_hp; // the orc dies
        let minute = m.explore.as_deref().unwrap().minute;
        let settled = super::super::victory::settle(&m, Flow::PhaseEnded, &mut ev);
        assert_eq!(settled, Flow::EncounterEnded);
        assert!(matches!(ev.last(), Some(Event::EncounterOver { winner: Some(w), .. }) if w == "heroes"));
        assert!(super::super::driver::follow(&mut m, &mut dice, settled, &mut ev));
        assert_eq!(m.clock.phase, Phase::Exploration);
        assert_eq!(m.explore.as_deref().unwrap().minute, minute + 2);
        assert_eq!(m.explore.as_deref().unwrap().encounters[0].awareness, Awareness::Alert);
        assert!(m.fighters.iter().all(|f| !f.dormant));
    }

    #[test] // R-EXP-16, R-EXP-24 (b), R-EXP-25, G-15: a trap springs with no hostile about: the crisis says at once that it lasts one action phase; the spent trap stays marked
    fn a_trap_crisis_with_no_foe_says_it_lasts_one_phase() {
        let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (1, 2)), ("o", "monsters", (7, 2))]);
        let at = Pos::new(2, 2);
        m.explore.as_deref_mut().unwrap().traps.push(Trap {
            id: "pit".into(),
            pos: at,
            on: TrapOn::Space,
            hidden: true,
            find_cr: 9,
            disarm_cr: 9,
            effect_cr: 1,
            damage: (1, 6),
            condition: None,
            rearms: false,
            spent: false,
        });
        let mut dice = Dice::seeded(3);
        let mut ev = Vec::new();
        begin(&mut m, &mut dice, &mut ev);
        assert!(side_view(&m, "heroes").spent_traps.is_empty(), "hidden: nothing to mark");
        let walk = Command::Walk { actor: "h".into(), path: vec![at], group: false };
        let flow = apply(&mut m, 0, &walk, &mut dice, &mut ev);
        assert_eq!(flow, Flow::CrisisStarts);
        assert!(one_phase_crisis(&m), "the orc behind the closed door takes no part");
        let k = ev.iter().position(|e| matches!(e, Event::CrisisBegins { .. })).expect("a crisis");
        assert!(matches!(&ev[k + 1], Event::Note { text } if text.contains("R-EXP-25") && text.contains("one action phase")), "{:?}", &ev[k..]);
        assert_eq!(side_view(&m, "heroes").spent_traps, vec![at], "the sprung trap is marked");
        assert!(side_view(&m, "heroes").traps.is_empty());
        // a crisis with a foe in it says nothing of the kind
        let mut m2 = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (3, 2)), ("o", "monsters", (6, 2))]);
        let mut ev2 = Vec::new();
        begin(&mut m2, &mut dice, &mut ev2);
        let door = Command::Door { actor: "h".into(), at: Pos::new(4, 2), open: true };
        assert_eq!(apply(&mut m2, 0, &door, &mut dice, &mut ev2), Flow::CrisisStarts);
        assert!(!one_phase_crisis(&m2));
        assert!(!ev2.iter().any(|e| matches!(e, Event::Note { text } if text.contains("one action phase"))));
    }

    #[test] // G-15, R-TURN-17, R-EXP-27: the last foe of a crawl's crisis falls mid-phase: the encounter ends at once
    fn the_last_foe_down_ends_the_encounter_at_once() {
        let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (3, 2)), ("o", "monsters", (6, 2))]);
        let mut dice = Dice::seeded(3);
        let mut ev = Vec::new();
        begin(&mut m, &mut dice, &mut ev);
        let door = Command::Door { actor: "h".into(), at: Pos::new(4, 2), open: true };
        let flow = apply(&mut m, 0, &door, &mut dice, &mut ev);
        assert!(super::super::driver::follow(&mut m, &mut dice, flow, &mut ev));
        assert_eq!(m.clock.phase, Phase::Action);
        m.fighters[1].hp = -m.fighters[1].max_hp; // the orc dies, the hero still has his AP
        assert_eq!(super::super::victory::settle(&m, Flow::AwaitCommand, &mut ev), Flow::EncounterEnded, "not at the phase's end: now");
    }

    #[test] // R-EXP-10: in a crisis a lock is picked by a 3/Only action in three consecutive turns, the check at the third; once per turn
    fn a_lengthy_task_takes_three_crisis_turns() {
        let rows = ["#########", "#...#...#", "#...+...#", "#...#...#", "##L######", "#.......#", "#########"];
        let mut m = crate::testkit::crawl(&rows, &[("h", "heroes", (2, 3)), ("o", "monsters", (6, 2))]);
        let x = m.explore.as_deref_mut().unwrap();
        x.doors.push(Door { pos: Pos::new(2, 4), lock: Some(Lock { cr: 2, force_cr: 12, key: None, jammed: false }), hidden: false });
        let mut dice = Dice::seeded(5);
        let mut ev = Vec::new();
        begin(&mut m, &mut dice, &mut ev);
        // the orc comes into sight: a crisis
        let door = Command::Door { actor: "h".into(), at: Pos::new(4, 2), open: true };
        let flow = apply(&mut m, 0, &Command::Walk { actor: "h".into(), path: vec![Pos::new(3, 2)], group: false }, &mut dice, &mut ev);
        assert_eq!(flow, Flow::Exploring);
        let flow = apply(&mut m, 0, &door, &mut dice, &mut ev);
        assert_eq!(flow, Flow::CrisisStarts);
        m.fighters[0].pos = Pos::new(2, 3); // back next to the lock
        assert!(super::super::driver::follow(&mut m, &mut dice, flow, &mut ev));
        let pick = crate::testkit::cmd(r#"task(actor: "h", task: pick_lock, at: (2, 4))"#);
        for turn in 1..=3 {
            // pass whoever else is up until the hero's opportunity
            for _ in 0..20 {
                match m.clock.current {
                    Some(0) => break,
                    Some(c) => {
                        let id = m.fighters[c].id.clone();
                        super::super::driver::submit(&mut m, &mut dice, &Command::Pass { actor: id }, &mut ev).unwrap();
                    }
                    None => break,
                }
            }
            assert_eq!(m.clock.turn, turn);
            assert_eq!(m.board.tile(Pos::new(2, 4)), Some(Tile::DoorLocked), "still locked before the third turn's action");
            super::super::driver::submit(&mut m, &mut dice, &pick, &mut ev).unwrap_or_else(|v| panic!("turn {turn}: {v:?}"));
            if turn < 3 {
                assert!(!ev.iter().any(|e| matches!(e, Event::Dice { purpose, .. } if purpose == "pick_lock")), "no check before the third turn");
                // the rest of the turn: everyone passes
                for _ in 0..20 {
                    if m.clock.turn != turn {
                        break;
                    }
                    let Some(c) = m.clock.current else { break };
                    let id = m.fighters[c].id.clone();
                    let again = super::super::driver::submit(&mut m, &mut dice, &pick.clone(), &mut ev);
                    if c == 0 {
                        assert!(again.is_err(), "once per turn (or nothing after an Only action)");
                    }
                    super::super::driver::submit(&mut m, &mut dice, &Command::Pass { actor: id }, &mut ev).ok();
                }
            }
        }
        assert!(ev.iter().any(|e| matches!(e, Event::Dice { purpose, .. } if purpose == "pick_lock")), "the check at the third turn");
        assert_ne!(m.board.tile(Pos::new(2, 4)), Some(Tile::DoorLocked), "CR 2: picked");
    }

    #[test] // R-EXP-24 (c), R-EXP-26 (4), R-EXP-27: an attack order on an inactive hostile starts the crisis; his unaware encounter is surprised
    fn an_attack_order_starts_a_crisis_with_the_target_surprised() {
        let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (1, 2)), ("o", "monsters", (3, 2))]);
        m.explore.as_deref_mut().unwrap().calm[1] = true; // left able to act by an earlier crisis: inactive
        let mut dice = Dice::seeded(2);
        let mut ev = Vec::new();
        assert_eq!(begin(&mut m, &mut dice, &mut ev), Flow::Exploring, "an inactive hostile in sight starts nothing");
        let attack = Command::action("h", "attack", Some("o"));
        validate(&m, 0, &attack).unwrap();
        assert_eq!(apply(&mut m, 0, &attack, &mut dice, &mut ev), Flow::CrisisStarts);
        assert!(
            ev.iter().any(|e| matches!(e, Event::CrisisBegins { surprised, reason, .. } if surprised == &["o".to_string()] && reason == "h attacks o")),
            "{ev:?}"
        );
        assert!(!m.explore.as_deref().unwrap().calm[1], "hostile again");
        // an attack order on a hero is refused
        let mut m2 = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (1, 2)), ("g", "heroes", (2, 2)), ("o", "monsters", (6, 2))]);
        begin(&mut m2, &mut dice, &mut ev);
        assert_eq!(validate(&m2, 0, &Command::action("h", "attack", Some("g"))).unwrap_err().rule, "R-EXP-24");
        assert_eq!(validate(&m2, 0, &Command::action("h", "attack", Some("o"))).unwrap_err().rule, "R-EXP-19", "behind a closed door: not seen");
    }

    #[test] // R-EXP-22: no camp while a hostile able to act sees a hero (inactive ones included) or a hero bleeds
    fn no_camp_in_sight_of_a_hostile_or_while_bleeding() {
        let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (1, 2)), ("o", "monsters", (3, 2))]);
        m.explore.as_deref_mut().unwrap().calm[1] = true;
        let mut dice = Dice::seeded(2);
        let mut ev = Vec::new();
        begin(&mut m, &mut dice, &mut ev);
        let camp = Command::Camp { actor: "h".into() };
        assert_eq!(validate(&m, 0, &camp).unwrap_err().rule, "R-EXP-22", "the inactive orc is in sight");
        m.fighters[1].hp = -m.fighters[1].max_hp; // dead
        assert_eq!(validate(&m, 0, &camp).err(), None);
        m.fighters[0].conditions.push(super::super::fighter::ConditionInstance {
            id: "bleeding".into(),
            duration: super::super::fighter::Duration::Persistent,
            removal_cr: None,
        });
        assert_eq!(validate(&m, 0, &camp).unwrap_err().rule, "R-EXP-22", "bleeding");
    }

    #[test] // R-EXP-18, R-EXP-19: in a dark area a hero sees only the spaces next to him until a torch burns; a light lit at the end of the turn shows the orc: a crisis
    fn a_torch_lights_the_dark() {
        let rows = ["##########", "#........#", "#........#", "##########"];
        let mut m = crate::testkit::crawl(&rows, &[("h", "heroes", (1, 1)), ("o", "monsters", (7, 2))]);
        m.explore.as_deref_mut().unwrap().dark = vec![(Pos::new(0, 0), Pos::new(9, 3))];
        m.fighters[0].loadout.items.push("torch".into());
        let mut dice = Dice::seeded(4);
        let mut ev = Vec::new();
        assert_eq!(begin(&mut m, &mut dice, &mut ev), Flow::Exploring, "the orc is in the dark");
        assert_eq!(vis(&m, "heroes", Pos::new(2, 2)), (true, true), "next to him");
        assert_eq!(vis(&m, "heroes", Pos::new(4, 1)), (false, false), "the dark");
        let light = Command::Task { actor: "h".into(), task: Task::Light, at: Pos::new(1, 1) };
        validate(&m, 0, &light).unwrap();
        // the only hero has acted: the turn ends, the torch burns, the orc 6 spaces off is seen
        assert_eq!(apply(&mut m, 0, &light, &mut dice, &mut ev), Flow::CrisisStarts);
        assert_eq!(vis(&m, "heroes", Pos::new(4, 1)), (true, true));
        assert_eq!(
            m.explore.as_deref().unwrap().burning.get(&0).map(|b| b.1),
            Some(120),
            "the crisis began at step 1: the rest of the minute, burning included, is dropped (G-71)"
        );
        assert!(!m.fighters[0].loadout.items.contains(&"torch".to_string()), "in his hand now");
    }

    #[test] // R-EXP-9, R-EXP-21, R-HEAL-5: binding a bruised hero's wounds keeps healer and patient busy 3 turns, then a Healing check: +1 HP; once per crisis; only within 30 minutes
    fn binding_wounds_takes_turns_and_heals_once() {
        let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (1, 2)), ("g", "heroes", (2, 2)), ("o", "monsters", (6, 2))]);
        let mut dice = Dice::seeded(9);
        let mut ev = Vec::new();
        begin(&mut m, &mut dice, &mut ev);
        m.fighters[1].hp = m.fighters[1].max_hp - 1; // bruised in the last crisis
        let x = m.explore.as_deref_mut().unwrap();
        x.hurt_in_crisis.insert(1);
        x.last_crisis_end = Some(x.minute);
        let bind = Command::Task { actor: "h".into(), task: Task::Bind, at: Pos::new(2, 2) };
        validate(&m, 0, &bind).unwrap();
        dice.force([6, 6]); // h's Healing 2d7!-2: 6, 6 = 10 ≥ 6
        // both busy: the turn ends by itself (every hero has acted)
        assert_eq!(apply(&mut m, 0, &bind, &mut dice, &mut ev), Flow::Exploring);
        assert_eq!(validate(&m, 1, &Command::Walk { actor: "g".into(), path: vec![Pos::new(3, 2)], group: false }).unwrap_err().rule, "R-EXP-9");
        let hp = m.fighters[1].hp;
        for _ in 0..2 {
            assert_eq!(m.fighters[1].hp, hp, "not before the last turn");
            apply(&mut m, 0, &Command::EndTurn { actor: "h".into() }, &mut dice, &mut ev);
        }
        assert_eq!(m.fighters[1].hp, hp + 1, "bruised: +1 HP");
        assert!(m.explore.as_deref().unwrap().busy.is_empty());
        assert_eq!(validate(&m, 0, &bind).unwrap_err().rule, "R-HEAL-5", "at full HP now, and once per crisis");
        // too late: more than 30 minutes after the crisis
        m.fighters[1].hp -= 1;
        m.explore.as_deref_mut().unwrap().bound.clear();
        m.explore.as_deref_mut().unwrap().minute += 31;
        assert_eq!(validate(&m, 0, &bind).unwrap_err().rule, "R-EXP-21");
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
        // R-EXP-19: whatever the heroes do, no figure the side cannot see now (and no hidden
        // secret door's true tile) reaches the side's view model.
        #[test]
        fn no_hidden_figure_reaches_the_view(steps in proptest::collection::vec((0usize..8, 0usize..3), 1..24), seed in 0u64..1000) {
            let rows = ["###########", "#....#....#", "#....+....#", "#..O.#....#", "##+######+#", "#.........#", "###########"];
            let mut m = crate::testkit::crawl(&rows, &[("a", "heroes", (1, 1)), ("b", "heroes", (2, 2)), ("o1", "monsters", (8, 2)), ("o2", "monsters", (8, 5))]);
            m.explore.as_deref_mut().unwrap().calm = vec![false, false, true, true]; // they never start a crisis here
            m.explore.as_deref_mut().unwrap().doors.push(Door { pos: Pos::new(2, 4), lock: None, hidden: true });
            let mut dice = Dice::seeded(seed);
            let mut ev = Vec::new();
            begin(&mut m, &mut dice, &mut ev);
            for (dir, who) in steps {
                let a = who.min(1);
                let (dx, dy) = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)][dir];
                let p = m.fighters[a].pos;
                let q = Pos::new(p.x + dx, p.y + dy);
                let cmd = if matches!(m.board.tile(q), Some(Tile::DoorClosed | Tile::DoorOpen)) && m.occupant(q).is_none() {
                    Command::Door { actor: m.fighters[a].id.clone(), at: q, open: m.board.tile(q) == Some(Tile::DoorClosed) }
                } else if who == 2 {
                    Command::EndTurn { actor: "a".into() }
                } else {
                    Command::Walk { actor: m.fighters[a].id.clone(), path: vec![q], group: false }
                };
                if validate(&m, a, &cmd).is_ok() {
                    apply(&mut m, a, &cmd, &mut dice, &mut ev);
                }
                let v = side_view(&m, "heroes");
                for &i in &v.figures {
                    let f = &m.fighters[i];
                    if f.side != "heroes" {
                        let seen = (0..2).any(|h| m.board.sees_space(m.fighters[h].pos, f.pos));
                        prop_assert!(seen, "{} at {} is in the view but no hero sees it", f.id, f.pos);
                    }
                }
                for i in 2..4 {
                    let seen = (0..2).any(|h| m.board.sees_space(m.fighters[h].pos, m.fighters[i].pos));
                    prop_assert_eq!(v.figures.contains(&i), seen, "figure {} shown iff seen", i);
                }
                prop_assert!(v.hidden_doors.contains(&Pos::new(2, 4)), "the secret door stays hidden (nobody searched)");
            }
        }
    }

    /// Two corridors joined at the east end: the hero (7, 1) and the orc (1, 1) see each other
    /// down the north one (a crisis at once); the south one (row 4) is out of sight behind the
    /// walls until the hero comes down the bend to (8, 3).
    const CORRIDORS: [&str; 6] = ["##########", "#........#", "########.#", "########.#", "#........#", "##########"];

    /// Passes for everyone else until `who` has the opportunity (a crisis).
    fn until_up(m: &mut Match, dice: &mut Dice, who: usize, ev: &mut Vec<Event>) {
        for _ in 0..20 {
            match m.clock.current {
                Some(c) if c == who => return,
                Some(c) => {
                    let id = m.fighters[c].id.clone();
                    let pass =
                        if m.a4.is_some() { crate::testkit::cmd(&format!(r#"round(actor: "{id}", act: end_turn)"#)) } else { Command::Pass { actor: id } };
                    super::super::driver::submit(m, dice, &pass, ev).unwrap();
                }
                None => panic!("nobody is up"),
            }
        }
        panic!("{who} never got a turn");
    }

    #[test] // R-EXP-19: in a crisis, sight is tested after every space entered: a hero's move reveals what he sees from each space, for his side only
    fn a_move_in_a_crisis_reveals() {
        let mut m = crate::testkit::crawl(&CORRIDORS, &[("h", "heroes", (7, 1)), ("o", "monsters", (1, 1))]);
        let mut dice = Dice::seeded(2);
        let mut ev = Vec::new();
        let flow = begin(&mut m, &mut dice, &mut ev);
        assert_eq!(flow, Flow::CrisisStarts, "the orc is in sight");
        assert!(super::super::driver::follow(&mut m, &mut dice, flow, &mut ev));
        assert_eq!(m.clock.phase, Phase::Action, "a crisis");
        let south = Pos::new(2, 4);
        assert_eq!(vis(&m, "heroes", south), (false, false), "the south corridor is not seen from the north one");
        until_up(&mut m, &mut dice, 0, &mut ev);
        let monsters_before = side_view(&m, "monsters").revealed.clone();
        ev.clear();
        for c in [r#"free_steps(actor: "h", path: [(8, 1)])"#, r#"move(actor: "h", movement: "run", path: [(8, 2), (8, 3)])"#] {
            super::super::driver::submit(&mut m, &mut dice, &crate::testkit::cmd(c), &mut ev).unwrap_or_else(|v| panic!("{c}: {v:?}"));
        }
        assert_eq!(m.fighters[0].pos, Pos::new(8, 3));
        assert_eq!(vis(&m, "heroes", south), (true, true), "the south corridor, seen from the space he entered");
        assert!(ev.iter().any(|e| matches!(e, Event::Revealed { side, .. } if side == "heroes")), "a Revealed event: {ev:?}");
        assert_eq!(side_view(&m, "monsters").revealed, monsters_before, "the other side's map is its own");
        // the explorers' `seen` (the state hash's) is left as it always was: no crisis reveals
        let k = m.board.index(south).unwrap();
        assert!(!m.explore.as_deref().unwrap().seen["heroes"][k], "the hashed map is unchanged by a crisis move");
    }

    #[test] // R-EXP-19: every side keeps its own revealed map (hot-seat): the monsters' side has seen its own room from the start, the heroes have not
    fn each_side_reveals_its_own_map() {
        let mut m = crate::testkit::crawl(&ROOMS, &[("h", "heroes", (1, 2)), ("o", "monsters", (6, 2))]);
        let mut dice = Dice::seeded(1);
        let mut ev = Vec::new();
        assert_eq!(begin(&mut m, &mut dice, &mut ev), Flow::Exploring);
        assert_eq!(vis(&m, "monsters", Pos::new(7, 3)), (true, true), "the orc's own room");
        assert_eq!(vis(&m, "monsters", Pos::new(1, 1)), (false, false), "not the heroes' room behind the door");
        assert_eq!(vis(&m, "heroes", Pos::new(7, 3)), (false, false));
        assert!(side_view(&m, "monsters").figures.contains(&1) && !side_view(&m, "monsters").figures.contains(&0));
        assert!(ev.iter().any(|e| matches!(e, Event::Revealed { side, .. } if side == "monsters")));
    }

    #[test] // R-EXP-19: under ruleset A4 too, a move in a crawl's crisis reveals square by square
    fn an_a4_move_in_a_crisis_reveals() {
        let mut m = crate::testkit::crawl_under(Some("A4"), &CORRIDORS, &[("h", "heroes", (7, 1)), ("o", "monsters", (1, 1))]);
        let mut dice = Dice::seeded(2);
        let mut ev = Vec::new();
        let flow = begin(&mut m, &mut dice, &mut ev);
        assert_eq!(flow, Flow::CrisisStarts);
        assert!(super::super::driver::follow(&mut m, &mut dice, flow, &mut ev));
        let south = Pos::new(2, 4);
        assert_eq!(vis(&m, "heroes", south), (false, false));
        until_up(&mut m, &mut dice, 0, &mut ev);
        let c = r#"round(actor: "h", act: move(path: [(8, 1), (8, 2), (8, 3)]))"#;
        super::super::driver::submit(&mut m, &mut dice, &crate::testkit::cmd(c), &mut ev).unwrap_or_else(|v| panic!("{c}: {v:?}"));
        assert_eq!(m.fighters[0].pos, Pos::new(8, 3));
        assert_eq!(vis(&m, "heroes", south), (true, true), "the south corridor, from the square he entered");
    }
}
