//! Heroes and campaigns as players and level designers meet them: bad hero and campaign files
//! through the real `doo validate` (exact first line, `file:line:col`, the rule id), the shipped
//! heroes and campaign valid, and the whole shipped campaign played headless by the AI with its
//! carry-over checked at every level start (R-CP-10, R-CP-12, R-CP-13).

use std::process::Command;

fn doo(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(crate::common::doo_bin()).args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().expect("run doo");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// Each bad file and the first line `doo validate` must print for it.
const BAD: &[(&str, &str)] = &[
    // R-STAT-2, R-CP-2: a Core hero's stats are one of the arrays
    ("tests/heroes/bad/h01_not_an_array.ron", "4:5: 9-9-7-6 is not one of the Core stat arrays (7-7-7-6, 8-7-7-5 … 12-4-4-3). (R-STAT-2)"),
    // R-CP-3
    (
        "tests/heroes/bad/h02_unknown_package.ron",
        "4:5: There is no skill package 'bard' (the packages: priest, ranger, rogue, templar, troubadour, warrior, wizard). (R-CP-3)",
    ),
    // R-CP-11: Journeyman → Foreman 2 CP + Brawn 10 3 CP, with 3 CP earned
    ("tests/heroes/bad/h03_overspent.ron", "6:5: Spender spent 5 CP but had only 3 (CP are spent only when banked). (R-CP-11)"),
    // R-CP-4: 5+5+5+1 for the stats, Master 6 = 22 CP
    ("tests/heroes/bad/h04_point_buy_over_budget.ron", "4:5: This hero costs 22 CP; the budget is 20 CP. (R-CP-4)"),
    ("tests/heroes/bad/h05_unknown_weapon.ron", "5:5: unknown weapon 'laser_sword'"),
    // R-CP-14: greatsword $75 + chainmail $75 + $10 > $150
    ("tests/heroes/bad/h06_gear_over_allowance.ron", "7:5: a new hero's gear ($150) and purse ($10) come to more than the $150 he starts with (R-CP-14)"),
    ("tests/heroes/bad/h07_syntax.ron", "5:2: Expected comma"),
    (
        "tests/heroes/bad/h08_unknown_field.ron",
        "4:5: Unexpected field named `wings` in `Hero`, expected one of `version`, `name`, `size`, `make`, `bought`, `cp_earned`, `weapon`, `weapon_skill`, `shield`, `armor`, `items`, `ammo`, `light`, `purse`, `hp`, `conditions`, or `player` instead",
    ),
    // R-CP-3, G-76: the Journeyman skill must be one the hero has
    (
        "tests/heroes/bad/h09_journeyman_not_held.ron",
        "4:5: Healing must be a skill the hero has from the package or the common skills to be raised to Journeyman (G-76). (R-CP-3)",
    ),
    // R-CP-4: range 3-12
    ("tests/heroes/bad/h10_stat_13.ron", "4:5: Brawn 13: a hero's stats lie between 3 and 12. (R-CP-4)"),
    // R-CP-14: starting gear is bought at the data's costs; treasure is not for sale
    ("tests/heroes/bad/h11_treasure_at_start.ron", "5:5: 'gold_coins' is not for sale: a new hero cannot start with it (R-CP-14)"),
    ("tests/heroes/bad/h12_newer_version.ron", "2:5: hero files are version 1; this one is version 2"),
    // R-CP-12, R-EXP-18: a light carried over burns 1 to its full minutes
    ("tests/heroes/bad/h13_light_too_long.ron", "13:5: light 'torch': minutes 500 is out of range (1 to 120, R-EXP-18)"),
    ("tests/campaigns/bad/c01_unknown_next.ron", "5:69: level 'one': next names no level of this campaign: 'three'"),
    ("tests/campaigns/bad/c02_loop.ron", "5:14: level 'one': winning every level comes back to it, so the campaign never ends"),
    (
        "tests/campaigns/bad/c03_missing_level.ron",
        "5:28: level 'one': '../../../levels/no_such_level.ron': cannot read: No such file or directory (os error 2)",
    ),
    ("tests/campaigns/bad/c04_no_party_side.ron", "5:14: level 'one': the level has no side 'heroes' for the party"),
    ("tests/campaigns/bad/c06_duplicate_id.ron", "6:14: level 'one' is used twice"),
    ("tests/campaigns/bad/c07_no_levels.ron", "4:5: a campaign needs at least one level"),
    ("tests/campaigns/bad/c08_unknown_slay.ron", "5:108: level 'one': objective 'Slay the dragon': no character 'dragon' in the level"),
    ("tests/campaigns/bad/c09_party_max.ron", "4:5: the party is 1 to 8 heroes, party_min ≤ party_max (here 1..40)"),
    ("tests/campaigns/bad/c10_level_not_ron.ron", "5:28: level 'one': the level file must be a .ron file: '/etc/passwd'"),
];

#[test] // R-CP-2..R-CP-14: every bad hero or campaign file gets its exact located error, fast, no panic
fn bad_hero_and_campaign_files_get_located_errors() {
    for (file, want) in BAD {
        let t0 = std::time::Instant::now();
        let (code, out, err) = doo(&["validate", file]);
        assert_eq!(code, 1, "{file}: {out}{err}");
        assert!(!err.contains("panicked"), "{file}: {err}");
        assert_eq!(out.lines().next().unwrap_or(""), format!("{file}:{want}"), "{file}");
        assert!(t0.elapsed().as_secs() < 5, "{file} took {:?}", t0.elapsed());
    }
    // a campaign naming a bad hero file reports the hero file's own place
    let (code, out, _) = doo(&["validate", "tests/campaigns/bad/c05_bad_hero.ron"]);
    assert_eq!(code, 1);
    assert!(out.starts_with("tests/campaigns/bad/../../heroes/bad/h01_not_an_array.ron:4:5: 9-9-7-6"), "{out}");
}

#[test] // R-CP-2, R-CP-4, R-CP-14: the shipped heroes (Core and point-buy) and the campaign are valid
fn shipped_heroes_and_campaign_validate() {
    let (code, out, err) = doo(&["validate", "heroes/lunk.ron", "heroes/mira.ron", "heroes/tobin.ron", "heroes/ade.ron", "campaigns/drowned_crown.ron"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("5 valid, 0 invalid"), "{err}");
}

#[test] // R-CP-9, R-CP-10, R-CP-12, R-CP-13, R-CP-11: the AI plays the whole shipped campaign; at
// every level start each hero's HP, items and CP are what the last level left plus the awards
// and the rest; CP are spent between levels; a lost level is replayed from its starting roster
fn the_ai_plays_the_shipped_campaign_with_exact_carry_over() {
    let dir = std::env::temp_dir().join(format!("doo-campaign-test-{}", std::process::id()));
    for seed in [1, 2] {
        let (code, out, err) = doo(&["campaign", "simulate", "campaigns/drowned_crown.ron", "--seed", &seed.to_string(), "--dir", &dir.display().to_string()]);
        assert_eq!(code, 0, "seed {seed}: {out}{err}");
        let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect();
        let levels: Vec<&serde_json::Value> = lines.iter().filter(|l| l["type"] == "level").collect();
        assert!(levels.len() >= 4, "seed {seed}: at least the four levels are played: {out}");
        assert!(levels.iter().all(|l| l["carry_over"] == "ok"), "{out}");
        let summary = lines.last().unwrap();
        assert_eq!(summary["type"], "campaign");
        assert_eq!(summary["carry_over_failures"], 0);
        // every won level gave each living hero at least the level's 1 CP (R-CP-10)
        for l in levels.iter().filter(|l| l["won"] == true) {
            assert!(l["cp"].as_object().is_some_and(|m| !m.is_empty()), "{l}");
        }
        // R-CP-9, R-CP-10: every CP is told as a cp_earned event, and they add up to the level's CP;
        // each hero after the level as the rules build him (doo hero show's object)
        for l in &levels {
            let mut told: std::collections::BTreeMap<String, u64> = Default::default();
            for e in l["cp_earned"].as_array().expect("cp_earned events") {
                assert_eq!(e["event"], "cp_earned", "{e}");
                assert!(e["rule"] == "R-CP-9" || e["rule"] == "R-CP-10", "{e}");
                *told.entry(e["hero"].as_str().unwrap().to_string()).or_default() += e["cp"].as_u64().unwrap();
            }
            let cp: std::collections::BTreeMap<String, u64> = l["cp"].as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.as_u64().unwrap())).collect();
            assert_eq!(told, cp, "{l}");
            for h in l["heroes"].as_array().expect("the heroes after the level") {
                assert!(h["max_hp"].as_i64().unwrap() > 0 && h["cp_banked"].as_u64().unwrap() <= h["cp_earned"].as_u64().unwrap() + 20, "{h}");
            }
        }
        // a lost level gives nothing (R-CP-13)
        for l in levels.iter().filter(|l| l["won"] == false) {
            assert!(l["cp"].as_object().is_some_and(|m| m.is_empty()), "{l}");
        }
    }
}
