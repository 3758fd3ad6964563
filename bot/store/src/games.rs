//! The `games`, `game_actions` and `draw_offers` tables.
//!
//! A game is stored as its full state (`state_fen`, a cache) plus the ordered list of its
//! actions (`game_actions`, the source of truth): [`load_record`] rebuilds the
//! [`GameRecord`] the rules library replays.

use std::str::FromStr;

use super::sql::{Checked, On, query};
use kaboom_rules::{Color, GameOptions, GameRecord, Outcome, Variant};

use super::{Db, Engine, StorageError, Tx, parse_stored};
use kaboom_domain::ids::{ChannelId, GameId, GuildId, MessageId, UserId};
use kaboom_domain::settings::PreviewMode;

pub use kaboom_domain::game::{GameRow, GameState, Venue};

/// A game to be stored.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The challenge it came from.
    pub challenge_id: Option<i64>,
    /// The server.
    pub guild_id: Option<GuildId>,
    /// The channel the challenge was in.
    pub channel_id: ChannelId,
    /// White's user id and name.
    pub white: (UserId, String),
    /// Black's user id and name.
    pub black: (UserId, String),
    /// The variant.
    pub variant: Variant,
    /// Its options.
    pub options: GameOptions,
    /// Full start serialization.
    pub start_fen: String,
    /// Setup or active.
    pub state: GameState,
    /// Days per move, if limited.
    pub days_per_move: Option<u32>,
    /// First deadline.
    pub deadline_at: Option<i64>,
    /// Rated.
    pub rated: bool,
    /// Where it is played.
    pub venue: Venue,
}

/// A `games` row as stored (columns by name; a query's other columns are ignored, so the
/// scheduler reads due games in a joined query through it too): [`GameRow`] once its text
/// columns are read ([`TryFrom`]).
#[derive(sqlx::FromRow)]
pub(crate) struct StoredGame {
    #[sqlx(try_from = "i64")]
    id: GameId,
    guild_id: Option<i64>,
    #[sqlx(try_from = "i64")]
    channel_id: ChannelId,
    thread_id: Option<i64>,
    #[sqlx(try_from = "i64")]
    white_id: UserId,
    white_name: String,
    #[sqlx(try_from = "i64")]
    black_id: UserId,
    black_name: String,
    variant: String,
    carriers: i64,
    dead_mans_switch: bool,
    start_fen: String,
    state_fen: String,
    ply: i64,
    state: String,
    declared: Option<String>,
    result: Option<String>,
    reason: Option<String>,
    days_per_move: Option<i64>,
    deadline_at: Option<i64>,
    rated: bool,
    board_message_id: Option<i64>,
    created_at: i64,
    venue: String,
}

/// A stored id that may be absent (`guild_id`, `thread_id`, ...), read back.
///
/// # Errors
/// [`StorageError::Corrupt`] for a number that is not such an id.
pub(crate) fn id_of<T: TryFrom<i64, Error: std::fmt::Display>>(
    v: Option<i64>,
) -> Result<Option<T>, StorageError> {
    v.map(|v| T::try_from(v).map_err(|e| StorageError::Corrupt(e.to_string())))
        .transpose()
}

