//! The match UI, one file per panel: the top bar (turn, round, who is up, order by AP), the
//! card of the hovered or acting figure with attack forecasts, the scrollable combat log (every
//! die and its arithmetic, described from typed events), the action bar (costs, Only, greyed
//! entries with the rule that forbids them) and its tooltip line, the reaction prompt and the
//! hot-seat handover, and the overlays (reset steps, help, the match menu). The HUD only shows:
//! every decision goes out as an `Intent`, and what is legal comes from the rules' `PlayerView`.
//! Its buttons carry `MatchAct` (answered by input.rs, action_bar.rs and reference.rs); what
//! covers the board (`Overlay`) lives with the board, and the match's result is its own screen
//! (screens/result.rs).

use super::board::camera::{BOTTOM_BAR_PX, TOP_BAR_PX, right_panel_px};
use super::board::{BoardCamera, ShownFloor, TILE_PX};
use super::screens::Screen;
use super::session::HoldAi;
use super::theme::prelude::*;
use crate::game::MatchSystems;
use crate::game::components::CharacterId;
use bevy::prelude::*;
use std::collections::BTreeMap;

mod action_bar;
mod card;
mod input;
pub(crate) mod log;
mod net_banner;
mod overlays;
mod prompt;
mod reference;
mod story_banner;
mod top_bar;

pub use action_bar::{OrderKind, idle_hint};
pub use card::card;
pub use log::{describe, told_to};
pub use overlays::help_text;
pub use top_bar::{fit_chips, fit_chips_or_short, fit_line};

pub(super) fn plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (HudSystems::Outcome, HudSystems::Result, HudSystems::Prompt, HoldAi, HudSystems::Draw)
            .chain()
            .in_set(MatchSystems::Present)
            .after(crate::game::log::publish_events)
            .run_if(in_state(Screen::Match)),
    )
    .add_button_action::<MatchAct>()
    .add_systems(OnEnter(Screen::Match), spawn_hud)
    .add_systems(Update, size_panels.run_if(in_state(Screen::Match)))
    // After the camera's transform is propagated: the backing follows this frame's board.
    .add_systems(
        PostUpdate,
        back_panels_over_board.after(bevy::ui::UiSystems::Layout).after(bevy::transform::TransformSystems::Propagate).run_if(in_state(Screen::Match)),
    )
    .add_plugins((
        input::plugin,
        top_bar::plugin,
        card::plugin,
        log::plugin,
        action_bar::plugin,
        prompt::plugin,
        overlays::plugin,
        reference::plugin,
        net_banner::plugin,
        story_banner::plugin,
    ));
}

/// What a match button does (the HUD's panels and overlays; the number keys, Tab, Enter, Esc,
/// F1, F2, R, Y/N and Ctrl+Z / Ctrl+S write the same actions). Leaving the match is `Go`.
#[derive(Component, Message, Clone, Debug, PartialEq)]
pub enum MatchAct {
    /// An entry of the action bar (index in `PlayerView::choices`).
    Choose(usize),
    /// Open a group of the action bar (index in `preview::Group::ALL`).
    BarGroup(usize),
    /// Open the rules reference (at a rule id, or at the last one shown).
    Rules(Option<String>),
    Pass,
    React(usize),
    Decline,
    /// Issue 46: an answer to a level event's choice (its option, from 0).
    Answer(u32),
    NeverAsk(String),
    Help,
    HandoverReady,
    SkipReset,
    /// Take back the last command (Ctrl+Z).
    Undo,
    /// Open or close the match menu (Esc).
    MatchMenu,
    /// Name a save slot for the match (Ctrl+S), then write it.
    SaveAs,
    SaveNow,
    /// Watch the match just played from its first command.
    WatchThis,
}

/// The HUD's order inside Present: the match's outcome, the reset overlay, then the prompt and
/// handover, then whether the AI waits (`session::HoldAi`), then drawing the panels.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HudSystems {
    Outcome,
    Result,
    Prompt,
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
/// A side panel whose dark backing is drawn only while the board lies under it: beside a fitted
/// board it would only repaint the background (and under a software renderer every pixel of
/// a UI quad costs as much as a tile's).
#[derive(Component)]
struct BackedOverBoard;

