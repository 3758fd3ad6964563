//! Beirut Chess (docs/rules/RULINGS.md section 2, BE-1 to BE-12): standard chess plus hidden bomb
//! carriers that their owner may explode ("Boom") instead of moving.
//!
//! # Phases
//! A game starts in a setup phase ([`Beirut::start`]): each side chooses its carriers with
//! [`Position::designate`] (BE-2: own pieces, no king, exactly N distinct pieces where
//! N = [`GameOptions::carriers`], 1..=15), in either order. While a side has not chosen,
//! [`Position::awaiting_designation`] names it and there are no legal actions.
//!
//! # Hidden information and views
//! [`Position::view`] removes what a viewer may not know: the opponent's (and, for a
//! spectator, both sides') carriers become `hidden`. Nothing else of a view depends on
//! the carriers: legality, check, mate and the draws ignore them (BE-5, BE-10), the
//! removal report of a silent capture of a carrier is that of any capture (BE-6, C-6), and
//! the threefold-repetition key leaves them out (BE-10 wins over the "hidden state" clause of
//! C-4: the public status never depends on hidden carriers). Once the board decides the game
//! ([`Position::variant_outcome`] is `Some`), every view is the full state (BE-9); for an
//! end declared off the board (resignation, agreement, time forfeit, repetition) the bot
//! reveals with [`Viewer::Full`] and [`Beirut::carriers`].
//!
//! # Serialization
//! Standard FEN (6 fields; the en passant square only when an en passant capture is legal)
//! plus three fields:
//!
//! 7. the carrier count N, `1` to `15`, followed by `+dms` when Dead Man's Switch is on
//!    (BE-6): `1`, `3+dms`;
//! 8. White's carriers, 9. Black's carriers, each one of: `unchosen` (setup phase, not chosen
//!    yet), `hidden` (chosen, not visible in this view), `-` (chosen, none left on the board),
//!    or the squares of the carriers still on the board in canonical order, comma-joined
//!    (`b1,g1`).
//!
//! Example: `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1 d1 hidden`.
//! A plain six-field FEN reads as `1 unchosen unchosen` (one carrier, no Dead Man's Switch,
//! both sides still to choose). [`Position::from_fen`] reads full states and views alike.
//!
//! # Notation (C-5)
//! Chess moves in standard SAN (input also takes coordinates). A Boom is `Boom@` plus the
//! carrier's square, `Boom@e5` (BE-3); input is case-insensitive (`boom@e5`), decorations
//! (`+`, `#`, `!`, `?`, a `->` removal list) are ignored. Its coordinate form is the same text.
//!
//! # Commitment (BE-9)
//! [`commitment`] and [`verify_commitment`] implement the SHA-256 commitment of
//! docs/ARCHITECTURE.md, "Beirut commitment".

use std::fmt::Write as _;
use std::hash::{Hash, Hasher};

use sha2::{Digest, Sha256};

use crate::chess::attacks::KING;
use crate::chess::{
    ChessState, GenRules, Move, MoveKind, Role, bit, capture_removal, san, sq, square, square_list,
    squares,
};
use crate::notation::strip_decorations;
use crate::{
    ActionError, ActionSquares, BoardView, Cause, Color, DesignationError, DesignationErrorKind,
    EndReason, FenError, GameOptions, IllegalActionError, OptionsError, Outcome, ParseActionError,
    Piece, Position, Removal, Square, Variant, Viewer,
};

/// The largest Multiple Beirut carrier count (BE-2).
pub const MAX_CARRIERS: u8 = 15;

/// What a position knows of one side's carriers.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub enum Designation {
    /// The side has not chosen yet (setup phase, BE-2). Public.
    Unchosen,
    /// The side has chosen, but this view may not see the choice (BE-2).
    Hidden,
    /// The carriers still on the board, as a bitboard: bit `(rank - 1) * 8 + file` per
    /// square (use [`Beirut::carriers`] for squares); empty when every carrier is gone.
    Known(u64),
}

/// A position of Beirut Chess: the chess state, the options and what is known of each
/// side's carriers. See the module documentation for the serialization.
#[derive(Clone, Debug, Eq, PartialEq, Hash)]
pub struct Beirut {
    state: ChessState,
    count: u8,
    dms: bool,
    sides: [Designation; 2],
}

