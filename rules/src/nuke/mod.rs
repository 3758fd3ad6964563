//! Nuke Chess (docs/rules/RULINGS.md section 3, NU-1 to NU-13): public bombs that pass from hand to
//! hand, explode when their carrier is captured, and lie loose after exploding.
//!
//! # The game in short
//!
//! - **Setup (NU-3).** A game starts with each side choosing one of its own pieces (any
//!   piece, the king included) as bomb carrier, with [`Position::designate`]. The two choices
//!   may come in either order; until both are in, [`Position::view`] hides each side's choice
//!   from the other side and from spectators, and the position has no legal action. A side
//!   may change its choice while the other side has not chosen yet; once both are in, play
//!   starts and both carriers are public for the rest of the game.
//! - **Turn (NU-4, C-2).** One action = an optional bomb transfer, then a move, then an
//!   optional grab. The transfer hands the bomb of one of the mover's own carriers to any
//!   piece (either colour) on one of the 8 adjacent squares that carries none. The bomb
//!   then belongs to the colour of the piece that carries it.
//! - **Movement (NU-1, NU-2, NU-5, NU-13).** Chess movement, castling, en passant and
//!   promotion, without check: kings may stand and castle attacked. Only a carrier may capture
//!   a king; a king may capture any other piece, carrying or not. A king or queen that carries
//!   a bomb is frozen (cannot move, hence cannot castle) but may still hand its bomb on.
//! - **Explosions (NU-6, NU-7, NU-11).** Capturing a carrier explodes its bomb on the captured
//!   piece's square (the captured pawn's square for en passant): every piece on the 3x3
//!   block goes, the capturer included. A carrier capturing a king explodes its own bomb on
//!   the king's square. Carriers caught in a blast explode in turn.
//! - **Regeneration and grab (NU-9, NU-10).** Every exploded bomb lies loose on the square
//!   where it exploded (several may share a square); loose bombs block nothing and are inert.
//!   A piece that carries none and ends a move on a loose bomb may grab one (`*` in the
//!   notation), unless the move exploded or castled.
//! - **End (NU-8).** A blasted king loses ([`EndReason::KingExploded`]), even when the mover
//!   blew up its own king; both kings blasted by one action is a draw
//!   ([`EndReason::KingsExploded`]); no legal action is a stalemate draw.
//!
//! # Serialization
//!
//! The six standard FEN fields (en passant written only when an en passant capture is
//! possible; castling `KQkq` or Chess960 rook files), then a seventh field listing every
//! bomb, comma-separated, without spaces:
//!
//! - `w:choosing` / `b:choosing`: that side has not chosen its carrier yet (setup, NU-3);
//! - `w:chosen` / `b:chosen`: that side has chosen, but this view may not see where;
//! - `e1`: the piece on e1 carries a bomb (its colour controls it);
//! - `e4*`: one loose bomb on e4; `e4*2`: two loose bombs on e4.
//!
//! Setup markers come first (White's, then Black's), then squares in canonical order (a1,
//! b1, ..., h8), a carried bomb before loose bombs on the same square. There are always two
//! bombs in all (a pending or hidden choice counts as one). Before play starts at least one
//! side is still choosing, there are no loose bombs, and a side that has chosen shows
//! either its carrier's square (full view, or its own player's view) or `chosen`.
//! Examples, from the setup phase (the first four show one game: nobody has chosen; White
//! has chosen its king, as White or the full view sees it; the same as Black or a spectator
//! sees it; Black has chosen its queen first) to play:
//!
//! ```text
//! rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 w:choosing,b:choosing
//! rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 b:choosing,e1
//! rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 w:chosen,b:choosing
//! rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 w:choosing,d8
//! rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 e1,d8
//! r1bqk2r/pppp1ppp/2n5/8/8/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 5 f3,e5*
//! ```
//!
//! [`Position::from_fen`] also takes a plain six-field FEN, read as "both sides still
//! choosing"; [`Position::to_fen`] always writes the seventh field, and
//! `to_fen(from_fen(x)) == x` for every `x` it writes.
//!
//! # Notation
//!
//! See [`notation`] and `docs/notation/nuke.md`: `[FROM>TO ]SAN[*]`, e.g. `c1>d2 Nxe5*`.

