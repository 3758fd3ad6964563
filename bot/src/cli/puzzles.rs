//! `kaboom puzzles generate` and `kaboom puzzles export`: make a puzzle set (from engine
//! self-play, reproducibly, or from a database's finished games) and print the shipped set,
//! as JSON lines: `{"id","variant","fen","solution","themes","rating"}`
//! (`kaboom_engine::puzzle::Puzzle`, data/puzzles/README.md).

use std::io::IsTerminal;

use kaboom_engine::puzzle::{self, GenerateOptions, GenerationReport, Puzzle};
use kaboom_rules::{AnyGame, Variant};

/// What `kaboom puzzles generate` is asked for.
#[derive(Clone, Debug)]
pub struct GenerateRequest {
    /// The variant.
    pub variant: Variant,
    /// The self-play seed (the shipped set uses 1).
    pub seed: u64,
    /// Stop at this many puzzles.
    pub target: usize,
    /// Play at most this many self-play games (default: the engine's 2,000).
    pub games: Option<usize>,
}

/// The self-play generation of `request` (progress on standard error when it is a
/// terminal): the same request gives the same puzzles on any machine (every search is
/// limited by nodes).
pub fn generate(request: &GenerateRequest) -> GenerationReport {
    let mut options = GenerateOptions::for_variant(request.variant, request.seed);
    options.target = request.target;
    if let Some(games) = request.games {
        options.games = games;
    }
    let show = std::io::stderr().is_terminal();
    puzzle::generate(&options, |p| {
        if show {
            eprint!(
                "\r{} games, {} positions, {} candidates, {} puzzles, {:.0} s",
                p.games,
                p.positions,
                p.candidates,
                p.puzzles,
                p.elapsed.as_secs_f64()
            );
        }
    })
}

/// The puzzles verified in `games` (finished games of a database): every candidate
/// position ([`puzzle::candidates_from_game`]) verified at the variant's budgets, each
/// position once, at most `target`.
pub fn from_games(games: &[AnyGame], variant: Variant, target: usize) -> Vec<Puzzle> {
    let options = GenerateOptions::for_variant(variant, 0);
    let mut seen = std::collections::HashSet::new();
    let mut found = Vec::new();
    for game in games {
        let Ok(candidates) = puzzle::candidates_from_game(game, options.scan_nodes) else {
            continue;
        };
        for candidate in candidates {
            if found.len() >= target {
                return found;
            }
            if !seen.insert(candidate.fen.clone()) {
                continue;
            }
            let Ok(p) = puzzle::verify_fen(variant, &candidate.fen, options.verify_nodes) else {
                continue;
            };
            if puzzle::reverify(&p, puzzle::confirm_nodes(variant)).is_ok() {
                found.push(p);
            }
        }
    }
    found
}

/// The report's summary for standard error: counts and rejections by reason.
pub fn summary(report: &GenerationReport) -> String {
    let rejections: Vec<String> = report
        .rejections
        .iter()
        .map(|(reason, n)| format!("{reason} {n}"))
        .collect();
    format!(
        "{} puzzles from {} games ({} positions, {} candidates) in {:.0} s; rejected: {}",
        report.puzzles.len(),
        report.games,
        report.positions,
        report.candidates,
        report.elapsed.as_secs_f64(),
        if rejections.is_empty() {
            "none".to_string()
        } else {
            rejections.join(", ")
        }
    )
}