impl TryFrom<StoredGame> for GameRow {
    type Error = StorageError;
    /// The row's text columns read (variant, state, declared result).
    ///
    /// # Errors
    /// [`StorageError::Corrupt`], naming the game, for a column that does not read.
    fn try_from(g: StoredGame) -> Result<GameRow, StorageError> {
        let id = g.id;
        (|| {
            Ok(GameRow {
                id: g.id,
                guild_id: id_of(g.guild_id)?,
                channel_id: g.channel_id,
                thread_id: id_of(g.thread_id)?,
                white_id: g.white_id,
                white_name: g.white_name,
                black_id: g.black_id,
                black_name: g.black_name,
                variant: Variant::from_str(&g.variant)
                    .map_err(|e| StorageError::Corrupt(e.to_string()))?,
                options: GameOptions {
                    carriers: g.carriers as u8,
                    dead_mans_switch: g.dead_mans_switch,
                },
                start_fen: g.start_fen,
                state_fen: g.state_fen,
                ply: g.ply,
                state: parse_stored("game state", &g.state)?,
                declared: g
                    .declared
                    .map(|d| serde_json::from_str(&d))
                    .transpose()
                    .map_err(|e| StorageError::Corrupt(format!("declared result: {e}")))?,
                result: g.result,
                reason: g.reason,
                days_per_move: g.days_per_move.map(|d| d as u32),
                deadline_at: g.deadline_at,
                rated: g.rated,
                board_message_id: id_of(g.board_message_id)?,
                created_at: g.created_at,
                venue: parse_stored("venue", &g.venue)?,
            })
        })()
        .map_err(|e: StorageError| StorageError::Corrupt(format!("game #{id}: {e}")))
    }
}

/// Stores a new game; returns its id.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn insert(tx: &mut Tx, g: &NewGame, now: i64) -> Result<GameId, StorageError> {
    let row = query(
        "INSERT INTO games (challenge_id, guild_id, channel_id, white_id, white_name, black_id,
            black_name, variant, carriers, dead_mans_switch, start_fen, state_fen, ply, state,
            days_per_move, deadline_at, rated, created_at, updated_at, venue)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 0, $13, $14, $15, $16, $17, $18, $19)
         RETURNING id",
    )
    .bind(g.challenge_id)
    .bind(g.guild_id)
    .bind(g.channel_id)
    .bind(g.white.0)
    .bind(&g.white.1)
    .bind(g.black.0)
    .bind(&g.black.1)
    .bind(g.variant.name())
    .bind(i64::from(g.options.carriers))
    .bind(g.options.dead_mans_switch)
    .bind(&g.start_fen)
    .bind(&g.start_fen)
    .bind(g.state.name())
    .bind(g.days_per_move.map(i64::from))
    .bind(g.deadline_at)
    .bind(g.rated)
    .bind(now)
    .bind(now)
    .bind(g.venue.name())
    .fetch_one::<(i64,)>(&mut *tx)
    .await?;
    Ok(GameId::from(row.0))
}

/// Loads a game's row, on the pool or inside a transaction.
///
/// # Errors
/// [`StorageError`] on a database failure; [`StorageError::Corrupt`] for a row that does
/// not read.
pub async fn get<'a>(on: impl Into<On<'a>>, id: GameId) -> Result<Option<GameRow>, StorageError> {
    query("SELECT * FROM games WHERE id = $1")
        .bind(id)
        .fetch_optional(on)
        .await?
        .map(game_of)
        .transpose()
}

/// A `games` row with its actions ([`get_with_actions`]).
#[derive(sqlx::FromRow)]
struct StoredGameWithActions {
    #[sqlx(flatten)]
    game: StoredGame,
    /// The actions in order, as a JSON array of texts.
    actions: String,
}

/// Loads a game's row and its actions in order (canonical texts) in one statement, on the
/// pool or inside a transaction: what [`get`] and [`actions`] read, from one snapshot (the
/// actions come as one JSON array: SQLite's `json_group_array`, PostgreSQL's `json_agg`,
/// each ordered by ply).
///
/// # Errors
/// [`StorageError`] on a database failure; [`StorageError::Corrupt`] for a row that does
/// not read.
pub async fn get_with_actions<'a>(
    on: impl Into<On<'a>>,
    id: GameId,
) -> Result<Option<(GameRow, Vec<String>)>, StorageError> {
    let on = on.into();
    let sql = format!(
        "SELECT g.*, {} AS actions FROM games g WHERE g.id = $1",
        actions_column(on.engine())
    );
    let Some(Checked { id: row_id, row }) = query(sql)
        .bind(id)
        .fetch_optional::<Checked<StoredGameWithActions>>(on)
        .await?
    else {
        return Ok(None);
    };
    let (game, actions) = match row {
        Ok(r) => (Ok(r.game), Some(r.actions)),
        Err(e) => (Err(e), None),
    };
    with_actions(id, row_id, game, actions.as_deref()).map(Some)
}

