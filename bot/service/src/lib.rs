//! # kaboom-service
//!
//! The games service: every player action as a function of (game, player, text), with no
//! Discord types. The Discord layer parses arguments, calls these, and presents the result.
//!
//! The path of a move (docs/ARCHITECTURE.md): [`Games::play`](crate::Games::play) loads the game's state
//! and ply from storage, lets the rules library parse the text as that player sees the
//! game and apply it, then writes the action and the new state in one transaction that
//! checks the expected ply, so two concurrent submissions can never both apply
//! ([`ServiceError::MovedOn`] for the loser). Nothing is returned as done before it is
//! committed.
#![deny(missing_docs)]

pub mod access;
pub mod analysis;
mod challenge_actions;
pub mod comfort_types;
pub mod comforts;
pub mod commitment;
pub mod engine;
mod game_actions;
pub mod leagues;
pub mod outbox;
pub mod painter;
pub mod pgn;
pub mod preview;
pub mod puzzles;
pub mod ratings;
pub mod refusal;
pub mod replay;
pub mod scheduler;
pub mod settings;
pub mod suggest;

use std::sync::Arc;

use kaboom_rules::{
    ActionError, AnyGame, Color, EndReason, GameOptions, Outcome, PlayError, PlyRecord, Square,
    Variant, Viewer,
};

use crate::painter::{BoardPainter, PaintError, ReplayPace, ReplayStyle};
use kaboom_domain::clock::Clock;
use kaboom_domain::game::Venue;
use kaboom_domain::ids::{ChannelId, GameId, GuildId, MessageId, UserId};
use kaboom_store::carriers::{self, Designation};
use kaboom_store::challenges::{self, Challenge, ChallengeState, ColorChoice, NewChallenge};
use kaboom_store::games::{self, DrawOffer, GameRow, GameState, NewGame, StateUpdate};
use kaboom_store::{Db, StorageError};

pub use challenge_actions::Seek;
pub use game_actions::MoveChoices;
pub use refusal::{Act, Refusal};
pub use suggest::Suggestion;

/// The `days_per_move` choices (default 3; or none: docs/ARCHITECTURE.md, "Defaults").
pub const DAYS_PER_MOVE_CHOICES: [u32; 7] = [1, 2, 3, 5, 7, 10, 14];
/// The default `days_per_move`.
pub const DEFAULT_DAYS_PER_MOVE: u32 = 3;

/// The most open seeks one player may have at once (`/seek`): enough to offer a few
/// variants, too few to flood the list everyone sees.
pub const MAX_OPEN_SEEKS: usize = 3;

/// The most seeks `/seeks` lists at once: the 25 options of one select menu ("Maximum
/// of 25 options",
/// <https://discord.com/developers/docs/components/reference#string-select>).
pub const SEEKS_LISTED: usize = 25;

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
    /// A computation on the CPU pool ([`replay::CpuPool`]) panicked or was cancelled: a
    /// bug, or stored data the rules library cannot handle. Players get the same answer as
    /// for damaged data; the details (which may hold the game's state) go to the host's log.
    #[error("a computation failed: {0}")]
    TaskPanicked(String),
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

/// What [`Games::play`](crate::Games::play) did.
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
    /// Whether the game had conditional lines (of either side) when the action was
    /// written: without any, none can answer it, and no statement looks for them.
    pub(crate) conditional_lines: bool,
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
    /// The moderator who ended it and why, when one did ([`Games::moderate`]).
    pub ruling: Option<ModeratorRuling>,
}

/// A server moderator's decision that ended a game, shown with its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModeratorRuling {
    /// The moderator.
    pub moderator: UserId,
    /// Their display name.
    pub name: String,
    /// Why, as they wrote it (1 to [`MAX_RULING_REASON_CHARS`] characters).
    pub reason: String,
}

/// The longest reason a moderator may give, in characters: it is posted in the thread
/// with the result, within Discord's 2,000-character message.
pub const MAX_RULING_REASON_CHARS: usize = 300;

/// What a moderator decides for a running game ([`Games::moderate`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ruling {
    /// The game is called off: no result, not rated.
    Abort,
    /// The game ends with this winner (`None`: a draw), by adjudication, rated as the
    /// game was.
    Result(Option<Color>),
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

