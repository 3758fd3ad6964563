//! The trait every variant's position implements.

use std::fmt::Debug;
use std::hash::Hash;

use crate::{
    ActionError, BoardView, Color, DesignationError, Effects, EndReason, FenError, GameOptions,
    LooseBombs, OptionsError, Outcome, PieceView, Removal, Square, Variant, Viewer,
};

/// The squares an action involves, for highlighting the last action on a board image.
#[derive(
    Copy, Clone, Eq, PartialEq, Hash, Debug, Default, serde::Serialize, serde::Deserialize,
)]
pub struct ActionSquares {
    /// Where the moving piece started, if a piece moved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<Square>,
    /// Where it arrived, if a piece moved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<Square>,
    /// The centre of a Boom or detonation (BE-3, BM-5, BA-9), if the action is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detonation: Option<Square>,
}

/// A position of one variant: who moves, legal actions, playing them, the outcome,
/// serialization and notation. Modelled on shakmaty's `Position`.
///
/// A position knows nothing of history: threefold repetition (C-4) and results
/// that are not on the board (agreement, resignation, time forfeit) live in
/// [`crate::Game`].
pub trait Position: Clone + Debug + Send + Sync + 'static {
    /// One action of this variant (a move, a Boom, a detonation, ...: ruling C-2).
    type Action: Clone + Eq + Hash + Debug + Send + Sync + 'static;

    /// Which variant this is.
    const VARIANT: Variant;

    /// The starting position with `options` (BE-2 carrier count, BE-6 Dead Man's Switch).
    ///
    /// # Errors
    /// [`OptionsError`] when the variant does not accept the options.
    fn start(options: &GameOptions) -> Result<Self, OptionsError>;

    /// Reads the variant's FEN-style serialization (documented on each variant's type).
    ///
    /// # Errors
    /// [`FenError`] naming the field that is wrong.
    fn from_fen(fen: &str) -> Result<Self, FenError>;

    /// Writes the serialization that [`Position::from_fen`] reads back to an equal position.
    fn to_fen(&self) -> String;

    /// The side to move.
    fn turn(&self) -> Color;

    /// The FEN fullmove number: starts at 1, grows after each Black action.
    fn fullmoves(&self) -> u32;

    /// Plies since the last capture, explosion, pawn/tweke move or goal entry (C-4).
    fn halfmove_clock(&self) -> u32;

    /// Clears `out` and fills it with every legal action, in the variant's canonical order.
    /// A finished position (C-7) has none; automatic draws (C-4) are ignored here.
    fn legal_actions_into(&self, out: &mut Vec<Self::Action>);

    /// Every legal action (see [`Position::legal_actions_into`]).
    fn legal_actions(&self) -> Vec<Self::Action> {
        let mut out = Vec::new();
        self.legal_actions_into(&mut out);
        out
    }

    /// The number of legal actions, for bulk counting at the last perft ply.
    fn count_legal(&self) -> u64 {
        self.legal_actions().len() as u64
    }

    /// Plays a legal action without checking it; cheaper than [`Position::play_reported`].
    /// Playing an action that is not legal leaves an unspecified (but memory-safe) position.
    fn play_unchecked(&mut self, action: &Self::Action);

    /// Plays a legal action without checking it and returns every piece it removed, in
    /// order, with the cause (C-6).
    fn play_reported(&mut self, action: &Self::Action) -> Vec<Removal>;

    /// The end decided by the board alone that leaves no action: king exploded, mate,
    /// stalemate, goal, no pieces, immobilized (C-3, C-7). `None` while play goes on.
    fn variant_outcome(&self) -> Option<Outcome>;

    /// An automatic draw that perft ignores (C-4, C-7): the 100-ply rule, insufficient
    /// material (AT-9). Threefold repetition is [`crate::Game`]'s.
    fn automatic_draw(&self) -> Option<EndReason> {
        (self.halfmove_clock() >= 100).then_some(EndReason::HundredPly)
    }

    /// Whether `color` still has any way to win; `false` lets a time forfeit become a
    /// draw (lichess's rule). Variants that cannot tell answer `true`.
    fn can_win(&self, color: Color) -> bool {
        let _ = color;
        true
    }

    /// A key equal for positions that count as the same for threefold repetition (C-4):
    /// side to move, pieces, rights, bombs and hidden state; clocks excluded.
    fn repetition_key(&self) -> u64;

    /// Squares of kings that are in check now (empty in variants without check).
    fn checked_squares(&self) -> Vec<Square> {
        Vec::new()
    }

    /// The canonical text of `action` (C-5), without check marks or removal suffixes.
    fn san(&self, action: &Self::Action) -> String;

    /// The coordinate form of `action` (`e2e4`, `e7e8q`; equal to the canonical form for
    /// actions that are not from-to moves: docs/ARCHITECTURE.md, "The CLI").
    fn uci(&self, action: &Self::Action) -> String;

    /// Parses canonical, SAN-like or coordinate text into a legal action (C-5).
    /// Trailing `+`, `#`, `!`, `?` and removal suffixes are accepted and ignored.
    ///
    /// # Errors
    /// [`ActionError::Parse`] for text outside the grammar, [`ActionError::Illegal`] for a
    /// well-formed action that is not legal or is ambiguous (with legal alternatives).
    fn parse_action(&self, text: &str) -> Result<Self::Action, ActionError>;

    /// The squares `action` involves, for highlighting.
    fn action_squares(&self, action: &Self::Action) -> ActionSquares;

    /// What the legal `action` does from this position, without changing it: the pieces
    /// it moves, captures, detonates, sets off, defuses, hands a bomb to, grabs with,
    /// pushes and removes (C-6), and the end it brings (C-3). Computed on this position
    /// as it is, so on a player's view nothing hidden shows (BE-2, BE-6). Rulings per
    /// field are on [`Effects`]. The result for an action that is not legal is unspecified
    /// (but memory-safe), as for [`Position::play_unchecked`].
    fn effects(&self, action: &Self::Action) -> Effects;

    /// This position as `viewer` may see it: hidden information the viewer may not know
    /// is removed (BE-2). Variants without secrets return a copy.
    fn view(&self, viewer: Viewer) -> Self {
        let _ = viewer;
        self.clone()
    }

    /// The variant-independent picture of this (already viewed) position.
    fn board_view(&self) -> BoardView;

    /// Every piece of this (already viewed) position, in goals too, in the order
    /// [`Position::board_view`] lists them: the `pieces` of [`BoardView`] without its
    /// status, check and setup fields, so cheap enough for an engine to call at every node.
    /// Variants override it; the default builds the whole view.
    fn pieces(&self) -> Vec<PieceView> {
        self.board_view().pieces
    }

    /// Nuke's loose bombs (NU-9) with their counts, as [`BoardView::loose_bombs`]; empty in
    /// the other variants.
    fn loose_bombs(&self) -> Vec<LooseBombs> {
        Vec::new()
    }

    /// The rule options this position plays under, as its serialization records them
    /// (Beirut's carrier count and Dead Man's Switch; the defaults elsewhere).
    fn options(&self) -> GameOptions {
        GameOptions::default()
    }

    /// Sets `color`'s carriers during the setup phase (BE-2, NU-3).
    ///
    /// # Errors
    /// [`DesignationError`] saying what was wrong; variants without carriers always refuse.
    fn designate(&mut self, color: Color, squares: &[Square]) -> Result<(), DesignationError> {
        let _ = (color, squares);
        Err(DesignationError::new(
            crate::DesignationErrorKind::NoCarriers,
            format!("{} has no bomb carriers to choose", Self::VARIANT.title()),
        ))
    }

    /// How many carriers each side chooses (BE-2: the Multiple Beirut count N, 1 to 15;
    /// NU-3: 1); 0 in variants without carriers.
    fn carrier_count(&self) -> usize {
        0
    }

    /// The squares of `color`'s pieces that [`Position::designate`] accepts as carriers on
    /// this board, in canonical square order (docs/ARCHITECTURE.md): every own piece but the king
    /// in Beirut (BE-2), every own piece in Nuke (NU-3), none elsewhere. Whether `color`
    /// still has to choose is [`Position::awaiting_designation`]'s answer.
    fn carrier_candidates(&self, color: Color) -> Vec<Square> {
        let _ = color;
        Vec::new()
    }

    /// Sides that still have to choose carriers before play starts (BE-2, NU-3).
    fn awaiting_designation(&self) -> Vec<Color> {
        Vec::new()
    }

    /// The canonical text with a display suffix: `#` when the action wins on the board,
    /// `+` when it gives check (C-5: not part of the canonical form).
    fn san_with_marks(&self, action: &Self::Action) -> String {
        let mut after = self.clone();
        after.play_unchecked(action);
        let mut san = self.san(action);
        match after.variant_outcome() {
            Some(o) if o.winner == Some(self.turn()) => san.push('#'),
            _ if !after.checked_squares().is_empty() => san.push('+'),
            _ => {}
        }
        san
    }

    /// Counts the leaf nodes of the legal-action tree `depth` plies deep (C-7), bulk
    /// counting at the last ply.
    fn perft(&self, depth: u32) -> u64 {
        fn go<P: Position>(pos: &P, depth: u32, buffers: &mut [Vec<P::Action>]) -> u64 {
            if depth == 1 {
                return pos.count_legal();
            }
            let (buf, rest) = buffers.split_first_mut().expect("one buffer per ply");
            pos.legal_actions_into(buf);
            let mut nodes = 0;
            for action in buf.iter() {
                let mut child = pos.clone();
                child.play_unchecked(action);
                nodes += go(&child, depth - 1, rest);
            }
            nodes
        }
        if depth == 0 {
            return 1;
        }
        let mut buffers = vec![Vec::new(); depth as usize];
        go(self, depth, &mut buffers)
    }
}

/// The [`Position`] methods `turn`, `fullmoves` and `halfmove_clock` of a position that
/// keeps them as the fields `turn`, `fullmoves` and `halfmoves` of `self` (`clocks!()`) or
/// of a field of `self` (`clocks!(state)` for the chess core's `ChessState`).
macro_rules! clocks {
    ($($field:ident)?) => {
        fn turn(&self) -> Color {
            self$(.$field)?.turn
        }

        fn fullmoves(&self) -> u32 {
            self$(.$field)?.fullmoves
        }

        fn halfmove_clock(&self) -> u32 {
            self$(.$field)?.halfmoves
        }
    };
}
pub(crate) use clocks;
