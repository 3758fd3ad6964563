//! The analysis commands refuse what cannot be right, say why and how to fix it,
//! and analyse an impossible position anyway only when asked (`--force`, `--ignore`).

use crate::cli::analysis::{self, Setup};
use kaboom_rules::validity::ProblemKind;
use kaboom_rules::{Variant, Viewer};

fn setup(variant: Variant, fen: Option<&str>, carriers: Option<&str>) -> Setup {
    Setup {
        variant,
        fen: fen.map(str::to_string),
        carriers: carriers.map(|c| c.parse().unwrap()),
        dead_mans_switch: false,
        ignore: Vec::new(),
    }
}

#[test]
fn beirut_and_nuke_without_carriers_say_how_to_give_them() {
    for variant in [Variant::Beirut, Variant::Nuke] {
        let s = setup(variant, None, None);
        let e = analysis::perft(&s, 3).unwrap_err();
        assert!(e.0.contains("has no carriers yet"), "{e}");
        assert!(e.0.contains("--carriers white="), "{e}");
        assert!(e.0.contains("--fen"), "{e}");
        let e = analysis::moves(&s, None, Viewer::Full).err().unwrap();
        assert!(e.0.contains("white and black must choose"), "{e}");
        let e = analysis::replay(&s, "1. e4", false, Viewer::Full)
            .err()
            .unwrap();
        assert!(e.0.contains("--carriers"), "{e}");
    }
    // With carriers the same commands count and list.
    let s = setup(Variant::Nuke, None, Some("white=e1,black=d8"));
    assert!(analysis::perft(&s, 1).unwrap() > 0);
}

#[test]
fn a_kingless_atomic_fen_is_refused_unless_forced() {
    let mut s = setup(Variant::Atomic, Some("8/8/8/8/8/8/8/8 w - - 0 1"), None);
    let e = analysis::moves(&s, None, Viewer::Full).err().unwrap();
    assert!(e.0.contains("white has no king"), "{e}");
    assert!(e.0.contains("black has no king"), "{e}");
    assert!(e.0.contains("--ignore missing-king"), "{e}");
    assert!(e.0.contains("--force"), "{e}");
    s.ignore = vec![ProblemKind::PawnOnBackRank];
    assert!(
        analysis::perft(&s, 1).is_err(),
        "other kinds do not excuse it"
    );
    s.ignore = vec![ProblemKind::MissingKing];
    assert_eq!(analysis::perft(&s, 1).unwrap(), 0);
}

#[test]
fn more_pieces_than_the_setup_are_refused() {
    // Nine white pawns.
    let s = setup(
        Variant::Atomic,
        Some("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1"),
        None,
    );
    let e = analysis::perft(&s, 1).unwrap_err();
    assert!(e.0.contains("white has 9 pawns"), "{e}");
    assert!(e.0.contains("impossible-material"), "{e}");
    // Two kings for Black in Bomberman Chess is refused by its serialization already.
    let e = analysis::perft(
        &setup(
            Variant::Bomberman,
            Some("kk8/10/10/10/10/10/10/5K4 w - - 0 1"),
            None,
        ),
        1,
    )
    .unwrap_err();
    assert!(e.0.contains("2 kings"), "{e}");
}

#[test]
fn a_long_legal_move_list_is_cut() {
    // Nuke has hundreds of actions with transfers; a broken move lists twelve of them.
    let s = setup(Variant::Nuke, None, Some("white=e1,black=d8"));
    let e = analysis::replay(&s, "e1>e9", false, Viewer::Full)
        .err()
        .unwrap();
    assert!(e.0.len() < 600, "{} characters: {e}", e.0.len());
    assert!(e.0.contains(" more"), "{e}");
}
