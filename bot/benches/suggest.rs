//! Benchmark (issue 7): `/move` autocomplete in the busiest Bombalot position known
//! (6,161 legal actions, `busy-super-tweke` in rules/tests/bombalot.perft), against the
//! old way of building every action's full description (`AnyGame::legal_actions`, which
//! prints every jump path and plays every action). Discord gives an autocomplete 3 s.
//!
//! Run: `cargo bench -p kaboom-bot --bench suggest`. `SUGGEST_ROUNDS` overrides the
//! number of rounds (median printed).

use std::hint::black_box;
use std::time::{Duration, Instant};

use kaboom_bot::service::suggest::suggestions;
use kaboom_rules::{AnyGame, Variant, Viewer};

const BUSY: &str = "i(m)do1m1dt/2ww1ws1/1Sw1w1w1/1D1sw3/5w2/2WW2W1/1W6/3OM1DT w ---- Ww 0 13";

fn median(rounds: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let rounds = std::env::var("SUGGEST_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(11);
    let game = AnyGame::from_fen(Variant::Bombalot, BUSY).expect("the busy position parses");
    let old = median(rounds.min(3), || {
        black_box(game.legal_actions(Viewer::White).len());
    });
    println!("old: every action's full description: {old:?}");
    // "" shows the first 25; "b6:d8" is a path typed for the super-tweke (paths printed
    // until 25 match); "b6:a1" matches no path (every jump of b6 printed: the worst
    // case); "zzz" matches nothing cheaply.
    for typed in ["", "b6", "super", "b6:d8", "b6:a1", "zzz"] {
        let t = median(rounds, || {
            black_box(suggestions(&game, Viewer::White, typed, 25).len());
        });
        println!("suggestions({typed:?}): {t:?}");
    }
    for variant in [
        Variant::Atomic,
        Variant::Nuke,
        Variant::Bomberman,
        Variant::Bombalot,
    ] {
        let mut game = AnyGame::new(variant, Default::default()).expect("start position");
        if variant == Variant::Nuke {
            let e1 = "e1".parse().expect("square");
            let d8 = "d8".parse().expect("square");
            game.designate(kaboom_rules::Color::White, &[e1])
                .expect("designation");
            game.designate(kaboom_rules::Color::Black, &[d8])
                .expect("designation");
        }
        let t = median(rounds, || {
            black_box(suggestions(&game, Viewer::White, "", 25).len());
        });
        println!("{variant:?} start, suggestions(\"\"): {t:?}");
    }
}
