//! Opening the host's and a client's UDP sockets (renet's netcode, unsecured: a match between
//! friends; what a modified client can and cannot do is in docs/network.md).

use super::protocol::{MAX_CLIENTS, PROTOCOL_ID};
use bevy::prelude::*;
use bevy_replicon::prelude::RepliconChannels;
use bevy_replicon_renet::RenetChannelsExt;
use bevy_replicon_renet::netcode::{ClientAuthentication, NetcodeClientTransport, NetcodeServerTransport, ServerAuthentication, ServerConfig};
use bevy_replicon_renet::renet::ConnectionConfig;
use bevy_replicon_renet::{RenetClient, RenetServer};
use std::net::{SocketAddr, UdpSocket};
use std::time::SystemTime;

/// A second handle on the app's UDP socket (the transport's own, duplicated), so that a loop
/// running many apps (the network bench's pacing, issue 44) can tell whether a packet waits for
/// one before it updates it. Removed with the transport (`hang_up`, `stop_listening`): the
/// socket closes with both handles.
#[derive(Resource, Debug)]
pub struct WatchSocket(UdpSocket);

impl WatchSocket {
    fn of(socket: &UdpSocket) -> Option<WatchSocket> {
        socket.try_clone().ok().map(WatchSocket)
    }

    /// A datagram waits to be read (or the socket has an error for the transport to read).
    pub fn readable(&self) -> bool {
        let mut b = [0u8; 1];
        // The transport set the socket non-blocking: an empty one answers `WouldBlock`.
        !matches!(self.0.peek(&mut b), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
    }
}

fn now() -> std::time::Duration {
    SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default()
}

fn connection(world: &World) -> ConnectionConfig {
    let channels = world.resource::<RepliconChannels>();
    ConnectionConfig { server_channels_config: channels.server_configs(), client_channels_config: channels.client_configs(), ..Default::default() }
}

/// Where to listen, as the host types it (the Host screen, `doo play --listen`): an address
/// and a port ("192.168.1.20:5000", "[::]:5000"), a port alone ("5000": every address of this
/// computer), or an address alone (port `default_port`). Port 0: any free port.
pub fn parse_listen(text: &str, default_port: u16) -> Result<SocketAddr, String> {
    let t = text.trim();
    if let Ok(a) = t.parse::<SocketAddr>() {
        return Ok(a);
    }
    if let Ok(port) = t.parse::<u16>() {
        return Ok(SocketAddr::from(([0, 0, 0, 0], port)));
    }
    if let Ok(ip) = t.trim_start_matches('[').trim_end_matches(']').parse::<std::net::IpAddr>() {
        return Ok(SocketAddr::new(ip, default_port));
    }
    Err(format!("'{}' is not an address and port to listen on (for example 0.0.0.0:{default_port}, or a port alone)", t.chars().take(64).collect::<String>()))
}

/// Listens on `addr` (port 0: any free port); returns the address it listens on.
pub fn listen(world: &mut World, addr: SocketAddr) -> Result<SocketAddr, String> {
    let socket = UdpSocket::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = socket.local_addr().map_err(|e| e.to_string())?;
    let config = ServerConfig {
        current_time: now(),
        max_clients: MAX_CLIENTS,
        protocol_id: PROTOCOL_ID,
        public_addresses: vec![local],
        authentication: ServerAuthentication::Unsecure,
    };
    let watch = WatchSocket::of(&socket);
    let transport = NetcodeServerTransport::new(config, socket).map_err(|e| e.to_string())?;
    let server = RenetServer::new(connection(world));
    world.insert_resource(server);
    world.insert_resource(transport);
    set_watch(world, watch);
    Ok(local)
}

/// Connects to the host at `addr`; `id` tells this client from the others (a rejoin uses a new one).
pub fn connect(world: &mut World, addr: SocketAddr, id: u64) -> Result<(), String> {
    let bind: SocketAddr = if addr.is_ipv4() { "0.0.0.0:0".parse().unwrap_or(addr) } else { "[::]:0".parse().unwrap_or(addr) };
    let socket = UdpSocket::bind(bind).map_err(|e| format!("cannot open a socket: {e}"))?;
    let auth = ClientAuthentication::Unsecure { client_id: id, protocol_id: PROTOCOL_ID, server_addr: addr, user_data: None };
    let watch = WatchSocket::of(&socket);
    let transport = NetcodeClientTransport::new(now(), auth, socket).map_err(|e| e.to_string())?;
    let client = RenetClient::new(connection(world));
    // A new client, not a changed one (a reconnection): the transport starts connecting when
    // the client resource is added.
    world.remove_resource::<RenetClient>();
    world.remove_resource::<NetcodeClientTransport>();
    world.insert_resource(client);
    world.insert_resource(transport);
    set_watch(world, watch);
    Ok(())
}

/// The new socket's watch in place of the last one's (none when it could not be duplicated).
fn set_watch(world: &mut World, watch: Option<WatchSocket>) {
    match watch {
        Some(w) => world.insert_resource(w),
        None => {
            world.remove_resource::<WatchSocket>();
        }
    }
}

/// How long since the host was last heard from (its netcode sends a keep-alive every quarter
/// second while connected); `None` without a connection.
pub fn host_silence(world: &World) -> Option<std::time::Duration> {
    world.get_resource::<NetcodeClientTransport>().map(|t| t.time_since_last_received_packet())
}

/// Closes the client's connection (the host stopped answering).
pub fn hang_up(world: &mut World) {
    if let Some(mut t) = world.get_resource_mut::<NetcodeClientTransport>() {
        t.disconnect();
    }
    world.remove_resource::<RenetClient>();
    world.remove_resource::<NetcodeClientTransport>();
    world.remove_resource::<WatchSocket>();
}

/// The host stops: every client is told, the socket closed.
pub fn stop_listening(world: &mut World) {
    if let (Some(mut t), Some(mut server)) = (world.remove_resource::<NetcodeServerTransport>(), world.remove_resource::<RenetServer>()) {
        t.disconnect_all(&mut server);
    }
    world.remove_resource::<WatchSocket>();
}

/// A client id unlikely to be anyone else's: the time and the process.
pub fn fresh_id() -> u64 {
    (now().as_nanos() as u64) ^ ((std::process::id() as u64) << 32)
}
