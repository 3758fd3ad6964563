//! The fake's state (channels, messages, interactions, recordings) and the REST routes that
//! read and change it. Routes are plain functions over [`State`] so that one lock covers a
//! whole request.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use serenity::model::permissions::Permissions;
use tokio::sync::mpsc;

use super::payloads::{self, SimUser, Snowflakes, snowflake_timestamp, user_json};
use super::records::{
    FakeAttachment, FakeMessage, InteractionResponse, RecordedBody, RecordedFile, RecordedRequest,
    ResponseKind,
};
use super::rules::{self, FormErrors};

/// Name of the bot user the fake logs the bot in as.
pub(crate) const BOT_USERNAME: &str = "Kaboom";
/// Name of the fake's first guild (the others are "Kaboom Test Guild 2", "... 3", ...).
pub(crate) const GUILD_NAME: &str = "Kaboom Test Guild";
/// Name of each guild's text channel.
pub(crate) const TEXT_CHANNEL_NAME: &str = "kaboom";

/// The most guilds a fake may start with ([`crate::FakeDiscord::start_with_guilds`]).
pub const MAX_GUILDS: usize = 100;

/// One guild (server) of the fake: its id, name and text channel, and whether the bot is
/// (still) a member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeGuild {
    /// The guild's snowflake id (its shard is `(id >> 22) % num_shards`).
    pub id: u64,
    /// The guild's name (`Kaboom Test Guild`, `Kaboom Test Guild 2`, ...).
    pub name: String,
    /// The id of its text channel (`#kaboom`).
    pub text_channel_id: u64,
    /// Whether the bot is in the guild: `false` after
    /// [`crate::FakeDiscord::remove_bot_from_guild`].
    pub bot_member: bool,
    /// Roles added with [`crate::FakeDiscord::add_role`]: (id, name), after `@everyone`
    /// and Admin.
    pub roles: Vec<(u64, String)>,
    /// Users who left the guild ([`crate::FakeDiscord::remove_member`]): Get Guild Member
    /// answers 404 Unknown Member for them, and they cannot act there.
    pub departed: std::collections::BTreeSet<u64>,
}

/// Discord's shortest thread `auto_archive_duration`, in minutes ("60, 1440, 4320, 10080",
/// <https://discord.com/developers/docs/resources/channel#thread-metadata-object>).
const MIN_AUTO_ARCHIVE_MINUTES: u64 = 60;

/// An event for a connected gateway session: (dispatch event name, data).
pub(crate) type GatewayEvent = (String, Value);

/// An interaction the fake has dispatched and is waiting for answers to.
#[derive(Clone, Debug)]
pub(crate) struct InteractionInfo {
    pub id: u64,
    pub channel_id: u64,
    /// Set by the first callback; a second callback is an error (40060).
    pub acknowledged: bool,
    /// Set by a DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE callback until the "thinking" message
    /// is replaced by the first followup or an edit of `@original`.
    pub deferred_pending: bool,
    /// The "@original" response message, once there is one.
    pub original_message_id: Option<u64>,
    /// The message a component interaction was on (the target of UPDATE_MESSAGE).
    pub component_message_id: Option<u64>,
    /// When it was created, on the fake's clock ([`State::now`]).
    pub created_at: Duration,
    /// The user who triggered it (the `user` of the messages' `interaction_metadata`).
    pub user_id: u64,
    /// Its interaction type (2 APPLICATION_COMMAND, 3 MESSAGE_COMPONENT, ...).
    pub kind: u8,
    /// The command's name, for application commands.
    pub command: Option<String>,
    /// Where it came from and which installations authorized it.
    pub place: Place,
    /// Follow-up messages created with its token so far (see [`MAX_USER_INSTALL_FOLLOWUPS`]).
    pub followups: u32,
    /// The modal it answered with (callback type 9), which the user may submit
    /// ([`crate::FakeDiscord::submit_modal`]).
    pub modal: Option<Value>,
}

/// Where an interaction comes from: its interaction context and the installations of the
/// app that authorize it there
/// (<https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-context-types>,
/// "Authorizing Integration Owners Object" on the same page).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Place {
    /// 0 GUILD, 1 BOT_DM ("Interaction can be used within DMs with the app's bot user"), 2
    /// PRIVATE_CHANNEL ("Interaction can be used within Group DMs and DMs other than the
    /// app's bot user").
    pub context: u8,
    /// The guild, in context 0.
    pub guild: Option<u64>,
    /// The server installation authorizes it: the bot is in the guild (context 0), or shares
    /// a guild with the user (context 1: "An individual app's global commands are also
    /// available in DMs if that app has a bot that shares a mutual guild with the user",
    /// https://discord.com/developers/docs/interactions/application-commands#registering-a-command).
    pub guild_install: bool,
    /// The user who installed the app to their account, when that installation authorizes
    /// it.
    pub user_install: Option<u64>,
}

impl Place {
    /// The `authorizing_integration_owners` object: "0" (GUILD_INSTALL) maps to the guild's
    /// id, or to "0" when used in the bot's DM; "1" (USER_INSTALL) to the installing user's
    /// id ("Authorizing Integration Owners Object",
    /// https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-authorizing-integration-owners-object).
    pub fn owners_json(&self) -> Value {
        let mut owners = serde_json::Map::new();
        if self.guild_install {
            let key = self
                .guild
                .map_or_else(|| "0".to_string(), |g| g.to_string());
            owners.insert("0".into(), json!(key));
        }
        if let Some(user) = self.user_install {
            owners.insert("1".into(), json!(user.to_string()));
        }
        Value::Object(owners)
    }

    /// Whether only the user's installation authorizes it: the bot is not in the place.
    pub fn user_install_only(&self) -> bool {
        !self.guild_install && self.user_install.is_some()
    }
}

/// "Apps are limited to 5 followup messages per interaction if it was initiated from a
/// user-installed app and isn't installed in the server (meaning the authorizing
/// integration owners object only contains USER_INSTALL)"; past it Discord answers 40094
/// "This interaction has hit the maximum number of follow up messages"
/// (<https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages>,
/// JSON error codes: <https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes>).
pub(crate) const MAX_USER_INSTALL_FOLLOWUPS: u32 = 5;

/// "you must send an initial response within 3 seconds of receiving the event. If the 3
/// second deadline is exceeded, the token will be invalidated."
/// (<https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction>)
pub(crate) const INITIAL_RESPONSE_DEADLINE: Duration = Duration::from_secs(3);

/// "Interaction tokens are valid for 15 minutes"
/// (<https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages>).
pub(crate) const TOKEN_LIFETIME: Duration = Duration::from_secs(15 * 60);

/// Channel types (<https://discord.com/developers/docs/resources/channel#channel-object-channel-types>).
pub(crate) mod kind {
    pub const GUILD_TEXT: u64 = 0;
    pub const DM: u64 = 1;
    pub const GROUP_DM: u64 = 3;
    pub const GUILD_ANNOUNCEMENT: u64 = 5;
    pub const ANNOUNCEMENT_THREAD: u64 = 10;
    pub const PUBLIC_THREAD: u64 = 11;
    pub const PRIVATE_THREAD: u64 = 12;
    pub const GUILD_FORUM: u64 = 15;
}

/// A REST answer: status and JSON (`None` = 204 No Content).
pub(crate) type Reply = (u16, Option<Value>);

fn error(status: u16, code: u64, message: &str) -> Reply {
    (status, Some(json!({ "message": message, "code": code })))
}

fn unknown_channel() -> Reply {
    error(404, 10003, "Unknown Channel")
}

fn unknown_message() -> Reply {
    error(404, 10008, "Unknown Message")
}

fn unknown_interaction() -> Reply {
    error(404, 10062, "Unknown interaction")
}

/// 403 / 50013: the bot lacks a permission the action needs
/// (<https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes>).
fn missing_permissions() -> Reply {
    error(403, 50013, "Missing Permissions")
}

/// 403 / 50001: the bot cannot see the channel (no VIEW_CHANNEL).
fn missing_access() -> Reply {
    error(403, 50001, "Missing Access")
}

/// 50083 "Tried to perform an operation on an archived thread"
/// (<https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes>).
fn thread_archived(status: u16) -> Reply {
    error(status, 50083, "Thread is archived")
}

/// 400 / 50024 "Cannot execute action on this channel type".
fn wrong_channel_type() -> Reply {
    error(400, 50024, "Cannot execute action on this channel type")
}

/// The largest file a bot may upload: 10 MiB, the default file size limit of a server
/// without boosts that Discord applies to bots' uploads (checked for 2024-2025;
/// "Uploading Files", <https://discord.com/developers/docs/reference#uploading-files>).
pub const MAX_UPLOAD_BYTES: usize = 10 * 1024 * 1024;

/// 413 / 40005 "Request entity too large" when a file is over [`MAX_UPLOAD_BYTES`]
/// (JSON error code 40005,
/// <https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes>;
/// Discord answers an over-limit upload with HTTP 413 Payload Too Large, as reported in
/// <https://github.com/discord/discord-api-docs/issues/6058>).
fn too_large_upload(files: &[RecordedFile]) -> Option<Reply> {
    files
        .iter()
        .any(|f| f.bytes.len() > MAX_UPLOAD_BYTES)
        .then(|| error(413, 40005, "Request entity too large"))
}

/// 400 / 30015 "Maximum number of attachments in a message reached (10)".
fn too_many_attachments(files: &[RecordedFile]) -> Option<Reply> {
    (files.len() > rules::MAX_ATTACHMENTS).then(|| {
        error(
            400,
            30015,
            "Maximum number of attachments in a message reached (10)",
        )
    })
}

/// The 50035 answer for a message body over Discord's limits, if it is.
fn message_form_errors(body: &Value, path: &[&str]) -> Option<Reply> {
    let mut errors = FormErrors::default();
    let path: Vec<String> = path.iter().map(|p| (*p).to_string()).collect();
    rules::check_message(body, &path, &mut errors);
    errors.reply()
}

fn invalid_body(what: &str) -> Reply {
    (
        400,
        Some(json!({
            "message": "Invalid Form Body",
            "code": 50035,
            "errors": { "_errors": [{ "code": "BASE_TYPE_REQUIRED", "message": what }] }
        })),
    )
}

fn parse_id(segment: &str) -> Option<u64> {
    segment.parse().ok()
}

