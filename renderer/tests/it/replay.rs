//! Replay GIFs: frame count, size, validity, and the first and last frames
//! against the board images, decoded with the `gif` crate.

use kaboom_renderer::{
    FAST_REPLAY_TOTAL_CS, LastAction, Orientation, RenderOptions, ReplayFrame, ReplayOptions,
    ReplayPace, SUBFRAME_DELAY_CS, caption_height, render_caption_png, render_png,
    render_replay_gif, replay_captions, replay_delays, replay_plan,
};
use kaboom_rules::{AnyGame, GameOptions, Variant, Viewer};

/// The seed's sample game of Bomberman Chess (BM-10).
const BOMBERMAN_GAME: &str = include_str!("../../../rules/tests/data/bomberman-game1.txt");

/// A game of `variant` of `plies` plies (fewer if it ends), each action picked from the
/// legal ones by a fixed xorshift sequence from `seed`: deterministic.
pub fn random_game(variant: Variant, plies: usize, seed: u64) -> AnyGame {
    continue_randomly(
        AnyGame::new(variant, GameOptions::default()).unwrap(),
        plies,
        seed,
    )
}

/// `game` played on to `plies` plies (or its end) by [`random_game`]'s xorshift choice
/// from `seed`.
pub fn continue_randomly(mut game: AnyGame, plies: usize, seed: u64) -> AnyGame {
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
    // The frames are the board images with the caption strip under them.
    assert_eq!(
        (pw, ph + caption_height(Variant::Bomberman, &options)),
        (w, h)
    );
    let board_part = |frame: &[u8]| frame[..(pw * ph * 4) as usize].to_vec();
    assert_same_picture(&board_part(&frames[0].0), &first, "first frame");
    let last = game.plies().last().map(LastAction::from_ply);
    let (_, _, final_png) =
        png_rgba(&render_png(&game.board_view(Viewer::Spectator), last.as_ref(), &render).unwrap());
    assert_same_picture(
        &board_part(&frames.last().unwrap().0),
        &final_png,
        "last frame",
    );
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

/// The caption strip (the rows under the board) of a decoded frame `w` pixels wide.
fn strip(frame: &[u8], w: u32, board_h: u32) -> &[u8] {
    &frame[(w * board_h * 4) as usize..]
}

/// Every frame has a caption: the move number, the ply's text and the mover's name,
/// as [`render_caption_png`] draws it alone; consecutive plies' captions differ, a ply's
/// blast frames share its caption, and the names come from the options.
#[test]
fn every_frame_has_the_caption_of_its_ply() {
    let mut game = AnyGame::new(Variant::Atomic, GameOptions::default()).unwrap();
    for san in ["e4", "d5", "exd5", "Qxd5", "Nc3"] {
        game.play(None, san).unwrap();
    }
    let options = ReplayOptions {
        size: 320,
        white_name: Some("Alice".into()),
        black_name: Some("Bob".into()),
        ..ReplayOptions::default()
    };
    let captions = replay_captions(&game, &options);
    let plan = replay_plan(&game);
    assert_eq!(captions.len(), plan.len());
    let texts: Vec<(&str, &str)> = captions
        .iter()
        .map(|c| (c.text.as_str(), c.name.as_str()))
        .collect();
    assert_eq!(texts[0], ("Start", "Alice vs Bob"));
    assert!(texts.contains(&("1. e4", "Alice")));
    assert!(texts.contains(&("1... d5", "Bob")));
    assert!(texts.contains(&("2. exd5", "Alice")));
    assert_eq!(texts.last().unwrap(), &("3. Nc3", "Alice"));

    let (w, h, frames) = decode(&render_replay_gif(&game, &options).unwrap());
    assert_eq!(frames.len(), plan.len());
    let strip_h = caption_height(Variant::Atomic, &options);
    assert!(strip_h >= 20, "{strip_h} px");
    let board_h = h - strip_h;
    for (i, (frame, _)) in frames.iter().enumerate() {
        let (cw, ch, alone) =
            png_rgba(&render_caption_png(Variant::Atomic, &captions[i], &options).unwrap());
        assert_eq!((cw, ch), (w, strip_h));
        assert_same_picture(strip(frame, w, board_h), &alone, &format!("caption {i}"));
    }
    // Consecutive frames of different plies have different captions (clearly: many
    // pixels), and a blast frame's caption is its ply's.
    for i in 1..frames.len() {
        let (a, b) = (
            strip(&frames[i - 1].0, w, board_h),
            strip(&frames[i].0, w, board_h),
        );
        let changed = a
            .chunks_exact(4)
            .zip(b.chunks_exact(4))
            .filter(|(p, q)| (0..3).any(|c| p[c].abs_diff(q[c]) > 60))
            .count();
        let same_ply = captions[i - 1] == captions[i];
        if same_ply {
            assert_eq!(
                changed, 0,
                "frame {i}: a blast frame keeps its ply's caption"
            );
        } else {
            assert!(
                changed > 50,
                "frame {i}: caption changed by {changed} pixels"
            );
        }
    }
    // Without captions the frames are the board images' size.
    let (_, plain_h, _) = decode(
        &render_replay_gif(
            &game,
            &ReplayOptions {
                captions: false,
                ..options.clone()
            },
        )
        .unwrap(),
    );
    assert_eq!(plain_h, board_h);
}

/// A long game's fast replay lasts at most 30 s (the sum of the decoded frame delays),
/// while its normal replay takes over a minute; explosions keep a readable hold.
#[test]
fn a_long_game_in_fast_pace_fits_the_cap() {
    let mut seed = 7;
    let game = loop {
        let g = random_game(Variant::Bomberman, 150, seed);
        if g.ply_count() == 150 {
            break g;
        }
        seed += 1;
    };
    let normal = ReplayOptions {
        size: 240,
        ..ReplayOptions::default()
    };
    let fast = ReplayOptions {
        pace: ReplayPace::Fast,
        ..normal.clone()
    };
    let total = |o: &ReplayOptions| -> u32 {
        let (_, _, frames) = decode(&render_replay_gif(&game, o).unwrap());
        assert_eq!(frames.len(), replay_plan(&game).len());
        frames.iter().map(|f| u32::from(f.1)).sum()
    };
    let normal_total = total(&normal);
    assert!(normal_total > 6000, "normal: {normal_total} cs");
    let fast_total = total(&fast);
    assert!(fast_total <= FAST_REPLAY_TOTAL_CS, "fast: {fast_total} cs");
    assert_eq!(
        fast_total,
        replay_delays(&game, &fast)
            .iter()
            .map(|&d| u32::from(d))
            .sum::<u32>()
    );
    // Plies that removed pieces hold longer than quiet ones.
    let delays = replay_delays(&game, &fast);
    let plan = replay_plan(&game);
    let mut event = u16::MAX;
    let mut quiet = 0u16;
    for (f, &d) in plan.iter().zip(&delays) {
        if let ReplayFrame::Ply { ply } = *f
            && ply < game.ply_count()
        {
            if game.plies()[ply - 1].removed.is_empty() {
                quiet = quiet.max(d);
            } else {
                event = event.min(d);
            }
        }
    }
    assert!(
        event >= 30 && event > quiet,
        "event {event} cs, quiet {quiet} cs"
    );
    // A short game is not sped up.
    let short = random_game(Variant::Atomic, 10, 3);
    assert_eq!(replay_delays(&short, &fast), replay_delays(&short, &normal));
}

/// Every ply frame shows that ply's board image below the header (the frames are drawn
/// from prerendered squares with the removal marks over them): Atomic explosions,
/// Bombalot jumps and pushes, Nuke's carriers and loose bombs, Bomberman's blast waves.
#[test]
fn every_ply_frame_is_its_board_image_below_the_header() {
    for (variant, plies, seed) in [
        (Variant::Atomic, 40, 5),
        (Variant::Bombalot, 40, 3),
        (Variant::Nuke, 30, 2),
        (Variant::Bomberman, 40, 4),
    ] {
        let game = if variant == Variant::Nuke {
            // Carriers first (e1 and d8, NU-3), then random actions.
            let mut g = AnyGame::new(variant, GameOptions::default()).unwrap();
            g.designate(kaboom_rules::Color::White, &["e1".parse().unwrap()])
                .unwrap();
            g.designate(kaboom_rules::Color::Black, &["d8".parse().unwrap()])
                .unwrap();
            continue_randomly(g, plies, seed)
        } else {
            random_game(variant, plies, seed)
        };
        assert!(game.ply_count() >= 10, "{variant:?}: a game to replay");
        let options = ReplayOptions {
            size: 240,
            viewer: Viewer::Full,
            ..ReplayOptions::default()
        };
        let render = RenderOptions {
            size: options.size,
            ..RenderOptions::default()
        };
        let (w, _, frames) = decode(&render_replay_gif(&game, &options).unwrap());
        let plan = replay_plan(&game);
        assert_eq!(frames.len(), plan.len());
        // The board's top edge: the highest square (a goal square in Bombalot).
        let geo = variant.geometry();
        let top = geo
            .squares()
            .filter_map(|sq| kaboom_renderer::square_box(variant, &render, sq))
            .map(|(_, y, _)| y)
            .min()
            .unwrap();
        // Between the first and the last frame the header is one fixed strip.
        let above = |px: &[u8]| px[..(top * w * 4) as usize].to_vec();
        for (i, (rgba, _)) in frames.iter().enumerate().take(frames.len() - 1).skip(2) {
            assert!(
                above(rgba) == above(&frames[1].0),
                "{variant:?} frame {i}: the header changed"
            );
        }
        let mut checked = 0;
        for (frame, (rgba, _)) in plan.iter().zip(&frames) {
            let ReplayFrame::Ply { ply } = *frame else {
                continue;
            };
            let board = if ply == game.ply_count() {
                game.board_view(Viewer::Full)
            } else {
                game.board_view_after(ply, Viewer::Full).unwrap()
            };
            let last = LastAction::from_game(&game, ply);
            // The exact picture: the board's SVG rasterized, not quantized as the PNG is.
            let svg = kaboom_renderer::render_svg(&board, last.as_ref(), &render);
            let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).unwrap();
            let size = tree.size().to_int_size();
            let (pw, ph) = (size.width(), size.height());
            let mut pixmap = resvg::tiny_skia::Pixmap::new(pw, ph).unwrap();
            resvg::render(
                &tree,
                resvg::tiny_skia::Transform::default(),
                &mut pixmap.as_mut(),
            );
            let mut png = pixmap.data().to_vec();
            // A king in check's red gradient has more shades than the replay's fixed
            // palette keeps (so it had before the prerendered squares): those squares
            // are left out.
            let mut gif_px = rgba.clone();
            for &sq in &board.checked {
                let (x, y, side) = kaboom_renderer::square_box(variant, &render, sq).unwrap();
                for row in y..y + side {
                    let a = ((row * w + x) * 4) as usize;
                    let b = a + (side * 4) as usize;
                    png[a..b].fill(0);
                    gif_px[a..b].fill(0);
                }
            }
            let rgba = &gif_px;
            assert_eq!(pw, w);
            let rows = |px: &[u8]| px[(top * w * 4) as usize..(ph * w * 4) as usize].to_vec();
            // Up to the replay's fixed palette (its reds and oranges are few: blast
            // outlines and waves come out slightly off): a small mean difference, and
            // fewer pixels far off than a fifth of one square (a missing mark, even a
            // jump's cross, is more).
            let (a, b) = (rows(rgba), rows(&png));
            let side = kaboom_renderer::square_box(variant, &render, "a1".parse().unwrap())
                .unwrap()
                .2 as usize;
            let mut far = 0;
            let mut total = 0u64;
            for (p, q) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
                let d = (0..3).map(|i| p[i].abs_diff(q[i])).max().unwrap();
                total += u64::from(d);
                far += usize::from(d > 40);
            }
            let what = format!("{variant:?} ply {ply}");
            assert!(total < 2 * (a.len() / 4) as u64, "{what}: mean difference");
            assert!(far < side * side / 5, "{what}: {far} pixels far off");
            checked += 1;
        }
        assert_eq!(checked, game.ply_count(), "{variant:?}");
    }
}
