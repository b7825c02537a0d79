//! The seats: who plays each side of the level chosen, a human player (whose name is typed
//! here), the AI at a difficulty, or a player on another computer (then this window hosts the
//! match over the network, issue 32, on the address and port typed here); then the match starts.

use super::{Go, Screen, root_node};
use crate::window::session::{MatchSetup, Seat};
use crate::window::theme::prelude::*;
use bevy::input::keyboard::KeyboardInput;
use bevy::prelude::*;
use doo_rules::ai::Difficulty;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<NameEditing>()
        .init_resource::<ListenField>()
        .add_button_action::<SetupAct>()
        .add_systems(OnEnter(Screen::Setup), (seat_remote_players, fill_listen_field, spawn_setup).chain())
        // Host pressed, then back to the menu: the next Play is not hosted.
        .add_systems(OnEnter(Screen::Menu), |mut commands: Commands| commands.remove_resource::<WantHost>())
        .add_systems(Update, (answer_setup, type_player_name, refresh_setup).chain());
}

/// What a seats button does.
#[derive(Component, Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupAct {
    /// Cycle a side's seat: human -> AI easy -> normal -> hard -> remote -> human.
    CycleSeat(usize),
    /// Type the seat's player name (again: done).
    EditName(usize),
    /// Type where a hosted match listens (again: done).
    EditListen,
    Start,
}

/// `NameEditing`'s value while the listen address is typed.
pub const LISTEN_FIELD: usize = usize::MAX;

/// Where a hosted match listens, as typed ("0.0.0.0:5000"), and what is wrong with it when the
/// match could not start.
#[derive(Resource, Debug, Default, Clone)]
pub struct ListenField {
    pub text: String,
    pub problem: Option<String>,
}

/// The field shows where the match will listen (the setup's choice, else every address and the
/// default port).
fn fill_listen_field(setup: Option<Res<MatchSetup>>, mut field: ResMut<ListenField>) {
    let at = setup.and_then(|s| s.listen).unwrap_or(std::net::SocketAddr::from(([0, 0, 0, 0], crate::window::net::DEFAULT_PORT)));
    *field = ListenField { text: at.to_string(), problem: None };
}

/// The main menu's Host: the seats screen starts with every side but the first played remotely.
#[derive(Resource, Debug, Clone, Copy)]
pub struct WantHost;

fn seat_remote_players(want: Option<Res<WantHost>>, setup: Option<ResMut<MatchSetup>>, mut commands: Commands) {
    if want.is_none() {
        return;
    }
    commands.remove_resource::<WantHost>();
    let Some(mut setup) = setup else { return };
    *setup = setup.clone().hosted();
}

/// Which seat's player name is being typed (`LISTEN_FIELD`: the listen address).
#[derive(Resource, Default)]
pub struct NameEditing(pub Option<usize>);

#[derive(Component)]
struct SetupSeats;

fn spawn_setup(mut commands: Commands, setup: Res<MatchSetup>, listen: Res<ListenField>) {
    commands.spawn((Name::new("Match setup"), DespawnOnExit(Screen::Setup), root_node())).with_children(|p| {
        p.spawn(text(format!("{} - who plays each side?", setup.checked.level.name), 26.0, palette::GOLD));
        p.spawn(text("Click a seat to switch human / AI easy / normal / hard; click a name to type it (Enter when done).", 15.0, palette::DIM));
        p.spawn((
            SetupSeats,
            panel(Node { flex_direction: FlexDirection::Column, padding: UiRect::all(Val::Px(14.0)), min_width: Val::Px(620.0), ..default() }),
        ));
        p.spawn(Node { flex_direction: FlexDirection::Row, ..default() }).with_children(|r| {
            r.spawn(button("Back", Go(Screen::Levels)));
            r.spawn((StartLabel, button(start_label(&setup, &listen), SetupAct::Start)));
        });
    });
}

fn seat_text(s: &Seat) -> String {
    match s.ai {
        _ if s.remote => "Remote player".into(),
        Some(d) => format!("AI ({})", format!("{d:?}").to_lowercase()),
        None => "Human".into(),
    }
}

/// The start button's label (a remote seat: the match is hosted, on the port typed).
fn start_label(setup: &MatchSetup, listen: &ListenField) -> String {
    if setup.seats.iter().any(|s| s.remote) {
        match crate::net::transport::parse_listen(&listen.text, crate::window::net::DEFAULT_PORT) {
            Ok(at) => format!("Host the match (port {})  [Enter]", at.port()),
            Err(_) => "Host the match  [Enter]".into(),
        }
    } else {
        "Start the match  [Enter]".into()
    }
}

#[derive(Component)]
struct StartLabel;

