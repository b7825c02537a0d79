//! Checking a level file: `check` parses it, `check_level` checks it part by part (the header,
//! the map and its stairs, the characters and their places, the sides and goals, a crawl's
//! features), listing every problem at its place; a `CheckedLevel` is ready to play.

use super::characters::{Cast, check_characters, check_places};
use super::format::{LEVEL_VERSION, Level, LevelError, MAX_GOALS, SideDef};
use super::found::{Found, clip};
use super::map::{Map, check_map};
use super::sides::{check_sides, check_victory};
use crate::data::{LoadError, Places, RuleData, parse_ron};
use crate::level::{CharacterDef, build_match};
use crate::level_crawl::Crawl;
use crate::rules::victory::{Goal, Victory};
use std::collections::BTreeMap;
use std::path::Path;

/// A checked level, ready to play.
#[derive(Clone, Debug)]
pub struct CheckedLevel {
    pub level: Level,
    pub characters: Vec<CharacterDef>,
    /// Rows with custom legend characters translated to the default legend.
    pub floors: Vec<Vec<String>>,
    pub sides: Vec<SideDef>,
    /// Character id → AI behaviour (from the entry or its template).
    pub behaviours: BTreeMap<String, String>,
    /// Character id → the figure he is drawn as: his `sprite` (or his template's), else his
    /// template's name (see `assets/art/figures.ron`).
    pub sprites: BTreeMap<String, String>,
    /// A crawl's doors, chests, traps, encounters (`mode: exploration`).
    pub crawl: Option<crate::level_crawl::Crawl>,
    /// Issue 45: character id → his own orders, with his place in `characters`.
    pub orders: BTreeMap<String, (usize, crate::rules::directives::Orders)>,
}

/// Parses and checks a level file's text. Every problem is listed (the first
/// [`MAX_ERRORS`](crate::data::MAX_ERRORS), then a count), not just the first.
pub fn check(file: &str, text: &str, data: &RuleData, root: &Path) -> Result<CheckedLevel, Vec<LevelError>> {
    let level: Level = parse_ron(file, text).map_err(|e: LoadError| vec![LevelError { line: e.line, col: e.col, message: e.message }])?;
    check_level(level, text, data, root)
}

/// Checks a parsed level (`text` is its source, for positions). Every cap is checked as soon as
/// its value is known, and work per item stops once a cap is exceeded or the problem list is
/// full, so the cost of checking grows linearly with the file.
pub fn check_level(level: Level, text: &str, data: &RuleData, root: &Path) -> Result<CheckedLevel, Vec<LevelError>> {
    let places = Places::new(text);
    let mut found = Found { places: &places, problems: crate::data::Problems::default() };
    let f = &mut found;
    check_header(&level, data, f);
    let map = check_map(&level, f);
    let cast = check_characters(&level, data, root, f);
    check_places(map.board.as_ref(), &cast, f);
    let sides = check_sides(&level, &cast, f);
    check_victory(&level, &sides, &cast, map.board.as_ref(), f);
    let crawl = check_crawl(&level, &map, &cast, &sides, data, f);
    // Issue 46: the level's variables, capped; each name an id.
    if let Some(p) = crate::rules::event_logic::vars_problem(&level.vars) {
        f.key("vars", p);
    }
    if level.events.len() > crate::rules::story::MAX_EVENTS {
        f.key("events", format!("at most {} events in a level (this one has {})", crate::rules::story::MAX_EVENTS, level.events.len()));
    } else if crawl.is_some() {
        check_arrivals(&level, f);
    }
    found.into_result()?;
    let Cast { chars, behaviours, sprites, orders } = cast;
    let characters = chars.into_iter().map(|(_, c)| c).collect();
    let checked = CheckedLevel { level, characters, floors: map.floors, sides, behaviours, sprites, crawl, orders };
    check_events(&checked, &places, data)?;
    Ok(checked)
}

