//! What an action does, before it is played: the pieces it moves, captures, sets off,
//! pushes and removes, for autocomplete labels and previews ([`Position::effects`]).

use crate::atomic::Atomic;
use crate::beirut::{Beirut, BeirutAction};
use crate::bombalot::{ActionKind, Bombalot, BombalotAction};
use crate::bomberman::{Bomberman, BombermanAction, CastlingSide};
use crate::chess::Move;
use crate::nuke::{Nuke, NukeAction};
use crate::{Geometry, Kind, Outcome, Piece, Position, Removal, Square};

/// A bomb handed on before a Nuke move (NU-4), as [`Effects::transfer`] reports it.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct BombTransfer {
    /// The carrier that hands its bomb on.
    pub from: Square,
    /// The piece (either colour) that takes it.
    pub to: Square,
    /// Whether the receiving piece is a king or queen, which a bomb freezes (NU-5).
    pub freezes: bool,
}

/// One piece a Bombalot tank step pushes (BA-6, BA-14).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Push {
    /// Where the pushed piece stands before the action.
    pub from: Square,
    /// Where it goes (a goal square when it enters a goal, BA-2), or `None` when it is
    /// pushed off the board (a bomb explodes there first, BA-14).
    pub to: Option<Square>,
}

/// What one legal action does, computed on the position it is played from
/// ([`Position::effects`]). Everything is as the position (or view, BE-2) knows it: in a
/// player's view of a Beirut game, a capture of a hidden enemy carrier shows no blast (BE-6).
///
/// Squares are the crate's [`Square`]s. Fields that do not apply to a variant stay empty.
#[derive(Clone, Eq, PartialEq, Debug, Default)]
pub struct Effects {
    /// The acting piece as it stands before the action (the bomb for a detonation or a
    /// Boom), if the action has one.
    pub actor: Option<Piece>,
    /// The kind the actor moves as: its own kind, or for a Bombalot imitator the kind the
    /// opponent moved last (BA-10).
    pub moves_as: Option<Kind>,
    /// Every piece the action itself moves, `(from, to)`: the moving piece, and the rook
    /// of a castling move (AT-8, BM-4). Pushed pieces are in [`Effects::pushes`].
    pub moves: Vec<(Square, Square)>,
    /// The square of the piece a move captures (the captured pawn's square for en passant:
    /// AT-3, BE-7, NU-11). `None` for quiet moves and for a Bomberman bomb taken by a
    /// move, which [`Effects::sets_off`] or [`Effects::defuses`] report (BM-7).
    pub captured: Option<Square>,
    /// The square of a bomb the player explodes on purpose: a Boom (BE-3), a detonation
    /// (BM-5), a Bombalot bomb exploding in place or after its step (BA-9).
    pub detonation: Option<Square>,
    /// The square of a bomb the move lands on and sets off: a Bomberman bomb captured by
    /// a piece other than a Defuser (BM-7), a Bombalot bomb a detonator lands on (BA-7).
    pub sets_off: Option<Square>,
    /// The square of an enemy bomb a Defuser removes without explosion (BM-7).
    pub defuses: Option<Square>,
    /// The bomb transfer before a Nuke move (NU-4, NU-5).
    pub transfer: Option<BombTransfer>,
    /// The square where the moved piece grabs a loose bomb (NU-10).
    pub grab: Option<Square>,
    /// The pieces a Bombalot tank step pushes, line order (BA-6, BA-14).
    pub pushes: Vec<Push>,
    /// The goal square the acting piece enters (BA-2).
    pub goal_entry: Option<Square>,
    /// Every piece the action removes, in order, with the cause (C-6): what
    /// [`Position::play_reported`] returns.
    pub removed: Vec<Removal>,
    /// The end the board decides right after the action (C-3), if any: a win, a loss for
    /// the mover (NU-8) or a draw.
    pub outcome: Option<Outcome>,
}

/// The piece on each square of a position, from its board view.
struct Cells(Vec<Option<Piece>>);

impl Cells {
    fn of<P: Position>(pos: &P) -> Cells {
        let mut cells = vec![None; 100];
        for p in pos.board_view().pieces {
            cells[p.square.index() as usize] = Some(Piece {
                color: p.color,
                kind: p.kind,
            });
        }
        Cells(cells)
    }

    fn at(&self, sq: Square) -> Option<Piece> {
        self.0[sq.index() as usize]
    }
}

/// What every variant shares: removals and outcome from playing the action, the actor and
/// the main move from [`Position::action_squares`].
fn base<P: Position>(pos: &P, action: &P::Action, cells: &Cells) -> Effects {
    let mut after = pos.clone();
    let removed = after.play_reported(action);
    let squares = pos.action_squares(action);
    let actor = squares
        .from
        .or(squares.detonation)
        .and_then(|s| cells.at(s));
    let mut moves = Vec::new();
    if let (Some(from), Some(to)) = (squares.from, squares.to)
        && from != to
    {
        moves.push((from, to));
    }
    Effects {
        actor,
        moves_as: actor.map(|p| p.kind),
        moves,
        detonation: squares.detonation,
        removed,
        outcome: after.variant_outcome(),
        ..Effects::default()
    }
}

