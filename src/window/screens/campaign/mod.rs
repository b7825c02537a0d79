//! Campaign screens (RULES.md §25, docs/campaigns.md): the party screen (ready-made and saved
//! heroes, a hero maker the Core way or by point-buy with gear from the allowance, hot-seat
//! owners), the briefing before each level, the result after it (CP hero by hero with the
//! reasons, the fallen, the rest), and the advancement screen that spends CP. Every choice is
//! decided by the rules (`rules::heroes`, `campaign`); refusals show their rule id. Progress is
//! written to the campaign save after every step, and a level's match autosaves into it.
//!
//! One file per screen, each with its own actions: `party.rs` (with the hero maker,
//! `maker.rs`), `briefing.rs`, `result.rs`, `advance.rs` (with the shop, `shop.rs`). The menu's
//! entries, the moves several screens share (`CampaignAct`), the keys and leaving are here.

use super::{Go, Screen};
use crate::window::GameData;
use crate::window::board::Overlay;
use crate::window::session::{MatchSetup, run_dir, run_save_path};
use crate::window::theme::prelude::*;
use bevy::prelude::*;
use doo_rules::campaign::{self, CheckedCampaign, Hero, LevelReport, Progress};
use doo_rules::rules::heroes;
use doo_rules::rules::heroes::Make;
use maker::Draft;
pub use result::BackToCampaign;
use std::fmt::Debug;
use std::path::PathBuf;

mod advance;
mod briefing;
mod maker;
mod party;
mod result;
mod shop;

pub(super) fn plugin(app: &mut App) {
    app.add_button_action::<CampaignAct>()
        .configure_sets(Update, (CampaignSystems::Keys, CampaignSystems::Answer, CampaignSystems::Type, CampaignSystems::Draw).chain())
        .add_systems(Update, campaign_keys.in_set(CampaignSystems::Keys))
        .add_systems(Update, (answer_campaign, leave_campaign).in_set(CampaignSystems::Answer))
        .add_systems(Update, draw_campaign.in_set(CampaignSystems::Draw))
        .add_plugins((party::plugin, maker::plugin, briefing::plugin, result::plugin, advance::plugin, shop::plugin));
}

/// A campaign frame: keys become actions, the screens answer them, a hero's name is typed,
/// then the screen is drawn again when the run changed.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum CampaignSystems {
    Keys,
    Answer,
    Type,
    Draw,
}

/// The menu's campaign entries, and the moves to the screens several screens lead to.
#[derive(Component, Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CampaignAct {
    NewCampaign,
    ContinueCampaign,
    /// Go on with the delve saved (issue 47).
    ContinueDelve,
    /// Spend CP (advancement).
    Advance,
    Briefing,
}

/// The shipped campaign the menu starts.
pub const CAMPAIGN_FILE: &str = "campaigns/drowned_crown.ron";

/// Which campaign screen is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    Party,
    /// Between levels: new heroes join a party with room (R-CP-14).
    Recruit,
    Briefing,
    Result,
    Advance,
}

/// A campaign in play in the window.
#[derive(Resource, Clone, Debug)]
pub struct CampaignRun {
    pub checked: CheckedCampaign,
    pub progress: Progress,
    pub stage: Stage,
    /// Party screen: heroes on offer (ready-made, then saved), and who is in the party.
    pub offered: Vec<Hero>,
    pub chosen: Vec<bool>,
    pub draft: Draft,
    pub editing_name: bool,
    /// The last refusal or notice.
    pub message: Option<(bool, String)>,
    pub report: Option<LevelReport>,
    /// Advancement: the hero shown, the player whose turn it is, the pickers.
    pub shown: usize,
    pub player: usize,
    pub new_skill: usize,
    pub new_set: usize,
    pub gear_pick: usize,
    /// Network play (issue 32): the party, or its opponents, played by a remote player; a level
    /// with one is hosted from this window (and the connection kept between levels).
    pub remote_party: bool,
    pub remote_foes: bool,
    /// Hot-seat: the party's opponents played by a second player at this computer.
    pub hotseat_foes: bool,
}

#[derive(Component)]
struct CampaignRoot;

impl CampaignRun {
    pub fn new(checked: CheckedCampaign, data: &doo_rules::data::RuleData) -> Self {
        let allowance = checked.campaign.allowance(&data.heroes);
        let mut offered = checked.heroes.clone();
        offered.extend(maker::saved_heroes(data, allowance));
        let chosen = offered.iter().enumerate().map(|(k, _)| k < checked.campaign.party_max && k < checked.heroes.len()).collect();
        let progress = Progress::start(&checked, Vec::new(), vec!["Player 1".into()], 0);
        Self {
            checked,
            progress,
            stage: Stage::Party,
            offered,
            chosen,
            draft: Draft::new(data),
            editing_name: false,
            message: None,
            report: None,
            shown: 0,
            player: 0,
            new_skill: 0,
            new_set: 0,
            gear_pick: 0,
            remote_party: false,
            remote_foes: false,
            hotseat_foes: false,
        }
    }

