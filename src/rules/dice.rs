//! Dice (§2): single throws kept apart from explosion and adjustment logic (R-DICE-9),
//! one seeded ChaCha RNG, and a queue of forced faces consumed first.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::collections::VecDeque;

/// The only source of randomness in a match: forced faces first, then the seeded RNG.
#[derive(Clone, Debug)]
pub struct Dice {
    rng: ChaCha8Rng,
    forced: VecDeque<u32>,
    /// Forced faces that did not fit the die they were used for (reported, then ignored).
    pub rejected_forced: Vec<(u32, u32)>,
}

/// One die of a roll, with every face it showed (more than one when it exploded).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DieThrow {
    pub faces: Vec<u32>,
}

impl DieThrow {
    pub fn total(&self) -> i32 {
        self.faces.iter().map(|&f| f as i32).sum()
    }
}

/// A whole roll: N dice of one rank, exploding or not, plus an adjustment after the throw (R-DICE-6).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Roll {
    pub rank: u32,
    pub exploding: bool,
    pub dice: Vec<DieThrow>,
    pub adjustment: i32,
    pub total: i32,
}

impl Dice {
    pub fn seeded(seed: u64) -> Self {
        Self { rng: ChaCha8Rng::seed_from_u64(seed), forced: VecDeque::new(), rejected_forced: Vec::new() }
    }

    /// Adds faces to be used, in order, before the RNG (scripts, tests).
    pub fn force(&mut self, faces: impl IntoIterator<Item = u32>) {
        self.forced.extend(faces);
    }

    pub fn forced_remaining(&self) -> usize {
        self.forced.len()
    }

    /// One throw of a true uniform die of `rank` (R-DICE-4 default, R-DICE-7: d1 is always 1).
    pub fn throw(&mut self, rank: u32) -> u32 {
        let rank = rank.max(1);
        if let Some(face) = self.forced.pop_front() {
            if (1..=rank).contains(&face) {
                return face;
            }
            self.rejected_forced.push((face, rank));
        }
        if rank == 1 { 1 } else { self.rng.random_range(1..=rank) }
    }

    /// `n` dice of `rank`, each exploding on its own when `exploding` (R-DICE-2), plus `adjustment`.
    pub fn roll(&mut self, n: u32, rank: u32, exploding: bool, adjustment: i32) -> Roll {
        let rank = rank.max(1); // R-DICE-7
        let mut dice = Vec::with_capacity(n as usize);
        for _ in 0..n {
            let mut faces = vec![self.throw(rank)];
            // R-DICE-7: a d1 never explodes.
            while exploding && rank > 1 && *faces.last().unwrap_or(&0) == rank {
                faces.push(self.throw(rank));
            }
            dice.push(DieThrow { faces });
        }
        let total = dice.iter().map(DieThrow::total).sum::<i32>() + adjustment;
        Roll { rank, exploding, dice, adjustment, total }
    }

    /// A check roll: two exploding dice of the stat's rank plus adjustments (R-CHK-3).
    pub fn check(&mut self, rank: u32, adjustment: i32) -> Roll {
        self.roll(2, rank, true, adjustment)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test] // R-DICE-2: 2d6!+1 throwing 3 and 6, the 6 re-thrown shows 6 then 2 → 18
    fn exploding_example_from_the_rules() {
        let mut d = Dice::seeded(0);
        d.force([3, 6, 6, 2]);
        let r = d.roll(2, 6, true, 1);
        assert_eq!(r.total, 18);
        assert_eq!(r.dice[1].faces, vec![6, 6, 2]);
    }

    #[test] // R-DICE-7: d1 gives 1 and never explodes
    fn d1_never_explodes() {
        let mut d = Dice::seeded(1);
        let r = d.roll(3, 0, true, 0);
        assert_eq!(r.rank, 1);
        assert_eq!(r.total, 3);
    }

    #[test] // R-DICE-9: forced faces out of range are reported, not used
    fn out_of_range_forced_face_is_rejected() {
        let mut d = Dice::seeded(2);
        d.force([9]);
        let f = d.throw(6);
        assert!((1..=6).contains(&f));
        assert_eq!(d.rejected_forced, vec![(9, 6)]);
    }

    #[test] // R-DICE-4: true uniform odd ranks stay in range and reach the top face
    fn odd_rank_uniform_range() {
        let mut d = Dice::seeded(3);
        let mut seen = [0u32; 8];
        for _ in 0..7000 {
            seen[d.throw(7) as usize] += 1;
        }
        assert_eq!(seen[0], 0);
        for face in 1..=7 {
            assert!(seen[face] > 800, "face {face} seen {} times", seen[face]);
        }
    }
}
