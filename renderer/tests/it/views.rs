//! Behaviour of the renderer beyond the golden images: hidden information, flags,
//! orientation, sizes and determinism.

use crate::common::*;
use kaboom_renderer::{LastAction, Orientation, RenderOptions, render_png, render_svg, square_box};
use kaboom_rules::{AnyGame, Color, GameOptions, Square, Variant, Viewer};

fn png_size(png: &[u8]) -> (u32, u32) {
    let w = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let h = u32::from_be_bytes(png[20..24].try_into().unwrap());
    (w, h)
}

/// Section 6 / BE-2: a public Beirut image never reveals a carrier. Two games that
/// differ only in their hidden carriers give byte-identical spectator PNGs, while
/// each player's private view does show their own carrier.
#[test]
fn beirut_spectator_png_is_identical_for_different_hidden_carriers() {
    let movetext = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6";
    let render = |white: &str, black: &str, viewer: Viewer| {
        let mut game = AnyGame::new(Variant::Beirut, GameOptions::default()).unwrap();
        game.designate(Color::White, &[sq(white)]).unwrap();
        game.designate(Color::Black, &[sq(black)]).unwrap();
        for token in kaboom_rules::notation::movetext_actions(movetext).unwrap() {
            game.play(None, &token).unwrap();
        }
        let board = game.board_view(viewer);
        let last = game.plies().last().map(LastAction::from_ply);
        render_png(&board, last.as_ref(), &RenderOptions::default()).unwrap()
    };
    let a = render("d1", "d8", Viewer::Spectator);
    let b = render("g1", "b8", Viewer::Spectator);
    assert_eq!(a, b, "the spectator image depends on hidden carriers");
    // The owners' private views differ: each marks its own carrier.
    assert_ne!(
        render("d1", "d8", Viewer::White),
        render("g1", "d8", Viewer::White)
    );
}

/// The renderer draws exactly what the view holds: with the carrier flags removed (as
/// a spectator view has them) the picture equals the one of a view that never had
/// them, and with a flag set it differs (the private view shows it).
/// BE-2, docs/rules/RULINGS.md section 6: a carrier shows only where the view says so.
#[test]
fn carrier_marks_follow_the_view_flags_only() {
    let spec = "wK@g1 wN@f3 wP@e4 bK@g8 bN@c6 bP@e5";
    let plain = board(Variant::Beirut, spec);
    let mut private = plain.clone();
    private
        .pieces
        .iter_mut()
        .find(|p| p.square == sq("f3"))
        .unwrap()
        .carrier = true;
    let mut stripped = private.clone();
    for p in &mut stripped.pieces {
        p.carrier = false;
    }
    let o = RenderOptions::default();
    assert_eq!(
        render_png(&stripped, None, &o).unwrap(),
        render_png(&plain, None, &o).unwrap()
    );
    assert_ne!(
        render_png(&private, None, &o).unwrap(),
        render_png(&plain, None, &o).unwrap()
    );
}

/// Every flag, loose bombs, check, the last action and the preview change the picture.
/// docs/rules/RULINGS.md section 6: Nuke bombs, frozen pieces, imitator kinds and goals are
/// visible.
#[test]
fn every_mark_is_drawn() {
    let base = board(Variant::Bombalot, "wM@a1 wT@c3 bI@e6 bT@d5 wK@e1");
    let o = RenderOptions::default();
    let svg = |b: &kaboom_rules::BoardView, l: Option<&LastAction>, o: &RenderOptions| {
        render_svg(b, l, o)
    };
    let plain = svg(&base, None, &o);
    let mut variants: Vec<(&str, String)> = Vec::new();
    for flag in ["carrier", "frozen", "locked"] {
        let mut b = base.clone();
        let p = b.pieces.iter_mut().find(|p| p.square == sq("d5")).unwrap();
        match flag {
            "carrier" => p.carrier = true,
            "frozen" => p.frozen = true,
            _ => p.locked = true,
        }
        variants.push((flag, svg(&b, None, &o)));
    }
    let mut b = base.clone();
    b.pieces[0].imitating = Some(kaboom_rules::Kind::Tank);
    variants.push(("imitating", svg(&b, None, &o)));
    variants.push((
        "loose bombs",
        svg(&loose(base.clone(), &[("h4", 2)]), None, &o),
    ));
    variants.push(("check", svg(&checked(base.clone(), "e1"), None, &o)));
    let last = LastAction {
        squares: kaboom_rules::ActionSquares {
            from: Some(sq("c2")),
            to: Some(sq("c3")),
            detonation: None,
        },
        ..LastAction::default()
    };
    variants.push(("from/to", svg(&base, Some(&last), &o)));
    let blast = LastAction {
        removed: vec![sq("f6")],
        ..LastAction::default()
    };
    variants.push(("blast", svg(&base, Some(&blast), &o)));
    let det = LastAction {
        squares: kaboom_rules::ActionSquares {
            detonation: Some(sq("f6")),
            ..Default::default()
        },
        ..LastAction::default()
    };
    variants.push(("detonation", svg(&base, Some(&det), &o)));
    let preview = RenderOptions {
        preview: vec![sq("d5")],
        ..RenderOptions::default()
    };
    variants.push(("preview", svg(&base, None, &preview)));
    for (name, text) in &variants {
        assert_ne!(text, &plain, "{name} is not drawn");
    }
    // All different from each other too (each mark has its own look).
    for (i, (a, ta)) in variants.iter().enumerate() {
        for (b, tb) in &variants[i + 1..] {
            assert_ne!(ta, tb, "{a} and {b} look the same");
        }
    }
}

