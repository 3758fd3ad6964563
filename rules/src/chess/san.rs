//! SAN and coordinate notation for the 8x8 chess-like variants (C-5).

use super::{Move, MoveKind, Role, sq, square};
use crate::notation::strip_decorations;
use crate::{ActionError, IllegalActionError, ParseActionError, Square};

/// The grammar accepted for chess moves, for error messages.
pub(crate) const GRAMMAR: &str =
    "SAN like Nf3, exd5, Nbd7, O-O (or 0-0), e8=Q, or coordinates like e2e4, e7e8q";

/// A parsed chess move text, before it is matched against the legal moves.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub(crate) enum Pattern {
    /// `O-O` (`long: false`) or `O-O-O`.
    Castle {
        /// Queen-side castling.
        long: bool,
    },
    /// SAN: role (pawn if `None` letter), disambiguation, destination, promotion.
    San {
        role: Role,
        file: Option<u8>,
        rank: Option<u8>,
        to: u8,
        promotion: Option<Role>,
    },
    /// Coordinates: from, to, promotion.
    Coord {
        from: u8,
        to: u8,
        promotion: Option<Role>,
    },
}

fn square_at(text: &str) -> Option<u8> {
    text.parse::<Square>().ok().and_then(sq)
}

/// Parses the move text (decorations stripped) into a [`Pattern`].
pub(crate) fn parse(text: &str) -> Option<Pattern> {
    let t = text.trim();
    if !t.is_ascii() {
        return None; // every form below is ASCII; slicing by bytes is then safe
    }
    match t {
        "O-O" | "0-0" => return Some(Pattern::Castle { long: false }),
        "O-O-O" | "0-0-0" => return Some(Pattern::Castle { long: true }),
        _ => {}
    }
    let bytes = t.as_bytes();
    // Coordinates: e2e4, e7e8q, e2-e4, e7-e8=Q.
    if bytes.len() >= 4 && bytes[0].is_ascii_lowercase() && bytes[1].is_ascii_digit() {
        let rest = t[2..].trim_start_matches(['-', 'x']);
        if rest.len() >= 2
            && rest.as_bytes()[0].is_ascii_lowercase()
            && rest.as_bytes()[1].is_ascii_digit()
        {
            let from = square_at(&t[..2])?;
            let to = square_at(&rest[..2])?;
            let promo_text = rest[2..].trim_start_matches('=');
            let promotion = match promo_text.len() {
                0 => None,
                1 => Some(
                    Role::from_char(promo_text.chars().next()?)
                        .filter(|r| !matches!(r, Role::Pawn | Role::King))?,
                ),
                _ => return None,
            };
            return Some(Pattern::Coord {
                from,
                to,
                promotion,
            });
        }
    }
    // SAN.
    let (role, body) = match t.chars().next()? {
        c @ ('N' | 'B' | 'R' | 'Q' | 'K') => (Role::from_char(c)?, &t[1..]),
        _ => (Role::Pawn, t),
    };
    let (body, promotion) = split_promotion(body)?;
    if promotion.is_some() && role != Role::Pawn {
        return None;
    }
    let body: String = body.chars().filter(|&c| c != 'x' && c != '-').collect();
    let b = body.as_bytes();
    if b.len() < 2 || b.len() > 4 {
        return None;
    }
    let to = square_at(&body[b.len() - 2..])?;
    let (mut file, mut rank) = (None, None);
    for &c in &b[..b.len() - 2] {
        match c {
            b'a'..=b'h' if file.is_none() && rank.is_none() => file = Some(c - b'a'),
            b'1'..=b'8' if rank.is_none() => rank = Some(c - b'1'),
            _ => return None,
        }
    }
    Some(Pattern::San {
        role,
        file,
        rank,
        to,
        promotion,
    })
}

fn split_promotion(body: &str) -> Option<(&str, Option<Role>)> {
    let body = body.trim_end_matches(')');
    let last = body.chars().last()?;
    if last.is_ascii_uppercase() {
        let role = Role::from_char(last).filter(|r| !matches!(r, Role::Pawn | Role::King))?;
        let body = body[..body.len() - 1].trim_end_matches(['=', '(']);
        Some((body, Some(role)))
    } else {
        Some((body, None))
    }
}

