//! Where things are in a file's text, for errors found after parsing: a field, a list's entry,
//! a map cell, a character (`Places`), or the id a message quotes (`MessageLocator`).

use crate::rules::grid::Pos;

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
