//! Text as SVG paths, from the Noto Sans Bold font shipped in the `notosans` crate
//! (SIL Open Font License 1.1). Glyph outlines are turned into path data here, so
//! neither the SVG nor its rasterization depends on the fonts of the machine: the
//! same text gives the same bytes everywhere. No shaping and no kerning: the
//! board's labels are short ASCII strings for which plain advances look right.

use std::fmt::Write as _;
use std::sync::OnceLock;

/// Where a text run is anchored horizontally.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub(crate) enum Anchor {
    Start,
    Middle,
    End,
}

/// One glyph with its outline in font units (y up) and its advance.
struct Glyph {
    /// Outline commands in font units, y pointing up.
    commands: Vec<Cmd>,
    advance: f32,
}

#[derive(Copy, Clone)]
enum Cmd {
    M(f32, f32),
    L(f32, f32),
    Q(f32, f32, f32, f32),
    C(f32, f32, f32, f32, f32, f32),
    Z,
}

struct Font {
    units_per_em: f32,
    /// Glyphs for ASCII 32..=126; index `c - 32`, then [`EXTRA`]. Missing glyphs are
    /// empty with the advance of the space.
    ascii: Vec<Glyph>,
    /// The height of a capital letter in font units.
    cap_height: f32,
}

struct Collect(Vec<Cmd>);

impl ttf_parser::OutlineBuilder for Collect {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.push(Cmd::M(x, y));
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.0.push(Cmd::L(x, y));
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.0.push(Cmd::Q(x1, y1, x, y));
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.0.push(Cmd::C(x1, y1, x2, y2, x, y));
    }
    fn close(&mut self) {
        self.0.push(Cmd::Z);
    }
}

fn font() -> &'static Font {
    static FONT: OnceLock<Font> = OnceLock::new();
    FONT.get_or_init(|| {
        // The font is a constant shipped with the notosans crate; parsing it cannot
        // fail for any input of ours, but stay panic-free: an unparsable font gives
        // empty glyphs (invisible text) rather than a crash.
        let face = ttf_parser::Face::parse(notosans::BOLD_TTF, 0).ok();
        let units_per_em = face
            .as_ref()
            .map_or(1000.0, |f| f32::from(f.units_per_em()));
        let cap_height = face
            .as_ref()
            .and_then(|f| f.capital_height())
            .map_or(units_per_em * 0.714, f32::from);
        let space_advance = face
            .as_ref()
            .and_then(|f| f.glyph_index(' ').and_then(|g| f.glyph_hor_advance(g)))
            .map_or(units_per_em * 0.26, f32::from);
        let ascii = (32u8..=126)
            .map(char::from)
            .chain(EXTRA)
            .map(|ch| {
                let Some(face) = face.as_ref() else {
                    return Glyph {
                        commands: Vec::new(),
                        advance: space_advance,
                    };
                };
                match face.glyph_index(ch) {
                    Some(id) => {
                        let mut c = Collect(Vec::new());
                        face.outline_glyph(id, &mut c);
                        Glyph {
                            commands: c.0,
                            advance: face.glyph_hor_advance(id).map_or(space_advance, f32::from),
                        }
                    }
                    None => Glyph {
                        commands: Vec::new(),
                        advance: space_advance,
                    },
                }
            })
            .collect();
        Font {
            units_per_em,
            ascii,
            cap_height,
        }
    })
}

/// Characters beyond ASCII that the header uses.
const EXTRA: [char; 4] = ['\u{b7}', '\u{2013}', '\u{bd}', '\u{d7}'];

fn glyph(c: char) -> &'static Glyph {
    let f = font();
    let i = if (' '..='~').contains(&c) {
        c as usize - 32
    } else if let Some(j) = EXTRA.iter().position(|&e| e == c) {
        95 + j
    } else {
        '?' as usize - 32
    };
    &f.ascii[i]
}

/// Width of `text` at font size `size` (em height in user units).
pub(crate) fn width(text: &str, size: f32) -> f32 {
    let f = font();
    text.chars().map(|c| glyph(c).advance).sum::<f32>() * size / f.units_per_em
}

/// Height of a capital letter at font size `size`.
pub(crate) fn cap_height(size: f32) -> f32 {
    let f = font();
    f.cap_height * size / f.units_per_em
}

/// Writes `v` rounded to one decimal (a tenth of a pixel), without a trailing `.0`:
/// integer formatting only, which is fast and the same everywhere.
pub(crate) fn num(out: &mut String, v: f32) {
    let tenths = (v * 10.0).round() as i64;
    if tenths < 0 {
        out.push('-');
    }
    let t = tenths.unsigned_abs();
    let _ = write!(out, "{}", t / 10);
    if !t.is_multiple_of(10) {
        out.push('.');
        out.push(char::from(b'0' + (t % 10) as u8));
    }
}

/// One path command: its letter, then each point as `x y`, all separated by spaces.
fn push_command(d: &mut String, letter: char, points: &[(f32, f32)]) {
    d.push(letter);
    for (i, &(x, y)) in points.iter().enumerate() {
        if i > 0 {
            d.push(' ');
        }
        num(d, x);
        d.push(' ');
        num(d, y);
    }
}

/// Path data for `text` with its baseline at `y` and anchored at `x`, at font size
/// `size` user units. Empty when the text has no visible glyph.
pub(crate) fn path_data(text: &str, x: f32, y: f32, size: f32, anchor: Anchor) -> String {
    let f = font();
    let scale = size / f.units_per_em;
    let w = width(text, size);
    let mut pen = match anchor {
        Anchor::Start => x,
        Anchor::Middle => x - w / 2.0,
        Anchor::End => x - w,
    };
    let mut d = String::new();
    for c in text.chars() {
        let g = glyph(c);
        let p = |gx: f32, gy: f32| (pen + gx * scale, y - gy * scale);
        for cmd in &g.commands {
            match *cmd {
                Cmd::M(a, b) => push_command(&mut d, 'M', &[p(a, b)]),
                Cmd::L(a, b) => push_command(&mut d, 'L', &[p(a, b)]),
                Cmd::Q(a, b, c2, d2) => push_command(&mut d, 'Q', &[p(a, b), p(c2, d2)]),
                Cmd::C(a, b, c2, d2, e, f2) => {
                    push_command(&mut d, 'C', &[p(a, b), p(c2, d2), p(e, f2)]);
                }
                Cmd::Z => d.push('Z'),
            }
        }
        pen += g.advance * scale;
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_have_outlines_and_widths() {
        for c in "abcdefghij0123456789WBmovte-/\u{b7}\u{2013}\u{bd}\u{d7}".chars() {
            let d = path_data(&c.to_string(), 0.0, 0.0, 40.0, Anchor::Start);
            assert!(d.starts_with('M'), "no outline for {c:?}");
            assert!(width(&c.to_string(), 40.0) > 5.0, "no advance for {c:?}");
        }
        assert!(path_data(" ", 0.0, 0.0, 40.0, Anchor::Start).is_empty());
        let cap = cap_height(100.0);
        assert!((60.0..80.0).contains(&cap), "cap height {cap}");
    }

    #[test]
    fn anchors_shift_the_run() {
        let start = path_data("a", 100.0, 0.0, 40.0, Anchor::Start);
        let end = path_data("a", 100.0 + width("a", 40.0), 0.0, 40.0, Anchor::End);
        assert_eq!(start, end);
    }
}
