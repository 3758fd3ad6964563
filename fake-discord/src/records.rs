//! What the fake records and what tests read back: requests, messages, channels, interaction
//! responses.

use serde_json::Value;

/// One REST request the bot made to the fake, with the fake's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedRequest {
    /// HTTP method in upper case (`GET`, `POST`, `PATCH`, `PUT`, `DELETE`).
    pub method: String,
    /// The path after `/api/v10`, e.g. `/channels/123/messages`.
    pub path: String,
    /// The raw query string without `?`, if any (serenity writes `?&key=value`).
    pub query: Option<String>,
    /// The request body.
    pub body: RecordedBody,
    /// The HTTP status the fake answered with.
    pub status: u16,
    /// The JSON the fake answered with (`Value::Null` for 204 No Content).
    pub response: Value,
    /// `false` when no route of the fake matched (answered 404, see [`super::FakeDiscord::unknown_routes`]).
    pub matched: bool,
}

/// The body of a recorded request.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordedBody {
    /// No body.
    Empty,
    /// An `application/json` body.
    Json(Value),
    /// A `multipart/form-data` body: Discord's `payload_json` part plus `files[n]` parts
    /// (<https://discord.com/developers/docs/reference#uploading-files>).
    Multipart {
        /// The parsed `payload_json` part, if present.
        payload_json: Option<Value>,
        /// The file parts in the order sent.
        files: Vec<RecordedFile>,
        /// Other text parts as (name, value).
        fields: Vec<(String, String)>,
    },
    /// Any other body, kept as bytes.
    Other(Vec<u8>),
}

impl RecordedBody {
    /// The JSON payload: the body itself for JSON, `payload_json` for multipart.
    pub fn json(&self) -> Option<&Value> {
        match self {
            RecordedBody::Json(value) => Some(value),
            RecordedBody::Multipart { payload_json, .. } => payload_json.as_ref(),
            _ => None,
        }
    }

    /// The uploaded files (empty unless multipart).
    pub fn files(&self) -> &[RecordedFile] {
        match self {
            RecordedBody::Multipart { files, .. } => files,
            _ => &[],
        }
    }
}

/// One uploaded file part of a multipart request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedFile {
    /// The form field name, e.g. `files[0]`.
    pub field: String,
    /// The file name given by the client, e.g. `board.png`.
    pub filename: String,
    /// The part's content type, if given (serenity guesses it from the file name).
    pub content_type: Option<String>,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

impl RecordedFile {
    /// The file part with its bytes dropped (name, field and content type kept): what lean
    /// mode keeps ([`crate::FakeDiscord::set_lean`]).
    pub fn without_bytes(&self) -> RecordedFile {
        RecordedFile {
            field: self.field.clone(),
            filename: self.filename.clone(),
            content_type: self.content_type.clone(),
            bytes: Vec::new(),
        }
    }
}

/// An attachment stored on a message, with its bytes (Attachment object,
/// <https://discord.com/developers/docs/resources/message#attachment-object>).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeAttachment {
    /// The attachment's snowflake id.
    pub id: u64,
    /// The file name.
    pub filename: String,
    /// The content type, if known.
    pub content_type: Option<String>,
    /// The bytes uploaded (empty in lean mode: [`crate::FakeDiscord::set_lean`]).
    pub bytes: Vec<u8>,
    /// The size of the upload in bytes (also in lean mode).
    pub size: usize,
    /// Width and height in pixels, when the upload is a PNG (also in lean mode).
    pub dimensions: Option<(u32, u32)>,
    /// Where the fake serves the bytes (`http://127.0.0.1:PORT/attachments/...`).
    pub url: String,
}

/// A message stored by the fake: posted by the bot (channel messages, webhook followups,
/// interaction responses) or added by a test.
#[derive(Clone, Debug, PartialEq)]
pub struct FakeMessage {
    /// The message's snowflake id.
    pub id: u64,
    /// The channel (or thread, or DM channel) it is in.
    pub channel_id: u64,
    /// The interaction whose response or followup this message is, if any.
    pub interaction_id: Option<u64>,
    /// The full Message object as the fake returns it
    /// (<https://discord.com/developers/docs/resources/message#message-object>).
    pub json: Value,
    /// The attachments with their bytes.
    pub attachments: Vec<FakeAttachment>,
    /// The Message objects it was before each edit, oldest first (empty if never edited):
    /// what anyone could read before the edit replaced it.
    pub previous_versions: Vec<Value>,
}