/// The picture is `size` wide, taller than wide (header strip; not cropped as a
/// square by chat clients), for every variant, and stays within 40 KB at 640 px.
#[test]
fn sizes_and_aspect() {
    for variant in Variant::ALL {
        let b = board(variant, "wK@e1 bK@e8");
        for size in [64u32, 320, 640, 1000] {
            let o = RenderOptions {
                size,
                ..RenderOptions::default()
            };
            let png = render_png(&b, None, &o).unwrap();
            let (w, h) = png_size(&png);
            assert_eq!(w, size, "{variant} at {size}");
            assert_ne!(w, h, "{variant} at {size}: square image");
        }
    }
    // Out-of-range sizes are clamped, never a panic or a huge allocation.
    let b = board(Variant::Atomic, "wK@e1 bK@e8");
    for (asked, got) in [(0u32, 64u32), (100_000, 4096)] {
        let o = RenderOptions {
            size: asked,
            ..RenderOptions::default()
        };
        assert_eq!(png_size(&render_png(&b, None, &o).unwrap()).0, got);
    }
}

/// Same input, same bytes; no text elements or font references (glyphs are paths).
#[test]
fn deterministic_and_font_free() {
    let b = checked(
        board(
            Variant::Atomic,
            &fen_spec(
                Variant::Atomic,
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR",
            ),
        ),
        "e1",
    );
    let o = RenderOptions::default();
    let svg = render_svg(&b, None, &o);
    assert_eq!(svg, render_svg(&b, None, &o));
    assert_eq!(
        render_png(&b, None, &o).unwrap(),
        render_png(&b, None, &o).unwrap()
    );
    assert!(
        !svg.contains("<text") && !svg.contains("font"),
        "text must be paths"
    );
}

/// Orientation: Black at the bottom mirrors both axes (a1 goes to the top right).
#[test]
fn orientation_moves_squares() {
    let b = with_turn(board(Variant::Atomic, "wK@a1 bK@h8"), Color::Black, 1);
    let white = render_svg(&b, None, &RenderOptions::default());
    let black = render_svg(
        &b,
        None,
        &RenderOptions {
            orientation: Orientation::Black,
            ..RenderOptions::default()
        },
    );
    // The white king's <use> element carries its position in its transform (the
    // header's king marker is Black's here, since Black is to move).
    let pos = |svg: &str, id: &str| -> (f32, f32) {
        let key = format!("href=\"#{id}\" transform=\"translate(");
        let i = svg.find(&key).unwrap() + key.len();
        let rest = &svg[i..i + rest_end(&svg[i..])];
        let mut it = rest.split(' ').map(|v| v.parse::<f32>().unwrap());
        (it.next().unwrap(), it.next().unwrap())
    };
    fn rest_end(s: &str) -> usize {
        s.find(')').unwrap()
    }
    let (wx, wy) = pos(&white, "wK");
    let (bx, by) = pos(&black, "wK");
    assert!(
        bx > wx && by < wy,
        "a1 should move from bottom-left to top-right"
    );
    let _ = Square::new(0, 1);
}

