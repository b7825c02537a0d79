//! Match scripts (`doo run <script.ron>`): a level or inline map, profile and options, seed,
//! forced dice, an optional mid-phase starting state, commands, and optional expectations.
//! Format reference: docs/scripts.md. Fields may be added, never renamed.

use crate::data::{LoadError, Places, parse_ron};
use crate::level::CharacterDef;
use crate::level_file::CheckedLevel;
use crate::rules::command::{Command, MAX_PATH};
use crate::rules::fighter::{ConditionInstance, RoundStatus, TempAdjustment};
use crate::rules::grid::Pos;
use crate::rules::profile::{OptionOverrides, Posture};
use crate::rules::state::{Match, Phase};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Script {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// A level file, relative to the script's folder (or the working directory).
    #[serde(default)]
    pub level: Option<String>,
    /// An inline one-floor map (rows), instead of a level.
    #[serde(default)]
    pub map: Option<Vec<String>>,
    /// An inline map of several floors.
    #[serde(default)]
    pub floors: Option<Vec<Vec<String>>>,
    /// Characters; when given they replace the level's.
    #[serde(default)]
    pub characters: Vec<CharacterDef>,
    #[serde(default)]
    pub profile: Option<String>,
    /// Applied on top of the level's options.
    #[serde(default)]
    pub options: OptionOverrides,
    #[serde(default)]
    pub seed: u64,
    /// Die faces consumed first, in throw order.
    #[serde(default)]
    pub dice: Vec<u32>,
    /// Begin mid-phase instead of with the opening reset.
    #[serde(default)]
    pub start: Option<StartState>,
    /// How sides win (as in levels); when empty, the level's goals; with neither, G-15 alone.
    #[serde(default)]
    pub victory: Vec<crate::rules::victory::Victory>,
    pub commands: Vec<Command>,
    /// Checked by `doo run --check` and by the scenario tests; ignored otherwise.
    #[serde(default)]
    pub expect: Option<Expect>,
    /// Issue 45: sides the monster AI plays, before each command and after the last, until
    /// someone else must decide (or `until_turn` is over); a script that tests orders.
    #[serde(default)]
    pub ai: Option<ScriptAi>,
}

/// The sides the AI plays in a script (issue 45), at normal difficulty, with the script's seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptAi {
    pub sides: Vec<String>,
    /// The AI stops once this crisis turn is over (needed when it plays every side).
    #[serde(default)]
    pub until_turn: Option<u32>,
}

/// A mid-phase starting point: the action phase of `turn`, at `round`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartState {
    #[serde(default = "one")]
    pub turn: u32,
    #[serde(default = "one")]
    pub round: u32,
    /// Per character id; characters not listed start with 0 AP.
    #[serde(default, deserialize_with = "crate::rules::de::unique_keys")]
    pub characters: BTreeMap<String, CharStart>,
    /// A crawl only: start in Exploration Mode at this minute of the level clock (R-EXP-2), each
    /// character's state set as listed, instead of mid-crisis (`crawl_start`).
    #[serde(default)]
    pub minute: Option<u32>,
}

