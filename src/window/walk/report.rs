//! What the walk reports: counts, then every list (JSON), written when the walk ends; and
//! whether a settings press reached the settings file.

use super::state::UiWalk;
use crate::window::screens::settings::SettingsAct;
use bevy::prelude::*;

impl UiWalk {
    /// The report: counts, then every list.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "states": self.states.len(),
            "buttons_pressed": self.pressed.len(),
            "buttons_seen": self.seen.len(),
            "buttons_disabled": self.disabled.len(),
            "keys_pressed": self.keys.len(),
            "focus": self.focus,
            "steps": self.steps,
            "last_new": self.last_new,
            "moves": self.moves,
            "failures": self.failures,
            "play_again_checked": self.play_again_checked,
            "persisted": self.persisted,
            "unpressed": self.unpressed(),
            "pressed": self.pressed,
            "disabled": self.disabled,
            "state_list": self.states,
            "key_list": self.keys,
            "campaign_texts": self.campaign_texts,
            "menu_first": self.menu_first,
        })
    }
}

/// A settings button pressed: does the settings file now hold its value? (`None`: not a setting.)
/// Read a few frames after the press arrived (the game saves changed settings in `Update`).
pub(super) fn persisted(act: &SettingsAct) -> Option<bool> {
    let s = crate::window::settings::load();
    Some(match act {
        SettingsAct::UiScale(v) => s.ui_scale == *v,
        SettingsAct::Speed(v) => s.animation_speed == *v,
        SettingsAct::Volume(v) => s.volume == *v,
        SettingsAct::Prompts(v) => s.reaction_prompts == *v,
        SettingsAct::Timeout(v) => s.prompt_timeout_secs == *v,
        SettingsAct::ColourBlind(v) => s.colour_blind == *v,
        SettingsAct::Toggle => return None,
    })
}

pub(super) fn write_report(walk: &UiWalk) {
    if let Some(p) = &walk.report {
        if let Err(e) = doo_rules::data::write_atomic(p, &walk.to_json().to_string()) {
            error!("ui walk: cannot write {}: {e}", p.display());
        }
    }
}

pub(super) fn finish(world: &mut World, walk: &mut UiWalk) {
    walk.finished = true;
    write_report(walk);
    if walk.report.is_some() {
        world.write_message(AppExit::Success);
    }
}
