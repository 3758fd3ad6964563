//! Sample post-game analysis pictures: evaluation charts (an ordinary game, a short,
//! a long, an empty, a single-point and a NaN-laden series) and boards with the better
//! move's arrow, the played move's arrow and rings (8x8 both ways up, 10x10 Bomberman
//! Chess, Bombalot), each at its natural size and downscaled to 400 px wide (what
//! Discord shows on a phone).
//!
//!     cargo run -p kaboom-renderer --example analysis_samples -- /tmp/analysis-samples

use kaboom_renderer::chart::{EvalChart, Mark, render_eval_chart_png, render_eval_chart_svg};
use kaboom_renderer::kaboom_rules::{AnyGame, GameOptions, Square, Variant, Viewer};
use kaboom_renderer::{
    Arrow, ArrowKind, LastAction, Orientation, RenderOptions, render_png, render_svg,
};

/// `svg` rasterized `width` pixels wide (scaled), as RGBA PNG bytes.
fn downscaled(svg: &str, width: u32) -> Vec<u8> {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).unwrap();
    let size = tree.size();
    let k = width as f32 / size.width();
    let height = (size.height() * k).round() as u32;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(width, height).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(k, k),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().unwrap()
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// An 83-ply game: an even opening, White pulling ahead, a blunder that hands Black
/// the game, a mate at the end (100 % for Black).
fn game_series() -> Vec<f64> {
    let mut v = Vec::new();
    for i in 0..=83usize {
        let t = i as f64;
        let w = match i {
            0..=20 => 50.0 + 6.0 * (t / 3.0).sin(),
            21..=40 => 50.0 + (t - 20.0) * 1.8,
            41..=46 => 86.0 - (t - 40.0),
            47..=60 => 22.0 + 4.0 * (t / 2.0).sin(),
            61..=80 => 30.0 - (t - 60.0) * 1.2,
            _ => 0.0,
        };
        v.push(w);
    }
    v
}

fn write_chart(dir: &str, name: &str, chart: &EvalChart<'_>) {
    let png = render_eval_chart_png(chart).unwrap();
    let svg = render_eval_chart_svg(chart);
    std::fs::write(format!("{dir}/{name}.png"), &png).unwrap();
    std::fs::write(format!("{dir}/{name}-400px.png"), downscaled(&svg, 400)).unwrap();
    println!("{dir}/{name}.png: {} bytes", png.len());
}

fn write_board(dir: &str, name: &str, game: &AnyGame, options: &RenderOptions) {
    let board = game.board_view(Viewer::Spectator);
    let last = LastAction::from_game(game, game.ply_count());
    let png = render_png(&board, last.as_ref(), options).unwrap();
    let svg = render_svg(&board, last.as_ref(), options);
    std::fs::write(format!("{dir}/{name}.png"), &png).unwrap();
    std::fs::write(format!("{dir}/{name}-400px.png"), downscaled(&svg, 400)).unwrap();
    println!("{dir}/{name}.png: {} bytes", png.len());
}

