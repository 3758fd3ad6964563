//! Explosion previews through the fake Discord: `/move` of an action that
//! removes pieces answers privately with the position after it and Confirm / Cancel;
//! Confirm plays it once and only while the game is still where it was previewed; Cancel
//! retires it; `/settings me previews:` turns the automatic preview off; a Beirut player's
//! preview never shows what they cannot know.

use fake_discord::{CommandOption, InteractionResponse};
use kaboom_domain::ids::GameId;
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::driver::Driver;
use kaboom_testkit::fixture::{ATOMIC, BEIRUT, TestBot};

type Outcome = Result<(), DemoError>;

/// `/move action:<text>` with the given extra options, unconfirmed.
async fn send_move(
    d: &Driver,
    user: &fake_discord::SimUser,
    thread: u64,
    text: &str,
    preview: Option<bool>,
) -> Result<InteractionResponse, DemoError> {
    let mut options = vec![CommandOption::string("action", text)];
    if let Some(p) = preview {
        options.push(CommandOption::boolean("preview", p));
    }
    d.cmd(user, thread, "move", options).await
}

/// The Confirm and Cancel custom ids of a preview answer.
fn buttons(r: &InteractionResponse) -> (String, String) {
    let ids = r.custom_ids();
    let confirm = ids.iter().find(|i| i.starts_with("kb:pvok:"));
    let cancel = ids.iter().find(|i| i.starts_with("kb:pvno:"));
    match (confirm, cancel) {
        (Some(a), Some(b)) => (a.clone(), b.clone()),
        _ => panic!("no preview buttons: {r:?}"),
    }
}

async fn ply(d: &Driver, game: GameId) -> i64 {
    kaboom_store::games::get(&d.db, game)
        .await
        .unwrap()
        .unwrap()
        .ply
}

fn content(r: &InteractionResponse) -> &str {
    r.content().unwrap_or_default()
}

