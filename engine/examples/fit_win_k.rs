//! Fits the win-percent constant `k` of the post-game review
//! (`kaboom_engine::review::win_percent_k`) to the engine's own evaluation, per variant, as
//! lichess fitted its constant to Stockfish's centipawns (lila pull request 11148).
//!
//! ```text
//! cargo run --release -p kaboom-engine --example fit_win_k -- [GAMES] [--seed S]
//!     [--variants a,b] [--level L] [--nodes N] [--skip P] [--every E] [--bootstrap B]
//!     [--samples FILE]
//! ```
//!
//! For each variant it plays `GAMES` engine-against-engine games with the arena
//! (`kaboom_engine::arena::play`): both sides at level `L` (default 3), the first four plies
//! random (seeded by the seed, the variant and the game's number, so a run of some
//! `--variants` plays the same games as a run of all) so games differ, drawn
//! after 300 plies as the strength matches are. Every `E`-th position (default 3, so that
//! both sides are to move in turn; neighbouring positions say much the same) of a game from
//! ply `P` (default 8) on is then searched as the review searches it: `kaboom_engine::analyse` with
//! `Viewer::Full`, the game's earlier positions known for repetition, and a fixed node budget
//! (`N`, default 20,000, a fifth of it in Bomberman Chess and Bombalot, whose positions cost
//! five times as much, as the levels scale). A centipawn score, clamped to ±1000 as the
//! review's win percent clamps it, is paired with the game's final points for the side to
//! move (1, ½ or 0); forced wins and losses are skipped (the review scores them at the
//! ceiling whatever `k` is).
//!
//! The model is the review's: the expected score of the side to move is
//! `win% / 100 = 1 / (1 + e^(−k·cp))`. `k` maximises the log-likelihood
//! `Σ s·ln p + (1 − s)·ln(1 − p)` (a draw counts half a win and half a loss), concave in
//! `k`, found by golden-section search over [0.0005, 0.05]. Printed per variant: `k`, the
//! games (wins, draws, losses for White, games cut at 300 plies), the positions, the
//! log-likelihood per position at the fitted `k` and at lichess's 0.00368208, a 95%
//! interval for `k` from a bootstrap over games (`B` resamples, default 1000; positions of
//! one game are far from independent, so games are resampled whole) and, for comparison,
//! the likelihood-ratio interval that treats positions as independent (narrower), and a
//! calibration table (mean points against the model's expectation per band of
//! centipawns). The whole run is deterministic for a seed (default 20261124): node budgets,
//! seeded openings, a seeded bootstrap.
//!
//! `--samples FILE` also writes every sample (variant, game, ply, centipawns, points) as
//! tab-separated lines, to refit without replaying.

#[path = "../tools/cli.rs"]
mod cli;
use cli::{flag, load};
use std::io::Write;
use std::time::Instant;

use kaboom_engine::arena::{GameResult, Player, play};
use kaboom_engine::review::{CP_CEILING, LICHESS_WIN_PERCENT_K, win_percent_k};
use kaboom_engine::{Level, Limits, Score, Viewer, analyse};
use kaboom_rules::{AnyGame, GameOptions, Variant};

/// lichess's constant (`WinPercent.MULTIPLIER`), the reference.
const LICHESS_K: f64 = LICHESS_WIN_PERCENT_K;
/// The search range of `k`.
const K_RANGE: (f64, f64) = (0.0005, 0.05);
/// Random plies at the start of each game, for varied openings.
const RANDOM_PLIES: usize = 4;
/// A game still running after this many plies is drawn (as in the strength matches).
const MAX_PLIES: usize = 300;

