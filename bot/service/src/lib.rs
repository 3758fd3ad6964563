//! # kaboom-service
//!
//! The games service: every player action as a function of (game, player, text), with no
//! Discord types. The Discord layer parses arguments, calls these, and presents the result.
//!
//! The path of a move (docs/ARCHITECTURE.md): [`Services::play`] loads the game's state
//! and ply from storage, lets the rules library parse the text as that player sees the
//! game and apply it, then writes the action and the new state in one transaction that
//! checks the expected ply, so two concurrent submissions can never both apply
//! ([`ServiceError::MovedOn`] for the loser). Nothing is returned as done before it is
//! committed.
#![deny(missing_docs)]

pub mod access;
pub mod comfort_types;
pub mod comforts;
pub mod commitment;
pub mod engine;
pub mod outbox;
pub mod painter;
pub mod pgn;
pub mod preview;
pub mod ratings;
pub mod refusal;
pub mod replay;
pub mod scheduler;
pub mod suggest;

use std::sync::Arc;

use kaboom_rules::{
    ActionError, AnyGame, Color, EndReason, GameOptions, Outcome, PlayError, PlyRecord, Square,
    Variant, Viewer,
};

use crate::painter::BoardPainter;
use kaboom_domain::clock::Clock;
use kaboom_domain::ids::{ChannelId, GameId, MessageId, UserId};
use kaboom_store::carriers::{self, Designation};
use kaboom_store::challenges::{self, Challenge, ChallengeState, ColorChoice, NewChallenge};
use kaboom_store::games::{self, DrawOffer, GameRow, GameState, NewGame, StateUpdate};
use kaboom_store::{Db, StorageError};

pub use refusal::{Act, Refusal};
pub use suggest::Suggestion;

/// The `days_per_move` choices (default 3; or none: docs/ARCHITECTURE.md, "Defaults").
pub const DAYS_PER_MOVE_CHOICES: [u32; 7] = [1, 2, 3, 5, 7, 10, 14];
/// The default `days_per_move`.
pub const DEFAULT_DAYS_PER_MOVE: u32 = 3;

/// Why a service call did nothing.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The user may not do this, or the input is wrong (`discord::messages` says why,
    /// ephemerally).
    #[error("refused: {0:?}")]
    Refused(Refusal),
    /// Another action was committed first; the game is now at `ply`.
    #[error("game {game_id} moved on to ply {ply} before the action was saved")]
    MovedOn {
        /// The game.
        game_id: GameId,
        /// The ply it is at now.
        ply: i64,
    },
    /// A database failure.
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// Stored data does not replay (a bug or a damaged database).
    #[error("game data is damaged: {0}")]
    Corrupt(String),
}

fn refuse<T>(refusal: Refusal) -> Result<T, ServiceError> {
    Err(ServiceError::Refused(refusal))
}

impl From<Refusal> for ServiceError {
    fn from(r: Refusal) -> ServiceError {
        ServiceError::Refused(r)
    }
}

/// A game with its stored row.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The stored row (after the call).
    pub row: GameRow,
    /// The game, replayed from storage (full state: never show it as is).
    pub game: AnyGame,
}

impl From<sqlx::Error> for ServiceError {
    fn from(e: sqlx::Error) -> ServiceError {
        ServiceError::Storage(StorageError::Sql(e))
    }
}

impl Snapshot {
    /// The result, if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.status().outcome()
    }
}

/// What [`Services::play`] did.
#[derive(Clone, Debug)]
pub struct Played {
    /// The game after the action.
    pub snap: Snapshot,
    /// The action's record (public: reveals no Beirut carrier).
    pub ply: PlyRecord,
    /// Whether the action declined the opponent's standing draw offer.
    pub declined_draw: bool,
    /// When the game ended with this action: both sides' designations to reveal.
    pub reveal: Vec<Designation>,
    /// When the game ended with this action and was rated: the rating change.
    pub rating: Option<kaboom_store::ratings::GameChange>,
    /// Whether a conditional line played it (the board's caption says so).
    pub by_conditional: bool,
}

/// A game that just ended off the board or by agreement.
#[derive(Clone, Debug)]
pub struct Ended {
    /// The game after it ended.
    pub snap: Snapshot,
    /// How it ended.
    pub outcome: Outcome,
    /// Both sides' designations to reveal (Beirut, Nuke).
    pub reveal: Vec<Designation>,
    /// The rating change, when the game was rated (boxed: a [`DrawResult`]
    /// holds an `Ended`).
    pub rating: Option<Box<kaboom_store::ratings::GameChange>>,
}

/// What a draw offer led to.
#[derive(Clone, Debug)]
pub enum DrawResult {
    /// The offer stands; the opponent is asked.
    Offered {
        /// The game.
        snap: Snapshot,
        /// Who offered.
        by: Color,
    },
    /// Both sides wanted a draw: the game is drawn by agreement.
    Agreed(Ended),
    /// The opponent declined.
    Declined {
        /// The game.
        snap: Snapshot,
        /// Who had offered.
        by: Color,
    },
}

