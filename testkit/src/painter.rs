//! A cheap board painter for tests that only need a valid PNG.

use kaboom_rules::{BoardView, Color, PlyRecord};
use kaboom_service::painter::{BoardPainter, PaintError, RenderError};

/// A plain painter: squares, and each piece as a disc in its side's colour with a mark for
/// its kind's first letter row. Tests that only need a valid
/// PNG use it: it costs a fraction of the renderer's time.
#[derive(Copy, Clone, Debug, Default)]
pub struct PlainPainter;

const CELL: u32 = 24;

impl BoardPainter for PlainPainter {
    fn paint(
        &self,
        view: &BoardView,
        last: Option<&PlyRecord>,
        bottom: Color,
    ) -> Result<Vec<u8>, PaintError> {
        let geometry = view.variant.geometry();
        let files = u32::from(geometry.files);
        let rows = if geometry.goals { 10 } else { 8 };
        let (w, h) = (files * CELL, rows * CELL);
        let mut pixels = vec![0u8; (w * h * 3) as usize];
        let highlight: Vec<_> = last
            .map(|p| [p.squares.from, p.squares.to, p.squares.detonation])
            .into_iter()
            .flatten()
            .flatten()
            .collect();
        for sq in geometry.squares() {
            let file = u32::from(sq.file());
            // Display row from the top: ranks 0..=9 (goals) or 1..=8.
            let rank = u32::from(sq.rank());
            let top_rank = if geometry.goals { 9 } else { 8 };
            let (col, row) = match bottom {
                Color::White => (file, top_rank - rank),
                Color::Black => (files - 1 - file, rank - (top_rank + 1 - rows)),
            };
            let mut rgb = if geometry.is_dark(sq) {
                [181, 136, 99]
            } else {
                [240, 217, 181]
            };
            if highlight.contains(&sq) {
                rgb = [205, 210, 106];
            }
            let piece = view.piece_at(sq);
            for y in 0..CELL {
                for x in 0..CELL {
                    let mut px = rgb;
                    if let Some(p) = piece {
                        let (dx, dy) = (x as i32 - 12, y as i32 - 12);
                        if dx * dx + dy * dy <= 81 {
                            px = match p.color {
                                Color::White => [250, 250, 250],
                                Color::Black => [20, 20, 20],
                            };
                            if p.carrier && dx * dx + dy * dy <= 9 {
                                px = [220, 40, 40];
                            }
                        }
                    }
                    let i = (((row * CELL + y) * w + col * CELL + x) * 3) as usize;
                    pixels[i..i + 3].copy_from_slice(&px);
                }
            }
        }
        let mut out = Vec::new();
        let mut encoder = png::Encoder::new(&mut out, w, h);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder
            .write_header()
            .map_err(|e| PaintError::Render(RenderError::Png(e.to_string())))?;
        writer
            .write_image_data(&pixels)
            .map_err(|e| PaintError::Render(RenderError::Png(e.to_string())))?;
        writer
            .finish()
            .map_err(|e| PaintError::Render(RenderError::Png(e.to_string())))?;
        Ok(out)
    }
}
