//! # A fake Discord server on loopback
//!
//! [`FakeDiscord`] is a small Discord (API v10) that the real serenity 0.12 / poise 0.7
//! client connects to, so that the bot's end-to-end tests and `kaboom demo` run with no
//! network. It binds an ephemeral port on `127.0.0.1` only, and serves:
//!
//! | what | route | Discord API doc followed |
//! | --- | --- | --- |
//! | gateway URL | `GET /api/v10/gateway`, `GET /api/v10/gateway/bot` | [Get Gateway](https://discord.com/developers/docs/events/gateway#get-gateway), [Get Gateway Bot](https://discord.com/developers/docs/events/gateway#get-gateway-bot) |
//! | gateway | WebSocket `ws://127.0.0.1:PORT/gateway` | [Gateway connection lifecycle](https://discord.com/developers/docs/events/gateway#connection-lifecycle), [Ready](https://discord.com/developers/docs/events/gateway-events#ready), [Guild Create](https://discord.com/developers/docs/events/gateway-events#guild-create), [Interaction Create](https://discord.com/developers/docs/events/gateway-events#interaction-create) |
//! | the bot user | `GET /users/@me`, `GET /users/{id}` | [Get Current User](https://discord.com/developers/docs/resources/user#get-current-user), [Get User](https://discord.com/developers/docs/resources/user#get-user) |
//! | DMs | `POST /users/@me/channels` | [Create DM](https://discord.com/developers/docs/resources/user#create-dm) |
//! | application | `GET /oauth2/applications/@me`, `GET /applications/@me` | [Get Current Bot Application Information](https://discord.com/developers/docs/topics/oauth2#get-current-bot-application-information) (poise reads the owners) |
//! | commands | `GET`/`PUT`/`POST /applications/{app}/commands`, `.../guilds/{guild}/commands` | [Application Commands](https://discord.com/developers/docs/interactions/application-commands#bulk-overwrite-global-application-commands) |
//! | interaction responses | `POST /interactions/{id}/{token}/callback` (JSON or multipart) | [Create Interaction Response](https://discord.com/developers/docs/interactions/receiving-and-responding#create-interaction-response) |
//! | followups and edits | `POST /webhooks/{app}/{token}`, `GET`/`PATCH`/`DELETE /webhooks/{app}/{token}/messages/{@original or id}` | [Followup Messages](https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages) |
//! | channels | `GET`/`PATCH /channels/{id}` | [Get Channel](https://discord.com/developers/docs/resources/channel#get-channel), [Modify Channel](https://discord.com/developers/docs/resources/channel#modify-channel) (threads: `archived`, `locked`, ... go into `thread_metadata`; permissions per [Editing & Deleting Threads](https://discord.com/developers/docs/topics/threads#editing-deleting-threads)) |
//! | messages | `GET`/`POST /channels/{id}/messages`, `GET`/`PATCH`/`DELETE /channels/{id}/messages/{id}` | [Create Message](https://discord.com/developers/docs/resources/message#create-message), [Edit Message](https://discord.com/developers/docs/resources/message#edit-message), [Uploading Files](https://discord.com/developers/docs/reference#uploading-files) |
//! | threads | `POST /channels/{id}/threads`, `POST /channels/{id}/messages/{id}/threads`, `PUT`/`DELETE /channels/{id}/thread-members/{user}` | [Start Thread without Message](https://discord.com/developers/docs/resources/channel#start-thread-without-message), [Start Thread in Forum or Media Channel](https://discord.com/developers/docs/resources/channel#start-thread-in-forum-or-media-channel), [Start Thread from Message](https://discord.com/developers/docs/resources/channel#start-thread-from-message) (the thread's id is the message's id) |
//! | typing, members | `POST /channels/{id}/typing`, `GET /guilds/{id}/members/{user}` | [Trigger Typing Indicator](https://discord.com/developers/docs/resources/channel#trigger-typing-indicator), [Get Guild Member](https://discord.com/developers/docs/resources/guild#get-guild-member) |
//! | anything else | any | answered `404 {"message": "404: Not Found (...)", "code": 0}` and listed by [`FakeDiscord::unknown_routes`] |
//!
//! Errors use Discord's JSON error shape `{"message", "code"}` (and `errors`, the field paths,
//! for 50035: [Error Messages](https://discord.com/developers/docs/reference#error-messages))
//! with the codes of
//! [JSON Error Codes](https://discord.com/developers/docs/topics/opcodes-and-status-codes#json):
//! 10003 Unknown Channel, 10008 Unknown Message, 10062 Unknown interaction (also a first
//! response later than 3 s), 30015 more than 10 attachments, 40060 Interaction has already
//! been acknowledged, 50001 Missing Access (no VIEW_CHANNEL), 50006 Cannot send an empty
//! message, 50007 Cannot send messages to this user (see [`FakeDiscord::refuse_dms_for`]),
//! 50008 a message in a forum, 50013 Missing Permissions, 50024 Cannot execute action on this
//! channel type, 50027 Invalid Webhook Token (an interaction token older than 15 minutes),
//! 50035 Invalid Form Body (Discord's length and count limits, `src/rules.rs`), 50083 Thread
//! is archived.
//!
//! ## Discord's rules
//!
//! The fake refuses what Discord refuses; each check cites the Discord doc it follows (see
//! the crate README for the list). The bot's permissions ([`FakeDiscord::set_bot_permissions`],
//! [`FakeDiscord::set_bot_overwrite`]; every permission by default) decide what it may do in
//! each channel and are sent as `app_permissions`. The fake's clock is real time plus
//! [`FakeDiscord::advance`]: it times interaction deadlines (3 s, 15 min) and thread
//! auto-archiving. Channels: one text channel per guild, and [`FakeDiscord::add_channel`]
//! adds announcement (5), forum (15) or more text channels.
//!
//! ## Guilds and shards
//!
//! One guild by default; [`FakeDiscord::start_with_guilds`] starts several (consecutive
//! snowflakes, so they spread over any number of shards up to their count). The gateway
//! routes each guild's events, interactions included, to the sessions of its shard only
//! (Discord's sharding formula, see [`gateway`]); [`FakeDiscord::remove_bot_from_guild`]
//! takes the bot out of one (403 / 50001 there afterwards).
//!
//! Every REST request is recorded ([`FakeDiscord::requests`]), with multipart file parts and
//! their bytes. The fake keeps channels (one guild text channel, threads, DM channels per
//! user), messages (with attachments and the versions before each edit), and interactions;
//! it dispatches interactions from simulated users ([`SimUser`]) with
//! [`FakeDiscord::slash_command`], [`FakeDiscord::autocomplete`],
//! [`FakeDiscord::click_button`] and [`FakeDiscord::select_menu`], and tests await the
//! answers with [`FakeDiscord::next_interaction_response`] (woken by a `tokio::sync::watch`,
//! no polling).
//!
//! Snowflake ids are generated from a fixed start (2025-01-01), so the same sequence of
//! requests yields the same ids.
//!
//! Permissions: each [`SimUser`] has a permission set (every permission by default; an
//! ordinary member with `SimUser::new(..).with_permissions(MEMBER_PERMISSIONS)`). The
//! interaction's `member.permissions` carries it (all bits for an Administrator, as Discord
//! computes it), which is what poise 0.7 checks `required_permissions` against (with
//! `app_permissions`, the bot's permissions in the channel: every permission unless the
//! test narrowed them; in a direct message, Discord's fixed DM set [`DM_APP_PERMISSIONS`]). GUILD_CREATE has an `@everyone` role with
//! [`MEMBER_PERMISSIONS`] and an Admin role (every permission) held by the bot and by users
//! with Administrator. A subcommand (group) option always carries `options`, `[]` when empty,
//! which serenity 0.12 requires.
//!
//! ## Connecting the bot (the recipe)
//!
//! ```no_run
//! # async fn demo<F: serenity::all::Framework + 'static>(framework: F) -> Result<(), Box<dyn std::error::Error>> {
//! use std::time::Duration;
//! use fake_discord::{FakeDiscord, SimUser};
//! use serenity::all as serenity;
//!
//! let fake = FakeDiscord::start().await?;
//! let mut client = fake
//!     .client_builder(serenity::GatewayIntents::non_privileged())
//!     .framework(framework)
//!     .await?;
//! let shards = client.shard_manager.clone();
//! tokio::spawn(async move { client.start().await });
//! fake.wait_until_ready(Duration::from_secs(10)).await?;
//! fake.wait_for_commands(Duration::from_secs(10)).await?; // poise registered them
//! let alice = SimUser::new(1001, "alice");
//! let sent = fake.slash_command(&alice, fake.text_channel_id(), "ping", vec![])?;
//! let answer = fake.next_interaction_response(sent.id, Duration::from_secs(5)).await?;
//! assert_eq!(answer.content(), Some("pong"));
//! shards.shutdown_all().await;
//! # Ok(()) }
//! ```
//!
//! [`client::http`] and [`client::client_builder`] do the same from a URL, for a bot running
//! in another process than the fake.
//!
//! ## The program and its control API
//!
//! The crate also builds the `fake-discord` program (`src/main.rs`): the same fake on
//! `127.0.0.1:PORT`, for a bot in another process (`kaboom serve` with `DISCORD_API_BASE`).
//! Every fake, the library's included, serves a JSON control API under `/_control/...` on
//! the same port (see [`control`] and `README.md`): a thin layer over the methods of
//! [`FakeDiscord`] for tests in another process or language.
//!
//! REST responses carry Discord's `X-RateLimit-*` headers (see [`ratelimit`]).
//!
//! ## Faults
//!
//! A seeded, per-route, switchable [`FaultPlan`] ([`FakeDiscord::set_fault_plan`], or
//! `PUT /_control/faults`) injects 429s, 5xx answers, slow answers, connection resets, DM
//! refusals and gateway faults; [`FakeDiscord::gateway_fault`] sends a [`GatewayFault`] at
//! once. Gateway sessions survive their connections and RESUME replays missed dispatches
//! (see [`gateway`]). Details and sources in the `faults` module and `README.md`.

