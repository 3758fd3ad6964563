//! The `challenges` table: open, accepted, declined and cancelled challenges.

use std::str::FromStr;

use super::sql::{On, Row, query};
use kaboom_rules::{GameOptions, Variant};

use super::{Db, StorageError, Tx};
use kaboom_domain::ids::{ChannelId, GameId, GuildId, MessageId, UserId};

/// The colour the challenger asked for.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum ColorChoice {
    /// The challenger plays White.
    White,
    /// The challenger plays Black.
    Black,
    /// Drawn at random when the challenge is accepted.
    Random,
}

impl ColorChoice {
    /// `white`, `black` or `random` (stored form).
    pub fn name(self) -> &'static str {
        match self {
            ColorChoice::White => "white",
            ColorChoice::Black => "black",
            ColorChoice::Random => "random",
        }
    }
}

impl FromStr for ColorChoice {
    type Err = StorageError;
    fn from_str(s: &str) -> Result<ColorChoice, StorageError> {
        match s {
            "white" => Ok(ColorChoice::White),
            "black" => Ok(ColorChoice::Black),
            "random" => Ok(ColorChoice::Random),
            other => Err(StorageError::Corrupt(format!("colour choice '{other}'"))),
        }
    }
}

/// Where a challenge stands.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum ChallengeState {
    /// Waiting for an opponent.
    Open,
    /// Accepted: a game exists.
    Accepted,
    /// The named opponent declined.
    Declined,
    /// The challenger withdrew it.
    Cancelled,
    /// Nobody accepted it in time (scheduler hook).
    Expired,
}

impl ChallengeState {
    fn name(self) -> &'static str {
        match self {
            ChallengeState::Open => "open",
            ChallengeState::Accepted => "accepted",
            ChallengeState::Declined => "declined",
            ChallengeState::Cancelled => "cancelled",
            ChallengeState::Expired => "expired",
        }
    }
    fn parse(s: &str) -> Result<ChallengeState, StorageError> {
        Ok(match s {
            "open" => ChallengeState::Open,
            "accepted" => ChallengeState::Accepted,
            "declined" => ChallengeState::Declined,
            "cancelled" => ChallengeState::Cancelled,
            "expired" => ChallengeState::Expired,
            other => return Err(StorageError::Corrupt(format!("challenge state '{other}'"))),
        })
    }
}

/// A challenge to be stored.
#[derive(Clone, Debug)]
pub struct NewChallenge {
    /// The server, if any.
    pub guild_id: Option<GuildId>,
    /// The channel the challenge was posted in (the game thread is made there).
    pub channel_id: ChannelId,
    /// Who challenges.
    pub challenger_id: UserId,
    /// Their display name (for thread names and PGN).
    pub challenger_name: String,
    /// The only user who may accept; `None`: anyone but the challenger.
    pub opponent_id: Option<UserId>,
    /// The variant.
    pub variant: Variant,
    /// Variant options (Beirut carriers, Dead Man's Switch).
    pub options: GameOptions,
    /// Days per move; `None`: no time limit.
    pub days_per_move: Option<u32>,
    /// The challenger's colour.
    pub color: ColorChoice,
    /// Whether the game will be rated.
    pub rated: bool,
}

/// A stored challenge.
#[derive(Clone, Debug)]
pub struct Challenge {
    /// Its id (in component custom ids).
    pub id: i64,
    /// Its message, once posted.
    pub message_id: Option<MessageId>,
    /// Where it stands.
    pub state: ChallengeState,
    /// The game, once accepted.
    pub game_id: Option<GameId>,
    /// When it was made (Unix seconds): it expires after the scheduler's challenge TTL.
    pub created_at: i64,
    /// What was asked.
    pub spec: NewChallenge,
}

fn from_row(row: &Row) -> Result<Challenge, StorageError> {
    let variant: String = row.try_get("variant")?;
    let color: String = row.try_get("color")?;
    let state: String = row.try_get("state")?;
    Ok(Challenge {
        id: row.try_get("id")?,
        message_id: row.try_get("message_id")?,
        state: ChallengeState::parse(&state)?,
        game_id: row.try_get("game_id")?,
        created_at: row.try_get("created_at")?,
        spec: NewChallenge {
            guild_id: row.try_get("guild_id")?,
            channel_id: row.try_get("channel_id")?,
            challenger_id: row.try_get("challenger_id")?,
            challenger_name: row.try_get("challenger_name")?,
            opponent_id: row.try_get("opponent_id")?,
            variant: Variant::from_str(&variant)
                .map_err(|e| StorageError::Corrupt(e.to_string()))?,
            options: GameOptions {
                carriers: row.try_get::<i64, _>("carriers")? as u8,
                dead_mans_switch: row.try_get("dead_mans_switch")?,
            },
            days_per_move: row
                .try_get::<Option<i64>, _>("days_per_move")?
                .map(|d| d as u32),
            color: color.parse()?,
            rated: row.try_get("rated")?,
        },
    })
}

/// Stores a new open challenge, on the pool or inside a transaction (a rematch, written with
/// its outbox entry), and returns its id.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn insert<'a>(
    on: impl Into<On<'a>>,
    c: &NewChallenge,
    now: i64,
) -> Result<i64, StorageError> {
    let row = query(
        "INSERT INTO challenges (guild_id, channel_id, challenger_id, challenger_name, opponent_id,
            variant, carriers, dead_mans_switch, days_per_move, color, rated, state, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'open', $12) RETURNING id",
    )
    .bind(c.guild_id)
    .bind(c.channel_id)
    .bind(c.challenger_id)
    .bind(&c.challenger_name)
    .bind(c.opponent_id)
    .bind(c.variant.name())
    .bind(i64::from(c.options.carriers))
    .bind(c.options.dead_mans_switch)
    .bind(c.days_per_move.map(i64::from))
    .bind(c.color.name())
    .bind(c.rated)
    .bind(now)
    .fetch_one(on)
    .await?;
    Ok(row.try_get("id")?)
}

/// Loads a challenge.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn get(db: &Db, id: i64) -> Result<Option<Challenge>, StorageError> {
    query("SELECT * FROM challenges WHERE id = $1")
        .bind(id)
        .fetch_optional(db)
        .await?
        .as_ref()
        .map(from_row)
        .transpose()
}

/// Loads a challenge inside a transaction.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn get_tx(tx: &mut Tx, id: i64) -> Result<Option<Challenge>, StorageError> {
    query("SELECT * FROM challenges WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?
        .as_ref()
        .map(from_row)
        .transpose()
}

/// Records the message that shows the challenge.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn set_message(db: &Db, id: i64, message_id: MessageId) -> Result<(), StorageError> {
    query("UPDATE challenges SET message_id = $1 WHERE id = $2")
        .bind(message_id)
        .bind(id)
        .execute(db)
        .await?;
    Ok(())
}

/// Moves an open challenge to `state` (and links its game); `false` when it was no longer open.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn close(
    tx: &mut Tx,
    id: i64,
    state: ChallengeState,
    game_id: Option<GameId>,
) -> Result<bool, StorageError> {
    let done =
        query("UPDATE challenges SET state = $1, game_id = $2 WHERE id = $3 AND state = 'open'")
            .bind(state.name())
            .bind(game_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
    Ok(done.rows_affected() == 1)
}
