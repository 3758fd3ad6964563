//! Atomic Chess (docs/rules/RULINGS.md section 1, AT-1 to AT-9), as played on lichess (FICS rules).
//!
//! Serialization is standard FEN with clocks; castling rights use `KQkq`, or rook files
//! (`HAha`, Shredder/X-FEN) for Chess960 positions. The en passant square is written only
//! when an en passant capture is legal. Notation is standard SAN (C-5); input also takes
//! coordinates (`e2e4`, `e7e8q`, castling as `e1g1` or king-takes-rook `e1h1`).

use std::hash::{Hash, Hasher};

use crate::chess::attacks::{KING, KNIGHT, PAWN, between, bishop, rook};
use crate::chess::san;
use crate::chess::{
    Board, ChessState, GenRules, Move, MoveKind, Role, bit, capture_removal, square, squares,
};
use crate::{
    ActionError, ActionSquares, BoardView, Cause, Color, EndReason, FenError, GameOptions,
    OptionsError, Outcome, Piece, Position, Removal, Square, Variant,
};

/// A position of Atomic Chess.
#[derive(Clone, Debug, Eq, PartialEq, Hash)]
pub struct Atomic {
    state: ChessState,
}

const PSEUDO: GenRules = GenRules {
    king_captures: false,
};

impl Atomic {
    /// The standard start position (AT-1).
    pub fn new() -> Atomic {
        Atomic {
            state: ChessState::standard(),
        }
    }

    /// Whether `color`'s king is in check (AT-7): attacked by an enemy piece other than
    /// the king, and not touching the enemy king. A missing king is not in check.
    pub fn is_check(&self, color: Color) -> bool {
        in_check(&self.state.board, color)
    }

    /// Plays `mv` (a pseudo-legal move), with the atomic blast of AT-2 to AT-4 for
    /// captures; removals are pushed to `out` when `REPORT` is set.
    fn apply<const REPORT: bool>(&mut self, mv: &Move, out: &mut Vec<Removal>) {
        let mover = self.state.turn;
        let (Some(cs), Some(role)) = (mv.capture_square(), mv.capture) else {
            self.state.apply(mv);
            return;
        };
        let board = &mut self.state.board;
        let blast = blast(board, mv);
        if REPORT {
            out.push(capture_removal(cs, mover.other(), role));
            // AT-2, AT-4: the capturer (promoted or not) is destroyed.
            let capturer = mv.promotion.unwrap_or(mv.role);
            out.push(Removal {
                square: square(mv.to),
                piece: Piece::new(mover, capturer.kind()),
                cause: Cause::Exploded,
            });
            for s in squares(blast & !(bit(mv.from) | bit(mv.to) | bit(cs))) {
                let (c, r) = board.piece_at(s).expect("occupied");
                out.push(Removal {
                    square: square(s),
                    piece: Piece::new(c, r.kind()),
                    cause: Cause::Exploded,
                });
            }
        }
        board.clear(blast);
        self.state.advance(mv, true);
        // AT-8: a rook destroyed in a blast loses its castling right.
        self.state.prune_castling();
    }

    /// The board after the pseudo-legal move `mv`, blast included: all that legality
    /// looks at (the clocks, rights and turn are left alone).
    #[inline]
    fn board_after(&self, mv: &Move) -> Board {
        let mut board = self.state.board;
        if mv.capture.is_some() {
            board.clear(blast(&board, mv));
        } else {
            board.play(mv, self.state.turn);
        }
        board
    }

    /// What legality needs to know about the position before any move: see [`Safety`].
    #[inline]
    fn safety(&self) -> Safety {
        let us = self.state.turn;
        let board = &self.state.board;
        let (Some(king), Some(enemy_king)) = (board.king(us), board.king(us.other())) else {
            return Safety::CHECK_ALL;
        };
        // AT-7: kings that touch are never in check, and no quiet move of another piece
        // parts them.
        if KING[king as usize] & bit(enemy_king) != 0 {
            return Safety {
                checked: false,
                pin_lines: 0,
            };
        }
        let them = board.color[us.other().index()];
        let queens = board.role[Role::Queen as usize];
        let snipers = them
            & ((rook(king, 0) & (board.role[Role::Rook as usize] | queens))
                | (bishop(king, 0) & (board.role[Role::Bishop as usize] | queens)));
        Safety {
            checked: in_check(board, us),
            pin_lines: squares(snipers).fold(0, |lines, s| lines | between(king, s)),
        }
    }

