//! The texts of `/privacy`: what Kaboom keeps about a player, and what deleting does.

use kaboom_rules::Variant;
use kaboom_store::privacy::{Forgotten, PersonalData};

/// Custom id action of `/privacy delete`'s confirmation (`kb:forget:<user id>`).
pub const FORGET: &str = "forget";

/// `n thing` or `n things` (a count that does not fit reads as 0: counts are never negative).
fn count(n: impl TryInto<u64>, one: &str, many: &str) -> String {
    let n: u64 = n.try_into().unwrap_or(0);
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `/privacy show`: what is stored under the player's id, table by table in players'
/// words, with what stays and why.
pub fn summary(data: &PersonalData) -> String {
    let running = data.games.iter().filter(|g| g.state != "finished").count();
    let ratings = if data.ratings.is_empty() {
        "none yet".to_string()
    } else {
        data.ratings
            .iter()
            .map(|r| {
                let name = match r.variant.parse::<Variant>() {
                    Ok(variant) => variant.title().to_string(),
                    Err(_) => r.variant.clone(),
                };
                format!("{name} {:.0}", r.rating)
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let chosen = |set: bool| if set { "your choice" } else { "the defaults" };
    [
        "**What Kaboom keeps about you**".to_string(),
        format!(
            "- Games: {} ({running} running): the moves, the result and your name at the time. These stay: your opponents' records and ratings depend on them.",
            data.games.len()
        ),
        format!("- Ratings: {ratings}."),
        format!(
            "- Settings: reminders {}, explosion previews {}.",
            chosen(data.reminder_settings.is_some()),
            chosen(data.preview_setting.is_some())
        ),
        format!(
            "- Only you see: {} and {}.",
            count(data.notes.len(), "private note", "private notes"),
            count(
                data.conditional_moves.len(),
                "conditional line",
                "conditional lines"
            )
        ),
        format!(
            "- {} taken (they count against the yearly allowance) and {} asked for.",
            count(data.vacations.len(), "vacation", "vacations"),
            count(
                data.analyses_requested,
                "analysis",
                "analyses"
            )
        ),
        format!(
            "- Puzzles: {} tried.",
            data.puzzles_tried
        ),
        "`/privacy export` sends you all of it as a file. `/privacy delete` removes your settings, private notes, conditional lines and puzzle history.".to_string(),
    ]
    .join("\n")
}

/// The export file's name.
pub fn export_name(user: u64) -> String {
    format!("kaboom-data-{user}.json")
}

/// The text above the export file.
pub const EXPORT: &str = "Everything Kaboom keeps under your Discord id, as JSON:";

/// `/privacy delete`'s question, answered with a "Yes, delete" button.
pub const FORGET_QUESTION: &str = "Delete your settings, private notes, conditional lines and puzzle history? Your games, ratings and vacations stay: your opponents' records and the yearly allowance depend on them.";

/// The "Yes, delete" button's label.
pub const FORGET_YES: &str = "Yes, delete";

/// The "Yes, delete" button pressed by someone other than who asked.
pub const FORGET_NOT_YOURS: &str =
    "This button deletes the data of whoever asked for it; use /privacy delete for yours.";

/// What the deletion removed.
pub fn forgotten(done: Forgotten) -> String {
    format!(
        "Deleted: {}, {}, {} and {}. Your settings are back to the defaults.",
        count(done.settings, "setting", "settings"),
        count(done.notes, "private note", "private notes"),
        count(
            done.conditional_moves,
            "conditional line",
            "conditional lines"
        ),
        count(done.puzzle_tries, "puzzle try", "puzzle tries")
    )
}
