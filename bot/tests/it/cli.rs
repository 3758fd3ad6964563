//! The `kaboom perft | moves | replay` commands, run as a user would.

use crate::common;

use common::{json, kaboom};

#[test]
fn perft_prints_nodes_last() {
    let out = kaboom(&["perft", "--variant", "atomic", "3"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().last(), Some("nodes 8902"));
    let out = kaboom(&[
        "perft",
        "--variant",
        "atomic",
        "--fen",
        "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1",
        "2",
    ]);
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), "nodes 1238");
}

/// `perft 4294967295` tried to allocate 103 GB and `perft --variant bomberman
/// 24925` overflowed the stack; both are refused at once with the cap in the message.
#[test]
fn perft_refuses_depths_past_the_cap() {
    for args in [
        &["perft", "--variant", "atomic", "4294967295"][..],
        &["perft", "--variant", "bomberman", "24925"],
        &["perft", "--variant", "nuke", "11"],
    ] {
        let started = std::time::Instant::now();
        let out = kaboom(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("is too deep"), "{err}");
        assert!(err.contains("from 0 to 10"), "{err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(started.elapsed() < std::time::Duration::from_secs(10));
    }
    let out = kaboom(&["perft", "--variant", "bomberman", "0"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), "nodes 1");
}

#[test]
fn moves_lists_legal_actions_as_json() {
    let v = json(&kaboom(&[
        "moves",
        "--variant",
        "atomic",
        "--moves",
        "1. e4 e5",
    ]));
    assert_eq!(v["to_move"], "white");
    assert_eq!(
        v["fen"],
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    let legal = v["legal"].as_array().unwrap();
    assert!(
        legal
            .iter()
            .any(|m| m["san"] == "Nf3" && m["uci"] == "g1f3")
    );
    assert_eq!(legal.len(), 29);
}

#[test]
fn replay_reports_explosions_and_the_result() {
    let v = json(&kaboom(&[
        "replay",
        "--variant",
        "atomic",
        "--moves",
        "1. Nf3 a6 2. Ng5 {heading for f7} a5 3. Nxf7! 1-0",
    ]));
    assert_eq!(v["variant"], "atomic");
    let plies = v["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 5);
    assert_eq!(plies[4]["san"], "Nxf7#");
    assert_eq!(plies[4]["uci"], "g5f7");
    let removed = plies[4]["removed"].as_array().unwrap();
    assert_eq!(
        removed[0],
        serde_json::json!({"square": "f7", "color": "black", "kind": "pawn", "cause": "captured"})
    );
    assert!(
        removed
            .iter()
            .any(|r| r["square"] == "e8" && r["kind"] == "king" && r["cause"] == "exploded")
    );
    assert_eq!(
        v["status"],
        serde_json::json!({"state": "finished", "result": "1-0", "reason": "king-exploded"})
    );
    assert!(
        v["board"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["kind"] != "king" || p["color"] == "white")
    );
    assert!(plies[0].get("legal").is_none());
}

#[test]
fn replay_legal_each_adds_legal_moves() {
    let v = json(&kaboom(&[
        "replay",
        "--variant",
        "atomic",
        "--moves",
        "e4 e5",
        "--legal-each",
    ]));
    let plies = v["plies"].as_array().unwrap();
    assert_eq!(plies[0]["legal"].as_array().unwrap().len(), 20);
    assert_eq!(v["status"], serde_json::json!({"state": "ongoing"}));
}

#[test]
fn illegal_move_stops_with_ply_move_reason_and_legal_moves() {
    let out = kaboom(&[
        "replay",
        "--variant",
        "atomic",
        "--moves",
        "1. e4 e5 2. Ke3",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("ply 3 (Ke3)"), "{err}");
    assert!(err.contains("no king of yours can go to e3"), "{err}");
    assert!(err.contains("legal moves: "), "{err}");
    let out = kaboom(&["replay", "--variant", "atomic", "--moves", "1. e4 zz"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("ply 2 (zz)") && err.contains("expected SAN"),
        "{err}"
    );
    assert!(err.contains("legal moves: "), "{err}");
}

#[test]
fn bad_arguments_are_explained() {
    let out = kaboom(&["perft", "--variant", "chess", "1"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("expected atomic, beirut, nuke, bomberman or bombalot")
    );
    let out = kaboom(&["moves", "--variant", "atomic", "--fen", "not a fen"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("invalid FEN")
    );
    let out = kaboom(&[
        "moves",
        "--variant",
        "atomic",
        "--carriers",
        "white=d1,black=d8",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("--carriers is for beirut and nuke")
    );
}

/// `perft --variant beirut 3` without carriers printed `nodes 0` and exited 0, and a
/// kingless Atomic FEN was accepted; both are refused with how to fix them, and `--force`
/// analyses the impossible position anyway.
#[test]
fn impossible_setups_are_refused_with_the_way_out() {
    let out = kaboom(&["perft", "--variant", "beirut", "3"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--carriers white="), "{err}");
    let empty = ["--variant", "atomic", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"];
    let out = kaboom(&[&["moves"][..], &empty].concat());
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("white has no king") && err.contains("--force"),
        "{err}"
    );
    let v = json(&kaboom(&[&["moves"][..], &empty, &["--force"]].concat()));
    assert_eq!(v["legal"].as_array().map(Vec::len), Some(0));
    let out = kaboom(&[&["perft"][..], &empty, &["--ignore", "missing-king", "1"]].concat());
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), "nodes 0");
    let out = kaboom(&[&["perft"][..], &empty, &["--ignore", "no-king", "1"]].concat());
    assert_eq!(out.status.code(), Some(2), "clap refuses an unknown kind");
}
