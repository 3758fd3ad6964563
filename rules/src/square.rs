//! Squares and board geometry shared by all five variants (ruling C-1).
//!
//! Every board fits in one 10x10 grid of ranks `0..=9` and files `a..=j`: the
//! chess-like variants use files a-h and ranks 1-8, Bomberman Chess files a-j and
//! ranks 1-8, and Bombalot files a-h, ranks 1-8 plus the goal squares d0, e0, d9, e9.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// One square of the 10x10 grid that holds every variant's board.
///
/// Its index is `rank * 10 + file` (file 0 = `a`, rank as printed, so `a1` is 10 and
/// `e9` is 94). Ordering squares by index gives the canonical order (docs/ARCHITECTURE.md,
/// "Serialization"): by rank from White's side, then by file from `a`.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
pub struct Square(u8);

impl Square {
    /// Number of files and of ranks in the grid (10).
    pub const GRID: u8 = 10;

    /// The square on `file` (0 = `a` .. 9 = `j`) and `rank` (0..=9, as printed),
    /// or `None` when either is outside the 10x10 grid.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < Self::GRID && rank < Self::GRID {
            Some(Square(rank * Self::GRID + file))
        } else {
            None
        }
    }

    /// The square with grid index `index` (`rank * 10 + file`), or `None` past 99.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < Self::GRID * Self::GRID {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The grid index, `rank * 10 + file`, in `0..100`.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The file, 0 for `a` up to 9 for `j`.
    pub const fn file(self) -> u8 {
        self.0 % Self::GRID
    }

    /// The rank as printed: 1 for White's first rank, 0 and 9 for Bombalot goals.
    pub const fn rank(self) -> u8 {
        self.0 / Self::GRID
    }

    /// The file's letter, `'a'..='j'`.
    pub const fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    /// The square `df` files and `dr` ranks away, if it is still inside the 10x10 grid.
    /// Whether it is on a given variant's board is [`Geometry::contains`]'s business.
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || r < 0 || f >= Self::GRID as i8 || r >= Self::GRID as i8 {
            None
        } else {
            Some(Square((r as u8) * Self::GRID + f as u8))
        }
    }

    /// Chebyshev (king-move) distance between two squares.
    pub fn distance(self, other: Square) -> u8 {
        self.file()
            .abs_diff(other.file())
            .max(self.rank().abs_diff(other.rank()))
    }

    /// The square mirrored across the board's horizontal middle, for a board of ranks
    /// 1..=8 (rank `r` becomes `9 - r`; goal ranks 0 and 9 swap too).
    pub const fn flip_vertical(self) -> Square {
        Square((9 - self.rank()) * Self::GRID + self.file())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank())
    }
}

/// A square name that is not a file letter `a`-`j` followed by a rank digit `0`-`9`.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("'{0}' is not a square: expected a file a-j then a rank 0-9, like e4")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.as_bytes() {
            [f @ b'a'..=b'j', r @ b'0'..=b'9'] => Ok(Square((r - b'0') * Self::GRID + (f - b'a'))),
            _ => Err(ParseSquareError(s.to_string())),
        }
    }
}

impl Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Square, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The shape of a variant's board (ruling C-1).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Geometry {
    /// Number of files: 8, or 10 for Bomberman Chess.
    pub files: u8,
    /// Number of ranks on the main board: always 8 (ranks 1 to 8).
    pub ranks: u8,
    /// Whether the four Bombalot goal squares d0, e0, d9, e9 exist.
    pub goals: bool,
}

impl Geometry {
    /// The 8x8 board of Atomic, Beirut and Nuke.
    pub const CHESS: Geometry = Geometry {
        files: 8,
        ranks: 8,
        goals: false,
    };
    /// The 10x8 board of Bomberman Chess (BM-1).
    pub const BOMBERMAN: Geometry = Geometry {
        files: 10,
        ranks: 8,
        goals: false,
    };
    /// The 8x8 board plus goal squares of Bombalot (BA-2).
    pub const BOMBALOT: Geometry = Geometry {
        files: 8,
        ranks: 8,
        goals: true,
    };

    /// The goal squares d0, e0, d9, e9 (BA-2), in canonical order.
    pub const GOAL_SQUARES: [Square; 4] = [Square(3), Square(4), Square(93), Square(94)];

    /// Whether `sq` is a square of this board (goal squares included where they exist).
    pub fn contains(self, sq: Square) -> bool {
        let on_main = sq.file() < self.files && (1..=self.ranks).contains(&sq.rank());
        on_main || (self.goals && Self::GOAL_SQUARES.contains(&sq))
    }

    /// Whether `sq` is one of the four goal squares of Bombalot.
    pub fn is_goal(self, sq: Square) -> bool {
        self.goals && Self::GOAL_SQUARES.contains(&sq)
    }

    /// Every square of the board in canonical order (goal squares included).
    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..Square::GRID * Square::GRID)
            .map(Square)
            .filter(move |&sq| self.contains(sq))
    }

    /// Whether `sq` is a dark square: a1 is dark on the 8-file boards, and BM-1 makes j1
    /// dark on the 10-file board (so a1 is light there). Goal squares follow the pattern.
    pub fn is_dark(self, sq: Square) -> bool {
        ((sq.file() + sq.rank()) % 2 == 1) != (self.files == 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_print_and_parse_c1() {
        for name in ["a1", "h8", "j8", "d0", "e9", "j1"] {
            let sq: Square = name.parse().unwrap();
            assert_eq!(sq.to_string(), name);
        }
        assert!("k1".parse::<Square>().is_err());
        assert!("a".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
    }

    #[test]
    fn geometries_hold_the_right_squares_c1() {
        assert_eq!(Geometry::CHESS.squares().count(), 64);
        assert_eq!(Geometry::BOMBERMAN.squares().count(), 80);
        assert_eq!(Geometry::BOMBALOT.squares().count(), 68);
        let d0: Square = "d0".parse().unwrap();
        assert!(Geometry::BOMBALOT.contains(d0) && !Geometry::CHESS.contains(d0));
        let j1: Square = "j1".parse().unwrap();
        assert!(Geometry::BOMBERMAN.contains(j1) && !Geometry::CHESS.contains(j1));
        assert!(Geometry::CHESS.is_dark("a1".parse().unwrap()));
        assert!(!Geometry::CHESS.is_dark("h1".parse().unwrap()));
        assert!(Geometry::BOMBERMAN.is_dark(j1), "BM-1: j1 is dark");
    }

    #[test]
    fn canonical_order_is_rank_then_file() {
        let order: Vec<String> = Geometry::BOMBALOT
            .squares()
            .take(6)
            .map(|s| s.to_string())
            .collect();
        assert_eq!(order, ["d0", "e0", "a1", "b1", "c1", "d1"]);
    }
}
