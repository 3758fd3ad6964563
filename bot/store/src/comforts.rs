//! The tables of the correspondence comforts (migration 0008): conditional lines
//! (`premoves`), vacations (`vacations`, `guild_vacation`), takeback proposals
//! (`takeback_offers`) and private notes (`game_notes`). Everything here is private to its
//! owner except the fact that a vacation runs (the opponents are told its end).

use super::sql::{Checked, query};
use kaboom_rules::{Color, Variant};

use super::games::{GameRow, StoredGame, decodable};
use super::{Db, StorageError, Tx, parse_stored};
use kaboom_domain::ids::{ChannelId, GameId, GuildId, UserId};

fn color(text: &str) -> Result<Color, StorageError> {
    parse_stored("colour", text)
}

// ---------------------------------------------------------------------------------------
// Conditional lines

/// A stored conditional line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Its id (for ordering: the oldest line wins when two give different replies).
    pub id: i64,
    /// The owner.
    pub user_id: UserId,
    /// The owner's side.
    pub color: Color,
    /// The game's ply when the line's first action (the opponent's) is due.
    pub from_ply: i64,
    /// Canonical texts, alternating the opponent's action and the owner's reply.
    pub actions: Vec<String>,
}

/// A `premoves` row as stored: a [`Line`] once its colour and actions are read.
#[derive(sqlx::FromRow)]
struct StoredLine {
    id: i64,
    #[sqlx(try_from = "i64")]
    user_id: UserId,
    color: String,
    from_ply: i64,
    /// JSON text (a `TEXT` column on both engines: `#[sqlx(json)]` would want PostgreSQL's
    /// `json` type).
    actions: String,
}

impl TryFrom<StoredLine> for Line {
    type Error = StorageError;
    /// # Errors
    /// [`StorageError::Corrupt`] for an unknown colour or actions that are not a JSON list.
    fn try_from(r: StoredLine) -> Result<Line, StorageError> {
        Ok(Line {
            id: r.id,
            user_id: r.user_id,
            color: color(&r.color)?,
            from_ply: r.from_ply,
            actions: serde_json::from_str(&r.actions)
                .map_err(|e| StorageError::Corrupt(format!("conditional line: {e}")))?,
        })
    }
}

/// `color`'s conditional lines in game `game`, oldest first.
///
/// # Errors
/// [`StorageError`] on a database failure or an unreadable row.
pub async fn lines_tx(tx: &mut Tx, game: GameId, color: Color) -> Result<Vec<Line>, StorageError> {
    let rows: Vec<StoredLine> = query(
        "SELECT id, user_id, color, from_ply, actions FROM premoves
         WHERE game_id = $1 AND color = $2 ORDER BY id",
    )
    .bind(game)
    .bind(color.name())
    .fetch_all(&mut *tx)
    .await?;
    rows.into_iter().map(Line::try_from).collect()
}

/// Adds a conditional line; returns its id.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn add_line(
    tx: &mut Tx,
    game: GameId,
    user: UserId,
    color: Color,
    from_ply: i64,
    actions: &[String],
    now: i64,
) -> Result<i64, StorageError> {
    let json = serde_json::to_string(actions).unwrap_or_else(|_| "[]".into());
    let row = query(
        "INSERT INTO premoves (game_id, user_id, color, from_ply, actions, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
    )
    .bind(game)
    .bind(user)
    .bind(color.name())
    .bind(from_ply)
    .bind(json)
    .bind(now)
    .fetch_one::<(i64,)>(&mut *tx)
    .await?;
    Ok(row.0)
}

