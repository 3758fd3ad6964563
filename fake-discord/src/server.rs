//! The HTTP side of the fake: axum routes for REST (`/api/v10/...`), the gateway WebSocket
//! (`/gateway`) and attachment downloads (`/attachments/...`).

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, FromRequest, Multipart, Path, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use serde_json::{Value, json};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::Shared;
use super::faults::{Intercept, rate_limited};
use super::records::{RecordedBody, RecordedFile, RecordedRequest};

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

/// Every REST request: Discord's rate-limit headers on answers to `/api/v10/...` (see
/// [`crate::ratelimit`]), the fault plan's faults (see [`crate::faults`]), then
/// [`rest_routed`].
async fn rest(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let method = request.method().as_str().to_uppercase();
    let full_path = request.uri().path().to_string();
    let authorized = is_authorized(&shared, &request);
    let switch = request
        .extensions()
        .get::<ConnectInfo<ResetSwitch>>()
        .map(|info| info.0.clone());
    let mut headers = None;
    let mut intercept = Intercept::Pass;
    if let Some(path) = full_path.strip_prefix("/api/v10/") {
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        let enforced = if authorized {
            shared.faults_lock().enforced_limits()
        } else {
            None
        };
        let (limits, over, over_global) = {
            let mut ratelimits = shared.ratelimits_lock();
            let over_global = if authorized {
                ratelimits.hit_global(&segments)
            } else {
                None
            };
            let (limits, over) = ratelimits.hit_limited(
                &method,
                &segments,
                enforced.map(|e| (e.limit, Duration::from_millis(e.window_ms))),
            );
            (limits, over, over_global)
        };
        if authorized {
            let path = format!("/{path}");
            let bucket = (limits.bucket.clone(), limits.limit);
            let mut faults = shared.faults_lock();
            intercept = match (over_global, over) {
                (Some(retry_after), _) => {
                    faults.log_enforced(&method, &path);
                    rate_limited(retry_after, None)
                }
                (None, Some(retry_after)) => {
                    faults.log_enforced(&method, &path);
                    rate_limited(retry_after, Some(bucket))
                }
                (None, None) => faults.plan_fault(&method, &path, bucket),
            };
        }
        headers = Some(limits);
    }
    if let Intercept::Slow(delay) = intercept {
        tokio::time::sleep(delay).await;
        intercept = Intercept::Pass;
    }
    let reset = matches!(intercept, Intercept::Reset(_));
    let fault_headers = match &intercept {
        Intercept::Answer(_, _, extra) => extra.clone(),
        _ => Vec::new(),
    };
    let mut response = rest_routed(shared.clone(), request, intercept).await;
    if let Some(limits) = headers {
        for (name, value) in limits.pairs().into_iter().chain(fault_headers) {
            if let Ok(value) = HeaderValue::from_str(&value) {
                response.headers_mut().insert(name, value);
            }
        }
    }
    if reset && let Some(switch) = switch {
        switch.trip();
    }
    response
}

/// Whether the request carries the accepted bot token. "401 (UNAUTHORIZED): The
/// `Authorization` header was missing or invalid"
/// (https://discord.com/developers/docs/topics/opcodes-and-status-codes#http): a bot token
/// goes as `Bot <token>`, and only the accepted one counts (FakeDiscord::set_bot_token).
fn is_authorized(shared: &Shared, request: &Request) -> bool {
    request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("Bot ") && shared.read(|s| s.token_accepted(v)))
}

