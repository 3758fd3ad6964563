//! Explosion preview latency: the bot (in process, the real renderer) against
//! the fake Discord (in process), as in the end-to-end tests. For Atomic, Bomberman Chess
//! and Bombalot, White sends `/move` of an action that removes pieces `PREVIEW_SAMPLES`
//! times (default 200); each answer is a new private preview (stored row, the position
//! after the action painted with ghosts, Confirm / Cancel). Latency is from the
//! interaction's creation to its answer (the edit of the deferred response). Prints p50,
//! p95, p99 and max per variant. The figures go to docs/PERFORMANCE.md ("Explosion
//! preview"); this is not a test.
//!
//! Run: `cargo bench -p kaboom --bench preview`.

use std::sync::Arc;
use std::time::Instant;

use fake_discord::{CommandOption, FakeDiscord};
use kaboom_rules::{AnyGame, Color, GameOptions, Variant, Viewer};
use kaboom_testkit::driver::Driver;

/// `/challenge variant:` choice index, the opening moves before the previewed action.
const CASES: [(i64, Variant, &[&str]); 3] = [
    (0, Variant::Atomic, &["e4", "d5"]),
    (3, Variant::Bomberman, &[]),
    (4, Variant::Bombalot, &[]),
];

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let samples: usize = std::env::var("PREVIEW_SAMPLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("kaboom.db").display());
    let fake = FakeDiscord::start().await.expect("the fake starts");
    let d = Driver::start_with_clock(fake, &url, Arc::new(kaboom_domain::clock::SystemClock))
        .await
        .expect("the bot starts");
    println!("| Variant | action | samples | p50 ms | p95 ms | p99 ms | max ms |");
    println!("|---|---|---|---|---|---|---|");
    for (choice, variant, opening) in CASES {
        let started = d.start_game(choice).await.expect("a game");
        let thread = started.thread.get();
        let mut game = AnyGame::new(variant, GameOptions::default()).expect("the variant");
        for (i, san) in opening.iter().enumerate() {
            let user = if i % 2 == 0 { &d.alice } else { &d.bob };
            d.play(user, thread, san).await.expect("an opening move");
            game.play(None, san).expect("legal");
        }
        assert_eq!(game.turn(), Color::White);
        let action = game
            .legal_actions(Viewer::White)
            .into_iter()
            .find(|a| !a.removed.is_empty())
            .expect("an action that removes pieces")
            .san;
        let mut ms = Vec::with_capacity(samples);
        for _ in 0..samples {
            let t0 = Instant::now();
            let r = d
                .cmd(
                    &d.alice,
                    thread,
                    "move",
                    vec![CommandOption::string("action", &action)],
                )
                .await
                .expect("an answer");
            ms.push(t0.elapsed().as_secs_f64() * 1e3);
            assert!(
                r.custom_ids().iter().any(|c| c.starts_with("kb:pvok:")),
                "a preview: {r:?}"
            );
        }
        ms.sort_by(f64::total_cmp);
        println!(
            "| {} | `{action}` | {samples} | {:.1} | {:.1} | {:.1} | {:.1} |",
            variant.title(),
            percentile(&ms, 0.50),
            percentile(&ms, 0.95),
            percentile(&ms, 0.99),
            ms[ms.len() - 1]
        );
    }
    d.stop().await;
}
