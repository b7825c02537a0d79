//! The figure form's vocabulary and its longer steps (issue 46): what a figure's fields are
//! chosen from (`FigureLists`), the form's rows (`T`), a skill's rank, a trade line (R-EXP-16),
//! yes/no/unset fields and counts, with the lists and caps they step within.

use crate::data::RuleData;
use crate::rules::profile::{Posture, Rank};

/// What a figure's fields are chosen from: the game's equipment, items, conditions, the monster
/// templates and the AI's behaviours.
#[derive(Clone, Debug, Default)]
pub struct FigureLists {
    pub templates: Vec<String>,
    pub behaviours: Vec<String>,
    pub weapons: Vec<String>,
    pub shields: Vec<String>,
    pub armor: Vec<String>,
    pub items: Vec<String>,
    pub conditions: Vec<String>,
    /// The game's skill ids (R-CP-*: the heroes book's skills).
    pub skills: Vec<String>,
    /// The game's spell ids (a caster's spells).
    pub spells: Vec<String>,
    /// The figure's full HP, MP and FP (the window sets them for the figure in the form, from
    /// the level as built): an unset pool steps down from it, and none steps above it. `None`:
    /// not known; an unset pool is then not stepped, a set one has no upper bound.
    pub full: Option<[i32; 3]>,
}

impl FigureLists {
    pub fn new(data: &RuleData, templates: &[String], behaviours: &[String]) -> Self {
        let e = &data.equipment;
        FigureLists {
            templates: templates.to_vec(),
            behaviours: behaviours.to_vec(),
            weapons: e.melee.iter().map(|w| w.id.clone()).chain(e.ranged.iter().map(|w| w.id.clone())).collect(),
            shields: e.shields.iter().map(|s| s.id.clone()).collect(),
            armor: e.armor.iter().map(|a| a.id.clone()).collect(),
            items: e.items.iter().map(|i| i.id.clone()).collect(),
            conditions: data.conditions.conditions.iter().map(|c| c.id.clone()).collect(),
            skills: data.heroes.skills.keys().cloned().collect(),
            spells: data.spells.spells.iter().map(|s| s.id.clone()).collect(),
            full: None,
        }
    }
}

/// A row of the figure form: what it sets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum T {
    Name,
    Id,
    Template,
    Side,
    Behaviour,
    Hero,
    Weapon,
    Shield,
    Armor,
    /// HP (0), MP (1), FP (2) at the start: unset is full.
    Pool(usize),
    Posture,
    Surprised,
    Mook,
    OpensDoors,
    Loaded,
    /// Ammunition (0) and free steps (1): unset is the template's or the rules'.
    Count(usize),
    Sprite,
    Spell(usize),
    RemoveSpell(usize),
    AddSpell,
    Item(usize),
    RemoveItem(usize),
    AddItem,
    Condition(usize),
    RemoveCondition(usize),
    AddCondition,
    NonHostile,
    Says,
    Skill(usize),
    SkillRank(usize),
    RemoveSkill(usize),
    AddSkill,
    TradeGives(usize),
    TradeWants(usize),
    TradeRepeat(usize),
    RemoveTrade(usize),
    AddTrade,
    Orders(super::orders_form::OF),
    Shown,
}

pub(super) fn step_in(list: &[String], now: &str, dir: i8) -> Option<String> {
    super::event_form::step(list, &now.to_string(), dir)
}

/// The ranks a skill row steps through (untrained is no entry: remove it).
pub(super) const RANKS: [Rank; 6] = [Rank::Apprentice, Rank::Journeyman, Rank::Foreman, Rank::Master, Rank::GrandMaster, Rank::LegendaryMaster];

/// The postures a figure may start in (unset: standing).
/// (Unset, then the others: unset is standing.)
pub(super) const POSTURES: [Option<Posture>; 4] = [None, Some(Posture::Sitting), Some(Posture::Kneeling), Some(Posture::Prone)];

/// Entry `i` of a list field (items, spells) stepped through `choices`.
pub(super) fn step_entry(list: &mut Option<Vec<String>>, i: usize, choices: &[String], dir: i8) {
    if let Some(now) = list.as_mut().and_then(|v| v.get_mut(i))
        && let Some(n) = step_in(choices, now, dir)
    {
        *now = n;
    }
}

/// Entry `i` of a list field taken out; an emptied list is unset (not written).
pub(super) fn remove_entry<E>(list: &mut Option<Vec<E>>, i: usize) {
    if let Some(v) = list.as_mut().filter(|v| i < v.len()) {
        v.remove(i);
    }
    if list.as_ref().is_some_and(Vec::is_empty) {
        *list = None;
    }
}

