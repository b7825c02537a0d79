//! Level files (format v1, `docs/levels.md`): map rows with a legend, several floors linked by
//! stairs, sides and who controls them, characters (from reusable monster templates with
//! per-level overrides), ruleset, victory goals, briefing. `check` reports every problem with
//! its `file:line:col`, like a compiler; nothing here panics on bad input.

use crate::data::{LoadError, MAX_ENTITIES, Places, RuleData, parse_ron};
use crate::level::{CharacterDef, build_match};
use crate::rules::fighter::{Caster, Size, Stats};
use crate::rules::grid::{Board, Pos, Tile, tile_name};
use crate::rules::profile::{OptionOverrides, Posture, Rank};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The only format version so far.
pub const LEVEL_VERSION: u32 = 1;
pub use crate::rules::grid::MAX_MAP_SIDE;
/// The most sides, stair links and victory goals in a level.
pub const MAX_SIDES: usize = 16;
pub const MAX_STAIR_LINKS: usize = 1024;
pub const MAX_GOALS: usize = 64;
/// The most exit spaces of one `ReachExit` goal.
pub const MAX_EXITS: usize = 256;

/// What a legend character stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TileSpec {
    Floor,
    Wall,
    DoorOpen,
    DoorClosed,
    DoorLocked,
    /// A secret door (crawls): a closed door hidden until found (R-EXP-14).
    SecretDoor,
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
    #[serde(default, skip_serializing_if = "Option::is_none", deserialize_with = "crate::rules::de::unique_keys_opt")]
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
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty", deserialize_with = "crate::rules::de::unique_keys")]
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
    /// `exploration`: a crawl that starts in Exploration Mode (§24); `crisis` (default): one fight.
    #[serde(default)]
    pub mode: crate::level_crawl::LevelMode,
    /// Crawls: whether the party may camp (R-EXP-22; default true).
    #[serde(default = "crate::level_crawl::yes_camp")]
    pub camp: bool,
    /// Crawls: dark areas (R-EXP-18), `(from: (x, y), to: (x, y))`; elsewhere is lit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dark: Vec<crate::level_crawl::AreaDef>,
    /// Crawls: the sides that explore (default: the first side).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub explorers: Vec<String>,
    /// Crawls: doors with locks or secrets (R-EXP-11, R-EXP-12).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub doors: Vec<crate::level_crawl::DoorDef>,
    /// Crawls: key items and their names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<crate::level_crawl::KeyDef>,
    /// Crawls: chests (R-EXP-15).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chests: Vec<crate::level_crawl::ChestDef>,
    /// Crawls: items lying in spaces (R-EXP-15).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<crate::level_crawl::ItemDef>,
    /// Crawls: traps (R-EXP-16).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traps: Vec<crate::level_crawl::TrapDef>,
    /// Crawls: encounters (R-EXP-23); an NPC in none is an encounter of his own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub encounters: Vec<crate::level_crawl::EncounterDef>,
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
    !s.is_empty() && s.len() <= crate::data::MAX_ID_CHARS && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// A path inside the asset root: relative, no `..`, no drive or root.
pub fn safe_asset_path(s: &str) -> bool {
    let p = Path::new(s);
    !s.is_empty()
        && s.len() <= 255
        && p.is_relative()
        && p.components().all(|c| matches!(c, std::path::Component::Normal(_)))
        && !s.contains(['\\', ':'])
        && !s.chars().any(char::is_control)
}

/// Reads a template by name from `dir`.
pub fn read_template(dir: &Path, name: &str) -> Result<CharacterEntry, String> {
    if !safe_name(name) {
        return Err(format!("template '{name}' is not a plain name (letters, digits, _ and -); templates live in assets/monsters/"));
    }
    let p = dir.join(format!("{name}.ron"));
    if !p.exists() {
        return Err(format!("unknown monster template '{name}' (no assets/monsters/{name}.ron)"));
    }
    let text = crate::data::read_text(&p, crate::data::MAX_FILE_BYTES).map_err(|e| format!("template '{name}': {e}"))?;
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
    /// Character id → the figure he is drawn as: his `sprite` (or his template's), else his
    /// template's name (see `assets/art/figures.ron`).
    pub sprites: BTreeMap<String, String>,
    /// A crawl's doors, chests, traps, encounters (`mode: exploration`).
    pub crawl: Option<crate::level_crawl::Crawl>,
}

