//! The AI's deterministic noise (easy's and normal's slips): from the seed and the match
//! state, no dice consumed, so a seed is one game everywhere.

use crate::rules::state::Match;

/// Deterministic noise in [0, 1) from the seed, the turn and the character (the same all turn).
pub(super) fn turn_noise(seed: u64, m: &Match, a: usize) -> f64 {
    unit((seed ^ 0xA5A5_0000) ^ (m.clock.turn as u64) << 32 ^ (a as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// Deterministic noise in [0, 1) from the seed and the match state (easy AI, no dice consumed).
pub(super) fn noise(seed: u64, m: &Match, a: usize, salt: u64) -> f64 {
    unit(seed ^ (m.clock.turn as u64) << 40 ^ (m.clock.round as u64) << 24 ^ (a as u64) << 8 ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// A 64-bit mix (murmur3's finaliser) mapped to [0, 1).
fn unit(mut x: u64) -> f64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    (x % 10_000) as f64 / 10_000.0
}
