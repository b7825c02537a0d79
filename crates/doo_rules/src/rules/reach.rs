//! Cheapest walking paths from a figure (Dijkstra over the board, difficult ground counting two),
//! with the spaces that cannot be passed through given by the ruleset; the previews use them.

use super::grid::Pos;
use super::state::Match;
use pathfinding::prelude::dijkstra_reach;
use std::collections::HashMap;

/// `paths` with the rule of which spaces cannot be passed through given by `blocked` (DoO:
/// standing enemies; A4-G-01: any other figure).
pub fn cheapest_paths(m: &Match, a: usize, max: u32, blocked: &dyn Fn(&Pos) -> bool) -> Vec<(Pos, Vec<Pos>)> {
    let start = m.fighters[a].pos;
    let occ: HashMap<Pos, usize> = (0..m.fighters.len()).filter(|&i| !m.is_dead(i)).map(|i| (m.fighters[i].pos, i)).collect();
    let mut parent: HashMap<Pos, Pos> = HashMap::new();
    let mut found = Vec::new();
    let reach = dijkstra_reach(&start, |p: &Pos| {
        let p = *p;
        let mut next = Vec::with_capacity(8);
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = Pos::on(p.x + dx, p.y + dy, p.floor);
                if (dx, dy) != (0, 0) && m.board.step_geometry(p, q).is_ok() && !blocked(&q) {
                    next.push((q, m.board.path_cost(&[q])));
                }
            }
        }
        next
    });
    for item in reach {
        if item.total_cost > max {
            break;
        }
        if let Some(p) = item.parent {
            parent.insert(item.node, p);
            found.push(item.node);
        }
    }
    found
        .into_iter()
        .filter(|q| occ.get(q).is_none_or(|&o| o == a))
        .map(|q| {
            let mut path = vec![q];
            let mut at = q;
            while let Some(&p) = parent.get(&at) {
                if p == start {
                    break;
                }
                path.push(p);
                at = p;
            }
            path.reverse();
            (q, path)
        })
        .collect()
}
