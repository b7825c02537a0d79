//! Campaign screens (RULES.md §25, docs/campaigns.md): the party screen (ready-made and saved
//! heroes, a hero maker the Core way or by point-buy with gear from the allowance, hot-seat
//! owners), the briefing before each level, the result after it (CP hero by hero with the
//! reasons, the fallen, the rest), and the advancement screen that spends CP. Every choice is
//! decided by the rules (`rules::heroes`, `campaign`); refusals show their rule id. Progress is
//! written to the campaign save after every step, and a level's match autosaves into it.

use super::screens::{GameData, MatchSetup, Screen};
use super::ui::{Act, CampaignAct, Disabled, Selected, bar_button, button, colors, panel, text};
use crate::campaign::{self, CheckedCampaign, Hero, LevelReport, Progress};
use crate::rules::heroes::{self, Make, Purchase, STATS};
use crate::rules::profile::Rank;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;
use std::collections::BTreeMap;
use std::path::PathBuf;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (handle_campaign_acts, type_hero_name, draw_campaign).chain());
}

/// The shipped campaign the menu starts.
pub const CAMPAIGN_FILE: &str = "campaigns/drowned_crown.ron";

/// The campaign's save: a save file whose `campaign` field holds the progress (the level's
/// match, when one is being played, is its commands).
pub fn campaign_save_path() -> PathBuf {
    campaign_dir().join("campaign.ron")
}

/// Where a campaign's level files and save live.
pub fn campaign_dir() -> PathBuf {
    crate::saves::save_dir().join("campaign")
}

/// Heroes the players made and saved (one RON file each).
pub fn heroes_dir() -> PathBuf {
    crate::saves::save_dir().join("heroes")
}

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

/// A hero being made on the party screen.
#[derive(Clone, Debug)]
pub struct Draft {
    pub core: bool,
    pub name: String,
    pub array: usize,
    /// Core: the array's values, as assigned to Brawn, Finesse, Savvy, Nerve.
    pub order: [u32; 4],
    pub package: usize,
    pub choices: Vec<usize>,
    pub journeyman: usize,
    /// Point-buy: stats, skills, sets.
    pub stats: [u32; 4],
    pub skills: BTreeMap<String, Rank>,
    pub sets: Vec<String>,
    pub skill_pick: usize,
    pub set_pick: usize,
    pub weapon: usize,
    pub armor: usize,
    pub shield: usize,
    pub potions: u32,
    pub torches: u32,
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
}

/// Everything the shop sells: weapons, shields, armor, items with a price.
fn shop(data: &crate::data::RuleData) -> Vec<(String, String, u32)> {
    let eq = &data.equipment;
    let mut v: Vec<(String, String, u32)> = eq.melee.iter().map(|w| (w.id.clone(), w.name.clone(), w.cost)).collect();
    v.extend(eq.ranged.iter().map(|w| (w.id.clone(), w.name.clone(), w.cost)));
    v.extend(eq.shields.iter().map(|w| (w.id.clone(), w.name.clone(), w.cost)));
    v.extend(eq.armor.iter().map(|w| (w.id.clone(), w.name.clone(), w.cost)));
    v.extend(eq.items.iter().filter_map(|w| w.cost.map(|c| (w.id.clone(), w.name.clone(), c))));
    v
}

#[derive(Component)]
struct CampaignRoot;

fn weapons(data: &crate::data::RuleData) -> Vec<(String, u32)> {
    let mut v: Vec<(String, u32)> = data.equipment.melee.iter().map(|w| (w.id.clone(), w.cost)).collect();
    v.extend(data.equipment.ranged.iter().map(|w| (w.id.clone(), w.cost)));
    v
}

impl Draft {
    fn new(data: &crate::data::RuleData) -> Self {
        let book = &data.heroes;
        let a = book.stat_arrays.get(6).copied().unwrap_or([7, 7, 7, 6]);
        let weapon = weapons(data).iter().position(|(w, _)| w == "broadsword").map_or(0, |k| k + 1);
        let armor = data.equipment.armor.iter().position(|x| x.id == "leather").map_or(0, |k| k + 1);
        Self {
            core: true,
            name: "Hero".into(),
            array: 6,
            order: a,
            package: book.packages.iter().position(|p| p.id == "warrior").unwrap_or(0),
            choices: Vec::new(),
            journeyman: 0,
            stats: [book.point_buy_base; 4],
            skills: BTreeMap::new(),
            sets: Vec::new(),
            skill_pick: 0,
            set_pick: 0,
            weapon,
            armor,
            shield: 0,
            potions: 1,
            torches: 0,
        }
    }

    fn stats_of(v: [u32; 4]) -> crate::rules::fighter::Stats {
        crate::rules::fighter::Stats { brawn: v[0], finesse: v[1], savvy: v[2], nerve: v[3] }
    }

    /// The package's `one_of` parts.
    fn one_ofs(&self, data: &crate::data::RuleData) -> Vec<Vec<String>> {
        let Some(p) = data.heroes.packages.get(self.package) else { return Vec::new() };
        p.parts.iter().filter_map(|x| if let heroes::Part::OneOf(o) = x { Some(o.iter().map(|o| o.key().to_string()).collect()) } else { None }).collect()
    }

    /// The skills the package's Journeyman rank may go to (held at Apprentice), or none when
    /// the package as chosen gives no Journeyman rank.
    fn journeyman_options(&self, data: &crate::data::RuleData) -> Vec<String> {
        let book = &data.heroes;
        let Some(pkg) = book.packages.get(self.package) else { return Vec::new() };
        let choices = self.choice_keys(data);
        let try_make = |jm: Option<&str>| heroes::make_core(book, &Self::stats_of(self.order), &pkg.id, &choices, jm);
        match try_make(None) {
            Ok(_) => Vec::new(),
            Err(_) => match try_make(Some("alertness")) {
                Ok(sheet) => sheet.skills.iter().filter(|(_, r)| **r >= Rank::Apprentice).map(|(k, _)| k.clone()).collect(),
                Err(_) => Vec::new(),
            },
        }
    }

