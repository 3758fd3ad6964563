//! The texts of ratings: the rating line of a finished game's result, `/profile`,
//! `/leaderboard` and the finished-games list of `/games finished:true`. Each fits in one
//! message ([`super::MESSAGE_LIMIT`], Discord's 2000 characters of content:
//! <https://discord.com/developers/docs/resources/message#create-message>), cut with
//! [`super::fit_lines`] where a list could grow.

use kaboom_rules::{Color, Outcome};

use super::{MESSAGE_LIMIT, fit_lines};
use kaboom_domain::rating::{self, Glicko};
use kaboom_service::ratings::{ArchivePage, CurrentGame, FinishedGame, Leaderboard, Profile};
use kaboom_store::games::GameRow;
use kaboom_store::ratings::{GameChange, PlayerRating, SideChange};

/// `+17`, `-3`, `+0`.
pub fn signed(diff: i64) -> String {
    if diff < 0 {
        diff.to_string()
    } else {
        format!("+{diff}")
    }
}

/// `alice 1532 (+17)` (`1532?` while provisional).
pub fn side_change(side: &SideChange) -> String {
    format!(
        "{} {} ({})",
        side.name,
        side.after.display(),
        signed(side.diff())
    )
}

/// The line under a rated game's result: `Ratings: alice 1532 (+17) · bob 1468 (-17)`.
pub fn rating_line(change: &GameChange) -> String {
    format!(
        "Ratings ({}): {} · {}",
        change.variant.title(),
        side_change(&change.white),
        side_change(&change.black)
    )
}

/// The note under the result of a game that was played as rated but does not count because
/// a side never moved (`None` for casual games, aborted games, and games that count).
pub fn unrated_note(row: &GameRow, outcome: &Outcome) -> Option<String> {
    let aborted = outcome.reason == kaboom_rules::EndReason::Aborted;
    (row.rated && !aborted && !rating::counts(row.rated, row.ply, outcome)).then(|| {
        "Not rated: a game counts for ratings only once both players have moved.".to_string()
    })
}

/// The lines a finished game adds under its result: the rating change, or why a rated
/// game did not count.
pub fn result_lines(row: &GameRow, outcome: &Outcome, change: Option<&GameChange>) -> Vec<String> {
    match change {
        Some(c) => vec![rating_line(c)],
        None => unrated_note(row, outcome).into_iter().collect(),
    }
}

/// `1532?` with the games played: `1532? · 3 games`.
fn rating_with_games(r: &PlayerRating) -> String {
    format!(
        "{} · {} game{}",
        r.glicko.display(),
        r.games,
        if r.games == 1 { "" } else { "s" }
    )
}

/// Where a game is: its thread, or `#12` when it has none.
fn place(row: &GameRow) -> String {
    row.thread_id
        .map_or_else(|| format!("game #{}", row.id), |t| format!("<#{t}>"))
}

fn opponent(row: &GameRow, color: Color) -> &str {
    row.name(color.other())
}

/// `won`, `lost`, `drew` or `aborted` from `color`'s side of a finished game.
fn verdict(row: &GameRow, color: Color) -> &'static str {
    match (row.result.as_deref(), row.reason.as_deref()) {
        (_, Some("aborted")) => "aborted",
        (Some("1-0"), _) if color == Color::White => "won",
        (Some("0-1"), _) if color == Color::Black => "won",
        (Some("1-0" | "0-1"), _) => "lost",
        _ => "drew",
    }
}

/// One finished game from the player's side: `#12 Atomic vs bob · won 1-0 (resignation)
/// · <t:..:d> · 1532 (+17) · <#thread>`.
pub fn finished_line(g: &FinishedGame) -> String {
    let row = &g.game.row;
    // The stored reason is the `status.reason` vocabulary, which `EndReason` reads.
    let reason = row
        .reason
        .as_deref()
        .map(|r| {
            serde_json::from_value::<kaboom_rules::EndReason>(r.into())
                .map_or_else(|_| r.replace('-', " "), |e| e.describe().to_string())
        })
        .unwrap_or_default();
    let verdict = match verdict(row, g.color) {
        "aborted" => "aborted".to_string(),
        v => format!("{v} {} ({reason})", row.result.as_deref().unwrap_or("*")),
    };
    let mut s = format!(
        "#{} {} vs {} · {verdict} · <t:{}:d>",
        row.id,
        row.variant.title(),
        opponent(row, g.color),
        g.game.ended_at
    );
    match &g.change {
        Some(c) => s.push_str(&format!(" · {} ({})", c.after.display(), signed(c.diff()))),
        // Played as rated, but aborted or ended before both sides moved.
        None if row.rated => s.push_str(" · not rated"),
        None => s.push_str(" · casual"),
    }
    s.push_str(&format!(" · {}", place(row)));
    s
}

