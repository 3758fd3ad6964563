//! Prerendered squares for replay GIFs and board PNGs: every square a picture shows, as
//! the board image draws it (square colour, last-move highlight, check, the pieces with
//! their badges, loose bombs), in the fixed palette of its board shape with the few
//! pixels whose exact colour is no palette entry's kept beside (for marks drawn over it),
//! made once per board shape, orientation, theme and width and kept for later pictures.
//!
//! A square's picture does not depend on its neighbours: squares are whole pixels,
//! pieces are whole-pixel sprites, and every mark of a square stays inside it. So a tile
//! is cut from a board image rendered with that square's contents, and a picture is
//! those tiles pasted on the empty board. Each tile is rendered on the one square its
//! ground is always drawn on, so its pixels depend on its key alone (a mark drawn at
//! another position can round a pixel's anti-aliasing differently). Marks that cross
//! squares (removals, jump paths, pushes, blast waves) are drawn over the tiles by the
//! picture itself.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

use kaboom_rules::{BoardView, Color, Kind, LooseBombs, PieceView, Square, Status, Variant};
use resvg::tiny_skia::Pixmap;

use crate::replay::Lookup;
use crate::{LastAction, RenderError, RenderOptions};

/// The ground of a square: light, dark, or one of Bombalot's goal squares (each drawn
/// with its net).
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Debug)]
pub(crate) enum Ground {
    Light,
    Dark,
    Goal(Square),
}

/// One piece on a square: kind and colour indices, carrier, frozen, locked, imitated
/// kind's index.
type PieceKey = (u8, u8, bool, bool, bool, Option<u8>);

/// Everything the board image draws inside one square, apart from the last action's
/// removal marks.
#[derive(Clone, Eq, PartialEq, Ord, PartialOrd, Debug)]
pub(crate) struct TileKey {
    pub(crate) ground: Ground,
    /// The last action's from or to square.
    pub(crate) highlight: bool,
    /// A king in check.
    pub(crate) check: bool,
    /// The pieces standing there, in the picture's drawing order.
    pub(crate) pieces: Vec<PieceKey>,
    /// Nuke's loose bombs lying there.
    pub(crate) loose: u8,
}

impl TileKey {
    /// Whether a badge or loose bomb is drawn above the piece (the board image draws
    /// them after the removal marks, so a square with one is drawn whole).
    pub(crate) fn has_badges(&self) -> bool {
        self.loose > 0
            || self
                .pieces
                .iter()
                .any(|p| p.2 || p.3 || p.4 || p.5.is_some())
    }
}

fn kind_index(k: Kind) -> u8 {
    crate::draw::kind_index(k) as u8
}

/// The key of `sq` of `board` with `last` highlighted.
pub(crate) fn key_of(board: &BoardView, last: Option<&LastAction>, sq: Square) -> TileKey {
    let geo = board.variant.geometry();
    let ground = if geo.is_goal(sq) {
        Ground::Goal(sq)
    } else if geo.is_dark(sq) {
        Ground::Dark
    } else {
        Ground::Light
    };
    TileKey {
        ground,
        highlight: last.is_some_and(|l| l.squares.from == Some(sq) || l.squares.to == Some(sq)),
        check: board.checked.contains(&sq),
        pieces: board
            .pieces
            .iter()
            .filter(|p| p.square == sq)
            .map(|p| {
                (
                    kind_index(p.kind),
                    p.color.index() as u8,
                    p.carrier,
                    p.frozen,
                    p.locked,
                    p.imitating.map(kind_index),
                )
            })
            .collect(),
        loose: board
            .loose_bombs
            .iter()
            .find(|b| b.square == sq && b.count > 0)
            .map_or(0, |b| b.count),
    }
}

/// One prerendered square: `side` x `side` pixels.
pub(crate) struct Tile {
    /// Palette indices, row by row.
    pub(crate) idx: Vec<u8>,
    /// The pixels whose colour is not exactly their palette entry's (anti-aliased edges,
    /// blends): position in the tile (row by row) and RGBA. With the palette they give
    /// the tile's exact RGBA ([`Tile::rgba_into`]) in a fifth of its bytes.
    exact: Vec<(u32, [u8; 4])>,
}