    fn choice_keys(&self, data: &crate::data::RuleData) -> Vec<String> {
        self.one_ofs(data).iter().enumerate().map(|(k, o)| o[self.choices.get(k).copied().unwrap_or(0) % o.len().max(1)].clone()).collect()
    }

    /// The hero this draft makes (not yet checked).
    fn hero(&self, data: &crate::data::RuleData, allowance: u32) -> Hero {
        let book = &data.heroes;
        let make = if self.core {
            let jm = self.journeyman_options(data);
            Make::Core {
                stats: Self::stats_of(self.order),
                package: book.packages.get(self.package).map(|p| p.id.clone()).unwrap_or_default(),
                choices: self.choice_keys(data),
                journeyman: (!jm.is_empty()).then(|| jm[self.journeyman % jm.len()].clone()),
            }
        } else {
            Make::PointBuy { stats: Self::stats_of(self.stats), skills: self.skills.clone(), sets: self.sets.clone(), budget: None }
        };
        let ws = weapons(data);
        let weapon = self.weapon.checked_sub(1).and_then(|k| ws.get(k)).map(|w| w.0.clone());
        let mut items = vec!["potion_of_healing".to_string(); self.potions as usize];
        items.extend(vec!["torch".to_string(); self.torches as usize]);
        let mut h = Hero {
            version: campaign::VERSION,
            name: self.name.trim().to_string(),
            size: Default::default(),
            make,
            bought: Vec::new(),
            cp_earned: 0,
            ammo: weapon.as_ref().and_then(|w| data.equipment.ranged(w)).map(|_| book.starting_ammo),
            weapon,
            weapon_skill: None,
            shield: self.shield.checked_sub(1).and_then(|k| data.equipment.shields.get(k)).map(|s| s.id.clone()),
            armor: self.armor.checked_sub(1).and_then(|k| data.equipment.armor.get(k)).map(|s| s.id.clone()),
            items,
            purse: 0,
            hp: None,
            conditions: Vec::new(),
            player: String::new(),
        };
        h.purse = allowance.saturating_sub(h.gear_cost(data).unwrap_or(u32::MAX));
        h
    }
}

/// Checks a hero as `doo validate` does (the same function), from his text.
fn check(h: &Hero, data: &crate::data::RuleData, allowance: u32) -> Result<(heroes::Sheet, u32), String> {
    campaign::check_hero("hero", &campaign::hero_text(h), data, Some(allowance)).map(|(_, s, b)| (s, b)).map_err(|e| e.message)
}

fn saved_heroes(data: &crate::data::RuleData, allowance: u32) -> Vec<Hero> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(heroes_dir())
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect())
        .unwrap_or_default();
    files.sort();
    files.truncate(64);
    files.iter().filter_map(|p| campaign::load_hero(p, data, allowance).ok().map(|x| x.0)).collect()
}

