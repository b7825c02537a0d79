//! Campaigns (RULES.md §25): hero files (`heroes/*.ron`, docs/heroes.md), campaign files
//! (`campaigns/*.ron`, docs/campaigns.md) and a campaign's progress, which a save carries
//! (`Save::campaign`). A campaign level is played as an ordinary level: its party side's
//! characters are replaced by the roster's heroes (`level_for`), written as a level file
//! (`prepare_level`), and played, saved and replayed like any other. When it ends,
//! `finish_level` applies the rules: CP earned in play and per level (R-CP-9, R-CP-10),
//! carry-over (R-CP-12), the rest between levels (R-CP-13). Nothing here renders; errors are
//! `file:line:col` sentences.

use crate::data::{LoadError, MessageLocator, Places, RuleData, parse_ron};
use crate::level_file::{CharacterEntry, CheckedLevel, Level};
use crate::rules::Dice;
use crate::rules::event::Event;
use crate::rules::fighter::{Duration, Size, Stats};
use crate::rules::heroes::{self, CpLine, HeroBook, Make, Purchase, Sheet};
use crate::rules::profile::Rank;
use crate::rules::state::Match;
use crate::rules::violation::Violation;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The version of hero, campaign and progress files this game writes and reads.
pub const VERSION: u32 = 1;
/// Caps: heroes in a party, levels in a campaign, purchases in a hero's history, levels played.
pub const MAX_PARTY: usize = 8;
pub const MAX_LEVELS: usize = 100;
pub const MAX_BOUGHT: usize = 1_000;
pub const MAX_HISTORY: usize = 10_000;
pub const MAX_ITEMS: usize = 64;
pub const MAX_CP: u32 = 100_000;
pub const MAX_PURSE: u32 = 1_000_000;

/// A hero as a file holds him (docs/heroes.md): how he was made and what he bought since, from
/// which the rules rebuild his stats and skills; his CP; his gear, purse, wounds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hero {
    pub version: u32,
    pub name: String,
    #[serde(default)]
    pub size: Size,
    pub make: Make,
    /// CP purchases between levels, in order (R-CP-11).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bought: Vec<Purchase>,
    /// Every CP the hero ever earned (R-CP-1); banked = what the making left + earned − spent.
    #[serde(default)]
    pub cp_earned: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon_skill: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shield: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub armor: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ammo: Option<u32>,
    /// Money ($).
    #[serde(default)]
    pub purse: u32,
    /// Current HP when hurt (absent: full).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hp: Option<i32>,
    /// Permanent conditions (R-CP-12: the others end between levels).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<String>,
    /// Who plays him in a hot-seat campaign (a player's name; empty: the first player).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub player: String,
}

impl Hero {
    /// The hero's sheet and his banked CP, rebuilt by the rules: the making, then every purchase
    /// in order (R-CP-2/4, R-CP-11).
    pub fn sheet(&self, book: &HeroBook) -> Result<(Sheet, u32), Violation> {
        let mut sheet = heroes::make(book, &self.make)?;
        let mut spent: u64 = 0;
        for p in &self.bought {
            spent += heroes::buy(book, &mut sheet, u32::MAX, p)? as u64;
        }
        let have = sheet.left as u64 + self.cp_earned as u64;
        if spent > have {
            return Err(Violation::new("R-CP-11", format!("{} spent {spent} CP but had only {have} (CP are spent only when banked).", self.name)));
        }
        Ok((sheet, (have - spent) as u32))
    }

    /// The id the hero's figure has in a level (within the ids' length cap, whatever the name).
    pub fn id(&self) -> String {
        let slug: String = self.name.to_lowercase().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
        let slug: String = slug.trim_matches('_').chars().take(crate::data::MAX_ID_CHARS - "hero_".len()).collect();
        format!("hero_{slug}")
    }

    /// His figure in a level, at `pos`, on `side`.
    pub fn entry(&self, sheet: &Sheet, side: &str, pos: crate::rules::Pos) -> CharacterEntry {
        let (max_hp, _, _) = heroes::pools(&sheet.stats);
        let skills: BTreeMap<String, Rank> = sheet.skills.iter().filter(|(_, r)| **r > Rank::Untrained).map(|(k, r)| (k.clone(), *r)).collect();
        CharacterEntry {
            id: Some(self.id()),
            name: Some(self.name.clone()),
            side: Some(side.to_string()),
            pos: Some(pos),
            stats: Some(sheet.stats),
            size: Some(self.size),
            skills: Some(skills),
            weapon: self.weapon.clone(),
            weapon_skill: self.weapon_skill.clone(),
            shield: self.shield.clone(),
            armor: self.armor.clone(),
            items: (!self.items.is_empty()).then(|| self.items.clone()),
            ammo: self.ammo,
            hp: self.hp.filter(|&h| h < max_hp),
            conditions: (!self.conditions.is_empty()).then(|| self.conditions.clone()),
            // A Core hero is drawn as his package (warrior, ranger …; assets/art/figures.ron).
            sprite: match &self.make {
                Make::Core { package, .. } => Some(package.clone()),
                _ => None,
            },
            ..Default::default()
        }
    }

    /// The cost in $ of his gear at the data's prices (R-CP-14); an item not for sale is refused.
    pub fn gear_cost(&self, data: &RuleData) -> Result<u32, String> {
        let eq = &data.equipment;
        let mut total = 0u32;
        if let Some(w) = &self.weapon {
            total = total.saturating_add(eq.melee(w).map(|x| x.cost).or_else(|| eq.ranged(w).map(|x| x.cost)).ok_or_else(|| format!("unknown weapon '{w}'"))?);
        }
        if let Some(s) = &self.shield {
            total = total.saturating_add(eq.shield(s).map(|x| x.cost).ok_or_else(|| format!("unknown shield '{s}'"))?);
        }
        if let Some(a) = &self.armor {
            total = total.saturating_add(eq.armor(a).map(|x| x.cost).ok_or_else(|| format!("unknown armor '{a}'"))?);
        }
        for i in &self.items {
            let item = eq.item(i).ok_or_else(|| format!("unknown item '{i}'"))?;
            total = total.saturating_add(item.cost.ok_or_else(|| format!("'{i}' is not for sale: a new hero cannot start with it (R-CP-14)"))?);
        }
        Ok(total)
    }