/// The backing of a panel over the board: opaque (one camera draws the board and the UI, so the
/// board goes on under the panels), the colour the panel's own translucent dark shows over the
/// background beside a fitted board.
fn panel_over_board() -> Color {
    let (p, b) = (LinearRgba::from(palette::PANEL), LinearRgba::from(crate::window::board::palette::BACKGROUND));
    Color::from(LinearRgba::rgb(
        p.red * p.alpha + b.red * (1.0 - p.alpha),
        p.green * p.alpha + b.green * (1.0 - p.alpha),
        p.blue * p.alpha + b.blue * (1.0 - p.alpha),
    ))
}

/// Gives the side panels their opaque backing when the board is panned or zoomed under them.
fn back_panels_over_board(
    state: Res<crate::game::components::MatchState>,
    shown: Res<ShownFloor>,
    cams: Query<(&Camera, &GlobalTransform), With<BoardCamera>>,
    mut panels: Query<(&ComputedNode, &UiGlobalTransform, &mut BackgroundColor), With<BackedOverBoard>>,
) {
    let Ok((cam, cam_at)) = cams.single() else { return };
    let floors = &state.board.floors;
    let (Some(first), Some(f)) = (floors.first(), floors.get(shown.0 as usize)) else { return };
    // The shown floor's rectangle in the world (floors are centred like the first, as drawn).
    let centre = Vec2::new((f.width as f32 - first.width as f32) / 2.0, -(f.height as f32 - first.height as f32) / 2.0) * TILE_PX;
    let half = Vec2::new(f.width as f32, f.height as f32) * TILE_PX / 2.0;
    let (Ok(a), Ok(b)) = (cam.world_to_viewport(cam_at, (centre - half).extend(0.0)), cam.world_to_viewport(cam_at, (centre + half).extend(0.0))) else {
        return;
    };
    let board = Rect::from_corners(a, b);
    for (node, at, mut bg) in &mut panels {
        // Node geometry is in physical pixels; the viewport in logical ones.
        let size = node.size() * node.inverse_scale_factor();
        let panel = Rect::from_center_size(at.translation * node.inverse_scale_factor(), size);
        let under = !panel.intersect(board).is_empty();
        bg.set_if_neq(BackgroundColor(if under { panel_over_board() } else { Color::NONE }));
    }
}

/// The right panel (its width follows the window and the UI scale).
#[derive(Component)]
struct RightPanel;
/// A panel that ends where the right panel begins.
#[derive(Component)]
pub struct RightInset;

/// Sizes the right panel for the window's logical width (see `board::camera::right_panel_px`).
fn size_panels(windows: Query<&Window>, ui: Res<UiScale>, mut panels: Query<(&mut Node, Has<RightPanel>), Or<(With<RightPanel>, With<RightInset>)>>) {
    let Ok(w) = windows.single() else { return };
    let px = Val::Px(right_panel_px(w.width() / ui.0.max(0.1)));
    for (mut node, is_panel) in &mut panels {
        if is_panel && node.width != px {
            node.width = px;
        } else if !is_panel && node.right != px {
            node.right = px;
        }
    }
}

/// The right panel's width as spawned (`size_panels` fits it to the window).
const RIGHT_PANEL_PX: f32 = 360.0;
/// The log's least height (logical px), whatever card is over it.
const LOG_MIN_PX: f32 = 150.0;

fn spawn_hud(mut commands: Commands) {
    spawn_top_bar(&mut commands);
    spawn_right_panel(&mut commands);
    spawn_action_bar(&mut commands);
}

/// The top bar: turn, round, who is up, the order by AP; the Rules, Help and Menu buttons.
fn spawn_top_bar(commands: &mut Commands) {
    commands
        .spawn((
            Name::new("Top bar"),
            RightInset,
            BackedOverBoard,
            DespawnOnExit(Screen::Match),
            panel(Node {
                position_type: PositionType::Absolute,
                left: Val::Px(0.0),
                top: Val::Px(0.0),
                right: Val::Px(RIGHT_PANEL_PX),
                height: Val::Px(TOP_BAR_PX),
                padding: UiRect::axes(Val::Px(10.0), Val::Px(4.0)),
                flex_direction: FlexDirection::Row,
                column_gap: Val::Px(6.0),
                ..default()
            }),
        ))
        .with_children(|p| {
            // One line each: `top_bar` shortens them to the column's width (at a large UI scale
            // too), so they never run over the board nor get cut.
            p.spawn((
                top_bar::TopColumn,
                Node {
                    flex_direction: FlexDirection::Column,
                    flex_grow: 1.0,
                    flex_shrink: 1.0,
                    min_width: Val::Px(0.0),
                    overflow: Overflow::clip(),
                    ..default()
                },
            ))
            .with_children(|t| {
                t.spawn((top_bar::TopText, text("", top_bar::TOP_FONT, palette::TEXT), TextLayout::no_wrap()));
                t.spawn((top_bar::OrderText, text("", top_bar::ORDER_FONT, palette::DIM), TextLayout::no_wrap()));
            });
            p.spawn(Node { flex_direction: FlexDirection::Row, flex_shrink: 0.0, align_items: AlignItems::FlexStart, ..default() }).with_children(|b| {
                b.spawn((bar_button("Rules", MatchAct::Rules(None), true), Tip("[F2] The rules reference: every rule id the game shows, explained".into())));
                b.spawn((bar_button("Help", MatchAct::Help, true), Tip("[F1] Controls and shortcuts".into())));
                b.spawn((bar_button("Menu", MatchAct::MatchMenu, true), Tip("[Esc] Save as, load, watch the replay, leave (the match is autosaved)".into())));
            });
            p.spawn(net_banner::banner());
        });
}

