//! What the bot must not show, and to whom. Secrets (carriers, full states)
//! appear in no reply before the rules make them public, damaged games answer without
//! their state, and games are read only where they belong.
//!
//! Every test runs on both databases except those that damage a row with a value of the
//! wrong type (`ply = 'x'`): SQLite stores it, PostgreSQL's column types refuse it, so
//! that damage exists on SQLite only.

use std::sync::Arc;

use fake_discord::{CommandOption, FakeDiscord, InteractionResponse};
use kaboom_discord::messages::failure::UNREADABLE_GAME;
use kaboom_domain::ids::{ChannelId, GameId, GuildId, UserId};
use kaboom_rules::{Color, Viewer};
use kaboom_service::Services;
use kaboom_service::painter::RendererPainter;
use kaboom_testkit::clock::TestClock;
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::driver::StartedGame;
use kaboom_testkit::fixture::{ATOMIC, BEIRUT, NUKE, T0, TestBot};

use crate::common::decode_png;

type Outcome = Result<(), DemoError>;

/// Runs `sql` against the bot's database, the SQLite file or the PostgreSQL database (a
/// second connection, as a host would).
async fn sql(url: &str, sql: &str) {
    let db = kaboom_store::Db::connect(url).await.unwrap();
    kaboom_store::sql::query(sql).execute(&db).await.unwrap();
    db.close().await;
}

/// Everything a reply says in words: its JSON (text, embeds, components). Its files are
/// checked apart: pictures as views of the position, PGNs as text.
fn shown(r: &InteractionResponse) -> String {
    r.data().to_string()
}

/// The views of `game`'s current position: `(viewer, bottom, pixels)` for every viewer and
/// orientation, drawn by the bot's own painter.
async fn views(d: &TestBot, game: GameId) -> Vec<(Viewer, Color, (u32, u32, Vec<u8>))> {
    let services = Services::new(d.db.clone(), d.clock.clone(), Arc::new(RendererPainter));
    let snap = services.games().load(game).await.expect("the game loads");
    let mut all = Vec::new();
    for viewer in [
        Viewer::White,
        Viewer::Black,
        Viewer::Spectator,
        Viewer::Full,
    ] {
        for bottom in [Color::White, Color::Black] {
            let png = services
                .games()
                .paint(&snap, viewer, bottom)
                .expect("the painter draws");
            all.push((viewer, bottom, decode_png(&png)));
        }
    }
    all
}

