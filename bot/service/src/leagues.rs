//! Server leagues: creating them, signing up, starting rounds, recording results,
//! adjudicating, withdrawals and standings ([`crate::Leagues`]).
//!
//! The model and its policy are [`kaboom_domain::league`]: this module loads a league,
//! applies the model's operations, and writes the result with everything it causes in one
//! transaction: the league's new version ([`leagues::save`], refused if another change came
//! first, then retried), the games a round starts (each an ordinary game, tagged with its
//! league and round), and the outbox entries of what the change must post
//! ([`outbox::Committed::League`]).
//!
//! Nothing keeps a league in memory. The scheduler's sweep calls [`Leagues::sweep`], which
//! looks at the leagues whose next check is due or which have a finished game whose result
//! they have not recorded ([`leagues::due`]), records those results and does what
//! [`round_due`] says: close sign-up, start the next round, adjudicate, finish. So a league
//! survives restarts and runs the same with several processes on one PostgreSQL database
//! (each change is a write transaction with the version check).
//!
//! Adjudication (a Swiss round's games still running at its deadline plus the grace): the
//! engine searches the position, every secret shown, for [`ADJUDICATION_NODES`] positions
//! (a fixed budget, so the verdict does not depend on the machine); a win found, or an
//! evaluation of at least [`ADJUDICATION_MARGIN_CENTIPAWNS`] for one side, wins the game for
//! that side, anything else is a draw. The search runs before the write transaction, off
//! the async runtime; the transaction ends the game only if it is still at the ply searched.

use std::collections::HashMap;

use kaboom_domain::league::{
    self, League, LeagueError, LeagueFormat, LeagueResult, LeagueSettings, RoundDue, SignUp,
};
use kaboom_pairing::trf::Colour;
use kaboom_rules::{AnyGame, Color, EndReason, GameOptions, Outcome, Variant, Viewer};
use kaboom_store::games::{self, GameState, NewGame};
use kaboom_store::leagues::{self, FinishedGame, LeaguePlace, LeagueRow};

use super::{Core, Ended, Leagues, ServiceError, Snapshot, outbox, refuse};
use kaboom_domain::ids::{GameId, GuildId, MessageId, RoleId, UserId};

/// Positions the engine searches to adjudicate a game (a fixed budget: the same position
/// always gets the same verdict).
pub const ADJUDICATION_NODES: u64 = 200_000;

/// The engine's evaluation (centipawns, from the side to move) at which an adjudicated
/// game is won; closer than this it is drawn.
pub const ADJUDICATION_MARGIN_CENTIPAWNS: i32 = 300;

/// Why a league action was refused (worded by `discord::messages`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeagueRefusal {
    /// There is no league with this id in this server.
    Unknown {
        /// The id asked for.
        id: i64,
    },
    /// Leagues belong to a server: not in a direct message.
    OutsideServer,
    /// The league option is not a league's number.
    NotALeague {
        /// What was typed.
        typed: String,
    },
    /// The league model refused (its message says what would be right).
    Rules(LeagueError),
    /// The variant's options do not make a game (Beirut carriers outside 1-15, ...).
    Options {
        /// What the rules library said.
        reason: String,
    },
    /// League games cannot be aborted: they are part of a round.
    NoAbort,
    /// The league changed while this change was made: nothing was written; try again.
    Busy,
    /// Only members with Manage Server, or with the server's league organiser role
    /// (`/settings server league_organisers`), create and manage leagues.
    NotOrganiser {
        /// The server's league organiser role, if it set one.
        role: Option<RoleId>,
    },
}

/// Whether a user is still a member of a server, asked when a league's sign-up closes so
/// that players who left the server are taken off the list instead of being paired (the
/// Discord layer asks Discord's Get Guild Member).
pub trait Membership: Send + Sync {
    /// `Some(true)` for a member, `Some(false)` when Discord says the user is not one
    /// (404 Unknown Member), `None` when it cannot tell (then the player stays).
    fn is_member(
        &self,
        guild: GuildId,
        user: UserId,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Option<bool>> + Send + '_>>;
}

/// Who is asking to create or manage a league: what the member's interaction says of them.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Organiser {
    /// Whether the member has the Manage Server permission in the channel.
    pub manage_server: bool,
    /// The member's roles.
    pub roles: Vec<RoleId>,
}

impl From<LeagueError> for ServiceError {
    fn from(e: LeagueError) -> ServiceError {
        ServiceError::Refused(super::Refusal::League(LeagueRefusal::Rules(e)))
    }
}

impl From<LeagueRefusal> for ServiceError {
    fn from(r: LeagueRefusal) -> ServiceError {
        ServiceError::Refused(super::Refusal::League(r))
    }
}

