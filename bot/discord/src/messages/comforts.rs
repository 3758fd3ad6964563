//! What players read of the correspondence comforts: conditional moves,
//! vacations, takebacks, notes and rematches. Every text fits Discord's 2,000-character
//! message content (<https://discord.com/developers/docs/resources/message#create-message-jsonform-params>);
//! custom ids stay under 100 characters
//! (<https://discord.com/developers/docs/interactions/message-components#custom-id>).

use kaboom_rules::Color;
use poise::serenity_prelude as serenity;

use super::{MESSAGE_LIMIT, fit_lines, mention, side};
use kaboom_domain::ids::{GameId, UserId};
use kaboom_service::comforts::{
    ComfortRefusal, MAX_LINE_ACTIONS, MAX_LINE_CHARS, MAX_LINES, MAX_NOTE_CHARS, VacationStarted,
};
use kaboom_store::comforts::{Line, Vacation};
use kaboom_store::games::GameRow;

/// Custom-id actions of the comforts' buttons (`kb:<action>:<id>`, as
/// [`super::ids::make`] makes them).
pub mod ids {
    /// Accept the opponent's takeback proposal.
    pub const TAKEBACK_YES: &str = "tbyes";
    /// Decline it.
    pub const TAKEBACK_NO: &str = "tbno";
    /// Ask for a rematch of a finished game.
    pub const REMATCH: &str = "rematch";
}

/// The "played by conditional move" note under a board.
pub const PLAYED_BY_CONDITIONAL: &str = "(Played by conditional move.)";

/// What a refused player reads.
pub fn refusal(r: &ComfortRefusal) -> String {
    match r {
        ComfortRefusal::NotAPlayer { what } => {
            format!("Only the two players can {what} in this game.")
        }
        ComfortRefusal::NotInPlay => "This game is not being played now.".into(),
        ComfortRefusal::LineTooShort { own_turn: false } => {
            "A conditional line names your opponent's move and then your reply, e.g. `Nf6 e5` (and may go on: `Nf6 e5 Nd5 c4`).".into()
        }
        ComfortRefusal::LineTooShort { own_turn: true } => {
            "It is your turn: a conditional line starts with your move (played now), then your opponent's reply and your answer, e.g. `e4 e5 Nf3`.".into()
        }
        ComfortRefusal::LineTooLong => format!(
            "A conditional line may hold at most {MAX_LINE_ACTIONS} actions ({MAX_LINE_CHARS} characters)."
        ),
        ComfortRefusal::TooManyLines => format!(
            "You already have {MAX_LINES} conditional lines in this game: `/premove clear` removes them."
        ),
        ComfortRefusal::OpponentActionIllegal { index, typed } => format!(
            "Action {} of your line, `{typed}`, is not a legal action for your opponent there.",
            index + 1
        ),
        ComfortRefusal::OwnActionIllegal {
            index,
            typed,
            reason,
        } => format!(
            "Action {} of your line, `{typed}`, is not legal for you there: {reason}",
            index + 1
        ),
        ComfortRefusal::LineBeyondEnd { index } => format!(
            "Your line goes on after the game would be over (at action {}).",
            index + 1
        ),
        ComfortRefusal::OpponentBoom => {
            "In Beirut a conditional line cannot name your opponent's Boom: their carriers are hidden from you. A Boom by your opponent ends your lines.".into()
        }
        ComfortRefusal::AfterCaptureDms => {
            "With the Dead Man's Switch a conditional line ends at your first capture: what it sets off depends on hidden carriers.".into()
        }
        ComfortRefusal::VacationRunning { until } => format!(
            "You are already on vacation until <t:{until}:f>. `/vacation end` ends it early."
        ),
        ComfortRefusal::NoVacation => "You are not on vacation.".into(),
        ComfortRefusal::VacationDays {
            asked,
            left,
            allowance,
        } => {
            if *left == 0 {
                format!("You have used all {allowance} vacation days of this year.")
            } else {
                format!(
                    "{asked} days is not possible: you have {left} of your {allowance} vacation days left this year."
                )
            }
        }
        ComfortRefusal::TakebackRated => "Takebacks are only for casual games; this one is rated.".into(),
        ComfortRefusal::NothingToTakeBack => "You have no move to take back.".into(),
        ComfortRefusal::TakebackAcrossReveal => {
            "In Beirut a takeback cannot undo a Boom or a Dead Man's Switch blast: it revealed a hidden carrier, which a takeback cannot hide again.".into()
        }
        ComfortRefusal::TakebackAlreadyProposed => {
            "Your takeback proposal already stands; your opponent has been asked.".into()
        }
        ComfortRefusal::NoTakeback => {
            "No takeback proposal stands (a move since it was made voids it).".into()
        }
        ComfortRefusal::OwnTakeback => "That is your own proposal: your opponent answers it.".into(),
        ComfortRefusal::NoteTooLong => format!(
            "Notes hold at most {MAX_NOTE_CHARS} characters per game: `/note clear:true` starts again."
        ),
        ComfortRefusal::RematchNotOver => "A rematch is for a game that is over.".into(),
        ComfortRefusal::RematchOpen { challenge, challenger } => format!(
            "A rematch already stands (challenge #{challenge}, offered by <@{challenger}>): it is waiting in the channel to be accepted."
        ),
    }
}