/// Every REST request: read, route against the state (unless `injected` answers it), record,
/// answer. A reset is recorded with status 0.
async fn rest_routed(shared: Arc<Shared>, request: Request, injected: Intercept) -> Response {
    let method = request.method().as_str().to_uppercase();
    let full_path = request.uri().path().to_string();
    let query = request.uri().query().map(str::to_string);
    let authorized = is_authorized(&shared, &request);
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
        let intercept = match injected {
            Intercept::Pass if api && authorized => shared.faults_lock().check(&method, &path),
            other => other,
        };
        let refuse_dm = api
            && authorized
            && matches!(intercept, Intercept::Pass | Intercept::After(_))
            && state.is_dm_message_create(&method, &segments)
            && shared.faults_lock().refuse_dm(&method, &path);
        let routed = if !api {
            None
        } else if !authorized {
            Some((401, Some(json!({ "message": "401: Unauthorized", "code": 0 }))))
        } else if let Intercept::Answer(status, reply, _) = &intercept {
            Some((*status, Some(reply.clone())))
        } else if intercept == Intercept::Reset(false) {
            Some((0, None))
        } else if refuse_dm {
            // https://discord.com/developers/docs/topics/opcodes-and-status-codes#json
            Some((
                403,
                Some(json!({ "message": "Cannot send messages to this user", "code": 50007 })),
            ))
        } else if let Some(existing) =
            crate::faults::nonce_repeat(state, &method, &segments, &body)
        {
            Some((200, Some(existing)))
        } else {
            state.route(&method, &segments, &body)
        };
        let routed = match (routed, intercept) {
            (Some(_), Intercept::After(status)) => Some((
                status,
                Some(json!({ "message": format!("{status}: injected failure"), "code": 0 })),
            )),
            (Some(_), Intercept::Reset(true)) => Some((0, None)),
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
        // Lean mode logs what a request was (method, path, status), not what it carried:
        // a load run makes hundreds of thousands of them.
        let (body, logged_response) = if state.lean {
            (RecordedBody::Empty, Value::Null)
        } else {
            (body, response.clone().unwrap_or(Value::Null))
        };
        state.requests.push(RecordedRequest {
            method: method.clone(),
            path: path.clone(),
            query,
            body,
            status,
            response: logged_response,
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
    upgrade.on_upgrade(move |socket| crate::gateway::connection(shared, socket))
}

// ---- connections that a fault can reset ------------------------------------------------------

/// A switch that resets one TCP connection ([`RestFault::Reset`](crate::RestFault::Reset)).
#[derive(Clone, Debug, Default)]
pub(crate) struct ResetSwitch(Arc<AtomicBool>);

impl ResetSwitch {
    /// From now on the connection fails every read and write, and is closed with a TCP RST.
    pub(crate) fn trip(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// A TCP connection that fails (and is reset, SO_LINGER 0) once its switch is tripped.
pub(crate) struct ResettableStream {
    stream: tokio::net::TcpStream,
    switch: ResetSwitch,
}

impl ResettableStream {
    fn check(&self) -> std::io::Result<()> {
        if self.switch.0.load(Ordering::SeqCst) {
            // Linger 0: closing sends RST instead of FIN, as a reset connection does.
            let _ = self.stream.set_zero_linger();
            return Err(std::io::Error::new(
                std::io::ErrorKind::ConnectionReset,
                "fake-discord: injected connection reset",
            ));
        }
        Ok(())
    }
}

impl AsyncRead for ResettableStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        self.check()?;
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for ResettableStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        self.check()?;
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.check()?;
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        self.check()?;
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// The fake's listener: TCP connections with a [`ResetSwitch`] each.
pub(crate) struct ResettableListener(pub(crate) tokio::net::TcpListener);

impl axum::serve::Listener for ResettableListener {
    type Io = ResettableStream;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        let (stream, addr) = axum::serve::Listener::accept(&mut self.0).await;
        let _ = stream.set_nodelay(true);
        let stream = ResettableStream {
            stream,
            switch: ResetSwitch::default(),
        };
        (stream, addr)
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        self.0.local_addr()
    }
}

impl axum::extract::connect_info::Connected<axum::serve::IncomingStream<'_, ResettableListener>>
    for ResetSwitch
{
    fn connect_info(stream: axum::serve::IncomingStream<'_, ResettableListener>) -> Self {
        stream.io().switch.clone()
    }
}