/// Everything the fake knows.
#[derive(Debug)]
pub(crate) struct State {
    pub ids: Snowflakes,
    pub base_url: String,
    pub application_id: u64,
    pub bot_user_id: u64,
    /// The first guild's id and text channel (the one-guild API: `guild_id()`, ...).
    pub guild_id: u64,
    pub text_channel_id: u64,
    /// Every guild, the first one first.
    pub guilds: Vec<FakeGuild>,
    pub users: HashMap<u64, SimUser>,
    pub channels: BTreeMap<u64, Value>,
    pub dm_by_user: HashMap<u64, u64>,
    pub refused_dm_users: HashSet<u64>,
    /// Users who installed the app to their account (USER_INSTALL).
    pub user_installs: HashSet<u64>,
    pub messages: Vec<FakeMessage>,
    pub requests: Vec<RecordedRequest>,
    pub interactions: HashMap<u64, InteractionInfo>,
    /// Each dispatched interaction's INTERACTION_CREATE payload, apart from
    /// [`InteractionInfo`], which every webhook request clones.
    pub dispatched: HashMap<u64, Value>,
    /// Commands a server allowed to a member on its Integrations page, whatever their
    /// `default_member_permissions`: (guild, command name, user).
    pub command_overrides: std::collections::BTreeSet<(u64, String, u64)>,
    pub interaction_by_token: HashMap<String, u64>,
    pub responses: Vec<InteractionResponse>,
    /// The message created in a channel with a nonce (the nonce as JSON text): Create
    /// Message's `enforce_nonce` looks here instead of reading every message's JSON.
    pub message_by_nonce: HashMap<(u64, String), u64>,
    /// Where each interaction's responses are in `responses`, in order: a long-poll for
    /// the next response looks there instead of scanning every response so far.
    pub responses_by_interaction: HashMap<u64, Vec<usize>>,
    pub response_cursor: HashMap<u64, usize>,
    pub global_commands: Vec<Value>,
    pub guild_commands: HashMap<u64, Vec<Value>>,
    /// Sessions without a WebSocket ([`crate::FakeDiscord::detached_session`]).
    pub sessions: Vec<mpsc::UnboundedSender<GatewayEvent>>,
    /// The WebSocket gateway sessions (resumable).
    pub gateway: crate::gateway::Sessions,
    pub identified_sessions: u64,
    /// Lean mode ([`crate::FakeDiscord::set_lean`]): no upload bytes kept.
    pub lean: bool,
    /// The only bot token accepted (REST `Authorization: Bot <token>`, gateway IDENTIFY
    /// and RESUME); `None`: any token (the default).
    pub bot_token: Option<String>,
    /// The bot's guild-wide permissions (every permission unless a test narrows them).
    pub bot_permissions: Permissions,
    /// The bot's permission overwrites per channel: (allow, deny).
    pub bot_overwrites: HashMap<u64, (Permissions, Permissions)>,
    /// The fake's clock: real time since start plus what tests added with `advance`.
    pub started: Instant,
    pub clock_offset: Duration,
    /// Last activity of each thread on the fake's clock (creation, message, unarchive,
    /// change of auto_archive_duration), for auto-archiving.
    pub thread_activity: HashMap<u64, Duration>,
    /// No thread can be due to auto-archive before this time on the fake's clock: the scan
    /// of every thread ([`State::archive_idle_threads`], run before each request) is
    /// skipped until then.
    pub archive_check_at: Duration,
}

impl State {
    /// The state of a fake with `guild_count` guilds (at least 1). Ids come in this order:
    /// the application, every guild (consecutive snowflakes: one millisecond apart, so
    /// `(id >> 22) % n` takes every value for any `n <= guild_count`), then each guild's
    /// text channel. With one guild, the ids are the ones the fake always had.
    pub(crate) fn new(base_url: String, guild_count: usize) -> Self {
        let guild_count = guild_count.clamp(1, MAX_GUILDS);
        let mut ids = Snowflakes::new();
        let application_id = ids.next();
        let bot_user_id = application_id;
        let guild_ids: Vec<u64> = (0..guild_count).map(|_| ids.next()).collect();
        let guilds: Vec<FakeGuild> = guild_ids
            .iter()
            .enumerate()
            .map(|(i, &id)| FakeGuild {
                id,
                name: if i == 0 {
                    GUILD_NAME.to_string()
                } else {
                    format!("{GUILD_NAME} {}", i + 1)
                },
                text_channel_id: ids.next(),
                bot_member: true,
                roles: Vec::new(),
                departed: Default::default(),
            })
            .collect();
        let guild_id = guilds[0].id;
        let text_channel_id = guilds[0].text_channel_id;
        let mut state = Self {
            ids,
            base_url,
            application_id,
            bot_user_id,
            guild_id,
            text_channel_id,
            guilds: guilds.clone(),
            users: HashMap::new(),
            channels: BTreeMap::new(),
            dm_by_user: HashMap::new(),
            refused_dm_users: HashSet::new(),
            user_installs: HashSet::new(),
            messages: Vec::new(),
            requests: Vec::new(),
            interactions: HashMap::new(),
            dispatched: HashMap::new(),
            command_overrides: std::collections::BTreeSet::new(),
            interaction_by_token: HashMap::new(),
            responses: Vec::new(),
            message_by_nonce: HashMap::new(),
            responses_by_interaction: HashMap::new(),
            response_cursor: HashMap::new(),
            global_commands: Vec::new(),
            guild_commands: HashMap::new(),
            sessions: Vec::new(),
            gateway: crate::gateway::Sessions::default(),
            identified_sessions: 0,
            lean: false,
            bot_token: None,
            bot_permissions: Permissions::all(),
            bot_overwrites: HashMap::new(),
            started: Instant::now(),
            clock_offset: Duration::ZERO,
            thread_activity: HashMap::new(),
            archive_check_at: Duration::ZERO,
        };
        for guild in &guilds {
            let channel =
                state.guild_channel_json(guild.id, guild.text_channel_id, TEXT_CHANNEL_NAME, 0);
            state.channels.insert(guild.text_channel_id, channel);
        }
        state
    }

    /// The guild `guild_id`, if the fake has it.
    pub(crate) fn guild(&self, guild_id: u64) -> Option<&FakeGuild> {
        self.guilds.iter().find(|g| g.id == guild_id)
    }

    /// Guild `guild_id`, to change.
    ///
    /// # Errors
    /// [`crate::FakeError::UnknownGuild`].
    pub(crate) fn guild_mut(&mut self, guild_id: u64) -> Result<&mut FakeGuild, crate::FakeError> {
        self.guilds
            .iter_mut()
            .find(|g| g.id == guild_id)
            .ok_or(crate::FakeError::UnknownGuild(guild_id))
    }

    /// The guild a channel (or thread) belongs to; `None` for DM channels and unknown ids.
    pub(crate) fn guild_of_channel(&self, channel_id: u64) -> Option<u64> {
        self.channels
            .get(&channel_id)?
            .get("guild_id")?
            .as_str()?
            .parse()
            .ok()
    }

    /// Whether the bot is in guild `guild_id` (a guild of the fake it was not removed from).
    /// The role JSON of role `role_id` added to guild `guild_id` with
    /// [`crate::FakeDiscord::add_role`], if there is one.
    pub(crate) fn added_role_json(&self, guild_id: u64, role_id: u64) -> Option<Value> {
        let guild = self.guild(guild_id)?;
        let (position, (id, name)) = (2..)
            .zip(&guild.roles)
            .find(|(_, (id, _))| *id == role_id)?;
        Some(payloads::role_json(*id, name, position, "0"))
    }

    pub(crate) fn bot_in_guild(&self, guild_id: u64) -> bool {
        self.guild(guild_id).is_some_and(|g| g.bot_member)
    }

    /// Whether `channel_id` is in a guild of the fake that the bot is not in (it was
    /// removed): Discord answers 403 / 50001 Missing Access to the bot there.
    pub(crate) fn channel_in_left_guild(&self, channel_id: u64) -> bool {
        self.guild_of_channel(channel_id)
            .is_some_and(|g| self.guild(g).is_some_and(|g| !g.bot_member))
    }

    pub(crate) fn gateway_url(&self) -> String {
        format!("{}/gateway", self.base_url.replacen("http://", "ws://", 1))
    }

    // ---- objects -------------------------------------------------------------------------

    /// The bot's User object (as in READY and `GET /users/@me`).
    pub(crate) fn bot_user_json(&self) -> Value {
        let mut user = user_json(self.bot_user_id, BOT_USERNAME, None, true);
        user["verified"] = json!(true);
        user["mfa_enabled"] = json!(false);
        user["email"] = Value::Null;
        user
    }

    pub(crate) fn user_json(&self, id: u64) -> Value {
        if id == self.bot_user_id {
            return self.bot_user_json();
        }
        match self.users.get(&id) {
            Some(user) => user.to_json(),
            None => user_json(id, &format!("user{id}"), None, false),
        }
    }

    /// A channel of guild `guild_id` of type `kind` (0 GUILD_TEXT, 5 GUILD_ANNOUNCEMENT,
    /// 15 GUILD_FORUM; <https://discord.com/developers/docs/resources/channel#channel-object>).
    pub(crate) fn guild_channel_json(
        &self,
        guild_id: u64,
        id: u64,
        name: &str,
        kind: u64,
    ) -> Value {
        json!({
            "id": id.to_string(),
            "type": kind,
            "guild_id": guild_id.to_string(),
            "name": name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": false,
            "topic": null,
            "last_message_id": null,
            "parent_id": null,
            "rate_limit_per_user": 0,
            "flags": 0,
        })
    }

    /// A thread channel (type 11 public, 12 private) with `thread_metadata`
    /// (<https://discord.com/developers/docs/resources/channel#thread-metadata-object>).
    /// A thread is in its parent's guild.
    pub(crate) fn thread_json(&self, id: u64, parent_id: u64, name: &str, kind: u8) -> Value {
        let guild_id = self.guild_of_channel(parent_id).unwrap_or(self.guild_id);
        json!({
            "id": id.to_string(),
            "type": kind,
            "guild_id": guild_id.to_string(),
            "parent_id": parent_id.to_string(),
            "owner_id": self.bot_user_id.to_string(),
            "name": name,
            "last_message_id": null,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "rate_limit_per_user": 0,
            "flags": 0,
            "permission_overwrites": [],
            "nsfw": false,
            "thread_metadata": {
                "archived": false,
                "auto_archive_duration": 10080,
                "archive_timestamp": snowflake_timestamp(id),
                "locked": false,
                "invitable": true,
                "create_timestamp": snowflake_timestamp(id),
            },
        })
    }

