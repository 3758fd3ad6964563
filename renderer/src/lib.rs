//! # kaboom-renderer
//!
//! Board images for Kaboom: a pure function from what one viewer may see of a game
//! ([`kaboom_rules::BoardView`]) to SVG text ([`render_svg`]) and to PNG bytes
//! ([`render_png`], rasterized with resvg / tiny-skia).
//!
//! The caller passes an already viewed board: a Beirut spectator view simply has no
//! carrier flags, so nothing hidden can leak into a public image (docs/rules/RULINGS.md section 6).
//!
//! The picture: the board of the variant (8x8, 10x8, Bombalot's goal squares outside
//! the board next to d1/e1 and d8/e8 with their contents), our own piece set (see
//! `assets/README.md`), coordinates drawn as glyph paths from an embedded font (no
//! installed font is used), a header strip with the side to move and the move number
//! or the result and always the variant's name (so the picture is never square), the
//! last action (from/to squares, every removed piece drawn where it stood under the mark
//! of its cause: explosion, capture, jump with the jump path, push; a target on a Boom
//! or detonation square), kings in check, carriers and loose bombs with their count,
//! frozen and locked pieces, the imitator's current kind, and an optional explosion
//! preview ([`RenderOptions::preview`]). [`render_replay_gif`] draws a whole game as an
//! animated GIF, with a caption strip (move, ply text, mover's name) and an optional
//! capped pace ([`ReplayPace`]). The [`table`] module draws league standings and
//! crosstables ([`render_table_png`]); the [`legend`] module draws a variant's pieces
//! with their names and what they do ([`render_legend_png`]).
//!
//! ```
//! use kaboom_renderer::{LastAction, Orientation, RenderOptions, render_png, render_svg};
//! use kaboom_rules::{AnyGame, GameOptions, Variant, Viewer};
//!
//! let mut game = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
//! for san in ["e4", "d5", "exd5"] {
//!     game.play(None, san).unwrap();
//! }
//! let board = game.board_view(Viewer::Spectator);
//! let last = game.plies().last().map(LastAction::from_ply);
//! let options = RenderOptions { orientation: Orientation::Black, ..RenderOptions::default() };
//! let png = render_png(&board, last.as_ref(), &options).unwrap();
//! assert_eq!(&png[1..4], b"PNG");
//! assert!(render_svg(&board, last.as_ref(), &options).starts_with("<svg"));
//! ```
#![deny(missing_docs)]

pub use ghosts::{GHOST_OPACITY, Ghost, render_png_with_ghosts};
pub use kaboom_rules;

use kaboom_rules::{ActionSquares, AnyGame, BoardView, PlyRecord, Push, Removal, Square};

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
    /// Green and ivory squares.
    Green,
    /// Blue-grey squares.
    Blue,
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
    /// Arrows and rings drawn above everything on the board (post-game analysis: the
    /// engine's better move, the move played), in order; empty for none (the default).
    /// See [`Arrow`].
    pub arrows: Vec<Arrow>,
}

/// What an [`Arrow`] stands for, which gives its colour.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default)]
pub enum ArrowKind {
    /// The engine's better move: green (`#15781b`), like lichess's best-move arrow.
    #[default]
    Better,
    /// The move actually played: red (`#c62828`; brighter than lichess's `#882020`, which
    /// is hard to see on the brown dark squares).
    Played,
}

impl ArrowKind {
    /// The colour as SVG `#rrggbb` text. Arrows are drawn with this colour at opacity
    /// [`ARROW_OPACITY`], so on the board it blends with the squares and pieces under it.
    pub fn colour(self) -> &'static str {
        match self {
            ArrowKind::Better => "#15781b",
            ArrowKind::Played => "#c62828",
        }
    }
}

/// How opaque an [`Arrow`] is drawn (0..=1): the pieces under it stay visible.
pub const ARROW_OPACITY: f32 = 0.8;

