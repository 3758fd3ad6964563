//! Hidden information (issue 23, BE-2): the engine sees only its own view.

use kaboom_engine::{Level, Limits, Viewer, analyse, choose_action, choose_carriers};
use kaboom_rules::{AnyGame, Color, GameOptions, Square, Variant};

fn squares(names: &[&str]) -> Vec<Square> {
    names.iter().map(|n| n.parse().unwrap()).collect()
}

/// Same view, different hidden carriers: the same action and score. White's carrier is
/// fixed; Black's differs between the games. A search given the full state does score the
/// games differently (the knight from g8 as a carrier changes the outcome), so the test
/// would notice an engine that read the hidden carriers.
#[test]
fn beirut_choice_does_not_depend_on_the_opponents_hidden_carriers() {
    let moves = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nd4", "Nxe5", "Qg5"];
    let mut chosen = Vec::new();
    let mut full_scores = Vec::new();
    for black in [&["b8"][..], &["g8"], &["d8"], &["f7"]] {
        let mut game = AnyGame::new(Variant::Beirut, GameOptions::default()).unwrap();
        game.designate(Color::White, &squares(&["g1"])).unwrap();
        game.designate(Color::Black, &squares(black)).unwrap();
        for m in moves {
            game.play(None, m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        let mut per_game = Vec::new();
        for level in [Level::Two, Level::Three, Level::Four] {
            let a = choose_action(&game, level, 5).unwrap();
            per_game.push((level, a.best, a.score, a.pv));
        }
        chosen.push(per_game);
        let full = analyse(&game, Viewer::Full, Limits::nodes(150_000)).unwrap();
        full_scores.push(full.score);
    }
    assert!(chosen.iter().all(|c| c == &chosen[0]), "{chosen:#?}");
    assert!(
        full_scores.iter().any(|s| s != &full_scores[0]),
        "the hidden carriers should matter to a full-information search: {full_scores:?}"
    );
}

/// The engine's own carriers: the right count, its own pieces, never the king (BE-2), and
/// different seeds vary them.
#[test]
fn engine_carriers_are_legal_and_varied() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..8 {
        let game = AnyGame::new(
            Variant::Beirut,
            GameOptions {
                carriers: 2,
                ..GameOptions::default()
            },
        )
        .unwrap();
        let chosen = choose_carriers(&game, Color::Black, seed).unwrap();
        assert_eq!(chosen.len(), 2);
        let mut g = game.clone();
        g.designate(Color::Black, &chosen).unwrap();
        seen.insert(chosen);
    }
    assert!(seen.len() > 1, "{seen:?}");
    let atomic = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
    assert!(choose_carriers(&atomic, Color::White, 1).is_err());
}
