//! The correspondence comforts, end to end through the fake Discord: conditional moves (a
//! line played out over several plies, a line dropped by a different reply, an illegal reply
//! dropped, lines invisible to the opponent and in the PGN), a vacation that stops the clock
//! and ends by itself, takebacks (accepted, declined, refused in a rated game, voided by a
//! move; an answered proposal loses its buttons), a private note, and a rematch accepted.

use std::sync::Arc;

use fake_discord::{CommandOption, InteractionResponse, SimUser};
use kaboom_domain::ids::{GameId, UserId};
use kaboom_service::scheduler::SchedulerConfig;
use kaboom_testkit::clock::TestClock;
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::driver::{Driver, StartedGame};
use kaboom_testkit::fixture::{ATOMIC, BEIRUT, T0, TestBot};

const DAY: i64 = 86_400;

type Outcome = Result<(), DemoError>;

/// Alice (White) challenges bob to Atomic, casual (`rated: false`) or rated; bob accepts.
async fn game(d: &Driver, rated: bool) -> Result<StartedGame, DemoError> {
    game_of(d, ATOMIC, rated).await
}

/// As [`game`], in the variant with choice index `variant`.
async fn game_of(d: &Driver, variant: i64, rated: bool) -> Result<StartedGame, DemoError> {
    let posted = d
        .cmd(
            &d.alice,
            d.fake.text_channel_id(),
            "challenge",
            vec![
                CommandOption::integer("variant", variant),
                CommandOption::user("opponent", &d.bob),
                CommandOption::integer("color", 0),
                CommandOption::boolean("rated", rated),
            ],
        )
        .await?;
    d.accept(&posted).await
}

async fn premove(
    d: &Driver,
    user: &SimUser,
    thread: u64,
    sub: &str,
    options: Vec<CommandOption>,
) -> Result<InteractionResponse, DemoError> {
    d.cmd(
        user,
        thread,
        "premove",
        vec![CommandOption::subcommand(sub, options)],
    )
    .await
}

async fn line(d: &Driver, user: &SimUser, thread: u64, text: &str) -> Result<String, DemoError> {
    let r = premove(
        d,
        user,
        thread,
        "line",
        vec![CommandOption::string("line", text)],
    )
    .await?;
    assert!(r.is_ephemeral(), "{r:?}");
    Ok(r.content().unwrap_or_default().to_string())
}

async fn moves(d: &Driver, game: GameId) -> Vec<String> {
    kaboom_store::games::actions(&d.db, game)
        .await
        .expect("actions")
}

/// Every public message (not ephemeral) in the thread and the channel, every version.
fn public_texts(d: &Driver, thread: u64) -> Vec<String> {
    [thread, d.fake.text_channel_id()]
        .into_iter()
        .flat_map(|c| d.fake.messages_in(c))
        .filter(|m| !m.is_ephemeral())
        .map(|m| m.content().to_string())
        .collect()
}

async fn pgn(d: &Driver, thread: u64) -> Result<String, DemoError> {
    let r = d.cmd(&d.carol, thread, "pgn", vec![]).await?;
    Ok(String::from_utf8(r.files[0].bytes.clone()).unwrap())
}

async fn finish(d: Driver) -> Outcome {
    assert!(
        d.fake.unknown_routes().is_empty(),
        "{:?}",
        d.fake.unknown_routes()
    );
    d.stop().await;
    Ok(())
}

/// The values autocomplete offers `user` for `command` typed in the text channel.
async fn ask(
    d: &Driver,
    user: &SimUser,
    command: &str,
    options: Vec<CommandOption>,
) -> Result<Vec<String>, DemoError> {
    let choices = d
        .autocomplete_command(user, d.fake.text_channel_id(), command, options)
        .await?;
    Ok(choices
        .into_iter()
        .map(|(_, v)| v.as_str().unwrap_or_default().to_string())
        .collect())
}