    /// Where this run keeps its levels as played and its save (`session::run_dir`).
    pub fn dir(&self) -> PathBuf {
        run_dir(&self.checked.path)
    }

    pub fn save_path(&self) -> PathBuf {
        run_save_path(&self.checked.path)
    }

    /// Heroes offered before the others (a delve's ready-made party), the first of them chosen.
    pub fn offer_first(&mut self, heroes: Vec<Hero>) {
        let n = heroes.len().min(self.checked.campaign.party_max);
        let mut offered = heroes;
        offered.append(&mut self.offered);
        self.chosen = (0..offered.len()).map(|k| k < n).collect();
        self.offered = offered;
    }

    /// A generated delve's run (it has its own save and a run summary).
    pub fn is_delve(&self) -> bool {
        self.dir() == crate::window::session::delve_dir().join("run")
    }

    pub(crate) fn party(&self) -> Vec<Hero> {
        self.offered.iter().zip(&self.chosen).filter(|(_, c)| **c).map(|(h, _)| h.clone()).collect()
    }

    /// The heroes the player whose turn it is may spend for (hot-seat: his own).
    fn mine(&self) -> Vec<usize> {
        let players = &self.progress.players;
        let me = players.get(self.player).cloned().unwrap_or_default();
        (0..self.progress.roster.len()).filter(|&k| players.len() < 2 || owner(&self.progress.roster[k], players) == me).collect()
    }
}

fn owner(h: &Hero, players: &[String]) -> String {
    if h.player.is_empty() || !players.contains(&h.player) { players.first().cloned().unwrap_or_default() } else { h.player.clone() }
}

/// Writes the campaign save (between levels: no commands; the level the last one played).
fn save_progress(run: &CampaignRun) {
    let Some(last) = std::fs::read_dir(run.dir())
        .ok()
        .and_then(|d| d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("level-"))).max())
    else {
        return;
    };
    let text = doo_rules::data::read_text(&last, doo_rules::data::MAX_FILE_BYTES).unwrap_or_default();
    let save = doo_rules::save::Save {
        version: doo_rules::save::VERSION,
        label: "campaign".into(),
        level: last.canonicalize().unwrap_or(last.clone()).display().to_string(),
        level_name: run.checked.campaign.name.clone(),
        level_hash: doo_rules::data::level_hash(&text),
        profile: None,
        turn_limit: None,
        seed: run.progress.seed,
        forced_dice: Vec::new(),
        seats: vec![doo_rules::save::Seat {
            side: run.checked.campaign.party_side.clone(),
            player: run.progress.players.first().cloned().unwrap_or_default(),
            ai: None,
        }],
        watch: false,
        saved_unix: std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0),
        turn: 0,
        commands: Vec::new(),
        checkpoints: Vec::new(),
        ai_plan: None,
        campaign: Some(run.progress.clone()),
        hosted: None,
    };
    if let Err(e) = doo_rules::data::write_atomic(&run.save_path(), &save.to_text()) {
        warn!("campaign not saved: {e}");
    }
}

/// Opens a campaign's save (the campaign's, or the delve's): the match in progress, or the
/// campaign screens between levels.
pub(super) fn continue_campaign(world: &mut World, path: PathBuf) -> Result<(), String> {
    let data = world.resource::<GameData>().0.clone();
    let save = doo_rules::save::load(&path).map_err(|e| e.to_string())?;
    let progress = save.campaign.clone().ok_or("the campaign save holds no campaign")?;
    progress.check_heroes(&data).map_err(|e| format!("{}: {e}", path.display()))?;
    let cpath = PathBuf::from(&progress.campaign);
    let checked = campaign::load_campaign(&cpath, &data).map_err(|e| e.to_string())?;
    if checked.hash != progress.campaign_hash {
        return Err(format!("{}: the campaign file has changed since this campaign was saved", cpath.display()));
    }
    let mut run = CampaignRun::new(checked, &data);
    run.progress = progress.clone();
    if progress.playing {
        let (save, lpath, level) = doo_rules::save::load_save(&path, &data).map_err(|e| e.to_string())?;
        let mut setup = MatchSetup::from_save(lpath, level, &save);
        let players = progress.players.clone();
        if players.len() > 1 {
            setup.owners = progress.roster.iter().map(|h| (h.id(), owner(h, &players))).collect();
        }
        setup.campaign = Some(Box::new(progress));
        world.insert_resource(setup);
        world.insert_resource(run);
        world.resource_mut::<NextState<Screen>>().set(Screen::Match);
    } else {
        run.stage = if progress.level.is_none() { Stage::Result } else { Stage::Briefing };
        world.insert_resource(run);
        world.resource_mut::<NextState<Screen>>().set(Screen::Campaign);
    }
    Ok(())
}

