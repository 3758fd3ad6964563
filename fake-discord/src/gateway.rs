//! The fake's gateway: sessions that outlive their WebSocket connections, so that a client
//! can RESUME and get the dispatches it missed, and the gateway faults of [`GatewayFault`].
//!
//! Follows Discord's "Gateway" page, <https://discord.com/developers/docs/events/gateway>:
//!
//! - Connecting: HELLO (op 10) with `heartbeat_interval`; IDENTIFY (op 2) starts a session:
//!   READY (with `session_id` and `resume_gateway_url`) and GUILD_CREATE. HEARTBEAT (op 1)
//!   gets HEARTBEAT_ACK (op 11) ("Sending Heartbeats").
//! - Sequence numbers belong to the session: every dispatch (op 0) gets the next `s`, also
//!   while the client is away; the fake keeps the last [`REPLAY_LIMIT`] dispatches of each
//!   session.
//! - Resuming ("Resuming"): RESUME (op 6) with `session_id` and `seq` on a new connection
//!   replays, in order, every dispatch after `seq` ("the Gateway will replay all missed
//!   events in order, finalized by a Resumed event") and then sends RESUMED. An unknown
//!   or ended session, or a `seq` older than the kept dispatches, gets op 9 Invalid
//!   Session with `d: false`, and the client must IDENTIFY.
//! - Closing: the client closing with 1000 or 1001 ends the session ("closing with 1000 or
//!   1001 will invalidate your session"); any other disconnect keeps it resumable. A
//!   server close code ends it when Discord's close-code table says not to reconnect
//!   (<https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-close-event-codes>).
//! - Interactions dispatched while the client is away wait in its session and are sent on
//!   resume (Discord's 3 s deadline still runs on the fake's clock).
//!
//! - Sharding ("Sharding", <https://discord.com/developers/docs/events/gateway#sharding>):
//!   IDENTIFY may carry `shard: [shard_id, num_shards]`; READY echoes it. A guild's events
//!   go only to the sessions of shard `(guild_id >> 22) % num_shards` ("Sharding Formula"),
//!   events without a guild (direct messages) only to shard 0 ("DMs will only be sent to
//!   shard 0"). A session without `shard` is shard `[0, 1]`: it gets everything.
//!
//! - Guilds: READY lists the guilds of the session's shard that the bot is in, each
//!   followed by its GUILD_CREATE; the fake may have several guilds
//!   ([`FakeDiscord::start_with_guilds`]), with consecutive snowflakes so that they spread
//!   over the shards.
//!
//! Simplification: a new IDENTIFY ends every session of the same shard (and of another
//! shard count) that has no connection (a bot that identifies anew will not resume the old
//! session), so dispatches are not kept for a bot process that was killed and restarted;
//! disconnected sessions of the other shards of the same count stay resumable.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::faults::{GatewayFault, resumable_close_code};
use crate::{FakeDiscord, Shared};

/// Dispatches kept per session for RESUME.
pub const REPLAY_LIMIT: usize = 2_000;

/// The heartbeat interval sent in HELLO by default, milliseconds (Discord's usual value).
pub const DEFAULT_HEARTBEAT_INTERVAL_MS: u64 = 41_250;

/// What a connection task is told by the state.
#[derive(Debug)]
pub(crate) enum Frame {
    /// Send this dispatch: `s`, `t`, `d`.
    Dispatch(u64, String, Value),
    /// Apply a gateway fault.
    Fault(GatewayFault),
}

#[derive(Debug)]
struct Session {
    seq: u64,
    sent: VecDeque<(u64, String, Value)>,
    /// The connection the session is on now (connection id, its channel); `None` while away.
    conn: Option<(u64, mpsc::UnboundedSender<Frame>)>,
    /// The session's `[shard_id, num_shards]` from IDENTIFY (`[0, 1]` without).
    shard: (u64, u64),
}

