//! End-to-end tests: the real bot (poise/serenity) against the fake Discord
//! (`fake_discord`), on a temporary SQLite database. Whole games from
//! challenge to result, refusals, draw/resign/abort, concurrent moves, restart.
//!
//! The bot is started and driven with `kaboom_testkit::driver::Driver` (the same
//! driver as `kaboom demo`); the tests add their assertions around its steps.

use fake_discord::{CommandOption, FakeDiscord, ResponseKind};
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::driver::{Driver, WAIT};
use sha2::{Digest, Sha256};

use kaboom_domain::ids::GameId;
use kaboom_testkit::fixture::{ATOMIC, BEIRUT, BOMBALOT, BOMBERMAN, NUKE, TestBot};

// Choice indexes of the slash options (poise ChoiceParameter: declaration order).

/// What a test returns: a driver step that fails fails the test with its reason.
type Outcome = Result<(), DemoError>;

/// Posts a challenge from alice (White) to bob, checks that nobody but bob may accept,
/// and has bob accept; returns (thread id, game id).
async fn start_game(d: &Driver, variant: i64) -> Result<(u64, GameId), DemoError> {
    let posted = d.challenge(variant).await?;
    let message = posted.message_id.expect("challenge message");
    let ids = posted.custom_ids();
    assert_eq!(ids.len(), 3, "{ids:?}");
    let accept = ids.iter().find(|i| i.starts_with("kb:accept:")).unwrap();
    // Nobody but bob may accept.
    let refused = d.click(&d.carol, message, accept).await?;
    assert_eq!(
        refused.content().unwrap(),
        "This challenge is addressed to someone else: only they can accept it."
    );
    let started = d.accept(&posted).await?;
    Ok((started.thread.get(), started.game))
}

/// The PGN file `/pgn` in `thread` answers carol with.
async fn pgn(d: &Driver, thread: u64) -> Result<String, DemoError> {
    let r = d.cmd(&d.carol, thread, "pgn", vec![]).await?;
    Ok(String::from_utf8(r.files[0].bytes.clone()).unwrap())
}

/// Plays `line` in the thread from the start, each action by the player to move (alice
/// is White), and checks that each is played. A minute passes on the bot's clock between
/// two actions, as between people's moves (the fastest correspondence players' pace), so a
/// long line stays within each player's commands per minute.
async fn play_line(d: &TestBot, thread: u64, line: &[impl AsRef<str>]) -> Outcome {
    for (i, action) in line.iter().enumerate() {
        let action = action.as_ref();
        let user = if i % 2 == 0 { &d.alice } else { &d.bob };
        d.clock.advance(60);
        let r = d.play(user, thread, action).await?;
        assert!(
            r.content().unwrap_or_default().starts_with("Played"),
            "ply {} {action}: {r:?}",
            i + 1
        );
    }
    Ok(())
}

/// The checks every test ends with (every uploaded PNG decodes, the bot called no route
/// the fake does not know), then the bot stops.
async fn finish(d: Driver) -> Outcome {
    assert_pngs_valid(&d.fake);
    assert!(
        d.fake.unknown_routes().is_empty(),
        "{:?}",
        d.fake.unknown_routes()
    );
    d.stop().await;
    Ok(())
}

