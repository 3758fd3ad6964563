//! Posting one entry: one function per kind of [`Effect`], each with the nonce that makes
//! a repeat harmless (see the module documentation of `outbox`).

use kaboom_rules::Viewer;
use poise::serenity_prelude as serenity;

use super::Effect;
use super::deliver::Deliverer;
use crate::Error;
use crate::board;
use crate::ids::{Domain, Serenity};
use crate::messages;
use kaboom_domain::ids::{ChannelId, GameId, MessageId, UserId};
use kaboom_service::ServiceError;
use kaboom_store::outbox::{self, Entry};

/// The ids Discord gave for a delivered entry.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Posted {
    pub(super) message_id: Option<MessageId>,
    pub(super) thread_id: Option<ChannelId>,
}

/// Whether a Discord error is the client's fault (4xx, not 429): the request as it is will
/// never succeed.
fn client_error(e: &serenity::Error) -> bool {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            r.status_code.is_client_error() && r.status_code.as_u16() != 429
        }
        _ => false,
    }
}

/// The Discord error code of `e` (the JSON `code` of an unsuccessful request), if any.
fn discord_code(e: &serenity::Error) -> Option<isize> {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => Some(r.error.code),
        _ => None,
    }
}

/// 160004 "A thread has already been created for this message"
/// (<https://discord.com/developers/docs/topics/opcodes-and-status-codes#json>).
const THREAD_ALREADY_CREATED: isize = 160_004;
/// How a carrier-menu entry's `last_error` starts once its DM was refused and the
/// in-thread "Choose privately" offer failed: its retries post the offer, not the DM.
const IN_THREAD_OFFER_FAILED: &str = "the DM was refused; the in-thread offer failed: ";
/// 10008 "Unknown message" (same page).
const UNKNOWN_MESSAGE: isize = 10_008;

/// The buttons of a [`Effect::Prompt`]: one row (at most 5 buttons, Discord's limit per
/// action row, <https://discord.com/developers/docs/interactions/message-components#action-rows>).
fn prompt_buttons(buttons: &[(String, String, String)]) -> Vec<serenity::CreateActionRow> {
    let row = buttons
        .iter()
        .take(5)
        .map(|(id, label, style)| {
            let style = match style.as_str() {
                "primary" => serenity::ButtonStyle::Primary,
                "success" => serenity::ButtonStyle::Success,
                "danger" => serenity::ButtonStyle::Danger,
                _ => serenity::ButtonStyle::Secondary,
            };
            serenity::CreateButton::new(id.clone())
                .label(label.clone())
                .style(style)
        })
        .collect();
    vec![serenity::CreateActionRow::Buttons(row)]
}

impl Deliverer {
    /// Makes sure `channel`, if it is a thread Discord archived (after its auto-archive
    /// duration), is active again, so that the post that follows does not meet an archived
    /// thread, a player's link leads to a thread where commands work, and edits of its
    /// messages succeed ("Users cannot edit messages, add reactions, use application
    /// commands, or join archived threads",
    /// <https://discord.com/developers/docs/topics/threads#active-archived-threads>). The
    /// thread is unarchived with Modify Channel `archived: false`, which for an unlocked
    /// thread needs only SEND_MESSAGES ("When setting archived to false, when locked is
    /// also false, only the SEND_MESSAGES permission is required",
    /// <https://discord.com/developers/docs/resources/channel#modify-channel-json-params-thread>).
    /// A thread a moderator locked is left alone (logged): unlocking is theirs to decide,
    /// and players still have `/move game:<id>` from any channel.
    ///
    /// # Errors
    /// A Discord error reading or unarchiving the thread.
    pub(super) async fn ensure_open(&self, channel: serenity::ChannelId) -> Result<(), Error> {
        let http = &*self.http;
        let serenity::Channel::Guild(found) = channel.to_channel(http).await? else {
            return Ok(());
        };
        let Some(meta) = found.thread_metadata else {
            return Ok(());
        };
        if !meta.archived {
            return Ok(());
        }
        if meta.locked {
            tracing::warn!(thread = %channel, "the game's thread is locked by a moderator; not reopening it");
            return Ok(());
        }
        channel
            .edit_thread(http, serenity::EditThread::new().archived(false))
            .await?;
        tracing::info!(thread = %channel, "reopened an archived game thread");
        Ok(())
    }

