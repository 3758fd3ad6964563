//! Bomberman notation: SAN with `O` bombs, `Ox` detonations and `KB` promotions, the
//! coordinate form, and parsing both (C-5, BM-5, BM-10; grammar on [`super::Bomberman`]).

use std::collections::BTreeSet;

use super::{Bomberman, BombermanAction, CastlingSide, KING_FILE, home_rank, sq};
use crate::bomberman::board::on_board;
use crate::notation::strip_decorations;
use crate::{
    ActionError, Cause, IllegalActionError, Kind, ParseActionError, Position, Removal, Square,
};

const GRAMMAR: &str = "SAN like Nf3, exd5, Dxe2, Oa7, Rbf1, h8=KB (or h8=Q), O-O, O-O-O (or 0-0, 0-0-0), a detonation like Oxb5, or coordinates like e2e4, h7h8q";

/// The SAN letter(s) of a piece kind: `K D O R B N KB`, empty for pawns.
pub(crate) fn letter(kind: Kind) -> &'static str {
    match kind {
        Kind::King => "K",
        Kind::Defuser => "D",
        Kind::Bomb => "O",
        Kind::Rook => "R",
        Kind::Bishop => "B",
        Kind::Knight => "N",
        Kind::KingBattler => "KB",
        _ => "",
    }
}

/// The canonical text (C-5) of `action`, disambiguated against `legal`.
pub(crate) fn san(pos: &Bomberman, action: &BombermanAction, legal: &[BombermanAction]) -> String {
    match *action {
        BombermanAction::Castle(CastlingSide::King) => "O-O".into(),
        BombermanAction::Castle(CastlingSide::Queen) => "O-O-O".into(),
        BombermanAction::Detonate(s) => format!("Ox{s}"),
        BombermanAction::Move {
            from,
            to,
            promotion,
        } => {
            let Some(piece) = pos.piece_at(from) else {
                return format!("{from}{to}");
            };
            let capture = pos.piece_at(to).is_some()
                || (piece.kind == Kind::Pawn && from.file() != to.file());
            let mut out = String::new();
            if piece.kind == Kind::Pawn {
                if capture {
                    out.push(from.file_char());
                }
            } else {
                out.push_str(letter(piece.kind));
                if piece.kind != Kind::King {
                    out.push_str(&disambiguation(pos, from, to, piece.kind, legal));
                }
            }
            if capture {
                out.push('x');
            }
            out.push_str(&to.to_string());
            if let Some(k) = promotion {
                out.push('=');
                out.push_str(letter(k));
            }
            out
        }
    }
}

fn disambiguation(
    pos: &Bomberman,
    from: Square,
    to: Square,
    kind: Kind,
    legal: &[BombermanAction],
) -> String {
    let rivals: Vec<Square> = legal
        .iter()
        .filter_map(|a| match *a {
            BombermanAction::Move { from: f, to: t, .. }
                if t == to && f != from && pos.piece_at(f).is_some_and(|p| p.kind == kind) =>
            {
                Some(f)
            }
            _ => None,
        })
        .collect();
    if rivals.is_empty() {
        String::new()
    } else if rivals.iter().all(|r| r.file() != from.file()) {
        from.file_char().to_string()
    } else if rivals.iter().all(|r| r.rank() != from.rank()) {
        from.rank().to_string()
    } else {
        from.to_string()
    }
}

/// The coordinate form: `e2e4`, `h7h8q` (q is the King Battler), `f1h1` for castling,
/// the canonical text for detonations (docs/ARCHITECTURE.md, "The CLI").
pub(crate) fn uci(pos: &Bomberman, action: &BombermanAction) -> String {
    match *action {
        BombermanAction::Castle(side) => {
            let rank = home_rank(pos.turn);
            format!(
                "{}{}",
                sq(rank * 10 + KING_FILE),
                sq(rank * 10 + side.files().0)
            )
        }
        BombermanAction::Detonate(s) => format!("Ox{s}"),
        BombermanAction::Move {
            from,
            to,
            promotion,
        } => {
            let promo = match promotion {
                Some(Kind::Knight) => "n",
                Some(Kind::Bishop) => "b",
                Some(Kind::Rook) => "r",
                Some(_) => "q",
                None => "",
            };
            format!("{from}{to}{promo}")
        }
    }
}

