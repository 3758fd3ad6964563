//! Compares the post-game review's marks in Atomic (`kaboom_engine::review`) with the marks
//! lichess would give the same plies from Fairy-Stockfish's evaluations: how many of
//! Fairy-Stockfish's blunders the review also marks as a mistake or a blunder, and the
//! other way round.
//!
//! ```text
//! FAIRY_STOCKFISH=/path/to/fairy-stockfish \
//!     cargo run --release -p kaboom-engine --example compare_fairy_review -- [GAMES]
//!     [--seed S] [--nodes N] [--fairy-nodes F] [--max-plies P] [--plies FILE]
//! ```
//!
//! Fairy-Stockfish is an external program spoken to over UCI (GPL, never a dependency;
//! build a current one outside the repository, Debian's 11.1 has no atomic). Without
//! `FAIRY_STOCKFISH` the example says it was skipped and exits with status 0.
//!
//! **Games.** `GAMES` (default 2) Atomic games of the engine against itself
//! (`kaboom_engine::arena::play`), levels cycling through 2 v 3, 3 v 2, 2 v 2 and 3 v 3 so
//! that mistakes happen, the first four plies random, drawn after `P` plies (default 160).
//! Game `g` is seeded by the seed (default 20261128) and `g`: a run of more games plays
//! the same first games.
//!
//! **Kaboom's marks.** `kaboom_engine::review::review_game` at `N` nodes per position
//! (default `review::default_nodes(Atomic)`, the budget the bot uses).
//!
//! **Fairy-Stockfish's marks.** Every position of the same game, the start included, is
//! searched with `UCI_Variant atomic`, `Threads 1`, `Hash 16`, `ucinewgame` before each
//! search (each search fresh, so the run is deterministic), `position startpos moves ...`
//! (the whole game so far, so repetitions are known) and `go nodes F` (default 500,000).
//! The score is that of the last `info` line before `bestmove` that is not a bound
//! (`lowerbound`/`upperbound` mark an aspiration window that failed, not an evaluation;
//! the last bound line counts only if there is no other), from the side to move's view;
//! `mate M` is a forced win (M > 0) or loss (M ≤ 0). A last position that the board
//! ended (a king exploded, a draw on the board) is not searched: as in the review, it scores
//! by its result. Each ply is then marked with the review's own functions
//! (`review::mark`, lichess's `Advice` with `k` = 0.00368208 in Atomic), so the two sets of
//! marks differ only by the evaluations. After each `position`, Fairy-Stockfish's `d`
//! FEN is compared with Kaboom's (board and side to move; castling rights and en passant
//! are reported apart) so that a move it refused would not go unseen.
//!
//! **Printed.** A line per game; then the games and plies, each engine's counts of
//! inaccuracies, mistakes and blunders, the share of Fairy-Stockfish's blunders that Kaboom
//! marks as a mistake or blunder and the share of Kaboom's blunders that Fairy-Stockfish
//! marks so, each with a 95% Wilson interval (plies treated as independent) and a 95%
//! interval from 1000 bootstrap resamples of the games (plies of one game are not), the
//! agreement table in markdown, and every ply where one engine sees a blunder and the other
//! not even a mistake, with both evaluations and both engines' choices. `--plies FILE`
//! writes every ply (both evaluations and marks) as tab-separated lines.

#[path = "../tools/cli.rs"]
mod cli;
use cli::{flag, load};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::time::Instant;

use kaboom_engine::arena::{Player, play};
use kaboom_engine::review::{Mark, ReviewBudget, default_nodes, mark, review_game};
use kaboom_engine::{Level, Score, Viewer};
use kaboom_rules::{AnyGame, Color, GameOptions, Variant};

