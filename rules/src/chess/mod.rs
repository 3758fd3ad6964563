//! Shared 8x8 chess machinery for Atomic, Beirut and Nuke: bitboards, the board,
//! FEN fields, pseudo-legal move generation (Chess960-aware castling), SAN and
//! coordinate notation. Each variant adds its own legality and explosions on top.
//!
//! Squares here are `u8` in `0..64`, `(rank - 1) * 8 + file`; [`sq`] and [`square`]
//! convert to and from the crate's [`Square`].

pub mod attacks;
pub mod san;

use std::fmt::Write as _;

use crate::{
    BoardView, Cause, Color, EndReason, FenError, Kind, Outcome, Piece, PieceView, Position,
    Removal, Square, Status, Variant,
};

/// A chess role. Index order matches [`Board::role`].
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
pub enum Role {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl Role {
    /// All roles in index order.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The crate-wide kind.
    pub const fn kind(self) -> Kind {
        match self {
            Role::Pawn => Kind::Pawn,
            Role::Knight => Kind::Knight,
            Role::Bishop => Kind::Bishop,
            Role::Rook => Kind::Rook,
            Role::Queen => Kind::Queen,
            Role::King => Kind::King,
        }
    }

    /// Upper-case SAN/FEN letter (`'P'` for pawns).
    pub const fn upper(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }

    /// The role of an upper- or lower-case letter.
    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'P' => Role::Pawn,
            'N' => Role::Knight,
            'B' => Role::Bishop,
            'R' => Role::Rook,
            'Q' => Role::Queen,
            'K' => Role::King,
            _ => return None,
        })
    }
}

/// The crate square of a `0..64` index.
#[inline]
pub fn square(s: u8) -> Square {
    Square::new(s % 8, s / 8 + 1).expect("0..64 is on the 8x8 board")
}

/// The `0..64` index of a square of the 8x8 board, `None` elsewhere.
#[inline]
pub fn sq(square: Square) -> Option<u8> {
    (square.file() < 8 && (1..=8).contains(&square.rank()))
        .then(|| (square.rank() - 1) * 8 + square.file())
}

/// Bit of a `0..64` square.
#[inline]
pub const fn bit(s: u8) -> u64 {
    1u64 << s
}

/// Iterates the squares of a bitboard, lowest first (canonical order).
#[inline]
pub fn squares(mut bb: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if bb == 0 {
            None
        } else {
            let s = bb.trailing_zeros() as u8;
            bb &= bb - 1;
            Some(s)
        }
    })
}

/// The crate squares of a bitboard, lowest first (canonical order).
pub fn square_list(bb: u64) -> Vec<Square> {
    squares(bb).map(square).collect()
}

/// The report of a piece removed by capture on the `0..64` square `s`.
pub fn capture_removal(s: u8, color: Color, role: Role) -> Removal {
    Removal {
        square: square(s),
        piece: Piece::new(color, role.kind()),
        cause: Cause::Captured,
    }
}

/// The [`crate::Position`] methods `play_unchecked` and `play_reported` of a variant whose
/// `apply::<REPORT>(action, &mut removals)` plays an action of type `$action` (and reports
/// its removals when `REPORT`).
macro_rules! plays_by_apply {
    ($action:ty) => {
        fn play_unchecked(&mut self, action: &$action) {
            self.apply::<false>(action, &mut Vec::new());
        }

        fn play_reported(&mut self, action: &$action) -> Vec<Removal> {
            let mut out = Vec::new();
            self.apply::<true>(action, &mut out);
            out
        }
    };
}
pub(crate) use plays_by_apply;

/// The board view of a position `pos` on the chess core `state`: its pieces (none frozen,
/// `carrier` saying which `0..64` squares hold a bomb carrier), turn and move number, the
/// checked kings and status of `pos`; no loose bombs and no side awaiting a designation
/// (a variant with those sets them on the result).
pub fn board_view<P: Position>(
    pos: &P,
    state: &ChessState,
    variant: Variant,
    carrier: impl Fn(u8) -> bool,
) -> BoardView {
    BoardView {
        variant,
        pieces: state.board.piece_views(carrier, |_| false),
        loose_bombs: Vec::new(),
        turn: state.turn,
        fullmoves: state.fullmoves,
        checked: pos.checked_squares(),
        status: Status::from_outcome(pos.variant_outcome()),
        awaiting_designation: Vec::new(),
    }
}

