//! Building the board SVG: layout, squares, coordinates, header, marks and pieces.
//!
//! User units: one square is 100 units; the picture is scaled to the requested width
//! by the `width`/`height` attributes against the `viewBox`.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use kaboom_rules::{BoardView, Cause, Color, Geometry, Kind, Square, Status};

use crate::pieces::{self, piece_group, piece_id};
use crate::text::{self, Anchor};
use crate::{ARROW_OPACITY, Arrow, LastAction, Orientation, RenderOptions, Theme};

/// Design units of the layout, relative to a square of 100: the picture is
/// `LEFT + files * 100 + RIGHT` design units wide, then scaled so that a square is a
/// whole number of pixels (crisp square edges, fewer blended colours).
const LEFT: f32 = 44.0;
/// Right margin.
const RIGHT: f32 = 16.0;
/// Plain top margin between header and board.
const TOP: f32 = 16.0;
/// Bottom margin (file letters).
const BOTTOM: f32 = 44.0;
/// Header strip height.
const HEADER: f32 = 84.0;
/// Gap between the board and a goal square (Bombalot).
const GOAL_GAP: f32 = 8.0;

/// The colours of one theme.
pub(crate) struct Palette {
    pub(crate) light: &'static str,
    pub(crate) dark: &'static str,
    pub(crate) frame: &'static str,
    pub(crate) coords: &'static str,
    pub(crate) header_text: &'static str,
    pub(crate) header_dim: &'static str,
    pub(crate) goal: &'static str,
    pub(crate) goal_net: &'static str,
    pub(crate) highlight: &'static str,
}

pub(crate) fn palette(theme: Theme) -> Palette {
    match theme {
        Theme::Classic => Palette {
            light: "#efd9b4",
            dark: "#b48762",
            frame: "#2f2b27",
            coords: "#cfc6b8",
            header_text: "#f5f1ea",
            header_dim: "#b9b0a3",
            goal: "#7f9a6b",
            goal_net: "#5d7650",
            highlight: "#e6d33c",
        },
        Theme::Green => Palette {
            light: "#eeeed2",
            dark: "#769656",
            frame: "#272a25",
            coords: "#c9cdbf",
            header_text: "#f3f5ee",
            header_dim: "#b3b8a8",
            goal: "#b58863",
            goal_net: "#8c6546",
            highlight: "#f0e04a",
        },
        Theme::Blue => Palette {
            light: "#dee3e6",
            dark: "#8ca2ad",
            frame: "#262b30",
            coords: "#c5ccd2",
            header_text: "#f0f3f5",
            header_dim: "#aab3bb",
            goal: "#a08c6c",
            goal_net: "#7b6a50",
            highlight: "#d9d04a",
        },
    }
}

/// Where everything goes, in pixels (the SVG's user units are pixels).
pub(crate) struct Layout {
    geo: Geometry,
    orientation: Orientation,
    /// Design units to pixels.
    pub(crate) k: f32,
    /// Square side in whole pixels.
    pub(crate) sq: u32,
    pub(crate) left: f32,
    /// Height of the header strip in whole pixels (the top rows of the picture).
    pub(crate) header: f32,
    gap: f32,
    pub(crate) width: u32,
    pub(crate) height: u32,
    /// Top edge of the main board's top row.
    pub(crate) board_y: f32,
}

impl Layout {
    pub(crate) fn new(geo: Geometry, orientation: Orientation, size: u32) -> Layout {
        let width = size.clamp(64, 4096);
        let files = f32::from(geo.files);
        let k = width as f32 / (LEFT + files * 100.0 + RIGHT);
        let sq = (k * 100.0).floor().max(1.0) as u32;
        let margin = width as f32 - files * sq as f32;
        let left = (margin * LEFT / (LEFT + RIGHT)).round();
        let header = (HEADER * k).round();
        let gap = (GOAL_GAP * k).round();
        let goal_band = if geo.goals { sq as f32 + gap } else { 0.0 };
        let board_y = header + (TOP * k).round() + goal_band;
        let height = board_y + f32::from(geo.ranks) * sq as f32 + goal_band + (BOTTOM * k).round();
        Layout {
            geo,
            orientation,
            k,
            sq,
            left,
            header,
            gap,
            width,
            height: height as u32,
            board_y,
        }
    }

    /// The board's geometry.
    pub(crate) fn geometry(&self) -> Geometry {
        self.geo
    }

    fn sqf(&self) -> f32 {
        self.sq as f32
    }

    /// Column (0 = left) of a file.
    fn column(&self, file: u8) -> f32 {
        match self.orientation {
            Orientation::White => f32::from(file),
            Orientation::Black => f32::from(self.geo.files - 1 - file),
        }
    }

    /// Row (0 = top of the main board) of a rank; goal ranks give -1 and 8.
    fn row(&self, rank: u8) -> f32 {
        let r = f32::from(rank);
        let top = f32::from(self.geo.ranks);
        match self.orientation {
            Orientation::White => top - r,
            Orientation::Black => r - 1.0,
        }
    }

    /// Top-left corner of a square in whole pixels (goal squares sit outside the
    /// board, a gap away).
    pub(crate) fn origin(&self, sq: Square) -> (f32, f32) {
        let x = self.left + self.column(sq.file()) * self.sqf();
        let row = self.row(sq.rank());
        let mut y = self.board_y + row * self.sqf();
        if row < 0.0 {
            y -= self.gap;
        } else if row >= f32::from(self.geo.ranks) {
            y += self.gap;
        }
        (x, y)
    }

    /// `transform` placing a 100 x 100 drawing on the square at (`x`, `y`).
    fn place(&self, x: f32, y: f32) -> String {
        format!(
            r#"transform="translate({} {}) scale({})""#,
            n(x),
            n(y),
            n4(self.sqf() / 100.0)
        )
    }

    /// A rectangle covering the square at (`x`, `y`).
    fn rect(&self, x: f32, y: f32) -> String {
        format!(
            r#"x="{}" y="{}" width="{}" height="{}""#,
            n(x),
            n(y),
            self.sq,
            self.sq
        )
    }
}

fn n4(v: f32) -> String {
    let r = (v * 10000.0).round() / 10000.0;
    format!("{r}")
}

fn n(v: f32) -> String {
    let mut s = String::new();
    text::num(&mut s, v);
    s
}

/// The header line: who moves, or the result (left); then the texts for the right
/// side, longest first: the first that fits is drawn (variant and move number, or the
/// variant alone; the variant alone once the game is over). When none fits, the last
/// is drawn anyway and the left text shrinks: every image names its variant.
fn header_texts(board: &BoardView) -> (String, Vec<String>) {
    let left = match board.status {
        Status::Finished(outcome) => {
            let who = match outcome.winner {
                Some(Color::White) => "White wins".to_string(),
                Some(Color::Black) => "Black wins".to_string(),
                None if outcome.reason == kaboom_rules::EndReason::Aborted => "Aborted".to_string(),
                None => "Draw".to_string(),
            };
            if outcome.reason == kaboom_rules::EndReason::Aborted {
                who
            } else {
                let result = match outcome.result() {
                    "1/2-1/2" => "\u{bd}\u{2013}\u{bd}",
                    "1-0" => "1\u{2013}0",
                    "0-1" => "0\u{2013}1",
                    other => other,
                };
                format!("{result}  {who} \u{b7} {}", outcome.reason.describe())
            }
        }
        Status::Ongoing if !board.awaiting_designation.is_empty() => {
            "Choosing bomb carriers".to_string()
        }
        Status::Ongoing => {
            let side = match board.turn {
                Color::White => "White",
                Color::Black => "Black",
            };
            if board.checked.is_empty() {
                format!("{side} to move")
            } else {
                format!("{side} to move \u{b7} check")
            }
        }
    };
    let title = board.variant.title();
    let right = if board.status.is_finished() {
        vec![title.to_string()]
    } else {
        vec![
            format!("{title} \u{b7} Move {}", board.fullmoves),
            title.to_string(),
        ]
    };
    (left, right)
}