/// Random plies at the start of each game, for varied openings.
const RANDOM_PLIES: usize = 4;
/// The levels of White and Black, game `g` taking pairing `g % 4`.
const PAIRINGS: [(Level, Level); 4] = [
    (Level::Two, Level::Three),
    (Level::Three, Level::Two),
    (Level::Two, Level::Two),
    (Level::Three, Level::Three),
];
/// Bootstrap resamples of the games.
const RESAMPLES: usize = 1000;
/// The columns and rows of the agreement table, most severe first; `None` is no mark.
const MARKS: [Option<Mark>; 4] = [
    Some(Mark::Blunder),
    Some(Mark::Mistake),
    Some(Mark::Inaccuracy),
    None,
];

/// The run's settings, from the command line.
struct Settings {
    games: usize,
    seed: u64,
    nodes: u64,
    fairy_nodes: u64,
    max_plies: usize,
    plies_file: Option<String>,
}

/// One Fairy-Stockfish search: its score from White's point of view, its depth, its choice
/// and line (UCI), and whether the score came from a bound line only.
#[derive(Clone, Debug)]
struct FairyEval {
    white: Score,
    depth: u32,
    best: String,
    pv: Vec<String>,
    bound: bool,
}

/// One judged ply of one game.
struct PlyRow {
    game: usize,
    ply: usize,
    mover: Color,
    san: String,
    /// Kaboom's evaluations before and after the ply, White's view.
    kaboom: (Score, Score),
    kaboom_mark: Option<Mark>,
    /// Kaboom's better action for a marked ply, if any.
    kaboom_better: Option<String>,
    /// Fairy-Stockfish's evaluations before and after the ply, White's view.
    fairy: (Score, Score),
    fairy_mark: Option<Mark>,
    /// Fairy-Stockfish's choice and line in the position before the ply.
    fairy_best: String,
    fairy_pv: Vec<String>,
}

fn main() -> ExitCode {
    let settings = match settings(std::env::args().skip(1).collect()) {
        Ok(s) => s,
        Err(message) => {
            eprintln!("{message}");
            eprintln!(
                "usage: compare_fairy_review [GAMES] [--seed S] [--nodes N] [--fairy-nodes F] \
                 [--max-plies P] [--plies FILE]"
            );
            return ExitCode::from(2);
        }
    };
    let Some(path) = std::env::var_os("FAIRY_STOCKFISH") else {
        println!("FAIRY_STOCKFISH is not set (FAIRY_STOCKFISH=/path/to/binary): skipped");
        return ExitCode::SUCCESS;
    };
    let path = path.to_string_lossy().into_owned();
    let mut fairy = match Uci::start(&path) {
        Ok(uci) => uci,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    match run(&settings, &mut fairy) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("stopped: {e}");
            ExitCode::FAILURE
        }
    }
}

fn settings(args: Vec<String>) -> Result<Settings, String> {
    let number = |name: &str, default: u64| -> Result<u64, String> {
        match flag(&args, name) {
            None => Ok(default),
            Some(v) => v.parse().map_err(|_| format!("{name}: not a number: {v}")),
        }
    };
    let games = match args.first().filter(|a| !a.starts_with("--")) {
        None => 2,
        Some(a) => a.parse().map_err(|_| format!("GAMES: not a number: {a}"))?,
    };
    let settings = Settings {
        games,
        seed: number("--seed", 20_261_128)?,
        nodes: number("--nodes", default_nodes(Variant::Atomic))?,
        fairy_nodes: number("--fairy-nodes", 500_000)?,
        max_plies: usize::try_from(number("--max-plies", 160)?)
            .map_err(|_| "--max-plies: too large".to_string())?,
        plies_file: flag(&args, "--plies"),
    };
    if settings.nodes == 0 || settings.fairy_nodes == 0 {
        return Err("--nodes and --fairy-nodes: at least 1".into());
    }
    Ok(settings)
}

