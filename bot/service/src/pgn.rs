//! PGN export with the variant in a `Variant` tag. Beirut carriers only after the game
//! (BE-9): the caller passes designations only when they may be shown.

use kaboom_rules::{Color, Variant, Viewer};

use super::Snapshot;
use kaboom_store::carriers::Designation;

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// `YYYY.MM.DD` of a Unix time (seconds, UTC): the PGN `Date` tag (PGN standard 8.1.1.3);
/// `????.??.??`, PGN's unknown date, for a time outside the calendar `time` covers.
pub fn pgn_date(unix: i64) -> String {
    let format = time::macros::format_description!("[year].[month].[day]");
    time::OffsetDateTime::from_unix_timestamp(unix)
        .ok()
        .and_then(|at| at.format(format).ok())
        .unwrap_or_else(|| "????.??.??".to_string())
}

/// Whether the carriers of `snap` may be shown to everyone: after the game (BE-9), and for
/// Nuke once both sides have chosen (NU-3). Before that a side's choice is secret from the
/// other side too.
pub fn carriers_public(snap: &Snapshot) -> bool {
    snap.outcome().is_some()
        || (snap.row.variant == Variant::Nuke && snap.game.awaiting_designation().is_empty())
}

/// The PGN of `snap`. `designations` are written as `WhiteCarriers`/`BlackCarriers` tags
/// (pass them only when they may be public: after a Beirut game, or for Nuke).
pub fn pgn(snap: &Snapshot, designations: &[Designation]) -> String {
    let mut out = tags(snap, designations, &[]);
    let result = snap.outcome().map_or("*", |o| o.result());
    let mut moves = String::new();
    for (i, ply) in snap.game.plies().iter().enumerate() {
        if i % 2 == 0 {
            moves.push_str(&format!("{}. ", i / 2 + 1));
        }
        moves.push_str(&ply.display);
        moves.push(' ');
    }
    moves.push_str(result);
    out.push_str(&moves);
    out.push('\n');
    out
}

/// The PGN of finished game `snap` annotated with its analysis (`review`): an `Annotator`
/// tag, and per ply its evaluation as a `[%eval]` comment (pawns from White's point of
/// view, `#N`/`#-N` for a forced win in N moves), the mark as a NAG (`$6` `?!`
/// inaccuracy, `$2` `?` mistake, `$4` `??` blunder: PGN standard 10, "Numeric Annotation
/// Glyphs") and the engine's better line as a variation. The carriers are public: the game
/// is over (BE-9).
pub fn annotated_pgn(
    snap: &Snapshot,
    designations: &[Designation],
    review: &kaboom_engine::review::GameReview,
) -> String {
    use kaboom_engine::review::Mark;
    let annotator = format!(
        "Kaboom engine, {} positions per move",
        review.nodes_per_position
    );
    let mut out = tags(snap, designations, &[("Annotator", &annotator)]);
    let result = snap.outcome().map_or("*", |o| o.result());
    let mut moves = String::new();
    // After a comment or a variation, Black's move is numbered again (`12... Nf6`).
    let mut renumber = false;
    for (i, ply) in snap.game.plies().iter().enumerate() {
        let number = i / 2 + 1;
        if i % 2 == 0 {
            moves.push_str(&format!("{number}. "));
        } else if renumber {
            moves.push_str(&format!("{number}... "));
        }
        moves.push_str(&ply.display);
        renumber = false;
        let Some(judged) = review.plies.get(i) else {
            moves.push(' ');
            continue;
        };
        match judged.mark {
            Some(Mark::Inaccuracy) => moves.push_str(" $6"),
            Some(Mark::Mistake) => moves.push_str(" $2"),
            Some(Mark::Blunder) => moves.push_str(" $4"),
            None => {}
        }
        if let Some(eval) = pgn_eval(judged.eval) {
            moves.push_str(&format!(" {{ [%eval {eval}] }}"));
            renumber = true;
        }
        if judged.better.is_some() && !judged.line.is_empty() {
            moves.push_str(" (");
            for (j, action) in judged.line.iter().enumerate() {
                let at = i + j;
                if at % 2 == 0 {
                    moves.push_str(&format!("{}. ", at / 2 + 1));
                } else if j == 0 {
                    moves.push_str(&format!("{}... ", at / 2 + 1));
                }
                moves.push_str(action);
                if j + 1 < judged.line.len() {
                    moves.push(' ');
                }
            }
            moves.push(')');
            renumber = true;
        }
        moves.push(' ');
    }
    moves.push_str(result);
    out.push_str(&moves);
    out.push('\n');
    out
}

/// A `[%eval]` value: pawns with two decimals from White's point of view (`0.35`,
/// `-1.20`), `#N` / `#-N` for a forced win of White / Black in N moves; `None` for a
/// position the game ended in (nothing left to evaluate).
pub fn pgn_eval(score: kaboom_engine::Score) -> Option<String> {
    use kaboom_engine::Score;
    match score {
        Score::Centipawns { value } => Some(format!("{:.2}", f64::from(value) / 100.0)),
        Score::Win { plies: 0 } | Score::Loss { plies: 0 } => None,
        Score::Win { plies } => Some(format!("#{}", plies.div_ceil(2))),
        Score::Loss { plies } => Some(format!("#-{}", plies.div_ceil(2))),
    }
}

/// The tag pairs of `snap`'s PGN (the Seven Tag Roster, the variant's, the carriers when
/// given) with `extra` tags after them, and the blank line before the movetext.
fn tags(snap: &Snapshot, designations: &[Designation], extra: &[(&str, &str)]) -> String {
    let row = &snap.row;
    let game = &snap.game;
    let finished = snap.outcome();
    let result = finished.map_or("*", |o| o.result());
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    tag("Event", &format!("Kaboom game #{}", row.id));
    tag("Site", "Discord");
    tag("Date", &pgn_date(row.created_at));
    tag("Round", "-");
    tag("White", &row.white_name);
    tag("Black", &row.black_name);
    tag("Result", result);
    tag("Variant", row.variant.title());
    if row.variant == Variant::Beirut {
        tag("Carriers", &row.options.carriers.to_string());
        if row.options.dead_mans_switch {
            tag("DeadMansSwitch", "true");
        }
    }
    if let Some(o) = finished {
        tag("Termination", o.reason.describe());
    }
    if row.variant.has_designation() && !designations.is_empty() {
        // The start serialization carries the carriers: only with the designations.
        tag("SetUp", "1");
        tag("FEN", &game.start_fen(Viewer::Full));
    }
    for d in designations {
        let key = match d.color {
            Color::White => "WhiteCarriers",
            Color::Black => "BlackCarriers",
        };
        tag(key, &d.squares);
    }
    for (key, value) in extra {
        tag(key, value);
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::pgn_date;

    #[test]
    fn dates_follow_the_civil_calendar() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400), "2000.02.29");
        assert_eq!(pgn_date(1_700_000_000), "2023.11.14");
        assert_eq!(pgn_date(i64::MAX), "????.??.??");
    }
}
