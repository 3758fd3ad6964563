//! Variant puzzles: finding positions with one winning line, verifying them, rating them,
//! and generating a set from engine self-play (or from finished games).
//!
//! ```
//! use kaboom_engine::puzzle::{Theme, verify_fen};
//! use kaboom_rules::Variant;
//!
//! // AT-6: White's king is lost to ...Nxb2 or ...Qxh2 next move, unless White blows
//! // up the black king first: Qxf7 explodes next to e8.
//! let fen = "4k3/5p2/8/7Q/8/8/1Pnq4/2K5 w - - 0 1";
//! let puzzle = verify_fen(Variant::Atomic, fen, 20_000).unwrap();
//! assert_eq!(puzzle.solution, ["h5f7"]);
//! assert!(puzzle.themes.contains(&Theme::KingBlast));
//! assert!(puzzle.themes.contains(&Theme::OneMove));
//! assert_eq!(puzzle.id.len(), 6);
//! let line = puzzle.to_json_line();
//! assert!(line.starts_with(&format!(r#"{{"id":"{}","variant":"atomic","fen":"{fen}","#, puzzle.id)));
//! ```
//!
//! # What a puzzle is
//!
//! A [`Puzzle`] is a position (the side to move is the *solver*) and a line, in the
//! coordinate form [`AnyGame::play`] accepts: the solver's move, the opponent's reply, ...,
//! ending with a solver's move. Every solver move is the *only move*: lichess's puzzle
//! generator's criterion (`lichess-puzzler`, `generator.py` and `util.py`), with the
//! engine's own win-chance scale per variant ([`review::winning_chances`]) in place of
//! Stockfish's:
//!
//! - the best action wins: a forced win, or winning chances of at least [`WINNING`] (0.6 on
//!   lichess's −1..+1 scale, `ln 4 / k`: about +376 centipawns in Atomic and Nuke, +385 in
//!   Beirut, +762 in Bomberman Chess, +850 in Bombalot, where centipawns turn into wins
//!   more slowly);
//! - every other action is clearly worse: the best of them ([`verify`] finds it by a second
//!   search that leaves the best action out) is neither a forced win nor winning by the same
//!   standard, and its winning chances are at least [`GAP`] (0.5) below the best's.
//!   lichess-puzzler asks the same gap (0.5 in its current `util.py`); the "not winning"
//!   condition keeps out positions where a second action still wins, only less.
//! - except where the best action wins on the spot (a win in 1 ply: a king blast, a mate,
//!   a goal): as lichess-puzzler takes any mate in one, the only other condition then is
//!   that, at the first solver move, no other action wins on the spot too; at a later solver
//!   move nothing else is checked. **A player who, at a later solver move, plays another
//!   action that wins the game on the spot has solved the puzzle too** (lichess accepts any
//!   mate on the last move); the bot checks that by playing it (the game is then won by the
//!   solver).
//!
//! The opponent's replies are the engine's best at the same budget. The line stops when the
//! advantage is realised: the solver's move wins the game on the board (king exploded,
//! checkmate, goal, no pieces, immobilized: C-3), or the solver has gained at least
//! [`DECISIVE_MATERIAL`] centipawns of material (the engine's piece values; kings do not
//! count) after the opponent's best reply and its next move is no longer an only move. A
//! line not realised after [`MAX_SOLVER_MOVES`] solver moves is rejected
//! ([`Rejection::TooLong`]).
//!
//! Everything is searched with [`Viewer::Full`]: in Beirut the solver knows both sides'
//! carriers (BE-2), as in a study of a finished game (BE-9), and so does the puzzle's FEN.
//! Searches are limited by nodes with a fresh transposition table each, so the same position
//! and budget always give the same answer on any machine.
//!
//! # Rating
//!
//! [`Puzzle::rating`] is a starting Glicko-2 rating that players' results then move:
//! `900 + 300·(solver moves − 1) + 80·min(d − 1, 10) + 60·ln(legal actions) + 250 if the
//! first move is quiet + 200 if it is a sacrifice`, clamped to 600..2800 and rounded to 10,
//! where `d` is the depth (plies) of the first iteration from which the engine kept
//! preferring the first move (a move seen at depth 1 is easy; one the engine needed 7 plies
//! for is not).
//!
//! # Generation
//!
//! [`generate`] plays engine self-play games, scans every position for candidates
//! ([`candidates_with`]) and verifies each new one ([`verify`], then [`reverify`] at a deeper
//! budget). The settings differ by variant ([`GenerateOptions::for_variant`]); the criteria
//! above do not.
//!
//! - Atomic, Beirut, Nuke: levels 1 against 2, the first 2 to 8 plies uniformly random,
//!   [`Trigger::Blunder`] (lichess-puzzler's: a blunder's punishment).
//! - Bomberman Chess, Bombalot: levels 2 against 3, the first 2 to 8 plies random among the
//!   actions that remove nothing ([`arena::Opening::Quiet`]), [`Trigger::BlunderOrForcedWin`].
//!   With the Atomic settings these variants gave no puzzles: a uniformly random opening
//!   ply often sets off one's own bomb (BM-5: `Oxa1` takes the a2 pawn and the b1 rook with
//!   it) or co-squares (BA-7: `b1-a3` removes one's own imitator), so most games were lost
//!   for one side from the first plies, and levels 1 and 2 (1,000 and 600 nodes on these
//!   boards) then cannot convert: the games ran to the ply limit through positions that are
//!   won in many ways (`several-winning-moves`), and the rare swing the scan saw was of the
//!   same kind. In balanced games between levels 2 and 3 many games are decided, and the
//!   position where the winner plays the decisive move often has a single winning action
//!   (the only mate, the only second piece into the goal); the scan sees that forced win already a
//!   few plies earlier, so the `Blunder` trigger, which only takes a forced win that the
//!   opponent's last move opened, skipped it; `BlunderOrForcedWin` takes every position
//!   with a forced win, each verified as above.

use std::collections::{BTreeMap, HashSet};
use std::time::{Duration, Instant};

use kaboom_rules::beirut::Designation;
use kaboom_rules::{AnyGame, Color, EndReason, Game, Kind, Position, Removal, Variant, Viewer};
use serde::{Deserialize, Serialize};

