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
/// Rays from each square in each direction, excluding the square itself (for building
/// the tables below).
const RAYS: [[u64; 64]; 8] = ray_table();

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

/// The rook's and the bishop's directions, as indexes into [`DIRS`].
const ROOK_DIRS: [usize; 4] = [0, 2, 4, 6];
const BISHOP_DIRS: [usize; 4] = [1, 3, 5, 7];

/// Slider attacks by "magic" bitboards: the squares a rook or bishop on `sq` attacks
/// depend only on the pieces on its *relevant* squares (its rays without the last square
/// of each, which blocks nothing beyond). Multiplying those pieces (`occupied & mask`) by
/// a well-chosen number gathers their bits, without destructive collisions, into the top
/// `bits` bits of the product, so `(occupied & mask) * multiplier >> (64 - bits)` is a
/// dense index into a table of precomputed attacks: one multiply and one load per slider,
/// no branches. Different occupancies may share an index only when their attacks are the
/// same (the table build below checks this at compile time).
#[derive(Copy, Clone)]
struct Magic {
    /// The relevant squares.
    mask: u64,
    /// The multiplier (found once by random search, `tests::find_magics`).
    multiplier: u64,
    /// `64 - bits`: the index is the top `bits` bits of the product.
    shift: u32,
    /// Where this square's `1 << bits` entries start in [`SLIDER_ATTACKS`].
    offset: usize,
}

impl Magic {
    #[inline]
    const fn index(&self, occupied: u64) -> usize {
        self.offset + ((occupied & self.mask).wrapping_mul(self.multiplier) >> self.shift) as usize
    }
}

// Multipliers for plain magics (`bits` = the number of relevant squares), one per square,
// found by `tests::find_magics` (sparse random numbers tried until one has no destructive
// collision).
const ROOK_MULTIPLIERS: [u64; 64] = [
    0x2080002080400010,
    0x00c0002001401000,
    0x2100110008402002,
    0x0880080081041000,
    0x0200020020041008,
    0x2300040008010012,
    0x0c00283004008201,
    0x0180010000407a80,
    0x0168800080400020,
    0x0010400040201000,
    0x1001002001001048,
    0x1001002408100100,
    0x0801000408010012,
    0x4001000209000400,
    0x08a20004c8020001,
    0x2002801145002280,
    0x0080860021004200,
    0x001000c009402002,
    0x00b0002004002800,
    0x100a808010020800,
    0x8101010008000410,
    0x0244008002000480,
    0x0000040010810208,
    0x2000020000448534,
    0x4104400480008033,
    0x0000810100204000,
    0x0440430900200010,
    0x4600240900100100,
    0x0060080080040080,
    0x0001000300080400,
    0x0004084400011002,
    0x0023040200008041,
    0x0580050043002080,
    0x0400804002802008,
    0x0001002001004010,
    0x1000200901001000,
    0x4410800801800c00,
    0xa012003806001004,
    0x0020100104008802,
    0x0004808402000041,
    0x0010400170898000,
    0x0080500020004004,
    0x1040408012020020,
    0x8010040008004040,
    0x2001080100110004,
    0x0000020004008080,
    0x0021010810040002,
    0x0800008c43020024,
    0x0000800021005100,
    0x0070201040008080,
    0x0000d04282006a00,
    0x0010014400080240,
    0x0001080110050100,
    0x0012000810240600,
    0x0402000801040200,
    0x028100108a004100,
    0x0050800300102045,
    0x8208210040120882,
    0x8010600101183441,
    0x020b000910006045,
    0x0241001002480005,
    0x0081000400880241,
    0x0000009008024124,
    0x0048122980410402,
];
const BISHOP_MULTIPLIERS: [u64; 64] = [
    0x0848020822040013,
    0x8010a40085821200,
    0x0008008430840822,
    0x0808048108040000,
    0x1304042100008104,
    0x5001012010204023,
    0x81048801b8200420,
    0x200a008084012000,
    0x0040102001042084,
    0x840a505042428020,
    0x0000700102202920,
    0x44101c0c10800002,
    0x0040040422000000,
    0x0180020802090202,
    0x4020020811041202,
    0x000104308c042000,
    0x4140661002424400,
    0x0028012008010460,
    0x0188062102002a00,
    0x0014004840102008,
    0x0105000290400002,
    0x8001022200410400,
    0x104a041918013446,
    0x008a000082008238,
    0x04a0060008100430,
    0x0008220008820801,
    0x2508041208005010,
    0x4008080200202020,
    0x2441001013004000,
    0x0030008060407000,
    0x4008108000420800,
    0x0012021050290100,
    0x0210080482200500,
    0xcc01112048100480,
    0x0020402806500440,
    0x00048e0080580080,
    0x0040102020020080,
    0x0028010440080807,
    0x4601041108008800,
    0x8040810e04104200,
    0x901210110400088a,
    0xa003080212081050,
    0x00c1004048401004,
    0x900000a014400800,
    0x0008021040405401,
    0x4020008206002090,
    0x0004190424030100,
    0x0424008a02026250,
    0x8004088250900040,
    0x1c00430088a04200,
    0x0001020094040001,
    0x8040210020880061,
    0x2010040450442032,
    0x0800840850044001,
    0x0004040802140004,
    0x0004080a04222020,
    0x8088802110022000,
    0x1081a10416114400,
    0x0205010a24060820,
    0x0000000720411080,
    0x1008000208430400,
    0x580c026028810840,
    0x802020441020a110,
    0x12c0022401020018,
];

