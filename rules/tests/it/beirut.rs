//! Beirut Chess: one named test per ruling BE-1 to BE-12 (docs/rules/RULINGS.md section 2), plus
//! notation (C-5), serialization, views (section 6) and the perft data.

use kaboom_rules::beirut::{
    Beirut, BeirutAction, Designation, commitment, commitment_preimage, verify_commitment,
};
use kaboom_rules::{
    ActionError, AnyGame, Cause, Color, EndReason, Game, GameOptions, Kind, Outcome, PlayError,
    Position, Removal, Square, Viewer,
};

fn s(name: &str) -> Square {
    name.parse().unwrap()
}

fn sqs(names: &[&str]) -> Vec<Square> {
    names.iter().map(|n| s(n)).collect()
}

fn opts(carriers: u8, dms: bool) -> GameOptions {
    GameOptions {
        carriers,
        dead_mans_switch: dms,
    }
}

/// A game from the start position with both designations made.
fn game(carriers: u8, dms: bool, white: &[&str], black: &[&str]) -> Game<Beirut> {
    let mut g = Game::<Beirut>::new(opts(carriers, dms)).unwrap();
    g.designate(Color::White, &sqs(white)).unwrap();
    g.designate(Color::Black, &sqs(black)).unwrap();
    g
}

fn from(fen: &str) -> Game<Beirut> {
    let pos = Beirut::from_fen(fen).unwrap();
    Game::from_position(pos.options(), pos)
}

fn play(g: &mut Game<Beirut>, moves: &[&str]) {
    for m in moves {
        g.play(None, m)
            .unwrap_or_else(|e| panic!("{m} should be legal: {e}"));
    }
}

fn removal(square: &str, color: Color, kind: Kind, cause: Cause) -> Removal {
    Removal {
        square: s(square),
        piece: kaboom_rules::Piece::new(color, kind),
        cause,
    }
}

fn illegal_reason(g: &Game<Beirut>, text: &str) -> String {
    match g.parse(None, text) {
        Err(PlayError::Action(ActionError::Illegal(e))) => e.reason,
        other => panic!("{text} should be illegal, got {other:?}"),
    }
}

fn legal_texts(pos: &Beirut) -> Vec<String> {
    pos.legal_actions().iter().map(|a| pos.san(a)).collect()
}

// ---------------------------------------------------------------- BE-1

/// BE-1: check and checkmate as in chess (fool's mate).
#[test]
fn be1_standard_checkmate() {
    let mut g = game(1, false, &["b1"], &["g8"]);
    play(&mut g, &["f3", "e5", "g4"]);
    let rec = g.play(None, "Qh4").unwrap().clone();
    assert_eq!(rec.display, "Qh4#");
    assert_eq!(
        g.position().variant_outcome(),
        Some(Outcome::win(Color::Black, EndReason::Checkmate))
    );
}

// ---------------------------------------------------------------- BE-2

/// BE-2: a designation that breaks the rules is refused with the reason.
#[test]
fn be2_designation_errors_say_what_was_wrong() {
    let mut pos = Beirut::start(&opts(1, false)).unwrap();
    let err = |pos: &mut Beirut, c: Color, squares: &[&str]| {
        pos.designate(c, &sqs(squares)).unwrap_err().reason
    };
    assert_eq!(
        err(&mut pos, Color::White, &["e1"]),
        "e1 holds your king; a Beirut carrier cannot be the king"
    );
    assert_eq!(err(&mut pos, Color::White, &["d4"]), "d4 is empty");
    assert_eq!(
        err(&mut pos, Color::White, &["g8"]),
        "g8 holds a black piece, not yours"
    );
    assert!(err(&mut pos, Color::White, &["d1", "d2"]).contains("you need exactly 1 carrier"));
    assert_eq!(pos.awaiting_designation(), vec![Color::White, Color::Black]);
    pos.designate(Color::White, &sqs(&["d1"])).unwrap();
    assert!(err(&mut pos, Color::White, &["b1"]).contains("already chosen"));

    let mut multi = Beirut::start(&opts(3, false)).unwrap();
    assert!(err(&mut multi, Color::Black, &["b8", "g8"]).contains("you need exactly 3 carriers"));
    assert!(err(&mut multi, Color::Black, &["b8", "g8", "b8"]).contains("chosen twice"));
    assert_eq!(
        err(&mut multi, Color::Black, &["b8", "e8", "g8"]),
        "e8 holds your king; a Beirut carrier cannot be the king"
    );
    multi
        .designate(Color::Black, &sqs(&["b8", "g8", "a7"]))
        .unwrap();
    assert_eq!(multi.carriers(Color::Black), Some(sqs(&["a7", "b8", "g8"])));
}

