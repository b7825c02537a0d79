//! The hero maker on the party screen: a hero made the Core way (a stat array assigned to the
//! stats, a package and its choices, R-CP-2) or by point-buy (R-CP-4), with gear from the
//! allowance; checked by the rules as `doo validate` checks a hero file (the refusal says why),
//! then added to the party or saved as a hero file.

use super::{CampaignRun, CampaignSystems, Stage, row, save_progress, small, step};
use crate::window::GameData;
use crate::window::theme::prelude::*;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;
use doo_rules::campaign::{self, Hero};
use doo_rules::rules::heroes::{self, Make, STATS};
use doo_rules::rules::profile::Rank;
use std::collections::BTreeMap;
use std::path::PathBuf;

pub(super) fn plugin(app: &mut App) {
    app.add_button_action::<MakerAct>()
        .add_systems(Update, answer_maker.in_set(CampaignSystems::Answer))
        .add_systems(Update, type_hero_name.in_set(CampaignSystems::Type));
}

/// What a hero maker button does.
#[derive(Component, Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MakerAct {
    /// Core (true) or point-buy.
    Way(bool),
    EditName,
    Array(i32),
    Swap(usize),
    Package(i32),
    Choice(usize),
    Journeyman(i32),
    /// Point-buy: a stat up or down.
    StatStep(usize, i32),
    /// Point-buy: the skill picker, and the picked skill's rank up or down.
    PickSkill(i32),
    SkillRank(i32),
    PickSet(i32),
    ToggleSet,
    /// Gear: weapon, armor, shield pickers; potions and torches.
    Weapon(i32),
    Armor(i32),
    Shield(i32),
    Potions(i32),
    Torches(i32),
    AddHero,
    SaveHero,
}

