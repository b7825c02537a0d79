//! Reading data files: RON as levels, scripts and rule tables are written (`parse_ron`), the
//! typed error with its `file:line:col` (`LoadError`), locating a field or id in a file's text
//! for errors found after parsing, and the rule data every match needs (`RuleData`, from
//! `assets/` or the copies compiled in). Every built-in table is loaded here (`builtin()`); the
//! rules and the AI never load one, they are handed theirs. Levels, scripts and the AI's
//! weights all read through here. Untrusted files are read with `read_text` (regular files
//! only, size-capped, UTF-8, a byte-order mark accepted); `Problems` caps the errors listed, and
//! the caps the formats share live here (`MAX_FILE_BYTES`, `MAX_ENTITIES`, …). Files are
//! written with `write_atomic`; `level_hash` is how saves and campaigns know a level's text.
//!
//! The parts: `caps` (the caps the formats share), `files` (parsing, reading and writing files,
//! the problem list, id and text checks), `places` (where a field, an entry, a map cell or an id
//! is in a file's text) and `books` (every built-in table and the `RuleData` that holds them).

mod books;
mod caps;
mod files;
mod places;

pub use books::{FigureBook, FigureMarks, RuleData};
pub use caps::{MAX_ENTITIES, MAX_ERRORS, MAX_FILE_BYTES, MAX_ID_CHARS, MAX_NAME_CHARS, MAX_TEXT_CHARS};
pub use files::{LoadError, Problems, id_problem, text_problem};
pub use files::{after_leading_comments, append_text, level_hash, make_dir, parse_ron, read_text, ron_options, strip_bom, write_atomic, write_new};
pub use places::MessageLocator;
pub(crate) use places::Places;