/// An action of Beirut: a chess move (BE-1) or a Boom of the carrier on a square (BE-3).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BeirutAction {
    /// A standard chess move.
    Move(Move),
    /// The mover's carrier on this square explodes (BE-3), canonical text `Boom@e5`.
    Boom(Square),
}

const PSEUDO: GenRules = GenRules {
    king_captures: true,
};

const BOOM_GRAMMAR: &str = "a Boom as Boom@ and the carrier's square, like Boom@e5";

/// The 3x3 block centred on `s` (BE-3).
fn block(s: u8) -> u64 {
    KING[s as usize] | bit(s)
}

impl Beirut {
    /// The start position in the setup phase, with `options` (BE-2, BE-6).
    ///
    /// # Errors
    /// [`OptionsError`] when `options.carriers` is outside 1..=15.
    pub fn new(options: &GameOptions) -> Result<Beirut, OptionsError> {
        if !(1..=MAX_CARRIERS).contains(&options.carriers) {
            return Err(OptionsError {
                reason: format!(
                    "Multiple Beirut allows 1 to {MAX_CARRIERS} carriers per side, not {}", // BE-2
                    options.carriers
                ),
            });
        }
        Ok(Beirut {
            state: ChessState::standard(),
            count: options.carriers,
            dms: options.dead_mans_switch,
            sides: [Designation::Unchosen; 2],
        })
    }

    /// What this position knows of `color`'s carriers.
    pub fn designation(&self, color: Color) -> Designation {
        self.sides[color.index()]
    }

    /// `color`'s carriers still on the board, in canonical order, when this position knows
    /// them (`None` when not chosen yet or hidden in this view). On the start position of a
    /// game this is the designation, as the commitment (BE-9) needs it.
    pub fn carriers(&self, color: Color) -> Option<Vec<Square>> {
        match self.sides[color.index()] {
            Designation::Known(bb) => Some(square_list(bb)),
            _ => None,
        }
    }

    /// Whether `color`'s king is in check (BE-1, BE-5: hidden bombs are ignored).
    pub fn is_check(&self, color: Color) -> bool {
        self.state.in_check(color)
    }

    fn started(&self) -> bool {
        !self.sides.contains(&Designation::Unchosen)
    }

    fn known(&self, color: Color) -> u64 {
        match self.sides[color.index()] {
            Designation::Known(bb) => bb,
            _ => 0,
        }
    }

    fn clear_carriers(&mut self, mask: u64) {
        for side in &mut self.sides {
            if let Designation::Known(bb) = side {
                *bb &= !mask;
            }
        }
    }

