//! Issue 47, `doo delve simulate`: delves generated, validated, proven and played floor after
//! floor by the AI on every side through the real binary, the heroes carried over between floors
//! and checked at each floor's start (R-CP-12, R-CP-13); the same seed plays the same; hostile
//! arguments get a sentence and exit 2, never a panic.

use serde_json::Value;
use std::process::Command;

fn doo(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(crate::common::doo_bin()).args(args).current_dir(crate::common::root()).output().expect("run doo");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

fn lines(out: &str) -> Vec<Value> {
    out.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

#[test] // R-CP-12, R-CP-13: each floor after the first starts with the heroes as the last left them (checked)
fn a_small_delve_is_simulated_to_the_end_and_reported() {
    let dir = std::env::temp_dir().join(format!("doo-delve-sim-test-{}", std::process::id()));
    let d = dir.display().to_string();
    let args = ["delve", "simulate", "--seed", "5", "--seeds", "2", "--floors", "2", "--size", "32x32", "--difficulty", "easy", "--json", "--out", &d];
    let (code, out, err) = doo(&args);
    assert_eq!(code, 0, "{out}{err}");
    let l = lines(&out);
    assert_eq!(l.len(), 3, "a line per seed, then the summary: {out}");
    for (s, seed) in l[..2].iter().zip([5, 6]) {
        assert_eq!((s["type"].as_str(), s["seed"].as_u64(), s["floors"].as_u64()), (Some("delve"), Some(seed), Some(2)), "{s}");
        let played = s["played"].as_array().expect("the floors played");
        let won = played.iter().filter(|f| f["won"] == true).count();
        // a floor not won ends the delve: the floors played are the ones won and at most one more
        assert_eq!(s["floors_cleared"].as_u64(), Some(won as u64), "{s}");
        assert!(played.len() == won || played.len() == won + 1, "{s}");
        assert_eq!(s["cleared"].as_bool(), Some(won == 2), "{s}");
        // R-CP-12, R-CP-13: the carry-over held at every floor's start; the AI was never refused
        assert!(played.iter().all(|f| f["carry_over"] == "ok" && f["rejected"] == 0), "{s}");
        assert_eq!((s["rejected"].as_u64(), s["carry_over_failures"].as_u64()), (Some(0), Some(0)), "{s}");
        assert!(s["standing"].as_u64().is_some_and(|n| n <= 4) && s["secs"].as_f64().is_some_and(|t| t > 0.0), "{s}");
        // the delve was written where asked, and `doo validate` accepts it
        let files = ["floor_1.ron", "floor_2.ron", "delve.ron"].map(|f| format!("{d}/seed-{seed}/{f}"));
        let (code, vout, verr) = doo(&["validate", &files[0], &files[1], &files[2]]);
        assert_eq!(code, 0, "{vout}{verr}");
    }
    let sum = &l[2];
    assert_eq!((sum["type"].as_str(), sum["seeds"].as_u64(), sum["difficulty"].as_str()), (Some("summary"), Some(2), Some("easy")), "{sum}");
    let cleared = l[..2].iter().filter(|s| s["cleared"] == true).count();
    assert_eq!(sum["cleared"].as_u64(), Some(cleared as u64), "{sum}");
    // the same seed plays the same delve the same way (seeded dice and AI)
    let (code, again, err) = doo(&["delve", "simulate", "--seed", "6", "--floors", "2", "--size", "32x32", "--difficulty", "easy", "--json"]);
    assert_eq!(code, 0, "{again}{err}");
    let strip = |v: &Value| v["played"].as_array().unwrap().iter().map(|f| (f["floor"].clone(), f["winner"].clone(), f["turns"].clone())).collect::<Vec<_>>();
    assert_eq!(strip(&lines(&again)[0]), strip(&l[1]));
    // the text form: a sentence per seed, then the summary
    let (code, text, err) = doo(&["delve", "simulate", "--seed", "6", "--floors", "2", "--size", "32x32", "--difficulty", "easy"]);
    assert_eq!(code, 0, "{text}{err}");
    assert!(text.starts_with("seed 6: ") && text.contains(" of 2 floors, ") && text.contains("easy: 1 seeds, "), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test] // hostile arguments: a sentence naming the argument and exit 2, never a panic
fn bad_delve_arguments_are_refused_with_a_sentence() {
    let cases: [(&[&str], &str); 10] = [
        (&["delve", "simulate", "--seeds", "0"], "--seeds 0: give 1 to 100000"),
        (&["delve", "simulate", "--seeds", "1000000"], "--seeds 1000000: give 1 to 100000"),
        (&["delve", "simulate", "--size", "10x10"], "each side is 24 to 96"),
        (&["delve", "simulate", "--size", "big"], "--size big: expected WIDTHxHEIGHT"),
        (&["delve", "simulate", "--difficulty", "brutal"], "--difficulty brutal: expected easy, normal or hard"),
        (&["delve", "simulate", "--floors", "99"], "99 floors: give 1 to 8"),
        (&["delve", "simulate", "--party", "nobody"], "nobody.ron"),
        (&["delve", "simulate", "--party", "../x"], "hero '../x' is not a plain name"),
        (&["delve", "simulate", "--ai", "godlike"], "godlike"),
        (&["delve", "--seed", "3"], "--out DIR is needed"),
    ];
    for (args, want) in cases {
        let (code, out, err) = doo(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(want) && !err.contains("panicked"), "{args:?}: {err}");
    }
}
