//! Nuke Chess property tests over random games with random designations (NU-3): no panic,
//! notation round trip for every legal action (C-5), serialization round trip, and bomb
//! conservation (always exactly two bombs, carried or loose: NU-6, NU-9, NU-10).

use crate::nuke::bombs_in_view;
use kaboom_rules::nuke::Nuke;
use kaboom_rules::{Color, GameOptions, Kind, Position, Square, Viewer};
use proptest::prelude::*;

fn own_squares(p: &Nuke, color: Color) -> Vec<Square> {
    p.board_view()
        .pieces
        .iter()
        .filter(|pc| pc.color == color)
        .map(|pc| pc.square)
        .collect()
}

/// Checks every invariant of one position reached by play.
fn check_position(p: &Nuke) -> Result<(), TestCaseError> {
    let fen = p.to_fen();
    let back = Nuke::from_fen(&fen).map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&back.to_fen(), &fen);
    prop_assert_eq!(&back, p);
    prop_assert_eq!(back.repetition_key(), p.repetition_key());
    prop_assert_eq!(p.bomb_count(), 2, "bombs in {}", fen);
    prop_assert_eq!(bombs_in_view(p), 2, "bombs in {}", fen);
    // Nothing is hidden once play has started (section 6).
    for viewer in [Viewer::White, Viewer::Black, Viewer::Spectator] {
        prop_assert_eq!(&p.view(viewer), p);
    }
    let legal = p.legal_actions();
    prop_assert_eq!(p.count_legal(), legal.len() as u64);
    prop_assert_eq!(p.variant_outcome().is_some(), legal.is_empty());
    let mut texts = std::collections::HashSet::new();
    for action in &legal {
        let san = p.san(action);
        prop_assert!(
            texts.insert(san.clone()),
            "duplicate text {} in {}",
            san,
            fen
        );
        let parsed = p.parse_action(&san);
        prop_assert_eq!(
            parsed.as_ref().ok(),
            Some(action),
            "{} in {}: {:?}",
            san,
            fen,
            parsed
        );
        let uci = p.uci(action);
        prop_assert_eq!(
            p.parse_action(&uci).ok(),
            Some(*action),
            "uci {} in {}",
            uci,
            fen
        );
        if action.transfer.is_none() && !action.grab {
            prop_assert!(!uci.contains(' ') && !uci.contains('*'));
        } else {
            prop_assert_eq!(&uci, &san);
        }
        let with_marks = p.san_with_marks(action);
        prop_assert_eq!(p.parse_action(&with_marks).ok(), Some(*action));
    }
    Ok(())
}

/// Picks an action, preferring captures, grabs and transfers when `bias` says so, so that
/// explosions, chains and regenerated bombs happen often.
fn pick(p: &Nuke, seed: u32) -> Option<kaboom_rules::nuke::NukeAction> {
    let legal = p.legal_actions();
    if legal.is_empty() {
        return None;
    }
    let interesting: Vec<_> = legal
        .iter()
        .filter(|a| {
            a.mv.captured_kind().is_some() || a.grab || a.mv.promotion_kind() == Some(Kind::Queen)
        })
        .collect();
    if seed.is_multiple_of(3) && !interesting.is_empty() {
        Some(*interesting[(seed / 3) as usize % interesting.len()])
    } else {
        Some(legal[seed as usize % legal.len()])
    }
}

proptest! {
    #![proptest_config(crate::proptest_config(96))]

    #[test]
    fn random_games_keep_every_invariant(
        white in any::<u16>(),
        black in any::<u16>(),
        black_first in any::<bool>(),
        seeds in prop::collection::vec(any::<u32>(), 0..120),
    ) {
        let mut p = Nuke::start(&GameOptions::default()).unwrap();
        let w = own_squares(&p, Color::White);
        let b = own_squares(&p, Color::Black);
        let w = w[white as usize % w.len()];
        let b = b[black as usize % b.len()];
        let order = if black_first {
            [(Color::Black, b), (Color::White, w)]
        } else {
            [(Color::White, w), (Color::Black, b)]
        };
        // NU-3: the first choice is invisible to the other side and to spectators.
        p.designate(order[0].0, &[order[0].1]).unwrap();
        let other = order[1].0;
        for viewer in [Viewer::player(other), Viewer::Spectator] {
            let v = p.view(viewer);
            prop_assert!(v.board_view().pieces.iter().all(|pc| !pc.carrier));
            prop_assert!(!v.to_fen().contains(&order[0].1.to_string()));
            prop_assert_eq!(v.bomb_count(), 2);
        }
        prop_assert!(p.view(Viewer::player(order[0].0)).board_view().piece_at(order[0].1).unwrap().carrier);
        prop_assert!(p.legal_actions().is_empty());
        p.designate(order[1].0, &[order[1].1]).unwrap();
        prop_assert!(p.is_playing());
        for seed in seeds {
            check_position(&p)?;
            let Some(action) = pick(&p, seed) else { break };
            let pieces_before = p.board_view().pieces.len();
            let mut quiet = p.clone();
            quiet.play_unchecked(&action);
            let removed = p.play_reported(&action);
            prop_assert_eq!(&quiet, &p);
            prop_assert_eq!(pieces_before - removed.len(), p.board_view().pieces.len());
        }
        check_position(&p)?;
    }
}

proptest! {
    /// Any text gets an answer, never a panic; well-formed-looking text included.
    #[test]
    fn parsing_any_text_never_panics(
        text in prop_oneof![
            "[a-h1-8>NBRQKOx=*+#!? ,-]{0,14}",
            any::<String>(),
        ],
        designated in any::<bool>(),
    ) {
        let p = if designated {
            Nuke::from_fen("r3k2r/pPpp1ppp/1n3n2/3Pp3/1b2P3/2N2N2/P1PP1PPP/R3K2R w KQkq e6 0 1 d5,e5").unwrap()
        } else {
            Nuke::new()
        };
        if let Ok(action) = p.parse_action(&text) {
            prop_assert!(p.legal_actions().contains(&action));
        }
        let _ = Nuke::from_fen(&text);
        let _ = Nuke::from_fen(&format!("4k3/8/8/8/8/8/8/4K3 w - - 0 1 {text}"));
    }
}