use crate::arena::{self, Player};
use crate::search;
use crate::{Level, Limits, review};

/// The lowest winning chances (lichess's −1..+1 scale, [`review::winning_chances`]) of a
/// solver's best move: below them the position is not won enough for a puzzle.
pub const WINNING: f64 = 0.6;

/// How far (in winning chances, −1..+1) the second-best move must stay below the best.
pub const GAP: f64 = 0.5;

/// The material (centipawns of the engine's piece values, kings excluded) the solver must
/// have gained, after the opponent's best reply, for a line that does not end the game.
pub const DECISIVE_MATERIAL: i32 = 200;

/// The most solver moves a puzzle may ask for.
pub const MAX_SOLVER_MOVES: usize = 3;

/// One verified puzzle. Serialized as one JSON line ([`Puzzle::to_json_line`]):
/// `{"id":..,"variant":..,"fen":..,"solution":[..],"themes":[..],"rating":..}`.
#[derive(Clone, Debug, Eq, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    /// A short stable id: [`puzzle_id`] of the variant and FEN (6 base-36 characters,
    /// longer only where a set had a collision).
    pub id: String,
    /// The variant (`"atomic"`, `"beirut"`, `"nuke"`, `"bomberman"`, `"bombalot"`).
    pub variant: Variant,
    /// The position before the solver's first move, in the serialization
    /// [`AnyGame::from_fen`] reads, with every secret ([`Viewer::Full`]: both sides'
    /// Beirut carriers, BE-2). The side to move is the solver.
    pub fen: String,
    /// The line in coordinate form (what [`AnyGame::play`] accepts): the solver's moves at
    /// even indices, the opponent's replies at odd ones; it ends with a solver move.
    pub solution: Vec<String>,
    /// The motifs, sorted and without repeats ([`Theme`]).
    pub themes: Vec<Theme>,
    /// The starting Glicko-2 rating, 600 to 2800 (module docs, "Rating").
    pub rating: u32,
}

impl Puzzle {
    /// The puzzle as one line of JSON, without a newline.
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).expect("a puzzle always serializes")
    }

    /// Reads one line written by [`Puzzle::to_json_line`].
    ///
    /// # Errors
    /// [`PuzzleError::Json`] when the line is not a puzzle.
    pub fn from_json_line(line: &str) -> Result<Puzzle, PuzzleError> {
        serde_json::from_str(line).map_err(|e| PuzzleError::Json(e.to_string()))
    }

    /// How many moves the solver plays (1 to [`MAX_SOLVER_MOVES`]).
    pub fn solver_moves(&self) -> usize {
        self.solution.len().div_ceil(2)
    }
}

/// A motif of a puzzle, determined from the solution's actions, their removal reports
/// (C-6) and effects ([`Position::effects`]), and how the line ends. Serialized in
/// kebab-case (`"king-blast"`).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Theme {
    /// The last move removes the enemy king: an Atomic blast (AT-6), a Beirut Boom (BE-4),
    /// a Nuke blast (NU-6, NU-8).
    KingBlast,
    /// The last move checkmates (AT-9, BE-1, BM-8).
    Mate,
    /// The last move wins by two pieces in the goal (Bombalot, BA-11).
    Goal,
    /// The last move leaves the opponent without pieces on the board (Bombalot, BA-11).
    NoPieces,
    /// The last move leaves the opponent without a legal action (Bombalot, BA-11).
    Immobilized,
    /// The line does not end the game; the solver gains at least [`DECISIVE_MATERIAL`].
    Material,
    /// A solver move is a Beirut Boom (BE-3).
    Boom,
    /// A solver move sets off a bomb: a Bomberman detonation or capture of a bomb (BM-5,
    /// BM-7), a Bombalot bomb exploding or a detonator landing on one (BA-7, BA-9).
    Detonation,
    /// A solver move sets off two bombs or more: a Nuke chain (NU-7), a Bomberman wave
    /// hitting a bomb (BM-6), a Bombalot blast reaching a bomb (BA-9).
    Chain,
    /// A solver move hands a Nuke bomb on first (NU-4).
    Transfer,
    /// A solver move grabs a loose Nuke bomb (NU-10).
    Grab,
    /// A solver move defuses an enemy bomb (Bomberman, BM-7).
    Defuse,
    /// A solver move is a Bombalot tank push (BA-6).
    Push,
    /// A solver move enters the opponent's goal (Bombalot, BA-2).
    GoalEntry,
    /// A solver move removes enemy pieces by jumping them (Bombalot, BA-4).
    Jump,
    /// A solver move removes pieces on a detonator's co-squares (Bombalot, BA-7).
    CoSquare,
    /// The first move removes nothing (and does not win on the spot).
    QuietMove,
    /// The first move gives material: what it (and the best reply) removes of the solver's
    /// is worth at least 100 centipawns more than what it removes of the opponent's (not for
    /// a move that wins on the spot).
    Sacrifice,
    /// One solver move.
    OneMove,
    /// Two solver moves.
    Short,
    /// Three solver moves.
    Long,
}

impl Theme {
    /// Every theme, in declaration order.
    pub const ALL: [Theme; 21] = [
        Theme::KingBlast,
        Theme::Mate,
        Theme::Goal,
        Theme::NoPieces,
        Theme::Immobilized,
        Theme::Material,
        Theme::Boom,
        Theme::Detonation,
        Theme::Chain,
        Theme::Transfer,
        Theme::Grab,
        Theme::Defuse,
        Theme::Push,
        Theme::GoalEntry,
        Theme::Jump,
        Theme::CoSquare,
        Theme::QuietMove,
        Theme::Sacrifice,
        Theme::OneMove,
        Theme::Short,
        Theme::Long,
    ];

