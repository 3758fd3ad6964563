//! Golden-image tests: every case is rendered to PNG and compared byte for byte with
//! the committed file in `tests/golden/`. Those files are regression data produced by
//! this crate's own code (see `tests/golden/README.md`), looked at by a person before
//! they were committed. Regenerate them on purpose with
//! `KABOOM_BLESS=1 cargo test -p kaboom-renderer --test it golden`.

use std::path::PathBuf;

use crate::common::*;
use kaboom_renderer::{LastAction, Orientation, RenderOptions, Theme, render_png, render_svg};
use kaboom_rules::{ActionSquares, AnyGame, BoardView, Color, GameOptions, Variant, Viewer};

struct Case {
    name: &'static str,
    board: BoardView,
    last: Option<LastAction>,
    options: RenderOptions,
}

fn last(from: Option<&str>, to: Option<&str>, det: Option<&str>, removed: &str) -> LastAction {
    LastAction {
        squares: ActionSquares {
            from: from.map(sq),
            to: to.map(sq),
            detonation: det.map(sq),
        },
        removed: squares(removed),
        ..LastAction::default()
    }
}

fn opts(orientation: Orientation) -> RenderOptions {
    RenderOptions {
        orientation,
        ..RenderOptions::default()
    }
}

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
/// The seed's first sample game of Bomberman Chess (rules/tests/data, BM-10).
const BOMBERMAN_GAME: &str = include_str!("../../../rules/tests/data/bomberman-game1.txt");
/// The start of the demo's Bombalot line (testkit/src/demo.rs), to its first jump
/// capture with two landing squares.
const BOMBALOT_LINE: &[&str] = &[
    "d1!",
    "e6-f5",
    "f3:f1:h3",
    "e8-f8",
    "g2:e2:e4:g6:e6:g6:e8:g6:e4",
    "e7-e6",
    "e4:c2:c4",
    "c7:c5",
    "c4-b3",
    "c6-b5",
    "h3-g2",
    "a8:c6",
    "b3-b4",
    "c6:a4:c4:c2:a2:c2:c4:e2:c4:c6:a8",
    "b1-c3",
    "e6-e5",
    "g2-g3",
    "d7:d5:f5",
];

/// Every kind in both colours on both square colours, and every flag (the piece sheet).
fn sheet() -> BoardView {
    let codes = [
        "P", "N", "B", "R", "Q", "K", "D", "O", "KB", "T", "ST", "A", "X", "I", "M",
    ];
    let mut spec = Vec::new();
    for (i, code) in codes.iter().enumerate() {
        let (file, rank) = if i < 10 {
            (i as u8, 1)
        } else {
            (i as u8 - 10, 3)
        };
        for (dr, color) in [(0u8, 'w'), (1, 'w')] {
            let s = kaboom_rules::Square::new(file, rank + dr).unwrap();
            spec.push(format!("{color}{code}@{s}"));
        }
        let (file, rank) = if i < 10 {
            (i as u8, 5)
        } else {
            (i as u8 - 5, 3)
        };
        for dr in [0u8, 1] {
            let s = kaboom_rules::Square::new(file, rank + dr).unwrap();
            spec.push(format!("b{code}@{s}"));
        }
    }
    spec.extend(
        [
            "wP@a7+carrier",
            "bQ@b7+carrier+frozen",
            "wT@c7+frozen",
            "wM@d7=A",
            "bM@e7=X",
            "wST@f7+locked",
            "bK@g7",
            "wKB@h7",
        ]
        .map(String::from),
    );
    let b = board(Variant::Bomberman, &spec.join(" "));
    let b = loose(b, &[("i7", 1), ("j7", 2), ("a8", 2)]);
    with_turn(checked(b, "g7"), Color::Black, 1)
}

fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    let d = RenderOptions::default;

    // Piece sheet: all fifteen kinds, both colours, both square colours, every flag.
    v.push(Case {
        name: "sheet-all-pieces",
        board: sheet(),
        last: None,
        options: d(),
    });

    // Atomic.
    v.push(Case {
        name: "atomic-start",
        board: board(Variant::Atomic, &fen_spec(Variant::Atomic, CHESS_START)),
        last: None,
        options: d(),
    });
    // Real Atomic games played through kaboom-rules.
    // 4. exd5 exploded on d5: the two pawns and the knight on c6 (AT rules).
    let (b, l) = played(
        Variant::Atomic,
        "1. e4 d5 2. Nf3 Nc6 3. Bb5 Bg4 4. exd5",
        Viewer::Spectator,
    );
    v.push(Case {
        name: "atomic-blast",
        board: b,
        last: l,
        options: opts(Orientation::Black),
    });
    // Black's view of a check, with an explosion preview of Qxf2.
    let (b, l) = played(Variant::Atomic, "1. e4 e5 2. f3 Qh4+", Viewer::Black);
    v.push(Case {
        name: "atomic-check-black-preview",
        board: b,
        last: l,
        options: RenderOptions {
            preview: squares("e1 f1 g1 f2"),
            ..opts(Orientation::Black)
        },
    });
    // A finished game: Nxf7 blew up the black king on e8.
    let (b, l) = played(
        Variant::Atomic,
        "1. Nf3 a6 2. Ne5 a5 3. Nxf7",
        Viewer::Spectator,
    );
    assert!(b.status.is_finished(), "Nxf7 should end the game");
    v.push(Case {
        name: "atomic-finished",
        board: b,
        last: l,
        options: d(),
    });

    // Beirut (real games): a spectator sees no carrier; each player's private view
    // marks their own (BE-2, section 6).
    let beirut = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6";
    let carriers = [("g1", "d8")];
    let (b, l) = played_with(Variant::Beirut, &carriers, beirut, Viewer::Spectator);
    v.push(Case {
        name: "beirut-spectator",
        board: b,
        last: l,
        options: d(),
    });
    let (b, l) = played_with(Variant::Beirut, &carriers, beirut, Viewer::White);
    v.push(Case {
        name: "beirut-white-private",
        board: b,
        last: l,
        options: d(),
    });
    // White's carrier knight went to d5 and exploded there (BE-3); Black's view.
    let (b, l) = played_with(
        Variant::Beirut,
        &[("b1", "d8")],
        "1. e4 e5 2. Nc3 Nc6 3. Nd5 Nf6 4. Boom@d5",
        Viewer::Black,
    );
    v.push(Case {
        name: "beirut-boom-black-private",
        board: b,
        last: l,
        options: opts(Orientation::Black),
    });

    // Nuke before play: both sides still choose their carriers (NU-3).
    let (b, l) = played(Variant::Nuke, "", Viewer::Spectator);
    assert!(!b.awaiting_designation.is_empty());
    v.push(Case {
        name: "nuke-choosing-carriers",
        board: b,
        last: l,
        options: d(),
    });
    // Nuke (real games): public carriers, the queen carrying a bomb frozen (NU-5).
    let (b, l) = played_with(
        Variant::Nuke,
        &[("d1", "g8")],
        "1. e4 e5 2. Nf3 Nf6",
        Viewer::Spectator,
    );
    v.push(Case {
        name: "nuke-carriers",
        board: b,
        last: l,
        options: d(),
    });
    // exd5: a carrier took a carrier; both bombs exploded on d5 (NU-6, NU-7) and lie
    // there loose, two of them (NU-9).
    let (b, l) = played_with(
        Variant::Nuke,
        &[("e2", "d7")],
        "1. e4 d5 2. exd5",
        Viewer::Spectator,
    );
    assert_eq!(b.loose_bombs.len(), 1, "two bombs on one square");
    v.push(Case {
        name: "nuke-blast-loose-bombs",
        board: b,
        last: l,
        options: opts(Orientation::Black),
    });
    // Nuke, built directly: carriers of both sides, frozen carrying queens (NU-5),
    // loose bombs with counts 1 and 2 (NU-9).
    let b = board(
        Variant::Nuke,
        "wK@g1 wR@f1 wR@a1 wP@a2 wP@b2 wP@c2 wP@f2 wP@g2 wP@h2 wN@c3+carrier wQ@d2+carrier+frozen wB@e3 \
         bK@g8 bR@f8 bR@a8 bP@a7 bP@b7 bP@c7 bP@f7 bP@g7 bP@h7 bN@c6 bQ@d8+carrier+frozen bB@f5+carrier",
    );
    let b = loose(b, &[("e5", 1), ("d4", 2)]);
    v.push(Case {
        name: "nuke-carriers-loose-bombs",
        board: with_turn(b, Color::White, 9),
        last: Some(last(Some("d6"), Some("e5"), None, "d4 e5 d5 e4")),
        options: d(),
    });

    // The other themes.
    let (b, l) = played(
        Variant::Atomic,
        "1. e4 d5 2. Nf3 Nc6 3. Bb5 Bg4 4. exd5",
        Viewer::White,
    );
    v.push(Case {
        name: "theme-green-atomic",
        board: b,
        last: l,
        options: RenderOptions {
            theme: Theme::Green,
            ..d()
        },
    });
    let (b, l) = played_plies(Variant::Bomberman, BOMBERMAN_GAME, 30, Viewer::Spectator);
    v.push(Case {
        name: "theme-blue-bomberman",
        board: b,
        last: l,
        options: RenderOptions {
            theme: Theme::Blue,
            ..d()
        },
    });

    // Bomberman Chess (real: the seed's sample game, BM-10).
    let (b, l) = played(Variant::Bomberman, "", Viewer::Spectator);
    v.push(Case {
        name: "bomberman-start",
        board: b,
        last: l,
        options: d(),
    });
    // Ply 49, Oxa1: White's bomb on a1 detonated (BM-5).
    let (b, l) = played_plies(Variant::Bomberman, BOMBERMAN_GAME, 49, Viewer::Spectator);
    v.push(Case {
        name: "bomberman-detonation",
        board: b,
        last: l,
        options: d(),
    });
    let (b, l) = played_plies(
        Variant::Bomberman,
        BOMBERMAN_GAME,
        usize::MAX,
        Viewer::Spectator,
    );
    assert!(b.status.is_finished(), "the sample game ends in mate");
    v.push(Case {
        name: "bomberman-finished",
        board: b,
        last: l,
        options: d(),
    });

    // Bombalot (real positions from kaboom-rules).
    let (b, l) = played(Variant::Bombalot, "", Viewer::Spectator);
    v.push(Case {
        name: "bombalot-start",
        board: b,
        last: l,
        options: d(),
    });
    // A locked White tweke in d9, imitators with powers (BA-10), and the jump c4:e6
    // that removed d5 (BA-4); after it the tweke on e6 stands next to Black's
    // immobilizer and Black's f4 tweke next to White's: both frozen (BA-3).
    let (b, l) = from_fen(
        Variant::Bombalot,
        "i(w)d1o2dt/1sw2w2/2w2m2/3w4/2W2w2/4M3/1SW5/I(T)D5T w --W- Ww 0 20",
        "c4:e6",
        Viewer::Spectator,
    );
    assert!(b.pieces.iter().any(|p| p.frozen), "frozen pieces expected");
    assert!(
        b.pieces.iter().any(|p| p.locked),
        "a locked goal piece expected"
    );
    v.push(Case {
        name: "bombalot-frozen-goal",
        board: b,
        last: l,
        options: d(),
    });
    // c7:e9 jumps d8 into the goal: White's second piece there wins (BA-11).
    let (b, l) = from_fen(
        Variant::Bombalot,
        "i(t)2w4/2W3d1/8/3w4/8/2W5/8/I(W)D5T w -wW- Ww 0 30",
        "c7:e9",
        Viewer::Spectator,
    );
    assert!(b.status.is_finished(), "two pieces in the goal win");
    v.push(Case {
        name: "bombalot-finished-black-view",
        board: b,
        last: l,
        options: opts(Orientation::Black),
    });
    // The marks of each cause. A jump capture with two landing squares (d7:d5:f5, from the
    // demo's Bombalot line): the jumped pieces faded under violet crosses, the path
    // drawn through the landing squares (BA-4, BA-17).
    let line = &BOMBALOT_LINE[..BOMBALOT_LINE.iter().position(|s| *s == "d7:d5:f5").unwrap() + 1];
    let (b, l) = from_game(
        AnyGame::new(Variant::Bombalot, GameOptions::default()).unwrap(),
        line,
        Viewer::Spectator,
    );
    assert!(l.as_ref().unwrap().jump_path.len() == 2);
    v.push(Case {
        name: "bombalot-jump-path",
        board: b,
        last: l,
        options: d(),
    });
    // A tank push (BA-6, BA-14): e4-f4 pushes the twekes on f4 and g4 one square on
    // and the bomb on h4 off the board, where it explodes.
    let (b, l) = from_game(
        AnyGame::from_fen(Variant::Bombalot, "t7/8/8/7w/4Twso/8/8/8 w ---- --").unwrap(),
        &["e4-f4"],
        Viewer::Spectator,
    );
    assert_eq!(l.as_ref().unwrap().pushes.len(), 3);
    v.push(Case {
        name: "bombalot-push",
        board: b,
        last: l,
        options: d(),
    });
    // A plain capture in Bomberman Chess (the seed game's first ply that only
    // captures): a blue ring and a small copy of the taken piece, no blast.
    let capture_ply = {
        let mut game = AnyGame::new(Variant::Bomberman, GameOptions::default()).unwrap();
        let tokens = kaboom_rules::notation::movetext_actions(BOMBERMAN_GAME).unwrap();
        tokens
            .iter()
            .position(|t| {
                let ply = game.play(None, t).unwrap();
                !ply.removed.is_empty()
                    && ply
                        .removed
                        .iter()
                        .all(|r| r.cause == kaboom_rules::Cause::Captured)
            })
            .unwrap()
            + 1
    };
    let (b, l) = played_plies(
        Variant::Bomberman,
        BOMBERMAN_GAME,
        capture_ply,
        Viewer::Spectator,
    );
    v.push(Case {
        name: "bomberman-capture",
        board: b,
        last: l,
        options: d(),
    });
    // Built directly: every Bombalot flag at once (frozen, locked, imitating).
    let b = board(
        Variant::Bombalot,
        "wM@a1=T wX@b1 wI@e4 wA@h1 wST@b2 wT@c2 wT@f2 wT@d3 wT@e9+locked \
         bM@a8=I bX@b8 bO@d8 bI@e6 bX@g8 bA@h8 bST@g7 bT@c7 bT@f7+frozen bT@d5+frozen bT@e5+frozen bT@c6",
    );
    v.push(Case {
        name: "bombalot-flags-built",
        board: with_turn(b, Color::Black, 14),
        last: Some(last(Some("c5"), Some("e9"), None, "d6 e8")),
        options: d(),
    });
    v
}

