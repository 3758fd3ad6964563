//! Board pictures, behind a trait so tests (and the bot before the renderer is wired in)
//! can swap the implementation. Painting is CPU work: the Discord layer calls it inside
//! `spawn_blocking`.

use kaboom_rules::{BoardView, Color, PlyRecord};

/// Draws a board as a PNG.
pub trait BoardPainter: Send + Sync + 'static {
    /// A PNG of `view` seen from `bottom`'s side, highlighting `last` if given.
    ///
    /// # Errors
    /// A message saying why the picture could not be drawn.
    fn paint(
        &self,
        view: &BoardView,
        last: Option<&PlyRecord>,
        bottom: Color,
    ) -> Result<Vec<u8>, String>;

    /// An explosion preview (issue 19): `view` is the board *after* the action `last`,
    /// and the pieces it removes are drawn as translucent ghosts on the squares where they
    /// stood. Painters without ghosts draw [`BoardPainter::paint`]'s picture.
    ///
    /// # Errors
    /// A message saying why the picture could not be drawn.
    fn paint_preview(
        &self,
        view: &BoardView,
        last: &PlyRecord,
        bottom: Color,
    ) -> Result<Vec<u8>, String> {
        self.paint(view, Some(last), bottom)
    }
}

/// The renderer crate's pictures (`kaboom_renderer::render_png`), 640 pixels wide.
#[derive(Copy, Clone, Debug, Default)]
pub struct RendererPainter;

impl BoardPainter for RendererPainter {
    fn paint(
        &self,
        view: &BoardView,
        last: Option<&PlyRecord>,
        bottom: Color,
    ) -> Result<Vec<u8>, String> {
        let options = kaboom_renderer::RenderOptions {
            orientation: match bottom {
                Color::White => kaboom_renderer::Orientation::White,
                Color::Black => kaboom_renderer::Orientation::Black,
            },
            ..kaboom_renderer::RenderOptions::default()
        };
        let last = last.map(kaboom_renderer::LastAction::from_ply);
        kaboom_renderer::render_png(view, last.as_ref(), &options).map_err(|e| e.to_string())
    }

    fn paint_preview(
        &self,
        view: &BoardView,
        last: &PlyRecord,
        bottom: Color,
    ) -> Result<Vec<u8>, String> {
        let options = kaboom_renderer::RenderOptions {
            orientation: match bottom {
                Color::White => kaboom_renderer::Orientation::White,
                Color::Black => kaboom_renderer::Orientation::Black,
            },
            ..kaboom_renderer::RenderOptions::default()
        };
        let ghosts = kaboom_renderer::Ghost::from_removals(&last.removed);
        kaboom_renderer::render_png_with_ghosts(
            view,
            Some(&kaboom_renderer::LastAction::from_ply(last)),
            &options,
            &ghosts,
        )
        .map_err(|e| e.to_string())
    }
}