pub mod notation;

use std::hash::{Hash, Hasher};

use crate::chess::attacks::KING;
use crate::chess::{
    ChessState, GenRules, Move, MoveKind, Role, bit, capture_removal, sq, square, square_list,
    squares,
};
use crate::{
    ActionError, ActionSquares, BoardView, Cause, Color, DesignationError, DesignationErrorKind,
    EndReason, FenError, GameOptions, LooseBombs, OptionsError, Outcome, Piece, Position, Removal,
    Square, Status, Variant, Viewer,
};

/// Nuke move generation: kings may capture (NU-13: a king may capture any piece but a king,
/// carrying or not; only carriers capture kings: NU-2, filtered in [`Nuke::is_legal`]).
const PSEUDO: GenRules = GenRules {
    king_captures: true,
};

/// Where one side stands in the setup phase (NU-3).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
enum Choice {
    /// The side has not chosen its carrier yet.
    Choosing,
    /// The side has chosen, but this (viewed) position does not show where.
    Hidden,
    /// The side has chosen and its carrier is in [`Nuke::carried`].
    Made,
}

/// A bomb handed on before the move (NU-4): from a carrier of the side to move to a piece
/// on an adjacent square: [`Transfer::from_square`] to [`Transfer::to_square`].
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Transfer {
    /// The carrier that hands its bomb on.
    pub(crate) from: u8,
    /// The piece (either colour) that takes it.
    pub(crate) to: u8,
}

impl Transfer {
    /// The square of the carrier that hands its bomb on (NU-4).
    pub fn from_square(&self) -> Square {
        square(self.from)
    }

    /// The square of the piece (either colour) that takes the bomb (NU-4).
    pub fn to_square(&self) -> Square {
        square(self.to)
    }
}

/// One Nuke action (C-2, NU-4, NU-10, NU-12): an optional transfer, a chess move, and
/// whether the moved piece grabs a loose bomb where it lands. Distinct triples are distinct
/// actions even when they reach the same position (NU-12).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct NukeAction {
    /// The bomb transfer before the move, if any.
    pub transfer: Option<Transfer>,
    /// The move.
    pub mv: Move,
    /// Whether the moved piece grabs one loose bomb on its destination (NU-10).
    pub grab: bool,
}

/// A position of Nuke Chess: the chess state, the bombs (carried and loose) and the setup
/// phase. See the [module documentation](self) for the rules and the serialization.
#[derive(Clone, Debug, Eq, PartialEq, Hash)]
pub struct Nuke {
    state: ChessState,
    /// Squares whose piece carries a bomb (at most one bomb per piece, NU-10).
    carried: u64,
    /// Squares with at least one loose bomb (NU-9).
    loose: u64,
    /// Squares with two loose bombs (a subset of `loose`).
    loose2: u64,
    /// The setup phase of each side (index [`Color::index`]).
    setup: [Choice; 2],
}

/// A pseudo-legal move's verdict once the carriers after the transfer are known.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub(crate) enum Verdict {
    /// Legal.
    Legal,
    /// The mover is a king or queen that carries a bomb (NU-5).
    Frozen,
    /// A non-carrier would capture a king (NU-2).
    KingCapture,
}

impl Nuke {
    /// The standard start position in the setup phase: both sides still have to choose
    /// their carrier (NU-1, NU-3).
    pub fn new() -> Nuke {
        Nuke {
            state: ChessState::standard(),
            carried: 0,
            loose: 0,
            loose2: 0,
            setup: [Choice::Choosing; 2],
        }
    }

    /// The underlying chess state (board, rights, clocks).
    pub(crate) fn state(&self) -> &ChessState {
        &self.state
    }

    /// Whether both sides have chosen their carriers, so that play has started (NU-3).
    pub fn is_playing(&self) -> bool {
        self.setup == [Choice::Made; 2]
    }

    /// Squares of the pieces that carry a bomb (as far as this view shows), canonical order.
    pub fn carriers(&self) -> Vec<Square> {
        square_list(self.carried)
    }

