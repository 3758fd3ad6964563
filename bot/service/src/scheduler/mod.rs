//! # The correspondence clock and scheduler
//!
//! One tokio task ([`Scheduler::run`]) sweeps due work from the database every
//! [`SchedulerConfig::interval`]. The database is the source of truth: a game's next due
//! time is the indexed column `games.next_due_at` (set to "now" by triggers whenever a game
//! changes, then to the exact next time by the sweep), open challenges expire by
//! `(state, created_at)`. No timer lives in memory, so a restart after hours of downtime
//! catches up, and each game gets at most one message per sweep, for its most advanced
//! overdue state ([`plan::plan`]): a game whose deadline passed during downtime is
//! forfeited once, never nudged first.
//!
//! What is due, per game:
//! - timed games (`days_per_move`): a nudge when the player to move has used each share of
//!   their time (server setting, default 50% and 80%), then the time forfeit at the
//!   deadline: the opponent wins, or it is a draw when the opponent has no way to win
//!   (`AnyGame::can_win`), reason `time-forfeit` either way;
//! - untimed games: a nudge after an idle period (default 48 hours), then every 7 days;
//! - games in setup (Beirut, Nuke): aborted when the carrier designation is still incomplete
//!   after [`SchedulerConfig::designation_timeout_secs`] (default 48 hours);
//! - open challenges: expired after [`SchedulerConfig::challenge_ttl_secs`] (default 7 days).
//!
//! Exactly-once: every decision is taken inside a write transaction (`BEGIN IMMEDIATE`) that
//! also records it: a nudge is claimed in the `nudges` table (unique per game, ply and
//! threshold), a forfeit or abort is written with the expected-ply check of
//! [`schedule::finish_many`], and a finished game can no longer be changed (trigger
//! `games_finished_is_final`), so a move that lands concurrently with a forfeit cannot both
//! apply: whichever commits first wins, the other sees "moved on". What the decision tells
//! people (a nudge, the time forfeit or abort, a challenge's expiry) is written by the same
//! transaction into the one Discord outbox (`discord_outbox`) through a
//! [`NoticePlanner`], and posted after the commit by the outbox's deliverer
//! (`discord::outbox`) with a Create Message nonce: exactly once, across crashes and
//! retries. A nudge that could not be posted before the player moved is dropped.
//!
//! Ratings: a rated game the sweep forfeits on time is rated in the batch's
//! transaction, with its result ([`crate::ratings::rate_finished_game`]; aborts
//! are never rated), and the announcement shows the change. Games of one batch are rated
//! one after the other, each reading the ratings the previous ones wrote.

pub mod notice;
/// The deadline policy (moved to [`kaboom_domain::deadline`]).
pub use kaboom_domain::deadline as plan;

use std::collections::HashMap;
use std::sync::Arc;

use kaboom_rules::{AnyGame, Color, EndReason, Outcome, Viewer};

use kaboom_domain::clock::Clock;
use kaboom_domain::ids::{ChannelId, GameId, GuildId, UserId};
use kaboom_store::carriers::Designation;
use kaboom_store::games::{self, GameRow};
use kaboom_store::ratings::GameChange;
use kaboom_store::settings::{self, GuildSettings};
use kaboom_store::{Db, StorageError, Tx, challenges, outbox, schedule};

pub use kaboom_domain::deadline::{Due, Facts, Nudge, Plan};
pub use kaboom_domain::deadline::{SchedulerConfig, SchedulerWaker};
pub use notice::{Notice, NoticePlanner};

/// What one sweep did (ids of games or challenges).
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct SweepReport {
    /// Games looked at (due, whether or not anything was sent).
    pub examined: usize,
    /// Challenges expired.
    pub expired: Vec<i64>,
    /// Games aborted for an incomplete designation.
    pub aborted: Vec<GameId>,
    /// Games ended on time.
    pub forfeited: Vec<GameId>,
    /// Nudges claimed: (game, threshold).
    pub nudged: Vec<(GameId, String)>,
    /// Vacations ended because their days ran out.
    pub vacations_ended: usize,
    /// What the leagues' sweep did ([`Scheduler::with_leagues`]).
    pub leagues: crate::leagues::LeagueSweep,
    /// The servers whose daily puzzle this sweep chose and queued for posting.
    pub daily_puzzles: Vec<i64>,
}

