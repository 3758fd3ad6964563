//! Discord side effects shared by commands and components: the game thread, board
//! messages, carrier menus by DM with the in-thread fallback.
//!
//! Images are painted off the async runtime (`spawn_blocking`).

use kaboom_rules::{Color, Variant, Viewer};
use poise::serenity_prelude as serenity;

use crate::discord::messages;
use crate::discord::types::Error;
use crate::service::{Designated, Services, Snapshot};
use crate::storage::carriers::Designation;

/// Paints `viewer`'s view from `bottom`'s side on a blocking thread.
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
    let png = tokio::task::spawn_blocking(move || s.paint(&snap2, viewer, bottom)).await??;
    Ok(serenity::CreateAttachment::bytes(
        png,
        format!("game-{}.png", snap.row.id),
    ))
}

/// The channel where a game's messages go: its thread, or the challenge channel before
/// the thread exists.
pub fn game_channel(snap: &Snapshot) -> serenity::ChannelId {
    serenity::ChannelId::new(snap.row.thread_id.unwrap_or(snap.row.channel_id))
}

/// Posts the public board (spectator view, from the side to move) with the caption and
/// buttons to the game's thread, and records it as the latest board message.
///
/// # Errors
/// A Discord or storage error.
pub async fn post_board(
    http: &serenity::Http,
    services: &Services,
    snap: &Snapshot,
    caption: String,
) -> Result<serenity::Message, Error> {
    let bottom = snap.game.turn();
    let image = paint(services, snap, Viewer::Spectator, bottom).await?;
    let finished = snap.outcome().is_some();
    let msg = game_channel(snap)
        .send_message(
            http,
            serenity::CreateMessage::new()
                .content(caption)
                .add_file(image)
                .components(messages::board_buttons(snap.row.id, finished))
                .allowed_mentions(messages::mentions::board(snap)),
        )
        .await?;
    services
        .set_board_message(snap.row.id, msg.id.get())
        .await?;
    // Only the latest board message keeps its buttons (older ones still work if clicked:
    // routing is by custom id).
    if let Some(previous) = snap.row.board_message_id.filter(|p| *p != msg.id.get()) {
        let cleared = game_channel(snap)
            .edit_message(
                http,
                serenity::MessageId::new(previous),
                serenity::EditMessage::new().components(vec![]),
            )
            .await;
        if let Err(e) = cleared {
            tracing::debug!(game_id = snap.row.id, error = %e, "could not clear old buttons");
        }
    }
    Ok(msg)
}

/// Starts an accepted game on Discord: the thread, the starting board and, for Beirut
/// and Nuke, the carrier menus.
///
/// # Errors
/// A Discord or storage error.
pub async fn open_game(
    http: &serenity::Http,
    services: &Services,
    snap: Snapshot,
) -> Result<serenity::ChannelId, Error> {
    let channel = serenity::ChannelId::new(snap.row.channel_id);
    let thread = channel
        .create_thread(
            http,
            serenity::CreateThread::new(messages::thread_name(&snap.row))
                .kind(serenity::ChannelType::PublicThread)
                .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek),
        )
        .await?;
    services.set_thread(snap.row.id, thread.id.get()).await?;
    let snap = services.load(snap.row.id).await?;
    let mut caption = messages::board_caption(&snap, None, &[], &[]);
    if snap.row.state == crate::storage::games::GameState::Setup {
        caption.push('\n');
        caption.push_str(&messages::designation_abort_note(
            snap.row.created_at,
            services.scheduler.designation_timeout_secs,
        ));
    }
    post_board(http, services, &snap, caption).await?;
    if snap.row.variant.has_designation() {
        send_carrier_menus(http, services, &snap).await?;
    }
    Ok(thread.id)
}

/// DMs each player who still has to choose a carrier menu; for each DM that cannot be
/// delivered, posts a "Choose privately" button in the thread.
///
/// # Errors
/// A storage error, or a Discord error other than an undeliverable DM.
pub async fn send_carrier_menus(
    http: &serenity::Http,
    services: &Services,
    snap: &Snapshot,
) -> Result<(), Error> {
    for color in snap.game.awaiting_designation() {
        let user = snap.row.player(color);
        let menu = services.carrier_menu(snap.row.id, user).await?;
        let dm = async {
            let channel = serenity::UserId::new(user).create_dm_channel(http).await?;
            channel
                .send_message(
                    http,
                    serenity::CreateMessage::new()
                        .content(messages::carrier_prompt(&snap.row, &menu))
                        .components(messages::carrier_menu(&menu))
                        .allowed_mentions(messages::mentions::none()),
                )
                .await
        };
        if let Err(e) = dm.await {
            tracing::info!(game_id = snap.row.id, %color, error = %e, "carrier DM not delivered; offering the in-thread menu");
            game_channel(snap)
                .send_message(
                    http,
                    serenity::CreateMessage::new()
                        .content(format!(
                            "{} I could not send you a direct message. Click below to choose your carriers privately (only you will see the menu).",
                            messages::mention(user)
                        ))
                        .components(vec![serenity::CreateActionRow::Buttons(vec![
                            serenity::CreateButton::new(messages::ids::make(
                                messages::ids::CHOOSE,
                                snap.row.id,
                            ))
                            .label("Choose privately")
                            .style(serenity::ButtonStyle::Primary),
                        ])])
                        .allowed_mentions(messages::mentions::only(&[user])),
                )
                .await?;
        }
    }
    Ok(())
}

