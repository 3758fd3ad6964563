//! The 10x8 mailbox, piece movement, bomb blasts and check (BM-1 to BM-8).
//!
//! Squares are grid indices `rank * 10 + file` as in [`crate::Square`]; the board uses
//! files 0..=9 and ranks 1..=8 of that grid (C-1, BM-1).

use crate::{Color, Kind, Piece};

/// A mailbox over the crate's 10x10 grid; only files a-j and ranks 1-8 are ever used.
pub(crate) type Board = [Option<Piece>; 100];

/// The wave directions in the order BM-6 fixes: north (towards rank 8), east, south, west.
/// The direction back towards the bomb that hit a bomb in direction `d` is `(d + 2) % 4`.
pub(crate) const WAVES: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// The 8 king-move directions: the 4 orthogonal ones first, then the 4 diagonal ones.
pub(crate) const ALL8: [(i8, i8); 8] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, -1),
    (-1, 1),
];

/// Knight jumps (the 8x8 core's, in the same order).
pub(crate) use crate::chess::attacks::KNIGHT_STEPS as KNIGHT;

/// The square `df` files and `dr` ranks from `sq`, if it is on the 10x8 board.
#[inline]
pub(crate) const fn step(sq: u8, df: i8, dr: i8) -> Option<u8> {
    let f = (sq % 10) as i8 + df;
    let r = (sq / 10) as i8 + dr;
    // Written out: `contains` is not a const fn.
    if f >= 0 && f < 10 && r >= 1 && r <= 8 {
        Some((r * 10 + f) as u8)
    } else {
        None
    }
}

/// Marks "off the board" in [`NEIGHBOURS`] and [`KNIGHT_JUMPS`].
const OFF: u8 = u8::MAX;

