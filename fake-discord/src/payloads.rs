//! Discord-shaped JSON objects (API v10) that the fake sends: users, members, guilds,
//! channels, messages, interactions. Each builder names the Discord API doc it follows.

use serde_json::{Value, json};
use serenity::model::permissions::Permissions;

/// Permissions bit set sent as `app_permissions` (the bot's) and as the `permissions` of
/// channels and of the Admin role: bits 0 to 50, Discord's `permissions` string form (a
/// decimal integer in a string, <https://discord.com/developers/docs/topics/permissions>).
pub(crate) const ALL_PERMISSIONS: &str = "2251799813685247";

/// [`ALL_PERMISSIONS`] as bits.
const ALL_PERMISSION_BITS: u64 = (1 << 51) - 1;

/// What an ordinary member may do (the fake's `@everyone` role): see and write in channels
/// and threads, add reactions, attach files, embed links, read history, use application
/// commands. No Manage Server, no Administrator.
pub const MEMBER_PERMISSIONS: Permissions = Permissions::VIEW_CHANNEL
    .union(Permissions::SEND_MESSAGES)
    .union(Permissions::SEND_MESSAGES_IN_THREADS)
    .union(Permissions::CREATE_PUBLIC_THREADS)
    .union(Permissions::ADD_REACTIONS)
    .union(Permissions::EMBED_LINKS)
    .union(Permissions::ATTACH_FILES)
    .union(Permissions::READ_MESSAGE_HISTORY)
    .union(Permissions::USE_APPLICATION_COMMANDS);

/// The bot's `app_permissions` in a direct message with it: "`app_permissions` includes
/// `ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE` permissions for (G)DMs with other users,
/// and additionally includes `USE_EXTERNAL_EMOJIS` for DMs with the app's bot user"
/// (Interaction Object, footnote to `app_permissions`,
/// <https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-structure>).
/// So not `VIEW_CHANNEL`, `SEND_MESSAGES` or any thread permission: a bot that checked a
/// server channel's needs against it would name them all as missing.
pub const DM_APP_PERMISSIONS: Permissions = Permissions::ATTACH_FILES
    .union(Permissions::EMBED_LINKS)
    .union(Permissions::MENTION_EVERYONE)
    .union(Permissions::USE_EXTERNAL_EMOJIS);

/// The bot's `app_permissions` in a group DM or a DM between users (context
/// PRIVATE_CHANNEL): `ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE`, the same footnote as
/// [`DM_APP_PERMISSIONS`] ("180224").
pub const PRIVATE_CHANNEL_APP_PERMISSIONS: Permissions = Permissions::ATTACH_FILES
    .union(Permissions::EMBED_LINKS)
    .union(Permissions::MENTION_EVERYONE);

/// The `permissions` string Discord puts in an interaction's `member` for a member with
/// `permissions`: the decimal bit set, and every permission (bits 0 to 50) for an
/// Administrator, as Discord computes it
/// (<https://discord.com/developers/docs/topics/permissions#permission-overwrites>).
pub(crate) fn permissions_string(permissions: Permissions) -> String {
    if permissions.administrator() {
        ALL_PERMISSIONS.to_string()
    } else {
        (permissions.bits() & ALL_PERMISSION_BITS).to_string()
    }
}

/// Discord's "epoch" (2015-01-01T00:00:00Z) in Unix milliseconds; snowflakes count from it.
/// Follows <https://discord.com/developers/docs/reference#snowflakes>.
const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

/// Unix milliseconds of 2025-01-01T00:00:00Z: the timestamp of the first generated snowflake,
/// so that ids are deterministic (same order of requests, same ids) yet look real.
const FIRST_SNOWFLAKE_MS: u64 = 1_735_689_600_000;

/// Generates snowflake ids: `(ms since Discord epoch) << 22 | increment`. Each new id is one
/// millisecond after the previous one, so ids are unique, increasing and deterministic.
#[derive(Debug)]
pub(crate) struct Snowflakes {
    next_ms: u64,
}

impl Snowflakes {
    pub(crate) fn new() -> Self {
        Self {
            next_ms: FIRST_SNOWFLAKE_MS - DISCORD_EPOCH_MS,
        }
    }