/// Issue 45: the orders of the characters and encounters, against the match the level starts
/// (spaces on the map and where a figure can stand, known figures, items, encounters, the
/// caps); each problem at its character's or encounter's entry.
fn order_problems(checked: &CheckedLevel, m: &crate::rules::state::Match, places: &Places) -> Vec<LevelError> {
    use crate::rules::directives::problem;
    let mut out = Vec::new();
    for (id, (k, o)) in &checked.orders {
        if let Some(p) = problem(m, Some(id), o) {
            let (line, col) = places.character(*k);
            out.push(LevelError { line, col, message: format!("character '{}': {p}", clip(id)) });
        }
    }
    for (k, e) in checked.level.encounters.iter().enumerate().take(crate::level_crawl::MAX_FEATURES) {
        if let Some(p) = e.orders.as_ref().and_then(|o| problem(m, None, o)) {
            let (line, col) = places.item("encounters", k);
            out.push(LevelError { line, col, message: format!("encounter '{}': {p}", clip(&e.id)) });
        }
    }
    out
}

/// The level events (issue 31), against the match the level starts: its sides, figures, items,
/// encounters and doors. Checked once the rest of the level is sound; each problem points at
/// its event's entry.
fn check_events(checked: &CheckedLevel, places: &Places, data: &RuleData) -> Result<(), Vec<LevelError>> {
    let events = &checked.level.events;
    if events.is_empty() && !checked.has_orders() {
        return Ok(());
    }
    let m = checked.build(data).map_err(|e| e.into_iter().map(|message| LevelError { line: 1, col: 1, message }).collect::<Vec<_>>())?;
    let problems = crate::rules::level_events::problems(&m, events);
    let mut out: Vec<LevelError> = order_problems(checked, &m, places);
    out.extend(problems.into_iter().map(|(k, message)| {
        let (line, col) = if k < events.len() { places.item("events", k) } else { places.key("events").unwrap_or((1, 1)) };
        LevelError { line, col, message }
    }));
    if out.is_empty() {
        return Ok(());
    }
    out.sort();
    out.truncate(crate::data::MAX_ERRORS);
    Err(out)
}

/// Each encounter that arrives later (`arrives: true`) is brought by a level event's `spawn`
/// (else its figures would never come). The events are within their cap.
fn check_arrivals(level: &Level, f: &mut Found) {
    for (k, e) in level.encounters.iter().enumerate().filter(|(_, e)| e.arrives).take(crate::level_crawl::MAX_FEATURES) {
        let spawned = level
            .events
            .iter()
            .any(|d| d.then.iter().take(crate::rules::story::MAX_ACTIONS).any(|a| matches!(a, crate::rules::story::Action::Spawn(x) if *x == e.id)));
        if !spawned {
            let places = f.places;
            f.at(
                places.item("encounters", k),
                format!("encounter '{}' arrives later (`arrives: true`) but no level event spawns it (`spawn(\"{}\")`)", clip(&e.id), clip(&e.id)),
            );
        }
    }
}

/// The header: the version, the name, the briefing and the rules profile.
fn check_header(level: &Level, data: &RuleData, f: &mut Found) {
    if level.version != LEVEL_VERSION {
        f.key("version", format!("unsupported level version {} (this game reads version {LEVEL_VERSION})", level.version));
    }
    if let Some(p) = crate::data::text_problem("the name", &level.name, crate::data::MAX_NAME_CHARS) {
        f.key("name", p);
    }
    if let Some(p) = crate::data::text_problem("the briefing", &level.briefing, crate::data::MAX_TEXT_CHARS) {
        f.key("briefing", p);
    }
    if let Some(p) = &level.profile {
        if !data.profiles.profiles.contains_key(p) && *p != data.a4.name {
            let known = data.profiles.profiles.keys().chain(std::iter::once(&data.a4.name)).cloned().collect::<Vec<_>>().join(", ");
            f.key("profile", format!("unknown profile '{}' (known: {known})", clip(p)));
        }
    }
    if let Some(p) = turn_limit_problem(level.turn_limit) {
        f.key("turn_limit", p);
    }
}

/// What is wrong with a turn limit (a level's, a save's or a host's): it is 1 to
/// `MAX_TURN_LIMIT` turns.
pub fn turn_limit_problem(limit: Option<u32>) -> Option<String> {
    let max = super::format::MAX_TURN_LIMIT;
    limit.filter(|n| !(1..=max).contains(n)).map(|n| format!("a turn limit of {n}: give 1 to {max} turns"))
}