/// The expression of a game's actions (`g`'s) in order as one JSON array of texts:
/// SQLite's `json_group_array`, PostgreSQL's `json_agg` (as text, `[]` for none).
fn actions_column(engine: Engine) -> &'static str {
    match engine {
        Engine::Sqlite => {
            "(SELECT json_group_array(a.action ORDER BY a.ply) FROM game_actions a
              WHERE a.game_id = g.id)"
        }
        Engine::Postgres => {
            "COALESCE((SELECT json_agg(a.action ORDER BY a.ply) FROM game_actions a
                       WHERE a.game_id = g.id)::text, '[]')"
        }
    }
}

/// A game row read back with its actions' JSON array (`None` when the row did not
/// decode).
fn with_actions(
    id: GameId,
    row_id: Option<i64>,
    game: Result<StoredGame, sqlx::Error>,
    actions: Option<&str>,
) -> Result<(GameRow, Vec<String>), StorageError> {
    let row = game_of(Checked {
        id: row_id,
        row: game,
    })?;
    let actions = serde_json::from_str(actions.unwrap_or_default())
        .map_err(|e| StorageError::Corrupt(format!("game #{id}: actions: {e}")))?;
    Ok((row, actions))
}

/// What decides whether a player's `/move` previews by default: their explosion preview
/// choice and how many games of the game's variant they have finished, in any server or
/// direct message (the default shows previews in a player's first games of a variant).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreviewChoice {
    /// Their choice (the default when they made none).
    pub mode: PreviewMode,
    /// Their finished games of the game's variant.
    pub finished_in_variant: i64,
}

/// A `games` row with its actions and the [`PreviewChoice`] of a player
/// ([`load_record_for_mover`]).
#[derive(sqlx::FromRow)]
struct StoredGameForMover {
    #[sqlx(flatten)]
    game: StoredGame,
    actions: String,
    preview_mode: Option<String>,
    finished_in_variant: i64,
}

/// As [`load_record`], with `mover`'s [`PreviewChoice`] for the game, in the same
/// statement: what a `/move` that follows the player's choice reads before it plays.
///
/// # Errors
/// [`StorageError`] on a database failure; [`StorageError::Corrupt`] for a row or a
/// stored preview choice that does not read.
pub async fn load_record_for_mover(
    db: &Db,
    id: GameId,
    mover: UserId,
) -> Result<Option<(GameRow, GameRecord, PreviewChoice)>, StorageError> {
    let sql = format!(
        "SELECT g.*, {} AS actions,
                (SELECT mode FROM preview_settings WHERE user_id = $1) AS preview_mode,
                (SELECT COUNT(*) FROM games f
                 WHERE (f.white_id = $2 OR f.black_id = $3) AND f.state = 'finished'
                   AND f.variant = g.variant) AS finished_in_variant
         FROM games g WHERE g.id = $4",
        actions_column(db.engine())
    );
    let Some(Checked { id: row_id, row }) = query(sql)
        .bind(mover)
        .bind(mover)
        .bind(mover)
        .bind(id)
        .fetch_optional::<Checked<StoredGameForMover>>(db)
        .await?
    else {
        return Ok(None);
    };
    let (game, actions, mode, finished_in_variant) = match row {
        Ok(r) => (
            Ok(r.game),
            Some(r.actions),
            r.preview_mode,
            r.finished_in_variant,
        ),
        Err(e) => (Err(e), None, None, 0),
    };
    let (row, actions) = with_actions(id, row_id, game, actions.as_deref())?;
    let mode = match mode {
        None => PreviewMode::default(),
        Some(m) => PreviewMode::parse(&m)
            .ok_or_else(|| StorageError::Corrupt(format!("preview mode '{m}'")))?,
    };
    let record = record(&row, actions);
    Ok(Some((
        row,
        record,
        PreviewChoice {
            mode,
            finished_in_variant,
        },
    )))
}

