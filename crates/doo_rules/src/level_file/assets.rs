//! What a level may name under the project's `assets/`: the project folder, monster templates
//! (plain names, read from `assets/monsters/`) and sprite paths that stay inside it.

use super::format::CharacterEntry;
use crate::data::parse_ron;
use std::path::{Path, PathBuf};

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
