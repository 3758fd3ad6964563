//! Post-game analysis: every position of a finished (or running) game searched with every
//! secret known, each ply judged as lichess judges moves.
//!
//! ```
//! use kaboom_engine::review::{ReviewBudget, review_game};
//! use kaboom_rules::{AnyGame, GameOptions, Variant};
//!
//! let mut game = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
//! for text in ["e4", "d5", "exd5", "Qxd5"] {
//!     game.play(None, text).unwrap();
//! }
//! let mut seen = Vec::new();
//! let review = review_game(&game, ReviewBudget::nodes(2_000), |p| seen.push(p.done)).unwrap();
//! assert_eq!(seen, [0, 1, 2, 3, 4]);
//! assert_eq!(review.plies.len(), 4);
//! assert_eq!(review.plies[2].san, "exd5");
//! assert_eq!(review.white_win_percents().len(), 4);
//! let json = serde_json::to_value(&review).unwrap();
//! assert!(json["accuracy"]["white"].is_number());
//! ```
//!
//! # What is searched
//!
//! Every position before a ply, and the last position of the game, is searched with
//! [`Viewer::Full`] (a review only ever runs after the game, when Beirut's carriers are
//! public, BE-9) by the engine's ordinary search within [`ReviewBudget::nodes_per_position`]
//! nodes. Each search is fresh (its own transposition table) and sees the game's earlier
//! positions for repetition, exactly as [`crate::analyse`] with [`ReviewBudget::limits`]
//! does on the game cut at that position; so the review is deterministic. The last position
//! is not searched when the board ended the game (a win or draw on the board, threefold
//! repetition, an automatic draw, C-3, C-4): it scores by that result. A game ended off the
//! board (resignation, agreement, time forfeit, adjudication) still has a playable last
//! position, and that is searched, so a move is judged by what it left on the board.
//!
//! # Carrier designations
//!
//! Beirut (BE-2) and Nuke (NU-3) carriers are chosen before the first ply and are not plies:
//! [`kaboom_rules::Game::designate`] writes them into the start position, and
//! [`kaboom_rules::Game::plies`] holds only actions. A review therefore numbers plies from the
//! first action (ply 1) and never judges a designation; it needs the designations themselves,
//! though, and refuses a game still waiting for them ([`ReviewError::AwaitingDesignation`])
//! and a game whose record hides them ([`ReviewError::CarriersHidden`]).
//!
//! # Formulas
//!
//! Win percentages, move accuracy, game accuracy and marks follow lichess (lila) exactly,
//! from its sources: `modules/tree/src/main/WinPercent.scala` and scalachess's
//! `core/src/main/scala/eval.scala` (win percent, the 1000-centipawn ceiling, mate scores),
//! `modules/analyse/src/main/AccuracyPercent.scala` (move and game accuracy),
//! `modules/common/src/main/Maths.scala` (the means and the population standard deviation)
//! and `modules/tree/src/main/Advice.scala` (inaccuracy, mistake, blunder). The one
//! constant lichess fitted to Stockfish's centipawns ([`LICHESS_WIN_PERCENT_K`]) is fitted
//! to the engine's evaluation per variant: [`win_percent_k`].
//! Where lila starts a game's accuracy from a fixed +15 centipawns (`Cp.initial`, the
//! standard start position), a review uses the search of the game's real start position.

use kaboom_rules::beirut::Designation;
use kaboom_rules::{AnyGame, Color, Game, Outcome, Position, Variant, Viewer};
use serde::{Deserialize, Serialize};

use crate::{Limits, Score, search};

/// The evaluation ceiling of lila's win percent, in centipawns (`Eval.Cp.CEILING`, scalachess
/// `eval.scala`): centipawn scores are clamped to ±1000 and a forced win or loss counts as
/// +1000 or −1000.
pub const CP_CEILING: i32 = 1000;

/// The default node budget per position in `variant`, in nodes: at most about 60 s of one
/// core for an 80-ply game in a release build, with room to spare. Measured with the
/// `review_timing` example (an 80-ply level-2 game per variant, 81 positions, on a 2-core
/// host with the other core busy): Atomic 42 s at 400,000 nodes, Beirut 40 s and Nuke 38 s
/// at 200,000, Bomberman Chess 47 s and Bombalot 37 s at 60,000 (about 750,000 positions per
/// second in Atomic, 350,000 in Beirut and Nuke, 110,000 to 130,000 in the 10x10 variants).
pub const fn default_nodes(variant: Variant) -> u64 {
    match variant {
        Variant::Atomic => 400_000,
        Variant::Beirut | Variant::Nuke => 200_000,
        Variant::Bomberman | Variant::Bombalot => 60_000,
    }
}