kaboom_testkit::dbtest! {
    /// Atomic `exd5` removes both pawns: the answer is a private preview (not played yet,
    /// both removals named by side, a picture), and two clicks on Confirm at once play it
    /// exactly once; the second is told it is done.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn confirm_plays_an_explosive_action_exactly_once() -> Outcome {
        let d = TestBot::start().await?;
        let started = d.start_game(ATOMIC).await?;
        let (thread, game) = (started.thread.get(), started.game);
        // Quiet moves are played at once.
        for (user, san) in [(&d.alice, "e4"), (&d.bob, "d5")] {
            let r = send_move(&d, user, thread, san, None).await?;
            assert!(content(&r).starts_with("Played"), "{r:?}");
        }
        let r = send_move(&d, &d.alice, thread, "exd5", None).await?;
        assert!(r.message_ephemeral, "a preview is private: {r:?}");
        assert_eq!(content(&r), "**Preview of exd5** in game #1 (not played yet)\nIt would remove the capturing pawn; Black's pawn d5 (faded on the board).\nPress **Confirm** to play it, or **Cancel**.");
        assert!(r.files.iter().any(|f| f.filename.ends_with(".png")));
        assert_eq!(ply(&d, game).await, 2, "a preview plays nothing");
        let (confirm, _) = buttons(&r);
        let message = r.message_id.expect("the preview message");
        let a = d.fake.click_button(&d.alice, message, &confirm)?;
        let b = d.fake.click_button(&d.alice, message, &confirm)?;
        let (ra, rb) = tokio::join!(d.answer(&a), d.answer(&b));
        let (ra, rb) = (ra?, rb?);
        let texts = [content(&ra), content(&rb)];
        assert_eq!(
            texts
                .iter()
                .filter(|t| t.starts_with("Played **exd5**"))
                .count(),
            1,
            "{texts:?}"
        );
        assert_eq!(
            texts
                .iter()
                .filter(|t| t.contains("exd5 is already played"))
                .count(),
            1,
            "{texts:?}"
        );
        assert!(ra.custom_ids().is_empty() && rb.custom_ids().is_empty());
        // The previewed picture goes too: the message now only says what was played.
        let answered = d.fake.message(message).expect("the preview message");
        assert!(answered.attachments.is_empty(), "{:?}", answered.attachments);
        assert_eq!(ply(&d, game).await, 3);
        d.outbox_delivered().await?;
        assert_eq!(
            d.boards(thread).len(),
            4,
            "start and three plies, once each"
        );
        // Carol cannot press alice's buttons (a forged click): refused, nothing played.
        let r = d.click(&d.carol, message, &confirm).await?;
        assert_eq!(content(&r), "This preview is someone else's: use /move to see your own.");
        d.driver.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// A preview made before the game moved on never applies, even when its action is still
    /// legal: Confirm answers with the position now.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_stale_preview_is_refused() -> Outcome {
        let d = TestBot::start().await?;
        let started = d.start_game(ATOMIC).await?;
        let (thread, game) = (started.thread.get(), started.game);
        d.play(&d.alice, thread, "e4").await?;
        d.play(&d.bob, thread, "d5").await?;
        let r = send_move(&d, &d.alice, thread, "exd5", None).await?;
        let (confirm, _) = buttons(&r);
        // Alice plays something else instead, bob answers: exd5 is legal again.
        let r2 = send_move(&d, &d.alice, thread, "Nf3", Some(false)).await?;
        assert!(content(&r2).starts_with("Played"), "{r2:?}");
        d.play(&d.bob, thread, "Nc6").await?;
        assert_eq!(ply(&d, game).await, 4);
        let stale = d.click(&d.alice, r.message_id.unwrap(), &confirm).await?;
        assert_eq!(content(&stale), "The game moved on since this preview, so it was not played; here is the position now.\n**Atomic** · alice (White) vs bob (Black) · game #1\n1. e4 d5 2. Nf3 **2... Nc6** by bob\n<@1001> (White) to move · deadline <t:1763959200:f> (<t:1763959200:R>)");
        assert!(stale.custom_ids().is_empty(), "buttons removed");
        assert_eq!(ply(&d, game).await, 4, "the stale preview did not play");
        d.driver.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// Cancel retires a preview: its buttons go, and a later Confirm plays nothing.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn cancel_retires_a_preview() -> Outcome {
        let d = TestBot::start().await?;
        let started = d.start_game(ATOMIC).await?;
        let (thread, game) = (started.thread.get(), started.game);
        d.play(&d.alice, thread, "e4").await?;
        d.play(&d.bob, thread, "d5").await?;
        let r = send_move(&d, &d.alice, thread, "exd5", None).await?;
        let (confirm, cancel) = buttons(&r);
        let message = r.message_id.unwrap();
        let c = d.click(&d.alice, message, &cancel).await?;
        assert!(content(&c).starts_with("Cancelled"), "{c:?}");
        assert!(c.custom_ids().is_empty(), "buttons removed: {c:?}");
        let late = d.click(&d.alice, message, &confirm).await?;
        assert_eq!(content(&late), "This preview was cancelled: nothing was played. Use /move to choose again.");
        assert_eq!(ply(&d, game).await, 2);
        d.driver.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// With `/settings me previews:only when asked`, explosive actions play at once; a
    /// preview still comes with `preview:True`, even for a quiet move.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_setting_turns_automatic_previews_off() -> Outcome {
        let d = TestBot::start().await?;
        let started = d.start_game(ATOMIC).await?;
        let thread = started.thread.get();
        let set = d
            .cmd(
                &d.alice,
                thread,
                "settings",
                vec![CommandOption::subcommand(
                    "me",
                    vec![CommandOption::integer("previews", 1)],
                )],
            )
            .await?;
        assert_eq!(content(&set), "Reminders to move are on, by DM (a mention in the game's thread if the DM fails). Turn them off with `/settings me nudges:False`.\nExplosion previews: only when asked with `/move ... preview:True`. Always: `/settings me previews:always`.");
        let asked = send_move(&d, &d.alice, thread, "e4", Some(true)).await?;
        assert_eq!(content(&asked), "**Preview of e4** in game #1 (not played yet)\nIt removes nothing.\nPress **Confirm** to play it, or **Cancel**.");
        buttons(&asked);
        d.play(&d.alice, thread, "e4").await?;
        d.play(&d.bob, thread, "d5").await?;
        let r = send_move(&d, &d.alice, thread, "exd5", None).await?;
        assert!(content(&r).starts_with("Played **exd5**"), "{r:?}");
        assert!(r.custom_ids().is_empty());
        // Bob kept the default.
        d.play(&d.bob, thread, "Qxd5").await?;
        d.driver.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// Beirut with Dead Man's Switch: bob's d-pawn carries his bomb. Alice's preview of
    /// `exd5` is computed on her view: it shows a plain capture (she cannot know of the
    /// carrier), while playing it sets the bomb off.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_beirut_preview_keeps_the_opponents_carriers_hidden() -> Outcome {
        let d = TestBot::start().await?;
        let channel = d.fake.text_channel_id();
        let posted = d
            .cmd(
                &d.alice,
                channel,
                "challenge",
                vec![
                    CommandOption::integer("variant", BEIRUT),
                    CommandOption::user("opponent", &d.bob),
                    CommandOption::integer("color", 0),
                    CommandOption::boolean("dead_mans_switch", true),
                ],
            )
            .await?;
        let started = d.accept(&posted).await?;
        let (thread, game) = (started.thread.get(), started.game);
        d.choose_carriers_by_dm(&d.alice, game, &["g1"]).await?;
        d.choose_carriers_by_dm(&d.bob, game, &["d7"]).await?;
        d.play(&d.alice, thread, "e4").await?;
        d.play(&d.bob, thread, "d5").await?;
        let r = send_move(&d, &d.alice, thread, "exd5", None).await?;
        assert_eq!(content(&r), "**Preview of exd5** in game #1 (not played yet)\nIt would remove Black's pawn d5 (faded on the board).\nPress **Confirm** to play it, or **Cancel**.");
        assert!(!content(&r).contains("d7") && !content(&r).to_lowercase().contains("carrier"));
        let played = d.confirm_preview(&d.alice, r).await?;
        assert!(content(&played).starts_with("Played"), "{played:?}");
        d.outbox_delivered().await?;
        let boards = d.boards(thread);
        let last = boards.last().unwrap().content();
        assert!(
            last.contains("the capturing pawn") || last.contains("pawns"),
            "the carrier did explode: {last}"
        );
        d.driver.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// Previews nobody confirms stay bounded: a player keeps their 5 latest pending ones
    /// (a click on an older one is told it is no longer kept), and every preview is
    /// dropped after 15 minutes, whoever made it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn unconfirmed_previews_are_bounded_per_player_and_in_time() -> Outcome {
        let d = TestBot::start().await?;
        let started = d.start_game(ATOMIC).await?;
        let thread = started.thread.get();
        d.play(&d.alice, thread, "e4").await?;
        d.play(&d.bob, thread, "d5").await?;
        let mut asked = Vec::new();
        for _ in 0..8 {
            let r = send_move(&d, &d.alice, thread, "exd5", Some(true)).await?;
            asked.push((r.message_id.unwrap(), buttons(&r).0));
        }
        let rows = |db: kaboom_store::Db| async move {
            let (n,): (i64,) = kaboom_store::sql::query("SELECT COUNT(*) FROM move_previews")
                .fetch_one(&db)
                .await
                .unwrap();
            n
        };
        assert_eq!(rows(d.db.clone()).await, 5);
        let (message, confirm) = &asked[0];
        let gone = d.click(&d.alice, *message, confirm).await?;
        assert_eq!(content(&gone), "This preview is no longer kept (previews last 15 minutes, and I keep your 5 latest): nothing was played. Use /move to see it again.");
        assert_eq!(ply(&d, started.game).await, 2, "nothing was played");
        // 16 minutes later, the next preview drops every older one.
        d.clock.advance(16 * 60);
        send_move(&d, &d.alice, thread, "exd5", Some(true)).await?;
        assert_eq!(rows(d.db.clone()).await, 1);
        d.driver.stop().await;
        Ok(())
    }
}

