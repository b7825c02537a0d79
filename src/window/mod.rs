//! The game window, on top of the same headless match systems the tests run: the screens around
//! a match (`screens/`, one file each, `Screen` state), a match's life (`session.rs`), the
//! tilemap board (`board/`), the match UI (`hud/`), the shared look and button wiring
//! (`theme/`), keyboard routing (`focus.rs`), settings, hot reload, screenshots and the UI walk.

use bevy::prelude::*;
use doo_rules::data::RuleData;
use std::path::PathBuf;
use std::process::ExitCode;

pub mod board;
pub mod capture;
mod focus;
pub mod hud;
pub mod net;
pub mod reload;
pub mod resources;
pub mod screens;
pub mod session;
pub mod settings;
#[cfg(feature = "audio")]
mod sound;
pub mod theme;
pub mod walk;

pub use resources::{DEFAULT_LEVEL, Display, FreshSeeds, GameData, PlayingLevel, WINDOW_TITLE, WindowOptions};

/// `cargo run`: the main menu, with the default level ready for a quick start.
pub fn run(level: Option<PathBuf>) -> ExitCode {
    run_with(level, WindowOptions { menu: true, ..default() })
}

/// On a machine with few cores (the 2-core machines the game is built and measured on) the
/// frame's schedules run on one thread each: the game's systems are light, and waking worker
/// threads every frame costs more than it saves while a software renderer wants those cores
/// (issue 15's frame time: about 1.3× a bare tilemap with the multi-threaded executors, about
/// 1.2× with these). The same holds without a display (the headless UI walks).
/// `DOO_EXECUTOR=multi` or `single` overrides the choice.
fn pick_executors(app: &mut App) {
    use bevy::ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let single = match std::env::var("DOO_EXECUTOR").as_deref() {
        Ok("multi") => false,
        Ok("single") => true,
        _ => cores <= 4,
    };
    if !single {
        return;
    }
    for label in [First.intern(), PreUpdate.intern(), Update.intern(), PostUpdate.intern(), Last.intern()] {
        app.edit_schedule(label, |s| {
            s.set_executor(SingleThreadedExecutor::new());
        });
    }
    if let Some(render) = app.get_sub_app_mut(bevy::render::RenderApp) {
        render.edit_schedule(bevy::render::Render, |s| {
            s.set_executor(SingleThreadedExecutor::new());
        });
        // The extract schedule leaves its commands to the render thread (as Bevy sets it up).
        render.edit_schedule(bevy::render::ExtractSchedule, |s| {
            s.set_executor(SingleThreadedExecutor::new());
            s.set_apply_final_deferred(false);
        });
    }
}

pub fn run_with(level: Option<PathBuf>, opts: WindowOptions) -> ExitCode {
    if opts.headless {
        return run_headless(level, opts);
    }
    let mut app = match build_app(level, opts, Display::Window) {
        Ok(app) => app,
        Err(code) => return code,
    };
    // Outermost, around the hook Bevy's plugins installed (it skips the one it wraps for a
    // system's error): every panic of the window reaches the crash log.
    crate::crash::install_panic_hook();
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(_) => ExitCode::from(1),
    }
}

/// What the window starts with: the rule data, the level (or the save) checked, the first
/// screen, and what it needs.
struct Opening {
    data: std::sync::Arc<RuleData>,
    path: PathBuf,
    root: PathBuf,
    level_dir: PathBuf,
    setup: session::MatchSetup,
    unusable: Option<session::BrokenSave>,
    campaign_run: Option<screens::campaign::CampaignRun>,
    first: screens::Screen,
}

