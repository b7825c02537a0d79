//! Join a network match (issue 32): the host's address and port and the player's name, typed;
//! Connect; what is happening ("connecting", the host's refusal, a welcome that cannot be
//! played). The match starts on its own when the host welcomes the player (`window::net`).

use super::{Screen, root_node};
use crate::net::client::NetClient;
use crate::window::net::{DEFAULT_PORT, NetNote};
use crate::window::theme::prelude::*;
use bevy::input::keyboard::KeyboardInput;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<JoinForm>()
        .init_resource::<JoinEditing>()
        .add_button_action::<JoinAct>()
        .add_systems(OnEnter(Screen::Join), (spawn_join, connect_now).chain())
        .add_systems(Update, (answer_join, type_join_field, refresh_join).chain().run_if(in_state(Screen::Join)));
}

/// What a join button does.
#[derive(Component, Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinAct {
    /// Type the address (again: done).
    EditAddress,
    /// Type the player's name (again: done).
    EditName,
    Connect,
    /// Stop connecting, back to the main menu.
    Back,
}

/// The form: the host's address and the name (kept for the next join).
#[derive(Resource, Debug, Clone)]
pub struct JoinForm {
    pub address: String,
    pub name: String,
}

impl Default for JoinForm {
    fn default() -> Self {
        JoinForm { address: format!("127.0.0.1:{DEFAULT_PORT}"), name: "Player".into() }
    }
}

/// Connect as the join screen opens (`doo play --join ADDR --name N`).
#[derive(Resource, Debug, Clone, Copy)]
pub struct ConnectNow;

fn connect_now(now: Option<Res<ConnectNow>>, form: Res<JoinForm>, mut commands: Commands) {
    if now.is_some() {
        commands.remove_resource::<ConnectNow>();
        let (address, name) = (form.address.clone(), form.name.clone());
        commands.queue(move |world: &mut World| connect(world, &address, &name));
    }
}

/// Which field is being typed: 0 the address, 1 the name.
#[derive(Resource, Debug, Default)]
pub struct JoinEditing(pub Option<u8>);

#[derive(Component)]
struct JoinFields;

#[derive(Component)]
struct JoinStatus;

fn spawn_join(mut commands: Commands) {
    commands.spawn((Name::new("Join a network match"), DespawnOnExit(Screen::Join), root_node())).with_children(|p| {
        p.spawn(text("Join a network match", 30.0, palette::GOLD));
        p.spawn(text("The host's address and port (the host's banner shows it), and your name. Click a field to type; Enter when done.", 15.0, palette::DIM));
        p.spawn((
            JoinFields,
            panel(Node { flex_direction: FlexDirection::Column, padding: UiRect::all(Val::Px(14.0)), min_width: Val::Px(560.0), ..default() }),
        ));
        p.spawn((JoinStatus, text("", 16.0, palette::TEXT)));
        p.spawn(Node { flex_direction: FlexDirection::Row, ..default() }).with_children(|r| {
            r.spawn(button("Back  [Esc]", JoinAct::Back));
            r.spawn(button("Connect  [Enter]", JoinAct::Connect));
        });
    });
}