/// The scheduler: storage, clock, notice planner and configuration.
#[derive(Clone)]
pub struct Scheduler {
    db: Db,
    clock: Arc<dyn Clock>,
    notifier: Arc<dyn NoticePlanner>,
    config: SchedulerConfig,
    wording: Arc<dyn Wording>,
    waker: SchedulerWaker,
    leagues: Option<crate::Services>,
}

/// The side to move at `ply` (C-2: White first, one action per turn).
fn to_move(ply: i64) -> Color {
    if ply % 2 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// What the scheduler announces, before it is worded. The Discord layer words it
/// ([`Wording`], implemented in `discord::messages`), so that every text players read is
/// written in one place.
#[derive(Clone, Copy, Debug)]
pub enum Announcement<'a> {
    /// An open challenge expired, `ttl_secs` after it was made.
    ChallengeExpired {
        /// The challenger's name.
        challenger_name: &'a str,
        /// The challenge lifetime (seconds).
        ttl_secs: i64,
    },
    /// A reminder to the player to move in `row`, posted or linked in `channel`.
    Nudge {
        /// The game.
        row: &'a GameRow,
        /// The side to move (the reminded player's).
        to_move: Color,
        /// Which reminder.
        nudge: &'a Nudge,
        /// The game's thread (or channel).
        channel: ChannelId,
    },
    /// `vacation` ran out by itself; `row` is one of its player's games in play.
    VacationOver {
        /// The game.
        row: &'a GameRow,
        /// The vacation that ended.
        vacation: &'a kaboom_store::comforts::Vacation,
    },
    /// A game the sweep ended: on time (`forfeit`) or aborted for an incomplete carrier
    /// designation, with the carriers revealed (Beirut, Nuke).
    GameEnded {
        /// The game's row (before it ended).
        row: &'a GameRow,
        /// The game as the sweep ended it: its plies tell where each Beirut carrier went.
        game: &'a AnyGame,
        /// The result.
        outcome: &'a Outcome,
        /// How it ended.
        end: &'a End,
        /// Both sides' designations, revealed with the result (BE-9).
        reveal: &'a [Designation],
        /// The rating change, when the game was rated.
        rating: Option<&'a GameChange>,
    },
}

/// How the sweep ended a game.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum End {
    /// `loser` did not move by the deadline.
    Forfeit {
        /// The side that ran out of time.
        loser: Color,
    },
    /// The carriers were not chosen within `timeout_secs` (`missing` had not chosen).
    Aborted {
        /// The designation timeout (seconds).
        timeout_secs: i64,
        /// The sides still to choose.
        missing: Vec<Color>,
    },
}

/// Words the scheduler's announcements (`discord::messages` supplies it).
pub trait Wording: Send + Sync {
    /// The text of `announcement`.
    fn announce(&self, announcement: &Announcement<'_>) -> String;
}

impl Scheduler {
    /// A scheduler over `db`, with time from `clock`, writing what `wording` words into the
    /// outbox as `notifier` plans it.
    pub fn new(
        db: Db,
        clock: Arc<dyn Clock>,
        notifier: Arc<dyn NoticePlanner>,
        config: SchedulerConfig,
        wording: Arc<dyn Wording>,
    ) -> Scheduler {
        Scheduler {
            db,
            clock,
            notifier,
            config,
            wording,
            waker: SchedulerWaker::default(),
            leagues: None,
        }
    }

    /// The same scheduler, also sweeping the leagues through `services` after the games
    /// ([`crate::Leagues::sweep`]: results, rounds, adjudications). Give it services that
    /// write the Discord layer's effects ([`crate::Services::with_effects`]), so that
    /// rounds and standings are posted.
    pub fn with_leagues(mut self, services: crate::Services) -> Scheduler {
        self.leagues = Some(services);
        self
    }

