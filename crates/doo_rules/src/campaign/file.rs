//! Campaign files (`campaigns/*.ron`, docs/campaigns.md): the levels, where a win or a loss
//! leads, the objectives, the ready-made heroes, and the checks of the file.

use super::caps::{MAX_BUDGET, MAX_CP, MAX_LEVELS, MAX_OBJECTIVE_CP, MAX_OBJECTIVES, MAX_PARTY, MAX_PURSE, MAX_REST_DAYS, VERSION};
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
    /// The point-buy budget of its heroes (R-CP-4: the rules' 20 CP unless the campaign says).
    pub fn point_buy_budget(&self, book: &HeroBook) -> u32 {
        self.point_buy_budget.unwrap_or(book.point_buy_budget)
    }
    /// Whether every level leads to the end by winning (the proof `check_campaign` makes):
    /// each level's win goes to one level or ends the campaign, so the end is reachable from a
    /// level, along whatever mix of wins and losses led there, exactly when following wins from
    /// it never comes back to a level already passed. Returns the first level (in the order the
    /// party can reach them, then the file's) from which winning loops, with the loop.
    pub fn win_loop(&self) -> Option<(String, Vec<String>)> {
        let n = self.levels.len();
        let index = |id: &str| self.levels.iter().position(|l| l.id == id);
        // 0: not seen, 1: on the path being followed, 2: reaches the end
        let mut state = vec![0u8; n];
        let mut order: Vec<usize> = Vec::with_capacity(n);
        // the levels the party can reach first (breadth first over wins and losses), then the rest
        let mut seen = vec![false; n];
        let mut queue = std::collections::VecDeque::from([0usize]);
        seen[0] = true;
        while let Some(k) = queue.pop_front() {
            order.push(k);
            let id = &self.levels[k].id;
            for next in [self.after_win(id), Some(self.after_loss(id))].into_iter().flatten() {
                if let Some(j) = index(&next).filter(|&j| !seen[j]) {
                    seen[j] = true;
                    queue.push_back(j);
                }
            }
        }
        order.extend((0..n).filter(|&k| !seen[k]));
        for start in order {
            let mut path = Vec::new();
            let mut cur = Some(start);
            while let Some(k) = cur {
                match state[k] {
                    2 => break,
                    1 => {
                        let from = path.iter().position(|&p| p == k).unwrap_or(0);
                        let mut cycle: Vec<String> = path[from..].iter().map(|&p: &usize| self.levels[p].id.clone()).collect();
                        cycle.push(self.levels[k].id.clone());
                        return Some((self.levels[k].id.clone(), cycle));
                    }
                    _ => {}
                }
                state[k] = 1;
                path.push(k);
                cur = self.after_win(&self.levels[k].id).and_then(|id| index(&id));
            }
            for k in path {
                state[k] = 2;
            }
        }
        None
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
    /// The point-buy budget of its heroes (R-CP-4: the campaign's, else the rules'), and the
    /// rules' (what a hero file's `budget: None` means).
    pub budget: u32,
    pub rules_budget: u32,
}

