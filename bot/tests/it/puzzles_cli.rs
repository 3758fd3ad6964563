//! `kaboom puzzles export` and `kaboom puzzles generate`: the shipped set printed as it is
//! stored, a self-play generation that is reproducible and verified, and a generation from a
//! database's finished games that adds what it finds for `/puzzle`.

use kaboom_engine::puzzle::{self, Puzzle};
use kaboom_rules::Variant;
use kaboom_testkit::demo::DemoError;
use kaboom_testkit::fixture::{ATOMIC, TestBot};

use crate::common::{kaboom, kaboom_text};

/// Export prints the shipped Atomic file's puzzles, line for line.
#[test]
fn export_prints_the_shipped_set() {
    let (ok, stdout, stderr) = kaboom_text(&["puzzles", "export", "--variant", "atomic"]);
    assert!(ok, "{stderr}");
    let shipped: Vec<&str> = include_str!("../../../data/puzzles/atomic.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect();
    assert!(!shipped.is_empty(), "the Atomic set is shipped");
    assert_eq!(stdout.lines().collect::<Vec<_>>(), shipped);
}

/// The same flags give the same puzzles, and each one re-verifies at the confirmation
/// budget; the count and the rejections go to standard error.
#[test]
fn generate_is_reproducible_and_verified() {
    let args = [
        "puzzles",
        "generate",
        "--variant",
        "atomic",
        "--seed",
        "3",
        "--target",
        "1",
        "--games",
        "3",
    ];
    let first = kaboom(&args);
    let second = kaboom(&args);
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert_eq!(
        first.stdout, second.stdout,
        "the same flags, the same puzzles"
    );
    let stdout = String::from_utf8(first.stdout).unwrap();
    let puzzles: Vec<Puzzle> = stdout
        .lines()
        .map(|l| Puzzle::from_json_line(l).expect("a puzzle per line"))
        .collect();
    assert_eq!(puzzles.len(), 1);
    for p in &puzzles {
        assert_eq!(p.variant, Variant::Atomic);
        puzzle::reverify(p, puzzle::confirm_nodes(Variant::Atomic)).expect("it re-verifies");
    }
    let stderr = String::from_utf8(first.stderr).unwrap();
    let summary = stderr.lines().last().unwrap_or_default();
    assert!(summary.starts_with("1 puzzles from 1 games ("), "{summary}");
}

kaboom_testkit::dbtest! {
    /// A game in which Black blundered into a king blast (2...a6?? allows 3. Nxf7, AT-2,
    /// AT-6) gives that puzzle; generate --database prints it and adds it to the database
    /// as a puzzle from games.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn generate_from_a_database_adds_its_games_puzzles() -> Result<(), DemoError> {
        let d = TestBot::start().await?;
        let g = d.start_game(ATOMIC).await?;
        let thread = g.thread.get();
        for (user, text) in [(&d.alice, "Nf3"), (&d.bob, "e6"), (&d.alice, "Ng5"), (&d.bob, "a6"), (&d.alice, "Nxf7")] {
            d.play(user, thread, text).await?;
        }
        let url = d.url().to_string();
        let out = tokio::task::spawn_blocking(move || {
            kaboom(&["puzzles", "generate", "--variant", "atomic", "--database", &url])
        })
        .await
        .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let stdout = String::from_utf8(out.stdout).unwrap();
        let found: Vec<Puzzle> = stdout.lines().map(|l| Puzzle::from_json_line(l).unwrap()).collect();
        assert_eq!(found.len(), 1, "{stdout}");
        assert_eq!(found[0].solution, ["g5f7"]);
        assert_eq!(
            String::from_utf8(out.stderr).unwrap().lines().last(),
            Some("added 1 new puzzles to the database")
        );
        let stored = kaboom_store::puzzles::get(&d.db, &found[0].id).await.unwrap().expect("stored");
        assert_eq!(stored.solution, ["g5f7"]);
        d.stop().await;
        Ok(())
    }
}
