//! Practice games against the bot itself, end to end through the fake Discord:
//! `/play-bot`, the engine's replies as ordinary board posts, its Beirut carriers, and
//! `/challenge` to the bot pointed to `/play-bot`.

use std::time::{Duration, Instant};

use crate::common::wait_for_ply;
use fake_discord::{CommandOption, SimUser};
use kaboom_domain::game::GameState;
use kaboom_domain::ids::GameId;
use kaboom_store::{carriers, engine, games};
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::driver::Driver;
use kaboom_testkit::fixture::{ATOMIC, BEIRUT, TestBot};

// Choice indexes (poise ChoiceParameter: declaration order).
const LEVEL_2: i64 = 1;
const WHITE: i64 = 0;
const BLACK: i64 = 1;

/// alice's `/play-bot` at level 2; returns the game and its thread once the thread exists.
async fn play_bot(d: &Driver, variant: i64, color: i64) -> Result<(GameId, u64), DemoError> {
    let (game, thread, r) = d.play_bot(&d.alice, variant, LEVEL_2, color).await?;
    let text = r.content().unwrap_or_default().to_string();
    assert!(text.contains("level 2 of 5"), "{text}");
    assert!(text.contains("never rated"), "{text}");
    let games = games::active_for(&d.db, d.alice.id.into()).await.unwrap();
    assert_eq!(games.len(), 1, "{games:?}");
    assert_eq!(games[0].id, game);
    Ok((game, thread.get()))
}

