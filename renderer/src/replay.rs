//! Replay GIFs: a whole game as an animated GIF, one frame per ply, short
//! blast frames before each explosion's ply frame (the destroyed pieces fading under the
//! blast), the final position held.
//!
//! The technique is the one lichess's GIF service describes (lila-gif's README,
//! "Technique"): pieces are prerendered sprites (our sprite cache), every frame maps to
//! one fixed palette (so no per-frame quantization and one global colour table), and
//! each frame after the first holds only the rectangle that changed, with unchanged
//! pixels inside it transparent (disposal "keep"), which LZW compresses to almost
//! nothing. No code of lila-gif is used (it is AGPL); this is our own implementation on
//! the `gif` crate.
//!
//! GIF format: GIF89a (<https://www.w3.org/Graphics/GIF/spec-gif89a.txt>): a global
//! colour table of 256 entries, index 255 transparent, delays in centiseconds, the
//! NETSCAPE2.0 loop extension (infinite loop).

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use kaboom_rules::{
    AnyGame, BoardView, Cause, Color, Kind, PieceView, Square, Status, Variant, Viewer,
};
use resvg::tiny_skia::Pixmap;

use crate::{ColourMap, LastAction, Orientation, RenderError, RenderOptions, Theme};

/// The palette index left transparent in frames after the first (pixels unchanged from
/// the frame before).
const TRANSPARENT: u8 = 255;

/// How a replay is drawn.
#[derive(Clone, Eq, PartialEq, Hash, Debug)]
pub struct ReplayOptions {
    /// Width in pixels, as [`RenderOptions::size`] (clamped to 64..=4096).
    pub size: u32,
    /// Whose side is at the bottom (the same for every frame).
    pub orientation: Orientation,
    /// Colours.
    pub theme: Theme,
    /// Whose view every frame shows (BE-2: a Beirut player's own view while the game
    /// runs, [`Viewer::Full`] once it is over, [`Viewer::Spectator`] for the public).
    pub viewer: Viewer,
    /// How long the start position shows, in centiseconds (GIF delay units).
    pub start_delay_cs: u16,
    /// How long each ply's position shows, in centiseconds.
    pub ply_delay_cs: u16,
    /// How long each blast frame shows, in centiseconds.
    pub blast_delay_cs: u16,
    /// How long the final position is held before the loop starts again, in centiseconds.
    pub final_delay_cs: u16,
}

impl Default for ReplayOptions {
    fn default() -> ReplayOptions {
        ReplayOptions {
            size: 480,
            orientation: Orientation::White,
            theme: Theme::Classic,
            viewer: Viewer::Spectator,
            start_delay_cs: 150,
            ply_delay_cs: 80,
            blast_delay_cs: 20,
            final_delay_cs: 500,
        }
    }
}

/// One frame of a replay, in order ([`replay_plan`]).
#[derive(Copy, Clone, PartialEq, Debug)]
pub enum ReplayFrame {
    /// The start position, no highlight.
    Start,
    /// A short frame before an explosion's ply frame: the position after ply `ply`
    /// (1-based) with the destroyed pieces drawn at `opacity` under the blast.
    Blast {
        /// The ply (1-based).
        ply: usize,
        /// Opacity of the destroyed pieces, 0..=1 (they fade from 1 to the board
        /// image's value over the blast frames).
        opacity: f32,
    },
    /// The position after ply `ply` (1-based), as the board image of that ply shows it.
    Ply {
        /// The ply (1-based).
        ply: usize,
    },
}

/// Opacities of the destroyed pieces in an explosion's blast frames, before the ply
/// frame (which draws them as the board image does).
const BLAST_STEPS: [f32; 2] = [1.0, 0.85];

/// The frames of `game`'s replay: the start, then for each ply its blast frames (when
/// the ply exploded something: C-6 causes "exploded" and "co-square") and its frame.
pub fn replay_plan(game: &AnyGame) -> Vec<ReplayFrame> {
    let mut plan = vec![ReplayFrame::Start];
    for (i, ply) in game.plies().iter().enumerate() {
        let exploded = ply
            .removed
            .iter()
            .any(|r| matches!(r.cause, Cause::Exploded | Cause::CoSquare));
        if exploded {
            plan.extend(BLAST_STEPS.iter().map(|&opacity| ReplayFrame::Blast {
                ply: i + 1,
                opacity,
            }));
        }
        plan.push(ReplayFrame::Ply { ply: i + 1 });
    }
    plan
}

