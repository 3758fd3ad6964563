//! The `undelivered_notices` table: what a player of a game played by DM missed because
//! Discord refused to DM them, kept until their next command or click shows it.

use super::sql::query;
use super::{Db, StorageError};
use kaboom_domain::ids::{GameId, UserId};

/// A notice a player could not be sent (an `undelivered_notices` row).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Notice {
    /// Its id.
    pub id: i64,
    /// The player it was for.
    #[sqlx(try_from = "i64")]
    pub user_id: UserId,
    /// Its game.
    #[sqlx(try_from = "i64")]
    pub game_id: GameId,
    /// The delivery's nonce (one notice per delivery, however often it is retried).
    pub nonce: String,
    /// The message's text, as it would have been sent.
    pub text: String,
    /// When it could not be sent, Unix seconds.
    pub created_at: i64,
}

/// Keeps `text`, which could not be sent to `user` about `game`; a second record of the
/// same delivery (`nonce`) is ignored.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn record(
    db: &Db,
    user: UserId,
    game: GameId,
    nonce: &str,
    text: &str,
    now: i64,
) -> Result<(), StorageError> {
    query(
        "INSERT INTO undelivered_notices (user_id, game_id, nonce, text, created_at)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id, nonce) DO NOTHING",
    )
    .bind(user)
    .bind(game)
    .bind(nonce)
    .bind(text)
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

/// Takes `user`'s notices: returns them oldest first and deletes them, in one transaction
/// (two clicks at once show each notice once).
///
/// # Errors
/// [`StorageError`] on a database failure or a row that does not read.
pub async fn take(db: &Db, user: UserId) -> Result<Vec<Notice>, StorageError> {
    let mut tx = db.begin_write().await?;
    let notices: Vec<Notice> =
        query("SELECT * FROM undelivered_notices WHERE user_id = $1 ORDER BY id")
            .bind(user)
            .fetch_all(&mut tx)
            .await?;
    if let Some(last) = notices.last() {
        query("DELETE FROM undelivered_notices WHERE user_id = $1 AND id <= $2")
            .bind(user)
            .bind(last.id)
            .execute(&mut tx)
            .await?;
    }
    tx.commit().await?;
    Ok(notices)
}

/// Whether anyone has notices waiting.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn any_at_all(db: &Db) -> Result<bool, StorageError> {
    let row: Option<(i64,)> = query("SELECT id FROM undelivered_notices LIMIT 1")
        .fetch_optional(db)
        .await?;
    Ok(row.is_some())
}

/// Whether `user` has notices waiting (a cheap check before [`take`]).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn any(db: &Db, user: UserId) -> Result<bool, StorageError> {
    let row: Option<(i64,)> =
        query("SELECT id FROM undelivered_notices WHERE user_id = $1 LIMIT 1")
            .bind(user)
            .fetch_optional(db)
            .await?;
    Ok(row.is_some())
}