    /// The theme's name as it is serialized (`"king-blast"`).
    pub const fn name(self) -> &'static str {
        match self {
            Theme::KingBlast => "king-blast",
            Theme::Mate => "mate",
            Theme::Goal => "goal",
            Theme::NoPieces => "no-pieces",
            Theme::Immobilized => "immobilized",
            Theme::Material => "material",
            Theme::Boom => "boom",
            Theme::Detonation => "detonation",
            Theme::Chain => "chain",
            Theme::Transfer => "transfer",
            Theme::Grab => "grab",
            Theme::Defuse => "defuse",
            Theme::Push => "push",
            Theme::GoalEntry => "goal-entry",
            Theme::Jump => "jump",
            Theme::CoSquare => "co-square",
            Theme::QuietMove => "quiet-move",
            Theme::Sacrifice => "sacrifice",
            Theme::OneMove => "one-move",
            Theme::Short => "short",
            Theme::Long => "long",
        }
    }
}

/// Why a position is not a puzzle. [`Rejection::name`] gives the key the generation report
/// counts it under.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum Rejection {
    /// The game is over (or drawn automatically, C-4) in the candidate position.
    #[error("the game is over")]
    GameOver,
    /// A side still has to choose carriers, or this game hides a side's Beirut carriers
    /// (BE-2): a puzzle needs the full state.
    #[error("the carriers are not known")]
    CarriersUnknown,
    /// The solver has only one legal action in the first position.
    #[error("only one legal action")]
    OnlyOneLegalAction,
    /// The best action at solver move `move_number` (from 1) is not winning ([`WINNING`]).
    #[error("solver move {move_number}: the best action does not win")]
    NotWinning {
        /// The solver move, from 1.
        move_number: usize,
    },
    /// At solver move `move_number` a second action wins too (a forced win or winning
    /// chances of at least [`WINNING`]).
    #[error("solver move {move_number}: several actions win")]
    SeveralWinningMoves {
        /// The solver move, from 1.
        move_number: usize,
    },
    /// At solver move `move_number` the second-best action is within [`GAP`] of the best.
    #[error("solver move {move_number}: the second-best action is too close")]
    CloseSecondBest {
        /// The solver move, from 1.
        move_number: usize,
    },
    /// The line stopped having only moves before the game was won or decisive material
    /// gained.
    #[error("the line ends without a decisive gain")]
    NotDecisive,
    /// The advantage is not realised after [`MAX_SOLVER_MOVES`] solver moves.
    #[error("longer than {MAX_SOLVER_MOVES} solver moves")]
    TooLong,
    /// The opponent's best reply ends the game (a draw, or its own loss in Nuke, NU-8).
    #[error("the opponent's reply ends the game")]
    ReplyEndsGame,
    /// The puzzle did not pass [`reverify`] at the deeper confirmation budget (generation).
    #[error("not confirmed at the deeper budget")]
    Unstable,
    /// The same position already gave a puzzle (generation).
    #[error("the position is already in the set")]
    Duplicate,
}

impl Rejection {
    /// The kebab-case key of this reason, without its move number (`"several-winning-moves"`).
    pub fn name(&self) -> &'static str {
        match self {
            Rejection::GameOver => "game-over",
            Rejection::CarriersUnknown => "carriers-unknown",
            Rejection::OnlyOneLegalAction => "only-one-legal-action",
            Rejection::NotWinning { .. } => "not-winning",
            Rejection::SeveralWinningMoves { .. } => "several-winning-moves",
            Rejection::CloseSecondBest { .. } => "close-second-best",
            Rejection::NotDecisive => "not-decisive",
            Rejection::TooLong => "too-long",
            Rejection::ReplyEndsGame => "reply-ends-game",
            Rejection::Unstable => "unstable",
            Rejection::Duplicate => "duplicate",
        }
    }
}

/// Why a puzzle (external data) cannot be read or does not check.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
pub enum PuzzleError {
    /// The JSON line is not a puzzle.
    #[error("not a puzzle: {0}")]
    Json(String),
    /// The FEN does not parse for the variant.
    #[error("bad FEN: {0}")]
    Fen(String),
    /// The id is not [`puzzle_id`] of the variant and FEN (6 characters or more).
    #[error("the id {0} does not match the variant and FEN")]
    Id(String),
    /// The solution is empty or ends with the opponent's reply.
    #[error("the solution must have an odd number of moves, not {0}")]
    SolutionLength(usize),
    /// Solution move `index` (from 0) is not legal.
    #[error("solution move {index} ({text}) is illegal: {reason}")]
    IllegalMove {
        /// Index in the solution, from 0.
        index: usize,
        /// The move's text.
        text: String,
        /// The rules crate's reason.
        reason: String,
    },
    /// The game is not won at the end of a solution whose themes say it is.
    #[error("the solution does not end the game as its themes say")]
    EndDiffers,
    /// The engine's best first move at the budget is another one.
    #[error("the engine prefers {found} to the solution's first move")]
    OtherBestMove {
        /// The engine's choice, coordinate form.
        found: String,
    },
    /// The first move does not pass the only-move check at the budget.
    #[error("{0}")]
    Rejected(Rejection),
    /// The game given to [`candidates_from_game`] cannot be studied (carriers not chosen or
    /// hidden, BE-2).
    #[error("the game's carriers are not known")]
    CarriersUnknown,
}

/// The puzzle id of a position: FNV-1a (64 bits) of `"<variant>\n<fen>"` in base 36,
/// lowercase, zero-padded to 13 characters, its first `len` characters (6 to 13).
pub fn puzzle_id(variant: Variant, fen: &str, len: usize) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in variant
        .name()
        .bytes()
        .chain(std::iter::once(b'\n'))
        .chain(fen.bytes())
    {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let mut digits = [b'0'; 13];
    for d in digits.iter_mut().rev() {
        let digit = (hash % 36) as u8;
        *d = if digit < 10 {
            b'0' + digit
        } else {
            b'a' + digit - 10
        };
        hash /= 36;
    }
    let full: String = digits.iter().map(|&b| char::from(b)).collect();
    full[..len.clamp(6, 13)].to_string()
}

