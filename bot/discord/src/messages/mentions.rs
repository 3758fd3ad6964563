//! Who a message may ping: every message the bot sends says it, users only and
//! exactly the ones the bot itself mentions, so that a display name such as `@everyone` or
//! `<@&role>` inside a text pings nobody.

use crate::ids::Serenity;
use poise::serenity_prelude as serenity;

use kaboom_domain::ids::UserId;
use kaboom_service::Snapshot;
use kaboom_store::games::GameState;

/// May ping exactly `users`: no `@everyone`/`@here`, no role, no other user.
pub fn only(users: &[UserId]) -> serenity::CreateAllowedMentions {
    serenity::CreateAllowedMentions::new()
        .users(users.iter().copied().map(Serenity::serenity))
        .replied_user(false)
}

/// May ping nobody.
pub fn none() -> serenity::CreateAllowedMentions {
    only(&[])
}

/// The pings of a board message ([`super::board_caption`]): the player to move while the
/// game is played, nobody during the carrier choice or after the end.
pub fn board(snap: &Snapshot) -> serenity::CreateAllowedMentions {
    if snap.outcome().is_none() && snap.row.state == GameState::Active {
        only(&[snap.row.player(snap.game.turn())])
    } else {
        none()
    }
}

/// The users a scheduler announcement mentions on purpose: the `<@id>` tokens that end its
/// first line (the game-end announcement ends it with both players' mentions,
/// [`super::SchedulerWords`]); display names come before them and cannot add any.
pub fn trailing_mentions(text: &str) -> Vec<UserId> {
    let first = text.lines().next().unwrap_or_default();
    first
        .split(' ')
        .rev()
        .map_while(|w| w.strip_prefix("<@")?.strip_suffix('>')?.parse().ok())
        .collect::<Vec<UserId>>()
        .into_iter()
        .rev()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::trailing_mentions;
    use kaboom_domain::ids::UserId;

    #[test]
    fn only_the_trailing_mentions_count() {
        assert_eq!(
            trailing_mentions("Time is up: <@3> (white) lost, 0-1. <@1> <@2>\n<@4>"),
            vec![UserId(1), UserId(2)]
        );
        assert_eq!(
            trailing_mentions("by @everyone <@&5>"),
            Vec::<UserId>::new()
        );
    }
}
