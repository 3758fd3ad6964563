//! The outbox side of the services: what a committed change must show on
//! Discord is planned inside the change's transaction and written to the `discord_outbox`
//! table with it (`storage::outbox`), so a crash or a Discord failure after the commit
//! cannot lose it. The wording is the Discord layer's: it plugs in an [`EffectPlanner`]
//! ([`Services::with_effects`]); without one (the CLI, service tests) nothing is written.
//! The scheduler writes its notices into the same table (`scheduler::NoticePlanner`), and
//! both wake the one deliverer through an [`OutboxWaker`].

use std::sync::Arc;

use kaboom_rules::AnyGame;

use super::{
    Core, Deliveries, Designated, DrawResult, Ended, Games, Played, ServiceError, Services,
    Snapshot,
};
use kaboom_domain::ids::{ChannelId, GameId, MessageId, UserId};
use kaboom_store::Tx;
use kaboom_store::challenges::Challenge;
use kaboom_store::games;
use kaboom_store::outbox::{self, Entry, NewEffect, OutboxListener, Owner};

/// A change about to be committed, for the planner to word.
#[derive(Clone, Copy, Debug)]
pub enum Committed<'a> {
    /// A challenge was accepted: the game exists (in setup for Beirut and Nuke).
    Accepted {
        /// The new game.
        game: &'a Snapshot,
        /// The challenge, as it is now (accepted, with its game and its message).
        challenge: &'a Challenge,
        /// Who accepted it.
        by: UserId,
    },
    /// A challenge was declined or cancelled (its state says which) by `by`.
    ChallengeClosed {
        /// The challenge, as it is now.
        challenge: &'a Challenge,
        /// Who closed it.
        by: UserId,
    },
    /// An action was played.
    Played(&'a Played),
    /// A carrier designation was made.
    Designated(&'a Designated),
    /// A game ended off the board (resignation, abort, agreement).
    Ended(&'a Ended),
    /// A draw offer was made or declined (an agreed draw is [`Committed::Ended`]).
    Draw(&'a DrawResult),
    /// A change of the correspondence comforts.
    Comfort(&'a super::comfort_types::ComfortChange),
    /// A change of a league: its posts, and the games of a round it started.
    League(&'a super::leagues::LeagueChange),
    /// A change of a post-game analysis: queued, progress, done or failed.
    Analysis(&'a super::analysis::AnalysisChange),
    /// A server's daily puzzle was chosen: its post.
    DailyPuzzle(&'a super::puzzles::DailyPost),
}

/// Wakes the outbox's deliverer after a commit that wrote entries (the services' and the
/// scheduler's writes share one: [`Services::outbox_waker`]). A wake with no deliverer
/// waiting is kept for its next wait, so none is lost.
#[derive(Clone, Debug, Default)]
pub struct OutboxWaker(Arc<WakerInner>);

#[derive(Debug, Default)]
struct WakerInner {
    notify: tokio::sync::Notify,
    /// Wakes so far ([`OutboxWaker::wakes`]).
    wakes: std::sync::atomic::AtomicU64,
}

impl OutboxWaker {
    /// Wakes the deliverer.
    pub fn wake(&self) {
        self.0
            .wakes
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.0.notify.notify_one();
    }

    /// Waits for the next [`OutboxWaker::wake`] (the deliverer).
    pub async fn notified(&self) {
        self.0.notify.notified().await;
    }

    /// How many wakes there have been: equal readings mean no wake between them, so no
    /// entry written between them was announced (the deliverer's test of whether a
    /// delivery that ended may leave new entries behind).
    pub fn wakes(&self) -> u64 {
        self.0.wakes.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// Words the Discord side effects of a change (implemented by the Discord layer).
pub trait EffectPlanner: Send + Sync {
    /// The effects of `change`, in delivery order.
    fn plan(&self, change: Committed<'_>) -> Vec<NewEffect>;
}

impl Services {
    /// The same services writing the effects `planner` words into the outbox with every
    /// change.
    pub fn with_effects(mut self, planner: Arc<dyn EffectPlanner>) -> Services {
        self.core_mut().effects = Some(planner);
        self
    }

    /// The same services waking the outbox's deliverer through `waker` (share it with the
    /// scheduler's notice planner, so its entries are posted at once too).
    pub fn with_outbox_waker(mut self, waker: OutboxWaker) -> Services {
        self.core_mut().outbox_waker = waker;
        self
    }
}

impl Core {
    /// Writes the effects of `change` inside `tx` (before its commit).
    pub(crate) async fn enqueue(
        &self,
        tx: &mut Tx,
        change: Committed<'_>,
    ) -> Result<(), ServiceError> {
        let Some(planner) = &self.effects else {
            return Ok(());
        };
        let effects = planner.plan(change);
        outbox::insert(tx, &effects, unix_now()).await?;
        Ok(())
    }

    /// Game `id` as stored inside `tx`, with `game` as its replayed state.
    pub(crate) async fn snapshot_tx(
        tx: &mut Tx,
        id: GameId,
        game: AnyGame,
    ) -> Result<Snapshot, ServiceError> {
        let row = games::get(&mut *tx, id)
            .await?
            .ok_or_else(|| ServiceError::Corrupt(format!("game #{id} vanished")))?;
        Ok(Snapshot { row, game })
    }
}

impl Games<'_> {
    /// Game `id` as it was at ply `ply` (for painting a board an outbox entry shows): the
    /// stored game with only its first `ply` actions, or the game as it is when it is
    /// still at `ply`. Replayed through the replay cache, off the async runtime.
    ///
    /// # Errors
    /// As [`Games::load`](crate::Games::load).
    pub async fn load_at(self, id: GameId, ply: i64) -> Result<Snapshot, ServiceError> {
        let snap = self.core.load(id).await?;
        if snap.row.ply <= ply {
            return Ok(snap);
        }
        let Some((row, mut record)) = games::load_record(&self.core.db, id).await? else {
            return Err(super::refusal::Refusal::UnknownGame { id }.into());
        };
        record
            .actions
            .truncate(usize::try_from(ply.max(0)).unwrap_or(0));
        record.declared = None;
        // Replayed off the runtime and cached like any load: a board the outbox
        // posts late is painted from the same entry each retry.
        let game = self.core.replay(id, record).await.map_err(|e| match e {
            ServiceError::Corrupt(e) => ServiceError::Corrupt(format!("{e} (at ply {ply})")),
            other => other,
        })?;
        Ok(Snapshot { row, game })
    }
}

/// Whether any player has missed notices ([`Deliveries::missed`]), as far as this process
/// knows: on SQLite (one process writes the database) a bot whose table of missed notices
/// is empty spares every command and click the look there ([`Deliveries::take_missed`]).
#[derive(Debug, Default)]
pub(crate) struct NoticesSeen(std::sync::atomic::AtomicU8);

impl NoticesSeen {
    /// Not looked at yet.
    const UNKNOWN: u8 = 0;
    /// The table was empty, and this process recorded none since.
    const NONE: u8 = 1;
    /// There may be some.
    const SOME: u8 = 2;

    fn get(&self) -> u8 {
        self.0.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Before a notice is recorded.
    fn some(&self) {
        self.0
            .store(Self::SOME, std::sync::atomic::Ordering::Release);
    }

    /// After the table was found empty: unless a notice was recorded meanwhile.
    fn none(&self) {
        let _ = self.0.compare_exchange(
            Self::UNKNOWN,
            Self::NONE,
            std::sync::atomic::Ordering::AcqRel,
            std::sync::atomic::Ordering::Acquire,
        );
    }
}

/// Wall-clock Unix seconds: outbox timing is operational, not game time (a test clock that
/// stands still must not stop retries).
pub fn unix_now() -> i64 {
    use kaboom_domain::clock::{Clock, SystemClock};
    SystemClock.now()
}

/// The outbox's deliveries, one storage query each (`kaboom_store::outbox`): the Discord
/// layer's deliverer lists what is pending, claims a queue (PostgreSQL: several processes),
/// posts, and marks the entry; a command waits for its own entries. Times are Unix seconds.
impl Deliveries<'_> {
    /// Whether several processes may deliver from this database (PostgreSQL): claims,
    /// their renewal and listening for other processes' deliveries matter then.
    pub fn shared(self) -> bool {
        self.core.db.engine() == kaboom_store::Engine::Postgres
    }

    /// Starts listening for deliveries made by any process (PostgreSQL's `LISTEN`);
    /// `None` on SQLite (one process).
    ///
    /// # Errors
    /// [`ServiceError::Storage`] when the listening connection cannot be opened.
    pub async fn listen(self) -> Result<Option<OutboxListener>, ServiceError> {
        Ok(OutboxListener::start(&self.core.db).await?)
    }

    /// Every entry not yet delivered nor given up, oldest first.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn pending(self) -> Result<Vec<Entry>, ServiceError> {
        Ok(outbox::pending(&self.core.db).await?)
    }

    /// Entry `id` as it is now.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn entry(self, id: i64) -> Result<Option<Entry>, ServiceError> {
        Ok(outbox::get(&self.core.db, id).await?)
    }

    /// Claims queue `queue` for `owner` (a process name) for
    /// [`outbox::CLAIM_LEASE_SECS`] from `now`: `true` when `owner` holds it now.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn claim(self, queue: &str, owner: &str, now: i64) -> Result<bool, ServiceError> {
        Ok(outbox::claim_queue(&self.core.db, queue, owner, now).await?)
    }

    /// Renews every claim `owner` holds from `now`; returns how many.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn renew_claims(self, owner: &str, now: i64) -> Result<u64, ServiceError> {
        Ok(outbox::renew_claims(&self.core.db, owner, now).await?)
    }

    /// Gives up `owner`'s claim on `queue`.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn release(self, queue: &str, owner: &str) -> Result<(), ServiceError> {
        Ok(outbox::release_queue(&self.core.db, queue, owner).await?)
    }

    /// Marks entry `id` delivered at `now`, with the message it posted and the thread it
    /// started, if any.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn delivered(
        self,
        id: i64,
        message_id: Option<MessageId>,
        thread_id: Option<ChannelId>,
        now: i64,
    ) -> Result<(), ServiceError> {
        Ok(outbox::mark_delivered(&self.core.db, id, message_id, thread_id, now).await?)
    }

    /// Records a failed attempt at entry `id` (`error` for the host), to be tried again at
    /// `next_attempt_at`, or given up for good when `give_up`.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn failed(
        self,
        id: i64,
        error: &str,
        next_attempt_at: i64,
        give_up: bool,
        now: i64,
    ) -> Result<(), ServiceError> {
        Ok(outbox::mark_failed(&self.core.db, id, error, next_attempt_at, give_up, now).await?)
    }

    /// Records that Discord rate-limited an attempt at entry `id` (`error` for the host):
    /// tried again at `next_attempt_at`, the attempt not counted against giving up.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn rate_limited(
        self,
        id: i64,
        error: &str,
        next_attempt_at: i64,
    ) -> Result<(), ServiceError> {
        Ok(outbox::mark_rate_limited(&self.core.db, id, error, next_attempt_at).await?)
    }

    /// Records that entry `id`'s direct message was refused (the player's DMs are closed),
    /// so its next attempt posts in the game's thread instead.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn mark_dm_refused(self, id: i64) -> Result<(), ServiceError> {
        Ok(outbox::mark_dm_refused(&self.core.db, id).await?)
    }

    /// Keeps `text`, a post of game `game` that Discord refused to DM to `user` (a game
    /// played by DM whose player closed their DMs or shares no server with the bot), to
    /// show them at their next command or click ([`Deliveries::take_missed`]); `nonce` is
    /// the delivery's own, so a retry keeps one.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn missed(
        self,
        user: UserId,
        game: GameId,
        nonce: &str,
        text: &str,
    ) -> Result<(), ServiceError> {
        let now = self.core.clock.now();
        self.core.notices.some();
        Ok(kaboom_store::notices::record(&self.core.db, user, game, nonce, text, now).await?)
    }

    /// What `user` missed ([`Deliveries::missed`]), oldest first, taken: each is returned
    /// once. Checks cheaply first, as every command and click asks; on SQLite not at all
    /// while nobody has missed anything ([`NoticesSeen`]).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn take_missed(
        self,
        user: UserId,
    ) -> Result<Vec<kaboom_store::notices::Notice>, ServiceError> {
        let db = &self.core.db;
        // One process on the database: an empty table stays empty until it records one.
        if db.engine() == kaboom_store::Engine::Sqlite {
            match self.core.notices.get() {
                NoticesSeen::NONE => return Ok(Vec::new()),
                NoticesSeen::UNKNOWN => {
                    if !kaboom_store::notices::any_at_all(db).await? {
                        self.core.notices.none();
                        return Ok(Vec::new());
                    }
                    self.core.notices.some();
                }
                _ => {}
            }
        }
        if !kaboom_store::notices::any(db, user).await? {
            return Ok(Vec::new());
        }
        Ok(kaboom_store::notices::take(db, user).await?)
    }

    /// Whether entry `id`'s direct message was refused before.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn dm_refused(self, id: i64) -> Result<bool, ServiceError> {
        Ok(outbox::dm_refused(&self.core.db, id).await?)
    }

    /// The messages of game `game_id` posted by entries before `before` that still carry a
    /// prompt's buttons (to clear them).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn open_prompts(
        self,
        game_id: GameId,
        before: i64,
    ) -> Result<Vec<MessageId>, ServiceError> {
        Ok(outbox::open_prompts(&self.core.db, game_id, before).await?)
    }

    /// `owner`'s entries up to id `upto` (`i64::MAX`: all of them) not yet delivered.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn undelivered_upto(
        self,
        owner: Owner,
        upto: i64,
    ) -> Result<Vec<Entry>, ServiceError> {
        Ok(outbox::undelivered_upto(&self.core.db, owner, upto).await?)
    }

    /// Where game `game_id`'s posts go, with its last board message among its entries up to
    /// `upto`: `(thread, channel, board)`; `None` when the game is gone.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn board_upto(
        self,
        game_id: GameId,
        upto: i64,
    ) -> Result<Option<(Option<ChannelId>, ChannelId, Option<MessageId>)>, ServiceError> {
        Ok(outbox::board_upto(&self.core.db, game_id, upto).await?)
    }
}
