//! Unit tests of the games service on a temporary SQLite database.

use std::sync::Arc;

use kaboom_domain::ids::{ChannelId, GameId, GuildId, UserId};
use kaboom_rules::{AnyGame, Color, EndReason, GameOptions, Variant, Viewer};
use kaboom_service::painter::BoardPainter;
use kaboom_store::games::{self, GameState, StateUpdate};

use kaboom_discord::messages;
use kaboom_service::*;
use kaboom_store::Db;
use kaboom_store::challenges::{ChallengeState, ColorChoice, NewChallenge};
use kaboom_testkit::clock::TestClock;
use kaboom_testkit::painter::PlainPainter;
use kaboom_testkit::temp_db;

const ALICE: UserId = UserId(1001);
const BOB: UserId = UserId(1002);
const CAROL: UserId = UserId(1003);
const T0: i64 = 1_700_000_000;

fn services(db: Db) -> (Services, Arc<TestClock>) {
    let clock = Arc::new(TestClock::new(T0));
    (
        Services::new(db, clock.clone(), Arc::new(PlainPainter)),
        clock,
    )
}

fn challenge(opponent: Option<UserId>, color: ColorChoice) -> NewChallenge {
    NewChallenge {
        guild_id: Some(GuildId(1)),
        channel_id: ChannelId(10),
        challenger_id: ALICE,
        challenger_name: "alice".into(),
        opponent_id: opponent,
        variant: Variant::Atomic,
        options: GameOptions::default(),
        days_per_move: Some(DEFAULT_DAYS_PER_MOVE),
        color,
        rated: true,
        venue: kaboom_store::challenges::Venue::Thread,
    }
}

async fn atomic_game(s: &Services) -> GameId {
    let c = s
        .challenges()
        .create(challenge(Some(BOB), ColorChoice::White))
        .await
        .unwrap();
    s.challenges()
        .accept(c.id, BOB, "bob")
        .await
        .unwrap()
        .row
        .id
}