/// The form's rows and the connection's state, redrawn when they change.
fn refresh_join(
    mut commands: Commands,
    form: Res<JoinForm>,
    editing: Res<JoinEditing>,
    client: Option<Res<NetClient>>,
    connection: Option<Res<State<bevy_replicon::prelude::ClientState>>>,
    note: Res<NetNote>,
    fields: Query<(Entity, Ref<JoinFields>)>,
    mut status: Query<&mut Text, With<JoinStatus>>,
) {
    if let Ok((e, panel)) = fields.single() {
        if form.is_changed() || editing.is_changed() || panel.is_added() {
            commands.entity(e).despawn_children();
            commands.entity(e).with_children(|p| {
                for (k, (label, value, act)) in
                    [("Host", &form.address, JoinAct::EditAddress), ("Your name", &form.name, JoinAct::EditName)].into_iter().enumerate()
                {
                    p.spawn(Node { flex_direction: FlexDirection::Row, align_items: AlignItems::Center, column_gap: Val::Px(10.0), ..default() })
                        .with_children(|r| {
                            r.spawn((text(label, 18.0, palette::TEXT), Node { width: Val::Px(140.0), ..default() }));
                            let typing = editing.0 == Some(k as u8);
                            let mut b = r.spawn(button(format!("{value}{}", if typing { "_" } else { "" }), act));
                            if typing {
                                b.insert(Selected);
                            }
                        });
                }
            });
        }
    }
    let gone = connection.is_some_and(|s| *s.get() == bevy_replicon::prelude::ClientState::Disconnected);
    let line = match (&note.0, client.as_deref()) {
        (_, Some(c)) if c.failed.is_some() => c.failed.clone().unwrap_or_default(),
        (_, Some(c)) if gone && !c.ever_connected && c.created.elapsed().as_secs() >= 2 => format!(
            "No host answered at {}: check the address and the port, and that the host has started its match (Connect tries again).",
            c.addr.map_or(String::new(), |a| a.to_string())
        ),
        (_, Some(c)) => match c.log.last() {
            Some(l) => format!("Connecting to {}... ({l})", c.addr.map_or(String::new(), |a| a.to_string())),
            None => format!("Connecting to {}... (the match starts when the host welcomes you; Cancel stops)", c.addr.map_or(String::new(), |a| a.to_string())),
        },
        (Some(n), None) => n.clone(),
        (None, None) => String::new(),
    };
    if let Ok(mut t) = status.single_mut() {
        if t.0 != line {
            t.0 = line;
        }
    }
}

fn type_join_field(mut keys: MessageReader<KeyboardInput>, mut editing: ResMut<JoinEditing>, mut form: ResMut<JoinForm>) {
    let Some(k) = editing.0 else {
        keys.clear();
        return;
    };
    // The key that started the typing (Enter or Space on the focused field) is not typed.
    if editing.is_changed() {
        keys.clear();
        return;
    }
    for e in keys.read() {
        if !e.state.is_pressed() {
            continue;
        }
        let (field, max) = if k == 0 { (&mut form.address, 64) } else { (&mut form.name, crate::net::protocol::MAX_NAME) };
        if type_key(field, &e.logical_key, max, k == 1) {
            editing.0 = None;
            return;
        }
    }
}

/// The buttons, and Enter (Connect) and Esc (back to the menu) when nothing is typed.
fn answer_join(
    mut acts: MessageReader<JoinAct>,
    keys: Res<ButtonInput<KeyCode>>,
    focus: Res<KeyFocus>,
    form: Res<JoinForm>,
    mut editing: ResMut<JoinEditing>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
) {
    let mut list: Vec<JoinAct> = acts.read().copied().collect();
    let typing = editing.0.is_some();
    if keys.just_pressed(KeyCode::Enter) && !typing && focus.0.is_none() {
        list.push(JoinAct::Connect);
    }
    if keys.just_pressed(KeyCode::Escape) && !typing {
        list.push(JoinAct::Back);
    }
    for act in list {
        match act {
            JoinAct::EditAddress => editing.0 = if editing.0 == Some(0) { None } else { Some(0) },
            JoinAct::EditName => editing.0 = if editing.0 == Some(1) { None } else { Some(1) },
            JoinAct::Connect => {
                editing.0 = None;
                let (address, name) = (form.address.clone(), form.name.trim().to_string());
                commands.queue(move |world: &mut World| connect(world, &address, &name));
            }
            JoinAct::Back => {
                editing.0 = None;
                commands.queue(|world: &mut World| {
                    crate::window::net::leave(world);
                    world.resource_mut::<NetNote>().0 = None;
                });
                next.set(Screen::Menu);
            }
        }
    }
}

/// Connect: the address and name checked first (a bad one is said, nothing is opened).
fn connect(world: &mut World, address: &str, name: &str) {
    crate::window::net::leave(world);
    let problem = crate::net::protocol::name_problem(name);
    let addr = {
        use std::net::ToSocketAddrs;
        let with_port = if address.contains(':') { address.to_string() } else { format!("{address}:{DEFAULT_PORT}") };
        with_port.to_socket_addrs().ok().and_then(|mut a| a.next())
    };
    let result = match (problem, addr) {
        (Some(p), _) => Err(format!("Your name: {p}.")),
        (None, None) => Err(format!("'{address}' is not an address (for example 192.168.1.20:{DEFAULT_PORT})")),
        (None, Some(addr)) => crate::window::net::join(world, addr, name),
    };
    world.resource_mut::<NetNote>().0 = result.err();
}
