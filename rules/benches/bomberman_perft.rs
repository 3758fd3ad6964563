//! Bomberman Chess perft and move generation speed (figures in docs/PERFORMANCE.md).
//!
//! Run with `cargo bench -p kaboom-rules --bench bomberman_perft`.

use criterion::{Criterion, criterion_group, criterion_main};
use kaboom_rules::Position;
use kaboom_rules::bomberman::{Bomberman, START_FEN};
use std::hint::black_box;

/// The seed's first sample game after 25. Oxa1 (many bombs and open lines).
const MIDGAME: &str = "1r1b5o/o1pp3Pkp/10/pp1PD5/10/2P4OP1/1P5P1P/7K2 b - - 0 25";

fn perft(c: &mut Criterion) {
    let start = Bomberman::from_fen(START_FEN).unwrap();
    let midgame = Bomberman::from_fen(MIDGAME).unwrap();
    let mut group = c.benchmark_group("bomberman_perft");
    group.sample_size(10);
    group.bench_function("start_depth_3", |b| b.iter(|| black_box(&start).perft(3)));
    group.bench_function("start_depth_4", |b| b.iter(|| black_box(&start).perft(4)));
    group.bench_function("midgame_depth_3", |b| {
        b.iter(|| black_box(&midgame).perft(3))
    });
    group.finish();
    c.bench_function("bomberman_legal_actions_midgame", |b| {
        b.iter(|| black_box(&midgame).legal_actions())
    });
}

criterion_group!(benches, perft);
criterion_main!(benches);
