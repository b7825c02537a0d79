//! Exploration Mode (RULES.md §24, `R-EXP-*`): a crawl walks the dungeon a minute per turn,
//! opens doors, searches, picks locks, loots chests and springs traps, and drops into Crisis
//! Mode the moment something dangerous happens (R-EXP-24), then comes back (R-EXP-27).
//!
//! The state is [`Explore`] (`Match::explore`, `state.rs`). `rules::ruleset` takes it out of the
//! match once ([`with_crawl`]) and hands it to every function here: orders are ordinary
//! `Command`s checked by `validate` and carried out by `apply` (`Flow::Exploring`, or
//! `CrisisStarts` when a trigger fired, `crisis`); the end of a turn and its tasks are `turns`,
//! `tasks` and `items`; sight and the fog of war (R-EXP-19) are `sight`; what a hero may do now
//! is `preview`.

pub mod apply;
pub mod crisis;
pub mod crisis_orders;
pub mod items;
pub mod npc;
pub mod orders;
#[cfg(test)]
mod orders_tests;
pub mod preview;
mod preview_share;
#[cfg(test)]
mod preview_share_tests;
pub mod sight;
#[cfg(test)]
mod sight_tests;
pub mod state;
pub mod tasks;
#[cfg(test)]
mod tests;
pub mod turns;
pub mod validate;

use super::event::Event;
use super::grid::Pos;
use super::state::Match;

pub use crisis::join_crisis;
pub use preview::{next_hero, reachable_doors_and_items};
pub use sight::{ONE_PHASE_CRISIS, SideView, active_hostile, exploring, item_name, one_phase_crisis, side_view};
pub use state::*;
pub use validate::{check_door, check_drop, check_take, check_task};

/// Runs `f` on the match and its crawl, the crawl taken out of the match for the time so that
/// both can change (the one place a crawl is obtained for a change). `None` without a crawl.
pub fn with_crawl<R>(m: &mut Match, f: impl FnOnce(&mut Match, &mut Explore) -> R) -> Option<R> {
    let mut x = m.explore.take()?;
    let out = f(m, &mut x);
    m.explore = Some(x);
    Some(out)
}

/// R-EXP-19: the sides that see event `e` as the match stands now (right after the command
/// that caused it; `sight::witnesses`). `None` outside a crawl: there every side sees everything.
pub fn seen_by(m: &Match, e: &Event) -> Option<Vec<String>> {
    m.explore.as_deref().map(|x| sight::witnesses(m, x, e))
}

/// R-EXP-19, in both modes: what character `a` saw from each space of `path` is revealed for his
/// side (`sight::reveal_path`). Nothing outside a crawl.
pub fn reveal_path(m: &mut Match, a: usize, path: &[Pos], ev: &mut Vec<Event>) {
    with_crawl(m, |m, x| sight::reveal_path(m, x, a, path, ev));
}

/// R-EXP-27, G-41: character `a` fired or threw one shot of his ranged weapon's ammunition in a
/// crawl's crisis: counted, so that half of it comes back when the crisis ends. Nothing outside a
/// crawl.
pub fn count_shot(m: &mut Match, a: usize) {
    if let Some(x) = m.explore.as_deref_mut() {
        *x.orders.fired.entry(a).or_default() += 1;
    }
}

/// R-EXP-3: no hero of `side` has acted yet in this exploration turn (a minute ending now would
/// pass with nobody doing anything; the window asks before it lets one go, issue 43).
pub fn idle_minute(m: &Match, side: &str) -> bool {
    let Some(x) = m.explore.as_deref().filter(|_| exploring(m)) else { return false };
    (0..m.fighters.len()).filter(|&i| x.is_explorer(m, i) && m.fighters[i].side == side).all(|i| matches!(x.acted.get(i), None | Some(Acted::No)))
        && x.tasks.is_empty()
}