/// Discord's sharding formula: the shard of `guild_id` among `num_shards`
/// (<https://discord.com/developers/docs/events/gateway#sharding-sharding-formula>:
/// `shard_id = (guild_id >> 22) % num_shards`).
pub fn shard_of(guild_id: u64, num_shards: u64) -> u64 {
    (guild_id >> 22) % num_shards.max(1)
}

/// The guild a dispatch belongs to: its `guild_id`, or the `id` of a GUILD_* event about
/// the guild itself; `None` for events outside a guild (direct messages).
fn guild_of(name: &str, data: &Value) -> Option<u64> {
    let id = |v: &Value| v.as_str().and_then(|s| s.parse().ok()).or(v.as_u64());
    id(&data["guild_id"]).or_else(|| {
        matches!(name, "GUILD_CREATE" | "GUILD_UPDATE" | "GUILD_DELETE")
            .then(|| id(&data["id"]))
            .flatten()
    })
}

/// Whether a session of shard `(id, count)` gets a dispatch of guild `guild` (Discord's
/// routing, see the module's "Sharding").
pub(crate) fn shard_gets(shard: (u64, u64), guild: Option<u64>) -> bool {
    let (id, count) = shard;
    match guild {
        _ if count <= 1 => true,
        Some(g) => shard_of(g, count) == id,
        None => id == 0,
    }
}

impl Session {
    fn push(&mut self, name: &str, data: Value) -> (u64, String, Value) {
        self.seq += 1;
        let frame = (self.seq, name.to_string(), data);
        self.sent.push_back(frame.clone());
        if self.sent.len() > REPLAY_LIMIT {
            self.sent.pop_front();
        }
        frame
    }
}

/// One gateway session as [`FakeDiscord::gateway_sessions`] shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GatewaySessionInfo {
    /// The `session_id` sent in READY.
    pub session_id: String,
    /// The last sequence number given to a dispatch of the session.
    pub seq: u64,
    /// Whether a connection is on the session now.
    pub connected: bool,
}

/// The gateway sessions (in the fake's state).
#[derive(Debug)]
pub(crate) struct Sessions {
    sessions: HashMap<String, Session>,
    next_id: u64,
    /// The interval sent in HELLO, milliseconds.
    pub heartbeat_interval_ms: u64,
    /// IDENTIFYs and successful RESUMEs so far.
    pub identifies: u64,
    pub resumes: u64,
}

impl Default for Sessions {
    fn default() -> Self {
        Sessions {
            sessions: HashMap::new(),
            next_id: 0,
            heartbeat_interval_ms: DEFAULT_HEARTBEAT_INTERVAL_MS,
            identifies: 0,
            resumes: 0,
        }
    }
}

