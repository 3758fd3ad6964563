//! Bomberman Chess (docs/rules/RULINGS.md section 4, BM-1 to BM-10): a 10x8 board, Bombs that move
//! like small queens and explode in rook-like waves, Defusers that remove them safely,
//! and check from every way a bomb can be set off.
//!
//! See [`Bomberman`] for the serialization (FEN) and the notation grammar; the same
//! text is in `docs/notation/bomberman.md`.

mod board;
mod fen;
mod san;

use std::hash::{Hash, Hasher};

use board::{ALL8, Board, KNIGHT, Placement, bit, blast, in_check, in_check_at, king_square, step};

use crate::{
    ActionError, ActionSquares, BoardView, Cause, Color, EndReason, FenError, GameOptions, Kind,
    OptionsError, Outcome, Piece, PieceView, Position, Removal, Square, Status, Variant,
};

/// The start position (BM-1): Bombs a/j, Rooks b/i, Knights c/h, Bishops d/g, Defuser e,
/// King f, ten pawns; Black mirrored on ranks 8 and 7.
pub const START_FEN: &str = "ornbdkbnro/pppppppppp/10/10/10/10/PPPPPPPPPP/ORNBDKBNRO w KQkq - 0 1";

/// A position of Bomberman Chess (docs/rules/RULINGS.md section 4).
///
/// # Rules in short
/// - BM-1: 10 files a-j, 8 ranks; set up as [`START_FEN`].
/// - BM-2: King, Rook, Bishop, Knight as in chess; Defuser `D` moves 1-3 squares along
///   any line without jumping and captures; Bomb `O` moves 1 or 2 squares along any line
///   to an empty square (the middle one empty too) and never captures by moving.
/// - BM-3: pawns promote to Knight, Bishop, Rook or King Battler (moves as a queen, not
///   royal); never to Defuser or Bomb; there is no queen.
/// - BM-4: castling King f1->h1 with Rook i1->g1 (`O-O`) and King f1->d1 with Rook
///   b1->e1 (`O-O-O`); the king may not be in check on f1, on its transit square (g1 or
///   e1, tested with the king there and the rook still home) nor after castling.
/// - BM-5, BM-6: detonating a bomb is a whole turn. The bomb is removed and sends a wave
///   north, east, south and west; each wave removes the first piece it meets and stops.
///   A bomb hit explodes in turn (first in, first out) in the 3 directions other than
///   back. Every wave runs over the board as it stands at that moment.
/// - BM-7: a Defuser capturing an enemy bomb removes it without explosion; any other
///   capturer is destroyed on the bomb's square and the bomb explodes from there. A
///   king can never capture a bomb.
/// - BM-8: a side is in check when the opponent, moving now, could destroy its king
///   without destroying its own (capture, detonation with chains, or a non-Defuser
///   capture of a bomb). No move may leave the mover's king destroyed or in check.
///   Checkmate loses, stalemate draws. Draws per C-4 are the game's business.
///
/// # Serialization (FEN)
/// Six space-separated fields as in chess FEN: placement, side to move, castling, en
/// passant, halfmove clock (C-4), fullmove number. Placement lists ranks 8 to 1
/// separated by `/`, each rank files `a` to `j`: White pieces upper case, Black lower
/// case, `K` king, `D` Defuser, `O` Bomb, `R` rook, `B` bishop, `N` knight, `P` pawn,
/// `Q` King Battler (docs/notation/bomberman.md); a number `1`-`10` counts empty squares (`10` is a
/// whole empty rank). Castling is `-` or any of `K` (White's `O-O`, rook on i1), `Q`
/// (White's `O-O-O`, rook on b1), `k`, `q` for Black; each right needs its king on
/// f1/f8 and its rook at home. En passant is `-` or the square a pawn passed over with a
/// double step in the last ply (written after every double step). A four-field EPD
/// (no clocks) reads as clocks `0 1`. The reader refuses boards without exactly one
/// king per side, pawns on ranks 1 or 8, and positions where the side not to move is in
/// check (it could not have got there by a legal move).
///
/// # Notation (C-5)
/// Canonical form (what [`Position::san`] prints and history stores):
/// - moves in SAN with the letters `K`, `D`, `O` (Bomb), `R`, `B`, `N`, `KB` (King
///   Battler), nothing for pawns: `Nf3`, `Dxe2`, `Oa7`, `exd5`, `Rbf1`; disambiguation
///   as in chess (file `a`-`j` first, then rank, then both);
/// - promotion `=N`, `=B`, `=R`, `=KB` (`h8=KB`);
/// - castling `O-O` (king to h1/h8) and `O-O-O` (king to d1/d8);
/// - detonation (BM-5) `Ox` plus the bomb's own square: `Oxb5`. A bomb never captures,
///   so `Ox<square>` is always a detonation.
///
/// Input also accepts: `0-0` and `0-0-0`; `Q` for the King Battler (`Qe4`, `h8=Q`,
/// `h8Q`: there is no chess queen, so `Q` is the King Battler); the
/// coordinate form `e2e4`, `h7h8q` (also `h7h8kb`), `f1h1` for castling and the
/// detonation text itself; trailing `+`, `#`, `!`, `?`, `.`; and a removal suffix
/// `->a5,b7` (with or without spaces), which is ignored (BM-10: the real removals are
/// computed). `=D`, `=O` and `=K` are refused (BM-3). The coordinate form printed by
/// [`Position::uci`] uses `q` for the King Battler and the canonical text for
/// detonations (docs/ARCHITECTURE.md, "The CLI").
///
/// Display form ([`Position::san_with_marks`]): the canonical text, then, when anything
/// exploded, `->` and the squares of the removed pieces in removal order (C-6), without
/// the detonated bomb's own square (`Oxa1->a2,g1`, `Nxb5->b5,a5,b7`), then `+` for
/// check or `#` for checkmate. [`removal_warning`] compares a written removal list with
/// the real one (BM-10: a warning, never an error).
///
/// # Order of actions
/// [`Position::legal_actions`] lists moves by origin square in canonical order (each
/// piece's moves direction by direction, promotions as N, B, R, KB), then castling
/// (`O-O`, `O-O-O`), then detonations by square.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bomberman {
    board: Board,
    turn: Color,
    /// Bits: 1 White `O-O`, 2 White `O-O-O`, 4 Black `O-O`, 8 Black `O-O-O`.
    castling: u8,
    ep: Option<u8>,
    halfmoves: u32,
    fullmoves: u32,
}

