//! Level files (format v1, `docs/levels.md`): map rows with a legend, several floors linked by
//! stairs, sides and who controls them, characters (from reusable monster templates with
//! per-level overrides), ruleset, victory goals, briefing. `check` reports every problem with
//! its `file:line:col`, like a compiler; nothing here panics on bad input.

use crate::data::{LoadError, Places, RuleData, parse_ron};
use crate::level::{CharacterDef, build_match};
use crate::rules::fighter::{Caster, Size, Stats};
use crate::rules::grid::{Board, Pos, Tile};
use crate::rules::profile::{OptionOverrides, Posture, Rank};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The only format version so far.
pub const LEVEL_VERSION: u32 = 1;
/// Caps (issue 4): map size and entity count.
pub const MAX_MAP_SIDE: u32 = 1024;
pub const MAX_ENTITIES: usize = 10_000;

/// What a legend character stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TileSpec {
    Floor,
    Wall,
    DoorOpen,
    DoorClosed,
    DoorLocked,
    Pillar,
    Pit,
    Difficult,
    /// Stairs or ladder; where they lead is in `stairs` (default: the same space one floor up).
    StairsUp,
    /// Stairs or ladder down (default: the same space one floor down).
    StairsDown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Control {
    #[default]
    Human,
    Ai,
}

/// A side: who plays it by default.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideDef {
    pub id: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub control: Control,
    /// Default player name for a human side (hot-seat).
    #[serde(default)]
    pub player: Option<String>,
}

/// An explicit stair or ladder link (both ends must be stairs tiles).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StairDef {
    pub from: Pos,
    pub to: Pos,
}

pub use crate::rules::victory::{Goal, Victory};

/// A character in a level: every field optional so a `template` can supply it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct CharacterEntry {
    /// A monster template: `assets/monsters/<template>.ron`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pos: Option<Pos>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<Stats>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<Size>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub free_steps: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skills: Option<BTreeMap<String, Rank>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abilities: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon_skill: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub two_handed: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shield: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub armor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caster: Option<Caster>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hp: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub posture: Option<Posture>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conditions: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub surprised: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ap_roll_bonus: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mook: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ammo: Option<u32>,
    /// The crossbow starts loaded unless `false` (R-RNG-8, G-22).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loaded: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spells: Option<Vec<String>>,
    /// A sprite under `assets/` (must stay inside it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprite: Option<String>,
    /// The behaviour the monster AI uses (e.g. "brute", "skirmisher", "archer", "coward").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub behaviour: Option<String>,
}

impl CharacterEntry {
    /// Fields given here win over the template's.
    pub fn over(self, t: &CharacterEntry) -> CharacterEntry {
        macro_rules! pick {
            ($($f:ident),*) => { CharacterEntry { $($f: self.$f.or_else(|| t.$f.clone()),)* } };
        }
        pick!(
            template,
            id,
            name,
            side,
            pos,
            stats,
            size,
            free_steps,
            skills,
            abilities,
            weapon,
            weapon_skill,
            two_handed,
            shield,
            armor,
            items,
            caster,
            hp,
            posture,
            conditions,
            surprised,
            ap_roll_bonus,
            mook,
            ammo,
            loaded,
            spells,
            sprite,
            behaviour
        )
    }
}

/// A level file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    pub version: u32,
    pub name: String,
    #[serde(default)]
    pub briefing: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    #[serde(default)]
    pub options: OptionOverrides,
    /// Extra or replaced map characters.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub legend: BTreeMap<char, TileSpec>,
    /// One list of rows per floor, row 0 at the top.
    pub floors: Vec<Vec<String>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub floor_names: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stairs: Vec<StairDef>,
    /// Sides in play order; when empty, every side of the characters, the first one human.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<SideDef>,
    pub characters: Vec<CharacterEntry>,
    /// When empty: each side wins by routing all the others.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub victory: Vec<Victory>,
}

/// One problem in a level, at a place in its file.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LevelError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

/// The project folder a level belongs to: the nearest ancestor with an `assets/` folder, else
/// the working directory.
pub fn project_root(level: &Path) -> PathBuf {
    let abs = level.canonicalize().unwrap_or_else(|_| level.to_path_buf());
    abs.ancestors().skip(1).find(|a| a.join("assets").is_dir()).map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."))
}

