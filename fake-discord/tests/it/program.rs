//! The `fake-discord` program: its first stdout line, the control API over HTTP with a
//! hand-played bot on the gateway (WebSocket) and REST, the rate-limit headers, and a clean
//! stop on SIGTERM.
//!
//! Also, this file makes cargo build the `fake-discord` binary whenever this package's tests
//! are selected (`cargo test --workspace` included): the `kaboom` package's `serve_process` test finds
//! it next to `kaboom`.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fake_discord::testing::{json_or_null, with_json, with_multipart};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

const WAIT: Duration = Duration::from_secs(10);

struct Fake(Child);

impl Drop for Fake {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start() -> (Fake, String) {
    start_with(&[])
}

/// The program with extra arguments (e.g. `--guilds 3`).
fn start_with(extra: &[&str]) -> (Fake, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fake-discord"))
        .args(["--port", "0", "--exit-on-stdin-eof"])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let fake = Fake(child);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(WAIT).unwrap();
    let url = line
        .trim()
        .strip_prefix("fake-discord listening on ")
        .unwrap()
        .to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    (fake, url)
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .no_proxy()
        .timeout(WAIT)
        .build()
        .unwrap()
}

async fn send(
    request: reqwest::RequestBuilder,
    body: Option<Value>,
) -> (u16, Value, reqwest::header::HeaderMap) {
    let response = with_json(request, body).send().await.unwrap();
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let bytes = response.bytes().await.unwrap();
    (status, json_or_null(&bytes), headers)
}

async fn control(
    url: &str,
    method: reqwest::Method,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let (status, value, _) = send(
        client().request(method, format!("{url}/_control{path}")),
        body,
    )
    .await;
    (status, value)
}

#[tokio::test]
async fn the_program_serves_the_control_api_to_a_bot_in_another_process() {
    let (mut fake, url) = start();
    use reqwest::Method;

    // Errors are JSON with a 4xx status.
    let (status, error) = control(&url, Method::GET, "/ready?timeout_ms=50", None).await;
    assert_eq!(status, 408);
    assert!(
        error["error"].as_str().unwrap().contains("IDENTIFY"),
        "{error}"
    );
    let (status, error) = control(&url, Method::GET, "/nothing-here", None).await;
    assert_eq!(status, 404);
    assert!(error["error"].is_string());
    let (status, _) = control(&url, Method::DELETE, "/info", None).await;
    assert_eq!(status, 405);
    let (status, error) = control(&url, Method::POST, "/users", Some(json!({ "id": 1 }))).await;
    assert_eq!(status, 400);
    assert!(
        error["error"].as_str().unwrap().contains("username"),
        "{error}"
    );
    let (status, error) = control(&url, Method::GET, "/ready?timeout_ms=999999999", None).await;
    assert_eq!((status, error["error"].is_string()), (400, true));

    let (_, info) = control(&url, Method::GET, "/info", None).await;
    let channel = info["text_channel_id"].as_str().unwrap().to_string();
    let app = info["application_id"].as_str().unwrap().to_string();
    control(
        &url,
        Method::POST,
        "/users",
        Some(json!({ "id": "1001", "username": "alice", "permissions": "member" })),
    )
    .await;
    // Without a bot on the gateway a dispatch is refused with 409.
    let command = json!({ "user_id": 1001, "channel_id": channel, "name": "ping", "options": [] });
    let (status, _) = control(
        &url,
        Method::POST,
        "/interactions/command",
        Some(command.clone()),
    )
    .await;
    assert_eq!(status, 409);

    // A bot by hand: the gateway from GET /gateway/bot, HELLO, IDENTIFY, READY.
    let (status, gateway, headers) = send(
        client()
            .get(format!("{url}/api/v10/gateway/bot"))
            .header("Authorization", "Bot token"),
        None,
    )
    .await;
    assert_eq!(status, 200);
    for name in [
        "x-ratelimit-limit",
        "x-ratelimit-remaining",
        "x-ratelimit-reset",
        "x-ratelimit-reset-after",
        "x-ratelimit-bucket",
    ] {
        assert!(headers.contains_key(name), "{name} missing: {headers:?}");
    }
    let remaining: u32 = headers["x-ratelimit-remaining"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(remaining >= 1);
    let ws_url = format!("{}?v=10&encoding=json", gateway["url"].as_str().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(ws_url).await.unwrap();
    let identify = json!({ "op": 2, "d": { "token": "token", "intents": 1, "properties": {} } });
    ws.send(Message::Text(identify.to_string())).await.unwrap();
    let (status, _) = control(&url, Method::GET, "/ready?timeout_ms=5000", None).await;
    assert_eq!(status, 200);

    // The bot registers a command; the control API sees it.
    let (status, _, _) = send(
        client()
            .put(format!("{url}/api/v10/applications/{app}/commands"))
            .header("Authorization", "Bot token"),
        Some(json!([{ "name": "ping", "description": "Ping", "type": 1 }])),
    )
    .await;
    assert_eq!(status, 200);
    let (_, commands) = control(&url, Method::GET, "/commands?timeout_ms=5000", None).await;
    assert_eq!(commands["commands"][0]["name"], "ping");

    // alice's /ping arrives on the gateway; the bot answers with a file (multipart).
    let (status, sent) = control(&url, Method::POST, "/interactions/command", Some(command)).await;
    assert_eq!(status, 200, "{sent}");
    let interaction = loop {
        let frame = tokio::time::timeout(WAIT, ws.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        let Message::Text(text) = frame else { continue };
        let event: Value = serde_json::from_str(&text).unwrap();
        if event["t"] == "INTERACTION_CREATE" {
            break event["d"].clone();
        }
    };
    assert_eq!(interaction["id"], sent["id"]);
    assert_eq!(interaction["data"]["name"], "ping");
    let boundary = "fakeboundary";
    let payload = json!({ "type": 4, "data": { "content": "pong", "attachments": [{ "id": 0, "filename": "a.txt" }] } });
    let body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{payload}\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"a.txt\"\r\n\
         Content-Type: text/plain\r\n\r\nhello\r\n--{boundary}--\r\n"
    );
    let callback = format!(
        "{url}/api/v10/interactions/{}/{}/callback",
        sent["id"].as_str().unwrap(),
        sent["token"].as_str().unwrap()
    );
    let request = client().post(callback).header("Authorization", "Bot token");
    let response = with_multipart(request, boundary, body)
        .send()
        .await
        .unwrap();
    assert!(response.status().is_success(), "{}", response.status());

    // The answer, long-polled; then the channel's messages with the file's bytes.
    let id = sent["id"].as_str().unwrap();
    let (status, answer) = control(
        &url,
        Method::GET,
        &format!("/interactions/{id}/responses/next?timeout_ms=5000&bytes=true"),
        None,
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        (answer["kind"].as_str(), answer["callback_type"].as_u64()),
        (Some("callback"), Some(4))
    );
    assert_eq!(answer["content"], "pong");
    assert_eq!(answer["files"][0]["base64"], "aGVsbG8=");
    let (status, _) = control(
        &url,
        Method::GET,
        &format!("/interactions/{id}/responses/next?timeout_ms=50"),
        None,
    )
    .await;
    assert_eq!(status, 408, "no second response");
    let (_, messages) = control(
        &url,
        Method::GET,
        &format!("/channels/{channel}/messages?min_count=1&timeout_ms=5000&bytes=true"),
        None,
    )
    .await;
    let message = &messages["messages"][0];
    assert_eq!(message["content"], "pong");
    assert_eq!(message["attachments"][0]["filename"], "a.txt");
    assert_eq!(message["attachments"][0]["size"], 5);
    assert_eq!(message["attachments"][0]["base64"], "aGVsbG8=");
    let file_url = message["attachments"][0]["url"].as_str().unwrap();
    let bytes = client()
        .get(file_url)
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    assert_eq!(&bytes[..], b"hello");
    let (_, files) = control(&url, Method::GET, "/files", None).await;
    assert_eq!(files["files"][0]["filename"], "a.txt");
    let (_, requests) = control(&url, Method::GET, "/requests?since=1", None).await;
    let paths: Vec<&str> = requests["requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["path"].as_str().unwrap())
        .collect();
    assert!(paths.iter().any(|p| p.ends_with("/callback")), "{paths:?}");
    let (_, unknown) = control(&url, Method::GET, "/unknown-routes", None).await;
    assert_eq!(unknown["requests"], json!([]));

    // Threads and a user's message in one.
    let (_, thread) = control(
        &url,
        Method::POST,
        "/threads",
        Some(json!({ "name": "game-1" })),
    )
    .await;
    let thread_id = thread["id"].as_str().unwrap();
    assert_eq!(thread["is_thread"], true);
    let (status, written) = control(
        &url,
        Method::POST,
        &format!("/channels/{thread_id}/messages"),
        Some(json!({ "user_id": 1001, "content": "gg" })),
    )
    .await;
    assert_eq!((status, written["content"].as_str()), (200, Some("gg")));
    let (_, threads) = control(&url, Method::GET, "/threads", None).await;
    assert_eq!(threads["threads"].as_array().unwrap().len(), 1);

    // SIGTERM stops it cleanly (exit status 0).
    #[cfg(unix)]
    {
        let pid = fake.0.id().to_string();
        let killed = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(killed.success());
        let deadline = std::time::Instant::now() + WAIT;
        let status = loop {
            if let Some(status) = fake.0.try_wait().unwrap() {
                break status;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "still running after SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        assert!(status.success(), "{status}");
    }
    let _ = &mut fake;
}

/// `--guilds 3`: `/_control/info` lists three servers, one on each of three shards
/// (`(id >> 22) % 3`), each with its own text channel; after
/// `POST /_control/guilds/ID/leave` the bot is out of that one and a command there is
/// refused (403) while the others are only waiting for a bot (409).
#[tokio::test]
async fn several_guilds_through_the_program() {
    let (_fake, url) = start_with(&["--guilds", "3"]);
    let (status, info) = control(&url, reqwest::Method::GET, "/info", None).await;
    assert_eq!(status, 200);
    let guilds = info["guilds"].as_array().unwrap();
    assert_eq!(guilds.len(), 3);
    assert_eq!(guilds[0]["id"], info["guild_id"]);
    assert_eq!(guilds[0]["text_channel_id"], info["text_channel_id"]);
    let id = |g: &Value| g["id"].as_str().unwrap().parse::<u64>().unwrap();
    let mut shards: Vec<u64> = guilds.iter().map(|g| (id(g) >> 22) % 3).collect();
    shards.sort_unstable();
    assert_eq!(shards, [0, 1, 2]);
    let channels: std::collections::BTreeSet<&str> = guilds
        .iter()
        .map(|g| g["text_channel_id"].as_str().unwrap())
        .collect();
    assert_eq!(channels.len(), 3);

    let alice = json!({ "id": "1001", "username": "alice" });
    let (status, _) = control(&url, reqwest::Method::POST, "/users", Some(alice)).await;
    assert_eq!(status, 200);
    let gone = guilds[2].clone();
    let path = format!("/guilds/{}/leave", gone["id"].as_str().unwrap());
    let (status, _) = control(&url, reqwest::Method::POST, &path, Some(json!({}))).await;
    assert_eq!(status, 200);
    let (_, info) = control(&url, reqwest::Method::GET, "/info", None).await;
    assert_eq!(info["guilds"][2]["bot_member"], false);
    assert_eq!(info["guilds"][0]["bot_member"], true);
    let command = |channel: &Value| json!({ "user_id": "1001", "channel_id": channel, "name": "ping", "options": [] });
    let (status, body) = control(
        &url,
        reqwest::Method::POST,
        "/interactions/command",
        Some(command(&gone["text_channel_id"])),
    )
    .await;
    assert_eq!(status, 403, "{body}");
    let (status, _) = control(
        &url,
        reqwest::Method::POST,
        "/interactions/command",
        Some(command(&guilds[0]["text_channel_id"])),
    )
    .await;
    assert_eq!(status, 409, "no bot connected yet");
    let (status, _) = control(
        &url,
        reqwest::Method::POST,
        "/guilds/5/leave",
        Some(json!({})),
    )
    .await;
    assert_eq!(status, 404);
}
