//! Replay GIFs: a whole game as an animated GIF, one frame per ply, short
//! blast frames before each explosion's ply frame (the destroyed pieces fading under the
//! blast), the final position held.
//!
//! The technique is the one lichess's GIF service describes (lila-gif's README,
//! "Technique"): frames are drawn in palette indices from prerendered squares (every
//! square colour, highlight, check and piece with its badges, as the board image draws
//! it, in one fixed palette per board shape: `tiles.rs`), only where a square's contents
//! changed; the last action's removal marks (blasts, ghosts, rings, crosses, jump paths,
//! pushes) are rasterized over the few squares they cover; each frame after the first
//! holds only the rectangles that changed, with unchanged pixels inside them
//! transparent (disposal "keep"), compressed by our own LZW encoder (`lzw.rs`). The
//! header between the first and the last frame is one fixed strip (both names and the
//! variant; the caption under the board tells the move), and the caption's name part is
//! drawn once per mover. No code of lila-gif is used (it is AGPL); this is our own
//! implementation on the `gif` crate.
//!
//! GIF format: GIF89a (<https://www.w3.org/Graphics/GIF/spec-gif89a.txt>): a global
//! colour table of 256 entries, index 255 transparent, delays in centiseconds, the
//! NETSCAPE2.0 loop extension (infinite loop).

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
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
    /// White's name for the captions and the replay's header (a display name; cut to
    /// [`MAX_NAME_CHARS`] characters with `…`); `None` writes "White".
    pub white_name: Option<String>,
    /// Black's name for the captions; `None` writes "Black".
    pub black_name: Option<String>,
    /// Whether every frame has a caption strip under the board: the move number and the
    /// ply's text (`12. Qh5`, `12... Boom@e4`) and the mover's name ([`replay_captions`]).
    /// On by default; off gives frames exactly as tall as the board images.
    pub captions: bool,
    /// How fast the replay runs ([`ReplayPace`]); [`ReplayPace::Normal`] by default.
    pub pace: ReplayPace,
}

/// How fast a replay runs.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default)]
pub enum ReplayPace {
    /// Every delay as [`ReplayOptions`] gives it: a long game takes over a minute
    /// (150 plies of 0.8 s).
    #[default]
    Normal,
    /// [`ReplayPace::Capped`] at [`FAST_REPLAY_TOTAL_CS`] (30 s).
    Fast,
    /// The whole loop lasts at most `total_cs` centiseconds where the game allows it:
    /// quiet plies (nothing removed) are shortened first, down to
    /// [`MIN_QUIET_PLY_CS`]; then the start and final holds, down to 0.8 s and 3 s; then
    /// the plies that removed pieces and their blast frames, in proportion, down to
    /// [`MIN_EVENT_PLY_CS`] and [`MIN_BLAST_CS`], so explosions stay readable. A game too
    /// long for the cap at those minimums takes longer. A game that fits is unchanged.
    Capped {
        /// The cap on the sum of all frame delays, in centiseconds.
        total_cs: u32,
    },
}

/// The cap of [`ReplayPace::Fast`]: 30 s, in centiseconds.
pub const FAST_REPLAY_TOTAL_CS: u32 = 3000;
/// The shortest hold of a quiet ply under a capped pace, in centiseconds.
pub const MIN_QUIET_PLY_CS: u16 = 6;
/// The shortest hold of a ply that removed pieces under a capped pace, in centiseconds.
pub const MIN_EVENT_PLY_CS: u16 = 30;
/// The shortest blast frame under a capped pace, in centiseconds.
pub const MIN_BLAST_CS: u16 = 6;
/// Names in captions are cut to this many characters (with `…`).
pub const MAX_NAME_CHARS: usize = 24;

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
            white_name: None,
            black_name: None,
            captions: true,
            pace: ReplayPace::Normal,
        }
    }
}