    /// A hero who has never played: no CP earned, nothing bought.
    pub fn is_new(&self) -> bool {
        self.cp_earned == 0 && self.bought.is_empty()
    }
}

/// Reads and checks a hero file: the fields, the caps, the gear, and the making and purchases
/// by the rules (the rule id in the message). `allowance`: a new hero's money for gear (`None`:
/// the gear is not checked against it, for heroes already in a campaign).
pub fn check_hero(file: &str, text: &str, data: &RuleData, allowance: Option<u32>) -> Result<(Hero, Sheet, u32), LoadError> {
    let places = Places::new(text);
    let fail = |key: &str, message: String| {
        let (line, col) = places.key(key).unwrap_or((1, 1));
        LoadError { file: file.into(), line, col, message }
    };
    let hero: Hero = parse_ron(file, text)?;
    if hero.version != VERSION {
        return Err(fail("version", format!("hero files are version {VERSION}; this one is version {}", hero.version)));
    }
    if let Some(p) = crate::data::text_problem("the name", &hero.name, crate::data::MAX_ID_CHARS)
        .or_else(|| hero.name.trim().is_empty().then(|| "the name is empty".to_string()))
    {
        return Err(fail("name", p));
    }
    if hero.bought.len() > MAX_BOUGHT {
        return Err(fail("bought", format!("{} purchases; the most is {MAX_BOUGHT}", hero.bought.len())));
    }
    if hero.items.len() > MAX_ITEMS {
        return Err(fail("items", format!("{} items; the most is {MAX_ITEMS}", hero.items.len())));
    }
    if hero.cp_earned > MAX_CP {
        return Err(fail("cp_earned", format!("{} CP earned; the most is {MAX_CP}", hero.cp_earned)));
    }
    if hero.purse > MAX_PURSE {
        return Err(fail("purse", format!("${} in the purse; the most is ${MAX_PURSE}", hero.purse)));
    }
    if hero.ammo.is_some_and(|a| a > crate::level::ranges::AMMO.1) {
        return Err(fail("ammo", format!("ammo is at most {}", crate::level::ranges::AMMO.1)));
    }
    let eq = &data.equipment;
    if let Some(w) = hero.weapon.as_ref().filter(|w| eq.melee(w).is_none() && eq.ranged(w).is_none()) {
        return Err(fail("weapon", format!("unknown weapon '{w}'")));
    }
    if let Some(s) = hero.shield.as_ref().filter(|s| eq.shield(s).is_none()) {
        return Err(fail("shield", format!("unknown shield '{s}'")));
    }
    if let Some(a) = hero.armor.as_ref().filter(|a| eq.armor(a).is_none()) {
        return Err(fail("armor", format!("unknown armor '{a}'")));
    }
    if let Some(i) = hero.items.iter().find(|i| eq.item(i).is_none() && !eq.knows(i)) {
        let loc = MessageLocator::new(text).locate(&format!("'{i}'"));
        return Err(LoadError { file: file.into(), line: loc.0, col: loc.1, message: format!("unknown item '{i}'") });
    }
    for c in &hero.conditions {
        match data.conditions.get(c).map(|d| d.duration) {
            Some(Duration::Permanent) => {}
            Some(_) => return Err(fail("conditions", format!("'{c}' is not a permanent condition: only permanent ones last between levels (R-CP-12)"))),
            None => return Err(fail("conditions", format!("unknown condition '{c}'"))),
        }
    }
    let (sheet, banked) = hero.sheet(&data.heroes).map_err(|v| {
        let key = if v.rule == "R-CP-11" || v.reason.contains("already") && !hero.bought.is_empty() { "bought" } else { "make" };
        fail(key, format!("{} ({})", v.reason, v.rule))
    })?;
    let (max_hp, _, _) = heroes::pools(&sheet.stats);
    if let Some(hp) = hero.hp.filter(|&h| h > max_hp || h <= -max_hp) {
        return Err(fail("hp", format!("hp {hp}: a living hero has more than -{max_hp} and at most {max_hp} HP (R-STAT-3)")));
    }
    if let Some(allowance) = allowance.filter(|_| hero.is_new()) {
        let cost = hero.gear_cost(data).map_err(|e| fail("items", e))?;
        if cost as u64 + hero.purse as u64 > allowance as u64 {
            return Err(fail(
                "purse",
                format!("a new hero's gear (${cost}) and purse (${}) come to more than the ${allowance} he starts with (R-CP-14)", hero.purse),
            ));
        }
    }
    Ok((hero, sheet, banked))
}

/// Reads a hero file from disk (size-capped, regular files only).
pub fn load_hero(path: &Path, data: &RuleData, allowance: u32) -> Result<(Hero, Sheet, u32), LoadError> {
    let text = crate::data::read_text(path, crate::data::MAX_FILE_BYTES)?;
    check_hero(&path.display().to_string(), &text, data, Some(allowance))
}

/// The hero file's text.
pub fn hero_text(h: &Hero) -> String {
    ron::ser::to_string_pretty(h, ron::ser::PrettyConfig::default().struct_names(true)).expect("a hero serializes")
}

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

/// One level played in a campaign, for the history and the result screen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelRecord {
    pub level: String,
    pub won: bool,
    /// CP each hero earned, with the reasons (R-CP-9, R-CP-10).
    #[serde(default)]
    pub cp: Vec<CpLine>,
    /// Heroes who died (R-CP-12).
    #[serde(default)]
    pub fallen: Vec<String>,
    /// Lines of the between-level rest (R-CP-13).
    #[serde(default)]
    pub rest: Vec<String>,
}

