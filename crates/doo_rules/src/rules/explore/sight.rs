//! Sight and the fog of war (R-EXP-18, R-EXP-19): what a character sees, what each side has
//! revealed, the view model a side is shown (`side_view`), and the sightings between heroes and
//! hostiles that start a crisis (R-EXP-24). Every function here is handed the crawl.
//!
//! At scale (issue 44): a character's sight is a breadth-first search over the see-through
//! spaces joined to his, each tested with the exact minimal line of sight of R-EXP-19 / G-04
//! (`Board::sees_space`), answered through one [`SightMap`] (blocker counts) per floor per
//! question, so open ground costs O(1) per space; the search marks a bitmap sized to the floor.
//! A viewer whose whole floor is already revealed for his side (and, for the explorers,
//! `seen`), or marked by the side's viewers searched before him, cannot add anything and is not
//! searched; nor is one whose see-through spaces joined to his (and the blockers around them:
//! a flood fill, no line of sight) are all so covered, as a monster's room already seen when
//! a door opens far away. Results are those of the plain search.

use super::super::event::Event;
use super::super::grid::{Board, Pos, SightMap, Tile};
use super::super::state::{Match, Phase};
use super::state::Explore;

impl Explore {
    pub fn is_explorer(&self, m: &Match, i: usize) -> bool {
        self.explorers.contains(&m.fighters[i].side)
    }
}

/// True in Exploration Mode.
pub fn exploring(m: &Match) -> bool {
    m.clock.phase == Phase::Exploration && m.explore.is_some()
}

/// R-EXP-25, G-15: a crawl's crisis in which no hostile takes part (a trap began it and nobody
/// was seen): it runs one action phase, then Exploration Mode resumes. The HUD says so.
pub fn one_phase_crisis(m: &Match) -> bool {
    m.explore.as_deref().is_some_and(|x| one_phase(m, x))
}

/// [`one_phase_crisis`] of the crawl `x`.
pub(super) fn one_phase(m: &Match, x: &Explore) -> bool {
    m.clock.phase != Phase::Exploration
        && m.clock.phase != Phase::Over
        && !(0..m.fighters.len()).any(|i| !m.fighters[i].dormant && !x.is_explorer(m, i) && alive(m, i))
}

/// The line that tells why a crisis with no foe lasts one action phase (R-EXP-25).
pub const ONE_PHASE_CRISIS: &str = "No foe takes part: this crisis lasts one action phase, then exploration resumes (R-EXP-25)";

/// Characters on the map who are not dead.
pub(super) fn alive(m: &Match, i: usize) -> bool {
    !m.is_dead(i)
}

/// A character who can see: alive and conscious.
fn can_see(m: &Match, i: usize) -> bool {
    alive(m, i) && m.fighters[i].hp > 0
}

/// R-EXP-18, R-EXP-19: space `p` is lit for viewer `i`: outside every dark area, next to him,
/// within reach of a burning light with minimal line of sight from it, or he has darkvision.
pub fn lit_for(m: &Match, x: &Explore, i: usize, p: Pos) -> bool {
    lit_in(m, x, i, p, None)
}

/// [`lit_for`], the lights' sight answered through `map` where it counts the floor.
fn lit_in(m: &Match, x: &Explore, i: usize, p: Pos, map: Option<&SightMap>) -> bool {
    if x.dark.is_empty() || !x.in_dark(p) || m.fighters[i].pos.distance(p) <= 1 || m.fighters[i].abilities.iter().any(|a| a == "darkvision") {
        return true;
    }
    let sees = |at: Pos| match map {
        Some(s) => s.sees_space(&m.board, at, p),
        None => m.board.sees_space(at, p),
    };
    let radius = |item: &str| x.book.lights.iter().find(|l| l.item == item).map_or(0, |l| l.radius);
    let held = x.burning.iter().any(|(&h, (item, _))| {
        let at = m.fighters[h].pos;
        !m.is_dead(h) && at.distance(p) <= radius(item) && sees(at)
    });
    // A light lying in a space lights its reach as in a hand (R-EXP-18).
    held || x.more.lit.iter().any(|(at, item, _)| at.distance(p) <= radius(item) && sees(*at))
}