fn run(settings: &Settings, fairy: &mut Uci) -> Result<(), String> {
    let mut plies_file = match &settings.plies_file {
        Some(p) => Some(std::fs::File::create(p).map_err(|e| format!("{p}: {e}"))?),
        None => None,
    };
    if let Some(file) = plies_file.as_mut() {
        file.write_all(
            b"game\tply\tmover\tsan\tkaboom_before\tkaboom_after\tkaboom_mark\t\
              fairy_before\tfairy_after\tfairy_mark\tfairy_best\n",
        )
        .map_err(|e| e.to_string())?;
    }
    println!(
        "# compare_fairy_review: {} Atomic games (levels {}), {RANDOM_PLIES} random plies, \
         drawn after {} plies, seed {}; Kaboom {} nodes/position, {} {} nodes/position; \
         load before: {}",
        settings.games,
        PAIRINGS.map(|(w, b)| format!("{w} v {b}")).join(", "),
        settings.max_plies,
        settings.seed,
        settings.nodes,
        fairy.name,
        settings.fairy_nodes,
        load()
    );
    let started_all = Instant::now();
    let (mut rows, mut depths) = (Vec::new(), Vec::new());
    let (mut mismatched, mut side_issues, mut bound_only) = (0usize, 0usize, 0usize);
    let (mut kaboom_time, mut fairy_time) = (0.0, 0.0);
    for g in 0..settings.games {
        let (white, black) = PAIRINGS[g % PAIRINGS.len()];
        let seed = settings.seed.wrapping_mul(1_000_003).wrapping_add(g as u64);
        let arena = play(
            Variant::Atomic,
            Player::Engine(white),
            Player::Engine(black),
            seed,
            RANDOM_PLIES,
            settings.max_plies,
        );
        let mut game = AnyGame::new(Variant::Atomic, GameOptions::default())
            .map_err(|e| format!("Atomic: {e}"))?;
        for text in &arena.plies {
            game.play(None, text)
                .map_err(|e| format!("game {g}: {text} does not replay: {e}"))?;
        }
        let total = game.ply_count();

        let started = Instant::now();
        let review = review_game(&game, ReviewBudget::nodes(settings.nodes), |_| {})
            .map_err(|e| format!("game {g}: {e}"))?;
        let kaboom_seconds = started.elapsed().as_secs_f64();

        let started = Instant::now();
        let moves: Vec<String> = game.plies().iter().map(|p| p.uci.clone()).collect();
        let mut evals: Vec<FairyEval> = Vec::with_capacity(total + 1);
        for i in 0..=total {
            let outcome = if i == total {
                game.status().outcome()
            } else {
                None
            };
            if let Some(outcome) = outcome {
                // As the review: a last position the board decided scores by its result.
                let white = match outcome.winner {
                    Some(Color::White) => Score::Win { plies: 0 },
                    Some(Color::Black) => Score::Loss { plies: 0 },
                    None => Score::Centipawns { value: 0 },
                };
                evals.push(FairyEval {
                    white,
                    depth: 0,
                    best: "(none)".into(),
                    pv: Vec::new(),
                    bound: false,
                });
                continue;
            }
            // Every game starts from the standard position, White to move.
            let turn = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let (eval, fen) = fairy.evaluate(&moves[..i], turn, settings.fairy_nodes)?;
            let ours = game
                .fen_after(i, Viewer::Full)
                .ok_or_else(|| format!("game {g}: no position after ply {i}"))?;
            let fields = |f: &str| f.split_whitespace().map(str::to_string).collect::<Vec<_>>();
            let (theirs, ours) = (fields(&fen), fields(&ours));
            if theirs.get(..2) != ours.get(..2) {
                mismatched += 1;
                println!(
                    "  ! game {g} after ply {i}: Fairy-Stockfish has {fen:?}, Kaboom {ours:?}"
                );
            } else if theirs.get(2..4) != ours.get(2..4) {
                side_issues += 1;
            }
            bound_only += usize::from(eval.bound);
            depths.push(eval.depth);
            evals.push(eval);
        }
        let fairy_seconds = started.elapsed().as_secs_f64();
        kaboom_time += kaboom_seconds;
        fairy_time += fairy_seconds;

        let mut counts = [[0usize; 3]; 2];
        for (i, ply) in review.plies.iter().enumerate() {
            let kaboom_before = if i == 0 {
                review.start
            } else {
                review.plies[i - 1].eval
            };
            let fairy = (evals[i].white, evals[i + 1].white);
            let fairy_mark = mark(
                Variant::Atomic,
                mover_view(fairy.0, ply.mover),
                mover_view(fairy.1, ply.mover),
            );
            for (side, m) in [ply.mark, fairy_mark].into_iter().enumerate() {
                if let Some(m) = m {
                    counts[side][severity(m)] += 1;
                }
            }
            rows.push(PlyRow {
                game: g,
                ply: ply.ply,
                mover: ply.mover,
                san: ply.san.clone(),
                kaboom: (kaboom_before, ply.eval),
                kaboom_mark: ply.mark,
                kaboom_better: ply.better.clone(),
                fairy,
                fairy_mark,
                fairy_best: evals[i].best.clone(),
                fairy_pv: evals[i].pv.clone(),
            });
        }
        if let Some(file) = plies_file.as_mut() {
            let text: String = rows
                .iter()
                .filter(|r| r.game == g)
                .map(|r| {
                    format!(
                        "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
                        r.game,
                        r.ply,
                        r.mover,
                        r.san,
                        score_text(r.kaboom.0),
                        score_text(r.kaboom.1),
                        mark_name(r.kaboom_mark),
                        score_text(r.fairy.0),
                        score_text(r.fairy.1),
                        mark_name(r.fairy_mark),
                        r.fairy_best,
                    )
                })
                .collect();
            file.write_all(text.as_bytes())
                .and_then(|()| file.flush())
                .map_err(|e| format!("--plies: {e}"))?;
        }
        let result = game.status().outcome().map_or_else(
            || "cut".to_string(),
            |o| match o.winner {
                Some(c) => format!("{c} wins ({})", o.reason.name()),
                None => format!("draw ({})", o.reason.name()),
            },
        );
        println!(
            "game {g:>2}: level {white} v {black}, {total:>3} plies, {result}; marks \
             (blunders/mistakes/inaccuracies) Kaboom {}/{}/{}, Fairy-Stockfish {}/{}/{}; \
             Kaboom {kaboom_seconds:.0} s, Fairy-Stockfish {fairy_seconds:.0} s",
            counts[0][0], counts[0][1], counts[0][2], counts[1][0], counts[1][1], counts[1][2],
        );
    }

    println!(
        "\n# {} games, {} plies, {} positions searched by Fairy-Stockfish (depth median {}, \
         {bound_only} scored by a bound line only); Kaboom {kaboom_time:.0} s, \
         Fairy-Stockfish {fairy_time:.0} s, all {:.0} s; load after: {}",
        settings.games,
        rows.len(),
        depths.len(),
        median(&mut depths),
        started_all.elapsed().as_secs_f64(),
        load()
    );
    println!(
        "# positions where Fairy-Stockfish's board or side to move differ from Kaboom's: \
         {mismatched}; castling or en passant fields differ: {side_issues}"
    );
    summary(&rows, settings.games, settings.seed);
    disagreements(&rows);
    Ok(())
}