/// Reads the rule data and the level (or the save of `--resume`), checked; the campaign of
/// `--campaign`. What cannot be used is said on stderr (exit code 2).
fn open(level: Option<PathBuf>, opts: &WindowOptions) -> Result<Opening, ExitCode> {
    let data = match RuleData::load(std::path::Path::new(".")) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            return Err(ExitCode::from(2));
        }
    };
    // `--resume`: the save names the level; a save that cannot be read stops here, said plainly.
    // The level as the save has it: checked, under the rules the save was played with (A4
    // picked on the level-select screen is not in the level file; issue 27's crash 3 was the
    // level re-read from its file here, and the A4 save replayed under a DoO profile).
    // A file that is not a usable save opens the Load screen with what is wrong (and on
    // stderr), to be deleted or left.
    let mut unusable = None;
    let resume = match &opts.resume {
        Some(p) => match session::open_save_file(p, &data) {
            Ok(setup) => {
                crate::crash::set_save_in_play(Some(p.clone()));
                Some(setup)
            }
            Err(broken) => {
                eprintln!("{}", broken.message);
                unusable = Some(*broken);
                None
            }
        },
        None => None,
    };
    crate::crash::debug_panic();
    let path = match &resume {
        Some(setup) => setup.path.clone(),
        None => level.unwrap_or_else(|| PathBuf::from(DEFAULT_LEVEL)),
    };
    let root = doo_rules::level_file::project_root(&path);
    let checked = match &resume {
        Some(setup) => setup.checked.clone(),
        None => match doo_rules::level_file::load(&path, &data, &root) {
            Ok(c) => c,
            Err(errs) => {
                for e in errs {
                    eprintln!("{}:{}:{}: {}", path.display(), e.line, e.col, e.message);
                }
                return Err(ExitCode::from(2));
            }
        },
    };
    if let Err(errs) = checked.build(&data) {
        for e in errs {
            eprintln!("{}: {e}", path.display());
        }
        return Err(ExitCode::from(2));
    }
    let data = std::sync::Arc::new(data);
    let level_dir = path.canonicalize().ok().and_then(|p| p.parent().map(|d| d.to_path_buf())).unwrap_or_else(|| PathBuf::from("."));
    let campaign_run = match &opts.campaign {
        Some(c) => match doo_rules::campaign::load_campaign(c, &data) {
            Ok(c) => Some(screens::campaign::CampaignRun::new(c, &data)),
            Err(e) => {
                eprintln!("{e}");
                return Err(ExitCode::from(2));
            }
        },
        None => None,
    };
    let first = if opts.edit {
        screens::Screen::Editor
    } else if unusable.is_some() {
        screens::Screen::Load
    } else if campaign_run.is_some() {
        screens::Screen::Campaign
    } else if opts.join.is_some() {
        screens::Screen::Join
    } else if opts.menu {
        screens::Screen::Menu
    } else {
        screens::Screen::Match
    };
    let setup = match resume {
        Some(mut setup) => {
            setup.replay = opts.replay;
            setup
        }
        None => session::MatchSetup::new(path.clone(), checked),
    };
    let setup = match &opts.host {
        Some(name) => {
            let mut s = setup.hosted();
            if let Some(first) = s.seats.first_mut() {
                first.player = name.clone();
            }
            s
        }
        None => setup,
    };
    // `--listen`: where the match is hosted (over a save's own address).
    let setup = session::MatchSetup { listen: opts.listen.or(setup.listen), ..setup };
    Ok(Opening { data, path, root, level_dir, setup, unusable, campaign_run, first })
}

