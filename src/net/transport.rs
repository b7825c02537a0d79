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

fn now() -> std::time::Duration {
    SystemTime::now().duration_since(SystemTime::UNIX_EPOCH).unwrap_or_default()
}

fn connection(app: &App) -> ConnectionConfig {
    let channels = app.world().resource::<RepliconChannels>();
    ConnectionConfig { server_channels_config: channels.server_configs(), client_channels_config: channels.client_configs(), ..Default::default() }
}

/// Listens on `addr` (port 0: any free port); returns the address it listens on.
pub fn listen(app: &mut App, addr: SocketAddr) -> Result<SocketAddr, String> {
    let socket = UdpSocket::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = socket.local_addr().map_err(|e| e.to_string())?;
    let config = ServerConfig {
        current_time: now(),
        max_clients: MAX_CLIENTS,
        protocol_id: PROTOCOL_ID,
        public_addresses: vec![local],
        authentication: ServerAuthentication::Unsecure,
    };
    let transport = NetcodeServerTransport::new(config, socket).map_err(|e| e.to_string())?;
    let server = RenetServer::new(connection(app));
    app.insert_resource(server).insert_resource(transport);
    Ok(local)
}

/// Connects to the host at `addr`; `id` tells this client from the others (a rejoin uses a new one).
pub fn connect(app: &mut App, addr: SocketAddr, id: u64) -> Result<(), String> {
    let bind: SocketAddr = if addr.is_ipv4() { "0.0.0.0:0".parse().unwrap_or(addr) } else { "[::]:0".parse().unwrap_or(addr) };
    let socket = UdpSocket::bind(bind).map_err(|e| format!("cannot open a socket: {e}"))?;
    let auth = ClientAuthentication::Unsecure { client_id: id, protocol_id: PROTOCOL_ID, server_addr: addr, user_data: None };
    let transport = NetcodeClientTransport::new(now(), auth, socket).map_err(|e| e.to_string())?;
    let client = RenetClient::new(connection(app));
    // A new client, not a changed one (a reconnection): the transport starts connecting when
    // the client resource is added.
    app.world_mut().remove_resource::<RenetClient>();
    app.world_mut().remove_resource::<NetcodeClientTransport>();
    app.insert_resource(client).insert_resource(transport);
    Ok(())
}

/// A client id unlikely to be anyone else's: the time and the process.
pub fn fresh_id() -> u64 {
    (now().as_nanos() as u64) ^ ((std::process::id() as u64) << 32)
}
