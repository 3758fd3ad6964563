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
