//! Several `kaboom serve` processes on one PostgreSQL database (issue 22): three processes,
//! each running one of three gateway shards (`SHARD_COUNT=3`, `SHARD_IDS=i`), against the
//! `fake-discord` program. The fake has one server, so its interactions reach the process
//! of that server's shard (`(guild_id >> 22) % 3`, Discord's sharding formula); every
//! process runs the scheduler and the outbox deliverer on the shared database.
//!
//! Three games are played; a move in each is committed while Discord refuses messages, the
//! process that handles the server's interactions is SIGKILLed, Discord heals, and the
//! outbox work it left (the boards not yet posted) is posted by the other two (at once, or
//! once its claims lapse); it is then restarted (its shard's
//! interactions resume) and the games are ended. Afterwards every game replays, has one
//! thread, and every board is posted exactly once, each the message its outbox entry
//! recorded.
//!
//! Skipped, with a printed reason, without `KABOOM_TEST_POSTGRES_URL` (CI sets it:
//! scripts/test.sh). Not covered here: servers on every shard (the fake has one server;
//! the fake's own test `gateway_routes_guild_events_to_their_shard` covers routing to
//! every shard).

use std::collections::BTreeMap;
use std::process::Child;
use std::time::Duration;

use kaboom_bot::domain::ids::{GuildId, UserId};
use kaboom_bot::storage::{Db, games, outbox};
use kaboom_rules::{AnyGame, Color, Viewer};
use serde_json::{Value, json};

use super::process::{Control, Processes, serve_command, start_fake};

/// The pairs of players: one game each.
const PAIRS: [(u64, u64); 3] = [(3001, 3002), (3003, 3004), (3005, 3006)];
/// The gateway shards, one per process.
const SHARDS: u64 = 3;

/// `kaboom serve` for shard `shard` of [`SHARDS`] on the database `url`, logging to
/// `dir/kaboom-<shard>.log`.
fn start_shard(dir: &std::path::Path, base: &str, url: &str, shard: u64) -> Child {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join(format!("kaboom-{shard}.log")))
        .unwrap();
    serve_command(dir, base, "fake-token-for-kaboom")
        .env("DATABASE_URL", url)
        .env("SHARD_COUNT", SHARDS.to_string())
        .env("SHARD_IDS", shard.to_string())
        .stderr(log)
        .spawn()
        .expect("kaboom serve starts")
}

/// The game of `pair` (the newest), if any.
async fn game_of(db: &Db, pair: (u64, u64)) -> Option<games::GameRow> {
    let mut all = games::active_for(db, UserId::from(pair.0)).await.unwrap();
    all.retain(|g| g.white_id == UserId::from(pair.1) || g.black_id == UserId::from(pair.1));
    all.pop()
}

async fn replay(db: &Db, row: &games::GameRow) -> AnyGame {
    let actions = games::actions(db, row.id).await.unwrap();
    AnyGame::from_record(&games::record(row, actions))
        .unwrap_or_else(|e| panic!("game {} does not replay: {e}", row.id))
}

/// Sends the mover's first legal action in `row`'s game (in its thread); returns what
/// was sent.
async fn send_move(control: &Control, db: &Db, row: &games::GameRow) -> Value {
    let game = replay(db, row).await;
    let legal = game.legal_actions(Viewer::Full);
    let san = legal.first().expect("a legal action").san.clone();
    let mover = match game.turn() {
        Color::White => row.white_id,
        Color::Black => row.black_id,
    };
    let thread = row.thread_id.expect("the game's thread");
    control
        .send_command(
            u64::from(mover),
            &thread.to_string(),
            "move",
            json!([{ "name": "action", "type": 3, "value": san }]),
        )
        .await
}

