//! Reading data files: RON as levels, scripts and rule tables are written (`parse_ron`), the
//! typed error with its `file:line:col` (`LoadError`), locating a field or id in a file's text
//! for errors found after parsing, and the rule data every match needs (`RuleData`, from
//! `assets/` or the copies compiled in). Levels, scripts and the AI's weights all read through
//! here; nothing here knows about them.

use crate::rules::conditions::ConditionBook;
use crate::rules::equipment::EquipmentBook;
use crate::rules::grid::Pos;
use crate::rules::profile::ProfileBook;
use crate::rules::spells::SpellBook;
use crate::rules::tables::TableBook;

/// A problem in a data file (level, script, rule table) at its place: `file:line:col: message`.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadError {
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file, self.line, self.col, self.message)
    }
}

/// RON as scripts and levels are written: optional fields may omit `Some(...)`.
pub fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

pub fn parse_ron<T: serde::de::DeserializeOwned>(file: &str, text: &str) -> Result<T, LoadError> {
    ron_options().from_str(text).map_err(|e| LoadError { file: file.into(), line: e.span.start.line, col: e.span.start.col, message: e.code.to_string() })
}

/// Where a logic error points: the most specific id it quotes ('x'), looked up as "x" in the
/// file (the last quoted id first: "character 'a': unknown weapon 'laser'" points at "laser").
pub fn locate_message(text: &str, message: &str) -> (usize, usize) {
    let quoted: Vec<&str> = message.split('\'').skip(1).step_by(2).collect();
    for q in quoted.iter().rev() {
        let needle = format!("\"{q}\"");
        if text.contains(&needle) {
            return locate(text, &needle);
        }
    }
    locate(text, "characters")
}

/// Line and column of the first occurrence of `key` in `text` (for logic errors).
pub fn locate(text: &str, key: &str) -> (usize, usize) {
    for (i, l) in text.lines().enumerate() {
        if let Some(c) = l.find(key) {
            return (i + 1, c + 1);
        }
    }
    (1, 1)
}

/// A file compiled into the binary: a broken copy is a build defect, caught by every test.
pub(crate) fn builtin_file<T: serde::de::DeserializeOwned>(path: &str, text: &str) -> T {
    parse_ron(path, text).unwrap_or_else(|e| panic!("built-in {e}"))
}

impl ProfileBook {
    /// The copy of `assets/rules/profiles.ron` compiled into the binary.
    pub fn builtin() -> Self {
        builtin_file("assets/rules/profiles.ron", include_str!("../../../assets/rules/profiles.ron"))
    }
}

impl EquipmentBook {
    /// The copy of `assets/equipment/equipment.ron` compiled into the binary.
    pub fn builtin() -> Self {
        builtin_file("assets/equipment/equipment.ron", include_str!("../../../assets/equipment/equipment.ron"))
    }
}

impl SpellBook {
    /// The copy of `assets/rules/spells.ron` compiled into the binary.
    pub fn builtin() -> Self {
        builtin_file("assets/rules/spells.ron", include_str!("../../../assets/rules/spells.ron"))
    }
}

impl ConditionBook {
    /// The copy of `assets/rules/conditions.ron` compiled into the binary.
    pub fn builtin() -> Self {
        builtin_file("assets/rules/conditions.ron", include_str!("../../../assets/rules/conditions.ron"))
    }
}

impl TableBook {
    /// The copy of `assets/rules/tables.ron` compiled into the binary.
    pub fn builtin() -> Self {
        builtin_file("assets/rules/tables.ron", include_str!("../../../assets/rules/tables.ron"))
    }
}

/// The shared rule data every match needs.
#[derive(Clone, Debug)]
pub struct RuleData {
    pub profiles: ProfileBook,
    pub conditions: ConditionBook,
    pub equipment: EquipmentBook,
    pub tables: TableBook,
    pub spells: crate::rules::spells::SpellBook,
    /// The monster AI's behaviours and difficulties.
    pub ai: std::sync::Arc<crate::ai::AiBook>,
}