#![deny(missing_docs)]

mod client;
pub mod control;
pub mod faults;
pub mod gateway;
mod payloads;
pub mod ratelimit;
mod records;
mod rules;
mod server;
mod state;
pub mod testing;

use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

pub use client::{FAKE_TOKEN, client_builder, http};
pub use faults::{
    EnforcedRateLimits, FaultPlan, FaultPlanError, FaultRule, GatewayFault, InjectedFault,
    MAX_FAULT_SECONDS, PeriodicGatewayFault, RestFault,
};
pub use gateway::GatewaySessionInfo;
pub use payloads::{CommandOption, DM_APP_PERMISSIONS, MEMBER_PERMISSIONS, SimUser};
pub use records::{
    FakeAttachment, FakeChannel, FakeMessage, InteractionResponse, RecordedBody, RecordedFile,
    RecordedRequest, ResponseKind, SentInteraction, is_ephemeral,
};
pub use state::{FakeGuild, MAX_GUILDS, MAX_UPLOAD_BYTES};

use payloads::{ChannelContext, interaction_base, resolved_json, snowflake_timestamp};
use state::{InteractionInfo, State};

/// What went wrong when starting the fake, dispatching to it or waiting on it.
#[derive(Debug, thiserror::Error)]
pub enum FakeError {
    /// The listener could not be bound on 127.0.0.1.
    #[error("could not bind the fake Discord server on 127.0.0.1: {0}")]
    Bind(#[from] std::io::Error),
    /// The awaited thing did not happen in time.
    #[error("timed out after {timeout:?} waiting for {what}")]
    Timeout {
        /// What was awaited.
        what: String,
        /// How long.
        timeout: Duration,
    },
    /// An interaction was dispatched but no bot is connected to the gateway.
    #[error(
        "no bot is connected to the fake gateway: start the client and await \
         FakeDiscord::wait_until_ready before dispatching"
    )]
    NoGatewaySession,
    /// A component interaction named a message the fake does not have.
    #[error("unknown message {0}: components can only be used on messages the fake stored")]
    UnknownMessage(u64),
    /// A server member lacks the `default_member_permissions` of a command: Discord's client
    /// does not show it to them.
    #[error("/{name} is not offered to user {user}: they lack its default_member_permissions")]
    CommandNotPermitted {
        /// The command.
        name: String,
        /// The member.
        user: u64,
    },
    /// [`FakeDiscord::submit_modal`] on an interaction that answered with no modal: a
    /// client has nothing to submit.
    #[error("interaction {0} answered with no modal, so there is none to submit")]
    NoModal(u64),
    /// A user acted in a guild they left ([`FakeDiscord::remove_member`]): Discord shows a
    /// guild's channels only to its members.
    #[error("user {user} is not a member of guild {guild}: they left it")]
    NotAMember {
        /// The guild.
        guild: u64,
        /// The user who left.
        user: u64,
    },
    /// An interaction named a channel the fake does not have.
    #[error(
        "unknown channel {0}: use text_channel_id(), add_thread() or dm_channel_for() to get a \
         channel the fake knows"
    )]
    UnknownChannel(u64),
    /// A thread was asked for under a channel that cannot hold threads (a thread, a DM).
    #[error("channel {0} cannot hold threads (it is a thread or a DM channel)")]
    WrongChannelType(u64),
    /// A player cannot use application commands in an archived thread: "Users cannot edit
    /// messages, add reactions, use application commands, or join archived threads"
    /// (<https://discord.com/developers/docs/topics/threads#active-archived-threads>). The
    /// client offers no command there until someone reopens the thread (sending a message
    /// does, or Modify Channel `archived: false`).
    #[error(
        "thread {0} is archived: Discord clients cannot use application commands in it until \
         it is reopened (a message in it, or PATCH /channels/{0} archived:false)"
    )]
    ThreadArchived(u64),
    /// The guild id is not one of the fake's guilds.
    #[error("unknown guild {0}: the fake's guilds are listed by FakeDiscord::guilds()")]
    UnknownGuild(u64),
    /// An interaction in a guild the bot is not in (it was removed): Discord delivers
    /// nothing to a bot from a guild it is not in, and removing a bot removes its commands
    /// there.
    #[error("the bot is not in guild {0}: no interaction from there reaches it")]
    BotNotInGuild(u64),
    /// A Discord client does not offer command `name` here: the registered command's
    /// `contexts` lack this interaction context, or none of its `integration_types` is
    /// installed where it was used (the bot in the server, or the app on the user's account).
    /// A command registered without `contexts` is offered in GUILD and BOT_DM only, and
    /// without `integration_types` as a server install only, as Discord treats them
    /// (discord-api-docs#7108 and #7396,
    /// <https://github.com/discord/discord-api-docs/issues/7108>).
    #[error("a Discord client does not offer /{name} in interaction context {context} here")]
    CommandNotOffered {
        /// The command.
        name: String,
        /// The interaction context (0 GUILD, 1 BOT_DM, 2 PRIVATE_CHANNEL).
        context: u8,
    },
    /// Nothing of the app is installed where the user acted: not the bot in the server
    /// (nor a server shared with the user, for the bot's DM) and not the app on the user's
    /// account ([`FakeDiscord::install_for_user`]); no client offers its commands there.
    #[error("the app is not installed for user {user} in channel {channel}")]
    NotInstalledHere {
        /// The channel.
        channel: u64,
        /// The user.
        user: u64,
    },
    /// [`FakeDiscord::add_channel`] was given a type the fake does not model.
    #[error(
        "the fake adds guild channels of type 0 (text), 5 (announcement) or 15 (forum), not {0}"
    )]
    UnsupportedChannelType(u8),
}

/// The fake's records as they were before [`FakeDiscord::take_records_leaving_copies`]
/// replaced them with copies: only to be dropped (the heap that frees is what the fake
/// kept); nothing reads them.
pub struct TakenRecords {
    _messages: Vec<FakeMessage>,
    _requests: Vec<RecordedRequest>,
    _interactions: HashMap<u64, InteractionInfo>,
    _dispatched: HashMap<u64, Value>,
    _interaction_by_token: HashMap<String, u64>,
    _responses: Vec<InteractionResponse>,
    _message_by_nonce: HashMap<(u64, String), u64>,
    _responses_by_interaction: HashMap<u64, Vec<usize>>,
    _response_cursor: HashMap<u64, usize>,
    _channels: BTreeMap<u64, Value>,
    _thread_activity: HashMap<u64, Duration>,
    _replay_buffers: Vec<std::collections::VecDeque<(u64, String, Value)>>,
    _injected: Vec<InjectedFault>,
    _fault_streams: faults::Streams,
    _rate_limit_windows: HashMap<(String, String), ratelimit::Window>,
}

/// State shared by the server tasks and the [`FakeDiscord`] handle.
pub(crate) struct Shared {
    state: Mutex<State>,
    /// Bumped after every change; waiters subscribe to it.
    changed: watch::Sender<u64>,
    /// Set to `true` when the fake is dropped; gateway sessions end.
    shutdown: watch::Sender<bool>,
    /// The rate-limit windows behind the `X-RateLimit-*` headers.
    ratelimits: Mutex<ratelimit::RateLimits>,
    /// Injected failures ([`FakeDiscord::fail_next`]).
    faults: Mutex<faults::Faults>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Changes the state and wakes waiters.
    pub(crate) fn update<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        let result = f(&mut self.lock());
        self.changed.send_modify(|version| *version += 1);
        result
    }

    /// The rate-limit windows (taken alone: never with the state or the faults).
    pub(crate) fn ratelimits_lock(&self) -> MutexGuard<'_, ratelimit::RateLimits> {
        self.ratelimits
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The injected faults (lock order: never take the state while holding this).
    pub(crate) fn faults_lock(&self) -> MutexGuard<'_, faults::Faults> {
        self.faults
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Reads the state.
    pub(crate) fn read<R>(&self, f: impl FnOnce(&State) -> R) -> R {
        f(&self.lock())
    }
}