/// Entries of the rook's squares: 4096 (12 relevant squares) in the corners down to 1024
/// (10) in the centre, 102,400 in all; the bishop's follow (5,248).
const ROOK_ENTRIES: usize = 102_400;
const BISHOP_ENTRIES: usize = 5_248;

const ROOK_MAGICS: [Magic; 64] = magics(&ROOK_DIRS, &ROOK_MULTIPLIERS, 0, ROOK_ENTRIES);
const BISHOP_MAGICS: [Magic; 64] = magics(
    &BISHOP_DIRS,
    &BISHOP_MULTIPLIERS,
    ROOK_ENTRIES,
    BISHOP_ENTRIES,
);
static ROOK: [Magic; 64] = ROOK_MAGICS;
static BISHOP: [Magic; 64] = BISHOP_MAGICS;
/// Rook attacks, then bishop attacks, indexed by [`Magic::index`] (about 860 KB).
static SLIDER_ATTACKS: [u64; ROOK_ENTRIES + BISHOP_ENTRIES] = slider_table();

/// The squares a slider on `sq` moving in `dirs` attacks with `occupied` blocking: the
/// slow ray walk the tables are built from.
const fn slide(sq: usize, occupied: u64, dirs: &[usize; 4]) -> u64 {
    // A reference, so that compile-time evaluation does not copy the whole table per use.
    let rays = &RAYS;
    let mut attacks = 0;
    let mut i = 0;
    while i < 4 {
        let ray = rays[dirs[i]][sq];
        let blockers = ray & occupied;
        attacks |= if blockers == 0 {
            ray
        } else {
            // The nearest blocker: the lowest square on rays that step up the board
            // (`dirs` 0..4), the highest on those that step down; beyond it is shadowed.
            let first = if dirs[i] < 4 {
                blockers.trailing_zeros()
            } else {
                63 - blockers.leading_zeros()
            };
            ray ^ rays[dirs[i]][first as usize]
        };
        i += 1;
    }
    attacks
}

/// The relevant squares of a slider on `sq`: its rays, less each ray's last square.
const fn relevant(sq: usize, dirs: &[usize; 4]) -> u64 {
    let rays = &RAYS;
    let mut mask = 0;
    let mut i = 0;
    while i < 4 {
        let ray = rays[dirs[i]][sq];
        if ray != 0 {
            let last = if dirs[i] < 4 {
                63 - ray.leading_zeros()
            } else {
                ray.trailing_zeros()
            };
            mask |= ray & !(1 << last);
        }
        i += 1;
    }
    mask
}

