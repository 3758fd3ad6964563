//! Board PNGs drawn in palette indices from prerendered squares (`render_png` without
//! arrows or a preview): the picture of the SVG in every variant, whatever the caches
//! hold, and the ground the prerendered squares stand on (every mark of a square stays
//! inside it).

use crate::common::*;
use crate::replay::{continue_randomly, random_game};
use kaboom_renderer::{LastAction, Orientation, RenderOptions, Theme, render_png, render_svg};
use kaboom_rules::{
    AnyGame, BoardView, Color, GameOptions, Kind, LooseBombs, PieceView, Variant, Viewer,
};

/// Positions of every variant with their last actions: random games sampled every few
/// plies (explosions, captures, jumps, pushes, detonations, blast waves), Nuke with its
/// carriers and loose bombs, and Beirut in a player's view (its carriers shown).
fn positions() -> Vec<(String, BoardView, Option<LastAction>)> {
    let mut out = Vec::new();
    let nuke = {
        let mut g = AnyGame::new(Variant::Nuke, GameOptions::default()).unwrap();
        g.designate(Color::White, &[sq("e1")]).unwrap();
        g.designate(Color::Black, &[sq("d8")]).unwrap();
        continue_randomly(g, 36, 2)
    };
    let beirut = {
        let mut g = AnyGame::new(Variant::Beirut, GameOptions::default()).unwrap();
        g.designate(Color::White, &[sq("f1")]).unwrap();
        g.designate(Color::Black, &[sq("c8")]).unwrap();
        continue_randomly(g, 36, 9)
    };
    for (game, viewer) in [
        (random_game(Variant::Atomic, 36, 5), Viewer::Spectator),
        (random_game(Variant::Bombalot, 36, 3), Viewer::Full),
        (random_game(Variant::Bomberman, 36, 4), Viewer::Full),
        (nuke, Viewer::Full),
        (beirut, Viewer::White),
    ] {
        for ply in (1..=game.ply_count()).step_by(3) {
            let board = if ply == game.ply_count() {
                game.board_view(viewer)
            } else {
                game.board_view_after(ply, viewer).unwrap()
            };
            let last = LastAction::from_game(&game, ply);
            out.push((format!("{:?} ply {ply}", game.variant()), board, last));
        }
    }
    out
}

/// Every board PNG is the picture of its SVG: the fixed palette of the board shape
/// moves anti-aliased edges and blends by a few levels, never a whole mark or square
/// (a wrong prerendered square or a mark left out changes hundreds of pixels by far
/// more than 48 levels).
#[test]
fn board_pngs_are_the_pictures_of_their_svgs_in_every_variant() {
    for options in [
        RenderOptions::default(),
        RenderOptions {
            size: 420,
            orientation: Orientation::Black,
            theme: Theme::Green,
            ..RenderOptions::default()
        },
    ] {
        for (what, board, last) in positions() {
            let (w, h, png) = decode(&render_png(&board, last.as_ref(), &options).unwrap());
            let (ew, eh, svg) = rasterize(&render_svg(&board, last.as_ref(), &options));
            assert_eq!((w, h), (ew, eh), "{what}: size");
            let mut far = 0usize;
            let mut largest = 0u8;
            let mut total = 0u64;
            for (p, e) in png.chunks_exact(3).zip(svg.chunks_exact(4)) {
                let d = (0..3).map(|i| p[i].abs_diff(e[i])).max().unwrap_or(0);
                largest = largest.max(d);
                total += u64::from(d);
                if d > 48 {
                    far += 1;
                }
            }
            let pixels = (w * h) as usize;
            let mean = total as f64 / pixels as f64;
            assert!(
                far * 2000 < pixels && mean < 1.0,
                "{what} at {} px: {far} pixels off by more than 48 levels (largest {largest}), mean {mean:.3}",
                options.size
            );
        }
    }
}

/// A picture does not depend on what the renderer's caches hold: prerendered squares
/// are cut from board images drawn with other squares beside them, header strips and
/// colour lookups are kept between pictures, and none of it may show.
#[test]
fn a_board_png_does_not_depend_on_the_caches() {
    let positions = positions();
    let options = RenderOptions::default();
    let forward: Vec<Vec<u8>> = positions
        .iter()
        .map(|(_, b, l)| render_png(b, l.as_ref(), &options).unwrap())
        .collect();
    kaboom_renderer::clear_caches();
    for ((what, b, l), first) in positions.iter().zip(&forward).rev() {
        assert!(
            render_png(b, l.as_ref(), &options).unwrap() == *first,
            "{what}: drawn again in the other order after the caches were emptied, the PNG differs"
        );
    }
}

/// What the prerendered squares stand on: every piece, with every badge (carrier,
/// imitated kind, locked, frozen), a king in check, and loose bombs with their count,
/// changes no pixel outside its own square. A badge that reached a neighbour by a
/// fraction of a pixel would show on the neighbours of the squares it was prerendered
/// beside, and be missing from its real neighbours.
#[test]
fn every_mark_of_a_square_stays_inside_it() {
    let options = RenderOptions::default();
    for variant in [Variant::Atomic, Variant::Bomberman] {
        let at = sq("d4");
        let (bx, by, side) = kaboom_renderer::square_box(variant, &options, at).unwrap();
        let empty = board(variant, "");
        let (w, _, base) = rasterize(&render_svg(&empty, None, &options));
        let board_top = variant
            .geometry()
            .squares()
            .filter_map(|s| kaboom_renderer::square_box(variant, &options, s))
            .map(|(_, y, _)| y)
            .min()
            .unwrap();
        let mut boards = Vec::new();
        for kind in Kind::ALL {
            for color in [Color::White, Color::Black] {
                let plain = PieceView {
                    square: at,
                    color,
                    kind,
                    carrier: false,
                    frozen: false,
                    imitating: None,
                    locked: false,
                };
                for piece in [
                    plain.clone(),
                    PieceView {
                        carrier: true,
                        frozen: true,
                        imitating: Some(Kind::Knight),
                        locked: true,
                        ..plain.clone()
                    },
                ] {
                    let mut b = empty.clone();
                    b.pieces.push(piece);
                    if kind == Kind::King {
                        b.checked.push(at);
                    }
                    boards.push((format!("{kind:?} {color:?} {:?}", b.pieces[0]), b));
                }
            }
        }
        for count in [1, 3, 12] {
            let mut b = empty.clone();
            b.loose_bombs.push(LooseBombs { square: at, count });
            boards.push((format!("{count} loose bombs"), b));
        }
        for (what, b) in boards {
            let (_, _, px) = rasterize(&render_svg(&b, None, &options));
            let outside = px
                .chunks_exact(4)
                .zip(base.chunks_exact(4))
                .enumerate()
                .filter(|(i, (a, e))| {
                    let (x, y) = ((i % w as usize) as u32, (i / w as usize) as u32);
                    // The header names the side to move with its king: not a square's.
                    y >= board_top
                        && a != e
                        && (x < bx || x >= bx + side || y < by || y >= by + side)
                })
                .count();
            assert_eq!(outside, 0, "{variant:?} {what}: pixels outside its square");
        }
    }
}
