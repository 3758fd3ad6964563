//! Table images: league standings and round-robin crosstables as SVG and PNG.
//!
//! A [`TableImage`] is a title strip (like the board pictures' header), a header row
//! and one row per entry, drawn with the same embedded Noto Sans as the boards (cells
//! in Regular, headers, title and [`CellStyle::Emphasis`] cells in Bold): every text is
//! a glyph path, no installed font is used, and the same table gives the same bytes on
//! every machine. All sizes are in pixels.
//!
//! Layout: each column is as wide as its widest text (header or cell, measured with
//! the font's advances) plus 7 px of padding on each side (at least 28 px); rows are
//! 30 px high with alternate shading; the title strip is 48 px high (70 px when the
//! subtitle needs a line of its own). A text longer than [`MAX_CELL_CHARS`] characters
//! is cut to `MAX_CELL_CHARS - 1` characters and an ellipsis `…`. A table wider than
//! [`MAX_TABLE_WIDTH`] is scaled down uniformly to that width. [`table_size`] gives
//! the picture's size.
//!
//! Noto Sans has every glyph a table needs (`½`, `…`, `−`, Latin, Greek and Cyrillic
//! letters), so nothing is substituted; a character the font lacks (an emoji, CJK) is
//! drawn as `?`.
//!
//! ```
//! use kaboom_renderer::table::{
//!     Align, Cell, CellStyle, Column, TableImage, render_table_png, render_table_svg,
//! };
//!
//! let names = ["Alice", "Bob", "Carol", "Dave"];
//! // Results of the row player against the column player; "*": still being played.
//! let results = [
//!     ["", "1", "½", "1"],
//!     ["0", "", "*", "1"],
//!     ["½", "*", "", "0"],
//!     ["0", "0", "1", ""],
//! ];
//! let points = ["2½", "1", "½", "1"];
//! let mut columns = vec![
//!     Column { header: "#".into(), align: Align::Right },
//!     Column { header: "Player".into(), align: Align::Left },
//! ];
//! for i in 1..=4 {
//!     columns.push(Column { header: i.to_string(), align: Align::Center });
//! }
//! columns.push(Column { header: "Pts".into(), align: Align::Right });
//! let rows = (0..4)
//!     .map(|i| {
//!         let mut row = vec![Cell::new((i + 1).to_string()), Cell::from(names[i])];
//!         for (j, r) in results[i].iter().enumerate() {
//!             let style = match *r {
//!                 _ if i == j => CellStyle::Diagonal,
//!                 "1" => CellStyle::Win,
//!                 "½" => CellStyle::Draw,
//!                 "0" => CellStyle::Loss,
//!                 _ => CellStyle::Pending,
//!             };
//!             row.push(Cell::styled(*r, style));
//!         }
//!         row.push(Cell::styled(points[i], CellStyle::Emphasis));
//!         row
//!     })
//!     .collect();
//! let table = TableImage {
//!     title: "Atomic league · Crosstable".into(),
//!     subtitle: Some("Round 3 of 3".into()),
//!     columns,
//!     rows,
//! };
//! let png = render_table_png(&table).unwrap();
//! assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
//! assert_eq!(render_table_svg(&table).matches(r#"<g class="row""#).count(), 4);
//! ```

use std::borrow::Cow;
use std::fmt::Write as _;

use crate::RenderError;
use crate::text::{self, Anchor, Weight};

/// The widest picture in pixels: a table whose columns need more is scaled down
/// uniformly to this width (its height scaled alike).
pub const MAX_TABLE_WIDTH: u32 = 1600;

/// The longest text of a header or cell, in characters (Unicode scalar values): a
/// longer one is cut to `MAX_CELL_CHARS - 1` characters followed by `…`.
pub const MAX_CELL_CHARS: usize = 24;

/// A table to draw: a title strip, a header row and rows of cells.
#[derive(Clone, Eq, PartialEq, Hash, Debug, Default)]
pub struct TableImage {
    /// Title, drawn in the dark strip on top (shortened with `…` to fit the width).
    pub title: String,
    /// Second text of the strip, drawn dimmer: right of the title when both fit on
    /// one line, else on a line of its own under it.
    pub subtitle: Option<String>,
    /// The columns, left to right, with their header texts.
    pub columns: Vec<Column>,
    /// The rows, top to bottom. A row shorter than `columns` leaves its last cells
    /// empty; cells beyond the last column are ignored.
    pub rows: Vec<Vec<Cell>>,
}