    /// The same scheduler, woken by `waker` (give the services a clone of it:
    /// [`crate::Services::with_scheduler_waker`]).
    pub fn with_waker(mut self, waker: SchedulerWaker) -> Scheduler {
        self.waker = waker;
        self
    }

    /// A waker of this scheduler.
    pub fn waker(&self) -> SchedulerWaker {
        self.waker.clone()
    }

    /// The configuration.
    pub fn config(&self) -> &SchedulerConfig {
        &self.config
    }

    /// Sweeps forever: one sweep, then a pause of the configured interval, cut short by
    /// [`SchedulerWaker::wake`]. Errors are logged and the next sweep tries again. Stops
    /// when `stop` becomes `true` or its sender is dropped.
    pub async fn run(self, mut stop: tokio::sync::watch::Receiver<bool>) {
        tracing::info!(interval = ?self.config.interval, "scheduler started");
        loop {
            match self.sweep().await {
                Ok(r) if r.examined > 0 || !r.expired.is_empty() => tracing::info!(
                    examined = r.examined,
                    expired = r.expired.len(),
                    aborted = r.aborted.len(),
                    forfeited = r.forfeited.len(),
                    nudged = r.nudged.len(),
                    "scheduler sweep"
                ),
                Ok(_) => {}
                Err(e) => tracing::error!(error = %e, "scheduler sweep failed"),
            }
            let stopped = tokio::select! {
                _ = tokio::time::sleep(self.config.interval) => false,
                _ = self.waker.notified() => false,
                // An error means the sender is gone: nobody can stop the task any more.
                changed = stop.changed() => changed.is_err(),
            };
            if stopped || *stop.borrow() {
                tracing::info!("scheduler stopped");
                return;
            }
        }
    }

    /// Spawns [`Scheduler::run`] on the current runtime; send `true` on the returned
    /// sender to stop it.
    pub fn spawn(
        self,
    ) -> (
        tokio::sync::watch::Sender<bool>,
        tokio::task::JoinHandle<()>,
    ) {
        let (tx, rx) = tokio::sync::watch::channel(false);
        (tx, tokio::spawn(self.run(rx)))
    }

    /// One sweep at the clock's now: expires challenges, then decides every due game
    /// (batches of [`SchedulerConfig::batch`] per write transaction), each batch writing its
    /// notices into the outbox before it commits.
    ///
    /// # Errors
    /// [`StorageError`] on a database failure (decisions of committed batches stand).
    pub async fn sweep(&self) -> Result<SweepReport, StorageError> {
        let now = self.clock.now();
        let mut report = SweepReport::default();
        // Vacations whose days ran out end (the deadlines already count their
        // end: nothing else changes).
        // Each of the player's games in play says so in its thread, in the same transaction.
        {
            let mut tx = self.db.begin_write().await?;
            let ended = kaboom_store::comforts::end_due_vacations(&mut tx, now).await?;
            let mut notices = Vec::new();
            for v in &ended {
                for row in kaboom_store::comforts::active_games_tx(&mut tx, v.user_id).await? {
                    let text = self.wording.announce(&Announcement::VacationOver {
                        row: &row,
                        vacation: v,
                    });
                    notices.push(Notice::VacationOver {
                        game_id: row.id,
                        text,
                    });
                }
            }
            self.write_notices(&mut tx, &notices).await?;
            tx.commit().await?;
            self.committed(&notices);
            for v in &ended {
                tracing::info!(user = %v.user_id, "vacation ended: its days ran out");
            }
            report.vacations_ended = ended.len();
        }
        loop {
            let mut tx = self.db.begin_write().await?;
            let ids = schedule::expiring_challenges(
                &mut tx,
                now - self.config.challenge_ttl_secs,
                self.config.batch,
            )
            .await?;
            let mut notices = Vec::new();
            for &id in &ids {
                if let Some(n) = self.expire(&mut tx, id).await? {
                    report.expired.push(id);
                    notices.push(n);
                }
            }
            self.write_notices(&mut tx, &notices).await?;
            tx.commit().await?;
            self.committed(&notices);
            if (ids.len() as i64) < self.config.batch {
                break;
            }
        }
        // Server settings are read once per server and sweep.
        let mut guilds: HashMap<GuildId, GuildSettings> = HashMap::new();
        loop {
            let mut tx = self.db.begin_write().await?;
            let (read, notices) = self
                .decide_batch(&mut tx, now, &mut guilds, &mut report)
                .await?;
            self.write_notices(&mut tx, &notices).await?;
            tx.commit().await?;
            self.committed(&notices);
            if (read as i64) < self.config.batch {
                break;
            }
        }
        // Leagues last: the games this sweep ended count for them at once.
        if let Some(services) = &self.leagues {
            match services.leagues().sweep().await {
                Ok(leagues) => report.leagues = leagues,
                Err(e) => tracing::error!(error = %e, "league sweep failed"),
            }
            // The servers' daily puzzles, on the first sweep of a UTC day.
            match services.puzzles().sweep_daily().await {
                Ok(posted) => report.daily_puzzles = posted,
                Err(e) => tracing::error!(error = %e, "daily puzzle sweep failed"),
            }
        }
        Ok(report)
    }

