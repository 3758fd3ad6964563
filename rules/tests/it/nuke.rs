//! Nuke Chess: one named test per ruling NU-1 to NU-13 (docs/rules/RULINGS.md section 3), plus
//! serialization, notation, views and the perft regression data.

use crate::perft_file::parse_perft_file;
use kaboom_rules::nuke::Nuke;
use kaboom_rules::{
    ActionError, AnyGame, Cause, Color, EndReason, GameOptions, Kind, LooseBombs, PlayError,
    Position, Removal, Square, Status, Variant, Viewer,
};

fn s(name: &str) -> Square {
    name.parse().unwrap()
}

fn pos(fen: &str) -> Nuke {
    Nuke::from_fen(fen).unwrap_or_else(|e| panic!("{e}"))
}

/// The start position with White's carrier on `white` and Black's on `black`.
fn start(white: &str, black: &str) -> Nuke {
    let mut p = Nuke::start(&GameOptions::default()).unwrap();
    p.designate(Color::White, &[s(white)]).unwrap();
    p.designate(Color::Black, &[s(black)]).unwrap();
    p
}

fn play(p: &mut Nuke, text: &str) -> Vec<Removal> {
    let action = p
        .parse_action(text)
        .unwrap_or_else(|e| panic!("{text} should be legal in {}: {e}", p.to_fen()));
    // Round trip of the canonical text (C-5).
    assert_eq!(p.parse_action(&p.san(&action)).unwrap(), action);
    p.play_reported(&action)
}

fn rejection(p: &Nuke, text: &str) -> String {
    match p.parse_action(text) {
        Ok(a) => panic!("{text} should be refused, it parsed as {}", p.san(&a)),
        Err(ActionError::Illegal(e)) => e.reason,
        Err(e) => panic!("{text} should be well-formed but illegal: {e}"),
    }
}

fn legal_texts(p: &Nuke) -> Vec<String> {
    p.legal_actions().iter().map(|a| p.san(a)).collect()
}

fn removed_squares(removed: &[Removal]) -> Vec<String> {
    let mut v: Vec<String> = removed.iter().map(|r| r.square.to_string()).collect();
    v.sort();
    v
}

fn loose(p: &Nuke) -> Vec<LooseBombs> {
    p.board_view().loose_bombs
}

/// Every bomb the public board shows: carried ones and loose ones (two in all, NU-9).
pub(crate) fn bombs_in_view(p: &Nuke) -> u32 {
    let view = p.board_view();
    view.pieces.iter().filter(|pc| pc.carrier).count() as u32
        + view
            .loose_bombs
            .iter()
            .map(|l| u32::from(l.count))
            .sum::<u32>()
}

// ---------------------------------------------------------------- NU-1

#[test]
fn nu1_no_check_king_may_stand_and_move_attacked() {
    // The black rook on f8 attacks f1 and f2: the white king may still go there.
    let p = pos("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1 a1,f8");
    let legal = legal_texts(&p);
    assert!(legal.contains(&"Kf2".to_string()));
    assert!(legal.contains(&"Kf1".to_string()));
    assert!(p.checked_squares().is_empty());
}

#[test]
fn nu1_castling_through_and_into_attacked_squares() {
    let p2 = pos("4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1 a1,f8");
    let mut after = p2.clone();
    play(&mut after, "O-O");
    assert_eq!(after.to_fen(), "4kr2/8/8/8/8/8/8/R4RK1 b - - 1 1 a1,f8");
    // Queen-side too, the a1 rook carrying its bomb along (NU-12).
    let mut q = p2.clone();
    play(&mut q, "O-O-O");
    assert_eq!(q.to_fen(), "4kr2/8/8/8/8/8/8/2KR3R b - - 1 1 d1,f8");
}

#[test]
fn nu1_start_position_moves_are_chess_moves_plus_transfers() {
    // Carriers a1 (rook) and h8 (rook): a1 may hand on to a2, b1, b2.
    let p = start("a1", "h8");
    let legal = legal_texts(&p);
    assert_eq!(legal.len(), 20 * 4);
    assert!(legal.contains(&"e4".to_string()));
    assert!(legal.contains(&"a1>b1 Nf3".to_string()));
    assert!(legal.contains(&"a1>a2 a4".to_string()));
}

// ---------------------------------------------------------------- NU-2