/// How much searching a review does: a node budget per position, so that the same game
/// and budget always give the same review, on any machine.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize)]
pub struct ReviewBudget {
    /// Positions the search of one game position may visit (quiescence included), at least 1.
    pub nodes_per_position: u64,
}

impl ReviewBudget {
    /// A budget of `nodes` nodes per position.
    pub fn nodes(nodes: u64) -> ReviewBudget {
        ReviewBudget {
            nodes_per_position: nodes,
        }
    }

    /// The default budget for `variant`: [`default_nodes`] nodes per position.
    pub fn for_variant(variant: Variant) -> ReviewBudget {
        ReviewBudget::nodes(default_nodes(variant))
    }

    /// The search limits of one position: [`Limits::nodes`] of the budget. [`crate::analyse`]
    /// with these limits and [`Viewer::Full`] finds what the review finds for the same
    /// position of the same game.
    pub fn limits(self) -> Limits {
        Limits::nodes(self.nodes_per_position)
    }
}

/// How far a review has got, reported after each position: `done` of `total` plies have both
/// their positions evaluated ("analysing: 23 of 80 plies"). The first report is
/// `done: 0`, the last `done == total`.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize)]
pub struct ReviewProgress {
    /// Plies whose positions before and after are evaluated.
    pub done: usize,
    /// Plies in the game.
    pub total: usize,
}

/// Why a game cannot be reviewed.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum ReviewError {
    /// A side has not chosen its carriers yet (BE-2, NU-3): there is no game to review.
    #[error("{0} has not chosen its carriers yet: there is nothing to review")]
    AwaitingDesignation(Color),
    /// The game's start position hides a side's Beirut carriers (a player's or spectator's
    /// view, BE-2); a review needs the full state ([`Viewer::Full`]).
    #[error("{0}'s carriers are hidden in this game; a review needs the full record")]
    CarriersHidden(Color),
    /// The budget allows no node per position.
    #[error("a review needs at least one node per position")]
    EmptyBudget,
}

/// lila's judgement of a ply (`Advice.Judgement`, `modules/tree/src/main/Advice.scala`).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// The mover's winning chances dropped by 0.1 to 0.2 (5 to 10 win-percent points), or a
    /// forced loss appeared from an already lost position (below −999 centipawns).
    Inaccuracy,
    /// A drop of 0.2 to 0.3 (10 to 15 points), or a forced loss from −999 to −701 centipawns,
    /// or a forced win thrown away for a position still above +700 centipawns.
    Mistake,
    /// A drop of 0.3 or more (15 points or more), or a forced loss from a position not worse
    /// than −700 centipawns, or a forced win thrown away for +700 centipawns or less.
    Blunder,
}

/// Each side's accuracy over the game, in percent (0 to 100); `None` for a side that made
/// no move.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameAccuracy {
    /// White's accuracy, in percent.
    pub white: Option<f64>,
    /// Black's accuracy, in percent.
    pub black: Option<f64>,
}

/// One ply of a reviewed game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlyReview {
    /// The ply's number, from 1 (the first action after the carrier designations).
    pub ply: usize,
    /// The side that played it.
    pub mover: Color,
    /// The canonical text of the action played (C-5), as [`kaboom_rules::PlyRecord::san`].
    pub san: String,
    /// The evaluation after the ply from White's point of view (as PGN's `[%eval]`): a
    /// [`Score::Win`] is White's forced win, a [`Score::Loss`] White's forced loss, in plies
    /// from the position after this ply (0 when the game ended there with that result).
    pub eval: Score,
    /// The mover's win percent before the ply (0 to 100), [`win_percent`] of the search of
    /// the position before it.
    pub win_before: f64,
    /// The mover's win percent after the ply (0 to 100), [`win_percent`] of [`PlyReview::eval`].
    pub win_after: f64,
    /// The ply's accuracy in percent (0 to 100): [`move_accuracy`] of the two.
    pub accuracy: f64,
    /// lila's judgement of the ply ([`mark`]), if any.
    pub mark: Option<Mark>,
    /// For a marked ply, the engine's choice in the position before it (canonical text), when
    /// it differs from the action played; `None` otherwise.
    pub better: Option<String>,
    /// The principal variation starting with [`PlyReview::better`], in canonical text; empty
    /// when there is no better action to show.
    pub line: Vec<String>,
}