/// The private confirmation of a designation (the chooser's own view).
pub fn designation_confirmation(d: &Designated) -> String {
    let mut s = format!(
        "Your carriers in game #{}: **{}**.",
        d.snap.row.id,
        d.designation.squares.replace(',', ", ")
    );
    if d.snap.row.variant == Variant::Beirut {
        s.push_str(&format!(
            " Commitment `{}` (published in the thread; the salt is revealed at the end).",
            d.designation.commitment
        ));
    }
    if !d.started {
        s.push_str(" Waiting for your opponent to choose.");
    }
    s
}

/// Announces a designation in the thread: "White has chosen" while waiting; when both
/// have chosen, the start of play (Nuke: both carriers; Beirut: both commitments only).
///
/// # Errors
/// A Discord or storage error.
pub async fn announce_designation(
    http: &serenity::Http,
    services: &Services,
    d: &Designated,
) -> Result<(), Error> {
    let row = &d.snap.row;
    if !d.started {
        game_channel(&d.snap)
            .send_message(
                http,
                serenity::CreateMessage::new()
                    .content(format!(
                        "{} ({}) has chosen.",
                        row.name(d.color),
                        messages::side(d.color)
                    ))
                    .allowed_mentions(messages::mentions::none()),
            )
            .await?;
        return Ok(());
    }
    let notes: Vec<String> = d
        .all
        .iter()
        .map(|x: &Designation| match row.variant {
            Variant::Beirut => {
                format!(
                    "{}'s commitment: `{}`",
                    messages::side(x.color),
                    x.commitment
                )
            }
            _ => format!("{}'s carrier: **{}**", messages::side(x.color), x.squares),
        })
        .collect();
    let mut lines = vec!["Both players have chosen: play starts.".to_string()];
    lines.extend(notes);
    let caption = messages::board_caption(&d.snap, None, &[], &lines);
    post_board(http, services, &d.snap, caption).await?;
    Ok(())
}

/// Posts the board after an action (from the next player's side) and returns the private
/// acknowledgement for the mover.
///
/// # Errors
/// A Discord or storage error.
pub async fn after_play(
    http: &serenity::Http,
    services: &Services,
    played: &crate::service::Played,
) -> Result<String, Error> {
    let mut notes = Vec::new();
    if played.declined_draw {
        notes.push("(The draw offer lapsed with this move.)".to_string());
    }
    let caption = messages::board_caption(&played.snap, Some(&played.ply), &played.reveal, &notes);
    let msg = post_board(http, services, &played.snap, caption).await?;
    Ok(format!(
        "Played **{}** in game #{}: {}",
        played.ply.display,
        played.snap.row.id,
        messages::message_link(played.snap.row.guild_id, msg.channel_id.get(), msg.id.get())
    ))
}

/// Posts the final board of a game that ended off the board (resignation, agreement,
/// abort) and returns the private acknowledgement.
///
/// # Errors
/// A Discord or storage error.
pub async fn after_end(
    http: &serenity::Http,
    services: &Services,
    ended: &crate::service::Ended,
) -> Result<String, Error> {
    let caption = messages::board_caption(&ended.snap, None, &ended.reveal, &[]);
    post_board(http, services, &ended.snap, caption).await?;
    Ok(format!(
        "Game #{} is over: {}",
        ended.snap.row.id,
        messages::outcome_line(&ended.snap.row, &ended.outcome)
    ))
}

/// Posts what a draw offer or answer did and returns the private acknowledgement.
///
/// # Errors
/// A Discord or storage error.
pub async fn after_draw(
    http: &serenity::Http,
    services: &Services,
    result: &crate::service::DrawResult,
) -> Result<String, Error> {
    use crate::service::DrawResult;
    match result {
        DrawResult::Offered { snap, by } => {
            let to = snap.row.player(by.other());
            game_channel(snap)
                .send_message(
                    http,
                    serenity::CreateMessage::new()
                        .content(format!(
                            "{} {} ({}) offers a draw. It stands until you accept or decline it, or make a move.",
                            messages::mention(to),
                            snap.row.name(*by),
                            messages::side(*by)
                        ))
                        .components(messages::draw_buttons(snap.row.id))
                        .allowed_mentions(messages::mentions::only(&[to])),
                )
                .await?;
            Ok("Draw offered. You may still make your move.".into())
        }
        DrawResult::Agreed(ended) => after_end(http, services, ended).await,
        DrawResult::Declined { snap, by } => {
            game_channel(snap)
                .send_message(
                    http,
                    serenity::CreateMessage::new()
                        .content(format!(
                            "{} ({}) declined the draw offer.",
                            snap.row.name(by.other()),
                            messages::side(by.other())
                        ))
                        .allowed_mentions(messages::mentions::none()),
                )
                .await?;
            Ok("Draw declined.".into())
        }
    }
}

/// The caller's own view of a game, for ephemeral answers: their colour's view (their
/// Beirut carriers marked) from their side, or the spectator view.
///
/// # Errors
/// The painter's message.
pub async fn own_view(
    services: &Services,
    snap: &Snapshot,
    user: u64,
) -> Result<(String, serenity::CreateAttachment), Error> {
    let (viewer, bottom) = match snap.row.color_of(user) {
        Some(c) => (Viewer::player(c), c),
        None => (Viewer::Spectator, snap.game.turn()),
    };
    let image = paint(services, snap, viewer, bottom).await?;
    let mut text = messages::board_caption(snap, snap.game.plies().last(), &[], &[]);
    if snap.outcome().is_some() {
        // The public message has the reveal; keep this one short.
        text = format!(
            "**{}** · {} · game #{}",
            snap.row.variant.title(),
            messages::players_line(&snap.row),
            snap.row.id
        );
    }
    if viewer != Viewer::Spectator && snap.row.variant == Variant::Beirut {
        text.push_str("\n(Your own view: your carriers are marked. Only you see this.)");
    }
    Ok((text, image))
}