#[test]
fn nu2_only_a_carrier_may_capture_a_king() {
    let p = pos("k6n/8/1N6/8/8/8/8/R3K3 w - - 0 1 b6,h8");
    assert!(rejection(&p, "Rxa8").contains("only a piece that carries a bomb may capture a king"));
    let mut q = p.clone();
    let removed = play(&mut q, "Nxa8");
    assert_eq!(removed[0].cause, Cause::Captured);
    assert_eq!(removed[0].piece.kind, Kind::King);
    assert_eq!(removed_squares(&removed), ["a8", "a8"]);
    assert_eq!(
        q.variant_outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Color::White), EndReason::KingExploded))
    );
    assert!(q.legal_actions().is_empty());
}

#[test]
fn nu2_a_carrying_king_is_still_safe_from_non_carriers() {
    // The black king carries (a bomb handed to it): a non-carrier still may not take it.
    let p = pos("k7/8/8/8/8/8/8/R3K2N w - - 0 1 a8,h1");
    assert!(rejection(&p, "Rxa8").contains("only a piece that carries a bomb may capture a king"));
    assert!(!legal_texts(&p).iter().any(|t| t.contains("xa8")));
}

#[test]
fn nu6_explosion_squares_are_reported_for_highlighting() {
    let p = pos("k6n/8/1N6/8/8/8/8/R3K3 w - - 0 1 b6,h8");
    let capture = p.parse_action("Nxa8").unwrap();
    let squares = p.action_squares(&capture);
    assert_eq!(squares.detonation, Some(s("a8")));
    assert_eq!((squares.from, squares.to), (Some(s("b6")), Some(s("a8"))));
    let quiet = p.parse_action("Nc4").unwrap();
    assert_eq!(p.action_squares(&quiet).detonation, None);
    assert_eq!(p.san_with_marks(&capture), "Nxa8#");
}

/// NU-13 (with NU-2): a king may capture any piece but a king, carrying or not.
#[test]
fn nu13_king_captures_any_piece_but_a_king() {
    let mut p = pos("4k3/8/8/8/8/8/4n3/4K2N w - - 0 1 h1,e8");
    let removed = play(&mut p, "Kxe2");
    assert_eq!(removed.len(), 1);
    assert_eq!(removed[0].cause, Cause::Captured);
    // A carrying knight too: its bomb explodes and takes the capturing king with it.
    let mut q = pos("4k3/8/8/8/8/8/4n3/4K2N w - - 0 1 h1,e2");
    assert!(legal_texts(&q).contains(&"Kxe2".to_string()));
    let removed = play(&mut q, "Kxe2");
    assert_eq!(removed_squares(&removed), ["e2", "e2"]);
    assert_eq!(
        q.variant_outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Color::Black), EndReason::KingExploded))
    );
    // Never a king: a king that does not carry may not take one (NU-2).
    let r = pos("8/8/8/8/8/3k4/4K3/7N w - - 0 1 h1,a8*");
    assert!(!legal_texts(&r).iter().any(|t| t.contains("xd3")));
}

/// NU-13: a carrier that captures a carrying king explodes with it; both bombs lie loose
/// on the king's square (NU-9).
#[test]
fn nu13_carrier_capturing_a_carrying_king_explodes_with_it() {
    let mut p = pos("k7/8/1N6/8/8/8/8/4K3 w - - 0 1 b6,a8");
    let removed = play(&mut p, "Nxa8");
    assert_eq!(removed.len(), 2);
    assert_eq!(
        (removed[0].cause, removed[0].piece.kind),
        (Cause::Captured, Kind::King)
    );
    assert_eq!(
        (removed[1].cause, removed[1].piece.kind),
        (Cause::Exploded, Kind::Knight)
    );
    assert_eq!(
        loose(&p),
        [LooseBombs {
            square: s("a8"),
            count: 2
        }]
    );
    assert!(p.carriers().is_empty());
    assert_eq!(
        p.variant_outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Color::White), EndReason::KingExploded))
    );
}

