//! The scheduler against a real SQLite database, with a controlled clock
//! (`TestClock`) and a recording notice planner: nudges, time forfeits, expiries, downtime
//! catch-up, settings, and the notices written into the Discord outbox by the deciding
//! transaction. Their delivery (DM refused -> thread mention, exactly once
//! across a crash) is in `scheduler_discord.rs`.

use std::sync::Arc;

use kaboom_domain::ids::{ChannelId, GameId, GuildId, MessageId, UserId};
use kaboom_rules::{Color, GameOptions, Variant};
use kaboom_service::scheduler::{Notice, Scheduler, SchedulerConfig};
use kaboom_service::{Refusal, ServiceError, Services};
use kaboom_store::challenges::{ChallengeState, ColorChoice, NewChallenge};
use kaboom_store::games::{self, GameState, NewGame, StateUpdate};
use kaboom_store::settings::{self, GuildSettings, NudgeVia, UserSettings};
use kaboom_store::{Db, schedule};
use kaboom_testkit::clock::TestClock;
use kaboom_testkit::notifier::RecordingNotifier;
use kaboom_testkit::painter::PlainPainter;

const ALICE: UserId = UserId(1001);
const BOB: UserId = UserId(1002);
const GUILD: GuildId = GuildId(1);
const T0: i64 = 1_700_000_000;
const HOUR: i64 = 3600;
const DAY: i64 = 86_400;

struct World {
    services: Services,
    clock: Arc<TestClock>,
    notifier: Arc<RecordingNotifier>,
    scheduler: Scheduler,
    _dir: kaboom_testkit::TempDb,
}

async fn world() -> World {
    let dir = kaboom_testkit::TempDb::new().await;
    let url = dir.url().to_string();
    let db = Db::connect(&url).await.unwrap();
    let clock = Arc::new(TestClock::new(T0));
    let notifier = Arc::new(RecordingNotifier::default());
    let scheduler = kaboom_testkit::default_scheduler(db.clone(), clock.clone(), notifier.clone());
    World {
        services: Services::new(db, clock.clone(), Arc::new(PlainPainter)),
        clock,
        notifier,
        scheduler,
        _dir: dir,
    }
}

fn challenge(variant: Variant, days: Option<u32>) -> NewChallenge {
    NewChallenge {
        guild_id: Some(GUILD),
        channel_id: ChannelId(10),
        challenger_id: ALICE,
        challenger_name: "alice".into(),
        opponent_id: Some(BOB),
        variant,
        options: GameOptions::default(),
        days_per_move: days,
        color: ColorChoice::White,
        rated: true,
        venue: kaboom_store::challenges::Venue::Thread,
    }
}

/// A game with alice as White, accepted by bob now.
async fn game(w: &World, variant: Variant, days: Option<u32>) -> GameId {
    let c = w
        .services
        .challenges()
        .create(challenge(variant, days))
        .await
        .unwrap();
    w.services
        .challenges()
        .accept(c.id, BOB, "bob")
        .await
        .unwrap()
        .row
        .id
}

fn nudges(sent: &[Notice]) -> Vec<(GameId, UserId)> {
    sent.iter()
        .filter_map(|n| match n {
            Notice::Nudge {
                game_id, user_id, ..
            } => Some((*game_id, *user_id)),
            _ => None,
        })
        .collect()
}

