//! Measures how long a post-game review takes: for each variant, an engine-against-engine
//! game of 80 plies (level 2, the longest of a few seeds when none lasts 80 plies) reviewed
//! at a node budget per position, timed on this core.
//!
//! `cargo run --release -p kaboom-engine --example review_timing -- [NODES_8X8] [NODES_10X10]`
//! (defaults: the review's defaults, `ReviewBudget::for_variant`).

use std::time::Instant;

use kaboom_engine::review::{ReviewBudget, review_game};
use kaboom_engine::{Level, choose_action, choose_carriers};
use kaboom_rules::{AnyGame, GameOptions, Variant};

const PLIES: usize = 80;

/// An engine game of up to [`PLIES`] plies from `seed`.
fn engine_game(variant: Variant, seed: u64) -> AnyGame {
    let mut game = AnyGame::new(variant, GameOptions::default()).expect("default options");
    for color in game.awaiting_designation() {
        let squares = choose_carriers(&game, color, seed).expect("carriers to choose");
        game.designate(color, &squares).expect("legal carriers");
    }
    while !game.status().is_finished() && game.ply_count() < PLIES {
        let choice = choose_action(&game, Level::Two, seed + game.ply_count() as u64)
            .expect("a playable game");
        game.play(None, &choice.best)
            .expect("the engine's action is legal");
    }
    game
}

fn main() {
    let mut args = std::env::args().skip(1);
    let small: Option<u64> = args.next().and_then(|a| a.parse().ok());
    let large: Option<u64> = args.next().and_then(|a| a.parse().ok());
    for variant in Variant::ALL {
        let budget = match (variant, small, large) {
            (Variant::Atomic | Variant::Beirut | Variant::Nuke, Some(n), _) => {
                ReviewBudget::nodes(n)
            }
            (Variant::Bomberman | Variant::Bombalot, _, Some(n)) => ReviewBudget::nodes(n),
            _ => ReviewBudget::for_variant(variant),
        };
        let game = (0..20)
            .map(|seed| engine_game(variant, seed))
            .max_by_key(AnyGame::ply_count)
            .expect("some seeds");
        let plies = game.ply_count();
        let started = Instant::now();
        let review = review_game(&game, budget, |_| {}).expect("a reviewable game");
        let seconds = started.elapsed().as_secs_f64();
        let per_position = seconds / (plies + 1) as f64;
        println!(
            "{variant:<10} {plies:>3} plies, {:>7} nodes/position: {seconds:6.1} s, \
             {per_position:5.2} s/position, {:5.1} s per 80-ply game; accuracy {:?}",
            budget.nodes_per_position,
            per_position * (PLIES + 1) as f64,
            review.accuracy,
        );
    }
}
