//! Positions a variant cannot reach from its setup, in the style of shakmaty's
//! `PositionError`: [`validate`] lists every [`PositionProblem`] of a position, each with a
//! matchable [`ProblemKind`], and a caller that wants to analyse such a position anyway
//! (the CLI's `--force` and `--ignore`) drops the kinds it accepts with
//! [`PositionError::ignore`].
//!
//! The checks are counts against the variant's own setup (AT-1, BE-1, NU-1, BM-1,
//! BA-1), so they apply to a serialization given from outside (`--fen`), never to a game
//! played from the start, which cannot break them:
//!
//! - every side has exactly one king, in the variants that have kings;
//! - a side has no more pieces than its setup;
//! - no more pawns than the setup, and no more of any other kind than the setup plus the
//!   promotions the missing pawns could have made (AT-1, BM-3; Bombalot has no promotion);
//! - no pawn on its first or last rank (pawns start on the second and promote on the last).
//!
//! ```
//! use kaboom_rules::{AnyGame, Variant, validity::{self, ProblemKind}};
//!
//! let empty = AnyGame::from_fen(Variant::Atomic, "8/8/8/8/8/8/8/8 w - - 0 1").unwrap();
//! let err = validity::validate(&empty).unwrap_err();
//! assert!(err.kinds().contains(&ProblemKind::MissingKing));
//! // Analysis that accepts kingless positions:
//! assert!(err.ignore(&[ProblemKind::MissingKing]).is_ok());
//! ```

use std::fmt;
use std::str::FromStr;

use crate::{AnyGame, BoardView, Color, GameOptions, Kind, Square, Variant, Viewer};

/// One reason a position cannot arise in its variant.
#[derive(Clone, Debug, Eq, PartialEq, Hash)]
#[non_exhaustive]
pub enum PositionProblem {
    /// `color` has no king in a variant where each side has one (AT-1, BM-1).
    MissingKing {
        /// The side without a king.
        color: Color,
    },
    /// `color` has `count` kings (more than one).
    TooManyKings {
        /// The side.
        color: Color,
        /// How many kings it has.
        count: usize,
    },
    /// `color` has more pieces than its setup (`max`).
    TooManyPieces {
        /// The side.
        color: Color,
        /// How many pieces it has.
        count: usize,
        /// How many its setup has.
        max: usize,
    },
    /// `color` has more of `kind` than its setup and promotions allow (`max`, counted with
    /// the pawns it has left).
    ImpossibleMaterial {
        /// The side.
        color: Color,
        /// The kind there is too much of.
        kind: Kind,
        /// How many it has.
        count: usize,
        /// The most it could have.
        max: usize,
    },
    /// A pawn of `color` stands on the first or last rank, where no pawn ever stands.
    PawnOnBackRank {
        /// The pawn's side.
        color: Color,
        /// Its square.
        square: Square,
    },
}

impl PositionProblem {
    /// The kind of problem, for matching and for `--ignore`.
    pub fn kind(&self) -> ProblemKind {
        match self {
            PositionProblem::MissingKing { .. } => ProblemKind::MissingKing,
            PositionProblem::TooManyKings { .. } => ProblemKind::TooManyKings,
            PositionProblem::TooManyPieces { .. } => ProblemKind::TooManyPieces,
            PositionProblem::ImpossibleMaterial { .. } => ProblemKind::ImpossibleMaterial,
            PositionProblem::PawnOnBackRank { .. } => ProblemKind::PawnOnBackRank,
        }
    }
}

impl fmt::Display for PositionProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionProblem::MissingKing { color } => {
                write!(f, "{color} has no king; each side has exactly one")
            }
            PositionProblem::TooManyKings { color, count } => {
                write!(f, "{color} has {count} kings; each side has exactly one")
            }
            PositionProblem::TooManyPieces { color, count, max } => write!(
                f,
                "{color} has {count} pieces; the setup has {max} and no piece is ever added"
            ),
            PositionProblem::ImpossibleMaterial {
                color,
                kind,
                count,
                max,
            } => write!(
                f,
                "{color} has {count} {}; the setup and promotions allow at most {max}",
                kind_plural(*kind)
            ),
            PositionProblem::PawnOnBackRank { color, square } => write!(
                f,
                "a {color} pawn stands on {square}; pawns never stand on the first or last rank"
            ),
        }
    }
}

fn kind_plural(kind: Kind) -> String {
    format!("{}s", kind.name().replace('-', " "))
}

/// The matchable kinds of [`PositionProblem`], named on the command line as
/// `missing-king`, `too-many-kings`, `too-many-pieces`, `impossible-material` and
/// `pawn-on-back-rank`.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd)]
#[non_exhaustive]
pub enum ProblemKind {
    /// [`PositionProblem::MissingKing`].
    MissingKing,
    /// [`PositionProblem::TooManyKings`].
    TooManyKings,
    /// [`PositionProblem::TooManyPieces`].
    TooManyPieces,
    /// [`PositionProblem::ImpossibleMaterial`].
    ImpossibleMaterial,
    /// [`PositionProblem::PawnOnBackRank`].
    PawnOnBackRank,
}