/// The carrier choice a player has to make (BE-2, NU-3).
#[derive(Clone, Debug)]
pub struct CarrierMenu {
    /// The game.
    pub game_id: GameId,
    /// The player's side.
    pub color: Color,
    /// How many carriers to choose.
    pub count: usize,
    /// Eligible pieces: (square, kind), in canonical order (`discord::messages` words
    /// them, `Knight b1`).
    pub options: Vec<(Square, kaboom_rules::Kind)>,
    /// The game is aborted if the designation is still incomplete at this time (Unix
    /// seconds; the scheduler's designation timeout after the game's creation).
    pub abort_at: i64,
}

/// What a carrier designation did.
#[derive(Clone, Debug)]
pub struct Designated {
    /// The game after it.
    pub snap: Snapshot,
    /// The side that chose.
    pub color: Color,
    /// Its designation (secret for Beirut: show only to its owner).
    pub designation: Designation,
    /// Whether both sides have now chosen and play starts.
    pub started: bool,
    /// When play starts: both designations (Nuke reveals squares, Beirut only commitments).
    pub all: Vec<Designation>,
}

/// The widths a replay GIF is tried at, widest first, until it fits the upload limit
/// ([`Services::replay_gif`]; the size target: a 150-ply game at 480 px under 4 MB).
pub const REPLAY_WIDTHS: [u32; 3] = [480, 360, 240];

/// The bot's services: storage, clock and board painter.
#[derive(Clone)]
pub struct Services {
    /// The database.
    pub db: Db,
    /// The clock (deadlines).
    pub clock: Arc<dyn Clock>,
    /// The board painter.
    pub painter: Arc<dyn BoardPainter>,
    /// The scheduler's configuration: messages quote its expiry and abort times.
    pub scheduler: kaboom_domain::deadline::SchedulerConfig,
    /// Wakes the scheduler when an action comes after its time ran out.
    pub scheduler_waker: kaboom_domain::deadline::SchedulerWaker,
    /// Words the Discord side effects written to the outbox with each change.
    pub effects: Option<Arc<dyn outbox::EffectPlanner>>,
    /// Wakes the outbox's deliverer (the Discord layer's) after such a change.
    pub outbox_waker: outbox::OutboxWaker,
    /// Runs replays, suggestions and painting off the async runtime, a bounded number at
    /// once.
    pub cpu: replay::CpuPool,
    /// Replayed games by (game id, ply), checked against the stored record.
    pub replays: Arc<replay::ReplayCache>,
    /// The practice opponent's searches and the waker of its worker.
    pub engine: engine::EngineRunner,
}

fn parse_days(days: Option<u32>) -> Result<Option<u32>, ServiceError> {
    match days {
        None => Ok(None),
        Some(d) if DAYS_PER_MOVE_CHOICES.contains(&d) => Ok(Some(d)),
        Some(d) => refuse(Refusal::DaysNotOffered { days: d }),
    }
}

/// How many legal actions a refusal of an unreadable or illegal action names.
pub const ILLEGAL_ACTION_EXAMPLES: usize = 8;

fn illegal_action(error: &PlayError, game: &AnyGame, viewer: Viewer) -> Refusal {
    // The error (the rules library names at most 12 legal actions, then "and N more"),
    // then the first eight legal actions `viewer` may see, found as autocomplete finds
    // them: describing every action (`legal_actions`, 6,161 of them in a busy
    // Bombalot position) to show eight cost about 0.3 s of CPU.
    let with_examples = |e: &dyn std::fmt::Display| Refusal::IllegalAction {
        reason: e.to_string(),
        alternatives: Some(
            suggest::suggestions(game, viewer, "", ILLEGAL_ACTION_EXAMPLES)
                .into_iter()
                .map(|s| s.value)
                .collect(),
        ),
    };
    match error {
        PlayError::Action(ActionError::Parse(e)) => with_examples(e),
        PlayError::Action(ActionError::Illegal(e)) if e.legal.is_empty() => with_examples(e),
        other => Refusal::IllegalAction {
            reason: other.to_string(),
            alternatives: None,
        },
    }
}

impl Services {
    /// Services over `db` with the given clock and painter.
    pub fn new(db: Db, clock: Arc<dyn Clock>, painter: Arc<dyn BoardPainter>) -> Services {
        Services {
            db,
            clock,
            painter,
            scheduler: kaboom_domain::deadline::SchedulerConfig::default(),
            scheduler_waker: kaboom_domain::deadline::SchedulerWaker::default(),
            effects: None,
            outbox_waker: outbox::OutboxWaker::default(),
            cpu: replay::CpuPool::for_this_machine(),
            replays: Arc::new(replay::ReplayCache::default()),
            engine: engine::EngineRunner::default(),
        }
    }

    /// The same services keeping replayed games in `cache` (e.g. `ReplayCache::new(0)`
    /// to replay on every load, for measurements).
    pub fn with_replay_cache(mut self, cache: Arc<replay::ReplayCache>) -> Services {
        self.replays = cache;
        self
    }

    /// Game `id` replayed from `record` (cached, off the async runtime), as an owned game.
    ///
    /// # Errors
    /// [`ServiceError::Corrupt`] when it does not replay.
    pub(crate) async fn replay(
        &self,
        id: GameId,
        record: kaboom_rules::GameRecord,
    ) -> Result<AnyGame, ServiceError> {
        let game = self.replays.replay(&self.cpu, id, record).await?;
        Ok(AnyGame::clone(&game))
    }

