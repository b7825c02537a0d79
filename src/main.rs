//! `doo`: play Dungeons of Olde (default), or run rules scripts without a window.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "doo", version, about = "Dungeons of Olde — Crisis Mode tactics")]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Open the game window straight on a level (default: levels/tutorial.ron). Without a subcommand: the main menu.
    Play {
        level: Option<PathBuf>,
        /// Save a screenshot of the window to this PNG, then quit.
        #[arg(long)]
        screenshot: Option<PathBuf>,
        /// Frame at which the screenshot is taken (default 30).
        #[arg(long)]
        screenshot_frame: Option<u32>,
        /// Quit after this many frames.
        #[arg(long)]
        frames: Option<u32>,
        /// Let the AI play every side (watch a match).
        #[arg(long)]
        watch: bool,
        /// Dice and AI seed (default: the clock); it also fixes the seeds the screens draw (a
        /// delve's dungeon, a campaign's dice, the editor's Generate), so a seeded run plays the
        /// same each time.
        #[arg(long)]
        seed: Option<u64>,
        /// Open on the main menu (with this level ready for a quick start).
        #[arg(long)]
        menu: bool,
        /// Append the match log (JSON lines) and the board's screen layout to this file.
        #[arg(long)]
        log: Option<PathBuf>,
        /// Go on with a save (default: the autosave of the last match).
        #[arg(long, num_args = 0..=1, default_missing_value = "@autosave")]
        resume: Option<PathBuf>,
        /// Open on this campaign's party screen (e.g. campaigns/drowned_crown.ron).
        #[arg(long)]
        campaign: Option<PathBuf>,
        /// With --frames: write the frame times (median, p95, mean, in ms) as JSON to this file (vsync off while measuring).
        #[arg(long)]
        frame_stats: Option<PathBuf>,
        /// Walk the UI: press every button and bound key that can be reached (with real X input
        /// through xdotool), write what was pressed to this JSON file, then quit (the UI tests).
        #[arg(long)]
        ui_walk: Option<PathBuf>,
        /// No window: every plugin but the window system and the renderer, until the game exits
        /// (with --ui-walk: the walk without a display).
        #[arg(long, hide = true)]
        headless: bool,
        /// Host LEVEL over the network (port 5000, else a free one): the first side is yours,
        /// every other a remote player's (`doo play --join` or the menu's Join).
        #[arg(long)]
        host: bool,
        /// Where a hosted match listens: ADDR:PORT, or a port alone (default 0.0.0.0:5000, every
        /// address of this computer; another free port when that one is taken).
        #[arg(long, value_name = "ADDR:PORT", value_parser = parse_listen)]
        listen: Option<std::net::SocketAddr>,
        /// Join the network match at ADDR (host:port), as --name.
        #[arg(long, value_name = "ADDR")]
        join: Option<String>,
        /// Your name in a network match.
        #[arg(long, default_value = "Player")]
        name: String,
    },
    /// The level editor: open LEVEL (a new level when it does not exist; without one, a new
    /// level in levels/). Paint, set up figures, see every problem on the map, save, play-test.
    Edit {
        level: Option<PathBuf>,
        /// Save a screenshot of the window to this PNG, then quit.
        #[arg(long)]
        screenshot: Option<PathBuf>,
        /// Frame at which the screenshot is taken (default 30).
        #[arg(long)]
        screenshot_frame: Option<u32>,
        /// Quit after this many frames.
        #[arg(long)]
        frames: Option<u32>,
        /// Append the match log of a play-test (JSON lines) to this file.
        #[arg(long)]
        log: Option<PathBuf>,
        /// Walk the editor's UI: press every button and bound key (the UI tests).
        #[arg(long)]
        ui_walk: Option<PathBuf>,
        #[arg(long, hide = true)]
        headless: bool,
        /// Dice and AI seed of a play-test (default: the clock).
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Replay saves headless; with --verify, compare every checkpoint (exit 1 naming the first
    /// command whose state differs, 2 when a save cannot be read). With --watch, open the first
    /// save in the window's replay viewer instead.
    Replay {
        #[command(flatten)]
        args: doo::commands::ReplayArgs,
        /// Watch the save in the window (play, pause, step, jump to a turn, speed).
        #[arg(long)]
        watch: bool,
        /// With --watch: save a screenshot of the window to this PNG at --screenshot-frame, then quit.
        #[arg(long, requires = "watch")]
        screenshot: Option<PathBuf>,
        #[arg(long, requires = "watch")]
        screenshot_frame: Option<u32>,
        /// With --watch: walk the viewer's buttons and keys (see `doo play --ui-walk`).
        #[arg(long, requires = "watch")]
        ui_walk: Option<PathBuf>,
        #[arg(long, requires = "watch", hide = true)]
        headless: bool,
    },
    /// Host a network match (docs/network.md): keep the one match, let players join its remote
    /// seats (`doo join`), play the AI seats. Prints JSON lines; exit 0 when it ended with no desync
    Host {
        /// The level (not needed with --resume: the save names it)
        #[arg(required_unless_present = "resume")]
        level: Option<PathBuf>,
        /// The UDP port (0: any free one; the first line says which)
        #[arg(long, default_value_t = 5151)]
        port: u16,
        /// The address to listen on
        #[arg(long, default_value = "0.0.0.0")]
        bind: std::net::IpAddr,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Who plays a side: --seat heroes=remote --seat monsters=ai (every side not named: remote)
        #[arg(long = "seat", value_parser = parse_seat)]
        seats: Vec<(String, String)>,
        /// The AI seats' difficulty
        #[arg(long, default_value = "normal")]
        difficulty: doo_rules::ai::Difficulty,
        /// Autosave the match here after every command
        #[arg(long)]
        autosave: Option<PathBuf>,
        /// Go on with this save (the host's autosave after a crash); its clients rejoin
        #[arg(long)]
        resume: Option<PathBuf>,
        /// A remote seat that has not answered in this many seconds goes to the AI (default: it waits)
        #[arg(long)]
        hand_over: Option<u64>,
        /// Play the level under this profile or ruleset instead of its own (`--profile A4`)
        #[arg(long)]
        profile: Option<String>,
        /// End the match as a draw when this turn is over and nobody has won (default: the
        /// level's own `turn_limit`, if any); every client plays under it too
        #[arg(long)]
        turn_limit: Option<u32>,
        /// Give up after this many seconds
        #[arg(long, default_value_t = 3600)]
        timeout: u64,
    },
    /// Join a network match at ADDR (host:port) under a name; --ai plays its seats with the AI
    Join {
        addr: String,
        #[arg(long)]
        name: String,
        /// Play this client's seats with the AI at this difficulty (easy, normal, hard)
        #[arg(long)]
        ai: Option<doo_rules::ai::Difficulty>,
        /// Play this many of the host's matches (a campaign's levels) before exiting
        #[arg(long, default_value_t = 1)]
        matches: usize,
        /// Give up after this many seconds
        #[arg(long, default_value_t = 3600)]
        timeout: u64,
    },
    /// The network bench: one host process with --matches matches at once on 127.0.0.1, every
    /// seat played by an AI client in a second process; commands a second, the host's CPU and
    /// memory, a command's round trip (median, p99), checkpoints compared. Markdown rows.
    NetBench {
        #[arg(long, default_value_t = 50)]
        matches: usize,
        #[arg(long, default_value = "levels/arena.ron")]
        level: PathBuf,
        /// The first match's seed (the next ones count up).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The clients' process (started by the bench): the hosts' ports.
        #[arg(long, hide = true, value_delimiter = ',')]
        clients_for: Option<Vec<u16>>,
        /// Give up after this many seconds.
        #[arg(long, default_value_t = 900)]
        timeout: u64,
        /// The goal for a command's round trip (p99, milliseconds): exit 1 when it is missed.
        #[arg(long, default_value_t = doo_app::net::bench::P99_GOAL.as_millis() as u64)]
        p99_goal_ms: u64,
        /// Apps updated in turn by each thread of either process (0: all in one thread).
        #[arg(long, default_value_t = doo_app::net::bench::Pacing::default().per_thread)]
        apps_per_thread: usize,
        /// Each thread updates its apps once every this many milliseconds (at least 1 ms of rest
        /// between two rounds; 0: a round, 1 ms of rest, the next).
        #[arg(long, default_value_t = doo_app::net::bench::FRAME.as_secs_f64() * 1000.0)]
        frame_ms: f64,
        /// Update every app every round, idle or not (issue 32's pacing; by default an app is
        /// updated when a packet waits for it, its match has commands to play or its AI may
        /// play, and every 50 ms).
        #[arg(long)]
        update_idle: bool,
    },
    #[command(flatten)]
    Headless(doo::commands::HeadlessCmd),
}

fn parse_listen(s: &str) -> Result<std::net::SocketAddr, String> {
    doo_app::net::transport::parse_listen(s, 5000)
}

fn parse_seat(s: &str) -> Result<(String, String), String> {
    let (side, kind) = s.split_once('=').ok_or_else(|| format!("'{s}': expected side=remote or side=ai"))?;
    Ok((side.to_string(), kind.to_string()))
}

fn main() -> ExitCode {
    // A panic anywhere writes the crash log (beside the saves) before the process exits.
    let cli: Cli = match doo::commands::start() {
        Ok(c) => c,
        Err(code) => return code,
    };
    match cli.command {
        None => doo_app::window::run(None),
        Some(Cmd::Play {
            level,
            screenshot,
            screenshot_frame,
            frames,
            watch,
            seed,
            menu,
            log,
            frame_stats,
            resume,
            campaign,
            ui_walk,
            headless,
            host,
            listen,
            join,
            name,
        }) => {
            let resume = resume.map(|p| if p.as_os_str() == "@autosave" { doo::saves::autosave_path() } else { p });
            doo_app::window::run_with(
                level,
                doo_app::window::WindowOptions {
                    screenshot,
                    screenshot_frame,
                    exit_after_frames: frames,
                    watch,
                    menu,
                    seed,
                    log,
                    frame_stats,
                    resume,
                    replay: false,
                    campaign,
                    ui_walk,
                    headless,
                    host: host.then(|| name.clone()),
                    listen,
                    join: join.map(|a| (a, name)),
                    ..Default::default()
                },
            )
        }
        Some(Cmd::Edit { level, screenshot, screenshot_frame, frames, log, ui_walk, headless, seed }) => doo_app::window::run_with(
            None,
            doo_app::window::WindowOptions {
                screenshot,
                screenshot_frame,
                exit_after_frames: frames,
                log,
                ui_walk,
                headless,
                seed,
                edit: true,
                edit_path: level,
                ..Default::default()
            },
        ),
        Some(Cmd::Host { level, port, bind, seed, seats, difficulty, autosave, resume, hand_over, profile, turn_limit, timeout }) => {
            doo_app::net::cli::host(&doo_app::net::cli::HostArgs {
                level: level.unwrap_or_default(),
                profile,
                turn_limit,
                resume,
                hand_over: hand_over.map(std::time::Duration::from_secs),
                addr: std::net::SocketAddr::new(bind, port),
                seed,
                seats,
                difficulty,
                autosave,
                timeout: std::time::Duration::from_secs(timeout),
            })
        }
        Some(Cmd::Join { addr, name, ai, matches, timeout }) => doo_app::net::cli::join(&addr, &name, ai, matches, std::time::Duration::from_secs(timeout)),
        Some(Cmd::NetBench { matches, level, seed, clients_for, timeout, p99_goal_ms, apps_per_thread, frame_ms, update_idle }) => {
            doo_app::net::bench::run(&doo_app::net::bench::BenchArgs {
                matches,
                level,
                seed,
                clients_for,
                timeout: std::time::Duration::from_secs(timeout),
                p99_goal: std::time::Duration::from_millis(p99_goal_ms),
                pacing: doo_app::net::bench::Pacing {
                    per_thread: apps_per_thread,
                    frame: std::time::Duration::from_secs_f64(frame_ms.max(0.0).min(1000.0) / 1000.0),
                    skip_idle: !update_idle,
                },
            })
        }
        Some(Cmd::Headless(c)) => doo::commands::run(c),
        Some(Cmd::Replay { args, watch: true, screenshot, screenshot_frame, ui_walk, headless }) if !args.verify => doo_app::window::run_with(
            None,
            doo_app::window::WindowOptions {
                resume: args.saves.into_iter().next(),
                replay: true,
                screenshot,
                screenshot_frame,
                ui_walk,
                headless,
                ..Default::default()
            },
        ),
        Some(Cmd::Replay { watch: true, .. }) => {
            eprintln!("doo replay: --verify and --watch cannot be used together");
            ExitCode::from(2)
        }
        Some(Cmd::Replay { args, .. }) => doo::cli::replay(&args.saves, args.verify),
    }
}