/// Whether `mv` is a move the pattern describes.
pub(crate) fn matches(p: &Pattern, mv: &Move) -> bool {
    match *p {
        Pattern::Castle { long } => match mv.kind {
            MoveKind::Castle { rook } => (rook < mv.from) == long,
            _ => false,
        },
        Pattern::San {
            role,
            file,
            rank,
            to,
            promotion,
        } => {
            !matches!(mv.kind, MoveKind::Castle { .. })
                && mv.role == role
                && mv.to == to
                && mv.promotion == promotion
                && file.is_none_or(|f| mv.from % 8 == f)
                && rank.is_none_or(|r| mv.from / 8 == r)
        }
        Pattern::Coord {
            from,
            to,
            promotion,
        } => {
            mv.from == from
                && mv.promotion == promotion
                && match mv.kind {
                    MoveKind::Castle { rook } => to == mv.to || to == rook,
                    _ => mv.to == to,
                }
        }
    }
}

/// Standard SAN of `mv` among the `legal` moves (for disambiguation), without check marks.
pub(crate) fn san(mv: &Move, legal: &[Move]) -> String {
    if let MoveKind::Castle { rook } = mv.kind {
        return if rook > mv.from {
            "O-O".into()
        } else {
            "O-O-O".into()
        };
    }
    let mut out = String::with_capacity(8);
    let to = square(mv.to);
    if mv.role == Role::Pawn {
        if mv.capture.is_some() {
            out.push(square(mv.from).file_char());
            out.push('x');
        }
        out.push_str(&to.to_string());
        if let Some(p) = mv.promotion {
            out.push('=');
            out.push(p.upper());
        }
        return out;
    }
    out.push(mv.role.upper());
    let rivals: Vec<&Move> = legal
        .iter()
        .filter(|o| {
            o.role == mv.role
                && o.to == mv.to
                && o.from != mv.from
                && !matches!(o.kind, MoveKind::Castle { .. })
        })
        .collect();
    if !rivals.is_empty() {
        let from = square(mv.from);
        if rivals.iter().all(|o| o.from % 8 != mv.from % 8) {
            out.push(from.file_char());
        } else if rivals.iter().all(|o| o.from / 8 != mv.from / 8) {
            out.push_str(&from.rank().to_string());
        } else {
            out.push_str(&from.to_string());
        }
    }
    if mv.capture.is_some() {
        out.push('x');
    }
    out.push_str(&to.to_string());
    out
}

/// Coordinate notation: `e2e4`, `e7e8q`; castling as the king's two-square move when the
/// king starts on the e-file and the rook on a corner, else king-takes-rook (Chess960).
pub(crate) fn uci(mv: &Move) -> String {
    let to = match mv.kind {
        MoveKind::Castle { rook } if !(mv.from % 8 == 4 && (rook % 8 == 0 || rook % 8 == 7)) => {
            rook
        }
        _ => mv.to,
    };
    let mut out = format!("{}{}", square(mv.from), square(to));
    if let Some(p) = mv.promotion {
        out.push(p.upper().to_ascii_lowercase());
    }
    out
}

