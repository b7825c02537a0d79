//! The proof of a crawl's keys (issue 47): a search over the rules' own movement (8-way steps,
//! no corner cutting, stairs and their links, as `reachable_from`), doors (a closed or secret
//! door opens; a locked door with a key in `keys` opens only once that key has been reached)
//! and keys (lying in a space, in a chest, carried by a figure, or given in a trade: reached
//! when a hero stands on its space or next to it) shows where the explorers can get with every
//! lock opened in some order. `prove` says whether their goal (an exit, or the figure to defeat)
//! is among those spaces, and names the doors whose keys lie behind them when it is not.

use super::format::{Level, TileSpec};
use super::map::spec_char;
use crate::level_crawl::LevelMode;
use crate::rules::grid::{Board, Pos, Tile};
use crate::rules::victory::Goal;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

/// What the proof found: the keys in the order they were reached (each opening its doors), the
/// doors they opened, the spaces reached, and the goal reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// Key ids, in the order the search reached them.
    pub keys: Vec<String>,
    /// The locked doors opened by their keys, in that order.
    pub opened: Vec<Pos>,
    /// How many spaces the explorers can reach.
    pub reached: usize,
    /// The goal shown reachable, in words (`exit (3, 4)`, `defeat 'boss'`).
    pub goal: String,
}

/// The spaces the explorers reach with every lock opened in some order, and the locked doors
/// left shut (with their keys).
pub struct Reach {
    pub reached: HashSet<Pos>,
    pub keys: Vec<String>,
    pub opened: Vec<Pos>,
    pub shut: Vec<(Pos, String)>,
}

/// The map rows through the legend (secret doors as closed doors).
fn rows(level: &Level) -> Vec<Vec<String>> {
    level
        .floors
        .iter()
        .map(|rows| {
            let width = rows.first().map_or(0, |r| r.chars().count());
            rows.iter()
                .map(|r| {
                    let mut s: String = r
                        .chars()
                        .take(width)
                        .map(|c| match level.legend.get(&c) {
                            Some(TileSpec::SecretDoor) => '+',
                            Some(spec) => spec_char(*spec),
                            None if c == 'S' => '+',
                            None if Board::legend(c).is_some() => c,
                            None => '#',
                        })
                        .collect();
                    s.extend(std::iter::repeat_n('#', width.saturating_sub(r.chars().count())));
                    s
                })
                .collect()
        })
        .collect()
}

