//! Player settings: UI scale, animation speed, sound volume, side colours (colour-blind palette), reaction prompts (with a timeout and per-character
//! "never ask"). Saved as RON in the user's config folder whenever they change; a missing or
//! broken file gives the defaults and a warning, never a crash.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::PathBuf;

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(load())
        .add_systems(Update, (save_settings, set_reaction_policy).run_if(resource_changed::<Settings>))
        .add_systems(Update, apply_ui_scale);
}

/// The game asks (or not) about reactions as the settings say.
fn set_reaction_policy(settings: Res<Settings>, mut policy: ResMut<crate::game::intent::ReactionPolicy>) {
    policy.prompts = settings.reaction_prompts;
    policy.never_ask = settings.never_ask.clone();
}

/// UI scales offered in the settings.
pub const UI_SCALES: [f32; 3] = [1.0, 1.5, 2.0];
/// Animation speeds offered: multiplier of the base speed (0: no animation).
pub const ANIMATION_SPEEDS: [(f32, &str); 4] = [(0.5, "slow"), (1.0, "normal"), (2.0, "fast"), (0.0, "off")];
/// Sound volumes offered (with the `audio` feature).
pub const VOLUMES: [(f32, &str); 5] = [(0.0, "off"), (0.25, "25%"), (0.5, "50%"), (0.8, "80%"), (1.0, "100%")];
/// Reaction prompt timeouts offered, seconds (0: wait for the player).
pub const PROMPT_TIMEOUTS: [u32; 3] = [0, 10, 20];

#[derive(Resource, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub ui_scale: f32,
    pub animation_speed: f32,
    /// Ask human defenders about reflexes and responses (off: always decline).
    pub reaction_prompts: bool,
    /// Seconds before an unanswered prompt declines by itself (0: never).
    pub prompt_timeout_secs: u32,
    /// Characters (by id) whose reactions are never asked about.
    pub never_ask: BTreeSet<String>,
    /// Sound effects' volume, 0–1 (with the `audio` feature).
    pub volume: f32,
    /// Side colours from the colour-blind palette (Okabe–Ito) instead of the sides' own.
    pub colour_blind: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            ui_scale: 1.0,
            animation_speed: 1.0,
            reaction_prompts: true,
            prompt_timeout_secs: 0,
            never_ask: BTreeSet::new(),
            volume: 0.8,
            colour_blind: false,
        }
    }
}

/// `$DOO_SETTINGS`, else `$XDG_CONFIG_HOME/dungeons-of-olde/settings.ron`, else `~/.config/...`.
pub fn settings_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("DOO_SETTINGS") {
        return Some(PathBuf::from(p));
    }
    let base = std::env::var_os("XDG_CONFIG_HOME").map(PathBuf::from).or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("dungeons-of-olde").join("settings.ron"))
}

pub fn load() -> Settings {
    let Some(path) = settings_path() else { return Settings::default() };
    if !path.exists() {
        return Settings::default();
    }
    match doo_rules::data::read_text(&path, 1 << 20) {
        Ok(text) => ron::from_str(&text).unwrap_or_else(|e| {
            warn!("{}:{}:{}: {} (using default settings)", path.display(), e.span.start.line, e.span.start.col, e.code);
            Settings::default()
        }),
        Err(_) => Settings::default(),
    }
}

fn save_settings(settings: Res<Settings>) {
    if settings.is_added() {
        return;
    }
    let Some(path) = settings_path() else { return };
    let text = match ron::ser::to_string_pretty(&*settings, ron::ser::PrettyConfig::default()) {
        Ok(t) => t,
        Err(e) => return warn!("settings not saved: {e}"),
    };
    if let Err(e) = doo_rules::data::write_atomic(&path, &text) {
        warn!("settings not saved to {}: {e}", path.display());
    }
}

/// The window height the menus are laid out for at 1x.
const MENU_HEIGHT_AT_1X: f32 = 720.0;

/// The UI scale: the chosen one in a match (its HUD is laid out to fit at every scale offered);
/// on the screens around it (menu, level select, seats, Load, campaign) no larger than the
/// window has room for, so that no button lies outside it (2x in a 720-pixel window would push
/// Back, Quit and Begin off the bottom: the UI walk found them there).
fn apply_ui_scale(
    settings: Res<Settings>,
    screen: Option<Res<State<super::screens::Screen>>>,
    windows: Query<&Window, With<bevy::window::PrimaryWindow>>,
    mut scale: ResMut<UiScale>,
) {
    let chosen = settings.ui_scale.clamp(0.5, 3.0);
    let in_match = screen.is_some_and(|s| *s.get() == super::screens::Screen::Match);
    let room = windows.single().map_or(1.0, |w| (w.height() / MENU_HEIGHT_AT_1X).max(1.0));
    let s = if in_match { chosen } else { chosen.min(room) };
    if scale.0 != s {
        scale.0 = s;
    }
}