    /// The same services waking the scheduler through `waker` when an action comes too
    /// late (a clone of the running scheduler's waker).
    pub fn with_scheduler_waker(
        mut self,
        waker: kaboom_domain::deadline::SchedulerWaker,
    ) -> Services {
        self.scheduler_waker = waker;
        self
    }

    /// Refuses any action on game `row` once its time ran out: the deadline of
    /// `to_move` passed (a time forfeit) or the carrier designation outlived its timeout (an
    /// abort), even if the scheduler has not swept it yet. The scheduler is woken to decide
    /// and announce it now, so a late move can never reset the clock.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] saying when the time ran out and what follows.
    fn refuse_if_overdue(&self, row: &GameRow, to_move: Color) -> Result<(), ServiceError> {
        use kaboom_domain::deadline::{Due, overdue_end};
        let timeout = self.scheduler.designation_timeout_secs;
        let due = overdue_end(
            row.state,
            row.created_at,
            row.deadline_at,
            self.clock.now(),
            timeout,
        );
        let refusal = match due {
            Some(Due::Forfeit) => Refusal::TimeUp {
                game: row.id,
                name: row.name(to_move).to_string(),
                to_move,
                deadline: row.deadline_at.unwrap_or_default(),
            },
            Some(_) => Refusal::DesignationTimeUp {
                game: row.id,
                deadline: row.created_at + timeout,
            },
            None => return Ok(()),
        };
        self.scheduler_waker.wake();
        refuse(refusal)
    }

    /// The same services quoting the scheduler configuration `config` (the one the bot's
    /// scheduler runs with) in their messages.
    pub fn with_scheduler_config(
        mut self,
        config: kaboom_domain::deadline::SchedulerConfig,
    ) -> Services {
        self.scheduler = config;
        self
    }

    /// Stores a new challenge after checking it: not against oneself, a days-per-move
    /// choice that is offered, options the variant accepts (Beirut carriers 1-15, BE-2).
    ///
    /// # Errors
    /// [`ServiceError::Refused`] saying what to change.
    pub async fn create_challenge(&self, mut c: NewChallenge) -> Result<Challenge, ServiceError> {
        if c.opponent_id == Some(c.challenger_id) {
            return refuse(Refusal::ChallengeSelf);
        }
        c.days_per_move = parse_days(c.days_per_move)?;
        if c.variant != Variant::Beirut {
            if c.options.carriers != 1 || c.options.dead_mans_switch {
                return refuse(Refusal::BeirutOptionsOnly { variant: c.variant });
            }
        } else if !(1..=kaboom_rules::beirut::MAX_CARRIERS).contains(&c.options.carriers) {
            return refuse(Refusal::CarrierCount);
        }
        if let Err(e) = AnyGame::new(c.variant, c.options) {
            return refuse(Refusal::VariantUnavailable {
                variant: c.variant,
                reason: e.to_string(),
            });
        }
        let id = challenges::insert(&self.db, &c, self.clock.now()).await?;
        self.challenge(id).await
    }

    /// A stored challenge.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when there is none with that id.
    pub async fn challenge(&self, id: i64) -> Result<Challenge, ServiceError> {
        match challenges::get(&self.db, id).await? {
            Some(c) => Ok(c),
            None => refuse(Refusal::UnknownChallenge { id }),
        }
    }

