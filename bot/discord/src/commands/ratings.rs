//! `/profile` and `/leaderboard`; the finished-games list is `/games
//! finished:true` ([`super::info::games`]). Their texts live in
//! [`crate::messages::ratings`].

use kaboom_rules::Variant;
use poise::serenity_prelude as serenity;

use super::challenge::VariantChoice;
use crate::ids::Domain;
use crate::messages::{self, ratings as texts};
use crate::types::{Context, Error};
use kaboom_store::games::Readable;

/// Which games a command may list for the caller: this server's games, or in a direct
/// message the caller's own (the rule of `/board` and `/pgn`).
pub fn readable(ctx: Context<'_>) -> Readable {
    Readable {
        guild: ctx.guild_id().map(Domain::domain),
        caller: ctx.author().id.domain(),
    }
}

/// A player's ratings, record, games in progress and last finished games.
///
/// Ratings are per variant and the same in every server; a rating marked `?` is still
/// provisional. Games are listed from this server only.
#[poise::command(slash_command)]
pub async fn profile(
    ctx: Context<'_>,
    #[description = "Whose profile (default: yours)"] user: Option<serenity::User>,
) -> Result<(), Error> {
    let who = user.as_ref().unwrap_or_else(|| ctx.author());
    let profile = ctx
        .data()
        .services
        .ratings()
        .profile(who.id.domain(), readable(ctx))
        .await?;
    ctx.send(
        poise::CreateReply::default()
            .content(texts::profile_text(&who.name, &profile))
            .allowed_mentions(messages::mentions::none()),
    )
    .await?;
    Ok(())
}

/// The ten best players of a variant, and your own rank.
///
/// Only established ratings are ranked: a provisional rating (marked `?`) needs more rated
/// games first.
#[poise::command(slash_command)]
pub async fn leaderboard(
    ctx: Context<'_>,
    #[description = "Which variant"] variant: VariantChoice,
) -> Result<(), Error> {
    let variant: Variant = variant.into();
    let board = ctx
        .data()
        .services
        .ratings()
        .leaderboard(variant, ctx.author().id.domain())
        .await?;
    ctx.send(
        poise::CreateReply::default()
            .content(texts::leaderboard_text(&board))
            .allowed_mentions(messages::mentions::none()),
    )
    .await?;
    Ok(())
}
