//! Ratings, profiles, leaderboards and the game archive: the numbers are
//! skillratings' own; every ending rates exactly once, also when endings race; aborted,
//! casual and moveless games are not rated; `/profile`, `/leaderboard` and `/games
//! finished:true` end to end through the strict fake with 60 finished games.

use std::sync::Arc;

use fake_discord::{CommandOption, FakeDiscord};
use kaboom_domain::ids::{ChannelId, GameId, GuildId, UserId};
use kaboom_domain::rating::{self, Glicko};
use kaboom_rules::{Color, EndReason, GameOptions, Variant};
use kaboom_service::scheduler::Scheduler;
use kaboom_service::{DrawResult, Services};
use kaboom_store::challenges::{ColorChoice, NewChallenge};
use kaboom_store::ratings::{self, GameChange};
use kaboom_store::{Db, games::Readable};
use kaboom_testkit::clock::TestClock;
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::driver::Driver;
use kaboom_testkit::fixture::T0;
use kaboom_testkit::notifier::RecordingNotifier;
use kaboom_testkit::painter::PlainPainter;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2, glicko2_rating_period};

const ALICE: (UserId, &str) = (UserId(1001), "alice");
const BOB: (UserId, &str) = (UserId(1002), "bob");
const CAROL: (UserId, &str) = (UserId(1003), "carol");
const DAY: i64 = 86_400;

fn services(db: Db, clock: Arc<TestClock>) -> Services {
    Services::new(db, clock, Arc::new(PlainPainter))
}

/// A game of Atomic, `white` against `black`, in server `guild`, with both first moves
/// played (two plies: it can be rated).
async fn game_after_two_plies(
    s: &Services,
    guild: GuildId,
    white: (UserId, &str),
    black: (UserId, &str),
    rated: bool,
    days: Option<u32>,
) -> GameId {
    let id = new_game(s, guild, white, black, rated, days).await;
    s.games()
        .play(kaboom_service::PlayRequest::new(id, white.0, "e4"))
        .await
        .unwrap();
    s.games()
        .play(kaboom_service::PlayRequest::new(id, black.0, "e5"))
        .await
        .unwrap();
    id
}

/// A new game, no move played yet.
async fn new_game(
    s: &Services,
    guild: GuildId,
    white: (UserId, &str),
    black: (UserId, &str),
    rated: bool,
    days: Option<u32>,
) -> GameId {
    let c = s
        .challenges()
        .create(NewChallenge {
            guild_id: Some(guild),
            channel_id: ChannelId(10),
            challenger_id: white.0,
            challenger_name: white.1.into(),
            opponent_id: Some(black.0),
            variant: Variant::Atomic,
            options: GameOptions::default(),
            days_per_move: days,
            color: ColorChoice::White,
            rated,
            venue: kaboom_store::challenges::Venue::Thread,
        })
        .await
        .unwrap();
    s.challenges()
        .accept(c.id, black.0, black.1)
        .await
        .unwrap()
        .row
        .id
}

/// Ends game `id` between `white` and `black`: won by `winner` (the loser resigns) or drawn
/// by agreement. Returns the rating change the ending reported.
async fn end(
    s: &Services,
    id: GameId,
    white: UserId,
    black: UserId,
    winner: Option<Color>,
) -> Option<GameChange> {
    match winner {
        Some(Color::White) => s
            .games()
            .resign(id, black)
            .await
            .unwrap()
            .rating
            .map(|c| *c),
        Some(Color::Black) => s
            .games()
            .resign(id, white)
            .await
            .unwrap()
            .rating
            .map(|c| *c),
        None => {
            s.games().offer_draw(id, white).await.unwrap();
            match s.games().offer_draw(id, black).await.unwrap() {
                DrawResult::Agreed(ended) => ended.rating.map(|c| *c),
                other => panic!("expected an agreed draw, got {other:?}"),
            }
        }
    }
}

/// lichess's configuration as the test states it, independently of the bot's constants.
fn lichess_config() -> Glicko2Config {
    Glicko2Config {
        tau: 0.75,
        convergence_tolerance: 0.000_001,
    }
}

