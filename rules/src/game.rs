//! A whole game: start, history, threefold repetition and results that are not on the
//! board; plus [`AnyGame`], which holds a game of any variant for storage and the bot.

use serde::{Deserialize, Serialize};

use crate::{
    ActionError, ActionSquares, BoardView, Color, DesignationError, EndReason, FenError,
    GameOptions, OptionsError, Outcome, PlayError, Position, RecordError, Removal, Square, Status,
    Variant, Viewer,
};

/// What one ply did, in variant-independent form. Everything in it is public: variants
/// make sure a Beirut ply reveals no unrevealed carrier (BE-2).
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
pub struct PlyRecord {
    /// The side that acted.
    pub mover: Color,
    /// The canonical text (C-5), e.g. `Nxd5`, `Boom@e5`, `c1>d2 Nxe5*`.
    pub san: String,
    /// The canonical text with its check or win mark for display, e.g. `Qxf7#`.
    pub display: String,
    /// The coordinate form, e.g. `g1f3` (equal to `san` for non-move actions).
    pub uci: String,
    /// The pieces removed, in order, with their causes (C-6).
    pub removed: Vec<Removal>,
    /// The squares to highlight.
    pub squares: ActionSquares,
}

/// A game of one variant: the start position, every ply played, and any result declared
/// off the board (agreement, resignation, time forfeit, aborted).
#[derive(Clone, Debug)]
pub struct Game<P: Position> {
    options: GameOptions,
    positions: Vec<P>,
    actions: Vec<P::Action>,
    plies: Vec<PlyRecord>,
    declared: Option<Outcome>,
}

impl<P: Position> Game<P> {
    /// A new game from the variant's start position.
    ///
    /// # Errors
    /// [`OptionsError`] when the variant refuses `options`.
    pub fn new(options: GameOptions) -> Result<Game<P>, OptionsError> {
        Ok(Game::from_position(options, P::start(&options)?))
    }

    /// A game that starts from `start`.
    pub fn from_position(options: GameOptions, start: P) -> Game<P> {
        Game {
            options,
            positions: vec![start],
            actions: Vec::new(),
            plies: Vec::new(),
            declared: None,
        }
    }

    /// The options the game was created with.
    pub fn options(&self) -> GameOptions {
        self.options
    }

    /// The position before the first ply (after the carrier designation).
    pub fn start(&self) -> &P {
        &self.positions[0]
    }

    /// The current position, with every secret.
    pub fn position(&self) -> &P {
        self.positions
            .last()
            .expect("a game always has its start position")
    }

    /// The position after `ply` plies (0 is the start).
    pub fn position_after(&self, ply: usize) -> Option<&P> {
        self.positions.get(ply)
    }

    /// Every action played, in order.
    pub fn actions(&self) -> &[P::Action] {
        &self.actions
    }

    /// What each ply did, in order.
    pub fn plies(&self) -> &[PlyRecord] {
        &self.plies
    }

    /// How many times the current position has occurred, this one included (C-4).
    pub fn repetitions(&self) -> usize {
        let key = self.position().repetition_key();
        self.positions
            .iter()
            .filter(|p| p.repetition_key() == key)
            .count()
    }

    /// The game's status: a declared result, else the board's end, else threefold
    /// repetition, else the automatic draws (C-3, C-4).
    pub fn status(&self) -> Status {
        let pos = self.position();
        let outcome = self
            .declared
            .or_else(|| pos.variant_outcome())
            .or_else(|| (self.repetitions() >= 3).then_some(Outcome::draw(EndReason::Repetition)))
            .or_else(|| pos.automatic_draw().map(Outcome::draw));
        Status::from_outcome(outcome)
    }

    /// Ends the game with a result that is not on the board (agreement, resignation,
    /// time forfeit, aborted). Does nothing to a game already over.
    pub fn declare(&mut self, outcome: Outcome) {
        if !self.status().is_finished() {
            self.declared = Some(outcome);
        }
    }

    /// Sets `color`'s carriers (BE-2, NU-3); only before the first ply.
    ///
    /// # Errors
    /// [`DesignationError`] when play has started or the choice breaks the rules.
    pub fn designate(&mut self, color: Color, squares: &[Square]) -> Result<(), DesignationError> {
        if !self.actions.is_empty() {
            return Err(DesignationError::new(
                crate::DesignationErrorKind::Closed,
                "carriers can only be chosen before the first move",
            ));
        }
        self.positions[0].designate(color, squares)
    }

