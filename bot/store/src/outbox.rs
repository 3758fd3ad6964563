//! The `discord_outbox` table: the Discord side effects of committed changes,
//! written in the change's own transaction ([`insert`]) and marked as the deliverer posts
//! them. See `migrations/0004_discord_outbox.sql` and `0005_one_outbox.sql` (the scheduler's
//! announcements and nudges joined it, with `challenge_id`).

use super::games::id_of;
use super::sql::query;

use super::{Db, Engine, StorageError, Tx};
use kaboom_domain::ids::{ChannelId, GameId, MessageId};

/// An effect to write with a change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewEffect {
    /// The game it belongs to (`None`: a challenge only).
    pub game_id: Option<GameId>,
    /// The challenge it belongs to (the challenge message's edits), if any.
    pub challenge_id: Option<i64>,
    /// The league it belongs to (its sign-up post, rounds and standings), if any.
    pub league_id: Option<i64>,
    /// The effect's kind (`thread`, `board`, `announcement`, `nudge`, ...: the tag of
    /// `discord::outbox::Effect`).
    pub kind: String,
    /// What to post, as JSON text.
    pub payload: String,
}

/// A stored effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its id (the delivery order within a game).
    pub id: i64,
    /// The game.
    pub game_id: Option<GameId>,
    /// The challenge.
    pub challenge_id: Option<i64>,
    /// The league.
    pub league_id: Option<i64>,
    /// The kind.
    pub kind: String,
    /// The payload (JSON text).
    pub payload: String,
    /// The Create Message nonce (unique, at most 25 characters).
    pub nonce: String,
    /// Failed deliveries so far.
    pub attempts: i64,
    /// Not to be tried before (Unix s).
    pub next_attempt_at: i64,
    /// The message Discord created, once delivered.
    pub message_id: Option<MessageId>,
    /// The thread Discord created, once delivered.
    pub thread_id: Option<ChannelId>,
    /// When it was delivered.
    pub delivered_at: Option<i64>,
    /// When it was given up.
    pub failed_at: Option<i64>,
    /// The last delivery error.
    pub last_error: Option<String>,
}

/// A `discord_outbox` row as stored: an [`Entry`] once its Discord ids are read.
#[derive(sqlx::FromRow)]
struct StoredEntry {
    id: i64,
    game_id: Option<i64>,
    challenge_id: Option<i64>,
    league_id: Option<i64>,
    kind: String,
    payload: String,
    nonce: String,
    attempts: i64,
    next_attempt_at: i64,
    message_id: Option<i64>,
    thread_id: Option<i64>,
    delivered_at: Option<i64>,
    failed_at: Option<i64>,
    last_error: Option<String>,
}

impl TryFrom<StoredEntry> for Entry {
    type Error = StorageError;
    /// # Errors
    /// [`StorageError::Corrupt`] for a stored Discord id that is not a snowflake.
    fn try_from(r: StoredEntry) -> Result<Entry, StorageError> {
        Ok(Entry {
            id: r.id,
            game_id: r.game_id.map(GameId::from),
            challenge_id: r.challenge_id,
            league_id: r.league_id,
            kind: r.kind,
            payload: r.payload,
            nonce: r.nonce,
            attempts: r.attempts,
            next_attempt_at: r.next_attempt_at,
            message_id: id_of(r.message_id)?,
            thread_id: id_of(r.thread_id)?,
            delivered_at: r.delivered_at,
            failed_at: r.failed_at,
            last_error: r.last_error,
        })
    }
}

/// `rows` as entries.
fn entries(rows: Vec<StoredEntry>) -> Result<Vec<Entry>, StorageError> {
    rows.into_iter().map(Entry::try_from).collect()
}