/// BE-2: Multiple Beirut allows 1 to 15 carriers; 15 means every piece but the king.
#[test]
fn be2_carrier_count_is_1_to_15() {
    for bad in [0, 16, 200] {
        let e = Beirut::start(&opts(bad, false)).unwrap_err();
        assert!(e.reason.contains("1 to 15"), "{e}");
    }
    let mut pos = Beirut::start(&opts(15, false)).unwrap();
    let white: Vec<&str> = vec![
        "a1", "b1", "c1", "d1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2",
    ];
    pos.designate(Color::White, &sqs(&white)).unwrap();
    assert_eq!(pos.carriers(Color::White).unwrap().len(), 15);
}

/// BE-2: play starts when both have chosen, in either order; until then nothing is legal.
#[test]
fn be2_play_waits_for_both_designations_in_either_order() {
    let mut g = Game::<Beirut>::new(opts(1, false)).unwrap();
    assert!(g.position().legal_actions().is_empty());
    assert_eq!(g.position().variant_outcome(), None);
    assert!(matches!(
        g.play(None, "e4"),
        Err(PlayError::AwaitingDesignation(_))
    ));
    g.designate(Color::Black, &sqs(&["g8"])).unwrap();
    assert_eq!(g.position().awaiting_designation(), vec![Color::White]);
    assert!(matches!(
        g.play(None, "e4"),
        Err(PlayError::AwaitingDesignation(w)) if w == "white"
    ));
    g.designate(Color::White, &sqs(&["d1"])).unwrap();
    assert!(g.position().awaiting_designation().is_empty());
    play(&mut g, &["e4"]);
    assert!(g.designate(Color::White, &sqs(&["b1"])).is_err());
}

/// BE-2: neither choice is visible to the other player or to spectators.
#[test]
fn be2_choice_is_hidden_from_the_opponent_and_spectators() {
    let mut g = Game::<Beirut>::new(opts(1, false)).unwrap();
    g.designate(Color::White, &sqs(&["d1"])).unwrap();
    let pos = g.position();
    let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(
        pos.view(Viewer::Black).to_fen(),
        format!("{board} 1 hidden unchosen")
    );
    assert_eq!(
        pos.view(Viewer::Spectator).to_fen(),
        format!("{board} 1 hidden unchosen")
    );
    assert_eq!(
        pos.view(Viewer::White).to_fen(),
        format!("{board} 1 d1 unchosen")
    );
    g.designate(Color::Black, &sqs(&["g8"])).unwrap();
    let pos = g.position();
    assert_eq!(
        pos.view(Viewer::Black).to_fen(),
        format!("{board} 1 hidden g8")
    );
    assert_eq!(
        pos.view(Viewer::Spectator).to_fen(),
        format!("{board} 1 hidden hidden")
    );
    assert_eq!(pos.view(Viewer::Full).to_fen(), format!("{board} 1 d1 g8"));
    for viewer in [Viewer::Black, Viewer::Spectator] {
        let bv = pos.view(viewer).board_view();
        assert!(!bv.piece_at(s("d1")).unwrap().carrier);
    }
}

// ---------------------------------------------------------------- BE-3

/// BE-3: the seed's example (Ruy Lopez Exchange, 5...Qd4 6.Boom!): the 3x3 block around
/// the carrier is removed, carrier first, and the Boom is public in the history.
#[test]
fn be3_boom_removes_the_block_and_is_public() {
    let mut g = game(1, false, &["g1"], &["b8"]);
    play(
        &mut g,
        &[
            "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "Nxe5", "Qd4",
        ],
    );
    let rec = g.play(None, "Boom@e5").unwrap().clone();
    assert_eq!(rec.san, "Boom@e5");
    assert_eq!(rec.uci, "Boom@e5");
    assert_eq!(rec.squares.detonation, Some(s("e5")));
    assert_eq!(
        rec.removed,
        vec![
            removal("e5", Color::White, Kind::Knight, Cause::Exploded),
            removal("d4", Color::Black, Kind::Queen, Cause::Exploded),
            removal("e4", Color::White, Kind::Pawn, Cause::Exploded),
        ]
    );
    assert_eq!(g.position().carriers(Color::White), Some(vec![]));
    let spectator = g.position().view(Viewer::Spectator).to_fen();
    assert_eq!(
        spectator,
        "r1b1kbnr/1pp2ppp/p1p5/8/8/8/PPPP1PPP/RNBQK2R b KQkq - 0 6 1 hidden hidden"
    );
}

