//! A4-6.2 dice pools: `nD+p` (n fair d6, p pips, 3 pips = 1D, A4-G-29), and their exact odds:
//! the distribution of a sum of n d6 as integer counts over 6^n, so a preview shows the exact
//! chance, not a simulation. The same numbers feed the window's odds and the AI.

use serde::{Deserialize, Serialize};

/// A pool in dice and pips, normalised so that `0 ≤ pips < pips_per_die`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Pool {
    pub dice: i32,
    pub pips: i32,
}

impl Pool {
    /// From a count of pips (A4-G-29: 7D−2 is 19 pips, which is 6D+1).
    pub fn from_pips(total: i32, per_die: i32) -> Self {
        let per = per_die.max(1);
        Pool { dice: total.div_euclid(per), pips: total.rem_euclid(per) }
    }

    pub fn total_pips(self, per_die: i32) -> i32 {
        self.dice * per_die + self.pips
    }

    /// `n` dice more or fewer, pips kept (A4-G-31).
    pub fn plus_dice(self, n: i32) -> Self {
        Pool { dice: self.dice + n, pips: self.pips }
    }

    /// At least `min` dice, and at most `max` (A4-G-31; the cap keeps the odds exact).
    pub fn floored(self, min: i32, max: i32) -> Self {
        Pool { dice: self.dice.clamp(min, max.max(min)), pips: self.pips }
    }

    pub fn label(self) -> String {
        if self.pips == 0 { format!("{}D", self.dice) } else { format!("{}D{:+}", self.dice, self.pips) }
    }
}

impl std::fmt::Display for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.label())
    }
}

/// The most dice an exact sum is computed for (6^40 < 2^104; two pools multiply within u128).
pub const MAX_EXACT_DICE: u32 = 40;

/// Counts of each sum of `n` fair `die`-sided dice: `c[s]` ways to throw `s`, over `die^n`.
pub fn counts(n: u32, die: u32) -> Vec<u128> {
    let n = n.min(MAX_EXACT_DICE);
    let die = die.clamp(2, 20) as usize;
    let mut c = vec![1u128];
    for _ in 0..n {
        let mut next = vec![0u128; c.len() + die];
        for (s, &k) in c.iter().enumerate() {
            if k == 0 {
                continue;
            }
            for f in 1..=die {
                next[s + f] += k;
            }
        }
        c = next;
    }
    c
}

/// A probability as an exact fraction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fraction {
    pub num: u128,
    pub den: u128,
}

impl Fraction {
    pub fn value(self) -> f64 {
        if self.den == 0 { 0.0 } else { self.num as f64 / self.den as f64 }
    }

    /// Lowest terms.
    pub fn reduced(self) -> Self {
        fn gcd(a: u128, b: u128) -> u128 {
            if b == 0 { a } else { gcd(b, a % b) }
        }
        let g = gcd(self.num, self.den).max(1);
        Fraction { num: self.num / g, den: self.den / g }
    }
}

/// P(nD+p ≥ tn) exactly (A4-6.2: a total equal to the TN succeeds).
pub fn at_least(pool: Pool, tn: i32, die: u32) -> Fraction {
    let n = pool.dice.max(0) as u32;
    let c = counts(n, die);
    let den: u128 = c.iter().sum();
    let need = tn - pool.pips;
    let num = c.iter().enumerate().filter(|(s, _)| *s as i32 >= need).map(|(_, k)| *k).sum();
    Fraction { num, den }
}

/// P(attack ≥ base + defence roll) exactly, the defence a pool still to be thrown (a reactive or
/// full defence, A4-3.12, A4-3.21): `Σ_d P(D = d) · P(A ≥ base + d)`.
pub fn against_pool(attack: Pool, base: i32, defence: Pool, die: u32) -> Fraction {
    let ca = counts(attack.dice.max(0) as u32, die);
    let cd = counts(defence.dice.max(0) as u32, die);
    // suffix sums of the attack counts: ways to throw at least s
    let mut suffix = vec![0u128; ca.len() + 1];
    for s in (0..ca.len()).rev() {
        suffix[s] = suffix[s + 1] + ca[s];
    }
    let at_least = |need: i32| -> u128 {
        if need <= 0 {
            suffix[0]
        } else if need as usize >= ca.len() {
            0
        } else {
            suffix[need as usize]
        }
    };
    let mut num = 0u128;
    for (d, &k) in cd.iter().enumerate() {
        if k == 0 {
            continue;
        }
        num += k * at_least(base + d as i32 + defence.pips - attack.pips);
    }
    Fraction { num, den: suffix[0] * cd.iter().sum::<u128>() }
}