/// A running fake Discord server (see the [module docs](self)). Dropping it stops the server
/// and closes the gateway connections.
pub struct FakeDiscord {
    shared: Arc<Shared>,
    addr: SocketAddr,
    /// The server task: `Some` for the fake returned by [`FakeDiscord::start`], `None` for
    /// the handle the control API holds (which must not stop the server when dropped).
    server: Option<JoinHandle<()>>,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        if let Some(server) = &self.server {
            self.shared.shutdown.send_replace(true);
            server.abort();
        }
    }
}

impl std::fmt::Debug for FakeDiscord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeDiscord")
            .field("addr", &self.addr)
            .finish()
    }
}

impl FakeDiscord {
    /// Binds `127.0.0.1:0` (an ephemeral port) and serves the fake on the current tokio
    /// runtime.
    ///
    /// # Errors
    /// [`FakeError::Bind`] if the port cannot be bound.
    pub async fn start() -> Result<FakeDiscord, FakeError> {
        FakeDiscord::start_on(0).await
    }

    /// Binds `127.0.0.1:port` (`0`: an ephemeral port, as [`FakeDiscord::start`]) and serves
    /// the fake, with its control API, on the current tokio runtime. Only the loopback
    /// interface is ever bound.
    ///
    /// # Errors
    /// [`FakeError::Bind`] if the port cannot be bound (e.g. already in use).
    pub async fn start_on(port: u16) -> Result<FakeDiscord, FakeError> {
        FakeDiscord::start_with_guilds(port, 1).await
    }

    /// Like [`FakeDiscord::start_on`], with `guilds` guilds (1 to [`MAX_GUILDS`]; values out
    /// of range are clamped), each with its own `#kaboom` text channel, the bot in all of
    /// them. Their ids are consecutive snowflakes (one millisecond apart), so with a gateway
    /// of `n <= guilds` shards Discord's sharding formula `(guild_id >> 22) % n`
    /// (<https://discord.com/developers/docs/events/gateway#sharding-sharding-formula>)
    /// puts at least one guild on every shard: guild `i` (0-based) is on shard
    /// `(first + i) % n`, see [`FakeDiscord::guilds`] and [`gateway::shard_of`]. The
    /// first guild is the one of [`FakeDiscord::guild_id`] and
    /// [`FakeDiscord::text_channel_id`]; with one guild every id is as with
    /// [`FakeDiscord::start_on`].
    ///
    /// # Errors
    /// [`FakeError::Bind`] if the port cannot be bound.
    pub async fn start_with_guilds(port: u16, guilds: usize) -> Result<FakeDiscord, FakeError> {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
        let addr = listener.local_addr()?;
        let (changed, _) = watch::channel(0);
        let (shutdown, _) = watch::channel(false);
        let shared = Arc::new(Shared {
            state: Mutex::new(State::new(format!("http://{addr}"), guilds)),
            changed,
            shutdown,
            ratelimits: Mutex::new(ratelimit::RateLimits::default()),
            faults: Mutex::new(faults::Faults::default()),
        });
        let handle = FakeDiscord {
            shared: shared.clone(),
            addr,
            server: None,
        };
        let app = server::router(shared.clone())
            .merge(control::router(Arc::new(handle)))
            .into_make_service_with_connect_info::<server::ResetSwitch>();
        let listener = server::ResettableListener(listener);
        let server = tokio::spawn(async move {
            if let Err(error) = axum::serve(listener, app).await {
                eprintln!("fake Discord server stopped: {error}");
            }
        });
        Ok(FakeDiscord {
            shared,
            addr,
            server: Some(server),
        })
    }

    /// Stops serving: closes the gateway connections (sending a Close frame) and ends the
    /// server task, as dropping the fake does, but waits (at most `timeout`) until the
    /// server task has ended. For the program's clean exit.
    pub async fn shutdown(mut self, timeout: Duration) {
        if let Some(server) = self.server.take() {
            self.shared.shutdown.send_replace(true);
            // Let the gateway sessions send their Close frames, then stop accepting.
            tokio::time::sleep(Duration::from_millis(50).min(timeout)).await;
            server.abort();
            let _ = tokio::time::timeout(timeout, server).await;
        }
    }

    // ---- addresses and ids ---------------------------------------------------------------

    /// The base URL, `http://127.0.0.1:PORT`: what to give serenity's `HttpBuilder::proxy`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Same as [`FakeDiscord::url`]: the value for `HttpBuilder::proxy`.
    pub fn http_builder_proxy_url(&self) -> String {
        self.url()
    }

    /// The gateway URL, `ws://127.0.0.1:PORT/gateway` (also returned by `GET /gateway`).
    pub fn gateway_url(&self) -> String {
        self.shared.read(State::gateway_url)
    }

    /// A serenity client builder connected to this fake with [`FAKE_TOKEN`]
    /// (see [`client_builder`]).
    pub fn client_builder(
        &self,
        intents: serenity::all::GatewayIntents,
    ) -> serenity::all::ClientBuilder {
        client_builder(&self.url(), FAKE_TOKEN, intents)
    }

    /// A gateway session without a WebSocket: it counts as an identified bot session, so
    /// [`FakeDiscord::slash_command`] and the other dispatches are accepted, and it receives
    /// every dispatch as `(event name, data)`. For tests that play the bot's part by hand
    /// (answering interactions over REST themselves).
    pub fn detached_session(&self) -> mpsc::UnboundedReceiver<(String, Value)> {
        let (tx, rx) = mpsc::unbounded_channel();
        self.shared.update(|s| {
            s.sessions.push(tx);
            s.identified_sessions += 1;
        });
        rx
    }

    /// The application's id (also the bot user's id, as for real bots).
    pub fn application_id(&self) -> u64 {
        self.shared.read(|s| s.application_id)
    }

    /// The bot user's id.
    pub fn bot_user_id(&self) -> u64 {
        self.shared.read(|s| s.bot_user_id)
    }

    /// The id of the fake's first guild (the only one unless the fake was started with
    /// [`FakeDiscord::start_with_guilds`]).
    pub fn guild_id(&self) -> u64 {
        self.shared.read(|s| s.guild_id)
    }

    /// The id of the first guild's text channel (`#kaboom`).
    pub fn text_channel_id(&self) -> u64 {
        self.shared.read(|s| s.text_channel_id)
    }

    /// Every guild of the fake, in the order of their ids (the first one first), with
    /// their text channels and whether the bot is in them.
    pub fn guilds(&self) -> Vec<FakeGuild> {
        self.shared.read(|s| s.guilds.clone())
    }

    /// The guild a channel or thread belongs to; `None` for a DM channel or an unknown id.
    pub fn guild_of_channel(&self, channel_id: u64) -> Option<u64> {
        self.shared.read(|s| s.guild_of_channel(channel_id))
    }

    /// Removes the bot from guild `guild_id`, as a server admin kicking it would: the
    /// shard of that guild gets GUILD_DELETE without `unavailable` ("If the unavailable
    /// field is not set, the user was removed from the guild",
    /// <https://discord.com/developers/docs/events/gateway-events#guild-delete>), the bot's
    /// commands registered there go, no interaction from there is dispatched any more
    /// ([`FakeError::BotNotInGuild`]) nor users' messages, and every REST request about the
    /// guild, its channels and threads answers 403 / 50001 Missing Access.
    ///
    /// # Errors
    /// [`FakeError::UnknownGuild`].
    pub fn remove_bot_from_guild(&self, guild_id: u64) -> Result<(), FakeError> {
        self.shared.update(|s| {
            let guild = s.guild_mut(guild_id)?;
            if guild.bot_member {
                guild.bot_member = false;
                s.guild_commands.remove(&guild_id);
                s.broadcast("GUILD_DELETE", json!({ "id": guild_id.to_string() }));
            }
            Ok(())
        })
    }

    /// Adds a role named `name` (no permissions of its own) to guild `guild_id`, as a
    /// server admin does in Server Settings, and tells the gateway (GUILD_ROLE_CREATE,
    /// <https://discord.com/developers/docs/events/gateway-events#guild-role-create>). Give
    /// it to users with [`SimUser::with_roles`]; pass it in a ROLE option with
    /// [`CommandOption::role`].
    ///
    /// # Errors
    /// [`FakeError::UnknownGuild`].
    pub fn add_role(&self, guild_id: u64, name: &str) -> Result<u64, FakeError> {
        self.shared.update(|s| {
            let id = s.ids.next();
            let guild = s.guild_mut(guild_id)?;
            guild.roles.push((id, name.to_string()));
            let role = s.added_role_json(guild_id, id);
            s.broadcast(
                "GUILD_ROLE_CREATE",
                json!({ "guild_id": guild_id.to_string(), "role": role }),
            );
            Ok(id)
        })
    }