/// An arrow on the board from one square's centre to another's, above the pieces,
/// semi-transparent ([`ARROW_OPACITY`]), scaled with the square size (the shaft is 17 %
/// of a square wide, the head 45 % long), drawn in the picture's [`Orientation`]. With `from == to` it is a
/// ring round the square instead: the picture of an action that is not a move from one
/// square to another (a Beirut `Boom@e5`, a Bombalot detonation). An arrow with a square
/// outside the variant's board is not drawn.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Arrow {
    /// The square the arrow starts at (its centre).
    pub from: Square,
    /// The square the arrow points to (its head's tip is just short of the centre);
    /// equal to `from` for a ring.
    pub to: Square,
    /// What it stands for (its colour).
    pub kind: ArrowKind,
}

impl Arrow {
    /// An arrow of `kind` from `from` to `to`.
    pub fn new(from: Square, to: Square, kind: ArrowKind) -> Arrow {
        Arrow { from, to, kind }
    }

    /// A ring of `kind` round `square` (an arrow from the square to itself).
    pub fn ring(square: Square, kind: ArrowKind) -> Arrow {
        Arrow {
            from: square,
            to: square,
            kind,
        }
    }
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions {
            size: 640,
            orientation: Orientation::White,
            theme: Theme::Classic,
            preview: Vec::new(),
            arrows: Vec::new(),
        }
    }
}

/// The last action, to highlight on the board.
///
/// Each removed piece stays visible where it stood, with a mark for its cause (C-6):
/// a translucent blast over an exploded piece, a blue ring and a small copy of the
/// taken piece for a plain capture, a violet cross over a jumped piece with the jump
/// path drawn through the landing squares (BA-4, BA-17), and arrows for pushed pieces
/// with an off-board marker for a piece pushed off (BA-6, BA-14).
#[derive(Clone, Eq, PartialEq, Hash, Debug, Default)]
pub struct LastAction {
    /// Its from / to squares and the centre of a Boom or detonation.
    pub squares: ActionSquares,
    /// Squares whose piece the action removed, from the ply's removal report (C-6).
    /// A square listed here without an entry in [`LastAction::removals`] gets the
    /// explosion mark (no piece is drawn there).
    pub removed: Vec<Square>,
    /// The removal report itself (C-6): which piece went from which square and why.
    /// Drives the ghost pieces and the mark of each cause.
    pub removals: Vec<Removal>,
    /// The landing squares of a Bombalot jump capture after its start square, in order
    /// (`e4:e6:g4` gives `[e6, g4]`, BA-17); empty for other actions.
    pub jump_path: Vec<Square>,
    /// The pieces a Bombalot tank step pushed (BA-6, BA-14); `to: None` for a piece
    /// pushed off the board. Only [`LastAction::from_game`] knows them (they need the
    /// position before the ply); [`LastAction::from_ply`] marks pushed-off pieces only.
    pub pushes: Vec<Push>,
}

impl LastAction {
    /// The highlight for one played ply: its squares, its removals with their causes,
    /// and the jump path read from its canonical text (`e4:e6:g4`, BA-17).
    pub fn from_ply(ply: &PlyRecord) -> LastAction {
        let mut removed: Vec<Square> = ply.removed.iter().map(|r| r.square).collect();
        removed.sort();
        removed.dedup();
        let jump_path = if ply.san.contains(':') {
            ply.san
                .split(':')
                .skip(1)
                .filter_map(|s| s.trim().parse::<Square>().ok())
                .collect()
        } else {
            Vec::new()
        };
        LastAction {
            squares: ply.squares,
            removed,
            removals: ply.removed.clone(),
            jump_path,
            pushes: Vec::new(),
        }
    }

