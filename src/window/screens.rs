//! The screens around a match: main menu -> level select (briefing, profile, sides) -> match setup
//! (each side human with a player name, or AI with a difficulty) -> match -> result, plus the
//! settings panel. Starting a match builds it from the checked level and the seats chosen.

use super::settings::{ANIMATION_SPEEDS, PROMPT_TIMEOUTS, Settings, UI_SCALES, VOLUMES};
use super::ui::{Act, Selected, button, colors, panel, panel_in, text};
use crate::ai::Difficulty;
use crate::level_file::{CheckedLevel, Control};
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LevelCatalog>()
        .init_resource::<SettingsOpen>()
        .init_resource::<NameEditing>()
        .init_resource::<PendingStart>()
        .add_systems(Update, start_pending_match.before(crate::game::MatchSystems::Input))
        .add_systems(OnEnter(Screen::Menu), spawn_menu)
        .add_systems(OnEnter(Screen::Levels), (scan_levels, spawn_levels).chain())
        .add_systems(OnEnter(Screen::Setup), spawn_setup)
        .add_systems(OnEnter(Screen::Match), begin_match)
        .add_systems(OnExit(Screen::Match), end_match)
        .add_systems(Update, (close_settings, handle_screen_acts, type_player_name, refresh_setup, show_settings).chain());
}

/// Where the player is.
#[derive(States, Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    #[default]
    Menu,
    Levels,
    Setup,
    Match,
    /// The saves: continue one, or watch it.
    Load,
    /// A campaign between its levels: party, briefing, result, advancement.
    Campaign,
}

/// Rule data for building matches.
#[derive(Resource, Clone)]
pub struct GameData(pub Arc<crate::data::RuleData>);

/// One seat per side: a human player's name, or the AI at a difficulty.
#[derive(Clone, Debug, PartialEq)]
pub struct Seat {
    pub side: String,
    pub label: String,
    pub ai: Option<Difficulty>,
    pub player: String,
}

/// The level and seats the next match uses.
#[derive(Resource, Clone, Debug)]
pub struct MatchSetup {
    pub path: PathBuf,
    pub checked: CheckedLevel,
    pub seats: Vec<Seat>,
    /// A save to go on with instead of a new match (Continue, `--resume`).
    pub resume: Option<Box<crate::save::Save>>,
    /// Watch `resume` in the replay viewer instead of playing on.
    pub replay: bool,
    /// A campaign level: the progress the match's saves carry, and who owns which hero.
    pub campaign: Option<Box<crate::campaign::Progress>>,
    pub owners: BTreeMap<String, String>,
    /// The save file `resume` was read from (the crash log names it; a broken one can be deleted).
    pub save_path: Option<PathBuf>,
}

impl MatchSetup {
    /// The level's own seating: its `control` and `player` per side (AI at normal).
    pub fn new(path: PathBuf, checked: CheckedLevel) -> Self {
        let seats = checked
            .sides
            .iter()
            .enumerate()
            .map(|(k, s)| Seat {
                side: s.id.clone(),
                label: s.name.clone().unwrap_or_else(|| s.id.clone()),
                ai: (s.control == Control::Ai).then_some(Difficulty::Normal),
                player: s.player.clone().unwrap_or_else(|| format!("Player {}", k + 1)),
            })
            .collect();
        Self { path, checked, seats, resume: None, replay: false, campaign: None, owners: BTreeMap::new(), save_path: None }
    }

    /// The seats a save was played with, and the save to go on with.
    pub fn from_save(path: PathBuf, checked: CheckedLevel, save: &crate::save::Save) -> Self {
        let mut me = Self::new(path, checked);
        for seat in &mut me.seats {
            if let Some(s) = save.seats.iter().find(|s| s.side == seat.side) {
                seat.ai = s.ai;
                if !s.player.is_empty() {
                    seat.player = s.player.clone();
                }
            }
        }
        me.resume = Some(Box::new(save.clone()));
        me
    }

    /// A save file to go on with: read and checked, its level under the rules the save was
    /// played with (a ruleset picked on the level-select screen is in the save, not in the
    /// level file). Continue, a Load slot and `doo play --resume` all start here.
    pub fn resume_file(save_path: &std::path::Path, data: &crate::data::RuleData) -> Result<Self, crate::data::LoadError> {
        let (save, level_path, checked) = doo_rules::save::load_save(save_path, data)?;
        let mut me = Self::from_save(level_path, checked, &save);
        me.save_path = Some(save_path.to_path_buf());
        Ok(me)
    }
}

