//! Evaluation charts for post-game analysis, like lichess's: White's win percentage
//! over the game as a light area rising from the bottom of a dark plot (the more of
//! the plot is light, the better White stands; a flat 50 % fills the lower half), a
//! dashed midline at 50 %, move numbers along the bottom, a coloured dot on each
//! marked ply (inaccuracy, mistake, blunder) and a legend.
//!
//! The input is the win percentage (0..=100, White's point of view) at the start and
//! after each ply: a game of `n` plies has `n + 1` values. Win percentages rather than
//! centipawns keep mates and huge advantages on the chart (lichess maps centipawns to
//! win % with `50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) - 1)`); the caller converts.
//!
//! The picture is [`eval_chart_size`]: the requested width (default
//! [`CHART_WIDTH`] = 800 px, clamped to [`MIN_CHART_WIDTH`]..=[`MAX_CHART_WIDTH`]) and
//! 3/8 of it high (800 x 300). Everything is laid out on an 800 x 300 design and scaled,
//! so a chart looks the same at every width; its texts are sized to stay readable on a
//! phone where the 800 px image is shown about 400 px wide. Text is glyph outlines of
//! the embedded Noto Sans Bold, as on the boards: the same chart gives the same bytes on
//! every machine.
//!
//! Bad input is clamped, never a panic: values above 100 or below 0 (and infinities)
//! are clamped to the range, a NaN takes the value before it (50 at the start), an
//! empty series is drawn as a flat 50 %, a single value as a flat line at that value,
//! marks on plies past the series are left out, and a title too long for the strip is
//! cut with `…`.
//!
//! ```
//! use kaboom_renderer::chart::{EvalChart, Mark, eval_chart_size, render_eval_chart_png};
//!
//! // White's win % at the start and after each of 6 plies.
//! let wins = [50.0, 54.0, 52.0, 80.0, 20.0, 25.0, 3.0];
//! let marks = [(3, Mark::Mistake), (4, Mark::Blunder)];
//! let chart = EvalChart {
//!     title: "Game #12 · Atomic · alice (White) vs bob (Black)",
//!     win_percent: &wins,
//!     marks: &marks,
//!     ..EvalChart::default()
//! };
//! let png = render_eval_chart_png(&chart).unwrap();
//! assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
//! assert_eq!(eval_chart_size(&chart), (800, 300));
//! ```

use std::fmt::Write as _;

use crate::RenderError;
use crate::table::{escape, fit};
use crate::text::{self, Anchor};

/// The default width of a chart in pixels (its height is 3/8 of the width: 300).
pub const CHART_WIDTH: u32 = 800;
/// The narrowest chart in pixels: a smaller requested width is raised to this.
pub const MIN_CHART_WIDTH: u32 = 240;
/// The widest chart in pixels: a larger requested width is lowered to this.
pub const MAX_CHART_WIDTH: u32 = 2400;

/// How bad a marked move was, as lichess classifies them (by the drop in win %).
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug)]
pub enum Mark {
    /// `?!`: drawn light blue.
    Inaccuracy,
    /// `?`: drawn orange.
    Mistake,
    /// `??`: drawn red.
    Blunder,
}

impl Mark {
    /// Every mark, mildest first (the legend's order).
    pub const ALL: [Mark; 3] = [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder];

    /// The annotation symbol: `?!`, `?` or `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The English name: `Inaccuracy`, `Mistake` or `Blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "Inaccuracy",
            Mark::Mistake => "Mistake",
            Mark::Blunder => "Blunder",
        }
    }

    /// The dot's colour as SVG `#rrggbb` text: lichess's analysis colours, light blue
    /// `#56b4e9`, orange `#e69f00` and red `#df5353` (a colour-blind-safe set).
    pub fn colour(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "#56b4e9",
            Mark::Mistake => "#e69f00",
            Mark::Blunder => "#df5353",
        }
    }
}

/// A chart to draw. Borrowed data: build it where the evaluations are.
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct EvalChart<'a> {
    /// One line in the dark strip on top, e.g. `Game #12 · Atomic · alice (White) vs
    /// bob (Black)`; cut with `…` when too long.
    pub title: &'a str,
    /// White's win percentage (0..=100) at the start (index 0) and after each ply
    /// (index `i` is the position after ply `i`): `plies + 1` values. Clamped as the
    /// module documentation says.
    pub win_percent: &'a [f64],
    /// The plies to mark, as (ply, mark): ply `i` (1-based, the ply that was played) is
    /// marked on the point after it, `win_percent[i]`. A ply past the series is left
    /// out; when a ply is given twice both dots are drawn, the more serious on top.
    pub marks: &'a [(usize, Mark)],
    /// Width of the picture in pixels, clamped to
    /// [`MIN_CHART_WIDTH`]..=[`MAX_CHART_WIDTH`]; the height is 3/8 of it.
    pub width: u32,
}