/// The whole game as an animated GIF ([`replay_plan`]'s frames), every frame from
/// `options.orientation` as `options.viewer` sees the game. The first frame equals
/// [`crate::render_png`] of the start position and the last one the board image of the
/// final position (`game.board_view(viewer)` with the last ply highlighted), up to the
/// fixed palette's colours at anti-aliased edges.
///
/// # Errors
/// [`RenderError`] when a frame cannot be drawn (see [`crate::render_png`]) or GIF
/// encoding fails.
pub fn render_replay_gif(game: &AnyGame, options: &ReplayOptions) -> Result<Vec<u8>, RenderError> {
    let plan = replay_plan(game);
    let render = RenderOptions {
        size: options.size,
        orientation: options.orientation,
        theme: options.theme,
        preview: Vec::new(),
        arrows: Vec::new(),
    };
    let viewer = options.viewer;
    let plies = game.ply_count();
    let board_at = |ply: usize| -> Option<BoardView> {
        if ply == plies {
            Some(game.board_view(viewer))
        } else {
            game.board_view_after(ply, viewer)
        }
    };
    let geo = game.variant().geometry();
    let palette = palette_for(geo.files, geo.goals, options.theme, options.size)?;
    let mut out = Vec::new();
    let mut previous: Option<Pixmap> = None;
    let mut current: Option<Pixmap> = None;
    let mut lookup = palette.lookup();
    let mut indices = Vec::new();
    let layout = crate::draw::Layout::new(geo, options.orientation, options.size);
    let mut encoder = gif::Encoder::new(
        &mut out,
        to_u16(layout.width)?,
        to_u16(layout.height)?,
        &palette.rgb,
    )
    .map_err(|e| RenderError::Gif(e.to_string()))?;
    encoder
        .set_repeat(gif::Repeat::Infinite)
        .map_err(|e| RenderError::Gif(e.to_string()))?;
    {
        for (n, frame) in plan.iter().enumerate() {
            let (ply, opacity) = match *frame {
                ReplayFrame::Start => (0, crate::draw::GHOST_OPACITY),
                ReplayFrame::Blast { ply, opacity } => (ply, opacity),
                ReplayFrame::Ply { ply } => (ply, crate::draw::GHOST_OPACITY),
            };
            let Some(board) = board_at(ply) else { continue };
            let last = LastAction::from_game(game, ply);
            let pixmap = crate::render_onto(&mut current, &board, last.as_ref(), &render, opacity)?;
            let (w, h) = (pixmap.width(), pixmap.height());
            let delay = match frame {
                ReplayFrame::Start if plies == 0 => options.final_delay_cs,
                ReplayFrame::Start => options.start_delay_cs,
                ReplayFrame::Blast { .. } => options.blast_delay_cs,
                ReplayFrame::Ply { ply } if *ply == plies => options.final_delay_cs,
                ReplayFrame::Ply { .. } => options.ply_delay_cs,
            };
            let bands = match &previous {
                Some(prev) => changed_bands(prev.data(), pixmap.data(), w as usize, h as usize),
                None => vec![(0, 0, w as usize, h as usize)],
            };
            // Nothing changed: a 1x1 transparent frame keeps the frame and its delay.
            let bands = if bands.is_empty() {
                vec![(0, 0, 1, 1)]
            } else {
                bands
            };
            let data = pixmap.data();
            let prev = previous.as_ref().map(|p| p.data());
            let count = bands.len();
            for (b, &(x0, y0, rw, rh)) in bands.iter().enumerate() {
                indices.clear();
                for y in y0..y0 + rh {
                    let row = (y * w as usize + x0) * 4..(y * w as usize + x0 + rw) * 4;
                    let cur = &data[row.clone()];
                    match prev {
                        Some(prev) => {
                            let old = &prev[row];
                            for (c, o) in cur.chunks_exact(4).zip(old.chunks_exact(4)) {
                                indices.push(if c == o { TRANSPARENT } else { lookup.index(c) });
                            }
                        }
                        None => {
                            for c in cur.chunks_exact(4) {
                                indices.push(lookup.index(c));
                            }
                        }
                    }
                }
                // Every band but the last shows for SUBFRAME_DELAY_CS; the last carries
                // the rest of the frame's delay.
                let spent = SUBFRAME_DELAY_CS * (count as u16 - 1);
                let band_delay = if b + 1 < count {
                    SUBFRAME_DELAY_CS
                } else {
                    delay.saturating_sub(spent).max(SUBFRAME_DELAY_CS + 1)
                };
                let gif_frame = gif::Frame {
                    left: to_u16(x0 as u32)?,
                    top: to_u16(y0 as u32)?,
                    width: to_u16(rw as u32)?,
                    height: to_u16(rh as u32)?,
                    delay: band_delay,
                    dispose: gif::DisposalMethod::Keep,
                    transparent: (n > 0).then_some(TRANSPARENT),
                    buffer: Cow::Borrowed(&indices),
                    ..gif::Frame::default()
                };
                encoder
                    .write_frame(&gif_frame)
                    .map_err(|e| RenderError::Gif(e.to_string()))?;
            }
            // The frame just drawn becomes the one to compare with.
            std::mem::swap(&mut previous, &mut current);
        }
    }
    // Writes the trailer.
    encoder
        .into_inner()
        .map_err(|e| RenderError::Gif(e.to_string()))?;
    Ok(out)
}

