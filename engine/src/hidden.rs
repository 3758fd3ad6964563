//! The risk of the opponent's hidden carriers in Beirut (BE-2, BE-3, BE-4).
//!
//! The engine searches the position as its side sees it, so the opponent's Booms are not
//! among the opponent's legal actions there. Without a model the search walks its king next
//! to any enemy piece. The model: every enemy piece other than the king may carry one of the
//! enemy's remaining bombs, all equally likely, except pieces the enemy has shown are not
//! carriers (a piece that stood where its Boom would have removed our king, but not the
//! enemy's own, while the enemy chose to do something else). Where the enemy is to move and
//! `k` of the `n` possible carriers stand where a Boom would win, the enemy wins at once with
//! the probability that one of its `c` remaining carriers is among them,
//! `p = 1 - C(n-k, c) / C(n, c)`, and otherwise plays on knowing that none of the `k` is a
//! carrier. The search scores such a position as the expectation
//! `p * BOOM_WIN + (1 - p) * value` (a chance node, [`Threat`]).
//!
//! Everything here reads only the viewer's view of the positions and the public record of
//! the plies (who moved, from and to which square, what was removed, whether it was a Boom),
//! never the hidden carriers themselves (BE-2).

use kaboom_rules::{
    ActionSquares, Color, Game, Kind, PieceView, Position, Removal, Square, Viewer,
};

/// The score (centipawns, from the enemy's side) of a winning Boom in the chance node. Kept
/// below the mate scores, so that a probable loss never reads as a forced one, and near
/// what the evaluation gives to a decisive advantage (about three minor pieces).
pub(crate) const BOOM_WIN: i32 = 3_000;

/// The side whose carriers the engine cannot see, and how many of them may be left.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(crate) struct Hidden {
    /// The side with hidden carriers.
    pub side: Color,
    /// The designation's count (BE-2) minus the Booms this side has played (BE-3). Carriers
    /// captured silently (BE-6) cannot be told apart and still count.
    pub carriers: u32,
}

/// A set of squares as bits `1 << Square::index()` (the 10x10 grid fits 128 bits).
pub(crate) type Squares = u128;

/// The bit of `square` in [`Squares`].
pub(crate) fn bit(square: Square) -> Squares {
    1u128 << square.index()
}

/// The enemy's chance to win at once by a hidden Boom where it is to move.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Threat {
    /// Probability (0 to 1) that one of the threatening pieces carries a bomb.
    pub p: f64,
    /// The threatening pieces' squares: not carriers if the enemy plays on.
    pub squares: Squares,
}

/// The hidden side's possible winning Booms in `pieces` (as if it were to move): its pieces
/// not in `cleared` whose 3x3 block (BE-3) holds the other king but not its own (BE-4).
/// `None` when there is none or no carrier can be left.
pub(crate) fn threat(pieces: &[PieceView], hidden: Hidden, cleared: Squares) -> Option<Threat> {
    if hidden.carriers == 0 {
        return None;
    }
    let king = |color: Color| {
        pieces
            .iter()
            .find(|p| p.kind == Kind::King && p.color == color)
            .map(|p| p.square)
    };
    let target = king(hidden.side.other())?;
    let own = king(hidden.side);
    let mut n = 0u32;
    let mut k = 0u32;
    let mut squares = 0;
    for p in pieces {
        if p.color != hidden.side || p.kind == Kind::King || cleared & bit(p.square) != 0 {
            continue;
        }
        n += 1;
        if p.square.distance(target) <= 1 && own.is_none_or(|o| p.square.distance(o) > 1) {
            k += 1;
            squares |= bit(p.square);
        }
    }
    if k == 0 {
        return None;
    }
    let c = hidden.carriers.min(n);
    // P(none of the k is among the c carriers) = C(n-k, c) / C(n, c).
    let mut none = 1.0;
    for i in 0..c {
        if n - i <= k {
            none = 0.0;
            break;
        }
        none *= f64::from(n - k - i) / f64::from(n - i);
    }
    Some(Threat {
        p: 1.0 - none,
        squares,
    })
}

/// `cleared` after a ply that moved a piece from `squares.from` to `squares.to` and removed
/// `removed`: a cleared piece keeps its status when it moves, and loses it when removed.
pub(crate) fn follow(cleared: Squares, squares: ActionSquares, removed: &[Removal]) -> Squares {
    if cleared == 0 {
        return 0;
    }
    let mut out = cleared;
    for r in removed {
        out &= !bit(r.square);
    }
    if let (Some(from), Some(to)) = (squares.from, squares.to)
        && cleared & bit(from) != 0
        && removed.iter().all(|r| r.square != to)
    {
        out = (out & !bit(from)) | bit(to);
    }
    out
}

/// Keeps only the squares of `cleared` that hold a piece of `side` (a castling rook, which
/// the from/to squares do not follow, loses its status: the cautious side).
pub(crate) fn settle(cleared: Squares, pieces: &[PieceView], side: Color) -> Squares {
    let held: Squares = pieces
        .iter()
        .filter(|p| p.color == side)
        .map(|p| bit(p.square))
        .fold(0, |a, b| a | b);
    cleared & held
}

