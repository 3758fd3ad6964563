//! Several `kaboom serve` processes on one PostgreSQL database: three processes,
//! each running one of three gateway shards (`SHARD_COUNT=3`, `SHARD_IDS=i`), against the
//! `fake-discord` program with three servers (`--guilds 3`), one on each shard: Discord's
//! sharding formula `shard_id = (guild_id >> 22) % num_shards`
//! (<https://discord.com/developers/docs/events/gateway#sharding-sharding-formula>), which
//! the fake applies, so each server's interactions reach only its shard's process. Every
//! process runs the scheduler (every second here, `SCHEDULER_INTERVAL_SECS=1`) and the
//! outbox deliverer on the shared database.
//!
//! The run:
//! 1. a game in each server (challenged and accepted there, so each process handles its
//!    own server's interactions), two plies each;
//! 2. one game's turn is moved back in the database past its 50 % reminder: the three
//!    schedulers race for it and the player is reminded once;
//! 3. a move in each game is committed while Discord refuses every message (503), so the
//!    boards wait in the outbox; the process of one server (the "victim") is SIGKILLed and
//!    Discord heals. While it is down: an interaction in its server gets no answer (its
//!    shard has no process), the other servers' games go on, its server's game runs out of
//!    time (moved back in the database) and the other processes forfeit it once and post
//!    the boards it left (once its outbox claims lapse);
//! 4. it is restarted: its server's interactions are answered again (a new game there);
//! 5. every game ends (resignations, the forfeit).
//!
//! Afterwards every game replays, and in every game thread and every player's DM channel
//! the bot's posts (not the interaction answers) are exactly the messages the outbox
//! entries recorded: no board, reminder, forfeit or announcement posted twice; each ply has
//! one board entry; the reminder and the forfeit happened once.
//!
//! Skipped, with a printed reason, without `KABOOM_TEST_POSTGRES_URL` (CI sets it:
//! scripts/test.sh).

use std::collections::{BTreeMap, BTreeSet};
use std::process::Child;
use std::time::{Duration, Instant};

use kaboom_domain::game::GameState;
use kaboom_domain::ids::{GameId, UserId};
use kaboom_rules::{AnyGame, Color, Viewer};
use kaboom_store::{Db, games, outbox, sql};
use serde_json::{Value, json};

use super::process::{Control, Processes, serve_command, start_fake_with};

/// The gateway shards, one per process, and the fake's servers, one per shard.
const SHARDS: u64 = 3;
/// A day in seconds; games get the default 3 days per move.
const DAY: i64 = 86_400;

/// One server of the fake, with the shard its events go to.
#[derive(Clone, Debug)]
struct Server {
    id: u64,
    channel: String,
    shard: u64,
}

/// `kaboom serve` for shard `shard` of [`SHARDS`] on the database `url`, sweeping every
/// second, logging to `dir/kaboom-<shard>.log`.
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
        .env("SCHEDULER_INTERVAL_SECS", "1")
        .env("RUST_LOG", "info,sqlx=warn")
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .spawn()
        .expect("kaboom serve starts")
}

/// Prints the end of every process log in its directory when the test fails (the
/// directory goes with the database).
struct LogsOnPanic(std::path::PathBuf);

impl Drop for LogsOnPanic {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            return;
        }
        for shard in 0..SHARDS {
            let path = self.0.join(format!("kaboom-{shard}.log"));
            let log = std::fs::read_to_string(&path).unwrap_or_default();
            let lines: Vec<&str> = log.lines().collect();
            let tail = &lines[lines.len().saturating_sub(60)..];
            eprintln!(
                "--- {} (last {} lines)\n{}",
                path.display(),
                tail.len(),
                tail.join("\n")
            );
        }
    }
}

async fn replay(db: &Db, row: &games::GameRow) -> AnyGame {
    let actions = games::actions(db, row.id).await.unwrap();
    AnyGame::from_record(&games::record(row, actions))
        .unwrap_or_else(|e| panic!("game {} does not replay: {e}", row.id))
}

async fn row(db: &Db, id: GameId) -> games::GameRow {
    games::get(db, id).await.unwrap().expect("the game")
}

/// The player to move in `row`'s game.
async fn mover(db: &Db, row: &games::GameRow) -> u64 {
    match replay(db, row).await.turn() {
        Color::White => u64::from(row.white_id),
        Color::Black => u64::from(row.black_id),
    }
}

