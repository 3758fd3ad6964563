//! Settling: a command waits briefly for its own entries to be posted
//! ([`OutboxHandle::settle`]) and answers with their links, or that they follow.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::watch;

use crate::Error;
use kaboom_domain::game::GameRow;
use kaboom_domain::ids::{ChannelId, GameId, MessageId};
use kaboom_service::Services;
use kaboom_service::outbox::OutboxWaker;
use kaboom_store::outbox;

/// How long a command waits for its own entries before answering "saved, will follow".
pub const SETTLE: Duration = Duration::from_millis(2500);
/// On PostgreSQL, how often a waiting command looks at its entries again when this process
/// could not listen for other processes' deliveries (`kaboom_store::outbox::OutboxListener`;
/// another process may hold the queue's claim and post them). While it listens, a waiting
/// command wakes on every delivery instead, and never polls.
pub const SETTLE_POLL: Duration = Duration::from_millis(40);

/// The commands waiting for their own entries ([`OutboxHandle::settle`]), by owner (a
/// game, a challenge, a league): an attempt at an entry wakes only the waiters of its own
/// owners, since each wake can cost the waiter a query. (One watch for all would wake every
/// waiting command on every delivery: with 32 moves in flight, 31 needless queries each.)
#[derive(Default)]
pub(super) struct Waiters(std::sync::Mutex<Vec<(outbox::Owner, watch::Sender<Heard>)>>);

/// What the waiters of one owner have heard since the first of them subscribed.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Heard {
    /// The newest of the owner's entries this process delivered (0: none).
    delivered: i64,
    /// The newest of the owner's board entries (kind `board`) this process delivered: its
    /// id and the board's message (none when its posting left none).
    board: Option<(i64, Option<MessageId>)>,
    /// Whether something else happened too: an attempt failed, or another process
    /// attempted some entry (which, is not known). The waiters then ask the database.
    unsure: bool,
}

/// What [`OutboxHandle::wait_for`] waited for, once it is delivered.
#[derive(Clone, Copy, Debug)]
struct Waited {
    /// The newest entry waited for (`i64::MAX` when none was left to deliver at the
    /// first look).
    upto: i64,
    /// The message of the newest board entry up to `upto` (as [`board_upto`] reads it),
    /// when the wait knows it without asking the database: this process delivered it, and
    /// every entry after it up to `upto`.
    ///
    /// [`board_upto`]: kaboom_store::outbox::board_upto
    board: Option<Option<MessageId>>,
}

impl Waiters {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(outbox::Owner, watch::Sender<Heard>)>> {
        // Every change is a single push, retain or counter bump: a poisoned lock is
        // still consistent.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A receiver that changes whenever an entry of `owner` has been attempted (delivered
    /// or failed) from now on, or [`Waiters::wake_all`] is called.
    fn subscribe(&self, owner: outbox::Owner) -> watch::Receiver<Heard> {
        let mut waiters = self.lock();
        // Owners nobody waits for any more go.
        waiters.retain(|(_, tx)| tx.receiver_count() > 0);
        if let Some((_, tx)) = waiters.iter().find(|(o, _)| *o == owner) {
            return tx.subscribe();
        }
        let (tx, rx) = watch::channel(Heard::default());
        waiters.push((owner, tx));
        rx
    }

    /// Wakes the waiters of `entry`'s game, challenge and league after an attempt at it,
    /// which delivered it (`Some`, with the message it posted or edited, if any) or failed
    /// (`None`).
    pub(super) fn attempted(&self, entry: &outbox::Entry, delivered: Option<Option<MessageId>>) {
        let owners = [
            entry.game_id.map(outbox::Owner::Game),
            entry.challenge_id.map(outbox::Owner::Challenge),
            entry.league_id.map(outbox::Owner::League),
        ];
        for (owner, tx) in self.lock().iter() {
            if owners.contains(&Some(*owner)) {
                tx.send_modify(|heard| match delivered {
                    Some(message) => {
                        heard.delivered = heard.delivered.max(entry.id);
                        if entry.kind == outbox::BOARD_KIND
                            && heard.board.is_none_or(|(id, _)| id < entry.id)
                        {
                            heard.board = Some((entry.id, message));
                        }
                    }
                    None => heard.unsure = true,
                });
            }
        }
    }

    /// Wakes every waiter (another process attempted some entry: which is not known).
    pub(super) fn wake_all(&self) {
        for (_, tx) in self.lock().iter() {
            tx.send_modify(|heard| heard.unsure = true);
        }
    }
}

/// A handle on the running deliverer: wake it, wait for a game's or a challenge's entries.
#[derive(Clone)]
pub struct OutboxHandle {
    pub(super) services: Services,
    pub(super) kick: OutboxWaker,
    /// Held only so that the deliverer ends once every handle is gone.
    pub(super) _alive: watch::Receiver<u64>,
    /// The waiting commands, woken by the deliverer.
    pub(super) waiters: Arc<Waiters>,
    /// Whether the deliverer hears other processes' deliveries ([`SETTLE_POLL`]).
    pub(super) listening: Arc<AtomicBool>,
}

/// How a command's entries stand after [`OutboxHandle::settle`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Settled {
    /// All delivered: the last board's (channel, message) and the thread, if any.
    Delivered {
        /// The last board posted: its channel and message.
        board: Option<(ChannelId, MessageId)>,
        /// The game's thread.
        thread: Option<ChannelId>,
    },
    /// Saved, but not (yet) posted: it follows.
    Pending,
}

impl OutboxHandle {
    /// Wakes the deliverer (after a commit).
    pub fn kick(&self) {
        self.kick.wake();
    }