impl Sessions {
    /// A new connection id.
    pub(crate) fn next_conn(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Whether any session exists (connected or resumable).
    pub(crate) fn is_empty(&self) -> bool {
        self.sessions.is_empty()
    }

    /// Sessions with a connection.
    pub(crate) fn connected(&self) -> usize {
        self.sessions.values().filter(|s| s.conn.is_some()).count()
    }

    /// Gives a dispatch to every session (sent now, or kept for the resume); returns how
    /// many sessions there are.
    pub(crate) fn dispatch(&mut self, name: &str, data: &Value) -> usize {
        let guild = guild_of(name, data);
        let mut reached = 0;
        for session in self.sessions.values_mut() {
            if !shard_gets(session.shard, guild) {
                continue;
            }
            reached += 1;
            let (seq, name, data) = session.push(name, data.clone());
            if let Some((_, tx)) = &session.conn
                && tx.send(Frame::Dispatch(seq, name, data)).is_err()
            {
                session.conn = None;
            }
        }
        reached
    }

    /// Sends a fault to every connected session; returns how many.
    pub(crate) fn fault(&mut self, fault: &GatewayFault) -> usize {
        self.sessions
            .values()
            .filter_map(|s| s.conn.as_ref())
            .filter(|(_, tx)| tx.send(Frame::Fault(fault.clone())).is_ok())
            .count()
    }

    /// A new session on connection `conn` with `events` (READY, GUILD_CREATE) as its first
    /// dispatches, which are returned with their sequence numbers for the caller to send.
    fn identify(
        &mut self,
        session_id: String,
        conn: (u64, mpsc::UnboundedSender<Frame>),
        shard: (u64, u64),
        events: Vec<(&str, Value)>,
    ) -> Vec<(u64, String, Value)> {
        // A disconnected session of the same shard (or of another shard count) is the old
        // session of the process now identifying: it will not be resumed. Disconnected
        // sessions of the other shards stay resumable (their processes may come back).
        self.sessions
            .retain(|_, s| s.conn.is_some() || (s.shard.1 == shard.1 && s.shard.0 != shard.0));
        self.identifies += 1;
        let mut session = Session {
            seq: 0,
            sent: VecDeque::new(),
            conn: Some(conn),
            shard,
        };
        let frames = events
            .into_iter()
            .map(|(name, data)| session.push(name, data))
            .collect();
        self.sessions.insert(session_id, session);
        frames
    }

    /// Moves `session_id` onto connection `conn`: the dispatches after `seq`, then
    /// RESUMED; `None` if it cannot be resumed.
    fn resume(
        &mut self,
        session_id: &str,
        seq: u64,
        conn: (u64, mpsc::UnboundedSender<Frame>),
    ) -> Option<Vec<(u64, String, Value)>> {
        let session = self.sessions.get_mut(session_id)?;
        let oldest = session.sent.front().map_or(session.seq + 1, |f| f.0);
        if seq > session.seq || seq + 1 < oldest {
            return None;
        }
        let mut frames: Vec<_> = session.sent.iter().filter(|f| f.0 > seq).cloned().collect();
        session.seq += 1;
        frames.push((session.seq, "RESUMED".into(), json!({})));
        session.conn = Some(conn);
        self.resumes += 1;
        Some(frames)
    }

    /// Connection `conn` left `session_id`: the session waits for a resume, or ends.
    fn left(&mut self, session_id: &str, conn: u64, ends: bool) {
        let Some(session) = self.sessions.get_mut(session_id) else {
            return;
        };
        if session.conn.as_ref().is_some_and(|(id, _)| *id != conn) {
            return; // Another connection resumed it meanwhile.
        }
        if ends {
            self.sessions.remove(session_id);
        } else {
            session.conn = None;
        }
    }

    fn end(&mut self, session_id: &str) {
        self.sessions.remove(session_id);
    }

    /// Puts a copy of every session's replay buffer (up to [`REPLAY_LIMIT`] dispatches
    /// each) in its place and returns the buffers themselves, for
    /// [`crate::FakeDiscord::take_records_leaving_copies`].
    pub(crate) fn replace_buffers_with_copies(&mut self) -> Vec<VecDeque<(u64, String, Value)>> {
        self.sessions
            .values_mut()
            .map(|s| {
                let copy = s.sent.clone();
                std::mem::replace(&mut s.sent, copy)
            })
            .collect()
    }

    pub(crate) fn infos(&self) -> Vec<GatewaySessionInfo> {
        let mut list: Vec<_> = self
            .sessions
            .iter()
            .map(|(id, s)| GatewaySessionInfo {
                session_id: id.clone(),
                seq: s.seq,
                connected: s.conn.is_some(),
            })
            .collect();
        list.sort_by(|a, b| a.session_id.cmp(&b.session_id));
        list
    }
}

fn text(value: &Value) -> Message {
    Message::Text(value.to_string().into())
}

fn dispatch_frame((seq, name, data): &(u64, String, Value)) -> Message {
    text(&json!({ "op": 0, "s": seq, "t": name, "d": data }))
}

/// One gateway connection (see the [module docs](self)). JSON text frames, no compression
/// (serenity does not ask for it).
pub(crate) async fn connection(shared: Arc<Shared>, mut socket: WebSocket) {
    let (tx, mut rx) = mpsc::unbounded_channel::<Frame>();
    let (conn, interval) =
        shared.update(|s| (s.gateway.next_conn(), s.gateway.heartbeat_interval_ms));
    let hello = json!({ "op": 10, "d": { "heartbeat_interval": interval }, "s": null, "t": null });
    if socket.send(text(&hello)).await.is_err() {
        return;
    }
    let mut session: Option<String> = None;
    let mut skip_acks = 0u32;
    let mut shutdown = shared.shutdown.subscribe();
    // Whether the session ends when this connection does.
    let mut ends = false;
    loop {
        tokio::select! {
            () = async { drop(shutdown.wait_for(|stopped| *stopped).await) } => {
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
            incoming = socket.recv() => {
                let text_in = match incoming {
                    Some(Ok(Message::Text(text))) => text.to_string(),
                    Some(Ok(Message::Binary(bytes))) => String::from_utf8_lossy(&bytes).into_owned(),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(frame))) => {
                        // https://discord.com/developers/docs/events/gateway#disconnections
                        ends = frame.is_some_and(|f| matches!(f.code, 1000 | 1001));
                        break;
                    }
                    None | Some(Err(_)) => break,
                };
                let Ok(payload) = serde_json::from_str::<Value>(&text_in) else { continue };
                let mut replies = Vec::new();
                // Gateway Close Event Codes: "4004 Authentication failed: The account token
                // sent with your identify payload is incorrect", not to be reconnected
                // (https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-close-event-codes).
                // RESUME carries the token too and is refused the same way.
                let op = payload["op"].as_u64();
                if matches!(op, Some(2 | 6))
                    && !shared.read(|s| s.token_accepted(payload["d"]["token"].as_str().unwrap_or("")))
                {
                    let close = CloseFrame { code: 4004, reason: "Authentication failed.".into() };
                    let _ = socket.send(Message::Close(Some(close))).await;
                    ends = true;
                    break;
                }
                match op {
                    Some(1) if skip_acks > 0 => skip_acks -= 1,
                    Some(1) => replies.push(json!({ "op": 11, "d": null, "s": null, "t": null })),
                    Some(2) => {
                        // Identify Structure: `shard` is `[shard_id, num_shards]`
                        // (https://discord.com/developers/docs/events/gateway-events#identify).
                        let shard = match payload["d"]["shard"].as_array().map(Vec::as_slice) {
                            Some([id, count]) => match (id.as_u64(), count.as_u64()) {
                                (Some(id), Some(count)) if count >= 1 && id < count => Some((id, count)),
                                _ => None,
                            },
                            None => Some((0, 1)),
                            Some(_) => None,
                        };
                        // "4010 Invalid shard: You sent an invalid shard when identifying."
                        let Some(shard) = shard else {
                            let close = CloseFrame { code: 4010, reason: "Invalid shard.".into() };
                            let _ = socket.send(Message::Close(Some(close))).await;
                            ends = true;
                            break;
                        };
                        let (id, frames) = shared.update(|state| {
                            let session_id = format!("fake-session-{}", state.ids.next());
                            let ready = state.ready_json(&session_id, shard);
                            // GUILD_PRESENCES is intent bit 8
                            // (https://discord.com/developers/docs/events/gateway#list-of-intents).
                            let presences = payload["d"]["intents"]
                                .as_u64()
                                .is_some_and(|bits| bits & (1 << 8) != 0);
                            let mut events = vec![("READY", ready)];
                            // "Guild Create ... lazily loads and backfills information for all
                            // unavailable guilds sent in the Ready event": one per guild of
                            // the shard.
                            for guild in state.guilds_of_shard(shard) {
                                events.push(("GUILD_CREATE", state.guild_create_json(guild, presences)));
                            }
                            state.identified_sessions += 1;
                            let frames = state.gateway.identify(
                                session_id.clone(),
                                (conn, tx.clone()),
                                shard,
                                events,
                            );
                            (session_id, frames)
                        });
                        session = Some(id);
                        replies.extend(frames.iter().map(|f| json!({ "op": 0, "s": f.0, "t": f.1, "d": f.2 })));
                    }
                    Some(6) => {
                        let wanted = payload["d"]["session_id"].as_str().unwrap_or_default().to_string();
                        let seq = payload["d"]["seq"].as_u64().unwrap_or(0);
                        let resumed = shared.update(|state| state.gateway.resume(&wanted, seq, (conn, tx.clone())));
                        match resumed {
                            Some(frames) => {
                                session = Some(wanted);
                                replies.extend(frames.iter().map(|f| json!({ "op": 0, "s": f.0, "t": f.1, "d": f.2 })));
                            }
                            // https://discord.com/developers/docs/events/gateway-events#invalid-session
                            None => replies.push(json!({ "op": 9, "d": false, "s": null, "t": null })),
                        }
                    }
                    _ => {}
                }
                for reply in replies {
                    if socket.send(text(&reply)).await.is_err() {
                        return leave(&shared, session.as_deref(), conn, false);
                    }
                }
            }
            frame = rx.recv() => {
                let Some(frame) = frame else { break };
                match frame {
                    Frame::Dispatch(seq, name, data) => {
                        if socket.send(dispatch_frame(&(seq, name, data))).await.is_err() {
                            break;
                        }
                    }
                    Frame::Fault(GatewayFault::Close { code }) => {
                        ends = !resumable_close_code(code);
                        let close = CloseFrame { code, reason: "fake-discord: injected close".into() };
                        let _ = socket.send(Message::Close(Some(close))).await;
                        break;
                    }
                    Frame::Fault(GatewayFault::Drop) => break,
                    Frame::Fault(GatewayFault::Reconnect) => {
                        // https://discord.com/developers/docs/events/gateway-events#reconnect
                        let reconnect = json!({ "op": 7, "d": null, "s": null, "t": null });
                        if socket.send(text(&reconnect)).await.is_err() {
                            break;
                        }
                    }
                    Frame::Fault(GatewayFault::InvalidSession { resumable }) => {
                        if !resumable && let Some(id) = session.take() {
                            shared.update(|state| state.gateway.end(&id));
                        }
                        let invalid = json!({ "op": 9, "d": resumable, "s": null, "t": null });
                        if socket.send(text(&invalid)).await.is_err() {
                            break;
                        }
                    }
                    Frame::Fault(GatewayFault::SkipHeartbeatAcks { count }) => skip_acks = count,
                }
            }
        }
    }
    leave(&shared, session.as_deref(), conn, ends);
}

