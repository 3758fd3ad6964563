//! The correspondence comforts: conditional moves, vacations, takebacks, private
//! notes and rematches. Every change is one write transaction with the expected-ply check
//! (or, for vacations, a deadline check that the scheduler's forfeit shares) and its outbox
//! entries, like every other change of a game.
//!
//! - **Conditional moves** ("premoves", as lichess's correspondence conditional premoves
//!   and chess.com's conditional moves): a line alternates the opponent's action and the
//!   owner's reply. It is checked when registered, as the owner sees the game, and stored
//!   in canonical form (C-5). When the opponent's action matches a line's next action
//!   exactly, its reply is played by the bot in the same transaction as that action
//!   ([`Services::after_ply_in_tx`]); lines that no longer match are dropped and their owner
//!   is told privately (a DM through the outbox); a reply that has become illegal is
//!   dropped, never played. Lines are private: never in a board, a PGN, or an opponent's
//!   view. In Beirut a line cannot name an opponent's Boom (their carriers are hidden from
//!   the owner: a Boom ends every line, as any other unforeseen action does), and with the
//!   Dead Man's Switch it ends at the owner's first capture (what that capture sets off
//!   depends on hidden carriers); see `docs/notation/beirut.md`, project ruling BOT-BEIRUT-1.
//! - **Vacations**: a yearly allowance of days (14 unless the server sets another), taken
//!   with [`Services::start_vacation`]: the deadlines of the player's games stand still
//!   (pushed back by the vacation's length, pulled forward again when it ends early), no
//!   nudges, opponents told the return date; the scheduler ends it when its days run out.
//! - **Takebacks** in casual games only ([`Services::propose_takeback`]); never across a
//!   Beirut action that revealed a hidden choice (BOT-BEIRUT-2).
//! - **Notes**: one private text per player and game.
//! - **Rematch**: a challenge with the same settings and the colours swapped.

use std::collections::BTreeMap;

use kaboom_rules::{AnyGame, Color, Variant, Viewer};

use super::{Comforts, Core, Played, ServiceError, Snapshot};
use crate::outbox::Committed;
use kaboom_domain::ids::{GameId, GuildId, UserId};
use kaboom_store::Tx;
use kaboom_store::challenges::{self, Challenge, ColorChoice, NewChallenge};
use kaboom_store::comforts::{self as store, Line, TakebackOffer, Vacation};
use kaboom_store::games::{self, GameRow, GameState};

/// The most actions one line may hold (the opponent's and the owner's together).
pub const MAX_LINE_ACTIONS: usize = 20;
/// The most lines a player may keep in one game.
pub const MAX_LINES: usize = 10;
/// The most characters of a line as typed (Discord's string options allow 6,000; a line
/// of [`MAX_LINE_ACTIONS`] actions fits easily).
pub const MAX_LINE_CHARS: usize = 400;
/// The default yearly vacation allowance in days (a server may set another).
pub const DEFAULT_VACATION_DAYS: u32 = 14;
/// The most characters of a player's note in one game.
pub const MAX_NOTE_CHARS: usize = 1000;
/// Seconds in a day.
const DAY: i64 = 86_400;

pub use super::comfort_types::{ComfortChange, ComfortRefusal};

fn refuse<T>(r: ComfortRefusal) -> Result<T, ServiceError> {
    Err(r.into())
}

/// What a `/premove line` did.
#[derive(Clone, Debug)]
pub struct LineAdded {
    /// The stored line (canonical texts, the opponent's action first).
    pub line: Vec<String>,
    /// On the player's own turn: their first action, played at once.
    pub played: Option<Played>,
}

/// What `/vacation start` did.
#[derive(Clone, Debug)]
pub struct VacationStarted {
    /// The vacation.
    pub vacation: Vacation,
    /// Games whose clock stopped.
    pub stopped: Vec<GameId>,
    /// Games whose time had already run out (the scheduler ends them on time).
    pub too_late: Vec<GameId>,
    /// Days left this year after this one.
    pub days_left: u32,
}

/// What a takeback answer did.
#[derive(Clone, Debug)]
pub enum TakebackResult {
    /// Proposed; the opponent is asked.
    Proposed {
        /// The game.
        snap: Snapshot,
        /// How many plies.
        undo: i64,
    },
    /// Accepted: the game went back.
    Accepted {
        /// The game after it.
        snap: Snapshot,
    },
    /// Declined.
    Declined {
        /// The game.
        snap: Snapshot,
    },
}

