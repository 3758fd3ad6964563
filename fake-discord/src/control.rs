//! The control API: JSON over HTTP under `/_control/...`, on the fake's own port, for tests
//! that drive the fake from another process (the `fake-discord` program) or language.
//!
//! Every route is a thin layer over a method of [`FakeDiscord`] (named in the table); the
//! README has a `curl` example for each.
//!
//! | route | does | method of [`FakeDiscord`] |
//! | --- | --- | --- |
//! | `GET /_control/info` | ids and URLs of the fake, and its guilds | [`FakeDiscord::url`], [`FakeDiscord::guild_id`], [`FakeDiscord::guilds`], ... |
//! | `POST /_control/guilds/{id}/leave` | removes the bot from a guild (GUILD_DELETE to its shard; 50001 afterwards) | [`FakeDiscord::remove_bot_from_guild`] |
//! | `GET /_control/ready?timeout_ms=&after=` | waits for the bot's IDENTIFY (READY sent); with `after=N`, for one more than the `N` IDENTIFYs counted so far (a restarted bot) | [`FakeDiscord::wait_until_ready`], [`FakeDiscord::wait_until_identified_after`] |
//! | `GET /_control/commands?timeout_ms=` | waits for command registration, returns the commands | [`FakeDiscord::wait_for_commands`] |
//! | `POST /_control/users` | adds a simulated user | [`FakeDiscord::add_user`] |
//! | `GET /_control/users/{id}` | one known user | [`FakeDiscord::user`] |
//! | `POST /_control/users/{id}/dms` | `{"refuse": bool}`: DMs to the user fail with 50007 or work | [`FakeDiscord::refuse_dms_for`], [`FakeDiscord::allow_dms_for`] |
//! | `POST /_control/dm-channels` | the DM channel of a user | [`FakeDiscord::dm_channel_for`] |
//! | `POST /_control/threads` | adds a public thread | [`FakeDiscord::add_thread`] |
//! | `GET /_control/threads` | every thread | [`FakeDiscord::threads`] |
//! | `POST /_control/threads/{id}/state` | `{"archived", "locked"}`: archives, locks a thread | [`FakeDiscord::set_thread_state`] |
//! | `POST /_control/channels` | `{"type": 0, 5 or 15, "name", "guild_id"?}`: adds a guild channel (in the first guild by default) | [`FakeDiscord::add_channel`], [`FakeDiscord::add_channel_in`] |
//! | `POST /_control/bot-permissions` | `{"permissions"}`: the bot's guild-wide permissions | [`FakeDiscord::set_bot_permissions`] |
//! | `GET /_control/channels/{id}/bot-permissions` | the bot's permissions in a channel | [`FakeDiscord::bot_permissions_in`] |
//! | `POST /_control/channels/{id}/bot-overwrite` | `{"allow", "deny"}`: the bot's overwrite on a channel | [`FakeDiscord::set_bot_overwrite`] |
//! | `POST /_control/clock/advance` | `{"ms"}`: moves the fake's clock forward | [`FakeDiscord::advance`] |
//! | `GET /_control/channels/{id}` | one channel | [`FakeDiscord::channel`] |
//! | `GET /_control/channels/{id}/messages?min_count=&timeout_ms=&bytes=` | the channel's messages (waiting for `min_count`) | [`FakeDiscord::messages_in`], [`FakeDiscord::wait_for_messages_in`] |
//! | `POST /_control/channels/{id}/messages` | a user writes a message (MESSAGE_CREATE) | [`FakeDiscord::user_message`] |
//! | `GET /_control/messages/{id}?bytes=` | one message | [`FakeDiscord::message`] |
//! | `GET /_control/files?bytes=` | every uploaded file | [`FakeDiscord::attachments`] |
//! | `GET /_control/requests?since=&bytes=` | recorded REST requests | [`FakeDiscord::requests`] |
//! | `GET /_control/unknown-routes` | requests no route matched | [`FakeDiscord::unknown_routes`] |
//! | `POST /_control/interactions/command` | a slash command | [`FakeDiscord::slash_command`] |
//! | `POST /_control/interactions/autocomplete` | an autocomplete | [`FakeDiscord::autocomplete`] |
//! | `POST /_control/interactions/button` | a button click | [`FakeDiscord::click_button`] |
//! | `POST /_control/interactions/select` | a string select choice | [`FakeDiscord::select_menu`] |
//! | `GET /_control/interactions/{id}/responses` | every response so far | [`FakeDiscord::interaction_responses`] |
//! | `GET /_control/interactions/{id}/responses/next?timeout_ms=&skip_deferrals=` | long-polls the next response | [`FakeDiscord::next_interaction_response`] |
//! | `GET /_control/faults` | the fault plan (or `null`) and the faults injected so far | [`FakeDiscord::fault_plan`], [`FakeDiscord::injected_faults`] |
//! | `PUT /_control/faults` | a [`crate::FaultPlan`] as JSON: sets it (400 with the reason if invalid) | [`FakeDiscord::set_fault_plan`] |
//! | `DELETE /_control/faults` | removes the plan | [`FakeDiscord::clear_fault_plan`] |
//! | `POST /_control/faults/enabled` | `{"enabled": bool}`: switches the plan off or on (404 without a plan) | [`FakeDiscord::set_faults_enabled`] |
//! | `POST /_control/gateway/faults` | a [`crate::GatewayFault`] as JSON, sent at once to every connection | [`FakeDiscord::gateway_fault`] |
//! | `POST /_control/gateway/heartbeat` | `{"interval_ms"}`: the heartbeat interval of later HELLOs | [`FakeDiscord::set_heartbeat_interval`] |
//! | `GET /_control/gateway` | sessions, IDENTIFY and RESUME counts | [`FakeDiscord::gateway_sessions`], [`FakeDiscord::gateway_counts`] |
//!
//! Conventions:
//! - Ids (snowflakes) are returned as decimal strings, as Discord writes them; requests
//!   accept a string or a number.
//! - Waits are bounded: `timeout_ms` (milliseconds, default [`DEFAULT_TIMEOUT_MS`], at most
//!   [`MAX_TIMEOUT_MS`]). A wait that ends without the awaited thing answers 408.
//! - `bytes=true` adds each file's bytes as standard base64 (`"base64"`); without it a file
//!   has its size and, for stored attachments, the `url` the fake serves its bytes at.
//! - Errors are `{"error": "<what went wrong>"}` with a 4xx status: 400 malformed request,
//!   403 an interaction from a guild the bot is not in, 404 unknown route, guild, user,
//!   channel, message or interaction, 405 wrong method, 408 timeout, 409 no bot connected
//!   to the gateway (on the shard of the interaction's guild: dispatches need one).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, any, get, post};
use base64::Engine as _;
use serde_json::{Value, json};
use serenity::model::permissions::Permissions;

