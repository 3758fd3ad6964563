//! What the board image shows of an action: the capturer destroyed where it captured,
//! Bomberman Chess's blast waves along ranks and files, and the small marks (padlock,
//! imitated kind, loose bombs, frozen, pushed off) legible at Discord's phone preview.

use crate::common::*;
use kaboom_renderer::{LastAction, RenderOptions, render_png, render_svg, square_box};
use kaboom_rules::{
    ActionSquares, AnyGame, Cause, Color, GameOptions, Kind, Piece, Push, Removal, Variant, Viewer,
};

/// The pixels `(x, y)` that differ clearly (a channel by more than 40) between two PNGs
/// of the same size.
fn changed(a: &[u8], b: &[u8]) -> Vec<(usize, usize)> {
    let (w, h, pa) = rgba(a);
    let (w2, h2, pb) = rgba(b);
    assert_eq!((w, h), (w2, h2));
    pa.chunks_exact(4)
        .zip(pb.chunks_exact(4))
        .enumerate()
        .filter(|(_, (p, q))| (0..3).any(|c| p[c].abs_diff(q[c]) > 40))
        .map(|(i, _)| (i % w, i / w))
        .collect()
}

fn inside((x, y): (usize, usize), (bx, by, side): (u32, u32, u32)) -> bool {
    (bx as usize..(bx + side) as usize).contains(&x)
        && (by as usize..(by + side) as usize).contains(&y)
}

/// An Atomic capture (`Nxa7`, AT-2): the capturing knight is drawn where it exploded.
/// The picture with the capturer's removal differs from the one without it exactly in
/// the capture square's box, and clearly.
#[test]
fn the_capturer_is_drawn_where_it_exploded() {
    let mut game = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
    for san in ["Nc3", "e6", "Nb5", "e5", "Nxa7"] {
        game.play(None, san).unwrap();
    }
    let board = game.board_view(Viewer::Spectator);
    let last = LastAction::from_ply(game.plies().last().unwrap());
    let a7 = sq("a7");
    let capturer = Piece::new(Color::White, Kind::Knight);
    assert!(
        last.removals
            .iter()
            .any(|r| r.square == a7 && r.piece == capturer)
    );
    let without = LastAction {
        removals: last
            .removals
            .iter()
            .filter(|r| !(r.square == a7 && r.piece == capturer))
            .copied()
            .collect(),
        ..last.clone()
    };
    let o = RenderOptions::default();
    let boxed = square_box(Variant::Atomic, &o, a7).unwrap();
    let side = boxed.2 as usize;
    // The exact pictures (render_svg rasterized, not palette-quantized): every change
    // is inside a7's box.
    let (w, _, with_px) = rasterize(&render_svg(&board, Some(&last), &o));
    let w = w as usize;
    let (_, _, without_px) = rasterize(&render_svg(&board, Some(&without), &o));
    let diff: Vec<(usize, usize)> = with_px
        .chunks_exact(4)
        .zip(without_px.chunks_exact(4))
        .enumerate()
        .filter(|(_, (p, q))| p != q)
        .map(|(i, _)| (i % w, i / w))
        .collect();
    assert!(
        diff.len() > side * side / 10,
        "{} pixels changed",
        diff.len()
    );
    for p in &diff {
        assert!(
            inside(*p, boxed),
            "pixel {p:?} changed outside a7's box {boxed:?}"
        );
    }
    // The PNG shows it too: clear changes in a7's box (the indexed palette may move a
    // few edge pixels elsewhere by a shade).
    let png_diff = changed(
        &render_png(&board, Some(&last), &o).unwrap(),
        &render_png(&board, Some(&without), &o).unwrap(),
    );
    let in_box = png_diff.iter().filter(|p| inside(**p, boxed)).count();
    assert!(
        in_box > side * side / 10,
        "{in_box} pixels changed in a7's box"
    );
}

