//! Bad input never panics: arbitrary strings and bytes, and near-misses of valid
//! text, into the action parsers of all five variants (start and mid-game positions, and
//! positions awaiting a carrier designation), the FEN-style deserializers, stored game
//! records (JSON and replay), movetext, and the small `FromStr` parsers. Each input must
//! give a value or an error, never a panic.
//!
//! Bounded: [`CASES`] cases per property (the whole file runs in a few seconds); CI fixes
//! `PROPTEST_RNG_SEED` so that each run draws the same cases.

use std::str::FromStr;

use kaboom_rules::notation::{movetext_actions, strip_decorations};
use kaboom_rules::{AnyGame, Color, GameOptions, GameRecord, Kind, Square, Variant, Viewer};
use proptest::prelude::*;

use crate::proptest_config;

/// Cases per property.
const CASES: u32 = 192;

const VARIANTS: [Variant; 5] = [
    Variant::Atomic,
    Variant::Beirut,
    Variant::Nuke,
    Variant::Bomberman,
    Variant::Bombalot,
];

fn variant() -> impl Strategy<Value = Variant> {
    proptest::sample::select(VARIANTS.to_vec())
}

/// Text from the alphabet of the five variants' notations (pieces, squares, captures,
/// promotions, marks, Bomberman's removal lists, Nuke's transfers, Beirut's Boom), so that
/// inputs get past the first character.
fn notation_like() -> impl Strategy<Value = String> {
    prop_oneof![
        "[KQRBNPOxa-h1-8=+#@>,*!?\\- ]{0,14}",
        "(Boom|O-O|O-O-O|0-0|Ox|[a-h][1-8])(@|->|>|x)?[a-h]?[0-9]{0,3}(,[a-h][1-9])*[+#*]?",
    ]
}

/// Any text: arbitrary Unicode, bytes read leniently, or notation-like.
fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        proptest::collection::vec(any::<u8>(), 0..48)
            .prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
        notation_like(),
    ]
}

/// `text` with one edit at `at` (a fraction of its length): a character replaced, inserted
/// or removed, or the text cut there.
fn mutate(text: &str, at: f64, edit: u8, c: char) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let i = ((chars.len() as f64) * at) as usize;
    let i = i.min(chars.len());
    match edit % 4 {
        0 if i < chars.len() => chars[i] = c,
        1 => chars.insert(i, c),
        2 if i < chars.len() => {
            chars.remove(i);
        }
        _ => chars.truncate(i),
    }
    chars.into_iter().collect()
}

fn edit() -> impl Strategy<Value = (f64, u8, char)> {
    (
        0.0..1.0f64,
        any::<u8>(),
        prop_oneof![
            proptest::sample::select(
                "KQRBNPkqrbnp/12345678 -wbx@*>,?|:0123456789"
                    .chars()
                    .collect::<Vec<_>>()
            ),
            any::<char>(),
        ],
    )
}

/// A game of `variant` with up to `plies` legal actions played (picked by `picks`), any
/// designation made first from the legal candidates.
fn game_after(variant: Variant, picks: &[usize]) -> AnyGame {
    let mut game = AnyGame::new(variant, GameOptions::default()).unwrap();
    for &pick in picks {
        for color in game.awaiting_designation() {
            let candidates = game.carrier_candidates(color);
            let take = game.carrier_count().min(candidates.len());
            let _ = game.designate(color, &candidates[..take]);
        }
        let legal = game.legal_actions(Viewer::Full);
        if legal.is_empty() {
            break;
        }
        let san = legal[pick % legal.len()].san.clone();
        game.play(None, &san).unwrap();
    }
    game
}

fn player() -> impl Strategy<Value = Option<Color>> {
    prop_oneof![
        Just(None),
        Just(Some(Color::White)),
        Just(Some(Color::Black))
    ]
}