impl Tile {
    /// A tile of `rgba` (opaque, row by row) whose palette indices are `idx`, drawn with
    /// `lookup`'s palette.
    fn new(rgba: &[u8], idx: Vec<u8>, lookup: &Lookup<'_>) -> Tile {
        let exact = rgba
            .chunks_exact(4)
            .zip(&idx)
            .enumerate()
            .filter(|(_, (px, i))| {
                let [r, g, b] = lookup.colour(**i);
                **px != [r, g, b, 255]
            })
            .map(|(at, (px, _))| (at as u32, [px[0], px[1], px[2], px[3]]))
            .collect();
        Tile { idx, exact }
    }

    /// The tile's exact RGBA pixels (premultiplied, as tiny-skia drew them) into `out`
    /// (resized), from its indices into `lookup`'s palette and the pixels that differ.
    pub(crate) fn rgba_into(&self, lookup: &Lookup<'_>, out: &mut Vec<u8>) {
        out.clear();
        out.reserve(self.idx.len() * 4);
        for &i in &self.idx {
            let [r, g, b] = lookup.colour(i);
            out.extend_from_slice(&[r, g, b, 255]);
        }
        for &(at, px) in &self.exact {
            let at = at as usize * 4;
            out[at..at + 4].copy_from_slice(&px);
        }
    }

    /// Heap bytes the tile holds.
    fn bytes(&self) -> usize {
        self.idx.len() + self.exact.len() * std::mem::size_of::<(u32, [u8; 4])>()
    }
}

/// The tiles and the empty board of one board shape, orientation, theme and width.
pub(crate) struct TileSet {
    /// The empty board (frame, squares, coordinates) in palette indices, the whole
    /// picture's size.
    pub(crate) base_idx: Arc<Vec<u8>>,
    tiles: BTreeMap<TileKey, Arc<Tile>>,
}

/// Tiles by key.
pub(crate) type Tiles = BTreeMap<TileKey, Arc<Tile>>;

/// Key of a tile set: files, goals, orientation, theme, width in pixels.
pub(crate) type SetKey = (u8, bool, u8, u8, u32);

/// At most this many tiles are kept over all sets (about 10 KB each at 640 px: 5.5 KB of
/// indices and the pixels off the palette).
const MAX_TILES: usize = 3000;

fn sets() -> &'static Mutex<BTreeMap<SetKey, TileSet>> {
    static SETS: Mutex<BTreeMap<SetKey, TileSet>> = Mutex::new(BTreeMap::new());
    &SETS
}

/// Empties the tile sets.
pub(crate) fn clear() {
    sets().lock().unwrap_or_else(|e| e.into_inner()).clear();
}

/// The bytes of pixels the tile sets hold (each set's empty board and its tiles).
pub(crate) fn cached_bytes() -> usize {
    sets()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .values()
        .map(|set| set.base_idx.len() + set.tiles.values().map(|t| t.bytes()).sum::<usize>())
        .sum()
}

/// The empty board in palette indices and the tiles of every key in `keys`, for a
/// `variant` replay drawn with `render`; missing tiles are rendered (as few board
/// images as possible: every board square of the right colour takes one) and kept.
pub(crate) fn tiles(
    variant: Variant,
    render: &RenderOptions,
    base: &Pixmap,
    keys: &BTreeSet<TileKey>,
    lookup: &mut Lookup<'_>,
) -> Result<(Arc<Vec<u8>>, Tiles), RenderError> {
    let geo = variant.geometry();
    let set_key = (
        geo.files,
        geo.goals,
        render.orientation as u8,
        render.theme as u8,
        base.width(),
    );
    let mut found = BTreeMap::new();
    let mut missing = Vec::new();
    let mut base_idx = None;
    {
        let guard = sets().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(set) = guard.get(&set_key) {
            base_idx = Some(Arc::clone(&set.base_idx));
            for k in keys {
                match set.tiles.get(k) {
                    Some(t) => {
                        found.insert(k.clone(), Arc::clone(t));
                    }
                    None => missing.push(k.clone()),
                }
            }
        } else {
            missing.extend(keys.iter().cloned());
        }
    }
    let base_idx = match base_idx {
        Some(b) => b,
        None => Arc::new(
            base.data()
                .chunks_exact(4)
                .map(|px| lookup.index(px))
                .collect::<Vec<u8>>(),
        ),
    };
    let made = render_tiles(variant, render, missing, lookup)?;
    let mut guard = sets().lock().unwrap_or_else(|e| e.into_inner());
    let total: usize = guard.values().map(|s| s.tiles.len()).sum();
    if total + made.len() > MAX_TILES {
        guard.clear();
    }
    let set = guard.entry(set_key).or_insert_with(|| TileSet {
        base_idx: Arc::clone(&base_idx),
        tiles: BTreeMap::new(),
    });
    for (k, t) in made {
        let t = Arc::new(t);
        set.tiles.insert(k.clone(), Arc::clone(&t));
        found.insert(k, t);
    }
    Ok((base_idx, found))
}