/// Splits a typed line into action texts: whitespace or commas separate actions, move
/// numbers (`1.`, `12...`) are skipped, and a Nuke transfer (`c1>d2`) joins the action
/// after it (`c1>d2 Nxe5*`, NU-4 and docs/rules/RULINGS.md section 6).
pub fn split_line(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut pending: Option<String> = None;
    for token in text.split([' ', ',', ';', '\t', '\n']) {
        let token = token.trim();
        if token.is_empty()
            || (token.ends_with('.')
                && token
                    .trim_end_matches('.')
                    .chars()
                    .all(|c| c.is_ascii_digit()))
        {
            continue;
        }
        let is_transfer = token.ends_with(|c: char| c.is_ascii_digit())
            && token.contains('>')
            && token.split('>').count() == 2;
        match pending.take() {
            Some(transfer) => out.push(format!("{transfer} {token}")),
            None if is_transfer => pending = Some(token.to_string()),
            None => out.push(token.to_string()),
        }
    }
    if let Some(t) = pending {
        out.push(t);
    }
    out
}

/// Checks a line for `owner` from `game` (whose side to move starts it), as the owner sees
/// the game; returns the canonical texts and the game after them.
///
/// # Errors
/// The [`ComfortRefusal`] saying which action fails and why. An opponent's action that
/// fails is never explained with the rules library's words (in Beirut they could name the
/// opponent's hidden carriers).
pub fn check_line(
    game: &AnyGame,
    owner: Color,
    actions: &[String],
) -> Result<(Vec<String>, AnyGame), ComfortRefusal> {
    let beirut = game.variant() == Variant::Beirut;
    let dms = beirut && game.options().dead_mans_switch;
    let mut g = game.clone();
    let mut canon = Vec::with_capacity(actions.len());
    for (index, typed) in actions.iter().enumerate() {
        if g.status().is_finished() {
            return Err(ComfortRefusal::LineBeyondEnd { index });
        }
        let mover = g.turn();
        if mover == owner {
            let ply = g
                .play(Some(owner), typed)
                .map_err(|e| ComfortRefusal::OwnActionIllegal {
                    index,
                    typed: typed.clone(),
                    reason: e.to_string(),
                })?;
            if dms && ply.san.contains('x') && index + 1 < actions.len() {
                return Err(ComfortRefusal::AfterCaptureDms);
            }
            canon.push(ply.san);
        } else {
            if beirut && typed.trim().to_ascii_lowercase().starts_with("boom") {
                return Err(ComfortRefusal::OpponentBoom);
            }
            let ply =
                g.play(Some(mover), typed)
                    .map_err(|_| ComfortRefusal::OpponentActionIllegal {
                        index,
                        typed: typed.clone(),
                    })?;
            if beirut && ply.san.starts_with("Boom") {
                return Err(ComfortRefusal::OpponentBoom);
            }
            canon.push(ply.san);
        }
    }
    Ok((canon, g))
}

/// The first day (00:00 UTC, Unix seconds) of the calendar year of `now` (Unix
/// seconds); `now` itself when it lies outside the calendar `time` covers.
pub fn year_start(now: i64) -> i64 {
    time::OffsetDateTime::from_unix_timestamp(now)
        .ok()
        .and_then(|at| time::Date::from_calendar_date(at.year(), time::Month::January, 1).ok())
        .map_or(now, |first| first.midnight().assume_utc().unix_timestamp())
}

/// Whole days (rounded up) a vacation took or takes.
pub fn vacation_days(v: &Vacation) -> u32 {
    let end = v.ended_at.unwrap_or(v.until_at).max(v.started_at);
    u32::try_from((end - v.started_at + DAY - 1) / DAY).unwrap_or(u32::MAX)
}

impl Core {
    /// The deadline of `to_move` in a game with `days` per move, starting now: the time per
    /// move, plus the rest of `to_move`'s running vacation (their clock stands
    /// still until they are back).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub(crate) async fn deadline_for(
        &self,
        tx: &mut Tx,
        days: Option<u32>,
        to_move: UserId,
    ) -> Result<Option<i64>, ServiceError> {
        let Some(d) = days else {
            return Ok(None);
        };
        let now = self.clock.now();
        let mut deadline = now + i64::from(d) * DAY;
        if let Some(v) = store::running_vacation(tx, to_move).await? {
            deadline += kaboom_domain::deadline::vacation_pause(now, v.started_at, v.until_at);
        }
        Ok(Some(deadline))
    }
}

