//! Bombalot rulings BA-1 to BA-19 (docs/rules/RULINGS.md section 5): one named test per ruling or
//! behaviour, each citing its ruling id.

use kaboom_rules::bombalot::{ActionKind, Bombalot, BombalotAction, SquareSet};
use kaboom_rules::{
    ActionError, AnyGame, Cause, Color, EndReason, GameOptions, Kind, Outcome, Piece, Position,
    Removal, Square, Variant, Viewer,
};

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// Builds a 4-field serialization from `(square, letter)` pairs on the main board
/// (letters as in the FEN: `W` tweke, `S` super-tweke, `T` tank, `D` detonator,
/// `M` immobilizer, `O` bomb, `I`/`I(D)` imitator; lower case for Black).
fn fen(pieces: &[(&str, &str)], turn: char, goals: &str, last: &str) -> String {
    let mut grid: Vec<Vec<String>> = vec![vec![String::new(); 8]; 8];
    for (square, letter) in pieces {
        let s = sq(square);
        assert!(
            (1..=8).contains(&s.rank()),
            "{square} is not on the main board"
        );
        grid[8 - s.rank() as usize][s.file() as usize] = letter.to_string();
    }
    let ranks: Vec<String> = grid
        .iter()
        .map(|row| {
            let mut text = String::new();
            let mut empty = 0;
            for cell in row {
                if cell.is_empty() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push_str(cell);
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    format!("{} {turn} {goals} {last}", ranks.join("/"))
}

fn pos(pieces: &[(&str, &str)], turn: char, goals: &str, last: &str) -> Bombalot {
    let text = fen(pieces, turn, goals, last);
    Bombalot::from_fen(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A position with White to move, empty goals and no last-moved kinds (`---- --`), the
/// setup of most tests here.
fn white_to_move(pieces: &[(&str, &str)]) -> Bombalot {
    pos(pieces, 'w', "----", "--")
}

fn parse(p: &Bombalot, text: &str) -> BombalotAction {
    p.parse_action(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", p.to_fen()))
}

/// Plays `text` and returns the removals.
fn play(p: &mut Bombalot, text: &str) -> Vec<Removal> {
    let action = parse(p, text);
    p.play_reported(&action)
}

fn piece(p: &Bombalot, square: &str) -> Option<Piece> {
    p.piece_at(sq(square))
}

fn white(kind: Kind) -> Option<Piece> {
    Some(Piece::new(Color::White, kind))
}

fn black(kind: Kind) -> Option<Piece> {
    Some(Piece::new(Color::Black, kind))
}

fn removed(report: &[Removal]) -> Vec<(String, Cause)> {
    report
        .iter()
        .map(|r| (r.square.to_string(), r.cause))
        .collect()
}

/// Asserts the removals of `report`, in order, as (square, cause) (C-6).
#[track_caller]
fn assert_removed(report: &[Removal], want: &[(&str, Cause)]) {
    let want: Vec<(String, Cause)> = want.iter().map(|&(s, c)| (s.to_string(), c)).collect();
    assert_eq!(removed(report), want);
}

fn actions_from(p: &Bombalot, from: &str) -> Vec<String> {
    p.legal_actions()
        .iter()
        .filter(|a| a.from == sq(from))
        .map(|a| p.san(a))
        .collect()
}

fn is_illegal(p: &Bombalot, text: &str) -> bool {
    matches!(p.parse_action(text), Err(ActionError::Illegal(_)))
}

#[test]
fn ba1_start_position_serialization() {
    let start = Bombalot::start(&GameOptions::default()).unwrap();
    assert_eq!(
        start.to_fen(),
        "id1om1dt/1swwwws1/2wwww2/8/8/2WWWW2/1SWWWWS1/ID1OM1DT w ---- -- 0 1"
    );
    assert_eq!(Bombalot::from_fen(&start.to_fen()).unwrap(), start);
    assert_eq!(piece(&start, "e1"), white(Kind::Immobilizer));
    assert_eq!(piece(&start, "b7"), black(Kind::SuperTweke));
    assert!(
        Bombalot::start(&GameOptions {
            carriers: 3,
            dead_mans_switch: false
        })
        .is_err()
    );
}

#[test]
fn ba1_serialization_errors_say_what_is_wrong() {
    let bad = [
        ("8/8/8/8/8/8/8 w ---- --", "8 ranks"),
        ("8/8/8/8/8/8/8/7X w ---- --", "not a Bombalot piece"),
        ("8/8/8/8/8/8/8/8 x ---- --", "side to move"),
        ("8/8/8/8/8/8/8/8 w --- --", "4 entries"),
        ("8/8/8/8/8/8/8/8 w W--- --", "only black pieces"),
        ("8/8/8/8/8/8/8/8 w ---- I-", "last moved kind"),
        ("8/8/8/8/8/8/8/T(D)7 w ---- --", "only an imitator"),
        ("8/8/8/8/8/8/8/8 w ---- -- x 1", "halfmove"),
        ("8/8/8/8/8/8/8/8 w ---- -- 0 0", "fullmove"),
        ("WWWWWWWW/WWWWWWWW/W7/8/8/8/8/8 w ---- --", "at most 16"),
    ];
    for (text, needle) in bad {
        let err = Bombalot::from_fen(text).unwrap_err();
        assert!(err.reason.contains(needle), "{text}: {}", err.reason);
    }
}

#[test]
fn ba4_tweke_double_jump_removes_two_enemy_pieces() {
    let mut p = white_to_move(&[("c3", "W"), ("d4", "w"), ("d6", "s"), ("h8", "t")]);
    let report = play(&mut p, "c3:e5:c7");
    assert_removed(&report, &[("d4", Cause::Jumped), ("d6", Cause::Jumped)]);
    assert_eq!(piece(&p, "c7"), white(Kind::Tweke));
    assert_eq!(piece(&p, "c3"), None);
    assert_eq!(p.halfmove_clock(), 0);
    // Stopping after the first jump is another action (BA-17), removing one piece.
    let mut q = white_to_move(&[("c3", "W"), ("d4", "w"), ("d6", "s"), ("h8", "t")]);
    assert_removed(&play(&mut q, "c3:e5"), &[("d4", Cause::Jumped)]);
}

#[test]
fn ba4_ba5_tweke_refused_a_mixed_jump_that_a_super_tweke_may_make() {
    // c3 over its own d4 to e5, then over the enemy f6 to g7.
    let tweke = white_to_move(&[("c3", "W"), ("d4", "W"), ("f6", "w"), ("h8", "t")]);
    assert!(actions_from(&tweke, "c3").contains(&"c3:e5".to_string()));
    assert!(!actions_from(&tweke, "c3").iter().any(|s| s.ends_with("g7")));
    match tweke.parse_action("c3:e5:g7") {
        Err(ActionError::Illegal(e)) => assert!(e.reason.contains("one colour"), "{}", e.reason),
        other => panic!("expected an illegal mixed jump, got {other:?}"),
    }
    let mut sup = white_to_move(&[("c3", "S"), ("d4", "W"), ("f6", "w"), ("h8", "t")]);
    let report = play(&mut sup, "c3:e5:g7");
    assert_removed(&report, &[("f6", Cause::Jumped)]);
    assert_eq!(
        piece(&sup, "d4"),
        white(Kind::Tweke),
        "own pieces are never removed"
    );
    assert_eq!(piece(&sup, "g7"), white(Kind::SuperTweke));
}

#[test]
fn ba9_jump_over_a_bomb_leaves_it() {
    let mut p = white_to_move(&[("c3", "W"), ("d4", "o"), ("h8", "t")]);
    let report = play(&mut p, "c3:e5");
    assert!(report.is_empty());
    assert_eq!(piece(&p, "d4"), black(Kind::Bomb));
    assert_eq!(piece(&p, "e5"), white(Kind::Tweke));
}

#[test]
fn ba17_enemy_bomb_counts_as_enemy_for_the_one_colour_rule() {
    // c3 over the black bomb d4 to e5, then over the own f6 to g7: mixed, refused.
    let p = white_to_move(&[("c3", "W"), ("d4", "o"), ("f6", "W"), ("h8", "t")]);
    assert!(is_illegal(&p, "c3:e5:g7"));
    assert!(actions_from(&p, "c3").contains(&"c3:e5".to_string()));
}

#[test]
fn ba4_same_directed_jump_not_twice_and_sequences_finite() {
    // Enemy pieces around an empty square: the tweke can circle, but no directed jump
    // twice; the list is finite and every action prints and parses back.
    let p = white_to_move(&[
        ("c3", "W"),
        ("d4", "w"),
        ("d3", "w"),
        ("c4", "w"),
        ("e4", "w"),
        ("d5", "w"),
        ("h8", "t"),
    ]);
    for a in p.legal_actions() {
        assert_eq!(parse(&p, &p.san(&a)), a);
    }
    // c3:e5 over d4, e5:c3 back over d4 captures d4 and ends on the start square.
    let back = parse(&p, "c3:e5:c3");
    assert_eq!(back.to, sq("c3"));
    match p.parse_action("c3:e5:c3:e5") {
        Err(ActionError::Illegal(e)) => assert!(e.reason.contains("twice"), "{}", e.reason),
        other => panic!("expected a repeated jump to be refused, got {other:?}"),
    }
}

#[test]
fn ba17_same_effect_sequences_are_one_action_printed_shortest() {
    // Own pieces d3, c4, d5, e4 around d4: e3 is reached by c3:e3 and by c3:c5:e5:e3.
    let p = white_to_move(&[
        ("c3", "W"),
        ("d3", "W"),
        ("c4", "W"),
        ("d5", "W"),
        ("e4", "W"),
        ("h8", "t"),
    ]);
    let to_e3: Vec<String> = actions_from(&p, "c3")
        .into_iter()
        .filter(|s| s.ends_with("e3"))
        .collect();
    assert_eq!(to_e3, ["c3:e3"]);
    assert_eq!(parse(&p, "c3:c5:e5:e3"), parse(&p, "c3:e3"));
    // Two shortest paths to e5: c3:c5:e5 and c3:e3:e5; the smaller squares win (e3 < c5).
    let to_e5: Vec<String> = actions_from(&p, "c3")
        .into_iter()
        .filter(|s| s.ends_with("e5"))
        .collect();
    assert_eq!(to_e5, ["c3:e3:e5"]);
    // Back to the start removing nothing is a pass.
    assert!(is_illegal(&p, "c3:e3:c3"));
    assert!(!actions_from(&p, "c3").iter().any(|s| s.ends_with(":c3")));
}

#[test]
fn ba6_ba14_tank_pushes_line_of_three_off_the_edge_last_is_a_bomb() {
    let mut p = white_to_move(&[
        ("e4", "T"),
        ("f4", "w"),
        ("g4", "s"),
        ("h4", "o"),
        ("h5", "w"),
        ("a8", "t"),
    ]);
    let report = play(&mut p, "e4-f4");
    // The bomb explodes on h4 first (taking g4 and h5), then the survivors move.
    assert_removed(
        &report,
        &[
            ("h4", Cause::Exploded),
            ("g4", Cause::Exploded),
            ("h5", Cause::Exploded),
        ],
    );
    assert_eq!(piece(&p, "f4"), white(Kind::Tank));
    assert_eq!(piece(&p, "g4"), black(Kind::Tweke));
    assert_eq!(piece(&p, "h4"), None);
}

#[test]
fn ba14_tank_destroyed_by_the_blast_does_not_move() {
    let mut p = white_to_move(&[("g4", "T"), ("h4", "o"), ("a1", "W"), ("a8", "t")]);
    let report = play(&mut p, "g4-h4");
    assert_removed(&report, &[("h4", Cause::Exploded), ("g4", Cause::Exploded)]);
    assert_eq!(piece(&p, "h4"), None);
    assert_eq!(piece(&p, "g4"), None);
}

#[test]
fn ba6_pieces_pushed_over_the_edge_are_removed() {
    let mut p = white_to_move(&[("f4", "T"), ("g4", "w"), ("h4", "W"), ("a8", "t")]);
    let report = play(&mut p, "f4-g4");
    assert_removed(&report, &[("h4", Cause::PushedOff)]);
    assert_eq!(piece(&p, "h4"), black(Kind::Tweke));
    assert_eq!(piece(&p, "g4"), white(Kind::Tank));
}

#[test]
fn ba6_ba14_tank_pushes_immobilizer_with_the_two_pieces_it_freezes() {
    // The black immobilizer c3 freezes the white twekes b4 and d4; the white immobilizer
    // b1 keeps the tank c2 free.
    let mut p = white_to_move(&[
        ("c2", "T"),
        ("b1", "M"),
        ("c3", "m"),
        ("b4", "W"),
        ("d4", "W"),
        ("h8", "t"),
    ]);
    let frozen = p.frozen();
    assert!(frozen.contains(sq("b4")) && frozen.contains(sq("d4")));
    assert!(!frozen.contains(sq("c2")));
    let report = play(&mut p, "c2-c3");
    assert!(report.is_empty());
    assert_eq!(piece(&p, "c3"), white(Kind::Tank));
    assert_eq!(piece(&p, "c4"), black(Kind::Immobilizer));
    assert_eq!(piece(&p, "b5"), white(Kind::Tweke));
    assert_eq!(piece(&p, "d5"), white(Kind::Tweke));
    assert_eq!(piece(&p, "b4"), None);
    assert_eq!(piece(&p, "d4"), None);
}

#[test]
fn ba14_frozen_group_drags_the_line_in_front_of_every_member() {
    // Pushing the frozen d4 north drags its immobilizer e5, which pushes the line e6, e7
    // in front of it.
    let mut p = white_to_move(&[
        ("d3", "T"),
        ("d4", "W"),
        ("e5", "m"),
        ("e6", "w"),
        ("e7", "W"),
        ("h8", "t"),
    ]);
    play(&mut p, "d3-d4");
    assert_eq!(piece(&p, "d5"), white(Kind::Tweke));
    assert_eq!(piece(&p, "e6"), black(Kind::Immobilizer));
    assert_eq!(piece(&p, "e7"), black(Kind::Tweke));
    assert_eq!(piece(&p, "e8"), white(Kind::Tweke));
}

#[test]
fn ba6_white_piece_pushed_into_d9_enters_black_piece_pushed_off_from_d8() {
    let mut enters = white_to_move(&[("d7", "T"), ("d8", "W"), ("a8", "t")]);
    let report = play(&mut enters, "d7-d8");
    assert!(report.is_empty());
    assert_eq!(piece(&enters, "d9"), white(Kind::Tweke));
    assert_eq!(enters.goal_count(Color::White), 1);
    assert_eq!(
        enters.halfmove_clock(),
        0,
        "a goal entry resets the clock (BA-12)"
    );
    assert!(enters.board_view().piece_at(sq("d9")).unwrap().locked);

    let mut off = white_to_move(&[("d7", "T"), ("d8", "w"), ("a8", "t")]);
    let report = play(&mut off, "d7-d8");
    assert_removed(&report, &[("d8", Cause::PushedOff)]);
    assert_eq!(piece(&off, "d9"), None);

    // An occupied goal is never entered: the pushed White piece goes off.
    let mut full = pos(&[("e7", "T"), ("e8", "W"), ("a8", "t")], 'w', "---S", "--");
    let report = play(&mut full, "e7-e8");
    assert_removed(&report, &[("e8", Cause::PushedOff)]);
    assert_eq!(piece(&full, "e9"), white(Kind::SuperTweke));
    assert_eq!(piece(&full, "e8"), white(Kind::Tank));
}

#[test]
fn ba6_black_piece_pushed_south_enters_d0() {
    let mut p = white_to_move(&[("d3", "T"), ("d2", "w"), ("d1", "w"), ("a8", "t")]);
    play(&mut p, "d3-d2");
    assert_eq!(
        piece(&p, "d0"),
        black(Kind::Tweke),
        "BA-14: any tank may push a piece into its scoring goal"
    );
    assert_eq!(piece(&p, "d1"), black(Kind::Tweke));
    assert_eq!(p.goal_count(Color::Black), 1);
}

#[test]
fn ba7_detonator_move_removes_enemy_on_one_co_square_and_explodes_bomb_on_the_other() {
    // Partner a1; the mover c2 goes to e3: co-squares a3 and e1.
    let mut p = white_to_move(&[
        ("a1", "D"),
        ("c2", "D"),
        ("a3", "w"),
        ("e1", "o"),
        ("f2", "w"),
        ("h8", "t"),
    ]);
    let report = play(&mut p, "c2-e3");
    assert_removed(
        &report,
        &[
            ("a3", Cause::CoSquare),
            ("e1", Cause::Exploded),
            ("f2", Cause::Exploded),
        ],
    );
    assert_eq!(piece(&p, "e3"), white(Kind::Detonator));
    assert_eq!(piece(&p, "a1"), white(Kind::Detonator));
}

#[test]
fn ba7_co_squares_hit_own_pieces_and_need_different_rank_and_file() {
    // b1 partner, g1 moves to h3: co-squares b3 and h1 (the own tank on h1 goes).
    let mut p = white_to_move(&[
        ("b1", "D"),
        ("g1", "D"),
        ("h1", "T"),
        ("b3", "W"),
        ("h8", "t"),
    ]);
    let report = play(&mut p, "g1-h3");
    assert_removed(&report, &[("h1", Cause::CoSquare), ("b3", Cause::CoSquare)]);
    // Same file as the partner: no rectangle, nothing removed.
    let mut q = white_to_move(&[
        ("b1", "D"),
        ("c5", "D"),
        ("b5", "w"),
        ("c1", "w"),
        ("h8", "t"),
    ]);
    assert!(play(&mut q, "b1-c3").is_empty());
    assert_eq!(piece(&q, "c5"), white(Kind::Detonator));
}

#[test]
fn ba7_detonator_landing_on_a_bomb_explodes_with_it() {
    let mut p = white_to_move(&[
        ("b1", "D"),
        ("h1", "D"),
        ("c3", "o"),
        ("d4", "w"),
        ("b3", "W"),
        ("h8", "t"),
    ]);
    assert!(actions_from(&p, "b1").contains(&"b1-c3".to_string()));
    let squares = p.action_squares(&parse(&p, "b1-c3"));
    assert_eq!(squares.detonation, Some(sq("c3")));
    let report = play(&mut p, "b1-c3");
    assert_removed(
        &report,
        &[
            ("c3", Cause::Exploded),
            ("c3", Cause::Exploded),
            ("b3", Cause::Exploded),
            ("d4", Cause::Exploded),
        ],
    );
    assert_eq!(report[1].piece, Piece::new(Color::White, Kind::Detonator));
    assert_eq!(piece(&p, "c3"), None);
    assert_eq!(piece(&p, "h1"), white(Kind::Detonator));
}

#[test]
fn ba9_bomb_cascade() {
    // d4 explodes; e5 (a black bomb next to it) explodes in turn and takes f6, which
    // is out of d4's reach; f6 is a bomb too and takes g7.
    let mut p = white_to_move(&[
        ("d4", "O"),
        ("e5", "o"),
        ("f6", "o"),
        ("g7", "w"),
        ("a8", "t"),
        ("a1", "T"),
    ]);
    let report = play(&mut p, "d4!");
    assert_removed(
        &report,
        &[
            ("d4", Cause::Exploded),
            ("e5", Cause::Exploded),
            ("f6", Cause::Exploded),
            ("g7", Cause::Exploded),
        ],
    );
    assert_eq!(piece(&p, "a8"), black(Kind::Tank));
}

#[test]
fn ba9_bomb_steps_and_explodes_and_ba16_not_into_a_goal() {
    let mut p = white_to_move(&[("d7", "O"), ("c8", "w"), ("a1", "T"), ("h8", "t")]);
    let moves = actions_from(&p, "d7");
    assert!(moves.contains(&"d7-d8".to_string()));
    assert!(moves.contains(&"d7-d8!".to_string()));
    assert!(moves.contains(&"d7!".to_string()));
    let report = play(&mut p, "d7-d8!");
    assert_removed(&report, &[("d8", Cause::Exploded), ("c8", Cause::Exploded)]);
    // From d8 a bomb may step into d9 but not step and explode there.
    let q = white_to_move(&[("d8", "O"), ("a1", "T"), ("h8", "t")]);
    let moves = actions_from(&q, "d8");
    assert!(moves.contains(&"d8-d9".to_string()));
    assert!(!moves.contains(&"d8-d9!".to_string()));
    assert!(is_illegal(&q, "d8-d9!"));
}

#[test]
fn ba9_tweke_step_with_a_glyph_is_not_an_explosion() {
    let p = white_to_move(&[("c3", "W"), ("h8", "t")]);
    assert_eq!(parse(&p, "c3-c4!"), parse(&p, "c3-c4"));
    assert_eq!(parse(&p, "c3c4"), parse(&p, "c3-c4"));
    assert!(is_illegal(&p, "c3!"));
    assert!(matches!(p.parse_action("c3-"), Err(ActionError::Parse(_))));
    assert!(matches!(
        p.parse_action("hello"),
        Err(ActionError::Parse(_))
    ));
    assert!(matches!(
        p.parse_action("c3-c4-c5"),
        Err(ActionError::Parse(_))
    ));
}

#[test]
fn ba10_imitator_moves_as_detonator_with_co_squares_from_both_friendly_detonators() {
    // Black last moved a detonator. The imitator b1 goes to c3; partners a5 and f6:
    // co-squares c5, a3 (with a5) and c6, f3 (with f6).
    let mut p = pos(
        &[
            ("b1", "I"),
            ("a5", "D"),
            ("f6", "D"),
            ("c5", "w"),
            ("a3", "w"),
            ("c6", "s"),
            ("f3", "m"),
            ("h8", "t"),
        ],
        'w',
        "----",
        "-d",
    );
    let report = play(&mut p, "b1-c3");
    let mut squares: Vec<String> = removed(&report).into_iter().map(|(s, _)| s).collect();
    squares.sort();
    assert_eq!(squares, ["a3", "c5", "c6", "f3"]);
    assert!(report.iter().all(|r| r.cause == Cause::CoSquare));
    assert_eq!(p.imitating(sq("c3")), Some(Kind::Detonator));
    assert_eq!(p.last_moved(Color::White), Some(Kind::Detonator));
    let view = p.board_view();
    assert_eq!(
        view.piece_at(sq("c3")).unwrap().imitating,
        Some(Kind::Detonator)
    );
    assert!(p.to_fen().contains("I(D)"), "{}", p.to_fen());
}

#[test]
fn ba10_imitator_cannot_move_on_whites_first_turn() {
    let start = Bombalot::start_position();
    assert!(actions_from(&start, "a1").is_empty());
    match start.parse_action("a1-a2") {
        Err(ActionError::Illegal(e)) => assert!(
            e.reason
                .ends_with("cannot move before the opponent has moved"),
            "{}",
            e.reason
        ),
        other => panic!("expected an illegal imitator move, got {other:?}"),
    }
    // After Black's first move, Black's imitator moves as White's first kind.
    let mut p = start.clone();
    play(&mut p, "c3-c4");
    assert_eq!(p.last_moved(Color::White), Some(Kind::Tweke));
    let moves = actions_from(&p, "a8");
    assert!(moves.contains(&"a8-a7".to_string()), "{moves:?}");
}

#[test]
fn ba10_imitator_takes_the_kind_the_opponent_imitator_moved_as() {
    // White's imitator moved as a tank; Black's imitator now moves as a tank too.
    let p = pos(
        &[("a1", "I(T)"), ("a8", "i"), ("b8", "w"), ("h1", "W")],
        'b',
        "----",
        "Tw",
    );
    let moves = actions_from(&p, "a8");
    assert_eq!(moves, ["a8-a7", "a8-b8"]);
    let mut q = p.clone();
    play(&mut q, "a8-b8");
    assert_eq!(
        piece(&q, "c8"),
        black(Kind::Tweke),
        "the imitator pushed as a tank"
    );
    assert_eq!(q.imitating(sq("b8")), Some(Kind::Tank));
}

#[test]
fn ba18_imitator_with_bomb_powers_survives_jumps_and_explodes_when_blasted() {
    // Black's imitator has bomb powers: a tweke jumps it without removing it, and a bomb
    // blast makes it explode in turn.
    let mut p = white_to_move(&[
        ("c3", "W"),
        ("d4", "i(o)"),
        ("e4", "w"),
        ("a1", "T"),
        ("h8", "t"),
    ]);
    assert!(play(&mut p, "c3:e5").is_empty());
    assert_eq!(piece(&p, "d4"), black(Kind::Imitator));
    let mut q = white_to_move(&[
        ("c3", "O"),
        ("d4", "i(o)"),
        ("e5", "w"),
        ("a1", "T"),
        ("h8", "t"),
    ]);
    let report = play(&mut q, "c3!");
    assert_removed(
        &report,
        &[
            ("c3", Cause::Exploded),
            ("d4", Cause::Exploded),
            ("e5", Cause::Exploded),
        ],
    );
}

#[test]
fn ba18_imitator_that_moved_as_immobilizer_freezes() {
    let p = pos(
        &[("d4", "I(M)"), ("e5", "w"), ("a1", "T"), ("h8", "t")],
        'b',
        "----",
        "Mw",
    );
    assert!(p.frozen().contains(sq("e5")));
    assert!(actions_from(&p, "e5").is_empty());
    assert!(p.board_view().piece_at(sq("e5")).unwrap().frozen);
}

#[test]
fn ba3_frozen_piece_takes_no_action_and_friendly_immobilizer_cancels_freezing() {
    let frozen = white_to_move(&[("d4", "W"), ("e5", "m"), ("h1", "T"), ("h8", "t")]);
    assert!(actions_from(&frozen, "d4").is_empty());
    match frozen.parse_action("d4-d3") {
        Err(ActionError::Illegal(e)) => assert!(e.reason.contains("frozen"), "{}", e.reason),
        other => panic!("expected a frozen piece to be refused, got {other:?}"),
    }
    let freed = white_to_move(&[
        ("d4", "W"),
        ("e5", "m"),
        ("c3", "M"),
        ("h1", "T"),
        ("h8", "t"),
    ]);
    assert!(!freed.frozen().contains(sq("d4")));
    assert!(actions_from(&freed, "d4").contains(&"d4-d3".to_string()));
}

#[test]
fn ba3_two_touching_enemy_immobilizers_freeze_each_other() {
    let p = white_to_move(&[("d4", "M"), ("e5", "m"), ("h1", "T"), ("h8", "t")]);
    assert!(p.frozen().contains(sq("d4")) && p.frozen().contains(sq("e5")));
    assert!(actions_from(&p, "d4").is_empty());
}

#[test]
fn ba3_frozen_bomb_may_not_explode() {
    let p = white_to_move(&[("d4", "O"), ("e5", "m"), ("h1", "T"), ("h8", "t")]);
    assert!(actions_from(&p, "d4").is_empty());
    assert!(is_illegal(&p, "d4!"));
}

#[test]
fn ba8_immobilizer_single_jump_never_captures() {
    let mut p = white_to_move(&[
        ("d4", "M"),
        ("d5", "w"),
        ("e4", "W"),
        ("h1", "T"),
        ("h8", "t"),
    ]);
    let moves = actions_from(&p, "d4");
    assert!(moves.contains(&"d4:d6".to_string()) && moves.contains(&"d4:f4".to_string()));
    assert!(!moves.iter().any(|m| m.matches(':').count() > 1));
    assert!(
        play(&mut p, "d4-d6").is_empty(),
        "a single jump written as a step"
    );
    assert_eq!(piece(&p, "d5"), black(Kind::Tweke));
}

#[test]
fn ba2_goal_pieces_are_locked_never_blasted_and_never_on_own_goal() {
    let p = pos(
        &[("d8", "o"), ("e8", "w"), ("d2", "W"), ("a1", "T")],
        'b',
        "--W-",
        "--",
    );
    // The locked d9 tweke has no action and the black bomb's blast spares it.
    let mut q = p.clone();
    let report = play(&mut q, "d8!");
    assert!(report.iter().all(|r| r.square != sq("d9")));
    assert_eq!(piece(&q, "d9"), white(Kind::Tweke));
    // d9/e9 is where White scores, Black's own goal: the black e8 may not enter it.
    assert!(!actions_from(&p, "e8").iter().any(|m| m.ends_with('9')));
    // d0/e0 is where Black scores: a White piece on d1 may not enter it, a Black one may.
    let w = white_to_move(&[("d1", "W"), ("h8", "t")]);
    assert!(!actions_from(&w, "d1").iter().any(|m| m.ends_with('0')));
    let b = pos(&[("d1", "w"), ("h1", "T")], 'b', "----", "--");
    assert!(actions_from(&b, "d1").contains(&"d1-d0".to_string()));
    assert!(actions_from(&b, "d1").contains(&"d1-e0".to_string()));
}

#[test]
fn ba2_geometry_of_goal_squares() {
    // A tweke on c7 may jump d8 to e9; a detonator reaches d9 from b8.
    let p = white_to_move(&[("c7", "W"), ("d8", "w"), ("b8", "D"), ("h1", "T")]);
    assert!(actions_from(&p, "c7").contains(&"c7:e9".to_string()));
    assert!(actions_from(&p, "b8").contains(&"b8-d9".to_string()));
    let mut q = p.clone();
    let report = play(&mut q, "c7:e9");
    assert_eq!(
        removed(&report),
        [("d8".into(), Cause::Jumped)],
        "BA-16: captures count"
    );
    assert_eq!(piece(&q, "e9"), white(Kind::Tweke));
}

#[test]
fn ba16_detonator_may_not_land_on_a_locked_bomb() {
    let p = pos(&[("d7", "D"), ("a1", "T"), ("h8", "t")], 'w', "---O", "--");
    let moves = actions_from(&p, "d7");
    assert!(moves.contains(&"d7-f8".to_string()), "{moves:?}");
    assert!(!moves.iter().any(|m| m.ends_with("e9")), "{moves:?}");
}

#[test]
fn ba15_pushed_enemy_detonator_fires_its_owner_co_squares() {
    // White's tank pushes Black's detonator c5 to c6; its partner f8 makes co-squares c8
    // and f6: the black tweke c8 and the white tweke f6 go.
    let mut p = white_to_move(&[
        ("c4", "T"),
        ("c5", "d"),
        ("f8", "d"),
        ("c8", "w"),
        ("f6", "W"),
    ]);
    let report = play(&mut p, "c4-c5");
    assert_removed(&report, &[("f6", Cause::CoSquare), ("c8", Cause::CoSquare)]);
}

#[test]
fn ba11_win_by_two_pieces_in_the_goal() {
    let mut p = pos(&[("e8", "W"), ("a8", "t"), ("a1", "T")], 'w', "--S-", "--");
    assert_eq!(p.variant_outcome(), None);
    play(&mut p, "e8-e9");
    assert_eq!(
        p.variant_outcome(),
        Some(Outcome::win(Color::White, EndReason::Goal))
    );
    assert!(p.legal_actions().is_empty());
    assert_eq!(p.to_fen(), "t7/8/8/8/8/8/8/T7 b --SW W- 0 1");
}

#[test]
fn ba19_only_locked_pieces_means_no_pieces_but_goal_comes_first() {
    // White's last board piece enters the goal as its second: the goal check wins.
    let mut p = pos(&[("d8", "W"), ("a8", "t")], 'w', "---S", "--");
    play(&mut p, "d8-d9");
    assert_eq!(
        p.variant_outcome(),
        Some(Outcome::win(Color::White, EndReason::Goal))
    );
    // With only one piece in the goal, White has no piece on the board and loses.
    let mut q = white_to_move(&[("d8", "W"), ("a8", "t")]);
    play(&mut q, "d8-d9");
    assert_eq!(
        q.variant_outcome(),
        Some(Outcome::win(Color::Black, EndReason::NoPieces))
    );
}

#[test]
fn ba11_loss_by_immobilization() {
    // White's immobilizer steps next to Black's last piece, which is then frozen.
    let mut p = white_to_move(&[("a8", "w"), ("c6", "M"), ("h1", "T")]);
    play(&mut p, "c6-b7");
    assert!(p.legal_actions().is_empty());
    assert_eq!(
        p.variant_outcome(),
        Some(Outcome::win(Color::White, EndReason::Immobilized))
    );
    assert_eq!(
        p.board_view().status.outcome().unwrap().reason,
        EndReason::Immobilized
    );
}

#[test]
fn ba11_draw_when_one_blast_empties_both_sides() {
    let mut p = white_to_move(&[("d4", "O"), ("e5", "w"), ("c3", "W")]);
    play(&mut p, "d4!");
    assert_eq!(
        p.variant_outcome(),
        Some(Outcome::draw(EndReason::NoPieces))
    );
    assert!(p.legal_actions().is_empty());
}

#[test]
fn ba11_side_without_pieces_loses() {
    let mut p = white_to_move(&[("d4", "O"), ("e5", "w"), ("a1", "W")]);
    play(&mut p, "d4!");
    assert_eq!(
        p.variant_outcome(),
        Some(Outcome::win(Color::White, EndReason::NoPieces))
    );
}

#[test]
fn ba12_clock_and_repetition_key() {
    let mut p = white_to_move(&[("a1", "T"), ("h8", "t"), ("c3", "W")]);
    play(&mut p, "a1-a2");
    assert_eq!(p.halfmove_clock(), 1);
    play(&mut p, "h8-h7");
    assert_eq!(p.halfmove_clock(), 2);
    assert_eq!(p.fullmoves(), 2);
    play(&mut p, "c3-c4");
    assert_eq!(p.halfmove_clock(), 0, "a tweke move resets the clock");
    // The repetition key sees the last moved kinds and the imitator's kind.
    let a = pos(&[("a1", "T"), ("h8", "t")], 'w', "----", "Tt");
    let b = pos(&[("a1", "T"), ("h8", "t")], 'w', "----", "Tw");
    assert_ne!(a.repetition_key(), b.repetition_key());
    let c = pos(&[("a1", "I(T)"), ("h8", "t")], 'w', "----", "Tt");
    let d = pos(&[("a1", "I(W)"), ("h8", "t")], 'w', "----", "Tt");
    assert_ne!(c.repetition_key(), d.repetition_key());
    let mut e = Bombalot::from_fen(&format!(
        "{} 57 9",
        a.to_fen().rsplitn(3, ' ').last().unwrap()
    ))
    .unwrap();
    assert_eq!(
        e.repetition_key(),
        a.repetition_key(),
        "clocks are not in the key"
    );
    e = Bombalot::from_fen(&e.to_fen()).unwrap();
    assert_eq!(e.halfmove_clock(), 57);
}

#[test]
fn ba12_imitator_as_tweke_resets_and_hundred_ply_draw() {
    let text = fen(&[("a1", "I"), ("h8", "t")], 'w', "----", "-w");
    let mut p = Bombalot::from_fen(&format!("{text} 99 60")).unwrap();
    play(&mut p, "a1-a2");
    assert_eq!(p.halfmove_clock(), 0);
    let mut q = Bombalot::from_fen(&format!(
        "{} 99 60",
        fen(&[("a1", "T"), ("h8", "t")], 'w', "----", "-t")
    ))
    .unwrap();
    play(&mut q, "a1-a2");
    assert_eq!(q.automatic_draw(), Some(EndReason::HundredPly));
}

#[test]
fn ba15_co_square_hits_are_removed_at_once_then_bombs_cascade() {
    // The co-squares are e1 (a black tweke, removed) and a3 (a black bomb, which explodes
    // and takes b4): the removals come in that order (BA-13, BA-15).
    let mut p = white_to_move(&[
        ("a1", "D"),
        ("c2", "D"),
        ("a3", "o"),
        ("e1", "w"),
        ("b4", "w"),
        ("h8", "t"),
    ]);
    let report = play(&mut p, "c2-e3");
    assert_removed(
        &report,
        &[
            ("e1", Cause::CoSquare),
            ("a3", Cause::Exploded),
            ("b4", Cause::Exploded),
        ],
    );
}

/// BA-3, BA-10, BA-2, docs/rules/RULINGS.md section 6: what the board view marks.
#[test]
fn board_view_marks_frozen_imitating_and_locked() {
    let p = pos(
        &[("d4", "W"), ("e5", "m"), ("a1", "I(D)"), ("h8", "t")],
        'w',
        "---S",
        "Dt",
    );
    let view = p.board_view();
    assert!(view.piece_at(sq("d4")).unwrap().frozen);
    assert!(!view.piece_at(sq("e5")).unwrap().frozen);
    assert_eq!(
        view.piece_at(sq("a1")).unwrap().imitating,
        Some(Kind::Detonator)
    );
    assert!(view.piece_at(sq("e9")).unwrap().locked);
    assert_eq!(view.pieces.len(), 5);
    assert_eq!(view.variant, Variant::Bombalot);
}

/// C-5: canonical texts with display marks replay through AnyGame.
#[test]
fn anygame_plays_movetext_with_bomb_marks_like_the_cli() {
    // The CLI (kaboom replay/moves/perft --variant bombalot) runs on AnyGame.
    let mut game = AnyGame::new(Variant::Bombalot, GameOptions::default()).unwrap();
    let tokens =
        kaboom_rules::notation::movetext_actions("1. c3-c4 c6-c5 2. d1-c1! {boom} d8!").unwrap();
    assert_eq!(tokens, ["c3-c4", "c6-c5", "d1-c1!", "d8!"]);
    for t in &tokens {
        game.play(None, t).unwrap();
    }
    let plies = game.plies();
    assert_eq!(plies[2].san, "d1-c1!");
    assert!(plies[2].removed.iter().any(|r| r.square == sq("c2")));
    assert_eq!(plies[3].san, "d8!");
    let record = game.record();
    let again = AnyGame::from_record(&record).unwrap();
    assert_eq!(again.fen(Viewer::Full), game.fen(Viewer::Full));
    assert!(!game.legal_actions(Viewer::Spectator).is_empty());
    assert_eq!(game.perft(1), game.legal_actions(Viewer::Full).len() as u64);
}

/// C-5, BA-17: each notation form parses to its action kind.
#[test]
fn action_kinds_are_what_the_notation_says() {
    let p = Bombalot::start_position();
    let jump = parse(&p, "c3:c1:a3");
    assert_eq!(
        jump.kind,
        ActionKind::Jump {
            removed: SquareSet::EMPTY
        }
    );
    assert_eq!(parse(&p, "d1!").kind, ActionKind::Explode);
    assert_eq!(parse(&p, "h1-g1").kind, ActionKind::Move);
    assert_eq!(p.uci(&parse(&p, "h1-g1")), "h1g1");
    assert_eq!(p.uci(&jump), "c3:c1:a3");
    // Removal suffixes and marks are display additions (C-5).
    assert_eq!(parse(&p, "d1-c1!->c2,d2#"), parse(&p, "d1-c1!"));
}

#[test]
fn ba18_imitator_moving_as_tank_drags_the_group_it_froze_at_the_start_of_the_turn() {
    // The imitator d4 had immobilizer powers at the start of the turn and freezes the
    // black twekes d5 and c3. Moving as a tank it pushes d5, whose frozen group holds the
    // imitator and c3: c3 is pushed north too (BA-14, BA-18).
    let mut p = pos(
        &[("d4", "I(M)"), ("d5", "w"), ("c3", "w"), ("h8", "t")],
        'w',
        "----",
        "Mt",
    );
    assert!(p.frozen().contains(sq("c3")));
    play(&mut p, "d4-d5");
    assert_eq!(piece(&p, "d5"), white(Kind::Imitator));
    assert_eq!(piece(&p, "d6"), black(Kind::Tweke));
    assert_eq!(piece(&p, "c4"), black(Kind::Tweke));
    assert_eq!(piece(&p, "c3"), None);
    assert_eq!(p.imitating(sq("d5")), Some(Kind::Tank));
}

#[test]
fn ba6_bomb_pushed_into_an_occupied_goal_explodes_on_its_last_square() {
    // White's bomb d8 cannot enter the occupied d9: it is pushed off and explodes on d8,
    // taking the tank d7 behind it and the black tweke e8 but not the locked d9 (BA-2,
    // BA-6); the destroyed tank does not move (BA-14).
    let mut p = pos(
        &[
            ("d7", "T"),
            ("d8", "O"),
            ("e8", "w"),
            ("a8", "t"),
            ("a1", "W"),
        ],
        'w',
        "--S-",
        "--",
    );
    let report = play(&mut p, "d7-d8");
    assert_removed(
        &report,
        &[
            ("d8", Cause::Exploded),
            ("d7", Cause::Exploded),
            ("e8", Cause::Exploded),
        ],
    );
    assert_eq!(piece(&p, "d9"), white(Kind::SuperTweke));
    assert_eq!(piece(&p, "d8"), None);
}

#[test]
fn ba15_a_partner_detonator_on_a_co_square_is_removed_too() {
    // Three white detonators: c2 moves to e3; with a1 the co-squares are a3 and e1, and
    // e1 holds the third detonator, which is removed (all co-squares collected first).
    let mut p = white_to_move(&[
        ("a1", "D"),
        ("c2", "D"),
        ("e1", "D"),
        ("a3", "w"),
        ("h8", "t"),
    ]);
    let report = play(&mut p, "c2-e3");
    assert_removed(&report, &[("e1", Cause::CoSquare), ("a3", Cause::CoSquare)]);
    assert_eq!(piece(&p, "e3"), white(Kind::Detonator));
}

#[test]
fn ba19_unfrozen_tank_always_has_an_action() {
    // A tank in a corner boxed in by enemy pieces still pushes (a push is never blocked).
    let p = white_to_move(&[("a1", "T"), ("a2", "w"), ("b1", "w"), ("b2", "w")]);
    assert_eq!(actions_from(&p, "a1"), ["a1-b1", "a1-a2"]);
    assert_eq!(p.variant_outcome(), None);
}
