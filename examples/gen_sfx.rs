//! Deterministic sound-effect generator for Dungeons of Olde.
//!
//! Writes the committed sounds under `assets/sfx/` (16-bit mono WAV, 22 050 Hz), synthesised
//! here from sines, sawtooths and filtered noise: no recording, no sample library, so they are
//! ours to ship (the same terms as the code). The `audio` cargo feature plays them.
//!
//! * `step.wav` — a miniature set down on stone (a low thud and a scrape), per space moved;
//! * `hit.wav` — a blow that lands (noise crack over a falling low thump);
//! * `miss.wav` — a blow that misses (a whoosh: noise through a sweeping band-pass);
//! * `reflex.wav` — a reflex or response (a short metallic ping: inharmonic partials);
//! * `spell.wav` — a spell (a rising chirp with tremolo);
//! * `door.wav` — a door (a creak, then the thud of the leaf);
//! * `victory.wav` — a short major arpeggio;
//! * `defeat.wav` — a falling minor phrase over a low drone.
//!
//! There is no randomness: noise comes from a fixed xorshift generator, so every run writes
//! identical files. Run with `cargo run --example gen_sfx`.

use std::f32::consts::TAU;
use std::io::Write;
use std::path::Path;

const RATE: u32 = 22_050;

/// Fixed-seed xorshift noise in -1..1.
struct Noise(u32);

impl Noise {
    fn next(&mut self) -> f32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        (x as f32 / u32::MAX as f32) * 2.0 - 1.0
    }
}

/// One-pole low-pass filter.
struct LowPass {
    y: f32,
}

impl LowPass {
    fn run(&mut self, x: f32, cutoff: f32) -> f32 {
        let a = 1.0 - (-TAU * cutoff / RATE as f32).exp();
        self.y += a * (x - self.y);
        self.y
    }
}

/// A two-pole resonant band-pass (state-variable filter).
struct BandPass {
    low: f32,
    band: f32,
}

impl BandPass {
    fn run(&mut self, x: f32, centre: f32, q: f32) -> f32 {
        let f = 2.0 * (std::f32::consts::PI * centre / RATE as f32).sin();
        let high = x - self.low - self.band / q;
        self.band += f * high;
        self.low += f * self.band;
        self.band
    }
}

fn samples(secs: f32) -> usize {
    (secs * RATE as f32) as usize
}

fn env(t: f32, attack: f32, decay: f32) -> f32 {
    if t < attack { t / attack } else { (-(t - attack) / decay).exp() }
}

fn step() -> Vec<f32> {
    let (mut n, mut lp) = (Noise(0x1234_5678), LowPass { y: 0.0 });
    let mut phase = 0.0;
    (0..samples(0.13))
        .map(|i| {
            let t = i as f32 / RATE as f32;
            phase += TAU * (95.0 - 40.0 * t / 0.13) / RATE as f32;
            let thud = phase.sin() * env(t, 0.002, 0.035);
            let scrape = lp.run(n.next(), 1800.0) * env(t, 0.004, 0.025);
            0.55 * thud + 0.45 * scrape
        })
        .collect()
}

fn hit() -> Vec<f32> {
    let (mut n, mut lp) = (Noise(0x0bad_cafe), LowPass { y: 0.0 });
    let mut phase = 0.0;
    (0..samples(0.3))
        .map(|i| {
            let t = i as f32 / RATE as f32;
            phase += TAU * (140.0 * (-t * 9.0).exp() + 55.0) / RATE as f32;
            let thump = phase.sin() * env(t, 0.002, 0.09);
            let crack = lp.run(n.next(), 2600.0) * env(t, 0.001, 0.045);
            (1.6 * (0.7 * thump + 0.8 * crack)).tanh() * 0.8
        })
        .collect()
}

fn miss() -> Vec<f32> {
    let (mut n, mut bp) = (Noise(0x5eed_0001), BandPass { low: 0.0, band: 0.0 });
    let len = 0.32;
    (0..samples(len))
        .map(|i| {
            let t = i as f32 / RATE as f32;
            let k = t / len;
            let centre = 500.0 + 2200.0 * (std::f32::consts::PI * k).sin();
            let shape = (std::f32::consts::PI * k).sin().powi(2);
            bp.run(n.next(), centre, 2.5) * shape * 0.3
        })
        .collect()
}

fn reflex() -> Vec<f32> {
    let partials = [(820.0, 1.0, 0.12), (1290.0, 0.6, 0.08), (1870.0, 0.4, 0.06), (2630.0, 0.25, 0.04)];
    (0..samples(0.35))
        .map(|i| {
            let t = i as f32 / RATE as f32;
            partials.iter().map(|(f, a, d)| (TAU * f * t).sin() * a * env(t, 0.001, *d)).sum::<f32>() * 0.45
        })
        .collect()
}