/// A fresh nonce: `kb` and 20 hex digits of OS randomness (22 characters; Discord allows 25).
fn fresh_nonce() -> Result<String, StorageError> {
    let mut b = [0u8; 10];
    getrandom::fill(&mut b).map_err(|e| StorageError::Corrupt(format!("no randomness: {e}")))?;
    Ok(format!(
        "kb{}",
        b.iter().map(|x| format!("{x:02x}")).collect::<String>()
    ))
}

/// Rows per multi-row insert (9 parameters each, far below SQLite's limit).
const CHUNK: usize = 200;

/// Writes `effects` inside the change's transaction `tx`, due at once (`now`, Unix s), in
/// one multi-row insert per [`CHUNK`] effects. Their ids follow the order of `effects` (an
/// `INTEGER PRIMARY KEY` grows with each row of the statement), which is their delivery
/// order.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn insert(tx: &mut Tx, effects: &[NewEffect], now: i64) -> Result<(), StorageError> {
    for chunk in effects.chunks(CHUNK) {
        let nonces = chunk
            .iter()
            .map(|_| fresh_nonce())
            .collect::<Result<Vec<_>, _>>()?;
        let mut q = query(
            "INSERT INTO discord_outbox (game_id, challenge_id, league_id, kind, payload, nonce,
                attempts, next_attempt_at, created_at) ",
        );
        q.push_values(chunk.iter().zip(nonces), |mut b, (e, nonce)| {
            b.push_bind(e.game_id)
                .push_bind(e.challenge_id)
                .push_bind(e.league_id)
                .push_bind(e.kind.clone())
                .push_bind(e.payload.clone())
                .push_bind(nonce)
                .push_bind(0_i64)
                .push_bind(now)
                .push_bind(now);
        });
        q.build().execute(&mut *tx).await?;
    }
    Ok(())
}

/// Every entry neither delivered nor given up, in delivery order.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn pending(db: &Db) -> Result<Vec<Entry>, StorageError> {
    entries(
        query(
            "SELECT * FROM discord_outbox WHERE delivered_at IS NULL AND failed_at IS NULL ORDER BY id",
        )
        .fetch_all(db)
        .await?,
    )
}

/// One entry.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn get(db: &Db, id: i64) -> Result<Option<Entry>, StorageError> {
    query("SELECT * FROM discord_outbox WHERE id = $1")
        .bind(id)
        .fetch_optional::<StoredEntry>(db)
        .await?
        .map(Entry::try_from)
        .transpose()
}

/// Game `game_id`'s entries, in order.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn for_game(db: &Db, game_id: GameId) -> Result<Vec<Entry>, StorageError> {
    entries(
        query("SELECT * FROM discord_outbox WHERE game_id = $1 ORDER BY id")
            .bind(game_id)
            .fetch_all(db)
            .await?,
    )
}

/// The kind of a board entry: a game's new board ([`board_upto`] finds the newest).
pub const BOARD_KIND: &str = "board";

/// Which entries [`undelivered_upto`] looks at: a game's, a challenge's or a league's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// Game `0`'s entries.
    Game(GameId),
    /// Challenge `0`'s entries.
    Challenge(i64),
    /// League `0`'s entries.
    League(i64),
}

impl Owner {
    fn column_and_id(self) -> (&'static str, i64) {
        match self {
            Owner::Game(id) => ("game_id", i64::from(id)),
            Owner::Challenge(id) => ("challenge_id", id),
            Owner::League(id) => ("league_id", id),
        }
    }
}

/// `owner`'s entries up to id `upto` that are not delivered yet (failed or given up ones
/// included), in order: what a command waiting for its posts still waits for. Usually
/// none or one row, read through the pending index.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn undelivered_upto(
    db: &Db,
    owner: Owner,
    upto: i64,
) -> Result<Vec<Entry>, StorageError> {
    let (column, id) = owner.column_and_id();
    entries(
        query(format!(
            "SELECT * FROM discord_outbox WHERE {column} = $1 AND id <= $2 AND delivered_at IS NULL
             ORDER BY id"
        ))
        .bind(id)
        .bind(upto)
        .fetch_all(db)
        .await?,
    )
}