/// Where monster templates live.
pub fn templates_dir(root: &Path) -> PathBuf {
    root.join("assets/monsters")
}

/// A template name is a plain file stem: no paths, so it cannot leave `assets/monsters/`.
fn safe_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// A path inside the asset root: relative, no `..`, no drive or root.
pub fn safe_asset_path(s: &str) -> bool {
    let p = Path::new(s);
    !s.is_empty() && p.is_relative() && p.components().all(|c| matches!(c, std::path::Component::Normal(_))) && !s.contains('\\')
}

/// Reads a template by name from `dir`.
pub fn read_template(dir: &Path, name: &str) -> Result<CharacterEntry, String> {
    if !safe_name(name) {
        return Err(format!("template '{name}' is not a plain name (letters, digits, _ and -); templates live in assets/monsters/"));
    }
    let p = dir.join(format!("{name}.ron"));
    let text = std::fs::read_to_string(&p).map_err(|_| format!("unknown monster template '{name}' (no assets/monsters/{name}.ron)"))?;
    parse_ron::<CharacterEntry>(&p.display().to_string(), &text).map_err(|e| format!("template '{name}': {e}"))
}

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
}

/// Parses and checks a level file's text. Every problem is listed, not just the first.
pub fn check(file: &str, text: &str, data: &RuleData, root: &Path) -> Result<CheckedLevel, Vec<LevelError>> {
    let level: Level = parse_ron(file, text).map_err(|e: LoadError| vec![LevelError { line: e.line, col: e.col, message: e.message }])?;
    check_level(level, text, data, root)
}

fn err(errors: &mut Vec<LevelError>, at: (usize, usize), message: impl Into<String>) {
    errors.push(LevelError { line: at.0, col: at.1, message: message.into() });
}