    /// The legal chess moves (BE-1, BE-5: standard chess legality of the shared core,
    /// [`ChessState::is_legal_standard`], bombs ignored), whatever the designation phase.
    fn chess_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let board = &self.state.board;
        if board.king(Color::White).is_none() || board.king(Color::Black).is_none() {
            return;
        }
        self.state.gen_pseudo(PSEUDO, out);
        out.retain(|m| self.state.is_legal_standard(m));
    }

    fn chess_move_list(&self) -> Vec<Move> {
        let mut out = Vec::new();
        self.chess_moves(&mut out);
        out
    }

    /// Why a Boom on the `0..64` square `s` is not legal, or `None` when it is (BE-3, BE-4).
    /// Assumes the game is on and the side to move has a chess move.
    fn boom_problem(&self, s: u8) -> Option<String> {
        let us = self.state.turn;
        if self.known(us) & bit(s) == 0 {
            return Some(format!("you have no carrier on {}", square(s))); // BE-3
        }
        let mut after = self.clone();
        after.boom::<false>(s, &mut Vec::new());
        let board = &after.state.board;
        match (board.king(us), board.king(us.other())) {
            (None, _) => Some("the Boom would destroy your own king".into()), // BE-4
            (Some(_), None) => None,
            _ if after.state.in_check(us) => {
                Some("the Boom would leave your king in check".into()) // BE-4
            }
            _ => None,
        }
    }

    /// Explodes the carrier on `s` (BE-3): every piece on the 3x3 block is removed, the
    /// carrier first, then the others in canonical order; carriers in the block vanish
    /// without exploding (BE-7). Clears en passant, resets the 100-ply clock and drops the
    /// castling rights of destroyed rooks (BE-10).
    fn boom<const REPORT: bool>(&mut self, s: u8, out: &mut Vec<Removal>) {
        let mover = self.state.turn;
        let hit = block(s) & self.state.board.occupied();
        if REPORT {
            for t in std::iter::once(s).chain(squares(hit & !bit(s))) {
                if let Some((c, r)) = self.state.board.piece_at(t) {
                    out.push(Removal {
                        square: square(t),
                        piece: Piece::new(c, r.kind()),
                        cause: Cause::Exploded,
                    });
                }
            }
        }
        self.state.board.clear(hit | bit(s));
        self.clear_carriers(hit | bit(s));
        self.state.ep = None;
        self.state.halfmoves = 0;
        if mover == Color::Black {
            self.state.fullmoves += 1;
        }
        self.state.turn = mover.other();
        self.state.prune_castling();
    }

    /// Plays a chess move. Carriers move with their pieces (a promoted pawn and a castling
    /// rook keep their bomb, BE-7, BE-10). A captured carrier is removed silently (BE-6);
    /// with Dead Man's Switch it explodes on its own square (the captured pawn's square for
    /// en passant, BE-7), removing the capturer and every piece of the block, reported in
    /// canonical order after the capture. Kings are never captured, so a blast that leaves
    /// the capturer's king attacked does not end the game: the opponent moves as usual and
    /// the exposed side must answer the check (BE-12).
    fn play_move<const REPORT: bool>(&mut self, mv: &Move, out: &mut Vec<Removal>) {
        let us = self.state.turn;
        let them = us.other();
        let victim_carrier = mv
            .capture_square()
            .filter(|&cs| self.known(them) & bit(cs) != 0);
        let captured = self.state.apply(mv);
        if let Designation::Known(bb) = &mut self.sides[us.index()] {
            let (from, to) = match mv.kind {
                MoveKind::Castle { rook } => (rook, mv.castle_rook_to().expect("castling")),
                _ => (mv.from, mv.to),
            };
            if *bb & bit(from) != 0 {
                *bb = (*bb & !bit(from)) | bit(to);
            }
        }
        if let Some((cs, color, role)) = captured {
            if let Designation::Known(bb) = &mut self.sides[them.index()] {
                *bb &= !bit(cs);
            }
            if REPORT {
                out.push(capture_removal(cs, color, role));
            }
        }
        if mv.kind == MoveKind::DoublePush {
            self.normalize_ep();
        }
        if let Some(cs) = victim_carrier.filter(|_| self.dms) {
            let hit = block(cs) & self.state.board.occupied();
            if REPORT {
                for t in squares(hit) {
                    let (c, r) = self.state.board.piece_at(t).expect("occupied");
                    out.push(Removal {
                        square: square(t),
                        piece: Piece::new(c, r.kind()),
                        cause: Cause::Exploded,
                    });
                }
            }
            self.state.board.clear(hit);
            self.clear_carriers(hit);
            self.state.prune_castling();
        }
    }

    fn apply<const REPORT: bool>(&mut self, action: &BeirutAction, out: &mut Vec<Removal>) {
        match action {
            BeirutAction::Move(mv) => self.play_move::<REPORT>(mv, out),
            BeirutAction::Boom(s) => {
                if let Some(s) = sq(*s) {
                    self.boom::<REPORT>(s, out);
                }
            }
        }
    }

    /// Keeps the en passant square only when an en passant capture is legal in standard
    /// chess (BE-1), so that equal positions (and their FEN, which shows it only then)
    /// compare equal (C-4): the shared core's [`ChessState::normalize_ep`].
    fn normalize_ep(&mut self) {
        self.state.normalize_ep(ChessState::is_legal_standard);
    }

    /// Whether an en passant capture is legal now (BE-1, C-4): what FEN and the repetition
    /// key show.
    fn has_legal_ep(&self) -> bool {
        self.state.ep_usable(|m| self.state.is_legal_standard(m))
    }

    /// Why a pseudo-legal chess move is illegal, for error messages.
    fn illegal_reason(&self, mv: &Move) -> String {
        if mv.capture == Some(Role::King) {
            return "a king is never captured".into(); // BE-1
        }
        if !self.started() {
            return "the game has not started: carriers are still to be chosen".into(); // BE-2
        }
        if matches!(mv.kind, MoveKind::Castle { .. }) {
            let mut after = self.state.clone();
            after.apply(mv);
            if !after.in_check(self.state.turn) {
                return "the king would castle out of or through check".into(); // BE-1
            }
        }
        "it would leave your king in check".into() // BE-1
    }

    fn designation_fen(d: Designation) -> String {
        match d {
            Designation::Unchosen => "unchosen".into(),
            Designation::Hidden => "hidden".into(),
            Designation::Known(0) => "-".into(),
            Designation::Known(bb) => squares(bb)
                .map(|s| square(s).to_string())
                .collect::<Vec<_>>()
                .join(","),
        }
    }

    /// Checks `squares` as `color`'s carriers on this board: own, non-king, distinct pieces.
    fn carrier_mask(&self, color: Color, squares: &[Square]) -> Result<u64, DesignationError> {
        let mut mask = 0u64;
        for &s in squares {
            let Some(i) = sq(s) else {
                return Err(DesignationError::new(
                    DesignationErrorKind::OffBoard,
                    format!("{s} is not a square of the 8x8 board"),
                ));
            };
            match self.state.board.piece_at(i) {
                None => {
                    return Err(DesignationError::new(
                        DesignationErrorKind::Empty,
                        format!("{s} is empty"),
                    ));
                }
                Some((c, _)) if c != color => {
                    return Err(DesignationError::new(
                        DesignationErrorKind::NotYours,
                        format!("{s} holds a {c} piece, not yours"),
                    ));
                }
                Some((_, Role::King)) => {
                    return Err(DesignationError::new(
                        DesignationErrorKind::King,
                        format!("{s} holds your king; a Beirut carrier cannot be the king"),
                    ));
                }
                Some(_) => {}
            }
            if mask & bit(i) != 0 {
                return Err(DesignationError::new(
                    DesignationErrorKind::Duplicate,
                    format!("{s} is chosen twice; the carriers must be distinct pieces"),
                ));
            }
            mask |= bit(i);
        }
        Ok(mask)
    }
}

