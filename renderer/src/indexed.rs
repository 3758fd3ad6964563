//! Board pictures drawn straight in palette indices, for [`crate::render_png`]: the
//! replay GIF's technique applied to one picture.
//!
//! The picture is the empty board and its prerendered squares (`tiles.rs`) in the fixed
//! palette of its board shape, theme and width (the replay's palette), the last action's
//! removal marks rasterized over the few squares they cover and mapped to that palette,
//! and the header strip, mapped once per text and kept. No full-size RGBA canvas is
//! drawn, copied or counted for a palette, which is most of a board PNG's cost
//! otherwise (docs/PERFORMANCE.md, "Board PNGs in palette indices").
//!
//! Where a mark crosses a badge (badges are drawn above the marks), and for Bombalot's
//! detonations and Bomberman Chess's blast waves, the board below the header is drawn in
//! RGBA as before and mapped to the same palette. Pictures with arrows or an explosion
//! preview (colours the palette was not made for) do not come here: they keep their own
//! palette of their most frequent colours.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use kaboom_rules::BoardView;
use resvg::tiny_skia::Pixmap;

use crate::replay::{self, Palette, Rect};
use crate::{ColourMap, LastAction, RenderError, RenderOptions};

/// At most this many header strips are kept in palette indices (about 35 KB each at
/// 640 px: the side to move, the move number and the variant make a few hundred texts
/// in everyday play).
const MAX_HEADERS: usize = 64;

/// Header strips in palette indices: board key, the header's SVG document, its rows.
type Headers = Vec<(crate::sprites::BoardKey, String, Arc<Vec<u8>>)>;

fn headers() -> &'static Mutex<Headers> {
    static HEADERS: Mutex<Headers> = Mutex::new(Vec::new());
    &HEADERS
}

/// Empties the header strips kept in palette indices.
pub(crate) fn clear() {
    headers().lock().unwrap_or_else(|e| e.into_inner()).clear();
}

/// The bytes of the header strips kept in palette indices.
pub(crate) fn cached_bytes() -> usize {
    headers()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .map(|(_, svg, rows)| svg.len() + rows.len())
        .sum()
}

/// Whether [`draw`] draws this picture: no arrows and no explosion preview, and a width
/// whose board layer is cached.
pub(crate) fn applies(options: &RenderOptions) -> bool {
    options.arrows.is_empty()
        && options.preview.is_empty()
        && options.size.clamp(64, 4096) <= crate::sprites::MAX_CACHED_WIDTH
}

thread_local! {
    /// The colour lookup of the palette this thread drew with last, kept between
    /// pictures: the colours it has seen and their nearest palette entries.
    static LOOKUP: std::cell::RefCell<Option<(replay::PaletteKey, ColourMap)>> =
        const { std::cell::RefCell::new(None) };
}

