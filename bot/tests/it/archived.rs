//! A game thread stays usable for the game's whole life. Discord archives a
//! thread after its auto-archive duration (at most 7 days) without activity, and players
//! cannot use application commands in an archived thread
//! (<https://discord.com/developers/docs/topics/threads#active-archived-threads>), while a
//! game may allow 14 days per move. The nudge reopens the thread and names `/move game:`,
//! and every post reopens it too.

use std::sync::Arc;
use std::time::Duration;

use fake_discord::{CommandOption, FakeError};
use kaboom_service::Services;
use kaboom_service::scheduler::SchedulerConfig;
use kaboom_testkit::clock::TestClock;
use kaboom_testkit::driver::Driver;
use kaboom_testkit::fixture::{ATOMIC, TestBot};
use kaboom_testkit::painter::PlainPainter;

const DAY: i64 = 86_400;
const WHITE: i64 = 0;
/// The choice index of "14 days" in the `days_per_move` option.
const FOURTEEN_DAYS: i64 = 6;

fn archived(d: &Driver, thread: u64) -> bool {
    d.fake.channel(thread).unwrap().json["thread_metadata"]["archived"] == serde_json::json!(true)
}

/// Moves both clocks: the bot's (deadlines, nudges) and the fake Discord's (auto-archive).
fn advance(d: &Driver, clock: &TestClock, secs: i64) {
    clock.advance(secs);
    d.fake
        .advance(Duration::from_secs(u64::try_from(secs).unwrap()));
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_fourteen_day_game_survives_its_thread_being_archived() {
        let d = TestBot::start_with(|db, clock| Services::new(db, clock, Arc::new(PlainPainter)))
            .await
            .unwrap();
        let clock = d.clock.clone();
        let text = d.fake.text_channel_id();
        let posted = d
            .cmd(
                &d.alice,
                text,
                "challenge",
                vec![
                    CommandOption::integer("variant", ATOMIC),
                    CommandOption::user("opponent", &d.bob),
                    CommandOption::integer("color", WHITE),
                    CommandOption::integer("days_per_move", FOURTEEN_DAYS),
                ],
            )
            .await
            .unwrap();
        let started = d.accept(&posted).await.unwrap();
        let (game, thread) = (started.game, started.thread.get());
        assert_eq!(d.boards(thread).len(), 1);
        let scheduler = d.scheduler(clock.clone(), SchedulerConfig::default());
        scheduler.sweep().await.unwrap();

        // Seven idle days: Discord archives the thread, and no command can be used in it.
        advance(&d, &clock, 7 * DAY - 60);
        assert!(!archived(&d, thread));
        advance(&d, &clock, 60);
        assert!(archived(&d, thread), "archived after 7 idle days");
        let refused = d.fake.slash_command(
            &d.alice,
            thread,
            "move",
            vec![CommandOption::string("action", "e4")],
        );
        assert!(
            matches!(refused, Err(FakeError::ThreadArchived(t)) if t == thread),
            "{refused:?}"
        );

        // Half of alice's 14 days: the nudge reopens the thread and names the fallback.
        let r = scheduler.sweep().await.unwrap();
        assert_eq!(r.nudged, vec![(game, "share:50".to_string())]);
        d.outbox_delivered().await.unwrap();
        assert!(!archived(&d, thread), "the nudge reopened the thread");
        let dms = d.fake.messages_in(d.fake.dm_channel_for(d.alice.id));
        assert_eq!(dms.len(), 1, "{dms:?}");
        let nudge = dms[0].content();
        assert!(
            nudge.contains("50%")
                && nudge.contains(&format!("/{thread}"))
                && nudge.contains(&format!("`/move game:{game} action:...`")),
            "{nudge}"
        );

        // Day 8: alice moves in the thread.
        advance(&d, &clock, DAY);
        let r = d.play(&d.alice, thread, "e4").await.unwrap();
        assert!(
            r.content().unwrap_or_default().starts_with("Played **e4**"),
            "{r:?}"
        );
        assert_eq!(d.boards(thread).len(), 2);

        // Another 7 idle days archive it again; on day 15 (his day 7) bob moves with
        // `/move game:` from the server's text channel, and his board is posted in the thread,
        // which the post reopens.
        advance(&d, &clock, 7 * DAY);
        assert!(archived(&d, thread));
        let r = d
            .cmd(
                &d.bob,
                text,
                "move",
                vec![
                    CommandOption::string("action", "e5"),
                    CommandOption::string("game", game.to_string()),
                ],
            )
            .await
            .unwrap();
        assert!(
            r.content().unwrap_or_default().starts_with("Played **e5**"),
            "{r:?}"
        );
        assert!(!archived(&d, thread));
        // The post itself reopened it: the only Modify Channel was the nudge's, and no
        // Get Channel came before a post.
        let requests = d.fake.requests();
        let on_thread = |method: &str| {
            requests
                .iter()
                .filter(|r| r.method == method && r.path == format!("/channels/{thread}"))
                .count()
        };
        assert_eq!((on_thread("PATCH"), on_thread("GET")), (1, 1));
        // Each board exactly once: the opening one, e4, e5.
        tokio::time::sleep(Duration::from_millis(1000)).await;
        let boards = d.boards(thread);
        assert_eq!(boards.len(), 3, "{boards:?}");
        assert_eq!(boards[2].content(), "**Atomic** · alice (White) vs bob (Black) · game #1\n1. e4 **1... e5** by bob\n<@1001> (White) to move · deadline <t:1766205600:f> (<t:1766205600:R>)");
        assert!(d.fake.unknown_routes().is_empty());
        d.driver.stop().await;
    }
}