    /// Allows command `name` to user `user_id` in guild `guild_id` whatever its
    /// `default_member_permissions`, as a server admin does on Server Settings ->
    /// Integrations ("Application command permissions": per user, role or channel,
    /// <https://discord.com/developers/docs/interactions/application-commands#permissions>).
    pub fn permit_command(&self, guild_id: u64, name: &str, user_id: u64) {
        self.shared.update(|s| {
            s.command_overrides
                .insert((guild_id, name.to_string(), user_id));
        });
    }

    /// User `user_id` leaves guild `guild_id` (or is kicked): from then on Get Guild Member
    /// answers 404 / 10007 Unknown Member for them
    /// (<https://discord.com/developers/docs/topics/opcodes-and-status-codes#json>), and they
    /// can no longer use the guild's commands or buttons ([`FakeError::NotAMember`]). The
    /// GUILD_MEMBER_REMOVE event needs the privileged GUILD_MEMBERS intent, which the bot
    /// does not ask for, so none is sent.
    ///
    /// # Errors
    /// [`FakeError::UnknownGuild`].
    pub fn remove_member(&self, guild_id: u64, user_id: u64) -> Result<(), FakeError> {
        self.shared.update(|s| {
            let guild = s.guild_mut(guild_id)?;
            guild.departed.insert(user_id);
            Ok(())
        })
    }

    // ---- knobs and setup -----------------------------------------------------------------

    /// Makes the user known (for `GET /users/{id}`, guild members, DM recipients). Users
    /// who act in interactions are added automatically.
    pub fn add_user(&self, user: &SimUser) {
        self.shared.update(|s| {
            s.users.insert(user.id, user.clone());
        });
    }

    /// A user the fake knows (added with [`FakeDiscord::add_user`] or seen acting in an
    /// interaction or message), by id.
    pub fn user(&self, user_id: u64) -> Option<SimUser> {
        self.shared.read(|s| s.users.get(&user_id).cloned())
    }

    /// The INTERACTION_CREATE payload of `interaction_id` as the fake dispatched it.
    pub fn dispatched_interaction(&self, interaction_id: u64) -> Option<serde_json::Value> {
        self.shared
            .read(|s| s.dispatched.get(&interaction_id).cloned())
    }

    /// Whether `interaction_id` is an interaction the fake dispatched.
    pub fn knows_interaction(&self, interaction_id: u64) -> bool {
        self.shared
            .read(|s| s.interactions.contains_key(&interaction_id))
    }

    /// From now on, `POST /channels/{dm}/messages` to this user's DM channel fails with
    /// HTTP 403 and Discord error 50007 "Cannot send messages to this user".
    pub fn refuse_dms_for(&self, user_id: u64) {
        self.shared.update(|s| {
            s.refused_dm_users.insert(user_id);
        });
    }

    /// Undoes [`FakeDiscord::refuse_dms_for`].
    pub fn allow_dms_for(&self, user_id: u64) {
        self.shared.update(|s| {
            s.refused_dm_users.remove(&user_id);
        });
    }

    /// The id of the DM channel between the bot and `user_id` (created if needed; the same
    /// channel the bot gets from `POST /users/@me/channels`).
    pub fn dm_channel_for(&self, user_id: u64) -> u64 {
        self.shared.update(|s| s.dm_channel(user_id))
    }

    /// `user_id` installs the app to their account (integration type 1 USER_INSTALL): its
    /// commands that declare it work for them in any server, in the bot's DM and in group DMs
    /// ("Installation Context",
    /// <https://discord.com/developers/docs/resources/application#installation-context>), and
    /// the bot may DM them without a shared server.
    pub fn install_for_user(&self, user_id: u64) {
        self.shared.update(|s| {
            s.user_installs.insert(user_id);
        });
    }

    /// A group DM (channel type 3 GROUP_DM) of `members` (the first owns it), which the bot
    /// is not in: a bot cannot join one, so every REST request about it answers 403 / 50001
    /// Missing Access, and only interactions of a user-installed app reach it (context 2
    /// PRIVATE_CHANNEL). Returns its id.
    pub fn add_group_dm(&self, members: &[&SimUser]) -> u64 {
        let members: Vec<SimUser> = members.iter().map(|m| (*m).clone()).collect();
        self.shared.update(|s| s.add_group_dm(&members))
    }

    /// `user_id` leaves every guild (see [`FakeDiscord::remove_member`]): they share no
    /// server with the bot.
    pub fn remove_from_every_guild(&self, user_id: u64) {
        self.shared.update(|s| {
            for guild in &mut s.guilds {
                guild.departed.insert(user_id);
            }
        });
    }

    /// Adds a public thread named `name` under `parent_id` and returns its id: a
    /// PUBLIC_THREAD (11) in a text or forum channel, an ANNOUNCEMENT_THREAD (10) in an
    /// announcement channel
    /// (<https://discord.com/developers/docs/topics/threads#public-private-threads>).
    ///
    /// # Errors
    /// [`FakeError::UnknownChannel`] if `parent_id` is not a channel of the fake,
    /// [`FakeError::WrongChannelType`] if it is a thread or a DM.
    pub fn add_thread(&self, parent_id: u64, name: &str) -> Result<u64, FakeError> {
        self.shared.update(|s| {
            let kind = thread_kind_under(s, parent_id)?;
            Ok(s.add_thread(parent_id, name, kind, None))
        })
    }

    /// Adds the public thread `thread_id` named `name` under `parent_id`, as
    /// [`FakeDiscord::add_thread`] does, with an id from an earlier run: Discord keeps a
    /// server's threads while a bot is stopped and upgraded, so a test that starts the bot
    /// on a database made earlier (an upgrade fixture) restores the threads that database
    /// names. Later ids are generated past it.
    ///
    /// # Errors
    /// As [`FakeDiscord::add_thread`]; [`FakeError::WrongChannelType`] if `thread_id` is
    /// already a channel.
    pub fn restore_thread(
        &self,
        parent_id: u64,
        thread_id: u64,
        name: &str,
    ) -> Result<(), FakeError> {
        self.shared.update(|s| {
            let kind = thread_kind_under(s, parent_id)?;
            if s.channel_type(thread_id).is_some() {
                return Err(FakeError::WrongChannelType(thread_id));
            }
            s.ids.skip_past(thread_id);
            s.add_thread(parent_id, name, kind, Some(thread_id));
            Ok(())
        })
    }

    /// Adds a guild channel named `name` of Discord channel type `kind`
    /// (<https://discord.com/developers/docs/resources/channel#channel-object-channel-types>):
    /// 0 GUILD_TEXT, 5 GUILD_ANNOUNCEMENT or 15 GUILD_FORUM. Returns its id. Threads come
    /// from [`FakeDiscord::add_thread`], DM channels from [`FakeDiscord::dm_channel_for`].
    ///
    /// # Errors
    /// [`FakeError::UnsupportedChannelType`] for another type.
    pub fn add_channel(&self, kind: u8, name: &str) -> Result<u64, FakeError> {
        let guild = self.guild_id();
        self.add_channel_in(guild, kind, name)
    }

    /// Like [`FakeDiscord::add_channel`], in guild `guild_id` (one of
    /// [`FakeDiscord::guilds`]). CHANNEL_CREATE goes to that guild's shard.
    ///
    /// # Errors
    /// [`FakeError::UnsupportedChannelType`], [`FakeError::UnknownGuild`].
    pub fn add_channel_in(&self, guild_id: u64, kind: u8, name: &str) -> Result<u64, FakeError> {
        if !matches!(kind, 0 | 5 | 15) {
            return Err(FakeError::UnsupportedChannelType(kind));
        }
        self.shared.update(|s| {
            if s.guild(guild_id).is_none() {
                return Err(FakeError::UnknownGuild(guild_id));
            }
            let id = s.ids.next();
            let channel = s.guild_channel_json(guild_id, id, name, u64::from(kind));
            s.channels.insert(id, channel.clone());
            s.broadcast("CHANNEL_CREATE", channel);
            Ok(id)
        })
    }

    /// Accepts only `token` as the bot's from now on (`None`: any token, the default), as
    /// if it had been reset in the Developer Portal: REST requests with another get 401
    /// `{"message": "401: Unauthorized", "code": 0}` ("The `Authorization` header was
    /// missing or invalid"), and a gateway IDENTIFY or RESUME with another is closed with
    /// 4004 Authentication failed, which Discord says not to reconnect after
    /// (<https://discord.com/developers/docs/topics/opcodes-and-status-codes>). Sessions
    /// already identified stay connected until they reconnect
    /// ([`FakeDiscord::reconnect_gateway`]).
    pub fn set_bot_token(&self, token: Option<&str>) {
        let token = token.map(|t| {
            t.trim()
                .strip_prefix("Bot ")
                .unwrap_or(t.trim())
                .to_string()
        });
        self.shared.update(|s| s.bot_token = token);
    }

