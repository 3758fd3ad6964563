//! Load benchmark (issue 17): `kaboom serve` as a separate process against the
//! `fake-discord` program (`--lean`: it keeps no image bytes) as another, both on this
//! machine, driven through the fake's control API over loopback the way Discord drives the
//! bot. The figures go to docs/PERFORMANCE.md ("Load (issue 17)"); this is not a test.
//!
//! What it does:
//! 1. starts both processes (release builds) on a fresh SQLite database;
//! 2. seeds `LOAD_GAMES` games (default 500) across the five variants, each between its
//!    own two players, by `/challenge` and the Accept button, with carriers chosen from
//!    the DM menus for Beirut and Nuke;
//! 3. plays a steady stream of moves for `LOAD_SECONDS` (default 30): `LOAD_PLAYERS`
//!    simulated players (default 32) each take the next game waiting for a move, send
//!    `/move` from the player to move, and wait for its answer (and, when the answer says
//!    the board follows, for the board in the thread); meanwhile one player types in
//!    `/move`'s autocomplete 5 times a second;
//! 4. prints moves per second, move latency (interaction created to answer with the board
//!    posted: p50, p95, p99, max), autocomplete latency, the bot's peak RSS (`VmHWM` from
//!    /proc) and the CPU seconds of the bot, the fake and this driver.
//!
//! Run: `cargo build --release -p fake-discord && cargo bench -p kaboom-bot --bench load`
//! (`LOAD_GAMES=2000 LOAD_SECONDS=60 ...` for other sizes; `LOAD_SEED` for the moves).

#[allow(dead_code)]
#[path = "../tests/it/process.rs"]
mod process;

use std::collections::VecDeque;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kaboom_bot::domain::ids::ChannelId;
use kaboom_bot::storage::{Db, games};
use kaboom_rules::{AnyGame, Color, Status, Variant, Viewer};
use process::{Control, Processes, WAIT_MS, start_bot, start_fake_with};
use serde_json::{Value, json};
use tokio::sync::Semaphore;

/// `/challenge variant:` choice index of each variant, in the order of the choices.
const VARIANTS: [(u64, Variant); 5] = [
    (0, Variant::Atomic),
    (1, Variant::Beirut),
    (2, Variant::Nuke),
    (3, Variant::Bomberman),
    (4, Variant::Bombalot),
];
/// The first player's id; game `i` is played by `FIRST_USER + 2i` (White) and `+ 2i + 1`.
const FIRST_USER: u64 = 100_000;

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One game of the run, as the driver mirrors it.
struct Game {
    thread: String,
    /// Board messages in the thread so far (the opening board, the start of play after
    /// the carriers, one per ply).
    boards: usize,
    white: u64,
    black: u64,
    state: AnyGame,
}

/// The CPU seconds (user + system) process `pid` has used, from /proc/PID/stat.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of stat (1-based), 12 and 13 after the name.
    (ticks(11) + ticks(12)) / clock_ticks()
}

fn clock_ticks() -> f64 {
    std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100.0)
}

/// A field of /proc/PID/status in kB (e.g. `VmHWM`, the peak resident set).
fn status_kb(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{field}:")))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[rank.min(sorted.len() - 1)]
}

fn summary(name: &str, mut ms: Vec<f64>) -> String {
    ms.sort_by(f64::total_cmp);
    format!(
        "{name}: n {}, p50 {:.1} ms, p95 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        ms.len(),
        percentile(&ms, 50.0),
        percentile(&ms, 95.0),
        percentile(&ms, 99.0),
        ms.last().copied().unwrap_or(f64::NAN)
    )
}

