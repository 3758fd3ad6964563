//! # kaboom-pairing
//!
//! Pairings and standings for server leagues (correspondence tournaments), pure and
//! synchronous: no I/O, no clock, no database.
//!
//! - Round-robin by the FIDE Berger tables (FIDE Handbook C.05, Annex 1): [`berger`].
//! - Swiss by the FIDE Dutch system (FIDE Handbook C.04.3, the Baku 2016 text in force until
//!   30 June 2025, with the general rules C.04.1 and C.04.2; or the text in force from
//!   1 July 2025, [`System::Dutch`]): [`dutch`].
//! - Tournament Report Files (TRF-16, with the `XXR`/`XXC` extensions of JaVaFo and
//!   bbpPairings, and the points of the pairing-allocated bye from JaVaFo's `XXS PAB=` or
//!   bbpPairings' `BBU`: [`Tournament::pab_points`]): [`trf`].
//! - Standings with the tie-breaks of FIDE C.07: [`tiebreak`].
//!
//! [`Pairings`] prints in the `-p` output format of bbpPairings and JaVaFo: the number of
//! pairs, then one `WHITE BLACK` line per game and `N 0` per bye.
//!
//! ```
//! use kaboom_pairing::{pair_trf, System};
//!
//! // Four players, nobody has played yet (TRF-16 player lines; XXR: 3 rounds).
//! let trf = "\
//! XXR 3
//! 001    1      Alice                             2000
//! 001    2      Bob                               1900
//! 001    3      Carol                             1800
//! 001    4      Dave                              1700
//! ";
//! // The Dutch system pairs the top half against the bottom half (C.04.3 B.2); the first
//! // player gets the initial colour, White unless `XXC black1` says otherwise (E.5).
//! assert_eq!(pair_trf(trf, System::Dutch2016).unwrap().to_string(), "2\n1 3\n4 2\n");
//! // Round 1 of the Berger table of 4 (C.05 Annex 1).
//! assert_eq!(pair_trf(trf, System::Berger).unwrap().to_string(), "2\n1 4\n2 3\n");
//! ```
#![deny(missing_docs)]

pub mod berger;
pub mod dutch;
mod matching;
mod score;
pub mod tiebreak;
pub mod trf;

use std::fmt;

pub use score::{Score, ScoreError};
pub use tiebreak::{Standing, TieBreak, standings};
pub use trf::Tournament;

/// One game of a round: starting ranks of the player with White and the player with Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Pair {
    /// Starting rank of the player with White.
    pub white: u32,
    /// Starting rank of the player with Black.
    pub black: u32,
}

/// The pairings of one round: the games in board order, then the byes.
///
/// `Display` writes the `-p` output of bbpPairings and JaVaFo: the number of pairs (games
/// and byes) on the first line, then `WHITE BLACK` per game and `N 0` per bye, each line
/// ending in `\n`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Pairings {
    /// The games, board 1 first.
    pub pairs: Vec<Pair>,
    /// Starting ranks of the players without an opponent: the pairing-allocated bye of the
    /// Swiss system (C.04.1.c), or the player drawn against the dummy number in a
    /// round-robin (C.05 Annex 1).
    pub byes: Vec<u32>,
}

impl fmt::Display for Pairings {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(formatter, "{}", self.pairs.len() + self.byes.len())?;
        for pair in &self.pairs {
            writeln!(formatter, "{} {}", pair.white, pair.black)?;
        }
        for bye in &self.byes {
            writeln!(formatter, "{bye} 0")?;
        }
        Ok(())
    }
}

/// The pairing system of [`pair`] and [`pair_trf`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum System {
    /// Swiss, FIDE Dutch system by the text in force since 1 July 2025 (C.04.3, criteria
    /// C1-C21; [`dutch::Edition::Fide2025`], as bbpPairings 6 reads it): `kaboom pair
    /// --system dutch` and the bot's Swiss leagues.
    Dutch,
    /// Swiss, FIDE Dutch system by the Baku 2016 text, in force until 30 June 2025
    /// ([`dutch::pair_round`]): for tournaments paired under it.
    Dutch2016,
    /// Single round-robin by the Berger tables (C.05 Annex 1): [`berger::round_robin_pairings`].
    Berger,
    /// Double round-robin by the Berger tables, colours reversed in the second cycle.
    DoubleBerger,
}

/// Why a round could not be paired.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairError {
    /// The TRF text is malformed.
    #[error(transparent)]
    Trf(#[from] trf::TrfError),
    /// The round-robin round does not exist (too few players or all rounds paired).
    #[error(transparent)]
    Berger(#[from] berger::BergerError),
    /// The Dutch system found no pairing.
    #[error(transparent)]
    Dutch(#[from] dutch::DutchError),
}

/// Pairs the next round of `tournament` (the round after [`Tournament::paired_rounds`]) with
/// `system`. For the round-robin systems the players are numbered by starting rank
/// `1..=n` and the round is looked up in the Berger table.
///
/// # Errors
/// [`PairError::Berger`] if the round-robin is over or has fewer than 2 players;
/// [`PairError::Dutch`] if no Dutch pairing satisfies the absolute criteria.
pub fn pair(tournament: &Tournament, system: System) -> Result<Pairings, PairError> {
    let round = tournament.paired_rounds() + 1;
    let players = tournament
        .players
        .iter()
        .map(|player| player.start_rank)
        .max()
        .unwrap_or(0);
    Ok(match system {
        System::Dutch2016 => dutch::pair_round(tournament)?,
        System::Dutch => dutch::pair_round_with(tournament, dutch::Edition::Fide2025)?,
        System::Berger => berger::round_robin_pairings(players, round, berger::Cycles::Single)?,
        System::DoubleBerger => {
            berger::round_robin_pairings(players, round, berger::Cycles::Double)?
        }
    })
}

/// Parses TRF-16 text ([`trf::parse`]) and pairs its next round ([`pair`]).
///
/// # Errors
/// [`PairError::Trf`] for malformed text, otherwise as [`pair`].
pub fn pair_trf(text: &str, system: System) -> Result<Pairings, PairError> {
    pair(&trf::parse(text)?, system)
}
