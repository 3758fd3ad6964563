//! SQLite connections pooled without sqlx's pool: each connection goes back to the pool
//! when its user drops it, at once, instead of after a ping.
//!
//! sqlx's pool (0.8) pings every connection going back to it (`return_to_pool`, in a task it
//! spawns; not configurable), and on SQLite a ping is a round trip to the connection's
//! worker thread and back to a task: one more thread hop for every statement run on the
//! pool and every transaction, about a third of what a move costs in worker round trips
//! (docs/PERFORMANCE.md, "Load"). The ping is there to catch a connection left unusable by
//! a cancelled query; on SQLite a connection's worker runs its commands in order, so a
//! cancelled query's command, or the rollback of a transaction dropped unfinished
//! ([`LiteTx`]), simply runs before the next user's first. So this pool, a
//! [`deadpool`] pool whose recycling does nothing, hands connections straight back.
//!
//! Transactions are sqlx's own on the checked-out connection (`TransactionManager`:
//! `BEGIN`, `COMMIT`, `ROLLBACK`, and the rollback queued when a [`LiteTx`] is dropped
//! open), so a connection never goes back to the pool inside a transaction.

use std::ops::{Deref, DerefMut};
use std::time::Duration;

use deadpool::managed::{self, Metrics, Object, PoolError, RecycleResult};
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{ConnectOptions, Database, Sqlite, TransactionManager};

/// How long a statement waits for a free connection before it fails with
/// [`sqlx::Error::PoolTimedOut`]: sqlx's pool's default acquire timeout.
pub(crate) const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(30);

/// Opens connections with the database's options; recycles them as they are.
#[derive(Debug)]
pub(crate) struct Connector {
    pub(crate) options: SqliteConnectOptions,
}

impl managed::Manager for Connector {
    type Type = SqliteConnection;
    type Error = sqlx::Error;

    async fn create(&self) -> Result<SqliteConnection, sqlx::Error> {
        self.options.connect().await
    }

    async fn recycle(&self, _: &mut SqliteConnection, _: &Metrics) -> RecycleResult<sqlx::Error> {
        Ok(())
    }
}

/// The pool: at most its size in connections, the most recently used handed out first.
pub(crate) type LitePool = managed::Pool<Connector>;

/// A connection checked out of a [`LitePool`]; back in the pool when dropped.
pub(crate) type LiteConn = Object<Connector>;

/// A connection from `pool`, waiting at most [`ACQUIRE_TIMEOUT`].
///
/// # Errors
/// [`sqlx::Error::PoolTimedOut`] when none frees up in time, [`sqlx::Error::PoolClosed`]
/// after [`close`], or the error of opening a new connection.
pub(crate) async fn acquire(pool: &LitePool) -> Result<LiteConn, sqlx::Error> {
    pool.get().await.map_err(|e| match e {
        PoolError::Backend(e) => e,
        PoolError::Timeout(_) => sqlx::Error::PoolTimedOut,
        PoolError::Closed => sqlx::Error::PoolClosed,
        PoolError::NoRuntimeSpecified | PoolError::PostCreateHook(_) => {
            sqlx::Error::Configuration(e.to_string().into())
        }
    })
}

/// Closes `pool`: no connection is handed out any more; the idle ones are closed at once
/// (their worker threads end and the file is released), and one in use is dropped as it
/// comes back, its worker closing it, waiting at most [`ACQUIRE_TIMEOUT`] for those.
pub(crate) async fn close(pool: &LitePool) {
    // Taken out of the pool rather than asked for: asking would open a new connection
    // whenever one is in use and the pool has room.
    let idle = pool.retain(|_, _| false).removed;
    pool.close();
    for conn in idle {
        let _ = sqlx::Connection::close(conn).await;
    }
    let deadline = tokio::time::Instant::now() + ACQUIRE_TIMEOUT;
    while pool.status().size > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

type Manager = <Sqlite as Database>::TransactionManager;

/// A transaction on a checked-out connection: rolled back when dropped open (the rollback
/// queued to the connection's worker before the connection goes back to the pool).
pub(crate) struct LiteTx {
    conn: LiteConn,
    open: bool,
}

impl std::fmt::Debug for LiteTx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LiteTx").field("open", &self.open).finish()
    }
}

impl LiteTx {
    /// Starts a transaction with `statement` (`BEGIN` or `BEGIN IMMEDIATE`) on `conn`.
    ///
    /// # Errors
    /// [`sqlx::Error`] when the statement fails (`SQLITE_BUSY` past the busy timeout).
    pub(crate) async fn begin(
        mut conn: LiteConn,
        statement: &'static str,
    ) -> Result<LiteTx, sqlx::Error> {
        Manager::begin(&mut conn, Some(statement.into())).await?;
        Ok(LiteTx { conn, open: true })
    }

