//! The result of a match, once the rules end it (`MatchOutcome`, from `Event::CrisisOver`):
//! who won, by which goal, when; then play again, watch the replay, another level, the menu —
//! or, on a campaign's level, back to the campaign.

use super::campaign::{BackToCampaign, CampaignRun};
use super::{Go, Screen};
use crate::game::components::MatchState;
use crate::game::log::MatchOutcome;
use crate::window::PlayingLevel;
use crate::window::board::Overlay;
use crate::window::board::camera::{BOTTOM_BAR_PX, TOP_BAR_PX};
use crate::window::hud::{HudSystems, RightInset};
use crate::window::session;
use crate::window::theme::prelude::*;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_button_action::<ResultAct>()
        .add_systems(Update, check_outcome.in_set(HudSystems::Outcome))
        .add_systems(Update, show_result.in_set(HudSystems::Draw))
        .add_systems(Update, answer_result);
}

/// What a result button does (the others lead to a screen, or back to the campaign).
#[derive(Component, Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultAct {
    PlayAgain,
    /// Watch the match just played from its first command.
    WatchThis,
}

#[derive(Component)]
struct ResultPanel;

/// The result screen, once the rules have ended the match (`MatchOutcome`, from
/// `Event::CrisisOver`).
fn check_outcome(
    outcome: Res<MatchOutcome>,
    level: Option<Res<PlayingLevel>>,
    state: Option<Res<MatchState>>,
    spectating: Option<Res<crate::game::intent::Spectating>>,
    mut overlay: ResMut<Overlay>,
) {
    if !outcome.is_changed() {
        return;
    }
    if spectating.is_some() {
        overlay.result = None; // the replay viewer shows the end in its own bar
        return;
    }
    let (Some(o), Some(state)) = (&outcome.0, state) else { return };
    let label = |s: &str| level.as_ref().and_then(|l| l.0.sides.iter().find(|x| x.id == s).and_then(|x| x.name.clone())).unwrap_or_else(|| s.to_string());
    let text = match &o.winner {
        Some(s) => format!("Victory for {}!", label(s)),
        None => "Nobody wins: every side is down.".into(),
    };
    info!("match over: {text} ({})", o.reason);
    let how = match &o.goal {
        Some(g) => format!("Goal: {}.", g.describe()),
        None => "No other side has anyone able to act (G-15).".to_string(),
    };
    // Under A4 a DoO turn is one round (A4-G-40).
    let when = if state.a4.is_some() { format!("Round {}.", state.clock.turn) } else { format!("Turn {}, round {}.", state.clock.turn, state.clock.round) };
    overlay.result = Some(format!("{text}\n{how}  {when}"));
}

/// The result over the board, under the handover and the match menu (which cover it).
fn show_result(
    mut commands: Commands,
    overlay: Res<Overlay>,
    old: Query<Entity, With<ResultPanel>>,
    campaign: Option<Res<CampaignRun>>,
    playtest: Option<Res<super::editor::PlayTest>>,
    setup: Option<Res<crate::window::session::MatchSetup>>,
) {
    // A network match is not played again from here (every player would have to start anew).
    let networked = setup.is_some_and(|s| s.networked());
    if !overlay.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let Some(r) = &overlay.result else { return };
    if overlay.handover.is_some() || overlay.save_name.is_some() || overlay.menu {
        return;
    }
    // The final board stays in sight around a solid box (translucent full-screen backings
    // do not darken what lies under them on every renderer). The box sits in the board
    // area: the log beside it stays readable (how the match ended is told there).
    commands
        .spawn((
            Name::new("Result"),
            ResultPanel,
            GlobalZIndex(40),
            RightInset,
            DespawnOnExit(Screen::Match),
            Interaction::default(),
            Blocks,
            Node {
                position_type: PositionType::Absolute,
                left: Val::Px(0.0),
                top: Val::Px(TOP_BAR_PX),
                bottom: Val::Px(BOTTOM_BAR_PX),
                right: Val::Px(360.0), // `size_panels` keeps it beside the right panel
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                justify_content: JustifyContent::Center,
                padding: UiRect::all(Val::Px(16.0)),
                ..default()
            },
        ))
        .with_children(|c| {
            let (title, detail) = r.split_once('\n').unwrap_or((r.as_str(), ""));
            c.spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    align_items: AlignItems::Center,
                    padding: UiRect::all(Val::Px(18.0)),
                    row_gap: Val::Px(8.0),
                    max_width: Val::Percent(100.0),
                    ..default()
                },
                BackgroundColor(palette::PANEL_SOLID),
            ))
            .with_children(|c| {
                c.spawn(text(title, 36.0, palette::GOLD));
                c.spawn(text(detail, 18.0, palette::TEXT));
                c.spawn(Node { flex_direction: FlexDirection::Row, flex_wrap: FlexWrap::Wrap, justify_content: JustifyContent::Center, ..default() })
                    .with_children(|b| {
                        if campaign.is_some() {
                            b.spawn(button("Back to the campaign  [Enter]", BackToCampaign));
                            if !networked {
                                b.spawn(button("Watch the replay", ResultAct::WatchThis));
                            }
                            return;
                        }
                        if playtest.is_some() {
                            b.spawn(button("Back to the editor  [Enter]", Go(Screen::Editor)));
                        }
                        // A network match goes on for the others: it is neither played again nor
                        // replaced by its replay here (Load a save of it to watch it).
                        if !networked {
                            b.spawn(button("Play again", ResultAct::PlayAgain));
                            b.spawn(button("Watch the replay", ResultAct::WatchThis));
                        }
                        b.spawn(button("Choose another level", Go(Screen::Levels)));
                        b.spawn(button("Main menu", Go(Screen::Menu)));
                    });
            });
        });
}

fn answer_result(mut acts: MessageReader<ResultAct>, mut commands: Commands) {
    for act in acts.read() {
        match act {
            // Leave and re-enter so the match is built afresh.
            ResultAct::PlayAgain => commands.queue(session::restart),
            ResultAct::WatchThis => commands.queue(session::watch_from_start),
        }
    }
}
