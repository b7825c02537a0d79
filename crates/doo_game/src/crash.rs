//! The crash log: a panic anywhere in the game process appends its message, where it happened,
//! the thread, the time and the save in play (the autosave or the slot that was loaded) to
//! `crash.log` in the data folder, beside the saves folder, then the default hook prints it
//! as usual. A panic the game catches (a save whose replay the rules stop on) is logged too.
//! `DOO_DEBUG_PANIC=1` (at startup) and `=frame` (inside a window system) panic on purpose.

use doo_rules::replay::panic_message;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The save in play, for the crash log: set when a match starts or is loaded.
static SAVE_IN_PLAY: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Where the crash log goes: `crash.log` beside the saves folder (`$DOO_SAVE_DIR/..`, else
/// the platform's data folder).
pub fn crash_log_path() -> PathBuf {
    let saves = crate::saves::save_dir();
    let data = saves.parent().filter(|p| !p.as_os_str().is_empty()).map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."));
    data.join("crash.log")
}

/// Names the save in play (the autosave path, or the slot loaded), `None` when none is.
pub fn set_save_in_play(path: Option<PathBuf>) {
    if let Ok(mut s) = SAVE_IN_PLAY.lock() {
        *s = path;
    }
}

/// The save in play, as the crash log names it.
pub fn save_in_play() -> Option<PathBuf> {
    SAVE_IN_PLAY.lock().ok().and_then(|s| s.clone())
}

/// One entry of the crash log: time (UTC), message with its location, thread, save in play.
pub fn crash_entry(unix_secs: u64, message: &str, location: Option<String>, thread: &str, save: Option<&Path>) -> String {
    format!(
        "[{}] panic in thread '{thread}' at {}: {message}\n  save in play: {}\n  game version: {}\n\n",
        doo_rules::save::utc_date(unix_secs),
        location.unwrap_or_else(|| "an unknown place".into()),
        save.map_or("none".to_string(), |p| p.display().to_string()),
        env!("CARGO_PKG_VERSION"),
    )
}

/// Appends `entry` to the crash log at `path` (its folder made if needed).
pub fn append_crash(path: &Path, entry: &str) -> std::io::Result<()> {
    doo_rules::data::append_text(path, entry)
}

thread_local! {
    /// This thread is in the hook already: a hook installed twice (around Bevy's, which skips
    /// the hook it wraps for its own system errors) logs a panic once.
    static IN_HOOK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Installs the hook: the crash log first, then the hook it replaces (the default output).
/// Call it again after Bevy's plugins are added: Bevy wraps the hook it finds and does not call
/// it for a system's error, so the game's hook must be outermost.
pub fn install_panic_hook() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if IN_HOOK.with(|h| h.replace(true)) {
            default(info);
            return;
        }
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let message = panic_message(info.payload());
        let location = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
        let thread = std::thread::current().name().unwrap_or("unnamed").to_string();
        let path = crash_log_path();
        let entry = crash_entry(now, &message, location, &thread, save_in_play().as_deref());
        if let Err(e) = append_crash(&path, &entry) {
            eprintln!("could not write the crash log {}: {e}", path.display());
        } else {
            eprintln!("crash log: {}", path.display());
        }
        default(info);
        IN_HOOK.with(|h| h.set(false));
    }));
}

/// `DOO_DEBUG_PANIC=1`: panic on purpose at startup (tests the crash log end to end).
pub fn debug_panic() {
    if std::env::var_os("DOO_DEBUG_PANIC").is_some_and(|v| v == "1") {
        panic!("DOO_DEBUG_PANIC: a panic on purpose (crash log test)");
    }
}

/// `DOO_DEBUG_PANIC=frame`: a system of the window panics on purpose on its 10th frame (a panic
/// inside Bevy's schedule, where Bevy's own hook sits: tests that it reaches the crash log).
pub fn plugin(app: &mut bevy::prelude::App) {
    if std::env::var_os("DOO_DEBUG_PANIC").is_some_and(|v| v == "frame") {
        app.add_systems(bevy::prelude::Update, panic_on_purpose);
    }
}

fn panic_on_purpose(mut frames: bevy::prelude::Local<u32>) {
    *frames += 1;
    if *frames == 10 {
        panic!("DOO_DEBUG_PANIC=frame: a system panics on purpose (crash log test)");
    }
}
