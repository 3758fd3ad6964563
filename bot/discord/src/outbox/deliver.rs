//! The deliverer: one dispatching task hands each queue (a game's entries, a challenge's)
//! with a due entry to a delivery task, under the queue's claim, and records what each
//! attempt gave (the posting itself is `post`).

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use poise::serenity_prelude as serenity;
use tokio::sync::watch;

use super::post::rate_limited;
use super::settle::{OutboxHandle, Waiters};
use crate::Error;
use kaboom_domain::ids::GameId;
use kaboom_service::Services;
use kaboom_service::outbox::{OutboxWaker, unix_now};
use kaboom_store::outbox::{self, Entry};

/// Attempts before an entry is given up.
pub const MAX_ATTEMPTS: i64 = 12;
/// The longest wait between two attempts (seconds).
pub const MAX_BACKOFF_SECS: i64 = 600;
/// How often the deliverer looks for entries without being woken.
pub const PERIOD: Duration = Duration::from_secs(30);
/// On PostgreSQL, how often the deliverer looks for entries without being woken: entries
/// another process wrote and could not post (it died) are taken over within this and
/// [`outbox::CLAIM_LEASE_SECS`].
pub const SHARED_PERIOD: Duration = Duration::from_secs(outbox::CLAIM_LEASE_SECS as u64);

/// The seconds to wait after Discord answered an attempt with 429 Too Many Requests. Such
/// an attempt is not a failure: it is neither counted towards [`MAX_ATTEMPTS`] nor backed
/// off exponentially. Discord's global limit counts requests per second, and its 429s say
/// how long to wait in `retry_after`, usually under a second ("Rate Limits", "Exceeding A
/// Rate Limit": <https://discord.com/developers/docs/topics/rate-limits>), which serenity's
/// error does not keep. With serenity's own rate limiter (production against Discord) 429s
/// are waited out inside serenity; they reach the outbox when the bot sends through a
/// REST base without it (`DISCORD_API_BASE`).
pub const RATE_LIMITED_RETRY_SECS: i64 = 1;

/// The seconds to wait after the `attempts`-th failed attempt: 1, 2, 4, ... at most
/// [`MAX_BACKOFF_SECS`].
pub fn backoff_secs(attempts: i64) -> i64 {
    let exp = u32::try_from((attempts - 1).clamp(0, 20)).unwrap_or(20);
    (1i64 << exp).min(MAX_BACKOFF_SECS)
}

/// Which entries keep their order among themselves: a game's, else a challenge's, else the
/// entry alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Queue {
    Game(GameId),
    Challenge(i64),
    League(i64),
    Entry(i64),
}

impl Queue {
    /// The queue's name in `outbox_claims`.
    fn claim_key(self) -> String {
        match self {
            Queue::Game(id) => format!("game:{id}"),
            Queue::Challenge(id) => format!("challenge:{id}"),
            Queue::League(id) => format!("league:{id}"),
            Queue::Entry(id) => format!("entry:{id}"),
        }
    }
}

fn queue(entry: &Entry) -> Queue {
    entry
        .game_id
        .map(Queue::Game)
        .or(entry.challenge_id.map(Queue::Challenge))
        .or(entry.league_id.map(Queue::League))
        .unwrap_or(Queue::Entry(entry.id))
}

/// How many queues (games, challenges) are delivered at once. Each queue stays in order;
/// different games' boards go out side by side, so one slow post (a large image, a slow
/// answer from Discord) does not hold back every other game. Discord counts message
/// creation per channel (each game has its own thread) and globally (50 requests per
/// second for a bot, <https://discord.com/developers/docs/topics/rate-limits#global-rate-limit>),
/// which a handful of concurrent posts stays well inside.
pub const DELIVERY_CONCURRENCY: usize = 8;

