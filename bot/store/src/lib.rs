//! # kaboom-store
//!
//! Storage: the bot's database, behind functions the services call (no SQL anywhere else).
//!
//! SQLite by default (embedded, file created if missing); PostgreSQL when `DATABASE_URL` is
//! a `postgres://` URL (several processes on one database). Each engine has its
//! own migrations (`migrations/sqlite/`, `migrations/postgres/`), applied at start-up; the
//! storage modules write each statement once and run it on either through [`sql`]. Discord
//! ids are stored as `BIGINT` (snowflakes fit in 63 bits: the id types of
//! [`kaboom_domain::ids`] convert to `i64` to be bound and back with `TryFrom<i64>`, rows are
//! decoded by `#[derive(sqlx::FromRow)]` with `#[sqlx(try_from = "i64")]`); times are Unix
//! seconds (`BIGINT`);
//! JSON is `TEXT` on both engines; no bytes are stored (`migrations/README.md`).
//!
//! One module per table group: [`challenges`], [`games`] (games, their actions and draw
//! offers), [`carriers`] (secret designations, BE-2/BE-9), [`ratings`] (Glicko-2 ratings
//! and the change of every rated game).
#![deny(missing_docs)]

pub mod analyses; // post-game analyses
pub mod carriers;
pub mod challenges;
pub mod comforts;
pub mod copy; // SQLite to PostgreSQL
pub mod engine; // practice opponent
pub mod games;
pub mod leagues; // server leagues
mod lite; // the SQLite connection pool
pub mod notices; // what a player missed while their DMs were refused
pub mod outbox; // Discord outbox
pub mod previews; // explosion previews
pub mod privacy; // a player's own data (/privacy)
pub mod puzzles; // variant puzzles
pub mod ratings; // ratings
pub mod schedule; // scheduler
pub mod settings; // players' and servers' settings
pub mod sql; // one query, either engine

use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqliteSynchronous};

use lite::{LitePool, LiteTx};

/// The SQLite migrations (`migrations/sqlite/`), embedded at compile time and applied at
/// start-up.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/sqlite");

/// The PostgreSQL migrations (`migrations/postgres/`): the same versions as
/// SQLite's, in PostgreSQL's types.
pub static PG_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../../migrations/postgres");

/// The key of the PostgreSQL advisory lock of the whole database: taken exclusively by
/// [`Db::begin_write`] and shared by [`Db::begin_game_write`]; `"kaboom:w"` in ASCII.
pub const WRITE_LOCK_KEY: i64 = 0x6b61_626f_6f6d_3a77;

/// The key of the PostgreSQL advisory lock over every player's rating ([`Tx::lock_ratings`]):
/// `"kaboom:r"` in ASCII.
pub const RATINGS_LOCK_KEY: i64 = 0x6b61_626f_6f6d_3a72;

/// The first key of the PostgreSQL advisory locks of single games ([`Db::begin_game_write`]):
/// game `id` locks `GAME_LOCK_BASE + id` (`"kg"` in the top two bytes, so no game's key
/// meets [`WRITE_LOCK_KEY`] or [`RATINGS_LOCK_KEY`] below 2^48 games).
pub const GAME_LOCK_BASE: i64 = 0x6b67 << 48;

/// The database engine behind a [`Db`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// SQLite: one file, one process (the default).
    Sqlite,
    /// PostgreSQL: one server, any number of bot processes.
    Postgres,
}

/// Default `DATABASE_URL`: a SQLite file in the working directory, created if missing.
pub const DEFAULT_DATABASE_URL: &str = "sqlite://kaboom.db";

/// A database error (connection, query or migration).
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// A query or connection failed.
    #[error("database error: {0}")]
    Sql(#[from] sqlx::Error),
    /// The schema could not be brought up to date.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored value does not read back (a corrupt or foreign row).
    #[error("stored data is invalid: {0}")]
    Corrupt(String),
    /// The database file could not be created or given owner-only permissions.
    #[error("database file: {0}")]
    Io(String),
}

