//! Running `kaboom serve` and the `fake-discord` program as separate processes, the way a
//! host runs them, for the tests that need real processes (`serve_process`, `kill_loop`):
//! starting and stopping them, and the fake's JSON control API over loopback HTTP.
//!
//! Where the binaries come from. A package's integration tests get `CARGO_BIN_EXE_<name>`
//! only for that package's own binaries, so these tests (in the `kaboom` package) have `kaboom`
//! that way. `fake-discord` is the binary of the fake-discord package, which `kaboom` only
//! dev-depends on as a library: cargo does not build a dependency's binaries. It is found
//! next to `kaboom` (same target directory and profile), and it is built there by
//! `cargo test --workspace`, because cargo builds a selected package's binaries whenever
//! that package has integration tests (fake-discord has `tests/it/`), and builds
//! everything before running any test. `FAKE_DISCORD_BIN` may name it instead. When it is
//! missing (e.g. `cargo test -p kaboom` on a clean checkout) the tests fail with the
//! command to run, rather than passing without having run. Neither the tests nor these
//! helpers run cargo themselves.
//!
//! Every process is killed by a guard's `Drop`, also when an assertion panics; the fake
//! also exits when its stdin closes (`--exit-on-stdin-eof`), so it cannot outlive a test
//! process that is killed outright. Every wait has a timeout.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

/// The longest any one wait may take (the bot renders a PNG board after every move), in
/// milliseconds.
pub const WAIT_MS: u64 = 30_000;