/// The level being played (for its goals and the result screen).
#[derive(Resource, Clone, Debug)]
pub struct PlayingLevel(pub CheckedLevel);

/// Level files found in the levels folder: each checked, or its first error.
#[derive(Resource, Default)]
pub struct LevelCatalog {
    pub entries: Vec<(PathBuf, Result<CheckedLevel, String>)>,
    pub selected: usize,
    /// The rulesets a level may be played under (the DoO profiles, then A4), with a line each.
    pub rulesets: Vec<(String, String)>,
    /// The default profile (a level that names none plays it).
    pub default_ruleset: String,
}

#[derive(Resource, Default)]
pub struct SettingsOpen(pub bool);

/// Which seat's player name is being typed.
#[derive(Resource, Default)]
pub struct NameEditing(pub Option<usize>);

#[derive(Component)]
struct SettingsPanel;
#[derive(Component)]
struct SetupSeats;
#[derive(Component)]
struct LevelDetails;

/// The folder the level menu lists.
pub const LEVELS_DIR: &str = "levels";

fn root_node() -> Node {
    Node {
        width: Val::Percent(100.0),
        height: Val::Percent(100.0),
        flex_direction: FlexDirection::Column,
        align_items: AlignItems::Center,
        justify_content: JustifyContent::Center,
        row_gap: Val::Px(8.0),
        ..default()
    }
}

fn spawn_menu(mut commands: Commands, setup: Option<Res<MatchSetup>>) {
    let quick = setup.map(|s| s.checked.level.name.clone());
    commands.spawn((Name::new("Main menu"), DespawnOnExit(Screen::Menu), root_node())).with_children(|p| {
        p.spawn(text("Dungeons of Olde", 54.0, colors::GOLD));
        p.spawn(text("Crisis Mode tactics", 20.0, colors::DIM));
        p.spawn(Node { height: Val::Px(24.0), ..default() });
        // Enter starts the level that is ready (the tutorial unless `play <level> --menu` named
        // another): its seats screen, then Enter again plays it.
        if let Some(q) = &quick {
            p.spawn(button(format!("Play {q}  [Enter]"), Act::QuickStart));
        }
        p.spawn(button(if quick.is_some() { "Choose a level  [L]" } else { "Choose a level  [Enter]" }, Act::Play));
        if crate::saves::autosave_path().is_file() {
            p.spawn(button("Continue  (the last match, autosaved)", Act::Continue));
        }
        p.spawn(button("New campaign", Act::NewCampaign));
        if super::campaign::campaign_save_path().is_file() {
            p.spawn(button("Continue the campaign", Act::ContinueCampaign));
        }
        p.spawn(button("Load a saved match", Act::ToLoad));
        p.spawn(button("Settings", Act::Settings));
        p.spawn(button("Quit", Act::Quit));
    });
}

/// Levels listed at most, and how long the whole scan may take: a level in `levels/` that is
/// slow or hostile is shown as broken, it never freezes the menu.
const MAX_LISTED_LEVELS: usize = 200;
const SCAN_DEADLINE: std::time::Duration = std::time::Duration::from_secs(2);

/// The level list's order: the tutorial (the default level) first, then by file name.
pub fn order_levels(files: &mut [PathBuf]) {
    let tutorial = Path::new(super::DEFAULT_LEVEL).file_name();
    files.sort_by(|a, b| (a.file_name() != tutorial, a).cmp(&(b.file_name() != tutorial, b)));
}