impl CampaignRun {
    pub fn new(checked: CheckedCampaign, data: &crate::data::RuleData) -> Self {
        let allowance = checked.campaign.allowance(&data.heroes);
        let mut offered = checked.heroes.clone();
        offered.extend(saved_heroes(data, allowance));
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
        }
    }

    fn party(&self) -> Vec<Hero> {
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
    let Some(last) = std::fs::read_dir(campaign_dir())
        .ok()
        .and_then(|d| d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("level-"))).max())
    else {
        return;
    };
    let text = crate::data::read_text(&last, crate::data::MAX_FILE_BYTES).unwrap_or_default();
    let save = crate::save::Save {
        version: crate::save::VERSION,
        label: "campaign".into(),
        level: last.canonicalize().unwrap_or(last.clone()).display().to_string(),
        level_name: run.checked.campaign.name.clone(),
        level_hash: doo_rules::data::level_hash(&text),
        profile: None,
        seed: run.progress.seed,
        forced_dice: Vec::new(),
        seats: vec![crate::save::Seat {
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
    };
    if let Err(e) = doo_rules::data::write_atomic(&campaign_save_path(), &save.to_text()) {
        warn!("campaign not saved: {e}");
    }
}

/// Prepares the level to play and enters the match.
fn play_level(world: &mut World) {
    let data = world.resource::<GameData>().0.clone();
    let Some(mut run) = world.get_resource::<CampaignRun>().cloned() else { return };
    let dir = campaign_dir();
    let _ = std::fs::create_dir_all(&dir);
    let (path, checked) = match doo_rules::campaign::prepare_level(&run.checked, &run.progress, &dir, &data) {
        Ok(x) => x,
        Err(e) => {
            run.message = Some((false, e));
            world.insert_resource(run);
            return;
        }
    };
    run.progress.begin_level();
    let players = run.progress.players.clone();
    let mut setup = MatchSetup::new(path, checked);
    for s in &mut setup.seats {
        if s.side == run.checked.campaign.party_side {
            s.ai = None;
            s.player = players.first().cloned().unwrap_or_else(|| "Player 1".into());
        } else {
            s.ai = Some(crate::ai::Difficulty::Normal);
        }
    }
    if players.len() > 1 {
        setup.owners = run.progress.roster.iter().map(|h| (h.id(), owner(h, &players))).collect();
    }
    setup.campaign = Some(Box::new(run.progress.clone()));
    world.insert_resource(setup);
    world.insert_resource(run);
    world.resource_mut::<NextState<Screen>>().set(Screen::Match);
}

/// The level's match is over: the rules' campaign step (CP, carry-over, rest), then the result.
fn level_done(world: &mut World) {
    let data = world.resource::<GameData>().0.clone();
    let Some(mut run) = world.get_resource::<CampaignRun>().cloned() else { return };
    let Some(state) = world.get_resource::<crate::game::components::MatchState>().map(|s| s.0.clone()) else { return };
    let Some(outcome) = world.resource::<crate::game::log::MatchOutcome>().0.clone() else { return };
    if !run.progress.playing {
        return;
    }
    let events: Vec<crate::rules::Event> = world
        .resource::<crate::game::log::MatchLog>()
        .entries()
        .iter()
        .filter_map(|e| if let crate::game::log::LogEntry::Event { event, .. } = e { Some(event.clone()) } else { None })
        .collect();
    let won = outcome.winner.as_deref() == Some(run.checked.campaign.party_side.as_str());
    let report = campaign::finish_level(&run.checked, &mut run.progress, &state, &events, won, &data);
    run.report = Some(report);
    run.stage = Stage::Result;
    run.player = 0;
    run.shown = 0;
    run.message = None;
    save_progress(&run);
    world.insert_resource(run);
    world.resource_mut::<NextState<Screen>>().set(Screen::Campaign);
}

/// Opens the campaign save: the match in progress, or the campaign screens between levels.
fn continue_campaign(world: &mut World) -> Result<(), String> {
    let data = world.resource::<GameData>().0.clone();
    let path = campaign_save_path();
    let save = crate::save::load(&path).map_err(|e| e.to_string())?;
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

#[allow(clippy::too_many_arguments)]
fn handle_campaign_acts(
    mut acts: MessageReader<Act>,
    keys: Res<ButtonInput<KeyCode>>,
    screen: Res<State<Screen>>,
    overlay: Option<Res<super::hud::Overlay>>,
    mut run: Option<ResMut<CampaignRun>>,
    data: Res<GameData>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    focus: Res<super::ui::KeyFocus>,
) {
    let mut list: Vec<Act> = acts.read().cloned().collect();
    if keys.just_pressed(KeyCode::Enter) && run.as_ref().is_some_and(|r| !r.editing_name) && focus.0.is_none() {
        match (screen.get(), run.as_ref().map(|r| r.stage.clone())) {
            (Screen::Match, Some(_)) if overlay.as_ref().is_some_and(|o| o.result.is_some()) => list.push(Act::Campaign(CampaignAct::LevelDone)),
            (Screen::Campaign, Some(Stage::Party)) => list.push(Act::Campaign(CampaignAct::Begin)),
            (Screen::Campaign, Some(Stage::Briefing)) => list.push(Act::Campaign(CampaignAct::Play)),
            (Screen::Campaign, Some(Stage::Result)) => {
                let spend = run.as_ref().is_some_and(|r| result_buttons(r, &data.0).0);
                list.push(Act::Campaign(if spend { CampaignAct::Advance } else { CampaignAct::Briefing }));
            }
            _ => {}
        }
    }
    if keys.just_pressed(KeyCode::Escape) && *screen.get() == Screen::Campaign && run.as_ref().is_some_and(|r| !r.editing_name) {
        match run.as_ref().map(|r| r.stage.clone()) {
            Some(Stage::Advance) => list.push(Act::Campaign(CampaignAct::Briefing)),
            Some(Stage::Party) | Some(Stage::Briefing) => {
                list.push(Act::ToMenu);
                next.set(Screen::Menu);
            }
            _ => {}
        }
    }
    let data = data.0.clone();
    for act in list {
        match act {
            Act::NewCampaign => match campaign::load_campaign(std::path::Path::new(CAMPAIGN_FILE), &data) {
                Ok(c) => {
                    commands.insert_resource(CampaignRun::new(c, &data));
                    next.set(Screen::Campaign);
                }
                Err(e) => error!("{e}"),
            },
            Act::ContinueCampaign => commands.queue(|w: &mut World| {
                if let Err(e) = continue_campaign(w) {
                    error!("cannot continue the campaign: {e}");
                }
            }),
            Act::ToMenu => {
                if let Some(r) = run.as_ref() {
                    if *screen.get() == Screen::Campaign && r.stage != Stage::Party {
                        save_progress(r);
                    }
                }
                commands.remove_resource::<CampaignRun>();
            }
            Act::ToLevels | Act::Play | Act::QuickStart | Act::ToLoad => commands.remove_resource::<CampaignRun>(),
            Act::Campaign(c) => {
                let Some(run) = run.as_mut() else { continue };
                campaign_act(run, c, &data, &mut commands);
            }
            _ => {}
        }
    }
}

fn campaign_act(run: &mut CampaignRun, c: CampaignAct, data: &crate::data::RuleData, commands: &mut Commands) {
    let book = &data.heroes;
    let allowance = run.checked.campaign.allowance(book);
    let d = &mut run.draft;
    run.message = None;
    match c {
        CampaignAct::ToggleHero(k) if run.stage == Stage::Recruit => {
            let Some(h) = run.offered.get(k).cloned() else { return };
            match campaign::recruit(&run.checked, &mut run.progress, h) {
                Ok(()) => run.message = Some((true, "Recruited.".into())),
                Err(v) => run.message = Some((false, format!("{} — {}", v.reason, v.rule))),
            }
            save_progress(run);
        }
        CampaignAct::ToggleHero(k) => {
            if let Some(x) = run.chosen.get_mut(k) {
                *x = !*x;
            }
        }
        CampaignAct::Recruit => run.stage = Stage::Recruit,
        CampaignAct::CycleOwner(k) => {
            let players = run.progress.players.clone();
            if let Some(h) = run.offered.get_mut(k) {
                let now = players.iter().position(|p| *p == owner(h, &players)).unwrap_or(0);
                h.player = players[(now + 1) % players.len()].clone();
            }
        }
        CampaignAct::Players(n) => {
            let p = &mut run.progress.players;
            if n > 0 && p.len() < 4 {
                p.push(format!("Player {}", p.len() + 1));
            } else if n < 0 && p.len() > 1 {
                p.pop();
            }
        }
        CampaignAct::Way(core) => d.core = core,
        CampaignAct::EditName => run.editing_name = !run.editing_name,
        CampaignAct::Array(n) => {
            d.array = step(d.array, n, book.stat_arrays.len());
            d.order = book.stat_arrays[d.array];
        }
        CampaignAct::Swap(k) => d.order.swap(k, (k + 1) % 4),
        CampaignAct::Package(n) => {
            d.package = step(d.package, n, book.packages.len());
            d.choices.clear();
            d.journeyman = 0;
        }
        CampaignAct::Choice(k) => {
            let n = d.one_ofs(data).get(k).map_or(1, Vec::len);
            if d.choices.len() <= k {
                d.choices.resize(k + 1, 0);
            }
            d.choices[k] = (d.choices[k] + 1) % n.max(1);
            d.journeyman = 0;
        }
        CampaignAct::Journeyman(n) => {
            let len = d.journeyman_options(data).len();
            d.journeyman = step(d.journeyman, n, len);
        }
        CampaignAct::StatStep(k, n) => {
            let v = (d.stats[k] as i32 + n).clamp(book.stat_range.0 as i32, book.stat_range.1 as i32);
            d.stats[k] = v as u32;
        }
        CampaignAct::PickSkill(n) => d.skill_pick = step(d.skill_pick, n, book.skills.len()),
        CampaignAct::SkillRank(n) => {
            let Some(k) = book.skills.keys().nth(d.skill_pick).cloned() else { return };
            let now = d.skills.get(&k).copied().unwrap_or(Rank::Untrained);
            let next = if n > 0 {
                book.next_rank(now)
            } else {
                book.ranks.iter().position(|r| r.rank == now).and_then(|i| i.checked_sub(1)).map(|i| book.ranks[i].rank).or(Some(Rank::Untrained))
            };
            match next {
                Some(Rank::Untrained) | None if n < 0 => {
                    d.skills.remove(&k);
                }
                Some(r) => {
                    d.skills.insert(k, r);
                }
                None => {}
            }
        }
        CampaignAct::PickSet(n) => d.set_pick = step(d.set_pick, n, book.sets.len()),
        CampaignAct::ToggleSet => {
            if let Some(s) = book.sets.get(d.set_pick) {
                if let Some(i) = d.sets.iter().position(|x| *x == s.id) {
                    d.sets.remove(i);
                } else {
                    d.sets.push(s.id.clone());
                }
            }
        }
        CampaignAct::Weapon(n) => d.weapon = step(d.weapon, n, weapons(data).len() + 1),
        CampaignAct::Armor(n) => d.armor = step(d.armor, n, data.equipment.armor.len() + 1),
        CampaignAct::Shield(n) => d.shield = step(d.shield, n, data.equipment.shields.len() + 1),
        CampaignAct::Potions(n) => d.potions = (d.potions as i32 + n).clamp(0, 6) as u32,
        CampaignAct::Torches(n) => d.torches = (d.torches as i32 + n).clamp(0, 6) as u32,
        CampaignAct::AddHero | CampaignAct::SaveHero => {
            let h = d.hero(data, allowance);
            match check(&h, data, allowance) {
                Err(e) => run.message = Some((false, e)),
                Ok(_) if run.offered.iter().any(|o| o.id() == h.id()) => {
                    run.message = Some((false, format!("A hero called {} is already on offer: choose another name.", h.name)))
                }
                Ok(_) => {
                    if c == CampaignAct::SaveHero {
                        let dir = heroes_dir();
                        let file = dir.join(format!("{}.ron", h.id().trim_start_matches("hero_")));
                        match doo_rules::data::write_atomic(&file, &campaign::hero_text(&h)) {
                            Ok(()) => run.message = Some((true, format!("Saved as {}", file.display()))),
                            Err(e) => run.message = Some((false, format!("{}: {e}", file.display()))),
                        }
                    }
                    run.offered.push(h.clone());
                    if run.stage == Stage::Recruit {
                        run.chosen.push(false);
                        match campaign::recruit(&run.checked, &mut run.progress, h) {
                            Ok(()) => run.message = Some((true, "Recruited.".into())),
                            Err(v) => run.message = Some((false, format!("{} — {}", v.reason, v.rule))),
                        }
                        save_progress(run);
                    } else {
                        let room = run.chosen.iter().filter(|c| **c).count() < run.checked.campaign.party_max;
                        run.chosen.push(room);
                    }
                }
            }
        }
        CampaignAct::Begin => {
            let party = run.party();
            if let Err(e) = Progress::check_party(&run.checked, &party) {
                run.message = Some((false, e));
            } else {
                let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(1);
                let players = run.progress.players.clone();
                run.progress = Progress::start(&run.checked, party, players, seed);
                run.stage = Stage::Briefing;
                let _ = std::fs::remove_dir_all(campaign_dir());
                let _ = std::fs::create_dir_all(campaign_dir());
                // the save needs a level file: the first level as it will be played
                if let Err(e) = doo_rules::campaign::prepare_level(&run.checked, &run.progress, &campaign_dir(), data) {
                    run.message = Some((false, e));
                }
                save_progress(run);
            }
        }
        CampaignAct::Play => commands.queue(play_level),
        CampaignAct::LevelDone => commands.queue(level_done),
        CampaignAct::Advance => {
            run.stage = if run.progress.level.is_some() || !run.progress.roster.is_empty() { Stage::Advance } else { Stage::Briefing };
            run.player = 0;
            run.shown = run.mine().first().copied().unwrap_or(0);
        }
        CampaignAct::Briefing => {
            run.stage = Stage::Briefing;
            save_progress(run);
        }
        CampaignAct::ShowHero(k) => run.shown = k,
        CampaignAct::Buy(p) => {
            let k = run.shown;
            if !run.mine().contains(&k) {
                return;
            }
            if let Some(h) = run.progress.roster.get_mut(k) {
                match campaign::spend(h, p.clone(), book) {
                    Ok(cost) => run.message = Some((true, format!("{}: {} for {cost} CP.", h.name, p.describe(book)))),
                    Err(v) => run.message = Some((false, format!("{} — {}", v.reason, v.rule))),
                }
            }
            save_progress(run);
        }
        CampaignAct::PickNewSkill(n) => run.new_skill = step(run.new_skill, n, book.skills.len()),
        CampaignAct::PickNewSet(n) => run.new_set = step(run.new_set, n, book.sets.len()),
        CampaignAct::SpendForMe => {
            let k = run.shown;
            if let Some(h) = run.progress.roster.get_mut(k) {
                let b = campaign::auto_spend(h, data);
                run.message = Some((
                    true,
                    if b.is_empty() {
                        "Nothing more is affordable.".into()
                    } else {
                        b.iter().map(|(p, c)| format!("{} ({c} CP)", p.describe(book))).collect::<Vec<_>>().join(", ")
                    },
                ));
            }
            save_progress(run);
        }
        CampaignAct::PickGear(n) => run.gear_pick = step(run.gear_pick, n, shop(data).len()),
        CampaignAct::BuyGear => {
            let k = run.shown;
            let Some((id, _, _)) = shop(data).get(run.gear_pick).cloned() else { return };
            if !run.mine().contains(&k) {
                return;
            }
            if let Some(h) = run.progress.roster.get_mut(k) {
                match campaign::buy_gear(h, &id, data) {
                    Ok(c) => run.message = Some((true, format!("{} buys a {} for ${c}.", h.name, id.replace('_', " ")))),
                    Err(e) => run.message = Some((false, e)),
                }
            }
            save_progress(run);
        }
        CampaignAct::NextPlayer => {
            run.player = (run.player + 1) % run.progress.players.len().max(1);
            run.shown = run.mine().first().copied().unwrap_or(0);
        }
    }
}

fn type_hero_name(mut keys: MessageReader<KeyboardInput>, run: Option<ResMut<CampaignRun>>, mut was_editing: Local<bool>) {
    let Some(mut run) = run else {
        keys.clear();
        return;
    };
    if !run.editing_name {
        *was_editing = false;
        keys.clear();
        return;
    }
    // The key that started the editing (Enter or Space on the focused button) is not typed.
    if !*was_editing {
        *was_editing = true;
        keys.clear();
        return;
    }
    for e in keys.read() {
        if !e.state.is_pressed() {
            continue;
        }
        match &e.logical_key {
            Key::Enter | Key::Escape => run.editing_name = false,
            Key::Backspace => {
                run.draft.name.pop();
            }
            Key::Character(c) if run.draft.name.chars().count() < 24 => run.draft.name.push_str(c),
            Key::Space => run.draft.name.push(' '),
            _ => {}
        }
    }
}

fn row(p: &mut ChildSpawnerCommands, f: impl FnOnce(&mut ChildSpawnerCommands)) {
    p.spawn(Node { flex_direction: FlexDirection::Row, align_items: AlignItems::Center, column_gap: Val::Px(4.0), flex_wrap: FlexWrap::Wrap, ..default() })
        .with_children(f);
}

fn small(p: &mut ChildSpawnerCommands, label: impl Into<String>, act: CampaignAct) {
    p.spawn(bar_button(label, Act::Campaign(act), true));
}

fn hero_line(h: &Hero, data: &crate::data::RuleData) -> String {
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
            p.spawn(text(run.checked.campaign.name.clone(), 34.0, colors::GOLD));
            match run.stage {
                Stage::Party | Stage::Recruit => draw_party(p, &run, &data),
                Stage::Briefing => draw_briefing(p, &run, &data),
                Stage::Result => draw_result(p, &run, &data),
                Stage::Advance => draw_advance(p, &run, &data),
            }
            if let Some((ok, m)) = &run.message {
                p.spawn(text(m.clone(), 16.0, if *ok { colors::GOOD } else { colors::BAD }));
            }
        });
}

