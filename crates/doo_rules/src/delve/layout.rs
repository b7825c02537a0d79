//! A floor's rooms and corridors: the map cut into a grid of cells, one room inside each (two
//! spaces clear of the cell's edges), a random spanning tree of the cells' neighbours, and for
//! each tree edge a corridor from a door in one room's wall to a door in the other's. A
//! corridor's turn lies on the two lines next to the cells' boundary, so corridors never touch
//! each other or another room: the rooms and corridors are a tree, each corridor a door at
//! both ends (docs/delve.md).

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// A room's interior, corners included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Room {
    pub x0: i32,
    pub y0: i32,
    pub x1: i32,
    pub y1: i32,
}

impl Room {
    pub fn cells(&self) -> Vec<(i32, i32)> {
        (self.y0..=self.y1).flat_map(|y| (self.x0..=self.x1).map(move |x| (x, y))).collect()
    }
}

/// A corridor between rooms `a` and `b`: a door in each room's wall, the spaces between.
#[derive(Clone, Debug)]
pub(super) struct Link {
    pub a: usize,
    pub door_a: (i32, i32),
    pub door_b: (i32, i32),
    pub cells: Vec<(i32, i32)>,
}

impl Link {
    /// The door of this corridor in room `r`'s wall.
    pub fn door_of(&self, r: usize) -> (i32, i32) {
        if r == self.a { self.door_a } else { self.door_b }
    }
}

pub(super) struct Layout {
    pub w: i32,
    pub h: i32,
    pub rooms: Vec<Room>,
    pub links: Vec<Link>,
    /// Per room: (neighbour room, link index).
    pub adj: Vec<Vec<(usize, usize)>>,
}

/// Cut `n` spaces into `k` cells: the cells' first and last lines.
fn cuts(n: i32, k: i32) -> Vec<(i32, i32)> {
    (0..k).map(|i| (i * n / k, (i + 1) * n / k - 1)).collect()
}

/// A room inside a cell, at least 3×3, two spaces clear of its edges.
fn room_in(rng: &mut ChaCha8Rng, (cx0, cx1): (i32, i32), (cy0, cy1): (i32, i32)) -> Room {
    let (ax0, ax1, ay0, ay1) = (cx0 + 2, cx1 - 2, cy0 + 2, cy1 - 2);
    let w = rng.random_range(3..=(ax1 - ax0 + 1).min(12));
    let h = rng.random_range(3..=(ay1 - ay0 + 1).min(9));
    let x0 = rng.random_range(ax0..=ax1 - w + 1);
    let y0 = rng.random_range(ay0..=ay1 - h + 1);
    Room { x0, y0, x1: x0 + w - 1, y1: y0 + h - 1 }
}

/// A line of a room's side for a door: not a corner when the side is 3 or more long.
fn door_line(rng: &mut ChaCha8Rng, lo: i32, hi: i32) -> i32 {
    if hi - lo >= 2 { rng.random_range(lo + 1..hi) } else { rng.random_range(lo..=hi) }
}

/// The layout of a `w`×`h` floor (each side at least 18).
pub(super) fn layout(rng: &mut ChaCha8Rng, w: i32, h: i32) -> Layout {
    let cols = (w / rng.random_range(11..=15)).max(2);
    let rows = (h / rng.random_range(10..=14)).max(2);
    let (xs, ys) = (cuts(w, cols), cuts(h, rows));
    let mut rooms = Vec::new();
    for &yc in &ys {
        for &xc in &xs {
            rooms.push(room_in(rng, xc, yc));
        }
    }
    let idx = |c: i32, r: i32| (r * cols + c) as usize;
    // A random depth-first spanning tree of the cell grid (long winding paths).
    let n = rooms.len();
    let mut seen = vec![false; n];
    let start = rng.random_range(0..n);
    let mut stack = vec![start];
    seen[start] = true;
    let mut edges: Vec<(usize, usize)> = Vec::new();
    while let Some(&cur) = stack.last() {
        let (c, r) = ((cur as i32) % cols, (cur as i32) / cols);
        let mut options: Vec<usize> = Vec::new();
        for (dc, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (nc, nr) = (c + dc, r + dr);
            if nc >= 0 && nc < cols && nr >= 0 && nr < rows && !seen[idx(nc, nr)] {
                options.push(idx(nc, nr));
            }
        }
        if options.is_empty() {
            stack.pop();
            continue;
        }
        let next = options[rng.random_range(0..options.len())];
        seen[next] = true;
        edges.push((cur.min(next), cur.max(next)));
        stack.push(next);
    }
    edges.sort_unstable();
    let mut links = Vec::new();
    let mut adj = vec![Vec::new(); n];
    for (a, b) in edges {
        let (ra, rb) = (rooms[a], rooms[b]);
        let link = if b == a + 1 {
            let bx = xs[(a as i32 % cols) as usize].1 + rng.random_range(0..=1);
            corridor_h(rng, a, ra, rb, bx)
        } else {
            let by = ys[(a as i32 / cols) as usize].1 + rng.random_range(0..=1);
            corridor_v(rng, a, ra, rb, by)
        };
        adj[a].push((b, links.len()));
        adj[b].push((a, links.len()));
        links.push(link);
    }
    Layout { w, h, rooms, links, adj }
}

