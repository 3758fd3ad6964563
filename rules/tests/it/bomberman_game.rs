//! BM-10: the seed's first sample game, replayed from its PGN movetext (comments and
//! all) in the seed's own notation, reaches the seed's final position.
//!
//! `data/bomberman-game1.txt` is the seed's movetext line copied verbatim from
//! `shared/seeds/bomberman-chess.txt` ("Sample Game"); `data/bomberman-game1-final.txt`
//! is the seed's "Final position" paragraph, also verbatim.

use std::collections::BTreeSet;

use kaboom_rules::bomberman::{Bomberman, removal_warning};
use kaboom_rules::notation::movetext_actions;
use kaboom_rules::{Color, EndReason, Game, GameOptions, Kind, Position, Square};

const MOVETEXT: &str = include_str!("../data/bomberman-game1.txt");
const FINAL: &str = include_str!("../data/bomberman-game1-final.txt");

/// Replays the movetext; returns the game and, per ply, the removal-list warnings
/// (BM-10: a written list is compared with the real removals only to warn).
fn replay() -> (Game<Bomberman>, Vec<(usize, String)>) {
    let mut game: Game<Bomberman> = Game::new(GameOptions::default()).unwrap();
    let mut warnings = Vec::new();
    for (i, token) in movetext_actions(MOVETEXT).unwrap().iter().enumerate() {
        let ply = i + 1;
        let action = game
            .parse(None, token)
            .unwrap_or_else(|e| panic!("ply {ply} ({token}) does not replay: {e}"));
        let mut after = game.position().clone();
        let removed = after.play_reported(&action);
        if let Some(warning) = removal_warning(token, &action, &removed) {
            eprintln!("warning: ply {ply}: {warning}");
            warnings.push((ply, warning));
        }
        let record = game.play_action(action);
        assert_eq!(record.removed, removed);
    }
    (game, warnings)
}

/// `"King h1; Defuser e7; Pawns b2, c3"` -> `{(h1, King), (e7, Defuser), (b2, Pawn), ...}`.
fn seed_pieces(line: &str) -> BTreeSet<(Square, Kind)> {
    let mut out = BTreeSet::new();
    for group in line.split(';') {
        let group = group.trim();
        let (name, squares) = group.split_once(' ').unwrap();
        let kind = name
            .trim_end_matches('s')
            .parse::<Kind>()
            .unwrap_or_else(|_| panic!("unknown piece name {name}"));
        for s in squares.split(',') {
            out.insert((s.trim().parse().unwrap(), kind));
        }
    }
    out
}

#[test]
fn bm10_sample_game_replays_to_the_seeds_final_position() {
    let (game, _) = replay();
    assert_eq!(game.plies().len(), 83, "BM-10: 83 plies");
    let lines: Vec<&str> = FINAL
        .lines()
        .filter(|l| l.contains(';'))
        .map(str::trim)
        .collect();
    assert_eq!(lines.len(), 2, "White's line, then Black's");
    let view = game.position().board_view();
    for (color, line) in [Color::White, Color::Black].iter().zip(lines) {
        let on_board: BTreeSet<(Square, Kind)> = view
            .pieces
            .iter()
            .filter(|p| p.color == *color)
            .map(|p| (p.square, p.kind))
            .collect();
        assert_eq!(on_board, seed_pieces(line), "{color}'s pieces");
    }
    // 42. Dxe7# is mate.
    let outcome = game.status().outcome().expect("the game is over");
    assert_eq!(outcome.winner, Some(Color::White));
    assert_eq!(outcome.reason, EndReason::Checkmate);
    assert_eq!(game.plies().last().unwrap().display, "Dxe7#");
}

#[test]
fn bm10_removal_lists_are_checked_only_to_warn() {
    let (game, warnings) = replay();
    // 25. Oxa1->a2, g1 is right; 26... Oxj8->f8, j7 really removes j7 and h8 (the new
    // King Battler stands on h8, not f8).
    assert_eq!(
        warnings,
        vec![(
            52,
            "Oxj8->f8,j7: the text says it removes f8, j7, but it removes h8, j7".to_string()
        )]
    );
    assert_eq!(game.plies()[48].display, "Oxa1->a2,g1");
}

#[test]
fn bm10_check_marks_in_the_input_are_not_verified() {
    let (game, _) = replay();
    let plies = game.plies();
    // 8... Bxe2 is check although written without '+'.
    assert_eq!(plies[15].san, "Bxe2");
    assert_eq!(plies[15].display, "Bxe2+");
    // 36. Di6+ is no check: the Defuser reaches 3 squares only.
    assert_eq!(plies[70].san, "Di6");
    assert_eq!(plies[70].display, "Di6");
    // Castling written with zeros, promotion to the King Battler.
    assert_eq!(plies[19].san, "O-O");
    assert_eq!(plies[50].display, "h8=KB+");
}

#[test]
fn bm10_canonical_texts_replay_the_same_game() {
    let (game, _) = replay();
    let mut again: Game<Bomberman> = Game::new(GameOptions::default()).unwrap();
    for ply in game.plies() {
        again.play(None, &ply.san).unwrap();
    }
    assert_eq!(again.position(), game.position());
    let mut displayed: Game<Bomberman> = Game::new(GameOptions::default()).unwrap();
    for ply in game.plies() {
        displayed.play(None, &ply.display).unwrap();
    }
    assert_eq!(displayed.position(), game.position());
    assert_eq!(
        game.position().to_fen(),
        "4kr4/3OD5/2Pp6/ppo7/9P/2P5P1/1P5P2/7K2 b - - 0 42"
    );
}
