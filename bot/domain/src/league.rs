//! Server leagues (correspondence tournaments): the pure model. A league's settings, its
//! entrants, its rounds, games and byes as stored facts; the pairing of the next round
//! ([`next_round`]), the conversion to a FIDE tournament report ([`to_tournament`], so to
//! TRF-16 text by [`Tournament::to_trf`]), the standings ([`standings`]) and the policy of
//! what is due at a time ([`round_due`]). No I/O: the league service stores a [`League`],
//! calls these functions and acts on what they return.
//!
//! # Formats
//!
//! - **Round-robin** by the FIDE Berger tables (FIDE Handbook C.05, Annex 1), single or
//!   double (colours reversed in the second cycle). An odd field uses the table of `n + 1`:
//!   the player drawn against the dummy number has a bye worth 0 points, shown as a bye.
//!   A double round-robin may play **both colours at once** ([`LeagueFormat::RoundRobin`]
//!   `both_colours_at_once`): league round `r` starts the games of Berger round `r` and of
//!   Berger round `r + cycle` (the same pairs, colours reversed), so the league has as many
//!   rounds as one cycle. In the tournament report each game keeps its own Berger round
//!   ([`LeagueGame::pairing_round`]), so the report stays a plain double round-robin.
//! - **Swiss** by the FIDE Dutch system (C.04.3, the text in force from 1 July 2025,
//!   [`kaboom_pairing::System::Dutch`]), with the basic rules C.04.1 and the general handling
//!   rules C.04.2. The pairing-allocated bye (C.04.1.c) scores [`LeagueSettings::bye_value`]:
//!   1 point unless the league sets ½ or 0. No player gets it twice (C.04.1, C.04.3 C.2).
//!
//!   In the tournament report every pairing-allocated bye is `U`, whatever it is worth, and
//!   the report's [`Tournament::pab_points`] is the league's bye value: pairing, standings
//!   and the exported TRF-16 score `U` with it (a bye of ½ or 0 writes JaVaFo's `XXS PAB=`
//!   and bbpPairings' `BBU` lines), and the pairing knows the player has had the bye. A bye
//!   of ½ or 0 is therefore not a requested bye (`H`, `Z`), which Buchholz Cut-1 would cut
//!   first as a voluntarily unplayed round.
//!
//! The initial order (C.04.2, [`League::close_sign_up`]): rating at the start, highest
//! first; equal ratings by sign-up order. Start ranks are `1..=n` in that order.
//!
//! # Results, forfeits and withdrawals
//!
//! A game ends with a [`LeagueResult`], from White's side. A game the loser lost without
//! both sides having moved is a forfeit (`+`/`-` in TRF-16, [`LeagueResult::from_game`]):
//! it scores like a win or a loss but is not a game played (its colour does not count,
//! C.04.3 A.6, and in a Swiss the two may meet again, C.04.3 C.1). A result decided by the engine's adjudication is
//! recorded with [`League::record_adjudicated_result`] and marked in the standings.
//!
//! A withdrawn player ([`League::withdraw`]) keeps the results of the games already played
//! (the service resigns the games they still have running). After their withdrawal:
//! - in a round-robin the Berger table keeps every start rank, and each later game of
//!   theirs is a forfeit win for the opponent (no game is started);
//! - in a Swiss they are not paired any more (`0000 - -` in their later rounds of the
//!   report).
//!
//! FIDE's rule that the results of a player who withdrew before playing half of the games
//! are cancelled is not applied: played games always count.
//!
//! # Rounds that never stall ([`round_due`])
//!
//! Every round has a deadline: its start plus [`LeagueSettings::round_length_secs`].
//! `round_due(league, now)` decides, from the stored times and results only:
//!
//! 1. **Sign-up**: [`RoundDue::CloseSignUp`] once the sign-up deadline has passed
//!    (`now >= deadline`) or the player limit is reached; otherwise wait until the
//!    deadline (or until called again when somebody joins).
//! 2. **Paused or finished**: nothing, no next check.
//! 3. **Signed up, no round yet** (`Running { round: 0 }`): [`RoundDue::StartNextRound`].
//! 4. **Round-robin, round `r` not the last**: [`RoundDue::StartNextRound`] at the round's
//!    deadline, whether or not games of round `r` are still running (a round-robin's
//!    pairings do not depend on results; a running game continues and counts when it ends);
//!    before it, wait until the deadline.
//! 5. **Swiss, round `r` not the last**: [`RoundDue::StartNextRound`] as soon as every game
//!    of round `r` has a result, deadline or not. Otherwise, from the deadline plus
//!    [`LeagueSettings::adjudication_grace_secs`] on, [`RoundDue::Adjudicate`] with the games
//!    still running (the next round's pairings depend on their results); before that, wait
//!    until the deadline plus the grace.
//! 6. **Last round**: [`RoundDue::Finish`] once every game of the league has a result (in a
//!    round-robin, games of earlier rounds may still be running); a Swiss adjudicates its
//!    last round's running games at its deadline plus grace like any other round; a
//!    round-robin waits for its games to end (their own time per move ends them), with no
//!    timed next check: call again when a game ends.
//!
//! # Example
//!
//! ```
//! use kaboom_domain::ids::{GameId, UserId};
//! use kaboom_domain::league::*;
//! use kaboom_pairing::berger::Cycles;
//! use kaboom_pairing::trf::Colour;
//! use kaboom_rules::{GameOptions, Variant};
//!
//! let format = LeagueFormat::RoundRobin { cycles: Cycles::Single, both_colours_at_once: false };
//! let settings = LeagueSettings {
//!     days_per_move: 3,
//!     round_length_secs: 7 * DAY,
//!     bye_value: ByeValue::Full,
//!     adjudication_grace_secs: 2 * DAY,
//!     rated: true,
//! };
//! let now = 1_700_000_000;
//! let mut league = League::new(
//!     "Atomic autumn", Variant::Atomic, GameOptions::default(), format, settings,
//!     SignUp { deadline: Some(now + DAY), player_limit: None }, now,
//! )?;
//! league.join(UserId(11), "Ada", 1800, now)?;
//! league.join(UserId(12), "Bea", 1900, now)?;
//! league.join(UserId(13), "Cy", 1700, now)?;
//! assert_eq!(round_due(&league, now + DAY), RoundDue::CloseSignUp);
//! league.close_sign_up(Colour::White)?; // Bea 1, Ada 2, Cy 3 (C.04.2 initial order)
//! assert_eq!(round_due(&league, now + DAY), RoundDue::StartNextRound);
//! // The Berger table of 4, round 1: 1-4 (4 is the dummy: a bye for Bea), 2-3.
//! let plan = next_round(&league)?;
//! assert_eq!(plan.games, [PlannedGame { pairing_round: 1, white: 2, black: 3 }]);
//! assert_eq!(plan.byes[0].start_rank, 1);
//! league.start_round(&plan, now + DAY, &[GameId(70)])?; // the service created game 70
//! league.record_result(GameId(70), LeagueResult::WhiteWins)?;
//! assert_eq!(round_due(&league, now + DAY), RoundDue::Wait { until: Some(now + 8 * DAY) });
//! assert_eq!(standings(&league)[0].standing.name, "Ada");
//! # Ok::<(), LeagueError>(())
//! ```

use kaboom_pairing::berger::{self, Cycles};
use kaboom_pairing::trf::{Colour, GameResult, Player, RoundRecord, Tournament};
use kaboom_pairing::{PairError, Score, Standing, System, TieBreak, tiebreak};
use kaboom_rules::{Color, GameOptions, Variant};

use crate::ids::{GameId, UserId};

/// Seconds in a day.
pub const DAY: i64 = 86_400;
/// The fewest players a league's player limit may be.
pub const MIN_PLAYER_LIMIT: u32 = 2;
/// The most players a league may have.
pub const MAX_PLAYERS: u32 = 64;
/// The longest league name, in characters.
pub const MAX_NAME_CHARS: usize = 100;
/// The most days per move a league may give (as `/challenge` allows).
pub const MAX_DAYS_PER_MOVE: u32 = 14;

/// How a league pairs its rounds.
#[derive(Copy, Clone, Eq, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeagueFormat {
    /// Round-robin by the Berger tables (FIDE Handbook C.05, Annex 1).
    RoundRobin {
        /// Single (every pair meets once) or double (twice, colours reversed).
        cycles: Cycles,
        /// Double round-robin only: both games of a pair start in the same round (one with
        /// each colour), so the league has the rounds of one cycle. Ignored for a single
        /// round-robin.
        both_colours_at_once: bool,
    },
    /// Swiss by the FIDE Dutch system (C.04.3) over a fixed number of rounds.
    Swiss {
        /// The number of rounds (at least 1, fewer than the players).
        rounds: u32,
    },
}

impl LeagueFormat {
    /// The fewest players the format can pair: 3 for a single round-robin, 2 for a double
    /// round-robin (a two-game match), `rounds + 1` for a Swiss (nobody can meet the same
    /// opponent twice, C.04.3 C.1).
    #[must_use]
    pub fn min_players(self) -> u32 {
        match self {
            LeagueFormat::RoundRobin {
                cycles: Cycles::Single,
                ..
            } => 3,
            LeagueFormat::RoundRobin {
                cycles: Cycles::Double,
                ..
            } => 2,
            LeagueFormat::Swiss { rounds } => (rounds + 1).max(2),
        }
    }

    fn plays_both_colours_at_once(self) -> bool {
        matches!(
            self,
            LeagueFormat::RoundRobin {
                cycles: Cycles::Double,
                both_colours_at_once: true
            }
        )
    }

    /// The number of pairing rounds (Berger or Swiss rounds, the rounds of the tournament
    /// report) for `players` players (0 for a round-robin of fewer than 2).
    #[must_use]
    pub fn pairing_rounds(self, players: u32) -> u32 {
        match self {
            LeagueFormat::RoundRobin { cycles, .. } => {
                berger::round_count(players, cycles).unwrap_or(0)
            }
            LeagueFormat::Swiss { rounds } => rounds,
        }
    }

    /// The number of league rounds for `players` players: the pairing rounds, halved when
    /// a double round-robin plays both colours at once.
    #[must_use]
    pub fn league_rounds(self, players: u32) -> u32 {
        let rounds = self.pairing_rounds(players);
        if self.plays_both_colours_at_once() {
            rounds / 2
        } else {
            rounds
        }
    }

    /// The tie-breaks of the standings (C.07): direct encounter, Sonneborn-Berger and wins
    /// for a round-robin; Buchholz Cut-1, Buchholz and Sonneborn-Berger for a Swiss.
    #[must_use]
    pub fn tie_breaks(self) -> &'static [TieBreak] {
        match self {
            LeagueFormat::RoundRobin { .. } => &TieBreak::ROUND_ROBIN,
            LeagueFormat::Swiss { .. } => &TieBreak::SWISS,
        }
    }
}

/// The points of a bye. In the tournament report ([`to_tournament`]) a Swiss bye is the
/// pairing-allocated bye `U` whatever its value, which sets [`Tournament::pab_points`]; a
/// round-robin's bye is always [`ByeValue::Zero`], written `Z`.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ByeValue {
    /// 1 point: the pairing-allocated bye of C.04.1.c, as FIDE scores it.
    #[default]
    Full,
    /// ½ point.
    Half,
    /// No points; also a round-robin's bye (C.05 Annex 1).
    Zero,
}

impl ByeValue {
    /// The points it scores.
    #[must_use]
    pub fn points(self) -> Score {
        match self {
            ByeValue::Full => Score::WIN,
            ByeValue::Half => Score::DRAW,
            ByeValue::Zero => Score::ZERO,
        }
    }
}

/// A league's settings, fixed at creation ([`validate`]).
#[derive(Copy, Clone, Eq, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
pub struct LeagueSettings {
    /// Days per move of every league game (1 to [`MAX_DAYS_PER_MOVE`]).
    pub days_per_move: u32,
    /// Seconds from a round's start to its deadline; at least one move's time
    /// (`days_per_move` days).
    pub round_length_secs: i64,
    /// Swiss: the points of the pairing-allocated bye (C.04.1.c). A round-robin's byes
    /// always score 0.
    pub bye_value: ByeValue,
    /// Swiss: seconds after a round's deadline before its running games are adjudicated.
    pub adjudication_grace_secs: i64,
    /// Whether league games are rated.
    pub rated: bool,
}