fn draw_party(p: &mut ChildSpawnerCommands, run: &CampaignRun, data: &crate::data::RuleData) {
    let book = &data.heroes;
    let c = &run.checked.campaign;
    let allowance = c.allowance(book);
    p.spawn((text(c.story.clone(), 15.0, colors::TEXT), Node { max_width: Val::Px(1100.0), ..default() }));
    p.spawn(Node { flex_direction: FlexDirection::Row, column_gap: Val::Px(12.0), ..default() }).with_children(|cols| {
        cols.spawn(panel(Node {
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(Val::Px(10.0)),
            width: Val::Px(520.0),
            row_gap: Val::Px(2.0),
            ..default()
        }))
        .with_children(|l| {
            let recruiting = run.stage == Stage::Recruit;
            if recruiting {
                l.spawn(text(
                    format!(
                        "Recruit (R-CP-14): {} of {} places taken; a recruit starts with the lowest CP earned in the party",
                        run.progress.roster.len(),
                        c.party_max
                    ),
                    18.0,
                    colors::GOLD,
                ));
            } else {
                l.spawn(text(format!("The party ({} to {} heroes) - click to take or leave", c.party_min, c.party_max), 18.0, colors::GOLD));
            }
            let players = &run.progress.players;
            for (k, h) in run.offered.iter().enumerate() {
                if recruiting && (run.progress.roster.iter().any(|r| r.id() == h.id()) || run.progress.history.iter().any(|r| r.fallen.contains(&h.name))) {
                    continue;
                }
                row(l, |r| {
                    let mut b = r.spawn(bar_button(hero_line(h, data), Act::Campaign(CampaignAct::ToggleHero(k)), true));
                    if run.chosen[k] {
                        b.insert(Selected);
                    }
                    if players.len() > 1 && run.chosen[k] {
                        small(r, format!("played by {}", owner(h, players)), CampaignAct::CycleOwner(k));
                    }
                });
            }
            row(l, |r| {
                r.spawn(text(format!("Players: {} (hot-seat: each owns his heroes)", players.len()), 14.0, colors::DIM));
                small(r, "+", CampaignAct::Players(1));
                small(r, "-", CampaignAct::Players(-1));
            });
        });
        cols.spawn(panel(Node {
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(Val::Px(10.0)),
            width: Val::Px(600.0),
            row_gap: Val::Px(3.0),
            ..default()
        }))
        .with_children(|m| draw_maker(m, run, data, allowance));
    });
    row(p, |r| {
        if run.stage == Stage::Recruit {
            r.spawn(button("Done", Act::Campaign(CampaignAct::Briefing)));
        } else {
            r.spawn(button("Back", Act::ToMenu));
            r.spawn(button("Begin the campaign  [Enter]", Act::Campaign(CampaignAct::Begin)));
        }
    });
}

