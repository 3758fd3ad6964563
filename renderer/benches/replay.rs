//! Replay GIF benchmark (criterion): an Atomic game of 92 plies (the length of
//! lila-gif's example game, `bench/atomic-92-plies.txt`) at 720 px wide, a Bomberman
//! Chess game of 93 frames (the size of lila-gif's example game) rendered to a GIF at
//! 720 px wide, and the size target's case, a 150-ply game at 480 px (under 4 MB). Reports time per GIF and, with the element
//! throughput, per frame; prints bytes and bytes per frame. Results and the side-by-side
//! lila-gif figures (`bench/compare_lila_gif.sh`) are in docs/PERFORMANCE.md.
//! Run: `cargo bench -p kaboom-renderer --bench replay`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kaboom_renderer::{ReplayOptions, render_replay_gif, replay_plan};
use kaboom_rules::{AnyGame, GameOptions, Variant, Viewer};

/// The seed's sample game of Bomberman Chess (BM-10).
const BOMBERMAN_GAME: &str = include_str!("../../rules/tests/data/bomberman-game1.txt");

/// A Bomberman Chess game with `plies` plies: the seed game, continued with legal actions
/// picked by a fixed xorshift sequence (deterministic). Restarts the continuation with the
/// next seed when the game ends too early.
fn game_with_plies(plies: usize) -> AnyGame {
    let tokens = kaboom_rules::notation::movetext_actions(BOMBERMAN_GAME).expect("seed game");
    for seed in 1u64.. {
        let mut game = AnyGame::new(Variant::Bomberman, GameOptions::default()).expect("new");
        // The seed game ends in mate: keep all but its last ten plies.
        for t in tokens
            .iter()
            .take(plies.min(tokens.len().saturating_sub(10)))
        {
            game.play(None, t).expect("seed ply");
        }
        let mut x = seed;
        while game.ply_count() < plies {
            let actions = game.legal_actions(Viewer::Full);
            if actions.is_empty() {
                break;
            }
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let pick = &actions[(x % actions.len() as u64) as usize];
            game.play(None, &pick.san).expect("legal");
        }
        if game.ply_count() == plies {
            return game;
        }
    }
    unreachable!("some seed gives a long enough game")
}

/// An Atomic game of 92 plies (the length of lila-gif's example game), as movetext:
/// legal actions picked by a fixed xorshift sequence (the first seed whose game lasts 92
/// plies). `bench/compare_lila_gif.sh` renders the same game with `kaboom render`.
const ATOMIC_GAME: &str = include_str!("../../bench/atomic-92-plies.txt");

/// [`ATOMIC_GAME`] played.
fn atomic_game() -> AnyGame {
    let mut game = AnyGame::new(Variant::Atomic, GameOptions::default()).expect("new");
    for t in kaboom_rules::notation::movetext_actions(ATOMIC_GAME).expect("movetext") {
        game.play(None, &t).expect("legal");
    }
    assert_eq!(game.ply_count(), 92);
    game
}

/// A game whose replay has exactly `frames` frames (or the nearest above it).
fn game_with_frames(frames: usize) -> AnyGame {
    let mut plies = frames.saturating_sub(1);
    loop {
        let game = game_with_plies(plies);
        if replay_plan(&game).len() <= frames || plies == 0 {
            return game;
        }
        plies -= 1;
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("replay_gif");
    group.sample_size(10);
    for (name, game, size) in [
        ("atomic_92_plies_720px", atomic_game(), 720),
        ("bomberman_93_frames_720px", game_with_frames(93), 720),
        ("bomberman_150_plies_480px", game_with_plies(150), 480),
    ] {
        let options = ReplayOptions {
            size,
            ..ReplayOptions::default()
        };
        let frames = replay_plan(&game).len();
        let gif = render_replay_gif(&game, &options).expect("renders");
        let height = u16::from_le_bytes([gif[8], gif[9]]);
        eprintln!(
            "{name}: {} plies, {frames} frames, {size}x{height} px, {} bytes ({:.1} KiB), {:.0} bytes per frame",
            game.ply_count(),
            gif.len(),
            gif.len() as f64 / 1024.0,
            gif.len() as f64 / frames as f64
        );
        group.throughput(Throughput::Elements(frames as u64));
        group.bench_function(name, |b| {
            b.iter(|| render_replay_gif(&game, &options).expect("renders"))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
