//! Attack tables for the 8x8 bitboard core. Squares are `0..64`, `(rank - 1) * 8 + file`.

/// Knight jumps `(file, rank)`, in generation order; the 10x8 Bomberman board uses them too.
pub(crate) const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
/// Knight attacks from each square.
pub(crate) static KNIGHT: [u64; 64] = step_table(&KNIGHT_STEPS);
/// King attacks from each square.
pub(crate) static KING: [u64; 64] = step_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
/// Pawn capture targets: `PAWN[color][sq]` (0 = White, attacking north).
pub(crate) static PAWN: [[u64; 64]; 2] = [
    step_table(&[(1, 1), (-1, 1)]),
    step_table(&[(1, -1), (-1, -1)]),
];

/// Direction steps `(file, rank)`: N, NE, E, NW (positive index steps), S, SW, W, SE (negative).
const DIRS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (-1, 1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (1, -1),
];
/// Rays from each square in each direction, excluding the square itself.
static RAYS: [[u64; 64]; 8] = ray_table();

const fn step_table(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq] |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

const fn ray_table() -> [[u64; 64]; 8] {
    let mut table = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
            loop {
                f += DIRS[d].0;
                r += DIRS[d].1;
                if f < 0 || f >= 8 || r < 0 || r >= 8 {
                    break;
                }
                table[d][sq] |= 1 << (r * 8 + f);
            }
            sq += 1;
        }
        d += 1;
    }
    table
}

#[inline]
fn ray(dir: usize, sq: usize, occupied: u64) -> u64 {
    let ray = RAYS[dir][sq];
    let blockers = ray & occupied;
    if blockers == 0 {
        return ray;
    }
    let first = if dir < 4 {
        blockers.trailing_zeros()
    } else {
        63 - blockers.leading_zeros()
    };
    ray ^ RAYS[dir][first as usize]
}

/// Squares a bishop on `sq` attacks with `occupied` blocking.
#[inline]
pub(crate) fn bishop(sq: u8, occupied: u64) -> u64 {
    let sq = sq as usize;
    ray(1, sq, occupied) | ray(3, sq, occupied) | ray(5, sq, occupied) | ray(7, sq, occupied)
}

/// Squares a rook on `sq` attacks with `occupied` blocking.
#[inline]
pub(crate) fn rook(sq: u8, occupied: u64) -> u64 {
    let sq = sq as usize;
    ray(0, sq, occupied) | ray(2, sq, occupied) | ray(4, sq, occupied) | ray(6, sq, occupied)
}

/// Squares strictly between `a` and `b` on a shared line (empty if not aligned).
pub(crate) fn between(a: u8, b: u8) -> u64 {
    let (a, b) = (a as usize, b as usize);
    RAYS.iter()
        .find(|rays| rays[a] & (1 << b) != 0)
        .map_or(0, |rays| rays[a] & !rays[b] & !(1 << b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_have_expected_sizes() {
        assert_eq!(KNIGHT[0].count_ones(), 2);
        assert_eq!(KNIGHT[27].count_ones(), 8);
        assert_eq!(KING[0].count_ones(), 3);
        assert_eq!(rook(0, 0).count_ones(), 14);
        assert_eq!(bishop(27, 0).count_ones(), 13);
        // a rook on a1 blocked by a piece on a4: a2, a3, a4 and the first rank.
        assert_eq!(rook(0, 1 << 24).count_ones(), 3 + 7);
        assert_eq!(between(0, 7).count_ones(), 6);
        assert_eq!(between(0, 9), 0);
    }
}
