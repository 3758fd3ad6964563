//! Games against the practice opponent: the engine takes a seat like a player,
//! and its carriers and actions go through the same services, transactions (with the
//! expected-ply check) and outbox as a person's.
//!
//! Searches run off the async runtime in their own bounded pool ([`EngineRunner`]: one
//! search at a time by default), apart from the pool that replays and paints, so many
//! engine games cannot starve human games of replays and board images.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kaboom_engine::{Level, choose_action, choose_carriers};

use super::replay::CpuPool;
use super::{PlayRequest, Practice, Refusal, ServiceError, Services, Snapshot};
use kaboom_domain::deadline::SchedulerWaker;
use kaboom_domain::game::GameState;
use kaboom_domain::ids::{GameId, GuildId, UserId};
use kaboom_domain::settings::Limit;
use kaboom_store::engine::{self, EngineSeat};

/// Who the engine is on Discord: the bot's own user, which takes the engine's seat.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct EnginePlayer {
    /// The bot's user id.
    pub user: UserId,
    /// The name games show for it.
    pub name: String,
}

/// The engine's search pool, the waker of the worker that plays its turns, and what the
/// worker knows of its queue (for [`EngineRunner::reply_wait`] and fair turns).
#[derive(Clone)]
pub struct EngineRunner {
    pool: CpuPool,
    waker: SchedulerWaker,
    queue: Arc<Mutex<Queue>>,
}

/// The engine's queue as this process sees it.
#[derive(Debug, Default)]
struct Queue {
    /// The engine's own user, once its worker runs.
    engine: Option<UserId>,
    /// Games waiting for an engine action, each with the player it is against (noted at
    /// every committed action, and kept to the unfinished games at each sweep).
    waiting: HashMap<GameId, UserId>,
    /// When each player last got an engine action (a sequence number; none yet: never).
    served: HashMap<UserId, u64>,
    /// The sequence number of the next action.
    next_serve: u64,
    /// How long a search takes, in milliseconds: a moving average of the last ones
    /// (each new one weighs [`SEARCH_WEIGHT`]); `None` before the first.
    search_ms: Option<f64>,
}

/// The weight of the latest search in [`EngineRunner`]'s estimate of a search's time.
const SEARCH_WEIGHT: f64 = 0.3;

/// How long until the engine answers in a game, when other players' games are ahead of it.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct ReplyWait {
    /// Other players with a game waiting for the engine (each gets at most one engine
    /// action before this game: [`Practice::sweep`]).
    pub players_ahead: usize,
    /// About how long until the reply: a search's recent time for each of those players
    /// and one for this game; `None` before any search was timed.
    pub about: Option<Duration>,
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
            queue: Arc::new(Mutex::new(Queue::default())),
        }
    }

    fn queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Notes whose turn it is in `snap` after a committed action: waiting for the engine
    /// (it plays there and is to move), or not. Returns whether the engine may have
    /// something to do in that game: it plays there, or its worker has not looked yet (its
    /// seat is not known). A game between two people never gives it a turn, so a move
    /// there need not wake it ([`EngineRunner::wake`]: its sweep is a query).
    pub(crate) fn note_turn(&self, snap: &Snapshot) -> bool {
        let mut queue = self.queue();
        let Some(engine) = queue.engine else {
            return true;
        };
        let row = &snap.row;
        match row.color_of(engine) {
            Some(seat)
                if row.state == GameState::Active
                    && snap.game.turn() == seat
                    && !snap.game.status().is_finished() =>
            {
                queue.waiting.insert(row.id, row.player(seat.other()));
            }
            _ => {
                queue.waiting.remove(&row.id);
            }
        }
        row.color_of(engine).is_some()
    }

    /// How long the engine's reply in game `game` will take when other players' games
    /// wait for it too; `None` when the game is not waiting for the engine or no other
    /// player's game is.
    pub fn reply_wait(&self, game: GameId) -> Option<ReplyWait> {
        let queue = self.queue();
        let player = *queue.waiting.get(&game)?;
        let mut others: Vec<UserId> = queue
            .waiting
            .values()
            .copied()
            .filter(|p| *p != player)
            .collect();
        others.sort_unstable();
        others.dedup();
        if others.is_empty() {
            return None;
        }
        let searches = (others.len() + 1) as f64;
        Some(ReplyWait {
            players_ahead: others.len(),
            about: queue
                .search_ms
                .map(|ms| Duration::from_millis((ms * searches).round() as u64)),
        })
    }

    /// Records a search that took `took`.
    fn searched(&self, took: Duration) {
        let ms = took.as_secs_f64() * 1000.0;
        let mut queue = self.queue();
        queue.search_ms = Some(match queue.search_ms {
            Some(old) => old + SEARCH_WEIGHT * (ms - old),
            None => ms,
        });
    }

    /// Records that `player` got an engine action now.
    fn served(&self, player: UserId) {
        let mut queue = self.queue();
        queue.next_serve += 1;
        let at = queue.next_serve;
        queue.served.insert(player, at);
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
        let started = Instant::now();
        let choice = self
            .core
            .engine
            .pool
            .run(move || choose_action(&game, level, seed(id, ply)))
            .await?
            .map_err(|e| ServiceError::Corrupt(e.to_string()))?;
        self.core.engine.searched(started.elapsed());
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
    /// one player's many games never queue ahead of another's one. The players are taken
    /// least recently served first (a player never served before everyone), so a player
    /// whose game starts waiting while another's is searched is next. The worker runs
    /// rounds until one acts nowhere, reading the games again each round, so a game that
    /// starts waiting meanwhile joins the next round. A game that fails is logged and
    /// skipped: one bad row costs only itself. Returns how many games the engine acted in.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] when the list cannot be read.
    pub async fn sweep(self, engine: &EnginePlayer) -> Result<usize, ServiceError> {
        let mut acted = 0;
        let seats = self.seats().await?;
        let mut players = by_player(seats);
        {
            let mut queue = self.core.engine.queue();
            queue.engine = Some(engine.user);
            let unfinished: std::collections::HashSet<GameId> =
                players.iter().flatten().map(|s| s.game_id).collect();
            queue.waiting.retain(|game, _| unfinished.contains(game));
            // Stable: players served equally long ago keep the order of their oldest game.
            players.sort_by_key(|games| queue.served.get(&games[0].opponent).copied().unwrap_or(0));
        }
        for games in players {
            for seat in games {
                match self.step(seat, engine).await {
                    Ok(EngineStep::Waiting) => {}
                    Ok(step) => {
                        tracing::info!(game_id = %seat.game_id, ?step, "engine acted");
                        self.core.engine.served(seat.opponent);
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

    /// Whether `user` may start another practice game in server `guild`: refused at the
    /// server's [`Limit::PracticeGames`] unfinished ones (3 unless it chose otherwise), so
    /// that no player holds the engine with dozens of games.
    ///
    /// # Errors
    /// [`Refusal::TooManyPracticeGames`]; [`ServiceError::Storage`].
    pub async fn may_start(self, user: UserId, guild: Option<GuildId>) -> Result<(), ServiceError> {
        let limit = crate::settings::limits_in(self.core, &self.core.db, guild)
            .await?
            .get(Limit::PracticeGames);
        if engine::running_against(&self.core.db, user).await? >= i64::from(limit) {
            return Err(ServiceError::Refused(Refusal::TooManyPracticeGames {
                limit,
            }));
        }
        Ok(())
    }
}

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
