//! # kaboom-engine
//!
//! A practice opponent for Kaboom's five variants, pure and synchronous: iterative-deepening
//! negamax with alpha-beta over the rules crate's public [`Position`] API, a transposition
//! table keyed by [`Position::repetition_key`], move ordering that tries explosive and
//! capturing actions first, quiescence over them, and a per-variant evaluation (see the
//! `eval` module's table). Levels 1 to 5 ([`Level`]) go from "random but never blunders the
//! king" to the strongest search that answers within a few seconds on one core.
//!
//! **Hidden information.** The engine is only ever given a position as one side sees it
//! ([`Position::view`]): in Beirut it does not know the opponent's carriers (BE-2), and its
//! own carriers it chooses at random among sensible candidates ([`choose_carriers`]). It
//! scores the risk of the unseen ones instead: where the opponent is to move and some of its
//! pieces stand where a Boom would blow up the engine's king, the search counts a loss with
//! the probability that one of them carries (from how many of the opponent's pieces may
//! still be carriers, after those the public record has ruled out), as a chance node.
//!
//! **Determinism.** Levels limit the search by nodes, not time, so the same game, level and
//! seed always give the same action. A time limit ([`Limits::movetime`]) stops a search
//! wherever the clock says and is for analysis only.
//!
//! ```
//! use kaboom_engine::{Level, choose_action};
//! use kaboom_rules::{AnyGame, GameOptions, Variant};
//!
//! let game = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
//! let choice = choose_action(&game, Level::Two, 7).unwrap();
//! assert!(game.clone().play(None, &choice.best).is_ok());
//! ```
#![deny(missing_docs)]

pub mod arena;
mod carriers;
mod eval;
mod hidden;
mod level;
pub mod puzzle;
pub mod review;
mod search;
mod tt;

use std::time::Duration;

pub use kaboom_rules::Viewer;
use kaboom_rules::{AnyGame, Color, Game, Position};
use serde::{Deserialize, Serialize};

pub use carriers::choose_carriers;
pub use level::{Level, ParseLevelError};

/// How long a search may run. Every limit that is set applies; with none set, the search
/// goes to depth 64 (use at least one limit).
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Limits {
    /// Deepest full-width iteration, in plies (1 to 64).
    pub depth: Option<u32>,
    /// Positions to visit at most (quiescence included).
    pub nodes: Option<u64>,
    /// Wall-clock time at most. Makes the result depend on the machine's speed.
    pub movetime: Option<Duration>,
    /// Transposition-table slots (about 24 bytes each); default 2^18 (about 6 MB).
    pub hash_entries: Option<usize>,
}

impl Limits {
    /// A search to `plies` plies.
    pub fn depth(plies: u32) -> Limits {
        Limits {
            depth: Some(plies),
            ..Limits::default()
        }
    }

    /// A search of at most `nodes` positions.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// A search of at most `time`.
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    fn hash_entries(&self) -> usize {
        self.hash_entries.unwrap_or(1 << 18)
    }
}

/// A search's score from the point of view of the side to move.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Score {
    /// An evaluation in centipawns (a pawn is 100; in Bombalot a tweke is 100).
    Centipawns {
        /// Positive when the side to move stands better.
        value: i32,
    },
    /// The side to move wins in `plies` plies at most (this action's ply included).
    Win {
        /// Plies to the win.
        plies: u32,
    },
    /// The side to move loses in `plies` plies at best.
    Loss {
        /// Plies to the loss.
        plies: u32,
    },
}

/// What a search found, in the variant's notation (C-5).
#[derive(Clone, Debug, Eq, PartialEq, Serialize)]
pub struct Analysis {
    /// The best action's canonical text (`Nf3`, `Boom@e5`, `Oxb5`, `e4:e6:g4`...).
    pub best: String,
    /// The best action's coordinate form (equal to the canonical text for actions that are
    /// not from-to moves: docs/ARCHITECTURE.md, "The CLI").
    pub uci: String,
    /// The score of the best action.
    pub score: Score,
    /// The deepest iteration completed, in plies.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Positions visited per second.
    pub nps: u64,
    /// Wall-clock time of the search, in milliseconds.
    pub elapsed_ms: u64,
    /// The principal variation in canonical text, the best action first.
    pub pv: Vec<String>,
}

/// Why the engine cannot act.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum EngineError {
    /// The game is over: there is nothing to play.
    #[error("the game is over")]
    GameOver,
    /// Carriers must be chosen before play starts (BE-2, NU-3).
    #[error("{0} must choose carriers before anyone moves")]
    AwaitingDesignation(Color),
    /// [`choose_carriers`] was asked for a side that has nothing to choose.
    #[error("{0} has no carriers to choose")]
    NothingToDesignate(Color),
}

