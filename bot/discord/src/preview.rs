//! Explosion previews in Discord: `/move` answers with the preview instead of
//! playing ([`show`]), and its Confirm / Cancel buttons ([`click`]).
//!
//! The preview is an ephemeral answer (only the player sees it: it may show their own
//! Beirut carriers). A click on its buttons is acknowledged with
//! `DEFERRED_UPDATE_MESSAGE` and answered by editing the preview message itself, buttons
//! removed, so it can be pressed once
//! (<https://discord.com/developers/docs/interactions/receiving-and-responding#interaction-response-object-interaction-callback-type>:
//! type 6 "for components, ACK an interaction and edit the original message later; the
//! user does not see a loading state").

use poise::serenity_prelude as serenity;

use crate::ids::Domain;
use crate::messages::{self, preview as words};
use crate::types::{Context, Data, Error};
use crate::{flows, respond};
use kaboom_domain::ids::GameId;
use kaboom_service::ServiceError;
use kaboom_service::preview::Preview;

/// Stores `preview` and answers the command with it (ephemeral): the caption, the picture
/// of the position after the action from the player's side with the removed pieces as
/// ghosts, and the Confirm / Cancel buttons.
///
/// # Errors
/// A storage, painting or Discord error.
pub async fn show(ctx: Context<'_>, preview: Preview) -> Result<(), Error> {
    let services = &ctx.data().services;
    let id = services
        .previews()
        .store(&preview, ctx.author().id.domain())
        .await?;
    let caption = words::caption(&preview);
    let game = preview.row.id;
    let bottom = preview.color;
    let (s, p) = (services.clone(), preview);
    let png = services
        .cpu()
        .run(move || s.previews().paint(&p, bottom))
        .await??;
    respond::send(
        ctx,
        poise::CreateReply::default()
            .content(caption)
            .attachment(serenity::CreateAttachment::bytes(
                png,
                format!("preview-{game}.png"),
            ))
            .components(words::buttons(id))
            .ephemeral(true)
            .allowed_mentions(messages::mentions::none()),
    )
    .await?;
    Ok(())
}

/// Handles a click on a preview's Confirm or Cancel (`action`, preview `id`): confirms
/// (plays the action if the game is still where it was previewed, once) or cancels, and
/// edits the preview message into the result with its buttons removed. Refusals (someone
/// else's preview, already done) are told to the clicker privately and leave the message
/// as it is.
///
/// # Errors
/// A Discord error while answering.
pub async fn click(
    http: &serenity::Http,
    data: &Data,
    ic: &serenity::ComponentInteraction,
    action: &str,
    id: i64,
) -> Result<(), Error> {
    let services = &data.services;
    let user = ic.user.id.domain();
    // Someone else's preview (it is ephemeral, so this takes a forged click): a private
    // refusal, the message untouched.
    let refusal = match services.previews().own_preview(id, user).await {
        Ok(_) => None,
        Err(ServiceError::Refused(refusal)) => Some(refusal),
        Err(e) => return Err(e.into()),
    };
    if let Some(refusal) = refusal {
        let msg = serenity::CreateInteractionResponseMessage::new()
            .content(messages::service_error(&ServiceError::Refused(refusal)))
            .ephemeral(true)
            .allowed_mentions(messages::mentions::none());
        return respond::answer_component(
            http,
            ic,
            serenity::CreateInteractionResponse::Message(msg),
        )
        .await;
    }
    respond::answer_component(http, ic, serenity::CreateInteractionResponse::Acknowledge).await?;
    // The preview picture goes with the buttons: once played or cancelled, a board of a
    // position that was only previewed would read as the game's.
    let edit = serenity::EditInteractionResponse::new()
        .components(Vec::new())
        .clear_attachments()
        .allowed_mentions(messages::mentions::none());
    // A game played by DM confirmed where it started: its new board is shown there too.
    let mut show_here = None;
    let edit = if action == words::CANCEL {
        match services.previews().cancel(id, user).await {
            Ok(_) => edit.content(words::CANCELLED),
            Err(e) => edit.content(refusal_text(&e)),
        }
    } else {
        match services.previews().confirm(id, user).await {
            Ok(played) => {
                let here = ic.channel_id.domain();
                if flows::shows_where_it_started(&played.snap, here) {
                    show_here = Some(played.snap.clone());
                }
                edit.content(flows::after_play(data, &played, here).await?)
            }
            Err(ServiceError::MovedOn { game_id, .. }) => {
                moved_on(services, game_id, user, edit).await?
            }
            Err(e) => edit.content(refusal_text(&e)),
        }
    };
    respond::edit_component(http, ic, edit).await?;
    if let Some(snap) = show_here {
        let (caption, image, buttons) = flows::public_board(services, &snap).await?;
        ic.create_followup(
            http,
            serenity::CreateInteractionResponseFollowup::new()
                .content(caption)
                .add_file(image)
                .components(buttons)
                .allowed_mentions(messages::mentions::none()),
        )
        .await?;
    }
    Ok(())
}

/// The text of a failed confirm or cancel.
fn refusal_text(e: &ServiceError) -> String {
    if messages::failure::is_unreadable(e) {
        tracing::error!(error = %e, "preview button failed");
    }
    messages::service_error(e)
}

/// The preview message when the game moved on: say so, and show the player's view now.
async fn moved_on(
    services: &kaboom_service::Services,
    game: GameId,
    user: kaboom_domain::ids::UserId,
    edit: serenity::EditInteractionResponse,
) -> Result<serenity::EditInteractionResponse, Error> {
    let snap = services.games().load(game).await?;
    let (caption, image) = flows::own_view(services, &snap, user).await?;
    Ok(edit
        .content(format!("{}\n{caption}", words::MOVED_ON))
        .new_attachment(image))
}
