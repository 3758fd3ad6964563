//! The scheduler's queries: due games by `games.next_due_at` (read a batch at a
//! time with what the sweep needs), claimed nudges (`nudges`), next due times, expiring
//! challenges. Set-based: one statement per batch, not per game, wherever the decision
//! allows. Plain SQL that PostgreSQL runs as is. Schema and triggers:
//! `migrations/0002_scheduler.sql`. What the sweep announces goes into the one Discord
//! outbox (`storage::outbox`) in the same transaction.

use std::collections::{HashMap, HashSet};

use super::sql::{Checked, ToArg, query};

use super::games::{self, GameRow, StoredGame};
use super::settings::{self, UserSettings};
use super::{Db, StorageError, Tx};
use kaboom_domain::ids::{GameId, UserId};

/// A due game as one sweep batch reads it: its row, when its turn began and the
/// notification settings of the player to move.
#[derive(Clone, Debug)]
pub struct DueGame {
    /// The game's row.
    pub row: GameRow,
    /// When the current turn began (Unix seconds; `None` only for rows older than the
    /// scheduler's migration).
    pub turn_started_at: Option<i64>,
    /// The settings of the player to move (White at even plies, C-2).
    pub mover: UserSettings,
}

/// The query of [`due_batch`]: up to `$2` games due at `$1` (`next_due_at <= now`), most
/// overdue first, each with the settings of the player to move, in one range scan of the
/// `games_next_due_at` index plus a primary-key lookup in `user_settings` per row.
/// Portable SQL (`%` and `CASE` work the same in PostgreSQL).
pub const DUE_BATCH: &str = "SELECT g.*, u.nudges AS mover_nudges, u.nudge_via AS mover_via
 FROM games g
 LEFT JOIN user_settings u
   ON u.user_id = CASE WHEN g.ply % 2 = 0 THEN g.white_id ELSE g.black_id END
 WHERE g.next_due_at <= $1
 ORDER BY g.next_due_at
 LIMIT $2";

/// A row of [`DUE_BATCH`]: the game's columns, when its turn began and the mover's settings
/// (both `NULL` without a `user_settings` row).
#[derive(sqlx::FromRow)]
struct StoredDue {
    #[sqlx(flatten)]
    game: StoredGame,
    turn_started_at: Option<i64>,
    mover_nudges: Option<bool>,
    mover_via: Option<String>,
}

/// Up to `limit` games due at `now`, most overdue first ([`DUE_BATCH`]): one query for the
/// whole batch. Each game comes with its id and its row read back, or
/// [`StorageError::Corrupt`] for a row that does not read (the caller skips it, so one
/// damaged game does not stop the sweep).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn due_batch(
    tx: &mut Tx,
    now: i64,
    limit: i64,
) -> Result<Vec<(GameId, Result<DueGame, StorageError>)>, StorageError> {
    let rows: Vec<Checked<StoredDue>> = query(DUE_BATCH)
        .bind(now)
        .bind(limit)
        .fetch_all(&mut *tx)
        .await?;
    rows.into_iter()
        .map(|Checked { id, row }| {
            let id = GameId::from(id.ok_or_else(|| {
                StorageError::Corrupt("a due game whose id does not read".into())
            })?);
            // A column of this row that does not decode: damage to this game only.
            let game = row
                .map_err(|e| {
                    StorageError::Corrupt(format!("game #{id}: {}", StorageError::from(e)))
                })
                .and_then(|due| {
                    Ok(DueGame {
                        row: GameRow::try_from(due.game)?,
                        turn_started_at: due.turn_started_at,
                        mover: settings::user_from_columns(due.mover_nudges, due.mover_via)?,
                    })
                });
            Ok((id, game))
        })
        .collect()
}

/// A nudge to claim: (game, ply, threshold) for `user` (the `nudges` table's key).
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct NudgeClaim {
    /// The game.
    pub game_id: GameId,
    /// Its ply (the turn the nudge is about).
    pub ply: i64,
    /// `share:50`, `idle:1`, ...
    pub threshold: String,
    /// The player reminded.
    pub user: UserId,
}

