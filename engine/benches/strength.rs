//! Strength and speed figures of the practice opponent, for docs/PERFORMANCE.md.
//!
//! ```text
//! cargo bench -p kaboom-engine --bench strength -- <what> [--games N] [--variants a,b] [--levels 3,4]
//!     [--nodes 1000,10000] [--log FILE [--logged-only | --from K]]
//! ```
//! `<what>` is one of:
//! - `random`: every level against a uniformly random mover, `N` games per variant;
//! - `levels`: level N+1 against level N, `N` games per pair and variant, colours
//!   alternating, the first two plies random for varied openings;
//! - `hidden`: Beirut's model of the opponent's hidden carriers (`HiddenCarriers`) against
//!   the same engine without it, at the last of `--levels`, `N` games per variant (default:
//!   Beirut only, the one variant with hidden carriers), colours and openings as `levels`;
//! - `speed`: positions per second and the time to answer per level (p50, p99) over the
//!   positions of a few games;
//! - `fairy`: the top level against Fairy-Stockfish in Atomic at each `--nodes` limit per
//!   move (Fairy-Stockfish, run as an external program over UCI; GPL, never a dependency:
//!   `FAIRY_STOCKFISH=/path/to/binary`; Debian's package 11.1 has no atomic, so build a
//!   current one outside the repository). Skipped with a message when none is found.
//!
//! Scores are printed with the Elo difference and its 95% error bar (see `Tally::summary`).
//!
//! `--log FILE` appends each finished game of `random`, `levels` and `fairy` to `FILE` (one
//! line: the game's key, a tab, the points of the side measured) and, when run again, takes
//! the games already in `FILE` from there instead of playing them, so a long match can be
//! stopped and resumed (games are deterministic: node limits and seeds). Use one file per
//! engine version. `--logged-only` plays nothing and sums up what the file holds, saying
//! how many games of the `N` asked for it has. `--from K` plays only games `K` to `N - 1`
//! (the earlier ones are summed up from the file, as with `--logged-only`), so one match can
//! be split across processes side by side on one file: before playing a game, a run reads
//! the file again and skips the game if another process has logged it meanwhile.

#[path = "../tools/cli.rs"]
mod cli;
use cli::{flag, load};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use kaboom_engine::arena::{GameResult, Player, play};
use kaboom_engine::{Level, choose_action};
use kaboom_rules::{AnyGame, Color, GameOptions, Variant, Viewer};

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let what = args.first().cloned().unwrap_or_else(|| "speed".into());
    let games: usize = flag(&args, "--games").map_or(10, |v| v.parse().expect("--games N"));
    let variants: Vec<Variant> = flag(&args, "--variants").map_or(Variant::ALL.to_vec(), |v| {
        v.split(',').map(|s| s.parse().expect("variant")).collect()
    });
    let levels: Vec<Level> = flag(&args, "--levels").map_or(Level::ALL.to_vec(), |v| {
        v.split(',').map(|s| s.parse().expect("level")).collect()
    });
    let mut log = Log::open(
        flag(&args, "--log"),
        args.iter().any(|a| a == "--logged-only"),
        flag(&args, "--from").map_or(0, |v| v.parse().expect("--from K")),
    );
    println!("# {what}, {games} games, load before: {}", load());
    match what.as_str() {
        "random" => against_random(&variants, &levels, games, &mut log),
        "levels" => level_pairs(&variants, &levels, games, &mut log),
        "speed" => speed(&variants, &levels),
        "hidden" => {
            let variants = flag(&args, "--variants").map_or(vec![Variant::Beirut], |_| variants);
            let level = levels.last().copied().unwrap_or(Level::Three);
            hidden_model(&variants, level, games, &mut log);
        }
        "fairy" => {
            let nodes: Vec<u64> = flag(&args, "--nodes")
                .map_or(vec![1_000, 10_000, 100_000], |v| {
                    v.split(',').map(|s| s.parse().expect("nodes")).collect()
                });
            let level = levels.last().copied().unwrap_or(Level::Five);
            fairy(level, &nodes, games, &mut log);
        }
        other => panic!("unknown benchmark {other:?}: random, levels, hidden, speed or fairy"),
    }
    println!("# load after: {}", load());
}

/// Finished games by key, read from and appended to `--log FILE`.
struct Log {
    path: Option<String>,
    done: HashMap<String, f64>,
    logged_only: bool,
    /// `--from K`: games numbered below `K` are not played.
    from: usize,
}