    /// Creates game `game_id`'s thread named `name` in `channel_id`, from the challenge's
    /// message `message_id` when there is one (see the module documentation: a repeat gets
    /// error 160004 and the same thread, whose id is the message's).
    async fn create_thread(
        &self,
        channel_id: ChannelId,
        name: String,
        message_id: Option<MessageId>,
    ) -> Result<serenity::ChannelId, Error> {
        let http = &*self.http;
        let channel = channel_id.serenity();
        let builder = serenity::CreateThread::new(name)
            .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
        if let Some(message) = message_id {
            let message = message.serenity();
            match channel
                .create_thread_from_message(http, message, builder.clone())
                .await
            {
                Ok(thread) => return Ok(thread.id),
                Err(e) if discord_code(&e) == Some(THREAD_ALREADY_CREATED) => {
                    // Made by an earlier attempt whose answer was lost: same id as the
                    // message ("The created thread and the message it was started from will
                    // share the same id"); read it to be sure it is there.
                    let thread = serenity::ChannelId::new(message.get());
                    thread.to_channel(http).await?;
                    tracing::info!(thread = %thread, "the game's thread existed already (an earlier attempt)");
                    return Ok(thread);
                }
                Err(e) if discord_code(&e) == Some(UNKNOWN_MESSAGE) => {
                    tracing::info!(channel = %channel, "the challenge's message is gone; starting the thread without it");
                }
                Err(e) => return Err(e.into()),
            }
        }
        let thread = channel
            .create_thread(http, builder.kind(serenity::ChannelType::PublicThread))
            .await?;
        Ok(thread.id)
    }

