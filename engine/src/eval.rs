//! The static evaluation: material with per-variant piece values plus the terms that
//! matter in each variant, in centipawns from the side to move.
//!
//! | variant | terms beyond material |
//! |---|---|
//! | Atomic | own pieces next to one's king (a capture there blows the king up, AT-2) |
//! | Beirut | known carriers next to the enemy king (a Boom there wins, BE-3); enemy pieces next to one's king while their carriers are hidden (BE-2) |
//! | Nuke | who carries the bombs and how close each carrier is to the enemy king (NU-2, NU-6); who is nearer the loose bombs (NU-10) |
//! | Bomberman | bombs whose blast line reaches a king first (BM-6) |
//! | Bombalot | pieces in the opponent's goal and how close the others are to it (BA-2, BA-11); frozen pieces (BA-3) |
//!
//! Every variant also gets pawn (and tweke) advancement and a small bonus for the side to
//! move. Mobility is left to the search: counting the other side's actions would need a
//! position with the turn passed, which the rules API does not offer.

use kaboom_rules::{Color, Kind, PieceView, Position, Square, Variant};

/// Piece values in centipawns for one variant, indexed by [`Kind`]'s declaration order.
pub(crate) struct Values {
    piece: [i32; 15],
}

/// What removing a king is worth when ordering actions: more than any material.
const KING_REMOVAL: i32 = 50_000;
/// A piece locked in the opponent's goal (BA-2): two of them win (BA-11).
const GOAL_PIECE: i32 = 3_000;
/// The side to move's bonus.
const TEMPO: i32 = 10;

impl Values {
    /// The value of a removed piece of `kind` for move ordering.
    pub fn removal(&self, kind: Kind) -> i32 {
        if kind == Kind::King {
            KING_REMOVAL
        } else {
            self.piece(kind)
        }
    }

    /// The material value of one piece of `kind` on the board (0 for kings: they never
    /// leave the board while play goes on).
    pub fn piece(&self, kind: Kind) -> i32 {
        self.piece[kind as usize]
    }
}

const fn table(pairs: &[(Kind, i32)]) -> Values {
    let mut piece = [0; 15];
    let mut i = 0;
    while i < pairs.len() {
        piece[pairs[i].0 as usize] = pairs[i].1;
        i += 1;
    }
    Values { piece }
}

/// Atomic: knights are weak (they cannot defend by standing next to the king's attackers
/// without exploding with them), queens strong, as in atomic engines' tables.
static ATOMIC: Values = table(&[
    (Kind::Pawn, 100),
    (Kind::Knight, 250),
    (Kind::Bishop, 300),
    (Kind::Rook, 450),
    (Kind::Queen, 950),
]);
/// Beirut and Nuke keep chess's classical values.
static CHESS: Values = table(&[
    (Kind::Pawn, 100),
    (Kind::Knight, 320),
    (Kind::Bishop, 330),
    (Kind::Rook, 500),
    (Kind::Queen, 900),
]);
/// Bomberman Chess: the King Battler moves as a queen (BM-3), the Defuser reaches 3 squares
/// and defuses bombs (BM-2, BM-7), a bomb is a weapon that cannot capture.
static BOMBERMAN: Values = table(&[
    (Kind::Pawn, 100),
    (Kind::Knight, 300),
    (Kind::Bishop, 320),
    (Kind::Rook, 500),
    (Kind::KingBattler, 900),
    (Kind::Defuser, 350),
    (Kind::Bomb, 280),
]);
/// Bombalot: every piece counts towards "no pieces" (BA-11); tanks push, detonators and
/// bombs destroy, immobilizers freeze.
static BOMBALOT: Values = table(&[
    (Kind::Tweke, 100),
    (Kind::SuperTweke, 220),
    (Kind::Tank, 400),
    (Kind::Detonator, 320),
    (Kind::Immobilizer, 380),
    (Kind::Bomb, 260),
    (Kind::Imitator, 300),
]);

/// The value table of `variant`.
pub(crate) fn values(variant: Variant) -> &'static Values {
    match variant {
        Variant::Atomic => &ATOMIC,
        Variant::Beirut | Variant::Nuke => &CHESS,
        Variant::Bomberman => &BOMBERMAN,
        Variant::Bombalot => &BOMBALOT,
    }
}

