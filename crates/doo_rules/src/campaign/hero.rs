//! Hero files (`heroes/*.ron`, docs/heroes.md): a hero as his file holds him, his sheet rebuilt
//! by the rules, his figure in a level, the file's checks, and the sample heroes of quick parties.

use super::caps::{MAX_BOUGHT, MAX_BUDGET, MAX_CP, MAX_ITEMS, MAX_PURSE, VERSION};
use crate::data::{LoadError, MessageLocator, Places, RuleData, parse_ron};
use crate::level_file::CharacterEntry;
use crate::rules::fighter::{Duration, Size, Stats};
use crate::rules::heroes::{self, HeroBook, Make, Purchase, Sheet};
use crate::rules::profile::Rank;
use crate::rules::violation::Violation;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// How the game speaks of a hero: "he", "she" or "they" (the default, for a file that does not say).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pronouns {
    He,
    She,
    #[default]
    They,
}

impl Pronouns {
    fn is_default(&self) -> bool {
        *self == Pronouns::They
    }

    /// The subject: "he", "she", "they".
    pub fn subject(self) -> &'static str {
        match self {
            Pronouns::He => "he",
            Pronouns::She => "she",
            Pronouns::They => "they",
        }
    }

    /// The possessive: "his", "her", "their".
    pub fn possessive(self) -> &'static str {
        match self {
            Pronouns::He => "his",
            Pronouns::She => "her",
            Pronouns::They => "their",
        }
    }

    /// The verb after the subject: `verb("sits", "sit")` is "sits" for he and she, "sit" for they.
    pub fn verb<'a>(self, one: &'a str, they: &'a str) -> &'a str {
        if self == Pronouns::They { they } else { one }
    }
}

/// A hero as a file holds him (docs/heroes.md): how he was made and what he bought since, from
/// which the rules rebuild his stats and skills; his CP; his gear, purse, wounds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hero {
    pub version: u32,
    pub name: String,
    #[serde(default)]
    pub size: Size,
    /// How the game speaks of him (the campaign's result screen): he, she or they (default).
    #[serde(default, skip_serializing_if = "Pronouns::is_default")]
    pub pronouns: Pronouns,
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
    /// A light still burning in his hand when his last level ended, with its minutes left
    /// (R-CP-12: burn time as left): he holds it burning at the start of the next crawl.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub light: Option<HeroLight>,
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

/// A burning light a hero carries over (R-CP-12, R-EXP-18): a light of the exploration book and
/// its minutes left, 1 to its full time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeroLight {
    pub item: String,
    pub minutes: u32,
}

impl Hero {
    /// The hero's sheet and his banked CP, rebuilt by the rules: the making, then every purchase
    /// in order (R-CP-2/4, R-CP-11).
    pub fn sheet(&self, book: &HeroBook) -> Result<(Sheet, u32), Violation> {
        let mut sheet = heroes::make(book, &self.make)?;
        let mut spent: u64 = 0;
        for p in &self.bought {
            spent = spent.saturating_add(heroes::buy(book, &mut sheet, u32::MAX, p)? as u64);
        }
        let have = sheet.left as u64 + self.cp_earned as u64;
        if spent > have {
            return Err(Violation::new("R-CP-11", format!("{} spent {spent} CP but had only {have} (CP are spent only when banked).", self.name)));
        }
        // Within the caps (budget and CP earned) this always fits; past them it is refused, never
        // wrapped.
        let banked = u32::try_from(have - spent)
            .map_err(|_| Violation::new("R-CP-4", format!("{} would have {} CP banked, more than a hero can bank.", self.name, have - spent)))?;
        Ok((sheet, banked))
    }

    /// The id the hero's figure has in a level (within the ids' length cap, whatever the name).
    pub fn id(&self) -> String {
        let slug: String = self.name.to_lowercase().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
        let slug: String = slug.trim_matches('_').chars().take(crate::data::MAX_ID_CHARS - "hero_".len()).collect();
        format!("hero_{slug}")
    }

