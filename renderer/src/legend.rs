//! Piece legends: each piece of a variant drawn (White's and Black's sprite) beside its
//! name, what the sprite shows and a one-line description, on a light background, for
//! the rules pages and for players who meet Bombalot's or Bomberman Chess's pieces for
//! the first time ([`render_legend_png`]).

use std::fmt::Write as _;

use kaboom_rules::{Color, Kind, Variant};

use crate::RenderError;
use crate::pieces::{piece_group, piece_id};
use crate::text::{self, Anchor, Weight};

/// One row of a legend: a piece kind, what its sprite shows and what it does.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct LegendEntry {
    /// The kind.
    pub kind: Kind,
    /// What the sprite shows, e.g. "a theatre mask".
    pub sprite: &'static str,
    /// What the piece does, in one line, for players (no ruling ids).
    pub description: &'static str,
}

/// The legend's rows for `variant`, in the order they are drawn: Bombalot's seven kinds,
/// Bomberman Chess's eight, and for Atomic, Beirut and Nuke the six chess pieces.
pub fn legend_entries(variant: Variant) -> Vec<LegendEntry> {
    let e = |kind, sprite, description| LegendEntry {
        kind,
        sprite,
        description,
    };
    match variant {
        Variant::Bombalot => vec![
            e(
                Kind::Tweke,
                "a draughts man",
                "One step, or a chain of jumps over one colour; jumped enemies go.",
            ),
            e(
                Kind::SuperTweke,
                "two stacked men with a star",
                "A tweke that may jump both colours in one move.",
            ),
            e(
                Kind::Tank,
                "a tank",
                "One step along a rank or file, pushing the whole line in front of it.",
            ),
            e(
                Kind::Detonator,
                "a plunger box with a bolt",
                "Jumps like a knight; landing on a bomb sets it off, and itself with it.",
            ),
            e(
                Kind::Immobilizer,
                "a snowflake",
                "Freezes the enemy pieces next to it; steps or jumps, never captures.",
            ),
            e(
                Kind::Bomb,
                "a bomb with a burning fuse",
                "Steps, or explodes: every piece on the 8 squares around it goes.",
            ),
            e(
                Kind::Imitator,
                "a theatre mask",
                "Moves as the kind your opponent moved last, with its powers.",
            ),
        ],
        Variant::Bomberman => vec![
            e(
                Kind::Bomb,
                "a bomb with a burning fuse",
                "Steps 1-2 squares, never captures; blasts along its rank and file.",
            ),
            e(
                Kind::Defuser,
                "a shield with a no-bomb sign",
                "1 to 3 squares in any line; the only piece that takes a bomb safely.",
            ),
            e(
                Kind::KingBattler,
                "crossed swords under a crown",
                "Moves like a chess queen; not royal; only from promotion.",
            ),
            e(
                Kind::King,
                "a king",
                "As in chess; lose it to a capture or a blast and the game is lost.",
            ),
            e(Kind::Rook, "a rook", "As in chess."),
            e(Kind::Bishop, "a bishop", "As in chess."),
            e(Kind::Knight, "a knight", "As in chess."),
            e(
                Kind::Pawn,
                "a pawn",
                "As in chess; promotes to a Knight, Bishop, Rook or King Battler.",
            ),
        ],
        Variant::Atomic | Variant::Beirut | Variant::Nuke => vec![
            e(Kind::King, "a king", "One square in any direction."),
            e(
                Kind::Queen,
                "a queen",
                "Any distance along a rank, file or diagonal.",
            ),
            e(Kind::Rook, "a rook", "Any distance along a rank or file."),
            e(Kind::Bishop, "a bishop", "Any distance along a diagonal."),
            e(Kind::Knight, "a knight", "An L-shaped jump."),
            e(
                Kind::Pawn,
                "a pawn",
                "Forward one square (two from its start), captures diagonally.",
            ),
        ],
    }
}

/// Design units of the legend at its default width of 600 px; scaled to the width.
const DESIGN_WIDTH: f32 = 600.0;
const TITLE_H: f32 = 56.0;
const ROW_H: f32 = 64.0;
const PAD: f32 = 16.0;
const SPRITE: f32 = 52.0;

/// The legend's size in pixels for a `width` (clamped to 300..=2400): the width, and a
/// title strip plus one row per [`legend_entries`] entry, all scaled with the width
/// (at 600 px: 56 px of title, 64 px per row, 16 px of margin below).
pub fn legend_size(variant: Variant, width: u32) -> (u32, u32) {
    let width = width.clamp(300, 2400);
    let k = width as f32 / DESIGN_WIDTH;
    let rows = legend_entries(variant).len() as f32;
    let height = ((TITLE_H + rows * ROW_H + PAD) * k).round() as u32;
    (width, height)
}

