//! What host and clients say to each other (issue 32): lockstep over the command log. A client
//! says hello with its name and asks to play commands for its seats; the host, which keeps the
//! one authoritative match, welcomes it with the level, the seed, its seats and the commands so
//! far, then sends every command it plays, in order, and its checkpoints' state hashes. Every
//! peer replays the same commands through the same flow, so every state is the same; a
//! checkpoint that differs is a desync, reported.
//!
//! Everything a peer sends is untrusted: the caps below are checked before any work.

use bevy::prelude::*;
use doo_rules::rules::Command;
use doo_rules::save::Checkpoint;
use serde::{Deserialize, Serialize};

/// The transport's protocol id (a peer with another one cannot connect at all). Kept while the
/// hello and the refusals (`Refused`, `Closed`) keep their shape, so that a client of another
/// `VERSION` is still told why it is refused.
pub const PROTOCOL_ID: u64 = 0x446f_4f_3332_0003;
/// The version a hello carries (a client of another version is told so, and refused). 4: the
/// checkpoints compared host against client take save version 2's state hash (issue 44); a
/// version-3 client hashes the old way and would only report desyncs. 5: the welcome carries
/// the match's turn limit (issue 44); a version-4 client could not read it.
pub const VERSION: u32 = 5;
/// A player's name: 1 to 24 characters.
pub const MAX_NAME: usize = 24;
/// Messages one client may send per second (more are dropped, the first refused and logged: a flood).
pub const MAX_COMMANDS_PER_SECOND: u32 = 100;
/// Bytes of one command as RON (a longer one is refused before it is read further).
pub const MAX_COMMAND_BYTES: usize = 4096;
/// Bytes of a checkpoint's hash a client may send (a state hash is 16 hex digits; "end:" and
/// "saved:" prefixes).
pub const MAX_HASH: usize = 64;
/// Clients at once.
pub const MAX_CLIENTS: usize = 8;

/// Client → host.
#[derive(Message, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ClientMsg {
    /// First word on a connection: who this is (a rejoin uses the same name).
    Hello { name: String, version: u32 },
    /// A command for one of the sender's seats.
    Play(WireCommand),
    /// A checkpoint the client reached (the host compares it with its own).
    Check(Checkpoint),
}

/// Host → clients.
#[derive(Message, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum HostMsg {
    /// The match as the client must rebuild it: the level's text, its file name, the rules it
    /// is played under when the host picked others than the file's (a profile or A4), the seed,
    /// who sits where, the client's own sides, and every command played so far; the turn
    /// limit the match is played under (`None`: the level file's own, if any), at whose end it
    /// is a draw on every peer.
    Welcome {
        level_name: String,
        level_text: String,
        profile: Option<String>,
        turn_limit: Option<u32>,
        seed: u64,
        seats: Vec<Seat>,
        yours: Vec<String>,
        commands: Vec<WireCommand>,
    },
    /// The host closes this connection for good (the name is now played from another
    /// connection, or the hello was refused): the client does not connect again by itself.
    Closed(String),
    /// The host played its command number `index` (0-based, in the log's order).
    Played { index: u32, command: WireCommand },
    /// The host's checkpoint (commands played, turn, state hash).
    Check(Checkpoint),
    /// The sender's last message was refused, and why.
    Refused(String),
    /// Who the match waits for: a remote seat's player, a player at the host's computer (by
    /// name), or the host's AI.
    Waiting(String),
}

/// A command on the wire: its RON text, as scripts and saves write it (the compact binary
/// encoding of the transport cannot carry the command's tagged enums). A text longer than
/// `MAX_COMMAND_BYTES` is refused before it is parsed.
#[derive(Clone, Debug, PartialEq)]
pub struct WireCommand(pub Command);

impl Serialize for WireCommand {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let text = ron::to_string(&self.0).map_err(serde::ser::Error::custom)?;
        s.serialize_str(&text)
    }
}

impl<'de> Deserialize<'de> for WireCommand {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        if text.len() > MAX_COMMAND_BYTES {
            return Err(serde::de::Error::custom(format!("a command of {} bytes (at most {MAX_COMMAND_BYTES})", text.len())));
        }
        ron::from_str(&text).map(WireCommand).map_err(serde::de::Error::custom)
    }
}

/// Client messages that did not decode (garbage, a command over `MAX_COMMAND_BYTES`, a message
/// of another shape): dropped by the transport before any work, and counted here for the host's
/// log (the transport does not say which client sent them).
pub static MALFORMED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The transport's decoding of a client's message, with the failures counted (`MALFORMED`).
pub fn deserialize_client_msg(
    ctx: &mut bevy_replicon::shared::message::ctx::ServerReceiveCtx,
    bytes: &mut bevy_replicon::bytes::Bytes,
) -> bevy::ecs::error::Result<ClientMsg> {
    let r = bevy_replicon::shared::message::client_message::default_deserialize::<ClientMsg>(ctx, bytes).and_then(|m| match &m {
        // A checkpoint's hash is a state hash (16 hex digits, or "end:" and 16): no more.
        ClientMsg::Check(cp) if cp.hash.len() > MAX_HASH => Err(format!("a checkpoint hash of {} bytes", cp.hash.len()).into()),
        _ => Ok(m),
    });
    if r.is_err() {
        MALFORMED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    r
}

/// Who plays a side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    pub side: String,
    pub who: SeatKind,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatKind {
    /// A player at the host's computer, by name (clients see "waiting for Hank").
    Host(String),
    /// The host's AI.
    Ai,
    /// A remote player: the name of who holds it (empty: free, the next to join takes it).
    Remote(String),
}

/// A name a player may use: 1 to `MAX_NAME` characters, no control characters.
pub fn name_problem(name: &str) -> Option<String> {
    let n = name.chars().count();
    if n == 0 || n > MAX_NAME {
        return Some(format!("a player's name is 1 to {MAX_NAME} characters"));
    }
    name.chars().any(char::is_control).then(|| "a player's name has no control characters".into())
}
