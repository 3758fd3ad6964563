//! Game results, end reasons and the removal report (rulings C-3 and C-6).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{Color, Piece, Square};

/// Why a game ended (ruling C-3). Serialized with the `status.reason` vocabulary of the
/// CLI (`"king-exploded"`, `"hundred-ply"`, ...; docs/ARCHITECTURE.md).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// The side to move is in check and has no legal action.
    Checkmate,
    /// One king was destroyed by an explosion; its side lost.
    KingExploded,
    /// Both kings were destroyed by one action: a draw (NU-8, BE-6).
    KingsExploded,
    /// A side has two pieces in the opponent's goal (Bombalot, BA-11).
    Goal,
    /// A side has no piece on the board (Bombalot, BA-11).
    NoPieces,
    /// The side to move has no legal action in Bombalot and loses (BA-11).
    Immobilized,
    /// The side to move has no legal action and is not in check: a draw.
    Stalemate,
    /// The same position occurred for the third time: a draw (C-4).
    Repetition,
    /// 100 plies in a row without a capture, explosion, pawn or tweke move or goal entry (C-4).
    HundredPly,
    /// Neither side can win any more (AT-9).
    InsufficientMaterial,
    /// Both players agreed to a draw.
    Agreement,
    /// A player resigned.
    Resignation,
    /// A player let the correspondence deadline pass.
    TimeForfeit,
    /// The game was called off before it really started.
    Aborted,
    /// A league decided the result of a game still running at its round's deadline (the
    /// engine's evaluation: docs/leagues.md, "Adjudication").
    Adjudication,
}

impl EndReason {
    /// The kebab-case name used in JSON, e.g. `"king-exploded"`.
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::KingExploded => "king-exploded",
            EndReason::KingsExploded => "kings-exploded",
            EndReason::Goal => "goal",
            EndReason::NoPieces => "no-pieces",
            EndReason::Immobilized => "immobilized",
            EndReason::Stalemate => "stalemate",
            EndReason::Repetition => "repetition",
            EndReason::HundredPly => "hundred-ply",
            EndReason::InsufficientMaterial => "insufficient-material",
            EndReason::Agreement => "agreement",
            EndReason::Resignation => "resignation",
            EndReason::TimeForfeit => "time-forfeit",
            EndReason::Aborted => "aborted",
            EndReason::Adjudication => "adjudication",
        }
    }

    /// A phrase for people: `"king exploded"`, `"threefold repetition"`.
    pub const fn describe(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::KingExploded => "king exploded",
            EndReason::KingsExploded => "both kings exploded",
            EndReason::Goal => "two pieces in the goal",
            EndReason::NoPieces => "no pieces left",
            EndReason::Immobilized => "no legal action",
            EndReason::Stalemate => "stalemate",
            EndReason::Repetition => "threefold repetition",
            EndReason::HundredPly => "100 plies without progress",
            EndReason::InsufficientMaterial => "insufficient material",
            EndReason::Agreement => "draw by agreement",
            EndReason::Resignation => "resignation",
            EndReason::TimeForfeit => "time forfeit",
            EndReason::Aborted => "aborted",
            EndReason::Adjudication => "adjudication",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a finished game ended: the winner (`None` for a draw or an aborted game) and why.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize)]
pub struct Outcome {
    /// The side that won, or `None` for a draw (and for an aborted game).
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// A win for `winner`.
    pub const fn win(winner: Color, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    /// A draw (or, with [`EndReason::Aborted`], no result).
    pub const fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// The PGN result: `"1-0"`, `"0-1"`, `"1/2-1/2"`, or `"*"` for an aborted game.
    pub const fn result(&self) -> &'static str {
        match (self.winner, self.reason) {
            (_, EndReason::Aborted) => "*",
            (Some(Color::White), _) => "1-0",
            (Some(Color::Black), _) => "0-1",
            (None, _) => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(c) => write!(
                f,
                "{} ({} wins by {})",
                self.result(),
                c,
                self.reason.describe()
            ),
            None => write!(f, "{} ({})", self.result(), self.reason.describe()),
        }
    }
}

/// Whether a game goes on or is over (ruling C-3: every position has exactly one).
///
/// Serializes as the CLI's `status` object: `{"state": "ongoing"}` or
/// `{"state": "finished", "result": "1-0", "reason": "checkmate"}`.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum Status {
    /// The game goes on.
    Ongoing,
    /// The game is over.
    Finished(Outcome),
}

impl Status {
    /// The status of a game that ended with `outcome`, or is ongoing for `None`.
    pub fn from_outcome(outcome: Option<Outcome>) -> Status {
        outcome.map_or(Status::Ongoing, Status::Finished)
    }

    /// The outcome, for a finished game.
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            Status::Ongoing => None,
            Status::Finished(o) => Some(*o),
        }
    }

    /// Whether the game is over.
    pub fn is_finished(&self) -> bool {
        matches!(self, Status::Finished(_))
    }
}

#[derive(Serialize, Deserialize)]
struct StatusRepr {
    state: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    result: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reason: Option<EndReason>,
}

impl Serialize for Status {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let repr = match self {
            Status::Ongoing => StatusRepr {
                state: "ongoing".into(),
                result: None,
                reason: None,
            },
            Status::Finished(o) => StatusRepr {
                state: "finished".into(),
                result: Some(o.result().into()),
                reason: Some(o.reason),
            },
        };
        repr.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Status {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Status, D::Error> {
        use serde::de::Error;
        let repr = StatusRepr::deserialize(deserializer)?;
        match (repr.state.as_str(), repr.result.as_deref(), repr.reason) {
            ("ongoing", _, _) => Ok(Status::Ongoing),
            ("finished", Some(result), Some(reason)) => {
                let winner = match result {
                    "1-0" => Some(Color::White),
                    "0-1" => Some(Color::Black),
                    "1/2-1/2" | "*" => None,
                    other => return Err(D::Error::custom(format!("unknown result '{other}'"))),
                };
                Ok(Status::Finished(Outcome { winner, reason }))
            }
            _ => Err(D::Error::custom(
                "status needs state ongoing, or finished with result and reason",
            )),
        }
    }
}

/// Why an action removed a piece (ruling C-6; the CLI's `removed[].cause` vocabulary,
/// docs/ARCHITECTURE.md).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cause {
    /// Taken by an ordinary capture.
    Captured,
    /// Destroyed by an explosion: an atomic blast, a Boom, a bomb wave or blast.
    Exploded,
    /// Jumped over by a tweke (Bombalot, BA-4).
    Jumped,
    /// Pushed off the board by a tank (Bombalot, BA-6).
    PushedOff,
    /// Standing on a detonator's co-square (Bombalot, BA-7).
    CoSquare,
}

impl Cause {
    /// The kebab-case name used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Cause::Captured => "captured",
            Cause::Exploded => "exploded",
            Cause::Jumped => "jumped",
            Cause::PushedOff => "pushed-off",
            Cause::CoSquare => "co-square",
        }
    }
}

/// One piece an action removed, where it stood and why (ruling C-6).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize)]
pub struct Removal {
    /// The square the piece stood on when it was removed.
    pub square: Square,
    /// The piece.
    pub piece: Piece,
    /// Why it was removed.
    pub cause: Cause,
}
