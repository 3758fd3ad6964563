//! `/moderate`: a server's moderators end a stuck or abusive game, with a reason posted in
//! its thread; members without Moderate Members are refused, and nothing of another
//! server's games can be touched.

use fake_discord::{CommandOption, SimUser};
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::driver::Driver;
use kaboom_testkit::fixture::{ATOMIC, TestBot};

type Outcome = Result<(), DemoError>;

/// `/moderate SUB game:GAME ...` by `user` in the server's text channel: its private answer.
async fn moderate(
    d: &Driver,
    user: &SimUser,
    sub: &str,
    game: &str,
    mut options: Vec<CommandOption>,
) -> Result<(bool, String), DemoError> {
    options.insert(0, CommandOption::string("game", game));
    let r = d
        .cmd(
            user,
            d.fake.text_channel_id(),
            "moderate",
            vec![CommandOption::subcommand(sub, options)],
        )
        .await?;
    Ok((
        r.is_ephemeral(),
        r.content().unwrap_or_default().to_string(),
    ))
}

kaboom_testkit::dbtest! {
    /// A moderator decides the result of a running game: the thread ends on the final board
    /// with the result, the rating change and the moderator's reason. Before that, a member
    /// without Moderate Members is not offered the command (unless the server's
    /// Integrations page gives it to them), an empty reason and an unknown game are refused
    /// privately, and nothing changes; after it, the game is over for an abort too.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_moderator_decides_a_running_game_with_a_posted_reason() -> Outcome {
        let d = TestBot::start().await?;
        let g = d.start_game(ATOMIC).await?;
        let thread = g.thread.get();
        d.play(&d.alice, thread, "e4").await?;
        d.play(&d.bob, thread, "e5").await?;
        let reason = |text: &str| CommandOption::string("reason", text);
        let black_wins = CommandOption::integer("result", 1);

        // A member without Moderate Members is not offered the command (Discord's
        // default_member_permissions).
        let erin = SimUser::new(1005, "erin").with_permissions(fake_discord::MEMBER_PERMISSIONS);
        let refused = moderate(&d, &erin, "result", "1", vec![black_wins.clone(), reason("stuck")]).await;
        assert!(
            matches!(refused, Err(DemoError::Fake(fake_discord::FakeError::CommandNotPermitted { .. }))),
            "{refused:?}"
        );
        let refused = moderate(&d, &d.carol, "result", "1", vec![black_wins.clone(), reason("  ")]).await?;
        assert_eq!(
            refused,
            (true, "Give a reason of 1 to 300 characters (it is posted in the game's thread with the result); yours has 0.".to_string())
        );
        let refused = moderate(&d, &d.carol, "abort", "99", vec![reason("stuck")]).await?;
        assert_eq!(refused, (true, "There is no game #99.".to_string()));
        // The server's Integrations page gives /moderate to erin: the bot respects it.
        d.fake.permit_command(d.fake.guild_id(), "moderate", erin.id);
        let allowed = moderate(&d, &erin, "abort", "99", vec![reason("stuck")]).await?;
        assert_eq!(allowed, (true, "There is no game #99.".to_string()));
        assert_eq!(d.boards(thread).len(), 3, "nothing was posted");

        let decided = moderate(
            &d,
            &d.carol,
            "result",
            "1",
            vec![black_wins.clone(), reason("alice left the server after a dispute")],
        )
        .await?;
        assert!(decided.0);
        assert_eq!(decided.1, "Game #1 is over: **0-1** · bob (Black) wins by adjudication");
        let last = d.boards(thread).pop().unwrap();
        assert_eq!(
            last.content(),
            "**Atomic** · alice (White) vs bob (Black) · game #1\nGame over: **0-1** · bob (Black) wins by adjudication\nRatings (Atomic): alice 1258? (-242) · bob 1741? (+241)\nEnded by a moderator, carol: alice left the server after a dispute"
        );
        assert_eq!(last.custom_ids(), ["kb:view:1", "kb:rematch:1", "kb:analyse:1"]);

        let again = moderate(&d, &d.carol, "abort", "1", vec![reason("stuck")]).await?;
        assert_eq!(
            again,
            (true, "The game is already over: 0-1, Black won by adjudication.".to_string())
        );
        d.stop().await;
        Ok(())
    }
}