    /// Waits (at most [`SETTLE`]) until `owner`'s entries written so far are delivered:
    /// `Some` of what it waited for then ([`Waited`]); `None` at the time limit or as soon
    /// as one of them failed. The first look and each wake (an entry of `owner` attempted) cost one indexed query of
    /// what is still undelivered, except the wake that tells a game's waiter its last entry
    /// is out: a game's entries are delivered in order by one task, so once this process
    /// delivered the last one, with no failed attempt heard meanwhile, the ones before it,
    /// undelivered and never attempted at the first look, are out too. (Only with one
    /// process on the database: on PostgreSQL ids are not in commit order, and another
    /// process may deliver.)
    async fn wait_for(&self, owner: outbox::Owner) -> Result<Option<Waited>, Error> {
        let deliveries = self.services.deliveries();
        let mut done = self.waiters.subscribe(owner);
        self.kick();
        let deadline = tokio::time::Instant::now() + SETTLE;
        // Another process may post these entries: without its deliveries heard, poll.
        let poll = deliveries.shared() && !self.listening.load(Ordering::Relaxed);
        // Whether a wake can answer without a query (see above).
        let remembers = matches!(owner, outbox::Owner::Game(_)) && !deliveries.shared();
        // The entries waited for: those undelivered at the first look, which (after the
        // command's commit) include the command's own; nothing written later.
        let mut upto = i64::MAX;
        loop {
            let waiting = deliveries.undelivered_upto(owner, upto).await?;
            if upto == i64::MAX {
                upto = waiting.last().map_or(i64::MAX, |e| e.id);
            }
            if waiting.is_empty() {
                return Ok(Some(Waited { upto, board: None }));
            }
            if waiting
                .iter()
                .any(|e| e.attempts > 0 || e.failed_at.is_some())
            {
                return Ok(None);
            }
            let now = tokio::time::Instant::now();
            if now >= deadline {
                return Ok(None);
            }
            let wake = if poll {
                deadline.min(now + SETTLE_POLL)
            } else {
                deadline
            };
            match tokio::time::timeout_at(wake, done.changed()).await {
                Ok(Ok(())) => {
                    let heard = *done.borrow_and_update();
                    if remembers && !heard.unsure && heard.delivered >= upto {
                        // Delivered in order by this process: a board it delivered up
                        // to `upto`, the newest it heard of, is the newest there is.
                        let board = heard
                            .board
                            .filter(|(id, _)| *id <= upto)
                            .map(|(_, message)| message);
                        return Ok(Some(Waited { upto, board }));
                    }
                }
                Ok(Err(_)) => return Ok(None),
                // The deadline is checked above; or a poll.
                Err(_) => {}
            }
        }
    }

    /// Wakes the deliverer and waits (at most [`SETTLE`]) until every entry game `game_id`
    /// has so far is delivered. [`Settled::Pending`] as soon as one of them failed, or at the
    /// time limit: the change is saved and its posts follow.
    ///
    /// # Errors
    /// A storage error.
    pub async fn settle(&self, game_id: GameId) -> Result<Settled, Error> {
        let Some(waited) = self.wait_for(outbox::Owner::Game(game_id)).await? else {
            return Ok(Settled::Pending);
        };
        self.settled(game_id, waited.upto).await
    }

    /// As [`OutboxHandle::settle`] for `game`, the game's row as the change wrote it: when
    /// the game has its thread (or is played by DM) and this process delivered the board
    /// while the command waited, the answer needs no query.
    ///
    /// # Errors
    /// A storage error.
    pub async fn settle_game(&self, game: &GameRow) -> Result<Settled, Error> {
        let Some(waited) = self.wait_for(outbox::Owner::Game(game.id)).await? else {
            return Ok(Settled::Pending);
        };
        // A game's thread is recorded once and never changes; one not recorded yet may
        // have been opened by the entries waited for.
        match (waited.board, game.thread_id) {
            (Some(board), Some(thread)) => Ok(Settled::Delivered {
                board: board.map(|m| (thread, m)),
                thread: Some(thread),
            }),
            (Some(board), None) if game.venue.by_dm() => Ok(Settled::Delivered {
                board: board.map(|m| (game.channel_id, m)),
                thread: None,
            }),
            _ => self.settled(game.id, waited.upto).await,
        }
    }

    /// [`Settled::Delivered`] of game `game_id` once its entries up to `upto` are out, as
    /// the database has it.
    async fn settled(&self, game_id: GameId, upto: i64) -> Result<Settled, Error> {
        let (thread, channel, board) = self
            .services
            .deliveries()
            .board_upto(game_id, upto)
            .await?
            .ok_or(Error::Missing("the game of a settled outbox entry is gone"))?;
        Ok(Settled::Delivered {
            board: board.map(|m| (thread.unwrap_or(channel), m)),
            thread,
        })
    }

    /// As [`OutboxHandle::settle`] for challenge `challenge_id`'s entries (its message's
    /// edits): whether they are out.
    ///
    /// # Errors
    /// A storage error.
    pub async fn settle_challenge(&self, challenge_id: i64) -> Result<bool, Error> {
        Ok(self
            .wait_for(outbox::Owner::Challenge(challenge_id))
            .await?
            .is_some())
    }

    /// As [`OutboxHandle::settle`] for league `league_id`'s entries (its sign-up post's
    /// edits, its rounds and standings): whether they are out.
    ///
    /// # Errors
    /// A storage error.
    pub async fn settle_league(&self, league_id: i64) -> Result<bool, Error> {
        Ok(self
            .wait_for(outbox::Owner::League(league_id))
            .await?
            .is_some())
    }
}
