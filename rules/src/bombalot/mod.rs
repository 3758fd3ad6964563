//! Bombalot, Sir Bombalot rules (docs/rules/RULINGS.md section 5, rulings BA-1 to BA-19).
//!
//! The board is the 8x8 board plus the goal squares d0, e0 (Black scores there) and
//! d9, e9 (White scores there), BA-2. Pieces: tweke (BA-4), super-tweke (BA-5), tank
//! (BA-6, BA-14), detonator (BA-7, BA-15), immobilizer (BA-3, BA-8), bomb (BA-9) and
//! imitator (BA-10, BA-18).
//!
//! # Serialization (FEN-style)
//!
//! Six space-separated fields, e.g. the start position (BA-1):
//!
//! ```text
//! id1om1dt/1swwwws1/2wwww2/8/8/2WWWW2/1SWWWWS1/ID1OM1DT w ---- -- 0 1
//! ```
//!
//! 1. **Placement** of ranks 8 down to 1, files a to h, as in FEN: digits count empty
//!    squares, White pieces are upper case, Black lower case. Letters: `W` tweke,
//!    `S` super-tweke, `T` tank, `D` detonator, `M` immobilizer, `O` bomb, `I` imitator.
//!    An imitator that has powers (BA-10: it has moved at least once) is followed by the
//!    letter of the kind it imitates in parentheses: `I(D)` is a White imitator with
//!    detonator powers, `i(o)` a Black imitator with bomb powers.
//! 2. **Side to move**: `w` or `b`.
//! 3. **Goals**: the contents of d0, e0, d9, e9 in that order, each `-` (empty) or one
//!    piece token as in the placement (`----` at the start; `--WO` means a White tweke on
//!    d9 and a White bomb on e9). Only Black pieces may stand on d0/e0 and only White
//!    pieces on d9/e9 (BA-2).
//! 4. **Last moved kinds** (BA-10, BA-12): two characters, the kind White moved in its
//!    last turn (upper case letter, `-` if White has not moved yet), then the kind Black
//!    moved (lower case, `-` if none). For an imitator this is the kind it moved as, so
//!    `I` never appears here. The imitator of the side to move moves as the other
//!    side's kind.
//! 5. **Halfmove clock**: plies since the last removal, tweke or super-tweke move (or
//!    imitator move as one) or goal entry (BA-12, C-4).
//! 6. **Fullmove number**, from 1, incremented after each Black action.
//!
//! [`Position::from_fen`] also accepts the first four fields alone (clocks `0 1`), as in
//! an EPD line of a perft file. The format is stable; `docs/notation/bombalot.md`
//! documents it with the notation.
//!
//! # Notation (C-5)
//!
//! One canonical text per action; [`Position::san`] prints it and
//! [`Position::parse_action`] reads it back:
//!
//! * `c3-c4`: a move from c3 to c4: a step, a detonator's knight move (onto a bomb too:
//!   the bomb explodes, BA-7), an immobilizer or bomb step, a tank step (with the push it
//!   implies, BA-6/BA-14), or an imitator doing any of these.
//! * `c3:e5:c7`: a jump sequence (tweke, super-tweke, immobilizer's single jump, or the
//!   imitator as one) listing every landing square. Of the sequences with the same
//!   landing square and the same removed pieces (one action, BA-17) the shortest is
//!   printed, ties broken by the smallest squares in order (canonical order: rank, then
//!   file). Input may give any legal path of the action.
//! * `d1!`: a bomb (or an imitator moving as one) exploding where it stands (BA-9).
//! * `d1-d2!`: a bomb stepping to d2 and exploding there.
//!
//! Input also accepts the coordinate form `c3c4` (the [`Position::uci`] form of moves),
//! a step written with `-` that is really a single jump (`c3-c5` for `c3:c5`),
//! upper-case letters, a removal suffix such as `->d4,e5` and trailing `+`, `#`, `?`,
//! `!`. A `!` right after the squares of a bomb's action means "explode"; after the
//! squares of any other piece it is an annotation glyph and ignored.
//!
//! # Bounds
//!
//! Jump sequences are finite because a directed jump is never repeated (BA-4). The
//! legal actions are generated without enumerating sequences: for each set of removed
//! pieces reachable by a sequence, every landing square reachable with exactly that set
//! is one action. So a piece has at most 8 steps, 8 knight moves, 9 explosions, and at
//! most `66 * 2^e` jump actions, where `e` is the number of enemy pieces other than
//! bombs on the board; the whole list has at most `n * (25 + 66 * 2^e)` actions for a
//! side with `n` pieces on the board. In practice the count of removal sets is tiny:
//! the benchmark in `docs/PERFORMANCE.md` records generation times.