kaboom_testkit::dbtest! {
    /// NU-3: while the carriers are chosen, White's choice reaches neither Black
    /// nor a spectator: not in `/pgn` (no `WhiteCarriers` tag, no full-state FEN), not in
    /// `/board`, whose picture is Black's or a spectator's view of the position, never a view
    /// that shows White's carrier. Once both have chosen, the PGN names both carriers.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn nuke_carrier_stays_secret_until_both_chose() -> Outcome {
        let d = TestBot::start().await?;
        let StartedGame { thread, game, .. } = d.start_game(NUKE).await?;
        d.choose_carriers_by_dm(&d.alice, game, &["b1"]).await?;
        let views = views(&d, game).await;
        let view = |viewer: Viewer, bottom: Color| {
            views
                .iter()
                .find(|(v, b, _)| *v == viewer && *b == bottom)
                .map(|(_, _, pixels)| pixels.clone())
                .expect("every view was drawn")
        };
        for bottom in [Color::White, Color::Black] {
            assert_ne!(
                view(Viewer::Full, bottom),
                view(Viewer::Spectator, bottom),
                "the full view shows White's carrier, a spectator's does not"
            );
        }
        for user in [&d.bob, &d.carol] {
            for private in [false, true] {
                let r = d.cmd(user, thread, "pgn", vec![]).await?;
                assert_eq!(r.files.len(), 1, "{r:?}");
                let pgn = String::from_utf8(r.files[0].bytes.clone()).expect("a PGN is text");
                assert!(
                    !pgn.contains("Carriers") && !pgn.contains("b1") && !pgn.contains("FEN"),
                    "{pgn}"
                );
                let r = d
                    .cmd(
                        user,
                        thread,
                        "board",
                        vec![CommandOption::boolean("private", private)],
                    )
                    .await?;
                assert_eq!(r.files.len(), 1, "{r:?}");
                let shown = decode_png(&r.files[0].bytes);
                let bottom = views
                    .iter()
                    .find(|(_, _, pixels)| *pixels == shown)
                    .map(|(_, bottom, _)| *bottom)
                    .expect("/board shows one of the position's views");
                for secret in [Viewer::White, Viewer::Full] {
                    assert_ne!(
                        shown,
                        view(secret, bottom),
                        "{} saw the {secret:?} view, which shows White's carrier",
                        user.username
                    );
                }
            }
        }
        d.choose_carriers_by_dm(&d.bob, game, &["g8"]).await?;
        let r = d.cmd(&d.carol, thread, "pgn", vec![]).await?;
        let pgn = String::from_utf8(r.files[0].bytes.clone()).expect("a PGN is text");
        assert!(
            pgn.contains("[WhiteCarriers \"b1\"]\n[BlackCarriers \"g8\"]\n"),
            "{pgn}"
        );
        d.driver.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// A Beirut game whose stored actions no longer replay answers every
    /// command with one sentence, never its full state (carriers) nor the mover's legal
    /// actions (Booms).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_game_that_does_not_replay_shows_no_state() -> Outcome {
        let d = TestBot::start().await?;
        let url = d.url().to_string();
        let StartedGame { thread, game, .. } = d.start_game(BEIRUT).await?;
        d.choose_carriers_by_dm(&d.alice, game, &["b1"]).await?;
        d.choose_carriers_by_dm(&d.bob, game, &["g8"]).await?;
        let r = d.play(&d.alice, thread, "e4").await?;
        assert!(
            r.content().unwrap_or_default().starts_with("Played"),
            "{r:?}"
        );
        // A rules fix (or a damaged row) makes the stored first move illegal.
        sql(
            &url,
            &format!("UPDATE game_actions SET action = 'Qxh7' WHERE game_id = {game} AND ply = 1"),
        )
        .await;
        let asks: Vec<(&fake_discord::SimUser, &str, Vec<CommandOption>)> = vec![
            (&d.carol, "board", vec![]),
            (&d.carol, "pgn", vec![]),
            (
                &d.bob,
                "board",
                vec![CommandOption::boolean("private", true)],
            ),
            (&d.bob, "move", vec![CommandOption::string("action", "e5")]),
            (&d.alice, "resign", vec![]),
        ];
        for (user, name, options) in asks {
            let r = d.cmd(user, thread, name, options).await?;
            let text = shown(&r);
            assert_eq!(r.content(), Some(UNREADABLE_GAME), "/{name}: {text}");
            assert!(r.files.is_empty(), "/{name} sent files: {text}");
            for secret in ["b1", "g8", "Boom", "rnbqkbnr", "RNBQKBNR"] {
                assert!(!text.contains(secret), "/{name} shows {secret}: {text}");
            }
        }
        d.driver.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// `/pgn game:N` and `/board game:N` read a game only in its own server, or
    /// by its players in a direct message.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn games_are_read_only_in_their_server_or_by_their_players() -> Outcome {
        let d = TestBot::start().await?;
        let url = d.url().to_string();
        let StartedGame { game, .. } = d.start_game(ATOMIC).await?;
        let option = || vec![CommandOption::string("game", game.to_string())];
        let refused = |r: &InteractionResponse| {
            r.files.is_empty()
                && r.content()
                    .unwrap_or_default()
                    .contains("can be read only in its own server")
        };
        // In a DM: its players only.
        let carol_dm = d.fake.dm_channel_for(d.carol.id);
        let alice_dm = d.fake.dm_channel_for(d.alice.id);
        for name in ["pgn", "board"] {
            let r = d.cmd(&d.carol, carol_dm, name, option()).await?;
            assert!(refused(&r), "carol /{name} in a DM: {r:?}");
            let r = d.cmd(&d.alice, alice_dm, name, option()).await?;
            assert!(!r.files.is_empty(), "alice /{name} in a DM: {r:?}");
        }
        // In its server, anyone; in another server, nobody (not even a player).
        let text = d.fake.text_channel_id();
        let r = d.cmd(&d.carol, text, "pgn", option()).await?;
        assert!(!r.files.is_empty(), "{r:?}");
        sql(
            &url,
            &format!("UPDATE games SET guild_id = 4242 WHERE id = {game}"),
        )
        .await;
        for user in [&d.carol, &d.alice] {
            for name in ["pgn", "board"] {
                let r = d.cmd(user, text, name, option()).await?;
                assert!(refused(&r), "/{name} from another server: {r:?}");
            }
        }
        d.driver.stop().await;
        Ok(())
    }
}

