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
    /// the game started (the fake would refuse it with 50001). A seek nobody takes
    /// expires with a DM to its seeker, as it has no message to mark.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_reminder_a_time_forfeit_and_an_expired_seek_go_by_dm() {
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
        let c = services.challenges().create(spec.clone()).await.unwrap();
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

        let seek = NewChallenge {
            opponent_id: None,
            venue: Venue::Seek,
            ..spec
        };
        let seek = services.challenges().create(seek).await.unwrap();
        clock.advance(7 * 24 * HOUR);
        sweep().await;
        let texts = dm(1001);
        assert_eq!(
            texts.last().map(String::as_str),
            Some(format!("Your seek #{} (Atomic, 1 day per move, casual, challenger plays White) expired: nobody accepted it in 7 days. Seek again any time with `/seek`.", seek.id).as_str())
        );
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
            ["kb:moveask:1", "kb:resign:1", "kb:draw:1", "kb:view:1", "kb:fair:1", "kb:choose:1"]
        );
        // Move waits for the carriers.
        let early = d.click(&d.alice, message, "kb:moveask:1").await?;
        assert_eq!(early.content(), Some("The game has not started: both players must choose their carriers first."));
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

kaboom_testkit::dbtest! {
    /// Open challenges across servers: alice (a member of one server) seeks a game of
    /// Atomic, and bob (a member of another server only) sees it in `/seeks` and accepts
    /// it from its menu. The game is played by DM: the first board, naming whose seek it
    /// was, goes to both players' DMs, each moves from their own server, and the rated
    /// result counts in both players' global ratings. Around it: a player's own seek is
    /// listed with its Cancel button and never offered to them, a fourth open seek is
    /// refused, a taken seek leaves the list, and a cancelled one too.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_seek_from_one_server_is_played_by_dm_with_a_player_of_another() -> Outcome {
        use kaboom_domain::ids::{GameId, UserId};
        let d = TestBot::start_in_guilds(2).await?;
        let guilds = d.fake.guilds();
        let (home, away) = (guilds[0].text_channel_id, guilds[1].text_channel_id);
        d.fake.remove_member(guilds[1].id, d.alice.id)?;
        d.fake.remove_member(guilds[0].id, d.bob.id)?;
        let atomic = || vec![CommandOption::integer("variant", ATOMIC)];
        let seek = d.cmd(&d.alice, home, "seek", atomic()).await?;
        assert!(seek.is_ephemeral());
        let expires = kaboom_service::scheduler::SchedulerConfig::default()
            .challenge_expires_at(kaboom_domain::clock::Clock::now(&*d.clock));
        assert_eq!(
            seek.content(),
            Some(format!("Your seek #1 is listed: **Atomic, 3 days per move, rated, colours drawn at random**.\nAnyone who uses Kaboom, in any server or from their own install, sees it in `/seeks` and can accept it until <t:{expires}:f>. The game is then played by DM: I send you the boards in your DM with me.").as_str())
        );
        assert_eq!(seek.custom_ids(), ["kb:cancel:1"]);
        let mine = d.cmd(&d.alice, home, "seeks", vec![]).await?;
        assert_eq!(
            mine.content(),
            Some("**Your seeks**\n**#1** · Atomic, 3 days per move, rated, colours drawn at random\n\nNo open seeks right now. Make one with `/seek`: anyone who uses Kaboom can accept it.")
        );
        assert_eq!(mine.custom_ids(), ["kb:cancel:1"]);

        // bob, in the other server, sees alice's seek with her rating and takes it.
        let list = d.cmd(&d.bob, away, "seeks", vec![]).await?;
        assert!(list.is_ephemeral());
        assert_eq!(
            list.content(),
            Some("**Open seeks**\n**#1** · Atomic, 3 days per move, rated, colours drawn at random · alice 1500?\nPick one in the menu to accept it: the game is played by DM, with the boards in your DM with me.")
        );
        assert_eq!(list.custom_ids(), ["kb:seekaccept:0"]);
        let chose = d.fake.select_menu(&d.bob, list.message_id.unwrap(), "kb:seekaccept:0", &["1"])?;
        let answers = responses(&d, chose.id, 2).await?;
        let kinds: Vec<_> = answers.iter().map(|r| r.kind).collect();
        assert_eq!(kinds, [ResponseKind::Callback { callback_type: 6 }, ResponseKind::EditOriginal]);
        assert_eq!(
            answers[1].content(),
            Some("You accepted alice's seek #1: game #1 (Atomic, 3 days per move, rated, colours drawn at random) is on. Your boards come in your DM with me; move with `/move` there or wherever you use Kaboom.")
        );
        assert!(answers[1].custom_ids().is_empty(), "the menu is gone");
        assert!(d.fake.threads().is_empty(), "no thread");
        let row = kaboom_store::games::get(&d.db, GameId(1)).await?.expect("the game");
        assert_eq!(row.guild_id, None, "a seek's game belongs to no server");
        let (white, black) = if row.white_id == UserId(d.alice.id) {
            ((&d.alice, home), (&d.bob, away))
        } else {
            ((&d.bob, away), (&d.alice, home))
        };
        let line = "<@1002> accepted <@1001>'s seek #1. This game is played by DM: move with `/move` here, or wherever you use Kaboom.";
        for user in [d.alice.id, d.bob.id] {
            let first = d.fake.wait_for_messages_in(d.fake.dm_channel_for(user), 1, WAIT).await?;
            let text = first[0].content();
            assert!(text.starts_with("**Atomic** · "), "{text}");
            assert!(text.contains(&format!("\n{line}\n")), "{text}");
        }
        // Taken: nobody else sees it any more.
        let after = d.cmd(&d.carol, home, "seeks", vec![]).await?;
        assert_eq!(after.content(), Some("No open seeks right now. Make one with `/seek`: anyone who uses Kaboom can accept it."));

        // Each plays from their own server; Nxf7 explodes Black's king.
        for ((user, channel), text) in [(white, "Nf3"), (black, "a6"), (white, "Ng5"), (black, "a5"), (white, "Nxf7")] {
            let r = d.play(user, channel, text).await?;
            assert!(r.content().unwrap_or_default().starts_with("Played"), "{r:?}");
        }
        d.outbox_delivered().await?;
        for user in [d.alice.id, d.bob.id] {
            let texts = dm_texts(&d, user);
            assert!(texts.iter().any(|t| t.contains("Game over: **1-0**")), "{texts:#?}");
        }
        for (channel, user) in [(home, white.0.id), (away, black.0.id)] {
            assert!(
                d.fake.messages_in(channel).iter().all(|m| m.is_ephemeral()),
                "no public board in a player's server (user {user})"
            );
        }
        for user in [d.alice.id, d.bob.id] {
            let ratings = kaboom_store::ratings::of_user(&d.db, UserId(user)).await?;
            assert_eq!(ratings.len(), 1, "one global Atomic rating each");
            assert_eq!(ratings[0].games, 1);
        }

        // Three open seeks at most; a cancelled one leaves the list.
        for _ in 0..3 {
            d.cmd(&d.alice, home, "seek", atomic()).await?;
        }
        let fourth = d.cmd(&d.alice, home, "seek", atomic()).await?;
        assert_eq!(
            fourth.content(),
            Some("You already have 3 open seeks, the most one player may have: cancel one with `/seeks`, or wait for someone to accept.")
        );
        let mine = d.cmd(&d.alice, home, "seeks", vec![]).await?;
        assert_eq!(mine.custom_ids(), ["kb:cancel:2", "kb:cancel:3", "kb:cancel:4"]);
        let cancelled = d.click(&d.alice, mine.message_id.unwrap(), "kb:cancel:3").await?;
        assert_eq!(cancelled.kind, ResponseKind::Callback { callback_type: 7 });
        assert_eq!(
            cancelled.content(),
            Some("Seek #3 cancelled: Atomic, 3 days per move, rated, colours drawn at random. It is no longer listed.")
        );
        let list = d.cmd(&d.bob, away, "seeks", vec![]).await?;
        let listed: Vec<&str> = list.content().unwrap_or_default().lines().filter(|l| l.starts_with("**#")).collect();
        assert_eq!(listed.len(), 2, "{listed:?}");
        assert!(listed[0].starts_with("**#2** · ") && listed[1].starts_with("**#4** · "), "{listed:?}");
        d.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// The game's message in a group DM is the game: its Move button opens a form, and the
    /// submitted move replaces the message's board with the new one (DEFERRED_UPDATE_MESSAGE,
    /// then an edit), while the opponent gets their turn notice by DM. Move refuses a
    /// player whose turn it is not, privately; an illegal move is refused privately and
    /// leaves the board; a turn notice in a DM has the same Move button.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_move_button_updates_the_games_message_in_a_group_dm() -> Outcome {
        let d = TestBot::start().await?;
        d.fake.install_for_user(d.alice.id);
        let group = d.fake.add_group_dm(&[&d.alice, &d.bob]);
        let posted = d.challenge_in(group, ATOMIC, vec![]).await?;
        let message = posted.message_id.unwrap();
        let click = d.fake.click_button(&d.bob, message, &accept_button(&posted).unwrap())?;
        responses(&d, click.id, 3).await?;
        let game = d.fake.message(message).unwrap();
        assert_eq!(game.custom_ids(), ["kb:moveask:1", "kb:resign:1", "kb:draw:1", "kb:view:1"]);
        let first_board = game.attachments[0].id;

        let early = d.click(&d.bob, message, "kb:moveask:1").await?;
        assert!(early.is_ephemeral());
        assert_eq!(early.content(), Some("It is not your turn in game #1: alice (White) is to move. To answer their move in advance, use `/premove line` (their move, then your reply)."));

        let ask = d.fake.click_button(&d.alice, message, "kb:moveask:1")?;
        let form = d.answer(&ask).await?;
        assert_eq!(form.kind, ResponseKind::Callback { callback_type: 9 });
        let submit = d.fake.submit_modal(&d.alice, ask.id, &[("action", "Nf3")])?;
        let answers = responses(&d, submit.id, 2).await?;
        let kinds: Vec<_> = answers.iter().map(|r| r.kind).collect();
        assert_eq!(kinds, [ResponseKind::Callback { callback_type: 6 }, ResponseKind::EditOriginal]);
        let game = d.fake.message(message).unwrap();
        assert_eq!(game.content(), "**Atomic** · alice (White) vs bob (Black) · game #1\n**1. Nf3** by alice\n<@1002> (Black) to move · deadline <t:1763959200:f> (<t:1763959200:R>)");
        assert_eq!(game.attachments.len(), 1);
        assert_ne!(game.attachments[0].id, first_board, "the new board replaced the first");
        assert_eq!(game.custom_ids(), ["kb:moveask:1", "kb:resign:1", "kb:draw:1", "kb:view:1"]);
        d.outbox_delivered().await?;
        let bob_dm = d.fake.dm_channel_for(d.bob.id);
        let notice = d.fake.messages_in(bob_dm).into_iter().last().unwrap();
        assert!(notice.content().contains("**1. Nf3** by alice"), "{}", notice.content());
        assert_eq!(notice.custom_ids()[0], "kb:moveask:1");

        // An illegal move: refused privately, the board stays.
        let ask = d.fake.click_button(&d.bob, message, "kb:moveask:1")?;
        d.answer(&ask).await?;
        let submit = d.fake.submit_modal(&d.bob, ask.id, &[("action", "Ke7")])?;
        let answers = responses(&d, submit.id, 2).await?;
        assert_eq!(answers[1].kind, ResponseKind::Followup);
        assert!(answers[1].is_ephemeral());
        assert!(answers[1].content().unwrap_or_default().starts_with("Ke7"), "{:?}", answers[1].content());
        assert_eq!(d.fake.message(message).unwrap().content(), game.content());

        // From the turn notice in bob's DM: that message shows the new board.
        let ask = d.fake.click_button(&d.bob, notice.id, "kb:moveask:1")?;
        d.answer(&ask).await?;
        let submit = d.fake.submit_modal(&d.bob, ask.id, &[("action", "a6")])?;
        responses(&d, submit.id, 2).await?;
        let updated = d.fake.message(notice.id).unwrap();
        assert!(updated.content().contains("**1... a6** by bob"), "{}", updated.content());
        d.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// A player whose DMs are closed misses the posts of a game played by DM: they are
    /// kept and shown to them privately after their next command (and after a click),
    /// each once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn posts_a_closed_dm_refused_come_with_the_next_answer() -> Outcome {
        let d = TestBot::start().await?;
        d.fake.install_for_user(d.alice.id);
        d.fake.refuse_dms_for(d.bob.id);
        let group = d.fake.add_group_dm(&[&d.alice, &d.bob]);
        let posted = d.challenge_in(group, ATOMIC, vec![]).await?;
        let click = d.fake.click_button(&d.bob, posted.message_id.unwrap(), &accept_button(&posted).unwrap())?;
        // The Accept's own answers, then what bob missed: the first board, refused by DM.
        let answers = responses(&d, click.id, 4).await?;
        assert_eq!(answers.len(), 4, "{answers:?}");
        let first = "**Atomic** · alice (White) vs bob (Black) · game #1\n<@1001> (White) to move · deadline <t:1763959200:f> (<t:1763959200:R>)";
        assert_eq!(
            answers[3].content(),
            Some(format!("I could not DM you these (your DMs are closed to me, or we share no server: allow DMs from me, or install Kaboom to your account):\n> {}", first.replace('\n', "\n> ")).as_str())
        );
        assert!(answers[3].is_ephemeral());
        d.play(&d.alice, group, "Nf3").await?;
        d.outbox_delivered().await?;
        // bob did not install the app: he asks in his DM with the bot, which works with
        // his DMs closed to the bot's own messages.
        let bob_dm = d.fake.dm_channel_for(d.bob.id);
        let sent = d.fake.slash_command(&d.bob, bob_dm, "games", vec![])?;
        // `/games` answers at once; what bob missed follows.
        let answers = responses(&d, sent.id, 2).await?;
        assert_eq!(answers.len(), 2, "{answers:?}");
        let missed = answers.last().unwrap();
        assert!(missed.is_ephemeral());
        let text = missed.content().unwrap_or_default();
        assert!(text.starts_with("I could not DM you these"), "{text}");
        assert!(text.contains("\n> **1. Nf3** by alice\n> <@1002> (Black) to move"), "{text}");
        // Shown once: taken from the store as they were shown.
        let waiting = kaboom_store::notices::any(&d.db, kaboom_domain::ids::UserId(d.bob.id)).await?;
        assert!(!waiting, "nothing left to show");
        d.stop().await;
        Ok(())
    }
}