kaboom_testkit::dbtest! {
    /// The engine answers each move with a move of its own, posted as a board like a
    /// player's, in an unrated game where the bot is Black.
    #[tokio::test]
    async fn the_bot_answers_every_move_in_a_practice_game() -> Result<(), DemoError> {
        let d = TestBot::start().await?;
        let (game, thread) = play_bot(&d, ATOMIC, WHITE).await?;
        let row = games::get(&d.db, game).await.unwrap().unwrap();
        assert_eq!(u64::from(row.black_id), d.fake.bot_user_id());
        assert!(!row.rated);
        let seat = engine::get(&d.db, game).await.unwrap().unwrap();
        assert_eq!(seat.color, kaboom_rules::Color::Black);
        for (i, action) in ["e4", "Nf3"].iter().enumerate() {
            let r = d.play(&d.alice, thread, action).await?;
            assert!(
                r.content().unwrap_or_default().starts_with("Played"),
                "{r:?}"
            );
            wait_for_ply(&d.db, game, 2 * (i as i64 + 1)).await;
        }
        d.outbox_delivered().await?;
        // The start board, then one board per ply.
        assert_eq!(d.boards(thread).len(), 5, "{:#?}", d.boards(thread));
        let r = d.play(&d.alice, thread, "a3").await?;
        assert!(
            r.content().unwrap_or_default().starts_with("Played"),
            "{r:?}"
        );
        d.driver.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// Beirut with the bot as White: it chooses its own carriers (stored with a commitment,
    /// shown to nobody) and, once alice has chosen, opens the game by itself.
    #[tokio::test]
    async fn the_bot_chooses_its_carriers_and_opens_as_white() -> Result<(), DemoError> {
        let d = TestBot::start().await?;
        let (game, thread) = play_bot(&d, BEIRUT, BLACK).await?;
        let deadline = Instant::now() + Duration::from_secs(20);
        while carriers::all(&d.db, game).await.unwrap().is_empty() {
            assert!(Instant::now() < deadline, "the bot chose no carriers");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let chosen = carriers::all(&d.db, game).await.unwrap();
        assert_eq!(chosen[0].color, kaboom_rules::Color::White);
        let row = games::get(&d.db, game).await.unwrap().unwrap();
        assert_eq!(row.state, GameState::Setup);
        let r = d.choose_carriers_by_dm(&d.alice, game, &["g8"]).await?;
        assert!(r.content().is_some(), "{r:?}");
        let row = wait_for_ply(&d.db, game, 1).await;
        assert_eq!(row.state, GameState::Active);
        d.outbox_delivered().await?;
        // Nothing alice can read names the bot's carriers or their salt while the game goes on.
        let secret = &chosen[0];
        let readable = [
            d.fake.messages_in(d.fake.text_channel_id()),
            d.fake.messages_in(thread),
            d.fake.messages_in(d.fake.dm_channel_for(d.alice.id)),
        ];
        for m in readable.iter().flatten() {
            let text = m.content();
            assert!(!text.contains(&secret.salt), "{m:?}");
            assert!(
                !(text.contains("carrier") && text.contains(&format!("**{}**", secret.squares))),
                "{m:?}"
            );
        }
        d.driver.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// `/challenge` with the bot as the opponent points to `/play-bot` and stores nothing.
    #[tokio::test]
    async fn challenging_the_bot_points_to_play_bot() -> Result<(), DemoError> {
        let d = TestBot::start().await?;
        let bot = SimUser::new(d.fake.bot_user_id(), "kaboom");
        let r = d
            .cmd(
                &d.alice,
                d.fake.text_channel_id(),
                "challenge",
                vec![
                    CommandOption::integer("variant", ATOMIC),
                    CommandOption::user("opponent", &bot),
                ],
            )
            .await?;
        let text = r.content().unwrap_or_default();
        assert_eq!(text, "To play me, use `/play-bot` (choose a variant and a level from 1 to 5). `/challenge` is for playing other people.");
        assert!(d.fake.threads().is_empty());
        d.driver.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// The engine is shared fairly: a player may have 3 practice games going at once (a
    /// fourth is refused privately), and the engine's rounds take the games player by
    /// player (`by_player`: alice's three are one group, bob's one another), one engine
    /// action per player per round.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn practice_games_are_capped_and_the_engine_takes_players_in_turn() -> Result<(), DemoError> {
        let d = TestBot::start().await?;
        for _ in 0..3 {
            d.play_bot(&d.alice, ATOMIC, LEVEL_2, WHITE).await?;
        }
        let fourth = d
            .cmd(
                &d.alice,
                d.fake.text_channel_id(),
                "play-bot",
                vec![CommandOption::integer("variant", ATOMIC), CommandOption::integer("color", WHITE)],
            )
            .await?;
        assert!(fourth.is_ephemeral());
        assert_eq!(
            fourth.content(),
            Some("You already have 3 practice games going, the most one player may have: finish or resign one first, so that everyone gets the engine's time.")
        );
        d.play_bot(&d.bob, ATOMIC, LEVEL_2, WHITE).await?;
        let seats = kaboom_service::engine::by_player(engine::unfinished(&d.db).await?);
        let order: Vec<Vec<i64>> = seats.iter().map(|g| g.iter().map(|s| s.game_id.0).collect()).collect();
        assert_eq!(order, vec![vec![1, 2, 3], vec![4]]);
        d.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// With one player holding 30 practice games that all wait for the engine (a server
    /// that allows 30), another player's reply is not queued behind them: the engine takes
    /// players in turn, least recently served first, so at most the one search already
    /// running (and, while the test looks, the next) of the first player's games comes
    /// before it, about twice a search's time instead of thirty times. The second player's
    /// answer says the engine is busy and about when its reply comes.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_player_with_thirty_waiting_games_does_not_hold_up_another() -> Result<(), DemoError> {
        const LEVEL_5: i64 = 4;
        let d = TestBot::start().await?;
        // 31 games' threads and boards in a few seconds pass Discord's global limit; this
        // test is about the engine's queue, so bob's board is not left waiting out a 429.
        d.fake.set_global_rate_limit(false);
        let set = d
            .cmd(
                &d.carol,
                d.fake.text_channel_id(),
                "settings",
                vec![CommandOption::subcommand("server", vec![CommandOption::integer("practice_games", 30)])],
            )
            .await?;
        assert!(set.content().is_some_and(|t| t.contains("30 practice games")), "{set:?}");
        // alice plays Black: the engine opens each game, so all 30 wait for it.
        let mut hers = Vec::new();
        for _ in 0..30 {
            hers.push(d.play_bot(&d.alice, ATOMIC, LEVEL_5, BLACK).await?.0);
        }
        let (game, thread, _) = d.play_bot(&d.bob, ATOMIC, LEVEL_5, WHITE).await?;
        let plies_of = |games: Vec<GameId>| {
            let db = d.db.clone();
            async move {
                let mut total = 0;
                for g in games {
                    total += games::get(&db, g).await.unwrap().unwrap().ply;
                }
                total
            }
        };
        let asked = Instant::now();
        let answer = d.play(&d.bob, thread, "e3").await?;
        let before = plies_of(hers.clone()).await;
        let text = answer.content().unwrap_or_default().to_string();
        let (first, busy) = text.split_once('\n').unwrap_or((&text, ""));
        assert_eq!(first, format!("Played **e3** in game #{game}."));
        // The estimate is a search's measured time, so its number depends on the machine;
        // before any search ends (a slow machine) it says "after theirs".
        let estimate = busy
            .strip_prefix("The engine is thinking for 1 other player first: its reply comes ")
            .unwrap_or_else(|| panic!("no engine wait in {text:?}"));
        let secs: Option<u64> = estimate
            .strip_prefix("in about ")
            .and_then(|rest| rest.strip_suffix(" s."))
            .and_then(|n| n.parse().ok());
        assert!(
            secs.is_some_and(|s| (1..=60).contains(&s)) || estimate == "after theirs.",
            "{text:?}"
        );
        wait_for_ply(&d.db, game, 2).await;
        let waited = asked.elapsed();
        let after = plies_of(hers.clone()).await;
        assert!(
            after - before <= 2,
            "{} of alice's games were answered before bob's reply",
            after - before
        );
        let waiting = plies_of(hers).await;
        assert!(waiting < 30, "alice's games were not waiting: {waiting} answered");
        println!("bob's reply after {waited:?} (estimated {secs:?} s)");
        d.stop().await;
        Ok(())
    }
}
