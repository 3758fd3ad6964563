//! Round-robin pairings by the FIDE Berger tables (FIDE Handbook C.05, Annex 1).
//!
//! ```
//! use kaboom_pairing::berger::{berger_round, round_robin_pairings, Cycles};
//! use kaboom_pairing::Pair;
//!
//! // Round 2 for 8 players, board by board, as printed in C.05 Annex 1: 8-5, 6-4, 7-3, 1-2.
//! let round = berger_round(8, 2).unwrap();
//! assert_eq!(round, [(8, 5), (6, 4), (7, 3), (1, 2)]);
//!
//! // 7 players use the table for 8: whoever meets number 8 sits out (a bye, 0 points).
//! let pairings = round_robin_pairings(7, 2, Cycles::Single).unwrap();
//! assert_eq!(pairings.pairs, [Pair { white: 6, black: 4 }, Pair { white: 7, black: 3 }, Pair { white: 1, black: 2 }]);
//! assert_eq!(pairings.byes, [5]);
//! assert_eq!(pairings.to_string(), "4\n6 4\n7 3\n1 2\n5 0\n");
//! ```
//!
//! # The construction (C.05 Annex 1)
//!
//! For `n` players (`n` even; an odd field adds a dummy number `n + 1`), a cycle has
//! `n - 1` rounds. In round `r` player `n` meets the player `a` with `2a ≡ r + 1 (mod n - 1)`,
//! with White in even rounds and Black in odd rounds; that game is board 1. On boards
//! `k = 2 ..= n / 2`, player `a + (k - 1)` (White) meets player `a - (k - 1)` (Black), both
//! counted cyclically in `1 ..= n - 1`. Round 1 is therefore `1-n, 2-(n-1), 3-(n-2), ...`,
//! exactly the tables of the handbook (checked against them for 3 to 16 players in the
//! integration tests, `pairing/tests/it/berger.rs`).
//!
//! In a double round-robin the second cycle repeats the first with colours reversed
//! (C.05 Annex 1, "Double round-robin": the second cycle's round `r` is round `r` of the
//! first with White and Black exchanged).

use crate::{Pair, Pairings};

/// How many times every player meets every other player (C.05 Annex 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cycles {
    /// Every pair meets once: `n - 1` rounds for `n` players (`n` even), `n` rounds for `n` odd.
    Single,
    /// Every pair meets twice, with colours reversed in the second cycle: twice as many rounds.
    Double,
}

/// Why a round-robin round cannot be produced.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BergerError {
    /// Fewer than two players: nobody to pair.
    #[error("a round-robin needs at least 2 players, got {players}")]
    TooFewPlayers {
        /// The number of players asked for.
        players: u32,
    },
    /// The round is 0 or after the last round of the tournament.
    #[error("round {round} is outside 1..={rounds}")]
    NoSuchRound {
        /// The round asked for (1-based).
        round: u32,
        /// The number of rounds of the tournament.
        rounds: u32,
    },
}

/// The number of table entries (players, plus the dummy number for an odd field): `n` rounded up
/// to an even number (C.05 Annex 1: an odd field uses the table of `n + 1`).
#[must_use]
pub fn table_size(players: u32) -> u32 {
    players + players % 2
}

/// The number of rounds of a round-robin of `players` players: `table_size - 1` per cycle.
///
/// # Errors
/// [`BergerError::TooFewPlayers`] for fewer than 2 players.
pub fn round_count(players: u32, cycles: Cycles) -> Result<u32, BergerError> {
    if players < 2 {
        return Err(BergerError::TooFewPlayers { players });
    }
    let per_cycle = table_size(players) - 1;
    Ok(match cycles {
        Cycles::Single => per_cycle,
        Cycles::Double => 2 * per_cycle,
    })
}

/// Round `round` (1-based, `1..=table_size - 1`) of the Berger table for `table_size` entries
/// (even), as `(white, black)` starting numbers in board order (C.05 Annex 1). The dummy
/// number `table_size` appears like any player; [`round_robin_pairings`] turns its games into
/// byes.
///
/// # Errors
/// [`BergerError::TooFewPlayers`] if `table_size < 2`, [`BergerError::NoSuchRound`] if the
/// round is outside the cycle. An odd `table_size` is rounded up to the next even number.
pub fn berger_round(table_size: u32, round: u32) -> Result<Vec<(u32, u32)>, BergerError> {
    if table_size < 2 {
        return Err(BergerError::TooFewPlayers {
            players: table_size,
        });
    }
    let n = self::table_size(table_size);
    let cycle = n - 1;
    if round == 0 || round > cycle {
        return Err(BergerError::NoSuchRound {
            round,
            rounds: cycle,
        });
    }
    // The player meeting `n`: 2a ≡ r + 1 (mod n - 1); n - 1 is odd, so halve r + 1 or r + n.
    let white_round = round.is_multiple_of(2);
    let last_opponent = if !white_round {
        round.div_ceil(2)
    } else {
        (round + n) / 2
    };
    let mut boards = Vec::with_capacity((n / 2) as usize);
    boards.push(if white_round {
        (n, last_opponent)
    } else {
        (last_opponent, n)
    });
    // Cyclic numbering in 1..=n-1.
    let wrap = |x: i64| -> u32 { ((x - 1).rem_euclid(i64::from(cycle)) + 1) as u32 };
    for k in 1..n / 2 {
        let white = wrap(i64::from(last_opponent) + i64::from(k));
        let black = wrap(i64::from(last_opponent) - i64::from(k));
        boards.push((white, black));
    }
    Ok(boards)
}

/// The pairings of round `round` (1-based) of a single or double round-robin of `players`
/// players numbered `1..=players` (C.05 Annex 1). With an odd number of players, the player
/// drawn against the dummy number `players + 1` has a bye; in a round-robin that bye scores
/// 0 points (it is listed in [`Pairings::byes`] and printed as `N 0`).
///
/// # Errors
/// [`BergerError::TooFewPlayers`] for fewer than 2 players, [`BergerError::NoSuchRound`] if
/// the round is 0 or after the last round ([`round_count`]).
pub fn round_robin_pairings(
    players: u32,
    round: u32,
    cycles: Cycles,
) -> Result<Pairings, BergerError> {
    let rounds = round_count(players, cycles)?;
    if round == 0 || round > rounds {
        return Err(BergerError::NoSuchRound { round, rounds });
    }
    let n = table_size(players);
    let per_cycle = n - 1;
    let second_cycle = round > per_cycle;
    let table_round = if second_cycle {
        round - per_cycle
    } else {
        round
    };
    let mut pairings = Pairings::default();
    for (white, black) in berger_round(n, table_round)? {
        let (white, black) = if second_cycle {
            (black, white)
        } else {
            (white, black)
        };
        if white > players {
            pairings.byes.push(black);
        } else if black > players {
            pairings.byes.push(white);
        } else {
            pairings.pairs.push(Pair { white, black });
        }
    }
    Ok(pairings)
}