impl PlyReview {
    /// The mover's loss in win percent on this ply, in percentage points (0 to 100; negative
    /// when the mover's chances grew).
    pub fn win_drop(&self) -> f64 {
        self.win_before - self.win_after
    }
}

/// A reviewed game: the accuracy of each side and every ply judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameReview {
    /// The variant.
    pub variant: Variant,
    /// The node budget each position was searched with.
    pub nodes_per_position: u64,
    /// The evaluation of the start position from White's point of view.
    pub start: Score,
    /// Each side's accuracy over the game ([`game_accuracy`]), in percent.
    pub accuracy: GameAccuracy,
    /// Every ply, in order.
    pub plies: Vec<PlyReview>,
}

impl GameReview {
    /// White's win percent (0 to 100) after each ply, in order: one value per ply, for an
    /// advantage chart (the start position's is [`GameReview::start_win_percent`]).
    pub fn white_win_percents(&self) -> Vec<f64> {
        self.plies
            .iter()
            .map(|p| match p.mover {
                Color::White => p.win_after,
                Color::Black => 100.0 - p.win_after,
            })
            .collect()
    }

    /// White's win percent (0 to 100) in the start position.
    pub fn start_win_percent(&self) -> f64 {
        win_percent(self.variant, self.start)
    }

    /// Every ply, the mover's biggest losses in win percent ([`PlyReview::win_drop`]) first; ties
    /// in ply order. The first three are the game's three biggest swings.
    pub fn swings(&self) -> Vec<&PlyReview> {
        let mut plies: Vec<&PlyReview> = self.plies.iter().collect();
        plies.sort_by(|a, b| {
            b.win_drop()
                .total_cmp(&a.win_drop())
                .then(a.ply.cmp(&b.ply))
        });
        plies
    }
}

/// lichess's win-percent constant, per centipawn: `MULTIPLIER` in
/// `modules/tree/src/main/WinPercent.scala`, fitted to Stockfish's centipawns in standard
/// chess by lila pull request 11148. The reference [`win_percent_k`] is measured against.
pub const LICHESS_WIN_PERCENT_K: f64 = 0.003_682_08;

/// The constant `k` of [`winning_chances`] for `variant`, per centipawn: fitted to the
/// engine's own evaluation as lichess fitted [`LICHESS_WIN_PERCENT_K`] to Stockfish's, so
/// that `100 / (1 + e^(−k·cp))` predicts the expected score of the side to move.
///
/// The fits are by the `fit_win_k` example (`engine/examples/fit_win_k.rs`; method, table and
/// calibration in `docs/PERFORMANCE.md`, "Win-percent constant per variant (post-game
/// analysis)"): 50 level-3 self-play games per variant, every third position from ply 8
/// searched as a review searches it (20,000 nodes, 4,000 in the 10x10 variants), `k` by
/// maximum likelihood, a 95% interval from 1000 bootstrap resamples of the games. Reproduce
/// with `cargo run --release -p kaboom-engine --example fit_win_k -- 50` (seed 20261124;
/// `-- 50 --variants nuke` for one variant, the same games). A fit is used when its interval
/// is informative (its upper bound under three times its lower, away from the range's
/// edges); otherwise lichess's value stays.
///
/// - Atomic: lichess's. The fit, 0.00212 (95%: 0.00061 to 0.00536; 50 games, +26 =5 −19
///   for White, 1106 positions), is too wide to say anything, and holds lichess's value.
/// - Beirut: 0.003601, fitted (95%: 0.00251 to 0.00631; 50 games, +23 =6 −21, 1977
///   positions): lichess's value to within 2%.
/// - Nuke: lichess's. The fit is degenerate, 0.0005, the floor of the range searched (50
///   games, 36 drawn, 2610 positions): level-3 play rarely converts a material edge in Nuke,
///   where only a carrier can take the king (NU-2), so positions at ±1000 centipawns end in
///   draws by the 100-ply rule and the score barely follows the evaluation. To fit again
///   once the engine converts such endings.
/// - Bomberman Chess: 0.001819, fitted (95%: 0.00114 to 0.00276; 50 games, +20 =10 −20, 2418
///   positions): its centipawns turn into wins at half lichess's rate.
/// - Bombalot: 0.001630, fitted (95%: 0.00102 to 0.00243; 50 games, +22 =0 −28, 1016
///   positions): its centipawns turn into wins at less than half lichess's rate.
pub fn win_percent_k(variant: Variant) -> f64 {
    match variant {
        // The fits say nothing yet (see above).
        Variant::Atomic | Variant::Nuke => LICHESS_WIN_PERCENT_K,
        Variant::Beirut => 0.003_601,
        Variant::Bomberman => 0.001_819,
        Variant::Bombalot => 0.001_630,
    }
}

