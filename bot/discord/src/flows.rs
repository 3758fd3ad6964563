//! What commands and components share after a change: waiting briefly for its Discord
//! posts (the outbox, `discord::outbox`, posts them) and the private acknowledgements.
//!
//! Images are painted off the async runtime (`spawn_blocking`).

use crate::ids::Serenity;
use kaboom_rules::{Variant, Viewer};
use poise::serenity_prelude as serenity;

use crate::board;
use crate::messages;
use crate::outbox::{OutboxHandle, Settled};
use crate::types::Error;
use kaboom_domain::ids::UserId;
use kaboom_service::{Designated, Services, Snapshot};

/// Waits for an accepted game's thread, first board and carrier menus (written to the
/// outbox with the game); returns the thread once it is open.
///
/// # Errors
/// A storage error.
pub async fn open_game(
    outbox: &OutboxHandle,
    snap: &Snapshot,
) -> Result<Option<serenity::ChannelId>, Error> {
    Ok(match outbox.settle(snap.row.id).await? {
        Settled::Delivered {
            thread: Some(t), ..
        } => Some(t.serenity()),
        _ => None,
    })
}

/// Whether an action in the game of `snap`, made in channel `here`, also shows the new
/// board there: a game played by DM ([`kaboom_domain::game::Venue::Direct`]) whose place
/// of origin (a group DM, a server without the bot) is `here`, where the bot cannot post
/// on its own and the action's answer is the only way to show it.
pub fn shows_where_it_started(snap: &Snapshot, here: kaboom_domain::ids::ChannelId) -> bool {
    snap.row.venue == kaboom_domain::game::Venue::Direct && snap.row.channel_id == here
}

/// The public board of `snap` for the place a game played by DM started: the caption,
/// the spectator's picture (White at the bottom) and the game's buttons.
///
/// # Errors
/// A painting error.
pub async fn public_board(
    services: &Services,
    snap: &Snapshot,
) -> Result<
    (
        String,
        serenity::CreateAttachment,
        Vec<serenity::CreateActionRow>,
    ),
    Error,
> {
    let image = crate::board::paint(
        services,
        snap,
        kaboom_rules::Viewer::Spectator,
        crate::board::PUBLIC_BOTTOM,
    )
    .await?;
    let caption = messages::board_caption(snap, snap.game.plies().last(), &[], &[]);
    let buttons = messages::fairness::buttons_for(&snap.row, snap.outcome().is_some());
    Ok((caption, image, buttons))
}

/// The private confirmation of a designation (the chooser's own view): see
/// [`messages::designation_confirmation`].
pub fn designation_confirmation(d: &Designated) -> String {
    messages::designation_confirmation(d)
}

/// Waits for the announcement of a designation (written to the outbox with it).
///
/// # Errors
/// A storage error.
pub async fn announce_designation(outbox: &OutboxHandle, d: &Designated) -> Result<(), Error> {
    outbox.settle(d.snap.row.id).await?;
    Ok(())
}

/// Waits for the board of an action (written to the outbox with it) and returns the
/// private acknowledgement for the mover, who acted in channel `here`: a short "Played"
/// when the board was posted right there (the game's thread), else with the board's link;
/// or that it is saved and the board follows. In a practice game whose reply waits behind
/// other players' games, a second line says about when it comes
/// ([`messages::engine_busy`]).
///
/// # Errors
/// A storage error.
pub async fn after_play(
    data: &crate::types::Data,
    played: &kaboom_service::Played,
    here: kaboom_domain::ids::ChannelId,
) -> Result<String, Error> {
    let id = played.snap.row.id;
    let text = played_text(&data.outbox, played, here).await?;
    // A practice game whose reply waits behind other players' games says about when.
    Ok(match data.services.engine().reply_wait(id) {
        Some(wait) => format!("{text}\n{}", messages::engine_busy(wait)),
        None => text,
    })
}

