//! `kaboom serve` as a process against the `fake-discord` program, another process, driven
//! only through the fake's JSON control API over loopback HTTP (issue 15): one Atomic game
//! from `/challenge` to the king's explosion, then the thread read back.
//!
//! Where the binaries come from. A package's integration tests get `CARGO_BIN_EXE_<name>`
//! only for that package's own binaries, so this test (in kaboom-bot) has `kaboom` that way.
//! `fake-discord` is the binary of the fake-discord package, which kaboom-bot only
//! dev-depends on as a library: cargo does not build a dependency's binaries. It is found
//! next to `kaboom` (same target directory and profile), and it is built there by
//! `cargo test --workspace`, because cargo builds a selected package's binaries whenever
//! that package has integration tests (fake-discord has `tests/it/`), and builds
//! everything before running any test. `FAKE_DISCORD_BIN` may name it instead. When it is
//! missing (e.g. `cargo test -p kaboom-bot` on a clean checkout) the test fails with the
//! command to run, rather than passing without having run. Neither the test nor its helpers
//! run cargo themselves.
//!
//! Both processes are killed by a guard's `Drop`, also when an assertion panics; the fake
//! also exits when its stdin closes (`--exit-on-stdin-eof`), so it cannot outlive a test
//! process that is killed outright. Every wait has a timeout.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

/// The longest any one wait may take (the bot renders a PNG board after every move).
const WAIT_MS: u64 = 30_000;