impl CheckedCampaign {
    /// R-CP-4: a point-buy hero made on a budget above the campaign's cannot play in it (his
    /// leftover CP would be banked past what the campaign gives).
    pub fn budget_problem(&self, hero: &Hero) -> Option<String> {
        let budget = match &hero.make {
            crate::rules::heroes::Make::PointBuy { budget, .. } => budget.unwrap_or(self.rules_budget),
            crate::rules::heroes::Make::Core { .. } => return None,
        };
        (budget > self.budget).then(|| format!("{} was made on a budget of {budget} CP; this campaign's is {} CP (R-CP-4)", hero.name, self.budget))
    }

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
    // A level's own entry: its `id: "x"` (else where the message's ids are).
    let at_level = |id: &str, message: String| {
        let needle = format!("\"{id}\"");
        let entry = text.match_indices(&needle).map(|(i, _)| i).find(|&i| text[..i].trim_end().ends_with("id:"));
        let (line, col) = entry.map_or_else(|| loc.locate(&message), |i| places.at_offset(i));
        LoadError { file: file.clone(), line, col, message }
    };
    let c: Campaign = parse_ron(&file, text)?;
    if c.version != VERSION {
        return Err(at_key("version", format!("campaign files are version {VERSION}; this one is version {}", c.version)));
    }
    if let Some(p) = crate::data::text_problem("the name", &c.name, crate::data::MAX_NAME_CHARS) {
        return Err(at_key("name", p));
    }
    if let Some(p) = crate::data::text_problem("the story", &c.story, crate::data::MAX_TEXT_CHARS) {
        return Err(at_key("story", p));
    }
    if let Some((key, message)) = cap_problem(&c, &places) {
        return Err(at_key(key, message));
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
        if l.objectives.len() > MAX_OBJECTIVES {
            return Err(at_id(format!("level '{}': {} objectives; the most is {MAX_OBJECTIVES}", l.id, l.objectives.len())));
        }
        for o in &l.objectives {
            if let Some(p) = crate::data::text_problem("an objective's name", &o.name, crate::data::MAX_NAME_CHARS) {
                return Err(at_id(format!("level '{}': {p}", l.id)));
            }
            if let Some(cp) = o.cp.filter(|&cp| cp > MAX_OBJECTIVE_CP) {
                return Err(at_id(format!("level '{}': objective '{}': cp {cp}: the most is {MAX_OBJECTIVE_CP} (R-CP-10)", l.id, o.name)));
            }
        }
    }
    for l in &c.levels {
        for (what, target) in [("next", &l.next), ("on_failure", &l.on_failure)] {
            if let Some(t) = target.as_ref().filter(|t| !ids.contains(t.as_str())) {
                return Err(at_id(format!("level '{}': {what} names no level of this campaign: '{t}'", l.id)));
            }
        }
    }
    // The end is reachable from every level along every branch: winning never loops.
    if let Some((id, cycle)) = c.win_loop() {
        let cycle = cycle.iter().map(|l| format!("'{l}'")).collect::<Vec<_>>().join(" → ");
        return Err(at_level(&id, format!("level '{id}': winning {cycle} comes back to it, so from there the campaign never ends")));
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut level_paths = BTreeMap::new();
    for l in &c.levels {
        if !l.level.ends_with(".ron") {
            return Err(at_id(format!("level '{}': the level file must be a .ron file: '{}'", l.id, l.level)));
        }
        let p = dir.join(&l.level);
        let level_text = match crate::data::read_text(&p, crate::data::MAX_FILE_BYTES) {
            Ok(t) => t,
            Err(e) => return Err(at_id(format!("level '{}': '{}': {}", l.id, l.level, e.message))),
        };
        let checked = crate::level_file::load(&p, data, &crate::level_file::project_root(&p)).map_err(|e| {
            let first = &e[0];
            LoadError { file: p.display().to_string(), line: first.line, col: first.col, message: first.message.clone() }
        })?;
        if !checked.sides.iter().any(|s| s.id == c.party_side) {
            return Err(at_id(format!("level '{}': the level has no side '{}' for the party", l.id, c.party_side)));
        }
        // The party's figures are replaced by the heroes (`level_for`): the level may not name
        // them, and must have room for the largest party.
        if let Some(e) = party_figure_named(&checked, &c.party_side, &p, &level_text) {
            return Err(LoadError { message: format!("campaign level '{}': {}", l.id, e.message), ..e });
        }
        let room = super::room::party_starts(&checked, &c.party_side, c.party_max).len();
        if room < c.party_max {
            return Err(at_level(
                &l.id,
                format!(
                    "level '{}': the level has room for {room} hero{} on side '{}'; the party may have {}",
                    l.id,
                    if room == 1 { "" } else { "es" },
                    c.party_side,
                    c.party_max
                ),
            ));
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
    let (budget, rules_budget) = (c.point_buy_budget(&data.heroes), data.heroes.point_buy_budget);
    let checked = CheckedCampaign { campaign: c, path: path.to_path_buf(), hash: crate::data::level_hash(text), level_paths, heroes, budget, rules_budget };
    for (h, hero) in checked.campaign.heroes.iter().zip(&checked.heroes) {
        if let Some(p) = checked.budget_problem(hero) {
            return Err(at_id(format!("hero file '{h}': {p}")));
        }
    }
    Ok(checked)
}

/// The first field of `c` past its cap (docs/campaigns.md, "Caps"), with the key it is at:
/// every number of the file is checked here, before anything adds them up.
fn cap_problem(c: &Campaign, places: &Places) -> Option<(&'static str, String)> {
    if c.levels.is_empty() {
        return Some(("levels", "a campaign needs at least one level".into()));
    }
    if c.levels.len() > MAX_LEVELS {
        return Some(("levels", format!("{} levels; the most is {MAX_LEVELS}", c.levels.len())));
    }
    if c.party_min == 0 || c.party_min > c.party_max || c.party_max > MAX_PARTY {
        // at the field written (party_max may be left at its default)
        let key = if places.key("party_max").is_some() && (c.party_max > MAX_PARTY || places.key("party_min").is_none()) { "party_max" } else { "party_min" };
        return Some((key, format!("the party is 1 to {MAX_PARTY} heroes, party_min ≤ party_max (here {}..{})", c.party_min, c.party_max)));
    }
    if c.heroes.len() > MAX_PARTY * 4 {
        return Some(("heroes", format!("{} ready-made heroes; the most is {}", c.heroes.len(), MAX_PARTY * 4)));
    }
    // Every number of the file within its cap (docs/campaigns.md), at its own key.
    if c.start_cp > MAX_CP {
        return Some(("start_cp", format!("start_cp {}: the most is {MAX_CP}", c.start_cp)));
    }
    if let Some(a) = c.allowance.filter(|&a| a > MAX_PURSE) {
        return Some(("allowance", format!("allowance {a}: the most is {MAX_PURSE}")));
    }
    if let Some(d) = c.rest_days.filter(|&d| d > MAX_REST_DAYS) {
        return Some(("rest_days", format!("rest_days {d}: the most is {MAX_REST_DAYS}")));
    }
    if let Some(b) = c.point_buy_budget.filter(|&b| b > MAX_BUDGET) {
        return Some(("point_buy_budget", format!("point_buy_budget {b}: the most is {MAX_BUDGET} (R-CP-4)")));
    }
    None
}

/// A figure of the party's side that the level names elsewhere (a goal, a level event): the
/// campaign replaces those figures by its heroes, so the name would point at nobody. The error
/// is placed in the level file, where the name is used.
fn party_figure_named(level: &crate::level_file::CheckedLevel, side: &str, path: &Path, text: &str) -> Option<LoadError> {
    use crate::rules::goal::Goal;
    let party: BTreeSet<&str> = level.characters.iter().filter(|ch| ch.side == side).map(|ch| ch.id.as_str()).collect();
    let mut named: Vec<(&str, String)> = Vec::new();
    for v in &level.level.victory {
        if let Goal::Defeat(id) = &v.goal {
            named.push(("victory", id.clone()));
        }
    }
    // Every figure an event names: its trigger, its condition, its actions (issue 46).
    for e in &level.level.events {
        named.extend(e.figures().into_iter().map(|f| ("events", f)));
    }
    let (key, id) = named.into_iter().find(|(_, id)| party.contains(id.as_str()))?;
    let places = Places::new(text);
    let from = places.key_offset(key).unwrap_or(0);
    let at = text[from..].find(&format!("\"{id}\"")).map_or(from, |i| from + i);
    let (line, col) = places.at_offset(at);
    let what = if key == "victory" { "a goal" } else { "a level event" };
    Some(LoadError {
        file: path.display().to_string(),
        line,
        col,
        message: format!("{what} names '{id}', a figure of side '{side}', which a campaign replaces by its heroes: name the side instead"),
    })
}

/// Reads and checks a campaign file from disk.
pub fn load_campaign(path: &Path, data: &RuleData) -> Result<CheckedCampaign, LoadError> {
    let text = crate::data::read_text(path, crate::data::MAX_FILE_BYTES)?;
    check_campaign(path, &text, data)
}
