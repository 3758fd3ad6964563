//! Puzzles (`kaboom_engine::puzzle`): a planted tactic per variant found with its solution
//! and themes, refusals (two winning moves, no win), the JSON line and id, tampered
//! puzzles refused, the candidate triggers, and the shipped set (`data/puzzles/*.jsonl`)
//! re-verified.

use std::time::Instant;

use kaboom_engine::puzzle::{
    Puzzle, PuzzleError, Rejection, Theme, confirm_nodes, puzzle_id, reverify, verify_fen,
};
use kaboom_rules::Variant;

/// Every planted tactic below is a one-move fact; this is enough in a debug build too.
const NODES: u64 = 20_000;

fn found(variant: Variant, fen: &str) -> Puzzle {
    verify_fen(variant, fen, NODES).unwrap_or_else(|e| panic!("{variant} {fen}: {e}"))
}

/// AT-6: White is lost to ...Qxb2-style blasts next to its king unless it blows up the
/// black king first: Qxf7 explodes next to e8, and only it wins.
#[test]
fn atomic_blast_next_to_the_king() {
    let p = found(Variant::Atomic, "4k3/5p2/8/7Q/8/8/1Pnq4/2K5 w - - 0 1");
    assert_eq!(p.solution, ["h5f7"]);
    assert_eq!(p.themes, [Theme::KingBlast, Theme::OneMove]);
}

/// BE-3, BE-4: the knight on f7 carries; its Boom takes the king on e8 and not White's.
/// A Boom that wins at once is no sacrifice, though it removes the carrier.
#[test]
fn beirut_boom_next_to_the_king() {
    let p = found(Variant::Beirut, "4k3/5N2/8/8/8/8/8/4K3 w - - 0 1 1 f7 -");
    assert_eq!(p.solution, ["Boom@f7"]);
    assert_eq!(p.themes, [Theme::KingBlast, Theme::Boom, Theme::OneMove]);
    // The FEN keeps both sides' carriers (Viewer::Full).
    assert!(p.fen.ends_with(" f7 -"), "{}", p.fen);
}

/// NU-2, NU-6: only a carrier may take a king, and its bomb goes off there.
#[test]
fn nuke_carrier_takes_the_king() {
    let p = found(Variant::Nuke, "4k3/8/8/8/8/8/n7/K3R3 w - - 0 1 e1,a2");
    assert_eq!(p.solution, ["e1e8"]);
    assert_eq!(p.themes, [Theme::KingBlast, Theme::OneMove]);
}

/// BM-9's problem with the black rook on f8 instead of b8: `Og8` is checkmate (a bomb
/// move, `g7g8` in coordinates) and the only one; the other moves win more slowly.
#[test]
fn bomberman_bomb_step_mates() {
    let p = found(Variant::Bomberman, "5r2k1/6O3/7K2/10/9R/10/10/10 w - - 0 1");
    assert_eq!(p.solution, ["g7g8"]);
    assert_eq!(p.themes, [Theme::Mate, Theme::OneMove]);
}

/// BA-2, BA-11: White has a tweke on d9; the one on e8 steps into e9 and wins, before
/// Black (with a piece on e0 already) steps into d0.
#[test]
fn bombalot_second_piece_into_the_goal() {
    let p = found(Variant::Bombalot, "4W3/8/8/8/8/8/8/3w4 w -wW- -- 0 1");
    assert_eq!(p.solution, ["e8e9"]);
    assert_eq!(p.themes, [Theme::Goal, Theme::GoalEntry, Theme::OneMove]);
}

/// Qxf7 and Rxd7 both blow up the king on e8 (AT-6): not a puzzle.
#[test]
fn two_winning_moves_are_rejected() {
    let err = verify_fen(
        Variant::Atomic,
        "4k3/3p1p2/8/7Q/8/8/8/3RK3 w - - 0 1",
        NODES,
    )
    .unwrap_err();
    assert_eq!(
        err,
        PuzzleError::Rejected(Rejection::SeveralWinningMoves { move_number: 1 })
    );
}

/// BM-9's own problem has two mates under these rulings: `Og8` and `Of8` (the bomb's
/// blast line would reach White's king after any capture of it, BM-8).
#[test]
fn the_bomberman_seed_problem_has_two_mates() {
    let err = verify_fen(
        Variant::Bomberman,
        "1r6k1/6O3/7K2/10/9R/10/10/10 w - - 0 1",
        NODES,
    )
    .unwrap_err();
    assert_eq!(
        err,
        PuzzleError::Rejected(Rejection::SeveralWinningMoves { move_number: 1 })
    );
}

