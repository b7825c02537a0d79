//! The rest between levels (R-CP-13): a day's recuperation check, helped by a caregiver's
//! Healing (R-HEAL-8).

use super::book::HeroBook;
use crate::rules::dice::Dice;
use crate::rules::fighter::Stats;
use crate::rules::profile::Rank;

/// R-CP-13: one day's recuperation check of a hero at `hp` of `max_hp` (imperfect conditions,
/// CR from the data), helped by a caregiver's bonus (R-HEAL-8). Returns the HP gained.
pub fn recuperate(book: &HeroBook, dice: &mut Dice, stats: &Stats, bonus: i32) -> (i32, i32) {
    let roll = dice.check(stats.brawn.max(stats.nerve), bonus);
    let gained = crate::rules::checks::scaling_steps(roll.total - book.rest_cr) as i32;
    (gained, roll.total)
}

/// R-HEAL-8: a caregiver's bonus: his scaling Healing check (Savvy) against the patient's
/// injury CR (bruised, wounded, incapacitated, from the exploration data).
pub fn caregiver_bonus(dice: &mut Dice, savvy: u32, healing: Rank, hp: i32, max_hp: i32, crs: (i32, i32, i32)) -> i32 {
    let cr = if hp <= 0 {
        crs.2
    } else if 2 * hp >= max_hp {
        crs.0
    } else {
        crs.1
    };
    let roll = dice.check(savvy, healing.adjustment());
    crate::rules::checks::scaling_steps(roll.total - cr) as i32
}
