//! The texts of `/puzzle` and the daily puzzle post.

use kaboom_rules::{Color, Variant, Viewer};
use kaboom_service::puzzles::{Answered, DailyPost, PuzzleRatingChange, PuzzleView};
use kaboom_store::puzzles::PuzzleRating;

use super::{and_list, side};

/// Custom id action of the daily post's button (`kb:pzdaily:<day>`).
pub const TRY_DAILY: &str = "pzdaily";

/// The daily post's button label.
pub const TRY_DAILY_LABEL: &str = "Try it privately";

/// A theme name as players read it: `king-blast` → `king blast`.
pub fn theme_words(theme: &str) -> String {
    theme.replace('-', " ")
}

/// `1500? → 1648? (+148)`.
fn change_text(c: &PuzzleRatingChange) -> String {
    let delta = c.after.shown() - c.before.shown();
    format!("{} → {} ({delta:+})", c.before.display(), c.after.display())
}

/// The carriers of `color` in `view`'s position, named: `the knight on g1 and the pawn
/// on e7`; `None` when it has none (outside Beirut and Nuke, or all gone).
fn carriers(view: &PuzzleView, color: Color) -> Option<String> {
    let board = view.game.board_view(Viewer::Full);
    let named: Vec<String> = board
        .pieces
        .iter()
        .filter(|p| p.color == color && p.carrier)
        .map(|p| format!("the {} on {}", p.kind.name(), p.square))
        .collect();
    (!named.is_empty()).then(|| and_list(&named))
}

/// The first lines of a puzzle: what it is and what to do.
pub fn intro(view: &PuzzleView) -> String {
    let p = &view.puzzle;
    let themes: Vec<String> = p.themes.iter().map(|t| theme_words(t)).collect();
    let mut s = format!(
        "**Puzzle {}** · {} · rated {}{}\n",
        p.id,
        p.variant.title(),
        p.glicko.shown(),
        if themes.is_empty() {
            String::new()
        } else {
            format!(" · {}", themes.join(", "))
        }
    );
    s.push_str(&format!(
        "You play {}: find the best move{}. Answer with `/puzzle move`.",
        side(view.solver),
        moves_left(view)
    ));
    s.push_str(&secrets(view));
    s
}

/// ` (move 2 of 3)` for a puzzle of several moves; empty for one.
fn moves_left(view: &PuzzleView) -> String {
    if view.moves() > 1 {
        format!(" (move {} of {})", view.move_number(), view.moves())
    } else {
        String::new()
    }
}

/// Beirut and Nuke: the carriers of both sides, which the solver knows as in a study.
fn secrets(view: &PuzzleView) -> String {
    if !view.puzzle.variant.has_designation() {
        return String::new();
    }
    let mine = carriers(view, view.solver).map(|c| format!("\nYour carriers: {c}."));
    let theirs = carriers(view, !view.solver).map(|c| {
        format!(
            "\n{}'s carriers (you know them, as after the game): {c}.",
            side(!view.solver)
        )
    });
    format!("{}{}", mine.unwrap_or_default(), theirs.unwrap_or_default())
}

/// The answer to a move.
pub fn answered(a: &Answered) -> String {
    match a {
        Answered::Continue {
            view,
            played,
            reply,
        } => format!(
            "**{}** is right. {} answers **{}**. Find the next move{}.",
            played.display,
            side(!view.solver),
            reply.display,
            moves_left(view)
        ),
        Answered::Solved {
            view,
            played,
            change,
            streak,
        } => format!(
            "**{}** solves puzzle {}!\n{}\nStreak: {streak} solved in a row.",
            played.display,
            view.puzzle.id,
            rating_line(view.puzzle.variant, change.as_ref())
        ),
        Answered::Failed {
            view,
            played,
            refutation,
            solution,
            change,
        } => {
            let answer = match refutation {
                Some(r) => format!(" {} answers **{r}**.", side(!view.solver)),
                None => String::new(),
            };
            format!(
                "**{}** is not it.{answer} The solution: {}.\n{}\nStreak: 0.",
                played.display,
                solution
                    .iter()
                    .enumerate()
                    .map(|(i, m)| if i % 2 == 0 {
                        format!("**{m}**")
                    } else {
                        m.clone()
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
                rating_line(view.puzzle.variant, change.as_ref())
            )
        }
    }
}

fn rating_line(variant: Variant, change: Option<&PuzzleRatingChange>) -> String {
    match change {
        Some(c) => format!("Puzzle rating ({}): {}.", variant.title(), change_text(c)),
        None => "Not rated: only your first try at a puzzle counts.".to_string(),
    }
}

/// `/puzzle rating`'s line for one variant.
pub fn rating_summary(variant: Variant, r: &PuzzleRating) -> String {
    format!(
        "{}: {} · solved {} of {} · streak {} (best {})",
        variant.title(),
        r.glicko.display(),
        r.solved,
        r.attempts,
        r.streak,
        r.best_streak
    )
}

/// `/puzzle rating` before any puzzle.
pub const NO_RATING: &str = "None yet: `/puzzle solve` gives you your first puzzle.";

/// The daily post's text.
pub fn daily_post(d: &DailyPost) -> String {
    let solver = side(d.solver);
    let mut s = format!(
        "**Daily puzzle** · <t:{}:D> · {} · rated {}\n{solver} to play and win. **{TRY_DAILY_LABEL}**: only you see your answers.",
        d.day * 86_400,
        d.puzzle.variant.title(),
        d.puzzle.glicko.shown()
    );
    if let Some((solved, tried)) = d.yesterday {
        s.push_str(&format!(
            "\nYesterday's puzzle: solved by {solved} of the {tried} {} who tried it.",
            if tried == 1 { "player" } else { "players" }
        ));
    }
    s
}

/// The daily puzzle asked for where no daily puzzle is set up.
pub const NO_DAILY: &str = "This server has no daily puzzle today. A server admin can choose its channel with `/settings server puzzle_channel:`; meanwhile `/puzzle solve` gives you one.";