/// The delay of the leading parts of a frame that changed in separate bands (the header
/// and the board): GIF frames of their own, shown for 20 ms each (browsers show delays
/// of 0 or 1 centisecond as 100 ms, so 2 is the shortest honoured), the last part
/// carries the rest of the frame's delay. A decoder joins the parts by this delay.
pub const SUBFRAME_DELAY_CS: u16 = 2;

/// Rows of unchanged pixels that split a frame's changed area into separate bands.
const BAND_GAP: usize = 6;

/// The changed areas between two RGBA buffers of `w` x `h` pixels, as rectangles
/// `(x, y, width, height)` top to bottom: runs of changed rows (joined across gaps of
/// fewer than [`BAND_GAP`] unchanged rows), each cut to its changed columns. Empty when
/// the buffers are equal. Encoding only these keeps the LZW input small (the header
/// strip and the board usually change far apart).
fn changed_bands(a: &[u8], b: &[u8], w: usize, h: usize) -> Vec<(usize, usize, usize, usize)> {
    let row = w * 4;
    let mut bands = Vec::new();
    let mut y = 0;
    while y < h {
        if a[y * row..(y + 1) * row] == b[y * row..(y + 1) * row] {
            y += 1;
            continue;
        }
        let top = y;
        let mut bottom = y;
        let mut gap = 0;
        y += 1;
        while y < h && gap < BAND_GAP {
            if a[y * row..(y + 1) * row] == b[y * row..(y + 1) * row] {
                gap += 1;
            } else {
                gap = 0;
                bottom = y;
            }
            y += 1;
        }
        let rows = bottom + 1 - top;
        if let Some((x, _, width, _)) = changed_rect(
            &a[top * row..(bottom + 1) * row],
            &b[top * row..(bottom + 1) * row],
            w,
            rows,
        ) {
            bands.push((x, top, width, rows));
        }
    }
    bands
}

fn to_u16(v: u32) -> Result<u16, RenderError> {
    u16::try_from(v).map_err(|_| RenderError::Gif(format!("{v} pixels is too large for a GIF")))
}

/// The smallest rectangle `(x, y, width, height)` holding every pixel that differs
/// between two RGBA buffers of `w` x `h` pixels, or `None` when they are equal.
fn changed_rect(a: &[u8], b: &[u8], w: usize, h: usize) -> Option<(usize, usize, usize, usize)> {
    let row = w * 4;
    let differs = |y: usize| a[y * row..(y + 1) * row] != b[y * row..(y + 1) * row];
    let top = (0..h).find(|&y| differs(y))?;
    let bottom = (top..h).rev().find(|&y| differs(y)).unwrap_or(top);
    let (mut left, mut right) = (w, 0);
    for y in top..=bottom {
        let (ra, rb) = (&a[y * row..(y + 1) * row], &b[y * row..(y + 1) * row]);
        if ra == rb {
            continue;
        }
        let first = (0..w).find(|&x| ra[x * 4..x * 4 + 4] != rb[x * 4..x * 4 + 4]);
        let last = (0..w)
            .rev()
            .find(|&x| ra[x * 4..x * 4 + 4] != rb[x * 4..x * 4 + 4]);
        if let (Some(f), Some(l)) = (first, last) {
            left = left.min(f);
            right = right.max(l);
        }
    }
    Some((left, top, right + 1 - left, bottom + 1 - top))
}