thread_local! {
    /// The RGBA buffer the last action's marks are drawn in, kept between pictures up to
    /// [`MAX_KEPT_OVERLAY`] bytes.
    static OVERLAY: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// At most this many colours are remembered by a thread's lookup before it starts over
/// (its map is then 256 KB; a board shape's pictures have a few thousand colours).
const MAX_LOOKUP_COLOURS: usize = 1 << 14;

/// A thread keeps its overlay buffer between pictures only up to this many bytes (the
/// marks of a few squares); a larger one, for marks spread over the board, is freed.
const MAX_KEPT_OVERLAY: usize = 512 * 1024;

/// Draws the picture of [`crate::render_png`] (for options that [`applies`] to) into
/// `indices` (resized to width x height, one palette index a pixel, row by row);
/// `canvas` is the RGBA canvas for the cases drawn in full. Returns the palette
/// (`width`, `height` and the RGB table of the entries in use).
///
/// # Errors
/// [`RenderError`] when rasterizing a part fails or a buffer cannot be allocated.
pub(crate) fn draw(
    board: &BoardView,
    last: Option<&LastAction>,
    options: &RenderOptions,
    canvas: &mut Option<Pixmap>,
    indices: &mut Vec<u8>,
) -> Result<(u32, u32, Arc<Palette>), RenderError> {
    let geo = board.variant.geometry();
    let palette_key: replay::PaletteKey = (geo.files, geo.goals, options.theme as u8, options.size);
    let palette = replay::palette_for(geo.files, geo.goals, options.theme, options.size)?;
    let kept = LOOKUP
        .with(|l| l.borrow_mut().take())
        .filter(|(key, map)| *key == palette_key && map.len() < MAX_LOOKUP_COLOURS)
        .map(|(_, map)| map);
    let mut lookup = palette.lookup_with(kept);
    let drawn = draw_with(board, last, options, canvas, indices, &mut lookup);
    let map = lookup.into_map();
    LOOKUP.with(|l| *l.borrow_mut() = Some((palette_key, map)));
    let (width, height) = drawn?;
    Ok((width, height, palette))
}

fn draw_with(
    board: &BoardView,
    last: Option<&LastAction>,
    options: &RenderOptions,
    canvas: &mut Option<Pixmap>,
    indices: &mut Vec<u8>,
    lookup: &mut replay::Lookup<'_>,
) -> Result<(u32, u32), RenderError> {
    let variant = board.variant;
    let geo = variant.geometry();
    let layout = crate::draw::Layout::new(geo, options.orientation, options.size);
    let (w, h) = (layout.width, layout.height);
    let wu = w as usize;
    let board_h = h as usize;
    let header_h = (layout.header as usize).min(board_h);
    let side = layout.sq as usize;
    let key = (
        geo.files,
        geo.goals,
        options.orientation as u8,
        options.theme as u8,
        w,
    );
    let base = crate::sprites::board_layer(key, w, h, || {
        let scene = crate::draw::scene(board, None, options);
        scene.layer(&scene.board)
    })?;
    // Each square's top-left pixel and contents.
    let squares: Vec<(usize, usize, crate::tiles::TileKey)> = geo
        .squares()
        .map(|sq| {
            let (x, y) = layout.origin(sq);
            (
                x as usize,
                y as usize,
                crate::tiles::key_of(board, last, sq),
            )
        })
        .collect();
    let overlay =
        last.and_then(|l| replay::overlay_rect(l, &layout, w, header_h, board_h).map(|r| (l, r)));
    // Marks the squares cannot hold, or marks under a badge: the board in RGBA.
    let whole = replay::needs_rgba_board(
        board,
        last,
        overlay.map(|(_, r)| r),
        side,
        squares.iter().map(|(x, y, k)| (*x, *y, k)),
    );
    indices.clear();
    indices.resize(wu * board_h, 0);
    if whole {
        let pixmap = crate::render_onto(canvas, board, last, options, crate::draw::GHOST_OPACITY)?;
        replay::map_into(
            lookup,
            pixmap.data(),
            wu,
            indices,
            wu,
            Rect::new(0, 0, wu, board_h),
            (0, 0),
        );
        return Ok((w, h));
    }
    let keys: BTreeSet<crate::tiles::TileKey> = squares.iter().map(|s| s.2.clone()).collect();
    let (base_idx, tiles) = crate::tiles::tiles(variant, options, &base, &keys, lookup)?;
    let n = base_idx.len().min(indices.len());
    indices[..n].copy_from_slice(&base_idx[..n]);
    for (x, y, key) in &squares {
        if let Some(tile) = tiles.get(key) {
            replay::paste(&tile.idx, side, indices, wu, *x, *y);
        }
    }
    if let Some((l, r)) = overlay
        && let Some(svg) = crate::draw::removals_svg(board, l, options, crate::draw::GHOST_OPACITY)
    {
        // The empty board, then the squares, then the marks, in RGBA over the rectangle,
        // in this thread's overlay buffer (kept between pictures).
        let mut buffer = OVERLAY.with(|o| std::mem::take(&mut *o.borrow_mut()));
        buffer.clear();
        buffer.resize(r.w * r.h * 4, 0);
        let data = &mut buffer[..];
        let mut tile_rgba = Vec::new();
        for row in 0..r.h {
            let src = ((r.y + row) * wu + r.x) * 4;
            data[row * r.w * 4..(row + 1) * r.w * 4]
                .copy_from_slice(&base.data()[src..src + r.w * 4]);
        }
        for (x, y, key) in &squares {
            if r.meets(*x, *y, side)
                && let Some(tile) = tiles.get(key)
            {
                tile.rgba_into(lookup, &mut tile_rgba);
                replay::paste_clipped(&tile_rgba, side, data, r, *x, *y);
            }
        }
        let mut px = resvg::tiny_skia::PixmapMut::from_bytes(data, r.w as u32, r.h as u32).ok_or(
            RenderError::Allocate {
                width: r.w as u32,
                height: r.h as u32,
            },
        )?;
        replay::rasterize_at(&svg, &mut px, r.x, r.y)?;
        replay::map_into(lookup, &buffer, r.w, indices, wu, r, (r.x, r.y));
        if buffer.capacity() <= MAX_KEPT_OVERLAY {
            OVERLAY.with(|o| *o.borrow_mut() = buffer);
        }
    }
    // The header strip, from the kept strips or rasterized and kept.
    let header = crate::draw::header_svg(board, &layout, options.theme);
    let rows = header_strip(key, header, wu, header_h, lookup)?;
    indices[..rows.len()].copy_from_slice(&rows);
    Ok((w, h))
}

/// The header strip `svg` (`width` x `rows` pixels) in palette indices: kept, or
/// rasterized, mapped with `lookup` and kept ([`MAX_HEADERS`], least recently used
/// forgotten first).
fn header_strip(
    key: crate::sprites::BoardKey,
    svg: String,
    width: usize,
    rows: usize,
    lookup: &mut replay::Lookup<'_>,
) -> Result<Arc<Vec<u8>>, RenderError> {
    {
        let mut strips = headers().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(at) = strips.iter().rposition(|(k, s, _)| *k == key && *s == svg) {
            // Most recently used last.
            let entry = strips.remove(at);
            let strip = Arc::clone(&entry.2);
            strips.push(entry);
            return Ok(strip);
        }
    }
    let mut px = Pixmap::new(width as u32, rows as u32).ok_or(RenderError::Allocate {
        width: width as u32,
        height: rows as u32,
    })?;
    crate::rasterize_onto(&svg, &mut px)?;
    let mut strip = vec![0u8; width * rows];
    replay::map_into(
        lookup,
        px.data(),
        width,
        &mut strip,
        width,
        Rect::new(0, 0, width, rows),
        (0, 0),
    );
    let strip = Arc::new(strip);
    let mut strips = headers().lock().unwrap_or_else(|e| e.into_inner());
    if strips.len() >= MAX_HEADERS {
        strips.remove(0);
    }
    strips.push((key, svg, Arc::clone(&strip)));
    Ok(strip)
}