kaboom_testkit::dbtest! {
    #[tokio::test]
    async fn nudges_at_50_and_80_percent_once_each() {
        let w = world().await;
        let id = game(&w, Variant::Atomic, Some(3)).await;
        w.scheduler.sweep().await.unwrap();
        assert!(w.notifier.sent().is_empty(), "nothing is due at the start");
        w.clock.advance(36 * HOUR - 1);
        w.scheduler.sweep().await.unwrap();
        assert!(w.notifier.sent().is_empty(), "49.99% used: no nudge yet");
        w.clock.advance(1);
        let r = w.scheduler.sweep().await.unwrap();
        assert_eq!(r.nudged, vec![(id, "share:50".to_string())]);
        let sent = w.notifier.sent();
        assert_eq!(nudges(&sent), vec![(id, ALICE)]);
        let Notice::Nudge { text, via, .. } = &sent[0] else {
            unreachable!()
        };
        assert_eq!(*via, NudgeVia::Dm);
        assert!(
            text.contains("50%") && text.contains(&format!("<t:{}:R>", T0 + 3 * DAY)),
            "{text}"
        );
        // Sweeping again, also much later within the same threshold, sends nothing more.
        w.scheduler.sweep().await.unwrap();
        w.clock.advance(20 * HOUR);
        w.scheduler.sweep().await.unwrap();
        assert_eq!(w.notifier.sent().len(), 1);
        // 80% of 72 hours = 57.6 hours.
        w.clock.advance(2 * HOUR);
        w.scheduler.sweep().await.unwrap();
        w.scheduler.sweep().await.unwrap();
        let sent = w.notifier.sent();
        assert_eq!(nudges(&sent), vec![(id, ALICE), (id, ALICE)]);
        assert!(matches!(&sent[1], Notice::Nudge { text, .. } if text.contains("80%")));
        assert_eq!(
            schedule::nudges(w.services.db(), id).await.unwrap(),
            vec![(0, "share:50".to_string()), (0, "share:80".to_string())]
        );
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test]
    async fn no_nudge_after_the_player_moved() {
        let w = world().await;
        let id = game(&w, Variant::Atomic, Some(3)).await;
        w.scheduler.sweep().await.unwrap();
        w.clock.advance(30 * HOUR);
        w.services.games().play(kaboom_service::PlayRequest::new(id, ALICE, "e4")).await.unwrap();
        // Alice's 50% would have been at 36 hours; she moved, so nobody is nudged then.
        w.clock.advance(6 * HOUR);
        w.scheduler.sweep().await.unwrap();
        assert!(w.notifier.sent().is_empty(), "{:?}", w.notifier.sent());
        // Bob's turn began at 30 hours: his 50% is at 66 hours.
        w.clock.advance(30 * HOUR - 1);
        w.scheduler.sweep().await.unwrap();
        assert!(w.notifier.sent().is_empty());
        w.clock.advance(1);
        let r = w.scheduler.sweep().await.unwrap();
        assert_eq!(r.nudged, vec![(id, "share:50".to_string())]);
        assert_eq!(nudges(&w.notifier.sent()), vec![(id, BOB)]);
        assert_eq!(
            schedule::nudges(w.services.db(), id).await.unwrap(),
            vec![(1, "share:50".to_string())],
            "keyed by the ply"
        );
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test]
    async fn forfeit_at_the_deadline_opponent_wins() {
        let w = world().await;
        let id = game(&w, Variant::Atomic, Some(1)).await;
        w.services.games().play(kaboom_service::PlayRequest::new(id, ALICE, "e4")).await.unwrap();
        // Alice's draw offer stands when Bob's time runs out: it goes with the game.
        w.services.games().offer_draw(id, ALICE).await.unwrap();
        assert!(w.services.games().draw_offer(id).await.unwrap().is_some());
        w.scheduler.sweep().await.unwrap();
        w.clock.advance(DAY - 1);
        let r = w.scheduler.sweep().await.unwrap();
        assert!(r.forfeited.is_empty());
        w.notifier.clear();
        w.clock.advance(1);
        let r = w.scheduler.sweep().await.unwrap();
        assert_eq!(r.forfeited, vec![id]);
        let snap = w.services.games().load(id).await.unwrap();
        assert_eq!(snap.row.state, GameState::Finished);
        // Bob (Black) was to move: White wins on time.
        assert_eq!(snap.row.result.as_deref(), Some("1-0"));
        assert_eq!(snap.row.reason.as_deref(), Some("time-forfeit"));
        assert_eq!(snap.row.deadline_at, None);
        assert_eq!(w.services.games().draw_offer(id).await.unwrap(), None);
        let sent = w.notifier.sent();
        assert_eq!(sent.len(), 1, "{sent:?}");
        let Notice::GameEnded { text, .. } = &sent[0] else {
            panic!("expected the announcement, got {sent:?}")
        };
        assert!(text.contains("alice (White) wins on time"), "{text}");
        // Applied once: later sweeps do nothing, and a move is refused.
        w.clock.advance(DAY);
        let r = w.scheduler.sweep().await.unwrap();
        assert_eq!((r.examined, w.notifier.sent().len()), (0, 1));
        assert!(matches!(
            w.services.games().play(kaboom_service::PlayRequest::new(id, BOB, "e5")).await,
            Err(ServiceError::Refused(_))
        ));
    }
}

kaboom_testkit::dbtest! {
    /// A move that arrives after the deadline, before any sweep has seen it, must not reset
    /// the clock: it is refused, and the sweep still forfeits the game.
    #[tokio::test]
    async fn a_move_after_the_deadline_is_refused_before_the_sweep() {
        let w = world().await;
        let id = game(&w, Variant::Atomic, Some(1)).await;
        w.clock.advance(DAY);
        for (user, text) in [(ALICE, "e4"), (BOB, "e5")] {
            let late = w.services.games().play(kaboom_service::PlayRequest::new(id, user, text)).await;
            assert!(
                matches!(&late, Err(ServiceError::Refused(Refusal::TimeUp { game, to_move: Color::White, name, deadline }))
                    if *game == id && name == "alice" && *deadline == T0 + DAY),
                "{late:?}"
            );
            // What the player reads.
            let text = kaboom_discord::messages::service_error(&late.unwrap_err());
            assert!(
                text.contains("Time is up")
                    && text.contains("alice (White)")
                    && text.contains(&format!("<t:{}:f>", T0 + DAY)),
                "{text}"
            );
        }
        // Nor can a draw offer or a resignation turn the lost game into something else.
        for refused in [
            w.services.games().offer_draw(id, ALICE).await.map(|_| ()),
            w.services.games().resign(id, BOB).await.map(|_| ()),
        ] {
            assert!(
                matches!(&refused, Err(ServiceError::Refused(Refusal::TimeUp { .. }))),
                "{refused:?}"
            );
        }
        let row = w.services.games().load(id).await.unwrap().row;
        assert_eq!((row.ply, row.state), (0, GameState::Active));
        assert_eq!(w.scheduler.sweep().await.unwrap().forfeited, vec![id]);
        let row = w.services.games().load(id).await.unwrap().row;
        assert_eq!(
            (row.result.as_deref(), row.reason.as_deref()),
            (Some("0-1"), Some("time-forfeit"))
        );
    }
}