/// Which rook a king castles with (BM-4).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CastlingSide {
    /// `O-O`: King f1 to h1, Rook i1 to g1 (f8, h8, i8, g8 for Black).
    King,
    /// `O-O-O`: King f1 to d1, Rook b1 to e1 (f8, d8, b8, e8 for Black).
    Queen,
}

impl CastlingSide {
    /// `(king to, rook from, rook to, squares that must be empty, king transit)` as files.
    const fn files(self) -> (u8, u8, u8, &'static [u8], u8) {
        match self {
            CastlingSide::King => (7, 8, 6, &[6, 7], 6),
            CastlingSide::Queen => (3, 1, 4, &[2, 3, 4], 4),
        }
    }

    /// The bit of this right for `color` in the castling field.
    const fn right(self, color: Color) -> u8 {
        let base = match self {
            CastlingSide::King => 1,
            CastlingSide::Queen => 2,
        };
        match color {
            Color::White => base,
            Color::Black => base << 2,
        }
    }
}

/// The king's home file (f, BM-1, BM-4).
const KING_FILE: u8 = 5;

/// The home rank of `color`'s pieces.
const fn home_rank(color: Color) -> u8 {
    match color {
        Color::White => 1,
        Color::Black => 8,
    }
}

/// One action of Bomberman Chess (C-2): a move, a castling or a detonation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BombermanAction {
    /// A piece moves from `from` to `to` (a capture when `to` holds an enemy piece, or en
    /// passant); `promotion` is the new kind for a pawn reaching the last rank (BM-3:
    /// Knight, Bishop, Rook or King Battler).
    Move {
        /// Where the piece starts.
        from: Square,
        /// Where it goes (or is destroyed, when it captures a bomb: BM-7).
        to: Square,
        /// The promotion piece, for a pawn reaching the last rank.
        promotion: Option<Kind>,
    },
    /// Castling on `side` (BM-4).
    Castle(CastlingSide),
    /// Detonating the mover's bomb on this square (BM-5).
    Detonate(Square),
}