/// The game played in `thread_id`, if any.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn by_thread(db: &Db, thread_id: ChannelId) -> Result<Option<GameRow>, StorageError> {
    query("SELECT * FROM games WHERE thread_id = $1")
        .bind(thread_id)
        .fetch_optional(db)
        .await?
        .map(game_of)
        .transpose()
}

/// Games `user` plays that are not finished, oldest first.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn active_for(db: &Db, user: UserId) -> Result<Vec<GameRow>, StorageError> {
    let rows = query(
        "SELECT * FROM games WHERE (white_id = $1 OR black_id = $2) AND state <> 'finished'
         ORDER BY id",
    )
    .bind(user)
    .bind(user)
    .fetch_all(db)
    .await?;
    Ok(decodable(rows))
}

/// The running games (not finished) of server `guild`, newest first, at most `limit`.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn running_in_guild(
    db: &Db,
    guild: GuildId,
    limit: i64,
) -> Result<Vec<GameRow>, StorageError> {
    let rows = query(
        "SELECT * FROM games WHERE guild_id = $1 AND state <> 'finished'
         ORDER BY id DESC LIMIT $2",
    )
    .bind(guild)
    .bind(limit)
    .fetch_all(db)
    .await?;
    Ok(decodable(rows))
}

/// A game row read back, any failure to decode it (a damaged or foreign row) as
/// [`StorageError::Corrupt`] naming the game.
pub(crate) fn game_of(row: Checked<StoredGame>) -> Result<GameRow, StorageError> {
    match row.row {
        Ok(g) => GameRow::try_from(g),
        Err(e) => Err(StorageError::Corrupt(format!(
            "game #{}: {}",
            row.id.unwrap_or_default(),
            StorageError::from(e)
        ))),
    }
}

/// The rows of a list that decode; each one that does not is logged and left out, so one
/// damaged game costs only itself.
pub(crate) fn decodable(rows: Vec<Checked<StoredGame>>) -> Vec<GameRow> {
    rows.into_iter()
        .filter_map(|r| {
            game_of(r)
                .inspect_err(|e| tracing::error!(error = %e, "a game row does not read; left out"))
                .ok()
        })
        .collect()
}

/// The game's actions in order (canonical texts), on the pool or inside a transaction.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn actions<'a>(on: impl Into<On<'a>>, id: GameId) -> Result<Vec<String>, StorageError> {
    let rows: Vec<(String,)> =
        query("SELECT action FROM game_actions WHERE game_id = $1 ORDER BY ply")
            .bind(id)
            .fetch_all(on)
            .await?;
    Ok(rows.into_iter().map(|(a,)| a).collect())
}

/// The replayable record of a stored game.
pub fn record(row: &GameRow, actions: Vec<String>) -> GameRecord {
    GameRecord {
        variant: row.variant,
        options: row.options,
        start_fen: row.start_fen.clone(),
        actions,
        declared: row.declared,
    }
}

/// Loads a game's row and its replayable record.
///
/// The ids of the finished games of `variant`, oldest first.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn finished_ids(db: &Db, variant: Variant) -> Result<Vec<GameId>, StorageError> {
    let rows: Vec<(i64,)> =
        query("SELECT id FROM games WHERE variant = $1 AND state = 'finished' ORDER BY id")
            .bind(variant.name())
            .fetch_all(db)
            .await?;
    Ok(rows.into_iter().map(|(id,)| GameId(id)).collect())
}

