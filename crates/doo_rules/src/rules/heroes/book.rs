//! The numbers of §25 (`HeroBook`, from `assets/rules/heroes.ron`), what CP buy and their
//! price (R-CP-11), how a hero was made (`Make`), and what he is (`Sheet`): stats, skills,
//! sets; the stats' names and the pools they give (R-STAT-3).

use crate::rules::equipment::Stat;
use crate::rules::fighter::Stats;
use crate::rules::profile::Rank;
use crate::rules::violation::{RuleResult, Violation};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// One rank's CP costs (R-CP-5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RankCost {
    pub rank: Rank,
    /// Total cost when a hero is made with this rank.
    pub creation: u32,
    /// Cost from the rank below.
    pub upgrade: u32,
}

/// A skill set (R-CP-6).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillSet {
    pub id: String,
    pub name: String,
    pub skills: Vec<String>,
    pub cost: u32,
    /// The number for rank (R-CP-8).
    pub n: usize,
}

/// One part of a skill package (R-CP-3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    Skill(String),
    Set(String),
    /// "Journeyman in one skill": +1 rank with one skill the hero has (G-76).
    Journeyman,
    /// A choice of one of these.
    OneOf(Vec<Part>),
}

impl Part {
    /// The word that chooses this option in a hero file.
    pub fn key(&self) -> &str {
        match self {
            Part::Skill(s) | Part::Set(s) => s,
            Part::Journeyman => "journeyman",
            Part::OneOf(_) => "one_of",
        }
    }
}

/// A skill package (R-CP-3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Package {
    pub id: String,
    pub name: String,
    pub parts: Vec<Part>,
}

/// The numbers of §25 (`assets/rules/heroes.ron`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeroBook {
    pub stat_range: (u32, u32),
    pub stat_arrays: Vec<[u32; 4]>,
    /// Creation cost of each stat value from `stat_range.0` up (R-CP-4).
    pub stat_costs: Vec<i32>,
    pub point_buy_budget: u32,
    pub point_buy_base: u32,
    pub ranks: Vec<RankCost>,
    pub common: Vec<String>,
    pub skills: BTreeMap<String, Stat>,
    pub sets: Vec<SkillSet>,
    pub packages: Vec<Package>,
    pub win_cp: u32,
    pub objective_cp: u32,
    pub major_cp: u32,
    pub rest_days: u32,
    pub rest_cr: i32,
    pub allowance: u32,
    pub starting_ammo: u32,
    /// R-CP-15 (G-85): the skill that makes a hero an arcane caster (at any rank).
    #[serde(default = "wizardry")]
    pub arcane_skill: String,
    /// R-CP-15 (G-85): the skill that makes a hero a divine caster.
    #[serde(default = "faith")]
    pub divine_skill: String,
}

fn wizardry() -> String {
    "wizardry".into()
}

fn faith() -> String {
    "faith".into()
}

impl HeroBook {
    pub fn set(&self, id: &str) -> Option<&SkillSet> {
        self.sets.iter().find(|s| s.id == id)
    }

    pub fn package(&self, id: &str) -> Option<&Package> {
        self.packages.iter().find(|p| p.id == id)
    }

    /// Creation cost of a stat value (R-CP-4); `None` outside the heroes' range.
    pub fn stat_cost(&self, v: u32) -> Option<i32> {
        v.checked_sub(self.stat_range.0).and_then(|k| self.stat_costs.get(k as usize)).copied()
    }

    pub(super) fn rank_cost(&self, r: Rank) -> Option<&RankCost> {
        self.ranks.iter().find(|c| c.rank == r)
    }

    /// The rank above `r` (Untrained → Apprentice …), `None` at the top.
    pub fn next_rank(&self, r: Rank) -> Option<Rank> {
        if r == Rank::Untrained {
            return self.ranks.first().map(|c| c.rank);
        }
        let k = self.ranks.iter().position(|c| c.rank == r)?;
        self.ranks.get(k + 1).map(|c| c.rank)
    }

