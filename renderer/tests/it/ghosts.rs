//! Explosion previews: the board after an action with the removed pieces as
//! translucent ghosts ([`render_png_with_ghosts`]), compared byte for byte with golden
//! images (regression data our own code produced, looked at before committing; see
//! `tests/golden/README.md`). Regenerate on purpose with
//! `KABOOM_BLESS=1 cargo test -p kaboom-renderer --test it ghost`.

use std::path::PathBuf;

use kaboom_renderer::{
    Ghost, LastAction, Orientation, RenderOptions, render_png, render_png_with_ghosts,
};
use kaboom_rules::{AnyGame, Color, GameOptions, PlyRecord, Variant};

/// (name, the picture) for each preview case: the position after the action as the
/// player sees it (`AnyGame::preview`), from the player's side.
fn cases() -> Vec<(&'static str, Vec<u8>)> {
    let mut out = Vec::new();
    // Atomic: 3. Nxf7 blows up Black's king, bishop and knight with the f7 pawn.
    let mut atomic = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
    for san in ["Nf3", "a6", "Ng5", "a5"] {
        atomic.play(None, san).unwrap();
    }
    out.push((
        "ghosts-atomic-nxf7-white",
        paint(&atomic, Color::White, "Nxf7"),
    ));
    // Beirut, White's own view: White's carrier knight went g1-f3-g5xf7, and its Boom
    // takes Black's king, bishop, knight and two pawns with it.
    let options = GameOptions {
        carriers: 1,
        dead_mans_switch: false,
    };
    let mut beirut = AnyGame::new(Variant::Beirut, options).unwrap();
    beirut
        .designate(Color::White, &["g1".parse().unwrap()])
        .unwrap();
    beirut
        .designate(Color::Black, &["c8".parse().unwrap()])
        .unwrap();
    for san in ["Nf3", "a6", "Ng5", "a5", "Nxf7", "h6"] {
        beirut.play(None, san).unwrap();
    }
    out.push((
        "ghosts-beirut-boom-white-private",
        paint(&beirut, Color::White, "Boom@f7"),
    ));
    out
}

fn paint(game: &AnyGame, player: Color, text: &str) -> Vec<u8> {
    let p = game.preview(player, text).unwrap();
    assert!(!p.removed.is_empty(), "{text} removes pieces");
    let record = PlyRecord {
        mover: player,
        san: p.san.clone(),
        display: p.display.clone(),
        uci: p.san.clone(),
        removed: p.removed.clone(),
        squares: p.squares,
    };
    let last = LastAction::from_ply(&record);
    let options = RenderOptions {
        orientation: match player {
            Color::White => Orientation::White,
            Color::Black => Orientation::Black,
        },
        ..RenderOptions::default()
    };
    let ghosts = Ghost::from_removals(&p.removed);
    let png = render_png_with_ghosts(&p.after, Some(&last), &options, &ghosts).unwrap();
    assert_ne!(
        png,
        render_png(&p.after, Some(&last), &options).unwrap(),
        "the ghosts show"
    );
    png
}

/// Regression data (docs/ARCHITECTURE.md, "Test data").
#[test]
fn ghost_previews_match_their_golden_images() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("golden-actual");
    std::fs::create_dir_all(&out_dir).unwrap();
    let bless = std::env::var_os("KABOOM_BLESS").is_some();
    let mut failures = Vec::new();
    for (name, png) in cases() {
        let path = dir.join(format!("{name}.png"));
        if bless {
            std::fs::write(&path, &png).unwrap();
            continue;
        }
        if std::fs::read(&path).ok().as_deref() != Some(png.as_slice()) {
            let actual = out_dir.join(format!("{name}.png"));
            std::fs::write(&actual, &png).unwrap();
            failures.push(format!("{name}: differs (actual in {})", actual.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
