//! Command-line tools that need no window: `run` plays a script and prints JSON lines.

use crate::headless::run_script;
use doo_rules::data::RuleData;
use doo_rules::script;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// The rule data from `./assets` (or the built-in copies); exit 2 with the error on stderr.
pub fn rule_data() -> Result<RuleData, ExitCode> {
    RuleData::load(Path::new(".")).map_err(|e| {
        eprintln!("{e}");
        ExitCode::from(2)
    })
}

/// `doo run <script> [--check]`: exit 0 when played (and checks pass), 1 on failed checks,
/// 2 when the script cannot be read or set up.
pub fn run(path: &Path, check: bool) -> ExitCode {
    let (s, level) = match script::load(path) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let data = match rule_data() {
        Ok(d) => d,
        Err(code) => return code,
    };
    let lines = match run_script(&data, &s, level.as_ref()) {
        Ok(l) => l,
        Err(errs) => {
            let text = doo_rules::data::read_text(path, doo_rules::data::MAX_FILE_BYTES).unwrap_or_default();
            let locator = doo_rules::data::MessageLocator::new(&text);
            for e in errs {
                let (line, col) = locator.locate(&e);
                eprintln!("{}:{line}:{col}: {e}", path.display());
            }
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for l in &lines {
        let _ = writeln!(out, "{l}");
    }
    if check {
        if let Some(exp) = &s.expect {
            let bad = script::check(exp, &lines);
            for b in &bad {
                eprintln!("{}: check failed: {b}", path.display());
            }
            if !bad.is_empty() {
                return ExitCode::from(1);
            }
        }
    }
    ExitCode::SUCCESS
}

/// `doo validate <file.ron>…`: every problem of every file as `file:line:col: message`; exit 0
/// when all are valid, 1 when any is not.
pub fn validate(paths: &[std::path::PathBuf]) -> ExitCode {
    let data = match rule_data() {
        Ok(d) => d,
        Err(code) => return code,
    };
    let mut bad = 0;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for p in paths {
        // Hero, campaign and campaign script files are told apart by their first word (`Hero(`,
        // `Campaign(`, `CampaignScript(`).
        let text = doo_rules::data::read_text(p, doo_rules::data::MAX_FILE_BYTES).unwrap_or_default();
        let kind = first_word(&text);
        if kind == "Hero" || kind == "Campaign" || kind == "CampaignScript" {
            let r = match kind.as_str() {
                "Hero" => doo_rules::campaign::check_hero(&p.display().to_string(), &text, &data, Some(data.heroes.allowance)).map(|_| ()),
                "Campaign" => doo_rules::campaign::check_campaign(p, &text, &data).map(|_| ()),
                _ => doo_rules::campaign_run::load(p, &data).map(|_| ()),
            };
            if let Err(e) = r {
                bad += 1;
                let _ = writeln!(out, "{e}");
            }
            continue;
        }
        let root = doo_rules::level_file::project_root(p);
        match doo_rules::level_file::load(p, &data, &root) {
            Ok(_) => {}
            Err(errs) => {
                bad += 1;
                for e in errs {
                    let _ = writeln!(out, "{}:{}:{}: {}", p.display(), e.line, e.col, e.message);
                }
            }
        }
    }
    eprintln!("{} valid, {} invalid", paths.len() - bad, bad);
    if bad == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) }
}

/// The first word of a RON file outside comments (`Level`, `Hero`, `Campaign`, …).
fn first_word(text: &str) -> String {
    doo_rules::data::after_leading_comments(text).chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect()
}

/// Where `simulate` keeps its games: a save per game in a folder, or one autosaved file.
#[derive(Clone, Debug, Default)]
pub struct SimSaves {
    pub save_dir: Option<std::path::PathBuf>,
    pub autosave: Option<std::path::PathBuf>,
    /// Play the level under this profile or ruleset instead of its own (`--profile A4`).
    pub profile: Option<String>,
}

/// `doo simulate --resume SAVE`: the saved game replayed, checked, and played to the end.
pub fn simulate_resume(
    save_path: &Path,
    difficulty: doo_rules::ai::Difficulty,
    sides: std::collections::BTreeMap<String, doo_rules::ai::Difficulty>,
    autosave: Option<std::path::PathBuf>,
) -> ExitCode {
    let data = match rule_data() {
        Ok(d) => d,
        Err(code) => return code,
    };
    let (save, _, level) = match doo_rules::save::load_save(save_path, &data) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let mut sides = sides;
    for s in &save.seats {
        if let Some(d) = s.ai {
            sides.entry(s.side.clone()).or_insert(d);
        }
    }
    let cfg = doo_rules::ai::AiConfig::for_level(level.side_ids(), &level.behaviours, &level.level.victory, difficulty, &sides, save.seed, data.ai.clone());
    match crate::simulate::resume(&data, &level, cfg, &save, autosave) {
        Ok(r) => {
            println!("{}", serde_json::to_string(&r).unwrap_or_default());
            if r.rejected > 0 || !r.ended { ExitCode::from(1) } else { ExitCode::SUCCESS }
        }
        Err(e) => {
            eprintln!("{}: {e}", save_path.display());
            ExitCode::from(1)
        }
    }
}

