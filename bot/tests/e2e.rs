//! End-to-end tests: the real bot (poise/serenity) against the fake Discord
//! (`kaboom_bot::fake_discord`), on a temporary SQLite database. Whole games from
//! challenge to result, refusals, draw/resign/abort, concurrent moves, restart.

use std::sync::Arc;
use std::time::Duration;

use kaboom_bot::clock::TestClock;
use kaboom_bot::fake_discord::{
    CommandOption, FakeDiscord, FakeMessage, InteractionResponse, ResponseKind, SentInteraction,
    SimUser,
};
use kaboom_bot::painter::RendererPainter;
use kaboom_bot::services::Services;
use kaboom_bot::storage::Db;
use poise::serenity_prelude as serenity;
use sha2::{Digest, Sha256};

const WAIT: Duration = Duration::from_secs(30);
const T0: i64 = 1_763_700_000;

// Choice indexes of the slash options (poise ChoiceParameter: declaration order).
const ATOMIC: i64 = 0;
const BEIRUT: i64 = 1;
const NUKE: i64 = 2;
const WHITE: i64 = 0;

struct Bot {
    shards: Arc<serenity::ShardManager>,
    running: tokio::task::JoinHandle<()>,
}

impl Bot {
    async fn stop(self) {
        self.shards.shutdown_all().await;
        let _ = tokio::time::timeout(WAIT, self.running).await;
    }
}

struct World {
    fake: FakeDiscord,
    url: String,
    _dir: tempfile::TempDir,
    alice: SimUser,
    bob: SimUser,
    carol: SimUser,
}

async fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("kaboom.db").display());
    World {
        fake: FakeDiscord::start().await.expect("fake starts"),
        url,
        _dir: dir,
        alice: SimUser::new(1001, "alice"),
        bob: SimUser::new(1002, "bob"),
        carol: SimUser::new(1003, "carol"),
    }
}

async fn start_bot(w: &World) -> Bot {
    let db = Db::connect(&w.url).await.expect("database opens");
    let services = Services::new(db, Arc::new(TestClock::new(T0)), Arc::new(RendererPainter));
    let framework = kaboom_bot::bot::framework(services, None);
    let mut client = w
        .fake
        .client_builder(kaboom_bot::bot::intents())
        .framework(framework)
        .await
        .expect("client builds");
    let shards = client.shard_manager.clone();
    let running = tokio::spawn(async move {
        let _ = client.start().await;
    });
    w.fake.wait_until_ready(WAIT).await.expect("bot connects");
    // Serving once /help answers (poise's setup, which registers commands, has finished).
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        assert!(
            tokio::time::Instant::now() < deadline,
            "bot never served /help"
        );
        let Ok(probe) = w
            .fake
            .slash_command(&w.carol, w.fake.text_channel_id(), "help", vec![])
        else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        if w.fake
            .next_interaction_response(probe.id, Duration::from_millis(1500))
            .await
            .is_ok()
        {
            break;
        }
    }
    Bot { shards, running }
}

/// The first answer that is not a deferral.
async fn answer(fake: &FakeDiscord, sent: &SentInteraction) -> InteractionResponse {
    loop {
        let r = fake
            .next_interaction_response(sent.id, WAIT)
            .await
            .expect("an answer");
        if !matches!(
            r.kind,
            ResponseKind::Callback { callback_type: 5 }
                | ResponseKind::Callback { callback_type: 6 }
        ) {
            return r;
        }
    }
}

async fn cmd(
    w: &World,
    user: &SimUser,
    channel: u64,
    name: &str,
    options: Vec<CommandOption>,
) -> InteractionResponse {
    let sent = w.fake.slash_command(user, channel, name, options).unwrap();
    answer(&w.fake, &sent).await
}

async fn click(w: &World, user: &SimUser, message: u64, custom_id: &str) -> InteractionResponse {
    let sent = w.fake.click_button(user, message, custom_id).unwrap();
    answer(&w.fake, &sent).await
}