/// NU-13: transfers and grabs do not reset the 100-ply count (C-4); captures, blasts and
/// pawn moves do.
#[test]
fn nu13_transfers_and_grabs_do_not_reset_the_100_ply_count() {
    let mut p = pos("4k3/8/8/8/8/8/8/3RK3 w - - 10 30 e1,d2*");
    play(&mut p, "e1>d1 Rd4");
    assert_eq!(p.carriers(), [s("d4")]);
    assert_eq!(p.halfmove_clock(), 11);
    play(&mut p, "Kf7");
    play(&mut p, "Kd2*");
    assert_eq!(p.carriers(), [s("d2"), s("d4")]);
    assert_eq!(p.halfmove_clock(), 13);
    // Reaching 100 plies this way is the automatic draw.
    let mut q = pos("4k3/8/8/8/8/8/8/3RK3 w - - 99 80 d1,d2*");
    play(&mut q, "Kd2*");
    assert_eq!(q.halfmove_clock(), 100);
    assert_eq!(q.automatic_draw(), Some(EndReason::HundredPly));
}

// ---------------------------------------------------------------- NU-3

#[test]
fn nu3_designation_in_either_order_hidden_until_both_are_in() {
    let mut p = Nuke::start(&GameOptions::default()).unwrap();
    assert_eq!(p.awaiting_designation(), [Color::White, Color::Black]);
    assert!(p.legal_actions().is_empty());
    assert_eq!(p.variant_outcome(), None);
    // Black chooses first.
    p.designate(Color::Black, &[s("d8")]).unwrap();
    assert_eq!(p.awaiting_designation(), [Color::White]);
    for viewer in [Viewer::White, Viewer::Spectator] {
        let v = p.view(viewer);
        assert!(
            v.board_view().pieces.iter().all(|pc| !pc.carrier),
            "{viewer}"
        );
        assert!(
            v.to_fen().ends_with(" w:choosing,b:chosen"),
            "{}",
            v.to_fen()
        );
        assert!(!v.to_fen().contains("d8,") && !v.to_fen().ends_with("d8"));
        assert_eq!(v.awaiting_designation(), [Color::White]);
    }
    for viewer in [Viewer::Black, Viewer::Full] {
        let v = p.view(viewer);
        assert!(v.board_view().piece_at(s("d8")).unwrap().carrier);
        assert!(v.to_fen().ends_with(" w:choosing,d8"));
    }
    assert!(p.legal_actions().is_empty());
    assert_eq!(
        p.view(Viewer::Spectator).board_view().awaiting_designation,
        [Color::White]
    );
    // White chooses its king (any piece may carry, NU-3).
    p.designate(Color::White, &[s("e1")]).unwrap();
    assert!(p.awaiting_designation().is_empty());
    for viewer in [Viewer::White, Viewer::Black, Viewer::Spectator] {
        let view = p.view(viewer).board_view();
        assert!(view.piece_at(s("e1")).unwrap().carrier);
        assert!(view.piece_at(s("e1")).unwrap().frozen);
        assert!(view.piece_at(s("d8")).unwrap().carrier);
        assert!(view.piece_at(s("d8")).unwrap().frozen);
    }
    assert!(!p.legal_actions().is_empty());
    assert!(p.designate(Color::White, &[s("d1")]).is_err());
}

#[test]
fn nu3_designation_is_validated() {
    let mut p = Nuke::new();
    let err = |p: &mut Nuke, c: Color, sq: &[Square]| p.designate(c, sq).unwrap_err().reason;
    assert!(err(&mut p, Color::White, &[s("d8")]).contains("own pieces"));
    assert!(err(&mut p, Color::White, &[s("e4")]).contains("no piece on e4"));
    assert!(err(&mut p, Color::White, &[s("e1"), s("d1")]).contains("exactly one"));
    assert!(err(&mut p, Color::White, &[]).contains("exactly one"));
    // A side may change its mind until the other side has chosen.
    p.designate(Color::White, &[s("e2")]).unwrap();
    p.designate(Color::White, &[s("g1")]).unwrap();
    assert_eq!(p.carriers(), [s("g1")]);
    p.designate(Color::Black, &[s("b8")]).unwrap();
    assert!(err(&mut p, Color::White, &[s("e2")]).contains("play has started"));
    assert_eq!(p.carriers(), [s("g1"), s("b8")]);
    // Nuke has one carrier per side and no Dead Man's Switch.
    let two = GameOptions {
        carriers: 2,
        dead_mans_switch: false,
    };
    assert!(Nuke::start(&two).is_err());
}