mod apply;
mod fen;
mod movegen;
mod notation;

use std::fmt;

use crate::{
    ActionError, ActionSquares, BoardView, Color, EndReason, FenError, GameOptions, Kind,
    OptionsError, Outcome, PieceView, Position, Removal, Square, Status, Variant,
};

/// The grid has 100 cells (10x10); Bombalot uses a1-h8 and the four goal squares.
const CELLS: usize = 100;

/// A set of squares, one bit per grid index (`rank * 10 + file`), iterated in canonical
/// order. Used for the pieces a jump sequence removes (BA-4, BA-17).
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug, Default)]
pub struct SquareSet(u128);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet(0);

    /// Whether `sq` is in the set.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 == 1
    }

    /// The set with `sq` added.
    #[must_use]
    pub const fn with(self, sq: Square) -> SquareSet {
        SquareSet(self.0 | 1 << sq.index())
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of squares in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The squares, in canonical order.
    pub fn iter(self) -> impl Iterator<Item = Square> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Square::from_index(i)
        })
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<T: IntoIterator<Item = Square>>(iter: T) -> SquareSet {
        iter.into_iter().fold(SquareSet::EMPTY, SquareSet::with)
    }
}

/// What an action does, besides moving from [`BombalotAction::from`] to
/// [`BombalotAction::to`].
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
pub enum ActionKind {
    /// A step, a knight move (onto a bomb: it explodes, BA-7), or a tank step with the
    /// push it implies (BA-6). Written `c3-c4`.
    Move,
    /// A jump sequence (BA-4, BA-5, BA-8) ending on `to` and removing `removed` (the
    /// jumped enemy pieces that are not bombs). Written `c3:e5:c7` (BA-17).
    Jump {
        /// The pieces the sequence removes at the end of the move.
        removed: SquareSet,
    },
    /// A bomb exploding (BA-9): in place when `from == to` (`d1!`), else after a step
    /// (`d1-d2!`).
    Explode,
}

/// One Bombalot action: the piece on `from` acts and ends on `to` (see [`ActionKind`]).
///
/// Actions order by `from`, then `to`, then kind: the canonical order of the legal list.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
pub struct BombalotAction {
    /// The square of the acting piece.
    pub from: Square,
    /// Where it ends (equal to `from` for an explosion in place).
    pub to: Square,
    /// What the action is.
    pub kind: ActionKind,
}

/// One piece on the grid. `power` is only meaningful for an imitator: the kind whose
/// powers it has (BA-10, BA-18), `None` until its first move.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub(crate) struct Cell {
    pub(crate) color: Color,
    pub(crate) kind: Kind,
    pub(crate) power: Option<Kind>,
}

impl Cell {
    const fn new(color: Color, kind: Kind) -> Cell {
        Cell {
            color,
            kind,
            power: None,
        }
    }

    /// The kind whose powers the piece has (BA-18): its own kind, or for an imitator the
    /// kind it last moved as (`None` before its first move).
    fn power(self) -> Option<Kind> {
        if self.kind == Kind::Imitator {
            self.power
        } else {
            Some(self.kind)
        }
    }

    /// A bomb, or an imitator with bomb powers (BA-9, BA-18).
    fn is_bomb(self) -> bool {
        self.power() == Some(Kind::Bomb)
    }

    fn piece(self) -> crate::Piece {
        crate::Piece::new(self.color, self.kind)
    }
}

/// A position of Bombalot (docs/rules/RULINGS.md section 5). See the [module docs](self) for the
/// serialization and the notation.
#[derive(Clone, Eq, PartialEq, Hash)]
pub struct Bombalot {
    board: [Option<Cell>; CELLS],
    turn: Color,
    /// The kind each side moved in its last turn (BA-10, BA-12), by [`Color::index`].
    last_moved: [Option<Kind>; 2],
    halfmoves: u32,
    fullmoves: u32,
}

