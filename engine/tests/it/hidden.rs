//! Hidden information (BE-2): the engine sees only its own view.

use kaboom_engine::{
    HiddenCarriers, Level, Limits, Viewer, analyse, choose_action, choose_action_with,
    choose_carriers,
};
use kaboom_rules::{AnyGame, Color, GameOptions, Kind, Square, Variant};

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

/// BE-2, BE-3: White's king on e1 may take the pawn on d2, but then stands next to the
/// knight on c3, one of Black's four pieces, any of which may carry Black's hidden bomb.
/// The engine, which cannot see Black's carrier, steps away instead (Kf1 or Kf2). A search
/// given the full state (Black's carrier on b6) takes the pawn, so the test notices an
/// engine that ignores the risk.
#[test]
fn beirut_king_keeps_away_from_possible_carriers() {
    let g = AnyGame::from_fen(
        Variant::Beirut,
        "4k3/8/1p4p1/8/8/2n5/3p4/R3K3 w - - 0 1 1 a1 b6",
    )
    .unwrap();
    for level in [Level::Two, Level::Three, Level::Four] {
        for seed in 0..3 {
            let a = choose_action(&g, level, seed).unwrap();
            assert_ne!(a.best, "Kxd2", "level {level} seed {seed}: {a:?}");
        }
    }
    let white = analyse(&g, Viewer::White, Limits::nodes(50_000)).unwrap();
    assert_ne!(white.best, "Kxd2", "{white:?}");
    let full = analyse(&g, Viewer::Full, Limits::nodes(50_000)).unwrap();
    assert_eq!(full.best, "Kxd2", "{full:?}");
}

/// `HiddenCarriers::Ignored`, the strength bench's measuring switch, really switches the
/// model off: in the position above the engine without it takes the pawn next to the
/// knight, as a search that knows the knight carries nothing does; `Modelled` (what
/// `choose_action` plays) does not. Outside Beirut the switch changes nothing.
#[test]
fn ignoring_hidden_carriers_walks_the_king_next_to_a_possible_carrier() {
    let g = AnyGame::from_fen(
        Variant::Beirut,
        "4k3/8/1p4p1/8/8/2n5/3p4/R3K3 w - - 0 1 1 a1 b6",
    )
    .unwrap();
    for level in [Level::Three, Level::Four] {
        let ignored = choose_action_with(&g, level, 0, HiddenCarriers::Ignored).unwrap();
        assert_eq!(ignored.best, "Kxd2", "level {level}: {ignored:?}");
        let modelled = choose_action_with(&g, level, 0, HiddenCarriers::Modelled).unwrap();
        let played = choose_action(&g, level, 0).unwrap();
        assert_ne!(modelled.best, "Kxd2", "level {level}: {modelled:?}");
        assert_eq!(
            (modelled.best, modelled.nodes, modelled.pv),
            (played.best, played.nodes, played.pv)
        );
    }
    let atomic = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
    let with = choose_action_with(&atomic, Level::Three, 4, HiddenCarriers::Modelled).unwrap();
    let without = choose_action_with(&atomic, Level::Three, 4, HiddenCarriers::Ignored).unwrap();
    assert_eq!(
        (with.best, with.score, with.nodes),
        (without.best, without.score, without.nodes)
    );
}

/// A piece that stood where its Boom would have blown up White's king, while Black chose
/// another action, is no carrier (the engine assumes Black never misses a winning Boom):
/// after 1... h6 the knight on d2 is harmless and White's king stays next to it (taking
/// the a5 pawn or attacking the knight). The same position without that history (Black's
/// move not seen) keeps the knight a suspect: White's king steps away from it.
#[test]
fn beirut_a_piece_that_missed_a_winning_boom_is_cleared() {
    let mut seen = AnyGame::from_fen(
        Variant::Beirut,
        "4k3/7p/8/p7/8/2p5/3n4/R3K3 b - - 0 1 1 a1 h7",
    )
    .unwrap();
    seen.play(None, "h6").unwrap();
    let unseen = AnyGame::from_fen(
        Variant::Beirut,
        "4k3/8/7p/p7/8/2p5/3n4/R3K3 w - - 0 2 1 a1 h6",
    )
    .unwrap();
    assert_eq!(seen.fen(Viewer::White), unseen.fen(Viewer::White));
    let knight: Square = "d2".parse().unwrap();
    let king_next_to_knight = |game: &AnyGame, action: &str| {
        let mut after = game.clone();
        after.play(None, action).unwrap();
        let view = after.board_view(Viewer::White);
        let king = view
            .pieces
            .iter()
            .find(|p| p.kind == Kind::King && p.color == Color::White)
            .unwrap();
        king.square.distance(knight) <= 1
    };
    for level in [Level::Two, Level::Three, Level::Four] {
        let after_miss = choose_action(&seen, level, 1).unwrap();
        assert!(
            king_next_to_knight(&seen, &after_miss.best),
            "level {level}: {after_miss:?}"
        );
        let suspect = choose_action(&unseen, level, 1).unwrap();
        assert!(
            !king_next_to_knight(&unseen, &suspect.best),
            "level {level}: {suspect:?}"
        );
    }
}