/// One column of a [`TableImage`].
#[derive(Clone, Eq, PartialEq, Hash, Debug)]
pub struct Column {
    /// Text of the header row (Bold).
    pub header: String,
    /// How the header and the cells sit in the column.
    pub align: Align,
}

/// Horizontal placement of text in a column.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default)]
pub enum Align {
    /// Against the left edge, after 7 px of padding (names).
    #[default]
    Left,
    /// Centred (results in a crosstable).
    Center,
    /// Against the right edge, before 7 px of padding (numbers).
    Right,
}

/// One cell of a [`TableImage`].
#[derive(Clone, Eq, PartialEq, Hash, Debug, Default)]
pub struct Cell {
    /// The text (any Unicode; see the module documentation for missing glyphs).
    pub text: String,
    /// Its background and text colour.
    pub style: CellStyle,
}

impl Cell {
    /// A cell with [`CellStyle::Normal`].
    pub fn new(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            style: CellStyle::Normal,
        }
    }

    /// A cell with the given style.
    pub fn styled(text: impl Into<String>, style: CellStyle) -> Cell {
        Cell {
            text: text.into(),
            style,
        }
    }
}

impl From<&str> for Cell {
    fn from(text: &str) -> Cell {
        Cell::new(text)
    }
}

impl From<String> for Cell {
    fn from(text: String) -> Cell {
        Cell::new(text)
    }
}

/// How a cell is coloured.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Default)]
pub enum CellStyle {
    /// Dark text on the row's background (white or light beige, alternating).
    #[default]
    Normal,
    /// A crosstable's own square (a player against themself): shaded grey.
    Diagonal,
    /// A win: green background, dark green text.
    Win,
    /// A draw: pale yellow background, dark olive text.
    Draw,
    /// A loss: pale red background, dark red text.
    Loss,
    /// A game still being played: pale blue background, dark blue text.
    Pending,
    /// A figure to stand out (the points column): Bold, black, on a slightly darker
    /// background.
    Emphasis,
}

/// Cell text size in pixels (the em height).
const FONT: f32 = 17.0;
/// Header row text size in pixels.
const HEAD_FONT: f32 = 15.0;
/// Title text size in pixels.
const TITLE_FONT: f32 = 22.0;
/// Subtitle text size in pixels.
const SUB_FONT: f32 = 16.0;
/// Height of a row and of the header row.
const ROW_H: u32 = 30;
/// Height of the title strip with one line, and with the subtitle on a second line.
const TITLE_H: u32 = 48;
const TITLE_H2: u32 = 70;
/// Padding on each side of a cell's text.
const PAD: f32 = 7.0;
/// Narrowest column.
const MIN_COL: u32 = 28;
/// Narrowest picture.
const MIN_WIDTH: u32 = 320;
/// Padding on each side of the title strip's texts.
const STRIP_PAD: f32 = 14.0;
/// Gap between the title and a subtitle on the same line.
const STRIP_GAP: f32 = 24.0;
/// Thickness of the dark line under the table.
const BOTTOM: u32 = 3;

const FRAME: &str = "#2f2b27";
const TITLE_TEXT: &str = "#f5f1ea";
const TITLE_DIM: &str = "#b9b0a3";
const HEAD_BG: &str = "#e3dccf";
const HEAD_TEXT: &str = "#3a332b";
const ROW_BG: [&str; 2] = ["#ffffff", "#f3efe8"];
const GRID: &str = "#d6cfc2";
const TEXT: &str = "#1f1c18";

impl CellStyle {
    /// Background (`None`: the row's), text colour and weight.
    fn look(self) -> (Option<&'static str>, &'static str, Weight) {
        match self {
            CellStyle::Normal => (None, TEXT, Weight::Regular),
            CellStyle::Diagonal => (Some("#bdb5a8"), "#3a332b", Weight::Regular),
            CellStyle::Win => (Some("#d3ecc9"), "#1b5e20", Weight::Regular),
            CellStyle::Draw => (Some("#f3eabf"), "#5a4800", Weight::Regular),
            CellStyle::Loss => (Some("#f6d5d0"), "#8e1b10", Weight::Regular),
            CellStyle::Pending => (Some("#d9e6f5"), "#1d4f91", Weight::Regular),
            CellStyle::Emphasis => (Some("#e9e3d8"), "#000000", Weight::Bold),
        }
    }
}

/// `text` cut to [`MAX_CELL_CHARS`] characters (the last one an ellipsis).
fn clip(text: &str) -> Cow<'_, str> {
    if text.chars().count() <= MAX_CELL_CHARS {
        return Cow::Borrowed(text);
    }
    let mut cut: String = text.chars().take(MAX_CELL_CHARS - 1).collect();
    cut.truncate(cut.trim_end().len());
    cut.push('\u{2026}');
    Cow::Owned(cut)
}

