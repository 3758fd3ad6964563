//! `kaboom demo` (issue 9) in the suite: the binary runs into a temporary directory, exits
//! 0, writes board images and transcripts per variant, and prints one progress line per
//! game and the summary table.

use std::process::Command;

#[test]
fn demo_runs_all_five_games_and_writes_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("demo-out");
    let run = Command::new(env!("CARGO_BIN_EXE_kaboom"))
        .args(["demo", "--out"])
        .arg(&out)
        .output()
        .expect("kaboom runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    for (i, title) in ["Atomic", "Beirut", "Nuke", "Bomberman Chess", "Bombalot"]
        .iter()
        .enumerate()
    {
        assert!(
            stdout.contains(&format!("[{}/5] {title}:", i + 1)),
            "{stdout}"
        );
        assert!(stdout.contains(&format!("| {title} |")), "{stdout}");
    }
    assert!(
        stdout.contains("king exploded") && stdout.contains("checkmate"),
        "{stdout}"
    );
    assert!(!stdout.contains("FAILED"), "{stdout}");
    for variant in ["atomic", "beirut", "nuke", "bomberman", "bombalot"] {
        let vdir = out.join(variant);
        let first = std::fs::read(vdir.join("001.png")).expect("first board image");
        assert!(first.starts_with(b"\x89PNG\r\n\x1a\n"), "{variant}: a PNG");
        let transcript = std::fs::read_to_string(vdir.join("transcript.md")).unwrap();
        assert!(transcript.contains("](001.png)"), "{variant}: image links");
        assert!(
            transcript.contains("Game over"),
            "{variant}: the result is shown"
        );
    }
    // Bomberman: the seed game's 83 plies, one board each plus the start.
    assert!(out.join("bomberman").join("084.png").exists());
    assert!(out.join("kaboom.db").exists());
}