/// lila's cap (deviation 45..=500, volatility at most 0.1, rating at least 600).
fn cap(r: Glicko2Rating) -> Glicko2Rating {
    Glicko2Rating {
        rating: r.rating.max(600.0),
        deviation: r.deviation.clamp(45.0, 500.0),
        volatility: r.volatility.min(0.1),
    }
}

fn close(stored: &Glicko, expected: &Glicko2Rating) -> bool {
    (stored.rating - expected.rating).abs() < 1e-9
        && (stored.deviation - expected.deviation).abs() < 1e-9
        && (stored.volatility - expected.volatility).abs() < 1e-12
}

async fn rating_of(db: &Db, user: UserId) -> Option<ratings::PlayerRating> {
    ratings::of_user(db, user)
        .await
        .unwrap()
        .into_iter()
        .find(|r| r.variant == Variant::Atomic)
}

/// The skillratings crate reproduces the example of Glickman's Glicko-2 paper
/// (<http://www.glicko.net/glicko/glicko2.pdf>, the worked example: a 1500/200/0.06 player
/// beats a 1400/30 player and loses to 1550/100 and 1700/300 players, τ = 0.5, and ends at
/// 1464.06/151.52/0.05999). lichess publishes no worked example of its own that we found;
/// its parameters are checked below.
#[test]
fn skillratings_reproduces_glickmans_published_example() {
    let player = Glicko2Rating {
        rating: 1500.0,
        deviation: 200.0,
        volatility: 0.06,
    };
    let opponent = |rating, deviation| Glicko2Rating {
        rating,
        deviation,
        volatility: 0.06,
    };
    let results = [
        (opponent(1400.0, 30.0), Outcomes::WIN),
        (opponent(1550.0, 100.0), Outcomes::LOSS),
        (opponent(1700.0, 300.0), Outcomes::LOSS),
    ];
    let after = glicko2_rating_period(&player, &results, &Glicko2Config::new());
    assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
    assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
    assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
}

/// The bot's parameters are lichess's, and a new player is provisional.
#[test]
fn the_parameters_are_lichess() {
    assert_eq!(
        Glicko::START,
        Glicko {
            rating: 1500.0,
            deviation: 500.0,
            volatility: 0.09
        }
    );
    assert_eq!(rating::config().tau, 0.75);
    assert!(Glicko::START.provisional());
    assert_eq!(Glicko::START.display(), "1500?");
}

kaboom_testkit::dbtest! {
    /// A known sequence of results among three players, each rated as one game (one rating
    /// period), gives exactly skillratings' numbers with lichess's parameters; the records and
    /// each game's stored change follow.
    #[tokio::test]
    async fn a_known_sequence_gives_skillratings_numbers() {
        let (db, _dir) = kaboom_testkit::temp_db().await;
        let s = services(db.clone(), Arc::new(TestClock::new(T0)));
        let start = Glicko2Rating {
            rating: 1500.0,
            deviation: 500.0,
            volatility: 0.09,
        };
        let mut expected = [start, start, start];
        let players = [ALICE, BOB, CAROL];
        // (white, black, winner) by index into `players`.
        let sequence = [
            (0, 1, Some(Color::White)),
            (1, 2, None),
            (2, 0, Some(Color::White)),
            (0, 1, Some(Color::Black)),
            (0, 2, Some(Color::White)),
            (1, 0, None),
            (2, 1, Some(Color::Black)),
            (0, 2, Some(Color::White)),
        ];
        for (w, b, winner) in sequence {
            let id = game_after_two_plies(&s, GuildId(1), players[w], players[b], true, None).await;
            let change = end(&s, id, players[w].0, players[b].0, winner)
                .await
                .expect("a rated game with two plies is rated");
            let outcome = match winner {
                Some(Color::White) => Outcomes::WIN,
                Some(Color::Black) => Outcomes::LOSS,
                None => Outcomes::DRAW,
            };
            let (ew, eb) = glicko2(&expected[w], &expected[b], &outcome, &lichess_config());
            let (ew, eb) = (cap(ew), cap(eb));
            assert!(close(&change.white.before, &expected[w]), "{change:?}");
            assert!(close(&change.white.after, &ew), "{change:?} vs {ew:?}");
            assert!(close(&change.black.after, &eb), "{change:?} vs {eb:?}");
            expected[w] = ew;
            expected[b] = eb;
            // The stored change is the reported one.
            assert_eq!(
                ratings::change_of_game(&db, id).await.unwrap(),
                Some(change)
            );
        }
        for (i, p) in players.iter().enumerate() {
            let r = rating_of(&db, p.0).await.unwrap();
            assert!(close(&r.glicko, &expected[i]), "{r:?} vs {:?}", expected[i]);
        }
        let alice = rating_of(&db, ALICE.0).await.unwrap();
        assert_eq!(
            (alice.games, alice.wins, alice.draws, alice.losses),
            (6, 3, 1, 2)
        );
        let bob = rating_of(&db, BOB.0).await.unwrap();
        assert_eq!((bob.games, bob.wins, bob.draws, bob.losses), (5, 2, 2, 1));
    }
}