fn draw_maker(m: &mut ChildSpawnerCommands, run: &CampaignRun, data: &crate::data::RuleData, allowance: u32) {
    let book = &data.heroes;
    let d = &run.draft;
    m.spawn(text("Make a hero (R-CP-2 Core, R-CP-4 point-buy)", 18.0, colors::GOLD));
    row(m, |r| {
        let mut a = r.spawn(bar_button("Core: array + package", Act::Campaign(CampaignAct::Way(true)), true));
        if d.core {
            a.insert(Selected);
        }
        let mut b = r.spawn(bar_button(format!("Point-buy: {} CP", book.point_buy_budget), Act::Campaign(CampaignAct::Way(false)), true));
        if !d.core {
            b.insert(Selected);
        }
        let mut n = r.spawn(bar_button(format!("Name: {}{}", d.name, if run.editing_name { "_" } else { "" }), Act::Campaign(CampaignAct::EditName), true));
        if run.editing_name {
            n.insert(Selected);
        }
    });
    if d.core {
        row(m, |r| {
            let a = book.stat_arrays[d.array];
            r.spawn(text(format!("Array {}-{}-{}-{}", a[0], a[1], a[2], a[3]), 14.0, colors::TEXT));
            small(r, "<", CampaignAct::Array(-1));
            small(r, ">", CampaignAct::Array(1));
            for (k, s) in STATS.iter().enumerate() {
                small(r, format!("{} {} <>", &heroes::stat_name(*s)[..1], d.order[k]), CampaignAct::Swap(k));
            }
        });
        row(m, |r| {
            let pkg = &book.packages[d.package];
            r.spawn(text(format!("Package: {}", pkg.name), 14.0, colors::TEXT));
            small(r, "<", CampaignAct::Package(-1));
            small(r, ">", CampaignAct::Package(1));
            for (k, o) in d.one_ofs(data).iter().enumerate() {
                let pick = &o[d.choices.get(k).copied().unwrap_or(0) % o.len()];
                small(r, format!("choice: {}", heroes::skill_name(pick)), CampaignAct::Choice(k));
            }
            let jm = d.journeyman_options(data);
            if !jm.is_empty() {
                small(r, format!("Journeyman: {}", heroes::skill_name(&jm[d.journeyman % jm.len()])), CampaignAct::Journeyman(1));
            }
        });
    } else {
        row(m, |r| {
            for (k, s) in STATS.iter().enumerate() {
                r.spawn(text(format!("{} {}", heroes::stat_name(*s), d.stats[k]), 14.0, colors::TEXT));
                small(r, "-", CampaignAct::StatStep(k, -1));
                small(r, "+", CampaignAct::StatStep(k, 1));
            }
        });
        row(m, |r| {
            let k = book.skills.keys().nth(d.skill_pick).cloned().unwrap_or_default();
            let rank = d.skills.get(&k).copied().unwrap_or(Rank::Untrained);
            small(r, "<", CampaignAct::PickSkill(-1));
            r.spawn(text(format!("{}: {rank:?}", heroes::skill_name(&k)), 14.0, colors::TEXT));
            small(r, ">", CampaignAct::PickSkill(1));
            small(r, "rank -", CampaignAct::SkillRank(-1));
            small(r, "rank +", CampaignAct::SkillRank(1));
            let set = &book.sets[d.set_pick];
            small(r, "<", CampaignAct::PickSet(-1));
            let have = d.sets.contains(&set.id);
            r.spawn(text(format!("{} set ({} CP){}", set.name, set.cost, if have { ": bought" } else { "" }), 14.0, colors::TEXT));
            small(r, ">", CampaignAct::PickSet(1));
            small(r, if have { "drop set" } else { "buy set" }, CampaignAct::ToggleSet);
        });
        if !d.skills.is_empty() || !d.sets.is_empty() {
            let list: Vec<String> =
                d.skills.iter().map(|(k, r)| format!("{} {r:?}", heroes::skill_name(k))).chain(d.sets.iter().map(|s| format!("{s} set"))).collect();
            m.spawn(text(list.join(", "), 13.0, colors::DIM));
        }
    }
    let h = d.hero(data, allowance);
    row(m, |r| {
        let ws = weapons(data);
        let w = d.weapon.checked_sub(1).and_then(|k| ws.get(k)).map_or("no weapon".to_string(), |(w, c)| format!("{} ${c}", w.replace('_', " ")));
        small(r, "<", CampaignAct::Weapon(-1));
        r.spawn(text(w, 14.0, colors::TEXT));
        small(r, ">", CampaignAct::Weapon(1));
        let a = d.armor.checked_sub(1).and_then(|k| data.equipment.armor.get(k)).map_or("no armor".to_string(), |a| format!("{} ${}", a.name, a.cost));
        small(r, "<", CampaignAct::Armor(-1));
        r.spawn(text(a, 14.0, colors::TEXT));
        small(r, ">", CampaignAct::Armor(1));
        let s = d.shield.checked_sub(1).and_then(|k| data.equipment.shields.get(k)).map_or("no shield".to_string(), |a| format!("{} ${}", a.name, a.cost));
        small(r, "<", CampaignAct::Shield(-1));
        r.spawn(text(s, 14.0, colors::TEXT));
        small(r, ">", CampaignAct::Shield(1));
    });
    row(m, |r| {
        r.spawn(text(format!("Potions {} ($25)", d.potions), 14.0, colors::TEXT));
        small(r, "-", CampaignAct::Potions(-1));
        small(r, "+", CampaignAct::Potions(1));
        r.spawn(text(format!("Torches {} ($1)", d.torches), 14.0, colors::TEXT));
        small(r, "-", CampaignAct::Torches(-1));
        small(r, "+", CampaignAct::Torches(1));
        let cost = h.gear_cost(data).unwrap_or(0);
        r.spawn(text(format!("Gear ${cost} of ${allowance}"), 14.0, if cost > allowance { colors::BAD } else { colors::DIM }));
    });
    let verdict = check(&h, data, allowance);
    match &verdict {
        Ok((sheet, banked)) => {
            let (hp, mp, fp) = heroes::pools(&sheet.stats);
            let skills: Vec<String> = sheet
                .skills
                .iter()
                .filter(|(k, r)| **r > Rank::Apprentice || !book.common.contains(k))
                .map(|(k, r)| format!("{} {r:?}", heroes::skill_name(k)))
                .collect();
            m.spawn(text(format!("Legal: HP {hp}, MP {mp}, FP {fp}, {banked} CP banked, ${} in the purse.", h.purse), 15.0, colors::GOOD));
            m.spawn((text(format!("Skills: {}", skills.join(", ")), 13.0, colors::DIM), Node { max_width: Val::Px(580.0), ..default() }));
        }
        Err(e) => {
            m.spawn((text(e.clone(), 15.0, colors::BAD), Node { max_width: Val::Px(580.0), ..default() }));
        }
    }
    row(m, |r| {
        let mut a = r.spawn(button("Add to the party", Act::Campaign(CampaignAct::AddHero)));
        if verdict.is_err() {
            a.insert(Disabled);
        }
        let mut s = r.spawn(button("Save the hero file", Act::Campaign(CampaignAct::SaveHero)));
        if verdict.is_err() {
            s.insert(Disabled);
        }
    });
}

