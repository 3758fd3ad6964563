//! The `engine_games` table: which games the practice opponent plays, as which colour and
//! at which level.

use super::sql::query;
use kaboom_engine::Level;
use kaboom_rules::Color;

use super::{Db, StorageError, Tx, parse_stored};
use kaboom_domain::ids::{GameId, UserId};

/// The engine's seat in one game.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct EngineSeat {
    /// The game.
    pub game_id: GameId,
    /// The colour the engine plays.
    pub color: Color,
    /// Its level, 1 to 5.
    pub level: Level,
    /// The player it plays against.
    pub opponent: UserId,
}

/// Records that the engine plays `color` at `level` in game `id`, inside the transaction
/// that creates the game.
///
/// # Errors
/// [`StorageError`] on a database failure (a second row for one game included).
pub async fn insert(
    tx: &mut Tx,
    id: GameId,
    color: Color,
    level: Level,
    now: i64,
) -> Result<(), StorageError> {
    query("INSERT INTO engine_games (game_id, color, level, created_at) VALUES ($1, $2, $3, $4)")
        .bind(id)
        .bind(color.name())
        .bind(i64::from(level.number()))
        .bind(now)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// An `engine_games` row as stored: an [`EngineSeat`] once its colour and level are read.
#[derive(sqlx::FromRow)]
struct StoredSeat {
    game_id: i64,
    color: String,
    level: i64,
    #[sqlx(try_from = "i64")]
    opponent: UserId,
}

impl TryFrom<StoredSeat> for EngineSeat {
    type Error = StorageError;
    /// # Errors
    /// [`StorageError::Corrupt`] for an unknown colour or a level outside 1 to 5.
    fn try_from(row: StoredSeat) -> Result<EngineSeat, StorageError> {
        let StoredSeat {
            game_id,
            color,
            level,
            opponent,
        } = row;
        Ok(EngineSeat {
            game_id: GameId::from(game_id),
            color: parse_stored("engine colour", &color)?,
            level: u8::try_from(level)
                .ok()
                .and_then(|n| Level::from_number(n).ok())
                .ok_or_else(|| StorageError::Corrupt(format!("engine level {level}")))?,
            opponent,
        })
    }
}

/// The engine's seats with the player each game is against (the game's other side).
const SEATS: &str = "SELECT e.game_id, e.color, e.level,
        CASE WHEN e.color = 'white' THEN g.black_id ELSE g.white_id END AS opponent
    FROM engine_games e JOIN games g ON g.id = e.game_id";

/// How many practice games `user` has in setup or in play against the engine.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn running_against(db: &Db, user: UserId) -> Result<i64, StorageError> {
    let (n,): (i64,) = query(format!(
        "SELECT COUNT(*) FROM ({SEATS} WHERE g.state IN ('setup', 'active')) AS seats
         WHERE opponent = $1"
    ))
    .bind(user)
    .fetch_one(db)
    .await?;
    Ok(n)
}

/// The engine's seat in game `id`, if it plays there.
///
/// # Errors
/// [`StorageError`] on a database failure or a corrupt row.
pub async fn get(db: &Db, id: GameId) -> Result<Option<EngineSeat>, StorageError> {
    let row: Option<StoredSeat> = query(format!("{SEATS} WHERE e.game_id = $1"))
        .bind(id)
        .fetch_optional(db)
        .await?;
    row.map(EngineSeat::try_from).transpose()
}

/// The engine's seats in every game still in setup or in play, oldest first: the games
/// where the engine may have to choose carriers or move.
///
/// # Errors
/// [`StorageError`] on a database failure or a corrupt row.
pub async fn unfinished(db: &Db) -> Result<Vec<EngineSeat>, StorageError> {
    let rows: Vec<StoredSeat> = query(format!(
        "{SEATS} WHERE g.state IN ('setup', 'active') ORDER BY e.game_id"
    ))
    .fetch_all(db)
    .await?;
    rows.into_iter().map(EngineSeat::try_from).collect()
}