async fn play(w: &World, user: &SimUser, thread: u64, action: &str) -> InteractionResponse {
    cmd(
        w,
        user,
        thread,
        "move",
        vec![CommandOption::string("action", action)],
    )
    .await
}

/// Posts a challenge from alice (White) to bob and has bob accept; returns (thread id,
/// game id).
async fn start_game(w: &World, variant: i64, extra: Vec<CommandOption>) -> (u64, i64) {
    let channel = w.fake.text_channel_id();
    let mut options = vec![
        CommandOption::integer("variant", variant),
        CommandOption::user("opponent", &w.bob),
        CommandOption::integer("color", WHITE),
    ];
    options.extend(extra);
    let posted = cmd(w, &w.alice, channel, "challenge", options).await;
    let message = posted.message_id.expect("challenge message");
    let ids = posted.custom_ids();
    assert_eq!(ids.len(), 3, "{ids:?}");
    let accept = ids
        .iter()
        .find(|i| i.starts_with("kb:accept:"))
        .unwrap()
        .clone();
    // Nobody but bob may accept.
    let refused = click(w, &w.carol, message, &accept).await;
    assert!(
        refused.content().unwrap().contains("someone else"),
        "{refused:?}"
    );
    let threads_before = w.fake.threads().len();
    let accepted = click(w, &w.bob, message, &accept).await;
    assert!(
        accepted.content().unwrap().contains("Game on"),
        "{accepted:?}"
    );
    let threads = w.fake.threads();
    assert_eq!(threads.len(), threads_before + 1);
    let thread = threads.last().unwrap();
    let game_id: i64 = accepted_game_id(&w.fake.message(message).unwrap());
    (thread.id, game_id)
}