/// The statement of [`claim_nudges`] for `n` claims (n >= 1): one multi-row insert that
/// skips claims made before and returns the games it did claim (`RETURNING`, SQLite 3.35+
/// and PostgreSQL).
pub fn claim_nudges_sql(n: usize) -> String {
    format!("{CLAIM_HEAD}VALUES {}{CLAIM_TAIL}", value_rows(n, 5, 1))
}

/// `n` (at least 1) comma-separated rows of `width` numbered placeholders each, the first
/// one `$first`: `($1, $2), ($3, $4)` for 2 rows of 2 from 1 (what [`super::sql::Query`]
/// writes as its values are pushed).
fn value_rows(n: usize, width: usize, first: usize) -> String {
    (0..n.max(1))
        .map(|r| {
            let cells = (0..width)
                .map(|c| format!("${}", first + r * width + c))
                .collect::<Vec<_>>();
            format!("({})", cells.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

const CLAIM_HEAD: &str = "INSERT INTO nudges (game_id, ply, threshold, user_id, claimed_at) ";
const CLAIM_TAIL: &str = " ON CONFLICT (game_id, ply, threshold) DO NOTHING RETURNING game_id";

/// Claims the nudges `claims` at `now` in one statement: returns the games whose nudge this
/// call claimed; a claim made before (also before a restart) is not returned, and then
/// nothing may be sent for it. At most one claim per game.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn claim_nudges(
    tx: &mut Tx,
    claims: &[NudgeClaim],
    now: i64,
) -> Result<HashSet<GameId>, StorageError> {
    let mut claimed = HashSet::new();
    for chunk in claims.chunks(CHUNK) {
        let mut q = query(CLAIM_HEAD);
        q.push_values(chunk, |mut b, c| {
            b.push_bind(c.game_id)
                .push_bind(c.ply)
                .push_bind(c.threshold.clone())
                .push_bind(c.user)
                .push_bind(now);
        });
        q.push(CLAIM_TAIL);
        let rows: Vec<(i64,)> = q.build().fetch_all(&mut *tx).await?;
        claimed.extend(rows.into_iter().map(|(id,)| GameId::from(id)));
    }
    Ok(claimed)
}

/// The actions of each of the games `ids` in order (canonical texts), in one query per 500
/// games; a game without actions is absent from the map.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn actions_of(
    tx: &mut Tx,
    ids: &[GameId],
) -> Result<HashMap<GameId, Vec<String>>, StorageError> {
    let mut out: HashMap<GameId, Vec<String>> = HashMap::new();
    for chunk in ids.chunks(CHUNK) {
        let mut q = in_list(
            "SELECT game_id, action FROM game_actions WHERE game_id IN (",
            chunk,
            ") ORDER BY game_id, ply",
        );
        let rows: Vec<(i64, String)> = q.build().fetch_all(&mut *tx).await?;
        for (id, action) in rows {
            out.entry(GameId::from(id)).or_default().push(action);
        }
    }
    Ok(out)
}

/// Withdraws the standing draw offers of the games `ids` (games that just ended), in one
/// statement per 500 games.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn clear_draw_offers(tx: &mut Tx, ids: &[GameId]) -> Result<(), StorageError> {
    for chunk in ids.chunks(CHUNK) {
        let mut q = in_list("DELETE FROM draw_offers WHERE game_id IN (", chunk, ")");
        q.build().execute(&mut *tx).await?;
    }
    Ok(())
}

/// `head` (ending in `IN (`), one bound parameter per id of `ids`, comma-separated, then
/// `tail` (starting with `)`): the statements that act on a chunk of games or outbox rows.
fn in_list<T: Copy + ToArg>(head: &str, ids: &[T], tail: &str) -> super::sql::Query {
    let mut q = query(head);
    for (i, id) in ids.iter().enumerate() {
        if i > 0 {
            q.push(", ");
        }
        q.push_bind(*id);
    }
    q.push(tail);
    q
}

/// Rows per multi-row statement (5 parameters each: far below SQLite's 32,766 and
/// PostgreSQL's 65,535 parameter limits).
const CHUNK: usize = 500;

const NEXT_HEAD: &str = "UPDATE games SET next_due_at = v.column2 FROM (";
const NEXT_TAIL: &str = ") AS v WHERE games.id = v.column1";

/// The statement of [`set_next_due_many`] for `n` games (n >= 1): `UPDATE ... FROM (VALUES
/// ...)` (SQLite 3.33+ and PostgreSQL; both name the columns of `VALUES` `column1`, ...).
pub fn set_next_due_many_sql(n: usize) -> String {
    format!("{NEXT_HEAD}VALUES {}{NEXT_TAIL}", value_rows(n, 2, 1))
}

/// Sets when the scheduler next looks at each game: `(game, time or None for never)`, in
/// one statement per 500 games.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn set_next_due_many(
    tx: &mut Tx,
    next: &[(GameId, Option<i64>)],
) -> Result<(), StorageError> {
    for chunk in next.chunks(CHUNK) {
        let mut q = query(NEXT_HEAD);
        q.push("VALUES ");
        for (i, (id, at)) in chunk.iter().enumerate() {
            if i > 0 {
                q.push(", ");
            }
            q.push("(")
                .push_bind(*id)
                .push(", ")
                .push_bind(*at)
                .push(")");
        }
        q.push(NEXT_TAIL);
        q.build().execute(&mut *tx).await?;
    }
    Ok(())
}

