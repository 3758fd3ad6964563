//! `kaboom pair` and `kaboom standings`: the leagues' pairing and standings code
//! (`kaboom-pairing`) on a FIDE Tournament Report File, for hosts who check a league's
//! rounds and for comparing with other pairing programs (bbpPairings, JaVaFo).

use std::path::Path;

use kaboom_pairing::tiebreak::{TieBreak, standings_with};
use kaboom_pairing::{PairError, System, pair, trf};

/// A pairing system as `--system` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PairingSystem {
    /// Swiss, the FIDE Dutch system as in force since 1 July 2025 (Handbook C.04.3).
    Dutch,
    /// Swiss, the FIDE Dutch system's Baku 2016 text (in force until 30 June 2025).
    Dutch2016,
    /// Single round-robin by the FIDE Berger tables (Handbook C.05, Annex 1).
    Berger,
    /// Double round-robin by the Berger tables, colours reversed in the second cycle.
    DoubleBerger,
}

impl From<PairingSystem> for System {
    fn from(system: PairingSystem) -> System {
        match system {
            PairingSystem::Dutch => System::Dutch,
            PairingSystem::Dutch2016 => System::Dutch2016,
            PairingSystem::Berger => System::Berger,
            PairingSystem::DoubleBerger => System::DoubleBerger,
        }
    }
}

/// Which tie-breaks `kaboom standings` applies after points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TieBreaks {
    /// Round-robin when the rounds make whole Berger cycles, Swiss otherwise.
    Auto,
    /// Direct encounter, Sonneborn-Berger, wins (FIDE Handbook C.07).
    RoundRobin,
    /// Buchholz cut-1, Buchholz, Sonneborn-Berger (FIDE Handbook C.07).
    Swiss,
}

/// Why `kaboom pair` or `kaboom standings` failed.
#[derive(Debug, thiserror::Error)]
pub enum PairingCliError {
    /// The file could not be read.
    #[error("{path}: cannot be read: {reason}")]
    Unreadable {
        /// The file.
        path: String,
        /// Why, from the operating system.
        reason: String,
    },
    /// The file is not TRF-16, or the round cannot be paired.
    #[error("{path}: {error}")]
    Pairing {
        /// The file.
        path: String,
        /// What is wrong.
        error: PairError,
    },
}

fn read(path: &Path) -> Result<(String, trf::Tournament), PairingCliError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| PairingCliError::Unreadable {
        path: shown.clone(),
        reason: e.to_string(),
    })?;
    let tournament = trf::parse(&text).map_err(|e| PairingCliError::Pairing {
        path: shown.clone(),
        error: e.into(),
    })?;
    Ok((shown, tournament))
}

/// The next round's pairings of the tournament in the TRF file at `path`, in the `-p`
/// output of bbpPairings and JaVaFo: the number of pairs, then `WHITE BLACK` per game
/// and `N 0` per pairing-allocated bye, as starting ranks.
///
/// # Errors
/// [`PairingCliError`] when the file cannot be read, is not TRF-16, or its next round
/// cannot be paired.
pub fn pair_file(path: &Path, system: PairingSystem) -> Result<String, PairingCliError> {
    let (shown, tournament) = read(path)?;
    pair(&tournament, system.into())
        .map(|pairings| pairings.to_string())
        .map_err(|error| PairingCliError::Pairing { path: shown, error })
}

/// The standings of the tournament in the TRF file at `path` as JSON: an array of
/// `{"rank", "start_rank", "name", "points", "tie_breaks": [{"tie_break", "value"}]}`.
///
/// # Errors
/// [`PairingCliError`] when the file cannot be read or is not TRF-16.
pub fn standings_file(path: &Path, tie_breaks: TieBreaks) -> Result<String, PairingCliError> {
    let (_, tournament) = read(path)?;
    let table = match tie_breaks {
        TieBreaks::Auto => kaboom_pairing::standings(&tournament),
        TieBreaks::RoundRobin => standings_with(&tournament, &TieBreak::ROUND_ROBIN),
        TieBreaks::Swiss => standings_with(&tournament, &TieBreak::SWISS),
    };
    Ok(serde_json::to_string_pretty(&table).expect("standings always serialize"))
}