fn roster_panel(p: &mut ChildSpawnerCommands, run: &CampaignRun, data: &crate::data::RuleData) {
    p.spawn(panel(Node { flex_direction: FlexDirection::Column, padding: UiRect::all(Val::Px(10.0)), row_gap: Val::Px(2.0), ..default() })).with_children(
        |l| {
            l.spawn(text("The party", 18.0, colors::GOLD));
            for h in &run.progress.roster {
                let out = if run.progress.level.is_some() && run.progress.sitting_out.contains(&h.name) {
                    "  (sits this level out: still at 0 HP or less, R-CP-13)"
                } else {
                    ""
                };
                let players = &run.progress.players;
                let by = if players.len() > 1 { format!("  [{}]", owner(h, players)) } else { String::new() };
                l.spawn(text(format!("{}{by}{out}", hero_line(h, data)), 15.0, if out.is_empty() { colors::TEXT } else { colors::BAD }));
                if !h.items.is_empty() || h.purse > 0 {
                    l.spawn(text(
                        format!("    carries: {}; ${}", h.items.iter().map(|i| i.replace('_', " ")).collect::<Vec<_>>().join(", "), h.purse),
                        13.0,
                        colors::DIM,
                    ));
                }
            }
        },
    );
}

fn draw_briefing(p: &mut ChildSpawnerCommands, run: &CampaignRun, data: &crate::data::RuleData) {
    let Some(id) = &run.progress.level else { return };
    let lvl = run.checked.campaign.level(id);
    let name = run.checked.load_level(id, data).map(|l| l.level.name.clone()).unwrap_or_else(|_| id.clone());
    let n = run.checked.campaign.levels.iter().position(|l| &l.id == id).map_or(0, |k| k + 1);
    p.spawn(text(format!("Level {n} of {}: {name}", run.checked.campaign.levels.len()), 24.0, colors::TEXT));
    if let Some(l) = lvl {
        p.spawn((text(l.briefing.clone(), 16.0, colors::TEXT), Node { max_width: Val::Px(1000.0), ..default() }));
        let objectives: Vec<String> = l
            .objectives
            .iter()
            .map(|o| format!("{} (+{} CP)", o.name, o.cp.unwrap_or(data.heroes.objective_cp)))
            .chain(l.major.then(|| format!("a major level: +{} CP each", data.heroes.major_cp)))
            .collect();
        if !objectives.is_empty() {
            p.spawn(text(format!("Optional: {}", objectives.join("; ")), 15.0, colors::GOLD));
        }
    }
    roster_panel(p, run, data);
    row(p, |r| {
        r.spawn(button("Play the level  [Enter]", Act::Campaign(CampaignAct::Play)));
        r.spawn(button("Spend CP", Act::Campaign(CampaignAct::Advance)));
        if run.progress.roster.len() < run.checked.campaign.party_max {
            r.spawn(button("Recruit a hero", Act::Campaign(CampaignAct::Recruit)));
        }
        r.spawn(button("Save and leave", Act::ToMenu));
    });
}