/// When sign-up closes: at a deadline, at a player limit, or whichever comes first. With
/// neither, the league starts when someone who manages it says so.
#[derive(Copy, Clone, Eq, PartialEq, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct SignUp {
    /// Sign-up closes at this time (Unix seconds).
    pub deadline: Option<i64>,
    /// Sign-up closes when this many players have joined ([`MIN_PLAYER_LIMIT`] to
    /// [`MAX_PLAYERS`]).
    pub player_limit: Option<u32>,
}

/// Where a league stands.
#[derive(Copy, Clone, Eq, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeagueStatus {
    /// Players may join and leave.
    SignUp,
    /// Seeded; `round` is the latest league round started (0 before the first).
    Running {
        /// The latest league round started (1-based; 0: none yet).
        round: u32,
    },
    /// Paused by someone who manages it: nothing is due; the round's deadline moves back by
    /// the pause's length on resuming.
    Paused {
        /// The latest league round started.
        round: u32,
        /// Paused at (Unix seconds).
        since: i64,
    },
    /// Over.
    Finished,
}

/// A player of a league.
#[derive(Clone, Eq, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
pub struct Entrant {
    /// During sign-up, the sign-up number (1 for the first to join); from the start, the
    /// start rank (pairing number) of the initial order (C.04.2).
    pub start_rank: u32,
    /// The player.
    pub user_id: UserId,
    /// Their display name (TRF-16 keeps 33 characters of it).
    pub name: String,
    /// Their rating in the league's variant when they joined (the shown rating), refreshed
    /// by the service before seeding if it wants.
    pub rating: u32,
    /// The last league round they took part in, once they withdrew (0: withdrew before
    /// round 1); `None` while they play.
    pub withdrawn_after_round: Option<u32>,
}

impl Entrant {
    /// Whether they are withdrawn from league round `round` (1-based).
    #[must_use]
    pub fn withdrawn_in(&self, round: u32) -> bool {
        self.withdrawn_after_round.is_some_and(|last| last < round)
    }
}

/// The result of a league game, from White's side.
#[derive(Copy, Clone, Eq, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeagueResult {
    /// White won (`1-0`).
    WhiteWins,
    /// Drawn (`½-½`).
    Draw,
    /// Black won (`0-1`).
    BlackWins,
    /// White won by forfeit: the game was not played (`+`/`-` in TRF-16).
    ForfeitWhiteWins,
    /// Black won by forfeit.
    ForfeitBlackWins,
    /// Both lost by forfeit (two withdrawn players of a round-robin).
    DoubleForfeit,
}

impl LeagueResult {
    /// The league result of a finished game: `winner` (`None` for a draw) and whether both
    /// sides made at least one move. A game lost before both sides moved (a time forfeit
    /// of a player who never moved) is a forfeit, as in FIDE practice a player who does
    /// not show up loses by forfeit; any other end is a game played.
    #[must_use]
    pub fn from_game(winner: Option<Color>, both_sides_moved: bool) -> LeagueResult {
        match (winner, both_sides_moved) {
            (None, _) => LeagueResult::Draw,
            (Some(Color::White), true) => LeagueResult::WhiteWins,
            (Some(Color::Black), true) => LeagueResult::BlackWins,
            (Some(Color::White), false) => LeagueResult::ForfeitWhiteWins,
            (Some(Color::Black), false) => LeagueResult::ForfeitBlackWins,
        }
    }

    /// The TRF-16 result codes of White and of Black.
    #[must_use]
    pub fn trf_results(self) -> (GameResult, GameResult) {
        match self {
            LeagueResult::WhiteWins => (GameResult::Win, GameResult::Loss),
            LeagueResult::Draw => (GameResult::Draw, GameResult::Draw),
            LeagueResult::BlackWins => (GameResult::Loss, GameResult::Win),
            LeagueResult::ForfeitWhiteWins => (GameResult::ForfeitWin, GameResult::ForfeitLoss),
            LeagueResult::ForfeitBlackWins => (GameResult::ForfeitLoss, GameResult::ForfeitWin),
            LeagueResult::DoubleForfeit => (GameResult::ForfeitLoss, GameResult::ForfeitLoss),
        }
    }

    /// Whether the game was played (not a forfeit).
    #[must_use]
    pub fn was_played(self) -> bool {
        matches!(
            self,
            LeagueResult::WhiteWins | LeagueResult::Draw | LeagueResult::BlackWins
        )
    }
}

/// One game of a league, started or forfeited.
#[derive(Copy, Clone, Eq, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
pub struct LeagueGame {
    /// The league round it belongs to (1-based).
    pub round: u32,
    /// Its round in the pairing and the tournament report (the Berger or Swiss round):
    /// `round`, except for the second game of a pair played with both colours at once
    /// (`round` plus the rounds of one cycle).
    pub pairing_round: u32,
    /// White's start rank.
    pub white: u32,
    /// Black's start rank.
    pub black: u32,
    /// The game played, `None` for a forfeit decided at the pairing (a withdrawn player).
    pub game: Option<GameId>,
    /// The result, `None` while the game runs.
    pub result: Option<LeagueResult>,
    /// Whether the result was decided by adjudication (the engine's evaluation).
    pub adjudicated: bool,
}

/// A bye: a player without an opponent in a round.
#[derive(Copy, Clone, Eq, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
pub struct LeagueBye {
    /// The league round (1-based).
    pub round: u32,
    /// The pairing round (as [`LeagueGame::pairing_round`]).
    pub pairing_round: u32,
    /// The player's start rank.
    pub start_rank: u32,
    /// Its points: the league's bye value in a Swiss, 0 in a round-robin.
    pub value: ByeValue,
}

/// A started league round.
#[derive(Copy, Clone, Eq, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
pub struct LeagueRound {
    /// The league round (1-based).
    pub round: u32,
    /// Started at (Unix seconds); moved back by pauses.
    pub started_at: i64,
}

/// A league: its settings and everything that happened in it.
#[derive(Clone, Eq, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
pub struct League {
    /// Its name (1 to [`MAX_NAME_CHARS`] characters).
    pub name: String,
    /// The variant of its games.
    pub variant: Variant,
    /// The options of its games.
    pub options: GameOptions,
    /// Round-robin or Swiss.
    pub format: LeagueFormat,
    /// Days per move, round length, bye value, grace, rated.
    pub settings: LeagueSettings,
    /// When sign-up closes.
    pub sign_up: SignUp,
    /// Created at (Unix seconds).
    pub created_at: i64,
    /// Where it stands.
    pub status: LeagueStatus,
    /// The colour of start rank 1 in round 1 of a Swiss (C.04.3 E.5, TRF `XXC`), drawn by
    /// the service at the start.
    pub initial_colour: Colour,
    /// The players: in sign-up order during sign-up, by start rank after.
    pub entrants: Vec<Entrant>,
    /// The rounds started, in order.
    pub rounds: Vec<LeagueRound>,
    /// Every game started or forfeited, in order of pairing.
    pub games: Vec<LeagueGame>,
    /// Every bye.
    pub byes: Vec<LeagueBye>,
}

/// Why a league action or setting is refused. The messages say what would be right.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LeagueError {
    /// The name is empty or too long.
    #[error("a league's name needs 1 to {max} characters")]
    BadName {
        /// The longest name allowed.
        max: usize,
    },
    /// A Swiss without rounds.
    #[error("a Swiss league needs at least 1 round")]
    NoRounds,
    /// A Swiss with as many rounds as players or more.
    #[error(
        "a Swiss league of {players} players can have at most {} rounds, not {rounds}",
        players.saturating_sub(1)
    )]
    TooManyRounds {
        /// The rounds asked for.
        rounds: u32,
        /// The players (the limit, or the players signed up).
        players: u32,
    },
    /// The player limit is outside the range or below the format's minimum.
    #[error("the player limit must be from {min} to {max}, not {limit}")]
    BadPlayerLimit {
        /// The limit asked for.
        limit: u32,
        /// The smallest limit the format allows.
        min: u32,
        /// The largest limit allowed.
        max: u32,
    },
    /// Days per move outside 1 to [`MAX_DAYS_PER_MOVE`].
    #[error("days per move must be from 1 to {max}, not {days}")]
    BadDaysPerMove {
        /// The days asked for.
        days: u32,
        /// The most days allowed.
        max: u32,
    },
    /// A round shorter than one move's time.
    #[error(
        "a round must last at least the time for one move ({need} seconds = {days_per_move} days), not {round_length_secs} seconds"
    )]
    RoundTooShort {
        /// The round length asked for (seconds).
        round_length_secs: i64,
        /// The days per move.
        days_per_move: u32,
        /// The shortest round allowed (seconds).
        need: i64,
    },
    /// A negative grace.
    #[error("the adjudication grace must be 0 seconds or more, not {grace_secs}")]
    NegativeGrace {
        /// The grace asked for (seconds).
        grace_secs: i64,
    },
    /// Too few players to start.
    #[error("the league needs at least {need} players to start, it has {have}")]
    TooFewPlayers {
        /// Players signed up.
        have: u32,
        /// Players needed.
        need: u32,
    },
    /// The player has already joined.
    #[error("you have already joined this league")]
    AlreadyJoined,
    /// The player is not in the league.
    #[error("you are not in this league")]
    NotAnEntrant,
    /// Sign-up is over (started, or the deadline passed).
    #[error("sign-up for this league is closed")]
    SignUpClosed,
    /// The player limit is reached.
    #[error("the league is full ({limit} players)")]
    LeagueFull {
        /// The limit.
        limit: u32,
    },
    /// The action needs a running league.
    #[error("the league is not running")]
    NotRunning,
    /// The action needs a paused league.
    #[error("the league is not paused")]
    NotPaused,
    /// Every round has been paired.
    #[error("all {rounds} rounds have been played")]
    AllRoundsPaired {
        /// The league rounds.
        rounds: u32,
    },
    /// A Swiss round cannot be paired while games of the previous one run.
    #[error("round {round} still has {running} games running")]
    RoundNotComplete {
        /// The round.
        round: u32,
        /// Its games without a result.
        running: u32,
    },
    /// The plan given to [`League::start_round`] is not for the next round, or the game ids
    /// do not match its games.
    #[error("this plan is not the next round's, or its game ids do not match")]
    StalePlan,
    /// No league game has this id.
    #[error("game {0} is not a game of this league")]
    UnknownGame(GameId),
    /// The game already has a result.
    #[error("game {0} already has a result")]
    ResultAlreadyRecorded(GameId),
    /// The player has already withdrawn.
    #[error("you have already withdrawn from this league")]
    AlreadyWithdrawn,
    /// The pairing crate found no pairing.
    #[error(transparent)]
    Pairing(#[from] PairError),
}

/// Checks a league's settings at creation: a name of 1 to [`MAX_NAME_CHARS`] characters;
/// days per move 1 to [`MAX_DAYS_PER_MOVE`]; a round at least one move's time long
/// (`round_length_secs >= days_per_move * DAY`); a grace of 0 seconds or more; a Swiss of at
/// least 1 round, and fewer rounds than the player limit (C.04.3 C.1: nobody meets an
/// opponent twice); a player limit from the format's minimum ([`LeagueFormat::min_players`],
/// at least [`MIN_PLAYER_LIMIT`]) to [`MAX_PLAYERS`].
///
/// # Errors
/// The first [`LeagueError`] found, whose message says what would be right.
pub fn validate(
    name: &str,
    format: LeagueFormat,
    settings: &LeagueSettings,
    sign_up: &SignUp,
) -> Result<(), LeagueError> {
    let chars = name.trim().chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS {
        return Err(LeagueError::BadName {
            max: MAX_NAME_CHARS,
        });
    }
    if settings.days_per_move == 0 || settings.days_per_move > MAX_DAYS_PER_MOVE {
        return Err(LeagueError::BadDaysPerMove {
            days: settings.days_per_move,
            max: MAX_DAYS_PER_MOVE,
        });
    }
    let need = i64::from(settings.days_per_move) * DAY;
    if settings.round_length_secs < need {
        return Err(LeagueError::RoundTooShort {
            round_length_secs: settings.round_length_secs,
            days_per_move: settings.days_per_move,
            need,
        });
    }
    if settings.adjudication_grace_secs < 0 {
        return Err(LeagueError::NegativeGrace {
            grace_secs: settings.adjudication_grace_secs,
        });
    }
    if let LeagueFormat::Swiss { rounds } = format {
        if rounds == 0 {
            return Err(LeagueError::NoRounds);
        }
        if rounds >= MAX_PLAYERS {
            return Err(LeagueError::TooManyRounds {
                rounds,
                players: MAX_PLAYERS,
            });
        }
    }
    if let Some(limit) = sign_up.player_limit {
        if let LeagueFormat::Swiss { rounds } = format
            && rounds >= limit
        {
            return Err(LeagueError::TooManyRounds {
                rounds,
                players: limit,
            });
        }
        let min = format.min_players().max(MIN_PLAYER_LIMIT);
        if limit < min || limit > MAX_PLAYERS {
            return Err(LeagueError::BadPlayerLimit {
                limit,
                min,
                max: MAX_PLAYERS,
            });
        }
    }
    Ok(())
}