kaboom_testkit::dbtest! {
    /// Autocomplete outside a game's thread, with two games running: the `game` option typed
    /// so far picks the game whose legal actions are offered, at the top level (`/move`) and
    /// inside a subcommand (`/premove line`). Guards the shared reading of that option.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn autocomplete_in_the_channel_follows_the_typed_game_option() -> Outcome {
        let d = TestBot::start().await?;
        let first = game(&d, false).await?;
        let second = game(&d, false).await?;
        // In the first game it is bob's (Black's) turn, in the second alice's (White's).
        d.play(&d.alice, first.thread, "e4").await?;
        let moves_in = |g: &StartedGame| {
            vec![
                CommandOption::string("action", "e").focused(),
                CommandOption::string("game", format!("#{}", g.game)),
            ]
        };
        let alice_first = ask(&d, &d.alice, "move", moves_in(&first)).await?;
        // Not her turn: no actions, one choice pointing to /premove that submits what she
        // typed.
        assert_eq!(alice_first, ["e"], "not her turn");
        let alice_second = ask(&d, &d.alice, "move", moves_in(&second)).await?;
        assert!(alice_second.iter().any(|v| v == "e4"), "{alice_second:?}");

        let line_in = |g: &StartedGame| {
            vec![CommandOption::subcommand(
                "line",
                vec![
                    CommandOption::string("line", "e").focused(),
                    CommandOption::string("game", g.game.to_string()),
                ],
            )]
        };
        // Bob to move in the first game: his line starts with his own move.
        let bob_first = ask(&d, &d.bob, "premove", line_in(&first)).await?;
        assert!(bob_first.iter().any(|v| v == "e5"), "{bob_first:?}");
        assert!(!bob_first.iter().any(|v| v == "e4"), "{bob_first:?}");
        // Alice to move in the second: his line starts with her expected move.
        let bob_second = ask(&d, &d.bob, "premove", line_in(&second)).await?;
        assert!(bob_second.iter().any(|v| v == "e4"), "{bob_second:?}");
        assert!(!bob_second.iter().any(|v| v == "e5"), "{bob_second:?}");
        finish(d.driver).await
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_conditional_line_plays_out_over_several_plies_and_stays_private() -> Outcome {
        let d = TestBot::start().await?;
        let g = game(&d, true).await?;
        let thread = g.thread.get();

        // Autocomplete on the opponent's turn: alice's (White's) first moves, then bob's.
        let choices = d
            .autocomplete_command(
                &d.bob,
                thread,
                "premove",
                vec![CommandOption::subcommand(
                    "line",
                    vec![CommandOption::string("line", "Nf3 N").focused()],
                )],
            )
            .await?;
        assert!(choices.iter().any(|(_, v)| v == "Nf3 Nc6"), "{choices:?}");
        assert!(choices.len() <= 25);

        // Bob, on alice's turn: if Nf3 then Nc6, then if e4 then e6.
        let ack = line(&d, &d.bob, thread, "Nf3 Nc6 e4 e6").await?;
        assert_eq!(ack, "Conditional line saved in game #1: `Nf3 Nc6 e4 e6`. Only you see it; `/premove list` shows your lines.");
        let listed = premove(&d, &d.bob, thread, "list", vec![]).await?;
        assert!(listed.is_ephemeral());
        assert_eq!(listed.content().unwrap(), "Your conditional lines in game #1 (only you see them; each starts with your opponent's next action):\n1. `Nf3 Nc6 e4 e6`");
        // The opponent sees none of it; a spectator may not ask.
        let theirs = premove(&d, &d.alice, thread, "list", vec![]).await?;
        assert_eq!(theirs.content().unwrap(), "You have no conditional lines in game #1.");
        let carol = premove(&d, &d.carol, thread, "list", vec![]).await?;
        assert_eq!(carol.content().unwrap(), "Only the two players can see conditional moves in this game.");
        assert!(!pgn(&d, thread).await?.contains("Nc6"));
        assert!(public_texts(&d, thread).iter().all(|t| !t.contains("Nc6")));

        // Alice plays Nf3: bob's Nc6 is played at once, in the same transaction.
        let r = d.play(&d.alice, thread, "Nf3").await?;
        assert!(r.content().unwrap().starts_with("Played"), "{r:?}");
        assert_eq!(moves(&d, g.game).await, ["Nf3", "Nc6"]);
        let boards = d.boards(thread);
        let last = boards.last().unwrap();
        assert_eq!(last.content(), "**Atomic** · alice (White) vs bob (Black) · game #1\n1. Nf3 **1... Nc6** by bob\n(Played by conditional move.)\n<@1001> (White) to move · deadline <t:1763959200:f> (<t:1763959200:R>)");
        // Then e4 -> e6; the line is used up.
        d.play(&d.alice, thread, "e4").await?;
        assert_eq!(moves(&d, g.game).await, ["Nf3", "Nc6", "e4", "e6"]);
        let listed = premove(&d, &d.bob, thread, "list", vec![]).await?;
        assert_eq!(listed.content().unwrap(), "You have no conditional lines in game #1.");

        // On her own turn alice's line starts with her move, played now: d4, then if d5, c4.
        let ack = line(&d, &d.alice, thread, "d4 d5 c4").await?;
        assert_eq!(ack, "Played **d4** in game #1.\nConditional line saved in game #1: `d5 c4`. Only you see it; `/premove list` shows your lines.");
        assert_eq!(moves(&d, g.game).await.len(), 5);
        d.play(&d.bob, thread, "d5").await?;
        assert_eq!(
            moves(&d, g.game).await,
            ["Nf3", "Nc6", "e4", "e6", "d4", "d5", "c4"]
        );
        // Nothing private was ever public, and no DM told anyone anything.
        assert!(
            public_texts(&d, thread)
                .iter()
                .all(|t| !t.contains("conditional line"))
        );
        assert!(
            d.fake
                .messages_in(d.fake.dm_channel_for(d.alice.id))
                .is_empty()
        );
        assert!(
            d.fake
                .messages_in(d.fake.dm_channel_for(d.bob.id))
                .is_empty()
        );
        finish(d.driver).await
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_different_reply_drops_the_line_and_its_owner_is_told_privately() -> Outcome {
        let d = TestBot::start().await?;
        let g = game(&d, true).await?;
        let thread = g.thread.get();
        line(&d, &d.bob, thread, "e4 e5 Nf3 Nc6").await?;
        line(&d, &d.bob, thread, "d4 d5").await?;
        // A refused line says why, privately, and names nothing of the opponent's view.
        let bad = line(&d, &d.bob, thread, "e4 Ke7").await?;
        assert_eq!(bad, "Action 2 of your line, `Ke7`, is not legal for you there: Ke7 is not legal here: no king of yours can go to e7; legal moves: Na6, Nc6, Nf6, Nh6, a6, a5, b6, b5, c6, c5, d6, d5 and 8 more");
        let bad = line(&d, &d.bob, thread, "Qh5 e5").await?;
        assert_eq!(bad, "Action 1 of your line, `Qh5`, is not a legal action for your opponent there.");

        d.play(&d.alice, thread, "d4").await?;
        // The d4 line answered; the e4 line was dropped and bob told by DM only.
        assert_eq!(moves(&d, g.game).await, ["d4", "d5"]);
        d.outbox_delivered().await?;
        let dms = d.fake.messages_in(d.fake.dm_channel_for(d.bob.id));
        assert_eq!(dms.len(), 1, "{dms:?}");
        assert_eq!(dms[0].content(), "Game #1: 1 of your conditional lines no longer apply and was dropped:\n- `e4 e5 Nf3 Nc6`: your opponent played d4.");
        assert!(
            public_texts(&d, thread)
                .iter()
                .all(|t| !t.contains("e4 e5"))
        );
        assert!(
            d.fake
                .messages_in(d.fake.dm_channel_for(d.alice.id))
                .is_empty()
        );
        let listed = premove(&d, &d.bob, thread, "list", vec![]).await?;
        assert_eq!(listed.content().unwrap(), "You have no conditional lines in game #1.");

        // `/premove clear` removes lines.
        line(&d, &d.alice, thread, "c4 e6 Nc3").await?;
        let cleared = premove(&d, &d.alice, thread, "clear", vec![]).await?;
        assert_eq!(cleared.content().unwrap(), "Removed 1 conditional line in game #1.");
        finish(d.driver).await
    }
}

kaboom_testkit::dbtest! {
    /// A stored reply that is no longer legal is dropped, never played. Lines are checked when
    /// they are registered, against the very position they answer, so such a reply is a line
    /// whose game changed under it (written here straight into storage, as a line saved by an
    /// older version would be).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_illegal_conditional_reply_is_dropped_not_played() -> Outcome {
        let d = TestBot::start().await?;
        let g = game(&d, true).await?;
        let thread = g.thread.get();
        let mut tx = d.db.begin_write().await?;
        kaboom_store::comforts::add_line(
            &mut tx,
            g.game,
            UserId(d.bob.id),
            kaboom_rules::Color::Black,
            0,
            &["e4".to_string(), "Qh4".to_string()],
            T0,
        )
        .await?;
        tx.commit()
            .await
            .map_err(kaboom_store::StorageError::from)?;
        d.play(&d.alice, thread, "e4").await?;
        assert_eq!(
            moves(&d, g.game).await,
            ["e4"],
            "the illegal reply was not played"
        );
        d.outbox_delivered().await?;
        let dms = d.fake.messages_in(d.fake.dm_channel_for(d.bob.id));
        assert_eq!(dms.len(), 1, "{dms:?}");
        assert_eq!(dms[0].content(), "Game #1: 1 of your conditional lines no longer apply and was dropped:\n- `e4 Qh4`: your reply Qh4 is no longer legal, so it was not played.");
        // Bob plays on by hand.
        let r = d.play(&d.bob, thread, "e5").await?;
        assert!(r.content().unwrap().starts_with("Played"), "{r:?}");
        finish(d.driver).await
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_vacation_stops_the_clock_pauses_nudges_and_ends_by_itself() -> Outcome {
        let d = TestBot::start().await?;
    let clock = d.clock.clone();
        let g = game(&d, true).await?; // 3 days per move
        let thread = g.thread.get();
        let scheduler = d.scheduler(clock.clone(), SchedulerConfig::default());
        d.play(&d.alice, thread, "e4").await?; // bob to move until T0 + 3 days
        clock.advance(DAY);
        let r = d
            .cmd(
                &d.bob,
                thread,
                "vacation",
                vec![CommandOption::subcommand(
                    "start",
                    vec![CommandOption::integer("days", 2)],
                )],
            )
            .await?;
        assert!(r.is_ephemeral());
        assert_eq!(r.content().unwrap(), "Vacation until <t:1763959200:f>: your clocks stand still and you get no reminders. 12 days left this year. `/vacation end` ends it early.");
        d.outbox_delivered().await?;
        let told = public_texts(&d, thread);
        assert!(
            told.iter()
                .any(|t| t.contains("bob (Black) is on vacation until")),
            "{told:?}"
        );
        let row = kaboom_store::games::get(&d.db, g.game).await?.unwrap();
        assert_eq!(
            row.deadline_at,
            Some(T0 + 5 * DAY),
            "the clock stood still 2 days"
        );

        // 50% of bob's (now 5-day) turn passes during the vacation: no reminder.
        clock.advance(DAY + DAY * 9 / 10); // T0 + 2.9 days
        let report = scheduler.sweep().await?;
        assert!(report.nudged.is_empty(), "{report:?}");
        // The vacation's days run out: the scheduler ends it, reminders resume.
        clock.advance(DAY / 5); // T0 + 3.1 days
        let report = scheduler.sweep().await?;
        assert_eq!(report.vacations_ended, 1, "{report:?}");
        assert_eq!(report.nudged.len(), 1, "{report:?}");
        // The thread says so, once, as it does for `/vacation end` (noticed at stop 26).
        d.outbox_delivered().await?;
        let back = public_texts(&d, thread)
            .iter()
            .filter(|t| t.contains("bob (Black) is back from vacation"))
            .count();
        assert_eq!(back, 1, "{:?}", public_texts(&d, thread));
        // The old deadline (T0 + 3 days) passed without a forfeit; the new one forfeits.
        clock.advance(DAY + DAY / 2); // T0 + 4.6 days
        assert!(scheduler.sweep().await?.forfeited.is_empty());
        clock.advance(DAY / 2); // T0 + 5.1 days
        assert_eq!(scheduler.sweep().await?.forfeited, [g.game]);
        d.outbox_delivered().await?;
        let status = d
            .cmd(
                &d.bob,
                thread,
                "vacation",
                vec![CommandOption::subcommand("status", vec![])],
            )
            .await?;
        assert_eq!(status.content().unwrap(), "You have 12 of 14 vacation days left this year.");
        finish(d.driver).await
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_vacation_ended_early_gives_the_days_back_to_the_clock() -> Outcome {
        let d = TestBot::start().await?;
    let clock = d.clock.clone();
        let g = game(&d, true).await?;
        let thread = g.thread.get();
        let vacation = |sub: &str, options| {
            d.cmd(
                &d.alice,
                thread,
                "vacation",
                vec![CommandOption::subcommand(sub, options)],
            )
        };
        // Alice (to move, deadline T0 + 3 days) takes 5 days, comes back after 1.
        vacation("start", vec![CommandOption::integer("days", 5)]).await?;
        let again = vacation("start", vec![]).await?;
        assert_eq!(again.content().unwrap(), "You are already on vacation until <t:1764132000:f>. `/vacation end` ends it early.");
        let too_many = d
            .cmd(
                &d.bob,
                thread,
                "vacation",
                vec![CommandOption::subcommand(
                    "start",
                    vec![CommandOption::integer("days", 15)],
                )],
            )
            .await?;
        assert_eq!(too_many.content() .unwrap(), "15 days is not possible: you have 14 of your 14 vacation days left this year.");
        let deadline = || async {
            kaboom_store::games::get(&d.db, g.game)
                .await
                .unwrap()
                .unwrap()
                .deadline_at
        };
        assert_eq!(deadline().await, Some(T0 + 8 * DAY));
        clock.advance(DAY);
        let back = vacation("end", vec![]).await?;
        assert_eq!(back.content().unwrap(), "Welcome back: your vacation is over and your clocks run again.");
        assert_eq!(deadline().await, Some(T0 + 4 * DAY), "one day stood still");
        d.outbox_delivered().await?;
        assert!(
            public_texts(&d, thread)
                .iter()
                .any(|t| t.contains("is back from vacation"))
        );
        let status = vacation("status", vec![]).await?;
        assert_eq!(status.content().unwrap(), "You have 13 of 14 vacation days left this year.");
        finish(d.driver).await
    }
}

async fn note(
    d: &Driver,
    user: &SimUser,
    options: Vec<CommandOption>,
) -> Result<InteractionResponse, DemoError> {
    let thread = d.fake.threads().last().map(|t| t.id).unwrap_or_default();
    d.cmd(user, thread, "note", options).await
}

async fn takeback(d: &Driver, user: &SimUser, thread: u64) -> Result<String, DemoError> {
    let r = d.cmd(user, thread, "takeback", vec![]).await?;
    assert!(r.is_ephemeral());
    Ok(r.content().unwrap_or_default().to_string())
}

/// The buttons (custom ids) message `id` in `thread` shows now.
fn buttons_on(d: &Driver, thread: u64, id: u64) -> Vec<String> {
    d.fake
        .messages_in(thread)
        .into_iter()
        .find(|m| m.id == id)
        .map(|m| m.custom_ids())
        .expect("the message")
}

/// The latest takeback proposal's message in the thread and its button `action`.
fn proposal(d: &Driver, thread: u64, action: &str) -> (u64, String) {
    let m = d
        .fake
        .messages_in(thread)
        .into_iter()
        .rev()
        .find(|m| m.custom_ids().iter().any(|c| c.starts_with("kb:tbyes:")))
        .expect("a takeback proposal");
    let id = m
        .custom_ids()
        .into_iter()
        .find(|c| c.starts_with(&format!("kb:{action}:")))
        .expect("its button");
    (m.id, id)
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn takebacks_accepted_declined_voided_and_refused_when_rated() -> Outcome {
        let d = TestBot::start().await?;
        // Rated: refused.
        let rated = game(&d, true).await?;
        d.play(&d.alice, rated.thread, "e4").await?;
        let no = takeback(&d, &d.alice, rated.thread.get()).await?;
        assert_eq!(no, "Takebacks are only for casual games; this one is rated.");

        let g = game(&d, false).await?;
        let thread = g.thread.get();
        let none = takeback(&d, &d.alice, thread).await?;
        assert_eq!(none, "You have no move to take back.");
        d.play(&d.alice, thread, "e4").await?;
        // Declined.
        let asked = takeback(&d, &d.alice, thread).await?;
        assert_eq!(asked, "Takeback of 1 ply proposed; your opponent is asked.");
        let (m, no) = proposal(&d, thread, "tbno");
        let own = d.click(&d.alice, m, &no).await?;
        assert_eq!(own.content().unwrap(), "That is your own proposal: your opponent answers it.");
        let r = d.click(&d.bob, m, &no).await?;
        assert_eq!(r.content(), Some("Takeback declined."));
        assert!(
            public_texts(&d, thread)
                .iter()
                .any(|t| t.contains("declined the takeback"))
        );
        assert_eq!(moves(&d, g.game).await, ["e4"]);
        // An answered proposal keeps its text and loses its buttons.
        assert!(buttons_on(&d, thread, m).is_empty(), "declined");
        // Accepted: back to the start, a new board, alice moves again.
        takeback(&d, &d.alice, thread).await?;
        let boards_before = d.boards(thread).len();
        let (m, yes) = proposal(&d, thread, "tbyes");
        let r = d.click(&d.bob, m, &yes).await?;
        assert_eq!(r.content(), Some("Takeback accepted."), "{r:?}");
        assert!(moves(&d, g.game).await.is_empty());
        let boards = d.boards(thread);
        assert_eq!(boards.len(), boards_before + 1);
        assert_eq!(boards.last().unwrap().content(), "**Atomic** · alice (White) vs bob (Black) · game #2\nTakeback: alice (White) took back e4, with bob's agreement.\n<@1001> (White) to move · deadline <t:1763959200:f> (<t:1763959200:R>)");
        assert!(buttons_on(&d, thread, m).is_empty(), "accepted");
        let r = d.play(&d.alice, thread, "d4").await?;
        assert!(r.content().unwrap().starts_with("Played"), "{r:?}");
        // A move voids a standing proposal: exactly one of the two wins.
        takeback(&d, &d.alice, thread).await?;
        let (m, yes) = proposal(&d, thread, "tbyes");
        d.play(&d.bob, thread, "d5").await?;
        // The move's board takes the proposal's buttons down; a click that raced it is refused.
        assert!(buttons_on(&d, thread, m).is_empty(), "voided by a move");
        let late = d.click(&d.bob, m, &yes).await?;
        assert_eq!(late.content() .unwrap(), "No takeback proposal stands (a move since it was made voids it).");
        assert_eq!(moves(&d, g.game).await, ["d4", "d5"]);
        finish(d.driver).await
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_note_is_shown_only_to_its_owner() -> Outcome {
        let d = TestBot::start().await?;
        let g = game(&d, true).await?;
        let thread = g.thread.get();
        let r = note(
            &d,
            &d.alice,
            vec![CommandOption::string("text", "plan: castle long")],
        )
        .await?;
        assert!(r.is_ephemeral());
        assert_eq!(r.content().unwrap(), "Your private note for game #1 (only you see it):\nplan: castle long");
        note(
            &d,
            &d.alice,
            vec![CommandOption::string("text", "watch f7")],
        )
        .await?;
        let carol = note(&d, &d.carol, vec![]).await?;
        assert_eq!(carol.content().unwrap(), "Only the two players can keep notes in this game.");
        let bob = note(&d, &d.bob, vec![]).await?;
        assert_eq!(bob.content().unwrap(), "You have no note for game #1.");

        let board = d.boards(thread).pop().unwrap();
        let view = board
            .custom_ids()
            .into_iter()
            .find(|c| c.starts_with("kb:view:"))
            .unwrap();
        let mine = d.click(&d.alice, board.id, &view).await?;
        assert!(mine.is_ephemeral());
        let text = mine.content().unwrap();
        assert_eq!(text, "**Atomic** · alice (White) vs bob (Black) · game #1\n<@1001> (White) to move · deadline <t:1763959200:f> (<t:1763959200:R>)\n**Your note** (only you see it):\nplan: castle long\nwatch f7");
        let theirs = d.click(&d.bob, board.id, &view).await?;
        assert!(!theirs.content().unwrap().contains("castle"), "{theirs:?}");
        // `/board private:true` is the same own view, note included (noticed at stop 26);
        // the public `/board` never shows it.
        let private = d
            .cmd(
                &d.alice,
                thread,
                "board",
                vec![CommandOption::boolean("private", true)],
            )
            .await?;
        assert!(private.is_ephemeral());
        assert_eq!(private.content() .unwrap(), "**Atomic** · alice (White) vs bob (Black) · game #1\n<@1001> (White) to move · deadline <t:1763959200:f> (<t:1763959200:R>)\n**Your note** (only you see it):\nplan: castle long\nwatch f7");
        let public = d.cmd(&d.alice, thread, "board", vec![]).await?;
        assert!(!public.content().unwrap().contains("castle"), "{public:?}");
        // A public `/board` that is refused answers privately, as every refusal does
        // (it once said "There is no game #999." to the whole channel).
        let missing = d
            .cmd(
                &d.alice,
                thread,
                "board",
                vec![CommandOption::string("game", "999")],
            )
            .await?;
        assert!(missing.is_ephemeral(), "{missing:?}");
        assert_eq!(missing.content().unwrap(), "There is no game #999.");
        assert!(
            public_texts(&d, thread)
                .iter()
                .all(|t| !t.contains("castle"))
        );
        let cleared = note(&d, &d.alice, vec![CommandOption::boolean("clear", true)]).await?;
        assert_eq!(cleared.content().unwrap(), "You have no note for game #1.");
        finish(d.driver).await
    }
}

kaboom_testkit::dbtest! {
    /// The Rematch button, once per finished game: a second click (or the opponent's)
    /// points to the rematch that stands instead of offering another.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_rematch_is_accepted_with_colours_swapped() -> Outcome {
        let d = TestBot::start().await?;
        let g = game(&d, false).await?;
        let thread = g.thread.get();
        d.resign(&d.alice, thread).await?;
        let result = d.boards(thread).pop().unwrap();
        let rematch = result
            .custom_ids()
            .into_iter()
            .find(|c| c.starts_with("kb:rematch:"))
            .expect("a Rematch button on the result");
        assert!(rematch.len() <= 100);
        let carol = d.click(&d.carol, result.id, &rematch).await?;
        assert_eq!(carol.content().unwrap(), "Only the two players can ask for a rematch in this game.");
        let r = d.click(&d.alice, result.id, &rematch).await?;
        assert_eq!(r.content().unwrap(), "Rematch offered: <@1002> can accept it in the channel.");
        // A second click, by alice again or by bob, offers nothing twice: it points to the
        // rematch that stands.
        for user in [&d.alice, &d.bob] {
            let again = d.click(user, result.id, &rematch).await?;
            assert_eq!(again.content() .unwrap(), "A rematch already stands (challenge #2, offered by <@1001>): it is waiting in the channel to be accepted.");
        }
        d.outbox_delivered().await?;
        let offers = d
            .fake
            .messages_in(d.fake.text_channel_id())
            .into_iter()
            .filter(|m| m.content().starts_with("Rematch of game"))
            .count();
        assert_eq!(offers, 1, "one rematch challenge in the channel");
        let offer = d
            .fake
            .messages_in(d.fake.text_channel_id())
            .into_iter()
            .rev()
            .find(|m| m.content().starts_with("Rematch of game"))
            .expect("the rematch challenge in the channel");
        assert_eq!(offer.content(), "Rematch of game #1: <@1001> challenges <@1002> to a game of **Atomic** (3 days per move, casual, challenger plays Black).");
        let accept = offer
            .custom_ids()
            .into_iter()
            .find(|c| c.starts_with("kb:accept:"))
            .unwrap();
        let by_alice = d.click(&d.alice, offer.id, &accept).await?;
        assert!(
            !by_alice.content().unwrap().contains("Game on"),
            "{by_alice:?}"
        );
        let started = d.click(&d.bob, offer.id, &accept).await?;
        assert_eq!(started.content().unwrap(), "Game on! See <#1323802873267486720>.");
        let threads = d.fake.threads();
        let new_thread = threads.last().unwrap().id;
        assert_ne!(new_thread, thread);
        let new_game = d.fake.messages_in(new_thread);
        assert!(
            new_game
                .iter()
                .any(|m| m.content().contains("bob") && m.content().contains("(White) to move")),
            "{new_game:?}"
        );
        let row = kaboom_store::games::by_thread(&d.db, kaboom_domain::ids::ChannelId(new_thread))
            .await?
            .unwrap();
        assert_eq!(row.white_id, UserId(d.bob.id));
        assert_eq!(row.black_id, UserId(d.alice.id));
        assert!(!row.rated);
        finish(d.driver).await
    }
}

kaboom_testkit::dbtest! {
    /// BOT-BEIRUT-1 and BOT-BEIRUT-2: in Beirut a line cannot name the opponent's Boom (the
    /// same refusal whether or not a carrier stands there), a Boom ends the opponent's lines,
    /// and no takeback crosses a Boom.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn beirut_takebacks_never_cross_a_boom() -> Outcome {
        let d = TestBot::start().await?;
        let g = game_of(&d, BEIRUT, false).await?;
        let thread = g.thread.get();
        d.choose_carriers_by_dm(&d.alice, g.game, &["b1"]).await?;
        d.choose_carriers_by_dm(&d.bob, g.game, &["g8"]).await?;
        d.outbox_delivered().await?;
        let real = line(&d, &d.bob, thread, "Boom@b1 e5").await?;
        let not = line(&d, &d.bob, thread, "Boom@g1 e5").await?;
        assert_eq!(real, "In Beirut a conditional line cannot name your opponent's Boom: their carriers are hidden from you. A Boom by your opponent ends your lines.");
        assert_eq!(real, not, "the refusal says nothing about alice's carriers");
        // Bob's own Boom may be named.
        line(&d, &d.bob, thread, "e4 Boom@g8").await?;
        line(&d, &d.bob, thread, "d4 e5").await?;
        let r = d.play(&d.alice, thread, "Boom@b1").await?;
        assert!(r.content().unwrap().starts_with("Played"), "{r:?}");
        assert_eq!(
            moves(&d, g.game).await,
            ["Boom@b1"],
            "no line answered the Boom"
        );
        d.outbox_delivered().await?;
        let dms: Vec<String> = d
            .fake
            .messages_in(d.fake.dm_channel_for(d.bob.id))
            .into_iter()
            .map(|m| m.content().to_string())
            .filter(|t| t.contains("conditional lines"))
            .collect();
        assert_eq!(dms.len(), 1, "{dms:?}");
        assert_eq!(dms[0], "Game #1: 2 of your conditional lines no longer apply and were dropped:\n- `e4 Boom@g8`: your opponent played Boom@b1.\n- `d4 e5`: your opponent played Boom@b1.");
        // The Boom revealed b1: no takeback across it, now or after bob's reply.
        let no = takeback(&d, &d.alice, thread).await?;
        assert_eq!(no, "In Beirut a takeback cannot undo a Boom or a Dead Man's Switch blast: it revealed a hidden carrier, which a takeback cannot hide again.");
        d.play(&d.bob, thread, "e5").await?;
        let no = takeback(&d, &d.alice, thread).await?;
        assert_eq!(no, "In Beirut a takeback cannot undo a Boom or a Dead Man's Switch blast: it revealed a hidden carrier, which a takeback cannot hide again.");
        // Alice's plain move after it may be taken back.
        d.play(&d.alice, thread, "e4").await?;
        let yes = takeback(&d, &d.alice, thread).await?;
        assert_eq!(yes, "Takeback of 1 ply proposed; your opponent is asked.");
        finish(d.driver).await
    }
}

kaboom_testkit::dbtest! {
    /// A vacation start racing a time forfeit: exactly one wins. Both are write transactions
    /// that check the deadline (the vacation moves only deadlines still ahead; the scheduler
    /// forfeits only deadlines passed), so whatever order they commit in, a game whose time ran
    /// out is forfeited and one whose time had not is saved, never both nor neither.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_vacation_start_racing_a_forfeit_exactly_one_wins() {
        use kaboom_service::Services;
        use kaboom_store::challenges::{ColorChoice, NewChallenge};
        use kaboom_testkit::notifier::RecordingNotifier;
        use kaboom_testkit::painter::PlainPainter;

        let alice = UserId(1001);
        let bob = UserId(1002);
        let (db, _dir) = kaboom_testkit::temp_db().await;
        let clock = Arc::new(TestClock::new(T0));
        let services = Services::new(db.clone(), clock.clone(), Arc::new(PlainPainter));
        let scheduler = kaboom_testkit::default_scheduler(
            db.clone(),
            clock.clone(),
            Arc::new(RecordingNotifier::default()),
        );
        let game = |days| {
            let services = services.clone();
            async move {
                let c = services
                    .challenges().create(NewChallenge {
                        guild_id: None,
                        channel_id: kaboom_domain::ids::ChannelId(10),
                        challenger_id: alice,
                        challenger_name: "alice".into(),
                        opponent_id: Some(bob),
                        variant: kaboom_rules::Variant::Atomic,
                        options: kaboom_rules::GameOptions::default(),
                        days_per_move: Some(days),
                        color: ColorChoice::White,
                        rated: false,
                        venue: kaboom_store::challenges::Venue::Thread,
                    })
                    .await
                    .unwrap();
                let id = services
                    .challenges().accept(c.id, bob, "bob")
                    .await
                    .unwrap()
                    .row
                    .id;
                services.games().play(kaboom_service::PlayRequest::new(id, alice, "e4")).await.unwrap();
                id
            }
        };
        let late = game(1).await; // bob's time runs out after 1 day
        let safe = game(3).await; // ... after 3 days
        clock.advance(DAY + 1);
        let (vacation, swept) = tokio::join!(
            services.comforts().start_vacation(bob, "bob", None, Some(1)),
            scheduler.sweep()
        );
        let vacation = vacation.unwrap();
        swept.unwrap();
        scheduler.sweep().await.unwrap();
        assert!(!vacation.stopped.contains(&late), "{vacation:?}");
        assert!(vacation.stopped.contains(&safe), "{vacation:?}");
        let row = |id| {
            let db = db.clone();
            async move { kaboom_store::games::get(&db, id).await.unwrap().unwrap() }
        };
        assert_eq!(row(late).await.reason.as_deref(), Some("time-forfeit"));
        let saved = row(safe).await;
        assert!(saved.result.is_none());
        assert_eq!(saved.deadline_at, Some(T0 + 4 * DAY), "one day stood still");
    }
}

