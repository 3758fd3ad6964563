//! The puzzle tables (migration 0016): puzzles with their Glicko-2 ratings, players' tries
//! (`puzzle_attempts`, advanced with an expected-progress check so that one answer counts
//! once), players' puzzle ratings and streaks per variant, and servers' daily puzzles.

use super::sql::query;
use super::{Db, StorageError, Tx, parse_stored};
use kaboom_domain::ids::{ChannelId, GuildId, MessageId, UserId};
use kaboom_domain::rating::Glicko;
use kaboom_rules::Variant;

/// A stored puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredPuzzle {
    /// Its id (the generator's, e.g. `a7k2q9`).
    pub id: String,
    /// The variant.
    pub variant: Variant,
    /// The position before the solver's first move, every secret included (the
    /// serialization `AnyGame::from_fen` reads).
    pub fen: String,
    /// The solution: coordinate texts, the solver's moves and the forced replies in turn,
    /// the solver's first and last.
    pub solution: Vec<String>,
    /// Theme names (`king-blast`, `boom`, ...).
    pub themes: Vec<String>,
    /// The puzzle's Glicko-2 rating.
    pub glicko: Glicko,
    /// Rated tries so far.
    pub attempts: i64,
    /// Rated tries that solved it.
    pub solved: i64,
}

#[derive(sqlx::FromRow)]
struct Row {
    id: String,
    variant: String,
    fen: String,
    solution: String,
    themes: String,
    rating: f64,
    deviation: f64,
    volatility: f64,
    attempts: i64,
    solved: i64,
}

impl TryFrom<Row> for StoredPuzzle {
    type Error = StorageError;
    fn try_from(r: Row) -> Result<StoredPuzzle, StorageError> {
        let json = |what: &str, text: &str| -> Result<Vec<String>, StorageError> {
            serde_json::from_str(text)
                .map_err(|e| StorageError::Corrupt(format!("puzzle {} {what}: {e}", r.id)))
        };
        Ok(StoredPuzzle {
            variant: parse_stored("puzzle variant", &r.variant)?,
            solution: json("solution", &r.solution)?,
            themes: json("themes", &r.themes)?,
            glicko: Glicko {
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
            },
            id: r.id,
            fen: r.fen,
            attempts: r.attempts,
            solved: r.solved,
        })
    }
}

/// Where a puzzle came from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The set shipped with the bot (`data/puzzles/`).
    Shipped,
    /// Made from this database's finished games.
    Games,
}

/// Adds the puzzles not stored yet (by id), each starting at its generated `rating` with
/// a deviation of 350 (lichess's puzzles start so: sure enough to rate players against,
/// open to move); returns how many were new. Stored puzzles keep their rating.
///
/// # Errors
/// [`StorageError`] on a database failure (nothing is added then).
pub async fn add(
    db: &Db,
    puzzles: &[(StoredPuzzle, Source)],
    now: i64,
) -> Result<u64, StorageError> {
    let mut tx = db.begin_write().await?;
    let mut added = 0;
    for (p, source) in puzzles {
        added += query(
            "INSERT INTO puzzles (id, variant, fen, solution, themes, rating, deviation,
                 volatility, attempts, solved, source, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, 0, $9, $10)
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(p.id.as_str())
        .bind(p.variant.name())
        .bind(p.fen.as_str())
        .bind(serde_json::to_string(&p.solution).unwrap_or_default())
        .bind(serde_json::to_string(&p.themes).unwrap_or_default())
        .bind(p.glicko.rating)
        .bind(p.glicko.deviation)
        .bind(p.glicko.volatility)
        .bind(match source {
            Source::Shipped => "shipped",
            Source::Games => "games",
        })
        .bind(now)
        .execute(&mut tx)
        .await?
        .rows_affected();
    }
    tx.commit().await?;
    Ok(added)
}

/// Puzzle `id`, if stored (on the pool, or inside a transaction).
///
/// # Errors
/// [`StorageError`] on a database failure or an unreadable row.
pub async fn get<'a>(
    on: impl Into<super::sql::On<'a>>,
    id: &str,
) -> Result<Option<StoredPuzzle>, StorageError> {
    let row: Option<Row> = query("SELECT * FROM puzzles WHERE id = $1")
        .bind(id)
        .fetch_optional(on)
        .await?;
    row.map(StoredPuzzle::try_from).transpose()
}

