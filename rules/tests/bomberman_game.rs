//! BM-10: the seed's first sample game, replayed from its PGN movetext (comments and
//! all) in the seed's own notation, reaches the seed's final position.
//!
//! `data/bomberman-game1.txt` is the seed's movetext line copied verbatim from
//! `shared/seeds/bomberman-chess.txt` ("Sample Game"); `data/bomberman-game1-final.txt`
//! is the seed's "Final position" paragraph, also verbatim.

use std::collections::BTreeSet;

use kaboom_rules::bomberman::Bomberman;
use kaboom_rules::notation::{movetext_actions, strip_decorations};
use kaboom_rules::{Color, EndReason, Game, GameOptions, Kind, Position, Square};

const MOVETEXT: &str = include_str!("data/bomberman-game1.txt");
const FINAL: &str = include_str!("data/bomberman-game1-final.txt");

/// One removal list written after `->` that differs from the real removals.
#[derive(Debug, PartialEq, Eq)]
struct RemovalWarning {
    ply: usize,
    token: String,
    written: BTreeSet<String>,
    real: BTreeSet<String>,
}

/// Replays the movetext; returns the game and the removal-list warnings (BM-10: a
/// written list is compared with the real removals only to warn).
fn replay() -> (Game<Bomberman>, Vec<RemovalWarning>) {
    let mut game: Game<Bomberman> = Game::new(GameOptions::default()).unwrap();
    let mut warnings = Vec::new();
    for (i, token) in movetext_actions(MOVETEXT).unwrap().iter().enumerate() {
        let ply = i + 1;
        let record = game
            .play(None, token)
            .unwrap_or_else(|e| panic!("ply {ply} ({token}) does not replay: {e}"));
        if let (_, Some(list)) = strip_decorations(token) {
            let written: BTreeSet<String> = list
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
                .collect();
            // The seed lists the squares hit, without the detonated bomb's own square.
            let (_, shown) = strip_decorations(&record.display);
            let real: BTreeSet<String> = shown
                .unwrap_or("")
                .split(',')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            if written != real {
                eprintln!(
                    "warning: ply {ply} ({token}): the text lists {written:?}, the blast removed {real:?}"
                );
                warnings.push(RemovalWarning {
                    ply,
                    token: token.clone(),
                    written,
                    real,
                });
            }
        }
    }
    (game, warnings)
}

/// `"King h1; Defuser e7; Pawns b2, c3"` -> `{(h1, King), (e7, Defuser), (b2, Pawn), ...}`.
fn seed_pieces(line: &str) -> BTreeSet<(Square, Kind)> {
    let mut out = BTreeSet::new();
    for group in line.split(';') {
        let group = group.trim();
        let (name, squares) = group.split_once(' ').unwrap();
        let kind = match name.trim_end_matches('s') {
            "King" => Kind::King,
            "Defuser" => Kind::Defuser,
            "Bomb" => Kind::Bomb,
            "Rook" => Kind::Rook,
            "Bishop" => Kind::Bishop,
            "Knight" => Kind::Knight,
            "Pawn" => Kind::Pawn,
            other => panic!("unknown piece name {other}"),
        };
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
        vec![RemovalWarning {
            ply: 52,
            token: "Oxj8->f8,j7".into(),
            written: ["f8", "j7"].iter().map(|s| s.to_string()).collect(),
            real: ["h8", "j7"].iter().map(|s| s.to_string()).collect(),
        }]
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