impl Comforts<'_> {
    async fn game_for_comfort(
        self,
        id: GameId,
        user: UserId,
        what: &'static str,
    ) -> Result<(Snapshot, Color), ServiceError> {
        let snap = self.core.load(id).await?;
        let Some(color) = snap.row.color_of(user) else {
            return refuse(ComfortRefusal::NotAPlayer { what });
        };
        Ok((snap, color))
    }

    // -----------------------------------------------------------------------------------
    // Conditional moves

    /// `user` registers the conditional line `text` in game `id`. On the opponent's turn the
    /// line starts with the opponent's action; on the user's own turn it starts with their
    /// own move, which is played at once (as chess.com's conditional moves do), in the same
    /// transaction that stores the rest.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when the user does not play, the game is not in play, or
    /// the line does not check ([`ComfortRefusal`]); [`ServiceError::MovedOn`] when the
    /// game moved on while it was checked.
    pub async fn add_line(
        self,
        id: GameId,
        user: UserId,
        text: &str,
    ) -> Result<LineAdded, ServiceError> {
        let (snap, color) = self
            .game_for_comfort(id, user, "set conditional moves")
            .await?;
        if snap.row.state != GameState::Active || snap.outcome().is_some() {
            return refuse(ComfortRefusal::NotInPlay);
        }
        self.core.refuse_if_overdue(&snap.row, snap.game.turn())?;
        let own_turn = snap.game.turn() == color;
        if text.chars().count() > MAX_LINE_CHARS {
            return refuse(ComfortRefusal::LineTooLong);
        }
        let actions = split_line(text);
        if actions.len() > MAX_LINE_ACTIONS {
            return refuse(ComfortRefusal::LineTooLong);
        }
        if actions.len() < if own_turn { 3 } else { 2 } {
            return refuse(ComfortRefusal::LineTooShort { own_turn });
        }
        let game = snap.game.clone();
        let (canon, _) = self
            .core
            .cpu
            .run(move || check_line(&game, color, &actions))
            .await?
            .map_err(ServiceError::from)?;
        let mut tx = self.core.db.begin_write().await?;
        if store::lines_tx(&mut tx, id, color).await?.len() >= MAX_LINES {
            return refuse(ComfortRefusal::TooManyLines);
        }
        let now = self.core.clock.now();
        if !own_turn {
            let still = games::get(&mut tx, id).await?.map(|r| r.ply);
            if still != Some(snap.row.ply) {
                return Err(ServiceError::MovedOn {
                    game_id: id,
                    ply: still.unwrap_or(snap.row.ply),
                });
            }
            store::add_line(&mut tx, id, user, color, snap.row.ply, &canon, now).await?;
            tx.commit().await?;
            tracing::debug!(game_id = %id, "conditional line stored");
            return Ok(LineAdded {
                line: canon,
                played: None,
            });
        }
        let mut game = snap.game.clone();
        let ply = game
            .play(Some(color), &canon[0])
            .map_err(|e| super::Refusal::IllegalAction {
                reason: e.to_string(),
                alternatives: None,
            })?;
        let Some(played) = self
            .core
            .commit_ply(&mut tx, &snap.row, color, user, game, ply, false)
            .await?
        else {
            return Err(ServiceError::MovedOn {
                game_id: id,
                ply: snap.row.ply + 1,
            });
        };
        let rest = canon[1..].to_vec();
        self.core
            .after_ply_in_tx(&mut tx, &played, Some((user, color, rest.clone())))
            .await?;
        tx.commit().await?;
        tracing::info!(game_id = %id, ply = played.snap.row.ply, "action played with a conditional line");
        Ok(LineAdded {
            line: rest,
            played: Some(played),
        })
    }

    /// `user`'s conditional lines in game `id` (theirs only), oldest first.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when they do not play it.
    pub async fn lines(self, id: GameId, user: UserId) -> Result<Vec<Line>, ServiceError> {
        let (_, color) = self
            .game_for_comfort(id, user, "see conditional moves")
            .await?;
        let mut tx = self.core.db.begin_write().await?;
        let lines = store::lines_tx(&mut tx, id, color).await?;
        tx.commit().await?;
        Ok(lines)
    }

    /// Deletes `user`'s conditional lines in game `id`; returns how many there were.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when they do not play it.
    pub async fn clear_lines(self, id: GameId, user: UserId) -> Result<u64, ServiceError> {
        let (_, color) = self
            .game_for_comfort(id, user, "clear conditional moves")
            .await?;
        let mut tx = self.core.db.begin_write().await?;
        let n = store::clear_lines(&mut tx, id, Some(color)).await?;
        tx.commit().await?;
        Ok(n)
    }

    /// Autocomplete for `/premove line`: the line typed so far, completed with the legal
    /// actions (as `user` sees the game) of the side to move after its complete actions;
    /// at most 25, each value at most 100 characters (Discord's limits for autocomplete
    /// choices, <https://discord.com/developers/docs/interactions/application-commands#application-command-object-application-command-option-choice-structure>).
    ///
    /// # Errors
    /// [`ServiceError`] when the game cannot be loaded.
    pub async fn suggest_line(
        self,
        id: GameId,
        user: UserId,
        typed: &str,
    ) -> Result<Vec<super::Suggestion>, ServiceError> {
        let snap = self.core.load(id).await?;
        let Some(color) = snap.row.color_of(user) else {
            return Ok(Vec::new());
        };
        if snap.row.state != GameState::Active || snap.outcome().is_some() {
            return Ok(Vec::new());
        }
        let typed = typed.to_string();
        let game = snap.game;
        self.core
            .cpu
            .run(move || {
                let ends_with_space = typed.ends_with([' ', ',']);
                let mut actions = split_line(&typed);
                let partial = if ends_with_space || actions.is_empty() {
                    String::new()
                } else {
                    actions.pop().unwrap_or_default()
                };
                let Ok((canon, after)) = check_line(&game, color, &actions) else {
                    return Vec::new();
                };
                // With the Dead Man's Switch a line ends at the owner's capture
                // (BOT-BEIRUT-1): the position after it may hold a blast the owner cannot
                // know of, which suggestions must not show.
                let dms = after.variant() == Variant::Beirut && after.options().dead_mans_switch;
                if dms && after.turn() != color && canon.last().is_some_and(|a| a.contains('x')) {
                    return Vec::new();
                }
                let prefix = if canon.is_empty() {
                    String::new()
                } else {
                    format!("{} ", canon.join(" "))
                };
                // The opponent's possible actions as the owner may know them (no Beirut
                // carriers of theirs), the owner's own with their carriers.
                super::suggest::suggestions(&after, Viewer::player(color), &partial, 25)
                    .into_iter()
                    .filter(|s| {
                        !(after.variant() == Variant::Beirut
                            && after.turn() != color
                            && s.value.starts_with("Boom"))
                    })
                    .filter_map(|s| {
                        let value = format!("{prefix}{}", s.value);
                        (value.chars().count() <= 100).then(|| super::Suggestion {
                            label: crate::suggest::clip(format!("{prefix}{}", s.label)),
                            value,
                        })
                    })
                    .collect()
            })
            .await
    }
}

