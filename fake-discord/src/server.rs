//! The HTTP side of the fake: axum routes for REST (`/api/v10/...`), the gateway WebSocket
//! (`/gateway`) and attachment downloads (`/attachments/...`).

use std::sync::Arc;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequest, Multipart, Path, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::Shared;
use super::records::{RecordedBody, RecordedFile, RecordedRequest};

/// Heartbeat interval sent in HELLO, in milliseconds (Discord's usual value).
const HEARTBEAT_INTERVAL_MS: u64 = 41_250;

/// Largest request body accepted: 25 MiB, Discord's upload limit for bots
/// (<https://discord.com/developers/docs/reference#uploading-files>).
const MAX_BODY_BYTES: usize = 25 * 1024 * 1024;

pub(crate) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/api/v10/{*path}", any(rest))
        .route("/gateway", get(gateway))
        .route("/attachments/{channel}/{id}/{filename}", get(attachment))
        .fallback(any(rest))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY_BYTES))
        .with_state(shared)
}

fn json_response(status: u16, body: Option<Value>) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    match body {
        None => status.into_response(),
        Some(value) => (status, axum::Json(value)).into_response(),
    }
}

/// Reads the body: JSON, multipart (payload_json + files[n]) or raw bytes.
async fn read_body(request: Request) -> Result<RecordedBody, String> {
    let content_type = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    if content_type.starts_with("multipart/form-data") {
        let mut multipart = Multipart::from_request(request, &())
            .await
            .map_err(|e| format!("bad multipart body: {e}"))?;
        let mut payload_json = None;
        let mut files = Vec::new();
        let mut fields = Vec::new();
        while let Some(field) = multipart
            .next_field()
            .await
            .map_err(|e| format!("bad multipart part: {e}"))?
        {
            let name = field.name().unwrap_or("").to_string();
            let filename = field.file_name().map(str::to_string);
            let part_type = field.content_type().map(str::to_string);
            let bytes = field
                .bytes()
                .await
                .map_err(|e| format!("bad multipart part {name}: {e}"))?;
            if name == "payload_json" {
                let value = serde_json::from_slice(&bytes)
                    .map_err(|e| format!("payload_json is not JSON: {e}"))?;
                payload_json = Some(value);
            } else if let Some(filename) = filename {
                files.push(RecordedFile {
                    field: name,
                    filename,
                    content_type: part_type,
                    bytes: bytes.to_vec(),
                });
            } else {
                fields.push((name, String::from_utf8_lossy(&bytes).into_owned()));
            }
        }
        return Ok(RecordedBody::Multipart {
            payload_json,
            files,
            fields,
        });
    }
    let bytes = Bytes::from_request(request, &())
        .await
        .map_err(|e| format!("unreadable body: {e}"))?;
    if bytes.is_empty() {
        Ok(RecordedBody::Empty)
    } else if let Ok(value) = serde_json::from_slice(&bytes) {
        Ok(RecordedBody::Json(value))
    } else {
        Ok(RecordedBody::Other(bytes.to_vec()))
    }
}

/// Every REST request: [`rest_unlimited`], plus Discord's rate-limit headers on answers to
/// `/api/v10/...` (see [`crate::ratelimit`]).
async fn rest(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let method = request.method().as_str().to_uppercase();
    let full_path = request.uri().path().to_string();
    let mut response = rest_unlimited(shared.clone(), request).await;
    if let Some(path) = full_path.strip_prefix("/api/v10/") {
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        let headers = shared
            .ratelimits
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .hit(&method, &segments);
        for (name, value) in headers.pairs() {
            if let Ok(value) = HeaderValue::from_str(&value) {
                response.headers_mut().insert(name, value);
            }
        }
    }
    response
}