    pub(super) async fn deliver(&self, entry: &Entry) -> Result<Posted, Error> {
        let effect: Effect = serde_json::from_str(&entry.payload)?;
        if let Effect::ChallengeClosed {
            channel_id,
            message_id,
            content,
            line,
        } = effect
        {
            return self
                .close_challenge(entry, channel_id, message_id, content, line)
                .await;
        }
        if let Effect::ChallengePost {
            channel_id,
            text,
            pings,
        } = effect
        {
            return self.post_challenge(entry, channel_id, text, pings).await;
        }
        let game_id = entry
            .game_id
            .ok_or("an outbox entry of a game names no game")?;
        let services = &self.services;
        let http = &*self.http;
        match effect {
            Effect::Thread {
                channel_id,
                name,
                message_id,
            } => {
                let row = services.load(game_id).await?.row;
                if let Some(thread) = row.thread_id {
                    return Ok(Posted {
                        thread_id: Some(thread),
                        ..Posted::default()
                    });
                }
                let thread = self.create_thread(channel_id, name, message_id).await?;
                services.set_thread(game_id, thread.domain()).await?;
                Ok(Posted {
                    thread_id: Some(thread.domain()),
                    ..Posted::default()
                })
            }
            Effect::ChallengeAccepted { by } => {
                let challenge_id = entry
                    .challenge_id
                    .ok_or("an accepted challenge's entry names no challenge")?;
                let challenge = services.challenge(challenge_id).await?;
                let Some(message) = challenge.message_id else {
                    return Ok(Posted::default());
                };
                let row = services.load(game_id).await?.row;
                let edited = challenge
                    .spec
                    .channel_id
                    .serenity()
                    .edit_message(
                        http,
                        message.serenity(),
                        serenity::EditMessage::new()
                            .content(messages::challenge_accepted(&challenge, by, row.thread_id))
                            .components(vec![])
                            .allowed_mentions(messages::mentions::none()),
                    )
                    .await;
                match edited {
                    Ok(_) => Ok(Posted {
                        message_id: Some(message),
                        ..Posted::default()
                    }),
                    // Deleted: nothing left to mark.
                    Err(e) if discord_code(&e) == Some(UNKNOWN_MESSAGE) => Ok(Posted::default()),
                    Err(e) => Err(e.into()),
                }
            }
            Effect::ChallengeClosed { .. } => Ok(Posted::default()),
            Effect::Board {
                ply,
                caption,
                finished,
            } => {
                let snap = services.load_at(game_id, ply).await?;
                let image =
                    board::paint(services, &snap, Viewer::Spectator, board::PUBLIC_BOTTOM).await?;
                let channel = board::game_channel(&snap);
                self.ensure_open(channel).await?;
                let msg = channel
                    .send_message(
                        http,
                        serenity::CreateMessage::new()
                            .content(caption)
                            .add_file(image)
                            .components(messages::fairness::game_buttons(
                                snap.row.variant,
                                game_id,
                                finished,
                            ))
                            .allowed_mentions(messages::mentions::board(&snap))
                            .nonce(serenity::Nonce::String(entry.nonce.clone()))
                            .enforce_nonce(true),
                    )
                    .await?;
                services.set_board_message(game_id, msg.id.domain()).await?;
                // Only the latest board keeps its buttons (older ones still work if
                // clicked: routing is by custom id).
                if let Some(previous) = snap.row.board_message_id.filter(|p| *p != msg.id.domain())
                {
                    let cleared = channel
                        .edit_message(
                            http,
                            previous.serenity(),
                            serenity::EditMessage::new().components(vec![]),
                        )
                        .await;
                    if let Err(e) = cleared {
                        tracing::debug!(game_id = %game_id, error = %e, "could not clear old buttons");
                    }
                }
                self.close_prompts(entry, &snap, false).await?;
                Ok(Posted {
                    message_id: Some(msg.id.domain()),
                    ..Posted::default()
                })
            }
            Effect::CarrierMenu { user } => {
                let snap = services.load(game_id).await?;
                let menu = match services.carrier_menu(game_id, user).await {
                    Ok(menu) => menu,
                    // Already chosen, or the game moved on: nothing to post.
                    Err(ServiceError::Refused(_)) => return Ok(Posted::default()),
                    Err(e) => return Err(e.into()),
                };
                let dm = async {
                    let channel = user.serenity().create_dm_channel(http).await?;
                    channel
                        .send_message(
                            http,
                            serenity::CreateMessage::new()
                                .content(messages::carrier_prompt(&snap.row, &menu))
                                .components(messages::carrier_menu(&menu))
                                .allowed_mentions(messages::mentions::none())
                                .nonce(serenity::Nonce::String(entry.nonce.clone()))
                                .enforce_nonce(true),
                        )
                        .await
                };
                // Once the DM was refused and the in-thread offer tried, later attempts go
                // on with the offer (same nonce): a DM that works on a retry would give the
                // player both (the faults test).
                let offered_before = entry
                    .last_error
                    .as_deref()
                    .is_some_and(|e| e.starts_with(IN_THREAD_OFFER_FAILED));
                let dm_result = if offered_before { None } else { Some(dm.await) };
                match dm_result {
                    Some(Ok(msg)) => Ok(Posted {
                        message_id: Some(msg.id.domain()),
                        ..Posted::default()
                    }),
                    Some(Err(e)) if !client_error(&e) => Err(e.into()),
                    refused => {
                        if let Some(Err(e)) = refused {
                            tracing::info!(game_id = %game_id, user = %user, error = %e, "carrier DM not delivered; offering the in-thread menu");
                        }
                        let channel = board::game_channel(&snap);
                        let offer = async {
                            self.ensure_open(channel).await?;
                            let msg = channel
                                .send_message(
                                    http,
                                    serenity::CreateMessage::new()
                                        .content(messages::dm_refused_choose_privately(user))
                                        .components(vec![serenity::CreateActionRow::Buttons(vec![
                                            serenity::CreateButton::new(messages::ids::make(
                                                messages::ids::CHOOSE,
                                                game_id,
                                            ))
                                            .label("Choose privately")
                                            .style(serenity::ButtonStyle::Primary),
                                        ])])
                                        .allowed_mentions(messages::mentions::only(&[user]))
                                        .nonce(serenity::Nonce::String(format!("{}f", entry.nonce)))
                                        .enforce_nonce(true),
                                )
                                .await?;
                            Ok::<_, Error>(msg)
                        };
                        match offer.await {
                            Ok(msg) => Ok(Posted {
                                message_id: Some(msg.id.domain()),
                                ..Posted::default()
                            }),
                            Err(e) => Err(format!("{IN_THREAD_OFFER_FAILED}{e}").into()),
                        }
                    }
                }
            }
            Effect::Announcement {
                text,
                pings,
                draw_buttons,
            } => {
                let snap = services.load(game_id).await?;
                let mut message = serenity::CreateMessage::new()
                    .content(text)
                    .allowed_mentions(messages::mentions::only(&pings));
                if draw_buttons {
                    message = message.components(messages::draw_buttons(game_id));
                }
                let msg = self.post_in_game(entry, &snap, message).await?;
                Ok(Posted {
                    message_id: Some(msg),
                    ..Posted::default()
                })
            }
            Effect::GameEnded { text } => {
                let snap = services.load(game_id).await?;
                let pings = messages::mentions::trailing_mentions(&text);
                let message = serenity::CreateMessage::new()
                    .content(text)
                    .allowed_mentions(messages::mentions::only(&pings));
                let msg = self.post_in_game(entry, &snap, message).await?;
                // The latest board's in-game buttons (Resign, Offer draw) give way to the
                // finished game's (My view), as a board posted at the end has.
                if let Some(board) = snap.row.board_message_id {
                    let edited = board::game_channel(&snap)
                        .edit_message(
                            http,
                            board.serenity(),
                            serenity::EditMessage::new().components(
                                messages::fairness::game_buttons(snap.row.variant, game_id, true),
                            ),
                        )
                        .await;
                    match edited {
                        Ok(_) => {}
                        // Deleted, or not editable: the old buttons answer "the game is over".
                        Err(e) if client_error(&e) => {
                            tracing::debug!(game_id = %game_id, error = %e, "could not update the last board's buttons");
                        }
                        // Retried: the announcement's nonce returns it instead of a second.
                        Err(e) => return Err(e.into()),
                    }
                }
                self.close_prompts(entry, &snap, false).await?;
                Ok(Posted {
                    message_id: Some(msg),
                    ..Posted::default()
                })
            }
            Effect::Nudge {
                user,
                dm,
                ply,
                text,
            } => self.nudge(entry, game_id, user, dm, ply, text).await,
            Effect::Private { user, text } => self.private(entry, game_id, user, text).await,
            Effect::Prompt {
                text,
                pings,
                buttons,
            } => {
                let snap = services.load(game_id).await?;
                let message = serenity::CreateMessage::new()
                    .content(text)
                    .allowed_mentions(messages::mentions::only(&pings))
                    .components(prompt_buttons(&buttons));
                let msg = self.post_in_game(entry, &snap, message).await?;
                Ok(Posted {
                    message_id: Some(msg),
                    ..Posted::default()
                })
            }
            Effect::ReplayGif { ply } => {
                let snap = if ply < 0 {
                    services.load(game_id).await?
                } else {
                    services.load_at(game_id, ply).await?
                };
                if snap.game.ply_count() == 0 {
                    return Ok(Posted::default());
                }
                // The game is over: every secret is public (Beirut's reveal, BE-9).
                let gif =
                    board::replay(services, &snap, Viewer::Full, board::PUBLIC_BOTTOM).await?;
                let message = serenity::CreateMessage::new()
                    .content(messages::replay_caption(&snap))
                    .add_file(gif)
                    .allowed_mentions(messages::mentions::none());
                let msg = self.post_in_game(entry, &snap, message).await?;
                Ok(Posted {
                    message_id: Some(msg),
                    ..Posted::default()
                })
            }
            Effect::ClosePrompts => {
                let snap = services.load(game_id).await?;
                self.close_prompts(entry, &snap, true).await?;
                Ok(Posted::default())
            }
            Effect::ChallengePost { .. } => Ok(Posted::default()),
        }
    }