/// The pairings of one league round, to be started with [`League::start_round`].
#[derive(Clone, Eq, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
pub struct RoundPlan {
    /// The league round (1-based).
    pub round: u32,
    /// The games to start, board order (two per pair when a double round-robin plays both
    /// colours at once).
    pub games: Vec<PlannedGame>,
    /// The byes.
    pub byes: Vec<LeagueBye>,
    /// The games not played because a player withdrew: forfeits, with their result.
    pub forfeits: Vec<LeagueGame>,
}

/// A game to start.
#[derive(Copy, Clone, Eq, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
pub struct PlannedGame {
    /// Its pairing round ([`LeagueGame::pairing_round`]).
    pub pairing_round: u32,
    /// White's start rank.
    pub white: u32,
    /// Black's start rank.
    pub black: u32,
}

/// What a league owes at a time ([`round_due`]).
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum RoundDue {
    /// Nothing now; look again at `until` (Unix seconds; `None`: only when something
    /// happens, a join, a result, a resume).
    Wait {
        /// The next time something can be due.
        until: Option<i64>,
    },
    /// Close sign-up ([`League::close_sign_up`]), then start round 1.
    CloseSignUp,
    /// Pair and start the next round ([`next_round`], [`League::start_round`]).
    StartNextRound,
    /// Adjudicate these running games (Swiss, deadline plus grace passed), then record
    /// their results with [`League::record_adjudicated_result`].
    Adjudicate {
        /// The running games of the round, in pairing order.
        games: Vec<GameId>,
    },
    /// Every game has a result after the last round: finish ([`League::finish`]).
    Finish,
}

impl League {
    /// A new league in sign-up, after [`validate`].
    ///
    /// # Errors
    /// As [`validate`].
    pub fn new(
        name: &str,
        variant: Variant,
        options: GameOptions,
        format: LeagueFormat,
        settings: LeagueSettings,
        sign_up: SignUp,
        created_at: i64,
    ) -> Result<League, LeagueError> {
        validate(name, format, &settings, &sign_up)?;
        Ok(League {
            name: name.trim().to_owned(),
            variant,
            options,
            format,
            settings,
            sign_up,
            created_at,
            status: LeagueStatus::SignUp,
            initial_colour: Colour::White,
            entrants: Vec::new(),
            rounds: Vec::new(),
            games: Vec::new(),
            byes: Vec::new(),
        })
    }

    /// The entrant with start rank `start_rank`.
    #[must_use]
    pub fn entrant(&self, start_rank: u32) -> Option<&Entrant> {
        self.entrants.iter().find(|e| e.start_rank == start_rank)
    }

    /// The entrant who is `user`.
    #[must_use]
    pub fn entrant_by_user(&self, user: UserId) -> Option<&Entrant> {
        self.entrants.iter().find(|e| e.user_id == user)
    }

    /// The latest league round started (0 before the first and during sign-up; the last
    /// round once finished).
    #[must_use]
    pub fn current_round(&self) -> u32 {
        match self.status {
            LeagueStatus::SignUp => 0,
            LeagueStatus::Running { round } | LeagueStatus::Paused { round, .. } => round,
            LeagueStatus::Finished => self.rounds.len() as u32,
        }
    }

    /// The number of league rounds for the players signed up ([`LeagueFormat::league_rounds`]).
    #[must_use]
    pub fn round_count(&self) -> u32 {
        self.format.league_rounds(self.entrants.len() as u32)
    }

    /// The deadline of league round `round` (Unix seconds): its start plus the round
    /// length; `None` if it has not started.
    #[must_use]
    pub fn round_deadline(&self, round: u32) -> Option<i64> {
        self.rounds
            .iter()
            .find(|r| r.round == round)
            .map(|r| r.started_at + self.settings.round_length_secs)
    }

    /// When the next league round starts if started at `now` (Unix seconds): for a
    /// round-robin, the current round's deadline if it has passed, so that the schedule
    /// does not drift by the scheduler's delays; otherwise (a Swiss, or the first round)
    /// `now`. The time to give [`League::start_round`].
    #[must_use]
    pub fn next_round_starts_at(&self, now: i64) -> i64 {
        match self.format {
            LeagueFormat::RoundRobin { .. } => self
                .round_deadline(self.current_round())
                .map_or(now, |deadline| deadline.min(now)),
            LeagueFormat::Swiss { .. } => now,
        }
    }

    /// Whether sign-up is over at `now`: the league started, the deadline passed, or the
    /// player limit is reached.
    #[must_use]
    pub fn sign_up_closed(&self, now: i64) -> bool {
        self.status != LeagueStatus::SignUp
            || self
                .sign_up
                .deadline
                .is_some_and(|deadline| now >= deadline)
            || self
                .sign_up
                .player_limit
                .is_some_and(|limit| self.entrants.len() as u32 >= limit)
    }

    /// Signs `user` up with their display name and rating; returns their sign-up number.
    ///
    /// # Errors
    /// [`LeagueError::AlreadyJoined`], [`LeagueError::LeagueFull`] at the player limit (or
    /// [`MAX_PLAYERS`]), [`LeagueError::SignUpClosed`] after the start or the deadline.
    pub fn join(
        &mut self,
        user: UserId,
        name: &str,
        rating: u32,
        now: i64,
    ) -> Result<u32, LeagueError> {
        if self.entrant_by_user(user).is_some() {
            return Err(LeagueError::AlreadyJoined);
        }
        let limit = self.sign_up.player_limit.unwrap_or(MAX_PLAYERS);
        if self.status == LeagueStatus::SignUp && self.entrants.len() as u32 >= limit {
            return Err(LeagueError::LeagueFull { limit });
        }
        if self.sign_up_closed(now) {
            return Err(LeagueError::SignUpClosed);
        }
        let number = self.entrants.len() as u32 + 1;
        self.entrants.push(Entrant {
            start_rank: number,
            user_id: user,
            name: name.to_owned(),
            rating,
            withdrawn_after_round: None,
        });
        Ok(number)
    }

    /// Takes `user` off the list during sign-up (the later sign-up numbers move up).
    ///
    /// # Errors
    /// [`LeagueError::SignUpClosed`] once the league started (withdraw instead),
    /// [`LeagueError::NotAnEntrant`].
    pub fn leave(&mut self, user: UserId) -> Result<(), LeagueError> {
        if self.status != LeagueStatus::SignUp {
            return Err(LeagueError::SignUpClosed);
        }
        let before = self.entrants.len();
        self.entrants.retain(|e| e.user_id != user);
        if self.entrants.len() == before {
            return Err(LeagueError::NotAnEntrant);
        }
        for (index, entrant) in self.entrants.iter_mut().enumerate() {
            entrant.start_rank = index as u32 + 1;
        }
        Ok(())
    }

    /// Closes sign-up and seeds the players by the initial order of C.04.2: rating,
    /// highest first, equal ratings by sign-up order; start ranks `1..=n`. `initial_colour`
    /// is the colour of start rank 1 in a Swiss's round 1 (C.04.3 E.5, drawn by the
    /// service). The league is then `Running { round: 0 }`: round 1 is due.
    ///
    /// # Errors
    /// [`LeagueError::SignUpClosed`] if not in sign-up; [`LeagueError::TooFewPlayers`] below
    /// the format's minimum ([`LeagueFormat::min_players`]); the league stays in sign-up.
    pub fn close_sign_up(&mut self, initial_colour: Colour) -> Result<(), LeagueError> {
        if self.status != LeagueStatus::SignUp {
            return Err(LeagueError::SignUpClosed);
        }
        let have = self.entrants.len() as u32;
        let need = self.format.min_players();
        if have < need {
            return Err(LeagueError::TooFewPlayers { have, need });
        }
        // Stable: equal ratings keep sign-up order.
        self.entrants
            .sort_by_key(|e| (std::cmp::Reverse(e.rating), e.start_rank));
        for (index, entrant) in self.entrants.iter_mut().enumerate() {
            entrant.start_rank = index as u32 + 1;
        }
        self.initial_colour = initial_colour;
        self.status = LeagueStatus::Running { round: 0 };
        Ok(())
    }

    /// Starts `plan`'s round at `started_at` (Unix seconds): records its games with
    /// `game_ids` (one per [`RoundPlan::games`], same order), its byes and forfeits.
    ///
    /// # Errors
    /// [`LeagueError::NotRunning`]; [`LeagueError::StalePlan`] if the plan is not for the
    /// round after the current one or the ids do not match its games.
    pub fn start_round(
        &mut self,
        plan: &RoundPlan,
        started_at: i64,
        game_ids: &[GameId],
    ) -> Result<(), LeagueError> {
        let LeagueStatus::Running { round } = self.status else {
            return Err(LeagueError::NotRunning);
        };
        if plan.round != round + 1 || game_ids.len() != plan.games.len() {
            return Err(LeagueError::StalePlan);
        }
        for (planned, &id) in plan.games.iter().zip(game_ids) {
            self.games.push(LeagueGame {
                round: plan.round,
                pairing_round: planned.pairing_round,
                white: planned.white,
                black: planned.black,
                game: Some(id),
                result: None,
                adjudicated: false,
            });
        }
        self.games.extend(plan.forfeits.iter().copied());
        self.byes.extend(plan.byes.iter().copied());
        self.rounds.push(LeagueRound {
            round: plan.round,
            started_at,
        });
        self.status = LeagueStatus::Running { round: plan.round };
        Ok(())
    }

    fn game_mut(&mut self, game: GameId) -> Result<&mut LeagueGame, LeagueError> {
        let record = self
            .games
            .iter_mut()
            .find(|g| g.game == Some(game))
            .ok_or(LeagueError::UnknownGame(game))?;
        if record.result.is_some() {
            return Err(LeagueError::ResultAlreadyRecorded(game));
        }
        Ok(record)
    }

    /// Records the result of a league game that ended (on the board, by resignation, agreed
    /// draw or time forfeit: [`LeagueResult::from_game`]).
    ///
    /// # Errors
    /// [`LeagueError::UnknownGame`], [`LeagueError::ResultAlreadyRecorded`].
    pub fn record_result(&mut self, game: GameId, result: LeagueResult) -> Result<(), LeagueError> {
        self.game_mut(game)?.result = Some(result);
        Ok(())
    }

    /// Records the result the adjudication decided for a game still running at a Swiss
    /// round's deadline plus grace ([`RoundDue::Adjudicate`]); the standings mark it.
    ///
    /// # Errors
    /// As [`League::record_result`].
    pub fn record_adjudicated_result(
        &mut self,
        game: GameId,
        result: LeagueResult,
    ) -> Result<(), LeagueError> {
        let record = self.game_mut(game)?;
        record.result = Some(result);
        record.adjudicated = true;
        Ok(())
    }

    /// Withdraws `user` after the current round: their played games count, their later
    /// games are forfeits (round-robin) or they are no longer paired (Swiss). Returns their
    /// games still running, which the service ends by resignation (their results then come
    /// through [`League::record_result`]).
    ///
    /// # Errors
    /// [`LeagueError::NotRunning`] during sign-up (leave instead) or once finished;
    /// [`LeagueError::NotAnEntrant`]; [`LeagueError::AlreadyWithdrawn`].
    pub fn withdraw(&mut self, user: UserId) -> Result<Vec<GameId>, LeagueError> {
        let round = match self.status {
            LeagueStatus::Running { round } | LeagueStatus::Paused { round, .. } => round,
            LeagueStatus::SignUp | LeagueStatus::Finished => return Err(LeagueError::NotRunning),
        };
        let entrant = self
            .entrants
            .iter_mut()
            .find(|e| e.user_id == user)
            .ok_or(LeagueError::NotAnEntrant)?;
        if entrant.withdrawn_after_round.is_some() {
            return Err(LeagueError::AlreadyWithdrawn);
        }
        entrant.withdrawn_after_round = Some(round);
        let rank = entrant.start_rank;
        Ok(self
            .games
            .iter()
            .filter(|g| g.result.is_none() && (g.white == rank || g.black == rank))
            .filter_map(|g| g.game)
            .collect())
    }