/// Heroes the players made and saved (one RON file each).
pub fn heroes_dir() -> PathBuf {
    crate::saves::save_dir().join("heroes")
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

fn weapons(data: &doo_rules::data::RuleData) -> Vec<(String, u32)> {
    let mut v: Vec<(String, u32)> = data.equipment.melee.iter().map(|w| (w.id.clone(), w.cost)).collect();
    v.extend(data.equipment.ranged.iter().map(|w| (w.id.clone(), w.cost)));
    v
}

impl Draft {
    pub(super) fn new(data: &doo_rules::data::RuleData) -> Self {
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

    fn stats_of(v: [u32; 4]) -> doo_rules::rules::fighter::Stats {
        doo_rules::rules::fighter::Stats { brawn: v[0], finesse: v[1], savvy: v[2], nerve: v[3] }
    }

    /// The package's `one_of` parts.
    fn one_ofs(&self, data: &doo_rules::data::RuleData) -> Vec<Vec<String>> {
        let Some(p) = data.heroes.packages.get(self.package) else { return Vec::new() };
        p.parts.iter().filter_map(|x| if let heroes::Part::OneOf(o) = x { Some(o.iter().map(|o| o.key().to_string()).collect()) } else { None }).collect()
    }

    /// The skills the package's Journeyman rank may go to (held at Apprentice), or none when
    /// the package as chosen gives no Journeyman rank.
    fn journeyman_options(&self, data: &doo_rules::data::RuleData) -> Vec<String> {
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

    fn choice_keys(&self, data: &doo_rules::data::RuleData) -> Vec<String> {
        self.one_ofs(data).iter().enumerate().map(|(k, o)| o[self.choices.get(k).copied().unwrap_or(0) % o.len().max(1)].clone()).collect()
    }

    /// The hero this draft makes (not yet checked).
    fn hero(&self, data: &doo_rules::data::RuleData, allowance: u32) -> Hero {
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
            pronouns: Default::default(),
            make,
            bought: Vec::new(),
            cp_earned: 0,
            ammo: weapon.as_ref().and_then(|w| data.equipment.ranged(w)).map(|_| book.starting_ammo),
            weapon,
            weapon_skill: None,
            shield: self.shield.checked_sub(1).and_then(|k| data.equipment.shields.get(k)).map(|s| s.id.clone()),
            armor: self.armor.checked_sub(1).and_then(|k| data.equipment.armor.get(k)).map(|s| s.id.clone()),
            items,
            light: None,
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
fn check(h: &Hero, data: &doo_rules::data::RuleData, allowance: u32) -> Result<(heroes::Sheet, u32), String> {
    campaign::check_hero("hero", &campaign::hero_text(h), data, Some(allowance)).map(|(_, s, b)| (s, b)).map_err(|e| e.message)
}

pub(super) fn saved_heroes(data: &doo_rules::data::RuleData, allowance: u32) -> Vec<Hero> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(heroes_dir())
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect())
        .unwrap_or_default();
    files.sort();
    files.truncate(64);
    files.iter().filter_map(|p| campaign::load_hero(p, data, allowance).ok().map(|x| x.0)).collect()
}

fn answer_maker(mut acts: MessageReader<MakerAct>, mut run: Option<ResMut<CampaignRun>>, data: Res<GameData>) {
    for act in acts.read() {
        let Some(run) = run.as_deref_mut() else { continue };
        run.message = None;
        match *act {
            MakerAct::EditName => run.editing_name = !run.editing_name,
            MakerAct::AddHero => add_hero(run, false, &data.0),
            MakerAct::SaveHero => add_hero(run, true, &data.0),
            other => edit(&mut run.draft, other, &data.0),
        }
    }
}

/// A picker or counter of the draft pressed.
fn edit(d: &mut Draft, act: MakerAct, data: &doo_rules::data::RuleData) {
    let book = &data.heroes;
    match act {
        MakerAct::Way(core) => d.core = core,
        MakerAct::Array(n) => {
            d.array = step(d.array, n, book.stat_arrays.len());
            d.order = book.stat_arrays[d.array];
        }
        MakerAct::Swap(k) => d.order.swap(k, (k + 1) % 4),
        MakerAct::Package(n) => {
            d.package = step(d.package, n, book.packages.len());
            d.choices.clear();
            d.journeyman = 0;
        }
        MakerAct::Choice(k) => {
            let n = d.one_ofs(data).get(k).map_or(1, Vec::len);
            if d.choices.len() <= k {
                d.choices.resize(k + 1, 0);
            }
            d.choices[k] = (d.choices[k] + 1) % n.max(1);
            d.journeyman = 0;
        }
        MakerAct::Journeyman(n) => {
            let len = d.journeyman_options(data).len();
            d.journeyman = step(d.journeyman, n, len);
        }
        MakerAct::StatStep(k, n) => {
            let v = (d.stats[k] as i32 + n).clamp(book.stat_range.0 as i32, book.stat_range.1 as i32);
            d.stats[k] = v as u32;
        }
        MakerAct::PickSkill(n) => d.skill_pick = step(d.skill_pick, n, book.skills.len()),
        MakerAct::SkillRank(n) => {
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
        MakerAct::PickSet(n) => d.set_pick = step(d.set_pick, n, book.sets.len()),
        MakerAct::ToggleSet => {
            if let Some(s) = book.sets.get(d.set_pick) {
                if let Some(i) = d.sets.iter().position(|x| *x == s.id) {
                    d.sets.remove(i);
                } else {
                    d.sets.push(s.id.clone());
                }
            }
        }
        MakerAct::Weapon(n) => d.weapon = step(d.weapon, n, weapons(data).len() + 1),
        MakerAct::Armor(n) => d.armor = step(d.armor, n, data.equipment.armor.len() + 1),
        MakerAct::Shield(n) => d.shield = step(d.shield, n, data.equipment.shields.len() + 1),
        MakerAct::Potions(n) => d.potions = (d.potions as i32 + n).clamp(0, 6) as u32,
        MakerAct::Torches(n) => d.torches = (d.torches as i32 + n).clamp(0, 6) as u32,
        MakerAct::EditName | MakerAct::AddHero | MakerAct::SaveHero => {}
    }
}

/// The draft checked and added to the heroes on offer (and to the party when there is room;
/// recruited between levels), after it is saved as a hero file when `save`.
fn add_hero(run: &mut CampaignRun, save: bool, data: &doo_rules::data::RuleData) {
    let allowance = run.checked.campaign.allowance(&data.heroes);
    let h = run.draft.hero(data, allowance);
    match check(&h, data, allowance) {
        Err(e) => run.message = Some((false, e)),
        Ok(_) if run.offered.iter().any(|o| o.id() == h.id()) => {
            run.message = Some((false, format!("A hero called {} is already on offer: choose another name.", h.name)))
        }
        Ok(_) => {
            if save {
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

pub(super) fn draw_maker(m: &mut ChildSpawnerCommands, run: &CampaignRun, data: &doo_rules::data::RuleData, allowance: u32) {
    let book = &data.heroes;
    let d = &run.draft;
    m.spawn(text("Make a hero (R-CP-2 Core, R-CP-4 point-buy)", 18.0, palette::GOLD));
    row(m, |r| {
        let mut a = r.spawn(bar_button("Core: array + package", MakerAct::Way(true), true));
        if d.core {
            a.insert(Selected);
        }
        let mut b = r.spawn(bar_button(format!("Point-buy: {} CP", book.point_buy_budget), MakerAct::Way(false), true));
        if !d.core {
            b.insert(Selected);
        }
        let mut n = r.spawn(bar_button(format!("Name: {}{}", d.name, if run.editing_name { "_" } else { "" }), MakerAct::EditName, true));
        if run.editing_name {
            n.insert(Selected);
        }
    });
    if d.core {
        row(m, |r| {
            let a = book.stat_arrays[d.array];
            r.spawn(text(format!("Array {}-{}-{}-{}", a[0], a[1], a[2], a[3]), 14.0, palette::TEXT));
            small(r, "<", MakerAct::Array(-1));
            small(r, ">", MakerAct::Array(1));
            for (k, s) in STATS.iter().enumerate() {
                small(r, format!("{} {} <>", &heroes::stat_name(*s)[..1], d.order[k]), MakerAct::Swap(k));
            }
        });
        row(m, |r| {
            let pkg = &book.packages[d.package];
            r.spawn(text(format!("Package: {}", pkg.name), 14.0, palette::TEXT));
            small(r, "<", MakerAct::Package(-1));
            small(r, ">", MakerAct::Package(1));
            for (k, o) in d.one_ofs(data).iter().enumerate() {
                let pick = &o[d.choices.get(k).copied().unwrap_or(0) % o.len()];
                small(r, format!("choice: {}", heroes::skill_name(pick)), MakerAct::Choice(k));
            }
            let jm = d.journeyman_options(data);
            if !jm.is_empty() {
                small(r, format!("Journeyman: {}", heroes::skill_name(&jm[d.journeyman % jm.len()])), MakerAct::Journeyman(1));
            }
        });
    } else {
        row(m, |r| {
            for (k, s) in STATS.iter().enumerate() {
                r.spawn(text(format!("{} {}", heroes::stat_name(*s), d.stats[k]), 14.0, palette::TEXT));
                small(r, "-", MakerAct::StatStep(k, -1));
                small(r, "+", MakerAct::StatStep(k, 1));
            }
        });
        row(m, |r| {
            let k = book.skills.keys().nth(d.skill_pick).cloned().unwrap_or_default();
            let rank = d.skills.get(&k).copied().unwrap_or(Rank::Untrained);
            small(r, "<", MakerAct::PickSkill(-1));
            r.spawn(text(format!("{}: {rank:?}", heroes::skill_name(&k)), 14.0, palette::TEXT));
            small(r, ">", MakerAct::PickSkill(1));
            small(r, "rank -", MakerAct::SkillRank(-1));
            small(r, "rank +", MakerAct::SkillRank(1));
            let set = &book.sets[d.set_pick];
            small(r, "<", MakerAct::PickSet(-1));
            let have = d.sets.contains(&set.id);
            r.spawn(text(format!("{} set ({} CP){}", set.name, set.cost, if have { ": bought" } else { "" }), 14.0, palette::TEXT));
            small(r, ">", MakerAct::PickSet(1));
            small(r, if have { "drop set" } else { "buy set" }, MakerAct::ToggleSet);
        });
        if !d.skills.is_empty() || !d.sets.is_empty() {
            let list: Vec<String> =
                d.skills.iter().map(|(k, r)| format!("{} {r:?}", heroes::skill_name(k))).chain(d.sets.iter().map(|s| format!("{s} set"))).collect();
            m.spawn(text(list.join(", "), 13.0, palette::DIM));
        }
    }
    let h = d.hero(data, allowance);
    row(m, |r| {
        let ws = weapons(data);
        let w = d.weapon.checked_sub(1).and_then(|k| ws.get(k)).map_or("no weapon".to_string(), |(w, c)| format!("{} ${c}", w.replace('_', " ")));
        small(r, "<", MakerAct::Weapon(-1));
        r.spawn(text(w, 14.0, palette::TEXT));
        small(r, ">", MakerAct::Weapon(1));
        let a = d.armor.checked_sub(1).and_then(|k| data.equipment.armor.get(k)).map_or("no armor".to_string(), |a| format!("{} ${}", a.name, a.cost));
        small(r, "<", MakerAct::Armor(-1));
        r.spawn(text(a, 14.0, palette::TEXT));
        small(r, ">", MakerAct::Armor(1));
        let s = d.shield.checked_sub(1).and_then(|k| data.equipment.shields.get(k)).map_or("no shield".to_string(), |a| format!("{} ${}", a.name, a.cost));
        small(r, "<", MakerAct::Shield(-1));
        r.spawn(text(s, 14.0, palette::TEXT));
        small(r, ">", MakerAct::Shield(1));
    });
    row(m, |r| {
        r.spawn(text(format!("Potions {} ($25)", d.potions), 14.0, palette::TEXT));
        small(r, "-", MakerAct::Potions(-1));
        small(r, "+", MakerAct::Potions(1));
        r.spawn(text(format!("Torches {} ($1)", d.torches), 14.0, palette::TEXT));
        small(r, "-", MakerAct::Torches(-1));
        small(r, "+", MakerAct::Torches(1));
        let cost = h.gear_cost(data).unwrap_or(0);
        r.spawn(text(format!("Gear ${cost} of ${allowance}"), 14.0, if cost > allowance { palette::BAD } else { palette::DIM }));
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
            m.spawn(text(format!("Legal: HP {hp}, MP {mp}, FP {fp}, {banked} CP banked, ${} in the purse.", h.purse), 15.0, palette::GOOD));
            m.spawn((text(format!("Skills: {}", skills.join(", ")), 13.0, palette::DIM), Node { max_width: Val::Px(580.0), ..default() }));
        }
        Err(e) => {
            m.spawn((text(e.clone(), 15.0, palette::BAD), Node { max_width: Val::Px(580.0), ..default() }));
        }
    }
    row(m, |r| {
        let mut a = r.spawn(button("Add to the party", MakerAct::AddHero));
        if verdict.is_err() {
            a.insert(Disabled);
        }
        let mut s = r.spawn(button("Save the hero file", MakerAct::SaveHero));
        if verdict.is_err() {
            s.insert(Disabled);
        }
    });
}
