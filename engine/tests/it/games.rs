//! Whole games: the engine never plays an illegal action (every action goes through the
//! rules crate's parser in `arena::play`), and searching levels beat a random mover.

use kaboom_engine::Level;
use kaboom_engine::arena::{GameResult, Player, play};
use kaboom_rules::{Color, Variant};

/// Level 1 never hands the opponent an immediate win, and the game it plays is legal.
#[test]
fn level_one_games_are_legal_in_every_variant() {
    for variant in Variant::ALL {
        for seed in 0..2 {
            let game = play(
                variant,
                Player::Engine(Level::One),
                Player::Random,
                seed,
                0,
                120,
            );
            assert!(!game.plies.is_empty());
        }
    }
}

/// Level 2 beats a uniformly random mover with either colour in every variant.
#[test]
fn level_two_beats_a_random_mover_in_every_variant() {
    for variant in Variant::ALL {
        let as_white = play(
            variant,
            Player::Engine(Level::Two),
            Player::Random,
            1,
            2,
            300,
        );
        let as_black = play(
            variant,
            Player::Random,
            Player::Engine(Level::Two),
            2,
            2,
            300,
        );
        assert_eq!(
            as_white.result.points(Color::White),
            1.0,
            "{variant:?} {:?}",
            as_white.plies
        );
        assert_eq!(
            as_black.result,
            GameResult::BlackWins,
            "{variant:?} {:?}",
            as_black.plies
        );
    }
}
