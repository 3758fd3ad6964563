//! Puzzle replies shared by `/puzzle` and the daily post's button: the text and the board
//! from the solver's side (their own carriers marked), always private.

use poise::serenity_prelude as serenity;

use crate::messages::puzzles as words;
use crate::types::Error;
use kaboom_rules::{AnyGame, Color, Viewer};
use kaboom_service::Services;
use kaboom_service::puzzles::PuzzleView;

/// The board of `view` as its solver sees it, from their side, its last ply highlighted;
/// painted off the async runtime.
///
/// # Errors
/// [`Error::Paint`] when the picture is not drawn; [`Error::Service`] when the pool is
/// closed.
pub async fn paint(services: &Services, view: &PuzzleView) -> Result<Vec<u8>, Error> {
    paint_for_solver(services, view.game.clone(), view.solver).await
}

/// The start position of puzzle `id` as its solver sees it (the daily post's picture).
///
/// # Errors
/// As [`paint`]; [`Error::Missing`] when the puzzle is not stored.
pub async fn paint_start(services: &Services, id: &str) -> Result<Vec<u8>, Error> {
    let puzzle = services
        .puzzles()
        .get(id)
        .await?
        .ok_or(Error::Missing("the daily puzzle is not stored"))?;
    let (game, solver) = kaboom_service::puzzles::replay(&puzzle, 0)?;
    paint_for_solver(services, game, solver).await
}

/// `game` as `solver` sees it, from their side, painted off the async runtime.
async fn paint_for_solver(
    services: &Services,
    game: AnyGame,
    solver: Color,
) -> Result<Vec<u8>, Error> {
    let painter = services.painter().clone();
    Ok(services
        .cpu()
        .run(move || painter.paint_game(&game, Viewer::player(solver), solver))
        .await??)
}

/// The attachment of a puzzle board.
pub fn attachment(png: Vec<u8>) -> serenity::CreateAttachment {
    serenity::CreateAttachment::bytes(png, "puzzle.png")
}

/// A new puzzle's private message: its intro and its board.
///
/// # Errors
/// As [`paint`].
pub async fn shown(
    services: &Services,
    view: &PuzzleView,
) -> Result<(String, serenity::CreateAttachment), Error> {
    Ok((words::intro(view), attachment(paint(services, view).await?)))
}
