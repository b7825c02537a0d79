//! A script's start on a crawl in Exploration Mode: `start: Some((minute: Some(40), characters:
//! {…}))` sets the level clock's minute (R-EXP-2) and each character's position, posture, HP, MP,
//! FP, conditions, ammunition and the light burning in his hand (R-EXP-18). No crisis is forced:
//! the match opens as its level does (R-EXP-1), sight tested at once (R-EXP-24). Lights in a
//! hand are also what a mid-crisis start on a crawl may give (`lights`).

use super::{CharStart, StartState, check_positions};
use crate::rules::state::Match;
use serde::{Deserialize, Serialize};

/// A light burning in a hand: a light of the exploration book and its minutes left.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LightStart {
    pub item: String,
    pub minutes: u32,
}

/// Applies an exploration start to a freshly built crawl (the match then opens afresh).
pub(super) fn apply(m: &mut Match, start: &StartState) -> Result<(), String> {
    let Some(minute) = start.minute else { return Ok(()) };
    if m.explore.is_none() {
        return Err("start: `minute` needs a crawl level (`mode: exploration`) and no map of the script's own".into());
    }
    for (id, s) in &start.characters {
        if m.index(id).is_none() {
            return Err(format!("start: there is no character '{id}'"));
        }
        if let Some(field) = crisis_only(s) {
            return Err(format!(
                "start '{id}': `{field}` is for a start in a crisis; a start in Exploration Mode (`minute`) sets pos, posture, hp, mp, fp, conditions, ammo and light"
            ));
        }
    }
    check_positions(m, start)?;
    for i in 0..m.fighters.len() {
        let Some(s) = start.characters.get(&m.fighters[i].id).cloned() else { continue };
        let known = |c: &str| m.conditions.get(c).is_some();
        if let Some(c) = s.conditions.iter().flatten().find(|c| !known(&c.id)) {
            return Err(format!("start '{}': unknown condition '{}'", m.fighters[i].id, c.id));
        }
        let f = &mut m.fighters[i];
        for (what, v, max) in [("hp", s.hp, f.max_hp), ("mp", s.mp, f.max_mp), ("fp", s.fp, f.max_fp)] {
            if let Some(v) = v.filter(|&v| v > max) {
                return Err(format!("start '{}': {what} {v} is above the maximum {max}", f.id));
            }
        }
        if let Some(p) = s.pos {
            f.pos = p;
        }
        if let Some(p) = s.posture {
            f.posture = p;
        }
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
    lights(m, start)
}

/// The first field of a character's start that only a start in a crisis sets.
fn crisis_only(s: &CharStart) -> Option<&'static str> {
    [
        ("ap", s.ap.is_some()),
        ("ap_start", s.ap_start.is_some()),
        ("free_steps", s.free_steps.is_some()),
        ("free_steps_allowance", s.free_steps_allowance.is_some()),
        ("adjustments", s.adjustments.is_some()),
        ("acted_this_turn", s.acted_this_turn.is_some()),
        ("took_only", s.took_only.is_some()),
        ("round_status", s.round_status.is_some()),
    ]
    .into_iter()
    .find(|f| f.1)
    .map(|f| f.0)
}

/// R-EXP-18: each `light` given burns in its holder's hand with its minutes left (a crawl only;
/// a light of the book, 1 to its burning time).
pub(super) fn lights(m: &mut Match, start: &StartState) -> Result<(), String> {
    for (id, s) in &start.characters {
        let (Some(l), Some(i)) = (&s.light, m.index(id)) else { continue };
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
