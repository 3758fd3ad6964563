//! The serialization documented on [`super::Bombalot`] (module docs, "Serialization").

use super::{Bombalot, Cell, scoring_goal};
use crate::{Color, FenError, Geometry, Kind, Square};

/// The FEN letter of a Bombalot kind (upper case), `None` for kinds of other variants.
pub(super) fn letter(kind: Kind) -> Option<char> {
    Some(match kind {
        Kind::Tweke => 'W',
        Kind::SuperTweke => 'S',
        Kind::Tank => 'T',
        Kind::Detonator => 'D',
        Kind::Immobilizer => 'M',
        Kind::Bomb => 'O',
        Kind::Imitator => 'I',
        _ => return None,
    })
}

/// The kind of a FEN letter (either case).
pub(super) fn kind_of(c: char) -> Option<Kind> {
    Some(match c.to_ascii_uppercase() {
        'W' => Kind::Tweke,
        'S' => Kind::SuperTweke,
        'T' => Kind::Tank,
        'D' => Kind::Detonator,
        'M' => Kind::Immobilizer,
        'O' => Kind::Bomb,
        'I' => Kind::Imitator,
        _ => return None,
    })
}

fn cased(c: char, color: Color) -> char {
    match color {
        Color::White => c.to_ascii_uppercase(),
        Color::Black => c.to_ascii_lowercase(),
    }
}

fn write_cell(out: &mut String, cell: Cell) {
    out.push(cased(letter(cell.kind).unwrap_or('?'), cell.color));
    if cell.kind == Kind::Imitator
        && let Some(power) = cell.power
    {
        out.push('(');
        out.push(cased(letter(power).unwrap_or('?'), cell.color));
        out.push(')');
    }
}

