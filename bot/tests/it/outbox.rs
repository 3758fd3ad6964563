//! The Discord outbox: a change's posts survive a crash between the commit and
//! the post, a Discord 5xx tells the player the change is saved (never "failed") and the
//! board follows, and retries post nothing twice (Create Message `nonce` +
//! `enforce_nonce`).

use std::sync::Arc;
use std::time::Duration;

use kaboom_discord::outbox::DiscordEffects;
use kaboom_domain::ids::{ChannelId, GameId, MessageId};
use kaboom_service::Services;
use kaboom_service::painter::RendererPainter;
use kaboom_store::{Db, outbox};
use kaboom_testkit::clock::TestClock;
use kaboom_testkit::driver::{Driver, StartedGame};
use kaboom_testkit::fixture::{ATOMIC, T0, TestBot};

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

/// How many Create Message requests the bot sent to `thread` (answered or not).
fn posts_in(d: &Driver, thread: ChannelId) -> usize {
    d.fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path == format!("/channels/{thread}/messages"))
        .count()
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

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_crash_between_commit_and_post_ends_with_the_board_posted_once() {
        let TestBot { driver: d, database: dir, .. } = TestBot::start().await.unwrap();
        let url = dir.url().to_string();
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
        services.games().play(kaboom_service::PlayRequest::new(game, alice.into(), "e4")).await.unwrap();
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
        assert_eq!(boards[1].content(), "**Atomic** · alice (White) vs bob (Black) · game #1\n**1. e4** by alice\n<@1002> (Black) to move · deadline <t:1763959200:f> (<t:1763959200:R>)");
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
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_5xx_on_the_board_says_saved_and_the_board_follows() {
        let d = TestBot::start().await.unwrap();
        let StartedGame { game, thread, .. } = d.start_game(ATOMIC).await.unwrap();
        d.fake
            .fail_next("POST", &format!("/channels/{thread}/messages"), 500, 1);
        let r = d.play(&d.alice, thread, "e4").await.unwrap();
        let text = r.content().unwrap_or_default().to_string();
        assert_eq!(text, "Played **e4** in game #1. It is saved; the board will be posted in the game's thread shortly.");
        assert!(!text.contains("Sorry"), "{text}");
        wait_for_boards(&d, thread, 2).await;
        assert_eq!(d.boards(thread).len(), 2);
        let entries = board_entries(&d.db, game).await;
        assert_eq!(entries[1].attempts, 1);
        assert!(entries[1].delivered_at.is_some());
        // The game goes on: bob's move is answered as usual (in the thread, no link).
        let r = d.play(&d.bob, thread, "e5").await.unwrap();
        assert_eq!(r.content() .unwrap_or_default(), "Played **e5** in game #1.");
        assert_eq!(d.boards(thread).len(), 3);
        d.driver.stop().await;
    }
}

kaboom_testkit::dbtest! {
    /// Discord's 429 Too Many Requests on a board is waited out, not counted as a failed
    /// attempt: five in a row (Discord's global limit under a busy host, when the bot sends
    /// without serenity's rate limiter) delay the board about a second each, where the
    /// exponential backoff of failures took 1 + 2 + 4 + 8 + 16 s, and enough of them gave
    /// the board up for good.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_rate_limited_board_is_retried_without_counting_a_failure() {
        let d = TestBot::start().await.unwrap();
        let StartedGame { game, thread, .. } = d.start_game(ATOMIC).await.unwrap();
        d.fake
            .fail_next("POST", &format!("/channels/{thread}/messages"), 429, 5);
        let r = d.play(&d.alice, thread, "e4").await.unwrap();
        assert_eq!(r.content().unwrap_or_default(), "Played **e4** in game #1. It is saved; the board will be posted in the game's thread shortly.");
        // Within 20 s: five retries a second apart, not 31 s of backoff.
        wait_for_boards(&d, thread, 2).await;
        assert_eq!(d.boards(thread).len(), 2);
        let entries = board_entries(&d.db, game).await;
        assert_eq!(entries[1].attempts, 0, "a rate limit is not a failed attempt");
        assert!(entries[1].delivered_at.is_some());
        assert_eq!(entries[1].failed_at, None);
        let posts = posts_in(&d, thread);
        assert_eq!(posts, 7, "the opening board, five 429s, the board");
        d.driver.stop().await;
    }
}

