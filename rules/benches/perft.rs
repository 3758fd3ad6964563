//! Perft benchmarks: nodes per second of the legal-action generators, bulk
//! counted at the last ply. Results and the comparison with shakmaty are recorded in
//! docs/PERFORMANCE.md. Run: `cargo bench -p kaboom-rules --bench perft`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kaboom_rules::Position;
use kaboom_rules::atomic::Atomic;

fn atomic(c: &mut Criterion) {
    let mut group = c.benchmark_group("atomic-perft");
    group.sample_size(10);
    for (name, fen, depth) in [
        (
            "start-d4",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            4,
        ),
        (
            "programfox-1-d4",
            "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1",
            4,
        ),
    ] {
        let pos = Atomic::from_fen(fen).expect("benchmark FEN parses");
        group.throughput(Throughput::Elements(pos.perft(depth)));
        group.bench_function(name, |b| b.iter(|| pos.perft(depth)));
    }
    group.finish();
}

criterion_group!(benches, atomic);
criterion_main!(benches);
