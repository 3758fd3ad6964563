//! CPU work off the async runtime, and a bounded cache of replayed games.
//!
//! Replaying a stored game (`AnyGame::from_record`), listing a busy position's actions
//! (6,161 in a Bombalot middlegame: about 0.14 s to describe them all), autocomplete
//! suggestions and board pictures are CPU work. Done on a runtime thread they stall every
//! other interaction behind them, and Discord gives an interaction 3 s. [`CpuPool`] runs
//! them with `tokio::task::spawn_blocking`, at most as many at once as the machine has
//! cores (a semaphore), so a burst of requests queues instead of starving the runtime or
//! spawning hundreds of blocking threads.
//!
//! [`ReplayCache`] memoizes the pure function `GameRecord -> AnyGame`: an autocomplete
//! request per keystroke, then the `/move` that follows, would otherwise replay the whole
//! game each time. Correctness, by construction:
//!
//! - An entry is found by (game id, ply) and used only if the stored record it was
//!   replayed from (variant, options, start position with the designations, every action,
//!   a declared result) equals the record just read from storage. Anything that changes
//!   the record (a move, a designation, a resignation, a hand edit of a row) is therefore
//!   a miss, never a stale game; an entry, once made, never changes.
//! - Writes do not trust the cache for safety: every game-changing write still checks the
//!   expected ply inside its transaction (`storage::games::update_state`).
//! - Entries hold the full state, never a player's view: callers derive each viewer's view
//!   from it per request (`board_view`, `suggestions`), exactly as they do after a fresh
//!   replay, so a Beirut carrier cannot travel from one viewer to another through it.
//! - The cache holds at most [`DEFAULT_CAPACITY`] games (least recently used go first).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use hashlink::LruCache;
use kaboom_rules::{AnyGame, GameRecord};
use tokio::sync::Semaphore;

use super::ServiceError;
use kaboom_domain::ids::GameId;

/// How many replayed games the cache keeps (one entry per game: a game's position after
/// a move replaces the one before it). A host whose players keep more games going than
/// this at once replays a game at every move; a thousand games of a hundred plies each
/// are some megabytes.
pub const DEFAULT_CAPACITY: usize = 1024;

/// Runs CPU work on tokio's blocking threads, at most `permits` jobs at once.
#[derive(Clone, Debug)]
pub struct CpuPool {
    permits: Arc<Semaphore>,
    size: usize,
}

impl CpuPool {
    /// A pool running at most `jobs` (at least 1) jobs at once.
    pub fn new(jobs: usize) -> CpuPool {
        CpuPool {
            permits: Arc::new(Semaphore::new(jobs.max(1))),
            size: jobs.max(1),
        }
    }

    /// A pool sized to this machine's cores (`std::thread::available_parallelism`, 2 when
    /// unknown).
    pub fn for_this_machine() -> CpuPool {
        CpuPool::new(std::thread::available_parallelism().map_or(2, usize::from))
    }

    /// How many jobs may run at once.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Runs `work` on a blocking thread once a permit is free, and returns its result. The
    /// permit is held by the job itself: if the caller stops waiting (an interaction that
    /// timed out), the job still counts until it has finished.
    ///
    /// # Errors
    /// [`ServiceError::TaskPanicked`] when `work` panicked (a bug, or stored data the rules
    /// library cannot handle): callers answer it without showing any state.
    /// [`ServiceError::Corrupt`] when the pool is closed.
    pub async fn run<T, F>(&self, work: F) -> Result<T, ServiceError>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        let permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| ServiceError::Corrupt(format!("the CPU pool is closed: {e}")))?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        })
        .await
        .map_err(|e| ServiceError::TaskPanicked(e.to_string()))
    }
}

impl Default for CpuPool {
    fn default() -> CpuPool {
        CpuPool::for_this_machine()
    }
}

/// One replayed game and the record it was replayed from.
struct Entry {
    record: GameRecord,
    game: Arc<AnyGame>,
}

/// How the cache has done since it was made.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct CacheStats {
    /// Loads answered from the cache.
    pub hits: u64,
    /// Loads that replayed the game (not cached, or its record had changed).
    pub replays: u64,
    /// Games held now.
    pub len: usize,
    /// The most games it holds.
    pub capacity: usize,
}

