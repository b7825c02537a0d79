//! The main menu: play the level that is ready, choose a level, go on with the autosaved match,
//! start or continue a campaign, delve into a generated dungeon, load a save, host or join a network match, the level editor,
//! settings, quit.

use super::campaign::CampaignAct;
use super::settings::SettingsAct;
use super::setup::NameEditing;
use super::{Go, Screen, root_node};
use crate::window::GameData;
use crate::window::session::{self, MatchSetup};
use crate::window::theme::prelude::*;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_button_action::<MenuAct>().add_systems(OnEnter(Screen::Menu), spawn_menu).add_systems(Update, answer_menu);
}

/// What a menu button does (the others lead to a screen, a campaign or the settings).
#[derive(Component, Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MenuAct {
    /// Go on with the autosaved match.
    Continue,
    /// Host a network match: choose a level; its other sides' seats start as remote players.
    Host,
    Quit,
}

/// After a campaign's level the level that is ready is that campaign's: the menu's first
/// button (and Enter) continues the campaign (or the delve), never a standalone copy of its
/// level (issue 43).
fn campaign_first(setup: Option<&MatchSetup>) -> Option<CampaignAct> {
    let c = setup.and_then(|s| s.campaign.as_ref())?;
    let save = session::run_save_path(std::path::Path::new(&c.campaign));
    let delve = save == session::delve_save_path();
    save.is_file().then_some(if delve { CampaignAct::ContinueDelve } else { CampaignAct::ContinueCampaign })
}

fn spawn_menu(mut commands: Commands, setup: Option<Res<MatchSetup>>) {
    let first = campaign_first(setup.as_deref());
    let campaign = first.is_some();
    let quick = setup.filter(|_| !campaign).map(|s| s.checked.level.name.clone());
    commands.spawn((Name::new("Main menu"), DespawnOnExit(Screen::Menu), root_node())).with_children(|p| {
        p.spawn(text("Dungeons of Olde", 54.0, palette::GOLD));
        p.spawn(text("Crisis Mode tactics", 20.0, palette::DIM));
        p.spawn(Node { height: Val::Px(24.0), ..default() });
        // Enter starts the level that is ready (the tutorial unless `play <level> --menu` named
        // another): its seats screen, then Enter again plays it.
        match first {
            Some(CampaignAct::ContinueDelve) => {
                p.spawn(button("Continue the delve  [Enter]", CampaignAct::ContinueDelve));
            }
            Some(act) => {
                p.spawn(button("Continue the campaign  [Enter]", act));
            }
            None => {}
        }
        if let Some(q) = &quick {
            p.spawn(button(format!("Play {q}  [Enter]"), Go(Screen::Setup)));
        }
        p.spawn(button(if quick.is_some() || campaign { "Choose a level  [L]" } else { "Choose a level  [Enter]" }, Go(Screen::Levels)));
        if crate::saves::autosave_path().is_file() {
            p.spawn(button("Continue  (the last match, autosaved)", MenuAct::Continue));
        }
        // A run and its "continue" share a row, so a menu with both saves still fits at 720 px.
        p.spawn(Node { flex_direction: FlexDirection::Row, ..default() }).with_children(|r| {
            r.spawn(button("New campaign", CampaignAct::NewCampaign));
            if first != Some(CampaignAct::ContinueCampaign) && session::campaign_save_path().is_file() {
                r.spawn(button("Continue the campaign", CampaignAct::ContinueCampaign));
            }
        });
        p.spawn(Node { flex_direction: FlexDirection::Row, ..default() }).with_children(|r| {
            r.spawn(button("Delve  [D]  (a dungeon from a seed)", Go(Screen::Delve)));
            if first != Some(CampaignAct::ContinueDelve) && session::delve_save_path().is_file() {
                r.spawn(button("Continue the delve", CampaignAct::ContinueDelve));
            }
        });
        p.spawn(button("Load a saved match", Go(Screen::Load)));
        p.spawn(Node { flex_direction: FlexDirection::Row, ..default() }).with_children(|r| {
            r.spawn(button("Host a network match  [H]", MenuAct::Host));
            r.spawn(button("Join a network match  [J]", Go(Screen::Join)));
        });
        p.spawn(button("Level editor  [E]", Go(Screen::Editor)));
        p.spawn(button("Settings", SettingsAct::Toggle));
        p.spawn(button("Quit", MenuAct::Quit));
    });
}

/// The menu's buttons, and its keys: L chooses a level, Enter plays the level that is ready
/// (or chooses one when none is; after a campaign's level, continues the campaign).
#[allow(clippy::too_many_arguments)]
fn answer_menu(
    mut acts: MessageReader<MenuAct>,
    keys: Res<ButtonInput<KeyCode>>,
    screen: Res<State<Screen>>,
    setup: Option<Res<MatchSetup>>,
    editing: Res<NameEditing>,
    focus: Res<KeyFocus>,
    data: Res<GameData>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
    mut exit: MessageWriter<AppExit>,
    mut campaign: MessageWriter<CampaignAct>,
) {
    for act in acts.read() {
        match act {
            MenuAct::Continue => match session::continue_save(&data.0) {
                Some(Ok(setup)) => {
                    commands.insert_resource(setup);
                    next.set(Screen::Match);
                }
                // An autosave that cannot be used: what is wrong, and the choices.
                Some(Err(broken)) => {
                    commands.insert_resource(*broken);
                    next.set(Screen::Load);
                }
                None => {}
            },
            MenuAct::Host => {
                commands.insert_resource(super::setup::WantHost);
                next.set(Screen::Levels);
            }
            MenuAct::Quit => {
                exit.write(AppExit::Success);
            }
        }
    }
    if *screen.get() == Screen::Menu {
        if keys.just_pressed(KeyCode::KeyL) {
            next.set(Screen::Levels);
        }
        if keys.just_pressed(KeyCode::KeyE) {
            next.set(Screen::Editor);
        }
        if keys.just_pressed(KeyCode::KeyH) {
            commands.insert_resource(super::setup::WantHost);
            next.set(Screen::Levels);
        }
        if keys.just_pressed(KeyCode::KeyJ) {
            next.set(Screen::Join);
        }
        if keys.just_pressed(KeyCode::KeyD) {
            next.set(Screen::Delve);
        }
        // Enter presses the focused button when there is one.
        if keys.just_pressed(KeyCode::Enter) && editing.0.is_none() && focus.0.is_none() {
            if let Some(act) = campaign_first(setup.as_deref()) {
                campaign.write(act);
            } else {
                next.set(if setup.is_some() { Screen::Setup } else { Screen::Levels });
            }
        }
    }
}