/// Kills its processes (in reverse order: the bot before the fake) when dropped.
struct Processes(Vec<(&'static str, Child)>);

impl Drop for Processes {
    fn drop(&mut self) {
        for (_, child) in self.0.iter_mut().rev() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn fake_discord_bin() -> PathBuf {
    if let Some(path) = std::env::var_os("FAKE_DISCORD_BIN") {
        return PathBuf::from(path);
    }
    let kaboom = PathBuf::from(env!("CARGO_BIN_EXE_kaboom"));
    let path = kaboom.with_file_name(format!("fake-discord{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is not built: run `cargo test --workspace` (which builds it), or \
         `cargo build -p fake-discord` first, or set FAKE_DISCORD_BIN",
        path.display()
    );
    path
}

/// Starts `fake-discord` and returns its base URL, read from its first stdout line.
fn start_fake(processes: &mut Processes) -> String {
    let mut child = Command::new(fake_discord_bin())
        .arg("--exit-on-stdin-eof")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("fake-discord starts");
    let stdout = child.stdout.take().expect("piped stdout");
    processes.0.push(("fake-discord", child));
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("fake-discord prints its URL within 10 s");
    let url = line
        .trim()
        .strip_prefix("fake-discord listening on ")
        .unwrap_or_else(|| panic!("unexpected first line from fake-discord: {line:?}"));
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    url.to_string()
}

/// The control API client: every call is bounded by the client's timeout.
struct Control {
    http: reqwest::Client,
    base: String,
}

impl Control {
    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut request = self
            .http
            .request(method.clone(), format!("{}/_control{path}", self.base));
        if let Some(body) = body {
            request = request
                .header("Content-Type", "application/json")
                .body(body.to_string());
        }
        let response = request
            .send()
            .await
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let status = response.status();
        let text = response.text().await.unwrap_or_default();
        assert!(status.is_success(), "{method} {path}: {status} {text}");
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{method} {path}: {e}: {text}"))
    }

    async fn get(&self, path: &str) -> Value {
        self.call(reqwest::Method::GET, path, None).await
    }

    async fn post(&self, path: &str, body: Value) -> Value {
        self.call(reqwest::Method::POST, path, Some(body)).await
    }

    /// The bot's first answer to interaction `sent` that is not a deferral.
    async fn answer(&self, sent: &Value) -> Value {
        let id = sent["id"].as_str().expect("an interaction id");
        self.get(&format!(
            "/interactions/{id}/responses/next?timeout_ms={WAIT_MS}&skip_deferrals=true"
        ))
        .await
    }

    async fn command(&self, user: u64, channel: &str, name: &str, options: Value) -> Value {
        let body =
            json!({ "user_id": user, "channel_id": channel, "name": name, "options": options });
        let sent = self.post("/interactions/command", body).await;
        self.answer(&sent).await
    }
}

const ALICE: u64 = 1001;
const BOB: u64 = 1002;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kaboom_serve_plays_atomic_against_the_fake_discord_program() {
    let mut processes = Processes(Vec::new());
    let base = start_fake(&mut processes);
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("kaboom.db").display());
    let bot_log = std::fs::File::create(dir.path().join("kaboom.log")).unwrap();
    let bot = Command::new(env!("CARGO_BIN_EXE_kaboom"))
        .arg("serve")
        .current_dir(dir.path())
        .env("DISCORD_TOKEN", "fake-token-for-kaboom")
        .env("DISCORD_API_BASE", &base)
        .env("DATABASE_URL", &database)
        .env_remove("DEV_GUILD_ID")
        .env("RUST_LOG", "warn")
        // Loopback only: no proxy may divert the bot's requests.
        .env_remove("HTTP_PROXY")
        .env_remove("HTTPS_PROXY")
        .env_remove("ALL_PROXY")
        .env_remove("http_proxy")
        .env_remove("https_proxy")
        .env_remove("all_proxy")
        .env("NO_PROXY", "127.0.0.1,localhost")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(bot_log)
        .spawn()
        .expect("kaboom serve starts");
    processes.0.push(("kaboom serve", bot));

    let control = Control {
        http: reqwest::Client::builder()
            .no_proxy()
            .timeout(Duration::from_millis(WAIT_MS + 5_000))
            .build()
            .unwrap(),
        base,
    };
    let info = control.get("/info").await;
    let text_channel = info["text_channel_id"].as_str().unwrap().to_string();
    control.get(&format!("/ready?timeout_ms={WAIT_MS}")).await;
    let commands = control
        .get(&format!("/commands?timeout_ms={WAIT_MS}"))
        .await;
    let names: Vec<&str> = commands["commands"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert!(
        names.contains(&"challenge") && names.contains(&"move"),
        "{names:?}"
    );
    for (id, name) in [(ALICE, "alice"), (BOB, "bob")] {
        control
            .post("/users", json!({ "id": id.to_string(), "username": name }))
            .await;
    }

    // Alice challenges bob to Atomic (variant choice 0), alice White (color choice 0).
    let challenge = control
        .command(
            ALICE,
            &text_channel,
            "challenge",
            json!([
                { "name": "variant", "type": 4, "value": 0 },
                { "name": "opponent", "type": 6, "value": BOB.to_string() },
                { "name": "color", "type": 4, "value": 0 },
            ]),
        )
        .await;
    let challenge_message = challenge["message_id"]
        .as_str()
        .unwrap_or_else(|| panic!("no challenge message: {challenge}"));
    let accept = challenge["custom_ids"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .find(|id| id.starts_with("kb:accept:"))
        .unwrap_or_else(|| panic!("no Accept button: {challenge}"))
        .to_string();

    // Bob accepts with the button: a thread opens.
    let sent = control
        .post(
            "/interactions/button",
            json!({ "user_id": BOB, "message_id": challenge_message, "custom_id": accept }),
        )
        .await;
    let accepted = control.answer(&sent).await;
    let content = accepted["content"].as_str().unwrap_or_default();
    assert!(content.contains("Game on"), "{accepted}");
    let threads = control.get("/threads").await;
    let thread = threads["threads"]
        .as_array()
        .unwrap()
        .last()
        .unwrap_or_else(|| panic!("no game thread: {threads}"))["id"]
        .as_str()
        .unwrap()
        .to_string();

    // The Atomic line of `kaboom demo`: 3. Nxf7 takes next to Black's king, which explodes.
    for (ply, (user, action)) in [
        (ALICE, "Nf3"),
        (BOB, "a6"),
        (ALICE, "f3g5"),
        (BOB, "a5"),
        (ALICE, "Nxf7"),
    ]
    .into_iter()
    .enumerate()
    {
        let played = control
            .command(
                user,
                &thread,
                "move",
                json!([{ "name": "action", "type": 3, "value": action }]),
            )
            .await;
        let content = played["content"].as_str().unwrap_or_default();
        assert!(
            content.starts_with("Played"),
            "ply {} {action}: {played}",
            ply + 1
        );
    }

    // The thread, read back: the last public board announces the result, with its image.
    let messages = control
        .get(&format!("/channels/{thread}/messages?bytes=true"))
        .await;
    let boards: Vec<&Value> = messages["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["ephemeral"] == false && !m["attachments"].as_array().unwrap().is_empty())
        .collect();
    let last = boards.last().expect("board messages in the thread");
    let result = last["content"].as_str().unwrap_or_default();
    assert!(result.contains("Game over"), "{result}");
    assert!(result.contains("**1-0**"), "{result}");
    assert!(result.contains("(White) wins by king exploded"), "{result}");
    let image = &last["attachments"][0];
    assert!(
        image["filename"].as_str().unwrap().ends_with(".png"),
        "{image}"
    );
    let png = image["base64"].as_str().unwrap();
    assert!(png.starts_with("iVBORw0KGgo"), "a PNG, base64: {image}");

    // Every request the bot made was one the fake knows.
    let unknown = control.get("/unknown-routes").await;
    assert_eq!(unknown["requests"], json!([]), "{unknown}");

    // The processes are still running (neither crashed), then are stopped by the guard.
    for (name, child) in &mut processes.0 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "{name} exited early; the bot's log: {}",
            std::fs::read_to_string(dir.path().join("kaboom.log")).unwrap_or_default()
        );
    }
    drop(processes);
}

/// `kaboom serve` against the fake program with `token`, stderr captured, stdout (the log)
/// dropped, loopback only.
fn spawn_serve(processes: &mut Processes, base: &str, token: &str, dir: &std::path::Path) {
    let database = format!("sqlite://{}", dir.join("kaboom.db").display());
    let bot = Command::new(env!("CARGO_BIN_EXE_kaboom"))
        .arg("serve")
        .current_dir(dir)
        .env("DISCORD_TOKEN", token)
        .env("DISCORD_API_BASE", base)
        .env("DATABASE_URL", &database)
        .env_remove("DEV_GUILD_ID")
        .env("RUST_LOG", "warn")
        .env_remove("HTTP_PROXY")
        .env_remove("HTTPS_PROXY")
        .env_remove("ALL_PROXY")
        .env_remove("http_proxy")
        .env_remove("https_proxy")
        .env_remove("all_proxy")
        .env("NO_PROXY", "127.0.0.1,localhost")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kaboom serve starts");
    processes.0.push(("kaboom serve", bot));
}

/// Waits (at most `WAIT_MS`) for the `kaboom serve` in `processes` to stop by itself;
/// returns whether it failed and its stderr.
async fn serve_stops(processes: &mut Processes) -> (bool, String) {
    let started = std::time::Instant::now();
    let (_, child) = processes
        .0
        .iter_mut()
        .find(|(name, _)| *name == "kaboom serve")
        .expect("kaboom serve was started");
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_millis(WAIT_MS),
            "kaboom serve kept running with a refused token"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    (!status.success(), err)
}

/// Issue 16: a token the fake Discord refuses over REST (401 `{"message": "401:
/// Unauthorized", "code": 0}`) stops `kaboom serve` with one line naming DISCORD_TOKEN and
/// 401, before any database exists.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_stops_with_one_line_when_rest_refuses_the_token() {
    let mut processes = Processes(Vec::new());
    let base = start_fake(&mut processes);
    let control = Control {
        http: reqwest::Client::builder().no_proxy().build().unwrap(),
        base: base.clone(),
    };
    control
        .post("/bot-token", json!({ "token": "the-right-token" }))
        .await;
    let dir = tempfile::tempdir().unwrap();
    spawn_serve(&mut processes, &base, "a-reset-token-secret", dir.path());
    let (failed, err) = serve_stops(&mut processes).await;
    assert!(failed, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("DISCORD_TOKEN") && err.contains("401"),
        "{err}"
    );
    assert!(!err.contains("secret"), "the token is not shown: {err}");
    assert!(!dir.path().join("kaboom.db").exists());
}

/// Issue 16: a token reset while the bot runs: the fake Discord asks the gateway session to
/// reconnect (op 7) and closes its RESUME with 4004 Authentication failed. `kaboom serve`
/// stops with one line naming DISCORD_TOKEN and 4004, not a shard retrying forever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_stops_with_one_line_when_the_gateway_refuses_the_token() {
    let mut processes = Processes(Vec::new());
    let base = start_fake(&mut processes);
    let control = Control {
        http: reqwest::Client::builder()
            .no_proxy()
            .timeout(Duration::from_millis(WAIT_MS + 5_000))
            .build()
            .unwrap(),
        base: base.clone(),
    };
    let dir = tempfile::tempdir().unwrap();
    spawn_serve(&mut processes, &base, "fake-token-for-kaboom", dir.path());
    control.get(&format!("/ready?timeout_ms={WAIT_MS}")).await;
    control
        .post("/bot-token", json!({ "token": "the-new-token" }))
        .await;
    let asked = control.post("/gateway/reconnect", json!({})).await;
    assert_eq!(asked["sessions"], 1, "{asked}");
    let (failed, err) = serve_stops(&mut processes).await;
    assert!(failed, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("DISCORD_TOKEN") && err.contains("4004"),
        "{err}"
    );
}