/// The search, on a board: from `starts`, every door open but the locked ones whose key is one
/// of the level's `keys`, which open when their key is reached.
pub fn reach_with_keys(level: &Level, board: &Board, starts: &[Pos]) -> Reach {
    let known: BTreeSet<&str> = level.keys.iter().map(|k| k.id.as_str()).collect();
    let mut b = board.clone();
    // Locked doors waiting for a key: key -> doors.
    let mut lock_of: HashMap<Pos, String> = HashMap::new();
    for (fi, fl) in board.floors.iter().enumerate() {
        for y in 0..fl.height as i32 {
            for x in 0..fl.width as i32 {
                let p = Pos::on(x, y, fi as u8);
                match board.tile(p) {
                    Some(Tile::DoorClosed) => b.set_tile(p, Tile::DoorOpen),
                    Some(Tile::DoorLocked) => {
                        let key = level.doors.iter().find(|d| d.pos == p).and_then(|d| d.lock.as_ref()).and_then(|l| l.key.clone());
                        match key.filter(|k| known.contains(k.as_str())) {
                            Some(k) => {
                                lock_of.insert(p, k);
                            }
                            None => b.set_tile(p, Tile::DoorOpen),
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    // Chests fill their space (R-EXP-15).
    let chests: HashSet<Pos> = level.chests.iter().map(|c| c.pos).collect();
    // Where each key can be picked up: (its space, the key a chest's lock wants, the key).
    let mut sources: Vec<(Pos, Option<String>, String)> = Vec::new();
    for it in &level.items {
        sources.push((it.pos, None, it.item.clone()));
    }
    for c in &level.chests {
        let want = c.lock.as_ref().and_then(|l| l.key.clone()).filter(|k| known.contains(k.as_str()));
        for it in &c.items {
            sources.push((c.pos, want.clone(), it.clone()));
        }
    }
    for ch in &level.characters {
        if let (Some(p), Some(items)) = (ch.pos, &ch.items) {
            for it in items {
                sources.push((p, None, it.clone()));
            }
        }
    }
    let members: BTreeMap<&str, Pos> = level.characters.iter().filter_map(|c| Some((c.id.as_deref()?, c.pos?))).collect();
    for e in &level.encounters {
        let at = e.members.iter().find_map(|m| members.get(m.as_str()).copied());
        for (t, p) in e.trades.iter().zip(std::iter::repeat(at)) {
            if let Some(p) = p {
                sources.push((p, None, t.gives.clone()));
            }
        }
    }
    sources.retain(|s| known.contains(s.2.as_str()));
    let mut touch: HashMap<Pos, Vec<usize>> = HashMap::new();
    for (k, s) in sources.iter().enumerate() {
        for dy in -1..=1 {
            for dx in -1..=1 {
                touch.entry(Pos::on(s.0.x + dx, s.0.y + dy, s.0.floor)).or_default().push(k);
            }
        }
    }
    let mut links: HashMap<Pos, Vec<Pos>> = HashMap::new();
    for s in &level.stairs {
        links.entry(s.from).or_default().push(s.to);
        links.entry(s.to).or_default().push(s.from);
    }
    let mut out = Reach { reached: HashSet::new(), keys: Vec::new(), opened: Vec::new(), shut: Vec::new() };
    let mut held: BTreeSet<String> = BTreeSet::new();
    let mut parked: BTreeSet<Pos> = BTreeSet::new();
    let mut doors_of: BTreeMap<&str, Vec<Pos>> = BTreeMap::new();
    for (d, k) in &lock_of {
        doors_of.entry(k.as_str()).or_default().push(*d);
    }
    for v in doors_of.values_mut() {
        v.sort_by_key(|d| (d.floor, d.y, d.x));
    }
    let mut parked_src: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut done_src = vec![false; sources.len()];
    let mut queue: VecDeque<Pos> = VecDeque::new();
    let walk = |b: &Board, p: Pos| b.walkable(p) && !chests.contains(&p);
    for s in starts {
        if b.walkable(*s) && out.reached.insert(*s) {
            queue.push_back(*s);
        }
    }
    while let Some(p) = queue.pop_front() {
        // Keys picked up from here (one pick-up can free more: a chest waiting on a key).
        let mut got: Vec<usize> = touch.get(&p).cloned().unwrap_or_default();
        while let Some(k) = got.pop() {
            if done_src[k] {
                continue;
            }
            if let Some(w) = &sources[k].1
                && !held.contains(w)
            {
                parked_src.entry(w.clone()).or_default().push(k);
                continue;
            }
            done_src[k] = true;
            let key = sources[k].2.clone();
            if held.insert(key.clone()) {
                out.keys.push(key.clone());
                for &d in doors_of.get(key.as_str()).into_iter().flatten() {
                    b.set_tile(d, Tile::DoorOpen);
                    out.opened.push(d);
                    if parked.remove(&d) && out.reached.insert(d) {
                        queue.push_back(d);
                    }
                }
                got.extend(parked_src.remove(&key).unwrap_or_default());
            }
        }
        let mut next: Vec<Pos> = Vec::with_capacity(10);
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = Pos::on(p.x + dx, p.y + dy, p.floor);
                if (dx, dy) == (0, 0) || out.reached.contains(&q) {
                    continue;
                }
                if let Some(k) = lock_of.get(&q)
                    && !held.contains(k)
                {
                    if corner_ok(&b, p, q) {
                        parked.insert(q);
                    }
                    continue;
                }
                if walk(&b, q) && b.step_geometry(p, q).is_ok() {
                    next.push(q);
                }
            }
        }
        if let Some(Tile::Stairs { to }) = b.tile(p) {
            next.push(Pos::on(p.x, p.y, to));
        }
        next.extend(links.get(&p).into_iter().flatten().copied());
        for q in next {
            if walk(&b, q) && out.reached.insert(q) {
                queue.push_back(q);
            }
        }
    }
    for d in parked {
        out.shut.push((d, lock_of[&d].clone()));
    }
    out.shut.sort_by_key(|(d, _)| (d.floor, d.y, d.x));
    out
}

/// A step into a door not squeezing diagonally between two spaces that block corners (G-01).
fn corner_ok(board: &Board, from: Pos, to: Pos) -> bool {
    if from.x == to.x || from.y == to.y {
        return true;
    }
    let blocks = |p: Pos| board.tile(p).is_none_or(|t| t.blocks_corner());
    !(blocks(Pos::on(to.x, from.y, from.floor)) && blocks(Pos::on(from.x, to.y, from.floor)))
}

/// The explorers' starts and goals of a crawl: (goal in words, the spaces that reach it).
fn goals(level: &Level) -> (Vec<Pos>, Vec<(String, Vec<Pos>)>) {
    let explorers: Vec<String> = if level.explorers.is_empty() {
        level.sides.first().map(|s| s.id.clone()).or_else(|| level.characters.first().and_then(|c| c.side.clone())).into_iter().collect()
    } else {
        level.explorers.clone()
    };
    let starts: Vec<Pos> = level.characters.iter().filter(|c| c.side.as_ref().is_some_and(|s| explorers.contains(s))).filter_map(|c| c.pos).collect();
    let mut out = Vec::new();
    for v in level.victory.iter().filter(|v| explorers.contains(&v.side)) {
        match &v.goal {
            Goal::ReachExit(exits) => out.extend(exits.iter().map(|e| (format!("exit {e}"), vec![*e]))),
            Goal::Defeat(id) => {
                if let Some(p) = level.characters.iter().find(|c| c.id.as_deref() == Some(id)).and_then(|c| c.pos) {
                    let near = (-1..=1).flat_map(|dy| (-1..=1).map(move |dx| Pos::on(p.x + dx, p.y + dy, p.floor))).collect();
                    out.push((format!("defeat '{id}'"), near));
                }
            }
            _ => {}
        }
    }
    (starts, out)
}

/// The proof that a crawl can be won by its explorers: from their starts, with every lock opened
/// in some order by keys reached before it, one of their goals (an exit of `ReachExit`, the
/// figure of `Defeat`) is reached. A level with no such goal (one fight, a survival) has
/// nothing to prove. The error names the goal and the doors left shut with their keys.
pub fn prove(level: &Level) -> Result<Proof, String> {
    let board = Board::from_rows(&rows(level)).map_err(|e| format!("the map cannot be built: {e}"))?;
    let (starts, goals) = goals(level);
    if level.mode != LevelMode::Exploration || goals.is_empty() {
        return Ok(Proof { keys: vec![], opened: vec![], reached: 0, goal: "nothing to prove".into() });
    }
    let r = reach_with_keys(level, &board, &starts);
    for (goal, spaces) in &goals {
        if spaces.iter().any(|s| r.reached.contains(s)) {
            return Ok(Proof { keys: r.keys, opened: r.opened, reached: r.reached.len(), goal: goal.clone() });
        }
    }
    Err(format!("no goal of the explorers can be reached ({}){}", goals.iter().map(|g| g.0.as_str()).collect::<Vec<_>>().join(", "), shut_words(&r.shut)))
}

/// `: the locked door at (x, y) waits for key 'k', which lies behind it`, for each door left shut.
pub fn shut_words(shut: &[(Pos, String)]) -> String {
    if shut.is_empty() {
        return String::new();
    }
    let doors: Vec<String> = shut.iter().take(4).map(|(d, k)| format!("the locked door at {d} waits for key '{k}'")).collect();
    format!(": {}, and the key is never reached (no key may lie behind its own door)", doors.join(", "))
}
