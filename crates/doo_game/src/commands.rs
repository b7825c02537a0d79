//! The commands that need no window (`doo run`, `validate`, `delve` and `delve simulate`,
//! `simulate`, `ladder`, `replay --verify`, `hero show`, `campaign run` / `simulate`): their
//! arguments, shared by the game's `doo` (which adds the window's and the network's) and
//! `doo-headless`, and what each runs.

use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// The headless commands (flattened into `doo`'s own).
#[derive(Subcommand)]
pub enum HeadlessCmd {
    /// Check level, hero, campaign and campaign script files; print every problem as file:line:col: message (exit 0 all valid, 1 any invalid).
    Validate {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Issue 47: generate a delve (floors of a dungeon from a seed, each proven solvable) as level files and a campaign chaining them; `doo delve simulate` plays delves AI against AI (docs/delve.md).
    #[command(args_conflicts_with_subcommands = true)]
    Delve {
        #[command(subcommand)]
        action: Option<DelveCmd>,
        #[command(flatten)]
        args: crate::delve_cli::DelveArgs,
        /// Where the floors (floor_1.ron …) and the campaign (delve.ron) are written.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// AI against AI without a window: one JSON line per game, then a summary.
    Simulate {
        /// The level (not needed with --resume: the save names it).
        #[arg(required_unless_present = "resume")]
        level: Option<PathBuf>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 1)]
        games: u32,
        /// easy, normal, hard or sharp (the reference tier), for every side not named in --side
        #[arg(long, default_value = "normal")]
        difficulty: doo_rules::ai::Difficulty,
        /// Per-side difficulty, e.g. --side heroes=hard --side monsters=easy
        #[arg(long = "side", value_parser = parse_side)]
        sides: Vec<(String, doo_rules::ai::Difficulty)>,
        /// Write each game as a save here (game-<seed>.ron), for `doo replay --verify`.
        #[arg(long)]
        save_dir: Option<PathBuf>,
        /// Autosave the game to this file after every command (atomically).
        #[arg(long)]
        autosave: Option<PathBuf>,
        /// Go on with this saved game (replayed and checked first), AI against AI.
        #[arg(long)]
        resume: Option<PathBuf>,
        /// Play the level under this rules profile or ruleset instead of its own (e.g. A4).
        #[arg(long)]
        profile: Option<String>,
    },
    /// The difficulty ladder (issue 30): each stronger:weaker pairing on each level, under its own
    /// ruleset and A4, sides swapped; prints a table. Exit 1 if an AI command was refused or the
    /// stronger side's share of decided games is under --min-share.
    Ladder {
        /// Levels (default: every level in levels/).
        levels: Vec<PathBuf>,
        /// stronger:weaker, e.g. hard:normal (repeat for more pairings).
        #[arg(long = "pair", value_parser = crate::ladder::parse_pair, default_values = ["hard:normal", "normal:easy"])]
        pairs: Vec<(doo_rules::ai::Difficulty, doo_rules::ai::Difficulty)>,
        /// Games per pairing, level and ruleset (the seatings take turns).
        #[arg(long, default_value_t = 200)]
        games: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Only each level's own ruleset (no A4 rows).
        #[arg(long)]
        own_only: bool,
        /// Threads.
        #[arg(long, default_value_t = 2)]
        jobs: usize,
        /// Fail (exit 1) when the stronger difficulty wins less than this share of decided games.
        #[arg(long)]
        min_share: Option<f64>,
        /// Cut every AI decision after this many milliseconds of wall clock, as the window does
        /// (25); without it only the deterministic budget applies and a seed is one game.
        #[arg(long)]
        deadline_ms: Option<u64>,
        /// The weaker difficulty plays idle (never attacks): the ceiling where the dice decide.
        #[arg(long)]
        idle: bool,
    },
    /// Campaigns without a window (docs/campaigns.md).
    Campaign {
        #[command(subcommand)]
        action: CampaignCmd,
    },
    /// Heroes (docs/heroes.md).
    Hero {
        #[command(subcommand)]
        action: HeroCmd,
    },
    /// (Tests) write a hostile save at the command cap into DIR: `level.ron` (events giving and
    /// taking items after every command) and `save.ron` of COMMANDS passes (issue 44; `.ci/run`
    /// step 7b verifies it under time and memory limits).
    #[command(hide = true)]
    StressSave {
        dir: PathBuf,
        #[arg(long, default_value_t = doo_rules::save::caps::COMMANDS)]
        commands: usize,
    },
    /// Play a match script headless and print one JSON object per line (docs/scripts.md).
    Run {
        script: PathBuf,
        /// Also check the script's `expect` section; exit 1 on any mismatch.
        #[arg(long)]
        check: bool,
    },
}

/// `doo replay`'s arguments without a window (the game's `doo` adds `--watch` and its options).
#[derive(Args)]
pub struct ReplayArgs {
    #[arg(required = true)]
    pub saves: Vec<PathBuf>,
    /// Compare every checkpoint with the save's.
    #[arg(long)]
    pub verify: bool,
}