/// BE-3: pawns, kings and pieces of both colours inside the block are removed.
#[test]
fn be3_boom_hits_pawns_kings_and_both_colours() {
    let mut g = from("8/8/3pk3/3Nb3/3P4/8/8/K7 w - - 0 1 1 d5 -");
    let rec = g.play(None, "Boom@d5").unwrap().clone();
    let squares: Vec<Square> = rec.removed.iter().map(|r| r.square).collect();
    assert_eq!(squares, sqs(&["d5", "d4", "e5", "d6", "e6"]));
    assert_eq!(
        g.position().variant_outcome(),
        Some(Outcome::win(Color::White, EndReason::KingExploded))
    );
}

// ---------------------------------------------------------------- BE-4

/// BE-4: a Boom that would remove the mover's own king is not legal.
#[test]
fn be4_boom_killing_own_king_is_refused() {
    let g = game(1, false, &["d1"], &["g8"]);
    assert!(!legal_texts(g.position()).contains(&"Boom@d1".to_string()));
    assert!(illegal_reason(&g, "Boom@d1").contains("your own king"));
}

/// BE-4: a Boom that removes both kings is refused too (it removes one's own).
#[test]
fn be4_boom_killing_both_kings_is_refused() {
    let g = from("8/8/4k3/4N3/4K3/8/8/8 w - - 0 1 1 e5 -");
    assert!(!legal_texts(g.position()).contains(&"Boom@e5".to_string()));
    assert!(illegal_reason(&g, "Boom@e5").contains("your own king"));
}

/// BE-4: a Boom that removes the enemy king (and not one's own) wins at once, even when
/// the mover's king stays in check.
#[test]
fn be4_boom_killing_enemy_king_wins_at_once() {
    let mut g = from("r3k3/4N3/8/8/8/8/8/K7 w - - 0 1 1 e7 -");
    assert!(g.position().is_check(Color::White));
    let rec = g.play(None, "Boom@e7").unwrap().clone();
    assert_eq!(rec.display, "Boom@e7#");
    assert_eq!(
        g.status().outcome(),
        Some(Outcome::win(Color::White, EndReason::KingExploded))
    );
    assert!(g.position().legal_actions().is_empty());
}

/// BE-4: a Boom may get the mover out of check (by destroying the checker) ...
#[test]
fn be4_boom_out_of_check() {
    let mut g = from("7k/8/8/rB6/8/8/8/K7 w - - 0 1 1 b5 -");
    assert!(g.position().is_check(Color::White));
    assert!(legal_texts(g.position()).contains(&"Boom@b5".to_string()));
    let rec = g.play(None, "Boom@b5").unwrap().clone();
    assert_eq!(rec.removed.len(), 2);
    assert!(!g.position().is_check(Color::White));
}

/// BE-4: ... but a Boom that leaves the mover in check is not legal.
#[test]
fn be4_boom_leaving_check_is_refused() {
    let g = from("7k/8/8/r7/8/8/7B/K7 w - - 0 1 1 h2 -");
    assert!(!legal_texts(g.position()).contains(&"Boom@h2".to_string()));
    assert!(illegal_reason(&g, "Boom@h2").contains("in check"));
}

// ---------------------------------------------------------------- BE-5

/// BE-5: a king next to an enemy carrier is not in check, and may capture it.
#[test]
fn be5_king_next_to_enemy_carrier_is_not_in_check() {
    let g = from("4k3/8/8/8/8/8/5n2/4K3 w - - 0 1 1 - f2");
    let pos = g.position();
    assert!(!pos.is_check(Color::White));
    assert!(pos.checked_squares().is_empty());
    let legal = legal_texts(pos);
    assert!(legal.contains(&"Kxf2".to_string()));
    assert!(legal.contains(&"Ke2".to_string()));
    // The spectator sees the same legal moves (nothing depends on the carrier).
    assert_eq!(legal, legal_texts(&pos.view(Viewer::Spectator)));
}

// ---------------------------------------------------------------- BE-6

