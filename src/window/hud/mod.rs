//! The match UI, one file per panel: the top bar (turn, round, who is up, order by AP), the
//! card of the hovered or acting figure with attack forecasts, the scrollable combat log (every
//! die and its arithmetic, described from typed events), the action bar (costs, Only, greyed
//! entries with the rule that forbids them) and its tooltip line, the reaction prompt and the
//! hot-seat handover, and the overlays (reset steps, help, result). The HUD only shows: every
//! decision goes out as an `Intent`, and what is legal comes from the rules' `PlayerView`.

use super::screens::Screen;
use super::ui::{Blocks, colors, panel, text};
use crate::game::MatchSystems;
use crate::game::components::CharacterId;
use bevy::prelude::*;
use std::collections::BTreeMap;

mod action_bar;
mod card;
mod input;
mod log;
mod overlays;
mod prompt;
mod top_bar;

pub use card::card;
pub use log::describe;
pub use overlays::Overlay;

pub(super) fn plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (HudSystems::Result, HudSystems::Prompt, HudSystems::Hold, HudSystems::Draw)
            .chain()
            .in_set(MatchSystems::Present)
            .after(crate::game::log::publish_events)
            .run_if(in_state(Screen::Match)),
    )
    .add_systems(OnEnter(Screen::Match), spawn_hud)
    .add_plugins((input::plugin, top_bar::plugin, card::plugin, log::plugin, action_bar::plugin, prompt::plugin, overlays::plugin));
}

/// The HUD's order inside Present: the result and reset overlays, then the prompt and handover,
/// then whether the AI waits, then drawing the panels.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum HudSystems {
    Result,
    Prompt,
    Hold,
    Draw,
}

/// The tooltip of a UI element.
#[derive(Component, Clone)]
struct Tip(String);

/// Character id → name, for describing events.
fn names(q: &Query<(&CharacterId, &Name)>) -> BTreeMap<String, String> {
    q.iter().map(|(c, n)| (c.id.clone(), n.to_string())).collect()
}

/// The HUD's panels: top bar, right panel (card, reload error, log), bottom (tooltip, bar).
fn spawn_hud(mut commands: Commands) {
    use super::camera::{BOTTOM_BAR_PX, RIGHT_PANEL_PX, TOP_BAR_PX};
    let root = DespawnOnExit(Screen::Match);
    // Top bar.
    commands
        .spawn((
            Name::new("Top bar"),
            root.clone(),
            panel(Node {
                position_type: PositionType::Absolute,
                left: Val::Px(0.0),
                top: Val::Px(0.0),
                right: Val::Px(RIGHT_PANEL_PX),
                height: Val::Px(TOP_BAR_PX),
                padding: UiRect::axes(Val::Px(10.0), Val::Px(4.0)),
                flex_direction: FlexDirection::Column,
                ..default()
            }),
        ))
        .with_children(|p| {
            p.spawn((top_bar::TopText, text("", 16.0, colors::TEXT)));
            p.spawn((top_bar::OrderText, text("", 14.0, colors::DIM)));
        });
    // Right panel: card, then log.
    commands
        .spawn((
            Name::new("Right panel"),
            root.clone(),
            panel(Node {
                position_type: PositionType::Absolute,
                right: Val::Px(0.0),
                top: Val::Px(0.0),
                bottom: Val::Px(0.0),
                width: Val::Px(RIGHT_PANEL_PX),
                padding: UiRect::all(Val::Px(10.0)),
                flex_direction: FlexDirection::Column,
                row_gap: Val::Px(6.0),
                ..default()
            }),
        ))
        .with_children(|p| {
            p.spawn((card::CardText, text("", 15.0, colors::TEXT)));
            p.spawn((overlays::ReloadErrorText, text("", 14.0, colors::BAD)));
            p.spawn((
                log::LogPanel,
                Interaction::default(),
                Blocks,
                Node { flex_direction: FlexDirection::Column, flex_grow: 1.0, overflow: Overflow::clip(), padding: UiRect::top(Val::Px(6.0)), ..default() },
                BorderColor::all(Color::srgb(0.3, 0.26, 0.2)),
            ))
            .with_children(|l| {
                l.spawn(text("Combat log (wheel to scroll)", 14.0, colors::GOLD));
                l.spawn((log::LogText, text("", 13.0, colors::TEXT)));
            });
        });
    // Bottom: tooltip / feedback line, then the action bar.
    commands
        .spawn((
            Name::new("Action bar"),
            root,
            panel(Node {
                position_type: PositionType::Absolute,
                left: Val::Px(0.0),
                bottom: Val::Px(0.0),
                right: Val::Px(RIGHT_PANEL_PX),
                height: Val::Px(BOTTOM_BAR_PX),
                padding: UiRect::all(Val::Px(6.0)),
                flex_direction: FlexDirection::Column,
                ..default()
            }),
        ))
        .with_children(|p| {
            p.spawn((action_bar::TipText, text("", 15.0, colors::TEXT), Node { min_height: Val::Px(20.0), ..default() }));
            p.spawn((action_bar::BarRow, Node { flex_direction: FlexDirection::Row, flex_wrap: FlexWrap::Wrap, ..default() }));
        });
}
