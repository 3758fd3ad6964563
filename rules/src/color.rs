//! The two sides.

use std::fmt;
use std::ops::Not;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A side: White moves first (ruling C-2).
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// The side that moves first, starting on ranks 1 and 2.
    White,
    /// The side that moves second, starting on ranks 7 and 8.
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: an index into per-colour arrays.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `"white"` or `"black"`, the CLI's JSON vocabulary (docs/ARCHITECTURE.md).
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// `'w'` or `'b'`, as in the side-to-move field of FEN.
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// `+1` for White (moves towards higher ranks), `-1` for Black.
    pub const fn forward(self) -> i8 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

impl Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A colour name other than `white`/`black` (or `w`/`b`).
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("'{0}' is not a colour: expected white or black")]
pub struct ParseColorError(pub String);

impl FromStr for Color {
    type Err = ParseColorError;
    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        match s.to_ascii_lowercase().as_str() {
            "white" | "w" => Ok(Color::White),
            "black" | "b" => Ok(Color::Black),
            _ => Err(ParseColorError(s.to_string())),
        }
    }
}