    /// Pauses a running league at `now` (Unix seconds).
    ///
    /// # Errors
    /// [`LeagueError::NotRunning`].
    pub fn pause(&mut self, now: i64) -> Result<(), LeagueError> {
        let LeagueStatus::Running { round } = self.status else {
            return Err(LeagueError::NotRunning);
        };
        self.status = LeagueStatus::Paused { round, since: now };
        Ok(())
    }

    /// Resumes a paused league at `now`: the current round's start (so its deadline) moves
    /// back by the pause's length.
    ///
    /// # Errors
    /// [`LeagueError::NotPaused`].
    pub fn resume(&mut self, now: i64) -> Result<(), LeagueError> {
        let LeagueStatus::Paused { round, since } = self.status else {
            return Err(LeagueError::NotPaused);
        };
        if let Some(current) = self.rounds.iter_mut().find(|r| r.round == round) {
            current.started_at += (now - since).max(0);
        }
        self.status = LeagueStatus::Running { round };
        Ok(())
    }

    /// Calls the league off during sign-up (its sign-up closed with too few players to
    /// pair): it is finished without a round ([`League::was_cancelled`]).
    ///
    /// # Errors
    /// [`LeagueError::SignUpClosed`] once it started.
    pub fn cancel(&mut self) -> Result<(), LeagueError> {
        if self.status != LeagueStatus::SignUp {
            return Err(LeagueError::SignUpClosed);
        }
        self.status = LeagueStatus::Finished;
        Ok(())
    }

    /// Whether the league was called off before its first round ([`League::cancel`]).
    #[must_use]
    pub fn was_cancelled(&self) -> bool {
        self.status == LeagueStatus::Finished && self.rounds.is_empty()
    }

    /// Marks the league finished (when [`round_due`] says [`RoundDue::Finish`]).
    ///
    /// # Errors
    /// [`LeagueError::NotRunning`].
    pub fn finish(&mut self) -> Result<(), LeagueError> {
        if !matches!(self.status, LeagueStatus::Running { .. }) {
            return Err(LeagueError::NotRunning);
        }
        self.status = LeagueStatus::Finished;
        Ok(())
    }

    fn running_games(&self, round: u32) -> Vec<GameId> {
        self.games
            .iter()
            .filter(|g| g.round == round && g.result.is_none())
            .filter_map(|g| g.game)
            .collect()
    }
}

/// The league as a FIDE tournament report (TRF-16, [`Tournament::to_trf`]): one player per
/// entrant by start rank with their rating at the start; per pairing round, every game with
/// a result (`1 = 0`, forfeits `+ -`), every bye (round-robin `Z`; Swiss `U`, the
/// pairing-allocated bye, worth the league's bye value: [`Tournament::pab_points`], written
/// as `XXS PAB=` and `BBU` lines unless it is 1 point), and for a Swiss player who withdrew,
/// `0000 - -` in each later round started. Games still running are left out (blank) until
/// they end. `XXR` holds the pairing rounds, `XXC` the initial colour of a Swiss, a `012`
/// line the league's name; each player line holds the points and the rank of the standings
/// ([`standings`]).
/// Pairing, standings and export all use this one conversion.
#[must_use]
pub fn to_tournament(league: &League) -> Tournament {
    with_standings(tournament_through(league, league.current_round()), league)
}

/// [`to_tournament`], plus for a Swiss the next round's absences of the withdrawn players
/// (`0000 - -`, C.04.2: not to be paired): the report the next round is paired from. Give
/// its TRF text to bbpPairings or JaVaFo to check a pairing: its player lines hold the
/// points of the games played, which both programs check against the results.
#[must_use]
pub fn pairing_tournament(league: &League) -> Tournament {
    let next = league.current_round() + 1;
    with_standings(tournament_through(league, next), league)
}

/// `tournament` with each player line's points and rank from the league's standings (the
/// absences of the next round score nothing, so they change neither).
fn with_standings(mut tournament: Tournament, league: &League) -> Tournament {
    for line in tiebreak::standings_with(&tournament, league.format.tie_breaks()) {
        if let Some(player) = tournament
            .players
            .iter_mut()
            .find(|p| p.start_rank == line.start_rank)
        {
            player.points = line.points;
            player.rank = line.rank;
        }
    }
    tournament
}

fn tournament_through(league: &League, withdrawn_through: u32) -> Tournament {
    let players = league.entrants.len() as u32;
    let mut tournament = Tournament {
        players: league
            .entrants
            .iter()
            .map(|e| Player::new(e.start_rank, &one_line(&e.name), e.rating))
            .collect(),
        planned_rounds: Some(league.format.pairing_rounds(players)),
        initial_colour: match league.format {
            LeagueFormat::Swiss { .. } => Some(league.initial_colour),
            LeagueFormat::RoundRobin { .. } => None,
        },
        pab_points: match league.format {
            LeagueFormat::Swiss { .. } => league.settings.bye_value.points(),
            LeagueFormat::RoundRobin { .. } => Score::WIN,
        },
        other_lines: vec![(0, format!("012 {}", one_line(&league.name)))],
    };
    // A Swiss bye is the pairing-allocated bye (C.04.1.c) whatever it is worth; a
    // round-robin's is the dummy number's, worth nothing.
    let bye_result = match league.format {
        LeagueFormat::Swiss { .. } => GameResult::PairingAllocatedBye,
        LeagueFormat::RoundRobin { .. } => GameResult::ZeroPointBye,
    };
    let mut set = |start_rank: u32, round: u32, record: RoundRecord| {
        if let Some(player) = tournament
            .players
            .iter_mut()
            .find(|p| p.start_rank == start_rank)
        {
            let index = round as usize - 1;
            if player.games.len() <= index {
                player.games.resize(index + 1, RoundRecord::NOT_PAIRED);
            }
            player.games[index] = record;
        }
    };
    for game in &league.games {
        let Some(result) = game.result else { continue };
        let (white, black) = result.trf_results();
        set(
            game.white,
            game.pairing_round,
            RoundRecord {
                opponent: Some(game.black),
                colour: Some(Colour::White),
                result: white,
            },
        );
        set(
            game.black,
            game.pairing_round,
            RoundRecord {
                opponent: Some(game.white),
                colour: Some(Colour::Black),
                result: black,
            },
        );
    }
    for bye in &league.byes {
        set(
            bye.start_rank,
            bye.pairing_round,
            RoundRecord {
                opponent: None,
                colour: None,
                result: bye_result,
            },
        );
    }
    if let LeagueFormat::Swiss { rounds } = league.format {
        for entrant in &league.entrants {
            if let Some(last) = entrant.withdrawn_after_round {
                for round in last + 1..=withdrawn_through.min(rounds) {
                    set(
                        entrant.start_rank,
                        round,
                        RoundRecord {
                            opponent: None,
                            colour: None,
                            result: GameResult::ForfeitLoss,
                        },
                    );
                }
            }
        }
    }
    tournament
}

/// `text` with control characters (line breaks) as spaces: one TRF-16 line.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// The pairings of the next league round: round-robin by the Berger table of every start
/// rank (C.05 Annex 1; a withdrawn player's games become forfeit wins for the opponent, no
/// game started; both Berger rounds of a pair when a double round-robin plays both colours
/// at once); Swiss by the Dutch system (C.04.3, [`System::Dutch`]) on
/// [`pairing_tournament`], without the withdrawn players, the bye scoring the league's bye
/// value.
///
/// A round-robin reads its round from the Berger table by the league's round number
/// ([`berger::round_robin_pairings`], what [`kaboom_pairing::pair`] does for
/// [`System::Berger`]) rather than from the report, whose latest rounds may hold only games
/// still running; a Swiss is paired by [`kaboom_pairing::pair`] on the report.
///
/// # Errors
/// [`LeagueError::NotRunning`] unless running; [`LeagueError::AllRoundsPaired`] after the
/// last round; [`LeagueError::RoundNotComplete`] for a Swiss whose current round has games
/// running; [`LeagueError::Pairing`] if the pairing crate finds no pairing.
pub fn next_round(league: &League) -> Result<RoundPlan, LeagueError> {
    let LeagueStatus::Running { round: current } = league.status else {
        return Err(LeagueError::NotRunning);
    };
    let rounds = league.round_count();
    if current >= rounds {
        return Err(LeagueError::AllRoundsPaired { rounds });
    }
    let round = current + 1;
    let players = league.entrants.len() as u32;
    let mut plan = RoundPlan {
        round,
        games: Vec::new(),
        byes: Vec::new(),
        forfeits: Vec::new(),
    };
    match league.format {
        LeagueFormat::RoundRobin { cycles, .. } => {
            let per_cycle = berger::table_size(players) - 1;
            let mut pairing_rounds = vec![round];
            if league.format.plays_both_colours_at_once() {
                pairing_rounds.push(round + per_cycle);
            }
            let withdrawn = |rank: u32| league.entrant(rank).is_some_and(|e| e.withdrawn_in(round));
            for pairing_round in pairing_rounds {
                let pairings = berger::round_robin_pairings(players, pairing_round, cycles)
                    .map_err(PairError::from)?;
                for pair in pairings.pairs {
                    let result = match (withdrawn(pair.white), withdrawn(pair.black)) {
                        (false, false) => None,
                        (false, true) => Some(LeagueResult::ForfeitWhiteWins),
                        (true, false) => Some(LeagueResult::ForfeitBlackWins),
                        (true, true) => Some(LeagueResult::DoubleForfeit),
                    };
                    match result {
                        None => plan.games.push(PlannedGame {
                            pairing_round,
                            white: pair.white,
                            black: pair.black,
                        }),
                        Some(result) => plan.forfeits.push(LeagueGame {
                            round,
                            pairing_round,
                            white: pair.white,
                            black: pair.black,
                            game: None,
                            result: Some(result),
                            adjudicated: false,
                        }),
                    }
                }
                plan.byes
                    .extend(pairings.byes.into_iter().map(|start_rank| LeagueBye {
                        round,
                        pairing_round,
                        start_rank,
                        value: ByeValue::Zero,
                    }));
            }
        }
        LeagueFormat::Swiss { .. } => {
            let running = league.running_games(current).len() as u32;
            if running > 0 {
                return Err(LeagueError::RoundNotComplete {
                    round: current,
                    running,
                });
            }
            let pairings = kaboom_pairing::pair(&pairing_tournament(league), System::Dutch)?;
            plan.games = pairings
                .pairs
                .iter()
                .map(|pair| PlannedGame {
                    pairing_round: round,
                    white: pair.white,
                    black: pair.black,
                })
                .collect();
            plan.byes = pairings
                .byes
                .iter()
                .map(|&start_rank| LeagueBye {
                    round,
                    pairing_round: round,
                    start_rank,
                    value: league.settings.bye_value,
                })
                .collect();
        }
    }
    Ok(plan)
}

/// What `league` owes at `now` (Unix seconds), by the rules of the module documentation
/// ("Rounds that never stall").
#[must_use]
pub fn round_due(league: &League, now: i64) -> RoundDue {
    let round = match league.status {
        LeagueStatus::SignUp => {
            return if league.sign_up_closed(now) {
                RoundDue::CloseSignUp
            } else {
                RoundDue::Wait {
                    until: league.sign_up.deadline,
                }
            };
        }
        LeagueStatus::Paused { .. } | LeagueStatus::Finished => {
            return RoundDue::Wait { until: None };
        }
        LeagueStatus::Running { round } => round,
    };
    if round == 0 {
        return RoundDue::StartNextRound;
    }
    let last = round >= league.round_count();
    let deadline = league
        .round_deadline(round)
        .unwrap_or(league.created_at + league.settings.round_length_secs);
    match league.format {
        LeagueFormat::RoundRobin { .. } => {
            if last {
                if league.games.iter().all(|g| g.result.is_some()) {
                    RoundDue::Finish
                } else {
                    RoundDue::Wait { until: None }
                }
            } else if now >= deadline {
                RoundDue::StartNextRound
            } else {
                RoundDue::Wait {
                    until: Some(deadline),
                }
            }
        }
        LeagueFormat::Swiss { .. } => {
            let running = league.running_games(round);
            let adjudicate_at = deadline + league.settings.adjudication_grace_secs;
            if running.is_empty() {
                if last {
                    RoundDue::Finish
                } else {
                    RoundDue::StartNextRound
                }
            } else if now >= adjudicate_at {
                RoundDue::Adjudicate { games: running }
            } else {
                RoundDue::Wait {
                    until: Some(adjudicate_at),
                }
            }
        }
    }
}