/// Every REST request: read, route against the state, record, answer.
async fn rest_unlimited(shared: Arc<Shared>, request: Request) -> Response {
    let method = request.method().as_str().to_uppercase();
    let full_path = request.uri().path().to_string();
    let query = request.uri().query().map(str::to_string);
    // "401 (UNAUTHORIZED): The `Authorization` header was missing or invalid"
    // (https://discord.com/developers/docs/topics/opcodes-and-status-codes#http): a bot
    // token goes as `Bot <token>`, and only the accepted one (FakeDiscord::set_bot_token).
    let presented = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let authorized = presented
        .as_deref()
        .is_some_and(|v| v.starts_with("Bot ") && shared.read(|s| s.token_accepted(v)));
    let path = full_path
        .strip_prefix("/api/v10")
        .unwrap_or(&full_path)
        .to_string();
    let body = match read_body(request).await {
        Ok(body) => body,
        Err(message) => {
            let reply = json!({ "message": message, "code": 50109 });
            shared.update(|state| {
                state.requests.push(RecordedRequest {
                    method,
                    path,
                    query,
                    body: RecordedBody::Empty,
                    status: 400,
                    response: reply.clone(),
                    matched: true,
                })
            });
            return json_response(400, Some(reply));
        }
    };
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let api = full_path.starts_with("/api/v10/");
    let (status, response, matched) = shared.update(|state| {
        let intercept = if api && authorized {
            shared
                .faults
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .check(&method, &path)
        } else {
            crate::faults::Intercept::Pass
        };
        let routed = if !api {
            None
        } else if !authorized {
            Some((401, Some(json!({ "message": "401: Unauthorized", "code": 0 }))))
        } else if let crate::faults::Intercept::Answer(status, reply) = &intercept {
            Some((*status, Some(reply.clone())))
        } else if let Some(existing) =
            crate::faults::nonce_repeat(state, &method, &segments, &body)
        {
            Some((200, Some(existing)))
        } else {
            state.route(&method, &segments, &body)
        };
        let routed = match (routed, intercept) {
            (Some(_), crate::faults::Intercept::After(status)) => Some((
                status,
                Some(json!({ "message": format!("{status}: injected failure"), "code": 0 })),
            )),
            (routed, _) => routed,
        };
        let (status, response, matched) = match routed {
            Some((status, response)) => (status, response, true),
            None => (
                404,
                Some(json!({
                    "message": format!("404: Not Found (the fake Discord has no route {method} {full_path})"),
                    "code": 0
                })),
                false,
            ),
        };
        state.requests.push(RecordedRequest {
            method: method.clone(),
            path: path.clone(),
            query,
            body,
            status,
            response: response.clone().unwrap_or(Value::Null),
            matched,
        });
        (status, response, matched)
    });
    if !matched {
        tracing_warn(&format!("fake Discord: unknown route {method} {full_path}"));
    }
    json_response(status, response)
}

fn tracing_warn(message: &str) {
    eprintln!("{message}");
}

/// Serves uploaded attachment bytes at the `url` given in Attachment objects.
async fn attachment(
    State(shared): State<Arc<Shared>>,
    Path((_channel, id, _filename)): Path<(u64, u64, String)>,
) -> Response {
    let found = shared.read(|state| {
        state
            .messages
            .iter()
            .flat_map(|m| m.attachments.iter())
            .find(|a| a.id == id)
            .cloned()
    });
    match found {
        Some(attachment) => {
            let mut response = Response::new(Body::from(attachment.bytes));
            if let Some(content_type) = attachment
                .content_type
                .and_then(|c| HeaderValue::from_str(&c).ok())
            {
                response
                    .headers_mut()
                    .insert(header::CONTENT_TYPE, content_type);
            }
            response
        }
        None => json_response(
            404,
            Some(json!({ "message": "Unknown Attachment", "code": 0 })),
        ),
    }
}

async fn gateway(State(shared): State<Arc<Shared>>, upgrade: WebSocketUpgrade) -> Response {
    upgrade.on_upgrade(move |socket| gateway_session(shared, socket))
}

