//! Post-game analysis through the fake Discord: `/analysis` on a finished game posts its
//! progress (edited in place) and then the result in the game's thread; a running game
//! (here Beirut, whose carriers are secret) is refused; `/moves` lists the moves.

use std::sync::Arc;
use std::time::{Duration, Instant};

use kaboom_discord::messages::analysis as words;
use kaboom_engine::review::{Mark, ReviewBudget, review_game};
use kaboom_rules::{AnyGame, GameOptions, Variant};
use kaboom_service::Services;
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::fixture::{ATOMIC, BEIRUT, TestBot};
use kaboom_testkit::painter::PlainPainter;

type Outcome = Result<(), DemoError>;

/// Nodes per position in these tests: enough to see a king exploded in one, fast in a
/// debug build.
const NODES: u64 = 3_000;

/// Atomic's shortest win: after 1... a6?? the knight comes to g5 and Black cannot stop it
/// taking on f7, whose blast takes Black's king.
const ATOMIC_WIN: [&str; 5] = ["Nf3", "a6", "f3g5", "a5", "Nxf7"];

async fn bot() -> Result<TestBot, DemoError> {
    TestBot::start_with(|db, clock| {
        Services::new(db, clock, Arc::new(PlainPainter)).with_analysis_nodes(Some(NODES))
    })
    .await
}

