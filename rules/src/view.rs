//! What one player, or a spectator, may see of a position (docs/rules/RULINGS.md section 6).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::{Color, Kind, Square, Status, Variant};

/// Who looks at a game. Hidden information (Beirut carriers, BE-2) is shown only to
/// its owner and to [`Viewer::Full`], which is for storage and analysis, never for
/// anything public.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Viewer {
    /// The White player: sees White's secrets only.
    White,
    /// The Black player: sees Black's secrets only.
    Black,
    /// Anyone else: sees no secret.
    Spectator,
    /// The whole state with every secret (storage, analysis, the end-of-game reveal).
    Full,
}

impl Viewer {
    /// Whether this viewer may see the secrets of `color`.
    pub const fn sees(self, color: Color) -> bool {
        match self {
            Viewer::Full => true,
            Viewer::Spectator => false,
            Viewer::White => matches!(color, Color::White),
            Viewer::Black => matches!(color, Color::Black),
        }
    }

    /// The player's viewer for `color`.
    pub const fn player(color: Color) -> Viewer {
        match color {
            Color::White => Viewer::White,
            Color::Black => Viewer::Black,
        }
    }

    /// The lower-case name: `white`, `black`, `spectator`, `full` (the CLI's `--as`).
    pub const fn name(self) -> &'static str {
        match self {
            Viewer::White => "white",
            Viewer::Black => "black",
            Viewer::Spectator => "spectator",
            Viewer::Full => "full",
        }
    }
}

impl fmt::Display for Viewer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A viewer name other than `white`, `black`, `spectator`, `full`.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("'{0}' is not a viewer: expected white, black, spectator or full")]
pub struct ParseViewerError(pub String);

impl FromStr for Viewer {
    type Err = ParseViewerError;
    fn from_str(s: &str) -> Result<Viewer, ParseViewerError> {
        match s.to_ascii_lowercase().as_str() {
            "white" => Ok(Viewer::White),
            "black" => Ok(Viewer::Black),
            "spectator" => Ok(Viewer::Spectator),
            "full" => Ok(Viewer::Full),
            _ => Err(ParseViewerError(s.to_string())),
        }
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One piece as a viewer sees it: the CLI's `board[]` entries (docs/ARCHITECTURE.md).
#[derive(Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize)]
pub struct PieceView {
    /// Where it stands (goal squares included).
    pub square: Square,
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub kind: Kind,
    /// It carries a bomb, as far as this viewer may know (Beirut owner or Nuke: public).
    #[serde(default, skip_serializing_if = "is_false")]
    pub carrier: bool,
    /// It may not act this turn (Nuke NU-5 frozen royals, Bombalot BA-3 freezing).
    #[serde(default, skip_serializing_if = "is_false")]
    pub frozen: bool,
    /// Bombalot imitator: the kind whose powers it has now (BA-10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imitating: Option<Kind>,
    /// Bombalot: it stands in a goal and is locked for the rest of the game (BA-2).
    #[serde(default, skip_serializing_if = "is_false")]
    pub locked: bool,
}

/// Loose (inert) Nuke bombs lying on one square (NU-9).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Serialize, Deserialize)]
pub struct LooseBombs {
    /// The square.
    pub square: Square,
    /// How many bombs lie there (1 or 2).
    pub count: u8,
}

/// Everything a picture or a listing of a position needs, variant-independent, as one
/// viewer sees it. Built by [`crate::Position::board_view`] on an already viewed position.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
pub struct BoardView {
    /// The variant, which fixes the geometry.
    pub variant: Variant,
    /// Every piece on the board and in goals, in canonical square order.
    pub pieces: Vec<PieceView>,
    /// Nuke's loose bombs, in canonical square order.
    pub loose_bombs: Vec<LooseBombs>,
    /// The side to move.
    pub turn: Color,
    /// The FEN fullmove number: 1 at the start, +1 after each Black action.
    pub fullmoves: u32,
    /// Squares of kings that are in check (public in every variant, section 6).
    pub checked: Vec<Square>,
    /// Whether the game goes on, judged from the board (ends the board itself decides).
    pub status: Status,
    /// Sides that still have to choose their carriers (Beirut, Nuke; BE-2, NU-3).
    pub awaiting_designation: Vec<Color>,
}

impl BoardView {
    /// The piece view on `square`, if any.
    pub fn piece_at(&self, square: Square) -> Option<&PieceView> {
        self.pieces.iter().find(|p| p.square == square)
    }
}