/// The display suffix of C-5/BM-5: `->` and the removed squares in removal order,
/// without the detonated bomb's own square; empty when nothing exploded.
pub(crate) fn removal_suffix(action: &BombermanAction, removed: &[Removal]) -> String {
    if !removed.iter().any(|r| r.cause == Cause::Exploded) {
        return String::new();
    }
    let own = match action {
        BombermanAction::Detonate(s) => Some(*s),
        _ => None,
    };
    let mut squares: Vec<Square> = Vec::new();
    for r in removed {
        if Some(r.square) != own && !squares.contains(&r.square) {
            squares.push(r.square);
        }
    }
    if squares.is_empty() {
        return String::new();
    }
    let list: Vec<String> = squares.iter().map(Square::to_string).collect();
    format!("->{}", list.join(","))
}

/// See [`super::removal_warning`].
pub(crate) fn removal_warning(
    text: &str,
    action: &BombermanAction,
    removed: &[Removal],
) -> Option<String> {
    let (_, written) = strip_decorations(text);
    let written: BTreeSet<&str> = written?
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    let suffix = removal_suffix(action, removed);
    let real: BTreeSet<&str> = suffix
        .trim_start_matches("->")
        .split(',')
        .filter(|s| !s.is_empty())
        .collect();
    (written != real).then(|| {
        let list = |set: &BTreeSet<&str>| {
            if set.is_empty() {
                "nothing".to_string()
            } else {
                set.iter().copied().collect::<Vec<_>>().join(", ")
            }
        };
        format!(
            "{text}: the text says it removes {}, but it removes {}",
            list(&written),
            list(&real)
        )
    })
}

fn parse_error(text: &str, expected: impl Into<String>) -> ActionError {
    ParseActionError {
        text: text.into(),
        expected: expected.into(),
    }
    .into()
}

fn illegal(
    pos: &Bomberman,
    text: &str,
    reason: impl Into<String>,
    legal: &[BombermanAction],
) -> ActionError {
    IllegalActionError {
        text: text.into(),
        reason: reason.into(),
        legal: legal.iter().map(|a| san(pos, a, legal)).collect(),
        ambiguous: false,
    }
    .into()
}

/// A square on the 10x8 board from two characters.
fn board_square(text: &str) -> Option<Square> {
    let s: Square = text.parse().ok()?;
    on_board(s.index()).then_some(s)
}

/// The promotion kind for `text` (`N`, `B`, `R`, `KB`, `Q`; lower case in coordinates).
enum Promo {
    Kind(Kind),
    Refused(Kind),
}

fn promo_kind(text: &str) -> Option<Promo> {
    Some(match text.to_ascii_uppercase().as_str() {
        "N" => Promo::Kind(Kind::Knight),
        "B" => Promo::Kind(Kind::Bishop),
        "R" => Promo::Kind(Kind::Rook),
        "KB" | "Q" => Promo::Kind(Kind::KingBattler),
        "D" => Promo::Refused(Kind::Defuser),
        "O" => Promo::Refused(Kind::Bomb),
        "K" => Promo::Refused(Kind::King),
        _ => return None,
    })
}

/// What the text asks for, before it is matched against the position.
struct Request {
    kind: Option<Kind>,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    from: Option<Square>,
    to: Square,
    promotion: Option<Kind>,
}