/// Sends the mover's first legal action in game `id` (in its thread); returns the sent
/// interaction and the ply it makes.
async fn send_move(control: &Control, db: &Db, id: GameId) -> (Value, i64) {
    let row = row(db, id).await;
    let game = replay(db, &row).await;
    let san = game.legal_actions(Viewer::Full)[0].san.clone();
    let thread = row.thread_id.expect("the game's thread").to_string();
    let sent = control
        .send_command(
            mover(db, &row).await,
            &thread,
            "move",
            json!([{ "name": "action", "type": 3, "value": san }]),
        )
        .await;
    (sent, row.ply + 1)
}

/// Polls `check` every 100 ms until it holds, at most `secs`.
async fn until<F: std::future::Future<Output = bool>>(
    secs: u64,
    what: &str,
    mut check: impl FnMut() -> F,
) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !check().await {
        assert!(Instant::now() < deadline, "{what}: not within {secs} s");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Whether no outbox entry is left undelivered.
async fn drained(db: &Db) -> bool {
    outbox::pending(db).await.unwrap().is_empty()
}

/// Moves game `id`'s current turn `secs` into the past (its start and its deadline), as
/// if nobody had moved for that long; the scheduler reconsiders it at its next sweep.
async fn age_turn(db: &Db, id: GameId, secs: i64) {
    let done = sql::query(
        "UPDATE games SET turn_started_at = turn_started_at - $1, deadline_at = deadline_at - $2 \
         WHERE id = $3",
    )
    .bind(secs)
    .bind(secs)
    .bind(id)
    .execute(db)
    .await
    .unwrap();
    assert_eq!(done.rows_affected(), 1);
}

/// Challenges `b` from `a` to Atomic in `server`'s channel and has `b` accept; returns the
/// new game once its thread is recorded.
async fn new_game(control: &Control, db: &Db, server: &Server, (a, b): (u64, u64)) -> GameId {
    control.challenge_and_accept(a, b, &server.channel).await;
    let deadline = Instant::now() + Duration::from_secs(30);
    let game = loop {
        let mut all = games::active_for(db, UserId::from(a)).await.unwrap();
        all.retain(|g| g.white_id == UserId::from(b) || g.black_id == UserId::from(b));
        if let Some(game) = all.pop().filter(|g| g.thread_id.is_some()) {
            break game;
        }
        assert!(
            Instant::now() < deadline,
            "the game's thread: not within 30 s"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(
        game.guild_id.map(u64::from),
        Some(server.id),
        "the game belongs to the server it was made in"
    );
    game.id
}

/// The bot's own posts in `channel` (not interaction answers), by id.
async fn bot_posts(control: &Control, channel: &str, bot: &str) -> BTreeSet<String> {
    let messages = control.get(&format!("/channels/{channel}/messages")).await;
    messages["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["author_id"] == bot && m["interaction_id"].is_null())
        .map(|m| m["id"].as_str().unwrap().to_string())
        .collect()
}

kaboom_testkit::pgtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn three_processes_on_one_postgres_database_share_the_work() {
        let database = kaboom_testkit::TempDb::new().await;
        let url = database.url().to_string();
        let dir = database.path().to_path_buf();
        let _logs = LogsOnPanic(dir.clone());
        let mut processes = Processes(Vec::new());
        let base = start_fake_with(&mut processes, &["--guilds", &SHARDS.to_string()]);
        let control = Control::new(base.clone());
        // The schema is made once, before the processes start (they would also manage it
        // together, under sqlx's migration lock).
        let db = Db::connect(&url).await.expect("the shared database opens");
        let info = control.get("/info").await;
        let bot = info["bot_user_id"].as_str().unwrap().to_string();
        let mut servers: Vec<Server> = info["guilds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                let id: u64 = g["id"].as_str().unwrap().parse().unwrap();
                Server {
                    id,
                    channel: g["text_channel_id"].as_str().unwrap().to_string(),
                    shard: (id >> 22) % SHARDS,
                }
            })
            .collect();
        servers.sort_by_key(|s| s.shard);
        assert_eq!(
            servers.iter().map(|s| s.shard).collect::<Vec<_>>(),
            (0..SHARDS).collect::<Vec<_>>(),
            "one server on each shard"
        );
        // The processes are killed by `processes`' Drop, also when an assertion fails. The
        // fake is process 0, shard i's process is i + 1.
        for s in 0..SHARDS {
            processes
                .0
                .push(("kaboom serve", start_shard(&dir, &base, &url, s)));
        }
        control.ready_after(SHARDS - 1).await;
        control.bot_ready().await;
        let pairs: Vec<(u64, u64)> = (0..4).map(|i| (3001 + 2 * i, 3002 + 2 * i)).collect();
        control
            .add_players(pairs.iter().flat_map(|&(a, b)| [a, b]))
            .await;

        // 1. A game in each server (its own shard's process answers), two plies each.
        let mut ids = Vec::new();
        for (server, &pair) in servers.iter().zip(&pairs) {
            ids.push(new_game(&control, &db, server, pair).await);
        }
        for _ in 0..2 {
            for &id in &ids {
                let (sent, _) = send_move(&control, &db, id).await;
                let answer = control.answer(&sent).await;
                assert!(
                    answer["content"]
                        .as_str()
                        .is_some_and(|c| c.starts_with("Played")),
                    "{answer}"
                );
            }
        }
        until(30, "the boards are posted", || drained(&db)).await;

        // 2. Server 0's game: 60 % of its 3 days gone, past the 50 % reminder. Three
        //    schedulers sweep every second; one reminder is posted.
        age_turn(&db, ids[0], 3 * DAY * 6 / 10).await;
        let reminded = || async {
            outbox::for_game(&db, ids[0])
                .await
                .unwrap()
                .iter()
                .any(|e| e.kind == "nudge" && e.delivered_at.is_some())
        };
        until(30, "the reminder is posted", reminded).await;
        // Further sweeps (all three processes) must not remind again.
        tokio::time::sleep(Duration::from_secs(3)).await;

        // 3. A move in each game, committed while Discord refuses every message.
        control
            .put(
                "/faults",
                json!({ "rules": [{ "method": "POST", "path": "/channels/*/messages",
                    "probability": 1.0, "fault": { "kind": "status", "status": 503 } }] }),
            )
            .await;
        for &id in &ids {
            let (_, ply) = send_move(&control, &db, id).await;
            until(20, "the move is committed", || async {
                row(&db, id).await.ply >= ply
            })
            .await;
        }
        let victim = servers[1].clone();
        let (_, mut killed) = processes
            .0
            .remove(usize::try_from(victim.shard).unwrap() + 1);
        killed.kill().expect("SIGKILL");
        killed.wait().unwrap();
        control
            .post("/faults/enabled", json!({ "enabled": false }))
            .await;
        let left = outbox::pending(&db).await.unwrap().len();
        eprintln!(
            "killed shard {}'s process with {left} outbox entries undelivered",
            victim.shard
        );
        assert!(left >= ids.len(), "each game's board waits: {left} entries");

        // While it is down, an interaction in its server reaches no process...
        let unanswered = control
            .send_command(3003, &victim.channel, "help", json!([]))
            .await;
        let id = unanswered["id"].as_str().unwrap();
        let (status, _) = control
            .try_get(&format!(
                "/interactions/{id}/responses/next?timeout_ms=3000&skip_deferrals=true"
            ))
            .await;
        assert_eq!(status, 408, "an interaction of the dead shard was answered");
        // ... the other servers' games go on ...
        for &i in &[0, 2] {
            let (sent, _) = send_move(&control, &db, ids[i]).await;
            let answer = control.answer(&sent).await;
            assert!(answer["content"].is_string(), "{answer}");
        }
        // ... and its server's game runs out of time: the other processes forfeit it.
        age_turn(&db, ids[1], 3 * DAY + 60).await;
        until(30, "the forfeit", || async {
            row(&db, ids[1]).await.state == GameState::Finished
        })
        .await;
        assert_eq!(
            row(&db, ids[1]).await.reason.as_deref(),
            Some("time-forfeit")
        );
        // The boards it left are posted within seconds: its claims lapse
        // (`CLAIM_LEASE_SECS`, 6 s, once it no longer renews them) and the others look at the
        // outbox again (`SHARED_PERIOD`, 6 s); 20 s leaves room for a loaded machine.
        until(20, "the other processes take the outbox over", || {
            drained(&db)
        })
        .await;

        // 4. Restarted, its shard's interactions are answered again: a new game there.
        let before = control.identified_sessions().await;
        processes
            .0
            .push(("kaboom serve", start_shard(&dir, &base, &url, victim.shard)));
        control.ready_after(before).await;
        ids.push(new_game(&control, &db, &victim, pairs[3]).await);

        // 5. The games still on end by resignation.
        for &id in &ids {
            let game = row(&db, id).await;
            if game.state == GameState::Finished {
                continue;
            }
            let thread = game.thread_id.unwrap().to_string();
            // `/resign` asks first; its "Yes, resign" button resigns.
            let user = mover(&db, &game).await;
            let question = control.command(user, &thread, "resign", json!([])).await;
            let sent = control.send_press(user, &question, "kb:resignyes:").await;
            let answer = control.answer(&sent).await;
            assert!(answer["content"].is_string(), "{answer}");
        }
        until(60, "the outbox drains", || drained(&db)).await;
        // Late sweeps and deliveries have nothing left to do twice.
        tokio::time::sleep(Duration::from_secs(2)).await;

        // Every post is the one message its outbox entry recorded.
        let mut recorded: BTreeSet<String> = BTreeSet::new();
        for &id in &ids {
            let game = row(&db, id).await;
            assert_eq!(game.state, GameState::Finished, "game {id}");
            assert_eq!(
                replay(&db, &game).await.fen(Viewer::Full),
                game.state_fen,
                "game {id}"
            );
            // (ply, finished) -> board entries: one per ply, and a game ended off the board
            // (resigned) gets its last ply's board once more with the finished game's buttons.
            let mut plies: BTreeMap<(i64, bool), usize> = BTreeMap::new();
            let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
            for e in outbox::for_game(&db, id).await.unwrap() {
                assert!(
                    e.failed_at.is_none(),
                    "entry {} ({}) given up",
                    e.id,
                    e.kind
                );
                assert!(
                    e.delivered_at.is_some(),
                    "entry {} ({}) undelivered",
                    e.id,
                    e.kind
                );
                *kinds.entry(e.kind.clone()).or_default() += 1;
                if e.kind == "board" {
                    let payload: Value = serde_json::from_str(&e.payload).unwrap();
                    let key = (
                        payload["ply"].as_i64().unwrap(),
                        payload["finished"].as_bool().unwrap(),
                    );
                    *plies.entry(key).or_default() += 1;
                }
                if let Some(message) = e.message_id {
                    assert!(
                        recorded.insert(message.to_string()),
                        "message {message} recorded twice"
                    );
                }
            }
            assert_eq!(
                plies.keys().map(|k| k.0).collect::<BTreeSet<_>>(),
                (0..=game.ply).collect::<BTreeSet<_>>(),
                "game {id}: a board per ply"
            );
            assert!(
                plies.values().all(|&n| n == 1),
                "game {id}: one board entry per ply: {plies:?}"
            );
            assert!(
                plies.keys().filter(|k| k.1).count() <= 1,
                "game {id}: one finished board at most: {plies:?}"
            );
            let nudges = kinds.get("nudge").copied().unwrap_or(0);
            assert_eq!(nudges, usize::from(id == ids[0]), "game {id}: reminders");
            let forfeits = kinds.get("game-ended").copied().unwrap_or(0);
            assert_eq!(forfeits, usize::from(id == ids[1]), "game {id}: forfeits");
        }
        for &id in &ids {
            let game = row(&db, id).await;
            let thread = game.thread_id.unwrap().to_string();
            let posts = bot_posts(&control, &thread, &bot).await;
            assert!(!posts.is_empty(), "game {id}: posts in its thread");
            let unrecorded: Vec<_> = posts.difference(&recorded).collect();
            assert!(
                unrecorded.is_empty(),
                "game {id}: posted without an outbox entry (twice?): {unrecorded:?}"
            );
        }
        for &(a, b) in &pairs {
            for user in [a, b] {
                let dm = control
                    .post("/dm-channels", json!({ "user_id": user }))
                    .await;
                let posts = bot_posts(&control, dm["id"].as_str().unwrap(), &bot).await;
                let unrecorded: Vec<_> = posts.difference(&recorded).collect();
                assert!(
                    unrecorded.is_empty(),
                    "player {user}: DMs without an outbox entry (twice?): {unrecorded:?}"
                );
            }
        }
        // Each recorded post exists once in the fake: the threads' and DMs' posts together
        // account for the game entries' messages (boards, reminder, forfeit, results).
        let mut seen = 0;
        for &id in &ids {
            let thread = row(&db, id).await.thread_id.unwrap().to_string();
            seen += bot_posts(&control, &thread, &bot)
                .await
                .intersection(&recorded)
                .count();
        }
        for &(a, b) in &pairs {
            for user in [a, b] {
                let dm = control
                    .post("/dm-channels", json!({ "user_id": user }))
                    .await;
                seen += bot_posts(&control, dm["id"].as_str().unwrap(), &bot)
                    .await
                    .intersection(&recorded)
                    .count();
            }
        }
        let mut game_messages = 0;
        for &id in &ids {
            game_messages += outbox::for_game(&db, id)
                .await
                .unwrap()
                .iter()
                .filter(|e| {
                    e.message_id.is_some()
                        && matches!(
                            e.kind.as_str(),
                            "board" | "nudge" | "game-ended" | "announcement"
                        )
                })
                .count();
        }
        assert!(
            seen >= game_messages,
            "{seen} recorded posts found, {game_messages} expected at least"
        );
        drop(processes);
    }
}