kaboom_testkit::dbtest! {
    /// Two games of alice end at the same moment (two resignations on two tasks): both count,
    /// one after the other (the second game's rating before is the first game's rating after).
    #[tokio::test]
    async fn two_games_of_one_player_finished_in_parallel_both_count_in_order() {
        for _ in 0..5 {
            let (db, _dir) = kaboom_testkit::temp_db().await;
            let s = services(db.clone(), Arc::new(TestClock::new(T0)));
            let g1 = game_after_two_plies(&s, GuildId(1), ALICE, BOB, true, None).await;
            let g2 = game_after_two_plies(&s, GuildId(1), ALICE, CAROL, true, None).await;
            let (s1, s2) = (s.clone(), s.clone());
            let a = tokio::spawn(async move { s1.games().resign(g1, BOB.0).await });
            let b = tokio::spawn(async move { s2.games().resign(g2, CAROL.0).await });
            let (a, b) = (a.await.unwrap().unwrap(), b.await.unwrap().unwrap());
            let (c1, c2) = (a.rating.unwrap(), b.rating.unwrap());
            let alice = rating_of(&db, ALICE.0).await.unwrap();
            assert_eq!((alice.games, alice.wins), (2, 2));
            // One of them was applied first, from the start rating; the other from its result.
            let (first, second) = if c1.white.before == Glicko::START {
                (c1, c2)
            } else {
                (c2, c1)
            };
            assert_eq!(first.white.before, Glicko::START);
            assert_eq!(second.white.before, first.white.after);
            assert_eq!(alice.glicko, second.white.after);
            for g in [g1, g2] {
                assert!(ratings::change_of_game(&db, g).await.unwrap().is_some());
            }
        }
    }
}

fn scheduler(db: Db, clock: Arc<TestClock>) -> Scheduler {
    kaboom_testkit::default_scheduler(db, clock, Arc::new(RecordingNotifier::default()))
}