/// The bot's own posts in `thread` (not answers to commands), oldest first, waiting up to
/// 30 s until `done` holds for them.
async fn posts_until(
    d: &TestBot,
    thread: u64,
    done: impl Fn(&[fake_discord::FakeMessage]) -> bool,
) -> Vec<fake_discord::FakeMessage> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let posts: Vec<_> = d
            .fake
            .messages_in(thread)
            .into_iter()
            .filter(|m| !m.is_ephemeral() && m.interaction_id.is_none())
            .collect();
        if done(&posts) || Instant::now() > deadline {
            return posts;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

kaboom_testkit::dbtest! {
    /// The whole flow: the result post equals the wording of the review the engine makes of
    /// the same game at the same budget (so storage, the worker and the outbox lose
    /// nothing), 1... a6 is marked a blunder, the progress post went 0 → 5 of 5 plies in
    /// place, the annotated PGN is attached, and asking again answers "already analysed".
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_finished_game_is_analysed_in_its_thread() -> Outcome {
        let d = bot().await?;
        let started = d.start_game(ATOMIC).await?;
        let thread = started.thread.get();
        for (i, text) in ATOMIC_WIN.iter().enumerate() {
            let user = if i % 2 == 0 { &d.alice } else { &d.bob };
            d.play(user, thread, text).await?;
        }
        d.outbox_delivered().await?;
        let asked = d.cmd(&d.carol, thread, "analysis", vec![]).await?;
        assert!(asked.is_ephemeral());
        let id = started.game;
        assert_eq!(
            asked.content(),
            Some(format!("Analysing game #{id}: its progress and then the result are posted in the game's thread.").as_str())
        );
        // The result's entry is delivered once it is posted and the progress post edited.
        let done = format!("**Analysis of game #{id}** · done: 5 of 5 plies. The result follows.");
        let posts = posts_until(&d, thread, |posts| {
            posts.iter().any(|m| m.attachments.iter().any(|a| a.filename.ends_with(".pgn")))
                && posts.iter().any(|m| m.content() == done)
        })
        .await;
        let progress = posts
            .iter()
            .find(|m| m.content().starts_with(&format!("**Analysis of game #{id}** · ")))
            .ok_or_else(|| DemoError::Step("no progress post".into()))?;
        let versions: Vec<&str> = progress
            .versions()
            .map(|v| v["content"].as_str().unwrap_or_default())
            .collect();
        assert_eq!(
            versions.first().copied(),
            Some(format!("**Analysis of game #{id}** · analysing: 0 of 5 plies (about a minute per 80 plies). The result will be posted here.").as_str())
        );
        assert_eq!(
            progress.content(),
            format!("**Analysis of game #{id}** · done: 5 of 5 plies. The result follows.")
        );

        // The same review, computed here.
        let mut game = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
        for text in ATOMIC_WIN {
            game.play(None, text).unwrap();
        }
        let review = review_game(&game, ReviewBudget::nodes(NODES), |_| {}).unwrap();
        assert_eq!(review.plies[1].san, "a6");
        assert_eq!(review.plies[1].mark, Some(Mark::Blunder));
        let row = kaboom_store::games::get(&d.db, id)
            .await
            .map_err(|e| DemoError::Step(e.to_string()))?
            .unwrap();
        let result = posts
            .iter()
            .find(|m| m.attachments.iter().any(|a| a.filename.ends_with(".pgn")))
            .unwrap();
        assert_eq!(result.content(), words::result(&row, &review));
        assert!(
            result.content().contains("\n1... a6?? "),
            "{}",
            result.content()
        );
        let pgn = result
            .attachments
            .iter()
            .find(|a| a.filename == format!("game-{id}-analysis.pgn"))
            .unwrap();
        let pgn = String::from_utf8(pgn.bytes.clone()).unwrap();
        assert!(pgn.contains(&format!("[Annotator \"Kaboom engine, {NODES} positions per move\"]")), "{pgn}");
        assert!(pgn.contains(" a6 $4 "), "{pgn}");
        // The chart and the key moments' boards (the blunder's among them), as pictures.
        let names: Vec<&str> = result.attachments.iter().map(|a| a.filename.as_str()).collect();
        assert_eq!(names.first(), Some(&format!("game-{id}-chart.png").as_str()));
        assert!(names.contains(&format!("game-{id}-ply-2.png").as_str()), "{names:?}");
        assert_eq!(names.last(), Some(&format!("game-{id}-analysis.pgn").as_str()));
        let (width, height, _) = crate::common::decode_png(&result.attachments[0].bytes);
        assert_eq!((width, height), (800, 300));
        // After the result post (which comes after the progress post).
        let at = |m: &fake_discord::FakeMessage| posts.iter().position(|p| p.id == m.id);
        assert!(at(progress) < at(result));

        let again = d.cmd(&d.alice, thread, "analysis", vec![]).await?;
        assert_eq!(
            again.content(),
            Some(format!("Game #{id} is already analysed: the result is in its thread.").as_str())
        );
        d.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// Hidden information (BE-2): a running Beirut game is never analysed, for a player or
    /// anyone else, and nothing is queued; `/moves` lists its moves as everyone sees them.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_running_game_is_refused_and_moves_are_listed() -> Outcome {
        let d = bot().await?;
        let started = d.start_game(BEIRUT).await?;
        let (id, thread) = (started.game, started.thread.get());
        d.choose_carriers_by_dm(&d.alice, id, &["d1"]).await?;
        d.choose_carriers_by_dm(&d.bob, id, &["d8"]).await?;
        d.play(&d.alice, thread, "e4").await?;
        d.play(&d.bob, thread, "e5").await?;
        d.play(&d.alice, thread, "Nf3").await?;
        for user in [&d.alice, &d.carol] {
            let refused = d.cmd(user, thread, "analysis", vec![]).await?;
            assert!(refused.is_ephemeral());
            assert_eq!(
                refused.content(),
                Some(format!("Game #{id} is still being played: it can be analysed once it is over (nobody gets engine help during a game).").as_str())
            );
        }
        let queued = kaboom_store::analyses::get(&d.db, id)
            .await
            .map_err(|e| DemoError::Step(e.to_string()))?;
        assert_eq!(queued, None, "nothing is queued for a running game");
        let moves = d.cmd(&d.carol, thread, "moves", vec![]).await?;
        assert!(moves.is_ephemeral());
        assert_eq!(
            moves.content(),
            Some(format!("**Game #{id}** · Beirut · alice (White) vs bob (Black) · 3 plies\n1. e4 e5 2. Nf3").as_str())
        );
        d.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// Analyses are taken player by player: with alice's two requests queued before bob's
    /// one, the worker's claims go alice's first, then bob's, then alice's second, so one
    /// player's many requests never hold up another player's one.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn analyses_are_claimed_player_by_player() -> Outcome {
        let d = bot().await?;
        let mut games = Vec::new();
        for _ in 0..3 {
            games.push(d.start_game(ATOMIC).await?.game);
        }
        let TestBot { driver, database, .. } = d;
        // No worker runs while the queue is built and claimed by hand.
        driver.halt().await;
        let db = kaboom_store::Db::connect(database.url()).await?;
        let (alice, bob) = (kaboom_domain::ids::UserId(1001), kaboom_domain::ids::UserId(1002));
        let mut tx = db.begin_write().await?;
        for (at, (game, by)) in games.iter().zip([alice, alice, bob]).enumerate() {
            kaboom_store::analyses::insert(&mut tx, *game, by, 1_000, 10, at as i64).await?;
        }
        tx.commit().await.map_err(kaboom_store::StorageError::from)?;
        let mut order = Vec::new();
        while let Some(row) = kaboom_store::analyses::claim(&db, 100, 0).await? {
            order.push(row.game_id);
        }
        assert_eq!(order, vec![games[0], games[2], games[1]]);
        db.close().await;
        Ok(())
    }
}