fn leave(shared: &Shared, session: Option<&str>, conn: u64, ends: bool) {
    if let Some(id) = session {
        shared.update(|state| state.gateway.left(id, conn, ends));
    }
}

impl FakeDiscord {
    /// Sends a gateway fault to every connected gateway session at once (and logs it in
    /// [`FakeDiscord::injected_faults`]); returns how many connections got it.
    pub fn gateway_fault(&self, fault: GatewayFault) -> usize {
        let sent = self.shared.update(|s| s.gateway.fault(&fault));
        self.faults().log_gateway(&fault);
        sent
    }

    /// Sets the heartbeat interval sent in HELLO on later connections (default
    /// [`DEFAULT_HEARTBEAT_INTERVAL_MS`]); short intervals let a test see missed
    /// HEARTBEAT_ACKs quickly ([`GatewayFault::SkipHeartbeatAcks`]).
    pub fn set_heartbeat_interval(&self, interval: Duration) {
        let ms = u64::try_from(interval.as_millis())
            .unwrap_or(u64::MAX)
            .max(1);
        self.shared.update(|s| s.gateway.heartbeat_interval_ms = ms);
    }

    /// The gateway sessions (connected or waiting for a resume), by session id.
    pub fn gateway_sessions(&self) -> Vec<GatewaySessionInfo> {
        self.shared.read(|s| s.gateway.infos())
    }

    /// How many IDENTIFYs and successful RESUMEs the gateway has seen: `(identifies,
    /// resumes)`.
    pub fn gateway_counts(&self) -> (u64, u64) {
        self.shared
            .read(|s| (s.gateway.identifies, s.gateway.resumes))
    }
}