kaboom_testkit::dbtest! {
    /// Accepting a challenge whose time ran out, and choosing carriers after the designation
    /// timeout, are refused even before a sweep expired or aborted them.
    #[tokio::test]
    async fn late_acceptance_and_late_carrier_choice_are_refused() {
        let w = world().await;
        let open = w
            .services
            .challenges().create(challenge(Variant::Atomic, Some(3)))
            .await
            .unwrap();
        let id = game(&w, Variant::Nuke, Some(3)).await;
        let menu = w.services.games().carrier_menu(id, BOB).await.unwrap();
        w.clock.advance(7 * DAY);
        let late = w.services.challenges().accept(open.id, BOB, "bob").await;
        assert!(
            matches!(&late, Err(ServiceError::Refused(Refusal::ChallengeExpired { at }))
                if *at == T0 + 7 * DAY),
            "{late:?}"
        );
        let late = w
            .services
            .games().designate(id, BOB, &[menu.options[0].0.to_string()])
            .await;
        assert!(
            matches!(&late, Err(ServiceError::Refused(Refusal::DesignationTimeUp { deadline, .. }))
                if *deadline == T0 + 48 * HOUR),
            "{late:?}"
        );
        let r = w.scheduler.sweep().await.unwrap();
        assert_eq!((r.expired, r.aborted), (vec![open.id], vec![id]));
    }
}

kaboom_testkit::dbtest! {
    /// [`Scheduler::run`] sweeps at once when the services wake it (a late move), although its
    /// interval is an hour, and stops when told to or when its stop sender is dropped.
    #[tokio::test]
    async fn running_scheduler_is_woken_by_a_late_move_and_stops() {
        use std::time::Duration;
        let w = world().await;
        let id = game(&w, Variant::Atomic, Some(2)).await;
        let config = SchedulerConfig {
            interval: Duration::from_secs(3600),
            ..SchedulerConfig::default()
        };
        let running = Scheduler::new(
            w.services.db().clone(),
            w.clock.clone(),
            w.notifier.clone(),
            config.clone(),
            kaboom_discord::messages::scheduler_wording(),
        )
        .with_waker(w.services.scheduler_waker().clone());
        // Half of Alice's time is used: the first sweep nudges her, which shows it has run.
        w.clock.advance(DAY);
        let (stop, handle) = running.spawn();
        let until = |what: &'static str, done: Box<dyn Fn() -> bool + Send>| async move {
            tokio::time::timeout(Duration::from_secs(20), async {
                while !done() {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
            })
            .await
            .unwrap_or_else(|_| panic!("timed out waiting for {what}"));
        };
        let n = w.notifier.clone();
        until(
            "the first sweep's nudge",
            Box::new(move || !n.sent().is_empty()),
        )
        .await;
        w.clock.advance(DAY);
        assert!(w.services.games().play(kaboom_service::PlayRequest::new(id, ALICE, "e4")).await.is_err());
        let n = w.notifier.clone();
        until(
            "the forfeit of the woken sweep",
            Box::new(move || {
                n.sent()
                    .iter()
                    .any(|notice| matches!(notice, Notice::GameEnded { game_id, .. } if *game_id == id))
            }),
        )
        .await;
        stop.send(true).unwrap();
        tokio::time::timeout(Duration::from_secs(20), handle)
            .await
            .expect("stops when told")
            .unwrap();
        // A scheduler whose stop sender is gone stops too (it used to sweep in a busy loop).
        let orphan = Scheduler::new(
            w.services.db().clone(),
            w.clock.clone(),
            w.notifier.clone(),
            config,
            kaboom_discord::messages::scheduler_wording(),
        );
        let (stop, handle) = orphan.spawn();
        drop(stop);
        tokio::time::timeout(Duration::from_secs(20), handle)
            .await
            .expect("stops when its stop sender is dropped")
            .unwrap();
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test]
    async fn a_move_racing_the_forfeit_cannot_also_apply() {
        let w = world().await;
        let id = game(&w, Variant::Atomic, Some(1)).await;
        // The move's service loaded the game at ply 0 ...
        let loaded = w.services.games().load(id).await.unwrap();
        // ... then the deadline passes and the sweep commits the forfeit first.
        w.clock.advance(DAY);
        assert_eq!(w.scheduler.sweep().await.unwrap().forfeited, vec![id]);
        // The move's expected-ply update now changes nothing (trigger games_finished_is_final).
        let mut tx = w.services.db().begin_write().await.unwrap();
        let update = StateUpdate {
            expected_ply: loaded.row.ply,
            action: Some(("e4".into(), ALICE)),
            state_fen: loaded.row.state_fen.clone(),
            start_fen: loaded.row.start_fen.clone(),
            state: GameState::Active,
            declared: None,
            result: None,
            deadline_at: Some(T0 + 5 * DAY),
        };
        assert!(
            games::update_state(&mut tx, id, &update, T0)
                .await
                .unwrap()
                .is_none()
        );
        tx.commit().await.unwrap();
        let after = w.services.games().load(id).await.unwrap();
        assert_eq!(
            (after.row.ply, after.row.result.as_deref()),
            (0, Some("0-1"))
        );
    }
}

