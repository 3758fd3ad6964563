//! A player's own stored data, for `/privacy`: everything kept under their Discord id,
//! read in one go ([`personal_data`]), and the part that no game or opponent needs, deleted
//! in one transaction ([`forget`]). docs/hosting.md, "Privacy: what Kaboom keeps", lists
//! the tables; this module reads each one that holds a `user_id` or a player's side.

use serde::Serialize;

use super::sql::query;
use super::{Db, StorageError};
use kaboom_domain::ids::{GameId, UserId};

/// One game the player plays or played (a `games` row, without positions or secrets).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct GameEntry {
    /// The game's id.
    #[sqlx(try_from = "i64")]
    pub id: GameId,
    /// The variant's stored name (`atomic`, `beirut`, ...).
    pub variant: String,
    /// White's Discord id.
    pub white_id: i64,
    /// White's name when the game started.
    pub white_name: String,
    /// Black's Discord id.
    pub black_id: i64,
    /// Black's name when the game started.
    pub black_name: String,
    /// `setup`, `active` or `finished`.
    pub state: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` once finished.
    pub result: Option<String>,
    /// Created, Unix seconds.
    pub created_at: i64,
}

/// One private note (`game_notes`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct NoteEntry {
    /// The game it is about.
    #[sqlx(try_from = "i64")]
    pub game_id: GameId,
    /// The note.
    pub text: String,
    /// Last changed, Unix seconds.
    pub updated_at: i64,
}

/// One conditional line (`premoves`): its actions in canonical text, the opponent's first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineEntry {
    /// The game.
    pub game_id: GameId,
    /// The line's actions (canonical text, C-5).
    pub actions: Vec<String>,
}

/// One vacation (`vacations`), in Unix seconds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, sqlx::FromRow)]
pub struct VacationEntry {
    /// Started.
    pub started_at: i64,
    /// Planned end.
    pub until_at: i64,
    /// Actual end, once over.
    pub ended_at: Option<i64>,
}

/// One rating (`ratings`, or `puzzle_ratings` where `games` counts rated tries).
#[derive(Clone, Debug, PartialEq, Serialize, sqlx::FromRow)]
pub struct RatingEntry {
    /// The variant's stored name.
    pub variant: String,
    /// Glicko-2 rating, in rating points.
    pub rating: f64,
    /// Rating deviation, in rating points.
    pub deviation: f64,
    /// Rated games played.
    pub games: i64,
}

/// Everything stored under one player's id.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PersonalData {
    /// The player's Discord id.
    pub user_id: i64,
    /// Reminder settings (`user_settings`), if they ever chose: (`nudges`, `nudge_via`).
    pub reminder_settings: Option<(bool, String)>,
    /// Explosion preview choice (`preview_settings`), if they ever chose.
    pub preview_setting: Option<String>,
    /// Their private notes.
    pub notes: Vec<NoteEntry>,
    /// Their conditional lines still waiting.
    pub conditional_moves: Vec<LineEntry>,
    /// Their vacations.
    pub vacations: Vec<VacationEntry>,
    /// Their ratings per variant.
    pub ratings: Vec<RatingEntry>,
    /// Their games, oldest first (practice games against the bot included).
    pub games: Vec<GameEntry>,
    /// How many post-game analyses they asked for.
    pub analyses_requested: i64,
    /// Their puzzle ratings per variant.
    pub puzzle_ratings: Vec<RatingEntry>,
    /// How many puzzles they tried.
    pub puzzles_tried: i64,
}

/// Everything stored under `user`'s id ([`PersonalData`]).
///
/// # Errors
/// [`StorageError`] on a database failure or an unreadable row.
pub async fn personal_data(db: &Db, user: UserId) -> Result<PersonalData, StorageError> {
    let reminder_settings: Option<(bool, String)> =
        query("SELECT nudges, nudge_via FROM user_settings WHERE user_id = $1")
            .bind(user)
            .fetch_optional(db)
            .await?;
    let preview_setting: Option<(String,)> =
        query("SELECT mode FROM preview_settings WHERE user_id = $1")
            .bind(user)
            .fetch_optional(db)
            .await?;
    let notes: Vec<NoteEntry> = query(
        "SELECT game_id, text, updated_at FROM game_notes WHERE user_id = $1 ORDER BY game_id",
    )
    .bind(user)
    .fetch_all(db)
    .await?;
    let lines: Vec<(i64, String)> =
        query("SELECT game_id, actions FROM premoves WHERE user_id = $1 ORDER BY id")
            .bind(user)
            .fetch_all(db)
            .await?;
    let conditional_moves = lines
        .into_iter()
        .map(|(game, actions)| {
            Ok(LineEntry {
                game_id: GameId(game),
                actions: serde_json::from_str(&actions)
                    .map_err(|e| StorageError::Corrupt(format!("conditional line: {e}")))?,
            })
        })
        .collect::<Result<_, StorageError>>()?;
    let vacations: Vec<VacationEntry> = query(
        "SELECT started_at, until_at, ended_at FROM vacations WHERE user_id = $1 ORDER BY id",
    )
    .bind(user)
    .fetch_all(db)
    .await?;
    let ratings: Vec<RatingEntry> = query(
        "SELECT variant, rating, deviation, games FROM ratings WHERE user_id = $1 ORDER BY variant",
    )
    .bind(user)
    .fetch_all(db)
    .await?;
    let games: Vec<GameEntry> = query(
        "SELECT id, variant, white_id, white_name, black_id, black_name, state, result, created_at
         FROM games WHERE white_id = $1 OR black_id = $2 ORDER BY id",
    )
    .bind(user)
    .bind(user)
    .fetch_all(db)
    .await?;
    let (analyses_requested,): (i64,) =
        query("SELECT COUNT(*) FROM analyses WHERE requested_by = $1")
            .bind(user)
            .fetch_one(db)
            .await?;
    let puzzle_ratings: Vec<RatingEntry> = query(
        "SELECT variant, rating, deviation, attempts AS games FROM puzzle_ratings
         WHERE user_id = $1 ORDER BY variant",
    )
    .bind(user)
    .fetch_all(db)
    .await?;
    let (puzzles_tried,): (i64,) = query("SELECT COUNT(*) FROM puzzle_attempts WHERE user_id = $1")
        .bind(user)
        .fetch_one(db)
        .await?;
    Ok(PersonalData {
        user_id: i64::from(user),
        reminder_settings,
        preview_setting: preview_setting.map(|(mode,)| mode),
        notes,
        conditional_moves,
        vacations,
        ratings,
        games,
        analyses_requested,
        puzzle_ratings,
        puzzles_tried,
    })
}

/// What [`forget`] deleted: rows per table.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Forgotten {
    /// `user_settings` and `preview_settings` rows (0 to 2).
    pub settings: u64,
    /// `game_notes` rows.
    pub notes: u64,
    /// `premoves` rows (conditional lines).
    pub conditional_moves: u64,
    /// `puzzle_attempts` rows (puzzle tries; their puzzle ratings go with them).
    pub puzzle_tries: u64,
}

/// Deletes what only `user` needs, in one transaction: their reminder and preview
/// settings (back to the defaults), their private notes, their conditional lines, their
/// puzzle tries and puzzle ratings, and the game posts kept for them while their DMs were
/// refused.
/// Games, ratings and vacations stay: opponents' records, ratings and the yearly
/// vacation allowance depend on them (docs/hosting.md, "Privacy: what Kaboom keeps").
///
/// # Errors
/// [`StorageError`] on a database failure (nothing is deleted then).
pub async fn forget(db: &Db, user: UserId) -> Result<Forgotten, StorageError> {
    let mut tx = db.begin_write().await?;
    let mut settings = 0;
    for statement in [
        "DELETE FROM user_settings WHERE user_id = $1",
        "DELETE FROM preview_settings WHERE user_id = $1",
    ] {
        settings += query(statement)
            .bind(user)
            .execute(&mut tx)
            .await?
            .rows_affected();
    }
    let notes = query("DELETE FROM game_notes WHERE user_id = $1")
        .bind(user)
        .execute(&mut tx)
        .await?
        .rows_affected();
    let conditional_moves = query("DELETE FROM premoves WHERE user_id = $1")
        .bind(user)
        .execute(&mut tx)
        .await?
        .rows_affected();
    let puzzle_tries = query("DELETE FROM puzzle_attempts WHERE user_id = $1")
        .bind(user)
        .execute(&mut tx)
        .await?
        .rows_affected();
    query("DELETE FROM puzzle_ratings WHERE user_id = $1")
        .bind(user)
        .execute(&mut tx)
        .await?;
    // Posts the player could not be DMed, waiting for their next interaction: copies of
    // game posts, which the games keep.
    query("DELETE FROM undelivered_notices WHERE user_id = $1")
        .bind(user)
        .execute(&mut tx)
        .await?;
    tx.commit().await?;
    Ok(Forgotten {
        settings,
        notes,
        conditional_moves,
        puzzle_tries,
    })
}