/// The layered PNG path (cached board, sprites) draws the same picture as
/// rasterizing the whole SVG in one pass: same size, and pixels that differ only by
/// rounding (mean difference well under one level of 255).
#[test]
fn png_is_the_picture_of_the_svg() {
    let mut game = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
    for san in ["e4", "d5", "exd5", "Qxd5"] {
        game.play(None, san).unwrap();
    }
    let board = game.board_view(Viewer::Spectator);
    let last = game.plies().last().map(LastAction::from_ply);
    for options in [
        RenderOptions::default(),
        RenderOptions {
            size: 333,
            orientation: Orientation::Black,
            preview: vec![sq("d5"), sq("e4")],
            ..RenderOptions::default()
        },
    ] {
        let layered = decode(&render_png(&board, last.as_ref(), &options).unwrap());
        let svg = render_svg(&board, last.as_ref(), &options);
        let single = decode(&kaboom_renderer::svg_to_png(&svg).unwrap());
        assert_eq!((layered.0, layered.1), (single.0, single.1));
        let total: u64 = layered
            .2
            .iter()
            .zip(&single.2)
            .map(|(a, b)| u64::from(a.abs_diff(*b)))
            .sum();
        let mean = total as f64 / layered.2.len() as f64;
        assert!(mean < 0.5, "mean difference {mean} at {} px", options.size);
    }
}

/// The small marks stay legible on a phone (the 640 px image shown 260 px
/// wide). Each mark, downscaled, still changes a blob of pixels with strong contrast
/// inside it (a light badge with a dark bomb, white digits outlined in black, a blue
/// badge with the taken piece).
#[test]
fn small_marks_are_legible_at_260_px() {
    let o = RenderOptions::default();
    let spec = "wK@g1 wN@f3 wP@e4 bK@g8 bN@c6 bP@e5";
    let plain = board(Variant::Beirut, spec);
    let mut carrier = plain.clone();
    carrier
        .pieces
        .iter_mut()
        .find(|p| p.square == sq("f3"))
        .unwrap()
        .carrier = true;
    let png = |b: &kaboom_rules::BoardView, l: Option<&LastAction>| render_png(b, l, &o).unwrap();
    let (area, contrast) = mark_at_260(&png(&carrier, None), &png(&plain, None));
    assert!(
        area >= 25 && contrast >= 120.0,
        "carrier badge: {area} px, contrast {contrast}"
    );

    // Nuke's loose-bomb count: x2 against a single bomb.
    let nuke = board(Variant::Nuke, spec);
    let (area, contrast) = mark_at_260(
        &png(&loose(nuke.clone(), &[("d4", 2)]), None),
        &png(&loose(nuke, &[("d4", 1)]), None),
    );
    // The count before the marks were made legible on phones (24 units high) changed 33
    // pixels; now 103.
    assert!(
        area >= 70 && contrast >= 120.0,
        "loose count: {area} px, contrast {contrast}"
    );

    // A plain capture's badge (the taken piece in a blue disc).
    let capture = LastAction {
        squares: kaboom_rules::ActionSquares {
            from: Some(sq("f3")),
            to: Some(sq("e5")),
            detonation: None,
        },
        removals: vec![kaboom_rules::Removal {
            square: sq("e5"),
            piece: kaboom_rules::Piece::new(Color::Black, kaboom_rules::Kind::Pawn),
            cause: kaboom_rules::Cause::Captured,
        }],
        ..LastAction::default()
    };
    let moved = LastAction {
        removals: vec![],
        ..capture.clone()
    };
    let (area, contrast) = mark_at_260(&png(&plain, Some(&capture)), &png(&plain, Some(&moved)));
    assert!(
        area >= 150 && contrast >= 100.0,
        "capture badge: {area} px, contrast {contrast}"
    );

    // Bombalot's goal labels: light text on the dark frame beside each goal square at
    // 260 px (downscaled luminance range within the label's area).
    let bombalot = board(Variant::Bombalot, "wT@a1 bT@h8");
    let (w, _, luma) = downscaled_luma(&png(&bombalot, None), 260);
    let (x0, x1, y0, y1) = goal_label_area(&o, sq("d9"), 260);
    let area: Vec<f32> = (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| (x, y)))
        .map(|(x, y)| luma[y * w + x])
        .collect();
    let max = area.iter().cloned().fold(f32::MIN, f32::max);
    let min = area.iter().cloned().fold(f32::MAX, f32::min);
    let label_pixels = area.iter().filter(|&&v| v > 180.0).count();
    // The label inside the goal square's corner (34 units, outlined), where a piece in
    // the goal covered it: contrast 197, 30 light pixels; beside the square on the
    // frame (32 units, no outline needed): 198 and 31.
    assert!(max - min >= 185.0, "goal label contrast {}", max - min);
    assert!(
        label_pixels >= 15,
        "goal labels: {label_pixels} light pixels"
    );
}

