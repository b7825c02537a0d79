//! The settings panel over the main menu: UI scale, animations, sound, side colours, reaction prompts and
//! their timeout. Each press changes `Settings`, which is saved at once (`window/settings.rs`).

use crate::window::screens::Screen;
use crate::window::settings::{ANIMATION_SPEEDS, PROMPT_TIMEOUTS, Settings, UI_SCALES, VOLUMES};
use crate::window::theme::prelude::*;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SettingsOpen>().add_button_action::<SettingsAct>().add_systems(Update, (close_settings, answer_settings, show_settings).chain());
}

/// What a settings button does: open or close the panel (the menu's Settings, the panel's
/// Close), or set an option.
#[derive(Component, Message, Clone, Copy, Debug, PartialEq)]
pub enum SettingsAct {
    Toggle,
    UiScale(f32),
    Speed(f32),
    Volume(f32),
    Prompts(bool),
    Timeout(u32),
    ColourBlind(bool),
}

#[derive(Resource, Default)]
pub struct SettingsOpen(pub bool);

#[derive(Component)]
struct SettingsPanel;

/// The settings panel belongs to the screen it was opened on: another screen starts without it.
fn close_settings(screen: Res<State<Screen>>, mut open: ResMut<SettingsOpen>) {
    if screen.is_changed() && open.0 {
        open.0 = false;
    }
}

/// The panel's buttons, and Esc: it closes the panel (outside a match).
fn answer_settings(
    mut acts: MessageReader<SettingsAct>,
    keys: Res<ButtonInput<KeyCode>>,
    screen: Res<State<Screen>>,
    mut open: ResMut<SettingsOpen>,
    mut settings: ResMut<Settings>,
) {
    if keys.just_pressed(KeyCode::Escape) && *screen.get() != Screen::Match && open.0 {
        open.0 = false;
    }
    for act in acts.read() {
        match *act {
            SettingsAct::Toggle => open.0 = !open.0,
            SettingsAct::UiScale(s) => settings.ui_scale = s,
            SettingsAct::Speed(s) => settings.animation_speed = s,
            SettingsAct::Volume(v) => settings.volume = v,
            SettingsAct::Prompts(b) => settings.reaction_prompts = b,
            SettingsAct::Timeout(t) => settings.prompt_timeout_secs = t,
            SettingsAct::ColourBlind(b) => settings.colour_blind = b,
        }
    }
}

fn show_settings(mut commands: Commands, open: Res<SettingsOpen>, settings: Res<Settings>, q: Query<Entity, With<SettingsPanel>>) {
    if !(open.is_changed() || settings.is_changed()) {
        return;
    }
    for e in &q {
        commands.entity(e).despawn();
    }
    if !open.0 {
        return;
    }
    let row = |p: &mut ChildSpawnerCommands, label: &str, items: Vec<(String, SettingsAct, bool)>| {
        p.spawn(Node { flex_direction: FlexDirection::Row, align_items: AlignItems::Center, ..default() }).with_children(|r| {
            r.spawn((text(label, 16.0, palette::TEXT), Node { width: Val::Px(170.0), ..default() }));
            for (l, act, on) in items {
                let mut b = r.spawn(button(l, act));
                if on {
                    b.insert(Selected);
                }
            }
        });
    };
    commands
        .spawn((
            Name::new("Settings"),
            SettingsPanel,
            GlobalZIndex(50),
            panel_in(
                Node {
                    position_type: PositionType::Absolute,
                    left: Val::Percent(25.0),
                    top: Val::Percent(20.0),
                    padding: UiRect::all(Val::Px(16.0)),
                    flex_direction: FlexDirection::Column,
                    row_gap: Val::Px(6.0),
                    ..default()
                },
                palette::PANEL_SOLID,
            ),
        ))
        .with_children(|p| {
            p.spawn(text("Settings", 24.0, palette::GOLD));
            row(p, "UI scale", UI_SCALES.iter().map(|&s| (format!("{s}x"), SettingsAct::UiScale(s), settings.ui_scale == s)).collect());
            row(p, "Animations", ANIMATION_SPEEDS.iter().map(|&(s, l)| (l.to_string(), SettingsAct::Speed(s), settings.animation_speed == s)).collect());
            let sound = if cfg!(feature = "audio") { "Sound" } else { "Sound (audio feature)" };
            row(p, sound, VOLUMES.iter().map(|&(v, l)| (l.to_string(), SettingsAct::Volume(v), settings.volume == v)).collect());
            row(
                p,
                "Side colours",
                vec![
                    ("the sides' own".into(), SettingsAct::ColourBlind(false), !settings.colour_blind),
                    ("colour-blind".into(), SettingsAct::ColourBlind(true), settings.colour_blind),
                ],
            );
            row(
                p,
                "Reaction prompts",
                vec![
                    ("ask".into(), SettingsAct::Prompts(true), settings.reaction_prompts),
                    ("never".into(), SettingsAct::Prompts(false), !settings.reaction_prompts),
                ],
            );
            row(
                p,
                "Prompt timeout",
                PROMPT_TIMEOUTS
                    .iter()
                    .map(|&t| (if t == 0 { "none".into() } else { format!("{t} s") }, SettingsAct::Timeout(t), settings.prompt_timeout_secs == t))
                    .collect(),
            );
            if !settings.never_ask.is_empty() {
                p.spawn(text(
                    format!("Never asked: {} (clear in the prompt or the file)", settings.never_ask.iter().cloned().collect::<Vec<_>>().join(", ")),
                    14.0,
                    palette::DIM,
                ));
            }
            p.spawn(text(
                format!(
                    "Saved to {}",
                    crate::window::settings::settings_path().map(|p| p.display().to_string()).unwrap_or_else(|| "(nowhere: no HOME)".into())
                ),
                13.0,
                palette::DIM,
            ));
            p.spawn(button("Close", SettingsAct::Toggle));
        });
}
