//! `/move` (with autocomplete of legal actions) and `/board`.

use kaboom_rules::Viewer;
use poise::serenity_prelude as serenity;

use super::{autocomplete_game, readable_game, resolve_game};
use crate::ids::Domain;
use crate::messages;
use crate::types::{Context, Error};
use crate::{board, flows};
use kaboom_service::ServiceError;

async fn autocomplete_action(
    ctx: Context<'_>,
    partial: &str,
) -> serenity::CreateAutocompleteResponse {
    let Some(id) = super::autocomplete_target(ctx).await else {
        return serenity::CreateAutocompleteResponse::new();
    };
    let user = ctx.author().id.domain();
    super::suggestion_choices(ctx.data().services.games().suggest(id, user, partial).await)
}

/// Make your move. Start typing: the list shows your legal actions and what each removes.
///
/// Type a move as SAN (`Nxd5`), in coordinates (`g1f3`), or pick it by the piece's name.
/// Outside the game's thread, choose the game with the `game` option.
#[poise::command(slash_command, rename = "move")]
pub async fn move_(
    ctx: Context<'_>,
    #[description = "Your action, e.g. Nf3, e2e4, Boom@e5"]
    #[autocomplete = "autocomplete_action"]
    action: String,
    #[description = "Which game (only needed outside its thread)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<String>,
    #[description = "See the position after it, with what it removes, before playing (default: your /settings)"]
    preview: Option<bool>,
) -> Result<(), Error> {
    crate::respond::defer(ctx, true).await?;
    let services = &ctx.data().services;
    let id = resolve_game(ctx, game.as_deref()).await?;
    let user = ctx.author().id.domain();
    // Explosion preview: when asked, or by the player's setting for actions
    // that remove pieces; Confirm then plays it.
    let mode = match preview {
        Some(_) => kaboom_domain::settings::PreviewMode::default(),
        None => services.previews().mode(user).await?,
    };
    if crate::preview::may_preview(preview, mode) {
        let p = services.previews().preview(id, user, &action).await?;
        if crate::preview::shows(preview, &p) {
            return crate::preview::show(ctx, p).await;
        }
    }
    match services
        .games()
        .play(kaboom_service::PlayRequest::new(id, user, &action))
        .await
    {
        Ok(played) => {
            let text = flows::after_play(&ctx.data().outbox, &played).await?;
            super::say_private(ctx, text).await
        }
        Err(ServiceError::MovedOn { game_id, .. }) => {
            let snap = services.games().load(game_id).await?;
            let (caption, image) = flows::own_view(services, &snap, user).await?;
            crate::respond::send(
                ctx,
                poise::CreateReply::default()
                    .content(format!("{}\n{caption}", messages::MOVED_ON))
                    .attachment(image)
                    .ephemeral(true),
            )
            .await?;
            Ok(())
        }
        Err(e) => Err(e.into()),
    }
}

/// Show the current board; private:true shows your own view to you only.
///
/// Your own view is from your side, with your own Beirut carriers marked and your private
/// note under it.
#[poise::command(slash_command)]
pub async fn board(
    ctx: Context<'_>,
    #[description = "Only you see it, with your secrets marked (default no)"] private: Option<bool>,
    #[description = "Which game (only needed outside its thread)"]
    #[autocomplete = "autocomplete_game"]
    game: Option<String>,
) -> Result<(), Error> {
    let private = private.unwrap_or(false);
    if private {
        crate::respond::defer(ctx, true).await?;
    } else {
        crate::respond::defer(ctx, false).await?;
    }
    let services = &ctx.data().services;
    let snap = readable_game(ctx, game.as_deref()).await?;
    let (text, image) = if private {
        flows::own_view_with_note(services, &snap, ctx.author().id.domain()).await?
    } else {
        let image = board::paint(services, &snap, Viewer::Spectator, board::PUBLIC_BOTTOM).await?;
        let mut text = messages::board_caption(&snap, snap.game.plies().last(), &[], &[]);
        if let Some(outcome) = snap.outcome() {
            let change = services.ratings().rating_change(snap.row.id).await?;
            for line in messages::ratings::result_lines(&snap.row, &outcome, change.as_ref()) {
                text.push('\n');
                text.push_str(&line);
            }
        }
        (text, image)
    };
    crate::respond::send(
        ctx,
        poise::CreateReply::default()
            .content(text)
            .attachment(image)
            .ephemeral(private)
            .allowed_mentions(messages::mentions::none()),
    )
    .await?;
    Ok(())
}
