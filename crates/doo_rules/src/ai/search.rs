//! Where a figure can get to: dense per-floor grids, Dijkstra regions that keep a parent per
//! space (paths are rebuilt only for the few plans that are built), and distance fields to exits.

use crate::rules::grid::{Pos, Tile};
use crate::rules::state::Match;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// Dense storage for every space of one floor.
#[derive(Clone, Debug)]
pub(super) struct Grid<T> {
    w: i32,
    h: i32,
    floor: u8,
    cells: Vec<T>,
}

impl<T: Clone> Grid<T> {
    pub(super) fn new(m: &Match, floor: u8, fill: T) -> Self {
        let (w, h) = m.board.floors.get(floor as usize).map_or((0, 0), |f| (f.width as i32, f.height as i32));
        Self { w, h, floor, cells: vec![fill; (w * h) as usize] }
    }

    fn index(&self, p: Pos) -> Option<usize> {
        (p.floor == self.floor && p.x >= 0 && p.y >= 0 && p.x < self.w && p.y < self.h).then(|| (p.y * self.w + p.x) as usize)
    }

    pub(super) fn get(&self, p: Pos) -> Option<&T> {
        self.index(p).map(|i| &self.cells[i])
    }

    pub(super) fn set(&mut self, p: Pos, v: T) {
        if let Some(i) = self.index(p) {
            self.cells[i] = v;
        }
    }
}

/// Who stands on each space of `floor` (living figures).
pub(super) fn occupancy(m: &Match, floor: u8) -> Grid<Option<usize>> {
    let mut g = Grid::new(m, floor, None);
    for i in (0..m.fighters.len()).filter(|&i| !m.is_dead(i)) {
        g.set(m.fighters[i].pos, Some(i));
    }
    g
}

#[derive(Clone, Copy, Debug)]
struct Node {
    cost: u32,
    parent: Pos,
}

/// Spaces reachable by single legal steps from any of `roots` within `max_cost` spaces of
/// movement (difficult ground costs 2): enemies block, allies may be passed but not ended on.
pub(super) struct Region {
    nodes: Grid<Option<Node>>,
    /// Reached spaces a figure may end on, roots included, in order of cost.
    pub(super) ends: Vec<(Pos, u32)>,
}

impl Region {
    pub(super) fn new(m: &Match, a: usize, occ: &Grid<Option<usize>>, roots: &[Pos], max_cost: u32) -> Self {
        let floor = m.fighters[a].pos.floor;
        let mut nodes: Grid<Option<Node>> = Grid::new(m, floor, None);
        let mut heap = BinaryHeap::new();
        for &r in roots {
            nodes.set(r, Some(Node { cost: 0, parent: r }));
            heap.push(Reverse((0u32, r.y, r.x)));
        }
        let mut order = Vec::new();
        while let Some(Reverse((cost, y, x))) = heap.pop() {
            let p = Pos::on(x, y, floor);
            if nodes.get(p).copied().flatten().is_none_or(|n| n.cost < cost) {
                continue;
            }
            order.push((p, cost));
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if (dx, dy) == (0, 0) {
                        continue;
                    }
                    let q = Pos::on(x + dx, y + dy, floor);
                    let Some(slot) = nodes.get(q) else { continue };
                    let c = cost + if m.board.tile(q) == Some(Tile::Difficult) { 2 } else { 1 };
                    if c > max_cost || slot.is_some_and(|n| n.cost <= c) || m.board.step_geometry(p, q).is_err() {
                        continue;
                    }
                    if let Some(Some(o)) = occ.get(q) {
                        if *o != a && m.enemies(a, *o) && m.fighters[*o].hp > 0 {
                            continue;
                        }
                    }
                    nodes.set(q, Some(Node { cost: c, parent: p }));
                    heap.push(Reverse((c, q.y, q.x)));
                }
            }
        }
        let ends = order.into_iter().filter(|(p, _)| occ.get(*p).copied().flatten().is_none_or(|o| o == a)).collect();
        Self { nodes, ends }
    }

    /// The steps from the root that leads to `p` (the root itself left out), and that root.
    pub(super) fn path(&self, p: Pos) -> (Pos, Vec<Pos>) {
        let mut steps = Vec::new();
        let mut at = p;
        while let Some(Some(n)) = self.nodes.get(at) {
            if n.parent == at {
                break;
            }
            steps.push(at);
            at = n.parent;
        }
        steps.reverse();
        (at, steps)
    }
}