/// Bomberman Chess (BM-5, BM-6): `Oxa1` with pieces on a2 and g1 destroys both; the wave
/// along rank 1 is drawn across every square between a1 and g1 (b1 to f1), the one up
/// the a-file reaches a2, and squares off the waves are untouched.
#[test]
fn a_bomberman_blast_marks_every_square_of_its_waves() {
    let mut game = AnyGame::from_fen(
        Variant::Bomberman,
        "5k4/10/10/10/10/10/P9/O5B1K1 w - - 0 25",
    )
    .unwrap();
    game.play(None, "Oxa1").unwrap();
    let last = LastAction::from_game(&game, 1).unwrap();
    let removed: Vec<_> = last.removals.iter().map(|r| r.square).collect();
    assert!(removed.contains(&sq("a2")) && removed.contains(&sq("g1")));
    let board = game.board_view(Viewer::Spectator);
    let o = RenderOptions::default();
    let plain = render_png(&board, None, &o).unwrap();
    let blast = render_png(&board, Some(&last), &o).unwrap();
    let diff = changed(&blast, &plain);
    let count = |name: &str| {
        let b = square_box(Variant::Bomberman, &o, sq(name)).unwrap();
        diff.iter().filter(|p| inside(**p, b)).count()
    };
    let side = square_box(Variant::Bomberman, &o, sq("b1")).unwrap().2 as usize;
    for name in ["b1", "c1", "d1", "e1", "f1"] {
        // The band is a third of a square wide, across the whole square.
        assert!(
            count(name) > side * side / 5,
            "{name}: {} pixels",
            count(name)
        );
    }
    for name in ["b2", "c3", "h1", "j1", "a4"] {
        assert_eq!(count(name), 0, "{name} is off the waves");
    }
    // A wave that leaves the board is drawn to the edge: Black's bomb on a7 sends one
    // along rank 7 to j7.
    let mut game =
        AnyGame::from_fen(Variant::Bomberman, "5k4/o9/10/10/10/10/10/5K4 b - - 0 1").unwrap();
    game.play(None, "Oxa7").unwrap();
    let last = LastAction::from_game(&game, 1).unwrap();
    let board = game.board_view(Viewer::Spectator);
    let diff = changed(
        &render_png(&board, Some(&last), &o).unwrap(),
        &render_png(&board, None, &o).unwrap(),
    );
    for name in ["b7", "e7", "j7", "a6", "a1"] {
        let b = square_box(Variant::Bomberman, &o, sq(name)).unwrap();
        assert!(
            diff.iter().filter(|p| inside(**p, b)).count() > side * side / 5,
            "{name}"
        );
    }
}

/// A tank step f5-g5 whose `pushes` end with a black immobilizer pushed off h5 (removed),
/// and the same step with nothing pushed or removed: the two boards differ only by what the
/// push draws.
fn tank_step_pushing_h5_off(pushes: Vec<Push>) -> (LastAction, LastAction) {
    let push = LastAction {
        squares: ActionSquares {
            from: Some(sq("f5")),
            to: Some(sq("g5")),
            detonation: None,
        },
        removals: vec![Removal {
            square: sq("h5"),
            piece: Piece::new(Color::Black, Kind::Immobilizer),
            cause: Cause::PushedOff,
        }],
        pushes,
        ..LastAction::default()
    };
    let moved = LastAction {
        removals: Vec::new(),
        pushes: Vec::new(),
        ..push.clone()
    };
    (push, moved)
}

