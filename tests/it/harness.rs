//! The property-test harness shared by `properties.rs` and `combat_properties.rs`: a random case
//! is played command by command through the headless app into a `Trace` (the match before and
//! after every command and every line it produced), which the checks then read, with a small
//! state tracker built only from the event lines.

use doo::headless::HeadlessMatch;
use doo_rules::rules::command::Command;
use doo_rules::rules::grid::Pos;
use doo_rules::rules::state::Match;
use proptest::prelude::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

pub const PROFILES: [&str; 5] = ["DOO-2017", "CORE-STRICT", "ADV-2017", "LEGACY-2016", "LEGACY-2016-EARLY"];
pub const DIRS: [(i32, i32); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

pub fn config() -> ProptestConfig {
    ProptestConfig { cases: 48, ..ProptestConfig::default() }
}

/// 1 to `max - 1` random directions (indices into `DIRS`).
pub fn dirs(max: usize) -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0..DIRS.len(), 1..max)
}

pub fn path_from(from: Pos, ds: &[usize]) -> Vec<Pos> {
    let mut at = from;
    ds.iter()
        .map(|&d| {
            at = Pos::on(at.x + DIRS[d].0, at.y + DIRS[d].1, at.floor);
            at
        })
        .collect()
}

/// Up to `n` spaces straight from `pos` toward `goal`, stopping next to it; one step east when
/// there is no goal or it is already adjacent.
pub fn approach(pos: Pos, goal: Option<Pos>, n: usize) -> Vec<Pos> {
    let mut path = Vec::new();
    if let Some(goal) = goal {
        let mut at = pos;
        while path.len() < n && at.distance(goal) > 1 {
            at = Pos::on(at.x + (goal.x - at.x).signum(), at.y + (goal.y - at.y).signum(), at.floor);
            path.push(at);
        }
    }
    if path.is_empty() {
        path = path_from(pos, &[4]);
    }
    path
}

// ---------------------------------------------------------------------------------------------
// Playing a case

/// One submitted command: the match before and after, and every line it produced.
#[derive(Clone)]
pub struct Played {
    pub cmd: Command,
    pub index: u64,
    pub verdict: Value,
    pub lines: Vec<Value>,
    pub before: Match,
    pub after: Match,
    pub over: bool,
}

#[derive(Clone)]
pub struct Trace {
    pub profile: &'static str,
    pub start: String,
    pub seed: u64,
    /// The match as built (start applied), before the headless app started it.
    pub built: Match,
    /// Lines produced while the app started the match.
    pub init_lines: Vec<Value>,
    pub init: Match,
    pub init_over: bool,
    pub steps: Vec<Played>,
}

impl Trace {
    /// A reproduction: profile, start, seed and the concrete commands up to step `upto` (inclusive).
    pub fn repro(&self, upto: usize) -> String {
        let cmds: Vec<String> = self.steps.iter().take(upto + 1).map(|s| serde_json::to_string(&s.cmd).unwrap()).collect();
        format!("profile {} seed {} start {}\ncommands:\n  {}", self.profile, self.seed, self.start, cmds.join("\n  "))
    }

    /// Every line batch in order: batch 0 is the start, batch k the k-th command.
    pub fn batches(&self) -> Vec<&[Value]> {
        std::iter::once(self.init_lines.as_slice()).chain(self.steps.iter().map(|s| s.lines.as_slice())).collect()
    }

    /// The match after batch `b`.
    pub fn after(&self, b: usize) -> &Match {
        if b == 0 { &self.init } else { &self.steps[b - 1].after }
    }

    pub fn step_label(&self, batch: usize) -> String {
        if batch == 0 { "at the start".to_string() } else { format!("after command #{}:\n{}", batch - 1, self.repro(batch - 1)) }
    }

    pub fn max_hp(&self, id: &str) -> i32 {
        self.built.fighters[self.built.index(id).unwrap()].max_hp
    }
}

/// A match ready to be played: `built` is the match before the app started it, `hm` the app.
pub struct Setup {
    pub profile: &'static str,
    pub start: String,
    pub seed: u64,
    pub built: Match,
    pub hm: HeadlessMatch,
}

/// Plays `ops` (each made concrete against the match at that moment) until the match is over.
/// `inspect` sees the app and the trace so far after the start and after every command.
pub fn play<O>(setup: Setup, ops: &[O], concrete: impl Fn(&Match, &O) -> Command, mut inspect: impl FnMut(&mut HeadlessMatch, &Trace)) -> Trace {
    let Setup { profile, start, seed, built, mut hm } = setup;
    let init_lines = hm.lines().to_vec();
    let init = hm.snapshot();
    let init_over = hm.status().over;
    let mut t = Trace { profile, start, seed, built, init_lines, init: init.clone(), init_over, steps: Vec::new() };
    inspect(&mut hm, &t);
    let mut before = init;
    let mut over = init_over;
    for op in ops {
        if over {
            break;
        }
        let cmd = concrete(&before, op);
        let n = hm.lines().len();
        let settled = hm.submit(cmd.clone());
        assert!(settled, "the match did not settle after {cmd:?}\n{}", t.repro(t.steps.len().saturating_sub(1)));
        let lines = hm.lines()[n..].to_vec();
        let verdict = lines.iter().find(|l| l["type"] == "command").cloned().expect("a verdict line");
        let index = verdict["index"].as_u64().expect("verdict index");
        let after = hm.snapshot();
        over = hm.status().over;
        t.steps.push(Played { cmd, index, verdict, lines, before, after: after.clone(), over });
        inspect(&mut hm, &t);
        before = after;
    }
    t
}

