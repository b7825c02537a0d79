//! The campaign script file: what it holds, its caps, and reading it (campaign, party and
//! recruits checked as hero and campaign files are, every error located).

use super::expect::CampaignExpect;
use crate::ai::Difficulty;
use crate::campaign::{self, Campaign, CheckedCampaign, Hero, MAX_PARTY, Progress};
use crate::data::{LoadError, MessageLocator, Places, RuleData, parse_ron};
use crate::rules::command::{Command, MAX_PATH};
use crate::rules::heroes::Purchase;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A campaign script (docs/campaigns.md, "Campaign scripts").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignScript {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// The campaign: `file("../../campaigns/x.ron")` (relative to the script) or
    /// `inline(Campaign(…))` (its level and hero paths relative to the script).
    pub campaign: CampaignSource,
    /// The party; empty: the campaign's ready-made heroes.
    #[serde(default)]
    pub party: Vec<PartyHero>,
    /// Seeds the levels' dice (level n: seed + n) and the rest's.
    #[serde(default)]
    pub seed: u64,
    /// One entry per level played, in order.
    pub plays: Vec<Play>,
    /// Checked by `--check`.
    #[serde(default)]
    pub expect: Option<CampaignExpect>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CampaignSource {
    File(String),
    Inline(Campaign),
}

/// A hero: a hero file (relative to the script) or one written out here.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PartyHero {
    File(String),
    Hero(Hero),
}

/// A purchase with CP for the hero of that name (R-CP-11).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Buy {
    pub hero: String,
    pub purchase: Purchase,
}

/// One level played: what happens before it (recruits, then purchases), how it is played
/// (commands with forced dice, and the sides the AI plays), and the rest's dice after it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Play {
    /// New heroes joining before the level (R-CP-14).
    #[serde(default)]
    pub recruit: Vec<PartyHero>,
    /// CP spent before the level (R-CP-11), in order; a refused one is reported, not fatal.
    #[serde(default)]
    pub buy: Vec<Buy>,
    /// The level's commands, as a match script's (docs/scripts.md).
    #[serde(default)]
    pub commands: Vec<Command>,
    /// Die faces the level's dice throw first.
    #[serde(default)]
    pub dice: Vec<u32>,
    /// Sides the AI plays: whenever one of their figures is to act it decides, the commands
    /// are sent when a figure of another side is.
    #[serde(default)]
    pub ai: Vec<String>,
    #[serde(default)]
    pub difficulty: Difficulty,
    /// Die faces the rest after the level throws first (R-CP-13).
    #[serde(default)]
    pub rest_dice: Vec<u32>,
}

/// A campaign script's caps, checked before anything is played.
pub mod caps {
    /// Levels played in one script.
    pub const PLAYS: usize = 100;
    /// Purchases before one level.
    pub const BUYS: usize = 256;
    /// Commands the AI may send in one level before it is called unfinished.
    pub const AI_COMMANDS: usize = 20_000;
    /// The turn after which an unfinished level is given up.
    pub const TURNS: u32 = 200;
    /// Exploration turns after which an unfinished crawl is given up.
    pub const EXPLORATION_TURNS: u32 = 2_000;
}

impl CampaignScript {
    /// Every cap this script breaks, with the field it is under.
    pub fn cap_problems(&self) -> Vec<(&'static str, String)> {
        use crate::script::caps as s;
        let mut out = Vec::new();
        if let Some(p) = crate::data::text_problem("the name", &self.name, crate::data::MAX_NAME_CHARS) {
            out.push(("name", p));
        }
        if let Some(p) = crate::data::text_problem("the description", &self.description, crate::data::MAX_TEXT_CHARS) {
            out.push(("description", p));
        }
        if self.party.len() > MAX_PARTY {
            out.push(("party", format!("{} heroes in the party; the most is {MAX_PARTY}", self.party.len())));
        }
        if self.plays.is_empty() || self.plays.len() > caps::PLAYS {
            out.push(("plays", format!("{} plays; a script plays 1 to {} levels", self.plays.len(), caps::PLAYS)));
        }
        let commands: usize = self.plays.iter().map(|p| p.commands.len()).sum();
        let dice: usize = self.plays.iter().map(|p| p.dice.len() + p.rest_dice.len()).sum();
        if commands > s::COMMANDS {
            out.push(("commands", format!("{commands} commands; the most is {}", s::COMMANDS)));
        } else if let Some(n) = self.plays.iter().flat_map(|p| &p.commands).map(Command::path_len).find(|&n| n > MAX_PATH) {
            out.push(("commands", format!("a command has a path of {n} spaces; the most is {MAX_PATH}")));
        }
        if dice > s::FORCED_DICE {
            out.push(("dice", format!("{dice} forced dice; the most is {}", s::FORCED_DICE)));
        } else if let Some(f) = self.plays.iter().flat_map(|p| p.dice.iter().chain(&p.rest_dice)).find(|f| !(1..=s::FACE).contains(*f)) {
            out.push(("dice", format!("forced die {f}: a face is 1 to {} (R-DICE-9)", s::FACE)));
        }
        // each at its own field (a play's recruits or AI sides were reported at `buy`, absent: 1:1)
        if let Some(p) = self.plays.iter().find(|p| p.buy.len() > caps::BUYS) {
            out.push(("buy", format!("a play has {} purchases; the most is {}", p.buy.len(), caps::BUYS)));
        } else if let Some(p) = self.plays.iter().find(|p| p.recruit.len() > MAX_PARTY) {
            out.push(("recruit", format!("a play has {} recruits; the most is {MAX_PARTY}", p.recruit.len())));
        } else if let Some(p) = self.plays.iter().find(|p| p.ai.len() > crate::data::MAX_ENTITIES) {
            out.push(("ai", format!("a play names {} AI sides; the most is {}", p.ai.len(), crate::data::MAX_ENTITIES)));
        }
        out
    }
}