/// One evaluated position: its game, its centipawns (side to move, clamped) and that side's
/// final points.
#[derive(Copy, Clone)]
struct Sample {
    game: usize,
    cp: f64,
    points: f64,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: usize = args
        .first()
        .filter(|a| !a.starts_with("--"))
        .map_or(40, |a| {
            a.parse().expect("GAMES: a number of games per variant")
        });
    let seed: u64 = flag(&args, "--seed").map_or(20_261_124, |v| v.parse().expect("--seed S"));
    let variants: Vec<Variant> = flag(&args, "--variants").map_or(Variant::ALL.to_vec(), |v| {
        v.split(',').map(|s| s.parse().expect("variant")).collect()
    });
    let level: Level = flag(&args, "--level").map_or(Level::Three, |v| v.parse().expect("level"));
    let nodes: u64 = flag(&args, "--nodes").map_or(20_000, |v| v.parse().expect("--nodes N"));
    let skip: usize = flag(&args, "--skip").map_or(8, |v| v.parse().expect("--skip P"));
    let every: usize = flag(&args, "--every").map_or(3, |v| v.parse().expect("--every E"));
    assert!(every > 0, "--every E: at least 1");
    let resamples: usize =
        flag(&args, "--bootstrap").map_or(1000, |v| v.parse().expect("--bootstrap B"));
    let mut samples_file = flag(&args, "--samples")
        .map(|p| std::fs::File::create(&p).unwrap_or_else(|e| panic!("{p}: {e}")));
    println!(
        "# fit_win_k: {games} games per variant, level {level} self-play, {nodes} nodes per \
         position (a fifth in 10x10), every {every} plies from ply {skip}, seed {seed}, {resamples} bootstrap \
         resamples; load before: {}",
        load()
    );
    let started_all = Instant::now();
    let mut rows = Vec::new();
    for &variant in &variants {
        // The variant's place in `Variant::ALL`, not in `--variants`: a run of some variants
        // plays the same games as the full run.
        let vi = Variant::ALL
            .iter()
            .position(|&v| v == variant)
            .expect("a variant");
        let started = Instant::now();
        let budget = match variant {
            Variant::Atomic | Variant::Beirut | Variant::Nuke => nodes,
            Variant::Bomberman | Variant::Bombalot => nodes / 5,
        };
        let mut samples = Vec::new();
        let (mut white, mut draws, mut black, mut capped) = (0, 0, 0, 0);
        for g in 0..games {
            let game_seed = seed
                .wrapping_mul(1_000_003)
                .wrapping_add((vi as u64) << 32)
                .wrapping_add(g as u64);
            let arena = play(
                variant,
                Player::Engine(level),
                Player::Engine(level),
                game_seed,
                RANDOM_PLIES,
                MAX_PLIES,
            );
            match arena.result {
                GameResult::WhiteWins => white += 1,
                GameResult::BlackWins => black += 1,
                GameResult::Draw => draws += 1,
            }
            let mut game = AnyGame::new(variant, GameOptions::default()).expect("options");
            for (color, squares) in &arena.designations {
                game.designate(*color, squares)
                    .expect("the arena's carriers");
            }
            for (ply, text) in arena.plies.iter().enumerate() {
                if ply >= skip && (ply - skip).is_multiple_of(every) {
                    let found =
                        analyse(&game, Viewer::Full, Limits::nodes(budget)).expect("playable");
                    if let Score::Centipawns { value } = found.score {
                        let cp = value.clamp(-CP_CEILING, CP_CEILING);
                        let points = arena.result.points(game.turn());
                        samples.push(Sample {
                            game: g,
                            cp: f64::from(cp),
                            points,
                        });
                        if let Some(file) = samples_file.as_mut() {
                            file.write_all(
                                format!("{variant:?}\t{g}\t{ply}\t{cp}\t{points}\n").as_bytes(),
                            )
                            .expect("samples file");
                        }
                    }
                }
                game.play(None, text).expect("the arena's plies replay");
            }
            if !game.status().is_finished() {
                capped += 1;
            }
        }
        let k = fit(&samples);
        let n = samples.len() as f64;
        let (ll_k, ll_lichess) = (
            log_likelihood(&samples, k),
            log_likelihood(&samples, LICHESS_K),
        );
        let (boot_low, boot_high) = bootstrap(&samples, games, resamples, seed ^ vi as u64);
        let (lr_low, lr_high) = likelihood_ratio_interval(&samples, k);
        println!(
            "{variant:?}: k = {k:.6} (bootstrap 95%: {boot_low:.6}..{boot_high:.6}; \
             likelihood-ratio 95%: {lr_low:.6}..{lr_high:.6}); {games} games (White +{white} \
             ={draws} -{black}, {capped} cut at {MAX_PLIES} plies), {} positions; \
             log-likelihood per position {:.5} at k, {:.5} at lichess's {LICHESS_K} \
             (total {ll_k:.1} vs {ll_lichess:.1}); k now in win_percent_k: {}; {:.0?}",
            samples.len(),
            ll_k / n,
            ll_lichess / n,
            win_percent_k(variant),
            started.elapsed(),
        );
        calibration(&samples, k);
        rows.push(format!(
            "| {variant} | {k:.5} | {boot_low:.5} – {boot_high:.5} | {games} (+{white} ={draws} -{black}) | {} | {:.4} | {:.4} |",
            samples.len(),
            ll_k / n,
            ll_lichess / n,
        ));
    }
    println!(
        "\n| Variant | k | 95% (bootstrap over games) | Games (White +/=/−) | Positions | LL/position at k | at lichess's k |"
    );
    println!("|---|---|---|---|---|---|---|");
    for row in rows {
        println!("{row}");
    }
    println!(
        "# done in {:.0?}; load after: {}",
        started_all.elapsed(),
        load()
    );
}

