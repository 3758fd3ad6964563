//! Games against the practice opponent: the engine takes a seat like a player,
//! and its carriers and actions go through the same services, transactions (with the
//! expected-ply check) and outbox as a person's.
//!
//! Searches run off the async runtime in their own bounded pool ([`EngineRunner`]: one
//! search at a time by default), apart from the pool that replays and paints, so many
//! engine games cannot starve human games of replays and board images.

use kaboom_engine::{Level, choose_action, choose_carriers};

use super::replay::CpuPool;
use super::{PlayRequest, Practice, ServiceError, Services, Snapshot};
use kaboom_domain::deadline::SchedulerWaker;
use kaboom_domain::game::GameState;
use kaboom_domain::ids::{GameId, UserId};
use kaboom_store::engine::{self, EngineSeat};

/// Who the engine is on Discord: the bot's own user, which takes the engine's seat.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct EnginePlayer {
    /// The bot's user id.
    pub user: UserId,
    /// The name games show for it.
    pub name: String,
}

/// The engine's search pool and the waker of the worker that plays its turns.
#[derive(Clone)]
pub struct EngineRunner {
    pool: CpuPool,
    waker: SchedulerWaker,
}

/// Searches at once by default: one, so that a 2-core host keeps a core for everyone else.
pub const DEFAULT_ENGINE_SEARCHES: usize = 1;

impl Default for EngineRunner {
    fn default() -> EngineRunner {
        EngineRunner::new(DEFAULT_ENGINE_SEARCHES)
    }
}

impl EngineRunner {
    /// A runner doing at most `searches` (at least 1) searches at once.
    pub fn new(searches: usize) -> EngineRunner {
        EngineRunner {
            pool: CpuPool::new(searches),
            waker: SchedulerWaker::default(),
        }
    }

    /// Asks the worker to look for engine turns now (after any change that can make one).
    pub fn wake(&self) {
        self.waker.wake();
    }

    /// Waits for a wake (the worker's pause).
    pub async fn notified(&self) {
        self.waker.notified().await;
    }
}

/// What one look at an engine game did.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum EngineStep {
    /// Nothing to do: the opponent's turn, or the game is over.
    Waiting,
    /// The engine chose its carriers (BE-2, NU-3).
    Designated,
    /// The engine played this action (canonical text).
    Played(String),
    /// The game moved on while the engine thought; it will look again.
    MovedOn,
}

/// A seed for the engine's choice in `game` at `ply`: the same game and ply always give the
/// same action, different games differ.
fn seed(game: GameId, ply: i64) -> u64 {
    (i64::from(game) as u64)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15)
        .wrapping_add(ply as u64)
}

