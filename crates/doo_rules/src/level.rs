//! Level files (RON under `levels/`): the map as text rows, sides and characters, the profile
//! and options. Builds the rules-side `Match`. (The full format and its validator grow with the
//! levels issue; this is the part the rules engine and the runner need.)

use crate::data::RuleData;
use crate::rules::fighter::{ActionPoints, Caster, ConditionInstance, Duration, Fighter, FreeSteps, Loadout, OpportunityRecord, Size, Stats, TurnRecord};
use crate::rules::grid::{Board, Pos};
use crate::rules::profile::{OptionOverrides, Posture, Rank};
use crate::rules::state::{Clock, Match};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A character as a level or script writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterDef {
    pub id: String,
    #[serde(default)]
    pub name: Option<String>,
    pub side: String,
    pub pos: Pos,
    pub stats: Stats,
    #[serde(default)]
    pub size: Size,
    /// Free-step allowance if not the size's (R-FS-1, G-47).
    #[serde(default)]
    pub free_steps: Option<u32>,
    #[serde(default, deserialize_with = "crate::rules::de::unique_keys")]
    pub skills: BTreeMap<String, Rank>,
    #[serde(default)]
    pub abilities: Vec<String>,
    #[serde(default)]
    pub weapon: Option<String>,
    #[serde(default)]
    pub weapon_skill: Option<String>,
    #[serde(default)]
    pub two_handed: bool,
    #[serde(default)]
    pub shield: Option<String>,
    #[serde(default)]
    pub armor: Option<String>,
    #[serde(default)]
    pub items: Vec<String>,
    #[serde(default)]
    pub caster: Caster,
    /// Current HP if not full.
    #[serde(default)]
    pub hp: Option<i32>,
    #[serde(default)]
    pub posture: Option<Posture>,
    /// Condition ids (the table's duration, no removal CR of their own), or full entries.
    #[serde(default)]
    pub conditions: Vec<ConditionEntry>,
    /// Current Mana and Faith points if not full (R-MANA-1).
    #[serde(default)]
    pub mp: Option<i32>,
    #[serde(default)]
    pub fp: Option<i32>,
    #[serde(default)]
    pub surprised: bool,
    /// AP-roll bonus from items (legacy Potion of the Zephyr +1).
    #[serde(default)]
    pub ap_roll_bonus: i32,
    /// A minor monster: dies at 0 HP instead of dying slowly (G-14).
    #[serde(default)]
    pub mook: bool,
    /// Shots or throws carried for the ranged weapon (R-RNG-9); not counted when absent.
    #[serde(default)]
    pub ammo: Option<u32>,
    /// Whether the crossbow starts loaded (G-22); `Some(false)`: it must be reset before it
    /// shoots (R-RNG-8). Absent: loaded.
    #[serde(default)]
    pub loaded: Option<bool>,
    /// Spells known (ids in `assets/rules/spells.ron`).
    #[serde(default)]
    pub spells: Vec<String>,
    /// A hero (a campaign's party member): he earns CP in play (R-CP-9, `cp_earned` events).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hero: bool,
    /// R-EXP-11: whether he opens and closes doors (`false`: an animal, say). Default true.
    #[serde(default = "crate::level::yes", skip_serializing_if = "crate::level::is_yes")]
    pub opens_doors: bool,
}

pub(crate) fn yes() -> bool {
    true
}

pub(crate) fn is_yes(b: &bool) -> bool {
    *b
}

/// A starting condition: its id (`"bleeding"`: the table's duration class, the table's removal
/// CR), or `(id: "stunned", duration: persistent, removal_cr: Some(7))` (R-COND-1).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ConditionEntry {
    Id(String),
    Full(ConditionSpec),
}

