//! `kaboom perft | moves | replay --variant nuke --carriers white=..,black=..` through
//! [`crate::cli::analysis`] (docs/ARCHITECTURE.md, "The CLI": `--carriers`, JSON `carrier`,
//! `frozen`, `loose_bombs`).

use kaboom_rules::{Variant, Viewer};
use serde_json::{Value, json};

use crate::cli::analysis::{self, Carriers, Setup};

fn setup(fen: Option<&str>, carriers: Option<&str>) -> Setup {
    Setup {
        variant: Variant::Nuke,
        fen: fen.map(str::to_string),
        carriers: carriers.map(|c| c.parse::<Carriers>().unwrap()),
        dead_mans_switch: false,
        ignore: Vec::new(),
    }
}

#[test]
fn perft_with_carriers_matches_the_regression_data() {
    // rules/tests/nuke.perft: start-e1-d8.
    let s = setup(None, Some("white=e1,black=d8"));
    assert_eq!(analysis::perft(&s, 1).unwrap(), 120);
    assert_eq!(analysis::perft(&s, 2).unwrap(), 14400);
    // A plain six-field FEN means "both still choosing": --carriers is accepted with it.
    let plain = setup(
        Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        Some("white=e1,black=d8"),
    );
    assert_eq!(analysis::perft(&plain, 2).unwrap(), 14400);
    // Without a designation nothing can move yet (NU-3): refused, not `nodes 0`.
    let e = analysis::perft(&setup(None, None), 1).unwrap_err();
    assert!(e.0.contains("--carriers"), "{e}");
}

#[test]
fn moves_lists_transfers_with_canonical_uci() {
    let s = setup(None, Some("white=e1,black=d8"));
    let out = analysis::moves(&s, Some("1. e1>e2 e4"), Viewer::Spectator).unwrap();
    assert_eq!(
        out.fen,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 e4,d8"
    );
    let legal = serde_json::to_value(&out.legal).unwrap();
    let legal = legal.as_array().unwrap();
    assert_eq!(legal.len(), 120);
    assert!(legal.contains(&json!({"san": "d8>e8 e5", "uci": "d8>e8 e5"})));
    assert!(legal.contains(&json!({"san": "e5", "uci": "e7e5"})));
}

#[test]
fn replay_reports_carriers_frozen_royals_and_loose_bombs() {
    let s = setup(None, Some("white=e1,black=d8"));
    let out = analysis::replay(&s, "1. e4", false, Viewer::Spectator).unwrap();
    let board = serde_json::to_value(&out.board).unwrap();
    let e1 = board
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["square"] == "e1")
        .unwrap();
    assert_eq!(e1["carrier"], true);
    assert_eq!(e1["frozen"], true);

    // Both pawns carry; Nxe5 blasts e5, and the chain blasts e4 (NU-6, NU-7, NU-9).
    let moves = "1. e1>e2 e4 d8>e7 e5 2. Nf3 Nc6 3. Nxe5 *";
    let out = analysis::replay(&s, moves, true, Viewer::Spectator).unwrap();
    let json = serde_json::to_value(&out).unwrap();
    let last = &json["plies"][4];
    assert_eq!(last["san"], "Nxe5");
    assert_eq!(
        last["removed"],
        json!([
            {"square": "e5", "color": "black", "kind": "pawn", "cause": "captured"},
            {"square": "e4", "color": "white", "kind": "pawn", "cause": "exploded"},
            {"square": "e5", "color": "white", "kind": "knight", "cause": "exploded"},
        ])
    );
    assert_eq!(
        json["loose_bombs"],
        json!([{"square": "e4", "count": 1}, {"square": "e5", "count": 1}])
    );
    assert_eq!(json["status"], json!({"state": "ongoing"}));
    assert!(
        json["board"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p: &Value| p.get("carrier").is_none())
    );
    assert!(json["fen"].as_str().unwrap().ends_with(" e4*,e5*"));
}

#[test]
fn replay_ends_with_a_blasted_king() {
    let fen = "k6n/8/1N6/8/8/8/8/R3K3 w - - 0 1 b6,h8";
    let out = analysis::replay(&setup(Some(fen), None), "1. Nxa8#", false, Viewer::Full).unwrap();
    let json = serde_json::to_value(&out).unwrap();
    assert_eq!(
        json["status"],
        json!({"state": "finished", "result": "1-0", "reason": "king-exploded"})
    );
}

#[test]
fn carriers_errors_are_clear() {
    let err = |s: Setup| analysis::perft(&s, 1).unwrap_err().to_string();
    let midgame = setup(
        Some("k6n/8/1N6/8/8/8/8/R3K3 w - - 0 1 b6,h8"),
        Some("white=e1,black=a8"),
    );
    assert!(err(midgame).contains("already has its carriers"));
    assert!(err(setup(None, Some("white=d8,black=d8"))).contains("own pieces"));
    assert!(err(setup(None, Some("white=e1,e2,black=d8"))).contains("one carrier per side"));
    let bad_move = match analysis::replay(
        &setup(None, Some("white=e1,black=d8")),
        "1. e1>d1 d1>d2 e4",
        false,
        Viewer::Full,
    ) {
        Ok(_) => panic!("two transfers must be refused"),
        Err(e) => e.to_string(),
    };
    assert!(
        bad_move.contains("only one transfer per turn"),
        "{bad_move}"
    );
}
