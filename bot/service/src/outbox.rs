//! The outbox side of the services: what a committed change must show on
//! Discord is planned inside the change's transaction and written to the `discord_outbox`
//! table with it (`storage::outbox`), so a crash or a Discord failure after the commit
//! cannot lose it. The wording is the Discord layer's: it plugs in an [`EffectPlanner`]
//! ([`Services::with_effects`]); without one (the CLI, service tests) nothing is written.
//! The scheduler writes its notices into the same table (`scheduler::NoticePlanner`), and
//! both wake the one deliverer through an [`OutboxWaker`].

use std::sync::Arc;

use kaboom_rules::AnyGame;

use super::{Core, Designated, DrawResult, Ended, Games, Played, ServiceError, Services, Snapshot};
use kaboom_domain::ids::{GameId, UserId};
use kaboom_store::Tx;
use kaboom_store::challenges::Challenge;
use kaboom_store::games;
use kaboom_store::outbox::{self, NewEffect};

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
}

/// Wakes the outbox's deliverer after a commit that wrote entries (the services' and the
/// scheduler's writes share one: [`Services::outbox_waker`]). A wake with no deliverer
/// waiting is kept for its next wait, so none is lost.
#[derive(Clone, Debug, Default)]
pub struct OutboxWaker(Arc<tokio::sync::Notify>);

impl OutboxWaker {
    /// Wakes the deliverer.
    pub fn wake(&self) {
        self.0.notify_one();
    }

    /// Waits for the next [`OutboxWaker::wake`] (the deliverer).
    pub async fn notified(&self) {
        self.0.notified().await;
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

/// Wall-clock Unix seconds: outbox timing is operational, not game time (a test clock that
/// stands still must not stop retries).
pub fn unix_now() -> i64 {
    use kaboom_domain::clock::{Clock, SystemClock};
    SystemClock.now()
}
