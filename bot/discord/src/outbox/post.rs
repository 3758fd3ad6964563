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
use kaboom_domain::game::Venue;
use kaboom_domain::ids::{ChannelId, GameId, MessageId, UserId};
use kaboom_service::ServiceError;
use kaboom_service::painter::ReplayPace;
use kaboom_store::outbox::Entry;

/// The ids Discord gave for a delivered entry.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Posted {
    pub(super) message_id: Option<MessageId>,
    pub(super) thread_id: Option<ChannelId>,
}

impl Posted {
    /// A message was posted (or edited).
    fn message(id: MessageId) -> Posted {
        Posted {
            message_id: Some(id),
            ..Posted::default()
        }
    }

    /// A thread was created (or found).
    fn thread(id: ChannelId) -> Posted {
        Posted {
            thread_id: Some(id),
            ..Posted::default()
        }
    }
}

/// The game an entry belongs to: every effect but a challenge's names one.
// The layer's one edge error is large (serenity's error is inside it); like every
// function of this layer, this one returns it as it is.
#[allow(clippy::result_large_err)]
fn game_of(entry: &Entry) -> Result<GameId, Error> {
    entry
        .game_id
        .ok_or(Error::Missing("an outbox entry of a game names no game"))
}

/// The nonce of an entry's second message, posted in place of a refused DM (the in-thread
/// offer, a nudge's mention): another message than the DM, so another nonce.
fn fallback_nonce(entry: &Entry) -> String {
    format!("{}f", entry.nonce)
}

/// A text that pings no one.
fn text_only(text: String) -> serenity::CreateMessage {
    serenity::CreateMessage::new()
        .content(text)
        .allowed_mentions(messages::mentions::none())
}

/// The HTTP status of an unsuccessful Discord request, if `e` is one.
fn http_status(e: &serenity::Error) -> Option<u16> {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            Some(r.status_code.as_u16())
        }
        _ => None,
    }
}

/// Whether a Discord error is the client's fault (4xx, not 429): the request as it is will
/// never succeed.
fn client_error(e: &serenity::Error) -> bool {
    http_status(e).is_some_and(|s| (400..500).contains(&s) && s != TOO_MANY_REQUESTS)
}

/// 429 Too Many Requests: Discord's rate limit
/// (<https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit>).
const TOO_MANY_REQUESTS: u16 = 429;