    pub(crate) fn next(&mut self) -> u64 {
        let id = self.next_ms << 22;
        self.next_ms += 1;
        id
    }

    /// Makes every later id greater than `id` (an id restored from an earlier run of the
    /// fake), so a generated one never collides with it.
    pub(crate) fn skip_past(&mut self, id: u64) {
        self.next_ms = self.next_ms.max((id >> 22) + 1);
    }
}

/// RFC 3339 timestamp of a snowflake (`(id >> 22)` milliseconds after the Discord epoch),
/// as Discord writes message timestamps (`2026-11-28T03:57:04.123000+00:00`):
/// <https://discord.com/developers/docs/reference#snowflakes>.
pub(crate) fn snowflake_timestamp(id: u64) -> String {
    let ms = i128::from((id >> 22) + DISCORD_EPOCH_MS);
    let format = time::macros::format_description!(
        "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:6]+00:00"
    );
    time::OffsetDateTime::from_unix_timestamp_nanos(ms * 1_000_000)
        .ok()
        .and_then(|at| at.format(format).ok())
        // A snowflake's 42 bits of milliseconds end in the year 2154, inside `time`'s range.
        .unwrap_or_default()
}

/// A simulated Discord user who clicks and types in tests (and the demo).
///
/// Follows the User object, <https://discord.com/developers/docs/resources/user#user-object>:
/// `id` is a snowflake, `username` the unique handle, `global_name` the display name (if set).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimUser {
    /// The user's snowflake id.
    pub id: u64,
    /// The unique username (`alice`).
    pub username: String,
    /// The display name (`Alice`), `None` when the user has not set one.
    pub global_name: Option<String>,
    /// The user's permissions in the fake's guild (sent as the interaction `member`'s
    /// `permissions`). [`SimUser::new`] gives every permission (an Administrator); use
    /// [`SimUser::with_permissions`] for an ordinary member (e.g. [`MEMBER_PERMISSIONS`]).
    pub permissions: Permissions,
    /// Roles made with [`crate::FakeDiscord::add_role`] that the user holds (besides the
    /// Admin role of an Administrator), listed in the member's `roles`. They grant no
    /// permission: `permissions` stays the user's whole set.
    pub roles: Vec<u64>,
}

impl SimUser {
    /// A user with the given id and username and no display name.
    pub fn new(id: u64, username: impl Into<String>) -> Self {
        Self {
            id,
            username: username.into(),
            global_name: None,
            permissions: Permissions::all(),
            roles: Vec::new(),
        }
    }

    /// The same user holding these roles (ids from [`crate::FakeDiscord::add_role`]).
    pub fn with_roles(mut self, roles: Vec<u64>) -> Self {
        self.roles = roles;
        self
    }

    /// The same user with these permissions in the guild (instead of every permission).
    /// Administrator implies all the others, as on Discord.
    pub fn with_permissions(mut self, permissions: Permissions) -> Self {
        self.permissions = permissions;
        self
    }

    /// The Guild Member object of this user in an interaction (`member`, or a member of
    /// `data.resolved`): with `permissions`, and the fake's Admin role (`admin_role`) when
    /// the user is an Administrator.
    pub(crate) fn member_json(&self, joined_at: &str, admin_role: u64, with_user: bool) -> Value {
        let mut member = member_json_without_user(joined_at, self.roles(admin_role));
        member["permissions"] = Value::String(permissions_string(self.permissions));
        if with_user {
            member["user"] = self.to_json();
        }
        member
    }

    /// The ids of the roles of this user: the Admin role for an Administrator, then the
    /// roles given with [`SimUser::with_roles`] (the `@everyone` role is implied, as on
    /// Discord).
    pub(crate) fn roles(&self, admin_role: u64) -> Vec<u64> {
        let admin = self.permissions.administrator().then_some(admin_role);
        admin
            .into_iter()
            .chain(self.roles.iter().copied())
            .collect()
    }

    /// The same user with a display name (`global_name`).
    pub fn with_global_name(mut self, global_name: impl Into<String>) -> Self {
        self.global_name = Some(global_name.into());
        self
    }

    /// The Discord User object of this user.
    pub fn to_json(&self) -> Value {
        user_json(self.id, &self.username, self.global_name.as_deref(), false)
    }
}