    /// Loose bombs (NU-9) as `(square, count)`, canonical order; counts are 1 or 2.
    pub fn loose_bombs(&self) -> Vec<(Square, u8)> {
        squares(self.loose)
            .map(|s| (square(s), self.loose_count(s)))
            .collect()
    }

    /// The number of bombs in this position: carried, loose, and one per side whose choice
    /// is pending or hidden. Always 2 for positions reached by play (NU-3, NU-9).
    pub fn bomb_count(&self) -> u32 {
        let pending = self.setup.iter().filter(|c| **c != Choice::Made).count() as u32;
        self.carried.count_ones() + self.loose.count_ones() + self.loose2.count_ones() + pending
    }

    /// Whether the piece on `s` is a king or queen that carries a bomb and so cannot move
    /// (NU-5).
    pub fn is_frozen(&self, s: Square) -> bool {
        sq(s).is_some_and(|s| self.frozen_at(s, self.carried))
    }

    fn frozen_at(&self, s: u8, carried: u64) -> bool {
        let royals = self.state.board.role[Role::King as usize]
            | self.state.board.role[Role::Queen as usize];
        carried & royals & bit(s) != 0
    }

    fn loose_count(&self, s: u8) -> u8 {
        u8::from(self.loose & bit(s) != 0) + u8::from(self.loose2 & bit(s) != 0)
    }

    fn kings_present(&self) -> bool {
        let b = &self.state.board;
        b.king(Color::White).is_some() && b.king(Color::Black).is_some()
    }

    /// The transfers the side to move may make (NU-4), with the carriers after each;
    /// the first entry is "no transfer". Canonical order: by carrier, then by target square.
    pub(crate) fn transfer_options(&self) -> Vec<(Option<Transfer>, u64)> {
        let board = &self.state.board;
        let ours = board.color[self.state.turn.index()];
        let occupied = board.occupied();
        let mut out = vec![(None, self.carried)];
        for from in squares(self.carried & ours) {
            for to in squares(KING[from as usize] & occupied & !self.carried) {
                out.push((
                    Some(Transfer { from, to }),
                    (self.carried & !bit(from)) | bit(to),
                ));
            }
        }
        out
    }

    /// Why a transfer cannot be made, or `None` when it can (NU-4).
    pub(crate) fn transfer_error(&self, t: Transfer) -> Option<String> {
        let board = &self.state.board;
        let (from, to) = (square(t.from), square(t.to));
        let us = self.state.turn;
        match board.piece_at(t.from) {
            None => return Some(format!("there is no piece on {from} to hand a bomb on")),
            Some((_, role)) if self.carried & bit(t.from) == 0 => {
                return Some(format!(
                    "the {} on {from} carries no bomb to hand on", // NU-4
                    role.kind()
                ));
            }
            Some((c, _)) if c != us => {
                return Some(format!(
                    "the bomb on {from} is {c}'s: you may only hand on a bomb that one of your own pieces carries" // NU-4
                ));
            }
            _ => {}
        }
        if KING[t.from as usize] & bit(t.to) == 0 {
            return Some(format!("{to} is not next to {from}")); // NU-4
        }
        if board.piece_at(t.to).is_none() {
            return Some(format!(
                "there is no piece on {to} to take the bomb; a bomb can only be handed to a piece" // NU-4
            ));
        }
        if self.carried & bit(t.to) != 0 {
            return Some(format!("{to} already carries a bomb")); // NU-4
        }
        None
    }

    /// The verdict on a pseudo-legal move given the carriers after the transfer (NU-2, NU-5).
    #[inline]
    pub(crate) fn verdict(&self, mv: &Move, carried: u64) -> Verdict {
        if self.frozen_at(mv.from, carried) {
            Verdict::Frozen
        } else if mv.capture == Some(Role::King) && carried & bit(mv.from) == 0 {
            Verdict::KingCapture
        } else {
            Verdict::Legal
        }
    }

    #[inline]
    fn is_legal(&self, mv: &Move, carried: u64) -> bool {
        self.verdict(mv, carried) == Verdict::Legal
    }