/// `text` shortened with an ellipsis so that it is at most `avail` pixels wide at
/// `size` in Bold (empty when not even the ellipsis fits).
pub(crate) fn fit(text: &str, size: f32, avail: f32) -> String {
    if text::width_in(text, size, Weight::Bold) <= avail {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    for n in (0..chars.len()).rev() {
        let mut s: String = chars[..n].iter().collect();
        s.truncate(s.trim_end().len());
        s.push('\u{2026}');
        if text::width_in(&s, size, Weight::Bold) <= avail {
            return s;
        }
    }
    String::new()
}

/// Text escaped for an SVG attribute or element.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 forbids (control characters) are left out.
            c if c < ' ' && !matches!(c, '\t' | '\n' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

/// Where everything goes, in pixels of the unscaled picture.
struct Layout<'a> {
    /// Left edge and width of each column.
    cols: Vec<(u32, u32)>,
    /// Header texts, clipped.
    headers: Vec<Cow<'a, str>>,
    /// Cells, one per column in every row (missing ones empty), texts clipped.
    rows: Vec<Vec<(Cow<'a, str>, CellStyle)>>,
    /// Unscaled size.
    width: u32,
    height: u32,
    /// Title strip height and its texts (fitted); the subtitle with whether it has a
    /// line of its own.
    title_h: u32,
    title: String,
    subtitle: Option<(String, bool)>,
}

impl Layout<'_> {
    fn new(table: &TableImage) -> Layout<'_> {
        let n = table.columns.len();
        let headers: Vec<Cow<str>> = table.columns.iter().map(|c| clip(&c.header)).collect();
        let rows: Vec<Vec<(Cow<str>, CellStyle)>> = table
            .rows
            .iter()
            .map(|row| {
                (0..n)
                    .map(|i| match row.get(i) {
                        Some(c) => (clip(&c.text), c.style),
                        None => (Cow::Borrowed(""), CellStyle::Normal),
                    })
                    .collect()
            })
            .collect();
        let mut widths: Vec<u32> = headers
            .iter()
            .enumerate()
            .map(|(i, h)| {
                let head = text::width_in(h, HEAD_FONT, Weight::Bold);
                let cells = rows.iter().map(|r| {
                    let (t, style) = &r[i];
                    text::width_in(t, FONT, style.look().2)
                });
                let w = cells.fold(head, f32::max);
                ((w + 2.0 * PAD).ceil() as u32).max(MIN_COL)
            })
            .collect();
        let table_w: u32 = widths.iter().sum();
        // The strip's texts may widen a narrow table, up to the widest picture.
        let title_w = text::width_in(&table.title, TITLE_FONT, Weight::Bold);
        let sub_w = table
            .subtitle
            .as_deref()
            .map(|s| text::width_in(s, SUB_FONT, Weight::Bold));
        let strip_need = title_w.max(sub_w.unwrap_or(0.0)) + 2.0 * STRIP_PAD;
        let width = table_w
            .max(MIN_WIDTH)
            .max((strip_need.ceil() as u32).min(MAX_TABLE_WIDTH));
        // Extra width goes to the first left-aligned column (the names), else is
        // spread over all columns.
        let extra = width - table_w;
        if extra > 0 && n > 0 {
            match table.columns.iter().position(|c| c.align == Align::Left) {
                Some(i) => widths[i] += extra,
                None => {
                    for (i, w) in widths.iter_mut().enumerate() {
                        *w += extra / n as u32 + u32::from((i as u32) < extra % n as u32);
                    }
                }
            }
        }
        let mut x = 0;
        let cols = widths
            .iter()
            .map(|&w| {
                let c = (x, w);
                x += w;
                c
            })
            .collect();
        let avail = width as f32 - 2.0 * STRIP_PAD;
        let title = fit(&table.title, TITLE_FONT, avail);
        let subtitle = table.subtitle.as_deref().map(|s| {
            let tw = text::width_in(&title, TITLE_FONT, Weight::Bold);
            let sw = text::width_in(s, SUB_FONT, Weight::Bold);
            let own_line = tw + STRIP_GAP + sw > avail;
            (fit(s, SUB_FONT, avail), own_line)
        });
        let title_h = if subtitle.as_ref().is_some_and(|s| s.1) {
            TITLE_H2
        } else {
            TITLE_H
        };
        let height = title_h + ROW_H * (1 + rows.len() as u32) + BOTTOM;
        Layout {
            cols,
            headers,
            rows,
            width,
            height,
            title_h,
            title,
            subtitle,
        }
    }

    /// The picture's size in pixels: the layout's, scaled down to
    /// [`MAX_TABLE_WIDTH`] when wider.
    fn size(&self) -> (u32, u32) {
        if self.width <= MAX_TABLE_WIDTH {
            (self.width, self.height)
        } else {
            let h = f64::from(self.height) * f64::from(MAX_TABLE_WIDTH) / f64::from(self.width);
            (MAX_TABLE_WIDTH, (h.round() as u32).max(1))
        }
    }
}