impl fmt::Debug for Bombalot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bombalot({})", self.to_fen())
    }
}

/// Whether `sq` is on the 8x8 main board (ranks 1-8, files a-h).
fn on_board(sq: Square) -> bool {
    MAIN_BOARD.contains(sq)
}

/// The main board's 64 squares (ranks 1-8, files a-h): a bit test instead of dividing the
/// grid index into file and rank in the move generator's inner loops.
const MAIN_BOARD: SquareSet = {
    let mut bits = 0u128;
    let mut rank = 1;
    while rank <= 8 {
        bits |= 0xff << (rank * Square::GRID);
        rank += 1;
    }
    SquareSet(bits)
};

/// Whether `sq` is a goal square where `color` scores (BA-2): d9/e9 for White, d0/e0
/// for Black.
fn scoring_goal(color: Color, sq: Square) -> bool {
    SCORING_GOALS[color.index()].contains(sq)
}

/// The goal squares where each colour scores (BA-2), by [`Color::index`]: d9 and e9 for
/// White, d0 and e0 for Black (from [`crate::Geometry::GOAL_SQUARES`], in canonical order).
const SCORING_GOALS: [SquareSet; 2] = {
    let [d0, e0, d9, e9] = crate::Geometry::GOAL_SQUARES;
    [
        SquareSet::EMPTY.with(d9).with(e9),
        SquareSet::EMPTY.with(d0).with(e0),
    ]
};

/// Whether `sq` is any goal square.
fn is_goal(sq: Square) -> bool {
    crate::Geometry::BOMBALOT.is_goal(sq)
}

/// The 8 king directions, in a fixed order.
const KING_DIRS: [(i8, i8); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];
/// The 4 tank directions (BA-6).
const ORTHO_DIRS: [(i8, i8); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];
/// The 8 knight leaps of the detonator (BA-7).
const KNIGHT_DIRS: [(i8, i8); 8] = [
    (-1, -2),
    (1, -2),
    (-2, -1),
    (2, -1),
    (-2, 1),
    (2, 1),
    (-1, 2),
    (1, 2),
];

/// `KING_STEPS[sq][i]`: the square one step in direction `KING_DIRS[i]` from grid index `sq`,
/// if it is on the 10x10 grid ([`Square::offset`], looked up instead of computed).
static KING_STEPS: [[Option<Square>; 8]; 100] = king_steps(1);

/// `KING_LEAPS[sq][i]`: two steps in direction `KING_DIRS[i]` (where a jump lands).
static KING_LEAPS: [[Option<Square>; 8]; 100] = king_steps(2);

/// The table of [`Square::offset`] by `scale` times each of [`KING_DIRS`], for every grid index.
const fn king_steps(scale: i8) -> [[Option<Square>; 8]; 100] {
    let mut table = [[None; 8]; 100];
    let mut index = 0;
    while index < 100 {
        if let Some(sq) = Square::from_index(index as u8) {
            let mut i = 0;
            while i < 8 {
                table[index][i] = sq.offset(scale * KING_DIRS[i].0, scale * KING_DIRS[i].1);
                i += 1;
            }
        }
        index += 1;
    }
    table
}

/// The squares one king step from `sq` on the 10x10 grid, in [`KING_DIRS`] order.
fn king_steps_from(sq: Square) -> impl Iterator<Item = Square> {
    KING_STEPS[sq.index() as usize].into_iter().flatten()
}

/// The squares of the main board, in canonical order.
fn board_squares() -> impl Iterator<Item = Square> {
    (1..=8u8).flat_map(|r| (0..8u8).filter_map(move |f| Square::new(f, r)))
}

/// The main-board neighbours of `sq` (goal squares excluded: their pieces are locked and
/// never blasted, frozen or freezing, BA-2/BA-16).
fn board_neighbours(sq: Square) -> impl Iterator<Item = Square> {
    king_steps_from(sq).filter(|&n| on_board(n))
}