/// Rank 1 and rank 8 masks.
pub const RANK_1: u64 = 0xff;
/// Rank 8 mask.
pub const RANK_8: u64 = 0xff << 56;

/// The back rank of `color`.
pub const fn back_rank(color: Color) -> u64 {
    match color {
        Color::White => RANK_1,
        Color::Black => RANK_8,
    }
}

/// Pieces by colour and by role.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default)]
pub struct Board {
    /// Occupancy of each colour (index [`Color::index`]).
    pub color: [u64; 2],
    /// Occupancy of each role (index `Role as usize`).
    pub role: [u64; 6],
}

impl Board {
    /// The standard chess start position.
    pub fn standard() -> Board {
        let mut b = Board::default();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for f in 0..8u8 {
            b.put(f, Color::White, back[f as usize]);
            b.put(8 + f, Color::White, Role::Pawn);
            b.put(48 + f, Color::Black, Role::Pawn);
            b.put(56 + f, Color::Black, back[f as usize]);
        }
        b
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.color[0] | self.color[1]
    }

    /// Pieces of `color` and `role`.
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> u64 {
        self.color[color.index()] & self.role[role as usize]
    }

    /// The piece on `s`.
    #[inline]
    pub fn piece_at(&self, s: u8) -> Option<(Color, Role)> {
        let b = bit(s);
        let color = if self.color[0] & b != 0 {
            Color::White
        } else if self.color[1] & b != 0 {
            Color::Black
        } else {
            return None;
        };
        let role = Role::ALL
            .into_iter()
            .find(|&r| self.role[r as usize] & b != 0)?;
        Some((color, role))
    }

    /// The role on `s`, if any.
    #[inline]
    pub fn role_at(&self, s: u8) -> Option<Role> {
        let b = bit(s);
        Role::ALL
            .into_iter()
            .find(|&r| self.role[r as usize] & b != 0)
    }

    /// Puts a piece on an empty square.
    #[inline]
    pub fn put(&mut self, s: u8, color: Color, role: Role) {
        self.color[color.index()] |= bit(s);
        self.role[role as usize] |= bit(s);
    }

    /// Removes and returns the piece on `s`.
    #[inline]
    pub fn remove(&mut self, s: u8) -> Option<(Color, Role)> {
        let piece = self.piece_at(s)?;
        self.color[piece.0.index()] &= !bit(s);
        self.role[piece.1 as usize] &= !bit(s);
        Some(piece)
    }

    /// Removes every piece on the squares of `mask` (empty squares in it are fine): eight
    /// masked ANDs, without looking up which pieces stand there.
    #[inline]
    pub fn clear(&mut self, mask: u64) {
        for bb in self.color.iter_mut().chain(self.role.iter_mut()) {
            *bb &= !mask;
        }
    }

    /// Moves the pieces of `mv`, a move by `color`, as in standard chess: a captured piece
    /// (behind `to` for en passant) leaves the board, the mover leaves `from` and lands on
    /// `to`, promoted if it promotes; castling moves the king and the rook. The roles come
    /// from the move, so nothing is looked up on the board. Explosions are the variant's.
    #[inline]
    pub fn play(&mut self, mv: &Move, color: Color) {
        match mv.kind {
            MoveKind::Castle { rook } => {
                self.clear(bit(mv.from) | bit(rook));
                self.put(mv.to, color, Role::King);
                self.put(mv.castle_rook_to().expect("castling"), color, Role::Rook);
            }
            _ => {
                let victim = mv.capture_square().map_or(0, bit);
                self.clear(bit(mv.from) | bit(mv.to) | victim);
                self.put(mv.to, color, mv.promotion.unwrap_or(mv.role));
            }
        }
    }

    /// The square of `color`'s king (the lowest, if a FEN has several).
    #[inline]
    pub fn king(&self, color: Color) -> Option<u8> {
        let k = self.pieces(color, Role::King);
        (k != 0).then(|| k.trailing_zeros() as u8)
    }