/// A league to create ([`Leagues::create`]).
#[derive(Clone, Debug)]
pub struct NewLeague {
    /// Its server, channel and creator.
    pub place: LeaguePlace,
    /// Its name.
    pub name: String,
    /// The variant of its games.
    pub variant: Variant,
    /// The variant's options.
    pub options: GameOptions,
    /// Round-robin or Swiss.
    pub format: LeagueFormat,
    /// Days per move, round length, bye value, grace, rated.
    pub settings: LeagueSettings,
    /// When sign-up closes.
    pub sign_up: SignUp,
}

/// Something that happened to a league, for the outbox planner to word.
#[derive(Clone, Debug)]
pub enum LeagueEvent {
    /// The league was created: its sign-up post.
    Created,
    /// Someone joined or left: the sign-up post's list changes.
    SignUpChanged,
    /// Sign-up closed and the players were seeded (the sign-up post loses its buttons).
    SignUpClosed,
    /// These players had left the server when sign-up closed: they were taken off the list.
    LeftServer {
        /// The players (id and name shown), in sign-up order.
        players: Vec<(UserId, String)>,
    },
    /// Sign-up closed with too few players: the league is called off.
    Cancelled {
        /// Players signed up.
        have: u32,
        /// Players needed.
        need: u32,
    },
    /// A round started with these games (byes and forfeits are in the league's model).
    RoundStarted {
        /// The league round.
        round: u32,
        /// Its games, in board order.
        games: Vec<Snapshot>,
    },
    /// A game still running at its round's deadline plus grace was adjudicated.
    Adjudicated {
        /// The game as it ended.
        ended: Box<Ended>,
    },
    /// A player withdrew.
    Withdrawn {
        /// The player.
        user: UserId,
    },
    /// Every round is over: the final standings.
    Finished,
    /// The league was paused: by someone who manages it, or (`bot_removed`) because the
    /// bot was removed from its server. Nothing is due until it resumes; games go on.
    Paused {
        /// Whether the bot was removed from the server (nothing can be posted there).
        bot_removed: bool,
    },
    /// The league resumed: the current round's deadline moved back by the pause's length.
    Resumed,
}

/// A committed change of a league: the league as it is after it, and what happened.
#[derive(Clone, Debug)]
pub struct LeagueChange {
    /// The league after the change.
    pub league: LeagueRow,
    /// What happened, in order.
    pub events: Vec<LeagueEvent>,
}

/// What one [`Leagues::sweep`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeagueSweep {
    /// Leagues looked at.
    pub examined: usize,
    /// Results recorded from finished games.
    pub results: usize,
    /// Rounds started: (league, round).
    pub rounds_started: Vec<(i64, u32)>,
    /// Games adjudicated.
    pub adjudicated: Vec<GameId>,
    /// Leagues finished (or called off).
    pub finished: Vec<i64>,
}

/// A player's rating shown at sign-up: their rating in the variant, or the rating every
/// player starts from.
async fn sign_up_rating(
    tx: &mut kaboom_store::Tx,
    user: UserId,
    variant: Variant,
) -> Result<u32, ServiceError> {
    let rating = kaboom_store::ratings::get_tx(tx, user, variant).await?;
    let shown = rating.map_or(kaboom_domain::rating::Glicko::default().shown(), |r| {
        r.glicko.shown()
    });
    Ok(u32::try_from(shown.max(0)).unwrap_or(0))
}

/// A random colour for start rank 1 in a Swiss's round 1 (C.04.3 E.5).
fn initial_colour() -> Result<Colour, ServiceError> {
    let mut b = [0u8; 1];
    getrandom::fill(&mut b).map_err(|e| ServiceError::Corrupt(e.to_string()))?;
    Ok(if b[0] & 1 == 0 {
        Colour::White
    } else {
        Colour::Black
    })
}

/// The league result of a finished league game: the game's result, a forfeit when the loser
/// lost before both sides moved ([`LeagueResult::from_game`]); an abort (the carriers
/// not chosen in time) loses by forfeit for each side that had not chosen.
async fn result_of(
    tx: &mut kaboom_store::Tx,
    game: &FinishedGame,
) -> Result<LeagueResult, ServiceError> {
    if game.reason.as_deref() == Some(EndReason::Aborted.name()) {
        let chosen: Vec<Color> = kaboom_store::carriers::all(&mut *tx, game.game_id)
            .await?
            .iter()
            .map(|d| d.color)
            .collect();
        return Ok(
            match (
                chosen.contains(&Color::White),
                chosen.contains(&Color::Black),
            ) {
                (true, false) => LeagueResult::ForfeitWhiteWins,
                (false, true) => LeagueResult::ForfeitBlackWins,
                _ => LeagueResult::DoubleForfeit,
            },
        );
    }
    let winner = match game.result.as_deref() {
        Some("1-0") => Some(Color::White),
        Some("0-1") => Some(Color::Black),
        Some("1/2-1/2") => None,
        other => {
            return Err(ServiceError::Corrupt(format!(
                "league game #{} finished with result {other:?}",
                game.game_id
            )));
        }
    };
    Ok(LeagueResult::from_game(winner, game.ply >= 2))
}