kaboom_testkit::dbtest! {
    /// A takeback accepted racing the opponent's move: exactly one wins (both are one write
    /// transaction with the expected-ply check; a move voids the proposal), and the loser is
    /// told why.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_takeback_racing_a_move_exactly_one_wins() {
        use kaboom_service::comforts::ComfortRefusal;
        use kaboom_service::{Refusal, ServiceError, Services};
        use kaboom_store::challenges::{ColorChoice, NewChallenge};
        use kaboom_testkit::painter::PlainPainter;

        let alice = UserId(1001);
        let bob = UserId(1002);
        let (db, _dir) = kaboom_testkit::temp_db().await;
        let clock = Arc::new(TestClock::new(T0));
        let services = Services::new(db.clone(), clock, Arc::new(PlainPainter));
        for round in 0..8 {
            let c = services
                .challenges().create(NewChallenge {
                    guild_id: None,
                    channel_id: kaboom_domain::ids::ChannelId(10),
                    challenger_id: alice,
                    challenger_name: "alice".into(),
                    opponent_id: Some(bob),
                    variant: kaboom_rules::Variant::Atomic,
                    options: kaboom_rules::GameOptions::default(),
                    days_per_move: None,
                    color: ColorChoice::White,
                    rated: false,
                    venue: kaboom_store::challenges::Venue::Thread,
                })
                .await
                .unwrap();
            let id = services
                .challenges().accept(c.id, bob, "bob")
                .await
                .unwrap()
                .row
                .id;
            services.games().play(kaboom_service::PlayRequest::new(id, alice, "e4")).await.unwrap();
            services.comforts().propose_takeback(id, alice).await.unwrap();
            let (taken, moved) = tokio::join!(
                services.comforts().answer_takeback(id, bob, true),
                services.games().play(kaboom_service::PlayRequest::new(id, bob, "e5"))
            );
            let actions = kaboom_store::games::actions(&db, id).await.unwrap();
            match (taken, moved) {
                // The move lost: it was checked before the takeback and saved after it
                // (the expected-ply check), or read the game after it (not bob's turn).
                (
                    Ok(_),
                    Err(
                        ServiceError::MovedOn { .. }
                        | ServiceError::Refused(Refusal::NotYourTurn { .. }),
                    ),
                ) => assert!(actions.is_empty(), "{round}"),
                (Err(ServiceError::Refused(Refusal::Comfort(ComfortRefusal::NoTakeback))), Ok(_)) => {
                    assert_eq!(actions, ["e4", "e5"], "{round}");
                }
                (t, m) => panic!("round {round}: not exactly one winner: {t:?} / {m:?}"),
            }
        }
    }
}
