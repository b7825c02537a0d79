//! A crawl started in the middle of things by a script (`start: Some((minute: Some(40),
//! characters: {…}))`, docs/scripts.md): the level clock's minute (R-EXP-2) and each character's
//! position, posture, HP, MP, FP, conditions, ammunition and the light burning in his hand
//! (R-EXP-18). No crisis is forced: the match then opens as its level does (R-EXP-1), sight
//! tested at once (R-EXP-24).

use crate::rules::fighter::ConditionInstance;
use crate::rules::grid::Pos;
use crate::rules::profile::Posture;
use crate::rules::state::Match;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A light burning in a hand: a light of the exploration book and its minutes left.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LightStart {
    pub item: String,
    pub minutes: u32,
}

/// One character's state at an exploration start; what is `None` stays as the level has it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ExploreStart {
    pub pos: Option<Pos>,
    pub posture: Option<Posture>,
    pub hp: Option<i32>,
    pub mp: Option<i32>,
    pub fp: Option<i32>,
    pub conditions: Option<Vec<ConditionInstance>>,
    pub ammo: Option<u32>,
    pub light: Option<LightStart>,
}

/// G-02: each start position (`at` a character's id) is a space a figure can stand on, one
/// figure per space.
pub fn check_positions(m: &Match, at: &dyn Fn(&str) -> Option<Pos>) -> Result<(), String> {
    let mut taken = std::collections::HashMap::new();
    for f in &m.fighters {
        let given = at(&f.id);
        let p = given.unwrap_or(f.pos);
        if given.is_some() && !m.board.walkable(p) {
            return Err(format!("start '{}': {p} is not a space a figure can stand on", f.id));
        }
        if let Some(o) = taken.insert(p, f.id.clone()) {
            return Err(format!("start '{}': {p} is already taken by '{o}' (one figure per space, G-02)", f.id));
        }
    }
    Ok(())
}

/// Sets a freshly built crawl's clock to `minute` and each listed character's state (the match
/// then opens afresh, in Exploration Mode).
pub fn explore_start(m: &mut Match, minute: u32, chars: &BTreeMap<String, ExploreStart>) -> Result<(), String> {
    if m.explore.is_none() {
        return Err("start: `minute` needs a crawl level (`mode: exploration`) and no map of the script's own".into());
    }
    if let Some(id) = chars.keys().find(|id| m.index(id).is_none()) {
        return Err(format!("start: there is no character '{id}'"));
    }
    check_positions(m, &|id| chars.get(id).and_then(|s| s.pos))?;
    for i in 0..m.fighters.len() {
        let Some(s) = chars.get(&m.fighters[i].id).cloned() else { continue };
        if let Some(c) = s.conditions.iter().flatten().find(|c| m.conditions.get(&c.id).is_none()) {
            return Err(format!("start '{}': unknown condition '{}'", m.fighters[i].id, c.id));
        }
        let f = &mut m.fighters[i];
        for (what, v, max) in [("hp", s.hp, f.max_hp), ("mp", s.mp, f.max_mp), ("fp", s.fp, f.max_fp)] {
            if let Some(v) = v.filter(|&v| v > max) {
                return Err(format!("start '{}': {what} {v} is above the maximum {max}", f.id));
            }
        }
        f.pos = s.pos.unwrap_or(f.pos);
        f.posture = s.posture.unwrap_or(f.posture);
        f.hp = s.hp.unwrap_or(f.hp);
        f.mp = s.mp.unwrap_or(f.mp);
        f.fp = s.fp.unwrap_or(f.fp);
        if let Some(c) = s.conditions {
            f.conditions = c;
        }
        if s.ammo.is_some() {
            f.loadout.ammo = s.ammo;
        }
    }
    if let Some(x) = m.explore.as_deref_mut() {
        x.minute = minute;
    }
    hand_lights(m, chars.iter().filter_map(|(id, s)| s.light.as_ref().map(|l| (id.as_str(), l))))
}

/// R-EXP-18: each light given burns in its holder's hand with its minutes left (a crawl only; a
/// light of the book, 1 to its burning time).
pub fn hand_lights<'a>(m: &mut Match, lights: impl Iterator<Item = (&'a str, &'a LightStart)>) -> Result<(), String> {
    for (id, l) in lights {
        let Some(i) = m.index(id) else { continue };
        let Some(x) = m.explore.as_deref_mut() else {
            return Err(format!("start '{id}': a light burns only in a crawl (R-EXP-18)"));
        };
        let Some(row) = x.book.lights.iter().find(|r| r.item == l.item) else {
            let known: Vec<&str> = x.book.lights.iter().map(|r| r.item.as_str()).collect();
            return Err(format!("start '{id}': '{}' is not a light (known: {})", l.item, known.join(", ")));
        };
        if !(1..=row.minutes).contains(&l.minutes) {
            return Err(format!("start '{id}': light minutes {} is out of range (1 to {}, R-EXP-18)", l.minutes, row.minutes));
        }
        x.burning.insert(i, (l.item.clone(), l.minutes));
    }
    Ok(())
}