/// A fixed palette: 255 colours (index 255 is transparent) and the RGB table of 768 bytes.
struct Palette {
    /// 256 RGB triples (the last is the transparent entry's, black).
    rgb: Vec<u8>,
    /// The 255 colours as 24-bit keys.
    keys: Vec<u32>,
}

impl Palette {
    fn lookup(&self) -> Lookup<'_> {
        let mut map = ColourMap::new();
        for (i, &k) in self.keys.iter().enumerate() {
            *map.entry(k) = i as u32;
        }
        Lookup {
            palette: self,
            map,
            last: None,
        }
    }
}

/// Pixel to palette index, with a cache of every colour seen (nearest palette entry).
struct Lookup<'a> {
    palette: &'a Palette,
    map: ColourMap,
    last: Option<([u8; 4], u8)>,
}

impl Lookup<'_> {
    fn index(&mut self, px: &[u8]) -> u8 {
        let p = [px[0], px[1], px[2], px[3]];
        if let Some((c, i)) = self.last
            && c == p
        {
            return i;
        }
        let key = u32::from(p[0]) << 16 | u32::from(p[1]) << 8 | u32::from(p[2]);
        let i = match self.map.get(key) {
            Some(i) => i as u8,
            None => {
                let i = nearest(&self.palette.keys, key);
                *self.map.entry(key) = u32::from(i);
                i
            }
        };
        self.last = Some((p, i));
        i
    }
}

/// The index of the palette colour nearest to `key` (weighted RGB distance).
fn nearest(keys: &[u32], key: u32) -> u8 {
    let rgb = |k: u32| [(k >> 16) as i32, (k >> 8 & 0xff) as i32, (k & 0xff) as i32];
    let c = rgb(key);
    let mut best = (i32::MAX, 0u8);
    for (i, &k) in keys.iter().enumerate() {
        let q = rgb(k);
        let d = (c[0] - q[0]).pow(2) * 3 + (c[1] - q[1]).pow(2) * 4 + (c[2] - q[2]).pow(2) * 2;
        if d < best.0 {
            best = (d, i as u8);
        }
    }
    best.1
}

/// Key of a cached palette: files, goals, theme, width.
type PaletteKey = (u8, bool, u8, u32);

/// The fixed palette for a board geometry, theme and width, made once from a sheet of
/// every piece on both square colours, on highlighted squares, and every mark (blast,
/// capture, jump, push, check, frozen, carriers, loose bombs): the 255 most frequent
/// colours of that sheet. Every frame of every replay with that key maps to it.
fn palette_for(
    files: u8,
    goals: bool,
    theme: Theme,
    size: u32,
) -> Result<Arc<Palette>, RenderError> {
    static CACHE: Mutex<BTreeMap<PaletteKey, Arc<Palette>>> = Mutex::new(BTreeMap::new());
    let key = (files, goals, theme as u8, size);
    if let Some(p) = CACHE.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(p.clone());
    }
    let variant = match (files, goals) {
        (_, true) => Variant::Bombalot,
        (10, false) => Variant::Bomberman,
        _ => Variant::Atomic,
    };
    let options = RenderOptions {
        size,
        orientation: Orientation::White,
        theme,
        preview: Vec::new(),
        arrows: Vec::new(),
    };
    let mut counts = ColourMap::new();
    let mut canvas = None;
    for (board, last) in palette_sheets(variant) {
        for opacity in [1.0, crate::draw::GHOST_OPACITY] {
            let pixmap = crate::render_onto(&mut canvas, &board, Some(&last), &options, opacity)?;
            for px in pixmap.data().chunks_exact(4) {
                let k = u32::from(px[0]) << 16 | u32::from(px[1]) << 8 | u32::from(px[2]);
                *counts.entry(k) += 1;
            }
        }
    }
    let mut by_freq: Vec<(u32, u32)> = counts.iter().collect();
    by_freq.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let keys: Vec<u32> = by_freq.iter().take(255).map(|&(k, _)| k).collect();
    let mut rgb = Vec::with_capacity(768);
    for &k in &keys {
        rgb.extend_from_slice(&[(k >> 16) as u8, (k >> 8) as u8, k as u8]);
    }
    rgb.resize(768, 0);
    let palette = Arc::new(Palette { rgb, keys });
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    if cache.len() >= 16 {
        cache.clear();
    }
    cache.insert(key, palette.clone());
    Ok(palette)
}