    /// Whether a legal move sets off a bomb (NU-6): it captures a carrier, or a carrier
    /// captures a king. The capturer is always inside the blast then.
    #[inline]
    pub(crate) fn explodes(mv: &Move, carried: u64) -> bool {
        mv.capture_square().is_some_and(|s| carried & bit(s) != 0)
            || (mv.capture == Some(Role::King) && carried & bit(mv.from) != 0)
    }

    /// Whether a legal move may end with a grab (NU-10, NU-12): a loose bomb on its
    /// destination, a mover that carries none, no castling, no explosion.
    #[inline]
    pub(crate) fn can_grab(&self, mv: &Move, carried: u64) -> bool {
        self.loose & bit(mv.to) != 0
            && carried & bit(mv.from) == 0
            && !matches!(mv.kind, MoveKind::Castle { .. })
            && !Self::explodes(mv, carried)
    }

    /// Pseudo-legal moves of the side to move (movement only, kings capturing too).
    pub(crate) fn pseudo_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(64);
        self.state.gen_pseudo(PSEUDO, &mut moves);
        moves
    }

    /// The legal moves after a transfer that leaves `carried` as the carriers.
    pub(crate) fn legal_moves_with(&self, pseudo: &[Move], carried: u64) -> Vec<Move> {
        pseudo
            .iter()
            .filter(|m| self.is_legal(m, carried))
            .copied()
            .collect()
    }

    fn gen_actions(&self, out: &mut Vec<NukeAction>) {
        out.clear();
        if !self.is_playing() || !self.kings_present() {
            return; // NU-3: no move before both have chosen; C-7: a blasted king ends the game.
        }
        let pseudo = self.pseudo_moves();
        for (transfer, carried) in self.transfer_options() {
            for mv in pseudo.iter().filter(|m| self.is_legal(m, carried)) {
                out.push(NukeAction {
                    transfer,
                    mv: *mv,
                    grab: false,
                });
                if self.can_grab(mv, carried) {
                    out.push(NukeAction {
                        transfer,
                        mv: *mv,
                        grab: true,
                    });
                }
            }
        }
    }

    fn count_actions(&self) -> u64 {
        if !self.is_playing() || !self.kings_present() {
            return 0;
        }
        let pseudo = self.pseudo_moves();
        let mut n = 0;
        for (_, carried) in self.transfer_options() {
            for mv in &pseudo {
                if self.is_legal(mv, carried) {
                    n += 1 + u64::from(self.can_grab(mv, carried));
                }
            }
        }
        n
    }

    fn add_loose(&mut self, s: u8) {
        if self.loose & bit(s) != 0 {
            self.loose2 |= bit(s);
        } else {
            self.loose |= bit(s);
        }
    }

    fn take_loose(&mut self, s: u8) {
        if self.loose2 & bit(s) != 0 {
            self.loose2 &= !bit(s);
        } else {
            self.loose &= !bit(s);
        }
    }

    /// Plays a legal action: transfer, move, explosions with chains, regeneration, grab.
    /// Removals are pushed to `out` when `REPORT` is set (C-6). A carrier that captures a
    /// carrying king explodes with it: both bombs go off on the king's square and lie loose
    /// there (NU-13). Only the move itself touches the 100-ply count (in the shared core's
    /// apply: captures and pawn moves reset it, blasts always come with a capture); the
    /// transfer and the grab leave it alone (NU-13).
    fn apply<const REPORT: bool>(&mut self, action: &NukeAction, out: &mut Vec<Removal>) {
        let mv = &action.mv;
        // NU-4: the transfer comes first; legality was judged after it (NU-12).
        if let Some(t) = action.transfer {
            self.carried = (self.carried & !bit(t.from)) | bit(t.to);
        }
        let mover_carries = self.carried & bit(mv.from) != 0;
        let victim_square = mv.capture_square();
        let victim_carries = victim_square.is_some_and(|s| self.carried & bit(s) != 0);
        let king_hit = mv.capture == Some(Role::King);
        if let Some(s) = victim_square {
            self.carried &= !bit(s);
        }
        self.carried &= !bit(mv.from);
        let captured = self.state.apply(mv);
        match mv.kind {
            MoveKind::Castle { rook } => {
                // NU-12: a carrying rook castles with its bomb (a carrying king is frozen).
                if self.carried & bit(rook) != 0 {
                    let rook_to = mv.castle_rook_to().expect("castling");
                    self.carried = (self.carried & !bit(rook)) | bit(rook_to);
                }
                if mover_carries {
                    self.carried |= bit(mv.to);
                }
            }
            // A carrier keeps its bomb as it moves and promotes (NU-5: a queen is then frozen).
            _ if mover_carries => self.carried |= bit(mv.to),
            _ => {}
        }
        if REPORT && let Some((cs, color, role)) = captured {
            out.push(capture_removal(cs, color, role));
        }
        // NU-6: a captured carrier's bomb explodes on its square (NU-11: the captured pawn's
        // square for en passant); a carrier that captures a king explodes its own bomb there
        // (NU-13: a carrying king's bomb too, both regenerating loose on its square).
        let mut queue: Vec<u8> = Vec::new();
        if victim_carries {
            queue.push(victim_square.expect("a capture"));
        }
        if king_hit && mover_carries {
            self.carried &= !bit(mv.to);
            queue.push(mv.to);
        }
        let mut i = 0;
        while i < queue.len() {
            let centre = queue[i];
            i += 1;
            // NU-9: the bomb lies loose where it exploded.
            self.add_loose(centre);
            let block = (KING[centre as usize] | bit(centre)) & self.state.board.occupied();
            for s in squares(block) {
                let (color, role) = self.state.board.remove(s).expect("occupied");
                if REPORT {
                    out.push(Removal {
                        square: square(s),
                        piece: Piece::new(color, role.kind()),
                        cause: Cause::Exploded,
                    });
                }
                // NU-7: a carried bomb inside a blast explodes too.
                if self.carried & bit(s) != 0 {
                    self.carried &= !bit(s);
                    queue.push(s);
                }
            }
        }
        if !queue.is_empty() {
            // NU-12: a rook destroyed by a blast loses its castling right.
            self.state.prune_castling();
        }
        // NU-10: grab one loose bomb on arrival.
        if action.grab {
            self.take_loose(mv.to);
            self.carried |= bit(mv.to);
        }
        debug_assert!(self.carried & !self.state.board.occupied() == 0);
        self.normalize_ep();
    }

    /// Whether the side to move has a pawn that may capture en passant: any pseudo-legal
    /// en passant capture is legal in Nuke (NU-1: no check; pawns are never frozen, NU-5;
    /// en passant never takes a king, NU-2). The shared core's [`ChessState::ep_usable`].
    fn ep_capturable(&self) -> bool {
        self.state.ep_usable(|_| true)
    }

    /// Drops an en passant square no pawn can use, so equal positions compare, hash and
    /// print equal (C-4): the shared core's [`ChessState::normalize_ep`].
    fn normalize_ep(&mut self) {
        self.state.normalize_ep(|_, _| true);
    }

    /// The position after `transfer` alone (for notation and error messages).
    pub(crate) fn carried_after(&self, transfer: Option<Transfer>) -> u64 {
        match transfer {
            Some(t) => (self.carried & !bit(t.from)) | bit(t.to),
            None => self.carried,
        }
    }

    pub(crate) fn loose_at(&self, s: u8) -> bool {
        self.loose & bit(s) != 0
    }

    fn parse_bombs(&mut self, fen: &str, field: &str) -> Result<(), FenError> {
        let err = |reason: String| FenError::new(crate::FenErrorKind::VariantFields, fen, reason);
        let board = self.state.board;
        let mut markers = [None::<Choice>; 2];
        for token in field.split(',') {
            if let Some((side, what)) = token.split_once(':') {
                let color = match side {
                    "w" => Color::White,
                    "b" => Color::Black,
                    _ => {
                        return Err(err(format!(
                            "bomb field item '{token}': a setup marker starts with 'w:' or 'b:'"
                        )));
                    }
                };
                let choice = match what {
                    "choosing" => Choice::Choosing,
                    "chosen" => Choice::Hidden,
                    _ => {
                        return Err(err(format!(
                            "bomb field item '{token}': a setup marker is '{side}:choosing' or '{side}:chosen'"
                        )));
                    }
                };
                if markers[color.index()].replace(choice).is_some() {
                    return Err(err(format!("bomb field has two setup markers for {color}")));
                }
                continue;
            }
            let (name, loose) = match token.split_once('*') {
                Some((name, count)) => (
                    name,
                    Some(match count {
                        "" => 1,
                        "2" => 2,
                        _ => {
                            return Err(err(format!(
                                "bomb field item '{token}': loose bombs are written 'e4*' (one) or 'e4*2' (two)"
                            )));
                        }
                    }),
                ),
                None => (token, None),
            };
            let s = name.parse::<Square>().ok().and_then(sq).ok_or_else(|| {
                err(format!(
                    "bomb field item '{token}' is not a square a1-h8, a loose bomb like 'e4*' or 'e4*2', or a setup marker like 'w:choosing'"
                ))
            })?;
            match loose {
                Some(count) => {
                    if self.loose & bit(s) != 0 {
                        return Err(err(format!("bomb field lists loose bombs on {name} twice")));
                    }
                    self.loose |= bit(s);
                    if count == 2 {
                        self.loose2 |= bit(s);
                    }
                }
                None => {
                    if board.piece_at(s).is_none() {
                        return Err(err(format!(
                            "bomb field says the piece on {name} carries a bomb, but {name} is empty"
                        )));
                    }
                    if self.carried & bit(s) != 0 {
                        return Err(err(format!(
                            "bomb field lists {name} twice; a piece never carries two bombs" // NU-10
                        )));
                    }
                    self.carried |= bit(s);
                }
            }
        }
        if markers.iter().any(Option::is_some) {
            if self.loose != 0 {
                return Err(err(
                    "loose bombs cannot exist before both carriers are chosen (setup markers present)".into(),
                ));
            }
            for color in Color::ALL {
                let carriers = (self.carried & board.color[color.index()]).count_ones();
                self.setup[color.index()] = match (markers[color.index()], carriers) {
                    (Some(choice), 0) => choice,
                    (None, 1) => Choice::Made,
                    (Some(_), _) => {
                        return Err(err(format!(
                            "{color} has a setup marker and a carrier; give one or the other"
                        )));
                    }
                    (None, n) => {
                        return Err(err(format!(
                            "before play starts {color} has exactly one carrier or a setup marker, found {n} carriers"
                        )));
                    }
                };
            }
            if !self.setup.contains(&Choice::Choosing) {
                return Err(err(
                    "once both sides have chosen, play has started and both carriers are public: write both carrier squares instead of setup markers".into(), // NU-3
                ));
            }
        } else {
            self.setup = [Choice::Made; 2];
        }
        let bombs = self.bomb_count();
        if bombs != 2 {
            return Err(err(format!(
                "Nuke has exactly two bombs (one per side at the start, NU-3), carried or loose; the bomb field '{field}' has {bombs}"
            )));
        }
        Ok(())
    }

    fn bombs_fen(&self) -> String {
        let mut items: Vec<String> = Vec::new();
        for color in Color::ALL {
            let prefix = color.fen_char();
            match self.setup[color.index()] {
                Choice::Choosing => items.push(format!("{prefix}:choosing")),
                Choice::Hidden => items.push(format!("{prefix}:chosen")),
                Choice::Made => {}
            }
        }
        for s in 0..64u8 {
            if self.carried & bit(s) != 0 {
                items.push(square(s).to_string());
            }
            match self.loose_count(s) {
                1 => items.push(format!("{}*", square(s))),
                2 => items.push(format!("{}*2", square(s))),
                _ => {}
            }
        }
        items.join(",")
    }
}

