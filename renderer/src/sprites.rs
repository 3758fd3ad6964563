//! Piece sprites for the PNG path: each piece rendered once per square size with
//! resvg (the same drawing as in the SVG, scaled to the square), then copied onto the
//! board at whole-pixel square positions.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use kaboom_rules::{Color, Kind};
use resvg::tiny_skia::Pixmap;

use crate::RenderError;
use crate::pieces::piece_group;

/// At most this many sprites are kept (15 kinds x 2 colours x a few sizes); past it
/// the cache starts afresh, so odd sizes asked once cannot make it grow without bound.
const MAX_SPRITES: usize = 300;

type Key = (usize, usize, u32);

/// Sprites for larger squares are not kept (bounded memory for odd large sizes).
const MAX_CACHED_SQUARE: u32 = 160;

fn cache() -> &'static Mutex<BTreeMap<Key, Arc<Pixmap>>> {
    static CACHE: Mutex<BTreeMap<Key, Arc<Pixmap>>> = Mutex::new(BTreeMap::new());
    &CACHE
}

/// The sprite of `kind` in `color` for squares of `sq` pixels.
pub(crate) fn sprite(kind: Kind, color: Color, sq: u32) -> Result<Arc<Pixmap>, RenderError> {
    let ki = Kind::ALL.iter().position(|&k| k == kind).unwrap_or(0);
    let key = (ki, color.index(), sq);
    if let Some(p) = cache().lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(Arc::clone(p));
    }
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{sq}" height="{sq}" viewBox="0 0 100 100">{}</svg>"#,
        piece_group(kind, color)
    );
    let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default())
        .map_err(|e| RenderError::Svg(e.to_string()))?;
    let mut pixmap = Pixmap::new(sq, sq).ok_or(RenderError::Allocate {
        width: sq,
        height: sq,
    })?;
    // The viewBox maps the 100 x 100 drawing onto `sq` pixels.
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    let pixmap = Arc::new(pixmap);
    if sq <= MAX_CACHED_SQUARE {
        let mut map = cache().lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= MAX_SPRITES {
            map.clear();
        }
        map.insert(key, Arc::clone(&pixmap));
    }
    Ok(pixmap)
}

/// Draws `sprite` (premultiplied RGBA) over `dst` with its top-left corner at pixel
/// (`x`, `y`), source-over, clipped to `dst`. Integer arithmetic: deterministic.
pub(crate) fn blit(dst: &mut Pixmap, sprite: &Pixmap, x: u32, y: u32) {
    let (dw, dh) = (dst.width(), dst.height());
    let (sw, sh) = (sprite.width(), sprite.height());
    if x >= dw || y >= dh {
        return;
    }
    let w = sw.min(dw - x) as usize;
    let h = sh.min(dh - y) as usize;
    let src = sprite.data();
    let out = dst.data_mut();
    for row in 0..h {
        let s0 = row * sw as usize * 4;
        let d0 = ((y as usize + row) * dw as usize + x as usize) * 4;
        let srow = &src[s0..s0 + w * 4];
        let drow = &mut out[d0..d0 + w * 4];
        for (s, d) in srow.chunks_exact(4).zip(drow.chunks_exact_mut(4)) {
            let a = u32::from(s[3]);
            if a == 0 {
                continue;
            }
            if a == 255 {
                d.copy_from_slice(s);
                continue;
            }
            let inv = 255 - a;
            for i in 0..4 {
                // s + d * (255 - a) / 255, rounded.
                let v = u32::from(d[i]) * inv + 128;
                let v = (v + (v >> 8)) >> 8;
                d[i] = (u32::from(s[i]) + v).min(255) as u8;
            }
        }
    }
}

/// The key of a cached board layer: files, goals, orientation, theme, picture width.
pub(crate) type BoardKey = (u8, bool, u8, u8, u32);

fn boards() -> &'static Mutex<BTreeMap<BoardKey, Arc<Pixmap>>> {
    static CACHE: Mutex<BTreeMap<BoardKey, Arc<Pixmap>>> = Mutex::new(BTreeMap::new());
    &CACHE
}

