//! Whole games: the engine never plays an illegal action (every action goes through the
//! rules crate's parser in `arena::play`), and searching levels beat a random mover.

use kaboom_engine::Level;
use kaboom_engine::arena::{GameResult, Player, play};
use kaboom_rules::{Color, Variant};

/// Level 1 (one ply, a wide random margin, no action that lets the opponent win at once)
/// plays legal games in every variant.
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

/// An arena game replays from its designations and plies to the same end (the speed
/// benchmark's positions come from such replays), in the variants with carriers too.
#[test]
fn arena_games_replay_from_their_record() {
    use kaboom_rules::{AnyGame, GameOptions};
    for variant in [Variant::Beirut, Variant::Nuke] {
        let arena = play(
            variant,
            Player::Engine(Level::Two),
            Player::Random,
            4,
            2,
            60,
        );
        assert_eq!(arena.designations.len(), 2, "{variant:?}");
        let mut game = AnyGame::new(variant, GameOptions::default()).unwrap();
        for (color, squares) in &arena.designations {
            game.designate(*color, squares).unwrap();
        }
        for text in &arena.plies {
            game.play(None, text)
                .unwrap_or_else(|e| panic!("{variant:?} {text}: {e}"));
        }
        assert_eq!(game.ply_count(), arena.plies.len());
    }
}

/// A quiet opening's random plies remove nothing, in the variants where a random action
/// often sets off one's own bomb (BM-5) or co-squares (BA-7); `Opening::Random` plays as
/// `play` (the shipped puzzle sets are reproducible from their command).
#[test]
fn quiet_openings_remove_nothing() {
    use kaboom_engine::arena::{Opening, play_with};
    use kaboom_rules::{AnyGame, GameOptions};
    for variant in [Variant::Bomberman, Variant::Bombalot] {
        for seed in 0..6 {
            let arena = play_with(
                variant,
                Player::Engine(Level::One),
                Player::Engine(Level::One),
                seed,
                Opening::Quiet(8),
                8,
            );
            let mut game = AnyGame::new(variant, GameOptions::default()).unwrap();
            for text in &arena.plies {
                let record = game.play(None, text).unwrap();
                assert!(record.removed.is_empty(), "{variant:?} seed {seed}: {text}");
            }
        }
    }
    let a = play(
        Variant::Atomic,
        Player::Engine(Level::One),
        Player::Random,
        3,
        5,
        30,
    );
    let b = play_with(
        Variant::Atomic,
        Player::Engine(Level::One),
        Player::Random,
        3,
        Opening::Random(5),
        30,
    );
    assert_eq!(a.plies, b.plies);
}