/// An id string or a `ConditionSpec` record, read so that a wrong field in the record is
/// reported by name (an untagged enum would only say that nothing matched).
impl<'de> Deserialize<'de> for ConditionEntry {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = ConditionEntry;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a condition id, or (id: \"…\", duration: …, removal_cr: …)")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<ConditionEntry, E> {
                Ok(ConditionEntry::Id(v.to_string()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, a: A) -> Result<ConditionEntry, A::Error> {
                ConditionSpec::deserialize(serde::de::value::MapAccessDeserializer::new(a)).map(ConditionEntry::Full)
            }
        }
        d.deserialize_any(V)
    }
}

/// A starting condition written in full: the duration class defaults to the table's; without
/// `removal_cr` the table's CR applies at the removal checks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConditionSpec {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<Duration>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removal_cr: Option<i32>,
}

impl ConditionEntry {
    pub fn id(&self) -> &str {
        match self {
            ConditionEntry::Id(s) => s,
            ConditionEntry::Full(c) => &c.id,
        }
    }
}

impl From<&str> for ConditionEntry {
    fn from(s: &str) -> Self {
        ConditionEntry::Id(s.to_string())
    }
}

/// The ranges every number of a character must fall in (docs/levels.md, "Numbers"). Values
/// outside are refused when the file is read, so play never meets them.
pub mod ranges {
    /// Primary stats (R-STAT-2: heroes 3–12, monsters and NPCs 1–20; the "or more" of the rule
    /// is left to a later ruleset, so no die or table meets a rank it does not know).
    pub const STAT: (u32, u32) = (1, 20);
    /// A free-step allowance (R-FS-1).
    pub const FREE_STEPS: (u32, u32) = (0, 10);
    /// Current HP, when given: down to −100 (dying and dead figures), up to the figure's maximum.
    pub const MIN_HP: i32 = -100;
    /// Mana or Faith points set by a script.
    pub const POOL: (i32, i32) = (-100, 100);
    /// The AP-roll bonus from items.
    pub const AP_ROLL_BONUS: (i32, i32) = (-10, 10);
    /// Shots or throws carried.
    pub const AMMO: (u32, u32) = (0, 999);
    /// The removal CR a starting condition may carry (the script start's cap).
    pub const REMOVAL_CR: (i32, i32) = (0, 30);
    /// Entries of one list or map of a character (skills, abilities, items, spells, conditions).
    pub const LIST: usize = 64;
}

fn out_of(what: &str, v: impl std::fmt::Display, (lo, hi): (impl std::fmt::Display, impl std::fmt::Display)) -> String {
    format!("{what} {v} is out of range ({lo} to {hi})")
}