/// The verdict of an adjudication of `game` (docs/leagues.md, "Adjudication"): who wins,
/// and the league result. A game still in setup is lost by forfeit by each side that has
/// not chosen its carriers.
///
/// # Errors
/// [`ServiceError::Corrupt`] if the engine cannot search a game in play.
pub fn adjudicate(game: &AnyGame) -> Result<(Outcome, LeagueResult), ServiceError> {
    let missing = game.awaiting_designation();
    if !missing.is_empty() {
        return Ok(match missing.as_slice() {
            [Color::White] => (
                Outcome::win(Color::Black, EndReason::Adjudication),
                LeagueResult::ForfeitBlackWins,
            ),
            [Color::Black] => (
                Outcome::win(Color::White, EndReason::Adjudication),
                LeagueResult::ForfeitWhiteWins,
            ),
            _ => (
                Outcome::draw(EndReason::Aborted),
                LeagueResult::DoubleForfeit,
            ),
        });
    }
    let limits = kaboom_engine::Limits::nodes(ADJUDICATION_NODES);
    let analysis = kaboom_engine::analyse(game, Viewer::Full, limits)
        .map_err(|e| ServiceError::Corrupt(format!("adjudication: {e}")))?;
    let to_move = game.turn();
    let winner = match analysis.score {
        kaboom_engine::Score::Win { .. } => Some(to_move),
        kaboom_engine::Score::Loss { .. } => Some(to_move.other()),
        kaboom_engine::Score::Centipawns { value } if value >= ADJUDICATION_MARGIN_CENTIPAWNS => {
            Some(to_move)
        }
        kaboom_engine::Score::Centipawns { value } if value <= -ADJUDICATION_MARGIN_CENTIPAWNS => {
            Some(to_move.other())
        }
        kaboom_engine::Score::Centipawns { .. } => None,
    };
    let outcome = match winner {
        Some(w) => Outcome::win(w, EndReason::Adjudication),
        None => Outcome::draw(EndReason::Adjudication),
    };
    Ok((
        outcome,
        LeagueResult::from_game(winner, game.ply_count() >= 2),
    ))
}

/// `text` as a PGN tag value: backslashes and quotes escaped, line breaks as spaces.
fn pgn_escape(text: &str) -> String {
    text.chars()
        .flat_map(|c| match c {
            '\\' | '"' => vec!['\\', c],
            c if c.is_control() => vec![' '],
            c => vec![c],
        })
        .collect()
}

/// Takes the players in `departed` who are still signed up to `league` off its list
/// (before sign-up closes), and says so.
fn take_off(league: &mut League, departed: &[UserId]) -> Vec<LeagueEvent> {
    let mut players = Vec::new();
    for &user in departed {
        let name = league.entrant_by_user(user).map(|e| e.name.clone());
        if let Some(name) = name
            && league.leave(user).is_ok()
        {
            players.push((user, name));
        }
    }
    if players.is_empty() {
        Vec::new()
    } else {
        vec![LeagueEvent::LeftServer { players }]
    }
}

/// A verdict computed before the write transaction, with the game it was searched on:
/// valid while the game is at `ply`.
struct Verdict {
    ply: i64,
    game: AnyGame,
    outcome: Outcome,
    result: LeagueResult,
}

