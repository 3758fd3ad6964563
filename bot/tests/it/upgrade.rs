//! Upgrades lose nothing. Each file in `bot/tests/fixtures/upgrade/` is a database made by a
//! released schema (`NNNN.sqlite.sql`: `sqlite3 FILE .dump`; `NNNN.postgres.sql`:
//! `pg_dump --inserts`; `NNNN` is the last migration it has), holding games in every state
//! a host's database has at an upgrade:
//!
//! | game | variant | state at the dump |
//! | --- | --- | --- |
//! | #1 | Atomic | running; bob has a conditional line waiting for alice's move |
//! | #2 | Beirut | setting up: alice chose her carrier, bob not yet |
//! | #3 | Atomic, rated | finished (alice resigned) |
//! | #4 | Atomic | running; alice on vacation |
//! | #5 | Atomic | a practice game against the bot, alice to move |
//! | #6 | Atomic | running; bob's move committed but its board still in the outbox |
//!
//! and an open challenge from alice to carol (Nuke). The test loads each into an empty
//! database, starts today's bot on it (which applies the migrations the dump lacks, as
//! `kaboom serve` does) and checks that every game is there as it was and plays on: the
//! outbox posts what it held, alice's move sets off bob's conditional reply, bob chooses
//! his carrier and the Beirut game starts, alice's vacation ends, the practice opponent
//! answers, carol accepts the challenge, the finished game's PGN is read.
//!
//! Discord keeps a server's threads while its bot is upgraded, so the fake gets the
//! fixture's threads back ([`FakeDiscord::restore_thread`]); the older messages are not
//! restored, which the bot meets as messages a moderator deleted.
//!
//! The commit that changes the schema adds the fixture of its new schema: run `cargo test
//! -p kaboom --test it upgrade::make_fixture -- --ignored` (with `KABOOM_TEST_POSTGRES_URL`
//! set, for the PostgreSQL dump too), so the next change is tested against the schema
//! before it, as docs/hosting.md ("Upgrading") says. The test refuses to pass while the
//! newest fixture is older than the newest migration.

use std::path::PathBuf;
use std::sync::Arc;

use crate::common::wait_for_ply;
use fake_discord::{CommandOption, FakeDiscord};
use kaboom_domain::game::GameState;
use kaboom_domain::ids::{GameId, UserId};
use kaboom_service::painter::RendererPainter;
use kaboom_service::{PlayRequest, Services};
use kaboom_store::sql::query;
use kaboom_store::{Db, games};
use kaboom_testkit::dbtest::{self, Engine};
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::fixture::{ATOMIC, BEIRUT, NUKE, T0, TestBot};
use kaboom_testkit::{TempDb, load_sql_dump};

type Outcome = Result<(), DemoError>;

/// Each game of a fixture as the dump holds it: (id, state, ply).
const FIXTURE_GAMES: [(i64, GameState, i64); 6] = [
    (1, GameState::Active, 2),
    (2, GameState::Setup, 0),
    (3, GameState::Finished, 2),
    (4, GameState::Active, 2),
    (5, GameState::Active, 2),
    (6, GameState::Active, 2),
];

/// Where the fixtures are.
fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/upgrade")
}

/// The fixtures of `engine`, oldest schema first: (file name, SQL).
fn fixtures(engine: Engine) -> Vec<(String, String)> {
    let suffix = match engine {
        Engine::Sqlite => ".sqlite.sql",
        Engine::Postgres => ".postgres.sql",
    };
    let mut found: Vec<(String, String)> = std::fs::read_dir(fixtures_dir())
        .expect("the upgrade fixtures' directory")
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let name = path.file_name()?.to_str()?.to_string();
            name.ends_with(suffix)
                .then(|| (name, std::fs::read_to_string(&path).expect("a fixture")))
        })
        .collect();
    found.sort();
    found
}

/// The bot's services as the tests make them (the renderer's painter).
fn services(db: Db, clock: Arc<kaboom_testkit::clock::TestClock>) -> Services {
    Services::new(db, clock, Arc::new(RendererPainter))
}

