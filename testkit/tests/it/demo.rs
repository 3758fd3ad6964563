//! `kaboom demo` in the suite: the `kaboom-demo` program (what `kaboom demo` runs)
//! runs into a temporary directory, exits
//! 0, writes board images and transcripts per variant, and prints one progress line per
//! game and the summary table.

use std::process::Command;

/// Runs `kaboom-demo ARGS --out OUT`, asserts it exits 0 (naming `what` and showing its
/// output if not) and returns its standard output.
fn demo(args: &[&str], out: &std::path::Path, what: &str) -> String {
    let run = Command::new(env!("CARGO_BIN_EXE_kaboom-demo"))
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .expect("kaboom runs");
    let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(
        run.status.success(),
        "{what}: {stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    stdout
}

#[test]
fn demo_runs_all_five_games_and_writes_its_files() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("demo-out");
    let stdout = demo(&[], &out, "the full demo");
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
        // The replay GIF the thread got when the game ended is written and shown.
        let gifs: Vec<String> = std::fs::read_dir(&vdir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(".gif"))
            .collect();
        assert_eq!(gifs.len(), 1, "{variant}: one replay GIF: {gifs:?}");
        let gif = std::fs::read(vdir.join(&gifs[0])).unwrap();
        assert!(gif.starts_with(b"GIF89a"), "{variant}: a GIF");
        let index = std::fs::read_to_string(out.join("index.html")).unwrap();
        assert!(
            index.contains(&format!("src=\"{variant}/{}\"", gifs[0])),
            "{variant}: the page shows the replay"
        );
        assert!(
            transcript.contains("Game over"),
            "{variant}: the result is shown"
        );
        assert!(
            transcript.contains("Ratings (") && transcript.contains("alice 1"),
            "{variant}: the rating change is shown"
        );
        // What players read cites no ruling id and points to no project file.
        assert_eq!(ruling_id(&transcript), None, "{variant}: a ruling id");
        assert!(!transcript.contains("docs/"), "{variant}: a docs/ path");
    }
    // The page's table of contents names every section apart (two Atomic threads of alice
    // and bob), and the last section shows what a newcomer asks: /help, /rules for
    // Bombalot with its setup picture and piece legend, and /profile.
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    for (anchor, label) in [
        ("atomic", "Atomic"),
        ("clock", "Atomic, on the clock"),
        ("practice", "Atomic against the bot"),
        ("commands", "Help, rules and a profile"),
    ] {
        assert!(
            index.contains(&format!("<a href=\"#{anchor}\">{label}</a>")),
            "{anchor}: {label}"
        );
    }
    let pictures: Vec<String> = std::fs::read_dir(out.join("commands"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".png"))
        .collect();
    assert_eq!(
        pictures.len(),
        2,
        "the setup picture and the legend: {pictures:?}"
    );
    assert!(
        !index.contains("kaboom-bot"),
        "the bot has one name: Kaboom"
    );
    // Rated games: the table has the changes, ratings.md the profile and boards.
    assert!(
        stdout.contains("| Rating change (this variant) |") && stdout.contains("(+"),
        "{stdout}"
    );
    let ratings = std::fs::read_to_string(out.join("ratings.md")).unwrap();
    assert!(
        ratings.contains("## /profile") && ratings.contains("- Bombalot: **"),
        "{ratings}"
    );
    assert_eq!(ratings.matches("## /leaderboard").count(), 5, "{ratings}");
    // The page people look at, its structure checked here (the screenshot in a
    // real browser is scripts/demo-screenshot.sh, run by .ci/run).
    let html = std::fs::read_to_string(out.join("index.html")).expect("index.html");
    assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
    assert!(
        !html.contains("http://") && !html.contains("https://fonts") && !html.contains("<script"),
        "self-contained: no script, no remote resource"
    );
    assert_eq!(
        html.matches("<section class=\"game\" id=").count(),
        11,
        "five games, the clock game, the practice game, the league, the group DM game, the commands and the puzzles"
    );
    for variant in [
        "atomic",
        "beirut",
        "nuke",
        "bomberman",
        "bombalot",
        "clock",
        "practice",
        "league",
        "group-dm",
        "puzzles",
    ] {
        assert!(
            html.contains(&format!("src=\"{variant}/001.png\"")),
            "{variant}: board images"
        );
    }
    for needle in [
        "only alice sees this (DM)",
        "only bob sees this (ephemeral)",
        "only alice sees this (autocomplete)",
        "alice used /move",
        "<span class=\"button",
        ">A</div>",
        "wins on time",
    ] {
        assert!(html.contains(needle), "index.html lacks {needle}");
    }
    assert!(
        !html.contains("<@1001>") && !html.contains("<t:"),
        "markup is rendered"
    );
    // One shipped puzzle per variant, each solved by its own solution.
    let puzzles = std::fs::read_to_string(out.join("puzzles").join("transcript.md")).unwrap();
    assert_eq!(
        puzzles.matches("alice used /puzzle").count(),
        puzzles.matches("> **Puzzle ").count()
            + puzzles.matches(" is right. ").count()
            + puzzles.matches(" solves puzzle ").count(),
        "{puzzles}"
    );
    assert_eq!(puzzles.matches(" solves puzzle ").count(), 5, "{puzzles}");
    // The transcripts render names and dates and mark what one player saw.
    let beirut = std::fs::read_to_string(out.join("beirut").join("transcript.md")).unwrap();
    assert!(
        !beirut.contains("<@") && !beirut.contains("<t:"),
        "{beirut}"
    );
    assert!(
        beirut.contains("@alice") && beirut.contains("only bob sees this"),
        "{beirut}"
    );
    assert!(beirut.contains("Boom@e4"), "a Boom mid-game");
    let nuke = std::fs::read_to_string(out.join("nuke").join("transcript.md")).unwrap();
    assert!(
        nuke.contains("Ne5*") && nuke.contains("e1>e2"),
        "grabs and transfers"
    );
    assert!(
        stdout.contains("[clock] Atomic, a reminder and a time forfeit")
            && stdout.contains("time forfeit"),
        "{stdout}"
    );
    // The league: its channel's page shows the sign-up, the rounds and three standings
    // pictures (after rounds 1 and 2, and the final crosstable).
    let league = std::fs::read_to_string(out.join("league").join("transcript.md")).unwrap();
    assert_eq!(league.matches("](00").count(), 3, "{league}");
    for needle in [
        "**Demo League** · Atomic, single round-robin\nCasual · 1 day per move · rounds of 2 days",
        "**round 1 of 3** starts.",
        "**round 3 of 3** starts.",
        "standings after round 2 of 3.",
        "**final standings**.",
    ] {
        assert!(
            league.contains(needle),
            "the league's page lacks {needle}:\n{league}"
        );
    }
    // The Bombalot game shows a co-square kill, the imitator, a push off the
    // board and a goal win (the demo itself checks them on the stored game), and its page
    // says where to look.
    let bombalot = std::fs::read_to_string(out.join("bombalot").join("transcript.md")).unwrap();
    for needle in [
        "Watch for:",
        "**8... b8-c6** by bob · removed White's Super-tweke g6",
        "**43. h5-h6** by alice · removed Black's Tank h8",
        "black wins by two pieces in the goal",
    ] {
        assert!(
            bombalot.contains(needle),
            "Bombalot transcript lacks {needle}"
        );
    }
    assert!(
        stdout.contains("| Atomic, on the clock |")
            && stdout.contains("| Atomic against the bot |"),
        "{stdout}"
    );
    // A practice game against the bot's engine, which answers every move of
    // alice's in the thread, never rated; alice wins it.
    assert!(
        stdout.contains("[practice] Atomic against the bot at level 1")
            && stdout.contains("not rated (practice)"),
        "{stdout}"
    );
    let practice = std::fs::read_to_string(out.join("practice").join("transcript.md")).unwrap();
    assert!(
        practice.contains("Kaboom") && practice.contains("Game over"),
        "{practice}"
    );
    // Bomberman: the seed game's 83 plies, one board each plus the start.
    assert!(out.join("bomberman").join("084.png").exists());
    assert!(out.join("kaboom.db").exists());
}