fn scan_levels(mut catalog: ResMut<LevelCatalog>, data: Res<GameData>, setup: Option<Res<MatchSetup>>) {
    catalog.default_ruleset = data.0.profiles.default.clone();
    catalog.rulesets = data.0.profiles.profiles.iter().map(|(k, p)| (k.clone(), p.description.clone())).collect();
    catalog.rulesets.push((data.0.a4.name.clone(), data.0.a4.description.clone()));
    let mut files: Vec<PathBuf> = std::fs::read_dir(LEVELS_DIR)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect())
        .unwrap_or_default();
    order_levels(&mut files);
    files.truncate(MAX_LISTED_LEVELS);
    // Two worker threads check the files from a shared queue (at most two files are in memory
    // at once); what is not done by the deadline is listed as broken, and the workers finish
    // in the background.
    let (tx, rx) = std::sync::mpsc::channel();
    let queue = std::sync::Arc::new(std::sync::Mutex::new(files.iter().cloned().enumerate().collect::<std::collections::VecDeque<_>>()));
    for _ in 0..2 {
        let (tx, queue, data) = (tx.clone(), queue.clone(), data.0.clone());
        std::thread::spawn(move || {
            while let Some((k, p)) = queue.lock().ok().and_then(|mut q| q.pop_front()) {
                let root = crate::level_file::project_root(&p);
                let r = crate::level_file::load(&p, &data, &root)
                    .map_err(|errs| errs.first().map(|e| format!("{}:{}:{}: {}", p.display(), e.line, e.col, e.message)).unwrap_or_default());
                if tx.send((k, r)).is_err() {
                    return;
                }
            }
        });
    }
    drop(tx);
    let mut results: Vec<Option<Result<crate::level_file::CheckedLevel, String>>> = files.iter().map(|_| None).collect();
    let deadline = std::time::Instant::now() + SCAN_DEADLINE;
    while let Ok((k, r)) = rx.recv_timeout(deadline.saturating_duration_since(std::time::Instant::now())) {
        results[k] = Some(r);
    }
    catalog.entries = files
        .into_iter()
        .zip(results)
        .map(|(p, r)| {
            let r = r.unwrap_or_else(|| Err(format!("{}: not checked within {} s (too large or not a file)", p.display(), SCAN_DEADLINE.as_secs())));
            (p, r)
        })
        .collect();
    let current = setup.map(|s| s.path.clone());
    catalog.selected = catalog.entries.iter().position(|(p, _)| Some(p) == current.as_ref()).unwrap_or(0);
}

fn spawn_levels(mut commands: Commands, catalog: Res<LevelCatalog>) {
    commands.spawn((Name::new("Level select"), DespawnOnExit(Screen::Levels), Node { flex_direction: FlexDirection::Row, ..root_node() })).with_children(|p| {
        p.spawn(panel(Node { flex_direction: FlexDirection::Column, padding: UiRect::all(Val::Px(14.0)), width: Val::Px(360.0), ..default() })).with_children(
            |l| {
                l.spawn(text("Choose a level", 26.0, colors::GOLD));
                for (k, (path, r)) in catalog.entries.iter().enumerate() {
                    let name = match r {
                        Ok(c) => c.level.name.clone(),
                        Err(_) => format!("{} (broken)", path.file_name().map(|f| f.to_string_lossy().to_string()).unwrap_or_default()),
                    };
                    let mut b = l.spawn(button(name, Act::PickLevel(k)));
                    if k == catalog.selected {
                        b.insert(Selected);
                    }
                }
                if catalog.entries.is_empty() {
                    l.spawn(text(format!("No levels in {LEVELS_DIR}/"), 16.0, colors::BAD));
                }
            },
        );
        p.spawn((
            LevelDetails,
            panel(Node {
                flex_direction: FlexDirection::Column,
                padding: UiRect::all(Val::Px(14.0)),
                width: Val::Px(560.0),
                margin: UiRect::left(Val::Px(16.0)),
                ..default()
            }),
        ))
        .with_children(|d| level_details(d, &catalog));
    });
}