/// The start position wins nothing; a finished game has nothing to solve; a bad FEN is an
/// error, not a panic.
#[test]
fn positions_without_a_win_are_rejected() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(
        verify_fen(Variant::Atomic, start, NODES).unwrap_err(),
        PuzzleError::Rejected(Rejection::NotWinning { move_number: 1 })
    );
    assert_eq!(
        verify_fen(Variant::Atomic, "8/8/8/8/8/8/8/4K3 b - - 0 1", NODES).unwrap_err(),
        PuzzleError::Rejected(Rejection::GameOver)
    );
    assert!(matches!(
        verify_fen(Variant::Atomic, "not a fen", NODES),
        Err(PuzzleError::Fen(_))
    ));
    assert_eq!(
        Rejection::SeveralWinningMoves { move_number: 2 }.name(),
        "several-winning-moves"
    );
}

fn sample() -> Puzzle {
    Puzzle {
        id: "abc123".into(),
        variant: Variant::Bomberman,
        fen: "1r6k1/6O3/7K2/10/9R/10/10/10 w - - 0 1".into(),
        solution: vec!["g7g8".into()],
        themes: vec![
            Theme::Mate,
            Theme::KingBlast,
            Theme::QuietMove,
            Theme::OneMove,
        ],
        rating: 1234,
    }
}

/// One JSON line, fields in this order, themes in kebab-case.
#[test]
fn json_line_format() {
    let line = sample().to_json_line();
    assert_eq!(
        line,
        r#"{"id":"abc123","variant":"bomberman","fen":"1r6k1/6O3/7K2/10/9R/10/10/10 w - - 0 1","solution":["g7g8"],"themes":["mate","king-blast","quiet-move","one-move"],"rating":1234}"#
    );
    assert_eq!(Puzzle::from_json_line(&line).unwrap(), sample());
    assert!(matches!(
        Puzzle::from_json_line(r#"{"id":"x"}"#),
        Err(PuzzleError::Json(_))
    ));
}

/// FNV-1a 64 of "variant\nfen" in base 36: fixed values, prefixes of each other, and
/// different per variant.
#[test]
fn ids_are_stable() {
    let fen = "4k3/5p2/8/7Q/8/8/1Pnq4/2K5 w - - 0 1";
    let full = puzzle_id(Variant::Atomic, fen, 13);
    assert_eq!(puzzle_id(Variant::Atomic, fen, 6), "3u7xq1");
    assert_eq!(full, "3u7xq180pf6o6");
    assert!(full.starts_with(&puzzle_id(Variant::Atomic, fen, 8)));
    assert_eq!(puzzle_id(Variant::Atomic, fen, 2).len(), 6);
    assert_ne!(
        puzzle_id(Variant::Atomic, fen, 6),
        puzzle_id(Variant::Beirut, fen, 6)
    );
}

/// reverify refuses a wrong id, an illegal solution move, an even-length solution, a claim
/// of a win the solution does not reach, and a first move that is not the engine's.
#[test]
fn reverify_refuses_tampered_puzzles() {
    let good = found(Variant::Atomic, "4k3/5p2/8/7Q/8/8/1Pnq4/2K5 w - - 0 1");
    assert_eq!(reverify(&good, NODES), Ok(()));
    let mut p = good.clone();
    p.id = "zzzzzz".into();
    assert_eq!(reverify(&p, NODES), Err(PuzzleError::Id("zzzzzz".into())));
    let mut p = good.clone();
    p.solution = vec!["h5h8".into()];
    assert!(matches!(
        reverify(&p, NODES),
        Err(PuzzleError::IllegalMove { index: 0, .. })
    ));
    let mut p = good.clone();
    p.solution = vec!["h5f7".into(), "d2c2".into()];
    assert_eq!(reverify(&p, NODES), Err(PuzzleError::SolutionLength(2)));
    let mut p = good.clone();
    p.solution = vec!["c1b1".into()];
    assert_eq!(reverify(&p, NODES), Err(PuzzleError::EndDiffers));
    p.themes = vec![Theme::Material, Theme::OneMove];
    assert_eq!(
        reverify(&p, NODES),
        Err(PuzzleError::OtherBestMove {
            found: "h5f7".into()
        })
    );
}

/// The shipped set of `variant`, in file order.
fn shipped(variant: Variant) -> Vec<Puzzle> {
    let path = format!(
        "{}/../data/puzzles/{}.jsonl",
        env!("CARGO_MANIFEST_DIR"),
        variant.name()
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            Puzzle::from_json_line(line).unwrap_or_else(|e| panic!("{path}:{}: {e}", i + 1))
        })
        .collect()
}

/// Every line parses, is of its variant, and ids and positions are unique.
#[test]
fn shipped_sets_are_well_formed() {
    for variant in Variant::ALL {
        let set = shipped(variant);
        let mut ids = std::collections::HashSet::new();
        let mut fens = std::collections::HashSet::new();
        for p in &set {
            assert_eq!(p.variant, variant, "{}", p.id);
            assert!(ids.insert(p.id.clone()), "duplicate id {}", p.id);
            assert!(fens.insert(p.fen.clone()), "duplicate position {}", p.fen);
            assert!((600..=2800).contains(&p.rating), "{}", p.id);
            assert_eq!(p.solution.len() % 2, 1, "{}", p.id);
        }
    }
}