/// The magics of one slider, their entries starting at `start` and filling `entries`.
const fn magics(
    dirs: &[usize; 4],
    multipliers: &[u64; 64],
    start: usize,
    entries: usize,
) -> [Magic; 64] {
    let mut out = [Magic {
        mask: 0,
        multiplier: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = start;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant(sq, dirs);
        out[sq] = Magic {
            mask,
            multiplier: multipliers[sq],
            shift: 64 - mask.count_ones(),
            offset,
        };
        offset += 1 << mask.count_ones();
        sq += 1;
    }
    assert!(
        offset == start + entries,
        "the table size does not match the masks"
    );
    out
}

#[allow(long_running_const_eval)]
const fn slider_table() -> [u64; ROOK_ENTRIES + BISHOP_ENTRIES] {
    let mut table = [0u64; ROOK_ENTRIES + BISHOP_ENTRIES];
    // Entries no occupancy reaches stay 0: a real attack set is never empty, so 0 marks
    // "not yet written" while building.
    let mut piece = 0;
    while piece < 2 {
        let (dirs, magics) = if piece == 0 {
            (&ROOK_DIRS, &ROOK_MAGICS)
        } else {
            (&BISHOP_DIRS, &BISHOP_MAGICS)
        };
        let mut sq = 0;
        while sq < 64 {
            let magic = magics[sq];
            // Every subset of the mask, by the carry-rippler trick: `(sub - mask) & mask`
            // counts up through the mask's bits only; it wraps back to 0 after the full set.
            let mut sub = 0u64;
            loop {
                let attacks = slide(sq, sub, dirs);
                let i = magic.index(sub);
                assert!(
                    table[i] == 0 || table[i] == attacks,
                    "a magic multiplier maps two occupancies with different attacks to one entry"
                );
                table[i] = attacks;
                sub = sub.wrapping_sub(magic.mask) & magic.mask;
                if sub == 0 {
                    break;
                }
            }
            sq += 1;
        }
        piece += 1;
    }
    table
}

/// Squares a bishop on `sq` attacks with `occupied` blocking.
#[inline]
pub(crate) fn bishop(sq: u8, occupied: u64) -> u64 {
    SLIDER_ATTACKS[BISHOP[sq as usize].index(occupied)]
}

/// Squares a rook on `sq` attacks with `occupied` blocking.
#[inline]
pub(crate) fn rook(sq: u8, occupied: u64) -> u64 {
    SLIDER_ATTACKS[ROOK[sq as usize].index(occupied)]
}

/// Squares strictly between two squares on a shared line: `BETWEEN[a][b]` (empty if not aligned).
static BETWEEN: [[u64; 64]; 64] = between_table();

const fn between_table() -> [[u64; 64]; 64] {
    let rays = &RAYS;
    let mut table = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            // Walking from `a` along direction `d`, the squares between `a` and each `b`
            // on the ray are the ray from `a` less the ray from `b` and `b` itself.
            let mut rest = rays[d][a];
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                table[a][b] = rays[d][a] & !rays[d][b] & !(1 << b);
                rest &= rest - 1;
            }
            d += 1;
        }
        a += 1;
    }
    table
}

/// Squares strictly between `a` and `b` on a shared line (empty if not aligned).
#[inline]
pub(crate) fn between(a: u8, b: u8) -> u64 {
    BETWEEN[a as usize][b as usize]
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
        assert_eq!(between(7, 0), between(0, 7));
        assert_eq!(between(0, 63).count_ones(), 6);
        assert_eq!(between(0, 9), 0);
        assert_eq!(between(0, 10), 0);
        assert_eq!(between(0, 1), 0);
    }

    /// A xorshift generator: sparse candidates are the AND of three draws.
    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn magic_lookups_match_the_ray_walk() {
        let mut rng = 0x2545_f491_4f6c_dd1d;
        for sq in 0..64u8 {
            for _ in 0..500 {
                let occupied = xorshift(&mut rng) & xorshift(&mut rng);
                assert_eq!(rook(sq, occupied), slide(sq as usize, occupied, &ROOK_DIRS));
                assert_eq!(
                    bishop(sq, occupied),
                    slide(sq as usize, occupied, &BISHOP_DIRS)
                );
            }
        }
    }

    /// Finds new multipliers and prints them in the form of `ROOK_MULTIPLIERS` and
    /// `BISHOP_MULTIPLIERS`: `cargo test -p kaboom-rules --lib -- --ignored --nocapture find_magics`.
    #[test]
    #[ignore = "prints the multiplier tables; run by hand"]
    fn find_magics() {
        let mut rng = 0x9e37_79b9_7f4a_7c15;
        for (name, dirs) in [("ROOK", &ROOK_DIRS), ("BISHOP", &BISHOP_DIRS)] {
            println!("const {name}_MULTIPLIERS: [u64; 64] = [");
            for sq in 0..64 {
                let mask = relevant(sq, dirs);
                let bits = mask.count_ones();
                let mut subsets = Vec::new();
                let mut sub = 0u64;
                loop {
                    subsets.push((sub, slide(sq, sub, dirs)));
                    sub = sub.wrapping_sub(mask) & mask;
                    if sub == 0 {
                        break;
                    }
                }
                let multiplier = loop {
                    let candidate = xorshift(&mut rng) & xorshift(&mut rng) & xorshift(&mut rng);
                    // Too few bits in the top byte never spreads the mask well enough.
                    if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                        continue;
                    }
                    let mut table = vec![0u64; 1 << bits];
                    let fits = subsets.iter().all(|&(occupied, attacks)| {
                        let i = (occupied.wrapping_mul(candidate) >> (64 - bits)) as usize;
                        let ok = table[i] == 0 || table[i] == attacks;
                        table[i] = attacks;
                        ok
                    });
                    if fits {
                        break candidate;
                    }
                };
                println!("    {multiplier:#018x},");
            }
            println!("];");
        }
    }
}