fn level_details(d: &mut ChildSpawnerCommands, catalog: &LevelCatalog) {
    match catalog.entries.get(catalog.selected) {
        Some((_, Ok(c))) => {
            d.spawn(text(c.level.name.clone(), 24.0, colors::GOLD));
            let kind = if c.crawl.is_some() { "  |  a crawl: Exploration Mode, fights in Crisis Mode" } else { "  |  one crisis" };
            let profile = c.level.profile.clone().unwrap_or_else(|| catalog.default_ruleset.clone());
            let about = catalog.rulesets.iter().find(|r| r.0 == profile).map(|r| r.1.clone()).unwrap_or_default();
            d.spawn(Node { flex_direction: FlexDirection::Row, align_items: AlignItems::Center, column_gap: Val::Px(8.0), ..default() }).with_children(|r| {
                r.spawn(button(format!("Rules: {profile}  (change: R)"), Act::CycleRuleset));
                r.spawn(text(kind.trim_start_matches("  |  ").to_string(), 14.0, colors::DIM));
            });
            d.spawn(text(about, 14.0, colors::DIM));
            d.spawn(text(c.level.briefing.clone(), 16.0, colors::TEXT));
            let sides: Vec<String> = c
                .sides
                .iter()
                .map(|s| {
                    let n = c.characters.iter().filter(|x| x.side == s.id).count();
                    format!(
                        "{} ({} figure{}, {})",
                        s.name.clone().unwrap_or_else(|| s.id.clone()),
                        n,
                        if n == 1 { "" } else { "s" },
                        if s.control == Control::Ai { "AI" } else { "human" }
                    )
                })
                .collect();
            d.spawn(text(format!("Sides: {}", sides.join(" | ")), 16.0, colors::TEXT));
            let goals: Vec<String> = c.level.victory.iter().map(|v| format!("{}: {}", v.side, crate::rules::victory::Goal::describe(&v.goal))).collect();
            d.spawn(text(
                if goals.is_empty() { "Goal: rout every other side".to_string() } else { format!("Goals: {}", goals.join("; ")) },
                16.0,
                colors::TEXT,
            ));
            d.spawn(Node { height: Val::Px(12.0), ..default() });
            d.spawn(Node { flex_direction: FlexDirection::Row, ..default() }).with_children(|r| {
                r.spawn(button("Back", Act::ToMenu));
                r.spawn(button("Next: seats  [Enter]", Act::ToSetup));
            });
        }
        Some((_, Err(e))) => {
            d.spawn(text("This level has errors:", 20.0, colors::BAD));
            d.spawn(text(e.clone(), 15.0, colors::BAD));
            d.spawn(button("Back", Act::ToMenu));
        }
        None => {
            d.spawn(button("Back", Act::ToMenu));
        }
    }
}

fn spawn_setup(mut commands: Commands, setup: Res<MatchSetup>) {
    commands.spawn((Name::new("Match setup"), DespawnOnExit(Screen::Setup), root_node())).with_children(|p| {
        p.spawn(text(format!("{} - who plays each side?", setup.checked.level.name), 26.0, colors::GOLD));
        p.spawn(text("Click a seat to switch human / AI easy / normal / hard; click a name to type it (Enter when done).", 15.0, colors::DIM));
        p.spawn((
            SetupSeats,
            panel(Node { flex_direction: FlexDirection::Column, padding: UiRect::all(Val::Px(14.0)), min_width: Val::Px(620.0), ..default() }),
        ));
        p.spawn(Node { flex_direction: FlexDirection::Row, ..default() }).with_children(|r| {
            r.spawn(button("Back", Act::ToLevels));
            r.spawn(button("Start the match  [Enter]", Act::Start));
        });
    });
}

fn seat_text(s: &Seat) -> String {
    match s.ai {
        Some(d) => format!("AI ({})", format!("{d:?}").to_lowercase()),
        None => "Human".into(),
    }
}

/// Rebuilds the seat rows when the seats change.
fn refresh_setup(mut commands: Commands, setup: Option<Res<MatchSetup>>, editing: Res<NameEditing>, q: Query<(Entity, Ref<SetupSeats>)>) {
    let Some(setup) = setup else { return };
    let Ok((e, panel)) = q.single() else { return };
    if !(setup.is_changed() || editing.is_changed() || panel.is_added()) {
        return;
    }
    commands.entity(e).despawn_children();
    commands.entity(e).with_children(|p| {
        for (k, s) in setup.seats.iter().enumerate() {
            p.spawn(Node { flex_direction: FlexDirection::Row, align_items: AlignItems::Center, column_gap: Val::Px(10.0), ..default() }).with_children(|r| {
                r.spawn((text(s.label.clone(), 18.0, colors::TEXT), Node { width: Val::Px(180.0), ..default() }));
                r.spawn(button(seat_text(s), Act::CycleSeat(k)));
                if s.ai.is_none() {
                    let cursor = if editing.0 == Some(k) { "_" } else { "" };
                    let mut b = r.spawn(button(format!("{}{cursor}", s.player), Act::EditName(k)));
                    if editing.0 == Some(k) {
                        b.insert(Selected);
                    }
                }
            });
        }
        let humans: std::collections::BTreeSet<&str> = setup.seats.iter().filter(|s| s.ai.is_none()).map(|s| s.player.as_str()).collect();
        let note = match humans.len() {
            0 => "Every side is AI: you will watch the match.".to_string(),
            1 => "One human player.".to_string(),
            n => format!("Hot-seat: {n} players share this computer; the board is hidden while it passes between them."),
        };
        p.spawn(text(note, 15.0, colors::DIM));
    });
}

