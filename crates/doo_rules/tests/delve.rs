//! Issue 47, the delve generator: the same seed gives the same files byte for byte; 200 seeds
//! per difficulty, 3 floors of 64×64 each, all validate (`level_file::check`, and the editor's
//! `problems` list is empty), all are proven solvable (`delve::prove`), no two floors are the
//! same, and each feature appears in at least a third of the dungeons; a key behind its own
//! door fails the proof and `validate` names it.

use doo_rules::data::RuleData;
use doo_rules::delve::{Difficulty, FEATURES, Params, features, generate, prove, write_delve};
use doo_rules::level_file::Level;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn params(seed: u64, d: Difficulty) -> Params {
    Params { difficulty: d, ..Params::new(seed, &root()) }
}

#[test]
fn the_same_seed_gives_the_same_files_byte_for_byte() {
    let data = RuleData::load(&root()).unwrap();
    let a = generate(&params(1234, Difficulty::Normal), &data).unwrap();
    let b = generate(&params(1234, Difficulty::Normal), &data).unwrap();
    assert_eq!(a.texts, b.texts);
    assert_eq!(a.campaign, b.campaign);
    let c = generate(&params(1235, Difficulty::Normal), &data).unwrap();
    assert_ne!(a.texts, c.texts, "another seed, another dungeon");
    // A project folder of its own (assets and heroes linked), the delves written inside it.
    let dir = std::env::temp_dir().join(format!("doo_delve_test_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(root().join("assets"), dir.join("assets")).unwrap();
    std::os::unix::fs::symlink(root().join("heroes"), dir.join("heroes")).unwrap();
    let (d1, d2) = (dir.join("delves/one"), dir.join("delves/two"));
    let p = Params { root: dir.clone(), ..params(99, Difficulty::Hard) };
    let w1 = write_delve(&p, &data, &d1).unwrap();
    let w2 = write_delve(&p, &data, &d2).unwrap();
    assert_eq!(w1.len(), 4, "three floors and the campaign");
    for (p, q) in w1.iter().zip(&w2) {
        assert_eq!(std::fs::read(p).unwrap(), std::fs::read(q).unwrap(), "{}", p.display());
    }
    // The campaign file chains the floors, offers the party and loads.
    let text = std::fs::read_to_string(w1.last().unwrap()).unwrap();
    assert!(text.contains("\"../../heroes/lunk.ron\"") && text.contains("\"floor_3.ron\""), "{text}");
    let campaign = doo_rules::campaign::load_campaign(w1.last().unwrap(), &data);
    let campaign = campaign.unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(campaign.heroes.len(), 4);
    assert_eq!(campaign.campaign.levels.len(), 3);
    let _ = std::fs::remove_dir_all(&dir);
}

/// 200 seeds at a difficulty: every floor validates, has no problem in the editor, is proven;
/// no two floors alike; each feature in a third of the dungeons at least.
fn seeds(d: Difficulty, from: u64) {
    let data = RuleData::load(&root()).unwrap();
    let n = 200;
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut maps: BTreeSet<String> = BTreeSet::new();
    let t = std::time::Instant::now();
    for seed in from..from + n {
        let delve = generate(&params(seed, d), &data).unwrap();
        for (k, (level, text)) in delve.levels.iter().zip(&delve.texts).enumerate() {
            let file = format!("seed {seed} floor {}", k + 1);
            if let Err(e) = doo_rules::level_file::check(&file, text, &data, &root()) {
                panic!("{file} does not validate: {e:?}\n{text}");
            }
            let found = doo_rules::level_edit::problems(&file, text, level, &data, &root());
            assert!(found.is_empty(), "{file}: {found:?}\n{text}");
            let reread: Level = doo_rules::data::parse_ron(&file, text).unwrap();
            if let Err(e) = prove(&reread) {
                panic!("{file} is not proven: {e}\n{text}");
            }
            assert!(maps.insert(level.floors[0].concat()), "{file}: the same map as another floor");
        }
        assert_eq!(delve.retries, 0, "seed {seed}: a floor was made again");
        for f in features(&delve.levels) {
            *counts.entry(f).or_default() += 1;
        }
    }
    eprintln!("{d:?}: {n} dungeons in {:?}; features: {counts:?}", t.elapsed());
    for f in FEATURES {
        let c = counts.get(f).copied().unwrap_or(0);
        assert!(c * 3 >= n as usize, "{d:?}: '{f}' in {c} of {n} dungeons, under a third");
    }
}

#[test]
fn two_hundred_easy_dungeons_validate_and_are_proven() {
    seeds(Difficulty::Easy, 0);
}

#[test]
fn two_hundred_normal_dungeons_validate_and_are_proven() {
    seeds(Difficulty::Normal, 10_000);
}

#[test]
fn two_hundred_hard_dungeons_validate_and_are_proven() {
    seeds(Difficulty::Hard, 20_000);
}

/// A crawl whose only key lies behind the door it opens: the proof fails and names the door;
/// `validate` reports the exit as unreachable with its keys. With the key on the near side,
/// both pass.
#[test]
fn a_key_behind_its_own_door_fails_the_proof_and_validate_names_it() {
    let data = RuleData::load(&root()).unwrap();
    let text = |key_at: &str| include_str!("delve_key_behind_door.ron").replace("KEY_AT", key_at);
    let bad = text("(6, 2)");
    let level: Level = doo_rules::data::parse_ron("bad.ron", &bad).unwrap();
    let e = prove(&level).unwrap_err();
    assert!(e.contains("(4, 2)") && e.contains("brass_key"), "{e}");
    let errs = doo_rules::level_file::check("bad.ron", &bad, &data, &root()).unwrap_err();
    assert!(errs.iter().any(|e| e.message.contains("cannot be reached by side 'heroes' with its keys") && e.message.contains("brass_key")), "{errs:?}");
    let good = text("(2, 1)");
    let level: Level = doo_rules::data::parse_ron("good.ron", &good).unwrap();
    let p = prove(&level).unwrap();
    assert_eq!(p.keys, vec!["brass_key".to_string()]);
    assert!(doo_rules::level_file::check("good.ron", &good, &data, &root()).is_ok());
}

/// Every shipped level still validates with the key check (and the crawls are proven).
#[test]
fn shipped_levels_are_proven() {
    let data = RuleData::load(&root()).unwrap();
    for e in std::fs::read_dir(root().join("levels")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "ron") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        let r = doo_rules::level_file::check(&p.display().to_string(), &text, &data, &root());
        assert!(r.is_ok(), "{}: {:?}", p.display(), r.err());
        let level: Level = doo_rules::data::parse_ron("x", &text).unwrap();
        assert!(prove(&level).is_ok(), "{}: {:?}", p.display(), prove(&level).err());
    }
}

/// The size and floor caps: eight floors of 24×24 and one of 96×96 (a small party, on hard),
/// and a non-square floor, validate and are proven; out of range is refused.
#[test]
fn the_caps_validate_and_out_of_range_is_refused() {
    let data = RuleData::load(&root()).unwrap();
    let shapes = [(8, 24, 24, vec!["lunk"]), (1, 96, 96, vec!["mira", "ade"]), (2, 90, 30, vec!["tobin", "lunk", "ade"])];
    for (floors, width, height, party) in shapes {
        for seed in 0..10 {
            let p = Params { floors, width, height, party: party.iter().map(|s| s.to_string()).collect(), ..params(seed, Difficulty::Hard) };
            let delve = generate(&p, &data).unwrap();
            assert_eq!(delve.levels.len(), floors as usize);
            for (k, (level, text)) in delve.levels.iter().zip(&delve.texts).enumerate() {
                let file = format!("{width}x{height} seed {seed} floor {}", k + 1);
                assert!(doo_rules::level_file::check(&file, text, &data, &root()).is_ok(), "{file}\n{text}");
                assert!(doo_rules::level_edit::problems(&file, text, level, &data, &root()).is_empty(), "{file}");
                assert!(prove(level).is_ok(), "{file}");
            }
        }
    }
    for bad in [
        Params { floors: 0, ..params(1, Difficulty::Easy) },
        Params { floors: 9, ..params(1, Difficulty::Easy) },
        Params { width: 23, ..params(1, Difficulty::Easy) },
        Params { height: 97, ..params(1, Difficulty::Easy) },
        Params { party: vec![], ..params(1, Difficulty::Easy) },
        Params { party: vec!["../x".into()], ..params(1, Difficulty::Easy) },
        Params { party: vec!["nobody".into()], ..params(1, Difficulty::Easy) },
        Params { strength: Some(0), ..params(1, Difficulty::Easy) },
        Params { strength: Some(doo_rules::delve::MAX_STRENGTH + 1), ..params(1, Difficulty::Easy) },
    ] {
        assert!(generate(&bad, &data).is_err(), "{bad:?}");
    }
}

/// The encounters are built to the strength of the party that plays (the window's Delve builds
/// the floors again for the heroes chosen on the party screen): the ready-made four's strength
/// given explicitly is the same dungeon byte for byte, half of it fewer foes.
#[test]
fn the_encounters_are_built_to_the_party_that_plays() {
    let data = RuleData::load(&root()).unwrap();
    let heroes: Vec<_> = ["lunk", "mira", "tobin", "ade"]
        .iter()
        .map(|h| doo_rules::campaign::load_hero(&root().join(format!("heroes/{h}.ron")), &data, data.heroes.allowance).unwrap().0)
        .collect();
    let four = doo_rules::delve::party_strength(&heroes, &data);
    let two = doo_rules::delve::party_strength(&heroes[..2], &data);
    assert!(two < four && two > 0, "two heroes {two}, four {four}");
    let foes = |l: &Level| l.characters.iter().filter(|c| c.side.as_deref() == Some("monsters")).count();
    let (mut full, mut half) = (0, 0);
    for seed in 0..8 {
        let d = Difficulty::Normal;
        let plain = generate(&params(seed, d), &data).unwrap();
        let same = generate(&Params { strength: Some(four), ..params(seed, d) }, &data).unwrap();
        assert_eq!(plain.texts, same.texts, "seed {seed}: the four's strength given is the same dungeon");
        let weaker = generate(&Params { strength: Some(four / 2), ..params(seed, d) }, &data).unwrap();
        full += plain.levels.iter().map(foes).sum::<usize>();
        half += weaker.levels.iter().map(foes).sum::<usize>();
    }
    // (not half as many: the boss, the ambush and each group's least budget do not shrink)
    assert!(half * 10 < full * 9, "half the strength, fewer foes: {half} beside {full}");
}