/// A stored name read back (`text.parse()`: an enum stored as its name, a colour):
/// [`StorageError::Corrupt`] saying `what '<text>'` for any other text.
pub(crate) fn parse_stored<T: FromStr>(what: &str, text: &str) -> Result<T, StorageError> {
    text.parse()
        .map_err(|_| StorageError::Corrupt(format!("{what} '{text}'")))
}

/// The database handle: a connection pool, cheap to clone.
#[derive(Clone, Debug)]
pub struct Db {
    pool: Pool,
    /// What this handle and its clones sent ([`Db::round_trips`]).
    counters: Arc<Counters>,
}

/// The running totals behind [`Db::round_trips`].
#[derive(Debug, Default)]
struct Counters {
    statements: AtomicU64,
    checkouts: AtomicU64,
}

impl Counters {
    fn statement(&self) {
        self.statements.fetch_add(1, Ordering::Relaxed);
    }

    fn checkout(&self) {
        self.checkouts.fetch_add(1, Ordering::Relaxed);
    }
}

/// What a [`Db`] (and every clone of it) has sent to its database since it was opened:
/// the round trips a piece of work costs are the difference of two readings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RoundTrips {
    /// Statements sent, each one round trip to the database (on SQLite: to the
    /// connection's worker thread, and back to the waiting task): every query of the
    /// storage modules, and each `BEGIN`, PostgreSQL advisory-lock statement, `COMMIT` and
    /// `ROLLBACK` (a transaction dropped without [`Tx::commit`] counts its rollback).
    /// Migrations, `LISTEN` and the SQLite-to-PostgreSQL copy are not counted.
    pub statements: u64,
    /// Connections taken from the pool: one per statement run on the pool (autocommit)
    /// and one per transaction. On PostgreSQL, sqlx's pool pings a connection when it
    /// goes back to the pool and when it is taken: one more round trip each, not in
    /// `statements`. SQLite's pool hands a connection back without one.
    pub checkouts: u64,
}

impl std::ops::Sub for RoundTrips {
    type Output = RoundTrips;
    fn sub(self, earlier: RoundTrips) -> RoundTrips {
        RoundTrips {
            statements: self.statements - earlier.statements,
            checkouts: self.checkouts - earlier.checkouts,
        }
    }
}

/// The pool of either engine.
#[derive(Clone, Debug)]
enum Pool {
    Sqlite(LitePool),
    Postgres(PgPool),
}