kaboom_testkit::dbtest! {
    /// The batched ending write keeps the one-by-one guarantees: nothing is written for a game
    /// that moved on from its expected ply, and a finished game is final.
    #[tokio::test]
    async fn batched_endings_respect_the_expected_ply_and_finished_games() {
        use kaboom_rules::{EndReason, Outcome};
        let w = world().await;
        let moved = game(&w, Variant::Atomic, Some(1)).await;
        let still = game(&w, Variant::Atomic, Some(1)).await;
        w.services.games().play(kaboom_service::PlayRequest::new(moved, ALICE, "e4")).await.unwrap();
        let ending = |id: GameId, ply: i64| schedule::Ending {
            game_id: id,
            expected_ply: ply,
            state_fen: "the final state".into(),
            outcome: Outcome::draw(EndReason::TimeForfeit),
        };
        let mut tx = w.services.db().begin_write().await.unwrap();
        let written = schedule::finish_many(&mut tx, &[ending(moved, 0), ending(still, 0)], T0)
            .await
            .unwrap();
        assert_eq!(written.into_iter().collect::<Vec<_>>(), vec![still]);
        let again = schedule::finish_many(&mut tx, &[ending(still, 0)], T0)
            .await
            .unwrap();
        assert!(again.is_empty(), "a finished game is final");
        tx.commit().await.unwrap();
        let row = w.services.games().load(still).await.unwrap().row;
        assert_eq!(
            (
                row.state,
                row.result.as_deref(),
                row.reason.as_deref(),
                row.deadline_at
            ),
            (
                GameState::Finished,
                Some("1/2-1/2"),
                Some("time-forfeit"),
                None
            )
        );
        assert_eq!(row.state_fen, "the final state");
        let row = w.services.games().load(moved).await;
        assert!(row.is_ok_and(|s| s.row.state == GameState::Active && s.row.ply == 1));
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test]
    async fn forfeit_is_a_draw_when_the_opponent_cannot_win() {
        let w = world().await;
        // White (to move) has king and queen; Black only a king, who cannot explode anything
        // (AT-5): White's time forfeit is a draw.
        let mut tx = w.services.db().begin_write().await.unwrap();
        let new = NewGame {
            challenge_id: None,
            guild_id: Some(GUILD),
            channel_id: ChannelId(10),
            white: (ALICE, "alice".into()),
            black: (BOB, "bob".into()),
            variant: Variant::Atomic,
            options: GameOptions::default(),
            start_fen: "4k3/8/8/8/8/8/8/3QK3 w - - 0 1".into(),
            state: GameState::Active,
            days_per_move: Some(2),
            deadline_at: Some(T0 + 2 * DAY),
            rated: false,
            venue: kaboom_store::challenges::Venue::Thread,
        };
        let id = games::insert(&mut tx, &new, T0).await.unwrap();
        tx.commit().await.unwrap();
        w.clock.advance(2 * DAY);
        assert_eq!(w.scheduler.sweep().await.unwrap().forfeited, vec![id]);
        let row = w.services.games().load(id).await.unwrap().row;
        assert_eq!(row.result.as_deref(), Some("1/2-1/2"));
        assert_eq!(row.reason.as_deref(), Some("time-forfeit"));
        let sent = w.notifier.sent();
        assert!(
            matches!(&sent[0], Notice::GameEnded { text, .. } if text.contains("no way to win") && text.contains("drawn")),
            "{sent:?}"
        );
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test]
    async fn open_challenges_expire_after_seven_days() {
        let w = world().await;
        let c = w
            .services
            .challenges().create(challenge(Variant::Atomic, Some(3)))
            .await
            .unwrap();
        w.services
            .challenges().set_message(c.id, MessageId(555))
            .await
            .unwrap();
        let taken = w
            .services
            .challenges().create(challenge(Variant::Atomic, Some(3)))
            .await
            .unwrap();
        w.services
            .challenges().accept(taken.id, BOB, "bob")
            .await
            .unwrap();
        w.clock.advance(7 * DAY - 1);
        assert!(w.scheduler.sweep().await.unwrap().expired.is_empty());
        w.clock.advance(1);
        let r = w.scheduler.sweep().await.unwrap();
        assert_eq!(r.expired, vec![c.id], "only the open one");
        let sent = w.notifier.sent();
        let expiries: Vec<_> = sent
            .iter()
            .filter(|n| matches!(n, Notice::ChallengeExpired { .. }))
            .collect();
        assert_eq!(expiries.len(), 1);
        assert!(matches!(expiries[0],
            Notice::ChallengeExpired { message_id: Some(MessageId(555)), text, .. } if text.contains("7 days")));
        let refusal = w.services.challenges().accept(c.id, BOB, "bob").await;
        assert!(
            matches!(
                &refusal,
                Err(ServiceError::Refused(Refusal::ChallengeNotOpen {
                    was: Some(ChallengeState::Expired)
                }))
            ),
            "{refusal:?}"
        );
        assert!(w.scheduler.sweep().await.unwrap().expired.is_empty());
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test]
    async fn incomplete_designation_is_aborted_after_48_hours() {
        let w = world().await;
        let id = game(&w, Variant::Beirut, Some(3)).await;
        assert_eq!(
            w.services.games().load(id).await.unwrap().row.state,
            GameState::Setup
        );
        // Alice chooses; Bob does not.
        let menu = w.services.games().carrier_menu(id, ALICE).await.unwrap();
        w.services
            .games().designate(id, ALICE, &[menu.options[1].0.to_string()])
            .await
            .unwrap();
        w.scheduler.sweep().await.unwrap();
        w.clock.advance(48 * HOUR - 1);
        assert!(w.scheduler.sweep().await.unwrap().aborted.is_empty());
        assert!(
            w.notifier.sent().is_empty(),
            "no nudge or forfeit during setup"
        );
        w.clock.advance(1);
        assert_eq!(w.scheduler.sweep().await.unwrap().aborted, vec![id]);
        let row = w.services.games().load(id).await.unwrap().row;
        assert_eq!(row.state, GameState::Finished);
        assert_eq!(
            (row.result.as_deref(), row.reason.as_deref()),
            (Some("*"), Some("aborted"))
        );
        let sent = w.notifier.sent();
        assert_eq!(sent.len(), 1);
        let Notice::GameEnded { text, .. } = &sent[0] else {
            panic!("{sent:?}")
        };
        assert!(!text.contains("alice (white)"));
        assert_eq!(text, "Game #1 is aborted: the carriers were not chosen within 48 hours (still waiting for bob (Black)). No result is recorded; challenge again any time. <@1001> <@1002>\nWhite's carrier: the knight from b1, never moved\n(**Verify fairness** shows how to check them against the sealed choice.)");
    }
}