/// The largest ammunition and free steps the form sets (`Count`).
pub(super) const MAX_COUNT: [u32; 2] = [999, 20];

/// Yes, no, or unset (`unset`: what it means then, e.g. "the template's").
pub(super) fn tri(v: Option<bool>, unset: &str) -> String {
    match v {
        Some(true) => "yes".into(),
        Some(false) => "no".into(),
        None => unset.into(),
    }
}

/// Unset, yes, no, round.
pub(super) fn step_tri(v: Option<bool>, dir: i8) -> Option<bool> {
    let all = [None, Some(true), Some(false)];
    let i = all.iter().position(|x| *x == v).unwrap_or(0) as i64;
    all[(i + dir.signum() as i64).rem_euclid(3) as usize]
}

pub(super) fn count(c: &mut crate::level_file::CharacterEntry, i: usize) -> &mut Option<u32> {
    if i == 0 { &mut c.ammo } else { &mut c.free_steps }
}

/// A count stepped: unset steps up to 1 (down stays unset), and below 0 it is unset again.
pub(super) fn step_count(now: Option<u32>, dir: i8, max: u32) -> Option<u32> {
    match (now, dir > 0) {
        (None, true) => Some(1),
        (None, false) => None,
        (Some(n), true) => Some((n + 1).min(max)),
        (Some(0), false) => None,
        (Some(n), false) => Some(n - 1),
    }
}

/// The most trade lines the form adds to an encounter.
pub(super) const MAX_FORM_TRADES: usize = 8;

/// A skill row stepped: the i-th skill another of the game's (its rank kept), its rank the
/// next, removed, or a skill he lacks added at apprentice.
pub(super) fn step_skill(c: &mut crate::level_file::CharacterEntry, t: T, dir: i8, lists: &FigureLists) {
    let skills = c.skills.get_or_insert_with(Default::default);
    let nth = |s: &std::collections::BTreeMap<String, Rank>, i: usize| s.iter().nth(i).map(|(k, v)| (k.clone(), *v));
    match t {
        T::Skill(i) => {
            if let Some((id, rank)) = nth(skills, i) {
                let free: Vec<String> = lists.skills.iter().filter(|s| **s == id || !skills.contains_key(*s)).cloned().collect();
                if let Some(n) = step_in(&free, &id, dir) {
                    skills.remove(&id);
                    skills.insert(n, rank);
                }
            }
        }
        T::SkillRank(i) => {
            if let Some((id, rank)) = nth(skills, i) {
                let at = RANKS.iter().position(|r| *r == rank).unwrap_or(0) as i64;
                skills.insert(id, RANKS[(at + dir.signum() as i64).rem_euclid(RANKS.len() as i64) as usize]);
            }
        }
        T::RemoveSkill(i) => {
            if let Some((id, _)) = nth(skills, i) {
                skills.remove(&id);
            }
        }
        T::AddSkill => {
            if let Some(n) = lists.skills.iter().find(|s| !skills.contains_key(*s)) {
                skills.insert(n.clone(), Rank::Apprentice);
            }
        }
        _ => {}
    }
    if c.skills.as_ref().is_some_and(|s| s.is_empty()) {
        c.skills = None;
    }
}

/// A trade row stepped (R-EXP-16): what the i-th line gives or (its first piece) wants another
/// of the game's items, again or once, removed, or a new line (the first item for the second).
pub(super) fn step_trade(trades: &mut Vec<crate::rules::explore::TradeLine>, t: T, dir: i8, lists: &FigureLists) {
    match t {
        T::TradeGives(i) => {
            if let Some(line) = trades.get_mut(i)
                && let Some(n) = step_in(&lists.items, &line.gives, dir)
            {
                line.gives = n;
            }
        }
        T::TradeWants(i) => {
            if let Some(line) = trades.get_mut(i) {
                let first = line.wants.first().cloned().unwrap_or_default();
                if let Some(n) = step_in(&lists.items, &first, dir) {
                    match line.wants.first_mut() {
                        Some(w) => *w = n,
                        None => line.wants.push(n),
                    }
                }
            }
        }
        T::TradeRepeat(i) => {
            if let Some(line) = trades.get_mut(i) {
                line.repeat = !line.repeat;
            }
        }
        T::RemoveTrade(i) if i < trades.len() => {
            trades.remove(i);
        }
        T::AddTrade if trades.len() < MAX_FORM_TRADES => {
            let item = |k: usize| lists.items.get(k).or(lists.items.first()).cloned().unwrap_or_else(|| "potion_of_healing".into());
            trades.push(crate::rules::explore::TradeLine { gives: item(0), wants: vec![item(1)], repeat: false });
        }
        _ => {}
    }
}