/// Replaces line `id`'s remaining actions and the ply they start at.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn advance_line(
    tx: &mut Tx,
    id: i64,
    from_ply: i64,
    actions: &[String],
) -> Result<(), StorageError> {
    let json = serde_json::to_string(actions).unwrap_or_else(|_| "[]".into());
    query("UPDATE premoves SET from_ply = $1, actions = $2 WHERE id = $3")
        .bind(from_ply)
        .bind(json)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// Deletes line `id`.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn drop_line(tx: &mut Tx, id: i64) -> Result<(), StorageError> {
    query("DELETE FROM premoves WHERE id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// Deletes `color`'s lines in game `game` (`None`: both sides'); returns how many.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn clear_lines(
    tx: &mut Tx,
    game: GameId,
    color: Option<Color>,
) -> Result<u64, StorageError> {
    let done = match color {
        Some(c) => {
            query("DELETE FROM premoves WHERE game_id = $1 AND color = $2")
                .bind(game)
                .bind(c.name())
                .execute(&mut *tx)
                .await?
        }
        None => {
            query("DELETE FROM premoves WHERE game_id = $1")
                .bind(game)
                .execute(&mut *tx)
                .await?
        }
    };
    Ok(done.rows_affected())
}

// ---------------------------------------------------------------------------------------
// Vacations

/// A vacation (a `vacations` row).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Vacation {
    /// Its id.
    pub id: i64,
    /// The player.
    #[sqlx(try_from = "i64")]
    pub user_id: UserId,
    /// Their name when they started it.
    pub name: String,
    /// Started, Unix seconds.
    pub started_at: i64,
    /// Planned end, Unix seconds.
    pub until_at: i64,
    /// Actual end, once over.
    pub ended_at: Option<i64>,
}

/// `user`'s running vacation (not ended), if any.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn running_vacation(tx: &mut Tx, user: UserId) -> Result<Option<Vacation>, StorageError> {
    Ok(query(
        "SELECT * FROM vacations WHERE user_id = $1 AND ended_at IS NULL ORDER BY id DESC LIMIT 1",
    )
    .bind(user)
    .fetch_optional(&mut *tx)
    .await?)
}

/// `user`'s vacations started at or after `since` (Unix seconds), oldest first.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn vacations_since(
    tx: &mut Tx,
    user: UserId,
    since: i64,
) -> Result<Vec<Vacation>, StorageError> {
    Ok(
        query("SELECT * FROM vacations WHERE user_id = $1 AND started_at >= $2 ORDER BY id")
            .bind(user)
            .bind(since)
            .fetch_all(&mut *tx)
            .await?,
    )
}

/// Starts a vacation; returns its id.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn start_vacation(
    tx: &mut Tx,
    user: UserId,
    name: &str,
    started_at: i64,
    until_at: i64,
) -> Result<i64, StorageError> {
    let row = query(
        "INSERT INTO vacations (user_id, name, started_at, until_at) VALUES ($1, $2, $3, $4)
         RETURNING id",
    )
    .bind(user)
    .bind(name)
    .bind(started_at)
    .bind(until_at)
    .fetch_one::<(i64,)>(&mut *tx)
    .await?;
    Ok(row.0)
}

/// Ends vacation `id` at `at`; `false` when it had ended already (someone else was first).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn end_vacation(tx: &mut Tx, id: i64, at: i64) -> Result<bool, StorageError> {
    let done = query("UPDATE vacations SET ended_at = $1 WHERE id = $2 AND ended_at IS NULL")
        .bind(at)
        .bind(id)
        .execute(&mut *tx)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Running vacations whose planned end is at or before `now` (for the scheduler).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn vacations_due(db: &Db, now: i64) -> Result<Vec<Vacation>, StorageError> {
    Ok(
        query(
            "SELECT * FROM vacations WHERE ended_at IS NULL AND until_at <= $1 ORDER BY until_at",
        )
        .bind(now)
        .fetch_all(db)
        .await?,
    )
}

/// Whether `user` is on a vacation running at `now`.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn on_vacation(db: &Db, user: UserId, now: i64) -> Result<bool, StorageError> {
    let row: Option<(i64,)> = query(
        "SELECT id FROM vacations WHERE user_id = $1 AND ended_at IS NULL AND until_at > $2
         AND started_at <= $3 LIMIT 1",
    )
    .bind(user)
    .bind(now)
    .bind(now)
    .fetch_optional(db)
    .await?;
    Ok(row.is_some())
}