/// Matches `text` against the legal moves. `pseudo` are the pseudo-legal moves, so that a
/// move that follows the pieces' movement but is illegal gets `illegal_reason`'s reason.
///
/// # Errors
/// [`ActionError::Parse`] for text outside [`GRAMMAR`]; [`ActionError::Illegal`] for no
/// match or several (ambiguous), with the legal moves in SAN.
pub(crate) fn resolve(
    text: &str,
    legal: &[Move],
    pseudo: &[Move],
    illegal_reason: impl Fn(&Move) -> String,
) -> Result<Move, ActionError> {
    let (core, _) = strip_decorations(text);
    let pattern = parse(core).ok_or_else(|| ParseActionError {
        text: text.to_string(),
        expected: GRAMMAR.to_string(),
    })?;
    let found: Vec<&Move> = legal.iter().filter(|m| matches(&pattern, m)).collect();
    let legal_san = || legal.iter().map(|m| san(m, legal)).collect::<Vec<_>>();
    match found.as_slice() {
        [one] => Ok(**one),
        [] => {
            let reason = match pseudo.iter().find(|m| matches(&pattern, m)) {
                Some(m) => illegal_reason(m),
                None => describe_missing(&pattern),
            };
            Err(IllegalActionError {
                text: text.to_string(),
                reason,
                legal: legal_san(),
                ambiguous: false,
            }
            .into())
        }
        several => {
            let options: Vec<String> = several.iter().map(|m| san(m, legal)).collect();
            Err(IllegalActionError {
                text: text.to_string(),
                reason: format!("it is ambiguous: it could be {}", options.join(" or ")),
                legal: legal_san(),
                ambiguous: true,
            }
            .into())
        }
    }
}

fn describe_missing(p: &Pattern) -> String {
    describe_missing_as(p, "", "no pawn")
}

/// Why no legal move matches `p`: `castle_note` follows the castling sentence (a variant's
/// castling rule), `pawns` opens the promotion sentence ("no pawn", "no pawn of yours").
pub(crate) fn describe_missing_as(p: &Pattern, castle_note: &str, pawns: &str) -> String {
    match *p {
        Pattern::Castle { long } => format!(
            "castling {} is not possible now{castle_note}",
            if long {
                "queen-side (O-O-O)"
            } else {
                "king-side (O-O)"
            }
        ),
        Pattern::San {
            role,
            to,
            promotion,
            ..
        } => {
            let what = role.kind().name();
            match promotion {
                Some(_) => format!("{pawns} can promote on {}", square(to)),
                None => format!("no {what} of yours can go to {}", square(to)),
            }
        }
        Pattern::Coord { from, to, .. } => {
            format!("there is no move from {} to {}", square(from), square(to))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(name: &str) -> u8 {
        square_at(name).unwrap()
    }

    #[test]
    fn parses_san_and_coordinates() {
        assert_eq!(parse("O-O"), Some(Pattern::Castle { long: false }));
        assert_eq!(parse("0-0-0"), Some(Pattern::Castle { long: true }));
        assert_eq!(
            parse("e4"),
            Some(Pattern::San {
                role: Role::Pawn,
                file: None,
                rank: None,
                to: s("e4"),
                promotion: None
            })
        );
        assert_eq!(
            parse("exd5"),
            Some(Pattern::San {
                role: Role::Pawn,
                file: Some(4),
                rank: None,
                to: s("d5"),
                promotion: None
            })
        );
        assert_eq!(
            parse("Nbd7"),
            Some(Pattern::San {
                role: Role::Knight,
                file: Some(1),
                rank: None,
                to: s("d7"),
                promotion: None
            })
        );
        assert_eq!(
            parse("R1a3"),
            Some(Pattern::San {
                role: Role::Rook,
                file: None,
                rank: Some(0),
                to: s("a3"),
                promotion: None
            })
        );
        assert_eq!(
            parse("e8=Q"),
            Some(Pattern::San {
                role: Role::Pawn,
                file: None,
                rank: None,
                to: s("e8"),
                promotion: Some(Role::Queen)
            })
        );
        assert_eq!(
            parse("e2e4"),
            Some(Pattern::Coord {
                from: s("e2"),
                to: s("e4"),
                promotion: None
            })
        );
        assert_eq!(
            parse("e7e8q"),
            Some(Pattern::Coord {
                from: s("e7"),
                to: s("e8"),
                promotion: Some(Role::Queen)
            })
        );
        assert_eq!(parse("Nz9"), None);
        assert_eq!(parse("hello"), None);
        assert_eq!(parse("e8=K"), None);
        assert_eq!(parse("N€"), None, "non-ASCII text is refused, not a panic");
        assert_eq!(parse("é4"), None);
    }
}