/// Whether a Message object, or an interaction response's data, carries the EPHEMERAL flag
/// (64): only the interacting user sees it
/// (<https://discord.com/developers/docs/resources/message#message-object-message-flags>).
pub fn is_ephemeral(message: &Value) -> bool {
    message["flags"].as_u64().unwrap_or(0) & 64 != 0
}

impl FakeMessage {
    /// Every version of the Message object, oldest first: the
    /// [previous versions](FakeMessage::previous_versions), then the current one.
    pub fn versions(&self) -> impl Iterator<Item = &Value> {
        self.previous_versions
            .iter()
            .chain(std::iter::once(&self.json))
    }

    /// The text content (`""` when none).
    pub fn content(&self) -> &str {
        self.json["content"].as_str().unwrap_or("")
    }

    /// The embeds (Embed objects as the bot sent them, plus `type: "rich"`).
    pub fn embeds(&self) -> &[Value] {
        self.json["embeds"].as_array().map_or(&[], Vec::as_slice)
    }

    /// The top-level components (action rows).
    pub fn components(&self) -> &[Value] {
        self.json["components"]
            .as_array()
            .map_or(&[], Vec::as_slice)
    }

    /// Every `custom_id` of the buttons and selects in this message, in order.
    pub fn custom_ids(&self) -> Vec<String> {
        fn walk(value: &Value, out: &mut Vec<String>) {
            if let Some(id) = value["custom_id"].as_str() {
                out.push(id.to_string());
            }
            if let Some(children) = value["components"].as_array() {
                children.iter().for_each(|child| walk(child, out));
            }
        }
        let mut out = Vec::new();
        self.components().iter().for_each(|row| walk(row, &mut out));
        out
    }

    /// Message flags bit set (64 = EPHEMERAL).
    pub fn flags(&self) -> u64 {
        self.json["flags"].as_u64().unwrap_or(0)
    }

    /// Whether the message is ephemeral (flag 64, only the interacting user sees it).
    pub fn is_ephemeral(&self) -> bool {
        is_ephemeral(&self.json)
    }

    /// The user who triggered the interaction this message answers (its
    /// `interaction_metadata.user`,
    /// <https://discord.com/developers/docs/resources/message#message-interaction-metadata-object>),
    /// `None` for messages not created by an interaction. For an ephemeral message this is
    /// the only user who sees it.
    pub fn interaction_user_id(&self) -> Option<u64> {
        self.json["interaction_metadata"]["user"]["id"]
            .as_str()
            .and_then(|id| id.parse().ok())
    }

    /// The slash command this message answers (`interaction_metadata.name`), if any.
    pub fn interaction_command(&self) -> Option<&str> {
        self.json["interaction_metadata"]["name"].as_str()
    }

    /// The author's user id.
    pub fn author_id(&self) -> u64 {
        self.json["author"]["id"]
            .as_str()
            .and_then(|id| id.parse().ok())
            .unwrap_or(0)
    }
}

/// A channel known to the fake: the guild text channel, threads, DM channels.
#[derive(Clone, Debug, PartialEq)]
pub struct FakeChannel {
    /// The channel's snowflake id.
    pub id: u64,
    /// The Channel object as the fake returns it
    /// (<https://discord.com/developers/docs/resources/channel#channel-object>).
    pub json: Value,
}

impl FakeChannel {
    /// Channel type: 0 GUILD_TEXT, 1 DM, 11 PUBLIC_THREAD, 12 PRIVATE_THREAD.
    pub fn kind(&self) -> u8 {
        self.json["type"].as_u64().unwrap_or(0) as u8
    }

    /// The name (`None` for DM channels).
    pub fn name(&self) -> Option<&str> {
        self.json["name"].as_str()
    }

    /// The parent channel of a thread.
    pub fn parent_id(&self) -> Option<u64> {
        self.json["parent_id"]
            .as_str()
            .and_then(|id| id.parse().ok())
    }