/// Verifies the current position of `game` as a puzzle (the side to move is the solver),
/// every search limited to `nodes` nodes (visited positions, quiescence included). The
/// game's history is not used: the puzzle starts from its FEN.
///
/// # Errors
/// The [`Rejection`] saying why the position is not a puzzle.
pub fn verify(game: &AnyGame, nodes: u64) -> Result<Puzzle, Rejection> {
    if !game.awaiting_designation().is_empty() || carriers_hidden(game) {
        return Err(Rejection::CarriersUnknown);
    }
    let line =
        crate::dispatch!(game, g => verify_position(&g.position().view(Viewer::Full), nodes))?;
    Ok(line.puzzle(game.variant(), game.fen(Viewer::Full)))
}

/// [`verify`] on the position `fen` of `variant`.
///
/// # Errors
/// [`PuzzleError::Fen`] when `fen` does not parse, [`PuzzleError::Rejected`] when the
/// position is not a puzzle.
pub fn verify_fen(variant: Variant, fen: &str, nodes: u64) -> Result<Puzzle, PuzzleError> {
    let game = AnyGame::from_fen(variant, fen).map_err(|e| PuzzleError::Fen(e.to_string()))?;
    verify(&game, nodes).map_err(PuzzleError::Rejected)
}

/// Checks a puzzle read from outside: its id matches its variant and FEN, its solution is
/// legal move by move (through [`AnyGame::play`]) and ends with a solver move, a solution
/// whose themes say the game ends does end it with the solver winning, and the first move
/// is the engine's choice and passes the only-move check at `nodes` nodes per search (use a
/// budget deeper than the generator's).
///
/// # Errors
/// The first [`PuzzleError`] found.
pub fn reverify(puzzle: &Puzzle, nodes: u64) -> Result<(), PuzzleError> {
    let full = puzzle_id(puzzle.variant, &puzzle.fen, 13);
    if puzzle.id.len() < 6 || !full.starts_with(&puzzle.id) {
        return Err(PuzzleError::Id(puzzle.id.clone()));
    }
    let start = AnyGame::from_fen(puzzle.variant, &puzzle.fen)
        .map_err(|e| PuzzleError::Fen(e.to_string()))?;
    let n = puzzle.solution.len();
    if n.is_multiple_of(2) {
        return Err(PuzzleError::SolutionLength(n));
    }
    let solver = start.turn();
    let mut game = start.clone();
    for (index, text) in puzzle.solution.iter().enumerate() {
        game.play(None, text)
            .map_err(|e| PuzzleError::IllegalMove {
                index,
                text: text.clone(),
                reason: e.to_string(),
            })?;
    }
    let ends = puzzle.themes.iter().any(|t| {
        matches!(
            t,
            Theme::KingBlast | Theme::Mate | Theme::Goal | Theme::NoPieces | Theme::Immobilized
        )
    });
    if ends && game.status().outcome().and_then(|o| o.winner) != Some(solver) {
        return Err(PuzzleError::EndDiffers);
    }
    if !start.awaiting_designation().is_empty() || carriers_hidden(&start) {
        return Err(PuzzleError::CarriersUnknown);
    }
    let first = crate::dispatch!(&start, g => first_move(&g.position().view(Viewer::Full), nodes));
    match first {
        Ok(uci) if uci == puzzle.solution[0] => Ok(()),
        Ok(found) => Err(PuzzleError::OtherBestMove { found }),
        Err(rejection) => Err(PuzzleError::Rejected(rejection)),
    }
}

/// A position of a game worth verifying ([`candidates_from_game`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Plies played before the position (0 is the start).
    pub ply: usize,
    /// The position with every secret ([`Viewer::Full`]), for [`verify_fen`].
    pub fen: String,
    /// The side to move's winning chances there at the scan budget (−1..+1).
    pub chances: f64,
    /// How much they grew with the opponent's last move (0 to 2).
    pub swing: f64,
}

/// The positions of `game` that may hold a puzzle: each position is searched with
/// `scan_nodes` nodes (with the game's earlier positions for repetition), and one is a
/// candidate when the side to move is winning there ([`WINNING`]) and was not before the
/// opponent's last move, its winning chances having grown by at least [`GAP`]
/// (lichess-puzzler's trigger: a blunder's punishment), or when it has a forced win there
/// that it did not have before the opponent's last move (a blunder in a won position, which
/// lichess-puzzler skips: here it gives king-blast and mate puzzles) ([`Trigger::Blunder`];
/// [`candidates_with`] takes other triggers). Positions with fewer than two legal actions,
/// finished positions and the first two plies are skipped. Verify each with [`verify_fen`]
/// at a deeper budget.
///
/// # Errors
/// [`PuzzleError::CarriersUnknown`] when a side has not chosen its carriers or the game
/// hides a side's Beirut carriers (BE-2).
pub fn candidates_from_game(
    game: &AnyGame,
    scan_nodes: u64,
) -> Result<Vec<Candidate>, PuzzleError> {
    candidates_with(game, scan_nodes, Trigger::Blunder)
}

/// Which positions of a game [`candidates_with`] takes.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Trigger {
    /// [`candidates_from_game`]'s: the side to move wins after a blunder (a gain of at
    /// least [`GAP`] to at least [`WINNING`]), or has a forced win it did not have before
    /// the opponent's last move.
    Blunder,
    /// As `Blunder`, and also every position where the side to move has a forced win at the
    /// scan budget, had it before the opponent's move or not: in Bomberman Chess and
    /// Bombalot the scan sees the forced win plies before the one move that realises it
    /// (the mate, the goal), which `Blunder` then skips.
    BlunderOrForcedWin,
}

/// [`candidates_from_game`] with the given [`Trigger`].
///
/// # Errors
/// As [`candidates_from_game`].
pub fn candidates_with(
    game: &AnyGame,
    scan_nodes: u64,
    trigger: Trigger,
) -> Result<Vec<Candidate>, PuzzleError> {
    if !game.awaiting_designation().is_empty() || carriers_hidden(game) {
        return Err(PuzzleError::CarriersUnknown);
    }
    Ok(crate::dispatch!(game, g => scan_game(g, scan_nodes, trigger)))
}