/// Pushes back (or, negative, pulls forward) the deadline of game `game` by `secs`, if the
/// game is still at `ply`, active, and its deadline is after `now` (a deadline that has
/// passed belongs to the scheduler's forfeit). Returns whether it changed.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn shift_deadline(
    tx: &mut Tx,
    game: GameId,
    ply: i64,
    secs: i64,
    now: i64,
) -> Result<bool, StorageError> {
    let done = query(
        "UPDATE games SET deadline_at = deadline_at + $1, updated_at = $2
         WHERE id = $3 AND ply = $4 AND state = 'active' AND deadline_at IS NOT NULL
           AND deadline_at > $5",
    )
    .bind(secs)
    .bind(now)
    .bind(game)
    .bind(ply)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A server's yearly vacation allowance in days, if it set one.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn guild_allowance(tx: &mut Tx, guild: GuildId) -> Result<Option<u32>, StorageError> {
    let row: Option<(i64,)> = query("SELECT days FROM guild_vacation WHERE guild_id = $1")
        .bind(guild)
        .fetch_optional(&mut *tx)
        .await?;
    row.map(|(days,)| {
        u32::try_from(days).map_err(|_| StorageError::Corrupt(format!("allowance {days}")))
    })
    .transpose()
}

/// Sets a server's yearly vacation allowance.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn put_guild_allowance(
    db: &Db,
    guild: GuildId,
    days: u32,
    now: i64,
) -> Result<(), StorageError> {
    query(
        "INSERT INTO guild_vacation (guild_id, days, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (guild_id) DO UPDATE SET days = excluded.days, updated_at = excluded.updated_at",
    )
    .bind(guild)
    .bind(i64::from(days))
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Takebacks

/// A standing takeback proposal.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TakebackOffer {
    /// Who proposed it.
    pub by: Color,
    /// The game's ply when it was proposed.
    pub ply: i64,
    /// How many plies it takes back (1 or 2).
    pub undo: i64,
}

/// The game's standing takeback proposal, if any.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn takeback(tx: &mut Tx, game: GameId) -> Result<Option<TakebackOffer>, StorageError> {
    let row: Option<(String, i64, i64)> =
        query("SELECT offered_by, ply, undo FROM takeback_offers WHERE game_id = $1")
            .bind(game)
            .fetch_optional(&mut *tx)
            .await?;
    row.map(|(by, ply, undo)| {
        Ok(TakebackOffer {
            by: color(&by)?,
            ply,
            undo,
        })
    })
    .transpose()
}

/// Records a takeback proposal (replacing any other).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn put_takeback(
    tx: &mut Tx,
    game: GameId,
    offer: TakebackOffer,
    now: i64,
) -> Result<(), StorageError> {
    clear_takeback(tx, game).await?;
    query(
        "INSERT INTO takeback_offers (game_id, offered_by, ply, undo, offered_at)
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(game)
    .bind(offer.by.name())
    .bind(offer.ply)
    .bind(offer.undo)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Removes the game's takeback proposal; `true` if there was one.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn clear_takeback(tx: &mut Tx, game: GameId) -> Result<bool, StorageError> {
    let done = query("DELETE FROM takeback_offers WHERE game_id = $1")
        .bind(game)
        .execute(&mut *tx)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Takes game `game` back from `ply` to `to_ply` (deleting the later actions), if it is
/// still at `ply` and active; writes the state and deadline. Returns whether it did.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn take_back(
    tx: &mut Tx,
    game: GameId,
    ply: i64,
    to_ply: i64,
    state_fen: &str,
    deadline_at: Option<i64>,
    now: i64,
) -> Result<bool, StorageError> {
    let done = query(
        "UPDATE games SET ply = $1, state_fen = $2, deadline_at = $3, updated_at = $4
         WHERE id = $5 AND ply = $6 AND state = 'active'",
    )
    .bind(to_ply)
    .bind(state_fen)
    .bind(deadline_at)
    .bind(now)
    .bind(game)
    .bind(ply)
    .execute(&mut *tx)
    .await?;
    if done.rows_affected() != 1 {
        return Ok(false);
    }
    query("DELETE FROM game_actions WHERE game_id = $1 AND ply > $2")
        .bind(game)
        .bind(to_ply)
        .execute(&mut *tx)
        .await?;
    Ok(true)
}

// ---------------------------------------------------------------------------------------
// Notes

/// `user`'s note in game `game`, if any.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn note(db: &Db, game: GameId, user: UserId) -> Result<Option<String>, StorageError> {
    let row: Option<(String,)> =
        query("SELECT text FROM game_notes WHERE game_id = $1 AND user_id = $2")
            .bind(game)
            .bind(user)
            .fetch_optional(db)
            .await?;
    Ok(row.map(|(text,)| text))
}