/// Checks one character against the rule data and ruleset and builds its fighter. Nothing here
/// looks at the board: [`build_match`] places the figures.
pub fn fighter_from_def(data: &RuleData, rules: &crate::rules::profile::Ruleset, c: &CharacterDef) -> Result<Fighter, Vec<String>> {
    let mut errors = Vec::new();
    if let Some(p) = crate::data::id_problem(&c.id) {
        errors.push(format!("character id: {p}"));
    }
    if let Some(p) = crate::data::id_problem(&c.side) {
        errors.push(format!("character '{}': side: {p}", c.id));
    }
    if let Some(p) = c.name.as_deref().and_then(|n| crate::data::text_problem("the name", n, crate::data::MAX_NAME_CHARS)) {
        errors.push(format!("character '{}': {p}", c.id));
    }
    for (stat, v) in [("brawn", c.stats.brawn), ("finesse", c.stats.finesse), ("savvy", c.stats.savvy), ("nerve", c.stats.nerve)] {
        if !(ranges::STAT.0..=ranges::STAT.1).contains(&v) {
            errors.push(format!("character '{}': {} (R-STAT-2)", c.id, out_of(stat, v, ranges::STAT)));
        }
    }
    if let Some(fs) = c.free_steps.filter(|v| !(ranges::FREE_STEPS.0..=ranges::FREE_STEPS.1).contains(v)) {
        errors.push(format!("character '{}': {}", c.id, out_of("free_steps", fs, ranges::FREE_STEPS)));
    }
    if !(ranges::AP_ROLL_BONUS.0..=ranges::AP_ROLL_BONUS.1).contains(&c.ap_roll_bonus) {
        errors.push(format!("character '{}': {}", c.id, out_of("ap_roll_bonus", c.ap_roll_bonus, ranges::AP_ROLL_BONUS)));
    }
    if let Some(a) = c.ammo.filter(|v| !(ranges::AMMO.0..=ranges::AMMO.1).contains(v)) {
        errors.push(format!("character '{}': {}", c.id, out_of("ammo", a, ranges::AMMO)));
    }
    for (what, n) in
        [("skills", c.skills.len()), ("abilities", c.abilities.len()), ("items", c.items.len()), ("spells", c.spells.len()), ("conditions", c.conditions.len())]
    {
        if n > ranges::LIST {
            errors.push(format!("character '{}': {n} {what}; the most is {}", c.id, ranges::LIST));
        }
    }
    if !errors.is_empty() {
        // Ranges first: the checks below would only repeat them, or work on nonsense.
        return Err(errors);
    }
    for (what, id) in [("weapon", &c.weapon), ("shield", &c.shield), ("armor", &c.armor)] {
        if let Some(id) = id {
            let ok = match what {
                "weapon" => data.equipment.melee(id).is_some() || data.equipment.ranged(id).is_some(),
                "shield" => data.equipment.shield(id).is_some(),
                _ => data.equipment.armor(id).is_some(),
            };
            if !ok {
                errors.push(format!("character '{}': unknown {what} '{id}'", c.id));
            }
        }
    }
    // R-GEAR-2, R-GEAR-8, R-RNG-6: grips and hands.
    if let Some(w) = c.weapon.as_deref() {
        if let Some(mw) = data.equipment.melee(w) {
            if c.two_handed && mw.modes.iter().all(|m| m.two_hand_brawn.is_none()) {
                errors.push(format!("character '{}': '{w}' cannot be used two-handed (R-GEAR-2)", c.id));
            }
            if c.two_handed && c.shield.is_some() {
                errors.push(format!("character '{}': a shield cannot be carried with a two-handed weapon (R-GEAR-8)", c.id));
            }
        }
        if let Some(rw) = data.equipment.ranged(w) {
            if rw.hands >= 2 && c.shield.is_some() {
                errors.push(format!("character '{}': '{w}' needs both hands, so no shield (R-RNG-6)", c.id));
            }
        }
    }
    for sp in &c.spells {
        if data.spells.get(sp).is_none() {
            errors.push(format!("character '{}': unknown spell '{sp}'", c.id));
        }
    }
    // Carried gear: an item, or a spare weapon, shield or armor (as a hero file allows).
    for i in &c.items {
        if !data.equipment.knows(i) {
            errors.push(format!("character '{}': unknown item '{i}'", c.id));
        }
    }
    let conditions = starting_conditions(data, c, &mut errors);
    let legacy_hp = rules.options.hp_formula == crate::rules::profile::HpFormula::LegacyMax;
    let (max_hp, max_mp, max_fp) = Fighter::derived_max(&c.stats, legacy_hp);
    if let Some(hp) = c.hp.filter(|&h| !(ranges::MIN_HP..=max_hp).contains(&h)) {
        errors.push(format!("character '{}': {} (R-STAT-3: the maximum is Brawn + Nerve/2)", c.id, out_of("hp", hp, (ranges::MIN_HP, max_hp))));
    }
    check_pools(c, max_mp, max_fp, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let allowance = c.free_steps.unwrap_or(match c.size {
        Size::Small => rules.limits.free_steps_small,
        Size::Medium => rules.limits.free_steps_medium,
        Size::Large => rules.limits.free_steps_large,
    });
    Ok(Fighter {
        id: c.id.clone(),
        name: c.name.clone().unwrap_or_else(|| c.id.clone()),
        side: c.side.clone(),
        pos: c.pos,
        stats: c.stats,
        size: c.size,
        skills: c.skills.clone(),
        abilities: c.abilities.clone(),
        loadout: Loadout {
            weapon: c.weapon.clone(),
            weapon_skill: c.weapon_skill.clone(),
            two_handed: c.two_handed,
            shield: c.shield.clone(),
            armor: c.armor.clone(),
            items: c.items.clone(),
            dropped: Vec::new(),
            loaded: c.loaded.unwrap_or(true),
            ammo: c.ammo,
        },
        caster: c.caster,
        hp: c.hp.unwrap_or(max_hp),
        max_hp,
        // R-MANA-1: only casters use the pools; a dual caster (`both`) has both.
        mp: if c.caster.arcane() { c.mp.unwrap_or(max_mp) } else { 0 },
        max_mp: if c.caster.arcane() { max_mp } else { 0 },
        fp: if c.caster.divine() { c.fp.unwrap_or(max_fp) } else { 0 },
        max_fp: if c.caster.divine() { max_fp } else { 0 },
        ap_roll_bonus: c.ap_roll_bonus,
        ap: ActionPoints::default(),
        free_steps: FreeSteps { allowance, available: false, lost: None },
        posture: c.posture.unwrap_or(Posture::Standing),
        conditions,
        adjustments: Vec::new(),
        turn: TurnRecord::default(),
        opp: OpportunityRecord::default(),
        surprised: c.surprised,
        recovery: None,
        mook: c.mook,
        spells: c.spells.clone(),
        dormant: false,
        opens_doors: c.opens_doors,
    })
}

/// A character's starting conditions (R-COND-1): known ids, each with its own or the table's
/// duration class and removal CR.
fn starting_conditions(data: &RuleData, c: &CharacterDef, errors: &mut Vec<String>) -> Vec<ConditionInstance> {
    let mut conditions = Vec::new();
    for e in &c.conditions {
        let k = e.id();
        let (duration, removal_cr) = match e {
            ConditionEntry::Id(_) => (None, None),
            ConditionEntry::Full(s) => (s.duration, s.removal_cr),
        };
        if let Some(cr) = removal_cr.filter(|v| !(ranges::REMOVAL_CR.0..=ranges::REMOVAL_CR.1).contains(v)) {
            errors.push(format!("character '{}': condition '{k}': {}", c.id, out_of("removal_cr", cr, ranges::REMOVAL_CR)));
        }
        match data.conditions.get(k) {
            Some(row) => conditions.push(ConditionInstance { id: k.to_string(), duration: duration.unwrap_or(row.duration), removal_cr }),
            None => errors.push(format!("character '{}': unknown condition '{k}'", c.id)),
        }
    }
    conditions
}

/// R-MANA-1: starting MP and FP up to the caster's maxima (a non-caster's are 0).
fn check_pools(c: &CharacterDef, max_mp: i32, max_fp: i32, errors: &mut Vec<String>) {
    for (what, v, max) in [("mp", c.mp, max_mp), ("fp", c.fp, max_fp)] {
        let (lo, hi) = (ranges::POOL.0, if what == "mp" && c.caster.arcane() || what == "fp" && c.caster.divine() { max } else { 0 });
        if let Some(v) = v.filter(|v| !(lo..=hi).contains(v)) {
            errors.push(format!("character '{}': {} (R-MANA-1: the maximum is {hi} for this caster)", c.id, out_of(what, v, (lo, hi))));
        }
    }
}

/// Builds a match from a map, characters and ruleset choice; every problem names its source.
pub fn build_match(
    data: &RuleData,
    floors: &[Vec<String>],
    characters: &[CharacterDef],
    profile: Option<&str>,
    options: &OptionOverrides,
) -> Result<Match, Vec<String>> {
    if characters.len() > crate::data::MAX_ENTITIES {
        return Err(vec![format!("{} characters; the most is {}", characters.len(), crate::data::MAX_ENTITIES)]);
    }
    let mut errors = Vec::new();
    // Ruleset A4 borrows its base profile's tables (A4-8).
    let a4 = profile.filter(|p| *p == data.a4.name).map(|_| data.a4.clone());
    let base = a4.as_ref().map(|b| b.base_profile.as_str()).or(profile);
    let rules = data.profiles.ruleset(base, options).map_err(|e| vec![e])?;
    let board = Board::from_rows(floors).map_err(|e| vec![e])?;
    let mut fighters: Vec<Fighter> = Vec::new();
    let mut ids: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut taken: std::collections::HashMap<Pos, &str> = std::collections::HashMap::new();
    for c in characters {
        if !ids.insert(&c.id) {
            errors.push(format!("character '{}': the id is used twice", c.id));
        }
        if !board.walkable(c.pos) {
            errors.push(format!("character '{}': {} is not a space a figure can stand on", c.id, c.pos));
        }
        if let Some(o) = taken.insert(c.pos, &c.id) {
            errors.push(format!("character '{}': {} is already taken by '{o}' (one figure per space, G-02)", c.id, c.pos));
        }
        match fighter_from_def(data, &rules, c) {
            Ok(f) => fighters.push(f),
            Err(e) => errors.extend(e),
        }
        if errors.len() > crate::data::MAX_ERRORS {
            break;
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Match {
        rules: std::sync::Arc::new(rules),
        conditions: std::sync::Arc::new(data.conditions.clone()),
        equipment: std::sync::Arc::new(data.equipment.clone()),
        tables: std::sync::Arc::new(data.tables.clone()),
        spells: std::sync::Arc::new(data.spells.clone()),
        board,
        fighters,
        clock: Clock::default(),
        pending: None,
        goals: Vec::new(),
        explore: None,
        a4: a4.map(|b| Box::new(crate::rules::a4::A4::new(b, characters.len()))),
        heroes: characters.iter().filter(|c| c.hero).map(|c| c.id.clone()).collect(),
        cp_objects: Default::default(),
        story: None,
        turn_limit: None,
    })
}

#[cfg(test)]
mod tests {
    use crate::testkit::duel;

    const ORC: &str =
        r#"(id: "orc", side: "monsters", pos: (4, 0), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6), skills: {"maces": apprentice}, weapon: Some("mace"))"#;

    fn xbow(loaded: &str) -> String {
        format!(
            r#"(id: "x", side: "heroes", pos: (0, 0), weapon: Some("crossbow"), skills: {{"crossbows": apprentice}}, stats: (brawn: 8, finesse: 8, savvy: 5, nerve: 5){loaded})"#
        )
    }

    #[test] // R-RNG-8: a crossbow that starts unloaded (`loaded: Some(false)`) cannot shoot until it is reset; the reset and the shot share the opportunity
    fn crossbow_can_start_unloaded() {
        let x = xbow(", loaded: Some(false)");
        let mut g = duel(None, 8, &[&x, ORC], r#"(characters: {"x": (ap: 3), "orc": (ap: 1)})"#, &[1, 1, 1, 1, 1, 1]);
        assert!(!g.fighter("x").loadout.loaded);
        let v = g.refused(r#"action(actor: "x", action: "attack", target: Some("orc"))"#);
        assert_eq!(v.rule, "R-RNG-8", "{}", v.reason);
        g.ok(r#"action(actor: "x", action: "reset_crossbow")"#);
        assert!(g.fighter("x").loadout.loaded);
        assert_eq!(g.fighter("x").ap.current, 2, "hand reset: 1 AP");
        g.ok(r#"action(actor: "x", action: "attack", target: Some("orc"))"#);
        assert!(!g.fighter("x").loadout.loaded, "the shot unloads it");
    }

    #[test] // R-RNG-8, G-22: by default (and with `loaded: Some(true)`) a crossbow starts loaded; resetting a loaded one is refused
    fn crossbow_starts_loaded_by_default() {
        for extra in ["", ", loaded: Some(true)", ", loaded: true"] {
            let x = xbow(extra);
            let mut g = duel(None, 8, &[&x, ORC], r#"(characters: {"x": (ap: 3), "orc": (ap: 1)})"#, &[]);
            assert!(g.fighter("x").loadout.loaded, "{extra}");
            assert_eq!(g.refused(r#"action(actor: "x", action: "reset_crossbow")"#).rule, "R-RNG-8");
        }
    }

    #[test] // R-COND-1, R-MANA-1: a starting condition is an id (the table's class, no CR of its own) or written in full (its own class and removal CR, `Some(n)` or `n`); a wrong field in it is named; MP and FP start where given
    fn starting_conditions_and_pools() {
        use crate::rules::fighter::Duration;
        let data = crate::data::RuleData::builtin();
        let text = r#"(id: "a", side: "h", pos: (0, 0), stats: (brawn: 6, finesse: 6, savvy: 8, nerve: 6), caster: arcane, mp: 3,
            conditions: ["slowed", (id: "stunned", removal_cr: 7), (id: "bleeding", duration: temporary, removal_cr: Some(4))])"#;
        let c: super::CharacterDef = crate::data::parse_ron("t.ron", text).unwrap();
        let rules = data.profiles.ruleset(None, &Default::default()).unwrap();
        let f = super::fighter_from_def(&data, &rules, &c).unwrap();
        let got: Vec<(&str, Duration, Option<i32>)> = f.conditions.iter().map(|c| (c.id.as_str(), c.duration, c.removal_cr)).collect();
        assert_eq!(got, vec![("slowed", Duration::Permanent, None), ("stunned", Duration::Persistent, Some(7)), ("bleeding", Duration::Temporary, Some(4))]);
        assert_eq!((f.mp, f.max_mp, f.fp), (3, 11, 0));
        let bad = text.replace("removal_cr: 7", "cr: 7");
        let e = crate::data::parse_ron::<super::CharacterDef>("t.ron", &bad).unwrap_err();
        assert!(e.message.contains("`cr`") && e.line == 2, "{}:{}: {}", e.line, e.col, e.message);
    }

    #[test] // R-MANA-1: `caster: both` has both pools full (MP = Savvy + Nerve/2, FP = Nerve + Savvy/2) and casts spells of either tradition
    fn dual_caster_has_both_pools() {
        let aud = r#"(id: "aud", side: "heroes", pos: (0, 0), caster: both, spells: ["firebolt", "healing_word"], stats: (brawn: 5, finesse: 6, savvy: 9, nerve: 8), hp: Some(3))"#;
        let mut g = duel(None, 8, &[aud, ORC], r#"(characters: {"aud": (ap: 4), "orc": (ap: 1)})"#, &[6, 6, 6, 6, 6, 6, 1, 1, 1, 1]);
        let f = g.fighter("aud");
        assert_eq!((f.mp, f.max_mp, f.fp, f.max_fp), (13, 13, 12, 12));
        assert!(f.caster.arcane() && f.caster.divine());
        g.ok(r#"action(actor: "aud", action: "cast_spell", target: Some("aud"), spell: Some("healing_word"))"#);
        assert_eq!((g.fighter("aud").mp, g.fighter("aud").fp), (13, 10), "a divine spell is paid with Faith");
        g.ok(r#"pass(actor: "orc")"#);
        g.ok(r#"action(actor: "aud", action: "cast_spell", target: Some("orc"), spell: Some("firebolt"))"#);
        assert_eq!((g.fighter("aud").mp, g.fighter("aud").fp), (11, 10), "an arcane spell is paid with Mana");
        // single casters keep one pool
        for (caster, pools) in [("arcane", (13, 0)), ("divine", (0, 12)), ("none", (0, 0))] {
            let one = format!(r#"(id: "aud", side: "heroes", pos: (0, 0), caster: {caster}, stats: (brawn: 5, finesse: 6, savvy: 9, nerve: 8))"#);
            let g = duel(None, 8, &[&one, ORC], r#"(characters: {"aud": (ap: 4), "orc": (ap: 1)})"#, &[]);
            assert_eq!((g.fighter("aud").max_mp, g.fighter("aud").max_fp), pools, "{caster}");
        }
    }
}