/// A game the scheduler ends (time forfeit or designation abort), written by
/// [`finish_many`].
#[derive(Clone, Debug)]
pub struct Ending {
    /// The game.
    pub game_id: GameId,
    /// The ply it was read at: the ending is written only if the game is still there.
    pub expected_ply: i64,
    /// The final state (full view, the outcome declared).
    pub state_fen: String,
    /// The result and its reason.
    pub outcome: kaboom_rules::Outcome,
}

const FINISH_HEAD: &str = "UPDATE games SET state_fen = v.column3, state = 'finished', \
    declared = v.column4, result = v.column5, reason = v.column6, deadline_at = NULL, updated_at = ";
const FINISH_TAIL: &str =
    ") AS v WHERE games.id = v.column1 AND games.ply = v.column2 RETURNING id";

/// The statement of [`finish_many`] for `n` games (n >= 1; 1 + 6 n parameters).
pub fn finish_many_sql(n: usize) -> String {
    format!(
        "{FINISH_HEAD}$1 FROM (VALUES {}{FINISH_TAIL}",
        value_rows(n, 6, 2)
    )
}

/// Writes the endings of a sweep batch, each only if its game is still at its expected
/// ply and not finished (trigger `games_finished_is_final`), as
/// [`games::update_state`] with [`games::StateUpdate::finished`] would one by one: one
/// `UPDATE ... FROM (VALUES ...) RETURNING id` per 500 games instead of one statement per
/// game (each statement is a round trip to SQLite's worker thread). Returns the ids of the
/// games it ended.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn finish_many(
    tx: &mut Tx,
    endings: &[Ending],
    now: i64,
) -> Result<HashSet<GameId>, StorageError> {
    let mut ended = HashSet::new();
    for chunk in endings.chunks(CHUNK) {
        let mut q = query(FINISH_HEAD);
        q.push_bind(now).push(" FROM (VALUES ");
        for (i, e) in chunk.iter().enumerate() {
            let declared = games::declared_json(&e.outcome);
            if i > 0 {
                q.push(", ");
            }
            q.push("(")
                .push_bind(e.game_id)
                .push(", ")
                .push_bind(e.expected_ply)
                .push(", ")
                .push_bind(e.state_fen.clone())
                .push(", ")
                .push_bind(declared)
                .push(", ")
                .push_bind(e.outcome.result().to_string())
                .push(", ")
                .push_bind(e.outcome.reason.name().to_string())
                .push(")");
        }
        q.push(FINISH_TAIL);
        debug_assert_eq!(
            q.sql(),
            finish_many_sql(chunk.len()),
            "the explained statement"
        );
        let rows: Vec<(i64,)> = q.build().fetch_all(&mut *tx).await?;
        ended.extend(rows.into_iter().map(|(id,)| GameId::from(id)));
    }
    Ok(ended)
}