impl Default for Nuke {
    fn default() -> Nuke {
        Nuke::new()
    }
}

impl Position for Nuke {
    type Action = NukeAction;
    const VARIANT: Variant = Variant::Nuke;

    /// The standard start in the setup phase. Nuke has one carrier per side (NU-3) and no
    /// Dead Man's Switch: other options are refused.
    fn start(options: &GameOptions) -> Result<Nuke, OptionsError> {
        if options.carriers != 1 {
            return Err(OptionsError {
                reason: format!(
                    "Nuke has exactly one carrier per side; {} were asked for", // NU-3
                    options.carriers
                ),
            });
        }
        if options.dead_mans_switch {
            return Err(OptionsError {
                reason: "the Dead Man's Switch is a Beirut option; in Nuke every captured carrier explodes".into(), // NU-6
            });
        }
        Ok(Nuke::new())
    }

    /// Reads the serialization of the [module documentation](self): six FEN fields and the
    /// bomb field (missing: both sides still choosing).
    fn from_fen(fen: &str) -> Result<Nuke, FenError> {
        let (state, rest) = ChessState::from_fen(fen)?;
        let mut pos = Nuke {
            state,
            carried: 0,
            loose: 0,
            loose2: 0,
            setup: [Choice::Choosing; 2],
        };
        match rest.as_slice() {
            [] => {}
            [field] => pos.parse_bombs(fen, field)?,
            _ => {
                return Err(FenError::new(
                    crate::FenErrorKind::Fields,
                    fen,
                    "Nuke FEN has six fields and one bomb field (like 'e1,d8' or 'w:choosing,b:choosing'); found more",
                ));
            }
        }
        pos.normalize_ep();
        Ok(pos)
    }

