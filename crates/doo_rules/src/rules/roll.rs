//! Rolls written to the log: a roll becomes an `Event::Dice` (with the named parts of its
//! adjustment), and a stat's check roll (R-CHK-3, C-03). Every rule that throws dice uses these.

use super::dice::{Dice, Roll};
use super::event::{Event, Text};
use super::profile::StatDice;
use super::state::Match;

/// Logs a roll as an event and returns its total.
pub fn log_roll(ev: &mut Vec<Event>, dice: &mut Dice, actor: &str, purpose: impl Into<Text>, roll: Roll) -> i32 {
    log_roll_parts(ev, dice, actor, purpose, roll, Vec::new())
}

/// As `log_roll`, naming each part of the adjustment. (`purpose`: a `&'static str` is kept
/// without a copy.)
pub fn log_roll_parts(ev: &mut Vec<Event>, dice: &mut Dice, actor: &str, purpose: impl Into<Text>, roll: Roll, parts: Parts) -> i32 {
    for (face, rank) in dice.rejected_forced.drain(..) {
        ev.push(Event::ForcedFaceRejected { face, rank });
    }
    let t = roll.total;
    let mut parts = parts;
    parts.retain(|p| p.1 != 0);
    ev.push(Event::Dice { actor: actor.into(), purpose: purpose.into(), roll, parts });
    t
}

/// Named adjustments (source, value), summed into a roll; the names mostly the rules'
/// constants (`Text`).
pub type Parts = Vec<(Text, i32)>;

pub fn sum(parts: &Parts) -> i32 {
    parts.iter().map(|p| p.1).sum()
}

/// A stat's check roll: two exploding dice (R-CHK-3), or the legacy 2d(next even)−1 (C-03).
pub fn stat_check(m: &Match, dice: &mut Dice, rank: u32, adjustment: i32) -> Roll {
    if m.rules.options.stat_dice == StatDice::LegacyTable && rank % 2 == 1 {
        dice.roll(2, rank + 1, true, adjustment - 1)
    } else {
        dice.check(rank, adjustment)
    }
}