impl Db {
    /// Opens the database at `url`: PostgreSQL for a `postgres://` or `postgresql://` URL
    /// ([`Db::connect_postgres`]), SQLite otherwise ([`Db::connect_sqlite`]), and applies
    /// that engine's migrations.
    ///
    /// # Errors
    /// [`StorageError`] when the URL is invalid, the database cannot be reached or opened,
    /// or a migration fails.
    pub async fn connect(url: &str) -> Result<Db, StorageError> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Db::connect_postgres(url, 8).await
        } else {
            Db::connect_sqlite(url).await
        }
    }

    /// Connects to the PostgreSQL database at `url` with a pool of at most
    /// `max_connections`, and applies the migrations of `migrations/postgres/` (sqlx takes
    /// an advisory lock for that, so processes starting together migrate once).
    ///
    /// # Errors
    /// [`StorageError`] when the server cannot be reached, refuses the login, or a
    /// migration fails.
    pub async fn connect_postgres(url: &str, max_connections: u32) -> Result<Db, StorageError> {
        let pool = PgPoolOptions::new()
            .max_connections(max_connections)
            .acquire_timeout(Duration::from_secs(10))
            .connect(url)
            .await?;
        PG_MIGRATOR.run(&pool).await?;
        Ok(Db {
            pool: Pool::Postgres(pool),
            counters: Arc::default(),
        })
    }

    /// Opens (creating if missing) the database at `url` (`sqlite://path`), with the WAL
    /// journal, `synchronous = NORMAL`, foreign keys on and a 5-second busy timeout, and
    /// applies the migrations.
    ///
    /// `synchronous = NORMAL` with WAL (SQLite's recommended pairing): a commit appends to
    /// the write-ahead log without waiting for an fsync; the log is synced at checkpoints.
    /// The database stays consistent after a crash or a power loss (each transaction is
    /// applied whole or not at all). A process crash loses nothing (the OS keeps the
    /// written log); only a power loss or OS crash can undo the last commits before the
    /// next sync, whole transactions at a time: a move or a scheduler decision (with its
    /// nudge claim) is then undone as a unit, and a notice sent just before could be sent
    /// once more after the restart. `FULL` would cost one fsync per write transaction, on
    /// every move and every sweep batch.
    ///
    /// The database holds hidden carriers and commitment salts, so its file is made
    /// readable by its owner only (mode 0600 on Unix) before SQLite opens it, and an
    /// existing file that others could read is narrowed to 0600. SQLite creates
    /// the `-wal` and `-shm` files with the database file's permissions.
    ///
    /// # Errors
    /// [`StorageError`] when the URL is invalid, the file cannot be opened or a migration fails.
    pub async fn connect_sqlite(url: &str) -> Result<Db, StorageError> {
        let options = SqliteConnectOptions::from_str(url)?;
        if !options.get_filename().as_os_str().is_empty()
            && options.get_filename() != std::path::Path::new(":memory:")
        {
            owner_only(options.get_filename())?;
        }
        let options = options
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5));
        // Our own pool rather than sqlx's, which pings every connection going back to it
        // (`lite`): at most 4 connections (one writer at a time anyway), the most recently
        // used first.
        let pool = LitePool::builder(lite::Connector { options })
            .max_size(4)
            .queue_mode(deadpool::managed::QueueMode::Lifo)
            .wait_timeout(Some(lite::ACQUIRE_TIMEOUT))
            .runtime(deadpool::Runtime::Tokio1)
            .build()
            .map_err(|e| sqlx::Error::Configuration(e.to_string().into()))?;
        MIGRATOR.run(&mut *lite::acquire(&pool).await?).await?;
        Ok(Db {
            pool: Pool::Sqlite(pool),
            counters: Arc::default(),
        })
    }

    /// Starts a write transaction that takes the database's write lock at once, so a
    /// read-check-write inside it cannot interleave with another, in this process or (on
    /// PostgreSQL) any other:
    /// - SQLite: `BEGIN IMMEDIATE` (the file's one write lock);
    /// - PostgreSQL: `BEGIN` and `pg_advisory_xact_lock(`[`WRITE_LOCK_KEY`]`)`, held until
    ///   the commit or rollback. Every write transaction of every process queues on it, so
    ///   each one reads what the previous ones committed (`READ COMMITTED`: each statement
    ///   sees the latest commits) and the services' and the scheduler's read-check-write
    ///   steps keep the meaning they have on SQLite: a due game, an expiring challenge or a
    ///   rating is decided by exactly one process. Writes are short (no Discord call runs
    ///   inside one), so one lock costs little next to Discord's own limits.
    ///
    /// # Errors
    /// [`StorageError::Sql`] when the lock cannot be had within the busy timeout (SQLite),
    /// or the server fails.
    pub async fn begin_write(&self) -> Result<Tx, StorageError> {
        self.begin_locked("SELECT pg_advisory_xact_lock($1)", &[WRITE_LOCK_KEY])
            .await
    }

    /// A write transaction: SQLite's `BEGIN IMMEDIATE`, or on PostgreSQL `BEGIN` and the
    /// statement `locks` (advisory locks held until the transaction ends) with `keys` bound
    /// as `$1`, `$2`, ... in order.
    async fn begin_locked(&self, locks: &str, keys: &[i64]) -> Result<Tx, StorageError> {
        self.counters.checkout();
        self.counters.statement();
        let inner = match &self.pool {
            Pool::Sqlite(p) => {
                TxInner::Sqlite(LiteTx::begin(lite::acquire(p).await?, "BEGIN IMMEDIATE").await?)
            }
            Pool::Postgres(p) => {
                let mut t = p.begin().await?;
                let mut q = sqlx::query(locks);
                for key in keys {
                    q = q.bind(*key);
                }
                self.counters.statement();
                q.execute(&mut *t).await?;
                TxInner::Postgres(t)
            }
        };
        Ok(Tx::new(inner, &self.counters))
    }

    /// Starts a write transaction for one game's change (a move, a designation, a draw
    /// offer, a resignation): it may run beside another game's, and never beside a write
    /// of the whole database ([`Db::begin_write`]).
    /// - SQLite: `BEGIN IMMEDIATE`, as [`Db::begin_write`] (one writer at a time anyway);
    /// - PostgreSQL: `BEGIN`, `pg_advisory_xact_lock_shared(`[`WRITE_LOCK_KEY`]`)`, then
    ///   `pg_advisory_xact_lock(`[`GAME_LOCK_BASE`]` + game)`, both held until the commit or
    ///   rollback. Two changes of one game queue on the game's lock, so the expected-ply check
    ///   reads what the other committed; changes of other games go on at once. What such a
    ///   transaction writes beyond its game is either its own new rows (actions, outbox
    ///   entries) or guarded by a lock of its own ([`Tx::lock_ratings`]); locks are always
    ///   taken in the order database, game, ratings, so no two transactions wait on each other.
    ///
    /// # Errors
    /// As [`Db::begin_write`].
    pub async fn begin_game_write(
        &self,
        game: kaboom_domain::ids::GameId,
    ) -> Result<Tx, StorageError> {
        self.begin_locked(
            "SELECT pg_advisory_xact_lock_shared($1), pg_advisory_xact_lock($2)",
            &[WRITE_LOCK_KEY, GAME_LOCK_BASE + game.get()],
        )
        .await
    }

    /// Starts a read transaction: one consistent view for several reads (SQLite's deferred
    /// `BEGIN`; PostgreSQL's `REPEATABLE READ`, one snapshot for the whole transaction).
    ///
    /// # Errors
    /// [`StorageError::Sql`] when the database fails.
    pub async fn begin_read(&self) -> Result<Tx, StorageError> {
        self.counters.checkout();
        self.counters.statement();
        let inner = match &self.pool {
            Pool::Sqlite(p) => {
                TxInner::Sqlite(LiteTx::begin(lite::acquire(p).await?, "BEGIN").await?)
            }
            Pool::Postgres(p) => TxInner::Postgres(
                p.begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    .await?,
            ),
        };
        Ok(Tx::new(inner, &self.counters))
    }

    /// The round trips this handle and its clones have made so far ([`RoundTrips`]).
    pub fn round_trips(&self) -> RoundTrips {
        RoundTrips {
            statements: self.counters.statements.load(Ordering::Relaxed),
            checkouts: self.counters.checkouts.load(Ordering::Relaxed),
        }
    }

    /// The PostgreSQL pool, for what only PostgreSQL has (`LISTEN`): `None` on SQLite.
    pub(crate) fn postgres_pool(&self) -> Option<&PgPool> {
        match &self.pool {
            Pool::Sqlite(_) => None,
            Pool::Postgres(p) => Some(p),
        }
    }

    /// Closes the pool (waits for connections to be returned).
    pub async fn close(&self) {
        match &self.pool {
            Pool::Sqlite(p) => lite::close(p).await,
            Pool::Postgres(p) => p.close().await,
        }
    }
}