/// One game row that does not decode (its `ply` is text) costs only that
/// game: the scheduler's sweep still forfeits another overdue game, and the list of a
/// player's games still lists the others.
#[tokio::test]
async fn a_damaged_row_costs_only_its_game() {
    let Offline {
        url,
        clock,
        scheduler,
        services,
        notifier: _,
        _dir,
    } = offline().await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        let c = services
            .challenges()
            .create(challenge(Some(UserId(1002))))
            .await
            .unwrap();
        let id = services
            .challenges()
            .accept(c.id, UserId(1002), "bob")
            .await
            .unwrap()
            .row
            .id;
        ids.push(id);
    }
    scheduler.sweep().await.unwrap();
    sql(
        &url,
        &format!("UPDATE games SET ply = 'x' WHERE id = {}", ids[0]),
    )
    .await;
    let listed: Vec<GameId> = services
        .games()
        .active_games(UserId(1001))
        .await
        .expect("the list survives a damaged row")
        .iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(listed, ids[1..].to_vec());
    clock.advance(2 * 86_400);
    let report = scheduler
        .sweep()
        .await
        .expect("the sweep survives a damaged row");
    let mut forfeited = report.forfeited.clone();
    forfeited.sort_unstable();
    assert_eq!(forfeited, ids[1..].to_vec());
}

/// `/games` lists a player's other games when one of their rows is damaged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_lists_the_others_around_a_damaged_row() -> Outcome {
    let d = TestBot::start().await?;
    let url = d.url().to_string();
    let StartedGame { game: first, .. } = d.start_game(ATOMIC).await?;
    let StartedGame { game: second, .. } = d.start_game(ATOMIC).await?;
    sql(
        &url,
        &format!("UPDATE games SET ply = 'x' WHERE id = {first}"),
    )
    .await;
    let r = d
        .cmd(&d.alice, d.fake.text_channel_id(), "games", vec![])
        .await?;
    let text = r.content().unwrap_or_default().to_string();
    assert!(
        text.contains(&format!("#{second} ")) && !text.contains(&format!("#{first} ")),
        "{text}"
    );
    d.driver.stop().await;
    Ok(())
}

/// A display name that would ping everyone and a role if a message let it.
const PINGING_NAME: &str = "@everyone <@&4242> @here";

/// Checks every message the bot sent or edited with text (REST messages, interaction
/// answers and their edits): each says who it may ping, users only, none of them outside
/// `allowed`. Returns how many were checked.
fn assert_pings_only(fake: &FakeDiscord, allowed: &[u64]) -> usize {
    let mut checked = 0;
    for r in fake.requests() {
        if !matches!(r.method.as_str(), "POST" | "PATCH") {
            continue;
        }
        let Some(body) = r.body.json() else { continue };
        let payload = if r.path.ends_with("/callback") {
            &body["data"]
        } else {
            body
        };
        if payload["content"].as_str().is_none_or(str::is_empty) {
            continue;
        }
        checked += 1;
        let am = &payload["allowed_mentions"];
        assert!(
            am.is_object(),
            "{} {}: no allowed_mentions: {payload}",
            r.method,
            r.path
        );
        assert_eq!(
            am["parse"],
            serde_json::json!([]),
            "{} {}: {am}",
            r.method,
            r.path
        );
        assert!(
            am["roles"].as_array().is_none_or(Vec::is_empty),
            "{} {}: {am}",
            r.method,
            r.path
        );
        for user in am["users"].as_array().cloned().unwrap_or_default() {
            let id: u64 = user.as_str().and_then(|s| s.parse().ok()).unwrap_or(0);
            assert!(
                allowed.contains(&id),
                "{} {}: pings {id}: {am}",
                r.method,
                r.path
            );
        }
    }
    checked
}

