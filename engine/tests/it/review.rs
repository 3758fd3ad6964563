//! Post-game review (`kaboom_engine::review`): planted blunders found in every variant, an
//! engine game judged accurate, lila's formulas on hand-computed values, the JSON's names.

use kaboom_engine::review::{
    GameReview, LICHESS_WIN_PERCENT_K, Mark, ReviewBudget, ReviewError, ReviewProgress,
    game_accuracy, mark, move_accuracy, review_game, win_percent, win_percent_k, winning_chances,
};
use kaboom_engine::{Score, Viewer, analyse};
use kaboom_rules::notation::movetext_actions;
use kaboom_rules::{AnyGame, Color, EndReason, GameOptions, Outcome, Variant};

/// Small enough for a debug build; every planted blunder below is a one- or two-ply fact.
const BUDGET: u64 = 3_000;

/// `variant` from `fen` with `movetext` played.
fn game(variant: Variant, fen: &str, movetext: &str) -> AnyGame {
    let mut game = AnyGame::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    for text in movetext_actions(movetext).unwrap() {
        game.play(None, &text)
            .unwrap_or_else(|e| panic!("{fen} {text}: {e}"));
    }
    game
}

fn review(game: &AnyGame) -> GameReview {
    let mut reports = Vec::new();
    let review = review_game(game, ReviewBudget::nodes(BUDGET), |p| reports.push(p)).unwrap();
    let total = game.ply_count();
    let expected: Vec<ReviewProgress> = (0..=total)
        .map(|done| ReviewProgress { done, total })
        .collect();
    assert_eq!(reports, expected);
    review
}

/// Ply `ply` is the only marked one, a blunder, with `better` as the engine's choice, and its
/// line starts with it.
fn assert_blunder(review: &GameReview, ply: usize, san: &str, better: &str) {
    for p in &review.plies {
        if p.ply == ply {
            assert_eq!(p.san, san, "{p:?}");
            assert_eq!(p.mark, Some(Mark::Blunder), "{p:?}");
            assert_eq!(p.better.as_deref(), Some(better), "{p:?}");
            assert_eq!(p.line.first().map(String::as_str), Some(better), "{p:?}");
            assert!(p.accuracy < 20.0, "{p:?}");
        } else {
            assert_eq!((p.mark, &p.better), (None, &None), "{p:?}");
        }
    }
    assert_eq!(review.swings()[0].ply, ply);
}

/// AT-6: 1. Kc2?? walks the king next to b2, where ...Nxb2 blows it up, instead of Qxf7,
/// whose blast takes the king on e8.
#[test]
fn atomic_king_walked_into_a_blast_is_a_blunder() {
    let g = game(
        Variant::Atomic,
        "4k3/5p2/8/7Q/8/3n4/1P6/3K4 w - - 0 1",
        "1. Kc2 Nxb2",
    );
    let r = review(&g);
    assert_blunder(&r, 1, "Kc2", "Qxf7");
    assert_eq!(r.plies[0].eval, Score::Loss { plies: 1 });
    assert_eq!(
        r.plies[0].win_before,
        win_percent(Variant::Atomic, Score::Win { plies: 1 })
    );
    // The game ended on the board: the last position scores by its result (Black won).
    assert_eq!(r.plies[1].eval, Score::Loss { plies: 0 });
    assert_eq!(r.plies[1].mover, Color::Black);
    assert_eq!(r.accuracy.black, Some(100.0));
}

/// BE-3, BE-2 with the carriers known (the review sees them): White misses Boom@d7, whose
/// blast takes the king on e8, and walks its king next to Black's carrier on h6.
#[test]
fn beirut_missed_boom_and_king_beside_a_carrier_is_a_blunder() {
    let g = game(
        Variant::Beirut,
        "4k3/3N4/7p/8/6K1/8/8/8 w - - 0 1 1 d7 h6",
        "1. Kh5 Boom@h6",
    );
    let r = review(&g);
    assert_blunder(&r, 1, "Kh5", "Boom@d7");
    assert_eq!(r.plies[1].eval, Score::Loss { plies: 0 });
}

/// NU-2, NU-6: White's carrier knight could take the king on e8 (Nxe8); instead the king
/// steps onto the rank of Black's carrier rook, which takes it.
#[test]
fn nuke_king_left_to_a_carrier_is_a_blunder() {
    let g = game(
        Variant::Nuke,
        "4k3/8/5N2/8/8/8/r7/6K1 w - - 0 1 f6,a2",
        "1. Kg2 Rxg2",
    );
    let r = review(&g);
    assert_blunder(&r, 1, "Kg2", "Nxe8");
    assert_eq!(r.plies[1].eval, Score::Loss { plies: 0 });
}