    /// The Guild object sent in GUILD_CREATE
    /// (<https://discord.com/developers/docs/resources/guild#guild-object> plus the extra
    /// fields of <https://discord.com/developers/docs/events/gateway-events#guild-create>).
    ///
    /// `members` holds only the bot unless the bot asked for GUILD_PRESENCES: "When initially
    /// connecting, if you don't have the GUILD_PRESENCES Gateway Intent, ... it will only
    /// send members who are in voice, plus the member for you (the connecting user)"
    /// (<https://discord.com/developers/docs/events/gateway-events#request-guild-members>).
    ///
    /// Every user the fake knows is a member of every guild.
    pub(crate) fn guild_create_json(&self, guild: &FakeGuild, presences_intent: bool) -> Value {
        let admin_role = Self::admin_role_of(guild.id);
        let joined_at = snowflake_timestamp(guild.id);
        let guild_id = guild.id.to_string();
        let everyone = payloads::role_json(
            guild.id,
            "@everyone",
            0,
            &payloads::MEMBER_PERMISSIONS.bits().to_string(),
        );
        // Administrators (the bot, and users with Administrator) have this role.
        let admin = payloads::role_json(admin_role, "Admin", 1, payloads::ALL_PERMISSIONS);
        let mut roles = vec![everyone, admin];
        roles.extend(
            guild
                .roles
                .iter()
                .zip(2..)
                .map(|((id, name), position)| payloads::role_json(*id, name, position, "0")),
        );
        let mut members = vec![payloads::member_json(
            &self.bot_user_json(),
            &joined_at,
            vec![admin_role],
        )];
        let mut user_ids: Vec<&u64> = self.users.keys().collect();
        user_ids.sort();
        for id in user_ids
            .into_iter()
            .filter(|id| presences_intent && !guild.departed.contains(id))
        {
            let user = &self.users[id];
            members.push(payloads::member_json(
                &user.to_json(),
                &joined_at,
                user.roles(admin_role),
            ));
        }
        let (channels, threads): (Vec<Value>, Vec<Value>) = self
            .channels
            .values()
            .filter(|c| c["guild_id"].as_str() == Some(guild_id.as_str()))
            .cloned()
            .partition(|c| !matches!(c["type"].as_u64(), Some(10..=12)));
        let mut guild = json!({
            "id": guild_id,
            "name": guild.name,
            "icon": null,
            "splash": null,
            "discovery_splash": null,
            "owner_id": self.users.keys().min().copied().unwrap_or(self.bot_user_id).to_string(),
            "afk_channel_id": null,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": roles,
            "emojis": [],
            "features": [],
            "mfa_level": 0,
            "application_id": null,
            "system_channel_id": null,
            "system_channel_flags": 0,
            "rules_channel_id": null,
            "max_members": 500000,
            "vanity_url_code": null,
            "description": null,
            "banner": null,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": null,
            "nsfw_level": 0,
            "stickers": [],
            "premium_progress_bar_enabled": false,
            "safety_alerts_channel_id": null,
        });
        let extra = json!({
            "joined_at": joined_at,
            "large": false,
            "unavailable": false,
            "member_count": 1 + self.users.len(),
            "voice_states": [],
            "members": members,
            "channels": channels,
            "threads": threads,
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
        });
        if let (Some(guild), Value::Object(extra)) = (guild.as_object_mut(), extra) {
            guild.extend(extra);
        }
        guild
    }

    /// The guilds the bot is in whose events go to a session of `shard`
    /// (`[shard_id, num_shards]`): those with `(guild_id >> 22) % num_shards == shard_id`.
    pub(crate) fn guilds_of_shard(&self, shard: (u64, u64)) -> Vec<&FakeGuild> {
        self.guilds
            .iter()
            .filter(|g| g.bot_member && crate::gateway::shard_gets(shard, Some(g.id)))
            .collect()
    }

    /// The READY event data (<https://discord.com/developers/docs/events/gateway-events#ready>)
    /// of a session of `shard` (`[shard_id, num_shards]`, echoed): the guilds of that shard
    /// ([`State::guilds_of_shard`]) are listed as unavailable (their GUILD_CREATEs follow).
    pub(crate) fn ready_json(&self, session_id: &str, shard: (u64, u64)) -> Value {
        let guilds: Vec<Value> = self
            .guilds_of_shard(shard)
            .into_iter()
            .map(|g| json!({ "id": g.id.to_string(), "unavailable": true }))
            .collect();
        json!({
            "v": 10,
            "user": self.bot_user_json(),
            "guilds": guilds,
            "session_id": session_id,
            "resume_gateway_url": self.gateway_url(),
            "shard": [shard.0, shard.1],
            "application": { "id": self.application_id.to_string(), "flags": 0 },
        })
    }

    /// The Application object (<https://discord.com/developers/docs/resources/application#application-object>).
    fn application_json(&self) -> Value {
        let owner = self
            .users
            .keys()
            .min()
            .map(|id| self.user_json(*id))
            .unwrap_or_else(|| user_json(1, "owner", None, false));
        json!({
            "id": self.application_id.to_string(),
            "name": "Kaboom",
            "icon": null,
            "description": "Explosive chess variants by correspondence (fake Discord).",
            "rpc_origins": [],
            "bot_public": true,
            "bot_require_code_grant": false,
            "bot": self.bot_user_json(),
            "owner": owner,
            "verify_key": "0000000000000000000000000000000000000000000000000000000000000000",
            "team": null,
            "flags": 0,
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": null,
            "approximate_guild_count": self.guilds.iter().filter(|g| g.bot_member).count(),
        })
    }

    /// The id of guild `guild_id`'s Admin role (every permission): the guild's snowflake
    /// with increment 1, which the id generator (increment 0) never makes.
    pub(crate) fn admin_role_of(guild_id: u64) -> u64 {
        guild_id + 1
    }

    // ---- clock, permissions, thread state ---------------------------------------------

    /// The fake's clock: real time since the fake started plus every
    /// [`crate::FakeDiscord::advance`].
    pub(crate) fn now(&self) -> Duration {
        self.started.elapsed() + self.clock_offset
    }

    pub(crate) fn channel_type(&self, channel_id: u64) -> Option<u64> {
        self.channels.get(&channel_id)?["type"].as_u64()
    }

    pub(crate) fn is_thread(&self, channel_id: u64) -> bool {
        matches!(
            self.channel_type(channel_id),
            Some(kind::ANNOUNCEMENT_THREAD | kind::PUBLIC_THREAD | kind::PRIVATE_THREAD)
        )
    }

    /// Whether `channel_id` is a thread that is archived and not locked.
    pub(crate) fn thread_is_archived_unlocked(&self, channel_id: u64) -> bool {
        self.thread_flag(channel_id, "archived") && !self.thread_flag(channel_id, "locked")
    }

    fn thread_flag(&self, channel_id: u64, flag: &str) -> bool {
        self.channels
            .get(&channel_id)
            .is_some_and(|c| c["thread_metadata"][flag] == json!(true))
    }

    /// The bot's permissions in a channel, computed as Discord does
    /// (<https://discord.com/developers/docs/topics/permissions#permission-overwrites>): the
    /// guild-wide set, every permission with ADMINISTRATOR, else the channel's overwrite
    /// (`(base & !deny) | allow`); threads take their parent's
    /// (<https://discord.com/developers/docs/topics/threads#permissions>); without
    /// VIEW_CHANNEL nothing else applies
    /// (<https://discord.com/developers/docs/topics/permissions#implicit-permissions>). DM
    /// channels are not guild channels: every permission.
    pub(crate) fn bot_permissions_in(&self, channel_id: u64) -> Permissions {
        if self.channel_is_in_guild(channel_id) != Some(true) {
            return Permissions::all();
        }
        let base = self.bot_permissions;
        if base.administrator() {
            return Permissions::all();
        }
        let target = if self.is_thread(channel_id) {
            self.channels[&channel_id]["parent_id"]
                .as_str()
                .and_then(parse_id)
                .unwrap_or(channel_id)
        } else {
            channel_id
        };
        let effective = match self.bot_overwrites.get(&target) {
            Some((allow, deny)) => (base & !*deny) | *allow,
            None => base,
        };
        if effective.view_channel() {
            effective
        } else {
            Permissions::empty()
        }
    }

    /// The bot's permissions as Discord writes them (`app_permissions`).
    pub(crate) fn app_permissions_string(&self, channel_id: u64) -> String {
        payloads::permissions_string(self.bot_permissions_in(channel_id))
    }

    /// Records activity in a thread (resets its auto-archive timer).
    pub(crate) fn touch_thread(&mut self, thread_id: u64) {
        if self.is_thread(thread_id) {
            let now = self.now();
            self.thread_activity.insert(thread_id, now);
            // Its new deadline is at least Discord's shortest auto-archive duration away.
            self.archive_check_at = self
                .archive_check_at
                .min(now + Duration::from_secs(MIN_AUTO_ARCHIVE_MINUTES * 60));
        }
    }

    /// A timestamp on the fake's clock, for `archive_timestamp`: the first snowflake's time
    /// plus the fake's elapsed time.
    fn clock_timestamp(&self) -> String {
        let ms = u64::try_from(self.now().as_millis()).unwrap_or(u64::MAX >> 23);
        let first = Snowflakes::new().next();
        snowflake_timestamp(first + (ms << 22))
    }

    /// Archives (or unarchives) a thread, updating `archive_timestamp` ("changed when
    /// creating, archiving, or unarchiving a thread",
    /// <https://discord.com/developers/docs/topics/threads>) and sending THREAD_UPDATE.
    pub(crate) fn set_archived(&mut self, thread_id: u64, archived: bool) {
        if !archived {
            // An active thread again: its deadline counts from now on.
            self.archive_check_at = Duration::ZERO;
        }
        let timestamp = self.clock_timestamp();
        let Some(channel) = self.channels.get_mut(&thread_id) else {
            return;
        };
        if channel.get("thread_metadata").is_none() {
            return;
        }
        channel["thread_metadata"]["archived"] = json!(archived);
        channel["thread_metadata"]["archive_timestamp"] = json!(timestamp);
        let event = channel.clone();
        if !archived {
            self.touch_thread(thread_id);
        }
        self.broadcast("THREAD_UPDATE", event);
    }

    /// Archives the threads idle for their `auto_archive_duration` (minutes) on the fake's
    /// clock: "Threads automatically archive after a period of inactivity ... 'Activity' is
    /// defined as sending a message, unarchiving a thread, or changing the auto-archive time"
    /// (<https://discord.com/developers/docs/topics/threads#active-archived-threads>).
    pub(crate) fn archive_idle_threads(&mut self) {
        let now = self.now();
        if now < self.archive_check_at {
            return;
        }
        let mut earliest: Option<Duration> = None;
        let idle: Vec<u64> = self
            .channels
            .iter()
            .filter(|(_, c)| c["thread_metadata"]["archived"] == json!(false))
            .filter_map(|(id, c)| {
                let minutes = c["thread_metadata"]["auto_archive_duration"].as_u64()?;
                let since = self.thread_activity.get(id).copied().unwrap_or_default();
                let due = since + Duration::from_secs(minutes * 60);
                if now >= due {
                    return Some(*id);
                }
                earliest = Some(earliest.map_or(due, |e| e.min(due)));
                None
            })
            .collect();
        // Until the earliest deadline of the threads left active, nothing can be due (new
        // activity only moves deadlines later, or lowers this mark: `touch_thread`).
        self.archive_check_at = earliest.unwrap_or(Duration::MAX);
        for id in idle {
            self.set_archived(id, true);
        }
    }