fn spell() -> Vec<f32> {
    let len = 0.4;
    let mut phase = 0.0;
    (0..samples(len))
        .map(|i| {
            let t = i as f32 / RATE as f32;
            let k = t / len;
            phase += TAU * (300.0 * (4.0f32).powf(k)) / RATE as f32;
            let tremolo = 0.6 + 0.4 * (TAU * 18.0 * t).sin();
            let shape = (std::f32::consts::PI * k).sin();
            (phase.sin() + 0.3 * (2.0 * phase).sin()) * tremolo * shape * 0.45
        })
        .collect()
}

fn door() -> Vec<f32> {
    let (mut bp, mut lp, mut n) = (BandPass { low: 0.0, band: 0.0 }, LowPass { y: 0.0 }, Noise(0xd00d_0042));
    let mut phase = 0.0f32;
    let mut thud_phase = 0.0;
    (0..samples(0.7))
        .map(|i| {
            let t = i as f32 / RATE as f32;
            // The creak: a sawtooth whose pitch wavers, through a band-pass, swelling and fading.
            let f = 120.0 + 35.0 * (TAU * 3.0 * t).sin() + 12.0 * (TAU * 11.0 * t).sin();
            phase = (phase + f / RATE as f32) % 1.0;
            let saw = 2.0 * phase - 1.0;
            let creak = bp.run(saw, 900.0, 4.0) * if t < 0.45 { (std::f32::consts::PI * t / 0.45).sin() } else { 0.0 };
            // The leaf meets the frame.
            let tt = (t - 0.47).max(0.0);
            thud_phase += TAU * 70.0 / RATE as f32;
            let thud = if t >= 0.47 { thud_phase.sin() * env(tt, 0.002, 0.06) + lp.run(n.next(), 900.0) * env(tt, 0.001, 0.03) } else { 0.0 };
            0.55 * creak + 0.7 * thud
        })
        .collect()
}

/// Plucked notes (triangle + a little square, decaying), `(start, midi, length)`.
fn notes(list: &[(f32, f32, f32)], len: f32, drone: Option<f32>) -> Vec<f32> {
    (0..samples(len))
        .map(|i| {
            let t = i as f32 / RATE as f32;
            let mut s = 0.0;
            for &(start, midi, l) in list {
                let tt = t - start;
                if tt < 0.0 || tt > l + 0.3 {
                    continue;
                }
                let f = 440.0 * 2f32.powf((midi - 69.0) / 12.0);
                let p = (f * tt).fract();
                let tri = 4.0 * (p - 0.5).abs() - 1.0;
                let sq = if p < 0.5 { 1.0 } else { -1.0 };
                let release = if tt > l { (-(tt - l) / 0.08).exp() } else { 1.0 };
                s += (0.8 * tri + 0.15 * sq) * env(tt, 0.005, l * 0.9 + 0.05) * release;
            }
            if let Some(d) = drone {
                let f = 440.0 * 2f32.powf((d - 69.0) / 12.0);
                s += 0.35 * (TAU * f * t).sin() * (t / 0.2).min(1.0) * (1.0 - t / len).max(0.0);
            }
            s * 0.35
        })
        .collect()
}

fn write_wav(path: &Path, data: &[f32]) -> std::io::Result<()> {
    let mut out = Vec::with_capacity(44 + data.len() * 2);
    let bytes = (data.len() * 2) as u32;
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + bytes).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&RATE.to_le_bytes());
    out.extend_from_slice(&(RATE * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&bytes.to_le_bytes());
    // A 3 ms fade in and out: no clicks at the ends.
    let fade = samples(0.003).max(1);
    for (i, s) in data.iter().enumerate() {
        let edge = (i.min(data.len() - 1 - i) as f32 / fade as f32).min(1.0);
        let v = (s.clamp(-1.0, 1.0) * edge * i16::MAX as f32).round() as i16;
        out.extend_from_slice(&v.to_le_bytes());
    }
    std::fs::File::create(path)?.write_all(&out)?;
    println!("wrote {}", path.display());
    Ok(())
}

fn main() -> std::io::Result<()> {
    let dir = std::env::args().nth(1).map(std::path::PathBuf::from).unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/sfx"));
    std::fs::create_dir_all(&dir)?;
    write_wav(&dir.join("step.wav"), &step())?;
    write_wav(&dir.join("hit.wav"), &hit())?;
    write_wav(&dir.join("miss.wav"), &miss())?;
    write_wav(&dir.join("reflex.wav"), &reflex())?;
    write_wav(&dir.join("spell.wav"), &spell())?;
    write_wav(&dir.join("door.wav"), &door())?;
    // C5 E5 G5, then C6 held.
    write_wav(&dir.join("victory.wav"), &notes(&[(0.0, 72.0, 0.12), (0.12, 76.0, 0.12), (0.24, 79.0, 0.12), (0.36, 84.0, 0.6)], 1.3, None))?;
    // G4 Eb4 C4 over a low C.
    write_wav(&dir.join("defeat.wav"), &notes(&[(0.0, 67.0, 0.3), (0.32, 63.0, 0.3), (0.64, 60.0, 0.7)], 1.6, Some(48.0)))?;
    Ok(())
}
