//! Network play in the window (issue 32): a match whose seats include a remote player is hosted
//! from this window (it listens, keeps the one match and its autosave, and plays its local seats
//! and AI as ever); a joined match is rebuilt from the host's welcome through the one replay path
//! and played with the player's commands sent to the host (`CommandRelay`). A lost host is
//! joined again (`net::client`), and the match rebuilt from the new welcome. Leaving the match
//! screen leaves the network.

use crate::game::intent::CommandRelay;
use crate::net::client::NetClient;
use crate::net::host::NetHost;
use crate::net::protocol::{Seat as NetSeat, SeatKind};
use crate::window::GameData;
use crate::window::screens::Screen;
use crate::window::session::{self, MatchSetup, NetMatchStarted, Seat};
use bevy::prelude::*;
use std::net::SocketAddr;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(crate::net::plugin)
        .init_resource::<NetNote>()
        .add_observer(answer_net_match)
        .add_observer(leave_for_a_local_match)
        .add_systems(OnExit(Screen::Match), leave_network)
        .add_systems(Update, (start_welcomed_match.before(crate::game::MatchSystems::Input), name_remote_players, leave_after_campaign));
}

/// A match played at this computer only (a campaign's level with no remote seat, after hosted
/// ones): the network is left.
fn leave_for_a_local_match(_: On<session::MatchBegun>, mut commands: Commands) {
    commands.queue(|world: &mut World| {
        if world.contains_resource::<NetHost>() {
            leave(world);
        }
    });
}

/// A campaign hosted over the network was left (or ended) off the match screen: the network too.
fn leave_after_campaign(world: &mut World) {
    let off_match = world.get_resource::<State<Screen>>().is_some_and(|s| *s.get() != Screen::Match);
    if off_match && world.contains_resource::<NetHost>() && !world.contains_resource::<crate::window::screens::campaign::CampaignRun>() {
        leave(world);
    }
}

/// The host's top bar names the remote players as they join.
fn name_remote_players(host: Option<Res<NetHost>>, seats: Option<ResMut<crate::game::intent::Seats>>) {
    let (Some(host), Some(mut seats)) = (host, seats) else { return };
    if !host.is_changed() {
        return;
    }
    for s in &host.seats {
        if let SeatKind::Remote(n) = &s.who {
            let name = if n.is_empty() { "a player to come".to_string() } else { n.clone() };
            if seats.elsewhere.get(&s.side).is_some_and(|old| *old != name) {
                seats.elsewhere.insert(s.side.clone(), name);
            }
        }
    }
}

/// The port a hosted match listens on first (another, free, when it is taken).
pub const DEFAULT_PORT: u16 = 5000;

/// What the network did that the player must read (a welcome that could not be played, a port
/// that could not be opened): shown by the join screen and the match's banner.
#[derive(Resource, Debug, Default, Clone)]
pub struct NetNote(pub Option<String>);

/// Where a hosted match listens, and the address friends can type.
#[derive(Resource, Debug, Clone)]
pub struct Hosting {
    pub addr: SocketAddr,
    /// This computer's address on its network (what a friend types when the match listens on
    /// every address), when it can be told.
    pub lan: Option<std::net::IpAddr>,
}

/// A network match went on the board: host it, or go on with the host's commands, or leave.
fn answer_net_match(started: On<NetMatchStarted>, mut commands: Commands) {
    let started = started.event().clone();
    commands.queue(move |world: &mut World| match started {
        NetMatchStarted::Hosting { seed } => {
            if let Some(setup) = world.get_resource::<MatchSetup>().cloned() {
                host(world, &setup, seed);
            }
        }
        NetMatchStarted::Joined => client_started(world),
        NetMatchStarted::Unplayable(why) => give_up(world, why),
    });
}