    /// Asks every connected gateway session to reconnect and resume (op 7 Reconnect,
    /// <https://discord.com/developers/docs/events/gateway-events#reconnect>), as Discord
    /// does when it moves sessions. Returns how many sessions were asked.
    pub fn reconnect_gateway(&self) -> usize {
        self.gateway_fault(GatewayFault::Reconnect)
    }

    /// Sets the bot's guild-wide permissions (every permission by default). The bot's
    /// permissions in a channel ([`FakeDiscord::bot_permissions_in`]) follow from them and
    /// the channel's overwrite; the fake refuses what they do not allow (50013 Missing
    /// Permissions, 50001 Missing Access without VIEW_CHANNEL) and puts them in the
    /// interactions' `app_permissions`.
    pub fn set_bot_permissions(&self, permissions: serenity::all::Permissions) {
        self.shared.update(|s| s.bot_permissions = permissions);
    }

    /// Sets the bot's permission overwrite on `channel_id` (threads use their parent's):
    /// the permissions there are `(guild & !deny) | allow`
    /// (<https://discord.com/developers/docs/topics/permissions#permission-overwrites>).
    ///
    /// # Errors
    /// [`FakeError::UnknownChannel`].
    pub fn set_bot_overwrite(
        &self,
        channel_id: u64,
        allow: serenity::all::Permissions,
        deny: serenity::all::Permissions,
    ) -> Result<(), FakeError> {
        self.shared.update(|s| {
            if !s.channels.contains_key(&channel_id) {
                return Err(FakeError::UnknownChannel(channel_id));
            }
            s.bot_overwrites.insert(channel_id, (allow, deny));
            Ok(())
        })
    }

    /// The bot's effective permissions in a channel (what `app_permissions` carries there).
    pub fn bot_permissions_in(&self, channel_id: u64) -> serenity::all::Permissions {
        self.shared.read(|s| s.bot_permissions_in(channel_id))
    }

    /// Moves the fake's clock forward by `by` (on top of real time): interactions answered
    /// later than 3 s after creation get 10062, tokens older than 15 min 50027, and threads
    /// idle for their `auto_archive_duration` are archived (THREAD_UPDATE) now.
    pub fn advance(&self, by: Duration) {
        self.shared.update(|s| {
            s.clock_offset += by;
            s.archive_idle_threads();
        });
    }

    /// Archives or unarchives a thread, and locks or unlocks it, as a moderator would
    /// (THREAD_UPDATE is dispatched).
    ///
    /// # Errors
    /// [`FakeError::UnknownChannel`] if `thread_id` is not a thread.
    pub fn set_thread_state(
        &self,
        thread_id: u64,
        archived: bool,
        locked: bool,
    ) -> Result<(), FakeError> {
        self.shared.update(|s| {
            if !s.is_thread(thread_id) {
                return Err(FakeError::UnknownChannel(thread_id));
            }
            if let Some(channel) = s.channels.get_mut(&thread_id) {
                channel["thread_metadata"]["locked"] = json!(locked);
            }
            s.set_archived(thread_id, archived);
            Ok(())
        })
    }

    /// Stores a message written by `user` in `channel_id` and dispatches MESSAGE_CREATE
    /// (<https://discord.com/developers/docs/events/gateway-events#message-create>) to the
    /// shard of the channel's guild (shard 0 for a DM), unless the bot is not in that
    /// guild. Returns the message id.
    ///
    /// # Errors
    /// [`FakeError::UnknownChannel`] if the channel is not known.
    pub fn user_message(
        &self,
        user: &SimUser,
        channel_id: u64,
        content: &str,
    ) -> Result<u64, FakeError> {
        self.shared.update(|s| {
            let in_guild = s
                .channel_is_in_guild(channel_id)
                .ok_or(FakeError::UnknownChannel(channel_id))?;
            s.users.insert(user.id, user.clone());
            s.archive_idle_threads();
            s.thread_activity_on_message(channel_id);
            let message = s.create_message(
                channel_id,
                user.to_json(),
                &json!({ "content": content }),
                &[],
                None,
            );
            let mut event = message.json.clone();
            if in_guild {
                let guild = s.guild_of_channel(channel_id).unwrap_or(s.guild_id);
                if !s.bot_in_guild(guild) {
                    return Ok(message.id);
                }
                event["guild_id"] = json!(guild.to_string());
                event["member"] = payloads::member_json_without_user(
                    &snowflake_timestamp(message.id),
                    user.roles(State::admin_role_of(guild)),
                );
            }
            s.broadcast("MESSAGE_CREATE", event);
            Ok(message.id)
        })
    }

    // ---- dispatching interactions ----------------------------------------------------------

    fn dispatch_interaction(
        &self,
        user: &SimUser,
        channel_id: u64,
        kind: u8,
        component_message_id: Option<u64>,
        make_data: impl FnOnce(
            &mut State,
            state::Place,
        ) -> Result<(Value, Option<Value>, state::Place), FakeError>,
    ) -> Result<SentInteraction, FakeError> {
        self.shared.update(|s| {
            s.archive_idle_threads();
            let channel = s
                .partial_channel_json(channel_id)
                .ok_or(FakeError::UnknownChannel(channel_id))?;
            let guild = s.guild_of_channel(channel_id);
            let place = s
                .place_of(channel_id, user.id)
                .ok_or(FakeError::UnknownChannel(channel_id))?;
            let installed = |place: &state::Place| -> Result<(), FakeError> {
                match guild {
                    _ if place.guild_install || place.user_install.is_some() => Ok(()),
                    Some(guild) => Err(FakeError::BotNotInGuild(guild)),
                    None => Err(FakeError::NotInstalledHere {
                        channel: channel_id,
                        user: user.id,
                    }),
                }
            };
            // A component is authorized as the interaction that posted its message was
            // (checked after `make_data` finds that one).
            if component_message_id.is_none() {
                installed(&place)?;
            }
            if let Some(guild) = guild
                && s.guild(guild)
                    .is_some_and(|g| g.departed.contains(&user.id))
            {
                return Err(FakeError::NotAMember {
                    guild,
                    user: user.id,
                });
            }
            s.users.insert(user.id, user.clone());
            let (data, message, place) = make_data(s, place)?;
            installed(&place)?;
            let id = s.ids.next();
            let token = format!("fake-interaction-token-{id}");
            let channel_context = ChannelContext {
                channel,
                channel_id,
                guild_id: guild,
            };
            let mut payload = interaction_base(
                id,
                s.application_id,
                kind,
                &token,
                user,
                &channel_context,
                State::admin_role_of(guild.unwrap_or(s.guild_id)),
            );
            payload["data"] = data;
            payload["context"] = json!(place.context);
            payload["authorizing_integration_owners"] = place.owners_json();
            // "app_permissions: Bitwise set of permissions the app has in the source location
            // of the interaction" (https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-structure):
            // in a server with the bot, what the test granted the bot there
            // (FakeDiscord::set_bot_permissions); where the bot is not (a user install in a
            // server or a group DM), only what interaction responses can use: "For apps
            // without a bot user (or without the bot scope), the value of app_permissions
            // will be the same as the permissions for @everyone, but limited to the
            // permissions that can be used in interaction responses (currently
            // ATTACH_FILES, EMBED_LINKS, MENTION_EVERYONE, and USE_EXTERNAL_EMOJIS)"
            // (change log, 2022-06-29, "Calculated Permissions in Interaction Payloads");
            // in a group DM without USE_EXTERNAL_EMOJIS, as in a DM between users.
            payload["app_permissions"] = match place.context {
                0 if place.guild_install => json!(s.app_permissions_string(channel_id)),
                0 | 1 => json!(payloads::DM_APP_PERMISSIONS.bits().to_string()),
                _ => json!(payloads::PRIVATE_CHANNEL_APP_PERMISSIONS.bits().to_string()),
            };
            if let Some(message) = message {
                payload["message"] = message;
            }
            if !s.has_sessions() {
                return Err(FakeError::NoGatewaySession);
            }
            s.interactions.insert(
                id,
                InteractionInfo {
                    id,
                    channel_id,
                    acknowledged: false,
                    deferred_pending: false,
                    original_message_id: None,
                    component_message_id,
                    created_at: s.now(),
                    user_id: user.id,
                    kind,
                    command: (kind == 2)
                        .then(|| payload["data"]["name"].as_str().map(str::to_string))
                        .flatten(),
                    place,
                    followups: 0,
                    modal: None,
                },
            );
            s.interaction_by_token.insert(token.clone(), id);
            s.dispatched.insert(id, payload.clone());
            // The gateway sends it to the sessions of the guild's shard only (DMs: shard 0).
            if s.broadcast("INTERACTION_CREATE", payload) == 0 {
                return Err(FakeError::NoGatewaySession);
            }
            // The fault plan's periodic gateway fault (lock order: state, then faults).
            let due = self.shared.faults_lock().count_interaction();
            if let Some(fault) = due {
                s.gateway.fault(&fault);
            }
            Ok(SentInteraction {
                id,
                token,
                channel_id,
            })
        })
    }