impl Position for Beirut {
    type Action = BeirutAction;
    const VARIANT: Variant = Variant::Beirut;

    /// The options this position plays with: carrier count N and Dead Man's Switch.
    fn options(&self) -> GameOptions {
        GameOptions {
            carriers: self.count,
            dead_mans_switch: self.dms,
        }
    }

    /// The standard start position in the setup phase (BE-2).
    fn start(options: &GameOptions) -> Result<Beirut, OptionsError> {
        Beirut::new(options)
    }

    fn from_fen(fen: &str) -> Result<Beirut, FenError> {
        let (state, rest) = ChessState::from_fen(fen)?;
        let err = |reason: String| FenError::new(crate::FenErrorKind::VariantFields, fen, reason);
        let mut pos = Beirut {
            state,
            count: 1,
            dms: false,
            sides: [Designation::Unchosen; 2],
        };
        pos.normalize_ep();
        match rest.as_slice() {
            [] => Ok(pos),
            [options, white, black] => {
                let (n, dms) = match options.strip_suffix("+dms") {
                    Some(n) => (n, true),
                    None => (options.as_str(), false),
                };
                pos.count = n
                    .parse::<u8>()
                    .ok()
                    .filter(|n| (1..=MAX_CARRIERS).contains(n))
                    .ok_or_else(|| {
                        err(format!(
                            "carrier field '{options}' must be a count 1 to {MAX_CARRIERS}, optionally followed by +dms (like 1 or 3+dms)"
                        ))
                    })?;
                pos.dms = dms;
                for (color, text) in [(Color::White, white), (Color::Black, black)] {
                    let d = match text.as_str() {
                        "unchosen" => Designation::Unchosen,
                        "hidden" => Designation::Hidden,
                        "-" => Designation::Known(0),
                        list => {
                            let parsed: Result<Vec<Square>, _> =
                                list.split(',').map(str::parse::<Square>).collect();
                            let parsed = parsed.map_err(|e| {
                                err(format!(
                                    "{color}'s carriers '{list}': {e}; expected unchosen, hidden, - or squares like b1,g1"
                                ))
                            })?;
                            let mask = pos
                                .carrier_mask(color, &parsed)
                                .map_err(|e| err(format!("{color}'s carriers: {e}")))?;
                            if parsed.len() > pos.count as usize {
                                return Err(err(format!(
                                    "{color} has {} carriers but the carrier count is {}",
                                    parsed.len(),
                                    pos.count
                                )));
                            }
                            Designation::Known(mask)
                        }
                    };
                    pos.sides[color.index()] = d;
                }
                Ok(pos)
            }
            other => Err(err(format!(
                "Beirut FEN has the 6 standard fields, optionally followed by 3: the carrier count (like 1 or 3+dms), White's carriers and Black's carriers; found {} extra",
                other.len()
            ))),
        }
    }

