//! `/replay [game]`: the game as an animated GIF, on demand.

use kaboom_rules::Viewer;
use poise::serenity_prelude as serenity;

use super::{autocomplete_game, readable_game};
use crate::board;
use crate::ids::Domain;
use crate::messages;
use crate::types::{Context, Error};
use kaboom_service::painter::ReplayPace;

/// Watch a game as an animated GIF: every move, the blasts, the final position held.
///
/// Finished games show everything; while a game runs, its players see their own view
/// (their own Beirut carriers marked) and everyone else the public one.
#[poise::command(slash_command)]
pub async fn replay(
    ctx: Context<'_>,
    #[description = "Which game (default: this thread's)"]
    #[autocomplete = "autocomplete_game"]
    #[max_length = 100]
    game: Option<String>,
    #[description = "Show every move for its full time instead of speeding a long game up to 30 s (default no)"]
    slow: Option<bool>,
) -> Result<(), Error> {
    let services = &ctx.data().services;
    let caller = ctx.author().id.domain();
    // Who may read the game at all (service/access.rs): its server's members, or its
    // players in a direct message.
    let snap = readable_game(ctx, game.as_deref()).await?;
    // Hidden information (BE-2): a finished game is public in full; while it runs, a
    // player sees their own view from their side, anyone else the spectator view.
    let (viewer, bottom) = if snap.outcome().is_some() {
        (Viewer::Full, board::PUBLIC_BOTTOM)
    } else {
        match snap.row.color_of(caller) {
            Some(c) => (Viewer::player(c), c),
            None => (Viewer::Spectator, board::PUBLIC_BOTTOM),
        }
    };
    // A player's own view of a running game goes to them only. Encoding takes up to a
    // second or two: acknowledge first, as privately as the answer will be (Discord wants
    // an answer within 3 seconds, and a deferred answer keeps the deferral's visibility:
    // https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction).
    let private = snap.outcome().is_none() && snap.row.color_of(caller).is_some();
    crate::respond::defer(ctx, private).await?;
    let pace = if slow.unwrap_or(false) {
        ReplayPace::Normal
    } else {
        ReplayPace::Fast
    };
    let gif = board::replay(services, &snap, viewer, bottom, pace).await?;
    let reply = poise::CreateReply::default()
        .content(messages::replay_caption(&snap))
        .attachment(gif)
        .allowed_mentions(serenity::CreateAllowedMentions::new())
        .ephemeral(private);
    crate::respond::send(ctx, reply).await?;
    Ok(())
}