    /// Records the message that shows challenge `id`.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn set_challenge_message(
        &self,
        id: i64,
        message: MessageId,
    ) -> Result<(), ServiceError> {
        Ok(challenges::set_message(&self.db, id, message).await?)
    }

    /// `user` accepts challenge `id`: the game is created (in setup for Beirut and Nuke).
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when the challenge is not open, is the user's own, or is
    /// addressed to someone else.
    pub async fn accept_challenge(
        &self,
        id: i64,
        user: UserId,
        user_name: &str,
    ) -> Result<Snapshot, ServiceError> {
        self.accept(id, user, user_name, None).await
    }

    /// [`Services::accept_challenge`], and with `engine_level` the engine's seat recorded in
    /// the same transaction (`user` is then the bot itself).
    async fn accept(
        &self,
        id: i64,
        user: UserId,
        user_name: &str,
        engine_level: Option<kaboom_engine::Level>,
    ) -> Result<Snapshot, ServiceError> {
        let mut tx = self.db.begin_write().await?;
        let Some(ch) = challenges::get(&mut tx, id).await? else {
            return refuse(Refusal::UnknownChallenge { id });
        };
        if ch.state != ChallengeState::Open {
            return refuse(Refusal::ChallengeNotOpen {
                was: Some(ch.state),
            });
        }
        let expires_at = self.scheduler.challenge_expires_at(ch.created_at);
        if expires_at <= self.clock.now() {
            self.scheduler_waker.wake();
            return refuse(Refusal::ChallengeExpired { at: expires_at });
        }
        let spec = &ch.spec;
        if user == spec.challenger_id {
            return refuse(Refusal::AcceptOwnChallenge);
        }
        if spec.opponent_id.is_some_and(|o| o != user) {
            return refuse(Refusal::AddressedToSomeoneElse);
        }
        let challenger_color = match spec.color {
            ColorChoice::White => Color::White,
            ColorChoice::Black => Color::Black,
            ColorChoice::Random => {
                let mut b = [0u8; 1];
                getrandom::fill(&mut b).map_err(|e| ServiceError::Corrupt(e.to_string()))?;
                if b[0] & 1 == 0 {
                    Color::White
                } else {
                    Color::Black
                }
            }
        };
        let me = (spec.challenger_id, spec.challenger_name.clone());
        let them = (user, user_name.to_string());
        let (white, black) = match challenger_color {
            Color::White => (me, them),
            Color::Black => (them, me),
        };
        let white_id = white.0;
        let game = AnyGame::new(spec.variant, spec.options).map_err(|e| Refusal::CannotStart {
            reason: e.to_string(),
        })?;
        let state = if game.awaiting_designation().is_empty() {
            GameState::Active
        } else {
            GameState::Setup
        };
        let new = NewGame {
            challenge_id: Some(id),
            guild_id: spec.guild_id,
            channel_id: spec.channel_id,
            white,
            black,
            variant: spec.variant,
            options: spec.options,
            start_fen: game.start_fen(Viewer::Full),
            state,
            days_per_move: spec.days_per_move,
            // White moves first; their vacation, if any, holds their clock.
            deadline_at: self
                .deadline_for(&mut tx, spec.days_per_move, white_id)
                .await?,
            rated: spec.rated,
        };
        let now = self.clock.now();
        let game_id = games::insert(&mut tx, &new, now).await?;
        if let Some(level) = engine_level {
            let engine_color = challenger_color.other();
            kaboom_store::engine::insert(&mut tx, game_id, engine_color, level, now).await?;
        }
        if !challenges::close(&mut tx, id, ChallengeState::Accepted, Some(game_id)).await? {
            return refuse(Refusal::ChallengeNotOpen { was: None });
        }
        let planned = Self::snapshot_tx(&mut tx, game_id, game).await?;
        let challenge = challenges::get(&mut tx, id)
            .await?
            .ok_or_else(|| ServiceError::Corrupt(format!("challenge #{id} vanished")))?;
        self.enqueue(
            &mut tx,
            outbox::Committed::Accepted {
                game: &planned,
                challenge: &challenge,
                by: user,
            },
        )
        .await?;
        tx.commit().await?;
        tracing::info!(game_id = %game_id, challenge = id, variant = %spec.variant, "challenge accepted");
        if engine_level.is_some() {
            self.engine.wake();
        }
        self.load(game_id).await
    }

    /// The named opponent declines challenge `id` (or the challenger cancels it with
    /// `cancel`).
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when the user may not, or it is not open.
    pub async fn close_challenge(
        &self,
        id: i64,
        user: UserId,
        cancel: bool,
    ) -> Result<Challenge, ServiceError> {
        let mut tx = self.db.begin_write().await?;
        let Some(ch) = challenges::get(&mut tx, id).await? else {
            return refuse(Refusal::UnknownChallenge { id });
        };
        if ch.state != ChallengeState::Open {
            return refuse(Refusal::ChallengeNotOpen { was: None });
        }
        let state = if cancel {
            if user != ch.spec.challenger_id {
                return refuse(Refusal::OnlyChallengerCancels);
            }
            ChallengeState::Cancelled
        } else {
            match ch.spec.opponent_id {
                Some(o) if o == user => ChallengeState::Declined,
                Some(_) => return refuse(Refusal::OnlyChallengedDeclines),
                None if user == ch.spec.challenger_id => {
                    return refuse(Refusal::DeclineOwnChallenge);
                }
                None => {
                    return refuse(Refusal::OpenToAnyone);
                }
            }
        };
        challenges::close(&mut tx, id, state, None).await?;
        let closed = challenges::get(&mut tx, id)
            .await?
            .ok_or_else(|| ServiceError::Corrupt(format!("challenge #{id} vanished")))?;
        self.enqueue(
            &mut tx,
            outbox::Committed::ChallengeClosed {
                challenge: &closed,
                by: user,
            },
        )
        .await?;
        tx.commit().await?;
        Ok(closed)
    }

    /// Records the game's thread.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn set_thread(&self, game_id: GameId, thread: ChannelId) -> Result<(), ServiceError> {
        Ok(games::set_thread(&self.db, game_id, thread).await?)
    }

    /// Records the latest board message of a game (the one with buttons).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn set_board_message(
        &self,
        game_id: GameId,
        message: MessageId,
    ) -> Result<(), ServiceError> {
        Ok(games::set_board_message(&self.db, game_id, message).await?)
    }

    /// The id of the game played in `thread`, if any.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn game_in_thread(&self, thread: ChannelId) -> Result<Option<GameId>, ServiceError> {
        Ok(games::by_thread(&self.db, thread).await?.map(|g| g.id))
    }

    /// Loads game `id` from storage, replaying its actions.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when there is no such game; [`ServiceError::Corrupt`]
    /// when it does not replay.
    pub async fn load(&self, id: GameId) -> Result<Snapshot, ServiceError> {
        let Some((row, record)) = games::load_record(&self.db, id).await? else {
            return refuse(Refusal::UnknownGame { id });
        };
        let game = self.replay(id, record).await?;
        Ok(Snapshot { row, game })
    }

    /// Games `user` plays that are not over.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn active_games(&self, user: UserId) -> Result<Vec<GameRow>, ServiceError> {
        Ok(games::active_for(&self.db, user).await?)
    }

    /// The designations made so far (secret for Beirut until the end: callers show a
    /// player only their own, and everyone both only once the game is over).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn designations(&self, game_id: GameId) -> Result<Vec<Designation>, ServiceError> {
        Ok(carriers::all(&self.db, game_id).await?)
    }

    fn player_color(row: &GameRow, user: UserId, act: Act) -> Result<Color, ServiceError> {
        row.color_of(user).ok_or_else(|| {
            ServiceError::Refused(Refusal::NotAPlayer {
                white: row.white_name.clone(),
                black: row.black_name.clone(),
                act,
            })
        })
    }

    /// `user` plays `text` in game `id`, parsed as they see the game (their own Beirut
    /// carriers only). A standing draw offer by the opponent is declined by the move.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] (not a player, not their turn, game not started or over,
    /// unparsable or illegal text with legal alternatives); [`ServiceError::MovedOn`] when
    /// another action was committed between loading and saving.
    pub async fn play(&self, id: GameId, user: UserId, text: &str) -> Result<Played, ServiceError> {
        self.play_guarded(id, user, text, None, None).await
    }

    /// [`Services::play`], refused with [`ServiceError::MovedOn`] unless the game is still
    /// at `expected_ply` plies when loaded (the engine's action was chosen for that
    /// position; the commit checks the ply again).
    ///
    /// # Errors
    /// As [`Services::play`].
    pub async fn play_at(
        &self,
        id: GameId,
        user: UserId,
        text: &str,
        expected_ply: Option<i64>,
    ) -> Result<Played, ServiceError> {
        self.play_guarded(id, user, text, expected_ply, None).await
    }

    /// [`Services::play`] refused with [`ServiceError::MovedOn`] unless the game is still
    /// at `expected_ply` (the engine's choice; a confirmed explosion preview);
    /// with `preview`, that preview is settled as confirmed in the action's own
    /// transaction, so it plays once.
    pub(crate) async fn play_guarded(
        &self,
        id: GameId,
        user: UserId,
        text: &str,
        expected_ply: Option<i64>,
        preview: Option<i64>,
    ) -> Result<Played, ServiceError> {
        let Snapshot { row, game: before } = self.load(id).await?;
        if let Some(expected) = expected_ply
            && row.ply != expected
        {
            return Err(ServiceError::MovedOn {
                game_id: id,
                ply: row.ply,
            });
        }
        let color = Self::player_color(&row, user, Act::Move)?;
        if let Some(outcome) = before.status().outcome() {
            return refuse(Refusal::GameOver(outcome));
        }
        self.refuse_if_overdue(&row, before.turn())?;
        if row.state == GameState::Setup {
            return refuse(Refusal::NotStarted);
        }
        let turn = before.turn();
        if turn != color {
            return refuse(Refusal::NotYourTurn {
                to_move: turn,
                name: row.name(turn).to_string(),
            });
        }
        // Parsing and applying, and on a typo describing the legal actions (thousands in
        // a busy Bombalot position), is CPU work: off the runtime.
        let text = text.trim().to_string();
        let (game, ply) = self
            .cpu
            .run(move || {
                let mut game = before.clone();
                match game.play(Some(color), &text) {
                    Ok(ply) => Ok((game, ply)),
                    Err(e) => Err(illegal_action(&e, &before, Viewer::player(color))),
                }
            })
            .await??;
        let mut tx = self.db.begin_game_write(id).await?;
        let Some(played) = self
            .commit_ply(&mut tx, &row, color, user, game, ply, false)
            .await?
        else {
            drop(tx);
            let now_ply = self
                .load(id)
                .await
                .map(|s| s.row.ply)
                .unwrap_or(row.ply + 1);
            return Err(ServiceError::MovedOn {
                game_id: id,
                ply: now_ply,
            });
        };
        if let Some(preview) = preview
            && !kaboom_store::previews::settle(
                &mut tx,
                preview,
                kaboom_store::previews::PreviewState::Confirmed,
            )
            .await?
        {
            drop(tx);
            return refuse(Refusal::PreviewDone {
                action: played.ply.display.clone(),
            });
        }
        // The opponent's conditional lines answer in the same transaction.
        self.after_ply_in_tx(&mut tx, &played, None).await?;
        tx.commit().await?;
        tracing::info!(game_id = %id, ply = row.ply + 1, action = %played.ply.san, "action played");
        self.engine.wake();
        Ok(played)
    }

    /// Writes `game` (the game after `ply`, played by `user` as `color` from `row`'s ply)
    /// inside `tx` with the expected-ply check, the draw offer it declines, the reveal and
    /// rating of a game it ends, and its outbox entries. `None` when the game was no longer
    /// at `row.ply` (nothing written). `by_conditional`: played by a conditional line,
    /// which the board's caption says.
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn commit_ply(
        &self,
        tx: &mut kaboom_store::Tx,
        row: &GameRow,
        color: Color,
        user: UserId,
        game: AnyGame,
        ply: PlyRecord,
        by_conditional: bool,
    ) -> Result<Option<Played>, ServiceError> {
        let id = row.id;
        let status = game.status();
        let finished = status.outcome();
        let now = self.clock.now();
        let deadline_at = if finished.is_some() {
            None
        } else {
            self.deadline_for(tx, row.days_per_move, row.player(color.other()))
                .await?
        };
        let update = StateUpdate {
            expected_ply: row.ply,
            action: Some((ply.san.clone(), user)),
            state_fen: game.fen(Viewer::Full),
            start_fen: row.start_fen.clone(),
            state: if finished.is_some() {
                GameState::Finished
            } else {
                GameState::Active
            },
            declared: row.declared,
            result: finished.map(|o| (o.result().to_string(), o.reason.name().to_string())),
            deadline_at,
        };
        if !games::update_state(tx, id, &update, now).await? {
            return Ok(None);
        }
        let mut declined_draw = false;
        if let Some(offer) = games::draw_offer(tx, id).await?
            && (offer.by != color || finished.is_some())
        {
            games::clear_draw_offer(tx, id).await?;
            declined_draw = offer.by != color;
        }
        // A move voids a standing takeback proposal.
        kaboom_store::comforts::clear_takeback(tx, id).await?;
        let reveal = if finished.is_some() {
            carriers::all(&mut *tx, id).await?
        } else {
            Vec::new()
        };
        let snap = Self::snapshot_tx(tx, id, game).await?;
        let rating = self.rate(tx, &snap).await?;
        let played = Played {
            snap,
            ply,
            declined_draw,
            reveal,
            rating,
            by_conditional,
        };
        self.enqueue(tx, outbox::Committed::Played(&played)).await?;
        Ok(Some(played))
    }

    /// Autocomplete for `/move`: `user`'s legal actions in game `id` matching `typed`
    /// (SAN, coordinate form or piece name), at most 25, each labelled with what it does.
    /// Empty for spectators and when it is not the user's turn.
    ///
    /// # Errors
    /// [`ServiceError`] when the game cannot be loaded.
    pub async fn suggest(
        &self,
        id: GameId,
        user: UserId,
        typed: &str,
    ) -> Result<Vec<Suggestion>, ServiceError> {
        let snap = self.load(id).await?;
        let Some(color) = snap.row.color_of(user) else {
            return Ok(Vec::new());
        };
        if snap.game.turn() != color || snap.row.state != GameState::Active {
            return Ok(Vec::new());
        }
        let (game, typed) = (snap.game, typed.to_string());
        self.cpu
            .run(move || suggest::suggestions(&game, Viewer::player(color), &typed, 25))
            .await
    }

    /// The carrier menu for `user` in game `id` (BE-2: any own piece but the king; NU-3:
    /// any own piece).
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when the user does not play, the game is not in setup, or
    /// they have already chosen.
    pub async fn carrier_menu(
        &self,
        id: GameId,
        user: UserId,
    ) -> Result<CarrierMenu, ServiceError> {
        let snap = self.load(id).await?;
        let color = Self::player_color(&snap.row, user, Act::ChooseCarriers)?;
        if !snap.game.awaiting_designation().contains(&color) {
            return refuse(Refusal::NoCarriersToChoose);
        }
        let view = snap.game.board_view(Viewer::player(color));
        let candidates = snap.game.carrier_candidates(color);
        let options = view
            .pieces
            .iter()
            .filter(|p| candidates.contains(&p.square))
            .map(|p| (p.square, p.kind))
            .collect();
        let count = snap.game.carrier_count();
        Ok(CarrierMenu {
            game_id: id,
            color,
            count,
            options,
            abort_at: snap.row.created_at + self.scheduler.designation_timeout_secs,
        })
    }

    /// `user` designates `squares` as their carriers in game `id` (BE-2, NU-3), with a
    /// fresh salt and the BE-9 commitment. When both have chosen, play starts.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when the user may not choose now or the squares break
    /// the rules (the rules library says why).
    pub async fn designate(
        &self,
        id: GameId,
        user: UserId,
        squares: &[String],
    ) -> Result<Designated, ServiceError> {
        let parsed: Vec<Square> = squares
            .iter()
            .map(|s| s.trim().parse::<Square>())
            .collect::<Result<_, _>>()
            .map_err(|e| Refusal::BadSquare {
                reason: e.to_string(),
            })?;
        let salt = commitment::fresh_salt().map_err(ServiceError::Corrupt)?;
        let mut tx = self.db.begin_game_write(id).await?;
        let Some(row) = games::get(&mut tx, id).await? else {
            return refuse(Refusal::UnknownGame { id });
        };
        let color = Self::player_color(&row, user, Act::ChooseCarriers)?;
        let actions = games::actions(&mut tx, id).await?;
        let mut game = self.replay(id, games::record(&row, actions)).await?;
        self.refuse_if_overdue(&row, game.turn())?;
        if !game.awaiting_designation().contains(&color) {
            return refuse(Refusal::AlreadyChosen);
        }
        game.designate(color, &parsed)
            .map_err(|e| Refusal::CarriersNotAllowed {
                reason: e.to_string(),
            })?;
        let canon = commitment::canonical_squares(&parsed);
        let designation = Designation {
            color,
            commitment: commitment::commitment(id, color, &canon, &salt),
            squares: canon,
            salt,
        };
        let now = self.clock.now();
        carriers::insert(&mut tx, id, &designation, now).await?;
        let started = game.awaiting_designation().is_empty();
        let update = StateUpdate {
            expected_ply: row.ply,
            action: None,
            state_fen: game.fen(Viewer::Full),
            start_fen: game.start_fen(Viewer::Full),
            state: if started {
                GameState::Active
            } else {
                GameState::Setup
            },
            declared: None,
            result: None,
            deadline_at: if started {
                self.deadline_for(&mut tx, row.days_per_move, row.white_id)
                    .await?
            } else {
                row.deadline_at
            },
        };
        if !games::update_state(&mut tx, id, &update, now).await? {
            return Err(ServiceError::MovedOn {
                game_id: id,
                ply: row.ply,
            });
        }
        let all = if started {
            carriers::all(&mut tx, id).await?
        } else {
            Vec::new()
        };
        let designated = Designated {
            snap: Self::snapshot_tx(&mut tx, id, game).await?,
            color,
            designation,
            started,
            all,
        };
        self.enqueue(&mut tx, outbox::Committed::Designated(&designated))
            .await?;
        tx.commit().await?;
        tracing::info!(game_id = %id, %color, started, "carriers chosen");
        if started {
            self.engine.wake();
        }
        Ok(designated)
    }

    /// Ends game `id` with `outcome` inside an open write transaction.
    async fn finish(
        &self,
        mut tx: kaboom_store::Tx,
        row: &GameRow,
        mut game: AnyGame,
        outcome: Outcome,
    ) -> Result<Ended, ServiceError> {
        game.declare(outcome);
        let outcome = game.status().outcome().unwrap_or(outcome);
        let update = StateUpdate::finished(row, game.fen(Viewer::Full), outcome);
        if !games::update_state(&mut tx, row.id, &update, self.clock.now()).await? {
            return Err(ServiceError::MovedOn {
                game_id: row.id,
                ply: row.ply,
            });
        }
        games::clear_draw_offer(&mut tx, row.id).await?;
        let reveal = carriers::all(&mut tx, row.id).await?;
        let snap = Self::snapshot_tx(&mut tx, row.id, game).await?;
        let rating = self.rate(&mut tx, &snap).await?;
        let ended = Ended {
            snap,
            outcome,
            reveal,
            rating: rating.map(Box::new),
        };
        self.enqueue(&mut tx, outbox::Committed::Ended(&ended))
            .await?;
        tx.commit().await?;
        tracing::info!(game_id = %row.id, result = outcome.result(), reason = %outcome.reason, "game ended");
        Ok(ended)
    }

    async fn open_for_write(
        &self,
        id: GameId,
        user: UserId,
        act: Act,
    ) -> Result<(kaboom_store::Tx, GameRow, AnyGame, Color), ServiceError> {
        let mut tx = self.db.begin_game_write(id).await?;
        let Some(row) = games::get(&mut tx, id).await? else {
            return refuse(Refusal::UnknownGame { id });
        };
        let color = Self::player_color(&row, user, act)?;
        let actions = games::actions(&mut tx, id).await?;
        let game = self.replay(id, games::record(&row, actions)).await?;
        if let Some(outcome) = game.status().outcome() {
            return refuse(Refusal::AlreadyOver(outcome));
        }
        self.refuse_if_overdue(&row, game.turn())?;
        Ok((tx, row, game, color))
    }

    /// `user` resigns game `id`.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when they do not play it or it is over.
    pub async fn resign(&self, id: GameId, user: UserId) -> Result<Ended, ServiceError> {
        let (tx, row, game, color) = self.open_for_write(id, user, Act::Resign).await?;
        self.finish(
            tx,
            &row,
            game,
            Outcome::win(color.other(), EndReason::Resignation),
        )
        .await
    }

    /// `user` aborts game `id`: allowed only before both sides have moved.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when they do not play it, it is over, or both have moved.
    pub async fn abort(&self, id: GameId, user: UserId) -> Result<Ended, ServiceError> {
        let (tx, row, game, _) = self.open_for_write(id, user, Act::Abort).await?;
        if game.ply_count() >= 2 {
            return refuse(Refusal::TooLateToAbort);
        }
        self.finish(tx, &row, game, Outcome::draw(EndReason::Aborted))
            .await
    }

    /// `user` offers a draw in game `id`. If the opponent's offer stands, this accepts it.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when they do not play it, it is over or not started, or
    /// their own offer already stands.
    pub async fn offer_draw(&self, id: GameId, user: UserId) -> Result<DrawResult, ServiceError> {
        let (mut tx, row, game, color) = self.open_for_write(id, user, Act::OfferDraw).await?;
        if row.state == GameState::Setup {
            return refuse(Refusal::DrawBeforeStart);
        }
        match games::draw_offer(&mut tx, id).await? {
            Some(o) if o.by == color => refuse(Refusal::DrawAlreadyOffered),
            Some(_) => Ok(DrawResult::Agreed(
                self.finish(tx, &row, game, Outcome::draw(EndReason::Agreement))
                    .await?,
            )),
            None => {
                games::put_draw_offer(
                    &mut tx,
                    id,
                    DrawOffer {
                        by: color,
                        ply: row.ply,
                    },
                    self.clock.now(),
                )
                .await?;
                let offered = DrawResult::Offered {
                    snap: Self::snapshot_tx(&mut tx, id, game).await?,
                    by: color,
                };
                self.enqueue(&mut tx, outbox::Committed::Draw(&offered))
                    .await?;
                tx.commit().await?;
                Ok(offered)
            }
        }
    }

    /// `user` accepts or declines the opponent's standing draw offer in game `id`.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when no offer by the opponent stands.
    pub async fn answer_draw(
        &self,
        id: GameId,
        user: UserId,
        accept: bool,
    ) -> Result<DrawResult, ServiceError> {
        let (mut tx, row, game, color) = self.open_for_write(id, user, Act::AnswerDraw).await?;
        match games::draw_offer(&mut tx, id).await? {
            Some(o) if o.by != color => {
                if accept {
                    Ok(DrawResult::Agreed(
                        self.finish(tx, &row, game, Outcome::draw(EndReason::Agreement))
                            .await?,
                    ))
                } else {
                    games::clear_draw_offer(&mut tx, id).await?;
                    let declined = DrawResult::Declined {
                        snap: Self::snapshot_tx(&mut tx, id, game).await?,
                        by: o.by,
                    };
                    self.enqueue(&mut tx, outbox::Committed::Draw(&declined))
                        .await?;
                    tx.commit().await?;
                    Ok(declined)
                }
            }
            Some(_) => refuse(Refusal::OwnDrawOffer),
            None => refuse(Refusal::NoDrawOffer),
        }
    }

    /// Whether a draw offer stands in game `id`, and by whom.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn draw_offer(&self, id: GameId) -> Result<Option<Color>, ServiceError> {
        let mut tx = self.db.begin_game_write(id).await?;
        let o = games::draw_offer(&mut tx, id).await?;
        tx.commit().await?;
        Ok(o.map(|o| o.by))
    }

    /// The game's PGN. Beirut carriers appear only once the game is over (BE-9), Nuke
    /// carriers once both sides have chosen (NU-3).
    ///
    /// # Errors
    /// [`ServiceError`] when the game cannot be loaded.
    pub async fn pgn(&self, id: GameId) -> Result<String, ServiceError> {
        let snap = self.load(id).await?;
        if pgn::carriers_public(&snap) {
            let designations = self.designations(id).await?;
            return Ok(pgn::pgn(&snap, &designations));
        }
        Ok(pgn::pgn(&snap, &[]))
    }

    /// Paints `viewer`'s view of the game after its last action, from `bottom`'s side.
    /// CPU work: call it off the async runtime.
    ///
    /// # Errors
    /// The painter's message.
    pub fn paint(&self, snap: &Snapshot, viewer: Viewer, bottom: Color) -> Result<Vec<u8>, String> {
        self.painter.paint_game(&snap.game, viewer, bottom)
    }

    /// The replay GIF of the game in `snap` as `viewer` sees it from `bottom`'s
    /// side: 480 pixels wide, or narrower (360, then 240) while it is over `max_bytes`.
    /// CPU work: call it off the async runtime.
    ///
    /// # Errors
    /// The painter's message, or a message saying the replay stays over `max_bytes`
    /// even at the narrowest width.
    pub fn replay_gif(
        &self,
        snap: &Snapshot,
        viewer: Viewer,
        bottom: Color,
        max_bytes: usize,
    ) -> Result<Vec<u8>, String> {
        for width in REPLAY_WIDTHS {
            let gif = self.painter.replay_gif(&snap.game, viewer, bottom, width)?;
            if gif.len() <= max_bytes {
                return Ok(gif);
            }
        }
        Err(format!(
            "the replay of game #{} is larger than {max_bytes} bytes even at {} px",
            snap.row.id,
            REPLAY_WIDTHS[REPLAY_WIDTHS.len() - 1]
        ))
    }

    /// Paints the start position of `variant` (for `/rules`).
    ///
    /// # Errors
    /// A message when the variant is not available or the painter fails.
    pub fn paint_start(&self, variant: Variant) -> Result<Vec<u8>, String> {
        let game = AnyGame::new(variant, GameOptions::default()).map_err(|e| e.to_string())?;
        self.painter
            .paint(&game.board_view(Viewer::Spectator), None, Color::White)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A typo in the busiest Bombalot position known (6,161 legal actions,
    /// `busy-super-tweke` in the perft file) is refused with a bounded text: at most
    /// [`ILLEGAL_ACTION_EXAMPLES`] examples and the rules library's "and N more".
    #[test]
    fn an_illegal_action_is_described_in_a_bounded_text() {
        const BUSY: &str =
            "i(m)do1m1dt/2ww1ws1/1Sw1w1w1/1D1sw3/5w2/2WW2W1/1W6/3OM1DT w ---- Ww 0 13";
        let game = AnyGame::from_fen(Variant::Bombalot, BUSY).unwrap();
        for typed in ["zz9", "b6:a1"] {
            let error = game.clone().play(Some(Color::White), typed).unwrap_err();
            let Refusal::IllegalAction {
                reason,
                alternatives,
            } = illegal_action(&error, &game, Viewer::White)
            else {
                panic!("{typed}: not an illegal-action refusal");
            };
            let shown = alternatives.unwrap_or_default();
            assert!(shown.len() <= ILLEGAL_ACTION_EXAMPLES, "{shown:?}");
            let chars = reason.chars().count() + shown.join(", ").chars().count();
            assert!(chars < 1_500, "{typed}: {chars} characters: {reason}");
        }
    }
}