    /// Parses `text` as the player to move sees the game, and plays it. With
    /// `player: Some(c)`, refuses when it is not `c`'s turn.
    ///
    /// # Errors
    /// [`PlayError`] saying why nothing was played; the game is then unchanged.
    pub fn play(&mut self, player: Option<Color>, text: &str) -> Result<&PlyRecord, PlayError> {
        let action = self.parse(player, text)?;
        Ok(self.play_action(action))
    }

    /// Parses `text` into the action the player to move means, without playing it.
    ///
    /// # Errors
    /// As [`Game::play`].
    pub fn parse(&self, player: Option<Color>, text: &str) -> Result<P::Action, PlayError> {
        if let Some(outcome) = self.status().outcome() {
            return Err(PlayError::Finished(outcome.to_string()));
        }
        let waiting = self.position().awaiting_designation();
        if !waiting.is_empty() {
            let names: Vec<&str> = waiting.iter().map(|c| c.name()).collect();
            return Err(PlayError::AwaitingDesignation(names.join(" and ")));
        }
        let turn = self.position().turn();
        if player.is_some_and(|p| p != turn) {
            return Err(PlayError::NotYourTurn(turn));
        }
        Ok(self
            .position()
            .view(Viewer::player(turn))
            .parse_action(text)?)
    }

    /// Plays an action already known to be legal and records it.
    pub fn play_action(&mut self, action: P::Action) -> &PlyRecord {
        let before = self.position();
        let record_base = (
            before.turn(),
            before.san(&action),
            before.san_with_marks(&action),
            before.uci(&action),
            before.action_squares(&action),
        );
        let mut next = before.clone();
        let removed = next.play_reported(&action);
        let (mover, san, display, uci, squares) = record_base;
        self.positions.push(next);
        self.actions.push(action);
        self.plies.push(PlyRecord {
            mover,
            san,
            display,
            uci,
            removed,
            squares,
        });
        self.plies.last().expect("just pushed")
    }
}

/// A stored game of any variant: the source of truth the bot keeps (replayable).
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
pub struct GameRecord {
    /// The variant.
    pub variant: Variant,
    /// The options of the challenge.
    pub options: GameOptions,
    /// The full serialization of the start position, secrets included.
    pub start_fen: String,
    /// Every action, in canonical notation.
    pub actions: Vec<String>,
    /// A result declared off the board, if any.
    pub declared: Option<Outcome>,
}

/// A legal action offered to a viewer, with what it would remove as far as they can tell.
#[derive(Clone, Eq, PartialEq, Debug, Serialize, Deserialize)]
pub struct ActionInfo {
    /// Canonical text (C-5).
    pub san: String,
    /// Canonical text with its check or win mark, e.g. `Qxf7#`.
    pub display: String,
    /// Coordinate text.
    pub uci: String,
    /// What playing it would remove, as the viewer can foresee it.
    pub removed: Vec<Removal>,
}

/// What an action would do, as the player who may play it sees the game (an explosion
/// preview): computed on that player's view, so nothing hidden shows (BE-2, BE-6: in a
/// Beirut player's preview, capturing an enemy carrier the player cannot know of shows no
/// blast). Made by [`AnyGame::preview`].
#[derive(Clone, Debug)]
pub struct ActionPreview {
    /// The player's side.
    pub mover: Color,
    /// Canonical text (C-5), what [`AnyGame::play`] accepts back.
    pub san: String,
    /// Canonical text with its check or win mark, e.g. `Qxf7#`.
    pub display: String,
    /// The squares to highlight.
    pub squares: crate::ActionSquares,
    /// What the action would remove, in order, with the causes (C-6), as the player can
    /// foresee it.
    pub removed: Vec<Removal>,
    /// What the action does in detail ([`Position::effects`] on the player's view).
    pub effects: crate::Effects,
    /// The board after the action, as the player would see it.
    pub after: BoardView,
}

/// A game of any variant: what the bot stores and loads without knowing the variant.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum AnyGame {
    /// Atomic Chess.
    Atomic(Game<crate::atomic::Atomic>),
    /// Beirut Chess.
    Beirut(Game<crate::beirut::Beirut>),
    /// Nuke Chess.
    Nuke(Game<crate::nuke::Nuke>),
    /// Bomberman Chess.
    Bomberman(Game<crate::bomberman::Bomberman>),
    /// Bombalot.
    Bombalot(Game<crate::bombalot::Bombalot>),
}

macro_rules! dispatch {
    ($self:expr, $g:ident => $body:expr) => {
        match $self {
            AnyGame::Atomic($g) => $body,
            AnyGame::Beirut($g) => $body,
            AnyGame::Nuke($g) => $body,
            AnyGame::Bomberman($g) => $body,
            AnyGame::Bombalot($g) => $body,
        }
    };
}