/// `table[sq][i]`: [`step`] from `sq` by `steps[i]`, or [`OFF`], for every grid index.
const fn step_table(steps: [(i8, i8); 8]) -> [[u8; 8]; 100] {
    let mut table = [[OFF; 8]; 100];
    let mut sq = 0;
    while sq < 100 {
        let mut i = 0;
        while i < 8 {
            if let Some(next) = step(sq as u8, steps[i].0, steps[i].1) {
                table[sq][i] = next;
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// The neighbour of each square in each [`ALL8`] direction (the first four are [`WAVES`]):
/// a table lookup instead of [`step`]'s division in the check test's inner loops.
static NEIGHBOURS: [[u8; 8]; 100] = step_table(ALL8);

/// The square a knight jump `KNIGHT[i]` from each square lands on.
static KNIGHT_JUMPS: [[u8; 8]; 100] = step_table(KNIGHT);

/// The neighbour of `sq` in direction `ALL8[dir]`, if it is on the board (as [`step`]).
#[inline]
fn neighbour(sq: u8, dir: usize) -> Option<u8> {
    let next = NEIGHBOURS[sq as usize][dir];
    (next != OFF).then_some(next)
}

/// The bit of `sq` in a 128-bit square set.
#[inline]
pub(crate) const fn bit(sq: u8) -> u128 {
    1u128 << sq
}

/// Whether `sq` (a grid index) is on the 10x8 board.
#[inline]
pub(crate) fn on_board(sq: u8) -> bool {
    sq < 100 && (1..=8).contains(&(sq / 10))
}

/// The square of `color`'s king, if it has one (the first in index order).
pub(crate) fn king_square(board: &Board, color: Color) -> Option<u8> {
    let king = Some(Piece::new(color, Kind::King));
    (10u8..90).find(|&sq| board[sq as usize] == king)
}

/// The squares of file a, ranks 1 to 8, as a square set.
const FILE_A: u128 = {
    let mut mask = 0u128;
    let mut rank = 1;
    while rank <= 8 {
        mask |= bit(rank * 10);
        rank += 1;
    }
    mask
};

/// The squares of the board on the rank and the file of `sq` (`sq` itself included).
fn lines_through(sq: u8) -> u128 {
    let (file, rank) = (sq % 10, sq / 10);
    (0x3FF << (rank * 10)) | (FILE_A << file)
}

/// Where the kings and the bombs stand: what [`in_check_at`] needs besides the board, so
/// that a legality test after each of a position's actions need not scan the board for
/// them (see [`Placement::after`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Placement {
    /// The king squares, White's then Black's (`None`: destroyed).
    kings: [Option<u8>; 2],
    /// The squares holding a bomb, either colour's.
    bombs: u128,
}

impl Placement {
    /// Scans `board` (80 squares).
    pub(crate) fn of(board: &Board) -> Placement {
        let mut placement = Placement {
            kings: [None, None],
            bombs: 0,
        };
        for sq in 10u8..90 {
            if let Some(p) = board[sq as usize] {
                match p.kind {
                    Kind::King => placement.kings[p.color as usize] = Some(sq),
                    Kind::Bomb => placement.bombs |= bit(sq),
                    _ => {}
                }
            }
        }
        placement
    }

    /// The square of `color`'s king, if it is on the board.
    pub(crate) fn king(&self, color: Color) -> Option<u8> {
        self.kings[color as usize]
    }

    /// The placement on `after`, the board this placement's board became by one action
    /// whose pieces arrived only on `arrivals` (a move's target; a castling's king and
    /// rook squares). Pieces only leave squares or arrive on those (a blast or capture only
    /// empties squares), so this checks the old king and bomb squares and `arrivals`
    /// instead of the whole board; equal to [`Placement::of`]`(after)`.
    pub(crate) fn after(self, after: &Board, arrivals: &[u8]) -> Placement {
        let holds = |sq: u8, kind: Kind, color: Option<Color>| {
            after[sq as usize].is_some_and(|p| p.kind == kind && color.is_none_or(|c| p.color == c))
        };
        let mut next = Placement {
            kings: [None, None],
            bombs: 0,
        };
        for color in Color::ALL {
            next.kings[color as usize] = self
                .king(color)
                .filter(|&sq| holds(sq, Kind::King, Some(color)))
                .or_else(|| {
                    arrivals
                        .iter()
                        .copied()
                        .find(|&sq| holds(sq, Kind::King, Some(color)))
                });
        }
        let mut old = self.bombs;
        while old != 0 {
            let sq = old.trailing_zeros() as u8;
            old &= old - 1;
            if holds(sq, Kind::Bomb, None) {
                next.bombs |= bit(sq);
            }
        }
        for &sq in arrivals {
            if holds(sq, Kind::Bomb, None) {
                next.bombs |= bit(sq);
            }
        }
        next
    }
}

/// Sets off the bomb chain that starts with the bomb on `origin` (BM-6).
///
/// `gone` is the set of squares already emptied (the exploding bomb itself, a capturer);
/// they count as empty, and every square a wave hits is added to it. `hit` is called
/// for each hit square, in the order BM-6 gives: bombs explode first in, first out; each
/// sends its waves north, east, south, west (skipping the way back towards the bomb
/// that hit it); each wave removes the first piece it meets and stops.
pub(crate) fn blast(board: &Board, gone: &mut u128, origin: u8, mut hit: impl FnMut(u8)) {
    // Every bomb enters the queue at most once (it leaves the board when hit).
    let mut queue = [(0u8, 4u8); 100];
    queue[0] = (origin, 4);
    let (mut head, mut len) = (0usize, 1usize);
    while head < len {
        let (from, back) = queue[head];
        head += 1;
        for d in 0..WAVES.len() {
            if d as u8 == back {
                continue;
            }
            let mut cur = from;
            while let Some(next) = neighbour(cur, d) {
                cur = next;
                if *gone & bit(cur) != 0 {
                    continue;
                }
                if let Some(piece) = board[cur as usize] {
                    *gone |= bit(cur);
                    hit(cur);
                    if piece.kind == Kind::Bomb && len < queue.len() {
                        queue[len] = (cur, ((d + 2) % 4) as u8);
                        len += 1;
                    }
                    break;
                }
            }
        }
    }
}

/// Calls `f(from, kind)` for each piece of `by` that could capture on `target` by its
/// ordinary movement (bombs never capture, BM-2), until `f` returns `true`. Returns
/// whether it did.
pub(crate) fn attackers(
    board: &Board,
    target: u8,
    by: Color,
    mut f: impl FnMut(u8, Kind) -> bool,
) -> bool {
    // A pawn of `by` captures towards `by.forward()`, so it stands one rank back from
    // the target: the diagonals (-1, back) and (1, back) of ALL8.
    let pawn_dirs = if by.forward() > 0 { [6, 5] } else { [7, 4] };
    for dir in pawn_dirs {
        if let Some(s) = neighbour(target, dir)
            && board[s as usize] == Some(Piece::new(by, Kind::Pawn))
            && f(s, Kind::Pawn)
        {
            return true;
        }
    }
    for &s in &KNIGHT_JUMPS[target as usize] {
        if s != OFF && board[s as usize] == Some(Piece::new(by, Kind::Knight)) && f(s, Kind::Knight)
        {
            return true;
        }
    }
    for i in 0..ALL8.len() {
        let diagonal = i >= 4;
        let mut cur = target;
        let mut dist = 0;
        while let Some(next) = neighbour(cur, i) {
            cur = next;
            dist += 1;
            let Some(p) = board[cur as usize] else {
                continue;
            };
            if p.color == by {
                let reaches = match p.kind {
                    Kind::Rook => !diagonal,
                    Kind::Bishop => diagonal,
                    Kind::KingBattler => true,
                    Kind::Defuser => dist <= 3,
                    Kind::King => dist == 1,
                    _ => false,
                };
                if reaches && f(cur, p.kind) {
                    return true;
                }
            }
            break;
        }
    }
    false
}

/// Whether `side` is in check (BM-8): the opponent, if it were its turn, could destroy
/// `side`'s king without destroying its own, by capturing the king, by detonating one
/// of its bombs (chains included), or by capturing one of `side`'s bombs with a piece
/// other than a Defuser so that the blast reaches the king. A side without a king
/// counts as in check (its king is already destroyed).
pub(crate) fn in_check(board: &Board, side: Color) -> bool {
    in_check_at(board, side, &Placement::of(board))
}

/// [`in_check`] with the kings and bombs of `board` already known (`placement` must be
/// [`Placement::of`]`(board)`).
pub(crate) fn in_check_at(board: &Board, side: Color, placement: &Placement) -> bool {
    let (king, opp_king, mut bombs) =
        (placement.king(side), placement.king(!side), placement.bombs);
    let Some(king) = king else {
        return true;
    };
    let opp = !side;
    if attackers(board, king, opp, |_, _| true) {
        return true;
    }
    // A wave travels along a rank or file from a bomb's square, so a blast can only
    // reach the king from a bomb on the king's rank or file (the last bomb of a chain).
    if bombs & lines_through(king) == 0 {
        return false;
    }
    let kills = |gone: u128| gone & bit(king) != 0 && opp_king.is_none_or(|k| gone & bit(k) == 0);
    while bombs != 0 {
        let sq = bombs.trailing_zeros() as u8;
        bombs &= bombs - 1;
        let owner = board[sq as usize].map(|p| p.color);
        if owner == Some(opp) {
            // BM-5: the opponent detonates it.
            let mut gone = bit(sq);
            blast(board, &mut gone, sq, |_| {});
            if kills(gone) {
                return true;
            }
        } else {
            // BM-7: the opponent captures it with a piece that is not a Defuser; the
            // capturer leaves its square and is destroyed on the bomb's.
            let found = attackers(board, sq, opp, |from, kind| {
                if matches!(kind, Kind::Defuser | Kind::King) {
                    return false;
                }
                let mut gone = bit(sq) | bit(from);
                blast(board, &mut gone, sq, |_| {});
                kills(gone)
            });
            if found {
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_stays_on_the_ten_by_eight_board_c1() {
        let j1 = 19;
        assert_eq!(step(j1, 1, 0), None);
        assert_eq!(step(j1, 0, -1), None);
        assert_eq!(step(j1, -1, 1), Some(28));
        assert_eq!(step(80, 0, 1), None);
        for sq in 0..100u8 {
            for (dir, &(df, dr)) in ALL8.iter().enumerate() {
                assert_eq!(neighbour(sq, dir), step(sq, df, dr), "{sq} {dir}");
            }
            for (i, &(df, dr)) in KNIGHT.iter().enumerate() {
                let jump = KNIGHT_JUMPS[sq as usize][i];
                assert_eq!((jump != OFF).then_some(jump), step(sq, df, dr), "{sq} {i}");
            }
        }
        assert_eq!(lines_through(15).count_ones(), 17, "rank 1 and file f");
        assert!(on_board(19) && on_board(89) && !on_board(9) && !on_board(90));
    }
}
