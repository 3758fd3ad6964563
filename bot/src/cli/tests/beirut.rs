//! `kaboom perft | moves | replay --variant beirut` through [`crate::cli::analysis`]
//! (`--carriers`, `--dead-mans-switch`, `--as` of docs/ARCHITECTURE.md, "The CLI"; BE-2,
//! BE-6, BE-8, BE-9). The binary itself is run by `bot/tests/it/beirut_cli.rs`.

use kaboom_rules::{Variant, Viewer};

use crate::cli::analysis::{self, Setup};

fn setup(carriers: &str, dms: bool) -> Setup {
    Setup {
        variant: Variant::Beirut,
        fen: None,
        carriers: Some(carriers.parse().unwrap()),
        dead_mans_switch: dms,
        ignore: Vec::new(),
    }
}

/// perft through the CLI agrees with the library: depth 2 is 20 x 21 with Black's
/// legal Boom@g8 (BE-3) and White's illegal Boom@d1 (BE-4).
#[test]
fn perft_with_carriers() {
    let s = setup("white=d1,black=g8", false);
    assert_eq!(analysis::perft(&s, 2).unwrap(), 420);
}

/// `moves --as`: each player sees their own Booms (BE-8); the opponent and spectators
/// see neither the Booms nor the carriers in the serialization (BE-2).
#[test]
fn moves_as_each_viewer() {
    let s = setup("white=b1,e2,black=g8,b8", false);
    let booms = |viewer: Viewer| -> (String, Vec<String>) {
        let m = analysis::moves(&s, Some("1. e4"), viewer).unwrap();
        let booms = m
            .legal
            .iter()
            .filter(|l| l.san.starts_with("Boom"))
            .map(|l| l.san.clone())
            .collect();
        (m.fen, booms)
    };
    let (fen, b) = booms(Viewer::Black);
    assert_eq!(b, ["Boom@b8", "Boom@g8"]);
    assert!(fen.ends_with(" 2 hidden b8,g8"), "{fen}");
    let (fen, b) = booms(Viewer::White);
    assert!(b.is_empty());
    assert!(fen.ends_with(" 2 b1,e4 hidden"), "{fen}");
    let (fen, b) = booms(Viewer::Spectator);
    assert!(b.is_empty());
    assert!(fen.ends_with(" 2 hidden hidden"), "{fen}");
    let (fen, _) = booms(Viewer::Full);
    assert!(fen.ends_with(" 2 b1,e4 b8,g8"), "{fen}");
}

/// `replay --dead-mans-switch --as spectator`: the blast is public (BE-6); the spectator
/// never sees a carrier until the game ends (BE-9).
#[test]
fn replay_dead_mans_switch_as_spectator() {
    let s = setup("white=b1,black=d7", true);
    let r = analysis::replay(&s, "1. e4 d5 2. exd5", false, Viewer::Spectator).unwrap();
    let causes: Vec<String> = r.plies[2]
        .removed
        .iter()
        .map(|x| {
            serde_json::to_value(x).unwrap()["cause"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(causes, ["captured", "exploded"]);
    assert!(r.fen.ends_with(" 1+dms hidden hidden"), "{}", r.fen);
    assert!(r.board.iter().all(|p| !p.carrier));

    let mate = analysis::replay(
        &setup("white=b1,black=g8", false),
        "1. f3 e5 2. g4 Qh4#",
        false,
        Viewer::Spectator,
    )
    .unwrap();
    assert!(mate.fen.ends_with(" 1 b1 g8"), "{}", mate.fen);
    let json = serde_json::to_value(&mate).unwrap();
    assert_eq!(json["status"]["reason"], "checkmate");
    assert!(mate.board.iter().filter(|p| p.carrier).count() == 2);
}

/// Bad designations are refused with the rules' reason; a serialization that already
/// has carriers refuses `--carriers`.
#[test]
fn bad_carriers_are_refused() {
    let e = analysis::perft(&setup("white=e1,black=g8", false), 1).unwrap_err();
    assert!(
        e.0.contains("e1 holds your king; a Beirut carrier cannot be the king"),
        "{e}"
    );
    let e = analysis::perft(&setup("white=b1,g1,black=g8", false), 1).unwrap_err();
    assert!(e.0.contains("you need exactly 2 carriers"), "{e}");
    let with_fen = Setup {
        fen: Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 1 d1 g8".into()),
        ..setup("white=b1,black=g8", false)
    };
    assert!(analysis::perft(&with_fen, 1).is_err());
    let fen_only = Setup {
        carriers: None,
        ..with_fen
    };
    assert_eq!(analysis::perft(&fen_only, 2).unwrap(), 420);
}