fn draw_result(p: &mut ChildSpawnerCommands, run: &CampaignRun, data: &crate::data::RuleData) {
    if let Some(rep) = &run.report {
        let r = &rep.record;
        let name = run.checked.load_level(&r.level, data).map(|l| l.level.name.clone()).unwrap_or_else(|_| r.level.clone());
        p.spawn(text(if r.won { format!("{name}: won") } else { format!("{name}: lost") }, 26.0, if r.won { colors::GOOD } else { colors::BAD }));
        let mut by: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for l in &r.cp {
            by.entry(l.hero.as_str()).or_default().push(format!("+{} {} ({})", l.cp, l.why, l.rule));
        }
        p.spawn(panel(Node { flex_direction: FlexDirection::Column, padding: UiRect::all(Val::Px(10.0)), max_width: Val::Px(1100.0), ..default() }))
            .with_children(|l| {
                l.spawn(text("Character points earned", 18.0, colors::GOLD));
                for h in &rep.after_level {
                    let lines = by.get(h.id().as_str()).cloned().unwrap_or_default();
                    let total: u32 = r.cp.iter().filter(|x| x.hero == h.id()).map(|x| x.cp).sum();
                    l.spawn(text(format!("{}: {total} CP", h.name), 16.0, colors::TEXT));
                    if !lines.is_empty() {
                        l.spawn(text(format!("    {}", lines.join("; ")), 13.0, colors::DIM));
                    }
                }
                for f in &r.fallen {
                    l.spawn(text(format!("{f} has fallen (R-CP-12): he leaves the roster."), 15.0, colors::BAD));
                }
                for line in &r.rest {
                    l.spawn(text(line.clone(), 13.0, colors::DIM));
                }
            });
    }
    if run.progress.level.is_none() {
        p.spawn(text(if run.progress.won { "The campaign is won!" } else { "The campaign is over." }, 28.0, colors::GOLD));
        roster_panel(p, run, data);
        p.spawn(button("Main menu", Act::ToMenu));
        return;
    }
    let (spend, next) = result_buttons(run, data);
    if !spend {
        p.spawn(text("No CP banked to spend (R-CP-11): go on to the briefing.", 15.0, colors::DIM));
    }
    row(p, |r| {
        if spend {
            r.spawn(button("Spend CP  [Enter]", Act::Campaign(CampaignAct::Advance)));
            r.spawn(button(next, Act::Campaign(CampaignAct::Briefing)));
        } else {
            r.spawn(button(format!("{next}  [Enter]"), Act::Campaign(CampaignAct::Briefing)));
        }
    });
}