/// The counts, shares and agreement table.
fn summary(rows: &[PlyRow], games: usize, seed: u64) {
    for (name, pick) in [
        (
            "Kaboom",
            (|r: &PlyRow| r.kaboom_mark) as fn(&PlyRow) -> Option<Mark>,
        ),
        ("Fairy-Stockfish", |r: &PlyRow| r.fairy_mark),
    ] {
        let count = |m: Mark| rows.iter().filter(|r| pick(r) == Some(m)).count();
        println!(
            "{name}: {} blunders, {} mistakes, {} inaccuracies",
            count(Mark::Blunder),
            count(Mark::Mistake),
            count(Mark::Inaccuracy)
        );
    }
    let serious = |m: Option<Mark>| matches!(m, Some(Mark::Blunder | Mark::Mistake));
    share(
        "Fairy-Stockfish's blunders that Kaboom marks as mistake or blunder",
        rows,
        games,
        seed,
        |r| r.fairy_mark == Some(Mark::Blunder),
        |r| serious(r.kaboom_mark),
    );
    share(
        "Kaboom's blunders that Fairy-Stockfish marks as mistake or blunder",
        rows,
        games,
        seed ^ 1,
        |r| r.kaboom_mark == Some(Mark::Blunder),
        |r| serious(r.fairy_mark),
    );
    share(
        "Fairy-Stockfish's blunders that Kaboom marks as blunder",
        rows,
        games,
        seed ^ 2,
        |r| r.fairy_mark == Some(Mark::Blunder),
        |r| r.kaboom_mark == Some(Mark::Blunder),
    );
    share(
        "Fairy-Stockfish's mistakes or blunders that Kaboom marks (any mark)",
        rows,
        games,
        seed ^ 3,
        |r| serious(r.fairy_mark),
        |r| r.kaboom_mark.is_some(),
    );
    let agree = rows
        .iter()
        .filter(|r| r.kaboom_mark == r.fairy_mark)
        .count();
    println!(
        "Same mark (or both none) on {agree} of {} plies ({:.1}%)",
        rows.len(),
        100.0 * agree as f64 / rows.len().max(1) as f64
    );

    println!("\n| Fairy-Stockfish \\ Kaboom | blunder | mistake | inaccuracy | no mark | total |");
    println!("|---|---|---|---|---|---|");
    for (i, fairy) in MARKS.iter().enumerate() {
        let cells: Vec<usize> = MARKS
            .iter()
            .map(|kaboom| {
                rows.iter()
                    .filter(|r| r.fairy_mark == *fairy && r.kaboom_mark == *kaboom)
                    .count()
            })
            .collect();
        let line = format!(
            "| {} | {} | {} |",
            mark_name(*fairy),
            cells
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" | "),
            cells.iter().sum::<usize>()
        );
        if i == 3 {
            // The fourth row (plies Fairy-Stockfish leaves unmarked) is for the reverse share.
            println!("\nPlies Fairy-Stockfish leaves unmarked, by Kaboom's mark:\n");
            println!(
                "| Fairy-Stockfish \\ Kaboom | blunder | mistake | inaccuracy | no mark | total |"
            );
            println!("|---|---|---|---|---|---|");
        }
        println!("{line}");
    }
}