kaboom_testkit::dbtest! {
    /// A time forfeit by the scheduler races a resignation of the same game: exactly one ends
    /// it, and the ratings change once, for the result that was written.
    #[tokio::test]
    async fn a_scheduler_forfeit_racing_a_resignation_rates_once() {
        let (db, _dir) = kaboom_testkit::temp_db().await;
        let s = services(db.clone(), Arc::new(TestClock::new(T0)));
        // The sweep's clock is past the deadline; the resigning player's is not.
        let late = scheduler(db.clone(), Arc::new(TestClock::new(T0 + 2 * DAY)));
        let mut forfeits = 0;
        for round in 0..6 {
            let id = game_after_two_plies(&s, GuildId(1), ALICE, BOB, true, Some(1)).await;
            let before = rating_of(&db, ALICE.0).await.map(|r| r.games).unwrap_or(0);
            let s1 = s.clone();
            // White (alice) is to move at ply 2 and runs out of time; bob resigns meanwhile.
            let resign = tokio::spawn(async move { s1.games().resign(id, BOB.0).await });
            let sweep = {
                let late = late.clone();
                tokio::spawn(async move { late.sweep().await })
            };
            let resigned = resign.await.unwrap();
            let swept = sweep.await.unwrap().unwrap();
            let forfeited = swept.forfeited.contains(&id);
            assert_ne!(
                resigned.is_ok(),
                forfeited,
                "round {round}: exactly one ends it"
            );
            forfeits += usize::from(forfeited);
            let change = ratings::change_of_game(&db, id).await.unwrap().unwrap();
            let row = s.games().load(id).await.unwrap().row;
            let (winner, reason) = if forfeited {
                (Color::Black, EndReason::TimeForfeit)
            } else {
                (Color::White, EndReason::Resignation)
            };
            assert_eq!(row.reason.as_deref(), Some(reason.name()), "round {round}");
            assert_eq!(change.side(winner).score, 1.0, "round {round}");
            assert!(change.side(winner).diff() > 0, "round {round}");
            let after = rating_of(&db, ALICE.0).await.unwrap();
            assert_eq!(after.games, before + 1, "round {round}: rated once");
            if let Ok(ended) = resigned {
                assert_eq!(ended.rating.map(|c| *c), Some(change));
            }
        }
        // Both orders happen over the rounds often enough to matter; either way it is once.
        eprintln!("forfeits won {forfeits} of 6 races");
    }
}

kaboom_testkit::dbtest! {
    /// A forfeit by the scheduler in a rated game rates it like any other result, and its
    /// announcement shows the change.
    #[tokio::test]
    async fn a_time_forfeit_is_rated_and_announced_with_the_change() {
        let (db, _dir) = kaboom_testkit::temp_db().await;
        let clock = Arc::new(TestClock::new(T0));
        let s = services(db.clone(), clock.clone());
        let notifier = Arc::new(RecordingNotifier::default());
        let sched = kaboom_testkit::default_scheduler(db.clone(), clock.clone(), notifier.clone());
        let id = game_after_two_plies(&s, GuildId(1), ALICE, BOB, true, Some(1)).await;
        clock.advance(2 * DAY);
        assert_eq!(sched.sweep().await.unwrap().forfeited, vec![id]);
        let change = ratings::change_of_game(&db, id).await.unwrap().unwrap();
        assert_eq!(change.black.score, 1.0);
        let text = notifier
            .sent()
            .iter()
            .find_map(|n| match n {
                kaboom_service::scheduler::Notice::GameEnded { text, .. } => Some(text.clone()),
                _ => None,
            })
            .unwrap();
        let line = format!(
            "Ratings (Atomic): alice {} ({}) · bob {} (+{})",
            change.white.after.display(),
            change.white.diff(),
            change.black.after.display(),
            change.black.diff()
        );
        assert!(text.contains(&line), "{text}\n{line}");
    }
}