kaboom_testkit::dbtest! {
    /// A Beirut game that ends on time names each carrier by piece, where it started and
    /// where it went, as a game that ends on the board does (noticed at stop 26: the sweep
    /// named start squares only).
    #[tokio::test]
    async fn a_beirut_time_forfeit_tells_where_each_carrier_went() {
        let w = world().await;
        let id = game(&w, Variant::Beirut, Some(1)).await;
        w.services
            .games().designate(id, ALICE, &["g1".into()])
            .await
            .unwrap();
        w.services.games().designate(id, BOB, &["b8".into()]).await.unwrap();
        w.services.games().play(kaboom_service::PlayRequest::new(id, ALICE, "Nf3")).await.unwrap();
        w.services.games().play(kaboom_service::PlayRequest::new(id, BOB, "e5")).await.unwrap();
        w.services.games().play(kaboom_service::PlayRequest::new(id, ALICE, "e3")).await.unwrap();
        w.clock.advance(2 * DAY);
        assert_eq!(w.scheduler.sweep().await.unwrap().forfeited, vec![id]);
        let sent = w.notifier.sent();
        let text = sent
            .iter()
            .find_map(|n| match n {
                Notice::GameEnded { text, .. } => Some(text.clone()),
                _ => None,
            })
            .expect("the time forfeit's announcement");
        assert!(text.contains("wins on time"), "{text}");
        assert_eq!(text, "Time is up in game #1: bob (Black) did not move by the deadline. alice (White) wins on time, 1-0. <@1001> <@1002>\nWhite's carrier: the knight from g1, now on f3\nBlack's carrier: the knight from b8, never moved\n(**Verify fairness** shows how to check them against the sealed choice.)\nRatings (Beirut): alice 1741? (+241) · bob 1258? (-242)");
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test]
    async fn downtime_catch_up_sends_one_message_per_game() {
        let w = world().await;
        let fast = game(&w, Variant::Atomic, Some(1)).await; // deadline passes in the downtime
        let slow = game(&w, Variant::Atomic, Some(5)).await; // 80% passed in the downtime
        let untimed = game(&w, Variant::Atomic, None).await; // first idle reminder (after 48 hours) passed
        let setup = game(&w, Variant::Nuke, Some(3)).await; // designation timed out
        let calm = game(&w, Variant::Atomic, Some(14)).await; // 34% used: nothing due
        // The bot was down for 4.5 days: no sweep at all since the games were created.
        w.clock.advance(4 * DAY + 12 * HOUR);
        let r = w.scheduler.sweep().await.unwrap();
        assert_eq!(r.forfeited, vec![fast]);
        assert_eq!(r.aborted, vec![setup]);
        let mut nudged = r.nudged.clone();
        nudged.sort();
        assert_eq!(
            nudged,
            vec![
                (slow, "share:80".to_string()),
                (untimed, "idle:1".to_string())
            ]
        );
        let sent = w.notifier.sent();
        let mut subjects: Vec<i64> = sent.iter().map(Notice::subject).collect();
        subjects.sort();
        assert_eq!(
            subjects,
            vec![fast.get(), slow.get(), untimed.get(), setup.get()],
            "one message per due game"
        );
        assert!(!subjects.contains(&calm.get()));
        // A restart (a new scheduler over the same database) sends nothing more.
        let again = kaboom_testkit::default_scheduler(
            w.services.db().clone(),
            w.clock.clone(),
            w.notifier.clone(),
        );
        again.sweep().await.unwrap();
        w.scheduler.sweep().await.unwrap();
        assert_eq!(w.notifier.sent().len(), 4, "{:#?}", w.notifier.sent());
        // The untimed game's second reminder comes 7 days after the first was due (day 9);
        // meanwhile the 5-day game runs out of time and the 14-day game reaches 50%.
        w.clock.advance(4 * DAY + 12 * HOUR - 1);
        let r = again.sweep().await.unwrap();
        assert_eq!(r.forfeited, vec![slow]);
        assert_eq!(r.nudged, vec![(calm, "share:50".to_string())]);
        w.clock.advance(1);
        assert_eq!(
            again.sweep().await.unwrap().nudged,
            vec![(untimed, "idle:2".to_string())]
        );
        assert_eq!(w.notifier.sent().len(), 7);
    }
}

