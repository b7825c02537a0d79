//! A delve played (issue 47): the ready-made party offered when it begins, and the run summary
//! that ends it (floors cleared, foes defeated, CP earned, the fallen, the seed to share).

use super::Params;
use crate::campaign::{Hero, Progress};
use crate::data::RuleData;

/// The heroes a delve offers ready-made: the generator's party (`Params::new`'s, read from
/// `root/heroes/`), each as the campaign's party screen offers its heroes. A hero file that
/// does not load is left out and named in the second list.
pub fn ready_party(params: &Params, data: &RuleData, allowance: u32) -> (Vec<Hero>, Vec<String>) {
    let mut heroes = Vec::new();
    let mut problems = Vec::new();
    for id in &params.party {
        let path = params.root.join("heroes").join(format!("{id}.ron"));
        match crate::campaign::load_hero(&path, data, allowance) {
            Ok((h, _, _)) => heroes.push(h),
            Err(e) => problems.push(format!("{}:{}:{}: {}", e.file, e.line, e.col, e.message)),
        }
    }
    (heroes, problems)
}

/// The run summary of a delve of `floors` floors, line by line: how far the party came, the
/// foes it defeated, the CP each hero earned (R-CP-9, R-CP-10), who fell (R-CP-12), and how
/// often a lost floor was played again (R-CP-13).
pub fn summary(progress: &Progress, floors: usize) -> Vec<String> {
    let cleared = progress.history.iter().filter(|r| r.won).count();
    let lost = progress.history.len() - cleared;
    let foes: u32 = progress.history.iter().map(|r| r.foes).sum();
    let mut lines = vec![format!("Floors cleared: {cleared} of {floors}")];
    if lost > 0 {
        lines.push(format!("Floors lost and played again: {lost} (R-CP-13)"));
    }
    lines.push(format!("Foes defeated: {foes}"));
    let mut earned: Vec<String> = progress.roster.iter().map(|h| format!("{} {}", h.name, h.cp_earned)).collect();
    let fallen: Vec<&String> = progress.history.iter().flat_map(|r| &r.fallen).collect();
    earned.extend(fallen.iter().map(|f| format!("{f} (fell)")));
    lines.push(format!("CP earned: {}", progress.roster.iter().map(|h| h.cp_earned).sum::<u32>()));
    if !earned.is_empty() {
        lines.push(format!("  {}", earned.join(", ")));
    }
    if !fallen.is_empty() {
        lines.push(format!("Fallen (R-CP-12): {}", fallen.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")));
    }
    lines
}

/// The line that names the dungeon so friends can play it: the seed, the difficulty and the
/// floors, as the Delve screen and `doo delve` take them.
pub fn share_line(params: &Params) -> String {
    format!(
        "Seed {} ({}, {} floors of {}×{}): the same seed and party give friends the same dungeon (doo delve --seed {} --difficulty {} --floors {} --size {}x{}).",
        params.seed,
        params.difficulty.name(),
        params.floors,
        params.width,
        params.height,
        params.seed,
        params.difficulty.name(),
        params.floors,
        params.width,
        params.height
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::LevelRecord;

    fn record(level: &str, won: bool, foes: u32, fallen: &[&str]) -> LevelRecord {
        LevelRecord { level: level.into(), won, cp: vec![], fallen: fallen.iter().map(|s| s.to_string()).collect(), rest: vec![], foes }
    }

    #[test] // R-CP-12, R-CP-13: the summary counts the floors won, the floors lost and played again, the foes, the fallen
    fn the_run_summary_counts_floors_foes_cp_and_the_fallen() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let data = RuleData::load(&root).unwrap();
        let params = Params::new(7, &root);
        let (heroes, problems) = ready_party(&params, &data, data.heroes.allowance);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(heroes.iter().map(|h| h.name.as_str()).collect::<Vec<_>>(), ["Lunk", "Mira", "Tobin", "Sister Ade"]);
        let mut roster = heroes;
        roster[0].cp_earned = 4;
        roster[1].cp_earned = 2;
        let c = crate::campaign::load_campaign(&root.join("campaigns/drowned_crown.ron"), &data).unwrap();
        let mut p = Progress::start(&c, roster[..2].to_vec(), vec![], 1);
        p.history = vec![record("floor_1", true, 5, &[]), record("floor_2", false, 2, &[]), record("floor_2", true, 7, &["Tobin"])];
        let lines = summary(&p, 3);
        assert_eq!(lines[0], "Floors cleared: 2 of 3");
        assert_eq!(lines[1], "Floors lost and played again: 1 (R-CP-13)");
        assert_eq!(lines[2], "Foes defeated: 14");
        assert_eq!(lines[3], "CP earned: 6");
        assert_eq!(lines[4], "  Lunk 4, Mira 2, Tobin (fell)");
        assert_eq!(lines[5], "Fallen (R-CP-12): Tobin");
        assert!(share_line(&params).starts_with("Seed 7 (normal, 3 floors of 64×64)"), "{}", share_line(&params));
    }

    #[test] // a hero file that does not load is named, not a panic
    fn a_missing_hero_is_named() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let data = RuleData::load(&root).unwrap();
        let mut params = Params::new(7, &root);
        params.party = vec!["lunk".into(), "nobody".into()];
        let (heroes, problems) = ready_party(&params, &data, data.heroes.allowance);
        assert_eq!(heroes.len(), 1);
        assert!(problems.len() == 1 && problems[0].contains("nobody.ron"), "{problems:?}");
    }
}
