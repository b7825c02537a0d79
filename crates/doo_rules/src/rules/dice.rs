//! Dice (§2): single throws kept apart from explosion and adjustment logic (R-DICE-9),
//! one seeded ChaCha RNG, and a queue of forced faces consumed first.

use super::profile::OddDice;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use smallvec::SmallVec;
use std::collections::VecDeque;

/// The only source of randomness in a match: forced faces first, then the seeded RNG.
#[derive(Clone, Debug)]
pub struct Dice {
    rng: ChaCha8Rng,
    forced: VecDeque<u32>,
    /// Forced faces that did not fit the die they were used for (reported, then ignored).
    pub rejected_forced: Vec<(u32, u32)>,
    /// R-DICE-4: true dice of every rank, or the rules' emulation of odd ranks with common dice.
    pub odd: OddDice,
    /// R-DICE-5: substitutes for ranks 13–18 (`large_dice = table`); empty: true dice.
    pub large: Vec<LargeDie>,
}

/// One row of `data/large-dice.yml`: what to throw instead of 1, 2, 3 or 4 dice of `rank`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LargeDie {
    pub rank: u32,
    /// `[(count, rank, adjustment); 4]` for one to four dice.
    pub substitutes: Vec<(u32, u32, i32)>,
}

/// One die of a roll, with every value it counted (more than one when it exploded).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DieThrow {
    /// The faces shown, the first and those it exploded into: two kept inline (issue 44),
    /// serialized as a list (as a `Vec` is).
    #[serde(serialize_with = "faces_list")]
    pub faces: SmallVec<[u32; 2]>,
    /// With emulated odd dice (R-DICE-4): the faces of the common die actually thrown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thrown: Option<Vec<u32>>,
}

/// A die's faces as the list they are (`DieThrow::faces`).
fn faces_list<S: serde::Serializer>(faces: &SmallVec<[u32; 2]>, s: S) -> Result<S::Ok, S::Error> {
    faces.as_slice().serialize(s)
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
    /// R-DICE-5: the `NdR` this roll replaced from the large-dice table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub substitutes_for: Option<(u32, u32)>,
    /// R-DICE-8: the discarded set when rolled with advantage or disadvantage.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub discarded: Option<Box<Roll>>,
}

/// R-DICE-8 (option `adv_disadv`): throw two full sets, keep the better or the worse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    Advantage,
    Disadvantage,
}

impl Dice {
    pub fn seeded(seed: u64) -> Self {
        Self { rng: ChaCha8Rng::seed_from_u64(seed), forced: VecDeque::new(), rejected_forced: Vec::new(), odd: OddDice::TrueUniform, large: Vec::new() }
    }

    /// Adds faces to be used, in order, before the RNG (scripts, tests).
    pub fn force(&mut self, faces: impl IntoIterator<Item = u32>) {
        self.forced.extend(faces);
    }

    pub fn forced_remaining(&self) -> usize {
        self.forced.len()
    }