    pub(crate) fn channel_is_in_guild(&self, channel_id: u64) -> Option<bool> {
        self.channels
            .get(&channel_id)
            .map(|c| c["guild_id"].as_str().is_some())
    }

    /// The partial channel put in interactions (`channel` field).
    pub(crate) fn partial_channel_json(&self, channel_id: u64) -> Option<Value> {
        let channel = self.channels.get(&channel_id)?;
        let mut partial = json!({
            "id": channel["id"],
            "type": channel["type"],
            "name": channel.get("name").cloned().unwrap_or(Value::Null),
            "permissions": payloads::ALL_PERMISSIONS,
        });
        if let Some(parent) = channel.get("parent_id").filter(|p| !p.is_null()) {
            partial["parent_id"] = parent.clone();
        }
        if let Some(meta) = channel.get("thread_metadata") {
            partial["thread_metadata"] = meta.clone();
        }
        if let Some(guild) = channel.get("guild_id") {
            partial["guild_id"] = guild.clone();
        }
        if let Some(recipients) = channel.get("recipients") {
            partial["recipients"] = recipients.clone();
        }
        Some(partial)
    }

    // ---- channels ------------------------------------------------------------------------

    /// The DM channel with `user_id`, created on first use (Create DM,
    /// <https://discord.com/developers/docs/resources/user#create-dm>).
    pub(crate) fn dm_channel(&mut self, user_id: u64) -> u64 {
        if let Some(id) = self.dm_by_user.get(&user_id) {
            return *id;
        }
        let id = self.ids.next();
        let channel = json!({
            "id": id.to_string(),
            "type": 1,
            "last_message_id": null,
            "flags": 0,
            "recipients": [self.user_json(user_id)],
        });
        self.channels.insert(id, channel);
        self.dm_by_user.insert(user_id, id);
        id
    }

    /// A group DM (type 3 GROUP_DM) of `members`, owned by the first; the bot is not a
    /// recipient (a bot cannot be added to a group DM).
    pub(crate) fn add_group_dm(&mut self, members: &[SimUser]) -> u64 {
        let id = self.ids.next();
        for member in members {
            self.users.insert(member.id, member.clone());
        }
        let channel = json!({
            "id": id.to_string(),
            "type": kind::GROUP_DM,
            "name": null,
            "icon": null,
            "last_message_id": null,
            "flags": 0,
            "owner_id": members.first().map(|m| m.id.to_string()),
            "recipients": members.iter().map(SimUser::to_json).collect::<Vec<_>>(),
        });
        self.channels.insert(id, channel);
        id
    }

    /// Whether `user_id` is in a guild the bot is in (they "share a server").
    pub(crate) fn shares_guild_with_bot(&self, user_id: u64) -> bool {
        self.guilds
            .iter()
            .any(|g| g.bot_member && !g.departed.contains(&user_id))
    }

    /// Where an interaction by `user_id` in `channel_id` comes from, and what authorizes it
    /// there (see [`Place`]); `None` for an unknown channel.
    pub(crate) fn place_of(&self, channel_id: u64, user_id: u64) -> Option<Place> {
        let channel = self.channels.get(&channel_id)?;
        let user_install = self.user_installs.contains(&user_id).then_some(user_id);
        let guild = self.guild_of_channel(channel_id);
        Some(match (guild, channel["type"].as_u64()) {
            (Some(guild), _) => Place {
                context: 0,
                guild: Some(guild),
                guild_install: self.bot_in_guild(guild),
                user_install,
            },
            (None, Some(kind::DM)) if self.dm_recipient(channel_id) == Some(user_id) => Place {
                context: 1,
                guild: None,
                guild_install: self.shares_guild_with_bot(user_id),
                user_install,
            },
            (None, _) => Place {
                context: 2,
                guild: None,
                guild_install: false,
                user_install,
            },
        })
    }

    /// The registered command `name` as offered in guild `guild` (that guild's commands
    /// first, then the global ones).
    pub(crate) fn registered_command(&self, name: &str, guild: Option<u64>) -> Option<&Value> {
        guild
            .and_then(|g| self.guild_commands.get(&g))
            .and_then(|list| list.iter().find(|c| c["name"] == name))
            .or_else(|| self.global_commands.iter().find(|c| c["name"] == name))
    }

    /// Adds a thread under `parent_id` and returns its id.
    pub(crate) fn add_thread(
        &mut self,
        parent_id: u64,
        name: &str,
        kind: u8,
        id: Option<u64>,
    ) -> u64 {
        let id = id.unwrap_or_else(|| self.ids.next());
        let thread = self.thread_json(id, parent_id, name, kind);
        self.channels.insert(id, thread);
        self.touch_thread(id);
        id
    }

    /// Whether the bot may write in `channel_id` (Create Message, a forum post's first
    /// message): `Err` with Discord's answer if not.
    fn check_can_send(&self, channel_id: u64, files: &[RecordedFile]) -> Result<(), Reply> {
        let permissions = self.bot_permissions_in(channel_id);
        let in_guild = self.channel_is_in_guild(channel_id) == Some(true);
        if in_guild && !permissions.view_channel() {
            return Err(missing_access());
        }
        // "Messages cannot be sent directly in forum channels."
        // (https://discord.com/developers/docs/topics/threads#forums); 50008 "Cannot send
        // messages in a non-text channel".
        if self.channel_type(channel_id) == Some(kind::GUILD_FORUM) {
            return Err(error(
                400,
                50008,
                "Cannot send messages in a non-text channel",
            ));
        }
        if in_guild {
            // "When operating on a guild channel, the current user must have the
            // SEND_MESSAGES permission" (https://discord.com/developers/docs/resources/message#create-message-limitations);
            // in threads SEND_MESSAGES_IN_THREADS instead: "The SEND_MESSAGES permission is
            // not inherited; users must have SEND_MESSAGES_IN_THREADS to send a message in a
            // thread" (https://discord.com/developers/docs/topics/permissions#implicit-permissions).
            let needed = if self.is_thread(channel_id) {
                Permissions::SEND_MESSAGES_IN_THREADS
            } else {
                Permissions::SEND_MESSAGES
            };
            if !permissions.contains(needed) {
                return Err(missing_permissions());
            }
            // ATTACH_FILES: "Allows for uploading images and files"
            // (https://discord.com/developers/docs/topics/permissions#permissions-bitwise-permission-flags).
            if !files.is_empty() && !permissions.attach_files() {
                return Err(missing_permissions());
            }
        }
        // "Users (including bot users) without the MANAGE_THREADS permission ... won't be
        // able to create or update messages in locked threads"
        // (https://discord.com/developers/docs/topics/threads#locked-threads).
        if self.thread_flag(channel_id, "archived")
            && self.thread_flag(channel_id, "locked")
            && !permissions.manage_threads()
        {
            return Err(thread_archived(403));
        }
        Ok(())
    }

    /// The body as Discord stores it for the bot in `channel_id`: without EMBED_LINKS its
    /// rich embeds are not shown (Discord drops them rather than refusing the message; the
    /// permission "Links sent by users with this permission will be auto-embedded",
    /// https://discord.com/developers/docs/topics/permissions#permissions-bitwise-permission-flags).
    fn without_unpermitted_embeds(&self, channel_id: u64, body: &Value) -> Value {
        let mut body = body.clone();
        if !self.bot_permissions_in(channel_id).embed_links() && body.get("embeds").is_some() {
            body["embeds"] = json!([]);
        }
        body
    }

    /// A message arrived in a thread: an archived, unlocked thread is unarchived ("Sending a
    /// message will automatically unarchive the thread, unless the thread has been locked by
    /// a moderator", https://discord.com/developers/docs/topics/threads#active-archived-threads),
    /// and the auto-archive timer restarts.
    pub(crate) fn thread_activity_on_message(&mut self, channel_id: u64) {
        if !self.is_thread(channel_id) {
            return;
        }
        if self.thread_flag(channel_id, "archived") {
            self.set_archived(channel_id, false);
        }
        self.touch_thread(channel_id);
    }

    /// Whether interaction responses in `channel_id` are refused with 50083: a locked,
    /// archived thread where the bot lacks MANAGE_THREADS (discord-api-docs#5517 "Thread
    /// archived error on interaction callback", #6884: `{"message": "Thread is archived",
    /// "code": 50083}` for a response after the thread was locked;
    /// https://github.com/discord/discord-api-docs/issues/5517).
    fn interaction_blocked_by_lock(&self, channel_id: u64) -> bool {
        self.thread_flag(channel_id, "archived")
            && self.thread_flag(channel_id, "locked")
            && !self.bot_permissions_in(channel_id).manage_threads()
    }

    /// Whether `method segments` is a Create Message in a known DM channel.
    pub(crate) fn is_dm_message_create(&self, method: &str, segments: &[&str]) -> bool {
        match (method, segments) {
            ("POST", ["channels", id, "messages"]) => id
                .parse()
                .ok()
                .and_then(|id| self.dm_recipient(id))
                .is_some(),
            _ => false,
        }
    }

    fn dm_recipient(&self, channel_id: u64) -> Option<u64> {
        let channel = self.channels.get(&channel_id)?;
        if channel["type"].as_u64() != Some(1) {
            return None;
        }
        channel["recipients"][0]["id"].as_str()?.parse().ok()
    }

    // ---- messages ------------------------------------------------------------------------

    fn attachment_objects(
        &mut self,
        channel_id: u64,
        body: &Value,
        files: &[RecordedFile],
    ) -> Vec<FakeAttachment> {
        let described = body["attachments"].as_array().cloned().unwrap_or_default();
        let mut out = Vec::new();
        for (index, file) in files.iter().enumerate() {
            // `files[n]` refers to the entry of `attachments` whose `id` is n.
            let n = file
                .field
                .strip_prefix("files[")
                .and_then(|rest| rest.strip_suffix(']'))
                .and_then(|n| n.parse::<u64>().ok())
                .unwrap_or(index as u64);
            let entry = described.iter().find(|a| {
                a["id"].as_u64() == Some(n) || a["id"].as_str() == Some(n.to_string().as_str())
            });
            let filename = entry
                .and_then(|a| a["filename"].as_str())
                .unwrap_or(&file.filename)
                .to_string();
            let id = self.ids.next();
            out.push(FakeAttachment {
                id,
                url: format!("{}/attachments/{channel_id}/{id}/{filename}", self.base_url),
                filename,
                content_type: file.content_type.clone(),
                bytes: if self.lean {
                    Vec::new()
                } else {
                    file.bytes.clone()
                },
                size: file.bytes.len(),
                dimensions: png_size(&file.bytes),
            });
        }
        out
    }