/// This window hosts the match just started from `setup` (some seat is remote): it listens where
/// the setup says (every address, `DEFAULT_PORT`, unless chosen; another free port when that one
/// cannot be had), and the match's seats, level and seed are what every client rebuilds. The
/// autosave says where it listened and which seats are remote (`Save::hosted`): a host window
/// that crashed hosts it again from Continue or Load.
fn host(world: &mut World, setup: &MatchSetup, seed: u64) {
    let (seats, ai, name, text) = hosted_match(world, setup);
    if world.contains_resource::<NetHost>() {
        // Still hosting (a campaign's next level): the same connections, welcomed to it.
        world.resource_mut::<NetHost>().next_match(name, text, setup.checked.level.profile.clone(), seed, seats, ai);
        crate::net::host::welcome_everyone(world);
        name_remote_seats(world, setup);
        return;
    }
    let any = |port: u16| SocketAddr::from(([0, 0, 0, 0], port));
    let chosen = setup.listen.unwrap_or(any(DEFAULT_PORT));
    // A UI walk hosts on a free port (walks run side by side: none may join another's match).
    let first = if world.resource::<crate::window::WindowOptions>().ui_walk.is_some() { SocketAddr::new(chosen.ip(), 0) } else { chosen };
    let addr = match crate::net::transport::listen(world, first)
        .or_else(|_| crate::net::transport::listen(world, SocketAddr::new(first.ip(), 0)))
        .or_else(|_| crate::net::transport::listen(world, any(0)))
    {
        Ok(a) => a,
        Err(e) => {
            world.resource_mut::<NetNote>().0 = Some(format!("cannot host: {e}"));
            return;
        }
    };
    let mut net = NetHost::new(name, text, seed, seats, ai);
    net.profile = setup.checked.level.profile.clone();
    world.insert_resource(net);
    name_remote_seats(world, setup);
    // The autosave remembers it (a crashed host window hosts it again from Continue or Load).
    // A campaign's level is hosted again from the campaign's briefing, not from its save.
    if setup.campaign.is_none() {
        let remote: Vec<String> = setup.seats.iter().filter(|s| s.remote).map(|s| s.side.clone()).collect();
        if let Some(h) = world.resource_mut::<crate::game::record::MatchRecord>().header.as_mut() {
            h.hosted = Some(doo_rules::save::Hosted { listen: addr.to_string(), remote });
        }
    }
    let lan = lan_address();
    info!("network: hosting on port {}", addr.port());
    world.insert_resource(Hosting { addr, lan });
}

/// What the clients rebuild: the seats, the level's AI configuration (the remote seats are
/// checked with it, `who_decides`), the level's file name and text. A remote seat is held by
/// the name the match's record gives it (a match hosted again: its player rejoins), else free.
fn hosted_match(world: &World, setup: &MatchSetup) -> (Vec<NetSeat>, doo_rules::ai::AiConfig, String, String) {
    let text = doo_rules::data::read_text(&setup.path, doo_rules::data::MAX_FILE_BYTES).unwrap_or_default();
    let header = world.get_resource::<crate::game::record::MatchRecord>().and_then(|r| r.header.as_ref());
    let held = |side: &str| header.and_then(|h| h.seats.iter().find(|s| s.side == side)).map_or(String::new(), |s| s.player.clone());
    let seats: Vec<NetSeat> = setup
        .seats
        .iter()
        .map(|s| NetSeat {
            side: s.side.clone(),
            who: if s.remote {
                SeatKind::Remote(held(&s.side))
            } else if s.ai.is_some() {
                SeatKind::Ai
            } else {
                SeatKind::Host(s.player.clone())
            },
        })
        .collect();
    let ai = world.get_resource::<crate::game::ai::AiControl>().map(|a| a.config.clone()).unwrap_or_default();
    let name = setup.path.file_name().map_or(String::new(), |f| f.to_string_lossy().to_string());
    (seats, ai, name, text)
}

/// The top bar names a remote seat's player once he joins.
fn name_remote_seats(world: &mut World, setup: &MatchSetup) {
    if let Some(mut seats) = world.get_resource_mut::<crate::game::intent::Seats>() {
        for s in setup.seats.iter().filter(|s| s.remote) {
            seats.elsewhere.insert(s.side.clone(), "a player to come".into());
        }
    }
}

/// This computer's address on its network: the one a socket "connected" to a public address
/// would send from (nothing is sent).
fn lan_address() -> Option<std::net::IpAddr> {
    let s = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    s.connect("192.0.2.1:9").ok()?;
    s.local_addr().ok().map(|a| a.ip()).filter(|ip| !ip.is_unspecified())
}

/// The window's join: connects to `addr` as `name`; the match starts when the host welcomes it.
pub fn join(world: &mut World, addr: SocketAddr, name: &str) -> Result<(), String> {
    let data = world.resource::<GameData>().0.clone();
    let mut client = NetClient::new(name.to_string(), data, None);
    client.window = true;
    crate::net::client::join(world, addr, client)
}