#[test]
fn nu3_game_waits_for_both_choices() {
    let mut game = AnyGame::new(Variant::Nuke, GameOptions::default()).unwrap();
    assert!(matches!(
        game.play(None, "e4"),
        Err(PlayError::AwaitingDesignation(_))
    ));
    game.designate(Color::White, &[s("g1")]).unwrap();
    assert!(!game.fen(Viewer::Black).contains("g1"));
    assert!(game.fen(Viewer::White).contains("g1"));
    assert!(game.legal_actions(Viewer::Full).is_empty());
    game.designate(Color::Black, &[s("g8")]).unwrap();
    assert!(game.fen(Viewer::Spectator).ends_with(" g1,g8"));
    game.play(Some(Color::White), "g1>f2 Nf3").unwrap();
    assert_eq!(game.plies()[0].san, "g1>f2 Nf3");
    assert_eq!(game.plies()[0].uci, "g1>f2 Nf3");
    game.play(Some(Color::Black), "Nf6").unwrap();
    assert_eq!(game.plies()[1].uci, "g8f6");
    let record = game.record();
    let replayed = AnyGame::from_record(&record).unwrap();
    assert_eq!(replayed.fen(Viewer::Full), game.fen(Viewer::Full));
}

// ---------------------------------------------------------------- NU-4

#[test]
fn nu4_transfer_to_an_adjacent_own_piece_before_the_move() {
    let mut p = start("e1", "e8");
    play(&mut p, "e1>e2 e4");
    assert_eq!(p.carriers(), [s("e4"), s("e8")]);
    assert!(!p.is_frozen(s("e1")));
}

#[test]
fn nu4_rejections_say_what_was_wrong() {
    let p = start("e1", "e8");
    assert_eq!(
        rejection(&p, "e1>d1 d1>d2 e4"),
        "only one transfer per turn"
    );
    assert!(rejection(&p, "e1>e2").contains("a transfer alone is not a turn"));
    assert_eq!(
        rejection(&p, "d1>d2 e4"),
        "the queen on d1 carries no bomb to hand on"
    );
    assert!(rejection(&p, "e8>e7 e4").contains("black's"));
    let knight = pos("rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/R1BQKBNR w KQkq - 0 1 c3,d8");
    assert_eq!(rejection(&knight, "c3>d5 e4"), "d5 is not next to c3");
    assert!(rejection(&knight, "c3>d4 e4").contains("no piece on d4"));
    let two = pos("4k3/8/8/8/4p3/3N4/8/4K3 w - - 0 1 d3,e4");
    assert_eq!(rejection(&two, "d3>e4 Ke2"), "e4 already carries a bomb");
}

#[test]
fn nu4_transfer_to_an_enemy_piece_passes_control() {
    let mut p = pos("4k3/8/8/8/4p3/3N1P2/8/4K3 w - - 0 1 d3,a8*");
    play(&mut p, "d3>e4 Kd2");
    assert_eq!(p.carriers(), [s("e4")]);
    // Black now controls that bomb: it may hand it on (to the knight on d3).
    let legal = legal_texts(&p);
    assert!(legal.contains(&"e4>d3 Kd7".to_string()), "{legal:?}");
    // ... and capturing the black pawn now explodes (the seed's sabotage tactic).
    let mut q = p.clone();
    play(&mut q, "Ke7");
    let removed = play(&mut q, "fxe4");
    assert!(removed.iter().any(|r| r.cause == Cause::Exploded));
}

// ---------------------------------------------------------------- NU-5

#[test]
fn nu5_carrying_queen_cannot_move_but_can_hand_on() {
    let p = pos("4k3/8/8/8/8/8/8/3QK3 w - - 0 1 d1,e8");
    assert_eq!(
        rejection(&p, "Qd4"),
        "the queen on d1 carries a bomb and cannot move"
    );
    assert!(p.board_view().piece_at(s("d1")).unwrap().frozen);
    let mut q = p.clone();
    play(&mut q, "d1>e1 Qd4");
    // The king took the bomb and is frozen now.
    assert!(q.is_frozen(s("e1")));
    assert!(!q.is_frozen(s("d4")));
    // A transfer that freezes the piece one wanted to move is not an action.
    assert!(rejection(&p, "d1>e1 Kf2").contains("the king on e1 carries a bomb and cannot move"));
}