/// BM-9's problem: Og8 mates; detonating the bomb instead (Oxg7) throws the win away and
/// leaves a rook ending.
#[test]
fn bomberman_mate_thrown_away_is_a_blunder() {
    let g = game(
        Variant::Bomberman,
        "1r6k1/6O3/7K2/10/9R/10/10/10 w - - 0 1",
        "1. Oxg7",
    );
    let r = review(&g);
    assert_blunder(&r, 1, "Oxg7", "Og8");
    assert!(
        matches!(r.plies[0].eval, Score::Centipawns { value } if value.abs() <= 700),
        "{:?}",
        r.plies[0]
    );
}

/// BA-2, BA-11: each side has one piece in the other's goal. White's tweke could take the
/// second (e8-e9) and win; White moves elsewhere and leaves e0 open for Black's tweke.
#[test]
fn bombalot_goal_left_open_is_a_blunder() {
    let g = game(
        Variant::Bombalot,
        "4W3/8/7w/8/8/W7/8/4w3 w w-W- -- 0 1",
        "1. a3-a4 e1-e0",
    );
    let r = review(&g);
    assert_blunder(&r, 1, "a3-a4", "e8-e9");
    assert_eq!(r.plies[1].eval, Score::Loss { plies: 0 });
}

/// Ten plies of the engine's own choices at the review's budget: the review finds the same
/// choices (same search, same limits), so nothing is marked and both sides are accurate.
#[test]
fn engine_moves_are_accurate_and_unmarked() {
    let budget = ReviewBudget::nodes(BUDGET);
    for variant in [Variant::Atomic, Variant::Bomberman] {
        let mut g = AnyGame::new(variant, GameOptions::default()).unwrap();
        for _ in 0..10 {
            let best = analyse(&g, Viewer::Full, budget.limits()).unwrap().best;
            g.play(None, &best).unwrap();
        }
        let r = review_game(&g, budget, |_| {}).unwrap();
        assert_eq!(r.plies.len(), 10);
        for (i, p) in r.plies.iter().enumerate() {
            assert_eq!(p.ply, i + 1);
            assert_eq!(
                (p.mark, &p.better, p.line.len()),
                (None, &None, 0),
                "{variant}: {p:?}"
            );
        }
        let (white, black) = (r.accuracy.white.unwrap(), r.accuracy.black.unwrap());
        assert!(
            white >= 90.0 && black >= 90.0,
            "{variant}: {:?}",
            r.accuracy
        );
        assert_eq!(r.white_win_percents().len(), 10);
    }
}

/// A game ended off the board leaves a playable position, which is searched (White resigned
/// after Kc2: ...Nxb2 still wins in one); a game the board ended (threefold repetition, C-4)
/// scores by its result, a draw.
#[test]
fn declared_ends_are_searched_and_board_ends_score_by_result() {
    let mut resigned = game(
        Variant::Atomic,
        "4k3/5p2/8/7Q/8/3n4/1P6/3K4 w - - 0 1",
        "1. Kc2",
    );
    resigned.declare(Outcome::win(Color::Black, EndReason::Resignation));
    let r = review(&resigned);
    assert_eq!(r.plies[0].eval, Score::Loss { plies: 1 });
    let repeated = game(
        Variant::Atomic,
        "4k3/8/8/8/8/8/8/R3K1N1 w - - 0 1",
        "1. Nf3 Kd8 2. Ng1 Ke8 3. Nf3 Kd8 4. Ng1 Ke8",
    );
    assert!(repeated.status().is_finished());
    let r = review(&repeated);
    assert_eq!(r.plies[7].eval, Score::Centipawns { value: 0 });
}

/// Games that cannot be reviewed say why.
#[test]
fn unreviewable_games_are_refused() {
    let unready = AnyGame::new(Variant::Nuke, GameOptions::default()).unwrap();
    assert_eq!(
        review_game(&unready, ReviewBudget::nodes(100), |_| {}).unwrap_err(),
        ReviewError::AwaitingDesignation(Color::White)
    );
    let hidden = AnyGame::from_fen(
        Variant::Beirut,
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 1 a1 hidden",
    )
    .unwrap();
    assert_eq!(
        review_game(&hidden, ReviewBudget::nodes(100), |_| {}).unwrap_err(),
        ReviewError::CarriersHidden(Color::Black)
    );
    let atomic = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
    assert_eq!(
        review_game(&atomic, ReviewBudget::nodes(0), |_| {}).unwrap_err(),
        ReviewError::EmptyBudget
    );
}