/// A distance field of the memo (shared, not copied).
pub(super) type Field = std::rc::Rc<std::collections::BTreeMap<Pos, u32>>;

thread_local! {
    /// Distance fields by their goals, remembered while a decision is made (`value::SightMemo`
    /// starts and ends it with line of sight's): a lookahead's model asks again and again for
    /// the field to the same exits or the same enemies' spaces (session 19: it was a seventh
    /// of a crawl's futures).
    static FIELD_MEMO: std::cell::RefCell<Option<std::collections::HashMap<Vec<Pos>, Field>>> = const { std::cell::RefCell::new(None) };
}

/// The most spaces the memo's fields hold together (a board at the size caps has a million
/// spaces a field): past it, it starts again; a field larger than this is not kept.
const FIELD_MEMO_SPACES: usize = 1 << 18;

/// Starts (`true`) or ends the field memo of a decision.
pub(super) fn field_memo(on: bool) {
    FIELD_MEMO.with(|c| *c.borrow_mut() = on.then(std::collections::HashMap::new));
}

/// [`distance_field`], remembered by its goals while a decision is made. A door opened inside
/// a future is not seen by the memo: only the AI's estimate is affected (as with line of
/// sight), never the rules, and the memo lives for one decision, so a seed stays one game.
pub(super) fn shared_field(m: &Match, goals: &[Pos]) -> Field {
    let mut key = goals.to_vec();
    key.sort();
    if let Some(f) = FIELD_MEMO.with(|c| c.borrow().as_ref().and_then(|map| map.get(&key).cloned())) {
        return f;
    }
    let f = std::rc::Rc::new(distance_field(m, goals));
    FIELD_MEMO.with(|c| {
        if let Some(map) = c.borrow_mut().as_mut()
            && f.len() <= FIELD_MEMO_SPACES
        {
            if map.values().map(|g| g.len()).sum::<usize>() + f.len() > FIELD_MEMO_SPACES {
                map.clear();
            }
            map.insert(key, f.clone());
        }
    });
    f
}

/// Steps from every space to the nearest of `goals` (8-way, stairs and links included).
pub(super) fn distance_field(m: &Match, goals: &[Pos]) -> std::collections::BTreeMap<Pos, u32> {
    // stairs leading to each space, found once
    let mut arrivals: std::collections::HashMap<Pos, Vec<Pos>> = std::collections::HashMap::new();
    for (fi, f) in m.board.floors.iter().enumerate() {
        for y in 0..f.height as i32 {
            for x in 0..f.width as i32 {
                let q = Pos::on(x, y, fi as u8);
                if let Some(d) = m.board.stairs_destination(q) {
                    arrivals.entry(d).or_default().push(q);
                }
            }
        }
    }
    let mut dist: std::collections::BTreeMap<Pos, u32> = goals.iter().map(|g| (*g, 0)).collect();
    let mut queue: VecDeque<Pos> = goals.iter().copied().collect();
    while let Some(p) = queue.pop_front() {
        let d = dist[&p];
        let mut next = Vec::new();
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = Pos::on(p.x + dx, p.y + dy, p.floor);
                if (dx, dy) != (0, 0) && m.board.step_geometry(q, p).is_ok() && m.board.walkable(q) {
                    next.push(q);
                }
            }
        }
        next.extend(arrivals.get(&p).into_iter().flatten().copied());
        for q in next {
            if !dist.contains_key(&q) {
                dist.insert(q, d + 1);
                queue.push_back(q);
            }
        }
    }
    dist
}
