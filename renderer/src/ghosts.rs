//! Explosion previews: the board *after* an action with the pieces it would
//! remove drawn as translucent "ghosts" on the squares where they stood, so a player sees
//! what a move blows up before confirming it.
//!
//! Kept apart from the main drawing ([`crate::render_png`]): the same layers (board,
//! marks, pieces, badges), with one more between the marks and the live pieces. A ghost
//! is the piece's own sprite at [`GHOST_OPACITY`], drawn under any live piece that stands
//! on the same square afterwards (e.g. a Nuke piece landing where one was removed).
//!
//! A capturer destroyed where it captured (Atomic AT-2, a Nuke or Beirut carrier, a
//! Bomberman bomb taken) is drawn as the result board draws it: the capturer's ghost on
//! the square, the piece it took as a corner badge (top left, in the colour of the
//! square's strongest cause), so the preview shows that both go.

use kaboom_rules::{BoardView, Cause, Piece, Removal, Square};
use resvg::tiny_skia::Pixmap;

use crate::draw::{CornerBadge, RemovalMark};
use crate::{LastAction, RenderError, RenderOptions, draw, sprites};

/// How opaque a ghost is: 0 (invisible) to 255 (a live piece). About 40 %: clearly a
/// piece, clearly not on the board any more, even at Discord's 260 px phone preview.
pub const GHOST_OPACITY: u8 = 102;

/// A removed piece to draw as a ghost: what it was and where it stood when removed
/// (a [`Removal`]'s square, ruling C-6), with the piece it took there if it was a
/// capturer destroyed on the square where it captured.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Ghost {
    /// The square it stood on.
    pub square: Square,
    /// The piece drawn as the ghost: the one that stood on the square, or the capturer
    /// destroyed there when [`Ghost::taken`] is set.
    pub piece: Piece,
    /// The piece the ghost's capturer took on this square (removed too), drawn as a
    /// small corner badge over the ghost; `None` when only one piece went from here.
    pub taken: Option<Piece>,
    /// The strongest cause among the square's removals, as the result board marks it
    /// (explosion, then jump, push off the board, capture): the badge's colour (an
    /// Atomic capturer and its catch: [`Cause::Exploded`], orange).
    pub cause: Cause,
}

impl Ghost {
    /// The ghosts of an action's removals, one per square in the order the squares first
    /// appear. A square with one removal gives that piece; a square with more (a capturer
    /// destroyed where it captured: the taken piece is listed first, then the capturer)
    /// gives the capturer as the ghost and the piece that stood there as
    /// [`Ghost::taken`], as the result board draws it.
    pub fn from_removals(removed: &[Removal]) -> Vec<Ghost> {
        let mut out: Vec<Ghost> = Vec::new();
        for r in removed {
            match out.iter_mut().find(|g| g.square == r.square) {
                Some(g) => {
                    if g.taken.is_none() {
                        g.taken = Some(g.piece);
                        g.piece = r.piece;
                    }
                    if RemovalMark::of(r.cause) < RemovalMark::of(g.cause) {
                        g.cause = r.cause;
                    }
                }
                None => out.push(Ghost {
                    square: r.square,
                    piece: r.piece,
                    taken: None,
                    cause: r.cause,
                }),
            }
        }
        out
    }
}

/// The board as PNG bytes, as [`crate::render_png`] draws it, with `ghosts` drawn
/// translucent on their squares above the marks and below the pieces, each under the
/// "would be removed" mark of [`RenderOptions::preview`]. `board` is the position *after*
/// the action as the viewer may see it; `last` highlights the action's squares (its
/// `removed` squares get no blast mark here: a blast would hide the ghost). A ghost with
/// [`Ghost::taken`] also gets the taken piece as a corner badge above the preview mark,
/// as the result board shows a destroyed capturer. With no ghosts the picture equals
/// [`crate::render_png`]'s.
///
/// # Errors
/// As [`crate::render_png`].
pub fn render_png_with_ghosts(
    board: &BoardView,
    last: Option<&LastAction>,
    options: &RenderOptions,
    ghosts: &[Ghost],
) -> Result<Vec<u8>, RenderError> {
    if ghosts.is_empty() {
        return crate::render_png(board, last, options);
    }
    // The ghosts stand for the removals here: the last action's own removal marks and
    // faded pieces (`LastAction::removals`) would draw them twice.
    let last = last.map(|l| LastAction {
        squares: l.squares,
        removed: Vec::new(),
        removals: Vec::new(),
        jump_path: l.jump_path.clone(),
        pushes: l.pushes.clone(),
    });
    let mut options = options.clone();
    for g in ghosts {
        if !options.preview.contains(&g.square) {
            options.preview.push(g.square);
        }
    }
    let badges: Vec<CornerBadge> = ghosts
        .iter()
        .filter_map(|g| {
            g.taken.map(|piece| CornerBadge {
                square: g.square,
                piece,
                cause: g.cause,
            })
        })
        .collect();
    let scene =
        draw::scene_with_badges(board, last.as_ref(), &options, draw::GHOST_OPACITY, &badges);
    let (width, height) = (scene.layout.width, scene.layout.height);
    let geo = board.variant.geometry();
    let key = (
        geo.files,
        geo.goals,
        options.orientation as u8,
        options.theme as u8,
        width,
    );
    let layer = sprites::board_layer(key, width, height, || scene.layer(&scene.board))?;
    let mut pixmap = Pixmap::new(width, height).ok_or(RenderError::Allocate { width, height })?;
    pixmap.data_mut().copy_from_slice(layer.data());
    crate::rasterize_onto(&scene.layer(&scene.marks), &mut pixmap)?;
    for g in ghosts {
        let sprite = sprites::sprite(g.piece.kind, g.piece.color, scene.layout.sq)?;
        let faded = fade(&sprite, GHOST_OPACITY);
        let (x, y) = scene.layout.origin(g.square);
        sprites::blit(&mut pixmap, &faded, x as u32, y as u32);
    }
    for p in &scene.pieces {
        let sprite = sprites::sprite(p.kind, p.color, scene.layout.sq)?;
        sprites::blit(&mut pixmap, &sprite, p.x as u32, p.y as u32);
    }
    if !scene.top.is_empty() {
        crate::rasterize_onto(&scene.layer(&scene.top), &mut pixmap)?;
    }
    crate::encode_indexed_png(
        pixmap.data(),
        width,
        height,
        &mut Vec::new(),
        crate::BOARD_FILTER,
    )
}