/// BE-6: without Dead Man's Switch a captured carrier is removed like any piece: the ply
/// record is the same as when a non-carrier is captured.
#[test]
fn be6_captured_carrier_is_removed_silently() {
    let mut with = game(1, false, &["b1"], &["d7"]);
    let mut without = game(1, false, &["b1"], &["b8"]);
    for g in [&mut with, &mut without] {
        play(g, &["e4", "d5", "exd5"]);
    }
    assert_eq!(with.plies(), without.plies());
    assert_eq!(
        with.plies()[2].removed,
        vec![removal("d5", Color::Black, Kind::Pawn, Cause::Captured)]
    );
    assert_eq!(with.position().carriers(Color::Black), Some(vec![]));
    assert_eq!(
        with.position().view(Viewer::White).to_fen(),
        without.position().view(Viewer::White).to_fen()
    );
}

/// BE-6: with Dead Man's Switch a captured carrier explodes on its square (3x3), the
/// capturer included; the blast is public.
#[test]
fn be6_dead_mans_switch_blast() {
    let mut g = game(1, true, &["b1"], &["d7"]);
    play(&mut g, &["e4", "d5"]);
    let rec = g.play(None, "exd5").unwrap().clone();
    assert_eq!(
        rec.removed,
        vec![
            removal("d5", Color::Black, Kind::Pawn, Cause::Captured),
            removal("d5", Color::White, Kind::Pawn, Cause::Exploded),
        ]
    );
    assert_eq!(
        g.position().view(Viewer::Spectator).to_fen(),
        "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2 1+dms hidden hidden"
    );
}

/// BE-6: a Dead Man's Switch blast that reaches the capturer's king: the carrier's owner
/// wins; the capture itself was legal (judged without the hidden information).
#[test]
fn be6_dead_mans_switch_blast_reaching_capturers_king() {
    let mut g = from("7k/8/8/3p4/4K3/8/8/8 w - - 0 1 1+dms - d5");
    assert!(legal_texts(&g.position().view(Viewer::White)).contains(&"Kxd5".to_string()));
    let rec = g.play(Some(Color::White), "Kxd5").unwrap().clone();
    assert_eq!(
        rec.removed,
        vec![
            removal("d5", Color::Black, Kind::Pawn, Cause::Captured),
            removal("d5", Color::White, Kind::King, Cause::Exploded),
        ]
    );
    assert_eq!(
        g.status().outcome(),
        Some(Outcome::win(Color::Black, EndReason::KingExploded))
    );
}

/// BE-6: a Dead Man's Switch blast that removes both kings draws.
#[test]
fn be6_dead_mans_switch_blast_killing_both_kings_draws() {
    let mut g = from("8/8/4k3/3p4/2K5/8/8/3R4 w - - 0 1 1+dms - d5");
    let rec = g.play(None, "Rxd5").unwrap().clone();
    assert_eq!(rec.removed.len(), 4);
    assert_eq!(
        g.status().outcome(),
        Some(Outcome::draw(EndReason::KingsExploded))
    );
}

/// BE-6: without Dead Man's Switch the same capture explodes nothing.
#[test]
fn be6_without_dead_mans_switch_no_blast() {
    let mut g = from("7k/8/8/3p4/4K3/8/8/8 w - - 0 1 1 - d5");
    let rec = g.play(None, "Kxd5").unwrap().clone();
    assert_eq!(rec.removed.len(), 1);
    assert_eq!(g.position().variant_outcome(), None);
    // Two bare kings: the automatic draw by insufficient material (C-4, BE-11).
    assert_eq!(
        g.status().outcome(),
        Some(Outcome::draw(EndReason::InsufficientMaterial))
    );
}

// ---------------------------------------------------------------- BE-11

/// BE-11: two bare kings is a draw by insufficient material; any other material plays on
/// (any piece but a king may be a carrier).
#[test]
fn be11_two_bare_kings_draw() {
    let bare = from("7k/8/8/8/4K3/8/8/8 w - - 0 1 1 - -");
    assert_eq!(
        bare.status().outcome(),
        Some(Outcome::draw(EndReason::InsufficientMaterial))
    );
    for fen in [
        "7k/8/8/8/4K3/8/8/7N w - - 0 1 1 h1 -",
        "7k/8/8/8/4K3/8/8/7B w - - 0 1 1 h1 -",
        "7k/7p/8/8/4K3/8/8/8 w - - 0 1 1 - h7",
    ] {
        let g = from(fen);
        assert_eq!(g.status().outcome(), None, "{fen}");
        assert!(g.position().can_win(Color::White) || g.position().can_win(Color::Black));
    }
    // Reaching two bare kings by a capture draws at once.
    let mut g = from("7k/8/8/3p4/4K3/8/8/8 w - - 0 1 1 - d5");
    assert_eq!(g.status().outcome(), None);
    play(&mut g, &["Kxd5"]);
    assert_eq!(
        g.status().outcome(),
        Some(Outcome::draw(EndReason::InsufficientMaterial))
    );
}

