//! Bomberman FEN: reading and writing (documented on [`super::Bomberman`]).

use super::{Bomberman, CastlingSide, KING_FILE, home_rank};
use crate::bomberman::board::{Board, in_check, on_board};
use crate::{Color, FenError, Kind, Piece, Square};

/// The FEN letter of a piece: `K D O R B N P Q` (Q is the King Battler), lower case for Black.
pub(crate) fn piece_char(piece: Piece) -> char {
    let c = match piece.kind {
        Kind::King => 'K',
        Kind::Defuser => 'D',
        Kind::Bomb => 'O',
        Kind::Rook => 'R',
        Kind::Bishop => 'B',
        Kind::Knight => 'N',
        Kind::Pawn => 'P',
        _ => 'Q',
    };
    match piece.color {
        Color::White => c,
        Color::Black => c.to_ascii_lowercase(),
    }
}

/// The kind an uppercase piece letter names, in FEN and in SAN (`Q` is the King Battler).
pub(super) fn letter_kind(c: char) -> Option<Kind> {
    Some(match c {
        'K' => Kind::King,
        'D' => Kind::Defuser,
        'O' => Kind::Bomb,
        'R' => Kind::Rook,
        'B' => Kind::Bishop,
        'N' => Kind::Knight,
        'P' => Kind::Pawn,
        'Q' => Kind::KingBattler,
        _ => return None,
    })
}

fn char_piece(c: char) -> Option<Piece> {
    let kind = letter_kind(c.to_ascii_uppercase())?;
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    Some(Piece::new(color, kind))
}