/// `sprite` (premultiplied RGBA) with every channel scaled by `opacity / 255`: the same
/// picture, translucent. Integer arithmetic: deterministic.
fn fade(sprite: &Pixmap, opacity: u8) -> Pixmap {
    let mut out = sprite.clone();
    let k = u32::from(opacity);
    for v in out.data_mut() {
        *v = ((u32::from(*v) * k + 127) / 255) as u8;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use kaboom_rules::{AnyGame, Color, GameOptions, Kind, Variant, Viewer};

    /// (width, samples per pixel, pixels) of a PNG, palette expanded.
    fn decode(png: &[u8]) -> (u32, usize, Vec<u8>) {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png.to_vec()));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info.width, info.color_type.samples(), buf)
    }

    /// A ghost changes the pixels of its own square only, and less than a live piece
    /// does; no ghosts draw exactly the ordinary picture.
    #[test]
    fn a_ghost_is_a_translucent_piece_on_its_square() {
        let mut game = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
        for san in ["e4", "d5", "exd5"] {
            game.play(None, san).unwrap();
        }
        let board = game.board_view(Viewer::Spectator);
        let ply = game.plies().last().unwrap();
        let last = LastAction::from_ply(ply);
        let options = RenderOptions {
            size: 320,
            ..RenderOptions::default()
        };
        let plain = crate::render_png(&board, Some(&last), &options).unwrap();
        assert_eq!(
            render_png_with_ghosts(&board, Some(&last), &options, &[]).unwrap(),
            plain
        );
        let ghosts = Ghost::from_removals(&ply.removed);
        // One ghost on d5: the exploded capturer, with the pawn it took as its badge.
        assert_eq!(
            ghosts,
            vec![Ghost {
                square: "d5".parse().unwrap(),
                piece: Piece::new(Color::White, Kind::Pawn),
                taken: Some(Piece::new(Color::Black, Kind::Pawn)),
                cause: kaboom_rules::Cause::Exploded,
            }]
        );
        let with = render_png_with_ghosts(&board, Some(&last), &options, &ghosts).unwrap();
        let (w, channels, a) = decode(&plain);
        let (_, _, b) = decode(&with);
        assert_eq!(a.len(), b.len());
        let scene = draw::scene(&board, Some(&last), &options);
        let sq = scene.layout.sq as usize;
        let squares: Vec<(usize, usize)> = ghosts
            .iter()
            .map(|g| {
                let (x, y) = scene.layout.origin(g.square);
                (x as usize, y as usize)
            })
            .collect();
        // The indexed palette (the 256 most frequent colours) may map a few edge pixels
        // elsewhere to a neighbouring colour: only clear changes count.
        let mut inside = 0usize;
        for (i, (pa, pb)) in a.chunks(channels).zip(b.chunks(channels)).enumerate() {
            let delta = pa
                .iter()
                .zip(pb)
                .map(|(x, y)| x.abs_diff(*y))
                .max()
                .unwrap_or(0);
            if delta <= 24 {
                continue;
            }
            let (x, y) = (i % w as usize, i / w as usize);
            let on_ghost = squares
                .iter()
                .any(|&(gx, gy)| (gx..gx + sq).contains(&x) && (gy..gy + sq).contains(&y));
            assert!(
                on_ghost,
                "pixel ({x}, {y}) changed outside the ghosts' squares"
            );
            inside += 1;
        }
        assert!(
            inside > sq * sq / 20,
            "the ghosts are visible: {inside} pixels"
        );
    }
}