/// Everything [`generate`] needs; the same options give the same puzzles.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct GenerateOptions {
    /// The variant.
    pub variant: Variant,
    /// The seed of the self-play games (openings and engine choices).
    pub seed: u64,
    /// The most self-play games to play.
    pub games: usize,
    /// The index of the first self-play game to play: the games before it are skipped (their
    /// seeds still drawn), so that a run with `first_game` set to an earlier run's game count
    /// plays the games that run would have played next ([`generate_more`]).
    pub first_game: usize,
    /// Stop once this many puzzles are found.
    pub target: usize,
    /// Nodes per position when scanning a game for candidates ([`candidates_from_game`]).
    pub scan_nodes: u64,
    /// Nodes per search when verifying a candidate ([`verify`]).
    pub verify_nodes: u64,
    /// Nodes per search of the confirmation ([`reverify`]) every puzzle must also pass;
    /// `None` for none.
    pub confirm_nodes: Option<u64>,
    /// The most plies of each self-play game.
    pub max_plies: usize,
    /// The engine levels of the self-play games: game `g` has White at `levels[g % 2]` and
    /// Black at the other.
    pub levels: [Level; 2],
    /// The fewest and the most random plies opening each self-play game (each game draws its
    /// number between them).
    pub random_plies: [usize; 2],
    /// Whether the opening's random plies are chosen among actions that remove no piece
    /// ([`arena::Opening::Quiet`]) rather than among all ([`arena::Opening::Random`]).
    pub quiet_opening: bool,
    /// Which positions of a game are verified ([`candidates_with`]).
    pub trigger: Trigger,
}

impl GenerateOptions {
    /// The budgets this project generates its shipped set with (`data/puzzles/README.md`),
    /// sized for about a quarter of an hour of one core per variant: Atomic scans at 5,000
    /// nodes per position, verifies at 60,000 per search and confirms at 120,000, in games of
    /// at most 160 plies; Beirut and Nuke 1,500, 40,000 and 80,000 (their positions cost
    /// twice as much), games of at most 120 plies; all three with levels 1 and 2, 2 to 8
    /// uniformly random opening plies and [`Trigger::Blunder`]. Bomberman Chess and Bombalot
    /// (positions six times as costly as Atomic's): 800, 20,000 and 40,000, 120 plies, levels
    /// 2 and 3, 2 to 8 quiet random opening plies and [`Trigger::BlunderOrForcedWin`] (module
    /// docs, "Generation"); measured about 8 puzzles per minute of one core in Bomberman
    /// Chess and 18 in Bombalot. 300 puzzles, at most 2,000 games.
    pub fn for_variant(variant: Variant, seed: u64) -> GenerateOptions {
        let (scan_nodes, verify_nodes, max_plies) = default_budget(variant);
        let large = matches!(variant, Variant::Bomberman | Variant::Bombalot);
        GenerateOptions {
            variant,
            seed,
            games: 2_000,
            first_game: 0,
            target: 300,
            scan_nodes,
            verify_nodes,
            confirm_nodes: Some(confirm_nodes(variant)),
            max_plies,
            levels: if large {
                [Level::Two, Level::Three]
            } else {
                [Level::One, Level::Two]
            },
            random_plies: [2, 8],
            quiet_opening: large,
            trigger: if large {
                Trigger::BlunderOrForcedWin
            } else {
                Trigger::Blunder
            },
        }
    }
}

/// The default (scan nodes, verify nodes, max plies) of `variant`.
const fn default_budget(variant: Variant) -> (u64, u64, usize) {
    match variant {
        Variant::Atomic => (5_000, 60_000, 160),
        Variant::Beirut | Variant::Nuke => (1_500, 40_000, 120),
        Variant::Bomberman | Variant::Bombalot => (800, 20_000, 120),
    }
}

/// The confirmation budget of `variant`, in nodes per search: twice the verification
/// budget of [`GenerateOptions::for_variant`]. The shipped set's tests re-verify with it.
pub const fn confirm_nodes(variant: Variant) -> u64 {
    default_budget(variant).1 * 2
}

/// How far a generation has got, reported after each self-play game.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize)]
pub struct GenerateProgress {
    /// Self-play games played.
    pub games: usize,
    /// Positions scanned.
    pub positions: usize,
    /// Candidates verified.
    pub candidates: usize,
    /// Puzzles found.
    pub puzzles: usize,
    /// Wall-clock time so far.
    pub elapsed: Duration,
}

/// What a generation produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GenerationReport {
    /// The puzzles, in the order found.
    pub puzzles: Vec<Puzzle>,
    /// Self-play games played.
    pub games: usize,
    /// Positions scanned.
    pub positions: usize,
    /// Candidates found by the scan (duplicates included).
    pub candidates: usize,
    /// Rejected candidates by [`Rejection::name`].
    pub rejections: BTreeMap<&'static str, usize>,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// Generates puzzles from engine self-play: games between `levels` (alternating colours; the
/// first `random_plies` plies random, quiet ones with `quiet_opening`, for varied openings;
/// carriers chosen by [`crate::choose_carriers`]), each scanned for candidates
/// ([`candidates_with`] at `scan_nodes` with `trigger`), each new candidate position
/// verified ([`verify`] at `verify_nodes`) and
/// confirmed ([`reverify`] at `confirm_nodes`), until `target` puzzles or `games` games.
/// Ids are extended past 6 characters where two positions share a prefix. `progress`
/// hears after each game. Pure and single-threaded; reproducible from the options.
pub fn generate(
    options: &GenerateOptions,
    progress: impl FnMut(&GenerateProgress),
) -> GenerationReport {
    generate_more(Vec::new(), options, progress)
}