/// A move to play ([`Games::play`]): who plays what in which game, and what must still hold
/// when it is saved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayRequest<'a> {
    /// The game.
    pub game: GameId,
    /// The player making the move.
    pub player: UserId,
    /// The action as the player typed it: SAN, the coordinate form, or a piece name
    /// (surrounding white space ignored).
    pub text: &'a str,
    /// Refused with [`ServiceError::MovedOn`] unless the game is still at this many plies
    /// when loaded (the position an engine's search or a preview was made for; the commit
    /// checks the ply again in any case).
    pub expected_ply: Option<i64>,
    /// The explosion preview this move confirms: settled as confirmed in the move's own
    /// transaction, so it plays once.
    pub(crate) preview: Option<i64>,
}

impl<'a> PlayRequest<'a> {
    /// `player` plays `text` in `game`, in whatever position the game is in.
    pub fn new(game: GameId, player: UserId, text: &'a str) -> PlayRequest<'a> {
        PlayRequest {
            game,
            player,
            text,
            expected_ply: None,
            preview: None,
        }
    }

    /// The same move, only if the game is still at `ply` plies.
    pub fn at_ply(self, ply: i64) -> PlayRequest<'a> {
        PlayRequest {
            expected_ply: Some(ply),
            ..self
        }
    }
}

/// The bot's services: one per aggregate ([`Services::games`], [`Services::challenges`],
/// [`Services::comforts`], [`Services::ratings`], [`Services::practice`],
/// [`Services::previews`]) over what they share (storage, clock, board painter, the
/// scheduler's and the outbox's wakers, the CPU pool, the replay cache, the engine's
/// runner). Cheap to clone: one `Arc`.
///
/// Each player action has one entry point on its aggregate, which loads, checks, writes
/// in one transaction (with the game's expected ply and the outbox entries of what it must
/// post) and returns a typed result: the Discord layer words it.
#[derive(Clone)]
pub struct Services {
    core: Arc<Core>,
}

/// What every service shares ([`Services`]); the services' own internals (loading,
/// committing a ply, rating, writing outbox entries) live here as methods too, so any
/// aggregate can use them.
#[derive(Clone)]
pub(crate) struct Core {
    /// The database.
    pub(crate) db: Db,
    /// The clock (deadlines).
    pub(crate) clock: Arc<dyn Clock>,
    /// The board painter.
    pub(crate) painter: Arc<dyn BoardPainter>,
    /// The scheduler's configuration: messages quote its expiry and abort times.
    pub(crate) scheduler: kaboom_domain::deadline::SchedulerConfig,
    /// Wakes the scheduler when an action comes after its time ran out.
    pub(crate) scheduler_waker: kaboom_domain::deadline::SchedulerWaker,
    /// Words the Discord side effects written to the outbox with each change.
    pub(crate) effects: Option<Arc<dyn outbox::EffectPlanner>>,
    /// Wakes the outbox's deliverer (the Discord layer's) after such a change.
    pub(crate) outbox_waker: outbox::OutboxWaker,
    /// Runs replays, suggestions and painting off the async runtime, a bounded number at
    /// once.
    pub(crate) cpu: replay::CpuPool,
    /// Replayed games by (game id, ply), checked against the stored record.
    pub(crate) replays: Arc<replay::ReplayCache>,
    /// The practice opponent's searches and the waker of its worker.
    pub(crate) engine: engine::EngineRunner,
    /// Who is still a member of a server, asked when a league's sign-up closes.
    pub(crate) membership: Option<Arc<dyn leagues::Membership>>,
    /// Post-game analyses' searches: their own pool, apart from the one that replays and
    /// paints for moves and from the practice opponent's.
    pub(crate) analysis_pool: replay::CpuPool,
    /// Nodes per position of an analysis; `None`: the engine's default per variant.
    pub(crate) analysis_nodes: Option<u64>,
    /// Wakes the analysis worker after a request.
    pub(crate) analysis_waker: Arc<tokio::sync::Notify>,
    /// Whether any player has missed notices, as far as this process knows.
    pub(crate) notices: Arc<outbox::NoticesSeen>,
    /// The games of the threads seen lately ([`Games::game_in_thread`]).
    pub(crate) thread_games: Arc<ThreadGames>,
}

