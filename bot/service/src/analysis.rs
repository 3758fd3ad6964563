//! Post-game analysis (`/analysis`): a finished game's every position searched by the
//! engine with every secret known ([`kaboom_engine::review`]), each ply judged as lichess
//! judges moves, posted in the game's thread.
//!
//! A request ([`Analyses::request`]) writes the `analyses` row and the outbox entry of its
//! progress post in one transaction; the worker ([`spawn_worker`]) claims queued analyses
//! one at a time, searches on its own one-search pool (never the pool that replays and
//! paints for moves), writes the progress every tenth of the plies and finally the review,
//! each with its outbox entries ([`outbox::Committed::Analysis`]). A running game is never
//! analysed for anyone, so nothing about a running Beirut game's carriers is ever computed
//! (BE-2); after the game they are public (BE-9).

use std::sync::Arc;
use std::time::Duration;

use kaboom_engine::review::{GameReview, ReviewBudget, ReviewProgress, default_nodes, review_game};
use kaboom_store::analyses::{self, AnalysisRow, AnalysisState};

use super::{Analyses, Core, ServiceError, Services, Snapshot, outbox};
use kaboom_domain::ids::{GameId, GuildId, MessageId, UserId};

/// Why an analysis is refused.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum AnalysisRefusal {
    /// The game is still being played: it is analysed only once it is over.
    StillPlaying {
        /// The game.
        id: GameId,
    },
    /// The game ended before any move: there is nothing to analyse.
    NoMoves {
        /// The game.
        id: GameId,
    },
}

impl From<AnalysisRefusal> for ServiceError {
    fn from(r: AnalysisRefusal) -> ServiceError {
        ServiceError::Refused(super::Refusal::Analysis(r))
    }
}

/// What happened to an analysis, for the outbox planner to word.
#[derive(Clone, Debug)]
pub enum AnalysisEvent {
    /// It was asked for: its progress post appears.
    Queued,
    /// More plies are judged: the progress post changes.
    Progress,
    /// It is finished: the result is posted.
    Done {
        /// The review.
        review: Arc<GameReview>,
    },
    /// It could not be done.
    Failed {
        /// Why, in words.
        reason: String,
    },
}

/// A committed change of an analysis.
#[derive(Clone, Debug)]
pub struct AnalysisChange {
    /// The game analysed.
    pub snap: Snapshot,
    /// The analysis as it is after the change.
    pub analysis: AnalysisRow,
    /// What happened.
    pub event: AnalysisEvent,
}

/// The answer to a request.
#[derive(Clone, Debug)]
pub enum AnalysisAnswer {
    /// Queued now: the progress post and then the result go to the game's thread.
    Queued(AnalysisRow),
    /// Someone asked before and it is not finished yet.
    InProgress(AnalysisRow),
    /// It is finished: the result is in the game's thread.
    Done(AnalysisRow),
    /// It was tried and failed.
    Failed(AnalysisRow),
}

/// Analyses at once: one, so that a 2-core host keeps a core for everyone else.
pub const ANALYSIS_SEARCHES: usize = 1;

/// How long a worker's claim holds without progress before another worker takes the
/// analysis over (the worker died): 10 minutes, far more than one progress step takes.
pub const CLAIM_LEASE_SECS: i64 = 600;

/// How often the worker looks for work without being woken (another process's requests,
/// claims that went stale).
pub const WORKER_INTERVAL: Duration = Duration::from_secs(30);

impl Services {
    /// The same services analysing at `nodes` positions per move (`None`: the engine's
    /// default for each variant, about a minute of one core for a 40-move game).
    pub fn with_analysis_nodes(mut self, nodes: Option<u64>) -> Services {
        self.core_mut().analysis_nodes = nodes.filter(|&n| n > 0);
        self
    }
}

impl Core {
    /// The node budget per position for a game of `variant`.
    fn analysis_budget(&self, variant: kaboom_rules::Variant) -> ReviewBudget {
        ReviewBudget::nodes(self.analysis_nodes.unwrap_or(default_nodes(variant)))
    }
}