impl Leagues<'_> {
    /// Checks that `member` may create and manage leagues in `guild`: Manage Server, or the
    /// server's league organiser role (docs/leagues.md, "Who runs a league").
    ///
    /// # Errors
    /// [`LeagueRefusal::NotOrganiser`] naming the role, if the server set one;
    /// [`ServiceError::Storage`] on a database failure.
    pub async fn check_organiser(
        self,
        guild: GuildId,
        member: &Organiser,
    ) -> Result<(), ServiceError> {
        if member.manage_server {
            return Ok(());
        }
        let role = kaboom_store::settings::guild(&self.core.db, guild)
            .await?
            .and_then(|s| s.league_organisers);
        match role {
            Some(role) if member.roles.contains(&role) => Ok(()),
            role => Err(LeagueRefusal::NotOrganiser { role }.into()),
        }
    }

    /// The entrants of `row` who left its server, in sign-up order: none without a
    /// [`Membership`] check (see [`Services::with_membership`](super::Services::with_membership)) or while the
    /// league is past sign-up; a player the check cannot tell about stays.
    async fn departed(self, row: &LeagueRow) -> Vec<UserId> {
        let Some(membership) = &self.core.membership else {
            return Vec::new();
        };
        if row.league.status != league::LeagueStatus::SignUp {
            return Vec::new();
        }
        let mut departed = Vec::new();
        for entrant in &row.league.entrants {
            if membership.is_member(row.guild_id, entrant.user_id).await == Some(false) {
                departed.push(entrant.user_id);
            }
        }
        departed
    }

    /// Creates a league in sign-up and writes its sign-up post.
    ///
    /// # Errors
    /// [`LeagueRefusal::Rules`] for settings the model refuses (name, rounds, limits, days),
    /// [`LeagueRefusal::Options`] for variant options that make no game.
    pub async fn create(self, new: NewLeague) -> Result<LeagueRow, ServiceError> {
        if let Err(e) = AnyGame::new(new.variant, new.options) {
            return Err(LeagueRefusal::Options {
                reason: e.to_string(),
            }
            .into());
        }
        let now = self.core.clock.now();
        let league = League::new(
            &new.name,
            new.variant,
            new.options,
            new.format,
            new.settings,
            new.sign_up,
            now,
        )?;
        let mut tx = self.core.db.begin_write().await?;
        let id = leagues::insert(&mut tx, new.place, &league, new.sign_up.deadline, now).await?;
        let row = leagues::get(&mut tx, id)
            .await?
            .ok_or_else(|| ServiceError::Corrupt(format!("league #{id} vanished")))?;
        let change = LeagueChange {
            league: row,
            events: vec![LeagueEvent::Created],
        };
        self.core
            .enqueue(&mut tx, outbox::Committed::League(&change))
            .await?;
        tx.commit().await?;
        self.core.outbox_waker.wake();
        tracing::info!(league = id, name = %league.name, "league created");
        Ok(change.league)
    }

    /// League `id` of server `guild`.
    ///
    /// # Errors
    /// [`LeagueRefusal::Unknown`] when there is none in that server.
    pub async fn get(self, id: i64, guild: GuildId) -> Result<LeagueRow, ServiceError> {
        match leagues::get(&self.core.db, id).await? {
            Some(row) if row.guild_id == guild => Ok(row),
            _ => Err(LeagueRefusal::Unknown { id }.into()),
        }
    }

    /// The leagues of server `guild`, newest first (at most 25, a choice list's length);
    /// finished ones too with `finished`.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn in_guild(
        self,
        guild: GuildId,
        finished: bool,
    ) -> Result<Vec<LeagueRow>, ServiceError> {
        Ok(leagues::in_guild(&self.core.db, guild, finished, 25).await?)
    }

    /// League `id` of server `guild` exported: its FIDE tournament report (TRF-16, with
    /// `XXR` and, for a Swiss, `XXC`; games still running left out) and one PGN of all its
    /// games started so far, in order, each with the league as its `Event` and its league
    /// round as its `Round` (Beirut carriers only in finished games, as `/pgn` shows them).
    ///
    /// # Errors
    /// [`LeagueRefusal::Unknown`]; [`ServiceError::Corrupt`] for a game that does not replay.
    pub async fn export(self, id: i64, guild: GuildId) -> Result<(String, String), ServiceError> {
        let row = self.get(id, guild).await?;
        let trf = league::to_tournament(&row.league).to_trf();
        let event = format!("[Event \"{}\"]", pgn_escape(&row.league.name));
        let mut pgn = String::new();
        for game in &row.league.games {
            let Some(game_id) = game.game else { continue };
            let text = self.core.games().pgn(game_id).await?;
            for line in text.lines() {
                if line.starts_with("[Event ") {
                    pgn.push_str(&event);
                } else if line.starts_with("[Round ") {
                    pgn.push_str(&format!("[Round \"{}\"]", game.round));
                } else {
                    pgn.push_str(line);
                }
                pgn.push('\n');
            }
            if !pgn.ends_with("\n\n") {
                pgn.push('\n');
            }
        }
        Ok((trf, pgn))
    }

    /// Records league `id`'s sign-up post (by the outbox's deliverer).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn set_message(self, id: i64, message: MessageId) -> Result<(), ServiceError> {
        Ok(leagues::set_message(&self.core.db, id, message).await?)
    }

    /// League `id` as stored, whatever its server (the outbox's deliverer).
    ///
    /// # Errors
    /// [`LeagueRefusal::Unknown`].
    pub async fn load(self, id: i64) -> Result<LeagueRow, ServiceError> {
        leagues::get(&self.core.db, id)
            .await?
            .ok_or_else(|| LeagueRefusal::Unknown { id }.into())
    }

    /// `user` (shown as `name`) joins league `id` of server `guild`. When the join fills
    /// the league, sign-up closes and round 1 starts in the same change.
    ///
    /// # Errors
    /// [`LeagueRefusal::Unknown`]; [`LeagueRefusal::Rules`] with
    /// [`LeagueError::AlreadyJoined`], [`LeagueError::LeagueFull`] or
    /// [`LeagueError::SignUpClosed`].
    pub async fn join(
        self,
        id: i64,
        guild: GuildId,
        user: UserId,
        name: &str,
    ) -> Result<LeagueRow, ServiceError> {
        let (mut tx, row, now) = self.open(id, Some(guild)).await?;
        let mut league = row.league.clone();
        let rating = sign_up_rating(&mut tx, user, league.variant).await?;
        league.join(user, name, rating, now)?;
        let mut events = vec![LeagueEvent::SignUpChanged];
        if league.sign_up_closed(now) {
            events.extend(
                self.core
                    .advance(&mut tx, &row, &mut league, now, &HashMap::new())
                    .await?,
            );
        }
        Ok(self.save(tx, row, league, events, now).await?.league)
    }

    /// `user` leaves league `id` during sign-up.
    ///
    /// # Errors
    /// [`LeagueRefusal::Unknown`]; [`LeagueRefusal::Rules`] with
    /// [`LeagueError::NotAnEntrant`] or [`LeagueError::SignUpClosed`] (withdraw instead).
    pub async fn leave(
        self,
        id: i64,
        guild: GuildId,
        user: UserId,
    ) -> Result<LeagueRow, ServiceError> {
        let (tx, row, now) = self.open(id, Some(guild)).await?;
        let mut league = row.league.clone();
        league.leave(user)?;
        let events = vec![LeagueEvent::SignUpChanged];
        Ok(self.save(tx, row, league, events, now).await?.league)
    }

    /// Closes sign-up of league `id` now and starts round 1 (someone who manages the
    /// league: the Discord layer checks who).
    ///
    /// # Errors
    /// [`LeagueRefusal::Unknown`]; [`LeagueRefusal::Rules`] with
    /// [`LeagueError::SignUpClosed`] once started or [`LeagueError::TooFewPlayers`] (the
    /// league stays in sign-up).
    pub async fn start(self, id: i64, guild: GuildId) -> Result<LeagueRow, ServiceError> {
        let departed = self.departed(&self.get(id, guild).await?).await;
        let (mut tx, row, now) = self.open(id, Some(guild)).await?;
        let mut league = row.league.clone();
        let mut events = take_off(&mut league, &departed);
        league.close_sign_up(initial_colour()?)?;
        events.push(LeagueEvent::SignUpClosed);
        events.extend(
            self.core
                .advance(&mut tx, &row, &mut league, now, &HashMap::new())
                .await?,
        );
        Ok(self.save(tx, row, league, events, now).await?.league)
    }

    /// `user` withdraws from league `id`: their running league games are resigned first
    /// (each in its own transaction, as a resignation), then the withdrawal is recorded:
    /// their later round-robin games are forfeits, a Swiss no longer pairs them. If the
    /// withdrawal fails after a resignation, asking again finishes it.
    ///
    /// # Errors
    /// [`LeagueRefusal::Unknown`]; [`LeagueRefusal::Rules`] with
    /// [`LeagueError::NotRunning`] (during sign-up: leave instead),
    /// [`LeagueError::NotAnEntrant`] or [`LeagueError::AlreadyWithdrawn`].
    pub async fn withdraw(
        self,
        id: i64,
        guild: GuildId,
        user: UserId,
    ) -> Result<LeagueRow, ServiceError> {
        let row = self.get(id, guild).await?;
        // Checked on a copy first, so that nothing is resigned for a refused withdrawal.
        let running = row.league.clone().withdraw(user)?;
        for game in running {
            match self.core.games().resign(game, user).await {
                Ok(_) | Err(ServiceError::Refused(super::Refusal::AlreadyOver(_))) => {}
                Err(e) => return Err(e),
            }
        }
        let (mut tx, row, now) = self.open(id, Some(guild)).await?;
        let mut league = row.league.clone();
        self.core.record_results(&mut tx, id, &mut league).await?;
        league.withdraw(user)?;
        let mut events = vec![LeagueEvent::Withdrawn { user }];
        events.extend(
            self.core
                .advance(&mut tx, &row, &mut league, now, &HashMap::new())
                .await?,
        );
        Ok(self.save(tx, row, league, events, now).await?.league)
    }

    /// Pauses league `id` (someone who manages it: the Discord layer checks who): no round
    /// starts and no game is adjudicated until it resumes; its games go on.
    ///
    /// # Errors
    /// [`LeagueRefusal::Unknown`]; [`LeagueRefusal::Rules`] with
    /// [`LeagueError::NotRunning`] unless it is running.
    pub async fn pause(self, id: i64, guild: GuildId) -> Result<LeagueRow, ServiceError> {
        let (tx, row, now) = self.open(id, Some(guild)).await?;
        let mut league = row.league.clone();
        league.pause(now)?;
        let events = vec![LeagueEvent::Paused { bot_removed: false }];
        Ok(self.save(tx, row, league, events, now).await?.league)
    }

    /// Resumes paused league `id`: the current round's deadline moves back by the pause's
    /// length, and whatever is due then is done at once.
    ///
    /// # Errors
    /// [`LeagueRefusal::Unknown`]; [`LeagueRefusal::Rules`] with
    /// [`LeagueError::NotPaused`] unless it is paused.
    pub async fn resume(self, id: i64, guild: GuildId) -> Result<LeagueRow, ServiceError> {
        let (mut tx, row, now) = self.open(id, Some(guild)).await?;
        let mut league = row.league.clone();
        league.resume(now)?;
        let mut events = vec![LeagueEvent::Resumed];
        self.core.record_results(&mut tx, id, &mut league).await?;
        events.extend(
            self.core
                .advance(&mut tx, &row, &mut league, now, &HashMap::new())
                .await?,
        );
        Ok(self.save(tx, row, league, events, now).await?.league)
    }

    /// The bot was removed from server `guild`: each of its running leagues pauses (an
    /// organiser resumes it with `/league resume` once the bot is back). Returns their ids.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn pause_guild(self, guild: GuildId) -> Result<Vec<i64>, ServiceError> {
        let mut paused = Vec::new();
        for listed in
            leagues::in_guild(&self.core.db, guild, false, i64::from(league::MAX_PLAYERS)).await?
        {
            if !matches!(listed.league.status, league::LeagueStatus::Running { .. }) {
                continue;
            }
            let (tx, row, now) = self.open(listed.id, Some(guild)).await?;
            let mut league = row.league.clone();
            if league.pause(now).is_err() {
                continue;
            }
            let events = vec![LeagueEvent::Paused { bot_removed: true }];
            self.save(tx, row, league, events, now).await?;
            tracing::info!(league = listed.id, guild = %guild, "league paused: the bot was removed from its server");
            paused.push(listed.id);
        }
        Ok(paused)
    }

    /// The scheduler's part: every due league records its finished games' results and
    /// does what is due ([`league::round_due`]). A league whose step fails is logged and
    /// tried again at the next sweep; the others go on.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] when the due leagues cannot be listed.
    pub async fn sweep(self) -> Result<LeagueSweep, ServiceError> {
        let now = self.core.clock.now();
        let ids = {
            let mut tx = self.core.db.begin_read().await?;
            leagues::due(&mut tx, now).await?
        };
        let mut report = LeagueSweep::default();
        for id in ids {
            report.examined += 1;
            match self.step(id, now).await {
                Ok((results, change)) => {
                    report.results += results;
                    for event in change.iter().flat_map(|c| &c.events) {
                        match event {
                            LeagueEvent::RoundStarted { round, .. } => {
                                report.rounds_started.push((id, *round));
                            }
                            LeagueEvent::Adjudicated { ended } => {
                                report.adjudicated.push(ended.snap.row.id);
                            }
                            LeagueEvent::Finished | LeagueEvent::Cancelled { .. } => {
                                report.finished.push(id);
                            }
                            _ => {}
                        }
                    }
                }
                Err(e) => {
                    tracing::error!(league = id, error = %e, "league step failed; the next sweep tries again");
                }
            }
        }
        Ok(report)
    }

    /// One league's step of the sweep: the results recorded, and the change written.
    async fn step(self, id: i64, now: i64) -> Result<(usize, Option<LeagueChange>), ServiceError> {
        let verdicts = self.verdicts(id, now).await?;
        let departed = match leagues::get(&self.core.db, id).await? {
            Some(row) if league::round_due(&row.league, now) == RoundDue::CloseSignUp => {
                self.departed(&row).await
            }
            _ => Vec::new(),
        };
        let (mut tx, row, _) = self.open(id, None).await?;
        let mut league = row.league.clone();
        let results = self.core.record_results(&mut tx, id, &mut league).await?;
        let mut events = if league::round_due(&league, now) == RoundDue::CloseSignUp {
            take_off(&mut league, &departed)
        } else {
            Vec::new()
        };
        events.extend(
            self.core
                .advance(&mut tx, &row, &mut league, now, &verdicts)
                .await?,
        );
        // Saved even when nothing happened: the next check moves on, so that the league is
        // not looked at again before something is due.
        let change = self.save(tx, row, league, events, now).await?;
        Ok((results, Some(change)))
    }

    /// The adjudication verdicts league `id` will need now: when its current round is due
    /// for adjudication, each running game searched by the engine (off the async runtime,
    /// before any write transaction).
    async fn verdicts(self, id: i64, now: i64) -> Result<HashMap<GameId, Verdict>, ServiceError> {
        let mut verdicts = HashMap::new();
        let Some(row) = leagues::get(&self.core.db, id).await? else {
            return Ok(verdicts);
        };
        let RoundDue::Adjudicate { games } = league::round_due(&row.league, now) else {
            return Ok(verdicts);
        };
        for game_id in games {
            let snap = self.core.load(game_id).await?;
            if snap.outcome().is_some() {
                continue;
            }
            let ply = snap.row.ply;
            let (game, outcome, result) = self
                .core
                .cpu
                .run(move || adjudicate(&snap.game).map(|(o, r)| (snap.game, o, r)))
                .await??;
            verdicts.insert(
                game_id,
                Verdict {
                    ply,
                    game,
                    outcome,
                    result,
                },
            );
        }
        Ok(verdicts)
    }

    /// Opens a write transaction on league `id` (of `guild`, when given): the transaction,
    /// the league as stored in it, and the time of the change.
    async fn open(
        self,
        id: i64,
        guild: Option<GuildId>,
    ) -> Result<(kaboom_store::Tx, LeagueRow, i64), ServiceError> {
        let mut tx = self.core.db.begin_write().await?;
        match leagues::get(&mut tx, id).await? {
            Some(row) if guild.is_none_or(|g| g == row.guild_id) => {
                Ok((tx, row, self.core.clock.now()))
            }
            _ => Err(LeagueRefusal::Unknown { id }.into()),
        }
    }

    /// Saves `league` as the new version of `row` with the outbox entries of `events`, and
    /// commits. The write transaction of [`Leagues::open`] serializes league changes; the
    /// version check refuses a change made from an older read all the same
    /// ([`LeagueRefusal::Busy`]), so no change is ever lost.
    async fn save(
        self,
        mut tx: kaboom_store::Tx,
        row: LeagueRow,
        league: League,
        events: Vec<LeagueEvent>,
        now: i64,
    ) -> Result<LeagueChange, ServiceError> {
        let next = next_check(&league, now);
        if !leagues::save(&mut tx, row.id, row.version, &league, next, now).await? {
            return Err(LeagueRefusal::Busy.into());
        }
        let change = LeagueChange {
            league: LeagueRow {
                version: row.version + 1,
                league,
                ..row
            },
            events,
        };
        if !change.events.is_empty() {
            self.core
                .enqueue(&mut tx, outbox::Committed::League(&change))
                .await?;
        }
        tx.commit().await?;
        if !change.events.is_empty() {
            self.core.outbox_waker.wake();
        }
        Ok(change)
    }
}