fn one() -> u32 {
    1
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct CharStart {
    #[serde(default)]
    pub ap: Option<u32>,
    /// Defaults to `ap`.
    #[serde(default)]
    pub ap_start: Option<u32>,
    /// Free steps still available (default: standing and able).
    #[serde(default)]
    pub free_steps: Option<bool>,
    #[serde(default)]
    pub free_steps_allowance: Option<u32>,
    #[serde(default)]
    pub pos: Option<Pos>,
    #[serde(default)]
    pub posture: Option<Posture>,
    #[serde(default)]
    pub hp: Option<i32>,
    #[serde(default)]
    pub mp: Option<i32>,
    #[serde(default)]
    pub fp: Option<i32>,
    #[serde(default)]
    pub conditions: Option<Vec<ConditionInstance>>,
    #[serde(default)]
    pub adjustments: Option<Vec<TempAdjustment>>,
    /// Did any movement, action, reflex or response this turn (R-ONLY-6).
    #[serde(default)]
    pub acted_this_turn: Option<bool>,
    #[serde(default)]
    pub took_only: Option<bool>,
    /// This round: `waiting`, `acted` or `passed`.
    #[serde(default)]
    pub round_status: Option<RoundStatus>,
    /// Shots or throws left for the ranged weapon (R-RNG-9).
    #[serde(default)]
    pub ammo: Option<u32>,
    /// A crawl: the light burning in his hand, with its minutes left (R-EXP-18).
    #[serde(default)]
    pub light: Option<crate::level_crawl::LightStart>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// Verdicts by command index: `rule: None` expects "ok".
    #[serde(default)]
    pub verdicts: Vec<Verdict>,
    /// Events that must appear, in this order, each matching the listed fields.
    #[serde(default)]
    pub events: Vec<BTreeMap<String, Value>>,
    #[serde(default, rename = "final")]
    pub final_state: Option<ExpectFinal>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Verdict {
    pub command: usize,
    #[serde(default)]
    pub rule: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct ExpectFinal {
    #[serde(default)]
    pub turn: Option<u32>,
    #[serde(default)]
    pub phase: Option<Phase>,
    #[serde(default)]
    pub round: Option<u32>,
    #[serde(default)]
    pub opportunity: Option<String>,
    #[serde(default)]
    pub characters: BTreeMap<String, BTreeMap<String, Value>>,
    /// The side that won (`""`: the crisis ended with no winner). Absent: not checked.
    #[serde(default)]
    pub winner: Option<String>,
    /// The goal that decided it, as in levels (`LastStanding`, `ReachExit([(3, 0)])` …).
    #[serde(default)]
    pub goal: Option<crate::rules::victory::Goal>,
}

/// The folder of shipped levels, relative to the project (where the game runs).
pub const LEVELS_DIR: &str = "levels";

/// Caps on what a script may hold (docs/scripts.md, "Caps").
pub mod caps;
mod values;
pub use values::matches_fields;
use values::value_eq;

impl Script {
    /// Every cap and range this script breaks, each with the field it is under.
    pub fn cap_problems(&self) -> Vec<(&'static str, String)> {
        use crate::level::ranges;
        let mut out = Vec::new();
        if let Some(p) = crate::data::text_problem("the name", &self.name, crate::data::MAX_NAME_CHARS) {
            out.push(("name", p));
        }
        if let Some(p) = crate::data::text_problem("the description", &self.description, crate::data::MAX_TEXT_CHARS) {
            out.push(("description", p));
        }
        if self.level.as_ref().is_some_and(|l| l.len() > caps::LEVEL_PATH || l.chars().any(char::is_control)) {
            out.push(("level", format!("the level path is longer than {} bytes or holds control characters", caps::LEVEL_PATH)));
        }
        let max_side = crate::rules::grid::MAX_MAP_SIDE as usize;
        if self.floors.as_ref().is_some_and(|f| f.is_empty() || f.iter().any(|rows| rows.is_empty())) || self.map.as_ref().is_some_and(Vec::is_empty) {
            out.push((if self.map.is_some() { "map" } else { "floors" }, "the inline map has no rows: give at least one row per floor".into()));
        }
        let floors: Vec<&Vec<String>> = self.floors.iter().flatten().chain(self.map.iter()).collect();
        if self.floors.as_ref().is_some_and(|f| f.len() > crate::rules::grid::MAX_FLOORS) {
            out.push(("floors", format!("{} floors; the most is {}", self.floors.as_ref().map_or(0, Vec::len), crate::rules::grid::MAX_FLOORS)));
        } else if floors.iter().any(|rows| rows.len() > max_side || rows.iter().any(|r| r.len() > 4 * max_side || r.chars().count() > max_side)) {
            out.push((if self.map.is_some() { "map" } else { "floors" }, format!("a floor is larger than {max_side}×{max_side} spaces")));
        }
        if self.characters.len() > crate::data::MAX_ENTITIES {
            out.push(("characters", format!("{} characters; the most is {}", self.characters.len(), crate::data::MAX_ENTITIES)));
        }
        if self.commands.len() > caps::COMMANDS {
            out.push(("commands", format!("{} commands; the most is {}", self.commands.len(), caps::COMMANDS)));
        } else if let Some((i, n)) = self.commands.iter().enumerate().map(|(i, c)| (i, c.path_len())).find(|&(_, n)| n > MAX_PATH) {
            out.push(("commands", format!("command {i} has a path of {n} spaces; the most is {MAX_PATH}")));
        }
        if self.dice.len() > caps::FORCED_DICE {
            out.push(("dice", format!("{} forced dice; the most is {}", self.dice.len(), caps::FORCED_DICE)));
        } else if let Some((i, f)) = self.dice.iter().enumerate().find(|(_, f)| !(1..=caps::FACE).contains(*f)) {
            out.push(("dice", format!("forced die {i} is {f}; a face is 1 to {} (R-DICE-9)", caps::FACE)));
        }
        if let Some(ai) = &self.ai {
            if ai.sides.is_empty() || ai.sides.len() > crate::level_file::MAX_SIDES {
                out.push(("ai", format!("ai: 1 to {} sides (this one has {})", crate::level_file::MAX_SIDES, ai.sides.len())));
            }
            if let Some(t) = ai.until_turn.filter(|&t| !(1..=caps::START_TURN).contains(&t)) {
                out.push(("ai", format!("ai: until_turn {t} is out of range (1 to {})", caps::START_TURN)));
            }
        }
        if self.victory.len() > crate::level_file::MAX_GOALS {
            out.push(("victory", format!("{} victory goals; the most is {}", self.victory.len(), crate::level_file::MAX_GOALS)));
        }
        if let Some(st) = &self.start {
            let turn_ok = |t: u32| (1..=caps::START_TURN).contains(&t);
            if !turn_ok(st.turn) || !turn_ok(st.round) {
                out.push(("start", format!("start turn {} / round {}: each is 1 to {}", st.turn, st.round, caps::START_TURN)));
            }
            if let Some(mi) = st.minute.filter(|&mi| mi > crate::level_crawl::MAX_START_MINUTE) {
                out.push(("start", format!("start minute {mi} is out of range (0 to {}, R-EXP-2)", crate::level_crawl::MAX_START_MINUTE)));
            }
            if st.characters.len() > crate::data::MAX_ENTITIES {
                out.push(("start", format!("{} characters in start; the most is {}", st.characters.len(), crate::data::MAX_ENTITIES)));
            }
            for (id, c) in st.characters.iter().take(crate::data::MAX_ENTITIES) {
                let ap = [c.ap, c.ap_start].into_iter().flatten().find(|&a| a > caps::START_AP);
                if let Some(a) = ap {
                    out.push(("start", format!("start '{id}': {a} AP; the most is {}", caps::START_AP)));
                }
                let (lo, hi) = caps::START_POOL;
                if let Some(v) = [c.hp, c.mp, c.fp].into_iter().flatten().find(|v| !(lo..=hi).contains(v)) {
                    out.push(("start", format!("start '{id}': hp/mp/fp {v} is out of range ({lo} to {hi})")));
                }
                if let Some(a) = c.free_steps_allowance.filter(|a| !(ranges::FREE_STEPS.0..=ranges::FREE_STEPS.1).contains(a)) {
                    out.push(("start", format!("start '{id}': free_steps_allowance {a} is out of range (0 to {})", ranges::FREE_STEPS.1)));
                }
                let adj = caps::ADJUSTMENT;
                if let Some(a) = c.adjustments.iter().flatten().find(|a| !(-adj..=adj).contains(&a.value)) {
                    out.push(("start", format!("start '{id}': adjustment {} is out of range (-{adj} to {adj})", a.value)));
                }
                if let Some(cr) = c.conditions.iter().flatten().filter_map(|c| c.removal_cr).find(|v| !(0..=caps::CR).contains(v)) {
                    out.push(("start", format!("start '{id}': removal_cr {cr} is out of range (0 to {})", caps::CR)));
                }
                if let Some(a) = c.ammo.filter(|a| !(ranges::AMMO.0..=ranges::AMMO.1).contains(a)) {
                    out.push(("start", format!("start '{id}': ammo {a} is out of range (0 to {})", ranges::AMMO.1)));
                }
                if let Some(l) = c.light.as_ref().filter(|l| l.minutes == 0 || l.minutes > crate::level_crawl::MAX_START_MINUTE) {
                    out.push(("start", format!("start '{id}': light minutes {} is out of range (1 to the light's burning time)", l.minutes)));
                }
                let lists = c.conditions.as_ref().map_or(0, Vec::len).max(c.adjustments.as_ref().map_or(0, Vec::len));
                if lists > ranges::LIST {
                    out.push(("start", format!("start '{id}': {lists} conditions or adjustments; the most is {}", ranges::LIST)));
                }
            }
        }
        out
    }
}

/// Whether a text looks like a level file (its first token opens `Level(` or `(`), so that a
/// script naming some other file never has that file's words echoed in an error.
fn looks_like_level(text: &str) -> bool {
    let t = crate::data::after_leading_comments(text);
    t.starts_with('(') || t.starts_with("Level")
}

/// Reads a script and the level it names.
pub fn load(path: &Path) -> Result<(Script, Option<CheckedLevel>), LoadError> {
    let file = path.display().to_string();
    let text = crate::data::read_text(path, crate::data::MAX_FILE_BYTES)?;
    let script: Script = parse_ron(&file, &text)?;
    let places = Places::new(&text);
    let at = |key: &str| places.key(key).unwrap_or((1, 1));
    if let Some((key, message)) = script.cap_problems().into_iter().next() {
        let (line, col) = at(key);
        return Err(LoadError { file, line, col, message });
    }
    let level = match &script.level {
        Some(l) => {
            let (line, col) = at("level");
            let fail = |message: String| LoadError { file: file.clone(), line, col, message };
            let candidates = [path.parent().unwrap_or(Path::new(".")).join(l), PathBuf::from(l)];
            let lp = candidates.iter().find(|p| p.exists()).cloned().unwrap_or_else(|| PathBuf::from(l));
            if lp.extension().is_none_or(|e| e != "ron") {
                return Err(fail(format!("level '{l}' is not a level file (levels are .ron files)")));
            }
            let ltext = crate::data::read_text(&lp, crate::data::MAX_FILE_BYTES).map_err(|e| fail(format!("cannot read level '{l}': {}", e.message)))?;
            let lfile = lp.display().to_string();
            let data = crate::data::RuleData::builtin();
            let root = crate::level_file::project_root(&lp);
            let checked = crate::level_file::check(&lfile, &ltext, &data, &root).map_err(|errs| {
                if !looks_like_level(&ltext) {
                    return fail(format!("level '{l}' is not a level file"));
                }
                let e = &errs[0];
                LoadError { file: lfile.clone(), line: e.line, col: e.col, message: e.message.clone() }
            })?;
            Some(checked)
        }
        None => None,
    };
    if level.is_none() && script.map.is_none() && script.floors.is_none() {
        return Err(LoadError { file, line: 1, col: 1, message: "the script names no level and has no map".into() });
    }
    Ok((script, level))
}

/// Builds the match a script describes: its own map and characters, or its level's; the
/// level's options under the script's; the script's goals or the level's (an inline map
/// without goals: G-15); a crawl level's Exploration Mode; then the start state.
pub fn build_match(data: &crate::data::RuleData, script: &Script, level: Option<&CheckedLevel>) -> Result<Match, Vec<String>> {
    let floors = script.floors.clone().or_else(|| script.map.clone().map(|m| vec![m])).or_else(|| level.map(|l| l.floors.clone())).unwrap_or_default();
    let characters = if script.characters.is_empty() { level.map(|l| l.characters.clone()).unwrap_or_default() } else { script.characters.clone() };
    let mut options = level.map(|l| l.level.options.clone()).unwrap_or_default();
    let s = serde_json::to_value(&script.options).unwrap_or(Value::Null);
    if let (Value::Object(base), Value::Object(over)) = (serde_json::to_value(&options).unwrap_or(Value::Null), s) {
        let mut merged = base;
        merged.extend(over);
        options = serde_json::from_value(Value::Object(merged)).unwrap_or(options);
    }
    let profile = script.profile.as_deref().or(level.and_then(|l| l.level.profile.as_deref()));
    let mut m = crate::level::build_match(data, &floors, &characters, profile, &options)?;
    if script.map.is_none() && script.floors.is_none() {
        if let Some(l) = level {
            m.board.links = l.level.stairs.iter().map(|s| (s.from, s.to)).collect();
        }
    }
    // The script's own goals, or else its level's, exactly as the window and `simulate` play
    // that level (with its default "last side standing"); an inline map without goals: G-15.
    m.goals = if script.victory.is_empty() { level.map(|l| l.goals()).unwrap_or_default() } else { script.victory.clone() };
    let problems = crate::rules::victory::goal_problems(&m);
    if !problems.is_empty() {
        return Err(problems);
    }
    // A crawl level's Exploration Mode (its doors, chests, traps and encounters are placed on
    // its own map, so a script that brings its own map plays one crisis).
    if let (Some(l), true) = (level, script.map.is_none() && script.floors.is_none()) {
        let waiting = l.crawl.as_ref().map(|c| crate::rules::level_events::hold_back(&mut m, &c.arriving())).unwrap_or_default();
        if let Some(c) = &l.crawl {
            m.explore = Some(Box::new(crate::level_crawl::build(c, &m, data.exploration.clone())));
        }
        // Its level events (issue 31), checked against this match: a script's own characters
        // may not be the ones the events name.
        if !l.level.events.is_empty() || (script.characters.is_empty() && l.has_orders()) {
            let mut story = crate::rules::story::Story::new(l.level.events.clone());
            story.waiting = waiting;
            story.vars = l.level.vars.clone();
            if script.characters.is_empty() {
                story.directed.orders = l.start_orders(); // issue 45: the level's own figures
            }
            m.story = Some(Box::new(story));
            let problems = crate::rules::level_events::problems(&m, &l.level.events);
            if !problems.is_empty() {
                return Err(problems.into_iter().map(|(_, p)| format!("the level's {p}")).collect());
            }
        }
    }
    match &script.start {
        Some(StartState { minute: Some(minute), characters, .. }) => {
            let chars = characters.iter().map(|(id, c)| c.exploring(id).map(|s| (id.clone(), s))).collect::<Result<_, _>>().map_err(|e| vec![e])?;
            crate::level_crawl::explore_start(&mut m, *minute, &chars).map_err(|e| vec![e])?
        }
        Some(start) => apply_start(&mut m, start).map_err(|e| vec![e])?,
        None => {}
    }
    Ok(m)
}

impl CharStart {
    /// This character's state at a crawl's start in Exploration Mode; a field only a start in a
    /// crisis sets is an error.
    fn exploring(&self, id: &str) -> Result<crate::level_crawl::ExploreStart, String> {
        let s = self;
        let crisis = [("ap", s.ap.is_some()), ("ap_start", s.ap_start.is_some()), ("free_steps", s.free_steps.is_some())]
            .into_iter()
            .chain([("free_steps_allowance", s.free_steps_allowance.is_some()), ("adjustments", s.adjustments.is_some())])
            .chain([("acted_this_turn", s.acted_this_turn.is_some()), ("took_only", s.took_only.is_some()), ("round_status", s.round_status.is_some())]);
        if let Some((field, _)) = crisis.into_iter().find(|f| f.1) {
            return Err(format!(
                "start '{id}': `{field}` is for a start in a crisis; a start in Exploration Mode (`minute`) sets pos, posture, hp, mp, fp, conditions, ammo and light"
            ));
        }
        let (pos, posture, hp, mp, fp, conditions, ammo, light) = (s.pos, s.posture, s.hp, s.mp, s.fp, s.conditions.clone(), s.ammo, s.light.clone());
        Ok(crate::level_crawl::ExploreStart { pos, posture, hp, mp, fp, conditions, ammo, light })
    }
}

impl Script {
    /// Whether the match starts mid-phase (a `start` without a crawl's `minute`); a crawl's
    /// exploration start (`start.minute`) and no start at all open the match afresh.
    pub fn mid_phase(&self) -> bool {
        self.start.as_ref().is_some_and(|s| s.minute.is_none())
    }
}

/// Applies a mid-phase start to a freshly built match (no opening reset will run).
pub fn apply_start(m: &mut Match, start: &StartState) -> Result<(), String> {
    for id in start.characters.keys() {
        if m.index(id).is_none() {
            return Err(format!("start: there is no character '{id}'"));
        }
    }
    m.clock.turn = start.turn;
    m.clock.round = start.round;
    m.clock.phase = Phase::Action;
    crate::level_crawl::check_positions(m, &|id| start.characters.get(id).and_then(|s| s.pos))?;
    for i in 0..m.fighters.len() {
        let s = start.characters.get(&m.fighters[i].id).cloned().unwrap_or_default();
        let f = &mut m.fighters[i];
        if let Some(p) = s.pos {
            f.pos = p;
        }
        if let Some(p) = s.posture {
            f.posture = p;
        }
        if let Some(h) = s.hp {
            f.hp = h;
        }
        if let Some(v) = s.mp {
            f.mp = v;
        }
        if let Some(v) = s.fp {
            f.fp = v;
        }
        if let Some(c) = s.conditions {
            f.conditions = c;
        }
        if let Some(a) = s.adjustments {
            f.adjustments = a;
        }
        if let Some(a) = s.free_steps_allowance {
            f.free_steps.allowance = a;
        }
        if s.ammo.is_some() {
            f.loadout.ammo = s.ammo;
        }
        f.ap.current = s.ap.unwrap_or(0);
        f.ap.start = s.ap_start.unwrap_or(f.ap.current);
        f.turn.did_anything = s.acted_this_turn.unwrap_or(false);
        f.turn.took_only = s.took_only.unwrap_or(false);
        f.turn.round = s.round_status.unwrap_or_default();
        f.surprised = false;
        let able = m.conditions.can_act(f, m.rules.options.conditions_adv);
        let f = &mut m.fighters[i];
        f.free_steps.available = s.free_steps.unwrap_or(able && f.posture == Posture::Standing && f.ap.current > 0);
    }
    crate::level_crawl::hand_lights(m, start.characters.iter().filter_map(|(id, s)| s.light.as_ref().map(|l| (id.as_str(), l))))?;
    // G-07 snapshot order needs the AP the round started with.
    m.clock.round_start_ap = (0..m.fighters.len()).map(|i| m.effective_ap(i)).collect();
    Ok(())
}

/// The documented final-state object.
pub fn final_state(m: &Match) -> Value {
    let mut chars = serde_json::Map::new();
    for (i, f) in m.fighters.iter().enumerate() {
        let mut c = json!({
                "name": f.name,
                "side": f.side,
                "pos": f.pos,
                "ap": f.ap.current,
                "ap_start": f.ap.start,
                "free_steps": { "allowance": f.free_steps.allowance, "available": f.free_steps.available },
                "free_steps_available": f.free_steps.available,
                "posture": f.posture,
                "defense_adj": f.temp_adjustment(crate::rules::fighter::AdjTarget::Defense, true),
                "defense_adj_ranged": f.temp_adjustment(crate::rules::fighter::AdjTarget::Defense, false),
                "attack_adj": f.temp_adjustment(crate::rules::fighter::AdjTarget::Attack, true),
                "adjustments": f.adjustments,
                "hp": f.hp,
                "max_hp": f.max_hp,
                "mp": f.mp,
                "fp": f.fp,
                "conditions": f.conditions,
                "injury": crate::rules::attack::injury(f),
                "loadout": f.loadout,
                "acted_this_turn": f.turn.did_anything,
                "took_only": f.turn.took_only,
                "round_status": f.turn.round,
        });
        // A crawl: the light burning in his hand and its minutes left (R-EXP-18).
        if let Some((item, minutes)) = m.explore.as_deref().and_then(|x| x.burning.get(&i)) {
            c["light"] = json!({ "item": item, "minutes": minutes });
        }
        if let Some(x) = &m.a4 {
            // Ruleset A4: the figure's round (initiative, slots used, step, AoO, penalties).
            c["a4"] = serde_json::to_value(&x.figs[i]).unwrap_or(Value::Null);
            c["speed"] = json!(crate::rules::a4::speed(m, i));
        }
        chars.insert(f.id.clone(), c);
    }
    json!({
        "type": "final",
        "turn": m.clock.turn,
        "phase": m.clock.phase,
        "round": m.clock.round,
        "opportunity": m.clock.current.map(|i| m.fighters[i].id.clone()),
        "characters": chars,
    })
}

/// Checks a run's output lines against the script's expectations; returns the mismatches.
pub fn check(expect: &Expect, lines: &[Value]) -> Vec<String> {
    let mut bad = Vec::new();
    for v in &expect.verdicts {
        let line = lines.iter().find(|l| l["type"] == "command" && l["index"] == v.command);
        match (line, &v.rule) {
            (None, _) => bad.push(format!("command {}: not run", v.command)),
            (Some(l), None) if l["result"] != "ok" => {
                bad.push(format!("command {}: expected ok, got {} {} ({})", v.command, l["result"], l["rule"], l["reason"]))
            }
            (Some(l), Some(r)) if l["result"] != "rejected" || (l["rule"] != *r && !l["also"].as_array().is_some_and(|a| a.iter().any(|x| x == r))) => {
                bad.push(format!("command {}: expected rejection by {r}, got {} {}", v.command, l["result"], l["rule"]))
            }
            _ => {}
        }
    }
    let events: Vec<&Value> = lines.iter().filter(|l| l["type"] == "event").collect();
    let mut from = 0;
    for e in &expect.events {
        match events[from..].iter().position(|a| matches_fields(a, e)) {
            Some(k) => from += k + 1,
            None => bad.push(format!("event not found (in order): {}", serde_json::to_string(e).unwrap_or_default())),
        }
    }
    if let Some(f) = &expect.final_state {
        let Some(fin) = lines.iter().find(|l| l["type"] == "final") else {
            bad.push("no final line".into());
            return bad;
        };
        let top = [
            ("turn", f.turn.map(|x| json!(x))),
            ("phase", f.phase.map(|x| json!(x))),
            ("round", f.round.map(|x| json!(x))),
            ("opportunity", f.opportunity.as_ref().map(|x| if x.is_empty() { Value::Null } else { json!(x) })),
        ];
        for (k, want) in top {
            if let Some(w) = want {
                if fin[k] != w {
                    bad.push(format!("final {k}: expected {w}, got {}", fin[k]));
                }
            }
        }
        let outcome = &fin["outcome"];
        if let Some(w) = &f.winner {
            let want = if w.is_empty() { Value::Null } else { json!(w) };
            if outcome.is_null() {
                bad.push(format!("final winner: expected {want}, but the crisis is not over"));
            } else if outcome["winner"] != want {
                bad.push(format!("final winner: expected {want}, got {}", outcome["winner"]));
            }
        }
        if let Some(g) = &f.goal {
            let want = json!(g);
            if outcome["goal"] != want {
                bad.push(format!("final goal: expected {want}, got {}", outcome["goal"]));
            }
        }
        for (id, fields) in &f.characters {
            let Some(c) = fin["characters"].get(id) else {
                bad.push(format!("final: no character '{id}'"));
                continue;
            };
            for (k, w) in fields {
                if !c.get(k).is_some_and(|a| value_eq(a, w)) {
                    bad.push(format!("final {id}.{k}: expected {w}, got {}", c.get(k).unwrap_or(&Value::Null)));
                }
            }
        }
    }
    bad
}