/// The board and last ply after `movetext` in a real game of `variant`, as `viewer` sees it.
fn played(variant: Variant, movetext: &str, viewer: Viewer) -> (BoardView, Option<LastAction>) {
    played_with(variant, &[], movetext, viewer)
}

/// As [`played`], with a carrier designation `(white, black)` first (BE-2).
fn played_with(
    variant: Variant,
    carriers: &[(&str, &str)],
    movetext: &str,
    viewer: Viewer,
) -> (BoardView, Option<LastAction>) {
    let mut game = AnyGame::new(variant, GameOptions::default()).unwrap();
    for &(white, black) in carriers {
        game.designate(Color::White, &[sq(white)]).unwrap();
        game.designate(Color::Black, &[sq(black)]).unwrap();
    }
    for token in kaboom_rules::notation::movetext_actions(movetext).unwrap() {
        game.play(None, &token).unwrap();
    }
    let last = game.plies().last().map(LastAction::from_ply);
    (game.board_view(viewer), last)
}

/// The board after `movetext` from the serialization `fen` of `variant`.
fn from_fen(
    variant: Variant,
    fen: &str,
    movetext: &str,
    viewer: Viewer,
) -> (BoardView, Option<LastAction>) {
    let mut game = AnyGame::from_fen(variant, fen).unwrap();
    for token in kaboom_rules::notation::movetext_actions(movetext).unwrap() {
        game.play(None, &token).unwrap();
    }
    let last = game.plies().last().map(LastAction::from_ply);
    (game.board_view(viewer), last)
}