/// R-EXP-19: the spaces character `i` sees now (lit, R-EXP-18). Only spaces joined to his by
/// see-through spaces are tried (with the walls and doors around them), so a closed room costs
/// nothing. In the order of the search (nearest first).
pub fn visible(m: &Match, x: &Explore, i: usize) -> Vec<Pos> {
    let map = SightMap::new(&m.board, m.fighters[i].pos.floor);
    let mut out = Vec::new();
    visible_with(m, x, i, &map, None, &mut |p, _| out.push(p));
    out
}

/// The floor's width and height (0 × 0 for a floor the board lacks).
fn floor_size(b: &Board, floor: u8) -> (i32, i32) {
    b.floors.get(floor as usize).map_or((0, 0), |f| (f.width as i32, f.height as i32))
}

/// [`visible`]: each space seen is handed to `hit` with its index on its floor (row-major), in
/// the order of the search. `map` counts the viewer's floor of `m.board`.
/// With `done` (issue 44: a reveal), a space `done` says a hit adds nothing to is not tried
/// when trying it could change nothing else either: a wall or closed door (the search never
/// goes through one), or a space whose neighbours are all queued already. Such spaces may then
/// be left out of the hits; every other hit is the same.
fn visible_with(m: &Match, x: &Explore, i: usize, map: &SightMap, done: Option<&dyn Fn(usize) -> bool>, hit: &mut dyn FnMut(Pos, usize)) {
    let from = m.fighters[i].pos;
    let b = &m.board;
    let mut fill = Fill::from(b, from);
    while let Some(p) = fill.queue.pop_front() {
        let k = fill.index(p).unwrap_or(usize::MAX);
        if p != from && done.is_some_and(|d| d(k)) {
            if fill.blocks(k) || fill.all_queued_around(p) {
                continue; // seen or not, it adds nothing and queues nothing
            }
        }
        if !map.sees_space(b, from, p) {
            continue;
        }
        if lit_in(m, x, i, p, Some(map)) {
            hit(p, k);
        }
        if p != from && fill.blocks(k) {
            continue; // a wall or closed door is seen, not seen through
        }
        fill.queue_around(p);
        // (The former cap of 2^20 spaces queued cannot be reached: a floor has at most 2^20.)
    }
}