#[test]
fn nu5_transfer_to_an_enemy_queen_freezes_it() {
    let mut p = pos("4k3/8/8/3q4/3N4/8/8/4K3 w - - 0 1 d4,h1*");
    play(&mut p, "d4>d5 Kf1");
    let view = p.board_view();
    assert!(view.piece_at(s("d5")).unwrap().carrier);
    assert!(view.piece_at(s("d5")).unwrap().frozen);
    assert_eq!(
        rejection(&p, "Qxd4"),
        "the queen on d5 carries a bomb and cannot move"
    );
    // The bomb is Black's now: Black may hand it on and free the queen.
    let mut q = p.clone();
    play(&mut q, "d5>d4 Qd8");
    assert_eq!(q.carriers(), [s("d4")]);
}

#[test]
fn nu5_carrier_pawn_promoting_to_queen_is_frozen() {
    let mut p = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1 a7,h1*");
    play(&mut p, "a8=Q");
    assert!(p.is_frozen(s("a8")));
    assert!(p.board_view().piece_at(s("a8")).unwrap().carrier);
    play(&mut p, "Kd7");
    assert_eq!(
        rejection(&p, "Qa1"),
        "the queen on a8 carries a bomb and cannot move"
    );
}

#[test]
fn nu5_carrier_pawn_promoting_to_knight_is_free() {
    let mut p = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1 a7,e8");
    play(&mut p, "a8=N");
    assert!(!p.is_frozen(s("a8")));
    assert_eq!(p.carriers(), [s("a8"), s("e8")]);
}

// ---------------------------------------------------------------- NU-6

#[test]
fn nu6_captured_carrier_explodes_on_the_3x3_block() {
    // Black knight e5 carries; everything around it goes, both colours, pawns too.
    let mut p = pos("4k3/8/3pp3/3Bn3/3PPP2/5N2/8/4K3 w - - 0 1 a1*,e5");
    let removed = play(&mut p, "Nxe5");
    assert_eq!(removed[0].cause, Cause::Captured);
    assert_eq!(removed[0].square, s("e5"));
    assert!(removed[1..].iter().all(|r| r.cause == Cause::Exploded));
    assert_eq!(
        removed_squares(&removed),
        ["d4", "d5", "d6", "e4", "e5", "e5", "e6", "f4"]
    );
    assert_eq!(p.to_fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1 a1*,e5*");
}

#[test]
fn nu6_capture_by_a_carrier_of_a_non_carrier_is_ordinary() {
    let mut p = pos("4k3/8/8/4n3/8/5N2/8/4K3 w - - 0 1 f3,e8");
    let removed = play(&mut p, "Nxe5");
    assert_eq!(removed.len(), 1);
    assert_eq!(p.carriers(), [s("e5"), s("e8")]);
}

// ---------------------------------------------------------------- NU-7

#[test]
fn nu7_chain_of_two_carriers() {
    // The white pawn d4 carries and stands next to the black carrier e5: its bomb
    // explodes too, and its blast reaches the bishop on c3, outside the first blast.
    let mut p = pos("4k3/8/8/4n3/3P4/2B2N2/8/4K3 w - - 0 1 d4,e5");
    let removed = play(&mut p, "Nxe5");
    assert_eq!(removed_squares(&removed), ["c3", "d4", "e5", "e5"]);
    assert_eq!(p.to_fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1 d4*,e5*");
    assert_eq!(bombs_in_view(&p), 2);
}

// ---------------------------------------------------------------- NU-8

#[test]
fn nu8_both_kings_blasted_is_a_draw() {
    let mut p = pos("8/8/8/8/3k4/4K3/2N5/8 w - - 0 1 c2,h8*");
    play(&mut p, "Nxd4");
    assert_eq!(
        p.variant_outcome().map(|o| (o.winner, o.reason)),
        Some((None, EndReason::KingsExploded))
    );
    assert_eq!(
        p.board_view().status,
        Status::from_outcome(p.variant_outcome())
    );
}

#[test]
fn nu8_blowing_up_ones_own_king_is_legal_and_loses() {
    let mut p = pos("k7/8/8/8/8/3n4/3K4/8 w - - 0 1 d3,h8*");
    play(&mut p, "Kxd3");
    assert_eq!(
        p.variant_outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Color::Black), EndReason::KingExploded))
    );
}

#[test]
fn nu8_no_legal_action_is_a_stalemate_draw() {
    // The white king carries (frozen) and has nobody next to it to hand the bomb to.
    let p = pos("k7/8/8/8/8/8/8/K7 w - - 0 1 a1,a8");
    assert!(p.legal_actions().is_empty());
    assert_eq!(
        p.variant_outcome().map(|o| (o.winner, o.reason)),
        Some((None, EndReason::Stalemate))
    );
}