    /// The highlight for ply number `ply` (1-based: 1 is the first ply) of `game`:
    /// [`LastAction::from_ply`] plus the pushes of a Bombalot tank step, computed on
    /// the position before the ply. `None` when the game has fewer plies (or `ply` is 0).
    pub fn from_game(game: &AnyGame, ply: usize) -> Option<LastAction> {
        let record = game.plies().get(ply.checked_sub(1)?)?;
        let mut last = LastAction::from_ply(record);
        if let AnyGame::Bombalot(g) = game
            && let (Some(before), Some(action)) =
                (g.position_after(ply - 1), g.actions().get(ply - 1))
        {
            last.pushes = before
                .pushed(action)
                .into_iter()
                .map(|(from, to)| Push { from, to })
                .collect();
        }
        Some(last)
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
    /// GIF encoding failed (replays, [`render_replay_gif`]).
    #[error("GIF encoding failed: {0}")]
    Gif(String),
}

pub mod chart;
mod draw;
mod ghosts;
mod indexed;
pub mod legend;
mod lzw;
mod pieces;
mod replay;

pub use replay::{
    Caption, FAST_REPLAY_TOTAL_CS, MAX_NAME_CHARS, MIN_BLAST_CS, MIN_EVENT_PLY_CS,
    MIN_QUIET_PLY_CS, ReplayFrame, ReplayOptions, ReplayPace, SUBFRAME_DELAY_CS, caption_height,
    render_caption_png, render_replay_gif, replay_captions, replay_delays, replay_plan,
};
mod sprites;
pub mod table;
mod text;
mod tiles;

pub use chart::{
    EvalChart, Mark, eval_chart_point, eval_chart_size, render_eval_chart_png,
    render_eval_chart_svg,
};
pub use legend::{LegendEntry, legend_entries, legend_size, render_legend_png, render_legend_svg};
pub use table::{
    Align, Cell, CellStyle, Column, MAX_CELL_CHARS, MAX_TABLE_WIDTH, TableImage, render_table_png,
    render_table_svg, table_size,
};

/// The board as SVG text, `options.size` pixels wide (clamped to 64..=4096); the
/// height follows from the variant's geometry and the header strip.
///
/// Pure and deterministic: the same arguments give the same text on every machine
/// (all text is drawn as glyph paths from an embedded font, never with system fonts).
pub fn render_svg(board: &BoardView, last: Option<&LastAction>, options: &RenderOptions) -> String {
    draw::svg(board, last, options)
}

/// Where [`render_svg`] and [`render_png`] draw `square` of a `variant` board with
/// `options` (its size and orientation): the square's top-left corner and its side, in
/// whole pixels of the picture from its top-left corner, as `(x, y, side)`. Bombalot's
/// goal squares lie outside the board. `None` for a square not on the variant's board.
/// For callers that place things over a board image (and for tests of the marks).
pub fn square_box(
    variant: kaboom_rules::Variant,
    options: &RenderOptions,
    square: Square,
) -> Option<(u32, u32, u32)> {
    let geo = variant.geometry();
    if !geo.contains(square) {
        return None;
    }
    let lay = draw::Layout::new(geo, options.orientation, options.size);
    let (x, y) = lay.origin(square);
    Some((x as u32, y as u32, lay.sq))
}

/// The board as PNG bytes (8-bit indexed colour), `options.size` pixels wide: the
/// picture of [`render_svg`], rasterized with resvg.
///
/// Without arrows or a preview (every board the bot posts after a move), the picture is
/// drawn straight in the palette indices of the replay GIF's fixed palette for the
/// board's geometry, theme and width: the empty board and prerendered squares, the last
/// action's removal marks rasterized over the squares they cover, the header strip
/// (renderer README, "Board PNGs"). With arrows or a preview it is rasterized in
/// layers: the empty board (squares, goals, coordinates: cached per geometry,
/// orientation, theme and width), the marks under the pieces (header, last action,
/// check, frozen tint), then the pieces from a cache of piece sprites (each piece
/// rendered once per square size with resvg, then copied to whole-pixel square
/// positions), then the badges, preview and arrows above them, and gets a palette of its
/// 128 most frequent colours. The result is deterministic: it does not depend on the
/// state of the caches.
///
/// # Errors
/// [`RenderError`] only for an internal failure (the SVG this crate built did not parse,
/// PNG encoding failed) or when the pixel buffer cannot be allocated.
pub fn render_png(
    board: &BoardView,
    last: Option<&LastAction>,
    options: &RenderOptions,
) -> Result<Vec<u8>, RenderError> {
    SCRATCH.with(|scratch| {
        let mut scratch = scratch.borrow_mut();
        let Scratch { canvas, indices } = &mut *scratch;
        let (width, png) = if indexed::applies(options) {
            let (width, height, palette) = indexed::draw(board, last, options, canvas, indices)?;
            let png = write_indexed_png(palette.entries(), indices, width, height, BOARD_FILTER);
            (width, png)
        } else {
            let pixmap = render_onto(canvas, board, last, options, draw::GHOST_OPACITY)?;
            let (width, height) = (pixmap.width(), pixmap.height());
            (
                width,
                encode_indexed_png(pixmap.data(), width, height, indices, BOARD_FILTER),
            )
        };
        // Keep only buffers of ordinary sizes between pictures.
        if width > 1280 {
            *canvas = None;
            *indices = Vec::new();
        }
        png
    })
}

/// Draws the picture of [`render_png`] into `canvas` (reused when its size fits,
/// replaced otherwise) and returns it; removed pieces are drawn with `ghost_opacity`
/// (0..=1). The layers: cached board, marks, piece sprites, top marks.
pub(crate) fn render_onto<'a>(
    canvas: &'a mut Option<resvg::tiny_skia::Pixmap>,
    board: &BoardView,
    last: Option<&LastAction>,
    options: &RenderOptions,
    ghost_opacity: f32,
) -> Result<&'a mut resvg::tiny_skia::Pixmap, RenderError> {
    let scene = draw::scene_with(board, last, options, ghost_opacity);
    paint_scene(canvas, &scene, board.variant.geometry(), options)
}

