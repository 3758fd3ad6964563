//! Explosion previews: the board after an action with the removed pieces as
//! translucent ghosts ([`render_png_with_ghosts`]), compared byte for byte with golden
//! images (regression data our own code produced, looked at before committing; see
//! `tests/golden/README.md`). Regenerate on purpose with
//! `KABOOM_BLESS=1 cargo test -p kaboom-renderer --test it ghost`.

use std::path::PathBuf;

use crate::common::{mark_at_260, rgba, sq};
use kaboom_renderer::{
    Ghost, LastAction, Orientation, RenderOptions, render_png, render_png_with_ghosts, square_box,
};
use kaboom_rules::{AnyGame, Cause, Color, GameOptions, Kind, Piece, PlyRecord, Variant};

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

/// Atomic 3. Nxf7 (AT-2): the capturing knight explodes on f7 with the pawn it takes.
/// The preview draws f7 as the result board does: the knight's ghost on the square and
/// the taken pawn in an orange corner badge (top left), so both losses show. Outside
/// the badge's corner f7 is the knight's ghost alone (not the pawn's); the badge is
/// the explosion's orange and legible at 260 px wide.
#[test]
fn a_capture_preview_shows_the_capturer_with_the_taken_piece_as_a_badge() {
    let mut game = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
    for san in ["Nf3", "a6", "Ng5", "a5"] {
        game.play(None, san).unwrap();
    }
    let p = game.preview(Color::White, "Nxf7").unwrap();
    let record = PlyRecord {
        mover: Color::White,
        san: p.san.clone(),
        display: p.display.clone(),
        uci: p.san.clone(),
        removed: p.removed.clone(),
        squares: p.squares,
    };
    let last = LastAction::from_ply(&record);
    let options = RenderOptions::default();
    let f7 = sq("f7");
    let knight = Piece::new(Color::White, Kind::Knight);
    let pawn = Piece::new(Color::Black, Kind::Pawn);
    let ghosts = Ghost::from_removals(&p.removed);
    let on_f7: Vec<&Ghost> = ghosts.iter().filter(|g| g.square == f7).collect();
    assert_eq!(
        on_f7,
        [&Ghost {
            square: f7,
            piece: knight,
            taken: Some(pawn),
            cause: Cause::Exploded,
        }],
        "one ghost on f7: the capturer, with its catch"
    );
    // The same preview with f7's ghost replaced by one piece alone, no badge.
    let alone = |piece: Piece| {
        let ghosts: Vec<Ghost> = ghosts
            .iter()
            .map(|g| {
                if g.square == f7 {
                    Ghost {
                        piece,
                        taken: None,
                        ..*g
                    }
                } else {
                    *g
                }
            })
            .collect();
        render_png_with_ghosts(&p.after, Some(&last), &options, &ghosts).unwrap()
    };
    let with = render_png_with_ghosts(&p.after, Some(&last), &options, &ghosts).unwrap();
    let (knight_alone, pawn_alone) = (alone(knight), alone(pawn));

    let (bx, by, side) = square_box(Variant::Atomic, &options, f7).unwrap();
    let (w, _, px) = rgba(&with);
    let (_, _, px_knight) = rgba(&knight_alone);
    let (_, _, px_pawn) = rgba(&pawn_alone);
    let side = side as usize;
    // The badge: a disc of radius 24 (+ its rim) centred 26.5 units from the top-left
    // corner, in the square's 100 units.
    let unit = side as f32 / 100.0;
    let in_badge = |x: usize, y: usize| {
        let (dx, dy) = (
            (x - bx as usize) as f32 / unit - 26.5,
            (y - by as usize) as f32 / unit - 26.5,
        );
        dx * dx + dy * dy <= 29.0 * 29.0
    };
    let differs = |a: &[u8], b: &[u8]| (0..3).any(|c| a[c].abs_diff(b[c]) > 40);
    let (mut badge_changed, mut orange, mut like_pawn, mut like_knight) = (0, 0, 0, 0);
    for y in by as usize..by as usize + side {
        for x in bx as usize..bx as usize + side {
            let i = (y * w + x) * 4;
            let (c, k, pw) = (&px[i..i + 4], &px_knight[i..i + 4], &px_pawn[i..i + 4]);
            if in_badge(x, y) {
                badge_changed += usize::from(differs(c, k));
                // The explosion's badge colour, #c2410c.
                orange += usize::from(
                    c[0].abs_diff(0xc2) < 24
                        && c[1].abs_diff(0x41) < 24
                        && c[2].abs_diff(0x0c) < 24,
                );
            } else {
                like_knight += usize::from(!differs(c, k));
                like_pawn += usize::from(!differs(c, pw));
            }
        }
    }
    let outside = side * side
        - (0..side * side)
            .filter(|i| in_badge(bx as usize + i % side, by as usize + i / side))
            .count();
    assert_eq!(
        like_knight, outside,
        "outside the badge f7 shows the capturer's ghost"
    );
    assert!(
        like_pawn + side * side / 20 < outside,
        "f7 is not the taken pawn's ghost: {like_pawn} of {outside} pixels as the pawn's"
    );
    assert!(
        badge_changed > side * side / 12 && orange > side * side / 40,
        "the badge shows: {badge_changed} pixels changed, {orange} orange"
    );
    // Every change the badge makes is in f7's top-left corner.
    let (_, _, all_with) = rgba(&with);
    for (i, (a, b)) in all_with
        .chunks_exact(4)
        .zip(px_knight.chunks_exact(4))
        .enumerate()
    {
        if differs(a, b) {
            let (x, y) = (i % w, i / w);
            assert!(
                (bx as usize..bx as usize + side).contains(&x)
                    && (by as usize..by as usize + side).contains(&y)
                    && in_badge(x, y),
                "pixel ({x}, {y}) changed outside f7's badge corner"
            );
        }
    }
    // Legible on a phone: at 260 px wide the badge still changes a clear patch.
    let (area, contrast) = mark_at_260(&with, &knight_alone);
    assert!(
        area >= 100 && contrast >= 120.0,
        "badge at 260 px: {area} px, contrast {contrast}"
    );
}