/// A corridor from room `a` east to room `b`, turning on column `bx`.
fn corridor_h(rng: &mut ChaCha8Rng, a: usize, ra: Room, rb: Room, bx: i32) -> Link {
    let ya = door_line(rng, ra.y0, ra.y1);
    let yb = door_line(rng, rb.y0, rb.y1);
    let mut cells: Vec<(i32, i32)> = (ra.x1 + 2..=bx).map(|x| (x, ya)).collect();
    cells.extend((ya.min(yb)..=ya.max(yb)).map(|y| (bx, y)));
    cells.extend((bx..=rb.x0 - 2).map(|x| (x, yb)));
    Link { a, door_a: (ra.x1 + 1, ya), door_b: (rb.x0 - 1, yb), cells }
}

/// A corridor from room `a` south to room `b`, turning on row `by`.
fn corridor_v(rng: &mut ChaCha8Rng, a: usize, ra: Room, rb: Room, by: i32) -> Link {
    let xa = door_line(rng, ra.x0, ra.x1);
    let xb = door_line(rng, rb.x0, rb.x1);
    let mut cells: Vec<(i32, i32)> = (ra.y1 + 2..=by).map(|y| (xa, y)).collect();
    cells.extend((xa.min(xb)..=xa.max(xb)).map(|x| (x, by)));
    cells.extend((by..=rb.y0 - 2).map(|y| (xb, y)));
    Link { a, door_a: (xa, ra.y1 + 1), door_b: (xb, rb.y0 - 1), cells }
}

impl Layout {
    /// The rooms on the tree's path from `from` to `to`, both included, with the links between.
    pub fn path(&self, from: usize, to: usize) -> (Vec<usize>, Vec<usize>) {
        let n = self.rooms.len();
        let mut prev: Vec<Option<(usize, usize)>> = vec![None; n];
        let mut seen = vec![false; n];
        let mut queue = std::collections::VecDeque::from([from]);
        seen[from] = true;
        while let Some(r) = queue.pop_front() {
            for &(o, l) in &self.adj[r] {
                if !seen[o] {
                    seen[o] = true;
                    prev[o] = Some((r, l));
                    queue.push_back(o);
                }
            }
        }
        let (mut rooms, mut links) = (vec![to], Vec::new());
        let mut cur = to;
        while let Some((p, l)) = prev[cur] {
            rooms.push(p);
            links.push(l);
            cur = p;
        }
        rooms.reverse();
        links.reverse();
        (rooms, links)
    }

    /// Each room's distance in rooms from `from` along the tree.
    pub fn depths(&self, from: usize) -> Vec<usize> {
        let mut d = vec![usize::MAX; self.rooms.len()];
        d[from] = 0;
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(r) = queue.pop_front() {
            for &(o, _) in &self.adj[r] {
                if d[o] == usize::MAX {
                    d[o] = d[r] + 1;
                    queue.push_back(o);
                }
            }
        }
        d
    }

    /// The map rows: rock, the rooms' floors, the corridors, and each door's character.
    pub fn rows(&self, doors: &std::collections::BTreeMap<(i32, i32), char>) -> Vec<String> {
        let mut g = vec![vec!['#'; self.w as usize]; self.h as usize];
        for r in &self.rooms {
            for (x, y) in r.cells() {
                g[y as usize][x as usize] = '.';
            }
        }
        for l in &self.links {
            for &(x, y) in &l.cells {
                g[y as usize][x as usize] = '.';
            }
        }
        for (&(x, y), &c) in doors {
            g[y as usize][x as usize] = c;
        }
        g.into_iter().map(|r| r.into_iter().collect()).collect()
    }
}