    /// The advancement screen's label of a skill's purchase (R-CP-5, R-CP-11): the skill, the
    /// rank it has and the rank it rises to ("Axes: Journeyman -> Foreman"; "Healing: new ->
    /// Apprentice"; "Axes: Legendary Master, the highest").
    pub fn skill_step_label(&self, sheet: &Sheet, id: &str) -> String {
        let now = sheet.rank(id);
        let from = if now == Rank::Untrained { "new".to_string() } else { rank_name(now) };
        match self.next_rank(now) {
            Some(next) => format!("{}: {from} -> {}", skill_name(id), rank_name(next)),
            None => format!("{}: {from}, the highest", skill_name(id)),
        }
    }

    /// What a purchase costs now, or why it cannot be bought (R-CP-11).
    pub fn price(&self, sheet: &Sheet, p: &Purchase) -> RuleResult<u32> {
        match p {
            Purchase::Stat(s) => {
                let v = stat_of(&sheet.stats, *s);
                let (Some(now), Some(next)) = (self.stat_cost(v), self.stat_cost(v + 1)) else {
                    return Err(Violation::new(
                        "R-CP-11",
                        format!("{} is already {v}: a hero's stat goes up to {} at most.", stat_name(*s), self.stat_range.1),
                    ));
                };
                Ok((next - now).max(0) as u32)
            }
            Purchase::Skill(id) => {
                if !self.skills.contains_key(id) {
                    return Err(Violation::new("R-STAT-7", format!("There is no skill '{id}'.")));
                }
                let now = sheet.rank(id);
                let Some(next) = self.next_rank(now) else {
                    return Err(Violation::new("R-CP-5", format!("{} is already at the highest rank.", skill_name(id))));
                };
                Ok(self.rank_cost(next).map_or(0, |c| c.upgrade))
            }
            Purchase::Set(id) => {
                let Some(set) = self.set(id) else {
                    return Err(Violation::new("R-CP-6", format!("There is no skill set '{id}'.")));
                };
                if sheet.sets.contains(id) {
                    return Err(Violation::new("R-CP-7", format!("The hero already owns the {} set.", set.name)));
                }
                Ok(set.cost)
            }
        }
    }
}

/// Something CP buy between levels (R-CP-11).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Purchase {
    /// The stat +1.
    Stat(Stat),
    /// A new skill at Apprentice, or the skill's next rank.
    Skill(String),
    /// A skill set.
    Set(String),
}

impl Purchase {
    pub fn describe(&self, book: &HeroBook) -> String {
        match self {
            Purchase::Stat(s) => format!("{} +1", stat_name(*s)),
            Purchase::Skill(k) => format!("{} up a rank", skill_name(k)),
            Purchase::Set(k) => format!("the {} set", book.set(k).map_or(k.as_str(), |s| s.name.as_str())),
        }
    }
}

/// How a hero was made (R-CP-2, R-CP-4).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Make {
    /// A stat array in any order and a skill package with its choices (R-CP-2, R-CP-3).
    Core {
        stats: Stats,
        package: String,
        /// One option per `one_of` part of the package, in order.
        #[serde(default)]
        choices: Vec<String>,
        /// The skill raised to Journeyman by the package (G-76).
        #[serde(default)]
        journeyman: Option<String>,
    },
    /// Point-buy (R-CP-4): stats, skills and sets bought from a budget.
    PointBuy {
        stats: Stats,
        #[serde(default, deserialize_with = "crate::rules::de::unique_keys")]
        skills: BTreeMap<String, Rank>,
        #[serde(default)]
        sets: Vec<String>,
        /// The campaign's budget if not the rules' 20 CP.
        #[serde(default)]
        budget: Option<u32>,
    },
}

/// What a hero is: stats, skills and ranks, owned sets, package, and the CP the making left.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
pub struct Sheet {
    pub stats: Stats,
    pub skills: BTreeMap<String, Rank>,
    pub sets: BTreeSet<String>,
    pub package: Option<String>,
    /// CP the making left unspent (point-buy), banked (R-CP-4).
    pub left: u32,
}

