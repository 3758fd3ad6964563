//! Error types: one small type per failure, with lower-case messages that say what was
//! wrong and what would be right.

use crate::Color;

/// A serialization (FEN) that could not be read.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("invalid FEN '{fen}': {reason}")]
pub struct FenError {
    /// The text given.
    pub fen: String,
    /// What was wrong with it, and what was expected.
    pub reason: String,
}

impl FenError {
    /// A FEN error for `fen` explained by `reason`.
    pub fn new(fen: &str, reason: impl Into<String>) -> FenError {
        FenError {
            fen: fen.to_string(),
            reason: reason.into(),
        }
    }
}

/// Text that is not an action in the variant's notation grammar at all (as opposed to a
/// well-formed action that is not legal, [`IllegalActionError`]).
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("'{text}' is not a move: expected {expected}")]
pub struct ParseActionError {
    /// The text given.
    pub text: String,
    /// The grammar that would have been accepted, e.g. "SAN like Nf3, exd5, O-O, e8=Q, or coordinates like e2e4".
    pub expected: String,
}

/// A well-formed action that cannot be played in this position.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("{text} is not legal here: {reason}{}", legal_hint(.legal))]
pub struct IllegalActionError {
    /// The text given.
    pub text: String,
    /// Why not, e.g. "no knight can reach f6", "it would leave your king in check".
    pub reason: String,
    /// Some legal actions in canonical notation, to help the player (may be all of them).
    pub legal: Vec<String>,
}

fn legal_hint(legal: &[String]) -> String {
    const SHOWN: usize = 12;
    if legal.is_empty() {
        return "; there is no legal move".to_string();
    }
    let mut s = format!(
        "; legal moves: {}",
        legal
            .iter()
            .take(SHOWN)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ")
    );
    if legal.len() > SHOWN {
        s.push_str(&format!(" and {} more", legal.len() - SHOWN));
    }
    s
}

/// Why text could not be turned into a legal action.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum ActionError {
    /// Not in the notation's grammar.
    #[error(transparent)]
    Parse(#[from] ParseActionError),
    /// Well-formed, but not legal (or ambiguous) here.
    #[error(transparent)]
    Illegal(#[from] IllegalActionError),
}

/// A carrier designation that breaks BE-2 or NU-3.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("{reason}")]
pub struct DesignationError {
    /// What was wrong, e.g. "e1 holds your king; a Beirut carrier cannot be the king".
    pub reason: String,
}

/// Game options that the variant does not accept (e.g. 16 Beirut carriers).
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("{reason}")]
pub struct OptionsError {
    /// What was wrong and what the allowed values are.
    pub reason: String,
}

/// Why an action could not be played in a game.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum PlayError {
    /// The game is over.
    #[error("the game is over ({0})")]
    Finished(String),
    /// Carriers must be chosen first (BE-2, NU-3).
    #[error("the game has not started: waiting for {0} to choose carriers")]
    AwaitingDesignation(String),
    /// It is the other player's turn.
    #[error("it is {0}'s turn")]
    NotYourTurn(Color),
    /// The text is not a legal action.
    #[error(transparent)]
    Action(#[from] ActionError),
}

/// A stored game record that cannot be loaded.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum RecordError {
    /// The start position does not parse.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// An action of the history does not replay.
    #[error("ply {ply} ({text}) does not replay: {error}")]
    Replay {
        /// 1-based ply number.
        ply: usize,
        /// The stored action text.
        text: String,
        /// Why.
        error: ActionError,
    },
    /// The options are invalid for the variant.
    #[error(transparent)]
    Options(#[from] OptionsError),
}