// ---------------------------------------------------------------- BE-12

/// BE-12: a Dead Man's Switch blast that leaves the capturer's king attacked does not end
/// the game; the opponent may not take the king, and the exposed side must then answer
/// the check.
#[test]
fn be12_king_exposed_by_a_blast_must_answer_the_check() {
    // The knight on e4 shields the white king from the rook on e8; the blast of the
    // carrier pawn on d5 removes it.
    let mut g = from("4r2k/8/8/3p4/2P1N3/8/8/4K3 w - - 0 1 1+dms - d5");
    play(&mut g, &["cxd5"]);
    assert!(g.position().is_check(Color::White));
    assert_eq!(g.status().outcome(), None);
    let black = legal_texts(g.position());
    assert!(!black.iter().any(|t| t.contains("xe1")), "{black:?}");
    assert!(illegal_reason(&g, "Rxe1").contains("never captured"));
    play(&mut g, &["Kg8"]);
    let mut white = legal_texts(g.position());
    white.sort();
    assert_eq!(white, ["Kd1", "Kd2", "Kf1", "Kf2"]);
    assert!(illegal_reason(&g, "Ke2").contains("check"));
}

/// BE-12: exposed and unable to answer the check: checkmate.
#[test]
fn be12_exposed_king_that_cannot_answer_is_checkmated() {
    // The knight on h3 shields the white king on h1 from the rook on h8; the blast of the
    // carrier pawn on g4 removes it, and the rook on g7 closes the g-file.
    let mut g = from("k6r/6r1/8/8/6p1/5P1N/8/7K w - - 0 1 1+dms - g4");
    play(&mut g, &["fxg4"]);
    assert!(g.position().is_check(Color::White));
    assert_eq!(g.status().outcome(), None);
    play(&mut g, &["Kb8"]);
    assert_eq!(
        g.status().outcome(),
        Some(Outcome::win(Color::Black, EndReason::Checkmate))
    );
}

/// BE-12: a blast that removes only the carrier owner's own king wins for the capturer.
#[test]
fn be12_blast_removing_only_the_owners_king_wins_for_the_capturer() {
    let mut g = from("8/8/4k3/3p4/8/8/8/3RK3 w - - 0 1 1+dms - d5");
    let rec = g.play(None, "Rxd5").unwrap().clone();
    assert!(
        rec.removed
            .contains(&removal("e6", Color::Black, Kind::King, Cause::Exploded))
    );
    assert_eq!(
        g.status().outcome(),
        Some(Outcome::win(Color::White, EndReason::KingExploded))
    );
}

// ---------------------------------------------------------------- BE-7

/// BE-7: a carrier pawn stays a carrier after promotion.
#[test]
fn be7_promotion_keeps_the_carrier() {
    let mut g = from("4k3/1P6/8/8/8/8/8/K7 w - - 0 1 1 b7 -");
    play(&mut g, &["b8=N"]);
    assert_eq!(g.position().carriers(Color::White), Some(sqs(&["b8"])));
    play(&mut g, &["Kf7"]);
    assert!(legal_texts(g.position()).contains(&"Boom@b8".to_string()));
    let bv = g.position().view(Viewer::White).board_view();
    assert!(bv.piece_at(s("b8")).unwrap().carrier);
}

/// BE-7: no chain reactions: a carrier inside a Boom's block vanishes without exploding.
#[test]
fn be7_no_chain_reaction() {
    let mut g = from("7k/8/8/4p3/3N4/2N5/8/K7 w - - 0 1 2 c3,d4 -");
    let rec = g.play(None, "Boom@c3").unwrap().clone();
    assert_eq!(rec.removed.len(), 2);
    assert_eq!(g.position().carriers(Color::White), Some(vec![]));
    assert!(
        g.position()
            .view(Viewer::Full)
            .to_fen()
            .starts_with("7k/8/8/4p3/8/8/8/K7 b")
    );
}