    fn command_data(
        s: &State,
        name: &str,
        options: &[CommandOption],
        guild: Option<u64>,
        interaction_id_hint: u64,
    ) -> Value {
        // An unregistered command still gets a stable id derived from its name.
        let (command_id, guild_id) = s.command_id(name, guild).unwrap_or_else(|| {
            let hash = name
                .bytes()
                .fold(0u64, |h, b| h.wrapping_mul(31) + u64::from(b));
            (interaction_id_hint ^ (hash & 0x3f_ffff), None)
        });
        let mut data = json!({
            "id": command_id.to_string(),
            "name": name,
            "type": 1,
            "options": options.iter().map(CommandOption::to_json).collect::<Vec<_>>(),
        });
        if let Some(guild_id) = guild_id {
            data["guild_id"] = json!(guild_id.to_string());
        }
        let mut users = Vec::new();
        options.iter().for_each(|o| o.resolved_users(&mut users));
        let home = guild.unwrap_or(s.guild_id);
        let joined_at = snowflake_timestamp(home);
        let admin_role = State::admin_role_of(home);
        if let Some(resolved) = resolved_json(&users, guild.is_some(), &joined_at, admin_role) {
            data["resolved"] = resolved;
        }
        // ROLE options resolve to the role objects (Resolved Data structure: "roles: the ids
        // and partial Role objects", https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-resolved-data-structure).
        // A Discord client offers only the guild's own roles, so other ids resolve to nothing.
        let mut role_ids = Vec::new();
        options.iter().for_each(|o| o.role_ids(&mut role_ids));
        let roles: serde_json::Map<String, Value> = role_ids
            .into_iter()
            .filter_map(|id| Some((id.to_string(), s.added_role_json(guild?, id)?)))
            .collect();
        if !roles.is_empty() {
            data["resolved"]["roles"] = Value::Object(roles);
        }
        // CHANNEL options resolve to partial channels: "id, name, type, permissions" (and a
        // thread's thread_metadata and parent_id), Resolved Data structure, same page. A
        // client offers only channels of the interaction's guild.
        let mut channel_ids = Vec::new();
        options.iter().for_each(|o| o.channel_ids(&mut channel_ids));
        let channels: serde_json::Map<String, Value> = channel_ids
            .into_iter()
            .filter_map(|id| {
                let channel = s.channels.get(&id)?;
                let in_guild = channel["guild_id"].as_str()? == guild?.to_string();
                in_guild.then(|| {
                    let mut partial = json!({
                        "id": id.to_string(),
                        "name": channel["name"],
                        "type": channel["type"],
                        "permissions": payloads::ALL_PERMISSIONS,
                    });
                    for key in ["thread_metadata", "parent_id"] {
                        if !channel[key].is_null() {
                            partial[key] = channel[key].clone();
                        }
                    }
                    (id.to_string(), partial)
                })
            })
            .collect();
        if !channels.is_empty() {
            data["resolved"]["channels"] = Value::Object(channels);
        }
        data
    }

    /// Dispatches INTERACTION_CREATE for a slash command (interaction type 2
    /// APPLICATION_COMMAND, command type 1 CHAT_INPUT) typed by `user` in `channel_id` (the
    /// text channel, a thread or a DM channel). Options nest for subcommands
    /// ([`CommandOption::subcommand`]). The command id is the registered one when poise has
    /// registered `name`.
    ///
    /// # Errors
    /// [`FakeError::UnknownChannel`], [`FakeError::NoGatewaySession`] (also when no session
    /// of the channel's guild's shard exists), [`FakeError::BotNotInGuild`].
    pub fn slash_command(
        &self,
        user: &SimUser,
        channel_id: u64,
        name: &str,
        options: Vec<CommandOption>,
    ) -> Result<SentInteraction, FakeError> {
        self.dispatch_command(user, channel_id, 2, name, options)
    }

    /// Dispatches an autocomplete interaction (type 4 APPLICATION_COMMAND_AUTOCOMPLETE):
    /// like [`FakeDiscord::slash_command`], with one option marked [`CommandOption::focused`].
    /// The bot answers with callback type 8 (read it with [`InteractionResponse::choices`]).
    ///
    /// # Errors
    /// [`FakeError::UnknownChannel`], [`FakeError::NoGatewaySession`] (also when no session
    /// of the channel's guild's shard exists), [`FakeError::BotNotInGuild`].
    pub fn autocomplete(
        &self,
        user: &SimUser,
        channel_id: u64,
        name: &str,
        options: Vec<CommandOption>,
    ) -> Result<SentInteraction, FakeError> {
        self.dispatch_command(user, channel_id, 4, name, options)
    }

    /// Dispatches a command interaction of type `kind` (2 APPLICATION_COMMAND, 4
    /// APPLICATION_COMMAND_AUTOCOMPLETE) with the command `name` and `options` as data.
    ///
    /// In an archived thread that is not locked, no command can be used
    /// ([`FakeError::ThreadArchived`]): "Users cannot ... use application commands ... in
    /// archived threads" (<https://discord.com/developers/docs/topics/threads#active-archived-threads>).
    /// In an archived and locked thread the command still reaches the bot, and its
    /// response fails with 50083 unless the bot has MANAGE_THREADS, as reported in
    /// discord-api-docs#5517 (<https://github.com/discord/discord-api-docs/issues/5517>:
    /// "Use any command in the locked and archived thread" -> "The bot can not reply to this
    /// interaction", the user sees "sending command" forever).
    fn dispatch_command(
        &self,
        user: &SimUser,
        channel_id: u64,
        kind: u8,
        name: &str,
        options: Vec<CommandOption>,
    ) -> Result<SentInteraction, FakeError> {
        self.shared.update(|s| {
            s.archive_idle_threads();
            if s.thread_is_archived_unlocked(channel_id) {
                Err(FakeError::ThreadArchived(channel_id))
            } else {
                Ok(())
            }
        })?;
        self.dispatch_interaction(user, channel_id, kind, None, |s, place| {
            let place = Self::command_offered(s, name, place)?;
            Self::member_may_use(s, name, user, &place)?;
            let hint = s.application_id;
            let guild = place.guild;
            Ok((
                Self::command_data(s, name, &options, guild, hint),
                None,
                place,
            ))
        })
    }

    /// Whether `user` may use the registered command `name` in a server: "Set of
    /// permissions represented as a bit set" in `default_member_permissions` hides the
    /// command from members without them, and "Users with the Administrator permission
    /// can use all commands"; `"0"` keeps it for administrators only
    /// (<https://discord.com/developers/docs/interactions/application-commands#permissions>).
    /// It applies to server members only (context 0), not in DMs. A server's Integrations
    /// page can allow the command to a member anyway ([`FakeDiscord::permit_command`]).
    fn member_may_use(
        s: &State,
        name: &str,
        user: &SimUser,
        place: &state::Place,
    ) -> Result<(), FakeError> {
        if place.context != 0 || user.permissions.administrator() {
            return Ok(());
        }
        if let Some(guild) = place.guild
            && s.command_overrides
                .contains(&(guild, name.to_string(), user.id))
        {
            return Ok(());
        }
        let Some(command) = s.registered_command(name, place.guild) else {
            return Ok(());
        };
        let Some(needed) = command["default_member_permissions"]
            .as_str()
            .and_then(|bits| bits.parse::<u64>().ok())
        else {
            return Ok(());
        };
        let needed = serenity::all::Permissions::from_bits_truncate(needed);
        if needed.is_empty() || !user.permissions.contains(needed) {
            return Err(FakeError::CommandNotPermitted {
                name: name.to_string(),
                user: user.id,
            });
        }
        Ok(())
    }