    /// Pieces of `attacker` that attack `s` given `occupied` (kings included).
    #[inline]
    pub fn attackers(&self, s: u8, attacker: Color, occupied: u64) -> u64 {
        let them = self.color[attacker.index()];
        let rooks = self.role[Role::Rook as usize] | self.role[Role::Queen as usize];
        let bishops = self.role[Role::Bishop as usize] | self.role[Role::Queen as usize];
        them & ((attacks::KNIGHT[s as usize] & self.role[Role::Knight as usize])
            | (attacks::KING[s as usize] & self.role[Role::King as usize])
            | (attacks::PAWN[attacker.other().index()][s as usize]
                & self.role[Role::Pawn as usize])
            | (attacks::rook(s, occupied) & rooks)
            | (attacks::bishop(s, occupied) & bishops))
    }

    /// The end of a game whose king was blown up: one king missing loses
    /// (`king-exploded`), both missing is a draw (`kings-exploded`); `None` while both
    /// kings stand. Shared by the chess-like variants (AT-9, BE-4, BE-6, NU-8).
    pub fn missing_king_outcome(&self) -> Option<Outcome> {
        match (self.king(Color::White), self.king(Color::Black)) {
            (None, None) => Some(Outcome::draw(EndReason::KingsExploded)),
            (None, Some(_)) => Some(Outcome::win(Color::Black, EndReason::KingExploded)),
            (Some(_), None) => Some(Outcome::win(Color::White, EndReason::KingExploded)),
            (Some(_), Some(_)) => None,
        }
    }

    /// The pieces of `color` other than its king.
    /// The pieces as the board view shows them, in square order; `carrier` and `frozen`
    /// say which `0..64` squares hold a bomb carrier and a frozen piece (no imitation or
    /// locks in the chess variants).
    pub fn piece_views(
        &self,
        carrier: impl Fn(u8) -> bool,
        frozen: impl Fn(u8) -> bool,
    ) -> Vec<PieceView> {
        squares(self.occupied())
            .map(|s| {
                let (color, role) = self.piece_at(s).expect("occupied");
                PieceView {
                    square: square(s),
                    color,
                    kind: role.kind(),
                    carrier: carrier(s),
                    frozen: frozen(s),
                    imitating: None,
                    locked: false,
                }
            })
            .collect()
    }

    pub fn non_kings(&self, color: Color) -> u64 {
        self.color[color.index()] & !self.role[Role::King as usize]
    }

    /// Whether nothing but the two kings (or fewer) is left.
    pub fn only_kings(&self) -> bool {
        self.occupied() & !self.role[Role::King as usize] == 0
    }
}

/// What kind of move a [`Move`] is.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum MoveKind {
    /// A plain move or capture (promotions included).
    Normal,
    /// A pawn's two-square first step.
    DoublePush,
    /// An en passant capture; the captured pawn stands behind `to`.
    EnPassant,
    /// Castling: the king goes to `to`, the rook from `rook` to the other side of it.
    Castle {
        /// The castling rook's square.
        rook: u8,
    },
}

/// A chess move on the 8x8 board.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Move {
    /// Start square.
    pub(crate) from: u8,
    /// Destination square (the king's, for castling).
    pub(crate) to: u8,
    /// The moving role.
    pub(crate) role: Role,
    /// The captured role (a pawn for en passant).
    pub(crate) capture: Option<Role>,
    /// The promotion role.
    pub(crate) promotion: Option<Role>,
    /// Plain, double push, en passant or castling.
    pub(crate) kind: MoveKind,
}

impl Move {
    /// The square the moving piece starts on.
    pub fn from_square(&self) -> Square {
        square(self.from)
    }

    /// The square the moving piece arrives on (the king's, for castling).
    pub fn to_square(&self) -> Square {
        square(self.to)
    }

    /// The kind of the moving piece (before any promotion).
    pub fn moving_kind(&self) -> Kind {
        self.role.kind()
    }

    /// The kind of the captured piece (a pawn for en passant), `None` for a quiet move.
    pub fn captured_kind(&self) -> Option<Kind> {
        self.capture.map(Role::kind)
    }

    /// The kind a pawn promotes to, if it does (AT-4, BE-7).
    pub fn promotion_kind(&self) -> Option<Kind> {
        self.promotion.map(Role::kind)
    }

    /// The square of the captured piece: the destination, or the square behind it for en
    /// passant (AT-3, BE-7, NU-11). `None` for a quiet move.
    pub fn captured_square(&self) -> Option<Square> {
        self.capture_square().map(square)
    }