impl Default for EvalChart<'_> {
    /// No title, no values (a flat 50 %), no marks, [`CHART_WIDTH`] pixels wide.
    fn default() -> Self {
        EvalChart {
            title: "",
            win_percent: &[],
            marks: &[],
            width: CHART_WIDTH,
        }
    }
}

/// Design size: everything is laid out on 800 x 300 units, then scaled.
const W: f32 = 800.0;
const H: f32 = 300.0;
/// Title strip height and text size.
const STRIP_H: f32 = 44.0;
const TITLE_FONT: f32 = 24.0;
/// Left and right margin of the plot and texts.
const PAD: f32 = 16.0;
/// The plot's top and bottom edges.
const PLOT_TOP: f32 = 54.0;
const PLOT_BOTTOM: f32 = 226.0;
/// Move numbers: size and baseline.
const AXIS_FONT: f32 = 21.0;
const AXIS_BASE: f32 = 250.0;
/// Legend: size and baseline.
const LEGEND_FONT: f32 = 21.0;
const LEGEND_BASE: f32 = 287.0;
/// Radius of a mark's dot.
const DOT_R: f32 = 8.0;
/// At most this many move numbers along the bottom.
const MAX_LABELS: usize = 7;

/// Background (the frame of the board pictures) and texts.
const FRAME: &str = "#2f2b27";
const TITLE_TEXT: &str = "#f5f1ea";
const DIM_TEXT: &str = "#c9c0b3";
/// White's side of the plot: the area under the curve.
const WHITE_AREA: &str = "#f4f1ea";
/// Black's side of the plot: the area above the curve.
const BLACK_AREA: &str = "#4a443e";
/// The 50 % line and the plot's outline.
const MIDLINE: &str = "#9c9388";

/// The size in pixels of `chart`'s picture: its width clamped to
/// [`MIN_CHART_WIDTH`]..=[`MAX_CHART_WIDTH`] and 3/8 of that high (rounded).
pub fn eval_chart_size(chart: &EvalChart<'_>) -> (u32, u32) {
    let w = chart.width.clamp(MIN_CHART_WIDTH, MAX_CHART_WIDTH);
    (w, (w * 3 + 4) / 8)
}

/// The series as drawn: clamped to 0..=100, a NaN replaced by the value before it
/// (50 at the start), an empty series as one 50 %.
fn clean(values: &[f64]) -> Vec<f64> {
    let mut out = Vec::with_capacity(values.len().max(1));
    let mut prev = 50.0;
    for &v in values {
        let v = if v.is_nan() {
            prev
        } else {
            v.clamp(0.0, 100.0)
        };
        out.push(v);
        prev = v;
    }
    if out.is_empty() {
        out.push(50.0);
    }
    out
}

/// Design x of series index `i` (fractional allowed) in a series of `len` values; a
/// single value spans the plot (index 0 at the left edge).
fn x_of(i: f64, len: usize) -> f32 {
    let span = (len.max(2) - 1) as f64;
    let t = (i / span).clamp(0.0, 1.0) as f32;
    PAD + t * (W - 2.0 * PAD)
}

/// Design y of a win percentage (0 at the plot's bottom, 100 at its top).
fn y_of(win: f64) -> f32 {
    let win = if win.is_nan() {
        50.0
    } else {
        win.clamp(0.0, 100.0)
    };
    PLOT_BOTTOM - (win / 100.0) as f32 * (PLOT_BOTTOM - PLOT_TOP)
}

/// Where the chart draws White's win percentage `win_percent` after ply `ply` (the
/// start is ply 0; fractional plies lie between), in pixels of the picture from its
/// top-left corner: x along the plot from the start (left edge) to the last value of
/// `chart.win_percent` (right edge), y from 100 % (the plot's top) to 0 % (its bottom).
/// Both are clamped to the plot. The marks' dots are centred on `(ply, win_percent[ply])`.
pub fn eval_chart_point(chart: &EvalChart<'_>, ply: f64, win_percent: f64) -> (f32, f32) {
    let (w, h) = eval_chart_size(chart);
    let ply = if ply.is_nan() { 0.0 } else { ply };
    let x = x_of(ply, chart.win_percent.len());
    let y = y_of(win_percent);
    (x * w as f32 / W, y * h as f32 / H)
}

/// Every how many moves a move number is written: 10 for most games, fewer for short
/// ones and more for long ones, so that at most [`MAX_LABELS`] fit.
fn label_step(moves: usize) -> usize {
    let mut step = 1;
    for s in [1usize, 2, 5, 10, 20, 50, 100, 200, 500] {
        step = s;
        if moves / s <= MAX_LABELS {
            break;
        }
    }
    // Beyond 500 moves: a multiple of 1000.
    while moves / step > MAX_LABELS {
        step += 1000 - step % 1000;
    }
    step
}

