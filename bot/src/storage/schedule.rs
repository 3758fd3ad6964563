//! The scheduler's queries (issue 8): due games by `games.next_due_at`, claimed nudges
//! (`nudges`), expiring challenges. Schema and triggers: `migrations/0002_scheduler.sql`.

use sqlx::Row;

use super::{Db, StorageError, Tx, id_to_db};

/// The scheduler's columns of a game.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct Timing {
    /// When the scheduler next looks at the game (`None`: never).
    pub next_due_at: Option<i64>,
    /// When the current turn began (Unix seconds).
    pub turn_started_at: Option<i64>,
}

/// Up to `limit` ids of games due at `now` (`next_due_at <= now`), most overdue first. One
/// range scan of the `games_next_due_at` index.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn due_games(tx: &mut Tx, now: i64, limit: i64) -> Result<Vec<i64>, StorageError> {
    let rows = sqlx::query(DUE_GAMES)
        .bind(now)
        .bind(limit)
        .fetch_all(&mut **tx)
        .await?;
    rows.iter()
        .map(|r| r.try_get("id").map_err(StorageError::from))
        .collect()
}

/// The query of [`due_games`] (for `EXPLAIN QUERY PLAN` in the benchmark).
pub const DUE_GAMES: &str =
    "SELECT id FROM games WHERE next_due_at <= ? ORDER BY next_due_at LIMIT ?";

/// The scheduler's columns of game `id`.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn timing(tx: &mut Tx, id: i64) -> Result<Timing, StorageError> {
    let row = sqlx::query("SELECT next_due_at, turn_started_at FROM games WHERE id = ?")
        .bind(id)
        .fetch_one(&mut **tx)
        .await?;
    Ok(Timing {
        next_due_at: row.try_get("next_due_at")?,
        turn_started_at: row.try_get("turn_started_at")?,
    })
}

/// As [`timing`], outside a transaction (tests, diagnostics).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn timing_of(db: &Db, id: i64) -> Result<Timing, StorageError> {
    let mut tx = db.pool().begin().await?;
    let t = timing(&mut tx, id).await?;
    tx.commit().await?;
    Ok(t)
}

/// Sets when the scheduler next looks at game `id`.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn set_next_due(tx: &mut Tx, id: i64, at: Option<i64>) -> Result<(), StorageError> {
    sqlx::query("UPDATE games SET next_due_at = ? WHERE id = ?")
        .bind(at)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Claims the nudge (`game_id`, `ply`, `threshold`) for `user`: `true` if this call
/// claimed it, `false` if it was claimed before (then nothing may be sent).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn claim_nudge(
    tx: &mut Tx,
    game_id: i64,
    ply: i64,
    threshold: &str,
    user: u64,
    now: i64,
) -> Result<bool, StorageError> {
    let done = sqlx::query(
        "INSERT INTO nudges (game_id, ply, threshold, user_id, claimed_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (game_id, ply, threshold) DO NOTHING",
    )
    .bind(game_id)
    .bind(ply)
    .bind(threshold)
    .bind(id_to_db(user))
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The nudges claimed for game `id`: (ply, threshold), in claim order.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn nudges(db: &Db, id: i64) -> Result<Vec<(i64, String)>, StorageError> {
    let rows = sqlx::query(
        "SELECT ply, threshold FROM nudges WHERE game_id = ? ORDER BY claimed_at, ply, threshold",
    )
    .bind(id)
    .fetch_all(db.pool())
    .await?;
    rows.iter()
        .map(|r| Ok((r.try_get("ply")?, r.try_get("threshold")?)))
        .collect()
}

/// Up to `limit` ids of open challenges created at or before `created_before`, oldest first
/// (index `challenges_open_created`).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn expiring_challenges(
    tx: &mut Tx,
    created_before: i64,
    limit: i64,
) -> Result<Vec<i64>, StorageError> {
    let rows = sqlx::query(
        "SELECT id FROM challenges WHERE state = 'open' AND created_at <= ?
         ORDER BY created_at LIMIT ?",
    )
    .bind(created_before)
    .bind(limit)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter()
        .map(|r| r.try_get("id").map_err(StorageError::from))
        .collect()
}

/// Marks an open challenge expired; `false` if it was no longer open.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn expire_challenge(tx: &mut Tx, id: i64) -> Result<bool, StorageError> {
    let done =
        sqlx::query("UPDATE challenges SET state = 'expired' WHERE id = ? AND state = 'open'")
            .bind(id)
            .execute(&mut **tx)
            .await?;
    Ok(done.rows_affected() == 1)
}

/// `EXPLAIN QUERY PLAN` of the due-games query (its `detail` lines), to check that it uses
/// the `games_next_due_at` index (benchmark, docs/PERFORMANCE.md).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn explain_due_games(db: &Db) -> Result<Vec<String>, StorageError> {
    let rows = sqlx::query(&format!("EXPLAIN QUERY PLAN {DUE_GAMES}"))
        .bind(0_i64)
        .bind(256_i64)
        .fetch_all(db.pool())
        .await?;
    rows.iter()
        .map(|r| r.try_get("detail").map_err(StorageError::from))
        .collect()
}