/// A challenge from alice to `opponent` in `variant` (alice White), as posted.
async fn challenge(
    d: &TestBot,
    variant: i64,
    opponent: &fake_discord::SimUser,
    rated: bool,
) -> Result<fake_discord::InteractionResponse, DemoError> {
    d.cmd(
        &d.alice,
        d.fake.text_channel_id(),
        "challenge",
        vec![
            CommandOption::integer("variant", variant),
            CommandOption::user("opponent", opponent),
            CommandOption::integer("color", 0),
            CommandOption::boolean("rated", rated),
        ],
    )
    .await
}

/// Plays the fixture's story on a fresh bot and returns it halted, with game #6's last
/// move committed while no bot ran (so its posts wait in the outbox).
async fn fixture_story() -> Result<TempDb, DemoError> {
    let d = TestBot::start_with(services).await?;
    // #1: bob's conditional line waits for alice's Nf3.
    let one = d
        .accept(&challenge(&d, ATOMIC, &d.bob, false).await?)
        .await?;
    d.play(&d.alice, one.thread, "e4").await?;
    d.play(&d.bob, one.thread, "e5").await?;
    d.cmd(
        &d.bob,
        one.thread,
        "premove",
        vec![CommandOption::subcommand(
            "line",
            vec![CommandOption::string("line", "Nf3 Nc6")],
        )],
    )
    .await?;
    // #2: Beirut, alice's carrier chosen, bob's not.
    let two = d
        .accept(&challenge(&d, BEIRUT, &d.bob, false).await?)
        .await?;
    d.choose_carriers_by_dm(&d.alice, two.game, &["d1"]).await?;
    // #3: rated, finished.
    let three = d
        .accept(&challenge(&d, ATOMIC, &d.bob, true).await?)
        .await?;
    d.play(&d.alice, three.thread, "d4").await?;
    d.play(&d.bob, three.thread, "d5").await?;
    d.resign(&d.alice, three.thread).await?;
    // #4: alice on vacation.
    let four = d
        .accept(&challenge(&d, ATOMIC, &d.bob, false).await?)
        .await?;
    d.play(&d.alice, four.thread, "c4").await?;
    d.play(&d.bob, four.thread, "c5").await?;
    d.cmd(
        &d.alice,
        four.thread,
        "vacation",
        vec![CommandOption::subcommand(
            "start",
            vec![CommandOption::integer("days", 2)],
        )],
    )
    .await?;
    // #5: a practice game, the bot's reply in.
    let (five, five_thread, _) = d.play_bot(&d.alice, ATOMIC, 0, 0).await?;
    d.play(&d.alice, five_thread, "e3").await?;
    wait_for_ply(&d.db, five, 2).await;
    // #6: alice's move posted.
    let six = d
        .accept(&challenge(&d, ATOMIC, &d.bob, false).await?)
        .await?;
    d.play(&d.alice, six.thread, "g3").await?;
    // The open challenge.
    challenge(&d, NUKE, &d.carol, false).await?;
    d.outbox_delivered().await?;
    let TestBot {
        driver,
        clock,
        database,
    } = d;
    driver.halt().await;
    // #6: bob's move, committed with no bot running to post it.
    let db = Db::connect(database.url()).await?;
    let offline = services(db.clone(), clock);
    let planner = kaboom_discord::outbox::DiscordEffects::for_services(&offline);
    offline
        .with_effects(planner)
        .games()
        .play(PlayRequest::new(six.game, UserId(1002), "g6"))
        .await
        .map_err(|e| DemoError::Step(format!("bob's offline move: {e}")))?;
    assert!(
        !kaboom_store::outbox::pending(&db).await?.is_empty(),
        "bob's move left nothing in the outbox"
    );
    for (id, state, ply) in FIXTURE_GAMES {
        let row = games::get(&db, GameId(id)).await?.expect("a fixture game");
        assert_eq!((row.state, row.ply), (state, ply), "game #{id}");
    }
    db.close().await;
    Ok(database)
}