/// Continues an earlier generation: `earlier` (a set [`generate`] made, in its order) is kept
/// first, its positions and ids are taken, and self-play games from `options.first_game` on
/// add puzzles until the whole set has `options.target` or `options.games` more games are
/// played. With `first_game` equal to the earlier run's game count and the same seed, the
/// new games are the ones the earlier run would have played next; a position the earlier
/// run rejected may be verified again (only its puzzles are known), with the same result at
/// the same budgets. `report.games` and the other counts are this run's.
pub fn generate_more(
    earlier: Vec<Puzzle>,
    options: &GenerateOptions,
    mut progress: impl FnMut(&GenerateProgress),
) -> GenerationReport {
    let started = Instant::now();
    let mut found = Found::default();
    for puzzle in &earlier {
        found.seen.insert(puzzle.fen.clone());
        found.ids.insert(puzzle.id.clone());
    }
    let mut report = GenerationReport {
        puzzles: earlier,
        ..GenerationReport::default()
    };
    if report.puzzles.len() >= options.target {
        return report;
    }
    let mut rng = fastrand::Rng::with_seed(options.seed);
    for _ in 0..options.first_game {
        rng.u64(..);
    }
    for g in options.first_game..options.first_game.saturating_add(options.games) {
        let seed = rng.u64(..);
        let [a, b] = options.levels.map(Player::Engine);
        let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
        let [fewest, most] = options.random_plies;
        let random_plies = fewest + (seed % (most.saturating_sub(fewest) as u64 + 1)) as usize;
        let opening = if options.quiet_opening {
            arena::Opening::Quiet(random_plies)
        } else {
            arena::Opening::Random(random_plies)
        };
        let played = arena::play_with(
            options.variant,
            white,
            black,
            seed,
            opening,
            options.max_plies,
        );
        report.games += 1;
        let Some(game) = replay(options.variant, &played) else {
            continue;
        };
        let reached = harvest(&game, options, &mut found, &mut report);
        progress(&snapshot(&report, started));
        if reached {
            break;
        }
    }
    report.elapsed = started.elapsed();
    report
}

/// Puzzles in finished games (a database's, `kaboom puzzles generate --database`): each
/// game scanned and its new candidates verified and confirmed exactly as [`generate`] does
/// with its self-play games (`options`' budgets and trigger; positions seen twice and ids
/// made unique the same way), until `target` puzzles. `options.seed`, `games`, `levels`,
/// `random_plies` and `quiet_opening` are not used: the games are given. Games whose
/// carriers are hidden or not chosen are skipped.
pub fn generate_from_games(games: &[AnyGame], options: &GenerateOptions) -> GenerationReport {
    let started = Instant::now();
    let mut report = GenerationReport::default();
    let mut found = Found::default();
    for game in games {
        report.games += 1;
        if harvest(game, options, &mut found, &mut report) {
            break;
        }
    }
    report.elapsed = started.elapsed();
    report
}

/// The positions and ids a generation has already taken.
#[derive(Default)]
struct Found {
    /// Candidate positions already verified (or rejected).
    seen: HashSet<String>,
    /// Ids given so far.
    ids: HashSet<String>,
}

/// Scans `game` for candidates ([`candidates_with`] at `options.scan_nodes` with its
/// trigger) and verifies each new one ([`accept`]) into `report`; returns whether
/// `options.target` puzzles are reached.
fn harvest(
    game: &AnyGame,
    options: &GenerateOptions,
    found: &mut Found,
    report: &mut GenerationReport,
) -> bool {
    report.positions += game.ply_count() + 1;
    let candidates = candidates_with(game, options.scan_nodes, options.trigger).unwrap_or_default();
    for candidate in candidates {
        report.candidates += 1;
        let result = if found.seen.contains(&candidate.fen) {
            Err(Rejection::Duplicate)
        } else {
            found.seen.insert(candidate.fen.clone());
            accept(&candidate.fen, options)
        };
        match result {
            Ok(mut puzzle) => {
                let mut len = 6;
                while found.ids.contains(&puzzle.id) && len < 13 {
                    len += 1;
                    puzzle.id = puzzle_id(puzzle.variant, &puzzle.fen, len);
                }
                found.ids.insert(puzzle.id.clone());
                report.puzzles.push(puzzle);
                if report.puzzles.len() >= options.target {
                    return true;
                }
            }
            Err(rejection) => *report.rejections.entry(rejection.name()).or_default() += 1,
        }
    }
    false
}

fn snapshot(report: &GenerationReport, started: Instant) -> GenerateProgress {
    GenerateProgress {
        games: report.games,
        positions: report.positions,
        candidates: report.candidates,
        puzzles: report.puzzles.len(),
        elapsed: started.elapsed(),
    }
}

/// Verifies and confirms one candidate position for [`generate`].
fn accept(fen: &str, options: &GenerateOptions) -> Result<Puzzle, Rejection> {
    let game = AnyGame::from_fen(options.variant, fen).map_err(|_| Rejection::GameOver)?;
    let puzzle = verify(&game, options.verify_nodes)?;
    if let Some(nodes) = options.confirm_nodes
        && reverify(&puzzle, nodes).is_err()
    {
        return Err(Rejection::Unstable);
    }
    Ok(puzzle)
}

/// An arena game as an [`AnyGame`] (its carriers designated, its plies played).
fn replay(variant: Variant, played: &arena::ArenaGame) -> Option<AnyGame> {
    let mut game = AnyGame::new(variant, kaboom_rules::GameOptions::default()).ok()?;
    for (color, squares) in &played.designations {
        game.designate(*color, squares).ok()?;
    }
    for text in &played.plies {
        game.play(None, text).ok()?;
    }
    Some(game)
}

fn carriers_hidden(game: &AnyGame) -> bool {
    match game {
        AnyGame::Beirut(g) => Color::ALL
            .into_iter()
            .any(|c| g.position().designation(c) == Designation::Hidden),
        _ => false,
    }
}

/// Winning chances of an internal score for the side it belongs to: a forced win 1, a
/// forced loss −1, centipawns by [`review::winning_chances`].
fn chances(variant: Variant, score: i32) -> f64 {
    match search::to_score(score) {
        crate::Score::Win { .. } => 1.0,
        crate::Score::Loss { .. } => -1.0,
        crate::Score::Centipawns { value } => review::winning_chances(variant, value),
    }
}

fn is_win(score: i32) -> bool {
    matches!(search::to_score(score), crate::Score::Win { .. })
}

fn limits(nodes: u64) -> Limits {
    Limits {
        nodes: Some(nodes.max(1)),
        hash_entries: Some((nodes as usize).next_power_of_two().clamp(1 << 12, 1 << 18)),
        ..Limits::default()
    }
}

/// The best action of `pos` and the best of the others, scored.
struct Pair {
    best: usize,
    score: i32,
    /// The first depth from which the search kept preferring `best`, in plies.
    settled: u32,
}

