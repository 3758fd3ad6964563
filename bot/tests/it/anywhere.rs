//! Play anywhere: a game started where the bot is not a member (a group DM, with the app
//! installed to a player's account) is played by DM. The fake refuses every post of the
//! bot in the group DM (403 / 50001), so these tests prove that the game reaches its players
//! through interaction answers there and through their DMs with the bot.

use fake_discord::{CommandOption, FakeError, ResponseKind};
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::driver::{Driver, WAIT};
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
        let posted = d
            .cmd(
                &d.alice,
                group,
                "challenge",
                vec![
                    CommandOption::integer("variant", ATOMIC),
                    CommandOption::user("opponent", &d.bob),
                    CommandOption::integer("color", 0),
                ],
            )
            .await?;
        assert!(!posted.is_ephemeral());
        let text = posted.content().unwrap();
        assert!(
            text.ends_with("\nThe game is played by DM: I send each player the boards, turn notices and reminders in their DM with me."),
            "{text}"
        );
        let message = posted.message_id.unwrap();
        let accept = posted
            .custom_ids()
            .into_iter()
            .find(|i| i.starts_with("kb:accept:"))
            .unwrap();
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
        d.outbox_delivered().await?;
        for user in [d.alice.id, d.bob.id] {
            let texts = dm_texts(&d, user);
            let last_board = texts.iter().rev().find(|t| t.starts_with("**Atomic**")).unwrap();
            assert!(last_board.contains("Game over: **1-0** · alice (White) wins by king exploded"), "{last_board}");
        }
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
