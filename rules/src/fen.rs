//! What the variants' own serializations (Bombalot, Bomberman) read the same way: the
//! count of fields, the side to move, the ranks of the placement and the clocks. The
//! reasons of the errors stay each variant's own.

use crate::{Color, FenError, FenErrorKind};

/// The whitespace-separated fields of `fen`: six, or the first four without the clocks.
/// `expected` starts the reason for another count (`"{expected}, found {n}"`).
pub(crate) fn six_or_four_fields<'a>(
    fen: &'a str,
    expected: &str,
) -> Result<Vec<&'a str>, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() != 6 && fields.len() != 4 {
        return Err(FenError::new(
            FenErrorKind::Fields,
            fen,
            format!("{expected}, found {}", fields.len()),
        ));
    }
    Ok(fields)
}

/// The side to move of the field `w` or `b`; `reason` explains any other `field`.
pub(crate) fn side_to_move(
    fen: &str,
    field: &str,
    reason: impl FnOnce(&str) -> String,
) -> Result<Color, FenError> {
    match field {
        "w" => Ok(Color::White),
        "b" => Ok(Color::Black),
        other => Err(FenError::new(FenErrorKind::Turn, fen, reason(other))),
    }
}

/// The 8 ranks of the placement `field` separated by `/`, rank 8 first, each with its
/// number; `reason` explains another count of ranks.
pub(crate) fn ranks<'a>(
    fen: &str,
    field: &'a str,
    reason: impl FnOnce(usize) -> String,
) -> Result<impl Iterator<Item = (u8, &'a str)>, FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::new(FenErrorKind::Board, fen, reason(ranks.len())));
    }
    Ok(ranks
        .into_iter()
        .enumerate()
        .map(|(i, text)| (8 - i as u8, text)))
}

/// The halfmove clock and fullmove number of six `fields` (`0 1` for four): a number and
/// a number from 1, with `half` and `full` explaining a field that is not.
pub(crate) fn clocks(
    fen: &str,
    fields: &[&str],
    half: impl FnOnce(&str) -> String,
    full: impl FnOnce(&str) -> String,
) -> Result<(u32, u32), FenError> {
    if fields.len() != 6 {
        return Ok((0, 1));
    }
    let halfmoves = fields[4]
        .parse()
        .map_err(|_| FenError::new(FenErrorKind::Clocks, fen, half(fields[4])))?;
    let fullmoves = fields[5]
        .parse()
        .ok()
        .filter(|&n: &u32| n >= 1)
        .ok_or_else(|| FenError::new(FenErrorKind::Clocks, fen, full(fields[5])))?;
    Ok((halfmoves, fullmoves))
}