/// BE-7: en passant capture of a Dead Man's Switch carrier: the blast is centred on the
/// captured pawn's square (c4 is hit, c7 is not).
#[test]
fn be7_en_passant_of_dms_carrier_centres_on_captured_pawn() {
    let mut g = from("4k3/2rp4/8/4P3/2N5/8/8/4K3 b - - 0 1 1+dms - d7");
    play(&mut g, &["d5"]);
    let rec = g.play(None, "exd6").unwrap().clone();
    assert_eq!(
        rec.removed,
        vec![
            removal("d5", Color::Black, Kind::Pawn, Cause::Captured),
            removal("c4", Color::White, Kind::Knight, Cause::Exploded),
            removal("d6", Color::White, Kind::Pawn, Cause::Exploded),
        ]
    );
    assert_eq!(
        g.position().view(Viewer::Full).to_fen(),
        "4k3/2r5/8/8/8/8/8/4K3 b - - 0 2 1+dms - -"
    );
}

// ---------------------------------------------------------------- BE-8

/// BE-8: each player sees their own carriers (and only theirs); spectators see none.
#[test]
fn be8_players_see_their_own_carriers() {
    let g = game(2, false, &["b1", "d1"], &["g8", "a7"]);
    let carriers = |viewer: Viewer| -> Vec<Square> {
        g.position()
            .view(viewer)
            .board_view()
            .pieces
            .iter()
            .filter(|p| p.carrier)
            .map(|p| p.square)
            .collect()
    };
    assert_eq!(carriers(Viewer::White), sqs(&["b1", "d1"]));
    assert_eq!(carriers(Viewer::Black), sqs(&["a7", "g8"]));
    assert_eq!(carriers(Viewer::Spectator), vec![]);
    assert_eq!(carriers(Viewer::Full), sqs(&["b1", "d1", "a7", "g8"]));
    assert_eq!(
        g.position().view(Viewer::Black).designation(Color::White),
        Designation::Hidden
    );
}

// ---------------------------------------------------------------- BE-9

/// BE-9: when the board ends the game, every view shows every carrier.
#[test]
fn be9_end_of_game_reveals_every_carrier() {
    let mut g = game(1, false, &["b1"], &["g8"]);
    play(&mut g, &["f3", "e5", "g4"]);
    assert!(
        g.position()
            .view(Viewer::Spectator)
            .to_fen()
            .ends_with("1 hidden hidden")
    );
    play(&mut g, &["Qh4"]);
    for viewer in [Viewer::White, Viewer::Black, Viewer::Spectator] {
        let view = g.position().view(viewer);
        assert!(view.to_fen().ends_with("1 b1 g8"), "{}", view.to_fen());
        let bv = view.board_view();
        assert!(bv.piece_at(s("b1")).unwrap().carrier);
        assert!(bv.piece_at(s("g8")).unwrap().carrier);
    }
}

/// BE-9 (docs/ARCHITECTURE.md, "Beirut commitment"): the commitment is SHA-256 of the
/// documented text, squares in canonical order, salt in lowercase hex; it verifies and
/// detects any change.
#[test]
fn be9_commitment_format_and_verification() {
    let salt: [u8; 16] = std::array::from_fn(|i| (i * 17) as u8);
    let squares = sqs(&["g1", "b1"]);
    let text = commitment_preimage("game-42", Color::White, &squares, &salt);
    assert_eq!(
        text,
        "kaboom-beirut-v1:game-42:white:b1,g1:00112233445566778899aabbccddeeff"
    );
    let c = commitment("game-42", Color::White, &squares, &salt);
    assert_eq!(c.len(), 64);
    assert!(
        c.chars()
            .all(|ch| ch.is_ascii_digit() || ('a'..='f').contains(&ch))
    );
    assert!(verify_commitment(
        &c,
        "game-42",
        Color::White,
        &sqs(&["b1", "g1"]),
        &salt
    ));
    assert!(verify_commitment(
        &c.to_uppercase(),
        "game-42",
        Color::White,
        &squares,
        &salt
    ));
    assert!(!verify_commitment(
        &c,
        "game-43",
        Color::White,
        &squares,
        &salt
    ));
    assert!(!verify_commitment(
        &c,
        "game-42",
        Color::Black,
        &squares,
        &salt
    ));
    assert!(!verify_commitment(
        &c,
        "game-42",
        Color::White,
        &sqs(&["b1"]),
        &salt
    ));
    let mut other_salt = salt;
    other_salt[15] ^= 1;
    assert!(!verify_commitment(
        &c,
        "game-42",
        Color::White,
        &squares,
        &other_salt
    ));
    // The line a player runs: `printf %s TEXT | sha256sum`.
    if let Ok(mut child) = std::process::Command::new("sha256sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let printed = String::from_utf8(out.stdout).unwrap();
        assert_eq!(printed.split_whitespace().next(), Some(c.as_str()));
    }
}