/// Replayed games by (game id, ply), checked against the stored record (module docs).
pub struct ReplayCache {
    entries: Mutex<LruCache<(GameId, i64), Entry>>,
    capacity: usize,
    hits: AtomicU64,
    replays: AtomicU64,
}

impl std::fmt::Debug for ReplayCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReplayCache")
            .field("stats", &self.stats())
            .finish()
    }
}

impl Default for ReplayCache {
    fn default() -> ReplayCache {
        ReplayCache::new(DEFAULT_CAPACITY)
    }
}

impl ReplayCache {
    /// A cache of at most `capacity` games (0 keeps none: every load replays).
    pub fn new(capacity: usize) -> ReplayCache {
        ReplayCache {
            entries: Mutex::new(LruCache::new(capacity.max(1))),
            capacity,
            hits: AtomicU64::new(0),
            replays: AtomicU64::new(0),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, LruCache<(GameId, i64), Entry>> {
        // A panic while holding the lock cannot leave an entry half made (inserts are
        // single calls), so a poisoned lock is still consistent.
        self.entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The game replayed from `record` (game `id`, `record.actions.len()` plies), if cached
    /// from exactly this record.
    pub fn get(&self, id: GameId, record: &GameRecord) -> Option<Arc<AnyGame>> {
        let key = (id, ply_of(record));
        let mut entries = self.lock();
        match entries.get(&key) {
            Some(entry) if entry.record == *record => {
                self.hits.fetch_add(1, Ordering::Relaxed);
                Some(entry.game.clone())
            }
            _ => None,
        }
    }

    /// Remembers `game`, replayed from `record`, for game `id`, in place of the game at
    /// the ply before (a move's new position replaces its old one, so that a game takes
    /// one entry, not one per ply it was seen at).
    pub fn put(&self, id: GameId, record: GameRecord, game: Arc<AnyGame>) {
        if self.capacity == 0 {
            return;
        }
        let ply = ply_of(&record);
        let mut entries = self.lock();
        entries.remove(&(id, ply - 1));
        entries.insert((id, ply), Entry { record, game });
    }

    /// Game `id` replayed from `record`: from the cache, or replayed on `cpu` (off the
    /// async runtime) and remembered.
    ///
    /// # Errors
    /// [`ServiceError::Corrupt`] naming the game when the record does not replay.
    pub async fn replay(
        &self,
        cpu: &CpuPool,
        id: GameId,
        record: GameRecord,
    ) -> Result<Arc<AnyGame>, ServiceError> {
        if let Some(game) = self.get(id, &record) {
            return Ok(game);
        }
        self.replays.fetch_add(1, Ordering::Relaxed);
        let (record, game) = cpu
            .run(move || {
                let game = AnyGame::from_record(&record);
                (record, game)
            })
            .await?;
        let game = Arc::new(game.map_err(|e| ServiceError::Corrupt(format!("game #{id}: {e}")))?);
        self.put(id, record, game.clone());
        Ok(game)
    }

    /// Forgets every game: the next load of each replays it. The counts of
    /// [`ReplayCache::stats`] stay.
    pub fn clear(&self) {
        self.lock().clear();
    }

    /// Hits, replays and size so far.
    pub fn stats(&self) -> CacheStats {
        let entries = self.lock();
        CacheStats {
            hits: self.hits.load(Ordering::Relaxed),
            replays: self.replays.load(Ordering::Relaxed),
            len: entries.len(),
            capacity: self.capacity,
        }
    }
}

fn ply_of(record: &GameRecord) -> i64 {
    i64::try_from(record.actions.len()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kaboom_rules::{GameOptions, Variant, Viewer};

    fn record(actions: &[&str]) -> GameRecord {
        let game = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
        GameRecord {
            variant: Variant::Atomic,
            options: GameOptions::default(),
            start_fen: game.start_fen(Viewer::Full),
            actions: actions.iter().map(|a| a.to_string()).collect(),
            declared: None,
        }
    }

    #[tokio::test]
    async fn a_hit_needs_the_same_record() {
        let cache = ReplayCache::new(4);
        let cpu = CpuPool::new(1);
        let id = GameId(7);
        let a = cache.replay(&cpu, id, record(&["e4"])).await.unwrap();
        let b = cache.replay(&cpu, id, record(&["e4"])).await.unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        // Same game and ply, another record (a hand-edited action): replayed, not served.
        let c = cache.replay(&cpu, id, record(&["d4"])).await.unwrap();
        assert_ne!(c.fen(Viewer::Full), a.fen(Viewer::Full));
        // Another game with the same record: its own entry.
        cache
            .replay(&cpu, GameId(8), record(&["e4"]))
            .await
            .unwrap();
        let stats = cache.stats();
        assert_eq!((stats.hits, stats.replays, stats.len), (1, 3, 2));
    }

    /// Guards one entry per game: a move's new position replaces the one before it, so a
    /// game played on takes one entry of the bound, not one per ply; another game's
    /// entries stay.
    #[tokio::test]
    async fn a_move_replaces_the_position_before_it() {
        let cache = ReplayCache::new(4);
        let cpu = CpuPool::new(1);
        cache
            .replay(&cpu, GameId(8), record(&["e4"]))
            .await
            .unwrap();
        cache.replay(&cpu, GameId(7), record(&[])).await.unwrap();
        cache
            .replay(&cpu, GameId(7), record(&["e4"]))
            .await
            .unwrap();
        cache
            .replay(&cpu, GameId(7), record(&["e4", "e5"]))
            .await
            .unwrap();
        assert_eq!(cache.stats().len, 2);
        assert!(cache.get(GameId(7), &record(&["e4", "e5"])).is_some());
        assert!(cache.get(GameId(7), &record(&["e4"])).is_none());
        assert!(cache.get(GameId(8), &record(&["e4"])).is_some());
    }

    #[tokio::test]
    async fn a_record_that_does_not_replay_is_corrupt_and_not_kept() {
        let cache = ReplayCache::new(4);
        let cpu = CpuPool::new(1);
        for _ in 0..2 {
            match cache.replay(&cpu, GameId(1), record(&["Qxh7"])).await {
                Err(ServiceError::Corrupt(e)) => assert!(e.starts_with("game #1"), "{e}"),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(cache.stats().replays, 2);
        assert_eq!(cache.stats().len, 0);
    }

    #[tokio::test]
    async fn the_cache_is_bounded() {
        let cache = ReplayCache::new(3);
        let cpu = CpuPool::new(2);
        for id in 0..10 {
            cache.replay(&cpu, GameId(id), record(&[])).await.unwrap();
        }
        assert_eq!(cache.stats().len, 3);
        // The most recent stay.
        assert!(cache.get(GameId(9), &record(&[])).is_some());
        assert!(cache.get(GameId(0), &record(&[])).is_none());
        let none = ReplayCache::new(0);
        none.replay(&cpu, GameId(1), record(&[])).await.unwrap();
        none.replay(&cpu, GameId(1), record(&[])).await.unwrap();
        assert_eq!((none.stats().len, none.stats().replays), (0, 2));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_pool_runs_at_most_its_size_at_once() {
        use std::sync::atomic::AtomicUsize;
        let cpu = CpuPool::new(2);
        let running = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let jobs: Vec<_> = (0..8)
            .map(|_| {
                let (cpu, running, peak) = (cpu.clone(), running.clone(), peak.clone());
                tokio::spawn(async move {
                    cpu.run(move || {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        peak.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(20));
                        running.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await
                })
            })
            .collect();
        for job in jobs {
            job.await.unwrap().unwrap();
        }
        assert_eq!(peak.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_panic_is_an_error_not_a_crash() {
        let cpu = CpuPool::new(1);
        let r: Result<(), _> = cpu.run(|| panic!("boom")).await;
        assert!(matches!(r, Err(ServiceError::TaskPanicked(_))), "{r:?}");
        // The permit came back.
        assert_eq!(cpu.run(|| 1).await.unwrap(), 1);
    }
}