/// Plays a case and runs one check over its trace.
pub fn run<C>(c: &C, play: fn(&C) -> Trace, check: fn(&Trace) -> Result<usize, String>) -> Result<(), TestCaseError> {
    let t = play(c);
    match check(&t) {
        Ok(_) => Ok(()),
        Err(msg) => Err(TestCaseError::fail(msg)),
    }
}

// ---------------------------------------------------------------------------------------------
// Event helpers and a small state tracker built only from events

pub fn s(v: &Value, k: &str) -> String {
    v[k].as_str().unwrap_or_default().to_string()
}

pub fn u(v: &Value, k: &str) -> u32 {
    v[k].as_u64().unwrap_or_else(|| panic!("{k} missing in {v}")) as u32
}

pub fn i(v: &Value, k: &str) -> i32 {
    v[k].as_i64().unwrap_or_else(|| panic!("{k} missing in {v}")) as i32
}

/// The event lines of a batch (verdicts left out).
pub fn events(lines: &[Value]) -> Vec<&Value> {
    lines.iter().filter(|l| l["type"] == "event").collect()
}

/// AP, HP, conditions (id → duration class), deaths, the opportunity holder and the reset step
/// of every character as the event stream tells them (R-AP-1, G-13).
pub struct Tracker {
    pub ap: BTreeMap<String, u32>,
    pub max: BTreeMap<String, i32>,
    pub hp: BTreeMap<String, i32>,
    pub conds: BTreeMap<String, BTreeMap<String, String>>,
    pub died: BTreeSet<String>,
    /// The character whose opportunity is open.
    pub holder: Option<String>,
    /// The reset step in progress (0: reset phase begun, before step 1); None outside resets.
    pub step: Option<u32>,
}

impl Tracker {
    pub fn new(built: &Match) -> Self {
        Tracker {
            ap: built.fighters.iter().map(|f| (f.id.clone(), f.ap.current)).collect(),
            max: built.fighters.iter().map(|f| (f.id.clone(), f.max_hp)).collect(),
            hp: built.fighters.iter().map(|f| (f.id.clone(), f.hp)).collect(),
            conds: built
                .fighters
                .iter()
                .map(|f| (f.id.clone(), f.conditions.iter().map(|c| (c.id.clone(), format!("{:?}", c.duration).to_lowercase())).collect()))
                .collect(),
            died: BTreeSet::new(),
            holder: built.clock.current.map(|i| built.fighters[i].id.clone()),
            step: None,
        }
    }

    /// R-TURN-11 / G-13: able to act (conscious, not stunned or incapacitated).
    pub fn able(&self, id: &str) -> bool {
        self.hp[id] > 0 && !self.conds[id].keys().any(|c| c == "stunned" || c == "incapacitated")
    }

    /// R-INJ-8: HP ≤ −max HP, or a "died" event.
    pub fn dead(&self, id: &str) -> bool {
        self.died.contains(id) || self.hp[id] <= -self.max[id]
    }

    pub fn update(&mut self, e: &Value) {
        let actor = s(e, "actor");
        match e["event"].as_str().unwrap_or_default() {
            "ap_set" | "ap_spent" => {
                self.ap.insert(actor, u(e, "ap"));
            }
            "hp_changed" => {
                self.hp.insert(actor, i(e, "to"));
            }
            "died" => {
                self.died.insert(actor);
            }
            "condition_added" => {
                self.conds.get_mut(&actor).unwrap().insert(s(e, "id"), s(e, "duration"));
            }
            "condition_removed" => {
                self.conds.get_mut(&actor).unwrap().remove(&s(e, "condition"));
            }
            "opportunity" => self.holder = Some(actor),
            "opportunity_ended" => self.holder = None,
            "phase" => {
                self.holder = None;
                self.step = e["phase"].as_str().unwrap_or_default().contains("reset").then_some(0);
            }
            "reset_step" => self.step = Some(e["step"].as_u64().unwrap() as u32),
            "crisis_over" => self.step = None,
            _ => {}
        }
    }

    /// After a batch: resync what the reset changes without events (the dead lose their AP).
    pub fn resync_dead(&mut self, m: &Match) {
        for (i, f) in m.fighters.iter().enumerate() {
            if m.is_dead(i) {
                self.ap.insert(f.id.clone(), f.ap.current);
            }
        }
    }
}