/// The private answer to a stored line.
pub fn line_stored(game: GameId, line: &[String]) -> String {
    format!(
        "Conditional line saved in game #{game}: `{}`. Only you see it; `/premove list` shows your lines.",
        line.join(" ")
    )
}

/// The private list of a player's lines.
pub fn lines_list(game: GameId, lines: &[Line]) -> String {
    if lines.is_empty() {
        return format!("You have no conditional lines in game #{game}.");
    }
    let mut out = vec![format!(
        "Your conditional lines in game #{game} (only you see them; each starts with your opponent's next action):"
    )];
    out.extend(
        lines
            .iter()
            .enumerate()
            .map(|(i, l)| format!("{}. `{}`", i + 1, l.actions.join(" "))),
    );
    fit_lines(&out, MESSAGE_LIMIT)
}

/// The private answer to `/premove clear`.
pub fn lines_cleared(game: GameId, n: u64) -> String {
    format!(
        "Removed {n} conditional line{} in game #{game}.",
        if n == 1 { "" } else { "s" }
    )
}

/// The DM telling a player that some of their lines were dropped.
pub fn lines_dropped(game: GameId, lines: &[String]) -> String {
    let mut out = vec![format!(
        "Game #{game}: {} of your conditional lines no longer apply and {} dropped:",
        lines.len(),
        if lines.len() == 1 { "was" } else { "were" }
    )];
    out.extend(lines.iter().map(|l| format!("- {l}")));
    fit_lines(&out, MESSAGE_LIMIT)
}

/// The line in a game's thread that a player is away.
pub fn vacation_started(row: &GameRow, v: &Vacation) -> String {
    let color = row.color_of(v.user_id).unwrap_or(Color::White);
    format!(
        "{} ({}) is on vacation until <t:{}:f>: their clock stands still until then, and they get no reminders.",
        row.name(color),
        side(color),
        v.until_at
    )
}

/// The line in a game's thread that a player is back early.
pub fn vacation_ended(row: &GameRow, v: &Vacation) -> String {
    let color = row.color_of(v.user_id).unwrap_or(Color::White);
    format!(
        "{} ({}) is back from vacation: their clock runs again.",
        row.name(color),
        side(color)
    )
}