impl Core {
    /// Inside the transaction of `first` (an action just written): stores `store` (a line
    /// registered with it on the owner's turn), then lets the conditional lines answer:
    /// while the player to move has a line whose next action is the one just played, its
    /// reply is played (a board "played by conditional move"); lines that no longer match
    /// are dropped and their owners told privately. Ends when no line answers or the game
    /// is over (then every line of the game is dropped).
    pub(crate) async fn after_ply_in_tx(
        &self,
        tx: &mut Tx,
        first: &Played,
        store_line: Option<(UserId, Color, Vec<String>)>,
    ) -> Result<(), ServiceError> {
        let id = first.snap.row.id;
        let now = self.clock.now();
        // Whether the game may have lines now. This loop only ever drops lines: once an
        // action was written with none standing ([`Played::conditional_lines`]), and none
        // was stored with it, there is nothing to read or clear.
        let mut lines_may_stand = first.conditional_lines;
        if let Some((user, color, actions)) = store_line
            && !actions.is_empty()
            && first.snap.outcome().is_none()
        {
            store::add_line(tx, id, user, color, first.snap.row.ply, &actions, now).await?;
            lines_may_stand = true;
        }
        let mut notices: BTreeMap<UserId, Vec<String>> = BTreeMap::new();
        let mut last = first.clone();
        // Each round consumes two actions of some line: bounded by the lines' lengths.
        for _ in 0..(MAX_LINES * MAX_LINE_ACTIONS) {
            if !lines_may_stand {
                break;
            }
            if last.snap.outcome().is_some() {
                store::clear_lines(tx, id, None).await?;
                break;
            }
            let owner = last.ply.mover.other();
            let at = last.snap.row.ply; // the action just played is ply `at`
            let lines = store::lines_tx(tx, id, owner).await?;
            if lines.is_empty() {
                break;
            }
            let mut matched = Vec::new();
            for line in lines {
                if line.from_ply == at - 1 && line.actions.first() == Some(&last.ply.san) {
                    matched.push(line);
                } else {
                    store::drop_line(tx, line.id).await?;
                    notices.entry(line.user_id).or_default().push(format!(
                        "`{}`: your opponent played {}.",
                        line.actions.join(" "),
                        last.ply.display
                    ));
                }
            }
            let mut reply_played: Option<(String, Played)> = None;
            while reply_played.is_none() {
                let Some(reply) = matched.iter().find_map(|l| l.actions.get(1).cloned()) else {
                    break;
                };
                let mut game = last.snap.game.clone();
                match game.play(Some(owner), &reply) {
                    Ok(ply) => {
                        let user = last.snap.row.player(owner);
                        let Some(p) = self
                            .commit_ply(tx, &last.snap.row, owner, user, game, ply, true)
                            .await?
                        else {
                            return Err(ServiceError::Corrupt(format!(
                                "game #{id} moved inside its own transaction"
                            )));
                        };
                        reply_played = Some((reply, p));
                    }
                    Err(_) => {
                        for line in matched.iter().filter(|l| l.actions.get(1) == Some(&reply)) {
                            store::drop_line(tx, line.id).await?;
                            notices.entry(line.user_id).or_default().push(format!(
                                "`{}`: your reply {reply} is no longer legal, so it was not played.",
                                line.actions.join(" ")
                            ));
                        }
                        matched.retain(|l| l.actions.get(1) != Some(&reply));
                    }
                }
            }
            let Some((reply, played)) = reply_played else {
                // Matched lines without a reply end here.
                for line in &matched {
                    store::drop_line(tx, line.id).await?;
                }
                break;
            };
            for line in matched {
                if line.actions.get(1) == Some(&reply) {
                    let rest = &line.actions[2..];
                    if rest.is_empty() {
                        store::drop_line(tx, line.id).await?;
                    } else {
                        store::advance_line(tx, line.id, played.snap.row.ply, rest).await?;
                    }
                } else {
                    store::drop_line(tx, line.id).await?;
                    if line.actions.len() > 1 {
                        notices.entry(line.user_id).or_default().push(format!(
                            "`{}`: an older line's reply {reply} was played instead.",
                            line.actions.join(" ")
                        ));
                    }
                }
            }
            tracing::info!(game_id = %id, ply = played.snap.row.ply, action = %played.ply.san, "conditional move played");
            lines_may_stand = played.conditional_lines;
            last = played;
        }
        if !notices.is_empty() {
            let change = ComfortChange::LinesDropped {
                game: id,
                notices: notices.into_iter().collect(),
            };
            self.enqueue(tx, Committed::Comfort(&change)).await?;
        }
        Ok(())
    }
}