    fn attachment_json(attachment: &FakeAttachment) -> Value {
        let mut object = json!({
            "id": attachment.id.to_string(),
            "filename": attachment.filename,
            "size": attachment.size,
            "url": attachment.url,
            "proxy_url": attachment.url,
            "content_type": attachment.content_type,
        });
        if let Some((width, height)) = attachment.dimensions {
            object["width"] = json!(width);
            object["height"] = json!(height);
        }
        object
    }

    /// Creates a message from a Create Message-style body
    /// (<https://discord.com/developers/docs/resources/message#create-message>) and returns
    /// the stored message.
    pub(crate) fn create_message(
        &mut self,
        channel_id: u64,
        author: Value,
        body: &Value,
        files: &[RecordedFile],
        interaction_id: Option<u64>,
    ) -> FakeMessage {
        let id = self.ids.next();
        let attachments = self.attachment_objects(channel_id, body, files);
        let mut embeds: Vec<Value> = body["embeds"].as_array().cloned().unwrap_or_default();
        for embed in &mut embeds {
            if embed.get("type").is_none() {
                embed["type"] = json!("rich");
            }
        }
        let mut json = json!({
            "id": id.to_string(),
            "channel_id": channel_id.to_string(),
            "author": author,
            "content": body["content"].as_str().unwrap_or(""),
            "timestamp": snowflake_timestamp(id),
            "edited_timestamp": null,
            "tts": body["tts"].as_bool().unwrap_or(false),
            "mention_everyone": false,
            "mentions": [],
            "mention_roles": [],
            "attachments": attachments.iter().map(Self::attachment_json).collect::<Vec<_>>(),
            "embeds": embeds,
            "pinned": false,
            "type": if interaction_id.is_some() { 20 } else { 0 },
            "components": body["components"].as_array().cloned().unwrap_or_default(),
            "flags": body["flags"].as_u64().unwrap_or(0),
        });
        if let Some(iid) = interaction_id {
            json["webhook_id"] = json!(self.application_id.to_string());
            json["application_id"] = json!(self.application_id.to_string());
            // A message created by an interaction response or followup names the interaction
            // and the user who triggered it ("interaction_metadata": id, type, user;
            // https://discord.com/developers/docs/resources/message#message-interaction-metadata-object):
            // clients show "alice used /move" above it, and only that user sees it when
            // it is ephemeral.
            if let Some(info) = self.interactions.get(&iid) {
                // authorizing_integration_owners: those of the interaction ("0"
                // GUILD_INSTALL to the guild id, "1" USER_INSTALL to the user's; same page,
                // "Authorizing Integration Owners Object").
                let mut metadata = json!({
                    "id": iid.to_string(),
                    "type": info.kind,
                    "user": self.user_json(info.user_id),
                    "authorizing_integration_owners": info.place.owners_json(),
                });
                // "interacted_message_id: ID of the message that contained the interactive
                // component" (required for MESSAGE_COMPONENT; serenity 0.12 refuses the
                // whole Message without it).
                if let Some(on) = info.component_message_id {
                    metadata["interacted_message_id"] = json!(on.to_string());
                }
                // "original_response_message_id: ID of the original response message, present
                // only on follow-up messages".
                if let Some(original) = info.original_message_id {
                    metadata["original_response_message_id"] = json!(original.to_string());
                }
                // "name: Name of the command ... present only on messages created from
                // application command interactions" (same page).
                if let Some(name) = &info.command {
                    metadata["name"] = json!(name);
                }
                json["interaction_metadata"] = metadata;
            }
        }
        if let Some(nonce) = body.get("nonce") {
            json["nonce"] = nonce.clone();
        }
        if let Some(reference) = body.get("message_reference") {
            json["message_reference"] = reference.clone();
        }
        if let Some(channel) = self.channels.get_mut(&channel_id) {
            channel["last_message_id"] = json!(id.to_string());
            if let Some(count) = channel.get("message_count").and_then(Value::as_u64) {
                channel["message_count"] = json!(count + 1);
                channel["total_message_sent"] = json!(count + 1);
            }
        }
        let message = FakeMessage {
            id,
            channel_id,
            interaction_id,
            json,
            attachments,
            previous_versions: Vec::new(),
        };
        if let Some(nonce) = message.json.get("nonce").filter(|n| !n.is_null()) {
            self.message_by_nonce
                .insert((channel_id, nonce.to_string()), id);
        }
        self.messages.push(message.clone());
        message
    }

    /// Applies an Edit Message body
    /// (<https://discord.com/developers/docs/resources/message#edit-message>): present fields
    /// replace; `attachments` keeps the listed existing attachments; new files are added.
    /// The message as it was is kept in [`FakeMessage::previous_versions`].
    pub(crate) fn edit_message(
        &mut self,
        message_id: u64,
        body: &Value,
        files: &[RecordedFile],
    ) -> Option<FakeMessage> {
        let index = self.messages.iter().position(|m| m.id == message_id)?;
        let channel_id = self.messages[index].channel_id;
        let new_attachments = self.attachment_objects(channel_id, body, files);
        let edited_at = snowflake_timestamp(self.ids.next());
        let message = &mut self.messages[index];
        let before = message.json.clone();
        message.previous_versions.push(before);
        for key in ["content", "embeds", "components", "flags"] {
            if let Some(value) = body.get(key) {
                message.json[key] = if value.is_null() && key != "content" {
                    json!([])
                } else {
                    value.clone()
                };
            }
        }
        if let Some(embeds) = message.json["embeds"].as_array_mut() {
            for embed in embeds {
                if embed.get("type").is_none() {
                    embed["type"] = json!("rich");
                }
            }
        }
        if let Some(keep) = body.get("attachments").and_then(Value::as_array) {
            let keep: HashSet<String> = keep
                .iter()
                .filter_map(|a| match &a["id"] {
                    Value::String(s) => Some(s.clone()),
                    Value::Number(n) => Some(n.to_string()),
                    _ => None,
                })
                .collect();
            message
                .attachments
                .retain(|a| keep.contains(&a.id.to_string()));
        }
        message.attachments.extend(new_attachments);
        message.json["attachments"] = Value::Array(
            message
                .attachments
                .iter()
                .map(Self::attachment_json)
                .collect(),
        );
        message.json["edited_timestamp"] = json!(edited_at);
        Some(message.clone())
    }

    /// A message as Get Channel Message returns it: a message a thread was started from
    /// carries that thread ("thread?: channel object: the thread that was started from this
    /// message") and the HAS_THREAD flag (`1 << 5`, "this message has an associated thread,
    /// with the same id as the message"),
    /// <https://discord.com/developers/docs/resources/message#message-object>.
    pub(crate) fn message_json_with_thread(&self, message: &FakeMessage) -> Value {
        let mut json = message.json.clone();
        if let Some(thread) = self
            .channels
            .get(&message.id)
            .filter(|_| self.is_thread(message.id))
        {
            json["thread"] = thread.clone();
            let flags = json["flags"].as_u64().unwrap_or(0);
            json["flags"] = json!(flags | (1 << 5));
        }
        json
    }

    pub(crate) fn message(&self, id: u64) -> Option<&FakeMessage> {
        self.messages.iter().find(|m| m.id == id)
    }

    // ---- interactions --------------------------------------------------------------------

    fn record_response(
        &mut self,
        interaction_id: u64,
        kind: ResponseKind,
        body: &Value,
        files: &[RecordedFile],
        message_id: Option<u64>,
    ) {
        let message_ephemeral = message_id
            .and_then(|id| self.message(id))
            .is_some_and(FakeMessage::is_ephemeral);
        self.responses_by_interaction
            .entry(interaction_id)
            .or_default()
            .push(self.responses.len());
        self.responses.push(InteractionResponse {
            interaction_id,
            kind,
            body: body.clone(),
            files: if self.lean {
                files.iter().map(RecordedFile::without_bytes).collect()
            } else {
                files.to_vec()
            },
            message_id,
            message_ephemeral,
        });
    }

    /// `POST /interactions/{id}/{token}/callback`
    /// (<https://discord.com/developers/docs/interactions/receiving-and-responding#create-interaction-response>).
    fn interaction_callback(
        &mut self,
        id: &str,
        token: &str,
        body: &Value,
        files: &[RecordedFile],
    ) -> Reply {
        let Some(interaction_id) = parse_id(id) else {
            return unknown_interaction();
        };
        let Some(info) = self.interactions.get(&interaction_id).cloned() else {
            return unknown_interaction();
        };
        if self.interaction_by_token.get(token) != Some(&interaction_id) {
            return error(401, 50027, "Invalid Webhook Token");
        }
        if info.acknowledged {
            return error(400, 40060, "Interaction has already been acknowledged.");
        }
        // The first response must come within 3 seconds; after that the token is
        // invalidated and the callback answers 10062 Unknown interaction.
        if self.now().saturating_sub(info.created_at) > INITIAL_RESPONSE_DEADLINE {
            return unknown_interaction();
        }
        let Some(callback_type) = body["type"].as_u64() else {
            return invalid_body("type: This field is required");
        };
        let data = body.get("data").cloned().unwrap_or_else(|| json!({}));
        // Callback data follows the message limits (CHANNEL_MESSAGE_WITH_SOURCE,
        // UPDATE_MESSAGE: "Interaction Callback Data Structure", message content up to 2000
        // characters, ...) and the autocomplete limits (APPLICATION_COMMAND_AUTOCOMPLETE_RESULT)
        // (https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-interaction-callback-data-structure).
        let mut errors = FormErrors::default();
        match callback_type {
            4 | 7 => rules::check_message(&data, &["data".to_string()], &mut errors),
            8 => rules::check_choices(&data, &["data".to_string()], &mut errors),
            9 => {
                // "MODAL: Respond to an interaction with a popup modal. Not available for
                // MODAL_SUBMIT and PING interactions", and autocomplete takes only its
                // result
                // (https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-interaction-callback-type).
                if matches!(info.kind, 1 | 4 | 5) {
                    errors.push(
                        &["type".to_string()],
                        "INTERACTION_RESPONSE_TYPE_INVALID",
                        "A modal cannot answer this interaction".into(),
                    );
                }
                rules::check_modal(&data, &["data".to_string()], &mut errors);
            }
            _ => {}
        }
        if let Some(refused) = errors.reply() {
            return refused;
        }
        if let Some(refused) = too_many_attachments(files).or_else(|| too_large_upload(files)) {
            return refused;
        }
        if matches!(callback_type, 4 | 5 | 7) && self.interaction_blocked_by_lock(info.channel_id) {
            return thread_archived(403);
        }
        let message_id = match callback_type {
            4 | 5 => {
                let mut data = data.clone();
                if callback_type == 5 {
                    // A deferred response shows "Bot is thinking..." (flag 128 LOADING).
                    let flags = data["flags"].as_u64().unwrap_or(0) | 128;
                    data = json!({ "content": "", "flags": flags });
                }
                let author = self.bot_user_json();
                let message = self.create_message(
                    info.channel_id,
                    author,
                    &data,
                    files,
                    Some(interaction_id),
                );
                Some(message.id)
            }
            6 => info.component_message_id,
            7 => match info.component_message_id {
                Some(message_id) => {
                    self.edit_message(message_id, &data, files);
                    Some(message_id)
                }
                None => return error(400, 40060, "UPDATE_MESSAGE needs a component interaction"),
            },
            1 | 8 | 9 | 10 | 12 => None,
            _ => return invalid_body("type: Value is not a valid interaction callback type"),
        };
        if let Some(entry) = self.interactions.get_mut(&interaction_id) {
            entry.acknowledged = true;
            entry.deferred_pending = callback_type == 5;
            if callback_type == 9 {
                entry.modal = Some(data.clone());
            }
            if matches!(callback_type, 4..=7) {
                entry.original_message_id = message_id;
            }
        }
        self.record_response(
            interaction_id,
            ResponseKind::Callback {
                callback_type: callback_type as u8,
            },
            body,
            files,
            message_id,
        );
        (204, None)
    }