/// Creates the database file at `path` readable and writable by its owner only (0600),
/// or narrows an existing one (and its `-wal` and `-shm` files) to that.
///
/// # Errors
/// [`StorageError::Io`] when the file cannot be created or its mode changed.
#[cfg(unix)]
fn owner_only(path: &std::path::Path) -> Result<(), StorageError> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let io = |e: std::io::Error| StorageError::Io(format!("{}: {e}", path.display()));
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(path)
        .map_err(io)?;
    for suffix in ["", "-wal", "-shm"] {
        let file = std::path::PathBuf::from(format!("{}{suffix}", path.display()));
        let Ok(meta) = std::fs::metadata(&file) else {
            continue;
        };
        if meta.permissions().mode() & 0o077 != 0 {
            tracing::warn!(file = %file.display(), "database file was readable by others; narrowed to 0600");
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).map_err(io)?;
        }
    }
    Ok(())
}

/// On systems without Unix modes the file is left to SQLite.
#[cfg(not(unix))]
fn owner_only(_path: &std::path::Path) -> Result<(), StorageError> {
    Ok(())
}

/// A transaction on the database ([`Db::begin_write`], [`Db::begin_read`]); rolled back
/// when dropped without [`Tx::commit`].
#[derive(Debug)]
pub struct Tx {
    /// The open transaction; `None` once committed or rolled back.
    inner: Option<TxInner>,
    /// Its database's counters ([`Db::round_trips`]).
    counters: Arc<Counters>,
}