// ---------------------------------------------------------------- NU-9

#[test]
fn nu9_exploded_bomb_lies_loose_and_is_inert() {
    let mut p = pos("4k3/8/8/4n3/3p4/5N2/8/4K3 w - - 0 1 d4*,e5");
    // A blast over a loose bomb (d4) does not set it off.
    play(&mut p, "Nxe5");
    assert_eq!(
        loose(&p),
        [
            LooseBombs {
                square: s("d4"),
                count: 1
            },
            LooseBombs {
                square: s("e5"),
                count: 1
            }
        ]
    );
    assert!(p.carriers().is_empty());
}

#[test]
fn nu9_two_loose_bombs_on_one_square() {
    // Carrier takes carrier: both bombs explode on e5 and lie there together.
    let mut p = pos("4k3/8/8/4n3/8/5N2/8/4K3 w - - 0 1 e5,f3");
    play(&mut p, "Nxe5");
    assert_eq!(
        loose(&p),
        [LooseBombs {
            square: s("e5"),
            count: 2
        }]
    );
    assert!(p.to_fen().ends_with(" e5*2"));
    assert_eq!(Nuke::from_fen(&p.to_fen()).unwrap(), p);
    // One grab takes one bomb; the second stays for a later piece (NU-10).
    let mut r = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 e5*2");
    play(&mut r, "Ra5");
    play(&mut r, "Ke7");
    play(&mut r, "Re5*");
    assert_eq!(r.carriers(), [s("e5")]);
    assert_eq!(loose(&r)[0].count, 1);
    assert_eq!(bombs_in_view(&r), 2);
}

// ---------------------------------------------------------------- NU-10

#[test]
fn nu10_grab_on_arrival_or_decline() {
    let p = pos("4k3/8/8/8/8/5p2/8/4K1N1 w - - 0 1 a8*,f3*");
    let legal = legal_texts(&p);
    assert!(legal.contains(&"Nxf3".to_string()));
    assert!(legal.contains(&"Nxf3*".to_string()));
    // Declined: the knight stands on the loose bomb without carrying it.
    let mut declined = p.clone();
    play(&mut declined, "Nxf3");
    assert!(declined.carriers().is_empty());
    assert_eq!(loose(&declined)[0].square, s("f3"));
    // Grabbed.
    let mut grabbed = p.clone();
    play(&mut grabbed, "Nxf3*");
    assert_eq!(grabbed.carriers(), [s("f3")]);
    assert_eq!(loose(&grabbed).len(), 1);
    assert_eq!(grabbed.to_fen(), "4k3/8/8/8/8/5N2/8/4K3 b - - 0 1 f3,a8*");
    // Standing there, it may not grab later without moving onto the square again.
    let mut stay = declined.clone();
    play(&mut stay, "Kd7");
    assert!(rejection(&stay, "Ke2*").contains("no loose bomb on e2"));
}

#[test]
fn nu10_a_carrier_never_grabs_a_second_bomb() {
    let p = pos("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1 g1,f3*");
    assert_eq!(
        rejection(&p, "Nf3*"),
        "the knight on g1 already carries a bomb and cannot grab another"
    );
    // After handing the bomb on, it may grab.
    let p2 = pos("4k3/8/8/8/8/8/7P/4K1N1 w - - 0 1 g1,f3*");
    let mut q = p2.clone();
    play(&mut q, "g1>h2 Nf3*");
    assert_eq!(q.carriers(), [s("h2"), s("f3")]);
    assert!(loose(&q).is_empty());
}

#[test]
fn nu10_castling_never_grabs() {
    let p = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1 e8,g1*");
    assert_eq!(rejection(&p, "O-O*"), "castling never grabs a bomb");
    let mut q = p.clone();
    play(&mut q, "O-O");
    assert_eq!(loose(&q)[0].square, s("g1"));
}

// ---------------------------------------------------------------- NU-11

