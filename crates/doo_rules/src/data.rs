//! Reading data files: RON as levels, scripts and rule tables are written (`parse_ron`), the
//! typed error with its `file:line:col` (`LoadError`), locating a field or id in a file's text
//! for errors found after parsing, and the rule data every match needs (`RuleData`, from
//! `assets/` or the copies compiled in). Every built-in table is loaded here (`builtin()`); the
//! rules and the AI never load one, they are handed theirs. Levels, scripts and the AI's
//! weights all read through here. Untrusted files are read with `read_text` (regular files
//! only, size-capped, UTF-8, a byte-order mark accepted); `Problems` caps the errors listed, and
//! the caps the formats share live here (`MAX_FILE_BYTES`, `MAX_ENTITIES`, …). Files are
//! written with `write_atomic`; `level_hash` is how saves and campaigns know a level's text.

use crate::ai::AiBook;
use crate::rules::a4::book::A4Book;
use crate::rules::conditions::ConditionBook;
use crate::rules::de::unique_keys;
use crate::rules::equipment::EquipmentBook;
use crate::rules::explore::ExploreBook;
use crate::rules::grid::Pos;
use crate::rules::heroes::HeroBook;
use crate::rules::profile::ProfileBook;
use crate::rules::spells::SpellBook;
use crate::rules::tables::TableBook;
use std::path::Path;
use std::sync::{Arc, OnceLock};

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

/// Parses RON; a UTF-8 byte-order mark at the start (as Windows editors write) is skipped.
pub fn parse_ron<T: serde::de::DeserializeOwned>(file: &str, text: &str) -> Result<T, LoadError> {
    let text = strip_bom(text);
    // Nesting is bounded by ron's recursion limit (128), so deep brackets are an error, not a crash.
    ron_options().from_str(text).map_err(|e| {
        let message = match e.code {
            ron::Error::ExceededRecursionLimit => "brackets nested too deep (at most 128 levels)".to_string(),
            ref code => code.to_string(),
        };
        LoadError { file: file.into(), line: e.span.start.line, col: e.span.start.col, message }
    })
}

/// The text without a leading UTF-8 byte-order mark.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// A RON text after its byte-order mark, blanks and leading comments: where its first value
/// (`Level`, `Hero`, `(`…) begins.
pub fn after_leading_comments(text: &str) -> &str {
    let mut t = strip_bom(text);
    loop {
        t = t.trim_start();
        if let Some(rest) = t.strip_prefix("//") {
            t = rest.split_once('\n').map_or("", |x| x.1);
        } else if let Some(rest) = t.strip_prefix("/*") {
            t = rest.split_once("*/").map_or("", |x| x.1);
        } else {
            return t;
        }
    }
}

/// The most bytes a level, script or template file may have (a level at the caps, one
/// 1024×1024 floor and 10 000 characters, is about 3 MB).
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;
/// The most problems listed for one file; the rest are counted ("… and N more").
pub const MAX_ERRORS: usize = 50;
/// The most characters in a level or script.
pub const MAX_ENTITIES: usize = 10_000;
/// The longest id (characters, sides, templates, items named by a file).
pub const MAX_ID_CHARS: usize = 64;
/// The longest name or title.
pub const MAX_NAME_CHARS: usize = 200;
/// The longest briefing or description.
pub const MAX_TEXT_CHARS: usize = 10_000;

