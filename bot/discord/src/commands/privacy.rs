//! `/privacy show|export|delete`: a player sees, downloads and deletes what Kaboom keeps
//! about them (docs/hosting.md, "Privacy: what Kaboom keeps"). Every answer is private.

use poise::serenity_prelude as serenity;

use super::say_private;
use crate::ids::Domain;
use crate::messages::{self, privacy as words};
use crate::types::{Context, Error};

/// See, download or delete what Kaboom keeps about you.
#[poise::command(slash_command, subcommands("show", "export", "delete"))]
pub async fn privacy(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// What Kaboom keeps about you, and what stays.
#[poise::command(slash_command)]
pub async fn show(ctx: Context<'_>) -> Result<(), Error> {
    crate::respond::defer(ctx, true).await?;
    let data = ctx
        .data()
        .services
        .settings()
        .personal_data(ctx.author().id.domain())
        .await?;
    say_private(ctx, words::summary(&data)).await
}

/// Everything Kaboom keeps about you, as a file only you see.
#[poise::command(slash_command)]
pub async fn export(ctx: Context<'_>) -> Result<(), Error> {
    crate::respond::defer(ctx, true).await?;
    let user = ctx.author().id;
    let data = ctx
        .data()
        .services
        .settings()
        .personal_data(user.domain())
        .await?;
    let json = serde_json::to_vec_pretty(&data)?;
    crate::respond::send(
        ctx,
        poise::CreateReply::default()
            .content(words::EXPORT)
            .attachment(serenity::CreateAttachment::bytes(
                json,
                words::export_name(user.get()),
            ))
            .ephemeral(true),
    )
    .await
}

/// Delete your settings, private notes, conditional lines and puzzle history (you are asked first).
#[poise::command(slash_command)]
pub async fn delete(ctx: Context<'_>) -> Result<(), Error> {
    let user = ctx.author().id;
    let Ok(id) = i64::try_from(user.get()) else {
        return say_private(ctx, words::FORGET_NOT_YOURS).await;
    };
    let yes = serenity::CreateButton::new(messages::ids::make(words::FORGET, id))
        .label(words::FORGET_YES)
        .style(serenity::ButtonStyle::Danger);
    crate::respond::send(
        ctx,
        poise::CreateReply::default()
            .content(words::FORGET_QUESTION)
            .components(vec![serenity::CreateActionRow::Buttons(vec![yes])])
            .ephemeral(true),
    )
    .await
}
