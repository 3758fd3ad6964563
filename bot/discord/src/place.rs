//! Where `/challenge` may be used and where its game is played: in its own public thread
//! where the bot is a member of the server, by DM where it is not. Checked from the
//! interaction (its channel type, server, installations and the bot's permissions there)
//! before anything is stored.

use poise::serenity_prelude as serenity;

use crate::types::Context;
use kaboom_domain::game::Venue;
use kaboom_service::Refusal;

/// The permissions the bot needs in a challenge's channel, and the set its invite link asks
/// for (`kaboom invite-url`, docs/hosting.md): see the channel, post and read its history,
/// open a public thread and post boards (files, embeds) in it.
pub const NEEDED: serenity::Permissions = serenity::Permissions::from_bits_truncate(
    serenity::Permissions::VIEW_CHANNEL.bits()
        | serenity::Permissions::SEND_MESSAGES.bits()
        | serenity::Permissions::SEND_MESSAGES_IN_THREADS.bits()
        | serenity::Permissions::CREATE_PUBLIC_THREADS.bits()
        | serenity::Permissions::ATTACH_FILES.bits()
        | serenity::Permissions::EMBED_LINKS.bits()
        | serenity::Permissions::READ_MESSAGE_HISTORY.bits(),
);

/// Where a challenge made in a channel of type `kind` (`None`: not told) in server
/// `guild` (`None`: a DM or group DM) is played, the bot having `app_permissions` there
/// (`None`: not told) and being a member of the server (`bot_member`: the server
/// installation authorizes the interaction). Where the bot is not a member (a DM, a group
/// DM, a server where only the player installed the app) the game is played by DM
/// ([`Venue::Direct`]). In a server with the bot, only a text channel can hold the game's
/// public thread: not a thread (forum posts are threads), a forum or an announcement
/// channel.
///
/// # Errors
/// [`Refusal::ChallengeNotHere`] naming the place, or [`Refusal::BotLacksPermissions`]
/// naming the missing permissions as Discord's settings name them.
pub fn check(
    guild: Option<u64>,
    kind: Option<serenity::ChannelType>,
    app_permissions: Option<serenity::Permissions>,
    bot_member: bool,
) -> Result<Venue, Refusal> {
    use serenity::ChannelType as T;
    if guild.is_none() || !bot_member || matches!(kind, Some(T::Private | T::GroupDm)) {
        return Ok(Venue::Direct);
    }
    let place = match kind {
        Some(T::PublicThread | T::PrivateThread | T::NewsThread) => Some("a thread"),
        Some(T::Forum) => Some("a forum"),
        Some(T::News) => Some("an announcement channel"),
        Some(T::Text) | None => None,
        Some(_) => Some("this kind of channel"),
    };
    if let Some(place) = place {
        return Err(Refusal::ChallengeNotHere {
            place: place.to_string(),
        });
    }
    let missing = app_permissions.map_or(serenity::Permissions::empty(), |p| NEEDED - p);
    if missing.is_empty() {
        return Ok(Venue::Thread);
    }
    Err(Refusal::BotLacksPermissions {
        missing: missing
            .get_permission_names()
            .into_iter()
            .map(str::to_string)
            .collect(),
    })
}

/// Whether the bot is a member where the interaction of `ctx` happened: its
/// `authorizing_integration_owners` name a server installation ("0": the server's id, or
/// "0" in the bot's DM; <https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-authorizing-integration-owners-object>).
/// A user installation alone means the bot is not there. Prefix commands: always.
pub fn bot_member(ctx: Context<'_>) -> bool {
    match ctx {
        poise::Context::Application(app) => app
            .interaction
            .authorizing_integration_owners
            .0
            .iter()
            .any(|o| matches!(o, serenity::AuthorizingIntegrationOwner::GuildInstall(_))),
        poise::Context::Prefix(_) => true,
    }
}

/// [`check`] for the interaction of `ctx`.
///
/// # Errors
/// As [`check`].
pub fn check_challenge(ctx: Context<'_>) -> Result<Venue, Refusal> {
    let (kind, perms) = match ctx {
        poise::Context::Application(app) => (
            app.interaction.channel.as_ref().map(|c| c.kind),
            app.interaction.app_permissions,
        ),
        poise::Context::Prefix(_) => (None, None),
    };
    check(
        ctx.guild_id().map(serenity::GuildId::get),
        kind,
        perms,
        bot_member(ctx),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serenity::ChannelType as T;

    #[test]
    fn only_a_server_text_channel_with_the_permissions() {
        let all = Some(serenity::Permissions::all());
        assert!(matches!(
            check(Some(1), Some(T::Text), all, true),
            Ok(Venue::Thread)
        ));
        assert!(matches!(
            check(Some(1), None, None, true),
            Ok(Venue::Thread)
        ));
        for (guild, kind, place) in [
            (Some(1), Some(T::PublicThread), "a thread"),
            (Some(1), Some(T::Forum), "a forum"),
            (Some(1), Some(T::News), "an announcement channel"),
            (Some(1), Some(T::Voice), "this kind of channel"),
        ] {
            match check(guild, kind, all, true) {
                Err(Refusal::ChallengeNotHere { place: p }) => assert_eq!(p, place),
                other => panic!("{kind:?}: {other:?}"),
            }
        }
        let without = NEEDED - serenity::Permissions::ATTACH_FILES;
        match check(Some(1), Some(T::Text), Some(without), true) {
            Err(Refusal::BotLacksPermissions { missing }) => {
                assert_eq!(missing, vec!["Attach Files".to_string()]);
            }
            other => panic!("{other:?}"),
        }
    }

    /// In a DM or group DM Discord sends `app_permissions` as the fixed set of what
    /// interaction responses can use (`ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE`, and
    /// `USE_EXTERNAL_EMOJIS` in the bot's DM; Interaction Object:
    /// <https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-structure>):
    /// such a game is played by DM, never refused for "missing" server permissions; and so
    /// is one in any channel of a server where only the player installed the app.
    #[test]
    fn where_the_bot_is_not_a_member_the_game_is_played_by_dm() {
        let dm = serenity::Permissions::ATTACH_FILES
            | serenity::Permissions::EMBED_LINKS
            | serenity::Permissions::MENTION_EVERYONE
            | serenity::Permissions::USE_EXTERNAL_EMOJIS;
        for kind in [Some(T::Private), Some(T::GroupDm), None] {
            for perms in [Some(dm), None, Some(serenity::Permissions::empty())] {
                for member in [true, false] {
                    assert!(matches!(
                        check(None, kind, perms, member),
                        Ok(Venue::Direct)
                    ));
                }
            }
        }
        for kind in [Some(T::Text), Some(T::PublicThread), Some(T::Forum), None] {
            assert!(matches!(
                check(Some(1), kind, Some(dm), false),
                Ok(Venue::Direct)
            ));
        }
    }
}