    /// Where the dice stand: words drawn from the generator, and forced faces left (for the
    /// state hash of saves and replays).
    pub fn position(&self) -> (u128, usize) {
        (self.rng.get_word_pos(), self.forced.len())
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

    /// One die as it counts: its value and whether it explodes (R-DICE-2, R-DICE-4, R-DICE-7).
    fn die(&mut self, rank: u32) -> (u32, u32, bool) {
        let emulate = self.odd == OddDice::EmulatePhysical;
        match rank {
            1 => {
                // R-DICE-7: d1 is 1 and never explodes; the throw still takes a forced face (a 1;
                // anything else is rejected like any out-of-range face).
                let f = self.throw(1);
                (f, f, false)
            }
            2 if emulate => {
                let f = self.throw(6);
                let v = if f <= 3 { 1 } else { 2 };
                (v, f, v == 2)
            }
            3 if emulate => {
                let f = self.throw(6);
                let v = f.div_ceil(2);
                (v, f, v == 3)
            }
            5 | 7 | 9 | 11 | 19 if emulate => {
                // The next larger die; its top face counts as the middle value; explodes on the odd rank.
                let f = self.throw(rank + 1);
                let v = if f == rank + 1 { rank.div_ceil(2) } else { f };
                (v, f, f == rank)
            }
            _ => {
                let f = self.throw(rank);
                (f, f, f == rank)
            }
        }
    }

    /// `n` dice of `rank`, each exploding on its own when `exploding` (R-DICE-2), plus `adjustment`.
    pub fn roll(&mut self, n: u32, rank: u32, exploding: bool, adjustment: i32) -> Roll {
        let rank = rank.max(1); // R-DICE-7
        if (13..=18).contains(&rank) && (1..=4).contains(&n) {
            if let Some((count, sub, adj)) = self.large.iter().find(|l| l.rank == rank).and_then(|l| l.substitutes.get(n as usize - 1)).copied() {
                // R-DICE-5: each substitute die explodes on its own.
                let mut r = self.roll(count, sub, exploding, adjustment + adj);
                r.substitutes_for = Some((n, rank));
                return r;
            }
        }
        let emulated = self.odd == OddDice::EmulatePhysical && matches!(rank, 2 | 3 | 5 | 7 | 9 | 11 | 19);
        let mut dice = Vec::with_capacity(n as usize);
        for _ in 0..n {
            // The thrown faces are kept only for emulated dice (issue 44: no allocation else).
            let (mut faces, mut thrown) = (SmallVec::new(), Vec::new());
            loop {
                let (value, face, explodes) = self.die(rank);
                faces.push(value);
                if emulated {
                    thrown.push(face);
                }
                if !(exploding && explodes) {
                    break;
                }
            }
            dice.push(DieThrow { faces, thrown: emulated.then_some(thrown) });
        }
        let total = dice.iter().map(DieThrow::total).sum::<i32>() + adjustment;
        Roll { rank, exploding, dice, adjustment, total, substitutes_for: None, discarded: None }
    }

    /// R-DICE-8: two full sets, keeping the better (advantage) or the worse (disadvantage).
    pub fn roll_with_edge(&mut self, n: u32, rank: u32, exploding: bool, adjustment: i32, edge: Edge) -> Roll {
        let a = self.roll(n, rank, exploding, adjustment);
        let b = self.roll(n, rank, exploding, adjustment);
        let a_wins = match edge {
            Edge::Advantage => a.total >= b.total,
            Edge::Disadvantage => a.total <= b.total,
        };
        let (mut keep, drop) = if a_wins { (a, b) } else { (b, a) };
        keep.discarded = Some(Box::new(drop));
        keep
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
        assert_eq!(r.dice[1].faces.to_vec(), vec![6, 6, 2]);
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

    #[test] // R-DICE-7, R-DICE-9: a d1 throw takes a forced face like every throw; a face above 1 is rejected and the die shows 1
    fn d1_takes_a_forced_face() {
        let mut d = Dice::seeded(4);
        d.force([1, 5, 3]);
        let r = d.roll(2, 1, true, 0);
        assert_eq!((r.total, r.dice[0].faces.to_vec(), r.dice[1].faces.to_vec()), (2, vec![1], vec![1]), "a d1 shows 1 and never explodes");
        assert_eq!(d.rejected_forced, vec![(5, 1)], "the 5 does not fit a d1");
        assert_eq!(d.forced_remaining(), 1, "each d1 throw used up one forced face");
        assert_eq!(d.throw(6), 3, "the next throw gets the next face");
        // rank 0 is a d1 too
        d.force([1]);
        assert_eq!(d.roll(1, 0, false, 0).total, 1);
        assert_eq!(d.forced_remaining(), 0);
    }

    /// Exact mean of one exploding die of rank r: (r+1)/2 · r/(r−1).
    fn exploding_mean(r: f64) -> f64 {
        (r + 1.0) / 2.0 * r / (r - 1.0)
    }

    #[test] // R-DICE-2, R-DICE-3: exploding means match the exact value; an off-by-one (exploding on r−1, or not at all) would not
    fn exploding_means() {
        let mut d = Dice::seeded(11);
        for r in [4u32, 6, 7, 9, 12] {
            let n = 200_000;
            let sum: i64 = (0..n).map(|_| d.roll(1, r, true, 0).total as i64).sum();
            let mean = sum as f64 / n as f64;
            let want = exploding_mean(r as f64);
            assert!((mean - want).abs() < 0.03, "d{r}!: mean {mean:.3}, exact {want:.3}");
            let plain = (r as f64 + 1.0) / 2.0;
            assert!((mean - plain).abs() > 0.1, "d{r}! must be above the plain mean {plain}");
        }
    }

    #[test] // R-DICE-4: an emulated d5 counts 3 twice as often and explodes only on a thrown 5; d2/d3 from a d6
    fn emulated_odd_dice() {
        let mut d = Dice::seeded(12);
        d.odd = OddDice::EmulatePhysical;
        let mut seen = [0u32; 7];
        for _ in 0..60_000 {
            seen[d.roll(1, 5, false, 0).total as usize] += 1;
        }
        assert!(seen[3] > 2 * seen[2] * 9 / 10 && seen[3] < 2 * seen[2] * 11 / 10, "{seen:?}");
        assert_eq!(seen[6], 0);
        d.force([6]);
        let r = d.roll(1, 5, true, 0);
        assert_eq!((r.dice[0].faces.to_vec(), r.dice[0].thrown.clone()), (vec![3], Some(vec![6])), "a thrown 6 counts 3 and does not explode");
        d.force([5, 6]);
        let r = d.roll(1, 5, true, 0);
        assert_eq!((r.dice[0].faces.to_vec(), r.dice[0].thrown.clone()), (vec![5, 3], Some(vec![5, 6])), "a thrown 5 explodes");
        d.force([5, 4]);
        assert_eq!(d.roll(1, 3, true, 0).dice[0].faces.to_vec(), vec![3, 2], "d3 from d6: 5→3 explodes, 4→2");
        d.force([4, 3]);
        assert_eq!(d.roll(1, 2, true, 0).dice[0].faces.to_vec(), vec![2, 1], "d2 from d6: 4→2 explodes, 3→1");
        assert_eq!(d.forced_remaining(), 0);
    }

    #[test] // R-DICE-5: with the large-dice table 1d14 is 2d6+1, and each substitute die explodes on its own
    fn large_dice_table() {
        let mut d = Dice::seeded(13);
        d.large = vec![LargeDie { rank: 14, substitutes: vec![(2, 6, 1), (2, 12, 2), (3, 12, 3), (4, 12, 3)] }];
        d.force([6, 2, 5]);
        let r = d.roll(1, 14, true, 0);
        assert_eq!((r.rank, r.total, r.substitutes_for), (6, 6 + 2 + 5 + 1, Some((1, 14))));
        let mut plain = Dice::seeded(13);
        plain.force([14, 1]);
        assert_eq!(plain.roll(1, 14, true, 0).total, 15, "true d14 by default");
    }

    #[test] // R-DICE-8: advantage keeps the better set, disadvantage the worse; exact 2d6 means
    fn advantage_and_disadvantage() {
        // exact E[max] and E[min] of two 2d6 sums
        let mut p = [0f64; 13];
        for a in 1..=6 {
            for b in 1..=6 {
                p[a + b] += 1.0 / 36.0;
            }
        }
        let (mut emax, mut emin) = (0.0, 0.0);
        for x in 2..=12 {
            for y in 2..=12 {
                emax += p[x] * p[y] * x.max(y) as f64;
                emin += p[x] * p[y] * x.min(y) as f64;
            }
        }
        let mut d = Dice::seeded(14);
        let n = 100_000;
        let adv: i64 = (0..n).map(|_| d.roll_with_edge(2, 6, false, 0, Edge::Advantage).total as i64).sum();
        let dis: i64 = (0..n).map(|_| d.roll_with_edge(2, 6, false, 0, Edge::Disadvantage).total as i64).sum();
        assert!((adv as f64 / n as f64 - emax).abs() < 0.03, "advantage mean vs {emax:.3}");
        assert!((dis as f64 / n as f64 - emin).abs() < 0.03, "disadvantage mean vs {emin:.3}");
        d.force([1, 1, 6, 5]);
        let r = d.roll_with_edge(2, 6, false, 0, Edge::Advantage);
        assert_eq!((r.total, r.discarded.map(|x| x.total)), (11, Some(2)));
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