/// lila's win percent (WinPercent.scala) with each variant's constant: 0 cp is 50 exactly,
/// symmetric, `100 / (1 + e^(−k·cp))`, clamped at ±1000 cp, forced results at the ceiling;
/// with lichess's constant, lila's own values.
#[test]
fn win_percent_follows_lila() {
    let cp = |value| Score::Centipawns { value };
    // lila's values with its constant (`WinPercent.MULTIPLIER`), from the formula.
    let lila = |k: f64, cp: f64| 50.0 + 50.0 * (2.0 / (1.0 + (-k * cp).exp()) - 1.0);
    assert_eq!(LICHESS_WIN_PERCENT_K, 0.003_682_08);
    assert!((lila(LICHESS_WIN_PERCENT_K, 100.0) - 59.102_589_719_161_28).abs() < 1e-9);
    assert!((lila(LICHESS_WIN_PERCENT_K, 1000.0) - 97.544_743_634_143_23).abs() < 1e-9);
    for v in Variant::ALL {
        let k = win_percent_k(v);
        assert!(k > 0.0 && k.is_finite(), "{v}: {k}");
        assert_eq!(win_percent(v, cp(0)), 50.0);
        for value in [1, 60, 100, 350, 999, 1000] {
            let expected = lila(k, f64::from(value));
            assert!(
                (win_percent(v, cp(value)) - expected).abs() < 1e-9,
                "{v} {value}"
            );
            assert!((win_percent(v, cp(-value)) - (100.0 - expected)).abs() < 1e-9);
            assert!(
                (winning_chances(v, -value) + expected / 50.0 - 1.0).abs() < 1e-12,
                "{v} {value}"
            );
        }
        assert_eq!(win_percent(v, cp(5000)), win_percent(v, cp(1000)));
        assert!(win_percent(v, cp(200)) > win_percent(v, cp(100)));
        assert_eq!(
            win_percent(v, Score::Win { plies: 3 }),
            win_percent(v, cp(1000))
        );
        assert_eq!(
            win_percent(v, Score::Loss { plies: 0 }),
            win_percent(v, cp(-1000))
        );
    }
}

/// lila's move accuracy (AccuracyPercent.fromWinPercents), with its +1 bonus and clamp.
#[test]
fn move_accuracy_follows_lila() {
    assert_eq!(move_accuracy(50.0, 50.0), 100.0);
    assert_eq!(move_accuracy(40.0, 70.0), 100.0);
    // A loss of almost nothing: 103.1668 - 3.1669 + 1 is above 100, clamped.
    assert_eq!(move_accuracy(50.0, 50.0 - 1e-9), 100.0);
    assert!((move_accuracy(60.0, 50.0) - 64.579_828_453_720_67).abs() < 1e-9);
    assert!((move_accuracy(50.0, 45.0) - 80.815_299_920_414_36).abs() < 1e-9);
    assert_eq!(move_accuracy(100.0, 0.0), 0.0);
}

/// lila's game accuracy (AccuracyPercent.gameAccuracy), against values computed by hand (a
/// separate script of the same formulas): a window of 2 for a short game, of 3 with one
/// repeated first window for a 30-ply one, for either side moving first.
#[test]
fn game_accuracy_follows_lila() {
    let short = game_accuracy(&[50.0, 40.0, 45.0, 30.0], Color::White);
    assert!((short.white.unwrap() - 57.030_158_434_463_4).abs() < 1e-9);
    assert!((short.black.unwrap() - 80.815_299_920_414_36).abs() < 1e-9);
    let long: Vec<f64> = (0..31)
        .map(|i| 50.0 + 20.0 * (f64::from(i) * 0.7).sin() + f64::from(i) * 0.5)
        .collect();
    let white_first = game_accuracy(&long, Color::White);
    assert!((white_first.white.unwrap() - 84.857_389_871_148_37).abs() < 1e-9);
    assert!((white_first.black.unwrap() - 80.062_703_814_219_93).abs() < 1e-9);
    let black_first = game_accuracy(&long, Color::Black);
    assert!((black_first.white.unwrap() - 83.695_672_983_843_84).abs() < 1e-9);
    assert!((black_first.black.unwrap() - 78.630_927_537_989_49).abs() < 1e-9);
    let one = game_accuracy(&[50.0, 45.0], Color::White);
    assert_eq!(one.black, None);
    assert!((one.white.unwrap() - 80.815_299_920_414_36).abs() < 1e-9);
    assert_eq!(game_accuracy(&[50.0], Color::White).white, None);
}