/// Prints the share of the plies `inside` that are also `hit`, with Wilson's 95% interval
/// and a 95% interval from bootstrap resamples of the games.
fn share(
    name: &str,
    rows: &[PlyRow],
    games: usize,
    seed: u64,
    inside: impl Fn(&PlyRow) -> bool,
    hit: impl Fn(&PlyRow) -> bool,
) {
    let mut per_game = vec![(0usize, 0usize); games];
    for r in rows.iter().filter(|r| inside(r)) {
        per_game[r.game].1 += 1;
        per_game[r.game].0 += usize::from(hit(r));
    }
    let (k, n) = per_game
        .iter()
        .fold((0, 0), |(k, n), &(a, b)| (k + a, n + b));
    if n == 0 {
        println!("{name}: none to count");
        return;
    }
    let (low, high) = wilson(k, n);
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut shares: Vec<f64> = (0..RESAMPLES)
        .filter_map(|_| {
            let (k, n) = (0..games)
                .map(|_| per_game[rng.usize(..games)])
                .fold((0, 0), |(k, n), (a, b)| (k + a, n + b));
            (n > 0).then(|| k as f64 / n as f64)
        })
        .collect();
    shares.sort_by(f64::total_cmp);
    let at = |q: f64| shares[((shares.len() - 1) as f64 * q).round() as usize];
    println!(
        "{name}: {k} of {n} = {:.1}% (95% Wilson {:.1}-{:.1}%; bootstrap over games {:.1}-{:.1}%)",
        100.0 * k as f64 / n as f64,
        100.0 * low,
        100.0 * high,
        100.0 * at(0.025),
        100.0 * at(0.975),
    );
}

