//! Piece kinds of all five variants.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::Color;

/// Every kind of piece that appears in any variant.
///
/// The serialized names are the full lower-case names of docs/rules/RULINGS.md
/// (`king-battler`, `super-tweke`, ...), the `kind` vocabulary of the CLI's JSON
/// (docs/ARCHITECTURE.md).
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Chess pawn (all chess-like variants, Bomberman Chess).
    Pawn,
    /// Chess knight.
    Knight,
    /// Chess bishop.
    Bishop,
    /// Chess rook.
    Rook,
    /// Chess queen (not in Bomberman Chess or Bombalot).
    Queen,
    /// Chess king.
    King,
    /// Bomberman Chess defuser: 1-3 squares as a queen, removes enemy bombs safely (BM-2, BM-7).
    Defuser,
    /// Bomberman Chess or Bombalot bomb (BM-2, BA-9).
    Bomb,
    /// Bomberman Chess promotion piece that moves as a queen and is not royal (BM-3).
    KingBattler,
    /// Bombalot tweke (BA-4).
    Tweke,
    /// Bombalot super-tweke (BA-5).
    SuperTweke,
    /// Bombalot tank (BA-6).
    Tank,
    /// Bombalot detonator (BA-7).
    Detonator,
    /// Bombalot immobilizer (BA-8).
    Immobilizer,
    /// Bombalot imitator (BA-10).
    Imitator,
}

impl Kind {
    /// All kinds, in declaration order.
    pub const ALL: [Kind; 15] = [
        Kind::Pawn,
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::Queen,
        Kind::King,
        Kind::Defuser,
        Kind::Bomb,
        Kind::KingBattler,
        Kind::Tweke,
        Kind::SuperTweke,
        Kind::Tank,
        Kind::Detonator,
        Kind::Immobilizer,
        Kind::Imitator,
    ];

    /// The lower-case name used in JSON and messages, e.g. `"king-battler"`.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Pawn => "pawn",
            Kind::Knight => "knight",
            Kind::Bishop => "bishop",
            Kind::Rook => "rook",
            Kind::Queen => "queen",
            Kind::King => "king",
            Kind::Defuser => "defuser",
            Kind::Bomb => "bomb",
            Kind::KingBattler => "king-battler",
            Kind::Tweke => "tweke",
            Kind::SuperTweke => "super-tweke",
            Kind::Tank => "tank",
            Kind::Detonator => "detonator",
            Kind::Immobilizer => "immobilizer",
            Kind::Imitator => "imitator",
        }
    }

    /// The name for people, capitalised: `"Knight"`, `"King Battler"`, `"Super-tweke"`.
    pub const fn title(self) -> &'static str {
        match self {
            Kind::Pawn => "Pawn",
            Kind::Knight => "Knight",
            Kind::Bishop => "Bishop",
            Kind::Rook => "Rook",
            Kind::Queen => "Queen",
            Kind::King => "King",
            Kind::Defuser => "Defuser",
            Kind::Bomb => "Bomb",
            Kind::KingBattler => "King Battler",
            Kind::Tweke => "Tweke",
            Kind::SuperTweke => "Super-tweke",
            Kind::Tank => "Tank",
            Kind::Detonator => "Detonator",
            Kind::Immobilizer => "Immobilizer",
            Kind::Imitator => "Imitator",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece kind name that is not one of [`Kind::ALL`]'s names.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error(
    "'{0}' is not a piece kind: expected one of pawn, knight, bishop, rook, queen, king, defuser, bomb, king-battler, tweke, super-tweke, tank, detonator, immobilizer, imitator"
)]
pub struct ParseKindError(pub String);

impl FromStr for Kind {
    type Err = ParseKindError;
    fn from_str(s: &str) -> Result<Kind, ParseKindError> {
        let lower = s.to_ascii_lowercase();
        Kind::ALL
            .into_iter()
            .find(|k| k.name() == lower)
            .ok_or_else(|| ParseKindError(s.to_string()))
    }
}

/// A piece: a kind and the colour of the side that controls it.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug, Serialize, Deserialize)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What it is.
    pub kind: Kind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece { color, kind }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color, self.kind)
    }
}
