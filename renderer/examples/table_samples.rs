//! Sample table images: a 10-player double round-robin crosstable and an 11-player
//! Swiss standings table, each as PNG at its natural size and downscaled to 400 px
//! wide (what Discord shows on a phone).
//!
//!     cargo run -p kaboom-renderer --example table_samples -- /tmp/table-samples

use kaboom_renderer::table::{
    Align, Cell, CellStyle, Column, TableImage, render_table_png, render_table_svg,
};

fn col(header: &str, align: Align) -> Column {
    Column {
        header: header.into(),
        align,
    }
}

/// A deterministic pseudo-random sequence (no dependency).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

fn score_text(halves: u32) -> String {
    let whole = halves / 2;
    match (whole, halves % 2) {
        (0, 1) => "½".into(),
        (w, 1) => format!("{w}½"),
        (w, _) => w.to_string(),
    }
}

fn crosstable() -> TableImage {
    let names = [
        "Magnus Bombsen",
        "Hikaru Blastamura",
        "Judit Polgár",
        "Alexandra Kosteniuk-Nightingale-Smythe",
        "Ding Liren",
        "Фабиано Каруана",
        "Anish Giri",
        "<b>Bobby & \"Tal\"</b>",
        "Wesley So",
        "Nodirbek Abdusattorov",
    ];
    let n = names.len();
    // Each pair's two games in halves of a point for the row player (None: running).
    fn game(i: usize, j: usize, g: usize) -> Option<u32> {
        if i > j {
            return game(j, i, g).map(|h| 2 - h);
        }
        if g == 1 && (i + j).is_multiple_of(7) {
            return None;
        }
        let mut rng = Lcg((i * 131 + j * 17 + g * 7) as u64);
        Some(rng.next(3) as u32)
    }
    let games: Vec<Vec<[Option<u32>; 2]>> = (0..n)
        .map(|i| (0..n).map(|j| [game(i, j, 0), game(i, j, 1)]).collect())
        .collect();
    let mut columns = vec![col("#", Align::Right), col("Player", Align::Left)];
    for i in 1..=n {
        columns.push(col(&i.to_string(), Align::Center));
    }
    columns.push(col("Pts", Align::Right));
    columns.push(col("SB", Align::Right));
    let points: Vec<u32> = (0..n)
        .map(|i| games[i].iter().flatten().flatten().sum())
        .collect();
    let rows = (0..n)
        .map(|i| {
            let mut row = vec![Cell::new((i + 1).to_string()), Cell::from(names[i])];
            let mut sb = 0;
            for j in 0..n {
                if i == j {
                    row.push(Cell::styled("", CellStyle::Diagonal));
                    continue;
                }
                let texts: Vec<String> = games[i][j]
                    .iter()
                    .map(|g| match g {
                        Some(2) => "1".to_string(),
                        Some(1) => "½".to_string(),
                        Some(_) => "0".to_string(),
                        None => "*".to_string(),
                    })
                    .collect();
                let done: u32 = games[i][j].iter().flatten().sum();
                sb += done * points[j];
                let style = if games[i][j].iter().any(Option::is_none) {
                    CellStyle::Pending
                } else if done > 2 {
                    CellStyle::Win
                } else if done == 2 {
                    CellStyle::Draw
                } else {
                    CellStyle::Loss
                };
                row.push(Cell::styled(texts.join(" "), style));
            }
            row.push(Cell::styled(score_text(points[i]), CellStyle::Emphasis));
            row.push(Cell::new(score_text(sb / 2)));
            row
        })
        .collect();
    TableImage {
        title: "Atomic League · Season 3".into(),
        subtitle: Some("Double round robin · round 17 of 18".into()),
        columns,
        rows,
    }
}

