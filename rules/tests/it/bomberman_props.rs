//! Property tests over random Bomberman games: no panic, FEN and SAN round trips for
//! every legal action, removal reports that match the board, the position after every
//! ply is legal (BM-8), and check agrees with its definition played out move by move.

use kaboom_rules::bomberman::{Bomberman, BombermanAction};
use kaboom_rules::{Color, GameOptions, Kind, Piece, Position};
use proptest::prelude::*;

/// BM-8 taken literally: `side` is in check when the opponent, if it were its turn,
/// has an action (by movement rules alone) that removes `side`'s king and not its own.
/// Computed by playing every such action, independently of the engine's shortcut.
fn check_by_definition(pos: &Bomberman, side: Color) -> bool {
    let theirs = pos.with_turn(!side);
    theirs.pseudo_legal_actions().iter().any(|a| {
        let removed = theirs.clone().play_reported(a);
        let lost = |c: Color| removed.iter().any(|r| r.piece == Piece::new(c, Kind::King));
        lost(side) && !lost(!side)
    })
}

fn piece_count(pos: &Bomberman) -> usize {
    pos.board_view().pieces.len()
}

fn check_position(pos: &Bomberman) {
    let fen = pos.to_fen();
    let back = Bomberman::from_fen(&fen).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(&back, pos, "FEN round trip of {fen}");
    for side in Color::ALL {
        assert_eq!(
            pos.is_check(side),
            check_by_definition(pos, side),
            "check of {side} in {fen}"
        );
    }
    let legal = pos.legal_actions();
    for action in &legal {
        let san = pos.san(action);
        assert_eq!(
            &pos.parse_action(&san).unwrap(),
            action,
            "SAN {san} in {fen}"
        );
        let uci = pos.uci(action);
        assert_eq!(
            &pos.parse_action(&uci).unwrap(),
            action,
            "UCI {uci} in {fen}"
        );
        let shown = pos.san_with_marks(action);
        assert_eq!(
            &pos.parse_action(&shown).unwrap(),
            action,
            "{shown} in {fen}"
        );
        let mut after = pos.clone();
        let removed = after.play_reported(action);
        assert_eq!(
            piece_count(pos) - removed.len(),
            piece_count(&after),
            "removal report of {san} in {fen}"
        );
        assert!(
            !after.is_check(pos.turn()),
            "{san} leaves the mover in check in {fen}"
        );
    }
    // Checkmate and stalemate follow from the legal actions (BM-8).
    match pos.variant_outcome() {
        None => assert!(!legal.is_empty()),
        Some(o) => {
            assert!(legal.is_empty());
            assert_eq!(o.winner.is_some(), pos.is_check(pos.turn()));
        }
    }
}

/// A game from the start position: each position is checked ([`check_position`]) before
/// `pick` chooses, from the legal actions and the next of `choices`, the action to play;
/// `played` then sees the position and the side that moved. Ends early when nothing is legal.
fn random_game(
    choices: &[u16],
    mut pick: impl FnMut(&Bomberman, &[BombermanAction], u16) -> BombermanAction,
    mut played: impl FnMut(&Bomberman, Color) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    let mut pos = Bomberman::start(&GameOptions::default()).unwrap();
    for &choice in choices {
        check_position(&pos);
        let legal = pos.legal_actions();
        if legal.is_empty() {
            break;
        }
        let action = pick(&pos, &legal, choice);
        let mover = pos.turn();
        pos.play_unchecked(&action);
        played(&pos, mover)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(crate::proptest_config(24))]

    #[test]
    fn random_games_keep_every_invariant(choices in proptest::collection::vec(any::<u16>(), 1..100)) {
        random_game(
            &choices,
            |_, legal, choice| legal[choice as usize % legal.len()],
            |pos, mover| {
                prop_assert!(!pos.is_check(mover));
                Ok(())
            },
        )?;
    }

    /// Games biased towards detonations and bomb captures, where the rules are subtle.
    #[test]
    fn random_explosive_games_keep_every_invariant(choices in proptest::collection::vec(any::<u16>(), 1..60)) {
        random_game(
            &choices,
            |pos, legal, choice| {
                let loud: Vec<_> = legal
                    .iter()
                    .filter(|a| {
                        let mut after = pos.clone();
                        !after.play_reported(a).is_empty()
                    })
                    .copied()
                    .collect();
                let pool = if choice % 3 == 0 && !loud.is_empty() { &loud[..] } else { legal };
                pool[(choice / 3) as usize % pool.len()]
            },
            |_, _| Ok(()),
        )?;
    }
}

proptest! {
    #![proptest_config(crate::proptest_config(512))]

    /// Bad input gets an error, never a panic (action text).
    #[test]
    fn arbitrary_action_text_never_panics(
        text in "[KQDORBNPa-kx0-9=+#!?.\\->, O]{0,12}",
        other in any::<String>(),
    ) {
        let pos = Bomberman::start(&GameOptions::default()).unwrap();
        let _ = pos.parse_action(&text);
        let _ = pos.parse_action(&other);
    }

    /// Bad input gets an error, never a panic (serialization).
    #[test]
    fn arbitrary_fen_never_panics(
        text in "[0-9KQDORBNPkqdorbnpwx/ -]{0,70}",
        other in any::<String>(),
    ) {
        if let Ok(pos) = Bomberman::from_fen(&text) {
            prop_assert_eq!(Bomberman::from_fen(&pos.to_fen()).unwrap(), pos);
        }
        let _ = Bomberman::from_fen(&other);
    }
}