/// The former [`visible`] (a `HashSet`, `Board::sees_space` per space): the test oracle.
#[cfg(test)]
pub(crate) fn visible_oracle(m: &Match, x: &Explore, i: usize) -> Vec<Pos> {
    let from = m.fighters[i].pos;
    let b = &m.board;
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut queue = std::collections::VecDeque::from([from]);
    seen.insert(from);
    while let Some(p) = queue.pop_front() {
        if !b.sees_space_oracle(from, p) {
            continue;
        }
        if lit_oracle(m, x, i, p) {
            out.push(p);
        }
        if p != from && b.tile(p).is_none_or(Tile::blocks_sight) {
            continue;
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

/// The former [`lit_for`] (the oracle's line of sight).
#[cfg(test)]
fn lit_oracle(m: &Match, x: &Explore, i: usize, p: Pos) -> bool {
    if x.dark.is_empty() || !x.in_dark(p) || m.fighters[i].pos.distance(p) <= 1 || m.fighters[i].abilities.iter().any(|a| a == "darkvision") {
        return true;
    }
    let radius = |item: &str| x.book.lights.iter().find(|l| l.item == item).map_or(0, |l| l.radius);
    let held = x.burning.iter().any(|(&h, (item, _))| {
        let at = m.fighters[h].pos;
        !m.is_dead(h) && at.distance(p) <= radius(item) && m.board.sees_space_oracle(at, p)
    });
    held || x.more.lit.iter().any(|(at, item, _)| at.distance(p) <= radius(item) && m.board.sees_space_oracle(*at, p))
}

/// Whether `a` sees the space of `b` (R-EXP-19), both on the map.
pub fn sees(m: &Match, x: &Explore, a: usize, b: usize) -> bool {
    sees_in(m, x, a, b, None)
}

/// [`sees`], line of sight answered through `map` where it counts the floor.
fn sees_in(m: &Match, x: &Explore, a: usize, b: usize, map: Option<&SightMap>) -> bool {
    let (from, to) = (m.fighters[a].pos, m.fighters[b].pos);
    let los = match map {
        Some(s) => s.sees_space(&m.board, from, to),
        None => m.board.sees_space(from, to),
    };
    can_see(m, a) && los && lit_in(m, x, a, to, map)
}

/// [`sees_in`] with the line of sight between the two figures' spaces kept with `map`'s
/// counts ([`SightMap::sees_space_kept`]): the same answer.
fn sees_kept(m: &Match, x: &Explore, a: usize, b: usize, map: Option<&SightMap>) -> bool {
    let (from, to) = (m.fighters[a].pos, m.fighters[b].pos);
    let los = match map {
        Some(s) => s.sees_space_kept(&m.board, from, to),
        None => m.board.sees_space(from, to),
    };
    can_see(m, a) && los && lit_in(m, x, a, to, map)
}

/// Marks what the side's characters see as revealed; returns how many spaces were new.
pub fn reveal(m: &Match, x: &mut Explore, side: &str) -> usize {
    let who: Vec<usize> = (0..m.fighters.len()).filter(|&i| m.fighters[i].side == side).collect();
    let legacy = x.explorers.iter().any(|s| s == side);
    reveal_by(m, x, side, &who, legacy)
}

/// Marks what characters `who` (all of side `side`) see as revealed for that side (`fog`);
/// returns how many spaces were new (R-EXP-19). With `legacy`, the explorers' `seen` (the
/// state hash's) is marked as well, exactly as it always was. A viewer whose floor is wholly
/// covered already (revealed, and with `legacy` `seen`, or marked by the viewers before him)
/// could add nothing and is not searched: the same marks, the same count.
fn reveal_by(m: &Match, x: &mut Explore, side: &str, who: &[usize], legacy: bool) -> usize {
    reveal_by_with(m, x, side, who, legacy, &mut Vec::new())
}

/// One floor's marks in [`reveal_by_with`]: the spaces seen (a bitmap of the floor) and how
/// many of its spaces are still neither covered before nor seen.
struct FloorMarks {
    floor: u8,
    bits: Vec<bool>,
    open: usize,
}

/// [`reveal_by`], reusing the floors' [`SightMap`]s in `maps` (of `m.board`, unchanged).
fn reveal_by_with(m: &Match, x: &mut Explore, side: &str, who: &[usize], legacy: bool, maps: &mut Vec<SightMap>) -> usize {
    let n = m.board.spaces();
    // Where each floor's spaces begin in `Board::index`.
    let mut bases = Vec::with_capacity(m.board.floors.len());
    let mut base = 0usize;
    for f in &m.board.floors {
        bases.push(base);
        base += (f.width * f.height) as usize;
    }
    let xr: &Explore = x;
    let (fog, seen) = (xr.fog.0.get(side).map_or(&[][..], |v| &v[..]), xr.seen.get(side).map_or(&[][..], |v| &v[..]));
    // Space `k` (a `Board::index`) adds nothing when seen: revealed, and `seen` with `legacy`.
    let covered = |k: usize| fog.get(k).copied().unwrap_or(false) && (!legacy || seen.get(k).copied().unwrap_or(false));
    // How many of the spaces `range` are not covered.
    let open_in = |r: std::ops::Range<usize>| {
        let f = fog.get(r.clone()).unwrap_or(&[]);
        let s = if legacy { seen.get(r.clone()).unwrap_or(&[]) } else { f };
        if f.len() < r.len() || s.len() < r.len() {
            return r.filter(|&k| !covered(k)).count();
        }
        f.iter().zip(s).filter(|(a, b)| !(**a && **b)).count()
    };
    let mut marks: Vec<FloorMarks> = Vec::new();
    for &i in who.iter().filter(|&&i| m.fighters[i].side == side && can_see(m, i)) {
        let floor = m.fighters[i].pos.floor;
        if (floor as usize) >= m.board.floors.len() {
            continue; // off every floor: nothing of the board is seen (no index)
        }
        let b = bases[floor as usize];
        let mk = match marks.iter().position(|f| f.floor == floor) {
            Some(k) => k,
            None => {
                let (w, h) = floor_size(&m.board, floor);
                let area = (w * h) as usize;
                marks.push(FloorMarks { floor, bits: vec![false; area], open: open_in(b..b + area) });
                marks.len() - 1
            }
        };
        if marks[mk].open == 0 || !could_add(&m.board, m.fighters[i].pos, &marks[mk].bits, &|at| covered(b + at)) {
            continue;
        }
        let k = match maps.iter().position(|s| s.floor() == floor) {
            Some(k) => k,
            None => {
                maps.push(SightMap::new(&m.board, floor));
                maps.len() - 1
            }
        };
        let FloorMarks { bits, open, .. } = &mut marks[mk];
        let done = |at: usize| bits.get(at).copied().unwrap_or(false) || covered(b + at);
        let mut fresh = Vec::new();
        visible_with(m, xr, i, &maps[k], Some(&done), &mut |_, at| fresh.push(at));
        for at in fresh {
            if let Some(s) = bits.get_mut(at)
                && !*s
            {
                *s = true;
                if !covered(b + at) {
                    *open -= 1;
                }
            }
        }
    }
    marks.sort_by_key(|f| f.floor);
    let mut sight = Vec::new();
    for f in &marks {
        let b = bases[f.floor as usize];
        sight.extend(f.bits.iter().enumerate().filter(|(_, s)| **s).map(|(k, _)| b + k));
    }
    x.reveal_spaces(side, &sight, n, legacy)
}

/// False when a viewer at `from` can mark nothing new (issue 44): every space the search of
/// [`visible_with`] could reach from him (the see-through spaces joined to his, with the
/// blockers around them; a superset of what he sees, sight or not) is `covered` already or
/// `marked` by the side's viewers before him (indices on his floor, row-major). A flood fill,
/// no line of sight: it stops at the first space that could still be new.
fn could_add(b: &Board, from: Pos, marked: &[bool], covered: &dyn Fn(usize) -> bool) -> bool {
    let mut fill = Fill::from(b, from);
    while let Some(p) = fill.queue.pop_front() {
        if let Some(k) = fill.index(p) {
            if !marked.get(k).copied().unwrap_or(false) && !covered(k) {
                return true;
            }
            if p != from && fill.blocks(k) {
                continue; // the search sees a wall or closed door, never through it
            }
        } else if p != from {
            continue;
        }
        fill.queue_around(p);
    }
    false
}

/// The breadth-first walk over a viewer's floor that [`visible_with`] and [`could_add`] share:
/// its size and tiles, the spaces queued once (a bitmap of the floor; the viewer's own space may
/// lie off it), the queue.
struct Fill<'a> {
    w: i32,
    h: i32,
    tiles: &'a [Tile],
    queued: Vec<bool>,
    queue: std::collections::VecDeque<Pos>,
}

impl<'a> Fill<'a> {
    fn from(b: &'a Board, from: Pos) -> Self {
        let (w, h) = floor_size(b, from.floor);
        let tiles: &[Tile] = b.floors.get(from.floor as usize).map_or(&[], |f| &f.tiles[..]);
        let mut fill = Fill { w, h, tiles, queued: vec![false; (w * h) as usize], queue: std::collections::VecDeque::from([from]) };
        if let Some(k) = fill.index(from) {
            fill.queued[k] = true;
        }
        fill
    }

    /// The index of (x, y) on the floor, row-major; none off it.
    fn at(&self, x: i32, y: i32) -> Option<usize> {
        (x >= 0 && y >= 0 && x < self.w && y < self.h).then(|| (y * self.w + x) as usize)
    }

    fn index(&self, p: Pos) -> Option<usize> {
        self.at(p.x, p.y)
    }

    /// Space `k` stops sight (a wall, a closed door; off the floor too).
    fn blocks(&self, k: usize) -> bool {
        self.tiles.get(k).is_none_or(|t| t.blocks_sight())
    }

    /// Every space around `p` on the floor is queued already.
    fn all_queued_around(&self, p: Pos) -> bool {
        (-1..=1).all(|dy| (-1..=1).all(|dx| self.at(p.x + dx, p.y + dy).is_none_or(|k| self.queued[k])))
    }

    /// Queues the spaces around `p` not queued yet.
    fn queue_around(&mut self, p: Pos) {
        for dy in -1..=1 {
            for dx in -1..=1 {
                if let Some(k) = self.at(p.x + dx, p.y + dy) {
                    if !self.queued[k] {
                        self.queued[k] = true;
                        self.queue.push_back(Pos::on(p.x + dx, p.y + dy, p.floor));
                    }
                }
            }
        }
    }
}

/// [`reveal_by`], for the tests beside the oracle.
#[cfg(test)]
pub(crate) fn reveal_by_for_tests(m: &Match, x: &mut Explore, side: &str, who: &[usize], legacy: bool) -> usize {
    reveal_by(m, x, side, who, legacy)
}

/// The former `reveal_by` (the oracle's sight): the test oracle.
#[cfg(test)]
pub(crate) fn reveal_by_oracle(m: &Match, x: &mut Explore, side: &str, who: &[usize], legacy: bool) -> usize {
    let n = m.board.spaces();
    let mut sight = Vec::new();
    for &i in who.iter().filter(|&&i| m.fighters[i].side == side && can_see(m, i)) {
        sight.extend(visible_oracle(m, x, i).into_iter().filter_map(|p| m.board.index(p)));
    }
    sight.sort_unstable();
    sight.dedup();
    x.reveal_spaces(side, &sight, n, legacy)
}

/// The exploring sides, then the other sides with a character on the map in the order of their
/// first character (deterministic).
fn sides_on_map(m: &Match, x: &Explore) -> Vec<String> {
    let mut out: Vec<String> = x.explorers.clone();
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
pub fn reveal_all(m: &Match, x: &mut Explore, ev: &mut Vec<Event>) {
    let mut maps = Vec::new(); // the board does not change meanwhile: one count per floor for every side
    for s in sides_on_map(m, x) {
        let who: Vec<usize> = (0..m.fighters.len()).filter(|&i| m.fighters[i].side == s).collect();
        let legacy = x.explorers.iter().any(|e| e == &s);
        let n = reveal_by_with(m, x, &s, &who, legacy, &mut maps);
        if n > 0 {
            ev.push(Event::Revealed { side: s, spaces: n as u32 });
        }
    }
}

/// R-EXP-19, in both modes: sight is "tested after every space entered". Character `a` entered
/// the spaces of `path` in order (he stands on the last one, or where he stands now when `path`
/// is empty); what he saw from each is revealed for his side, in one `Revealed` event.
pub fn reveal_path(m: &mut Match, x: &mut Explore, a: usize, path: &[Pos], ev: &mut Vec<Event>) {
    if a >= m.fighters.len() {
        return;
    }
    let side = m.fighters[a].side.clone();
    let end = m.fighters[a].pos;
    let mut n = 0;
    let mut maps = Vec::new(); // the board does not change on the way: one count per floor
    for &p in path.iter().filter(|&&p| p != end) {
        m.fighters[a].pos = p;
        n += reveal_by_with(m, x, &side, &[a], false, &mut maps);
    }
    m.fighters[a].pos = end;
    n += reveal_by_with(m, x, &side, &[a], false, &mut maps);
    if n > 0 {
        ev.push(Event::Revealed { side, spaces: n as u32 });
    }
}

/// R-EXP-19: the sides that see event `e`, in the order of [`sides_on_map`]. A side sees what
/// its own characters do and suffer; another side's doing when one of its characters able to
/// see sees the space of a figure the event is about (actor, target) or a space it happens in
/// (a move's start and path, a door). An event about no figure (a phase, a round) is seen by
/// every side; a `revealed` is its own side's. Asked right after the command that caused it.
pub fn witnesses(m: &Match, x: &Explore, e: &Event) -> Vec<String> {
    let sides = sides_on_map(m, x);
    if let Event::Revealed { side, .. } = e {
        return vec![side.clone()];
    }
    let figures: Vec<usize> = e.actor().into_iter().chain(e.others()).filter_map(|id| m.index(id)).collect();
    if figures.is_empty() {
        return sides;
    }
    let mut spaces: Vec<Pos> = figures.iter().map(|&i| m.fighters[i].pos).collect();
    spaces.extend(e.spaces());
    spaces.dedup();
    let sees_any = |i: usize| {
        let from = m.fighters[i].pos;
        spaces.iter().any(|&p| from == p || (m.board.sees_space(from, p) && lit_for(m, x, i, p)))
    };
    sides
        .into_iter()
        .filter(|s| {
            figures.iter().any(|&i| &m.fighters[i].side == s) || (0..m.fighters.len()).any(|i| &m.fighters[i].side == s && can_see(m, i) && sees_any(i))
        })
        .collect()
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
    match m.explore.as_deref() {
        Some(x) => view_of(m, x, side),
        None => {
            let n = m.board.spaces();
            SideView { revealed: vec![true; n], visible: vec![true; n], figures: (0..m.fighters.len()).collect(), ..Default::default() }
        }
    }
}

/// The view model of side `side` in the crawl `x`.
pub fn view_of(m: &Match, x: &Explore, side: &str) -> SideView {
    let n = m.board.spaces();
    let mut visible = vec![false; n];
    let mut maps: Vec<SightMap> = Vec::new(); // one per floor seen on, shared by its viewers
    for i in (0..m.fighters.len()).filter(|&i| m.fighters[i].side == side && can_see(m, i)) {
        let floor = m.fighters[i].pos.floor;
        let Some(base) = m.board.index(Pos::on(0, 0, floor)) else { continue }; // no floor, or an empty one: no index
        let k = match maps.iter().position(|s| s.floor() == floor) {
            Some(k) => k,
            None => {
                maps.push(SightMap::new(&m.board, floor));
                maps.len() - 1
            }
        };
        visible_with(m, x, i, &maps[k], None, &mut |_, at| {
            if let Some(v) = visible.get_mut(base.wrapping_add(at)).filter(|_| at != usize::MAX) {
                *v = true;
            }
        });
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

/// An active hostile (R-EXP-23): not an explorer, able to act, not calmed (R-EXP-27).
pub fn active_hostile(m: &Match, x: &Explore, i: usize) -> bool {
    !x.is_explorer(m, i) && m.standing(i) && !x.calm.get(i).copied().unwrap_or(false) && m.fighters[i].hp > 0
}

/// R-EXP-24(a): pairs (hero, hostile) in which one sees the other (hostiles in order, then
/// heroes).
pub(super) fn sightings(m: &Match, x: &Explore) -> Vec<(usize, usize)> {
    let heroes: Vec<usize> = (0..m.fighters.len()).filter(|&i| x.is_explorer(m, i) && alive(m, i)).collect();
    let hostiles: Vec<usize> = (0..m.fighters.len()).filter(|&i| active_hostile(m, x, i)).collect();
    // Many pairs (heroes × hostiles, issue 44), or pairs far apart: the blocker counts of their
    // floor, built once (one pass over it, or a big floor's kept ones checked in one pass), make
    // each line of sight across open ground O(log distance) instead of a walk. Far apart:
    // walked, the pairs on that floor could cost more than a quarter of the pass, each of a
    // pair's 2 × 82 segments visiting up to 3 spaces a step (a blocked pair tries them all).
    // The answers are the same either way.
    let floor = heroes.first().map(|&h| m.fighters[h].pos.floor);
    let far = || {
        let Some(fl) = floor else { return false };
        let area = m.board.floors.get(fl as usize).map_or(0, |f| f.width as usize * f.height as usize);
        let steps = |a: usize, b: usize| m.fighters[a].pos.distance(m.fighters[b].pos).saturating_add(2) as usize;
        let on = |i: usize| m.fighters[i].pos.floor == fl;
        let walk: usize = hostiles.iter().filter(|&&n| on(n)).map(|&n| heroes.iter().filter(|&&h| on(h)).map(|&h| steps(h, n)).sum::<usize>()).sum();
        walk.saturating_mul(2 * 82 * 3) > area / 4
    };
    let map = floor.filter(|_| heroes.len() * hostiles.len() >= 64 || far()).map(|fl| SightMap::new(&m.board, fl));
    let mut out = Vec::new();
    for &n in &hostiles {
        for &h in &heroes {
            if sees_kept(m, x, h, n, map.as_ref()) || sees_kept(m, x, n, h, map.as_ref()) {
                out.push((h, n));
            }
        }
    }
    out
}

/// An item's name: a key's from the level, equipment's from the book.
pub fn item_name(m: &Match, x: &Explore, id: &str) -> String {
    x.keys.get(id).cloned().or_else(|| m.equipment.item(id).map(|i| i.name.clone())).unwrap_or_else(|| id.to_string())
}