/// Parses canonical, SAN-like or coordinate text into a legal action (C-5, BM-10).
pub(crate) fn parse(pos: &Bomberman, text: &str) -> Result<BombermanAction, ActionError> {
    let (core, _removals) = strip_decorations(text);
    let core = core.trim().trim_end_matches(['+', '#', '!', '?', '.']);
    if core.is_empty() {
        return Err(parse_error(text, GRAMMAR));
    }
    let legal = pos.legal_actions();

    let side = match core {
        "O-O" | "0-0" => Some(CastlingSide::King),
        "O-O-O" | "0-0-0" => Some(CastlingSide::Queen),
        _ => None,
    };
    if let Some(side) = side {
        return resolve_exact(pos, text, &legal, BombermanAction::Castle(side), || {
            "castling needs its right, king and rook at home, the squares between them empty, and the king not in check on its start or transit square".into() // BM-4
        });
    }

    if let Some(rest) = core.strip_prefix("Ox") {
        let square = board_square(rest).ok_or_else(|| {
            parse_error(
                text,
                "a detonation like Oxb5: Ox and the bomb's square, a1 to j8",
            )
        })?;
        return resolve_exact(pos, text, &legal, BombermanAction::Detonate(square), || {
            format!("there is no bomb of yours on {square} to detonate") // BM-5
        });
    }

    let request = coordinate(core)
        .or_else(|| san_request(core))
        .ok_or_else(|| parse_error(text, GRAMMAR))?
        .map_err(|refused| {
            illegal(
                pos,
                text,
                format!(
                    "a pawn never promotes to a {}: promote to N, B, R or KB (Q is accepted for the King Battler)", // BM-3
                    refused.title()
                ),
                &legal,
            )
        })?;

    // Coordinate castling: the king's two-square step.
    if let Some(from) = request.from {
        let rank = home_rank(pos.turn);
        if from.index() == rank * 10 + KING_FILE
            && pos.piece_at(from).is_some_and(|p| p.kind == Kind::King)
        {
            for side in [CastlingSide::King, CastlingSide::Queen] {
                if request.to.index() == rank * 10 + side.files().0 {
                    return resolve_exact(pos, text, &legal, BombermanAction::Castle(side), || {
                        "castling is not possible now".into() // BM-4
                    });
                }
            }
        }
    }

    let matches = |a: &BombermanAction, with_promotion: bool| match *a {
        BombermanAction::Move {
            from,
            to,
            promotion,
        } => pos.piece_at(from).is_some_and(|piece| {
            to == request.to
                && request.kind.is_none_or(|k| k == piece.kind)
                && request.from.is_none_or(|f| f == from)
                && request.from_file.is_none_or(|f| f == from.file())
                && request.from_rank.is_none_or(|r| r == from.rank())
                && (request.kind != Some(Kind::Pawn)
                    || request.from_file.is_some()
                    || from.file() == to.file())
                && (!with_promotion || promotion == request.promotion)
        }),
        _ => false,
    };
    if request.promotion.is_none()
        && legal.iter().any(|a| {
            matches(a, false)
                && matches!(
                    a,
                    BombermanAction::Move {
                        promotion: Some(_),
                        ..
                    }
                )
        })
    {
        return Err(illegal(
            pos,
            text,
            "say which piece the pawn promotes to: =N, =B, =R or =KB", // BM-3
            &legal,
        ));
    }
    let who = request
        .kind
        .map_or("piece".to_string(), |k| k.title().to_lowercase());
    resolve(
        pos,
        text,
        &legal,
        |a| matches(a, true),
        |pseudo| {
            if request.promotion.is_some() && pseudo.iter().any(|a| matches(a, false)) {
                "only a pawn that reaches the last rank promotes".into() // BM-3
            } else if request.kind == Some(Kind::Bomb) && pos.piece_at(request.to).is_some() {
                "a bomb never captures by moving; to detonate write Ox and its own square" // BM-2
                    .to_string()
            } else {
                format!("no {who} of yours can move to {}", request.to)
            }
        },
    )
}

/// [`resolve`] for exactly `action`, with `none` saying why it is not legal.
fn resolve_exact(
    pos: &Bomberman,
    text: &str,
    legal: &[BombermanAction],
    action: BombermanAction,
    none: impl FnOnce() -> String,
) -> Result<BombermanAction, ActionError> {
    resolve(pos, text, legal, |a| *a == action, |_| none())
}

