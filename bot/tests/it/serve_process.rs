//! `kaboom serve` as a process against the `fake-discord` program, another process, driven
//! only through the fake's JSON control API over loopback HTTP: one Atomic game
//! from `/challenge` to the king's explosion, then the thread read back. The processes and
//! the control client are in [`super::process`].

use serde_json::{Value, json};

use std::time::Duration;

use super::process::{Control, Processes, WAIT_MS, serve_command, start_bot, start_fake};

const ALICE: u64 = 1001;
const BOB: u64 = 1002;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kaboom_serve_plays_atomic_against_the_fake_discord_program() {
    let mut processes = Processes(Vec::new());
    let base = start_fake(&mut processes);
    let dir = tempfile::tempdir().unwrap();
    let bot = start_bot(dir.path(), &base);
    processes.0.push(("kaboom serve", bot));

    let control = Control::new(base);
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

    // Alice challenges bob to Atomic, alice White; bob accepts with the button: a
    // thread opens.
    let accepted = control
        .challenge_and_accept(ALICE, BOB, &text_channel)
        .await;
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
                json!([{ "name": "action", "type": 3, "value": action },
                       { "name": "preview", "type": 5, "value": false }]),
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
        // Boards are PNGs (a finished game's replay GIF is not a board).
        .filter(|m| {
            m["ephemeral"] == false
                && m["attachments"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|a| a["filename"].as_str().unwrap_or("").ends_with(".png"))
        })
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

    // The processes are still running (neither crashed).
    for (name, child) in &mut processes.0 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "{name} exited early; the bot's log: {}",
            std::fs::read_to_string(dir.path().join("kaboom.log")).unwrap_or_default()
        );
    }
    // SIGTERM (systemd's stop, `docker stop`) ends `kaboom serve` at once, successfully.
    let (_, bot) = processes
        .0
        .iter_mut()
        .find(|(name, _)| *name == "kaboom serve")
        .unwrap();
    let sent = std::process::Command::new("kill")
        .args(["-TERM", &bot.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = bot.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_millis(WAIT_MS),
            "kaboom serve is still running after SIGTERM"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        status.success(),
        "{status}; its stderr: {}",
        std::fs::read_to_string(dir.path().join("kaboom.log")).unwrap_or_default()
    );
    drop(processes);
}

/// `kaboom serve` against the fake program with `token`, stderr and stdout (the log, at
/// `info`, in `log_format`: `LOG_FORMAT`'s value) captured, loopback only.
fn spawn_serve(
    processes: &mut Processes,
    base: &str,
    token: &str,
    dir: &std::path::Path,
    log_format: &str,
) {
    let bot = serve_command(dir, base, token)
        .env("RUST_LOG", "info")
        .env("LOG_FORMAT", log_format)
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("kaboom serve starts");
    processes.0.push(("kaboom serve", bot));
}

/// Waits (at most `WAIT_MS`) for the `kaboom serve` in `processes` to stop by itself;
/// returns whether it failed, its stderr and its stdout (the log).
async fn serve_stops(processes: &mut Processes) -> (bool, String, String) {
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
    let mut out = String::new();
    std::io::Read::read_to_string(&mut child.stdout.take().unwrap(), &mut out).unwrap();
    (!status.success(), err, out)
}

/// A token the fake Discord refuses over REST (401 `{"message": "401:
/// Unauthorized", "code": 0}`) stops `kaboom serve` with one line naming DISCORD_TOKEN and
/// 401, before any database exists.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_stops_with_one_line_when_rest_refuses_the_token() {
    let mut processes = Processes(Vec::new());
    let base = start_fake(&mut processes);
    let control = Control::new(base.clone());
    control
        .post("/bot-token", json!({ "token": "the-right-token" }))
        .await;
    let dir = tempfile::tempdir().unwrap();
    spawn_serve(
        &mut processes,
        &base,
        "a-reset-token-secret",
        dir.path(),
        "",
    );
    let (failed, err, out) = serve_stops(&mut processes).await;
    // The log is plain text when stdout is not a terminal (a pipe here, the journal or a
    // file for a host): no ANSI colour codes, which rsyslog shows as `#033[`.
    assert!(!out.contains('\x1b'), "{out:?}");
    let overridden: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("Discord REST API base overridden"))
        .collect();
    assert_eq!(overridden.len(), 1, "{out}");
    assert!(
        overridden[0].ends_with(&format!(
            " INFO kaboom_discord::bot: Discord REST API base overridden api_base={base}"
        )),
        "{out}"
    );
    assert!(failed, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("DISCORD_TOKEN") && err.contains("401"),
        "{err}"
    );
    assert!(!err.contains("secret"), "the token is not shown: {err}");
    assert!(!dir.path().join("kaboom.db").exists());
}

/// A token reset while the bot runs: the fake Discord asks the gateway session to
/// reconnect (op 7) and closes its RESUME with 4004 Authentication failed. `kaboom serve`
/// stops with one line naming DISCORD_TOKEN and 4004, not a shard retrying forever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_stops_with_one_line_when_the_gateway_refuses_the_token() {
    let mut processes = Processes(Vec::new());
    let base = start_fake(&mut processes);
    let control = Control::new(base.clone());
    let dir = tempfile::tempdir().unwrap();
    spawn_serve(
        &mut processes,
        &base,
        "fake-token-for-kaboom",
        dir.path(),
        "json",
    );
    control.get(&format!("/ready?timeout_ms={WAIT_MS}")).await;
    // The bot's set-up (command registration over REST) is over before the token changes:
    // this test is about the gateway refusing it.
    control
        .get(&format!("/commands?timeout_ms={WAIT_MS}"))
        .await;
    control
        .post("/bot-token", json!({ "token": "the-new-token" }))
        .await;
    let asked = control.post("/gateway/reconnect", json!({})).await;
    assert_eq!(asked["sessions"], 1, "{asked}");
    let (failed, err, out) = serve_stops(&mut processes).await;
    assert!(failed, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("DISCORD_TOKEN") && err.contains("4004"),
        "{err}"
    );
    // LOG_FORMAT=json: every log line is one JSON object with its level, target and
    // message, without colour codes.
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?}")))
        .collect();
    let ready: Vec<&Value> = lines
        .iter()
        .filter(|l| l["fields"]["message"] == "database ready")
        .collect();
    assert_eq!(ready.len(), 1, "{out}");
    assert_eq!(ready[0]["level"], "INFO", "{out}");
    assert_eq!(ready[0]["target"], "kaboom_discord::bot", "{out}");
    let database = format!("sqlite://{}", dir.path().join("kaboom.db").display());
    assert_eq!(ready[0]["fields"]["database"], database.as_str(), "{out}");
    assert!(!out.contains('\x1b'), "{out:?}");
}