fn step(k: usize, d: i32, n: usize) -> usize {
    if n == 0 { 0 } else { (k as i64 + d as i64).rem_euclid(n as i64) as usize }
}

/// Enter and Esc on the campaign's screens (not while a hero's name is typed), and Enter on the
/// result of a campaign's level.
#[allow(clippy::too_many_arguments)]
fn campaign_keys(
    keys: Res<ButtonInput<KeyCode>>,
    screen: Res<State<Screen>>,
    overlay: Option<Res<Overlay>>,
    run: Option<Res<CampaignRun>>,
    data: Res<GameData>,
    focus: Res<KeyFocus>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
    mut acts: MessageWriter<CampaignAct>,
    mut party: MessageWriter<party::PartyAct>,
    mut briefing: MessageWriter<briefing::BriefingAct>,
    mut back: MessageWriter<BackToCampaign>,
) {
    let Some(run) = run.filter(|r| !r.editing_name) else { return };
    if keys.just_pressed(KeyCode::Enter) && focus.0.is_none() {
        match (screen.get(), &run.stage) {
            (Screen::Match, _) if overlay.as_ref().is_some_and(|o| o.result.is_some()) => {
                back.write(BackToCampaign);
            }
            (Screen::Campaign, Stage::Party) => {
                party.write(party::PartyAct::Begin);
            }
            (Screen::Campaign, Stage::Briefing) => {
                briefing.write(briefing::BriefingAct::Play);
            }
            (Screen::Campaign, Stage::Result) => {
                acts.write(if result::result_buttons(&run, &data.0).0 { CampaignAct::Advance } else { CampaignAct::Briefing });
            }
            _ => {}
        }
    }
    if keys.just_pressed(KeyCode::Escape) && *screen.get() == Screen::Campaign {
        match run.stage {
            Stage::Advance => {
                acts.write(CampaignAct::Briefing);
            }
            Stage::Party | Stage::Briefing => {
                leave(&run, *screen.get(), &mut commands);
                next.set(if run.stage == Stage::Party && run.is_delve() { Screen::Delve } else { Screen::Menu });
            }
            _ => {}
        }
    }
}

/// Leaving the campaign for the menu: its progress is saved (once it has begun), and the run
/// ends.
fn leave(run: &CampaignRun, screen: Screen, commands: &mut Commands) {
    if screen == Screen::Campaign && run.stage != Stage::Party {
        save_progress(run);
    }
    commands.remove_resource::<CampaignRun>();
}

/// A button that leads out to another screen (the campaign's Back, Save and leave, Main menu;
/// the match menu's Leave and Load; the menu's own) ends the campaign in play.
fn leave_campaign(mut go: MessageReader<Go>, screen: Res<State<Screen>>, run: Option<Res<CampaignRun>>, mut commands: Commands) {
    for Go(to) in go.read() {
        match (to, run.as_deref()) {
            (Screen::Menu, Some(r)) => leave(r, *screen.get(), &mut commands),
            _ => commands.remove_resource::<CampaignRun>(),
        }
    }
}

/// The menu's New campaign and Continue the campaign; to advancement, to the briefing.
fn answer_campaign(
    mut acts: MessageReader<CampaignAct>,
    mut run: Option<ResMut<CampaignRun>>,
    data: Res<GameData>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) {
    for act in acts.read() {
        match act {
            CampaignAct::NewCampaign => match campaign::load_campaign(std::path::Path::new(CAMPAIGN_FILE), &data.0) {
                Ok(c) => {
                    commands.insert_resource(CampaignRun::new(c, &data.0));
                    next.set(Screen::Campaign);
                }
                Err(e) => error!("{e}"),
            },
            CampaignAct::ContinueCampaign => commands.queue(|w: &mut World| {
                if let Err(e) = continue_campaign(w, crate::window::session::campaign_save_path()) {
                    error!("cannot continue the campaign: {e}");
                }
            }),
            CampaignAct::ContinueDelve => commands.queue(|w: &mut World| {
                if let Err(e) = continue_campaign(w, crate::window::session::delve_save_path()) {
                    error!("cannot continue the delve: {e}");
                }
            }),
            CampaignAct::Advance => {
                let Some(run) = run.as_deref_mut() else { continue };
                run.message = None;
                run.stage = if run.progress.level.is_some() || !run.progress.roster.is_empty() { Stage::Advance } else { Stage::Briefing };
                run.player = 0;
                run.shown = run.mine().first().copied().unwrap_or(0);
            }
            CampaignAct::Briefing => {
                let Some(run) = run.as_deref_mut() else { continue };
                run.message = None;
                run.stage = Stage::Briefing;
                save_progress(run);
            }
        }
    }
}