macro_rules! construct {
    ($variant:expr, $P:ident => $body:expr) => {
        match $variant {
            Variant::Atomic => {
                type $P = crate::atomic::Atomic;
                AnyGame::Atomic($body)
            }
            Variant::Beirut => {
                type $P = crate::beirut::Beirut;
                AnyGame::Beirut($body)
            }
            Variant::Nuke => {
                type $P = crate::nuke::Nuke;
                AnyGame::Nuke($body)
            }
            Variant::Bomberman => {
                type $P = crate::bomberman::Bomberman;
                AnyGame::Bomberman($body)
            }
            Variant::Bombalot => {
                type $P = crate::bombalot::Bombalot;
                AnyGame::Bombalot($body)
            }
        }
    };
}

fn legal_infos<P: Position>(pos: &P) -> Vec<ActionInfo> {
    pos.legal_actions()
        .iter()
        .map(|a| {
            let mut after = pos.clone();
            ActionInfo {
                san: pos.san(a),
                display: pos.san_with_marks(a),
                uci: pos.uci(a),
                removed: after.play_reported(a),
            }
        })
        .collect()
}

impl AnyGame {
    /// A new game of `variant` from its start position.
    ///
    /// # Errors
    /// [`OptionsError`] when the variant refuses `options` (e.g. 16 Beirut carriers).
    pub fn new(variant: Variant, options: GameOptions) -> Result<AnyGame, OptionsError> {
        Ok(construct!(variant, P => Game::<P>::new(options)?))
    }

