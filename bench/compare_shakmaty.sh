#!/usr/bin/env bash
# Side-by-side Atomic perft: shakmaty 0.30.1 (feature `variant`) against kaboom-rules, in
# one process, interleaved (the two engines take turns going first, round after round),
# best of N rounds per engine and position, each bulk counted at the last ply (shakmaty's
# own `shakmaty::perft`; ours `Position::perft`, `count_legal` at the last ply). Prints
# nodes, Mnps and the ratio kaboom / shakmaty, with the load average before and after.
#
# shakmaty is GPL: it is never a dependency of this repository. This script writes a
# throwaway cargo project under /tmp that depends on `shakmaty = "=0.30.1"` and on
# kaboom-rules by path, builds it (release, same profile for both crates) and runs it.
#
# Usage (from anywhere): bench/compare_shakmaty.sh [ROUNDS]   (default 5)
#   DEPTH=4 bench/compare_shakmaty.sh 3     a quicker look
# The throwaway build goes to $CARGO_TARGET_DIR when set, else to the project's own target/.
set -euo pipefail
rounds="${1:-5}"
depth="${DEPTH:-5}"
rules="$(cd "$(dirname "$0")/../rules" && pwd)"
dir="${COMPARE_DIR:-/tmp/kaboom-vs-shakmaty}"
mkdir -p "$dir/src"
cat >"$dir/Cargo.toml" <<TOML
[package]
name = "kaboom-vs-shakmaty"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
shakmaty = { version = "=0.30.1", features = ["variant"] }
kaboom-rules = { path = "$rules" }

[profile.release]
debug = "line-tables-only"

[workspace]
TOML
cat >"$dir/src/main.rs" <<'RUST'
use std::time::Instant;

use kaboom_rules::Position as _;
use shakmaty::{CastlingMode, fen::Fen, variant::Atomic};

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: u32 = args.next().map_or(5, |a| a.parse().expect("rounds"));
    let depth: u32 = args.next().map_or(5, |a| a.parse().expect("depth"));
    let positions = [
        ("start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        (
            "programfox-1",
            "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1",
        ),
    ];
    for (name, fen) in positions {
        let theirs: Atomic = fen
            .parse::<Fen>()
            .expect("FEN")
            .into_position(CastlingMode::Standard)
            .expect("shakmaty position");
        let ours = kaboom_rules::atomic::Atomic::from_fen(fen).expect("kaboom position");
        let (mut best_theirs, mut best_ours) = (f64::MAX, f64::MAX);
        let mut nodes = 0;
        for round in 1..=rounds {
            let time_theirs = || {
                let t = Instant::now();
                (shakmaty::perft(&theirs, depth), t.elapsed().as_secs_f64())
            };
            let time_ours = || {
                let t = Instant::now();
                (ours.perft(depth), t.elapsed().as_secs_f64())
            };
            // Alternate which engine goes first, so neither always gets the warmer turn.
            let ((n_theirs, s_theirs), (n_ours, s_ours)) = if round % 2 == 1 {
                let theirs = time_theirs();
                (theirs, time_ours())
            } else {
                let ours = time_ours();
                (time_theirs(), ours)
            };
            assert_eq!(n_theirs, n_ours, "{name}: node counts differ");
            nodes = n_ours;
            println!(
                "  {name} d{depth} round {round}: shakmaty {:.1} Mnps, kaboom {:.1} Mnps, ratio {:.2}",
                n_theirs as f64 / s_theirs / 1e6,
                n_ours as f64 / s_ours / 1e6,
                s_theirs / s_ours,
            );
            best_theirs = best_theirs.min(s_theirs);
            best_ours = best_ours.min(s_ours);
        }
        println!(
            "{name} d{depth}: {nodes} nodes, best of {rounds}: shakmaty {:.1} Mnps, kaboom {:.1} Mnps, ratio {:.2}",
            nodes as f64 / best_theirs / 1e6,
            nodes as f64 / best_ours / 1e6,
            best_theirs / best_ours,
        );
    }
}
RUST
(cd "$dir" && cargo build --release --quiet)
bin="${CARGO_TARGET_DIR:-$dir/target}/release/kaboom-vs-shakmaty"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)  ($(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs))"
"$bin" "$rounds" "$depth"
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