/// `doo replay SAVE… [--verify]`: one JSON line per save (commands, checkpoints, final hash).
/// `doo-headless stress-save DIR`: the hostile save at the command cap (`doo_rules::stress`) and
/// its level, written for `replay --verify` to be held to its limits (issue 44). Over the cap
/// is refused: the save would not load.
pub fn stress_save(dir: &std::path::Path, commands: usize) -> ExitCode {
    if commands > doo_rules::save::caps::COMMANDS {
        eprintln!("stress-save: at most {} commands (the save's cap)", doo_rules::save::caps::COMMANDS);
        return ExitCode::from(2);
    }
    let data = match rule_data() {
        Ok(d) => d,
        Err(code) => return code,
    };
    let (_, save) = doo_rules::stress::greedy_save(&data, commands);
    use doo_rules::data::{make_dir, write_atomic};
    let written = make_dir(dir)
        .and_then(|()| write_atomic(&dir.join("level.ron"), &doo_rules::stress::greedy_level()))
        .and_then(|()| write_atomic(&dir.join("save.ron"), &save.to_text()));
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("stress-save: {}: {e}", dir.display());
            ExitCode::from(2)
        }
    }
}

pub fn replay(paths: &[std::path::PathBuf], verify: bool) -> ExitCode {
    let data = match rule_data() {
        Ok(d) => d,
        Err(code) => return code,
    };
    let mut worst = 0u8;
    for p in paths {
        let (save, _, level) = match doo_rules::save::load_save(p, &data) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("{e}");
                worst = worst.max(2);
                continue;
            }
        };
        // Replayed in plain Rust, the one flow (no app is started); a panic in the rules is caught.
        // Only the checkpoints and the outcome are kept, not the log (issue 44: a save at the
        // command cap in under a second and a few megabytes).
        let keep = doo_rules::replay::Keep::Checkpoints;
        let replayed = doo_rules::replay::Origin::of_save(&data, &save, &level)
            .and_then(|o| doo_rules::replay::run_catching_keeping(&o, &save.commands, keep).map_err(|(_, e)| e));
        let r = match replayed {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{}: {e}", p.display());
                worst = worst.max(1);
                continue;
            }
        };
        let r = &r;
        let checked = if verify {
            match doo_rules::replay::verify(&save, r) {
                Ok(n) => Some(n),
                Err(e) => {
                    eprintln!("{}: {e}", p.display());
                    worst = worst.max(1);
                    continue;
                }
            }
        } else {
            None
        };
        let line = serde_json::json!({
            "save": p.display().to_string(),
            "commands": save.commands.len(),
            "turn": r.m.clock.turn,
            "over": r.over,
            "winner": r.outcome.as_ref().and_then(|o| o.winner.clone()),
            "checkpoints_verified": checked,
            "final_hash": r.hash(),
        });
        println!("{line}");
    }
    ExitCode::from(worst)
}