#[test]
fn nu11_en_passant_of_a_carrier_blasts_around_the_captured_pawn() {
    let mut p = pos("4k3/2pp4/8/4P3/2N5/8/8/4K3 b - - 0 1 d7,e1");
    play(&mut p, "d5");
    assert!(p.to_fen().contains(" d6 "), "{}", p.to_fen());
    let removed = play(&mut p, "exd6");
    // Centre d5: the captured pawn, the capturer on d6 and the knight on c4; the pawn on
    // c7 touches d6 but not d5 and survives.
    assert_eq!(removed_squares(&removed), ["c4", "d5", "d6"]);
    assert_eq!(removed[0].square, s("d5"));
    assert_eq!(loose(&p)[0].square, s("d5"));
    assert!(p.board_view().piece_at(s("c7")).is_some());
}

// ---------------------------------------------------------------- NU-12

#[test]
fn nu12_legality_is_judged_after_the_transfer_unfreezing_escapes_stalemate() {
    // The king carries; the pawn a2 is blocked. Only a transfer to a2 frees the king.
    let p = pos("k7/8/8/8/8/p7/P7/K7 w - - 0 1 a1,a8");
    let mut legal = legal_texts(&p);
    legal.sort();
    assert_eq!(legal, ["a1>a2 Kb1", "a1>a2 Kb2"]);
    assert_eq!(p.variant_outcome(), None);
}

#[test]
fn nu12_distinct_combinations_are_distinct_actions_even_to_the_same_position() {
    let p = pos("3Rk3/3B4/8/8/8/8/8/K7 w - - 0 1 d8,h1*");
    let mut a = p.clone();
    let mut b = p.clone();
    play(&mut a, "Rxe8");
    play(&mut b, "d8>d7 Bxe8");
    assert_eq!(a.to_fen(), b.to_fen());
    let actions = p.legal_actions();
    let ra = p.parse_action("Rxe8").unwrap();
    let rb = p.parse_action("d8>d7 Bxe8").unwrap();
    assert_ne!(ra, rb);
    assert!(actions.contains(&ra) && actions.contains(&rb));
}

#[test]
fn nu12_loose_bombs_block_nothing() {
    let mut p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 c1*2");
    let legal = legal_texts(&p);
    // The rook crosses c1 and may stop there with or without a grab: one grab action for
    // the two bombs.
    assert!(legal.contains(&"Rd1".to_string()));
    assert_eq!(legal.iter().filter(|t| t.starts_with("Rc1")).count(), 2);
    play(&mut p, "Rc1");
    assert!(p.board_view().piece_at(s("c1")).is_some());
    assert_eq!(loose(&p)[0].count, 2);
}

#[test]
fn nu12_no_grab_when_the_move_explodes() {
    let p = pos("4k3/8/8/4n3/8/5N2/8/4K3 w - - 0 1 e5,e5*");
    assert!(rejection(&p, "Nxe5*").contains("sets off a bomb"));
    let mut q = p.clone();
    play(&mut q, "Nxe5");
    assert_eq!(loose(&q)[0].count, 2);
}

#[test]
fn nu12_promoting_pawn_may_grab_and_a_grabbing_queen_is_frozen() {
    let mut p = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1 e8,a8*");
    play(&mut p, "a8=Q*");
    assert!(p.is_frozen(s("a8")));
    assert_eq!(p.carriers(), [s("a8"), s("e8")]);
}

#[test]
fn nu12_carrying_king_cannot_castle_carrying_rook_castles_with_its_bomb() {
    let p = pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1 e1,e8");
    assert!(rejection(&p, "O-O").contains("cannot castle"));
    let mut q = pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1 h1,e8");
    play(&mut q, "O-O");
    assert_eq!(q.carriers(), [s("f1"), s("e8")]);
}

#[test]
fn nu12_rook_destroyed_by_a_blast_loses_its_castling_right() {
    let mut p = pos("4k3/8/8/8/8/8/6n1/R3KB1R w KQ - 0 1 g2,e8");
    play(&mut p, "Bxg2");
    assert_eq!(p.to_fen(), "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1 g2*,e8");
}

#[test]
fn nu12_bomb_handed_to_the_enemy_king_freezes_it() {
    let mut p = pos("8/8/8/3k4/3N4/8/8/4K3 w - - 0 1 d4,h8*");
    play(&mut p, "d4>d5 Nb5");
    assert!(p.is_frozen(s("d5")));
    // Black's king cannot move; Black may only hand the bomb on, and nobody is next to it.
    assert!(p.legal_actions().is_empty());
    assert_eq!(
        p.variant_outcome().map(|o| o.reason),
        Some(EndReason::Stalemate)
    );
    let mut q = pos("8/8/8/3k4/3NP3/8/8/4K3 w - - 0 1 d4,h8*");
    play(&mut q, "d4>d5 Kf1");
    // Black controls that bomb now: it hands it to the white pawn e4 and walks away.
    play(&mut q, "d5>e4 Kd6");
    assert_eq!(q.carriers(), [s("e4")]);
}

