//! Legal action generation (BA-3 to BA-10, BA-16, BA-17).

use std::collections::HashSet;

use super::{
    ActionKind, Bombalot, BombalotAction, KING_DIRS, KING_LEAPS, KING_STEPS, KNIGHT_DIRS,
    ORTHO_DIRS, SquareSet, king_steps_from, on_board, scoring_goal,
};
use crate::{Color, Kind, Square};

/// Which pieces a jump sequence may pass over (BA-4, BA-5).
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub(super) enum JumpMode {
    /// Only the mover's own pieces (a tweke's friendly sequence).
    Own,
    /// Only enemy pieces, enemy bombs included (a tweke's capturing sequence).
    Enemy,
    /// Both colours (super-tweke).
    Mixed,
}

impl JumpMode {
    /// The modes a piece that moves as `kind` may use.
    pub(super) fn for_kind(kind: Kind) -> &'static [JumpMode] {
        match kind {
            Kind::SuperTweke => &[JumpMode::Mixed],
            _ => &[JumpMode::Own, JumpMode::Enemy],
        }
    }
}

/// The jump graph of one piece: the board with the mover lifted off its square
/// (jumped pieces stay until the end of the move, BA-4).
pub(super) struct JumpBoard<'a> {
    pos: &'a Bombalot,
    from: Square,
    color: Color,
    mode: JumpMode,
}

/// One jump out of a square.
#[derive(Copy, Clone, Debug)]
pub(super) struct Jump {
    /// Index into [`KING_DIRS`].
    pub(super) dir: u8,
    /// The jumped square.
    pub(super) over: Square,
    /// The landing square.
    pub(super) to: Square,
    /// Whether the jumped piece is removed at the end (an enemy piece that is not a bomb).
    pub(super) removes: bool,
    /// Whether the landing square is the mover's scoring goal (the sequence ends, BA-2).
    pub(super) goal: bool,
}

impl<'a> JumpBoard<'a> {
    pub(super) fn new(pos: &'a Bombalot, from: Square, mode: JumpMode) -> JumpBoard<'a> {
        let color = pos.cell(from).map_or(pos.turn, |c| c.color);
        JumpBoard {
            pos,
            from,
            color,
            mode,
        }
    }

    /// Whether `sq` is free to land on during the sequence (the start square is: the
    /// mover has left it).
    fn free(&self, sq: Square) -> bool {
        sq == self.from || self.pos.cell(sq).is_none()
    }

    /// The jumps from `sq` allowed in this mode, in [`KING_DIRS`] order.
    pub(super) fn jumps(&self, sq: Square) -> impl Iterator<Item = Jump> + '_ {
        let (steps, leaps) = (
            &KING_STEPS[sq.index() as usize],
            &KING_LEAPS[sq.index() as usize],
        );
        (0..KING_DIRS.len()).filter_map(move |i| {
            let over = steps[i]?;
            let to = leaps[i]?;
            if !on_board(over) || over == self.from {
                return None;
            }
            let cell = self.pos.cell(over)?;
            let own = cell.color == self.color;
            let allowed = match self.mode {
                JumpMode::Own => own,
                JumpMode::Enemy => !own,
                JumpMode::Mixed => true,
            };
            if !allowed {
                return None;
            }
            let goal = scoring_goal(self.color, to);
            if !(on_board(to) || goal) || !self.free(to) {
                return None;
            }
            Some(Jump {
                dir: i as u8,
                over,
                to,
                removes: !own && !cell.is_bomb(),
                goal,
            })
        })
    }

    /// Every (landing square, removed set) a sequence from `from` can end with (BA-4,
    /// BA-17), appended to `out`, possibly with duplicates.
    ///
    /// A pair is reachable exactly when, using only jumps over pieces that are not
    /// removed or are in the set, the landing square is connected to the start and every
    /// piece of the set is jumped somewhere in that connected region: a sequence may then
    /// walk the whole region (each jump can be made once in each direction, so an Euler
    /// trail exists) and stop on the landing square. The sets are grown one piece at a
    /// time from the empty set.
    pub(super) fn outcomes(&self, out: &mut Vec<(Square, SquareSet)>) {
        // Sets grown so far (the empty set is never grown again: growing adds a piece).
        // Neither collection allocates while no capturing jump exists.
        let mut seen: HashSet<SquareSet> = HashSet::new();
        let mut stack: Vec<SquareSet> = Vec::new();
        let mut next = Some(SquareSet::EMPTY);
        // The region holds main-board squares only: at most 64.
        let mut region = [self.from; 64];
        while let Some(removed) = next.take().or_else(|| stack.pop()) {
            let mut len = 1;
            let mut inside = SquareSet::EMPTY.with(self.from);
            let mut i = 0;
            while i < len {
                let v = region[i];
                i += 1;
                for jump in self.jumps(v) {
                    let gained = if jump.removes && !removed.contains(jump.over) {
                        Some(removed.with(jump.over))
                    } else {
                        None
                    };
                    if jump.goal {
                        out.push((jump.to, gained.unwrap_or(removed)));
                        continue;
                    }
                    match gained {
                        Some(bigger) => {
                            if seen.insert(bigger) {
                                stack.push(bigger);
                            }
                        }
                        None => {
                            if !inside.contains(jump.to) {
                                inside = inside.with(jump.to);
                                region[len] = jump.to;
                                len += 1;
                            }
                        }
                    }
                }
            }
            for &v in &region[..len] {
                if v != self.from || !removed.is_empty() {
                    out.push((v, removed));
                }
            }
        }
    }
}

