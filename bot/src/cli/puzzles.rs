//! `kaboom puzzles generate` and `kaboom puzzles export`: make a puzzle set (from engine
//! self-play, reproducibly, or from a database's finished games) and print the shipped set,
//! as JSON lines: `{"id","variant","fen","solution","themes","rating"}`
//! (`kaboom_engine::puzzle::Puzzle`, data/puzzles/README.md).

use std::io::IsTerminal;

use kaboom_engine::puzzle::{self, GenerateOptions, GenerationReport};
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

/// The puzzles in `games` (finished games of a database), found and verified as the
/// self-play generation finds them, at the variant's budgets
/// ([`puzzle::generate_from_games`]), at most `target`.
pub fn from_games(games: &[AnyGame], variant: Variant, target: usize) -> GenerationReport {
    let mut options = GenerateOptions::for_variant(variant, 0);
    options.target = target;
    puzzle::generate_from_games(games, &options)
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
