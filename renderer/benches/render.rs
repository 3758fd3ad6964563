//! Render benchmark (criterion): a 640 px board, SVG build + rasterize + PNG encode.
//! Targets: median at most 5 ms per PNG, at most 40 KB per PNG. Results are
//! recorded in docs/PERFORMANCE.md. Run: `cargo bench -p kaboom-renderer --bench render`.

use criterion::{Criterion, criterion_group, criterion_main};
use kaboom_renderer::{LastAction, RenderOptions, render_png, render_svg, svg_to_png};
use kaboom_rules::{AnyGame, BoardView, GameOptions, Variant, Viewer};

/// The benchmark position: a real Atomic middle game right after a capture (blast
/// marks, from/to highlight), 27 pieces on the board.
pub fn midgame() -> (BoardView, Option<LastAction>) {
    let mut game = AnyGame::new(Variant::Atomic, GameOptions::default()).expect("atomic");
    for token in [
        "e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "d3", "Bc5", "Nc3", "d6", "Bg5", "h6", "Bxf6",
    ] {
        game.play(None, token).expect("legal benchmark move");
    }
    let last = game.plies().last().map(LastAction::from_ply);
    (game.board_view(Viewer::Spectator), last)
}

fn bench(c: &mut Criterion) {
    let (board, last) = midgame();
    let options = RenderOptions::default();
    let png = render_png(&board, last.as_ref(), &options).expect("renders");
    eprintln!("midgame PNG at 640 px: {} bytes", png.len());
    c.bench_function("png_640_atomic_midgame", |b| {
        b.iter(|| render_png(&board, last.as_ref(), &options).expect("renders"))
    });
    c.bench_function("svg_640_atomic_midgame", |b| {
        b.iter(|| render_svg(&board, last.as_ref(), &options))
    });
    let svg = render_svg(&board, last.as_ref(), &options);
    c.bench_function("rasterize_encode_640_atomic_midgame", |b| {
        b.iter(|| svg_to_png(&svg).expect("renders"))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(60);
    targets = bench
}
criterion_main!(benches);
