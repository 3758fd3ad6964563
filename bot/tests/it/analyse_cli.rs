//! `kaboom analyse`, the practice opponent's search on the command line.

use crate::common::{json, kaboom};

/// AT-2/AT-6: the blast next to the king is found, scored as a win in one ply, and printed
/// as JSON with the principal variation.
#[test]
fn analyse_finds_the_winning_blast() {
    let out = kaboom(&[
        "analyse",
        "--variant",
        "atomic",
        "--fen",
        "4k3/5p2/8/7Q/8/8/8/4K3 w - - 0 1",
        "--depth",
        "3",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert_eq!(v["best"], "Qxf7");
    assert_eq!(v["uci"], "h5f7");
    assert_eq!(v["score"]["kind"], "win");
    assert_eq!(v["score"]["plies"], 1);
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["pv"][0], "Qxf7");
    assert!(v["nodes"].as_u64().unwrap() > 0);
}

/// `--moves` plays first; `--nodes` bounds the search.
#[test]
fn analyse_after_moves_within_a_node_budget() {
    let out = kaboom(&[
        "analyse",
        "--variant",
        "bomberman",
        "--moves",
        "e4 e5",
        "--nodes",
        "3000",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json(&out);
    assert!(v["nodes"].as_u64().unwrap() <= 3000, "{v}");
    assert_eq!(v["to_move"], "white");
    assert!(v["best"].as_str().is_some_and(|s| !s.is_empty()));
}

/// Refusals say what was wrong and what would be right.
#[test]
fn analyse_refuses_what_it_cannot_search() {
    for (args, expected) in [
        (
            &["analyse", "--variant", "beirut"][..],
            "--carriers white=SQ,black=SQ",
        ),
        (
            &[
                "analyse",
                "--variant",
                "atomic",
                "--depth",
                "2",
                "--nodes",
                "10",
            ],
            "not several",
        ),
        (
            &["analyse", "--variant", "atomic", "--depth", "99"],
            "1 to 64",
        ),
        (
            &[
                "analyse",
                "--variant",
                "atomic",
                "--fen",
                "8/8/8/8/8/8/8/4K3 b - - 0 1",
            ],
            "black has no king",
        ),
        (
            &[
                "analyse",
                "--variant",
                "atomic",
                "--fen",
                "8/8/8/8/8/8/8/4K3 b - - 0 1",
                "--ignore",
                "missing-king",
            ],
            "the game is over",
        ),
    ] {
        let out = kaboom(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}

/// `kaboom analyse-game` (AT-6): 1. Kc2?? walks the king next to b2, where ...Nxb2 blows it
/// up; the JSON marks it a blunder with the better move Qxf7 and its line, gives each side
/// an accuracy, and has exactly the documented fields per ply.
#[test]
fn analyse_game_marks_the_planted_blunder() {
    let out = kaboom(&[
        "analyse-game",
        "--variant",
        "atomic",
        "--fen",
        "4k3/5p2/8/7Q/8/3n4/1P6/3K4 w - - 0 1",
        "--moves",
        "1. Kc2 Nxb2",
        "--nodes",
        "20000",
    ]);
    let v = json(&out);
    let plies = v["plies"].as_array().expect("plies");
    assert_eq!(plies.len(), 2);
    let first = &plies[0];
    assert_eq!(
        (
            &first["ply"],
            &first["san"],
            &first["mark"],
            &first["better"]
        ),
        (
            &serde_json::json!(1),
            &serde_json::json!("Kc2"),
            &serde_json::json!("blunder"),
            &serde_json::json!("Qxf7")
        )
    );
    assert_eq!(first["line"][0], "Qxf7");
    assert_eq!(
        first["eval"],
        serde_json::json!({"kind": "loss", "plies": 1})
    );
    assert_eq!(plies[1]["mark"], serde_json::Value::Null);
    for side in ["white", "black"] {
        let accuracy = v["accuracy"][side].as_f64().expect("an accuracy per side");
        assert!((0.0..=100.0).contains(&accuracy), "{side}: {accuracy}");
    }
    let keys: Vec<&str> = first
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .filter(|k| ["ply", "san", "eval", "mark", "better", "line"].contains(k))
        .collect();
    assert_eq!(keys.len(), 6, "{first}");
}

/// `kaboom analyse-game --pgn FILE` reads the file's movetext (tags skipped); an empty
/// movetext and `--nodes 0` are refused with what would be right.
#[test]
fn analyse_game_reads_a_pgn_file_and_refuses_bad_input() {
    let dir = std::env::temp_dir().join(format!("kaboom-analyse-game-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("game.pgn");
    std::fs::write(
        &pgn,
        "[Event \"Casual\"]\n[Variant \"Atomic\"]\n\n1. e4 e5 2. Nf3 1-0\n",
    )
    .unwrap();
    let out = kaboom(&[
        "analyse-game",
        "--variant",
        "atomic",
        "--pgn",
        pgn.to_str().unwrap(),
        "--nodes",
        "2000",
    ]);
    let v = json(&out);
    let sans: Vec<&str> = v["plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["san"].as_str().unwrap())
        .collect();
    assert_eq!(sans, ["e4", "e5", "Nf3"]);
    std::fs::remove_dir_all(&dir).unwrap();

    let (ok, _, err) =
        crate::common::kaboom_text(&["analyse-game", "--variant", "atomic", "--moves", "1-0"]);
    assert!(!ok);
    assert_eq!(
        err,
        "kaboom: the movetext holds no move: give the game's moves, e.g. --moves \"1. e4 e5 2. Nf3\"\n"
    );
    let (ok, _, err) = crate::common::kaboom_text(&[
        "analyse-game",
        "--variant",
        "atomic",
        "--moves",
        "1. e4",
        "--nodes",
        "0",
    ]);
    assert!(!ok);
    assert_eq!(
        err,
        "kaboom: --nodes 0 searches nothing: give at least 1 node per position\n"
    );
}