    /// Whether a client offers the registered command `name` at `place`, and the place with
    /// only the installations the command declares (its `authorizing_integration_owners`).
    /// An unregistered name is dispatched as it is (a test sending what no client would).
    ///
    /// "contexts: Interaction context(s) where the command can be used" and
    /// "integration_types: Installation context(s) where the command is available"
    /// (<https://discord.com/developers/docs/interactions/application-commands#application-command-object-application-command-structure>);
    /// left out, Discord offers a command in GUILD and BOT_DM and as a server install only
    /// (discord-api-docs#7108, #7396). A guild command exists in its guild only.
    fn command_offered(
        s: &State,
        name: &str,
        mut place: state::Place,
    ) -> Result<state::Place, FakeError> {
        let Some(command) = s.registered_command(name, place.guild) else {
            return Ok(place);
        };
        let listed = |key: &str, default: &[u64]| -> Vec<u64> {
            command[key].as_array().map_or_else(
                || default.to_vec(),
                |list| list.iter().filter_map(Value::as_u64).collect(),
            )
        };
        let (contexts, types) = if command["guild_id"].is_string() {
            (vec![0], vec![0])
        } else {
            (
                listed("contexts", &[0, 1]),
                listed("integration_types", &[0]),
            )
        };
        place.guild_install &= types.contains(&0);
        if !types.contains(&1) {
            place.user_install = None;
        }
        let offered = contexts.contains(&u64::from(place.context))
            && (place.guild_install || place.user_install.is_some());
        if offered {
            Ok(place)
        } else {
            Err(FakeError::CommandNotOffered {
                name: name.to_string(),
                context: place.context,
            })
        }
    }

    fn component(
        &self,
        user: &SimUser,
        message_id: u64,
        data: Value,
    ) -> Result<SentInteraction, FakeError> {
        let channel_id = self
            .shared
            .read(|s| s.message(message_id).map(|m| m.channel_id))
            .ok_or(FakeError::UnknownMessage(message_id))?;
        self.dispatch_interaction(user, channel_id, 3, Some(message_id), |s, place| {
            let message = s
                .message(message_id)
                .ok_or(FakeError::UnknownMessage(message_id))?;
            // A component on a message an interaction answered is authorized as that
            // interaction was: anyone in a group DM can press the buttons of an app only
            // the command's user installed.
            let place = message
                .json
                .pointer("/interaction_metadata/id")
                .and_then(Value::as_str)
                .and_then(|id| id.parse::<u64>().ok())
                .and_then(|id| s.interactions.get(&id))
                .map_or(place, |origin| origin.place.clone());
            Ok((data, Some(message.json.clone()), place))
        })
    }

    /// Dispatches a button click (interaction type 3 MESSAGE_COMPONENT, component type 2)
    /// on `custom_id` of the stored message `message_id`, in that message's channel
    /// (<https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-message-component-data-structure>).
    ///
    /// # Errors
    /// [`FakeError::UnknownMessage`], [`FakeError::NoGatewaySession`], [`FakeError::BotNotInGuild`].
    pub fn click_button(
        &self,
        user: &SimUser,
        message_id: u64,
        custom_id: &str,
    ) -> Result<SentInteraction, FakeError> {
        self.component(
            user,
            message_id,
            json!({ "custom_id": custom_id, "component_type": 2 }),
        )
    }

    /// Dispatches a string select choice (interaction type 3, component type 3) with the
    /// chosen `values` on `custom_id` of the stored message `message_id`.
    ///
    /// # Errors
    /// [`FakeError::UnknownMessage`], [`FakeError::NoGatewaySession`], [`FakeError::BotNotInGuild`].
    pub fn select_menu(
        &self,
        user: &SimUser,
        message_id: u64,
        custom_id: &str,
        values: &[&str],
    ) -> Result<SentInteraction, FakeError> {
        self.component(
            user,
            message_id,
            json!({ "custom_id": custom_id, "component_type": 3, "values": values }),
        )
    }

    /// Submits the modal that interaction `interaction_id` answered with (callback type 9),
    /// as its user pressing Submit: a MODAL_SUBMIT interaction (type 5) in the same channel,
    /// authorized as the first one, whose `data` holds the modal's `custom_id` and, per
    /// action row, its text input's `custom_id` and the `value` given for it in `values`
    /// (empty when not given)
    /// (<https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-modal-submit-data-structure>).
    /// A modal opened from a component carries that component's `message`, so its submit
    /// may be answered with UPDATE_MESSAGE or DEFERRED_UPDATE_MESSAGE on it.
    ///
    /// # Errors
    /// [`FakeError::NoModal`] when the interaction is unknown or answered otherwise; as
    /// [`FakeDiscord::click_button`].
    pub fn submit_modal(
        &self,
        user: &SimUser,
        interaction_id: u64,
        values: &[(&str, &str)],
    ) -> Result<SentInteraction, FakeError> {
        let (origin, modal) = self
            .shared
            .read(|s| {
                let origin = s.interactions.get(&interaction_id)?.clone();
                let modal = origin.modal.clone()?;
                Some((origin, modal))
            })
            .ok_or(FakeError::NoModal(interaction_id))?;
        let rows: Vec<Value> = modal["components"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|row| row["components"].get(0))
            .map(|input| {
                let id = input["custom_id"].as_str().unwrap_or_default();
                let value = values
                    .iter()
                    .find(|(name, _)| *name == id)
                    .map_or("", |(_, v)| *v);
                json!({ "type": 1, "components": [
                    { "type": 4, "custom_id": id, "value": value }
                ] })
            })
            .collect();
        let data = json!({ "custom_id": modal["custom_id"], "components": rows });
        self.dispatch_interaction(
            user,
            origin.channel_id,
            5,
            origin.component_message_id,
            move |s, _| {
                let message = origin
                    .component_message_id
                    .and_then(|id| s.message(id))
                    .map(|m| m.json.clone());
                Ok((data, message, origin.place.clone()))
            },
        )
    }

    /// Sends any dispatch event (`t` = `event`, `d` = `data`) to the connected bot; returns
    /// how many gateway sessions got it.
    pub fn dispatch_raw(&self, event: &str, data: Value) -> usize {
        self.shared.update(|s| s.broadcast(event, data))
    }

    // ---- reading records -----------------------------------------------------------------

    /// Everything the fake keeps of its traffic (every message with its earlier versions,
    /// request record, interaction and its payload, interaction response, their indexes,
    /// the threads' channel objects, the injected faults, the fault plan's random stream of
    /// every path it drew for, the gateway sessions' replay buffers and the per-route
    /// rate-limit windows), taken out of the fake with a copy of each left in its place.
    ///
    /// For a test that counts its process's live heap with the bot in it (the soak): the
    /// heap that dropping the returned records frees is exactly what the fake kept, so the
    /// rest is the bot's. The fake goes on serving from the copies, which hold the same
    /// contents; a copy's lists have no spare capacity, so it may take less heap than the
    /// records it replaced. Each state is taken under its own lock: call it while nothing
    /// talks to the fake, or what arrives meanwhile lands in either.
    pub fn take_records_leaving_copies(&self) -> TakenRecords {
        fn swap<T: Clone>(value: &mut T) -> T {
            let copy = value.clone();
            std::mem::replace(value, copy)
        }
        let (injected, fault_streams) = {
            let mut faults = self.shared.faults_lock();
            (swap(&mut faults.injected), swap(&mut faults.streams))
        };
        let rate_limit_windows = self.shared.ratelimits_lock().replace_windows_with_copy();
        self.shared.update(|s| TakenRecords {
            _messages: swap(&mut s.messages),
            _requests: swap(&mut s.requests),
            _interactions: swap(&mut s.interactions),
            _dispatched: swap(&mut s.dispatched),
            _interaction_by_token: swap(&mut s.interaction_by_token),
            _responses: swap(&mut s.responses),
            _message_by_nonce: swap(&mut s.message_by_nonce),
            _responses_by_interaction: swap(&mut s.responses_by_interaction),
            _response_cursor: swap(&mut s.response_cursor),
            _channels: swap(&mut s.channels),
            _thread_activity: swap(&mut s.thread_activity),
            _replay_buffers: s.gateway.replace_buffers_with_copies(),
            _injected: injected,
            _fault_streams: fault_streams,
            _rate_limit_windows: rate_limit_windows,
        })
    }