    fn to_fen(&self) -> String {
        format!(
            "{} {}",
            self.state.to_fen(self.ep_capturable()),
            self.bombs_fen()
        )
    }

    crate::position::clocks!(state);

    /// Every (transfer, move, grab) triple (NU-12): no transfer first, then transfers by
    /// carrier and target square; within one, moves in generation order, each without grab
    /// before its grab. Empty during setup (NU-3) and after a king is blasted (C-7).
    fn legal_actions_into(&self, out: &mut Vec<NukeAction>) {
        self.gen_actions(out);
    }

    fn count_legal(&self) -> u64 {
        self.count_actions()
    }

    crate::chess::plays_by_apply!(NukeAction);

    /// NU-8: one king blasted loses, both kings is a draw, no legal action is a stalemate
    /// draw. `None` during setup (NU-3).
    fn variant_outcome(&self) -> Option<Outcome> {
        if !self.is_playing() {
            return None;
        }
        let board = &self.state.board;
        board
            .missing_king_outcome()
            .or_else(|| (self.count_actions() == 0).then_some(Outcome::draw(EndReason::Stalemate)))
    }

    /// C-4: side to move, pieces, castling and usable en passant rights, carried and loose
    /// bombs, and the setup phase.
    fn repetition_key(&self) -> u64 {
        // The en passant square is normalized: only a usable one is kept.
        let mut h = self.state.repetition_hasher(true);
        (self.carried, self.loose, self.loose2, self.setup).hash(&mut h);
        h.finish()
    }

