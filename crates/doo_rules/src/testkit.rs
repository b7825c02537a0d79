//! Test helpers: a match built from RON character definitions, started mid-phase, and driven
//! through the same path the game uses (`rules::driver`). It sits at the crate root, beside the
//! formats it builds matches with, so that `rules/` imports none of them. The property tests in
//! `tests/a4_props.rs` include this file too: it names everything by `crate::` paths.

use crate::data::{RuleData, ron_options};
use crate::level::{CharacterDef, build_match};
use crate::rules::command::Command;
use crate::rules::dice::Dice;
use crate::rules::driver;
use crate::rules::event::Event;
use crate::rules::fighter::Fighter;
use crate::rules::ruleset::advance;
use crate::rules::state::Match;
use crate::rules::violation::Violation;
use crate::script::{StartState, apply_start};

/// A character from its script text, e.g. `(id: "x", side: "a", pos: (0, 0), stats: (…))`.
pub fn ch(text: &str) -> CharacterDef {
    ron_options().from_str(text).unwrap_or_else(|e| panic!("character {text}: {e}"))
}

/// A command from its script text, e.g. `pass(actor: "orc")`.
pub fn cmd(text: &str) -> Command {
    ron_options().from_str(text).unwrap_or_else(|e| panic!("command {text}: {e}"))
}

/// A match on `floors` with `chars` (each a character's script text) under `profile`, as the
/// level builds it: not started.
pub fn build(profile: Option<&str>, floors: &[Vec<String>], chars: &[&str]) -> Match {
    let chars: Vec<CharacterDef> = chars.iter().map(|c| ch(c)).collect();
    build_match(&RuleData::builtin(), floors, &chars, profile, &Default::default()).unwrap_or_else(|e| panic!("{e:?}"))
}

/// A running match with its dice and the events written so far.
pub struct Duel {
    pub m: Match,
    pub dice: Dice,
    pub ev: Vec<Event>,
}

/// A one-floor match of `width` × 2 open floor, started mid-phase with `start` (a script's
/// `start` value), forced `faces` first, the first opportunity open.
pub fn duel(profile: Option<&str>, width: usize, chars: &[&str], start: &str, faces: &[u32]) -> Duel {
    let mut m = build(profile, &[vec![".".repeat(width), ".".repeat(width)]], chars);
    let start: StartState = ron_options().from_str(start).unwrap_or_else(|e| panic!("start {start}: {e}"));
    apply_start(&mut m, &start).unwrap_or_else(|e| panic!("{e}"));
    let mut dice = Dice::seeded(7);
    dice.force(faces.iter().copied());
    let mut ev = Vec::new();
    advance(&mut m, &mut dice, &mut ev);
    Duel { m, dice, ev }
}

impl Duel {
    /// Sends one command as the game does (`driver::submit`); the refusal, if any.
    pub fn send(&mut self, text: &str) -> Result<(), Violation> {
        driver::submit(&mut self.m, &mut self.dice, &cmd(text), &mut self.ev).map(|_| ())
    }

    /// Sends a command that must be legal.
    pub fn ok(&mut self, text: &str) {
        if let Err(v) = self.send(text) {
            panic!("{text}: refused with {} ({})", v.rule, v.reason);
        }
    }

    /// Sends a command that must be refused; returns the refusal.
    pub fn refused(&mut self, text: &str) -> Violation {
        let before = self.m.fighters.clone();
        match self.send(text) {
            Ok(()) => panic!("{text}: accepted, expected a refusal"),
            Err(v) => {
                assert_eq!(self.m.fighters, before, "{text}: a refusal changes nothing (R-AP-1)");
                v
            }
        }
    }

    pub fn fighter(&self, id: &str) -> &Fighter {
        &self.m.fighters[self.m.index(id).unwrap_or_else(|| panic!("no {id}"))]
    }

    /// The character whose opportunity is open.
    pub fn current(&self) -> Option<&str> {
        self.m.clock.current.map(|i| self.m.fighters[i].id.as_str())
    }
}

/// A crawl in Exploration Mode on `rows` (one floor) with characters `(id, side, (x, y))`:
/// the first side explores; every other figure is an NPC of its own encounter.
pub fn crawl(rows: &[&str], chars: &[(&str, &str, (i32, i32))]) -> Match {
    crawl_under(None, rows, chars)
}

/// [`crawl`] under a rules profile or ruleset (`Some("A4")`).
pub fn crawl_under(profile: Option<&str>, rows: &[&str], chars: &[(&str, &str, (i32, i32))]) -> Match {
    let data = RuleData::builtin();
    let floors = vec![rows.iter().map(|r| r.to_string()).collect::<Vec<_>>()];
    let defs: Vec<CharacterDef> = chars
        .iter()
        .map(|(id, side, (x, y))| ch(&format!(r#"(id: "{id}", side: "{side}", pos: ({x}, {y}), stats: (brawn: 7, finesse: 7, savvy: 7, nerve: 7))"#)))
        .collect();
    let mut m = build_match(&data, &floors, &defs, profile, &Default::default()).unwrap_or_else(|e| panic!("{e:?}"));
    let c = crate::level_crawl::Crawl { explorers: vec![chars[0].1.to_string()], camp: true, ..Default::default() };
    m.explore = Some(Box::new(crate::level_crawl::build(&c, &m, data.exploration.clone())));
    m
}

/// A match under ruleset A4 on `rows` (one floor), opened as the game opens it (round 1's
/// initiative rolled with the forced `faces` first).
pub fn a4(rows: &[&str], chars: &[&str], faces: &[u32]) -> Duel {
    let mut m = build(Some("A4"), &[rows.iter().map(|r| r.to_string()).collect()], chars);
    let mut dice = Dice::seeded(7);
    dice.force(faces.iter().copied());
    let mut ev = Vec::new();
    driver::open(&mut m, &mut dice, &mut ev);
    Duel { m, dice, ev }
}