kaboom_testkit::dbtest! {
    /// A player whose display name holds `@everyone` and a role mention pings
    /// nobody through the scheduler's nudge and forfeit notices: each names who it may ping.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn scheduler_notices_ping_only_the_players() {
        use kaboom_rules::{GameOptions, Variant};
        use kaboom_store::challenges::{ColorChoice, NewChallenge};
        let fake = FakeDiscord::start().await.expect("fake starts");
        let http = Arc::new(fake_discord::http(&fake.url(), fake_discord::FAKE_TOKEN));
        let (db, _dir) = kaboom_testkit::temp_db().await;
        let clock = Arc::new(TestClock::new(T0));
        let services = Services::new(
            db.clone(),
            clock.clone(),
            Arc::new(kaboom_testkit::painter::PlainPainter),
        );
        let (scheduler, _outbox) = kaboom_testkit::discord_scheduler(
            &services,
            clock.clone(),
            http,
            kaboom_service::scheduler::SchedulerConfig::default(),
        );
        let channel = fake.text_channel_id();
        let c = services
            .challenges().create(NewChallenge {
                guild_id: Some(GuildId(fake.guild_id())),
                channel_id: ChannelId(channel),
                challenger_id: UserId(1001),
                challenger_name: PINGING_NAME.into(),
                opponent_id: Some(UserId(1002)),
                variant: Variant::Atomic,
                options: GameOptions::default(),
                days_per_move: Some(1),
                color: ColorChoice::White,
                rated: false,
                venue: kaboom_store::challenges::Venue::Thread,
            })
            .await
            .unwrap();
        let id = services
            .challenges().accept(c.id, UserId(1002), PINGING_NAME)
            .await
            .unwrap()
            .row
            .id;
        let thread = fake.add_thread(channel, "a game").unwrap();
        services.games().set_thread(id, ChannelId(thread)).await.unwrap();
        fake.refuse_dms_for(1001);
        services.games().play(kaboom_service::PlayRequest::new(id, UserId(1001), "e4")).await.unwrap();
        for _ in 0..3 {
            clock.advance(12 * 3600);
            scheduler.sweep().await.unwrap();
            assert!(kaboom_testkit::wait_for_outbox(&db, std::time::Duration::from_secs(20)).await);
        }
        let posted = fake.messages_in(thread);
        assert!(
            posted.iter().any(|m| m.content().contains("wins on time")),
            "{posted:?}"
        );
        assert!(assert_pings_only(&fake, &[1001, 1002]) >= 2);
    }
}

kaboom_testkit::dbtest! {
    /// Through a whole game with the real bot (challenge, boards, draw offer,
    /// resignation), a display name holding `@everyone` and a role mention pings nobody.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn bot_messages_ping_only_the_players() -> Outcome {
        let mut d = TestBot::start().await?;
        d.alice = fake_discord::SimUser::new(1001, PINGING_NAME);
        let StartedGame { thread, .. } = d.start_game(ATOMIC).await?;
        let r = d.play(&d.alice, thread, "e4").await?;
        assert!(
            r.content().unwrap_or_default().starts_with("Played"),
            "{r:?}"
        );
        d.offer_and_decline_draw(thread).await?;
        d.resign(&d.bob, thread).await?;
        d.cmd(&d.carol, thread, "board", vec![]).await?;
        assert!(assert_pings_only(&d.fake, &[d.alice.id, d.bob.id]) >= 8);
        d.driver.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// The private "Played ..." confirmation of a move made outside the game's thread
    /// links to the board message in its server (a message created over REST carries no
    /// guild id: the link comes from the game); in the thread, where the board is posted
    /// right under it, it is short.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn played_links_to_the_board_in_its_server() -> Outcome {
        let d = TestBot::start().await?;
        let StartedGame { thread, .. } = d.start_game(ATOMIC).await?;
        let r = d.play(&d.alice, d.fake.text_channel_id(), "#1 e4").await?;
        let board = d.boards(thread).pop().unwrap();
        let link = format!(
            "https://discord.com/channels/{}/{thread}/{}",
            d.fake.guild_id(),
            board.id
        );
        let text = r.content().unwrap_or_default();
        assert_eq!(text, format!("Played **e4** in game #1: {link}"));
        let here = d.play(&d.bob, thread, "e5").await?;
        assert_eq!(here.content(), Some("Played **e5** in game #1."));
        d.driver.stop().await;
        Ok(())
    }
}