    /// Whether this is a thread (type 10, 11 or 12).
    pub fn is_thread(&self) -> bool {
        matches!(self.kind(), 10..=12)
    }

    /// Whether the thread is archived (`thread_metadata.archived`); `false` for non-threads.
    pub fn is_archived(&self) -> bool {
        self.json["thread_metadata"]["archived"]
            .as_bool()
            .unwrap_or(false)
    }
}

/// How the bot answered an interaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResponseKind {
    /// `POST /interactions/{id}/{token}/callback` with this Interaction Callback Type:
    /// 1 PONG, 4 CHANNEL_MESSAGE_WITH_SOURCE, 5 DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
    /// 6 DEFERRED_UPDATE_MESSAGE, 7 UPDATE_MESSAGE, 8 APPLICATION_COMMAND_AUTOCOMPLETE_RESULT,
    /// 9 MODAL.
    Callback {
        /// The callback `type`.
        callback_type: u8,
    },
    /// `POST /webhooks/{application}/{token}` (followup message). The first followup after
    /// a deferred callback (type 5) replaces the "thinking" message, as on Discord.
    Followup,
    /// `PATCH /webhooks/{application}/{token}/messages/@original`.
    EditOriginal,
    /// `PATCH /webhooks/{application}/{token}/messages/{message_id}` (edit a followup).
    EditMessage {
        /// The edited message.
        message_id: u64,
    },
    /// `DELETE /webhooks/{application}/{token}/messages/@original` or `/{message_id}`.
    Delete {
        /// The deleted message.
        message_id: u64,
    },
}

/// One response of the bot to an interaction (callback, followup, edit or delete).
#[derive(Clone, Debug, PartialEq)]
pub struct InteractionResponse {
    /// The interaction answered.
    pub interaction_id: u64,
    /// Which endpoint was used.
    pub kind: ResponseKind,
    /// The JSON body (or `payload_json`). For callbacks this is the whole
    /// `{"type": .., "data": {..}}` object.
    pub body: Value,
    /// Files uploaded with it.
    pub files: Vec<RecordedFile>,
    /// The message created or changed by it, if any.
    pub message_id: Option<u64>,
    /// Whether that message was ephemeral once the response was applied (an edit keeps
    /// the flag the original got: Edit Original Interaction Response cannot change it).
    pub message_ephemeral: bool,
}

impl InteractionResponse {
    /// The message data: `body.data` for callbacks, `body` for webhook requests.
    pub fn data(&self) -> &Value {
        match self.kind {
            ResponseKind::Callback { .. } => &self.body["data"],
            _ => &self.body,
        }
    }

    /// The message content, if the response sets one.
    pub fn content(&self) -> Option<&str> {
        self.data()["content"].as_str()
    }

    /// Whether the response asks for an ephemeral message (flag 64), or edits one (Discord
    /// keeps the original's flags through Edit Original Interaction Response, whose body
    /// has no `flags` beyond SUPPRESS_EMBEDS:
    /// <https://discord.com/developers/docs/resources/webhook#edit-webhook-message>).
    pub fn is_ephemeral(&self) -> bool {
        is_ephemeral(self.data())
            || (matches!(
                self.kind,
                ResponseKind::EditOriginal | ResponseKind::EditMessage { .. }
            ) && self.message_ephemeral)
    }

    /// Autocomplete choices as (name, value) for a type 8 callback; empty otherwise.
    pub fn choices(&self) -> Vec<(String, Value)> {
        self.data()["choices"]
            .as_array()
            .map(|choices| {
                choices
                    .iter()
                    .map(|c| {
                        (
                            c["name"].as_str().unwrap_or_default().to_string(),
                            c["value"].clone(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Every `custom_id` of the components in the response data.
    pub fn custom_ids(&self) -> Vec<String> {
        FakeMessage {
            id: 0,
            channel_id: 0,
            interaction_id: None,
            json: self.data().clone(),
            attachments: Vec::new(),
            previous_versions: Vec::new(),
        }
        .custom_ids()
    }
}

/// An interaction the fake dispatched over the gateway.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentInteraction {
    /// The interaction's snowflake id.
    pub id: u64,
    /// The interaction token (used in callback and webhook URLs).
    pub token: String,
    /// The channel it happened in.
    pub channel_id: u64,
}
