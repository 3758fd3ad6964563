//! Where `/challenge` may be used: only where the bot can open the game's public
//! thread and play in it. Checked from the interaction (its channel type, server and the
//! bot's permissions there) before anything is stored.

use poise::serenity_prelude as serenity;

use crate::types::Context;
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

/// Whether a challenge may be posted in a channel of type `kind` (`None`: not told) in
/// server `guild` (`None`: a direct message), the bot having `app_permissions` there
/// (`None`: not told). Only a server's text channel can hold the game's public thread:
/// not a thread (forum posts are threads), a direct message, a forum or an announcement
/// channel.
///
/// # Errors
/// [`Refusal::ChallengeNotHere`] naming the place, or [`Refusal::BotLacksPermissions`]
/// naming the missing permissions as Discord's settings name them.
pub fn check(
    guild: Option<u64>,
    kind: Option<serenity::ChannelType>,
    app_permissions: Option<serenity::Permissions>,
) -> Result<(), Refusal> {
    use serenity::ChannelType as T;
    let place = match (guild, kind) {
        (None, _) | (_, Some(T::Private | T::GroupDm)) => Some("a direct message"),
        (_, Some(T::PublicThread | T::PrivateThread | T::NewsThread)) => Some("a thread"),
        (_, Some(T::Forum)) => Some("a forum"),
        (_, Some(T::News)) => Some("an announcement channel"),
        (_, Some(T::Text) | None) => None,
        (_, Some(_)) => Some("this kind of channel"),
    };
    if let Some(place) = place {
        return Err(Refusal::ChallengeNotHere {
            place: place.to_string(),
        });
    }
    let missing = app_permissions.map_or(serenity::Permissions::empty(), |p| NEEDED - p);
    if missing.is_empty() {
        return Ok(());
    }
    Err(Refusal::BotLacksPermissions {
        missing: missing
            .get_permission_names()
            .into_iter()
            .map(str::to_string)
            .collect(),
    })
}

/// [`check`] for the interaction of `ctx`.
///
/// # Errors
/// As [`check`].
pub fn check_challenge(ctx: Context<'_>) -> Result<(), Refusal> {
    let (kind, perms) = match ctx {
        poise::Context::Application(app) => (
            app.interaction.channel.as_ref().map(|c| c.kind),
            app.interaction.app_permissions,
        ),
        poise::Context::Prefix(_) => (None, None),
    };
    check(ctx.guild_id().map(serenity::GuildId::get), kind, perms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serenity::ChannelType as T;

    #[test]
    fn only_a_server_text_channel_with_the_permissions() {
        let all = Some(serenity::Permissions::all());
        assert!(check(Some(1), Some(T::Text), all).is_ok());
        assert!(check(Some(1), None, None).is_ok());
        for (guild, kind, place) in [
            (None, Some(T::Private), "a direct message"),
            (Some(1), Some(T::PublicThread), "a thread"),
            (Some(1), Some(T::Forum), "a forum"),
            (Some(1), Some(T::News), "an announcement channel"),
            (Some(1), Some(T::Voice), "this kind of channel"),
        ] {
            match check(guild, kind, all) {
                Err(Refusal::ChallengeNotHere { place: p }) => assert_eq!(p, place),
                other => panic!("{kind:?}: {other:?}"),
            }
        }
        let without = NEEDED - serenity::Permissions::ATTACH_FILES;
        match check(Some(1), Some(T::Text), Some(without)) {
            Err(Refusal::BotLacksPermissions { missing }) => {
                assert_eq!(missing, vec!["Attach Files".to_string()]);
            }
            other => panic!("{other:?}"),
        }
    }

    /// In a direct message Discord sends `app_permissions` as the fixed DM set
    /// (`ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE | USE_EXTERNAL_EMOJIS`, Interaction
    /// Object: <https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-object-interaction-structure>):
    /// the refusal names the place, never "missing" server permissions.
    #[test]
    fn a_direct_message_is_refused_for_the_place_whatever_its_permissions() {
        let dm = serenity::Permissions::ATTACH_FILES
            | serenity::Permissions::EMBED_LINKS
            | serenity::Permissions::MENTION_EVERYONE
            | serenity::Permissions::USE_EXTERNAL_EMOJIS;
        for kind in [Some(T::Private), Some(T::GroupDm), None] {
            for perms in [Some(dm), None, Some(serenity::Permissions::empty())] {
                match check(None, kind, perms) {
                    Err(Refusal::ChallengeNotHere { place }) => {
                        assert_eq!(place, "a direct message");
                    }
                    other => panic!("{kind:?} {perms:?}: {other:?}"),
                }
            }
        }
    }
}
