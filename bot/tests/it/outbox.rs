//! The Discord outbox (issue 16): a change's posts survive a crash between the commit and
//! the post, a Discord 5xx tells the player the change is saved (never "failed") and the
//! board follows, and retries post nothing twice (Create Message `nonce` +
//! `enforce_nonce`).

use std::sync::Arc;
use std::time::Duration;

use fake_discord::FakeDiscord;
use kaboom_bot::discord::outbox::DiscordEffects;
use kaboom_bot::domain::ids::{ChannelId, GameId, MessageId};
use kaboom_bot::service::Services;
use kaboom_bot::service::painter::RendererPainter;
use kaboom_bot::storage::{Db, outbox};
use kaboom_testkit::clock::TestClock;
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::driver::{Driver, ServicesFor, StartedGame};

const T0: i64 = 1_763_700_000;
const ATOMIC: i64 = 0;

fn services_for() -> ServicesFor {
    let clock = Arc::new(TestClock::new(T0));
    Arc::new(move |db| Services::new(db, clock.clone(), Arc::new(RendererPainter)))
}

async fn start() -> Result<(Driver, tempfile::TempDir, String), DemoError> {
    let dir = tempfile::tempdir()?;
    let url = format!("sqlite://{}", dir.path().join("kaboom.db").display());
    let fake = FakeDiscord::start().await?;
    let d = Driver::start_with(fake, &url, services_for()).await?;
    Ok((d, dir, url))
}

/// Waits (at most 20 s) until `thread` shows `n` boards.
async fn wait_for_boards(d: &Driver, thread: ChannelId, n: usize) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while d.boards(thread).len() < n {
        assert!(
            tokio::time::Instant::now() < deadline,
            "only {} boards in the thread, waiting for {n}",
            d.boards(thread).len()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Anything posted twice would come now.
    tokio::time::sleep(Duration::from_millis(1500)).await;
}

/// The game's board entries, in order.
async fn board_entries(db: &Db, game: GameId) -> Vec<outbox::Entry> {
    outbox::for_game(db, game)
        .await
        .unwrap()
        .into_iter()
        .filter(|e| e.kind == "board")
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_between_commit_and_post_ends_with_the_board_posted_once() {
    let (d, _dir, url) = start().await.unwrap();
    let StartedGame { game, thread, .. } = d.start_game(ATOMIC).await.unwrap();
    assert_eq!(d.boards(thread).len(), 1);
    let alice = d.alice.id;
    // The bot goes down; a move is committed (with its outbox entry) and nothing posts it.
    let (fake, url2, make) = d.halt().await;
    assert_eq!(url, url2);
    let db = Db::connect(&url).await.unwrap();
    let services = make(db.clone());
    let services = services
        .clone()
        .with_effects(DiscordEffects::for_services(&services));
    services.play(game, alice.into(), "e4").await.unwrap();
    let pending = board_entries(&db, game).await;
    assert_eq!(pending.len(), 2);
    assert!(pending[1].delivered_at.is_none());
    db.close().await;
    assert_eq!(
        fake.messages_in(thread.get()).len(),
        1,
        "nothing posted while down"
    );
    // At start-up the deliverer posts what was left, once.
    let d = Driver::start_with(fake, &url, make).await.unwrap();
    wait_for_boards(&d, thread, 2).await;
    let boards = d.boards(thread);
    assert_eq!(boards.len(), 2, "{boards:?}");
    assert!(
        boards[1].content().contains("**1. e4** by alice"),
        "{:?}",
        boards[1]
    );
    let entries = board_entries(&d.db, game).await;
    assert_eq!(entries[1].message_id, Some(MessageId(boards[1].id)));
    // The old board lost its buttons; the new one has them.
    assert!(
        d.fake
            .message(boards[0].id)
            .unwrap()
            .custom_ids()
            .is_empty()
    );
    assert!(!boards[1].custom_ids().is_empty());
    assert!(d.fake.unknown_routes().is_empty());
    d.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_5xx_on_the_board_says_saved_and_the_board_follows() {
    let (d, _dir, _url) = start().await.unwrap();
    let StartedGame { game, thread, .. } = d.start_game(ATOMIC).await.unwrap();
    d.fake
        .fail_next("POST", &format!("/channels/{thread}/messages"), 500, 1);
    let r = d.play(&d.alice, thread, "e4").await.unwrap();
    let text = r.content().unwrap_or_default().to_string();
    assert!(text.contains("Played **e4** in game #"), "{text}");
    assert!(text.contains("saved"), "{text}");
    assert!(!text.contains("Sorry"), "{text}");
    wait_for_boards(&d, thread, 2).await;
    assert_eq!(d.boards(thread).len(), 2);
    let entries = board_entries(&d.db, game).await;
    assert_eq!(entries[1].attempts, 1);
    assert!(entries[1].delivered_at.is_some());
    // The game goes on: bob's move is answered with the board's link as usual.
    let r = d.play(&d.bob, thread, "e5").await.unwrap();
    assert!(
        r.content()
            .unwrap_or_default()
            .contains("https://discord.com/channels/"),
        "{r:?}"
    );
    assert_eq!(d.boards(thread).len(), 3);
    d.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retry_after_a_lost_answer_does_not_post_twice() {
    let (d, _dir, _url) = start().await.unwrap();
    let StartedGame { game, thread, .. } = d.start_game(ATOMIC).await.unwrap();
    // Discord makes the message, but the bot sees a 502.
    d.fake
        .fail_next_after("POST", &format!("/channels/{thread}/messages"), 502, 1);
    let r = d.play(&d.alice, thread, "e4").await.unwrap();
    assert!(r.content().unwrap_or_default().contains("saved"), "{r:?}");
    // The retry (same nonce, enforce_nonce) gets that message back.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while board_entries(&d.db, game).await[1].delivered_at.is_none() {
        assert!(tokio::time::Instant::now() < deadline, "never delivered");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let boards = d.boards(thread);
    assert_eq!(boards.len(), 2, "{boards:?}");
    let entries = board_entries(&d.db, game).await;
    assert_eq!(entries[1].attempts, 1);
    assert_eq!(entries[1].message_id, Some(MessageId(boards[1].id)));
    let posts = d
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == format!("/channels/{thread}/messages"))
        .count();
    assert_eq!(posts, 3, "opening board, the lost answer, the retry");
    d.stop().await;
}