    /// Every REST request so far, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.read(|s| s.requests.clone())
    }

    /// The requests no route matched (answered 404 with code 0). Empty in a healthy test.
    pub fn unknown_routes(&self) -> Vec<RecordedRequest> {
        self.shared
            .read(|s| s.requests.iter().filter(|r| !r.matched).cloned().collect())
    }

    /// The messages currently in a channel (or thread, or DM), oldest first.
    pub fn messages_in(&self, channel_id: u64) -> Vec<FakeMessage> {
        self.shared.read(|s| {
            s.messages
                .iter()
                .filter(|m| m.channel_id == channel_id)
                .cloned()
                .collect()
        })
    }

    /// One stored message.
    pub fn message(&self, message_id: u64) -> Option<FakeMessage> {
        self.shared.read(|s| s.message(message_id).cloned())
    }

    /// One channel (text channel, thread or DM).
    pub fn channel(&self, channel_id: u64) -> Option<FakeChannel> {
        self.shared.read(|s| {
            s.channels.get(&channel_id).map(|json| FakeChannel {
                id: channel_id,
                json: json.clone(),
            })
        })
    }

    /// All threads (added by tests or created by the bot), in id order.
    pub fn threads(&self) -> Vec<FakeChannel> {
        self.shared.read(|s| {
            s.channels
                .iter()
                .map(|(id, json)| FakeChannel {
                    id: *id,
                    json: json.clone(),
                })
                .filter(FakeChannel::is_thread)
                .collect()
        })
    }

    /// Every file uploaded in a request the fake carried out (multipart `files[n]` parts),
    /// in order: an upload refused (a 429 past the rate limit, an injected fault) and sent
    /// again counts once.
    pub fn attachments(&self) -> Vec<RecordedFile> {
        self.shared.read(|s| {
            s.requests
                .iter()
                .filter(|r| r.status < 300)
                .flat_map(|r| r.body.files().iter().cloned())
                .collect()
        })
    }

    /// All responses so far to one interaction, in order.
    pub fn interaction_responses(&self, interaction_id: u64) -> Vec<InteractionResponse> {
        self.shared.read(|s| {
            s.responses_by_interaction
                .get(&interaction_id)
                .map(|at| at.iter().map(|&i| s.responses[i].clone()).collect())
                .unwrap_or_default()
        })
    }

    /// The commands the bot registered (global, then guild), as the fake stored them.
    pub fn registered_commands(&self) -> Vec<Value> {
        self.shared.read(|s| {
            let mut all = s.global_commands.clone();
            let mut guilds: Vec<_> = s.guild_commands.iter().collect();
            guilds.sort_by_key(|(id, _)| **id);
            all.extend(
                guilds
                    .into_iter()
                    .flat_map(|(_, list)| list.iter().cloned()),
            );
            all
        })
    }

    // ---- waiting -------------------------------------------------------------------------

    /// Waits until `check` returns `Some`, re-checking after every change of the state.
    async fn wait_for<T>(
        &self,
        what: impl FnOnce() -> String,
        timeout: Duration,
        mut check: impl FnMut(&mut State) -> Option<T>,
    ) -> Result<T, FakeError> {
        let mut changes = self.shared.changed.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            changes.borrow_and_update();
            if let Some(found) = check(&mut self.shared.lock()) {
                return Ok(found);
            }
            match tokio::time::timeout_at(deadline, changes.changed()).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) | Err(_) => {
                    return Err(FakeError::Timeout {
                        what: what(),
                        timeout,
                    });
                }
            }
        }
    }

    /// Waits until a bot has identified on the gateway (READY and GUILD_CREATE sent).
    ///
    /// # Errors
    /// [`FakeError::Timeout`].
    pub async fn wait_until_ready(&self, timeout: Duration) -> Result<(), FakeError> {
        self.wait_for(
            || "a bot to IDENTIFY on the gateway".into(),
            timeout,
            |s| {
                (s.identified_sessions > 0 && (!s.sessions.is_empty() || s.gateway.connected() > 0))
                    .then_some(())
            },
        )
        .await
    }

    /// Lean mode, for load runs: uploads are answered as usual (sizes and PNG dimensions in
    /// Attachment objects) but their bytes are not kept on messages, and the request log
    /// keeps each request's method, path, query and status without its body or response,
    /// so the fake's memory grows by about a hundred bytes a request instead of the
    /// payloads and board images. Attachment URLs then serve empty bodies.
    pub fn set_lean(&self, lean: bool) {
        self.shared.update(|s| s.lean = lean);
    }

    /// How many times a bot has identified on the gateway since the fake started (every
    /// IDENTIFY counts, also a restarted bot's).
    pub fn identified_sessions(&self) -> u64 {
        self.shared.lock().identified_sessions
    }

    /// Waits until a bot has identified more than `count` times in all: after a restart,
    /// `count` is [`FakeDiscord::identified_sessions`] read before it, so the wait ends with
    /// the new process's IDENTIFY, not the dead one's. Returns the new count.
    ///
    /// # Errors
    /// [`FakeError::Timeout`].
    pub async fn wait_until_identified_after(
        &self,
        count: u64,
        timeout: Duration,
    ) -> Result<u64, FakeError> {
        self.wait_for(
            || format!("a bot to IDENTIFY on the gateway (identified {count} times so far)"),
            timeout,
            |s| (s.identified_sessions > count).then_some(s.identified_sessions),
        )
        .await
    }

    /// Waits until the bot has registered application commands (global or guild) and
    /// returns them.
    ///
    /// # Errors
    /// [`FakeError::Timeout`].
    pub async fn wait_for_commands(&self, timeout: Duration) -> Result<Vec<Value>, FakeError> {
        self.wait_for(
            || "the bot to register application commands".into(),
            timeout,
            |s| {
                let registered = s
                    .requests
                    .iter()
                    .any(|r| r.path.ends_with("/commands") && r.method != "GET");
                registered.then(|| {
                    let mut all = s.global_commands.clone();
                    all.extend(s.guild_commands.values().flatten().cloned());
                    all
                })
            },
        )
        .await
    }

    /// Returns the next response to `interaction_id` not yet returned by this method
    /// (the first call returns the first response, the second call the second, ...),
    /// waiting for it if needed.
    ///
    /// # Errors
    /// [`FakeError::Timeout`] if it does not come in time.
    pub async fn next_interaction_response(
        &self,
        interaction_id: u64,
        timeout: Duration,
    ) -> Result<InteractionResponse, FakeError> {
        self.wait_for(
            || format!("a response to interaction {interaction_id}"),
            timeout,
            |s| {
                let seen = s.response_cursor.get(&interaction_id).copied().unwrap_or(0);
                let at = *s.responses_by_interaction.get(&interaction_id)?.get(seen)?;
                let next = s.responses[at].clone();
                s.response_cursor.insert(interaction_id, seen + 1);
                Some(next)
            },
        )
        .await
    }

    /// Waits until `channel_id` holds at least `count` messages and returns them all.
    ///
    /// # Errors
    /// [`FakeError::Timeout`].
    pub async fn wait_for_messages_in(
        &self,
        channel_id: u64,
        count: usize,
        timeout: Duration,
    ) -> Result<Vec<FakeMessage>, FakeError> {
        self.wait_for(
            || format!("{count} messages in channel {channel_id}"),
            timeout,
            |s| {
                let list: Vec<FakeMessage> = s
                    .messages
                    .iter()
                    .filter(|m| m.channel_id == channel_id)
                    .cloned()
                    .collect();
                (list.len() >= count).then_some(list)
            },
        )
        .await
    }

    /// Waits for the first recorded request (past or future) that `matches`, e.g. a
    /// `POST` whose path ends in `/messages` and whose status is 403.
    ///
    /// # Errors
    /// [`FakeError::Timeout`], naming `what`.
    pub async fn wait_for_request(
        &self,
        what: &str,
        timeout: Duration,
        mut matches: impl FnMut(&RecordedRequest) -> bool,
    ) -> Result<RecordedRequest, FakeError> {
        self.wait_for(
            || format!("a request: {what}"),
            timeout,
            |s| s.requests.iter().find(|r| matches(r)).cloned(),
        )
        .await
    }

    /// Enforces Discord's global limit of 50 requests per second (`true`, the default) or
    /// not (`false`: a benchmark that measures the bot rather than Discord's budget); see
    /// [`ratelimit`].
    pub fn set_global_rate_limit(&self, enforced: bool) {
        self.shared.ratelimits_lock().global_enforced = enforced;
    }

    /// Enforces the per-route limit of [`ratelimit::LIMIT`] requests per
    /// [`ratelimit::WINDOW`] per route and top-level resource (`true`, the default) or
    /// only announces it in the headers (`false`); see [`ratelimit`]. A fault plan's
    /// `rate_limits` applies either way.
    pub fn set_route_rate_limit(&self, enforced: bool) {
        self.shared.ratelimits_lock().route_enforced = enforced;
    }

    /// Subscribes to the state's change counter (bumped after every request, dispatch and
    /// setting change), for waits the helpers above do not cover.
    pub fn changes(&self) -> watch::Receiver<u64> {
        self.shared.changed.subscribe()
    }
}

/// The channel type of a public thread under `parent_id`: PUBLIC_THREAD (11) in a text or
/// forum channel, ANNOUNCEMENT_THREAD (10) in an announcement channel
/// (<https://discord.com/developers/docs/topics/threads#public-private-threads>).
///
/// # Errors
/// [`FakeError::UnknownChannel`] if `parent_id` is not a channel of the fake,
/// [`FakeError::WrongChannelType`] if it is a thread or a DM.
fn thread_kind_under(s: &State, parent_id: u64) -> Result<u8, FakeError> {
    match s.channel_type(parent_id) {
        None => Err(FakeError::UnknownChannel(parent_id)),
        Some(0 | 15) => Ok(11),
        Some(5) => Ok(10),
        Some(_) => Err(FakeError::WrongChannelType(parent_id)),
    }
}

#[cfg(test)]
mod tests;