    /// Whether this is castling (AT-8, NU-1): the king goes to [`Move::to_square`].
    pub fn is_castle(&self) -> bool {
        matches!(self.kind, MoveKind::Castle { .. })
    }

    /// For castling, the rook's destination square.
    pub(crate) fn castle_rook_to(&self) -> Option<u8> {
        match self.kind {
            MoveKind::Castle { rook } => Some(if rook > self.from {
                self.to - 1
            } else {
                self.to + 1
            }),
            _ => None,
        }
    }

    /// The square of the captured piece (behind `to` for en passant).
    pub(crate) fn capture_square(&self) -> Option<u8> {
        match self.kind {
            _ if self.capture.is_none() => None,
            MoveKind::EnPassant => Some(if self.to > self.from {
                self.to - 8
            } else {
                self.to + 8
            }),
            _ => Some(self.to),
        }
    }
}

/// The standard chess state: board, side to move, castling rights, en passant, clocks.
#[derive(Clone, Eq, PartialEq, Hash, Debug)]
pub struct ChessState {
    /// The pieces.
    pub board: Board,
    /// Side to move.
    pub turn: Color,
    /// Castling rights as the set of rook squares that may still castle.
    pub castling: u64,
    /// The en passant target square after a double push (even if no capture is possible).
    pub ep: Option<u8>,
    /// Plies since the last capture or pawn move.
    pub halfmoves: u32,
    /// Fullmove number.
    pub fullmoves: u32,
}

/// Options that differ between the chess-like variants' move generation.
#[derive(Copy, Clone, Debug)]
pub struct GenRules {
    /// Whether kings may capture (not in Atomic, AT-5).
    pub king_captures: bool,
}

impl ChessState {
    /// The standard start position with full castling rights.
    pub fn standard() -> ChessState {
        ChessState {
            board: Board::standard(),
            turn: Color::White,
            castling: bit(0) | bit(7) | bit(56) | bit(63),
            ep: None,
            halfmoves: 0,
            fullmoves: 1,
        }
    }

