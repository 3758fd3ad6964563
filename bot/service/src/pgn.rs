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
    out.push('\n');
    let mut moves = String::new();
    for (i, ply) in game.plies().iter().enumerate() {
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