/// One piece to draw: its kind, colour and the top-left pixel of its square.
pub(crate) struct Placed {
    pub(crate) kind: Kind,
    pub(crate) color: Color,
    pub(crate) x: f32,
    pub(crate) y: f32,
}

/// The picture in drawing order: `open` (the `<svg>` tag and `<defs>`), `board`
/// (background, squares, goals, coordinates: fixed for a geometry, orientation, theme
/// and size), `marks` (header, last action, check, frozen tint; `header` repeats its
/// header part), the pieces, and `top`
/// (badges, loose bombs, preview). The PNG path takes `board` from a cache of
/// rasterized boards, rasterizes `marks`, copies the pieces from cached sprites, then
/// rasterizes `top`; the SVG is all of it in order.
pub(crate) struct Scene {
    pub(crate) layout: Layout,
    pub(crate) open: String,
    pub(crate) board: String,
    pub(crate) marks: String,
    /// The header's part of `marks` (its beginning), drawn from a cache on the PNG path.
    pub(crate) header: String,
    pub(crate) pieces: Vec<Placed>,
    pub(crate) top: String,
}

impl Scene {
    /// The `<use>` elements of the pieces.
    fn pieces_svg(&self) -> String {
        let mut s = String::new();
        for p in &self.pieces {
            let _ = write!(
                s,
                r##"<use xlink:href="#{}" {}/>"##,
                piece_id(p.kind, p.color),
                self.layout.place(p.x, p.y)
            );
        }
        s
    }

    /// The whole SVG document.
    pub(crate) fn svg(&self) -> String {
        let mut s = String::with_capacity(
            self.open.len() + self.board.len() + self.marks.len() + self.top.len() + 4096,
        );
        s.push_str(&self.open);
        s.push_str(&self.board);
        s.push_str(&self.marks);
        s.push_str(&self.pieces_svg());
        s.push_str(&self.top);
        s.push_str("</svg>");
        s
    }

    /// An SVG document of `open` plus one section (for the layered PNG path).
    pub(crate) fn layer(&self, section: &str) -> String {
        let mut s = String::with_capacity(self.open.len() + section.len() + 8);
        s.push_str(&self.open);
        s.push_str(section);
        s.push_str("</svg>");
        s
    }
}

pub(crate) fn svg(board: &BoardView, last: Option<&LastAction>, options: &RenderOptions) -> String {
    scene(board, last, options).svg()
}

/// How opaque a removed piece is drawn where it stood (under its mark) on a board image.
pub(crate) const GHOST_OPACITY: f32 = 0.7;

pub(crate) fn scene(
    board: &BoardView,
    last: Option<&LastAction>,
    options: &RenderOptions,
) -> Scene {
    scene_with(board, last, options, GHOST_OPACITY)
}

/// [`scene`] with removed pieces drawn at `ghost_opacity` (the replay's blast frames
/// fade them in steps).
pub(crate) fn scene_with(
    board: &BoardView,
    last: Option<&LastAction>,
    options: &RenderOptions,
    ghost_opacity: f32,
) -> Scene {
    scene_with_badges(board, last, options, ghost_opacity, &[])
}

/// A removed piece shown as a corner badge on a square without a [`LastAction`]
/// removal behind it: the piece an explosion preview's ghost capturer took
/// ([`crate::Ghost::taken`]).
#[derive(Copy, Clone, Debug)]
pub(crate) struct CornerBadge {
    /// The square whose top-left corner (or the first free one) shows the badge.
    pub(crate) square: Square,
    /// The piece in the badge.
    pub(crate) piece: kaboom_rules::Piece,
    /// The cause whose mark colours the disc, as on the result board.
    pub(crate) cause: Cause,
}