fn type_player_name(mut keys: MessageReader<KeyboardInput>, mut editing: ResMut<NameEditing>, setup: Option<ResMut<MatchSetup>>, screen: Res<State<Screen>>) {
    let (Some(k), Some(mut setup)) = (editing.0, setup) else {
        keys.clear();
        return;
    };
    if *screen.get() != Screen::Setup {
        editing.0 = None;
        return;
    }
    // The key that started the editing (Enter or Space on the focused button) is not typed.
    if editing.is_changed() {
        keys.clear();
        return;
    }
    for e in keys.read() {
        if !e.state.is_pressed() {
            continue;
        }
        let Some(seat) = setup.seats.get_mut(k) else { continue };
        match &e.logical_key {
            Key::Enter | Key::Escape => editing.0 = None,
            Key::Backspace => {
                seat.player.pop();
            }
            Key::Character(c) if seat.player.chars().count() < 20 => seat.player.push_str(c),
            Key::Space => seat.player.push(' '),
            _ => {}
        }
    }
}

fn show_settings(mut commands: Commands, open: Res<SettingsOpen>, settings: Res<Settings>, q: Query<Entity, With<SettingsPanel>>) {
    if !(open.is_changed() || settings.is_changed()) {
        return;
    }
    for e in &q {
        commands.entity(e).despawn();
    }
    if !open.0 {
        return;
    }
    let row = |p: &mut ChildSpawnerCommands, label: &str, items: Vec<(String, Act, bool)>| {
        p.spawn(Node { flex_direction: FlexDirection::Row, align_items: AlignItems::Center, ..default() }).with_children(|r| {
            r.spawn((text(label, 16.0, colors::TEXT), Node { width: Val::Px(170.0), ..default() }));
            for (l, act, on) in items {
                let mut b = r.spawn(button(l, act));
                if on {
                    b.insert(Selected);
                }
            }
        });
    };
    commands
        .spawn((
            Name::new("Settings"),
            SettingsPanel,
            GlobalZIndex(50),
            panel_in(
                Node {
                    position_type: PositionType::Absolute,
                    left: Val::Percent(25.0),
                    top: Val::Percent(20.0),
                    padding: UiRect::all(Val::Px(16.0)),
                    flex_direction: FlexDirection::Column,
                    row_gap: Val::Px(6.0),
                    ..default()
                },
                colors::PANEL_SOLID,
            ),
        ))
        .with_children(|p| {
            p.spawn(text("Settings", 24.0, colors::GOLD));
            row(p, "UI scale", UI_SCALES.iter().map(|&s| (format!("{s}x"), Act::UiScale(s), settings.ui_scale == s)).collect());
            row(p, "Animations", ANIMATION_SPEEDS.iter().map(|&(s, l)| (l.to_string(), Act::Speed(s), settings.animation_speed == s)).collect());
            let sound = if cfg!(feature = "audio") { "Sound" } else { "Sound (audio feature)" };
            row(p, sound, VOLUMES.iter().map(|&(v, l)| (l.to_string(), Act::Volume(v), settings.volume == v)).collect());
            row(
                p,
                "Reaction prompts",
                vec![("ask".into(), Act::Prompts(true), settings.reaction_prompts), ("never".into(), Act::Prompts(false), !settings.reaction_prompts)],
            );
            row(
                p,
                "Prompt timeout",
                PROMPT_TIMEOUTS
                    .iter()
                    .map(|&t| (if t == 0 { "none".into() } else { format!("{t} s") }, Act::Timeout(t), settings.prompt_timeout_secs == t))
                    .collect(),
            );
            if !settings.never_ask.is_empty() {
                p.spawn(text(
                    format!("Never asked: {} (clear in the prompt or the file)", settings.never_ask.iter().cloned().collect::<Vec<_>>().join(", ")),
                    14.0,
                    colors::DIM,
                ));
            }
            p.spawn(text(
                format!("Saved to {}", super::settings::settings_path().map(|p| p.display().to_string()).unwrap_or_else(|| "(nowhere: no HOME)".into())),
                13.0,
                colors::DIM,
            ));
            p.spawn(button("Close", Act::Settings));
        });
}