/// `kaboom demo --variant atomic` plays only Atomic; run twice into the same DIR, each run
/// starts from a fresh database and an emptied `atomic/` folder (an earlier run's images
/// cannot pass for this run's).
#[test]
fn demo_of_one_variant_reruns_into_the_same_directory() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("demo-out");
    let atomic = out.join("atomic");
    std::fs::create_dir_all(&atomic).unwrap();
    let stale_image = atomic.join("999.png");
    std::fs::write(&stale_image, b"an image from an earlier run").unwrap();
    let stale_db = b"not a database: left by an earlier run";
    std::fs::write(out.join("kaboom.db"), stale_db).unwrap();
    for run_number in 1..=2 {
        let stdout = demo(&["--variant", "atomic"], &out, &format!("run {run_number}"));
        assert!(
            stdout.contains("[1/1] Atomic:"),
            "run {run_number}: {stdout}"
        );
        assert!(!stdout.contains("Beirut"), "run {run_number}: {stdout}");
        assert!(!stale_image.exists(), "run {run_number}: 999.png is gone");
        let first = std::fs::read(atomic.join("001.png")).expect("first board image");
        assert!(first.starts_with(b"\x89PNG\r\n\x1a\n"), "run {run_number}");
        let transcript = std::fs::read_to_string(atomic.join("transcript.md")).unwrap();
        assert!(transcript.contains("Game over"), "run {run_number}");
        let db = std::fs::read(out.join("kaboom.db")).unwrap();
        assert!(db.starts_with(b"SQLite format 3\0"), "run {run_number}");
        assert!(
            !out.join("beirut").exists(),
            "run {run_number}: only Atomic"
        );
        // The second run must clean up after the first, too.
        std::fs::write(&stale_image, b"an image from an earlier run").unwrap();
    }
}

/// The first ruling id (`BE-3`, `AT-10`: two capitals, a hyphen, a digit) in `text`.
fn ruling_id(text: &str) -> Option<String> {
    let b = text.as_bytes();
    (0..b.len().saturating_sub(3)).find_map(|i| {
        let id = b[i].is_ascii_uppercase()
            && b[i + 1].is_ascii_uppercase()
            && b[i + 2] == b'-'
            && b[i + 3].is_ascii_digit()
            && (i == 0 || !b[i - 1].is_ascii_alphanumeric());
        id.then(|| text[i..(i + 6).min(text.len())].to_string())
    })
}
