//! A figure's orders (issue 45, `rules::directives`) as one more input to the opportunity
//! planner: which spaces it may end its move on, which targets it may attack from where, the
//! targets it prefers, and the space it heads for when it does not attack. Worked out once per
//! decision (at most one distance field, as the exits' heuristic has); the plans stay legal
//! commands the rules validate.

use super::search;
use crate::rules::directives::{self, Orders, Prey};
use crate::rules::grid::Pos;
use crate::rules::state::Match;
use crate::rules::story::Area;
use std::collections::BTreeMap;

/// What the orders ask of one opportunity.
pub(super) struct Steer {
    /// Where the figure stands now.
    here: Pos,
    /// The figure may not leave its space (an ambush; a held space reached).
    pub(super) still: bool,
    /// Guard: the area it keeps to (attacks from outside only at heroes inside it).
    area: Option<Area>,
    /// Bodyguard: the figure it keeps next to (when a space next to it can be reached).
    ward: Option<usize>,
    ward_reachable: bool,
    /// Steps to where it heads when not attacking (the area, the route's next space, the held
    /// space, the ward, the refuge, the prey).
    goal: Option<BTreeMap<Pos, u32>>,
    /// Flee: no attack unless cornered (no space that brings it nearer the refuge).
    fleeing: bool,
    cornered: bool,
    /// Hold: on its way to the held space it attacks only where that does not take it back.
    holding_on_way: bool,
    /// Targets preferred (hunt: the prey; bodyguard: who stands next to the ward).
    prefer: Vec<usize>,
    /// Hunt: other targets only when no space it can reach brings it nearer the prey.
    hunting: bool,
    /// Some space it can end on brings it nearer where it heads.
    progress: bool,
}

/// A preferred target's bonus over the others' scores.
const PREFER: f64 = 4.0;

impl Steer {
    /// The steer of figure `a`'s orders now, if they ask anything of this opportunity.
    pub(super) fn new(m: &Match, a: usize) -> Option<Steer> {
        let o = directives::of(m, a)?;
        let f = &m.fighters[a];
        let here = f.pos;
        let mut s = Steer {
            here,
            still: false,
            area: None,
            ward: None,
            ward_reachable: false,
            goal: None,
            fleeing: false,
            cornered: false,
            holding_on_way: false,
            prefer: vec![],
            hunting: false,
            progress: false,
        };
        let heroes: Vec<usize> = (0..m.fighters.len()).filter(|&h| directives::hero_to(m, a, h)).collect();
        match o {
            Orders::Guard { area } => {
                s.area = Some(*area);
                if !area.contains(here) {
                    let spaces: Vec<Pos> = area.spaces(m.board.spaces()).into_iter().filter(|&p| m.board.walkable(p)).collect();
                    s.goal = Some(search::distance_field(m, &spaces));
                }
            }
            Orders::Patrol { route } => {
                if route.is_empty() || directives::sees_hero(m, a) {
                    return None;
                }
                let next = route[directives::leg(m, a) as usize % route.len()];
                s.goal = Some(search::distance_field(m, &[next]));
            }
            Orders::Ambush { .. } => s.still = true,
            Orders::Hold { at } => {
                if here == *at {
                    s.still = true;
                } else {
                    s.goal = Some(search::distance_field(m, &[*at]));
                    s.holding_on_way = true;
                }
            }
            Orders::Bodyguard { figure } => {
                let w = m.index(figure).filter(|&w| !m.is_dead(w) && m.fighters[w].hp > 0 && m.fighters[w].pos.floor == here.floor)?;
                s.ward = Some(w);
                let wp = m.fighters[w].pos;
                s.goal = Some(search::distance_field(m, &[wp]));
                s.prefer = heroes.iter().copied().filter(|&h| m.fighters[h].pos.distance(wp) <= 1).collect();
            }
            Orders::Flee { to, below } => {
                if (f.hp as i64) * 100 >= (f.max_hp as i64) * (*below as i64) {
                    return None;
                }
                s.fleeing = true;
                s.goal = Some(search::distance_field(m, &[*to]));
            }
            Orders::Hunt { prey } => {
                s.prefer = match prey {
                    Prey::Weakest => heroes.iter().copied().min_by_key(|&h| (m.fighters[h].hp, h)).into_iter().collect(),
                    Prey::Carrier(item) => heroes.iter().copied().filter(|&h| m.fighters[h].loadout.items.iter().any(|i| i == item)).collect(),
                };
                if s.prefer.is_empty() {
                    return None;
                }
                s.hunting = true;
                let at: Vec<Pos> = s.prefer.iter().map(|&h| m.fighters[h].pos).collect();
                s.goal = Some(search::distance_field(m, &at));
            }
            Orders::CallForHelp { .. } => return None,
        }
        Some(s)
    }

