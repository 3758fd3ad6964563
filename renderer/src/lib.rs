//! # kaboom-renderer
//!
//! Board images for Kaboom: a pure function from what one viewer may see of a game
//! ([`kaboom_rules::BoardView`]) to SVG text ([`render_svg`]) and to PNG bytes
//! ([`render_png`], rasterized with resvg / tiny-skia).
//!
//! The caller passes an already viewed board: a Beirut spectator view simply has no
//! carrier flags, so nothing hidden can leak into a public image (RULES.md section 6).
#![deny(missing_docs)]

pub use kaboom_rules;

use kaboom_rules::{ActionSquares, BoardView, PlyRecord, Square};

/// Whose side of the board is at the bottom of the picture.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default)]
pub enum Orientation {
    /// White's first rank at the bottom, file `a` on the left.
    #[default]
    White,
    /// Black's first rank (rank 8) at the bottom, file `a` on the right.
    Black,
}

/// Colour scheme of the picture.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default)]
pub enum Theme {
    /// Brown and cream squares (the default).
    #[default]
    Classic,
}

/// How to draw a board.
#[derive(Clone, Eq, PartialEq, Hash, Debug)]
pub struct RenderOptions {
    /// Width of the picture in pixels (the PNG's width; the height follows from the
    /// variant's geometry). Clamped to 64..=4096.
    pub size: u32,
    /// Whose side is at the bottom.
    pub orientation: Orientation,
    /// Colours.
    pub theme: Theme,
    /// Squares to mark as "would be removed" (an explosion preview); empty for none.
    pub preview: Vec<Square>,
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions {
            size: 640,
            orientation: Orientation::White,
            theme: Theme::Classic,
            preview: Vec::new(),
        }
    }
}

/// The last action, to highlight on the board.
#[derive(Clone, Eq, PartialEq, Hash, Debug, Default)]
pub struct LastAction {
    /// Its from / to squares and the centre of a Boom or detonation.
    pub squares: ActionSquares,
    /// Squares whose piece the action removed (each gets a blast mark), from the
    /// ply's removal report (C-6).
    pub removed: Vec<Square>,
}

impl LastAction {
    /// The highlight for one played ply: its squares and the squares of its removals.
    pub fn from_ply(ply: &PlyRecord) -> LastAction {
        let mut removed: Vec<Square> = ply.removed.iter().map(|r| r.square).collect();
        removed.sort();
        removed.dedup();
        LastAction {
            squares: ply.squares.clone(),
            removed,
        }
    }
}

/// Rendering to PNG failed.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The SVG we built could not be parsed (a bug in this crate).
    #[error("internal error: the board SVG did not parse: {0}")]
    Svg(String),
    /// The pixel buffer could not be allocated for this size.
    #[error("cannot allocate a {width}x{height} image")]
    Allocate {
        /// Requested width in pixels.
        width: u32,
        /// Requested height in pixels.
        height: u32,
    },
    /// PNG encoding failed.
    #[error("PNG encoding failed: {0}")]
    Png(String),
}

/// The board as SVG text, `options.size` pixels wide.
pub fn render_svg(board: &BoardView, last: Option<&LastAction>, options: &RenderOptions) -> String {
    let geo = board.variant.geometry();
    let sq = 100.0;
    let w = geo.files as f32 * sq;
    let h = geo.ranks as f32 * sq;
    let mut s = String::new();
    s.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {w} {h}\">",
        options.size,
        (options.size as f32 * h / w).round()
    ));
    let xy = |sqr: Square| -> (f32, f32) {
        let (f, r) = (sqr.file() as f32, sqr.rank() as f32);
        match options.orientation {
            Orientation::White => (f * sq, (geo.ranks as f32 - r) * sq),
            Orientation::Black => ((geo.files as f32 - 1.0 - f) * sq, (r - 1.0) * sq),
        }
    };
    for sqr in geo.squares() {
        if geo.is_goal(sqr) {
            continue;
        }
        let (x, y) = xy(sqr);
        let fill = if kaboom_rules::Geometry::is_dark(sqr) {
            "#b58863"
        } else {
            "#f0d9b5"
        };
        s.push_str(&format!(
            "<rect x=\"{x}\" y=\"{y}\" width=\"100\" height=\"100\" fill=\"{fill}\"/>"
        ));
    }
    if let Some(last) = last {
        for sqr in [last.squares.from, last.squares.to].into_iter().flatten() {
            let (x, y) = xy(sqr);
            s.push_str(&format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"100\" height=\"100\" fill=\"#ff0\" fill-opacity=\"0.4\"/>"
            ));
        }
    }
    for p in &board.pieces {
        if geo.is_goal(p.square) {
            continue;
        }
        let (x, y) = xy(p.square);
        let fill = match p.color {
            kaboom_rules::Color::White => "#fff",
            kaboom_rules::Color::Black => "#222",
        };
        s.push_str(&format!(
            "<circle cx=\"{}\" cy=\"{}\" r=\"35\" fill=\"{fill}\" stroke=\"#000\" stroke-width=\"3\"/>",
            x + 50.0,
            y + 50.0
        ));
    }
    s.push_str("</svg>");
    s
}

/// The board as PNG bytes, `options.size` pixels wide.
///
/// # Errors
/// [`RenderError`] only for an internal failure (the SVG this crate built did not parse)
/// or when the pixel buffer cannot be allocated.
pub fn render_png(
    board: &BoardView,
    last: Option<&LastAction>,
    options: &RenderOptions,
) -> Result<Vec<u8>, RenderError> {
    let svg = render_svg(board, last, options);
    let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default())
        .map_err(|e| RenderError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let (width, height) = (size.width(), size.height());
    let mut pixmap = resvg::tiny_skia::Pixmap::new(width, height)
        .ok_or(RenderError::Allocate { width, height })?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| RenderError::Png(e.to_string()))
}