/// The outbox deliverer: one dispatching task per bot, which hands each queue with a due
/// entry to a delivery task (at most [`DELIVERY_CONCURRENCY`] at once) that posts the
/// queue's entries in order.
pub struct Deliverer {
    pub(super) services: Services,
    pub(super) http: Arc<serenity::Http>,
    kick: OutboxWaker,
    /// Closed once every [`OutboxHandle`] is gone: the deliverer then ends.
    done: watch::Sender<u64>,
    /// The commands waiting for their entries.
    waiters: Arc<Waiters>,
    /// The queues a delivery task is posting now, and those whose task ended lately.
    in_flight: std::sync::Mutex<InFlight>,
    /// The delivery tasks' slots.
    slots: Arc<tokio::sync::Semaphore>,
    /// This process's name in `outbox_claims`: host, process id and 8 random
    /// hex digits, so that a restarted process with a reused pid is another owner.
    owner: String,
    /// Whether this process hears other processes' deliveries (PostgreSQL's `LISTEN`).
    listening: Arc<AtomicBool>,
}

/// The queues being delivered ([`Deliverer`]'s `in_flight`).
#[derive(Default)]
struct InFlight {
    /// Queues a delivery task is posting now: the dispatcher leaves them alone.
    posting: HashSet<Queue>,
    /// Queues whose delivery task ended since the dispatcher last began to list the
    /// pending entries: its list may be older than that task's marks, so it leaves them to
    /// its next round, which the task's end wakes. (Thus a listed entry needs no second
    /// read in this process: [`Deliverer::deliver_queue`].)
    ended: HashSet<Queue>,
}

/// A name for this process among those sharing the database ([`Deliverer`]'s `owner`).
fn process_name() -> String {
    let host = std::env::var("HOSTNAME").unwrap_or_else(|_| "host".to_string());
    let mut b = [0u8; 4];
    let _ = getrandom::fill(&mut b);
    format!(
        "{host}:{}:{:08x}",
        std::process::id(),
        u32::from_be_bytes(b)
    )
}

impl Deliverer {
    /// Starts the deliverer over `services`, posting with `http` and woken by the services'
    /// [`Services::outbox_waker`] (the scheduler's planner shares it); it first delivers
    /// what is left from before (a crash, failures).
    pub fn spawn(services: Services, http: Arc<serenity::Http>) -> OutboxHandle {
        let kick = services.outbox_waker().clone();
        let (done, rx) = watch::channel(0);
        let waiters = Arc::new(Waiters::default());
        let deliverer = Deliverer {
            services: services.clone(),
            http,
            kick: kick.clone(),
            done,
            waiters: waiters.clone(),
            in_flight: std::sync::Mutex::new(InFlight::default()),
            slots: Arc::new(tokio::sync::Semaphore::new(DELIVERY_CONCURRENCY)),
            owner: process_name(),
            listening: Arc::new(AtomicBool::new(false)),
        };
        let listening = deliverer.listening.clone();
        let deliverer = Arc::new(deliverer);
        if services.deliveries().shared() {
            tokio::spawn(deliverer.clone().listen());
            tokio::spawn(deliverer.clone().renew_claims());
        }
        tokio::spawn(deliverer.run());
        OutboxHandle {
            services,
            kick,
            _alive: rx,
            waiters,
            listening,
        }
    }