#[allow(clippy::too_many_arguments)]
fn handle_screen_acts(
    mut acts: MessageReader<Act>,
    keys: Res<ButtonInput<KeyCode>>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
    mut catalog: ResMut<LevelCatalog>,
    mut setup: Option<ResMut<MatchSetup>>,
    mut commands: Commands,
    mut settings: ResMut<Settings>,
    mut open: ResMut<SettingsOpen>,
    mut editing: ResMut<NameEditing>,
    details: Query<Entity, With<LevelDetails>>,
    mut exit: MessageWriter<AppExit>,
    mut picks: Query<(&Act, Entity, Has<Selected>), With<Button>>,
    focus: Res<super::ui::KeyFocus>,
    data: Res<GameData>,
) {
    let mut list: Vec<Act> = acts.read().cloned().collect();
    if keys.just_pressed(KeyCode::KeyR) && *screen.get() == Screen::Levels && editing.0.is_none() {
        list.push(Act::CycleRuleset);
    }
    if keys.just_pressed(KeyCode::KeyL) && *screen.get() == Screen::Menu {
        list.push(Act::Play);
    }
    // Keyboard paths of the screen buttons (Enter presses the focused button when there is one).
    if keys.just_pressed(KeyCode::Enter) && editing.0.is_none() && focus.0.is_none() {
        match screen.get() {
            Screen::Menu => list.push(if setup.is_some() { Act::QuickStart } else { Act::Play }),
            Screen::Levels => list.push(Act::ToSetup),
            Screen::Setup => list.push(Act::Start),
            Screen::Match | Screen::Load | Screen::Campaign => {}
        }
    }
    if keys.just_pressed(KeyCode::Escape) && *screen.get() != Screen::Match {
        if open.0 {
            open.0 = false;
        } else {
            match screen.get() {
                Screen::Levels => next.set(Screen::Menu),
                Screen::Setup if editing.0.is_none() => next.set(Screen::Levels),
                _ => {}
            }
        }
    }
    for act in list {
        match act {
            Act::Play | Act::ToLevels => next.set(Screen::Levels),
            Act::QuickStart if setup.is_some() => next.set(Screen::Setup),
            Act::Continue => match continue_save(&data.0) {
                Some(Ok(setup)) => {
                    commands.insert_resource(setup);
                    next.set(Screen::Match);
                }
                // An autosave that cannot be used: what is wrong, and the choices.
                Some(Err(broken)) => {
                    commands.insert_resource(*broken);
                    next.set(Screen::Load);
                }
                None => {}
            },
            Act::ToMenu => next.set(Screen::Menu),
            Act::ToLoad if *screen.get() != Screen::Match => next.set(Screen::Load),
            Act::WatchThis => {
                // The match just played, from its first command, in the replay viewer.
                commands.queue(|w: &mut World| {
                    let turn = w.get_resource::<crate::game::components::MatchState>().map_or(0, |s| s.clock.turn);
                    let Some(save) = w.resource::<crate::game::record::MatchRecord>().to_save(turn, None) else { return };
                    let Some(mut setup) = w.get_resource::<MatchSetup>().cloned() else { return };
                    setup.resume = Some(Box::new(save));
                    setup.replay = true;
                    w.insert_resource(setup);
                    end_match_world(w);
                    begin_match_world(w);
                });
            }
            Act::Settings => open.0 = !open.0,
            Act::Quit => {
                exit.write(AppExit::Success);
            }
            Act::PickLevel(k) => {
                catalog.selected = k;
                for (a, e, sel) in &mut picks {
                    let want = *a == Act::PickLevel(k);
                    if let Act::PickLevel(_) = a {
                        if want && !sel {
                            commands.entity(e).insert(Selected);
                        } else if !want && sel {
                            commands.entity(e).remove::<Selected>();
                        }
                    }
                }
                for e in &details {
                    commands.entity(e).despawn_children();
                    commands.entity(e).with_children(|d| level_details(d, &catalog));
                }
            }
            Act::CycleRuleset => {
                // The level's rules for this match: the next profile or ruleset (crawls too:
                // under A4 a crawl explores as usual and fights in rounds, A4-G-39).
                let k = catalog.selected;
                let names: Vec<String> = catalog.rulesets.iter().map(|r| r.0.clone()).collect();
                let default = catalog.default_ruleset.clone();
                if let Some((_, Ok(c))) = catalog.entries.get_mut(k) {
                    let now = c.level.profile.clone().unwrap_or(default);
                    let at = names.iter().position(|n| *n == now).unwrap_or(0);
                    c.level.profile = Some(names[(at + 1) % names.len().max(1)].clone());
                }
                for e in &details {
                    commands.entity(e).despawn_children();
                    commands.entity(e).with_children(|d| level_details(d, &catalog));
                }
            }
            Act::ToSetup => {
                if let Some((path, Ok(c))) = catalog.entries.get(catalog.selected) {
                    commands.insert_resource(MatchSetup::new(path.clone(), c.clone()));
                    next.set(Screen::Setup);
                }
            }
            Act::CycleSeat(k) => {
                if let Some(s) = setup.as_mut().and_then(|s| s.seats.get_mut(k)) {
                    s.ai = match s.ai {
                        None => Some(Difficulty::Easy),
                        Some(Difficulty::Easy) => Some(Difficulty::Normal),
                        Some(Difficulty::Normal) => Some(Difficulty::Hard),
                        Some(Difficulty::Hard) => None,
                    };
                }
            }
            Act::EditName(k) => editing.0 = if editing.0 == Some(k) { None } else { Some(k) },
            Act::Start | Act::PlayAgain => {
                editing.0 = None;
                if *screen.get() == Screen::Match {
                    // Leave and re-enter so the match is built afresh.
                    commands.queue(|w: &mut World| {
                        end_match_world(w);
                        begin_match_world(w);
                    });
                } else {
                    next.set(Screen::Match);
                }
            }
            Act::UiScale(s) => settings.ui_scale = s,
            Act::Speed(s) => settings.animation_speed = s,
            Act::Volume(v) => settings.volume = v,
            Act::Prompts(b) => settings.reaction_prompts = b,
            Act::Timeout(t) => settings.prompt_timeout_secs = t,
            _ => {}
        }
    }
}

