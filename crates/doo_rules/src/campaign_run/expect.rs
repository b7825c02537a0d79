//! A campaign script's expectations and their check against the run's lines.

use crate::script::{Verdict, matches_fields};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// What `--check` holds the run to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct CampaignExpect {
    /// Per level played.
    #[serde(default)]
    pub plays: Vec<PlayExpect>,
    /// Purchases or recruits that must be refused, with the rule.
    #[serde(default)]
    pub refusals: Vec<Refusal>,
    #[serde(default, rename = "final")]
    pub final_state: Option<FinalExpect>,
}

/// One level played (`play` counts from 1). Absent fields are not checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct PlayExpect {
    pub play: usize,
    #[serde(default)]
    pub level: Option<String>,
    /// The side that won (`""`: none, or the level not over).
    #[serde(default)]
    pub winner: Option<String>,
    #[serde(default)]
    pub won: Option<bool>,
    /// CP each hero (by name) earned in the level, all told (R-CP-9, R-CP-10); a hero not
    /// listed is not checked.
    #[serde(default)]
    pub cp: BTreeMap<String, u32>,
    /// Events of the level that must appear in this order, each matching the fields listed
    /// (the match's and the `cp_earned` of R-CP-10 after it).
    #[serde(default)]
    pub events: Vec<BTreeMap<String, Value>>,
    /// Verdicts of the level's commands (by index), as a match script's.
    #[serde(default)]
    pub verdicts: Vec<Verdict>,
    #[serde(default)]
    pub fallen: Option<Vec<String>>,
    #[serde(default)]
    pub sitting_out: Option<Vec<String>>,
    /// The level next (`""`: the campaign is over).
    #[serde(default)]
    pub next: Option<String>,
    /// Each hero (by name) after the level and its rest: fields of `doo hero show`'s JSON.
    #[serde(default)]
    pub heroes: BTreeMap<String, BTreeMap<String, Value>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Refusal {
    pub play: usize,
    pub hero: String,
    pub rule: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct FinalExpect {
    #[serde(default)]
    pub won: Option<bool>,
    /// The level to play next (`""`: none).
    #[serde(default)]
    pub next: Option<String>,
    /// The roster's names, in order.
    #[serde(default)]
    pub roster: Option<Vec<String>>,
    #[serde(default)]
    pub heroes: BTreeMap<String, BTreeMap<String, Value>>,
}

fn heroes_match(label: &str, heroes: &[&Value], want: &BTreeMap<String, BTreeMap<String, Value>>, bad: &mut Vec<String>) {
    for (name, fields) in want {
        let Some(h) = heroes.iter().find(|h| h["name"] == *name) else {
            bad.push(format!("{label}: no hero '{name}'"));
            continue;
        };
        for (k, w) in fields {
            if !matches_fields(h, &BTreeMap::from([(k.clone(), w.clone())])) {
                bad.push(format!("{label} {name}.{k}: expected {w}, got {}", h.get(k).unwrap_or(&Value::Null)));
            }
        }
    }
}

fn or_null(s: &str) -> Value {
    if s.is_empty() { Value::Null } else { json!(s) }
}

fn check_play(p: &PlayExpect, lines: &[Value], bad: &mut Vec<String>) {
    let n = p.play;
    let mine: Vec<Value> = lines.iter().filter(|l| l["play"] == n).cloned().collect();
    let Some(lv) = mine.iter().find(|l| l["type"] == "level") else {
        bad.push(format!("play {n}: not played"));
        return;
    };
    let top = [
        ("level", p.level.as_ref().map(|x| json!(x))),
        ("winner", p.winner.as_deref().map(or_null)),
        ("won", p.won.map(|x| json!(x))),
        ("fallen", p.fallen.as_ref().map(|x| json!(x))),
        ("sitting_out", p.sitting_out.as_ref().map(|x| json!(x))),
        ("next", p.next.as_deref().map(or_null)),
    ];
    for (k, want) in top {
        if let Some(w) = want.filter(|w| lv[k] != *w) {
            bad.push(format!("play {n} {k}: expected {w}, got {}", lv[k]));
        }
    }
    for (hero, cp) in &p.cp {
        let got = lv["cp"].get(hero).and_then(Value::as_u64).unwrap_or(0);
        if got != *cp as u64 {
            bad.push(format!("play {n}: {hero} earned {got} CP, expected {cp}"));
        }
    }
    let script = crate::script::Expect { verdicts: p.verdicts.clone(), events: p.events.clone(), final_state: None };
    bad.extend(crate::script::check(&script, &mine).into_iter().map(|b| format!("play {n}: {b}")));
    let heroes: Vec<&Value> = mine.iter().filter(|l| l["type"] == "hero").map(|l| &l["hero"]).collect();
    heroes_match(&format!("play {n}"), &heroes, &p.heroes, bad);
}

/// Checks a run's lines against the expectations; returns the mismatches.
pub fn check(expect: &CampaignExpect, lines: &[Value]) -> Vec<String> {
    let mut bad = Vec::new();
    for p in &expect.plays {
        check_play(p, lines, &mut bad);
    }
    for r in &expect.refusals {
        let found = lines.iter().any(|l| l["type"] == "refused" && l["play"] == r.play && l["hero"] == r.hero.as_str() && l["rule"] == r.rule.as_str());
        if !found {
            bad.push(format!("play {}: no refusal for {} by {}", r.play, r.hero, r.rule));
        }
    }
    if let Some(f) = &expect.final_state {
        let Some(end) = lines.iter().find(|l| l["type"] == "campaign") else {
            bad.push("no campaign line".into());
            return bad;
        };
        if let Some(w) = f.won.filter(|w| end["won"] != *w) {
            bad.push(format!("final won: expected {w}, got {}", end["won"]));
        }
        if let Some(w) = f.next.as_deref().map(or_null).filter(|w| end["next"] != *w) {
            bad.push(format!("final next: expected {w}, got {}", end["next"]));
        }
        let heroes: Vec<&Value> = end["heroes"].as_array().map(|a| a.iter().collect()).unwrap_or_default();
        if let Some(r) = &f.roster {
            let got: Vec<&str> = heroes.iter().filter_map(|h| h["name"].as_str()).collect();
            if got != r.iter().map(String::as_str).collect::<Vec<_>>() {
                bad.push(format!("final roster: expected {r:?}, got {got:?}"));
            }
        }
        heroes_match("final", &heroes, &f.heroes, &mut bad);
    }
    bad
}