// ---------------------------------------------------------------- BE-10

/// BE-10: mate ends the game at once; a Boom that would remove the mating queen cannot
/// rescue the mated side.
#[test]
fn be10_mate_ends_the_game_even_with_a_boom_available() {
    let mut g = game(1, false, &["g2"], &["b8"]);
    play(&mut g, &["f3", "e5", "g4", "Qh4"]);
    let pos = g.position();
    assert_eq!(
        pos.variant_outcome(),
        Some(Outcome::win(Color::Black, EndReason::Checkmate))
    );
    assert!(pos.legal_actions().is_empty());
    assert!(matches!(
        g.play(None, "Boom@g4"),
        Err(PlayError::Finished(_))
    ));
}

/// BE-10: stalemate too is decided by the chess moves alone.
#[test]
fn be10_stalemate_ignores_booms() {
    let g = from("k7/P7/1K6/8/8/8/8/8 b - - 0 1 1 - -");
    assert_eq!(
        g.position().variant_outcome(),
        Some(Outcome::draw(EndReason::Stalemate))
    );
    // Black's carrier pawn h3 is blocked: Boom@h3 would be legal, but there is no chess
    // move, so the game is already drawn.
    let g = from("k7/P7/1K6/8/8/7p/7P/8 b - - 0 1 1 - h3");
    assert_eq!(
        g.position().variant_outcome(),
        Some(Outcome::draw(EndReason::Stalemate))
    );
    assert!(g.position().legal_actions().is_empty());
}

/// BE-10: a Boom clears en passant, resets the 100-ply count and removes the castling
/// right of a rook it destroys.
#[test]
fn be10_boom_clears_en_passant_clock_and_castling_rights() {
    let mut g = from("4k3/8/8/8/3pP3/8/6b1/R3K2R b KQ e3 7 10 1 - g2");
    assert!(legal_texts(g.position()).contains(&"dxe3".to_string()));
    play(&mut g, &["Boom@g2"]);
    let pos = g.position();
    assert_eq!(pos.to_fen().split(' ').nth(3), Some("-"));
    assert_eq!(pos.halfmove_clock(), 0);
    assert_eq!(pos.to_fen(), "4k3/8/8/8/3pP3/8/8/R3K3 w Q - 0 11 1 - -");
}

/// BE-10: a carrier rook keeps its bomb when it castles.
#[test]
fn be10_carrier_rook_keeps_its_bomb_when_castling() {
    let mut g = from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 1 h1 a8");
    play(&mut g, &["O-O", "O-O-O"]);
    assert_eq!(g.position().carriers(Color::White), Some(sqs(&["f1"])));
    assert_eq!(g.position().carriers(Color::Black), Some(sqs(&["d8"])));
}

/// BE-10: each carrier's Boom is a distinct action.
#[test]
fn be10_each_carriers_boom_is_a_distinct_action() {
    let g = game(2, false, &["b1", "g1"], &["b8", "g8"]);
    let legal = legal_texts(g.position());
    assert_eq!(legal.len(), 22);
    assert!(legal.contains(&"Boom@b1".to_string()));
    assert!(legal.contains(&"Boom@g1".to_string()));
}

/// BE-10: public status (repetition, check) does not depend on the hidden carriers.
#[test]
fn be10_repetition_key_ignores_carriers() {
    let a = game(1, false, &["b1"], &["g8"]);
    let b = game(1, false, &["d1"], &["b8"]);
    assert_eq!(a.position().repetition_key(), b.position().repetition_key());
}

// ---------------------------------------------------------------- notation (C-5)

/// C-5: `Boom@e5` is the canonical form; input is case-insensitive and decorations are
/// ignored; every legal action round-trips through its text.
#[test]
fn notation_boom_round_trip() {
    let mut g = game(1, false, &["g1"], &["b8"]);
    play(&mut g, &["Nf3", "e6", "Ne5", "a6"]);
    let pos = g.position();
    for text in [
        "Boom@e5",
        "boom@e5",
        "BOOM@E5",
        "Boom@e5+",
        "Boom@e5->d4,e4",
        "boom @e5",
    ] {
        assert_eq!(
            pos.parse_action(text).unwrap(),
            BeirutAction::Boom(s("e5")),
            "{text}"
        );
    }
    for action in pos.legal_actions() {
        assert_eq!(pos.parse_action(&pos.san(&action)).unwrap(), action);
        assert_eq!(pos.parse_action(&pos.uci(&action)).unwrap(), action);
    }
}