/// Checks a parsed level (`text` is its source, for positions).
pub fn check_level(level: Level, text: &str, data: &RuleData, root: &Path) -> Result<CheckedLevel, Vec<LevelError>> {
    let places = Places::new(text);
    let mut errors = Vec::new();
    let key = |k: &str| places.key(k).unwrap_or((1, 1));
    if level.version != LEVEL_VERSION {
        err(&mut errors, key("version"), format!("unsupported level version {} (this game reads version {LEVEL_VERSION})", level.version));
    }
    if let Some(p) = &level.profile {
        if !data.profiles.profiles.contains_key(p) {
            err(
                &mut errors,
                key("profile"),
                format!("unknown profile '{p}' (known: {})", data.profiles.profiles.keys().cloned().collect::<Vec<_>>().join(", ")),
            );
        }
    }
    // Map: sizes, row lengths, legend characters.
    if level.floors.is_empty() {
        err(&mut errors, key("floors"), "the level has no floors: give at least one list of map rows");
    }
    if level.floors.len() > crate::rules::grid::MAX_FLOORS {
        err(&mut errors, key("floors"), format!("{} floors; the most is {}", level.floors.len(), crate::rules::grid::MAX_FLOORS));
    }
    let mut floors = Vec::new();
    for (fi, rows) in level.floors.iter().enumerate() {
        let width = rows.first().map_or(0, |r| r.chars().count());
        if rows.is_empty() || width == 0 {
            err(&mut errors, places.cell(Pos::on(0, 0, fi as u8)), format!("floor {fi} has no rows"));
        }
        if width as u32 > MAX_MAP_SIDE || rows.len() as u32 > MAX_MAP_SIDE {
            err(
                &mut errors,
                places.cell(Pos::on(0, 0, fi as u8)),
                format!("floor {fi} is {width}×{} spaces; the most is {MAX_MAP_SIDE}×{MAX_MAP_SIDE}", rows.len()),
            );
        }
        let mut out = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            let n = row.chars().count();
            if n != width {
                err(
                    &mut errors,
                    places.cell(Pos::on(0, y as i32, fi as u8)),
                    format!("floor {fi} row {y} has {n} characters; the first row has {width} (rows must be equally long)"),
                );
            }
            let mut translated = String::with_capacity(row.len());
            for (x, c) in row.chars().enumerate() {
                let t = match level.legend.get(&c) {
                    Some(spec) => spec_char(*spec),
                    None if Board::legend(c).is_some() => c,
                    None => {
                        err(
                            &mut errors,
                            places.cell(Pos::on(x as i32, y as i32, fi as u8)),
                            format!("unknown map character '{c}' (add it to `legend`, or use . # / + L O _ ~ > <)"),
                        );
                        '#'
                    }
                };
                translated.push(t);
            }
            // Pad or cut a bad row so the rest of the level can still be checked.
            let padded: String = translated.chars().chain(std::iter::repeat('#')).take(width).collect();
            out.push(padded);
        }
        floors.push(out);
    }
    if !level.floor_names.is_empty() && level.floor_names.len() != level.floors.len() {
        err(&mut errors, key("floor_names"), format!("{} floor names for {} floors", level.floor_names.len(), level.floors.len()));
    }
    let mut board = if level.floors.is_empty() { None } else { Board::from_rows(&floors).ok() };
    // Stairs: every stairs tile leads somewhere walkable (explicit links first).
    if let Some(b) = board.as_mut() {
        for (k, s) in level.stairs.iter().enumerate() {
            for end in [s.from, s.to] {
                if !matches!(b.tile(end), Some(Tile::Stairs { .. })) {
                    err(&mut errors, places.item("stairs", k), format!("stairs link: {end} is not a stairs or ladder space"));
                }
            }
        }
        for (fi, f) in b.floors.iter().enumerate() {
            for y in 0..f.height as i32 {
                for x in 0..f.width as i32 {
                    let p = Pos::on(x, y, fi as u8);
                    if let Some(Tile::Stairs { to }) = b.tile(p) {
                        let linked = level.stairs.iter().any(|s| s.from == p || s.to == p);
                        let dest = Pos::on(x, y, to);
                        if !linked {
                            let why = if to as usize == fi {
                                "there is no floor in that direction".to_string()
                            } else if to as usize >= b.floors.len() {
                                format!("there is no floor {to}")
                            } else if !b.walkable(dest) {
                                format!("floor {to} has no walkable space at ({x}, {y})")
                            } else {
                                String::new()
                            };
                            if !why.is_empty() {
                                err(&mut errors, places.cell(p), format!("the stairs at {p} lead nowhere: {why}; add a `stairs` link"));
                            }
                        }
                    }
                }
            }
        }
    }
    // Characters: templates, required fields, ids, places, equipment.
    if level.characters.len() > MAX_ENTITIES {
        err(&mut errors, key("characters"), format!("{} characters; the most is {MAX_ENTITIES}", level.characters.len()));
    }
    let tdir = templates_dir(root);
    let mut chars = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut behaviours: BTreeMap<String, String> = BTreeMap::new();
    for (i, e) in level.characters.iter().enumerate() {
        let at = places.character(i);
        let merged = match &e.template {
            Some(t) => match read_template(&tdir, t) {
                Ok(tpl) => e.clone().over(&tpl),
                Err(m) => {
                    err(&mut errors, at, m);
                    continue;
                }
            },
            None => e.clone(),
        };
        let label = merged.id.clone().unwrap_or_else(|| format!("#{}", i + 1));
        if let Some(b) = &merged.behaviour {
            if !data.ai.behaviours.contains_key(b) {
                err(
                    &mut errors,
                    at,
                    format!("character '{label}': unknown behaviour '{b}' (known, from assets/ai/behaviours.ron: {})", data.ai.names().join(", ")),
                );
            }
        }
        if let Some(s) = &merged.sprite {
            if !safe_asset_path(s) {
                err(&mut errors, at, format!("character '{label}': sprite '{s}' must be a relative path inside assets/ (no '..', no absolute paths)"));
            }
        }
        let (Some(id), Some(side), Some(pos), Some(stats)) = (merged.id.clone(), merged.side.clone(), merged.pos, merged.stats) else {
            let missing: Vec<&str> =
                [("id", merged.id.is_none()), ("side", merged.side.is_none()), ("pos", merged.pos.is_none()), ("stats", merged.stats.is_none())]
                    .iter()
                    .filter(|x| x.1)
                    .map(|x| x.0)
                    .collect();
            err(&mut errors, at, format!("character '{label}': missing {} (give them here or in a template)", missing.join(", ")));
            continue;
        };
        if let Some(b) = &merged.behaviour {
            behaviours.insert(id.clone(), b.clone());
        }
        if let Some(prev) = seen.insert(id.clone(), i) {
            err(&mut errors, at, format!("character '{id}': the id is already used by character #{}", prev + 1));
        }
        chars.push((
            i,
            CharacterDef {
                id,
                name: merged.name,
                side,
                pos,
                stats,
                size: merged.size.unwrap_or_default(),
                free_steps: merged.free_steps,
                skills: merged.skills.unwrap_or_default(),
                abilities: merged.abilities.unwrap_or_default(),
                weapon: merged.weapon,
                weapon_skill: merged.weapon_skill,
                two_handed: merged.two_handed.unwrap_or(false),
                shield: merged.shield,
                armor: merged.armor,
                items: merged.items.unwrap_or_default(),
                caster: merged.caster.unwrap_or_default(),
                hp: merged.hp,
                posture: merged.posture,
                conditions: merged.conditions.unwrap_or_default(),
                surprised: merged.surprised.unwrap_or(false),
                ap_roll_bonus: merged.ap_roll_bonus.unwrap_or(0),
                mook: merged.mook.unwrap_or(false),
                ammo: merged.ammo,
                loaded: merged.loaded,
                spells: merged.spells.unwrap_or_default(),
            },
        ));
    }
    // Every per-character problem the rules' match builder finds, at that character.
    if let Some(b) = &board {
        for (k, (i, c)) in chars.iter().enumerate() {
            if !b.walkable(c.pos) {
                let what = match b.tile(c.pos) {
                    None => "outside the map".to_string(),
                    Some(t) => format!("on {}", tile_name(t)),
                };
                err(&mut errors, places.character(*i), format!("character '{}': {} is {what}", c.id, c.pos));
            }
            if let Some((_, o)) = chars[..k].iter().find(|(_, o)| o.pos == c.pos) {
                err(&mut errors, places.character(*i), format!("character '{}': {} is already taken by '{}' (one figure per space, G-02)", c.id, c.pos, o.id));
            }
            if let Err(es) = build_match(data, &floors, std::slice::from_ref(c), level.profile.as_deref(), &level.options) {
                // Map and profile problems are reported once, above.
                for e in es.into_iter().filter(|e| !e.contains("is not a space") && !e.contains("already taken") && !e.contains("unknown profile")) {
                    err(&mut errors, places.character(*i), e);
                }
            }
        }
    }
    // Sides.
    let mut side_ids: Vec<String> = Vec::new();
    for (_, c) in &chars {
        if !side_ids.contains(&c.side) {
            side_ids.push(c.side.clone());
        }
    }
    let sides: Vec<SideDef> = if level.sides.is_empty() {
        side_ids
            .iter()
            .enumerate()
            .map(|(k, s)| SideDef { id: s.clone(), name: None, control: if k == 0 { Control::Human } else { Control::Ai }, player: None })
            .collect()
    } else {
        for (k, s) in level.sides.iter().enumerate() {
            let at = places.item("sides", k);
            if !chars.iter().any(|(_, c)| c.side == s.id) {
                err(&mut errors, at, format!("side '{}' has no characters", s.id));
            }
            if level.sides[..k].iter().any(|o| o.id == s.id) {
                err(&mut errors, at, format!("side '{}' is listed twice", s.id));
            }
        }
        for (i, c) in &chars {
            if !level.sides.iter().any(|s| s.id == c.side) {
                err(&mut errors, places.character(*i), format!("character '{}': side '{}' is not in `sides`", c.id, c.side));
            }
        }
        level.sides.clone()
    };
    if sides.len() < 2 && errors.is_empty() {
        err(&mut errors, key("characters"), "a crisis needs at least two sides");
    }
    // Victory goals: names exist; exits can be reached.
    for (k, v) in level.victory.iter().enumerate() {
        let at = places.item("victory", k);
        if !sides.iter().any(|s| s.id == v.side) {
            err(&mut errors, at, format!("victory: unknown side '{}'", v.side));
        }
        match &v.goal {
            Goal::Rout(s) if !sides.iter().any(|x| &x.id == s) => err(&mut errors, at, format!("victory: unknown side '{s}' to rout")),
            Goal::Defeat(c) if !chars.iter().any(|(_, x)| &x.id == c) => err(&mut errors, at, format!("victory: unknown character '{c}'")),
            Goal::SurviveTurns(0) => err(&mut errors, at, "victory: survive at least 1 turn"),
            Goal::ReachExit(exits) => {
                if exits.is_empty() {
                    err(&mut errors, at, "victory: ReachExit needs at least one exit space");
                }
                if let Some(b) = &board {
                    for e in exits {
                        if !b.walkable(*e) {
                            err(&mut errors, at, format!("victory: exit {e} is not a space a figure can stand on"));
                        } else if !chars.iter().any(|(_, c)| c.side == v.side && reachable(b, c.pos, *e, &level.stairs)) {
                            err(&mut errors, at, format!("victory: exit {e} cannot be reached by any character of side '{}'", v.side));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    if !errors.is_empty() {
        errors.sort();
        errors.dedup();
        return Err(errors);
    }
    let characters = chars.into_iter().map(|(_, c)| c).collect();
    Ok(CheckedLevel { level, characters, floors, sides, behaviours })
}

/// A tile as a designer calls it.
fn tile_name(t: Tile) -> &'static str {
    match t {
        Tile::Floor => "floor",
        Tile::Wall => "a wall",
        Tile::DoorOpen => "an open door",
        Tile::DoorClosed => "a closed door",
        Tile::DoorLocked => "a locked door",
        Tile::Pillar => "a pillar",
        Tile::Pit => "a pit",
        Tile::Difficult => "difficult ground",
        Tile::Stairs { .. } => "stairs",
    }
}

fn spec_char(s: TileSpec) -> char {
    match s {
        TileSpec::Floor => '.',
        TileSpec::Wall => '#',
        TileSpec::DoorOpen => '/',
        TileSpec::DoorClosed => '+',
        TileSpec::DoorLocked => 'L',
        TileSpec::Pillar => 'O',
        TileSpec::Pit => '_',
        TileSpec::Difficult => '~',
        TileSpec::StairsUp => '>',
        TileSpec::StairsDown => '<',
    }
}

/// Can a walker get from `a` to `b` (closed doors can be opened; locked ones cannot), using stairs?
pub fn reachable(board: &Board, a: Pos, b: Pos, links: &[StairDef]) -> bool {
    // Closed and locked doors block: the rules engine has no action that opens doors yet.
    let passable = |p: Pos| board.walkable(p);
    let succ = |p: &Pos| -> Vec<Pos> {
        let mut out = Vec::new();
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = Pos::on(p.x + dx, p.y + dy, p.floor);
                if (dx, dy) != (0, 0) && passable(q) && board.step_geometry(*p, q).is_ok() {
                    out.push(q);
                }
            }
        }
        if let Some(Tile::Stairs { to }) = board.tile(*p) {
            out.push(Pos::on(p.x, p.y, to));
        }
        for s in links {
            if s.from == *p {
                out.push(s.to);
            }
            if s.to == *p {
                out.push(s.from);
            }
        }
        out.retain(|q| passable(*q));
        out
    };
    pathfinding::directed::bfs::bfs(&a, succ, |p| *p == b).is_some()
}

impl CheckedLevel {
    /// The level's goals; a level whose goals are all `Rout` (or that names none) is also won by
    /// the last side with anyone able to act.
    pub fn goals(&self) -> Vec<Victory> {
        let mut goals = self.level.victory.clone();
        if goals.iter().all(|v| matches!(v.goal, Goal::Rout(_))) {
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
        Ok(m)
    }
}

/// Reads and checks a level file.
pub fn load(path: &Path, data: &RuleData, root: &Path) -> Result<CheckedLevel, Vec<LevelError>> {
    let text = std::fs::read_to_string(path).map_err(|e| vec![LevelError { line: 1, col: 1, message: format!("cannot read: {e}") }])?;
    check(&path.display().to_string(), &text, data, root)
}
