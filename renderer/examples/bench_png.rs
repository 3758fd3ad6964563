//! Times `render_png` at 640 px on the benchmark position, for `bench/compare_python.py`
//! (which runs python-chess + cairosvg on the same position in the same run).
//!
//! `bench_png position` prints the position's FEN and last move; `bench_png N` renders
//! N times and prints `median_ms=<ms> bytes=<PNG size>`.

use std::time::Instant;

use kaboom_renderer::{LastAction, RenderOptions, render_png};
use kaboom_rules::{AnyGame, GameOptions, Variant, Viewer};

fn main() {
    let mut game = AnyGame::new(Variant::Atomic, GameOptions::default()).expect("atomic");
    for token in [
        "e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "d3", "Bc5", "Nc3", "d6", "Bg5", "h6", "Bxf6",
    ] {
        game.play(None, token).expect("legal benchmark move");
    }
    let arg = std::env::args().nth(1).unwrap_or_else(|| "100".into());
    let ply = game.plies().last().expect("moves were played");
    if arg == "position" {
        println!("{}", game.fen(Viewer::Full));
        println!("{}", ply.uci);
        return;
    }
    let n: usize = arg.parse().expect("N renders");
    let board = game.board_view(Viewer::Spectator);
    let last = LastAction::from_ply(ply);
    let options = RenderOptions::default();
    let mut times = Vec::with_capacity(n);
    let mut bytes = 0;
    for _ in 0..n {
        let t = Instant::now();
        let png = render_png(&board, Some(&last), &options).expect("renders");
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        bytes = png.len();
    }
    times.sort_by(f64::total_cmp);
    println!("median_ms={:.4} bytes={bytes}", times[n / 2]);
}