/// # Errors
/// [`StorageError`] on a database failure.
pub async fn load_record(
    db: &Db,
    id: GameId,
) -> Result<Option<(GameRow, GameRecord)>, StorageError> {
    let Some((row, actions)) = get_with_actions(db, id).await? else {
        return Ok(None);
    };
    let rec = record(&row, actions);
    Ok(Some((row, rec)))
}

/// The new state of a game after an action or a declared result.
#[derive(Clone, Debug)]
pub struct StateUpdate {
    /// The ply the caller loaded; the update applies only if the game is still there.
    pub expected_ply: i64,
    /// The action to append (its ply is `expected_ply + 1`), with the acting user.
    pub action: Option<(String, UserId)>,
    /// Full current serialization.
    pub state_fen: String,
    /// Full start serialization (changes only during the designation).
    pub start_fen: String,
    /// New state.
    pub state: GameState,
    /// A result declared off the board.
    pub declared: Option<Outcome>,
    /// Result and reason when finished.
    pub result: Option<(String, String)>,
    /// Deadline of the side to move.
    pub deadline_at: Option<i64>,
}

impl StateUpdate {
    /// The update that ends `row`'s game off the board (resignation, agreement, time
    /// forfeit, abort) with `outcome`: no action appended, `state_fen` the full
    /// serialization with the declared result, no deadline any more.
    pub fn finished(row: &GameRow, state_fen: String, outcome: Outcome) -> StateUpdate {
        StateUpdate {
            expected_ply: row.ply,
            action: None,
            state_fen,
            start_fen: row.start_fen.clone(),
            state: GameState::Finished,
            declared: Some(outcome),
            result: Some((
                outcome.result().to_string(),
                outcome.reason.name().to_string(),
            )),
            deadline_at: None,
        }
    }
}

/// The `games.declared` column's text of an outcome declared off the board (JSON).
pub(crate) fn declared_json(outcome: &Outcome) -> String {
    serde_json::to_string(outcome).expect("an outcome always serializes")
}

/// What stood beside a game when [`update_state`] wrote it, read by the same statement
/// inside its transaction: whether anything of these is there to clear or to answer, so
/// that a move spends no statement on what is not there (usually none of them is).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// A draw offer (`draw_offers`), by either side.
    pub draw_offer: bool,
    /// A takeback proposal (`takeback_offers`).
    pub takeback: bool,
    /// Conditional lines (`premoves`), of either side.
    pub conditional_lines: bool,
}

/// A game's row as [`update_state`] wrote it (`UPDATE ... RETURNING`), with what stood
/// beside it then.
#[derive(Clone, Debug)]
pub struct Written {
    /// The row as written.
    pub row: GameRow,
    /// The game's draw offer, takeback proposal and conditional lines, if any.
    pub standing: Standing,
}

/// An updated `games` row and the [`Standing`] columns of [`update_state`]'s `RETURNING`.
#[derive(sqlx::FromRow)]
struct StoredWritten {
    #[sqlx(flatten)]
    game: StoredGame,
    standing_draw_offer: bool,
    standing_takeback: bool,
    standing_lines: bool,
}