/// The puzzle of `variant` at place `n` (modulo their number) in id order: the daily
/// rotation. `None` when `variant` has none.
///
/// # Errors
/// [`StorageError`] on a database failure or an unreadable row.
pub async fn nth_of_variant(
    tx: &mut Tx,
    variant: Variant,
    n: i64,
) -> Result<Option<StoredPuzzle>, StorageError> {
    let (count,): (i64,) = query("SELECT COUNT(*) FROM puzzles WHERE variant = $1")
        .bind(variant.name())
        .fetch_one(&mut *tx)
        .await?;
    if count == 0 {
        return Ok(None);
    }
    let row: Option<Row> =
        query("SELECT * FROM puzzles WHERE variant = $1 ORDER BY id LIMIT 1 OFFSET $2")
            .bind(variant.name())
            .bind(n.rem_euclid(count))
            .fetch_optional(&mut *tx)
            .await?;
    row.map(StoredPuzzle::try_from).transpose()
}

/// Every theme of the stored puzzles, sorted, each once.
///
/// # Errors
/// [`StorageError`] on a database failure or an unreadable row.
pub async fn themes(db: &Db) -> Result<Vec<String>, StorageError> {
    let rows: Vec<(String,)> = query("SELECT DISTINCT themes FROM puzzles")
        .fetch_all(db)
        .await?;
    let mut all = std::collections::BTreeSet::new();
    for (json,) in rows {
        let list: Vec<String> = serde_json::from_str(&json)
            .map_err(|e| StorageError::Corrupt(format!("puzzle themes: {e}")))?;
        all.extend(list);
    }
    Ok(all.into_iter().collect())
}

/// Every stored puzzle of `variant`, by id.
///
/// # Errors
/// [`StorageError`] on a database failure or an unreadable row.
pub async fn of_variant(db: &Db, variant: Variant) -> Result<Vec<StoredPuzzle>, StorageError> {
    let rows: Vec<Row> = query("SELECT * FROM puzzles WHERE variant = $1 ORDER BY id")
        .bind(variant.name())
        .fetch_all(db)
        .await?;
    rows.into_iter().map(StoredPuzzle::try_from).collect()
}

/// How many puzzles are stored per variant, in [`Variant::ALL`] order.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn counts<'a>(
    on: impl Into<super::sql::On<'a>>,
) -> Result<Vec<(Variant, i64)>, StorageError> {
    let rows: Vec<(String, i64)> = query("SELECT variant, COUNT(*) FROM puzzles GROUP BY variant")
        .fetch_all(on)
        .await?;
    Ok(Variant::ALL
        .iter()
        .map(|v| {
            let n = rows
                .iter()
                .find(|(name, _)| name == v.name())
                .map_or(0, |(_, n)| *n);
            (*v, n)
        })
        .collect())
}

/// The puzzle of `variant` (with `theme` among its themes, if given) that `user` has never
/// tried whose rating is nearest `target`; ties go to the smaller id.
///
/// # Errors
/// [`StorageError`] on a database failure or an unreadable row.
pub async fn pick(
    db: &Db,
    user: UserId,
    variant: Variant,
    theme: Option<&str>,
    target: f64,
) -> Result<Option<StoredPuzzle>, StorageError> {
    // Themes are a JSON array of plain names: `"name"` with its quotes matches one whole.
    let pattern = theme.map_or_else(|| "%".to_string(), |t| format!("%\"{t}\"%"));
    let row: Option<Row> = query(
        "SELECT * FROM puzzles p WHERE p.variant = $1 AND p.themes LIKE $2
           AND NOT EXISTS (SELECT 1 FROM puzzle_attempts a
                           WHERE a.puzzle_id = p.id AND a.user_id = $3)
         ORDER BY ABS(p.rating - $4), p.id LIMIT 1",
    )
    .bind(variant.name())
    .bind(pattern)
    .bind(user)
    .bind(target)
    .fetch_optional(db)
    .await?;
    row.map(StoredPuzzle::try_from).transpose()
}

/// A player's try at a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Attempt {
    /// Its id.
    pub id: i64,
    /// The player.
    #[sqlx(try_from = "i64")]
    pub user_id: UserId,
    /// The puzzle.
    pub puzzle_id: String,
    /// Plies of the solution behind the player (2 per correct move).
    pub progress: i64,
    /// `open`, `solved` or `failed`.
    pub state: String,
    /// Whether it changes ratings (the player's first try at this puzzle).
    pub rated: bool,
    /// The server whose daily post it came from.
    pub guild_id: Option<i64>,
}

impl Attempt {
    /// Whether the try still waits for a move.
    pub fn is_open(&self) -> bool {
        self.state == "open"
    }
}

