//! A match's life in the window: starting one from `MatchSetup` (the level and the seats, or a
//! save to go on with or to watch), resuming a save through the one replay path, ending it, and
//! the AI's pace while a person watches (it waits while the HUD covers the board or tokens
//! move; Space skips the pace). Screens and the HUD ask for a start, a restart or a replay;
//! hot reload hears of each match started and ended (`MatchBegun`, `MatchEnded`).

use crate::game::MatchSystems;
use crate::game::ai::{AiControl, AiHold};
use crate::window::board::{Overlay, TokensMoving};
use crate::window::screens::Screen;
use crate::window::settings::Settings;
use crate::window::{GameData, PlayingLevel, WindowOptions};
use bevy::prelude::*;
use doo_rules::ai::Difficulty;
use doo_rules::level_file::{CheckedLevel, Control};
use std::collections::BTreeMap;
use std::path::PathBuf;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PendingStart>()
        .add_systems(Update, start_pending_match.before(MatchSystems::Input))
        .add_systems(OnEnter(Screen::Match), begin_match)
        .add_systems(OnExit(Screen::Match), end_match)
        .add_systems(Update, toggle_ai_pace.in_set(MatchSystems::Input))
        .add_systems(Update, hold_ai.in_set(HoldAi));
}

/// Seconds between two AI commands in the window, so a person can follow them (Space skips).
pub const AI_PACE_SECS: f32 = 0.4;

/// Where the AI's hold is decided in a frame (the HUD orders it after its overlays and prompt
/// are settled, before it draws).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HoldAi;

/// A match was put on the board from its level file (not a replay being watched).
#[derive(Event, Debug, Clone)]
pub struct MatchBegun {
    pub level: PathBuf,
}

/// A network match went on the board (`window::net` answers: it hosts it, or goes on with the
/// host's commands, or leaves a host whose match cannot be played here).
#[derive(Event, Debug, Clone)]
pub enum NetMatchStarted {
    Hosting { seed: u64 },
    Joined,
    Unplayable(String),
}

/// The match was taken off the board.
#[derive(Event, Debug, Clone, Copy)]
pub struct MatchEnded;

/// One seat per side: a human player's name, or the AI at a difficulty; or a player on another
/// computer (a network match: `remote`, named by the host once he joins).
#[derive(Clone, Debug, PartialEq)]
pub struct Seat {
    pub side: String,
    pub label: String,
    pub ai: Option<Difficulty>,
    pub player: String,
    pub remote: bool,
}

impl Seat {
    /// A person at this computer plays the seat.
    pub fn local_human(&self) -> bool {
        self.ai.is_none() && !self.remote
    }
}

/// The level and seats the next match uses.
#[derive(Resource, Clone, Debug)]
pub struct MatchSetup {
    pub path: PathBuf,
    pub checked: CheckedLevel,
    pub seats: Vec<Seat>,
    /// A save to go on with instead of a new match (Continue, `--resume`).
    pub resume: Option<Box<doo_rules::save::Save>>,
    /// Watch `resume` in the replay viewer instead of playing on.
    pub replay: bool,
    /// A campaign level: the progress the match's saves carry, and who owns which hero.
    pub campaign: Option<Box<doo_rules::campaign::Progress>>,
    pub owners: BTreeMap<String, String>,
    /// The save file `resume` was read from (the crash log names it; a broken one can be deleted).
    pub save_path: Option<PathBuf>,
    /// A network client's match: the host's welcome (its commands in `resume`); the host keeps
    /// the autosave, the seats not `local_human` are played elsewhere.
    pub net_client: bool,
    /// Where a hosted match listens (the Host screen, `--listen`, or the save of a match hosted
    /// before); `None`: every address of this computer, port `net::DEFAULT_PORT`.
    pub listen: Option<std::net::SocketAddr>,
}

impl MatchSetup {
    /// The seats of a hosted match: the first side played here, every other by a remote player.
    pub fn hosted(mut self) -> Self {
        for (k, s) in self.seats.iter_mut().enumerate() {
            s.ai = None;
            s.remote = k > 0;
        }
        self
    }