/// The number of stored challenges.
async fn challenges(url: &str) -> i64 {
    let db = kaboom_store::Db::connect(url).await.unwrap();
    let (n,) = kaboom_store::sql::query("SELECT COUNT(*) FROM challenges")
        .fetch_one::<(i64,)>(&db)
        .await
        .unwrap();
    db.close().await;
    n
}

kaboom_testkit::dbtest! {
    /// `/challenge` is refused, before anything is stored, where no game thread can be
    /// opened in a server with the bot (a thread), in the player's own DM with the bot
    /// (nobody else sees it there) and where the bot lacks a permission it needs (named in
    /// the refusal).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn challenge_only_where_a_game_thread_can_be_made() -> Outcome {
        use poise::serenity_prelude::Permissions;
        let d = TestBot::start().await?;
        let url = d.url().to_string();
        let text = d.fake.text_channel_id();
        let thread = d.fake.add_thread(text, "chat")?;
        let dm = d.fake.dm_channel_for(d.alice.id);
        let options = || {
            vec![
                CommandOption::integer("variant", ATOMIC),
                CommandOption::user("opponent", &d.bob),
            ]
        };
        let r = d.cmd(&d.alice, thread, "challenge", options()).await?;
        let said = r.content().unwrap_or_default();
        assert!(said.contains("cannot be posted in a thread"), "{said}");
        assert!(r.custom_ids().is_empty(), "{r:?}");
        let r = d.cmd(&d.alice, dm, "challenge", options()).await?;
        assert_eq!(r.content(), Some(kaboom_discord::messages::direct::NOT_IN_BOT_DM));
        assert!(r.custom_ids().is_empty(), "{r:?}");
        d.fake.set_bot_permissions(
            kaboom_discord::place::NEEDED
                - Permissions::CREATE_PUBLIC_THREADS
                - Permissions::ATTACH_FILES,
        );
        let r = d.cmd(&d.alice, text, "challenge", options()).await?;
        let said = r.content().unwrap_or_default();
        assert_eq!(
            said,
            "I cannot host a game in this channel: I lack the Attach Files, Create Public Threads permissions here. Ask a server admin to grant them to my role in this channel, or use another channel."
        );
        assert_eq!(challenges(&url).await, 0);
        d.fake.set_bot_permissions(Permissions::all());
        d.start_game(ATOMIC).await?;
        assert_eq!(challenges(&url).await, 1);
        d.driver.stop().await;
        Ok(())
    }
}

/// The permissions `/challenge` checks are the invite link's (as
/// `kaboom invite-url` prints it).
#[test]
fn challenge_checks_the_invite_permissions() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kaboom"))
        .args(["invite-url", "--application-id", "1"])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    // The first line is the server invite; the second, the user install, asks for none.
    let link = stdout.lines().next().unwrap_or_default();
    let bits: u64 = link
        .split(['?', '&'])
        .find_map(|p| p.strip_prefix("permissions="))
        .and_then(|p| p.trim().parse().ok())
        .unwrap_or_else(|| panic!("no permissions in {link}"));
    assert_eq!(kaboom_discord::place::NEEDED.bits(), bits);
}

kaboom_testkit::dbtest! {
    /// `/games` with 60 active games stays within Discord's 2000 characters,
    /// listing what fits and saying how many more there are.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn games_with_sixty_games_fits_one_message() -> Outcome {
        use kaboom_rules::{GameOptions, Variant};
        use kaboom_service::Services;
        use kaboom_store::challenges::{ColorChoice, NewChallenge};
        let d = TestBot::start().await?;
        let services = Services::new(
            d.db.clone(),
            Arc::new(TestClock::new(T0)),
            Arc::new(kaboom_testkit::painter::PlainPainter),
        );
        for _ in 0..60 {
            let c = services
                .challenges()
                .create(NewChallenge {
                    guild_id: Some(GuildId(d.fake.guild_id())),
                    channel_id: ChannelId(d.fake.text_channel_id()),
                    challenger_id: UserId(d.alice.id),
                    challenger_name: "alice".into(),
                    opponent_id: Some(UserId(d.bob.id)),
                    variant: Variant::Atomic,
                    options: GameOptions::default(),
                    days_per_move: Some(3),
                    color: ColorChoice::White,
                    rated: false,
                    venue: kaboom_store::challenges::Venue::Thread,
                })
                .await
                .unwrap();
            services
                .challenges()
                .accept(c.id, UserId(d.bob.id), "bob")
                .await
                .unwrap();
        }
        let r = d
            .cmd(&d.alice, d.fake.text_channel_id(), "games", vec![])
            .await?;
        let text = r.content().unwrap_or_default();
        assert!(
            text.chars().count() <= 2000,
            "{} chars",
            text.chars().count()
        );
        let listed = text.lines().filter(|l| l.starts_with('#')).count();
        let more = format!("… and {} more.", 60 - listed);
        assert!(listed >= 10 && text.ends_with(&more), "{text}");
        d.driver.stop().await;
        Ok(())
    }
}