/// A User object (<https://discord.com/developers/docs/resources/user#user-object>).
pub(crate) fn user_json(id: u64, username: &str, global_name: Option<&str>, bot: bool) -> Value {
    json!({
        "id": id.to_string(),
        "username": username,
        "global_name": global_name,
        "discriminator": "0",
        "avatar": null,
        "bot": bot,
        "system": false,
        "public_flags": 0,
        "flags": 0,
    })
}

/// A Guild Member object without `user` and without `permissions`
/// (<https://discord.com/developers/docs/resources/guild#guild-member-object>; Discord sends
/// `permissions` only in interactions), with these role ids.
pub(crate) fn member_json_without_user(joined_at: &str, roles: Vec<u64>) -> Value {
    let roles: Vec<String> = roles.iter().map(u64::to_string).collect();
    json!({
        "nick": null,
        "avatar": null,
        "roles": roles,
        "joined_at": joined_at,
        "premium_since": null,
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
    })
}

/// A Guild Member object with `user` and these role ids.
pub(crate) fn member_json(user: &Value, joined_at: &str, roles: Vec<u64>) -> Value {
    let mut member = member_json_without_user(joined_at, roles);
    member["user"] = user.clone();
    member
}

/// One option of a slash command or autocomplete interaction, as Discord sends it in
/// `data.options` (Application Command Interaction Data Option,
/// <https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-application-command-interaction-data-option-structure>).
///
/// `kind` is the Application Command Option Type: 1 SUB_COMMAND, 2 SUB_COMMAND_GROUP,
/// 3 STRING, 4 INTEGER, 5 BOOLEAN, 6 USER, 7 CHANNEL, 8 ROLE, 10 NUMBER.
#[derive(Clone, Debug, PartialEq)]
pub struct CommandOption {
    /// The option's name as registered.
    pub name: String,
    /// Application Command Option Type (see the type doc).
    pub kind: u8,
    /// The value (`None` for subcommands and groups).
    pub value: Option<Value>,
    /// Nested options (subcommands and groups only).
    pub options: Vec<CommandOption>,
    /// `true` for the option the user is typing in (autocomplete interactions only).
    pub focused: bool,
    /// A user referred to by a USER option, put into `data.resolved` on dispatch.
    pub resolved_user: Option<SimUser>,
}

/// A role of a guild (<https://discord.com/developers/docs/topics/permissions#role-object>)
/// with the given `permissions` string, at `position` in the role list (0 is `@everyone`).
pub(crate) fn role_json(id: u64, name: &str, position: u64, permissions: &str) -> Value {
    json!({
        "id": id.to_string(),
        "name": name,
        "color": 0,
        "colors": { "primary_color": 0, "secondary_color": null, "tertiary_color": null },
        "hoist": false,
        "icon": null,
        "unicode_emoji": null,
        "position": position,
        "permissions": permissions,
        "managed": false,
        "mentionable": false,
        "flags": 0,
    })
}

impl CommandOption {
    fn leaf(name: impl Into<String>, kind: u8, value: Value) -> Self {
        Self {
            name: name.into(),
            kind,
            value: Some(value),
            options: Vec::new(),
            focused: false,
            resolved_user: None,
        }
    }

    /// A STRING option (type 3).
    pub fn string(name: impl Into<String>, value: impl Into<String>) -> Self {
        Self::leaf(name, 3, Value::String(value.into()))
    }

    /// An INTEGER option (type 4).
    pub fn integer(name: impl Into<String>, value: i64) -> Self {
        Self::leaf(name, 4, json!(value))
    }

    /// A BOOLEAN option (type 5).
    pub fn boolean(name: impl Into<String>, value: bool) -> Self {
        Self::leaf(name, 5, json!(value))
    }

    /// A NUMBER option (type 10, a double).
    pub fn number(name: impl Into<String>, value: f64) -> Self {
        Self::leaf(name, 10, json!(value))
    }

    /// A USER option (type 6): the value is the user's id and the user (and, in a guild, a
    /// member) is added to `data.resolved` as Discord does.
    pub fn user(name: impl Into<String>, user: &SimUser) -> Self {
        let mut option = Self::leaf(name, 6, Value::String(user.id.to_string()));
        option.resolved_user = Some(user.clone());
        option
    }