fn refused<T: std::fmt::Debug>(r: Result<T, ServiceError>) -> Refusal {
    match r {
        Err(ServiceError::Refused(refusal)) => refusal,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test]
    async fn challenge_rules_who_may_accept() {
        let (db, _dir) = temp_db().await;
        let (s, _) = services(db);
        let self_challenge = NewChallenge {
            opponent_id: Some(ALICE),
            ..challenge(None, ColorChoice::White)
        };
        assert!(matches!(
            refused(s.challenges().create(self_challenge).await),
            Refusal::ChallengeSelf
        ));
        let bad_days = NewChallenge {
            days_per_move: Some(4),
            ..challenge(None, ColorChoice::White)
        };
        assert!(matches!(
            refused(s.challenges().create(bad_days).await),
            Refusal::DaysNotOffered { days: 4 }
        ));

        let named = s
            .challenges().create(challenge(Some(BOB), ColorChoice::Black))
            .await
            .unwrap();
        assert!(matches!(
            refused(s.challenges().accept(named.id, CAROL, "carol").await),
            Refusal::AddressedToSomeoneElse
        ));
        assert!(matches!(
            refused(s.challenges().accept(named.id, ALICE, "alice").await),
            Refusal::AcceptOwnChallenge
        ));
        let snap = s.challenges().accept(named.id, BOB, "bob").await.unwrap();
        assert_eq!((snap.row.white_id, snap.row.black_id), (BOB, ALICE));
        assert_eq!(snap.row.deadline_at, Some(T0 + 3 * 86_400));
        assert!(snap.row.rated);
        assert!(matches!(
            refused(s.challenges().accept(named.id, BOB, "bob").await),
            Refusal::ChallengeNotOpen { .. }
        ));

        let open = s
            .challenges().create(challenge(None, ColorChoice::Random))
            .await
            .unwrap();
        assert!(matches!(
            refused(s.challenges().close(open.id, BOB, false).await),
            Refusal::OpenToAnyone
        ));
        assert!(matches!(
            refused(s.challenges().close(open.id, BOB, true).await),
            Refusal::OnlyChallengerCancels
        ));
        s.challenges().close(open.id, ALICE, true).await.unwrap();
        assert!(matches!(
            refused(s.challenges().accept(open.id, CAROL, "carol").await),
            Refusal::ChallengeNotOpen {
                was: Some(ChallengeState::Cancelled)
            }
        ));
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test]
    async fn atomic_game_to_exploded_king_with_suggestions_at6() {
        let (db, _dir) = temp_db().await;
        let (s, clock) = services(db);
        let id = atomic_game(&s).await;
        // Spectators and the side not to move get no suggestions.
        assert!(s.games().suggest(id, CAROL, "").await.unwrap().is_empty());
        assert!(s.games().suggest(id, BOB, "").await.unwrap().is_empty());
        let all = s.games().suggest(id, ALICE, "").await.unwrap();
        assert_eq!(all.len(), 20);
        let knights = s.games().suggest(id, ALICE, "knight").await.unwrap();
        assert_eq!(knights.len(), 4, "{knights:?}");
        assert!(knights.iter().all(|k| k.label.contains("Knight")));
        let nf = s.games().suggest(id, ALICE, "g1f").await.unwrap();
        assert_eq!(nf[0].value, "Nf3");

        for (user, text) in [(ALICE, "Nf3"), (BOB, "a6"), (ALICE, "g1g5"), (BOB, "a5")] {
            let text = if text == "g1g5" { "Ng5" } else { text };
            clock.advance(60);
            s.games().play(kaboom_service::PlayRequest::new(id, user, text)).await.unwrap();
        }
        let capture = s.games().suggest(id, ALICE, "Nxf7").await.unwrap();
        assert!(capture[0].label.contains("blast removes"), "{capture:?}");
        assert!(capture[0].label.contains("Ke8"), "{capture:?}");
        let played = s.games().play(kaboom_service::PlayRequest::new(id, ALICE, "Nxf7")).await.unwrap();
        let outcome = played.snap.outcome().unwrap();
        assert_eq!(
            (outcome.winner, outcome.reason),
            (Some(Color::White), EndReason::KingExploded)
        );
        assert_eq!(played.snap.row.state, GameState::Finished);
        assert_eq!(played.snap.row.result.as_deref(), Some("1-0"));
        assert_eq!(played.snap.row.deadline_at, None);
        assert!(matches!(
            refused(s.games().play(kaboom_service::PlayRequest::new(id, BOB, "e6")).await),
            Refusal::GameOver(_)
        ));
        let pgn = s.games().pgn(id).await.unwrap();
        assert!(pgn.contains("[Variant \"Atomic\"]"), "{pgn}");
        assert!(pgn.contains("1. Nf3 a6 2. Ng5 a5 3. Nxf7# 1-0"), "{pgn}");
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test]
    async fn refusals_say_why() {
        let (db, _dir) = temp_db().await;
        let (s, _) = services(db);
        let id = atomic_game(&s).await;
        assert!(matches!(
            refused(s.games().play(kaboom_service::PlayRequest::new(id, CAROL, "e4")).await),
            Refusal::NotAPlayer { act: Act::Move, .. }
        ));
        assert!(matches!(
            refused(s.games().play(kaboom_service::PlayRequest::new(id, BOB, "e5")).await),
            Refusal::NotYourTurn {
                to_move: Color::White,
                ..
            }
        ));
        let illegal = refused(s.games().play(kaboom_service::PlayRequest::new(id, ALICE, "e5")).await);
        assert!(
            matches!(&illegal, Refusal::IllegalAction { reason, .. } if reason.contains("e5")),
            "{illegal:?}"
        );
        // What the player reads: the reason, then some legal actions.
        let text = messages::refusal(&illegal);
        assert!(text.contains("e5") && text.contains("legal"), "{text}");
        let nonsense = refused(s.games().play(kaboom_service::PlayRequest::new(id, ALICE, "hello")).await);
        assert!(
            matches!(&nonsense, Refusal::IllegalAction { alternatives: Some(some), .. } if !some.is_empty()),
            "{nonsense:?}"
        );
        let text = messages::refusal(&nonsense);
        assert!(text.contains("Some legal actions"), "{text}");
        assert_eq!(s.games().load(id).await.unwrap().row.ply, 0);
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test]
    async fn concurrent_moves_apply_once() {
        let (db, _dir) = temp_db().await;
        let (s, _) = services(db);
        let id = atomic_game(&s).await;
        let (a, b) = tokio::join!(s.games().play(kaboom_service::PlayRequest::new(id, ALICE, "e4")), s.games().play(kaboom_service::PlayRequest::new(id, ALICE, "d4")));
        let oks = [a.is_ok(), b.is_ok()].iter().filter(|x| **x).count();
        assert_eq!(oks, 1, "{a:?} {b:?}");
        let loser = if a.is_ok() { b } else { a };
        assert!(matches!(
            loser,
            Err(ServiceError::MovedOn { ply: 1, .. }) | Err(ServiceError::Refused(_))
        ));
        let snap = s.games().load(id).await.unwrap();
        assert_eq!(snap.row.ply, 1);
        assert_eq!(snap.game.ply_count(), 1);
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test]
    async fn stale_ply_is_never_written() {
        let (db, _dir) = temp_db().await;
        let (s, _) = services(db.clone());
        let id = atomic_game(&s).await;
        s.games().play(kaboom_service::PlayRequest::new(id, ALICE, "e4")).await.unwrap();
        let row = s.games().load(id).await.unwrap().row;
        let mut tx = db.begin_write().await.unwrap();
        let stale = StateUpdate {
            expected_ply: 0,
            action: Some(("d4".into(), ALICE)),
            state_fen: row.state_fen.clone(),
            start_fen: row.start_fen.clone(),
            state: GameState::Active,
            declared: None,
            result: None,
            deadline_at: None,
        };
        assert!(
            games::update_state(&mut tx, id, &stale, T0)
                .await
                .unwrap()
                .is_none()
        );
        tx.commit().await.unwrap();
        assert_eq!(
            games::actions(&db, id).await.unwrap(),
            vec!["e4".to_string()]
        );
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test]
    async fn games_survive_a_restart() {
        let dir = kaboom_testkit::TempDb::new().await;
        let url = dir.url().to_string();
        let id = {
            let (s, _) = services(Db::connect(&url).await.unwrap());
            let id = atomic_game(&s).await;
            s.games().play(kaboom_service::PlayRequest::new(id, ALICE, "e4")).await.unwrap();
            s.games().offer_draw(id, BOB).await.unwrap();
            s.db().close().await;
            id
        };
        let (s, _) = services(Db::connect(&url).await.unwrap());
        let snap = s.games().load(id).await.unwrap();
        assert_eq!(snap.row.ply, 1);
        assert_eq!(s.games().draw_offer(id).await.unwrap(), Some(Color::Black));
        s.games().play(kaboom_service::PlayRequest::new(id, BOB, "d5")).await.unwrap();
        assert_eq!(s.games().active_games(ALICE).await.unwrap().len(), 1);
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test]
    async fn draw_offers_stand_until_answered_or_the_opponent_moves() {
        let (db, _dir) = temp_db().await;
        let (s, _) = services(db);
        let id = atomic_game(&s).await;
        assert!(matches!(
            refused(s.games().offer_draw(id, CAROL).await),
            Refusal::NotAPlayer {
                act: Act::OfferDraw,
                ..
            }
        ));
        assert!(matches!(
            s.games().offer_draw(id, ALICE).await.unwrap(),
            DrawResult::Offered {
                by: Color::White,
                ..
            }
        ));
        assert!(matches!(
            refused(s.games().offer_draw(id, ALICE).await),
            Refusal::DrawAlreadyOffered
        ));
        // The offerer may move with the offer standing.
        let p = s.games().play(kaboom_service::PlayRequest::new(id, ALICE, "e4")).await.unwrap();
        assert!(!p.declined_draw);
        assert_eq!(s.games().draw_offer(id).await.unwrap(), Some(Color::White));
        assert!(matches!(
            refused(s.games().answer_draw(id, ALICE, true).await),
            Refusal::OwnDrawOffer
        ));
        // The opponent's move declines it.
        let p = s.games().play(kaboom_service::PlayRequest::new(id, BOB, "e5")).await.unwrap();
        assert!(p.declined_draw);
        assert_eq!(s.games().draw_offer(id).await.unwrap(), None);
        assert!(matches!(
            refused(s.games().answer_draw(id, BOB, true).await),
            Refusal::NoDrawOffer
        ));
        // Offer and accept.
        s.games().offer_draw(id, BOB).await.unwrap();
        let DrawResult::Agreed(ended) = s.games().answer_draw(id, ALICE, true).await.unwrap() else {
            panic!("expected agreement");
        };
        assert_eq!(ended.outcome.reason, EndReason::Agreement);
        assert_eq!(ended.snap.row.result.as_deref(), Some("1/2-1/2"));
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test]
    async fn resign_and_abort() {
        let (db, _dir) = temp_db().await;
        let (s, _) = services(db);
        let id = atomic_game(&s).await;
        s.games().play(kaboom_service::PlayRequest::new(id, ALICE, "e4")).await.unwrap();
        let ended = s.games().abort(id, BOB).await.unwrap();
        assert_eq!(ended.outcome.reason, EndReason::Aborted);
        assert_eq!(ended.snap.row.result.as_deref(), Some("*"));
        assert!(s.games().active_games(ALICE).await.unwrap().is_empty());

        let id = atomic_game(&s).await;
        s.games().play(kaboom_service::PlayRequest::new(id, ALICE, "e4")).await.unwrap();
        s.games().play(kaboom_service::PlayRequest::new(id, BOB, "e5")).await.unwrap();
        assert!(matches!(
            refused(s.games().abort(id, ALICE).await),
            Refusal::TooLateToAbort
        ));
        assert!(matches!(
            refused(s.games().resign(id, CAROL).await),
            Refusal::NotAPlayer {
                act: Act::Resign,
                ..
            }
        ));
        let ended = s.games().resign(id, BOB).await.unwrap();
        assert_eq!(ended.outcome.winner, Some(Color::White));
        assert!(matches!(
            refused(s.games().resign(id, ALICE).await),
            Refusal::AlreadyOver(_)
        ));
    }
}