// ---------------------------------------------------------------- serialization and notation

/// NU-3, NU-9, docs/notation/nuke.md: carriers and loose bombs round-trip.
#[test]
fn fen_round_trip_and_errors() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 w:choosing,b:choosing",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 b:choosing,e1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 w:chosen,b:choosing",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 w:choosing,d8",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 e1,d8",
        "4k3/8/8/8/8/8/8/4K3 b - - 12 40 e1,e1*",
        "4k3/8/8/8/8/8/8/4K3 b - - 12 40 e4*2",
    ] {
        assert_eq!(pos(fen).to_fen(), fen);
    }
    // A plain FEN means both sides still choose.
    let plain = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(plain, Nuke::new());
    let err = |fen: &str| Nuke::from_fen(fen).unwrap_err().reason;
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 e1").contains("exactly two bombs"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 e1,e2").contains("e2 is empty"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 e1,e1").contains("twice"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 e1,x9").contains("not a square"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 e1,e4*3").contains("e4*2"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 e1,b:maybe").contains("b:choosing"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 e4*,b:choosing").contains("loose"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 w:chosen,e8").contains("play has started"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 w:chosen,b:chosen").contains("play has started"));
    assert!(err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 e1,d8 extra").contains("found more"));
}

/// C-4: the repetition key includes the bombs.
#[test]
fn repetition_key_includes_bombs() {
    let a = pos("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1 g1,e8");
    let b = pos("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1 e1,e8");
    let c = pos("4k3/8/8/8/8/8/8/4K1N1 w - - 7 9 g1,e8");
    assert_ne!(a.repetition_key(), b.repetition_key());
    assert_eq!(a.repetition_key(), c.repetition_key());
}

/// C-5: lenient input forms and the coordinate form.
#[test]
fn notation_lenient_forms_and_uci() {
    let p = pos("4k3/8/8/8/8/8/7P/4K1N1 w - - 0 1 g1,f3*");
    let canonical = p.parse_action("g1>h2 Nf3").unwrap();
    for text in [
        "g1>h2 g1f3",
        "g1>h2Nf3",
        "g1>h2   g1-f3",
        "g1>h2 Nf3+",
        "g1>h2 Nf3->",
    ] {
        assert_eq!(p.parse_action(text).unwrap(), canonical, "{text}");
    }
    let grab = p.parse_action("g1>h2 Nf3*").unwrap();
    assert_eq!(p.parse_action("g1>h2 g1f3*").unwrap(), grab);
    assert_eq!(p.san(&grab), "g1>h2 Nf3*");
    assert_eq!(p.uci(&grab), "g1>h2 Nf3*");
    let plain = p.parse_action("Kd2").unwrap();
    assert_eq!(p.uci(&plain), "e1d2");
    assert!(matches!(
        p.parse_action("hello"),
        Err(ActionError::Parse(_))
    ));
    assert!(matches!(p.parse_action(""), Err(ActionError::Parse(_))));
    assert!(rejection(&p, "Nd5").contains("no knight of yours can go to d5"));
    let promo = pos("4k3/P7/8/8/8/8/8/4K3 w - - 0 1 e8,a8*");
    let a = promo.parse_action("a7a8q*").unwrap();
    assert_eq!(promo.san(&a), "a8=Q*");
}

/// Prints the perft counts of `nuke.perft`'s positions (regenerating the regression data):
/// `cargo test --release -p kaboom-rules --test it -- --ignored --nocapture print_perft`.
#[test]
#[ignore]
fn print_perft() {
    let cases = parse_perft_file(include_str!("../data/nuke.perft")).unwrap();
    for case in cases {
        let p = pos(&case.epd);
        println!("id {}\nepd {}", case.id, case.epd);
        for depth in 1..=4 {
            let t = std::time::Instant::now();
            println!("perft {depth} {}  # {:?}", p.perft(depth), t.elapsed());
        }
    }
}