    /// Parses the six standard FEN fields (clocks optional), Chess960 castling letters
    /// (Shredder/X-FEN) included. Returns the state and the fields after the sixth.
    ///
    /// # Errors
    /// [`FenError`] naming the bad field.
    pub fn from_fen(fen: &str) -> Result<(ChessState, Vec<String>), FenError> {
        let err = |kind: crate::FenErrorKind, reason: String| FenError::new(kind, fen, reason);
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 2 {
            return Err(err(crate::FenErrorKind::Fields, "expected at least the board and the side to move, like 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'".into()));
        }
        let board = parse_board(fields[0]).map_err(|e| err(crate::FenErrorKind::Board, e))?;
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => {
                return Err(err(
                    crate::FenErrorKind::Turn,
                    format!("side to move '{other}' must be w or b"),
                ));
            }
        };
        let castling = parse_castling(&board, fields.get(2).copied().unwrap_or("-"))
            .map_err(|e| err(crate::FenErrorKind::Castling, e))?;
        let ep = match fields.get(3).copied().unwrap_or("-") {
            "-" => None,
            text => {
                let s = text
                    .parse::<Square>()
                    .ok()
                    .and_then(sq)
                    .filter(|s| matches!(s / 8, 2 | 5));
                Some(s.ok_or_else(|| {
                    err(
                        crate::FenErrorKind::EnPassant,
                        format!(
                            "en passant square '{text}' must be '-' or a square on rank 3 or 6"
                        ),
                    )
                })?)
            }
        };
        let number = |i: usize, default: u32, name: &str| -> Result<u32, FenError> {
            fields.get(i).map_or(Ok(default), |t| {
                t.parse().map_err(|_| {
                    err(
                        crate::FenErrorKind::Clocks,
                        format!("{name} '{t}' is not a number"),
                    )
                })
            })
        };
        let halfmoves = number(4, 0, "halfmove clock")?;
        let fullmoves = number(5, 1, "fullmove number")?.max(1);
        let rest = fields.iter().skip(6).map(|s| s.to_string()).collect();
        Ok((
            ChessState {
                board,
                turn,
                castling,
                ep,
                halfmoves,
                fullmoves,
            },
            rest,
        ))
    }

    /// Writes the six FEN fields; `ep_visible` says whether to write the en passant square
    /// (variants write it only when an en passant capture is legal).
    pub fn to_fen(&self, ep_visible: bool) -> String {
        let mut out = board_fen(&self.board);
        write!(out, " {} {} ", self.turn.fen_char(), self.castling_fen())
            .expect("writing to a String");
        match self.ep.filter(|_| ep_visible) {
            Some(s) => out.push_str(&square(s).to_string()),
            None => out.push('-'),
        }
        write!(out, " {} {}", self.halfmoves, self.fullmoves).expect("writing to a String");
        out
    }

    fn castling_fen(&self) -> String {
        let mut out = String::new();
        for color in Color::ALL {
            let rooks = self.castling & back_rank(color);
            let king = self
                .board
                .king(color)
                .filter(|k| bit(*k) & back_rank(color) != 0);
            let all_rooks = self.board.pieces(color, Role::Rook) & back_rank(color);
            let mut letters: Vec<char> = Vec::new();
            for r in squares(rooks).collect::<Vec<_>>().into_iter().rev() {
                let outermost = match king {
                    Some(k) if r > k => squares(all_rooks).filter(|&x| x > k).max() == Some(r),
                    Some(k) => squares(all_rooks).filter(|&x| x < k).min() == Some(r),
                    None => false,
                };
                let c = match (outermost, king) {
                    (true, Some(k)) if r > k => 'K',
                    (true, _) => 'Q',
                    _ => (b'A' + r % 8) as char,
                };
                letters.push(if color == Color::White {
                    c
                } else {
                    c.to_ascii_lowercase()
                });
            }
            out.extend(letters);
        }
        if out.is_empty() { "-".into() } else { out }
    }

    /// Generates pseudo-legal moves of the side to move into `out` (appending): moves
    /// that follow the pieces' movement, without any king-safety test. Castling moves are
    /// generated when the king and rook may castle and the squares between their start and
    /// end are empty; safety of the king's path is the variant's business.
    pub fn gen_pseudo(&self, rules: GenRules, out: &mut Vec<Move>) {
        self.gen_pseudo_with(rules, &mut |mv| out.push(mv));
    }

    /// [`ChessState::gen_pseudo`], handing each move to `emit` in the same order instead
    /// of storing it (counting legal moves needs no buffer).
    #[inline]
    pub fn gen_pseudo_with(&self, rules: GenRules, emit: &mut impl FnMut(Move)) {
        let b = &self.board;
        let us = self.turn;
        let ours = b.color[us.index()];
        let theirs = b.color[us.other().index()];
        let occ = ours | theirs;
        let targets = !ours;
        for from in squares(ours & !b.role[Role::Pawn as usize]) {
            let role = b.role_at(from).expect("occupied");
            let mut to_set = match role {
                Role::Knight => attacks::KNIGHT[from as usize],
                Role::Bishop => attacks::bishop(from, occ),
                Role::Rook => attacks::rook(from, occ),
                Role::Queen => attacks::bishop(from, occ) | attacks::rook(from, occ),
                Role::King => attacks::KING[from as usize],
                Role::Pawn => unreachable!("pawns are excluded"),
            } & targets;
            if role == Role::King && !rules.king_captures {
                to_set &= !theirs;
            }
            for to in squares(to_set) {
                emit(Move {
                    from,
                    to,
                    role,
                    capture: b.role_at(to),
                    promotion: None,
                    kind: MoveKind::Normal,
                });
            }
        }
        self.gen_pawns(emit);
        self.gen_castles(emit);
    }

    #[inline]
    fn gen_pawns<F: FnMut(Move)>(&self, emit: &mut F) {
        let b = &self.board;
        let us = self.turn;
        let theirs = b.color[us.other().index()];
        let occ = b.occupied();
        let (step, start_rank, last_rank): (i8, u8, u8) = match us {
            Color::White => (8, 1, 7),
            Color::Black => (-8, 6, 0),
        };
        // A pawn move to the last rank is four moves, one per promotion.
        let push = |emit: &mut F, from: u8, to: u8, capture: Option<Role>, kind: MoveKind| {
            let pawn_move = |promotion| Move {
                from,
                to,
                role: Role::Pawn,
                capture,
                promotion,
                kind,
            };
            if to / 8 == last_rank {
                for promo in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                    emit(pawn_move(Some(promo)));
                }
            } else {
                emit(pawn_move(None));
            }
        };
        for from in squares(b.pieces(us, Role::Pawn)) {
            let one = (from as i8 + step) as u8;
            if occ & bit(one) == 0 {
                push(emit, from, one, None, MoveKind::Normal);
                let two = (one as i8 + step) as u8;
                if from / 8 == start_rank && occ & bit(two) == 0 {
                    emit(Move {
                        from,
                        to: two,
                        role: Role::Pawn,
                        capture: None,
                        promotion: None,
                        kind: MoveKind::DoublePush,
                    });
                }
            }
            let caps = attacks::PAWN[us.index()][from as usize];
            for to in squares(caps & theirs) {
                push(emit, from, to, b.role_at(to), MoveKind::Normal);
            }
            if let Some(mv) = self.en_passant_from(from) {
                emit(mv);
            }
        }
    }

    /// The en passant capture by the side to move's pawn on `from`, when it is
    /// pseudo-legal: the pawn attacks the en passant square, that square is empty, and an
    /// enemy pawn stands just behind it (the one that double-pushed).
    fn en_passant_from(&self, from: u8) -> Option<Move> {
        let ep = self.ep?;
        let us = self.turn;
        let b = &self.board;
        let victim = match us {
            Color::White => ep.wrapping_sub(8),
            Color::Black => ep + 8,
        };
        let pseudo_legal = attacks::PAWN[us.index()][from as usize] & bit(ep) != 0
            && b.occupied() & bit(ep) == 0
            && victim < 64
            && b.pieces(us.other(), Role::Pawn) & bit(victim) != 0;
        pseudo_legal.then_some(Move {
            from,
            to: ep,
            role: Role::Pawn,
            capture: Some(Role::Pawn),
            promotion: None,
            kind: MoveKind::EnPassant,
        })
    }

    /// Whether the side to move has an en passant capture that `legal` accepts (given
    /// each pseudo-legal en passant capture). This is the one test of "the en passant
    /// square is usable" for the chess-like variants: FEN writes the square only then, and
    /// only then does it count among the en passant rights of repetition (C-4). Each
    /// variant passes its own legality: Atomic AT-1/AT-5..AT-7, Beirut BE-1/BE-5
    /// ([`ChessState::is_legal_standard`]), Nuke none (NU-1: no check, pawns never frozen).
    pub fn ep_usable(&self, legal: impl Fn(&Move) -> bool) -> bool {
        self.ep.is_some()
            && squares(self.board.pieces(self.turn, Role::Pawn))
                .filter_map(|from| self.en_passant_from(from))
                .any(|mv| legal(&mv))
    }

    /// Drops the en passant square unless it is usable ([`ChessState::ep_usable`] with
    /// `legal`), so that equal positions compare, hash and print (FEN) equal (C-4). Beirut
    /// and Nuke keep their state normalized this way after every double push and on
    /// reading FEN.
    pub fn normalize_ep(&mut self, legal: impl Fn(&ChessState, &Move) -> bool) {
        if !self.ep_usable(|mv| legal(self, mv)) {
            self.ep = None;
        }
    }

    /// Whether `color`'s king is attacked, by any enemy piece, kings included (standard
    /// chess check, as in Beirut: BE-1, BE-5). A missing king is not in check.
    pub fn in_check(&self, color: Color) -> bool {
        let board = &self.board;
        board
            .king(color)
            .is_some_and(|k| board.attackers(k, color.other(), board.occupied()) != 0)
    }

    /// Standard chess legality of a pseudo-legal move of the side to move (Beirut: BE-1,
    /// BE-5): both kings stand (a game with a king gone has no moves, C-7), no king is
    /// captured, a castling king's start and transit squares are not attacked, and the
    /// mover's king is not attacked afterwards.
    pub fn is_legal_standard(&self, mv: &Move) -> bool {
        let board = &self.board;
        if mv.capture == Some(Role::King)
            || board.king(Color::White).is_none()
            || board.king(Color::Black).is_none()
        {
            return false;
        }
        let us = self.turn;
        if matches!(mv.kind, MoveKind::Castle { .. }) {
            let occupied = board.occupied() ^ bit(mv.from);
            let path = (ChessState::castle_king_path(mv) & !bit(mv.to)) | bit(mv.from);
            if squares(path).any(|s| board.attackers(s, us.other(), occupied) != 0) {
                return false;
            }
        }
        // Only the board matters: a copy of it, not of the whole state.
        let mut after = self.board;
        after.play(mv, us);
        after
            .king(us)
            .is_none_or(|k| after.attackers(k, us.other(), after.occupied()) == 0)
    }

    /// Castling candidates: king on the back rank, a rook with the right, every square
    /// the king and rook pass or land on empty (the two pieces themselves aside).
    #[inline]
    fn gen_castles(&self, emit: &mut impl FnMut(Move)) {
        let us = self.turn;
        let Some(king) = self.board.king(us) else {
            return;
        };
        let rank = back_rank(us);
        if bit(king) & rank == 0 {
            return;
        }
        let occ = self.board.occupied();
        for rook in squares(self.castling & rank & self.board.pieces(us, Role::Rook)) {
            let base = rank.trailing_zeros() as u8;
            let (king_to, rook_to) = if rook > king {
                (base + 6, base + 5)
            } else {
                (base + 2, base + 3)
            };
            let path = attacks::between(king, king_to)
                | bit(king_to)
                | attacks::between(rook, rook_to)
                | bit(rook_to);
            if path & occ & !bit(king) & !bit(rook) == 0 {
                emit(Move {
                    from: king,
                    to: king_to,
                    role: Role::King,
                    capture: None,
                    promotion: None,
                    kind: MoveKind::Castle { rook },
                });
            }
        }
    }

    /// The squares the king stands on, passes and lands on when castling with `mv`.
    pub fn castle_king_path(mv: &Move) -> u64 {
        attacks::between(mv.from, mv.to) | bit(mv.from) | bit(mv.to)
    }

    /// Moves the pieces of `mv` (capture, promotion, en passant, castling) and updates
    /// the side to move, en passant square, castling rights of moved pieces and clocks
    /// ([`ChessState::advance`]). Returns the captured piece and its square. Explosions are
    /// the variant's business; afterwards call [`ChessState::prune_castling`].
    pub fn apply(&mut self, mv: &Move) -> Option<(u8, Color, Role)> {
        let us = self.turn;
        let captured = mv
            .capture_square()
            .zip(mv.capture)
            .map(|(cs, role)| (cs, us.other(), role));
        self.board.play(mv, us);
        self.advance(mv, captured.is_some());
        captured
    }

    /// Everything of [`ChessState::apply`] but the pieces: the en passant square, the
    /// castling rights of the moved king or rook, the clocks (`captured`: whether the move
    /// captured) and the side to move. For variants that move the pieces themselves.
    #[inline]
    pub fn advance(&mut self, mv: &Move, captured: bool) {
        let us = self.turn;
        self.ep = match mv.kind {
            MoveKind::DoublePush => Some((mv.from + mv.to) / 2),
            _ => None,
        };
        if mv.role == Role::King {
            self.castling &= !back_rank(us);
        }
        self.castling &= !bit(mv.from) & !bit(mv.to);
        if mv.role == Role::Pawn || captured {
            self.halfmoves = 0;
        } else {
            self.halfmoves += 1;
        }
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.turn = us.other();
    }

    /// A repetition key (C-4) over the pieces, side to move and castling rights, plus
    /// the en passant square when `ep_usable` (a capture there is legal). Variants hash
    /// their own extra state on top.
    pub fn repetition_hasher(&self, ep_usable: bool) -> std::hash::DefaultHasher {
        use std::hash::Hash;
        let mut h = std::hash::DefaultHasher::new();
        self.board.hash(&mut h);
        self.turn.hash(&mut h);
        self.castling.hash(&mut h);
        ep_usable.then_some(self.ep).hash(&mut h);
        h
    }

    /// Drops castling rights whose rook or king is gone (e.g. destroyed by a blast, AT-8).
    pub fn prune_castling(&mut self) {
        let mut keep = 0;
        for color in Color::ALL {
            let rank = back_rank(color);
            if self.board.king(color).is_some_and(|k| bit(k) & rank != 0) {
                keep |= self.board.pieces(color, Role::Rook) & rank;
            }
        }
        self.castling &= keep;
    }

    /// The end when the side to move has no legal move: checkmate when `checked` (it is in
    /// check by the variant's own rule), stalemate otherwise (AT-9, BE-10).
    pub fn no_move_outcome(&self, checked: bool) -> Outcome {
        if checked {
            Outcome::win(self.turn.other(), EndReason::Checkmate)
        } else {
            Outcome::draw(EndReason::Stalemate)
        }
    }

    /// C-4's 100-ply rule, then the variant's insufficient-material rule.
    pub fn automatic_draw(&self, insufficient: impl FnOnce() -> bool) -> Option<EndReason> {
        if self.halfmoves >= 100 {
            Some(EndReason::HundredPly)
        } else if insufficient() {
            Some(EndReason::InsufficientMaterial)
        } else {
            None
        }
    }

    /// The square of the side to move's king when `checked` says it is in check, for
    /// highlighting.
    pub fn checked_king(&self, checked: impl FnOnce(&ChessState, Color) -> bool) -> Vec<Square> {
        let us = self.turn;
        match self.board.king(us) {
            Some(k) if checked(self, us) => vec![square(k)],
            _ => Vec::new(),
        }
    }
}