    /// The settings of server `guild` (the configured defaults outside servers and for
    /// servers that set none), read at most once per sweep.
    async fn guild_settings(
        &self,
        tx: &mut Tx,
        cache: &mut HashMap<GuildId, GuildSettings>,
        guild: Option<GuildId>,
    ) -> Result<GuildSettings, StorageError> {
        let Some(g) = guild else {
            return Ok(self.config.defaults.clone());
        };
        if let Some(s) = cache.get(&g) {
            return Ok(s.clone());
        }
        let s = settings::guild(&mut *tx, g)
            .await?
            .unwrap_or_else(|| self.config.defaults.clone());
        cache.insert(g, s.clone());
        Ok(s)
    }

    /// Decides one batch of due games inside `tx` with set-based statements: one query
    /// reads the batch (rows, turn starts, the mover's settings), the nudges are claimed in
    /// one insert, the endings (forfeits and aborts, decided by replaying each game in
    /// memory) in one update, the next due times in one update; only the carriers revealed
    /// at the end of Beirut and Nuke games are read per game. Returns how many games it
    /// read and the notices to write into the outbox before the commit.
    async fn decide_batch(
        &self,
        tx: &mut Tx,
        now: i64,
        guilds: &mut HashMap<GuildId, GuildSettings>,
        report: &mut SweepReport,
    ) -> Result<(usize, Vec<Notice>), StorageError> {
        let due = schedule::due_batch(tx, now, self.config.batch).await?;
        let read = due.len();
        let mut next: Vec<(GameId, Option<i64>)> = Vec::with_capacity(read);
        let mut claims = Vec::new();
        let mut notices = Vec::new();
        // A game that does not replay must not stop the sweep for all others: logged, and
        // looked at again a day later.
        let damaged = |id: GameId, e: &str, next: &mut Vec<(GameId, Option<i64>)>| {
            tracing::error!(game_id = %id, error = %e, "scheduler skips a damaged game");
            next.push((id, Some(now + 86_400)));
        };
        let mut ending = Vec::new();
        for (id, game) in due {
            report.examined += 1;
            let g = match game {
                Ok(g) => g,
                Err(StorageError::Corrupt(e)) => {
                    damaged(id, &e, &mut next);
                    continue;
                }
                Err(e) => return Err(e),
            };
            let settings = self.guild_settings(tx, guilds, g.row.guild_id).await?;
            let facts = Facts {
                state: g.row.state,
                created_at: g.row.created_at,
                turn_started_at: g.turn_started_at.unwrap_or(g.row.created_at),
                deadline_at: g.row.deadline_at,
            };
            let p = plan::plan(&facts, now, &settings, self.config.designation_timeout_secs);
            let at = p.next.map(|t| t.max(now + 1));
            match p.due {
                Due::Nothing => next.push((id, at)),
                Due::Forfeit => ending.push((g, true)),
                Due::Abort => ending.push((g, false)),
                Due::Nudge(nudge) => {
                    // No reminders while the player to move is on vacation;
                    // looked at again when it ends.
                    let mover = g.row.player(to_move(g.row.ply));
                    match kaboom_store::comforts::vacation_until_tx(tx, mover, now).await? {
                        Some(until) => next.push((id, Some(at.map_or(until, |a| a.min(until))))),
                        None => {
                            next.push((id, at));
                            claims.push((g, nudge));
                        }
                    }
                }
            }
        }
        // Forfeits and aborts replay the game: its actions for all of them in one query,
        // then every ending is decided in memory and written in one statement.
        let ids: Vec<GameId> = ending.iter().map(|(g, _)| g.row.id).collect();
        let mut actions = schedule::actions_of(tx, &ids).await?;
        let mut decided = Vec::new();
        for (g, forfeit) in ending {
            let id = g.row.id;
            let acts = actions.remove(&id).unwrap_or_default();
            match self.decide_end(&g.row, acts, forfeit) {
                Ok(Some(d)) => decided.push((g.row, forfeit, d)),
                // Already over on the board (should not happen): never looked at again.
                Ok(None) => next.push((id, None)),
                Err(e) => damaged(id, &e, &mut next),
            }
        }
        let endings: Vec<schedule::Ending> = decided.iter().map(|(_, _, d)| d.0.clone()).collect();
        let written = schedule::finish_many(tx, &endings, now).await?;
        let mut ended = Vec::new();
        let mut announcements = Vec::new();
        for (row, forfeit, (ending, end, game)) in decided {
            let id = row.id;
            if !written.contains(&id) {
                // Someone else's action came first (not possible inside this write
                // transaction, but the expected-ply check decides).
                next.push((id, None));
                continue;
            }
            // The finish trigger already cleared next_due_at.
            if forfeit {
                report.forfeited.push(id);
            } else {
                report.aborted.push(id);
            }
            ended.push(id);
            let rating = crate::ratings::rate_finished_game(tx, &row, &ending.outcome, now).await?;
            announcements.push(
                self.ended_notice(tx, &row, &game, ending.outcome, end, rating.as_ref())
                    .await?,
            );
        }
        // A game that ended takes its standing draw offer with it.
        schedule::clear_draw_offers(tx, &ended).await?;
        notices.extend(announcements);
        let keys: Vec<schedule::NudgeClaim> = claims
            .iter()
            .map(|(g, nudge)| schedule::NudgeClaim {
                game_id: g.row.id,
                ply: g.row.ply,
                threshold: nudge.threshold(),
                user: g.row.player(to_move(g.row.ply)),
            })
            .collect();
        let claimed = schedule::claim_nudges(tx, &keys, now).await?;
        for ((g, nudge), key) in claims.iter().zip(keys) {
            if !claimed.contains(&key.game_id) {
                continue;
            }
            report.nudged.push((key.game_id, key.threshold));
            if g.mover.nudges {
                notices.push(self.nudge_notice(&g.row, key.user, g.mover.via, nudge));
            }
        }
        schedule::set_next_due_many(tx, &next).await?;
        Ok((read, notices))
    }