impl RuleData {
    /// The copies compiled into the binary (the same files as under `assets/`).
    pub fn builtin() -> Self {
        Self {
            profiles: ProfileBook::builtin(),
            conditions: ConditionBook::builtin(),
            equipment: EquipmentBook::builtin(),
            tables: TableBook::builtin(),
            spells: crate::rules::spells::SpellBook::builtin(),
            ai: crate::ai::AiBook::builtin(),
        }
    }

    /// The rule data under `root/assets/` where those files exist, so edited tables need no
    /// rebuild; the compiled-in copy for any file that is absent. Errors are `file:line:col: …`.
    pub fn load(root: &std::path::Path) -> Result<Self, String> {
        fn read<T: serde::de::DeserializeOwned>(path: std::path::PathBuf, builtin: impl FnOnce() -> T) -> Result<T, String> {
            match std::fs::read_to_string(&path) {
                Ok(text) => parse_ron(&path.display().to_string(), &text).map_err(|e| e.to_string()),
                Err(_) => Ok(builtin()),
            }
        }
        let dir = root.join("assets");
        Ok(Self {
            profiles: read(dir.join("rules/profiles.ron"), ProfileBook::builtin)?,
            conditions: read(dir.join("rules/conditions.ron"), ConditionBook::builtin)?,
            equipment: read(dir.join("equipment/equipment.ron"), EquipmentBook::builtin)?,
            tables: read(dir.join("rules/tables.ron"), TableBook::builtin)?,
            spells: read(dir.join("rules/spells.ron"), crate::rules::spells::SpellBook::builtin)?,
            ai: std::sync::Arc::new(read(dir.join("ai/behaviours.ron"), || (*crate::ai::AiBook::builtin()).clone())?),
        })
    }
}

/// Where things are in the file's text, for pointing at them.
pub(crate) struct Places<'a> {
    text: &'a str,
    /// The text with `//` comments blanked out (same byte offsets).
    code: String,
    /// The same with string contents blanked too (for finding keys).
    keys: String,
    rows: Vec<Vec<(usize, usize)>>,
}

/// Blanks comments (and string contents when `strings`) with spaces, keeping every offset.
fn mask(text: &str, strings: bool) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let (mut i, mut in_str) = (0, false);
    while i < b.len() {
        if in_str {
            if b[i] == b'\\' {
                if strings {
                    out[i] = b' ';
                    if i + 1 < b.len() && b[i + 1].is_ascii() {
                        out[i + 1] = b' ';
                    }
                }
                i += 2;
                continue;
            }
            if b[i] == b'"' {
                in_str = false;
            } else if strings && b[i].is_ascii() {
                out[i] = b' ';
            }
        } else if b[i] == b'"' {
            in_str = true;
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                if b[i].is_ascii() && b[i] != b'\n' {
                    out[i] = b' ';
                }
                i += 1;
            }
            for k in i..(i + 2).min(b.len()) {
                out[k] = b' ';
            }
            i += 2;
            continue;
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                if b[i].is_ascii() {
                    out[i] = b' ';
                }
                i += 1;
            }
            continue;
        }
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

