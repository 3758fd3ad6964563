//! The `ratings` and `rating_changes` tables (migration 0006): each player's
//! Glicko-2 rating and record per variant, and the change every rated game made.
//!
//! A game's change is written by [`record`] inside the transaction that ends the game. Its
//! rows are keyed by (game, colour), so a second application to the same game writes
//! nothing ([`record`] then returns `false` and leaves the ratings alone): exactly once,
//! whoever ends the game. Two games of one player ending at the same moment are two write
//! transactions (`BEGIN IMMEDIATE`), one after the other: the second reads the rating the
//! first wrote, so both count, in commit order.

use super::sql::{On, query};
use kaboom_rules::{Color, Variant};

use super::{Db, StorageError, Tx, parse_stored};
use kaboom_domain::ids::{GameId, UserId};
use kaboom_domain::rating::Glicko;

/// A player's rating and record in one variant.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRating {
    /// The player.
    pub user_id: UserId,
    /// The variant.
    pub variant: Variant,
    /// The name they last played a rated game under.
    pub name: String,
    /// The rating now.
    pub glicko: Glicko,
    /// Rated games played.
    pub games: i64,
    /// Rated games won.
    pub wins: i64,
    /// Rated games drawn.
    pub draws: i64,
    /// Rated games lost.
    pub losses: i64,
    /// When the last rated game ended (Unix seconds).
    pub updated_at: i64,
}

/// One side's change in one rated game.
#[derive(Clone, Debug, PartialEq)]
pub struct SideChange {
    /// The player.
    pub user_id: UserId,
    /// Their name in the game.
    pub name: String,
    /// Their side.
    pub color: Color,
    /// Their score: 1 win, 0.5 draw, 0 loss.
    pub score: f64,
    /// The rating before the game.
    pub before: Glicko,
    /// The rating after it.
    pub after: Glicko,
}

impl SideChange {
    /// The change as shown: the difference of the shown ratings (`+17`, `-3`, `+0`).
    pub fn diff(&self) -> i64 {
        self.after.shown() - self.before.shown()
    }
}

/// What a rated game did to both players' ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct GameChange {
    /// The game.
    pub game_id: GameId,
    /// Its variant.
    pub variant: Variant,
    /// White's change.
    pub white: SideChange,
    /// Black's change.
    pub black: SideChange,
}

impl GameChange {
    /// `color`'s change.
    pub fn side(&self, color: Color) -> &SideChange {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

fn variant_of(s: &str) -> Result<Variant, StorageError> {
    s.parse()
        .map_err(|e| StorageError::Corrupt(format!("rating variant '{s}': {e}")))
}

/// A `ratings` row as stored: a [`PlayerRating`] once its variant is read.
#[derive(sqlx::FromRow)]
struct StoredRating {
    #[sqlx(try_from = "i64")]
    user_id: UserId,
    variant: String,
    name: String,
    rating: f64,
    deviation: f64,
    volatility: f64,
    games: i64,
    wins: i64,
    draws: i64,
    losses: i64,
    updated_at: i64,
}

impl TryFrom<StoredRating> for PlayerRating {
    type Error = StorageError;
    /// # Errors
    /// [`StorageError::Corrupt`] for an unknown variant.
    fn try_from(r: StoredRating) -> Result<PlayerRating, StorageError> {
        Ok(PlayerRating {
            user_id: r.user_id,
            variant: variant_of(&r.variant)?,
            name: r.name,
            glicko: Glicko {
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
            },
            games: r.games,
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
            updated_at: r.updated_at,
        })
    }
}

/// `user`'s rating in `variant` inside `tx`, if they have played a rated game of it.
///
/// # Errors
/// [`StorageError`] on a database failure or a row that does not read.
pub async fn get_tx(
    tx: &mut Tx,
    user: UserId,
    variant: Variant,
) -> Result<Option<PlayerRating>, StorageError> {
    query("SELECT * FROM ratings WHERE user_id = $1 AND variant = $2")
        .bind(user)
        .bind(variant.name())
        .fetch_optional::<StoredRating>(&mut *tx)
        .await?
        .map(PlayerRating::try_from)
        .transpose()
}

/// Writes `change` inside `tx` (the transaction that ended the game): its two
/// `rating_changes` rows, then both players' ratings and records. Returns `false`, and
/// changes nothing, when the game's change was already written.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn record(tx: &mut Tx, change: &GameChange, now: i64) -> Result<bool, StorageError> {
    for side in [&change.white, &change.black] {
        let done = query(
            "INSERT INTO rating_changes (game_id, color, user_id, variant, score, rating_before,
                deviation_before, volatility_before, rating_after, deviation_after,
                volatility_after, rated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
             ON CONFLICT (game_id, color) DO NOTHING",
        )
        .bind(change.game_id)
        .bind(side.color.name())
        .bind(side.user_id)
        .bind(change.variant.name())
        .bind(side.score)
        .bind(side.before.rating)
        .bind(side.before.deviation)
        .bind(side.before.volatility)
        .bind(side.after.rating)
        .bind(side.after.deviation)
        .bind(side.after.volatility)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            // Written before (White's row first, in the same transaction as Black's).
            return Ok(false);
        }
    }
    for side in [&change.white, &change.black] {
        let (w, d, l) = match side.score {
            s if s > 0.75 => (1, 0, 0),
            s if s < 0.25 => (0, 0, 1),
            _ => (0, 1, 0),
        };
        query(
            "INSERT INTO ratings (user_id, variant, name, rating, deviation, volatility, games,
                wins, draws, losses, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8, $9, $10)
             ON CONFLICT (user_id, variant) DO UPDATE SET name = excluded.name,
                rating = excluded.rating, deviation = excluded.deviation,
                volatility = excluded.volatility, games = ratings.games + 1,
                wins = ratings.wins + excluded.wins, draws = ratings.draws + excluded.draws,
                losses = ratings.losses + excluded.losses, updated_at = excluded.updated_at",
        )
        .bind(side.user_id)
        .bind(change.variant.name())
        .bind(&side.name)
        .bind(side.after.rating)
        .bind(side.after.deviation)
        .bind(side.after.volatility)
        .bind(w)
        .bind(d)
        .bind(l)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    Ok(true)
}

