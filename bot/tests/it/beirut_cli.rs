//! The `kaboom` binary with Beirut Chess (`--carriers`, `--as` of docs/ARCHITECTURE.md,
//! "The CLI"; BE-2, BE-3, BE-4, BE-8). The analysis functions are unit-tested in
//! `bot/src/cli/tests`.

use crate::common;

use common::kaboom_text;

/// perft through the CLI agrees with the library: depth 2 is 20 x 21 with Black's
/// legal Boom@g8 (BE-3) and White's illegal Boom@d1 (BE-4).
#[test]
fn perft_with_carriers() {
    let (ok, stdout, _) = kaboom_text(&[
        "perft",
        "--variant",
        "beirut",
        "--carriers",
        "white=d1,black=g8",
        "2",
    ]);
    assert!(ok);
    assert_eq!(stdout.lines().last(), Some("nodes 420"));
}

/// `moves --as`: each player sees their own Booms (BE-8); the opponent and spectators
/// see neither the Booms nor the carriers in the serialization (BE-2).
#[test]
fn moves_as_each_viewer() {
    let (ok, stdout, _) = kaboom_text(&[
        "moves",
        "--variant",
        "beirut",
        "--carriers",
        "white=b1,e2,black=g8,b8",
        "--moves",
        "1. e4",
        "--as",
        "white",
    ]);
    assert!(ok);
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(json["fen"].as_str().unwrap().ends_with("b1,e4 hidden"));
    assert!(!stdout.contains("b8,g8") && !stdout.contains("Boom@"));
}

/// Bad designations are refused with the rules' reason; a serialization that already
/// has carriers refuses `--carriers`.
#[test]
fn bad_carriers_are_refused() {
    let (ok, _, stderr) = kaboom_text(&[
        "perft",
        "--variant",
        "beirut",
        "--carriers",
        "white=d4,black=g8",
        "1",
    ]);
    assert!(!ok);
    assert!(stderr.contains("d4 is empty"), "{stderr}");
}