/// The transaction of either engine.
#[derive(Debug)]
pub(crate) enum TxInner {
    Sqlite(LiteTx),
    Postgres(sqlx::Transaction<'static, sqlx::Postgres>),
}

impl Tx {
    fn new(inner: TxInner, counters: &Arc<Counters>) -> Tx {
        Tx {
            inner: Some(inner),
            counters: counters.clone(),
        }
    }

    /// The open transaction (taken only by [`Tx::commit`] and [`Tx::rollback`], which
    /// consume the `Tx`).
    pub(crate) fn inner(&mut self) -> &mut TxInner {
        self.inner
            .as_mut()
            .expect("a transaction is open until it is consumed")
    }

    /// The transaction taken out, its `COMMIT` or `ROLLBACK` counted.
    fn finish(mut self) -> TxInner {
        self.counters.statement();
        self.inner
            .take()
            .expect("a transaction is open until it is consumed")
    }

    /// Commits.
    ///
    /// # Errors
    /// [`sqlx::Error`] when the commit fails (nothing of the transaction is kept).
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        match self.finish() {
            TxInner::Sqlite(t) => t.commit().await,
            TxInner::Postgres(t) => t.commit().await,
        }
    }

    /// Takes the lock over every player's rating until the transaction ends, before a
    /// read-modify-write of ratings in a transaction that other games' transactions may run
    /// beside ([`Db::begin_game_write`]): two games ending at once for one player rate one
    /// after the other. PostgreSQL: `pg_advisory_xact_lock(`[`RATINGS_LOCK_KEY`]`)`;
    /// SQLite: nothing (its write transactions never run side by side).
    ///
    /// # Errors
    /// [`sqlx::Error`] when the server fails.
    pub async fn lock_ratings(&mut self) -> Result<(), sqlx::Error> {
        let counters = self.counters.clone();
        if let TxInner::Postgres(t) = self.inner() {
            counters.statement();
            sqlx::query("SELECT pg_advisory_xact_lock($1)")
                .bind(RATINGS_LOCK_KEY)
                .execute(&mut **t)
                .await?;
        }
        Ok(())
    }

    /// Rolls back.
    ///
    /// # Errors
    /// [`sqlx::Error`] when the server fails (the transaction ends anyway).
    pub async fn rollback(self) -> Result<(), sqlx::Error> {
        match self.finish() {
            TxInner::Sqlite(t) => t.rollback().await,
            TxInner::Postgres(t) => t.rollback().await,
        }
    }
}

impl Drop for Tx {
    /// sqlx rolls back a transaction dropped open: one more statement.
    fn drop(&mut self) {
        if self.inner.is_some() {
            self.counters.statement();
        }
    }
}
