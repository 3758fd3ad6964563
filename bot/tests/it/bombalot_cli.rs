//! The `kaboom` CLI with Bombalot (docs/rules/RULINGS.md section 5; the JSON vocabulary of
//! docs/ARCHITECTURE.md, "The CLI"):
//! `perft`, `moves` and `replay --variant bombalot`, through the binary itself (the
//! analysis functions are unit-tested in `bot/src/cli/tests`).

use crate::common;

use common::kaboom_text;
use kaboom_rules::{GameOptions, Variant};

/// perft through the CLI agrees with the library and with rules/tests/bombalot.perft.
#[test]
fn bombalot_perft_through_the_cli() {
    let nodes = kaboom_rules::AnyGame::new(Variant::Bombalot, GameOptions::default())
        .unwrap()
        .perft(2);
    let (ok, stdout, _) = kaboom_text(&["perft", "--variant", "bombalot", "2"]);
    assert!(ok);
    assert_eq!(
        stdout.lines().last(),
        Some(format!("nodes {nodes}").as_str())
    );
    // A mid-game serialization with a goal and last moved kinds (BA-2, BA-10).
    let fen = "t7/8/8/8/8/8/8/T7 w --S- -t 0 1";
    let (ok, stdout, _) = kaboom_text(&["perft", "--variant", "bombalot", "--fen", fen, "1"]);
    assert!(ok);
    assert_eq!(stdout.lines().last(), Some("nodes 2"));
}

/// `replay`: removals with their causes (C-6), bomb notation kept by the movetext
/// tokenizer, the imitator's kind in the board JSON, and the final status.
#[test]
fn bombalot_replay_reports_removals_and_board() {
    let (ok, stdout, stderr) = kaboom_text(&[
        "replay",
        "--variant",
        "bombalot",
        "--moves",
        "1. c3-c4 c6-c5 2. d1-c1! a8-a7",
    ]);
    assert!(ok, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let plies = json["plies"].as_array().unwrap();
    assert_eq!(plies[2]["san"], "d1-c1!");
    let removed = plies[2]["removed"].as_array().unwrap();
    assert_eq!(removed.len(), 5);
    assert!(removed.iter().all(|r| r["cause"] == "exploded"));
    let board = json["board"].as_array().unwrap();
    // White's last action was a bomb's, so Black's imitator stepped as a bomb (BA-10).
    let imitator = board.iter().find(|p| p["square"] == "a7").unwrap();
    assert_eq!(imitator["imitating"], "bomb");
    assert_eq!(json["status"]["state"], "ongoing");
    // An illegal action says in words which rule it breaks and lists legal moves.
    let (ok, _, stderr) = kaboom_text(&["replay", "--variant", "bombalot", "--moves", "1. a1-a2"]);
    assert!(!ok);
    assert!(
        stderr.starts_with("kaboom: ply 1 (a1-a2): a1-a2 is not legal here: the imitator on a1 cannot move before the opponent has moved; legal moves: b1-a3, "),
        "{stderr}"
    );
}
