//! What one move costs the database, counted by the store ([`kaboom_store::RoundTrips`]).

use std::time::Duration;

use kaboom_store::{Db, RoundTrips};
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::fixture::{ATOMIC, TestBot};

/// The counter once nothing has moved it for a while: the bot's background work that
/// follows a command (the outbox's last marks, the engine's look at the game) has ended.
async fn settled(db: &Db) -> RoundTrips {
    let mut last = db.round_trips();
    loop {
        tokio::time::sleep(Duration::from_millis(150)).await;
        let now = db.round_trips();
        if now == last {
            return now;
        }
        last = now;
    }
}

/// Guards the database round trips of every move: an ordinary `/move` (a quiet
/// Atomic move in its thread, by the player to move, answered once its board is
/// posted) costs at most the statements and pool checkouts asserted here, end to end:
/// the command's reads (the thread's game is remembered from the first move; the game
/// and the player's preview choice are one statement), the write transaction
/// (expected-ply check, the action, the outbox entry; no statement for a draw offer, a
/// takeback proposal or conditional lines when the update found none), the outbox's
/// delivery of the board and its marks, and the command's wait for that delivery (its
/// first look is what it waits for; the board's link comes from the deliverer). Each
/// statement wakes the
/// database's worker (on SQLite a thread of its own) and then the waiting task, so a
/// change that adds a query to the move's path adds context switches to every move
/// (docs/PERFORMANCE.md, "Load"): this test fails on it, and the bound is lowered, not
/// raised, when a round trip is saved.
///
/// SQLite only: on PostgreSQL the deliverer renews its queue claims every 2 seconds
/// and looks for entries every 6 on the same pool, so the count would depend on when
/// the move ran (measured there by hand: docs/PERFORMANCE.md).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ordinary_move_costs_a_bounded_number_of_round_trips() -> Result<(), DemoError> {
    let d = TestBot::start().await?;
    let started = d.start_game(ATOMIC).await?;
    let thread = started.thread.get();
    d.clock.advance(60);
    d.play(&d.alice, thread, "Nf3").await?;
    let before = settled(&d.db).await;
    d.clock.advance(60);
    let answer = d.play(&d.bob, thread, "a6").await?;
    let cost = settled(&d.db).await - before;
    assert!(
        answer.content().unwrap_or_default().starts_with("Played"),
        "{answer:?}"
    );
    assert_eq!(d.boards(thread).len(), 3);
    assert!(cost.statements <= 13, "{cost:?}");
    assert!(cost.checkouts <= 8, "{cost:?}");
    d.driver.stop().await;
    Ok(())
}