/// The result screen's choices, as the rules see the campaign: whether any hero has banked CP
/// to spend (R-CP-11; hot-seat players then take turns), and what going on means: the same level again after a
/// loss (R-CP-13), else the next one.
fn result_buttons(run: &CampaignRun, data: &crate::data::RuleData) -> (bool, String) {
    let all: Vec<usize> = (0..run.progress.roster.len()).collect();
    let spend = run.progress.banked_cp(&data.heroes, &all) > 0;
    let again = run.report.as_ref().is_some_and(|rep| run.progress.plays_again(&rep.record));
    let next = match (&run.report, &run.progress.level) {
        _ if again => "Play the level again".to_string(),
        (Some(rep), Some(id)) if !rep.record.won => {
            format!("On to {}", run.checked.load_level(id, data).map(|l| l.level.name.clone()).unwrap_or_else(|_| id.clone()))
        }
        _ => "Next level".to_string(),
    };
    (spend, next)
}

fn draw_advance(p: &mut ChildSpawnerCommands, run: &CampaignRun, data: &crate::data::RuleData) {
    let book = &data.heroes;
    let players = &run.progress.players;
    let mine = run.mine();
    if players.len() > 1 {
        p.spawn(text(format!("{} spends CP for his heroes (the others look away)", players.get(run.player).cloned().unwrap_or_default()), 18.0, colors::GOLD));
    }
    row(p, |r| {
        for &k in &mine {
            let h = &run.progress.roster[k];
            let mut b = r.spawn(button(h.name.clone(), Act::Campaign(CampaignAct::ShowHero(k))));
            if k == run.shown {
                b.insert(Selected);
            }
        }
    });
    let Some(h) = run.progress.roster.get(run.shown).filter(|_| mine.contains(&run.shown)) else {
        row(p, |r| {
            r.spawn(button("Done", Act::Campaign(CampaignAct::Briefing)));
        });
        return;
    };
    let Ok((sheet, banked)) = h.sheet(book) else { return };
    let (hp, mp, fp) = heroes::pools(&sheet.stats);
    p.spawn(text(
        format!("{}: {banked} CP banked, {} earned.  HP {hp}, MP {mp}, FP {fp}. CP are spent for good (R-CP-11).", h.name, h.cp_earned),
        18.0,
        colors::TEXT,
    ));
    let buy = |r: &mut ChildSpawnerCommands, label: String, pch: Purchase| {
        let price = book.price(&sheet, &pch);
        let (l, ok) = match &price {
            Ok(c) if *c <= banked => (format!("{label} ({c} CP)"), true),
            Ok(c) => (format!("{label} ({c} CP, R-CP-11)"), false),
            Err(v) => (format!("{label} ({})", v.rule), false),
        };
        let mut b = r.spawn(bar_button(l, Act::Campaign(CampaignAct::Buy(pch)), ok));
        if !ok {
            b.insert(Disabled);
        }
    };
    p.spawn(panel(Node {
        flex_direction: FlexDirection::Column,
        padding: UiRect::all(Val::Px(10.0)),
        row_gap: Val::Px(3.0),
        max_width: Val::Px(1150.0),
        ..default()
    }))
    .with_children(|l| {
        l.spawn(text("Stats (R-CP-4 upgrade costs)", 16.0, colors::GOLD));
        row(l, |r| {
            for s in STATS {
                buy(r, format!("{} {} -> {}", heroes::stat_name(s), heroes::stat_of(&sheet.stats, s), heroes::stat_of(&sheet.stats, s) + 1), Purchase::Stat(s));
            }
        });
        l.spawn(text("Skills: next rank (R-CP-5); owned sets rank up together (R-CP-8)", 16.0, colors::GOLD));
        row(l, |r| {
            for (k, rank) in sheet.skills.iter().filter(|(_, r)| **r >= Rank::Apprentice) {
                buy(r, format!("{} {rank:?}", heroes::skill_name(k)), Purchase::Skill(k.clone()));
            }
        });
        row(l, |r| {
            let k = book.skills.keys().nth(run.new_skill).cloned().unwrap_or_default();
            small(r, "<", CampaignAct::PickNewSkill(-1));
            buy(r, format!("new or next: {}", heroes::skill_name(&k)), Purchase::Skill(k));
            small(r, ">", CampaignAct::PickNewSkill(1));
            let set = &book.sets[run.new_set];
            small(r, "<", CampaignAct::PickNewSet(-1));
            buy(r, format!("{} set", set.name), Purchase::Set(set.id.clone()));
            small(r, ">", CampaignAct::PickNewSet(1));
        });
        l.spawn(text(format!("Gear from the purse (${}): a weapon, shield or armor replaces the one carried", h.purse), 16.0, colors::GOLD));
        row(l, |r| {
            let items = shop(data);
            if let Some((_, name, cost)) = items.get(run.gear_pick) {
                small(r, "<", CampaignAct::PickGear(-1));
                let ok = *cost <= h.purse;
                let mut b = r.spawn(bar_button(format!("buy {name} (${cost})"), Act::Campaign(CampaignAct::BuyGear), ok));
                if !ok {
                    b.insert(Disabled);
                }
                small(r, ">", CampaignAct::PickGear(1));
            }
            let gear = [h.weapon.clone(), h.shield.clone(), h.armor.clone()].into_iter().flatten().map(|g| g.replace('_', " ")).collect::<Vec<_>>();
            r.spawn(text(format!("  carries: {}", if gear.is_empty() { "no weapon".into() } else { gear.join(", ") }), 13.0, colors::DIM));
        });
        let owned: Vec<String> = sheet.sets.iter().map(|s| book.set(s).map_or(s.clone(), |x| x.name.clone())).collect();
        l.spawn(text(format!("Sets owned: {}", if owned.is_empty() { "none".into() } else { owned.join(", ") }), 13.0, colors::DIM));
        if !h.bought.is_empty() {
            l.spawn(text(format!("Bought so far: {}", h.bought.iter().map(|b| b.describe(book)).collect::<Vec<_>>().join(", ")), 13.0, colors::DIM));
        }
    });
    row(p, |r| {
        r.spawn(button("Spend for me", Act::Campaign(CampaignAct::SpendForMe)));
        if players.len() > 1 {
            r.spawn(button("Next player", Act::Campaign(CampaignAct::NextPlayer)));
        }
        r.spawn(button("Done", Act::Campaign(CampaignAct::Briefing)));
    });
}