kaboom_testkit::dbtest! {
    /// Aborted games, casual games, and games in which a side never moved change no rating,
    /// whoever ends them; a rated game that does not count says why.
    #[tokio::test]
    async fn aborted_casual_and_moveless_games_are_not_rated() {
        let (db, _dir) = kaboom_testkit::temp_db().await;
        let clock = Arc::new(TestClock::new(T0));
        let s = services(db.clone(), clock.clone());
        // Aborted by a player before both moved.
        let id = new_game(&s, GuildId(1), ALICE, BOB, true, None).await;
        s.games().play(kaboom_service::PlayRequest::new(id, ALICE.0, "e4")).await.unwrap();
        assert!(s.games().abort(id, BOB.0).await.unwrap().rating.is_none());
        // Resigned after one ply: Black never moved.
        let id = new_game(&s, GuildId(1), ALICE, BOB, true, None).await;
        s.games().play(kaboom_service::PlayRequest::new(id, ALICE.0, "e4")).await.unwrap();
        let ended = s.games().resign(id, BOB.0).await.unwrap();
        assert!(ended.rating.is_none());
        let note =
            kaboom_discord::messages::ratings::unrated_note(&ended.snap.row, &ended.outcome).unwrap();
        assert_eq!(note, "Not rated: a game counts for ratings only once both players have moved.");
        // Resigned before any move.
        let id = new_game(&s, GuildId(1), ALICE, BOB, true, None).await;
        assert!(s.games().resign(id, ALICE.0).await.unwrap().rating.is_none());
        // Casual, with moves.
        let id = game_after_two_plies(&s, GuildId(1), ALICE, BOB, false, None).await;
        let ended = s.games().resign(id, BOB.0).await.unwrap();
        assert!(ended.rating.is_none());
        assert!(
            kaboom_discord::messages::ratings::unrated_note(&ended.snap.row, &ended.outcome).is_none()
        );
        // Forfeited on time by the scheduler before White's first move, and before Black's.
        let sched = scheduler(db.clone(), clock.clone());
        let zero = new_game(&s, GuildId(1), ALICE, BOB, true, Some(1)).await;
        let one = new_game(&s, GuildId(1), ALICE, CAROL, true, Some(1)).await;
        s.games().play(kaboom_service::PlayRequest::new(one, ALICE.0, "e4")).await.unwrap();
        clock.advance(2 * DAY);
        let swept = sched.sweep().await.unwrap();
        assert_eq!(swept.forfeited.len(), 2, "{swept:?}");
        assert!(swept.forfeited.contains(&zero) && swept.forfeited.contains(&one));
        // A Nuke game aborted by the scheduler for carriers never chosen.
        let c = s
            .challenges().create(NewChallenge {
                guild_id: Some(GuildId(1)),
                channel_id: ChannelId(10),
                challenger_id: ALICE.0,
                challenger_name: "alice".into(),
                opponent_id: Some(BOB.0),
                variant: Variant::Nuke,
                options: GameOptions::default(),
                days_per_move: Some(1),
                color: ColorChoice::White,
                rated: true,
                venue: kaboom_store::challenges::Venue::Thread,
            })
            .await
            .unwrap();
        s.challenges().accept(c.id, BOB.0, "bob").await.unwrap();
        clock.advance(3 * DAY);
        assert_eq!(sched.sweep().await.unwrap().aborted.len(), 1);
        for user in [ALICE.0, BOB.0, CAROL.0] {
            assert!(ratings::of_user(&db, user).await.unwrap().is_empty());
        }
        let archive = s
            .ratings().archive(
                ALICE.0,
                Readable {
                    guild: Some(GuildId(1)),
                    caller: ALICE.0,
                },
                1,
            )
            .await
            .unwrap();
        assert_eq!(archive.total, 7);
        let lines: Vec<String> = archive
            .games
            .iter()
            .map(kaboom_discord::messages::ratings::finished_line)
            .collect();
        assert_eq!(
            lines.iter().filter(|l| l.contains(" · aborted · ")).count(),
            2,
            "{lines:#?}"
        );
        assert_eq!(
            lines
                .iter()
                .filter(|l| l.ends_with(" · casual · game #4"))
                .count(),
            1,
            "{lines:#?}"
        );
        assert_eq!(
            lines
                .iter()
                .filter(|l| l.contains(" · not rated · "))
                .count(),
            6,
            "{lines:#?}"
        );
        // In a direct message, only the caller's own games are listed; in another server none.
        let elsewhere = Readable {
            guild: Some(GuildId(2)),
            caller: ALICE.0,
        };
        assert_eq!(s.ratings().archive(ALICE.0, elsewhere, 1).await.unwrap().total, 0);
        let dm_of_carol = Readable {
            guild: None,
            caller: CAROL.0,
        };
        assert_eq!(s.ratings().archive(ALICE.0, dm_of_carol, 1).await.unwrap().total, 1);
    }
}

type Outcome = Result<(), DemoError>;

fn content(r: &fake_discord::InteractionResponse) -> String {
    let text = r.content().unwrap_or_default().to_string();
    assert!(text.chars().count() <= 2000, "over Discord's limit: {text}");
    text
}