impl<'a> Places<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Self { text, code: mask(text, false), keys: mask(text, true), rows: row_positions(text) }
    }

    /// The field `name:` (outside comments and strings).
    pub(crate) fn key(&self, name: &str) -> Option<(usize, usize)> {
        let mut from = 0;
        while let Some(k) = self.keys[from..].find(name) {
            let i = from + k;
            let before_ok = i == 0 || !self.keys.as_bytes()[i - 1].is_ascii_alphanumeric() && self.keys.as_bytes()[i - 1] != b'_';
            let rest = self.keys[i + name.len()..].trim_start();
            if before_ok && rest.starts_with(':') {
                return Some(self.at_offset(i));
            }
            from = i + name.len();
        }
        None
    }

    /// The `i`-th entry (its opening bracket) of the list under the field `list`.
    pub(crate) fn item(&self, list: &str, i: usize) -> (usize, usize) {
        let Some(start) = self.key(list).map(|(l, c)| self.offset_of(l, c)) else { return (1, 1) };
        let bytes = self.keys.as_bytes();
        let (mut depth, mut k) = (0i32, 0usize);
        for (j, &c) in bytes.iter().enumerate().skip(start) {
            match c {
                b'[' | b'(' | b'{' => {
                    depth += 1;
                    if depth == 2 {
                        if k == i {
                            return self.at_offset(j);
                        }
                        k += 1;
                    }
                }
                b']' | b')' | b'}' => {
                    depth -= 1;
                    if depth <= 0 {
                        break;
                    }
                }
                _ => {}
            }
        }
        self.at_offset(start)
    }

    pub(crate) fn offset_of(&self, line: usize, col: usize) -> usize {
        let mut off = 0;
        for (n, l) in self.text.split_inclusive('\n').enumerate() {
            if n + 1 == line {
                return off + l.char_indices().nth(col - 1).map_or(0, |(b, _)| b);
            }
            off += l.len();
        }
        off
    }

    pub(crate) fn at_offset(&self, off: usize) -> (usize, usize) {
        let before = &self.text[..off.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }

    /// The `n`-th occurrence of `needle` (0-based) after the first `after` keyword.
    pub(crate) fn find(&self, after: &str, needle: &str, n: usize) -> Option<(usize, usize)> {
        let start = if after.is_empty() { 0 } else { self.key(after).map_or(0, |(l, c)| self.offset_of(l, c)) };
        self.code[start..].match_indices(needle).nth(n).map(|(i, _)| self.at_offset(start + i))
    }

    /// The map cell (x, y) of floor f, or the key `floors` when rows cannot be matched.
    pub(crate) fn cell(&self, p: Pos) -> (usize, usize) {
        self.rows
            .get(p.floor as usize)
            .and_then(|f| f.get(p.y.max(0) as usize))
            .map(|&(l, c)| (l, c + 1 + p.x.max(0) as usize))
            .unwrap_or_else(|| self.find("", "floors", 0).unwrap_or((1, 1)))
    }

    /// The i-th character entry: its `(` in the `characters` list.
    pub(crate) fn character(&self, i: usize) -> (usize, usize) {
        self.item("characters", i)
    }
}

/// Line and column of the opening quote of every map row, per floor, in the `floors` list.
fn row_positions(text: &str) -> Vec<Vec<(usize, usize)>> {
    let Some(start) = text.find("floors") else { return Vec::new() };
    let bytes = text.as_bytes();
    let (mut floors, mut depth, mut j) = (Vec::<Vec<usize>>::new(), 0i32, start);
    while j < bytes.len() {
        match bytes[j] {
            b'/' if bytes.get(j + 1) == Some(&b'/') => {
                while j < bytes.len() && bytes[j] != b'\n' {
                    j += 1;
                }
            }
            b'[' => {
                depth += 1;
                if depth == 2 {
                    floors.push(Vec::new());
                }
            }
            b']' => {
                depth -= 1;
                if depth <= 0 {
                    break;
                }
            }
            b'"' => {
                if depth == 2 {
                    if let Some(f) = floors.last_mut() {
                        f.push(j);
                    }
                }
                j += 1;
                while j < bytes.len() && bytes[j] != b'"' {
                    if bytes[j] == b'\\' {
                        j += 1;
                    }
                    j += 1;
                }
            }
            _ => {}
        }
        j += 1;
    }
    let at = |off: usize| {
        let before = &text[..off];
        (before.matches('\n').count() + 1, before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1)
    };
    floors.into_iter().map(|f| f.into_iter().map(at).collect()).collect()
}
