//! Nuke notation (C-5, docs/rules/RULINGS.md section 6): one action is an optional transfer,
//! a move and an optional grab.
//!
//! # Canonical form (printed, and what history, PGN and autocomplete show)
//!
//! ```text
//! [FROM>TO ]SAN[*]
//! ```
//!
//! - `FROM>TO ` (optional): the bomb transfer before the move (NU-4), the carrier's square,
//!   `>`, the receiving piece's square, then one space. Example: `c1>d2 `.
//! - `SAN`: the move in standard SAN without check marks (`Nf3`, `exd5`, `Nbd7`, `O-O`,
//!   `O-O-O`, `e8=Q`, `Kxe2`). Disambiguation is computed among the moves that are legal
//!   after the same transfer.
//! - `*` (optional): the moved piece grabs one loose bomb on its destination (NU-10). A move
//!   onto a loose bomb written without `*` declines the grab.
//!
//! Examples: `e4`, `Nxe5*`, `c1>d2 Nxe5*`, `d8>e8 Qh4`, `e7>d8 exd8=Q*`, `O-O`.
//! A win on the board may be displayed with `#` after it (not part of the canonical form).
//!
//! # Also accepted on input
//!
//! - coordinates for the move: `e2e4`, `g1-f3`, `e7e8q`, `e7e8=Q`, castling as `e1g1` or
//!   king-takes-rook `e1h1`; with transfer and grab: `c1>d2 g1f3*`;
//! - the transfer glued to the move or separated by several spaces: `c1>d2Nxe5*`;
//! - `0-0`/`0-0-0`; trailing `+`, `#`, `!`, `?` and a removal list `->e4,d5` (ignored).
//!
//! # Errors
//!
//! Text outside this grammar is an [`ActionError::Parse`]. Well-formed text that is not
//! legal is an [`ActionError::Illegal`] saying why, e.g. "only one transfer per turn
//! (NU-4)", "d5 is not next to c3 (NU-4)", "e4 already carries a bomb (NU-4)", "the queen
//! on d1 carries a bomb and cannot move (NU-5)", "there is no loose bomb on f3 to grab
//! (NU-10)", with the legal actions in canonical form.

use std::fmt::Write as _;

use super::{Nuke, NukeAction, Transfer, Verdict};
use crate::chess::san::{self, Pattern};
use crate::chess::{Move, MoveKind, sq, square};
use crate::notation::strip_decorations;
use crate::{ActionError, IllegalActionError, ParseActionError, Position, Square};

/// The grammar accepted for Nuke actions, for error messages.
pub const GRAMMAR: &str = "an optional bomb transfer 'FROM>TO ', a move in SAN (Nf3, exd5, O-O, e8=Q) or coordinates (g1f3, e7e8q), and an optional '*' to grab a loose bomb, like 'c1>d2 Nxe5*'";

/// The canonical text of a legal action (see the module documentation).
pub fn canonical(pos: &Nuke, action: &NukeAction) -> String {
    let carried = pos.carried_after(action.transfer);
    let legal = pos.legal_moves_with(&pos.pseudo_moves(), carried);
    text_of(action, &legal)
}

fn text_of(action: &NukeAction, legal_after_transfer: &[Move]) -> String {
    let mut out = String::with_capacity(16);
    if let Some(t) = action.transfer {
        write!(out, "{}>{} ", square(t.from), square(t.to)).expect("writing to a String");
    }
    out.push_str(&san::san(&action.mv, legal_after_transfer));
    if action.grab {
        out.push('*');
    }
    out
}

/// The canonical texts of every legal action, in [`Position::legal_actions`] order.
pub fn legal_texts(pos: &Nuke) -> Vec<String> {
    let pseudo = pos.pseudo_moves();
    let mut out = Vec::new();
    let mut current: Option<(Option<Transfer>, Vec<Move>)> = None;
    for action in pos.legal_actions() {
        if current.as_ref().is_none_or(|(t, _)| *t != action.transfer) {
            let carried = pos.carried_after(action.transfer);
            current = Some((action.transfer, pos.legal_moves_with(&pseudo, carried)));
        }
        let (_, legal) = current.as_ref().expect("just set");
        out.push(text_of(&action, legal));
    }
    out
}

/// `c1>d2` at the start of `text`: the transfer and the rest after it.
fn transfer_prefix(text: &str) -> Option<(Transfer, &str)> {
    let b = text.as_bytes();
    if b.len() < 5 || b[2] != b'>' || !text.is_char_boundary(5) {
        return None;
    }
    let at = |t: &str| t.parse::<Square>().ok().and_then(sq);
    let from = at(&text[..2])?;
    let to = at(&text[3..5])?;
    Some((Transfer { from, to }, &text[5..]))
}

fn illegal_error(pos: &Nuke, text: &str, reason: String) -> IllegalActionError {
    IllegalActionError {
        text: text.to_string(),
        reason,
        legal: legal_texts(pos),
        ambiguous: false,
    }
}

fn illegal(pos: &Nuke, text: &str, reason: String) -> ActionError {
    illegal_error(pos, text, reason).into()
}

fn piece_name(pos: &Nuke, s: u8) -> &'static str {
    pos.state()
        .board
        .role_at(s)
        .map_or("piece", |r| r.kind().name())
}