    /// Commits.
    ///
    /// # Errors
    /// [`sqlx::Error`] when the commit fails; the transaction is then rolled back.
    pub(crate) async fn commit(mut self) -> Result<(), sqlx::Error> {
        Manager::commit(&mut self.conn).await?;
        self.open = false;
        Ok(())
    }

    /// Rolls back.
    ///
    /// # Errors
    /// [`sqlx::Error`] when the rollback fails.
    pub(crate) async fn rollback(mut self) -> Result<(), sqlx::Error> {
        Manager::rollback(&mut self.conn).await?;
        self.open = false;
        Ok(())
    }
}

impl Deref for LiteTx {
    type Target = SqliteConnection;
    fn deref(&self) -> &SqliteConnection {
        &self.conn
    }
}

impl DerefMut for LiteTx {
    fn deref_mut(&mut self) -> &mut SqliteConnection {
        &mut self.conn
    }
}

impl Drop for LiteTx {
    fn drop(&mut self) {
        if self.open {
            Manager::start_rollback(&mut self.conn);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    /// A pool of one connection to a database in memory: every checkout is that
    /// connection, so what one user leaves behind, the next one meets.
    fn one_connection() -> LitePool {
        of_size(1)
    }

    /// A pool of at most `size` connections, each to a database in memory of its own.
    fn of_size(size: usize) -> LitePool {
        let options = SqliteConnectOptions::from_str("sqlite::memory:").unwrap();
        LitePool::builder(Connector { options })
            .max_size(size)
            .wait_timeout(Some(Duration::from_secs(5)))
            .runtime(deadpool::Runtime::Tokio1)
            .build()
            .unwrap()
    }

    async fn rows(pool: &LitePool) -> i64 {
        let mut conn = acquire(pool).await.unwrap();
        sqlx::query_scalar("SELECT COUNT(*) FROM t")
            .fetch_one(&mut *conn)
            .await
            .unwrap()
    }

    /// Guards what the pool gives up by not pinging connections that come back: a
    /// transaction dropped without a commit (a command that failed half-way) leaves
    /// nothing behind, and its connection serves the next user outside any transaction,
    /// so that user's own `BEGIN IMMEDIATE` works.
    #[tokio::test]
    async fn a_transaction_dropped_open_is_rolled_back_before_its_connection_serves_again() {
        let pool = one_connection();
        let mut conn = acquire(&pool).await.unwrap();
        sqlx::query("CREATE TABLE t (x INTEGER)")
            .execute(&mut *conn)
            .await
            .unwrap();
        drop(conn);

        let mut tx = LiteTx::begin(acquire(&pool).await.unwrap(), "BEGIN IMMEDIATE")
            .await
            .unwrap();
        sqlx::query("INSERT INTO t VALUES (1)")
            .execute(&mut *tx)
            .await
            .unwrap();
        drop(tx);
        assert_eq!(rows(&pool).await, 0);

        let mut tx = LiteTx::begin(acquire(&pool).await.unwrap(), "BEGIN IMMEDIATE")
            .await
            .unwrap();
        sqlx::query("INSERT INTO t VALUES (2)")
            .execute(&mut *tx)
            .await
            .unwrap();
        tx.commit().await.unwrap();
        assert_eq!(rows(&pool).await, 1);
        assert_eq!(pool.status().size, 1);
    }

    /// Guards the pool's end: [`close`] closes the connections, and no statement gets
    /// one afterwards ([`sqlx::Error::PoolClosed`]).
    #[tokio::test]
    async fn a_closed_pool_hands_out_no_connection() {
        let pool = one_connection();
        drop(acquire(&pool).await.unwrap());
        close(&pool).await;
        assert_eq!(pool.status().size, 0);
        assert!(matches!(acquire(&pool).await, Err(sqlx::Error::PoolClosed)));
    }

    /// Guards how the pool closes while a connection is in use and the pool has room for
    /// more: it waits for that connection to come back (and closes it), rather than opening
    /// a new one to take and returning at once.
    #[tokio::test]
    async fn closing_waits_for_a_connection_in_use() {
        let pool = of_size(2);
        drop(acquire(&pool).await.unwrap());
        let in_use = acquire(&pool).await.unwrap();
        let started = tokio::time::Instant::now();
        let back = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            drop(in_use);
        });
        close(&pool).await;
        assert!(
            started.elapsed() >= Duration::from_millis(300),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(pool.status().size, 0);
        back.await.unwrap();
    }
}
