//! `kaboom analyse-game`: the post-game analysis the bot posts (`/analysis`), as JSON, for
//! hosts and tests: each player's accuracy and, per ply, the engine's evaluation, the mark
//! (inaccuracy, mistake, blunder) and the better move with its line
//! ([`kaboom_engine::review`]).

use std::io::IsTerminal;

use kaboom_engine::review::{GameReview, ReviewBudget, ReviewError, review_game};
use kaboom_rules::notation::movetext_actions;

use super::analysis::{CliError, Setup, play_movetext};

/// The movetext of a PGN file: its tag pairs (`[Event "..."]` lines) left out; numbers,
/// comments, glyphs and the result are skipped when the movetext is read.
pub fn pgn_movetext(pgn: &str) -> String {
    pgn.lines()
        .filter(|line| !line.trim_start().starts_with('['))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `kaboom analyse-game`: `movetext` played from `setup` (carriers from `--carriers`), every
/// position searched with every secret known at `nodes` per position (default: the
/// variant's budget, about a minute of one core for 80 plies in a release build). Progress
/// goes to standard error when it is a terminal.
///
/// # Errors
/// [`CliError`] when the setup or a move fails, carriers are missing, the movetext holds
/// no move, or `nodes` is 0.
pub fn analyse_game(
    setup: &Setup,
    movetext: &str,
    nodes: Option<u64>,
) -> Result<GameReview, CliError> {
    let mut game = setup.game()?;
    let tokens = movetext_actions(movetext).map_err(|e| CliError(e.to_string()))?;
    if tokens.is_empty() {
        return Err(CliError(
            "the movetext holds no move: give the game's moves, e.g. --moves \"1. e4 e5 2. Nf3\""
                .into(),
        ));
    }
    play_movetext(&mut game, movetext, |_| {})?;
    let budget = match nodes {
        Some(0) => {
            return Err(CliError(
                "--nodes 0 searches nothing: give at least 1 node per position".into(),
            ));
        }
        Some(n) => ReviewBudget::nodes(n),
        None => ReviewBudget::for_variant(game.variant()),
    };
    let show = std::io::stderr().is_terminal();
    review_game(&game, budget, |p| {
        if show {
            eprint!("\ranalysing: {} of {} plies", p.done, p.total);
            if p.done == p.total {
                eprintln!();
            }
        }
    })
    .map_err(|e| match e {
        ReviewError::AwaitingDesignation(_) => CliError(format!(
            "{e}: give --carriers white=SQ,black=SQ (the carriers both sides chose)"
        )),
        other => CliError(other.to_string()),
    })
}