kaboom_testkit::dbtest! {
    /// A nudge names the game's thread and says how to move from anywhere (the thread may be
    /// archived by the time the player reads it).
    #[tokio::test]
    async fn a_nudge_links_the_thread_and_names_move_game_as_the_fallback() {
        let w = world().await;
        let id = game(&w, Variant::Atomic, Some(2)).await;
        w.services.games().set_thread(id, ChannelId(777)).await.unwrap();
        w.clock.advance(DAY);
        w.scheduler.sweep().await.unwrap();
        let sent = w.notifier.sent();
        assert_eq!(sent.len(), 1);
        assert!(
            matches!(
                &sent[0],
                Notice::Nudge { channel_id: ChannelId(777), via: NudgeVia::Dm, ply: 0, text, .. }
                    if text.contains(&format!("https://discord.com/channels/{GUILD}/777"))
                        && text.contains(&format!("`/move game:{id} action:...`"))
            ),
            "{sent:?}"
        );
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test]
    async fn player_and_server_settings_are_followed() {
        let w = world().await;
        let db = w.services.db();
        settings::put_guild(
            db,
            GUILD,
            &GuildSettings {
                nudge_shares: vec![25],
                idle_first_secs: DAY,
                idle_repeat_secs: 2 * DAY,
                league_organisers: None,
                limits: Default::default(),
            },
            T0,
        )
        .await
        .unwrap();
        let quiet = UserSettings {
            nudges: false,
            via: NudgeVia::Dm,
        };
        settings::put_user(db, ALICE, quiet, T0).await.unwrap();
        let a = game(&w, Variant::Atomic, Some(5)).await;
        w.clock.advance(30 * HOUR);
        let r = w.scheduler.sweep().await.unwrap();
        assert_eq!(
            r.nudged,
            vec![(a, "share:25".to_string())],
            "the server's 25%"
        );
        assert!(w.notifier.sent().is_empty(), "alice turned nudges off");
        let thread = UserSettings {
            nudges: true,
            via: NudgeVia::Thread,
        };
        settings::put_user(db, ALICE, thread, T0).await.unwrap();
        let b = game(&w, Variant::Atomic, None).await;
        w.clock.advance(DAY);
        w.scheduler.sweep().await.unwrap();
        let sent = w.notifier.sent();
        assert_eq!(sent.len(), 1, "{sent:?}");
        assert!(
            matches!(&sent[0], Notice::Nudge { game_id, via: NudgeVia::Thread, .. } if *game_id == b)
        );
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test]
    async fn settings_command_logic_changes_and_describes() {
        use kaboom_discord::commands::settings::{apply_guild, apply_user};
        use kaboom_domain::ids::RoleId;
        use kaboom_service::settings::{GuildChange, LeagueOrganisers};
        let w = world().await;
        let db = w.services.db();
        let text = apply_user(&w.services, ALICE, None, None).await.unwrap();
        assert!(text.contains("on, by DM"), "{text}");
        let text = apply_user(&w.services, ALICE, None, Some(NudgeVia::Thread))
            .await
            .unwrap();
        assert!(text.contains("mention in the game's thread"), "{text}");
        let text = apply_user(&w.services, ALICE, Some(false), None).await.unwrap();
        assert!(text.contains("off"), "{text}");
        assert_eq!(
            settings::user(db, ALICE).await.unwrap(),
            UserSettings {
                nudges: false,
                via: NudgeVia::Thread
            }
        );
        let change = GuildChange {
            shares: Some("90, 60"),
            idle_hours: Some(24),
            ..GuildChange::default()
        };
        let text = apply_guild(&w.services, GUILD, change).await.unwrap();
        assert_eq!(text, "Reminders in this server: timed games at 60% and 90% of the time per move; untimed games after 24 hours without a move, then every 168 hours.\nLeagues are created and managed by members with Manage Server.\nEach player may have 3 practice games against the bot and 10 open challenges at once here, and send 30 commands a minute.");
        let change = GuildChange {
            league_organisers: Some(LeagueOrganisers::AlsoRole(RoleId(77))),
            ..GuildChange::default()
        };
        let text = apply_guild(&w.services, GUILD, change).await.unwrap();
        assert_eq!(text, "Reminders in this server: timed games at 60% and 90% of the time per move; untimed games after 24 hours without a move, then every 168 hours.\nLeagues are created and managed by members with Manage Server and the <@&77> role.\nEach player may have 3 practice games against the bot and 10 open challenges at once here, and send 30 commands a minute.");
        let change = GuildChange {
            league_organisers: Some(LeagueOrganisers::ManageServerOnly),
            ..GuildChange::default()
        };
        let text = apply_guild(&w.services, GUILD, change).await.unwrap();
        assert_eq!(text, "Reminders in this server: timed games at 60% and 90% of the time per move; untimed games after 24 hours without a move, then every 168 hours.\nLeagues are created and managed by members with Manage Server.\nEach player may have 3 practice games against the bot and 10 open challenges at once here, and send 30 commands a minute.", "the role is cleared");
        let change = GuildChange {
            shares: Some("150"),
            ..GuildChange::default()
        };
        let bad = apply_guild(&w.services, GUILD, change).await;
        assert!(
            matches!(&bad, Err(ServiceError::Refused(Refusal::BadSetting { reason })) if reason.contains("1 to 99")),
            "{bad:?}"
        );
        let change = GuildChange {
            idle_hours: Some(0),
            ..GuildChange::default()
        };
        let bad = apply_guild(&w.services, GUILD, change).await;
        assert!(
            matches!(&bad, Err(ServiceError::Refused(Refusal::BadSetting { reason })) if reason.contains("idle_hours")),
            "{bad:?}"
        );
        assert_eq!(
            settings::guild(db, GUILD)
                .await
                .unwrap()
                .unwrap()
                .nudge_shares,
            vec![60, 90],
            "a refused change stores nothing"
        );
    }
}

