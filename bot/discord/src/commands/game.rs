//! `/resign`, `/draw`, `/abort`.

use super::{autocomplete_game, resolve_game, say_private};
use crate::flows;
use crate::ids::Domain;
use crate::types::{Context, Error};

/// What one of this module's commands asks of the game.
enum Request {
    Draw,
    Abort,
}

/// The body shared by `/draw` and `/abort`: defers privately, resolves the
/// game (the `game` option, else the thread's game, else the caller's only active game:
/// [`resolve_game`]), asks the services on behalf of the caller, posts what follows, and
/// answers the caller privately.
///
/// # Errors
/// A refusal from [`resolve_game`] or the services, or a Discord error.
async fn request(ctx: Context<'_>, game: Option<String>, request: Request) -> Result<(), Error> {
    crate::respond::defer(ctx, true).await?;
    let id = resolve_game(ctx, game.as_deref()).await?;
    let user = ctx.author().id.domain();
    let services = &ctx.data().services;
    let text = match request {
        Request::Abort => {
            let ended = services.games().abort(id, user).await?;
            flows::after_end(&ctx.data().outbox, &ended).await?
        }
        Request::Draw => {
            let result = services.games().offer_draw(id, user).await?;
            flows::after_draw(&ctx.data().outbox, &result).await?
        }
    };
    say_private(ctx, text).await
}

/// Resign the game: your opponent wins. You are asked to confirm first.
#[poise::command(slash_command)]
pub async fn resign(
    ctx: Context<'_>,
    #[description = "Which game (only needed outside its thread)"]
    #[autocomplete = "autocomplete_game"]
    #[max_length = 100]
    game: Option<String>,
) -> Result<(), Error> {
    // Nothing changes yet: the answer asks, as the Resign button does, and its
    // "Yes, resign" button resigns (`components::resign_question`).
    crate::respond::defer(ctx, true).await?;
    let id = resolve_game(ctx, game.as_deref()).await?;
    let (text, buttons) =
        crate::components::resign_question(ctx.data(), id, ctx.author().id.domain()).await?;
    crate::respond::send(
        ctx,
        poise::CreateReply::default()
            .content(text)
            .components(buttons)
            .ephemeral(true),
    )
    .await
}

/// Offer a draw, or accept your opponent's offer.
///
/// An offer stands until it is answered or your opponent moves; you may still make your own move.
#[poise::command(slash_command)]
pub async fn draw(
    ctx: Context<'_>,
    #[description = "Which game (only needed outside its thread)"]
    #[autocomplete = "autocomplete_game"]
    #[max_length = 100]
    game: Option<String>,
) -> Result<(), Error> {
    request(ctx, game, Request::Draw).await
}

/// Call the game off without a result: only before both sides have moved.
#[poise::command(slash_command)]
pub async fn abort(
    ctx: Context<'_>,
    #[description = "Which game (only needed outside its thread)"]
    #[autocomplete = "autocomplete_game"]
    #[max_length = 100]
    game: Option<String>,
) -> Result<(), Error> {
    request(ctx, game, Request::Abort).await
}