    /// Takes the buttons off the game's prompts that are still up before `entry` (see
    /// [`outbox::open_prompts`]), keeping their text. A prompt deleted or no longer editable
    /// (a client error) is skipped: its buttons, if clicked, are refused by the service.
    /// Other failures are returned when `retry` (the entry is tried again; editing twice
    /// is harmless) and logged otherwise (the board or ending posted with it stands).
    async fn close_prompts(
        &self,
        entry: &Entry,
        snap: &kaboom_service::Snapshot,
        retry: bool,
    ) -> Result<(), Error> {
        let Some(game_id) = entry.game_id else {
            return Ok(());
        };
        let prompts = outbox::open_prompts(&self.services.db, game_id, entry.id).await?;
        for prompt in prompts {
            let edited = board::game_channel(snap)
                .edit_message(
                    &*self.http,
                    prompt.serenity(),
                    serenity::EditMessage::new().components(vec![]),
                )
                .await;
            match edited {
                Ok(_) => {}
                Err(e) if client_error(&e) => {
                    tracing::debug!(game_id = %game_id, error = %e, "could not close a prompt");
                }
                Err(e) if retry => return Err(e.into()),
                Err(e) => {
                    tracing::warn!(game_id = %game_id, error = %e, "could not close a prompt");
                }
            }
        }
        Ok(())
    }