/// Draws `scene` (of a board of `geo`, drawn with `options`) into `canvas` as
/// [`render_onto`] does: cached board, marks, piece sprites, top marks.
pub(crate) fn paint_scene<'a>(
    canvas: &'a mut Option<resvg::tiny_skia::Pixmap>,
    scene: &draw::Scene,
    geo: kaboom_rules::Geometry,
    options: &RenderOptions,
) -> Result<&'a mut resvg::tiny_skia::Pixmap, RenderError> {
    let (width, height) = (scene.layout.width, scene.layout.height);
    let key = (
        geo.files,
        geo.goals,
        options.orientation as u8,
        options.theme as u8,
        width,
    );
    let layer = sprites::board_layer(key, width, height, || scene.layer(&scene.board))?;
    if !canvas
        .as_ref()
        .is_some_and(|p| p.width() == width && p.height() == height)
    {
        *canvas = Some(
            resvg::tiny_skia::Pixmap::new(width, height)
                .ok_or(RenderError::Allocate { width, height })?,
        );
    }
    let pixmap = canvas
        .as_mut()
        .ok_or(RenderError::Allocate { width, height })?;
    pixmap.data_mut().copy_from_slice(layer.data());
    // The header strip from its cache, then the other marks.
    match scene
        .marks
        .strip_prefix(scene.header.as_str())
        .filter(|_| !scene.header.is_empty())
    {
        Some(rest) => {
            sprites::header_strip(
                key,
                &scene.header,
                scene.layout.header as usize,
                &layer,
                pixmap,
                || scene.layer(&scene.header),
            )?;
            if !rest.is_empty() {
                rasterize_onto(&scene.layer(rest), pixmap)?;
            }
        }
        None => rasterize_onto(&scene.layer(&scene.marks), pixmap)?,
    }
    for p in &scene.pieces {
        let sprite = sprites::sprite(p.kind, p.color, scene.layout.sq)?;
        sprites::blit(pixmap, &sprite, p.x as u32, p.y as u32);
    }
    if !scene.top.is_empty() {
        rasterize_onto(&scene.layer(&scene.top), pixmap)?;
    }
    Ok(pixmap)
}

/// Per-thread buffers reused by [`render_png`].
#[derive(Default)]
struct Scratch {
    canvas: Option<resvg::tiny_skia::Pixmap>,
    indices: Vec<u8>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// Parses `svg` and draws it onto `pixmap` (over what is there).
pub(crate) fn rasterize_onto(
    svg: &str,
    pixmap: &mut resvg::tiny_skia::Pixmap,
) -> Result<(), RenderError> {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default())
        .map_err(|e| RenderError::Svg(e.to_string()))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    Ok(())
}