/// Where game `game_id`'s posts go and its newest delivered board entry up to id `upto`,
/// in one statement: `(thread, channel, board message)`; `None` when the game is gone.
///
/// # Errors
/// [`StorageError`] on a database failure; [`StorageError::Corrupt`] for an id that does
/// not read.
pub async fn board_upto(
    db: &Db,
    game_id: GameId,
    upto: i64,
) -> Result<Option<(Option<ChannelId>, ChannelId, Option<MessageId>)>, StorageError> {
    let found: Option<(Option<i64>, i64, Option<i64>)> = query(
        "SELECT g.thread_id, g.channel_id,
                (SELECT o.message_id FROM discord_outbox o
                 WHERE o.game_id = $1 AND o.id <= $2 AND o.kind = 'board'
                   AND o.delivered_at IS NOT NULL
                 ORDER BY o.id DESC LIMIT 1) AS board
         FROM games g WHERE g.id = $3",
    )
    .bind(game_id)
    .bind(upto)
    .bind(game_id)
    .fetch_optional(db)
    .await?;
    let Some((thread, channel, board)) = found else {
        return Ok(None);
    };
    let channel = ChannelId::try_from(channel).map_err(|e| StorageError::Corrupt(e.to_string()))?;
    Ok(Some((id_of(thread)?, channel, id_of(board)?)))
}

/// The messages of game `game_id`'s prompts (takeback proposals, kind `prompt`) delivered
/// before entry `before` whose buttons are still up: those after the game's last delivered
/// entry that takes them down (a board, a game's end or a `close-prompts`) before `before`.
/// Oldest first.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn open_prompts(
    db: &Db,
    game_id: GameId,
    before: i64,
) -> Result<Vec<MessageId>, StorageError> {
    let rows: Vec<(i64,)> = query(
        "SELECT message_id FROM discord_outbox
         WHERE game_id = $1 AND id < $2 AND kind = 'prompt'
           AND delivered_at IS NOT NULL AND message_id IS NOT NULL
           AND id > COALESCE((SELECT MAX(id) FROM discord_outbox
                              WHERE game_id = $3 AND id < $4 AND delivered_at IS NOT NULL
                                AND kind IN ('board', 'game-ended', 'close-prompts')), 0)
         ORDER BY id",
    )
    .bind(game_id)
    .bind(before)
    .bind(game_id)
    .bind(before)
    .fetch_all(db)
    .await?;
    rows.into_iter()
        .map(|(m,)| MessageId::try_from(m).map_err(|e| StorageError::Corrupt(e.to_string())))
        .collect()
}

/// Challenge `challenge_id`'s entries, in order.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn for_challenge(db: &Db, challenge_id: i64) -> Result<Vec<Entry>, StorageError> {
    entries(
        query("SELECT * FROM discord_outbox WHERE challenge_id = $1 ORDER BY id")
            .bind(challenge_id)
            .fetch_all(db)
            .await?,
    )
}

/// League `league_id`'s entries, in order.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn for_league(db: &Db, league_id: i64) -> Result<Vec<Entry>, StorageError> {
    entries(
        query("SELECT * FROM discord_outbox WHERE league_id = $1 ORDER BY id")
            .bind(league_id)
            .fetch_all(db)
            .await?,
    )
}

/// Records that entry `id` was posted (with the ids Discord gave) at `now`.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn mark_delivered(
    db: &Db,
    id: i64,
    message_id: Option<MessageId>,
    thread_id: Option<ChannelId>,
    now: i64,
) -> Result<(), StorageError> {
    query(
        "UPDATE discord_outbox SET delivered_at = $1, message_id = $2, thread_id = $3, last_error = NULL
         WHERE id = $4",
    )
    .bind(now)
    .bind(message_id)
    .bind(thread_id)
    .bind(id)
    .execute(db)
    .await?;
    notify_attempted(db).await
}

