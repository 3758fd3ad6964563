//! `/analysis [game]`: the engine's post-game analysis, posted in the game's thread; and
//! `/moves [game]`: a game's whole move list.

use super::{autocomplete_game, readable_game, resolve_game, say_private};
use crate::ids::Domain;
use crate::messages;
use crate::types::{Context, Error};

/// Where did the game go wrong? The engine's accuracy, mistakes and better moves.
///
/// Works on finished games only. The analysis takes about a minute and is posted in the
/// game's thread, with a chart, the key moments and an annotated PGN.
#[poise::command(slash_command)]
pub async fn analysis(
    ctx: Context<'_>,
    #[description = "Which game (default: this thread's)"]
    #[autocomplete = "autocomplete_game"]
    #[max_length = 100]
    game: Option<String>,
) -> Result<(), Error> {
    let id = resolve_game(ctx, game.as_deref()).await?;
    let guild = ctx.guild_id().map(Domain::domain);
    let caller = ctx.author().id.domain();
    let answer = ctx
        .data()
        .services
        .analyses()
        .request(id, caller, guild)
        .await?;
    ctx.data().outbox.settle(id).await?;
    say_private(ctx, messages::analysis::answer(&answer)).await
}

/// A game's whole move list, numbered.
#[poise::command(slash_command)]
pub async fn moves(
    ctx: Context<'_>,
    #[description = "Which game (default: this thread's)"]
    #[autocomplete = "autocomplete_game"]
    #[max_length = 100]
    game: Option<String>,
) -> Result<(), Error> {
    let snap = readable_game(ctx, game.as_deref()).await?;
    say_private(ctx, messages::move_list(&snap)).await
}