/// `game` after the actions `tokens`, with the last ply's highlight from the game
/// (pushes included).
fn from_game(
    mut game: AnyGame,
    tokens: &[&str],
    viewer: Viewer,
) -> (BoardView, Option<LastAction>) {
    for token in tokens {
        game.play(None, token).unwrap();
    }
    let last = LastAction::from_game(&game, game.ply_count());
    (game.board_view(viewer), last)
}

/// The first `plies` plies of `movetext` (all of them for `usize::MAX`).
fn played_plies(
    variant: Variant,
    movetext: &str,
    plies: usize,
    viewer: Viewer,
) -> (BoardView, Option<LastAction>) {
    let mut game = AnyGame::new(variant, GameOptions::default()).unwrap();
    let tokens = kaboom_rules::notation::movetext_actions(movetext).unwrap();
    for token in tokens.iter().take(plies) {
        game.play(None, token).unwrap();
    }
    let last = game.plies().last().map(LastAction::from_ply);
    (game.board_view(viewer), last)
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Regression data (docs/ARCHITECTURE.md, "Test data"): images our own code produced.
#[test]
fn golden_images_match() {
    let bless = std::env::var_os("KABOOM_BLESS").is_some();
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("golden-actual");
    std::fs::create_dir_all(&out_dir).unwrap();
    let mut failures = Vec::new();
    for case in cases() {
        let png = render_png(&case.board, case.last.as_ref(), &case.options).unwrap();
        let svg = render_svg(&case.board, case.last.as_ref(), &case.options);
        // The 40 KB budget is for game positions; the dense piece sheet is exempt.
        if png.len() > 40 * 1024 && !case.name.starts_with("sheet") {
            failures.push(format!("{}: {} bytes, over 40 KB", case.name, png.len()));
        }
        let path = golden_dir().join(format!("{}.png", case.name));
        if bless {
            std::fs::write(&path, &png).unwrap();
            if case.name == "sheet-all-pieces" {
                let assets = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/pieces.svg");
                std::fs::write(assets, &svg).unwrap();
            }
            std::fs::write(out_dir.join(format!("{}.svg", case.name)), &svg).unwrap();
            continue;
        }
        match std::fs::read(&path) {
            Ok(expected) if expected == png => {}
            Ok(_) => {
                let actual = out_dir.join(format!("{}.png", case.name));
                std::fs::write(&actual, &png).unwrap();
                failures.push(format!(
                    "{}: differs (actual in {})",
                    case.name,
                    actual.display()
                ));
            }
            Err(e) => failures.push(format!(
                "{}: cannot read {}: {e}",
                case.name,
                path.display()
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "golden images differ (regenerate on purpose with KABOOM_BLESS=1):\n{}",
        failures.join("\n")
    );
}
