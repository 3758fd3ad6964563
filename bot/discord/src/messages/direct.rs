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
}