fn play(variant: Variant, carriers: Option<(&str, &str)>, movetext: &str) -> AnyGame {
    let mut game = AnyGame::new(variant, GameOptions::default()).unwrap();
    if let Some((white, black)) = carriers {
        use kaboom_renderer::kaboom_rules::Color;
        game.designate(Color::White, &[sq(white)]).unwrap();
        game.designate(Color::Black, &[sq(black)]).unwrap();
    }
    for token in kaboom_renderer::kaboom_rules::notation::movetext_actions(movetext).unwrap() {
        game.play(None, &token).unwrap();
    }
    game
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "/tmp/analysis-samples".into());
    std::fs::create_dir_all(&dir).unwrap();

    // Charts.
    let series = game_series();
    let marks = [
        (9, Mark::Inaccuracy),
        (24, Mark::Inaccuracy),
        (41, Mark::Mistake),
        (47, Mark::Blunder),
        (58, Mark::Inaccuracy),
        (66, Mark::Mistake),
    ];
    let title = "Game #12 \u{b7} Atomic \u{b7} alice (White) vs bob (Black)";
    let chart = EvalChart {
        title,
        win_percent: &series,
        marks: &marks,
        ..EvalChart::default()
    };
    write_chart(&dir, "chart-game", &chart);
    let short = [50.0, 55.0, 48.0, 60.0, 99.0, 2.0, 100.0];
    write_chart(
        &dir,
        "chart-short",
        &EvalChart {
            title: "Game #3 \u{b7} Beirut \u{b7} a (White) vs b (Black)",
            win_percent: &short,
            marks: &[(5, Mark::Blunder), (4, Mark::Mistake)],
            ..EvalChart::default()
        },
    );
    let long: Vec<f64> = (0..=300)
        .map(|i| 50.0 + 45.0 * (f64::from(i) / 23.0).sin())
        .collect();
    write_chart(
        &dir,
        "chart-long",
        &EvalChart {
            title: "Game #99 \u{b7} Bomberman Chess \u{b7} a player with a very long name indeed (White) vs another player with a long name (Black)",
            win_percent: &long,
            marks: &[
                (100, Mark::Blunder),
                (280, Mark::Inaccuracy),
                (999, Mark::Blunder),
            ],
            ..EvalChart::default()
        },
    );
    write_chart(&dir, "chart-empty", &EvalChart::default());
    write_chart(
        &dir,
        "chart-single",
        &EvalChart {
            title: "Single point",
            win_percent: &[72.0],
            marks: &[(0, Mark::Mistake)],
            ..EvalChart::default()
        },
    );
    let nan = [
        50.0,
        f64::NAN,
        140.0,
        -20.0,
        f64::INFINITY,
        50.0,
        f64::NAN,
        30.0,
    ];
    write_chart(
        &dir,
        "chart-nan",
        &EvalChart {
            title: "NaN and out of range",
            win_percent: &nan,
            marks: &[(2, Mark::Inaccuracy), (3, Mark::Blunder)],
            width: 400,
        },
    );

    // Boards with arrows.
    let atomic = play(
        Variant::Atomic,
        None,
        "1. e4 d5 2. Nf3 Nc6 3. Bb5 Bg4 4. d4",
    );
    let arrows = vec![
        Arrow::new(sq("d5"), sq("e4"), ArrowKind::Played),
        Arrow::new(sq("g4"), sq("f3"), ArrowKind::Better),
    ];
    for (name, orientation) in [
        ("board-atomic-white", Orientation::White),
        ("board-atomic-black", Orientation::Black),
    ] {
        let options = RenderOptions {
            orientation,
            arrows: arrows.clone(),
            ..RenderOptions::default()
        };
        write_board(&dir, name, &atomic, &options);
    }
    // A knight's arrow and a long diagonal.
    let options = RenderOptions {
        arrows: vec![
            Arrow::new(sq("c6"), sq("d4"), ArrowKind::Better),
            Arrow::new(sq("b5"), sq("e8"), ArrowKind::Played),
        ],
        ..RenderOptions::default()
    };
    write_board(&dir, "board-atomic-knight", &atomic, &options);
    // Beirut: the better action is a Boom (a ring).
    let beirut = play(
        Variant::Beirut,
        Some(("b1", "d8")),
        "1. e4 e5 2. Nc3 Nc6 3. Nd5 Nf6",
    );
    let options = RenderOptions {
        arrows: vec![
            Arrow::new(sq("f6"), sq("d5"), ArrowKind::Played),
            Arrow::ring(sq("d5"), ArrowKind::Better),
        ],
        ..RenderOptions::default()
    };
    write_board(&dir, "board-beirut-boom", &beirut, &options);
    // 10x10 boards.
    let bomberman = play(Variant::Bomberman, None, "");
    let options = RenderOptions {
        arrows: vec![
            Arrow::new(sq("e2"), sq("e4"), ArrowKind::Played),
            Arrow::new(sq("g1"), sq("f3"), ArrowKind::Better),
        ],
        ..RenderOptions::default()
    };
    write_board(&dir, "board-bomberman", &bomberman, &options);
    let options = RenderOptions {
        orientation: Orientation::Black,
        ..options
    };
    write_board(&dir, "board-bomberman-black", &bomberman, &options);
    let bombalot = play(Variant::Bombalot, None, "");
    let options = RenderOptions {
        arrows: vec![
            Arrow::ring(sq("c3"), ArrowKind::Better),
            Arrow::new(sq("a2"), sq("a4"), ArrowKind::Played),
        ],
        ..RenderOptions::default()
    };
    write_board(&dir, "board-bombalot", &bombalot, &options);
}
