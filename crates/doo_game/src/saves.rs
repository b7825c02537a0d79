//! The host's save folders: `$DOO_SAVE_DIR` or the platform's data folder, the autosave, named slots.

/// Where saves live: `$DOO_SAVE_DIR`, else the platform's data folder
/// (`~/.local/share/dungeons-of-olde/saves` on Linux).
pub fn save_dir() -> std::path::PathBuf {
    if let Some(d) = std::env::var_os("DOO_SAVE_DIR") {
        return d.into();
    }
    directories::ProjectDirs::from("", "", "dungeons-of-olde").map_or_else(|| std::path::PathBuf::from("saves"), |p| p.data_dir().join("saves"))
}

/// The automatic save (Continue, `doo play --resume`).
pub fn autosave_path() -> std::path::PathBuf {
    save_dir().join("autosave.ron")
}

/// A named slot's file: the name with anything but letters, digits, '-' and '_' replaced.
pub fn slot_path(name: &str) -> std::path::PathBuf {
    let clean: String = name.chars().take(64).map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    save_dir().join(format!("{}.ron", if clean.is_empty() { "save".into() } else { clean }))
}