/// Waits (at most `secs`) until no outbox entry is left undelivered.
async fn drained(db: &Db, secs: u64) -> bool {
    let deadline = std::time::Instant::now() + Duration::from_secs(secs);
    while std::time::Instant::now() < deadline {
        if outbox::pending(db).await.unwrap().is_empty() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    false
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_processes_on_one_postgres_database_share_the_work() {
    if kaboom_testkit::postgres_url().is_none() {
        eprintln!(
            "skipped: set {} to a PostgreSQL server (scripts/pg-local.sh) to run it",
            kaboom_testkit::POSTGRES_URL_VAR
        );
        return;
    }
    let database = kaboom_testkit::TempDb::new().await;
    let url = database.url().to_string();
    let dir = database.path().to_path_buf();
    let mut processes = Processes(Vec::new());
    let base = start_fake(&mut processes);
    let control = Control::new(base.clone());
    // The schema is made once, before the processes start (they would also manage it
    // together, under sqlx's migration lock).
    let db = Db::connect(&url).await.expect("the shared database opens");
    // The processes are killed by `processes`' Drop, also when an assertion fails.
    for s in 0..SHARDS {
        processes
            .0
            .push(("kaboom serve", start_shard(&dir, &base, &url, s)));
    }
    control.ready_after(SHARDS - 1).await;
    let channel = control.bot_ready().await;
    control
        .add_players(PAIRS.iter().flat_map(|&(a, b)| [a, b]))
        .await;
    let info = control.get("/info").await;
    let guild: u64 = info["guild_id"].as_str().unwrap().parse().unwrap();
    let home = (guild >> 22) % SHARDS;

    // Three games, challenged and accepted through the fake (the home shard's process).
    for &(a, b) in &PAIRS {
        let answer = control
            .command(
                a,
                &channel,
                "challenge",
                json!([
                    { "name": "variant", "type": 4, "value": 0 },
                    { "name": "opponent", "type": 6, "value": b.to_string() },
                    { "name": "color", "type": 4, "value": 0 },
                ]),
            )
            .await;
        let message = answer["message_id"]
            .as_str()
            .expect("the challenge message");
        let accept = answer["custom_ids"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .find(|id| id.starts_with("kb:accept:"))
            .expect("an accept button")
            .to_string();
        let sent = control
            .post(
                "/interactions/button",
                json!({ "user_id": b, "message_id": message, "custom_id": accept }),
            )
            .await;
        control.answer(&sent).await;
    }
    // Each game's thread is recorded once its outbox entry is posted.
    assert!(drained(&db, 30).await, "the threads are made");
    // Two plies in each.
    for _ in 0..2 {
        for &pair in &PAIRS {
            let row = game_of(&db, pair).await.expect("the pair's game");
            let sent = send_move(&control, &db, &row).await;
            let answer = control.answer(&sent).await;
            assert!(
                answer["content"]
                    .as_str()
                    .is_some_and(|c| c.starts_with("Played")),
                "{answer}"
            );
        }
    }

    // The next moves are committed while Discord refuses every message (503), so their
    // boards wait in the outbox; then the home shard's process is SIGKILLed and Discord
    // heals.
    control
        .put(
            "/faults",
            json!({ "rules": [{ "method": "POST", "path": "/channels/*/messages",
                "probability": 1.0, "fault": { "kind": "status", "status": 503 } }] }),
        )
        .await;
    let mut moved = Vec::new();
    for &pair in &PAIRS {
        let row = game_of(&db, pair).await.unwrap();
        send_move(&control, &db, &row).await;
        moved.push((row.id, row.ply + 1));
    }
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    for (id, ply) in &moved {
        while games::get(&db, *id).await.unwrap().expect("the game").ply < *ply {
            assert!(
                std::time::Instant::now() < deadline,
                "game {id}'s move is not committed"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    // The fake is process 0, shard i's process is i + 1.
    let (_, mut killed) = processes.0.remove(usize::try_from(home).unwrap() + 1);
    killed.kill().expect("SIGKILL");
    killed.wait().unwrap();
    control
        .post("/faults/enabled", json!({ "enabled": false }))
        .await;
    let left = outbox::pending(&db).await.unwrap().len();
    eprintln!("killed shard {home}'s process with {left} outbox entries undelivered");
    assert!(
        left >= PAIRS.len(),
        "each game's board waits: {left} entries"
    );
    // The other two post what it left, once its claims lapse (30 s) and their next look
    // at the outbox comes (at most 30 s later).
    assert!(
        drained(&db, 75).await,
        "the other processes did not take the outbox over"
    );

    // Restarted, its shard's interactions resume; the games end by resignation.
    let before = control.identified_sessions().await;
    processes
        .0
        .push(("kaboom serve", start_shard(&dir, &base, &url, home)));
    control.ready_after(before).await;
    for &pair in &PAIRS {
        let row = game_of(&db, pair).await.expect("the pair's game");
        let game = replay(&db, &row).await;
        let mover = match game.turn() {
            Color::White => row.white_id,
            Color::Black => row.black_id,
        };
        let thread = row.thread_id.unwrap().to_string();
        let answer = control
            .command(u64::from(mover), &thread, "resign", json!([]))
            .await;
        assert!(answer["content"].is_string(), "{answer}");
    }
    assert!(drained(&db, 60).await, "the outbox drains");

    for &(a, _) in &PAIRS {
        let mine = games::finished_for(
            &db,
            UserId::from(a),
            games::Readable {
                guild: Some(GuildId::from(guild)),
                caller: UserId::from(a),
            },
            10,
            0,
        )
        .await
        .unwrap();
        let row = &mine.first().expect("the game ended").row;
        let game = replay(&db, row).await;
        assert_eq!(game.fen(Viewer::Full), row.state_fen, "game {}", row.id);
        let thread = row.thread_id.expect("a thread");
        let messages = control.get(&format!("/channels/{thread}/messages")).await;
        let mut in_thread: Vec<String> = messages["messages"]
            .as_array()
            .unwrap()
            .iter()
            // Boards are PNGs; a finished game's replay GIF (issue 19) is not a board.
            .filter(|m| {
                m["ephemeral"] == false
                    && m["attachments"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|a| a["filename"].as_str().is_some_and(|f| f.ends_with(".png")))
            })
            .map(|m| m["id"].as_str().unwrap().to_string())
            .collect();
        let mut recorded = Vec::new();
        let mut plies: BTreeMap<i64, usize> = BTreeMap::new();
        for e in outbox::for_game(&db, row.id).await.unwrap() {
            assert!(e.failed_at.is_none(), "entry {} given up", e.id);
            if e.kind == "board" {
                let payload: Value = serde_json::from_str(&e.payload).unwrap();
                *plies.entry(payload["ply"].as_i64().unwrap()).or_default() += 1;
                recorded.push(e.message_id.expect("posted").to_string());
            }
        }
        assert_eq!(
            plies.keys().copied().collect::<Vec<_>>(),
            (0..=row.ply).collect::<Vec<_>>(),
            "game {}: a board per ply",
            row.id
        );
        in_thread.sort();
        recorded.sort();
        assert_eq!(
            in_thread, recorded,
            "game {}: each board posted once",
            row.id
        );
    }
    drop(processes);
}