/// The model for the side `viewer` plays in `game`: `None` outside Beirut, for spectators and
/// full views. Replays the public record: each Boom of the hidden side uses one carrier up,
/// and each time it was to move with possible winning Booms (see [`threat`]) and played
/// something else, those pieces are cleared. Returns the model and the pieces cleared now.
pub(crate) fn model<P: Position>(game: &Game<P>, viewer: Viewer) -> Option<(Hidden, Squares)> {
    if P::VARIANT != kaboom_rules::Variant::Beirut {
        return None;
    }
    let own = match viewer {
        Viewer::White => Color::White,
        Viewer::Black => Color::Black,
        Viewer::Spectator | Viewer::Full => return None,
    };
    let side = own.other();
    let mut hidden = Hidden {
        side,
        carriers: u32::from(game.options().carriers),
    };
    let mut cleared: Squares = 0;
    for (i, ply) in game.plies().iter().enumerate() {
        let boom = ply.squares.detonation.is_some();
        if ply.mover == side {
            if boom {
                hidden.carriers = hidden.carriers.saturating_sub(1);
            } else if let Some(before) = game.position_after(i) {
                let pieces = before.view(viewer).pieces();
                // Every piece that could have won is shown not to carry (whatever the count).
                let all = Hidden {
                    carriers: 1,
                    ..hidden
                };
                if let Some(t) = threat(&pieces, all, cleared) {
                    cleared |= t.squares;
                }
            }
        }
        cleared = follow(cleared, ply.squares, &ply.removed);
    }
    let pieces = game.position().view(viewer).pieces();
    Some((hidden, settle(cleared, &pieces, side)))
}

/// The value of a chance node for the side to move (the hidden side) whose threat is `p`:
/// `p * BOOM_WIN + (1 - p) * x`, where `x` is the value of playing on. Mate scores of `x`
/// count as `±BOOM_WIN`, except a forced win of the side to move, which stays as it is.
pub(crate) fn combine(p: f64, x: i32, mate_bound: i32) -> i32 {
    if x >= mate_bound {
        return x;
    }
    let w = f64::from(BOOM_WIN);
    let x = f64::from(x.clamp(-BOOM_WIN, BOOM_WIN));
    (p * w + (1.0 - p) * x).round() as i32
}

/// The window for `x` (see [`combine`]) such that `x <= lower` gives a value `<= alpha`, and
/// `x >= upper` a value `>= beta`; values strictly inside are exact. Rounded outwards.
pub(crate) fn window(p: f64, alpha: i32, beta: i32, mate_bound: i32, infinity: i32) -> (i32, i32) {
    let w = f64::from(BOOM_WIN);
    let inverse = |v: i32| (f64::from(v) - p * w) / (1.0 - p);
    let lower = if alpha <= -infinity {
        -infinity
    } else if alpha > BOOM_WIN {
        // Only a forced win can exceed alpha here.
        alpha.max(mate_bound - 1)
    } else {
        let a = inverse(alpha).floor() - 1.0;
        if a < -w { -infinity } else { a as i32 }
    };
    let upper = if beta >= infinity {
        infinity
    } else if beta > BOOM_WIN {
        beta.max(mate_bound)
    } else {
        let b = inverse(beta).ceil() + 1.0;
        if b < -w { -w as i32 + 1 } else { b as i32 }
    };
    (lower, upper.max(lower + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(square: &str, color: Color, kind: Kind) -> PieceView {
        PieceView {
            square: square.parse().unwrap(),
            color,
            kind,
            carrier: false,
            frozen: false,
            imitating: None,
            locked: false,
        }
    }

    /// Two of four possible carriers next to White's king, one carrier: p = 1/2; with two
    /// carriers p = 1 - C(2,2)/C(4,2) = 5/6. A piece next to Black's own king as well does
    /// not threaten (BE-4), and a cleared piece does not count.
    #[test]
    fn threat_probability_counts_candidates() {
        let pieces = [
            piece("e1", Color::White, Kind::King),
            piece("e8", Color::Black, Kind::King),
            piece("d2", Color::Black, Kind::Knight),
            piece("f2", Color::Black, Kind::Bishop),
            piece("a7", Color::Black, Kind::Pawn),
            piece("h7", Color::Black, Kind::Pawn),
        ];
        let one = Hidden {
            side: Color::Black,
            carriers: 1,
        };
        let t = threat(&pieces, one, 0).unwrap();
        assert!((t.p - 0.5).abs() < 1e-9, "{t:?}");
        let two = Hidden { carriers: 2, ..one };
        assert!((threat(&pieces, two, 0).unwrap().p - 5.0 / 6.0).abs() < 1e-9);
        let cleared = bit("d2".parse().unwrap());
        let t = threat(&pieces, one, cleared).unwrap();
        assert!((t.p - 1.0 / 3.0).abs() < 1e-9, "{t:?}");
        assert!(threat(&pieces, Hidden { carriers: 0, ..one }, 0).is_none());
        let near_own = [
            piece("e1", Color::White, Kind::King),
            piece("e3", Color::Black, Kind::King),
            piece("e2", Color::Black, Kind::Knight),
        ];
        assert!(threat(&near_own, one, 0).is_none());
    }

    /// The window gives exact values inside and the right bounds outside.
    #[test]
    fn window_brackets_the_combined_value() {
        let (mate, inf) = (990_000, 1_000_001);
        for p in [0.05, 0.3, 0.9] {
            for (alpha, beta) in [(-50, 50), (-3_500, -2_900), (100, 2_999), (2_500, 4_000)] {
                let (lo, hi) = window(p, alpha, beta, mate, inf);
                assert!(lo < hi);
                for x in [
                    -mate - 5,
                    -5_000,
                    -3_000,
                    -100,
                    0,
                    100,
                    3_000,
                    5_000,
                    mate + 5,
                ] {
                    let v = combine(p, x, mate);
                    if x <= lo {
                        assert!(v <= alpha, "p {p} x {x} v {v} window {lo}..{hi}");
                    }
                    if x >= hi {
                        assert!(v >= beta, "p {p} x {x} v {v} window {lo}..{hi}");
                    }
                }
            }
        }
    }
}
