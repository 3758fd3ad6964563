//! Benchmark: one scheduler sweep over 100,000 stored active games of which 1% are
//! due, on SQLite (a file in a temporary directory, WAL, as the bot runs). Target: under
//! 200 ms per sweep. Also prints the query plans of the statements a sweep runs.
//!
//! Run: `cargo bench -p kaboom --bench sweep` (results in docs/PERFORMANCE.md).
//! `SWEEP_GAMES` and `SWEEP_ROUNDS` override the sizes.

use std::sync::Arc;
use std::time::Instant;

use kaboom_domain::clock::Clock;
use kaboom_domain::ids::{ChannelId, GuildId, UserId};
use kaboom_rules::{AnyGame, GameOptions, Variant, Viewer};
use kaboom_store::games::{self, GameState, NewGame};
use kaboom_store::{Db, schedule};
use kaboom_testkit::clock::TestClock;
use kaboom_testkit::notifier::RecordingNotifier;

const T0: i64 = 1_700_000_000;
const DAY: i64 = 86_400;

fn env(name: &str, default: i64) -> i64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let games_n = env("SWEEP_GAMES", 100_000);
    let rounds = env("SWEEP_ROUNDS", 20);
    let due_per_round = games_n / 100;
    let dir = tempfile::tempdir().expect("temp dir");
    let db = Db::connect(&format!(
        "sqlite://{}",
        dir.path().join("bench.db").display()
    ))
    .await
    .expect("database");
    let start_fen = AnyGame::new(Variant::Atomic, GameOptions::default())
        .expect("atomic")
        .start_fen(Viewer::Full);

    // Game i starts its turn at T0 + i seconds, 3 days per move: its 50% nudge falls due at
    // T0 + 1.5 days + i. Advancing the clock by games/100 seconds makes 1% of them due.
    let t = Instant::now();
    let mut tx = db.begin_write().await.expect("tx");
    for i in 0..games_n {
        let g = NewGame {
            challenge_id: None,
            guild_id: Some(GuildId(1)),
            channel_id: ChannelId(10),
            white: (UserId(1000 + 2 * i as u64), "white".into()),
            black: (UserId(1001 + 2 * i as u64), "black".into()),
            variant: Variant::Atomic,
            options: GameOptions::default(),
            start_fen: start_fen.clone(),
            state: GameState::Active,
            days_per_move: Some(3),
            deadline_at: Some(T0 + i + 3 * DAY),
            rated: false,
            venue: kaboom_store::challenges::Venue::Thread,
        };
        games::insert(&mut tx, &g, T0 + i).await.expect("insert");
    }
    tx.commit().await.expect("commit");
    println!("inserted {games_n} active games in {:.2?}", t.elapsed());

    let clock = Arc::new(TestClock::new(T0 + games_n));
    let notifier = Arc::new(RecordingNotifier::default());
    let scheduler = kaboom_testkit::default_scheduler(db.clone(), clock.clone(), notifier.clone());
    // New games are due at once (the insert trigger): the first sweep schedules them all.
    let t = Instant::now();
    let first = scheduler.sweep().await.expect("sweep");
    println!(
        "first sweep (schedules all {} new games): {:.2?}",
        first.examined,
        t.elapsed()
    );
    for (label, sql, plan) in schedule::explain_sweep(&db).await.expect("explain") {
        let sql = sql.split_whitespace().collect::<Vec<_>>().join(" ");
        println!("query plan, {label}: `{sql}`");
        for line in plan {
            println!("  {line}");
        }
    }

    // Nothing due: the cost of an idle sweep.
    let t = Instant::now();
    let idle = scheduler.sweep().await.expect("sweep");
    println!("idle sweep ({} due): {:.2?}", idle.examined, t.elapsed());

    clock.advance(DAY + DAY / 2 - games_n - 1);
    let mut times = Vec::new();
    for _ in 0..rounds {
        clock.advance(due_per_round);
        notifier.clear();
        let t = Instant::now();
        let r = scheduler.sweep().await.expect("sweep");
        times.push(t.elapsed());
        assert_eq!(r.nudged.len() as i64, due_per_round, "1% due each round");
        assert_eq!(notifier.sent().len() as i64, due_per_round);
    }
    times.sort();
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
    println!(
        "sweep over {games_n} games with {due_per_round} due (50% nudges), {rounds} rounds: \
         min {:.1} ms, median {:.1} ms, max {:.1} ms",
        ms(times[0]),
        ms(times[times.len() / 2]),
        ms(times[times.len() - 1])
    );

    // 1% due for a time forfeit instead (replays each game, writes the result). First a
    // catch-up sweep to the moment every game has passed its 80% nudge (games whose
    // deadline passed by then are forfeited in it), then rounds of 1% reaching the deadline.
    let target = T0 + games_n + 3 * DAY * 80 / 100;
    clock.advance(target - clock.now());
    let t = Instant::now();
    let r = scheduler.sweep().await.expect("sweep");
    println!(
        "catch-up sweep: {} games due ({} forfeits, {} nudges) in {:.2?}",
        r.examined,
        r.forfeited.len(),
        r.nudged.len(),
        t.elapsed()
    );
    let mut forfeits = Vec::new();
    for _ in 0..5 {
        clock.advance(due_per_round);
        let t = Instant::now();
        let r = scheduler.sweep().await.expect("sweep");
        forfeits.push((t.elapsed(), r.forfeited.len(), r.examined));
    }
    for (d, n, e) in forfeits {
        println!("forfeit sweep: {n} forfeits of {e} due in {:.1} ms", ms(d));
    }
}
