//! `kaboom analyse`: the practice opponent's search on a position, as JSON.

use std::time::Duration;

use kaboom_engine::{Analysis, Limits};
use kaboom_rules::{Color, Viewer};
use serde::Serialize;

use super::analysis::{CliError, Setup, play_movetext};

/// The longest `--depth` accepted, in plies.
pub const MAX_DEPTH: u32 = 64;

/// How long to search: exactly one of depth (plies), nodes (positions) or movetime
/// (milliseconds); none given means depth 6.
#[derive(Copy, Clone, Debug, Default)]
pub struct Budget {
    /// `--depth D`, plies, 1 to [`MAX_DEPTH`].
    pub depth: Option<u32>,
    /// `--nodes N`, positions visited, at least 1.
    pub nodes: Option<u64>,
    /// `--movetime MS`, milliseconds, at least 1.
    pub movetime_ms: Option<u64>,
}

impl Budget {
    fn limits(self) -> Result<Limits, CliError> {
        let given = [
            self.depth.is_some(),
            self.nodes.is_some(),
            self.movetime_ms.is_some(),
        ];
        if given.iter().filter(|&&g| g).count() > 1 {
            return Err(CliError(
                "give one of --depth, --nodes or --movetime, not several".into(),
            ));
        }
        Ok(match self {
            Budget { depth: Some(d), .. } if (1..=MAX_DEPTH).contains(&d) => Limits::depth(d),
            Budget { depth: Some(d), .. } => {
                return Err(CliError(format!(
                    "--depth {d} is out of range: give 1 to {MAX_DEPTH} plies"
                )));
            }
            Budget { nodes: Some(0), .. } => {
                return Err(CliError(
                    "--nodes 0 searches nothing: give at least 1".into(),
                ));
            }
            Budget { nodes: Some(n), .. } => Limits::nodes(n),
            Budget {
                movetime_ms: Some(0),
                ..
            } => {
                return Err(CliError(
                    "--movetime 0 searches nothing: give milliseconds, at least 1".into(),
                ));
            }
            Budget {
                movetime_ms: Some(ms),
                ..
            } => Limits::movetime(Duration::from_millis(ms)),
            _ => Limits::depth(6),
        })
    }
}

/// What `kaboom analyse` prints: the position searched and the engine's answer.
#[derive(Serialize)]
pub struct AnalyseJson {
    /// The position searched, as the viewer sees it.
    pub fen: String,
    /// The side to move, whose best action this is.
    pub to_move: Color,
    /// The search's answer: best action, score, depth, nodes, principal variation.
    #[serde(flatten)]
    pub analysis: Analysis,
}

/// `kaboom analyse`: the best action for the side to move after `movetext`, searched on
/// the position as `viewer` sees it (Beirut: a player's view hides the other side's
/// carriers, BE-2).
///
/// # Errors
/// [`CliError`] when the setup or a move fails, the game is over or still waits for
/// carriers, or the budget is not one valid limit.
pub fn analyse(
    setup: &Setup,
    movetext: Option<&str>,
    viewer: Viewer,
    budget: Budget,
) -> Result<AnalyseJson, CliError> {
    let limits = budget.limits()?;
    let mut game = setup.game()?;
    if let Some(text) = movetext {
        play_movetext(&mut game, text, |_| {})?;
    }
    let analysis = kaboom_engine::analyse(&game, viewer, limits).map_err(|e| match e {
        kaboom_engine::EngineError::AwaitingDesignation(_) => CliError(format!(
            "{e}: give --carriers white=SQ,black=SQ (or a --fen that records them)"
        )),
        other => CliError(format!("nothing to analyse: {other}")),
    })?;
    Ok(AnalyseJson {
        fen: game.fen(viewer),
        to_move: game.turn(),
        analysis,
    })
}