    /// Fits the steer to the spaces the figure can end on this opportunity: whether it can
    /// reach a space next to its ward, whether a fleeing figure is cornered.
    pub(super) fn fit(&mut self, m: &Match, spots: impl Iterator<Item = Pos>) {
        let ward = self.ward.map(|w| m.fighters[w].pos);
        let now = self.dist(self.here);
        let mut progress = false;
        for p in spots {
            if ward.is_some_and(|w| w.distance(p) <= 1) {
                self.ward_reachable = true;
            }
            progress |= self.dist(p) < now;
        }
        self.cornered = self.fleeing && !progress;
        self.progress = progress;
    }

    /// Steps from `p` to where it heads (`u32::MAX`: no way, or nowhere to head).
    pub(super) fn dist(&self, p: Pos) -> u32 {
        self.goal.as_ref().and_then(|g| g.get(&p).copied()).unwrap_or(u32::MAX)
    }

    /// Whether it heads somewhere when it does not attack.
    pub(super) fn heads(&self) -> bool {
        self.goal.is_some() && !(self.ward.is_some() && self.ward_reachable)
    }

    /// Whether the figure may end its move on `p` without attacking.
    pub(super) fn may_end(&self, m: &Match, p: Pos) -> bool {
        if self.still {
            return p == self.here;
        }
        if self.fleeing {
            return self.dist(p) <= self.dist(self.here); // never away from the refuge
        }
        if let Some(area) = &self.area {
            return area.contains(p) || (!area.contains(self.here) && self.dist(p) < self.dist(self.here));
        }
        if let (Some(w), true) = (self.ward, self.ward_reachable) {
            return m.fighters[w].pos.distance(p) <= 1;
        }
        true
    }

    /// Whether the figure may attack `t` from `p`.
    pub(super) fn may_attack(&self, m: &Match, p: Pos, t: usize) -> bool {
        if self.fleeing && (!self.cornered || self.dist(p) > self.dist(self.here)) {
            return false;
        }
        if self.hunting && self.progress && !self.prefer.contains(&t) {
            return false;
        }
        if self.still {
            return p == self.here;
        }
        if let Some(area) = &self.area {
            return area.contains(p) || area.contains(m.fighters[t].pos);
        }
        if self.holding_on_way {
            return self.dist(p) <= self.dist(self.here);
        }
        if let (Some(w), true) = (self.ward, self.ward_reachable) {
            return m.fighters[w].pos.distance(p) <= 1;
        }
        true
    }

    /// The bonus of ending a move on `p`: a bodyguard coming next to its ward.
    pub(super) fn arrival(&self, m: &Match, p: Pos) -> f64 {
        match self.ward {
            Some(w) if m.fighters[w].pos.distance(self.here) > 1 && m.fighters[w].pos.distance(p) <= 1 => PREFER,
            _ => 0.0,
        }
    }

    /// The bonus of attacking `t` (a preferred target).
    pub(super) fn bonus(&self, t: usize) -> f64 {
        if self.prefer.contains(&t) { PREFER } else { 0.0 }
    }
}