/// lila's marks (Advice.scala): winning-chance drops of 0.1, 0.2, 0.3, and the mate rules,
/// in every variant with its constant (a drop of `d` from 0 is `2·atanh(d) / k` centipawns).
#[test]
fn marks_follow_lila() {
    let cp = |value| Score::Centipawns { value };
    let (win, loss) = (Score::Win { plies: 3 }, Score::Loss { plies: 2 });
    for v in Variant::ALL {
        // The centipawns whose winning chances are −d, rounded away from the threshold.
        let below = |d: f64| (2.0 * f64::atanh(d) / win_percent_k(v)).floor() as i32 - 1;
        let above = |d: f64| (2.0 * f64::atanh(d) / win_percent_k(v)).ceil() as i32 + 1;
        assert_eq!(mark(v, cp(0), cp(-below(0.1))), None, "{v}");
        assert_eq!(
            mark(v, cp(0), cp(-above(0.1))),
            Some(Mark::Inaccuracy),
            "{v}"
        );
        assert_eq!(
            mark(v, cp(0), cp(-below(0.2))),
            Some(Mark::Inaccuracy),
            "{v}"
        );
        assert_eq!(mark(v, cp(0), cp(-above(0.2))), Some(Mark::Mistake), "{v}");
        assert_eq!(mark(v, cp(0), cp(-below(0.3))), Some(Mark::Mistake), "{v}");
        assert_eq!(mark(v, cp(0), cp(-above(0.3))), Some(Mark::Blunder), "{v}");
        assert_eq!(mark(v, cp(above(0.3)), cp(0)), Some(Mark::Blunder), "{v}");
        assert_eq!(mark(v, cp(-above(0.3)), cp(0)), None, "{v}");
        assert_eq!(mark(v, cp(0), loss), Some(Mark::Blunder));
        assert_eq!(mark(v, cp(-800), loss), Some(Mark::Mistake));
        assert_eq!(mark(v, cp(-1000), loss), Some(Mark::Inaccuracy));
        assert_eq!(mark(v, win, cp(600)), Some(Mark::Blunder));
        assert_eq!(mark(v, win, cp(800)), Some(Mark::Mistake));
        assert_eq!(mark(v, win, cp(1200)), Some(Mark::Inaccuracy));
        assert_eq!(mark(v, win, loss), Some(Mark::Blunder));
        assert_eq!(mark(v, win, Score::Win { plies: 9 }), None);
        assert_eq!(mark(v, loss, Score::Loss { plies: 1 }), None);
        assert_eq!(mark(v, cp(0), win), None);
    }
    // With lichess's constant, lila's thresholds from 0: 55, 110 and 170 centipawns.
    let lichess = |d: f64| 2.0 * f64::atanh(d) / LICHESS_WIN_PERCENT_K;
    assert!((54.0..55.0).contains(&lichess(0.1)), "{}", lichess(0.1));
    assert!((110.0..111.0).contains(&lichess(0.2)));
    assert!((168.0..169.0).contains(&lichess(0.3)));
}

/// The JSON a CLI prints: `accuracy.white`/`black` and per ply `ply`, `san`, `eval`,
/// `mark`, `better`, `line` with those names.
#[test]
fn review_json_has_the_documented_names() {
    let g = game(
        Variant::Atomic,
        "4k3/5p2/8/7Q/8/3n4/1P6/3K4 w - - 0 1",
        "1. Kc2 Nxb2",
    );
    let json = serde_json::to_value(review(&g)).unwrap();
    let accuracy = json["accuracy"].as_object().unwrap();
    assert!(accuracy["white"].is_number() && accuracy["black"].is_number());
    let plies = json["plies"].as_array().unwrap();
    let first = plies[0].as_object().unwrap();
    for key in ["ply", "san", "eval", "mark", "better", "line"] {
        assert!(first.contains_key(key), "{key} missing from {first:?}");
    }
    assert_eq!(first["ply"], 1);
    assert_eq!(first["san"], "Kc2");
    assert_eq!(first["eval"]["kind"], "loss");
    assert_eq!(first["mark"], "blunder");
    assert_eq!(first["better"], "Qxf7");
    assert_eq!(first["line"][0], "Qxf7");
    let second = plies[1].as_object().unwrap();
    assert!(second["mark"].is_null() && second["better"].is_null());
    assert_eq!(second["line"].as_array().unwrap().len(), 0);
}
