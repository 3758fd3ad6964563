//! The `leagues` and `league_games` tables: server leagues (correspondence tournaments).
//!
//! A league is one row holding its model ([`League`], as JSON) and a `version`: every
//! change reads the row, changes the model and writes it back with [`save`], which
//! writes only if the version is still the one read, inside the transaction that also
//! writes the change's games and outbox entries. A change that lost the race writes
//! nothing and is retried on the new version. `league_games` tags each game a league
//! started with its league and round, and says whether the league has recorded the
//! finished game's result yet ([`unrecorded_results`], [`mark_recorded`]).

use super::games::id_of;
use super::sql::{On, query};
use super::{Db, StorageError, Tx};
use kaboom_domain::ids::{ChannelId, GameId, GuildId, MessageId, UserId};
use kaboom_domain::league::{League, LeagueStatus};

/// A stored league.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeagueRow {
    /// Its id (in commands and component custom ids).
    pub id: i64,
    /// The server it belongs to.
    pub guild_id: GuildId,
    /// The channel of its sign-up post, rounds and standings.
    pub channel_id: ChannelId,
    /// The sign-up post, once delivered.
    pub message_id: Option<MessageId>,
    /// Who created it.
    pub created_by: UserId,
    /// The version [`save`] expects (grows by one with each change).
    pub version: i64,
    /// The model.
    pub league: League,
}

/// Where a new league is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeaguePlace {
    /// The server.
    pub guild_id: GuildId,
    /// The channel of its posts.
    pub channel_id: ChannelId,
    /// Who creates it.
    pub created_by: UserId,
}

/// A `leagues` row as stored.
#[derive(sqlx::FromRow)]
struct StoredLeague {
    id: i64,
    guild_id: i64,
    channel_id: i64,
    message_id: Option<i64>,
    created_by: i64,
    version: i64,
    body: String,
}

impl TryFrom<StoredLeague> for LeagueRow {
    type Error = StorageError;
    /// # Errors
    /// [`StorageError::Corrupt`] for a body that is not a league's JSON or an id that is
    /// not a snowflake.
    fn try_from(r: StoredLeague) -> Result<LeagueRow, StorageError> {
        let corrupt = |e: String| StorageError::Corrupt(format!("league #{}: {e}", r.id));
        Ok(LeagueRow {
            id: r.id,
            guild_id: GuildId::try_from(r.guild_id).map_err(|e| corrupt(e.to_string()))?,
            channel_id: ChannelId::try_from(r.channel_id).map_err(|e| corrupt(e.to_string()))?,
            message_id: id_of(r.message_id)?,
            created_by: UserId::try_from(r.created_by).map_err(|e| corrupt(e.to_string()))?,
            version: r.version,
            league: serde_json::from_str(&r.body).map_err(|e| corrupt(e.to_string()))?,
        })
    }
}

/// The stored name of a league's status (the `status` column).
fn status_name(status: LeagueStatus) -> &'static str {
    match status {
        LeagueStatus::SignUp => "sign_up",
        LeagueStatus::Running { .. } => "running",
        LeagueStatus::Paused { .. } => "paused",
        LeagueStatus::Finished => "finished",
    }
}

fn body(league: &League) -> Result<String, StorageError> {
    serde_json::to_string(league).map_err(|e| StorageError::Corrupt(format!("league body: {e}")))
}

/// Stores a new league at version 0; returns its id. `next_check_at`: when the sweep
/// should first look at it (Unix seconds; its sign-up deadline).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn insert(
    tx: &mut Tx,
    place: LeaguePlace,
    league: &League,
    next_check_at: Option<i64>,
    now: i64,
) -> Result<i64, StorageError> {
    let (id,): (i64,) = query(
        "INSERT INTO leagues (guild_id, channel_id, created_by, name, status, next_check_at,
            body, version, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8, $8) RETURNING id",
    )
    .bind(place.guild_id)
    .bind(place.channel_id)
    .bind(place.created_by)
    .bind(league.name.as_str())
    .bind(status_name(league.status))
    .bind(next_check_at)
    .bind(body(league)?)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    Ok(id)
}

/// League `id`, if there is one.
///
/// # Errors
/// [`StorageError`] on a database failure or a row that does not read.
pub async fn get<'a>(on: impl Into<On<'a>>, id: i64) -> Result<Option<LeagueRow>, StorageError> {
    query(
        "SELECT id, guild_id, channel_id, message_id, created_by, version, body
         FROM leagues WHERE id = $1",
    )
    .bind(id)
    .fetch_optional::<StoredLeague>(on)
    .await?
    .map(LeagueRow::try_from)
    .transpose()
}