    /// A ROLE option (type 8): the value is the role's id; on dispatch the role (made with
    /// [`crate::FakeDiscord::add_role`] in the interaction's guild) is added to
    /// `data.resolved.roles` as Discord does.
    pub fn role(name: impl Into<String>, role_id: u64) -> Self {
        Self::leaf(name, 8, Value::String(role_id.to_string()))
    }

    /// A CHANNEL option (type 7): the value is the channel's id; on dispatch the channel (a
    /// channel of the fake in the interaction's guild) is added to `data.resolved.channels`
    /// as a partial channel, as Discord does.
    pub fn channel(name: impl Into<String>, channel_id: u64) -> Self {
        Self::leaf(name, 7, Value::String(channel_id.to_string()))
    }

    /// A SUB_COMMAND (type 1) with its own options.
    pub fn subcommand(name: impl Into<String>, options: Vec<CommandOption>) -> Self {
        Self {
            name: name.into(),
            kind: 1,
            value: None,
            options,
            focused: false,
            resolved_user: None,
        }
    }

    /// A SUB_COMMAND_GROUP (type 2) holding subcommands.
    pub fn subcommand_group(name: impl Into<String>, subcommands: Vec<CommandOption>) -> Self {
        Self {
            kind: 2,
            ..Self::subcommand(name, subcommands)
        }
    }

    /// Marks this option as the one being typed (autocomplete). For autocomplete Discord sends
    /// the partial text as a string even for INTEGER and NUMBER options.
    pub fn focused(mut self) -> Self {
        self.focused = true;
        self
    }

    /// The Discord JSON of this option.
    pub fn to_json(&self) -> Value {
        let mut object = json!({ "name": self.name, "type": self.kind });
        if let Some(value) = &self.value {
            object["value"] = value.clone();
        }
        // Subcommands and groups always carry `options`, `[]` when the subcommand has no
        // parameters or none was given: serenity 0.12 requires the field for types 1 and 2
        // (`missing field options` otherwise); leaf options never have it.
        if matches!(self.kind, 1 | 2) || !self.options.is_empty() {
            object["options"] = Value::Array(self.options.iter().map(Self::to_json).collect());
        }
        if self.focused {
            object["focused"] = Value::Bool(true);
        }
        object
    }

    /// All channel ids given by CHANNEL options in this option and its nested options.
    pub(crate) fn channel_ids(&self, out: &mut Vec<u64>) {
        if self.kind == 7
            && let Some(id) = self.value.as_ref().and_then(Value::as_str)
            && let Ok(id) = id.parse()
        {
            out.push(id);
        }
        for option in &self.options {
            option.channel_ids(out);
        }
    }

    /// All role ids given by ROLE options in this option and its nested options.
    pub(crate) fn role_ids(&self, out: &mut Vec<u64>) {
        if self.kind == 8
            && let Some(id) = self.value.as_ref().and_then(Value::as_str)
            && let Ok(id) = id.parse()
        {
            out.push(id);
        }
        for option in &self.options {
            option.role_ids(out);
        }
    }

    /// All users referred to by this option and its nested options.
    pub(crate) fn resolved_users(&self, out: &mut Vec<SimUser>) {
        if let Some(user) = &self.resolved_user {
            out.push(user.clone());
        }
        for option in &self.options {
            option.resolved_users(out);
        }
    }
}

/// Where a simulated user acts.
#[derive(Clone, Debug)]
pub(crate) struct ChannelContext {
    pub channel: Value,
    pub channel_id: u64,
    pub guild_id: Option<u64>,
}

