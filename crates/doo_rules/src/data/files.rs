//! Reading and writing data files: RON parsed with its `file:line:col` (`parse_ron`,
//! `LoadError`), untrusted files read with their caps (`read_text`), files written atomically,
//! a level's hash; the capped problem list and the checks of ids and free texts.

use super::caps::{MAX_ERRORS, MAX_ID_CHARS};
use std::path::Path;

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

/// Writes `text` to `path` so that a crash at any instant leaves either the old file or the new
/// one, never a mix: a temporary file beside it, flushed to disk, then renamed over it.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    write_through_temp(path, text, "", |tmp, path| std::fs::rename(tmp, path))
}

/// Writes `text` to `path` only if no file is there yet (`AlreadyExists` otherwise, even when
/// another process made one meanwhile), as `write_atomic` does, but the temporary file is
/// hard-linked to `path` (a link never replaces a file) rather than renamed over it.
pub fn write_new(path: &Path, text: &str) -> std::io::Result<()> {
    write_through_temp(path, text, ".new", |tmp, path| std::fs::hard_link(tmp, path))
}

/// `write_atomic`'s and `write_new`'s one way: `text` in a temporary file beside `path` (its
/// folder made), flushed to disk, then `put` in place; the temporary file never stays behind,
/// and the folder is flushed so the new name reaches the disk too.
fn write_through_temp(path: &Path, text: &str, tag: &str, put: impl FnOnce(&Path, &Path) -> std::io::Result<()>) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_else(|| "file".into());
    let tmp = dir.join(format!(".{name}.{}{tag}.tmp", std::process::id()));
    let written = std::fs::File::create(&tmp).and_then(|mut f| f.write_all(text.as_bytes()).and_then(|()| f.sync_all()));
    let placed = written.and_then(|()| put(&tmp, path));
    // Gone already when renamed; after a link or a failure, removed here.
    let _ = std::fs::remove_file(&tmp);
    placed?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Appends `text` to the log at `path` (its folder made if needed): the one way production code
/// adds to a file (crash log, trace logs). A log is only ever added to, so a crash mid-write
/// costs at most its last line; every other file goes through `write_atomic`.
pub fn append_text(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    let mut f = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    f.write_all(text.as_bytes())
}

/// Makes the folder `dir` (and its parents): files.rs is the one module that touches the disk
/// for writing (`.ci/arch.py`'s `one-file-writer`).
pub fn make_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)
}

/// blake3 of a level file's text, as saves and campaigns record it.
pub fn level_hash(text: &str) -> String {
    blake3::hash(text.as_bytes()).to_hex().to_string()
}