/// An open challenge whose row does not decode does not stop the sweep: it
/// is expired (logged), and the other open challenge expires with its notice.
#[tokio::test]
async fn a_damaged_challenge_row_costs_only_itself() {
    let Offline {
        url,
        clock,
        scheduler,
        services,
        notifier,
        _dir,
    } = offline().await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let c = services.challenges().create(challenge(None)).await.unwrap();
        ids.push(c.id);
    }
    sql(
        &url,
        &format!("UPDATE challenges SET carriers = 'x' WHERE id = {}", ids[0]),
    )
    .await;
    clock.advance(8 * 86_400);
    let report = scheduler
        .sweep()
        .await
        .expect("the sweep survives a damaged row");
    assert_eq!(report.expired, vec![ids[1]]);
    assert_eq!(notifier.sent().len(), 1);
    scheduler.sweep().await.expect("and the next one");
}

/// A database, services and a scheduler (recording its notices) on a test clock, with no
/// Discord: for the damaged-row tests.
struct Offline {
    url: String,
    clock: Arc<TestClock>,
    scheduler: kaboom_service::scheduler::Scheduler,
    services: kaboom_service::Services,
    notifier: Arc<kaboom_testkit::notifier::RecordingNotifier>,
    _dir: tempfile::TempDir,
}

async fn offline() -> Offline {
    use kaboom_service::Services;
    use kaboom_store::Db;
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("offline.db").display());
    let db = Db::connect(&url).await.unwrap();
    let clock = Arc::new(TestClock::new(T0));
    let notifier = Arc::new(kaboom_testkit::notifier::RecordingNotifier::default());
    let scheduler = kaboom_testkit::default_scheduler(db.clone(), clock.clone(), notifier.clone());
    let services = Services::new(
        db,
        clock.clone(),
        Arc::new(kaboom_testkit::painter::PlainPainter),
    );
    Offline {
        url,
        clock,
        scheduler,
        services,
        notifier,
        _dir: dir,
    }
}

/// alice's one-day Atomic challenge in channel 10 of server 1, to `opponent` (or open).
fn challenge(opponent: Option<UserId>) -> kaboom_store::challenges::NewChallenge {
    use kaboom_rules::{GameOptions, Variant};
    use kaboom_store::challenges::{ColorChoice, NewChallenge};
    NewChallenge {
        guild_id: Some(GuildId(1)),
        channel_id: ChannelId(10),
        challenger_id: UserId(1001),
        challenger_name: "alice".into(),
        opponent_id: opponent,
        variant: Variant::Atomic,
        options: GameOptions::default(),
        days_per_move: Some(1),
        color: ColorChoice::White,
        rated: false,
        venue: kaboom_store::challenges::Venue::Thread,
    }
}

