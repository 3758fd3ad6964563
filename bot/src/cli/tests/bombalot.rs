//! `kaboom perft | moves --variant bombalot` through [`crate::cli::analysis`]
//! (docs/rules/RULINGS.md section 5). The binary itself is run by `bot/tests/it/bombalot_cli.rs`.

use kaboom_rules::{Variant, Viewer};

use crate::cli::analysis::{self, Setup};

fn setup(fen: Option<&str>) -> Setup {
    Setup {
        variant: Variant::Bombalot,
        fen: fen.map(str::to_string),
        carriers: None,
        dead_mans_switch: false,
        ignore: Vec::new(),
    }
}

/// perft agrees with the library.
#[test]
fn bombalot_perft() {
    let game = kaboom_rules::AnyGame::new(Variant::Bombalot, kaboom_rules::GameOptions::default())
        .unwrap();
    assert_eq!(analysis::perft(&setup(None), 2).unwrap(), game.perft(2));
}

/// `moves`: the imitator cannot move on White's first turn (BA-10); after one White tweke
/// move Black's imitator moves as a tweke.
#[test]
fn bombalot_moves_lists_canonical_actions() {
    let start = analysis::moves(&setup(None), None, Viewer::Full).unwrap();
    assert!(start.legal.iter().any(|l| l.san == "d1!"));
    assert!(start.legal.iter().any(|l| l.san == "c3:c1:a3"));
    assert!(!start.legal.iter().any(|l| l.san.starts_with("a1")));
    let after = analysis::moves(&setup(None), Some("1. c3-c4"), Viewer::Spectator).unwrap();
    assert!(after.legal.iter().any(|l| l.san == "a8-a7"));
    assert!(after.fen.ends_with(" b ---- W- 0 1"), "{}", after.fen);
}