    /// Some seat is played on another computer: this window hosts the match (or joined one).
    pub fn networked(&self) -> bool {
        self.net_client || self.seats.iter().any(|s| s.remote)
    }
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
                remote: false,
            })
            .collect();
        Self { path, checked, seats, resume: None, replay: false, campaign: None, owners: BTreeMap::new(), save_path: None, net_client: false, listen: None }
    }

    /// The seats a save was played with, and the save to go on with.
    pub fn from_save(path: PathBuf, checked: CheckedLevel, save: &doo_rules::save::Save) -> Self {
        let mut me = Self::new(path, checked);
        for seat in &mut me.seats {
            if let Some(s) = save.seats.iter().find(|s| s.side == seat.side) {
                seat.ai = s.ai;
                if !s.player.is_empty() {
                    seat.player = s.player.clone();
                }
            }
        }
        me.host_again(save);
        me.resume = Some(Box::new(save.clone()));
        me
    }

    /// A save of a match this computer hosted (a host window that crashed, then Continue or
    /// Load): hosted again where it listened, its remote seats waiting for their players
    /// (each rejoins under his name, as after `doo host --resume`). A seat since handed to the
    /// AI stays the AI's.
    pub fn host_again(&mut self, save: &doo_rules::save::Save) {
        let Some(h) = &save.hosted else { return };
        for seat in self.seats.iter_mut().filter(|s| h.remote.contains(&s.side) && s.ai.is_none()) {
            seat.remote = true;
        }
        self.listen = h.listen.parse().ok();
    }

    /// A save file to go on with: read and checked, its level under the rules the save was
    /// played with (a ruleset picked on the level-select screen is in the save, not in the
    /// level file). Continue, a Load slot and `doo play --resume` all start here.
    pub fn resume_file(save_path: &std::path::Path, data: &doo_rules::data::RuleData) -> Result<Self, doo_rules::data::LoadError> {
        let (save, level_path, checked) = doo_rules::save::load_save(save_path, data)?;
        let mut me = Self::from_save(level_path, checked, &save);
        me.save_path = Some(save_path.to_path_buf());
        Ok(me)
    }
}

/// A save that does not replay to its end, and how far it does: shown over the Load screen
/// until the player chooses.
#[derive(Resource, Clone, Debug)]
pub struct BrokenSave {
    /// The save's file (deleted on request), when it came from one.
    pub path: Option<PathBuf>,
    /// The match setup the save was opened with (level, rules, seats, the save); `None` when
    /// the file cannot be read as a save of a level here (its level missing or changed, not a
    /// save): then it can only be deleted or left.
    pub setup: Option<MatchSetup>,
    /// Commands that replay, of `total`.
    pub good: usize,
    pub total: usize,
    /// What went wrong, in a sentence or two (the first bad command).
    pub message: String,
}

impl BrokenSave {
    /// The setup that plays on (or is watched) from the last command that replays.
    pub fn from_last_good(&self) -> Option<MatchSetup> {
        let mut setup = self.setup.clone()?;
        if let Some(save) = setup.resume.as_deref() {
            setup.resume = Some(Box::new(doo_rules::replay::truncated(save, self.good)));
        }
        setup.replay = false;
        Some(setup)
    }
}

/// A save file to go on with (Continue, `doo play --resume`): read and checked, its level under
/// the save's rules. A file that is not a usable save (unreadable, another version, its level
/// missing or changed) is `Err`: what is wrong, with only "delete" and "back" to choose.
pub fn open_save_file(path: &std::path::Path, data: &doo_rules::data::RuleData) -> Result<MatchSetup, Box<BrokenSave>> {
    MatchSetup::resume_file(path, data)
        .map_err(|e| Box::new(BrokenSave { path: Some(path.to_path_buf()), setup: None, good: 0, total: 0, message: e.to_string() }))
}

/// Opens the save of `setup` to play on in `world` (the window's; a headless app's in the
/// tests): replayed through `doo_rules::replay::open`, checked against its checkpoints, then
/// restored with the AI's plan. A save that does not replay to its end is not restored:
/// `Err` says how far it goes and why. No save in `setup`: nothing happens.
pub fn resume_match(world: &mut World, data: &doo_rules::data::RuleData, setup: &MatchSetup) -> Result<(), Box<BrokenSave>> {
    let Some(save) = setup.resume.as_deref() else { return Ok(()) };
    let broken = |good: usize, message: String| {
        Box::new(BrokenSave { path: setup.save_path.clone(), setup: Some(setup.clone()), good, total: save.commands.len(), message })
    };
    let origin = doo_rules::replay::Origin::of_save(data, save, &setup.checked).map_err(|e| broken(0, e))?;
    let r = doo_rules::replay::open(&origin, save).map_err(|e| broken(0, e))?;
    if let Some(problem) = r.problem {
        let file = setup.save_path.as_ref().map_or("the save".to_string(), |p| p.display().to_string());
        return Err(broken(r.good, format!("{file} does not replay to its end: {problem}")));
    }
    if let Some(mut ai) = world.get_resource_mut::<crate::game::ai::AiControl>() {
        ai.config.seed = save.seed;
    }
    crate::replay::restore_into(world, origin, r, save);
    Ok(())
}

/// The campaign's save: a save file whose `campaign` field holds the progress (the level's
/// match, when one is being played, is its commands).
pub fn campaign_save_path() -> PathBuf {
    campaign_dir().join("campaign.ron")
}

