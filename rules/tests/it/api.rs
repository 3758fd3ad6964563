//! The public API added for the bot when the workspace was restructured:
//! `Position::effects`, carrier candidates, the BE-9 commitment defined once, and error
//! kinds a caller can match.

use kaboom_rules::atomic::Atomic;
use kaboom_rules::beirut::{self, Beirut};
use kaboom_rules::bombalot::Bombalot;
use kaboom_rules::bomberman::Bomberman;
use kaboom_rules::nuke::Nuke;
use kaboom_rules::{
    ActionErrorKind, AnyGame, BombTransfer, Color, DesignationErrorKind, FenErrorKind, GameOptions,
    Kind, PlayErrorKind, Position, Push, Square, Variant,
};

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn sqs(names: &[&str]) -> Vec<Square> {
    names.iter().map(|n| sq(n)).collect()
}

fn effects<P: Position>(fen: &str, text: &str) -> kaboom_rules::Effects {
    let pos = P::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let action = pos
        .parse_action(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    pos.effects(&action)
}

/// AT-2: a capture names the captured square; the removals are the C-6 report.
#[test]
fn effects_atomic_capture_and_castling_at2_at8() {
    let fx = effects::<Atomic>("4k3/8/2b1p3/3p4/3qP3/2N5/8/4K3 w - - 0 1", "Nxd5");
    assert_eq!(fx.captured, Some(sq("d5")));
    assert_eq!(fx.moves, vec![(sq("c3"), sq("d5"))]);
    let removed: Vec<Square> = fx.removed.iter().map(|r| r.square).collect();
    for s in ["d5", "c6", "d4"] {
        assert!(removed.contains(&sq(s)), "{removed:?}");
    }
    assert!(!removed.contains(&sq("e4")), "pawns survive the blast");
    let castle = effects::<Atomic>("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O");
    assert_eq!(
        castle.moves,
        vec![(sq("e1"), sq("g1")), (sq("h1"), sq("f1"))]
    );
    assert_eq!(castle.captured, None);
    assert!(castle.removed.is_empty());
}

/// BE-3: a Boom is a detonation on the carrier's square.
#[test]
fn effects_beirut_boom_be3() {
    let fen = "4k3/7p/3p4/4N3/3Q4/8/8/4K3 w - - 0 1 1+dms e5 d6";
    let fx = effects::<Beirut>(fen, "Boom@e5");
    assert_eq!(fx.detonation, Some(sq("e5")));
    assert_eq!(fx.actor.map(|p| p.kind), Some(Kind::Knight));
    assert_eq!(fx.removed.len(), 3);
}

/// NU-4, NU-5, NU-10: transfer with freezing, grab.
#[test]
fn effects_nuke_transfer_and_grab_nu4_nu5_nu10() {
    let fx = effects::<Nuke>("4k3/8/8/8/3q4/3N4/8/4K3 w - - 0 1 d3,e8", "d3>d4 Kf1");
    assert_eq!(
        fx.transfer,
        Some(BombTransfer {
            from: sq("d3"),
            to: sq("d4"),
            freezes: true
        })
    );
    let fx = effects::<Nuke>("4k3/8/8/8/8/5n2/8/N3K1N1 w - - 0 1 a1*,f3*", "Nxf3*");
    assert_eq!(fx.grab, Some(sq("f3")));
    assert_eq!(fx.captured, Some(sq("f3")));
}

/// BM-5, BM-7: detonation, defusing, setting a bomb off.
#[test]
fn effects_bomberman_bombs_bm5_bm7() {
    let fen = "5k4/10/10/2o7/2D7/1N8/10/5K4 w - - 0 1";
    let fx = effects::<Bomberman>(fen, "Dxc5");
    assert_eq!((fx.defuses, fx.sets_off), (Some(sq("c5")), None));
    let fx = effects::<Bomberman>(fen, "Nxc5");
    assert_eq!((fx.defuses, fx.sets_off), (None, Some(sq("c5"))));
    let fx = effects::<Bomberman>("5k4/1n8/10/pO8/10/10/1P8/5K4 w - - 0 1", "Oxb5");
    assert_eq!(fx.detonation, Some(sq("b5")));
    assert_eq!(fx.removed.len(), 4);
}

/// BA-2, BA-6, BA-14: pushes and goal entries.
#[test]
fn effects_bombalot_push_and_goal_ba2_ba6_ba14() {
    let fx = effects::<Bombalot>("t7/8/8/7w/4Twso/8/8/8 w ---- --", "e4-f4");
    assert_eq!(
        fx.pushes,
        vec![
            Push {
                from: sq("f4"),
                to: Some(sq("g4"))
            },
            Push {
                from: sq("g4"),
                to: Some(sq("h4"))
            },
            Push {
                from: sq("h4"),
                to: None
            },
        ]
    );
    let fx = effects::<Bombalot>("3W4/3W4/3T4/8/8/8/8/t7 w ---- --", "d8-d9");
    assert_eq!(fx.goal_entry, Some(sq("d9")));
}

/// BE-2 (own pieces but the king, N carriers) and NU-3 (any own piece, one).
#[test]
fn carrier_candidates_be2_nu3() {
    let options = GameOptions {
        carriers: 3,
        ..GameOptions::default()
    };
    let beirut = AnyGame::new(Variant::Beirut, options).unwrap();
    let white = beirut.carrier_candidates(Color::White);
    assert_eq!(white.len(), 15);
    assert!(!white.contains(&sq("e1")));
    assert!(white.windows(2).all(|w| w[0] < w[1]), "canonical order");
    assert_eq!(beirut.carrier_count(), 3);
    let nuke = AnyGame::new(Variant::Nuke, GameOptions::default()).unwrap();
    let black = nuke.carrier_candidates(Color::Black);
    assert_eq!(black.len(), 16);
    assert!(black.contains(&sq("e8")));
    assert_eq!(nuke.carrier_count(), 1);
    let atomic = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
    assert!(atomic.carrier_candidates(Color::White).is_empty());
    assert_eq!(atomic.carrier_count(), 0);
    assert_eq!(beirut::MAX_CARRIERS, 15);
}

/// BE-9: one definition of the commitment; squares by rank from White's side, then file.
#[test]
fn commitment_text_and_bytes_agree_be9() {
    let squares = sqs(&["g1", "a2", "b1", "g1"]);
    assert_eq!(beirut::canonical_squares(&squares), "b1,g1,a2");
    let salt = [0xabu8; 16];
    let salt_hex = "ab".repeat(16);
    assert_eq!(
        beirut::commitment_preimage_text("7", Color::Black, "b1,g1,a2", &salt_hex),
        format!("kaboom-beirut-v1:7:black:b1,g1,a2:{salt_hex}")
    );
    assert_eq!(
        beirut::commitment_preimage("7", Color::Black, &squares, &salt),
        beirut::commitment_preimage_text("7", Color::Black, "b1,g1,a2", &salt_hex)
    );
    let digest = beirut::commitment_text("7", Color::Black, "b1,g1,a2", &salt_hex);
    assert_eq!(
        digest,
        beirut::commitment("7", Color::Black, &squares, &salt)
    );
    assert!(beirut::verify_commitment(
        &digest,
        "7",
        Color::Black,
        &squares,
        &salt
    ));
}

/// C-5: errors keep their message and gain a kind.
#[test]
fn play_errors_have_kinds() {
    let mut game = AnyGame::from_fen(Variant::Atomic, "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1").unwrap();
    let kind = |game: &mut AnyGame, player: Option<Color>, text: &str| {
        game.play(player, text).unwrap_err().kind()
    };
    assert_eq!(
        kind(&mut game, Some(Color::Black), "Ke7"),
        PlayErrorKind::NotYourTurn
    );
    assert_eq!(kind(&mut game, None, "xyz"), PlayErrorKind::Unparseable);
    assert_eq!(kind(&mut game, None, "Nd4"), PlayErrorKind::Illegal);
    let err = game.play(None, "Nd2").unwrap_err();
    assert_eq!(err.kind(), PlayErrorKind::Ambiguous);
    assert!(
        err.to_string()
            .starts_with("Nd2 is not legal here: it is ambiguous")
    );
    let kaboom_rules::PlayError::Action(action) = err else {
        panic!("an action error")
    };
    assert_eq!(action.kind(), ActionErrorKind::Ambiguous);
}

/// BE-2, NU-3: designation errors say why, and which rule, by kind.
#[test]
fn designation_errors_have_kinds_be2_nu3() {
    let mut pos = Beirut::start(&GameOptions::default()).unwrap();
    let kind = |pos: &mut Beirut, names: &[&str]| {
        pos.designate(Color::White, &sqs(names)).unwrap_err().kind
    };
    assert_eq!(kind(&mut pos, &["e1"]), DesignationErrorKind::King);
    assert_eq!(kind(&mut pos, &["e8"]), DesignationErrorKind::NotYours);
    assert_eq!(kind(&mut pos, &["e4"]), DesignationErrorKind::Empty);
    assert_eq!(
        kind(&mut pos, &["a1", "b1"]),
        DesignationErrorKind::WrongCount
    );
    let mut atomic = Atomic::new();
    let err = atomic.designate(Color::White, &sqs(&["a1"])).unwrap_err();
    assert_eq!(err.kind, DesignationErrorKind::NoCarriers);
    let mut nuke = Nuke::new();
    let err = nuke.designate(Color::White, &sqs(&["e8"])).unwrap_err();
    assert_eq!(err.kind, DesignationErrorKind::NotYours);
}

/// FEN errors name the bad part by kind.
#[test]
fn fen_errors_have_kinds() {
    let kind = |fen: &str| Atomic::from_fen(fen).unwrap_err().kind;
    assert_eq!(kind("4k3/8/8/8/8/8/8/4K3 x - - 0 1"), FenErrorKind::Turn);
    assert_eq!(kind("4k3/8/8/8/8/8/8/4K3"), FenErrorKind::Fields);
    assert_eq!(
        kind("4k3/8/8/8/8/8/8/4K3 w - - zero 1"),
        FenErrorKind::Clocks
    );
    assert_eq!(
        Bomberman::from_fen("5k4/10/10/10/10/10/10/5K4 w - - 0 1 extra")
            .map(|_| ())
            .unwrap_err()
            .kind,
        FenErrorKind::Fields
    );
    assert_eq!(
        Bomberman::from_fen("5k4/10/10/10/10/10/10/4KK4 w - - 0 1")
            .unwrap_err()
            .kind,
        FenErrorKind::Impossible
    );
}

/// `Position::pieces` and `Position::loose_bombs` (the engine's cheap piece list)
/// list exactly what `board_view` lists, along random games of every variant, in full and
/// in each player's view.
#[test]
fn pieces_match_board_view_in_every_variant() {
    fn walk<P: Position>(seed: u64) {
        let mut pos = P::start(&GameOptions::default()).unwrap();
        for color in pos.awaiting_designation() {
            let candidates = pos.carrier_candidates(color);
            let count = pos.carrier_count();
            pos.designate(color, &candidates[candidates.len() - count..])
                .unwrap();
        }
        let mut state = seed;
        for _ in 0..60 {
            for viewer in [
                kaboom_rules::Viewer::Full,
                kaboom_rules::Viewer::White,
                kaboom_rules::Viewer::Black,
            ] {
                let seen = pos.view(viewer);
                let view = seen.board_view();
                assert_eq!(seen.pieces(), view.pieces, "{}", pos.to_fen());
                assert_eq!(seen.loose_bombs(), view.loose_bombs, "{}", pos.to_fen());
            }
            let actions = pos.legal_actions();
            if actions.is_empty() {
                break;
            }
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let action = &actions[(state >> 33) as usize % actions.len()];
            pos.play_unchecked(action);
        }
    }
    for seed in 0..4 {
        walk::<Atomic>(seed);
        walk::<Beirut>(seed);
        walk::<Nuke>(seed);
        walk::<Bomberman>(seed);
        walk::<Bombalot>(seed);
    }
}

/// `AnyGame::preview` foresees what `play` does when nothing is hidden (Atomic), and in
/// Beirut computes on the player's view: capturing an enemy carrier the player cannot
/// know of shows no blast (BE-2, BE-6), though playing it does blow up.
#[test]
fn preview_matches_play_and_hides_what_the_player_cannot_know() {
    use kaboom_rules::Viewer;
    let mut atomic = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
    for san in ["e4", "d5"] {
        atomic.play(None, san).unwrap();
    }
    let preview = atomic.preview(Color::White, "exd5").unwrap();
    let before = atomic.ply_count();
    assert_eq!(atomic.ply_count(), before, "a preview changes nothing");
    let mut played = atomic.clone();
    let ply = played.play(Some(Color::White), "exd5").unwrap();
    assert_eq!(preview.san, ply.san);
    assert_eq!(preview.removed, ply.removed);
    assert_eq!(preview.after, played.board_view(Viewer::White));
    assert!(
        atomic.preview(Color::Black, "exd5").is_err(),
        "not Black's turn"
    );

    let options = GameOptions {
        carriers: 1,
        dead_mans_switch: true,
    };
    let mut beirut = AnyGame::new(Variant::Beirut, options).unwrap();
    beirut
        .designate(Color::White, &["g1".parse().unwrap()])
        .unwrap();
    beirut
        .designate(Color::Black, &["d7".parse().unwrap()])
        .unwrap();
    for san in ["e4", "d5"] {
        beirut.play(None, san).unwrap();
    }
    let preview = beirut.preview(Color::White, "exd5").unwrap();
    assert_eq!(preview.removed.len(), 1, "{:?}", preview.removed);
    assert!(
        preview
            .after
            .pieces
            .iter()
            .all(|p| p.color == Color::White || !p.carrier)
    );
    let real = beirut.clone().play(Some(Color::White), "exd5").unwrap();
    assert!(
        real.removed.len() > 1,
        "the hidden carrier does explode: {:?}",
        real.removed
    );
}