/// Challenges, accepts and (Beirut, Nuke) designates game `i`; returns it.
async fn seed_game(control: &Control, db: &Db, channel: &str, i: u64) -> Game {
    let (white, black) = (FIRST_USER + 2 * i, FIRST_USER + 2 * i + 1);
    let (choice, variant) = VARIANTS[(i % 5) as usize];
    let challenge = control
        .command(
            white,
            channel,
            "challenge",
            json!([
                { "name": "variant", "type": 4, "value": choice },
                { "name": "opponent", "type": 6, "value": black.to_string() },
                { "name": "color", "type": 4, "value": 0 },
            ]),
        )
        .await;
    let message = challenge["message_id"]
        .as_str()
        .expect("a challenge message");
    let accept = challenge["custom_ids"]
        .as_array()
        .and_then(|ids| {
            ids.iter()
                .filter_map(Value::as_str)
                .find(|id| id.starts_with("kb:accept:"))
        })
        .expect("an Accept button")
        .to_string();
    let sent = control
        .post(
            "/interactions/button",
            json!({ "user_id": black, "message_id": message, "custom_id": accept }),
        )
        .await;
    let accepted = control.answer(&sent).await;
    let content = accepted["content"].as_str().unwrap_or_default();
    let thread = content
        .split("<#")
        .nth(1)
        .and_then(|rest| rest.split('>').next())
        .unwrap_or_else(|| panic!("no thread in the accept answer: {content}"))
        .to_string();
    let row = games::by_thread(db, ChannelId::from(thread.parse::<u64>().unwrap()))
        .await
        .unwrap()
        .expect("the game of the thread");
    if variant.has_designation() {
        for user in [white, black] {
            let dm = control
                .post("/dm-channels", json!({ "user_id": user }))
                .await;
            let dm = dm["id"].as_str().unwrap().to_string();
            let menu_id = format!("kb:carriers:{}", row.id);
            let messages = control
                .get(&format!(
                    "/channels/{dm}/messages?min_count=1&timeout_ms={WAIT_MS}"
                ))
                .await;
            let menu = messages["messages"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| {
                    m["custom_ids"]
                        .as_array()
                        .unwrap()
                        .contains(&json!(menu_id))
                })
                .unwrap_or_else(|| panic!("no carrier menu for {user}: {messages}"))
                .clone();
            let select = &menu["message"]["components"][0]["components"][0];
            let count = select["min_values"].as_u64().unwrap_or(1) as usize;
            let values: Vec<Value> = select["options"]
                .as_array()
                .unwrap()
                .iter()
                .take(count)
                .map(|o| o["value"].clone())
                .collect();
            let sent = control
                .post(
                    "/interactions/select",
                    json!({ "user_id": user, "message_id": menu["id"], "custom_id": menu_id,
                            "values": values }),
                )
                .await;
            control.answer(&sent).await;
        }
    }
    let messages = control.get(&format!("/channels/{thread}/messages")).await;
    let boards = messages["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| !m["attachments"].as_array().unwrap().is_empty())
        .count();
    let row = games::get(db, row.id).await.unwrap().unwrap();
    let actions = games::actions(db, row.id).await.unwrap();
    let state = AnyGame::from_record(&games::record(&row, actions)).expect("the game replays");
    Game {
        thread,
        boards,
        white,
        black,
        state,
    }
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(run());
}

async fn run() {
    let n_games = env_or("LOAD_GAMES", 500);
    let seconds = env_or("LOAD_SECONDS", 30);
    let players = env_or("LOAD_PLAYERS", 32) as usize;
    let seed = env_or("LOAD_SEED", 17);
    println!(
        "load: {n_games} games, {seconds} s of moves, {players} players in flight, seed {seed}"
    );

    let mut processes = Processes(Vec::new());
    let base = start_fake_with(&mut processes, &["--lean"]);
    let dir = tempfile::tempdir().unwrap();
    processes
        .0
        .push(("kaboom serve", start_bot(dir.path(), &base)));
    let fake_pid = processes.0[0].1.id();
    let bot_pid = processes.0[1].1.id();
    let control = Arc::new(Control::new(base));
    let channel = control.bot_ready().await;
    control
        .add_players(FIRST_USER..FIRST_USER + 2 * n_games)
        .await;
    let db = Arc::new(
        Db::connect(&format!(
            "sqlite://{}",
            Path::new(dir.path()).join("kaboom.db").display()
        ))
        .await
        .unwrap(),
    );

    // Seeding, 8 games at a time.
    let started = Instant::now();
    let gate = Arc::new(Semaphore::new(8));
    let mut seeding = Vec::new();
    for i in 0..n_games {
        let (control, db, channel, gate) =
            (control.clone(), db.clone(), channel.clone(), gate.clone());
        seeding.push(tokio::spawn(async move {
            let _permit = gate.acquire().await.unwrap();
            seed_game(&control, &db, &channel, i).await
        }));
    }
    let mut all = Vec::new();
    for task in seeding {
        all.push(Mutex::new(task.await.unwrap()));
    }
    let all = Arc::new(all);
    println!(
        "seeded {n_games} games in {:.1} s; bot RSS {} MB",
        started.elapsed().as_secs_f64(),
        status_kb(bot_pid, "VmRSS") / 1024
    );

    // The steady stream.
    let queue: Arc<Mutex<VecDeque<usize>>> = Arc::new(Mutex::new((0..all.len()).collect()));
    let latencies = Arc::new(Mutex::new(Vec::<f64>::new()));
    let autocompletes = Arc::new(Mutex::new(Vec::<f64>::new()));
    let saved_answers = Arc::new(Mutex::new(0usize));
    let end = Instant::now() + Duration::from_secs(seconds);
    let (bot_cpu0, fake_cpu0) = (cpu_seconds(bot_pid), cpu_seconds(fake_pid));
    let self_cpu0 = cpu_seconds(std::process::id());
    let load_start = Instant::now();
    let mut workers = Vec::new();
    for w in 0..players {
        let (control, all, queue, latencies, saved_answers) = (
            control.clone(),
            all.clone(),
            queue.clone(),
            latencies.clone(),
            saved_answers.clone(),
        );
        let mut rng = fastrand::Rng::with_seed(seed.wrapping_add(w as u64));
        workers.push(tokio::spawn(async move {
            while Instant::now() < end {
                let Some(i) = queue.lock().unwrap().pop_front() else {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                    continue;
                };
                let (thread, user, color, san) = {
                    let game = all[i].lock().unwrap();
                    let color = game.state.turn();
                    let legal = game.state.legal_actions(Viewer::Full);
                    let san = legal[rng.usize(..legal.len())].san.clone();
                    let user = if color == Color::White {
                        game.white
                    } else {
                        game.black
                    };
                    (game.thread.clone(), user, color, san)
                };
                let t0 = Instant::now();
                let sent = control
                    .send_command(
                        user,
                        &thread,
                        "move",
                        // Played at once (no explosion preview, issue 19).
                        json!([{ "name": "action", "type": 3, "value": san },
                               { "name": "preview", "type": 5, "value": false }]),
                    )
                    .await;
                let answer = control.answer(&sent).await;
                let content = answer["content"].as_str().unwrap_or_default();
                assert!(content.starts_with("Played"), "{san}: {answer}");
                if content.contains("board will be posted") {
                    // The board follows from the outbox: wait for it in the thread.
                    *saved_answers.lock().unwrap() += 1;
                    let boards = all[i].lock().unwrap().boards + 1;
                    wait_for_board(&control, &thread, boards).await;
                }
                latencies
                    .lock()
                    .unwrap()
                    .push(t0.elapsed().as_secs_f64() * 1e3);
                let mut game = all[i].lock().unwrap();
                game.state
                    .play(Some(color), &san)
                    .expect("the move the bot played");
                game.boards += 1;
                if game.state.status() == Status::Ongoing {
                    queue.lock().unwrap().push_back(i);
                }
            }
        }));
    }
    // One player types in autocomplete 5 times a second.
    let typing = {
        let (control, all, autocompletes) = (control.clone(), all.clone(), autocompletes.clone());
        let mut rng = fastrand::Rng::with_seed(seed ^ 0xa5a5);
        tokio::spawn(async move {
            while Instant::now() < end {
                tokio::time::sleep(Duration::from_millis(200)).await;
                let i = rng.usize(..all.len());
                let (thread, user, typed) = {
                    let game = all[i].lock().unwrap();
                    let user = if game.state.turn() == Color::White {
                        game.white
                    } else {
                        game.black
                    };
                    let legal = game.state.legal_actions(Viewer::Full);
                    let Some(first) = legal.first() else { continue };
                    let typed: String = first.san.chars().take(1).collect();
                    (game.thread.clone(), user, typed)
                };
                let t0 = Instant::now();
                let sent = control
                    .post(
                        "/interactions/autocomplete",
                        json!({ "user_id": user, "channel_id": thread, "name": "move",
                                "options": [{ "name": "action", "type": 3, "value": typed,
                                              "focused": true }] }),
                    )
                    .await;
                control.answer(&sent).await;
                autocompletes
                    .lock()
                    .unwrap()
                    .push(t0.elapsed().as_secs_f64() * 1e3);
            }
        })
    };
    for w in workers {
        w.await.unwrap();
    }
    typing.await.unwrap();
    let elapsed = load_start.elapsed().as_secs_f64();
    let (bot_cpu, fake_cpu) = (
        cpu_seconds(bot_pid) - bot_cpu0,
        cpu_seconds(fake_pid) - fake_cpu0,
    );
    let self_cpu = cpu_seconds(std::process::id()) - self_cpu0;
    let latencies = latencies.lock().unwrap().clone();
    let moves = latencies.len();
    println!(
        "moves: {moves} in {elapsed:.1} s = {:.1} moves/s ({} answered \"saved, board follows\")",
        moves as f64 / elapsed,
        saved_answers.lock().unwrap()
    );
    println!(
        "{}",
        summary("move latency (to the board posted)", latencies)
    );
    println!(
        "{}",
        summary(
            "autocomplete latency",
            autocompletes.lock().unwrap().clone()
        )
    );
    println!(
        "bot peak RSS {} MB (VmHWM), fake RSS {} MB",
        status_kb(bot_pid, "VmHWM") / 1024,
        status_kb(fake_pid, "VmRSS") / 1024
    );
    println!(
        "CPU during the stream: bot {bot_cpu:.1} s ({:.0}% of one core), fake {fake_cpu:.1} s ({:.0}%), driver {self_cpu:.1} s ({:.0}%)",
        100.0 * bot_cpu / elapsed,
        100.0 * fake_cpu / elapsed,
        100.0 * self_cpu / elapsed
    );
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("load average at the end: {}", load.trim());
    db.close().await;
    drop(processes);
}

/// Waits until the thread holds `count` boards (its messages with an attachment).
async fn wait_for_board(control: &Control, thread: &str, count: usize) {
    let deadline = Instant::now() + Duration::from_millis(WAIT_MS);
    while Instant::now() < deadline {
        let messages = control.get(&format!("/channels/{thread}/messages")).await;
        let boards = messages["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| !m["attachments"].as_array().unwrap().is_empty())
            .count();
        if boards >= count {
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("board {count} never came in thread {thread}");
}
