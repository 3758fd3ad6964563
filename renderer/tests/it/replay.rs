//! Replay GIFs: frame count, size, validity, and the first and last frames
//! against the board images, decoded with the `gif` crate.

use kaboom_renderer::{
    LastAction, Orientation, RenderOptions, ReplayFrame, ReplayOptions, SUBFRAME_DELAY_CS,
    render_png, render_replay_gif, replay_plan,
};
use kaboom_rules::{AnyGame, GameOptions, Variant, Viewer};

/// The seed's sample game of Bomberman Chess (BM-10).
const BOMBERMAN_GAME: &str = include_str!("../../../rules/tests/data/bomberman-game1.txt");

/// A game of `variant` of `plies` plies (fewer if it ends), each action picked from the
/// legal ones by a fixed xorshift sequence from `seed`: deterministic.
pub fn random_game(variant: Variant, plies: usize, seed: u64) -> AnyGame {
    let mut game = AnyGame::new(variant, GameOptions::default()).unwrap();
    let mut x = seed.max(1);
    while game.ply_count() < plies {
        let actions = game.legal_actions(Viewer::Full);
        if actions.is_empty() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let pick = &actions[(x % actions.len() as u64) as usize];
        game.play(None, &pick.san).unwrap();
    }
    game
}

/// Every frame of a GIF composited (disposal "keep"), as RGBA buffers, with the delays;
/// a frame's bands ([`SUBFRAME_DELAY_CS`]) are joined into one frame.
fn decode(gif_bytes: &[u8]) -> (u32, u32, Vec<(Vec<u8>, u16)>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(gif_bytes).expect("a GIF header");
    let (w, h) = (u32::from(decoder.width()), u32::from(decoder.height()));
    let mut canvas = vec![0u8; (w * h * 4) as usize];
    let mut frames = Vec::new();
    let mut pending_delay = 0u16;
    while let Some(frame) = decoder.read_next_frame().expect("a valid frame") {
        assert_eq!(frame.dispose, gif::DisposalMethod::Keep);
        let (fx, fy) = (usize::from(frame.left), usize::from(frame.top));
        let fw = usize::from(frame.width);
        for (i, px) in frame.buffer.chunks_exact(4).enumerate() {
            if px[3] == 0 {
                continue;
            }
            let (x, y) = (fx + i % fw, fy + i / fw);
            let o = (y * w as usize + x) * 4;
            canvas[o..o + 4].copy_from_slice(px);
        }
        // The leading bands of a frame (SUBFRAME_DELAY_CS) belong to the next part;
        // the frame's delay is the sum of its parts'.
        pending_delay += frame.delay;
        if frame.delay != SUBFRAME_DELAY_CS {
            frames.push((canvas.clone(), pending_delay));
            pending_delay = 0;
        }
    }
    (w, h, frames)
}

/// RGBA pixels of a PNG.
fn png_rgba(png_bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::ALPHA);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// Asserts that two RGBA pictures are the same picture: both images are palette
/// quantizations of the same rendering (128 colours for the PNG, the replay's fixed
/// 255), so they may differ only slightly at anti-aliased edges.
fn assert_same_picture(gif_rgba: &[u8], png_rgba: &[u8], what: &str) {
    assert_eq!(gif_rgba.len(), png_rgba.len(), "{what}: size");
    let mut far = 0usize;
    let mut total = 0u64;
    for (a, b) in gif_rgba.chunks_exact(4).zip(png_rgba.chunks_exact(4)) {
        let d = (0..3).map(|i| a[i].abs_diff(b[i]) as u64).max().unwrap();
        total += d;
        if d > 40 {
            far += 1;
        }
    }
    let n = (gif_rgba.len() / 4) as u64;
    assert!(total / n < 2, "{what}: mean difference {}", total / n);
    assert!(
        (far as u64) * 1000 < n,
        "{what}: {far} of {n} pixels differ by more than 40"
    );
}