fn current_line(g: &CurrentGame, user: kaboom_domain::ids::UserId) -> String {
    let row = &g.row;
    let color = row.color_of(user).unwrap_or(Color::White);
    let turn = match g.to_move {
        None => "choosing carriers".to_string(),
        Some(c) => format!("{} to move", row.name(c)),
    };
    format!(
        "#{} {} vs {} · {turn}{} · {}",
        row.id,
        row.variant.title(),
        opponent(row, color),
        row.deadline_at
            .map_or_else(String::new, |d| format!(" by <t:{d}:R>")),
        place(row)
    )
}

/// The `/profile` text of `name`: ratings and records per variant, the last finished
/// games, then the games in progress (cut with a count when the message would be too long).
pub fn profile_text(name: &str, p: &Profile) -> String {
    let mut lines = vec![format!("**{name}**")];
    if p.ratings.is_empty() {
        lines.push(format!(
            "Ratings: none yet (everyone starts at {}? in each variant).",
            Glicko::START.shown()
        ));
    } else {
        lines.push("Ratings:".to_string());
        for r in &p.ratings {
            lines.push(format!(
                "- {}: **{}** · {}W {}D {}L",
                r.variant.title(),
                rating_with_games(r),
                r.wins,
                r.draws,
                r.losses
            ));
        }
        if p.ratings.iter().any(|r| r.glicko.provisional()) {
            lines.push("(`?`: provisional, until enough rated games settle it.)".to_string());
        }
    }
    if p.recent.is_empty() {
        lines.push("Finished games: none yet.".to_string());
    } else {
        lines.push(format!(
            "Last {} of {} finished games (all: `/games finished:true`):",
            p.recent.len(),
            p.finished
        ));
        lines.extend(p.recent.iter().map(|g| format!("- {}", finished_line(g))));
    }
    if p.current.is_empty() {
        lines.push("Games in progress: none.".to_string());
    } else {
        lines.push(format!("Games in progress ({}):", p.current.len()));
        lines.extend(
            p.current
                .iter()
                .map(|g| format!("- {}", current_line(g, p.user))),
        );
    }
    // The games in progress come last: a long list of them is what gets cut.
    fit_lines(&lines, MESSAGE_LIMIT)
}
/// The `/leaderboard` text.
pub fn leaderboard_text(lb: &Leaderboard) -> String {
    let mut lines = vec![format!("**{} leaderboard**", lb.variant.title())];
    if lb.top.is_empty() {
        lines.push("No one has an established rating in this variant yet.".to_string());
    }
    for (i, r) in lb.top.iter().enumerate() {
        lines.push(format!("{}. {} · {}", i + 1, r.name, rating_with_games(r)));
    }
    if lb.provisional > 0 {
        lines.push(format!(
            "{} player{} with a provisional rating (`?`) {} not listed.",
            lb.provisional,
            if lb.provisional == 1 { "" } else { "s" },
            if lb.provisional == 1 { "is" } else { "are" }
        ));
    }
    lines.push(match &lb.caller {
        None => "You have no rating in this variant yet: play a rated game.".to_string(),
        Some((r, Some(rank))) => format!(
            "You: {} · rank {rank} of {}.",
            rating_with_games(r),
            lb.established
        ),
        Some((r, None)) => format!(
            "You: {} · provisional, so not ranked yet.",
            rating_with_games(r)
        ),
    });
    fit_lines(&lines, MESSAGE_LIMIT)
}

/// The finished-games list of `name` (one page).
pub fn archive_text(name: &str, page: &ArchivePage) -> String {
    if page.total == 0 {
        return format!("{name} has no finished games yet.");
    }
    let mut lines = vec![format!(
        "Finished games of {name} ({} in all) · page {} of {}:",
        page.total, page.page, page.pages
    )];
    lines.extend(page.games.iter().map(finished_line));
    if page.page < page.pages {
        lines.push(format!(
            "More: `/games finished:true page:{}`.",
            page.page + 1
        ));
    }
    fit_lines(&lines, MESSAGE_LIMIT)
}