/// Where a Bombalot goal square's label is drawn in a picture scaled to `width` pixels
/// wide, as `(x0, x1, y0, y1)` (exclusive ends): the frame one square wide beside the
/// goal square, on the side away from the other goal of its pair, as high as the square.
fn goal_label_area(o: &RenderOptions, goal: Square, width: usize) -> (usize, usize, usize, usize) {
    let (x, y, side) = square_box(Variant::Bombalot, o, goal).unwrap();
    let partner = Square::new(7 - goal.file(), goal.rank()).unwrap();
    let (px, _, _) = square_box(Variant::Bombalot, o, partner).unwrap();
    let s = width as f32 / o.size as f32;
    let x0 = if x < px { x - side } else { x + side };
    let scaled = |v: u32| (v as f32 * s).round() as usize;
    (scaled(x0), scaled(x0 + side), scaled(y), scaled(y + side))
}

/// Bombalot's goal labels (BA-2, C-1: d9, e9, d0, e0) stay readable with pieces in the
/// goals, from both sides: they stand in the frame beside their squares, so pieces in
/// all four goals change pixels inside the goal squares only, and each label's area
/// holds light text at Discord's 260 px preview width, the same with and without them.
#[test]
fn goal_labels_stay_visible_with_pieces_in_the_goals() {
    let goals = squares("d9 e9 d0 e0");
    let empty = board(Variant::Bombalot, "wI@a1 bI@h8");
    let full = board(Variant::Bombalot, "wI@a1 bI@h8 wT@d9 wA@e9 bT@d0 bST@e0");
    for orientation in [Orientation::White, Orientation::Black] {
        let o = RenderOptions {
            orientation,
            ..RenderOptions::default()
        };
        let (a, b) = (
            render_png(&empty, None, &o).unwrap(),
            render_png(&full, None, &o).unwrap(),
        );
        // Every clear change is inside a goal square.
        let boxes: Vec<(u32, u32, u32)> = goals
            .iter()
            .map(|&g| square_box(Variant::Bombalot, &o, g).unwrap())
            .collect();
        let (w, _, pa) = rgba(&a);
        let (_, _, pb) = rgba(&b);
        let mut changed = 0usize;
        for (i, (p, q)) in pa.chunks_exact(4).zip(pb.chunks_exact(4)).enumerate() {
            if (0..3).all(|c| p[c].abs_diff(q[c]) <= 40) {
                continue;
            }
            let (x, y) = ((i % w) as u32, (i / w) as u32);
            assert!(
                boxes
                    .iter()
                    .any(|&(bx, by, side)| (bx..bx + side).contains(&x)
                        && (by..by + side).contains(&y)),
                "{orientation:?}: pixel ({x}, {y}) changed outside the goal squares"
            );
            changed += 1;
        }
        assert!(changed > 1000, "{orientation:?}: the goal pieces show");
        // Each label: light text on the frame beside its square at 260 px.
        let (lw, _, luma_a) = downscaled_luma(&a, 260);
        let (_, _, luma_b) = downscaled_luma(&b, 260);
        for &goal in &goals {
            let (x0, x1, y0, y1) = goal_label_area(&o, goal, 260);
            let area = |luma: &[f32]| -> Vec<f32> {
                (y0..y1)
                    .flat_map(|y| (x0..x1).map(move |x| (x, y)))
                    .map(|(x, y)| luma[y * lw + x])
                    .collect()
            };
            let (with, without) = (area(&luma_b), area(&luma_a));
            // The indexed palette may move a pixel by a shade, no more.
            let moved = with
                .iter()
                .zip(&without)
                .map(|(x, y)| (x - y).abs())
                .fold(0.0f32, f32::max);
            assert!(
                moved <= 8.0,
                "{orientation:?}: {goal}'s label changed by {moved}"
            );
            let light = with.iter().filter(|&&v| v > 180.0).count();
            let dark = with.iter().filter(|&&v| v < 70.0).count();
            assert!(
                light >= 15 && dark >= 100,
                "{orientation:?}: {goal}'s label: {light} light pixels on {dark} dark"
            );
        }
    }
}
