//! Issue 47: how long the delve generator takes for three 64×64 floors (median and p99 over
//! the seeds), and, over the same seeds at each difficulty, how many floors validate
//! (`level_file::check`, and no problem in the editor's list) and are proven solvable, how many
//! maps differ, and the share of dungeons showing each feature (`delve::features`; issue 47's
//! goal: each in at least a third).
//!
//! cargo run --release -p doo_rules --example delve_speed [SEEDS]   (default 1000 per difficulty)
//! DELVE_PRINT=7 cargo run --release -p doo_rules --example delve_speed   (seed 7's first floor)

use doo_rules::data::RuleData;
use doo_rules::delve::{Difficulty, FEATURES, Params, features, generate, prove};
use std::path::Path;
use std::time::{Duration, Instant};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let seeds: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let data = RuleData::load(&root).expect("the rules data");
    // `DELVE_PRINT=SEED`: print that seed's first floor and stop.
    if let Some(seed) = std::env::var("DELVE_PRINT").ok().and_then(|s| s.parse().ok()) {
        let delve = generate(&Params::new(seed, &root), &data).expect("a delve");
        print!("{}", delve.texts[0]);
        return;
    }
    let mut times: Vec<Duration> = Vec::new();
    for d in [Difficulty::Easy, Difficulty::Normal, Difficulty::Hard] {
        let (mut floors, mut valid, mut proven, mut retries) = (0usize, 0usize, 0usize, 0u32);
        let mut maps = std::collections::BTreeSet::new();
        let mut shown: std::collections::BTreeMap<&str, u64> = std::collections::BTreeMap::new();
        for seed in 0..seeds {
            let p = Params { difficulty: d, ..Params::new(seed, &root) };
            let t = Instant::now();
            let delve = generate(&p, &data).expect("a delve");
            times.push(t.elapsed());
            retries += delve.retries;
            for f in features(&delve.levels) {
                *shown.entry(f).or_default() += 1;
            }
            for (k, (level, text)) in delve.levels.iter().zip(&delve.texts).enumerate() {
                floors += 1;
                let file = format!("seed {seed} floor {}", k + 1);
                let ok = doo_rules::level_file::check(&file, text, &data, &root).is_ok()
                    && doo_rules::level_edit::problems(&file, text, level, &data, &root).is_empty();
                valid += usize::from(ok);
                proven += usize::from(prove(level).is_ok());
                maps.insert(level.floors[0].concat());
            }
        }
        println!(
            "{}: {seeds} seeds, {floors} floors: {valid} validate ({:.1} %), {proven} proven ({:.1} %), {} different maps, {retries} floors made again",
            d.name(),
            100.0 * valid as f64 / floors as f64,
            100.0 * proven as f64 / floors as f64,
            maps.len()
        );
        let shares: Vec<String> = FEATURES.iter().map(|f| format!("{f} {:.0} %", 100.0 * shown.get(f).copied().unwrap_or(0) as f64 / seeds as f64)).collect();
        let under: Vec<&&str> = FEATURES.iter().filter(|f| shown.get(*f).copied().unwrap_or(0) * 3 < seeds).collect();
        println!("  dungeons showing each feature: {}", shares.join(", "));
        println!("  under a third: {}", if under.is_empty() { "none".to_string() } else { format!("{under:?}") });
    }
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "generation of three 64x64 floors over {} dungeons: median {:.2} ms, p99 {:.2} ms, max {:.2} ms (goal: 50 ms)",
        times.len(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        times[times.len() - 1].as_secs_f64() * 1e3
    );
}
