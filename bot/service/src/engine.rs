//! Games against the practice opponent: the engine takes a seat like a player,
//! and its carriers and actions go through the same services, transactions (with the
//! expected-ply check) and outbox as a person's.
//!
//! Searches run off the async runtime in their own bounded pool ([`EngineRunner`]: one
//! search at a time by default), apart from the pool that replays and paints, so many
//! engine games cannot starve human games of replays and board images.

use kaboom_engine::{Level, choose_action, choose_carriers};

use super::replay::CpuPool;
use super::{PlayRequest, Practice, Refusal, ServiceError, Services, Snapshot};
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

    /// One fair round of the engine's games: for each player in turn ([`by_player`]), their
    /// games are looked at ([`Practice::step`](crate::Practice::step)) oldest first until
    /// the engine acts in one, so each player gets at most one engine action a round and
    /// one player's many games never queue ahead of another's one. The worker runs rounds
    /// until one acts nowhere, reading the games again each round, so a game that starts
    /// waiting meanwhile joins the next round. A game that fails is logged and skipped:
    /// one bad row costs only itself. Returns how many games the engine acted in.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] when the list cannot be read.
    pub async fn sweep(self, engine: &EnginePlayer) -> Result<usize, ServiceError> {
        let mut acted = 0;
        for games in by_player(self.seats().await?) {
            for seat in games {
                match self.step(seat, engine).await {
                    Ok(EngineStep::Waiting) => {}
                    Ok(step) => {
                        tracing::info!(game_id = %seat.game_id, ?step, "engine acted");
                        // Its board post (or carrier commitment) is in the outbox: deliver now.
                        self.core.outbox_waker.wake();
                        acted += 1;
                        break;
                    }
                    Err(e) => {
                        tracing::warn!(game_id = %seat.game_id, error = %e, "engine could not act")
                    }
                }
            }
        }
        Ok(acted)
    }

    /// Whether `user` may start another practice game: refused at
    /// [`MAX_PRACTICE_GAMES`] unfinished ones, so that no player holds the engine's one
    /// search at a time with dozens of games.
    ///
    /// # Errors
    /// [`Refusal::TooManyPracticeGames`]; [`ServiceError::Storage`].
    pub async fn may_start(self, user: UserId) -> Result<(), ServiceError> {
        if engine::running_against(&self.core.db, user).await? >= MAX_PRACTICE_GAMES as i64 {
            return Err(ServiceError::Refused(Refusal::TooManyPracticeGames {
                limit: MAX_PRACTICE_GAMES,
            }));
        }
        Ok(())
    }
}

/// The most practice games one player may have unfinished at once.
pub const MAX_PRACTICE_GAMES: usize = 3;

/// `seats` grouped by the player each game is against, in the order of each player's
/// oldest game, each player's games oldest first (as `seats` lists them).
pub fn by_player(seats: Vec<EngineSeat>) -> Vec<Vec<EngineSeat>> {
    let mut groups: Vec<Vec<EngineSeat>> = Vec::new();
    for seat in seats {
        match groups.iter_mut().find(|g| g[0].opponent == seat.opponent) {
            Some(group) => group.push(seat),
            None => groups.push(vec![seat]),
        }
    }
    groups
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

#[cfg(test)]
mod fairness_tests {
    use super::*;
    use kaboom_domain::ids::{GameId, UserId};
    use kaboom_rules::Color;

    fn seat(game: i64, opponent: u64) -> EngineSeat {
        EngineSeat {
            game_id: GameId(game),
            color: Color::Black,
            level: kaboom_engine::Level::Two,
            opponent: UserId(opponent),
        }
    }

    #[test]
    fn one_players_many_games_form_one_group() {
        let seats = vec![seat(1, 7), seat(2, 7), seat(3, 7), seat(4, 9), seat(5, 7)];
        let groups: Vec<Vec<i64>> = by_player(seats)
            .into_iter()
            .map(|g| g.into_iter().map(|s| s.game_id.0).collect())
            .collect();
        assert_eq!(groups, vec![vec![1, 2, 3, 5], vec![4]]);
    }
}