/// Starts `user`'s try at `puzzle` (rated when it is their first try at it). Their tries
/// still open are closed without a rating change, as lichess does with a puzzle left
/// before its first move: one puzzle at a time waits for `/puzzle move`. Returns the new
/// try.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn start(
    tx: &mut Tx,
    user: UserId,
    puzzle: &str,
    guild: Option<GuildId>,
    now: i64,
) -> Result<Attempt, StorageError> {
    let (tried,): (i64,) =
        query("SELECT COUNT(*) FROM puzzle_attempts WHERE user_id = $1 AND puzzle_id = $2")
            .bind(user)
            .bind(puzzle)
            .fetch_one(&mut *tx)
            .await?;
    query("UPDATE puzzle_attempts SET state = 'failed', finished_at = $1 WHERE user_id = $2 AND state = 'open'")
        .bind(now)
        .bind(user)
        .execute(&mut *tx)
        .await?;
    let attempt: Attempt = query(
        "INSERT INTO puzzle_attempts (user_id, puzzle_id, progress, state, rated, guild_id, started_at)
         VALUES ($1, $2, 0, 'open', $3, $4, $5)
         RETURNING id, user_id, puzzle_id, progress, state, rated, guild_id",
    )
    .bind(user)
    .bind(puzzle)
    .bind(tried == 0)
    .bind(guild)
    .bind(now)
    .fetch_one(&mut *tx)
    .await?;
    Ok(attempt)
}

/// `user`'s latest open try, if any.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn open_attempt(db: &Db, user: UserId) -> Result<Option<Attempt>, StorageError> {
    Ok(query(
        "SELECT id, user_id, puzzle_id, progress, state, rated, guild_id FROM puzzle_attempts
         WHERE user_id = $1 AND state = 'open' ORDER BY id DESC LIMIT 1",
    )
    .bind(user)
    .fetch_optional(db)
    .await?)
}

/// Moves try `id` from `progress` plies to `to` plies and `state`, only if it is still open
/// at `progress` (the expected-progress check: of two answers at once, one counts).
/// Returns whether it did.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn advance(
    tx: &mut Tx,
    id: i64,
    progress: i64,
    to: i64,
    state: &str,
    now: i64,
) -> Result<bool, StorageError> {
    let finished = (state != "open").then_some(now);
    let done = query(
        "UPDATE puzzle_attempts SET progress = $1, state = $2, finished_at = $3
         WHERE id = $4 AND progress = $5 AND state = 'open'",
    )
    .bind(to)
    .bind(state)
    .bind(finished)
    .bind(id)
    .bind(progress)
    .execute(&mut *tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A player's puzzle rating and streak in one variant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleRating {
    /// The rating (1500, deviation 500 for a new solver).
    pub glicko: Glicko,
    /// Rated tries.
    pub attempts: i64,
    /// Rated tries solved.
    pub solved: i64,
    /// Puzzles solved in a row (rated or not), now.
    pub streak: i64,
    /// The longest streak so far.
    pub best_streak: i64,
}

impl Default for PuzzleRating {
    fn default() -> PuzzleRating {
        PuzzleRating {
            glicko: Glicko::START,
            attempts: 0,
            solved: 0,
            streak: 0,
            best_streak: 0,
        }
    }
}

/// `user`'s puzzle rating in `variant` (the start values if they never tried one).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn rating<'a>(
    on: impl Into<super::sql::On<'a>>,
    user: UserId,
    variant: Variant,
) -> Result<PuzzleRating, StorageError> {
    type R = (f64, f64, f64, i64, i64, i64, i64);
    let row: Option<R> = query(
        "SELECT rating, deviation, volatility, attempts, solved, streak, best_streak
         FROM puzzle_ratings WHERE user_id = $1 AND variant = $2",
    )
    .bind(user)
    .bind(variant.name())
    .fetch_optional(on)
    .await?;
    Ok(row.map_or_else(
        PuzzleRating::default,
        |(rating, deviation, volatility, attempts, solved, streak, best_streak)| PuzzleRating {
            glicko: Glicko {
                rating,
                deviation,
                volatility,
            },
            attempts,
            solved,
            streak,
            best_streak,
        },
    ))
}

/// Stores `user`'s puzzle rating in `variant`.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn put_rating(
    tx: &mut Tx,
    user: UserId,
    variant: Variant,
    r: &PuzzleRating,
    now: i64,
) -> Result<(), StorageError> {
    query(
        "INSERT INTO puzzle_ratings (user_id, variant, rating, deviation, volatility, attempts,
             solved, streak, best_streak, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (user_id, variant) DO UPDATE SET rating = excluded.rating,
             deviation = excluded.deviation, volatility = excluded.volatility,
             attempts = excluded.attempts, solved = excluded.solved, streak = excluded.streak,
             best_streak = excluded.best_streak, updated_at = excluded.updated_at",
    )
    .bind(user)
    .bind(variant.name())
    .bind(r.glicko.rating)
    .bind(r.glicko.deviation)
    .bind(r.glicko.volatility)
    .bind(r.attempts)
    .bind(r.solved)
    .bind(r.streak)
    .bind(r.best_streak)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Stores puzzle `id`'s new rating after a rated try (`solved` or not).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn rate_puzzle(
    tx: &mut Tx,
    id: &str,
    glicko: Glicko,
    solved: bool,
) -> Result<(), StorageError> {
    query(
        "UPDATE puzzles SET rating = $1, deviation = $2, volatility = $3,
             attempts = attempts + 1, solved = solved + $4 WHERE id = $5",
    )
    .bind(glicko.rating)
    .bind(glicko.deviation)
    .bind(glicko.volatility)
    .bind(i64::from(solved))
    .bind(id)
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Sets (or with `None` clears) the channel of server `guild`'s daily puzzle.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn set_channel(
    db: &Db,
    guild: GuildId,
    channel: Option<ChannelId>,
    now: i64,
) -> Result<(), StorageError> {
    match channel {
        Some(c) => query(
            "INSERT INTO guild_puzzle_channels (guild_id, channel_id, updated_at) VALUES ($1, $2, $3)
             ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id,
                 updated_at = excluded.updated_at",
        )
        .bind(guild)
        .bind(c)
        .bind(now),
        None => query("DELETE FROM guild_puzzle_channels WHERE guild_id = $1").bind(guild),
    }
    .execute(db)
    .await?;
    Ok(())
}