/// Every small mark stays legible when the 640 px image is shown 260 px wide: the
/// padlock of a piece in a goal, the imitator's current kind, a frozen piece's
/// snowflake, Nuke's single loose bomb, and the pushed-off piece on a square that also
/// holds a frozen piece. Each changes a blob of downscaled pixels with clear contrast.
#[test]
fn small_marks_are_legible_at_260_px_wide() {
    let o = RenderOptions::default();
    let png = |b: &kaboom_rules::BoardView, l: Option<&LastAction>| render_png(b, l, &o).unwrap();
    let base = board(Variant::Bombalot, "wT@d9 wM@c3 bA@e4 wT@h5 wA@g5");
    let mut cases: Vec<(&str, Vec<u8>, Vec<u8>)> = Vec::new();
    let with = |flag: &str, at: &str| {
        let mut b = base.clone();
        let p = b.pieces.iter_mut().find(|p| p.square == sq(at)).unwrap();
        match flag {
            "locked" => p.locked = true,
            "frozen" => p.frozen = true,
            _ => p.imitating = Some(Kind::Tank),
        }
        b
    };
    cases.push((
        "goal lock",
        png(&with("locked", "d9"), None),
        png(&base, None),
    ));
    cases.push((
        "imitated kind",
        png(&with("imitating", "c3"), None),
        png(&base, None),
    ));
    cases.push(("frozen", png(&with("frozen", "e4"), None), png(&base, None)));
    let nuke = board(Variant::Nuke, "wK@e1 bK@e8");
    cases.push((
        "loose bomb",
        png(&loose(nuke.clone(), &[("f5", 1)]), None),
        png(&nuke, None),
    ));
    // A tank step g5 pushes: the piece from g5 to h5, the immobilizer on h5 off the board.
    let (push, moved) = tank_step_pushing_h5_off(vec![
        Push {
            from: sq("g5"),
            to: Some(sq("h5")),
        },
        Push {
            from: sq("h5"),
            to: None,
        },
    ]);
    let frozen_h5 = with("frozen", "h5");
    cases.push((
        "pushed off",
        png(&frozen_h5, Some(&push)),
        png(&frozen_h5, Some(&moved)),
    ));
    cases.push((
        "frozen beside pushed off",
        png(&frozen_h5, Some(&push)),
        png(&base, Some(&push)),
    ));
    for (name, a, b) in &cases {
        let (area, contrast) = mark_at_260(a, b);
        assert!(
            area >= 20 && contrast >= 90.0,
            "{name}: {area} px, contrast {contrast}"
        );
    }
}

/// Marks stacked on one square go to different places: on a pushed-off square that
/// holds a frozen imitator, the pushed-off piece's disc, the snowflake and the imitated
/// kind's badge change disjoint pixels (at 640 px).
#[test]
fn stacked_marks_do_not_overlap() {
    let o = RenderOptions::default();
    let base = board(Variant::Bombalot, "wM@h5 wA@g5");
    let mut frozen = base.clone();
    frozen.pieces[1].frozen = true;
    let mut imitating = base.clone();
    imitating.pieces[1].imitating = Some(Kind::Tank);
    assert_eq!(imitating.pieces[1].square, sq("h5"));
    let (push, moved) = tank_step_pushing_h5_off(vec![Push {
        from: sq("h5"),
        to: None,
    }]);
    let plain = render_png(&base, Some(&moved), &o).unwrap();
    let off: std::collections::BTreeSet<_> =
        changed(&render_png(&base, Some(&push), &o).unwrap(), &plain)
            .into_iter()
            .collect();
    let snow: std::collections::BTreeSet<_> = changed(
        &render_png(&frozen, Some(&push), &o).unwrap(),
        &render_png(&base, Some(&push), &o).unwrap(),
    )
    .into_iter()
    .collect();
    let kind: std::collections::BTreeSet<_> = changed(
        &render_png(&imitating, Some(&push), &o).unwrap(),
        &render_png(&base, Some(&push), &o).unwrap(),
    )
    .into_iter()
    .collect();
    assert!(off.len() > 200 && snow.len() > 200 && kind.len() > 200);
    // The frozen tint covers the square; count the snowflake badge's overlap only
    // with the other badges' own pixels.
    let overlap =
        |a: &std::collections::BTreeSet<(usize, usize)>,
         b: &std::collections::BTreeSet<(usize, usize)>| a.intersection(b).count();
    assert!(
        overlap(&off, &kind) < 10,
        "disc and kind badge overlap: {}",
        overlap(&off, &kind)
    );
}