/// The private answer to `/vacation start`.
pub fn vacation_start_reply(s: &VacationStarted) -> String {
    let mut t = format!(
        "Vacation until <t:{}:f>: your clocks stand still and you get no reminders. {} day{} left this year. `/vacation end` ends it early.",
        s.vacation.until_at,
        s.days_left,
        if s.days_left == 1 { "" } else { "s" }
    );
    if !s.too_late.is_empty() {
        let list: Vec<String> = s.too_late.iter().map(|g| format!("#{g}")).collect();
        t.push_str(&format!(
            "\nYour time had already run out in game {}: the vacation cannot stop that clock.",
            list.join(", ")
        ));
    }
    t
}

/// The private answer to `/vacation end`.
pub fn vacation_end_reply() -> &'static str {
    "Welcome back: your vacation is over and your clocks run again."
}

/// The private answer to `/vacation status`.
pub fn vacation_status(left: u32, allowance: u32, running: Option<&Vacation>) -> String {
    let mut t = format!("You have {left} of {allowance} vacation days left this year.");
    if let Some(v) = running {
        t.push_str(&format!(" You are on vacation until <t:{}:f>.", v.until_at));
    }
    t
}

/// The takeback proposal in the thread.
pub fn takeback_proposed(row: &GameRow, by: Color, plies: &[String]) -> String {
    let to = row.player(by.other());
    format!(
        "{} {} ({}) proposes a takeback of {}. Accept or decline below; a move voids it.",
        mention(to),
        row.name(by),
        side(by),
        plies.join(" ")
    )
}

/// The takeback proposal's buttons.
pub fn takeback_buttons(game: GameId) -> Vec<(String, String, String)> {
    vec![
        (
            super::ids::make(ids::TAKEBACK_YES, game),
            "Accept takeback".into(),
            "success".into(),
        ),
        (
            super::ids::make(ids::TAKEBACK_NO, game),
            "Decline".into(),
            "secondary".into(),
        ),
    ]
}

/// The line in the thread when a takeback is declined.
pub fn takeback_declined(row: &GameRow, by: Color) -> String {
    format!(
        "{} ({}) declined the takeback.",
        row.name(by.other()),
        side(by.other())
    )
}

/// The note under the board after a takeback.
pub fn taken_back(row: &GameRow, by: Color, plies: &[String]) -> String {
    format!(
        "Takeback: {} ({}) took back {}, with {}'s agreement.",
        row.name(by),
        side(by),
        plies.join(" "),
        row.name(by.other())
    )
}

/// The private answer to a takeback proposal, accept or decline.
pub fn takeback_reply(result: &kaboom_service::comforts::TakebackResult) -> String {
    use kaboom_service::comforts::TakebackResult;
    match result {
        TakebackResult::Proposed { undo, .. } => format!(
            "Takeback of {undo} pl{} proposed; your opponent is asked.",
            if *undo == 1 { "y" } else { "ies" }
        ),
        TakebackResult::Accepted { .. } => "Takeback accepted.".into(),
        TakebackResult::Declined { .. } => "Takeback declined.".into(),
    }
}

/// The private answer to `/note`.
pub fn note_reply(game: GameId, note: Option<&str>) -> String {
    match note {
        Some(n) => format!("Your private note for game #{game} (only you see it):\n{n}"),
        None => format!("You have no note for game #{game}."),
    }
}

/// The note under "My view", when there is one.
pub fn note_in_view(note: &str) -> String {
    format!("\n**Your note** (only you see it):\n{note}")
}

/// The rematch challenge's message.
pub fn rematch_text(challenge: &kaboom_store::challenges::Challenge, from: GameId) -> String {
    format!(
        "Rematch of game #{from}: {}",
        super::challenge_text(challenge)
    )
}

/// The private answer to the Rematch button.
pub fn rematch_reply(opponent: UserId) -> String {
    format!(
        "Rematch offered: {} can accept it in the channel.",
        mention(opponent)
    )
}

/// The Rematch button of a finished game's board.
pub fn rematch_button(game: GameId) -> serenity::CreateButton {
    serenity::CreateButton::new(super::ids::make(ids::REMATCH, game))
        .label("Rematch")
        .style(serenity::ButtonStyle::Primary)
}