    /// A private DM. Discord refusing it (closed DMs, a 4xx) gives it up: the
    /// text is private, so it is never posted in the thread instead.
    async fn private(
        &self,
        entry: &Entry,
        game_id: GameId,
        user: UserId,
        text: String,
    ) -> Result<Posted, Error> {
        let http = &*self.http;
        let sent = async {
            let channel = user.serenity().create_dm_channel(http).await?;
            channel
                .send_message(
                    http,
                    serenity::CreateMessage::new()
                        .content(text)
                        .allowed_mentions(messages::mentions::none())
                        .nonce(serenity::Nonce::String(entry.nonce.clone()))
                        .enforce_nonce(true),
                )
                .await
        };
        match sent.await {
            Ok(msg) => Ok(Posted {
                message_id: Some(msg.id.domain()),
                ..Posted::default()
            }),
            Err(e) if client_error(&e) => {
                tracing::info!(game_id = %game_id, user = %user, error = %e, "private DM refused; given up (private text)");
                Ok(Posted::default())
            }
            Err(e) => Err(e.into()),
        }
    }

    /// A rematch challenge: posted in its channel with the challenge's buttons
    /// and the entry's nonce, and recorded as the challenge's message.
    async fn post_challenge(
        &self,
        entry: &Entry,
        channel_id: ChannelId,
        text: String,
        pings: Vec<UserId>,
    ) -> Result<Posted, Error> {
        let challenge_id = entry
            .challenge_id
            .ok_or("a challenge post names no challenge")?;
        let msg = channel_id
            .serenity()
            .send_message(
                &*self.http,
                serenity::CreateMessage::new()
                    .content(text)
                    .components(messages::challenge_buttons(challenge_id))
                    .allowed_mentions(messages::mentions::only(&pings))
                    .nonce(serenity::Nonce::String(entry.nonce.clone()))
                    .enforce_nonce(true),
            )
            .await?;
        self.services
            .set_challenge_message(challenge_id, msg.id.domain())
            .await?;
        Ok(Posted {
            message_id: Some(msg.id.domain()),
            ..Posted::default()
        })
    }

    /// Posts `message` in the game's thread (reopened first if archived) with the entry's
    /// nonce; returns the message's id.
    async fn post_in_game(
        &self,
        entry: &Entry,
        snap: &kaboom_service::Snapshot,
        message: serenity::CreateMessage,
    ) -> Result<MessageId, Error> {
        let channel = board::game_channel(snap);
        self.ensure_open(channel).await?;
        let msg = channel
            .send_message(
                &*self.http,
                message
                    .nonce(serenity::Nonce::String(entry.nonce.clone()))
                    .enforce_nonce(true),
            )
            .await?;
        Ok(msg.id.domain())
    }