/// The game of each game thread seen lately, so that a command in a game's thread (every
/// `/move` there) asks the database for it once: a thread is its game's from its creation
/// on and never another's (a game keeps its row; a thread is recorded on one game), so a
/// known answer never goes stale. A thread of no game is asked about each time (it may be
/// recorded later). At most [`ThreadGames::MAX`] threads, the least recently used
/// forgotten first (as the replay cache does, `hashlink`'s LRU).
#[derive(Debug)]
pub(crate) struct ThreadGames(std::sync::Mutex<hashlink::LruCache<ChannelId, GameId>>);

impl Default for ThreadGames {
    fn default() -> ThreadGames {
        ThreadGames(std::sync::Mutex::new(hashlink::LruCache::new(Self::MAX)))
    }
}

impl ThreadGames {
    /// The most threads remembered (some tens of bytes each).
    const MAX: usize = 10_000;

    fn lock(&self) -> std::sync::MutexGuard<'_, hashlink::LruCache<ChannelId, GameId>> {
        // Every change is one insert: a poisoned lock is still consistent.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Thread `thread`'s game, if it was seen.
    pub(crate) fn get(&self, thread: ChannelId) -> Option<GameId> {
        self.lock().get(&thread).copied()
    }

    /// Remembers that `thread` is game `game`'s.
    pub(crate) fn remember(&self, thread: ChannelId, game: GameId) {
        self.lock().insert(thread, game);
    }
}

macro_rules! aggregate {
    ($(#[$doc:meta])* $name:ident, $accessor:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        pub struct $name<'a> {
            core: &'a Core,
        }

        impl Services {
            $(#[$doc])*
            pub fn $accessor(&self) -> $name<'_> {
                $name { core: &self.core }
            }
        }

        impl Core {
            #[allow(dead_code)]
            pub(crate) fn $accessor(&self) -> $name<'_> {
                $name { core: self }
            }
        }
    };
}

aggregate!(
    /// Games: loading and reading them, moves ([`Games::play`]), carriers, draws,
    /// resignations, boards and replays.
    Games,
    games
);
aggregate!(
    /// Challenges: creating, accepting and closing them.
    Challenges,
    challenges
);
aggregate!(
    /// Comforts: conditional moves, vacations, takebacks, notes and rematches.
    Comforts,
    comforts
);
aggregate!(
    /// Ratings: profiles, the leaderboard, finished games and rating changes.
    Ratings,
    ratings
);
aggregate!(
    /// The practice opponent: its seats, its moves and its sweep.
    Practice,
    practice
);
aggregate!(
    /// Settings: players' and servers' reminders.
    Settings,
    settings
);
aggregate!(
    /// The outbox's deliveries: what is pending, the claims on its queues, and marking
    /// entries delivered or failed (for the Discord layer's deliverer).
    Deliveries,
    deliveries
);
aggregate!(
    /// Server leagues: creating them, sign-up, rounds, results, withdrawals and the
    /// scheduler's sweep of them.
    Leagues,
    leagues
);
aggregate!(
    /// Post-game analyses: requests, the worker's claims, progress and results.
    Analyses,
    analyses
);
aggregate!(
    /// Explosion previews: each player's setting, storing, confirming and cancelling them.
    Previews,
    previews
);
aggregate!(
    /// Variant puzzles: picking one for a player, their answers and ratings, and the
    /// servers' daily puzzles.
    Puzzles,
    puzzles
);

fn parse_days(days: Option<u32>) -> Result<Option<u32>, ServiceError> {
    match days {
        None => Ok(None),
        Some(d) if DAYS_PER_MOVE_CHOICES.contains(&d) => Ok(Some(d)),
        Some(d) => refuse(Refusal::DaysNotOffered { days: d }),
    }
}

/// How many legal actions a refusal of an unreadable or illegal action names.
pub const ILLEGAL_ACTION_EXAMPLES: usize = 8;