/// Boards that show every colour a replay of `variant`'s geometry can: every kind of
/// both sides on light, dark and highlighted squares, with every mark and badge.
fn palette_sheets(variant: Variant) -> Vec<(BoardView, LastAction)> {
    let geo = variant.geometry();
    let kinds: &[Kind] = &Kind::ALL;
    let board_squares: Vec<Square> = geo.squares().filter(|&s| !geo.is_goal(s)).collect();
    let mut sheets = Vec::new();
    for shift in 0..2usize {
        let mut pieces = Vec::new();
        for (i, &sq) in board_squares.iter().enumerate() {
            let k = kinds[(i / 2 + shift) % kinds.len()];
            let color = if (i + shift) % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            pieces.push(PieceView {
                square: sq,
                color,
                kind: k,
                carrier: i % 7 == 0,
                frozen: i % 11 == 0,
                imitating: None,
                locked: i % 13 == 0,
            });
        }
        let removals: Vec<kaboom_rules::Removal> = board_squares
            .iter()
            .enumerate()
            .filter(|(i, _)| i % 5 == shift)
            .map(|(i, &sq)| kaboom_rules::Removal {
                square: sq,
                piece: kaboom_rules::Piece::new(
                    if i % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    },
                    kinds[i % kinds.len()],
                ),
                cause: [Cause::Exploded, Cause::Captured, Cause::Jumped][i % 3],
            })
            .collect();
        // Removed squares are empty (ghosts) or hold a capturer (badges).
        pieces.retain(|p| {
            !removals
                .iter()
                .any(|r| r.square == p.square && r.cause != Cause::Captured)
        });
        let last = LastAction {
            squares: kaboom_rules::ActionSquares {
                from: board_squares.get(9 + shift).copied(),
                to: board_squares.get(18 + shift).copied(),
                detonation: board_squares.get(27).copied(),
            },
            removed: Vec::new(),
            removals,
            jump_path: board_squares.iter().skip(3).step_by(9).copied().collect(),
            pushes: Vec::new(),
        };
        let board = BoardView {
            variant,
            checked: pieces
                .iter()
                .filter(|p| p.kind == Kind::King)
                .map(|p| p.square)
                .take(2)
                .collect(),
            pieces,
            loose_bombs: Vec::new(),
            turn: if shift == 0 {
                Color::White
            } else {
                Color::Black
            },
            fullmoves: 1,
            status: Status::Ongoing,
            awaiting_designation: Vec::new(),
        };
        sheets.push((board, last));
    }
    sheets
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_rect_bounds_every_difference() {
        let (w, h) = (5, 4);
        let a = vec![0u8; w * h * 4];
        assert_eq!(changed_rect(&a, &a, w, h), None);
        let mut b = a.clone();
        b[(w + 1) * 4] = 9; // (1, 1)
        b[(2 * w + 3) * 4 + 2] = 9; // (3, 2)
        assert_eq!(changed_rect(&a, &b, w, h), Some((1, 1, 3, 2)));
    }

    #[test]
    fn changed_bands_split_far_apart_changes() {
        let (w, h) = (4, 20);
        let a = vec![0u8; w * h * 4];
        assert!(changed_bands(&a, &a, w, h).is_empty());
        let mut b = a.clone();
        b[(w + 1) * 4] = 9; // (1, 1)
        b[(3 * w + 2) * 4] = 9; // (2, 3): within the gap, same band
        b[(15 * w + 3) * 4] = 9; // (3, 15): a band of its own
        assert_eq!(
            changed_bands(&a, &b, w, h),
            vec![(1, 1, 2, 3), (3, 15, 1, 1)]
        );
    }

    #[test]
    fn nearest_picks_the_closest_colour() {
        let keys = [0x000000, 0xffffff, 0xff0000];
        assert_eq!(nearest(&keys, 0x101010), 0);
        assert_eq!(nearest(&keys, 0xeeeeee), 1);
        assert_eq!(nearest(&keys, 0xd01010), 2);
    }
}