/// A notice planner that fails (panics) while the deciding transaction writes the
/// notices, or that writes the bot's own outbox entries.
struct Planner {
    fail: bool,
    inner: kaboom_discord::notifier::DiscordNotifier,
}

impl kaboom_service::scheduler::NoticePlanner for Planner {
    fn plan(&self, notice: &Notice) -> Vec<kaboom_store::outbox::NewEffect> {
        assert!(!self.fail, "simulated crash while writing the notices");
        self.inner.plan(notice)
    }

    fn committed(&self) {
        self.inner.committed();
    }
}

fn planner(fail: bool) -> Arc<Planner> {
    Arc::new(Planner {
        fail,
        inner: kaboom_discord::notifier::DiscordNotifier::new(Default::default()),
    })
}

kaboom_testkit::dbtest! {
    /// A decision and its notice are one transaction. A crash while the notice is
    /// written leaves the game as it was (nothing decided, nothing to announce); the next sweep
    /// decides it and writes its announcement into the Discord outbox once, and later sweeps
    /// write nothing more.
    #[tokio::test]
    async fn a_forfeit_and_its_announcement_are_written_together_or_not_at_all() {
        use kaboom_store::outbox;
        let w = world().await;
        let id = game(&w, Variant::Atomic, Some(1)).await;
        let db = w.services.db().clone();
        let crashing = kaboom_testkit::default_scheduler(db.clone(), w.clock.clone(), planner(true));
        w.clock.advance(DAY);
        let crashed = tokio::spawn(async move { crashing.sweep().await }).await;
        assert!(crashed.unwrap_err().is_panic());
        let row = w.services.games().load(id).await.unwrap().row;
        assert_eq!((row.state, row.reason), (GameState::Active, None));
        assert!(outbox::for_game(&db, id).await.unwrap().is_empty());

        let scheduler = kaboom_testkit::default_scheduler(db.clone(), w.clock.clone(), planner(false));
        assert_eq!(scheduler.sweep().await.unwrap().forfeited, vec![id]);
        scheduler.sweep().await.unwrap();
        let entries = outbox::for_game(&db, id).await.unwrap();
        // The announcement and the finished game's replay, written together.
        assert_eq!(entries.len(), 2, "{entries:?}");
        assert_eq!(entries[0].kind, "game-ended");
        assert_eq!(entries[1].kind, "replay-gif");
        assert!(entries[0].payload.contains("wins on time"), "{entries:?}");
        assert_eq!(entries[0].delivered_at, None, "the deliverer posts it");
    }
}

