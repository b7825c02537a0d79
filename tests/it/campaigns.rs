//! Heroes and campaigns as players and level designers meet them: bad hero and campaign files
//! through the real `doo validate` (exact first line, `file:line:col`, the rule id), the shipped
//! heroes and campaign valid, and the whole shipped campaign played headless by the AI with its
//! carry-over checked at every level start (R-CP-10, R-CP-12, R-CP-13).

use std::process::Command;

fn doo(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(crate::common::doo_bin()).args(args).current_dir(crate::common::root()).output().expect("run doo");
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
        "4:5: Unexpected field named `wings` in `Hero`, expected one of `version`, `name`, `size`, `pronouns`, `make`, `bought`, `cp_earned`, `weapon`, `weapon_skill`, `shield`, `armor`, `items`, `ammo`, `light`, `purse`, `hp`, `conditions`, or `player` instead",
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
    ("tests/campaigns/bad/c02_loop.ron", "5:14: level 'one': winning 'one' → 'two' → 'one' comes back to it, so from there the campaign never ends"),
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
    // issue 42: every number of a campaign file has a cap, checked at its own place (R-CP-10:
    // an objective worth 2^32-1 CP overflowed the sum of a hero's CP)
    ("tests/campaigns/bad/c11_objective_cp_huge.ron", "5:78: level 'one': objective 'Be rich': cp 4294967295: the most is 100 (R-CP-10)"),
    // issue 42: a refusal points at the field written (it pointed at 1:1, party_max being absent)
    ("tests/campaigns/bad/c18_party_min_over_default_max.ron", "5:5: the party is 1 to 8 heroes, party_min ≤ party_max (here 6..4)"),
    ("tests/campaigns/bad/c12_rest_days_huge.ron", "4:5: rest_days 4294967295: the most is 365"),
    // issue 42: the end is reachable from every level along every branch: here the first
    // level's loss leads into two levels whose wins lead to each other
    (
        "tests/campaigns/bad/c13_loss_into_win_loop.ron",
        "7:14: level 'cell': winning 'cell' → 'yard' → 'cell' comes back to it, so from there the campaign never ends",
    ),
    ("tests/campaigns/bad/c14_budget_over_cap.ron", "4:5: point_buy_budget 4294967295: the most is 1000 (R-CP-4)"),
    // R-CP-4: a hero's budget is tied to the campaign's (here the rules' 20 CP)
    (
        "tests/campaigns/bad/c15_hero_budget_over_campaign.ron",
        "4:14: hero file '../heroes/pip_budget_30.ron': Pip was made on a budget of 30 CP; this campaign's is 20 CP (R-CP-4)",
    ),
    // R-CP-4, issue 42: a hero's own budget is capped (it granted itself billions of CP banked)
    ("tests/heroes/bad/h13_budget_huge.ron", "7:9: budget 4294967295: a point-buy budget is at most 1000 CP, the most a campaign's may be (R-CP-4)"),
    // issue 42: problems a campaign level would meet in play are found by validate, in the file
    // the user wrote (they were reported in play at a generated level-001-….ron, or nowhere)
    ("tests/campaigns/bad/c17_no_room_for_the_party.ron", "6:14: level 'closet': the level has room for 1 hero on side 'heroes'; the party may have 2"),
    // R-CP-14, issue 42: with no purse written the refusal points at the gear (it said 1:1)
    (
        "tests/heroes/bad/h15_gear_over_allowance_no_purse.ron",
        "6:5: a new hero's gear ($170) and purse ($0) come to more than the $150 he starts with (R-CP-14)",
    ),
    // G-75: a hero is medium or small
    ("tests/heroes/bad/h14_size_large.ron", "4:5: size large: a hero is medium or small (G-75)"),
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
    // issue 42: a campaign level whose event names a figure of the party (which the campaign
    // replaces by its heroes) is refused by validate at the level file's own place (it was
    // reported in play at a generated level-001-….ron that exists nowhere)
    let (code, out, _) = doo(&["validate", "tests/campaigns/bad/c16_event_names_party_figure.ron"]);
    assert_eq!(code, 1);
    assert_eq!(
        out.lines().next().unwrap_or(""),
        "tests/campaigns/bad/../../levels/events/hall.ron:44:72: campaign level 'hall': a level event names 'dara', a figure of side 'heroes', which a campaign replaces by its heroes: name the side instead",
    );
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

#[test] // issue 42: a campaign that never ends (the party keeps losing) is capped: `doo campaign
// simulate` stops after 12 levels played and says so, in its summary and on stderr
fn a_simulated_campaign_that_never_ends_is_given_up_with_a_clear_message() {
    let dir = std::env::temp_dir().join(format!("doo-campaign-hopeless-{}", std::process::id()));
    let (code, out, err) = doo(&["campaign", "simulate", "tests/campaigns/sim/hopeless.ron", "--seed", "1", "--dir", &dir.display().to_string()]);
    assert_eq!(code, 0, "{out}{err}");
    let summary: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!((summary["levels_played"].as_u64(), summary["abandoned"].as_bool(), summary["won"].as_bool()), (Some(12), Some(true), Some(false)), "{summary}");
    let note = "12 levels played without reaching the end: the simulated campaign is called abandoned";
    assert_eq!(summary["note"], note);
    assert!(err.contains(&format!("tests/campaigns/sim/hopeless.ron: {note}")), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 43's balance, a short seeded sample of what the README's 20-seed table measures ("after
/// the first level, on average at least 3 of 4 heroes are fit for the next"): `doo campaign
/// simulate --plays 1` plays only the road (the campaign's first level, AI for every side) on
/// four fixed seeds; it is won on each, and the heroes fit for the vault (in the roster, not
/// sitting out: R-CP-13) are on average at least 3 of 4. The last play's autosave holds the
/// finished road with the campaign in its header; the summary says the run was stopped, not
/// abandoned.
#[test]
fn the_road_is_won_and_leaves_three_of_four_heroes_fit_on_average() {
    let mut fit = Vec::new();
    for seed in [1u64, 4, 5, 9] {
        let dir = std::env::temp_dir().join(format!("doo-campaign-road-{}-{seed}", std::process::id()));
        let args = ["campaign", "simulate", "campaigns/drowned_crown.ron", "--seed", &seed.to_string(), "--plays", "1", "--dir", &dir.display().to_string()];
        let (code, out, err) = doo(&args);
        assert_eq!(code, 0, "seed {seed}: {out}{err}");
        let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect();
        assert_eq!(lines.len(), 2, "seed {seed}: one level, then the summary: {out}");
        let (road, summary) = (&lines[0], &lines[1]);
        assert_eq!((road["level"].as_str(), road["won"].as_bool()), (Some("road"), Some(true)), "seed {seed}: the road is won: {road}");
        assert_eq!((summary["stopped"].as_bool(), summary["abandoned"].as_bool()), (Some(true), Some(false)), "{summary}");
        let save = doo_rules::save::load(&dir.join("campaign-autosave.ron")).expect("the autosave reads back");
        assert_eq!(save.campaign.map(|p| p.level), Some(Some("road".to_string())), "seed {seed}: the autosave is the road's, in the campaign");
        let heroes = road["heroes"].as_array().expect("the heroes after the level").len();
        let out_of_it = road["sitting_out"].as_array().expect("who sits out").len();
        fit.push(heroes - out_of_it);
        let _ = std::fs::remove_dir_all(&dir);
    }
    let mean = fit.iter().sum::<usize>() as f64 / fit.len() as f64;
    assert!(mean >= 3.0, "on average {mean} of 4 heroes fit after the road (issue 43: at least 3): {fit:?}");
}
