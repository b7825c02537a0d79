//! Campaigns without a window: `doo campaign simulate` plays a whole campaign AI against AI
//! (the party too) through the same headless app as `simulate`, spends CP between levels the
//! way the advancement screen's "spend for me" does, and checks carry-over at every level
//! start: each hero's HP, items and CP equal what the last level's match left plus the rules'
//! awards and rest (R-CP-10, R-CP-12, R-CP-13). Each level is written and checked by
//! `doo_rules::campaign::prepare_level`, as the window plays it.

use doo_rules::campaign::{self, Hero, Progress};
use doo_rules::data::RuleData;
use doo_rules::level_file::CheckedLevel;
use serde_json::json;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Levels played before a simulated campaign is called abandoned (a party that keeps losing).
pub const MAX_PLAYS: usize = 12;

/// What the last level left each hero with, for the carry-over check.
#[derive(Clone, Debug, PartialEq)]
pub struct Expected {
    pub hp: i32,
    pub items: Vec<String>,
    pub cp_earned: u32,
}

/// The carry-over check (R-CP-12, R-CP-13): the match built for the level has every playing
/// hero with the HP, items and CP expected. Returns the mismatches.
pub fn check_carry_over(progress: &Progress, level: &CheckedLevel, expected: &BTreeMap<String, Expected>, data: &RuleData) -> Vec<String> {
    let mut bad = Vec::new();
    let Ok(m) = level.build(data) else { return vec!["the level does not build".into()] };
    for h in &progress.roster {
        let Some(want) = expected.get(&h.name) else { continue };
        if h.cp_earned != want.cp_earned {
            bad.push(format!("{}: CP earned {} at the level start, expected {}", h.name, h.cp_earned, want.cp_earned));
        }
        if progress.sitting_out.contains(&h.name) {
            continue;
        }
        let Some(i) = m.index(&h.id()) else {
            bad.push(format!("{} is not in the level", h.name));
            continue;
        };
        let f = &m.fighters[i];
        if f.hp != want.hp {
            bad.push(format!("{}: {} HP at the level start, expected {}", h.name, f.hp, want.hp));
        }
        if f.loadout.items != want.items {
            bad.push(format!("{}: items {:?} at the level start, expected {:?}", h.name, f.loadout.items, want.items));
        }
    }
    bad
}