/// Renders the tiles of `missing`, a few per board image: each at the one square its
/// ground is always drawn on (the first light square, the last dark square, a goal
/// square on itself), so that a tile's pixels are a function of its key alone. Marks
/// drawn at other positions can round a pixel's anti-aliasing differently, which would
/// make a picture depend on which tiles were rendered together (what the cache held).
fn render_tiles(
    variant: Variant,
    render: &RenderOptions,
    mut missing: Vec<TileKey>,
    lookup: &mut Lookup<'_>,
) -> Result<Vec<(TileKey, Tile)>, RenderError> {
    let geo = variant.geometry();
    let lay = crate::draw::Layout::new(geo, render.orientation, render.size);
    let side = lay.sq as usize;
    let board_squares = || geo.squares().filter(|&s| !geo.is_goal(s));
    let first_light = board_squares().find(|&s| !geo.is_dark(s));
    let last_dark = board_squares().filter(|&s| geo.is_dark(s)).last();
    let mut out = Vec::new();
    let mut canvas = None;
    while !missing.is_empty() {
        let mut highlighted: Vec<Square> = Vec::new();
        let mut placed: Vec<(Square, TileKey)> = Vec::new();
        let mut rest = Vec::new();
        for key in missing {
            let sq = match key.ground {
                Ground::Light => first_light,
                Ground::Dark => last_dark,
                Ground::Goal(g) => Some(g),
            };
            let Some(sq) = sq else {
                return Err(RenderError::Gif(
                    "a square fits no board square".to_string(),
                ));
            };
            if placed.iter().any(|(s, _)| *s == sq) {
                rest.push(key);
                continue;
            }
            if key.highlight {
                highlighted.push(sq);
            }
            placed.push((sq, key));
        }
        missing = rest;
        let mut pieces = Vec::new();
        let mut checked = Vec::new();
        let mut loose_bombs = Vec::new();
        for (sq, key) in &placed {
            for &(kind, color, carrier, frozen, locked, imitating) in &key.pieces {
                pieces.push(PieceView {
                    square: *sq,
                    color: Color::ALL[usize::from(color)],
                    kind: Kind::ALL[usize::from(kind)],
                    carrier,
                    frozen,
                    imitating: imitating.map(|k| Kind::ALL[usize::from(k)]),
                    locked,
                });
            }
            if key.check {
                checked.push(*sq);
            }
            if key.loose > 0 {
                loose_bombs.push(LooseBombs {
                    square: *sq,
                    count: key.loose,
                });
            }
        }
        let board = BoardView {
            variant,
            pieces,
            loose_bombs,
            turn: Color::White,
            fullmoves: 1,
            checked,
            status: Status::Ongoing,
            awaiting_designation: Vec::new(),
        };
        // The highlights go first among the marks under the pieces (before checks and
        // frozen tints), as a last action's from and to squares are drawn.
        let mut scene = crate::draw::scene_with(&board, None, render, crate::draw::GHOST_OPACITY);
        let highlights: String = highlighted
            .iter()
            .map(|&sq| crate::draw::highlight_rect(&lay, sq, render.theme))
            .collect();
        scene.marks.insert_str(0, &highlights);
        let pixmap = crate::paint_scene(&mut canvas, &scene, geo, render)?;
        let width = pixmap.width() as usize;
        let data = pixmap.data();
        for (sq, key) in placed {
            let (x, y) = lay.origin(sq);
            let (x, y) = (x as usize, y as usize);
            let mut rgba = Vec::with_capacity(side * side * 4);
            for row in y..y + side {
                let start = (row * width + x) * 4;
                rgba.extend_from_slice(&data[start..start + side * 4]);
            }
            let idx = rgba.chunks_exact(4).map(|px| lookup.index(px)).collect();
            out.push((key, Tile::new(&rgba, idx, lookup)));
        }
    }
    Ok(out)
}