/// The PostgreSQL channel on which every process says it delivered an outbox entry or
/// recorded a failed attempt at one ([`mark_delivered`], [`mark_failed`]), so that a command waiting in another process for its game's posts
/// wakes at once ([`OutboxListener`]).
pub const DELIVERED_CHANNEL: &str = "kaboom_outbox_attempted";

/// `NOTIFY` on [`DELIVERED_CHANNEL`] (PostgreSQL; nothing on SQLite, where one process
/// delivers and wakes its own waiters).
async fn notify_attempted(db: &Db) -> Result<(), StorageError> {
    if db.engine() == Engine::Postgres {
        query("SELECT pg_notify($1, '')")
            .bind(DELIVERED_CHANNEL)
            .execute(db)
            .await?;
    }
    Ok(())
}

/// What an [`OutboxListener`] heard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heard {
    /// A process delivered an outbox entry or recorded a failed attempt at one.
    Attempted,
    /// The listening connection was lost and made again: notifications sent meanwhile are
    /// lost, so look at the outbox again.
    Reconnected,
}

/// Hears, on PostgreSQL, every process's deliveries ([`DELIVERED_CHANNEL`], sqlx's
/// `PgListener` over PostgreSQL's `LISTEN`): what replaces polling the outbox while a
/// command waits for posts another process may make.
pub struct OutboxListener(sqlx::postgres::PgListener);

impl OutboxListener {
    /// Listens on `db`'s server: `None` on SQLite (nothing to hear).
    ///
    /// # Errors
    /// [`StorageError`] when the listening connection cannot be made.
    pub async fn start(db: &Db) -> Result<Option<OutboxListener>, StorageError> {
        let Some(pool) = db.postgres_pool() else {
            return Ok(None);
        };
        let mut listener = sqlx::postgres::PgListener::connect_with(pool).await?;
        listener.listen(DELIVERED_CHANNEL).await?;
        Ok(Some(OutboxListener(listener)))
    }

    /// The next thing heard (waits for it).
    ///
    /// # Errors
    /// [`StorageError`] when the connection is lost and cannot be made again.
    pub async fn recv(&mut self) -> Result<Heard, StorageError> {
        Ok(match self.0.try_recv().await? {
            Some(_) => Heard::Attempted,
            None => Heard::Reconnected,
        })
    }
}

/// Records a failed attempt at entry `id`: tried again at `next_attempt_at`, or given up
/// (`give_up`) at `now`.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn mark_failed(
    db: &Db,
    id: i64,
    error: &str,
    next_attempt_at: i64,
    give_up: bool,
    now: i64,
) -> Result<(), StorageError> {
    query(
        "UPDATE discord_outbox SET attempts = attempts + 1, next_attempt_at = $1, last_error = $2,
            failed_at = $3
         WHERE id = $4",
    )
    .bind(next_attempt_at)
    .bind(error)
    .bind(give_up.then_some(now))
    .bind(id)
    .execute(db)
    .await?;
    notify_attempted(db).await
}

/// Records that Discord answered an attempt at entry `id` with 429 Too Many Requests: tried
/// again at `next_attempt_at`, with `error` kept for the host, and not counted as a failed
/// attempt (a rate limit says when to come back; it is no reason to give the entry up).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn mark_rate_limited(
    db: &Db,
    id: i64,
    error: &str,
    next_attempt_at: i64,
) -> Result<(), StorageError> {
    query("UPDATE discord_outbox SET next_attempt_at = $1, last_error = $2 WHERE id = $3")
        .bind(next_attempt_at)
        .bind(error)
        .bind(id)
        .execute(db)
        .await?;
    notify_attempted(db).await
}

/// How long a claim on an outbox queue lasts without renewal ([`claim_queue`],
/// [`renew_claims`]): a process that dies mid-delivery hands its queues over at most this
/// long after its last renewal. A living process renews every claim it holds every
/// [`CLAIM_RENEW_SECS`], however long one post takes (Discord's rate limits, retries).
pub const CLAIM_LEASE_SECS: i64 = 6;