/// A `rating_changes` row as stored.
#[derive(sqlx::FromRow)]
struct StoredChange {
    game_id: i64,
    color: String,
    #[sqlx(try_from = "i64")]
    user_id: UserId,
    variant: String,
    score: f64,
    rating_before: f64,
    deviation_before: f64,
    volatility_before: f64,
    rating_after: f64,
    deviation_after: f64,
    volatility_after: f64,
}

impl StoredChange {
    /// The side's change, its player named `name`.
    ///
    /// # Errors
    /// [`StorageError::Corrupt`] for an unknown colour.
    fn side(&self, name: &str) -> Result<SideChange, StorageError> {
        Ok(SideChange {
            user_id: self.user_id,
            name: name.to_string(),
            color: parse_stored("rating change colour", &self.color)?,
            score: self.score,
            before: Glicko {
                rating: self.rating_before,
                deviation: self.deviation_before,
                volatility: self.volatility_before,
            },
            after: Glicko {
                rating: self.rating_after,
                deviation: self.deviation_after,
                volatility: self.volatility_after,
            },
        })
    }
}

/// A row of [`CHANGE_OF_GAME`]: a change and the game's players' names.
#[derive(sqlx::FromRow)]
struct StoredChangeOfGame {
    #[sqlx(flatten)]
    change: StoredChange,
    white_name: String,
    black_name: String,
}

const CHANGE_OF_GAME: &str = "SELECT c.*, g.white_name, g.black_name FROM rating_changes c
     JOIN games g ON g.id = c.game_id WHERE c.game_id = $1 ORDER BY c.color DESC";

fn change_from_rows(
    game_id: GameId,
    rows: &[StoredChangeOfGame],
) -> Result<Option<GameChange>, StorageError> {
    let mut white = None;
    let mut black = None;
    let mut variant = None;
    for row in rows {
        variant = Some(variant_of(&row.change.variant)?);
        if row.change.color == "white" {
            white = Some(row.change.side(&row.white_name)?);
        } else {
            black = Some(row.change.side(&row.black_name)?);
        }
    }
    Ok(match (white, black, variant) {
        (Some(white), Some(black), Some(variant)) => Some(GameChange {
            game_id,
            variant,
            white,
            black,
        }),
        _ => None,
    })
}

