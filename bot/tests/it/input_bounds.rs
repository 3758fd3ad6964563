//! Input a client should never send, and input longer than anything a player types, still
//! gets a short private answer: every interaction is answered, and no answer outgrows
//! Discord's 2,000 characters by quoting what was typed.

use fake_discord::CommandOption;
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::fixture::{ATOMIC, TestBot};
use serde_json::Value;

type Outcome = Result<(), DemoError>;

/// Every string option of every registered command, with its `max_length`, walking into
/// subcommands (option types 1 SUB_COMMAND and 2 SUB_COMMAND_GROUP; 3 is STRING:
/// <https://discord.com/developers/docs/interactions/application-commands#application-command-object-application-command-option-type>).
fn string_options(command: &Value, path: &str, out: &mut Vec<(String, Option<u64>)>) {
    for option in command["options"].as_array().into_iter().flatten() {
        let name = format!("{path} {}", option["name"].as_str().unwrap_or("?"));
        match option["type"].as_u64() {
            Some(1 | 2) => string_options(option, &name, out),
            Some(3) => out.push((name, option["max_length"].as_u64())),
            _ => {}
        }
    }
}

kaboom_testkit::dbtest! {
    /// Every string option is registered with a `max_length` that fits its use (at most
    /// 500 characters), so Discord's client stops a player long before a reply quoting it
    /// could pass 2,000 characters.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_string_option_has_a_max_length() -> Outcome {
        let d = TestBot::start().await?;
        let mut options = Vec::new();
        for command in d.fake.registered_commands() {
            let name = format!("/{}", command["name"].as_str().unwrap_or("?"));
            string_options(&command, &name, &mut options);
        }
        assert!(options.len() > 20, "{options:?}");
        let unbounded: Vec<&(String, Option<u64>)> =
            options.iter().filter(|(_, max)| !max.is_some_and(|m| m <= 500)).collect();
        assert!(unbounded.is_empty(), "string options without a max_length of at most 500: {unbounded:?}");
        d.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// Option values outside a command's choices or bounds (what only a modified client
    /// sends) get a private answer saying so, instead of no answer at all.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn values_outside_choices_and_bounds_are_answered() -> Outcome {
        let d = TestBot::start().await?;
        let channel = d.fake.text_channel_id();
        let cases = [
            ("rules", vec![CommandOption::integer("variant", 7)]),
            ("challenge", vec![CommandOption::integer("variant", ATOMIC), CommandOption::integer("carriers", -1)]),
        ];
        for (name, options) in cases {
            let answer = d.cmd(&d.alice, channel, name, options).await?;
            assert!(answer.is_ephemeral(), "/{name}: {answer:?}");
            assert_eq!(
                answer.content(),
                Some(format!("`/{name}`: an option's value is not one I offer. Pick from the lists Discord shows.").as_str())
            );
        }
        d.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// A 6,000-character `game` option (what Discord would allow a string option without a
    /// `max_length`) is answered privately with a 40-character excerpt of it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_very_long_game_option_is_answered_with_an_excerpt() -> Outcome {
        let d = TestBot::start().await?;
        let channel = d.fake.text_channel_id();
        let typed = "9".repeat(6000);
        let answer = d.cmd(&d.alice, channel, "board", vec![CommandOption::string("game", &typed)]).await?;
        assert!(answer.is_ephemeral());
        assert_eq!(
            answer.content(),
            Some(format!("'{}…' is not a game: pick one from the list (e.g. #12).", "9".repeat(39)).as_str())
        );
        d.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// One player cannot flood a channel with challenges: the 11th open one is refused
    /// privately, and once one is cancelled a new one is posted again.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_player_has_at_most_ten_open_challenges() -> Outcome {
        let d = TestBot::start().await?;
        let mut posted = Vec::new();
        for _ in 0..10 {
            let r = d.challenge(ATOMIC).await?;
            assert!(!r.is_ephemeral(), "{r:?}");
            posted.push(r);
        }
        let refused = d.challenge(ATOMIC).await?;
        assert!(refused.is_ephemeral());
        assert_eq!(
            refused.content(),
            Some("You already have 10 open challenges, the most one player may have: cancel one (its Cancel button), or wait for them to be accepted or to expire.")
        );
        let first = &posted[0];
        let cancel = first.custom_ids().into_iter().find(|id| id.starts_with("kb:cancel:")).unwrap();
        d.click(&d.alice, first.message_id.unwrap(), &cancel).await?;
        assert!(!d.challenge(ATOMIC).await?.is_ephemeral(), "posted again");
        d.stop().await;
        Ok(())
    }
}

/// `/settings server` by carol (every permission) with `options`.
async fn server_settings(
    d: &TestBot,
    options: Vec<CommandOption>,
) -> Result<fake_discord::InteractionResponse, DemoError> {
    d.cmd(
        &d.carol,
        d.fake.text_channel_id(),
        "settings",
        vec![CommandOption::subcommand("server", options)],
    )
    .await
}