/// Appends every legal action of the side to move to `out` (cleared by the caller) and
/// sorts it canonically. The caller has checked that the game is not over (BA-11).
pub(super) fn generate(pos: &Bombalot, out: &mut Vec<BombalotAction>) {
    let frozen = pos.frozen();
    let mut outcomes = Vec::new();
    for from in super::board_squares() {
        if !frozen.contains(from) {
            // Actions order by `from` first and the squares come in that order, so sorting
            // each piece's actions sorts the list (cheaper than sorting it whole).
            let start = out.len();
            piece_actions(pos, from, true, &mut outcomes, out);
            out[start..].sort_unstable();
        }
    }
    debug_assert!(out.is_sorted(), "actions in canonical order");
    out.dedup();
}

/// Appends the actions of the piece on `from` if it belongs to the side to move (not
/// sorted; the caller checks freezing and the game's end). Jump sequences of twekes are
/// left out unless `with_jumps`.
pub(super) fn piece_actions(
    pos: &Bombalot,
    from: Square,
    with_jumps: bool,
    outcomes: &mut Vec<(Square, SquareSet)>,
    out: &mut Vec<BombalotAction>,
) {
    {
        let Some(cell) = pos.cell(from) else { return };
        if cell.color != pos.turn || !on_board(from) {
            return;
        }
        let Some(kind) = pos.move_kind(cell) else {
            return;
        };
        let color = cell.color;
        let enterable_empty =
            |to: Square| (on_board(to) || scoring_goal(color, to)) && pos.cell(to).is_none();
        let mv = |to: Square| BombalotAction {
            from,
            to,
            kind: ActionKind::Move,
        };
        match kind {
            Kind::Tweke | Kind::SuperTweke | Kind::Immobilizer | Kind::Bomb => {
                for to in king_steps_from(from) {
                    if enterable_empty(to) {
                        out.push(mv(to));
                        if kind == Kind::Bomb && on_board(to) {
                            out.push(BombalotAction {
                                from,
                                to,
                                kind: ActionKind::Explode,
                            });
                        }
                    }
                }
                match kind {
                    Kind::Bomb => out.push(BombalotAction {
                        from,
                        to: from,
                        kind: ActionKind::Explode,
                    }),
                    Kind::Immobilizer => {
                        let board = JumpBoard::new(pos, from, JumpMode::Mixed);
                        for jump in board.jumps(from) {
                            out.push(BombalotAction {
                                from,
                                to: jump.to,
                                kind: ActionKind::Jump {
                                    removed: SquareSet::EMPTY,
                                },
                            });
                        }
                    }
                    _ if !with_jumps => {}
                    _ => {
                        for &mode in JumpMode::for_kind(kind) {
                            outcomes.clear();
                            JumpBoard::new(pos, from, mode).outcomes(outcomes);
                            out.extend(outcomes.iter().map(|&(to, removed)| BombalotAction {
                                from,
                                to,
                                kind: ActionKind::Jump { removed },
                            }));
                        }
                    }
                }
            }
            Kind::Tank => {
                for &(df, dr) in &ORTHO_DIRS {
                    if let Some(to) = from.offset(df, dr)
                        && (on_board(to) || enterable_empty(to))
                    {
                        out.push(mv(to));
                    }
                }
            }
            Kind::Detonator => {
                for &(df, dr) in &KNIGHT_DIRS {
                    if let Some(to) = from.offset(df, dr)
                        && (enterable_empty(to)
                            || (on_board(to) && pos.cell(to).is_some_and(|c| c.is_bomb())))
                    {
                        out.push(mv(to));
                    }
                }
            }
            _ => {}
        }
    }
}

/// Whether the side to move has any legal action (BA-11's last test). Unfrozen tanks and
/// bombs always have one (BA-19), which saves the full generation.
pub(super) fn has_action(pos: &Bombalot) -> bool {
    let frozen = pos.frozen();
    let quick = super::board_squares().any(|sq| {
        pos.cell(sq).is_some_and(|c| {
            c.color == pos.turn
                && !frozen.contains(sq)
                && matches!(pos.move_kind(c), Some(Kind::Tank | Kind::Bomb))
        })
    });
    if quick {
        return true;
    }
    let mut out = Vec::new();
    generate(pos, &mut out);
    !out.is_empty()
}