/// The heap the renderer's caches hold now, in bytes: piece sprites, board layers and
/// header strips in RGBA, the prerendered squares and the header strips in palette
/// indices. Each cache is bounded by a count of entries (300 sprites, 16 board layers, 16
/// RGBA header strips, 3,000 squares, 64 indexed header strips), so this stays under a
/// bound whatever is drawn; it fills as new board shapes,
/// sizes, themes and headers are drawn. A long-running test (the soak) reads it to tell
/// the caches filling from memory kept elsewhere.
pub fn cache_bytes() -> usize {
    sprites::cached_bytes() + tiles::cached_bytes() + indexed::cached_bytes()
}

/// Empties the renderer's caches ([`cache_bytes`]): the next pictures draw their sprites,
/// board layers, header strips and squares again, with the same pixels (no picture depends
/// on what is cached). For a test that measures the memory kept apart from the caches.
pub fn clear_caches() {
    sprites::clear();
    tiles::clear();
    indexed::clear();
}

/// Rasterizes any SVG text (such as [`render_svg`]'s) to PNG bytes in one pass, with
/// the encoding of [`render_png`]'s pictures with arrows (a palette of the 128 most
/// frequent colours), rows unfiltered: the crate's tables, legends, charts and captions
/// are mostly text, which the board pictures' row filter (`BOARD_FILTER`) makes larger.
///
/// # Errors
/// [`RenderError::Svg`] when `svg` does not parse, [`RenderError::Allocate`] when its
/// size is zero or too large, [`RenderError::Png`] when encoding fails.
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>, RenderError> {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default())
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
    encode_indexed_png(
        pixmap.data(),
        width,
        height,
        &mut Vec::new(),
        png::Filter::NoFilter,
    )
}

/// PNG bytes for an opaque RGBA pixel buffer, as an indexed (palette) image.
///
/// Board pictures are flat colours plus their anti-aliased edges: a few hundred to a
/// few thousand distinct colours, nearly all pixels in the most frequent few. The
/// palette is the 256 most frequent colours (ties broken by colour value, so it is
/// deterministic); every other colour, a few edge pixels, maps to its nearest palette
/// entry. Indexed pixels are a third of RGB's bytes and compress far better. Every row
/// is written with `filter` ([`write_indexed_png`]).
pub(crate) fn encode_indexed_png(
    rgba: &[u8],
    width: u32,
    height: u32,
    indices: &mut Vec<u8>,
    filter: png::Filter,
) -> Result<Vec<u8>, RenderError> {
    let palette = quantize_into(rgba, width as usize, 128, indices);
    write_indexed_png(&palette, indices, width, height, filter)
}

/// The PNG filter of every row of a board picture: "Up" (PNG specification, section
/// 9.2). A board's rows mostly repeat the row above (a square is tens of rows of the
/// same pixels), which Up turns into runs of zeros: a 640 px board comes out about 10%
/// smaller and a little faster to compress than unfiltered (docs/PERFORMANCE.md, "Board
/// PNGs in palette indices"). Pictures of text (tables, legends, charts, captions) are
/// written unfiltered: Up makes them larger.
pub(crate) const BOARD_FILTER: png::Filter = png::Filter::Up;

/// PNG bytes of `indices` (one byte per pixel, `width` x `height`) with `palette` (RGB
/// triples): `filter` on every row (PNG specification, section 9.2), deflate level 2.
fn write_indexed_png(
    palette: &[u8],
    indices: &[u8],
    width: u32,
    height: u32,
    filter: png::Filter,
) -> Result<Vec<u8>, RenderError> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(png::ColorType::Indexed);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_palette(palette);
        enc.set_deflate_compression(png::DeflateCompression::Level(2));
        enc.set_filter(filter);
        let mut writer = enc
            .write_header()
            .map_err(|e| RenderError::Png(e.to_string()))?;
        writer
            .write_image_data(indices)
            .map_err(|e| RenderError::Png(e.to_string()))?;
        writer
            .finish()
            .map_err(|e| RenderError::Png(e.to_string()))?;
    }
    Ok(out)
}

