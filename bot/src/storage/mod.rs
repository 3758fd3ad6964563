//! Storage: the bot's database, behind functions the services call (no SQL anywhere else).
//!
//! SQLite by default (embedded, file created if missing), through sqlx so a PostgreSQL port
//! needs only another pool type: the schema in `migrations/` uses portable SQL. Discord ids
//! are stored as `BIGINT` (snowflakes fit in 63 bits; the id types of
//! [`crate::domain::ids`] encode and decode themselves); times are Unix seconds.
//!
//! One module per table group: [`challenges`], [`games`] (games, their actions and draw
//! offers), [`carriers`] (secret designations, BE-2/BE-9), [`ratings`] (Glicko-2 ratings
//! and the change of every rated game, issue 18).

pub mod carriers;
pub mod challenges;
pub mod comforts; // issue 20
pub mod engine; // practice opponent (issue 23)
pub mod games;
pub mod outbox; // Discord outbox (issue 16)
pub mod previews; // explosion previews (issue 19)
pub mod ratings; // ratings (issue 18)
pub mod schedule; // scheduler (issue 8)
pub mod settings; // scheduler (issue 8)

use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

/// The migrations under `migrations/`, embedded at compile time and applied at start-up.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

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

/// The database handle: a connection pool, cheap to clone.
#[derive(Clone, Debug)]
pub struct Db {
    pool: SqlitePool,
}

impl Db {
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
    /// existing file that others could read is narrowed to 0600 (issue 16). SQLite creates
    /// the `-wal` and `-shm` files with the database file's permissions.
    ///
    /// # Errors
    /// [`StorageError`] when the URL is invalid, the file cannot be opened or a migration fails.
    pub async fn connect(url: &str) -> Result<Db, StorageError> {
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
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await?;
        MIGRATOR.run(&pool).await?;
        Ok(Db { pool })
    }

    /// The pool, for the storage modules.
    pub(crate) fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// Starts a write transaction that takes the database's write lock at once
    /// (`BEGIN IMMEDIATE`), so a read-check-write inside it cannot interleave with another.
    ///
    /// # Errors
    /// [`StorageError::Sql`] when the lock cannot be had within the busy timeout.
    pub async fn begin_write(&self) -> Result<Tx, StorageError> {
        Ok(self.pool.begin_with("BEGIN IMMEDIATE").await?)
    }

    /// Closes the pool (waits for connections to be returned).
    pub async fn close(&self) {
        self.pool.close().await;
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

/// A transaction on the database.
pub type Tx = sqlx::Transaction<'static, sqlx::Sqlite>;