impl Log {
    fn open(path: Option<String>, logged_only: bool, from: usize) -> Log {
        assert!(
            !logged_only || path.is_some(),
            "--logged-only needs --log FILE"
        );
        assert!(from == 0 || path.is_some(), "--from K needs --log FILE");
        let mut log = Log {
            path,
            done: HashMap::new(),
            logged_only,
            from,
        };
        log.reload();
        log
    }

    /// Reads the file again (another process may have logged games since).
    fn reload(&mut self) {
        let Some(text) = self
            .path
            .as_deref()
            .and_then(|p| std::fs::read_to_string(p).ok())
        else {
            return;
        };
        for line in text.lines() {
            if let Some((key, points)) = line.split_once('\t')
                && let Ok(points) = points.trim().parse::<f64>()
            {
                self.done.insert(key.to_string(), points);
            }
        }
    }

    /// The points of game number `g`, named `key`: from the log, or by playing it (and
    /// logging it). `None` for a game the log does not hold with `--logged-only`, or
    /// below `--from K`.
    fn game(&mut self, g: usize, key: String, play: impl FnOnce() -> f64) -> Option<f64> {
        if let Some(&points) = self.done.get(&key) {
            return Some(points);
        }
        if self.logged_only || g < self.from {
            return None;
        }
        self.reload();
        if let Some(&points) = self.done.get(&key) {
            return Some(points);
        }
        let points = play();
        if let Some(path) = &self.path {
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .expect("log file");
            // One write per line: with O_APPEND, matches run side by side on one file
            // cannot interleave their lines (`writeln!` on a File writes piece by piece).
            file.write_all(format!("{key}\t{points}\n").as_bytes())
                .expect("log line");
        }
        self.done.insert(key, points);
        Some(points)
    }
}

/// Points, games, and the Elo difference with its 95% error bar, from one side's results.
struct Tally {
    points: Vec<f64>,
}

impl Tally {
    fn new() -> Tally {
        Tally { points: Vec::new() }
    }

    fn add(&mut self, points: f64) {
        self.points.push(points);
    }

