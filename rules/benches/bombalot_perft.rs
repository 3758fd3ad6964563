//! Bombalot speed figures (recorded in docs/PERFORMANCE.md): perft of the start
//! position, legal-action generation in a busy middle-game position, and printing the
//! canonical notation (with BA-17's shortest jump paths) of every action there.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use kaboom_rules::Position;
use kaboom_rules::bombalot::Bombalot;

/// A position reached in a random game where a super-tweke has thousands of capturing
/// jump actions (one per landing square and set of removed pieces, BA-17).
const BUSY: &str = "i(m)do1m1dt/2ww1ws1/1Sw1w1w1/1D1sw3/5w2/2WW2W1/1W6/3OM1DT w ---- Ww 0 13";

fn benches(c: &mut Criterion) {
    let start = Bombalot::start_position();
    let mut group = c.benchmark_group("bombalot");
    group.sample_size(10);
    for depth in [1, 2, 3] {
        group.bench_function(format!("perft_start_depth_{depth}"), |b| {
            b.iter(|| black_box(start.perft(depth)))
        });
    }
    let busy = Bombalot::from_fen(BUSY).expect("the busy position parses");
    group.bench_function("legal_actions_busy", |b| {
        b.iter(|| black_box(busy.legal_actions().len()))
    });
    let legal = busy.legal_actions();
    group.bench_function("san_all_busy", |b| {
        b.iter(|| legal.iter().map(|a| busy.san(a).len()).sum::<usize>())
    });
    group.finish();
}

criterion_group!(bombalot, benches);
criterion_main!(bombalot);
