//! Replay GIFs through the fake Discord: a finished game's thread gets exactly one replay
//! GIF (after the result), `/replay` posts one on demand with the right view, and every
//! public board of a game has White at the bottom.

use std::time::{Duration, Instant};

use fake_discord::CommandOption;
use kaboom_renderer::{LastAction, Orientation, RenderOptions, render_png};
use kaboom_rules::{AnyGame, GameOptions, Variant, Viewer};
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::driver::Driver;

use kaboom_domain::ids::GameId;
use kaboom_testkit::fixture::{ATOMIC, BEIRUT, TestBot};

type Outcome = Result<(), DemoError>;

/// A challenge from alice (White) to bob, accepted: the thread's id and the game.
async fn start_game(d: &Driver, variant: i64) -> Result<(u64, GameId), DemoError> {
    let posted = d.challenge(variant).await?;
    let started = d.accept(&posted).await?;
    Ok((started.thread.get(), started.game))
}

/// The GIF attachments posted in `thread` (public messages), waiting up to 20 s for at
/// least `want` of them (the replay is its own outbox entry after the result).
async fn thread_gifs(d: &Driver, thread: u64, want: usize) -> Vec<Vec<u8>> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let gifs: Vec<Vec<u8>> = d
            .fake
            .messages_in(thread)
            .into_iter()
            // The bot's own posts (not answers to commands).
            .filter(|m| !m.is_ephemeral() && m.interaction_id.is_none())
            .flat_map(|m| m.attachments.into_iter())
            .filter(|a| a.filename.ends_with(".gif"))
            .map(|a| a.bytes)
            .collect();
        if gifs.len() >= want || Instant::now() > deadline {
            return gifs;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Frames of a GIF, decoded with the `gif` crate (panics on an invalid GIF).
fn gif_frames(bytes: &[u8]) -> usize {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(bytes).expect("a GIF header");
    let mut n = 0;
    while decoder.read_next_frame().expect("a valid frame").is_some() {
        n += 1;
    }
    n
}

/// Atomic's shortest win (the golden image's line): the knight takes on f7 and the
/// blast takes Black's king.
const ATOMIC_WIN: [&str; 5] = ["Nf3", "a6", "f3g5", "a5", "Nxf7"];

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_finished_game_thread_gets_exactly_one_replay_gif() -> Outcome {
        let d = TestBot::start().await?;
        let (thread, _) = start_game(&d, ATOMIC).await?;
        for (i, text) in ATOMIC_WIN.iter().enumerate() {
            let user = if i % 2 == 0 { &d.alice } else { &d.bob };
            let ack = d.play(user, thread, text).await?;
            assert!(ack.content().unwrap().starts_with("Played"), "{ack:?}");
        }
        let gifs = thread_gifs(&d, thread, 1).await;
        assert_eq!(
            gifs.len(),
            1,
            "one replay GIF in the thread, not {}",
            gifs.len()
        );
        // Start, five plies, two blast frames for the explosion on f7; the decoder sees
        // each frame's bands as frames of their own, so at least eight.
        assert!(gif_frames(&gifs[0]) >= 8);
        // It comes after the result's board, in a message of its own.
        let messages = d.fake.messages_in(thread);
        let gif_at = messages
            .iter()
            .position(|m| m.attachments.iter().any(|a| a.filename.ends_with(".gif")))
            .unwrap();
        let result_at = messages
            .iter()
            .position(|m| {
                m.json["content"]
                    .as_str()
                    .unwrap_or("")
                    .contains("Game over")
            })
            .unwrap();
        assert!(result_at < gif_at);
        assert!(
            messages[gif_at].json["content"]
                .as_str()
                .unwrap()
                .starts_with("Replay")
        );
        // Later activity posts no second one (a /replay answer is an interaction response).
        let again = d.cmd(&d.carol, thread, "replay", vec![]).await?;
        assert!(!again.is_ephemeral());
        assert_eq!(again.files.len(), 1);
        assert!(again.files[0].filename.ends_with(".gif"));
        assert!(gif_frames(&again.files[0].bytes) >= 8);
        assert_eq!(thread_gifs(&d, thread, 2).await.len(), 1);
        d.driver.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn public_boards_keep_white_at_the_bottom() -> Outcome {
        let d = TestBot::start().await?;
        let (thread, _) = start_game(&d, ATOMIC).await?;
        d.play(&d.alice, thread, "e4").await?;
        d.play(&d.bob, thread, "d5").await?;
        let boards = d.boards(thread);
        assert_eq!(boards.len(), 3);
        // Each public board equals the renderer's picture with White at the bottom (after
        // White's move, Black is to move: the old code flipped to Black here).
        let mut game = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
        for (board, text) in boards[1..].iter().zip(["e4", "d5"]) {
            game.play(None, text).unwrap();
            let last = game.plies().last().map(LastAction::from_ply);
            let white = RenderOptions {
                orientation: Orientation::White,
                ..RenderOptions::default()
            };
            let expected =
                render_png(&game.board_view(Viewer::Spectator), last.as_ref(), &white).unwrap();
            assert!(
                board.attachments[0].bytes == expected,
                "board after {text} is not White's side"
            );
        }
        d.driver.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn replay_of_a_running_beirut_game_is_the_callers_own_view() -> Outcome {
        let d = TestBot::start().await?;
        let (thread, game) = start_game(&d, BEIRUT).await?;
        d.choose_carriers_by_dm(&d.alice, game, &["g1"]).await?;
        d.choose_carriers_by_dm(&d.bob, game, &["b8"]).await?;
        d.play(&d.alice, thread, "e4").await?;
        // A player's replay of a running game is theirs only, from their side, with their
        // own carrier marked (BE-2).
        let mine = d.cmd(&d.alice, thread, "replay", vec![]).await?;
        assert!(mine.is_ephemeral(), "alice's replay is not ephemeral");
        assert_eq!(mine.files.len(), 1);
        // A spectator's replay of a running game is public and shows no carrier: it equals
        // the renderer's spectator replay.
        let theirs = d.cmd(&d.carol, thread, "replay", vec![]).await?;
        assert!(!theirs.is_ephemeral());
        assert_eq!(theirs.files.len(), 1);
        let mut g = AnyGame::new(Variant::Beirut, GameOptions::default()).unwrap();
        g.designate(kaboom_rules::Color::White, &["g1".parse().unwrap()])
            .unwrap();
        g.designate(kaboom_rules::Color::Black, &["b8".parse().unwrap()])
            .unwrap();
        g.play(None, "e4").unwrap();
        let replay = |viewer| {
            kaboom_renderer::render_replay_gif(
                &g,
                &kaboom_renderer::ReplayOptions {
                    viewer,
                    white_name: Some("alice".into()),
                    black_name: Some("bob".into()),
                    pace: kaboom_renderer::ReplayPace::Fast,
                    ..kaboom_renderer::ReplayOptions::default()
                },
            )
            .unwrap()
        };
        assert!(
            theirs.files[0].bytes == replay(Viewer::Spectator),
            "spectator view"
        );
        assert!(
            mine.files[0].bytes == replay(Viewer::White),
            "alice's own view"
        );
        assert!(mine.files[0].bytes != theirs.files[0].bytes);
        // Someone who may not read the game (a DM, not a player) is refused.
        let dm = d.fake.dm_channel_for(d.carol.id);
        let refused = d
            .cmd(
                &d.carol,
                dm,
                "replay",
                vec![CommandOption::string("game", game.to_string())],
            )
            .await?;
        assert!(refused.files.is_empty(), "a stranger got the replay by DM");
        assert!(refused.is_ephemeral());
        d.driver.stop().await;
        Ok(())
    }
}