    /// His figure in a level, at `pos`, on `side`: a hero (he earns CP, R-CP-9), and a caster of
    /// the starter spells of his traditions when his skills make him one (R-CP-15), his pools
    /// full (R-CP-12).
    pub fn entry(&self, sheet: &Sheet, side: &str, pos: crate::rules::Pos, data: &RuleData) -> CharacterEntry {
        let (max_hp, _, _) = heroes::pools(&sheet.stats);
        let caster = heroes::caster_of(&data.heroes, sheet);
        let spells = heroes::known_spells(caster, &data.spells);
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
            caster: (caster != crate::rules::fighter::Caster::None).then_some(caster),
            spells: (!spells.is_empty()).then_some(spells),
            hero: Some(true),
            conditions: (!self.conditions.is_empty()).then(|| self.conditions.iter().map(|c| c.as_str().into()).collect()),
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
            // A spare weapon, shield or armor carried costs what it costs worn.
            let cost = match eq.item(i) {
                Some(item) => item.cost.ok_or_else(|| format!("'{i}' is not for sale: a new hero cannot start with it (R-CP-14)"))?,
                None => eq.gear_cost(i).ok_or_else(|| format!("unknown item '{i}'"))?,
            };
            total = total.saturating_add(cost);
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
    if hero.size == Size::Large {
        return Err(fail("size", "size large: a hero is medium or small (G-75)".into()));
    }
    if let Make::PointBuy { budget: Some(b), .. } = &hero.make
        && *b > MAX_BUDGET
    {
        return Err(fail("budget", format!("budget {b}: a point-buy budget is at most {MAX_BUDGET} CP, the most a campaign's may be (R-CP-4)")));
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
    if let Some(l) = &hero.light {
        // R-EXP-18, R-CP-12: a light of the book, with 1 to its full minutes left.
        let Some(row) = data.exploration.lights.iter().find(|r| r.item == l.item) else {
            let known: Vec<&str> = data.exploration.lights.iter().map(|r| r.item.as_str()).collect();
            return Err(fail("light", format!("'{}' is not a light (known: {})", l.item, known.join(", "))));
        };
        if !(1..=row.minutes).contains(&l.minutes) {
            return Err(fail("light", format!("light '{}': minutes {} is out of range (1 to {}, R-EXP-18)", l.item, l.minutes, row.minutes)));
        }
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
            // at the purse, else at the gear that costs (a field left out cannot be pointed at)
            let key = ["purse", "items", "armor", "weapon", "shield"].into_iter().find(|k| places.key(k).is_some()).unwrap_or("make");
            return Err(fail(
                key,
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
        pronouns: Pronouns::They,
        make: Make::Core { stats, package: package.into(), choices: choices.into_iter().map(String::from).collect(), journeyman: jm.map(String::from) },
        bought: Vec::new(),
        cp_earned: 0,
        weapon: Some(weapon.into()),
        weapon_skill: None,
        shield: shield.map(String::from),
        armor: armor.map(String::from),
        items: vec!["potion_of_healing".into()],
        ammo: data.equipment.ranged(weapon).map(|_| data.heroes.starting_ammo),
        light: None,
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
    use crate::campaign::shipped;

    #[test] // a hero's name of any length and script gives a usable figure id
    fn long_names_give_ids_within_the_cap() {
        let (data, _) = shipped();
        let mut h = sample_hero("Ann", "warrior", &data).unwrap();
        h.name = "Ä".repeat(64);
        assert!(crate::data::id_problem(&h.id()).is_none(), "{}", h.id());
        h.name = "x".repeat(64);
        assert!(crate::data::id_problem(&h.id()).is_none(), "{}", h.id());
    }

    #[test] // R-RNG-1, R-CP-3 (issue 29, bug 4): Lunk's hero file chose Thrown Weapons; every
    // throwing weapon is used with that skill, so he throws trained (Apprentice, not Untrained)
    fn a_hero_trained_in_thrown_weapons_throws_trained() {
        let (data, _) = shipped();
        let (_, sheet, _) = check_hero("heroes/lunk.ron", include_str!("../../../../heroes/lunk.ron"), &data, Some(data.heroes.allowance)).unwrap();
        for id in ["throwing_knife", "throwing_axe", "javelin", "spear"] {
            let skill = &data.equipment.ranged(id).unwrap().skill;
            assert_eq!(sheet.rank(skill), crate::rules::profile::Rank::Apprentice, "{id} is thrown with '{skill}'");
        }
    }

    #[test] // R-CP-12, R-CP-14 (issue 29, bug 5): a hero carrying a spare weapon is a valid hero
    // file, and the level he is put in takes him with it (it said "unknown item"); a new hero
    // pays for the spare at its price
    fn a_spare_weapon_is_carried_into_the_level() {
        use crate::campaign::{Progress, level_for};
        let (data, c) = shipped();
        let mut vet = sample_hero("Ann", "warrior", &data).unwrap();
        vet.cp_earned = 3;
        vet.items.push("dagger".into());
        let text = hero_text(&vet);
        check_hero("ann.ron", &text, &data, Some(data.heroes.allowance)).unwrap_or_else(|e| panic!("{e}"));
        let mut p = Progress::start(&c, vec![vet], vec![], 7);
        p.begin_level();
        let id = p.level.clone().unwrap();
        let level = level_for(&c, &p, &id, &data).unwrap();
        let root = crate::level_file::project_root(&c.level_paths[&id]);
        let m = crate::level_file::check("level.ron", &level, &data, &root).unwrap_or_else(|e| panic!("{e:?}")).build(&data).unwrap();
        let ann = m.index("hero_ann").expect("the hero is in the level");
        assert!(m.fighters[ann].loadout.items.contains(&"dagger".to_string()));
        // a new hero's spare dagger is priced like a wielded one
        let mut new = sample_hero("Bo", "warrior", &data).unwrap();
        let before = new.gear_cost(&data).unwrap();
        new.items.push("dagger".into());
        assert_eq!(new.gear_cost(&data), Ok(before + data.equipment.melee("dagger").unwrap().cost));
    }
}