    /// Wakes this process's waiting commands whenever any process delivers an entry or
    /// records a failed attempt (PostgreSQL's `LISTEN`), and the dispatcher after a lost
    /// connection. Ends with the deliverer.
    async fn listen(self: Arc<Self>) {
        let mut listener = match self.services.deliveries().listen().await {
            Ok(Some(listener)) => listener,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(error = %e, "outbox listener not started: waiting commands poll");
                return;
            }
        };
        loop {
            self.listening.store(true, Ordering::Relaxed);
            tokio::select! {
                heard = listener.recv() => match heard {
                    Ok(outbox::Heard::Attempted) => self.waiters.wake_all(),
                    Ok(outbox::Heard::Reconnected) => {
                        self.waiters.wake_all();
                        self.kick.wake();
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "outbox listener lost its connection");
                        self.listening.store(false, Ordering::Relaxed);
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                },
                () = self.done.closed() => return,
            }
        }
    }

    /// Renews every outbox claim this process holds every [`outbox::CLAIM_RENEW_SECS`]
    /// (PostgreSQL), so they lapse only when it dies: then another process, or this one
    /// restarted under a new name, takes its queues over within [`outbox::CLAIM_LEASE_SECS`].
    /// Ends with the deliverer.
    async fn renew_claims(self: Arc<Self>) {
        let mut tick = tokio::time::interval(Duration::from_secs(outbox::CLAIM_RENEW_SECS));
        loop {
            tokio::select! {
                _ = tick.tick() => {
                    if let Err(e) = self.services.deliveries().renew_claims(&self.owner, unix_now()).await {
                        tracing::warn!(error = %e, "outbox claims not renewed");
                    }
                }
                () = self.done.closed() => return,
            }
        }
    }

    async fn run(self: Arc<Self>) {
        let period = if self.services.deliveries().shared() {
            SHARED_PERIOD
        } else {
            PERIOD
        };
        // Ends when the bot that holds the handle is gone (every receiver dropped): at once,
        // not at its next look up to a period later, sweeping a closed database with the
        // stopped bot's services and Discord client.
        while !self.done.is_closed() {
            let next = match self.clone().dispatch().await {
                Ok(next) => next,
                Err(e) => {
                    tracing::warn!(error = %e, "outbox sweep failed");
                    None
                }
            };
            let wait = next.map_or(period, |at| {
                Duration::from_secs(u64::try_from(at - unix_now()).unwrap_or(0)).min(period)
            });
            tokio::select! {
                () = self.kick.notified() => {}
                () = tokio::time::sleep(wait.max(Duration::from_millis(200))) => {}
                () = self.done.closed() => {}
            }
        }
    }

    /// Hands every queue whose first pending entry is due, and which no delivery task is
    /// posting already, to a delivery task; returns when the earliest held-back entry is
    /// due. A delivery task wakes the dispatcher when it ends, so entries written while it
    /// posted are picked up at once: unless it delivered every entry it was given and
    /// there was no wake since this round began to list (every commit that writes entries
    /// wakes the deliverer after it), when there is nothing new to pick up.
    async fn dispatch(self: Arc<Self>) -> Result<Option<i64>, Error> {
        self.in_flight().ended.clear();
        let wakes = self.kick.wakes();
        let mut queues: Vec<(Queue, Vec<Entry>)> = Vec::new();
        for entry in self.services.deliveries().pending().await? {
            let key = queue(&entry);
            match queues.iter_mut().find(|(k, _)| *k == key) {
                Some((_, entries)) => entries.push(entry),
                None => queues.push((key, vec![entry])),
            }
        }
        let mut next: Option<i64> = None;
        let now = unix_now();
        for (key, entries) in queues {
            let due = entries[0].next_attempt_at;
            if due > now {
                next = Some(next.map_or(due, |n| n.min(due)));
                continue;
            }
            {
                let mut in_flight = self.in_flight();
                if in_flight.ended.contains(&key) || !in_flight.posting.insert(key) {
                    continue;
                }
            }
            let Ok(slot) = self.slots.clone().acquire_owned().await else {
                break;
            };
            // Several processes on one database: only the one that holds the
            // queue's claim posts its entries.
            let claim = key.claim_key();
            if !self
                .services
                .deliveries()
                .claim(&claim, &self.owner, now)
                .await?
            {
                self.in_flight().posting.remove(&key);
                // Look again when its holder's claim could have lapsed.
                let at = now + outbox::CLAIM_LEASE_SECS;
                next = Some(next.map_or(at, |n| n.min(at)));
                continue;
            }
            let me = self.clone();
            tokio::spawn(async move {
                let _slot = slot;
                let all_out = match me.deliver_queue(&claim, entries).await {
                    Ok(all_out) => all_out,
                    Err(e) => {
                        tracing::warn!(error = %e, "outbox delivery failed");
                        false
                    }
                };
                if let Err(e) = me.services.deliveries().release(&claim, &me.owner).await {
                    tracing::warn!(error = %e, "outbox claim not released; it lapses");
                }
                {
                    let mut in_flight = me.in_flight();
                    in_flight.posting.remove(&key);
                    in_flight.ended.insert(key);
                }
                if !all_out || me.kick.wakes() != wakes {
                    me.kick.wake();
                }
            });
        }
        Ok(next)
    }

    fn in_flight(&self) -> std::sync::MutexGuard<'_, InFlight> {
        // Every change is one insert, remove or clear: a poisoned lock is still consistent.
        self.in_flight
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Delivers one queue's entries in order, until one fails (it is retried after its
    /// backoff and holds back the rest) or is not due yet. An entry given up after
    /// [`MAX_ATTEMPTS`] no longer holds the queue back. The queue's claim (`claim`) is
    /// renewed before each entry; lost (this process stalled past its lease and another
    /// took the queue over), the delivery stops. Returns whether every entry given is out
    /// of the queue: delivered, given up, or (several processes) posted by another.
    async fn deliver_queue(&self, claim: &str, entries: Vec<Entry>) -> Result<bool, Error> {
        let deliveries = self.services.deliveries();
        for listed in entries {
            if !deliveries.claim(claim, &self.owner, unix_now()).await? {
                tracing::warn!(queue = claim, "outbox queue taken over by another process");
                return Ok(false);
            }
            // Several processes: read again, another may have posted it since the listing
            // (holding the queue's claim then). One process: the listing is newer than any
            // task of this queue (`InFlight::ended`), and nothing else marks entries.
            let entry = if deliveries.shared() {
                let Some(entry) = deliveries.entry(listed.id).await? else {
                    continue;
                };
                if entry.delivered_at.is_some() || entry.failed_at.is_some() {
                    continue;
                }
                entry
            } else {
                listed
            };
            let now = unix_now();
            if entry.next_attempt_at > now {
                return Ok(false);
            }
            match self.deliver(&entry).await {
                Ok(posted) => {
                    deliveries
                        .delivered(entry.id, posted.message_id, posted.thread_id, now)
                        .await?;
                    tracing::debug!(entry = entry.id, game_id = ?entry.game_id, challenge_id = ?entry.challenge_id, kind = %entry.kind, "outbox entry delivered");
                    self.waiters.attempted(&entry, Some(posted.message_id));
                }
                Err(e) if rate_limited(&e) => {
                    let at = now + RATE_LIMITED_RETRY_SECS;
                    deliveries
                        .rate_limited(entry.id, &e.to_string(), at)
                        .await?;
                    self.waiters.attempted(&entry, None);
                    tracing::info!(entry = entry.id, game_id = ?entry.game_id, kind = %entry.kind, "outbox entry rate-limited; will retry");
                    return Ok(false);
                }
                Err(e) => {
                    let attempts = entry.attempts + 1;
                    let give_up = attempts >= MAX_ATTEMPTS;
                    let at = now + backoff_secs(attempts);
                    deliveries
                        .failed(entry.id, &e.to_string(), at, give_up, now)
                        .await?;
                    self.waiters.attempted(&entry, None);
                    if give_up {
                        tracing::error!(entry = entry.id, game_id = ?entry.game_id, challenge_id = ?entry.challenge_id, kind = %entry.kind, attempts, error = %e, "outbox entry given up");
                    } else {
                        tracing::warn!(entry = entry.id, game_id = ?entry.game_id, challenge_id = ?entry.challenge_id, kind = %entry.kind, attempts, error = %e, "outbox entry failed; will retry");
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }
}
