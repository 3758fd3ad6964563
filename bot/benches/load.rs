//! Load benchmark: `kaboom serve` as a separate process against the
//! `fake-discord` program (`--lean`: it keeps no image bytes) as another, both on this
//! machine, driven through the fake's control API over loopback the way Discord drives the
//! bot. The figures go to docs/PERFORMANCE.md ("Load"); this is not a test.
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
//!    /proc), the CPU seconds of the bot, the fake and this driver, and the bot's CPU
//!    milliseconds and context switches per move (voluntary and involuntary, summed over
//!    its threads' /proc/PID/task/*/status).
//!
//! Run: `cargo build --release -p fake-discord && cargo bench -p kaboom --bench load`
//! (`LOAD_GAMES=2000 LOAD_SECONDS=60 ...` for other sizes; `LOAD_SEED` for the moves).
//!
//! `LOAD_ANALYSES=1`: meanwhile a spectator asks for `/analysis` of every game that ends
//! during the stream (at the bot's default budget per variant), so that the bot's analysis
//! worker searches all along; the run then also prints how many analyses were asked for
//! and finished. Run it once with and once without, one after the other, to see what
//! analyses cost the moves (docs/PERFORMANCE.md, "Post-game analysis beside the load").
//!
//! On PostgreSQL: `LOAD_DATABASE_URL=postgres://USER@HOST:PORT/DB` names a
//! server whose user may create databases; the run makes a fresh database there (dropped
//! at the end) and every `kaboom serve` uses it. `LOAD_PROCESSES=N` (default 1; more needs
//! PostgreSQL) starts N `kaboom serve` processes with `SHARD_COUNT=N` and `SHARD_IDS=i`
//! against a fake with N servers (`--guilds N`, one per shard), game `i` in server
//! `i % N`. It then also prints each process's CPU, the PostgreSQL backends' CPU, how
//! often a backend waited for the write lock (`pg_stat_activity` sampled every 50 ms:
//! `wait_event = 'advisory'`, the lock of `Db::begin_write`), and the REST requests per
//! second the bots sent outside interaction endpoints (what Discord's global limit of 50
//! per second counts).

#[allow(dead_code)]
#[path = "../tests/it/process.rs"]
mod process;

use std::collections::VecDeque;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kaboom_domain::ids::ChannelId;
use kaboom_rules::{AnyGame, Color, Status, Variant, Viewer};
use kaboom_store::{Db, games, sql};
use process::{Control, Processes, WAIT_MS, serve_command, start_bot, start_fake_with};
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

/// The context switches (voluntary + involuntary) of every thread process `pid` has now,
/// summed over /proc/PID/task/*/status. Threads that have ended are not counted (the
/// blocking pool keeps its threads while it is busy, so over a steady run this misses
/// little).
fn context_switches(pid: u32) -> u64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .filter_map(Result::ok)
        .map(|task| {
            std::fs::read_to_string(task.path().join("status"))
                .unwrap_or_default()
                .lines()
                .filter(|l| {
                    l.starts_with("voluntary_ctxt_switches:")
                        || l.starts_with("nonvoluntary_ctxt_switches:")
                })
                .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
                .sum::<u64>()
        })
        .sum()
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