    /// Whether a pseudo-legal move is legal (AT-5, AT-6, AT-7, AT-8), `safety` being
    /// [`Atomic::safety`] of this position.
    #[inline]
    fn is_legal(&self, safety: &Safety, mv: &Move) -> bool {
        // A quiet move of a piece other than the king, with our king not in check: it can
        // only expose the king by leaving a line between the king and an enemy slider.
        if !safety.checked
            && mv.capture.is_none()
            && mv.role != Role::King
            && safety.pin_lines & bit(mv.from) == 0
        {
            return true;
        }
        let us = self.state.turn;
        if matches!(mv.kind, MoveKind::Castle { .. }) && !self.castle_path_safe(mv) {
            return false;
        }
        let board = self.board_after(mv);
        match (board.king(us), board.king(us.other())) {
            (None, _) => false,      // AT-5: never destroy your own king.
            (Some(_), None) => true, // AT-6: exploding the enemy king wins at once.
            (Some(_), Some(_)) => !in_check(&board, us),
        }
    }

    /// AT-8: the king's start square and every square it passes are safe: no enemy
    /// non-king piece attacks it (judged with the king lifted off its start square, the
    /// rook still in place), or it touches the enemy king. The destination is judged by
    /// the final position like any move's (AT-7), as in lichess/shakmaty and as BM-4
    /// spells out for Bomberman Chess.
    fn castle_path_safe(&self, mv: &Move) -> bool {
        let us = self.state.turn;
        let board = &self.state.board;
        let enemy_king = board.king(us.other());
        let occupied = board.occupied() ^ bit(mv.from);
        let path = (ChessState::castle_king_path(mv) & !bit(mv.to)) | bit(mv.from);
        squares(path).all(|s| {
            let touches_king = enemy_king.is_some_and(|k| KING[k as usize] & bit(s) != 0);
            touches_king
                || board.attackers(s, us.other(), occupied) & !board.role[Role::King as usize] == 0
        })
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let board = &self.state.board;
        if board.king(Color::White).is_none() || board.king(Color::Black).is_none() {
            return; // C-7: a game with an exploded king has no actions.
        }
        let safety = self.safety();
        self.state.gen_pseudo_with(PSEUDO, &mut |mv| {
            if self.is_legal(&safety, &mv) {
                out.push(mv);
            }
        });
    }

    /// The number of legal moves, without storing them.
    fn count_legal_moves(&self) -> u64 {
        let board = &self.state.board;
        if board.king(Color::White).is_none() || board.king(Color::Black).is_none() {
            return 0; // C-7, as in `legal_moves`.
        }
        let safety = self.safety();
        let mut count = 0;
        self.state.gen_pseudo_with(PSEUDO, &mut |mv| {
            count += u64::from(self.is_legal(&safety, &mv));
        });
        count
    }

    /// Whether an en passant capture is legal now (AT-1, AT-5..AT-8; none once a king is
    /// gone, C-7): the shared core's [`ChessState::ep_usable`], for FEN and repetition (C-4).
    fn has_legal_ep(&self) -> bool {
        let board = &self.state.board;
        board.king(Color::White).is_some()
            && board.king(Color::Black).is_some()
            && self
                .state
                .ep_usable(|m| self.is_legal(&Safety::CHECK_ALL, m))
    }

    /// Why a pseudo-legal (or king-capturing) move is not legal, for error messages.
    fn illegal_reason(&self, mv: &Move) -> String {
        if mv.role == Role::King && mv.capture.is_some() {
            return "kings cannot capture in Atomic".into(); // AT-5
        }
        if matches!(mv.kind, MoveKind::Castle { .. }) && !self.castle_path_safe(mv) {
            return "the king would castle out of, through or into check".into(); // AT-8
        }
        if self.board_after(mv).king(self.state.turn).is_none() {
            "the explosion would destroy your own king".into() // AT-5
        } else {
            "it would leave your king in check".into() // AT-7
        }
    }

    /// AT-9: the two kings alone, or a bare king against king and one knight, bishop or rook.
    fn insufficient_material(&self) -> bool {
        let board = &self.state.board;
        let others = board.non_kings(Color::White) | board.non_kings(Color::Black);
        match others.count_ones() {
            0 => true,
            1 => {
                let minor = board.role[Role::Knight as usize]
                    | board.role[Role::Bishop as usize]
                    | board.role[Role::Rook as usize];
                others & minor != 0
            }
            _ => false,
        }
    }
}

impl Default for Atomic {
    fn default() -> Atomic {
        Atomic::new()
    }
}

/// What [`Atomic::is_legal`] needs to know about a position before any move.
struct Safety {
    /// The side to move is in check (AT-7).
    checked: bool,
    /// The squares between the side to move's king and each enemy rook, bishop or queen
    /// on a line with it (whatever stands between): the only squares a quiet move may
    /// leave to expose the king.
    pin_lines: u64,
}

impl Safety {
    /// Judges every move on the board after it.
    const CHECK_ALL: Safety = Safety {
        checked: true,
        pin_lines: u64::MAX,
    };
}