/// The budget the tests re-verify shipped puzzles at: twice the generator's confirmation
/// budget (four times its verification budget), so a puzzle that only held at the
/// generator's depth fails here.
fn deeper(variant: Variant) -> u64 {
    2 * confirm_nodes(variant)
}

/// Five puzzles per variant, spread evenly over the file, re-verified deeper than the
/// generator searched ([`deeper`]).
#[test]
fn sampled_shipped_puzzles_reverify() {
    for variant in Variant::ALL {
        let set = shipped(variant);
        let step = (set.len() / 5).max(1);
        for p in set.iter().step_by(step).take(5) {
            reverify(p, deeper(variant)).unwrap_or_else(|e| panic!("{} {}: {e}", variant, p.id));
        }
    }
}

/// The whole shipped set re-verified deeper than the generator searched ([`deeper`])
/// (`cargo test --release -p kaboom-engine --test it -- --ignored every_shipped`; figures in
/// `data/puzzles/README.md`).
#[test]
#[ignore = "minutes: every shipped puzzle"]
fn every_shipped_puzzle_reverifies() {
    let mut failures = Vec::new();
    for variant in Variant::ALL {
        let started = Instant::now();
        let set = shipped(variant);
        for p in &set {
            if let Err(e) = reverify(p, deeper(variant)) {
                failures.push(format!("{variant} {}: {e}", p.id));
            }
        }
        eprintln!(
            "{variant}: {} puzzles re-verified in {:.1} s",
            set.len(),
            started.elapsed().as_secs_f64()
        );
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A theme's name is exactly its serialized form, for every theme: the bot stores and
/// matches themes by these names.
#[test]
fn theme_names_are_their_serialized_forms() {
    for theme in kaboom_engine::puzzle::Theme::ALL {
        assert_eq!(
            serde_json::to_value(theme).unwrap(),
            serde_json::Value::String(theme.name().to_string())
        );
    }
}

/// BM-9's problem with the black rook on f8: White can mate at once (`Og8#`), plays
/// `Ri4` instead, and Black, lost whatever it plays, answers `Kj8`. White still has a
/// forced win at ply 2, but Black's move did not open it, so `Trigger::Blunder` skips the
/// position and `Trigger::BlunderOrForcedWin` takes it.
#[test]
fn the_forced_win_trigger_takes_a_win_that_was_there_before() {
    use kaboom_engine::puzzle::{Trigger, candidates_from_game, candidates_with};
    use kaboom_rules::AnyGame;
    let fen = "5r2k1/6O3/7K2/10/9R/10/10/10 w - - 0 1";
    let mut game = AnyGame::from_fen(Variant::Bomberman, fen).unwrap();
    for text in ["j4i4", "i8j8", "i4j4", "j8i8"] {
        game.play(None, text).unwrap();
    }
    let blunder = candidates_from_game(&game, 2_000).unwrap();
    assert!(blunder.iter().all(|c| c.ply != 2), "{blunder:?}");
    let forced = candidates_with(&game, 2_000, Trigger::BlunderOrForcedWin).unwrap();
    let at_2 = forced
        .iter()
        .find(|c| c.ply == 2)
        .expect("ply 2 is a candidate");
    assert_eq!(at_2.chances, 1.0);
    // Every position the blunder trigger takes, the other takes too.
    assert!(blunder.iter().all(|c| forced.contains(c)));
}

/// A run continued with `generate_more` (the earlier set kept, the games from the earlier
/// run's count on) finds exactly the puzzles one longer run finds: the shipped set grows by
/// continuation without replaying or duplicating what it has.
#[test]
fn a_continued_run_equals_one_longer_run() {
    use kaboom_engine::puzzle::{GenerateOptions, generate, generate_more};
    let mut options = GenerateOptions::for_variant(Variant::Atomic, 3);
    options.scan_nodes = 400;
    options.verify_nodes = 4_000;
    options.confirm_nodes = None;
    options.max_plies = 80;
    options.target = 1_000;
    options.games = 6;
    let whole = generate(&options, |_| {});
    let mut first = options.clone();
    first.games = 3;
    let earlier = generate(&first, |_| {});
    let mut rest = options.clone();
    rest.first_game = 3;
    rest.games = 3;
    let continued = generate_more(earlier.puzzles.clone(), &rest, |_| {});
    assert!(
        !earlier.puzzles.is_empty() && whole.puzzles.len() > earlier.puzzles.len(),
        "both halves find puzzles: {} of {}",
        earlier.puzzles.len(),
        whole.puzzles.len()
    );
    assert_eq!(continued.games, 3);
    assert_eq!(continued.puzzles, whole.puzzles);
}