/// The only-move check at one solver move: the best action, or why it is not an only move.
fn only_move<P: Position>(
    pos: &P,
    history: &[u64],
    nodes: u64,
    move_number: usize,
) -> Result<Pair, Rejection> {
    let variant = P::VARIANT;
    let found = search::Searcher::new(limits(nodes), history.to_vec())
        .run(pos)
        .ok_or(Rejection::GameOver)?;
    let best = chances(variant, found.score);
    if best < WINNING {
        return Err(Rejection::NotWinning { move_number });
    }
    // Past the first move, a move that wins on the spot ends the line and any other such
    // move would do as well (lichess-puzzler accepts any mate in one there).
    let at_once = search::to_score(found.score) == crate::Score::Win { plies: 1 };
    let second = if at_once && move_number > 1 {
        None
    } else {
        search::Searcher::new(limits(nodes), history.to_vec())
            .excluding(vec![found.best])
            .run(pos)
    };
    if let Some(second) = second {
        let chances = chances(variant, second.score);
        if at_once {
            // lichess-puzzler takes a mate in one whatever else wins; a first move has to be
            // the only one that wins on the spot.
            if search::to_score(second.score) == (crate::Score::Win { plies: 1 }) {
                return Err(Rejection::SeveralWinningMoves { move_number });
            }
            return Ok(pair(&found));
        }
        if is_win(second.score) || chances >= WINNING {
            return Err(Rejection::SeveralWinningMoves { move_number });
        }
        if best - chances < GAP {
            return Err(Rejection::CloseSecondBest { move_number });
        }
    }
    Ok(pair(&found))
}

/// The best action of `found` and when the search settled on it.
fn pair(found: &search::Found) -> Pair {
    let kept = found
        .iterations
        .iter()
        .rev()
        .take_while(|&&(b, _)| b == found.best)
        .count();
    let settled = if found.iterations.last().map(|&(b, _)| b) == Some(found.best) {
        (found.iterations.len() - kept + 1) as u32
    } else {
        found.iterations.len() as u32 + 1
    };
    Pair {
        best: found.best,
        score: found.score,
        settled,
    }
}

/// The engine's only winning first move of `pos` in coordinate form, or why there is none.
fn first_move<P: Position>(pos: &P, nodes: u64) -> Result<String, Rejection> {
    let pair = only_move(pos, &[], nodes, 1)?;
    let actions = pos.legal_actions();
    Ok(pos.uci(&actions[pair.best]))
}

/// A verified line, before it becomes a [`Puzzle`].
struct Line {
    solution: Vec<String>,
    themes: Vec<Theme>,
    rating: u32,
}

impl Line {
    fn puzzle(self, variant: Variant, fen: String) -> Puzzle {
        Puzzle {
            id: puzzle_id(variant, &fen, 6),
            variant,
            fen,
            solution: self.solution,
            themes: self.themes,
            rating: self.rating,
        }
    }
}

/// Material of `removed` for `solver`, in centipawns of the engine's values (kings 0).
fn material(variant: Variant, removed: &[Removal], solver: Color) -> i32 {
    let values = crate::eval::values(variant);
    removed
        .iter()
        .map(|r| {
            let v = values.piece(r.piece.kind);
            if r.piece.color == solver { -v } else { v }
        })
        .sum()
}

fn loose_bombs<P: Position>(pos: &P) -> u32 {
    pos.loose_bombs().iter().map(|l| u32::from(l.count)).sum()
}

/// The themes of one solver action from `pos` (before it is played).
fn action_themes<P: Position>(pos: &P, action: &P::Action, themes: &mut Vec<Theme>) {
    let fx = pos.effects(action);
    let variant = P::VARIANT;
    let solver = pos.turn();
    if variant == Variant::Beirut && fx.detonation.is_some() {
        themes.push(Theme::Boom);
    }
    if matches!(variant, Variant::Bomberman | Variant::Bombalot)
        && (fx.detonation.is_some() || fx.sets_off.is_some())
    {
        themes.push(Theme::Detonation);
    }
    let bombs = fx
        .removed
        .iter()
        .filter(|r| r.piece.kind == Kind::Bomb)
        .count();
    let chain = match variant {
        Variant::Bomberman | Variant::Bombalot => bombs >= 2,
        Variant::Nuke => {
            let mut after = pos.clone();
            after.play_unchecked(action);
            loose_bombs(&after) >= loose_bombs(pos) + 2
        }
        _ => false,
    };
    if chain {
        themes.push(Theme::Chain);
    }
    if fx.transfer.is_some() {
        themes.push(Theme::Transfer);
    }
    if fx.grab.is_some() {
        themes.push(Theme::Grab);
    }
    if fx.defuses.is_some() {
        themes.push(Theme::Defuse);
    }
    if !fx.pushes.is_empty() {
        themes.push(Theme::Push);
    }
    if fx.goal_entry.is_some() {
        themes.push(Theme::GoalEntry);
    }
    let cause = |c: kaboom_rules::Cause| {
        fx.removed
            .iter()
            .any(|r| r.cause == c && r.piece.color != solver)
    };
    if cause(kaboom_rules::Cause::Jumped) {
        themes.push(Theme::Jump);
    }
    if fx
        .removed
        .iter()
        .any(|r| r.cause == kaboom_rules::Cause::CoSquare)
    {
        themes.push(Theme::CoSquare);
    }
}