/// When the sweep should look at `league` again: the time [`round_due`] waits for.
fn next_check(league: &League, now: i64) -> Option<i64> {
    match league::round_due(league, now) {
        RoundDue::Wait { until } => until,
        // Something is due that this change did not do (a verdict not computed yet).
        _ => Some(now),
    }
}

impl Core {
    /// Records the results of league `id`'s finished games not recorded yet; returns how
    /// many.
    async fn record_results(
        &self,
        tx: &mut kaboom_store::Tx,
        id: i64,
        league: &mut League,
    ) -> Result<usize, ServiceError> {
        let finished = leagues::unrecorded_results(tx, id).await?;
        for game in &finished {
            let result = result_of(tx, game).await?;
            match league.record_result(game.game_id, result) {
                // Adjudicated results are recorded when the game is ended.
                Ok(()) | Err(LeagueError::ResultAlreadyRecorded(_)) => {}
                Err(e) => {
                    tracing::error!(league = id, game_id = %game.game_id, error = %e, "a league game's result does not fit its league");
                }
            }
            leagues::mark_recorded(tx, game.game_id).await?;
        }
        Ok(finished.len())
    }

    /// Does what is due for `league` at `now`, as long as something is: closes sign-up
    /// (or calls the league off with too few players), starts rounds (their games created
    /// in `tx`), ends adjudicated games with their `verdicts`, finishes the league.
    /// Returns what happened. `place` is the league as stored before the change (its id,
    /// server and channel).
    async fn advance(
        &self,
        tx: &mut kaboom_store::Tx,
        place: &LeagueRow,
        league: &mut League,
        now: i64,
        verdicts: &HashMap<GameId, Verdict>,
    ) -> Result<Vec<LeagueEvent>, ServiceError> {
        let mut events = Vec::new();
        // Each pass changes the league's status or results, so this ends; the bound guards
        // against a policy bug looping forever inside a transaction.
        for _ in 0..=2 * league::MAX_PLAYERS {
            match league::round_due(league, now) {
                RoundDue::Wait { .. } => break,
                RoundDue::CloseSignUp => match league.close_sign_up(initial_colour()?) {
                    Ok(()) => events.push(LeagueEvent::SignUpClosed),
                    Err(LeagueError::TooFewPlayers { have, need }) => {
                        league.cancel()?;
                        events.push(LeagueEvent::Cancelled { have, need });
                        break;
                    }
                    Err(e) => return Err(e.into()),
                },
                RoundDue::StartNextRound => {
                    let plan = league::next_round(league)?;
                    let mut ids = Vec::new();
                    let mut snaps = Vec::new();
                    for planned in &plan.games {
                        let snap = self
                            .start_league_game(tx, place, league, planned, plan.round)
                            .await?;
                        ids.push(snap.row.id);
                        snaps.push(snap);
                    }
                    let starts_at = league.next_round_starts_at(now);
                    league.start_round(&plan, starts_at, &ids)?;
                    events.push(LeagueEvent::RoundStarted {
                        round: plan.round,
                        games: snaps,
                    });
                }
                RoundDue::Adjudicate { games } => {
                    let mut done = false;
                    for game_id in games {
                        let Some(verdict) = verdicts.get(&game_id) else {
                            continue;
                        };
                        let Some(row) = games::get(&mut *tx, game_id).await? else {
                            continue;
                        };
                        if row.ply != verdict.ply || row.state == GameState::Finished {
                            continue;
                        }
                        let ended = self
                            .end_in_tx(tx, &row, verdict.game.clone(), verdict.outcome)
                            .await?;
                        league.record_adjudicated_result(game_id, verdict.result)?;
                        leagues::mark_recorded(tx, game_id).await?;
                        events.push(LeagueEvent::Adjudicated {
                            ended: Box::new(ended),
                        });
                        done = true;
                    }
                    if !done {
                        // The verdicts are computed before the transaction: the next
                        // sweep computes those missing.
                        break;
                    }
                }
                RoundDue::Finish => {
                    league.finish()?;
                    events.push(LeagueEvent::Finished);
                    break;
                }
            }
        }
        Ok(events)
    }

