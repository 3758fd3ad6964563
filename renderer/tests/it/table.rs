//! Table images (`kaboom_renderer::table`): structure of the SVG, escaping, sizes,
//! the width limit, the ellipsis, `½`, cell colours and determinism.

use crate::common::decode;
use kaboom_renderer::svg_to_png;
use kaboom_renderer::table::{
    Align, Cell, CellStyle, Column, MAX_CELL_CHARS, MAX_TABLE_WIDTH, TableImage, render_table_png,
    render_table_svg, table_size,
};

fn pixel(img: &(u32, u32, Vec<u8>), x: u32, y: u32) -> [u8; 3] {
    let i = ((y * img.0 + x) * 3) as usize;
    [img.2[i], img.2[i + 1], img.2[i + 2]]
}

fn column(header: &str, align: Align) -> Column {
    Column {
        header: header.into(),
        align,
    }
}

/// A crosstable of `names`: rank, name, one result column per player (diagonal
/// shaded, `1`, `½`, `0` or `*` pending), points.
fn crosstable(names: &[&str]) -> TableImage {
    let n = names.len();
    let mut columns = vec![column("#", Align::Right), column("Player", Align::Left)];
    for i in 1..=n {
        columns.push(column(&i.to_string(), Align::Center));
    }
    columns.push(column("Pts", Align::Right));
    let rows = (0..n)
        .map(|i| {
            let mut row = vec![Cell::new((i + 1).to_string()), Cell::from(names[i])];
            for j in 0..n {
                row.push(match (i + 2 * j) % 4 {
                    _ if i == j => Cell::styled("", CellStyle::Diagonal),
                    0 => Cell::styled("1", CellStyle::Win),
                    1 => Cell::styled("½", CellStyle::Draw),
                    2 => Cell::styled("0", CellStyle::Loss),
                    _ => Cell::styled("*", CellStyle::Pending),
                });
            }
            row.push(Cell::styled("1½", CellStyle::Emphasis));
            row
        })
        .collect();
    TableImage {
        title: "Crosstable".into(),
        subtitle: None,
        columns,
        rows,
    }
}