impl Comforts<'_> {
    // -----------------------------------------------------------------------------------
    // Vacations

    /// The yearly vacation allowance in `guild` (the default outside servers).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn vacation_allowance(self, guild: Option<GuildId>) -> Result<u32, ServiceError> {
        let Some(g) = guild else {
            return Ok(DEFAULT_VACATION_DAYS);
        };
        let mut tx = self.core.db.begin_write().await?;
        let days = store::guild_allowance(&mut tx, g).await?;
        tx.commit().await?;
        Ok(days.unwrap_or(DEFAULT_VACATION_DAYS))
    }

    /// Sets `guild`'s yearly vacation allowance (1-365 days).
    ///
    /// # Errors
    /// [`ServiceError::Refused`] outside 1-365.
    pub async fn set_vacation_allowance(
        self,
        guild: GuildId,
        days: u32,
    ) -> Result<(), ServiceError> {
        if !(1..=365).contains(&days) {
            return Err(super::Refusal::BadSetting {
                reason: format!("{days} days is not an allowance: give 1 to 365."),
            }
            .into());
        }
        Ok(store::put_guild_allowance(&self.core.db, guild, days, self.core.clock.now()).await?)
    }

    /// Days of `user`'s allowance left this calendar year (UTC) in `guild`'s allowance.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn vacation_days_left(
        self,
        user: UserId,
        guild: Option<GuildId>,
    ) -> Result<(u32, u32, Option<Vacation>), ServiceError> {
        let allowance = self.vacation_allowance(guild).await?;
        let now = self.core.clock.now();
        let mut tx = self.core.db.begin_write().await?;
        let taken: u32 = store::vacations_since(&mut tx, user, year_start(now))
            .await?
            .iter()
            .map(vacation_days)
            .sum();
        let running = store::running_vacation(&mut tx, user)
            .await?
            .filter(|v| v.until_at > now);
        tx.commit().await?;
        Ok((allowance.saturating_sub(taken), allowance, running))
    }

    /// `user` starts a vacation of `days` days (default: all days left): in every game of
    /// theirs where they are to move, the deadline moves back by the vacation's length, in
    /// one transaction that checks each game's ply and that its deadline has not passed (a
    /// game whose time already ran out is the scheduler's forfeit: exactly one of the two
    /// wins); the opponents are told when they are back.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when a vacation runs, or the days are not left.
    pub async fn start_vacation(
        self,
        user: UserId,
        name: &str,
        guild: Option<GuildId>,
        days: Option<u32>,
    ) -> Result<VacationStarted, ServiceError> {
        let (left, allowance, running) = self.vacation_days_left(user, guild).await?;
        if let Some(v) = running {
            return refuse(ComfortRefusal::VacationRunning { until: v.until_at });
        }
        let days = days.unwrap_or(left);
        if days == 0 || days > left {
            return refuse(ComfortRefusal::VacationDays {
                asked: days,
                left,
                allowance,
            });
        }
        let now = self.core.clock.now();
        let until = now + i64::from(days) * DAY;
        let mut tx = self.core.db.begin_write().await?;
        // A vacation whose end passed but which the scheduler has not closed yet: closed now.
        if let Some(v) = store::running_vacation(&mut tx, user).await? {
            store::end_vacation(&mut tx, v.id, v.until_at.min(now)).await?;
        }
        let vid = store::start_vacation(&mut tx, user, name, now, until).await?;
        let games = in_play(&mut tx, user).await?;
        let mut stopped = Vec::new();
        let mut too_late = Vec::new();
        for g in &games {
            let to_move = to_move_of(g);
            if g.player(to_move) != user || g.deadline_at.is_none() {
                continue;
            }
            if store::shift_deadline(&mut tx, g.id, g.ply, until - now, now).await? {
                stopped.push(g.id);
            } else {
                too_late.push(g.id);
            }
        }
        let vacation = Vacation {
            id: vid,
            user_id: user,
            name: name.to_string(),
            started_at: now,
            until_at: until,
            ended_at: None,
        };
        let change = ComfortChange::VacationStarted {
            vacation: vacation.clone(),
            games: games.clone(),
        };
        self.core
            .enqueue(&mut tx, Committed::Comfort(&change))
            .await?;
        tx.commit().await?;
        if !too_late.is_empty() {
            self.core.scheduler_waker.wake();
        }
        tracing::info!(user = %user, days, "vacation started");
        Ok(VacationStarted {
            vacation,
            stopped,
            too_late,
            days_left: left - days,
        })
    }

    /// `user` ends their vacation early: the deadlines of their games to move come forward
    /// by the days not taken; the opponents are told.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when no vacation runs.
    pub async fn end_vacation(self, user: UserId) -> Result<Vacation, ServiceError> {
        let now = self.core.clock.now();
        let mut tx = self.core.db.begin_write().await?;
        let Some(mut v) = store::running_vacation(&mut tx, user)
            .await?
            .filter(|v| v.until_at > now)
        else {
            return refuse(ComfortRefusal::NoVacation);
        };
        if !store::end_vacation(&mut tx, v.id, now).await? {
            return refuse(ComfortRefusal::NoVacation);
        }
        v.ended_at = Some(now);
        let games = in_play(&mut tx, user).await?;
        for g in &games {
            if g.player(to_move_of(g)) == user && g.deadline_at.is_some() {
                store::shift_deadline(&mut tx, g.id, g.ply, -(v.until_at - now), now).await?;
            }
        }
        let change = ComfortChange::VacationEnded {
            vacation: v.clone(),
            games,
        };
        self.core
            .enqueue(&mut tx, Committed::Comfort(&change))
            .await?;
        tx.commit().await?;
        tracing::info!(user = %user, "vacation ended early");
        Ok(v)
    }

    // -----------------------------------------------------------------------------------
    // Takebacks

    /// `user` proposes to take back their last action in casual game `id` (one ply when it
    /// is the opponent's turn; the opponent's reply and their action, two plies, when it is
    /// their own turn again). Never in rated games; in Beirut never across an action that
    /// revealed a hidden choice (BOT-BEIRUT-2).
    ///
    /// # Errors
    /// [`ServiceError::Refused`] saying why not.
    pub async fn propose_takeback(
        self,
        id: GameId,
        user: UserId,
    ) -> Result<TakebackResult, ServiceError> {
        let (mut tx, row, game, color) = self
            .core
            .games()
            .open_for_write(id, user, super::Act::Move)
            .await?;
        if row.rated {
            return refuse(ComfortRefusal::TakebackRated);
        }
        if row.state != GameState::Active {
            return refuse(ComfortRefusal::NotInPlay);
        }
        let plies = game.plies();
        let undo: usize = if game.turn() == color { 2 } else { 1 };
        if plies.len() < undo || plies[plies.len() - undo].mover != color {
            return refuse(ComfortRefusal::NothingToTakeBack);
        }
        let taken = &plies[plies.len() - undo..];
        if row.variant == Variant::Beirut && taken.iter().any(reveals_hidden) {
            return refuse(ComfortRefusal::TakebackAcrossReveal);
        }
        if let Some(o) = store::takeback(&mut tx, id).await?
            && o.by == color
            && o.ply == row.ply
        {
            return refuse(ComfortRefusal::TakebackAlreadyProposed);
        }
        let undo = i64::try_from(undo).unwrap_or(1);
        store::put_takeback(
            &mut tx,
            id,
            TakebackOffer {
                by: color,
                ply: row.ply,
                undo,
            },
            self.core.clock.now(),
        )
        .await?;
        let plies = taken.iter().map(|p| p.display.clone()).collect();
        let snap = Core::snapshot_tx(&mut tx, id, game).await?;
        let change = ComfortChange::TakebackProposed {
            snap: snap.clone(),
            by: color,
            plies,
        };
        self.core
            .enqueue(&mut tx, Committed::Comfort(&change))
            .await?;
        tx.commit().await?;
        Ok(TakebackResult::Proposed { snap, undo })
    }

    /// `user` accepts or declines the opponent's takeback proposal in game `id`. Accepting
    /// takes the game back, in one transaction that checks the game is still at the ply
    /// of the proposal (a move in between voids it: exactly one of the two wins); the
    /// conditional lines of the game are dropped (the positions they were for are gone).
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when no proposal by the opponent stands.
    pub async fn answer_takeback(
        self,
        id: GameId,
        user: UserId,
        accept: bool,
    ) -> Result<TakebackResult, ServiceError> {
        let (mut tx, row, game, color) = self
            .core
            .games()
            .open_for_write(id, user, super::Act::Move)
            .await?;
        let offer = match store::takeback(&mut tx, id).await? {
            Some(o) if o.ply != row.ply => return refuse(ComfortRefusal::NoTakeback),
            Some(o) if o.by == color => return refuse(ComfortRefusal::OwnTakeback),
            Some(o) => o,
            None => return refuse(ComfortRefusal::NoTakeback),
        };
        store::clear_takeback(&mut tx, id).await?;
        if !accept {
            let snap = Core::snapshot_tx(&mut tx, id, game).await?;
            let change = ComfortChange::TakebackDeclined {
                snap: snap.clone(),
                by: offer.by,
            };
            self.core
                .enqueue(&mut tx, Committed::Comfort(&change))
                .await?;
            tx.commit().await?;
            return Ok(TakebackResult::Declined { snap });
        }
        let to_ply = row.ply - offer.undo;
        let keep = usize::try_from(to_ply).unwrap_or(0);
        let taken: Vec<String> = game.plies()[keep..]
            .iter()
            .map(|p| p.display.clone())
            .collect();
        let mut record = game.record();
        record.actions.truncate(keep);
        let back = AnyGame::from_record(&record)
            .map_err(|e| ServiceError::Corrupt(format!("game #{id} does not replay: {e}")))?;
        let deadline = self
            .core
            .deadline_for(&mut tx, row.days_per_move, row.player(back.turn()))
            .await?;
        let now = self.core.clock.now();
        if !store::take_back(
            &mut tx,
            id,
            row.ply,
            to_ply,
            &back.fen(Viewer::Full),
            deadline,
            now,
        )
        .await?
        {
            return Err(ServiceError::MovedOn {
                game_id: id,
                ply: row.ply,
            });
        }
        store::clear_lines(&mut tx, id, None).await?;
        games::clear_draw_offer(&mut tx, id).await?;
        let snap = Core::snapshot_tx(&mut tx, id, back).await?;
        let change = ComfortChange::TakenBack {
            snap: snap.clone(),
            by: offer.by,
            plies: taken,
        };
        self.core
            .enqueue(&mut tx, Committed::Comfort(&change))
            .await?;
        tx.commit().await?;
        tracing::info!(game_id = %id, to_ply, "takeback accepted");
        Ok(TakebackResult::Accepted { snap })
    }

    // -----------------------------------------------------------------------------------
    // Notes

    /// `user`'s private note in game `id`.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when they do not play it.
    pub async fn note(self, id: GameId, user: UserId) -> Result<Option<String>, ServiceError> {
        self.game_for_comfort(id, user, "keep notes").await?;
        Ok(store::note(&self.core.db, id, user).await?)
    }

    /// Adds `text` as a new line of `user`'s private note in game `id` (`None`: clears
    /// it); returns the note.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when they do not play it or the note would pass
    /// [`MAX_NOTE_CHARS`].
    pub async fn add_note(
        self,
        id: GameId,
        user: UserId,
        text: Option<&str>,
    ) -> Result<Option<String>, ServiceError> {
        self.game_for_comfort(id, user, "keep notes").await?;
        let now = self.core.clock.now();
        let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
            store::put_note(&self.core.db, id, user, None, now).await?;
            return Ok(None);
        };
        let note = match store::note(&self.core.db, id, user).await? {
            Some(old) => format!("{old}\n{text}"),
            None => text.to_string(),
        };
        if note.chars().count() > MAX_NOTE_CHARS {
            return refuse(ComfortRefusal::NoteTooLong);
        }
        store::put_note(&self.core.db, id, user, Some(&note), now).await?;
        Ok(Some(note))
    }

    // -----------------------------------------------------------------------------------
    // Rematch

    /// `user` asks for a rematch of finished game `id`: a challenge to the other player
    /// with the same variant, options, time per move and ratedness, the colours swapped,
    /// posted in the game's channel for them to accept.
    ///
    /// # Errors
    /// [`ServiceError::Refused`] when they did not play it, it is not over, or a challenge
    /// between them in that variant and channel is still open (the rematch offered before).
    pub async fn rematch(
        self,
        id: GameId,
        user: UserId,
        name: &str,
    ) -> Result<Challenge, ServiceError> {
        let (snap, color) = self.game_for_comfort(id, user, "ask for a rematch").await?;
        if snap.row.state != GameState::Finished {
            return refuse(ComfortRefusal::RematchNotOver);
        }
        let row = &snap.row;
        let spec = NewChallenge {
            guild_id: row.guild_id,
            channel_id: row.channel_id,
            challenger_id: user,
            challenger_name: name.to_string(),
            opponent_id: Some(row.player(color.other())),
            variant: row.variant,
            options: row.options,
            days_per_move: row.days_per_move,
            color: match color {
                Color::White => ColorChoice::Black,
                Color::Black => ColorChoice::White,
            },
            rated: row.rated,
            venue: row.venue,
        };
        let mut tx = self.core.db.begin_write().await?;
        // One rematch at a time: a second click (or the opponent's own Rematch) finds the
        // open challenge inside the same serialized write and offers nothing twice.
        if let Some((challenge, challenger)) = store::open_challenge_between(
            &mut tx,
            row.channel_id,
            row.variant,
            row.white_id,
            row.black_id,
        )
        .await?
        {
            return refuse(ComfortRefusal::RematchOpen {
                challenge,
                challenger,
            });
        }
        let cid = challenges::insert(&mut tx, &spec, self.core.clock.now()).await?;
        let challenge = challenges::get(&mut tx, cid)
            .await?
            .ok_or_else(|| ServiceError::Corrupt(format!("challenge #{cid} vanished")))?;
        let change = ComfortChange::Rematch {
            challenge: challenge.clone(),
            from: id,
        };
        self.core
            .enqueue(&mut tx, Committed::Comfort(&change))
            .await?;
        tx.commit().await?;
        tracing::info!(game_id = %id, challenge = cid, "rematch offered");
        Ok(challenge)
    }
}

