//! `/resign`, `/draw`, `/abort`.

use super::{autocomplete_game, resolve_game, say_private};
use crate::flows;
use crate::types::{Context, Error};

/// Resign the game: your opponent wins.
#[poise::command(slash_command)]
pub async fn resign(
    ctx: Context<'_>,
    #[description = "Which game (only needed outside its thread)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<String>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let id = resolve_game(ctx, game.as_deref()).await?;
    let services = &ctx.data().services;
    let ended = services.resign(id, ctx.author().id.get()).await?;
    let text = flows::after_end(ctx.http(), services, &ended).await?;
    say_private(ctx, text).await
}

/// Offer a draw, or accept your opponent's offer.
///
/// An offer stands until it is answered or your opponent moves; you may still make your own move.
#[poise::command(slash_command)]
pub async fn draw(
    ctx: Context<'_>,
    #[description = "Which game (only needed outside its thread)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<String>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let id = resolve_game(ctx, game.as_deref()).await?;
    let services = &ctx.data().services;
    let result = services.offer_draw(id, ctx.author().id.get()).await?;
    let text = flows::after_draw(ctx.http(), services, &result).await?;
    say_private(ctx, text).await
}

/// Call the game off without a result: only before both sides have moved.
#[poise::command(slash_command)]
pub async fn abort(
    ctx: Context<'_>,
    #[description = "Which game (only needed outside its thread)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<String>,
) -> Result<(), Error> {
    ctx.defer_ephemeral().await?;
    let id = resolve_game(ctx, game.as_deref()).await?;
    let services = &ctx.data().services;
    let ended = services.abort(id, ctx.author().id.get()).await?;
    let text = flows::after_end(ctx.http(), services, &ended).await?;
    say_private(ctx, text).await
}