/// Where a campaign's level files and save live.
pub fn campaign_dir() -> PathBuf {
    crate::saves::save_dir().join("campaign")
}

/// Where a delve (issue 47) lives: its generated floors and campaign file in `floors/`, the
/// run (the floors as played, the save) in `run/`. A delve has its own save beside the
/// campaign's, so starting one never ends the other.
pub fn delve_dir() -> PathBuf {
    crate::saves::save_dir().join("delve")
}

/// The delve's save: a campaign save whose campaign is the generated `delve.ron`.
pub fn delve_save_path() -> PathBuf {
    delve_dir().join("run").join("campaign.ron")
}

/// Where the run of the campaign file `campaign` keeps its levels and save: the delve's run
/// folder for a generated delve, the campaign folder for every other campaign.
pub fn run_dir(campaign: &std::path::Path) -> PathBuf {
    let floors = delve_dir().join("floors");
    let inside = |p: &std::path::Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    if inside(campaign).starts_with(inside(&floors)) { delve_dir().join("run") } else { campaign_dir() }
}

/// The save of the run of the campaign file `campaign` (`run_dir`).
pub fn run_save_path(campaign: &std::path::Path) -> PathBuf {
    run_dir(campaign).join("campaign.ron")
}

/// Entering the match screen asks for a start; it happens in `Update` (a match start runs its own
/// state transition, which cannot nest inside `OnEnter`).
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
        let mut dice = doo_rules::rules::Dice::seeded(save.seed);
        dice.force(save.forced_dice.iter().copied());
        let origin = doo_rules::replay::Origin { m, dice, mid_phase: false, version: save.version };
        let save = save.clone();
        if let Some(mut s) = world.get_resource_mut::<MatchSetup>() {
            s.resume = None;
            s.replay = false;
        }
        if let Err(e) = crate::window::screens::viewer::start_viewer(world, origin, &save) {
            error!("{}: cannot watch: {e}", setup.path.display());
            world.resource_mut::<NextState<Screen>>().set(Screen::Menu);
        }
        return;
    }
    let opts = world.resource::<WindowOptions>().clone();
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
    // A UI walk (the UI tests) plays its match with the deterministic budget: the AI's choices
    // do not depend on how loaded the machine is (the walk's own pace still follows the frames).
    config.budget = if opts.ui_walk.is_some() { doo_rules::ai::Budget::default() } else { doo_rules::ai::Budget::INTERACTIVE };
    if !opts.watch {
        config.sides.retain(|s, _| per_side.contains_key(s));
    }
    let remote: std::collections::BTreeSet<String> = setup.seats.iter().filter(|s| s.remote).map(|s| s.side.clone()).collect();
    // A remote seat is its player's, never this computer's AI (not even when watching).
    config.sides.retain(|s, _| !remote.contains(s));
    world.insert_resource(AiControl { config, pace_secs: AI_PACE_SECS, waited: 0.0, plan: None, remote });
    world.insert_resource(crate::game::intent::Seats {
        players: setup.seats.iter().filter(|s| s.local_human() && !opts.watch).map(|s| (s.side.clone(), s.player.clone())).collect(),
        owners: if opts.watch { BTreeMap::new() } else { setup.owners.clone() },
        elsewhere: setup.seats.iter().filter(|s| s.remote).map(|s| (s.side.clone(), s.player.clone())).collect(),
    });
    world.insert_resource(PlayingLevel(setup.checked.clone()));
    world.insert_resource(crate::game::intent::PlayerView::default());
    if setup.net_client {
        // The host's match, rebuilt from its welcome: no file to watch, no autosave here (the
        // host keeps the match's; this computer's autosave and campaign save stay untouched).
        world.remove_resource::<crate::game::record::Autosave>();
        crate::crash::set_save_in_play(None);
        match resume_match(world, &data, &setup) {
            Ok(()) => world.trigger(NetMatchStarted::Joined),
            Err(broken) => {
                warn!("{}", broken.message);
                world.trigger(NetMatchStarted::Unplayable(broken.message));
            }
        }
        return;
    }
    if !setup.networked() {
        world.trigger(MatchBegun { level: setup.path.clone() });
    }
    // Every match is recorded and autosaved after each command (Continue, `--resume`).
    // A campaign level autosaves to the campaign's save, which carries its progress.
    let autosave = match &setup.campaign {
        Some(p) => run_save_path(std::path::Path::new(&p.campaign)),
        None => crate::saves::autosave_path(),
    };
    world.insert_resource(crate::game::record::Autosave::to(autosave));
    if setup.resume.is_some() {
        // The one replay path; a save that does not replay to its end opens the Load screen
        // with what went wrong and the choices (never a half-played match, never a panic).
        crate::crash::set_save_in_play(setup.save_path.clone().or_else(|| Some(autosave_path_of(world))));
        match resume_match(world, &data, &setup) {
            Ok(()) => {
                if let Some(mut s) = world.get_resource_mut::<MatchSetup>() {
                    s.resume = None; // "Play again" starts afresh
                }
                // A match this computer hosted is hosted again: its players rejoin.
                if let Some(save) = setup.resume.as_deref().filter(|_| setup.networked()) {
                    world.trigger(NetMatchStarted::Hosting { seed: save.seed });
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
        // A remote seat's player is named when he joins (a rejoin under that name gets it back).
        .map(|s| doo_rules::save::Seat { side: s.side.clone(), player: if s.ai.is_some() || s.remote { String::new() } else { s.player.clone() }, ai: s.ai })
        .collect();
    let header = doo_rules::save::save_header(&setup.path, &setup.checked, seed, seats, opts.watch)
        .map(|mut h| {
            h.campaign = setup.campaign.as_deref().cloned();
            h
        })
        .map_err(|e| warn!("not recorded: {e}"))
        .ok();
    world.insert_resource(header.map(crate::game::record::MatchRecord::new).unwrap_or_default());
    crate::game::setup::start_match(world, m, doo_rules::rules::Dice::seeded(seed), false);
    if setup.networked() {
        world.trigger(NetMatchStarted::Hosting { seed });
    }
}

/// Where the running match autosaves.
fn autosave_path_of(world: &World) -> PathBuf {
    world.get_resource::<crate::game::record::Autosave>().map_or_else(crate::saves::autosave_path, |a| a.path.clone())
}

/// The autosave, when there is one: the match to go on with (readable, its level unchanged,
/// checked with the rule data the game plays with), or why it cannot be used.
pub fn continue_save(data: &doo_rules::data::RuleData) -> Option<Result<MatchSetup, Box<BrokenSave>>> {
    let p = crate::saves::autosave_path();
    p.is_file().then(|| open_save_file(&p, data))
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
    world.trigger(MatchEnded);
}

/// Leaves and re-enters the match, so it is built afresh from `MatchSetup` (Play again, a
/// network client's next match): the last match's overlays go with it (the result panel would
/// otherwise stay over the new match, take the board's input and hold the AI: issue 42).
pub fn restart(world: &mut World) {
    end_match_world(world);
    *world.resource_mut::<Overlay>() = Overlay::default();
    begin_match_world(world);
}

/// The match just played, from its first command, in the replay viewer.
pub fn watch_from_start(world: &mut World) {
    if world.get_resource::<MatchSetup>().is_some_and(|s| s.networked()) {
        return;
    }
    let turn = world.get_resource::<crate::game::components::MatchState>().map_or(0, |s| s.clock.turn);
    let Some(save) = world.resource::<crate::game::record::MatchRecord>().to_save(turn, None) else { return };
    let Some(mut setup) = world.get_resource::<MatchSetup>().cloned() else { return };
    setup.resume = Some(Box::new(save));
    setup.replay = true;
    world.insert_resource(setup);
    restart(world);
}

/// Space: watch the AI's moves at a readable pace, or skip through them (while no human decides:
/// then Space is the keyboard cursor's click).
pub fn toggle_ai_pace(keys: Res<ButtonInput<KeyCode>>, view: Res<crate::game::intent::PlayerView>, ai: Option<ResMut<AiControl>>) {
    if let Some(mut ai) = ai {
        if keys.just_pressed(KeyCode::Space) && view.decider.is_none() {
            ai.pace_secs = if ai.pace_secs > 0.0 { 0.0 } else { AI_PACE_SECS };
        }
    }
}

/// The AI waits while the player reads: overlays, the reset display, moving tokens. Its pace
/// follows the animation speed.
fn hold_ai(overlay: Res<Overlay>, settings: Res<Settings>, moving: Res<TokensMoving>, hold: Option<ResMut<AiHold>>, ai: Option<ResMut<AiControl>>) {
    let busy = overlay.handover.is_some()
        || overlay.menu
        || overlay.save_name.is_some()
        || overlay.help
        || overlay.rules.is_some()
        || overlay.result.is_some()
        || overlay.reset.is_some()
        || moving.0;
    if let Some(mut h) = hold {
        if h.0 != busy {
            h.0 = busy;
        }
    }
    if let Some(mut ai) = ai {
        let pace = if settings.animation_speed > 0.0 { AI_PACE_SECS / settings.animation_speed } else { 0.0 };
        if ai.pace_secs > 0.0 && (ai.pace_secs - pace).abs() > 1e-3 {
            ai.pace_secs = pace;
        }
    }
}