/// The size of the picture of `table` in pixels, `(width, height)`: the PNG's size
/// and the SVG's `width` and `height`. The width is at most [`MAX_TABLE_WIDTH`] and at
/// least 320; the height is the title strip (48 or 70), one 30 px row for the header
/// and each row, and a 3 px bottom line, scaled down with the width when the table is
/// wider than [`MAX_TABLE_WIDTH`].
pub fn table_size(table: &TableImage) -> (u32, u32) {
    Layout::new(table).size()
}

/// How a cell's text is drawn: size in pixels, placement, weight, colour.
struct Run<'a> {
    size: f32,
    align: Align,
    weight: Weight,
    fill: &'a str,
}

/// Writes text path data for `t` in cell `(x, w)` of a row whose top is `y`.
fn cell_text(s: &mut String, t: &str, (x, w): (u32, u32), y: u32, run: &Run) {
    let Run {
        size,
        align,
        weight,
        fill,
    } = *run;
    if t.trim().is_empty() {
        return;
    }
    let base = y as f32 + ROW_H as f32 / 2.0 + text::cap_height(size) / 2.0;
    let (tx, anchor) = match align {
        Align::Left => (x as f32 + PAD, Anchor::Start),
        Align::Center => (x as f32 + w as f32 / 2.0, Anchor::Middle),
        Align::Right => ((x + w) as f32 - PAD, Anchor::End),
    };
    let d = text::path_data_in(t, tx, base, size, anchor, weight);
    if !d.is_empty() {
        let _ = write!(s, r#"<path d="{d}" fill="{fill}"/>"#);
    }
}

/// The table as SVG text, [`table_size`] pixels wide and high (a table wider than
/// [`MAX_TABLE_WIDTH`] keeps its layout in the `viewBox` and is scaled down).
///
/// The SVG has a `<title>` with the table's title, one `<g class="header">` for the
/// header row and one `<g class="row">` per row, whose `aria-label` lists its cell
/// texts separated by ` | ` (as drawn: cut to [`MAX_CELL_CHARS`]); all text in the SVG
/// is escaped, and the drawn text is glyph paths. Pure and deterministic: the same
/// table gives the same text on every machine.
pub fn render_table_svg(table: &TableImage) -> String {
    let lay = Layout::new(table);
    let (width, height) = lay.size();
    let (lw, lh) = (lay.width, lay.height);
    let mut s = String::with_capacity(32 * 1024);
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {lw} {lh}" preserveAspectRatio="none"><title>{}</title>"#,
        escape(&table.title)
    );
    let _ = write!(
        s,
        r#"<rect width="{lw}" height="{lh}" fill="{}"/>"#,
        ROW_BG[0]
    );
    // Title strip.
    let _ = write!(
        s,
        r#"<rect width="{lw}" height="{}" fill="{FRAME}"/>"#,
        lay.title_h
    );
    let title_base = TITLE_H as f32 / 2.0 + text::cap_height(TITLE_FONT) / 2.0;
    let d = text::path_data_in(
        &lay.title,
        STRIP_PAD,
        title_base,
        TITLE_FONT,
        Anchor::Start,
        Weight::Bold,
    );
    if !d.is_empty() {
        let _ = write!(s, r#"<path d="{d}" fill="{TITLE_TEXT}"/>"#);
    }
    if let Some((sub, own_line)) = &lay.subtitle {
        let (x, y, anchor) = if *own_line {
            (STRIP_PAD, title_base + 25.0, Anchor::Start)
        } else {
            (lw as f32 - STRIP_PAD, title_base, Anchor::End)
        };
        let d = text::path_data_in(sub, x, y, SUB_FONT, anchor, Weight::Bold);
        if !d.is_empty() {
            let _ = write!(s, r#"<path d="{d}" fill="{TITLE_DIM}"/>"#);
        }
    }
    // Header row.
    let head_y = lay.title_h;
    let _ = write!(
        s,
        r#"<g class="header"><rect y="{head_y}" width="{lw}" height="{ROW_H}" fill="{HEAD_BG}"/>"#
    );
    for ((h, &col), c) in lay.headers.iter().zip(&lay.cols).zip(&table.columns) {
        let run = Run {
            size: HEAD_FONT,
            align: c.align,
            weight: Weight::Bold,
            fill: HEAD_TEXT,
        };
        cell_text(&mut s, h, col, head_y, &run);
    }
    s.push_str("</g>");
    // Rows.
    for (r, row) in lay.rows.iter().enumerate() {
        let y = head_y + ROW_H * (1 + r as u32);
        let label: Vec<&str> = row.iter().map(|(t, _)| t.as_ref()).collect();
        let _ = write!(
            s,
            r#"<g class="row" aria-label="{}">"#,
            escape(&label.join(" | "))
        );
        if r % 2 == 1 {
            let _ = write!(
                s,
                r#"<rect y="{y}" width="{lw}" height="{ROW_H}" fill="{}"/>"#,
                ROW_BG[1]
            );
        }
        for (((t, style), &col), c) in row.iter().zip(&lay.cols).zip(&table.columns) {
            let (bg, fill, weight) = style.look();
            if let Some(bg) = bg {
                let _ = write!(
                    s,
                    r#"<rect x="{}" y="{y}" width="{}" height="{ROW_H}" fill="{bg}"/>"#,
                    col.0, col.1
                );
            }
            let run = Run {
                size: FONT,
                align: c.align,
                weight,
                fill,
            };
            cell_text(&mut s, t, col, y, &run);
        }
        s.push_str("</g>");
    }
    // Grid: a line between columns over the header and the rows, a line under the
    // header, and the dark bottom line.
    let body_bottom = lh - BOTTOM;
    let mut grid = String::new();
    for &(x, _) in lay.cols.iter().skip(1) {
        let _ = write!(grid, "M{x} {head_y}V{body_bottom}");
    }
    if !grid.is_empty() {
        let _ = write!(
            s,
            r#"<path d="{grid}" transform="translate(-.5 0)" stroke="{GRID}" fill="none"/>"#
        );
    }
    let _ = write!(
        s,
        r#"<rect y="{}" width="{lw}" height="1" fill="{GRID}"/>"#,
        head_y + ROW_H - 1
    );
    let _ = write!(
        s,
        r#"<rect y="{body_bottom}" width="{lw}" height="{BOTTOM}" fill="{FRAME}"/>"#
    );
    s.push_str("</svg>");
    s
}

/// The table as PNG bytes (8-bit indexed colour), [`table_size`] pixels wide and
/// high: the picture of [`render_table_svg`], rasterized with resvg. Pure and
/// deterministic.
///
/// # Errors
/// [`RenderError`] only for an internal failure (the SVG this module built did not
/// parse, PNG encoding failed) or when the pixel buffer cannot be allocated (a table
/// of millions of rows).
pub fn render_table_png(table: &TableImage) -> Result<Vec<u8>, RenderError> {
    crate::svg_to_png(&render_table_svg(table))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_cuts_long_texts_with_an_ellipsis() {
        let exact = "a".repeat(MAX_CELL_CHARS);
        assert_eq!(clip(&exact), exact);
        let long = "b".repeat(MAX_CELL_CHARS + 1);
        let cut = clip(&long);
        assert_eq!(cut.chars().count(), MAX_CELL_CHARS);
        assert_eq!(cut, format!("{}\u{2026}", "b".repeat(MAX_CELL_CHARS - 1)));
        // A space before the cut is dropped; multi-byte characters are cut whole.
        let spaced = format!("{} tail of the name", "é".repeat(MAX_CELL_CHARS - 2));
        assert_eq!(
            clip(&spaced),
            format!("{}\u{2026}", "é".repeat(MAX_CELL_CHARS - 2))
        );
    }

    #[test]
    fn fit_shortens_to_the_width() {
        assert_eq!(fit("Title", TITLE_FONT, 500.0), "Title");
        let long = "Standings of a very long league name ".repeat(3);
        let f = fit(&long, TITLE_FONT, 300.0);
        assert!(f.ends_with('\u{2026}'), "{f}");
        assert!(text::width_in(&f, TITLE_FONT, Weight::Bold) <= 300.0);
        assert!(text::width_in(&f, TITLE_FONT, Weight::Bold) > 250.0);
        assert_eq!(fit("abc", TITLE_FONT, 1.0), "");
    }

    #[test]
    fn escape_covers_markup_and_drops_control_characters() {
        assert_eq!(
            escape("<b>&\"'\u{7}x"),
            "&lt;b&gt;&amp;&quot;&apos;x".to_string()
        );
    }
}
