//! `kaboom perft | moves | replay --variant bomberman`, run as a user would.

use crate::common;

use common::{json, kaboom};

/// BM-10: the seed's first sample game, movetext verbatim (comments and all).
const GAME1: &str = include_str!("../../../rules/tests/data/bomberman-game1.txt");

#[test]
fn bomberman_perft_from_the_start() {
    let out = kaboom(&["perft", "--variant", "bomberman", "2"]);
    let text = String::from_utf8(out.stdout).unwrap();
    // BM-1: 26 actions for each side, none interfering at depth 2.
    assert_eq!(text.lines().last(), Some("nodes 676"));
}

#[test]
fn bomberman_replay_of_the_seed_game_bm10() {
    let v = json(&kaboom(&[
        "replay",
        "--variant",
        "bomberman",
        "--moves",
        GAME1,
    ]));
    let plies = v["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 83);
    assert_eq!(
        v["fen"],
        "4kr4/3OD5/2Pp6/ppo7/9P/2P5P1/1P5P2/7K2 b - - 0 42"
    );
    assert_eq!(v["status"]["state"], "finished");
    assert_eq!(v["status"]["result"], "1-0");
    assert_eq!(v["status"]["reason"], "checkmate");
    // 25. Oxa1->a2, g1: the bomb, White's a2 pawn and Black's rook on g1, all exploded.
    let oxa1 = &plies[48];
    assert_eq!(oxa1["san"], "Oxa1->a2,g1");
    assert_eq!(oxa1["uci"], "Oxa1");
    let removed: Vec<(&str, &str, &str)> = oxa1["removed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["square"].as_str().unwrap(),
                r["kind"].as_str().unwrap(),
                r["cause"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        removed,
        [
            ("a1", "bomb", "exploded"),
            ("a2", "pawn", "exploded"),
            ("g1", "rook", "exploded")
        ]
    );
    assert_eq!(plies[50]["san"], "h8=KB+");
}

#[test]
fn bomberman_moves_of_the_first_sample_problem_bm9() {
    let v = json(&kaboom(&[
        "moves",
        "--variant",
        "bomberman",
        "--fen",
        "1r6k1/6O3/7K2/10/9R/10/10/10 w - - 0 2",
    ]));
    let legal = v["legal"].as_array().unwrap();
    assert!(
        legal
            .iter()
            .any(|m| m["san"] == "Og8#" && m["uci"] == "g7g8")
    );
    assert!(
        legal
            .iter()
            .any(|m| m["san"] == "Oxg7" && m["uci"] == "Oxg7")
    );
}

#[test]
fn bomberman_illegal_move_names_the_ply_and_the_reason() {
    let out = kaboom(&[
        "replay",
        "--variant",
        "bomberman",
        "--fen",
        "1r6k1/7O2/7K2/10/9R/10/10/10 w - - 0 2",
        "--moves",
        "2. Oh8 Kxh8",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("ply 2") && err.contains("destroy your own king"),
        "{err}"
    );
}