    /// A nudge: dropped if the game left `ply`; else the thread is reopened, then the DM is
    /// sent (when wanted), or, if Discord refuses it or the player wants it so, a mention in
    /// the thread.
    async fn nudge(
        &self,
        entry: &Entry,
        game_id: GameId,
        user: UserId,
        dm: bool,
        ply: i64,
        text: String,
    ) -> Result<Posted, Error> {
        let http = &*self.http;
        let snap = self.services.load(game_id).await?;
        if snap.row.ply != ply || snap.outcome().is_some() {
            tracing::debug!(game_id = %game_id, "nudge dropped: the game moved on before it was posted");
            return Ok(Posted::default());
        }
        let thread = board::game_channel(&snap);
        self.ensure_open(thread).await?;
        if dm {
            let sent = async {
                let channel = user.serenity().create_dm_channel(http).await?;
                channel
                    .send_message(
                        http,
                        serenity::CreateMessage::new()
                            .content(text.clone())
                            .allowed_mentions(messages::mentions::none())
                            .nonce(serenity::Nonce::String(entry.nonce.clone()))
                            .enforce_nonce(true),
                    )
                    .await
            };
            match sent.await {
                Ok(msg) => {
                    return Ok(Posted {
                        message_id: Some(msg.id.domain()),
                        ..Posted::default()
                    });
                }
                Err(e) if client_error(&e) => {
                    tracing::info!(game_id = %game_id, user = %user, error = %e, "nudge DM refused; mentioning in the thread");
                }
                Err(e) => return Err(e.into()),
            }
        }
        let nonce = if dm {
            format!("{}f", entry.nonce)
        } else {
            entry.nonce.clone()
        };
        let msg = thread
            .send_message(
                http,
                serenity::CreateMessage::new()
                    .content(messages::nudge_in_thread(user, &text))
                    .allowed_mentions(messages::mentions::only(&[user]))
                    .nonce(serenity::Nonce::String(nonce))
                    .enforce_nonce(true),
            )
            .await?;
        Ok(Posted {
            message_id: Some(msg.id.domain()),
            ..Posted::default()
        })
    }

    /// A challenge declined, cancelled or expired: its message edited to `content` (or
    /// marked expired with `line`) without buttons; `line` posted in the channel when the
    /// message is unknown or gone.
    async fn close_challenge(
        &self,
        entry: &Entry,
        channel_id: ChannelId,
        message_id: Option<MessageId>,
        content: Option<String>,
        line: String,
    ) -> Result<Posted, Error> {
        let http = &*self.http;
        let channel = channel_id.serenity();
        if let Some(message) = message_id {
            let message = message.serenity();
            let edited = async {
                let content = match content {
                    Some(c) => c,
                    None => {
                        let old = channel.message(http, message).await?;
                        messages::expired_challenge(&old.content, &line)
                    }
                };
                channel
                    .edit_message(
                        http,
                        message,
                        serenity::EditMessage::new()
                            .content(content)
                            .components(Vec::new())
                            .allowed_mentions(messages::mentions::none()),
                    )
                    .await
            };
            match edited.await {
                Ok(_) => {
                    return Ok(Posted {
                        message_id: Some(message.domain()),
                        ..Posted::default()
                    });
                }
                Err(e) if discord_code(&e) == Some(UNKNOWN_MESSAGE) => {}
                Err(e) => return Err(e.into()),
            }
        }
        // No message to mark: say it in the channel.
        let msg = channel
            .send_message(
                http,
                serenity::CreateMessage::new()
                    .content(line)
                    .allowed_mentions(messages::mentions::none())
                    .nonce(serenity::Nonce::String(entry.nonce.clone()))
                    .enforce_nonce(true),
            )
            .await?;
        Ok(Posted {
            message_id: Some(msg.id.domain()),
            ..Posted::default()
        })
    }
}
