//! The `move_previews` table: explosion previews waiting for Confirm or Cancel.
//! A preview's buttons carry only its row id; the row holds the game, the player, the
//! action and the ply it was previewed at.

use super::sql::query;

use super::{Db, StorageError, Tx, parse_stored};
use kaboom_domain::ids::{GameId, UserId};

/// Where a preview stands; stored as its name ([`PreviewState::name`], and `FromStr` back).
#[derive(Copy, Clone, Eq, PartialEq, Debug, strum::EnumString, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
pub enum PreviewState {
    /// Waiting for Confirm or Cancel.
    Pending,
    /// Confirmed: its action was played (once).
    Confirmed,
    /// Cancelled by its player.
    Cancelled,
}

impl PreviewState {
    /// Stored form.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// One stored preview.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct StoredPreview {
    /// Its id (in the buttons' custom ids).
    pub id: i64,
    /// The game.
    pub game_id: GameId,
    /// The player who asked for it (only they may confirm it).
    pub user_id: UserId,
    /// The game's ply when it was previewed: Confirm plays only at this ply.
    pub ply: i64,
    /// The action's canonical text (C-5).
    pub action: String,
    /// Where it stands.
    pub state: PreviewState,
}

/// A `move_previews` row as stored: a [`StoredPreview`] once its state is read.
#[derive(sqlx::FromRow)]
struct Stored {
    id: i64,
    #[sqlx(try_from = "i64")]
    game_id: GameId,
    #[sqlx(try_from = "i64")]
    user_id: UserId,
    ply: i64,
    action: String,
    state: String,
}

/// How long a preview is kept, in seconds: 15 minutes, as long as the interaction token of
/// the answer that shows it can edit it ("Interaction tokens are valid for 15 minutes",
/// <https://discord.com/developers/docs/interactions/receiving-and-responding#followup-messages>).
pub const KEPT_SECS: i64 = 15 * 60;

/// How many pending previews one player keeps: their latest.
pub const PENDING_PER_PLAYER: i64 = 5;

/// Stores a pending preview; returns its id. In the same transaction, the table stays
/// bounded whatever a player clicks: every preview older than [`KEPT_SECS`] is deleted,
/// and the player's pending previews beyond their [`PENDING_PER_PLAYER`] latest (this one
/// included). A click on a deleted one is answered that it is no longer kept.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn insert(
    db: &Db,
    game: GameId,
    user: UserId,
    ply: i64,
    action: &str,
    now: i64,
) -> Result<i64, StorageError> {
    let mut tx = db.begin_write().await?;
    let (id,): (i64,) = query(
        "INSERT INTO move_previews (game_id, user_id, ply, action, state, created_at)
         VALUES ($1, $2, $3, $4, 'pending', $5) RETURNING id",
    )
    .bind(game)
    .bind(user)
    .bind(ply)
    .bind(action)
    .bind(now)
    .fetch_one(&mut tx)
    .await?;
    query("DELETE FROM move_previews WHERE created_at < $1")
        .bind(now - KEPT_SECS)
        .execute(&mut tx)
        .await?;
    query(
        "DELETE FROM move_previews WHERE user_id = $1 AND state = 'pending' AND id NOT IN
           (SELECT id FROM move_previews WHERE user_id = $1 AND state = 'pending'
            ORDER BY id DESC LIMIT $2)",
    )
    .bind(user)
    .bind(PENDING_PER_PLAYER)
    .execute(&mut tx)
    .await?;
    tx.commit().await?;
    Ok(id)
}

/// Preview `id`, if stored.
///
/// # Errors
/// [`StorageError`] on a database failure or an unreadable row.
pub async fn get(db: &Db, id: i64) -> Result<Option<StoredPreview>, StorageError> {
    let row: Option<Stored> =
        query("SELECT id, game_id, user_id, ply, action, state FROM move_previews WHERE id = $1")
            .bind(id)
            .fetch_optional(db)
            .await?;
    row.map(|r| {
        Ok(StoredPreview {
            id: r.id,
            game_id: r.game_id,
            user_id: r.user_id,
            ply: r.ply,
            action: r.action,
            state: parse_stored("preview state", &r.state)?,
        })
    })
    .transpose()
}

/// Moves preview `id` from pending to `to` inside `tx`; `false` when it was no longer
/// pending (a second click: it happens once).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn settle(tx: &mut Tx, id: i64, to: PreviewState) -> Result<bool, StorageError> {
    let done = query("UPDATE move_previews SET state = $1 WHERE id = $2 AND state = 'pending'")
        .bind(to.name())
        .bind(id)
        .execute(&mut *tx)
        .await?;
    Ok(done.rows_affected() == 1)
}
