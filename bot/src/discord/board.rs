//! A game's board picture and where its posts go, for the outbox and the commands.
//!
//! Images are painted off the async runtime (`spawn_blocking`, a bounded number at once:
//! `service::replay::CpuPool`).

use kaboom_rules::{Color, Viewer};
use poise::serenity_prelude as serenity;

use crate::discord::Error;
use crate::service::{Services, Snapshot};

/// Paints `viewer`'s view from `bottom`'s side on a blocking thread, through the services'
/// bounded CPU pool (issue 16).
///
/// # Errors
/// The painter's message.
pub async fn paint(
    services: &Services,
    snap: &Snapshot,
    viewer: Viewer,
    bottom: Color,
) -> Result<serenity::CreateAttachment, Error> {
    let (s, snap2) = (services.clone(), snap.clone());
    let png = services
        .cpu
        .run(move || s.paint(&snap2, viewer, bottom))
        .await??;
    Ok(serenity::CreateAttachment::bytes(
        png,
        format!("game-{}.png", snap.row.id),
    ))
}

/// The channel where a game's messages go: its thread, or the challenge channel before
/// the thread exists.
pub fn game_channel(snap: &Snapshot) -> serenity::ChannelId {
    serenity::ChannelId::from(snap.row.thread_id.unwrap_or(snap.row.channel_id))
}