/// Reads an untrusted data file as text, refusing before any work what is not a regular file
/// (a directory, a device such as `/dev/zero` behind a link, a named pipe: never opened) or is
/// over `cap` bytes, and text that is not UTF-8 (with the place of the first bad byte).
/// A byte-order mark is removed. Errors are `line:col`-free sentences; the caller adds the file.
pub fn read_text(path: &std::path::Path, cap: u64) -> Result<String, LoadError> {
    use std::io::Read;
    let file = path.display().to_string();
    let fail = |line: usize, col: usize, message: String| LoadError { file: file.clone(), line, col, message };
    // `metadata` follows links, so a link to a device is judged by what it points at.
    let meta = std::fs::metadata(path).map_err(|e| fail(1, 1, format!("cannot read: {e}")))?;
    if !meta.is_file() {
        let what = if meta.is_dir() { "a directory" } else { "not a regular file (a device, pipe or socket)" };
        return Err(fail(1, 1, format!("cannot read: {what}; give a .ron file")));
    }
    if meta.len() > cap {
        return Err(fail(1, 1, format!("the file is {} bytes; the most is {cap}", meta.len())));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    let f = std::fs::File::open(path).map_err(|e| fail(1, 1, format!("cannot read: {e}")))?;
    // The file may grow between the check and the read: never read past the cap.
    f.take(cap + 1).read_to_end(&mut bytes).map_err(|e| fail(1, 1, format!("cannot read: {e}")))?;
    if bytes.len() as u64 > cap {
        return Err(fail(1, 1, format!("the file is over {cap} bytes")));
    }
    match String::from_utf8(bytes) {
        Ok(mut s) => {
            if s.starts_with('\u{feff}') {
                s.drain(..'\u{feff}'.len_utf8());
            }
            Ok(s)
        }
        Err(e) => {
            let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
            let last = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            let col = String::from_utf8_lossy(&good[last..]).chars().count() + 1;
            Err(fail(line, col, "the file is not UTF-8 text".into()))
        }
    }
}

/// A list of problems that keeps the first [`MAX_ERRORS`] and counts the rest, so a file with a
/// million bad characters prints a page, not megabytes.
#[derive(Debug)]
pub struct Problems<T> {
    pub list: Vec<T>,
    pub more: usize,
}

impl<T> Default for Problems<T> {
    fn default() -> Self {
        Self { list: Vec::new(), more: 0 }
    }
}

impl<T> Problems<T> {
    pub fn push(&mut self, p: T) {
        if self.list.len() < MAX_ERRORS {
            self.list.push(p);
        } else {
            self.more += 1;
        }
    }
    /// Whether the list is full: callers stop per-item work that would only add to the count.
    pub fn full(&self) -> bool {
        self.list.len() >= MAX_ERRORS
    }
    pub fn is_empty(&self) -> bool {
        self.list.is_empty() && self.more == 0
    }
}

/// Whether `s` is a usable id: 1 to [`MAX_ID_CHARS`] characters, no spaces or control characters.
pub fn id_problem(s: &str) -> Option<String> {
    let n = s.chars().count();
    if n == 0 {
        Some("an id cannot be empty".into())
    } else if n > MAX_ID_CHARS {
        Some(format!("an id has at most {MAX_ID_CHARS} characters (this one has {n})"))
    } else if s.chars().any(|c| c.is_control() || c.is_whitespace() || c == '\'' || c == '"') {
        Some("an id cannot contain spaces, quotes or control characters".into())
    } else {
        None
    }
}

/// Whether a free text (name, briefing) is within `max` characters and free of control
/// characters other than newlines and tabs.
pub fn text_problem(what: &str, s: &str, max: usize) -> Option<String> {
    let n = s.chars().count();
    if n > max {
        Some(format!("{what} has {n} characters; the most is {max}"))
    } else if s.chars().any(|c| c.is_control() && c != '\n' && c != '\t' && c != '\r') {
        Some(format!("{what} contains a control character"))
    } else {
        None
    }
}

/// Where logic errors found after parsing point, for one file's text (indexed once, so many
/// errors cost one pass over the file plus a search each).
pub struct MessageLocator<'a> {
    places: Places<'a>,
    /// The text with comments blanked out (same byte offsets).
    code: String,
}

impl<'a> MessageLocator<'a> {
    pub fn new(text: &'a str) -> Self {
        Self { places: Places::new(text), code: mask(text, false) }
    }

    /// The place of a message's most specific quoted id ('x'), looked up as "x" outside comments
    /// (the last quoted id first: "character 'a': unknown weapon 'laser'" points at "laser"),
    /// within the field the message begins with when there is one (`start: …`, `victory: …`),
    /// so a name or description that happens to mention the id is passed over. "… used twice"
    /// points at the second use.
    pub fn locate(&self, message: &str) -> (usize, usize) {
        let (places, code) = (&self.places, &self.code);
        let section = message.split([':', ' ']).next().filter(|w| matches!(*w, "start" | "victory" | "commands" | "dice"));
        let from = section.and_then(|k| places.key_offset(k)).or_else(|| places.key_offset("characters")).unwrap_or(0);
        let twice = message.contains("used twice") || message.contains("already used");
        for q in message.split('\'').skip(1).step_by(2).collect::<Vec<_>>().iter().rev() {
            let needle = format!("\"{q}\"");
            let mut hits = code[from..].match_indices(&needle).map(|(i, _)| from + i);
            let hit = if twice { hits.nth(1).or_else(|| code[from..].find(&needle).map(|i| from + i)) } else { hits.next() };
            if let Some(i) = hit.or_else(|| code.find(&needle)) {
                return places.at_offset(i);
            }
        }
        places.at_offset(from)
    }
}