/// Wilson's 95% score interval of `k` successes out of `n` (`n > 0`).
fn wilson(k: usize, n: usize) -> (f64, f64) {
    let (k, n) = (k as f64, n as f64);
    let z2 = 1.96f64 * 1.96;
    let p = k / n;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = 1.96 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Every ply where one engine marks a blunder and the other neither a mistake nor a blunder.
fn disagreements(rows: &[PlyRow]) {
    let minor = |m: Option<Mark>| matches!(m, None | Some(Mark::Inaccuracy));
    println!("\nDisagreements (a blunder for one, at most an inaccuracy for the other):");
    for r in rows.iter().filter(|r| {
        (r.fairy_mark == Some(Mark::Blunder) && minor(r.kaboom_mark))
            || (r.kaboom_mark == Some(Mark::Blunder) && minor(r.fairy_mark))
    }) {
        println!(
            "  game {} ply {} {} {}: Kaboom {} -> {} ({}{}), Fairy-Stockfish {} -> {} ({}; \
             best {})",
            r.game,
            r.ply,
            r.mover,
            r.san,
            score_text(r.kaboom.0),
            score_text(r.kaboom.1),
            mark_name(r.kaboom_mark),
            r.kaboom_better
                .as_deref()
                .map_or(String::new(), |b| format!("; better {b}")),
            score_text(r.fairy.0),
            score_text(r.fairy.1),
            mark_name(r.fairy_mark),
            if r.fairy_pv.is_empty() {
                r.fairy_best.clone()
            } else {
                r.fairy_pv
                    .iter()
                    .take(8)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(" ")
            },
        );
    }
}

/// 0 for a blunder, 1 for a mistake, 2 for an inaccuracy.
fn severity(m: Mark) -> usize {
    match m {
        Mark::Blunder => 0,
        Mark::Mistake => 1,
        Mark::Inaccuracy => 2,
    }
}

fn mark_name(m: Option<Mark>) -> &'static str {
    match m {
        Some(Mark::Blunder) => "blunder",
        Some(Mark::Mistake) => "mistake",
        Some(Mark::Inaccuracy) => "inaccuracy",
        None => "no mark",
    }
}

/// A score from White's point of view as PGN's `[%eval]` writes it: pawns, or `#N` plies to
/// White's forced win (`#-N` to its loss).
fn score_text(score: Score) -> String {
    match score {
        Score::Centipawns { value } => format!("{:+.2}", f64::from(value) / 100.0),
        Score::Win { plies } => format!("#{plies}"),
        Score::Loss { plies } => format!("#-{plies}"),
    }
}

/// The same score from the other side's point of view.
fn invert(score: Score) -> Score {
    match score {
        Score::Centipawns { value } => Score::Centipawns { value: -value },
        Score::Win { plies } => Score::Loss { plies },
        Score::Loss { plies } => Score::Win { plies },
    }
}

/// A score from White's point of view turned to `side`'s (or from `side`'s to White's).
fn mover_view(score: Score, side: Color) -> Score {
    match side {
        Color::White => score,
        Color::Black => invert(score),
    }
}

fn median(values: &mut [u32]) -> u32 {
    values.sort_unstable();
    values.get(values.len() / 2).copied().unwrap_or(0)
}

/// A UCI conversation with Fairy-Stockfish, set to Atomic.
struct Uci {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    /// The `id name` line's name.
    name: String,
}