impl Analyses<'_> {
    /// `by`, asking in server `guild` (`None`: a direct message), asks for the analysis of
    /// game `id`: queued (with its progress post) unless it was asked for before, in which
    /// case it is answered as it stands. Whoever may read the game may ask
    /// ([`super::Games::load_readable`]).
    ///
    /// # Errors
    /// [`super::Refusal::UnknownGame`], [`super::Refusal::NotReadableHere`];
    /// [`AnalysisRefusal::StillPlaying`] for a game not over; [`AnalysisRefusal::NoMoves`]
    /// for a game without a move; storage failures.
    pub async fn request(
        self,
        id: GameId,
        by: UserId,
        guild: Option<GuildId>,
    ) -> Result<AnalysisAnswer, ServiceError> {
        let snap = self.core.games().load_readable(id, by, guild).await?;
        if let Some(existing) = self.answer(id).await? {
            return Ok(existing);
        }
        if snap.outcome().is_none() {
            return Err(AnalysisRefusal::StillPlaying { id }.into());
        }
        let plies = snap.game.ply_count();
        if plies == 0 {
            return Err(AnalysisRefusal::NoMoves { id }.into());
        }
        let nodes = self
            .core
            .analysis_budget(snap.row.variant)
            .nodes_per_position;
        let now = self.core.clock.now();
        let mut tx = self.core.db.begin_write().await?;
        let nodes = i64::try_from(nodes).unwrap_or(i64::MAX);
        if !analyses::insert(&mut tx, id, by, nodes, plies as i64, now).await? {
            // Asked for at the same moment by someone else.
            drop(tx);
            return self.answer(id).await?.ok_or_else(|| vanished(id));
        }
        let analysis = analyses::get(&mut tx, id)
            .await?
            .ok_or_else(|| vanished(id))?;
        let change = AnalysisChange {
            snap,
            analysis: analysis.clone(),
            event: AnalysisEvent::Queued,
        };
        self.core
            .enqueue(&mut tx, outbox::Committed::Analysis(&change))
            .await?;
        tx.commit()
            .await
            .map_err(kaboom_store::StorageError::from)?;
        self.core.outbox_waker.wake();
        self.core.analysis_waker.notify_one();
        Ok(AnalysisAnswer::Queued(analysis))
    }

    /// Game `id`'s analysis as it stands, if one was asked for.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn answer(self, id: GameId) -> Result<Option<AnalysisAnswer>, ServiceError> {
        let Some(row) = analyses::get(&self.core.db, id).await? else {
            return Ok(None);
        };
        Ok(Some(match row.state {
            AnalysisState::Queued | AnalysisState::Running => AnalysisAnswer::InProgress(row),
            AnalysisState::Failed => AnalysisAnswer::Failed(row),
            AnalysisState::Done => AnalysisAnswer::Done(row),
        }))
    }

    /// Game `id`'s analysis row, if one was asked for.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn get(self, id: GameId) -> Result<Option<AnalysisRow>, ServiceError> {
        Ok(analyses::get(&self.core.db, id).await?)
    }

    /// Records the delivered progress post of game `id`'s analysis.
    ///
    /// # Errors
    /// Storage failures.
    pub async fn set_message(self, id: GameId, message: MessageId) -> Result<(), ServiceError> {
        Ok(analyses::set_message(&self.core.db, id, message).await?)
    }

    /// Claims the next queued analysis (or one whose worker died) and does it: the
    /// search on the analysis pool, the progress and the result written with their outbox
    /// entries. Returns the game analysed, `None` when there was nothing to do.
    ///
    /// # Errors
    /// Storage failures; the analysis is then taken over when its claim goes stale.
    pub async fn work_one(self) -> Result<Option<GameId>, ServiceError> {
        let now = self.core.clock.now();
        let Some(claimed) = analyses::claim(&self.core.db, now, now - CLAIM_LEASE_SECS).await?
        else {
            return Ok(None);
        };
        let id = claimed.game_id;
        let snap = match self.core.load(id).await {
            Ok(snap) => snap,
            Err(e @ (ServiceError::Corrupt(_) | ServiceError::Refused(_))) => {
                self.fail(id, None, format!("the game could not be read: {e}"))
                    .await?;
                return Ok(Some(id));
            }
            Err(e) => return Err(e),
        };
        let budget = ReviewBudget::nodes(u64::try_from(claimed.nodes).unwrap_or(1).max(1));
        let (progress_tx, mut progress_rx) = tokio::sync::mpsc::unbounded_channel();
        let game = snap.game.clone();
        let search = self.core.analysis_pool.run(move || {
            review_game(&game, budget, |p: ReviewProgress| {
                let _ = progress_tx.send(p);
            })
        });
        tokio::pin!(search);
        let total = snap.game.ply_count().max(1);
        let mut shown = 0;
        let result = loop {
            tokio::select! {
                result = &mut search => break result,
                Some(p) = progress_rx.recv() => {
                    // Every tenth of the plies (not the last: the result says it).
                    if p.done < p.total && p.done * 10 / total > shown * 10 / total {
                        shown = p.done;
                        self.progress(&snap, p.done).await?;
                    }
                }
            }
        };
        match result {
            Ok(Ok(review)) => self.finish(&snap, review).await?,
            Ok(Err(e)) => self.fail(id, Some(&snap), e.to_string()).await?,
            Err(e) => self.fail(id, Some(&snap), e.to_string()).await?,
        }
        Ok(Some(id))
    }

    /// Writes that `done` plies of `snap`'s analysis are judged, with its progress edit.
    async fn progress(self, snap: &Snapshot, done: usize) -> Result<(), ServiceError> {
        let id = snap.row.id;
        let mut tx = self.core.db.begin_write().await?;
        analyses::set_progress(&mut tx, id, done as i64, self.core.clock.now()).await?;
        self.commit(tx, snap, AnalysisEvent::Progress).await
    }

    /// Stores the finished `review` of `snap`'s game with the outbox entries of its post.
    async fn finish(self, snap: &Snapshot, review: GameReview) -> Result<(), ServiceError> {
        let json = serde_json::to_string(&review)
            .map_err(|e| ServiceError::Corrupt(format!("the review does not serialize: {e}")))?;
        let mut tx = self.core.db.begin_write().await?;
        analyses::finish(&mut tx, snap.row.id, &json, self.core.clock.now()).await?;
        let review = Arc::new(review);
        self.commit(tx, snap, AnalysisEvent::Done { review }).await
    }

    /// Gives game `id`'s analysis up for `reason` (said in the thread when the game could
    /// be read).
    async fn fail(
        self,
        id: GameId,
        snap: Option<&Snapshot>,
        reason: String,
    ) -> Result<(), ServiceError> {
        tracing::warn!(game_id = %id, %reason, "analysis failed");
        let mut tx = self.core.db.begin_write().await?;
        analyses::fail(&mut tx, id, self.core.clock.now()).await?;
        match snap {
            Some(snap) => {
                self.commit(tx, snap, AnalysisEvent::Failed { reason })
                    .await
            }
            None => Ok(tx
                .commit()
                .await
                .map_err(kaboom_store::StorageError::from)?),
        }
    }

    /// Enqueues `event`'s outbox entries for `snap`'s analysis (as it is in `tx`) and
    /// commits.
    async fn commit(
        self,
        mut tx: kaboom_store::Tx,
        snap: &Snapshot,
        event: AnalysisEvent,
    ) -> Result<(), ServiceError> {
        let analysis = analyses::get(&mut tx, snap.row.id)
            .await?
            .ok_or_else(|| vanished(snap.row.id))?;
        let change = AnalysisChange {
            snap: snap.clone(),
            analysis,
            event,
        };
        self.core
            .enqueue(&mut tx, outbox::Committed::Analysis(&change))
            .await?;
        tx.commit()
            .await
            .map_err(kaboom_store::StorageError::from)?;
        self.core.outbox_waker.wake();
        Ok(())
    }
}

