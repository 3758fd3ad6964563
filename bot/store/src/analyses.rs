//! The `analyses` table: post-game analyses, one per game. A request writes a `queued`
//! row (with the outbox entry of its progress post); a worker claims it (`running`, with
//! `claimed_at` as its lease), writes its progress, and finally the review as JSON
//! (`done`) or gives up (`failed`).

use super::sql::{On, query};
use super::{Db, StorageError, Tx, parse_stored};
use kaboom_domain::ids::{GameId, MessageId, UserId};

/// Where an analysis is.
#[derive(Copy, Clone, Debug, Eq, PartialEq, strum::EnumString, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
pub enum AnalysisState {
    /// Asked for; no worker has it yet.
    Queued,
    /// A worker is searching it.
    Running,
    /// Finished: the review is stored.
    Done,
    /// Given up (the game could not be replayed or reviewed).
    Failed,
}

impl AnalysisState {
    /// The stored name (`queued`, `running`, `done`, `failed`).
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// One analysis.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct AnalysisRow {
    /// The game analysed.
    pub game_id: GameId,
    /// Who asked first.
    pub requested_by: UserId,
    /// Where it is.
    pub state: AnalysisState,
    /// Nodes searched per position.
    pub nodes: i64,
    /// Plies judged so far.
    pub done_plies: i64,
    /// Plies in the game.
    pub total_plies: i64,
    /// The review (`kaboom_engine::review::GameReview` as JSON) once done.
    pub review: Option<String>,
    /// The progress post in the game's thread, once delivered.
    pub message_id: Option<MessageId>,
    /// When it was asked for (Unix seconds).
    pub requested_at: i64,
}

#[derive(sqlx::FromRow)]
struct StoredAnalysis {
    game_id: i64,
    requested_by: i64,
    state: String,
    nodes: i64,
    done_plies: i64,
    total_plies: i64,
    review: Option<String>,
    message_id: Option<i64>,
    requested_at: i64,
}

impl TryFrom<StoredAnalysis> for AnalysisRow {
    type Error = StorageError;
    /// # Errors
    /// [`StorageError::Corrupt`] for an unknown state or a negative id.
    fn try_from(row: StoredAnalysis) -> Result<AnalysisRow, StorageError> {
        let corrupt = |e: kaboom_domain::ids::NotASnowflake| StorageError::Corrupt(e.to_string());
        Ok(AnalysisRow {
            game_id: GameId::from(row.game_id),
            requested_by: UserId::try_from(row.requested_by).map_err(corrupt)?,
            state: parse_stored("analysis state", &row.state)?,
            nodes: row.nodes,
            done_plies: row.done_plies,
            total_plies: row.total_plies,
            review: row.review,
            message_id: row
                .message_id
                .map(MessageId::try_from)
                .transpose()
                .map_err(corrupt)?,
            requested_at: row.requested_at,
        })
    }
}

/// Queues the analysis of game `game` for `by` at `nodes` per position, inside the
/// transaction that writes its progress post; `false` (nothing written) when the game
/// already has one.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn insert(
    tx: &mut Tx,
    game: GameId,
    by: UserId,
    nodes: i64,
    total_plies: i64,
    now: i64,
) -> Result<bool, StorageError> {
    let done = query(
        "INSERT INTO analyses (game_id, requested_by, state, nodes, done_plies, total_plies,
            requested_at) VALUES ($1, $2, 'queued', $3, 0, $4, $5)
         ON CONFLICT (game_id) DO NOTHING",
    )
    .bind(game)
    .bind(by)
    .bind(nodes)
    .bind(total_plies)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Game `game`'s analysis, if one was asked for, on the pool or inside a transaction.
///
/// # Errors
/// [`StorageError`] on a database failure or a corrupt row.
pub async fn get<'a>(
    on: impl Into<On<'a>>,
    game: GameId,
) -> Result<Option<AnalysisRow>, StorageError> {
    let row: Option<StoredAnalysis> = query(
        "SELECT game_id, requested_by, state, nodes, done_plies, total_plies, review,
            message_id, requested_at FROM analyses WHERE game_id = $1",
    )
    .bind(game)
    .fetch_optional(on)
    .await?;
    row.map(AnalysisRow::try_from).transpose()
}