impl ProblemKind {
    /// Every kind, in declaration order.
    pub const ALL: [ProblemKind; 5] = [
        ProblemKind::MissingKing,
        ProblemKind::TooManyKings,
        ProblemKind::TooManyPieces,
        ProblemKind::ImpossibleMaterial,
        ProblemKind::PawnOnBackRank,
    ];

    /// The command-line name, e.g. `"missing-king"`.
    pub const fn name(self) -> &'static str {
        match self {
            ProblemKind::MissingKing => "missing-king",
            ProblemKind::TooManyKings => "too-many-kings",
            ProblemKind::TooManyPieces => "too-many-pieces",
            ProblemKind::ImpossibleMaterial => "impossible-material",
            ProblemKind::PawnOnBackRank => "pawn-on-back-rank",
        }
    }
}

impl fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of [`ProblemKind`]'s.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error(
    "'{0}' is not a position problem: expected missing-king, too-many-kings, too-many-pieces, impossible-material or pawn-on-back-rank"
)]
pub struct ParseProblemKindError(pub String);

impl FromStr for ProblemKind {
    type Err = ParseProblemKindError;
    fn from_str(s: &str) -> Result<ProblemKind, ParseProblemKindError> {
        let s = s.trim();
        ProblemKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| ParseProblemKindError(s.to_string()))
    }
}

/// Every problem [`validate`] found in one position (never empty).
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct PositionError {
    /// The variant of the position.
    pub variant: Variant,
    /// The problems, kings first, then counts, then squares.
    pub problems: Vec<PositionProblem>,
}

impl PositionError {
    /// The kinds of the problems, each once, in [`ProblemKind`] order.
    pub fn kinds(&self) -> Vec<ProblemKind> {
        let mut kinds: Vec<ProblemKind> = self.problems.iter().map(PositionProblem::kind).collect();
        kinds.sort();
        kinds.dedup();
        kinds
    }

    /// Drops the problems of the `accepted` kinds: `Ok` when none is left (the caller
    /// analyses the position anyway), else the error with the rest.
    ///
    /// # Errors
    /// The same error without the accepted problems, when some are left.
    pub fn ignore(mut self, accepted: &[ProblemKind]) -> Result<(), PositionError> {
        self.problems.retain(|p| !accepted.contains(&p.kind()));
        if self.problems.is_empty() {
            Ok(())
        } else {
            Err(self)
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "this {} position cannot arise in play: ", self.variant)?;
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p} ({})", p.kind())?;
        }
        Ok(())
    }
}

impl std::error::Error for PositionError {}

/// The kinds a pawn of `variant` may promote to (AT-1 as chess, BM-3); none in Bombalot.
const fn promotion_kinds(variant: Variant) -> &'static [Kind] {
    match variant {
        Variant::Bomberman => &[Kind::Knight, Kind::Bishop, Kind::Rook, Kind::KingBattler],
        Variant::Bombalot => &[],
        _ => &[Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen],
    }
}

fn count(view: &BoardView, color: Color, kind: Option<Kind>) -> usize {
    view.pieces
        .iter()
        .filter(|p| p.color == color && kind.is_none_or(|k| p.kind == k))
        .count()
}

/// Checks the current position of `game` against its variant's setup (see the module
/// documentation for the list).
///
/// # Errors
/// [`PositionError`] with every problem found.
pub fn validate(game: &AnyGame) -> Result<(), PositionError> {
    validate_view(&game.board_view(Viewer::Full))
}