    fn interaction_for_token(&self, app: &str, token: &str) -> Option<InteractionInfo> {
        if parse_id(app) != Some(self.application_id) {
            return None;
        }
        let id = self.interaction_by_token.get(token)?;
        self.interactions.get(id).cloned()
    }

    /// Webhook routes used for interactions
    /// (<https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages>).
    fn webhook(
        &mut self,
        method: &str,
        app: &str,
        token: &str,
        message: Option<&str>,
        body: &Value,
        files: &[RecordedFile],
    ) -> Reply {
        let Some(info) = self.interaction_for_token(app, token) else {
            return error(404, 10015, "Unknown Webhook");
        };
        // "Interaction tokens are valid for 15 minutes"; afterwards every request with the
        // token answers 401 / 50027 Invalid Webhook Token (discord-api-docs#6851: "After the
        // 15 mins window, any API request made to it returns 401: Unauthorized",
        // https://github.com/discord/discord-api-docs/issues/6851).
        if self.now().saturating_sub(info.created_at) > TOKEN_LIFETIME {
            return error(401, 50027, "Invalid Webhook Token");
        }
        if matches!(method, "POST" | "PATCH") {
            if let Some(refused) = message_form_errors(body, &[]) {
                return refused;
            }
            if let Some(refused) = too_many_attachments(files).or_else(|| too_large_upload(files)) {
                return refused;
            }
            if self.interaction_blocked_by_lock(info.channel_id) {
                return thread_archived(403);
            }
        }
        let target = match message {
            None => None,
            Some("@original") => match info.original_message_id {
                Some(id) => Some(id),
                None => return unknown_message(),
            },
            Some(other) => match parse_id(other).filter(|id| self.message(*id).is_some()) {
                Some(id) => Some(id),
                None => return unknown_message(),
            },
        };
        let replaces_thinking = info.deferred_pending
            && match (method, message) {
                // "When using this endpoint directly after responding to an interaction with
                // DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, this endpoint will function as Edit
                // Original Interaction Response" (Create Followup Message).
                ("POST", None) => true,
                ("PATCH", Some("@original")) => true,
                _ => false,
            };
        if replaces_thinking && let Some(original) = info.original_message_id {
            let old_flags = self.message(original).map_or(0, FakeMessage::flags);
            let Some(mut edited) = self.edit_message(original, body, files) else {
                return unknown_message();
            };
            // The deferral decided ephemerality; LOADING (128) is cleared.
            let flags = (old_flags & 64) | (body["flags"].as_u64().unwrap_or(0) & !(64 | 128));
            edited.json["flags"] = json!(flags);
            if let Some(stored) = self.messages.iter_mut().find(|m| m.id == original) {
                stored.json["flags"] = json!(flags);
            }
            if let Some(entry) = self.interactions.get_mut(&info.id) {
                entry.deferred_pending = false;
            }
            let kind = if method == "POST" {
                ResponseKind::Followup
            } else {
                ResponseKind::EditOriginal
            };
            self.record_response(info.id, kind, body, files, Some(original));
            return (200, Some(edited.json));
        }
        match (method, target) {
            ("POST", None) => {
                if info.place.user_install_only() && info.followups >= MAX_USER_INSTALL_FOLLOWUPS {
                    return error(
                        400,
                        40094,
                        "This interaction has hit the maximum number of follow up messages",
                    );
                }
                if let Some(entry) = self.interactions.get_mut(&info.id) {
                    entry.followups += 1;
                }
                let author = self.bot_user_json();
                let created =
                    self.create_message(info.channel_id, author, body, files, Some(info.id));
                self.record_response(
                    info.id,
                    ResponseKind::Followup,
                    body,
                    files,
                    Some(created.id),
                );
                (200, Some(created.json))
            }
            ("GET", Some(id)) => (200, self.message(id).map(|m| m.json.clone())),
            ("PATCH", Some(id)) => {
                let Some(edited) = self.edit_message(id, body, files) else {
                    return unknown_message();
                };
                let kind = if message == Some("@original") {
                    ResponseKind::EditOriginal
                } else {
                    ResponseKind::EditMessage { message_id: id }
                };
                self.record_response(info.id, kind, body, files, Some(id));
                (200, Some(edited.json))
            }
            ("DELETE", Some(id)) => {
                self.messages.retain(|m| m.id != id);
                self.record_response(
                    info.id,
                    ResponseKind::Delete { message_id: id },
                    body,
                    files,
                    Some(id),
                );
                (204, None)
            }
            _ => (
                405,
                Some(json!({ "message": "405: Method Not Allowed", "code": 0 })),
            ),
        }
    }

    // ---- commands ------------------------------------------------------------------------

    /// Completes a command as Discord returns it
    /// (<https://discord.com/developers/docs/interactions/application-commands#application-command-object>).
    fn command_json(&mut self, mut command: Value, guild_id: Option<u64>) -> Value {
        let id = self.ids.next();
        if command.get("id").is_none_or(Value::is_null) {
            command["id"] = json!(id.to_string());
        }
        command["application_id"] = json!(self.application_id.to_string());
        command["version"] = json!(id.to_string());
        if command.get("type").is_none_or(Value::is_null) {
            command["type"] = json!(1);
        }
        for key in ["default_member_permissions"] {
            if command.get(key).is_none() {
                command[key] = Value::Null;
            }
        }
        if command.get("description").is_none() {
            command["description"] = json!("");
        }
        if command.get("nsfw").is_none() {
            command["nsfw"] = json!(false);
        }
        if let Some(guild_id) = guild_id {
            command["guild_id"] = json!(guild_id.to_string());
        }
        command
    }

    fn commands(&mut self, method: &str, app: &str, guild: Option<&str>, body: &Value) -> Reply {
        if parse_id(app) != Some(self.application_id) {
            return error(403, 50001, "Missing Access");
        }
        let guild_id = match guild {
            Some(g) => match parse_id(g) {
                Some(id) => Some(id),
                None => return error(404, 10004, "Unknown Guild"),
            },
            None => None,
        };
        match method {
            "PUT" => {
                let Some(list) = body.as_array() else {
                    return invalid_body("expected an array of commands");
                };
                let list: Vec<Value> = list
                    .iter()
                    .cloned()
                    .map(|c| self.command_json(c, guild_id))
                    .collect();
                match guild_id {
                    Some(g) => {
                        self.guild_commands.insert(g, list.clone());
                    }
                    None => self.global_commands = list.clone(),
                }
                (200, Some(Value::Array(list)))
            }
            "POST" => {
                let command = self.command_json(body.clone(), guild_id);
                let list = match guild_id {
                    Some(g) => self.guild_commands.entry(g).or_default(),
                    None => &mut self.global_commands,
                };
                list.retain(|c| c["name"] != command["name"]);
                list.push(command.clone());
                (201, Some(command))
            }
            "GET" => {
                let list = match guild_id {
                    Some(g) => self.guild_commands.get(&g).cloned().unwrap_or_default(),
                    None => self.global_commands.clone(),
                };
                (200, Some(Value::Array(list)))
            }
            _ => (
                405,
                Some(json!({ "message": "405: Method Not Allowed", "code": 0 })),
            ),
        }
    }

    /// The id of a registered command named `name` as used in guild `guild` (that guild's
    /// commands first, then the global ones), if any.
    pub(crate) fn command_id(&self, name: &str, guild: Option<u64>) -> Option<(u64, Option<u64>)> {
        let found = |list: &Vec<Value>| {
            list.iter()
                .find(|c| c["name"] == name)
                .and_then(|c| c["id"].as_str()?.parse().ok())
        };
        if let Some(guild) = guild
            && let Some(list) = self.guild_commands.get(&guild)
            && let Some(id) = found(list)
        {
            return Some((id, Some(guild)));
        }
        found(&self.global_commands).map(|id| (id, None))
    }

    // ---- threads -------------------------------------------------------------------------