/// Kills its processes (in reverse order: the bot before the fake) when dropped.
pub struct Processes(pub Vec<(&'static str, Child)>);

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
///
/// Without Discord's global limit of 50 requests a second: these tests drive several
/// games as fast as the bot answers, and their subject is kills, faults and the process,
/// not the limit (the in-process tests run with it; `kaboom serve` behind an API base
/// sends without serenity's rate limiter, so 429s would only slow them down).
pub fn start_fake(processes: &mut Processes) -> String {
    start_fake_with(processes, &["--no-global-rate-limit"])
}

/// Starts `fake-discord` with extra arguments (e.g. `--lean`) and returns its base URL.
pub fn start_fake_with(processes: &mut Processes, args: &[&str]) -> String {
    let mut child = Command::new(fake_discord_bin())
        .arg("--exit-on-stdin-eof")
        .args(args)
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

/// The `kaboom serve` command in `dir` against the fake at `base` with bot token `token`,
/// on the SQLite database `dir/kaboom.db`, logging warnings and errors, loopback only;
/// stdin and stdout (the log goes to stdout) are null, stderr is for the caller to set.
pub fn serve_command(dir: &Path, base: &str, token: &str) -> Command {
    let database = format!("sqlite://{}", dir.join("kaboom.db").display());
    let mut command = Command::new(env!("CARGO_BIN_EXE_kaboom"));
    command
        .arg("serve")
        .current_dir(dir)
        .env("DISCORD_TOKEN", token)
        .env("DISCORD_API_BASE", base)
        .env("DATABASE_URL", &database)
        .env_remove("DEV_GUILD_ID")
        .env("RUST_LOG", "warn")
        // Simulated players send moves far faster than people (the kill loop, the load
        // benchmark); the rate per player is tested in `input_bounds`.
        .env("COMMANDS_PER_MINUTE", "1000000")
        // Loopback only: no proxy may divert the bot's requests.
        .env_remove("HTTP_PROXY")
        .env_remove("HTTPS_PROXY")
        .env_remove("ALL_PROXY")
        .env_remove("http_proxy")
        .env_remove("https_proxy")
        .env_remove("all_proxy")
        .env("NO_PROXY", "127.0.0.1,localhost")
        .stdin(Stdio::null())
        .stdout(Stdio::null());
    command
}

/// Starts `kaboom serve` in `dir` against the fake at `base` ([`serve_command`]), appending
/// its stderr to `dir/kaboom.log` and its log (stdout) to `dir/kaboom.out`.
pub fn start_bot(dir: &Path, base: &str) -> Child {
    let append = |name: &str| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join(name))
            .unwrap()
    };
    serve_command(dir, base, "fake-token-for-kaboom")
        .stderr(append("kaboom.log"))
        .stdout(append("kaboom.out"))
        .spawn()
        .expect("kaboom serve starts")
}

/// The control API client: every call is bounded by the client's timeout.
pub struct Control {
    http: reqwest::Client,
    /// The fake's base URL (`http://127.0.0.1:PORT`).
    pub base: String,
}

impl Control {
    /// A client for the fake at `base`.
    pub fn new(base: String) -> Control {
        Control {
            http: reqwest::Client::builder()
                .no_proxy()
                .timeout(Duration::from_millis(WAIT_MS + 5_000))
                .build()
                .unwrap(),
            base,
        }
    }

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

    /// `GET /_control{path}`: the status and the JSON answer (`null` if it is not JSON),
    /// whatever the status (e.g. 408 for a wait that ran out).
    pub async fn try_get(&self, path: &str) -> (u16, Value) {
        let response = self
            .http
            .get(format!("{}/_control{path}", self.base))
            .send()
            .await
            .unwrap_or_else(|e| panic!("GET {path}: {e}"));
        let status = response.status().as_u16();
        let text = response.text().await.unwrap_or_default();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// `GET /_control{path}`; panics unless it succeeds.
    pub async fn get(&self, path: &str) -> Value {
        self.call(reqwest::Method::GET, path, None).await
    }

    /// `PUT /_control{path}` with a JSON body (e.g. a fault plan); panics unless it
    /// succeeds.
    pub async fn put(&self, path: &str, body: Value) -> Value {
        self.call(reqwest::Method::PUT, path, Some(body)).await
    }

    /// `POST /_control{path}` with a JSON body; panics unless it succeeds.
    pub async fn post(&self, path: &str, body: Value) -> Value {
        self.call(reqwest::Method::POST, path, Some(body)).await
    }

    /// The bot's first answer to interaction `sent` that is not a deferral, waiting at most
    /// `timeout_ms`.
    pub async fn answer_within(&self, sent: &Value, timeout_ms: u64) -> Value {
        let id = sent["id"].as_str().expect("an interaction id");
        self.get(&format!(
            "/interactions/{id}/responses/next?timeout_ms={timeout_ms}&skip_deferrals=true"
        ))
        .await
    }

    /// The bot's first answer to interaction `sent` that is not a deferral.
    pub async fn answer(&self, sent: &Value) -> Value {
        self.answer_within(sent, WAIT_MS).await
    }

    /// Every response to interaction `sent` so far (deferrals included), without waiting.
    pub async fn responses(&self, sent: &Value) -> Vec<Value> {
        let id = sent["id"].as_str().expect("an interaction id");
        let all = self.get(&format!("/interactions/{id}/responses")).await;
        all["responses"].as_array().cloned().unwrap_or_default()
    }

    /// Sends slash command `name` with `options` from `user` in `channel` (no answer awaited).
    pub async fn send_command(
        &self,
        user: u64,
        channel: &str,
        name: &str,
        options: Value,
    ) -> Value {
        let body =
            json!({ "user_id": user, "channel_id": channel, "name": name, "options": options });
        self.post("/interactions/command", body).await
    }

    /// Sends slash command `name` and returns the bot's answer.
    pub async fn command(&self, user: u64, channel: &str, name: &str, options: Value) -> Value {
        let sent = self.send_command(user, channel, name, options).await;
        self.answer(&sent).await
    }

    /// Sends `user`'s click on the first button of `answer` (an answer as [`Control::answer`]
    /// returns it) whose custom id starts with `prefix` (no answer awaited).
    ///
    /// # Panics
    /// When `answer` has no message or no such button.
    pub async fn send_press(&self, user: u64, answer: &Value, prefix: &str) -> Value {
        let message = answer["message_id"]
            .as_str()
            .unwrap_or_else(|| panic!("no message to press {prefix} on: {answer}"));
        let custom_id = answer["custom_ids"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .find(|id| id.starts_with(prefix))
            .unwrap_or_else(|| panic!("no {prefix} button: {answer}"));
        self.post(
            "/interactions/button",
            json!({ "user_id": user, "message_id": message, "custom_id": custom_id }),
        )
        .await
    }

    /// `challenger`'s `/challenge` to `opponent` in `channel` (Atomic, challenger White),
    /// then `opponent`'s Accept button; returns the bot's answer to the click.
    ///
    /// # Panics
    /// When the challenge has no message or no Accept button.
    pub async fn challenge_and_accept(
        &self,
        challenger: u64,
        opponent: u64,
        channel: &str,
    ) -> Value {
        self.challenge_and_accept_variant(challenger, opponent, channel, 0)
            .await
    }

    /// As [`Control::challenge_and_accept`], in the variant with `/challenge`'s choice
    /// index `variant` (the order of `kaboom_rules::Variant::ALL`: 0 Atomic to 4 Bombalot).
    ///
    /// # Panics
    /// As [`Control::challenge_and_accept`].
    pub async fn challenge_and_accept_variant(
        &self,
        challenger: u64,
        opponent: u64,
        channel: &str,
        variant: u64,
    ) -> Value {
        let answer = self
            .command(
                challenger,
                channel,
                "challenge",
                serde_json::json!([
                    { "name": "variant", "type": 4, "value": variant },
                    { "name": "opponent", "type": 6, "value": opponent.to_string() },
                    { "name": "color", "type": 4, "value": 0 },
                ]),
            )
            .await;
        let message = answer["message_id"]
            .as_str()
            .unwrap_or_else(|| panic!("no challenge message in {channel}: {answer}"));
        let accept = answer["custom_ids"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .find(|id| id.starts_with("kb:accept:"))
            .unwrap_or_else(|| panic!("no Accept button: {answer}"));
        let sent = self
            .post(
                "/interactions/button",
                serde_json::json!({ "user_id": opponent, "message_id": message, "custom_id": accept }),
            )
            .await;
        self.answer(&sent).await
    }

    /// Waits until the bot has identified and registered its commands; returns the fake's
    /// text channel (where challenges are made).
    pub async fn bot_ready(&self) -> String {
        self.get(&format!("/ready?timeout_ms={WAIT_MS}")).await;
        self.get(&format!("/commands?timeout_ms={WAIT_MS}")).await;
        self.get("/info").await["text_channel_id"]
            .as_str()
            .expect("the fake's text channel")
            .to_string()
    }

    /// Adds the simulated users `ids`, each named `player<id>`.
    pub async fn add_players(&self, ids: impl IntoIterator<Item = u64>) {
        for id in ids {
            self.post(
                "/users",
                json!({ "id": id.to_string(), "username": format!("player{id}") }),
            )
            .await;
        }
    }

    /// How many times a bot has identified on the fake's gateway so far.
    pub async fn identified_sessions(&self) -> u64 {
        self.get("/info").await["identified_sessions"]
            .as_u64()
            .expect("identified_sessions in /_control/info")
    }

    /// Waits until a bot identifies beyond the `after` IDENTIFYs counted before (a restart).
    pub async fn ready_after(&self, after: u64) {
        self.get(&format!("/ready?timeout_ms={WAIT_MS}&after={after}"))
            .await;
    }
}
