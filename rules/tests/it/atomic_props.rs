//! Property tests over random legal Atomic games: FEN round trip, SAN and
//! coordinate round trip for every legal move, no panic, kings never capture, and the
//! removal report (C-6) consistent with the board difference.

use std::collections::BTreeMap;

use kaboom_rules::atomic::Atomic;
use kaboom_rules::{Cause, Color, Kind, Position, Square, Viewer};
use proptest::prelude::*;

fn pieces(p: &Atomic) -> BTreeMap<Square, (Color, Kind)> {
    p.board_view()
        .pieces
        .into_iter()
        .map(|v| (v.square, (v.color, v.kind)))
        .collect()
}

fn check_position(p: &Atomic) -> Result<(), TestCaseError> {
    let fen = p.to_fen();
    let back = Atomic::from_fen(&fen).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(back.to_fen(), fen.clone());
    prop_assert_eq!(back.repetition_key(), p.repetition_key());
    prop_assert_eq!(back.view(Viewer::Spectator).to_fen(), fen);
    let legal = p.legal_actions();
    for mv in &legal {
        // AT-5: kings never capture.
        prop_assert!(!(mv.moving_kind() == Kind::King && mv.captured_kind().is_some()));
        let san = p.san(mv);
        prop_assert_eq!(
            p.parse_action(&san).ok(),
            Some(*mv),
            "SAN {} does not round trip",
            san
        );
        let with_marks = p.san_with_marks(mv);
        prop_assert_eq!(
            p.parse_action(&with_marks).ok(),
            Some(*mv),
            "SAN {} does not round trip",
            with_marks
        );
        let uci = p.uci(mv);
        prop_assert_eq!(
            p.parse_action(&uci).ok(),
            Some(*mv),
            "UCI {} does not round trip",
            uci
        );
    }
    Ok(())
}

fn check_report(
    before: &Atomic,
    mv: &<Atomic as Position>::Action,
) -> Result<Atomic, TestCaseError> {
    let mut after = before.clone();
    let removed = after.play_reported(mv);
    let (was, now) = (pieces(before), pieces(&after));
    // Every piece that left the board is reported exactly once, and nothing else.
    for color in Color::ALL {
        let count =
            |m: &BTreeMap<Square, (Color, Kind)>| m.values().filter(|(c, _)| *c == color).count();
        let reported = removed.iter().filter(|r| r.piece.color == color).count();
        prop_assert_eq!(
            count(&was) - count(&now),
            reported,
            "{:?} removals of {} for {}",
            removed,
            color,
            before.san(mv)
        );
    }
    for r in &removed {
        prop_assert!(
            !now.contains_key(&r.square),
            "{} is reported removed but occupied",
            r.square
        );
        match r.cause {
            // AT-2: only the captured piece is 'captured'; pawns are only ever exploded as the capturer.
            Cause::Captured => prop_assert_eq!(
                was.get(&r.square).copied(),
                Some((r.piece.color, r.piece.kind))
            ),
            Cause::Exploded => {
                prop_assert!(r.piece.kind != Kind::Pawn || r.square == mv.to_square())
            }
            other => prop_assert!(false, "atomic never removes by {:?}", other),
        }
    }
    // The mover's king survives every legal move (AT-5).
    prop_assert!(
        after
            .board_view()
            .pieces
            .iter()
            .any(|p| p.kind == Kind::King && p.color == before.turn())
    );
    Ok(after)
}

proptest! {
    #![proptest_config(crate::proptest_config(48))]

    #[test]
    fn random_games_keep_every_invariant(choices in prop::collection::vec(any::<prop::sample::Index>(), 1..120)) {
        let mut p = Atomic::new();
        for choice in choices {
            check_position(&p)?;
            let legal = p.legal_actions();
            if legal.is_empty() {
                prop_assert!(p.variant_outcome().is_some(), "no legal move but no outcome: {}", p.to_fen());
                break;
            }
            prop_assert!(p.variant_outcome().is_none());
            let mv = legal[choice.index(legal.len())];
            p = check_report(&p, &mv)?;
        }
    }
}
