//! Network play (issue 32) on bevy_replicon over renet's UDP netcode: a host keeps the one
//! authoritative match; clients join it. Lockstep over the command log: the host checks each
//! command a client sends for one of its seats, plays it through the one command path, and
//! sends every command it played, in order, to every client, which replays them through the same
//! flow; the state hashes of the checkpoints are compared, and a desync is reported
//! (`protocol.rs`). `host.rs` is the host's side, `client.rs` a client's, `transport.rs` opens
//! the sockets; `cli.rs` runs them without a window (`doo host`, `doo join`).

pub mod bench;
pub mod cli;
pub mod client;
pub mod host;
pub mod pacing;
pub mod protocol;
pub mod transport;

use bevy::prelude::*;
use bevy_replicon::prelude::*;

/// The messaging both ends register, in the same order (the transport checks it).
pub fn plugin(app: &mut App) {
    app.add_plugins((RepliconPlugins.set(ServerPlugin::new(PostUpdate)), bevy_replicon_renet::RepliconRenetPlugins))
        .add_client_message_with(
            Channel::Ordered,
            bevy_replicon::shared::message::client_message::default_serialize::<protocol::ClientMsg>,
            protocol::deserialize_client_msg,
        )
        .add_server_message::<protocol::HostMsg>(Channel::Ordered)
        // Lockstep needs no replication: the host's messages are delivered at once, not with a tick.
        .make_message_independent::<protocol::HostMsg>()
        .add_plugins((host::plugin, client::plugin));
}