/// Parses and checks a level file's text. Every problem is listed (the first
/// [`MAX_ERRORS`](crate::data::MAX_ERRORS), then a count), not just the first.
pub fn check(file: &str, text: &str, data: &RuleData, root: &Path) -> Result<CheckedLevel, Vec<LevelError>> {
    let level: Level = parse_ron(file, text).map_err(|e: LoadError| vec![LevelError { line: e.line, col: e.col, message: e.message }])?;
    check_level(level, text, data, root)
}

/// Problems found so far, capped: past the cap they are only counted.
struct Found<'p, 'a> {
    places: &'p Places<'a>,
    problems: crate::data::Problems<LevelError>,
}

impl Found<'_, '_> {
    fn at(&mut self, at: (usize, usize), message: impl Into<String>) {
        self.problems.push(LevelError { line: at.0, col: at.1, message: message.into() });
    }
    /// A problem whose place and words are only worked out while the list has room (a file
    /// with a million bad characters costs a count past the cap, not a million look-ups).
    fn lazy(&mut self, at: impl FnOnce() -> (usize, usize), message: impl FnOnce() -> String) {
        if self.full() {
            self.problems.more += 1;
        } else {
            self.at(at(), message());
        }
    }
    fn key(&mut self, key: &str, message: impl Into<String>) {
        let at = self.places.key(key).unwrap_or((1, 1));
        self.at(at, message);
    }
    fn full(&self) -> bool {
        self.problems.full()
    }
    fn into_result(self) -> Result<(), Vec<LevelError>> {
        if self.problems.is_empty() {
            return Ok(());
        }
        let mut list = self.problems.list;
        list.sort();
        list.dedup();
        if self.problems.more > 0 {
            let last = list.last().map_or((1, 1), |e| (e.line, e.col));
            list.push(LevelError { line: last.0, col: last.1, message: format!("… and {} more problems", self.problems.more) });
        }
        Err(list)
    }
}