/// As [`validate`], on a board view (which should be [`Viewer::Full`]'s: the checks count
/// pieces, and no view hides a piece).
///
/// # Errors
/// [`PositionError`] with every problem found.
pub fn validate_view(view: &BoardView) -> Result<(), PositionError> {
    let variant = view.variant;
    let Ok(start) = AnyGame::new(variant, GameOptions::default()) else {
        return Ok(());
    };
    let setup = start.board_view(Viewer::Full);
    let mut problems = Vec::new();
    for color in Color::ALL {
        if count(&setup, color, Some(Kind::King)) > 0 {
            match count(view, color, Some(Kind::King)) {
                0 => problems.push(PositionProblem::MissingKing { color }),
                1 => {}
                n => problems.push(PositionProblem::TooManyKings { color, count: n }),
            }
        }
    }
    for color in Color::ALL {
        let (have, max) = (count(view, color, None), count(&setup, color, None));
        if have > max {
            problems.push(PositionProblem::TooManyPieces {
                color,
                count: have,
                max,
            });
        }
        let pawns = count(view, color, Some(Kind::Pawn));
        let setup_pawns = count(&setup, color, Some(Kind::Pawn));
        if pawns > setup_pawns {
            problems.push(PositionProblem::ImpossibleMaterial {
                color,
                kind: Kind::Pawn,
                count: pawns,
                max: setup_pawns,
            });
        }
        // Only the pawns no longer on the board can have promoted; each promotion makes
        // one piece of a promotion kind beyond the setup's.
        let mut spare = setup_pawns.saturating_sub(pawns);
        for kind in Kind::ALL {
            if matches!(kind, Kind::King | Kind::Pawn) {
                continue;
            }
            let promotable = promotion_kinds(variant).contains(&kind);
            let (have, base) = (
                count(view, color, Some(kind)),
                count(&setup, color, Some(kind)),
            );
            let max = base + if promotable { spare } else { 0 };
            if have > max {
                problems.push(PositionProblem::ImpossibleMaterial {
                    color,
                    kind,
                    count: have,
                    max,
                });
            }
            if promotable {
                spare -= have.saturating_sub(base).min(spare);
            }
        }
    }
    // Ranks 1 and 8 in every variant with pawns (C-1); Bombalot has none.
    let (first, last) = (1, 8);
    for p in &view.pieces {
        if p.kind == Kind::Pawn && (p.square.rank() == first || p.square.rank() == last) {
            problems.push(PositionProblem::PawnOnBackRank {
                color: p.color,
                square: p.square,
            });
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(PositionError { variant, problems })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(variant: Variant, fen: &str) -> AnyGame {
        AnyGame::from_fen(variant, fen).unwrap()
    }

    #[test]
    fn start_positions_are_valid() {
        for v in Variant::ALL {
            let g = AnyGame::new(v, GameOptions::default()).unwrap();
            assert_eq!(validate(&g), Ok(()), "{v}");
        }
    }

    #[test]
    fn kingless_atomic_is_refused_and_can_be_ignored() {
        let err = validate(&game(Variant::Atomic, "8/8/8/8/8/8/8/8 w - - 0 1")).unwrap_err();
        assert_eq!(
            err.problems,
            vec![
                PositionProblem::MissingKing {
                    color: Color::White
                },
                PositionProblem::MissingKing {
                    color: Color::Black
                },
            ]
        );
        assert_eq!(err.kinds(), vec![ProblemKind::MissingKing]);
        assert!(err.to_string().contains("white has no king"), "{err}");
        assert!(err.clone().ignore(&[ProblemKind::PawnOnBackRank]).is_err());
        assert_eq!(err.ignore(&[ProblemKind::MissingKing]), Ok(()));
    }

    #[test]
    fn pawns_on_back_ranks_and_extra_material() {
        // The chess serializations already refuse a pawn on rank 1 or 8; a view built
        // otherwise is checked too.
        let mut view = AnyGame::new(Variant::Atomic, GameOptions::default())
            .unwrap()
            .board_view(Viewer::Full);
        let a2: Square = "a2".parse().unwrap();
        let pawn = view.pieces.iter_mut().find(|p| p.square == a2).unwrap();
        pawn.square = "a8".parse().unwrap();
        let err = validate_view(&view).unwrap_err();
        assert!(err.problems.contains(&PositionProblem::PawnOnBackRank {
            color: Color::White,
            square: "a8".parse().unwrap()
        }));
        // Nine pawns and four queens: no pawn left to have promoted.
        let err = validate(&game(
            Variant::Atomic,
            "4k3/8/8/8/8/P7/PPPPPPPP/QQQQK3 w - - 0 1",
        ))
        .unwrap_err();
        assert!(err.problems.contains(&PositionProblem::ImpossibleMaterial {
            color: Color::White,
            kind: Kind::Pawn,
            count: 9,
            max: 8
        }));
        assert!(err.problems.contains(&PositionProblem::ImpossibleMaterial {
            color: Color::White,
            kind: Kind::Queen,
            count: 4,
            max: 1
        }));
        assert!(
            err.kinds().contains(&ProblemKind::ImpossibleMaterial),
            "{err}"
        );
    }

    #[test]
    fn promotions_are_allowed_when_pawns_are_missing() {
        // Three queens, six pawns: two pawns promoted.
        let g = game(Variant::Atomic, "4k3/8/8/8/8/8/PPPPPP2/QQQ1K3 w - - 0 1");
        assert_eq!(validate(&g), Ok(()));
        // Three queens and eight pawns: impossible.
        let g = game(Variant::Atomic, "4k3/8/8/8/8/8/PPPPPPPP/QQQ1K3 w - - 0 1");
        let err = validate(&g).unwrap_err();
        assert_eq!(
            err.problems,
            vec![PositionProblem::ImpossibleMaterial {
                color: Color::White,
                kind: Kind::Queen,
                count: 3,
                max: 1
            }]
        );
    }

    #[test]
    fn bombalot_needs_no_king() {
        let g = game(
            Variant::Bombalot,
            &AnyGame::new(Variant::Bombalot, GameOptions::default())
                .unwrap()
                .fen(Viewer::Full),
        );
        assert_eq!(validate(&g), Ok(()));
    }

    #[test]
    fn problem_kinds_parse_by_name() {
        for k in ProblemKind::ALL {
            assert_eq!(k.name().parse::<ProblemKind>(), Ok(k));
        }
        assert!("no-king".parse::<ProblemKind>().is_err());
    }
}