kaboom_testkit::dbtest! {
    /// `/games user:X` lists only the games of X that the caller may read where they
    /// ask (as `/pgn` and `/board`): in a server, that server's games; in a direct message,
    /// the games the caller plays. X's game in another server shows nowhere but in X's own DM.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn games_of_another_user_lists_only_what_the_caller_may_read() -> Outcome {
        let d = TestBot::start().await?;
        let url = d.url().to_string();
        let StartedGame { game: here, .. } = d.start_game(ATOMIC).await?;
        let StartedGame {
            game: elsewhere, ..
        } = d.start_game(ATOMIC).await?;
        sql(
            &url,
            &format!("UPDATE games SET guild_id = 4242 WHERE id = {elsewhere}"),
        )
        .await;
        let listed = |r: &InteractionResponse, id: GameId| {
            r.content()
                .unwrap_or_default()
                .lines()
                .any(|l| l.starts_with(&format!("#{id} ")))
        };
        let of_alice = || vec![CommandOption::user("user", &d.alice)];
        // Carol, in the server: only the server's game.
        let r = d
            .cmd(&d.carol, d.fake.text_channel_id(), "games", of_alice())
            .await?;
        assert!(listed(&r, here) && !listed(&r, elsewhere), "{r:?}");
        assert!(
            r.content()
                .unwrap_or_default()
                .contains("alice in this server"),
            "{r:?}"
        );
        // Carol, in her DM: she plays neither.
        let r = d
            .cmd(
                &d.carol,
                d.fake.dm_channel_for(d.carol.id),
                "games",
                of_alice(),
            )
            .await?;
        assert!(!listed(&r, here) && !listed(&r, elsewhere), "{r:?}");
        assert!(
            r.content()
                .unwrap_or_default()
                .contains("no active games with you"),
            "{r:?}"
        );
        // Bob, in his DM: alice's games against him, both.
        let r = d
            .cmd(&d.bob, d.fake.dm_channel_for(d.bob.id), "games", of_alice())
            .await?;
        assert!(listed(&r, here) && listed(&r, elsewhere), "{r:?}");
        // Alice, in her DM: her own games, both.
        let r = d
            .cmd(&d.alice, d.fake.dm_channel_for(d.alice.id), "games", vec![])
            .await?;
        assert!(listed(&r, here) && listed(&r, elsewhere), "{r:?}");
        d.driver.stop().await;
        Ok(())
    }
}

kaboom_testkit::dbtest! {
    /// In a direct message Discord sends the bot's `app_permissions` as the fixed
    /// DM set (files, embeds, mentions, external emojis: no View Channel, no Send Messages, no
    /// threads). `/challenge` in the player's DM with the bot is refused for the place
    /// (nobody else could see it), saying where to go, not for permissions the bot would
    /// "lack"; the commands that work from anywhere keep working in a DM: `/move game:`,
    /// `/board game:`, `/games`, `/help`.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_direct_message_refuses_challenges_only() -> Outcome {
        let d = TestBot::start().await?;
        let url = d.url().to_string();
        let StartedGame { game, thread, .. } = d.start_game(ATOMIC).await?;
        let dm = d.fake.dm_channel_for(d.alice.id);
        let r = d
            .cmd(
                &d.alice,
                dm,
                "challenge",
                vec![
                    CommandOption::integer("variant", ATOMIC),
                    CommandOption::user("opponent", &d.bob),
                ],
            )
            .await?;
        let said = r.content().unwrap_or_default();
        assert_eq!(
            said,
            "Nobody else can see a challenge in your DM with me. Challenge in a group DM or a server, where your opponent can accept it."
        );
        for permission in ["View Channel", "Send Messages", "lack"] {
            assert!(!said.contains(permission), "{said}");
        }
        assert!(r.custom_ids().is_empty(), "{r:?}");
        assert_eq!(challenges(&url).await, 1, "only the game's own challenge");

        let in_game = || vec![CommandOption::string("game", game.to_string())];
        let mut options = in_game();
        options.push(CommandOption::string("action", "e4"));
        let before = d.fake.messages_in(thread.into()).len();
        let r = d.cmd(&d.alice, dm, "move", options).await?;
        assert!(
            r.content().unwrap_or_default().starts_with("Played"),
            "{r:?}"
        );
        // The move's board reaches the game's thread as from anywhere else.
        d.fake
            .wait_for_messages_in(
                thread.into(),
                before + 1,
                std::time::Duration::from_secs(10),
            )
            .await?;
        for (name, mut options) in [("board", in_game()), ("games", vec![]), ("help", vec![])] {
            if name == "board" {
                options.push(CommandOption::boolean("private", true));
            }
            let r = d.cmd(&d.alice, dm, name, options).await?;
            let text = shown(&r);
            assert!(
                !text.contains("cannot be posted") && !text.contains("Sorry"),
                "/{name} in a DM: {text}"
            );
            match name {
                "board" => assert!(!r.files.is_empty(), "{r:?}"),
                "games" => assert!(text.contains(&format!("#{game} ")), "{text}"),
                _ => assert!(r.data()["embeds"][0].is_object(), "{r:?}"),
            }
        }
        d.driver.stop().await;
        Ok(())
    }
}