/// The host's welcome came (first, or again after a lost connection): the match it describes
/// goes on the board, its commands replayed (`MatchSetup::net_client`).
fn start_welcomed_match(world: &mut World) {
    let Some(c) = world.get_resource::<NetClient>() else { return };
    // A welcome that cannot be played (a bad level, unknown rules): said on the Join screen.
    let failed = c.failed.clone().filter(|_| c.window);
    if let Some(why) = failed.filter(|_| *world.resource::<State<Screen>>().get() == Screen::Match) {
        give_up(world, why);
        return;
    }
    let Some(mut c) = world.get_resource_mut::<NetClient>() else { return };
    if !c.window || c.started {
        return;
    }
    let Some(w) = c.take_welcome() else { return };
    let c = world.resource::<NetClient>();
    let seats = w
        .seats
        .iter()
        .map(|s| {
            let label = w.checked.sides.iter().find(|d| d.id == s.side).and_then(|d| d.name.clone()).unwrap_or_else(|| s.side.clone());
            let mine = c.yours.contains(&s.side);
            let player = match &s.who {
                _ if mine => c.name.clone(),
                SeatKind::Remote(n) if !n.is_empty() => n.clone(),
                SeatKind::Remote(_) => "a player to come".into(),
                SeatKind::Host(n) if !n.is_empty() => n.clone(),
                SeatKind::Host(_) => "a player at the host".into(),
                SeatKind::Ai => "the host's AI".into(),
            };
            Seat { side: s.side.clone(), label, ai: None, player, remote: !mine }
        })
        .collect();
    let mut save = w.header.clone();
    save.commands = c.host_log().to_vec();
    let setup =
        MatchSetup { seats, resume: Some(Box::new(save)), net_client: true, ..MatchSetup::new(std::path::PathBuf::from(&w.level_name), w.checked.clone()) };
    world.insert_resource(setup);
    world.insert_resource(CommandRelay::default());
    if *world.resource::<State<Screen>>().get() == Screen::Match {
        // A rejoin, or the host's next match (a campaign's next level): the match is rebuilt
        // from the host's log, the last one's result taken off the board (by `restart`).
        session::restart(world);
    } else {
        // The match starts as the screen is entered.
        world.resource_mut::<NextState<Screen>>().set(Screen::Match);
    }
}

/// The joined match is on the board with the welcome's commands: the host's next ones follow.
fn client_started(world: &mut World) {
    if let Some(mut c) = world.get_resource_mut::<NetClient>() {
        // A newer welcome already came: it is started instead (next frame), nothing is fed
        // into this one.
        if c.welcome.is_none() {
            c.started = true;
        }
    }
}

/// The welcome's match cannot be played here (the host's log does not replay): the player is
/// told why, and leaves.
fn give_up(world: &mut World, why: String) {
    world.resource_mut::<NetNote>().0 = Some(format!("the host's match cannot be played here: {why}"));
    crate::net::client::leave(world);
    world.resource_mut::<NextState<Screen>>().set(Screen::Join);
    // Off the match screen at once: its systems expect a match on the board.
    world.run_schedule(bevy::state::state::StateTransition);
}

/// Off the match screen: the network is left (a client hangs up; a host stops listening), and
/// the seats are this computer's again (hosting is chosen anew: the menu's Host, or a seat set
/// to Remote), so the next Play is not hosted unasked.
fn leave_network(world: &mut World) {
    // A campaign hosted over the network keeps its connections between levels.
    if world.contains_resource::<NetHost>() && world.contains_resource::<crate::window::screens::campaign::CampaignRun>() {
        let host = world.resource::<NetHost>().host_name();
        crate::net::host::tell_everyone(world, format!("{host} (between levels)"));
        return;
    }
    leave(world);
    // The host's level is not this computer's: no quick Play of it from the menu.
    if world.get_resource::<MatchSetup>().is_some_and(|s| s.net_client) {
        world.remove_resource::<MatchSetup>();
    }
    if let Some(mut setup) = world.get_resource_mut::<MatchSetup>() {
        for s in setup.seats.iter_mut().filter(|s| s.remote) {
            s.remote = false;
        }
    }
}

/// Leaves the network match, if any.
pub fn leave(world: &mut World) {
    if world.contains_resource::<NetClient>() {
        crate::net::client::leave(world);
    }
    world.remove_resource::<CommandRelay>();
    if world.remove_resource::<NetHost>().is_some() {
        crate::net::transport::stop_listening(world);
        world.remove_resource::<Hosting>();
    }
}

/// The banner's line: who this window is in the network match and who it waits for.
pub fn status_line(world: &World) -> Option<String> {
    if let Some(h) = world.get_resource::<NetHost>() {
        // Never 0.0.0.0: the address a friend can type.
        let at = world.get_resource::<Hosting>().map_or(String::new(), |h| crate::net::host::where_to_join(h.addr, h.lan));
        let waiting = h.waiting_for().map_or(String::new(), |w| format!(" | waiting for {w}"));
        return Some(format!("Hosting {at}: {}{waiting}", h.players_line()));
    }
    let c = world.get_resource::<NetClient>()?;
    let state = world.get_resource::<State<bevy_replicon::prelude::ClientState>>().map(|s| *s.get());
    let addr = c.addr.map_or(String::new(), |a| a.to_string());
    if state != Some(bevy_replicon::prelude::ClientState::Connected) {
        return Some(format!("Connection to {addr} lost: joining again..."));
    }
    let waiting = (!c.waiting_for.is_empty() && !c.waiting_for_me()).then(|| format!(" | waiting for {}", c.waiting_for)).unwrap_or_default();
    Some(format!("{} at {addr} ({}){waiting}", c.name, c.yours.join(", ")))
}