#[derive(Subcommand)]
pub enum DelveCmd {
    /// Generate, validate, prove and play delves for a run of seeds, the AI on every side (the
    /// party too), floor after floor with the heroes carried over: one line per seed (cleared,
    /// floors cleared, heroes standing, time) and a summary. Exit 1 on an invalid floor, a
    /// refused AI command or a carry-over mismatch, 2 on bad arguments.
    Simulate {
        #[command(flatten)]
        args: crate::delve_cli::DelveArgs,
        /// How many seeds, from --seed on.
        #[arg(long, default_value_t = 1)]
        seeds: u64,
        /// The AI on every side: easy, normal, hard or sharp.
        #[arg(long, default_value = "normal")]
        ai: doo_rules::ai::Difficulty,
        /// Where each seed's delve and its played floors go (OUT/seed-N); default a temporary
        /// folder, removed afterwards.
        #[arg(long)]
        out: Option<PathBuf>,
        /// One JSON object a line instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Subcommand)]
pub enum HeroCmd {
    /// Print the hero as the rules build him, as JSON: stats, skills with ranks, sets, CP banked
    /// and earned, HP/MP/FP and their maxima, gear, caster traditions and spells (exit 2 on a
    /// bad file, with file:line:col).
    Show { file: PathBuf },
}

#[derive(Subcommand)]
pub enum CampaignCmd {
    /// Play a campaign script headless (docs/campaigns.md, "Campaign scripts"): one JSON object
    /// per line. --check also checks its `expect` section (exit 1 on a mismatch, 2 on a bad file).
    Run {
        script: PathBuf,
        #[arg(long)]
        check: bool,
    },
    /// Play a whole campaign AI against AI (the party too), spending CP between levels, and check
    /// carry-over at every level start: one JSON line per level, then a summary (exit 1 on a
    /// carry-over mismatch, 2 when a file cannot be read).
    Simulate {
        campaign: PathBuf,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Hero files for the party (default: the campaign's ready-made heroes).
        #[arg(long = "hero")]
        heroes: Vec<PathBuf>,
        #[arg(long, default_value = "normal")]
        difficulty: doo_rules::ai::Difficulty,
        /// Where the level files and the autosave go (default: a temporary folder).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Stop after this many levels played (at most 12); the autosave in --dir then holds the
        /// last one's finished match, its campaign in the header.
        #[arg(long)]
        plays: Option<usize>,
    },
}

pub fn parse_side(s: &str) -> Result<(String, doo_rules::ai::Difficulty), String> {
    let (side, d) = s.split_once('=').ok_or_else(|| format!("'{s}': expected side=difficulty"))?;
    Ok((side.to_string(), d.parse()?))
}

/// Runs a headless command; its exit code.
pub fn run(cmd: HeadlessCmd) -> ExitCode {
    use crate::cli;
    match cmd {
        HeadlessCmd::Campaign { action: CampaignCmd::Simulate { campaign, seed, heroes, difficulty, dir, plays } } => match cli::rule_data() {
            Ok(data) => crate::campaign_sim::simulate(&data, &campaign, seed, &heroes, difficulty, dir, plays),
            Err(code) => code,
        },
        HeadlessCmd::Campaign { action: CampaignCmd::Run { script, check } } => cli::campaign_run(&script, check),
        HeadlessCmd::Hero { action: HeroCmd::Show { file } } => cli::hero_show(&file),
        HeadlessCmd::Run { script, check } => cli::run(&script, check),
        HeadlessCmd::StressSave { dir, commands } => cli::stress_save(&dir, commands),
        HeadlessCmd::Ladder { levels, pairs, games, seed, own_only, jobs, min_share, deadline_ms, idle } => match cli::rule_data() {
            Ok(data) => crate::ladder::run(&data, &crate::ladder::LadderArgs { levels, pairs, games, seed, own_only, jobs, min_share, deadline_ms, idle }),
            Err(code) => code,
        },
        HeadlessCmd::Validate { files } => cli::validate(&files),
        HeadlessCmd::Delve { action: None, args, out } => crate::delve_cli::delve(&args, out.as_ref()),
        HeadlessCmd::Delve { action: Some(DelveCmd::Simulate { args, seeds, ai, out, json }), .. } => {
            crate::delve_sim::simulate(&crate::delve_sim::DelveSim { args, seeds, ai, out, json })
        }
        HeadlessCmd::Simulate { level, seed, games, difficulty, sides, save_dir, autosave, resume, profile } => match resume {
            Some(save) => cli::simulate_resume(&save, difficulty, sides.into_iter().collect(), autosave),
            None => {
                cli::simulate(&level.unwrap_or_default(), seed, games, difficulty, sides.into_iter().collect(), cli::SimSaves { save_dir, autosave, profile })
            }
        },
    }
}

/// Starts a `doo` binary: installs the crash log's panic hook, then parses the command line;
/// `Err` is the exit code after clap printed its message (2 for a usage error, 0 for --help).
pub fn start<C: clap::Parser>() -> Result<C, ExitCode> {
    crate::crash::install_panic_hook();
    C::try_parse().map_err(|e| {
        let code = if e.use_stderr() { 2 } else { 0 };
        let _ = e.print();
        ExitCode::from(code)
    })
}
