//! Paths for the AI explorer (`explore.rs`, `party.rs`): a shortest way over the spaces a test
//! lets through (doors straight in, no corner cutting, G-01), and the part of it one
//! exploration move walks this turn (R-EXP-5), checked by the rules.

use crate::rules::command::Command;
use crate::rules::engine;
use crate::rules::explore::{Acted, Explore};
use crate::rules::grid::{Pos, Tile};
use crate::rules::state::Match;

/// A shortest path (spaces entered) from `from` to a space where `goal` holds, through
/// `passable` spaces (doors count as passable: they are opened on the way).
pub(super) fn route(m: &Match, from: Pos, passable: &dyn Fn(Pos) -> bool, goal: &dyn Fn(Pos) -> bool) -> Option<Vec<Pos>> {
    let succ = |p: &Pos| -> Vec<(Pos, u32)> {
        let mut out = Vec::with_capacity(8);
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = Pos::on(p.x + dx, p.y + dy, p.floor);
                if (dx, dy) == (0, 0) || !passable(q) {
                    continue;
                }
                // Doors: straight in only; no corner cutting (G-01).
                let door = matches!(m.board.tile(q), Some(Tile::DoorClosed | Tile::DoorLocked));
                if door && dx != 0 && dy != 0 {
                    continue;
                }
                if dx != 0 && dy != 0 {
                    let a = m.board.tile(Pos::on(q.x, p.y, p.floor)).is_none_or(|t| t.blocks_corner());
                    let b = m.board.tile(Pos::on(p.x, q.y, p.floor)).is_none_or(|t| t.blocks_corner());
                    if a && b {
                        continue;
                    }
                }
                out.push((q, m.board.path_cost(&[q]) + if door { 2 } else { 0 }));
            }
        }
        out
    };
    if goal(from) {
        return Some(Vec::new());
    }
    let (path, _) = pathfinding::directed::dijkstra::dijkstra(&from, succ, |p| goal(*p))?;
    Some(path.into_iter().skip(1).collect())
}

/// Walks as much of `path` as the move allows, stopping before a door.
pub(super) fn walk_prefix(m: &Match, x: &Explore, a: usize, path: &[Pos]) -> Option<Command> {
    let left = match x.acted[a] {
        Acted::No => x.book.move_spaces,
        Acted::Moving(u) => x.book.move_spaces.saturating_sub(u),
        Acted::Done => 0,
    };
    let mut take = Vec::new();
    let mut cost = 0;
    for &p in path {
        if matches!(m.board.tile(p), Some(Tile::DoorClosed | Tile::DoorLocked)) {
            break;
        }
        let c = m.board.path_cost(&[p]);
        if cost + c > left {
            break;
        }
        cost += c;
        take.push(p);
    }
    // Never end on a figure: shorten until legal.
    let group = x.groups.iter().any(|g| g.first() == Some(&a) && g.len() > 1);
    while !take.is_empty() {
        let c = Command::Walk { actor: m.fighters[a].id.clone(), path: take.clone(), group };
        if engine::validate(m, &c).is_ok() {
            return Some(c);
        }
        take.pop();
    }
    None
}