    fn to_fen(&self) -> String {
        let mut out = self.state.to_fen(self.has_legal_ep());
        write!(
            out,
            " {}{} {} {}",
            self.count,
            if self.dms { "+dms" } else { "" },
            Beirut::designation_fen(self.sides[0]),
            Beirut::designation_fen(self.sides[1]),
        )
        .expect("writing to a String");
        out
    }

    crate::position::clocks!(state);

    /// Chess moves in generation order, then the legal Booms of the mover's known carriers
    /// in canonical square order (BE-3, BE-4, BE-10). None before both sides chose (BE-2),
    /// after a king exploded, or at mate or stalemate (BE-10: a Boom cannot rescue).
    fn legal_actions_into(&self, out: &mut Vec<BeirutAction>) {
        out.clear();
        if !self.started() {
            return;
        }
        let moves = self.chess_move_list();
        if moves.is_empty() {
            return;
        }
        out.extend(moves.into_iter().map(BeirutAction::Move));
        for s in squares(self.known(self.state.turn)) {
            if self.boom_problem(s).is_none() {
                out.push(BeirutAction::Boom(square(s)));
            }
        }
    }

    // Plays `action` and reports the removals (C-6): a capture as `captured` (a carrier
    // too, BE-6), Boom and Dead Man's Switch blasts as `exploded`.
    crate::chess::plays_by_apply!(BeirutAction);

    /// BE-4, BE-6: a missing king loses (both missing: draw, `kings-exploded`), so a Dead
    /// Man's Switch blast that removes only the carrier owner's own king wins for the
    /// capturer (BE-12); BE-10: no legal chess move is checkmate (in check) or stalemate, also
    /// for a side left in check by a blast (BE-12). `None` in the setup phase.
    fn variant_outcome(&self) -> Option<Outcome> {
        if !self.started() {
            return None;
        }
        let board = &self.state.board;
        if let Some(outcome) = board.missing_king_outcome() {
            return Some(outcome);
        }
        if !self.chess_move_list().is_empty() {
            return None;
        }
        Some(
            self.state
                .no_move_outcome(self.state.in_check(self.state.turn)),
        )
    }

    /// C-4's 100-ply rule; insufficient material only for two bare kings (BE-11: a king is
    /// never a carrier; any other piece may be one, and the public status never depends on
    /// carriers, BE-10).
    fn automatic_draw(&self) -> Option<EndReason> {
        self.state.automatic_draw(|| self.state.board.only_kings())
    }

    /// A side with any piece besides its king may win (it may be a carrier: BE-10 keeps
    /// this public answer independent of the hidden carriers).
    fn can_win(&self, color: Color) -> bool {
        self.state.board.non_kings(color) != 0
    }

    /// Side to move, pieces, castling rights and a usable en passant square; the carriers
    /// are left out so that repetition never depends on hidden information (BE-10).
    fn repetition_key(&self) -> u64 {
        self.state.repetition_hasher(self.has_legal_ep()).finish()
    }

    fn checked_squares(&self) -> Vec<Square> {
        self.state.checked_king(ChessState::in_check)
    }

    /// SAN for chess moves, `Boom@e5` for a Boom (C-5, docs/rules/RULINGS.md section 6).
    fn san(&self, action: &BeirutAction) -> String {
        match action {
            BeirutAction::Move(mv) => san::san(mv, &self.chess_move_list()),
            BeirutAction::Boom(s) => format!("Boom@{s}"),
        }
    }

    fn uci(&self, action: &BeirutAction) -> String {
        match action {
            BeirutAction::Move(mv) => san::uci(mv),
            BeirutAction::Boom(_) => self.san(action),
        }
    }