/// The right panel: the card, then the log.
fn spawn_right_panel(commands: &mut Commands) {
    commands
        .spawn((
            Name::new("Right panel"),
            RightPanel,
            BackedOverBoard,
            DespawnOnExit(Screen::Match),
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
            // The card takes what it needs, but never the log's least height: a tall card (a
            // hovered enemy with every attack's odds) is cut at its foot instead.
            p.spawn(Node { flex_direction: FlexDirection::Column, flex_shrink: 1.0, min_height: Val::Px(0.0), overflow: Overflow::clip(), ..default() })
                .with_children(|c| {
                    c.spawn((card::CardText, text("", 15.0, palette::TEXT), Node { flex_shrink: 0.0, ..default() }));
                });
            p.spawn((overlays::ReloadErrorText, text("", 14.0, palette::BAD)));
            p.spawn((
                log::LogPanel,
                Interaction::default(),
                Blocks,
                Node {
                    flex_direction: FlexDirection::Column,
                    flex_grow: 1.0,
                    flex_shrink: 0.0,
                    flex_basis: Val::Px(0.0),
                    // Issue 43: the log keeps room for a heading and about eight lines at every UI
                    // scale (a fifth of the panel was two lines at 2x under a hovered figure's card).
                    min_height: Val::Px(LOG_MIN_PX),
                    overflow: Overflow::clip(),
                    padding: UiRect::top(Val::Px(6.0)),
                    ..default()
                },
                BorderColor::all(Color::srgb(0.3, 0.26, 0.2)),
            ))
            .with_children(|l| {
                // One line at 2x too (the two-line heading covered the log's top line).
                l.spawn(text("Combat log (wheel)", 14.0, palette::GOLD));
                // The lines sit at the bottom of the space the card leaves: when a tall card
                // (a hovered figure) squeezes the log, the oldest lines are cut, never the newest.
                l.spawn(Node {
                    flex_direction: FlexDirection::Column,
                    justify_content: JustifyContent::FlexEnd,
                    flex_grow: 1.0,
                    flex_basis: Val::Px(0.0),
                    min_height: Val::Px(0.0),
                    overflow: Overflow::clip(),
                    ..default()
                })
                .with_children(|t| {
                    t.spawn((log::LogText, text("", 13.0, palette::TEXT), Node { flex_shrink: 0.0, ..default() }));
                });
            });
        });
}

/// The bottom: the tooltip / feedback line, then the action bar.
fn spawn_action_bar(commands: &mut Commands) {
    commands
        .spawn((
            Name::new("Action bar"),
            RightInset,
            action_bar::BarPanel,
            BackedOverBoard,
            DespawnOnExit(Screen::Match),
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
            // The tooltip line: one line, fitted by `show_tooltip` (a refusal puts its rule id first).
            p.spawn((
                action_bar::TipLine,
                Node {
                    width: Val::Percent(100.0),
                    height: Val::Px(19.0),
                    overflow: Overflow::clip(),
                    flex_shrink: 0.0,
                    align_items: AlignItems::Center,
                    ..default()
                },
            ))
            .with_children(|t| {
                t.spawn((action_bar::TipText, text("", 14.0, palette::TEXT), TextLayout::no_wrap()));
            });
            p.spawn((
                action_bar::BarRow,
                Node { flex_direction: FlexDirection::Column, align_items: AlignItems::FlexStart, row_gap: Val::Px(2.0), ..default() },
            ));
            // The level's last story line, just above the bar (issue 43).
            p.spawn(story_banner::banner());
        });
}