/// A small open-addressing map from 24-bit colours to a value, for [`quantize`]:
/// much faster than a general hash map on the few hundred colours of a board.
pub(crate) struct ColourMap {
    keys: Vec<u32>,
    values: Vec<u32>,
    len: usize,
}

impl ColourMap {
    const EMPTY: u32 = u32::MAX;

    pub(crate) fn new() -> ColourMap {
        ColourMap {
            keys: vec![Self::EMPTY; 4096],
            values: vec![0; 4096],
            len: 0,
        }
    }

    fn slot(&self, key: u32) -> usize {
        let mask = self.keys.len() - 1;
        let mut i = (key.wrapping_mul(0x9E37_79B1) >> 12) as usize & mask;
        while self.keys[i] != Self::EMPTY && self.keys[i] != key {
            i = (i + 1) & mask;
        }
        i
    }

    pub(crate) fn entry(&mut self, key: u32) -> &mut u32 {
        if (self.len + 1) * 2 > self.keys.len() {
            let old: Vec<(u32, u32)> = self.iter().collect();
            let cap = self.keys.len() * 2;
            self.keys = vec![Self::EMPTY; cap];
            self.values = vec![0; cap];
            self.len = 0;
            for (k, v) in old {
                *self.entry(k) = v;
            }
        }
        let i = self.slot(key);
        if self.keys[i] == Self::EMPTY {
            self.keys[i] = key;
            self.values[i] = 0;
            self.len += 1;
        }
        &mut self.values[i]
    }

    /// How many colours the map holds.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn get(&self, key: u32) -> Option<u32> {
        let i = self.slot(key);
        (self.keys[i] == key).then(|| self.values[i])
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.keys
            .iter()
            .zip(&self.values)
            .filter(|(k, _)| **k != Self::EMPTY)
            .map(|(k, v)| (*k, *v))
    }
}

