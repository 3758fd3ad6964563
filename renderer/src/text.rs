//! Text as SVG paths, from the Noto Sans Bold font shipped in the `notosans` crate
//! (SIL Open Font License 1.1). Glyph outlines are turned into path data here, so
//! neither the SVG nor its rasterization depends on the fonts of the machine: the
//! same text gives the same bytes everywhere. No shaping and no kerning: the
//! board's labels are short ASCII strings for which plain advances look right.
//! Tables ([`crate::table`]) also use Noto Sans Regular ([`Weight`]) and characters
//! beyond the cached set (accented names, Cyrillic, Greek): their outlines are read
//! from the font on demand. A character the font lacks (emoji, CJK) is drawn as `?`.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::sync::OnceLock;

/// Which face of Noto Sans draws a text run.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub(crate) enum Weight {
    /// Noto Sans Regular (table cells).
    Regular,
    /// Noto Sans Bold (board labels, headers, emphasis).
    Bold,
}

/// Where a text run is anchored horizontally.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub(crate) enum Anchor {
    Start,
    Middle,
    End,
}

/// One glyph with its outline in font units (y up) and its advance.
#[derive(Clone)]
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
    /// The parsed face, for glyphs outside the cached set (`None` only if the
    /// embedded font failed to parse).
    face: Option<ttf_parser::Face<'static>>,
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
    font_of(Weight::Bold)
}

fn font_of(weight: Weight) -> &'static Font {
    static BOLD: OnceLock<Font> = OnceLock::new();
    static REGULAR: OnceLock<Font> = OnceLock::new();
    match weight {
        Weight::Bold => BOLD.get_or_init(|| load(notosans::BOLD_TTF)),
        Weight::Regular => REGULAR.get_or_init(|| load(notosans::REGULAR_TTF)),
    }
}

/// The outline and advance of `ch` in `face`; `None` when the font has no glyph for it.
fn outline(face: &ttf_parser::Face<'_>, ch: char, space_advance: f32) -> Option<Glyph> {
    let id = face.glyph_index(ch)?;
    let mut c = Collect(Vec::new());
    face.outline_glyph(id, &mut c);
    Some(Glyph {
        commands: c.0,
        advance: face.glyph_hor_advance(id).map_or(space_advance, f32::from),
    })
}

fn load(bytes: &'static [u8]) -> Font {
    // The font is a constant shipped with the notosans crate; parsing it cannot
    // fail for any input of ours, but stay panic-free: an unparsable font gives
    // empty glyphs (invisible text) rather than a crash.
    let face = ttf_parser::Face::parse(bytes, 0).ok();
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
            outline(face, ch, space_advance).unwrap_or(Glyph {
                commands: Vec::new(),
                advance: space_advance,
            })
        })
        .collect();
    Font {
        face,
        units_per_em,
        ascii,
        cap_height,
    }
}

/// Characters beyond ASCII that the header and tables use (cached like ASCII).
const EXTRA: [char; 5] = ['\u{b7}', '\u{2013}', '\u{bd}', '\u{d7}', '\u{2026}'];

/// The glyph for `c` in `f`: cached for ASCII and [`EXTRA`], read from the face for
/// any other character the font has, `?` for a character it lacks.
fn glyph_in(f: &'static Font, c: char) -> Cow<'static, Glyph> {
    let question = '?' as usize - 32;
    let i = if (' '..='~').contains(&c) {
        c as usize - 32
    } else if let Some(j) = EXTRA.iter().position(|&e| e == c) {
        95 + j
    } else {
        let space = f.ascii[0].advance;
        return match f.face.as_ref().and_then(|face| outline(face, c, space)) {
            // Only characters with ink or an advance: a control character maps to an
            // empty zero-width glyph in some fonts.
            Some(g) if g.advance > 0.0 => Cow::Owned(g),
            _ => Cow::Borrowed(&f.ascii[question]),
        };
    };
    Cow::Borrowed(&f.ascii[i])
}

/// Width of `text` at font size `size` (em height in user units), in Noto Sans Bold.
pub(crate) fn width(text: &str, size: f32) -> f32 {
    width_in(text, size, Weight::Bold)
}

/// Width of `text` at font size `size` (em height in user units) in `weight`.
pub(crate) fn width_in(text: &str, size: f32, weight: Weight) -> f32 {
    let f = font_of(weight);
    text.chars().map(|c| glyph_in(f, c).advance).sum::<f32>() * size / f.units_per_em
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

/// Path data for `text` in Noto Sans Bold with its baseline at `y` and anchored at
/// `x`, at font size `size` user units. Empty when the text has no visible glyph.
pub(crate) fn path_data(text: &str, x: f32, y: f32, size: f32, anchor: Anchor) -> String {
    path_data_in(text, x, y, size, anchor, Weight::Bold)
}

/// [`path_data`] in the given weight.
pub(crate) fn path_data_in(
    text: &str,
    x: f32,
    y: f32,
    size: f32,
    anchor: Anchor,
    weight: Weight,
) -> String {
    let f = font_of(weight);
    let scale = size / f.units_per_em;
    let w = width_in(text, size, weight);
    let mut pen = match anchor {
        Anchor::Start => x,
        Anchor::Middle => x - w / 2.0,
        Anchor::End => x - w,
    };
    let mut d = String::new();
    for c in text.chars() {
        let g = glyph_in(f, c);
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

    /// Both weights have every character the tables use; characters beyond the cached
    /// set come from the font; one the font lacks is drawn as `?`.
    #[test]
    fn both_weights_draw_table_characters() {
        for weight in [Weight::Regular, Weight::Bold] {
            let question = path_data_in("?", 0.0, 0.0, 40.0, Anchor::Start, weight);
            for c in "\u{bd}\u{2026}\u{e9}\u{df}\u{416}\u{3a9}\u{2212}+-*0123456789".chars() {
                let d = path_data_in(&c.to_string(), 0.0, 0.0, 40.0, Anchor::Start, weight);
                assert!(d.starts_with('M'), "no outline for {c:?} in {weight:?}");
                assert_ne!(d, question, "{c:?} drawn as ? in {weight:?}");
            }
            // A character Noto Sans lacks (an emoji) and a control character: `?`.
            for c in ['\u{1f600}', '\u{7}'] {
                let d = path_data_in(&c.to_string(), 0.0, 0.0, 40.0, Anchor::Start, weight);
                assert_eq!(d, question, "{c:?} in {weight:?}");
            }
        }
        assert!(width_in("1", 40.0, Weight::Regular) > 5.0);
        assert_ne!(
            path_data_in("a", 0.0, 0.0, 40.0, Anchor::Start, Weight::Regular),
            path_data("a", 0.0, 0.0, 40.0, Anchor::Start)
        );
    }

    #[test]
    fn anchors_shift_the_run() {
        let start = path_data("a", 100.0, 0.0, 40.0, Anchor::Start);
        let end = path_data("a", 100.0 + width("a", 40.0), 0.0, 40.0, Anchor::End);
        assert_eq!(start, end);
    }
}