/// The model's expected score of `cp` centipawns: the review's win percent / 100.
fn expected(k: f64, cp: f64) -> f64 {
    1.0 / (1.0 + (-k * cp).exp())
}

/// `Σ s·ln p + (1 − s)·ln(1 − p)` over the samples, in a numerically safe form:
/// `ln p = −ln(1 + e^(−x))`, `ln(1 − p) = −ln(1 + e^x)`, `x = k·cp`.
fn log_likelihood(samples: &[Sample], k: f64) -> f64 {
    samples
        .iter()
        .map(|s| {
            let x = k * s.cp;
            -s.points * softplus(-x) - (1.0 - s.points) * softplus(x)
        })
        .sum()
}

/// `ln(1 + e^x)` without overflow.
fn softplus(x: f64) -> f64 {
    if x > 0.0 {
        x + (-x).exp().ln_1p()
    } else {
        x.exp().ln_1p()
    }
}

/// The `k` in [`K_RANGE`] of the largest log-likelihood, by golden-section search (the
/// log-likelihood is concave in `k`).
fn fit(samples: &[Sample]) -> f64 {
    golden_max(|k| log_likelihood(samples, k), K_RANGE.0, K_RANGE.1)
}

fn golden_max(f: impl Fn(f64) -> f64, mut a: f64, mut b: f64) -> f64 {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    while b - a > 1e-8 {
        if fc >= fd {
            b = d;
            d = c;
            fd = fc;
            c = b - ratio * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + ratio * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

/// The 2.5% and 97.5% percentiles of `k` fitted to `resamples` resamples of the games (each
/// drawn with replacement, with all its positions), seeded by `seed`.
fn bootstrap(samples: &[Sample], games: usize, resamples: usize, seed: u64) -> (f64, f64) {
    let mut by_game: Vec<Vec<Sample>> = vec![Vec::new(); games];
    for s in samples {
        by_game[s.game].push(*s);
    }
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut ks: Vec<f64> = (0..resamples)
        .map(|_| {
            let resample: Vec<Sample> = (0..games)
                .flat_map(|_| by_game[rng.usize(..games)].iter().copied())
                .collect();
            fit(&resample)
        })
        .collect();
    if ks.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    ks.sort_by(f64::total_cmp);
    let at = |q: f64| ks[((ks.len() - 1) as f64 * q).round() as usize];
    (at(0.025), at(0.975))
}

/// The values of `k` whose log-likelihood is within 1.92 (χ²₁ 95% / 2) of the maximum at
/// `best`, treating every position as independent.
fn likelihood_ratio_interval(samples: &[Sample], best: f64) -> (f64, f64) {
    let top = log_likelihood(samples, best);
    let inside = |k: f64| log_likelihood(samples, k) >= top - 1.92;
    let edge = |mut inner: f64, mut outer: f64| {
        if inside(outer) {
            return outer;
        }
        for _ in 0..60 {
            let mid = (inner + outer) / 2.0;
            if inside(mid) {
                inner = mid;
            } else {
                outer = mid;
            }
        }
        (inner + outer) / 2.0
    };
    (edge(best, K_RANGE.0), edge(best, K_RANGE.1))
}

/// Mean points of the side to move against the model's expectation at `k` and at lichess's,
/// per band of centipawns.
fn calibration(samples: &[Sample], k: f64) {
    let bands = [
        (-1000.0, -600.0),
        (-600.0, -300.0),
        (-300.0, -150.0),
        (-150.0, -50.0),
        (-50.0, 50.0),
        (50.0, 150.0),
        (150.0, 300.0),
        (300.0, 600.0),
        (600.0, 1000.1),
    ];
    for (low, high) in bands {
        let inside: Vec<&Sample> = samples
            .iter()
            .filter(|s| s.cp >= low && s.cp < high)
            .collect();
        if inside.is_empty() {
            continue;
        }
        let n = inside.len() as f64;
        let mean = |f: &dyn Fn(&Sample) -> f64| inside.iter().map(|s| f(s)).sum::<f64>() / n;
        println!(
            "    cp {low:>6} to {:>5}: {:>6} positions, scored {:5.1}%, expected {:5.1}% at k, \
             {:5.1}% at lichess's",
            high.min(1000.0),
            inside.len(),
            100.0 * mean(&|s| s.points),
            100.0 * mean(&|s| expected(k, s.cp)),
            100.0 * mean(&|s| expected(LICHESS_K, s.cp)),
        );
    }
}