/// The leagues of server `guild`, newest first, at most `limit`; finished ones only with
/// `finished`.
///
/// # Errors
/// [`StorageError`] on a database failure or a row that does not read.
pub async fn in_guild(
    db: &Db,
    guild: GuildId,
    finished: bool,
    limit: i64,
) -> Result<Vec<LeagueRow>, StorageError> {
    query(
        "SELECT id, guild_id, channel_id, message_id, created_by, version, body
         FROM leagues WHERE guild_id = $1 AND (status <> 'finished' OR $2)
         ORDER BY id DESC LIMIT $3",
    )
    .bind(guild)
    .bind(finished)
    .bind(limit)
    .fetch_all::<StoredLeague>(db)
    .await?
    .into_iter()
    .map(LeagueRow::try_from)
    .collect()
}

/// Writes `league` as league `id`'s new model if it is still at `expected_version`;
/// `false` (nothing written) when another change came first. `next_check_at`: when the
/// sweep should look again (Unix seconds; `None`: when a game ends or someone acts).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn save(
    tx: &mut Tx,
    id: i64,
    expected_version: i64,
    league: &League,
    next_check_at: Option<i64>,
    now: i64,
) -> Result<bool, StorageError> {
    let done = query(
        "UPDATE leagues SET body = $1, status = $2, next_check_at = $3, version = version + 1,
            updated_at = $4
         WHERE id = $5 AND version = $6",
    )
    .bind(body(league)?)
    .bind(status_name(league.status))
    .bind(next_check_at)
    .bind(now)
    .bind(id)
    .bind(expected_version)
    .execute(&mut *tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records league `id`'s sign-up post.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn set_message(db: &Db, id: i64, message: MessageId) -> Result<(), StorageError> {
    query("UPDATE leagues SET message_id = $1 WHERE id = $2")
        .bind(message)
        .bind(id)
        .execute(db)
        .await?;
    Ok(())
}

/// Tags game `game` as league `league`'s, round `round` (in the transaction that creates it).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn add_game(
    tx: &mut Tx,
    league: i64,
    game: GameId,
    round: u32,
) -> Result<(), StorageError> {
    query("INSERT INTO league_games (game_id, league_id, round) VALUES ($1, $2, $3)")
        .bind(game)
        .bind(league)
        .bind(round)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// The league and league round of game `game`, if a league started it.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn of_game<'a>(
    on: impl Into<On<'a>>,
    game: GameId,
) -> Result<Option<(i64, u32)>, StorageError> {
    let row: Option<(i64, i64)> =
        query("SELECT league_id, round FROM league_games WHERE game_id = $1")
            .bind(game)
            .fetch_optional(on)
            .await?;
    Ok(row.map(|(league, round)| (league, u32::try_from(round).unwrap_or(0))))
}

/// The leagues the sweep must look at, at `now`: those in sign-up or running whose
/// next check is due, and those with a finished game whose result is not recorded yet.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn due(tx: &mut Tx, now: i64) -> Result<Vec<i64>, StorageError> {
    let rows: Vec<(i64,)> = query(
        "SELECT id FROM leagues
         WHERE status IN ('sign_up', 'running') AND next_check_at <= $1
         UNION
         SELECT lg.league_id FROM league_games lg JOIN games g ON g.id = lg.game_id
         WHERE NOT lg.recorded AND g.state = 'finished'
         ORDER BY 1",
    )
    .bind(now)
    .fetch_all(&mut *tx)
    .await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}

/// A finished league game whose result the league has not recorded yet.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct FinishedGame {
    /// The game.
    #[sqlx(try_from = "i64")]
    pub game_id: GameId,
    /// Its result (`1-0`, `0-1`, `1/2-1/2`).
    pub result: Option<String>,
    /// How it ended (`aborted`, `time-forfeit`, ...: the rules library's reason names).
    pub reason: Option<String>,
    /// The plies played.
    pub ply: i64,
}

/// League `league`'s finished games whose results it has not recorded, by game id.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn unrecorded_results(
    tx: &mut Tx,
    league: i64,
) -> Result<Vec<FinishedGame>, StorageError> {
    Ok(query(
        "SELECT g.id AS game_id, g.result, g.reason, g.ply
         FROM league_games lg JOIN games g ON g.id = lg.game_id
         WHERE lg.league_id = $1 AND NOT lg.recorded AND g.state = 'finished'
         ORDER BY g.id",
    )
    .bind(league)
    .fetch_all(&mut *tx)
    .await?)
}

/// Marks game `game`'s result as recorded by its league.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn mark_recorded(tx: &mut Tx, game: GameId) -> Result<(), StorageError> {
    query("UPDATE league_games SET recorded = TRUE WHERE game_id = $1")
        .bind(game)
        .execute(&mut *tx)
        .await?;
    Ok(())
}