/// Parses `text` (see the module documentation) into a legal action of `pos`.
///
/// # Errors
/// [`ActionError::Parse`] outside the grammar; [`ActionError::Illegal`] with the reason and
/// the legal actions otherwise.
pub fn parse(pos: &Nuke, text: &str) -> Result<NukeAction, ActionError> {
    let not_grammar = || -> ActionError {
        ParseActionError {
            text: text.to_string(),
            expected: GRAMMAR.to_string(),
        }
        .into()
    };
    let (core, _) = strip_decorations(text);
    if !core.is_ascii() {
        // Every Nuke action is ASCII; this also keeps multi-byte text away from the SAN
        // reader, which slices by bytes.
        return Err(not_grammar());
    }
    let mut rest = core.trim();
    let mut transfers = Vec::new();
    while let Some((t, after)) = transfer_prefix(rest) {
        transfers.push(t);
        rest = after.trim_start();
    }
    let grab = rest.ends_with('*');
    if grab {
        rest = strip_decorations(&rest[..rest.len() - 1]).0.trim();
    }
    if transfers.len() > 1 {
        return Err(illegal(
            pos,
            text,
            "only one transfer per turn".into(), // NU-4
        ));
    }
    if rest.is_empty() {
        if transfers.is_empty() {
            return Err(not_grammar());
        }
        return Err(illegal(
            pos,
            text,
            "a transfer alone is not a turn: a move must follow it, like 'c1>d2 Nf3'".into(), // NU-4
        ));
    }
    let pattern = san::parse(rest).ok_or_else(not_grammar)?;
    if !pos.is_playing() {
        return Err(illegal(
            pos,
            text,
            "the game has not started: both sides must choose their carriers first".into(), // NU-3
        ));
    }
    if !pos.kings_present() {
        return Err(illegal(
            pos,
            text,
            "the game is over: a king has been blasted".into(), // NU-8
        ));
    }
    let transfer = transfers.first().copied();
    if let Some(reason) = transfer.and_then(|t| pos.transfer_error(t)) {
        return Err(illegal(pos, text, reason));
    }
    let carried = pos.carried_after(transfer);
    let pseudo = pos.pseudo_moves();
    let legal = pos.legal_moves_with(&pseudo, carried);
    let found: Vec<&Move> = legal.iter().filter(|m| san::matches(&pattern, m)).collect();
    match found.as_slice() {
        [mv] => {
            let action = NukeAction {
                transfer,
                mv: **mv,
                grab,
            };
            if grab && !pos.can_grab(mv, carried) {
                return Err(illegal(pos, text, grab_refusal(pos, mv, carried, &legal)));
            }
            Ok(action)
        }
        [] => {
            let reason = match pseudo.iter().find(|m| san::matches(&pattern, m)) {
                Some(mv) => match pos.verdict(mv, carried) {
                    Verdict::Frozen if matches!(mv.kind, MoveKind::Castle { .. }) => format!(
                        "the king on {} carries a bomb and cannot move, so it cannot castle", // NU-5, NU-12
                        square(mv.from)
                    ),
                    Verdict::Frozen => format!(
                        "the {} on {} carries a bomb and cannot move", // NU-5
                        piece_name(pos, mv.from),
                        square(mv.from)
                    ),
                    _ => format!(
                        "only a piece that carries a bomb may capture a king; the {} on {} carries none", // NU-2
                        piece_name(pos, mv.from),
                        square(mv.from)
                    ),
                },
                None => describe_missing(&pattern),
            };
            Err(illegal(pos, text, reason))
        }
        several => {
            let options: Vec<String> = several
                .iter()
                .map(|m| {
                    text_of(
                        &NukeAction {
                            transfer,
                            mv: **m,
                            grab,
                        },
                        &legal,
                    )
                })
                .collect();
            let reason = format!("it is ambiguous: it could be {}", options.join(" or "));
            let mut e = illegal_error(pos, text, reason);
            e.ambiguous = true;
            Err(e.into())
        }
    }
}

/// Why `mv` (legal after the transfer) may not grab (NU-10, NU-12).
fn grab_refusal(pos: &Nuke, mv: &Move, carried: u64, legal: &[Move]) -> String {
    let piece = piece_name(pos, mv.from);
    if matches!(mv.kind, MoveKind::Castle { .. }) {
        "castling never grabs a bomb".into() // NU-10
    } else if carried & crate::chess::bit(mv.from) != 0 {
        format!(
            "the {piece} on {} already carries a bomb and cannot grab another", // NU-10
            square(mv.from)
        )
    } else if Nuke::explodes(mv, carried) {
        format!(
            "{} sets off a bomb whose blast destroys the moving {piece}, so nothing can grab", // NU-12
            san::san(mv, legal)
        )
    } else if !pos.loose_at(mv.to) {
        format!(
            "there is no loose bomb on {} to grab", // NU-10
            square(mv.to)
        )
    } else {
        "this move cannot grab".into() // NU-10
    }
}

fn describe_missing(p: &Pattern) -> String {
    san::describe_missing_as(
        p,
        " (NU-1: king and rook unmoved, the squares between them empty)",
        "no pawn of yours",
    )
}