    /// Writes the outbox entries of `notices` inside the deciding transaction `tx` (one
    /// multi-row insert).
    async fn write_notices(&self, tx: &mut Tx, notices: &[Notice]) -> Result<(), StorageError> {
        let entries: Vec<_> = notices.iter().flat_map(|n| self.notifier.plan(n)).collect();
        outbox::insert(tx, &entries, crate::outbox::unix_now()).await
    }

    /// After the commit of `notices`: the planner wakes their deliverer.
    fn committed(&self, notices: &[Notice]) {
        if !notices.is_empty() {
            self.notifier.committed();
        }
    }

    async fn expire(&self, tx: &mut Tx, id: i64) -> Result<Option<Notice>, StorageError> {
        let ch = match challenges::get(&mut *tx, id).await {
            Ok(Some(ch)) => ch,
            Ok(None) => return Ok(None),
            // A row that does not read costs only itself: expired, not shown.
            Err(
                e
                @ (StorageError::Corrupt(_) | StorageError::Sql(sqlx::Error::ColumnDecode { .. })),
            ) => {
                tracing::error!(challenge_id = id, error = %e, "a challenge row does not read; expired without a notice");
                schedule::expire_challenge(tx, id).await?;
                return Ok(None);
            }
            Err(e) => return Err(e),
        };
        if !schedule::expire_challenge(tx, id).await? {
            return Ok(None);
        }
        Ok(Some(Notice::ChallengeExpired {
            challenge_id: id,
            channel_id: ch.spec.channel_id,
            message_id: ch.message_id,
            text: self.wording.announce(&Announcement::ChallengeExpired {
                challenger_name: &ch.spec.challenger_name,
                ttl_secs: self.config.challenge_ttl_secs,
            }),
        }))
    }