/// Rebuilds the seat rows when the seats change.
fn refresh_setup(
    mut commands: Commands,
    setup: Option<Res<MatchSetup>>,
    editing: Res<NameEditing>,
    listen: Res<ListenField>,
    q: Query<(Entity, Ref<SetupSeats>)>,
    start: Query<&Children, With<StartLabel>>,
    mut texts: Query<&mut Text>,
) {
    let Some(setup) = setup else { return };
    if setup.is_changed() || listen.is_changed() {
        for c in start.iter().flat_map(|c| c.iter()) {
            if let Ok(mut t) = texts.get_mut(c) {
                t.0 = start_label(&setup, &listen);
            }
        }
    }
    let Ok((e, panel)) = q.single() else { return };
    if !(setup.is_changed() || editing.is_changed() || listen.is_changed() || panel.is_added()) {
        return;
    }
    commands.entity(e).despawn_children();
    commands.entity(e).with_children(|p| {
        for (k, s) in setup.seats.iter().enumerate() {
            p.spawn(Node { flex_direction: FlexDirection::Row, align_items: AlignItems::Center, column_gap: Val::Px(10.0), ..default() }).with_children(|r| {
                r.spawn((text(s.label.clone(), 18.0, palette::TEXT), Node { width: Val::Px(180.0), ..default() }));
                r.spawn(button(seat_text(s), SetupAct::CycleSeat(k)));
                if s.local_human() {
                    let cursor = if editing.0 == Some(k) { "_" } else { "" };
                    let mut b = r.spawn(button(format!("{}{cursor}", s.player), SetupAct::EditName(k)));
                    if editing.0 == Some(k) {
                        b.insert(Selected);
                    }
                }
            });
        }
        let humans: std::collections::BTreeSet<&str> = setup.seats.iter().filter(|s| s.local_human()).map(|s| s.player.as_str()).collect();
        let remote = setup.seats.iter().filter(|s| s.remote).count();
        if remote > 0 {
            // Where the hosted match listens: 0.0.0.0 is every address of this computer.
            p.spawn(Node { flex_direction: FlexDirection::Row, align_items: AlignItems::Center, column_gap: Val::Px(10.0), ..default() }).with_children(|r| {
                r.spawn((text("Listen on", 18.0, palette::TEXT), Node { width: Val::Px(180.0), ..default() }));
                let typing = editing.0 == Some(LISTEN_FIELD);
                let mut b = r.spawn(button(format!("{}{}", listen.text, if typing { "_" } else { "" }), SetupAct::EditListen));
                if typing {
                    b.insert(Selected);
                }
            });
            if let Some(problem) = &listen.problem {
                p.spawn(text(problem.clone(), 15.0, palette::BAD));
            }
        }
        let note = match humans.len() {
            _ if remote > 0 => format!(
                "Network match hosted here (0.0.0.0: every address of this computer); {remote} remote {} with Join a network match.",
                if remote == 1 { "player joins" } else { "players join" }
            ),
            0 => "Every side is AI: you will watch the match.".to_string(),
            1 => "One human player.".to_string(),
            n => format!("Hot-seat: {n} players share this computer; the board is hidden while it passes between them."),
        };
        p.spawn(text(note, 15.0, palette::DIM));
    });
}

fn type_player_name(
    mut keys: MessageReader<KeyboardInput>,
    mut editing: ResMut<NameEditing>,
    setup: Option<ResMut<MatchSetup>>,
    mut listen: ResMut<ListenField>,
    screen: Res<State<Screen>>,
) {
    let (Some(k), Some(mut setup)) = (editing.0, setup) else {
        keys.clear();
        return;
    };
    if *screen.get() != Screen::Setup {
        editing.0 = None;
        return;
    }
    // The key that started the editing (Enter or Space on the focused button) is not typed.
    if editing.is_changed() {
        keys.clear();
        return;
    }
    for e in keys.read() {
        if !e.state.is_pressed() {
            continue;
        }
        if k == LISTEN_FIELD {
            // "[ffff:…]:65535" fits.
            if type_key(&mut listen.text, &e.logical_key, 48, false) {
                editing.0 = None;
            }
            continue;
        }
        let Some(seat) = setup.seats.get_mut(k) else { continue };
        if type_key(&mut seat.player, &e.logical_key, 20, true) {
            editing.0 = None;
        }
    }
}

/// The seats' buttons, and the keys: Enter starts the match, Esc goes back to level select
/// (not while a name is typed: those keys are the name's).
fn answer_setup(
    mut acts: MessageReader<SetupAct>,
    keys: Res<ButtonInput<KeyCode>>,
    screen: Res<State<Screen>>,
    focus: Res<KeyFocus>,
    mut setup: Option<ResMut<MatchSetup>>,
    mut editing: ResMut<NameEditing>,
    mut listen: ResMut<ListenField>,
    mut next: ResMut<NextState<Screen>>,
) {
    let mut list: Vec<SetupAct> = acts.read().copied().collect();
    if *screen.get() == Screen::Setup {
        // Enter presses the focused button when there is one.
        if keys.just_pressed(KeyCode::Enter) && editing.0.is_none() && focus.0.is_none() {
            list.push(SetupAct::Start);
        }
        if keys.just_pressed(KeyCode::Escape) && editing.0.is_none() {
            next.set(Screen::Levels);
        }
    }
    for act in list {
        match act {
            SetupAct::CycleSeat(k) => {
                if let Some(s) = setup.as_mut().and_then(|s| s.seats.get_mut(k)) {
                    (s.ai, s.remote) = match (s.ai, s.remote) {
                        (_, true) => (None, false),
                        (None, false) => (Some(Difficulty::Easy), false),
                        (Some(Difficulty::Easy), _) => (Some(Difficulty::Normal), false),
                        (Some(Difficulty::Normal), _) => (Some(Difficulty::Hard), false),
                        (Some(Difficulty::Hard | Difficulty::Sharp), _) => (None, true),
                    };
                }
            }
            SetupAct::EditName(k) => editing.0 = if editing.0 == Some(k) { None } else { Some(k) },
            SetupAct::EditListen => editing.0 = if editing.0 == Some(LISTEN_FIELD) { None } else { Some(LISTEN_FIELD) },
            SetupAct::Start => {
                editing.0 = None;
                // A hosted match listens where typed; an address that cannot be read is said,
                // and the match waits.
                if let Some(setup) = setup.as_mut().filter(|s| s.seats.iter().any(|s| s.remote)) {
                    match crate::net::transport::parse_listen(&listen.text, crate::window::net::DEFAULT_PORT) {
                        Ok(at) => {
                            setup.listen = Some(at);
                            listen.problem = None;
                        }
                        Err(e) => {
                            listen.problem = Some(e);
                            continue;
                        }
                    }
                }
                next.set(Screen::Match);
            }
        }
    }
}