/// The first frame is the start position's board image and the last the final board
/// image (the one the bot posts with the result); frame count and delays follow the plan.
#[test]
fn bomberman_replay_frames_match_the_board_images() {
    let mut game = AnyGame::new(Variant::Bomberman, GameOptions::default()).unwrap();
    for token in kaboom_rules::notation::movetext_actions(BOMBERMAN_GAME).unwrap() {
        game.play(None, &token).unwrap();
    }
    let options = ReplayOptions::default();
    let gif_bytes = render_replay_gif(&game, &options).unwrap();
    assert_eq!(&gif_bytes[..6], b"GIF89a");
    let plan = replay_plan(&game);
    let blasts = plan
        .iter()
        .filter(|f| matches!(f, ReplayFrame::Blast { .. }))
        .count();
    assert!(blasts > 0, "the seed game has explosions");
    assert_eq!(plan.len(), 1 + game.ply_count() + blasts);
    let (w, h, frames) = decode(&gif_bytes);
    assert_eq!(frames.len(), plan.len());
    assert_eq!(frames[0].1, options.start_delay_cs);
    assert_eq!(frames.last().unwrap().1, options.final_delay_cs);

    let render = RenderOptions {
        size: options.size,
        ..RenderOptions::default()
    };
    let start = game.board_view_after(0, Viewer::Spectator).unwrap();
    let (pw, ph, first) = png_rgba(&render_png(&start, None, &render).unwrap());
    assert_eq!((pw, ph), (w, h));
    assert_same_picture(&frames[0].0, &first, "first frame");
    let last = game.plies().last().map(LastAction::from_ply);
    let (_, _, final_png) =
        png_rgba(&render_png(&game.board_view(Viewer::Spectator), last.as_ref(), &render).unwrap());
    assert_same_picture(&frames.last().unwrap().0, &final_png, "last frame");
    // A middle frame is not the final picture (the frames do change).
    assert_ne!(frames[frames.len() / 2].0, frames.last().unwrap().0);
}

/// The replay GIF's size target (docs/PERFORMANCE.md, "Replay GIF"): a 150-ply Bomberman
/// Chess game at 480 px is under 4 MB, far within Discord's 10 MiB upload limit.
#[test]
fn a_150_ply_bomberman_replay_is_under_4_mb() {
    let mut seed = 1;
    let game = loop {
        let g = random_game(Variant::Bomberman, 150, seed);
        if g.ply_count() == 150 {
            break g;
        }
        seed += 1;
    };
    let gif_bytes = render_replay_gif(&game, &ReplayOptions::default()).unwrap();
    assert!(gif_bytes.len() < 4_000_000, "{} bytes", gif_bytes.len());
    let (w, _, frames) = decode(&gif_bytes);
    assert_eq!(w, 480);
    assert_eq!(frames.len(), replay_plan(&game).len());
    assert!(frames.len() > 150);
}

/// The orientation and viewer apply to every frame: Black at the bottom differs from
/// White's, and a Beirut spectator replay never shows a carrier (BE-2) while the full
/// view of the same game does.
#[test]
fn replay_follows_orientation_and_viewer() {
    let mut game = AnyGame::new(Variant::Beirut, GameOptions::default()).unwrap();
    game.designate(kaboom_rules::Color::White, &["g1".parse().unwrap()])
        .unwrap();
    game.designate(kaboom_rules::Color::Black, &["b8".parse().unwrap()])
        .unwrap();
    for t in ["e4", "e5", "Nf3"] {
        game.play(None, t).unwrap();
    }
    let spectator = ReplayOptions {
        size: 200,
        ..ReplayOptions::default()
    };
    let a = render_replay_gif(&game, &spectator).unwrap();
    let black = render_replay_gif(
        &game,
        &ReplayOptions {
            orientation: Orientation::Black,
            ..spectator.clone()
        },
    )
    .unwrap();
    assert_ne!(a, black);
    let full = render_replay_gif(
        &game,
        &ReplayOptions {
            viewer: Viewer::Full,
            ..spectator.clone()
        },
    )
    .unwrap();
    assert_ne!(a, full, "the full view marks the carriers");
    // Two games that differ only in hidden carriers give the same spectator replay.
    let mut other = AnyGame::new(Variant::Beirut, GameOptions::default()).unwrap();
    other
        .designate(kaboom_rules::Color::White, &["d1".parse().unwrap()])
        .unwrap();
    other
        .designate(kaboom_rules::Color::Black, &["d8".parse().unwrap()])
        .unwrap();
    for t in ["e4", "e5", "Nf3"] {
        other.play(None, t).unwrap();
    }
    assert_eq!(a, render_replay_gif(&other, &spectator).unwrap());
}

/// A game without plies is one frame, held.
#[test]
fn a_game_without_plies_is_one_held_frame() {
    let game = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
    let options = ReplayOptions {
        size: 160,
        ..ReplayOptions::default()
    };
    let (_, _, frames) = decode(&render_replay_gif(&game, &options).unwrap());
    assert_eq!(frames.len(), 1);
    assert_eq!(frames[0].1, options.final_delay_cs);
}
