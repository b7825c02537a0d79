//! Outcome odds from the same dice model the resolution uses: the distribution of two exploding
//! dice of a rank (R-CHK-3, R-DICE-2), hit chances of an opposed check, expected damage.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// Totals above this are lumped into the last cell (their probability is negligible).
const MAX_TOTAL: usize = 120;

fn one_die(rank: u32) -> Vec<f64> {
    let r = rank.max(1) as usize;
    let mut p = vec![0.0; MAX_TOTAL + 1];
    if r == 1 {
        p[1] = 1.0; // R-DICE-7: a d1 never explodes
        return p;
    }
    // P(total = k·r + j) = (1/r)^(k+1) for j in 1..r-1.
    let step = 1.0 / r as f64;
    let mut chain = step;
    let mut base = 0;
    while base < MAX_TOTAL && chain > 1e-12 {
        for j in 1..r {
            if base + j <= MAX_TOTAL {
                p[base + j] += chain;
            }
        }
        base += r;
        chain *= step;
    }
    p
}

/// Distribution of a check roll (two exploding dice of `rank`), index = total.
pub fn check_distribution(rank: u32) -> std::sync::Arc<Vec<f64>> {
    static CACHE: OnceLock<Mutex<HashMap<u32, std::sync::Arc<Vec<f64>>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(d) = cache.lock().ok().and_then(|c| c.get(&rank).cloned()) {
        return d;
    }
    let one = one_die(rank);
    let mut two = vec![0.0; MAX_TOTAL + 1];
    for (a, pa) in one.iter().enumerate().filter(|(_, p)| **p > 0.0) {
        for (b, pb) in one.iter().enumerate().filter(|(_, p)| **p > 0.0) {
            two[(a + b).min(MAX_TOTAL)] += pa * pb;
        }
    }
    let d = std::sync::Arc::new(two);
    if let Ok(mut c) = cache.lock() {
        c.insert(rank, d.clone());
    }
    d
}

/// P(attack ≥ defense): the attacker's check (rank, adjustment) against the defender's, or
/// against a fixed CR when the defender makes no check (R-ATK-4, R-ATK-6: ties hit).
pub fn hit_chance(attack: (u32, i32), defense: Option<(u32, i32)>, fixed_cr: i32) -> f64 {
    thread_local! {
        static MEMO: std::cell::RefCell<HashMap<((u32, i32), Option<(u32, i32)>, i32), f64>> = std::cell::RefCell::new(HashMap::new());
    }
    let key = (attack, defense, fixed_cr);
    if let Some(p) = MEMO.with(|m| m.borrow().get(&key).copied()) {
        return p;
    }
    let p = hit_chance_uncached(attack, defense, fixed_cr);
    MEMO.with(|m| m.borrow_mut().insert(key, p));
    p
}

fn hit_chance_uncached(attack: (u32, i32), defense: Option<(u32, i32)>, fixed_cr: i32) -> f64 {
    let a = check_distribution(attack.0);
    let mut cdf_def = vec![0.0; 2 * MAX_TOTAL + 64];
    match defense {
        None => {
            // P(D ≤ x) = 1 when x ≥ CR
            return a.iter().enumerate().filter(|(t, _)| *t as i32 + attack.1 >= fixed_cr).map(|(_, p)| p).sum();
        }
        Some((rank, adj)) => {
            let d = check_distribution(rank);
            let mut acc = 0.0;
            for (i, c) in cdf_def.iter_mut().enumerate() {
                if i < d.len() {
                    acc += d[i];
                }
                *c = acc;
            }
            a.iter()
                .enumerate()
                .map(|(t, p)| {
                    // need D + adj ≤ t + attack.1  →  D ≤ t + attack.1 − adj
                    let lim = t as i32 + attack.1 - adj;
                    if lim < 0 { 0.0 } else { p * cdf_def[(lim as usize).min(cdf_def.len() - 1)] }
                })
                .sum()
        }
    }
}

