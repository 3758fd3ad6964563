//! Post-game analysis pictures, compared as views (decoded pixels, not bytes): the
//! evaluation chart (size, the sides' colours above and below the midline, the marks'
//! dots, bad input) and arrows on boards (colour along the path, orientation, rings,
//! 10-file boards, squares off the board, no arrows by default).

use crate::common::*;
use kaboom_renderer::chart::{
    EvalChart, Mark, eval_chart_point, eval_chart_size, render_eval_chart_png,
    render_eval_chart_svg,
};
use kaboom_renderer::{
    ARROW_OPACITY, Arrow, ArrowKind, Orientation, RenderOptions, render_png, render_svg, square_box,
};
use kaboom_rules::{BoardView, Variant};

fn pixel(img: &(u32, u32, Vec<u8>), (x, y): (f32, f32)) -> [u8; 3] {
    let (x, y) = (x.round() as u32, y.round() as u32);
    assert!(
        x < img.0 && y < img.1,
        "({x}, {y}) outside {}x{}",
        img.0,
        img.1
    );
    let i = ((y * img.0 + x) * 3) as usize;
    [img.2[i], img.2[i + 1], img.2[i + 2]]
}

fn hex(colour: &str) -> [u8; 3] {
    let v = u32::from_str_radix(colour.trim_start_matches('#'), 16).unwrap();
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

/// Whether `a` and `b` differ by at most `tol` in every channel.
fn near(a: [u8; 3], b: [u8; 3], tol: u8) -> bool {
    a.iter().zip(&b).all(|(x, y)| x.abs_diff(*y) <= tol)
}

fn luma(c: [u8; 3]) -> f32 {
    0.299 * f32::from(c[0]) + 0.587 * f32::from(c[1]) + 0.114 * f32::from(c[2])
}

/// 41 values: White far ahead for plies 4..=16, Black far ahead for plies 24..=36.
fn swinging() -> Vec<f64> {
    (0..=40)
        .map(|i| match i {
            4..=16 => 90.0,
            24..=36 => 8.0,
            _ => 50.0,
        })
        .collect()
}

#[test]
fn chart_has_the_requested_size() {
    let wins = swinging();
    for (width, expected) in [
        (800, (800, 300)),
        (400, (400, 150)),
        (1000, (1000, 375)),
        (10, (240, 90)),
        (100_000, (2400, 900)),
    ] {
        let chart = EvalChart {
            title: "Game #1 \u{b7} Atomic",
            win_percent: &wins,
            width,
            ..EvalChart::default()
        };
        assert_eq!(eval_chart_size(&chart), expected);
        let img = decode(&render_eval_chart_png(&chart).unwrap());
        assert_eq!((img.0, img.1), expected, "width {width}");
    }
    assert_eq!(eval_chart_size(&EvalChart::default()), (800, 300));
}

/// Above the midline during White's stretch the plot is White's light colour; below
/// it during Black's stretch it is Black's dark colour; and the other way round the
/// other half of the plot (above the midline in Black's stretch is dark, below it in
/// White's stretch light, as the area rises from the bottom).
#[test]
fn chart_colours_each_sides_advantage() {
    let wins = swinging();
    for width in [800, 400] {
        let chart = EvalChart {
            win_percent: &wins,
            width,
            ..EvalChart::default()
        };
        let img = decode(&render_eval_chart_png(&chart).unwrap());
        let white_side = pixel(&img, eval_chart_point(&chart, 10.0, 70.0));
        let black_side = pixel(&img, eval_chart_point(&chart, 30.0, 30.0));
        assert!(luma(white_side) > 220.0, "{white_side:?} at {width}");
        assert!(luma(black_side) < 90.0, "{black_side:?} at {width}");
        assert!(luma(pixel(&img, eval_chart_point(&chart, 30.0, 70.0))) < 90.0);
        assert!(luma(pixel(&img, eval_chart_point(&chart, 10.0, 30.0))) > 220.0);
        // Near the curve's value: just below it is light, just above it dark.
        assert!(luma(pixel(&img, eval_chart_point(&chart, 10.0, 85.0))) > 220.0);
        assert!(luma(pixel(&img, eval_chart_point(&chart, 10.0, 95.0))) < 90.0);
        assert!(luma(pixel(&img, eval_chart_point(&chart, 30.0, 4.0))) > 220.0);
        assert!(luma(pixel(&img, eval_chart_point(&chart, 30.0, 12.0))) < 90.0);
    }
}

#[test]
fn marked_plies_get_dots_in_their_colours() {
    let wins = swinging();
    let marks = [
        (24, Mark::Blunder),
        (17, Mark::Mistake),
        (2, Mark::Inaccuracy),
        (500, Mark::Blunder),
    ];
    let chart = EvalChart {
        title: "Marks",
        win_percent: &wins,
        marks: &marks,
        ..EvalChart::default()
    };
    let with = decode(&render_eval_chart_png(&chart).unwrap());
    let without = decode(
        &render_eval_chart_png(&EvalChart {
            marks: &[],
            ..chart
        })
        .unwrap(),
    );
    for &(ply, mark) in &marks[..3] {
        let at = eval_chart_point(&chart, ply as f64, wins[ply]);
        let colour = pixel(&with, at);
        assert!(
            near(colour, hex(mark.colour()), 6),
            "{mark:?} on ply {ply}: {colour:?}"
        );
        assert!(!near(pixel(&without, at), hex(mark.colour()), 40));
    }
    // The three marks' colours are far apart (and each differs from both sides').
    let colours: Vec<[u8; 3]> = Mark::ALL.iter().map(|m| hex(m.colour())).collect();
    for (i, a) in colours.iter().enumerate() {
        for b in &colours[i + 1..] {
            assert!(!near(*a, *b, 60), "{a:?} {b:?}");
        }
    }
    assert_eq!(
        Mark::ALL.map(Mark::symbol),
        ["?!", "?", "??"],
        "lichess's symbols"
    );
}

/// Empty, single-point and out-of-range series render at the full size, with no panic.
#[test]
fn bad_series_still_render() {
    let nan = [
        f64::NAN,
        250.0,
        -40.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ];
    let long: Vec<f64> = (0..2000).map(|i| f64::from(i % 101)).collect();
    let series: [&[f64]; 5] = [&[], &[72.0], &[f64::NAN], &nan, &long];
    for wins in series {
        let chart = EvalChart {
            title: "a title far too long for the strip, with <markup> & \"quotes\" in it, \
                    going on and on past the edge of the picture",
            win_percent: wins,
            marks: &[
                (0, Mark::Blunder),
                (1, Mark::Mistake),
                (usize::MAX, Mark::Blunder),
            ],
            ..EvalChart::default()
        };
        let img = decode(&render_eval_chart_png(&chart).unwrap());
        assert_eq!((img.0, img.1), (800, 300), "{} values", wins.len());
        assert!(render_eval_chart_svg(&chart).contains("&lt;markup&gt;"));
    }
    // An empty series is a flat 50 %: light under the midline, dark above.
    let chart = EvalChart::default();
    let img = decode(&render_eval_chart_png(&chart).unwrap());
    assert!(luma(pixel(&img, eval_chart_point(&chart, 0.5, 30.0))) > 220.0);
    assert!(luma(pixel(&img, eval_chart_point(&chart, 0.5, 70.0))) < 90.0);
    // A single value spans the plot.
    let chart = EvalChart {
        win_percent: &[80.0],
        ..EvalChart::default()
    };
    let img = decode(&render_eval_chart_png(&chart).unwrap());
    for t in [0.02, 0.5, 0.98] {
        assert!(luma(pixel(&img, eval_chart_point(&chart, t, 70.0))) > 220.0);
        assert!(luma(pixel(&img, eval_chart_point(&chart, t, 90.0))) < 90.0);
    }
}

#[test]
fn chart_is_deterministic() {
    let wins = swinging();
    let chart = EvalChart {
        title: "Game #12 \u{b7} Atomic \u{b7} alice (White) vs bob (Black)",
        win_percent: &wins,
        marks: &[(5, Mark::Inaccuracy)],
        ..EvalChart::default()
    };
    assert_eq!(
        render_eval_chart_png(&chart).unwrap(),
        render_eval_chart_png(&chart).unwrap()
    );
}

// Arrows on boards.

/// The expected colour of an arrow of `kind` drawn over `under`.
fn blended(kind: ArrowKind, under: [u8; 3]) -> [u8; 3] {
    let c = hex(kind.colour());
    let a = ARROW_OPACITY;
    std::array::from_fn(|i| (f32::from(c[i]) * a + f32::from(under[i]) * (1.0 - a)).round() as u8)
}

/// Centre of `square` in pixels plus (`dx`, `dy`) square sides.
fn at(variant: Variant, o: &RenderOptions, square: &str, dx: f32, dy: f32) -> (f32, f32) {
    let (x, y, side) = square_box(variant, o, sq(square)).unwrap();
    let s = side as f32;
    (x as f32 + s * (0.5 + dx), y as f32 + s * (0.5 + dy))
}

fn empty_board(variant: Variant) -> BoardView {
    board(variant, "")
}

fn png(b: &BoardView, o: &RenderOptions) -> (u32, u32, Vec<u8>) {
    decode(&render_png(b, None, o).unwrap())
}

/// A pixel on the arrow's path halfway between its squares has the arrow's colour
/// (blended at [`ARROW_OPACITY`] over the square), and the same board without arrows
/// has the square's own colour there; the head is drawn near the target square.
#[test]
fn arrow_colours_its_path() {
    let variant = Variant::Atomic;
    let plain = RenderOptions::default();
    for kind in [ArrowKind::Better, ArrowKind::Played] {
        let o = RenderOptions {
            arrows: vec![Arrow::new(sq("b1"), sq("b5"), kind)],
            ..RenderOptions::default()
        };
        let b = empty_board(variant);
        let with = png(&b, &o);
        let without = png(&b, &plain);
        // b3 is halfway; its centre is on the shaft.
        let mid = at(variant, &o, "b3", 0.0, 0.0);
        let under = pixel(&without, mid);
        assert!(
            near(pixel(&with, mid), blended(kind, under), 8),
            "{kind:?}: {:?} vs {:?}",
            pixel(&with, mid),
            blended(kind, under)
        );
        assert!(!near(under, blended(kind, under), 30));
        // The head is wider than the shaft: a pixel beside the path just before b5's
        // centre.
        let head = at(variant, &o, "b5", 0.15, 0.48);
        assert!(near(
            pixel(&with, head),
            blended(kind, pixel(&without, head)),
            8
        ));
        let beside = at(variant, &o, "b3", 0.2, 0.0);
        assert_eq!(pixel(&with, beside), pixel(&without, beside));
        // Past the tip nothing changed.
        let past = at(variant, &o, "b6", 0.0, 0.0);
        assert_eq!(pixel(&with, past), pixel(&without, past));
    }
}

/// A flipped board puts the arrow on the mirrored squares: the pixels of a1 -> a4 seen
/// from Black are those of h8 -> h5 seen from White.
#[test]
fn arrows_follow_the_orientation() {
    let variant = Variant::Atomic;
    let b = empty_board(variant);
    let arrows = vec![Arrow::new(sq("a1"), sq("a4"), ArrowKind::Better)];
    let white = RenderOptions {
        arrows: arrows.clone(),
        ..RenderOptions::default()
    };
    let black = RenderOptions {
        orientation: Orientation::Black,
        arrows,
        ..RenderOptions::default()
    };
    let (w, b_img) = (png(&b, &white), png(&b, &black));
    let plain_w = png(&b, &RenderOptions::default());
    let plain_b = png(
        &b,
        &RenderOptions {
            orientation: Orientation::Black,
            ..RenderOptions::default()
        },
    );
    let green = |img: &(u32, u32, Vec<u8>), plain: &(u32, u32, Vec<u8>), p: (f32, f32)| {
        near(
            pixel(img, p),
            blended(ArrowKind::Better, pixel(plain, p)),
            8,
        )
    };
    // From White: on a2 (between a1 and a4), bottom left.
    assert!(green(&w, &plain_w, at(variant, &white, "a2", 0.0, 0.0)));
    // From Black: on a2 too, which is now at the top right...
    let a2_black = at(variant, &black, "a2", 0.0, 0.0);
    assert!(green(&b_img, &plain_b, a2_black));
    // ... where White's view has h7, which the arrow does not touch from White.
    assert_eq!(a2_black, at(variant, &white, "h7", 0.0, 0.0));
    assert!(!green(&w, &plain_w, a2_black));
    // And the bottom left (a2 from White) is untouched from Black.
    let a2_white = at(variant, &white, "a2", 0.0, 0.0);
    assert_eq!(pixel(&b_img, a2_white), pixel(&plain_b, a2_white));
}

/// `from == to` draws a ring round the square: the ring's pixels have the colour, the
/// centre of the (empty) square does not.
#[test]
fn an_arrow_to_its_own_square_is_a_ring() {
    for (variant, square) in [
        (Variant::Beirut, "e5"),
        (Variant::Bomberman, "j8"),
        (Variant::Bombalot, "c3"),
    ] {
        let b = empty_board(variant);
        for orientation in [Orientation::White, Orientation::Black] {
            let o = RenderOptions {
                orientation,
                arrows: vec![Arrow::ring(sq(square), ArrowKind::Better)],
                ..RenderOptions::default()
            };
            let plain = RenderOptions {
                arrows: Vec::new(),
                ..o.clone()
            };
            let (with, without) = (png(&b, &o), png(&b, &plain));
            for (dx, dy) in [(0.42, 0.0), (-0.42, 0.0), (0.0, 0.42), (0.0, -0.42)] {
                let p = at(variant, &o, square, dx, dy);
                assert!(
                    near(
                        pixel(&with, p),
                        blended(ArrowKind::Better, pixel(&without, p)),
                        10
                    ),
                    "{variant:?} {orientation:?} ({dx}, {dy})"
                );
            }
            let centre = at(variant, &o, square, 0.0, 0.0);
            assert_eq!(pixel(&with, centre), pixel(&without, centre));
        }
    }
}

/// 10-file boards (Bomberman Chess) scale the arrow with their smaller squares; the
/// arrow is drawn above the pieces.
#[test]
fn arrows_on_ten_files_and_over_pieces() {
    let variant = Variant::Bomberman;
    let b = board(variant, "wR@j1 wN@g1 bK@f8");
    let o = RenderOptions {
        size: 480,
        arrows: vec![Arrow::new(sq("g1"), sq("j4"), ArrowKind::Played)],
        ..RenderOptions::default()
    };
    let plain = RenderOptions {
        arrows: Vec::new(),
        ..o.clone()
    };
    let (with, without) = (png(&b, &o), png(&b, &plain));
    // h2 lies on the path g1 -> j4 (one step along the diagonal).
    let p = at(variant, &o, "h2", 0.0, 0.0);
    assert!(near(
        pixel(&with, p),
        blended(ArrowKind::Played, pixel(&without, p)),
        8
    ));
    // Over the knight on g1, a little along the path: changed, and reddish.
    let over = at(variant, &o, "g1", 0.2, -0.2);
    let c = pixel(&with, over);
    assert_ne!(c, pixel(&without, over));
    assert!(c[0] > c[1] + 60, "{c:?}");
}

/// No arrows by default; arrows with a square off the variant's board are left out.
#[test]
fn default_has_no_arrows_and_off_board_arrows_are_skipped() {
    assert!(RenderOptions::default().arrows.is_empty());
    let b = empty_board(Variant::Atomic);
    let plain = render_svg(&b, None, &RenderOptions::default());
    let off = RenderOptions {
        arrows: vec![
            Arrow::new(sq("a1"), sq("j1"), ArrowKind::Better),
            Arrow::ring(sq("i5"), ArrowKind::Played),
            Arrow::new(sq("d0"), sq("d2"), ArrowKind::Better),
        ],
        ..RenderOptions::default()
    };
    assert_eq!(render_svg(&b, None, &off), plain);
    assert!(square_box(Variant::Atomic, &off, sq("j1")).is_none());
    assert!(square_box(Variant::Bombalot, &off, sq("d0")).is_some());
}