/// Sets (or, with `None`, deletes) `user`'s note in game `game`.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn put_note(
    db: &Db,
    game: GameId,
    user: UserId,
    text: Option<&str>,
    now: i64,
) -> Result<(), StorageError> {
    match text {
        Some(t) => {
            query(
                "INSERT INTO game_notes (game_id, user_id, text, updated_at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (game_id, user_id) DO UPDATE SET text = excluded.text,
                     updated_at = excluded.updated_at",
            )
            .bind(game)
            .bind(user)
            .bind(t)
            .bind(now)
            .execute(db)
            .await?;
        }
        None => {
            query("DELETE FROM game_notes WHERE game_id = $1 AND user_id = $2")
                .bind(game)
                .bind(user)
                .execute(db)
                .await?;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Games and challenges, inside a transaction

/// Games `user` plays that are active (not in setup, not finished), oldest first.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn active_games_tx(tx: &mut Tx, user: UserId) -> Result<Vec<GameRow>, StorageError> {
    let rows: Vec<Checked<StoredGame>> = query(
        "SELECT * FROM games WHERE (white_id = $1 OR black_id = $2) AND state = 'active' ORDER BY id",
    )
    .bind(user)
    .bind(user)
    .fetch_all(&mut *tx)
    .await?;
    Ok(decodable(rows))
}

/// The open challenge, if any, between `a` and `b` (either of them the challenger) in
/// `variant` and `channel`, read inside `tx`: (its id, its challenger). A rematch looks
/// for it first, so that a second click offers nothing twice.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn open_challenge_between(
    tx: &mut Tx,
    channel: ChannelId,
    variant: Variant,
    a: UserId,
    b: UserId,
) -> Result<Option<(i64, UserId)>, StorageError> {
    let row: Option<(i64, i64)> = query(
        "SELECT id, challenger_id FROM challenges
         WHERE state = 'open' AND channel_id = $1 AND variant = $2
           AND ((challenger_id = $3 AND opponent_id = $4) OR (challenger_id = $5 AND opponent_id = $6))
         ORDER BY id LIMIT 1",
    )
    .bind(channel)
    .bind(variant.name())
    .bind(a)
    .bind(b)
    .bind(b)
    .bind(a)
    .fetch_optional(&mut *tx)
    .await?;
    row.map(|(id, challenger)| {
        UserId::try_from(challenger)
            .map(|c| (id, c))
            .map_err(|e| StorageError::Corrupt(e.to_string()))
    })
    .transpose()
}

/// Closes the vacations whose days ran out by `now` (the scheduler, each sweep); returns
/// them.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn end_due_vacations(tx: &mut Tx, now: i64) -> Result<Vec<Vacation>, StorageError> {
    Ok(query(
        "UPDATE vacations SET ended_at = until_at WHERE ended_at IS NULL AND until_at <= $1
         RETURNING *",
    )
    .bind(now)
    .fetch_all(&mut *tx)
    .await?)
}

/// The end of `user`'s vacation running at `now`, if any, inside `tx` (the scheduler's
/// nudges pause until then).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn vacation_until_tx(
    tx: &mut Tx,
    user: UserId,
    now: i64,
) -> Result<Option<i64>, StorageError> {
    let row: Option<(i64,)> = query(
        "SELECT until_at FROM vacations WHERE user_id = $1 AND ended_at IS NULL AND until_at > $2
         AND started_at <= $3 ORDER BY id DESC LIMIT 1",
    )
    .bind(user)
    .bind(now)
    .bind(now)
    .fetch_optional(&mut *tx)
    .await?;
    Ok(row.map(|(until,)| until))
}
