//! §3 checks: success against a challenge rating, ranks of success and failure, opposed and
//! assisted attempts.

use super::dice::{Dice, Roll};
use super::profile::Assist;

/// R-CHK-3: a check succeeds when its total reaches the CR.
pub fn succeeds(total: i32, cr: i32) -> bool {
    total >= cr
}

/// R-CHK-4: ranks of success (margin ≥ 0) or failure: 1 + floor(|margin| / 3), failure counted from −1.
pub fn ranks(margin: i32) -> (bool, u32) {
    if margin >= 0 { (true, 1 + margin as u32 / 3) } else { (false, 1 + (-margin) as u32 / 3) }
}

/// R-CHK-2: trivial tasks succeed without a roll unless they scale, criticals matter or the moment is dramatic.
pub fn needs_roll(cr: i32, trivial_cr: i32, scaling_or_dramatic: bool) -> bool {
    cr > trivial_cr || scaling_or_dramatic
}

/// The result of an opposed attempt (R-CHK-6).
#[derive(Clone, Debug, PartialEq)]
pub struct Opposed {
    pub target: Roll,
    pub instigator: Roll,
    /// Ties go to the instigator.
    pub instigator_wins: bool,
}

/// R-CHK-6: the target rolls first and sets the CR; the instigator must equal or beat it.
pub fn opposed(dice: &mut Dice, target: (u32, i32), instigator: (u32, i32)) -> Opposed {
    let t = dice.check(target.0, target.1);
    let i = dice.check(instigator.0, instigator.1);
    let wins = succeeds(i.total, t.total);
    Opposed { target: t, instigator: i, instigator_wins: wins }
}

/// R-CHK-7 / C-34: what a helper's check adds to the instigator's.
/// Core text: CR = the instigator's stat value; meeting it gives +1, each further 2 points +1.
/// Reference sheet: +1 per rank of success; failing by two ranks or more costs −1.
pub fn assist_bonus(mode: Assist, helper_total: i32, instigator_stat: i32) -> i32 {
    let margin = helper_total - instigator_stat;
    match mode {
        Assist::CoreText => {
            if margin < 0 {
                0
            } else {
                1 + margin / 2
            }
        }
        Assist::ReferenceSheet => match ranks(margin) {
            (true, r) => r as i32,
            (false, r) if r >= 2 => -1,
            _ => 0,
        },
    }
}

/// R-CHK-8: a scaling challenge yields one step of effect per rank of success.
pub fn scaling_steps(margin: i32) -> u32 {
    match ranks(margin) {
        (true, r) => r,
        _ => 0,
    }
}

/// R-CHK-9: an effect roll is one exploding die of the check stat.
pub fn effect_roll(dice: &mut Dice, stat: u32) -> Roll {
    dice.roll(1, stat, true, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test] // R-CHK-3, R-CHK-4: success at total ≥ CR; ranks 0..2 → 1, 3..5 → 2; failures counted from −1
    fn ranks_of_success_and_failure() {
        assert!(succeeds(9, 9) && !succeeds(8, 9));
        let r: Vec<(bool, u32)> = [0, 2, 3, 5, 6, 9, 11, -1, -2, -3, -5, -6, -9].iter().map(|&m| ranks(m)).collect();
        assert_eq!(
            r,
            vec![
                (true, 1),
                (true, 1),
                (true, 2),
                (true, 2),
                (true, 3),
                (true, 4),
                (true, 4),
                (false, 1),
                (false, 1),
                (false, 2),
                (false, 2),
                (false, 3),
                (false, 4)
            ]
        );
    }

    #[test] // R-CHK-2: trivial tasks need no roll unless scaling, critical or dramatic
    fn trivial_tasks() {
        assert!(!needs_roll(3, 3, false));
        assert!(needs_roll(3, 3, true));
        assert!(needs_roll(6, 3, false));
    }

    #[test] // R-CHK-6: the target rolls first; ties go to the instigator
    fn opposed_ties_to_instigator() {
        let mut d = Dice::seeded(1);
        d.force([3, 4, 5, 2]);
        let o = opposed(&mut d, (6, 0), (6, 0));
        assert_eq!((o.target.total, o.instigator.total, o.instigator_wins), (7, 7, true));
        d.force([3, 4, 5, 1]);
        assert!(!opposed(&mut d, (6, 0), (6, 0)).instigator_wins);
    }

    #[test] // R-CHK-7, C-34: assisted attempts, both readings
    fn assisted_attempts() {
        assert_eq!([6, 7, 8, 9, 10, 5].map(|t| assist_bonus(Assist::CoreText, t, 7)), [0, 1, 1, 2, 2, 0]);
        assert_eq!([7, 10, 5, 4].map(|t| assist_bonus(Assist::ReferenceSheet, t, 7)), [1, 2, 0, -1]);
    }

    #[test] // R-CHK-8, R-CHK-9: scaling steps by rank; an effect roll is one exploding stat die
    fn scaling_and_effect() {
        assert_eq!([-1, 0, 3, 7].map(scaling_steps), [0, 1, 2, 3]);
        let mut d = Dice::seeded(2);
        d.force([8, 3]);
        assert_eq!(effect_roll(&mut d, 8).total, 11);
    }
}