/// Checks a parsed level (`text` is its source, for positions). Every cap is checked as soon as
/// its value is known, and work per item stops once a cap is exceeded or the problem list is
/// full, so the cost of checking grows linearly with the file.
pub fn check_level(level: Level, text: &str, data: &RuleData, root: &Path) -> Result<CheckedLevel, Vec<LevelError>> {
    let places = Places::new(text);
    let mut found = Found { places: &places, problems: crate::data::Problems::default() };
    let f = &mut found;
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
    // Map: sizes first, then row lengths and legend characters.
    let max_floors = crate::rules::grid::MAX_FLOORS;
    if level.floors.is_empty() {
        f.key("floors", "the level has no floors: give at least one list of map rows");
    }
    if level.floors.len() > max_floors {
        f.key("floors", format!("{} floors; the most is {max_floors}", level.floors.len()));
    }
    let mut floors = Vec::new();
    let mut secret: Vec<Pos> = Vec::new();
    let mut map_ok = !level.floors.is_empty() && level.floors.len() <= max_floors;
    for (fi, rows) in level.floors.iter().enumerate().take(max_floors) {
        let width = rows.first().map_or(0, |r| r.chars().count());
        if rows.is_empty() || width == 0 {
            f.at(places.cell(Pos::on(0, 0, fi as u8)), format!("floor {fi} has no rows"));
            map_ok = false;
            continue;
        }
        // Sizes before any row is translated or padded (counting characters is linear in the
        // file, which is itself capped).
        let widest = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
        if rows.len() > MAX_MAP_SIDE as usize || widest > MAX_MAP_SIDE as usize {
            f.at(places.cell(Pos::on(0, 0, fi as u8)), format!("floor {fi} is {widest}×{} spaces; the most is {MAX_MAP_SIDE}×{MAX_MAP_SIDE}", rows.len()));
            map_ok = false;
            continue;
        }
        let mut out = Vec::with_capacity(rows.len());
        for (y, row) in rows.iter().enumerate() {
            let n = row.chars().count();
            if n != width {
                f.lazy(
                    || places.cell(Pos::on(0, y as i32, fi as u8)),
                    || format!("floor {fi} row {y} has {n} characters; the first row has {width} (rows must be equally long)"),
                );
            }
            let mut translated = String::with_capacity(width);
            for (x, c) in row.chars().take(width).enumerate() {
                let t = match level.legend.get(&c) {
                    Some(TileSpec::SecretDoor) => {
                        secret.push(Pos::on(x as i32, y as i32, fi as u8));
                        '+'
                    }
                    Some(spec) => spec_char(*spec),
                    None if c == 'S' => {
                        secret.push(Pos::on(x as i32, y as i32, fi as u8));
                        '+'
                    }
                    None if Board::legend(c).is_some() => c,
                    None => {
                        let shown = if c.is_control() { format!("U+{:04X}", c as u32) } else { format!("'{c}'") };
                        f.lazy(
                            || places.cell(Pos::on(x as i32, y as i32, fi as u8)),
                            || format!("unknown map character {shown} (add it to `legend`, or use . # / + L S O _ ~ > <)"),
                        );
                        '#'
                    }
                };
                translated.push(t);
            }
            // Pad a short row so the rest of the level can still be checked (long ones were cut).
            translated.extend(std::iter::repeat_n('#', width.saturating_sub(n)));
            out.push(translated);
        }
        floors.push(out);
    }
    if !level.floor_names.is_empty() && level.floor_names.len() != level.floors.len() {
        f.key("floor_names", format!("{} floor names for {} floors", level.floor_names.len(), level.floors.len()));
    }
    for n in level.floor_names.iter().take(max_floors + 1) {
        if let Some(p) = crate::data::text_problem("a floor name", n, crate::data::MAX_NAME_CHARS) {
            f.key("floor_names", p);
        }
    }
    let board = if map_ok { Board::from_rows(&floors).ok() } else { None };
    // Stairs: every stairs tile leads somewhere walkable (explicit links first).
    if level.stairs.len() > MAX_STAIR_LINKS {
        f.key("stairs", format!("{} stair links; the most is {MAX_STAIR_LINKS}", level.stairs.len()));
    } else if let Some(b) = &board {
        let mut linked = std::collections::HashSet::new();
        for (k, s) in level.stairs.iter().enumerate() {
            for end in [s.from, s.to] {
                linked.insert(end);
                if !matches!(b.tile(end), Some(Tile::Stairs { .. })) {
                    f.at(places.item("stairs", k), format!("stairs link: {end} is not a stairs or ladder space"));
                }
            }
        }
        'floors: for (fi, fl) in b.floors.iter().enumerate() {
            for y in 0..fl.height as i32 {
                for x in 0..fl.width as i32 {
                    if f.full() {
                        break 'floors;
                    }
                    let p = Pos::on(x, y, fi as u8);
                    if let Some(Tile::Stairs { to }) = b.tile(p) {
                        let dest = Pos::on(x, y, to);
                        if !linked.contains(&p) {
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
                                f.at(places.cell(p), format!("the stairs at {p} lead nowhere: {why}; add a `stairs` link"));
                            }
                        }
                    }
                }
            }
        }
    }
    // Characters: the count first; then templates, required fields, ids, numbers, equipment.
    let mut chars = Vec::new();
    let mut behaviours: BTreeMap<String, String> = BTreeMap::new();
    let mut sprites: BTreeMap<String, String> = BTreeMap::new();
    if level.characters.len() > MAX_ENTITIES {
        f.key("characters", format!("{} characters; the most is {MAX_ENTITIES}", level.characters.len()));
    } else {
        let tdir = templates_dir(root);
        let mut templates: BTreeMap<&str, Result<CharacterEntry, String>> = BTreeMap::new();
        let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        let base = level.profile.as_deref().map(|p| if p == data.a4.name { data.a4.base_profile.as_str() } else { p });
        let rules = data.profiles.ruleset(base, &level.options).or_else(|_| data.profiles.ruleset(None, &level.options));
        for (i, e) in level.characters.iter().enumerate() {
            if f.full() {
                f.problems.more += 1;
                continue;
            }
            let at = places.character(i);
            let merged = match &e.template {
                Some(t) => match templates.entry(t.as_str()).or_insert_with(|| read_template(&tdir, t)) {
                    Ok(tpl) => e.clone().over(tpl),
                    Err(m) => {
                        f.at(at, m.clone());
                        continue;
                    }
                },
                None => e.clone(),
            };
            let label = merged.id.as_deref().map_or_else(|| format!("#{}", i + 1), clip);
            if let Some(b) = &merged.behaviour {
                if !data.ai.behaviours.contains_key(b) {
                    f.at(
                        at,
                        format!("character '{label}': unknown behaviour '{}' (known, from assets/ai/behaviours.ron: {})", clip(b), data.ai.names().join(", ")),
                    );
                }
            }
            if let Some(s) = &merged.sprite {
                if !safe_asset_path(s) {
                    f.at(
                        at,
                        format!("character '{label}': sprite '{}' must be a relative path inside assets/ (no '..', no absolute paths, no 'scheme:')", clip(s)),
                    );
                } else if !data.figures.known(s) {
                    f.at(
                        at,
                        format!(
                            "character '{label}': sprite '{}' is neither a figure of assets/art/figures.ron ({}) nor a .png under assets/",
                            clip(s),
                            data.figures.kinds.join(", ")
                        ),
                    );
                }
            }
            let (Some(id), Some(side), Some(pos), Some(stats)) = (merged.id.clone(), merged.side.clone(), merged.pos, merged.stats) else {
                let missing: Vec<&str> =
                    [("id", merged.id.is_none()), ("side", merged.side.is_none()), ("pos", merged.pos.is_none()), ("stats", merged.stats.is_none())]
                        .iter()
                        .filter(|x| x.1)
                        .map(|x| x.0)
                        .collect();
                f.at(at, format!("character '{label}': missing {} (give them here or in a template)", missing.join(", ")));
                continue;
            };
            if let Some(p) = crate::data::id_problem(&id) {
                f.at(at, format!("character '{label}': {p}"));
                continue;
            }
            if let Some(prev) = seen.insert(id.clone(), i) {
                f.at(at, format!("character '{id}': the id is already used by character #{}", prev + 1));
            }
            let def = CharacterDef {
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
            };
            // Every per-character problem the rules' match builder would find, at that character.
            if let Ok(rules) = &rules {
                if let Err(es) = crate::level::fighter_from_def(data, rules, &def) {
                    for e in es {
                        f.at(at, clip_message(&e));
                    }
                }
            }
            if let Some(b) = &merged.behaviour {
                behaviours.insert(def.id.clone(), b.clone());
            }
            if let Some(s) = merged.sprite.clone().or_else(|| e.template.clone()) {
                sprites.insert(def.id.clone(), s);
            }
            chars.push((i, def));
        }
    }
    // Places on the map: one figure per space (G-02).
    if let Some(b) = &board {
        let mut taken: std::collections::HashMap<Pos, &str> = std::collections::HashMap::new();
        for (i, c) in &chars {
            if f.full() {
                break;
            }
            if !b.walkable(c.pos) {
                let what = match b.tile(c.pos) {
                    None => "outside the map".to_string(),
                    Some(t) => format!("on {}", tile_name(t)),
                };
                f.at(places.character(*i), format!("character '{}': {} is {what}", c.id, c.pos));
            }
            if let Some(o) = taken.insert(c.pos, &c.id) {
                f.at(places.character(*i), format!("character '{}': {} is already taken by '{o}' (one figure per space, G-02)", c.id, c.pos));
            }
        }
    }
    // Sides.
    let mut side_ids: Vec<String> = Vec::new();
    let mut side_set = std::collections::HashSet::new();
    for (_, c) in &chars {
        if side_set.insert(c.side.as_str()) {
            side_ids.push(c.side.clone());
        }
    }
    let sides: Vec<SideDef> = if level.sides.len() > MAX_SIDES {
        f.key("sides", format!("{} sides; the most is {MAX_SIDES}", level.sides.len()));
        Vec::new()
    } else if level.sides.is_empty() {
        if side_ids.len() > MAX_SIDES {
            f.key("characters", format!("the characters belong to {} sides; the most is {MAX_SIDES}", side_ids.len()));
        }
        side_ids
            .iter()
            .take(MAX_SIDES)
            .enumerate()
            .map(|(k, s)| SideDef { id: s.clone(), name: None, control: if k == 0 { Control::Human } else { Control::Ai }, player: None })
            .collect()
    } else {
        for (k, s) in level.sides.iter().enumerate() {
            let at = places.item("sides", k);
            if let Some(p) = crate::data::id_problem(&s.id) {
                f.at(at, format!("side: {p}"));
            } else if !side_set.contains(s.id.as_str()) {
                f.at(at, format!("side '{}' has no characters", s.id));
            }
            for (what, t) in [("name", &s.name), ("player", &s.player)] {
                if let Some(p) = t.as_deref().and_then(|t| crate::data::text_problem(&format!("the side's {what}"), t, crate::data::MAX_NAME_CHARS)) {
                    f.at(at, format!("side '{}': {p}", clip(&s.id)));
                }
            }
            if level.sides[..k].iter().any(|o| o.id == s.id) {
                f.at(at, format!("side '{}' is listed twice", clip(&s.id)));
            }
        }
        let listed: std::collections::HashSet<&str> = level.sides.iter().map(|s| s.id.as_str()).collect();
        for (i, c) in &chars {
            if !listed.contains(c.side.as_str()) {
                f.at(places.character(*i), format!("character '{}': side '{}' is not in `sides`", c.id, clip(&c.side)));
            }
        }
        level.sides.clone()
    };
    if sides.len() < 2 && f.problems.is_empty() {
        f.key("characters", "a crisis needs at least two sides");
    }
    // Victory goals: names exist; exits can be reached (one search per side, not per exit).
    if level.victory.len() > MAX_GOALS {
        f.key("victory", format!("{} victory goals; the most is {MAX_GOALS}", level.victory.len()));
    } else {
        let mut reach: BTreeMap<&str, std::collections::HashSet<Pos>> = BTreeMap::new();
        for (k, v) in level.victory.iter().enumerate() {
            let at = places.item("victory", k);
            if !sides.iter().any(|s| s.id == v.side) {
                f.at(at, format!("victory: unknown side '{}'", clip(&v.side)));
            }
            match &v.goal {
                Goal::Rout(s) if !sides.iter().any(|x| &x.id == s) => f.at(at, format!("victory: unknown side '{}' to rout", clip(s))),
                Goal::Defeat(c) if !chars.iter().any(|(_, x)| &x.id == c) => f.at(at, format!("victory: unknown character '{}'", clip(c))),
                Goal::SurviveTurns(0) => f.at(at, "victory: survive at least 1 turn"),
                Goal::SurviveTurns(n) if *n > MAX_SURVIVE_TURNS => f.at(at, format!("victory: survive at most {MAX_SURVIVE_TURNS} turns (not {n})")),
                Goal::ReachExit(exits) if exits.len() > MAX_EXITS => f.at(at, format!("victory: {} exit spaces; the most is {MAX_EXITS}", exits.len())),
                Goal::ReachExit(exits) => {
                    if exits.is_empty() {
                        f.at(at, "victory: ReachExit needs at least one exit space");
                    }
                    if let Some(b) = &board {
                        let reached = reach.entry(v.side.as_str()).or_insert_with(|| {
                            let starts: Vec<Pos> = chars.iter().filter(|(_, c)| c.side == v.side).map(|(_, c)| c.pos).collect();
                            if level.mode == crate::level_crawl::LevelMode::Exploration {
                                // A crawl's heroes open doors (and find secret ones) on the way.
                                let mut open = b.clone();
                                for (fi, fl) in b.floors.iter().enumerate() {
                                    for y in 0..fl.height as i32 {
                                        for x in 0..fl.width as i32 {
                                            let p = Pos::on(x, y, fi as u8);
                                            if matches!(b.tile(p), Some(Tile::DoorClosed | Tile::DoorLocked)) {
                                                open.set_tile(p, Tile::DoorOpen);
                                            }
                                        }
                                    }
                                }
                                reachable_from(&open, &starts, &level.stairs)
                            } else {
                                reachable_from(b, &starts, &level.stairs)
                            }
                        });
                        for e in exits {
                            if !b.walkable(*e) {
                                f.at(at, format!("victory: exit {e} is not a space a figure can stand on"));
                            } else if !reached.contains(e) {
                                f.at(at, format!("victory: exit {e} cannot be reached by any character of side '{}'", v.side));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }
    // A crawl's doors, keys, chests, items, traps and encounters.
    let defs: Vec<CharacterDef> = chars.iter().map(|(_, c)| c.clone()).collect();
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
    };
    let crawl = crate::level_crawl::check(&def, board.as_ref(), &secret, &defs, &side_names, data, &places, &mut |at, m| f.at(at, m));
    if let Some(c) = &crawl {
        let explorer_goal = level.victory.iter().any(|v| c.explorers.contains(&v.side));
        if !explorer_goal && level.victory.len() <= MAX_GOALS {
            f.key("victory", "a crawl needs a victory goal for the explorers (e.g. `(side: \"heroes\", goal: ReachExit([(x, y)]))`)");
        }
    }
    found.into_result()?;
    let characters = chars.into_iter().map(|(_, c)| c).collect();
    Ok(CheckedLevel { level, characters, floors, sides, behaviours, sprites, crawl })
}

/// The longest survival goal.
pub const MAX_SURVIVE_TURNS: u32 = 1000;

/// A value from the file, shortened for an error message (a 100 000-character id is shown by
/// its start).
fn clip(s: &str) -> String {
    const SHOWN: usize = 40;
    let mut out: String = s.chars().take(SHOWN).map(|c| if c.is_control() { '?' } else { c }).collect();
    if s.chars().nth(SHOWN).is_some() {
        out.push('…');
    }
    out
}

/// A message that quotes values from the file, kept to a sensible length.
fn clip_message(m: &str) -> String {
    if m.chars().count() <= 300 { m.to_string() } else { format!("{}…", m.chars().take(300).collect::<String>()) }
}

fn spec_char(s: TileSpec) -> char {
    match s {
        TileSpec::Floor => '.',
        TileSpec::Wall => '#',
        TileSpec::DoorOpen => '/',
        TileSpec::DoorClosed => '+',
        TileSpec::DoorLocked => 'L',
        TileSpec::SecretDoor => '+',
        TileSpec::Pillar => 'O',
        TileSpec::Pit => '_',
        TileSpec::Difficult => '~',
        TileSpec::StairsUp => '>',
        TileSpec::StairsDown => '<',
    }
}

/// Every space a walker can get to from any of `starts` (closed and locked doors block; stairs
/// and explicit links lead on): one breadth-first search (`pathfinding`'s `bfs_reach`, from a
/// virtual node whose neighbours are the starts), linear in the map's size.
pub fn reachable_from(board: &Board, starts: &[Pos], links: &[StairDef]) -> std::collections::HashSet<Pos> {
    let mut link_map: std::collections::HashMap<Pos, Vec<Pos>> = std::collections::HashMap::new();
    for s in links {
        link_map.entry(s.from).or_default().push(s.to);
        link_map.entry(s.to).or_default().push(s.from);
    }
    let next = |p: &Option<Pos>| -> Vec<Option<Pos>> {
        let Some(p) = *p else { return starts.iter().copied().filter(|s| board.walkable(*s)).map(Some).collect() };
        let mut out = Vec::with_capacity(10);
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = Pos::on(p.x + dx, p.y + dy, p.floor);
                if (dx, dy) != (0, 0) && board.walkable(q) && board.step_geometry(p, q).is_ok() {
                    out.push(q);
                }
            }
        }
        if let Some(Tile::Stairs { to }) = board.tile(p) {
            out.push(Pos::on(p.x, p.y, to));
        }
        out.extend(link_map.get(&p).into_iter().flatten().copied());
        out.into_iter().filter(|q| board.walkable(*q)).map(Some).collect()
    };
    pathfinding::directed::bfs::bfs_reach(None, next).flatten().collect()
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
        if let Some(c) = &self.crawl {
            m.explore = Some(Box::new(crate::level_crawl::build(c, &m, data.exploration.clone())));
        }
        Ok(m)
    }
}

/// Reads and checks a level file.
pub fn load(path: &Path, data: &RuleData, root: &Path) -> Result<CheckedLevel, Vec<LevelError>> {
    let text = crate::data::read_text(path, crate::data::MAX_FILE_BYTES).map_err(|e| vec![LevelError { line: e.line, col: e.col, message: e.message }])?;
    check(&path.display().to_string(), &text, data, root)
}

/// A `w`×`h` map: walls around, a pillar every 9 spaces, some difficult ground.
fn generated_rows(w: usize, h: usize) -> Vec<String> {
    (0..h)
        .map(|y| {
            (0..w)
                .map(|x| {
                    if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                        '#'
                    } else if x % 9 == 0 && y % 9 == 0 {
                        'O'
                    } else if (x + 2 * y) % 23 == 0 {
                        '~'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect()
}

/// A generated level's text for benches and stress tests: a `w`×`h` room (walls around, a
/// pillar every 9 spaces, some difficult ground) with `n` swordsmen on two sides, spread out.
pub fn generated(w: usize, h: usize, n: usize) -> String {
    let chars: Vec<String> = (0..n)
        .map(|i| {
            let side = if i % 2 == 0 { "heroes" } else { "monsters" };
            let cols = (w - 2) / 2;
            let (x, y) = (1 + (i % cols) * 2, 1 + (i / cols) * 2);
            format!(
                r#"(id: "c{i}", side: "{side}", pos: ({x}, {y}), stats: (brawn: 8, finesse: 7, savvy: 5, nerve: 6), weapon: "broadsword", skills: {{"swords": journeyman}})"#
            )
        })
        .collect();
    let map: Vec<String> = generated_rows(w, h).iter().map(|r| format!("{r:?}")).collect();
    format!("Level(version: 1, name: \"bench\", floors: [[\n{}\n]], characters: [\n{}\n])", map.join(",\n"), chars.join(",\n"))
}