kaboom_testkit::dbtest! {
    /// Discord's per-route limits, which it counts per route and per channel ("Rate
    /// Limits": per-route limits are scoped to the top-level resource, the channel),
    /// enforced on every route at 1 request a second (so that any two requests of a route
    /// within a second meet it, however slow the machine): six challenges accepted at once
    /// in one channel (a league round opening, a busy evening) have their threads started
    /// from that channel's messages and their challenge messages edited, past the limit,
    /// so some of those requests are answered 429. Every thread still opens exactly once,
    /// with exactly one opening board, no outbox entry counts a failed attempt, and a game
    /// in its own thread plays on meanwhile, its board posted at once: one channel's limit
    /// holds up only that channel.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_channel_past_its_per_route_limit_holds_up_only_its_own_posts() {
        let d = TestBot::start().await.unwrap();
        let StartedGame { thread: playing, .. } = d.start_game(ATOMIC).await.unwrap();
        let mut challenges = Vec::new();
        for _ in 0..6 {
            challenges.push(d.challenge(ATOMIC).await.unwrap());
        }
        d.fake
            .set_fault_plan(fake_discord::faults::FaultPlan {
                rate_limits: Some(fake_discord::faults::EnforcedRateLimits {
                    limit: 1,
                    window_ms: 1000,
                }),
                ..Default::default()
            })
            .unwrap();
        // Six clicks at once, then their answers.
        let mut clicks = Vec::new();
        for posted in &challenges {
            let accept = format!("kb:accept:{}", challenge_id(posted));
            clicks.push(d.fake.click_button(&d.bob, posted.message_id.unwrap(), &accept).unwrap());
        }
        // Each game's answer names its thread, or says it opens shortly when the thread
        // waits on the limit (the clicks run at once, so games #2 to #7 in any order).
        let later = |game| format!("Game on! Game #{game} is saved; its thread will open shortly.");
        for sent in &clicks {
            let said = d.answer(sent).await.unwrap().content().unwrap_or_default().to_string();
            let named = said.strip_prefix("Game on! See <#").and_then(|t| t.strip_suffix(">."));
            assert!(
                named.is_some_and(|t| t.parse::<u64>().is_ok()) || (2..=7).any(|g| said == later(g)),
                "{said}"
            );
        }
        let r = d.play(&d.alice, playing, "e4").await.unwrap();
        assert_eq!(r.content(), Some("Played **e4** in game #1."));
        assert_eq!(d.boards(playing).len(), 2);

        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        let opened = |d: &Driver| {
            let threads = d.fake.threads();
            threads.len() == 7 && threads.iter().all(|t| !d.boards(t.id).is_empty())
        };
        while !opened(&d) {
            assert!(tokio::time::Instant::now() < deadline, "threads: {:?}", d.fake.threads());
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // Anything posted twice would come now.
        tokio::time::sleep(Duration::from_millis(2500)).await;
        let threads = d.fake.threads();
        assert_eq!(threads.len(), 7);
        for thread in threads.iter().filter(|t| t.id != playing.get()) {
            assert_eq!(d.boards(thread.id).len(), 1, "thread {}", thread.id);
        }
        for game in 2..=7 {
            for entry in outbox::for_game(&d.db, GameId(game)).await.unwrap() {
                assert!(entry.delivered_at.is_some(), "{entry:?}");
                assert_eq!(entry.attempts, 0, "a rate limit is not a failed attempt: {entry:?}");
            }
        }
        let text = d.fake.text_channel_id();
        let refused = d
            .fake
            .injected_faults()
            .into_iter()
            .filter(|f| f.fault == "enforced_rate_limit")
            .collect::<Vec<_>>();
        assert!(
            refused.iter().any(|f| f.path.starts_with(&format!("/channels/{text}/"))),
            "the text channel's limit was met: {refused:?}"
        );
        d.driver.stop().await;
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_retry_after_a_lost_answer_does_not_post_twice() {
        let d = TestBot::start().await.unwrap();
        let StartedGame { game, thread, .. } = d.start_game(ATOMIC).await.unwrap();
        // Discord makes the message, but the bot sees a 502.
        d.fake
            .fail_next_after("POST", &format!("/channels/{thread}/messages"), 502, 1);
        let r = d.play(&d.alice, thread, "e4").await.unwrap();
        assert_eq!(r.content().unwrap_or_default(), "Played **e4** in game #1. It is saved; the board will be posted in the game's thread shortly.");
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
        let posts = posts_in(&d, thread);
        assert_eq!(posts, 3, "opening board, the lost answer, the retry");
        d.driver.stop().await;
    }
}

/// The challenge id in an Accept button's custom id (`kb:accept:<id>`).
fn challenge_id(posted: &fake_discord::InteractionResponse) -> i64 {
    posted
        .custom_ids()
        .into_iter()
        .find_map(|c| c.strip_prefix("kb:accept:").map(str::to_string))
        .expect("an Accept button")
        .parse()
        .unwrap()
}

/// Waits (at most 20 s) until game `game` has its thread recorded and its entries are all
/// posted; returns the thread.
async fn wait_for_thread(db: &Db, services: &Services, game: GameId) -> ChannelId {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let row = services.games().load(game).await.unwrap().row;
        let pending = outbox::for_game(db, game)
            .await
            .unwrap()
            .iter()
            .any(|e| e.delivered_at.is_none());
        if let (Some(thread), false) = (row.thread_id, pending) {
            // Anything posted twice would come now.
            tokio::time::sleep(Duration::from_millis(1500)).await;
            return thread;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no thread for #{game}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

kaboom_testkit::dbtest! {
    /// The game's thread is started from the challenge's message. Discord makes the
    /// thread but its answer is lost (a 500 after the work): the retry meets 160004 "A thread
    /// has already been created for this message" and takes that thread (same id as the
    /// message); there is one thread, with one opening board, and the challenge message links
    /// it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_lost_answer_on_thread_creation_ends_with_one_thread() {
        let d = TestBot::start().await.unwrap();
        let posted = d.challenge(ATOMIC).await.unwrap();
        let message = posted.message_id.unwrap();
        let text = d.fake.text_channel_id();
        d.fake.fail_next_after(
            "POST",
            &format!("/channels/{text}/messages/{message}/threads"),
            500,
            1,
        );
        let accept = format!("kb:accept:{}", challenge_id(&posted));
        let r = d.click(&d.bob, message, &accept).await.unwrap();
        let said = r.content().unwrap_or_default().to_string();
        assert_eq!(said, "Game on! Game #1 is saved; its thread will open shortly.");
        let services = Services::new(
            d.db.clone(),
            Arc::new(TestClock::new(T0)),
            Arc::new(RendererPainter),
        );
        let game = services
            .challenges().get(challenge_id(&posted))
            .await
            .unwrap()
            .game_id
            .expect("accepted");
        let thread = wait_for_thread(&d.db, &services, game).await;
        assert_eq!(thread.get(), message, "the thread shares the message's id");
        assert_eq!(d.fake.threads().len(), 1, "{:?}", d.fake.threads());
        assert_eq!(d.boards(thread).len(), 1);
        let tries = d
            .fake
            .requests()
            .into_iter()
            .filter(|r| r.method == "POST" && r.path.ends_with("/threads"))
            .count();
        assert_eq!(tries, 2, "the lost answer and the retry");
        let challenge = d.fake.message(message).unwrap();
        assert!(
            challenge
                .content()
                .contains(&format!("is played in <#{thread}>")),
            "{}",
            challenge.content()
        );
        assert!(challenge.custom_ids().is_empty(), "no buttons left");
        assert!(d.fake.unknown_routes().is_empty());
        d.driver.stop().await;
    }
}

kaboom_testkit::dbtest! {
    /// The bot crashes after Discord made the thread and before the thread was
    /// recorded (and before anything else was posted). At the restart the deliverer starts the
    /// thread again from the same message, meets 160004, takes the existing thread, and posts
    /// the challenge message's edit and the opening board once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_crash_between_thread_creation_and_recording_ends_with_one_thread() {
        let TestBot { driver: d, database: dir, .. } = TestBot::start().await.unwrap();
        let url = dir.url().to_string();
        let posted = d.challenge(ATOMIC).await.unwrap();
        let message = posted.message_id.unwrap();
        let id = challenge_id(&posted);
        let (bob, text) = (d.bob.id, d.fake.text_channel_id());
        let (fake, _, make) = d.halt().await;
        // Bob's acceptance is committed with its outbox entries, and the thread is made (by
        // the attempt that crashed), but nothing recorded it.
        let db = Db::connect(&url).await.unwrap();
        let services = make(db.clone());
        let services = services
            .clone()
            .with_effects(DiscordEffects::for_services(&services));
        let game = services
            .challenges().accept(id, bob.into(), "bob")
            .await
            .unwrap()
            .row
            .id;
        let (status, made) = fake
            .bot_request(
                reqwest::Method::POST,
                &format!("/channels/{text}/messages/{message}/threads"),
                Some(serde_json::json!({"name": "Atomic · alice vs bob", "auto_archive_duration": 10080})),
            )
            .await;
        assert_eq!(status, 201, "{made}");
        db.close().await;
        let d = Driver::start_with(fake, &url, make).await.unwrap();
        let services = Services::new(
            d.db.clone(),
            Arc::new(TestClock::new(T0)),
            Arc::new(RendererPainter),
        );
        let thread = wait_for_thread(&d.db, &services, game).await;
        assert_eq!(thread.get(), message);
        assert_eq!(d.fake.threads().len(), 1, "{:?}", d.fake.threads());
        assert_eq!(d.boards(thread).len(), 1);
        let challenge = d.fake.message(message).unwrap();
        assert!(
            challenge
                .content()
                .contains(&format!("is played in <#{thread}>")),
            "{}",
            challenge.content()
        );
        // The message says it carries the thread, as Discord's message object does.
        let (_, got) = d
            .fake
            .bot_request(
                reqwest::Method::GET,
                &format!("/channels/{text}/messages/{message}"),
                None,
            )
            .await;
        assert_eq!(got["thread"]["id"], serde_json::json!(message.to_string()));
        assert_eq!(got["flags"].as_u64().unwrap() & (1 << 5), 1 << 5);
        d.stop().await;
    }
}

kaboom_testkit::dbtest! {
    /// Declining and cancelling a challenge are committed with the challenge
    /// message's edit in the outbox; the message says who closed it and loses its buttons once
    /// the outbox has delivered it (normally before the player is answered; on a loaded
    /// machine the answer may come first, after waiting [`kaboom_discord::outbox::SETTLE`]).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn declining_and_cancelling_edit_the_challenge_message_through_the_outbox() {
        let d = TestBot::start().await.unwrap();
        for (user, action, said, line) in [
            (
                &d.bob,
                "decline",
                "Challenge declined.",
                "Declined by <@1002>.",
            ),
            (
                &d.alice,
                "cancel",
                "Challenge cancelled.",
                "Cancelled by <@1001>.",
            ),
        ] {
            let posted = d.challenge(ATOMIC).await.unwrap();
            let message = posted.message_id.unwrap();
            let id = challenge_id(&posted);
            let r = d
                .click(user, message, &format!("kb:{action}:{id}"))
                .await
                .unwrap();
            assert_eq!(r.content(), Some(said), "{r:?}");
            d.outbox_delivered().await.unwrap();
            let edited = d.fake.message(message).unwrap();
            assert!(edited.content().ends_with(line), "{}", edited.content());
            assert!(edited.custom_ids().is_empty());
            let entries = outbox::for_challenge(&d.db, id).await.unwrap();
            assert_eq!(entries.len(), 1, "{entries:?}");
            assert_eq!(entries[0].message_id, Some(MessageId(message)));
        }
        d.driver.stop().await;
    }
}