/// Server `guild`'s daily puzzle channel, if set.
///
/// # Errors
/// [`StorageError`] on a database failure or an unreadable id.
pub async fn channel(db: &Db, guild: GuildId) -> Result<Option<ChannelId>, StorageError> {
    let row: Option<(i64,)> =
        query("SELECT channel_id FROM guild_puzzle_channels WHERE guild_id = $1")
            .bind(guild)
            .fetch_optional(db)
            .await?;
    row.map(|(c,)| ChannelId::try_from(c).map_err(|e| StorageError::Corrupt(e.to_string())))
        .transpose()
}

/// A server's daily puzzle.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Daily {
    /// The server.
    pub guild_id: i64,
    /// The UTC day, in days since 1970-01-01.
    pub day: i64,
    /// The puzzle.
    pub puzzle_id: String,
    /// Where it is posted.
    pub channel_id: i64,
    /// Its post, once posted.
    pub message_id: Option<i64>,
}

/// The servers with a daily puzzle channel and no daily puzzle for `day` yet: (server,
/// channel).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn dailies_due<'a>(
    on: impl Into<super::sql::On<'a>>,
    day: i64,
) -> Result<Vec<(i64, i64)>, StorageError> {
    Ok(query(
        "SELECT c.guild_id, c.channel_id FROM guild_puzzle_channels c
         WHERE NOT EXISTS (SELECT 1 FROM daily_puzzles d WHERE d.guild_id = c.guild_id AND d.day = $1)
         ORDER BY c.guild_id",
    )
    .bind(day)
    .fetch_all(on)
    .await?)
}

/// Records `puzzle` as server `guild`'s daily puzzle of `day` in `channel`, unless one is
/// recorded already (another process's sweep); returns whether this one was.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn add_daily(
    tx: &mut Tx,
    guild: i64,
    day: i64,
    puzzle: &str,
    channel: i64,
) -> Result<bool, StorageError> {
    let done = query(
        "INSERT INTO daily_puzzles (guild_id, day, puzzle_id, channel_id) VALUES ($1, $2, $3, $4)
         ON CONFLICT (guild_id, day) DO NOTHING",
    )
    .bind(guild)
    .bind(day)
    .bind(puzzle)
    .bind(channel)
    .execute(&mut *tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Server `guild`'s daily puzzle of `day`, if any.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn daily<'a>(
    on: impl Into<super::sql::On<'a>>,
    guild: i64,
    day: i64,
) -> Result<Option<Daily>, StorageError> {
    Ok(
        query("SELECT * FROM daily_puzzles WHERE guild_id = $1 AND day = $2")
            .bind(guild)
            .bind(day)
            .fetch_optional(on)
            .await?,
    )
}

/// Records the post of server `guild`'s daily puzzle of `day`.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn set_daily_message(
    db: &Db,
    guild: i64,
    day: i64,
    message: MessageId,
) -> Result<(), StorageError> {
    query("UPDATE daily_puzzles SET message_id = $1 WHERE guild_id = $2 AND day = $3")
        .bind(message)
        .bind(guild)
        .bind(day)
        .execute(db)
        .await?;
    Ok(())
}

/// How many players solved `puzzle` from server `guild`'s daily post (tries opened by
/// its button), and how many tried it.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn daily_results<'a>(
    on: impl Into<super::sql::On<'a>>,
    guild: i64,
    puzzle: &str,
) -> Result<(i64, i64), StorageError> {
    let (solved, tried): (i64, i64) = query(
        "SELECT COUNT(DISTINCT CASE WHEN state = 'solved' THEN user_id END), COUNT(DISTINCT user_id)
         FROM puzzle_attempts WHERE puzzle_id = $1 AND guild_id = $2",
    )
    .bind(puzzle)
    .bind(guild)
    .fetch_one(on)
    .await?;
    Ok((solved, tried))
}