impl Bombalot {
    fn empty(turn: Color) -> Bombalot {
        Bombalot {
            board: [None; CELLS],
            turn,
            last_moved: [None; 2],
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// The start position of BA-1.
    pub fn start_position() -> Bombalot {
        let mut pos = Bombalot::empty(Color::White);
        let back = [
            (0, Kind::Imitator),
            (1, Kind::Detonator),
            (3, Kind::Bomb),
            (4, Kind::Immobilizer),
            (6, Kind::Detonator),
            (7, Kind::Tank),
        ];
        for color in Color::ALL {
            let rank = |r: u8| if color == Color::White { r } else { 9 - r };
            let mut put = |f: u8, r: u8, kind: Kind| {
                let sq = Square::new(f, rank(r)).expect("start squares are on the grid");
                pos.board[sq.index() as usize] = Some(Cell::new(color, kind));
            };
            for (f, kind) in back {
                put(f, 1, kind);
            }
            put(1, 2, Kind::SuperTweke);
            put(6, 2, Kind::SuperTweke);
            for f in 2..=5 {
                put(f, 2, Kind::Tweke);
                put(f, 3, Kind::Tweke);
            }
        }
        pos
    }

    fn cell(&self, sq: Square) -> Option<Cell> {
        self.board[sq.index() as usize]
    }

    fn set(&mut self, sq: Square, cell: Option<Cell>) {
        self.board[sq.index() as usize] = cell;
    }

    /// The piece on `sq` (goal squares included), if any.
    pub fn piece_at(&self, sq: Square) -> Option<crate::Piece> {
        self.cell(sq).map(Cell::piece)
    }

    /// The kind `color` moved in its last turn (the kind an imitator moved as), BA-10.
    pub fn last_moved(&self, color: Color) -> Option<Kind> {
        self.last_moved[color.index()]
    }

    /// The kind whose powers the imitator on `sq` has (BA-10), or `None` when `sq` holds
    /// no imitator, a locked one, or one that has not moved yet.
    pub fn imitating(&self, sq: Square) -> Option<Kind> {
        self.cell(sq)
            .filter(|c| c.kind == Kind::Imitator && on_board(sq))
            .and_then(|c| c.power)
    }

    /// What the tank step `action` pushes (BA-6, BA-14): each pushed piece's square (the
    /// tank's own excluded) with where it goes, one square on in the tank's direction (a
    /// goal square when it enters its scoring goal, BA-2), or `None` when it is pushed off
    /// the board (removed; a bomb explodes first, BA-14). Canonical square order. Empty for
    /// an action that is not a tank step (an imitator moving as a tank counts, BA-18) and
    /// for a step onto an empty square. This only describes the push; [`Position::play_reported`]
    /// says what the action removes (a pushed-off bomb's blast, co-squares of a pushed
    /// detonator, BA-15).
    pub fn pushed(&self, action: &BombalotAction) -> Vec<(Square, Option<Square>)> {
        apply::pushed(self, action)
    }

    /// Number of `color`'s pieces in the goal where it scores (BA-2, BA-11).
    pub fn goal_count(&self, color: Color) -> usize {
        crate::Geometry::GOAL_SQUARES
            .iter()
            .filter(|&&g| scoring_goal(color, g) && self.cell(g).is_some())
            .count()
    }

    /// Whether `color` has a piece on the main board (locked pieces do not count, BA-19).
    pub fn has_board_piece(&self, color: Color) -> bool {
        board_squares().any(|sq| self.cell(sq).is_some_and(|c| c.color == color))
    }

    /// The pieces frozen at the start of this turn, both colours (BA-3, BA-14): a piece on
    /// the board next to an enemy immobilizer (or imitator with immobilizer powers) and
    /// next to no friendly one.
    pub fn frozen(&self) -> SquareSet {
        // The main-board squares next to an immobilizer, by the immobilizer's colour.
        let mut near = [SquareSet::EMPTY; 2];
        for sq in board_squares() {
            if let Some(c) = self.cell(sq)
                && c.power() == Some(Kind::Immobilizer)
            {
                let side = &mut near[c.color.index()];
                for n in board_neighbours(sq) {
                    *side = side.with(n);
                }
            }
        }
        let mut frozen = SquareSet::EMPTY;
        for sq in SquareSet(near[0].0 | near[1].0).iter() {
            if let Some(c) = self.cell(sq)
                && near[c.color.other().index()].contains(sq)
                && !near[c.color.index()].contains(sq)
            {
                frozen = frozen.with(sq);
            }
        }
        frozen
    }

    /// The end the board decides before looking at legal actions, in BA-11's order: two
    /// pieces in the opponent's goal (the side that just moved is checked first), both
    /// sides without pieces on the board (draw), one side without (it loses).
    pub(crate) fn board_outcome(&self) -> Option<Outcome> {
        for color in [self.turn.other(), self.turn] {
            if self.goal_count(color) >= 2 {
                return Some(Outcome::win(color, EndReason::Goal));
            }
        }
        let white = self.has_board_piece(Color::White);
        let black = self.has_board_piece(Color::Black);
        match (white, black) {
            (false, false) => Some(Outcome::draw(EndReason::NoPieces)),
            (false, true) => Some(Outcome::win(Color::Black, EndReason::NoPieces)),
            (true, false) => Some(Outcome::win(Color::White, EndReason::NoPieces)),
            (true, true) => None,
        }
    }

    /// The kind the piece in `cell` moves as this turn (BA-10): its own, or for an imitator
    /// the kind the opponent moved last (`None`: it cannot move yet).
    fn move_kind(&self, cell: Cell) -> Option<Kind> {
        if cell.kind == Kind::Imitator {
            self.last_moved[cell.color.other().index()]
        } else {
            Some(cell.kind)
        }
    }
}

impl Position for Bombalot {
    type Action = BombalotAction;
    const VARIANT: Variant = Variant::Bombalot;

    /// The start position of BA-1. Bombalot takes no options: the Beirut options must be
    /// left at their defaults.
    fn start(options: &GameOptions) -> Result<Self, OptionsError> {
        if *options != GameOptions::default() {
            return Err(OptionsError {
                reason: "bombalot has no carriers and no dead man's switch: leave the options at their defaults".into(),
            });
        }
        Ok(Bombalot::start_position())
    }

    fn from_fen(fen: &str) -> Result<Self, FenError> {
        fen::parse(fen)
    }

    fn to_fen(&self) -> String {
        fen::write(self)
    }

    crate::position::clocks!();

    fn legal_actions_into(&self, out: &mut Vec<BombalotAction>) {
        out.clear();
        if self.board_outcome().is_some() {
            return;
        }
        movegen::generate(self, out);
    }

    fn play_unchecked(&mut self, action: &BombalotAction) {
        let mut report = Vec::new();
        apply::apply(self, action, &mut report);
    }

    fn play_reported(&mut self, action: &BombalotAction) -> Vec<Removal> {
        let mut report = Vec::new();
        apply::apply(self, action, &mut report);
        report
    }

    /// BA-11 in order: goal, no pieces on either side (draw), no pieces on one side, and
    /// last the side to move without a legal action loses ([`EndReason::Immobilized`]).
    fn variant_outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.board_outcome() {
            return Some(outcome);
        }
        (!movegen::has_action(self))
            .then(|| Outcome::win(self.turn.other(), EndReason::Immobilized))
    }

    /// BA-12: side to move, every piece with the imitators' current kinds, goal contents
    /// and the kind each side moved last (FNV-1a over the serialization without clocks).
    fn repetition_key(&self) -> u64 {
        let fen = self.to_fen();
        let key: Vec<&str> = fen.split(' ').take(4).collect();
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in key.join(" ").bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        hash
    }

    fn san(&self, action: &BombalotAction) -> String {
        notation::san(self, action)
    }

    fn uci(&self, action: &BombalotAction) -> String {
        match action.kind {
            ActionKind::Move => format!("{}{}", action.from, action.to),
            _ => notation::san(self, action),
        }
    }

    fn parse_action(&self, text: &str) -> Result<BombalotAction, ActionError> {
        notation::parse(self, text)
    }

    fn effects(&self, action: &Self::Action) -> crate::Effects {
        crate::effects::bombalot(self, action)
    }

    fn action_squares(&self, action: &BombalotAction) -> ActionSquares {
        let moved = ActionSquares {
            from: Some(action.from),
            to: Some(action.to),
            detonation: None,
        };
        match action.kind {
            ActionKind::Explode if action.from == action.to => ActionSquares {
                from: None,
                to: None,
                detonation: Some(action.from),
            },
            ActionKind::Explode => ActionSquares {
                detonation: Some(action.to),
                ..moved
            },
            ActionKind::Move if self.cell(action.to).is_some_and(Cell::is_bomb) => ActionSquares {
                detonation: Some(action.to),
                ..moved
            },
            _ => moved,
        }
    }

    /// Every piece, goals included. `frozen` marks the pieces of both colours frozen by the
    /// snapshot of BA-3/BA-14 (only the mover's frozen pieces are stopped this turn, but the
    /// others stay frozen for pushes); `imitating` an imitator's current kind (BA-10);
    /// `locked` a piece in a goal (BA-2).
    fn board_view(&self) -> BoardView {
        BoardView {
            variant: Variant::Bombalot,
            pieces: self.pieces(),
            loose_bombs: Vec::new(),
            turn: self.turn,
            fullmoves: self.fullmoves,
            checked: Vec::new(),
            status: Status::from_outcome(self.variant_outcome()),
            awaiting_designation: Vec::new(),
        }
    }

    fn pieces(&self) -> Vec<crate::PieceView> {
        let frozen = self.frozen();
        crate::Geometry::BOMBALOT
            .squares()
            .filter_map(|sq| {
                self.cell(sq).map(|c| PieceView {
                    square: sq,
                    color: c.color,
                    kind: c.kind,
                    carrier: false,
                    frozen: frozen.contains(sq),
                    imitating: self.imitating(sq),
                    locked: is_goal(sq),
                })
            })
            .collect()
    }

    /// A side can still win while it has a piece on the board or two in the goal.
    fn can_win(&self, color: Color) -> bool {
        self.has_board_piece(color) || self.goal_count(color) >= 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_matches_ba1() {
        let pos = Bombalot::start_position();
        let at = |s: &str| pos.piece_at(s.parse().unwrap());
        assert_eq!(
            at("a1"),
            Some(crate::Piece::new(Color::White, Kind::Imitator))
        );
        assert_eq!(at("d8"), Some(crate::Piece::new(Color::Black, Kind::Bomb)));
        assert_eq!(at("c1"), None);
        assert_eq!(at("f6"), Some(crate::Piece::new(Color::Black, Kind::Tweke)));
        let count = crate::Geometry::BOMBALOT
            .squares()
            .filter(|&s| pos.piece_at(s).is_some())
            .count();
        assert_eq!(count, 32);
    }

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn pushed_lists_the_line_and_the_edge_ba6_ba14() {
        // White tank e4 steps to f4: the twekes f4, g4 move on, the bomb h4 goes off.
        let pos = Bombalot::from_fen("t7/8/8/7w/4Twso/8/8/8 w ---- --").unwrap();
        let step = pos.parse_action("e4-f4").unwrap();
        assert_eq!(
            pos.pushed(&step),
            [
                (sq("f4"), Some(sq("g4"))),
                (sq("g4"), Some(sq("h4"))),
                (sq("h4"), None)
            ]
        );
        // A tank step onto an empty square and a tweke step push nothing.
        assert!(pos.pushed(&pos.parse_action("e4-e5").unwrap()).is_empty());
        let black = Bombalot::from_fen("t7/8/8/7w/4Twso/8/8/8 b ---- --").unwrap();
        assert!(
            black
                .pushed(&black.parse_action("h5-h6").unwrap())
                .is_empty()
        );
    }

    #[test]
    fn pushed_into_the_scoring_goal_ba2_ba14() {
        // The white tweke d8 is pushed into d9, White's goal; a black tweke there would go off.
        let pos = Bombalot::from_fen("3W4/3W4/3T4/8/8/8/8/t7 w ---- --").unwrap();
        let step = pos.parse_action("d6-d7").unwrap();
        assert_eq!(
            pos.pushed(&step),
            [(sq("d7"), Some(sq("d8"))), (sq("d8"), Some(sq("d9")))]
        );
        let pos = Bombalot::from_fen("3w4/3W4/3T4/8/8/8/8/t7 w ---- --").unwrap();
        let step = pos.parse_action("d6-d7").unwrap();
        assert_eq!(
            pos.pushed(&step),
            [(sq("d7"), Some(sq("d8"))), (sq("d8"), None)]
        );
    }

    #[test]
    fn square_set_iterates_in_canonical_order() {
        let set: SquareSet = ["e5", "d0", "a1"]
            .iter()
            .map(|s| s.parse::<Square>().unwrap())
            .collect();
        let names: Vec<String> = set.iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["d0", "a1", "e5"]);
        assert_eq!(set.len(), 3);
    }
}
