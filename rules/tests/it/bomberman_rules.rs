//! Bomberman Chess rulings BM-1 to BM-9 (docs/rules/RULINGS.md section 4), plus C-4 and C-6 as they
//! apply to it. Each test names the ruling it checks.

use std::collections::BTreeSet;

use kaboom_rules::bomberman::{Bomberman, START_FEN};
use kaboom_rules::{
    ActionError, Cause, Color, EndReason, Game, GameOptions, Geometry, Kind, Piece, Position,
    Removal, Square, Status,
};

/// A position from pieces written as letter + square (`"Kf1"`, `"oe5"`: upper case White,
/// lower case Black, FEN letters), the side to move and the castling field.
fn setup_with(pieces: &[&str], turn: &str, castling: &str) -> Bomberman {
    let mut grid = [[' '; 10]; 8];
    for p in pieces {
        let (letter, square) = p.split_at(1);
        let sq: Square = square.parse().unwrap();
        grid[(sq.rank() - 1) as usize][sq.file() as usize] = letter.chars().next().unwrap();
    }
    let mut ranks = Vec::new();
    for rank in (0..8).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for c in grid[rank] {
            if c == ' ' {
                empty += 1;
            } else {
                if empty > 0 {
                    text.push_str(&empty.to_string());
                    empty = 0;
                }
                text.push(c);
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        ranks.push(text);
    }
    let fen = format!("{} {turn} {castling} - 0 1", ranks.join("/"));
    Bomberman::from_fen(&fen).unwrap_or_else(|e| panic!("{e}"))
}

fn setup(pieces: &[&str], turn: &str) -> Bomberman {
    setup_with(pieces, turn, "-")
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn start() -> Bomberman {
    Bomberman::start(&GameOptions::default()).unwrap()
}

fn sans(pos: &Bomberman) -> BTreeSet<String> {
    pos.legal_actions().iter().map(|a| pos.san(a)).collect()
}

/// Legal SANs that start with `prefix` (e.g. the moves of one piece kind).
fn sans_of(pos: &Bomberman, prefix: &str) -> BTreeSet<String> {
    sans(pos)
        .into_iter()
        .filter(|s| s.starts_with(prefix))
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// Plays `text` and returns the new position and the removal report.
fn play(pos: &Bomberman, text: &str) -> (Bomberman, Vec<Removal>) {
    let action = pos
        .parse_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut after = pos.clone();
    let removed = after.play_reported(&action);
    (after, removed)
}

fn display(pos: &Bomberman, text: &str) -> String {
    pos.san_with_marks(&pos.parse_action(text).unwrap())
}

fn removal(square: &str, color: Color, kind: Kind, cause: Cause) -> Removal {
    Removal {
        square: sq(square),
        piece: Piece::new(color, kind),
        cause,
    }
}

fn illegal_reason(pos: &Bomberman, text: &str) -> String {
    match pos.parse_action(text) {
        Err(ActionError::Illegal(e)) => e.reason,
        other => panic!("{text}: expected an illegal-action error, got {other:?}"),
    }
}

use Cause::{Captured, Exploded};
use Color::{Black, White};

// ---------------------------------------------------------------- BM-1

#[test]
fn bm1_start_position_board_and_setup() {
    let pos = start();
    assert_eq!(pos.to_fen(), START_FEN);
    let back = [
        Kind::Bomb,
        Kind::Rook,
        Kind::Knight,
        Kind::Bishop,
        Kind::Defuser,
        Kind::King,
        Kind::Bishop,
        Kind::Knight,
        Kind::Rook,
        Kind::Bomb,
    ];
    for (file, kind) in back.iter().enumerate() {
        let f = file as u8;
        let w1 = Square::new(f, 1).unwrap();
        let b8 = Square::new(f, 8).unwrap();
        assert_eq!(pos.piece_at(w1), Some(Piece::new(White, *kind)), "{w1}");
        assert_eq!(pos.piece_at(b8), Some(Piece::new(Black, *kind)), "{b8}");
        let w2 = Square::new(f, 2).unwrap();
        let b7 = Square::new(f, 7).unwrap();
        assert_eq!(pos.piece_at(w2), Some(Piece::new(White, Kind::Pawn)));
        assert_eq!(pos.piece_at(b7), Some(Piece::new(Black, Kind::Pawn)));
    }
    assert_eq!(pos.board_view().pieces.len(), 40);
    // BM-1: j1 is dark, so a1 is light on the 10-file board (files of opposite parity).
    assert!(Geometry::BOMBERMAN.is_dark(sq("j1")), "BM-1: j1 is dark");
    assert!(!Geometry::BOMBERMAN.is_dark(sq("a1")));
    assert_eq!(pos.turn(), White);
    assert_eq!(pos.castling_rights(), "KQkq");
    // 10 pawns x 2 steps, knights c1 to b3/d3 and h1 to g3/i3, detonating a1 or j1.
    assert_eq!(pos.legal_actions().len(), 20 + 4 + 2);
    assert!(sans(&pos).contains("Oxa1") && sans(&pos).contains("Ni3"));
}

// ---------------------------------------------------------------- BM-2

#[test]
fn bm2_defuser_moves_one_to_three_squares_without_jumping() {
    let pos = setup(&["Kj1", "kj8", "De4", "Pe6", "nb7"], "w");
    let moves = sans_of(&pos, "D");
    // Blocked north by its own pawn on e6; at most 3 squares elsewhere; captures b7.
    assert!(moves.contains("De5") && !moves.contains("De6") && !moves.contains("De7"));
    assert!(moves.contains("Dh4") && !moves.contains("Di4"));
    assert!(moves.contains("Db1") && moves.contains("Dh1") && moves.contains("De1"));
    assert!(moves.contains("Dxb7"));
    assert_eq!(moves.len(), 1 + 3 + 3 + 3 + 3 + 3 + 3 + 3);
}

#[test]
fn bm2_bomb_moves_one_or_two_squares_to_empty_squares_and_never_captures() {
    let pos = setup(&["Kj1", "kj8", "Oe4", "Pe5", "nd5"], "w");
    let moves: BTreeSet<String> = sans_of(&pos, "O")
        .into_iter()
        .filter(|s| !s.starts_with("Ox"))
        .collect();
    let expected = set(&[
        "Of5", "Og6", "Of4", "Og4", "Of3", "Og2", "Oe3", "Oe2", "Od3", "Oc2", "Od4", "Oc4",
    ]);
    assert_eq!(moves, expected);
    assert!(illegal_reason(&pos, "Od5").contains("never captures"));
    assert!(
        pos.parse_action("Oe6").is_err(),
        "it may not jump its own pawn"
    );
    assert!(illegal_reason(&pos, "Oxd5").contains("no bomb of yours on d5"));
}

#[test]
fn bm2_king_battler_moves_as_a_queen() {
    let pos = setup(&["Kf1", "kj8", "Qa1"], "w");
    // a-file 7, first rank up to the king 4, long diagonal 7.
    assert_eq!(sans_of(&pos, "KB").len(), 18);
    assert!(sans(&pos).contains("KBh8") && sans(&pos).contains("KBe1"));
}

// ---------------------------------------------------------------- BM-3

#[test]
fn bm3_promotion_to_each_allowed_piece() {
    let pos = setup(&["Kc1", "kj6", "Pb7"], "w");
    let promotions = sans_of(&pos, "b8");
    assert_eq!(promotions, set(&["b8=B", "b8=KB", "b8=N", "b8=R"]));
    for (text, kind) in [
        ("b8=N", Kind::Knight),
        ("b8=B", Kind::Bishop),
        ("b8=R", Kind::Rook),
        ("b8=KB", Kind::KingBattler),
    ] {
        let (after, _) = play(&pos, text);
        assert_eq!(after.piece_at(sq("b8")), Some(Piece::new(White, kind)));
    }
    let (after, _) = play(&pos, "b8=KB");
    assert!(after.to_fen().starts_with("1Q8/"), "KB is Q in FEN");
}

#[test]
fn bm3_promotion_refuses_defuser_bomb_and_king_and_reads_q_as_king_battler() {
    let pos = setup(&["Kc1", "kj6", "Pb7"], "w");
    for text in ["b8=D", "b8=O", "b8=K", "b7b8d"] {
        let reason = illegal_reason(&pos, text);
        assert!(reason.contains("promote"), "{text}: {reason}");
    }
    // There is no chess queen; Q is the King Battler (docs/notation/bomberman.md).
    let kb = pos.parse_action("b8=KB").unwrap();
    for text in ["b8=Q", "b8Q", "b8KB", "b7b8q", "b7b8kb"] {
        assert_eq!(pos.parse_action(text).unwrap(), kb, "{text}");
    }
    assert_eq!(pos.san(&kb), "b8=KB");
    assert_eq!(pos.uci(&kb), "b7b8q");
    assert!(illegal_reason(&pos, "b8").contains("promotes"));
}

#[test]
fn bm3_en_passant_on_the_ten_file_board() {
    let pos = setup(&["Kc1", "kc8", "Pi5", "pj7"], "b");
    let (pos, _) = play(&pos, "j5");
    assert_eq!(pos.ep_square(), Some(sq("j6")));
    assert!(pos.to_fen().contains(" w - j6 "), "{}", pos.to_fen());
    assert!(sans(&pos).contains("ixj6"));
    let (after, removed) = play(&pos, "ixj6");
    assert_eq!(removed, vec![removal("j5", Black, Kind::Pawn, Captured)]);
    assert_eq!(
        after.piece_at(sq("j6")),
        Some(Piece::new(White, Kind::Pawn))
    );
    assert_eq!(after.piece_at(sq("j5")), None);
    // The right lasts one ply only.
    let (later, _) = play(&pos, "Kd1");
    assert_eq!(later.ep_square(), None);
}

#[test]
fn bm3_pawn_double_step_only_from_its_start_rank() {
    let pos = start();
    assert!(sans(&pos).contains("j4") && sans(&pos).contains("a4"));
    let (pos, _) = play(&pos, "j3");
    let (pos, _) = play(&pos, "a6");
    assert!(!sans(&pos).contains("j5") && sans(&pos).contains("j4"));
}

// ---------------------------------------------------------------- BM-4

#[test]
fn bm4_castling_both_sides() {
    let pos = setup_with(&["Kf1", "Rb1", "Ri1", "kf8"], "w", "KQ");
    assert!(sans(&pos).contains("O-O") && sans(&pos).contains("O-O-O"));
    let (short, _) = play(&pos, "0-0");
    assert_eq!(
        short.piece_at(sq("h1")),
        Some(Piece::new(White, Kind::King))
    );
    assert_eq!(
        short.piece_at(sq("g1")),
        Some(Piece::new(White, Kind::Rook))
    );
    assert_eq!(short.castling_rights(), "-");
    let (long, _) = play(&pos, "O-O-O");
    assert_eq!(long.piece_at(sq("d1")), Some(Piece::new(White, Kind::King)));
    assert_eq!(long.piece_at(sq("e1")), Some(Piece::new(White, Kind::Rook)));
    let castle = pos.parse_action("O-O").unwrap();
    assert_eq!(pos.uci(&castle), "f1h1");
    assert_eq!(pos.parse_action("f1h1").unwrap(), castle);
    assert_eq!(pos.parse_action("0-0").unwrap(), castle);
}

#[test]
fn bm4_castling_refused_because_a_bomb_wave_would_cross_the_kings_path() {
    // With the king on g1 (rook still on i1), Black's bomb on g4 would blast down the
    // open g-file: the transit square is attacked, although f1 and h1 are not.
    let pos = setup_with(&["Kf1", "Ri1", "kf8", "og4"], "w", "K");
    assert!(!pos.is_check(White));
    assert!(!sans(&pos).contains("O-O"));
    assert!(illegal_reason(&pos, "O-O").starts_with("castling"));
    // A pawn on g2 stops the wave: castling is fine then.
    let shielded = setup_with(&["Kf1", "Ri1", "Pg2", "kf8", "og4"], "w", "K");
    assert!(sans(&shielded).contains("O-O"));
}

#[test]
fn bm4_castling_refused_out_of_check_and_into_a_bomb_wave() {
    let in_check = setup_with(&["Kf1", "Ri1", "rf6", "kj8"], "w", "K");
    assert!(in_check.is_check(White));
    assert!(!sans(&in_check).contains("O-O"));
    // The landing square h1 is on the wave of Black's bomb on h4.
    let landing = setup_with(&["Kf1", "Ri1", "kf8", "oh4"], "w", "K");
    assert!(!landing.is_check(White));
    assert!(!sans(&landing).contains("O-O"));
    assert!(illegal_reason(&landing, "O-O").contains("check"));
}

#[test]
fn bm4_castling_right_lost_when_the_rook_is_blasted() {
    let (pos, removed) = play(&start(), "Oxj1");
    assert!(removed.iter().any(|r| r.square == sq("i1")));
    assert_eq!(pos.castling_rights(), "Qkq");
}

// ---------------------------------------------------------------- BM-5

#[test]
fn bm5_detonation_is_a_whole_turn() {
    let pos = start();
    let (after, removed) = play(&pos, "Oxa1");
    assert_eq!(
        removed,
        vec![
            removal("a1", White, Kind::Bomb, Exploded),
            removal("a2", White, Kind::Pawn, Exploded),
            removal("b1", White, Kind::Rook, Exploded),
        ]
    );
    assert_eq!(after.turn(), Black);
    assert_eq!(after.halfmove_clock(), 0);
    assert_eq!(display(&pos, "Oxa1"), "Oxa1->a2,b1");
    let action = pos.parse_action("Oxa1").unwrap();
    assert_eq!(pos.uci(&action), "Oxa1");
    assert_eq!(
        pos.action_squares(&action).detonation,
        Some(sq("a1")),
        "highlight the detonated square"
    );
}

#[test]
fn bm5_detonation_that_hits_nothing_removes_only_the_bomb() {
    let pos = setup(&["Kj1", "kj8", "Ob5"], "w");
    let (_, removed) = play(&pos, "Oxb5");
    assert_eq!(removed, vec![removal("b5", White, Kind::Bomb, Exploded)]);
    assert_eq!(display(&pos, "Oxb5"), "Oxb5");
}

// ---------------------------------------------------------------- BM-6

#[test]
fn bm6_bomb_wave_stopped_by_a_friendly_piece() {
    let pos = setup(&["Kj1", "kj8", "Oc4", "Pc5", "rc7", "Ne4", "rf4"], "w");
    let (after, removed) = play(&pos, "Oxc4");
    assert_eq!(
        removed,
        vec![
            removal("c4", White, Kind::Bomb, Exploded),
            removal("c5", White, Kind::Pawn, Exploded),
            removal("e4", White, Kind::Knight, Exploded),
        ]
    );
    assert_eq!(
        after.piece_at(sq("c7")),
        Some(Piece::new(Black, Kind::Rook))
    );
    assert_eq!(
        after.piece_at(sq("f4")),
        Some(Piece::new(Black, Kind::Rook))
    );
}

#[test]
fn bm6_chain_of_three_bombs_third_wave_passes_a_square_emptied_earlier() {
    // c4 explodes: north hits the pawn on c6, east the bomb on e4, south the knight on c2.
    // e4 (not back west) hits the bomb on e6 northwards. e6 (not back south) hits the
    // knight on e7, then its west wave passes c6, emptied by the first wave, and hits b6.
    let pos = setup(
        &[
            "Kj1", "kj8", "Oc4", "pc6", "oe4", "Nc2", "Oe6", "ne7", "Rb6",
        ],
        "w",
    );
    let (after, removed) = play(&pos, "Oxc4");
    assert_eq!(
        removed,
        vec![
            removal("c4", White, Kind::Bomb, Exploded),
            removal("c6", Black, Kind::Pawn, Exploded),
            removal("e4", Black, Kind::Bomb, Exploded),
            removal("c2", White, Kind::Knight, Exploded),
            removal("e6", White, Kind::Bomb, Exploded),
            removal("e7", Black, Kind::Knight, Exploded),
            removal("b6", White, Kind::Rook, Exploded),
        ]
    );
    assert_eq!(after.board_view().pieces.len(), 2);
    assert_eq!(display(&pos, "Oxc4"), "Oxc4->c6,e4,c2,e6,e7,b6");
}

#[test]
fn bm6_chained_bomb_does_not_blast_back_towards_its_igniter() {
    // c4 hits b4 westwards and e4 eastwards. A wave from e4 back west would cross c4
    // and b4 (both empty by then) and hit a4; BM-6 skips that direction.
    let pos = setup(&["Kj1", "kj8", "Oc4", "oe4", "pb4", "na4"], "w");
    let (after, removed) = play(&pos, "Oxc4");
    let squares: Vec<String> = removed.iter().map(|r| r.square.to_string()).collect();
    assert_eq!(squares, ["c4", "e4", "b4"]);
    assert_eq!(
        after.piece_at(sq("a4")),
        Some(Piece::new(Black, Kind::Knight))
    );
}

#[test]
fn bm6_bombs_explode_first_in_first_out() {
    // c3 hits c5 (north, queued first) and e3 (east). c5's east wave and e3's north wave
    // cross at e5: c5 goes first, so it takes the pawn on e5 and e3's wave runs on to the
    // knight on e7; the rook on g5, behind e5 on c5's line, survives.
    let pos = setup(
        &["Kj1", "kj8", "Oc3", "oc5", "oe3", "pe5", "ne7", "rg5"],
        "w",
    );
    let (after, removed) = play(&pos, "Oxc3");
    let squares: Vec<String> = removed.iter().map(|r| r.square.to_string()).collect();
    assert_eq!(squares, ["c3", "c5", "e3", "e5", "e7"]);
    assert_eq!(
        after.piece_at(sq("g5")),
        Some(Piece::new(Black, Kind::Rook))
    );
}

// ---------------------------------------------------------------- BM-7

#[test]
fn bm7_defuser_removes_an_enemy_bomb_without_explosion() {
    let pos = setup(&["Kj1", "kj8", "De2", "oe5", "pe6", "pd5"], "w");
    let (after, removed) = play(&pos, "Dxe5");
    assert_eq!(removed, vec![removal("e5", Black, Kind::Bomb, Captured)]);
    assert_eq!(
        after.piece_at(sq("e5")),
        Some(Piece::new(White, Kind::Defuser))
    );
    assert_eq!(display(&pos, "Dxe5"), "Dxe5");
}

#[test]
fn bm7_other_capturer_is_destroyed_and_the_bomb_explodes_from_its_square() {
    // The rook leaves b4, so the bomb's west wave runs through b4 to the knight on a4.
    let pos = setup(&["Kj1", "kj8", "Rb4", "Na4", "oe4", "pe6"], "w");
    let (after, removed) = play(&pos, "Rxe4");
    assert_eq!(
        removed,
        vec![
            removal("e4", White, Kind::Rook, Exploded),
            removal("e4", Black, Kind::Bomb, Exploded),
            removal("e6", Black, Kind::Pawn, Exploded),
            removal("a4", White, Kind::Knight, Exploded),
        ]
    );
    assert_eq!(after.board_view().pieces.len(), 2);
    assert_eq!(display(&pos, "Rxe4"), "Rxe4->e4,e6,a4");
}

#[test]
fn bm7_promotion_capturing_a_bomb_counts_each_choice_and_explodes() {
    let pos = setup(&["Kc1", "kj8", "Pb7", "oa8", "rd8"], "w");
    assert_eq!(
        sans_of(&pos, "bxa8"),
        set(&["bxa8=B", "bxa8=KB", "bxa8=N", "bxa8=R"])
    );
    let (_, removed) = play(&pos, "bxa8=KB");
    assert_eq!(
        removed,
        vec![
            removal("a8", White, Kind::KingBattler, Exploded),
            removal("a8", Black, Kind::Bomb, Exploded),
            removal("d8", Black, Kind::Rook, Exploded),
        ]
    );
}

#[test]
fn bm7_a_king_tries_to_capture_a_bomb() {
    let pos = setup(&["Ke1", "kj8", "od2"], "w");
    assert!(!pos.is_check(White));
    assert!(!sans(&pos).contains("Kxd2"));
    assert!(illegal_reason(&pos, "Kxd2").contains("destroy your own king"));
    assert!(sans(&pos).contains("Kf1"));
}

// ---------------------------------------------------------------- BM-8

#[test]
fn bm8_check_from_an_ordinary_attack() {
    let pos = setup(&["Kf1", "kj8", "Rb2"], "w");
    let (after, _) = play(&pos, "Rj2");
    assert!(after.is_check(Black));
    assert_eq!(after.checked_squares(), vec![sq("j8")]);
    assert_eq!(display(&pos, "Rj2"), "Rj2+");
}

#[test]
fn bm8_check_given_through_a_chained_bomb() {
    // After Oc4, detonating c4 would hit Black's bomb on f4, whose north wave reaches f7.
    let pos = setup(&["Kj1", "kf7", "Oc3", "of4"], "w");
    assert!(!pos.is_check(Black));
    let (after, _) = play(&pos, "Oc4");
    assert!(after.is_check(Black));
    assert_eq!(after.checked_squares(), vec![sq("f7")]);
    assert_eq!(display(&pos, "Oc4"), "Oc4+");
    // Black may not detonate f4 (its own king is on the wave) and must meet the check.
    assert!(illegal_reason(&after, "Oxf4").contains("destroy your own king"));
    for action in after.legal_actions() {
        let mut next = after.clone();
        next.play_unchecked(&action);
        assert!(!next.is_check(Black), "{}", after.san(&action));
    }
    assert!(
        sans(&after).contains("Of5"),
        "moving the bomb off the line helps"
    );
}

#[test]
fn bm8_check_by_threat_to_capture_a_bomb_but_not_with_a_defuser() {
    // Nxe5 would set off Black's bomb, whose north wave reaches the king on e8.
    let pos = setup(&["Ka1", "Ng1", "ke8", "oe5"], "w");
    assert_eq!(display(&pos, "Nf3"), "Nf3+");
    // A Defuser removes the bomb safely: no check.
    let pos = setup(&["Ka1", "Dd2", "ke8", "oe5"], "w");
    let (after, _) = play(&pos, "De2");
    assert!(!after.is_check(Black));
}

#[test]
fn bm8_not_check_when_the_blast_would_also_kill_the_bombers_own_king() {
    // White's bomb on e4 would blast both kings on the open e-file.
    let both = setup(&["Ke1", "Oe4", "ke8"], "b");
    assert!(!both.is_check(Black));
    assert!(both.checked_squares().is_empty());
    let only_black = setup(&["Kd1", "Oe4", "ke8"], "b");
    assert!(only_black.is_check(Black));
}

#[test]
fn bm8_pinned_defuser() {
    // Pinned by a rook: only moves along the e-file.
    let pos = setup(&["Ke1", "De2", "re8", "kj8"], "w");
    assert_eq!(sans_of(&pos, "D"), set(&["De3", "De4", "De5"]));
    // Pinned by a bomb's wave: it may stay on the file or remove the bomb.
    let pos = setup(&["Ke1", "De3", "oe5", "kj8"], "w");
    assert_eq!(sans_of(&pos, "D"), set(&["De2", "De4", "Dxe5"]));
}

#[test]
fn bm8_king_may_not_step_onto_a_bomb_wave() {
    // Black's bomb on d4 blasts down the open d-file.
    let pos = setup(&["Ke1", "kj8", "od4"], "w");
    let kings = sans_of(&pos, "K");
    assert!(!kings.contains("Kd1") && !kings.contains("Kd2"));
    assert!(kings.contains("Kf2") && kings.contains("Ke2"));
    assert!(!pos.legal_actions().is_empty());
}

#[test]
fn bm8_stalemate_is_a_draw() {
    let pos = setup(&["Kj1", "Qb6", "ka8"], "b");
    assert!(!pos.is_check(Black));
    assert!(pos.legal_actions().is_empty());
    assert_eq!(
        pos.variant_outcome().map(|o| (o.winner, o.reason)),
        Some((None, EndReason::Stalemate))
    );
}

// ---------------------------------------------------------------- BM-9

#[test]
fn bm9_sample_problem_one_og8_is_checkmate() {
    let pos = Bomberman::from_fen("1r6k1/6O3/7K2/10/9R/10/10/10 w - - 0 2").unwrap();
    assert_eq!(display(&pos, "Og8"), "Og8#");
    let (after, _) = play(&pos, "Og8");
    assert!(after.is_check(Black));
    assert!(after.legal_actions().is_empty());
    assert_eq!(
        after.variant_outcome().map(|o| (o.winner, o.reason)),
        Some((Some(White), EndReason::Checkmate))
    );
    // The rook cannot remove the bomb: Rxg8 would blow up its own king.
    assert!(illegal_reason(&after, "Rxg8").contains("destroy your own king"));
    let status = after.board_view().status;
    assert!(matches!(status, Status::Finished(o) if o.winner == Some(White)));
}

#[test]
fn bm9_sample_problem_two_oh8_is_not_check_and_play_goes_on() {
    let pos = Bomberman::from_fen("1r6k1/7O2/7K2/10/9R/10/10/10 w - - 0 2").unwrap();
    assert_eq!(display(&pos, "Oh8"), "Oh8");
    let (after, _) = play(&pos, "Oh8");
    assert!(
        !after.is_check(Black),
        "the blast would destroy White's king too"
    );
    assert!(illegal_reason(&after, "Kxh8").contains("destroy your own king"));
    assert!(after.variant_outcome().is_none());
    let moves = sans(&after);
    assert!(!moves.is_empty() && moves.iter().all(|m| m.starts_with('R')));
}

// ---------------------------------------------------------------- C-4, C-6

#[test]
fn c4_threefold_repetition_and_hundred_ply_rule() {
    let mut game: Game<Bomberman> = Game::new(GameOptions::default()).unwrap();
    for text in ["Nb3", "Nb6", "Nc1", "Nc8", "Nb3", "Nb6", "Nc1"] {
        game.play(None, text).unwrap();
        assert!(!game.status().is_finished());
    }
    game.play(None, "Nc8").unwrap();
    assert_eq!(
        game.status().outcome().map(|o| o.reason),
        Some(EndReason::Repetition)
    );

    let pos = Bomberman::from_fen("4k5/10/10/10/10/10/O9/5K4 w - - 99 80").unwrap();
    assert_eq!(pos.automatic_draw(), None);
    let (quiet, _) = play(&pos, "Ob3");
    assert_eq!(quiet.automatic_draw(), Some(EndReason::HundredPly));
    let (blast, _) = play(&pos, "Oxa2");
    assert_eq!(blast.halfmove_clock(), 0, "an explosion resets the count");
}

#[test]
fn c4_repetition_key_ignores_an_unusable_en_passant_square() {
    let a = start();
    let (a, _) = play(&a, "e4");
    let b = Bomberman::from_fen(&a.to_fen().replace(" e3 ", " - ")).unwrap();
    assert_ne!(a, b);
    assert_eq!(a.repetition_key(), b.repetition_key());
    assert_ne!(a.repetition_key(), start().repetition_key());
}

#[test]
fn c6_removal_causes_capture_and_explosion() {
    let pos = setup(&["Kj1", "kj8", "Nc3", "pd5", "Oa5"], "w");
    let (_, removed) = play(&pos, "Nxd5");
    assert_eq!(removed, vec![removal("d5", Black, Kind::Pawn, Captured)]);
    let (_, removed) = play(&pos, "Oxa5");
    assert_eq!(removed.last().unwrap().cause, Exploded);
    assert_eq!(removed.last().unwrap().square, sq("d5"));
}