/// Writes a game's new state inside `tx`, appending the action if any. Returns the game's
/// row as written (`UPDATE ... RETURNING`) and what stands beside it ([`Standing`]), or
/// `None` (and writes nothing) when the game is no longer at `expected_ply`: someone else's
/// action came first.
///
/// # Errors
/// [`StorageError`] on a database failure; [`StorageError::Corrupt`] for a row that does
/// not read back.
pub async fn update_state(
    tx: &mut Tx,
    id: GameId,
    u: &StateUpdate,
    now: i64,
) -> Result<Option<Written>, StorageError> {
    let new_ply = u.expected_ply + i64::from(u.action.is_some());
    let declared = u.declared.as_ref().map(declared_json);
    let written: Option<Checked<StoredWritten>> = query(
        "UPDATE games SET ply = $1, state_fen = $2, start_fen = $3, state = $4, declared = $5,
            result = $6, reason = $7, deadline_at = $8, updated_at = $9
         WHERE id = $10 AND ply = $11
         RETURNING *,
            EXISTS (SELECT 1 FROM draw_offers WHERE game_id = $12) AS standing_draw_offer,
            EXISTS (SELECT 1 FROM takeback_offers WHERE game_id = $13) AS standing_takeback,
            EXISTS (SELECT 1 FROM premoves WHERE game_id = $14) AS standing_lines",
    )
    .bind(new_ply)
    .bind(&u.state_fen)
    .bind(&u.start_fen)
    .bind(u.state.name())
    .bind(declared)
    .bind(u.result.as_ref().map(|r| r.0.clone()))
    .bind(u.result.as_ref().map(|r| r.1.clone()))
    .bind(u.deadline_at)
    .bind(now)
    .bind(id)
    .bind(u.expected_ply)
    .bind(id)
    .bind(id)
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?;
    let Some(Checked { id: row_id, row }) = written else {
        return Ok(None);
    };
    let (game, standing) = match row {
        Ok(w) => (
            Ok(w.game),
            Standing {
                draw_offer: w.standing_draw_offer,
                takeback: w.standing_takeback,
                conditional_lines: w.standing_lines,
            },
        ),
        Err(e) => (Err(e), Standing::default()),
    };
    let row = game_of(Checked {
        id: row_id,
        row: game,
    })?;
    if let Some((text, player)) = &u.action {
        query(
            "INSERT INTO game_actions (game_id, ply, action, player_id, played_at)
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(id)
        .bind(new_ply)
        .bind(text)
        .bind(*player)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    }
    Ok(Some(Written { row, standing }))
}

/// Records the game's thread.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn set_thread(db: &Db, id: GameId, thread_id: ChannelId) -> Result<(), StorageError> {
    query("UPDATE games SET thread_id = $1 WHERE id = $2")
        .bind(thread_id)
        .bind(id)
        .execute(db)
        .await?;
    Ok(())
}

/// Records the latest board message.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn set_board_message(
    db: &Db,
    id: GameId,
    message_id: MessageId,
) -> Result<(), StorageError> {
    query("UPDATE games SET board_message_id = $1 WHERE id = $2")
        .bind(message_id)
        .bind(id)
        .execute(db)
        .await?;
    Ok(())
}

/// A standing draw offer.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct DrawOffer {
    /// Who offered.
    pub by: Color,
    /// At which ply.
    pub ply: i64,
}

/// The draw offer of a `draw_offers` row read as (`offered_by`, `ply`), if any.
fn draw_offer_of(row: Option<(String, i64)>) -> Result<Option<DrawOffer>, StorageError> {
    row.map(|(by, ply)| {
        Ok(DrawOffer {
            by: parse_stored("draw offer colour", &by)?,
            ply,
        })
    })
    .transpose()
}

/// The game's standing draw offer, if any.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn draw_offer(tx: &mut Tx, id: GameId) -> Result<Option<DrawOffer>, StorageError> {
    let row: Option<(String, i64)> =
        query("SELECT offered_by, ply FROM draw_offers WHERE game_id = $1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    draw_offer_of(row)
}