    fn parse_action(&self, text: &str) -> Result<BeirutAction, ActionError> {
        let legal = self.legal_actions();
        let legal_text = || legal.iter().map(|a| self.san(a)).collect::<Vec<_>>();
        let (core, _) = strip_decorations(text);
        let core = core.trim();
        let is_boom = core
            .get(..4)
            .is_some_and(|p| p.eq_ignore_ascii_case("boom"));
        if is_boom {
            let target = core[4..].trim_start();
            let s = target
                .strip_prefix('@')
                .and_then(|t| t.trim().to_ascii_lowercase().parse::<Square>().ok())
                .and_then(|s| sq(s).map(|i| (s, i)))
                .ok_or_else(|| ParseActionError {
                    text: text.to_string(),
                    expected: format!("{BOOM_GRAMMAR} (a1-h8)"),
                })?;
            let action = BeirutAction::Boom(s.0);
            if legal.contains(&action) {
                return Ok(action);
            }
            let reason = if legal.is_empty() {
                "there is no legal action in this position".to_string()
            } else {
                self.boom_problem(s.1)
                    .unwrap_or_else(|| "a Boom is not possible now".into())
            };
            return Err(IllegalActionError {
                text: text.to_string(),
                reason,
                legal: legal_text(),
                ambiguous: false,
            }
            .into());
        }
        let moves: Vec<Move> = legal
            .iter()
            .filter_map(|a| match a {
                BeirutAction::Move(m) => Some(*m),
                BeirutAction::Boom(_) => None,
            })
            .collect();
        let mut pseudo = Vec::new();
        if self.variant_outcome().is_none() {
            self.state.gen_pseudo(PSEUDO, &mut pseudo);
        }
        match san::resolve(text, &moves, &pseudo, |m| self.illegal_reason(m)) {
            Ok(mv) => Ok(BeirutAction::Move(mv)),
            Err(ActionError::Illegal(mut e)) => {
                e.legal = legal_text();
                Err(e.into())
            }
            Err(ActionError::Parse(mut e)) => {
                e.expected = format!("{}, or {BOOM_GRAMMAR}", e.expected);
                Err(e.into())
            }
        }
    }

    fn effects(&self, action: &Self::Action) -> crate::Effects {
        crate::effects::beirut(self, action)
    }

    fn action_squares(&self, action: &BeirutAction) -> ActionSquares {
        match action {
            BeirutAction::Move(mv) => ActionSquares {
                from: Some(square(mv.from)),
                to: Some(square(mv.to)),
                detonation: None,
            },
            BeirutAction::Boom(s) => ActionSquares {
                from: None,
                to: None,
                detonation: Some(*s),
            },
        }
    }

    /// What `viewer` may see (BE-2, BE-8, BE-9): carriers of sides the viewer may not see
    /// become [`Designation::Hidden`]; once the board has decided the game, the full state.
    fn view(&self, viewer: Viewer) -> Beirut {
        let mut out = self.clone();
        if viewer == Viewer::Full || self.variant_outcome().is_some() {
            return out;
        }
        for color in Color::ALL {
            if !viewer.sees(color) && matches!(out.sides[color.index()], Designation::Known(_)) {
                out.sides[color.index()] = Designation::Hidden;
            }
        }
        out
    }

    /// Pieces with `carrier: true` exactly on the carriers this (viewed) position knows.
    fn board_view(&self) -> BoardView {
        let carriers = self.known(Color::White) | self.known(Color::Black);
        let view = crate::chess::board_view(self, &self.state, Variant::Beirut, |s| {
            carriers & bit(s) != 0
        });
        BoardView {
            awaiting_designation: self.awaiting_designation(),
            ..view
        }
    }

    fn pieces(&self) -> Vec<crate::PieceView> {
        let carriers = self.known(Color::White) | self.known(Color::Black);
        self.state
            .board
            .piece_views(|s| carriers & bit(s) != 0, |_| false)
    }