/// The legend of `variant`'s pieces as SVG text, [`legend_size`] pixels: a title
/// ("Bombalot pieces"), then a row per kind with White's and Black's sprite, the name
/// (bold), what the sprite shows, and a one-line description (shrunk to fit the width),
/// dark text on a light background with alternate rows shaded. Deterministic.
pub fn render_legend_svg(variant: Variant, width: u32) -> String {
    let (w, h) = legend_size(variant, width);
    let k = w as f32 / DESIGN_WIDTH;
    let entries = legend_entries(variant);
    let mut s = String::with_capacity(64 * 1024);
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{w}" height="{h}" viewBox="0 0 {w} {h}"><defs>"#
    );
    for entry in &entries {
        for color in Color::ALL {
            let _ = write!(
                s,
                r#"<g id="{}">{}</g>"#,
                piece_id(entry.kind, color),
                piece_group(entry.kind, color)
            );
        }
    }
    let _ = write!(
        s,
        r##"</defs><rect width="{w}" height="{h}" fill="#fbf8f2"/>"##
    );
    let num = |v: f32| {
        let mut out = String::new();
        text::num(&mut out, v);
        out
    };
    let title = format!("{} pieces", variant.title());
    let d = text::path_data(&title, PAD * k, 38.0 * k, 28.0 * k, Anchor::Start);
    let _ = write!(s, r##"<path d="{d}" fill="#2b2926"/>"##);
    let text_x = (PAD + 2.0 * SPRITE + 16.0) * k;
    let right = w as f32 - PAD * k;
    for (i, entry) in entries.iter().enumerate() {
        let y = (TITLE_H + i as f32 * ROW_H) * k;
        let fill = if i % 2 == 0 { "#f0e9dc" } else { "#fbf8f2" };
        let _ = write!(
            s,
            r#"<rect x="0" y="{}" width="{w}" height="{}" fill="{fill}"/>"#,
            num(y),
            num(ROW_H * k)
        );
        // The sprites sit on a mid-tone square so both colours read.
        for (j, color) in Color::ALL.into_iter().enumerate() {
            let x = (PAD + j as f32 * SPRITE) * k;
            let sy = y + (ROW_H - SPRITE) / 2.0 * k;
            let _ = write!(
                s,
                r##"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/><use xlink:href="#{}" transform="translate({} {}) scale({})"/>"##,
                num(x),
                num(sy),
                num(SPRITE * k),
                num(SPRITE * k),
                if j == 0 { "#b48762" } else { "#efd9b4" },
                piece_id(entry.kind, color),
                num(x),
                num(sy),
                num(SPRITE * k / 100.0)
            );
        }
        let name = entry.kind.title();
        let name_size = 19.0 * k;
        let d = text::path_data(name, text_x, y + 27.0 * k, name_size, Anchor::Start);
        let _ = write!(s, r##"<path d="{d}" fill="#2b2926"/>"##);
        let sprite_x = text_x + text::width(name, name_size) + 10.0 * k;
        let sprite_text = format!("({})", entry.sprite);
        let d = text::path_data_in(
            &sprite_text,
            sprite_x,
            y + 27.0 * k,
            15.0 * k,
            Anchor::Start,
            Weight::Regular,
        );
        let _ = write!(s, r##"<path d="{d}" fill="#6b645a"/>"##);
        let mut size = 15.0 * k;
        let avail = right - text_x;
        let width = text::width_in(entry.description, size, Weight::Regular);
        if width > avail && width > 0.0 {
            size *= avail / width;
        }
        let d = text::path_data_in(
            entry.description,
            text_x,
            y + 50.0 * k,
            size,
            Anchor::Start,
            Weight::Regular,
        );
        let _ = write!(s, r##"<path d="{d}" fill="#2b2926"/>"##);
    }
    s.push_str("</svg>");
    s
}

/// [`render_legend_svg`] as PNG bytes (indexed colour), [`legend_size`] pixels.
///
/// # Errors
/// [`RenderError`] only for an internal failure (the SVG did not parse, PNG encoding
/// failed) or when the pixel buffer cannot be allocated.
pub fn render_legend_png(variant: Variant, width: u32) -> Result<Vec<u8>, RenderError> {
    crate::svg_to_png(&render_legend_svg(variant, width))
}