fn row(p: &mut ChildSpawnerCommands, f: impl FnOnce(&mut ChildSpawnerCommands)) {
    p.spawn(Node { flex_direction: FlexDirection::Row, align_items: AlignItems::Center, column_gap: Val::Px(4.0), flex_wrap: FlexWrap::Wrap, ..default() })
        .with_children(f);
}

/// A compact button (the pickers' < and >, + and -).
fn small<A: Component + Debug>(p: &mut ChildSpawnerCommands, label: impl Into<String>, act: A) {
    p.spawn(bar_button(label, act, true));
}

fn hero_line(h: &Hero, data: &doo_rules::data::RuleData) -> String {
    let (sheet, banked) = h.sheet(&data.heroes).unwrap_or_default();
    let max_hp = heroes::pools(&sheet.stats).0;
    let what = match &h.make {
        Make::Core { package, .. } => data.heroes.package(package).map_or(package.clone(), |p| p.name.clone()),
        Make::PointBuy { .. } => "point-buy".into(),
    };
    let s = sheet.stats;
    format!(
        "{} - {what}, B{} F{} S{} N{}, HP {}/{max_hp}, CP {} earned / {banked} banked, {}",
        h.name,
        s.brawn,
        s.finesse,
        s.savvy,
        s.nerve,
        h.hp.unwrap_or(max_hp),
        h.cp_earned,
        h.weapon.clone().unwrap_or_else(|| "unarmed".into()).replace('_', " ")
    )
}

fn draw_campaign(
    mut commands: Commands,
    run: Option<Res<CampaignRun>>,
    screen: Res<State<Screen>>,
    data: Res<GameData>,
    roots: Query<Entity, With<CampaignRoot>>,
) {
    let on = *screen.get() == Screen::Campaign;
    let Some(run) = run.filter(|_| on) else {
        for e in &roots {
            commands.entity(e).despawn();
        }
        return;
    };
    if !run.is_changed() && !screen.is_changed() && roots.iter().next().is_some() {
        return;
    }
    for e in &roots {
        commands.entity(e).despawn();
    }
    let data = data.0.clone();
    commands
        .spawn((
            Name::new("Campaign"),
            CampaignRoot,
            DespawnOnExit(Screen::Campaign),
            Node {
                width: Val::Percent(100.0),
                height: Val::Percent(100.0),
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                padding: UiRect::all(Val::Px(12.0)),
                row_gap: Val::Px(6.0),
                ..default()
            },
        ))
        .with_children(|p| {
            p.spawn(text(run.checked.campaign.name.clone(), 34.0, palette::GOLD));
            match run.stage {
                Stage::Party | Stage::Recruit => party::draw_party(p, &run, &data),
                Stage::Briefing => briefing::draw_briefing(p, &run, &data),
                Stage::Result => result::draw_result(p, &run, &data),
                Stage::Advance => advance::draw_advance(p, &run, &data),
            }
            if let Some((ok, m)) = &run.message {
                p.spawn(text(m.clone(), 16.0, if *ok { palette::GOOD } else { palette::BAD }));
            }
        });
}

fn roster_panel(p: &mut ChildSpawnerCommands, run: &CampaignRun, data: &doo_rules::data::RuleData) {
    p.spawn(panel(Node { flex_direction: FlexDirection::Column, padding: UiRect::all(Val::Px(10.0)), row_gap: Val::Px(2.0), ..default() })).with_children(
        |l| {
            l.spawn(text("The party", 18.0, palette::GOLD));
            for h in &run.progress.roster {
                let out = if run.progress.level.is_some() && run.progress.sitting_out.contains(&h.name) {
                    "  (sits this level out: still at 0 HP or less, R-CP-13)"
                } else {
                    ""
                };
                let players = &run.progress.players;
                let by = if players.len() > 1 { format!("  [{}]", owner(h, players)) } else { String::new() };
                l.spawn(text(format!("{}{by}{out}", hero_line(h, data)), 15.0, if out.is_empty() { palette::TEXT } else { palette::BAD }));
                if !h.items.is_empty() || h.purse > 0 {
                    l.spawn(text(
                        format!("    carries: {}; ${}", h.items.iter().map(|i| i.replace('_', " ")).collect::<Vec<_>>().join(", "), h.purse),
                        13.0,
                        palette::DIM,
                    ));
                }
            }
        },
    );
}