/// One gateway connection (<https://discord.com/developers/docs/events/gateway#connection-lifecycle>):
/// HELLO (op 10), then IDENTIFY (op 2) -> READY + GUILD_CREATE, or RESUME (op 6) -> RESUMED;
/// HEARTBEAT (op 1) -> HEARTBEAT_ACK (op 11); dispatches (op 0) carry a sequence number `s`.
/// Sent as JSON text frames (no compression: serenity does not ask for it).
async fn gateway_session(shared: Arc<Shared>, mut socket: WebSocket) {
    let hello = json!({ "op": 10, "d": { "heartbeat_interval": HEARTBEAT_INTERVAL_MS }, "s": null, "t": null });
    if socket
        .send(Message::Text(hello.to_string().into()))
        .await
        .is_err()
    {
        return;
    }
    let (tx, mut rx) = mpsc::unbounded_channel::<(String, Value)>();
    let mut seq: u64 = 0;
    let mut shutdown = shared.shutdown.subscribe();
    loop {
        tokio::select! {
            () = async { drop(shutdown.wait_for(|stopped| *stopped).await) } => {
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => text.to_string(),
                    Some(Ok(Message::Binary(bytes))) => String::from_utf8_lossy(&bytes).into_owned(),
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                };
                let Ok(payload) = serde_json::from_str::<Value>(&text) else { continue };
                let mut replies = Vec::new();
                // Gateway Close Event Codes: "4004 Authentication failed: The account token
                // sent with your identify payload is incorrect", not to be reconnected
                // (https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-close-event-codes).
                // RESUME carries the token too and is refused the same way.
                let op = payload["op"].as_u64();
                if matches!(op, Some(2 | 6))
                    && !shared.read(|s| s.token_accepted(payload["d"]["token"].as_str().unwrap_or("")))
                {
                    let close = axum::extract::ws::CloseFrame {
                        code: 4004,
                        reason: "Authentication failed.".into(),
                    };
                    let _ = socket.send(Message::Close(Some(close))).await;
                    break;
                }
                match op {
                    Some(1) => replies.push(json!({ "op": 11, "d": null, "s": null, "t": null })),
                    Some(2) => {
                        let events = shared.update(|state| {
                            let session_id = format!("fake-session-{}", state.ids.next());
                            let ready = state.ready_json(&session_id);
                            // GUILD_PRESENCES is intent bit 8
                            // (https://discord.com/developers/docs/events/gateway#list-of-intents).
                            let presences = payload["d"]["intents"]
                                .as_u64()
                                .is_some_and(|bits| bits & (1 << 8) != 0);
                            let guild = state.guild_create_json(presences);
                            state.sessions.push(tx.clone());
                            state.identified_sessions += 1;
                            [("READY", ready), ("GUILD_CREATE", guild)]
                        });
                        for (name, data) in events {
                            seq += 1;
                            replies.push(json!({ "op": 0, "s": seq, "t": name, "d": data }));
                        }
                    }
                    Some(6) => {
                        shared.update(|state| state.sessions.push(tx.clone()));
                        seq += 1;
                        replies.push(json!({ "op": 0, "s": seq, "t": "RESUMED", "d": {} }));
                    }
                    _ => {}
                }
                for reply in replies {
                    if socket.send(Message::Text(reply.to_string().into())).await.is_err() {
                        return;
                    }
                }
            }
            event = rx.recv() => {
                let Some((name, data)) = event else { break };
                if name == crate::state::RECONNECT {
                    // "7 Reconnect: You should attempt to reconnect and resume immediately"
                    // (https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-opcodes).
                    let frame = json!({ "op": 7, "d": null, "s": null, "t": null });
                    let _ = socket.send(Message::Text(frame.to_string().into())).await;
                    continue;
                }
                seq += 1;
                let frame = json!({ "op": 0, "s": seq, "t": name, "d": data });
                if socket.send(Message::Text(frame.to_string().into())).await.is_err() {
                    break;
                }
            }
        }
    }
}