/// How far back a player's analyses count for their turn in [`claim`]: a day.
pub const FAIR_SHARE_SECS: i64 = 24 * 3600;

/// Claims the next analysis that is queued, or running under a claim made before
/// `stale_before` (its worker died), for a worker at `now`; `None` when there is none.
/// Players are served in turn: each player's analyses asked for in the last
/// [`FAIR_SHARE_SECS`] (and any still waiting) are numbered in the order asked, whatever
/// their state, and the waiting one with the lowest number goes first (then the oldest), so
/// a player's second analysis of the day waits for everyone's first: one player's many
/// requests never hold up another's one. Two workers never claim the same one: the claim is
/// a conditional update of the state and claim seen.
///
/// # Errors
/// [`StorageError`] on a database failure or a corrupt row.
pub async fn claim(
    db: &Db,
    now: i64,
    stale_before: i64,
) -> Result<Option<AnalysisRow>, StorageError> {
    loop {
        let candidate: Option<(i64, String, Option<i64>)> = query(
            "SELECT game_id, state, claimed_at FROM (
                SELECT game_id, state, claimed_at, requested_at,
                    ROW_NUMBER() OVER (PARTITION BY requested_by
                                       ORDER BY requested_at, game_id) AS turn
                FROM analyses
                WHERE requested_at >= $2 OR state IN ('queued', 'running')
             ) AS recent
             WHERE state = 'queued' OR (state = 'running' AND claimed_at < $1)
             ORDER BY turn, requested_at, game_id LIMIT 1",
        )
        .bind(stale_before)
        .bind(now - FAIR_SHARE_SECS)
        .fetch_optional(db)
        .await?;
        let Some((game, state, claimed_at)) = candidate else {
            return Ok(None);
        };
        let done = query(
            "UPDATE analyses SET state = 'running', claimed_at = $1
             WHERE game_id = $2 AND state = $3 AND COALESCE(claimed_at, -1) = $4",
        )
        .bind(now)
        .bind(game)
        .bind(state)
        .bind(claimed_at.unwrap_or(-1))
        .execute(db)
        .await?;
        if done.rows_affected() == 1 {
            return get(db, GameId::from(game)).await;
        }
        // Another worker took it first: look again.
    }
}

/// Records that `done` plies of game `game`'s analysis are judged, and renews the
/// worker's claim at `now`.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn set_progress(
    tx: &mut Tx,
    game: GameId,
    done: i64,
    now: i64,
) -> Result<(), StorageError> {
    query("UPDATE analyses SET done_plies = $1, claimed_at = $2 WHERE game_id = $3")
        .bind(done)
        .bind(now)
        .bind(game)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// Stores game `game`'s finished review (JSON) at `now`.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn finish(tx: &mut Tx, game: GameId, review: &str, now: i64) -> Result<(), StorageError> {
    query(
        "UPDATE analyses SET state = 'done', review = $1, done_plies = total_plies,
            finished_at = $2 WHERE game_id = $3",
    )
    .bind(review)
    .bind(now)
    .bind(game)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Marks game `game`'s analysis given up at `now`.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn fail(tx: &mut Tx, game: GameId, now: i64) -> Result<(), StorageError> {
    query("UPDATE analyses SET state = 'failed', finished_at = $1 WHERE game_id = $2")
        .bind(now)
        .bind(game)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// Records the progress post of game `game`'s analysis (the outbox's delivery).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn set_message(db: &Db, game: GameId, message: MessageId) -> Result<(), StorageError> {
    query("UPDATE analyses SET message_id = $1 WHERE game_id = $2")
        .bind(message)
        .bind(game)
        .execute(db)
        .await?;
    Ok(())
}
