//! # kaboom-testkit
//!
//! What Kaboom's tests and its offline demo share, and nothing the bot's production code
//! uses:
//! - [`fixture::TestBot`]: the one fixture of the bot's integration tests (the bot on a
//!   fresh database at a fixed time) and the `/challenge` choice numbers;
//! - [`driver::Driver`]: the real bot, started in-process against a
//!   [`fake_discord::FakeDiscord`] on loopback, driven as simulated users (slash commands,
//!   autocomplete, buttons), restartable on the same database;
//! - [`demo`]: `kaboom demo`, one scripted game per variant (the `kaboom-demo` program,
//!   which `kaboom demo` runs);
//! - [`clock::TestClock`], [`painter::PlainPainter`], [`notifier::RecordingNotifier`]: the
//!   bot's [`Clock`](kaboom_domain::clock::Clock), [`BoardPainter`](kaboom_service::painter::BoardPainter)
//!   and scheduler [`NoticePlanner`](kaboom_service::scheduler::NoticePlanner) for tests;
//! - [`temp_db`], [`TempDb`]: a fresh database: SQLite in a temporary directory, or a new
//!   database on the PostgreSQL server of `KABOOM_TEST_POSTGRES_URL` in the PostgreSQL
//!   case of a [`dbtest!`] (the same test on both engines);
//! - [`discord_scheduler`], [`wait_for_outbox`]: the scheduler writing into the Discord
//!   outbox and its deliverer posting to a fake Discord, as the running bot has them.
#![deny(missing_docs)]

pub mod clock;
pub mod dbtest;
pub mod demo;
pub mod driver;
pub mod fixture;
pub mod notifier;
pub mod page;
pub mod painter;

use std::sync::Arc;

use std::time::Duration;

use kaboom_discord::notifier::DiscordNotifier;
use kaboom_discord::outbox::{Deliverer, OutboxHandle};
use kaboom_domain::clock::Clock;
use kaboom_service::Services;
use kaboom_service::scheduler::{NoticePlanner, Scheduler, SchedulerConfig};
use kaboom_store::{Db, outbox};
use poise::serenity_prelude as serenity;

/// The variable naming a PostgreSQL server for the tests: a URL such as
/// `postgres://kaboom@127.0.0.1:5433/postgres` whose user may create databases
/// (`scripts/pg-local.sh` starts one). Unset: the tests use SQLite.
pub const POSTGRES_URL_VAR: &str = "KABOOM_TEST_POSTGRES_URL";

/// The PostgreSQL server URL of [`POSTGRES_URL_VAR`], if set and not empty.
pub fn postgres_url() -> Option<String> {
    std::env::var(POSTGRES_URL_VAR)
        .ok()
        .filter(|u| !u.trim().is_empty())
}

/// A fresh, empty database for one test, removed when dropped: a SQLite file in a
/// temporary directory, or, in the PostgreSQL case of a [`dbtest!`], a new database
/// (`kaboom_test_<pid>_<n>_<random>`) on the server of [`POSTGRES_URL_VAR`], dropped
/// (`WITH (FORCE)`) when the guard goes.
#[derive(Debug)]
pub struct TempDb {
    url: String,
    dir: tempfile::TempDir,
    /// The server's URL and the database's name, on PostgreSQL.
    postgres: Option<(String, String)>,
}

impl TempDb {
    /// Makes the database (no migration yet: [`Db::connect`] applies them).
    ///
    /// # Panics
    /// When the temporary directory or the PostgreSQL database cannot be made, or a
    /// PostgreSQL case runs without [`POSTGRES_URL_VAR`]: a test cannot go on.
    pub async fn new() -> TempDb {
        match dbtest::current() {
            dbtest::Engine::Sqlite => {
                let dir = tempfile::tempdir().expect("temp dir");
                let url = format!("sqlite://{}", dir.path().join("test.db").display());
                TempDb {
                    url,
                    dir,
                    postgres: None,
                }
            }
            dbtest::Engine::Postgres => match postgres_url() {
                Some(server) => TempDb::on_postgres(&server).await,
                None => panic!(
                    "this is a PostgreSQL case and {POSTGRES_URL_VAR} is not set: start a server \
                     (eval \"$(bash scripts/pg-local.sh start /tmp/kaboom-pg 5433)\") or run the \
                     `::sqlite` case"
                ),
            },
        }
    }

    /// A new, empty database (`kaboom_test_<pid>_<n>_<random>`) on the PostgreSQL server
    /// `server` (a `postgres://` URL whose user may create databases), dropped (`WITH
    /// (FORCE)`) when the guard goes, whatever [`POSTGRES_URL_VAR`] says. For the load
    /// benchmark's `LOAD_DATABASE_URL`.
    ///
    /// # Panics
    /// When the server cannot be reached or the database cannot be made.
    pub async fn on_postgres(server: &str) -> TempDb {
        let dir = tempfile::tempdir().expect("temp dir");
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let salt = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or_default();
        let name = format!("kaboom_test_{}_{n}_{salt:x}", std::process::id());
        use sqlx::Connection;
        let mut admin = sqlx::PgConnection::connect(server)
            .await
            .unwrap_or_else(|e| panic!("the PostgreSQL server: cannot connect: {e}"));
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&mut admin)
            .await
            .unwrap_or_else(|e| panic!("the PostgreSQL server: cannot create {name}: {e}"));
        let _ = admin.close().await;
        TempDb {
            url: with_database(server, &name),
            dir,
            postgres: Some((server.to_string(), name)),
        }
    }

    /// The database's URL (`sqlite://...` or `postgres://...`), for [`Db::connect`] or a
    /// `kaboom serve` process's `DATABASE_URL`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// A temporary directory that lives as long as the database (for other files).
    pub fn path(&self) -> &std::path::Path {
        self.dir.path()
    }

    /// Whether this is a PostgreSQL database.
    pub fn is_postgres(&self) -> bool {
        self.postgres.is_some()
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        let Some((server, name)) = self.postgres.take() else {
            return;
        };
        // Drop may run inside the test's runtime: the drop gets a thread and a runtime of
        // its own. Best effort: a database left behind is only space on a test server.
        let _ = std::thread::spawn(move || {
            let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            rt.block_on(async move {
                use sqlx::Connection;
                if let Ok(mut admin) = sqlx::PgConnection::connect(&server).await {
                    let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                        .execute(&mut admin)
                        .await;
                    let _ = admin.close().await;
                }
            });
        })
        .join();
    }
}