#[test]
fn painter_makes_a_png() {
    let game = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
    let png = PlainPainter
        .paint(&game.board_view(Viewer::Spectator), None, Color::Black)
        .unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
}

kaboom_testkit::dbtest! {
    #[tokio::test]
    async fn multiple_beirut_designation_commitments_and_secrecy_be2_be9() {
        let (db, _dir) = temp_db().await;
        let (s, _) = services(db);
        let spec = NewChallenge {
            variant: Variant::Beirut,
            options: GameOptions {
                carriers: 2,
                dead_mans_switch: false,
            },
            ..challenge(Some(BOB), ColorChoice::White)
        };
        let c = s.challenges().create(spec).await.unwrap();
        let id = s.challenges().accept(c.id, BOB, "bob").await.unwrap().row.id;
        assert!(matches!(
            refused(s.games().play(kaboom_service::PlayRequest::new(id, ALICE, "e4")).await),
            Refusal::NotStarted
        ));
        let menu = s.games().carrier_menu(id, ALICE).await.unwrap();
        assert_eq!(menu.count, 2);
        assert_eq!(menu.options.len(), 15, "every piece but the king (BE-2)");
        assert!(
            menu.options
                .iter()
                .all(|(_, kind)| *kind != kaboom_rules::Kind::King)
        );
        assert!(matches!(
            refused(s.games().carrier_menu(id, CAROL).await),
            Refusal::NotAPlayer {
                act: Act::ChooseCarriers,
                ..
            }
        ));
        assert!(matches!(
            refused(s.games().designate(id, ALICE, &["g1".into()]).await),
            Refusal::CarriersNotAllowed { .. }
        ));
        let d = s
            .games().designate(id, ALICE, &["g1".into(), "b1".into()])
            .await
            .unwrap();
        assert!(!d.started);
        assert_eq!(d.designation.squares, "b1,g1");
        assert_eq!(
            d.designation.commitment,
            commitment::commitment(id, Color::White, "b1,g1", &d.designation.salt)
        );
        assert!(matches!(
            refused(s.games().designate(id, ALICE, &["c1".into(), "f1".into()]).await),
            Refusal::AlreadyChosen
        ));
        let d = s
            .games().designate(id, BOB, &["b8".into(), "c8".into()])
            .await
            .unwrap();
        assert!(d.started);
        assert_eq!(d.all.len(), 2);
        assert_ne!(d.all[0].salt, d.all[1].salt);
        // The PGN keeps the carriers secret until the end, then shows them.
        let pgn = s.games().pgn(id).await.unwrap();
        assert!(
            !pgn.contains("Carriers \"b1") && !pgn.contains("FEN"),
            "{pgn}"
        );
        s.games().play(kaboom_service::PlayRequest::new(id, ALICE, "e4")).await.unwrap();
        s.games().resign(id, BOB).await.unwrap();
        let pgn = s.games().pgn(id).await.unwrap();
        assert!(
            pgn.contains("[WhiteCarriers \"b1,g1\"]") && pgn.contains("[BlackCarriers \"b8,c8\"]"),
            "{pgn}"
        );
    }
}