/// The caption of one replay frame ([`replay_captions`]).
#[derive(Clone, Eq, PartialEq, Hash, Debug)]
pub struct Caption {
    /// The move number and the ply's text with its check or win mark (`12. Qh5`,
    /// `12... Boom@e4`), or `Start` for the start position. Drawn on the left.
    pub text: String,
    /// The mover's name, or both names (`Alice vs Bob`) on the start frame. Drawn on the
    /// right, after a disc of the mover's colour.
    pub name: String,
    /// The side that made the ply; `None` for the start frame (no disc).
    pub mover: Option<Color>,
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

/// Whether ply `ply` (1-based) of `game` removed anything (a capture, an explosion,
/// a jump, a push off the board): such plies keep a longer hold under a capped pace.
fn eventful(game: &AnyGame, ply: usize) -> bool {
    ply.checked_sub(1)
        .and_then(|i| game.plies().get(i))
        .is_some_and(|p| !p.removed.is_empty())
}

/// The delay of every frame of `game`'s replay, in centiseconds, in [`replay_plan`]
/// order, as [`render_replay_gif`] writes them (a frame drawn in several bands shows the
/// same total). With [`ReplayPace::Normal`] they are [`ReplayOptions`]' delays; with a
/// capped pace they are shortened as [`ReplayPace::Capped`] describes.
pub fn replay_delays(game: &AnyGame, options: &ReplayOptions) -> Vec<u16> {
    let plan = replay_plan(game);
    let plies = game.ply_count();
    // Which hold each frame is: start, final, blast, eventful ply, quiet ply.
    #[derive(Copy, Clone, PartialEq)]
    enum Hold {
        Start,
        Final,
        Blast,
        Event,
        Quiet,
    }
    let holds: Vec<Hold> = plan
        .iter()
        .map(|f| match *f {
            ReplayFrame::Start if plies == 0 => Hold::Final,
            ReplayFrame::Start => Hold::Start,
            ReplayFrame::Blast { .. } => Hold::Blast,
            ReplayFrame::Ply { ply } if ply == plies => Hold::Final,
            ReplayFrame::Ply { ply } if eventful(game, ply) => Hold::Event,
            ReplayFrame::Ply { .. } => Hold::Quiet,
        })
        .collect();
    let count = |h: Hold| holds.iter().filter(|&&x| x == h).count() as u64;
    let mut start = u64::from(options.start_delay_cs);
    let mut fin = u64::from(options.final_delay_cs);
    let mut blast = u64::from(options.blast_delay_cs);
    let mut event = u64::from(options.ply_delay_cs);
    let mut quiet = u64::from(options.ply_delay_cs);
    let cap = match options.pace {
        ReplayPace::Normal => None,
        ReplayPace::Fast => Some(u64::from(FAST_REPLAY_TOTAL_CS)),
        ReplayPace::Capped { total_cs } => Some(u64::from(total_cs)),
    };
    if let Some(cap) = cap {
        let (ns, nf, nb, ne, nq) = (
            count(Hold::Start),
            count(Hold::Final),
            count(Hold::Blast),
            count(Hold::Event),
            count(Hold::Quiet),
        );
        let fixed = |start: u64, fin: u64, blast: u64, event: u64| {
            ns * start + nf * fin + nb * blast + ne * event
        };
        let fit_quiet = |rest: u64, quiet: u64| {
            (rest / nq.max(1)).clamp(u64::from(MIN_QUIET_PLY_CS).min(quiet), quiet)
        };
        let total = |start, fin, blast, event, quiet| fixed(start, fin, blast, event) + nq * quiet;
        if total(start, fin, blast, event, quiet) > cap {
            // Quiet plies first.
            quiet = fit_quiet(cap.saturating_sub(fixed(start, fin, blast, event)), quiet);
        }
        if total(start, fin, blast, event, quiet) > cap {
            // Then the start and final holds.
            start = start.min(80);
            fin = fin.min(300);
            quiet = fit_quiet(cap.saturating_sub(fixed(start, fin, blast, event)), quiet);
        }
        if total(start, fin, blast, event, quiet) > cap {
            // Then the plies that removed pieces and their blasts, in proportion.
            let rest = cap.saturating_sub(ns * start + nf * fin + nq * quiet);
            let now = nb * blast + ne * event;
            if now > 0 {
                let scale = |v: u64, min: u16| (v * rest / now).clamp(u64::from(min).min(v), v);
                blast = scale(blast, MIN_BLAST_CS);
                event = scale(event, MIN_EVENT_PLY_CS);
            }
        }
    }
    let cs = |v: u64| u16::try_from(v).unwrap_or(u16::MAX);
    holds
        .iter()
        .map(|h| match h {
            Hold::Start => cs(start),
            Hold::Final => cs(fin),
            Hold::Blast => cs(blast),
            Hold::Event => cs(event),
            Hold::Quiet => cs(quiet),
        })
        .collect()
}

/// The name for `color` in captions: the given one (trimmed, cut to
/// [`MAX_NAME_CHARS`] characters with `…`), or "White" / "Black".
fn name_of(options: &ReplayOptions, color: Color) -> String {
    let given = match color {
        Color::White => options.white_name.as_deref(),
        Color::Black => options.black_name.as_deref(),
    }
    .map(str::trim)
    .filter(|n| !n.is_empty());
    match given {
        Some(n) if n.chars().count() > MAX_NAME_CHARS => {
            let mut cut: String = n.chars().take(MAX_NAME_CHARS - 1).collect();
            cut.push('\u{2026}');
            cut
        }
        Some(n) => n.to_string(),
        None => match color {
            Color::White => "White".to_string(),
            Color::Black => "Black".to_string(),
        },
    }
}

/// The caption of every frame of `game`'s replay, in [`replay_plan`] order: `Start` and
/// both names for the start frame; for ply frames and their blast frames the move
/// number of the position the ply was played from, `.` after it for White and `...` for
/// Black, the ply's text with its check or win mark ([`kaboom_rules::PlyRecord`]'s
/// `display`, the same for every viewer), and the mover's name.
pub fn replay_captions(game: &AnyGame, options: &ReplayOptions) -> Vec<Caption> {
    let mut cache: Vec<Option<Caption>> = vec![None; game.ply_count() + 1];
    replay_plan(game)
        .iter()
        .map(|f| {
            let ply = match *f {
                ReplayFrame::Start => 0,
                ReplayFrame::Blast { ply, .. } | ReplayFrame::Ply { ply } => ply,
            };
            if let Some(Some(c)) = cache.get(ply) {
                return c.clone();
            }
            let c = caption_for(game, options, ply);
            if let Some(slot) = cache.get_mut(ply) {
                *slot = Some(c.clone());
            }
            c
        })
        .collect()
}

/// The caption of ply `ply` (1-based; 0 for the start).
fn caption_for(game: &AnyGame, options: &ReplayOptions, ply: usize) -> Caption {
    let record = ply.checked_sub(1).and_then(|i| game.plies().get(i));
    let Some(record) = record else {
        return Caption {
            text: "Start".to_string(),
            name: format!(
                "{} vs {}",
                name_of(options, Color::White),
                name_of(options, Color::Black)
            ),
            mover: None,
        };
    };
    let number = game
        .board_view_after(ply - 1, Viewer::Spectator)
        .map_or(1 + (ply as u32 - 1) / 2, |b| b.fullmoves);
    let dots = match record.mover {
        Color::White => ".",
        Color::Black => "...",
    };
    Caption {
        text: format!("{number}{dots} {}", record.display),
        name: name_of(options, record.mover),
        mover: Some(record.mover),
    }
}

/// Height in pixels of the caption strip under the board in a replay of `variant`
/// drawn with `options` (0 when [`ReplayOptions::captions`] is off): 76 units of a
/// 100-unit square, 42 px at the default 480 px width of an 8x8 board.
pub fn caption_height(variant: Variant, options: &ReplayOptions) -> u32 {
    if !options.captions {
        return 0;
    }
    let lay = crate::draw::Layout::new(variant.geometry(), options.orientation, options.size);
    caption_height_for(&lay)
}

fn caption_height_for(lay: &crate::draw::Layout) -> u32 {
    (76.0 * lay.k).round().max(12.0) as u32
}

/// The caption strip as an SVG document, `lay.width` x `height` pixels.
fn caption_svg(caption: &Caption, lay: &crate::draw::Layout, height: u32, theme: Theme) -> String {
    caption_part_svg(caption, lay, height, theme, true, true)
}

/// Where a caption's parts go: the column from which the right part (the name and the
/// disc) may draw, every pixel of the left part (the move) lying before it, and the
/// name's text size (it shrinks to the room the move's text leaves), in pixels.
fn caption_split(caption: &Caption, lay: &crate::draw::Layout) -> (usize, f32) {
    let k = lay.k;
    let size = 38.0 * k;
    let left_w = crate::text::width(&caption.text, size);
    let right_x = lay.width as f32 - 20.0 * k;
    let disc_w = if caption.mover.is_some() {
        2.0 * 11.0 * k + 12.0 * k
    } else {
        0.0
    };
    let room = (right_x - lay.left - left_w - 28.0 * k - disc_w).max(0.0);
    let name_w = crate::text::width(&caption.name, size);
    let name_size = if name_w > room && name_w > 0.0 {
        size * room / name_w
    } else {
        size
    };
    let split = (lay.left + left_w + 14.0 * k).ceil().max(0.0) as usize;
    (split.min(lay.width as usize), name_size)
}

/// The caption strip as an SVG document, `lay.width` x `height` pixels, with the move
/// (`left`) and the name and disc (`right`), or only one of them.
fn caption_part_svg(
    caption: &Caption,
    lay: &crate::draw::Layout,
    height: u32,
    theme: Theme,
    left: bool,
    right: bool,
) -> String {
    use crate::text::{self, Anchor};
    use std::fmt::Write as _;
    let pal = crate::draw::palette(theme);
    let k = lay.k;
    let w = lay.width as f32;
    let h = height as f32;
    let size = 38.0 * k;
    let rule = (2.0 * k).round().max(1.0);
    let base = rule + (h - rule) / 2.0 + text::cap_height(size) / 2.0;
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{height}" viewBox="0 0 {} {height}"><rect width="{}" height="{height}" fill="{}"/>"#,
        lay.width, lay.width, lay.width, pal.frame
    );
    // A rule between the board's file letters and the caption.
    let _ = write!(
        s,
        r#"<rect x="{}" width="{}" height="{rule}" fill="{}"/>"#,
        lay.left,
        w - lay.left - 16.0 * k,
        pal.header_dim
    );
    let left_x = lay.left;
    let right_x = w - 20.0 * k;
    let disc_r = 11.0 * k;
    // The name shrinks to the room the move's text leaves (never the move's text).
    let (_, name_size) = caption_split(caption, lay);
    if left {
        let d = text::path_data(&caption.text, left_x, base, size, Anchor::Start);
        let _ = write!(s, r#"<path d="{d}" fill="{}"/>"#, pal.header_text);
    }
    if right && name_size >= 6.0 * k {
        let d = text::path_data(&caption.name, right_x, base, name_size, Anchor::End);
        let _ = write!(s, r#"<path d="{d}" fill="{}"/>"#, pal.header_dim);
        if let Some(mover) = caption.mover {
            let shown_w = text::width(&caption.name, name_size);
            let cx = right_x - shown_w - 12.0 * k - disc_r;
            let fill = match mover {
                Color::White => "#ffffff",
                Color::Black => "#000000",
            };
            let mut num = String::new();
            crate::text::num(&mut num, cx);
            let _ = write!(
                s,
                r#"<circle cx="{num}" cy="{}" r="{}" fill="{fill}" stroke="{}" stroke-width="{}"/>"#,
                rule + (h - rule) / 2.0,
                disc_r,
                pal.header_dim,
                (2.0 * k).max(1.0)
            );
        }
    }
    s.push_str("</svg>");
    s
}

/// The caption strip alone, as [`render_replay_gif`] draws it under the board of a
/// `variant` replay with `options` (the same width, theme and text size), as PNG bytes
/// (indexed colour): [`ReplayOptions::size`] pixels wide (clamped to 64..=4096) and
/// [`caption_height`] high (at least 12 px, also when captions are off).
///
/// # Errors
/// [`RenderError`] as for [`crate::svg_to_png`] (an internal failure only).
pub fn render_caption_png(
    variant: Variant,
    caption: &Caption,
    options: &ReplayOptions,
) -> Result<Vec<u8>, RenderError> {
    let lay = crate::draw::Layout::new(variant.geometry(), options.orientation, options.size);
    let height = caption_height_for(&lay);
    crate::svg_to_png(&caption_svg(caption, &lay, height, options.theme))
}

/// The whole game as an animated GIF ([`replay_plan`]'s frames), every frame from
/// `options.orientation` as `options.viewer` sees the game. The first frame equals
/// [`crate::render_png`] of the start position and the last one the board image of the
/// final position (`game.board_view(viewer)` with the last ply highlighted), up to the
/// fixed palette's colours at anti-aliased edges; every frame between shows its
/// position's board image below the header. With captions on, those frames' header is
/// one fixed strip: "White vs Black" (the names of [`ReplayOptions`]) and the variant's
/// title, the caption telling the move (without captions each frame has its position's
/// own header). Under the board, each frame has a
/// caption strip ([`ReplayOptions::captions`], [`replay_captions`],
/// [`render_caption_png`]), so the GIF is [`caption_height`] pixels taller than the
/// board images. Frame delays are [`replay_delays`] ([`ReplayOptions::pace`]).
/// Prerendered squares are kept between calls (per board shape, orientation, theme
/// and width), so the first replay of a kind takes longer.
///
/// # Errors
/// [`RenderError`] when a frame cannot be drawn (see [`crate::render_png`]) or GIF
/// encoding fails.
pub fn render_replay_gif(game: &AnyGame, options: &ReplayOptions) -> Result<Vec<u8>, RenderError> {
    let plan = replay_plan(game);
    let delays = replay_delays(game, options);
    let captions = if options.captions {
        replay_captions(game, options)
    } else {
        Vec::new()
    };
    let render = RenderOptions {
        size: options.size,
        orientation: options.orientation,
        theme: options.theme,
        preview: Vec::new(),
        arrows: Vec::new(),
    };
    let viewer = options.viewer;
    let plies = game.ply_count();
    let variant = game.variant();
    let geo = variant.geometry();
    // Every position once, with its highlight.
    let positions: Vec<Option<(BoardView, Option<LastAction>)>> = (0..=plies)
        .map(|ply| {
            let board = if ply == plies {
                Some(game.board_view(viewer))
            } else {
                game.board_view_after(ply, viewer)
            };
            board.map(|b| (b, LastAction::from_game(game, ply)))
        })
        .collect();
    let palette = palette_for(geo.files, geo.goals, options.theme, options.size)?;
    let mut lookup = palette.lookup();
    let layout = crate::draw::Layout::new(geo, options.orientation, options.size);
    let strip = if options.captions {
        caption_height_for(&layout)
    } else {
        0
    };
    let (w, h) = (layout.width, layout.height + strip);
    let (wu, board_h) = (w as usize, layout.height as usize);
    let header_h = (layout.header as usize).min(board_h);
    let side = layout.sq as usize;
    // The squares of the board and where they are drawn.
    let squares: Vec<(Square, usize, usize)> = geo
        .squares()
        .map(|sq| {
            let (x, y) = layout.origin(sq);
            (sq, x as usize, y as usize)
        })
        .collect();
    let keys_of = |board: &BoardView, last: Option<&LastAction>| -> Vec<crate::tiles::TileKey> {
        squares
            .iter()
            .map(|&(sq, _, _)| crate::tiles::key_of(board, last, sq))
            .collect()
    };
    // The empty board, and every square the replay shows, prerendered.
    let start_board = positions
        .iter()
        .flatten()
        .next()
        .map(|(b, _)| b.clone())
        .ok_or_else(|| RenderError::Gif("the game has no position".to_string()))?;
    let base = crate::sprites::board_layer(
        (
            geo.files,
            geo.goals,
            options.orientation as u8,
            options.theme as u8,
            w,
        ),
        w,
        layout.height,
        || {
            let scene = crate::draw::scene(&start_board, None, &render);
            scene.layer(&scene.board)
        },
    )?;
    let mut all_keys = BTreeSet::new();
    for (board, last) in positions.iter().flatten() {
        all_keys.extend(keys_of(board, last.as_ref()));
    }
    let (base_idx, tiles) = crate::tiles::tiles(variant, &render, &base, &all_keys, &mut lookup)?;

    // The header between the first and the last frame: both names and the variant
    // (the caption strip tells the move); without captions, each position's own.
    let fixed_header = options.captions.then(|| {
        crate::draw::header_strip_svg(
            &layout,
            options.theme,
            &format!(
                "{} vs {}",
                name_of(options, Color::White),
                name_of(options, Color::Black)
            ),
            variant.title(),
        )
    });

    let mut out = Vec::new();
    let mut indices = Vec::new();
    let mut lzw = crate::lzw::Lzw::new();
    let mut codes = Vec::new();
    let frame_len = wu * h as usize;
    let mut previous: Vec<u8> = Vec::new();
    let mut current: Vec<u8> = vec![0; frame_len];
    current[..base_idx.len().min(frame_len)]
        .copy_from_slice(&base_idx[..base_idx.len().min(frame_len)]);
    // What each square of `current` shows (`None`: unknown, repaint it).
    let mut painted: Vec<Option<crate::tiles::TileKey>> = vec![None; squares.len()];
    // The rows of `current` written since the last frame (the only ones to compare).
    let mut dirty = vec![false; h as usize];
    let touch = |dirty: &mut Vec<bool>, y: usize, rows: usize| {
        let n = dirty.len();
        dirty[y.min(n)..(y + rows).min(n)].fill(true);
    };
    // A rectangle of `current` drawn over the tiles, to restore from the empty board.
    let mut restore: Option<Rect> = None;
    let mut header_shown: Option<String> = None;
    let mut caption_shown: Option<Caption> = None;
    // Captions' right parts in palette indices, by name, mover and name size.
    let mut right_parts: BTreeMap<(String, Option<Color>, u32), Vec<u8>> = BTreeMap::new();
    let mut board_canvas: Option<Pixmap> = None;
    let mut encoder = gif::Encoder::new(&mut out, to_u16(w)?, to_u16(h)?, &palette.rgb)
        .map_err(|e| RenderError::Gif(e.to_string()))?;
    encoder
        .set_repeat(gif::Repeat::Infinite)
        .map_err(|e| RenderError::Gif(e.to_string()))?;
    let final_frame = plan.len() - 1;
    for (n, frame) in plan.iter().enumerate() {
        let (ply, opacity) = match *frame {
            ReplayFrame::Start => (0, crate::draw::GHOST_OPACITY),
            ReplayFrame::Blast { ply, opacity } => (ply, opacity),
            ReplayFrame::Ply { ply } => (ply, crate::draw::GHOST_OPACITY),
        };
        let Some(Some((board, last))) = positions.get(ply) else {
            continue;
        };
        let last = last.as_ref();
        if let Some(r) = restore.take() {
            copy_rect(&base_idx, &mut current, wu, r);
            touch(&mut dirty, r.y, r.h);
            for (i, &(_, x, y)) in squares.iter().enumerate() {
                if r.meets(x, y, side) {
                    painted[i] = None;
                }
            }
        }
        let keys = keys_of(board, last);
        // The marks drawn over the squares, and where.
        let overlay =
            last.and_then(|l| overlay_rect(l, &layout, w, header_h, board_h).map(|r| (l, r)));
        let whole = needs_rgba_board(
            board,
            last,
            overlay.map(|(_, r)| r),
            side,
            squares.iter().zip(&keys).map(|(&(_, x, y), k)| (x, y, k)),
        );
        if whole {
            // The board image itself, below the header.
            let pixmap = crate::render_onto(&mut board_canvas, board, last, &render, opacity)?;
            map_into(
                &mut lookup,
                pixmap.data(),
                wu,
                &mut current,
                wu,
                Rect::new(0, header_h, wu, board_h - header_h),
                (0, 0),
            );
            touch(&mut dirty, header_h, board_h - header_h);
            painted.iter_mut().for_each(|p| *p = None);
            restore = Some(Rect::new(0, header_h, wu, board_h - header_h));
        } else {
            for (i, (&(_, x, y), key)) in squares.iter().zip(&keys).enumerate() {
                if painted[i].as_ref() == Some(key) {
                    continue;
                }
                if let Some(tile) = tiles.get(key) {
                    paste(&tile.idx, side, &mut current, wu, x, y);
                    touch(&mut dirty, y, side);
                }
                painted[i] = Some(key.clone());
            }
            if let Some((l, r)) = overlay
                && let Some(svg) = crate::draw::removals_svg(board, l, &render, opacity)
            {
                let mut px = Pixmap::new(r.w as u32, r.h as u32).ok_or(RenderError::Allocate {
                    width: r.w as u32,
                    height: r.h as u32,
                })?;
                // The empty board, then the squares, then the marks.
                let data = px.data_mut();
                let mut tile_rgba = Vec::new();
                for row in 0..r.h {
                    let src = ((r.y + row) * wu + r.x) * 4;
                    data[row * r.w * 4..(row + 1) * r.w * 4]
                        .copy_from_slice(&base.data()[src..src + r.w * 4]);
                }
                for (&(_, x, y), key) in squares.iter().zip(&keys) {
                    if r.meets(x, y, side)
                        && let Some(tile) = tiles.get(key)
                    {
                        tile.rgba_into(&lookup, &mut tile_rgba);
                        paste_clipped(&tile_rgba, side, data, r, x, y);
                    }
                }
                rasterize_at(&svg, &mut px.as_mut(), r.x, r.y)?;
                map_into(&mut lookup, px.data(), r.w, &mut current, wu, r, (r.x, r.y));
                touch(&mut dirty, r.y, r.h);
                for (i, &(_, x, y)) in squares.iter().enumerate() {
                    if r.meets(x, y, side) {
                        painted[i] = None;
                    }
                }
                restore = Some(r);
            }
        }
        // The first and the last frame are the board images: their own headers.
        let header = match &fixed_header {
            Some(svg) if n != 0 && n != final_frame => svg.clone(),
            _ => crate::draw::header_svg(board, &layout, options.theme),
        };
        if header_shown.as_ref() != Some(&header) {
            let mut px = Pixmap::new(w, header_h as u32).ok_or(RenderError::Allocate {
                width: w,
                height: header_h as u32,
            })?;
            crate::rasterize_onto(&header, &mut px)?;
            map_into(
                &mut lookup,
                px.data(),
                wu,
                &mut current,
                wu,
                Rect::new(0, 0, wu, header_h),
                (0, 0),
            );
            touch(&mut dirty, 0, header_h);
            header_shown = Some(header);
        }
        if let Some(caption) = captions.get(n)
            && caption_shown.as_ref() != Some(caption)
        {
            // The name and disc part is drawn once per name, mover and size; the move's
            // part for each ply, only as wide as it is.
            let (split, name_size) = caption_split(caption, &layout);
            let rows = (h as usize - board_h).min(strip as usize);
            let key = (caption.name.clone(), caption.mover, name_size.to_bits());
            if !right_parts.contains_key(&key) {
                let mut px = Pixmap::new(w, strip).ok_or(RenderError::Allocate {
                    width: w,
                    height: strip,
                })?;
                crate::rasterize_onto(
                    &caption_part_svg(caption, &layout, strip, options.theme, false, true),
                    &mut px,
                )?;
                let mut idx = vec![0u8; wu * rows];
                map_into(
                    &mut lookup,
                    px.data(),
                    wu,
                    &mut idx,
                    wu,
                    Rect::new(0, 0, wu, rows),
                    (0, 0),
                );
                right_parts.insert(key.clone(), idx);
            }
            if let Some(idx) = right_parts.get(&key) {
                for y in 0..rows {
                    let d = (board_h + y) * wu;
                    current[d + split..d + wu].copy_from_slice(&idx[y * wu + split..(y + 1) * wu]);
                }
            }
            if split > 0 {
                let mut px = Pixmap::new(split as u32, strip).ok_or(RenderError::Allocate {
                    width: split as u32,
                    height: strip,
                })?;
                crate::rasterize_onto(
                    &caption_part_svg(caption, &layout, strip, options.theme, true, false),
                    &mut px,
                )?;
                map_into(
                    &mut lookup,
                    px.data(),
                    split,
                    &mut current,
                    wu,
                    Rect::new(0, board_h, split, rows),
                    (0, board_h),
                );
            }
            touch(&mut dirty, board_h, rows);
            caption_shown = Some(caption.clone());
        }
        let delay = delays.get(n).copied().unwrap_or(options.ply_delay_cs);
        let mut bands = if previous.is_empty() {
            vec![(0, 0, wu, h as usize)]
        } else {
            changed_bands(&previous, &current, wu, h as usize, &dirty)
        };
        dirty.fill(false);
        // Nothing changed: a 1x1 transparent frame keeps the frame and its delay.
        if bands.is_empty() {
            bands = vec![(0, 0, 1, 1)];
        }
        // Every band but the last shows for SUBFRAME_DELAY_CS; when the delay is too
        // short for that, the frame is one rectangle round every change.
        if bands.len() > 1
            && delay < SUBFRAME_DELAY_CS * (bands.len() as u16 - 1) + SUBFRAME_DELAY_CS + 1
        {
            let (x0, y0) = bands.iter().fold((usize::MAX, usize::MAX), |a, b| {
                (a.0.min(b.0), a.1.min(b.1))
            });
            let (x1, y1) = bands
                .iter()
                .fold((0, 0), |a, b| (a.0.max(b.0 + b.2), a.1.max(b.1 + b.3)));
            bands = vec![(x0, y0, x1 - x0, y1 - y0)];
        }
        let count = bands.len();
        for (b, &(x0, y0, rw, rh)) in bands.iter().enumerate() {
            indices.clear();
            for y in y0..y0 + rh {
                let row = y * wu + x0..y * wu + x0 + rw;
                let cur = &current[row.clone()];
                if previous.is_empty() {
                    indices.extend_from_slice(cur);
                } else {
                    let old = &previous[row];
                    indices.extend(
                        cur.iter()
                            .zip(old)
                            .map(|(&c, &o)| if c == o { TRANSPARENT } else { c }),
                    );
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
            codes.clear();
            lzw.encode(&indices, &mut codes);
            let gif_frame = gif::Frame {
                left: to_u16(x0 as u32)?,
                top: to_u16(y0 as u32)?,
                width: to_u16(rw as u32)?,
                height: to_u16(rh as u32)?,
                delay: band_delay,
                dispose: gif::DisposalMethod::Keep,
                transparent: (n > 0).then_some(TRANSPARENT),
                buffer: Cow::Borrowed(&codes),
                ..gif::Frame::default()
            };
            encoder
                .write_lzw_pre_encoded_frame(&gif_frame)
                .map_err(|e| RenderError::Gif(e.to_string()))?;
        }
        // The frame just drawn becomes the one to compare with.
        if previous.is_empty() {
            previous = current.clone();
        } else {
            for &(x0, y0, rw, rh) in &bands {
                copy_rect(&current, &mut previous, wu, Rect::new(x0, y0, rw, rh));
            }
        }
    }
    // Writes the trailer.
    encoder
        .into_inner()
        .map_err(|e| RenderError::Gif(e.to_string()))?;
    Ok(out)
}

/// A rectangle of pixels: left, top, width, height.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub(crate) struct Rect {
    pub(crate) x: usize,
    pub(crate) y: usize,
    pub(crate) w: usize,
    pub(crate) h: usize,
}

impl Rect {
    pub(crate) fn new(x: usize, y: usize, w: usize, h: usize) -> Rect {
        Rect { x, y, w, h }
    }

    /// Whether the square of `side` pixels at (`x`, `y`) overlaps it.
    pub(crate) fn meets(self, x: usize, y: usize, side: usize) -> bool {
        x < self.x + self.w && self.x < x + side && y < self.y + self.h && self.y < y + side
    }
}

/// Where the last action's removal marks, jump path and pushes are drawn: the squares
/// they mark, and one square round them when pieces were pushed (the pushed-off marker
/// sits on a square's edge), within the picture below the header. `None` when there
/// are none.
pub(crate) fn overlay_rect(
    last: &LastAction,
    lay: &crate::draw::Layout,
    width: u32,
    top: usize,
    bottom: usize,
) -> Option<Rect> {
    let geo = lay.geometry();
    let mut marked: Vec<Square> = last.removals.iter().map(|r| r.square).collect();
    marked.extend(&last.removed);
    if !last.jump_path.is_empty() {
        marked.extend(last.squares.from);
        marked.extend(&last.jump_path);
    }
    let pushed =
        !last.pushes.is_empty() || last.removals.iter().any(|r| r.cause == Cause::PushedOff);
    for p in &last.pushes {
        marked.push(p.from);
        marked.extend(p.to);
    }
    let side = lay.sq as usize;
    let mut r: Option<(usize, usize, usize, usize)> = None;
    for sq in marked.into_iter().filter(|&s| geo.contains(s)) {
        let (x, y) = lay.origin(sq);
        let (x, y) = (x as usize, y as usize);
        r = Some(match r {
            None => (x, y, x + side, y + side),
            Some((a, b, c, d)) => (a.min(x), b.min(y), c.max(x + side), d.max(y + side)),
        });
    }
    let (mut x0, mut y0, mut x1, mut y1) = r?;
    if pushed {
        x0 = x0.saturating_sub(side);
        y0 = y0.saturating_sub(side);
        x1 += side;
        y1 += side;
    }
    let (x1, y0, y1) = (x1.min(width as usize), y0.max(top), y1.min(bottom));
    (x1 > x0 && y1 > y0).then(|| Rect::new(x0, y0, x1 - x0, y1 - y0))
}

/// Whether a picture's board below the header is drawn in RGBA (and mapped to the
/// palette) rather than from prerendered squares: for a Bombalot detonation or Bomberman
/// Chess's blast waves, marks the squares do not hold, and when the removal marks'
/// rectangle `overlay` meets a square with a badge (badges are drawn above the marks).
/// `squares`: each square's top-left pixel and contents; `side`: a square's side in pixels.
pub(crate) fn needs_rgba_board<'k>(
    board: &BoardView,
    last: Option<&LastAction>,
    overlay: Option<Rect>,
    side: usize,
    mut squares: impl Iterator<Item = (usize, usize, &'k crate::tiles::TileKey)>,
) -> bool {
    let geo = board.variant.geometry();
    last.is_some_and(|l| {
        l.squares.detonation.is_some_and(|s| geo.contains(s))
            || !crate::draw::bomberman_waves(board, l).is_empty()
    }) || overlay.is_some_and(|r| squares.any(|(x, y, k)| r.meets(x, y, side) && k.has_badges()))
}

/// Copies rectangle `r` of `src` into `dst`, both `stride` pixels wide, one byte each.
fn copy_rect(src: &[u8], dst: &mut [u8], stride: usize, r: Rect) {
    for y in r.y..r.y + r.h {
        let a = y * stride + r.x;
        dst[a..a + r.w].copy_from_slice(&src[a..a + r.w]);
    }
}

/// Pastes a `side` x `side` tile of palette indices at (`x`, `y`) of `dst`.
pub(crate) fn paste(tile: &[u8], side: usize, dst: &mut [u8], stride: usize, x: usize, y: usize) {
    for (row, line) in tile.chunks_exact(side).enumerate() {
        let a = (y + row) * stride + x;
        if let Some(d) = dst.get_mut(a..a + side) {
            d.copy_from_slice(line);
        }
    }
}

/// Pastes a `side` x `side` RGBA tile whose top-left is at (`x`, `y`) of the picture into
/// `dst`, the RGBA pixels of rectangle `r` of the picture, clipped to it.
pub(crate) fn paste_clipped(tile: &[u8], side: usize, dst: &mut [u8], r: Rect, x: usize, y: usize) {
    let (x0, x1) = (x.max(r.x), (x + side).min(r.x + r.w));
    let (y0, y1) = (y.max(r.y), (y + side).min(r.y + r.h));
    if x1 <= x0 || y1 <= y0 {
        return;
    }
    for py in y0..y1 {
        let s = ((py - y) * side + (x0 - x)) * 4;
        let d = ((py - r.y) * r.w + (x0 - r.x)) * 4;
        let n = (x1 - x0) * 4;
        dst[d..d + n].copy_from_slice(&tile[s..s + n]);
    }
}

/// Maps RGBA pixels to palette indices: `src` (`src_w` pixels wide, its top-left at
/// `origin` of the picture) into rectangle `r` of `dst` (`stride` pixels wide).
pub(crate) fn map_into(
    lookup: &mut Lookup<'_>,
    src: &[u8],
    src_w: usize,
    dst: &mut [u8],
    stride: usize,
    r: Rect,
    origin: (usize, usize),
) {
    // Runs of one colour (most of a picture) are looked up once.
    let mut last = (u32::MAX, 0u8);
    for y in r.y..r.y + r.h {
        let s = ((y - origin.1) * src_w + (r.x - origin.0)) * 4;
        let d = y * stride + r.x;
        for (o, px) in dst[d..d + r.w]
            .iter_mut()
            .zip(src[s..s + r.w * 4].chunks_exact(4))
        {
            let v = u32::from_ne_bytes([px[0], px[1], px[2], px[3]]);
            if v != last.0 {
                last = (v, lookup.index(px));
            }
            *o = last.1;
        }
    }
}

/// Draws the SVG document `svg` (of the whole picture) onto `pixmap`, which holds the
/// picture's pixels from (`x`, `y`).
pub(crate) fn rasterize_at(
    svg: &str,
    pixmap: &mut resvg::tiny_skia::PixmapMut<'_>,
    x: usize,
    y: usize,
) -> Result<(), RenderError> {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default())
        .map_err(|e| RenderError::Svg(e.to_string()))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_translate(-(x as f32), -(y as f32)),
        pixmap,
    );
    Ok(())
}

/// The delay of the leading parts of a frame that changed in separate bands (the header
/// and the board): GIF frames of their own, shown for 20 ms each (browsers show delays
/// of 0 or 1 centisecond as 100 ms, so 2 is the shortest honoured), the last part
/// carries the rest of the frame's delay. A decoder joins the parts by this delay.
pub const SUBFRAME_DELAY_CS: u16 = 2;

/// Rows of unchanged pixels that split a frame's changed area into separate bands.
const BAND_GAP: usize = 6;

/// The changed areas between two buffers of palette indices, `w` x `h` pixels, as rectangles
/// `(x, y, width, height)` top to bottom: runs of changed rows (joined across gaps of
/// fewer than [`BAND_GAP`] unchanged rows), each cut to its changed columns. Empty when
/// the buffers are equal. Encoding only these keeps the LZW input small (the header
/// strip and the board usually change far apart). Only rows marked in `dirty` (one
/// flag a row) are compared; the others are taken as equal.
fn changed_bands(
    a: &[u8],
    b: &[u8],
    w: usize,
    h: usize,
    dirty: &[bool],
) -> Vec<(usize, usize, usize, usize)> {
    let row = w;
    let same = |y: usize| !dirty[y] || a[y * row..(y + 1) * row] == b[y * row..(y + 1) * row];
    let mut bands = Vec::new();
    let mut y = 0;
    while y < h {
        if same(y) {
            y += 1;
            continue;
        }
        let top = y;
        let mut bottom = y;
        let mut gap = 0;
        y += 1;
        while y < h && gap < BAND_GAP {
            if same(y) {
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
/// between two buffers of palette indices, `w` x `h` pixels, or `None` when they are equal.
fn changed_rect(a: &[u8], b: &[u8], w: usize, h: usize) -> Option<(usize, usize, usize, usize)> {
    let row = w;
    let differs = |y: usize| a[y * row..(y + 1) * row] != b[y * row..(y + 1) * row];
    let top = (0..h).find(|&y| differs(y))?;
    let bottom = (top..h).rev().find(|&y| differs(y)).unwrap_or(top);
    // Columns [left, end) hold every difference found so far: each row is searched
    // only outside them.
    let (mut left, mut end) = (w, 0);
    for y in top..=bottom {
        let (ra, rb) = (&a[y * row..(y + 1) * row], &b[y * row..(y + 1) * row]);
        if let Some(f) = first_diff(&ra[..left], &rb[..left]) {
            left = f;
        }
        let from = end.max(left);
        if let Some(l) = last_diff(&ra[from..], &rb[from..]) {
            end = from + l + 1;
        }
    }
    (end > left).then(|| (left, top, end - left, bottom + 1 - top))
}

/// The first position where `a` and `b` (of one length) differ, compared 8 bytes at a time.
fn first_diff(a: &[u8], b: &[u8]) -> Option<usize> {
    let whole = a.len() / 8 * 8;
    let skip = a[..whole]
        .chunks_exact(8)
        .zip(b[..whole].chunks_exact(8))
        .position(|(p, q)| p != q)
        .map_or(whole, |i| i * 8);
    (skip..a.len()).find(|&i| a[i] != b[i])
}

/// The last position where `a` and `b` (of one length) differ, compared 8 bytes at a time.
fn last_diff(a: &[u8], b: &[u8]) -> Option<usize> {
    let n = a.len();
    let tail = n % 8;
    if let Some(i) = (n - tail..n).rev().find(|&i| a[i] != b[i]) {
        return Some(i);
    }
    let chunk = a[..n - tail]
        .chunks_exact(8)
        .zip(b[..n - tail].chunks_exact(8))
        .rposition(|(p, q)| p != q)?;
    (chunk * 8..chunk * 8 + 8).rev().find(|&i| a[i] != b[i])
}

/// A fixed palette: 255 colours (index 255 is transparent) and the RGB table of 768 bytes.
pub(crate) struct Palette {
    /// 256 RGB triples (the last is the transparent entry's, black).
    rgb: Vec<u8>,
    /// The 255 colours as 24-bit keys.
    keys: Vec<u32>,
}

impl Palette {
    fn lookup(&self) -> Lookup<'_> {
        self.lookup_with(None)
    }

    /// A lookup into this palette that starts from `kept`, the colours of an earlier
    /// lookup into it ([`Lookup::into_map`]), or from the palette's own colours.
    pub(crate) fn lookup_with(&self, kept: Option<ColourMap>) -> Lookup<'_> {
        let map = kept.unwrap_or_else(|| {
            let mut map = ColourMap::new();
            for (i, &k) in self.keys.iter().enumerate() {
                *map.entry(k) = i as u32;
            }
            map
        });
        Lookup {
            palette: self,
            map,
            last: None,
        }
    }

    /// The RGB triples of the entries in use (the transparent entry left out), for a
    /// PNG's palette.
    pub(crate) fn entries(&self) -> &[u8] {
        &self.rgb[..self.keys.len() * 3]
    }
}

/// Pixel to palette index, with a cache of every colour seen (nearest palette entry).
pub(crate) struct Lookup<'a> {
    palette: &'a Palette,
    map: ColourMap,
    last: Option<([u8; 4], u8)>,
}

impl Lookup<'_> {
    /// The RGB colour of palette entry `i` (black for the transparent entry).
    pub(crate) fn colour(&self, i: u8) -> [u8; 3] {
        let at = usize::from(i) * 3;
        [
            self.palette.rgb[at],
            self.palette.rgb[at + 1],
            self.palette.rgb[at + 2],
        ]
    }

    /// The colours this lookup has seen, with their palette entries, to start a later
    /// lookup into the same palette from ([`Palette::lookup_with`]).
    pub(crate) fn into_map(self) -> ColourMap {
        self.map
    }

    pub(crate) fn index(&mut self, px: &[u8]) -> u8 {
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

/// The index of the palette colour nearest to `key` ([`distance`]).
fn nearest(keys: &[u32], key: u32) -> u8 {
    let mut best = (i64::MAX, 0u8);
    for (i, &k) in keys.iter().enumerate() {
        let d = distance(key, k);
        if d < best.0 {
            best = (d, i as u8);
        }
    }
    best.1
}

/// Weighted squared RGB distance between two 24-bit colours.
fn distance(a: u32, b: u32) -> i64 {
    let rgb = |k: u32| [(k >> 16) as i64, (k >> 8 & 0xff) as i64, (k & 0xff) as i64];
    let (c, q) = (rgb(a), rgb(b));
    (c[0] - q[0]).pow(2) * 3 + (c[1] - q[1]).pow(2) * 4 + (c[2] - q[2]).pow(2) * 2
}

/// The colours [`palette_for`] picks its far colours from: the most frequent after the
/// common ones.
const FAR_CANDIDATES: usize = 3000;

/// Palette entries chosen for being far from the common colours ([`palette_for`]).
const FAR_COLOURS: usize = 96;

/// Key of a cached palette: files, goals, theme, width.
pub(crate) type PaletteKey = (u8, bool, u8, u32);

/// The fixed palette for a board geometry, theme and width, made once from a sheet of
/// every piece on both square colours, on highlighted squares, and every mark (blast,
/// capture, jump, push, check, frozen, carriers, loose bombs): the 255 most frequent
/// colours of that sheet. Every frame of every replay with that key maps to it.
pub(crate) fn palette_for(
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
            // Runs of one colour are counted at once.
            let mut run = (u32::MAX, 0u32);
            for px in pixmap.data().chunks_exact(4) {
                let k = u32::from(px[0]) << 16 | u32::from(px[1]) << 8 | u32::from(px[2]);
                if k == run.0 {
                    run.1 += 1;
                } else {
                    if run.1 > 0 {
                        *counts.entry(run.0) += run.1;
                    }
                    run = (k, 1);
                }
            }
            if run.1 > 0 {
                *counts.entry(run.0) += run.1;
            }
        }
    }
    let mut by_freq: Vec<(u32, u32)> = counts.iter().collect();
    by_freq.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    // The most frequent colours, then the ones farthest from those (weighted by how
    // often they occur), so that rare marks (a check's red gradient, a blast on a small
    // board) keep colours of their own.
    let common = 255 - FAR_COLOURS;
    let mut keys: Vec<u32> = by_freq.iter().take(common).map(|&(k, _)| k).collect();
    // Among the next most frequent colours only (single stray pixels matter little, and
    // the search stays a few milliseconds).
    let rest = by_freq
        .get(common..by_freq.len().min(common + FAR_CANDIDATES))
        .unwrap_or(&[]);
    let mut far: Vec<i64> = rest
        .iter()
        .map(|&(k, _)| {
            keys.iter()
                .map(|&q| distance(k, q))
                .min()
                .unwrap_or(i64::MAX)
        })
        .collect();
    for _ in 0..FAR_COLOURS {
        let best = far
            .iter()
            .zip(rest)
            .enumerate()
            .filter(|(_, (d, _))| **d > 0)
            .max_by_key(|(i, (d, (_, count)))| (**d * i64::from((*count).min(64)), usize::MAX - i));
        let Some((i, _)) = best else { break };
        let k = rest[i].0;
        keys.push(k);
        for (d, &(q, _)) in far.iter_mut().zip(rest) {
            *d = (*d).min(distance(k, q));
        }
    }
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
                cause: [
                    Cause::Exploded,
                    Cause::Captured,
                    Cause::Jumped,
                    Cause::PushedOff,
                ][i % 4],
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
            // Pushes along a rank and off the board (Bombalot's tank, BA-6, BA-14).
            pushes: board_squares
                .iter()
                .skip(33 + shift)
                .step_by(7)
                .take(3)
                .map(|&sq| kaboom_rules::Push {
                    from: sq,
                    to: sq.offset(1, 0),
                })
                .chain(std::iter::once(kaboom_rules::Push {
                    from: board_squares[board_squares.len() - 1 - shift],
                    to: None,
                }))
                .collect(),
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
            // Nuke's loose bombs, one and several on a square.
            loose_bombs: [(20, 1), (45, 3)]
                .into_iter()
                .filter_map(|(i, count)| {
                    board_squares
                        .get(i + shift)
                        .map(|&square| kaboom_rules::LooseBombs { square, count })
                })
                .collect(),
            turn: if shift == 0 {
                Color::White
            } else {
                Color::Black
            },
            fullmoves: 1,
            status: Status::Ongoing,
            awaiting_designation: Vec::new(),
        };
        // The same with the last action's squares on removed pieces, so that every mark
        // is also seen on a highlighted square.
        for pair in last.removals.chunks_exact(2).take(2) {
            let mut on_removals = last.clone();
            on_removals.squares.from = Some(pair[0].square);
            on_removals.squares.to = Some(pair[1].square);
            sheets.push((board.clone(), on_removals));
        }
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
        let a = vec![0u8; w * h];
        assert_eq!(changed_rect(&a, &a, w, h), None);
        let mut b = a.clone();
        b[w + 1] = 9; // (1, 1)
        b[2 * w + 3] = 9; // (3, 2)
        assert_eq!(changed_rect(&a, &b, w, h), Some((1, 1, 3, 2)));
    }

    #[test]
    fn first_and_last_differences() {
        let a = vec![0u8; 21];
        let mut b = a.clone();
        assert_eq!((first_diff(&a, &b), last_diff(&a, &b)), (None, None));
        for (i, j) in [(0, 0), (3, 17), (8, 15), (16, 20), (20, 20), (7, 8)] {
            b.fill(0);
            b[i] = 1;
            b[j] = 1;
            assert_eq!((first_diff(&a, &b), last_diff(&a, &b)), (Some(i), Some(j)));
        }
    }

    #[test]
    fn changed_bands_split_far_apart_changes() {
        let (w, h) = (4, 20);
        let a = vec![0u8; w * h];
        let all = vec![true; h];
        assert!(changed_bands(&a, &a, w, h, &all).is_empty());
        let mut b = a.clone();
        b[w + 1] = 9; // (1, 1)
        b[3 * w + 2] = 9; // (2, 3): within the gap, same band
        b[15 * w + 3] = 9; // (3, 15): a band of its own
        assert_eq!(
            changed_bands(&a, &b, w, h, &all),
            vec![(1, 1, 2, 3), (3, 15, 1, 1)]
        );
        // Rows not marked dirty are not compared.
        let mut some = all.clone();
        some[15] = false;
        assert_eq!(changed_bands(&a, &b, w, h, &some), vec![(1, 1, 2, 3)]);
    }

    #[test]
    fn nearest_picks_the_closest_colour() {
        let keys = [0x000000, 0xffffff, 0xff0000];
        assert_eq!(nearest(&keys, 0x101010), 0);
        assert_eq!(nearest(&keys, 0xeeeeee), 1);
        assert_eq!(nearest(&keys, 0xd01010), 2);
    }
}