/// Writes `text` to `path` so that a crash at any instant leaves either the old file or the new
/// one, never a mix: a temporary file beside it, flushed to disk, then renamed over it.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_else(|| "save".into());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()?;
    drop(f);
    std::fs::rename(&tmp, path)?;
    // The rename itself reaches the disk when the folder is flushed.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// blake3 of a level file's text, as saves and campaigns record it.
pub fn level_hash(text: &str) -> String {
    blake3::hash(text.as_bytes()).to_hex().to_string()
}

/// A file compiled into the binary: a broken copy is a build defect, caught by every test.
fn builtin_file<T: serde::de::DeserializeOwned>(path: &str, text: &str) -> T {
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

impl ExploreBook {
    /// The copy of `assets/rules/exploration.ron` compiled into the binary.
    pub fn builtin() -> Self {
        builtin_file("assets/rules/exploration.ron", include_str!("../../../assets/rules/exploration.ron"))
    }
}

impl HeroBook {
    /// The copy of `assets/rules/heroes.ron` compiled into the binary.
    pub fn builtin() -> Self {
        builtin_file("assets/rules/heroes.ron", include_str!("../../../assets/rules/heroes.ron"))
    }
}

impl A4Book {
    /// The copy of `assets/rules/a4.ron` compiled into the binary.
    pub fn builtin() -> Self {
        builtin_file("assets/rules/a4.ron", include_str!("../../../assets/rules/a4.ron"))
    }
}

impl AiBook {
    /// The copy of `assets/ai/behaviours.ron` compiled into the binary (the same file as under
    /// `assets/`), parsed once and shared.
    pub fn builtin() -> Arc<Self> {
        static BOOK: OnceLock<Arc<AiBook>> = OnceLock::new();
        BOOK.get_or_init(|| Arc::new(builtin_file("assets/ai/behaviours.ron", include_str!("../../../assets/ai/behaviours.ron")))).clone()
    }
}

/// The shared rule data every match needs.
#[derive(Clone, Debug)]
pub struct RuleData {
    pub profiles: ProfileBook,
    pub conditions: ConditionBook,
    pub equipment: EquipmentBook,
    pub tables: TableBook,
    pub spells: SpellBook,
    /// The monster AI's behaviours and difficulties.
    pub ai: Arc<AiBook>,
    /// The numbers of Exploration Mode (§24).
    pub exploration: Arc<ExploreBook>,
    /// Heroes and character points (§25).
    pub heroes: Arc<HeroBook>,
    /// The figure sprites levels may name.
    pub figures: Arc<FigureBook>,
    /// Ruleset A4's numbers (`assets/rules/a4.ron`, docs/ruleset-a4.md).
    pub a4: Arc<A4Book>,
}

impl RuleData {
    /// The copies compiled into the binary (the same files as under `assets/`).
    pub fn builtin() -> Self {
        Self {
            profiles: ProfileBook::builtin(),
            conditions: ConditionBook::builtin(),
            equipment: EquipmentBook::builtin(),
            tables: TableBook::builtin(),
            spells: SpellBook::builtin(),
            ai: AiBook::builtin(),
            exploration: Arc::new(ExploreBook::builtin()),
            heroes: Arc::new(HeroBook::builtin()),
            figures: Arc::new(FigureBook::builtin()),
            a4: Arc::new(A4Book::builtin()),
        }
    }

    /// The rule data under `root/assets/` where those files exist, so edited tables need no
    /// rebuild; the compiled-in copy for any file that is absent. Errors are `file:line:col: …`.
    pub fn load(root: &std::path::Path) -> Result<Self, String> {
        fn read<T: serde::de::DeserializeOwned>(path: std::path::PathBuf, builtin: impl FnOnce() -> T) -> Result<T, String> {
            if !path.exists() {
                return Ok(builtin());
            }
            let text = read_text(&path, MAX_FILE_BYTES).map_err(|e| e.to_string())?;
            parse_ron(&path.display().to_string(), &text).map_err(|e| e.to_string())
        }
        let dir = root.join("assets");
        Ok(Self {
            profiles: read(dir.join("rules/profiles.ron"), ProfileBook::builtin)?,
            conditions: read(dir.join("rules/conditions.ron"), ConditionBook::builtin)?,
            equipment: read(dir.join("equipment/equipment.ron"), EquipmentBook::builtin)?,
            tables: read(dir.join("rules/tables.ron"), TableBook::builtin)?,
            spells: read(dir.join("rules/spells.ron"), SpellBook::builtin)?,
            ai: Arc::new(read(dir.join("ai/behaviours.ron"), || (*AiBook::builtin()).clone())?),
            exploration: Arc::new(read(dir.join("rules/exploration.ron"), ExploreBook::builtin)?),
            heroes: Arc::new(read(dir.join("rules/heroes.ron"), HeroBook::builtin)?),
            figures: Arc::new({
                let f: FigureBook = read(dir.join("art/figures.ron"), FigureBook::builtin)?;
                f.check().map_err(|e| format!("{}: {e}", dir.join("art/figures.ron").display()))?;
                f
            }),
            a4: Arc::new({
                let b: A4Book = read(dir.join("rules/a4.ron"), A4Book::builtin)?;
                b.check().map_err(|e| format!("{}: {e}", dir.join("rules/a4.ron").display()))?;
                b
            }),
        })
    }
}

/// Where things are in the file's text, for pointing at them. Built once per file in linear
/// time; every look-up after that is a binary search or a scan of one line.
pub(crate) struct Places<'a> {
    text: &'a str,
    /// The text with comments and string contents blanked out (same byte offsets), for finding keys.
    keys: String,
    /// Byte offset of the start of each line.
    line_starts: Vec<usize>,
    /// Byte offset of the opening quote of every map row, per floor.
    rows: Vec<Vec<usize>>,
    /// Byte offset of each entry of the `characters` list.
    characters: Vec<usize>,
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
        let keys = mask(text, true);
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        let mut p = Self { text, keys, line_starts, rows: Vec::new(), characters: Vec::new() };
        p.rows = p.key_offset("floors").map_or_else(Vec::new, |start| row_positions(text, start));
        p.characters = p.items("characters");
        p
    }

    /// The field `name:` (outside comments and strings).
    pub(crate) fn key(&self, name: &str) -> Option<(usize, usize)> {
        self.key_offset(name).map(|i| self.at_offset(i))
    }

    pub(crate) fn key_offset(&self, name: &str) -> Option<usize> {
        let mut from = 0;
        while let Some(k) = self.keys[from..].find(name) {
            let i = from + k;
            let before_ok = i == 0 || !self.keys.as_bytes()[i - 1].is_ascii_alphanumeric() && self.keys.as_bytes()[i - 1] != b'_';
            let rest = self.keys[i + name.len()..].trim_start();
            if before_ok && rest.starts_with(':') {
                return Some(i);
            }
            from = i + name.len();
        }
        None
    }

    /// Offsets of the entries (their opening bracket) of the list under the field `list`.
    fn items(&self, list: &str) -> Vec<usize> {
        let Some(start) = self.key_offset(list) else { return Vec::new() };
        let bytes = self.keys.as_bytes();
        let mut out = Vec::new();
        let mut depth = 0i32;
        for (j, &c) in bytes.iter().enumerate().skip(start) {
            match c {
                b'[' | b'(' | b'{' => {
                    depth += 1;
                    if depth == 2 {
                        out.push(j);
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
        out
    }

    /// The `i`-th entry (its opening bracket) of the list under the field `list` (for short
    /// lists: sides, stairs, victory; `characters` are indexed once, see [`Places::character`]).
    pub(crate) fn item(&self, list: &str, i: usize) -> (usize, usize) {
        match self.items(list).get(i) {
            Some(&o) => self.at_offset(o),
            None => self.key(list).unwrap_or((1, 1)),
        }
    }

    pub(crate) fn at_offset(&self, off: usize) -> (usize, usize) {
        let off = off.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= off);
        let start = self.line_starts[line - 1];
        let col = self.text.get(start..off).map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }

    /// The map cell (x, y) of floor f, or the key `floors` when rows cannot be matched.
    pub(crate) fn cell(&self, p: Pos) -> (usize, usize) {
        match self.rows.get(p.floor as usize).and_then(|f| f.get(p.y.max(0) as usize)) {
            Some(&off) => {
                // Walk the row's source: an escape (`\"`, `\\`, `\u{…}`) is one map space but
                // several characters of the file.
                let (l, c) = self.at_offset(off);
                let mut col = c + 1;
                let mut chars = self.text[off + 1..].chars();
                for _ in 0..p.x.max(0) {
                    match chars.next() {
                        Some('\\') => match chars.next() {
                            Some('u') => {
                                col += 2;
                                for ch in chars.by_ref() {
                                    col += 1;
                                    if ch == '}' {
                                        break;
                                    }
                                }
                            }
                            _ => col += 2,
                        },
                        Some('"') | Some('\n') | None => break,
                        Some(_) => col += 1,
                    }
                }
                (l, col)
            }
            None => self.key("floors").unwrap_or((1, 1)),
        }
    }

    /// The i-th character entry: its `(` in the `characters` list.
    pub(crate) fn character(&self, i: usize) -> (usize, usize) {
        match self.characters.get(i) {
            Some(&o) => self.at_offset(o),
            None => self.key("characters").unwrap_or((1, 1)),
        }
    }
}

/// The byte offset of the opening quote of every map row, per floor, in the `floors` list.
fn row_positions(text: &str, start: usize) -> Vec<Vec<usize>> {
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
    floors
}

/// The figure sprites there are, and how a character without one gets his
/// (`assets/art/figures.ron`): the window draws them; levels are checked against the names.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FigureBook {
    /// Kinds in atlas order.
    pub kinds: Vec<String>,
    pub marks: FigureMarks,
    #[serde(deserialize_with = "unique_keys")]
    pub by_skill: std::collections::BTreeMap<String, String>,
    pub arcane: String,
    pub divine: String,
    pub default: String,
}

/// Atlas cells of the marks drawn over or instead of a figure.
#[derive(Clone, Copy, Debug, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FigureMarks {
    pub remains: usize,
    pub stunned: usize,
    pub bleeding: usize,
    pub dropped_weapon: usize,
}