impl Uci {
    fn start(path: &str) -> Result<Uci, String> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("does not start: {e}"))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("no pipes to the engine".into());
        };
        let mut uci = Uci {
            child,
            input,
            output: BufReader::new(output),
            name: String::new(),
        };
        uci.send("uci")?;
        let lines = uci.read_until("uciok")?;
        uci.name = lines
            .iter()
            .find_map(|l| l.strip_prefix("id name "))
            .unwrap_or("an unnamed UCI engine")
            .to_string();
        // Debian's package (11.1) predates atomic support: its variant list must name it.
        if !lines
            .iter()
            .any(|l| l.starts_with("option name UCI_Variant") && l.contains(" var atomic "))
        {
            return Err(format!("{} has no atomic variant", uci.name));
        }
        for line in [
            "setoption name UCI_Variant value atomic",
            "setoption name Threads value 1",
            "setoption name Hash value 16",
            "isready",
        ] {
            uci.send(line)?;
        }
        uci.read_until("readyok")?;
        Ok(uci)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("writing to the engine: {e}"))
    }

    /// The lines up to and including the first that starts with `prefix`.
    fn read_until(&mut self, prefix: &str) -> Result<Vec<String>, String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let read = self
                .output
                .read_line(&mut line)
                .map_err(|e| format!("reading from the engine: {e}"))?;
            if read == 0 {
                return Err(format!("the engine closed its output before {prefix:?}"));
            }
            let done = line.starts_with(prefix);
            lines.push(line.trim_end().to_string());
            if done {
                return Ok(lines);
            }
        }
    }

    /// Searches the position after `moves` (UCI) from the start, `turn` to move, for `nodes`
    /// nodes: the evaluation and the engine's own FEN of the position.
    fn evaluate(
        &mut self,
        moves: &[String],
        turn: Color,
        nodes: u64,
    ) -> Result<(FairyEval, String), String> {
        self.send("ucinewgame")?;
        if moves.is_empty() {
            self.send("position startpos")?;
        } else {
            self.send(&format!("position startpos moves {}", moves.join(" ")))?;
        }
        self.send("d")?;
        self.send("isready")?;
        let shown = self.read_until("readyok")?;
        let fen = shown
            .iter()
            .find_map(|l| l.strip_prefix("Fen: "))
            .ok_or("the engine's `d` shows no FEN")?
            .to_string();
        self.send(&format!("go nodes {nodes}"))?;
        let lines = self.read_until("bestmove")?;
        let best = lines
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap_or("(none)")
            .to_string();
        let infos: Vec<Info> = lines.iter().filter_map(|l| parse_info(l)).collect();
        let info = infos
            .iter()
            .rev()
            .find(|i| !i.bound)
            .or_else(|| infos.last())
            .ok_or_else(|| format!("no score after {}", moves.join(" ")))?;
        let eval = FairyEval {
            white: mover_view(info.score, turn),
            depth: info.depth,
            best,
            pv: info.pv.clone(),
            bound: info.bound,
        };
        Ok((eval, fen))
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// What one `info` line with a score says.
struct Info {
    /// From the side to move's view.
    score: Score,
    depth: u32,
    bound: bool,
    pv: Vec<String>,
}

/// Reads `info ... depth D ... score cp X | mate M [lowerbound|upperbound] ... pv ...`;
/// `None` for other lines. A mate in `M` moves is a win in `2M − 1` plies; mated in `M` moves
/// (`M ≤ 0`) a loss in `−2M` plies.
fn parse_info(line: &str) -> Option<Info> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") {
        return None;
    }
    let at = |name: &str| words.iter().position(|w| *w == name);
    let s = at("score")?;
    let value: i32 = words.get(s + 2)?.parse().ok()?;
    let score = match *words.get(s + 1)? {
        "cp" => Score::Centipawns { value },
        "mate" if value > 0 => Score::Win {
            plies: value.unsigned_abs() * 2 - 1,
        },
        "mate" => Score::Loss {
            plies: value.unsigned_abs() * 2,
        },
        _ => return None,
    };
    let depth = at("depth")
        .and_then(|d| words.get(d + 1)?.parse().ok())
        .unwrap_or(0);
    let bound = words.contains(&"lowerbound") || words.contains(&"upperbound");
    let pv = at("pv").map_or(Vec::new(), |p| {
        words[p + 1..].iter().map(|w| w.to_string()).collect()
    });
    Some(Info {
        score,
        depth,
        bound,
        pv,
    })
}