    fn san(&self, action: &NukeAction) -> String {
        notation::canonical(self, action)
    }

    /// Coordinates (`g1f3`, `e7e8q`) for a plain move; the canonical text for an action
    /// with a transfer or a grab (docs/notation/nuke.md).
    fn uci(&self, action: &NukeAction) -> String {
        if action.transfer.is_none() && !action.grab {
            crate::chess::san::uci(&action.mv)
        } else {
            self.san(action)
        }
    }

    fn parse_action(&self, text: &str) -> Result<NukeAction, ActionError> {
        notation::parse(self, text)
    }

    /// The move's squares, and the centre of the first blast when the move explodes (NU-6).
    fn effects(&self, action: &Self::Action) -> crate::Effects {
        crate::effects::nuke(self, action)
    }

    fn action_squares(&self, action: &NukeAction) -> ActionSquares {
        let carried = self.carried_after(action.transfer);
        ActionSquares {
            from: Some(square(action.mv.from)),
            to: Some(square(action.mv.to)),
            detonation: Nuke::explodes(&action.mv, carried)
                .then(|| action.mv.capture_square().map(square))
                .flatten(),
        }
    }

    /// NU-3: until both sides have chosen, a side's choice is hidden from the other side and
    /// from spectators (shown as `w:chosen`/`b:chosen`). Once play starts nothing is hidden.
    fn view(&self, viewer: Viewer) -> Nuke {
        let mut v = self.clone();
        if self.is_playing() {
            return v;
        }
        for color in Color::ALL {
            if v.setup[color.index()] == Choice::Made && !viewer.sees(color) {
                v.setup[color.index()] = Choice::Hidden;
                v.carried &= !v.state.board.color[color.index()];
            }
        }
        v
    }