/// The nudges claimed for game `id`: (ply, threshold), in claim order.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn nudges(db: &Db, id: GameId) -> Result<Vec<(i64, String)>, StorageError> {
    let rows: Vec<(i64, String)> = query(
        "SELECT ply, threshold FROM nudges WHERE game_id = $1 ORDER BY claimed_at, ply, threshold",
    )
    .bind(id)
    .fetch_all(db)
    .await?;
    Ok(rows)
}

/// The query of [`expiring_challenges`].
pub const EXPIRING_CHALLENGES: &str = "SELECT id FROM challenges WHERE state = 'open' AND created_at <= $1 ORDER BY created_at LIMIT $2";

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
    let rows: Vec<(i64,)> = query(EXPIRING_CHALLENGES)
        .bind(created_before)
        .bind(limit)
        .fetch_all(&mut *tx)
        .await?;
    Ok(rows.into_iter().map(|(id,)| id).collect())
}

/// Marks an open challenge expired; `false` if it was no longer open.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn expire_challenge(tx: &mut Tx, id: i64) -> Result<bool, StorageError> {
    let done = query("UPDATE challenges SET state = 'expired' WHERE id = $1 AND state = 'open'")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// The statements one sweep runs per batch, with the number of parameters each takes:
/// the due batch, a server's settings (once per server per sweep), the nudge claims, the
/// next due times and the endings (shown with 2 rows), and the expiring challenges.
pub fn sweep_statements() -> Vec<(&'static str, String, usize)> {
    vec![
        ("due batch", DUE_BATCH.to_string(), 2),
        (
            "server settings (once per server and sweep)",
            settings::GUILD.to_string(),
            1,
        ),
        ("claim nudges (2 rows)", claim_nudges_sql(2), 10),
        ("next due times (2 rows)", set_next_due_many_sql(2), 4),
        ("endings (2 games)", finish_many_sql(2), 13),
        (
            "actions of the games that end (2 games)",
            "SELECT game_id, action FROM game_actions WHERE game_id IN ($1, $2) ORDER BY game_id, ply"
                .to_string(),
            2,
        ),
        (
            "draw offers of the games that ended (2 games)",
            "DELETE FROM draw_offers WHERE game_id IN ($1, $2)".to_string(),
            2,
        ),
        ("expiring challenges", EXPIRING_CHALLENGES.to_string(), 2),
    ]
}

/// A row of SQLite's `EXPLAIN QUERY PLAN` (`id`, `parent`, `notused`, `detail`): its text.
#[derive(sqlx::FromRow)]
struct Detail {
    detail: String,
}

/// SQLite's `EXPLAIN QUERY PLAN` of each of [`sweep_statements`] (SQLite only) (label, statement, `detail`
/// lines), to check that each uses an index or a primary key (benchmark,
/// docs/PERFORMANCE.md). Parameters are bound to sample values.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn explain_sweep(db: &Db) -> Result<Vec<(String, String, Vec<String>)>, StorageError> {
    let mut out = Vec::new();
    for (label, sql, params) in sweep_statements() {
        let text = format!("EXPLAIN QUERY PLAN {sql}");
        let mut q = query(&text);
        for i in 0..params {
            q = q.bind(i as i64 + 1);
        }
        let rows: Vec<Detail> = q.fetch_all(db).await?;
        let lines = rows.into_iter().map(|r| r.detail).collect();
        out.push((label.to_string(), sql, lines));
    }
    Ok(out)
}