proptest! {
    #![proptest_config(proptest_config(CASES))]

    /// Actions: any text, in any variant, at the start (Beirut and Bombalot then still
    /// await a designation) and after a few random plies, for either player.
    #[test]
    fn action_parsers_never_panic(
        variant in variant(),
        picks in proptest::collection::vec(any::<usize>(), 0..6),
        text in any_text(),
        player in player(),
    ) {
        let mut fresh = AnyGame::new(variant, GameOptions::default()).unwrap();
        let _ = fresh.check(player, &text);
        let _ = fresh.play(player, &text);
        let mut game = game_after(variant, &picks);
        let _ = game.check(player, &text);
        let _ = game.play(player, &text);
    }

    /// A legal action's text with one edit is accepted or refused, never a panic.
    #[test]
    fn near_miss_actions_never_panic(
        variant in variant(),
        picks in proptest::collection::vec(any::<usize>(), 1..6),
        pick in any::<usize>(),
        (at, kind, c) in edit(),
    ) {
        let mut game = game_after(variant, &picks);
        let legal = game.legal_actions(Viewer::Full);
        prop_assume!(!legal.is_empty());
        let chosen = &legal[pick % legal.len()];
        for base in [&chosen.san, &chosen.display, &chosen.uci] {
            let text = mutate(base, at, kind, c);
            let _ = game.check(None, &text);
        }
        let text = mutate(&chosen.san, at, kind, c);
        let _ = game.play(None, &text);
    }

    /// FEN-style serializations: any text, and each variant's real serializations (start,
    /// mid-game, every viewer's) with one edit.
    #[test]
    fn fen_deserializers_never_panic(
        variant in variant(),
        picks in proptest::collection::vec(any::<usize>(), 0..6),
        text in any_text(),
        (at, kind, c) in edit(),
        viewer in proptest::sample::select(vec![Viewer::Full, Viewer::White, Viewer::Black, Viewer::Spectator]),
    ) {
        let _ = AnyGame::from_fen(variant, &text);
        let game = game_after(variant, &picks);
        for fen in [game.fen(viewer), game.start_fen(Viewer::Full)] {
            let edited = mutate(&fen, at, kind, c);
            if let Ok(mut loaded) = AnyGame::from_fen(variant, &edited) {
                // What loads can be used: listed, serialized, counted, viewed and played.
                let legal = loaded.legal_actions(Viewer::Full);
                let _ = loaded.fen(Viewer::Spectator);
                let _ = loaded.board_view(Viewer::White);
                let _ = loaded.perft(2);
                let _ = loaded.status();
                if let Some(first) = legal.first() {
                    let _ = loaded.play(None, &first.san);
                    let _ = loaded.legal_actions(Viewer::Black);
                }
            }
        }
    }

    /// Stored game records: arbitrary JSON text, and real records with a mutated start
    /// position or arbitrary actions, loaded by replay.
    #[test]
    fn game_records_never_panic(
        variant in variant(),
        picks in proptest::collection::vec(any::<usize>(), 0..6),
        json in any_text(),
        (at, kind, c) in edit(),
        extra in proptest::collection::vec(any_text(), 0..3),
        carriers in any::<u8>(),
    ) {
        let _ = serde_json::from_str::<GameRecord>(&json);
        let record = game_after(variant, &picks).record();
        let text = serde_json::to_string(&record).unwrap();
        let _ = serde_json::from_str::<GameRecord>(&mutate(&text, at, kind, c));

        let mut bad = record.clone();
        bad.start_fen = mutate(&bad.start_fen, at, kind, c);
        let _ = AnyGame::from_record(&bad);
        let mut bad = record.clone();
        bad.actions.extend(extra);
        let _ = AnyGame::from_record(&bad);
        let mut bad = record;
        bad.options.carriers = carriers;
        let _ = AnyGame::from_record(&bad);
    }

    /// Carrier designations of any squares, any count, for either side, at any time.
    #[test]
    fn designations_never_panic(
        variant in variant(),
        picks in proptest::collection::vec(any::<usize>(), 0..3),
        squares in proptest::collection::vec((0u8..8, 1u8..=8), 0..20),
        white in any::<bool>(),
    ) {
        let mut game = AnyGame::new(variant, GameOptions::default()).unwrap();
        let squares: Vec<Square> = squares
            .into_iter()
            .filter_map(|(file, rank)| Square::new(file, rank))
            .collect();
        let color = if white { Color::White } else { Color::Black };
        let _ = game.designate(color, &squares);
        let mut later = game_after(variant, &picks);
        let _ = later.designate(color, &squares);
    }

    /// Movetext, decorations and the small parsers.
    #[test]
    fn text_parsers_never_panic(text in any_text()) {
        if let Ok(tokens) = movetext_actions(&text) {
            for token in tokens {
                let _ = strip_decorations(&token);
            }
        }
        let _ = strip_decorations(&text);
        let _ = Square::from_str(&text);
        let _ = Color::from_str(&text);
        let _ = Kind::from_str(&text);
        let _ = Viewer::from_str(&text);
        let _ = Variant::from_str(&text);
        let _ = serde_json::from_str::<Square>(&text);
        let _ = serde_json::from_str::<GameOptions>(&text);
    }
}

/// Movetext near-misses: unclosed and nested comments and variations at the edges.
#[test]
fn movetext_edge_cases_are_errors_or_tokens() {
    for text in [
        "{",
        "(",
        "((e4)",
        "{ e4 ",
        "1.",
        "1...",
        ";",
        "$",
        "e4 (e5 {c) d4",
        "}",
        ")",
    ] {
        let _ = movetext_actions(text);
    }
    assert!(movetext_actions("{").is_err());
    assert!(movetext_actions("(").is_err());
}
