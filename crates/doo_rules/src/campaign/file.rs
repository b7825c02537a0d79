//! Campaign files (`campaigns/*.ron`, docs/campaigns.md): the levels, where a win or a loss
//! leads, the objectives, the ready-made heroes, and the checks of the file.

use super::caps::{MAX_CP, MAX_LEVELS, MAX_PARTY, MAX_PURSE, VERSION};
use super::hero::{Hero, load_hero};
use crate::data::{LoadError, MessageLocator, Places, RuleData, parse_ron};
use crate::rules::heroes::HeroBook;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// An optional objective of a campaign level (R-CP-10): met at the end of a won level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Objective {
    /// A living hero carries this item.
    Carry(String),
    /// No hero died.
    NoneFallen,
    /// This character is dead.
    Slay(String),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectiveDef {
    pub name: String,
    pub goal: Objective,
    /// CP to each hero (default: the rules' `objective_cp`).
    #[serde(default)]
    pub cp: Option<u32>,
}

/// One level of a campaign.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignLevel {
    pub id: String,
    /// The level file, relative to the campaign file.
    pub level: String,
    /// What the party is told before it (the level's own briefing follows).
    #[serde(default)]
    pub briefing: String,
    /// The level after a win (default: the next in the list; the last one ends the campaign).
    #[serde(default)]
    pub next: Option<String>,
    /// The level after a loss (default: this one again, from the roster it started with).
    #[serde(default)]
    pub on_failure: Option<String>,
    /// The end of a storyline: +2 CP each (R-CP-10).
    #[serde(default)]
    pub major: bool,
    #[serde(default)]
    pub objectives: Vec<ObjectiveDef>,
}

/// A campaign file (docs/campaigns.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Campaign {
    pub version: u32,
    pub name: String,
    #[serde(default)]
    pub story: String,
    /// The side the party plays in every level.
    #[serde(default = "party_side")]
    pub party_side: String,
    /// Ready-made heroes (files relative to the campaign file), offered on the party screen.
    #[serde(default)]
    pub heroes: Vec<String>,
    #[serde(default = "one")]
    pub party_min: usize,
    #[serde(default = "four")]
    pub party_max: usize,
    /// CP every new hero starts with, banked and earned (R-CP-14).
    #[serde(default)]
    pub start_cp: u32,
    /// Money a new hero buys gear with (default: the rules' $150, R-CP-14).
    #[serde(default)]
    pub allowance: Option<u32>,
    /// Point-buy budget (default: the rules' 20 CP, R-CP-4).
    #[serde(default)]
    pub point_buy_budget: Option<u32>,
    /// Days of rest between levels (default: the rules' 1, R-CP-13).
    #[serde(default)]
    pub rest_days: Option<u32>,
    pub levels: Vec<CampaignLevel>,
}

fn party_side() -> String {
    "heroes".into()
}
fn one() -> usize {
    1
}
fn four() -> usize {
    4
}

impl Campaign {
    pub fn level(&self, id: &str) -> Option<&CampaignLevel> {
        self.levels.iter().find(|l| l.id == id)
    }
    /// The level after `id` when it is won (`None`: the campaign is won).
    pub fn after_win(&self, id: &str) -> Option<String> {
        let k = self.levels.iter().position(|l| l.id == id)?;
        self.levels[k].next.clone().or_else(|| self.levels.get(k + 1).map(|l| l.id.clone()))
    }
    pub fn after_loss(&self, id: &str) -> String {
        self.level(id).and_then(|l| l.on_failure.clone()).unwrap_or_else(|| id.to_string())
    }
    pub fn allowance(&self, book: &HeroBook) -> u32 {
        self.allowance.unwrap_or(book.allowance)
    }
    pub fn rest_days(&self, book: &HeroBook) -> u32 {
        self.rest_days.unwrap_or(book.rest_days)
    }
}

/// A checked campaign: the file, where it lies, its levels checked and its heroes read.
#[derive(Clone, Debug)]
pub struct CheckedCampaign {
    pub campaign: Campaign,
    pub path: PathBuf,
    pub hash: String,
    /// Level id → the level file's path.
    pub level_paths: BTreeMap<String, PathBuf>,
    /// The ready-made heroes.
    pub heroes: Vec<Hero>,
}

impl CheckedCampaign {
    /// The level file of a campaign level, checked.
    pub fn load_level(&self, id: &str, data: &RuleData) -> Result<crate::level_file::CheckedLevel, String> {
        let p = self.level_paths.get(id).ok_or_else(|| format!("no level '{id}' in the campaign"))?;
        crate::level_file::load(p, data, &crate::level_file::project_root(p))
            .map_err(|e| format!("{}:{}:{}: {}", p.display(), e[0].line, e[0].col, e[0].message))
    }
}