fn sign(color: Color) -> i32 {
    match color {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// Ranks advanced from `color`'s own first rank (0 on it).
fn advance(color: Color, square: Square, ranks: u8) -> i32 {
    let rank = i32::from(square.rank());
    match color {
        Color::White => rank - 1,
        Color::Black => i32::from(ranks) - rank,
    }
}

/// The evaluation of `pos` in centipawns from the side to move's point of view.
/// `pieces` are `pos`'s ([`Position::pieces`]), which the caller usually has at hand.
pub(crate) fn evaluate_pieces<P: Position>(pos: &P, pieces: &[PieceView], values: &Values) -> i32 {
    let variant = P::VARIANT;
    let ranks = variant.geometry().ranks;
    let king = |color: Color| {
        pieces
            .iter()
            .find(|p| p.kind == Kind::King && p.color == color)
            .map(|p| p.square)
    };
    let kings = [king(Color::White), king(Color::Black)];
    let mut white = 0;
    for p in pieces {
        let s = sign(p.color);
        if p.locked {
            white += s * GOAL_PIECE;
            continue;
        }
        let mut value = values.piece(p.kind);
        if p.frozen {
            value -= value / 4;
        }
        let advanced = advance(p.color, p.square, ranks);
        value += match p.kind {
            Kind::Pawn => 6 * advanced,
            Kind::Tweke | Kind::SuperTweke => 4 * advanced,
            _ => 0,
        };
        white += s * value;
    }
    white += match variant {
        Variant::Atomic => atomic(pieces, kings),
        Variant::Beirut => beirut(pieces, kings),
        Variant::Nuke => nuke(pieces, kings, &pos.loose_bombs()),
        Variant::Bomberman => bomberman(pieces, kings),
        Variant::Bombalot => bombalot(pieces),
    };
    sign(pos.turn()) * white + TEMPO
}

fn enemy_king(kings: [Option<Square>; 2], color: Color) -> Option<Square> {
    kings[color.other().index()]
}

/// AT-2: an enemy capture on a square next to one's king explodes it, so own pieces there
/// are liabilities.
fn atomic(pieces: &[PieceView], kings: [Option<Square>; 2]) -> i32 {
    pieces
        .iter()
        .filter(|p| p.kind != Kind::King)
        .filter(|p| kings[p.color.index()].is_some_and(|k| k.distance(p.square) == 1))
        .map(|p| -sign(p.color) * 25)
        .sum()
}

/// BE-3: a known carrier next to the enemy king threatens a winning Boom; BE-2: while the
/// other side's carriers are hidden, each enemy piece next to one's king might be one.
fn beirut(pieces: &[PieceView], kings: [Option<Square>; 2]) -> i32 {
    let mut white = 0;
    for p in pieces.iter().filter(|p| p.kind != Kind::King) {
        let Some(target) = enemy_king(kings, p.color) else {
            continue;
        };
        let distance = target.distance(p.square);
        if p.carrier && distance <= 1 {
            white += sign(p.color) * 300;
        } else if p.carrier {
            white += sign(p.color) * (8 - i32::from(distance)).max(0) * 8;
        } else if distance <= 1 {
            white += sign(p.color) * 30;
        }
    }
    white
}

/// NU-6: a carried bomb explodes when its carrier is captured; NU-2: only a carrier can take
/// a king; NU-10: loose bombs can be grabbed by whoever reaches them first.
fn nuke(
    pieces: &[PieceView],
    kings: [Option<Square>; 2],
    loose: &[kaboom_rules::LooseBombs],
) -> i32 {
    let mut white = 0;
    for p in pieces.iter().filter(|p| p.carrier) {
        white += sign(p.color) * 120;
        if let Some(target) = enemy_king(kings, p.color) {
            white += sign(p.color) * (8 - i32::from(target.distance(p.square))).max(0) * 15;
        }
    }
    for bomb in loose {
        let nearest = |color: Color| {
            pieces
                .iter()
                .filter(|p| p.color == color && !p.carrier)
                .map(|p| p.square.distance(bomb.square))
                .min()
                .unwrap_or(u8::MAX)
        };
        let (w, b) = (nearest(Color::White), nearest(Color::Black));
        let share = 30 * i32::from(bomb.count);
        if w < b {
            white += share;
        } else if b < w {
            white -= share;
        }
    }
    white
}

/// BM-6: a bomb's wave destroys the first piece it meets along a rank or file; a bomb whose
/// wave reaches the enemy king first is a standing threat to detonate.
fn bomberman(pieces: &[PieceView], kings: [Option<Square>; 2]) -> i32 {
    let at = |s: Square| pieces.iter().find(|p| p.square == s);
    let geometry = Variant::Bomberman.geometry();
    let mut white = 0;
    for bomb in pieces.iter().filter(|p| p.kind == Kind::Bomb) {
        for (df, dr) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
            let mut square = bomb.square;
            while let Some(next) = square.offset(df, dr).filter(|&s| geometry.contains(s)) {
                square = next;
                if let Some(hit) = at(square) {
                    if hit.kind == Kind::King && Some(hit.square) == enemy_king(kings, bomb.color) {
                        white += sign(bomb.color) * 250;
                    }
                    break;
                }
            }
        }
    }
    white
}

/// BA-2/BA-11: pieces nearer the opponent's goal are closer to winning.
fn bombalot(pieces: &[PieceView]) -> i32 {
    pieces
        .iter()
        .filter(|p| !p.locked && p.kind != Kind::Bomb)
        .map(|p| {
            let goal_rank: u8 = match p.color {
                Color::White => 9,
                Color::Black => 0,
            };
            let to_goal = [3u8, 4]
                .iter()
                .map(|&file| {
                    Square::new(file, goal_rank).map_or(9, |g| i32::from(g.distance(p.square)))
                })
                .min()
                .unwrap_or(9);
            sign(p.color) * (9 - to_goal) * 6
        })
        .sum()
}