/// Records a draw offer (replacing any other).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn put_draw_offer(
    tx: &mut Tx,
    id: GameId,
    offer: DrawOffer,
    now: i64,
) -> Result<(), StorageError> {
    query("DELETE FROM draw_offers WHERE game_id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    query("INSERT INTO draw_offers (game_id, offered_by, ply, offered_at) VALUES ($1, $2, $3, $4)")
        .bind(id)
        .bind(offer.by.name())
        .bind(offer.ply)
        .bind(now)
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// Removes the game's draw offer; `true` if there was one.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn clear_draw_offer(tx: &mut Tx, id: GameId) -> Result<bool, StorageError> {
    let done = query("DELETE FROM draw_offers WHERE game_id = $1")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    Ok(done.rows_affected() > 0)
}

/// Removes the game's standing draw offer unless `kept_by` made it (`None`: whoever made
/// it), in one statement (`DELETE ... RETURNING`); returns the offer removed, if any.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn clear_draw_offer_unless_by(
    tx: &mut Tx,
    id: GameId,
    kept_by: Option<Color>,
) -> Result<Option<DrawOffer>, StorageError> {
    let row: Option<(String, i64)> = query(
        "DELETE FROM draw_offers WHERE game_id = $1 AND ($2 IS NULL OR offered_by <> $3)
         RETURNING offered_by, ply",
    )
    .bind(id)
    .bind(kept_by.map(Color::name))
    .bind(kept_by.map(Color::name))
    .fetch_optional(&mut *tx)
    .await?;
    draw_offer_of(row)
}

/// A finished game of a player's archive.
#[derive(Clone, Debug)]
pub struct FinishedRow {
    /// The game's row.
    pub row: GameRow,
    /// When it ended (its last update, Unix seconds).
    pub ended_at: i64,
}

/// A finished game's row and when it ended (its `updated_at`).
#[derive(sqlx::FromRow)]
pub(crate) struct StoredFinished {
    #[sqlx(flatten)]
    game: StoredGame,
    updated_at: i64,
}

/// Which games a list may show to a caller (the rule of `kaboom_service::access::may_read`):
/// in a server, that server's games; in a direct message, the caller's own games.
#[derive(Copy, Clone, Debug)]
pub struct Readable {
    /// The server asked in (`None`: a direct message).
    pub guild: Option<GuildId>,
    /// Who asks.
    pub caller: UserId,
}

/// The condition on `games` of [`Readable`]: `guild_id = $n` or `(white_id = $n OR black_id = $m)`.
fn push_readable(q: &mut super::sql::Query, scope: Readable) {
    match scope.guild {
        Some(g) => {
            q.push(" AND guild_id = ").push_bind(g);
        }
        None => {
            q.push(" AND (white_id = ")
                .push_bind(scope.caller)
                .push(" OR black_id = ")
                .push_bind(scope.caller)
                .push(")");
        }
    }
}

fn finished_query(head: &str, user: UserId, scope: Readable) -> super::sql::Query {
    let mut q = query(head);
    q.push(" FROM games WHERE (white_id = ")
        .push_bind(user)
        .push(" OR black_id = ")
        .push_bind(user)
        .push(") AND state = 'finished'");
    push_readable(&mut q, scope);
    q
}

/// `user`'s finished games that `scope` may show, newest first, `limit` of them after
/// skipping `offset` (indexes `games_white_finished` and `games_black_finished`).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn finished_for(
    db: &Db,
    user: UserId,
    scope: Readable,
    limit: i64,
    offset: i64,
) -> Result<Vec<FinishedRow>, StorageError> {
    let mut q = finished_query("SELECT *", user, scope);
    q.push(" ORDER BY updated_at DESC, id DESC LIMIT ")
        .push_bind(limit)
        .push(" OFFSET ")
        .push_bind(offset);
    let rows: Vec<Checked<StoredFinished>> = q.build().fetch_all(db).await?;
    Ok(rows
        .into_iter()
        .filter_map(|Checked { id, row }| {
            let ended_at = row.as_ref().map_or(0, |f| f.updated_at);
            game_of(Checked {
                id,
                row: row.map(|f| f.game),
            })
            .inspect_err(|e| tracing::error!(error = %e, "a game row does not read; left out"))
            .ok()
            .map(|row| FinishedRow { row, ended_at })
        })
        .collect())
}

/// How many finished games of `user` `scope` may show.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn finished_count(db: &Db, user: UserId, scope: Readable) -> Result<i64, StorageError> {
    let mut q = finished_query("SELECT COUNT(*) AS n", user, scope);
    let (n,): (i64,) = q.build().fetch_one(db).await?;
    Ok(n)
}