    /// Pieces with `carrier` (public in play, section 6) and `frozen` (a carrying king or
    /// queen, NU-5), and the loose bombs with counts (NU-9).
    fn board_view(&self) -> BoardView {
        BoardView {
            variant: Variant::Nuke,
            pieces: self.pieces(),
            loose_bombs: Position::loose_bombs(self),
            turn: self.state.turn,
            fullmoves: self.state.fullmoves,
            checked: Vec::new(),
            status: Status::from_outcome(self.variant_outcome()),
            awaiting_designation: self.awaiting_designation(),
        }
    }

    fn pieces(&self) -> Vec<crate::PieceView> {
        self.state.board.piece_views(
            |s| self.carried & bit(s) != 0,
            |s| self.frozen_at(s, self.carried),
        )
    }

    fn loose_bombs(&self) -> Vec<LooseBombs> {
        squares(self.loose)
            .map(|s| LooseBombs {
                square: square(s),
                count: self.loose_count(s),
            })
            .collect()
    }

    /// NU-3: `color` chooses one of its own pieces (any piece, the king included) as its
    /// carrier. A side may change its choice while the other side has not chosen; when both
    /// have chosen, play starts and no more changes are possible.
    ///
    /// # Errors
    /// [`DesignationError`] when play has started, when not exactly one square is given,
    /// when the square is off the board or empty or holds an enemy piece, or when this is
    /// a view that hides the other side's choice.
    fn designate(&mut self, color: Color, chosen: &[Square]) -> Result<(), DesignationError> {
        let fail =
            |kind: DesignationErrorKind, reason: String| Err(DesignationError::new(kind, reason));
        if self.is_playing() {
            return fail(
                DesignationErrorKind::Closed,
                "both carriers are already chosen and play has started".into(), // NU-3
            );
        }
        let [choice] = chosen else {
            return fail(
                DesignationErrorKind::WrongCount,
                format!(
                    "Nuke has exactly one carrier per side: choose one square, not {}", // NU-3
                    chosen.len()
                ),
            );
        };
        let Some(s) = sq(*choice) else {
            return fail(
                DesignationErrorKind::OffBoard,
                format!("{choice} is not a square of the 8x8 board"),
            );
        };
        match self.state.board.piece_at(s) {
            None => {
                return fail(
                    DesignationErrorKind::Empty,
                    format!(
                        "there is no piece on {choice}; {color} must choose one of its own pieces" // NU-3
                    ),
                );
            }
            Some((c, role)) if c != color => {
                return fail(
                    DesignationErrorKind::NotYours,
                    format!(
                        "{choice} holds a {c} {}; {color} must choose one of its own pieces", // NU-3
                        role.kind()
                    ),
                );
            }
            _ => {}
        }
        if self.setup[color.other().index()] == Choice::Hidden {
            return fail(
                DesignationErrorKind::HiddenView,
                format!(
                    "this view hides {}'s choice; designate on the full position",
                    color.other()
                ),
            );
        }
        let own = self.state.board.color[color.index()];
        self.carried = (self.carried & !own) | bit(s);
        self.setup[color.index()] = Choice::Made;
        Ok(())
    }

    fn carrier_count(&self) -> usize {
        1
    }

    /// NU-3: every own piece, the king included.
    fn carrier_candidates(&self, color: Color) -> Vec<Square> {
        square_list(self.state.board.color[color.index()])
    }

    fn awaiting_designation(&self) -> Vec<Color> {
        Color::ALL
            .into_iter()
            .filter(|c| self.setup[c.index()] == Choice::Choosing)
            .collect()
    }
}