/// The common fields of an Interaction object
/// (<https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object>):
/// `member` in a guild, `user` in a DM, `context` 0 (GUILD) or 1 (BOT_DM).
pub(crate) fn interaction_base(
    id: u64,
    application_id: u64,
    kind: u8,
    token: &str,
    user: &SimUser,
    place: &ChannelContext,
    admin_role: u64,
) -> Value {
    let mut object = json!({
    "id": id.to_string(),
    "application_id": application_id.to_string(),
    "type": kind,
    "channel_id": place.channel_id.to_string(),
    "channel": place.channel,
    "token": token,
    "version": 1,
    "app_permissions": ALL_PERMISSIONS,
    "locale": "en-US",
    "entitlements": [],
    "attachment_size_limit": 26_214_400,
        });
    match place.guild_id {
        Some(guild_id) => {
            object["guild_id"] = Value::String(guild_id.to_string());
            object["guild_locale"] = Value::String("en-US".into());
            object["member"] = user.member_json(&snowflake_timestamp(id), admin_role, true);
            object["context"] = json!(0);
        }
        None => {
            object["user"] = user.to_json();
            object["context"] = json!(1);
            object["app_permissions"] = json!(DM_APP_PERMISSIONS.bits().to_string());
        }
    }
    object
}

/// `data.resolved` for the users named in options (Resolved Data structure).
pub(crate) fn resolved_json(
    users: &[SimUser],
    in_guild: bool,
    joined_at: &str,
    admin_role: u64,
) -> Option<Value> {
    if users.is_empty() {
        return None;
    }
    let mut users_map = serde_json::Map::new();
    let mut members_map = serde_json::Map::new();
    for user in users {
        users_map.insert(user.id.to_string(), user.to_json());
        members_map.insert(
            user.id.to_string(),
            user.member_json(joined_at, admin_role, false),
        );
    }
    let mut resolved = json!({ "users": users_map });
    if in_guild {
        resolved["members"] = Value::Object(members_map);
    }
    Some(resolved)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snowflake_timestamps_are_rfc3339_of_the_snowflake_time() {
        let mut ids = Snowflakes::new();
        let first = ids.next();
        assert_eq!(
            snowflake_timestamp(first),
            "2025-01-01T00:00:00.000000+00:00"
        );
        let second = ids.next();
        assert!(second > first);
        assert_eq!(
            snowflake_timestamp(second),
            "2025-01-01T00:00:00.001000+00:00"
        );
        // 2024 is a leap year: 2024-02-29 must exist.
        let leap = ((1_709_164_800_000u64 - DISCORD_EPOCH_MS) << 22) | 5;
        assert_eq!(
            snowflake_timestamp(leap),
            "2024-02-29T00:00:00.000000+00:00"
        );
    }

    #[test]
    fn options_serialize_as_discord_sends_them() {
        let option = CommandOption::subcommand(
            "new",
            vec![CommandOption::string("variant", "ato").focused()],
        );
        assert_eq!(
            option.to_json(),
            json!({"name": "new", "type": 1, "options": [
                {"name": "variant", "type": 3, "value": "ato", "focused": true}
            ]})
        );
    }

    /// serenity 0.12 requires `options` on subcommands and groups (`[]` when empty).
    #[test]
    fn option_less_subcommands_carry_an_empty_options_array() {
        let group =
            CommandOption::subcommand_group("a", vec![CommandOption::subcommand("b", vec![])]);
        assert_eq!(
            group.to_json(),
            json!({"name": "a", "type": 2, "options": [{"name": "b", "type": 1, "options": []}]})
        );
        assert_eq!(
            CommandOption::boolean("x", true).to_json(),
            json!({"name": "x", "type": 5, "value": true})
        );
    }

    /// The interaction member's `permissions`: the user's bit set; Administrator means all.
    #[test]
    fn members_carry_their_permissions_and_administrators_the_admin_role() {
        let member = SimUser::new(1, "m").with_permissions(MEMBER_PERMISSIONS);
        let json = member.member_json("2025-01-01T00:00:00+00:00", 77, true);
        assert_eq!(json["permissions"], MEMBER_PERMISSIONS.bits().to_string());
        assert_eq!(json["roles"], json!([]));
        assert_eq!(json["user"]["id"], "1");
        let manager = member.with_permissions(MEMBER_PERMISSIONS | Permissions::MANAGE_GUILD);
        let bits: u64 = manager.member_json("t", 77, false)["permissions"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!(Permissions::from_bits_truncate(bits).manage_guild());
        let admin = SimUser::new(2, "a").with_permissions(Permissions::ADMINISTRATOR);
        let json = admin.member_json("t", 77, false);
        assert_eq!(json["permissions"], ALL_PERMISSIONS);
        assert_eq!(json["roles"], json!(["77"]));
        assert!(json.get("user").is_none());
    }
}
