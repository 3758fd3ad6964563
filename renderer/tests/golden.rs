//! Golden-image tests: every case is rendered to PNG and compared byte for byte with
//! the committed file in `tests/golden/`. Those files are regression data produced by
//! this crate's own code (see `tests/golden/README.md`), looked at by a person before
//! they were committed. Regenerate them on purpose with
//! `KABOOM_BLESS=1 cargo test -p kaboom-renderer --test golden`.

mod common;

use std::path::PathBuf;

use common::*;
use kaboom_renderer::{LastAction, Orientation, RenderOptions, render_png, render_svg};
use kaboom_rules::{
    ActionSquares, AnyGame, BoardView, Color, EndReason, GameOptions, Variant, Viewer,
};

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
    }
}

fn opts(orientation: Orientation) -> RenderOptions {
    RenderOptions {
        orientation,
        ..RenderOptions::default()
    }
}

const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
const BOMBERMAN_START: &str = "orndkdbnro/pppppppppp/10/10/10/10/PPPPPPPPPP/ORNBDKBNRO";
const BOMBALOT_START: &str = "wM@a1 wX@b1 wO@d1 wI@e1 wX@g1 wA@h1 wST@b2 wST@g2 wT@c2 wT@d2 wT@e2 wT@f2 wT@c3 wT@d3 wT@e3 wT@f3 \
    bM@a8 bX@b8 bO@d8 bI@e8 bX@g8 bA@h8 bST@b7 bST@g7 bT@c7 bT@d7 bT@e7 bT@f7 bT@c6 bT@d6 bT@e6 bT@f6";

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
    checked(b, "g7")
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

    // Beirut: a spectator sees no carrier; White's private view marks White's own.
    let beirut_fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R";
    let spectator = with_turn(
        board(Variant::Beirut, &fen_spec(Variant::Beirut, beirut_fen)),
        Color::White,
        4,
    );
    v.push(Case {
        name: "beirut-spectator",
        board: spectator.clone(),
        last: Some(last(Some("g8"), Some("f6"), None, "")),
        options: d(),
    });
    let mut private = spectator.clone();
    for p in &mut private.pieces {
        if p.square == sq("f3") {
            p.carrier = true;
        }
    }
    v.push(Case {
        name: "beirut-white-private",
        board: private,
        last: Some(last(Some("g8"), Some("f6"), None, "")),
        options: d(),
    });
    // A Boom on d5 took out everything around it (BE-3); Black's private view.
    let b = board(
        Variant::Beirut,
        "wK@g1 wR@f1 wP@a2 wP@b2 wP@f2 wP@g2 wP@h2 wN@c3 wQ@d1 \
         bK@g8+carrier bR@f8 bP@a7 bP@b7 bP@f7 bP@g7 bP@h7 bB@b4 bQ@d8",
    );
    v.push(Case {
        name: "beirut-boom-black-private",
        board: with_turn(b, Color::Black, 12),
        last: Some(last(None, None, Some("d5"), "c4 d4 e4 c5 d5 e6")),
        options: opts(Orientation::Black),
    });

    // Nuke: public carriers, a frozen carrying queen (NU-5), loose bombs with counts (NU-9).
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

    // Bomberman Chess.
    v.push(Case {
        name: "bomberman-start",
        board: board(
            Variant::Bomberman,
            &fen_spec(Variant::Bomberman, BOMBERMAN_START),
        ),
        last: None,
        options: d(),
    });
    // Oxc3: the bomb on c3 detonated; its wave removed pieces along lines (BM-5).
    let b = board(
        Variant::Bomberman,
        "wK@f1 wR@i1 wO@j1 wN@h1 wB@g1 wD@e2 wP@a2 wP@b2 wP@f2 wP@g2 wP@h2 wP@i2 wP@j2 wKB@e5 \
         bK@f8 bR@b8 bR@i8 bO@a8 bO@j8 bN@c8 bB@g8 bD@e7 bP@a7 bP@b7 bP@f7 bP@g7 bP@h7 bP@i7 bP@j7 bN@e4",
    );
    v.push(Case {
        name: "bomberman-detonation",
        board: with_turn(b, Color::White, 15),
        last: Some(last(None, None, Some("c3"), "c3 c2 c1 d3 d4 b3")),
        options: d(),
    });
    let b = board(
        Variant::Bomberman,
        "wK@f1 wKB@d8 wO@j1 wP@a2 bK@f8 bO@a8 bD@c7 bP@j7",
    );
    v.push(Case {
        name: "bomberman-finished",
        board: finished(
            checked(with_turn(b, Color::Black, 41), "f8"),
            Some(Color::White),
            EndReason::Checkmate,
        ),
        last: Some(last(Some("d3"), Some("d8"), None, "")),
        options: d(),
    });

    // Bombalot.
    v.push(Case {
        name: "bombalot-start",
        board: board(Variant::Bombalot, BOMBALOT_START),
        last: None,
        options: d(),
    });
    // Frozen pieces next to the enemy immobilizer, an imitator acting as a tweke,
    // a white tweke locked in Black's goal d0... (White scores in d9/e9, BA-2).
    let b = board(
        Variant::Bombalot,
        "wM@a1=T wX@b1 wI@e4 wA@h1 wST@b2 wT@c2 wT@f2 wT@d3 wT@e9+locked \
         bM@a8=I bX@b8 bO@d8 bI@e6 bX@g8 bA@h8 bST@g7 bT@c7 bT@f7+frozen bT@d5+frozen bT@e5+frozen bT@c6",
    );
    v.push(Case {
        name: "bombalot-frozen-goal",
        board: with_turn(b, Color::Black, 14),
        last: Some(last(Some("c5"), Some("e9"), None, "d6 d8")),
        options: d(),
    });
    let b = board(
        Variant::Bombalot,
        "wM@a1=ST wX@b1 wA@h1 wT@c2 wT@d9+locked wST@e9+locked bM@a8=T bX@g8 bT@c7 bT@e0+locked",
    );
    v.push(Case {
        name: "bombalot-finished-black-view",
        board: finished(
            with_turn(b, Color::Black, 30),
            Some(Color::White),
            EndReason::Goal,
        ),
        last: Some(last(Some("f7"), Some("d9"), None, "e8")),
        options: opts(Orientation::Black),
    });
    v
}

/// The board and last ply after `movetext` in a real game of `variant`, as `viewer` sees it.
fn played(variant: Variant, movetext: &str, viewer: Viewer) -> (BoardView, Option<LastAction>) {
    let mut game = AnyGame::new(variant, GameOptions::default()).unwrap();
    for token in kaboom_rules::notation::movetext_actions(movetext).unwrap() {
        game.play(None, &token).unwrap();
    }
    let last = game.plies().last().map(LastAction::from_ply);
    (game.board_view(viewer), last)
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

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