/// A crawl's doors, keys, chests, items, traps and encounters, and a goal for its explorers.
fn check_crawl(level: &Level, map: &Map, cast: &Cast, sides: &[SideDef], data: &RuleData, f: &mut Found) -> Option<Crawl> {
    let places = f.places;
    let defs: Vec<CharacterDef> = cast.chars.iter().map(|(_, c)| c.clone()).collect();
    let side_names: Vec<String> = sides.iter().map(|s| s.id.clone()).collect();
    let def = crate::level_crawl::CrawlDef {
        mode: level.mode,
        camp: level.camp,
        dark: &level.dark,
        explorers: &level.explorers,
        doors: &level.doors,
        keys: &level.keys,
        chests: &level.chests,
        items: &level.items,
        traps: &level.traps,
        encounters: &level.encounters,
        checks: &level.checks,
        minute: level.minute,
        lights: &level.lights,
        non_hostile: &level.non_hostile,
    };
    let crawl = crate::level_crawl::check(&def, map.board.as_ref(), &map.secret, &defs, &side_names, data, places, &mut |at, m| f.at(at, m));
    if let Some(c) = &crawl {
        let explorer_goal = level.victory.iter().any(|v| c.explorers.contains(&v.side));
        if !explorer_goal && level.victory.len() <= MAX_GOALS {
            f.key("victory", "a crawl needs a victory goal for the explorers (e.g. `(side: \"heroes\", goal: ReachExit([(x, y)]))`)");
        }
    }
    crawl
}

impl CheckedLevel {
    /// The ids of its sides, in the level's order.
    pub fn side_ids(&self) -> impl Iterator<Item = &str> {
        self.sides.iter().map(|s| s.id.as_str())
    }

    /// The level's goals; a level whose goals are all `Rout` (or that names none) is also won by
    /// the last side with anyone able to act.
    pub fn goals(&self) -> Vec<Victory> {
        let mut goals = self.level.victory.clone();
        // A crawl is won only by its goals: its sleeping monsters do not make anyone last standing.
        if self.crawl.is_none() && goals.iter().all(|v| matches!(v.goal, Goal::Rout(_))) {
            goals.extend(self.sides.iter().map(|s| Victory { side: s.id.clone(), goal: Goal::LastStanding }));
        }
        goals
    }

    /// The match this level starts (the opening reset has not run yet).
    pub fn build(&self, data: &RuleData) -> Result<crate::rules::state::Match, Vec<String>> {
        let mut m = build_match(data, &self.floors, &self.characters, self.level.profile.as_deref(), &self.level.options)?;
        // Explicit links override the default "same space, next floor".
        m.board.links = self.level.stairs.iter().map(|s| (s.from, s.to)).collect();
        m.goals = self.goals();
        m.turn_limit = self.level.turn_limit;
        let waiting = self.crawl.as_ref().map(|c| crate::rules::level_events::hold_back(&mut m, &c.arriving())).unwrap_or_default();
        if let Some(c) = &self.crawl {
            m.explore = Some(Box::new(crate::level_crawl::build(c, &m, data.exploration.clone())));
        }
        if !self.level.events.is_empty() || self.has_orders() {
            let mut story = crate::rules::story::Story::new(self.level.events.clone());
            story.waiting = waiting;
            story.vars = self.level.vars.clone();
            story.directed.orders = self.start_orders();
            m.story = Some(Box::new(story));
        }
        Ok(m)
    }

    /// Whether a character or an encounter has orders (issue 45).
    pub fn has_orders(&self) -> bool {
        !self.orders.is_empty() || self.level.encounters.iter().any(|e| e.orders.is_some())
    }

    /// The orders at the start (issue 45): each encounter's to its members, a character's own
    /// over them.
    pub fn start_orders(&self) -> BTreeMap<String, crate::rules::directives::Orders> {
        let enc: Vec<(Vec<String>, Option<crate::rules::directives::Orders>)> =
            self.level.encounters.iter().map(|e| (e.members.clone(), e.orders.clone())).collect();
        let own: BTreeMap<String, crate::rules::directives::Orders> = self.orders.iter().map(|(id, (_, o))| (id.clone(), o.clone())).collect();
        crate::rules::directives::at_start(&enc, &own)
    }
}

/// Reads and checks a level file.
pub fn load(path: &Path, data: &RuleData, root: &Path) -> Result<CheckedLevel, Vec<LevelError>> {
    let text = crate::data::read_text(path, crate::data::MAX_FILE_BYTES).map_err(|e| vec![LevelError { line: e.line, col: e.col, message: e.message }])?;
    check(&path.display().to_string(), &text, data, root)
}