/// The `aria-label` of each row group, unescaped only for `&amp;` checks by the caller.
fn row_labels(svg: &str) -> Vec<&str> {
    svg.split(r#"<g class="row" aria-label=""#)
        .skip(1)
        .map(|rest| &rest[..rest.find('"').unwrap()])
        .collect()
}

/// The numbers of the SVG's `viewBox`.
fn view_box(svg: &str) -> (f64, f64) {
    let rest = &svg[svg.find(r#"viewBox="0 0 "#).unwrap() + 13..];
    let mut it = rest[..rest.find('"').unwrap()].split(' ');
    let w = it.next().unwrap().parse().unwrap();
    let h = it.next().unwrap().parse().unwrap();
    (w, h)
}

#[test]
fn svg_has_one_header_and_one_row_group_per_row() {
    let names = ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J"];
    for n in [0, 1, 4, 10] {
        let svg = render_table_svg(&crosstable(&names[..n]));
        assert_eq!(svg.matches(r#"<g class="row""#).count(), n);
        assert_eq!(svg.matches(r#"<g class="header">"#).count(), 1);
        assert_eq!(svg.matches("<g").count(), n + 1, "no other groups");
        let labels = row_labels(&svg);
        assert_eq!(labels.len(), n);
        for (i, label) in labels.iter().enumerate() {
            // Rank, name, n results, points.
            assert_eq!(label.split(" | ").count(), n + 3, "row {i}: {label}");
            assert!(label.starts_with(&format!("{} | {} | ", i + 1, names[i])));
        }
        svg_to_png(&svg).unwrap();
    }
}

#[test]
fn four_player_crosstable_rows_read_as_given() {
    let svg = render_table_svg(&crosstable(&["Ann", "Ben", "Cy", "Di"]));
    assert_eq!(
        row_labels(&svg),
        [
            "1 | Ann |  | 0 | 1 | 0 | 1½",
            "2 | Ben | ½ |  | ½ | * | 1½",
            "3 | Cy | 0 | 1 |  | 1 | 1½",
            "4 | Di | * | ½ | * |  | 1½",
        ]
    );
}

#[test]
fn names_and_titles_are_escaped() {
    let mut table = crosstable(&["<b>&\"", "Bob's"]);
    table.title = "Cup <\"&'>".into();
    table.subtitle = Some("</svg>".into());
    let svg = render_table_svg(&table);
    assert!(!svg.contains("<b>"), "raw markup from a name");
    assert!(!svg.contains("Bob's"));
    assert_eq!(svg.matches("</svg>").count(), 1);
    assert!(svg.contains("<title>Cup &lt;&quot;&amp;&apos;&gt;</title>"));
    let labels = row_labels(&svg);
    assert!(
        labels[0].starts_with("1 | &lt;b&gt;&amp;&quot; | "),
        "{}",
        labels[0]
    );
    assert!(labels[1].starts_with("2 | Bob&apos;s | "), "{}", labels[1]);
    // The SVG parses (usvg is a strict XML parser) and gives the expected size.
    let img = decode(&render_table_png(&table).unwrap());
    assert_eq!((img.0, img.1), table_size(&table));
}

#[test]
fn width_grows_with_a_longer_name_up_to_the_cut() {
    let width = |name: &str| table_size(&crosstable(&[name, "Bo", "Cy", "Di"])).0;
    let short = width("Al");
    let medium = width("Alexandra Nightingale");
    let cut = width(&"W".repeat(MAX_CELL_CHARS));
    assert!(short < medium && medium < cut, "{short} {medium} {cut}");
    // Beyond MAX_CELL_CHARS the name is cut: the picture is that of the cut name.
    let long = "W".repeat(60);
    let cut_name = format!("{}\u{2026}", "W".repeat(MAX_CELL_CHARS - 1));
    let a = render_table_svg(&crosstable(&[&long, "Bo", "Cy", "Di"]));
    let b = render_table_svg(&crosstable(&[&cut_name, "Bo", "Cy", "Di"]));
    assert_eq!(a, b);
    assert!(row_labels(&a)[0].contains(&cut_name));
    assert!(width(&long) <= MAX_TABLE_WIDTH);
    assert!(width(&long) > cut / 2);
}

#[test]
fn png_size_is_the_layout_size() {
    let four = crosstable(&["Ann", "Ben", "Cy", "Di"]);
    let mut with_subtitle = four.clone();
    with_subtitle.subtitle = Some("Round 3".into());
    let mut long_subtitle = four.clone();
    long_subtitle.subtitle = Some("A subtitle far too long to share the title's line".into());
    let tiny = TableImage {
        title: "T".into(),
        subtitle: None,
        columns: vec![column("#", Align::Left)],
        rows: vec![vec![Cell::new("1")]],
    };
    // Title strip 48 (70 with the subtitle on its own line), header and rows 30
    // each, bottom line 3; at least 320 wide.
    for (table, height) in [
        (&four, 48 + 30 * 5 + 3),
        (&with_subtitle, 48 + 30 * 5 + 3),
        (&long_subtitle, 70 + 30 * 5 + 3),
        (&tiny, 48 + 30 * 2 + 3),
    ] {
        let (w, h) = table_size(table);
        assert_eq!(h, height);
        let svg = render_table_svg(table);
        assert!(svg.starts_with(&format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}""#
        )));
        let img = decode(&render_table_png(table).unwrap());
        assert_eq!((img.0, img.1), (w, h));
    }
    assert_eq!(table_size(&tiny).0, 320);
    assert_eq!(table_size(&four).0, table_size(&with_subtitle).0);
    // The ten-player crosstable keeps a compact natural width.
    let ten = crosstable(&[
        "Ann", "Ben", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo",
    ]);
    let (w, h) = table_size(&ten);
    assert!((320..=1000).contains(&w), "width {w}");
    assert_eq!(h, 48 + 30 * 11 + 3);
}

#[test]
fn wide_tables_are_scaled_down_to_the_limit() {
    let names: Vec<String> = (0..50).map(|i| format!("Player number {i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let table = crosstable(&refs);
    let (w, h) = table_size(&table);
    assert_eq!(w, MAX_TABLE_WIDTH);
    let svg = render_table_svg(&table);
    let (vw, vh) = view_box(&svg);
    assert!(vw > f64::from(MAX_TABLE_WIDTH), "natural width {vw}");
    assert_eq!(vh, f64::from(48 + 30 * 51 + 3));
    assert_eq!(h, (vh * f64::from(MAX_TABLE_WIDTH) / vw).round() as u32);
    let img = decode(&render_table_png(&table).unwrap());
    assert_eq!((img.0, img.1), (w, h));
    // A long title never widens the picture beyond the limit either.
    let titled = TableImage {
        title: "Long title ".repeat(40),
        subtitle: Some("and a long subtitle ".repeat(40)),
        ..crosstable(&["Ann"])
    };
    assert_eq!(table_size(&titled), (MAX_TABLE_WIDTH, 70 + 30 * 2 + 3));
    let svg = render_table_svg(&titled);
    assert!(svg.contains(r#"viewBox="0 0 1600 133""#));
}

/// One 1-cell table per text, to compare how texts are drawn.
fn single(text: &str) -> TableImage {
    TableImage {
        title: String::new(),
        subtitle: None,
        columns: vec![column("", Align::Center)],
        rows: vec![vec![Cell::new(text)]],
    }
}

/// Dark pixels of the body row of a [`single`] table (text ink).
fn ink(text: &str) -> usize {
    let img = decode(&render_table_png(&single(text)).unwrap());
    (48 + 30..48 + 60)
        .flat_map(|y| (0..img.0).map(move |x| (x, y)))
        .filter(|&(x, y)| pixel(&img, x, y).iter().all(|&c| c < 128))
        .count()
}

#[test]
fn half_is_drawn_with_its_own_glyph() {
    let half = render_table_svg(&single("½"));
    // A missing glyph would be drawn as `?`; a blank as nothing.
    assert_ne!(half, render_table_svg(&single("?")));
    assert_ne!(half, render_table_svg(&single("")));
    let row = &half[half.find(r#"<g class="row""#).unwrap()..];
    assert_eq!(row.matches(r#"<path d="M"#).count(), 1);
    // ½ is three contours: 1, the slash, 2.
    let path = &row[row.find(r#"<path d=""#).unwrap()..];
    let d = &path[..path.find("\"/>").unwrap()];
    assert!(d.matches('M').count() >= 3, "{d}");
    assert!(ink("½") > 20, "½ has ink");
    assert_eq!(ink(""), 0);
    // The same goes for the ellipsis, the minus sign and non-Latin names.
    for c in ["\u{2026}", "\u{2212}", "Ж", "é"] {
        assert_ne!(render_table_svg(&single(c)), render_table_svg(&single("?")));
    }
}

#[test]
fn cell_styles_colour_their_cells() {
    let styles = [
        CellStyle::Normal,
        CellStyle::Diagonal,
        CellStyle::Win,
        CellStyle::Draw,
        CellStyle::Loss,
        CellStyle::Pending,
        CellStyle::Emphasis,
    ];
    let table = TableImage {
        title: "Styles".into(),
        subtitle: None,
        columns: styles
            .iter()
            .map(|_| column("WWWWWW", Align::Center))
            .collect(),
        rows: vec![styles.iter().map(|&s| Cell::styled("", s)).collect()],
    };
    let img = decode(&render_table_png(&table).unwrap());
    let (w, _) = table_size(&table);
    let col_w = w / styles.len() as u32;
    // The centre of each (empty) cell of the body row.
    let colours: Vec<[u8; 3]> = (0..styles.len() as u32)
        .map(|i| pixel(&img, i * col_w + col_w / 2, 48 + 30 + 15))
        .collect();
    let [normal, diagonal, win, draw, loss, pending, emphasis] = colours[..] else {
        unreachable!()
    };
    assert_eq!(normal, [255, 255, 255], "first row on white");
    for (i, a) in colours.iter().enumerate() {
        for b in &colours[i + 1..] {
            assert_ne!(a, b, "two styles share a colour");
        }
    }
    let luma = |c: [u8; 3]| u32::from(c[0]) * 3 + u32::from(c[1]) * 6 + u32::from(c[2]);
    assert!(luma(diagonal) < luma(emphasis) && luma(emphasis) < luma(normal));
    assert!(win[1] > win[0] && win[1] > win[2], "win {win:?} is green");
    assert!(
        loss[0] > loss[1] && loss[0] > loss[2],
        "loss {loss:?} is red"
    );
    assert!(pending[2] > pending[0], "pending {pending:?} is blue");
    assert!(
        draw[0] > draw[2] && draw[1] > draw[2],
        "draw {draw:?} is yellow"
    );
}

#[test]
fn alternate_rows_are_shaded() {
    let table = crosstable(&["Ann", "Ben", "Cy"]);
    let img = decode(&render_table_png(&table).unwrap());
    // The right end of the name column (past the short names) of each row.
    let x = 150;
    let rows: Vec<[u8; 3]> = (0..3)
        .map(|r| pixel(&img, x, 48 + 30 * (r + 1) + 15))
        .collect();
    assert_eq!(rows[0], rows[2]);
    assert_ne!(rows[0], rows[1]);
}

#[test]
fn short_and_long_rows_fit_the_columns() {
    let table = TableImage {
        title: "Ragged".into(),
        subtitle: None,
        columns: vec![column("A", Align::Left), column("B", Align::Right)],
        rows: vec![
            vec![Cell::new("only")],
            vec![Cell::new("x"), Cell::new("y"), Cell::new("ignored")],
        ],
    };
    let svg = render_table_svg(&table);
    assert_eq!(row_labels(&svg), ["only | ", "x | y"]);
    assert!(!svg.contains("ignored"));
}

#[test]
fn output_is_deterministic() {
    let table = crosstable(&["Ann", "Ben", "Cy", "Di", "Ed"]);
    assert_eq!(render_table_svg(&table), render_table_svg(&table.clone()));
    assert_eq!(
        render_table_png(&table).unwrap(),
        render_table_png(&table.clone()).unwrap()
    );
}
