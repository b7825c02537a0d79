//! Where a campaign stands (`Progress`, which a save carries): the roster, the level to play,
//! the history; its checks when read from a save; and recruits joining between levels.

use super::caps::{MAX_BOUGHT, MAX_CP, MAX_HISTORY, MAX_ITEMS, MAX_PARTY};
use super::file::CheckedCampaign;
use super::hero::{Hero, check_hero, hero_text};
use crate::data::RuleData;
use crate::rules::heroes::{CpLine, HeroBook};
use crate::rules::violation::Violation;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

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
    /// Foes down or dead when the level ended (a delve's run summary counts them).
    #[serde(default)]
    pub foes: u32,
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
        heroes.iter().filter_map(|&k| self.roster.get(k)).filter_map(|h| h.sheet(book).ok()).fold(0u32, |n, (_, banked)| n.saturating_add(banked))
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

    /// Whether `party` may begin the campaign: its size within the campaign's bounds, no two
    /// heroes whose figures would share an id, and no point-buy hero made on a budget above the
    /// campaign's (R-CP-4).
    pub fn check_party(c: &CheckedCampaign, party: &[Hero]) -> Result<(), String> {
        let k = &c.campaign;
        if party.len() < k.party_min || party.len() > k.party_max {
            return Err(format!("The party is {} to {} heroes; {} are chosen.", k.party_min, k.party_max, party.len()));
        }
        let mut ids = BTreeSet::new();
        if let Some(h) = party.iter().find(|h| !ids.insert(h.id())) {
            return Err(format!("Two heroes share the name {} (or one too like it): rename one.", h.name));
        }
        if let Some(p) = party.iter().find_map(|h| c.budget_problem(h)) {
            return Err(format!("{p}."));
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

/// R-CP-14 (G-84): a new or replacement hero joins between levels with banked and earned CP
/// equal to the lowest "CP earned" among the living heroes (the campaign's `start_cp` when there
/// are none). Refused when the party is full, a hero already has his name, or he was made on a
/// point-buy budget above the campaign's (R-CP-4).
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
    if let Some(p) = c.budget_problem(&hero) {
        return Err(Violation::new("R-CP-4", format!("{p}.")));
    }
    hero.cp_earned = progress.roster.iter().map(|h| h.cp_earned).min().unwrap_or(c.campaign.start_cp);
    progress.roster.push(hero);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::{sample_hero, shipped};
    use crate::rules::heroes::Purchase;

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

    #[test] // R-CP-4 (issue 42): a hero's point-buy budget is tied to the campaign's: one made on
    // more than it (the rules' 20 CP here) neither begins the campaign nor joins it as a recruit
    fn a_hero_made_on_a_bigger_budget_is_refused() {
        use crate::rules::fighter::Stats;
        use crate::rules::heroes::Make;
        let (data, c) = shipped();
        assert_eq!(c.budget, 20);
        let mut pip = sample_hero("Pip", "warrior", &data).unwrap();
        pip.make = Make::PointBuy { stats: Stats { brawn: 8, finesse: 8, savvy: 8, nerve: 6 }, skills: Default::default(), sets: vec![], budget: Some(30) };
        let e = Progress::check_party(&c, std::slice::from_ref(&pip)).unwrap_err();
        assert_eq!(e, "Pip was made on a budget of 30 CP; this campaign's is 20 CP (R-CP-4).");
        let mut p = Progress::start(&c, vec![sample_hero("Ann", "warrior", &data).unwrap()], vec![], 1);
        assert_eq!(recruit(&c, &mut p, pip.clone()).unwrap_err().rule, "R-CP-4");
        // within the campaign's budget: welcome
        pip.make = Make::PointBuy { stats: Stats { brawn: 8, finesse: 8, savvy: 8, nerve: 6 }, skills: Default::default(), sets: vec![], budget: Some(20) };
        Progress::check_party(&c, std::slice::from_ref(&pip)).unwrap();
        recruit(&c, &mut p, pip).unwrap();
    }
}