/// The SQL dump of the database at `url`.
fn dump(url: &str) -> String {
    let output = match url.strip_prefix("sqlite://") {
        Some(path) => std::process::Command::new("sqlite3")
            .args([path, ".dump"])
            .output(),
        None => std::process::Command::new("pg_dump")
            .args([
                "--no-owner",
                "--no-privileges",
                "--no-comments",
                "--inserts",
                "--dbname",
                url,
            ])
            .output(),
    }
    .expect("sqlite3 or pg_dump");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("a UTF-8 dump")
}

/// Writes this schema's fixtures (SQLite, and PostgreSQL when
/// `KABOOM_TEST_POSTGRES_URL` is set): run it on the commit before a schema change.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "writes the upgrade fixtures of the current schema: run before a schema change"]
async fn make_fixture() -> Outcome {
    let version = kaboom_store::MIGRATOR
        .iter()
        .map(|m| m.version)
        .max()
        .expect("migrations");
    let mut engines = vec![(Engine::Sqlite, "sqlite")];
    if kaboom_testkit::postgres_url().is_some() {
        engines.push((Engine::Postgres, "postgres"));
    }
    for (engine, name) in engines {
        let database = dbtest::run(engine, fixture_story()).await?;
        let path = fixtures_dir().join(format!("{version:04}.{name}.sql"));
        std::fs::create_dir_all(fixtures_dir()).expect("the fixtures' directory");
        std::fs::write(&path, dump(database.url())).expect("the fixture written");
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// Starts today's bot on the fixture `sql`, with the fake's threads as Discord kept them.
async fn upgraded(sql: &str) -> Result<TestBot, DemoError> {
    let database = TempDb::new().await;
    load_sql_dump(database.url(), sql)
        .await
        .map_err(|e| DemoError::Step(format!("the fixture does not load: {e}")))?;
    let fake = FakeDiscord::start().await?;
    {
        let db = Db::connect(database.url()).await?;
        for (id, _, _) in FIXTURE_GAMES {
            let row = games::get(&db, GameId(id)).await?.expect("a fixture game");
            if let Some(thread) = row.thread_id {
                fake.restore_thread(row.channel_id.get(), thread.get(), &format!("game {id}"))?;
            }
        }
        db.close().await;
    }
    // An hour after the fixture's story: no deadline has passed.
    TestBot::start_on_database(fake, database, T0 + 3600, services).await
}

kaboom_testkit::dbtest! {
    /// Every fixture of an older schema migrates to today's and plays on: its games keep
    /// their states and moves, its outbox is posted, and each kind of game goes on (a
    /// conditional reply, a carrier choice, a vacation's end, the practice opponent, an
    /// accepted challenge, a finished game's PGN).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn every_fixture_migrates_and_plays_on() -> Outcome {
        let fixtures = fixtures(dbtest::current());
        let latest = kaboom_store::MIGRATOR.iter().map(|m| m.version).max().expect("migrations");
        assert_eq!(
            fixtures.last().map(|(name, _)| name[..4].to_string()),
            Some(format!("{latest:04}")),
            "the newest schema has no upgrade fixture: run upgrade::make_fixture"
        );
        for (name, sql) in fixtures {
            println!("fixture {name}");
            let d = upgraded(&sql).await?;
            let applied: Option<i64> = sqlx_max_version(&d.db).await;
            assert_eq!(applied, Some(latest), "{name}: not migrated to today's schema");
            for (id, state, ply) in FIXTURE_GAMES {
                let row = games::get(&d.db, GameId(id)).await?.expect("a fixture game");
                assert_eq!((row.state, row.ply), (state, ply), "{name}: game #{id}");
                // Every game still replays from its stored actions.
                d.services().games().load(GameId(id)).await.map_err(|e| {
                    DemoError::Step(format!("{name}: game #{id} does not load: {e}"))
                })?;
            }
            // The outbox posts what it held: bob's g6 in game #6's thread.
            d.outbox_delivered().await?;
            let six = games::get(&d.db, GameId(6)).await?.expect("game #6");
            let posted = d.boards(six.thread_id.expect("a thread"));
            assert_eq!(posted.len(), 1, "{name}: game #6's board of g6 posted once");
            // #1: alice's Nf3 sets off bob's conditional Nc6.
            let one = games::get(&d.db, GameId(1)).await?.expect("game #1");
            d.play(&d.alice, one.thread_id.expect("a thread"), "Nf3").await?;
            wait_for_ply(&d.db, GameId(1), 4).await;
            assert_eq!(
                games::actions(&d.db, GameId(1)).await?,
                ["e4", "e5", "Nf3", "Nc6"].map(String::from)
            );
            // #2: bob's carrier starts the Beirut game.
            d.services()
                .games()
                .designate(GameId(2), UserId(1002), &["d8".to_string()])
                .await
                .map_err(|e| DemoError::Step(format!("{name}: bob's carrier: {e}")))?;
            let two = games::get(&d.db, GameId(2)).await?.expect("game #2");
            assert_eq!(two.state, GameState::Active, "{name}");
            // #4: alice ends her vacation and moves.
            let four = games::get(&d.db, GameId(4)).await?.expect("game #4");
            let four_thread = four.thread_id.expect("a thread");
            let ended = d
                .cmd(
                    &d.alice,
                    four_thread,
                    "vacation",
                    vec![CommandOption::subcommand("end", vec![])],
                )
                .await?;
            assert_eq!(
                ended.content(),
                Some("Welcome back: your vacation is over and your clocks run again.")
            );
            d.play(&d.alice, four_thread, "Nc3").await?;
            assert_eq!(games::get(&d.db, GameId(4)).await?.expect("#4").ply, 3);
            // #5: the practice opponent answers alice's move.
            let five = games::get(&d.db, GameId(5)).await?.expect("game #5");
            d.play(&d.alice, five.thread_id.expect("a thread"), "a3").await?;
            wait_for_ply(&d.db, GameId(5), 4).await;
            // The open challenge: carol accepts it in the restored channel.
            let open: Vec<i64> = sqlx_open_challenges(&d.db).await;
            assert_eq!(open.len(), 1, "{name}: the open challenge");
            // #3: the finished game's PGN.
            let three = games::get(&d.db, GameId(3)).await?.expect("game #3");
            let pgn = d
                .cmd(&d.carol, three.thread_id.expect("a thread"), "pgn", vec![])
                .await?;
            assert_eq!(pgn.content(), Some("Game #3 as PGN:"));
            let text = String::from_utf8(pgn.files[0].bytes.clone()).expect("a UTF-8 PGN");
            assert_eq!(
                text.trim_end(),
                "[Event \"Kaboom game #3\"]\n[Site \"Discord\"]\n[Date \"2025.11.21\"]\n[Round \"-\"]\n[White \"alice\"]\n[Black \"bob\"]\n[Result \"0-1\"]\n[Variant \"Atomic\"]\n[Termination \"resignation\"]\n\n1. d4 d5 0-1",
                "{name}"
            );
            d.outbox_delivered().await?;
            let (given_up,): (i64,) =
                query("SELECT COUNT(*) FROM discord_outbox WHERE failed_at IS NOT NULL")
                    .fetch_one(&d.db)
                    .await
                    .expect("the outbox");
            assert_eq!(given_up, 0, "{name}: outbox entries given up");
            let unknown = d.fake.unknown_routes();
            assert!(unknown.is_empty(), "{name}: {unknown:?}");
            d.stop().await;
        }
        Ok(())
    }
}

/// The highest migration version recorded in `db`.
async fn sqlx_max_version(db: &Db) -> Option<i64> {
    let (version,): (Option<i64>,) = query("SELECT MAX(version) FROM _sqlx_migrations")
        .fetch_one(db)
        .await
        .expect("_sqlx_migrations");
    version
}

/// The ids of the open challenges in `db`.
async fn sqlx_open_challenges(db: &Db) -> Vec<i64> {
    let rows: Vec<(i64,)> = query("SELECT id FROM challenges WHERE state = 'open'")
        .fetch_all(db)
        .await
        .expect("challenges");
    rows.into_iter().map(|(id,)| id).collect()
}
