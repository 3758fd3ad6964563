//! Board pictures, behind a trait so tests (and the bot before the renderer is wired in)
//! can swap the implementation. Painting is CPU work: the Discord layer calls it inside
//! `spawn_blocking`.

use kaboom_rules::{AnyGame, BoardView, Color, PlyRecord, Viewer};

pub use kaboom_renderer::RenderError;
pub use kaboom_renderer::ReplayPace;

/// Why a board picture or a replay was not drawn.
#[derive(Debug, thiserror::Error)]
pub enum PaintError {
    /// The renderer failed (an SVG, allocation, PNG or GIF error).
    #[error(transparent)]
    Render(#[from] RenderError),
    /// The replay of game `game_id` stays over `max_bytes` even `width` pixels wide.
    #[error("the replay of game #{game_id} is larger than {max_bytes} bytes even at {width} px")]
    TooLarge {
        /// The game.
        game_id: kaboom_domain::ids::GameId,
        /// The largest size allowed.
        max_bytes: usize,
        /// The narrowest width tried.
        width: u32,
    },
    /// The variant's start position could not be set up (a variant not available).
    #[error("{0}")]
    Variant(String),
}

/// How a replay GIF is captioned and paced ([`BoardPainter::replay_gif`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayStyle {
    /// White's name in the captions (a display name; the renderer cuts a long one).
    pub white_name: String,
    /// Black's name in the captions.
    pub black_name: String,
    /// How fast it runs: [`ReplayPace::Fast`] holds a long game to 30 s by shortening
    /// quiet plies first, [`ReplayPace::Normal`] gives every ply its full 0.8 s.
    pub pace: ReplayPace,
}

/// Draws a board as a PNG.
pub trait BoardPainter: Send + Sync + 'static {
    /// A PNG of `view` seen from `bottom`'s side, highlighting `last` if given.
    ///
    /// # Errors
    /// [`PaintError`] saying why the picture could not be drawn.
    fn paint(
        &self,
        view: &BoardView,
        last: Option<&PlyRecord>,
        bottom: Color,
    ) -> Result<Vec<u8>, PaintError>;

    /// A PNG of `game`'s current board as `viewer` sees it from `bottom`'s side,
    /// highlighting its last ply. The default paints [`BoardPainter::paint`]; the
    /// renderer's painter also draws what the last ply pushed (Bombalot, BA-6), which
    /// needs the position before it.
    ///
    /// # Errors
    /// [`PaintError`] saying why the picture could not be drawn.
    fn paint_game(
        &self,
        game: &AnyGame,
        viewer: Viewer,
        bottom: Color,
    ) -> Result<Vec<u8>, PaintError> {
        self.paint(&game.board_view(viewer), game.plies().last(), bottom)
    }

    /// An animated GIF of the whole `game` as `viewer` sees it from `bottom`'s side,
    /// `width` pixels wide: `kaboom_renderer::render_replay_gif`, one frame per
    /// ply plus short blast frames, the final position held, each frame captioned with
    /// its move and the mover's name from `style`, at `style`'s pace.
    ///
    /// # Errors
    /// [`PaintError`] saying why the replay could not be drawn.
    fn replay_gif(
        &self,
        game: &AnyGame,
        viewer: Viewer,
        bottom: Color,
        width: u32,
        style: &ReplayStyle,
    ) -> Result<Vec<u8>, PaintError> {
        let options = kaboom_renderer::ReplayOptions {
            size: width,
            orientation: orientation(bottom),
            viewer,
            white_name: Some(style.white_name.clone()),
            black_name: Some(style.black_name.clone()),
            pace: style.pace,
            ..kaboom_renderer::ReplayOptions::default()
        };
        kaboom_renderer::render_replay_gif(game, &options).map_err(PaintError::from)
    }

    /// A PNG of `game`'s board as `viewer` sees it from `bottom`'s side, its last ply
    /// highlighted, with `arrows` drawn over it (an analysis's key moment: the move
    /// played and the engine's better move). Every painter draws it with the renderer.
    ///
    /// # Errors
    /// [`PaintError`] saying why the picture could not be drawn.
    fn paint_with_arrows(
        &self,
        game: &AnyGame,
        viewer: Viewer,
        bottom: Color,
        arrows: &[kaboom_renderer::Arrow],
    ) -> Result<Vec<u8>, PaintError> {
        let options = kaboom_renderer::RenderOptions {
            orientation: orientation(bottom),
            arrows: arrows.to_vec(),
            ..kaboom_renderer::RenderOptions::default()
        };
        let last = kaboom_renderer::LastAction::from_game(game, game.ply_count());
        kaboom_renderer::render_png(&game.board_view(viewer), last.as_ref(), &options)
            .map_err(PaintError::from)
    }

    /// An explosion preview: `view` is the board *after* the action `last`,
    /// and the pieces it removes are drawn as translucent ghosts on the squares where they
    /// stood. Painters without ghosts draw [`BoardPainter::paint`]'s picture.
    ///
    /// # Errors
    /// [`PaintError`] saying why the picture could not be drawn.
    fn paint_preview(
        &self,
        view: &BoardView,
        last: &PlyRecord,
        bottom: Color,
    ) -> Result<Vec<u8>, PaintError> {
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
    ) -> Result<Vec<u8>, PaintError> {
        let options = kaboom_renderer::RenderOptions {
            orientation: orientation(bottom),
            ..kaboom_renderer::RenderOptions::default()
        };
        let last = last.map(kaboom_renderer::LastAction::from_ply);
        kaboom_renderer::render_png(view, last.as_ref(), &options).map_err(PaintError::from)
    }

    fn paint_game(
        &self,
        game: &AnyGame,
        viewer: Viewer,
        bottom: Color,
    ) -> Result<Vec<u8>, PaintError> {
        let options = kaboom_renderer::RenderOptions {
            orientation: orientation(bottom),
            ..kaboom_renderer::RenderOptions::default()
        };
        let last = kaboom_renderer::LastAction::from_game(game, game.ply_count());
        kaboom_renderer::render_png(&game.board_view(viewer), last.as_ref(), &options)
            .map_err(PaintError::from)
    }

    fn paint_preview(
        &self,
        view: &BoardView,
        last: &PlyRecord,
        bottom: Color,
    ) -> Result<Vec<u8>, PaintError> {
        let options = kaboom_renderer::RenderOptions {
            orientation: orientation(bottom),
            ..kaboom_renderer::RenderOptions::default()
        };
        let ghosts = kaboom_renderer::Ghost::from_removals(&last.removed);
        kaboom_renderer::render_png_with_ghosts(
            view,
            Some(&kaboom_renderer::LastAction::from_ply(last)),
            &options,
            &ghosts,
        )
        .map_err(PaintError::from)
    }
}

/// The renderer's orientation with `bottom`'s side at the bottom.
pub fn orientation(bottom: Color) -> kaboom_renderer::Orientation {
    match bottom {
        Color::White => kaboom_renderer::Orientation::White,
        Color::Black => kaboom_renderer::Orientation::Black,
    }
}