/// Palette (RGB triples) and one index per pixel for an opaque RGBA buffer `width`
/// pixels wide, with at most `max_colours` (2..=256) entries: the most frequent
/// colours (ties broken by colour value, so the result is deterministic); every other
/// colour maps to its nearest entry. Colours are counted on every fourth row (the
/// picture is flat areas and their edges, which all cross several rows), which keeps
/// the pass over the pixels cheap; a colour seen only on the other rows maps to its
/// nearest palette entry like any rare colour.
/// The indices go into `indices` (resized; its allocation reused); returns the palette.
pub(crate) fn quantize_into(
    rgba: &[u8],
    width: usize,
    max_colours: usize,
    indices: &mut Vec<u8>,
) -> Vec<u8> {
    // Pixels as 24-bit keys 0xRRGGBB (the picture is opaque; alpha is ignored).
    let key = |p: &[u8]| {
        let w = u32::from_be_bytes([p[0], p[1], p[2], p[3]]);
        w >> 8
    };
    let row_bytes = width.max(1) * 4;
    // Count colours on sampled rows; runs of one colour are common, so count runs.
    let mut counts = ColourMap::new();
    for row in rgba.chunks(row_bytes).step_by(4) {
        let mut run_key = ColourMap::EMPTY;
        let mut run_len = 0u32;
        for px in row.chunks_exact(4) {
            let k = key(px);
            if k == run_key {
                run_len += 1;
            } else {
                if run_len > 0 {
                    *counts.entry(run_key) += run_len;
                }
                run_key = k;
                run_len = 1;
            }
        }
        if run_len > 0 {
            *counts.entry(run_key) += run_len;
        }
    }
    // Deterministic order: most frequent first, then by colour value.
    let mut by_freq: Vec<(u32, u32)> = counts.iter().collect();
    by_freq.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let keep = by_freq.len().min(max_colours.clamp(2, 256));
    let chosen: Vec<u32> = by_freq[..keep].iter().map(|&(k, _)| k).collect();
    let rgb = |k: u32| [(k >> 16) as i32, (k >> 8 & 0xff) as i32, (k & 0xff) as i32];
    let mut index_of = ColourMap::new();
    for (i, &k) in chosen.iter().enumerate() {
        *index_of.entry(k) = i as u32;
    }
    let nearest = |k: u32| -> u32 {
        let c = rgb(k);
        let mut best = 0usize;
        let mut best_d = i32::MAX;
        for (i, &p) in chosen.iter().enumerate() {
            let q = rgb(p);
            let d = (c[0] - q[0]).pow(2) * 3 + (c[1] - q[1]).pow(2) * 4 + (c[2] - q[2]).pow(2) * 2;
            if d < best_d {
                best_d = d;
                best = i;
            }
        }
        best as u32
    };
    for &(k, _) in &by_freq[keep..] {
        *index_of.entry(k) = nearest(k);
    }
    let mut palette = Vec::with_capacity(keep * 3);
    for &k in &chosen {
        palette.extend_from_slice(&[(k >> 16) as u8, (k >> 8) as u8, k as u8]);
    }
    indices.clear();
    indices.resize(rgba.len() / 4, 0);
    let width = width.max(1);
    let mut index_of_key = |k: u32| -> u8 {
        match index_of.get(k) {
            Some(i) => i as u8,
            None => {
                let i = nearest(k);
                *index_of.entry(k) = i;
                i as u8
            }
        }
    };
    let mut previous: Option<&[u8]> = None;
    for (y, row) in rgba.chunks(row_bytes).enumerate() {
        let start = y * width;
        let end = (start + row.len() / 4).min(indices.len());
        // A row equal to the one above (flat areas, empty squares) copies its indices.
        if previous == Some(row) {
            indices.copy_within(start - width..end - width, start);
            continue;
        }
        previous = Some(row);
        // Compare raw pixel words (alpha is always 255) and derive the key only when
        // the colour changes: most pixels repeat their left neighbour.
        let mut last_word = None;
        let mut last_index = 0u8;
        for (px, out) in row.chunks_exact(4).zip(indices[start..end].iter_mut()) {
            let word = u32::from_ne_bytes([px[0], px[1], px[2], px[3]]);
            if last_word != Some(word) {
                last_word = Some(word);
                last_index = index_of_key(key(px));
            }
            *out = last_index;
        }
    }
    palette
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(colours: &[[u8; 3]], counts: &[usize]) -> Vec<u8> {
        let mut rgba = Vec::new();
        for (c, &n) in colours.iter().zip(counts) {
            for _ in 0..n {
                rgba.extend_from_slice(&[c[0], c[1], c[2], 255]);
            }
        }
        rgba
    }

    #[test]
    fn few_colours_are_kept_exactly() {
        let colours = [[10, 20, 30], [200, 100, 0], [255, 255, 255]];
        // One row of 40 pixels, repeated 8 times, so every colour is on sampled rows.
        let row = image(&colours, &[10, 20, 10]);
        let rgba: Vec<u8> = row.iter().copied().cycle().take(row.len() * 8).collect();
        let mut indices = Vec::new();
        let palette = quantize_into(&rgba, 40, 128, &mut indices);
        assert_eq!(indices.len(), 320);
        for (px, &i) in rgba.chunks_exact(4).zip(&indices) {
            let entry = &palette[usize::from(i) * 3..usize::from(i) * 3 + 3];
            assert_eq!(entry, &px[..3]);
        }
        // Most frequent first.
        assert_eq!(&palette[..3], &[200, 100, 0]);
    }

    #[test]
    fn rare_colours_map_to_the_nearest_entry() {
        let colours = [[0, 0, 0], [250, 250, 250], [240, 240, 240], [5, 5, 5]];
        let rgba = image(&colours, &[50, 40, 1, 1]);
        let mut indices = Vec::new();
        let palette = quantize_into(&rgba, 92, 2, &mut indices);
        assert_eq!(palette.len(), 6);
        assert_eq!(indices[90], indices[50], "240 grey maps to 250 grey");
        assert_eq!(indices[91], indices[0], "near-black maps to black");
    }
}