/// A move's game as [`Core::start_move`] loaded and checked it.
struct MoveStart {
    /// The stored row.
    row: GameRow,
    /// The stored record (for the replay cache once the move is written).
    record: kaboom_rules::GameRecord,
    /// The game before the move.
    before: Arc<AnyGame>,
    /// The mover's side.
    color: Color,
}

/// `color`'s action `text` applied to a copy of `before`: the game after it (twice: to
/// write, and shared with the replay cache) and its ply record, or why it is refused
/// ([`illegal_action`]).
fn apply(
    before: &AnyGame,
    color: Color,
    text: &str,
) -> Result<(AnyGame, Arc<AnyGame>, PlyRecord), ServiceError> {
    let mut game = AnyGame::clone(before);
    match game.play(Some(color), text) {
        Ok(ply) => Ok((game.clone(), Arc::new(game), ply)),
        Err(e) => Err(ServiceError::Refused(illegal_action(
            &e,
            before,
            Viewer::player(color),
        ))),
    }
}

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
        let core = Core {
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
            membership: None,
            analysis_pool: replay::CpuPool::new(analysis::ANALYSIS_SEARCHES),
            analysis_nodes: None,
            analysis_waker: Arc::new(tokio::sync::Notify::new()),
            notices: Arc::default(),
            thread_games: Arc::default(),
        };
        Services {
            core: Arc::new(core),
        }
    }

    /// The database: for the scheduler, the CLI and tests. Player actions and the outbox's
    /// deliveries go through the aggregates ([`Services::deliveries`]), never straight to
    /// storage.
    pub fn db(&self) -> &Db {
        &self.core.db
    }

    /// The clock the services read the time from.
    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.core.clock
    }

    /// The board painter.
    pub fn painter(&self) -> &Arc<dyn BoardPainter> {
        &self.core.painter
    }

    /// The scheduler's configuration, which messages quote (expiry and abort times).
    pub fn scheduler_config(&self) -> &kaboom_domain::deadline::SchedulerConfig {
        &self.core.scheduler
    }

    /// The waker of the outbox's deliverer.
    pub fn outbox_waker(&self) -> &outbox::OutboxWaker {
        &self.core.outbox_waker
    }

    /// The pool that runs replays, suggestions and painting off the async runtime.
    pub fn cpu(&self) -> &replay::CpuPool {
        &self.core.cpu
    }

    /// Replayed games by (game id, ply): for measuring and testing the cache.
    pub fn replays(&self) -> &Arc<replay::ReplayCache> {
        &self.core.replays
    }

    /// The waker of the scheduler these services wake when an action comes too late.
    pub fn scheduler_waker(&self) -> &kaboom_domain::deadline::SchedulerWaker {
        &self.core.scheduler_waker
    }

    /// The practice opponent's searches and the waker of its worker.
    pub fn engine(&self) -> &engine::EngineRunner {
        &self.core.engine
    }

    /// The shared core, to change before the services are in use (the builders below);
    /// copied if a clone of these services already shares it.
    fn core_mut(&mut self) -> &mut Core {
        Arc::make_mut(&mut self.core)
    }

    /// The same services keeping replayed games in `cache` (e.g. `ReplayCache::new(0)`
    /// to replay on every load, for measurements).
    pub fn with_replay_cache(mut self, cache: Arc<replay::ReplayCache>) -> Services {
        self.core_mut().replays = cache;
        self
    }

    /// The same services waking the scheduler through `waker` when an action comes too
    /// late (a clone of the running scheduler's waker).
    pub fn with_scheduler_waker(
        mut self,
        waker: kaboom_domain::deadline::SchedulerWaker,
    ) -> Services {
        self.core_mut().scheduler_waker = waker;
        self
    }

    /// The same services asking `membership` which players left the server when a league's
    /// sign-up closes (without it, nobody is taken off).
    pub fn with_membership(mut self, membership: Arc<dyn leagues::Membership>) -> Services {
        self.core_mut().membership = Some(membership);
        self
    }

    /// The same services quoting the scheduler configuration `config` (the one the bot's
    /// scheduler runs with) in their messages.
    pub fn with_scheduler_config(
        mut self,
        config: kaboom_domain::deadline::SchedulerConfig,
    ) -> Services {
        self.core_mut().scheduler = config;
        self
    }
}