    /// BE-2: exactly N distinct own pieces other than the king, once per side, in the setup
    /// phase. Errors say what was wrong: "you need exactly 3 carriers", "d4 is empty",
    /// "g8 holds a black piece, not yours", "e1 holds your king; a Beirut carrier cannot be
    /// the king".
    fn designate(&mut self, color: Color, squares: &[Square]) -> Result<(), DesignationError> {
        if self.sides[color.index()] != Designation::Unchosen {
            return Err(DesignationError::new(
                DesignationErrorKind::Closed,
                format!("{color} has already chosen its carriers"),
            ));
        }
        if squares.len() != self.count as usize {
            return Err(DesignationError::new(
                DesignationErrorKind::WrongCount,
                format!(
                    "you need exactly {} carrier{}, not {}",
                    self.count,
                    if self.count == 1 { "" } else { "s" },
                    squares.len()
                ),
            ));
        }
        let mask = self.carrier_mask(color, squares)?;
        self.sides[color.index()] = Designation::Known(mask);
        Ok(())
    }

    fn carrier_count(&self) -> usize {
        usize::from(self.count)
    }

    /// BE-2: every own piece but the king.
    fn carrier_candidates(&self, color: Color) -> Vec<Square> {
        square_list(self.state.board.non_kings(color))
    }

    fn awaiting_designation(&self) -> Vec<Color> {
        Color::ALL
            .into_iter()
            .filter(|c| self.sides[c.index()] == Designation::Unchosen)
            .collect()
    }
}

/// `squares` in the canonical order (by rank from White's side, then by
/// file from `a`; [`Square`]'s `Ord`), without duplicates, comma-joined: `b1,g1`. This is
/// the squares field of the BE-9 commitment and of the serialization's carrier fields.
pub fn canonical_squares(squares: &[Square]) -> String {
    let mut sorted = squares.to_vec();
    sorted.sort();
    sorted.dedup();
    let names: Vec<String> = sorted.iter().map(Square::to_string).collect();
    names.join(",")
}

/// The text a Beirut commitment hashes (BE-9), from its parts as text:
/// `kaboom-beirut-v1:<game_id>:<white|black>:<squares>:<salt_hex>`. `squares` is
/// [`canonical_squares`]'s output and `salt_hex` the salt as lowercase hex; both are used
/// as given (for designations stored as text). Players check it with
/// `printf '%s' '<text>' | sha256sum`.
pub fn commitment_preimage_text(
    game_id: &str,
    color: Color,
    squares: &str,
    salt_hex: &str,
) -> String {
    format!(
        "kaboom-beirut-v1:{game_id}:{}:{squares}:{salt_hex}",
        color.name()
    )
}

/// SHA-256 of [`commitment_preimage_text`], as 64 lowercase hex digits (BE-9).
pub fn commitment_text(game_id: &str, color: Color, squares: &str, salt_hex: &str) -> String {
    sha256_hex(&commitment_preimage_text(game_id, color, squares, salt_hex))
}

fn sha256_hex(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let mut out = String::with_capacity(64);
    for b in digest {
        write!(out, "{b:02x}").expect("writing to a String");
    }
    out
}

/// The text a Beirut commitment hashes (BE-9; docs/ARCHITECTURE.md, "Beirut commitment"):
/// `kaboom-beirut-v1:<game id>:<white|black>:<squares in canonical order, comma-joined>:<salt hex>`.
/// Players can check it with `printf %s '<text>' | sha256sum`.
pub fn commitment_preimage(
    game_id: &str,
    color: Color,
    carriers: &[Square],
    salt: &[u8; 16],
) -> String {
    let mut salt_hex = String::with_capacity(32);
    for b in salt {
        write!(salt_hex, "{b:02x}").expect("writing to a String");
    }
    commitment_preimage_text(game_id, color, &canonical_squares(carriers), &salt_hex)
}

/// The commitment to `color`'s designation (BE-9): SHA-256 of [`commitment_preimage`], as 64
/// lowercase hex digits. The caller draws the 16-byte `salt` at random (the library is pure).
pub fn commitment(game_id: &str, color: Color, carriers: &[Square], salt: &[u8; 16]) -> String {
    sha256_hex(&commitment_preimage(game_id, color, carriers, salt))
}

/// Whether `commitment` (hex, any case, surrounding spaces ignored) is the commitment of this
/// designation and salt (BE-9).
pub fn verify_commitment(
    commitment_hex: &str,
    game_id: &str,
    color: Color,
    carriers: &[Square],
    salt: &[u8; 16],
) -> bool {
    commitment_hex
        .trim()
        .eq_ignore_ascii_case(&commitment(game_id, color, carriers, salt))
}