/// The squares a capture `mv` on `board` (before it) empties (AT-2 to AT-4): the
/// capturer's start square, the victim's, the capture square and every piece but a pawn
/// next to it (the blast is centred on `mv.to`, also for en passant, AT-3).
#[inline]
fn blast(board: &Board, mv: &Move) -> u64 {
    let cs = mv.capture_square().unwrap_or(mv.to);
    bit(mv.from)
        | bit(cs)
        | bit(mv.to)
        | (KING[mv.to as usize] & board.occupied() & !board.role[Role::Pawn as usize])
}

/// AT-7: `color`'s king is attacked by an enemy non-king piece and does not touch the enemy king.
#[inline]
fn in_check(board: &Board, color: Color) -> bool {
    let Some(king) = board.king(color) else {
        return false;
    };
    if board
        .king(color.other())
        .is_some_and(|k| KING[king as usize] & bit(k) != 0)
    {
        return false;
    }
    let k = king as usize;
    let occupied = board.occupied();
    let queens = board.role[Role::Queen as usize];
    let attackers = (KNIGHT[k] & board.role[Role::Knight as usize])
        | (PAWN[color.index()][k] & board.role[Role::Pawn as usize])
        | (rook(king, occupied) & (board.role[Role::Rook as usize] | queens))
        | (bishop(king, occupied) & (board.role[Role::Bishop as usize] | queens));
    attackers & board.color[color.other().index()] != 0
}

impl Position for Atomic {
    type Action = Move;
    const VARIANT: Variant = Variant::Atomic;

    fn start(_: &GameOptions) -> Result<Atomic, OptionsError> {
        Ok(Atomic::new())
    }

    fn from_fen(fen: &str) -> Result<Atomic, FenError> {
        let (state, rest) = ChessState::from_fen(fen)?;
        if !rest.is_empty() {
            return Err(FenError::new(
                crate::FenErrorKind::Fields,
                fen,
                "Atomic FEN has six fields; found extra ones",
            ));
        }
        if in_check(&state.board, state.turn.other()) && state.board.king(state.turn).is_some() {
            return Err(FenError::new(
                crate::FenErrorKind::Impossible,
                fen,
                "the side not to move is in check, which cannot happen in play",
            ));
        }
        Ok(Atomic { state })
    }

    fn to_fen(&self) -> String {
        self.state.to_fen(self.has_legal_ep())
    }

    crate::position::clocks!(state);

    fn legal_actions_into(&self, out: &mut Vec<Move>) {
        self.legal_moves(out);
    }

    fn count_legal(&self) -> u64 {
        self.count_legal_moves()
    }

    crate::chess::plays_by_apply!(Move);

    /// AT-9: exploded king (loss), atomic mate (loss), stalemate (draw).
    fn variant_outcome(&self) -> Option<Outcome> {
        let board = &self.state.board;
        if let Some(outcome) = board.missing_king_outcome() {
            return Some(outcome);
        }
        if self.count_legal() > 0 {
            return None;
        }
        Some(
            self.state
                .no_move_outcome(in_check(&self.state.board, self.state.turn)),
        )
    }

    /// C-4 hundred-ply rule, then AT-9 insufficient material.
    fn automatic_draw(&self) -> Option<EndReason> {
        self.state.automatic_draw(|| self.insufficient_material())
    }

    /// A side with nothing but its king cannot explode anything (kings cannot capture, AT-5).
    fn can_win(&self, color: Color) -> bool {
        self.state.board.non_kings(color) != 0
    }

    fn repetition_key(&self) -> u64 {
        self.state.repetition_hasher(self.has_legal_ep()).finish()
    }

    fn checked_squares(&self) -> Vec<Square> {
        self.state
            .checked_king(|state, color| in_check(&state.board, color))
    }

    fn san(&self, action: &Move) -> String {
        san::san(action, &self.legal_actions())
    }

    fn uci(&self, action: &Move) -> String {
        san::uci(action)
    }

    fn parse_action(&self, text: &str) -> Result<Move, ActionError> {
        let legal = self.legal_actions();
        let mut pseudo = Vec::new();
        self.state.gen_pseudo(
            GenRules {
                king_captures: true,
            },
            &mut pseudo,
        );
        san::resolve(text, &legal, &pseudo, |m| self.illegal_reason(m))
    }

    fn effects(&self, action: &Self::Action) -> crate::Effects {
        crate::effects::atomic(self, action)
    }

    fn action_squares(&self, action: &Move) -> ActionSquares {
        ActionSquares {
            from: Some(square(action.from)),
            to: Some(square(action.to)),
            detonation: None,
        }
    }

    fn board_view(&self) -> BoardView {
        crate::chess::board_view(self, &self.state, Variant::Atomic, |_| false)
    }

    fn pieces(&self) -> Vec<crate::PieceView> {
        self.state.board.piece_views(|_| false, |_| false)
    }
}