/// The rasterized board layer (background, squares, goals, coordinates) for `key`,
/// made from the SVG document `svg` on first use. At most [`MAX_BOARDS`] are kept.
pub(crate) fn board_layer(
    key: BoardKey,
    width: u32,
    height: u32,
    svg: impl FnOnce() -> String,
) -> Result<Arc<Pixmap>, RenderError> {
    if let Some(p) = boards().lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(Arc::clone(p));
    }
    let mut pixmap = Pixmap::new(width, height).ok_or(RenderError::Allocate { width, height })?;
    crate::rasterize_onto(&svg(), &mut pixmap)?;
    let pixmap = Arc::new(pixmap);
    if width <= MAX_CACHED_WIDTH {
        let mut map = boards().lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= MAX_BOARDS {
            map.clear();
        }
        map.insert(key, Arc::clone(&pixmap));
    }
    Ok(pixmap)
}

/// Empties the sprite, board-layer and header-strip caches.
pub(crate) fn clear() {
    cache().lock().unwrap_or_else(|e| e.into_inner()).clear();
    boards().lock().unwrap_or_else(|e| e.into_inner()).clear();
    headers().lock().unwrap_or_else(|e| e.into_inner()).clear();
}

/// The bytes of pixels the sprite, board-layer and header-strip caches hold.
pub(crate) fn cached_bytes() -> usize {
    let sprites: usize = cache()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .values()
        .map(|p| p.data().len())
        .sum();
    let boards: usize = boards()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .values()
        .map(|p| p.data().len())
        .sum();
    let headers: usize = headers()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .map(|(_, text, pixels)| text.len() + pixels.len())
        .sum();
    sprites + boards + headers
}

/// At most this many board layers are kept (about 2 MB each at 640 px).
const MAX_BOARDS: usize = 16;

/// Board layers of wider pictures are not kept (they would be tens of MB each).
pub(crate) const MAX_CACHED_WIDTH: u32 = 1280;

/// At most this many header strips are kept (about 160 KB each at 640 px). Board PNGs
/// keep their header strips in palette indices (`indexed.rs`); these serve the pictures
/// drawn in RGBA: boards with arrows or a preview, Bombalot's detonations, Bomberman
/// Chess's blast waves, and the boards the prerendered squares are cut from.
const MAX_HEADERS: usize = 16;

/// A header strip: its board layer's key, its SVG section and its pixels.
type HeaderEntry = (BoardKey, String, Arc<Vec<u8>>);

fn headers() -> &'static Mutex<Vec<HeaderEntry>> {
    static CACHE: Mutex<Vec<HeaderEntry>> = Mutex::new(Vec::new());
    &CACHE
}

/// Draws the header strip (`header`, an SVG section drawn over the top `rows` rows of
/// the board layer `layer` of `key`, whose copy `pixmap` holds) into `pixmap`: from a
/// cache of strips by layer and header text, or rasterized (`doc` is the SVG document of
/// the section) and remembered. A strip is remembered only when drawing it changed no
/// pixel below its rows, so a cached strip gives exactly the pixels a rasterization
/// would: the picture does not depend on the cache.
pub(crate) fn header_strip(
    key: BoardKey,
    header: &str,
    rows: usize,
    layer: &Pixmap,
    pixmap: &mut Pixmap,
    doc: impl FnOnce() -> String,
) -> Result<(), RenderError> {
    let bytes = (rows * pixmap.width() as usize * 4).min(pixmap.data().len());
    let cached = {
        let mut strips = headers().lock().unwrap_or_else(|e| e.into_inner());
        let at = strips
            .iter()
            .rposition(|(k, h, _)| *k == key && h == header);
        at.map(|at| {
            // Most recently used last.
            let entry = strips.remove(at);
            let pixels = Arc::clone(&entry.2);
            strips.push(entry);
            pixels
        })
    };
    if let Some(pixels) = cached.filter(|p| p.len() == bytes) {
        pixmap.data_mut()[..bytes].copy_from_slice(&pixels);
        return Ok(());
    }
    crate::rasterize_onto(&doc(), pixmap)?;
    if pixmap.width() <= MAX_CACHED_WIDTH && pixmap.data()[bytes..] == layer.data()[bytes..] {
        let mut strips = headers().lock().unwrap_or_else(|e| e.into_inner());
        if strips.len() >= MAX_HEADERS {
            strips.remove(0);
        }
        strips.push((
            key,
            header.to_string(),
            Arc::new(pixmap.data()[..bytes].to_vec()),
        ));
    }
    Ok(())
}