    fn nudge_notice(
        &self,
        row: &GameRow,
        user: UserId,
        via: settings::NudgeVia,
        nudge: &Nudge,
    ) -> Notice {
        let channel = row.thread_id.unwrap_or(row.channel_id);
        Notice::Nudge {
            game_id: row.id,
            ply: row.ply,
            user_id: user,
            via,
            channel_id: channel,
            text: self.wording.announce(&Announcement::Nudge {
                row,
                to_move: to_move(row.ply),
                nudge,
                channel,
            }),
        }
    }

    /// Decides the end of a game (its stored `actions` given) on time (`forfeit`) or by
    /// abort (designation timeout), in memory: what to write and how it ended.
    /// `Ok(None)` when the board already ended it.
    ///
    /// # Errors
    /// The game does not replay (a damaged record), as text.
    fn decide_end(
        &self,
        row: &GameRow,
        actions: Vec<String>,
        forfeit: bool,
    ) -> Result<Option<(schedule::Ending, End, AnyGame)>, String> {
        let mut game = AnyGame::from_record(&games::record(row, actions))
            .map_err(|e| format!("game #{}: {e}", row.id))?;
        if game.status().is_finished() {
            return Ok(None);
        }
        let (outcome, end) = if forfeit {
            let loser = game.turn();
            let winner = loser.other();
            let o = if game.can_win(winner) {
                Outcome::win(winner, EndReason::TimeForfeit)
            } else {
                Outcome::draw(EndReason::TimeForfeit)
            };
            (o, End::Forfeit { loser })
        } else {
            let end = End::Aborted {
                timeout_secs: self.config.designation_timeout_secs,
                missing: game.awaiting_designation(),
            };
            (Outcome::draw(EndReason::Aborted), end)
        };
        game.declare(outcome);
        let ending = schedule::Ending {
            game_id: row.id,
            expected_ply: row.ply,
            state_fen: game.fen(Viewer::Full),
            outcome,
        };
        Ok(Some((ending, end, game)))
    }

    /// The announcement of a game the sweep ended (written in `tx`), for Beirut and Nuke
    /// with the carriers revealed with the result (BE-9).
    async fn ended_notice(
        &self,
        tx: &mut Tx,
        row: &GameRow,
        game: &AnyGame,
        outcome: Outcome,
        end: End,
        rating: Option<&GameChange>,
    ) -> Result<Notice, StorageError> {
        let reveal = if row.variant.has_designation() {
            kaboom_store::carriers::all(&mut *tx, row.id).await?
        } else {
            Vec::new()
        };
        let text = self.wording.announce(&Announcement::GameEnded {
            row,
            game,
            outcome: &outcome,
            end: &end,
            reveal: &reveal,
            rating,
        });
        tracing::info!(game_id = %row.id, result = outcome.result(), reason = %outcome.reason, "scheduler ended a game");
        Ok(Notice::GameEnded {
            game_id: row.id,
            text,
        })
    }
}
