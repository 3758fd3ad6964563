//! The `kaboom` CLI with Bombalot (RULES.md section 5; INTERFACES.md JSON vocabulary):
//! `perft`, `moves` and `replay --variant bombalot`, through `kaboom_bot::cli::analysis` and
//! through the binary itself.

use crate::common;

use common::kaboom_text;
use kaboom_bot::cli::analysis::{self, Setup};
use kaboom_rules::{Variant, Viewer};

fn setup(fen: Option<&str>) -> Setup {
    Setup {
        variant: Variant::Bombalot,
        fen: fen.map(str::to_string),
        carriers: None,
        dead_mans_switch: false,
    }
}

/// perft through the CLI agrees with the library and with rules/tests/bombalot.perft.
#[test]
fn bombalot_perft_through_the_cli() {
    let nodes = analysis::perft(&setup(None), 2).unwrap();
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
    // An illegal action names the ruling and lists legal moves.
    let (ok, _, stderr) = kaboom_text(&["replay", "--variant", "bombalot", "--moves", "1. a1-a2"]);
    assert!(!ok);
    assert!(stderr.contains("BA-10"), "{stderr}");
}