kaboom_testkit::dbtest! {
    /// Nudges and expiries go into the outbox too (exactly once instead of at most once): a
    /// nudge with the ply it is about, an expiry with the challenge's message.
    #[tokio::test]
    async fn nudges_and_expiries_are_outbox_entries() {
        use kaboom_store::outbox;
        let w = world().await;
        let db = w.services.db().clone();
        let scheduler = kaboom_testkit::default_scheduler(db.clone(), w.clock.clone(), planner(false));
        let open = w
            .services
            .challenges().create(challenge(Variant::Atomic, Some(3)))
            .await
            .unwrap();
        w.services
            .challenges().set_message(open.id, MessageId(555))
            .await
            .unwrap();
        let id = game(&w, Variant::Atomic, Some(2)).await;
        w.clock.advance(DAY);
        assert_eq!(scheduler.sweep().await.unwrap().nudged.len(), 1);
        scheduler.sweep().await.unwrap();
        let nudges = outbox::for_game(&db, id).await.unwrap();
        assert_eq!(nudges.len(), 1, "{nudges:?}");
        assert_eq!(nudges[0].kind, "nudge");
        let payload: serde_json::Value = serde_json::from_str(&nudges[0].payload).unwrap();
        assert_eq!(
            (payload["user"].as_u64(), payload["ply"].as_i64()),
            (Some(ALICE.get()), Some(0))
        );
        assert_eq!(payload["dm"], serde_json::json!(true));
        w.clock.advance(6 * DAY);
        assert_eq!(scheduler.sweep().await.unwrap().expired, vec![open.id]);
        let expiry = outbox::for_challenge(&db, open.id).await.unwrap();
        assert_eq!(expiry.len(), 1, "{expiry:?}");
        assert_eq!(
            (expiry[0].kind.as_str(), expiry[0].game_id),
            ("challenge-closed", None)
        );
        let payload: serde_json::Value = serde_json::from_str(&expiry[0].payload).unwrap();
        assert_eq!(payload["message_id"].as_u64(), Some(555));
        assert!(
            payload["line"].as_str().unwrap().contains("expired"),
            "{payload}"
        );
    }
}

kaboom_testkit::dbtest! {
    /// Every `kaboom serve` process runs the scheduler, so several sweep one database
    /// at once (PostgreSQL; here four schedulers, each with its own connection pool, as four
    /// processes would). Each due job is decided by exactly one of them: twelve games get one
    /// 50% nudge each and then one time forfeit each, whichever sweep gets there first.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn four_schedulers_on_one_database_decide_each_job_once() {
        let w = world().await;
        let mut ids = Vec::new();
        for _ in 0..12 {
            ids.push(game(&w, Variant::Atomic, Some(1)).await);
        }
        ids.sort();
        let mut schedulers = vec![w.scheduler];
        let mut notifiers = vec![w.notifier.clone()];
        for _ in 0..3 {
            let db = Db::connect(w._dir.url()).await.unwrap();
            let notifier = Arc::new(RecordingNotifier::default());
            schedulers.push(kaboom_testkit::default_scheduler(
                db,
                w.clock.clone(),
                notifier.clone(),
            ));
            notifiers.push(notifier);
        }
        futures_util::future::join_all(schedulers.iter().map(Scheduler::sweep)).await;
        w.clock.advance(12 * HOUR);
        let reports = futures_util::future::join_all(schedulers.iter().map(Scheduler::sweep)).await;
        let mut nudged: Vec<GameId> = reports
            .into_iter()
            .flat_map(|r| r.unwrap().nudged.into_iter().map(|(id, _)| id))
            .collect();
        nudged.sort();
        assert_eq!(nudged, ids, "one 50% nudge per game");
        let sent: usize = notifiers.iter().map(|n| nudges(&n.sent()).len()).sum();
        assert_eq!(sent, ids.len(), "one nudge notice per game");

        w.clock.advance(DAY);
        let mut forfeited: Vec<GameId> = Vec::new();
        for _ in 0..2 {
            for r in futures_util::future::join_all(schedulers.iter().map(Scheduler::sweep)).await {
                forfeited.extend(r.unwrap().forfeited);
            }
        }
        forfeited.sort();
        assert_eq!(forfeited, ids, "one time forfeit per game");
        for id in &ids {
            let row = games::get(w.services.db(), *id).await.unwrap().unwrap();
            assert_eq!(row.reason.as_deref(), Some("time-forfeit"), "game {id}");
        }
    }
}