/// `doo campaign simulate FILE`: one JSON line per level played, then a summary. Exit 0 when
/// every carry-over check held, 1 when one failed, 2 when a file cannot be read. `stop_after`:
/// at most that many levels played (`--plays`; the autosave in `dir` then holds the last
/// level's finished match with the campaign in its header; the summary says `"stopped": true`).
#[allow(clippy::too_many_arguments)]
pub fn simulate(
    data: &doo_rules::data::RuleData,
    path: &Path,
    seed: u64,
    party: &[PathBuf],
    difficulty: doo_rules::ai::Difficulty,
    dir: Option<PathBuf>,
    stop_after: Option<usize>,
) -> ExitCode {
    let (c, roster) = match load(data, path, party) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let dir = dir.unwrap_or_else(|| std::env::temp_dir().join(format!("doo-campaign-{}-{seed}", std::process::id())));
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let run = Run { seed, difficulty, dir, stop_after, stop_on_loss: false };
    let played = match play_campaign(data, &c, roster, &run, &mut |line| {
        let _ = writeln!(out, "{line}");
    }) {
        Ok(p) => p,
        Err((code, e)) => {
            eprintln!("{e}");
            return ExitCode::from(code);
        }
    };
    let progress = &played.progress;
    let banked: Vec<serde_json::Value> = progress
        .roster
        .iter()
        .map(|h| {
            let (_, banked) = h.sheet(&data.heroes).unwrap_or_default();
            json!({"hero": h.name, "cp_earned": h.cp_earned, "cp_banked": banked, "hp": h.hp, "items": h.items, "bought": h.bought.len()})
        })
        .collect();
    let plays = played.plays;
    let stopped = progress.level.is_some() && plays < MAX_PLAYS;
    let abandoned = progress.level.is_some() && !stopped;
    let failures = played.carry_over_failures;
    let mut summary = json!({
        "type": "campaign", "campaign": c.campaign.name, "won": progress.won, "levels_played": plays,
        "abandoned": abandoned, "stopped": stopped, "heroes": banked, "carry_over_failures": failures,
    });
    if abandoned {
        let note = format!("{MAX_PLAYS} levels played without reaching the end: the simulated campaign is called abandoned");
        eprintln!("{}: {note}", path.display());
        summary["note"] = json!(note);
    }
    let _ = writeln!(out, "{summary}");
    if failures > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

/// The campaign file and the party (the hero files given, else the campaign's ready-made
/// heroes), checked as the party screen checks them.
pub fn load(data: &RuleData, path: &Path, party: &[PathBuf]) -> Result<(campaign::CheckedCampaign, Vec<Hero>), String> {
    let c = campaign::load_campaign(path, data).map_err(|e| e.to_string())?;
    let allowance = c.campaign.allowance(&data.heroes);
    let mut roster: Vec<Hero> = Vec::new();
    for p in party {
        roster.push(campaign::load_hero(p, data, allowance).map_err(|e| e.to_string())?.0);
    }
    if roster.is_empty() {
        roster = c.heroes.clone();
    }
    roster.truncate(c.campaign.party_max);
    Progress::check_party(&c, &roster).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((c, roster))
}

/// How a simulated campaign is played: the seed (each level's is the next), the AI's
/// difficulty for every side, where the level files and the autosave go, and when to stop.
#[derive(Clone, Debug)]
pub struct Run {
    pub seed: u64,
    pub difficulty: doo_rules::ai::Difficulty,
    pub dir: PathBuf,
    /// At most this many levels played (never more than `MAX_PLAYS`).
    pub stop_after: Option<usize>,
    /// Stop at the first level not won (a delve: a party routed on a floor has failed it).
    pub stop_on_loss: bool,
}

/// What a simulated campaign came to.
#[derive(Clone, Debug)]
pub struct Played {
    pub progress: Progress,
    pub plays: usize,
    pub levels_won: usize,
    /// Carry-over checks that failed (R-CP-12, R-CP-13), each told on stderr.
    pub carry_over_failures: usize,
    /// AI commands the rules refused, over every level (must stay 0).
    pub rejected: usize,
    /// Levels that stopped at the simulator's turn limits with nobody winning.
    pub unended: usize,
    /// Heroes on their feet (alive, above 0 HP) as the last level played ended.
    pub standing: usize,
}

/// Plays the campaign `c` with `roster`, AI against AI (the party too): each level written and
/// checked by `prepare_level`, its carry-over checked, played, finished by the rules, and the
/// CP spent as "spend for me" does. `on_level` gets each level's JSON line as it ends. `Err`:
/// the exit code (2 a file, 1 a game) and the message.
pub fn play_campaign(
    data: &RuleData,
    c: &campaign::CheckedCampaign,
    roster: Vec<Hero>,
    run: &Run,
    on_level: &mut dyn FnMut(serde_json::Value),
) -> Result<Played, (u8, String)> {
    let (seed, difficulty, dir) = (run.seed, run.difficulty, &run.dir);
    let mut progress = Progress::start(c, roster, Vec::new(), seed);
    let mut expected: BTreeMap<String, Expected> = BTreeMap::new();
    let mut played = Played { progress: progress.clone(), plays: 0, levels_won: 0, carry_over_failures: 0, rejected: 0, unended: 0, standing: 0 };
    let cap = run.stop_after.unwrap_or(MAX_PLAYS).min(MAX_PLAYS);
    while progress.level.is_some() && played.plays < cap {
        // R-CP-13: a hero at 0 HP or less sits the level out; with nobody left to play it, a
        // run that stops at a loss (a delve) has lost.
        if run.stop_on_loss && progress.roster.iter().all(|h| progress.sitting_out.contains(&h.name)) {
            break;
        }
        played.plays += 1;
        let plays = played.plays;
        let (level_path, level) = campaign::prepare_level(c, &progress, dir, data).map_err(|e| (2, e))?;
        let problems = check_carry_over(&progress, &level, &expected, data);
        played.carry_over_failures += problems.len();
        for p in &problems {
            eprintln!("carry-over: {p}");
        }
        let id = progress.level.clone().unwrap_or_default();
        let s = seed.wrapping_add(plays as u64);
        let cfg =
            doo_rules::ai::AiConfig::for_level(level.side_ids(), &level.behaviours, &level.level.victory, difficulty, &BTreeMap::new(), s, data.ai.clone());
        progress.begin_level();
        let seats = level.sides.iter().map(|d| doo_rules::save::Seat { side: d.id.clone(), player: String::new(), ai: Some(difficulty) }).collect();
        let mut header = doo_rules::save::save_header(&level_path, &level, s, seats, true).map_err(|e| (2, e.to_string()))?;
        header.campaign = Some(progress.clone());
        let rec = crate::simulate::Recording { header: Some(header), autosave: Some(dir.join("campaign-autosave.ron")) };
        let r = crate::simulate::play_recorded(data, &level, cfg, s, plays as u32, &rec).map_err(|e| (1, format!("{}: {e}", level_path.display())))?;
        let won = r.winner.as_deref() == Some(c.campaign.party_side.as_str());
        let end = r.end_state.as_deref().expect("the simulator keeps the end state");
        played.rejected += r.rejected;
        played.unended += usize::from(r.winner.is_none());
        played.levels_won += usize::from(won);
        played.standing = progress.roster.iter().filter(|h| end.index(&h.id()).is_some_and(|i| !end.is_dead(i) && end.fighters[i].hp > 0)).count();
        let before: BTreeMap<String, u32> = progress.roster.iter().map(|h| (h.name.clone(), h.cp_earned)).collect();
        let report = campaign::finish_level(c, &mut progress, end, &r.events, won, data);
        expected = expected_after(&progress, &report, end, won, &before, data);
        let bought = advance(&mut progress, &mut expected, data);
        let mut line = level_line(&id, plays, won, &r, &report, &progress, bought, problems.is_empty(), data);
        line["standing"] = json!(played.standing);
        line["rejected"] = json!(r.rejected);
        line["wall_ms"] = json!(r.wall_ms.round());
        on_level(line);
        if run.stop_on_loss && !won {
            break;
        }
    }
    played.progress = progress;
    Ok(played)
}

/// What the next level must start with (R-CP-12, R-CP-13): the match's end state, the CP lines,
/// the rest; a lost level starts again from the roster it began with.
fn expected_after(
    progress: &Progress,
    report: &campaign::LevelReport,
    end: &doo_rules::rules::state::Match,
    won: bool,
    before: &BTreeMap<String, u32>,
    data: &RuleData,
) -> BTreeMap<String, Expected> {
    let mut expected = BTreeMap::new();
    for h in &progress.roster {
        let hid = h.id();
        let cp: u32 = report.record.cp.iter().filter(|l| l.hero == hid).fold(0u32, |n, l| n.saturating_add(l.cp));
        let (sheet, _) = h.sheet(&data.heroes).unwrap_or_default();
        let max_hp = doo_rules::rules::heroes::pools(&sheet.stats).0;
        let (hp, items) = match end.index(&hid) {
            Some(i) if won => {
                let f = &end.fighters[i];
                let keys: Vec<&String> = end.explore.as_deref().map(|x| x.keys.keys().collect()).unwrap_or_default();
                let gained: i32 = report.rest_gains.get(&h.name).copied().unwrap_or(0);
                let mut items: Vec<String> = f.loadout.items.iter().filter(|i| !keys.contains(i)).cloned().collect();
                // empty hands and a weapon carried: he wields it at the next level (R-CP-12)
                if f.loadout.weapon.is_none() && f.loadout.dropped.is_empty() {
                    let eq = &data.equipment;
                    if let Some(k) = items.iter().position(|i| eq.melee(i).is_some() || eq.ranged(i).is_some()) {
                        items.remove(k);
                    }
                }
                ((f.hp + gained).min(max_hp), items)
            }
            // a lost level starts again from the roster it began with; a hero sitting out keeps his
            _ => (h.hp.unwrap_or(max_hp), h.items.clone()),
        };
        let cp_earned = if won { before.get(&h.name).copied().unwrap_or(0).saturating_add(cp) } else { h.cp_earned };
        expected.insert(h.name.clone(), Expected { hp, items, cp_earned });
    }
    expected
}

/// Advancement between levels: each hero rearmed and his CP spent as the advancement screen's
/// "spend for me" does; returns what each bought.
fn advance(progress: &mut Progress, expected: &mut BTreeMap<String, Expected>, data: &RuleData) -> BTreeMap<String, Vec<String>> {
    let mut bought = BTreeMap::new();
    for h in progress.roster.iter_mut() {
        let mut lines: Vec<String> = Vec::new();
        if let Some((w, c)) = campaign::rearm(h, data) {
            lines.push(format!("a {} (${c})", w.replace('_', " ")));
        }
        let b = campaign::auto_spend(h, data);
        lines.extend(b.iter().map(|(p, c)| format!("{} ({c} CP)", p.describe(&data.heroes))));
        if !lines.is_empty() {
            bought.insert(h.name.clone(), lines);
        }
        // R-CP-11: a stat rise that raises max HP raises the current HP as much.
        if let Some(e) = expected.get_mut(&h.name)
            && !b.is_empty()
        {
            let max_of = |h: &Hero| doo_rules::rules::heroes::pools(&h.sheet(&data.heroes).unwrap_or_default().0.stats).0;
            let mut before = h.clone();
            before.bought.truncate(h.bought.len() - b.len());
            e.hp += max_of(h) - max_of(&before);
        }
    }
    bought
}

/// The JSON line of one level played: its end, CP per hero and every CP line as the event that
/// told it (R-CP-9 from the match, R-CP-10 at its end), the fallen, the rest, what was bought,
/// who sits the next level out and how each hero who went down fell (issue 43), and each hero as the rules build him after the level, the rest and the purchases.
#[allow(clippy::too_many_arguments)]
fn level_line(
    id: &str,
    plays: usize,
    won: bool,
    r: &crate::simulate::GameResult,
    report: &campaign::LevelReport,
    progress: &Progress,
    bought: BTreeMap<String, Vec<String>>,
    carry_over_ok: bool,
    data: &RuleData,
) -> serde_json::Value {
    let cps: BTreeMap<String, u32> = report.record.cp.iter().fold(BTreeMap::new(), |mut acc, l| {
        let n: &mut u32 = acc.entry(l.hero.clone()).or_default();
        *n = n.saturating_add(l.cp);
        acc
    });
    let cp_earned: Vec<serde_json::Value> = report.record.cp.iter().filter_map(|l| serde_json::to_value(l.clone().event()).ok()).collect();
    let heroes: Vec<serde_json::Value> = progress.roster.iter().filter_map(|h| campaign::hero_json(h, data).ok()).collect();
    json!({
        "type": "level", "level": id, "play": plays, "won": won, "winner": r.winner, "turns": r.turns,
        "cp": cps, "cp_earned": cp_earned, "fallen": report.record.fallen, "rest": report.record.rest, "bought": bought,
        "heroes": heroes, "sitting_out": progress.sitting_out, "falls": report.told.falls,
        "carry_over": if carry_over_ok { "ok" } else { "mismatch" },
    })
}
