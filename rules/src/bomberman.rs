//! Bomberman (placeholder until its issue lands).

use crate::{
    ActionError, ActionSquares, BoardView, Color, FenError, GameOptions, OptionsError, Outcome,
    ParseActionError, Position, Removal, Variant,
};

/// A position of Bomberman. Not implemented yet: [`Position::start`] and
/// [`Position::from_fen`] refuse.
#[derive(Clone, Debug)]
pub struct Bomberman {
    _private: (),
}

/// An action of Bomberman.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BombermanAction;

impl Position for Bomberman {
    type Action = BombermanAction;
    const VARIANT: Variant = Variant::Bomberman;

    fn start(_: &GameOptions) -> Result<Self, OptionsError> {
        Err(OptionsError {
            reason: "bomberman is not implemented yet".into(),
        })
    }
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        Err(FenError::new(fen, "bomberman is not implemented yet"))
    }
    fn to_fen(&self) -> String {
        String::new()
    }
    fn turn(&self) -> Color {
        Color::White
    }
    fn fullmoves(&self) -> u32 {
        1
    }
    fn halfmove_clock(&self) -> u32 {
        0
    }
    fn legal_actions_into(&self, out: &mut Vec<Self::Action>) {
        out.clear();
    }
    fn play_unchecked(&mut self, _: &Self::Action) {}
    fn play_reported(&mut self, _: &Self::Action) -> Vec<Removal> {
        Vec::new()
    }
    fn variant_outcome(&self) -> Option<Outcome> {
        None
    }
    fn repetition_key(&self) -> u64 {
        0
    }
    fn san(&self, _: &Self::Action) -> String {
        String::new()
    }
    fn uci(&self, _: &Self::Action) -> String {
        String::new()
    }
    fn parse_action(&self, text: &str) -> Result<Self::Action, ActionError> {
        Err(ParseActionError {
            text: text.into(),
            expected: "nothing: bomberman is not implemented yet".into(),
        }
        .into())
    }
    fn action_squares(&self, _: &Self::Action) -> ActionSquares {
        ActionSquares::default()
    }
    fn board_view(&self) -> BoardView {
        BoardView {
            variant: Variant::Bomberman,
            pieces: Vec::new(),
            loose_bombs: Vec::new(),
            turn: Color::White,
            fullmoves: 1,
            checked: Vec::new(),
            status: crate::Status::Ongoing,
            awaiting_designation: Vec::new(),
        }
    }
}