/// Reads and checks a campaign file: fields and caps, unique level ids, every `next` and
/// `on_failure` naming a level, the winning path ending, every level file valid with the party
/// side in it, and every ready-made hero valid. Errors are `file:line:col: …`.
pub fn check_campaign(path: &Path, text: &str, data: &RuleData) -> Result<CheckedCampaign, LoadError> {
    let file = path.display().to_string();
    let places = Places::new(text);
    let loc = MessageLocator::new(text);
    let at_key = |key: &str, message: String| {
        let (line, col) = places.key(key).unwrap_or((1, 1));
        LoadError { file: file.clone(), line, col, message }
    };
    let at_id = |message: String| {
        let (line, col) = loc.locate(&message);
        LoadError { file: file.clone(), line, col, message }
    };
    let c: Campaign = parse_ron(&file, text)?;
    if c.version != VERSION {
        return Err(at_key("version", format!("campaign files are version {VERSION}; this one is version {}", c.version)));
    }
    if let Some(p) = crate::data::text_problem("the name", &c.name, crate::data::MAX_NAME_CHARS)
        .or_else(|| crate::data::text_problem("the story", &c.story, crate::data::MAX_TEXT_CHARS))
    {
        return Err(at_key("name", p));
    }
    if c.levels.is_empty() {
        return Err(at_key("levels", "a campaign needs at least one level".into()));
    }
    if c.levels.len() > MAX_LEVELS {
        return Err(at_key("levels", format!("{} levels; the most is {MAX_LEVELS}", c.levels.len())));
    }
    if c.party_min == 0 || c.party_min > c.party_max || c.party_max > MAX_PARTY {
        return Err(at_key("party_max", format!("the party is 1 to {MAX_PARTY} heroes, party_min ≤ party_max (here {}..{})", c.party_min, c.party_max)));
    }
    if c.heroes.len() > MAX_PARTY * 4 {
        return Err(at_key("heroes", format!("{} ready-made heroes; the most is {}", c.heroes.len(), MAX_PARTY * 4)));
    }
    if c.start_cp > MAX_CP || c.allowance.is_some_and(|a| a > MAX_PURSE) || c.rest_days.is_some_and(|d| d > 365) || c.point_buy_budget.is_some_and(|b| b > 1000)
    {
        return Err(at_key("start_cp", "start_cp ≤ 100000, allowance ≤ 1000000, rest_days ≤ 365, point_buy_budget ≤ 1000".into()));
    }
    let mut ids = BTreeSet::new();
    for l in &c.levels {
        if let Some(p) = crate::data::id_problem(&l.id) {
            return Err(at_id(format!("level '{}': {p}", l.id)));
        }
        if !ids.insert(l.id.as_str()) {
            return Err(at_id(format!("level '{}' is used twice", l.id)));
        }
        if let Some(p) = crate::data::text_problem("a briefing", &l.briefing, crate::data::MAX_TEXT_CHARS) {
            return Err(at_id(format!("level '{}': {p}", l.id)));
        }
        if l.objectives.len() > 16 {
            return Err(at_id(format!("level '{}': {} objectives; the most is 16", l.id, l.objectives.len())));
        }
    }
    for l in &c.levels {
        for (what, target) in [("next", &l.next), ("on_failure", &l.on_failure)] {
            if let Some(t) = target.as_ref().filter(|t| !ids.contains(t.as_str())) {
                return Err(at_id(format!("level '{}': {what} names no level of this campaign: '{t}'", l.id)));
            }
        }
    }
    // The winning path must end: following `next` from the first level never comes back.
    let mut seen = BTreeSet::new();
    let mut cur = Some(c.levels[0].id.clone());
    while let Some(id) = cur {
        if !seen.insert(id.clone()) {
            return Err(at_id(format!("level '{id}': winning every level comes back to it, so the campaign never ends")));
        }
        cur = c.after_win(&id);
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut level_paths = BTreeMap::new();
    for l in &c.levels {
        if !l.level.ends_with(".ron") {
            return Err(at_id(format!("level '{}': the level file must be a .ron file: '{}'", l.id, l.level)));
        }
        let p = dir.join(&l.level);
        if let Err(e) = crate::data::read_text(&p, crate::data::MAX_FILE_BYTES) {
            return Err(at_id(format!("level '{}': '{}': {}", l.id, l.level, e.message)));
        }
        let checked = crate::level_file::load(&p, data, &crate::level_file::project_root(&p)).map_err(|e| {
            let first = &e[0];
            LoadError { file: p.display().to_string(), line: first.line, col: first.col, message: first.message.clone() }
        })?;
        if !checked.sides.iter().any(|s| s.id == c.party_side) {
            return Err(at_id(format!("level '{}': the level has no side '{}' for the party", l.id, c.party_side)));
        }
        for o in &l.objectives {
            if let Objective::Slay(who) = &o.goal
                && !checked.characters.iter().any(|ch| &ch.id == who)
            {
                return Err(at_id(format!("level '{}': objective '{}': no character '{who}' in the level", l.id, o.name)));
            }
            if let Objective::Carry(item) = &o.goal
                && !data.equipment.knows(item)
                && data.equipment.item(item).is_none()
            {
                return Err(at_id(format!("level '{}': objective '{}': unknown item '{item}'", l.id, o.name)));
            }
        }
        level_paths.insert(l.id.clone(), p);
    }
    let mut heroes = Vec::new();
    let allowance = c.allowance(&data.heroes);
    for h in &c.heroes {
        if !h.ends_with(".ron") {
            return Err(at_id(format!("hero file '{h}' must be a .ron file")));
        }
        if let Err(e) = crate::data::read_text(&dir.join(h), crate::data::MAX_FILE_BYTES) {
            return Err(at_id(format!("hero file '{h}': {}", e.message)));
        }
        let (hero, _, _) = load_hero(&dir.join(h), data, allowance)?;
        heroes.push(hero);
    }
    Ok(CheckedCampaign { campaign: c, path: path.to_path_buf(), hash: crate::data::level_hash(text), level_paths, heroes })
}

/// Reads and checks a campaign file from disk.
pub fn load_campaign(path: &Path, data: &RuleData) -> Result<CheckedCampaign, LoadError> {
    let text = crate::data::read_text(path, crate::data::MAX_FILE_BYTES)?;
    check_campaign(path, &text, data)
}