impl Practice<'_> {
    /// The engine (`engine`, the bot's own user) accepts challenge `id` addressed to it and
    /// takes its seat at `level` in the same transaction that starts the game.
    ///
    /// # Errors
    /// As [`Challenges::accept`](crate::Challenges::accept).
    pub async fn accept(
        self,
        id: i64,
        engine: &EnginePlayer,
        level: Level,
    ) -> Result<Snapshot, ServiceError> {
        self.core
            .accept(id, engine.user, &engine.name, Some(level))
            .await
    }

    /// The engine's seat in game `id`, if it plays there.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn seat(self, id: GameId) -> Result<Option<EngineSeat>, ServiceError> {
        Ok(engine::get(&self.core.db, id).await?)
    }

    /// The engine's seats in every game in setup or play.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn seats(self) -> Result<Vec<EngineSeat>, ServiceError> {
        Ok(engine::unfinished(&self.core.db).await?)
    }

    /// Looks at the engine's game `seat` and acts if it is the engine's turn: chooses its
    /// carriers during setup, or searches (off the runtime, in the engine's pool, on the
    /// position as the engine's side sees it) and plays, checking that the game is still at
    /// the ply the search started from.
    ///
    /// # Errors
    /// [`ServiceError`] from loading, designating or playing (a refusal here is a bug: the
    /// engine only plays legal actions on its own turn).
    pub async fn step(
        self,
        seat: EngineSeat,
        engine: &EnginePlayer,
    ) -> Result<EngineStep, ServiceError> {
        let snap = self.core.load(seat.game_id).await?;
        if snap.row.state == GameState::Finished || snap.game.status().is_finished() {
            return Ok(EngineStep::Waiting);
        }
        let id = seat.game_id;
        if snap.game.awaiting_designation().contains(&seat.color) {
            let game = snap.game.clone();
            let color = seat.color;
            let seed = seed(id, -1);
            let squares = self
                .core
                .engine
                .pool
                .run(move || choose_carriers(&game, color, seed))
                .await?
                .map_err(|e| ServiceError::Corrupt(e.to_string()))?;
            let names: Vec<String> = squares.iter().map(ToString::to_string).collect();
            return match self.core.games().designate(id, engine.user, &names).await {
                Ok(_) => Ok(EngineStep::Designated),
                Err(ServiceError::MovedOn { .. }) => Ok(EngineStep::MovedOn),
                Err(e) => Err(e),
            };
        }
        if snap.row.state != GameState::Active || snap.game.turn() != seat.color {
            return Ok(EngineStep::Waiting);
        }
        let game = snap.game.clone();
        let (level, ply) = (seat.level, snap.row.ply);
        let choice = self
            .core
            .engine
            .pool
            .run(move || choose_action(&game, level, seed(id, ply)))
            .await?
            .map_err(|e| ServiceError::Corrupt(e.to_string()))?;
        match self
            .core
            .games()
            .play(PlayRequest::new(id, engine.user, &choice.best).at_ply(ply))
            .await
        {
            Ok(played) => Ok(EngineStep::Played(played.ply.san)),
            Err(ServiceError::MovedOn { .. }) => Ok(EngineStep::MovedOn),
            Err(e) => Err(e),
        }
    }

    /// Every engine game looked at once ([`Practice::step`](crate::Practice::step)), oldest first. A game
    /// that fails is logged and skipped: one bad row costs only itself.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] when the list cannot be read.
    pub async fn sweep(self, engine: &EnginePlayer) -> Result<usize, ServiceError> {
        let mut acted = 0;
        for seat in self.seats().await? {
            match self.step(seat, engine).await {
                Ok(EngineStep::Waiting) => {}
                Ok(step) => {
                    tracing::info!(game_id = %seat.game_id, ?step, "engine acted");
                    // Its board post (or carrier commitment) is in the outbox: deliver now.
                    self.core.outbox_waker.wake();
                    acted += 1;
                }
                Err(e) => {
                    tracing::warn!(game_id = %seat.game_id, error = %e, "engine could not act")
                }
            }
        }
        Ok(acted)
    }
}

/// How often the worker looks at every engine game even without a wake: a safety net
/// for a wake lost in a crash (a restart's first sweep plays what was left at once).
pub const ENGINE_SWEEP_INTERVAL: std::time::Duration = std::time::Duration::from_secs(30);

/// Starts the engine's worker: a sweep of every engine game now, then one after each
/// wake ([`EngineRunner::wake`], sent by every move, designation and engine acceptance)
/// and every [`ENGINE_SWEEP_INTERVAL`]. It runs for the life of the runtime.
pub fn spawn_worker(services: Services, engine: EnginePlayer) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            loop {
                match services.practice().sweep(&engine).await {
                    // An action can make another turn (the engine's carriers start play
                    // with it to move): sweep again until nothing is left.
                    Ok(0) => break,
                    Ok(_) => continue,
                    Err(e) => {
                        tracing::warn!(error = %e, "engine sweep failed");
                        break;
                    }
                }
            }
            tokio::select! {
                () = services.engine().notified() => {}
                () = tokio::time::sleep(ENGINE_SWEEP_INTERVAL) => {}
            }
        }
    })
}