fn accepted_game_id(challenge: &FakeMessage) -> i64 {
    let text = challenge.content();
    let at = text
        .find("game #")
        .expect("game id in the accepted challenge");
    text[at + 6..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap()
}

fn boards(w: &World, thread: u64) -> Vec<FakeMessage> {
    w.fake
        .messages_in(thread)
        .into_iter()
        .filter(|m| !m.attachments.is_empty() && !m.is_ephemeral())
        .collect()
}

/// Every uploaded PNG decodes.
fn assert_pngs_valid(w: &World) {
    let files = w.fake.attachments();
    assert!(!files.is_empty());
    for f in files.iter().filter(|f| f.filename.ends_with(".png")) {
        let decoder = png::Decoder::new(std::io::Cursor::new(f.bytes.clone()));
        let mut reader = decoder.read_info().expect("PNG header");
        let mut buf = vec![0; reader.output_buffer_size().expect("size")];
        reader.next_frame(&mut buf).expect("PNG data");
    }
}

fn autocomplete(w: &World, user: &SimUser, thread: u64, typed: &str) -> SentInteraction {
    w.fake
        .autocomplete(
            user,
            thread,
            "move",
            vec![CommandOption::string("action", typed).focused()],
        )
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn atomic_game_from_challenge_to_exploded_king() {
    let w = world().await;
    let bot = start_bot(&w).await;
    let (thread, game) = start_game(&w, ATOMIC, vec![]).await;
    let channel = w.fake.channel(thread).unwrap();
    assert_eq!(channel.name(), Some("Atomic · alice vs bob"));
    let start = boards(&w, thread);
    assert_eq!(start.len(), 1);
    assert!(
        start[0].content().contains("<@1001> (White) to move"),
        "{}",
        start[0].content()
    );
    assert!(
        start[0].content().contains("<t:"),
        "deadline as a Discord timestamp"
    );

    // Autocomplete lists the caller's legal actions with labels.
    let typing = autocomplete(&w, &w.alice, thread, "kni");
    let choices = w
        .fake
        .next_interaction_response(typing.id, WAIT)
        .await
        .unwrap()
        .choices();
    assert_eq!(choices.len(), 4, "{choices:?}");
    assert!(
        choices
            .iter()
            .any(|(label, value)| label.contains("Knight g1") && value == "Nf3")
    );

    for (user, text) in [
        (&w.alice, "Nf3"),
        (&w.bob, "a6"),
        (&w.alice, "g5"),
        (&w.bob, "a5"),
    ] {
        let text = if text == "g5" { "f3g5" } else { text };
        let ack = play(&w, user, thread, text).await;
        assert!(ack.is_ephemeral());
        assert!(ack.content().unwrap().starts_with("Played"), "{ack:?}");
    }
    let typing = autocomplete(&w, &w.alice, thread, "Nxf7");
    let choices = w
        .fake
        .next_interaction_response(typing.id, WAIT)
        .await
        .unwrap()
        .choices();
    assert!(choices[0].0.contains("blast removes"), "{choices:?}");
    play(&w, &w.alice, thread, "Nxf7").await;
    let last = boards(&w, thread).pop().unwrap();
    assert!(last.content().contains("Nxf7#"), "{}", last.content());
    assert!(last.content().contains("Game over"), "{}", last.content());
    assert!(last.content().contains("1-0"), "{}", last.content());
    assert!(
        last.content().contains("king exploded"),
        "{}",
        last.content()
    );
    assert_eq!(boards(&w, thread).len(), 6);
    // Only the latest board message keeps buttons (My view, once the game is over).
    let with_buttons: Vec<_> = boards(&w, thread)
        .into_iter()
        .filter(|m| !m.custom_ids().is_empty())
        .collect();
    assert_eq!(with_buttons.len(), 1);
    assert_eq!(with_buttons[0].id, last.id);
    // After the end, moves are refused.
    let late = play(&w, &w.bob, thread, "e6").await;
    assert!(late.is_ephemeral() && late.content().unwrap().contains("over"));

    let pgn = cmd(&w, &w.carol, thread, "pgn", vec![]).await;
    let text = String::from_utf8(pgn.files[0].bytes.clone()).unwrap();
    assert!(
        text.contains("[Variant \"Atomic\"]") && text.contains("3. Nxf7# 1-0"),
        "{text}"
    );
    assert!(text.contains(&format!("game #{game}")));
    assert_pngs_valid(&w);
    assert!(
        w.fake.unknown_routes().is_empty(),
        "{:?}",
        w.fake.unknown_routes()
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_are_ephemeral_and_say_why() {
    let w = world().await;
    let bot = start_bot(&w).await;
    let (thread, _) = start_game(&w, ATOMIC, vec![]).await;
    let r = play(&w, &w.carol, thread, "e4").await;
    assert!(
        r.is_ephemeral() && r.content().unwrap().contains("Only alice and bob"),
        "{r:?}"
    );
    let r = play(&w, &w.bob, thread, "e5").await;
    assert!(
        r.is_ephemeral() && r.content().unwrap().contains("not your turn"),
        "{r:?}"
    );
    let r = play(&w, &w.alice, thread, "e5").await;
    assert!(
        r.is_ephemeral() && r.content().unwrap().contains("not legal"),
        "{r:?}"
    );
    let r = play(&w, &w.alice, thread, "castle please").await;
    let text = r.content().unwrap();
    assert!(
        r.is_ephemeral() && text.contains("Some legal actions"),
        "{text}"
    );
    // Nothing was posted: only the starting board.
    assert_eq!(boards(&w, thread).len(), 1);
    // Spectators may look.
    let look = cmd(&w, &w.carol, thread, "board", vec![]).await;
    assert_eq!(look.files.len(), 1);
    assert!(!look.is_ephemeral());
    // Spectators get no autocomplete.
    let typing = autocomplete(&w, &w.carol, thread, "");
    assert!(
        w.fake
            .next_interaction_response(typing.id, WAIT)
            .await
            .unwrap()
            .choices()
            .is_empty()
    );
    assert_pngs_valid(&w);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_resign_and_abort() {
    let w = world().await;
    let bot = start_bot(&w).await;
    // Draw offered with the button, accepted with the button under the offer.
    let (thread, _) = start_game(&w, ATOMIC, vec![]).await;
    play(&w, &w.alice, thread, "e4").await;
    let board = boards(&w, thread).pop().unwrap();
    let draw_id = board
        .custom_ids()
        .into_iter()
        .find(|c| c.starts_with("kb:draw:"))
        .unwrap();
    let r = click(&w, &w.carol, board.id, &draw_id).await;
    assert!(r.content().unwrap().contains("Only"), "{r:?}");
    let r = click(&w, &w.bob, board.id, &draw_id).await;
    assert!(r.content().unwrap().contains("Draw offered"), "{r:?}");
    let offer = w.fake.messages_in(thread).pop().unwrap();
    assert!(offer.content().contains("<@1001>") && offer.content().contains("offers a draw"));
    let yes = offer
        .custom_ids()
        .into_iter()
        .find(|c| c.starts_with("kb:drawyes:"))
        .unwrap();
    let r = click(&w, &w.bob, offer.id, &yes).await;
    assert!(r.content().unwrap().contains("your own"), "{r:?}");
    click(&w, &w.alice, offer.id, &yes).await;
    let end = boards(&w, thread).pop().unwrap();
    assert!(
        end.content().contains("1/2-1/2") && end.content().contains("agreement"),
        "{}",
        end.content()
    );

    // Resign with the button and its confirmation.
    let (thread, _) = start_game(&w, ATOMIC, vec![]).await;
    let board = boards(&w, thread).pop().unwrap();
    let resign = board
        .custom_ids()
        .into_iter()
        .find(|c| c.starts_with("kb:resign:"))
        .unwrap();
    let confirm = click(&w, &w.bob, board.id, &resign).await;
    assert!(confirm.is_ephemeral());
    let yes = confirm.custom_ids().pop().unwrap();
    let confirm_msg = confirm.message_id.expect("confirmation message");
    click(&w, &w.bob, confirm_msg, &yes).await;
    let end = boards(&w, thread).pop().unwrap();
    assert!(
        end.content().contains("1-0") && end.content().contains("resignation"),
        "{}",
        end.content()
    );

    // Abort before both have moved; not after.
    let (thread, _) = start_game(&w, ATOMIC, vec![]).await;
    play(&w, &w.alice, thread, "e4").await;
    let r = cmd(&w, &w.bob, thread, "abort", vec![]).await;
    assert!(r.content().unwrap().contains("over"), "{r:?}");
    let end = boards(&w, thread).pop().unwrap();
    assert!(end.content().contains("aborted"), "{}", end.content());
    let (thread, _) = start_game(&w, ATOMIC, vec![]).await;
    play(&w, &w.alice, thread, "e4").await;
    play(&w, &w.bob, thread, "e5").await;
    let r = cmd(&w, &w.alice, thread, "abort", vec![]).await;
    assert!(
        r.is_ephemeral() && r.content().unwrap().contains("no longer be aborted"),
        "{r:?}"
    );
    // /games lists the one still active, with its thread.
    let r = cmd(&w, &w.alice, w.fake.text_channel_id(), "games", vec![]).await;
    let text = r.content().unwrap();
    assert!(
        text.contains(&format!("<#{thread}>")) && text.contains("alice to move"),
        "{text}"
    );
    assert_pngs_valid(&w);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_concurrent_moves_apply_once() {
    let w = world().await;
    let bot = start_bot(&w).await;
    let (thread, _) = start_game(&w, ATOMIC, vec![]).await;
    let a = w
        .fake
        .slash_command(
            &w.alice,
            thread,
            "move",
            vec![CommandOption::string("action", "e4")],
        )
        .unwrap();
    let b = w
        .fake
        .slash_command(
            &w.alice,
            thread,
            "move",
            vec![CommandOption::string("action", "d4")],
        )
        .unwrap();
    let (ra, rb) = tokio::join!(answer(&w.fake, &a), answer(&w.fake, &b));
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
    assert_eq!(boards(&w, thread).len(), 2);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_mid_game_then_a_button_from_before() {
    let w = world().await;
    let bot = start_bot(&w).await;
    let (thread, _) = start_game(&w, ATOMIC, vec![]).await;
    play(&w, &w.alice, thread, "e4").await;
    play(&w, &w.bob, thread, "e5").await;
    let old_board = boards(&w, thread).pop().unwrap();
    bot.stop().await;

    let bot = start_bot(&w).await;
    // A button on a message sent before the restart still works.
    let draw_id = old_board
        .custom_ids()
        .into_iter()
        .find(|c| c.starts_with("kb:draw:"))
        .unwrap();
    let r = click(&w, &w.alice, old_board.id, &draw_id).await;
    assert!(r.content().unwrap().contains("Draw offered"), "{r:?}");
    let view_id = old_board
        .custom_ids()
        .into_iter()
        .find(|c| c.starts_with("kb:view:"))
        .unwrap();
    let r = click(&w, &w.bob, old_board.id, &view_id).await;
    assert!(r.is_ephemeral() || r.kind == ResponseKind::EditOriginal);
    assert_eq!(r.files.len(), 1);
    // And the game goes on; bob's move declines the offer.
    let r = play(&w, &w.alice, thread, "Nf3").await;
    assert!(r.content().unwrap().starts_with("Played"), "{r:?}");
    play(&w, &w.bob, thread, "Nc6").await;
    let last = boards(&w, thread).pop().unwrap();
    assert!(
        last.content().contains("draw offer lapsed"),
        "{}",
        last.content()
    );
    assert_pngs_valid(&w);
    bot.stop().await;
}

/// Words of a text, with long hex runs (commitments) dropped.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| !(t.len() >= 32 && t.chars().all(|c| c.is_ascii_hexdigit())))
        .map(str::to_lowercase)
        .collect()
}

/// Public payloads of the game so far: thread name, thread and channel messages, and
/// non-ephemeral interaction answers.
fn public_texts(w: &World, thread: u64) -> Vec<String> {
    let mut out = vec![
        w.fake
            .channel(thread)
            .unwrap()
            .name()
            .unwrap_or_default()
            .to_string(),
    ];
    for ch in [thread, w.fake.text_channel_id()] {
        for m in w.fake.messages_in(ch) {
            if !m.is_ephemeral() {
                out.push(m.json.to_string());
            }
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn beirut_with_closed_dms_to_a_boom_on_the_king() {
    let w = world().await;
    let bot = start_bot(&w).await;
    w.fake.refuse_dms_for(w.bob.id);
    let (thread, game) = start_game(&w, BEIRUT, vec![]).await;
    // Alice gets her menu by DM.
    let dms = w
        .fake
        .wait_for_messages_in(w.fake.dm_channel_for(w.alice.id), 1, WAIT)
        .await
        .unwrap();
    let menu_id = format!("kb:carriers:{game}");
    assert_eq!(dms[0].custom_ids(), std::slice::from_ref(&menu_id));
    assert!(dms[0].json.to_string().contains("Knight g1"));
    assert!(
        !dms[0].json.to_string().contains("King e1"),
        "the king cannot carry (BE-2)"
    );
    let sent = w
        .fake
        .select_menu(&w.alice, dms[0].id, &menu_id, &["g1"])
        .unwrap();
    let ok = answer(&w.fake, &sent).await;
    assert!(
        ok.content().unwrap().contains("Your carriers") && ok.content().unwrap().contains("g1")
    );
    // Bob's DMs are closed: the thread offers "Choose privately".
    let fallback = w
        .fake
        .messages_in(thread)
        .into_iter()
        .find(|m| m.custom_ids().iter().any(|c| c.starts_with("kb:choose:")))
        .expect("a Choose privately button");
    assert!(fallback.content().contains("<@1002>"));
    // Moving before the carriers are chosen is refused.
    let r = play(&w, &w.alice, thread, "Nf3").await;
    assert!(r.content().unwrap().contains("carriers"), "{r:?}");
    let menu = click(&w, &w.bob, fallback.id, &format!("kb:choose:{game}")).await;
    assert!(menu.is_ephemeral() || menu.kind == ResponseKind::EditOriginal);
    assert_eq!(menu.custom_ids(), std::slice::from_ref(&menu_id));
    let menu_msg = menu.message_id.expect("the ephemeral menu message");
    let sent = w
        .fake
        .select_menu(&w.bob, menu_msg, &menu_id, &["b8"])
        .unwrap();
    let ok = answer(&w.fake, &sent).await;
    assert!(ok.content().unwrap().contains("b8"));
    assert_eq!(
        ok.files.len(),
        1,
        "the private confirmation shows bob's own view"
    );
    let started = boards(&w, thread).pop().unwrap();
    assert!(
        started.content().contains("commitment"),
        "{}",
        started.content()
    );

    for (user, text) in [
        (&w.alice, "Nf3"),
        (&w.bob, "a6"),
        (&w.alice, "Ng5"),
        (&w.bob, "a5"),
        (&w.alice, "Nxf7"),
        (&w.bob, "a4"),
    ] {
        let r = play(&w, user, thread, text).await;
        assert!(r.content().unwrap().starts_with("Played"), "{r:?}");
    }
    // Autocomplete offers alice her Boom (her own carrier).
    let typing = autocomplete(&w, &w.alice, thread, "boom");
    let choices = w
        .fake
        .next_interaction_response(typing.id, WAIT)
        .await
        .unwrap()
        .choices();
    assert!(choices.iter().any(|(_, v)| v == "Boom@f7"), "{choices:?}");
    // No public payload so far shows a carrier (g1 moved to f7: b8 and g1 are the secrets).
    let pgn = cmd(&w, &w.carol, thread, "pgn", vec![]).await;
    let pgn_text = String::from_utf8(pgn.files[0].bytes.clone()).unwrap();
    assert!(
        !pgn_text.contains("WhiteCarriers") && !pgn_text.contains("BlackCarriers"),
        "{pgn_text}"
    );
    assert!(!pgn_text.contains("FEN"), "{pgn_text}");
    for text in public_texts(&w, thread) {
        let ws = words(&text);
        assert!(
            !ws.contains(&"b8".to_string()),
            "black's carrier leaked: {text}"
        );
        assert!(
            !ws.contains(&"g1".to_string()),
            "white's carrier leaked: {text}"
        );
    }

    play(&w, &w.alice, thread, "Boom@f7").await;
    let end = boards(&w, thread).pop().unwrap();
    let text = end.content();
    assert!(
        text.contains("1-0") && text.contains("king exploded"),
        "{text}"
    );
    assert!(
        text.contains("White's carriers: **g1**") && text.contains("Black's carriers: **b8**"),
        "{text}"
    );
    // The reveal's sha256sum line reproduces the commitment shown at the start.
    let pre_start = text.find("printf '%s' '").unwrap() + "printf '%s' '".len();
    let pre = &text[pre_start..pre_start + text[pre_start..].find('\'').unwrap()];
    assert!(pre.starts_with(&format!("kaboom-beirut-v1:{game}:white:g1:")));
    let digest = hex::encode(Sha256::digest(pre.as_bytes()));
    assert!(
        started.content().contains(&digest),
        "commitment {digest} was published at the start"
    );
    let pgn = cmd(&w, &w.carol, thread, "pgn", vec![]).await;
    let pgn_text = String::from_utf8(pgn.files[0].bytes.clone()).unwrap();
    assert!(
        pgn_text.contains("[WhiteCarriers \"g1\"]") && pgn_text.contains("[Variant \"Beirut\"]"),
        "{pgn_text}"
    );
    assert_pngs_valid(&w);
    assert!(
        w.fake.unknown_routes().is_empty(),
        "{:?}",
        w.fake.unknown_routes()
    );
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nuke_carriers_revealed_then_a_blast() {
    let w = world().await;
    let bot = start_bot(&w).await;
    let (thread, game) = start_game(&w, NUKE, vec![]).await;
    let menu_id = format!("kb:carriers:{game}");
    for (user, square) in [(&w.alice, "g1"), (&w.bob, "f7")] {
        let dms = w
            .fake
            .wait_for_messages_in(w.fake.dm_channel_for(user.id), 1, WAIT)
            .await
            .unwrap();
        let sent = w
            .fake
            .select_menu(user, dms[0].id, &menu_id, &[square])
            .unwrap();
        answer(&w.fake, &sent).await;
    }
    let started = boards(&w, thread).pop().unwrap();
    assert!(
        started.content().contains("White's carrier: **g1**"),
        "{}",
        started.content()
    );
    assert!(
        started.content().contains("Black's carrier: **f7**"),
        "{}",
        started.content()
    );
    for (user, text) in [
        (&w.alice, "Nf3"),
        (&w.bob, "a6"),
        (&w.alice, "Ng5"),
        (&w.bob, "a5"),
    ] {
        play(&w, user, thread, text).await;
    }
    let typing = autocomplete(&w, &w.alice, thread, "Nx");
    let choices = w
        .fake
        .next_interaction_response(typing.id, WAIT)
        .await
        .unwrap()
        .choices();
    assert!(
        choices
            .iter()
            .any(|(l, v)| v == "Nxf7" && l.contains("blast")),
        "{choices:?}"
    );
    play(&w, &w.alice, thread, "Nxf7").await;
    let end = boards(&w, thread).pop().unwrap();
    assert!(
        end.content().contains("1-0") && end.content().contains("king exploded"),
        "{}",
        end.content()
    );
    assert_pngs_valid(&w);
    bot.stop().await;
}

const BOMBERMAN: i64 = 3;
const BOMBALOT: i64 = 4;

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

/// Plays `line` in the thread, each action by the player to move (alice is White).
async fn play_line(w: &World, thread: u64, line: &[String]) {
    for (i, action) in line.iter().enumerate() {
        let user = if i % 2 == 0 { &w.alice } else { &w.bob };
        let r = play(w, user, thread, action).await;
        assert!(
            r.content().unwrap_or_default().starts_with("Played"),
            "ply {} {action}: {r:?}",
            i + 1
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bomberman_game_to_checkmate() {
    let line = find_line(
        kaboom_rules::Variant::Bomberman,
        kaboom_rules::EndReason::Checkmate,
    );
    let w = world().await;
    let bot = start_bot(&w).await;
    let (thread, _) = start_game(&w, BOMBERMAN, vec![]).await;
    assert_eq!(
        w.fake.channel(thread).unwrap().name(),
        Some("Bomberman Chess · alice vs bob")
    );
    let typing = autocomplete(&w, &w.alice, thread, &line[0]);
    let choices = w
        .fake
        .next_interaction_response(typing.id, WAIT)
        .await
        .unwrap()
        .choices();
    assert!(choices.iter().any(|(_, v)| v == &line[0]), "{choices:?}");
    play_line(&w, thread, &line).await;
    let end = boards(&w, thread).pop().unwrap();
    assert!(
        end.content().contains("Game over") && end.content().contains("checkmate"),
        "{}",
        end.content()
    );
    assert_eq!(boards(&w, thread).len(), line.len() + 1);
    assert_pngs_valid(&w);
    bot.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bombalot_game_to_a_goal_win() {
    let line = find_line(
        kaboom_rules::Variant::Bombalot,
        kaboom_rules::EndReason::Goal,
    );
    let w = world().await;
    let bot = start_bot(&w).await;
    let (thread, _) = start_game(&w, BOMBALOT, vec![]).await;
    let typing = autocomplete(&w, &w.alice, thread, "");
    let choices = w
        .fake
        .next_interaction_response(typing.id, WAIT)
        .await
        .unwrap()
        .choices();
    assert_eq!(choices.len(), 25, "at most 25 suggestions");
    play_line(&w, thread, &line).await;
    let end = boards(&w, thread).pop().unwrap();
    assert!(
        end.content().contains("Game over") && end.content().contains("goal"),
        "{}",
        end.content()
    );
    assert_pngs_valid(&w);
    bot.stop().await;
}
