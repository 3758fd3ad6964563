//! The texts of games played by DM (started where the bot is not a member: a DM, a group
//! DM, a server where only a player installed the app; docs/ARCHITECTURE.md, "Play
//! anywhere").

use kaboom_domain::ids::{GameId, UserId};
use kaboom_store::challenges::Challenge;

use super::{challenge_text, mention};

/// `/challenge` in the player's own DM with the bot, where nobody else could see it (and
/// so accept it).
pub const NOT_IN_BOT_DM: &str = "Nobody else can see a challenge in your DM with me. Challenge in a group DM or a server, where your opponent can accept it.";

/// The line under a challenge whose game will be played by DM.
pub const PLAYED_BY_DM: &str = "The game is played by DM: I send each player the boards, turn notices and reminders in their DM with me.";

/// The challenge's message once `by` accepted it: the game and where it is played, above
/// its first board.
pub fn accepted(challenge: &Challenge, by: UserId, game: GameId) -> String {
    format!(
        "{}\nAccepted by {}: game #{game} is played by DM. You each get the boards and \
         reminders in your DM with me; move with `/move` there or here.",
        challenge_text(challenge),
        mention(by),
    )
}

/// The accepter's private answer.
pub fn game_on(game: GameId) -> String {
    format!("Game on! Game #{game} is played by DM: your boards come in your DM with me.")
}

/// The mover's private acknowledgement in a game played by DM once the boards are sent.
pub fn played(display: &str, game: GameId) -> String {
    format!("Played **{display}** in game #{game}. Your opponent gets the board in their DM.")
}

/// The caption of the public board a player's `/move` posts where a game played by DM
/// started: who moved what, and whose turn it is.
pub fn moved_here(by: UserId, display: &str, game: GameId, to_move: Option<UserId>) -> String {
    match to_move {
        Some(next) => format!(
            "{} played **{display}** in game #{game}. {} to move.",
            mention(by),
            mention(next)
        ),
        None => format!("{} played **{display}** in game #{game}.", mention(by)),
    }
}

/// How many characters of one missed post [`missed`] shows.
const MISSED_EXCERPT: usize = 300;

/// What a player missed while Discord refused to DM them (DMs closed, or no server shared
/// with the bot and no install), shown privately at their next command or click: each
/// post's text (cut to [`MISSED_EXCERPT`] characters), oldest first, within a message's
/// 2,000 characters
/// (<https://discord.com/developers/docs/resources/message#create-message-jsonform-params>),
/// the rest counted.
pub fn missed(texts: &[&str]) -> String {
    let mut out = String::from(
        "I could not DM you these (your DMs are closed to me, or we share no server: allow DMs from me, or install Kaboom to your account):",
    );
    let mut shown = 0;
    for text in texts {
        let excerpt: String = if text.chars().count() > MISSED_EXCERPT {
            let mut cut: String = text.chars().take(MISSED_EXCERPT - 1).collect();
            cut.push('…');
            cut
        } else {
            (*text).to_string()
        };
        let item = format!("\n> {}", excerpt.replace('\n', "\n> "));
        if out.chars().count() + item.chars().count() > 1900 {
            break;
        }
        out.push_str(&item);
        shown += 1;
    }
    if shown < texts.len() {
        out.push_str(&format!(
            "\n…and {} more. `/games` lists your games.",
            texts.len() - shown
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_fit_a_message_and_name_the_game() {
        assert_eq!(
            played("e4", GameId(7)),
            "Played **e4** in game #7. Your opponent gets the board in their DM."
        );
        assert_eq!(
            moved_here(UserId(1), "Nxd5", GameId(7), Some(UserId(2))),
            "<@1> played **Nxd5** in game #7. <@2> to move."
        );
        assert!(NOT_IN_BOT_DM.len() < 2000 && PLAYED_BY_DM.len() < 2000);
    }

    #[test]
    fn missed_posts_are_quoted_and_fit_one_message() {
        assert_eq!(
            missed(&["Your move in game #1.", "Time is up\nin game #1."]),
            "I could not DM you these (your DMs are closed to me, or we share no server: allow DMs from me, or install Kaboom to your account):\n> Your move in game #1.\n> Time is up\n> in game #1."
        );
        let long = "x".repeat(500);
        let many: Vec<&str> = std::iter::repeat_n(long.as_str(), 20).collect();
        let text = missed(&many);
        assert!(text.chars().count() <= 2000, "{}", text.chars().count());
        assert!(
            text.ends_with(" more. `/games` lists your games."),
            "{text}"
        );
        assert_eq!(text.matches('…').count(), 6, "five cut posts and the count");
    }
}
