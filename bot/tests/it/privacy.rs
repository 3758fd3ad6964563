//! `/privacy`: a player sees what Kaboom keeps about them, downloads it as JSON, and
//! deletes what no game or opponent needs (settings, notes, conditional lines) after
//! confirming; nobody else can press their "Yes, delete", and games and ratings stay.

use fake_discord::{CommandOption, InteractionResponse, SimUser};
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::driver::Driver;
use kaboom_testkit::fixture::{ATOMIC, TestBot};
use serde_json::Value;

type Outcome = Result<(), DemoError>;

/// `/privacy SUB` by `user` in the server's text channel.
async fn privacy(d: &Driver, user: &SimUser, sub: &str) -> Result<InteractionResponse, DemoError> {
    d.cmd(
        user,
        d.fake.text_channel_id(),
        "privacy",
        vec![CommandOption::subcommand(sub, vec![])],
    )
    .await
}

kaboom_testkit::dbtest! {
    /// What `/privacy show` lists matches what the player stored; the export holds the
    /// same rows; `/privacy delete` asks first, refuses another player's press, then
    /// deletes exactly the settings, the note and the conditional line, while the game
    /// and the rating stay.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_player_sees_exports_and_deletes_their_own_data() -> Outcome {
        let d = TestBot::start().await?;
        let g = d.start_game(ATOMIC).await?;
        let thread = g.thread.get();
        d.play(&d.alice, thread, "e4").await?;
        d.play(&d.bob, thread, "e5").await?;
        d.cmd(&d.alice, thread, "note", vec![CommandOption::string("text", "push the f-pawn")]).await?;
        d.cmd(
            &d.alice,
            thread,
            "premove",
            vec![CommandOption::subcommand("line", vec![CommandOption::string("line", "Nf3 Nc6 Bc4")])],
        )
        .await?;
        d.cmd(
            &d.alice,
            thread,
            "settings",
            vec![CommandOption::subcommand("me", vec![CommandOption::boolean("nudges", false)])],
        )
        .await?;

        let shown = privacy(&d, &d.alice, "show").await?;
        assert!(shown.is_ephemeral());
        assert_eq!(
            shown.content().unwrap(),
            "**What Kaboom keeps about you**\n- Games: 1 (1 running): the moves, the result and your name at the time. These stay: your opponents' records and ratings depend on them.\n- Ratings: none yet.\n- Settings: reminders your choice, explosion previews the defaults.\n- Only you see: 1 private note and 1 conditional line.\n- 0 vacations taken (they count against the yearly allowance) and 0 analyses asked for.\n- Puzzles: 0 tried.\n`/privacy export` sends you all of it as a file. `/privacy delete` removes your settings, private notes, conditional lines and puzzle history."
        );

        let export = privacy(&d, &d.alice, "export").await?;
        assert!(export.is_ephemeral());
        assert_eq!(export.content().unwrap(), "Everything Kaboom keeps under your Discord id, as JSON:");
        assert_eq!(export.files.len(), 1);
        assert_eq!(export.files[0].filename, format!("kaboom-data-{}.json", d.alice.id));
        let json: Value = serde_json::from_slice(&export.files[0].bytes).expect("JSON");
        assert_eq!(json["user_id"], d.alice.id);
        assert_eq!(json["reminder_settings"], serde_json::json!([false, "dm"]));
        assert_eq!(json["notes"][0]["text"], "push the f-pawn");
        // Alice was to move: her line's Nf3 was played at once; what waits is bob's Nc6, then her Bc4.
        assert_eq!(json["conditional_moves"][0]["actions"], serde_json::json!(["Nc6", "Bc4"]));
        assert_eq!(json["games"][0]["id"], 1);
        assert_eq!(json["games"][0]["black_name"], "bob");
        // Bob's data is not in Alice's file.
        assert!(!String::from_utf8_lossy(&export.files[0].bytes).contains("\"user_id\": 1002"));

        let question = privacy(&d, &d.alice, "delete").await?;
        assert!(question.is_ephemeral());
        assert_eq!(
            question.content().unwrap(),
            "Delete your settings, private notes, conditional lines and puzzle history? Your games, ratings and vacations stay: your opponents' records and the yearly allowance depend on them."
        );
        let yes = format!("kb:forget:{}", d.alice.id);
        assert_eq!(question.custom_ids(), std::slice::from_ref(&yes));
        let message = question.message_id.expect("the question's message");
        let refused = d.click(&d.bob, message, &yes).await?;
        assert_eq!(
            refused.content().unwrap(),
            "This button deletes the data of whoever asked for it; use /privacy delete for yours."
        );
        let done = d.click(&d.alice, message, &yes).await?;
        assert_eq!(
            done.content().unwrap(),
            "Deleted: 1 setting, 1 private note, 1 conditional line and 0 puzzle tries. Your settings are back to the defaults."
        );
        let shown = privacy(&d, &d.alice, "show").await?;
        assert!(shown.content().unwrap().contains("\n- Games: 1 (1 running)"));
        assert!(shown.content().unwrap().contains("\n- Settings: reminders the defaults, explosion previews the defaults.\n- Only you see: 0 private notes and 0 conditional lines.\n"));
        d.stop().await;
        Ok(())
    }
}