kaboom_testkit::dbtest! {
    /// Autocomplete keystrokes and the `/move` that follows replay the game at most once
    /// for the position, not once per request: a committed move leaves the game after it in
    /// the cache, so the keystrokes at the next ply (and the outbox's board) replay nothing.
    /// The cached game is the game a fresh replay gives (services with no cache on the same
    /// database agree), and a move still needs the stored ply (a stale writer is refused
    /// whatever the cache holds).
    #[tokio::test]
    async fn keystrokes_and_the_move_replay_once() {
        let (db, _dir) = temp_db().await;
        let (s, _) = services(db.clone());
        let id = atomic_game(&s).await;
        for (user, san) in [(ALICE, "e4"), (BOB, "e5"), (ALICE, "Nf3"), (BOB, "Nc6")] {
            s.games().play(kaboom_service::PlayRequest::new(id, user, san)).await.unwrap();
        }
        let before = s.replays().stats();
        for typed in ["", "B", "Bb", "Bb5"] {
            assert!(!s.games().suggest(id, ALICE, typed).await.unwrap().is_empty());
        }
        s.games().play(kaboom_service::PlayRequest::new(id, ALICE, "Bb5")).await.unwrap();
        let after = s.replays().stats();
        // The game at ply 4 was left in the cache by the move that made it.
        assert_eq!(after.replays - before.replays, 0, "{before:?} -> {after:?}");
        assert!(after.hits - before.hits >= 5, "{before:?} -> {after:?}");
        // Bob's keystrokes at the new ply: hits too (Bb5 left its game in the cache).
        for typed in ["", "N", "Nf"] {
            s.games().suggest(id, BOB, typed).await.unwrap();
        }
        assert_eq!(s.replays().stats().replays - after.replays, 0);
        // A fresh replay (no cache) agrees with the cached game.
        let uncached = Services::new(db, Arc::new(TestClock::new(T0)), Arc::new(PlainPainter))
            .with_replay_cache(Arc::new(replay::ReplayCache::new(0)));
        let (cached, fresh) = (s.games().load(id).await.unwrap(), uncached.games().load(id).await.unwrap());
        assert_eq!(cached.game.fen(Viewer::Full), fresh.game.fen(Viewer::Full));
        assert_eq!(cached.game.plies(), fresh.game.plies());
        assert_eq!(uncached.replays().stats().len, 0);
        // Another writer moved first: the cached services' move is refused, not applied twice.
        uncached.games().play(kaboom_service::PlayRequest::new(id, BOB, "Nf6")).await.unwrap();
        assert!(matches!(
            refused(s.games().play(kaboom_service::PlayRequest::new(id, BOB, "a6")).await),
            Refusal::NotYourTurn { .. }
        ));
        assert_eq!(s.games().load(id).await.unwrap().row.ply, 6);
    }
}