/// Writes the six fields.
pub(super) fn write(pos: &Bombalot) -> String {
    let mut out = String::with_capacity(80);
    for rank in (1..=8u8).rev() {
        let mut empty = 0;
        for file in 0..8u8 {
            let sq = Square::new(file, rank).expect("a1-h8 are on the grid");
            match pos.cell(sq) {
                Some(cell) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    write_cell(&mut out, cell);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if rank > 1 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(pos.turn.fen_char());
    out.push(' ');
    for g in Geometry::GOAL_SQUARES {
        match pos.cell(g) {
            Some(cell) => write_cell(&mut out, cell),
            None => out.push('-'),
        }
    }
    out.push(' ');
    for color in Color::ALL {
        match pos.last_moved[color.index()].and_then(letter) {
            Some(c) => out.push(cased(c, color)),
            None => out.push('-'),
        }
    }
    out.push_str(&format!(" {} {}", pos.halfmoves, pos.fullmoves));
    out
}

/// Reads one piece token (`W`, `i`, `I(D)`, `i(o)`) from the front of `chars`.
fn read_cell(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    fen: &str,
) -> Result<Cell, FenError> {
    let c = chars.next().ok_or_else(|| {
        FenError::new(crate::FenErrorKind::Board, fen, "a piece letter is missing")
    })?;
    let kind = kind_of(c).ok_or_else(|| {
        FenError::new(crate::FenErrorKind::Board,
            fen,
            format!("'{c}' is not a Bombalot piece: expected one of W S T D M O I (white) or w s t d m o i (black)"),
        )
    })?;
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    let mut cell = Cell::new(color, kind);
    if chars.peek() == Some(&'(') {
        chars.next();
        if kind != Kind::Imitator {
            return Err(FenError::new(
                crate::FenErrorKind::Board,
                fen,
                format!("'{c}(' : only an imitator (I/i) carries an imitated kind in parentheses"),
            ));
        }
        let p = chars.next().unwrap_or(')');
        let power = kind_of(p).filter(|&k| k != Kind::Imitator).ok_or_else(|| {
            FenError::new(
                crate::FenErrorKind::Board,
                fen,
                format!("'{p}' is not a kind an imitator can imitate: expected W S T D M O"),
            )
        })?;
        if chars.next() != Some(')') {
            return Err(FenError::new(
                crate::FenErrorKind::Board,
                fen,
                "an imitated kind must be closed with ')', like I(D)",
            ));
        }
        cell.power = Some(power);
    }
    Ok(cell)
}

/// Parses the six fields (or the first four, with clocks `0 1`).
pub(super) fn parse(fen: &str) -> Result<Bombalot, FenError> {
    let fields = crate::fen::six_or_four_fields(
        fen,
        "expected 6 fields (placement, side to move, goals, last moved kinds, halfmove clock, fullmove number) or the first 4",
    )?;
    let mut pos = Bombalot::empty(Color::White);
    let ranks = crate::fen::ranks(fen, fields[0], |n| {
        format!("the placement needs 8 ranks separated by '/', found {n}")
    })?;
    for (rank, text) in ranks {
        let mut file = 0u8;
        let mut chars = text.chars().peekable();
        while let Some(&c) = chars.peek() {
            if let Some(d) = c.to_digit(10) {
                chars.next();
                if d == 0 {
                    return Err(FenError::new(
                        crate::FenErrorKind::Board,
                        fen,
                        format!("rank {rank}: 0 is not a run of empty squares"),
                    ));
                }
                file += d as u8;
            } else {
                let cell = read_cell(&mut chars, fen)?;
                if file < 8 {
                    pos.set(Square::new(file, rank).expect("on the grid"), Some(cell));
                }
                file += 1;
            }
            if file > 8 {
                return Err(FenError::new(
                    crate::FenErrorKind::Board,
                    fen,
                    format!("rank {rank} has more than 8 squares"),
                ));
            }
        }
        if file != 8 {
            return Err(FenError::new(
                crate::FenErrorKind::Board,
                fen,
                format!("rank {rank} has {file} squares, expected 8"),
            ));
        }
    }
    pos.turn = crate::fen::side_to_move(fen, fields[1], |other| {
        format!("side to move '{other}': expected w or b")
    })?;
    let mut chars = fields[2].chars().peekable();
    for g in Geometry::GOAL_SQUARES {
        match chars.peek() {
            Some('-') => {
                chars.next();
            }
            Some(_) => {
                let cell = read_cell(&mut chars, fen)?;
                if !scoring_goal(cell.color, g) {
                    return Err(FenError::new(
                        crate::FenErrorKind::VariantFields,
                        fen,
                        format!(
                            "goal {g} holds a {} piece, but only {} pieces can enter it", // BA-2
                            cell.color,
                            cell.color.other()
                        ),
                    ));
                }
                pos.set(g, Some(cell));
            }
            None => {
                return Err(FenError::new(
                    crate::FenErrorKind::VariantFields,
                    fen,
                    "the goals field needs 4 entries (d0 e0 d9 e9), each '-' or a piece, like ----",
                ));
            }
        }
    }
    if chars.next().is_some() {
        return Err(FenError::new(
            crate::FenErrorKind::VariantFields,
            fen,
            "the goals field has more than 4 entries (d0 e0 d9 e9)",
        ));
    }
    let last: Vec<char> = fields[3].chars().collect();
    if last.len() != 2 {
        return Err(FenError::new(
            crate::FenErrorKind::VariantFields,
            fen,
            "the last-moved field needs 2 characters: White's kind then Black's, each a letter of W S T D M O or '-', like --",
        ));
    }
    for (color, &c) in Color::ALL.iter().zip(&last) {
        pos.last_moved[color.index()] = if c == '-' {
            None
        } else {
            Some(kind_of(c).filter(|&k| k != Kind::Imitator).ok_or_else(|| {
                FenError::new(
                    crate::FenErrorKind::VariantFields,
                    fen,
                    format!("last moved kind '{c}': expected one of W S T D M O or '-'"),
                )
            })?)
        };
    }
    for color in Color::ALL {
        let count = Geometry::BOMBALOT
            .squares()
            .filter(|&sq| pos.cell(sq).is_some_and(|c| c.color == color))
            .count();
        if count > 16 {
            return Err(FenError::new(
                crate::FenErrorKind::Impossible,
                fen,
                format!("{count} {color} pieces: a side has at most 16 in Bombalot"), // BA-1
            ));
        }
    }
    (pos.halfmoves, pos.fullmoves) = crate::fen::clocks(
        fen,
        &fields,
        |half| format!("halfmove clock '{half}': expected a number"),
        |full| format!("fullmove number '{full}': expected a number from 1"),
    )?;
    Ok(pos)
}
