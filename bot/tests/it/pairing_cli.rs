//! `kaboom pair` and `kaboom standings` on TRF-16 files: the pairings equal those of an
//! independent program (bbpPairings' `-p` output, stored beside the tournament in
//! `pairing/tests/data/dutch/`), the Berger tables' round, and hand-computed standings.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The stdout of a `kaboom` run that must succeed.
fn kaboom(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_kaboom"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "kaboom {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A 7-player Swiss after four rounds, with forfeits and unplayed rounds: the two texts of
/// the Dutch system give the bye to different players (the 2025 text to the lowest score
/// allowed one), and each pairing equals bbpPairings' (version 6 for the 2025 text,
/// version 5 for the 2016 text).
#[test]
fn pair_prints_what_bbppairings_prints_for_both_dutch_texts() {
    let data = repo().join("pairing/tests/data/dutch");
    let trf = data.join("v6-seed106-round5.trf");
    let trf = trf.to_str().unwrap();
    for (system, expected) in [
        ("dutch", "v6-seed106-round5.expected2025"),
        ("dutch2016", "v6-seed106-round5.expected2016"),
    ] {
        let expected = std::fs::read_to_string(data.join(expected)).unwrap();
        assert_eq!(
            kaboom(&["pair", "--system", system, "--trf", trf]),
            expected,
            "--system {system}"
        );
    }
}

/// Four players after the first round of the Berger table (1-4, 2-3; 1 won, 2 and 3
/// drew).
const ROUND_ONE: &str = "\
001    1      A                                                                               4 w 1
001    2      B                                                                               3 w =
001    3      C                                                                               2 b =
001    4      D                                                                               1 b 0
";

#[test]
fn pair_gives_the_next_berger_round_and_standings_rank_with_tie_breaks() {
    let dir = tempfile::tempdir().unwrap();
    let trf = dir.path().join("league.trf");
    std::fs::write(&trf, ROUND_ONE).unwrap();
    let trf = trf.to_str().unwrap();
    // Round 2 of the table for four: 4-3, 1-2.
    assert_eq!(
        kaboom(&["pair", "--system", "berger", "--trf", trf]),
        "2\n4 3\n1 2\n"
    );
    // A 1 point; B and C ½ each, equal on direct encounter (their draw), Sonneborn-Berger
    // (½ x ½ = 0.25) and wins (0): they share second place; D 0.
    let standings: serde_json::Value = serde_json::from_str(&kaboom(&[
        "standings",
        "--trf",
        trf,
        "--tie-breaks",
        "round-robin",
    ]))
    .unwrap();
    let rows: Vec<(u64, u64, f64, Vec<Option<f64>>)> = standings
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["rank"].as_u64().unwrap(),
                row["start_rank"].as_u64().unwrap(),
                row["points"].as_f64().unwrap(),
                row["tie_breaks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t["value"].as_f64())
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        rows[1..3],
        [
            (2, 2, 0.5, vec![Some(0.5), Some(0.25), Some(0.0)]),
            (2, 3, 0.5, vec![Some(0.5), Some(0.25), Some(0.0)]),
        ]
    );
    assert_eq!((rows[0].0, rows[0].1, rows[0].2), (1, 1, 1.0));
    assert_eq!((rows[3].0, rows[3].1, rows[3].2), (4, 4, 0.0));
    assert_eq!(rows[0].3[1..], [Some(0.0), Some(1.0)]);
    assert_eq!(rows[3].3[1..], [Some(0.0), Some(0.0)]);
}

#[test]
fn a_file_that_is_not_trf_is_refused_with_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let trf = dir.path().join("notes.txt");
    std::fs::write(&trf, "001 this is not a player line\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_kaboom"))
        .args(["pair", "--system", "dutch", "--trf", trf.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with(&format!("kaboom pair: {}: ", trf.display())),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}