    /// `POST /channels/{id}/threads`: Start Thread without Message
    /// (<https://discord.com/developers/docs/resources/channel#start-thread-without-message>)
    /// or, in a GUILD_FORUM, Start Thread in Forum or Media Channel
    /// (<https://discord.com/developers/docs/resources/channel#start-thread-in-forum-or-media-channel>).
    fn start_thread(&mut self, parent: u64, body: &Value, files: &[RecordedFile]) -> Reply {
        let mut errors = FormErrors::default();
        rules::check_thread_fields(body, true, &mut errors);
        let parent_kind = self.channel_type(parent).unwrap_or(kind::DM);
        if parent_kind == kind::GUILD_FORUM {
            // A forum post needs its first message: `message` is a required field.
            match body.get("message") {
                None | Some(Value::Null) => errors.push(
                    &["message".to_string()],
                    "BASE_TYPE_REQUIRED",
                    "This field is required".into(),
                ),
                Some(message) => {
                    rules::check_message(message, &["message".to_string()], &mut errors)
                }
            }
        }
        if let Some(refused) = errors.reply() {
            return refused;
        }
        let permissions = self.bot_permissions_in(parent);
        if !permissions.view_channel() {
            return missing_access();
        }
        let requested = body["type"].as_u64();
        let thread_kind = match (parent_kind, requested) {
            // Forum posts are PUBLIC_THREADs; "The current user must have the SEND_MESSAGES
            // permission (CREATE_PUBLIC_THREADS is ignored)".
            (kind::GUILD_FORUM, _) => {
                let message = &body["message"];
                if message["content"].as_str().unwrap_or("").is_empty()
                    && message["embeds"].as_array().is_none_or(Vec::is_empty)
                    && message["components"].as_array().is_none_or(Vec::is_empty)
                    && files.is_empty()
                {
                    return error(400, 50006, "Cannot send an empty message");
                }
                if let Some(refused) =
                    too_many_attachments(files).or_else(|| too_large_upload(files))
                {
                    return refused;
                }
                if !permissions.send_messages()
                    || (!files.is_empty() && !permissions.attach_files())
                {
                    return missing_permissions();
                }
                kind::PUBLIC_THREAD
            }
            // "type currently defaults to PRIVATE_THREAD"; private threads "can only be
            // created in GUILD_TEXT channels"; GUILD_ANNOUNCEMENT channels hold
            // ANNOUNCEMENT_THREADs (https://discord.com/developers/docs/topics/threads#public-private-threads).
            (kind::GUILD_TEXT, None | Some(kind::PRIVATE_THREAD)) => kind::PRIVATE_THREAD,
            (kind::GUILD_TEXT, Some(kind::PUBLIC_THREAD)) => kind::PUBLIC_THREAD,
            (kind::GUILD_ANNOUNCEMENT, Some(kind::ANNOUNCEMENT_THREAD)) => {
                kind::ANNOUNCEMENT_THREAD
            }
            // Threads in threads, in DMs, private threads outside text channels, ...
            _ => return wrong_channel_type(),
        };
        // CREATE_PUBLIC_THREADS "Allows for creating public and announcement threads",
        // CREATE_PRIVATE_THREADS "Allows for creating private threads"
        // (https://discord.com/developers/docs/topics/permissions#permissions-bitwise-permission-flags).
        let needed = match (parent_kind, thread_kind) {
            (kind::GUILD_FORUM, _) => Permissions::empty(),
            (_, kind::PRIVATE_THREAD) => Permissions::CREATE_PRIVATE_THREADS,
            _ => Permissions::CREATE_PUBLIC_THREADS,
        };
        if !permissions.contains(needed) {
            return missing_permissions();
        }
        let name = body["name"].as_str().unwrap_or_default().to_string();
        let thread = self.add_thread(parent, &name, thread_kind as u8, None);
        self.apply_thread_creation_fields(thread, body);
        if parent_kind == kind::GUILD_FORUM {
            let message_body = self.without_unpermitted_embeds(parent, &body["message"]);
            let author = self.bot_user_json();
            let message = self.create_message(thread, author, &message_body, files, None);
            let (status, reply) = self.thread_reply(thread);
            let mut reply = reply.unwrap_or_default();
            reply["message"] = message.json;
            return (status, Some(reply));
        }
        self.thread_reply(thread)
    }

    /// `POST /channels/{id}/messages/{id}/threads`
    /// (<https://discord.com/developers/docs/resources/channel#start-thread-from-message>):
    /// "When called on a GUILD_TEXT channel, creates a PUBLIC_THREAD. When called on a
    /// GUILD_ANNOUNCEMENT channel, creates a ANNOUNCEMENT_THREAD. Does not work on a
    /// GUILD_FORUM or a GUILD_MEDIA channel."
    fn start_thread_from_message(&mut self, parent: u64, message_id: u64, body: &Value) -> Reply {
        let mut errors = FormErrors::default();
        rules::check_thread_fields(body, true, &mut errors);
        if let Some(refused) = errors.reply() {
            return refused;
        }
        let thread_kind = match self.channel_type(parent) {
            Some(kind::GUILD_TEXT) => kind::PUBLIC_THREAD,
            Some(kind::GUILD_ANNOUNCEMENT) => kind::ANNOUNCEMENT_THREAD,
            _ => return wrong_channel_type(),
        };
        let permissions = self.bot_permissions_in(parent);
        if !permissions.view_channel() {
            return missing_access();
        }
        if !permissions.create_public_threads() {
            return missing_permissions();
        }
        if self.channels.contains_key(&message_id) {
            return error(
                400,
                160004,
                "A thread has already been created for this message",
            );
        }
        let name = body["name"].as_str().unwrap_or_default().to_string();
        let thread = self.add_thread(parent, &name, thread_kind as u8, Some(message_id));
        self.apply_thread_creation_fields(thread, body);
        self.thread_reply(thread)
    }

    fn apply_thread_creation_fields(&mut self, thread: u64, body: &Value) {
        if let Some(channel) = self.channels.get_mut(&thread) {
            if let Some(minutes) = body["auto_archive_duration"].as_u64() {
                channel["thread_metadata"]["auto_archive_duration"] = json!(minutes);
            }
            if let Some(invitable) = body["invitable"].as_bool() {
                channel["thread_metadata"]["invitable"] = json!(invitable);
            }
        }
    }

    /// `PATCH /channels/{id}` (<https://discord.com/developers/docs/resources/channel#modify-channel>).
    /// For threads, the rules of "Modify Channel, JSON Params (Thread)" and
    /// <https://discord.com/developers/docs/topics/threads#editing-deleting-threads>:
    /// - "When setting archived to false, when locked is also false, only the SEND_MESSAGES
    ///   permission is required. Otherwise, requires the MANAGE_THREADS permission."
    /// - "Requires the thread to have archived set to false or be set to false in the
    ///   request." (else 50083 Thread is archived; discord-api-docs#6928)
    /// - name, archived, auto_archive_duration: MANAGE_THREADS or the thread's creator;
    ///   locked, rate_limit_per_user: MANAGE_THREADS.
    fn modify_channel(&mut self, channel_id: u64, body: &Value) -> Reply {
        let mut errors = FormErrors::default();
        rules::check_thread_fields(body, false, &mut errors);
        if let Some(refused) = errors.reply() {
            return refused;
        }
        let permissions = self.bot_permissions_in(channel_id);
        let in_guild = self.channel_is_in_guild(channel_id) == Some(true);
        if in_guild && !permissions.view_channel() {
            return missing_access();
        }
        let fields = body.as_object().cloned().unwrap_or_default();
        if self.is_thread(channel_id) {
            let archived = self.thread_flag(channel_id, "archived");
            let locked = self.thread_flag(channel_id, "locked");
            let unarchives = body["archived"] == json!(false);
            if archived && !unarchives {
                return thread_archived(400);
            }
            let manage = permissions.manage_threads();
            let creator = self.channels[&channel_id]["owner_id"].as_str()
                == Some(self.bot_user_id.to_string().as_str());
            let wants_lock =
                fields.contains_key("locked") || fields.contains_key("rate_limit_per_user");
            let creator_fields = ["name", "auto_archive_duration"]
                .iter()
                .any(|k| fields.contains_key(*k))
                || body["archived"] == json!(true);
            let allowed = if wants_lock {
                manage
            } else if archived && unarchives && locked {
                // "Threads that have locked set to true can only be unarchived by a user with
                // the MANAGE_THREADS permission."
                manage
            } else if creator_fields {
                manage || creator
            } else if unarchives && archived {
                manage || permissions.send_messages()
            } else {
                true
            };
            if !allowed {
                return missing_permissions();
            }
            let was_archived = archived;
            let channel = self.channels.get_mut(&channel_id).expect("checked above");
            for (key, value) in &fields {
                match key.as_str() {
                    "archived" => {}
                    "locked" | "auto_archive_duration" | "invitable" => {
                        channel["thread_metadata"][key] = value.clone();
                    }
                    _ => channel[key] = value.clone(),
                }
            }
            if let Some(archive) = body["archived"].as_bool()
                && archive != was_archived
            {
                self.set_archived(channel_id, archive);
            } else if fields.contains_key("auto_archive_duration") {
                self.touch_thread(channel_id);
            }
            return (200, Some(self.channels[&channel_id].clone()));
        }
        // Other guild channels: MANAGE_CHANNELS
        // (https://discord.com/developers/docs/resources/channel#modify-channel).
        if in_guild && !permissions.manage_channels() {
            return missing_permissions();
        }
        let channel = self.channels.get_mut(&channel_id).expect("checked above");
        for (key, value) in fields {
            channel[key.as_str()] = value;
        }
        (200, Some(channel.clone()))
    }

    // ---- routing -------------------------------------------------------------------------

    fn thread_reply(&mut self, thread_id: u64) -> Reply {
        let thread = self.channels[&thread_id].clone();
        self.broadcast("THREAD_CREATE", {
            let mut event = thread.clone();
            event["newly_created"] = json!(true);
            event
        });
        (201, Some(thread))
    }

