//! The [`Notifier`] of the running bot: delivers scheduler notices over Discord's REST API
//! (serenity's `Http`, so the fake Discord serves the tests).
//!
//! - A nudge by DM opens the player's DM channel and sends the text with the thread link;
//!   if Discord refuses (DMs closed, error 50007, or any other failure) the nudge is posted
//!   in the game's thread with a mention instead. A nudge by thread is that mention.
//! - A game ended by the scheduler is announced in its thread (posting to an archived thread
//!   reopens it).
//! - An expired challenge's message gets the expiry line and loses its buttons; without a
//!   stored message the line is posted in the channel.

use std::sync::Arc;

use poise::serenity_prelude as serenity;

use crate::discord::messages;
use crate::domain::ids::{ChannelId, GameId, MessageId, UserId};
use crate::scheduler::notice::{Delivery, Notice, Notifier};
use crate::storage::settings::NudgeVia;

/// Delivers notices through `http`.
#[derive(Clone)]
pub struct DiscordNotifier {
    http: Arc<serenity::Http>,
}

impl DiscordNotifier {
    /// A notifier over the bot's HTTP client.
    pub fn new(http: Arc<serenity::Http>) -> DiscordNotifier {
        DiscordNotifier { http }
    }

    /// Posts `text`, which may ping exactly `users` (issue 16).
    async fn post(
        &self,
        channel: ChannelId,
        text: String,
        users: &[UserId],
    ) -> Result<(), serenity::Error> {
        serenity::ChannelId::from(channel)
            .send_message(
                &self.http,
                serenity::CreateMessage::new()
                    .content(text)
                    .allowed_mentions(messages::mentions::only(users)),
            )
            .await
            .map(|_| ())
    }

    async fn dm(&self, user: UserId, text: &str) -> Result<(), serenity::Error> {
        let channel = serenity::UserId::from(user)
            .create_dm_channel(&self.http)
            .await?;
        channel
            .id
            .send_message(
                &self.http,
                serenity::CreateMessage::new()
                    .content(text)
                    .allowed_mentions(messages::mentions::none()),
            )
            .await
            .map(|_| ())
    }

    async fn mark_expired(
        &self,
        channel: ChannelId,
        message: MessageId,
        text: &str,
    ) -> Result<(), serenity::Error> {
        let channel = serenity::ChannelId::from(channel);
        let message = serenity::MessageId::from(message);
        let old = channel.message(&self.http, message).await?;
        let content = messages::expired_challenge(&old.content, text);
        channel
            .edit_message(
                &self.http,
                message,
                serenity::EditMessage::new()
                    .content(content)
                    .components(Vec::new())
                    .allowed_mentions(messages::mentions::none()),
            )
            .await
            .map(|_| ())
    }

    /// Gives the latest board message of a game the scheduler ended the finished game's
    /// buttons (My view only), as a board posted at the end of a game has. Best effort:
    /// the announcement is what matters, and old buttons answer "the game is over".
    async fn finish_board(&self, game_id: GameId, channel_id: ChannelId, board: MessageId) {
        let edited = serenity::ChannelId::from(channel_id)
            .edit_message(
                &self.http,
                serenity::MessageId::from(board),
                serenity::EditMessage::new().components(messages::board_buttons(game_id, true)),
            )
            .await;
        if let Err(e) = edited {
            tracing::debug!(game_id = %game_id, error = %e, "could not update the last board's buttons");
        }
    }
}

fn failed(what: &str, subject: i64, e: &serenity::Error) -> Delivery {
    tracing::warn!(subject, error = %e, "{what}");
    Delivery::Failed
}

#[async_trait::async_trait]
impl Notifier for DiscordNotifier {
    async fn deliver(&self, notice: &Notice) -> Delivery {
        match notice {
            Notice::Nudge {
                game_id,
                user_id,
                via,
                channel_id,
                text,
            } => {
                if *via == NudgeVia::Dm {
                    match self.dm(*user_id, text).await {
                        Ok(()) => return Delivery::Dm,
                        Err(e) => {
                            tracing::info!(game_id = %game_id, user = %user_id, error = %e, "nudge DM refused; mentioning in the thread");
                        }
                    }
                }
                let mentioned = messages::nudge_in_thread(*user_id, text);
                match self.post(*channel_id, mentioned, &[*user_id]).await {
                    Ok(()) if *via == NudgeVia::Dm => Delivery::FellBackToThread,
                    Ok(()) => Delivery::Channel,
                    Err(e) => failed("nudge not delivered", game_id.get(), &e),
                }
            }
            Notice::GameEnded {
                game_id,
                channel_id,
                board_message_id,
                text,
            } => match self
                .post(
                    *channel_id,
                    text.clone(),
                    &messages::mentions::trailing_mentions(text),
                )
                .await
            {
                Ok(()) => {
                    if let Some(board) = board_message_id {
                        self.finish_board(*game_id, *channel_id, *board).await;
                    }
                    Delivery::Channel
                }
                Err(e) => failed("game end not announced", game_id.get(), &e),
            },
            Notice::ChallengeExpired {
                challenge_id,
                channel_id,
                message_id,
                text,
            } => {
                let done = match message_id {
                    Some(m) => match self.mark_expired(*channel_id, *m, text).await {
                        Ok(()) => Ok(()),
                        // The message is gone: say it in the channel.
                        Err(_) => self.post(*channel_id, text.clone(), &[]).await,
                    },
                    None => self.post(*channel_id, text.clone(), &[]).await,
                };
                match done {
                    Ok(()) => Delivery::Channel,
                    Err(e) => failed("challenge expiry not shown", *challenge_id, &e),
                }
            }
        }
    }
}