/// The chance of each margin band (misses first, then one entry per band edge `edges`, e.g.
/// `[0, 5, 10, 15]`), against a fixed TN or a TN plus a defence pool.
pub fn bands(attack: Pool, base: i32, defence: Option<Pool>, edges: &[i32], die: u32) -> Vec<f64> {
    let hit_from = |margin: i32| match defence {
        Some(d) => against_pool(attack, base + margin, d, die).value(),
        None => at_least(attack, base + margin, die).value(),
    };
    let mut out = vec![1.0 - hit_from(edges.first().copied().unwrap_or(0))];
    for (k, &e) in edges.iter().enumerate() {
        let next = edges.get(k + 1).map_or(0.0, |&n| hit_from(n));
        out.push(hit_from(e) - next);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(n: u128, d: u128) -> Fraction {
        Fraction { num: n, den: d }.reduced()
    }

    fn p(dice: i32, pips: i32) -> Pool {
        Pool { dice, pips }
    }

    #[test] // A4-6.2, A4-G-29: 3 pips make 1D; 7D−2 is rolled as 6D+1; the pips stay in 0..=2
    fn pool_normalisation_keeps_the_pips() {
        assert_eq!(Pool::from_pips(7 * 3 - 2, 3), p(6, 1));
        assert_eq!(Pool::from_pips(27 + 1, 3), p(9, 1));
        for total in -10..100 {
            let q = Pool::from_pips(total, 3);
            assert_eq!(q.total_pips(3), total);
            assert!((0..3).contains(&q.pips));
        }
        // A4-G-31: penalty dice come off the dice and leave the pips; the floor is 1D
        assert_eq!(p(6, 1).plus_dice(-2), p(4, 1));
        assert_eq!(p(2, 2).plus_dice(-4).floored(1, 24), p(1, 2));
    }

    #[test] // A4-6.2: exact odds against brute-force enumeration of every throw, n ≤ 5, every TN
    fn at_least_matches_enumeration() {
        for n in 0..=5u32 {
            for pips in 0..3 {
                for tn in -2..=34 {
                    let mut hits = 0u128;
                    let total = 6u128.pow(n);
                    for code in 0..total {
                        let (mut c, mut s) = (code, 0i32);
                        for _ in 0..n {
                            s += (c % 6) as i32 + 1;
                            c /= 6;
                        }
                        if s + pips >= tn {
                            hits += 1;
                        }
                    }
                    let got = at_least(p(n as i32, pips), tn, 6);
                    assert_eq!(got.reduced(), f(hits, total), "{n}D+{pips} vs {tn}");
                }
            }
        }
    }

    #[test] // A4-6.2, A4-3.21, A4-G-34: the worked values of docs/ruleset-a4.md §4, as exact fractions
    fn worked_values_are_exact() {
        // 2D+2 vs 10 = 5/12
        assert_eq!(at_least(p(2, 2), 10, 6).reduced(), f(5, 12));
        // Lunk 9D+1 vs the orc's first reactive defence (6D − 2D = 4D): TN 15 + 4D
        assert_eq!(against_pool(p(9, 1), 15, p(4, 0), 6).reduced(), f(4832562431, 6530347008));
        assert_eq!(at_least(p(9, 1), 15, 6).reduced(), f(10076981, 10077696));
        assert_eq!(against_pool(p(9, 1), 15, p(6, 0), 6).reduced(), f(17059583999, 52242776064));
        assert_eq!(against_pool(p(8, 0), 15, p(5, 1), 6).reduced(), f(343507595, 1632586752));
        assert_eq!(at_least(p(4, 0), 15, 6).reduced(), f(575, 1296));
        assert_eq!(at_least(p(7, 2), 22, 6).reduced(), f(80513, 93312));
        assert_eq!(at_least(p(8, 0), 28, 6).reduced(), f(100865, 186624));
        assert_eq!(at_least(p(6, 0), 28, 6).reduced(), f(35, 576));
        // the bands sum to 1 and the first is the miss chance
        let b = bands(p(9, 1), 15, Some(p(4, 0)), &[0, 5, 10, 15], 6);
        assert!((b.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((b[0] - (1.0 - 0.740016)).abs() < 1e-6, "{b:?}");
        assert!((b[1] - 0.3038).abs() < 1e-4 && (b[4] - 0.0367).abs() < 1e-4, "{b:?}");
    }
}