    /// Routes one REST request (path segments after `/api/v10`).
    pub(crate) fn route(
        &mut self,
        method: &str,
        segments: &[&str],
        request: &RecordedBody,
    ) -> Option<Reply> {
        self.archive_idle_threads();
        if let Some(refused) = self.refused_outside_guild(segments) {
            return Some(refused);
        }
        let empty = json!({});
        let body = request.json().unwrap_or(&empty);
        let files = request.files();
        let reply = match (method, segments) {
            // https://discord.com/developers/docs/events/gateway#get-gateway
            ("GET", ["gateway"]) => (200, Some(json!({ "url": self.gateway_url() }))),
            // https://discord.com/developers/docs/events/gateway#get-gateway-bot
            ("GET", ["gateway", "bot"]) => (
                200,
                Some(json!({
                    "url": self.gateway_url(),
                    "shards": 1,
                    "session_start_limit": {
                        "total": 1000, "remaining": 999, "reset_after": 86_400_000,
                        "max_concurrency": 1
                    }
                })),
            ),
            // https://discord.com/developers/docs/resources/user#get-current-user
            ("GET", ["users", "@me"]) => (200, Some(self.bot_user_json())),
            // https://discord.com/developers/docs/resources/user#get-user
            ("GET", ["users", id]) => match parse_id(id) {
                Some(id) => (200, Some(self.user_json(id))),
                None => error(404, 10013, "Unknown User"),
            },
            // https://discord.com/developers/docs/resources/user#create-dm
            ("POST", ["users", "@me", "channels"]) => {
                let recipient = match &body["recipient_id"] {
                    Value::String(s) => parse_id(s),
                    Value::Number(n) => n.as_u64(),
                    _ => None,
                };
                match recipient {
                    Some(user_id) => {
                        let id = self.dm_channel(user_id);
                        (200, Some(self.channels[&id].clone()))
                    }
                    None => invalid_body("recipient_id: This field is required"),
                }
            }
            // https://discord.com/developers/docs/topics/oauth2#get-current-bot-application-information
            ("GET", ["oauth2", "applications", "@me"]) | ("GET", ["applications", "@me"]) => {
                (200, Some(self.application_json()))
            }
            // https://discord.com/developers/docs/interactions/application-commands#bulk-overwrite-global-application-commands
            (_, ["applications", app, "commands"]) => self.commands(method, app, None, body),
            // https://discord.com/developers/docs/interactions/application-commands#bulk-overwrite-guild-application-commands
            (_, ["applications", app, "guilds", guild, "commands"]) => {
                self.commands(method, app, Some(guild), body)
            }
            ("POST", ["interactions", id, token, "callback"]) => {
                self.interaction_callback(id, token, body, files)
            }
            // https://discord.com/developers/docs/interactions/receiving-and-responding#create-followup-message
            ("POST", ["webhooks", app, token]) => {
                self.webhook(method, app, token, None, body, files)
            }
            // https://discord.com/developers/docs/interactions/receiving-and-responding#edit-original-interaction-response
            // and #edit-followup-message, #get-..., #delete-...
            (_, ["webhooks", app, token, "messages", message]) => {
                self.webhook(method, app, token, Some(message), body, files)
            }
            // https://discord.com/developers/docs/resources/channel#get-channel
            ("GET", ["channels", id]) => match parse_id(id).and_then(|id| self.channels.get(&id)) {
                Some(channel) => (200, Some(channel.clone())),
                None => unknown_channel(),
            },
            // https://discord.com/developers/docs/resources/channel#modify-channel (threads:
            // name, archived, locked, auto_archive_duration, invitable go to thread_metadata)
            ("PATCH", ["channels", id]) => {
                match parse_id(id).filter(|id| self.channels.contains_key(id)) {
                    Some(id) => self.modify_channel(id, body),
                    None => unknown_channel(),
                }
            }
            // https://discord.com/developers/docs/resources/message#get-channel-messages (newest first)
            ("GET", ["channels", id, "messages"]) => match parse_id(id) {
                Some(id) if self.channels.contains_key(&id) => {
                    let list: Vec<Value> = self
                        .messages
                        .iter()
                        .rev()
                        .filter(|m| m.channel_id == id)
                        .map(|m| m.json.clone())
                        .collect();
                    (200, Some(Value::Array(list)))
                }
                _ => unknown_channel(),
            },
            // https://discord.com/developers/docs/resources/message#create-message
            ("POST", ["channels", id, "messages"]) => {
                let Some(channel_id) = parse_id(id).filter(|id| self.channels.contains_key(id))
                else {
                    return Some(unknown_channel());
                };
                if let Some(recipient) = self.dm_recipient(channel_id)
                    && self.refused_dm_users.contains(&recipient)
                {
                    // https://discord.com/developers/docs/topics/opcodes-and-status-codes#json
                    return Some(error(403, 50007, "Cannot send messages to this user"));
                }
                if let Some(recipient) = self.dm_recipient(channel_id)
                    && !self.shares_guild_with_bot(recipient)
                    && !self.user_installs.contains(&recipient)
                {
                    // 50278 "Cannot send messages to this user due to having no mutual
                    // guilds" (JSON Error Codes,
                    // https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes).
                    // A user who installed the app to their account can be messaged: its
                    // DMs are how it reaches them (issue reports of user-installed apps
                    // sending DMs, discord-api-docs#7666).
                    return Some(error(
                        403,
                        50278,
                        "Cannot send messages to this user due to having no mutual guilds",
                    ));
                }
                if body["content"].as_str().unwrap_or("").is_empty()
                    && body["embeds"].as_array().is_none_or(Vec::is_empty)
                    && body["components"].as_array().is_none_or(Vec::is_empty)
                    && files.is_empty()
                {
                    return Some(error(400, 50006, "Cannot send an empty message"));
                }
                if let Some(refused) = message_form_errors(body, &[]) {
                    return Some(refused);
                }
                if let Some(refused) =
                    too_many_attachments(files).or_else(|| too_large_upload(files))
                {
                    return Some(refused);
                }
                if let Err(refused) = self.check_can_send(channel_id, files) {
                    return Some(refused);
                }
                self.thread_activity_on_message(channel_id);
                let body = self.without_unpermitted_embeds(channel_id, body);
                let author = self.bot_user_json();
                let message = self.create_message(channel_id, author, &body, files, None);
                (200, Some(message.json))
            }
            // https://discord.com/developers/docs/resources/message#get-channel-message
            ("GET", ["channels", _, "messages", mid]) => {
                match parse_id(mid).and_then(|id| self.message(id)) {
                    Some(message) => (200, Some(self.message_json_with_thread(message))),
                    None => unknown_message(),
                }
            }
            // https://discord.com/developers/docs/resources/message#edit-message
            ("PATCH", ["channels", _, "messages", mid]) => {
                if let Some(refused) = message_form_errors(body, &[]) {
                    return Some(refused);
                }
                if let Some(channel_id) = parse_id(mid)
                    .and_then(|id| self.message(id))
                    .map(|m| m.channel_id)
                    && self.thread_flag(channel_id, "archived")
                {
                    // "Users cannot edit messages ... in archived threads"
                    // (https://discord.com/developers/docs/topics/threads#active-archived-threads).
                    return Some(thread_archived(400));
                }
                match parse_id(mid).and_then(|id| self.edit_message(id, body, files)) {
                    Some(message) => (200, Some(message.json)),
                    None => unknown_message(),
                }
            }
            // https://discord.com/developers/docs/resources/message#delete-message
            ("DELETE", ["channels", _, "messages", mid]) => match parse_id(mid) {
                Some(id) if self.message(id).is_some() => {
                    self.messages.retain(|m| m.id != id);
                    (204, None)
                }
                _ => unknown_message(),
            },
            // https://discord.com/developers/docs/resources/channel#start-thread-without-message
            // and #start-thread-in-forum-or-media-channel
            ("POST", ["channels", id, "threads"]) => {
                match parse_id(id).filter(|id| self.channels.contains_key(id)) {
                    Some(parent) => self.start_thread(parent, body, files),
                    None => unknown_channel(),
                }
            }
            // https://discord.com/developers/docs/resources/channel#start-thread-from-message
            // (the thread's id is the message's id)
            ("POST", ["channels", id, "messages", mid, "threads"]) => {
                let Some(parent) = parse_id(id).filter(|id| self.channels.contains_key(id)) else {
                    return Some(unknown_channel());
                };
                let Some(message_id) = parse_id(mid)
                    .filter(|mid| self.message(*mid).is_some_and(|m| m.channel_id == parent))
                else {
                    return Some(unknown_message());
                };
                self.start_thread_from_message(parent, message_id, body)
            }
            // https://discord.com/developers/docs/resources/channel#add-thread-member
            ("PUT" | "DELETE", ["channels", id, "thread-members", _]) => {
                match parse_id(id).filter(|id| self.channels.contains_key(id)) {
                    Some(_) => (204, None),
                    None => unknown_channel(),
                }
            }
            // https://discord.com/developers/docs/resources/channel#trigger-typing-indicator
            ("POST", ["channels", _, "typing"]) => (204, None),
            // https://discord.com/developers/docs/resources/guild#get-guild-member
            ("GET", ["guilds", gid, "members", uid]) => {
                let guild = parse_id(gid)
                    .and_then(|g| self.guild(g))
                    .filter(|g| g.bot_member);
                match (
                    guild.map(|g| g.id),
                    parse_id(uid).filter(|u| guild.is_some_and(|g| !g.departed.contains(u))),
                ) {
                    (Some(gid), Some(uid)) => {
                        let user = self.user_json(uid);
                        let admin_role = Self::admin_role_of(gid);
                        let roles = match self.users.get(&uid) {
                            Some(sim) => sim.roles(admin_role),
                            // The bot, and unknown users (as a default `SimUser`).
                            None => vec![admin_role],
                        };
                        let joined_at = snowflake_timestamp(gid);
                        (200, Some(payloads::member_json(&user, &joined_at, roles)))
                    }
                    _ => error(404, 10007, "Unknown Member"),
                }
            }
            _ => return None,
        };
        Some(reply)
    }

    /// 403 / 50001 Missing Access for a request about a guild the bot was removed from (its
    /// channels and threads, its members, its application commands): a bot sees only the
    /// guilds it is in ("50001 Missing access", JSON Error Codes,
    /// <https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes>;
    /// removing a bot removes its guild commands with the integration). Ids the fake does
    /// not know as guilds are left to the routes.
    fn refused_outside_guild(&self, segments: &[&str]) -> Option<Reply> {
        let left =
            |gid: &str| parse_id(gid).is_some_and(|g| self.guild(g).is_some_and(|g| !g.bot_member));
        match segments {
            ["channels", id, ..]
                if parse_id(id).is_some_and(|id| {
                    self.channel_in_left_guild(id) || self.channel_type(id) == Some(kind::GROUP_DM)
                }) =>
            {
                // A group DM's recipients are users; the bot is never one of them.
                Some(missing_access())
            }
            ["guilds", gid, ..] | ["applications", _, "guilds", gid, ..] if left(gid) => {
                Some(missing_access())
            }
            _ => None,
        }
    }

    /// Whether `presented` (an `Authorization` header value or a gateway payload's `token`,
    /// with or without its `Bot ` prefix) is the accepted bot token. REST answers any
    /// other with 401 ("The `Authorization` header was missing or invalid") and the
    /// gateway closes with 4004 Authentication failed
    /// (<https://discord.com/developers/docs/topics/opcodes-and-status-codes>).
    pub(crate) fn token_accepted(&self, presented: &str) -> bool {
        let presented = presented.trim();
        let bare = presented.strip_prefix("Bot ").unwrap_or(presented);
        match &self.bot_token {
            None => !bare.is_empty(),
            Some(token) => bare == token,
        }
    }

    /// Sends a dispatch to every session: the detached ones, and the gateway sessions (at
    /// once, or on resume for one that is away). Returns how many sessions got or will get
    /// it.
    pub(crate) fn broadcast(&mut self, event: &str, data: Value) -> usize {
        let gateway = self.gateway.dispatch(event, &data);
        self.sessions
            .retain(|tx| tx.send((event.to_string(), data.clone())).is_ok());
        self.sessions.len() + gateway
    }

    /// Whether a bot session exists that a dispatch reaches (now or on resume).
    pub(crate) fn has_sessions(&self) -> bool {
        !self.sessions.is_empty() || !self.gateway.is_empty()
    }
}

/// Width and height of a PNG from its IHDR chunk, if the bytes are a PNG.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if bytes.len() < 24 || !bytes.starts_with(SIGNATURE) || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let width = u32::from_be_bytes(bytes[16..20].try_into().ok()?);
    let height = u32::from_be_bytes(bytes[20..24].try_into().ok()?);
    Some((width, height))
}

#[cfg(test)]
mod upload_tests {
    use super::*;

    #[test]
    fn uploads_over_10_mib_are_refused_with_40005() {
        let file = |len: usize| RecordedFile {
            field: "files[0]".into(),
            filename: "replay.gif".into(),
            content_type: None,
            bytes: vec![0; len],
        };
        assert!(too_large_upload(&[file(MAX_UPLOAD_BYTES)]).is_none());
        let (status, body) = too_large_upload(&[file(10), file(MAX_UPLOAD_BYTES + 1)]).unwrap();
        assert_eq!(status, 413);
        assert_eq!(body.unwrap()["code"], 40005);
    }
}