/// Finds the one legal action `pred` accepts, or explains why there is none.
fn resolve(
    pos: &Bomberman,
    text: &str,
    legal: &[BombermanAction],
    pred: impl Fn(&BombermanAction) -> bool,
    none: impl FnOnce(&[BombermanAction]) -> String,
) -> Result<BombermanAction, ActionError> {
    let found: Vec<&BombermanAction> = legal.iter().filter(|a| pred(a)).collect();
    match found.as_slice() {
        [one] => Ok(**one),
        [] => {
            let pseudo = pos.pseudo_legal_actions();
            let reason = match pseudo.iter().find(|a| pred(a)) {
                Some(a) => {
                    let mut after = pos.clone();
                    after.play_unchecked(a);
                    if super::king_square(&after.board, pos.turn).is_none() {
                        "it would destroy your own king".to_string() // BM-7, BM-8
                    } else {
                        "it would leave your king in check".to_string() // BM-8
                    }
                }
                None => none(&pseudo),
            };
            Err(illegal(pos, text, reason, legal))
        }
        many => {
            let options: Vec<String> = many.iter().map(|a| san(pos, a, legal)).collect();
            Err(IllegalActionError {
                text: text.into(),
                reason: format!("it is ambiguous: it could be {}", options.join(" or ")),
                legal: options,
                ambiguous: true,
            }
            .into())
        }
    }
}

/// `e2e4`, `h7h8q`, `h7h8kb`: the coordinate form. `Err` carries a refused promotion.
fn coordinate(core: &str) -> Option<Result<Request, Kind>> {
    if core.len() < 4 || !core.is_ascii() {
        return None;
    }
    let from = board_square(&core[..2])?;
    let to = board_square(&core[2..4])?;
    let rest = &core[4..];
    let promotion = if rest.is_empty() {
        None
    } else {
        if rest.chars().any(|c| c.is_ascii_uppercase()) {
            return None;
        }
        match promo_kind(rest)? {
            Promo::Kind(k) => Some(k),
            Promo::Refused(k) => return Some(Err(k)),
        }
    };
    Some(Ok(Request {
        kind: None,
        from_file: None,
        from_rank: None,
        from: Some(from),
        to,
        promotion,
    }))
}

/// SAN: `[piece][file][rank][x]square[=promotion]`. `Err` carries a refused promotion.
fn san_request(core: &str) -> Option<Result<Request, Kind>> {
    if !core.is_ascii() {
        return None;
    }
    // Promotion: `=X`, or upper-case letters straight after the target square.
    let (body, promo_text) = match core.find('=') {
        Some(i) => (&core[..i], Some(&core[i + 1..])),
        None => {
            let cut = core.trim_end_matches(|c: char| c.is_ascii_uppercase());
            if cut.len() < core.len() && cut.ends_with(|c: char| c.is_ascii_digit()) {
                (cut, Some(&core[cut.len()..]))
            } else {
                (core, None)
            }
        }
    };
    let promotion = match promo_text {
        None => None,
        Some(p) => match promo_kind(p)? {
            Promo::Kind(k) => Some(k),
            Promo::Refused(k) => return Some(Err(k)),
        },
    };
    let (kind, rest) = if let Some(r) = body.strip_prefix("KB") {
        (Kind::KingBattler, r)
    } else {
        let kind = super::fen::letter_kind(body.chars().next()?).unwrap_or(Kind::Pawn);
        let skip = usize::from(kind != Kind::Pawn);
        (kind, &body[skip..])
    };
    if rest.len() < 2 {
        return None;
    }
    let to = board_square(&rest[rest.len() - 2..])?;
    let mut middle = &rest[..rest.len() - 2];
    if let Some(m) = middle.strip_suffix('x') {
        middle = m;
    }
    let mut chars = middle.chars().peekable();
    let from_file = chars
        .next_if(|c| ('a'..='j').contains(c))
        .map(|c| c as u8 - b'a');
    let from_rank = chars
        .next_if(|c| ('1'..='8').contains(c))
        .map(|c| c as u8 - b'0');
    if chars.next().is_some() || (kind == Kind::Pawn && from_rank.is_some()) {
        return None;
    }
    if promotion.is_some() && kind != Kind::Pawn {
        return None;
    }
    Some(Ok(Request {
        kind: Some(kind),
        from_file,
        from_rank,
        from: None,
        to,
        promotion,
    }))
}