/// [`scene_with`] plus `badges`: removed pieces drawn as corner badges in the colour of
/// their cause, as [`draw_removals`] draws the piece a destroyed capturer took, above
/// the explosion preview's marks (which would otherwise cross them).
pub(crate) fn scene_with_badges(
    board: &BoardView,
    last: Option<&LastAction>,
    options: &RenderOptions,
    ghost_opacity: f32,
    badges: &[CornerBadge],
) -> Scene {
    let geo = board.variant.geometry();
    let lay = Layout::new(geo, options.orientation, options.size);
    let pal = palette(options.theme);
    let sqn = lay.sq;

    let mut open = String::with_capacity(8 * 1024);
    open.push_str(&svg_tag(&lay));

    // Pieces on the board, in canonical order, and the kinds the defs need.
    let on_board = pieces_on_board(board);
    let mut used: BTreeSet<(usize, usize)> = BTreeSet::new();
    for p in &on_board {
        used.insert((kind_index(p.kind), p.color.index()));
        if let Some(k) = p.imitating {
            used.insert((kind_index(k), p.color.index()));
        }
    }
    if shows_turn_marker(board) {
        used.insert((kind_index(turn_marker(board)), board.turn.index()));
    }
    // Removed pieces are drawn again where they stood (ghosts or small badges).
    if let Some(last) = last {
        for r in &last.removals {
            used.insert((kind_index(r.piece.kind), r.piece.color.index()));
        }
    }
    for b in badges {
        used.insert((kind_index(b.piece.kind), b.piece.color.index()));
    }

    push_defs(&mut open, &used);

    let mut s = String::with_capacity(16 * 1024);
    // Background and header.
    let _ = write!(
        s,
        r#"<rect width="{}" height="{}" fill="{}"/>"#,
        lay.width, lay.height, pal.frame
    );

    // Squares: one light rectangle, then all dark squares as one path.
    let _ = write!(
        s,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
        n(lay.left),
        n(lay.board_y),
        u32::from(geo.files) * sqn,
        u32::from(geo.ranks) * sqn,
        pal.light
    );
    let mut dark = String::new();
    for sq in geo.squares() {
        if geo.is_goal(sq) || !geo.is_dark(sq) {
            continue;
        }
        let (x, y) = lay.origin(sq);
        let _ = write!(dark, "M{} {}h{sqn}v{sqn}h-{sqn}z", n(x), n(y));
    }
    let _ = write!(s, r#"<path d="{dark}" fill="{}"/>"#, pal.dark);

    // Goal squares (Bombalot, BA-2): a net, and the square's name beside it.
    if geo.goals {
        for sq in Geometry::GOAL_SQUARES {
            let (x, y) = lay.origin(sq);
            let _ = write!(s, r#"<rect {} fill="{}"/>"#, lay.rect(x, y), pal.goal);
            // The net: whole-pixel bars (crisp, and cheap to compress).
            let bar = (2.0 * lay.k).round().max(1.0) as u32;
            let mut net = String::new();
            for i in 1..5 {
                let o = (i as f32 * lay.sqf() / 5.0).round();
                let _ = write!(
                    net,
                    "M{} {}h{bar}v{sqn}h-{bar}zM{} {}h{sqn}v{bar}h-{sqn}z",
                    n(x + o),
                    n(y),
                    n(x),
                    n(y + o)
                );
            }
            let _ = write!(s, r#"<path d="{net}" fill="{}"/>"#, pal.goal_net);
        }
        draw_goal_labels(&mut s, &lay, &pal);
    }

    draw_coordinates(&mut s, &lay, &pal);

    // Marks under the pieces: header, last action, check, frozen tint.
    let mut m = String::with_capacity(8 * 1024);
    draw_header(&mut m, board, &lay, &pal);
    let header = m.clone();

    // The last action: from/to, blast marks, detonation.
    if let Some(last) = last {
        for sq in [last.squares.from, last.squares.to].into_iter().flatten() {
            if !geo.contains(sq) {
                continue;
            }
            m.push_str(&highlight_rect(&lay, sq, options.theme));
        }
        if let Some(sq) = last.squares.detonation.filter(|&sq| geo.contains(sq)) {
            let (x, y) = lay.origin(sq);
            let _ = write!(m, r##"<use xlink:href="#det" {}/>"##, lay.place(x, y));
        }
        // Bomberman's blast waves along ranks and files (BM-6).
        draw_waves(&mut m, &bomberman_waves(board, last), &lay);
    }

    // Kings in check.
    let mut checked = board.checked.clone();
    checked.sort();
    checked.dedup();
    for sq in checked {
        if !geo.contains(sq) {
            continue;
        }
        let (x, y) = lay.origin(sq);
        let _ = write!(m, r#"<rect {} fill="url(#chk)"/>"#, lay.rect(x, y));
    }

    // Frozen tint under the pieces (BA-3, NU-5).
    for p in &on_board {
        if p.frozen {
            let (x, y) = lay.origin(p.square);
            let _ = write!(m, r##"<use xlink:href="#frz" {}/>"##, lay.place(x, y));
        }
    }

    let pieces_placed: Vec<Placed> = on_board
        .iter()
        .map(|p| {
            let (x, y) = lay.origin(p.square);
            Placed {
                kind: p.kind,
                color: p.color,
                x,
                y,
            }
        })
        .collect();

    // Above the pieces: what the last action removed or pushed, then the badges, each
    // in a corner of its own (`Corners`).
    let mut t = String::new();
    let mut corners = Corners::default();
    if let Some(last) = last {
        draw_removals(&mut t, last, &on_board, &lay, ghost_opacity, &mut corners);
    }
    // Loose bombs (NU-9): a bomb in the lower-left corner, with the count beside it
    // (which takes the lower-right corner too). Drawn before the piece badges, which
    // then avoid their corners.
    let mut loose = board.loose_bombs.clone();
    loose.sort_by_key(|b| b.square);
    for b in &loose {
        if !geo.contains(b.square) || b.count == 0 {
            continue;
        }
        let (x, y) = lay.origin(b.square);
        corners.block(b.square, Corner::BottomLeft);
        let (cx, cy) = Corner::BottomLeft.centre();
        let _ = write!(
            t,
            r##"<g {}><circle cx="{}" cy="{}" r="{}" fill="#fffbe8" fill-opacity=".85" stroke="#7a3d00" stroke-width="3.5"/><use xlink:href="#bomb" transform="translate({} {}) scale(.42)"/>"##,
            lay.place(x, y),
            n(cx),
            n(cy),
            n(BADGE_R),
            n(cx - 21.0),
            n(cy - 21.0)
        );
        if b.count > 1 {
            corners.block(b.square, Corner::BottomRight);
            // Right-aligned, its outline (3.5 units) inside the square.
            let d = text::path_data(&format!("\u{d7}{}", b.count), 95.5, 95.0, 40.0, Anchor::End);
            let _ = write!(
                t,
                r##"<path d="{d}" fill="#fff" stroke="#000" stroke-width="7" paint-order="stroke" stroke-linejoin="round"/>"##
            );
        }
        t.push_str("</g>");
    }
    // Badges: carriers, imitated kind, locked, frozen.
    for p in &on_board {
        let (x, y) = lay.origin(p.square);
        if p.carrier {
            let corner = corners.take(p.square, Corner::TopRight);
            let (cx, cy) = corner.centre_within(CARRIER_BADGE_OUTER);
            let _ = write!(
                t,
                r##"<g {}><use xlink:href="#cbadge" x="{}" y="{}"/><use xlink:href="#bomb" transform="translate({} {}) scale(.46)"/></g>"##,
                lay.place(x, y),
                n(cx),
                n(cy),
                n(cx - 23.0),
                n(cy - 24.0)
            );
        }
        if let Some(k) = p.imitating {
            let (cx, cy) = corners.take(p.square, Corner::TopRight).centre();
            let _ = write!(
                t,
                r##"<g {}><use xlink:href="#badge" x="{}" y="{}"/><use xlink:href="#{}" transform="translate({} {}) scale(.42)"/></g>"##,
                lay.place(x, y),
                n(cx),
                n(cy),
                piece_id(k, p.color),
                n(cx - 21.0),
                n(cy - 21.0)
            );
        }
        if p.locked {
            let (cx, cy) = corners.take(p.square, Corner::BottomLeft).centre();
            let _ = write!(
                t,
                r##"<g {}><use xlink:href="#lock" x="{}" y="{}"/></g>"##,
                lay.place(x, y),
                n(cx),
                n(cy)
            );
        }
        if p.frozen {
            let (cx, cy) = corners.take(p.square, Corner::BottomRight).centre();
            let _ = write!(
                t,
                r##"<g {}><use xlink:href="#frzb" x="{}" y="{}"/></g>"##,
                lay.place(x, y),
                n(cx),
                n(cy)
            );
        }
    }

    // Explosion preview on top of everything on the board.
    let mut preview = options.preview.clone();
    preview.sort();
    preview.dedup();
    for sq in preview {
        if !geo.contains(sq) {
            continue;
        }
        let (x, y) = lay.origin(sq);
        let _ = write!(t, r##"<use xlink:href="#pv" {}/>"##, lay.place(x, y));
    }
    // Badges of removed pieces not in `last` (a preview's ghost capturer's catch), in
    // the corner the result board gives them (top left unless taken).
    for b in badges {
        if !geo.contains(b.square) {
            continue;
        }
        let (x, y) = lay.origin(b.square);
        let (cx, cy) = corners.take(b.square, Corner::TopLeft).centre();
        let _ = write!(t, "<g {}>", lay.place(x, y));
        piece_badge(&mut t, cx, cy, RemovalMark::of(b.cause).colour(), b.piece);
        t.push_str("</g>");
    }

    // Analysis arrows and rings, above everything.
    draw_arrows(&mut t, &options.arrows, &lay);

    Scene {
        layout: lay,
        open,
        board: s,
        marks: m,
        header,
        pieces: pieces_placed,
        top: t,
    }
}

/// Appends the `<defs>` of a picture: the `used` pieces (kind and colour indices) and
/// every mark, all in a 100 x 100 box.
fn push_defs(open: &mut String, used: &BTreeSet<(usize, usize)>) {
    open.push_str("<defs>");
    for &(ki, ci) in used {
        let kind = Kind::ALL[ki];
        let color = Color::ALL[ci];
        let _ = write!(
            open,
            r#"<g id="{}">{}</g>"#,
            piece_id(kind, color),
            piece_group(kind, color)
        );
    }
    open.push_str(concat!(
        r##"<radialGradient id="chk"><stop offset="0" stop-color="#ff2020"/><stop offset=".4" stop-color="#f21d1d"/><stop offset=".7" stop-color="#e01818" stop-opacity=".75"/><stop offset="1" stop-color="#c81414" stop-opacity="0"/></radialGradient>"##,
        // Explosion (C-6 "exploded", BA-7 co-squares): a translucent starburst, so the
        // destroyed piece drawn under it stays recognisable.
        r##"<path id="blast" d="M50 4l8 22 18-15-5 23 24-3-19 15 20 13-24 1 8 23-19-14-11 21-6-23-20 13 6-23-24-2 21-12-18-17 24 4-3-24 17 17z" fill="#ff6a00" fill-opacity=".42"/>"##,
        r##"<path id="blasto" d="M50 4l8 22 18-15-5 23 24-3-19 15 20 13-24 1 8 23-19-14-11 21-6-23-20 13 6-23-24-2 21-12-18-17 24 4-3-24 17 17z" fill="none" stroke="#b3001b" stroke-width="4" stroke-linejoin="round" stroke-opacity=".8"/>"##,
        // Plain capture: a blue ring round the square (no spikes, no red).
        r##"<rect id="capr" x="4" y="4" width="92" height="92" rx="10" fill="none" stroke="#1f5fbf" stroke-width="7"/>"##,
        // Jumped over (BA-4): a violet cross over the piece.
        r##"<g id="jmpx" stroke="#7b2cbf" stroke-width="9" stroke-linecap="round" stroke-opacity=".85"><path d="M16 16l68 68M84 16L16 84"/></g>"##,
        // Pushed off the board (BA-6): a marker where the piece left the board.
        r##"<g id="offb"><circle cx="0" cy="0" r="15" fill="#00838f" stroke="#fff" stroke-width="3"/><path d="M-6-6l12 12M6-6l-12 12" stroke="#fff" stroke-width="5" stroke-linecap="round"/></g>"##,
        r##"<g id="det" fill="none" stroke="#c4001a" stroke-width="6"><circle cx="50" cy="50" r="38"/><circle cx="50" cy="50" r="18"/><path d="M50 2v24M50 74v24M2 50h24M74 50h24"/></g>"##,
        r##"<g id="frz"><rect x="3" y="3" width="94" height="94" rx="8" fill="#7cc7ff" fill-opacity=".45" stroke="#e8f7ff" stroke-width="5" stroke-dasharray="10 6"/></g>"##,
        // Corner badges are centred on (0, 0) and placed in a free corner of their square
        // (see `Corner`): 23 units in radius (about 14 px across at 260 px wide), with a
        // white rim that separates them from the piece and the square.
        r##"<g id="frzb"><circle r="22" fill="#1565c0" stroke="#fff" stroke-width="3.5"/><path d="M0-15v30M-13-7.5l26 15M-13 7.5l26-15" stroke="#fff" stroke-width="4.5" stroke-linecap="round"/></g>"##,
        r##"<g id="lock"><circle r="22" fill="#2b2926" stroke="#fff" stroke-width="3.5"/><path d="M-7.5-2v-5.5a7.5 7.5 0 0 1 15 0v5.5" fill="none" stroke="#fff" stroke-width="4.5"/><rect x="-11.5" y="-3.5" width="23" height="17" rx="3" fill="#ffd21f"/></g>"##,
        r##"<g id="pv"><rect x="5" y="5" width="90" height="90" rx="6" fill="#e4002b" fill-opacity=".2" stroke="#e4002b" stroke-width="6" stroke-dasharray="16 9"/><path d="M10 10l16 16M90 10L74 26M10 90l16-16M90 90L74 74" stroke="#e4002b" stroke-width="6" stroke-linecap="round"/></g>"##,
        r##"<circle id="badge" cx="0" cy="0" r="23" fill="#fffbe8" stroke="#e07800" stroke-width="4"/>"##,
        // The carrier badge: larger and with a dark rim, legible at 260 px wide.
        r##"<circle id="cbadge" cx="0" cy="0" r="25" fill="#fffbe8" stroke="#7a3d00" stroke-width="4"/>"##,
    ));
    let _ = write!(open, r#"<g id="bomb">{}</g>"#, pieces::bomb_badge());
    open.push_str("</defs>");
}

/// `k`'s index in [`Kind::ALL`]: the sprite defs' key for a kind.
pub(crate) fn kind_index(k: Kind) -> usize {
    Kind::ALL.iter().position(|&x| x == k).unwrap_or(0)
}

/// The pieces standing on the board's squares (none off it), in square order: the order
/// every layer draws them in.
fn pieces_on_board(board: &BoardView) -> Vec<&kaboom_rules::PieceView> {
    let geo = board.variant.geometry();
    let mut on_board: Vec<&kaboom_rules::PieceView> = board
        .pieces
        .iter()
        .filter(|p| geo.contains(p.square))
        .collect();
    on_board.sort_by_key(|p| p.square);
    on_board
}

/// The `<svg>` tag of a picture of `lay`'s size.
fn svg_tag(lay: &Layout) -> String {
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#,
        w = lay.width,
        h = lay.height
    )
}

/// The marks of `last`'s removals, jump path and pushes alone ([`draw_removals`], as
/// the board image draws them above the pieces when no badge or loose bomb shares their
/// squares), as an SVG document of the whole picture's size; `None` when the action
/// removed and pushed nothing. The replay draws them over prerendered squares.
pub(crate) fn removals_svg(
    board: &BoardView,
    last: &LastAction,
    options: &RenderOptions,
    ghost_opacity: f32,
) -> Option<String> {
    if last.removals.is_empty()
        && last.removed.is_empty()
        && last.jump_path.is_empty()
        && last.pushes.is_empty()
    {
        return None;
    }
    let geo = board.variant.geometry();
    let lay = Layout::new(geo, options.orientation, options.size);
    let on_board = pieces_on_board(board);
    let used: BTreeSet<(usize, usize)> = last
        .removals
        .iter()
        .map(|r| (kind_index(r.piece.kind), r.piece.color.index()))
        .collect();
    let mut s = svg_tag(&lay);
    push_defs(&mut s, &used);
    draw_removals(
        &mut s,
        last,
        &on_board,
        &lay,
        ghost_opacity,
        &mut Corners::default(),
    );
    s.push_str("</svg>");
    Some(s)
}

/// The last action's highlight of square `sq` (a translucent rectangle over it), as
/// the marks under the pieces draw it.
pub(crate) fn highlight_rect(lay: &Layout, sq: Square, theme: Theme) -> String {
    let (x, y) = lay.origin(sq);
    format!(
        r#"<rect {} fill="{}" fill-opacity=".55"/>"#,
        lay.rect(x, y),
        palette(theme).highlight
    )
}

/// The header strip of `board`'s picture alone (turn marker and texts, as
/// [`draw_header`] draws them): an SVG document `lay.width` pixels wide and
/// [`Layout::header`] high, over the frame's colour.
pub(crate) fn header_svg(board: &BoardView, lay: &Layout, theme: Theme) -> String {
    let pal = palette(theme);
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#,
        w = lay.width,
        h = lay.header
    );
    let mut used = BTreeSet::new();
    if shows_turn_marker(board) {
        used.insert((kind_index(turn_marker(board)), board.turn.index()));
    }
    push_defs(&mut s, &used);
    let _ = write!(
        s,
        r#"<rect width="{}" height="{}" fill="{}"/>"#,
        lay.width, lay.header, pal.frame
    );
    draw_header(&mut s, board, lay, &pal);
    s.push_str("</svg>");
    s
}

/// The header strip alone with fixed texts (no turn marker): `left` from where the
/// board's header text starts, `right` right-aligned, as [`draw_header`] places them;
/// an SVG document `lay.width` pixels wide and [`Layout::header`] high. The replay's
/// frames between the first and the last show it (their captions carry the move).
pub(crate) fn header_strip_svg(lay: &Layout, theme: Theme, left: &str, right: &str) -> String {
    let pal = palette(theme);
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}"><rect width="{w}" height="{h}" fill="{}"/>"#,
        pal.frame,
        w = lay.width,
        h = lay.header
    );
    header_texts_svg(
        &mut s,
        lay,
        &pal,
        lay.left - 6.0 * lay.k,
        left,
        &[right.to_string()],
    );
    s.push_str("</svg>");
    s
}

/// How a square whose piece the last action removed is marked, strongest first: a
/// square with several removals (an Atomic capture removes the taken piece and the
/// capturer on one square) gets the strongest.
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Debug)]
pub(crate) enum RemovalMark {
    /// Exploded, or on a detonator's co-square (BA-7): a translucent blast.
    Explosion,
    /// Jumped over (BA-4): a violet cross.
    Jump,
    /// Pushed off the board (BA-6): an arrow off the board.
    PushedOff,
    /// Taken by a plain capture: a blue ring.
    Capture,
}

impl RemovalMark {
    /// The mark of one cause.
    pub(crate) fn of(cause: Cause) -> RemovalMark {
        match cause {
            Cause::Exploded | Cause::CoSquare => RemovalMark::Explosion,
            Cause::Jumped => RemovalMark::Jump,
            Cause::PushedOff => RemovalMark::PushedOff,
            Cause::Captured => RemovalMark::Capture,
        }
    }

    /// The colour of the mark and of the small badge of a removed piece.
    fn colour(self) -> &'static str {
        match self {
            RemovalMark::Explosion => "#c2410c",
            RemovalMark::Jump => "#7b2cbf",
            RemovalMark::PushedOff => "#00838f",
            RemovalMark::Capture => "#1f5fbf",
        }
    }
}

/// Centre of a square in pixels.
fn centre(lay: &Layout, sq: Square) -> (f32, f32) {
    let (x, y) = lay.origin(sq);
    (x + lay.sqf() / 2.0, y + lay.sqf() / 2.0)
}

/// An arrow from (`x1`, `y1`) to (`x2`, `y2`) in pixels: a line `w` wide ending in a
/// head at the second point.
fn arrow(t: &mut String, (x1, y1): (f32, f32), (x2, y2): (f32, f32), w: f32, colour: &str) {
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt();
    if len < 1.0 {
        return;
    }
    let (ux, uy) = (dx / len, dy / len);
    let head = (w * 2.6).min(len * 0.6);
    let (bx, by) = (x2 - ux * head, y2 - uy * head);
    let (px, py) = (-uy * w * 1.5, ux * w * 1.5);
    let _ = write!(
        t,
        r#"<g fill="{colour}" stroke="{colour}" opacity=".85"><path d="M{} {}L{} {}" stroke-width="{}" stroke-linecap="round" fill="none"/><path d="M{} {}L{} {}L{} {}z" stroke="none"/></g>"#,
        n(x1),
        n(y1),
        n(bx),
        n(by),
        n(w),
        n(x2),
        n(y2),
        n(bx + px),
        n(by + py),
        n(bx - px),
        n(by - py)
    );
}

/// The analysis arrows ([`RenderOptions::arrows`]), in order, each one translucent
/// outline: a shaft 17 % of a square wide from the centre of `from`, a head 45 % of a
/// square long and 56 % wide whose tip is just short of the centre of `to`; a ring
/// round the square when `from == to`. Arrows with a square off the board are left out.
fn draw_arrows(t: &mut String, arrows: &[Arrow], lay: &Layout) {
    let sqf = lay.sqf();
    let opacity = n4(ARROW_OPACITY);
    for a in arrows {
        if !lay.geo.contains(a.from) || !lay.geo.contains(a.to) {
            continue;
        }
        let colour = a.kind.colour();
        let (from, to) = (centre(lay, a.from), centre(lay, a.to));
        if a.from == a.to {
            let _ = write!(
                t,
                r#"<circle cx="{}" cy="{}" r="{}" fill="none" stroke="{colour}" stroke-width="{}" opacity="{opacity}"/>"#,
                n(from.0),
                n(from.1),
                n(sqf * 0.42),
                n(sqf * 0.1),
            );
            continue;
        }
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let len = (dx * dx + dy * dy).sqrt();
        let (ux, uy) = (dx / len, dy / len);
        // Perpendicular unit vector.
        let (px, py) = (-uy, ux);
        let tip_len = len - sqf * 0.08;
        let head = (sqf * 0.45).min(tip_len * 0.6);
        let (shaft, wing) = (sqf * 0.085, sqf * 0.28);
        let at = |along: f32, across: f32| {
            (
                from.0 + ux * along + px * across,
                from.1 + uy * along + py * across,
            )
        };
        let base = tip_len - head;
        let points = [
            at(0.0, shaft),
            at(base, shaft),
            at(base, wing),
            at(tip_len, 0.0),
            at(base, -wing),
            at(base, -shaft),
            at(0.0, -shaft),
        ];
        let mut d = String::new();
        for (i, (x, y)) in points.iter().enumerate() {
            let _ = write!(d, "{}{} {}", if i == 0 { 'M' } else { 'L' }, n(*x), n(*y));
        }
        let _ = write!(t, r#"<path d="{d}z" fill="{colour}" opacity="{opacity}"/>"#);
    }
}

/// A corner of a square where a badge goes (in the picture, whatever the orientation).
/// Marks stacked on one square take different corners ([`Corners`]), so none hides
/// another: the removed piece's badge top left, a carrier or the imitator's kind top
/// right, a frozen piece's snowflake bottom right, a locked piece's padlock and loose
/// bombs bottom left.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
enum Corner {
    TopLeft,
    TopRight,
    BottomRight,
    BottomLeft,
}

impl Corner {
    /// The order a badge falls back to when its own corner is taken.
    const FALLBACK: [Corner; 4] = [
        Corner::TopLeft,
        Corner::TopRight,
        Corner::BottomLeft,
        Corner::BottomRight,
    ];

    /// The centre of a badge of radius [`BADGE_R`] in this corner, in the square's 100
    /// units (its white rim stays inside the square).
    fn centre(self) -> (f32, f32) {
        self.centre_within(BADGE_R + 1.75)
    }

    /// The centre of a badge reaching `outer` units from it (its radius and half its
    /// rim) in this corner, 0.75 units clear of the square's edges: every mark of a square
    /// stays inside it, so the square's picture does not depend on its neighbours
    /// (`tiles.rs` cuts prerendered squares from board images on that ground).
    fn centre_within(self, outer: f32) -> (f32, f32) {
        let (near, far) = (outer + 0.75, 99.25 - outer);
        match self {
            Corner::TopLeft => (near, near),
            Corner::TopRight => (far, near),
            Corner::BottomRight => (far, far),
            Corner::BottomLeft => (near, far),
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Radius of a corner badge in the square's 100 units: two badges side by side fill the
/// square's width without overlapping.
const BADGE_R: f32 = 24.0;

/// How far the carrier badge (`#cbadge`: radius 25, a rim 4 units wide) reaches from its
/// centre, in the square's 100 units.
const CARRIER_BADGE_OUTER: f32 = 27.0;

/// The corners already taken on each square, so stacked marks go to different ones.
#[derive(Default)]
struct Corners(std::collections::BTreeMap<Square, [bool; 4]>);

impl Corners {
    /// Marks `corner` of `sq` as taken (by a mark that is not a corner badge, such as
    /// the pushed-off marker on the square's edge).
    fn block(&mut self, sq: Square, corner: Corner) {
        self.0.entry(sq).or_default()[corner.index()] = true;
    }

    /// A corner for a badge on `sq`: `preferred` when free, else the first free one in
    /// [`Corner::FALLBACK`] order, else `preferred` anyway (never more than four marks).
    fn take(&mut self, sq: Square, preferred: Corner) -> Corner {
        let taken = self.0.entry(sq).or_default();
        let corner = if !taken[preferred.index()] {
            preferred
        } else {
            Corner::FALLBACK
                .into_iter()
                .find(|c| !taken[c.index()])
                .unwrap_or(preferred)
        };
        taken[corner.index()] = true;
        corner
    }
}

/// A small copy of `piece` in a disc of `colour` centred at (`cx`, `cy`) in the square's
/// 100 units (the badge of a removed piece), with a white rim.
fn piece_badge(t: &mut String, cx: f32, cy: f32, colour: &str, piece: kaboom_rules::Piece) {
    let r = BADGE_R;
    let scale = 0.46;
    let off = 50.0 * scale;
    let _ = write!(
        t,
        r##"<circle cx="{}" cy="{}" r="{}" fill="{colour}" stroke="#fff" stroke-width="3.5"/><use xlink:href="#{}" transform="translate({} {}) scale({scale})"/>"##,
        n(cx),
        n(cy),
        n(r),
        piece_id(piece.kind, piece.color),
        n(cx - off),
        n(cy - off),
    );
}

/// One wave of a Bomberman Chess blast (BM-6): from the exploding bomb's square along a
/// rank or file to the square of the piece it destroyed, or to the board's edge.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub(crate) struct Wave {
    /// The exploding bomb's square.
    pub(crate) from: Square,
    /// The last square the wave reached.
    pub(crate) to: Square,
    /// Whether it destroyed the piece on `to` (else it left the board past `to`).
    pub(crate) hit: bool,
}

/// The waves of the last action's Bomberman blast (BM-5 to BM-7), replayed from the
/// picture's own data: the bomb that exploded first (the detonated one, or the bomb a
/// non-Defuser captured, on the move's target square), the pieces standing after the
/// action and the removed ones (C-6), each wave sent north, east, south, west, skipping
/// the way back, stopping at the first piece and setting off every bomb it hits, in
/// first-in first-out order. Empty for other variants and actions without a blast.
pub(crate) fn bomberman_waves(board: &BoardView, last: &LastAction) -> Vec<Wave> {
    if board.variant != kaboom_rules::Variant::Bomberman {
        return Vec::new();
    }
    let geo = board.variant.geometry();
    let exploded = |sq: Square| {
        last.removals.iter().any(|r| {
            r.square == sq
                && r.piece.kind == Kind::Bomb
                && RemovalMark::of(r.cause) == RemovalMark::Explosion
        })
    };
    let origin = last
        .squares
        .detonation
        .or(last.squares.to)
        .filter(|&sq| exploded(sq));
    let Some(origin) = origin else {
        return Vec::new();
    };
    // What stood on each square when the blast began: the pieces left and the removed
    // ones (the mover stood on the origin, which leaves the board first).
    let mut cells: std::collections::BTreeMap<Square, Kind> = std::collections::BTreeMap::new();
    for p in &board.pieces {
        cells.insert(p.square, p.kind);
    }
    for r in &last.removals {
        cells.entry(r.square).or_insert(r.piece.kind);
        if r.piece.kind == Kind::Bomb {
            cells.insert(r.square, Kind::Bomb);
        }
    }
    cells.remove(&origin);
    // North, east, south, west (BM-6), as file and rank steps.
    const DIRS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let step = |sq: Square, (df, dr): (i8, i8)| -> Option<Square> {
        let f = sq.file().checked_add_signed(df)?;
        let r = sq.rank().checked_add_signed(dr)?;
        Square::new(f, r).filter(|&s| geo.contains(s) && !geo.is_goal(s))
    };
    let mut waves = Vec::new();
    let mut queue = std::collections::VecDeque::from([(origin, None::<usize>)]);
    // At most one explosion per bomb square; a bound on the work for any input.
    let mut exploded_at = vec![origin];
    while let Some((from, back)) = queue.pop_front() {
        for (d, &dir) in DIRS.iter().enumerate() {
            if Some(d) == back {
                continue;
            }
            let mut cur = from;
            let mut reached = None;
            let mut hit = false;
            while let Some(next) = step(cur, dir) {
                cur = next;
                reached = Some(cur);
                if let Some(kind) = cells.remove(&cur) {
                    hit = true;
                    if kind == Kind::Bomb && !exploded_at.contains(&cur) && exploded_at.len() < 100
                    {
                        exploded_at.push(cur);
                        queue.push_back((cur, Some((d + 2) % 4)));
                    }
                    break;
                }
            }
            if let Some(to) = reached {
                waves.push(Wave { from, to, hit });
            }
        }
    }
    waves
}

/// The waves of a Bomberman blast ([`bomberman_waves`]) under the pieces: an orange band
/// with a yellow core along every square a wave crossed, from the bomb's centre to the
/// centre of the piece it destroyed (whose blast mark is drawn above), or across the
/// last square to the board's edge.
fn draw_waves(m: &mut String, waves: &[Wave], lay: &Layout) {
    if waves.is_empty() {
        return;
    }
    let sqf = lay.sqf();
    let mut d = String::new();
    for w in waves {
        let a = centre(lay, w.from);
        let mut b = centre(lay, w.to);
        if !w.hit {
            // On to the board's edge, past the last square's centre.
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = (dx * dx + dy * dy).sqrt();
            if len >= 1.0 {
                b = (b.0 + dx / len * sqf * 0.5, b.1 + dy / len * sqf * 0.5);
            }
        }
        let _ = write!(d, "M{} {}L{} {}", n(a.0), n(a.1), n(b.0), n(b.1));
    }
    let _ = write!(
        m,
        r##"<path d="{d}" fill="none" stroke="#ff6a00" stroke-opacity=".55" stroke-width="{}"/><path d="{d}" fill="none" stroke="#ffd23f" stroke-opacity=".9" stroke-width="{}"/>"##,
        n(sqf * 0.34),
        n(sqf * 0.11)
    );
}

/// The marks of the last action's removals and pushes, above the pieces (C-6): each
/// removed piece is drawn again where it stood (faded, when its square is empty now; as
/// a small badge in a corner of the square when another piece stands there, such as a
/// capturer), under the mark of its cause. A capturer destroyed where it captured (an
/// Atomic capture, a Nuke carrier's blast, a Bomberman bomb taken) is the faded piece on
/// its square and the piece it took the badge. Then the jump path through the landing
/// squares (BA-17), arrows for pushed pieces and, where a piece left the board, the
/// pushed-off piece in a teal disc on the square's edge (BA-6).
fn draw_removals(
    t: &mut String,
    last: &LastAction,
    on_board: &[&kaboom_rules::PieceView],
    lay: &Layout,
    ghost_opacity: f32,
    corners: &mut Corners,
) {
    let geo = lay.geo;
    let sqf = lay.sqf();
    let occupied = |sq: Square| on_board.iter().any(|p| p.square == sq);
    // One entry per square: the first piece removed there (the one that stood there),
    // a later one (a capturer destroyed there) and the strongest mark.
    type Entry = (
        Square,
        Option<kaboom_rules::Piece>,
        Option<kaboom_rules::Piece>,
        RemovalMark,
    );
    let mut marks: Vec<Entry> = Vec::new();
    for r in &last.removals {
        let mark = RemovalMark::of(r.cause);
        match marks.iter_mut().find(|e| e.0 == r.square) {
            Some(entry) => {
                entry.3 = entry.3.min(mark);
                if entry.2.is_none() {
                    entry.2 = Some(r.piece);
                }
            }
            None => marks.push((r.square, Some(r.piece), None, mark)),
        }
    }
    for &sq in &last.removed {
        if !marks.iter().any(|e| e.0 == sq) {
            marks.push((sq, None, None, RemovalMark::Explosion));
        }
    }
    marks.sort_by_key(|m| m.0);
    // The direction of a tank step, for pieces pushed off the board.
    let step = match (last.squares.from, last.squares.to) {
        (Some(f), Some(to)) if f != to => {
            let (a, b) = (centre(lay, f), centre(lay, to));
            let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt().max(1.0);
            Some(((b.0 - a.0) / len, (b.1 - a.1) / len))
        }
        _ => None,
    };
    // The squares pieces were pushed off from, with the piece when known.
    let mut off: Vec<(Square, Option<kaboom_rules::Piece>)> = marks
        .iter()
        .filter(|m| m.3 == RemovalMark::PushedOff)
        .map(|m| (m.0, m.1))
        .collect();
    for p in &last.pushes {
        if p.to.is_none() && !off.iter().any(|o| o.0 == p.from) {
            off.push((p.from, None));
        }
    }
    off.sort_by_key(|o| o.0);
    // The marker on the edge takes the two corners beside that edge.
    if let Some((ux, uy)) = step {
        let beside = if ux.abs() >= uy.abs() {
            if ux > 0.0 {
                [Corner::TopRight, Corner::BottomRight]
            } else {
                [Corner::TopLeft, Corner::BottomLeft]
            }
        } else if uy > 0.0 {
            [Corner::BottomLeft, Corner::BottomRight]
        } else {
            [Corner::TopLeft, Corner::TopRight]
        };
        for &(sq, _) in &off {
            for c in beside {
                corners.block(sq, c);
            }
        }
    }
    for &(sq, piece, capturer, mark) in &marks {
        if !geo.contains(sq) {
            continue;
        }
        let (x, y) = lay.origin(sq);
        let on_edge = mark == RemovalMark::PushedOff && step.is_some();
        // The blast's translucent fill goes under the destroyed piece, its outline over it.
        if mark == RemovalMark::Explosion && !occupied(sq) {
            let _ = write!(t, r##"<use xlink:href="#blast" {}/>"##, lay.place(x, y));
        }
        // The piece drawn faded on the square, and the one shown as a corner badge.
        let (faded, badge) = match (piece, capturer) {
            _ if occupied(sq) => (None, piece.filter(|_| !on_edge)),
            (Some(p), Some(c)) => (Some(c), Some(p)),
            (p, _) => (p, None),
        };
        if let Some(piece) = faded {
            let _ = write!(
                t,
                r##"<use xlink:href="#{}" opacity="{}" {}/>"##,
                piece_id(piece.kind, piece.color),
                n4(ghost_opacity.clamp(0.0, 1.0)),
                lay.place(x, y)
            );
        }
        let id = match mark {
            RemovalMark::Explosion => Some("blasto"),
            RemovalMark::Jump => Some("jmpx"),
            RemovalMark::Capture => Some("capr"),
            RemovalMark::PushedOff => None,
        };
        if let Some(id) = id {
            let _ = write!(t, r##"<use xlink:href="#{id}" {}/>"##, lay.place(x, y));
        }
        if let Some(piece) = badge {
            let (cx, cy) = corners.take(sq, Corner::TopLeft).centre();
            let _ = write!(t, "<g {}>", lay.place(x, y));
            piece_badge(t, cx, cy, mark.colour(), piece);
            t.push_str("</g>");
        }
    }
    // The jump path (BA-17): from the start square through every landing square.
    if let Some(from) = last.squares.from.filter(|_| !last.jump_path.is_empty()) {
        let mut d = String::new();
        let points: Vec<(f32, f32)> = std::iter::once(from)
            .chain(last.jump_path.iter().copied())
            .filter(|&s| geo.contains(s))
            .map(|s| centre(lay, s))
            .collect();
        for (i, (px, py)) in points.iter().enumerate() {
            let _ = write!(d, "{}{} {}", if i == 0 { 'M' } else { 'L' }, n(*px), n(*py));
        }
        let colour = RemovalMark::Jump.colour();
        let _ = write!(
            t,
            r#"<path d="{d}" fill="none" stroke="{colour}" stroke-width="{}" stroke-linejoin="round" stroke-linecap="round" stroke-opacity=".85"/>"#,
            n(sqf * 0.08)
        );
        for (i, &(px, py)) in points.iter().enumerate().skip(1) {
            let last_point = i + 1 == points.len();
            let r = if last_point { 0.16 } else { 0.11 };
            let _ = write!(
                t,
                r##"<circle cx="{}" cy="{}" r="{}" fill="{}" stroke="#fff" stroke-width="{}"/>"##,
                n(px),
                n(py),
                n(sqf * r),
                if last_point { "#fff" } else { colour },
                n(sqf * 0.035)
            );
            if last_point {
                let _ = write!(
                    t,
                    r#"<circle cx="{}" cy="{}" r="{}" fill="{colour}"/>"#,
                    n(px),
                    n(py),
                    n(sqf * 0.08)
                );
            }
        }
    }
    // Pushes (BA-6, BA-14): an arrow per pushed piece.
    let colour = RemovalMark::PushedOff.colour();
    for p in &last.pushes {
        if let Some(to) = p.to
            && geo.contains(p.from)
            && geo.contains(to)
        {
            let (a, b) = (centre(lay, p.from), centre(lay, to));
            // From just past the piece's centre to just short of the next one.
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            arrow(
                t,
                (a.0 + dx * 0.25, a.1 + dy * 0.25),
                (a.0 + dx * 0.8, a.1 + dy * 0.8),
                sqf * 0.08,
                colour,
            );
        }
    }
    // Pushed off (BA-6): an arrow to the square's edge, where the piece that left sits
    // in a teal disc with a white rim (or the off-board marker, a cross, when the piece
    // is not known).
    let Some((ux, uy)) = step else {
        return;
    };
    for (sq, piece) in off {
        if !geo.contains(sq) {
            continue;
        }
        let a = centre(lay, sq);
        let reach = (50.0 - BADGE_R) / 100.0;
        let end = (a.0 + ux * sqf * reach, a.1 + uy * sqf * reach);
        arrow(
            t,
            (a.0 - ux * sqf * 0.1, a.1 - uy * sqf * 0.1),
            (
                a.0 + ux * sqf * (reach - 0.12),
                a.1 + uy * sqf * (reach - 0.12),
            ),
            sqf * 0.08,
            colour,
        );
        let _ = write!(
            t,
            r#"<g transform="translate({} {}) scale({})">"#,
            n(end.0),
            n(end.1),
            n4(sqf / 100.0)
        );
        match piece {
            Some(piece) => piece_badge(t, 0.0, 0.0, colour, piece),
            None => t.push_str(r##"<use xlink:href="#offb" transform="scale(1.5)"/>"##),
        }
        t.push_str("</g>");
    }
}

/// The piece drawn in the header for the side to move: its king, or a tweke in
/// Bombalot, which has no king.
fn turn_marker(board: &BoardView) -> Kind {
    match board.variant {
        kaboom_rules::Variant::Bombalot => Kind::Tweke,
        _ => Kind::King,
    }
}

/// Whether the header shows whose turn it is with a piece.
fn shows_turn_marker(board: &BoardView) -> bool {
    !board.status.is_finished() && board.awaiting_designation.is_empty()
}

fn draw_header(s: &mut String, board: &BoardView, lay: &Layout, pal: &Palette) {
    let k = lay.k;
    let (left, right) = header_texts(board);
    // The side to move's king (or tweke) as a marker (none once the game is over or
    // while both sides choose their carriers).
    let mut x = lay.left - 6.0 * k;
    if shows_turn_marker(board) {
        let _ = write!(
            s,
            r##"<use xlink:href="#{}" transform="translate({} {}) scale({})"/>"##,
            piece_id(turn_marker(board), board.turn),
            n(x),
            n(lay.header / 2.0 - 27.0 * k),
            n4(0.62 * k)
        );
        x += 66.0 * k;
    }
    header_texts_svg(s, lay, pal, x, &left, &right);
}

/// The header's texts: `left` from `x`, then the first of `right` that fits (or the
/// last, shrinking `left`), right-aligned ([`draw_header`]).
fn header_texts_svg(
    s: &mut String,
    lay: &Layout,
    pal: &Palette,
    x: f32,
    left: &str,
    right: &[String],
) {
    let k = lay.k;
    let size = 36.0 * k;
    let base = lay.header / 2.0 + text::cap_height(size) / 2.0 + 4.0 * k;
    let right_x = lay.width as f32 - (RIGHT + 4.0) * k;
    let left_w = text::width(left, size);
    // The first right-hand text that fits; if none does, the shortest (the variant's
    // name or the move number) anyway, and the main line shrinks to make room: every
    // image names its variant.
    let fitting = right
        .iter()
        .find(|r| x + left_w + 24.0 * k + text::width(r, size) <= right_x)
        .cloned();
    let right = fitting.or_else(|| right.last().cloned());
    let right_w = right
        .as_ref()
        .map_or(0.0, |r| text::width(r, size) + 24.0 * k);
    // Shrink the main line if it does not fit the width (long results on 8 files).
    let avail = right_x - x - right_w;
    let size_left = if left_w > avail {
        size * avail / left_w
    } else {
        size
    };
    let d = text::path_data(left, x, base, size_left, Anchor::Start);
    let _ = write!(s, r#"<path d="{d}" fill="{}"/>"#, pal.header_text);
    if let Some(right) = right {
        let d = text::path_data(&right, right_x, base, size, Anchor::End);
        let _ = write!(s, r#"<path d="{d}" fill="{}"/>"#, pal.header_dim);
    }
}

/// Bombalot's goal labels (`d9`, `e9`, `d0`, `e0`; BA-2): each goal square's name in the
/// frame beside it, on the side away from the other goal of its pair (left of the left
/// one, right of the right one, whatever the orientation), level with the square's
/// outer part (away from the board, so clear of the file letters). Outside the square,
/// so a piece standing in the goal never covers it; in the coordinates' font, a little
/// larger and in the header's bright colour, so that it reads at Discord's 260 px
/// preview.
fn draw_goal_labels(s: &mut String, lay: &Layout, pal: &Palette) {
    let k = lay.k;
    let size = GOAL_LABEL * k;
    let cap = text::cap_height(size);
    let sq = lay.sqf();
    let mut d = String::new();
    for goal in Geometry::GOAL_SQUARES {
        let (x, y) = lay.origin(goal);
        let partner = Geometry::GOAL_SQUARES
            .into_iter()
            .find(|g| *g != goal && g.rank() == goal.rank());
        let left_of_partner = partner.is_some_and(|g| lay.origin(g).0 > x);
        // Level with the square's outer part (30 % of the way down above the board,
        // 70 % below it): below the board that keeps it clear of the c and f letters.
        let outer = if y < lay.board_y { 0.3 } else { 0.7 };
        let baseline = y + sq * outer + cap / 2.0;
        let (lx, anchor) = if left_of_partner {
            (x - GOAL_LABEL_GAP * k, Anchor::End)
        } else {
            (x + sq + GOAL_LABEL_GAP * k, Anchor::Start)
        };
        d.push_str(&text::path_data(
            &goal.to_string(),
            lx,
            baseline,
            size,
            anchor,
        ));
    }
    let _ = write!(s, r#"<path d="{d}" fill="{}"/>"#, pal.header_text);
}

/// Size of a goal label, in design units (the coordinates are 28).
const GOAL_LABEL: f32 = 32.0;
/// Gap between a goal square and its label, in design units.
const GOAL_LABEL_GAP: f32 = 10.0;

fn draw_coordinates(s: &mut String, lay: &Layout, pal: &Palette) {
    let geo = lay.geo;
    let k = lay.k;
    let size = 28.0 * k;
    let cap = text::cap_height(size);
    let sq = lay.sqf();
    let mut d = String::new();
    // Ranks on the left.
    for rank in 1..=geo.ranks {
        let y = lay.board_y + lay.row(rank) * sq + sq / 2.0 + cap / 2.0;
        d.push_str(&text::path_data(
            &rank.to_string(),
            lay.left / 2.0,
            y,
            size,
            Anchor::Middle,
        ));
    }
    // Files below the board (below the goal for Bombalot's d and e files).
    let below = lay.board_y + f32::from(geo.ranks) * sq;
    for file in 0..geo.files {
        let letter = ((b'a' + file) as char).to_string();
        let x = lay.left + lay.column(file) * sq + sq / 2.0;
        let goal_below = geo.goals && (file == 3 || file == 4);
        let y = if goal_below {
            below + lay.gap + sq + 32.0 * k
        } else {
            below + 32.0 * k
        };
        d.push_str(&text::path_data(&letter, x, y, size, Anchor::Middle));
    }
    let _ = write!(s, r#"<path d="{d}" fill="{}"/>"#, pal.coords);
}

#[cfg(test)]
mod tests {
    use super::*;
    use kaboom_rules::{EndReason, Outcome, Variant};

    fn view() -> BoardView {
        BoardView {
            variant: Variant::Atomic,
            pieces: Vec::new(),
            loose_bombs: Vec::new(),
            turn: Color::Black,
            fullmoves: 12,
            checked: Vec::new(),
            status: Status::Ongoing,
            awaiting_designation: Vec::new(),
        }
    }

    #[test]
    fn header_says_who_moves_the_move_number_and_the_result() {
        let mut b = view();
        assert_eq!(
            header_texts(&b),
            (
                "Black to move".to_string(),
                vec!["Atomic \u{b7} Move 12".to_string(), "Atomic".to_string()]
            )
        );
        b.checked = vec!["e8".parse().unwrap()];
        assert_eq!(header_texts(&b).0, "Black to move \u{b7} check");
        b.status = Status::Finished(Outcome::win(Color::White, EndReason::Checkmate));
        assert_eq!(
            header_texts(&b).0,
            "1\u{2013}0  White wins \u{b7} checkmate"
        );
        b.status = Status::Finished(Outcome::draw(EndReason::Stalemate));
        assert_eq!(
            header_texts(&b).0,
            "\u{bd}\u{2013}\u{bd}  Draw \u{b7} stalemate"
        );
        b.status = Status::Finished(Outcome::draw(EndReason::Aborted));
        assert_eq!(header_texts(&b).0, "Aborted");
        let mut b = view();
        b.awaiting_designation = vec![Color::White];
        assert_eq!(header_texts(&b).0, "Choosing bomb carriers");
    }

    #[test]
    fn squares_are_whole_pixels_and_the_picture_is_not_square() {
        for geo in [Geometry::CHESS, Geometry::BOMBERMAN, Geometry::BOMBALOT] {
            for size in [64, 333, 640, 1001] {
                let lay = Layout::new(geo, Orientation::White, size);
                assert_eq!(lay.width, size);
                // Clearly not square (chat clients crop square images); at thumbnail
                // sizes the margins round to a few pixels.
                if size >= 200 {
                    let diff = lay.height.abs_diff(lay.width);
                    assert!(diff > lay.width / 20, "{geo:?} {size}");
                }
                let a1 = lay.origin("a1".parse().unwrap());
                let b2 = lay.origin("b2".parse().unwrap());
                assert_eq!(a1.0.fract(), 0.0);
                assert_eq!(a1.1.fract(), 0.0);
                assert_eq!(b2.0 - a1.0, lay.sq as f32);
                assert_eq!(a1.1 - b2.1, lay.sq as f32);
                // The board fits in the picture.
                let right = a1.0 + f32::from(geo.files) * lay.sq as f32;
                assert!(right <= size as f32);
            }
        }
    }
}