    /// Wins, draws and losses, the score with its 95% interval, and the Elo difference with
    /// the interval's. The interval is Wilson's score interval with the games' own variance
    /// (draws make it narrower than a win/loss count's), so that 100% out of `n` games still
    /// gets a finite lower bound: `1 / (1 + 1.96^2 / n)`, 96.3% for 100 games.
    fn summary(&self) -> String {
        if self.points.is_empty() {
            return "no games".into();
        }
        let n = self.points.len() as f64;
        let score = self.points.iter().sum::<f64>() / n;
        let wins = self.points.iter().filter(|&&p| p == 1.0).count();
        let draws = self.points.iter().filter(|&&p| p == 0.5).count();
        let losses = self.points.len() - wins - draws;
        let variance = self.points.iter().map(|p| (p - score).powi(2)).sum::<f64>() / n;
        let z2 = 1.96f64 * 1.96;
        let centre = (score + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = 1.96 * (variance / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
        let (low, high) = ((centre - half).max(0.0), (centre + half).min(1.0));
        let elo = |p: f64| {
            if p >= 1.0 - 1e-9 {
                "+inf".to_string()
            } else if p <= 1e-9 {
                "-inf".to_string()
            } else {
                format!("{:+.0}", -400.0 * (1.0 / p - 1.0).log10())
            }
        };
        format!(
            "+{wins} ={draws} -{losses}: {:.1}% (95%: {:.1}-{:.1}%), Elo {} [{}, {}]",
            score * 100.0,
            low * 100.0,
            high * 100.0,
            elo(score),
            elo(low),
            elo(high),
        )
    }
}

/// Every level against a random mover.
fn against_random(variants: &[Variant], levels: &[Level], games: usize, log: &mut Log) {
    for &variant in variants {
        for &level in levels {
            let mut tally = Tally::new();
            let started = Instant::now();
            for g in 0..games {
                let engine_white = g % 2 == 0;
                let (white, black) = if engine_white {
                    (Player::Engine(level), Player::Random)
                } else {
                    (Player::Random, Player::Engine(level))
                };
                let color = if engine_white {
                    Color::White
                } else {
                    Color::Black
                };
                let key = format!("random {variant:?} level {level} game {g}");
                if let Some(points) = log.game(g, key, || {
                    play(variant, white, black, g as u64, 0, 400)
                        .result
                        .points(color)
                }) {
                    tally.add(points);
                }
            }
            println!(
                "{variant:?} level {level} vs random: {} ({} of {games} games; {:.0?})",
                tally.summary(),
                tally.points.len(),
                started.elapsed()
            );
        }
    }
}

/// Level N+1 against level N.
fn level_pairs(variants: &[Variant], levels: &[Level], games: usize, log: &mut Log) {
    for &variant in variants {
        for pair in levels.windows(2) {
            let (low, high) = (pair[0], pair[1]);
            let started = Instant::now();
            let tally = match_up(
                variant,
                (Player::Engine(high), Player::Engine(low)),
                games,
                log,
                |g| format!("levels {variant:?} level {high} vs {low} game {g}"),
            );
            println!(
                "{variant:?} level {high} vs level {low}: {} ({} of {games} games; {:.0?})",
                tally.summary(),
                tally.points.len(),
                started.elapsed()
            );
        }
    }
}

/// The engine with its model of hidden carriers against the engine without it, at `level`.
fn hidden_model(variants: &[Variant], level: Level, games: usize, log: &mut Log) {
    for &variant in variants {
        let started = Instant::now();
        let tally = match_up(
            variant,
            (Player::Engine(level), Player::EngineIgnoringHidden(level)),
            games,
            log,
            |g| format!("hidden {variant:?} level {level} modelled vs ignored game {g}"),
        );
        println!(
            "{variant:?} level {level}, hidden carriers modelled vs ignored: {} ({} of {games} games; {:.0?})",
            tally.summary(),
            tally.points.len(),
            started.elapsed()
        );
    }
}

/// `games` games of `measured` against `other` in `variant`: `measured` plays White in
/// the even games, each opening (two random plies, seeded by `g / 2`) is played once with
/// each colour, and a game is drawn after 300 plies. `key(g)` names game `g` in the log.
/// Returns `measured`'s points.
fn match_up(
    variant: Variant,
    (measured, other): (Player, Player),
    games: usize,
    log: &mut Log,
    key: impl Fn(usize) -> String,
) -> Tally {
    let mut tally = Tally::new();
    for g in 0..games {
        let (white, black, color) = if g % 2 == 0 {
            (measured, other, Color::White)
        } else {
            (other, measured, Color::Black)
        };
        if let Some(points) = log.game(g, key(g), || {
            play(variant, white, black, (g / 2) as u64, 2, 300)
                .result
                .points(color)
        }) {
            tally.add(points);
        }
    }
    tally
}

/// Positions per second and time to answer, per level, over the positions of two
/// level-3 self-play games per variant (40 plies each at most).
fn speed(variants: &[Variant], levels: &[Level]) {
    for &variant in variants {
        let mut positions = Vec::new();
        for seed in 0..2 {
            let arena = play(
                variant,
                Player::Engine(Level::Three),
                Player::Engine(Level::Three),
                seed,
                2,
                40,
            );
            let mut game = AnyGame::new(variant, GameOptions::default()).expect("options");
            for (color, squares) in &arena.designations {
                game.designate(*color, squares)
                    .expect("the arena's carriers");
            }
            for text in &arena.plies {
                positions.push(game.clone());
                game.play(None, text).expect("replays");
            }
        }
        for &level in levels {
            if level == Level::One {
                continue;
            }
            let mut times = Vec::new();
            let (mut nodes, mut busy) = (0u64, Duration::ZERO);
            for (i, game) in positions.iter().enumerate() {
                let started = Instant::now();
                let a = choose_action(game, level, i as u64).expect("playable");
                let took = started.elapsed();
                times.push(took);
                nodes += a.nodes;
                busy += took;
            }
            times.sort();
            let pct = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
            println!(
                "{variant:?} level {level}: {} positions, {nodes} nodes, {:.0} nodes/s, answer p50 {:.2?} p99 {:.2?} max {:.2?}",
                times.len(),
                nodes as f64 / busy.as_secs_f64(),
                pct(0.5),
                pct(0.99),
                times.last().unwrap(),
            );
        }
    }
}

/// A UCI conversation with Fairy-Stockfish.
struct Uci {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Uci {
    fn start(path: &str, variant: &str) -> Option<Uci> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let input = child.stdin.take()?;
        let output = BufReader::new(child.stdout.take()?);
        let mut uci = Uci {
            child,
            input,
            output,
        };
        uci.send("uci");
        // Debian's package (11.1) predates atomic support: its variant list must name it.
        let options = uci.read_until("uciok");
        if !options.iter().any(|l| {
            l.starts_with("option name UCI_Variant") && l.contains(&format!(" var {variant} "))
        }) {
            return None;
        }
        uci.send(&format!("setoption name UCI_Variant value {variant}"));
        uci.send("setoption name Threads value 1");
        uci.send("isready");
        uci.wait_for("readyok");
        Some(uci)
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("engine input");
        self.input.flush().expect("engine input");
    }

    fn read_until(&mut self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line).expect("engine output") == 0 {
                return lines;
            }
            let done = line.starts_with(prefix);
            lines.push(line.trim_end().to_string());
            if done {
                return lines;
            }
        }
    }