/// The rating change game `game_id` made (`None`: it was not rated), on the pool or inside
/// a transaction.
///
/// # Errors
/// [`StorageError`] on a database failure or a row that does not read.
pub async fn change_of_game<'a>(
    on: impl Into<On<'a>>,
    game_id: GameId,
) -> Result<Option<GameChange>, StorageError> {
    let rows: Vec<StoredChangeOfGame> = query(CHANGE_OF_GAME).bind(game_id).fetch_all(on).await?;
    change_from_rows(game_id, &rows)
}

/// `user`'s changes in games `ids` (those that were rated), as (game, change).
///
/// # Errors
/// [`StorageError`] on a database failure or a row that does not read.
pub async fn changes_of_user(
    db: &Db,
    user: UserId,
    ids: &[GameId],
) -> Result<Vec<(GameId, SideChange)>, StorageError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut q = query("SELECT * FROM rating_changes WHERE user_id = ");
    q.push_bind(user).push(" AND game_id IN (");
    for (i, id) in ids.iter().enumerate() {
        if i > 0 {
            q.push(", ");
        }
        q.push_bind(*id);
    }
    q.push(")");
    let rows: Vec<StoredChange> = q.build().fetch_all(db).await?;
    rows.iter()
        .map(|r| Ok((GameId::from(r.game_id), r.side("")?)))
        .collect()
}

/// `user`'s ratings, one per variant they have played rated, in variant order.
///
/// # Errors
/// [`StorageError`] on a database failure or a row that does not read.
pub async fn of_user(db: &Db, user: UserId) -> Result<Vec<PlayerRating>, StorageError> {
    let rows: Vec<StoredRating> = query("SELECT * FROM ratings WHERE user_id = $1")
        .bind(user)
        .fetch_all(db)
        .await?;
    let mut all = rows
        .into_iter()
        .map(PlayerRating::try_from)
        .collect::<Result<Vec<_>, _>>()?;
    all.sort_by_key(|r| Variant::ALL.iter().position(|v| *v == r.variant));
    Ok(all)
}

/// The `limit` best established (not provisional, deviation at most `max_deviation`)
/// players of `variant`: highest rating first, then more games, then the lower user id.
///
/// # Errors
/// [`StorageError`] on a database failure or a row that does not read.
pub async fn top(
    db: &Db,
    variant: Variant,
    max_deviation: f64,
    limit: i64,
) -> Result<Vec<PlayerRating>, StorageError> {
    let rows: Vec<StoredRating> = query(
        "SELECT * FROM ratings WHERE variant = $1 AND deviation <= $2
         ORDER BY rating DESC, games DESC, user_id LIMIT $3",
    )
    .bind(variant.name())
    .bind(max_deviation)
    .bind(limit)
    .fetch_all(db)
    .await?;
    rows.into_iter().map(PlayerRating::try_from).collect()
}

/// `rating`'s rank among the established players of its variant (1 = best), by the order
/// of [`top`]; `None` when it is provisional (deviation above `max_deviation`).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn rank(
    db: &Db,
    rating: &PlayerRating,
    max_deviation: f64,
) -> Result<Option<i64>, StorageError> {
    if rating.glicko.deviation > max_deviation {
        return Ok(None);
    }
    let (ahead,): (i64,) = query(
        "SELECT COUNT(*) AS ahead FROM ratings WHERE variant = $1 AND deviation <= $2
           AND (rating > $3 OR (rating = $4 AND (games > $5 OR (games = $6 AND user_id < $7))))",
    )
    .bind(rating.variant.name())
    .bind(max_deviation)
    .bind(rating.glicko.rating)
    .bind(rating.glicko.rating)
    .bind(rating.games)
    .bind(rating.games)
    .bind(rating.user_id)
    .fetch_one(db)
    .await?;
    Ok(Some(ahead + 1))
}

/// How many players of `variant` are established (deviation at most `max_deviation`) and
/// how many provisional.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn counts(
    db: &Db,
    variant: Variant,
    max_deviation: f64,
) -> Result<(i64, i64), StorageError> {
    let (established, total): (i64, i64) = query(
        "SELECT COALESCE(SUM(CASE WHEN deviation <= $1 THEN 1 ELSE 0 END), 0) AS established,
                COUNT(*) AS total
         FROM ratings WHERE variant = $2",
    )
    .bind(max_deviation)
    .bind(variant.name())
    .fetch_one(db)
    .await?;
    Ok((established, total - established))
}