/// A campaign script read and checked: its campaign, party and recruits (per play).
#[derive(Clone, Debug)]
pub struct Loaded {
    pub script: CampaignScript,
    pub path: PathBuf,
    pub campaign: CheckedCampaign,
    pub party: Vec<Hero>,
    pub recruits: Vec<Vec<Hero>>,
}

/// An error of a text that is not the script's own, placed where the script names the thing.
fn relocated(e: LoadError, inner: &str, file: &str, text: &str) -> LoadError {
    if e.file != inner {
        return e;
    }
    let (line, col) = MessageLocator::new(text).locate(&e.message);
    LoadError { file: file.into(), line, col, message: e.message }
}

/// An error of a hero written inline, placed in the script: at the field the error is about
/// (the key on its line of the hero's text), after the hero's name.
fn inline_hero_error(e: LoadError, inner: &str, name: &str, file: &str, text: &str) -> LoadError {
    let key: String =
        inner.lines().nth(e.line.saturating_sub(1)).unwrap_or("").trim_start().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    let from = text.find(&format!("\"{name}\"")).unwrap_or(0);
    let at = text[from..].find(&format!("{key}:")).filter(|_| !key.is_empty()).map_or(from, |k| from + k);
    let line = text[..at].matches('\n').count() + 1;
    let col = text[..at].rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    LoadError { file: file.into(), line, col, message: e.message }
}

/// Reads a campaign script and checks its caps, its campaign, its heroes and its party.
pub fn load(path: &Path, data: &RuleData) -> Result<Loaded, LoadError> {
    let file = path.display().to_string();
    let text = crate::data::read_text(path, crate::data::MAX_FILE_BYTES)?;
    let script: CampaignScript = parse_ron(&file, &text)?;
    let places = Places::new(&text);
    let at = |key: &str, message: String| {
        let (line, col) = places.key(key).unwrap_or((1, 1));
        LoadError { file: file.clone(), line, col, message }
    };
    if let Some((key, message)) = script.cap_problems().into_iter().next() {
        return Err(at(key, message));
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let campaign = match &script.campaign {
        CampaignSource::File(f) => {
            if !f.ends_with(".ron") {
                return Err(at("campaign", format!("campaign '{f}' is not a campaign file (a .ron file)")));
            }
            campaign::load_campaign(&dir.join(f), data).map_err(|e| LoadError { message: format!("campaign '{f}': {}", e.message), ..e })?
        }
        CampaignSource::Inline(c) => {
            // Checked as a campaign file lying where the script lies (its paths relative to it).
            let inner = ron::ser::to_string_pretty(c, ron::ser::PrettyConfig::default().struct_names(true)).map_err(|e| at("campaign", e.to_string()))?;
            campaign::check_campaign(path, &inner, data).map_err(|e| relocated(e, &file, &file, &text))?
        }
    };
    let allowance = campaign.campaign.allowance(&data.heroes);
    let hero = |h: &PartyHero| -> Result<Hero, LoadError> {
        match h {
            PartyHero::File(f) => {
                if !f.ends_with(".ron") {
                    return Err(at("party", format!("hero file '{f}' must be a .ron file")));
                }
                campaign::load_hero(&dir.join(f), data, allowance).map(|x| x.0)
            }
            PartyHero::Hero(h) => {
                let label = format!("{file} (hero '{}')", h.name.chars().take(crate::data::MAX_ID_CHARS).collect::<String>());
                let inner = campaign::hero_text(h);
                campaign::check_hero(&label, &inner, data, Some(allowance)).map(|x| x.0).map_err(|e| inline_hero_error(e, &inner, &h.name, &file, &text))
            }
        }
    };
    let mut party = Vec::new();
    for h in &script.party {
        party.push(hero(h)?);
    }
    if party.is_empty() {
        party = campaign.heroes.clone();
    }
    // at the party written, else at the campaign whose ready-made heroes are the party
    Progress::check_party(&campaign, &party).map_err(|e| at(if script.party.is_empty() { "campaign" } else { "party" }, e))?;
    let mut recruits = Vec::new();
    for p in &script.plays {
        recruits.push(p.recruit.iter().map(&hero).collect::<Result<Vec<_>, _>>()?);
    }
    Ok(Loaded { script, path: path.to_path_buf(), campaign, party, recruits })
}
