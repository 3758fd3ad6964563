//! Simultaneous conflicting actions: 100 pairs, 20 of each kind (two moves,
//! a winning move vs resign, accept vs cancel, accept vs accept, designate vs abort), each
//! pair launched at once on a multi-thread runtime. Each pair ends with exactly one action
//! applied and the other told why (a refusal, or "the game moved on", both worded for the
//! player), never a storage error or a panic; the database afterwards holds exactly the
//! applied action and only its outbox entries (one transaction with the expected-ply check
//! and the `games_finished_is_final` trigger).
//!
//! One exception, by the rules: a designation committed just before an abort leaves both
//! applied (a game may be aborted until both sides have moved); the reverse order must
//! refuse the designation. The test accepts the first and checks the second.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use kaboom_discord::messages;
use kaboom_discord::outbox::{DiscordEffects, Effect};
use kaboom_domain::ids::{ChannelId, GameId, GuildId, UserId};
use kaboom_rules::{AnyGame, GameOptions, Variant};
use kaboom_service::{DEFAULT_DAYS_PER_MOVE, ServiceError, Services};
use kaboom_store::Db;
use kaboom_store::challenges::{ChallengeState, ColorChoice, NewChallenge};
use kaboom_store::games::{self, GameState};
use kaboom_store::outbox;
use kaboom_testkit::clock::TestClock;
use kaboom_testkit::painter::PlainPainter;
use kaboom_testkit::temp_db;
use tokio::sync::Barrier;

const ALICE: UserId = UserId(1001);
const BOB: UserId = UserId(1002);
const CAROL: UserId = UserId(1003);
const T0: i64 = 1_700_000_000;
/// Pairs of each kind (5 kinds: 100 pairs).
const PAIRS: usize = 20;

/// Atomic: White's knight explodes Black's king on the third move (AT-2).
const BEFORE_WIN: [&str; 4] = ["Nf3", "a6", "Ng5", "a5"];
const WIN: &str = "Nxf7";

fn services(db: Db) -> Services {
    let s = Services::new(db, Arc::new(TestClock::new(T0)), Arc::new(PlainPainter));
    let planner = DiscordEffects::for_services(&s);
    s.with_effects(planner)
}

fn challenge(opponent: Option<UserId>, variant: Variant) -> NewChallenge {
    NewChallenge {
        guild_id: Some(GuildId(1)),
        channel_id: ChannelId(10),
        challenger_id: ALICE,
        challenger_name: "alice".into(),
        opponent_id: opponent,
        variant,
        options: GameOptions::default(),
        days_per_move: Some(DEFAULT_DAYS_PER_MOVE),
        color: ColorChoice::White,
        rated: true,
        venue: kaboom_store::challenges::Venue::Thread,
    }
}

async fn new_game(s: &Services, variant: Variant) -> GameId {
    let c = s
        .challenges()
        .create(challenge(Some(BOB), variant))
        .await
        .unwrap();
    s.challenges()
        .accept(c.id, BOB, "bob")
        .await
        .unwrap()
        .row
        .id
}

/// A head start for the first action in some rounds (0 to 1.5 ms), so that both orders of
/// each race occur: the second action still starts while the first is under way.
fn head_start(round: usize) -> Duration {
    Duration::from_micros((round as u64 % 4) * 500)
}

/// Runs `a` and `b` at the same moment (two tasks released by one barrier; `b` waits
/// `delay_b` more) and returns
/// which succeeded: `Some(true)` for `a` only, `Some(false)` for `b` only, `None` for both.
/// Panics on a panic, when neither succeeded, or when a loser was not told why.
async fn race_both<A, B, TA, TB>(what: &str, delay_b: Duration, a: A, b: B) -> Option<bool>
where
    A: Future<Output = Result<TA, ServiceError>> + Send + 'static,
    B: Future<Output = Result<TB, ServiceError>> + Send + 'static,
    TA: Send + 'static,
    TB: Send + 'static,
{
    let barrier = Arc::new(Barrier::new(2));
    let (ba, bb) = (barrier.clone(), barrier);
    let (ra, rb) = tokio::join!(
        tokio::spawn(async move {
            ba.wait().await;
            a.await
        }),
        tokio::spawn(async move {
            bb.wait().await;
            if !delay_b.is_zero() {
                tokio::time::sleep(delay_b).await;
            }
            b.await
        })
    );
    let (ra, rb) = (ra.expect("no panic"), rb.expect("no panic"));
    let told_why = |e: &ServiceError| {
        assert!(
            matches!(e, ServiceError::Refused(_) | ServiceError::MovedOn { .. }),
            "{what}: the loser must be told why, not fail: {e:?}"
        );
        let text = messages::service_error(e);
        assert!(!text.is_empty(), "{what}: {e:?}");
    };
    match (&ra, &rb) {
        (Ok(_), Err(e)) => {
            told_why(e);
            Some(true)
        }
        (Err(e), Ok(_)) => {
            told_why(e);
            Some(false)
        }
        (Ok(_), Ok(_)) => None,
        (Err(a), Err(b)) => panic!("{what}: neither was applied: {a:?} / {b:?}"),
    }
}

