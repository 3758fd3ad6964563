//! Bomberman serialization (FEN with 10 files) and notation (SAN with `O`, `Ox`, `KB`;
//! C-5, BM-5, BM-10; docs/notation/bomberman.md).

use kaboom_rules::bomberman::{Bomberman, BombermanAction, CastlingSide, START_FEN};
use kaboom_rules::{ActionError, GameOptions, Kind, Position, Square};

fn fen(text: &str) -> Bomberman {
    Bomberman::from_fen(text).unwrap_or_else(|e| panic!("{e}"))
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn fen_error(text: &str) -> String {
    match Bomberman::from_fen(text) {
        Err(e) => e.reason,
        Ok(_) => panic!("{text} should be refused"),
    }
}

/// C-1, BM-1: ten files round-trip through the serialization.
#[test]
fn fen_round_trip_with_ten_files_and_all_fields() {
    let start = Bomberman::start(&GameOptions::default()).unwrap();
    assert_eq!(start.to_fen(), START_FEN);
    assert_eq!(fen(START_FEN), start);
    for text in [
        "1r6k1/6O3/7K2/10/9R/10/10/10 w - - 0 2",
        "ornbdk2ro/pppppppppp/10/10/4P4p/10/PPPP1PPPPP/ORNBDKBNRO b KQk e3 0 3",
        "4k5/10/10/9Q/2q7/10/10/5K4 w - - 37 90",
    ] {
        assert_eq!(fen(text).to_fen(), text);
    }
    // EPD without clocks reads as 0 1.
    assert_eq!(
        fen("4k5/10/10/10/10/10/10/5K4 b - -").to_fen(),
        "4k5/10/10/10/10/10/10/5K4 b - - 0 1"
    );
    // Split counts ("5" + "5") are read too, and written back as "10".
    assert_eq!(
        fen("4k5/55/10/10/10/10/10/5K4 w - - 0 1").to_fen(),
        "4k5/10/10/10/10/10/10/5K4 w - - 0 1"
    );
}

/// Serialization errors say what is wrong.
#[test]
fn fen_errors_say_what_is_wrong() {
    let cases = [
        ("4k5/10/10/10/10/10/5K4 w - - 0 1", "8"),
        ("4k5/10/10/10/10/10/10/5K3 w - - 0 1", "10"),
        ("4k5/10P/10/10/10/10/10/5K4 w - - 0 1", "more than 10"),
        (
            "4k5/10/10/10/10/10/10/5K2X1 w - - 0 1",
            "'X' is not a piece",
        ),
        ("10/10/10/10/10/10/10/5K4 w - - 0 1", "black has 0 kings"),
        ("4k5/10/10/10/10/10/10/5K4 x - - 0 1", "w or b"),
        ("4k5/10/10/10/10/10/10/5K4 w K - 0 1", "rook on i1"),
        ("4k5/10/10/10/10/10/10/5K4 w - e3 0 1", "en passant"),
        ("4k5/10/10/10/10/10/10/5K4 w - - x 1", "halfmove"),
        ("4k5/10/10/10/10/10/10/5K4 w - - 0 0", "fullmove"),
        ("4k4P/10/10/10/10/10/10/5K4 w - - 0 1", "rank 1 or 8"),
        ("4k5/10/10/10/10/10/10/4RK4 w - - 0 1", "black is in check"),
        ("4k5/10/10/10/10/10/10/5K4 w", "6 fields"),
    ];
    for (text, expected) in cases {
        let reason = fen_error(text);
        assert!(reason.contains(expected), "{text}: {reason}");
    }
    // Check from a bomb counts too (BM-8): White's bomb on e4 would blast e8, not f1.
    assert!(fen_error("4k5/10/10/10/4O5/10/10/5K4 w - - 0 1").contains("check"));
}

/// C-5, C-1: SAN disambiguation on files a-j.
#[test]
fn san_disambiguation_works_with_files_up_to_j() {
    // Rooks on b1 and i1 both reach e1; on j2 and j7 both reach j4; i1 and j2 reach i2.
    let pos = fen("4k5/9R/10/10/10/10/9R/KR6R1 w - - 0 1");
    let sans: Vec<String> = pos.legal_actions().iter().map(|a| pos.san(a)).collect();
    for expected in ["Rbe1", "Rie1", "R2j4", "R7j4", "Rii2", "Rji2"] {
        assert!(
            sans.contains(&expected.to_string()),
            "{expected} in {sans:?}"
        );
    }
    let action = pos.parse_action("Rie1").unwrap();
    assert_eq!(
        action,
        BombermanAction::Move {
            from: sq("i1"),
            to: sq("e1"),
            promotion: None
        }
    );
    match pos.parse_action("Re1") {
        Err(ActionError::Illegal(e)) => assert!(e.reason.contains("ambiguous"), "{e}"),
        other => panic!("{other:?}"),
    }
}

/// BM-4, BM-5: castling text is not a bomb move.
#[test]
fn castling_is_not_confused_with_a_bomb_move() {
    // White's bomb on j2 can step to i2 or i3; O-O castles; O-O-O has no right.
    let pos = fen("4k5/10/10/10/10/10/9O/5K2R1 w K - 0 1");
    let castle = BombermanAction::Castle(CastlingSide::King);
    assert_eq!(pos.parse_action("O-O").unwrap(), castle);
    assert_eq!(pos.parse_action("0-0").unwrap(), castle);
    assert_eq!(pos.parse_action("O-O+").unwrap(), castle);
    assert_eq!(pos.san(&castle), "O-O");
    assert!(matches!(
        pos.parse_action("Oi2").unwrap(),
        BombermanAction::Move { .. }
    ));
    match pos.parse_action("O-O-O") {
        Err(ActionError::Illegal(e)) => assert!(e.reason.starts_with("castling"), "{e}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        pos.parse_action("Oxj2").unwrap(),
        BombermanAction::Detonate(_)
    ));
}

/// BM-5, BM-10: removal suffixes and marks are display additions.
#[test]
fn detonation_text_with_removal_suffix_and_marks() {
    let pos = Bomberman::start(&GameOptions::default()).unwrap();
    let action = BombermanAction::Detonate(sq("a1"));
    for text in [
        "Oxa1",
        "Oxa1->a2,b1",
        "Oxa1->a2, b1",
        "Oxa1->f8,j7",
        "Oxa1!",
        "Oxa1.",
    ] {
        assert_eq!(pos.parse_action(text).unwrap(), action, "{text}");
    }
    assert_eq!(pos.san(&action), "Oxa1");
    assert_eq!(pos.uci(&action), "Oxa1");
}

/// Q is the King Battler, in the serialization and in SAN input (BM-3;
/// docs/notation/bomberman.md).
#[test]
fn q_is_read_as_the_king_battler() {
    let pos = fen("4k5/10/10/10/10/10/10/Q4K4 w - - 0 1");
    let action = pos.parse_action("Qe5").unwrap();
    assert_eq!(pos.san(&action), "KBe5");
    assert_eq!(pos.parse_action("KBe5").unwrap(), action);
    assert_eq!(pos.uci(&action), "a1e5");
    assert_eq!(pos.piece_at(sq("a1")).unwrap().kind, Kind::KingBattler);
}

/// C-5: text outside the grammar is a parse error, not an illegal move.
#[test]
fn text_outside_the_grammar_is_a_parse_error() {
    let pos = Bomberman::start(&GameOptions::default()).unwrap();
    for text in ["", "hello", "e9", "k4", "Zf3", "Ox", "Oxk1", "e2e9", "Nf3x"] {
        assert!(
            matches!(pos.parse_action(text), Err(ActionError::Parse(_))),
            "{text}: {:?}",
            pos.parse_action(text)
        );
    }
    match pos.parse_action("e3=N") {
        Err(ActionError::Illegal(e)) => assert!(e.reason.contains("last rank"), "{e}"),
        other => panic!("{other:?}"),
    }
    // Well-formed but not legal: an illegal-action error with legal alternatives.
    match pos.parse_action("Nf3") {
        Err(ActionError::Illegal(e)) => {
            assert!(e.reason.contains("no knight"), "{e}");
            assert_eq!(e.legal.len(), 26);
        }
        other => panic!("{other:?}"),
    }
}

/// C-5: the coordinate form round-trips.
#[test]
fn coordinate_form_round_trips() {
    let pos = Bomberman::start(&GameOptions::default()).unwrap();
    for action in pos.legal_actions() {
        assert_eq!(pos.parse_action(&pos.uci(&action)).unwrap(), action);
        assert_eq!(pos.parse_action(&pos.san(&action)).unwrap(), action);
    }
    assert_eq!(
        pos.parse_action("j2j4").unwrap(),
        pos.parse_action("j4").unwrap()
    );
}

/// Regression guard, C-4: clocks near u32::MAX in a FEN do not overflow.
#[test]
fn huge_clocks_do_not_overflow() {
    let pos = fen("4k5/10/10/10/10/10/10/5K4 b - - 4294967295 4294967295");
    let mut after = pos.clone();
    after.play_unchecked(&pos.parse_action("Kd8").unwrap());
    assert_eq!(after.fullmoves(), u32::MAX);
    assert_eq!(after.halfmove_clock(), u32::MAX);
}
