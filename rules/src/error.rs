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
    /// Which part of the serialization was wrong, for callers that branch on it.
    pub kind: FenErrorKind,
}

impl FenError {
    /// A FEN error of `kind` for `fen` explained by `reason`.
    pub fn new(kind: FenErrorKind, fen: &str, reason: impl Into<String>) -> FenError {
        FenError {
            fen: fen.to_string(),
            reason: reason.into(),
            kind,
        }
    }
}

/// Which part of a serialization [`FenError`] found wrong (like shakmaty's `ParseFenError`
/// variants). The serialization of each variant is documented on its position type.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
#[non_exhaustive]
pub enum FenErrorKind {
    /// Too few or too many space-separated fields.
    Fields,
    /// The piece placement field: ranks, files, piece letters.
    Board,
    /// The side to move: `w` or `b`.
    Turn,
    /// The castling field (AT-8, BM-4).
    Castling,
    /// The en passant field.
    EnPassant,
    /// The halfmove clock or fullmove number.
    Clocks,
    /// A variant's own fields: Beirut carriers (BE-2), Nuke bombs (NU-3, NU-9), Bombalot
    /// goals and last-moved kinds (BA-2, BA-10).
    VariantFields,
    /// Well-formed fields describing a position that cannot arise in play (a side without
    /// exactly one king, the side not to move in check, too many pieces).
    Impossible,
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
    /// Whether the text matched several legal actions (C-5: say which piece or square),
    /// rather than none.
    pub ambiguous: bool,
}

impl IllegalActionError {
    /// [`ActionErrorKind::Ambiguous`] or [`ActionErrorKind::Illegal`].
    pub fn kind(&self) -> ActionErrorKind {
        if self.ambiguous {
            ActionErrorKind::Ambiguous
        } else {
            ActionErrorKind::Illegal
        }
    }
}

impl ParseActionError {
    /// Always [`ActionErrorKind::Unparseable`].
    pub fn kind(&self) -> ActionErrorKind {
        ActionErrorKind::Unparseable
    }
}

/// What kind of failure an action's text met, for callers that branch on it; the error's
/// `Display` stays the message for people (C-5).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
#[non_exhaustive]
pub enum ActionErrorKind {
    /// Not in the variant's notation grammar ([`ParseActionError`]).
    Unparseable,
    /// Well-formed, but no legal action matches ([`IllegalActionError`]).
    Illegal,
    /// Well-formed, but several legal actions match ([`IllegalActionError::ambiguous`]).
    Ambiguous,
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

impl ActionError {
    /// Unparseable, illegal or ambiguous.
    pub fn kind(&self) -> ActionErrorKind {
        match self {
            ActionError::Parse(e) => e.kind(),
            ActionError::Illegal(e) => e.kind(),
        }
    }
}

/// A carrier designation that breaks BE-2 or NU-3.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("{reason}")]
pub struct DesignationError {
    /// What was wrong, e.g. "e1 holds your king; a Beirut carrier cannot be the king".
    pub reason: String,
    /// The rule the choice broke, for callers that branch on it.
    pub kind: DesignationErrorKind,
}

impl DesignationError {
    /// An error of `kind` explained by `reason`.
    pub fn new(kind: DesignationErrorKind, reason: impl Into<String>) -> DesignationError {
        DesignationError {
            reason: reason.into(),
            kind,
        }
    }
}

/// Why a carrier designation was refused (BE-2, NU-3).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
#[non_exhaustive]
pub enum DesignationErrorKind {
    /// The variant has no bomb carriers.
    NoCarriers,
    /// The side has already chosen, or play has started (BE-2, NU-3).
    Closed,
    /// Not the number of carriers the game asks for (BE-2: N; NU-3: one).
    WrongCount,
    /// A square that is not on the board.
    OffBoard,
    /// A square with no piece.
    Empty,
    /// A square with an enemy piece.
    NotYours,
    /// The king, which cannot carry in Beirut (BE-2).
    King,
    /// The same square twice (BE-2: distinct pieces).
    Duplicate,
    /// Designating on a view that hides the other side's choice (NU-3).
    HiddenView,
}

/// Game options that the variant does not accept (e.g. 16 Beirut carriers).
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("{reason}")]
pub struct OptionsError {
    /// What was wrong and what the allowed values are.
    pub reason: String,
}

/// What kind of failure [`PlayError`] is, for callers that branch on it.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
#[non_exhaustive]
pub enum PlayErrorKind {
    /// The game is over (C-3).
    GameOver,
    /// Carriers must be chosen first (BE-2, NU-3).
    AwaitingDesignation,
    /// It is the other player's turn (C-2).
    NotYourTurn,
    /// The text is not in the notation's grammar (C-5).
    Unparseable,
    /// No legal action matches the text.
    Illegal,
    /// Several legal actions match the text.
    Ambiguous,
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

impl PlayError {
    /// The kind of failure; `Display` stays the message for people.
    pub fn kind(&self) -> PlayErrorKind {
        match self {
            PlayError::Finished(_) => PlayErrorKind::GameOver,
            PlayError::AwaitingDesignation(_) => PlayErrorKind::AwaitingDesignation,
            PlayError::NotYourTurn(_) => PlayErrorKind::NotYourTurn,
            PlayError::Action(e) => match e.kind() {
                ActionErrorKind::Unparseable => PlayErrorKind::Unparseable,
                ActionErrorKind::Ambiguous => PlayErrorKind::Ambiguous,
                ActionErrorKind::Illegal => PlayErrorKind::Illegal,
            },
        }
    }
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
