//! Engine-against-engine games for measuring strength (the match figures in
//! `docs/PERFORMANCE.md` and the strength tests).

use kaboom_rules::{AnyGame, Color, GameOptions, Square, Status, Variant, Viewer};

use crate::{HiddenCarriers, Level, choose_action_with, choose_carriers};

/// Who plays one side of an arena game.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Player {
    /// A uniformly random legal action every ply (and random carriers).
    Random,
    /// The engine at a level.
    Engine(Level),
    /// The engine at a level with the opponent's hidden carriers ignored
    /// ([`HiddenCarriers::Ignored`]): Beirut only, to measure what the model is worth.
    EngineIgnoringHidden(Level),
}

/// How an arena game ended, for the side that played White.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum GameResult {
    /// White won (on the board).
    WhiteWins,
    /// Black won (on the board).
    BlackWins,
    /// A draw on the board (stalemate, repetition, 100 plies...) or by the ply cap.
    Draw,
}

impl GameResult {
    /// Points for `color`: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn points(self, color: Color) -> f64 {
        match (self, color) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 1.0,
            _ => 0.0,
        }
    }
}

/// One finished arena game: its result, its carriers and its actions in canonical text.
#[derive(Clone, Debug)]
pub struct ArenaGame {
    /// The result.
    pub result: GameResult,
    /// The carriers each side chose before the first ply (BE-2, NU-3), in the order they
    /// were designated; empty in variants without carriers. With them and `plies` the game
    /// replays.
    pub designations: Vec<(Color, Vec<Square>)>,
    /// Every ply's canonical text, in order.
    pub plies: Vec<String>,
}

/// Plays `variant` between `white` and `black`. The first `random_plies` plies are random
/// (seeded by `seed`), for varied openings; the game is drawn after `max_plies` plies.
/// Every engine action is played through [`AnyGame::play`], so an illegal one would panic
/// here: the arena doubles as a legality check.
///
/// # Panics
/// If the engine returns an action the rules refuse (a bug this is meant to catch).
pub fn play(
    variant: Variant,
    white: Player,
    black: Player,
    seed: u64,
    random_plies: usize,
    max_plies: usize,
) -> ArenaGame {
    play_with(
        variant,
        white,
        black,
        seed,
        Opening::Random(random_plies),
        max_plies,
    )
}

/// How the first plies of an arena game are chosen ([`play_with`]).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Opening {
    /// This many plies of uniformly random legal actions.
    Random(usize),
    /// This many plies of random actions that remove no piece (C-6) of either colour (any
    /// legal action where every one removes something); a [`Player::Random`] side plays
    /// uniformly random actions after them. Varied openings that keep the material, where a
    /// uniformly random action often sets off one's own bomb (BM-5, BA-9) or co-squares
    /// (BA-7).
    Quiet(usize),
}

impl Opening {
    fn plies(self) -> usize {
        match self {
            Opening::Random(n) | Opening::Quiet(n) => n,
        }
    }
}

/// [`play`] with the opening chosen by `opening`: an engine side plays the opening's
/// random actions for its first plies, then its level. `Opening::Random(n)` plays exactly
/// as [`play`] with `random_plies` = `n`.
///
/// # Panics
/// If the engine returns an action the rules refuse (a bug this is meant to catch).
pub fn play_with(
    variant: Variant,
    white: Player,
    black: Player,
    seed: u64,
    opening: Opening,
    max_plies: usize,
) -> ArenaGame {
    let random_plies = opening.plies();
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut game = AnyGame::new(variant, GameOptions::default()).expect("default options");
    let mut designations = Vec::new();
    for color in game.awaiting_designation() {
        let player = if color == Color::White { white } else { black };
        let squares = match player {
            Player::Engine(_) | Player::EngineIgnoringHidden(_) => {
                choose_carriers(&game, color, rng.u64(..)).expect("carriers")
            }
            Player::Random => {
                let mut all = game.carrier_candidates(color);
                rng.shuffle(&mut all);
                all.truncate(game.carrier_count());
                all
            }
        };
        game.designate(color, &squares)
            .expect("engine carriers are legal");
        designations.push((color, squares));
    }
    let mut plies = Vec::new();
    while !game.status().is_finished() && plies.len() < max_plies {
        let player = if game.turn() == Color::White {
            white
        } else {
            black
        };
        let engine = match player {
            Player::Engine(level) => Some((level, HiddenCarriers::Modelled)),
            Player::EngineIgnoringHidden(level) => Some((level, HiddenCarriers::Ignored)),
            Player::Random => None,
        };
        let text = match engine {
            Some((level, hidden)) if plies.len() >= random_plies => {
                choose_action_with(&game, level, rng.u64(..), hidden)
                    .expect("playable")
                    .best
            }
            _ => {
                let mut legal = game.legal_actions(Viewer::player(game.turn()));
                let quiet = matches!(opening, Opening::Quiet(_)) && plies.len() < random_plies;
                if quiet && legal.iter().any(|a| a.removed.is_empty()) {
                    legal.retain(|a| a.removed.is_empty());
                }
                legal[rng.usize(..legal.len())].san.clone()
            }
        };
        game.play(Some(game.turn()), &text)
            .unwrap_or_else(|e| panic!("engine action {text} refused: {e}"));
        plies.push(text);
    }
    let result = match game.status() {
        Status::Finished(outcome) => match outcome.winner {
            Some(Color::White) => GameResult::WhiteWins,
            Some(Color::Black) => GameResult::BlackWins,
            None => GameResult::Draw,
        },
        _ => GameResult::Draw,
    };
    ArenaGame {
        result,
        designations,
        plies,
    }
}