/// `doo simulate`: exit 0 when every game ended without an illegal AI command, 1 otherwise.
pub fn simulate(
    path: &Path,
    seed: u64,
    games: u32,
    difficulty: doo_rules::ai::Difficulty,
    sides: std::collections::BTreeMap<String, doo_rules::ai::Difficulty>,
    saves: SimSaves,
) -> ExitCode {
    let data = match rule_data() {
        Ok(d) => d,
        Err(code) => return code,
    };
    let root = doo_rules::level_file::project_root(path);
    let mut level = match doo_rules::level_file::load(path, &data, &root) {
        Ok(l) => l,
        Err(errs) => {
            for e in errs {
                eprintln!("{}:{}:{}: {}", path.display(), e.line, e.col, e.message);
            }
            return ExitCode::from(2);
        }
    };
    if let Some(p) = &saves.profile {
        if !data.profiles.profiles.contains_key(p) && *p != data.a4.name {
            eprintln!("--profile {p}: unknown (known: {}, {})", data.profiles.profiles.keys().cloned().collect::<Vec<_>>().join(", "), data.a4.name);
            return ExitCode::from(2);
        }
        level.level.profile = Some(p.clone());
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut results = Vec::new();
    for g in 0..games {
        let s = seed.wrapping_add(g as u64);
        let cfg = doo_rules::ai::AiConfig::for_level(level.side_ids(), &level.behaviours, &level.level.victory, difficulty, &sides, s, data.ai.clone());
        let recording = if saves.save_dir.is_some() || saves.autosave.is_some() {
            let seats = level
                .sides
                .iter()
                .map(|d| doo_rules::save::Seat { side: d.id.clone(), player: String::new(), ai: Some(sides.get(&d.id).copied().unwrap_or(difficulty)) })
                .collect();
            match doo_rules::save::save_header(path, &level, s, seats, true) {
                Ok(h) => crate::simulate::Recording { header: Some(h), autosave: saves.autosave.clone() },
                Err(e) => {
                    eprintln!("{e}");
                    return ExitCode::from(2);
                }
            }
        } else {
            crate::simulate::Recording::default()
        };
        match crate::simulate::play_recorded(&data, &level, cfg, s, g, &recording) {
            Ok(r) => {
                if let (Some(dir), Some(save)) = (&saves.save_dir, &r.save) {
                    let file = dir.join(format!("game-{s}.ron"));
                    if let Err(e) = doo_rules::data::write_atomic(&file, &save.to_text()) {
                        eprintln!("{}: {e}", file.display());
                        return ExitCode::from(2);
                    }
                }
                let _ = writeln!(out, "{}", serde_json::to_string(&r).unwrap_or_default());
                results.push(r);
            }
            Err(e) => {
                eprintln!("{}: game {g}: {e}", path.display());
                return ExitCode::from(1);
            }
        }
    }
    let mut wins: std::collections::BTreeMap<String, u32> = std::collections::BTreeMap::new();
    for r in &results {
        *wins.entry(r.winner.clone().unwrap_or_else(|| "draw".into())).or_default() += 1;
    }
    let mut all: Vec<u64> = Vec::new();
    let rejected: usize = results.iter().map(|r| r.rejected).sum();
    let unended = results.iter().filter(|r| !r.ended).count();
    for r in &results {
        all.push(r.median_decision_us);
    }
    all.sort_unstable();
    let summary = serde_json::json!({
        "type": "summary",
        "level": path.display().to_string(),
        "games": results.len(),
        "wins": wins,
        "mean_turns": results.iter().map(|r| r.turns as f64).sum::<f64>() / results.len().max(1) as f64,
        "rejected_commands": rejected,
        "unended_games": unended,
        "median_decision_us": all.get(all.len() / 2).copied().unwrap_or(0),
        "max_decision_us": results.iter().map(|r| r.max_decision_us).max().unwrap_or(0),
        "budget_cuts": results.iter().map(|r| r.budget_cuts).sum::<usize>(),
        "mean_think_ms_per_game": results.iter().map(|r| r.think_ms).sum::<f64>() / results.len().max(1) as f64,
    });
    let _ = writeln!(out, "{summary}");
    if rejected > 0 || unended > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

/// `doo hero show FILE`: the hero as the rules build him, as one JSON object (docs/heroes.md).
pub fn hero_show(path: &Path) -> ExitCode {
    let data = match rule_data() {
        Ok(d) => d,
        Err(code) => return code,
    };
    // A hero already in play is shown as he stands (his gear is not held to a new hero's allowance).
    let text = match doo_rules::data::read_text(path, doo_rules::data::MAX_FILE_BYTES) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let hero = match doo_rules::campaign::check_hero(&path.display().to_string(), &text, &data, Some(data.heroes.allowance)) {
        Ok((h, _, _)) => h,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match doo_rules::campaign::hero_json(&hero, &data) {
        Ok(j) => {
            println!("{j}");
            ExitCode::SUCCESS
        }
        Err(v) => {
            eprintln!("{}:1:1: {} ({})", path.display(), v.reason, v.rule);
            ExitCode::from(2)
        }
    }
}

/// `doo campaign run SCRIPT [--check]`: a campaign script played headless (docs/campaigns.md):
/// one JSON line per command, event, purchase, level and hero; exit 1 when `--check` finds a
/// mismatch, 2 when a file is bad.
pub fn campaign_run(path: &Path, check: bool) -> ExitCode {
    let data = match rule_data() {
        Ok(d) => d,
        Err(code) => return code,
    };
    let loaded = match doo_rules::campaign_run::load(path, &data) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let lines = match doo_rules::campaign_run::run(&loaded, &data) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for l in &lines {
        let _ = writeln!(out, "{l}");
    }
    if check {
        if let Some(exp) = &loaded.script.expect {
            let bad = doo_rules::campaign_run::check(exp, &lines);
            for b in &bad {
                eprintln!("{}: check failed: {b}", path.display());
            }
            if !bad.is_empty() {
                return ExitCode::from(1);
            }
        }
    }
    ExitCode::SUCCESS
}