/// Whether an outbox delivery failed on Discord's 429 Too Many Requests.
pub(super) fn rate_limited(e: &Error) -> bool {
    matches!(e, Error::Discord(d) if http_status(d) == Some(TOO_MANY_REQUESTS))
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

    /// Posts `entry`: one function per kind of [`Effect`].
    pub(super) async fn deliver(&self, entry: &Entry) -> Result<Posted, Error> {
        match self.deliver_effect(entry).await {
            Err(Error::NobodyReached) => {
                tracing::info!(entry = entry.id, game_id = ?entry.game_id, "no player could be sent this post by DM; kept for their next interaction");
                Ok(Posted::default())
            }
            other => other,
        }
    }

    /// [`Deliverer::deliver`] before a post nobody could be DMed counts as delivered.
    async fn deliver_effect(&self, entry: &Entry) -> Result<Posted, Error> {
        match serde_json::from_str(&entry.payload)? {
            Effect::Thread {
                channel_id,
                name,
                message_id,
            } => self.open_thread(entry, channel_id, name, message_id).await,
            Effect::ChallengeAccepted { by } => self.mark_accepted(entry, by).await,
            Effect::ChallengeClosed {
                channel_id,
                message_id,
                content,
                line,
            } => {
                self.close_challenge(entry, channel_id, message_id, content, line)
                    .await
            }
            Effect::Board {
                ply,
                caption,
                finished,
            } => self.post_board(entry, ply, caption, finished).await,
            Effect::CarrierMenu { user } => self.send_carrier_menu(entry, user).await,
            Effect::Announcement {
                text,
                pings,
                draw_buttons,
            } => self.announce(entry, text, pings, draw_buttons).await,
            Effect::GameEnded { text } => self.announce_end(entry, text).await,
            Effect::Nudge {
                user,
                dm,
                ply,
                text,
            } => self.nudge(entry, user, dm, ply, text).await,
            Effect::Private { user, text } => self.send_private(entry, user, text).await,
            Effect::Prompt {
                text,
                pings,
                buttons,
            } => self.prompt(entry, text, pings, buttons).await,
            Effect::ClosePrompts => self.close_prompts_now(entry).await,
            Effect::ChallengePost {
                channel_id,
                text,
                pings,
            } => self.post_challenge(entry, channel_id, text, pings).await,
            Effect::ReplayGif { ply } => self.post_replay(entry, ply).await,
            Effect::AnalysisProgress { text } => self.analysis_progress(entry, text).await,
            Effect::AnalysisResult { text, progress } => {
                self.analysis_result(entry, text, progress).await
            }
            Effect::LeagueSignUp { channel_id, text } => {
                self.post_sign_up(entry, channel_id, text).await
            }
            Effect::LeagueSignUpEdit { text, open } => self.edit_sign_up(entry, text, open).await,
            Effect::LeaguePost {
                channel_id,
                text,
                pings,
                standings_image,
                after_round,
            } => {
                self.post_league(entry, channel_id, text, pings, standings_image, after_round)
                    .await
            }
            Effect::DailyPuzzle {
                channel_id,
                guild_id,
                day,
                puzzle_id,
                text,
            } => {
                self.post_daily_puzzle(entry, channel_id, guild_id, day, &puzzle_id, text)
                    .await
            }
        }
    }

    /// Sends `message` in `channel` with `nonce` and `enforce_nonce`: a repeat gets the
    /// first message back.
    async fn send(
        &self,
        channel: serenity::ChannelId,
        message: serenity::CreateMessage,
        nonce: String,
    ) -> Result<serenity::Message, serenity::Error> {
        channel
            .send_message(
                &*self.http,
                message
                    .nonce(serenity::Nonce::String(nonce))
                    .enforce_nonce(true),
            )
            .await
    }

    /// Sends `message` to `user` by DM with `nonce` (see [`Deliverer::send`]).
    async fn send_dm(
        &self,
        user: UserId,
        message: serenity::CreateMessage,
        nonce: String,
    ) -> Result<serenity::Message, serenity::Error> {
        let channel = user.serenity().create_dm_channel(&*self.http).await?;
        self.send(channel.id, message, nonce).await
    }

    /// Posts `message` in the game's thread with `nonce`, or for a game played by DM to
    /// each player ([`Deliverer::post_to_players`]); returns the message's id.
    ///
    /// A thread Discord archived needs no [`Deliverer::ensure_open`] first: "Sending a
    /// message will automatically unarchive the thread, unless the thread has been locked
    /// by a moderator"
    /// (<https://discord.com/developers/docs/topics/threads#active-archived-threads>), and
    /// the edits that follow a post (the previous board's buttons) come after it. That
    /// saves a Get Channel, a third of a move's requests against the bot's global limit.
    /// A locked, archived thread refuses the post (50083) as it refused before.
    async fn post_in_thread(
        &self,
        snap: &kaboom_service::Snapshot,
        message: serenity::CreateMessage,
        nonce: String,
    ) -> Result<MessageId, Error> {
        if snap.row.venue.by_dm() {
            return self.post_to_players(snap, message, &nonce, None).await;
        }
        let channel = board::game_channel(snap);
        Ok(self.send(channel, message, nonce).await?.id.domain())
    }

    /// A game played by DM ([`Venue::Direct`]): `message` to White's and then Black's DM
    /// with the bot, each with its own nonce (`nonce` and `w` or `b`: Discord matches a
    /// nonce across all of the bot's messages, "If another message was created by the same
    /// author with the same nonce, that message will be returned",
    /// <https://discord.com/developers/docs/resources/message#create-message-jsonform-params>),
    /// so that a retry after one of them was sent sends only the other. A player whose
    /// DMs are closed (50007), or who shares no server with the bot and has not installed
    /// it (50278), is skipped: the post's text is kept ([`kaboom_service::Deliveries::missed`])
    /// and shown at their next command or click. With `only`, to that player alone.
    /// Returns the first message sent.
    ///
    /// # Errors
    /// A transient Discord error (the entry is retried), or [`Error::NobodyReached`] when
    /// no player could be reached (the entry then counts as delivered).
    async fn post_to_players(
        &self,
        snap: &kaboom_service::Snapshot,
        message: serenity::CreateMessage,
        nonce: &str,
        only: Option<UserId>,
    ) -> Result<MessageId, Error> {
        let mut first = None;
        let mut refused = None;
        for (suffix, user) in [("w", snap.row.white_id), ("b", snap.row.black_id)] {
            if only.is_some_and(|only| only != user) {
                continue;
            }
            match self
                .send_dm(user, message.clone(), format!("{nonce}{suffix}"))
                .await
            {
                Ok(sent) => {
                    first.get_or_insert(sent.id.domain());
                }
                Err(e) if client_error(&e) => {
                    tracing::info!(game_id = %snap.row.id, user = %user, error = %e, "a game played by DM: this player's DM was refused; kept for their next interaction");
                    let text = serde_json::to_value(&message)
                        .ok()
                        .and_then(|m| m["content"].as_str().map(str::to_string))
                        .unwrap_or_default();
                    if !text.is_empty() {
                        self.services
                            .deliveries()
                            .missed(user, snap.row.id, &format!("{nonce}{suffix}"), &text)
                            .await?;
                    }
                    refused = Some(e);
                }
                Err(e) => return Err(e.into()),
            }
        }
        match (first, refused) {
            (Some(id), _) => Ok(id),
            (None, Some(_)) => Err(Error::NobodyReached),
            (None, None) => Err(Error::Missing("a game played by DM has no players")),
        }
    }

    /// Posts `message` in the game's thread with the entry's nonce.
    async fn post_in_game(
        &self,
        entry: &Entry,
        snap: &kaboom_service::Snapshot,
        message: serenity::CreateMessage,
    ) -> Result<MessageId, Error> {
        self.post_in_thread(snap, message, entry.nonce.clone())
            .await
    }

    /// Loads the entry's game and posts `message` in its thread.
    async fn post_to_game(
        &self,
        entry: &Entry,
        message: serenity::CreateMessage,
    ) -> Result<Posted, Error> {
        let snap = self.services.games().load(game_of(entry)?).await?;
        Ok(Posted::message(
            self.post_in_game(entry, &snap, message).await?,
        ))
    }

    /// Sets the buttons of `message`, in the game's thread, to `rows` (none: takes them off).
    /// A game played by DM keeps its older boards' buttons: they are in two DMs, and each
    /// answers for itself (routing is by custom id).
    async fn set_buttons(
        &self,
        snap: &kaboom_service::Snapshot,
        message: MessageId,
        rows: Vec<serenity::CreateActionRow>,
    ) -> Result<(), serenity::Error> {
        if snap.row.venue.by_dm() {
            return Ok(());
        }
        board::game_channel(snap)
            .edit_message(
                &*self.http,
                message.serenity(),
                serenity::EditMessage::new().components(rows),
            )
            .await?;
        Ok(())
    }

    /// The game's thread: the recorded one, else created (see [`Deliverer::create_thread`])
    /// and recorded on the game.
    async fn open_thread(
        &self,
        entry: &Entry,
        channel_id: ChannelId,
        name: String,
        message_id: Option<MessageId>,
    ) -> Result<Posted, Error> {
        let game_id = game_of(entry)?;
        let row = self.services.games().load(game_id).await?.row;
        if let Some(thread) = row.thread_id {
            return Ok(Posted::thread(thread));
        }
        let thread = self
            .create_thread(channel_id, name, message_id)
            .await?
            .domain();
        self.services.games().set_thread(game_id, thread).await?;
        Ok(Posted::thread(thread))
    }

    /// The accepted challenge's message: who accepted it, the thread's link, no buttons. A
    /// deleted message leaves nothing to mark.
    async fn mark_accepted(&self, entry: &Entry, by: UserId) -> Result<Posted, Error> {
        let game_id = game_of(entry)?;
        let challenge_id = entry.challenge_id.ok_or(Error::Missing(
            "an accepted challenge's entry names no challenge",
        ))?;
        let challenge = self.services.challenges().get(challenge_id).await?;
        let Some(message) = challenge.message_id else {
            return Ok(Posted::default());
        };
        let row = self.services.games().load(game_id).await?.row;
        let edit = serenity::EditMessage::new()
            .content(messages::challenge_accepted(&challenge, by, row.thread_id))
            .components(vec![])
            .allowed_mentions(messages::mentions::none());
        self.edit_posted(challenge.spec.channel_id.serenity(), message, edit)
            .await
    }

    /// Edits `message` in `channel` with `edit`: the message as posted, or nothing when it
    /// was deleted (10008 Unknown Message: there is nothing left to edit).
    async fn edit_posted(
        &self,
        channel: serenity::ChannelId,
        message: MessageId,
        edit: serenity::EditMessage,
    ) -> Result<Posted, Error> {
        match channel
            .edit_message(&*self.http, message.serenity(), edit)
            .await
        {
            Ok(_) => Ok(Posted::message(message)),
            Err(e) if discord_code(&e) == Some(UNKNOWN_MESSAGE) => Ok(Posted::default()),
            Err(e) => Err(e.into()),
        }
    }

    /// A board painted at `ply` with its caption and buttons; the previous board loses its
    /// buttons (older ones still work if clicked: routing is by custom id), and so do the
    /// prompts the move settled.
    async fn post_board(
        &self,
        entry: &Entry,
        ply: i64,
        caption: String,
        finished: bool,
    ) -> Result<Posted, Error> {
        let snap = self.services.games().load_at(game_of(entry)?, ply).await?;
        let mentions = messages::mentions::board(&snap);
        self.post_latest_board(entry, &snap, caption, mentions, finished)
            .await
    }

    /// The carrier menu by DM; if Discord refuses the DM, the "Choose privately" offer in
    /// the thread ([`Deliverer::offer_in_thread`]). Nothing when there is nothing left to
    /// choose.
    async fn send_carrier_menu(&self, entry: &Entry, user: UserId) -> Result<Posted, Error> {
        let game_id = game_of(entry)?;
        let services = &self.services;
        let snap = services.games().load(game_id).await?;
        let menu = match services.games().carrier_menu(game_id, user).await {
            Ok(menu) => menu,
            // Already chosen, or the game moved on: nothing to post.
            Err(ServiceError::Refused(_)) => return Ok(Posted::default()),
            Err(e) => return Err(e.into()),
        };
        // Once the DM was refused and the in-thread offer tried, later attempts go on with
        // the offer (same nonce): a DM that works on a retry would give the player both
        // (the faults test).
        let offered_before =
            entry.attempts > 0 && services.deliveries().dm_refused(entry.id).await?;
        if !offered_before {
            let dm = serenity::CreateMessage::new()
                .content(messages::carrier_prompt(&snap.row, &menu))
                .components(messages::carrier_menu(&menu))
                .allowed_mentions(messages::mentions::none());
            match self.send_dm(user, dm, entry.nonce.clone()).await {
                Ok(msg) => return Ok(Posted::message(msg.id.domain())),
                Err(e) if !client_error(&e) => return Err(e.into()),
                Err(e) => {
                    tracing::info!(game_id = %game_id, user = %user, error = %e, "carrier DM not delivered; offering the in-thread menu");
                }
            }
        }
        self.offer_in_thread(entry, &snap, user).await
    }

    /// The "Choose privately" button in the thread for a player whose DM was refused. If it
    /// fails, the entry is marked (`dm_refused`) so that its retries post this offer again,
    /// not the DM.
    async fn offer_in_thread(
        &self,
        entry: &Entry,
        snap: &kaboom_service::Snapshot,
        user: UserId,
    ) -> Result<Posted, Error> {
        if snap.row.venue.by_dm() {
            // No thread to offer it in: the game's message where it started has the
            // "Choose privately" button.
            tracing::info!(game_id = %snap.row.id, user = %user, "carrier DM refused in a game played by DM");
            return Ok(Posted::default());
        }
        let message = serenity::CreateMessage::new()
            .content(messages::dm_refused_choose_privately(user))
            .components(messages::choose_privately_button(snap.row.id))
            .allowed_mentions(messages::mentions::only(&[user]));
        match self
            .post_in_thread(snap, message, fallback_nonce(entry))
            .await
        {
            Ok(msg) => Ok(Posted::message(msg)),
            Err(e) => {
                self.services.deliveries().mark_dm_refused(entry.id).await?;
                Err(e)
            }
        }
    }

    /// A text in the game's thread, with the draw offer's buttons when asked.
    async fn announce(
        &self,
        entry: &Entry,
        text: String,
        pings: Vec<UserId>,
        draw_buttons: bool,
    ) -> Result<Posted, Error> {
        let game_id = game_of(entry)?;
        let mut message = serenity::CreateMessage::new()
            .content(text)
            .allowed_mentions(messages::mentions::only(&pings));
        if draw_buttons {
            message = message.components(messages::draw_buttons(game_id));
        }
        self.post_to_game(entry, message).await
    }

    /// A takeback proposal (or any prompt) with its buttons in the game's thread.
    async fn prompt(
        &self,
        entry: &Entry,
        text: String,
        pings: Vec<UserId>,
        buttons: Vec<(String, String, String)>,
    ) -> Result<Posted, Error> {
        let message = serenity::CreateMessage::new()
            .content(text)
            .allowed_mentions(messages::mentions::only(&pings))
            .components(prompt_buttons(&buttons));
        self.post_to_game(entry, message).await
    }

    /// A game the scheduler ended: its announcement; the latest board's in-game buttons
    /// (Resign, Offer draw) give way to the finished game's (My view), as a board posted at
    /// the end has; the standing prompts lose theirs.
    async fn announce_end(&self, entry: &Entry, text: String) -> Result<Posted, Error> {
        let snap = self.services.games().load(game_of(entry)?).await?;
        let pings = messages::mentions::trailing_mentions(&text);
        // The thread ends on a board, whatever ended the game: the announcement carries the
        // final position and the finished game's buttons (My view, Rematch, Analyse), as a
        // resignation's last board does.
        self.post_latest_board(entry, &snap, text, messages::mentions::only(&pings), true)
            .await
    }

    /// Posts `content` under the public board of `snap` with the game's buttons (those of
    /// a `finished` game or not) and `mentions`, as the game's latest board: recorded as
    /// such, the board before it stripped of its buttons (a failure is only logged: a
    /// retry would find this board recorded and skip it, and old buttons answer for
    /// themselves), and the open prompts closed.
    async fn post_latest_board(
        &self,
        entry: &Entry,
        snap: &kaboom_service::Snapshot,
        content: String,
        mentions: serenity::CreateAllowedMentions,
        finished: bool,
    ) -> Result<Posted, Error> {
        let game_id = snap.row.id;
        let services = &self.services;
        let image = board::paint(services, snap, Viewer::Spectator, board::PUBLIC_BOTTOM).await?;
        let message = serenity::CreateMessage::new()
            .content(content)
            .add_file(image)
            .components(messages::fairness::buttons_for(&snap.row, finished))
            .allowed_mentions(mentions);
        // A game played by DM: a move's board goes to the player who is to move, as a turn
        // notice (the mover saw it in their own answer); the first and the last to both.
        let msg = if snap.row.venue.by_dm()
            && !finished
            && snap.row.ply > 0
            && snap.row.state == kaboom_domain::game::GameState::Active
        {
            let to_move = snap.row.player(snap.game.turn());
            self.post_to_players(snap, message, &entry.nonce, Some(to_move))
                .await?
        } else {
            self.post_in_game(entry, snap, message).await?
        };
        services.games().set_board_message(game_id, msg).await?;
        if let Some(previous) = snap.row.board_message_id.filter(|p| *p != msg)
            && let Err(e) = self.set_buttons(snap, previous, vec![]).await
        {
            tracing::debug!(game_id = %game_id, error = %e, "could not clear old buttons");
        }
        self.close_prompts(entry, snap, false).await?;
        Ok(Posted::message(msg))
    }

    /// The replay GIF of a finished game (none for a game without plies).
    async fn post_replay(&self, entry: &Entry, ply: i64) -> Result<Posted, Error> {
        let game_id = game_of(entry)?;
        let services = &self.services;
        let snap = if ply < 0 {
            services.games().load(game_id).await?
        } else {
            services.games().load_at(game_id, ply).await?
        };
        if snap.game.ply_count() == 0 {
            return Ok(Posted::default());
        }
        // The game is over: every secret is public (Beirut's reveal, BE-9).
        // A long game is sped up to 30 s (quiet moves first); /replay slow:true gives
        // every move its full time.
        let gif = board::replay(
            services,
            &snap,
            Viewer::Full,
            board::PUBLIC_BOTTOM,
            ReplayPace::Fast,
        )
        .await?;
        let message = serenity::CreateMessage::new()
            .content(messages::replay_caption(&snap))
            .add_file(gif)
            .allowed_mentions(messages::mentions::none());
        Ok(Posted::message(
            self.post_in_game(entry, &snap, message).await?,
        ))
    }

    /// A declined takeback: the game's standing prompts lose their buttons (failures are
    /// retried).
    async fn close_prompts_now(&self, entry: &Entry) -> Result<Posted, Error> {
        let snap = self.services.games().load(game_of(entry)?).await?;
        self.close_prompts(entry, &snap, true).await?;
        Ok(Posted::default())
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
        let prompts = self
            .services
            .deliveries()
            .open_prompts(game_id, entry.id)
            .await?;
        for prompt in prompts {
            match self.set_buttons(snap, prompt, vec![]).await {
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
    async fn send_private(
        &self,
        entry: &Entry,
        user: UserId,
        text: String,
    ) -> Result<Posted, Error> {
        let game_id = game_of(entry)?;
        match self
            .send_dm(user, text_only(text), entry.nonce.clone())
            .await
        {
            Ok(msg) => Ok(Posted::message(msg.id.domain())),
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
            .ok_or(Error::Missing("a challenge post names no challenge"))?;
        let message = serenity::CreateMessage::new()
            .content(text)
            .components(messages::challenge_buttons(challenge_id))
            .allowed_mentions(messages::mentions::only(&pings));
        let challenge = self.services.challenges().get(challenge_id).await?;
        let msg = match (challenge.spec.venue, challenge.spec.opponent_id) {
            // A rematch of a game played by DM: the bot cannot post where the game
            // started, so the challenged player gets it in their DM with the bot.
            (Venue::Direct | Venue::Seek, Some(opponent)) => {
                self.send_dm(opponent, message, entry.nonce.clone()).await?
            }
            _ => {
                self.send(channel_id.serenity(), message, entry.nonce.clone())
                    .await?
            }
        }
        .id
        .domain();
        self.services
            .challenges()
            .set_message(challenge_id, msg)
            .await?;
        Ok(Posted::message(msg))
    }

    /// A nudge: dropped if the game left `ply`; else the thread is reopened, then the DM is
    /// sent (when wanted), or, if Discord refuses it or the player wants it so, a mention in
    /// the thread.
    async fn nudge(
        &self,
        entry: &Entry,
        user: UserId,
        dm: bool,
        ply: i64,
        text: String,
    ) -> Result<Posted, Error> {
        let game_id = game_of(entry)?;
        let snap = self.services.games().load(game_id).await?;
        if snap.row.ply != ply || snap.outcome().is_some() {
            tracing::debug!(game_id = %game_id, "nudge dropped: the game moved on before it was posted");
            return Ok(Posted::default());
        }
        // A game played by DM has no thread: its reminders always go by DM.
        let direct = snap.row.venue.by_dm();
        let thread = board::game_channel(&snap);
        if !direct {
            self.ensure_open(thread).await?;
        }
        if dm || direct {
            // A DM is the player's own: it carries the board from their side, as they see
            // it (their own Beirut carriers marked), while the thread's boards keep one
            // orientation for everyone.
            let mut dm_message = text_only(text.clone());
            if let Some(color) = snap.row.color_of(user) {
                let image =
                    board::paint(&self.services, &snap, Viewer::player(color), color).await?;
                dm_message = dm_message.add_file(image);
            }
            match self.send_dm(user, dm_message, entry.nonce.clone()).await {
                Ok(msg) => return Ok(Posted::message(msg.id.domain())),
                Err(e) if client_error(&e) && direct => {
                    tracing::info!(game_id = %game_id, user = %user, error = %e, "nudge DM refused in a game played by DM; kept for their next interaction");
                    self.services
                        .deliveries()
                        .missed(user, game_id, &entry.nonce, &text)
                        .await?;
                    return Ok(Posted::default());
                }
                Err(e) if client_error(&e) => {
                    tracing::info!(game_id = %game_id, user = %user, error = %e, "nudge DM refused; mentioning in the thread");
                }
                Err(e) => return Err(e.into()),
            }
        }
        let nonce = if dm {
            fallback_nonce(entry)
        } else {
            entry.nonce.clone()
        };
        let message = serenity::CreateMessage::new()
            .content(messages::nudge_in_thread(user, &text))
            .allowed_mentions(messages::mentions::only(&[user]));
        let msg = self.send(thread, message, nonce).await?;
        Ok(Posted::message(msg.id.domain()))
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
        if let Some(challenge) = entry.challenge_id {
            let challenge = self.services.challenges().get(challenge).await?;
            if challenge.spec.venue.by_dm() {
                // The bot cannot edit or post where a challenge played by DM was made: a
                // Decline or Cancel click updated the message itself; an expired one keeps
                // its buttons, which answer that it expired. A seek has no message: its
                // seeker hears of its expiry by DM.
                let expired_seek = challenge.spec.venue == Venue::Seek
                    && challenge.spec.opponent_id.is_none()
                    && challenge.state == kaboom_store::challenges::ChallengeState::Expired;
                if !expired_seek {
                    return Ok(Posted::default());
                }
                let ttl =
                    messages::duration_text(self.services.scheduler_config().challenge_ttl_secs);
                let dm = text_only(messages::seeks::expired(&challenge, &ttl));
                return match self
                    .send_dm(challenge.spec.challenger_id, dm, entry.nonce.clone())
                    .await
                {
                    Ok(sent) => Ok(Posted::message(sent.id.domain())),
                    Err(e) if client_error(&e) => {
                        tracing::info!(challenge = challenge.id, error = %e, "the expired seek's DM was refused; dropped");
                        Ok(Posted::default())
                    }
                    Err(e) => Err(e.into()),
                };
            }
        }
        if let Some(message) = message_id {
            let edited = async {
                let content = match content {
                    Some(c) => c,
                    None => {
                        let old = channel.message(http, message.serenity()).await?;
                        messages::expired_challenge(&old.content, &line)
                    }
                };
                channel
                    .edit_message(
                        http,
                        message.serenity(),
                        serenity::EditMessage::new()
                            .content(content)
                            .components(Vec::new())
                            .allowed_mentions(messages::mentions::none()),
                    )
                    .await
            };
            match edited.await {
                Ok(_) => return Ok(Posted::message(message)),
                Err(e) if discord_code(&e) == Some(UNKNOWN_MESSAGE) => {}
                Err(e) => return Err(e.into()),
            }
        }
        // No message to mark: say it in the channel.
        let msg = self
            .send(channel, text_only(line), entry.nonce.clone())
            .await?;
        Ok(Posted::message(msg.id.domain()))
    }

    /// The league an entry belongs to.
    #[allow(clippy::result_large_err)]
    fn league_of(entry: &Entry) -> Result<i64, Error> {
        entry
            .league_id
            .ok_or(Error::Missing("a league's outbox entry names no league"))
    }

    /// A league's sign-up post with its buttons; its message is recorded on the league.
    async fn post_sign_up(
        &self,
        entry: &Entry,
        channel_id: ChannelId,
        text: String,
    ) -> Result<Posted, Error> {
        let league_id = Self::league_of(entry)?;
        let message = serenity::CreateMessage::new()
            .content(text)
            .components(messages::leagues::sign_up_buttons(league_id))
            .allowed_mentions(messages::mentions::none());
        let msg = self
            .send(channel_id.serenity(), message, entry.nonce.clone())
            .await?
            .id
            .domain();
        self.services.leagues().set_message(league_id, msg).await?;
        Ok(Posted::message(msg))
    }

    /// The league's sign-up post edited to `text`, with its buttons while `open`. Not
    /// posted yet (its entry comes first in the league's queue, so only if it was given
    /// up) or deleted: nothing to edit.
    async fn edit_sign_up(&self, entry: &Entry, text: String, open: bool) -> Result<Posted, Error> {
        let league = self
            .services
            .leagues()
            .load(Self::league_of(entry)?)
            .await?;
        let Some(message) = league.message_id else {
            tracing::warn!(
                league = league.id,
                "the league's sign-up post was never posted; not edited"
            );
            return Ok(Posted::default());
        };
        let buttons = if open {
            messages::leagues::sign_up_buttons(league.id)
        } else {
            Vec::new()
        };
        let edit = serenity::EditMessage::new()
            .content(text)
            .components(buttons)
            .allowed_mentions(messages::mentions::none());
        self.edit_posted(league.channel_id.serenity(), message, edit)
            .await
    }

    /// A post in a league's channel, pinging only `pings`; with `standings_image`, the
    /// league's standings (as they are now, headed after round `after_round` or final) as
    /// a picture.
    async fn post_league(
        &self,
        entry: &Entry,
        channel_id: ChannelId,
        text: String,
        pings: Vec<UserId>,
        standings_image: bool,
        after_round: Option<u32>,
    ) -> Result<Posted, Error> {
        let mut message = serenity::CreateMessage::new()
            .content(text)
            .allowed_mentions(messages::mentions::only(&pings));
        if standings_image {
            let league = self
                .services
                .leagues()
                .load(Self::league_of(entry)?)
                .await?;
            let table = messages::leagues::standings_image(&league, after_round);
            let png = self
                .services
                .cpu()
                .run(move || kaboom_renderer::render_table_png(&table))
                .await??;
            message = message.add_file(serenity::CreateAttachment::bytes(png, "standings.png"));
        }
        let msg = self
            .send(channel_id.serenity(), message, entry.nonce.clone())
            .await?;
        Ok(Posted::message(msg.id.domain()))
    }

    /// A server's daily puzzle: the text, the board from the solver's side and the "Try it
    /// privately" button, in the server's puzzle channel; the post is recorded on the day.
    async fn post_daily_puzzle(
        &self,
        entry: &Entry,
        channel_id: ChannelId,
        guild_id: i64,
        day: i64,
        puzzle_id: &str,
        text: String,
    ) -> Result<Posted, Error> {
        let services = &self.services;
        let png = crate::puzzle::paint_start(services, puzzle_id).await?;
        let message = serenity::CreateMessage::new()
            .content(text)
            .allowed_mentions(messages::mentions::none())
            .add_file(serenity::CreateAttachment::bytes(png, "puzzle.png"))
            .components(vec![serenity::CreateActionRow::Buttons(vec![
                serenity::CreateButton::new(messages::ids::make(messages::puzzles::TRY_DAILY, day))
                    .label(messages::puzzles::TRY_DAILY_LABEL)
                    .style(serenity::ButtonStyle::Primary),
            ])]);
        let msg = self
            .send(channel_id.serenity(), message, entry.nonce.clone())
            .await?;
        services
            .puzzles()
            .set_daily_message(guild_id, day, msg.id.domain())
            .await?;
        Ok(Posted::message(msg.id.domain()))
    }

    /// The analysis's progress post: posted in the game's thread the first time (and
    /// recorded), edited to `text` after. A post that was deleted is left so.
    async fn analysis_progress(&self, entry: &Entry, text: String) -> Result<Posted, Error> {
        let game_id = game_of(entry)?;
        let services = &self.services;
        let snap = services.games().load(game_id).await?;
        let message = services
            .analyses()
            .get(game_id)
            .await?
            .and_then(|a| a.message_id);
        let Some(message) = message else {
            let post = serenity::CreateMessage::new()
                .content(text)
                .allowed_mentions(messages::mentions::none());
            let msg = self.post_in_game(entry, &snap, post).await?;
            services.analyses().set_message(game_id, msg).await?;
            return Ok(Posted::message(msg));
        };
        if snap.row.venue.by_dm() {
            // Posted once to each player; later progress is not edited into two DMs.
            return Ok(Posted::default());
        }
        let channel = board::game_channel(&snap);
        self.ensure_open(channel).await?;
        let edit = serenity::EditMessage::new()
            .content(text)
            .allowed_mentions(messages::mentions::none());
        self.edit_posted(channel, message, edit).await
    }

    /// The analysis's result in the game's thread: `text` with the evaluation chart, the
    /// boards of the key moments and the annotated PGN; then the progress post says
    /// `progress` (done).
    async fn analysis_result(
        &self,
        entry: &Entry,
        text: String,
        progress: String,
    ) -> Result<Posted, Error> {
        let game_id = game_of(entry)?;
        let services = &self.services;
        let snap = services.games().load(game_id).await?;
        let Some(row) = services.analyses().get(game_id).await? else {
            return Ok(Posted::default());
        };
        let review = kaboom_service::analysis::read_review(&row)?;
        let files = board::analysis_files(services, &snap, review).await?;
        let post = serenity::CreateMessage::new()
            .content(text)
            .files(files)
            .allowed_mentions(messages::mentions::none());
        let msg = self.post_in_game(entry, &snap, post).await?;
        if let Some(message) = row.message_id.filter(|_| snap.row.venue == Venue::Thread) {
            let edited = board::game_channel(&snap)
                .edit_message(
                    &*self.http,
                    message.serenity(),
                    serenity::EditMessage::new()
                        .content(progress)
                        .allowed_mentions(messages::mentions::none()),
                )
                .await;
            if let Err(e) = edited {
                tracing::debug!(game_id = %game_id, error = %e, "could not close the analysis progress post");
            }
        }
        Ok(Posted::message(msg))
    }
}
