//! The `challenges` table: open, accepted, declined and cancelled challenges.

use std::str::FromStr;

use super::games::id_of;
use super::sql::{On, query};
use kaboom_rules::{GameOptions, Variant};

use super::{Db, StorageError, Tx, parse_stored};
use kaboom_domain::ids::{ChannelId, GameId, GuildId, MessageId, UserId};

pub use kaboom_domain::game::Venue;

/// The colour the challenger asked for; stored as its name ([`ColorChoice::name`], and
/// `FromStr` back).
#[derive(Copy, Clone, Eq, PartialEq, Debug, strum::EnumString, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
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
        self.into()
    }
}

/// Where a challenge stands; stored as its name (`open`, `accepted`, ...).
#[derive(Copy, Clone, Eq, PartialEq, Debug, strum::EnumString, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
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
    /// Where the game will be played ([`Venue::Seek`]: a seek, listed by `/seeks`).
    pub venue: Venue,
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

/// A `challenges` row as stored: a [`Challenge`] once its text columns are read.
#[derive(sqlx::FromRow)]
struct StoredChallenge {
    id: i64,
    message_id: Option<i64>,
    state: String,
    game_id: Option<i64>,
    created_at: i64,
    guild_id: Option<i64>,
    #[sqlx(try_from = "i64")]
    channel_id: ChannelId,
    #[sqlx(try_from = "i64")]
    challenger_id: UserId,
    challenger_name: String,
    opponent_id: Option<i64>,
    variant: String,
    carriers: i64,
    dead_mans_switch: bool,
    days_per_move: Option<i64>,
    color: String,
    rated: bool,
    venue: String,
}

impl TryFrom<StoredChallenge> for Challenge {
    type Error = StorageError;
    /// The row's text columns read (state, variant, colour).
    ///
    /// # Errors
    /// [`StorageError::Corrupt`] for one that does not read.
    fn try_from(c: StoredChallenge) -> Result<Challenge, StorageError> {
        Ok(Challenge {
            id: c.id,
            message_id: id_of(c.message_id)?,
            state: parse_stored("challenge state", &c.state)?,
            game_id: c.game_id.map(GameId::from),
            created_at: c.created_at,
            spec: NewChallenge {
                guild_id: id_of(c.guild_id)?,
                channel_id: c.channel_id,
                challenger_id: c.challenger_id,
                challenger_name: c.challenger_name,
                opponent_id: id_of(c.opponent_id)?,
                variant: Variant::from_str(&c.variant)
                    .map_err(|e| StorageError::Corrupt(e.to_string()))?,
                options: GameOptions {
                    carriers: c.carriers as u8,
                    dead_mans_switch: c.dead_mans_switch,
                },
                days_per_move: c.days_per_move.map(|d| d as u32),
                color: parse_stored("colour choice", &c.color)?,
                rated: c.rated,
                venue: parse_stored("venue", &c.venue)?,
            },
        })
    }
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
            variant, carriers, dead_mans_switch, days_per_move, color, rated, state, created_at,
            venue)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'open', $12, $13) RETURNING id",
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
    .bind(c.venue.name())
    .fetch_one::<(i64,)>(on)
    .await?;
    Ok(row.0)
}

/// Loads a challenge, on the pool or inside a transaction.
///
/// # Errors
/// [`StorageError`] on a database failure (a column that does not decode is
/// [`sqlx::Error::ColumnDecode`]); [`StorageError::Corrupt`] for an unknown state, variant
/// or colour.
pub async fn get<'a>(on: impl Into<On<'a>>, id: i64) -> Result<Option<Challenge>, StorageError> {
    query("SELECT * FROM challenges WHERE id = $1")
        .bind(id)
        .fetch_optional::<StoredChallenge>(on)
        .await?
        .map(Challenge::try_from)
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
            .bind(<&str>::from(state))
            .bind(game_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
    Ok(done.rows_affected() == 1)
}

/// Up to `limit` open seeks, oldest first (index `challenges_open_seeks`): of `variant`
/// only when given, and never those of `except` (a player's own seeks are not theirs to
/// accept).
///
/// # Errors
/// [`StorageError`] on a database failure; [`StorageError::Corrupt`] for a row that does
/// not read.
pub async fn open_seeks(
    db: &Db,
    variant: Option<Variant>,
    except: UserId,
    limit: i64,
) -> Result<Vec<Challenge>, StorageError> {
    query(
        "SELECT * FROM challenges
         WHERE venue = 'seek' AND opponent_id IS NULL AND state = 'open' AND challenger_id <> $1
           AND ($2 IS NULL OR variant = $2)
         ORDER BY created_at, id LIMIT $3",
    )
    .bind(except)
    .bind(variant.map(Variant::name))
    .bind(limit)
    .fetch_all::<StoredChallenge>(db)
    .await?
    .into_iter()
    .map(Challenge::try_from)
    .collect()
}

/// The open seeks of `user`, oldest first.
///
/// # Errors
/// As [`open_seeks`].
pub async fn seeks_of<'a>(
    on: impl Into<On<'a>>,
    user: UserId,
) -> Result<Vec<Challenge>, StorageError> {
    query(
        "SELECT * FROM challenges WHERE venue = 'seek' AND opponent_id IS NULL AND state = 'open' AND challenger_id = $1
         ORDER BY created_at, id",
    )
    .bind(user)
    .fetch_all::<StoredChallenge>(on)
    .await?
    .into_iter()
    .map(Challenge::try_from)
    .collect()
}

/// How many open challenges `user` made in server `guild` (`None`: outside servers) that
/// are not seeks (rematches included).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn open_challenges_of<'a>(
    on: impl Into<On<'a>>,
    user: UserId,
    guild: Option<GuildId>,
) -> Result<i64, StorageError> {
    let (n,): (i64,) = query(
        "SELECT COUNT(*) FROM challenges WHERE challenger_id = $1 AND state = 'open'
           AND guild_id IS NOT DISTINCT FROM $2
           AND NOT (venue = 'seek' AND opponent_id IS NULL)",
    )
    .bind(user)
    .bind(guild)
    .fetch_one(on)
    .await?;
    Ok(n)
}