    /// A game of `variant` starting from the serialization `fen`. The rule options
    /// (Beirut's carrier count and Dead Man's Switch) are the ones the serialization
    /// records ([`Position::options`]).
    ///
    /// # Errors
    /// [`FenError`] when `fen` does not parse for this variant.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<AnyGame, FenError> {
        Ok(construct!(variant, P => {
            let start = P::from_fen(fen)?;
            Game::from_position(start.options(), start)
        }))
    }

    /// Loads a stored game by replaying its actions.
    ///
    /// # Errors
    /// [`RecordError`] naming the part that does not load.
    pub fn from_record(record: &GameRecord) -> Result<AnyGame, RecordError> {
        let mut game = AnyGame::from_fen(record.variant, &record.start_fen)?;
        if game.options() != record.options {
            return Err(RecordError::Options(OptionsError {
                reason: format!(
                    "the record's options {:?} differ from its start position's {:?}",
                    record.options,
                    game.options()
                ),
            }));
        }
        for (i, text) in record.actions.iter().enumerate() {
            game.play(None, text).map_err(|e| match e {
                PlayError::Action(error) => RecordError::Replay {
                    ply: i + 1,
                    text: text.clone(),
                    error,
                },
                other => RecordError::Replay {
                    ply: i + 1,
                    text: text.clone(),
                    error: ActionError::Illegal(crate::IllegalActionError {
                        text: text.clone(),
                        reason: other.to_string(),
                        legal: Vec::new(),
                        ambiguous: false,
                    }),
                },
            })?;
        }
        if let Some(outcome) = record.declared {
            game.declare(outcome);
        }
        Ok(game)
    }

    /// The record to store: start serialization, actions, declared result.
    pub fn record(&self) -> GameRecord {
        dispatch!(self, g => GameRecord {
            variant: self.variant(),
            options: g.options(),
            start_fen: g.start().to_fen(),
            actions: g.plies().iter().map(|p| p.san.clone()).collect(),
            declared: g.declared,
        })
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        match self {
            AnyGame::Atomic(_) => Variant::Atomic,
            AnyGame::Beirut(_) => Variant::Beirut,
            AnyGame::Nuke(_) => Variant::Nuke,
            AnyGame::Bomberman(_) => Variant::Bomberman,
            AnyGame::Bombalot(_) => Variant::Bombalot,
        }
    }

    /// The options.
    pub fn options(&self) -> GameOptions {
        dispatch!(self, g => g.options())
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        dispatch!(self, g => g.position().turn())
    }

    /// Number of plies played.
    pub fn ply_count(&self) -> usize {
        dispatch!(self, g => g.plies().len())
    }

    /// The status (C-3).
    pub fn status(&self) -> Status {
        dispatch!(self, g => g.status())
    }

    /// The current position's serialization as `viewer` may see it ([`Viewer::Full`] for storage).
    pub fn fen(&self, viewer: Viewer) -> String {
        dispatch!(self, g => g.position().view(viewer).to_fen())
    }

    /// The start position's serialization as `viewer` may see it.
    pub fn start_fen(&self, viewer: Viewer) -> String {
        dispatch!(self, g => g.start().view(viewer).to_fen())
    }

    /// The serialization after `ply` plies as `viewer` may see it.
    pub fn fen_after(&self, ply: usize, viewer: Viewer) -> Option<String> {
        dispatch!(self, g => g.position_after(ply).map(|p| p.view(viewer).to_fen()))
    }

    /// The current board as `viewer` sees it; the status includes repetition and declared results.
    pub fn board_view(&self, viewer: Viewer) -> BoardView {
        let mut view = dispatch!(self, g => g.position().view(viewer).board_view());
        view.status = self.status();
        view
    }

    /// The board after `ply` plies as `viewer` sees it.
    pub fn board_view_after(&self, ply: usize, viewer: Viewer) -> Option<BoardView> {
        dispatch!(self, g => g.position_after(ply).map(|p| p.view(viewer).board_view()))
    }

    /// What each ply did.
    pub fn plies(&self) -> &[PlyRecord] {
        dispatch!(self, g => g.plies())
    }

    /// The legal actions of the side to move as `viewer` may know them, with what each
    /// would remove as far as the viewer can foresee. Empty when the game is over.
    pub fn legal_actions(&self, viewer: Viewer) -> Vec<ActionInfo> {
        if self.status().is_finished() {
            return Vec::new();
        }
        dispatch!(self, g => legal_infos(&g.position().view(viewer)))
    }

    /// Parses and plays `text` for `player` (`None`: whoever is to move), as that player
    /// sees the game.
    ///
    /// # Errors
    /// [`PlayError`]; the game is unchanged then.
    pub fn play(&mut self, player: Option<Color>, text: &str) -> Result<PlyRecord, PlayError> {
        dispatch!(self, g => g.play(player, text).cloned())
    }

    /// Checks `text` for `player` as [`AnyGame::play`] would, without playing it, and
    /// returns its canonical form.
    ///
    /// # Errors
    /// As [`AnyGame::play`].
    pub fn check(&self, player: Option<Color>, text: &str) -> Result<String, PlayError> {
        dispatch!(self, g => g.parse(player, text).map(|a| g.position().san(&a)))
    }

    /// What `text` would do if `player` played it now, computed on `player`'s view of the
    /// game ([`ActionPreview`]); the game is unchanged. The board after it is the player's
    /// view, with the status the board decides (repetition is not foreseen).
    ///
    /// # Errors
    /// As [`AnyGame::play`].
    pub fn preview(&self, player: Color, text: &str) -> Result<ActionPreview, PlayError> {
        dispatch!(self, g => {
            let action = g.parse(Some(player), text)?;
            let view = g.position().view(Viewer::player(player));
            let effects = view.effects(&action);
            let mut after = view.clone();
            after.play_unchecked(&action);
            let mut board = after.view(Viewer::player(player)).board_view();
            if let Some(outcome) = effects.outcome {
                board.status = Status::Finished(outcome);
            }
            Ok(ActionPreview {
                mover: player,
                san: view.san(&action),
                display: view.san_with_marks(&action),
                squares: view.action_squares(&action),
                removed: effects.removed.clone(),
                effects,
                after: board,
            })
        })
    }

    /// Sets `color`'s carriers (BE-2, NU-3).
    ///
    /// # Errors
    /// [`DesignationError`] saying what was wrong.
    pub fn designate(&mut self, color: Color, squares: &[Square]) -> Result<(), DesignationError> {
        dispatch!(self, g => g.designate(color, squares))
    }

    /// How many carriers each side chooses: [`Position::carrier_count`] (BE-2, NU-3).
    pub fn carrier_count(&self) -> usize {
        dispatch!(self, g => g.position().carrier_count())
    }

    /// The squares `color` may designate as carriers, canonical order:
    /// [`Position::carrier_candidates`] (BE-2: own pieces but the king; NU-3: any own piece).
    pub fn carrier_candidates(&self, color: Color) -> Vec<Square> {
        dispatch!(self, g => g.position().carrier_candidates(color))
    }

    /// Sides that still have to choose carriers.
    pub fn awaiting_designation(&self) -> Vec<Color> {
        dispatch!(self, g => g.position().awaiting_designation())
    }

    /// Ends the game with a declared result (agreement, resignation, time forfeit, aborted).
    pub fn declare(&mut self, outcome: Outcome) {
        dispatch!(self, g => g.declare(outcome))
    }

    /// perft of the current position (C-7), with the full state.
    pub fn perft(&self, depth: u32) -> u64 {
        dispatch!(self, g => g.position().perft(depth))
    }

    /// Whether `color` still has any way to win (for time forfeits: lichess's rule).
    pub fn can_win(&self, color: Color) -> bool {
        dispatch!(self, g => g.position().can_win(color))
    }
}