fn swiss() -> TableImage {
    let players = [
        ("Hikaru Blastamura", 2815),
        ("Magnus Bombsen", 2830),
        ("Judit Polgár", 2735),
        ("Ding Liren", 2762),
        ("Anish Giri", 2745),
        ("Alexandra Kosteniuk-Nightingale", 2520),
        ("Wesley So", 2751),
        ("Ян Непомнящий", 2758),
        ("Nodirbek Abdusattorov", 2766),
        ("Praggnanandhaa R.", 2747),
        ("Alireza Firouzja", 2760),
    ];
    let rounds = 6;
    let mut rng = Lcg(42);
    let mut columns = vec![
        col("#", Align::Right),
        col("Player", Align::Left),
        col("Rating", Align::Right),
        col("Pts", Align::Right),
    ];
    for r in 1..=rounds {
        columns.push(col(&format!("R{r}"), Align::Center));
    }
    columns.push(col("BH-C1", Align::Right));
    columns.push(col("BH", Align::Right));
    columns.push(col("SB", Align::Right));
    let n = players.len();
    let rows = (0..n)
        .map(|i| {
            let (name, rating) = players[i];
            let mut cells = Vec::new();
            let mut halves = 0;
            for r in 0..rounds {
                if (i + r) % n == n - 1 {
                    cells.push(Cell::styled("bye", CellStyle::Win));
                    halves += 2;
                    continue;
                }
                let opp = (i + 1 + rng.next(n as u64 - 1) as usize) % n + 1;
                let colour = if rng.next(2) == 0 { "W" } else { "B" };
                let (mark, style, h) = match (r == rounds - 1 && i % 4 == 1, rng.next(3)) {
                    (true, _) => ("*", CellStyle::Pending, 0),
                    (_, 0) => ("+", CellStyle::Win, 2),
                    (_, 1) => ("½", CellStyle::Draw, 1),
                    _ => ("\u{2212}", CellStyle::Loss, 0),
                };
                halves += h;
                cells.push(Cell::styled(format!("{colour}{opp} {mark}"), style));
            }
            let bh = 40 + rng.next(30) as u32;
            let mut row = vec![
                Cell::new(format!("{}.", i + 1)),
                Cell::from(name),
                Cell::new(rating.to_string()),
                Cell::styled(score_text(halves), CellStyle::Emphasis),
            ];
            row.extend(cells);
            row.push(Cell::new(score_text(bh - 5)));
            row.push(Cell::new(score_text(bh)));
            row.push(Cell::new(score_text(bh * 2 / 3)));
            row
        })
        .collect();
    TableImage {
        title: "Bomberman Swiss · Standings".into(),
        subtitle: Some("After round 6 of 7".into()),
        columns,
        rows,
    }
}

/// `svg` rasterized `width` pixels wide (scaled), as RGBA PNG bytes.
fn downscaled(svg: &str, width: u32) -> Vec<u8> {
    let tree = resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).unwrap();
    let size = tree.size();
    let k = width as f32 / size.width();
    let height = (size.height() * k).round() as u32;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(width, height).unwrap();
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(k, k),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().unwrap()
}

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "/tmp/table-samples".into());
    std::fs::create_dir_all(&dir).unwrap();
    let narrow = TableImage {
        title: "Kaboom Chess Federation · Blitz arena of the winter solstice weekend".into(),
        subtitle: Some("Final standings after 42 games, tie-break: Sonneborn-Berger".into()),
        columns: vec![col("Player", Align::Left), col("Pts", Align::Right)],
        rows: vec![
            vec![Cell::from("Ada"), Cell::styled("2½", CellStyle::Emphasis)],
            vec![Cell::from("Bo"), Cell::styled("½", CellStyle::Emphasis)],
        ],
    };
    for (name, table) in [
        ("crosstable", crosstable()),
        ("swiss", swiss()),
        ("narrow", narrow),
    ] {
        let png = render_table_png(&table).unwrap();
        let svg = render_table_svg(&table);
        let path = format!("{dir}/{name}.png");
        std::fs::write(&path, &png).unwrap();
        std::fs::write(format!("{dir}/{name}.svg"), &svg).unwrap();
        std::fs::write(format!("{dir}/{name}-400px.png"), downscaled(&svg, 400)).unwrap();
        let (w, h) = kaboom_renderer::table::table_size(&table);
        println!("{path}: {w}x{h}, {} bytes", png.len());
    }
}