fn num(v: f32) -> String {
    let mut s = String::new();
    text::num(&mut s, v);
    s
}

/// The chart as SVG text, [`eval_chart_size`] pixels wide and high (the drawing is laid
/// out on an 800 x 300 `viewBox` and scaled). Pure and deterministic: the same chart
/// gives the same text on every machine; all text is glyph paths.
///
/// Drawn: a dark title strip with the title; the plot, dark (Black's side) with a light
/// area from its bottom up to the curve of White's win percentage (White's side), so
/// above the 50 % line light means White is better and below it dark means Black is;
/// the dashed 50 % line; move numbers under the plot (move `N` under White's `N`-th
/// ply, index `2N - 1`, assuming White moves first); a dot in the mark's colour with a
/// white rim on each marked ply; and a legend (the two sides' colours, then the three
/// marks with their symbols).
pub fn render_eval_chart_svg(chart: &EvalChart<'_>) -> String {
    let (width, height) = eval_chart_size(chart);
    let values = clean(chart.win_percent);
    let len = chart.win_percent.len();
    let mut s = String::with_capacity(16 * 1024);
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {W} {H}" preserveAspectRatio="none"><title>{}</title>"#,
        escape(chart.title)
    );
    let _ = write!(s, r#"<rect width="{W}" height="{H}" fill="{FRAME}"/>"#);

    // Title.
    let title = fit(chart.title, TITLE_FONT, W - 2.0 * PAD);
    let base = STRIP_H / 2.0 + text::cap_height(TITLE_FONT) / 2.0;
    let d = text::path_data(&title, PAD, base, TITLE_FONT, Anchor::Start);
    if !d.is_empty() {
        let _ = write!(s, r#"<path d="{d}" fill="{TITLE_TEXT}"/>"#);
    }

    // The plot: Black's side, then White's area under the curve.
    let (left, right) = (PAD, W - PAD);
    let _ = write!(
        s,
        r#"<rect x="{left}" y="{PLOT_TOP}" width="{}" height="{}" fill="{BLACK_AREA}"/>"#,
        right - left,
        PLOT_BOTTOM - PLOT_TOP
    );
    let points: Vec<(f32, f32)> = if values.len() == 1 {
        let y = y_of(values[0]);
        vec![(left, y), (right, y)]
    } else {
        values
            .iter()
            .enumerate()
            .map(|(i, &v)| (x_of(i as f64, values.len()), y_of(v)))
            .collect()
    };
    let mut area = format!("M{} {}", num(left), num(PLOT_BOTTOM));
    let mut line = String::new();
    for (i, &(x, y)) in points.iter().enumerate() {
        let _ = write!(area, "L{} {}", num(x), num(y));
        let _ = write!(
            line,
            "{}{} {}",
            if i == 0 { 'M' } else { 'L' },
            num(x),
            num(y)
        );
    }
    let _ = write!(area, "L{} {}Z", num(right), num(PLOT_BOTTOM));
    let _ = write!(s, r#"<path d="{area}" fill="{WHITE_AREA}"/>"#);

    // Move numbers: a tick under the plot and the number under it.
    let plies = len.saturating_sub(1);
    let moves = plies.div_ceil(2);
    let step = label_step(moves);
    let mut ticks = String::new();
    let mut labels = String::new();
    for m in (step..=moves).step_by(step) {
        let ply = 2 * m - 1;
        if ply > plies {
            break;
        }
        let x = x_of(ply as f64, len);
        let _ = write!(ticks, "M{} {}v6", num(x), num(PLOT_BOTTOM));
        // Centred under its tick, but kept inside the picture.
        let label = m.to_string();
        let half = text::width(&label, AXIS_FONT) / 2.0;
        let cx = x.clamp(PAD / 2.0 + half, W - PAD / 2.0 - half);
        labels.push_str(&text::path_data(
            &label,
            cx,
            AXIS_BASE,
            AXIS_FONT,
            Anchor::Middle,
        ));
    }
    // The 50 % line, the outline and the ticks.
    let mid = y_of(50.0);
    let _ = write!(
        s,
        r#"<path d="M{left} {}H{right}" stroke="{MIDLINE}" stroke-width="1.5" stroke-dasharray="6 4" fill="none"/>"#,
        num(mid)
    );
    let _ = write!(
        s,
        r#"<path d="{line}" stroke="{MIDLINE}" stroke-width="1.5" stroke-linejoin="round" fill="none"/>"#
    );
    let _ = write!(
        s,
        r#"<rect x="{}" y="{}" width="{}" height="{}" stroke="{MIDLINE}" stroke-width="1" fill="none"/>"#,
        left - 0.5,
        PLOT_TOP - 0.5,
        right - left + 1.0,
        PLOT_BOTTOM - PLOT_TOP + 1.0
    );
    if !ticks.is_empty() {
        let _ = write!(
            s,
            r#"<path d="{ticks}" stroke="{MIDLINE}" stroke-width="2" fill="none"/>"#
        );
    }
    if !labels.is_empty() {
        let _ = write!(s, r#"<path d="{labels}" fill="{DIM_TEXT}"/>"#);
    }

    // Dots on the marked plies, the more serious on top.
    let mut marks: Vec<(usize, Mark)> = chart
        .marks
        .iter()
        .copied()
        .filter(|&(ply, _)| ply < len)
        .collect();
    marks.sort_by_key(|&(ply, mark)| (mark, ply));
    for (ply, mark) in marks {
        let _ = write!(
            s,
            r##"<circle cx="{}" cy="{}" r="{DOT_R}" fill="{}" stroke="#fff" stroke-width="2.5"/>"##,
            num(x_of(ply as f64, len)),
            num(y_of(values[ply])),
            mark.colour()
        );
    }

    // Legend: the sides on the left, the marks on the right.
    let cap = text::cap_height(LEGEND_FONT);
    let centre_y = LEGEND_BASE - cap / 2.0;
    let sw = 16.0;
    let mut x = PAD;
    let mut legend = String::new();
    for (name, fill) in [("White", WHITE_AREA), ("Black", BLACK_AREA)] {
        let _ = write!(
            s,
            r#"<rect x="{}" y="{}" width="{sw}" height="{sw}" rx="3" fill="{fill}" stroke="{MIDLINE}" stroke-width="1.5"/>"#,
            num(x),
            num(centre_y - sw / 2.0)
        );
        x += sw + 7.0;
        legend.push_str(&text::path_data(
            name,
            x,
            LEGEND_BASE,
            LEGEND_FONT,
            Anchor::Start,
        ));
        x += text::width(name, LEGEND_FONT) + 20.0;
    }
    let mut x = W - PAD;
    for mark in Mark::ALL.iter().rev() {
        let label = format!("{} {}", mark.name(), mark.symbol());
        legend.push_str(&text::path_data(
            &label,
            x,
            LEGEND_BASE,
            LEGEND_FONT,
            Anchor::End,
        ));
        x -= text::width(&label, LEGEND_FONT) + 6.0 + DOT_R;
        let _ = write!(
            s,
            r##"<circle cx="{}" cy="{}" r="{DOT_R}" fill="{}" stroke="#fff" stroke-width="2.5"/>"##,
            num(x),
            num(centre_y),
            mark.colour()
        );
        x -= DOT_R + 22.0;
    }
    let _ = write!(s, r#"<path d="{legend}" fill="{DIM_TEXT}"/>"#);
    s.push_str("</svg>");
    s
}

/// The chart as PNG bytes (8-bit indexed colour), [`eval_chart_size`] pixels: the
/// picture of [`render_eval_chart_svg`], rasterized with resvg. Pure and deterministic.
///
/// # Errors
/// [`RenderError`] only for an internal failure (the SVG this module built did not
/// parse, PNG encoding failed).
pub fn render_eval_chart_png(chart: &EvalChart<'_>) -> Result<Vec<u8>, RenderError> {
    crate::svg_to_png(&render_eval_chart_svg(chart))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_is_clamped() {
        assert_eq!(clean(&[]), vec![50.0]);
        assert_eq!(
            clean(&[
                f64::NAN,
                120.0,
                f64::NAN,
                -3.0,
                f64::INFINITY,
                f64::NEG_INFINITY
            ]),
            vec![50.0, 100.0, 100.0, 0.0, 100.0, 0.0]
        );
    }

    #[test]
    fn labels_every_ten_moves_in_ordinary_games() {
        assert_eq!(label_step(0), 1);
        assert_eq!(label_step(5), 1);
        assert_eq!(label_step(12), 2);
        assert_eq!(label_step(30), 5);
        assert_eq!(label_step(40), 10);
        assert_eq!(label_step(70), 10);
        assert_eq!(label_step(100), 20);
        assert_eq!(label_step(100_000), 13_000);
    }

    #[test]
    fn sizes_are_clamped() {
        let size = |width| {
            eval_chart_size(&EvalChart {
                width,
                ..EvalChart::default()
            })
        };
        assert_eq!(size(800), (800, 300));
        assert_eq!(size(0), (240, 90));
        assert_eq!(size(u32::MAX), (2400, 900));
        assert_eq!(size(401), (401, 150));
    }
}