/// One line of a league's standings.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LeagueStanding {
    /// Rank, start rank, name, points and the C.07 tie-breaks, from the pairing crate.
    pub standing: Standing,
    /// The player.
    pub user_id: UserId,
    /// Whether they withdrew.
    pub withdrawn: bool,
    /// The league rounds of their byes (shown as byes; a round-robin's score 0).
    pub bye_rounds: Vec<u32>,
    /// The league rounds in which a result of theirs was decided by adjudication.
    pub adjudicated_rounds: Vec<u32>,
}

/// The standings: points, then the tie-breaks of C.07 for the format
/// ([`LeagueFormat::tie_breaks`]), computed by the pairing crate from [`to_tournament`]
/// (games still running do not count yet), with each player's byes and adjudicated results.
#[must_use]
pub fn standings(league: &League) -> Vec<LeagueStanding> {
    let tournament = to_tournament(league);
    tiebreak::standings_with(&tournament, league.format.tie_breaks())
        .into_iter()
        .filter_map(|standing| {
            let entrant = league.entrant(standing.start_rank)?;
            let rank = entrant.start_rank;
            let mut bye_rounds: Vec<u32> = league
                .byes
                .iter()
                .filter(|b| b.start_rank == rank)
                .map(|b| b.round)
                .collect();
            bye_rounds.dedup();
            let adjudicated_rounds = league
                .games
                .iter()
                .filter(|g| g.adjudicated && (g.white == rank || g.black == rank))
                .map(|g| g.round)
                .collect();
            Some(LeagueStanding {
                user_id: entrant.user_id,
                withdrawn: entrant.withdrawn_after_round.is_some(),
                bye_rounds,
                adjudicated_rounds,
                standing,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kaboom_pairing::tiebreak::TieBreakValue;

    const START: i64 = 1_000_000;
    const ROUND: i64 = 7 * DAY;
    const GRACE: i64 = 2 * DAY;

    fn settings() -> LeagueSettings {
        LeagueSettings {
            days_per_move: 3,
            round_length_secs: ROUND,
            bye_value: ByeValue::Full,
            adjudication_grace_secs: GRACE,
            rated: true,
        }
    }

    /// A league of `format` with the players `(name, rating)` signed up in this order (user
    /// ids 1, 2, ...) and seeded.
    fn seeded(format: LeagueFormat, players: &[(&str, u32)]) -> League {
        let mut league = League::new(
            "Autumn league",
            Variant::Atomic,
            GameOptions::default(),
            format,
            settings(),
            SignUp::default(),
            START,
        )
        .unwrap();
        for (index, (name, rating)) in players.iter().enumerate() {
            league
                .join(UserId(index as u64 + 1), name, *rating, START)
                .unwrap();
        }
        league.close_sign_up(Colour::White).unwrap();
        league
    }

    /// Starts the next round at `now` with game ids from `next_id`; returns the plan.
    fn start_next(league: &mut League, now: i64, next_id: &mut i64) -> RoundPlan {
        let plan = next_round(league).unwrap();
        let ids: Vec<GameId> = plan
            .games
            .iter()
            .map(|_| {
                *next_id += 1;
                GameId(*next_id)
            })
            .collect();
        league.start_round(&plan, now, &ids).unwrap();
        plan
    }

    /// Records `rule(white, black)` for every running game of the current round.
    fn play_out(league: &mut League, rule: impl Fn(u32, u32) -> LeagueResult) {
        let round = league.current_round();
        let running: Vec<(GameId, u32, u32)> = league
            .games
            .iter()
            .filter(|g| g.round == round && g.result.is_none())
            .map(|g| (g.game.unwrap(), g.white, g.black))
            .collect();
        for (id, white, black) in running {
            league.record_result(id, rule(white, black)).unwrap();
        }
    }

    /// (rank, start rank, points, tie-break values) of every line.
    fn table(league: &League) -> Vec<(u32, u32, f64, Vec<Option<f64>>)> {
        standings(league)
            .into_iter()
            .map(|line| {
                let values = line
                    .standing
                    .tie_breaks
                    .iter()
                    .map(|TieBreakValue { value, .. }| *value)
                    .collect();
                (
                    line.standing.rank,
                    line.standing.start_rank,
                    line.standing.points.as_points(),
                    values,
                )
            })
            .collect()
    }

    /// White wins every played game, except that start rank 1 beats start rank 2 with
    /// either colour.
    fn white_wins_but_1_beats_2(white: u32, black: u32) -> LeagueResult {
        match (white, black) {
            (2, 1) => LeagueResult::BlackWins,
            _ => LeagueResult::WhiteWins,
        }
    }

    /// The higher-placed player of the initial order (the lower start rank) wins.
    fn higher_seed_wins(white: u32, black: u32) -> LeagueResult {
        if white < black {
            LeagueResult::WhiteWins
        } else {
            LeagueResult::BlackWins
        }
    }

    #[test]
    fn a_double_round_robin_with_a_withdrawal_is_played_to_the_end() {
        // Sign-up order and ratings; the initial order (C.04.2) is by rating, equal
        // ratings by sign-up order: Bea signed up before Cy, Dan before Eve.
        let mut league = seeded(
            LeagueFormat::RoundRobin {
                cycles: Cycles::Double,
                both_colours_at_once: false,
            },
            &[
                ("Hal", 1700),
                ("Bea", 2000),
                ("Jo", 1400),
                ("Ada", 2200),
                ("Cy", 2000),
                ("Ivy", 1600),
                ("Dan", 1900),
                ("Gus", 1750),
                ("Fay", 1800),
                ("Eve", 1900),
            ],
        );
        let names: Vec<(u32, &str, u64)> = league
            .entrants
            .iter()
            .map(|e| (e.start_rank, e.name.as_str(), e.user_id.get()))
            .collect();
        assert_eq!(
            names,
            [
                (1, "Ada", 4),
                (2, "Bea", 2),
                (3, "Cy", 5),
                (4, "Dan", 7),
                (5, "Eve", 10),
                (6, "Fay", 9),
                (7, "Gus", 8),
                (8, "Hal", 1),
                (9, "Ivy", 6),
                (10, "Jo", 3),
            ]
        );
        assert_eq!(league.round_count(), 18);
        assert_eq!(round_due(&league, START), RoundDue::StartNextRound);
        let mut id = 0;
        for round in 1..=18u32 {
            let now = START + i64::from(round - 1) * ROUND;
            if round > 1 {
                // The round-robin waits for the deadline, then starts the next round.
                assert_eq!(
                    round_due(&league, now - 1),
                    RoundDue::Wait { until: Some(now) }
                );
                assert_eq!(round_due(&league, now), RoundDue::StartNextRound);
            }
            let plan = start_next(&mut league, now, &mut id);
            if round == 6 {
                // Berger table of 10, round 6: 10-8, 9-7, 1-6, 2-5, 3-4. Jo (10) withdrew
                // after round 5: Hal (8) wins by forfeit, no game is started.
                let games: Vec<(u32, u32)> =
                    plan.games.iter().map(|g| (g.white, g.black)).collect();
                assert_eq!(games, [(9, 7), (1, 6), (2, 5), (3, 4)]);
                assert_eq!(
                    plan.forfeits,
                    [LeagueGame {
                        round: 6,
                        pairing_round: 6,
                        white: 10,
                        black: 8,
                        game: None,
                        result: Some(LeagueResult::ForfeitBlackWins),
                        adjudicated: false,
                    }]
                );
            }
            play_out(&mut league, white_wins_but_1_beats_2);
            if round == 5 {
                assert_eq!(league.withdraw(UserId(3)), Ok(Vec::new()));
                assert_eq!(
                    league.withdraw(UserId(3)),
                    Err(LeagueError::AlreadyWithdrawn)
                );
            }
        }
        assert_eq!(round_due(&league, START + 18 * ROUND), RoundDue::Finish);
        assert_eq!(
            next_round(&league),
            Err(LeagueError::AllRoundsPaired { rounds: 18 })
        );
        // Jo (10) played rounds 1-5 of the Berger table of 10 (C.05 Annex 1):
        // 1-10, 10-6, 2-10, 10-7, 3-10. White wins: Jo beat Fay (6) and Gus (7), lost to
        // Ada (1), Bea (2) and Cy (3). Jo's 13 later games are forfeit wins of the opponent:
        // Ada, Bea, Cy, Fay and Gus once (the second cycle), Dan, Eve, Hal, Ivy twice.
        //
        // Points: every pair without Jo splits its two games 1-1 (White wins), except that
        // Ada beats Bea twice. So, with the 2 points against Jo:
        //   Ada 7 (3..9) + 2 (Bea) + 2 (Jo) = 11;  Bea 7 + 0 + 2 = 9;
        //   Cy, Dan, Eve, Hal, Ivy 8 + 2 = 10;  Fay, Gus 8 + 1 = 9;  Jo 2.
        // Sum 90 = the 90 games.
        //
        // Direct encounter (C.07 art. 6) within the tied groups: every pair split its
        // games, so each scores 1 per other member: {3,4,5,8,9} 4.0 each, {2,6,7} 2.0 each.
        //
        // Sonneborn-Berger (C.07 art. 9 and 16: a forfeit win counts the player's own score):
        //   Ada: 2 x Bea 9 + (Cy..Ivy: 10+10+10+9+9+10+10 = 68) + Jo 2 + own 11 = 99
        //   Dan, Eve, Hal, Ivy: the 8 others without Jo (11+9+10+10+9+9+10+10 = 78,
        //     less their own 10 and plus the tenth: 78) + 2 forfeits x own 10 = 98
        //   Cy: 78 + Jo 2 + own 10 = 90
        //   Fay, Gus: (11+9+10+10+10+9+10+10 = 79) + Jo lost 0 + own 9 = 88
        //   Bea: (Cy..Ivy 68) + Ada 0 + Jo 2 + own 9 = 79
        //   Jo: Fay 9 + Gus 9 = 18
        // Wins (C.07 art. 7, forfeit wins included): Ada 11, the 10-pointers 10, the
        // 9-pointers 9, Jo 2. Equal on everything: a shared place.
        assert_eq!(
            table(&league),
            [
                (1, 1, 11.0, vec![None, Some(99.0), Some(11.0)]),
                (2, 4, 10.0, vec![Some(4.0), Some(98.0), Some(10.0)]),
                (2, 5, 10.0, vec![Some(4.0), Some(98.0), Some(10.0)]),
                (2, 8, 10.0, vec![Some(4.0), Some(98.0), Some(10.0)]),
                (2, 9, 10.0, vec![Some(4.0), Some(98.0), Some(10.0)]),
                (6, 3, 10.0, vec![Some(4.0), Some(90.0), Some(10.0)]),
                (7, 6, 9.0, vec![Some(2.0), Some(88.0), Some(9.0)]),
                (7, 7, 9.0, vec![Some(2.0), Some(88.0), Some(9.0)]),
                (9, 2, 9.0, vec![Some(2.0), Some(79.0), Some(9.0)]),
                (10, 10, 2.0, vec![None, Some(18.0), Some(2.0)]),
            ]
        );
        let lines = standings(&league);
        assert_eq!(
            lines
                .iter()
                .filter(|line| line.withdrawn)
                .map(|line| line.user_id)
                .collect::<Vec<_>>(),
            [UserId(3)]
        );
        // The report: Jo's round 6 is a forfeit loss against Hal with White, round 5 a loss
        // to Cy; 18 rounds. The Berger table of 10 gives Jo 4 (Black) in round 7, 9 (White)
        // in round 8, 5 (Black) in round 9; the second cycle repeats it, colours reversed.
        let tournament = to_tournament(&league);
        assert_eq!(tournament.planned_rounds, Some(18));
        let jo = tournament.player(10).unwrap();
        assert_eq!(
            (jo.round(5), jo.round(6)),
            (
                RoundRecord {
                    opponent: Some(3),
                    colour: Some(Colour::Black),
                    result: GameResult::Loss
                },
                RoundRecord {
                    opponent: Some(8),
                    colour: Some(Colour::White),
                    result: GameResult::ForfeitLoss
                }
            )
        );
        assert_eq!(
            jo.to_trf_line(),
            "001   10      Jo                                1400                             2.0   10     \
             1 b 0     6 w 1     2 b 0     7 w 1     3 b 0     8 w -     4 b -     9 w -     5 b -  \
             \x20  1 w -     6 b -     2 w -     7 b -     3 w -     8 b -     4 w -     9 b -     5 w -"
        );
        league.finish().unwrap();
        assert_eq!(
            round_due(&league, START + 99 * ROUND),
            RoundDue::Wait { until: None }
        );
    }

    #[test]
    fn a_seven_round_swiss_of_eleven_players() {
        let players: Vec<(String, u32)> =
            (1..=11).map(|i| (format!("P{i}"), 2100 - 10 * i)).collect();
        let players: Vec<(&str, u32)> = players.iter().map(|(n, r)| (n.as_str(), *r)).collect();
        let mut league = seeded(LeagueFormat::Swiss { rounds: 7 }, &players);
        let mut id = 0;
        let mut rounds = Vec::new();
        for round in 1..=7u32 {
            let now = START + i64::from(round - 1) * ROUND;
            assert_eq!(round_due(&league, now), RoundDue::StartNextRound);
            let plan = start_next(&mut league, now, &mut id);
            rounds.push((
                plan.games
                    .iter()
                    .map(|g| (g.white, g.black))
                    .collect::<Vec<_>>(),
                plan.byes
                    .iter()
                    .map(|b| (b.start_rank, b.value))
                    .collect::<Vec<_>>(),
            ));
            if round == 3 {
                // P1-P2 is still running at the deadline: the Swiss waits for the grace,
                // then adjudicates it; the other games are over.
                let running = league
                    .games
                    .iter()
                    .find(|g| (g.white, g.black) == (1, 2))
                    .unwrap();
                let running = running.game.unwrap();
                for game in league.games.clone().iter().filter(|g| g.round == 3) {
                    if game.game != Some(running) {
                        league
                            .record_result(
                                game.game.unwrap(),
                                higher_seed_wins(game.white, game.black),
                            )
                            .unwrap();
                    }
                }
                let deadline = now + ROUND;
                assert_eq!(
                    round_due(&league, deadline),
                    RoundDue::Wait {
                        until: Some(deadline + GRACE)
                    }
                );
                assert_eq!(
                    next_round(&league),
                    Err(LeagueError::RoundNotComplete {
                        round: 3,
                        running: 1
                    })
                );
                assert_eq!(
                    round_due(&league, deadline + GRACE),
                    RoundDue::Adjudicate {
                        games: vec![running]
                    }
                );
                league
                    .record_adjudicated_result(running, LeagueResult::WhiteWins)
                    .unwrap();
            }
            play_out(&mut league, higher_seed_wins);
        }
        // Round 1 (C.04.3): the bye to the lowest (11); S1 = 1-5 against S2 = 6-10, start
        // rank 1 White (XXC white1) and colours alternating down the boards. Round 2: the
        // winners' bracket {1,2,3,4,5,11} pairs 1-4, 2-5, 3-11 with colours alternated
        // from round 1; the losers' bracket gives the bye to its lowest player without
        // one (10) and pairs 6-9, 7-8. Later rounds as the pairing crate computes them.
        let full = ByeValue::Full;
        assert_eq!(
            rounds,
            [
                (
                    vec![(1, 6), (7, 2), (3, 8), (9, 4), (5, 10)],
                    vec![(11, full)]
                ),
                (
                    vec![(4, 1), (2, 5), (11, 3), (6, 9), (8, 7)],
                    vec![(10, full)]
                ),
                (
                    vec![(1, 2), (3, 4), (5, 11), (10, 6), (7, 9)],
                    vec![(8, full)]
                ),
                (
                    vec![(3, 1), (2, 6), (7, 5), (4, 10), (11, 8)],
                    vec![(9, full)]
                ),
                (
                    vec![(1, 5), (2, 3), (8, 4), (10, 7), (9, 11)],
                    vec![(6, full)]
                ),
                (
                    vec![(7, 1), (4, 2), (6, 3), (9, 8), (11, 10)],
                    vec![(5, full)]
                ),
                (
                    vec![(8, 1), (2, 11), (5, 3), (6, 7), (10, 9)],
                    vec![(4, full)]
                ),
            ]
        );
        // One bye per round, never twice to the same player (C.04.3 C.2).
        let mut bye_holders: Vec<u32> = league.byes.iter().map(|b| b.start_rank).collect();
        bye_holders.sort_unstable();
        assert_eq!(bye_holders, [4, 5, 6, 8, 9, 10, 11]);
        assert_eq!(round_due(&league, START + 7 * ROUND), RoundDue::Finish);
        // By hand, from the pairings above (the higher seed always wins, a bye is 1 point):
        //   P1 beat 6,4,2,3,5,7,8: 7.  P2 lost to 1 only: 6.  P3 lost to 1, 2: 5.
        //   P4 beat 9,10,8 + bye: 4.  P5 beat 10,11,7 + bye: 4.  P6 beat 9,10,7 + bye: 4.
        //   P7 beat 8,9,10: 3.  P8 beat 11,9 + bye: 3.  P9 beat 11,10 + bye: 3.
        //   P10 beat 11 + bye: 2.  P11 bye: 1.  Sum 42 = 35 games + 7 byes.
        // Buchholz (C.07 art. 8; the bye counts the player's own score, art. 16), Cut-1
        // drops the lowest value, Sonneborn-Berger sums the beaten opponents' scores:
        //   P1: 4+4+6+5+4+3+3 = 29, cut 26, SB 29.
        //   P2: 3+4+7+4+5+4+1 = 28, cut 27, SB 28-7 = 21.
        //   P3: 3+1+4+7+6+4+4 = 29, cut 28, SB 3+1+4+4+4 = 16.
        //   P4: 3+7+5+2+3+6 + bye 4 = 30, cut 28, SB 3+2+3+4 = 12.
        //   P6: 7+3+2+6 + bye 4 + 5+3 = 30, cut 28, SB 3+2+4+3 = 12 (shares 4th with P4).
        //   P5: 2+6+1+3+7 + bye 4 + 5 = 28, cut 27, SB 2+1+3+4 = 10.
        //   P8: 5+3 + bye 3 + 1+4+3+7 = 26, cut 25, SB 1+3+3 = 7.
        //   P9: 4+4+3 + bye 3 + 1+3+2 = 20, cut 19, SB 1+3+2 = 6.
        //   P10: 4 + bye 2 + 4+4+3+1+3 = 21, cut 20, SB 2+1 = 3.
        //   P11: bye 1 + 5+4+3+3+2+6 = 24, cut 23, SB 1.
        assert_eq!(
            table(&league),
            [
                (1, 1, 7.0, vec![Some(26.0), Some(29.0), Some(29.0)]),
                (2, 2, 6.0, vec![Some(27.0), Some(28.0), Some(21.0)]),
                (3, 3, 5.0, vec![Some(28.0), Some(29.0), Some(16.0)]),
                (4, 4, 4.0, vec![Some(28.0), Some(30.0), Some(12.0)]),
                (4, 6, 4.0, vec![Some(28.0), Some(30.0), Some(12.0)]),
                (6, 5, 4.0, vec![Some(27.0), Some(28.0), Some(10.0)]),
                (7, 7, 3.0, vec![Some(27.0), Some(29.0), Some(8.0)]),
                (8, 8, 3.0, vec![Some(25.0), Some(26.0), Some(7.0)]),
                (9, 9, 3.0, vec![Some(19.0), Some(20.0), Some(6.0)]),
                (10, 10, 2.0, vec![Some(20.0), Some(21.0), Some(3.0)]),
                (11, 11, 1.0, vec![Some(23.0), Some(24.0), Some(1.0)]),
            ]
        );
        let marks: Vec<(u32, Vec<u32>, Vec<u32>)> = standings(&league)
            .into_iter()
            .map(|line| {
                (
                    line.standing.start_rank,
                    line.bye_rounds,
                    line.adjudicated_rounds,
                )
            })
            .collect();
        assert_eq!(
            marks,
            [
                (1, vec![], vec![3]),
                (2, vec![], vec![3]),
                (3, vec![], vec![]),
                (4, vec![7], vec![]),
                (6, vec![5], vec![]),
                (5, vec![6], vec![]),
                (7, vec![], vec![]),
                (8, vec![3], vec![]),
                (9, vec![4], vec![]),
                (10, vec![2], vec![]),
                (11, vec![1], vec![]),
            ]
        );
        let text = to_tournament(&league).to_trf();
        assert_eq!(
            text.lines().take(4).collect::<Vec<_>>(),
            [
                "012 Autumn league",
                "XXR 7",
                "XXC white1",
                "001    1      P1                                2090                             \
                 7.0    1     6 w 1     4 b 1     2 w 1     3 b 1     5 w 1     7 b 1     8 b 1",
            ]
        );
        assert_eq!(
            text.lines().last(),
            Some(
                "001   11      P11                               1990                             \
                 1.0   11  0000 - U     3 w 0     5 b 0     8 w 0     9 b 0    10 w 0     2 b 0"
            )
        );
    }

    fn four_players() -> Vec<(&'static str, u32)> {
        vec![("Ada", 2000), ("Bea", 1900), ("Cy", 1800), ("Dan", 1700)]
    }

    #[test]
    fn a_round_robin_starts_the_next_round_at_the_deadline_with_a_game_running() {
        let single = LeagueFormat::RoundRobin {
            cycles: Cycles::Single,
            both_colours_at_once: false,
        };
        let mut league = seeded(single, &four_players());
        let mut id = 0;
        // Berger table of 4: round 1 1-4, 2-3; round 2 4-3, 1-2; round 3 2-4, 3-1.
        start_next(&mut league, START, &mut id);
        league
            .record_result(GameId(1), LeagueResult::WhiteWins)
            .unwrap();
        // 2-3 (game 2) is still running.
        assert_eq!(
            round_due(&league, START + ROUND - 1),
            RoundDue::Wait {
                until: Some(START + ROUND)
            }
        );
        assert_eq!(round_due(&league, START + ROUND), RoundDue::StartNextRound);
        // A sweep an hour late starts the round at the deadline all the same.
        assert_eq!(
            league.next_round_starts_at(START + ROUND + 3600),
            START + ROUND
        );
        let plan = start_next(&mut league, START + ROUND, &mut id);
        assert_eq!(
            plan.games,
            [
                PlannedGame {
                    pairing_round: 2,
                    white: 4,
                    black: 3
                },
                PlannedGame {
                    pairing_round: 2,
                    white: 1,
                    black: 2
                }
            ]
        );
        // The running game is not in the report yet.
        assert_eq!(
            to_tournament(&league).player(2).unwrap().round(1),
            RoundRecord::NOT_PAIRED
        );
        league.record_result(GameId(3), LeagueResult::Draw).unwrap();
        league
            .record_result(GameId(4), LeagueResult::WhiteWins)
            .unwrap();
        assert_eq!(
            round_due(&league, START + 2 * ROUND),
            RoundDue::StartNextRound
        );
        start_next(&mut league, START + 2 * ROUND, &mut id);
        league
            .record_result(GameId(5), LeagueResult::WhiteWins)
            .unwrap();
        league
            .record_result(GameId(6), LeagueResult::BlackWins)
            .unwrap();
        // The last round is over but game 2 of round 1 still runs: no timed check.
        assert_eq!(
            round_due(&league, START + 10 * ROUND),
            RoundDue::Wait { until: None }
        );
        league.record_result(GameId(2), LeagueResult::Draw).unwrap();
        assert_eq!(round_due(&league, START + 10 * ROUND), RoundDue::Finish);
        // Ada 1 + 1 + 1 = 3; Bea ½ + 0 + 1 = 1½; Cy ½ + ½ + 0 = 1; Dan 0 + ½ + 0 = ½.
        let points: Vec<(u32, f64)> = standings(&league)
            .iter()
            .map(|line| (line.standing.start_rank, line.standing.points.as_points()))
            .collect();
        assert_eq!(points, [(1, 3.0), (2, 1.5), (3, 1.0), (4, 0.5)]);
        assert_eq!(
            league.record_result(GameId(2), LeagueResult::Draw),
            Err(LeagueError::ResultAlreadyRecorded(GameId(2)))
        );
        assert_eq!(
            league.record_result(GameId(99), LeagueResult::Draw),
            Err(LeagueError::UnknownGame(GameId(99)))
        );
    }

    #[test]
    fn a_swiss_waits_then_adjudicates_at_the_deadline_plus_grace() {
        let mut league = seeded(LeagueFormat::Swiss { rounds: 2 }, &four_players());
        let mut id = 0;
        let plan = start_next(&mut league, START, &mut id);
        // C.04.3: S1 {1, 2} against S2 {3, 4}, colours alternating from White.
        assert_eq!(
            plan.games
                .iter()
                .map(|g| (g.white, g.black))
                .collect::<Vec<_>>(),
            [(1, 3), (4, 2)]
        );
        league
            .record_result(GameId(1), LeagueResult::WhiteWins)
            .unwrap();
        let adjudicate_at = START + ROUND + GRACE;
        for now in [START + DAY, START + ROUND, adjudicate_at - 1] {
            assert_eq!(
                round_due(&league, now),
                RoundDue::Wait {
                    until: Some(adjudicate_at)
                }
            );
        }
        assert_eq!(
            round_due(&league, adjudicate_at),
            RoundDue::Adjudicate {
                games: vec![GameId(2)]
            }
        );
        league
            .record_adjudicated_result(GameId(2), LeagueResult::Draw)
            .unwrap();
        assert_eq!(round_due(&league, adjudicate_at), RoundDue::StartNextRound);
        start_next(&mut league, adjudicate_at, &mut id);
        play_out(&mut league, higher_seed_wins);
        // Every game of round 2 ended before its deadline: the next thing is the finish.
        assert_eq!(round_due(&league, adjudicate_at + DAY), RoundDue::Finish);
        league.finish().unwrap();
        assert_eq!(league.status, LeagueStatus::Finished);
        assert_eq!(
            round_due(&league, adjudicate_at + DAY),
            RoundDue::Wait { until: None }
        );
        assert_eq!(next_round(&league), Err(LeagueError::NotRunning));
    }

    #[test]
    fn a_swiss_starts_the_next_round_as_soon_as_the_round_is_over() {
        let mut league = seeded(LeagueFormat::Swiss { rounds: 2 }, &four_players());
        let mut id = 0;
        start_next(&mut league, START, &mut id);
        play_out(&mut league, higher_seed_wins);
        assert_eq!(round_due(&league, START + DAY), RoundDue::StartNextRound);
    }

    #[test]
    fn a_pause_moves_the_deadline_back_by_its_length() {
        let single = LeagueFormat::RoundRobin {
            cycles: Cycles::Single,
            both_colours_at_once: false,
        };
        let mut league = seeded(single, &four_players());
        let mut id = 0;
        start_next(&mut league, START, &mut id);
        league.pause(START + DAY).unwrap();
        assert_eq!(
            round_due(&league, START + 9 * ROUND),
            RoundDue::Wait { until: None }
        );
        assert_eq!(league.pause(START + DAY), Err(LeagueError::NotRunning));
        league.resume(START + 3 * DAY).unwrap();
        assert_eq!(league.round_deadline(1), Some(START + ROUND + 2 * DAY));
        assert_eq!(
            round_due(&league, START + ROUND),
            RoundDue::Wait {
                until: Some(START + ROUND + 2 * DAY)
            }
        );
        assert_eq!(league.resume(START), Err(LeagueError::NotPaused));
    }

    #[test]
    fn a_double_round_robin_may_play_both_colours_at_once() {
        let both = LeagueFormat::RoundRobin {
            cycles: Cycles::Double,
            both_colours_at_once: true,
        };
        let mut league = seeded(both, &four_players());
        assert_eq!(league.round_count(), 3);
        let mut id = 0;
        let plan = start_next(&mut league, START, &mut id);
        // Berger round 1 (1-4, 2-3) and its second-cycle twin, round 4 (4-1, 3-2).
        assert_eq!(
            plan.games
                .iter()
                .map(|g| (g.pairing_round, g.white, g.black))
                .collect::<Vec<_>>(),
            [(1, 1, 4), (1, 2, 3), (4, 4, 1), (4, 3, 2)]
        );
        play_out(&mut league, |_, _| LeagueResult::WhiteWins);
        for round in 2..=3 {
            let now = START + i64::from(round - 1) * ROUND;
            assert_eq!(round_due(&league, now), RoundDue::StartNextRound);
            start_next(&mut league, now, &mut id);
            play_out(&mut league, |_, _| LeagueResult::WhiteWins);
        }
        assert_eq!(round_due(&league, START + 2 * ROUND), RoundDue::Finish);
        let tournament = to_tournament(&league);
        assert_eq!(tournament.planned_rounds, Some(6));
        let ada = tournament.player(1).unwrap();
        assert_eq!(
            (ada.round(1), ada.round(4)),
            (
                RoundRecord {
                    opponent: Some(4),
                    colour: Some(Colour::White),
                    result: GameResult::Win
                },
                RoundRecord {
                    opponent: Some(4),
                    colour: Some(Colour::Black),
                    result: GameResult::Loss
                }
            )
        );
        // Every pair split its two games: 3 points each.
        assert_eq!(
            standings(&league)
                .iter()
                .map(|line| line.standing.points.as_points())
                .collect::<Vec<_>>(),
            [3.0, 3.0, 3.0, 3.0]
        );
    }

    #[test]
    fn withdrawals_forfeit_both_games_of_a_pair_played_at_once() {
        let both = LeagueFormat::RoundRobin {
            cycles: Cycles::Double,
            both_colours_at_once: true,
        };
        let mut league = seeded(both, &four_players());
        let mut id = 0;
        start_next(&mut league, START, &mut id);
        play_out(&mut league, |_, _| LeagueResult::Draw);
        // Cy (3) and Dan (4) withdraw after round 1.
        for rank in [3, 4] {
            let user = league.entrant(rank).unwrap().user_id;
            assert_eq!(league.withdraw(user), Ok(vec![]));
        }
        // Berger round 2 of 4: 4-3, 1-2; its twin, round 5: 3-4, 2-1.
        let plan = start_next(&mut league, START + ROUND, &mut id);
        assert_eq!(
            plan.games
                .iter()
                .map(|g| (g.pairing_round, g.white, g.black))
                .collect::<Vec<_>>(),
            [(2, 1, 2), (5, 2, 1)]
        );
        assert_eq!(
            plan.forfeits
                .iter()
                .map(|g| (g.pairing_round, g.white, g.black, g.result))
                .collect::<Vec<_>>(),
            [
                (2, 4, 3, Some(LeagueResult::DoubleForfeit)),
                (5, 3, 4, Some(LeagueResult::DoubleForfeit))
            ]
        );
        // Round 3: 2-4, 3-1 and 4-2, 1-3: Ada and Bea win both by forfeit.
        play_out(&mut league, |_, _| LeagueResult::Draw);
        let plan = start_next(&mut league, START + 2 * ROUND, &mut id);
        assert_eq!(plan.games, []);
        assert_eq!(
            plan.forfeits
                .iter()
                .map(|g| (g.pairing_round, g.white, g.black, g.result))
                .collect::<Vec<_>>(),
            [
                (3, 2, 4, Some(LeagueResult::ForfeitWhiteWins)),
                (3, 3, 1, Some(LeagueResult::ForfeitBlackWins)),
                (6, 4, 2, Some(LeagueResult::ForfeitBlackWins)),
                (6, 1, 3, Some(LeagueResult::ForfeitWhiteWins))
            ]
        );
        // Round 1 all drawn (1 each), round 2: Ada-Bea drawn twice (+1 each), Cy and Dan
        // lose both by forfeit; round 3: Ada and Bea +2 each.
        assert_eq!(round_due(&league, START + 2 * ROUND), RoundDue::Finish);
        assert_eq!(
            standings(&league)
                .iter()
                .map(|line| (line.standing.start_rank, line.standing.points.as_points()))
                .collect::<Vec<_>>(),
            [(1, 4.0), (2, 4.0), (3, 1.0), (4, 1.0)]
        );
    }

    #[test]
    fn a_round_robin_bye_scores_nothing_and_is_shown() {
        let single = LeagueFormat::RoundRobin {
            cycles: Cycles::Single,
            both_colours_at_once: false,
        };
        let mut players = four_players();
        players.push(("Eve", 1600));
        let mut league = seeded(single, &players);
        assert_eq!(league.round_count(), 5);
        let mut id = 0;
        // The table of 6: round 1 is 1-6, 2-5, 3-4; Ada meets the dummy number 6.
        let plan = start_next(&mut league, START, &mut id);
        assert_eq!(
            plan.byes,
            [LeagueBye {
                round: 1,
                pairing_round: 1,
                start_rank: 1,
                value: ByeValue::Zero
            }]
        );
        play_out(&mut league, |_, _| LeagueResult::Draw);
        let ada = &to_tournament(&league).players[0];
        assert_eq!(
            ada.round(1),
            RoundRecord {
                opponent: None,
                colour: None,
                result: GameResult::ZeroPointBye
            }
        );
        let line = &standings(&league)[4];
        assert_eq!(
            (
                line.standing.start_rank,
                line.standing.points,
                line.bye_rounds.clone()
            ),
            (1, Score::ZERO, vec![1])
        );
    }

    #[test]
    fn a_withdrawn_swiss_player_is_not_paired_again() {
        let mut players = four_players();
        players.push(("Eve", 1600));
        let mut league = seeded(LeagueFormat::Swiss { rounds: 3 }, &players);
        let mut id = 0;
        start_next(&mut league, START, &mut id);
        // Bea (2) withdraws with her round 1 game running: the service resigns it.
        let bea = league.entrant(2).unwrap().user_id;
        let running: Vec<GameId> = league
            .games
            .iter()
            .filter(|g| g.white == 2 || g.black == 2)
            .filter_map(|g| g.game)
            .collect();
        assert_eq!(league.withdraw(bea), Ok(running.clone()));
        let resigned = league
            .games
            .iter()
            .find(|g| g.game == Some(running[0]))
            .unwrap();
        let result = if resigned.white == 2 {
            LeagueResult::BlackWins
        } else {
            LeagueResult::WhiteWins
        };
        league.record_result(running[0], result).unwrap();
        play_out(&mut league, higher_seed_wins);
        // The next round is paired from a report where Bea is absent (`0000 - -`).
        let absent = RoundRecord {
            opponent: None,
            colour: None,
            result: GameResult::ForfeitLoss,
        };
        assert_eq!(
            pairing_tournament(&league).player(2).unwrap().round(2),
            absent
        );
        assert_eq!(
            to_tournament(&league).player(2).unwrap().round(2),
            RoundRecord::NOT_PAIRED
        );
        // Its player lines hold the points of round 1, as bbpPairings and JaVaFo check them
        // against the results (a report with every score 0.0 is refused there).
        let report = pairing_tournament(&league);
        let points: Vec<Score> = (1..=5)
            .map(|rank| report.player(rank).unwrap().points)
            .collect();
        let from_results: Vec<Score> = (1..=5)
            .map(|rank| report.points_after(report.player(rank).unwrap(), 1))
            .collect();
        assert_eq!(points, from_results);
        assert!(points.iter().any(|p| *p > Score::ZERO), "{points:?}");
        let plan = start_next(&mut league, START + DAY, &mut id);
        let mut paired: Vec<u32> = plan.games.iter().flat_map(|g| [g.white, g.black]).collect();
        paired.sort_unstable();
        assert_eq!((paired, plan.byes), (vec![1, 3, 4, 5], vec![]));
        assert_eq!(to_tournament(&league).player(2).unwrap().round(2), absent);
    }

    #[test]
    fn sign_up_closes_at_its_deadline_or_its_player_limit() {
        let single = LeagueFormat::RoundRobin {
            cycles: Cycles::Single,
            both_colours_at_once: false,
        };
        let sign_up = SignUp {
            deadline: Some(START + DAY),
            player_limit: Some(3),
        };
        let new = || {
            League::new(
                " Spring ",
                Variant::Nuke,
                GameOptions::default(),
                single,
                settings(),
                sign_up,
                START,
            )
            .unwrap()
        };
        let mut league = new();
        assert_eq!(league.name, "Spring");
        assert_eq!(
            round_due(&league, START),
            RoundDue::Wait {
                until: Some(START + DAY)
            }
        );
        assert_eq!(league.join(UserId(1), "Ada", 1500, START), Ok(1));
        assert_eq!(
            league.join(UserId(1), "Ada", 1500, START),
            Err(LeagueError::AlreadyJoined)
        );
        assert_eq!(league.join(UserId(2), "Bea", 1600, START), Ok(2));
        assert_eq!(
            league.join(UserId(3), "Cy", 1500, START + DAY),
            Err(LeagueError::SignUpClosed)
        );
        assert_eq!(round_due(&league, START + DAY), RoundDue::CloseSignUp);
        assert_eq!(
            league.close_sign_up(Colour::White),
            Err(LeagueError::TooFewPlayers { have: 2, need: 3 })
        );
        assert_eq!(league.status, LeagueStatus::SignUp);

        let mut league = new();
        for (user, name) in [(1, "Ada"), (2, "Bea"), (3, "Cy")] {
            league.join(UserId(user), name, 1500, START).unwrap();
        }
        assert_eq!(
            league.join(UserId(4), "Dan", 1500, START),
            Err(LeagueError::LeagueFull { limit: 3 })
        );
        assert_eq!(round_due(&league, START), RoundDue::CloseSignUp);
        league.leave(UserId(1)).unwrap();
        assert_eq!(
            league
                .entrants
                .iter()
                .map(|e| (e.start_rank, e.user_id))
                .collect::<Vec<_>>(),
            [(1, UserId(2)), (2, UserId(3))]
        );
        assert_eq!(league.leave(UserId(1)), Err(LeagueError::NotAnEntrant));
        assert_eq!(league.withdraw(UserId(2)), Err(LeagueError::NotRunning));
    }

    #[test]
    fn settings_are_checked_with_messages_that_say_what_would_be_right() {
        let check = |format: LeagueFormat, settings: LeagueSettings, limit: Option<u32>| {
            validate(
                "League",
                format,
                &settings,
                &SignUp {
                    deadline: None,
                    player_limit: limit,
                },
            )
            .map_err(|error| error.to_string())
        };
        let swiss = |rounds| LeagueFormat::Swiss { rounds };
        let single = LeagueFormat::RoundRobin {
            cycles: Cycles::Single,
            both_colours_at_once: false,
        };
        assert_eq!(check(swiss(7), settings(), Some(11)), Ok(()));
        assert_eq!(
            check(swiss(0), settings(), None),
            Err("a Swiss league needs at least 1 round".to_owned())
        );
        assert_eq!(
            check(swiss(8), settings(), Some(8)),
            Err("a Swiss league of 8 players can have at most 7 rounds, not 8".to_owned())
        );
        assert_eq!(
            check(single, settings(), Some(2)),
            Err("the player limit must be from 3 to 64, not 2".to_owned())
        );
        assert_eq!(
            check(single, settings(), Some(65)),
            Err("the player limit must be from 3 to 64, not 65".to_owned())
        );
        let short = LeagueSettings {
            round_length_secs: 2 * DAY,
            ..settings()
        };
        assert_eq!(
            check(single, short, None),
            Err(
                "a round must last at least the time for one move (259200 seconds = 3 days), \
                 not 172800 seconds"
                    .to_owned()
            )
        );
        let slow = LeagueSettings {
            days_per_move: 15,
            ..settings()
        };
        assert_eq!(
            check(single, slow, None),
            Err("days per move must be from 1 to 14, not 15".to_owned())
        );
        assert_eq!(
            validate(" ", single, &settings(), &SignUp::default()).map_err(|e| e.to_string()),
            Err("a league's name needs 1 to 100 characters".to_owned())
        );
        let mut league = seeded(swiss(3), &four_players());
        league.status = LeagueStatus::SignUp;
        league.entrants.truncate(3);
        assert_eq!(
            league.close_sign_up(Colour::Black),
            Err(LeagueError::TooFewPlayers { have: 3, need: 4 })
        );
    }

    #[test]
    fn a_swiss_bye_scores_the_league_s_bye_value() {
        let mut league = League::new(
            "Half byes",
            Variant::Beirut,
            GameOptions::default(),
            LeagueFormat::Swiss { rounds: 2 },
            LeagueSettings {
                bye_value: ByeValue::Half,
                ..settings()
            },
            SignUp::default(),
            START,
        )
        .unwrap();
        for (user, name, rating) in [(1, "Ada", 1600), (2, "Bea", 1500), (3, "Cy", 1400)] {
            league.join(UserId(user), name, rating, START).unwrap();
        }
        league.close_sign_up(Colour::Black).unwrap();
        let mut id = 0;
        // Round 1: the bye to the lowest (3); 1 against 2, start rank 1 Black (XXC black1).
        let plan = start_next(&mut league, START, &mut id);
        assert_eq!(
            (plan.games, plan.byes),
            (
                vec![PlannedGame {
                    pairing_round: 1,
                    white: 2,
                    black: 1
                }],
                vec![LeagueBye {
                    round: 1,
                    pairing_round: 1,
                    start_rank: 3,
                    value: ByeValue::Half
                }]
            )
        );
        play_out(&mut league, higher_seed_wins);
        // The bye is the pairing-allocated bye `U`, worth the league's ½ point: the report
        // says so to JaVaFo (`XXS PAB=0.5`) and to bbpPairings (`BBU  0.5`).
        let tournament = to_tournament(&league);
        assert_eq!(tournament.pab_points, Score::DRAW);
        assert_eq!(
            tournament.player(3).unwrap().to_trf_line(),
            "001    3      Cy                                1400                             0.5    2  0000 - U"
        );
        assert_eq!(tournament.initial_colour, Some(Colour::Black));
        let text = tournament.to_trf();
        assert_eq!(
            text.lines().take(5).collect::<Vec<_>>(),
            [
                "012 Half byes",
                "XXR 2",
                "XXC black1",
                "XXS PAB=0.5",
                "BBU  0.5"
            ]
        );
        let read = kaboom_pairing::trf::parse(&text).unwrap();
        assert_eq!(read.pab_points, Score::DRAW);
        assert_eq!(read.to_trf(), text);
        // Standings: Ada beat Bea (1), Cy's bye (½), Bea (0).
        let points: Vec<(u32, Score)> = standings(&league)
            .iter()
            .map(|line| (line.standing.start_rank, line.standing.points))
            .collect();
        assert_eq!(
            points,
            [(1, Score::WIN), (3, Score::DRAW), (2, Score::ZERO)]
        );
    }

    /// Regression: a Swiss bye worth ½ or 0 points used to be written `H` or `Z` (a bye the
    /// player asked for) in the report the next round is paired from, so the Dutch pairing
    /// did not know the player had had the pairing-allocated bye and could give it to them
    /// again: with 0-point byes and the higher seed always winning, player 5 had it in
    /// rounds 1 and 3. FIDE C.04.1 (and C.04.3 C.2): a player who has already received the
    /// pairing-allocated bye shall not receive it again. Guards that, whatever the bye is
    /// worth, each of the four rounds of a five-player Swiss gives the bye to a different
    /// player, written `U` and scoring the league's bye value.
    #[test]
    fn a_swiss_never_gives_the_bye_twice_whatever_it_is_worth() {
        for (value, expected) in [
            (ByeValue::Zero, [(1, 5), (2, 4), (3, 3), (4, 2)]),
            (ByeValue::Half, [(1, 5), (2, 4), (3, 3), (4, 2)]),
        ] {
            let mut league = League::new(
                "Byes",
                Variant::Atomic,
                GameOptions::default(),
                LeagueFormat::Swiss { rounds: 4 },
                LeagueSettings {
                    bye_value: value,
                    ..settings()
                },
                SignUp::default(),
                START,
            )
            .unwrap();
            for (user, (name, rating)) in four_players()
                .into_iter()
                .chain([("Eve", 1600)])
                .enumerate()
            {
                league
                    .join(UserId(user as u64 + 1), name, rating, START)
                    .unwrap();
            }
            league.close_sign_up(Colour::White).unwrap();
            let mut id = 0;
            for round in 1..=4u32 {
                let now = START + i64::from(round - 1) * ROUND;
                let plan = start_next(&mut league, now, &mut id);
                assert_eq!(plan.byes.len(), 1, "{value:?}, round {round}");
                assert_eq!(plan.byes[0].value, value);
                play_out(&mut league, higher_seed_wins);
            }
            let byes: Vec<(u32, u32)> = league
                .byes
                .iter()
                .map(|bye| (bye.round, bye.start_rank))
                .collect();
            assert_eq!(byes, expected, "{value:?}");
            let tournament = to_tournament(&league);
            for &(round, start_rank) in &expected {
                assert_eq!(
                    tournament.player(start_rank).unwrap().round(round).result,
                    GameResult::PairingAllocatedBye
                );
            }
            let games: Vec<(u32, u32, u32)> = league
                .games
                .iter()
                .map(|g| (g.round, g.white, g.black))
                .collect();
            assert_eq!(
                games,
                [
                    (1, 1, 3),
                    (1, 4, 2),
                    (2, 2, 1),
                    (2, 3, 5),
                    (3, 1, 4),
                    (3, 5, 2),
                    (4, 5, 1),
                    (4, 4, 3)
                ],
                "{value:?}"
            );
            // By hand (the higher seed wins; b: the bye's value):
            //   1 beat 3, 2, 4, 5: 4.  2 beat 4, 5, lost to 1, bye: 2 + b.
            //   3 beat 5, 4, lost to 1, bye: 2 + b.  4 and 5: a bye and three losses: b.
            // Buchholz (the bye counts the player's own score, C.07 art. 16; it is not
            // voluntary, so Cut-1 drops the lowest value), Sonneborn-Berger (the bye: own
            // score times b):
            //   1: 3 + 2 + 4 + 5 = 2(2 + b) + 2b = 4 + 4b, cut 4 + 3b, SB the same 4 + 4b.
            //   2: 4 + 1 + 5 + own = b + 4 + b + (2 + b) = 6 + 3b, cut 6 + 2b, SB 2b + b(2 + b).
            //   4: 2 + own + 1 + 3 = (2 + b) + b + 4 + (2 + b) = 8 + 3b, cut 8 + 2b, SB b².
            let expected_table = match value {
                ByeValue::Zero => [
                    (1, 1, 4.0, vec![Some(4.0), Some(4.0), Some(4.0)]),
                    (2, 2, 2.0, vec![Some(6.0), Some(6.0), Some(0.0)]),
                    (2, 3, 2.0, vec![Some(6.0), Some(6.0), Some(0.0)]),
                    (4, 4, 0.0, vec![Some(8.0), Some(8.0), Some(0.0)]),
                    (4, 5, 0.0, vec![Some(8.0), Some(8.0), Some(0.0)]),
                ],
                _ => [
                    (1, 1, 4.0, vec![Some(5.5), Some(6.0), Some(6.0)]),
                    (2, 2, 2.5, vec![Some(7.0), Some(7.5), Some(2.25)]),
                    (2, 3, 2.5, vec![Some(7.0), Some(7.5), Some(2.25)]),
                    (4, 4, 0.5, vec![Some(9.0), Some(9.5), Some(0.25)]),
                    (4, 5, 0.5, vec![Some(9.0), Some(9.5), Some(0.25)]),
                ],
            };
            assert_eq!(table(&league), expected_table, "{value:?}");
        }
    }

    #[test]
    fn the_report_keeps_names_on_one_line() {
        let mut league = seeded(
            LeagueFormat::Swiss { rounds: 1 },
            &[("Ada\nBea", 1500), ("Cy", 1400)],
        );
        league.name = "Two\r\nlines".to_owned();
        assert_eq!(
            to_tournament(&league).to_trf(),
            "012 Two  lines\nXXR 1\nXXC white1\n\
             001    1      Ada Bea                           1500                             0.0    1\n\
             001    2      Cy                                1400                             0.0    1\n"
        );
        assert_eq!(league.next_round_starts_at(START + 5), START + 5);
    }

    #[test]
    fn a_game_lost_before_both_sides_moved_is_a_forfeit() {
        assert_eq!(
            LeagueResult::from_game(Some(Color::Black), false),
            LeagueResult::ForfeitBlackWins
        );
        assert_eq!(
            LeagueResult::from_game(Some(Color::White), true),
            LeagueResult::WhiteWins
        );
        assert_eq!(LeagueResult::from_game(None, false), LeagueResult::Draw);
        assert_eq!(
            LeagueResult::ForfeitBlackWins.trf_results(),
            (GameResult::ForfeitLoss, GameResult::ForfeitWin)
        );
    }
}