/// A chess move's capture and castling rook (AT-3, AT-8).
fn chess_move(fx: &mut Effects, mv: &Move) {
    fx.captured = mv.captured_square();
    if let (crate::chess::MoveKind::Castle { rook }, Some(to)) = (mv.kind, mv.castle_rook_to()) {
        fx.moves
            .push((crate::chess::square(rook), crate::chess::square(to)));
    }
}

/// [`Position::effects`] for Atomic (AT-2, AT-3, AT-8).
pub(crate) fn atomic(pos: &Atomic, mv: &Move) -> Effects {
    let mut fx = base(pos, mv, &Cells::of(pos));
    chess_move(&mut fx, mv);
    fx
}

/// [`Position::effects`] for Beirut (BE-3, BE-6).
pub(crate) fn beirut(pos: &Beirut, action: &BeirutAction) -> Effects {
    let mut fx = base(pos, action, &Cells::of(pos));
    if let BeirutAction::Move(mv) = action {
        chess_move(&mut fx, mv);
    }
    fx
}

/// [`Position::effects`] for Nuke (NU-4, NU-5, NU-10, NU-11).
pub(crate) fn nuke(pos: &Nuke, action: &NukeAction) -> Effects {
    let cells = Cells::of(pos);
    let mut fx = base(pos, action, &cells);
    chess_move(&mut fx, &action.mv);
    fx.transfer = action.transfer.map(|t| BombTransfer {
        from: t.from_square(),
        to: t.to_square(),
        freezes: cells
            .at(t.to_square())
            .is_some_and(|p| matches!(p.kind, Kind::King | Kind::Queen)),
    });
    fx.grab = action.grab.then(|| action.mv.to_square());
    fx
}

/// [`Position::effects`] for Bomberman Chess (BM-4, BM-5, BM-7).
pub(crate) fn bomberman(pos: &Bomberman, action: &BombermanAction) -> Effects {
    let cells = Cells::of(pos);
    let mut fx = base(pos, action, &cells);
    let mover = pos.turn();
    match *action {
        BombermanAction::Move { from, to, .. } => {
            let capturer = cells.at(from);
            match cells.at(to).filter(|p| p.color != mover) {
                Some(target) if target.kind == Kind::Bomb => {
                    if capturer.is_some_and(|p| p.kind == Kind::Defuser) {
                        fx.defuses = Some(to);
                    } else {
                        fx.sets_off = Some(to);
                    }
                }
                Some(_) => fx.captured = Some(to),
                None => {
                    // En passant: a pawn changing file onto an empty square.
                    if capturer.is_some_and(|p| p.kind == Kind::Pawn) && from.file() != to.file() {
                        fx.captured = Square::new(to.file(), from.rank());
                    }
                }
            }
        }
        BombermanAction::Castle(side) => {
            let rank = if mover == crate::Color::White { 1 } else { 8 };
            let (from, to) = match side {
                CastlingSide::King => (8, 6),
                CastlingSide::Queen => (1, 4),
            };
            if let (Some(f), Some(t)) = (Square::new(from, rank), Square::new(to, rank)) {
                fx.moves.push((f, t));
            }
        }
        BombermanAction::Detonate(_) => {}
    }
    fx
}

/// [`Position::effects`] for Bombalot (BA-2, BA-6, BA-7, BA-9, BA-10, BA-14).
pub(crate) fn bombalot(pos: &Bombalot, action: &BombalotAction) -> Effects {
    let cells = Cells::of(pos);
    let mut fx = base(pos, action, &cells);
    let mover = pos.turn();
    let (from, to) = (action.from, action.to);
    fx.moves_as = fx.actor.map(|p| match p.kind {
        Kind::Imitator => pos.last_moved(mover.other()).unwrap_or(Kind::Imitator),
        k => k,
    });
    fx.detonation = (action.kind == ActionKind::Explode).then_some(to);
    if action.kind == ActionKind::Explode {
        // An explosion in place moves nothing.
        fx.moves.retain(|&(f, t)| f != t);
    }
    fx.sets_off = (action.kind == ActionKind::Move
        && fx.moves_as == Some(Kind::Detonator)
        && cells.at(to).is_some())
    .then_some(to);
    fx.pushes = pos
        .pushed(action)
        .into_iter()
        .map(|(from, to)| Push { from, to })
        .collect();
    fx.goal_entry = (Geometry::BOMBALOT.is_goal(to) && from != to).then_some(to);
    fx
}