/// The arrows of a key moment on `before` (the game before the ply): the action played
/// (red) and the engine's better one (green, drawn last so it is on top), each from its
/// start to its arrival square, or a ring on the centre of a Boom or detonation. An
/// action that does not play on `before` gets no arrow.
pub fn key_moment_arrows(
    before: &kaboom_rules::AnyGame,
    played: &str,
    better: Option<&str>,
) -> Vec<kaboom_renderer::Arrow> {
    use kaboom_renderer::{Arrow, ArrowKind};
    let arrow = |text: &str, kind: ArrowKind| {
        let mut game = before.clone();
        game.play(None, text).ok()?;
        let squares = game.plies().last()?.squares;
        match (squares.from, squares.to, squares.detonation) {
            (Some(from), Some(to), _) => Some(Arrow::new(from, to, kind)),
            (_, _, Some(centre)) => Some(Arrow::ring(centre, kind)),
            (_, Some(to), None) => Some(Arrow::ring(to, kind)),
            _ => None,
        }
    };
    [
        arrow(played, ArrowKind::Played),
        better.and_then(|b| arrow(b, ArrowKind::Better)),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The error of an analysis row that was written and is gone (a bug or a damaged database).
fn vanished(id: GameId) -> ServiceError {
    ServiceError::Corrupt(format!("analysis of game #{id} vanished"))
}

/// The stored review of a finished analysis.
///
/// # Errors
/// [`ServiceError::Corrupt`] when it is missing or does not read.
pub fn read_review(row: &AnalysisRow) -> Result<Arc<GameReview>, ServiceError> {
    let text = row.review.as_deref().ok_or_else(|| {
        ServiceError::Corrupt(format!("analysis of game #{} has no review", row.game_id))
    })?;
    serde_json::from_str(text)
        .map(Arc::new)
        .map_err(|e| ServiceError::Corrupt(format!("the review of game #{}: {e}", row.game_id)))
}

/// Starts the analysis worker: it does every claimable analysis, then waits for a request
/// ([`Analyses::request`] wakes it) or [`WORKER_INTERVAL`].
pub fn spawn_worker(services: Services) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            loop {
                match services.analyses().work_one().await {
                    Ok(Some(_)) => continue,
                    Ok(None) => break,
                    Err(e) => {
                        tracing::warn!(error = %e, "analysis worker step failed");
                        break;
                    }
                }
            }
            tokio::select! {
                () = services.core.analysis_waker.notified() => {}
                () = tokio::time::sleep(WORKER_INTERVAL) => {}
            }
        }
    })
}
