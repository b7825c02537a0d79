//! Ruleset A4, the round-based system of seed 004 (`A4-*` in ALT-RULESET-004.md, decisions in
//! docs/ruleset-a4.md): initiative each round, standard / move / minor slots, attacks of
//! opportunity, reactive and full defence, d6 pools with pips against target numbers. It runs on
//! the same `Match`, board, equipment, command path and Bevy states as the DoO profiles: a match
//! is under A4 when `Match::a4` is set, and `rules::ruleset` hands its commands and its round
//! flow to this module, with the A4 state (`state::A4`) obtained once ([`with_a4`]). Every
//! number comes from `assets/rules/a4.ron` (`book::A4Book`).
//!
//! `check` validates an act, `acts` carries it out and `steps` plays the steps it queues,
//! `strike` throws an attack, `round` is initiative and the round, `stats` a figure's numbers,
//! `preview` what a player may do now. The functions below answer the window, the AI and the
//! scripts for a match, A4 or not.

pub mod acts;
pub mod book;
pub mod check;
#[cfg(test)]
mod forecast_tests;
pub mod pool;
pub mod preview;
pub mod round;
pub mod slots;
pub mod state;
pub mod stats;
pub mod steps;
pub mod strike;
#[cfg(test)]
mod tests;

use super::grid::Pos;
use super::state::Match;
use book::A4Book;

pub use state::{A4, AttackSpec, RoundState, Task};
pub use stats::{Odds, attack_skill, in_melee, weapon_damage};

/// Runs `f` on the match and its A4 state, the state taken out of the match for the time so
/// that both can change (the one place the A4 state is obtained for a change). `None` under the
/// DoO profiles.
pub fn with_a4<R>(m: &mut Match, f: impl FnOnce(&mut Match, &mut A4) -> R) -> Option<R> {
    let mut s = m.a4.take()?;
    let out = f(m, &mut s);
    m.a4 = Some(s);
    Some(out)
}

/// The A4 book of the match, if it plays under A4.
pub fn book(m: &Match) -> Option<&A4Book> {
    m.a4.as_deref().map(|x| &*x.book)
}

/// A round with nothing in it: what [`st`] answers outside an A4 match.
static NO_ROUND: RoundState = RoundState {
    initiative: 0,
    tie: 0,
    delayed: false,
    standard: false,
    move_: false,
    minor: false,
    counted: 0,
    stepped: false,
    moved: false,
    moved_squares: 0,
    done: false,
    flat_footed: false,
    surprised: false,
    aoo: 0,
    reactive: 0,
    penalty_now: 0,
    penalty_next: 0,
    full_defense: None,
    charged: false,
    moving_defense: None,
    hold: None,
    sheathed: false,
};

/// Figure `i`'s round (an empty one outside an A4 match).
pub fn st(m: &Match, i: usize) -> &RoundState {
    m.a4.as_deref().map_or(&NO_ROUND, |s| &s.figs[i])
}

/// The penalty dice on `i`'s own rolls now (A4-G-04, A4-G-21).
pub fn penalty_dice(m: &Match, i: usize) -> i32 {
    m.a4.as_deref().map_or(0, |s| stats::penalty_dice(s, i))
}

/// A4-1.3, A4-G-02, A4-G-03: squares per move action (0 outside an A4 match).
pub fn speed(m: &Match, i: usize) -> u32 {
    m.a4.as_deref().map_or(0, |s| stats::speed(m, s, i))
}

/// A4-G-22: `x` threatens square `s`.
pub fn threatens(m: &Match, x: usize, s: Pos) -> bool {
    m.a4.as_deref().is_some_and(|a4| stats::threatens(m, a4, x, s))
}

/// A4-4.1, A4-4.2: the enemies of `mover` who threaten `s` and still have an attack of
/// opportunity this round, in initiative order.
pub fn threateners(m: &Match, mover: usize, s: Pos) -> Vec<usize> {
    m.a4.as_deref().map(|a4| stats::threateners(m, a4, mover, s)).unwrap_or_default()
}

/// The target number of an attack by `a` on `t`, with its parts; `None` out of range or sight.
pub fn target_number(m: &Match, a: usize, t: usize) -> Option<(i32, Vec<(String, i32)>)> {
    stats::target_number(m, m.a4.as_deref()?, a, t)
}

/// What an attack by `a` on `t` would likely do now (A4-6.2, A4-6.6).
pub fn odds(m: &Match, a: usize, t: usize, extra_dice: i32) -> Option<Odds> {
    stats::odds(m, m.a4.as_deref()?, a, t, extra_dice)
}

/// What a charge by `a` at `t` would likely do now: the attack from the charge's last square at
/// its extra dice (A4-3.2, A4-G-08); `None` when no straight charge reaches `t`.
pub fn charge_odds(m: &Match, a: usize, t: usize) -> Option<Odds> {
    let a4 = m.a4.as_deref()?;
    let path = check::charge_path(m, a4, a, t)?;
    let at = *path.last()?;
    stats::odds_at(m, a4, a, at, t, a4.book.movement.charge_attack_dice)
}

/// A full attack by `a` on `t` (A4-3.14, A4-G-05): how many attacks, and the odds of each (every
/// one at the row's penalty dice).
pub fn full_attack_odds(m: &Match, a: usize, t: usize) -> Option<(u32, Odds)> {
    let a4 = m.a4.as_deref()?;
    let row = stats::full_attack_row(m, a4, a);
    Some((row.attacks, stats::odds(m, a4, a, t, -row.penalty_dice)?))
}