/// Entering the match screen asks for a start; it happens in `Update` (a match start runs its own
/// state transition, which cannot nest inside `OnEnter`).
/// The settings panel belongs to the screen it was opened on: another screen starts without it.
fn close_settings(screen: Res<State<Screen>>, mut open: ResMut<SettingsOpen>) {
    if screen.is_changed() && open.0 {
        open.0 = false;
    }
}

fn begin_match(mut pending: ResMut<PendingStart>) {
    pending.0 = true;
}

#[derive(Resource, Default)]
pub struct PendingStart(pub bool);

fn start_pending_match(world: &mut World) {
    if std::mem::take(&mut world.resource_mut::<PendingStart>().0) {
        begin_match_world(world);
    }
}

fn end_match(world: &mut World) {
    end_match_world(world);
}

/// Builds the match of `MatchSetup` and puts it on the board (the opening reset runs).
pub fn begin_match_world(world: &mut World) {
    let Some(setup) = world.get_resource::<MatchSetup>().cloned() else { return };
    let data = world.resource::<GameData>().0.clone();
    let m = match setup.checked.build(&data) {
        Ok(m) => m,
        Err(e) => {
            error!("{}: {}", setup.path.display(), e.join("; "));
            world.resource_mut::<NextState<Screen>>().set(Screen::Menu);
            return;
        }
    };
    if let Some(save) = setup.resume.as_deref().filter(|_| setup.replay) {
        // Watching, not playing: the replay viewer.
        world.insert_resource(PlayingLevel(setup.checked.clone()));
        world.insert_resource(crate::game::intent::PlayerView::default());
        let mut dice = crate::rules::Dice::seeded(save.seed);
        dice.force(save.forced_dice.iter().copied());
        let origin = doo_rules::replay::Origin { m, dice, mid_phase: false };
        let save = save.clone();
        if let Some(mut s) = world.get_resource_mut::<MatchSetup>() {
            s.resume = None;
            s.replay = false;
        }
        if let Err(e) = super::viewer::start_viewer(world, origin, &save) {
            error!("{}: cannot watch: {e}", setup.path.display());
            world.resource_mut::<NextState<Screen>>().set(Screen::Menu);
        }
        return;
    }
    let opts = world.resource::<super::WindowOptions>().clone();
    let seed = opts.seed.unwrap_or_else(|| std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0));
    let per_side: BTreeMap<String, Difficulty> = setup.seats.iter().filter_map(|s| s.ai.map(|d| (s.side.clone(), d))).collect();
    let mut config = doo_rules::ai::AiConfig::for_level(
        setup.checked.side_ids(),
        &setup.checked.behaviours,
        &setup.checked.level.victory,
        Difficulty::Normal,
        &per_side,
        seed,
        data.ai.clone(),
    );
    config.budget = crate::ai::Budget::INTERACTIVE;
    if !opts.watch {
        config.sides.retain(|s, _| per_side.contains_key(s));
    }
    world.insert_resource(crate::game::ai::AiControl { config, pace_secs: super::reload::AI_PACE_SECS, waited: 0.0, plan: None });
    world.insert_resource(crate::game::intent::Seats {
        players: setup.seats.iter().filter(|s| s.ai.is_none() && !opts.watch).map(|s| (s.side.clone(), s.player.clone())).collect(),
        owners: if opts.watch { BTreeMap::new() } else { setup.owners.clone() },
    });
    world.insert_resource(PlayingLevel(setup.checked.clone()));
    world.insert_resource(crate::game::intent::PlayerView::default());
    super::reload::watch_level(world, &setup.path);
    // Every match is recorded and autosaved after each command (Continue, `--resume`).
    // A campaign level autosaves to the campaign's save, which carries its progress.
    let autosave = if setup.campaign.is_some() { super::campaign::campaign_save_path() } else { crate::saves::autosave_path() };
    world.insert_resource(crate::game::record::Autosave::to(autosave));
    if setup.resume.is_some() {
        // The one replay path; a save that does not replay to its end opens the Load screen
        // with what went wrong and the choices (never a half-played match, never a panic).
        crate::crash::set_save_in_play(setup.save_path.clone().or_else(|| Some(autosave_path_of(world))));
        match super::load::resume_match(world, &data, &setup) {
            Ok(()) => {
                if let Some(mut s) = world.get_resource_mut::<MatchSetup>() {
                    s.resume = None; // "Play again" starts afresh
                }
            }
            Err(broken) => {
                warn!("{}", broken.message);
                world.remove_resource::<crate::game::ai::AiControl>();
                world.insert_resource(*broken);
                // Off the match screen at once: its systems expect a match on the board.
                world.resource_mut::<NextState<Screen>>().set(Screen::Load);
                world.run_schedule(bevy::state::state::StateTransition);
            }
        }
        return;
    }
    crate::crash::set_save_in_play(Some(autosave_path_of(world)));
    let seats = setup
        .seats
        .iter()
        .map(|s| crate::save::Seat { side: s.side.clone(), player: if s.ai.is_some() { String::new() } else { s.player.clone() }, ai: s.ai })
        .collect();
    let header = doo_rules::save::save_header(&setup.path, &setup.checked, seed, seats, opts.watch)
        .map(|mut h| {
            h.campaign = setup.campaign.as_deref().cloned();
            h
        })
        .map_err(|e| warn!("not recorded: {e}"))
        .ok();
    world.insert_resource(header.map(crate::game::record::MatchRecord::new).unwrap_or_default());
    crate::game::setup::start_match(world, m, crate::rules::Dice::seeded(seed), false);
}

/// Where the running match autosaves.
fn autosave_path_of(world: &World) -> PathBuf {
    world.get_resource::<crate::game::record::Autosave>().map_or_else(crate::saves::autosave_path, |a| a.path.clone())
}

/// The autosave, when there is one: the match to go on with (readable, its level unchanged,
/// checked with the rule data the game plays with), or why it cannot be used.
fn continue_save(data: &crate::data::RuleData) -> Option<Result<MatchSetup, Box<super::load::BrokenSave>>> {
    let p = crate::saves::autosave_path();
    p.is_file().then(|| super::load::open_save_file(&p, data))
}

/// Takes the match off the board.
pub fn end_match_world(world: &mut World) {
    let chars: Vec<Entity> = world.query_filtered::<Entity, With<crate::game::components::CharacterId>>().iter(world).collect();
    for e in chars {
        world.despawn(e);
    }
    world.remove_resource::<crate::game::components::MatchState>();
    world.remove_resource::<crate::game::ai::AiControl>();
    world.insert_resource(crate::game::flow::FlowStatus::default());
    world.insert_resource(crate::game::pipeline::CommandQueue::default());
    if let Some(mut w) = world.get_resource_mut::<super::reload::LevelWatch>() {
        w.handle = None;
    }
}