/// Every uploaded PNG decodes.
fn assert_pngs_valid(fake: &FakeDiscord) {
    let files = fake.attachments();
    assert!(!files.is_empty());
    for f in files.iter().filter(|f| f.filename.ends_with(".png")) {
        crate::common::decode_png(&f.bytes);
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn atomic_game_from_challenge_to_exploded_king() -> Outcome {
        let d = TestBot::start().await?;
        let (thread, game) = start_game(&d, ATOMIC).await?;
        let channel = d.fake.channel(thread).unwrap();
        assert_eq!(channel.name(), Some("Atomic · alice vs bob"));
        let start = d.boards(thread);
        assert_eq!(start.len(), 1);
        assert_eq!(start[0].content(), "**Atomic** · alice (White) vs bob (Black) · game #1\n<@1001> (White) to move · deadline <t:1763959200:f> (<t:1763959200:R>)");

        // Autocomplete lists the caller's legal actions with labels.
        let choices = d.autocomplete(&d.alice, thread, "kni").await?;
        assert_eq!(choices.len(), 4, "{choices:?}");
        assert!(
            choices
                .iter()
                .any(|(label, value)| label.contains("Knight g1") && value == "Nf3")
        );

        for (user, text) in [
            (&d.alice, "Nf3"),
            (&d.bob, "a6"),
            (&d.alice, "g5"),
            (&d.bob, "a5"),
        ] {
            let text = if text == "g5" { "f3g5" } else { text };
            let ack = d.play(user, thread, text).await?;
            assert!(ack.is_ephemeral());
            assert!(ack.content().unwrap().starts_with("Played"), "{ack:?}");
        }
        let choices = d.autocomplete(&d.alice, thread, "Nxf7").await?;
        assert_eq!(choices[0].0, "Nxf7# · blast removes Ke8, Bf8, Ng8");
        d.play(&d.alice, thread, "Nxf7").await?;
        let last = d.boards(thread).pop().unwrap();
        assert_eq!(last.content(), "**Atomic** · alice (White) vs bob (Black) · game #1\n1. Nf3 a6 2. Ng5 a5 **3. Nxf7#** by alice · removed the capturing knight; Black's Ke8, Bf8, Ng8, pawn f7\nGame over: **1-0** · alice (White) wins by king exploded\nRatings (Atomic): alice 1741? (+241) · bob 1258? (-242)");
        assert_eq!(d.boards(thread).len(), 6);
        // Only the latest board message keeps buttons (My view, once the game is over).
        let with_buttons: Vec<_> = d
            .boards(thread)
            .into_iter()
            .filter(|m| !m.custom_ids().is_empty())
            .collect();
        assert_eq!(with_buttons.len(), 1);
        assert_eq!(with_buttons[0].id, last.id);
        // After the end, moves are refused.
        let late = d.play(&d.bob, thread, "e6").await?;
        assert!(late.is_ephemeral());
        assert_eq!(late.content().unwrap(), "The game is over: 1-0, White won by king exploded.");

        let text = pgn(&d, thread).await?;
        assert_eq!(text, "[Event \"Kaboom game #1\"]\n[Site \"Discord\"]\n[Date \"2025.11.21\"]\n[Round \"-\"]\n[White \"alice\"]\n[Black \"bob\"]\n[Result \"1-0\"]\n[Variant \"Atomic\"]\n[Termination \"king exploded\"]\n\n1. Nf3 a6 2. Ng5 a5 3. Nxf7# 1-0\n");
        assert!(text.contains(&format!("game #{game}")));
        finish(d.driver).await
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn refusals_are_ephemeral_and_say_why() -> Outcome {
        let d = TestBot::start().await?;
        let (thread, _) = start_game(&d, ATOMIC).await?;
        let r = d.play(&d.carol, thread, "e4").await?;
        assert!(r.is_ephemeral());
        assert_eq!(r.content().unwrap(), "Only alice and bob can move in this game; you can watch with /board.");
        let r = d.play(&d.bob, thread, "e5").await?;
        assert!(r.is_ephemeral());
        assert_eq!(r.content().unwrap(), "It is not your turn in game #1: alice (White) is to move. To answer their move in advance, use `/premove line` (their move, then your reply).");
        let r = d.play(&d.alice, thread, "e5").await?;
        assert!(r.is_ephemeral());
        assert_eq!(r.content().unwrap(), "e5 is not legal here: no pawn of yours can go to e5; legal moves: Na3, Nc3, Nf3, Nh3, a3, a4, b3, b4, c3, c4, d3, d4 and 8 more");
        let r = d.play(&d.alice, thread, "castle please").await?;
        let text = r.content().unwrap();
        assert!(r.is_ephemeral());
        assert_eq!(text, "'castle please' is not a move: expected SAN like Nf3, exd5, Nbd7, O-O (or 0-0), e8=Q, or coordinates like e2e4, e7e8q. Some legal actions: Na3, Nc3, Nf3, Nh3, a3, a4, b3, b4");
        // Nothing was posted: only the starting board.
        assert_eq!(d.boards(thread).len(), 1);
        // Spectators may look.
        let look = d.cmd(&d.carol, thread, "board", vec![]).await?;
        assert_eq!(look.files.len(), 1);
        assert!(!look.is_ephemeral());
        // Spectators get no autocomplete.
        assert!(d.autocomplete(&d.carol, thread, "").await?.is_empty());
        // On the opponent's turn the list is not silently empty: one choice says whose
        // move it is and points to /premove; submitting it is refused with the same
        // pointer.
        let choices = d.autocomplete(&d.bob, thread, "e5").await?;
        assert_eq!(
            choices,
            [(
                "Game #1: alice is to move. /premove line answers in advance".to_string(),
                serde_json::json!("e5")
            )]
        );
        // Outside any thread with two running games (the `game` option comes second, so
        // nothing names the game yet): the actions of the game waiting on the player, each
        // naming its game, submitted with it.
        let (second, _) = start_game(&d, ATOMIC).await?;
        let channel = d.fake.text_channel_id();
        let choices = d.autocomplete(&d.alice, channel, "Nf").await?;
        assert_eq!(
            choices,
            [(
                "#1 vs bob · Nf3 · Knight g1".to_string(),
                serde_json::json!("#1 Nf3")
            )]
        );
        let played = d.play(&d.alice, channel, "#1 Nf3").await?;
        // Played outside the game's thread: the answer links to the board just posted in
        // the thread (the deliverer's own record of it, with no query after the wait).
        let board = d.boards(thread).last().map(|m| m.id).unwrap_or_default();
        assert_eq!(
            played.content(),
            Some(
                format!(
                    "Played **Nf3** in game #1: https://discord.com/channels/{}/{}/{board}",
                    d.fake.guild_id(),
                    thread
                )
                .as_str()
            ),
            "{played:?}"
        );
        // Now only game #2 waits on alice.
        let choices = d.autocomplete(&d.alice, channel, "Nf").await?;
        assert_eq!(choices[0].1, serde_json::json!("#2 Nf3"), "{choices:?}");
        // Bob's only waiting game is #1; in game #2's thread it is alice's turn.
        let choices = d.autocomplete(&d.bob, second, "").await?;
        assert_eq!(choices[0].0, "Game #2: alice is to move. /premove line answers in advance");
        assert_eq!(choices[0].1, serde_json::json!("?"));
        finish(d.driver).await
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn draw_resign_and_abort() -> Outcome {
        let d = TestBot::start().await?;
        // Draw offered with the button, accepted with the button under the offer.
        let (thread, _) = start_game(&d, ATOMIC).await?;
        d.play(&d.alice, thread, "e4").await?;
        let board = d.boards(thread).pop().unwrap();
        let draw_id = board
            .custom_ids()
            .into_iter()
            .find(|c| c.starts_with("kb:draw:"))
            .unwrap();
        let r = d.click(&d.carol, board.id, &draw_id).await?;
        assert_eq!(r.content().unwrap(), "Only alice and bob can offer a draw in this game; you can watch with /board.");
        let r = d.click(&d.bob, board.id, &draw_id).await?;
        assert_eq!(r.content().unwrap(), "Draw offered. You may still make your move.");
        let offer = d.fake.messages_in(thread).pop().unwrap();
        assert_eq!(offer.content(), "<@1001> bob (Black) offers a draw. It stands until you accept or decline it, or make a move.");
        let yes = offer
            .custom_ids()
            .into_iter()
            .find(|c| c.starts_with("kb:drawyes:"))
            .unwrap();
        let r = d.click(&d.bob, offer.id, &yes).await?;
        assert_eq!(r.content().unwrap(), "That is your own draw offer: your opponent answers it.");
        d.click(&d.alice, offer.id, &yes).await?;
        let end = d.boards(thread).pop().unwrap();
        assert_eq!(end.content(), "**Atomic** · alice (White) vs bob (Black) · game #1\nGame over: **1/2-1/2** · draw by agreement\nNot rated: a game counts for ratings only once both players have moved.");

        // Resign with the button and its confirmation.
        let (thread, _) = start_game(&d, ATOMIC).await?;
        let board = d.boards(thread).pop().unwrap();
        let resign = board
            .custom_ids()
            .into_iter()
            .find(|c| c.starts_with("kb:resign:"))
            .unwrap();
        let confirm = d.click(&d.bob, board.id, &resign).await?;
        assert!(confirm.is_ephemeral());
        let yes = confirm.custom_ids().pop().unwrap();
        let confirm_msg = confirm.message_id.expect("confirmation message");
        d.click(&d.bob, confirm_msg, &yes).await?;
        let end = d.boards(thread).pop().unwrap();
        assert_eq!(end.content(), "**Atomic** · alice (White) vs bob (Black) · game #2\nGame over: **1-0** · alice (White) wins by resignation\nNot rated: a game counts for ratings only once both players have moved.");

        // Abort before both have moved; not after.
        let (thread, _) = start_game(&d, ATOMIC).await?;
        d.play(&d.alice, thread, "e4").await?;
        let r = d.cmd(&d.bob, thread, "abort", vec![]).await?;
        assert_eq!(r.content().unwrap(), "Game #3 is over: aborted, no result");
        let end = d.boards(thread).pop().unwrap();
        assert_eq!(end.content(), "**Atomic** · alice (White) vs bob (Black) · game #3\nGame over: aborted, no result");
        let (thread, _) = start_game(&d, ATOMIC).await?;
        d.play(&d.alice, thread, "e4").await?;
        d.play(&d.bob, thread, "e5").await?;
        let r = d.cmd(&d.alice, thread, "abort", vec![]).await?;
        assert!(r.is_ephemeral());
        assert_eq!(r.content().unwrap(), "Both sides have moved: the game can no longer be aborted. You can /resign or offer a /draw.");
        // /games lists the one still active, with its thread.
        let r = d
            .cmd(&d.alice, d.fake.text_channel_id(), "games", vec![])
            .await?;
        let text = r.content().unwrap();
        assert!(
            text.contains(&format!("<#{thread}>")) && text.contains("alice to move"),
            "{text}"
        );

        // `/resign` asks the Resign button's question and changes nothing until its
        // "Yes, resign" is pressed: one slip of the keyboard does not lose a game.
        let boards = d.boards(thread).len();
        let question = d.cmd(&d.bob, thread, "resign", vec![]).await?;
        assert!(question.is_ephemeral());
        assert_eq!(question.content().unwrap(), "Do you really want to resign game #4?");
        assert_eq!(question.custom_ids(), ["kb:resignyes:4"]);
        assert_eq!(d.boards(thread).len(), boards, "nothing posted before the answer");
        let r = d.cmd(&d.carol, thread, "resign", vec![]).await?;
        assert_eq!(r.content().unwrap(), "Only the two players can resign this game.");
        assert!(r.custom_ids().is_empty());
        d.resign(&d.bob, thread).await?;
        let end = d.boards(thread).pop().unwrap();
        assert_eq!(end.content(), "**Atomic** · alice (White) vs bob (Black) · game #4\nGame over: **1-0** · alice (White) wins by resignation\nRatings (Atomic): alice 1741? (+241) · bob 1258? (-242)");
        let r = d.cmd(&d.bob, thread, "resign", vec![]).await?;
        assert_eq!(r.content().unwrap(), "This game is already over.");
        finish(d.driver).await
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn two_concurrent_moves_apply_once() -> Outcome {
        let d = TestBot::start().await?;
        let (thread, _) = start_game(&d, ATOMIC).await?;
        let a = d.fake.slash_command(
            &d.alice,
            thread,
            "move",
            vec![CommandOption::string("action", "e4")],
        )?;
        let b = d.fake.slash_command(
            &d.alice,
            thread,
            "move",
            vec![CommandOption::string("action", "d4")],
        )?;
        let (ra, rb) = tokio::join!(d.answer(&a), d.answer(&b));
        let (ra, rb) = (ra?, rb?);
        let played = [&ra, &rb]
            .iter()
            .filter(|r| r.content().unwrap_or_default().starts_with("Played"))
            .count();
        assert_eq!(played, 1, "{ra:?} {rb:?}");
        let loser = if ra.content().unwrap_or_default().starts_with("Played") {
            &rb
        } else {
            &ra
        };
        let text = loser.content().unwrap();
        assert!(
            text.contains("moved on") || text.contains("not your turn"),
            "{text}"
        );
        assert_eq!(d.boards(thread).len(), 2);
        finish(d.driver).await
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn restart_mid_game_then_a_button_from_before() -> Outcome {
        let d = TestBot::start().await?;
        let (thread, _) = start_game(&d, ATOMIC).await?;
        d.play(&d.alice, thread, "e4").await?;
        d.play(&d.bob, thread, "e5").await?;
        let old_board = d.boards(thread).pop().unwrap();

        let d = d.driver.restart().await?;
        // A button on a message sent before the restart still works.
        let draw_id = old_board
            .custom_ids()
            .into_iter()
            .find(|c| c.starts_with("kb:draw:"))
            .unwrap();
        let r = d.click(&d.alice, old_board.id, &draw_id).await?;
        assert_eq!(r.content().unwrap(), "Draw offered. You may still make your move.");
        let view_id = old_board
            .custom_ids()
            .into_iter()
            .find(|c| c.starts_with("kb:view:"))
            .unwrap();
        let r = d.click(&d.bob, old_board.id, &view_id).await?;
        assert!(r.is_ephemeral() || r.kind == ResponseKind::EditOriginal);
        assert_eq!(r.files.len(), 1);
        // And the game goes on; bob's move declines the offer.
        let r = d.play(&d.alice, thread, "Nf3").await?;
        assert!(r.content().unwrap().starts_with("Played"), "{r:?}");
        d.play(&d.bob, thread, "Nc6").await?;
        let last = d.boards(thread).pop().unwrap();
        assert_eq!(last.content(), "**Atomic** · alice (White) vs bob (Black) · game #1\n1. e4 e5 2. Nf3 **2... Nc6** by bob\n(The draw offer lapsed with this move.)\n<@1001> (White) to move · deadline <t:1763959200:f> (<t:1763959200:R>)");
        finish(d).await
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn beirut_with_closed_dms_to_a_boom_on_the_king() -> Outcome {
        let d = TestBot::start().await?;
        d.fake.refuse_dms_for(d.bob.id);
        let (thread, game) = start_game(&d, BEIRUT).await?;
        // Alice gets her menu by DM.
        let dms = d
            .fake
            .wait_for_messages_in(d.fake.dm_channel_for(d.alice.id), 1, WAIT)
            .await?;
        let menu_id = format!("kb:carriers:{game}");
        assert_eq!(dms[0].custom_ids(), std::slice::from_ref(&menu_id));
        assert!(dms[0].json.to_string().contains("Knight g1"));
        assert!(
            !dms[0].json.to_string().contains("King e1"),
            "the king cannot carry (BE-2)"
        );
        let sent = d.fake.select_menu(&d.alice, dms[0].id, &menu_id, &["g1"])?;
        let ok = d.answer(&sent).await?;
        assert_eq!(ok.content().unwrap(), "Your carrier in game #1: your knight on **g1**. Your choice is sealed: **Verify fairness** under the board shows the proof. Waiting for your opponent to choose.");
        // Bob's DMs are closed: the thread offers "Choose privately".
        let fallback = d
            .fake
            .messages_in(thread)
            .into_iter()
            .find(|m| m.custom_ids().iter().any(|c| c.starts_with("kb:choose:")))
            .expect("a Choose privately button");
        assert_eq!(fallback.content(), "<@1002> I could not send you a direct message. Click below to choose your carriers privately (only you will see the menu).");
        // Moving before the carriers are chosen is refused.
        let r = d.play(&d.alice, thread, "Nf3").await?;
        assert_eq!(r.content().unwrap(), "The game has not started: both players must choose their carriers first.");
        let menu = d
            .click(&d.bob, fallback.id, &format!("kb:choose:{game}"))
            .await?;
        assert!(menu.is_ephemeral() || menu.kind == ResponseKind::EditOriginal);
        assert_eq!(menu.custom_ids(), std::slice::from_ref(&menu_id));
        let menu_msg = menu.message_id.expect("the ephemeral menu message");
        let sent = d.fake.select_menu(&d.bob, menu_msg, &menu_id, &["b8"])?;
        let ok = d.answer(&sent).await?;
        assert_eq!(ok.content().unwrap(), "Your carrier in game #1: your knight on **b8**. Your choice is sealed: **Verify fairness** under the board shows the proof.");
        assert_eq!(
            ok.files.len(),
            1,
            "the private confirmation shows bob's own view"
        );
        let started = d.boards(thread).pop().unwrap();
        // No wall of hex in the public post; the commitments are behind a button.
        assert!(!started.content().contains("`"));
        assert_eq!(started.content(), "**Beirut** · alice (White) vs bob (Black) · game #1\nBoth players have chosen: play starts.\nBoth carriers are secret and sealed: **Verify fairness** shows the proof, and every carrier is revealed when the game ends.\n<@1001> (White) to move · deadline <t:1763959200:f> (<t:1763959200:R>)");
        let verify = format!("kb:fair:{game}");
        assert!(started.custom_ids().contains(&verify));
        let sealed = d.click(&d.carol, started.id, &verify).await?;
        let sealed = sealed.content().unwrap_or_default().to_string();
        assert!(
            sealed.contains("White: `") && !sealed.contains("salt `"),
            "commitments only while the game goes on: {sealed}"
        );

        play_line(&d, thread, &["Nf3", "a6", "Ng5", "a5", "Nxf7", "a4"]).await?;
        // Autocomplete offers alice her Boom (her own carrier).
        let choices = d.autocomplete(&d.alice, thread, "boom").await?;
        assert!(choices.iter().any(|(_, v)| v == "Boom@f7"), "{choices:?}");
        // No public payload so far shows a carrier (g1 moved to f7: b8 and g1 are the secrets).
        let pgn_text = pgn(&d, thread).await?;
        assert!(
            !pgn_text.contains("WhiteCarriers") && !pgn_text.contains("BlackCarriers"),
            "{pgn_text}"
        );
        assert!(!pgn_text.contains("FEN"), "{pgn_text}");
        let secrets = ["b8".to_string(), "g1".to_string()];
        let leak = d.leak(thread, 0, &secrets);
        assert!(leak.is_none(), "a carrier leaked: {leak:?}");

        d.play(&d.alice, thread, "Boom@f7").await?;
        let end = d.boards(thread).pop().unwrap();
        let text = end.content();
        assert_eq!(text, "**Beirut** · alice (White) vs bob (Black) · game #1\n… 2. Ng5 a5 3. Nxf7 a4 **4. Boom@f7#** by alice · removed White's Nf7; Black's Ke8, Bf8, Ng8, pawns e7, g7\nGame over: **1-0** · alice (White) wins by king exploded\nWhite's carrier: the knight from g1, exploded on f7\nBlack's carrier: the knight from b8, never moved\n(**Verify fairness** shows how to check them against the sealed choice.)\nRatings (Beirut): alice 1741? (+241) · bob 1258? (-242)");
        // Carriers named by piece, where they started and where they went.
        assert_eq!(text, "**Beirut** · alice (White) vs bob (Black) · game #1\n… 2. Ng5 a5 3. Nxf7 a4 **4. Boom@f7#** by alice · removed White's Nf7; Black's Ke8, Bf8, Ng8, pawns e7, g7\nGame over: **1-0** · alice (White) wins by king exploded\nWhite's carrier: the knight from g1, exploded on f7\nBlack's carrier: the knight from b8, never moved\n(**Verify fairness** shows how to check them against the sealed choice.)\nRatings (Beirut): alice 1741? (+241) · bob 1258? (-242)");
        assert!(!text.contains("printf") && !text.contains("salt"), "{text}");
        // Verify fairness: its sha256sum line reproduces the commitment sealed at the start.
        let proof = d.click(&d.carol, end.id, &verify).await?;
        let proof = proof.content().unwrap_or_default().to_string();
        let pre_start = proof.find("printf '%s' '").unwrap() + "printf '%s' '".len();
        let pre = &proof[pre_start..pre_start + proof[pre_start..].find('\'').unwrap()];
        assert!(pre.starts_with(&format!("kaboom-beirut-v1:{game}:white:g1:")));
        let digest = hex::encode(Sha256::digest(pre.as_bytes()));
        assert!(
            sealed.contains(&digest),
            "commitment {digest} was published when play started"
        );
        let pgn_text = pgn(&d, thread).await?;
        assert_eq!(pgn_text, "[Event \"Kaboom game #1\"]\n[Site \"Discord\"]\n[Date \"2025.11.21\"]\n[Round \"-\"]\n[White \"alice\"]\n[Black \"bob\"]\n[Result \"1-0\"]\n[Variant \"Beirut\"]\n[Carriers \"1\"]\n[Termination \"king exploded\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1 g1 b8\"]\n[WhiteCarriers \"g1\"]\n[BlackCarriers \"b8\"]\n\n1. Nf3 a6 2. Ng5 a5 3. Nxf7 a4 4. Boom@f7# 1-0\n");
        finish(d.driver).await
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn nuke_carriers_revealed_then_a_blast() -> Outcome {
        let d = TestBot::start().await?;
        let (thread, game) = start_game(&d, NUKE).await?;
        for (user, square) in [(&d.alice, "g1"), (&d.bob, "f7")] {
            d.choose_carriers_by_dm(user, game, &[square]).await?;
        }
        let started = d.boards(thread).pop().unwrap();
        assert_eq!(started.content(), "**Nuke** · alice (White) vs bob (Black) · game #1\nBoth players have chosen: play starts.\nWhite's carrier: the knight on **g1**\nBlack's carrier: the pawn on **f7**\n<@1001> (White) to move · deadline <t:1763959200:f> (<t:1763959200:R>)");
        play_line(&d, thread, &["Nf3", "a6", "Ng5", "a5"]).await?;
        let choices = d.autocomplete(&d.alice, thread, "Nx").await?;
        assert!(
            choices
                .iter()
                .any(|(l, v)| v == "Nxf7" && l.contains("blast")),
            "{choices:?}"
        );
        d.play(&d.alice, thread, "Nxf7").await?;
        let end = d.boards(thread).pop().unwrap();
        assert_eq!(end.content(), "**Nuke** · alice (White) vs bob (Black) · game #1\n1. Nf3 a6 2. Ng5 a5 **3. Nxf7#** by alice · removed the capturing knight; Black's Ke8, Bf8, Ng8, pawns f7, e7, g7\nGame over: **1-0** · alice (White) wins by king exploded\nRatings (Nuke): alice 1741? (+241) · bob 1258? (-242)");
        finish(d.driver).await
    }
}

/// A line of play that ends with `reason` and a winner, found by seeded random playouts
/// that take an immediately winning action whenever there is one (computed by the rules
/// library at test time, not stored).
fn find_line(variant: kaboom_rules::Variant, reason: kaboom_rules::EndReason) -> Vec<String> {
    use kaboom_rules::{AnyGame, GameOptions, Viewer};
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..5000 {
        let mut g = AnyGame::new(variant, GameOptions::default()).unwrap();
        let mut line = Vec::new();
        for _ in 0..90 {
            let actions = g.legal_actions(Viewer::Full);
            if actions.is_empty() {
                break;
            }
            let winning = actions.iter().find(|a| {
                let mut c = g.clone();
                c.play(None, &a.san).unwrap();
                c.status()
                    .outcome()
                    .is_some_and(|o| o.reason == reason && o.winner.is_some())
            });
            let pick = match winning {
                Some(a) => a.san.clone(),
                None => {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    actions[(seed % actions.len() as u64) as usize].san.clone()
                }
            };
            g.play(None, &pick).unwrap();
            line.push(pick);
            if let Some(o) = g.status().outcome() {
                if o.reason == reason && o.winner.is_some() {
                    return line;
                }
                break;
            }
        }
    }
    panic!("no {variant} line ending in {reason} found");
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn bomberman_game_to_checkmate() -> Outcome {
        let line = find_line(
            kaboom_rules::Variant::Bomberman,
            kaboom_rules::EndReason::Checkmate,
        );
        let d = TestBot::start().await?;
        let (thread, _) = start_game(&d, BOMBERMAN).await?;
        assert_eq!(
            d.fake.channel(thread).unwrap().name(),
            Some("Bomberman Chess · alice vs bob")
        );
        let choices = d.autocomplete(&d.alice, thread, &line[0]).await?;
        assert!(choices.iter().any(|(_, v)| v == &line[0]), "{choices:?}");
        play_line(&d, thread, &line).await?;
        // The last boards may wait out Discord's global rate limit (the outbox retries).
        d.outbox_delivered().await?;
        let end = d.boards(thread).pop().unwrap();
        assert_eq!(end.content(), "**Bomberman Chess** · alice (White) vs bob (Black) · game #1\n… 32... Bh5 33. exf4 Dxh4 34. Ni2 **34... Dxg4#** by bob · removed White's Bg4\nGame over: **0-1** · bob (Black) wins by checkmate\nRatings (Bomberman Chess): alice 1258? (-242) · bob 1741? (+241)");
        assert_eq!(d.boards(thread).len(), line.len() + 1);
        finish(d.driver).await
    }
}

kaboom_testkit::dbtest! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn bombalot_game_to_a_goal_win() -> Outcome {
        let line = find_line(
            kaboom_rules::Variant::Bombalot,
            kaboom_rules::EndReason::Goal,
        );
        let d = TestBot::start().await?;
        let (thread, _) = start_game(&d, BOMBALOT).await?;
        let choices = d.autocomplete(&d.alice, thread, "").await?;
        assert_eq!(choices.len(), 25, "at most 25 suggestions");
        play_line(&d, thread, &line).await?;
        // The last boards may wait out Discord's global rate limit (the outbox retries).
        d.outbox_delivered().await?;
        let end = d.boards(thread).pop().unwrap();
        assert_eq!(end.content(), "**Bombalot** · alice (White) vs bob (Black) · game #1\n… 35. e6-e7 h6-g6 36. e7-e8 g6-g5 **37. e8-e9#** by alice\nGame over: **1-0** · alice (White) wins by two pieces in the goal\nRatings (Bombalot): alice 1741? (+241) · bob 1258? (-242)");
        finish(d.driver).await
    }
}