/// [`after_play`]'s acknowledgement without the engine's wait.
async fn played_text(
    outbox: &OutboxHandle,
    played: &kaboom_service::Played,
    here: kaboom_domain::ids::ChannelId,
) -> Result<String, Error> {
    let id = played.snap.row.id;
    let direct = played.snap.row.venue.by_dm();
    Ok(match outbox.settle_game(&played.snap.row).await? {
        Settled::Delivered { .. } if direct => messages::direct::played(&played.ply.display, id),
        Settled::Delivered {
            board: Some((channel, _)),
            ..
        } if channel == here => messages::played_here(&played.ply.display, id),
        Settled::Delivered {
            board: Some((channel, message)),
            ..
        } => messages::played_with_link(
            &played.ply.display,
            id,
            &messages::message_link(played.snap.row.guild_id, channel, message),
        ),
        _ => messages::played_saved(&played.ply.display, id),
    })
}

/// Adds the "saved, follows" note to `text` unless the posts are out.
fn with_saved_note(text: String, settled: &Settled) -> String {
    match settled {
        Settled::Delivered { .. } => text,
        Settled::Pending => messages::with_saved_note(&text),
    }
}

/// Waits for the final board of a game that ended off the board (resignation,
/// agreement, abort) and returns the private acknowledgement.
///
/// # Errors
/// A storage error.
pub async fn after_end(
    outbox: &OutboxHandle,
    ended: &kaboom_service::Ended,
) -> Result<String, Error> {
    let settled = outbox.settle(ended.snap.row.id).await?;
    Ok(with_saved_note(
        messages::game_over(&ended.snap.row, &ended.outcome),
        &settled,
    ))
}

/// Waits for what a draw offer or answer posts and returns the private acknowledgement.
///
/// # Errors
/// A storage error.
pub async fn after_draw(
    outbox: &OutboxHandle,
    result: &kaboom_service::DrawResult,
) -> Result<String, Error> {
    use kaboom_service::DrawResult;
    match result {
        DrawResult::Offered { snap, .. } => {
            let settled = outbox.settle(snap.row.id).await?;
            Ok(with_saved_note(messages::draw_offer_sent(), &settled))
        }
        DrawResult::Agreed(ended) => after_end(outbox, ended).await,
        DrawResult::Declined { snap, .. } => {
            let settled = outbox.settle(snap.row.id).await?;
            Ok(with_saved_note(messages::draw_decline_sent(), &settled))
        }
    }
}

/// [`own_view`] with the caller's private note in the game under the caption,
/// for "My view" and `/board private:true`: only a player has one, and the text stays
/// within Discord's 2,000 characters of message content
/// (<https://discord.com/developers/docs/resources/message#create-message>): the note's
/// end gives way.
///
/// # Errors
/// [`Error::Paint`] from the painter, or a database failure reading the note.
pub async fn own_view_with_note(
    services: &Services,
    snap: &Snapshot,
    user: UserId,
) -> Result<(String, serenity::CreateAttachment), Error> {
    let (mut text, image) = own_view(services, snap, user).await?;
    if snap.row.color_of(user).is_some()
        && let Some(note) = services.comforts().note(snap.row.id, user).await?
    {
        text.push_str(&messages::comforts::note_in_view(&note));
    }
    if text.chars().count() > messages::MESSAGE_LIMIT {
        text = text.chars().take(messages::MESSAGE_LIMIT - 1).collect();
        text.push('…');
    }
    Ok((text, image))
}

/// The caller's own view of a game, for ephemeral answers: their colour's view (their
/// Beirut carriers marked) from their side, or the spectator view.
///
/// # Errors
/// [`Error::Paint`] from the painter (or [`Error::Service`] if its task panicked).
pub async fn own_view(
    services: &Services,
    snap: &Snapshot,
    user: UserId,
) -> Result<(String, serenity::CreateAttachment), Error> {
    let (viewer, bottom) = match snap.row.color_of(user) {
        Some(c) => (Viewer::player(c), c),
        None => (Viewer::Spectator, board::PUBLIC_BOTTOM),
    };
    let image = board::paint(services, snap, viewer, bottom).await?;
    let mut text = messages::board_caption(snap, snap.game.plies().last(), &[], &[]);
    if snap.outcome().is_some() {
        // The public message has the reveal; keep this one short.
        text = messages::finished_view_caption(&snap.row);
    }
    if viewer != Viewer::Spectator && snap.row.variant == Variant::Beirut {
        text.push_str(messages::own_view_note());
    }
    Ok((text, image))
}