/// The verification of `start` (see the module docs).
fn verify_position<P: Position>(start: &P, nodes: u64) -> Result<Line, Rejection> {
    let variant = P::VARIANT;
    let solver = start.turn();
    let legal = start.legal_actions();
    if legal.is_empty() || start.automatic_draw().is_some() {
        return Err(Rejection::GameOver);
    }
    if legal.len() == 1 {
        return Err(Rejection::OnlyOneLegalAction);
    }
    let mut pos = start.clone();
    let mut history: Vec<u64> = Vec::new();
    let mut solution: Vec<String> = Vec::new();
    let mut themes: Vec<Theme> = Vec::new();
    let mut gained = 0;
    let mut settled = 1;
    let mut first_quiet = false;
    let mut first_balance = 0;
    let mut end: Option<EndReason> = None;
    let mut last_removed: Vec<Removal> = Vec::new();
    for move_number in 1..=MAX_SOLVER_MOVES {
        let pair = match only_move(&pos, &history, nodes, move_number) {
            Ok(pair) => pair,
            Err(rejection) if move_number > 1 => {
                if gained >= DECISIVE_MATERIAL {
                    break;
                }
                return Err(match rejection {
                    Rejection::NotWinning { .. } => rejection,
                    _ => Rejection::NotDecisive,
                });
            }
            Err(rejection) => return Err(rejection),
        };
        let actions = pos.legal_actions();
        let action = actions[pair.best].clone();
        if move_number == 1 {
            settled = pair.settled;
        }
        action_themes(&pos, &action, &mut themes);
        solution.push(pos.uci(&action));
        history.push(pos.repetition_key());
        let removed = pos.play_reported(&action);
        gained += material(variant, &removed, solver);
        if move_number == 1 {
            first_quiet = removed.is_empty();
            first_balance = material(variant, &removed, solver);
        }
        last_removed = removed;
        if let Some(outcome) = pos.variant_outcome() {
            if outcome.winner == Some(solver) {
                end = Some(outcome.reason);
                break;
            }
            return Err(Rejection::NotWinning { move_number });
        }
        // The opponent's best reply.
        let reply = search::Searcher::new(limits(nodes), history.clone())
            .run(&pos)
            .ok_or(Rejection::ReplyEndsGame)?;
        let replies = pos.legal_actions();
        let reply_action = replies[reply.best].clone();
        history.push(pos.repetition_key());
        let removed = pos.play_reported(&reply_action);
        gained += material(variant, &removed, solver);
        if move_number == 1 {
            first_balance += material(variant, &removed, solver);
        }
        if pos.variant_outcome().is_some() || pos.automatic_draw().is_some() {
            return Err(Rejection::ReplyEndsGame);
        }
        if move_number == MAX_SOLVER_MOVES {
            if is_win(pair.score) || gained < DECISIVE_MATERIAL {
                return Err(Rejection::TooLong);
            }
            // Realised after the reply: the line ends with this solver move.
            break;
        }
        solution.push(pos.uci(&reply_action));
    }
    // A line that ended on a failed check or at the limit carries one reply too many.
    if solution.len().is_multiple_of(2) {
        solution.pop();
    }
    match end {
        Some(reason) => {
            let king = last_removed
                .iter()
                .any(|r| r.piece.kind == Kind::King && r.piece.color != solver);
            if king {
                themes.push(Theme::KingBlast);
            }
            match reason {
                EndReason::Checkmate => themes.push(Theme::Mate),
                EndReason::Goal => themes.push(Theme::Goal),
                EndReason::NoPieces => themes.push(Theme::NoPieces),
                EndReason::Immobilized => themes.push(Theme::Immobilized),
                _ => {}
            }
        }
        None => themes.push(Theme::Material),
    }
    let solver_moves = solution.len().div_ceil(2);
    let wins_at_once = end.is_some() && solver_moves == 1;
    if first_quiet && !wins_at_once {
        themes.push(Theme::QuietMove);
    }
    let sacrifice = first_balance <= -100 && !wins_at_once;
    if sacrifice {
        themes.push(Theme::Sacrifice);
    }
    themes.push(match solver_moves {
        1 => Theme::OneMove,
        2 => Theme::Short,
        _ => Theme::Long,
    });
    themes.sort();
    themes.dedup();
    let rating = rating(
        solver_moves,
        settled,
        legal.len(),
        first_quiet && !wins_at_once,
        sacrifice,
    );
    Ok(Line {
        solution,
        themes,
        rating,
    })
}

/// The starting rating (module docs, "Rating").
fn rating(solver_moves: usize, settled: u32, legal: usize, quiet: bool, sacrifice: bool) -> u32 {
    let mut r = 900.0 + 300.0 * (solver_moves.saturating_sub(1)) as f64;
    r += 80.0 * f64::from(settled.saturating_sub(1).min(10));
    r += 60.0 * (legal.max(1) as f64).ln();
    if quiet {
        r += 250.0;
    }
    if sacrifice {
        r += 200.0;
    }
    let r = r.clamp(600.0, 2800.0);
    ((r / 10.0).round() * 10.0) as u32
}

/// [`candidates_from_game`] on a typed game.
fn scan_game<P: Position>(game: &Game<P>, scan_nodes: u64, trigger: Trigger) -> Vec<Candidate> {
    let variant = P::VARIANT;
    let total = game.plies().len();
    let positions: Vec<P> = (0..=total)
        .filter_map(|i| game.position_after(i).map(|p| p.view(Viewer::Full)))
        .collect();
    let keys: Vec<u64> = positions.iter().map(Position::repetition_key).collect();
    let mut out = Vec::new();
    // The previous position's winning chances for its side to move, when searched.
    let mut previous: Option<f64> = None;
    for (i, pos) in positions.iter().enumerate() {
        let playable = pos.variant_outcome().is_none() && pos.automatic_draw().is_none();
        let actions = if playable {
            pos.legal_actions().len()
        } else {
            0
        };
        if actions == 0 {
            previous = None;
            continue;
        }
        let Some(found) = search::Searcher::new(limits(scan_nodes), keys[..i].to_vec()).run(pos)
        else {
            previous = None;
            continue;
        };
        let now = chances(variant, found.score);
        let before = previous.map_or(0.0, |p| -p);
        previous = Some(now);
        // A blunder's punishment: from not winning to winning; or, in a won position, a
        // forced win that was not there before the opponent's move.
        let swung = before < WINNING && now - before >= GAP;
        let opened =
            is_win(found.score) && (before < 1.0 || trigger == Trigger::BlunderOrForcedWin);
        if i < 2 || actions < 2 || now < WINNING || !(swung || opened) {
            continue;
        }
        out.push(Candidate {
            ply: i,
            fen: pos.to_fen(),
            chances: now,
            swing: now - before,
        });
    }
    out
}