use crate::{
    CommandOption, FakeChannel, FakeDiscord, FakeError, FakeMessage, FaultPlan, GatewayFault,
    InteractionResponse, MEMBER_PERMISSIONS, RecordedBody, RecordedFile, RecordedRequest,
    ResponseKind, SentInteraction, SimUser,
};

/// The wait used when a request gives no `timeout_ms`: 10 000 ms.
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;

/// The longest wait a request may ask for: 300 000 ms (5 minutes).
pub const MAX_TIMEOUT_MS: u64 = 300_000;

type Fake = Arc<FakeDiscord>;
type Params = Query<HashMap<String, String>>;

/// A control API error: a status and the `{"error": ...}` text.
#[derive(Debug)]
struct ControlError(StatusCode, String);

impl IntoResponse for ControlError {
    fn into_response(self) -> Response {
        (self.0, axum::Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<FakeError> for ControlError {
    fn from(error: FakeError) -> Self {
        let status = match error {
            FakeError::Timeout { .. } => StatusCode::REQUEST_TIMEOUT,
            FakeError::NoGatewaySession => StatusCode::CONFLICT,
            FakeError::UnknownMessage(_)
            | FakeError::NoModal(_)
            | FakeError::UnknownChannel(_)
            | FakeError::UnknownGuild(_) => StatusCode::NOT_FOUND,
            FakeError::BotNotInGuild(_)
            | FakeError::NotAMember { .. }
            | FakeError::CommandNotOffered { .. }
            | FakeError::CommandNotPermitted { .. }
            | FakeError::NotInstalledHere { .. } => StatusCode::FORBIDDEN,
            FakeError::WrongChannelType(_)
            | FakeError::UnsupportedChannelType(_)
            | FakeError::ThreadArchived(_) => StatusCode::BAD_REQUEST,
            FakeError::Bind(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ControlError(status, error.to_string())
    }
}

fn bad(message: impl Into<String>) -> ControlError {
    ControlError(StatusCode::BAD_REQUEST, message.into())
}

fn not_found(message: impl Into<String>) -> ControlError {
    ControlError(StatusCode::NOT_FOUND, message.into())
}

type Answer = Result<axum::Json<Value>, ControlError>;

fn ok(value: Value) -> Answer {
    Ok(axum::Json(value))
}

/// The control routes, served by [`FakeDiscord::start_on`] next to the REST API.
pub(crate) fn router(fake: Fake) -> Router {
    Router::new()
        .route("/_control/info", only(get(info)))
        .route("/_control/guilds/{id}/leave", only(post(leave_guild)))
        .route("/_control/ready", only(get(ready)))
        .route("/_control/commands", only(get(commands)))
        .route("/_control/users", only(post(add_user)))
        .route("/_control/users/{id}", only(get(user)))
        .route("/_control/users/{id}/dms", only(post(dms)))
        .route("/_control/dm-channels", only(post(dm_channel)))
        .route("/_control/threads", only(get(threads).post(add_thread)))
        .route("/_control/channels/{id}", only(get(channel)))
        .route("/_control/channels", only(post(add_channel)))
        .route("/_control/threads/{id}/state", only(post(thread_state)))
        .route("/_control/bot-permissions", only(post(bot_permissions)))
        .route("/_control/bot-token", only(post(bot_token)))
        .route("/_control/gateway/reconnect", only(post(gateway_reconnect)))
        .route(
            "/_control/channels/{id}/bot-permissions",
            only(get(bot_permissions_in)),
        )
        .route(
            "/_control/channels/{id}/bot-overwrite",
            only(post(bot_overwrite)),
        )
        .route("/_control/clock/advance", only(post(advance)))
        .route(
            "/_control/channels/{id}/messages",
            only(get(messages).post(user_message)),
        )
        .route("/_control/messages/{id}", only(get(message)))
        .route("/_control/files", only(get(files)))
        .route("/_control/requests", only(get(requests)))
        .route("/_control/unknown-routes", only(get(unknown_routes)))
        .route("/_control/interactions/command", only(post(command)))
        .route(
            "/_control/interactions/autocomplete",
            only(post(autocomplete)),
        )
        .route("/_control/interactions/button", only(post(button)))
        .route("/_control/interactions/select", only(post(select)))
        .route(
            "/_control/interactions/{id}/responses",
            only(get(responses)),
        )
        .route(
            "/_control/interactions/{id}/responses/next",
            only(get(next_response)),
        )
        .route(
            "/_control/faults",
            only(get(faults).put(set_faults).delete(clear_faults)),
        )
        .route("/_control/faults/enabled", only(post(faults_enabled)))
        .route("/_control/gateway", only(get(gateway)))
        .route("/_control/gateway/faults", only(post(gateway_fault)))
        .route("/_control/gateway/heartbeat", only(post(heartbeat)))
        .route("/_control", any(no_route))
        .route("/_control/{*rest}", any(no_route))
        .with_state(fake)
}

/// A method router answering other methods with 405 and a JSON error.
fn only(route: MethodRouter<Fake>) -> MethodRouter<Fake> {
    route.fallback(|method: Method, uri: Uri| async move {
        ControlError(
            StatusCode::METHOD_NOT_ALLOWED,
            format!("{method} is not allowed on {}", uri.path()),
        )
    })
}

async fn no_route(method: Method, uri: Uri) -> ControlError {
    not_found(format!(
        "no control route {method} {} (see fake-discord/README.md)",
        uri.path()
    ))
}

// ---- reading requests ----------------------------------------------------------------------

fn body_json(body: &Bytes) -> Result<Value, ControlError> {
    if body.is_empty() {
        return Ok(json!({}));
    }
    let value: Value =
        serde_json::from_slice(body).map_err(|e| bad(format!("the body is not JSON: {e}")))?;
    if value.is_object() {
        Ok(value)
    } else {
        Err(bad("the body must be a JSON object"))
    }
}

/// A snowflake given as a decimal string or a number.
fn as_id(value: &Value) -> Option<u64> {
    match value {
        Value::String(s) => s.trim().parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

fn id_field(body: &Value, name: &str) -> Result<u64, ControlError> {
    match &body[name] {
        Value::Null => Err(bad(format!("`{name}` is required (a snowflake id)"))),
        value => as_id(value).ok_or_else(|| bad(format!("`{name}` must be a snowflake id"))),
    }
}

fn str_field<'a>(body: &'a Value, name: &str) -> Result<&'a str, ControlError> {
    body[name]
        .as_str()
        .ok_or_else(|| bad(format!("`{name}` is required (a string)")))
}

fn path_id(what: &str, raw: &str) -> Result<u64, ControlError> {
    raw.parse()
        .map_err(|_| bad(format!("the {what} id must be a snowflake, not '{raw}'")))
}

/// The id of an interaction the fake has sent (404 for one it has not).
fn interaction_id(fake: &FakeDiscord, raw: &str) -> Result<u64, ControlError> {
    let id = path_id("interaction", raw)?;
    if !fake.knows_interaction(id) {
        return Err(not_found(format!("unknown interaction {id}")));
    }
    Ok(id)
}

fn flag(params: &HashMap<String, String>, name: &str) -> bool {
    params
        .get(name)
        .is_some_and(|v| matches!(v.as_str(), "" | "1" | "true" | "yes"))
}

fn timeout(params: &HashMap<String, String>) -> Result<Duration, ControlError> {
    let ms = match params.get("timeout_ms") {
        None => DEFAULT_TIMEOUT_MS,
        Some(raw) => raw
            .parse()
            .map_err(|_| bad(format!("timeout_ms must be milliseconds, not '{raw}'")))?,
    };
    if ms > MAX_TIMEOUT_MS {
        return Err(bad(format!(
            "timeout_ms may be at most {MAX_TIMEOUT_MS}, not {ms}"
        )));
    }
    Ok(Duration::from_millis(ms))
}

fn known_user(fake: &FakeDiscord, id: u64) -> Result<SimUser, ControlError> {
    fake.user(id).ok_or_else(|| {
        not_found(format!(
            "unknown user {id}: add it first with POST /_control/users"
        ))
    })
}

/// One option in Discord's own shape (`name`, `type`, `value`, `options`, `focused`). For
/// a USER option (type 6) the value is the id of a known user, who goes into
/// `data.resolved`.
fn command_option(fake: &FakeDiscord, value: &Value) -> Result<CommandOption, ControlError> {
    let name = value["name"]
        .as_str()
        .ok_or_else(|| bad(format!("an option needs a `name`: {value}")))?;
    let kind = value["type"]
        .as_u64()
        .and_then(|k| u8::try_from(k).ok())
        .ok_or_else(|| bad(format!("option `{name}` needs a numeric `type`")))?;
    let nested = match &value["options"] {
        Value::Null => Vec::new(),
        Value::Array(list) => list
            .iter()
            .map(|o| command_option(fake, o))
            .collect::<Result<_, _>>()?,
        _ => return Err(bad(format!("option `{name}`: `options` must be an array"))),
    };
    let mut option = match kind {
        1 => CommandOption::subcommand(name, nested),
        2 => CommandOption::subcommand_group(name, nested),
        6 => {
            let id = as_id(&value["value"])
                .ok_or_else(|| bad(format!("USER option `{name}` needs a user id as `value`")))?;
            CommandOption::user(name, &known_user(fake, id)?)
        }
        _ => {
            if value["value"].is_null() {
                return Err(bad(format!("option `{name}` needs a `value`")));
            }
            CommandOption {
                name: name.to_string(),
                kind,
                value: Some(value["value"].clone()),
                options: nested,
                focused: false,
                resolved_user: None,
            }
        }
    };
    option.focused = value["focused"].as_bool().unwrap_or(false);
    Ok(option)
}

fn command_options(fake: &FakeDiscord, body: &Value) -> Result<Vec<CommandOption>, ControlError> {
    match &body["options"] {
        Value::Null => Ok(Vec::new()),
        Value::Array(list) => list.iter().map(|o| command_option(fake, o)).collect(),
        _ => Err(bad("`options` must be an array")),
    }
}

// ---- writing answers -----------------------------------------------------------------------

fn file_json(
    file: (&str, Option<&str>, &[u8]),
    url: Option<&str>,
    field: Option<&str>,
    bytes: bool,
) -> Value {
    let (filename, content_type, data) = file;
    let mut out = json!({
        "filename": filename,
        "content_type": content_type,
        "size": data.len(),
    });
    if let Some(url) = url {
        out["url"] = json!(url);
    }
    if let Some(field) = field {
        out["field"] = json!(field);
    }
    if bytes {
        out["base64"] = json!(base64::engine::general_purpose::STANDARD.encode(data));
    }
    out
}

fn recorded_file_json(file: &RecordedFile, bytes: bool) -> Value {
    file_json(
        (&file.filename, file.content_type.as_deref(), &file.bytes),
        None,
        Some(&file.field),
        bytes,
    )
}

fn message_json(message: &FakeMessage, bytes: bool) -> Value {
    let attachments: Vec<Value> = message
        .attachments
        .iter()
        .map(|a| {
            let mut out = file_json(
                (&a.filename, a.content_type.as_deref(), &a.bytes),
                Some(&a.url),
                None,
                bytes,
            );
            out["id"] = json!(a.id.to_string());
            out["size"] = json!(a.size);
            out
        })
        .collect();
    json!({
        "id": message.id.to_string(),
        "channel_id": message.channel_id.to_string(),
        "interaction_id": message.interaction_id.map(|id| id.to_string()),
        "author_id": message.author_id().to_string(),
        "content": message.content(),
        "ephemeral": message.is_ephemeral(),
        "custom_ids": message.custom_ids(),
        "attachments": attachments,
        "message": message.json,
        "previous_versions": message.previous_versions,
    })
}

fn channel_json(channel: &FakeChannel) -> Value {
    json!({
        "id": channel.id.to_string(),
        "type": channel.kind(),
        "name": channel.name(),
        "parent_id": channel.parent_id().map(|id| id.to_string()),
        "is_thread": channel.is_thread(),
        "archived": channel.is_archived(),
        "channel": channel.json,
    })
}

fn response_json(response: &InteractionResponse, bytes: bool) -> Value {
    let (kind, callback_type, edited) = match response.kind {
        ResponseKind::Callback { callback_type } => ("callback", Some(callback_type), None),
        ResponseKind::Followup => ("followup", None, None),
        ResponseKind::EditOriginal => ("edit_original", None, None),
        ResponseKind::EditMessage { message_id } => ("edit_message", None, Some(message_id)),
        ResponseKind::Delete { message_id } => ("delete", None, Some(message_id)),
    };
    let choices: Vec<Value> = response
        .choices()
        .into_iter()
        .map(|(name, value)| json!({ "name": name, "value": value }))
        .collect();
    json!({
        "interaction_id": response.interaction_id.to_string(),
        "kind": kind,
        "callback_type": callback_type,
        "target_message_id": edited.map(|id| id.to_string()),
        "message_id": response.message_id.map(|id| id.to_string()),
        "content": response.content(),
        "ephemeral": response.is_ephemeral(),
        "custom_ids": response.custom_ids(),
        "choices": choices,
        "data": response.data(),
        "body": response.body,
        "files": response.files.iter().map(|f| recorded_file_json(f, bytes)).collect::<Vec<_>>(),
    })
}

fn request_json(index: usize, request: &RecordedRequest, bytes: bool) -> Value {
    let (kind, fields) = match &request.body {
        RecordedBody::Empty => ("empty", Vec::new()),
        RecordedBody::Json(_) => ("json", Vec::new()),
        RecordedBody::Multipart { fields, .. } => ("multipart", fields.clone()),
        RecordedBody::Other(_) => ("other", Vec::new()),
    };
    let other = match &request.body {
        RecordedBody::Other(data) => Some(data.len()),
        _ => None,
    };
    json!({
        "index": index,
        "method": request.method,
        "path": request.path,
        "query": request.query,
        "status": request.status,
        "matched": request.matched,
        "body_kind": kind,
        "json": request.body.json(),
        "files": request.body.files().iter().map(|f| recorded_file_json(f, bytes)).collect::<Vec<_>>(),
        "fields": fields.into_iter().map(|(name, value)| json!({ "name": name, "value": value })).collect::<Vec<_>>(),
        "other_body_size": other,
        "response": request.response,
    })
}

fn sent_json(sent: &SentInteraction) -> Value {
    json!({
        "id": sent.id.to_string(),
        "token": sent.token,
        "channel_id": sent.channel_id.to_string(),
    })
}

// ---- handlers ------------------------------------------------------------------------------

async fn info(State(fake): State<Fake>) -> Answer {
    ok(json!({
        "url": fake.url(),
        "api_base": format!("{}/api/v10", fake.url()),
        "gateway_url": fake.gateway_url(),
        "application_id": fake.application_id().to_string(),
        "bot_user_id": fake.bot_user_id().to_string(),
        "guild_id": fake.guild_id().to_string(),
        "text_channel_id": fake.text_channel_id().to_string(),
        "guilds": fake.guilds().iter().map(|g| json!({
            "id": g.id.to_string(),
            "name": g.name,
            "text_channel_id": g.text_channel_id.to_string(),
            "bot_member": g.bot_member,
        })).collect::<Vec<_>>(),
        "identified_sessions": fake.identified_sessions(),
    }))
}

async fn leave_guild(State(fake): State<Fake>, Path(id): Path<String>) -> Answer {
    let id = path_id("guild", &id)?;
    fake.remove_bot_from_guild(id)?;
    ok(json!({ "guild_id": id.to_string(), "bot_member": false }))
}

async fn ready(State(fake): State<Fake>, Query(params): Params) -> Answer {
    let identified = match params.get("after") {
        None => {
            fake.wait_until_ready(timeout(&params)?).await?;
            fake.identified_sessions()
        }
        Some(raw) => {
            let count = raw.parse().map_err(|_| {
                bad(format!(
                    "after must be a count of earlier IDENTIFYs (from /_control/info), not '{raw}'"
                ))
            })?;
            fake.wait_until_identified_after(count, timeout(&params)?)
                .await?
        }
    };
    ok(json!({ "ready": true, "identified_sessions": identified }))
}

async fn commands(State(fake): State<Fake>, Query(params): Params) -> Answer {
    let commands = fake.wait_for_commands(timeout(&params)?).await?;
    ok(json!({ "commands": commands }))
}

async fn add_user(State(fake): State<Fake>, body: Bytes) -> Answer {
    let body = body_json(&body)?;
    let id = id_field(&body, "id")?;
    let username = str_field(&body, "username")?;
    let mut user = SimUser::new(id, username);
    if let Some(name) = body["global_name"].as_str() {
        user = user.with_global_name(name);
    }
    let permissions = permissions_field(&body, "permissions")?;
    user = user.with_permissions(permissions);
    fake.add_user(&user);
    ok(user_json(&user))
}

fn user_json(user: &SimUser) -> Value {
    json!({
        "id": user.id.to_string(),
        "username": user.username,
        "global_name": user.global_name,
        "permissions": user.permissions.bits().to_string(),
        "user": user.to_json(),
    })
}

async fn user(State(fake): State<Fake>, Path(id): Path<String>) -> Answer {
    let user = known_user(&fake, path_id("user", &id)?)?;
    ok(user_json(&user))
}

async fn dms(State(fake): State<Fake>, Path(id): Path<String>, body: Bytes) -> Answer {
    let id = path_id("user", &id)?;
    let body = body_json(&body)?;
    let refuse = body["refuse"]
        .as_bool()
        .ok_or_else(|| bad("`refuse` is required (true or false)"))?;
    if refuse {
        fake.refuse_dms_for(id);
    } else {
        fake.allow_dms_for(id);
    }
    ok(json!({ "user_id": id.to_string(), "refuse": refuse }))
}

async fn dm_channel(State(fake): State<Fake>, body: Bytes) -> Answer {
    let body = body_json(&body)?;
    let id = fake.dm_channel_for(id_field(&body, "user_id")?);
    let channel = fake.channel(id).ok_or_else(|| not_found("no DM channel"))?;
    ok(channel_json(&channel))
}

async fn add_thread(State(fake): State<Fake>, body: Bytes) -> Answer {
    let body = body_json(&body)?;
    let parent = match &body["parent_id"] {
        Value::Null => fake.text_channel_id(),
        _ => id_field(&body, "parent_id")?,
    };
    let id = fake.add_thread(parent, str_field(&body, "name")?)?;
    let channel = fake.channel(id).ok_or_else(|| not_found("no thread"))?;
    ok(channel_json(&channel))
}

/// A permission set: absent or `"all"` every permission, `"member"` [`MEMBER_PERMISSIONS`],
/// `"none"` none, or the decimal bit set (string or number), as Discord writes permissions.
fn permissions_field(body: &Value, name: &str) -> Result<Permissions, ControlError> {
    Ok(match &body[name] {
        Value::Null => Permissions::all(),
        Value::String(s) if s == "all" => Permissions::all(),
        Value::String(s) if s == "member" => MEMBER_PERMISSIONS,
        Value::String(s) if s == "none" => Permissions::empty(),
        other => as_id(other)
            .map(Permissions::from_bits_truncate)
            .ok_or_else(|| {
                bad(format!(
                    "`{name}` must be \"all\", \"member\", \"none\" or a permission bit set (decimal)"
                ))
            })?,
    })
}

async fn add_channel(State(fake): State<Fake>, body: Bytes) -> Answer {
    let body = body_json(&body)?;
    let kind = body["type"]
        .as_u64()
        .and_then(|k| u8::try_from(k).ok())
        .ok_or_else(|| bad("`type` is required: 0 (text), 5 (announcement) or 15 (forum)"))?;
    let name = str_field(&body, "name")?;
    let id = match &body["guild_id"] {
        Value::Null => fake.add_channel(kind, name)?,
        other => {
            let guild = as_id(other).ok_or_else(|| bad("`guild_id` must be a snowflake"))?;
            fake.add_channel_in(guild, kind, name)?
        }
    };
    let channel = fake.channel(id).ok_or_else(|| not_found("no channel"))?;
    ok(channel_json(&channel))
}

async fn thread_state(State(fake): State<Fake>, Path(id): Path<String>, body: Bytes) -> Answer {
    let id = path_id("thread", &id)?;
    let body = body_json(&body)?;
    let current = fake
        .channel(id)
        .ok_or_else(|| not_found(format!("unknown channel {id}")))?;
    let meta = &current.json["thread_metadata"];
    let archived = body["archived"]
        .as_bool()
        .unwrap_or(meta["archived"] == json!(true));
    let locked = body["locked"]
        .as_bool()
        .unwrap_or(meta["locked"] == json!(true));
    fake.set_thread_state(id, archived, locked)?;
    let channel = fake.channel(id).ok_or_else(|| not_found("no thread"))?;
    ok(channel_json(&channel))
}

async fn bot_permissions(State(fake): State<Fake>, body: Bytes) -> Answer {
    let body = body_json(&body)?;
    if body["permissions"].is_null() {
        return Err(bad("`permissions` is required"));
    }
    let permissions = permissions_field(&body, "permissions")?;
    fake.set_bot_permissions(permissions);
    ok(json!({ "permissions": permissions.bits().to_string() }))
}

/// `POST /_control/bot-token {"token": "..." | null}`: [`FakeDiscord::set_bot_token`].
async fn bot_token(State(fake): State<Fake>, body: Bytes) -> Answer {
    let body = body_json(&body)?;
    let token = match &body["token"] {
        Value::Null => None,
        Value::String(t) if !t.trim().is_empty() => Some(t.clone()),
        _ => {
            return Err(bad(
                "`token` must be a non-empty string, or null for any token",
            ));
        }
    };
    fake.set_bot_token(token.as_deref());
    ok(json!({ "any_token": token.is_none() }))
}

/// `POST /_control/gateway/reconnect`: [`FakeDiscord::reconnect_gateway`].
async fn gateway_reconnect(State(fake): State<Fake>) -> Answer {
    ok(json!({ "sessions": fake.reconnect_gateway() }))
}

async fn bot_permissions_in(State(fake): State<Fake>, Path(id): Path<String>) -> Answer {
    let id = path_id("channel", &id)?;
    if fake.channel(id).is_none() {
        return Err(not_found(format!("unknown channel {id}")));
    }
    let permissions = fake.bot_permissions_in(id);
    ok(json!({ "channel_id": id.to_string(), "permissions": permissions.bits().to_string() }))
}

async fn bot_overwrite(State(fake): State<Fake>, Path(id): Path<String>, body: Bytes) -> Answer {
    let id = path_id("channel", &id)?;
    let body = body_json(&body)?;
    let bits = |name: &str| match &body[name] {
        Value::Null => Ok(Permissions::empty()),
        _ => permissions_field(&body, name),
    };
    let (allow, deny) = (bits("allow")?, bits("deny")?);
    fake.set_bot_overwrite(id, allow, deny)?;
    ok(json!({
        "channel_id": id.to_string(),
        "allow": allow.bits().to_string(),
        "deny": deny.bits().to_string(),
        "permissions": fake.bot_permissions_in(id).bits().to_string(),
    }))
}

async fn advance(State(fake): State<Fake>, body: Bytes) -> Answer {
    let body = body_json(&body)?;
    let ms = body["ms"]
        .as_u64()
        .ok_or_else(|| bad("`ms` is required (milliseconds, a non-negative integer)"))?;
    fake.advance(Duration::from_millis(ms));
    ok(json!({ "advanced_ms": ms }))
}

async fn threads(State(fake): State<Fake>) -> Answer {
    let threads: Vec<Value> = fake.threads().iter().map(channel_json).collect();
    ok(json!({ "threads": threads }))
}

async fn channel(State(fake): State<Fake>, Path(id): Path<String>) -> Answer {
    let id = path_id("channel", &id)?;
    let channel = fake
        .channel(id)
        .ok_or_else(|| not_found(format!("unknown channel {id}")))?;
    ok(channel_json(&channel))
}

async fn messages(
    State(fake): State<Fake>,
    Path(id): Path<String>,
    Query(params): Params,
) -> Answer {
    let id = path_id("channel", &id)?;
    if fake.channel(id).is_none() {
        return Err(not_found(format!("unknown channel {id}")));
    }
    let list = match params.get("min_count") {
        None => fake.messages_in(id),
        Some(raw) => {
            let count = raw
                .parse()
                .map_err(|_| bad(format!("min_count must be a number, not '{raw}'")))?;
            fake.wait_for_messages_in(id, count, timeout(&params)?)
                .await?
        }
    };
    let bytes = flag(&params, "bytes");
    let list: Vec<Value> = list.iter().map(|m| message_json(m, bytes)).collect();
    ok(json!({ "messages": list }))
}

async fn user_message(State(fake): State<Fake>, Path(id): Path<String>, body: Bytes) -> Answer {
    let channel = path_id("channel", &id)?;
    let body = body_json(&body)?;
    let user = known_user(&fake, id_field(&body, "user_id")?)?;
    let id = fake.user_message(&user, channel, str_field(&body, "content")?)?;
    let message = fake.message(id).ok_or_else(|| not_found("no message"))?;
    ok(message_json(&message, false))
}

async fn message(
    State(fake): State<Fake>,
    Path(id): Path<String>,
    Query(params): Params,
) -> Answer {
    let id = path_id("message", &id)?;
    let message = fake
        .message(id)
        .ok_or_else(|| not_found(format!("unknown message {id}")))?;
    ok(message_json(&message, flag(&params, "bytes")))
}

async fn files(State(fake): State<Fake>, Query(params): Params) -> Answer {
    let bytes = flag(&params, "bytes");
    let files: Vec<Value> = fake
        .attachments()
        .iter()
        .map(|f| recorded_file_json(f, bytes))
        .collect();
    ok(json!({ "files": files }))
}

async fn requests(State(fake): State<Fake>, Query(params): Params) -> Answer {
    let since = match params.get("since") {
        None => 0,
        Some(raw) => raw
            .parse()
            .map_err(|_| bad(format!("since must be a request index, not '{raw}'")))?,
    };
    let bytes = flag(&params, "bytes");
    let all = fake.requests();
    let list: Vec<Value> = all
        .iter()
        .enumerate()
        .skip(since)
        .map(|(i, r)| request_json(i, r, bytes))
        .collect();
    ok(json!({ "requests": list, "next": all.len() }))
}

async fn unknown_routes(State(fake): State<Fake>) -> Answer {
    let list: Vec<Value> = fake
        .unknown_routes()
        .iter()
        .map(|r| request_json(0, r, false))
        .collect();
    ok(json!({ "requests": list }))
}

async fn command(State(fake): State<Fake>, body: Bytes) -> Answer {
    dispatch_command(&fake, body, false)
}

async fn autocomplete(State(fake): State<Fake>, body: Bytes) -> Answer {
    dispatch_command(&fake, body, true)
}

fn dispatch_command(fake: &FakeDiscord, body: Bytes, autocomplete: bool) -> Answer {
    let body = body_json(&body)?;
    let user = known_user(fake, id_field(&body, "user_id")?)?;
    let channel = match &body["channel_id"] {
        Value::Null => fake.text_channel_id(),
        _ => id_field(&body, "channel_id")?,
    };
    let name = str_field(&body, "name")?;
    let options = command_options(fake, &body)?;
    let sent = if autocomplete {
        fake.autocomplete(&user, channel, name, options)?
    } else {
        fake.slash_command(&user, channel, name, options)?
    };
    ok(sent_json(&sent))
}

async fn button(State(fake): State<Fake>, body: Bytes) -> Answer {
    let body = body_json(&body)?;
    let user = known_user(&fake, id_field(&body, "user_id")?)?;
    let message = id_field(&body, "message_id")?;
    let sent = fake.click_button(&user, message, str_field(&body, "custom_id")?)?;
    ok(sent_json(&sent))
}

async fn select(State(fake): State<Fake>, body: Bytes) -> Answer {
    let body = body_json(&body)?;
    let user = known_user(&fake, id_field(&body, "user_id")?)?;
    let message = id_field(&body, "message_id")?;
    let values: Vec<&str> = body["values"]
        .as_array()
        .and_then(|list| list.iter().map(Value::as_str).collect())
        .ok_or_else(|| bad("`values` is required (an array of strings)"))?;
    let sent = fake.select_menu(&user, message, str_field(&body, "custom_id")?, &values)?;
    ok(sent_json(&sent))
}

async fn responses(
    State(fake): State<Fake>,
    Path(id): Path<String>,
    Query(params): Params,
) -> Answer {
    let id = interaction_id(&fake, &id)?;
    let bytes = flag(&params, "bytes");
    let list: Vec<Value> = fake
        .interaction_responses(id)
        .iter()
        .map(|r| response_json(r, bytes))
        .collect();
    ok(json!({ "responses": list }))
}

/// The next response not yet returned by this route or by
/// [`FakeDiscord::next_interaction_response`] (one cursor per interaction). With
/// `skip_deferrals=true`, deferrals (callback types 5 and 6) are passed over, within the
/// same `timeout_ms`.
async fn next_response(
    State(fake): State<Fake>,
    Path(id): Path<String>,
    Query(params): Params,
) -> Answer {
    let id = interaction_id(&fake, &id)?;
    let timeout = timeout(&params)?;
    let deadline = tokio::time::Instant::now() + timeout;
    let skip = flag(&params, "skip_deferrals");
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let response = fake
            .next_interaction_response(id, left)
            .await
            .map_err(|e| match e {
                FakeError::Timeout { .. } => FakeError::Timeout {
                    what: format!("a response to interaction {id}"),
                    timeout,
                },
                other => other,
            })?;
        let deferral = matches!(
            response.kind,
            ResponseKind::Callback {
                callback_type: 5 | 6
            }
        );
        if !(skip && deferral) {
            return ok(response_json(&response, flag(&params, "bytes")));
        }
    }
}

// ---- faults ----------------------------------------------------------------------------------

fn faults_json(fake: &FakeDiscord) -> Value {
    json!({
        "plan": fake.fault_plan(),
        "injected": fake.injected_faults(),
    })
}

async fn faults(State(fake): State<Fake>) -> Answer {
    ok(faults_json(&fake))
}

async fn set_faults(State(fake): State<Fake>, body: Bytes) -> Answer {
    let plan: FaultPlan = serde_json::from_value(body_json(&body)?)
        .map_err(|e| bad(format!("not a fault plan: {e}")))?;
    fake.set_fault_plan(plan).map_err(|e| bad(e.to_string()))?;
    ok(faults_json(&fake))
}

async fn clear_faults(State(fake): State<Fake>) -> Answer {
    fake.clear_fault_plan();
    ok(faults_json(&fake))
}

async fn faults_enabled(State(fake): State<Fake>, body: Bytes) -> Answer {
    let body = body_json(&body)?;
    let enabled = body["enabled"]
        .as_bool()
        .ok_or_else(|| bad("`enabled` is required (true or false)"))?;
    if !fake.set_faults_enabled(enabled) {
        return Err(not_found(
            "no fault plan: set one first with PUT /_control/faults",
        ));
    }
    ok(faults_json(&fake))
}

async fn gateway(State(fake): State<Fake>) -> Answer {
    let (identifies, resumes) = fake.gateway_counts();
    let sessions: Vec<Value> = fake
        .gateway_sessions()
        .into_iter()
        .map(|s| json!({ "session_id": s.session_id, "seq": s.seq, "connected": s.connected }))
        .collect();
    ok(json!({ "identifies": identifies, "resumes": resumes, "sessions": sessions }))
}

async fn gateway_fault(State(fake): State<Fake>, body: Bytes) -> Answer {
    let fault: GatewayFault = serde_json::from_value(body_json(&body)?)
        .map_err(|e| bad(format!("not a gateway fault: {e}")))?;
    if let GatewayFault::Close { code } = fault
        && !(4000..=4999).contains(&code)
    {
        return Err(bad(format!("a close code must be 4000..=4999, not {code}")));
    }
    let connections = fake.gateway_fault(fault);
    ok(json!({ "connections": connections }))
}

async fn heartbeat(State(fake): State<Fake>, body: Bytes) -> Answer {
    let body = body_json(&body)?;
    let ms = body["interval_ms"]
        .as_u64()
        .filter(|ms| *ms > 0)
        .ok_or_else(|| bad("`interval_ms` is required (milliseconds, at least 1)"))?;
    fake.set_heartbeat_interval(Duration::from_millis(ms));
    ok(json!({ "interval_ms": ms }))
}
