//! The caps the file formats share (a format's own caps stay with it).

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