/// Whether a Beirut ply revealed a hidden choice: a Boom, or a blast set off by a captured
/// carrier (Dead Man's Switch), i.e. any piece removed by an explosion (BOT-BEIRUT-2).
fn reveals_hidden(ply: &kaboom_rules::PlyRecord) -> bool {
    ply.san.starts_with("Boom")
        || ply
            .removed
            .iter()
            .any(|r| r.cause == kaboom_rules::Cause::Exploded)
}

/// The side to move of a stored game (White moves first, C-2).
fn to_move_of(g: &GameRow) -> Color {
    if g.ply % 2 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// `user`'s games in play (active), inside `tx`.
async fn in_play(tx: &mut Tx, user: UserId) -> Result<Vec<GameRow>, ServiceError> {
    Ok(store::active_games_tx(tx, user).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_into_actions() {
        assert_eq!(split_line("Nf6 e5, Nd5"), ["Nf6", "e5", "Nd5"]);
        assert_eq!(split_line("1. e4 e5 2. Nf3"), ["e4", "e5", "Nf3"]);
        assert_eq!(split_line("c1>d2 Nxe5* e5"), ["c1>d2 Nxe5*", "e5"]);
        assert!(split_line("  ").is_empty());
    }

    #[test]
    fn years_start_on_january_first() {
        // 2026-11-21 = 1_763_700_000 s; 2026-01-01 = 1_767_225_600 - 365 days.
        assert_eq!(year_start(1_763_700_000), 1_767_225_600 - 365 * DAY);
        assert_eq!(year_start(1_767_225_600), 1_767_225_600); // 2027-01-01
        assert_eq!(year_start(0), 0);
        assert_eq!(year_start(951_782_400), 946_684_800); // 2000-02-29 -> 2000-01-01
    }

    #[test]
    fn an_opponent_boom_cannot_be_named_in_beirut() {
        let mut game = AnyGame::new(Variant::Beirut, kaboom_rules::GameOptions::default()).unwrap();
        game.designate(Color::White, &["b1".parse().unwrap()])
            .unwrap();
        game.designate(Color::Black, &["g8".parse().unwrap()])
            .unwrap();
        let line = |s: &str| split_line(s);
        // Black's Boom on g8 is their real carrier: still refused, so the refusal tells
        // White nothing.
        assert_eq!(
            check_line(&game, Color::White, &line("e4 Boom@g8")).unwrap_err(),
            ComfortRefusal::OpponentBoom
        );
        assert_eq!(
            check_line(&game, Color::White, &line("e4 Boom@b8")).unwrap_err(),
            ComfortRefusal::OpponentBoom
        );
        let (canon, _) = check_line(&game, Color::White, &line("e2e4 e5 Nf3")).unwrap();
        assert_eq!(canon, ["e4", "e5", "Nf3"]);
    }
}
