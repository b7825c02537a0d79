//! The moves a one-step planner never proposes (issue 45), weighed by hard's lookahead beside
//! the planner's plans: keeping away from the enemies (session 6), and (session 9) the edge —
//! the space nearest them that none can strike in its next opportunity.

use super::opportunity::{Brief, Plan, Reach, Spot};
use super::value::Outlook;
use crate::rules::grid::Pos;
use crate::rules::profile::Posture;
use crate::rules::state::Match;

/// Moves that keep away (issue 45, hard's lookahead candidates): the spaces the figure can end
/// on farthest from its nearest able enemy, by free steps alone (0 AP) and with a movement
/// (fewest AP, no Defense given up first), when farther than where it stands. A one-step
/// planner never wants them; a player does, to make the enemy spend its AP closing in.
///
/// With `edge` (session 9), also the spaces nearest the enemies where none can strike the
/// figure in its next opportunity (`Outlook`: its free steps and AP, an archer's line of
/// sight), by free steps alone and with a movement: let the enemy come, and strike first.
pub(super) fn keep_away_plans(m: &Match, a: usize, brief: &Brief, edge: bool) -> Vec<Plan> {
    let f = &m.fighters[a];
    let enemies: Vec<Pos> = (0..m.fighters.len()).filter(|&e| m.enemies(a, e) && !m.is_dead(e) && m.can_act(e)).map(|e| m.fighters[e].pos).collect();
    if enemies.is_empty() || f.posture != Posture::Standing {
        return vec![];
    }
    let gap = |p: Pos| enemies.iter().map(|e| if e.floor == p.floor { e.distance(p) } else { u32::MAX / 2 }).min().unwrap_or(0);
    let here = gap(f.pos);
    let reach = Reach::new(m, a, brief);
    let mut out = Vec::new();
    for free_only in [true, false] {
        let best = reach
            .spots
            .iter()
            .filter(|s| !free_only || s.row.is_none())
            .filter(|s| gap(s.pos) > here)
            .min_by_key(|s| (std::cmp::Reverse(gap(s.pos)), s.ap, -s.pen, s.pos));
        if let Some(s) = best {
            out.push(plan_to(&reach, s));
        }
    }
    if edge {
        let outlook = Outlook::new(m, a);
        let safe: Vec<&Spot> = reach.spots.iter().filter(|s| s.pos != f.pos && outlook.incoming(m, s.pos, s.pen, None).1 <= 0.0).collect();
        for free_only in [true, false] {
            let best = safe.iter().filter(|s| !free_only || s.row.is_none()).min_by_key(|s| (gap(s.pos), s.ap, -s.pen, s.pos));
            if let Some(s) = best {
                out.push(plan_to(&reach, s));
            }
        }
    }
    out
}

/// The plan that ends the figure's movement on `s`, with no action.
fn plan_to(reach: &Reach, s: &Spot) -> Plan {
    let (free_path, movement) = match s.row {
        Some(k) => {
            let (root, path) = reach.moves[k].1.path(s.pos);
            (reach.free.path(root).1, Some((reach.moves[k].0.clone(), path, None)))
        }
        None => (reach.free.path(s.pos).1, None),
    };
    Plan { free: free_path, movement, action: None, score: 0.0 }
}
