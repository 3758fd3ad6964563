//! Play anywhere: a game started where the bot is not a member (a group DM, with the app
//! installed to a player's account) is played by DM. The fake refuses every post of the
//! bot in the group DM (403 / 50001), so these tests prove that the game reaches its players
//! through interaction answers there and through their DMs with the bot.

use fake_discord::{CommandOption, FakeError, ResponseKind};
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::driver::{Driver, WAIT, accept_button};
use kaboom_testkit::fixture::{ATOMIC, TestBot};

type Outcome = Result<(), DemoError>;

/// Every response the fake recorded for interaction `id`, once there are `count` of them.
async fn responses(
    d: &Driver,
    id: u64,
    count: usize,
) -> Result<Vec<fake_discord::InteractionResponse>, DemoError> {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let all = d.fake.interaction_responses(id);
        if all.len() >= count || tokio::time::Instant::now() >= deadline {
            return Ok(all);
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// The contents of the bot's messages in `user`'s DM with it.
fn dm_texts(d: &Driver, user: u64) -> Vec<String> {
    d.fake
        .messages_in(d.fake.dm_channel_for(user))
        .iter()
        .map(|m| m.content().to_string())
        .collect()
}

kaboom_testkit::dbtest! {
    /// A whole Atomic game in a group DM where only alice installed the app: the server
    /// commands are not offered there, the challenge and the game's message are the
    /// answers to alice's command and bob's click, each board goes to both players' DMs,
    /// moves work from the group DM (a public board follow-up) and from a player's DM
    /// with the bot, and the bot never posts in the group DM on its own.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_atomic_game_in_a_group_dm_is_played_by_dm() -> Outcome {
        let d = TestBot::start().await?;
        d.fake.install_for_user(d.alice.id);
        let group = d.fake.add_group_dm(&[&d.alice, &d.bob, &d.carol]);
        assert!(matches!(
            d.fake.slash_command(&d.alice, group, "league", vec![]),
            Err(FakeError::CommandNotOffered { context: 2, .. })
        ));
        assert!(matches!(
            d.fake.slash_command(&d.bob, group, "challenge", vec![]),
            Err(FakeError::NotInstalledHere { .. })
        ));
        let posted = d.challenge_in(group, ATOMIC, vec![]).await?;
        assert!(!posted.is_ephemeral());
        let text = posted.content().unwrap();
        assert!(
            text.ends_with("\nThe game is played by DM: I send each player the boards, turn notices and reminders in their DM with me."),
            "{text}"
        );
        let message = posted.message_id.unwrap();
        let accept = accept_button(&posted).unwrap();
        // bob has not installed the app, yet its buttons work for him in the group DM.
        let click = d.fake.click_button(&d.bob, message, &accept)?;
        let answers = responses(&d, click.id, 3).await?;
        let kinds: Vec<_> = answers.iter().map(|r| r.kind).collect();
        assert_eq!(
            kinds,
            [
                ResponseKind::Callback { callback_type: 6 },
                ResponseKind::EditOriginal,
                ResponseKind::Followup
            ]
        );
        assert_eq!(answers[2].content(), Some("Game on! Game #1 is played by DM: your boards come in your DM with me."));
        assert!(answers[2].is_ephemeral());
        let game_message = d.fake.message(message).unwrap();
        assert!(game_message.content().ends_with("\nAccepted by <@1002>: game #1 is played by DM. You each get the boards and reminders in your DM with me; move with `/move` there or here."), "{}", game_message.content());
        assert_eq!(game_message.attachments.len(), 1, "the first board");
        assert!(d.fake.threads().is_empty(), "no thread");
        let first = "**Atomic** · alice (White) vs bob (Black) · game #1\n<@1001> (White) to move · deadline <t:1763959200:f> (<t:1763959200:R>)";
        for user in [d.alice.id, d.bob.id] {
            let texts = d.fake.wait_for_messages_in(d.fake.dm_channel_for(user), 1, WAIT).await?;
            assert_eq!(texts[0].content(), first);
        }

        // alice moves in the group DM: a private acknowledgement, then the board for all.
        let sent = d.fake.slash_command(&d.alice, group, "move", vec![CommandOption::string("action", "Nf3")])?;
        let answers = responses(&d, sent.id, 3).await?;
        assert_eq!(answers[1].content(), Some("Played **Nf3** in game #1. Your opponent gets the board in their DM."));
        assert!(answers[1].is_ephemeral());
        assert!(!answers[2].is_ephemeral());
        assert_eq!(answers[2].files.len(), 1);
        assert_eq!(answers[2].content(), Some("**Atomic** · alice (White) vs bob (Black) · game #1\n**1. Nf3** by alice\n<@1002> (Black) to move · deadline <t:1763959200:f> (<t:1763959200:R>)"));
        // bob answers from his DM with the bot; alice goes on in the group DM.
        let bob_dm = d.fake.dm_channel_for(d.bob.id);
        let ack = d.play(&d.bob, bob_dm, "a6").await?;
        assert_eq!(ack.content(), Some("Played **a6** in game #1. Your opponent gets the board in their DM."));
        for (user, channel, text) in [(&d.alice, group, "f3g5"), (&d.bob, bob_dm, "a5")] {
            let r = d.play(user, channel, text).await?;
            assert!(r.content().unwrap_or_default().starts_with("Played"), "{r:?}");
        }
        let r = d.play(&d.alice, group, "Nxf7").await?;
        assert!(r.content().unwrap_or_default().starts_with("Played"), "{r:?}");
        // Confirmed from its explosion preview: the click's answers end with the board.
        let answers = responses(&d, r.interaction_id, 3).await?;
        assert_eq!(answers.len(), 3, "{answers:?}");
        d.outbox_delivered().await?;
        // Each player's DM has the first board, a turn notice with the board for each of
        // their turns (not the boards of their own moves) and the final board.
        for user in [d.alice.id, d.bob.id] {
            let texts = dm_texts(&d, user);
            let boards: Vec<&String> = texts.iter().filter(|t| t.starts_with("**Atomic**")).collect();
            assert_eq!(boards.len(), 4, "{texts:#?}");
            assert!(boards[3].contains("Game over: **1-0** · alice (White) wins by king exploded"), "{}", boards[3]);
        }
        // The mate, confirmed from its explosion preview in the group DM, is shown there too.
        let last_here = d.fake.messages_in(group).into_iter().rev().find(|m| !m.is_ephemeral()).unwrap();
        assert!(last_here.content().contains("Game over: **1-0**"), "{}", last_here.content());
        // The bot never sent a request about the group DM itself.
        let about_group = format!("/channels/{group}");
        assert!(
            d.fake.requests().iter().all(|r| !r.path.contains(&about_group)),
            "the bot called a route of the group DM"
        );
        d.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// What happens with nobody interacting reaches a game played by DM through the
    /// players' DMs: the reminder at half of the mover's time, then the time forfeit and
    /// the replay, each in both players' DMs; nothing is ever sent to the group DM where
    /// the game started (the fake would refuse it with 50001).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_reminder_and_a_time_forfeit_go_by_dm() {
        use kaboom_domain::ids::{ChannelId, UserId};
        use kaboom_service::scheduler::SchedulerConfig;
        use kaboom_store::challenges::{ColorChoice, NewChallenge, Venue};
        use kaboom_testkit::clock::TestClock;
        use std::sync::Arc;
        const HOUR: i64 = 3600;
        let fake = fake_discord::FakeDiscord::start().await.expect("fake starts");
        let http = Arc::new(fake_discord::http(&fake.url(), fake_discord::FAKE_TOKEN));
        let (db, _dir) = kaboom_testkit::temp_db().await;
        let clock = Arc::new(TestClock::new(1_700_000_000));
        let services = kaboom_service::Services::new(
            db.clone(),
            clock.clone(),
            Arc::new(kaboom_testkit::painter::PlainPainter),
        );
        let (scheduler, _outbox) = kaboom_testkit::discord_scheduler(
            &services,
            clock.clone(),
            http.clone(),
            SchedulerConfig::default(),
        );
        let alice = fake_discord::SimUser::new(1001, "alice");
        let bob = fake_discord::SimUser::new(1002, "bob");
        let group = fake.add_group_dm(&[&alice, &bob]);
        let spec = NewChallenge {
            guild_id: None,
            channel_id: ChannelId(group),
            challenger_id: UserId(1001),
            challenger_name: "alice".into(),
            opponent_id: Some(UserId(1002)),
            variant: kaboom_rules::Variant::Atomic,
            options: kaboom_rules::GameOptions::default(),
            days_per_move: Some(1),
            color: ColorChoice::White,
            rated: false,
            venue: Venue::Direct,
        };
        let c = services.challenges().create(spec).await.unwrap();
        let id = services
            .challenges()
            .accept(c.id, UserId(1002), "bob")
            .await
            .unwrap()
            .row
            .id;
        let sweep = || async {
            let r = scheduler.sweep().await.unwrap();
            assert!(
                kaboom_testkit::wait_for_outbox(&db, std::time::Duration::from_secs(20)).await,
                "posted"
            );
            r
        };
        let dm = |user: u64| -> Vec<String> {
            fake.messages_in(fake.dm_channel_for(user))
                .iter()
                .map(|m| m.content().to_string())
                .collect()
        };
        clock.advance(12 * HOUR);
        sweep().await;
        let reminders: Vec<String> = dm(1001)
            .into_iter()
            .filter(|t| t.starts_with("Your move"))
            .collect();
        assert_eq!(reminders, ["Your move in game #1 (Atomic against bob): you have used 50% of your time; the deadline is <t:1700086400:R>. https://discord.com/channels/@me/1323802873049382912\nFrom any channel: `/move game:1 action:...`"]);
        services
            .games()
            .play(kaboom_service::PlayRequest::new(id, UserId(1001), "e4"))
            .await
            .unwrap();
        clock.advance(24 * HOUR);
        sweep().await;
        sweep().await;
        for user in [1001, 1002] {
            let texts = dm(user);
            let ended: Vec<&String> = texts.iter().filter(|t| t.starts_with("Time is up")).collect();
            assert_eq!(ended, ["Time is up in game #1: bob (Black) did not move by the deadline. alice (White) wins on time, 1-0. <@1001> <@1002>"], "{texts:?}");
            let gifs = fake
                .messages_in(fake.dm_channel_for(user))
                .iter()
                .filter(|m| m.attachments.iter().any(|a| a.filename.ends_with(".gif")))
                .count();
            assert_eq!(gifs, 1, "the replay, once");
        }
        assert!(fake.messages_in(group).is_empty());
        let about_group = format!("/channels/{group}");
        assert!(fake.requests().iter().all(|r| !r.path.contains(&about_group)));
    }
}

kaboom_testkit::dbtest! {
    /// A Beirut game in a group DM: the carrier menus reach both players by DM, their
    /// choices are confirmed privately, and the game goes on by `/move`; the carriers are
    /// never shown in the group DM.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_beirut_game_in_a_group_dm_takes_its_carriers_by_dm() -> Outcome {
        let d = TestBot::start().await?;
        d.fake.install_for_user(d.alice.id);
        let group = d.fake.add_group_dm(&[&d.alice, &d.bob]);
        let posted = d.challenge_in(group, kaboom_testkit::fixture::BEIRUT, vec![]).await?;
        let message = posted.message_id.unwrap();
        let accept = accept_button(&posted).unwrap();
        let click = d.fake.click_button(&d.bob, message, &accept)?;
        responses(&d, click.id, 3).await?;
        let game_message = d.fake.message(message).unwrap();
        assert_eq!(
            game_message.custom_ids(),
            ["kb:resign:1", "kb:draw:1", "kb:view:1", "kb:fair:1", "kb:choose:1"]
        );
        let game = kaboom_domain::ids::GameId(1);
        let r = d.choose_carriers_by_dm(&d.alice, game, &["g1"]).await?;
        assert!(r.is_ephemeral());
        let r = d.choose_carriers_by_dm(&d.bob, game, &["g8"]).await?;
        assert!(r.is_ephemeral());
        let r = d.play(&d.alice, group, "e4").await?;
        assert!(r.content().unwrap_or_default().starts_with("Played"), "{r:?}");
        let bob_dm = d.fake.dm_channel_for(d.bob.id);
        let r = d.play(&d.bob, bob_dm, "e5").await?;
        assert!(r.content().unwrap_or_default().starts_with("Played"), "{r:?}");
        d.outbox_delivered().await?;
        // Nothing the group DM shows names a carrier.
        for m in d.fake.messages_in(group) {
            for version in m.versions() {
                let text = version["content"].as_str().unwrap_or_default();
                assert!(!text.contains("g1") && !text.contains("g8"), "{text}");
            }
        }
        d.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// A server that never added the bot (only the players installed the app): a
    /// challenge in its channel is played by DM as in a group DM; no thread is opened and
    /// the bot never sends a request about the server's channel (the fake would refuse it
    /// with 50001).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_server_without_the_bot_plays_by_dm() -> Outcome {
        let d = TestBot::start().await?;
        let channel = d.fake.text_channel_id();
        d.fake.remove_bot_from_guild(d.fake.guild_id())?;
        // They share no server with the bot now: their installs let it DM them.
        d.fake.install_for_user(d.alice.id);
        d.fake.install_for_user(d.bob.id);
        let requests_before = d.fake.requests().len();
        let posted = d.challenge_in(channel, ATOMIC, vec![]).await?;
        assert!(
            posted.content().unwrap_or_default().ends_with(kaboom_discord::messages::direct::PLAYED_BY_DM),
            "{posted:?}"
        );
        let accept = accept_button(&posted).unwrap();
        let click = d.fake.click_button(&d.bob, posted.message_id.unwrap(), &accept)?;
        let answers = responses(&d, click.id, 3).await?;
        assert_eq!(answers[2].content(), Some("Game on! Game #1 is played by DM: your boards come in your DM with me."));
        assert!(d.fake.threads().is_empty(), "no thread");
        for user in [d.alice.id, d.bob.id] {
            let texts = d.fake.wait_for_messages_in(d.fake.dm_channel_for(user), 1, WAIT).await?;
            assert!(texts[0].content().starts_with("**Atomic** · alice (White) vs bob (Black) · game #1\n"), "{}", texts[0].content());
        }
        let about_channel = format!("/channels/{channel}");
        assert!(
            d.fake.requests()[requests_before..].iter().all(|r| !r.path.contains(&about_channel)),
            "the bot called a route of the server's channel"
        );
        d.stop().await;
        Ok(())
    }
}