/// As [`race_both`], and exactly one must succeed: `true` when `a` did.
async fn race<A, B, TA, TB>(what: &str, delay_b: Duration, a: A, b: B) -> bool
where
    A: Future<Output = Result<TA, ServiceError>> + Send + 'static,
    B: Future<Output = Result<TB, ServiceError>> + Send + 'static,
    TA: Send + 'static,
    TB: Send + 'static,
{
    race_both(what, delay_b, a, b)
        .await
        .unwrap_or_else(|| panic!("{what}: both were applied"))
}

/// The outbox entries of `game` as effects.
async fn effects(db: &Db, game: GameId) -> Vec<Effect> {
    outbox::for_game(db, game)
        .await
        .unwrap()
        .iter()
        .map(|e| serde_json::from_str(&e.payload).unwrap())
        .collect()
}

fn boards(effects: &[Effect]) -> Vec<i64> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Board { ply, .. } => Some(*ply),
            _ => None,
        })
        .collect()
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn a_hundred_simultaneous_conflicts_apply_one_and_tell_the_other_why() {
        let (db, _dir) = temp_db().await;
        let s = services(db.clone());
        // The winning line really wins (so "move vs resign" is a conflict).
        let mut check = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
        for text in BEFORE_WIN.iter().chain([&WIN]) {
            check.play(None, text).unwrap();
        }
        assert!(check.status().outcome().is_some(), "{WIN} ends the game");
        let mut wins = [0usize; 5];
        let mut both_applied = 0;

        for round in 0..PAIRS {
            // 1. Two moves by the side to move, sent together (a double submit).
            let game = new_game(&s, Variant::Atomic).await;
            let first = race(
                "two moves",
                head_start(round),
                {
                    let s = s.clone();
                    async move { s.games().play(kaboom_service::PlayRequest::new(game, ALICE, "e4")).await }
                },
                {
                    let s = s.clone();
                    async move { s.games().play(kaboom_service::PlayRequest::new(game, ALICE, "d4")).await }
                },
            )
            .await;
            wins[0] += usize::from(first);
            let stored = games::actions(&db, game).await.unwrap();
            assert_eq!(
                stored,
                vec![if first { "e4" } else { "d4" }],
                "round {round}"
            );
            assert_eq!(
                boards(&effects(&db, game).await),
                vec![0, 1],
                "round {round}"
            );

            // 2. White's winning move against Black's resignation.
            let game = new_game(&s, Variant::Atomic).await;
            for (i, text) in BEFORE_WIN.iter().enumerate() {
                let who = if i % 2 == 0 { ALICE } else { BOB };
                s.games().play(kaboom_service::PlayRequest::new(game, who, text)).await.unwrap();
            }
            let moved = race(
                "move vs resign",
                head_start(round),
                {
                    let s = s.clone();
                    async move { s.games().play(kaboom_service::PlayRequest::new(game, ALICE, WIN)).await }
                },
                {
                    let s = s.clone();
                    async move { s.games().resign(game, BOB).await }
                },
            )
            .await;
            wins[1] += usize::from(moved);
            let row = games::get(&db, game).await.unwrap().unwrap();
            assert_eq!(row.state, GameState::Finished, "round {round}");
            assert_eq!(row.result.as_deref(), Some("1-0"));
            let actions = games::actions(&db, game).await.unwrap();
            assert_eq!(actions.len(), if moved { 5 } else { 4 }, "round {round}");
            assert_eq!(
                row.reason.as_deref() == Some("resignation"),
                !moved,
                "round {round}: {:?}",
                row.reason
            );
            let plies = boards(&effects(&db, game).await);
            assert_eq!(
                plies,
                if moved {
                    vec![0, 1, 2, 3, 4, 5]
                } else {
                    vec![0, 1, 2, 3, 4, 4]
                }
            );

            // 3. Bob accepts while Alice cancels.
            let c = s
                .challenges().create(challenge(Some(BOB), Variant::Atomic))
                .await
                .unwrap();
            let accepted = race(
                "accept vs cancel",
                head_start(round),
                {
                    let s = s.clone();
                    async move { s.challenges().accept(c.id, BOB, "bob").await }
                },
                {
                    let s = s.clone();
                    async move { s.challenges().close(c.id, ALICE, true).await }
                },
            )
            .await;
            wins[2] += usize::from(accepted);
            let stored = s.challenges().get(c.id).await.unwrap();
            if accepted {
                assert_eq!(stored.state, ChallengeState::Accepted, "round {round}");
                let game = stored.game_id.expect("the game of an accepted challenge");
                assert!(games::get(&db, game).await.unwrap().is_some());
            } else {
                assert_eq!(stored.state, ChallengeState::Cancelled, "round {round}");
                assert_eq!(stored.game_id, None);
            }

            // 4. Bob and Carol accept an open challenge together.
            let c = s
                .challenges().create(challenge(None, Variant::Atomic))
                .await
                .unwrap();
            let bob_won = race(
                "accept vs accept",
                head_start(round),
                {
                    let s = s.clone();
                    async move { s.challenges().accept(c.id, BOB, "bob").await }
                },
                {
                    let s = s.clone();
                    async move { s.challenges().accept(c.id, CAROL, "carol").await }
                },
            )
            .await;
            wins[3] += usize::from(bob_won);
            let stored = s.challenges().get(c.id).await.unwrap();
            assert_eq!(stored.state, ChallengeState::Accepted);
            let row = games::get(&db, stored.game_id.unwrap())
                .await
                .unwrap()
                .unwrap();
            assert_eq!(
                row.black_id,
                if bob_won { BOB } else { CAROL },
                "round {round}"
            );

            // 5. In Beirut's setup, Alice designates her carrier while Bob aborts. Aborting is
            // allowed until both sides have moved, so "designate, then abort" applies both (the
            // game ends aborted with the designation stored); "abort, then designate" must
            // refuse the designation (the game is over), and that is the race to win.
            let game = new_game(&s, Variant::Beirut).await;
            let winner = race_both(
                "designate vs abort",
                head_start(round),
                {
                    let s = s.clone();
                    async move { s.games().designate(game, ALICE, &["g1".to_string()]).await }
                },
                {
                    let s = s.clone();
                    async move { s.games().abort(game, BOB).await }
                },
            )
            .await;
            let row = games::get(&db, game).await.unwrap().unwrap();
            let chosen = s.games().designations(game).await.unwrap();
            match winner {
                Some(true) => {
                    wins[4] += 1;
                    assert_eq!(
                        row.state,
                        GameState::Setup,
                        "round {round}: waiting for Bob"
                    );
                    assert_eq!(chosen.len(), 1);
                }
                Some(false) => {
                    assert_eq!(row.state, GameState::Finished, "round {round}");
                    assert_eq!(row.reason.as_deref(), Some("aborted"));
                    assert!(
                        chosen.is_empty(),
                        "round {round}: no carrier stored after the abort"
                    );
                }
                None => {
                    both_applied += 1;
                    assert_eq!(
                        row.state,
                        GameState::Finished,
                        "round {round}: abort came last"
                    );
                    assert_eq!(row.reason.as_deref(), Some("aborted"));
                    assert_eq!(chosen.len(), 1, "round {round}: designated first");
                }
            }
        }
        // Which side wins a race is up to the scheduler; print the split for the record.
        eprintln!(
            "first-action wins per kind (of {PAIRS}): {wins:?}; designate-then-abort: {both_applied}"
        );
    }
}