/// The castling field for the rights bits (`KQkq` order, `-` for none).
pub(crate) fn castling_field(rights: u8) -> String {
    let s: String = [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')]
        .iter()
        .filter(|(b, _)| rights & b != 0)
        .map(|&(_, c)| c)
        .collect();
    if s.is_empty() { "-".into() } else { s }
}

/// Writes the six-field serialization.
pub(crate) fn write(pos: &Bomberman) -> String {
    let mut out = String::with_capacity(90);
    for rank in (1..=8u8).rev() {
        let mut empty = 0;
        for file in 0..10u8 {
            match pos.board[(rank * 10 + file) as usize] {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(piece_char(p));
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 1 {
            out.push('/');
        }
    }
    let ep = pos.ep.map_or("-".to_string(), |s| super::sq(s).to_string());
    format!(
        "{out} {} {} {ep} {} {}",
        pos.turn.fen_char(),
        castling_field(pos.castling),
        pos.halfmoves,
        pos.fullmoves
    )
}

fn placement(fen: &str, field: &str) -> Result<Board, FenError> {
    let mut board: Board = [None; 100];
    let ranks = crate::fen::ranks(fen, field, |n| {
        format!("the board has {n} ranks separated by '/'; Bomberman Chess has 8")
    })?;
    for (rank, text) in ranks {
        let mut file = 0u8;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                let mut n = d;
                if d == 1 && chars.peek() == Some(&'0') {
                    chars.next();
                    n = 10;
                }
                if n == 0 {
                    return Err(FenError::new(
                        crate::FenErrorKind::Board,
                        fen,
                        format!("rank {rank}: '0' is not a count of empty squares (1 to 10)"),
                    ));
                }
                file += n as u8;
            } else {
                let piece = char_piece(c).ok_or_else(|| {
                    FenError::new(crate::FenErrorKind::Board,
                        fen,
                        format!(
                            "rank {rank}: '{c}' is not a piece; expected K, D, O, R, B, N, P, Q (King Battler) or lower case for Black, or a digit count"
                        ),
                    )
                })?;
                if file < 10 {
                    board[(rank * 10 + file) as usize] = Some(piece);
                }
                file += 1;
            }
            if file > 10 {
                return Err(FenError::new(
                    crate::FenErrorKind::Board,
                    fen,
                    format!("rank {rank} ('{text}') has more than 10 squares"),
                ));
            }
        }
        if file != 10 {
            return Err(FenError::new(
                crate::FenErrorKind::Board,
                fen,
                format!("rank {rank} ('{text}') has {file} squares; each rank has 10 (a-j)"),
            ));
        }
    }
    Ok(board)
}

/// Reads a six-field (or four-field EPD) serialization and checks it describes a
/// position legal play could reach in the ways that matter to the rules.
pub(crate) fn parse(fen: &str) -> Result<Bomberman, FenError> {
    let fields = crate::fen::six_or_four_fields(
        fen,
        "expected 6 fields (placement, side to move, castling, en passant, halfmove clock, fullmove number) or 4 without the clocks",
    )?;
    let board = placement(fen, fields[0])?;
    let turn = crate::fen::side_to_move(fen, fields[1], |other| {
        format!("side to move '{other}' should be w or b")
    })?;
    for color in Color::ALL {
        let kings = board
            .iter()
            .filter(|p| **p == Some(Piece::new(color, Kind::King)))
            .count();
        if kings != 1 {
            return Err(FenError::new(
                crate::FenErrorKind::Impossible,
                fen,
                format!("{color} has {kings} kings; each side has exactly one"),
            ));
        }
    }
    for s in (10..20).chain(80..90) {
        if board[s].is_some_and(|p| p.kind == Kind::Pawn) {
            return Err(FenError::new(
                crate::FenErrorKind::Impossible,
                fen,
                format!(
                    "a pawn stands on {}; pawns never stand on rank 1 or 8 (they promote, BM-3)",
                    super::sq(s as u8)
                ),
            ));
        }
    }
    let mut castling = 0u8;
    if fields[2] != "-" {
        for c in fields[2].chars() {
            let (color, side) = match c {
                'K' => (Color::White, CastlingSide::King),
                'Q' => (Color::White, CastlingSide::Queen),
                'k' => (Color::Black, CastlingSide::King),
                'q' => (Color::Black, CastlingSide::Queen),
                _ => {
                    return Err(FenError::new(
                        crate::FenErrorKind::Castling,
                        fen,
                        format!(
                            "castling '{}' should be '-' or letters from KQkq",
                            fields[2]
                        ),
                    ));
                }
            };
            let bit = side.right(color);
            if castling & bit != 0 {
                return Err(FenError::new(
                    crate::FenErrorKind::Castling,
                    fen,
                    format!("castling right '{c}' is repeated"),
                ));
            }
            let rank = home_rank(color);
            let rook_file = side.files().1;
            if board[(rank * 10 + KING_FILE) as usize] != Some(Piece::new(color, Kind::King))
                || board[(rank * 10 + rook_file) as usize] != Some(Piece::new(color, Kind::Rook))
            {
                return Err(FenError::new(
                    crate::FenErrorKind::Castling,
                    fen,
                    format!(
                        "castling right '{c}' needs {color}'s king on f{rank} and rook on {}{rank}", // BM-4
                        (b'a' + rook_file) as char
                    ),
                ));
            }
            castling |= bit;
        }
    }
    let ep = match fields[3] {
        "-" => None,
        text => {
            let square: Square = text.parse().map_err(|e| {
                FenError::new(
                    crate::FenErrorKind::EnPassant,
                    fen,
                    format!("en passant: {e}, or '-'"),
                )
            })?;
            let s = square.index();
            let (ep_rank, pawn_rank) = match turn {
                Color::White => (6, 5),
                Color::Black => (3, 4),
            };
            let pawn = ((pawn_rank * 10) + s % 10) as usize;
            let origin = (((2 * ep_rank) as i8 - pawn_rank as i8) as u8 * 10 + s % 10) as usize;
            if !on_board(s)
                || square.rank() != ep_rank
                || board[pawn] != Some(Piece::new(!turn, Kind::Pawn))
                || board[s as usize].is_some()
                || board[origin].is_some()
            {
                return Err(FenError::new(
                    crate::FenErrorKind::EnPassant,
                    fen,
                    format!(
                        "en passant square {text} does not follow a double step: with {} to move it must be on rank {ep_rank}, empty, with the square behind it empty and {}'s pawn in front of it",
                        turn, !turn
                    ),
                ));
            }
            Some(s)
        }
    };
    let (halfmoves, fullmoves) = crate::fen::clocks(
        fen,
        &fields,
        |half| format!("halfmove clock '{half}' should be a whole number"),
        |full| format!("fullmove number '{full}' should be a number from 1"),
    )?;
    if in_check(&board, !turn) {
        return Err(FenError::new(
            crate::FenErrorKind::Impossible,
            fen,
            format!(
                "{} is in check but it is {}'s turn: no legal move leaves the mover in check", // BM-8
                !turn, turn
            ),
        ));
    }
    Ok(Bomberman {
        board,
        turn,
        castling,
        ep,
        halfmoves,
        fullmoves,
    })
}