/// Where a campaign stands: the roster, the level to play, the history. A save carries it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    /// The campaign file, as an absolute path, and the blake3 of its text.
    pub campaign: String,
    pub campaign_hash: String,
    pub name: String,
    /// The living heroes, as they are now.
    pub roster: Vec<Hero>,
    /// The roster as the level in progress started (a lost level is replayed from it, R-CP-13);
    /// set by `begin_level` only.
    #[serde(default)]
    pub start_roster: Vec<Hero>,
    /// The level to play next, or being played; `None`: the campaign is over.
    pub level: Option<String>,
    /// Whether the level's match has started (the save's commands are its commands).
    #[serde(default)]
    pub playing: bool,
    /// Heroes who sit the level out (at 0 HP or less after the rest, R-CP-13).
    #[serde(default)]
    pub sitting_out: Vec<String>,
    #[serde(default)]
    pub history: Vec<LevelRecord>,
    /// The campaign was won (the last level won) rather than abandoned.
    #[serde(default)]
    pub won: bool,
    /// Players in seat order (hot-seat); heroes name theirs in `Hero::player`.
    #[serde(default)]
    pub players: Vec<String>,
    pub seed: u64,
}

impl Progress {
    /// CP banked, all told, by the heroes at these roster places: what "Spend CP" could spend
    /// (R-CP-11: CP are spent only when banked). A hero whose sheet cannot be rebuilt counts 0.
    pub fn banked_cp(&self, book: &HeroBook, heroes: &[usize]) -> u32 {
        heroes.iter().filter_map(|&k| self.roster.get(k)).filter_map(|h| h.sheet(book).ok()).map(|(_, banked)| banked).sum()
    }

    /// R-CP-13: after `record`'s level the party plays that same level again (it was lost and
    /// the campaign names no other level for a failure).
    pub fn plays_again(&self, record: &LevelRecord) -> bool {
        !record.won && self.level.as_deref() == Some(record.level.as_str())
    }

    /// A new campaign with this party.
    /// New heroes get the campaign's `start_cp`, banked and earned (R-CP-14).
    pub fn start(c: &CheckedCampaign, mut roster: Vec<Hero>, players: Vec<String>, seed: u64) -> Self {
        for h in roster.iter_mut().filter(|h| h.is_new()) {
            h.cp_earned = c.campaign.start_cp;
        }
        Self {
            campaign: c.path.canonicalize().unwrap_or_else(|_| c.path.clone()).display().to_string(),
            campaign_hash: c.hash.clone(),
            name: c.campaign.name.clone(),
            start_roster: Vec::new(),
            roster,
            level: Some(c.campaign.levels[0].id.clone()),
            playing: false,
            sitting_out: Vec::new(),
            history: Vec::new(),
            won: false,
            players,
            seed,
        }
    }

    /// Whether `party` may begin the campaign: its size within the campaign's bounds, and no two
    /// heroes whose figures would share an id.
    pub fn check_party(c: &CheckedCampaign, party: &[Hero]) -> Result<(), String> {
        let k = &c.campaign;
        if party.len() < k.party_min || party.len() > k.party_max {
            return Err(format!("The party is {} to {} heroes; {} are chosen.", k.party_min, k.party_max, party.len()));
        }
        let mut ids = BTreeSet::new();
        if let Some(h) = party.iter().find(|h| !ids.insert(h.id())) {
            return Err(format!("Two heroes share the name {} (or one too like it): rename one.", h.name));
        }
        Ok(())
    }

    /// The level starts: the roster as it stands is what a loss goes back to (R-CP-13).
    pub fn begin_level(&mut self) {
        self.start_roster = self.roster.clone();
        self.playing = true;
    }

