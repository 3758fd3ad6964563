//! Piece legends: one row per piece kind of the variant, every sprite drawn, deterministic.

use kaboom_renderer::{legend_entries, legend_size, render_legend_png, render_legend_svg};
use kaboom_rules::{Kind, Variant};

use crate::common::rgba;

/// Bombalot's legend has its 7 kinds and Bomberman Chess's its 8, one row each (56 px
/// of title, 64 px per row and 16 px of margin at 600 px); each row's sprite cells hold
/// dark pixels (a piece), the same picture every time.
#[test]
fn legends_have_one_row_per_kind() {
    let bombalot: Vec<Kind> = legend_entries(Variant::Bombalot)
        .iter()
        .map(|e| e.kind)
        .collect();
    assert_eq!(
        bombalot,
        [
            Kind::Tweke,
            Kind::SuperTweke,
            Kind::Tank,
            Kind::Detonator,
            Kind::Immobilizer,
            Kind::Bomb,
            Kind::Imitator
        ]
    );
    assert_eq!(legend_entries(Variant::Bomberman).len(), 8);
    assert!(
        legend_entries(Variant::Bomberman)
            .iter()
            .any(|e| e.kind == Kind::Defuser)
    );
    for (variant, rows) in [(Variant::Bombalot, 7), (Variant::Bomberman, 8)] {
        let png = render_legend_png(variant, 600).unwrap();
        assert_eq!(
            png,
            render_legend_png(variant, 600).unwrap(),
            "deterministic"
        );
        let (w, h, px) = rgba(&png);
        assert_eq!((w as u32, h as u32), legend_size(variant, 600));
        assert_eq!(h, 56 + rows * 64 + 16);
        for row in 0..rows {
            // Black's sprite cell (x 68..120): the piece's dark fill is there.
            let y0 = 56 + row * 64 + 6;
            let dark = (y0..y0 + 52)
                .flat_map(|y| (68..120).map(move |x| (x, y)))
                .filter(|&(x, y)| {
                    let p = &px[(y * w + x) * 4..];
                    u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2]) < 150
                })
                .count();
            assert!(dark > 150, "{variant:?} row {row}: {dark} dark pixels");
        }
        // Below the last row only the margin: no sprite.
        let y = 56 + rows * 64 + 8;
        assert!(
            px[(y * w + 90) * 4..(y * w + 91) * 4][..3]
                .iter()
                .all(|&c| c > 200)
        );
        let svg = render_legend_svg(variant, 600);
        assert!(svg.starts_with("<svg") && !svg.contains("<text"));
    }
    // Width is clamped; bad widths do not panic.
    assert_eq!(legend_size(Variant::Bombalot, 0).0, 300);
    assert_eq!(legend_size(Variant::Bombalot, u32::MAX).0, 2400);
    assert!(render_legend_png(Variant::Atomic, 10).is_ok());
}