kaboom_testkit::dbtest! {
    /// The replay cache holds the full state and nothing per viewer: after White's
    /// keystrokes fill it, Black and a spectator still see no White carrier in a Beirut game,
    /// and White still sees exactly hers.
    #[tokio::test]
    async fn cached_beirut_games_show_each_viewer_only_their_own_carriers() {
        let (db, _dir) = temp_db().await;
        let (s, _) = services(db);
        let spec = NewChallenge {
            variant: Variant::Beirut,
            ..challenge(Some(BOB), ColorChoice::White)
        };
        let c = s.challenges().create(spec).await.unwrap();
        let id = s.challenges().accept(c.id, BOB, "bob").await.unwrap().row.id;
        s.games().designate(id, ALICE, &["b1".into()]).await.unwrap();
        s.games().designate(id, BOB, &["g8".into()]).await.unwrap();
        s.games().suggest(id, ALICE, "").await.unwrap();
        let hits = s.replays().stats().hits;
        let snap = s.games().load(id).await.unwrap();
        assert!(s.replays().stats().hits > hits, "served from the cache");
        let carriers = |viewer: Viewer| -> Vec<String> {
            snap.game
                .board_view(viewer)
                .pieces
                .iter()
                .filter(|p| p.carrier)
                .map(|p| p.square.to_string())
                .collect()
        };
        assert_eq!(carriers(Viewer::White), vec!["b1".to_string()]);
        assert_eq!(carriers(Viewer::Black), vec!["g8".to_string()]);
        assert!(carriers(Viewer::Spectator).is_empty());
        // White's suggestions (on White's view) never give away Black's carrier g8.
        let labels: Vec<String> = s
            .games().suggest(id, ALICE, "")
            .await
            .unwrap()
            .into_iter()
            .map(|s| s.label)
            .collect();
        assert!(
            labels.iter().all(|l| !l.contains("g8 explodes")),
            "{labels:?}"
        );
    }
}