kaboom_testkit::dbtest! {
    /// Through the strict fake: a game played to a result shows the rating change on its last
    /// board, `/board` and `/pgn` work on it once finished; with 60 finished games, `/profile`,
    /// `/leaderboard` and `/games finished:true` (paged) stay within Discord's limits.
    #[tokio::test]
    async fn profile_leaderboard_and_archive_end_to_end_with_60_finished_games() -> Outcome {
        let dir = kaboom_testkit::TempDb::new().await;
        let url = dir.url().to_string();
        let fake = FakeDiscord::start().await?;
        let clock = Arc::new(TestClock::new(T0));
        let d = Driver::start_with_clock(fake, &url, clock.clone()).await?;
        let text_channel = d.fake.text_channel_id();

        // One game played through the fake to a resignation after two plies.
        let started = d.start_game(0).await?;
        let thread = started.thread.get();
        d.play(&d.alice, thread, "e4").await?;
        d.play(&d.bob, thread, "e5").await?;
        let board = d.boards(thread).pop().unwrap();
        let resign = board
            .custom_ids()
            .into_iter()
            .find(|c| c.starts_with("kb:resign:"))
            .unwrap();
        let confirm = d.click(&d.bob, board.id, &resign).await?;
        let yes = confirm.custom_ids().pop().unwrap();
        d.click(&d.bob, confirm.message_id.unwrap(), &yes).await?;
        d.outbox_delivered().await?;
        let last = d.boards(thread).pop().unwrap();
        let (w, b) = rating::rate(Glicko::START, Glicko::START, Some(Color::White));
        let line = format!(
            "Ratings (Atomic): alice {} (+{}) · bob {} ({})",
            w.display(),
            w.shown() - 1500,
            b.display(),
            b.shown() - 1500
        );
        assert!(last.content().contains(&line), "{}\n{line}", last.content());
        // `/board` and `/pgn` on the finished game, from its thread.
        let r = d.cmd(&d.carol, thread, "board", vec![]).await?;
        let shown = content(&r);
        assert!(
            shown.contains("Game over") && shown.contains(&line),
            "{shown}"
        );
        let r = d.cmd(&d.carol, thread, "pgn", vec![]).await?;
        assert_eq!(content(&r), "Game #1 as PGN:");

        // 59 more finished games of alice, seeded through the services on the bot's database.
        let s = services(d.db.clone(), clock.clone());
        let guild = GuildId(d.fake.guild_id());
        for i in 0..59 {
            let opponent = if i % 3 == 0 { CAROL } else { BOB };
            let id = game_after_two_plies(&s, guild, ALICE, opponent, true, None).await;
            let winner = match i % 4 {
                0 | 1 => Some(Color::White),
                2 => Some(Color::Black),
                _ => None,
            };
            end(&s, id, ALICE.0, opponent.0, winner).await;
            clock.advance(60);
        }
        // And one in progress, bob to move.
        let current = new_game(&s, guild, ALICE, BOB, true, Some(3)).await;
        s.games().play(kaboom_service::PlayRequest::new(current, ALICE.0, "e4")).await.unwrap();

        let r = d.cmd(&d.alice, text_channel, "profile", vec![]).await?;
        let profile = content(&r);
        assert!(
            profile.contains("**alice**") && profile.contains("- Atomic: **"),
            "{profile}"
        );
        assert_eq!(profile, "**alice**\nRatings:\n- Atomic: **1584 · 60 games** · 31W 14D 15L\nLast 10 of 60 finished games (all: `/games finished:true`):\n- #60 Atomic vs bob · lost 0-1 (resignation) · <t:1763703480:d> · 1584 (-22) · game #60\n- #59 Atomic vs carol · won 1-0 (resignation) · <t:1763703420:d> · 1606 (+13) · game #59\n- #58 Atomic vs bob · won 1-0 (resignation) · <t:1763703360:d> · 1593 (+12) · game #58\n- #57 Atomic vs bob · drew 1/2-1/2 (draw by agreement) · <t:1763703300:d> · 1581 (-4) · game #57\n- #56 Atomic vs carol · lost 0-1 (resignation) · <t:1763703240:d> · 1585 (-21) · game #56\n- #55 Atomic vs bob · won 1-0 (resignation) · <t:1763703180:d> · 1606 (+12) · game #55\n- #54 Atomic vs bob · won 1-0 (resignation) · <t:1763703120:d> · 1594 (+14) · game #54\n- #53 Atomic vs carol · drew 1/2-1/2 (draw by agreement) · <t:1763703060:d> · 1580 (-5) · game #53\n- #52 Atomic vs bob · lost 0-1 (resignation) · <t:1763703000:d> · 1585 (-22) · game #52\n- #51 Atomic vs bob · won 1-0 (resignation) · <t:1763702940:d> · 1607 (+13) · game #51\nGames in progress (1):\n- #61 Atomic vs bob · bob to move by <t:1763962740:R> · game #61");
        assert_eq!(
            profile.matches("- #").count(),
            11,
            "10 finished, 1 current: {profile}"
        );
        assert!(
            profile.contains(&format!("#{current} Atomic vs bob · bob to move")),
            "{profile}"
        );
        let alice = rating_of(&d.db, ALICE.0).await.unwrap();
        assert!(
            profile.contains(&format!("{} · 60 games", alice.glicko.display())),
            "{profile}"
        );
        assert!(
            profile.contains(&format!(
                "{}W {}D {}L",
                alice.wins, alice.draws, alice.losses
            )),
            "{profile}"
        );
        let r = d
            .cmd(
                &d.carol,
                text_channel,
                "profile",
                vec![CommandOption::user("user", &d.alice)],
            )
            .await?;
        assert_eq!(
            content(&r),
            profile,
            "the same profile for anyone in the server"
        );

        let r = d
            .cmd(
                &d.bob,
                text_channel,
                "leaderboard",
                vec![CommandOption::integer("variant", 0)],
            )
            .await?;
        let board = content(&r);
        assert!(board.starts_with("**Atomic leaderboard**"), "{board}");
        assert_eq!(board, "**Atomic leaderboard**\n1. alice · 1584 · 60 games\n2. carol · 1505 · 20 games\n3. bob · 1503 · 40 games\nYou: 1503 · 40 games · rank 3 of 3.");
        let top = ratings::top(&d.db, Variant::Atomic, rating::PROVISIONAL_DEVIATION, 10)
            .await
            .unwrap();
        assert!(
            top.iter().any(|r| r.user_id == ALICE.0),
            "60 games settle alice: {top:?}"
        );
        for (i, r) in top.iter().enumerate() {
            let line = format!(
                "{}. {} · {} · {} games",
                i + 1,
                r.name,
                r.glicko.display(),
                r.games
            );
            assert!(board.contains(&line), "{board}\n{line}");
        }
        let (_, provisional) = ratings::counts(&d.db, Variant::Atomic, rating::PROVISIONAL_DEVIATION)
            .await
            .unwrap();
        assert_eq!(board.contains("not listed"), provisional > 0, "{board}");

        let r = d
            .cmd(
                &d.alice,
                text_channel,
                "games",
                vec![CommandOption::boolean("finished", true)],
            )
            .await?;
        let page1 = content(&r);
        assert_eq!(page1, "Finished games of alice (60 in all) · page 1 of 6:\n#60 Atomic vs bob · lost 0-1 (resignation) · <t:1763703480:d> · 1584 (-22) · game #60\n#59 Atomic vs carol · won 1-0 (resignation) · <t:1763703420:d> · 1606 (+13) · game #59\n#58 Atomic vs bob · won 1-0 (resignation) · <t:1763703360:d> · 1593 (+12) · game #58\n#57 Atomic vs bob · drew 1/2-1/2 (draw by agreement) · <t:1763703300:d> · 1581 (-4) · game #57\n#56 Atomic vs carol · lost 0-1 (resignation) · <t:1763703240:d> · 1585 (-21) · game #56\n#55 Atomic vs bob · won 1-0 (resignation) · <t:1763703180:d> · 1606 (+12) · game #55\n#54 Atomic vs bob · won 1-0 (resignation) · <t:1763703120:d> · 1594 (+14) · game #54\n#53 Atomic vs carol · drew 1/2-1/2 (draw by agreement) · <t:1763703060:d> · 1580 (-5) · game #53\n#52 Atomic vs bob · lost 0-1 (resignation) · <t:1763703000:d> · 1585 (-22) · game #52\n#51 Atomic vs bob · won 1-0 (resignation) · <t:1763702940:d> · 1607 (+13) · game #51\nMore: `/games finished:true page:2`.");
        assert_eq!(
            page1.lines().filter(|l| l.starts_with('#')).count(),
            10,
            "{page1}"
        );
        assert_eq!(page1, "Finished games of alice (60 in all) · page 1 of 6:\n#60 Atomic vs bob · lost 0-1 (resignation) · <t:1763703480:d> · 1584 (-22) · game #60\n#59 Atomic vs carol · won 1-0 (resignation) · <t:1763703420:d> · 1606 (+13) · game #59\n#58 Atomic vs bob · won 1-0 (resignation) · <t:1763703360:d> · 1593 (+12) · game #58\n#57 Atomic vs bob · drew 1/2-1/2 (draw by agreement) · <t:1763703300:d> · 1581 (-4) · game #57\n#56 Atomic vs carol · lost 0-1 (resignation) · <t:1763703240:d> · 1585 (-21) · game #56\n#55 Atomic vs bob · won 1-0 (resignation) · <t:1763703180:d> · 1606 (+12) · game #55\n#54 Atomic vs bob · won 1-0 (resignation) · <t:1763703120:d> · 1594 (+14) · game #54\n#53 Atomic vs carol · drew 1/2-1/2 (draw by agreement) · <t:1763703060:d> · 1580 (-5) · game #53\n#52 Atomic vs bob · lost 0-1 (resignation) · <t:1763703000:d> · 1585 (-22) · game #52\n#51 Atomic vs bob · won 1-0 (resignation) · <t:1763702940:d> · 1607 (+13) · game #51\nMore: `/games finished:true page:2`.");
        let r = d
            .cmd(
                &d.alice,
                text_channel,
                "games",
                vec![
                    CommandOption::boolean("finished", true),
                    CommandOption::integer("page", 6),
                ],
            )
            .await?;
        let page6 = content(&r);
        assert_eq!(page6, "Finished games of alice (60 in all) · page 6 of 6:\n#10 Atomic vs bob · won 1-0 (resignation) · <t:1763700480:d> · 1597? (+52) · game #10\n#9 Atomic vs bob · drew 1/2-1/2 (draw by agreement) · <t:1763700420:d> · 1545? (-39) · game #9\n#8 Atomic vs carol · lost 0-1 (resignation) · <t:1763700360:d> · 1584? (-134) · game #8\n#7 Atomic vs bob · won 1-0 (resignation) · <t:1763700300:d> · 1718? (+58) · game #7\n#6 Atomic vs bob · won 1-0 (resignation) · <t:1763700240:d> · 1660? (+149) · game #6\n#5 Atomic vs carol · drew 1/2-1/2 (draw by agreement) · <t:1763700180:d> · 1511? (-53) · game #5\n#4 Atomic vs bob · lost 0-1 (resignation) · <t:1763700120:d> · 1564? (-334) · game #4\n#3 Atomic vs bob · won 1-0 (resignation) · <t:1763700060:d> · 1898? (+39) · game #3\n#2 Atomic vs carol · won 1-0 (resignation) · <t:1763700000:d> · 1859? (+118) · game #2\n#1 Atomic vs bob · won 1-0 (resignation) · <t:1763700000:d> · 1741? (+241) · <#1323802873179406336>");
        // The oldest game (the one played through the fake) is last, with its thread.
        assert!(
            page6.contains(&format!(
                "#{} Atomic vs bob · won 1-0 (resignation)",
                started.game
            )),
            "{page6}"
        );
        assert!(page6.contains(&format!("<#{thread}>")), "{page6}");
        assert!(!page6.contains("page:7"), "{page6}");
        d.stop().await;
        Ok(())
    }
}