/// P(the sum of `n` dice of `rank` is at least `need`) (damage rolls; R-DICE-2 explosions when
/// `exploding`).
pub fn sum_at_least(n: u32, rank: u32, exploding: bool, need: i32) -> f64 {
    if need <= n as i32 {
        return 1.0;
    }
    thread_local! {
        static MEMO: std::cell::RefCell<HashMap<(u32, u32, bool, i32), f64>> = std::cell::RefCell::new(HashMap::new());
    }
    let key = (n, rank, exploding, need);
    if let Some(p) = MEMO.with(|m| m.borrow().get(&key).copied()) {
        return p;
    }
    let one = if exploding || rank <= 1 {
        one_die(rank)
    } else {
        let mut p = vec![0.0; MAX_TOTAL + 1];
        for v in 1..=(rank as usize).min(MAX_TOTAL) {
            p[v] = 1.0 / rank as f64;
        }
        p
    };
    let mut total = vec![0.0; MAX_TOTAL + 1];
    total[0] = 1.0;
    for _ in 0..n.min(8) {
        let mut next = vec![0.0; MAX_TOTAL + 1];
        for (a, pa) in total.iter().enumerate().filter(|(_, p)| **p > 0.0) {
            for (b, pb) in one.iter().enumerate().filter(|(_, p)| **p > 0.0) {
                next[(a + b).min(MAX_TOTAL)] += pa * pb;
            }
        }
        total = next;
    }
    let p = total.iter().skip(need.max(0) as usize).sum::<f64>().min(1.0);
    MEMO.with(|m| m.borrow_mut().insert(key, p));
    p
}

/// Mean of one exploding die of `rank` (or plain when not exploding).
pub fn die_mean(rank: u32, exploding: bool) -> f64 {
    let r = rank.max(1) as f64;
    if rank <= 1 {
        return 1.0;
    }
    if exploding { (r + 1.0) / 2.0 * r / (r - 1.0) } else { (r + 1.0) / 2.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test] // R-CHK-3, R-DICE-2: the check distribution sums to 1 and has the exploding mean
    fn distribution_is_sound() {
        for r in [2u32, 5, 6, 8, 12] {
            let d = check_distribution(r);
            let total: f64 = d.iter().sum();
            assert!((total - 1.0).abs() < 1e-6, "d{r}: {total}");
            let mean: f64 = d.iter().enumerate().map(|(t, p)| t as f64 * p).sum();
            assert!((mean - 2.0 * die_mean(r, true)).abs() < 1e-3, "d{r}: {mean}");
        }
    }

    #[test] // R-DICE-2: damage sums — certain at the minimum, impossible beyond the maximum without explosions
    fn damage_sums() {
        assert_eq!(sum_at_least(2, 6, false, 2), 1.0);
        assert!((sum_at_least(2, 6, false, 12) - 1.0 / 36.0).abs() < 1e-9);
        assert_eq!(sum_at_least(1, 6, false, 7), 0.0);
        assert!(sum_at_least(1, 6, true, 7) > 0.15); // a 6 explodes: 7+ needs 6 then 1+
        assert!(sum_at_least(1, 6, true, 8) < sum_at_least(1, 6, true, 7));
    }

    #[test] // R-ATK-6, R-CHK-6: ties hit — equal checks hit a little more than half the time; CR 6 against 2d6!
    fn hit_chances() {
        let p = hit_chance((6, 0), Some((6, 0)), 0);
        assert!(p > 0.5 && p < 0.6, "{p}");
        let vs6 = hit_chance((6, 0), None, 6);
        // 2d6 ≥ 6 without explosions: 26/36; explosions only add
        assert!(vs6 >= 26.0 / 36.0 - 1e-9 && vs6 < 0.8, "{vs6}");
        assert!(hit_chance((8, 3), Some((6, 0)), 0) > hit_chance((8, 0), Some((6, 0)), 0));
    }
}