/// lila's winning chances of an evaluation of `cp` centipawns, from −1 (lost) to +1 (won):
/// `2 / (1 + e^(−k·cp)) − 1` with `k` = [`win_percent_k`], not clamped to the ceiling
/// (`WinPercent.winningChances`, `modules/tree/src/main/WinPercent.scala`; the marks use it
/// so).
pub fn winning_chances(variant: Variant, cp: i32) -> f64 {
    let k = win_percent_k(variant);
    (2.0 / (1.0 + (-k * f64::from(cp)).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// lila's win percent of `score` for the side whose point of view it is, from 0 to 100:
/// `50 + 50 · winning_chances(cp)` with `cp` clamped to ±[`CP_CEILING`], a forced win
/// counting as +1000 and a forced loss as −1000 (`WinPercent.fromScore`, scalachess
/// `eval.scala`). 0 centipawns are exactly 50.
pub fn win_percent(variant: Variant, score: Score) -> f64 {
    let cp = match score {
        Score::Centipawns { value } => value.clamp(-CP_CEILING, CP_CEILING),
        Score::Win { .. } => CP_CEILING,
        Score::Loss { .. } => -CP_CEILING,
    };
    50.0 + 50.0 * winning_chances(variant, cp)
}

/// lila's accuracy of a move that took the mover's win percent from `before` to `after`
/// (both 0 to 100), in percent: 100 when `after >= before`, else
/// `103.1668100711649 · e^(−0.04354415386753951 · (before − after)) − 3.166924740191411`
/// plus lila's uncertainty bonus of 1, clamped to 0..100 (`AccuracyPercent.fromWinPercents`,
/// `modules/analyse/src/main/AccuracyPercent.scala`).
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let raw = 103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * (before - after)).exp()
        - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// lila's game accuracy of each side (`AccuracyPercent.gameAccuracy`,
/// `modules/analyse/src/main/AccuracyPercent.scala`), in percent. `white_win_percents` holds
/// White's win percent (0 to 100) in every position of the game, the start first: one more
/// value than plies. `first_mover` made the first ply.
///
/// Each ply's [`move_accuracy`] (from the mover's side) is weighted by the volatility around
/// it: the population standard deviation of a window of win percents, clamped to 0.5..12.
/// The window holds `plies / 10` positions, clamped to 2..8; the first `window − 2` plies use
/// the first window, then it slides by one position per ply. A side's accuracy is the mean
/// of its weighted mean and its harmonic mean (each accuracy counted at least 1 in the
/// harmonic mean, `Maths.harmonicMean`).
pub fn game_accuracy(white_win_percents: &[f64], first_mover: Color) -> GameAccuracy {
    let plies = white_win_percents.len().saturating_sub(1);
    if plies == 0 {
        return GameAccuracy {
            white: None,
            black: None,
        };
    }
    let window = (plies / 10).clamp(2, 8).min(white_win_percents.len());
    let windows = std::iter::repeat_n(&white_win_percents[..window], window - 2)
        .chain(white_win_percents.windows(window));
    let weights = windows.map(|xs| standard_deviation(xs).clamp(0.5, 12.0));
    let mut sides: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, (pair, weight)) in white_win_percents.windows(2).zip(weights).enumerate() {
        let mover = if i % 2 == 0 {
            first_mover
        } else {
            first_mover.other()
        };
        let (before, after) = match mover {
            Color::White => (pair[0], pair[1]),
            Color::Black => (100.0 - pair[0], 100.0 - pair[1]),
        };
        sides[mover.index()].push((move_accuracy(before, after), weight));
    }
    let side = |accuracies: &[(f64, f64)]| {
        let weighted = weighted_mean(accuracies)?;
        let harmonic = harmonic_mean(accuracies.iter().map(|&(a, _)| a))?;
        Some((weighted + harmonic) / 2.0)
    };
    GameAccuracy {
        white: side(&sides[Color::White.index()]),
        black: side(&sides[Color::Black.index()]),
    }
}

/// lila's mark for a ply (`Advice.apply`, `modules/tree/src/main/Advice.scala`), from the
/// evaluations before and after it, both from the mover's point of view.
///
/// Two centipawn scores: the drop in [`winning_chances`] (unclamped, −1..1) marks a
/// blunder from 0.3, a mistake from 0.2, an inaccuracy from 0.1 (15, 10 and 5 win-percent
/// points). A forced loss after a centipawn score: an inaccuracy below −999 centipawns before,
/// a mistake below −700, else a blunder. A forced win before and a centipawn score after:
/// an inaccuracy above +999 after, a mistake above +700, else a blunder; a forced win before
/// and a forced loss after: a blunder. Nothing else is marked (a slower forced win is not).
/// Unlike chess, a variant may let the mover lose on the spot (Nuke, NU-8): a loss in 0
/// plies counts as a forced loss here, where lila's `Mate(0)` never follows a move.
pub fn mark(variant: Variant, before: Score, after: Score) -> Option<Mark> {
    use Score::{Centipawns, Loss, Win};
    match (before, after) {
        (Centipawns { value: b }, Centipawns { value: a }) => {
            let delta = winning_chances(variant, b) - winning_chances(variant, a);
            if delta >= 0.3 {
                Some(Mark::Blunder)
            } else if delta >= 0.2 {
                Some(Mark::Mistake)
            } else if delta >= 0.1 {
                Some(Mark::Inaccuracy)
            } else {
                None
            }
        }
        (Centipawns { value: b }, Loss { .. }) => Some(if b < -999 {
            Mark::Inaccuracy
        } else if b < -700 {
            Mark::Mistake
        } else {
            Mark::Blunder
        }),
        (Win { .. }, Centipawns { value: a }) => Some(if a > 999 {
            Mark::Inaccuracy
        } else if a > 700 {
            Mark::Mistake
        } else {
            Mark::Blunder
        }),
        (Win { .. }, Loss { .. }) => Some(Mark::Blunder),
        _ => None,
    }
}

/// Reviews `game`: searches every position (see the module documentation) within `budget`
/// and judges every ply; `progress` hears after each position how many plies are done.
/// Pure and synchronous; about half a second of one core per position at the default
/// budget ([`default_nodes`]) in a release build.
///
/// # Errors
/// [`ReviewError::AwaitingDesignation`] while a side still has to choose carriers,
/// [`ReviewError::CarriersHidden`] when the game does not know a side's Beirut carriers,
/// [`ReviewError::EmptyBudget`] for a budget of 0 nodes.
pub fn review_game(
    game: &AnyGame,
    budget: ReviewBudget,
    mut progress: impl FnMut(ReviewProgress),
) -> Result<GameReview, ReviewError> {
    if budget.nodes_per_position == 0 {
        return Err(ReviewError::EmptyBudget);
    }
    if let Some(&color) = game.awaiting_designation().first() {
        return Err(ReviewError::AwaitingDesignation(color));
    }
    if let AnyGame::Beirut(g) = game
        && let Some(color) = Color::ALL
            .into_iter()
            .find(|&c| g.start().designation(c) == Designation::Hidden)
    {
        return Err(ReviewError::CarriersHidden(color));
    }
    Ok(crate::dispatch!(game, g => review_typed(g, budget, &mut progress)))
}

/// The search of one game position, from White's point of view, with the engine's choice.
struct Evaluated {
    /// White's point of view.
    white: Score,
    /// The engine's choice (index into the legal actions), its text and line; `None` for a
    /// position scored by the game's result.
    best: Option<(usize, String, Vec<String>)>,
}

fn review_typed<P: Position>(
    game: &Game<P>,
    budget: ReviewBudget,
    progress: &mut dyn FnMut(ReviewProgress),
) -> GameReview {
    let variant = P::VARIANT;
    let total = game.plies().len();
    let positions: Vec<P> = (0..=total)
        .map(|i| {
            game.position_after(i)
                .expect("a game has a position after each ply")
                .view(Viewer::Full)
        })
        .collect();
    let keys: Vec<u64> = positions.iter().map(Position::repetition_key).collect();
    let mut evaluated: Vec<Evaluated> = Vec::with_capacity(total + 1);
    for (i, pos) in positions.iter().enumerate() {
        let result = if i == total {
            board_result(pos, &keys)
        } else {
            None
        };
        let found = match result {
            Some(_) => None,
            None => search::Searcher::new(budget.limits(), keys[..i].to_vec()).run(pos),
        };
        let eval = match found {
            Some(found) => {
                let described = crate::describe(pos, &found, found.best, found.score);
                Evaluated {
                    white: white_view(described.score, pos.turn()),
                    best: Some((found.best, described.best, described.pv)),
                }
            }
            // A position without a legal action that the board did not decide cannot
            // follow a ply; count it as its result, a draw, to be safe.
            None => Evaluated {
                white: result.map_or(Score::Centipawns { value: 0 }, result_score),
                best: None,
            },
        };
        evaluated.push(eval);
        progress(ReviewProgress { done: i, total });
    }
    let white_win: Vec<f64> = evaluated
        .iter()
        .map(|e| win_percent(variant, e.white))
        .collect();
    let mut plies = Vec::with_capacity(total);
    for (i, record) in game.plies().iter().enumerate() {
        let mover = record.mover;
        let before = mover_view(evaluated[i].white, mover);
        let after = mover_view(evaluated[i + 1].white, mover);
        let win_before = win_percent(variant, before);
        let win_after = win_percent(variant, after);
        let mark = mark(variant, before, after);
        let (better, line) = match (&evaluated[i].best, mark) {
            (Some((index, san, pv)), Some(_))
                if positions[i].legal_actions().get(*index) != Some(&game.actions()[i]) =>
            {
                (Some(san.clone()), pv.clone())
            }
            _ => (None, Vec::new()),
        };
        plies.push(PlyReview {
            ply: i + 1,
            mover,
            san: record.san.clone(),
            eval: evaluated[i + 1].white,
            win_before,
            win_after,
            accuracy: move_accuracy(win_before, win_after),
            mark,
            better,
            line,
        });
    }
    let accuracy = game_accuracy(&white_win, game.start().turn());
    GameReview {
        variant,
        nodes_per_position: budget.nodes_per_position,
        start: evaluated[0].white,
        accuracy,
        plies,
    }
}

/// The end the board decided in the last position `pos` (whose repetition key is the last of
/// `keys`, the keys of every position of the game): a win or draw on the board, threefold
/// repetition, an automatic draw, in [`Game::status`]'s order. A result declared off the
/// board is not the board's.
fn board_result<P: Position>(pos: &P, keys: &[u64]) -> Option<Outcome> {
    let last = *keys.last()?;
    pos.variant_outcome()
        .or_else(|| {
            (keys.iter().filter(|&&k| k == last).count() >= 3)
                .then_some(Outcome::draw(kaboom_rules::EndReason::Repetition))
        })
        .or_else(|| pos.automatic_draw().map(Outcome::draw))
}

/// A result as a score from White's point of view: a win or loss in 0 plies, or 0.
fn result_score(outcome: Outcome) -> Score {
    match outcome.winner {
        Some(Color::White) => Score::Win { plies: 0 },
        Some(Color::Black) => Score::Loss { plies: 0 },
        None => Score::Centipawns { value: 0 },
    }
}

/// `score` from the point of view of `side` turned to White's.
fn white_view(score: Score, side: Color) -> Score {
    match side {
        Color::White => score,
        Color::Black => invert(score),
    }
}

/// A score from White's point of view turned to `mover`'s.
fn mover_view(white: Score, mover: Color) -> Score {
    white_view(white, mover)
}

/// The same score from the other side's point of view.
fn invert(score: Score) -> Score {
    match score {
        Score::Centipawns { value } => Score::Centipawns { value: -value },
        Score::Win { plies } => Score::Loss { plies },
        Score::Loss { plies } => Score::Win { plies },
    }
}

/// The population standard deviation (`Maths.standardDeviation`); 0 for no values.
fn standard_deviation(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// `Maths.weightedMean` of (value, weight) pairs; `None` when empty or weightless.
fn weighted_mean(pairs: &[(f64, f64)]) -> Option<f64> {
    let (sum, weights) = pairs
        .iter()
        .fold((0.0, 0.0), |(s, w), &(v, wt)| (s + v * wt, w + wt));
    (!pairs.is_empty() && weights != 0.0).then(|| sum / weights)
}

/// `Maths.harmonicMean`: each value counts at least 1; `None` when empty.
fn harmonic_mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (n, reciprocal) = values.fold((0usize, 0.0), |(n, r), v| (n + 1, r + 1.0 / v.max(1.0)));
    (n > 0).then(|| n as f64 / reciprocal)
}