impl Core {
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

    /// [`Challenges::accept`](crate::Challenges::accept), and with `engine_level` the engine's seat recorded in
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
            // A seek's game belongs to no server: its players may come from two.
            guild_id: spec.guild_id.filter(|_| spec.venue != Venue::Seek),
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
            venue: spec.venue,
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
        let started = self.load(game_id).await?;
        if engine_level.is_some() {
            self.engine.note_turn(&started);
            self.engine.wake();
        }
        Ok(started)
    }

    /// Loads game `id` from storage, replaying its actions.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when there is no such game; [`ServiceError::Corrupt`]
    /// when it does not replay.
    pub(crate) async fn load(&self, id: GameId) -> Result<Snapshot, ServiceError> {
        let Some((row, record)) = games::load_record(&self.db, id).await? else {
            return refuse(Refusal::UnknownGame { id });
        };
        let game = self.replay(id, record).await?;
        Ok(Snapshot { row, game })
    }

    /// `user`'s colour when it is their move in `game`, stored as `row` (read-only: the
    /// write that plays a move checks again), else why not: not a player, the game is
    /// over, its time ran out, carriers still to choose, the opponent's turn.
    fn mover(&self, row: &GameRow, game: &AnyGame, user: UserId) -> Result<Color, ServiceError> {
        let color = Self::player_color(row, user, Act::Move)?;
        if let Some(outcome) = game.status().outcome() {
            return refuse(Refusal::GameOver(outcome));
        }
        let turn = game.turn();
        self.refuse_if_overdue(row, turn)?;
        if row.state == GameState::Setup {
            return refuse(Refusal::NotStarted);
        }
        if turn != color {
            return refuse(Refusal::NotYourTurn {
                game: row.id,
                to_move: turn,
                name: row.name(turn).to_string(),
            });
        }
        Ok(color)
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

    /// [`Games::play`].
    pub(crate) async fn play(&self, request: PlayRequest<'_>) -> Result<Played, ServiceError> {
        let (start, _) = self
            .start_move(&request, preview::PreviewFirst::Never)
            .await?;
        // Parsing and applying, and on a typo describing the legal actions (thousands in
        // a busy Bombalot position), is CPU work: off the runtime.
        let (before, color, text) = (
            start.before.clone(),
            start.color,
            request.text.trim().to_string(),
        );
        let (game, after, ply) = self.cpu.run(move || apply(&before, color, &text)).await??;
        self.finish_move(start, request, game, after, ply).await
    }

    /// As [`Core::play`], unless `first` asks for an explosion preview: then, when the
    /// action is one to preview, the preview instead (nothing written). One load of the
    /// game and one job off the runtime for both, where a preview and then the move each
    /// took their own.
    pub(crate) async fn play_or_preview(
        &self,
        request: PlayRequest<'_>,
        first: preview::PreviewFirst,
    ) -> Result<preview::PlayedOrPreviewed, ServiceError> {
        let (start, first) = self.start_move(&request, first).await?;
        let (before, color, text) = (
            start.before.clone(),
            start.color,
            request.text.trim().to_string(),
        );
        let preview_or_move = self
            .cpu
            .run(move || match first.preview(&before, color, &text)? {
                Some(action) => Ok(Err(action)),
                None => apply(&before, color, &text).map(Ok),
            })
            .await??;
        match preview_or_move {
            Ok((game, after, ply)) => Ok(preview::PlayedOrPreviewed::Played(Box::new(
                self.finish_move(start, request, game, after, ply).await?,
            ))),
            Err(action) => Ok(preview::PlayedOrPreviewed::Previewed(Box::new(
                preview::Preview {
                    ply: start.row.ply,
                    row: start.row,
                    color,
                    action,
                },
            ))),
        }
    }

    /// A move's game, loaded and checked: the game exists, is at the request's expected
    /// ply, and it is the request's player's move; with `first` settled
    /// ([`preview::PreviewFirst::BySetting`] read with the game, in one statement).
    async fn start_move(
        &self,
        request: &PlayRequest<'_>,
        first: preview::PreviewFirst,
    ) -> Result<(MoveStart, preview::PreviewFirst), ServiceError> {
        let id = request.game;
        let loaded = if first == preview::PreviewFirst::BySetting {
            games::load_record_for_mover(&self.db, id, request.player)
                .await?
                .map(|(row, record, choice)| (row, record, Some(choice)))
        } else {
            games::load_record(&self.db, id)
                .await?
                .map(|(row, record)| (row, record, None))
        };
        let Some((row, record, choice)) = loaded else {
            return refuse(Refusal::UnknownGame { id });
        };
        // Shared with the replay cache: copied once, in the job that plays the action.
        let before = self.replays.replay(&self.cpu, id, record.clone()).await?;
        if let Some(expected) = request.expected_ply
            && row.ply != expected
        {
            return Err(ServiceError::MovedOn {
                game_id: id,
                ply: row.ply,
            });
        }
        let color = self.mover(&row, &before, request.player)?;
        Ok((
            MoveStart {
                row,
                record,
                before,
                color,
            },
            first.settled(choice),
        ))
    }

    /// Writes the move `game` (after `ply`; `after` shared with the replay cache) started
    /// by `start` for `request`, and settles the preview it confirms.
    async fn finish_move(
        &self,
        MoveStart {
            row, record, color, ..
        }: MoveStart,
        PlayRequest {
            game: id,
            player: user,
            preview,
            ..
        }: PlayRequest<'_>,
        game: AnyGame,
        after: Arc<AnyGame>,
        ply: PlyRecord,
    ) -> Result<Played, ServiceError> {
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
        // The outbox paints this ply's board next: from the cache, not a second replay. The
        // entry is keyed by the record as stored now (a hit needs an equal record).
        let mut actions = record.actions;
        actions.push(played.ply.san.clone());
        self.replays
            .put(id, games::record(&played.snap.row, actions), after);
        tracing::info!(game_id = %id, ply = row.ply + 1, action = %played.ply.san, "action played");
        if self.engine.note_turn(&played.snap) {
            self.engine.wake();
        }
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
        let Some(games::Written {
            row: written,
            standing,
        }) = games::update_state(tx, id, &update, now).await?
        else {
            return Ok(None);
        };
        // The opponent's standing offer is declined by the move; any offer ends with the game.
        let kept_by = if finished.is_some() {
            None
        } else {
            Some(color)
        };
        let declined_draw = standing.draw_offer
            && games::clear_draw_offer_unless_by(tx, id, kept_by)
                .await?
                .is_some_and(|offer| offer.by != color);
        // A move voids a standing takeback proposal.
        if standing.takeback {
            kaboom_store::comforts::clear_takeback(tx, id).await?;
        }
        let reveal = if finished.is_some() {
            carriers::all(&mut *tx, id).await?
        } else {
            Vec::new()
        };
        // The row as the update wrote it (nothing since changed it).
        let snap = Snapshot { row: written, game };
        let rating = self.rate(tx, &snap).await?;
        let played = Played {
            snap,
            ply,
            declined_draw,
            reveal,
            rating,
            by_conditional,
            conditional_lines: standing.conditional_lines,
        };
        self.enqueue(tx, outbox::Committed::Played(&played)).await?;
        Ok(Some(played))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Guards the memory of thread games: a remembered thread answers with its game,
    /// an unknown one with nothing, and past [`ThreadGames::MAX`] threads the least
    /// recently used is forgotten, so it never holds more.
    #[test]
    fn thread_games_are_remembered_up_to_their_bound() {
        let threads = ThreadGames::default();
        assert_eq!(threads.get(ChannelId(7)), None);
        threads.remember(ChannelId(7), GameId(1));
        assert_eq!(threads.get(ChannelId(7)), Some(GameId(1)));
        for i in 0..ThreadGames::MAX as u64 {
            threads.remember(ChannelId(1_000 + i), GameId(2));
        }
        assert!(threads.lock().len() <= ThreadGames::MAX);
        assert_eq!(threads.get(ChannelId(7)), None);
        assert_eq!(
            threads.get(ChannelId(999 + ThreadGames::MAX as u64)),
            Some(GameId(2))
        );
    }

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