/// Compares the removal list written after `->` in `text` (BM-5, BM-10: `Oxa1->a2, g1`)
/// with the pieces `action` really removed (`removed`, from [`Position::play_reported`]),
/// and returns a warning for people when they differ: the written list is never an
/// error (BM-10). Lists are compared as sets of squares, in the display convention (the
/// detonated bomb's own square left out). `None` when the text has no list or it agrees.
pub fn removal_warning(
    text: &str,
    action: &BombermanAction,
    removed: &[Removal],
) -> Option<String> {
    san::removal_warning(text, action, removed)
}

/// A square from a grid index known to be below 100.
fn sq(index: u8) -> Square {
    Square::from_index(index).unwrap_or_else(|| unreachable!("grid index {index} is below 100"))
}

/// The promotion kinds of BM-3, in canonical order.
const PROMOTIONS: [Kind; 4] = [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::KingBattler];

impl Bomberman {
    /// The piece on `square`, if any.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        self.board[square.index() as usize]
    }

    /// Whether `color` is in check now (BM-8), whoever is to move.
    pub fn is_check(&self, color: Color) -> bool {
        in_check(&self.board, color)
    }

    /// The castling rights as in FEN, e.g. `"KQkq"` or `"-"`.
    pub fn castling_rights(&self) -> String {
        fen::castling_field(self.castling)
    }

    /// The en passant square (the square a pawn passed over with a double step in the
    /// last ply), if any.
    pub fn ep_square(&self) -> Option<Square> {
        self.ep.map(sq)
    }

    /// The same board with `color` to move and no en passant square: possibly a
    /// position no legal play reaches, for asking what `color` could do here (BM-8
    /// defines check as what the opponent could do "if it were its turn").
    pub fn with_turn(&self, color: Color) -> Bomberman {
        let mut pos = self.clone();
        if pos.turn != color {
            pos.turn = color;
            pos.ep = None;
        }
        pos
    }

    /// Every action of the side to move that obeys the pieces' movement and castling
    /// conditions (BM-2 to BM-5), before the final test of BM-8 (the mover's king on the
    /// board and not in check); in the order of [`Position::legal_actions`].
    pub fn pseudo_legal_actions(&self) -> Vec<BombermanAction> {
        let mut out = Vec::new();
        self.pseudo_legal(&mut out);
        out
    }

    /// Every action that obeys the pieces' movement and castling conditions (BM-2 to
    /// BM-5), before the final test of BM-8 (mover's king on the board and not in check).
    fn pseudo_legal(&self, out: &mut Vec<BombermanAction>) {
        let us = self.turn;
        let board = &self.board;
        let mv = |from: u8, to: u8| BombermanAction::Move {
            from: sq(from),
            to: sq(to),
            promotion: None,
        };
        for from in 10u8..90 {
            let Some(piece) = board[from as usize] else {
                continue;
            };
            if piece.color != us {
                continue;
            }
            let free_or_enemy = |to: u8| board[to as usize].is_none_or(|p| p.color != us);
            match piece.kind {
                Kind::Pawn => self.pawn_moves(from, out),
                Kind::Knight => {
                    for (df, dr) in KNIGHT {
                        if let Some(to) = step(from, df, dr)
                            && free_or_enemy(to)
                        {
                            out.push(mv(from, to));
                        }
                    }
                }
                Kind::King => {
                    for (df, dr) in ALL8 {
                        if let Some(to) = step(from, df, dr)
                            && free_or_enemy(to)
                        {
                            out.push(mv(from, to));
                        }
                    }
                }
                Kind::Rook | Kind::Bishop | Kind::KingBattler | Kind::Defuser | Kind::Bomb => {
                    let dirs: &[(i8, i8)] = match piece.kind {
                        Kind::Rook => &ALL8[..4],
                        Kind::Bishop => &ALL8[4..],
                        _ => &ALL8,
                    };
                    let range = match piece.kind {
                        Kind::Defuser => 3,
                        Kind::Bomb => 2,
                        _ => 9,
                    };
                    for &(df, dr) in dirs {
                        let mut cur = from;
                        for _ in 0..range {
                            let Some(to) = step(cur, df, dr) else { break };
                            cur = to;
                            match board[to as usize] {
                                None => out.push(mv(from, to)),
                                Some(p) => {
                                    // BM-2: a bomb never captures by moving.
                                    if p.color != us && piece.kind != Kind::Bomb {
                                        out.push(mv(from, to));
                                    }
                                    break;
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        for side in [CastlingSide::King, CastlingSide::Queen] {
            if self.castling_allowed(side) {
                out.push(BombermanAction::Castle(side));
            }
        }
        for from in 10u8..90 {
            if board[from as usize] == Some(Piece::new(us, Kind::Bomb)) {
                out.push(BombermanAction::Detonate(sq(from)));
            }
        }
    }

    /// Pawn pushes, double steps, captures, en passant and promotions (BM-3).
    fn pawn_moves(&self, from: u8, out: &mut Vec<BombermanAction>) {
        let us = self.turn;
        let fwd = us.forward();
        let last = home_rank(!us);
        let mut push = |to: u8| {
            if to / 10 == last {
                for kind in PROMOTIONS {
                    out.push(BombermanAction::Move {
                        from: sq(from),
                        to: sq(to),
                        promotion: Some(kind),
                    });
                }
            } else {
                out.push(BombermanAction::Move {
                    from: sq(from),
                    to: sq(to),
                    promotion: None,
                });
            }
        };
        if let Some(one) = step(from, 0, fwd)
            && self.board[one as usize].is_none()
        {
            push(one);
            let start_rank = (home_rank(us) as i8 + fwd) as u8;
            if from / 10 == start_rank
                && let Some(two) = step(one, 0, fwd)
                && self.board[two as usize].is_none()
            {
                push(two);
            }
        }
        for df in [-1, 1] {
            let Some(to) = step(from, df, fwd) else {
                continue;
            };
            let enemy = self.board[to as usize].is_some_and(|p| p.color != us);
            if enemy || self.ep == Some(to) {
                push(to);
            }
        }
    }

    /// Castling conditions of BM-4 other than the final position's test: the right,
    /// king and rook at home, the squares between empty, the king not in check on its
    /// start square nor on its transit square (king placed there, rook still home).
    fn castling_allowed(&self, side: CastlingSide) -> bool {
        let us = self.turn;
        if self.castling & side.right(us) == 0 {
            return false;
        }
        let rank = home_rank(us);
        let at = |file: u8| (rank * 10 + file) as usize;
        let (_, rook_from, _, between, transit) = side.files();
        if self.board[at(KING_FILE)] != Some(Piece::new(us, Kind::King))
            || self.board[at(rook_from)] != Some(Piece::new(us, Kind::Rook))
            || between.iter().any(|&f| self.board[at(f)].is_some())
        {
            return false;
        }
        if in_check(&self.board, us) {
            return false;
        }
        let mut passing = self.board;
        passing[at(transit)] = passing[at(KING_FILE)].take();
        !in_check(&passing, us)
    }

    /// Plays `action` (assumed pseudo-legal), calling `report` for each removed piece
    /// in order with its cause (C-6).
    fn apply(&mut self, action: &BombermanAction, mut report: impl FnMut(u8, Piece, Cause)) {
        let us = self.turn;
        let old_ep = self.ep.take();
        let mut progress = false;
        match *action {
            BombermanAction::Detonate(square) => {
                let s = square.index();
                if let Some(bomb) = self.board[s as usize] {
                    report(s, bomb, Cause::Exploded);
                    self.explode(bit(s), s, &mut report);
                }
                progress = true;
            }
            BombermanAction::Castle(side) => {
                let rank = home_rank(us);
                let (king_to, rook_from, rook_to, _, _) = side.files();
                let king = self.board[(rank * 10 + KING_FILE) as usize].take();
                let rook = self.board[(rank * 10 + rook_from) as usize].take();
                self.board[(rank * 10 + king_to) as usize] = king;
                self.board[(rank * 10 + rook_to) as usize] = rook;
            }
            BombermanAction::Move {
                from,
                to,
                promotion,
            } => {
                let (from, to) = (from.index(), to.index());
                let Some(piece) = self.board[from as usize] else {
                    return;
                };
                let landed = promotion.map_or(piece, |k| Piece::new(us, k));
                progress = piece.kind == Kind::Pawn;
                match self.board[to as usize] {
                    Some(target) if target.kind == Kind::Bomb && piece.kind != Kind::Defuser => {
                        // BM-7: the capturer is destroyed on the bomb's square, and the
                        // bomb explodes from there (BM-6).
                        self.board[from as usize] = None;
                        report(to, landed, Cause::Exploded);
                        report(to, target, Cause::Exploded);
                        self.explode(bit(to) | bit(from), to, &mut report);
                        progress = true;
                    }
                    Some(target) => {
                        // An ordinary capture; a Defuser removing a bomb (BM-7) too.
                        report(to, target, Cause::Captured);
                        progress = true;
                        self.board[to as usize] = Some(landed);
                        self.board[from as usize] = None;
                    }
                    None => {
                        if piece.kind == Kind::Pawn && Some(to) == old_ep && from % 10 != to % 10 {
                            // En passant: the passed pawn stands behind `to`.
                            let victim = (to as i8 - 10 * us.forward()) as u8;
                            if let Some(p) = self.board[victim as usize].take() {
                                report(victim, p, Cause::Captured);
                            }
                        }
                        if piece.kind == Kind::Pawn && from.abs_diff(to) == 20 {
                            self.ep = Some((from + to) / 2);
                        }
                        self.board[to as usize] = Some(landed);
                        self.board[from as usize] = None;
                    }
                }
            }
        }
        // Castling rights last only while king and rook stay home (moves, captures and
        // blasts all end them).
        for color in Color::ALL {
            let rank = home_rank(color);
            for side in [CastlingSide::King, CastlingSide::Queen] {
                let rook_from = side.files().1;
                if self.board[(rank * 10 + KING_FILE) as usize]
                    != Some(Piece::new(color, Kind::King))
                    || self.board[(rank * 10 + rook_from) as usize]
                        != Some(Piece::new(color, Kind::Rook))
                {
                    self.castling &= !side.right(color);
                }
            }
        }
        self.halfmoves = if progress {
            0
        } else {
            self.halfmoves.saturating_add(1)
        };
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !us;
    }

    /// Explodes the bomb on `origin` (already reported; `gone` holds it and any capturer)
    /// and removes everything the waves hit (BM-6), reporting each.
    fn explode(&mut self, mut gone: u128, origin: u8, report: &mut impl FnMut(u8, Piece, Cause)) {
        let board = &self.board;
        blast(board, &mut gone, origin, |hit| {
            if let Some(p) = board[hit as usize] {
                report(hit, p, Cause::Exploded);
            }
        });
        while gone != 0 {
            let s = gone.trailing_zeros() as usize;
            self.board[s] = None;
            gone &= gone - 1;
        }
    }

    /// Whether the side to move has a legal en passant capture (for C-4 repetition).
    fn ep_matters(&self) -> bool {
        self.ep.is_some()
            && self.legal_actions().iter().any(|a| {
                matches!(a, BombermanAction::Move { from, to, .. }
                    if Some(to.index()) == self.ep
                        && self.board[from.index() as usize].is_some_and(|p| p.kind == Kind::Pawn))
            })
    }

    /// Whether `action` (pseudo-legal) keeps the mover's king on the board and out of
    /// check (BM-8). `placement` is [`Placement::of`] this position's board.
    fn is_legal_after(&self, action: &BombermanAction, placement: Placement) -> bool {
        let mut after = self.clone();
        after.apply(action, |_, _, _| {});
        let rank = home_rank(self.turn);
        let arrivals: &[u8] = match *action {
            BombermanAction::Move { to, .. } => &[to.index()],
            BombermanAction::Castle(side) => {
                let (king_to, _, rook_to, _, _) = side.files();
                &[rank * 10 + king_to, rank * 10 + rook_to]
            }
            BombermanAction::Detonate(_) => &[],
        };
        let placement = placement.after(&after.board, arrivals);
        debug_assert_eq!(placement, Placement::of(&after.board), "{action:?}");
        !in_check_at(&after.board, self.turn, &placement)
    }
}

impl Position for Bomberman {
    type Action = BombermanAction;
    const VARIANT: Variant = Variant::Bomberman;

    /// The start position of BM-1; Bomberman Chess has no options, so any are accepted
    /// and ignored (the carrier count and Dead Man's Switch are Beirut's).
    fn start(_: &GameOptions) -> Result<Self, OptionsError> {
        Bomberman::from_fen(START_FEN).map_err(|e| OptionsError {
            reason: e.to_string(),
        })
    }

    fn from_fen(text: &str) -> Result<Self, FenError> {
        fen::parse(text)
    }

    fn to_fen(&self) -> String {
        fen::write(self)
    }

    crate::position::clocks!();

    fn legal_actions_into(&self, out: &mut Vec<Self::Action>) {
        out.clear();
        let placement = Placement::of(&self.board);
        if Color::ALL.iter().any(|&c| placement.king(c).is_none()) {
            return;
        }
        self.pseudo_legal(out);
        out.retain(|a| self.is_legal_after(a, placement));
    }

    fn play_unchecked(&mut self, action: &Self::Action) {
        self.apply(action, |_, _, _| {});
    }

    fn play_reported(&mut self, action: &Self::Action) -> Vec<Removal> {
        let mut removed = Vec::new();
        self.apply(action, |s, piece, cause| {
            removed.push(Removal {
                square: sq(s),
                piece,
                cause,
            })
        });
        removed
    }

    /// Checkmate (the side to move is in check with no legal action: it loses) or
    /// stalemate (draw), BM-8. A missing king (only in positions that no legal play
    /// reaches) counts as exploded.
    fn variant_outcome(&self) -> Option<Outcome> {
        for color in Color::ALL {
            if king_square(&self.board, color).is_none() {
                return Some(Outcome::win(!color, EndReason::KingExploded));
            }
        }
        if !self.legal_actions().is_empty() {
            return None;
        }
        Some(if in_check(&self.board, self.turn) {
            Outcome::win(!self.turn, EndReason::Checkmate)
        } else {
            Outcome::draw(EndReason::Stalemate)
        })
    }

    /// Side to move, pieces, castling rights and the en passant square when an en
    /// passant capture is legal (C-4); clocks excluded.
    fn repetition_key(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.board.hash(&mut h);
        self.turn.hash(&mut h);
        self.castling.hash(&mut h);
        if self.ep_matters() {
            self.ep.hash(&mut h);
        }
        h.finish()
    }

    fn checked_squares(&self) -> Vec<Square> {
        match king_square(&self.board, self.turn) {
            Some(k) if in_check(&self.board, self.turn) => vec![sq(k)],
            _ => Vec::new(),
        }
    }

    fn san(&self, action: &Self::Action) -> String {
        san::san(self, action, &self.legal_actions())
    }

    fn uci(&self, action: &Self::Action) -> String {
        san::uci(self, action)
    }

    fn parse_action(&self, text: &str) -> Result<Self::Action, ActionError> {
        san::parse(self, text)
    }

    fn effects(&self, action: &Self::Action) -> crate::Effects {
        crate::effects::bomberman(self, action)
    }

    fn action_squares(&self, action: &Self::Action) -> ActionSquares {
        match *action {
            BombermanAction::Move { from, to, .. } => ActionSquares {
                from: Some(from),
                to: Some(to),
                detonation: None,
            },
            BombermanAction::Castle(side) => {
                let rank = home_rank(self.turn);
                ActionSquares {
                    from: Some(sq(rank * 10 + KING_FILE)),
                    to: Some(sq(rank * 10 + side.files().0)),
                    detonation: None,
                }
            }
            BombermanAction::Detonate(square) => ActionSquares {
                from: None,
                to: None,
                detonation: Some(square),
            },
        }
    }

    fn board_view(&self) -> BoardView {
        let outcome = self
            .variant_outcome()
            .or_else(|| self.automatic_draw().map(Outcome::draw));
        BoardView {
            variant: Variant::Bomberman,
            pieces: self.pieces(),
            loose_bombs: Vec::new(),
            turn: self.turn,
            fullmoves: self.fullmoves,
            checked: self.checked_squares(),
            status: Status::from_outcome(outcome),
            awaiting_designation: Vec::new(),
        }
    }

    fn pieces(&self) -> Vec<PieceView> {
        (10u8..90)
            .filter_map(|s| {
                self.board[s as usize].map(|p| PieceView {
                    square: sq(s),
                    color: p.color,
                    kind: p.kind,
                    carrier: false,
                    frozen: false,
                    imitating: None,
                    locked: false,
                })
            })
            .collect()
    }

    /// The canonical text, then the removal suffix when anything exploded
    /// (`Oxa1->a2,g1`, without the detonated bomb's own square), then `+` or `#`
    /// (C-5: display additions only).
    fn san_with_marks(&self, action: &Self::Action) -> String {
        let mut after = self.clone();
        let removed = after.play_reported(action);
        let mut text = self.san(action);
        text.push_str(&san::removal_suffix(action, &removed));
        match after.variant_outcome() {
            Some(o) if o.winner == Some(self.turn) => text.push('#'),
            _ if in_check(&after.board, after.turn) => text.push('+'),
            _ => {}
        }
        text
    }

    fn count_legal(&self) -> u64 {
        let mut buf = Vec::with_capacity(64);
        self.legal_actions_into(&mut buf);
        buf.len() as u64
    }
}