/// How often a delivering process renews its claims ([`renew_claims`]): a third of the
/// lease, so two renewals may fail before a claim lapses.
pub const CLAIM_RENEW_SECS: u64 = 2;

/// Claims outbox queue `queue` (`game:7`, `challenge:3`, `entry:12`) for process `owner`
/// until `now + `[`CLAIM_LEASE_SECS`], or renews `owner`'s claim: `true` when `owner` may
/// deliver the queue's entries now, `false` when another process holds an unexpired claim
/// (each outbox entry is posted by exactly one process). One statement
/// (`INSERT ... ON CONFLICT DO UPDATE ... WHERE ... RETURNING`, the same text on both
/// engines), atomic on its row: of two processes claiming a free or expired queue at once,
/// one gets it.
///
/// On SQLite (one process) every claim is granted without a write.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn claim_queue(
    db: &Db,
    queue: &str,
    owner: &str,
    now: i64,
) -> Result<bool, StorageError> {
    if db.engine() == Engine::Sqlite {
        return Ok(true);
    }
    let claimed: Option<(String,)> = query(
        "INSERT INTO outbox_claims (queue, owner, claimed_until) VALUES ($1, $2, $3)
         ON CONFLICT (queue) DO UPDATE SET owner = excluded.owner,
             claimed_until = excluded.claimed_until
         WHERE outbox_claims.owner = excluded.owner OR outbox_claims.claimed_until < $4
         RETURNING queue",
    )
    .bind(queue)
    .bind(owner)
    .bind(now + CLAIM_LEASE_SECS)
    .bind(now)
    .fetch_optional(db)
    .await?;
    Ok(claimed.is_some())
}

/// Renews every claim `owner` holds until `now + `[`CLAIM_LEASE_SECS`] (one statement):
/// what a living process does every [`CLAIM_RENEW_SECS`], so its claims lapse only when it
/// dies. Returns how many it holds. Nothing on SQLite.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn renew_claims(db: &Db, owner: &str, now: i64) -> Result<u64, StorageError> {
    if db.engine() == Engine::Sqlite {
        return Ok(0);
    }
    Ok(
        query("UPDATE outbox_claims SET claimed_until = $1 WHERE owner = $2")
            .bind(now + CLAIM_LEASE_SECS)
            .bind(owner)
            .execute(db)
            .await?
            .rows_affected(),
    )
}

/// Gives up `owner`'s claim on `queue` (its delivery ended), so that another process may
/// take it at once.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn release_queue(db: &Db, queue: &str, owner: &str) -> Result<(), StorageError> {
    if db.engine() == Engine::Sqlite {
        return Ok(());
    }
    query("DELETE FROM outbox_claims WHERE queue = $1 AND owner = $2")
        .bind(queue)
        .bind(owner)
        .execute(db)
        .await?;
    Ok(())
}

/// Records that carrier-menu entry `id`'s DM was refused and its in-thread offer tried
/// (`discord_outbox.dm_refused`, version 12): its retries post the offer, not the DM.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn mark_dm_refused(db: &Db, id: i64) -> Result<(), StorageError> {
    query("UPDATE discord_outbox SET dm_refused = $1 WHERE id = $2")
        .bind(true)
        .bind(id)
        .execute(db)
        .await?;
    Ok(())
}

/// Whether entry `id`'s DM was refused ([`mark_dm_refused`]); `false` for an unknown entry.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn dm_refused(db: &Db, id: i64) -> Result<bool, StorageError> {
    let found = query("SELECT dm_refused FROM discord_outbox WHERE id = $1")
        .bind(id)
        .fetch_optional::<(bool,)>(db)
        .await?;
    Ok(found.is_some_and(|(refused,)| refused))
}
