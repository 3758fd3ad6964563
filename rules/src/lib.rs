//! # kaboom-rules
//!
//! The rules of five explosive chess variants, pure and synchronous: positions, legal
//! actions, playing them with a report of what exploded, outcomes, FEN-style
//! serialization, notation (parse and print) and perft.
//!
//! Binding rulings are cited by id (`AT-6`, `BM-7`, ...) from
//! `docs/rules/RULINGS.md`. Each variant has its own module and type implementing [`Position`];
//! [`Variant`] chooses one at run time and [`AnyGame`] holds a game of any of them.
//!
//! ```
//! use kaboom_rules::{AnyGame, GameOptions, Variant, Viewer};
//!
//! let mut game = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
//! for text in ["e4", "d5", "exd5"] {
//!     game.play(None, text).unwrap();
//! }
//! // exd5 exploded: the capturing and captured pawns are gone.
//! let last = &game.plies()[2];
//! assert_eq!(last.removed.len(), 2);
//! assert_eq!(game.fen(Viewer::Full), "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2");
//! ```
#![deny(missing_docs)]

mod chess;
mod color;
mod effects;
mod error;
mod fen;
mod game;
pub mod notation;
mod outcome;
mod piece;
mod position;
mod square;
mod variant;
mod view;

pub mod atomic;
pub mod beirut;
pub mod bombalot;
pub mod bomberman;
pub mod nuke;
pub mod perft;
pub mod validity;

pub use chess::Move;
pub use color::{Color, ParseColorError};
pub use effects::{BombTransfer, Effects, Push};
pub use error::{
    ActionError, ActionErrorKind, DesignationError, DesignationErrorKind, FenError, FenErrorKind,
    IllegalActionError, OptionsError, ParseActionError, PlayError, PlayErrorKind, RecordError,
};
pub use game::{ActionInfo, ActionPreview, AnyGame, Game, GameRecord, PlyRecord};
pub use outcome::{Cause, EndReason, Outcome, Removal, Status};
pub use piece::{Kind, ParseKindError, Piece};
pub use position::{ActionSquares, Position};
pub use square::{Geometry, ParseSquareError, Square};
pub use variant::{GameOptions, ParseVariantError, Variant};
pub use view::{BoardView, LooseBombs, ParseViewerError, PieceView, Viewer};
