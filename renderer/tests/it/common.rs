//! Test helpers: build `BoardView` values directly from a compact piece list, so every
//! kind and flag can be drawn before (or without) the variant that produces it.
#![allow(dead_code)]

use kaboom_rules::{
    BoardView, Color, EndReason, Kind, LooseBombs, Outcome, PieceView, Square, Status, Variant,
};

/// The kind for a short code: K Q R B N P (chess), D defuser, O bomb, KB king battler,
/// T tweke, ST super-tweke, A tank, X detonator, I immobilizer, M imitator.
pub fn kind(code: &str) -> Kind {
    match code {
        "K" => Kind::King,
        "Q" => Kind::Queen,
        "R" => Kind::Rook,
        "B" => Kind::Bishop,
        "N" => Kind::Knight,
        "P" => Kind::Pawn,
        "D" => Kind::Defuser,
        "O" => Kind::Bomb,
        "KB" => Kind::KingBattler,
        "T" => Kind::Tweke,
        "ST" => Kind::SuperTweke,
        "A" => Kind::Tank,
        "X" => Kind::Detonator,
        "I" => Kind::Immobilizer,
        "M" => Kind::Imitator,
        other => panic!("unknown kind code {other}"),
    }
}

pub fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

pub fn squares(names: &str) -> Vec<Square> {
    names.split_whitespace().map(sq).collect()
}

/// A board from tokens `<w|b><code>@<square>[+carrier][+frozen][+locked][=<code>]`,
/// e.g. `wK@e1 bP@e5+carrier wM@a1=T`.
pub fn board(variant: Variant, spec: &str) -> BoardView {
    let mut pieces = Vec::new();
    for token in spec.split_whitespace() {
        let (head, rest) = token.split_once('@').expect("token needs @");
        let color = match &head[..1] {
            "w" => Color::White,
            "b" => Color::Black,
            _ => panic!("token {token} needs w or b"),
        };
        let kind = kind(&head[1..]);
        let mut parts = rest.split('+');
        let square_part = parts.next().unwrap();
        let (square_name, imitating) = match square_part.split_once('=') {
            Some((s, k)) => (s, Some(self::kind(k))),
            None => (square_part, None),
        };
        let mut p = PieceView {
            square: sq(square_name),
            color,
            kind,
            carrier: false,
            frozen: false,
            imitating,
            locked: false,
        };
        for flag in parts {
            let (flag, imit) = match flag.split_once('=') {
                Some((f, k)) => (f, Some(self::kind(k))),
                None => (flag, None),
            };
            if imit.is_some() {
                p.imitating = imit;
            }
            match flag {
                "carrier" => p.carrier = true,
                "frozen" => p.frozen = true,
                "locked" => p.locked = true,
                _ => panic!("unknown flag {flag}"),
            }
        }
        pieces.push(p);
    }
    pieces.sort_by_key(|p| p.square);
    BoardView {
        variant,
        pieces,
        loose_bombs: Vec::new(),
        turn: Color::White,
        fullmoves: 1,
        checked: Vec::new(),
        status: Status::Ongoing,
        awaiting_designation: Vec::new(),
    }
}

/// The pieces of a FEN board field (standard letters; for Bomberman `O` bomb, `D`
/// defuser, `Q` king battler) as a spec for [`board`].
pub fn fen_spec(variant: Variant, placement: &str) -> String {
    let mut out = Vec::new();
    for (i, row) in placement.split('/').enumerate() {
        let rank = 8 - i as u8;
        let mut file = 0u8;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as u8;
                continue;
            }
            let color = if c.is_ascii_uppercase() { 'w' } else { 'b' };
            let mut code = c.to_ascii_uppercase().to_string();
            if variant == Variant::Bomberman && code == "Q" {
                code = "KB".into();
            }
            let square = Square::new(file, rank).unwrap();
            out.push(format!("{color}{code}@{square}"));
            file += 1;
        }
    }
    out.join(" ")
}

pub fn with_turn(mut b: BoardView, turn: Color, fullmoves: u32) -> BoardView {
    b.turn = turn;
    b.fullmoves = fullmoves;
    b
}

pub fn finished(mut b: BoardView, winner: Option<Color>, reason: EndReason) -> BoardView {
    b.status = Status::Finished(Outcome { winner, reason });
    b
}

pub fn loose(mut b: BoardView, list: &[(&str, u8)]) -> BoardView {
    b.loose_bombs = list
        .iter()
        .map(|&(s, count)| LooseBombs {
            square: sq(s),
            count,
        })
        .collect();
    b
}

pub fn checked(mut b: BoardView, names: &str) -> BoardView {
    b.checked = squares(names);
    b
}

/// RGBA pixels of a PNG (expanded from its palette).
pub fn rgba(png_bytes: &[u8]) -> (usize, usize, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::ALPHA);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width as usize, info.height as usize, buf)
}

/// Luminance (0..=255) of each pixel of `png_bytes` scaled to `width` pixels wide by
/// area averaging: what a phone shows of the 640 px image at Discord's preview width.
pub fn downscaled_luma(png_bytes: &[u8], width: usize) -> (usize, usize, Vec<f32>) {
    let (w, h, px) = rgba(png_bytes);
    let scale = w as f32 / width as f32;
    let height = (h as f32 / scale).round() as usize;
    let mut out = vec![0.0f32; width * height];
    for (i, v) in out.iter_mut().enumerate() {
        let (x, y) = (i % width, i / width);
        let (x0, x1) = (
            (x as f32 * scale) as usize,
            (((x + 1) as f32 * scale) as usize).min(w),
        );
        let (y0, y1) = (
            (y as f32 * scale) as usize,
            (((y + 1) as f32 * scale) as usize).min(h),
        );
        let mut sum = 0.0f32;
        let mut n = 0.0f32;
        for sy in y0..y1 {
            for sx in x0..x1 {
                let p = &px[(sy * w + sx) * 4..];
                sum += 0.299 * f32::from(p[0]) + 0.587 * f32::from(p[1]) + 0.114 * f32::from(p[2]);
                n += 1.0;
            }
        }
        *v = sum / n.max(1.0);
    }
    (width, height, out)
}

/// How a mark reads at 260 px: the number of downscaled pixels it changes by more than
/// 40 levels of luminance, and the luminance range (max - min) inside those pixels.
pub fn mark_at_260(with: &[u8], without: &[u8]) -> (usize, f32) {
    let (_, _, a) = downscaled_luma(with, 260);
    let (_, _, b) = downscaled_luma(without, 260);
    let changed: Vec<f32> = a
        .iter()
        .zip(&b)
        .filter(|(x, y)| (**x - **y).abs() > 40.0)
        .map(|(x, _)| *x)
        .collect();
    let range = changed.iter().cloned().fold(f32::MIN, f32::max)
        - changed.iter().cloned().fold(f32::MAX, f32::min);
    (changed.len(), range.max(0.0))
}

/// Width, height and RGB pixels of a PNG (expanded from its palette).
pub fn decode(png_bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    assert_eq!(info.color_type, png::ColorType::Rgb);
    (info.width, info.height, buf)
}

/// An SVG document rasterized by resvg in one pass, without a palette: width, height and
/// RGBA pixels (premultiplied; the pictures are opaque).
pub fn rasterize(svg: &str) -> (u32, u32, Vec<u8>) {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).unwrap();
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    (size.width(), size.height(), pixmap.data().to_vec())
}