impl Sheet {
    pub fn rank(&self, skill: &str) -> Rank {
        self.skills.get(skill).copied().unwrap_or(Rank::Untrained)
    }

    pub(super) fn raise(&mut self, skill: &str, to: Rank) {
        let r = self.skills.entry(skill.to_string()).or_insert(Rank::Untrained);
        if *r < to {
            *r = to;
        }
    }
}

pub fn stat_of(s: &Stats, k: Stat) -> u32 {
    match k {
        Stat::Brawn => s.brawn,
        Stat::Finesse => s.finesse,
        Stat::Savvy => s.savvy,
        Stat::Nerve => s.nerve,
    }
}

pub(super) fn stat_mut(s: &mut Stats, k: Stat) -> &mut u32 {
    match k {
        Stat::Brawn => &mut s.brawn,
        Stat::Finesse => &mut s.finesse,
        Stat::Savvy => &mut s.savvy,
        Stat::Nerve => &mut s.nerve,
    }
}

pub fn stat_name(k: Stat) -> &'static str {
    match k {
        Stat::Brawn => "Brawn",
        Stat::Finesse => "Finesse",
        Stat::Savvy => "Savvy",
        Stat::Nerve => "Nerve",
    }
}

/// A rank as players read it: `GrandMaster` → "Grand Master".
pub fn rank_name(r: Rank) -> String {
    match r {
        Rank::Untrained => "Untrained",
        Rank::Apprentice => "Apprentice",
        Rank::Journeyman => "Journeyman",
        Rank::Foreman => "Foreman",
        Rank::Master => "Master",
        Rank::GrandMaster => "Grand Master",
        Rank::LegendaryMaster => "Legendary Master",
    }
    .to_string()
}

/// A skill id as players read it: `lift_shift` → "Lift shift".
pub fn skill_name(id: &str) -> String {
    let s = id.replace('_', " ");
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}

pub const STATS: [Stat; 4] = [Stat::Brawn, Stat::Finesse, Stat::Savvy, Stat::Nerve];

/// R-STAT-3: HP, MP and FP of these stats (fractions round down).
/// R-CP-15 (G-85): what casting a hero's skills make him: arcane with the arcane skill (Wizardry)
/// at any rank, divine with the divine one (Faith), both with both.
pub fn caster_of(book: &HeroBook, sheet: &Sheet) -> crate::rules::fighter::Caster {
    use crate::rules::fighter::Caster;
    match (sheet.rank(&book.arcane_skill) > Rank::Untrained, sheet.rank(&book.divine_skill) > Rank::Untrained) {
        (true, true) => Caster::Both,
        (true, false) => Caster::Arcane,
        (false, true) => Caster::Divine,
        (false, false) => Caster::None,
    }
}

/// R-CP-15 (G-85): the spells a caster hero knows: every starter spell of his traditions in the
/// spell data, in its order.
pub fn known_spells(caster: crate::rules::fighter::Caster, spells: &crate::rules::spells::book::SpellBook) -> Vec<String> {
    spells.spells.iter().filter(|s| s.starter && caster.casts(s.tradition)).map(|s| s.id.clone()).collect()
}

/// R-STAT-3 (R-MANA-1, R-CP-15): max HP, and max MP and FP for the pools the hero uses as a
/// caster (0 for a pool he does not use).
pub fn caster_pools(s: &Stats, caster: crate::rules::fighter::Caster) -> (i32, i32, i32) {
    let (hp, mp, fp) = pools(s);
    (hp, if caster.arcane() { mp } else { 0 }, if caster.divine() { fp } else { 0 })
}

pub fn pools(s: &Stats) -> (i32, i32, i32) {
    let (b, sv, n) = (s.brawn as i32, s.savvy as i32, s.nerve as i32);
    (b + n / 2, sv + n / 2, n + sv / 2)
}