/// Writes the board field of FEN.
pub fn board_fen(board: &Board) -> String {
    let mut out = String::with_capacity(72);
    for rank in (0..8u8).rev() {
        let mut empty = 0;
        for file in 0..8u8 {
            match board.piece_at(rank * 8 + file) {
                None => empty += 1,
                Some((color, role)) => {
                    if empty > 0 {
                        write!(out, "{empty}").expect("writing to a String");
                        empty = 0;
                    }
                    let c = role.upper();
                    out.push(if color == Color::White {
                        c
                    } else {
                        c.to_ascii_lowercase()
                    });
                }
            }
        }
        if empty > 0 {
            write!(out, "{empty}").expect("writing to a String");
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

fn parse_board(text: &str) -> Result<Board, String> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != 8 {
        return Err(format!(
            "the board needs 8 ranks separated by '/', found {}",
            rows.len()
        ));
    }
    let mut board = Board::default();
    for (i, row) in rows.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as u8;
            } else {
                let role = Role::from_char(c).ok_or_else(|| {
                    format!("'{c}' is not a piece letter (PNBRQK, lower case for Black)")
                })?;
                if file >= 8 {
                    return Err(format!("rank {} has more than 8 squares", rank + 1));
                }
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                board.put(rank * 8 + file, color, role);
                file += 1;
            }
        }
        if file != 8 {
            return Err(format!("rank {} has {file} squares, expected 8", rank + 1));
        }
    }
    for color in Color::ALL {
        if board.pieces(color, Role::King).count_ones() > 1 {
            return Err(format!("{color} has more than one king"));
        }
    }
    if board.role[Role::Pawn as usize] & (RANK_1 | RANK_8) != 0 {
        return Err("pawns cannot stand on the first or last rank".into());
    }
    Ok(board)
}

fn parse_castling(board: &Board, text: &str) -> Result<u64, String> {
    if text == "-" {
        return Ok(0);
    }
    let mut rights = 0;
    for c in text.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = back_rank(color);
        let rooks = board.pieces(color, Role::Rook) & rank;
        let king = board.king(color).filter(|k| bit(*k) & rank != 0);
        let bad = || {
            format!("castling right '{c}' has no {color} king and rook on the back rank to castle")
        };
        let rook = match c.to_ascii_uppercase() {
            'K' => squares(rooks)
                .filter(|&r| king.is_some_and(|k| r > k))
                .max(),
            'Q' => squares(rooks)
                .filter(|&r| king.is_some_and(|k| r < k))
                .min(),
            f @ 'A'..='H' => {
                let s = rank.trailing_zeros() as u8 + (f as u8 - b'A');
                (rooks & bit(s) != 0 && king.is_some()).then_some(s)
            }
            _ => {
                return Err(format!(
                    "castling field '{text}' must be '-' or letters from KQkq (or rook files A-H/a-h)"
                ));
            }
        };
        rights |= bit(rook.ok_or_else(bad)?);
    }
    Ok(rights)
}