    /// Every hero of a progress read from a save (untrusted) checked as a hero file is: numbers
    /// in range, gear known, the making and purchases legal (the rule id in the message).
    pub fn check_heroes(&self, data: &RuleData) -> Result<(), String> {
        for h in self.roster.iter().chain(&self.start_roster) {
            // their gear was bought when they were made, from the campaign's allowance
            check_hero(&format!("hero '{}'", h.name.chars().take(crate::data::MAX_ID_CHARS).collect::<String>()), &hero_text(h), data, None)
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// Caps and sanity of a progress read from a save (untrusted): problems as (field, sentence).
    pub fn cap_problems(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if self.roster.len() > MAX_PARTY || self.start_roster.len() > MAX_PARTY {
            out.push(("roster", format!("a roster has at most {MAX_PARTY} heroes")));
        }
        if self.history.len() > MAX_HISTORY {
            out.push(("history", format!("a history has at most {MAX_HISTORY} levels")));
        }
        if self.roster.iter().chain(&self.start_roster).any(|h| h.bought.len() > MAX_BOUGHT || h.items.len() > MAX_ITEMS || h.cp_earned > MAX_CP) {
            out.push(("roster", format!("a hero has at most {MAX_BOUGHT} purchases, {MAX_ITEMS} items and {MAX_CP} CP")));
        }
        if self.history.iter().any(|r| r.cp.len() > 100_000 || r.rest.len() > 10_000 || r.fallen.len() > MAX_PARTY) {
            out.push(("history", "a level record is too long".to_string()));
        }
        out
    }
}

/// Spaces the party starts on: the level's own party figures' spaces, then free walkable spaces
/// nearest the first of them (breadth-first).
fn party_starts(level: &crate::level_file::CheckedLevel, side: &str, n: usize) -> Vec<crate::rules::Pos> {
    let mut starts: Vec<crate::rules::Pos> = level.characters.iter().filter(|c| c.side == side).map(|c| c.pos).collect();
    if starts.len() >= n {
        starts.truncate(n);
        return starts;
    }
    let Ok(board) = crate::rules::Board::from_rows(&level.floors) else { return starts };
    let taken: BTreeSet<crate::rules::Pos> = level.characters.iter().map(|c| c.pos).collect();
    let Some(&first) = starts.first() else { return starts };
    let more: Vec<crate::rules::Pos> = pathfinding::directed::bfs::bfs_reach(first, |p| {
        let p = *p;
        [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]
            .into_iter()
            .map(move |(dx, dy)| crate::rules::Pos::on(p.x + dx, p.y + dy, p.floor))
            .filter(|q| board.walkable(*q))
            .collect::<Vec<_>>()
    })
    .filter(|p| !taken.contains(p) && !starts.contains(p))
    .take(n - starts.len())
    .collect();
    starts.extend(more);
    starts
}

/// The level file a campaign level is played as: the level with its party side's figures
/// replaced by the roster's heroes able to play (on their spaces, then the nearest free ones),
/// and monster templates written out (the file stands alone). Returns its text.
pub fn level_for(c: &CheckedCampaign, progress: &Progress, id: &str, data: &RuleData) -> Result<String, String> {
    let checked = c.load_level(id, data)?;
    let side = &c.campaign.party_side;
    let playing: Vec<&Hero> = progress.roster.iter().filter(|h| !progress.sitting_out.contains(&h.name)).collect();
    if playing.is_empty() {
        return Err("no hero is able to play the level".into());
    }
    let mut ids = BTreeSet::new();
    if let Some(h) = playing.iter().find(|h| !ids.insert(h.id())) {
        return Err(format!("two heroes of the party share the name '{}' (or one too like it): rename one", h.name));
    }
    let starts = party_starts(&checked, side, playing.len());
    if starts.len() < playing.len() {
        return Err(format!("the level has room for {} heroes on side '{side}', not {}", starts.len(), playing.len()));
    }
    let p = &c.level_paths[id];
    let dir = crate::level_file::templates_dir(&crate::level_file::project_root(p));
    let mut level: Level = checked.level.clone();
    let mut characters = Vec::new();
    for e in level.characters.drain(..) {
        let e = match &e.template {
            Some(t) => {
                let mut full = e.clone().over(&crate::level_file::read_template(&dir, t)?);
                full.template = None;
                full
            }
            None => e,
        };
        if e.side.as_deref() != Some(side.as_str()) {
            characters.push(e);
        }
    }
    for (h, pos) in playing.iter().zip(starts) {
        let (sheet, _) = h.sheet(&data.heroes).map_err(|v| format!("{}: {v}", h.name))?;
        let mut e = h.entry(&sheet, side, pos);
        // A package without a figure of its own (added to heroes.ron alone) is drawn by the
        // figure book's other rules, not refused.
        if e.sprite.as_deref().is_some_and(|s| !data.figures.known(s)) {
            e.sprite = None;
        }
        characters.push(e);
    }
    level.characters = characters;
    let title = c.campaign.level(id).map(|l| l.briefing.clone()).unwrap_or_default();
    if !title.is_empty() {
        level.briefing = format!("{title}\n\n{}", level.briefing);
    }
    level.name = format!("{} — {}", c.campaign.name, level.name);
    ron::ser::to_string_pretty(&level, ron::ser::PrettyConfig::default().struct_names(true)).map_err(|e| e.to_string())
}

/// Writes the level file a campaign level is played as, beside the progress, and checks it.
pub fn prepare_level(c: &CheckedCampaign, progress: &Progress, dir: &Path, data: &RuleData) -> Result<(PathBuf, CheckedLevel), String> {
    let id = progress.level.clone().ok_or("the campaign is over")?;
    let text = level_for(c, progress, &id, data)?;
    let n = progress.history.len() + 1;
    let path = dir.join(format!("level-{n:03}-{id}.ron"));
    crate::data::write_atomic(&path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
    let root = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let level = crate::level_file::check(&path.display().to_string(), &text, data, &root)
        .map_err(|e| format!("{}:{}:{}: {}", path.display(), e[0].line, e[0].col, e[0].message))?;
    Ok((path, level))
}

/// What a level did to the party: CP lines, who fell, the rest, and where the campaign goes.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelReport {
    pub record: LevelRecord,
    /// The roster at the end of the level, before the rest (HP, items, CP as the level left them).
    pub after_level: Vec<Hero>,
    /// HP each hero (by name) gained in the rest (R-CP-13).
    pub rest_gains: BTreeMap<String, i32>,
}

fn objective_met(o: &Objective, m: &Match, hero_ids: &BTreeSet<String>) -> bool {
    match o {
        Objective::Carry(item) => {
            m.fighters.iter().any(|f| hero_ids.contains(&f.id) && !m.is_dead(m.index(&f.id).unwrap_or(0)) && f.loadout.items.contains(item))
        }
        Objective::NoneFallen => m.fighters.iter().enumerate().all(|(i, f)| !hero_ids.contains(&f.id) || !m.is_dead(i)),
        Objective::Slay(id) => m.index(id).is_some_and(|i| m.is_dead(i)),
    }
}

/// R-CP-9, R-CP-10, R-CP-12, R-CP-13: ends the level in progress. `m` is the match as it ended,
/// `events` everything that happened in it, `won` whether the party's side won. The progress
/// moves to the next level (or the failure's), the roster carries over or is set back.
pub fn finish_level(c: &CheckedCampaign, progress: &mut Progress, m: &Match, events: &[Event], won: bool, data: &RuleData) -> LevelReport {
    let book = &data.heroes;
    let id = progress.level.clone().unwrap_or_default();
    let mut record = LevelRecord { level: id.clone(), won, cp: Vec::new(), fallen: Vec::new(), rest: Vec::new() };
    if !won {
        // R-CP-13: a lost level is played again (or where the campaign says) from the roster as
        // it stood at its start, keeping nothing of the lost attempt.
        progress.roster = progress.start_roster.clone();
        progress.level = Some(c.campaign.after_loss(&id));
        progress.playing = false;
        progress.sitting_out.clear();
        record.rest.push("The level was lost: the party plays on from where it stood at the level's start, keeping nothing of the attempt (R-CP-13).".into());
        progress.history.push(record.clone());
        return LevelReport { record, after_level: progress.roster.clone(), rest_gains: BTreeMap::new() };
    }
    let in_level: BTreeSet<String> = progress.roster.iter().map(Hero::id).filter(|k| m.index(k).is_some()).collect();
    let names: BTreeMap<String, String> = m.fighters.iter().map(|f| (f.id.clone(), f.name.clone())).collect();
    let mut cp = heroes::cp_from_events(events, &in_level, &names);
    let lvl = c.campaign.level(&id);
    for hid in &in_level {
        let i = m.index(hid).expect("in level");
        if m.is_dead(i) {
            continue;
        }
        let mut award = |n: u32, why: String| cp.push(CpLine { hero: hid.clone(), cp: n, rule: "R-CP-10".into(), why });
        award(book.win_cp, "the level won".into());
        for o in lvl.map(|l| l.objectives.as_slice()).unwrap_or(&[]) {
            if objective_met(&o.goal, m, &in_level) {
                award(o.cp.unwrap_or(book.objective_cp), format!("objective: {}", o.name));
            }
        }
        if lvl.is_some_and(|l| l.major) {
            award(book.major_cp, "a major level".into());
        }
    }
    // R-CP-12: carry-over.
    let mut roster = Vec::new();
    for h in &progress.roster {
        let mut h = h.clone();
        let hid = h.id();
        let earned: u32 = cp.iter().filter(|l| l.hero == hid).map(|l| l.cp).sum();
        h.cp_earned = h.cp_earned.saturating_add(earned).min(MAX_CP);
        if let Some(i) = m.index(&hid) {
            let f = &m.fighters[i];
            if m.is_dead(i) {
                record.fallen.push(h.name.clone());
                continue;
            }
            h.hp = (f.hp < f.max_hp).then_some(f.hp);
            // Choice: a weapon dropped in the fight (G-19) is picked up once the level is won;
            // one that broke is gone.
            h.weapon = f.loadout.weapon.clone().or_else(|| f.loadout.dropped.first().map(|d| d.0.clone()));
            h.weapon_skill = f.loadout.weapon_skill.clone();
            h.shield = f.loadout.shield.clone();
            h.armor = f.loadout.armor.clone();
            let keys: BTreeSet<&str> = m.explore.as_deref().map(|x| x.keys.keys().map(String::as_str).collect()).unwrap_or_default();
            h.items = f.loadout.items.iter().filter(|i| !keys.contains(i.as_str())).take(MAX_ITEMS).cloned().collect();
            h.ammo = f.loadout.ammo;
            // permanent conditions stay; a dying or bleeding hero of a won level is stabilized
            h.conditions = f.conditions.iter().filter(|c| c.duration == Duration::Permanent).map(|c| c.id.clone()).collect();
        }
        roster.push(h);
    }
    record.cp = cp;
    let after_level = roster.clone();
    // R-CP-13: the rest between levels.
    let mut dice = Dice::seeded(progress.seed ^ (progress.history.len() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let crs = data.exploration.caregiver_cr;
    let mut rest_gains: BTreeMap<String, i32> = BTreeMap::new();
    for day in 1..=c.campaign.rest_days(book) {
        for p in 0..roster.len() {
            let (sheet, _) = match roster[p].sheet(book) {
                Ok(s) => s,
                Err(_) => continue,
            };
            let (max_hp, _, _) = heroes::pools(&sheet.stats);
            let hp = roster[p].hp.unwrap_or(max_hp);
            if hp >= max_hp {
                continue;
            }
            let healer = (0..roster.len())
                .filter(|&q| q != p && roster[q].hp.is_none_or(|h| h > 0))
                .filter_map(|q| roster[q].sheet(book).ok().map(|(s, _)| (q, s)))
                .max_by(|a, b| {
                    (a.1.rank("healing").adjustment(), a.1.stats.savvy).cmp(&(b.1.rank("healing").adjustment(), b.1.stats.savvy)).then(b.0.cmp(&a.0))
                });
            let bonus = healer.map_or(0, |(_, s)| heroes::caregiver_bonus(&mut dice, s.stats.savvy, s.rank("healing"), hp, max_hp, crs));
            let (gained, total) = heroes::recuperate(book, &mut dice, &sheet.stats, bonus);
            let now = (hp + gained).min(max_hp);
            *rest_gains.entry(roster[p].name.clone()).or_default() += gained;
            roster[p].hp = (now < max_hp).then_some(now);
            record.rest.push(format!(
                "Day {day}: {} recuperates: {total} against CR {} (+{bonus} from care): +{gained} HP, {now}/{max_hp} (R-CP-13).",
                roster[p].name, book.rest_cr
            ));
        }
    }
    progress.sitting_out = roster.iter().filter(|h| h.hp.is_some_and(|hp| hp <= 0)).map(|h| h.name.clone()).collect();
    progress.roster = roster;
    progress.level = c.campaign.after_win(&id);
    progress.won = progress.level.is_none();
    progress.playing = false;
    progress.history.push(record.clone());
    LevelReport { record, after_level, rest_gains }
}

/// R-CP-14 (G-84): a new or replacement hero joins between levels with banked and earned CP
/// equal to the lowest "CP earned" among the living heroes (the campaign's `start_cp` when there
/// are none). Refused when the party is full or a hero already has his name.
pub fn recruit(c: &CheckedCampaign, progress: &mut Progress, mut hero: Hero) -> Result<(), Violation> {
    if progress.roster.len() >= c.campaign.party_max {
        return Err(Violation::new("R-CP-14", format!("The party is full ({} heroes at most).", c.campaign.party_max)));
    }
    if progress.roster.iter().any(|h| h.id() == hero.id()) {
        return Err(Violation::new("R-CP-14", format!("A hero called {} is already in the party.", hero.name)));
    }
    if !hero.is_new() {
        return Err(Violation::new("R-CP-14", format!("{} has played before: a recruit is a new hero.", hero.name)));
    }
    hero.cp_earned = progress.roster.iter().map(|h| h.cp_earned).min().unwrap_or(c.campaign.start_cp);
    progress.roster.push(hero);
    Ok(())
}

/// The AI's (and the "spend for me" button's) choice of what to buy with banked CP: the weapon
/// skill's next rank, then the weapon's stat, then Dodge, while anything is affordable.
pub fn auto_spend(h: &mut Hero, data: &RuleData) -> Vec<(Purchase, u32)> {
    let book = &data.heroes;
    let mut out = Vec::new();
    for _ in 0..64 {
        let Ok((sheet, banked)) = h.sheet(book) else { break };
        let (skill, stat) = h
            .weapon
            .as_ref()
            .and_then(|w| {
                data.equipment
                    .melee(w)
                    .map(|x| (x.modes[0].skill.clone(), x.modes[0].check))
                    .or_else(|| data.equipment.ranged(w).map(|x| (x.skill.clone(), crate::rules::equipment::Stat::Finesse)))
            })
            .unwrap_or(("brawling".into(), crate::rules::equipment::Stat::Brawn));
        let wishes = [Purchase::Skill(skill), Purchase::Stat(stat), Purchase::Skill("dodge".into())];
        let Some(p) = wishes.into_iter().find(|p| book.price(&sheet, p).is_ok_and(|c| c > 0 && c <= banked)) else { break };
        match spend(h, p.clone(), book) {
            Ok(cost) => out.push((p, cost)),
            Err(_) => break,
        }
    }
    out
}

/// Choice: between levels a hero may buy gear from his purse at the data's costs (the money he
/// carries is kept, R-CP-12): a weapon, a shield or armor (replacing what he has) or an item. A
/// ranged weapon comes with the starting shots. Returns the cost.
pub fn buy_gear(h: &mut Hero, id: &str, data: &RuleData) -> Result<u32, String> {
    let eq = &data.equipment;
    let cost = if let Some(w) = eq.melee(id) {
        w.cost
    } else if let Some(w) = eq.ranged(id) {
        w.cost
    } else if let Some(s) = eq.shield(id) {
        s.cost
    } else if let Some(a) = eq.armor(id) {
        a.cost
    } else if let Some(i) = eq.item(id) {
        i.cost.ok_or_else(|| format!("'{id}' is not for sale"))?
    } else {
        return Err(format!("unknown gear '{id}'"));
    };
    if cost > h.purse {
        return Err(format!("{} costs ${cost}; {} has ${}.", id.replace('_', " "), h.name, h.purse));
    }
    if eq.melee(id).is_some() || eq.ranged(id).is_some() {
        h.weapon = Some(id.to_string());
        h.weapon_skill = None;
        h.ammo = eq.ranged(id).map(|_| data.heroes.starting_ammo);
    } else if eq.shield(id).is_some() {
        h.shield = Some(id.to_string());
    } else if eq.armor(id).is_some() {
        h.armor = Some(id.to_string());
    } else {
        if h.items.len() >= MAX_ITEMS {
            return Err(format!("{} carries {MAX_ITEMS} items already.", h.name));
        }
        h.items.push(id.to_string());
    }
    h.purse -= cost;
    Ok(cost)
}

/// The AI's choice of a weapon for a hero who lost his (broken in a fight): the affordable
/// melee weapon of his best weapon skill, the cheapest of those.
pub fn rearm(h: &mut Hero, data: &RuleData) -> Option<(String, u32)> {
    if h.weapon.is_some() {
        return None;
    }
    let (sheet, _) = h.sheet(&data.heroes).ok()?;
    // the best weapon of his best weapon skill that he can afford and wield one-handed
    let best = data
        .equipment
        .melee
        .iter()
        .filter(|w| w.cost <= h.purse && !w.small_improvised && w.modes[0].one_hand_brawn <= sheet.stats.brawn)
        .max_by_key(|w| (sheet.rank(&w.modes[0].skill), w.cost))?
        .id
        .clone();
    buy_gear(h, &best, data).ok().map(|c| (best, c))
}

/// Buys `p` for the hero if the rules allow it (R-CP-11); refused with the rule otherwise.
pub fn spend(h: &mut Hero, p: Purchase, book: &HeroBook) -> Result<u32, Violation> {
    let (mut sheet, banked) = h.sheet(book)?;
    let max_hp_before = heroes::pools(&sheet.stats).0;
    let cost = heroes::buy(book, &mut sheet, banked, &p)?;
    h.bought.push(p);
    // R-CP-11: a stat rise that raises max HP raises the current HP as much.
    let max_hp_after = heroes::pools(&sheet.stats).0;
    if let Some(hp) = h.hp {
        let now = hp + (max_hp_after - max_hp_before);
        h.hp = (now < max_hp_after).then_some(now);
    }
    Ok(cost)
}

/// A default Core hero for quick parties and tests: one per package, equipped from the allowance.
pub fn sample_hero(name: &str, package: &str, data: &RuleData) -> Option<Hero> {
    let (stats, choices, jm, weapon, armor, shield): (Stats, Vec<&str>, Option<&str>, &str, Option<&str>, Option<&str>) = match package {
        "warrior" => (Stats { brawn: 9, finesse: 7, savvy: 5, nerve: 5 }, vec!["bows"], Some("swords"), "broadsword", Some("leather"), Some("buckler")),
        "rogue" => (Stats { brawn: 6, finesse: 9, savvy: 7, nerve: 4 }, vec![], Some("knives"), "dagger", Some("leather"), None),
        "ranger" => (Stats { brawn: 7, finesse: 9, savvy: 5, nerve: 5 }, vec!["knives", "stealth"], Some("bows"), "hunting_bow", Some("leather"), None),
        "priest" => (Stats { brawn: 7, finesse: 6, savvy: 6, nerve: 8 }, vec!["maces", "shields"], None, "mace", Some("leather"), Some("buckler")),
        "templar" => (Stats { brawn: 9, finesse: 6, savvy: 4, nerve: 7 }, vec!["swords"], Some("swords"), "shortsword", Some("leather"), Some("buckler")),
        _ => return None,
    };
    let mut h = Hero {
        version: VERSION,
        name: name.into(),
        size: Size::Medium,
        make: Make::Core { stats, package: package.into(), choices: choices.into_iter().map(String::from).collect(), journeyman: jm.map(String::from) },
        bought: Vec::new(),
        cp_earned: 0,
        weapon: Some(weapon.into()),
        weapon_skill: None,
        shield: shield.map(String::from),
        armor: armor.map(String::from),
        items: vec!["potion_of_healing".into()],
        ammo: data.equipment.ranged(weapon).map(|_| data.heroes.starting_ammo),
        purse: 0,
        hp: None,
        conditions: Vec::new(),
        player: String::new(),
    };
    let cost = h.gear_cost(data).ok()?;
    h.purse = data.heroes.allowance.checked_sub(cost)?;
    Some(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped() -> (RuleData, CheckedCampaign) {
        let data = RuleData::builtin();
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../campaigns/drowned_crown.ron");
        let c = load_campaign(&path, &data).unwrap_or_else(|e| panic!("{e}"));
        (data, c)
    }

    /// The match of the progress's level, as the game builds it.
    fn level_match(c: &CheckedCampaign, p: &Progress, data: &RuleData) -> Match {
        let id = p.level.clone().unwrap();
        let text = level_for(c, p, &id, data).unwrap();
        let root = crate::level_file::project_root(&c.level_paths[&id]);
        crate::level_file::check("level.ron", &text, data, &root).unwrap_or_else(|e| panic!("{e:?}")).build(data).unwrap()
    }

    #[test] // R-CP-14 (G-84): a recruit gets the lowest CP earned among the living, banked and earned
    fn recruits_start_with_the_lowest_cp_earned() {
        let (data, c) = shipped();
        let mut a = sample_hero("Ann", "warrior", &data).unwrap();
        a.cp_earned = 5;
        let mut b = sample_hero("Bo", "rogue", &data).unwrap();
        b.cp_earned = 3;
        let mut p = Progress::start(&c, vec![a, b], vec![], 1);
        recruit(&c, &mut p, sample_hero("Cy", "priest", &data).unwrap()).unwrap();
        let cy = p.roster.last().unwrap();
        assert_eq!(cy.cp_earned, 3);
        assert_eq!(cy.sheet(&data.heroes).unwrap().1, 3, "banked too");
        assert_eq!(recruit(&c, &mut p, sample_hero("Cy", "ranger", &data).unwrap()).unwrap_err().rule, "R-CP-14", "same name");
        recruit(&c, &mut p, sample_hero("Di", "templar", &data).unwrap()).unwrap();
        let e = recruit(&c, &mut p, sample_hero("Ed", "ranger", &data).unwrap()).unwrap_err();
        assert!(e.reason.contains("full"), "{}", e.reason);
    }

    #[test] // R-CP-10, R-CP-12: a won level: +1 CP each and the objective's CP; HP as left;
    // permanent conditions stay, the others end; a dropped weapon is picked up (the game's
    // choice); the next level follows and the heroes stand in it as they were
    fn a_won_level_awards_and_carries_over() {
        let (data, c) = shipped();
        let party = vec![sample_hero("Ann", "warrior", &data).unwrap(), sample_hero("Bo", "rogue", &data).unwrap()];
        let mut p = Progress::start(&c, party, vec![], 7);
        p.begin_level();
        let mut m = level_match(&c, &p, &data);
        let ann = m.index("hero_ann").expect("the hero is in the level");
        let max = m.fighters[ann].max_hp;
        m.fighters[ann].hp = max - 3;
        m.fighters[ann].loadout.items.push("gemstone".into());
        let pos = m.fighters[ann].pos;
        let sword = m.fighters[ann].loadout.weapon.take().unwrap();
        m.fighters[ann].loadout.dropped.push((sword.clone(), pos));
        use crate::rules::fighter::ConditionInstance;
        m.fighters[ann].conditions = vec![
            ConditionInstance { id: "slowed".into(), duration: Duration::Permanent, removal_cr: None },
            ConditionInstance { id: "poisoned".into(), duration: Duration::Persistent, removal_cr: Some(9) },
        ];
        let rep = finish_level(&c, &mut p, &m, &[], true, &data);
        let cp = |id: &str| rep.record.cp.iter().filter(|l| l.hero == id).map(|l| l.cp).sum::<u32>();
        // the level won (1) and "Nobody falls on the road" (1)
        assert_eq!((cp("hero_ann"), cp("hero_bo")), (2, 2), "{:?}", rep.record.cp);
        assert!(rep.record.cp.iter().all(|l| l.rule == "R-CP-10"));
        assert_eq!(p.level.as_deref(), Some("vault"));
        assert!(!p.plays_again(&rep.record), "won: the next level");
        assert_eq!(p.banked_cp(&data.heroes, &[0, 1]), 4, "R-CP-11: the 2 + 2 CP earned are banked to spend");
        let a = &p.roster[0];
        assert_eq!(a.cp_earned, 2);
        assert_eq!(a.hp.unwrap_or(max), (max - 3 + rep.rest_gains.get("Ann").copied().unwrap_or(0)).min(max), "HP kept, then the rest (R-CP-13)");
        assert!(a.items.contains(&"gemstone".to_string()));
        assert_eq!(a.conditions, vec!["slowed".to_string()], "only the permanent condition stays");
        assert_eq!(a.weapon.as_deref(), Some(sword.as_str()), "the dropped weapon is picked up");
        p.check_heroes(&data).expect("the carried-over heroes are valid hero files");
        // the next level has them, hurt as they are
        let m2 = level_match(&c, &p, &data);
        let i = m2.index("hero_ann").unwrap();
        assert_eq!(m2.fighters[i].hp, a.hp.unwrap_or(max));
        assert!(m2.fighters[i].loadout.items.contains(&"gemstone".to_string()));
    }

    #[test] // R-CP-12, R-CP-10: a hero dead at the end of a won level leaves the roster and earns
    // nothing; the "nobody falls" objective is missed
    fn the_dead_leave_the_roster() {
        let (data, c) = shipped();
        let party = vec![sample_hero("Ann", "warrior", &data).unwrap(), sample_hero("Bo", "rogue", &data).unwrap()];
        let mut p = Progress::start(&c, party, vec![], 7);
        p.begin_level();
        let mut m = level_match(&c, &p, &data);
        let bo = m.index("hero_bo").unwrap();
        m.fighters[bo].hp = -m.fighters[bo].max_hp;
        let rep = finish_level(&c, &mut p, &m, &[], true, &data);
        assert_eq!(rep.record.fallen, vec!["Bo".to_string()]);
        assert_eq!(p.roster.iter().map(|h| h.name.as_str()).collect::<Vec<_>>(), vec!["Ann"]);
        assert!(rep.record.cp.iter().all(|l| l.hero == "hero_ann"));
        assert_eq!(p.roster[0].cp_earned, 1, "the level won, not the objective");
    }

    #[test] // R-CP-13: a lost level is played again from the roster it started with
    fn a_lost_level_keeps_nothing() {
        let (data, c) = shipped();
        let party = vec![sample_hero("Ann", "warrior", &data).unwrap()];
        let mut p = Progress::start(&c, party.clone(), vec![], 7);
        p.begin_level();
        let mut m = level_match(&c, &p, &data);
        let ann = m.index("hero_ann").unwrap();
        m.fighters[ann].hp = 1;
        m.fighters[ann].loadout.items.clear();
        let ev = vec![Event::AttackResolved {
            actor: "hero_ann".into(),
            target: "x".into(),
            defense_cr: 6,
            attack_total: 16,
            margin: 10,
            outcome: String::new(),
            raw_damage: 0,
            reduction: 0,
            damage: 0,
            target_hp: 0,
        }];
        let rep = finish_level(&c, &mut p, &m, &ev, false, &data);
        assert!(rep.record.cp.is_empty());
        assert_eq!(p.roster, party, "nothing of the attempt is kept");
        assert_eq!(p.level.as_deref(), Some("road"));
        // the result screen: the same level is played again, and nothing is banked to spend
        assert!(p.plays_again(&rep.record), "R-CP-13: 'Play the level again', not 'Next level'");
        assert_eq!(p.banked_cp(&data.heroes, &[0]), 0, "R-CP-11: no CP banked, nothing to spend");
    }

    #[test] // R-CP-12: money carries over and buys gear between levels; a hero who lost his weapon
    // is rearmed with the best affordable weapon of his skills
    fn the_purse_buys_gear_between_levels() {
        let (data, _) = shipped();
        let mut h = sample_hero("Ann", "warrior", &data).unwrap();
        let purse = h.purse;
        assert!(buy_gear(&mut h, "greatsword", &data).unwrap_err().contains("costs $75"), "the purse is ${purse}");
        assert_eq!(buy_gear(&mut h, "torch", &data).unwrap(), 1);
        assert_eq!(h.purse, purse - 1);
        assert!(buy_gear(&mut h, "gold_coins", &data).unwrap_err().contains("not for sale"));
        h.weapon = None;
        let (w, c) = rearm(&mut h, &data).expect("rearmed");
        assert_eq!(h.weapon.as_deref(), Some(w.as_str()));
        // his Journeyman skill is swords (the sample warrior): a sword he can afford
        assert!(data.equipment.melee(&w).unwrap().modes[0].skill == "swords", "{w}");
        assert_eq!(h.purse, purse - 1 - c);
    }

    #[test] // R-CP-11: a stat rise that raises max HP raises the current HP as much; CP are spent
    // only when banked
    fn a_stat_rise_raises_current_hp() {
        let (data, _) = shipped();
        let mut h = sample_hero("Ann", "warrior", &data).unwrap();
        h.cp_earned = 3;
        h.hp = Some(4);
        let max = heroes::pools(&h.sheet(&data.heroes).unwrap().0.stats).0;
        assert_eq!(spend(&mut h, Purchase::Stat(crate::rules::equipment::Stat::Brawn), &data.heroes).unwrap(), 3, "Brawn 9 -> 10 costs 3");
        assert_eq!(heroes::pools(&h.sheet(&data.heroes).unwrap().0.stats).0, max + 1);
        assert_eq!(h.hp, Some(5));
        let e = spend(&mut h, Purchase::Skill("healing".into()), &data.heroes).unwrap_err();
        assert_eq!(e.rule, "R-CP-11");
        assert_eq!(h.bought.len(), 1, "a refused purchase is not recorded");
    }

    #[test] // a save's heroes are checked like hero files: a tampered one is refused, with its rule
    fn a_tampered_hero_in_a_save_is_refused() {
        let (data, c) = shipped();
        let mut p = Progress::start(&c, vec![sample_hero("Ann", "warrior", &data).unwrap()], vec![], 1);
        p.check_heroes(&data).unwrap();
        p.roster[0].hp = Some(i32::MAX);
        assert!(p.check_heroes(&data).unwrap_err().contains("hp 2147483647"));
        p.roster[0].hp = None;
        p.roster[0].bought = vec![Purchase::Stat(crate::rules::equipment::Stat::Brawn); 3];
        assert!(p.check_heroes(&data).unwrap_err().contains("(R-CP-11)"));
    }

    #[test] // a hero's name of any length and script gives a usable figure id
    fn long_names_give_ids_within_the_cap() {
        let (data, _) = shipped();
        let mut h = sample_hero("Ann", "warrior", &data).unwrap();
        h.name = "Ä".repeat(64);
        assert!(crate::data::id_problem(&h.id()).is_none(), "{}", h.id());
        h.name = "x".repeat(64);
        assert!(crate::data::id_problem(&h.id()).is_none(), "{}", h.id());
    }
}