/// Challenges, accepts and (Beirut, Nuke) designates game `i` in `channel` (a server's
/// text channel); returns it.
async fn seed_game(control: &Control, db: &Db, channel: &str, i: u64) -> Game {
    let (white, black) = (FIRST_USER + 2 * i, FIRST_USER + 2 * i + 1);
    let (choice, variant) = VARIANTS[(i % 5) as usize];
    let accepted = control
        .challenge_and_accept_variant(white, black, channel, choice)
        .await;
    let content = accepted["content"].as_str().unwrap_or_default();
    let named = content
        .split("<#")
        .nth(1)
        .and_then(|rest| rest.split('>').next())
        .map(str::to_string);
    let (thread, row) = match named {
        Some(thread) => {
            let row = games::by_thread(db, ChannelId::from(thread.parse::<u64>().unwrap()))
                .await
                .unwrap()
                .expect("the game of the thread");
            (thread, row)
        }
        // "Game #N is saved; its thread will open shortly": the thread's post is still in
        // the outbox (under load); wait for it.
        None => {
            let id: i64 = content
                .split("Game #")
                .nth(1)
                .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("no thread nor game in the accept answer: {content}"));
            let deadline = Instant::now() + Duration::from_millis(WAIT_MS);
            loop {
                let row = games::get(db, id.into()).await.unwrap().expect("the game");
                if let Some(thread) = row.thread_id {
                    break (thread.to_string(), row);
                }
                assert!(Instant::now() < deadline, "game {id}'s thread never opened");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    };
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

/// The user who asks for analyses with `LOAD_ANALYSES` (no player's id).
const SPECTATOR: u64 = 999;

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
    let analyses = env_or("LOAD_ANALYSES", 0) > 0;
    let n_processes = env_or("LOAD_PROCESSES", 1).max(1);
    let postgres = std::env::var("LOAD_DATABASE_URL")
        .ok()
        .filter(|u| !u.trim().is_empty());
    assert!(
        n_processes == 1 || postgres.is_some(),
        "LOAD_PROCESSES > 1 needs LOAD_DATABASE_URL (a PostgreSQL server)"
    );
    println!(
        "load: {n_games} games, {seconds} s of moves, {players} players in flight, seed {seed}, \
         {} on {n_processes} process(es)",
        if postgres.is_some() {
            "PostgreSQL"
        } else {
            "SQLite"
        }
    );

    let mut processes = Processes(Vec::new());
    let guilds = n_processes.to_string();
    // The bot's own speed by default; LOAD_GLOBAL_LIMIT=1 keeps Discord's global limit of
    // 50 requests per second, which caps the boards posted (about 16 moves a second).
    let mut fake_args = vec!["--lean", "--guilds", &guilds];
    if std::env::var("LOAD_GLOBAL_LIMIT").as_deref() != Ok("1") {
        fake_args.push("--no-global-rate-limit");
    }
    let base = start_fake_with(&mut processes, &fake_args);
    let dir = tempfile::tempdir().unwrap();
    // The PostgreSQL database, made before the processes start; `None` on SQLite.
    let temp_db = match &postgres {
        Some(server) => Some(kaboom_testkit::TempDb::on_postgres(server).await),
        None => None,
    };
    let url = match &temp_db {
        Some(temp) => {
            // Migrated once here, before the processes start.
            Db::connect(temp.url()).await.unwrap().close().await;
            temp.url().to_string()
        }
        None => format!(
            "sqlite://{}",
            Path::new(dir.path()).join("kaboom.db").display()
        ),
    };
    for shard in 0..n_processes {
        let bot = if temp_db.is_none() {
            start_bot(dir.path(), &base)
        } else {
            let log =
                std::fs::File::create(dir.path().join(format!("kaboom-{shard}.log"))).unwrap();
            let mut command = serve_command(dir.path(), &base, "fake-token-for-kaboom");
            command.env("DATABASE_URL", &url).stderr(log);
            if n_processes > 1 {
                command
                    .env("SHARD_COUNT", n_processes.to_string())
                    .env("SHARD_IDS", shard.to_string());
            }
            command.spawn().expect("kaboom serve starts")
        };
        processes.0.push(("kaboom serve", bot));
    }
    let fake_pid = processes.0[0].1.id();
    let bot_pids: Vec<u32> = processes.0[1..].iter().map(|(_, c)| c.id()).collect();
    let control = Arc::new(Control::new(base));
    control.ready_after(n_processes - 1).await;
    control.bot_ready().await;
    let info = control.get("/info").await;
    let channels: Vec<String> = info["guilds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["text_channel_id"].as_str().unwrap().to_string())
        .collect();
    control
        .add_players(FIRST_USER..FIRST_USER + 2 * n_games)
        .await;
    control.add_players([SPECTATOR]).await;
    let db = Arc::new(Db::connect(&url).await.unwrap());

    // Seeding, 8 games at a time.
    let started = Instant::now();
    let gate = Arc::new(Semaphore::new(8));
    let mut seeding = Vec::new();
    for i in 0..n_games {
        let channel = channels[(i % channels.len() as u64) as usize].clone();
        let (control, db, gate) = (control.clone(), db.clone(), gate.clone());
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
        bot_pids
            .iter()
            .map(|&p| (status_kb(p, "VmRSS") / 1024).to_string())
            .collect::<Vec<_>>()
            .join(" + ")
    );

    // The steady stream.
    let queue: Arc<Mutex<VecDeque<usize>>> = Arc::new(Mutex::new((0..all.len()).collect()));
    let latencies = Arc::new(Mutex::new(Vec::<f64>::new()));
    let autocompletes = Arc::new(Mutex::new(Vec::<f64>::new()));
    let saved_answers = Arc::new(Mutex::new(0usize));
    let end = Instant::now() + Duration::from_secs(seconds);
    let bot_cpu0: Vec<f64> = bot_pids.iter().map(|&p| cpu_seconds(p)).collect();
    let bot_switches0: u64 = bot_pids.iter().map(|&p| context_switches(p)).sum();
    let load_at_start = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let fake_cpu0 = cpu_seconds(fake_pid);
    let self_cpu0 = cpu_seconds(std::process::id());
    let database_name = temp_db
        .as_ref()
        .and_then(|t| t.url().rsplit('/').next())
        .map(|n| n.split('?').next().unwrap_or(n).to_string());
    let pg_cpu0 = database_name.as_deref().map(backend_cpu);
    let requests0 = control.get("/requests?since=0").await["next"]
        .as_u64()
        .unwrap_or(0);
    // On PostgreSQL: who waits for the write lock, sampled until the stream ends.
    let lock_samples = database_name.as_ref().map(|_| {
        let db = db.clone();
        let end = Instant::now() + Duration::from_secs(seconds);
        tokio::spawn(async move {
            let mut samples = Vec::new();
            while Instant::now() < end {
                let (waiting, active): (i64, i64) = sql::query(
                    "SELECT COUNT(*) FILTER (WHERE wait_event_type = 'Lock' AND wait_event = 'advisory') AS waiting, \
                            COUNT(*) FILTER (WHERE state = 'active') AS active \
                     FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
                )
                .fetch_one(&*db)
                .await
                .unwrap();
                samples.push((waiting, active));
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            samples
        })
    });
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
                        // Played at once (no explosion preview).
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
    // With LOAD_ANALYSES, a spectator asks for the analysis of each game that has ended.
    let analysing = analyses.then(|| {
        let (control, all) = (control.clone(), all.clone());
        tokio::spawn(async move {
            let mut asked = vec![false; all.len()];
            let mut count = 0usize;
            while Instant::now() < end {
                tokio::time::sleep(Duration::from_millis(250)).await;
                for i in 0..all.len() {
                    let thread = {
                        let game = all[i].lock().unwrap();
                        if asked[i] || game.state.status() == Status::Ongoing {
                            continue;
                        }
                        game.thread.clone()
                    };
                    asked[i] = true;
                    let sent = control
                        .send_command(SPECTATOR, &thread, "analysis", json!([]))
                        .await;
                    let answer = control.answer(&sent).await;
                    let content = answer["content"].as_str().unwrap_or_default();
                    assert!(content.starts_with("Analysing game"), "{answer}");
                    count += 1;
                }
            }
            count
        })
    });
    for w in workers {
        w.await.unwrap();
    }
    typing.await.unwrap();
    if let Some(task) = analysing {
        let asked = task.await.unwrap();
        let (done,): (i64,) = sql::query("SELECT COUNT(*) AS n FROM analyses WHERE state = 'done'")
            .fetch_one(&*db)
            .await
            .unwrap();
        println!("analyses: {asked} asked for during the stream, {done} finished by its end");
    }
    let elapsed = load_start.elapsed().as_secs_f64();
    let bot_cpus: Vec<f64> = bot_pids
        .iter()
        .zip(&bot_cpu0)
        .map(|(&p, c0)| cpu_seconds(p) - c0)
        .collect();
    let bot_cpu: f64 = bot_cpus.iter().sum();
    let bot_switches = bot_pids
        .iter()
        .map(|&p| context_switches(p))
        .sum::<u64>()
        .saturating_sub(bot_switches0);
    let fake_cpu = cpu_seconds(fake_pid) - fake_cpu0;
    let pg_cpu = database_name
        .as_deref()
        .zip(pg_cpu0)
        .map(|(name, c0)| backend_cpu(name) - c0);
    let self_cpu = cpu_seconds(std::process::id()) - self_cpu0;
    let latencies = latencies.lock().unwrap().clone();
    let moves = latencies.len();
    println!(
        "moves: {moves} in {elapsed:.1} s = {:.1} moves/s ({} answered \"saved, board follows\")",
        moves as f64 / elapsed,
        saved_answers.lock().unwrap()
    );
    println!(
        "bot per move: {:.2} ms of CPU, {:.1} context switches (all its threads, from /proc)",
        1e3 * bot_cpu / moves.max(1) as f64,
        bot_switches as f64 / moves.max(1) as f64
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
        bot_pids
            .iter()
            .map(|&p| (status_kb(p, "VmHWM") / 1024).to_string())
            .collect::<Vec<_>>()
            .join(" + "),
        status_kb(fake_pid, "VmRSS") / 1024
    );
    println!(
        "CPU during the stream: bot {bot_cpu:.1} s ({:.0}% of one core; per process {}), fake {fake_cpu:.1} s ({:.0}%), driver {self_cpu:.1} s ({:.0}%){}",
        100.0 * bot_cpu / elapsed,
        bot_cpus
            .iter()
            .map(|c| format!("{:.0}%", 100.0 * c / elapsed))
            .collect::<Vec<_>>()
            .join(" / "),
        100.0 * fake_cpu / elapsed,
        100.0 * self_cpu / elapsed,
        pg_cpu
            .map(|c| format!(
                ", PostgreSQL backends {c:.1} s ({:.0}%)",
                100.0 * c / elapsed
            ))
            .unwrap_or_default()
    );
    if let Some(task) = lock_samples {
        let samples = task.await.unwrap();
        let n = samples.len().max(1) as f64;
        let waiting: i64 = samples.iter().map(|s| s.0).sum();
        let active: i64 = samples.iter().map(|s| s.1).sum();
        let any = samples.iter().filter(|s| s.0 > 0).count();
        println!(
            "write lock (pg_stat_activity, {} samples): {:.2} backends waiting on average, some waiting in {:.0}% of samples; {:.2} active",
            samples.len(),
            waiting as f64 / n,
            100.0 * any as f64 / n,
            active as f64 / n
        );
    }
    // REST requests to Discord during the stream outside interaction endpoints (those are
    // not bound by the global 50/s).
    let requests = control.get(&format!("/requests?since={requests0}")).await;
    let mut by_route: std::collections::BTreeMap<String, u64> = Default::default();
    let mut global = 0u64;
    for r in requests["requests"].as_array().into_iter().flatten() {
        let path = r["path"].as_str().unwrap_or_default();
        if path.starts_with("/_control") {
            continue;
        }
        let interaction = path.contains("/interactions/") || path.contains("/webhooks/");
        if !interaction {
            global += 1;
        }
        let route: Vec<&str> = path
            .split('/')
            .map(|seg| {
                if seg.chars().all(|c| c.is_ascii_digit()) && !seg.is_empty() {
                    "{id}"
                } else {
                    seg
                }
            })
            .collect();
        *by_route
            .entry(format!(
                "{} {}",
                r["method"].as_str().unwrap_or("?"),
                route.join("/")
            ))
            .or_default() += 1;
    }
    println!(
        "REST requests outside interaction endpoints: {global} = {:.1}/s ({:.2} per move); by route: {}",
        global as f64 / elapsed,
        global as f64 / moves.max(1) as f64,
        by_route
            .iter()
            .filter(|(k, _)| !k.contains("/interactions/") && !k.contains("/webhooks/"))
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "load average at the start of the stream: {}; at the end: {}",
        load_at_start.trim(),
        load.trim()
    );
    db.close().await;
    drop(processes);
    drop(temp_db);
}

/// The CPU seconds of the PostgreSQL backends serving database `name` now (their
/// command lines name it: `postgres: USER DB HOST(PORT) STATE`); backends that ended are
/// not counted.
fn backend_cpu(name: &str) -> f64 {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0.0;
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| {
                let c = String::from_utf8_lossy(&c);
                c.starts_with("postgres:") && c.split_whitespace().any(|w| w == name)
            })
        })
        .map(cpu_seconds)
        .sum()
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