    fn wait_for(&mut self, prefix: &str) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            if self.output.read_line(&mut line).expect("engine output") == 0 {
                panic!("Fairy-Stockfish closed its output while we waited for {prefix}");
            }
            if line.starts_with(prefix) {
                return line.trim().to_string();
            }
        }
    }

    fn best_move(&mut self, moves: &[String], nodes: u64) -> String {
        self.send("ucinewgame");
        self.send(&format!("position startpos moves {}", moves.join(" ")));
        self.send(&format!("go nodes {nodes}"));
        let line = self.wait_for("bestmove");
        line.split_whitespace()
            .nth(1)
            .unwrap_or("(none)")
            .to_string()
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        self.send("quit");
        let _ = self.child.wait();
    }
}

/// `level` against Fairy-Stockfish in Atomic, `games` games per node limit, colours
/// alternating, the first two plies random (seeded) so games differ.
fn fairy(level: Level, node_limits: &[u64], games: usize, log: &mut Log) {
    // With --logged-only nothing is played, so no Fairy-Stockfish is needed.
    let mut uci = None;
    if !log.logged_only {
        let env = std::env::var("FAIRY_STOCKFISH").ok();
        let path = env
            .as_deref()
            .into_iter()
            .chain(["/usr/games/fairy-stockfish", "/usr/bin/fairy-stockfish"])
            .find(|p| std::path::Path::new(p).exists());
        let Some(path) = path else {
            println!("Fairy-Stockfish not found (set FAIRY_STOCKFISH=/path/to/binary): skipped");
            return;
        };
        let Some(started) = Uci::start(path, "atomic") else {
            println!("{path} did not start or has no atomic variant: skipped");
            return;
        };
        uci = Some(started);
    }
    for &nodes in node_limits {
        let mut tally = Tally::new();
        let started = Instant::now();
        for g in 0..games {
            let key = format!("fairy Atomic level {level} vs {nodes} nodes game {g}");
            let points = log.game(g, key, || {
                let uci = uci.as_mut().expect("started unless --logged-only");
                fairy_game(uci, level, nodes, g)
            });
            if let Some(points) = points {
                tally.add(points);
            }
        }
        println!(
            "Atomic level {level} vs Fairy-Stockfish at {nodes} nodes/move: {} ({} of {games} games; {:.0?})",
            tally.summary(),
            tally.points.len(),
            started.elapsed()
        );
    }
}

/// One game of `level` against Fairy-Stockfish at `nodes` per move: our points. Game `g`
/// has the engine White when `g` is even; games `2k` and `2k + 1` share their two random
/// opening plies.
fn fairy_game(uci: &mut Uci, level: Level, nodes: u64, g: usize) -> f64 {
    let ours_white = g.is_multiple_of(2);
    let ours = if ours_white {
        Color::White
    } else {
        Color::Black
    };
    let mut rng = fastrand::Rng::with_seed((g / 2) as u64);
    let mut game = AnyGame::new(Variant::Atomic, GameOptions::default()).expect("atomic");
    let mut moves: Vec<String> = Vec::new();
    while !game.status().is_finished() && moves.len() < 300 {
        let uci_text = if moves.len() < 2 {
            let legal = game.legal_actions(Viewer::Full);
            legal[rng.usize(..legal.len())].uci.clone()
        } else if game.turn() == ours {
            choose_action(&game, level, g as u64).expect("playable").uci
        } else {
            uci.best_move(&moves, nodes)
        };
        game.play(None, &uci_text)
            .unwrap_or_else(|e| panic!("{uci_text} after {moves:?}: {e}"));
        moves.push(uci_text);
    }
    let result = match game.status().outcome().and_then(|o| o.winner) {
        Some(Color::White) => GameResult::WhiteWins,
        Some(Color::Black) => GameResult::BlackWins,
        None => GameResult::Draw,
    };
    result.points(ours)
}