/// The game's app, with every plugin the window has. `Display::Headless` leaves out the window
/// system and the renderer only: the tests spawn every screen, overlay and prompt in it and
/// press their buttons through Bevy's own UI input (`headless_ui_app`).
pub fn build_app(level: Option<PathBuf>, opts: WindowOptions, display: Display) -> Result<App, ExitCode> {
    let Opening { data, path, root, level_dir, setup, unusable, campaign_run, first } = open(level, &opts)?;
    // Measuring frame times: draw as fast as possible, or every figure would be the display's
    // refresh interval (vsync) or the 60 Hz that an unfocused window (Xvfb has no window manager
    // to focus it) is held to, whatever the work.
    let present_mode = if opts.frame_stats.is_some() { bevy::window::PresentMode::AutoNoVsync } else { bevy::window::PresentMode::default() };
    let mut app = App::new();
    // The level's folder is an asset source of its own, so levels need not live under assets/.
    app.register_asset_source(reload::LEVEL_SOURCE, bevy::asset::io::AssetSourceBuilder::platform_default(&level_dir.to_string_lossy(), None));
    let plugins = DefaultPlugins
        .set(WindowPlugin {
            primary_window: Some(Window { title: WINDOW_TITLE.into(), resolution: (1280, 720).into(), present_mode, ..default() }),
            // The level editor asks before a window with unsaved edits closes
            // (`screens::editor::recovery::ask_before_closing` closes it otherwise).
            close_when_requested: false,
            ..default()
        })
        .set(ImagePlugin::default_nearest())
        // Art is read from ./assets (the game runs from the project folder, like its levels).
        .set(AssetPlugin { file_path: assets_dir(), ..default() });
    match display {
        Display::Window => {
            app.add_plugins(plugins).add_plugins(bevy_ecs_tilemap::TilemapPlugin);
        }
        Display::Headless => {
            // Bevy's no-renderer setup (examples/app/no_renderer.rs), without the OS window:
            // layout, text, UI input and every game system run; nothing is drawn. The tilemap's
            // plugin is its render stage only, which needs a renderer.
            app.add_plugins(
                plugins
                    .set(bevy::render::RenderPlugin {
                        render_creation: bevy::render::settings::WgpuSettings { backends: None, ..default() }.into(),
                        ..default()
                    })
                    .disable::<bevy::winit::WinitPlugin>()
                    .disable::<bevy::log::LogPlugin>(),
            );
        }
    }
    app.insert_resource(display)
        .insert_resource(ClearColor(board::palette::BACKGROUND))
        .insert_resource(if opts.frame_stats.is_some() {
            bevy::winit::WinitSettings { focused_mode: bevy::winit::UpdateMode::Continuous, unfocused_mode: bevy::winit::UpdateMode::Continuous }
        } else {
            bevy::winit::WinitSettings::game()
        })
        .insert_resource(FreshSeeds::new(opts.seed))
        .insert_resource(opts)
        .insert_resource(GameData(data.clone()))
        .insert_resource(setup)
        .add_plugins(crate::game::plugin)
        .insert_resource(reload::LevelWatch::new(path.clone(), root.clone(), data.clone()))
        .register_asset_loader(reload::LevelAssetLoader { data: data.clone(), root: root.clone() })
        .insert_state(first)
        .add_plugins((
            theme::plugin,
            focus::plugin,
            settings::plugin,
            screens::plugin,
            session::plugin,
            board::plugin,
            hud::plugin,
            capture::plugin,
            reload::plugin,
            walk::plugin,
            net::plugin,
        ));
    #[cfg(feature = "audio")]
    app.add_plugins(sound::plugin);
    app.add_plugins(crate::crash::plugin);
    if let Some(mut run) = campaign_run {
        // `doo play --campaign FILE --host`: the party's opponents are a remote player's.
        run.remote_foes = app.world().resource::<WindowOptions>().host.is_some();
        app.insert_resource(run);
    }
    if let Some(broken) = unusable {
        app.insert_resource(broken);
    }
    if let Some((address, name)) = app.world().resource::<WindowOptions>().join.clone() {
        app.insert_resource(screens::join::JoinForm { address, name }).insert_resource(screens::join::ConnectNow);
    }
    if let Some(p) = &app.world().resource::<WindowOptions>().edit_path.clone() {
        app.insert_resource(screens::editor::EditStart(p.clone()));
    }
    // Headless too: the UI walks and the display-less tests are CPU-bound, and on two cores
    // waking worker threads at every frame took a fifth of a walk's time (perf: task switches,
    // futexes, the executor's ticks).
    pick_executors(&mut app);
    Ok(app)
}

/// Frames a headless run may take before it is stopped (a walk that never ends is a failure).
const HEADLESS_FRAMES_MAX: u32 = 200_000;

/// `--headless`: the app without a window, updated until it exits.
fn run_headless(level: Option<PathBuf>, opts: WindowOptions) -> ExitCode {
    let Some(mut app) = headless_ui_app(level, opts) else { return ExitCode::from(2) };
    crate::crash::install_panic_hook();
    for _ in 0..HEADLESS_FRAMES_MAX {
        app.update();
        if let Some(exit) = app.should_exit() {
            return if exit.is_success() { ExitCode::SUCCESS } else { ExitCode::from(1) };
        }
    }
    eprintln!("the headless run did not end within {HEADLESS_FRAMES_MAX} frames");
    ExitCode::from(1)
}

/// The game's app without a window or renderer (`Display::Headless`), finished and ready for
/// `app.update()`: the UI tests drive it frame by frame. `None` when the level cannot be loaded.
pub fn headless_ui_app(level: Option<PathBuf>, opts: WindowOptions) -> Option<App> {
    let mut app = build_app(level, opts, Display::Headless).ok()?;
    // Every frame lasts 1/60 s of game time, however fast the machine draws nothing: the AI's
    // pace and the prompts' timeouts play out the same in every run.
    app.insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(std::time::Duration::from_secs_f64(1.0 / 60.0)));
    app.finish();
    app.cleanup();
    Some(app)
}

/// `./assets` when it exists (running from the project folder), else Bevy's default.
fn assets_dir() -> String {
    let here = std::path::Path::new("assets");
    if here.is_dir() { here.canonicalize().map(|p| p.to_string_lossy().to_string()).unwrap_or_else(|_| "assets".into()) } else { "assets".into() }
}
