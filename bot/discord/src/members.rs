//! Whether players are still members of a server, for closing a league's sign-up
//! ([`kaboom_service::leagues::Membership`]): Discord's Get Guild Member
//! (<https://discord.com/developers/docs/resources/guild#get-guild-member>), which answers
//! 404 with JSON error code 10007 Unknown Member for a user who left
//! (<https://discord.com/developers/docs/topics/opcodes-and-status-codes#json>). It needs no
//! privileged intent.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use kaboom_domain::ids::{GuildId, UserId};
use kaboom_service::leagues::Membership;
use poise::serenity_prelude as serenity;

use crate::ids::Serenity;

/// Discord's JSON error code for a user who is not a member of the server.
const UNKNOWN_MEMBER: isize = 10007;

/// Asks Discord over `http`.
pub struct DiscordMembership {
    http: Arc<serenity::Http>,
}

impl DiscordMembership {
    /// A check asking Discord over the bot's `http`.
    pub fn new(http: Arc<serenity::Http>) -> DiscordMembership {
        DiscordMembership { http }
    }
}

impl Membership for DiscordMembership {
    fn is_member(
        &self,
        guild: GuildId,
        user: UserId,
    ) -> Pin<Box<dyn Future<Output = Option<bool>> + Send + '_>> {
        Box::pin(async move {
            match self
                .http
                .get_member(guild.serenity(), user.serenity())
                .await
            {
                Ok(_) => Some(true),
                Err(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)))
                    if response.error.code == UNKNOWN_MEMBER =>
                {
                    Some(false)
                }
                Err(e) => {
                    tracing::warn!(%guild, %user, error = %e, "could not tell whether a league player is still a member; they stay");
                    None
                }
            }
        })
    }
}