    /// Creates the game `planned` of round `round` of `league` (stored as `place`) in
    /// `tx`: an ordinary game (in setup for Beirut and Nuke) in the league's channel with its
    /// days per move and rating, tagged with the league and round.
    async fn start_league_game(
        &self,
        tx: &mut kaboom_store::Tx,
        place: &LeagueRow,
        league: &League,
        planned: &league::PlannedGame,
        round: u32,
    ) -> Result<Snapshot, ServiceError> {
        let id = place.id;
        let player = |rank: u32| {
            league
                .entrant(rank)
                .map(|e| (e.user_id, e.name.clone()))
                .ok_or_else(|| ServiceError::Corrupt(format!("league #{id}: no start rank {rank}")))
        };
        let (white, black) = (player(planned.white)?, player(planned.black)?);
        let game =
            AnyGame::new(league.variant, league.options).map_err(|e| LeagueRefusal::Options {
                reason: e.to_string(),
            })?;
        let state = if game.awaiting_designation().is_empty() {
            GameState::Active
        } else {
            GameState::Setup
        };
        let days = Some(league.settings.days_per_move);
        let new = NewGame {
            challenge_id: None,
            guild_id: Some(place.guild_id),
            channel_id: place.channel_id,
            deadline_at: self.deadline_for(tx, days, white.0).await?,
            white,
            black,
            variant: league.variant,
            options: league.options,
            start_fen: game.start_fen(Viewer::Full),
            state,
            days_per_move: days,
            rated: league.settings.rated,
            venue: kaboom_store::challenges::Venue::Thread,
        };
        let game_id = games::insert(tx, &new, self.clock.now()).await?;
        leagues::add_game(tx, id, game_id, round).await?;
        Core::snapshot_tx(tx, game_id, game).await
    }
}

/// Refuses an abort of a league game.
///
/// # Errors
/// [`LeagueRefusal::NoAbort`] when game `id` is a league's.
pub(crate) async fn refuse_league_abort(core: &Core, id: GameId) -> Result<(), ServiceError> {
    if leagues::of_game(&core.db, id).await?.is_some() {
        return refuse(super::Refusal::League(LeagueRefusal::NoAbort));
    }
    Ok(())
}