/// A new Atomic game in a server, `white` against `black`, with 1. e4 d5 played: White's
/// `exd5` then removes both pawns (an action the automatic preview shows).
async fn before_exd5(
    s: &kaboom_service::Services,
    white: (kaboom_domain::ids::UserId, &str),
    black: (kaboom_domain::ids::UserId, &str),
) -> GameId {
    let c = s
        .challenges()
        .create(kaboom_store::challenges::NewChallenge {
            guild_id: Some(kaboom_domain::ids::GuildId(9)),
            channel_id: kaboom_domain::ids::ChannelId(10),
            challenger_id: white.0,
            challenger_name: white.1.into(),
            opponent_id: Some(black.0),
            variant: kaboom_rules::Variant::Atomic,
            options: kaboom_rules::GameOptions::default(),
            days_per_move: Some(3),
            color: kaboom_store::challenges::ColorChoice::White,
            rated: false,
            venue: kaboom_store::challenges::Venue::Thread,
        })
        .await
        .unwrap();
    let id = s
        .challenges()
        .accept(c.id, black.0, black.1)
        .await
        .unwrap()
        .row
        .id;
    for (player, action) in [(white.0, "e4"), (black.0, "d5")] {
        s.games()
            .play(kaboom_service::PlayRequest::new(id, player, action))
            .await
            .unwrap();
    }
    id
}