/// `server` (a `postgres://` URL) naming database `name` instead of its own.
fn with_database(server: &str, name: &str) -> String {
    let (base, query) = match server.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (server, None),
    };
    let authority_start = base.find("://").map_or(0, |i| i + 3);
    let base = match base[authority_start..].find('/') {
        Some(i) => &base[..authority_start + i],
        None => base,
    };
    match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    }
}

/// A fresh database with every migration applied ([`TempDb`]: SQLite, or PostgreSQL in the
/// PostgreSQL case of a [`dbtest!`]), removed when the returned guard goes.
///
/// # Panics
/// When the database cannot be made or opened: a test cannot go on.
pub async fn temp_db() -> (Db, TempDb) {
    let guard = TempDb::new().await;
    (Db::connect(guard.url()).await.expect("open test db"), guard)
}

/// Runs the SQL script `sql` on the database at `url` (made by [`TempDb::new`] and not
/// yet opened by [`Db::connect`], so it holds nothing): the text of `sqlite3 FILE .dump`
/// for a `sqlite://` URL, of `pg_dump --inserts` for a `postgres://` one. Lines starting
/// with a backslash are psql's meta-commands (`\restrict` in pg_dump 15.14 and later),
/// not SQL, and are skipped. The dump's own `_sqlx_migrations` rows come with it, so a
/// [`Db::connect`] afterwards applies only the migrations the dump's schema lacks, as
/// `kaboom serve` does after an upgrade.
///
/// # Errors
/// The database's error for a statement it refuses, or when it cannot be opened.
pub async fn load_sql_dump(url: &str, sql: &str) -> Result<(), sqlx::Error> {
    use sqlx::Connection;
    let script: String = sql
        .lines()
        .filter(|line| !line.starts_with('\\'))
        .map(|line| format!("{line}\n"))
        .collect();
    if url.starts_with("postgres") {
        let mut conn = sqlx::PgConnection::connect(url).await?;
        sqlx::raw_sql(&script).execute(&mut conn).await?;
        conn.close().await
    } else {
        let options = <sqlx::sqlite::SqliteConnectOptions as std::str::FromStr>::from_str(url)?
            .create_if_missing(true);
        let mut conn = sqlx::SqliteConnection::connect_with(&options).await?;
        sqlx::raw_sql(&script).execute(&mut conn).await?;
        conn.close().await
    }
}

/// The bot's scheduler over `db`, reading the time from `clock` and planning its notices
/// with `notifier`, with the default configuration ([`SchedulerConfig::default`]) and the
/// bot's own wording: what scheduler tests and the sweep benchmark start from.
pub fn default_scheduler(
    db: Db,
    clock: Arc<dyn Clock>,
    notifier: Arc<dyn NoticePlanner>,
) -> Scheduler {
    Scheduler::new(
        db,
        clock,
        notifier,
        SchedulerConfig::default(),
        kaboom_discord::messages::scheduler_wording(),
    )
}

/// The scheduler as the running bot has it (over `services`' database, on `clock`, with
/// `config`): its notices go into the Discord outbox, and an outbox deliverer over
/// `services`, started here, posts them with `http` (a fake Discord's client). Keep the
/// handle: the deliverer stops when it is dropped.
pub fn discord_scheduler(
    services: &Services,
    clock: Arc<dyn Clock>,
    http: Arc<serenity::Http>,
    config: SchedulerConfig,
) -> (Scheduler, OutboxHandle) {
    let handle = Deliverer::spawn(services.clone(), http);
    let scheduler = Scheduler::new(
        services.db().clone(),
        clock,
        Arc::new(DiscordNotifier::new(services.outbox_waker().clone())),
        config,
        kaboom_discord::messages::scheduler_wording(),
    );
    (scheduler, handle)
}

/// Waits (at most `timeout`) until `db`'s outbox holds no entry still to deliver; `false`
/// at the time limit.
///
/// # Panics
/// When the outbox cannot be read: a test cannot go on.
pub async fn wait_for_outbox(db: &Db, timeout: Duration) -> bool {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        if outbox::pending(db)
            .await
            .expect("read the outbox")
            .is_empty()
        {
            return true;
        }
        if tokio::time::Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::with_database;

    #[test]
    fn a_postgres_url_is_pointed_at_another_database() {
        assert_eq!(
            with_database("postgres://k@127.0.0.1:5433/postgres", "t1"),
            "postgres://k@127.0.0.1:5433/t1"
        );
        assert_eq!(
            with_database("postgres://k:pw@h/db?sslmode=disable", "t2"),
            "postgres://k:pw@h/t2?sslmode=disable"
        );
        assert_eq!(
            with_database("postgres://h:5432", "t3"),
            "postgres://h:5432/t3"
        );
    }
}