/// C-5: bad Boom texts say what was wrong, and never reveal an opponent's carrier.
#[test]
fn notation_errors() {
    let g = game(1, false, &["g1"], &["b8"]);
    match g.parse(None, "Boom@z9") {
        Err(PlayError::Action(ActionError::Parse(e))) => assert!(e.expected.contains("Boom@e5")),
        other => panic!("{other:?}"),
    }
    assert_eq!(illegal_reason(&g, "Boom@b8"), "you have no carrier on b8");
    assert_eq!(illegal_reason(&g, "Boom@a8"), "you have no carrier on a8");
    match g.parse(None, "hello") {
        Err(PlayError::Action(ActionError::Parse(e))) => assert!(e.expected.contains("Boom@")),
        other => panic!("{other:?}"),
    }
    let reason = illegal_reason(&g, "Ke2");
    assert!(reason.contains("no king"), "{reason}");
}

// ---------------------------------------------------------------- serialization

/// The serialization of full states and of every view reads back to an equal position,
/// and to_fen(from_fen(x)) == x.
/// BE-2, docs/notation/beirut.md: full states and views round-trip.
#[test]
fn fen_round_trip_full_and_views() {
    let mut g = game(2, true, &["b1", "e2"], &["d7", "g8"]);
    play(&mut g, &["e4", "d5", "Nc3", "Nf6"]);
    for viewer in [
        Viewer::White,
        Viewer::Black,
        Viewer::Spectator,
        Viewer::Full,
    ] {
        let view = g.position().view(viewer);
        let fen = view.to_fen();
        let back = Beirut::from_fen(&fen).unwrap();
        assert_eq!(back, view, "{viewer}");
        assert_eq!(back.to_fen(), fen);
    }
    assert_eq!(
        g.position().to_fen(),
        "rnbqkb1r/ppp1pppp/5n2/3p4/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 2 3 2+dms c3,e4 d5,f6"
    );
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(
        Beirut::from_fen(fen).unwrap().to_fen(),
        format!("{fen} 1 unchosen unchosen")
    );
}

/// Serialization errors name the field.
/// docs/notation/beirut.md: errors name the wrong field.
#[test]
fn fen_errors_name_the_field() {
    let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let err = |extra: &str| {
        Beirut::from_fen(&format!("{board} {extra}"))
            .unwrap_err()
            .reason
    };
    assert!(err("16 d1 g8").contains("count 1 to 15"));
    assert!(err("1+xyz d1 g8").contains("count 1 to 15"));
    assert!(err("1 d4 g8").contains("d4 is empty"));
    assert!(err("1 e1 g8").contains("cannot be the king"));
    assert!(err("1 d1,b1 g8").contains("carrier count is 1"));
    assert!(err("1 d1").contains("found 2 extra"));
    assert!(err("1 d1 z").contains("squares like"));
}

/// PlyRecords (san, display, removals) contain nothing secret: two games that differ only
/// in Black's hidden carrier record the same plies, captures of the carrier included.
/// BE-2: a ply record never reveals a hidden carrier.
#[test]
fn ply_records_reveal_nothing() {
    let moves = [
        "e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "Bc4", "Nf6", "Bxf7+", "Kxf7",
    ];
    let mut a = AnyGame::new(kaboom_rules::Variant::Beirut, opts(1, false)).unwrap();
    let mut b = a.clone();
    a.designate(Color::White, &sqs(&["b1"])).unwrap();
    b.designate(Color::White, &sqs(&["b1"])).unwrap();
    a.designate(Color::Black, &sqs(&["d8"])).unwrap();
    b.designate(Color::Black, &sqs(&["f7"])).unwrap();
    for m in moves {
        a.play(None, m).unwrap();
        b.play(None, m).unwrap();
        assert_eq!(a.plies(), b.plies());
        for viewer in [Viewer::White, Viewer::Spectator] {
            assert_eq!(a.fen(viewer), b.fen(viewer));
            assert_eq!(a.board_view(viewer), b.board_view(viewer));
            assert_eq!(a.legal_actions(viewer), b.legal_actions(viewer));
        }
    }
    assert_ne!(a.fen(Viewer::Full), b.fen(Viewer::Full));
}