impl FigureBook {
    /// The copy of `assets/art/figures.ron` compiled into the binary.
    pub fn builtin() -> Self {
        builtin_file("assets/art/figures.ron", include_str!("../../../assets/art/figures.ron"))
    }

    /// Cells of the atlas: every kind, then the marks.
    pub fn cells(&self) -> usize {
        let m = self.marks;
        self.kinds.len().max([m.remains, m.stunned, m.bleeding, m.dropped_weapon].into_iter().max().unwrap_or(0) + 1)
    }

    /// The book is whole: kinds are named once, the marks are four distinct cells after the
    /// kinds (at most 64 cells in all), and every kind it picks is one of its kinds.
    pub fn check(&self) -> Result<(), String> {
        let m = self.marks;
        let marks = [m.remains, m.stunned, m.bleeding, m.dropped_weapon];
        if self.kinds.is_empty() || self.kinds.len() > 60 {
            return Err(format!("{} kinds: between 1 and 60", self.kinds.len()));
        }
        if let Some(k) = self.kinds.iter().enumerate().find(|(i, k)| self.kinds[..*i].contains(k)).map(|x| x.1) {
            return Err(format!("the kind '{k}' is listed twice"));
        }
        if marks.iter().any(|&x| x < self.kinds.len() || x >= 64) || (1..4).any(|i| marks[..i].contains(&marks[i])) {
            return Err(format!("marks {marks:?} must be four different cells after the {} kinds, below 64", self.kinds.len()));
        }
        let picked = [&self.default, &self.arcane, &self.divine].into_iter().chain(self.by_skill.values());
        if let Some(k) = picked.into_iter().find(|k| self.index(k).is_none()) {
            return Err(format!("'{k}' is not one of the kinds"));
        }
        Ok(())
    }

    /// The atlas cell of a kind.
    pub fn index(&self, kind: &str) -> Option<usize> {
        self.kinds.iter().position(|k| k == kind)
    }

    /// A level's `sprite` value names a kind or a PNG under assets/.
    pub fn known(&self, sprite: &str) -> bool {
        self.index(sprite).is_some() || sprite.ends_with(".png")
    }

    /// The kind for a character: `sprite` (a kind), else by his weapon's skill, then by his
    /// spells, else the default.
    pub fn pick(&self, sprite: Option<&str>, weapon_skill: Option<&str>, caster: crate::rules::fighter::Caster) -> usize {
        let by = |k: &str| self.index(k);
        sprite
            .and_then(by)
            .or_else(|| weapon_skill.and_then(|s| self.by_skill.get(s)).and_then(|k| by(k)))
            .or_else(|| {
                if caster.arcane() {
                    by(&self.arcane)
                } else if caster.divine() {
                    by(&self.divine)
                } else {
                    None
                }
            })
            .or_else(|| by(&self.default))
            .unwrap_or(0)
    }
}