kaboom_testkit::dbtest! {
    /// A server chooses its players' limits: `/settings server` shows the defaults, takes
    /// new values within the allowed range, refuses others saying which are allowed, and
    /// the open-challenge limit then applies in that server.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_server_sets_its_players_limits() -> Outcome {
        let d = TestBot::start().await?;
        let shown = server_settings(&d, vec![]).await?;
        assert_eq!(
            shown.content().and_then(|t| t.lines().nth(2)),
            Some("Each player may have 3 practice games against the bot and 10 open challenges at once here, and send 30 commands a minute.")
        );
        let refused = server_settings(&d, vec![CommandOption::integer("practice_games", 51)]).await?;
        assert!(refused.is_ephemeral());
        assert_eq!(refused.content(), Some("practice_games must be from 1 to 50, not 51."));
        let set = server_settings(
            &d,
            vec![
                CommandOption::integer("practice_games", 30),
                CommandOption::integer("open_challenges", 2),
            ],
        )
        .await?;
        assert_eq!(
            set.content().and_then(|t| t.lines().nth(2)),
            Some("Each player may have 30 practice games against the bot and 2 open challenges at once here, and send 30 commands a minute.")
        );
        for _ in 0..2 {
            assert!(!d.challenge(ATOMIC).await?.is_ephemeral());
        }
        let third = d.challenge(ATOMIC).await?;
        assert_eq!(
            third.content(),
            Some("You already have 2 open challenges, the most one player may have: cancel one (its Cancel button), or wait for them to be accepted or to expire.")
        );
        d.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// One player's flood of commands and clicks is answered with a private "slow down"
    /// once past the server's commands per minute, without holding up another player, and
    /// passes again once the time it names has gone by; suggestions (autocomplete) are
    /// counted apart, and a refused click changes nothing.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_player_past_the_commands_per_minute_is_told_to_slow_down() -> Outcome {
        let d = TestBot::start().await?;
        server_settings(&d, vec![CommandOption::integer("commands_per_minute", 5)]).await?;
        // alice's first command: her challenge (bob's Accept click is his).
        let game = d.start_game(ATOMIC).await?;
        let channel = d.fake.text_channel_id();
        let status = || vec![CommandOption::subcommand("status", vec![])];
        let days = "You have 14 of 14 vacation days left this year.";
        for _ in 0..4 {
            let answer = d.cmd(&d.alice, channel, "vacation", status()).await?;
            assert_eq!(answer.content(), Some(days));
        }
        let slow = "Slow down: each player may send 5 commands a minute here. Try again in 12 s.";
        let sixth = d.cmd(&d.alice, channel, "vacation", status()).await?;
        assert!(sixth.is_ephemeral());
        assert_eq!(sixth.content(), Some(slow));
        let board = d.boards(game.thread).into_iter().next().expect("the first board");
        let resign = board
            .custom_ids()
            .into_iter()
            .find(|id| id.starts_with("kb:resign:"))
            .expect("a Resign button");
        let click = d.click(&d.alice, board.id, &resign).await?;
        assert!(click.is_ephemeral());
        assert_eq!(click.content(), Some(slow));
        let suggestions = d.autocomplete(&d.alice, game.thread, "e").await?;
        assert!(suggestions.iter().any(|(_, v)| v == "e4"), "{suggestions:?}");
        let bob = d.cmd(&d.bob, channel, "vacation", status()).await?;
        assert_eq!(bob.content(), Some(days));
        d.clock.advance(12);
        let played = d.cmd(&d.alice, game.thread, "move", vec![CommandOption::string("action", "e4")]).await?;
        assert_eq!(played.content(), Some("Played **e4** in game #1."));
        d.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// A flood of keystrokes in `/move`'s suggestions (Discord sends one autocomplete
    /// interaction per keystroke, and a modified client sends them as fast as it likes) is
    /// answered with no suggestions once past ten times the server's commands per minute,
    /// without costing the player their commands or another player their suggestions, and
    /// suggestions come back once the time has gone by. Before, every keystroke of a flood
    /// was served.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_flood_of_keystrokes_gets_no_suggestions_past_its_rate() -> Outcome {
        let d = TestBot::start().await?;
        server_settings(&d, vec![CommandOption::integer("commands_per_minute", 5)]).await?;
        let game = d.start_game(ATOMIC).await?;
        let has = |choices: &[(String, serde_json::Value)], value: &str| {
            choices.iter().any(|(_, v)| v == value)
        };
        for keystroke in 1..=50 {
            let choices = d.autocomplete(&d.alice, game.thread, "e").await?;
            assert!(has(&choices, "e4"), "keystroke {keystroke}: {choices:?}");
        }
        let past = d.autocomplete(&d.alice, game.thread, "e").await?;
        assert_eq!(past, Vec::new(), "the 51st keystroke of the minute");
        // One keystroke every 60/50 s after the burst, on a clock of whole seconds.
        d.clock.advance(2);
        let again = d.autocomplete(&d.alice, game.thread, "e").await?;
        assert!(has(&again, "e4"), "{again:?}");
        let played = d
            .cmd(&d.alice, game.thread, "move", vec![CommandOption::string("action", "e4")])
            .await?;
        assert_eq!(played.content(), Some("Played **e4** in game #1."));
        let bob = d.autocomplete(&d.bob, game.thread, "e").await?;
        assert!(has(&bob, "e5"), "{bob:?}");
        d.stop().await;
        Ok(())
    }
}
