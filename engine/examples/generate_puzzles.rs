//! Generates verified puzzles of one variant from engine self-play
//! (`kaboom_engine::puzzle::generate`) and writes them as JSON lines.
//!
//! `cargo run --release -p kaboom-engine --example generate_puzzles -- --variant atomic
//! --seed 1 --target 300 --out data/puzzles/atomic.jsonl`
//!
//! Flags (defaults from `GenerateOptions::for_variant`): `--games N`, `--scan-nodes N`,
//! `--verify-nodes N`, `--confirm-nodes N` (0 for no confirmation), `--max-plies N`,
//! `--levels A,B` (the self-play levels, e.g. `1,2`), `--random-plies A,B` (the fewest and
//! most random opening plies), `--quiet-opening true|false` (random plies that remove
//! nothing), `--trigger blunder|forced-win` (`Trigger`), `--first-game N` (skip the first
//! N self-play games), `--continue FILE` (keep FILE's puzzles first and add to them:
//! `generate_more`; with `--first-game` set to the run that made FILE's game count and
//! the same seed, the games it would have played next).
//! Progress and the report go to stderr; without `--out` the puzzles go to stdout.
//! `--help` prints this and exits.

#[path = "../tools/cli.rs"]
mod cli;

use std::io::Write;

use kaboom_engine::Level;
use kaboom_engine::puzzle::{GenerateOptions, Puzzle, Trigger, generate_more};
use kaboom_rules::Variant;

fn number<T: std::str::FromStr>(args: &[String], name: &str) -> Option<T> {
    cli::flag(args, name).map(|v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name} takes a number, not {v}"))
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        let usage: String = include_str!("generate_puzzles.rs")
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .map(|l| format!("{}\n", l.trim_start_matches("//!").trim_start()))
            .collect();
        print!("{usage}");
        return;
    }
    let variant: Variant = cli::flag(&args, "--variant")
        .unwrap_or_else(|| "atomic".into())
        .parse()
        .unwrap_or_else(|e| panic!("{e}"));
    let seed = number(&args, "--seed").unwrap_or(1);
    let mut options = GenerateOptions::for_variant(variant, seed);
    if let Some(n) = number(&args, "--target") {
        options.target = n;
    }
    if let Some(n) = number(&args, "--games") {
        options.games = n;
    }
    if let Some(n) = number(&args, "--first-game") {
        options.first_game = n;
    }
    let earlier: Vec<Puzzle> = match cli::flag(&args, "--continue") {
        Some(path) => std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{path}: {e}"))
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| Puzzle::from_json_line(l).unwrap_or_else(|e| panic!("{path}: {e}")))
            .collect(),
        None => Vec::new(),
    };
    if let Some(n) = number(&args, "--scan-nodes") {
        options.scan_nodes = n;
    }
    if let Some(n) = number(&args, "--verify-nodes") {
        options.verify_nodes = n;
    }
    if let Some(n) = number::<u64>(&args, "--confirm-nodes") {
        options.confirm_nodes = (n > 0).then_some(n);
    }
    if let Some(n) = number(&args, "--max-plies") {
        options.max_plies = n;
    }
    if let Some(levels) = cli::flag(&args, "--levels") {
        let parsed: Vec<Level> = levels
            .split(',')
            .map(|l| l.parse().unwrap_or_else(|e| panic!("{e}")))
            .collect();
        options.levels = [parsed[0], *parsed.last().expect("a level")];
    }
    if let Some(plies) = cli::flag(&args, "--random-plies") {
        let parsed: Vec<usize> = plies
            .split(',')
            .map(|n| {
                n.parse()
                    .unwrap_or_else(|_| panic!("--random-plies takes A,B"))
            })
            .collect();
        options.random_plies = [parsed[0], *parsed.last().expect("a number")];
    }
    if let Some(quiet) = cli::flag(&args, "--quiet-opening") {
        options.quiet_opening = quiet == "1" || quiet == "true";
    }
    if let Some(trigger) = cli::flag(&args, "--trigger") {
        options.trigger = match trigger.as_str() {
            "blunder" => Trigger::Blunder,
            "forced-win" => Trigger::BlunderOrForcedWin,
            _ => panic!("--trigger takes blunder or forced-win"),
        };
    }
    eprintln!("options: {options:?}; load {}", cli::load());
    let kept = earlier.len();
    let report = generate_more(earlier, &options, |p| {
        eprintln!(
            "{:>7.1} s: {} games, {} positions, {} candidates, {} puzzles",
            p.elapsed.as_secs_f64(),
            p.games,
            p.positions,
            p.candidates,
            p.puzzles
        );
    });
    let mut text = String::new();
    for puzzle in &report.puzzles {
        text.push_str(&puzzle.to_json_line());
        text.push('\n');
    }
    match cli::flag(&args, "--out") {
        Some(path) => std::fs::write(&path, text).unwrap_or_else(|e| panic!("{path}: {e}")),
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .expect("stdout"),
    }
    let mut themes = std::collections::BTreeMap::<String, usize>::new();
    let mut lengths = [0usize; 4];
    for p in &report.puzzles {
        for t in &p.themes {
            *themes
                .entry(serde_json::to_string(t).unwrap_or_default())
                .or_default() += 1;
        }
        lengths[p.solver_moves().min(3)] += 1;
    }
    let ratings: Vec<u32> = report.puzzles.iter().map(|p| p.rating).collect();
    let mean = ratings.iter().map(|&r| f64::from(r)).sum::<f64>() / ratings.len().max(1) as f64;
    eprintln!(
        "{variant}: {} puzzles ({} new) from {} games ({} positions, {} candidates) in {:.1} s; \
         rejected {:?}; solver moves 1/2/3: {}/{}/{}; themes {themes:?}; mean rating {mean:.0} \
         (min {:?}, max {:?}); load {}",
        report.puzzles.len(),
        report.puzzles.len() - kept,
        report.games,
        report.positions,
        report.candidates,
        report.elapsed.as_secs_f64(),
        report.rejections,
        lengths[1],
        lengths[2],
        lengths[3],
        ratings.iter().min(),
        ratings.iter().max(),
        cli::load(),
    );
}