/// Searches `game` as `viewer` sees it, within `limits`, for the side to move.
///
/// # Errors
/// [`EngineError::GameOver`] when the game is finished; [`EngineError::AwaitingDesignation`]
/// while a side still has to choose carriers.
pub fn analyse(game: &AnyGame, viewer: Viewer, limits: Limits) -> Result<Analysis, EngineError> {
    check_playable(game)?;
    Ok(dispatch!(game, g => analyse_game(g, viewer, limits)))
}

/// The action the engine plays at `level` for the side to move, seeing only that side's
/// view of the game (BE-2). `seed` picks among equally good actions; the same game, level
/// and seed give the same action.
///
/// # Errors
/// As [`analyse`].
pub fn choose_action(game: &AnyGame, level: Level, seed: u64) -> Result<Analysis, EngineError> {
    choose_action_with(game, level, seed, HiddenCarriers::Modelled)
}

/// Whether a search weighs the opponent's possible hidden Booms as chance nodes (Beirut,
/// BE-2, BE-3; `docs/PERFORMANCE.md`, "Beirut's hidden carriers as chance nodes"). Either
/// way the engine sees only its own view of the game.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub enum HiddenCarriers {
    /// The opponent may Boom with any piece that could still carry: what players get.
    #[default]
    Modelled,
    /// The search treats the unseen carriers as if there were none; only for measuring what
    /// the model is worth (the strength bench's `hidden` match). Outside Beirut it changes
    /// nothing.
    Ignored,
}

/// [`choose_action`] with the treatment of hidden carriers given.
///
/// # Errors
/// As [`analyse`].
pub fn choose_action_with(
    game: &AnyGame,
    level: Level,
    seed: u64,
    hidden: HiddenCarriers,
) -> Result<Analysis, EngineError> {
    check_playable(game)?;
    let viewer = Viewer::player(game.turn());
    Ok(dispatch!(game, g => level::choose(g, viewer, level, seed, hidden)))
}

fn check_playable(game: &AnyGame) -> Result<(), EngineError> {
    if let Some(&color) = game.awaiting_designation().first() {
        return Err(EngineError::AwaitingDesignation(color));
    }
    if game.status().is_finished() {
        return Err(EngineError::GameOver);
    }
    Ok(())
}

/// Runs `$body` with `$g` bound to the typed game inside an [`AnyGame`].
macro_rules! dispatch {
    ($game:expr, $g:ident => $body:expr) => {
        match $game {
            AnyGame::Atomic($g) => $body,
            AnyGame::Beirut($g) => $body,
            AnyGame::Nuke($g) => $body,
            AnyGame::Bomberman($g) => $body,
            AnyGame::Bombalot($g) => $body,
        }
    };
}
use dispatch;

/// The current position as `viewer` sees it and the repetition keys of the earlier
/// positions as they saw them (so a line that repeats the game's history scores as a draw).
fn viewed<P: Position>(game: &Game<P>, viewer: Viewer) -> (P, Vec<u64>) {
    let plies = game.plies().len();
    let history = (0..plies)
        .filter_map(|ply| game.position_after(ply))
        .map(|p| p.view(viewer).repetition_key())
        .collect();
    (game.position().view(viewer), history)
}

fn analyse_game<P: Position>(game: &Game<P>, viewer: Viewer, limits: Limits) -> Analysis {
    let (root, history) = viewed(game, viewer);
    let mut searcher =
        search::Searcher::new(limits, history).with_hidden(hidden::model(game, viewer));
    let found = searcher
        .run(&root)
        .expect("a game that is not over has a legal action");
    describe(&root, &found, found.best, found.score)
}

/// The public form of a search result whose chosen action is `chosen` (an index into the
/// root's canonical legal actions) scored `score`.
fn describe<P: Position>(root: &P, found: &search::Found, chosen: usize, score: i32) -> Analysis {
    let actions = root.legal_actions();
    let action = &actions[chosen];
    let mut pv = Vec::new();
    let mut pos = root.clone();
    let line: Vec<usize> = if chosen == found.best {
        found.pv.clone()
    } else {
        vec![chosen]
    };
    let mut list = Vec::new();
    for index in line {
        pos.legal_actions_into(&mut list);
        let Some(a) = list.get(index) else { break };
        pv.push(pos.san(a));
        let a = a.clone();
        pos.play_unchecked(&a);
    }
    let elapsed_ms = found.elapsed.as_millis() as u64;
    Analysis {
        best: root.san(action),
        uci: root.uci(action),
        score: search::to_score(score),
        depth: found.depth,
        nodes: found.nodes,
        nps: (found.nodes as f64 / found.elapsed.as_secs_f64().max(1e-6)) as u64,
        elapsed_ms,
        pv,
    }
}