/// `exd5` by `white` in game `id` as `/move` without its `preview` option asks for it
/// (the player's setting, read with the game): whether it was previewed.
async fn previewed_by_setting(
    s: &kaboom_service::Services,
    id: GameId,
    white: kaboom_domain::ids::UserId,
) -> bool {
    use kaboom_service::preview::{PlayedOrPreviewed, PreviewFirst};
    match s
        .games()
        .play_or_preview(
            kaboom_service::PlayRequest::new(id, white, "exd5"),
            PreviewFirst::BySetting,
        )
        .await
        .unwrap()
    {
        PlayedOrPreviewed::Previewed(_) => true,
        PlayedOrPreviewed::Played(_) => false,
    }
}

kaboom_testkit::dbtest! {
    /// Guards the default explosion preview, read in the same statement as the game: a
    /// player's explosive action is previewed in their first three finished games of the
    /// variant and played at once after them, counting the games they played with either
    /// colour and only their own; `/settings me previews:always` previews it again.
    #[tokio::test]
    async fn the_default_preview_ends_after_three_finished_games_of_the_variant() {
        use kaboom_domain::ids::UserId;
        let (db, _dir) = kaboom_testkit::temp_db().await;
        let clock = std::sync::Arc::new(kaboom_testkit::clock::TestClock::new(
            kaboom_testkit::fixture::T0,
        ));
        let s = kaboom_service::Services::new(
            db,
            clock,
            std::sync::Arc::new(kaboom_testkit::painter::PlainPainter),
        );
        let alice = (UserId(1001), "alice");
        let bob = (UserId(1002), "bob");
        let carol = (UserId(1003), "carol");
        let first = before_exd5(&s, alice, bob).await;
        assert!(previewed_by_setting(&s, first, alice.0).await);
        // Three finished Atomic games of alice: two as White, one as Black.
        for (white, black) in [(alice, carol), (carol, alice), (alice, carol)] {
            let id = before_exd5(&s, white, black).await;
            // Running games do not count: still previewed with 0, 1 and 2 finished.
            assert!(previewed_by_setting(&s, first, alice.0).await);
            s.games().resign(id, carol.0).await.unwrap();
        }
        // Three finished: played at once.
        assert!(!previewed_by_setting(&s, first, alice.0).await);
        // Bob finished none: his capture in a game of his own is still previewed.
        let bobs = before_exd5(&s, bob, alice).await;
        assert!(previewed_by_setting(&s, bobs, bob.0).await);
        // Always: previewed again.
        s.previews()
            .set_mode(alice.0, kaboom_domain::settings::PreviewMode::Always)
            .await
            .unwrap();
        let fourth = before_exd5(&s, alice, bob).await;
        assert!(previewed_by_setting(&s, fourth, alice.0).await);
    }
}
