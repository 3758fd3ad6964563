//! The Discord outbox (issue 16): every Discord side effect of a committed change is
//! worded here ([`DiscordEffects`], the services' [`EffectPlanner`]) inside the change's
//! transaction, stored in `discord_outbox`, and posted by one deliverer task
//! ([`Deliverer`]) after the commit, at start-up (what a crash left) and periodically.
//!
//! Delivery order: a game's entries go out in the order they were written (the thread
//! before its first board, a board before the next one); an entry that fails holds back
//! the later entries of its game until it is delivered or given up. Failed attempts are
//! retried with exponential backoff (1 s, 2 s, 4 s, ... capped at 10 minutes), and given up
//! after [`MAX_ATTEMPTS`] with an error log line (the row stays, marked failed).
//!
//! Exactly once, across retries and crashes:
//! - a delivered entry records the ids Discord gave and is never posted again;
//! - every message is created with the entry's `nonce` and `enforce_nonce: true`. Discord's
//!   Create Message: "enforce_nonce: If true and nonce is present, it will be checked for
//!   uniqueness in the past few minutes. If another message was created by the same author
//!   with the same nonce, that message will be returned and no new message will be
//!   created" (<https://discord.com/developers/docs/resources/message#create-message>).
//!   So an attempt whose answer was lost (a 5xx after the message was made, a crash before
//!   the delivery was recorded) is repeated with the same nonce and gets the first message
//!   back instead of posting a second one;
//! - the game's thread is recorded on the game (`games.thread_id`) as soon as Discord
//!   returns it, and an entry for a game whose thread is recorded creates none.
//!
//! Boards are painted at delivery time, off the async runtime, from the stored game at the
//! ply the entry shows, so the payload stays small.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use kaboom_rules::{Variant, Viewer};
use poise::serenity_prelude as serenity;
use serde::{Deserialize, Serialize};
use tokio::sync::{Notify, watch};

use crate::discord::Error;
use crate::discord::board;
use crate::discord::ids::Domain;
use crate::discord::messages;
use crate::domain::ids::{ChannelId, GameId, MessageId, UserId};
use crate::service::outbox::{Committed, EffectPlanner, unix_now};
use crate::service::{DrawResult, ServiceError, Services};
use crate::storage::games::GameState;
use crate::storage::outbox::{self, Entry, NewEffect};

/// Attempts before an entry is given up.
pub const MAX_ATTEMPTS: i64 = 12;
/// The longest wait between two attempts (seconds).
pub const MAX_BACKOFF_SECS: i64 = 600;
/// How often the deliverer looks for entries without being woken.
pub const PERIOD: Duration = Duration::from_secs(30);
/// How long a command waits for its own entries before answering "saved, will follow".
pub const SETTLE: Duration = Duration::from_millis(2500);

/// What an outbox entry posts (its `payload`; `kind` is the tag).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Effect {
    /// The game's public thread, in the challenge's channel.
    Thread {
        /// The challenge's channel.
        channel_id: ChannelId,
        /// The thread's name.
        name: String,
    },
    /// A public board (spectator view from the side to move at `ply`) with its caption and
    /// buttons, in the game's thread; the previous board loses its buttons.
    Board {
        /// The ply the board shows.
        ply: i64,
        /// The caption, already worded.
        caption: String,
        /// Whether the game is over (the buttons of a finished game).
        finished: bool,
    },
    /// The carrier menu for `user` by DM, or the "Choose privately" button in the thread
    /// when the DM cannot be delivered.
    CarrierMenu {
        /// The player.
        user: UserId,
    },
    /// A text in the game's thread.
    Announcement {
        /// The text, already worded.
        text: String,
        /// The users it may ping (issue 16: no one else, whatever the text holds).
        pings: Vec<UserId>,
        /// Whether it carries the draw offer's buttons.
        draw_buttons: bool,
    },
}

impl Effect {
    /// The `kind` column's value.
    pub fn kind(&self) -> &'static str {
        match self {
            Effect::Thread { .. } => "thread",
            Effect::Board { .. } => "board",
            Effect::CarrierMenu { .. } => "carrier-menu",
            Effect::Announcement { .. } => "announcement",
        }
    }

    fn new_effect(&self, game_id: GameId) -> NewEffect {
        NewEffect {
            game_id: Some(game_id),
            kind: self.kind().to_string(),
            payload: serde_json::to_string(self).expect("an effect always serializes"),
        }
    }
}

/// The wording of every change's Discord side effects (the texts players read today).
#[derive(Clone, Debug)]
pub struct DiscordEffects {
    /// The carrier designation timeout the opening board quotes (seconds).
    pub designation_timeout_secs: i64,
}

impl DiscordEffects {
    /// The planner for `services` (quoting their scheduler configuration).
    pub fn for_services(services: &Services) -> Arc<DiscordEffects> {
        Arc::new(DiscordEffects {
            designation_timeout_secs: services.scheduler.designation_timeout_secs,
        })
    }

    fn effects(&self, change: Committed<'_>) -> (GameId, Vec<Effect>) {
        match change {
            Committed::Accepted(snap) => {
                let row = &snap.row;
                let mut caption = messages::board_caption(snap, None, &[], &[]);
                if row.state == GameState::Setup {
                    caption.push('\n');
                    caption.push_str(&messages::designation_abort_note(
                        row.created_at,
                        self.designation_timeout_secs,
                    ));
                }
                let mut v = vec![
                    Effect::Thread {
                        channel_id: row.channel_id,
                        name: messages::thread_name(row),
                    },
                    Effect::Board {
                        ply: row.ply,
                        caption,
                        finished: snap.outcome().is_some(),
                    },
                ];
                if row.variant.has_designation() {
                    for color in snap.game.awaiting_designation() {
                        v.push(Effect::CarrierMenu {
                            user: row.player(color),
                        });
                    }
                }
                (row.id, v)
            }
            Committed::Played(played) => {
                let mut notes = Vec::new();
                if played.declined_draw {
                    notes.push("(The draw offer lapsed with this move.)".to_string());
                }
                let caption = messages::board_caption(
                    &played.snap,
                    Some(&played.ply),
                    &played.reveal,
                    &notes,
                );
                let snap = &played.snap;
                (
                    snap.row.id,
                    vec![Effect::Board {
                        ply: snap.row.ply,
                        caption,
                        finished: snap.outcome().is_some(),
                    }],
                )
            }
            Committed::Designated(d) => {
                let row = &d.snap.row;
                if !d.started {
                    let text = format!(
                        "{} ({}) has chosen.",
                        row.name(d.color),
                        messages::side(d.color)
                    );
                    return (row.id, vec![announcement(text, Vec::new(), false)]);
                }
                let mut lines = vec!["Both players have chosen: play starts.".to_string()];
                lines.extend(d.all.iter().map(|x| match row.variant {
                    Variant::Beirut => format!(
                        "{}'s commitment: `{}`",
                        messages::side(x.color),
                        x.commitment
                    ),
                    _ => format!("{}'s carrier: **{}**", messages::side(x.color), x.squares),
                }));
                let caption = messages::board_caption(&d.snap, None, &[], &lines);
                (
                    row.id,
                    vec![Effect::Board {
                        ply: row.ply,
                        caption,
                        finished: d.snap.outcome().is_some(),
                    }],
                )
            }
            Committed::Ended(ended) => {
                let caption = messages::board_caption(&ended.snap, None, &ended.reveal, &[]);
                (
                    ended.snap.row.id,
                    vec![Effect::Board {
                        ply: ended.snap.row.ply,
                        caption,
                        finished: true,
                    }],
                )
            }
            Committed::Draw(DrawResult::Offered { snap, by }) => {
                let to = snap.row.player(by.other());
                let text = format!(
                    "{} {} ({}) offers a draw. It stands until you accept or decline it, or make a move.",
                    messages::mention(to),
                    snap.row.name(*by),
                    messages::side(*by)
                );
                (snap.row.id, vec![announcement(text, vec![to], true)])
            }
            Committed::Draw(DrawResult::Declined { snap, by }) => {
                let text = format!(
                    "{} ({}) declined the draw offer.",
                    snap.row.name(by.other()),
                    messages::side(by.other())
                );
                (snap.row.id, vec![announcement(text, Vec::new(), false)])
            }
            Committed::Draw(DrawResult::Agreed(ended)) => self.effects(Committed::Ended(ended)),
        }
    }
}

fn announcement(text: String, pings: Vec<UserId>, draw_buttons: bool) -> Effect {
    Effect::Announcement {
        text,
        pings,
        draw_buttons,
    }
}

impl EffectPlanner for DiscordEffects {
    fn plan(&self, change: Committed<'_>) -> Vec<NewEffect> {
        let (game_id, effects) = self.effects(change);
        effects.iter().map(|e| e.new_effect(game_id)).collect()
    }
}

/// The seconds to wait after the `attempts`-th failed attempt: 1, 2, 4, ... at most
/// [`MAX_BACKOFF_SECS`].
pub fn backoff_secs(attempts: i64) -> i64 {
    let exp = u32::try_from((attempts - 1).clamp(0, 20)).unwrap_or(20);
    (1i64 << exp).min(MAX_BACKOFF_SECS)
}

/// The ids Discord gave for a delivered entry.
#[derive(Clone, Copy, Debug, Default)]
struct Posted {
    message_id: Option<MessageId>,
    thread_id: Option<ChannelId>,
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

/// The outbox deliverer: one task per bot, posting entries in order.
pub struct Deliverer {
    services: Services,
    http: Arc<serenity::Http>,
    kick: Arc<Notify>,
    done: watch::Sender<u64>,
}

/// A handle on the running deliverer: wake it, wait for a game's entries.
#[derive(Clone)]
pub struct OutboxHandle {
    services: Services,
    kick: Arc<Notify>,
    done: watch::Receiver<u64>,
}

/// How a command's entries stand after [`OutboxHandle::settle`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Settled {
    /// All delivered: the last board's (channel, message) and the thread, if any.
    Delivered {
        /// The last board posted: its channel and message.
        board: Option<(ChannelId, MessageId)>,
        /// The game's thread.
        thread: Option<ChannelId>,
    },
    /// Saved, but not (yet) posted: it follows.
    Pending,
}

impl Deliverer {
    /// Starts the deliverer over `services`, posting with `http`; it first delivers what is
    /// left from before (a crash, failures).
    pub fn spawn(services: Services, http: Arc<serenity::Http>) -> OutboxHandle {
        let kick = Arc::new(Notify::new());
        let (done, rx) = watch::channel(0);
        let deliverer = Deliverer {
            services: services.clone(),
            http,
            kick: kick.clone(),
            done,
        };
        tokio::spawn(deliverer.run());
        OutboxHandle {
            services,
            kick,
            done: rx,
        }
    }

    async fn run(self) {
        // Ends when the bot that holds the handle is gone (every receiver dropped).
        while !self.done.is_closed() {
            let next = match self.sweep().await {
                Ok(next) => next,
                Err(e) => {
                    tracing::warn!(error = %e, "outbox sweep failed");
                    None
                }
            };
            let wait = next.map_or(PERIOD, |at| {
                Duration::from_secs(u64::try_from(at - unix_now()).unwrap_or(0)).min(PERIOD)
            });
            tokio::select! {
                () = self.kick.notified() => {}
                () = tokio::time::sleep(wait.max(Duration::from_millis(200))) => {}
            }
        }
    }

    /// Delivers every due entry in order; returns when the earliest held-back entry is due.
    async fn sweep(&self) -> Result<Option<i64>, Error> {
        let db = &self.services.db;
        let mut blocked: HashSet<GameId> = HashSet::new();
        let mut next: Option<i64> = None;
        for entry in outbox::pending(db).await? {
            if entry.game_id.is_some_and(|g| blocked.contains(&g)) {
                continue;
            }
            let now = unix_now();
            if entry.next_attempt_at > now {
                next = Some(next.map_or(entry.next_attempt_at, |n| n.min(entry.next_attempt_at)));
                blocked.extend(entry.game_id);
                continue;
            }
            match self.deliver(&entry).await {
                Ok(posted) => {
                    outbox::mark_delivered(db, entry.id, posted.message_id, posted.thread_id, now)
                        .await?;
                    tracing::debug!(entry = entry.id, game_id = ?entry.game_id, kind = %entry.kind, "outbox entry delivered");
                }
                Err(e) => {
                    let attempts = entry.attempts + 1;
                    let give_up = attempts >= MAX_ATTEMPTS;
                    let at = now + backoff_secs(attempts);
                    outbox::mark_failed(db, entry.id, &e.to_string(), at, give_up, now).await?;
                    if give_up {
                        tracing::error!(entry = entry.id, game_id = ?entry.game_id, kind = %entry.kind, attempts, error = %e, "outbox entry given up");
                    } else {
                        tracing::warn!(entry = entry.id, game_id = ?entry.game_id, kind = %entry.kind, attempts, error = %e, "outbox entry failed; will retry");
                        next = Some(next.map_or(at, |n| n.min(at)));
                        blocked.extend(entry.game_id);
                    }
                }
            }
            self.done.send_modify(|v| *v += 1);
        }
        Ok(next)
    }

    async fn deliver(&self, entry: &Entry) -> Result<Posted, Error> {
        let effect: Effect = serde_json::from_str(&entry.payload)?;
        let game_id = entry
            .game_id
            .ok_or("an outbox entry without a game has no delivery yet")?;
        let services = &self.services;
        let http = &*self.http;
        match effect {
            Effect::Thread { channel_id, name } => {
                let row = services.load(game_id).await?.row;
                if let Some(thread) = row.thread_id {
                    return Ok(Posted {
                        thread_id: Some(thread),
                        ..Posted::default()
                    });
                }
                let thread = serenity::ChannelId::from(channel_id)
                    .create_thread(
                        http,
                        serenity::CreateThread::new(name)
                            .kind(serenity::ChannelType::PublicThread)
                            .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek),
                    )
                    .await?;
                services.set_thread(game_id, thread.id.domain()).await?;
                Ok(Posted {
                    thread_id: Some(thread.id.domain()),
                    ..Posted::default()
                })
            }
            Effect::Board {
                ply,
                caption,
                finished,
            } => {
                let snap = services.load_at(game_id, ply).await?;
                let image =
                    board::paint(services, &snap, Viewer::Spectator, snap.game.turn()).await?;
                let channel = board::game_channel(&snap);
                let msg = channel
                    .send_message(
                        http,
                        serenity::CreateMessage::new()
                            .content(caption)
                            .add_file(image)
                            .components(messages::board_buttons(game_id, finished))
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
                            serenity::MessageId::from(previous),
                            serenity::EditMessage::new().components(vec![]),
                        )
                        .await;
                    if let Err(e) = cleared {
                        tracing::debug!(game_id = %game_id, error = %e, "could not clear old buttons");
                    }
                }
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
                    let channel = serenity::UserId::from(user).create_dm_channel(http).await?;
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
                match dm.await {
                    Ok(msg) => Ok(Posted {
                        message_id: Some(msg.id.domain()),
                        ..Posted::default()
                    }),
                    Err(e) if client_error(&e) => {
                        tracing::info!(game_id = %game_id, user = %user, error = %e, "carrier DM not delivered; offering the in-thread menu");
                        let msg = board::game_channel(&snap)
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
                        Ok(Posted {
                            message_id: Some(msg.id.domain()),
                            ..Posted::default()
                        })
                    }
                    Err(e) => Err(e.into()),
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
                let msg = board::game_channel(&snap)
                    .send_message(
                        http,
                        message
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
    }
}

impl OutboxHandle {
    /// Wakes the deliverer (after a commit).
    pub fn kick(&self) {
        self.kick.notify_one();
    }

    /// Wakes the deliverer and waits (at most [`SETTLE`]) until every entry game `game_id`
    /// has so far is delivered. [`Settled::Pending`] as soon as one of them failed, or at the
    /// time limit: the change is saved and its posts follow.
    ///
    /// # Errors
    /// A storage error.
    pub async fn settle(&self, game_id: GameId) -> Result<Settled, Error> {
        let db = &self.services.db;
        let upto = outbox::for_game(db, game_id)
            .await?
            .last()
            .map_or(0, |e| e.id);
        let mut done = self.done.clone();
        done.mark_unchanged();
        self.kick();
        let deadline = tokio::time::Instant::now() + SETTLE;
        loop {
            let entries: Vec<Entry> = outbox::for_game(db, game_id)
                .await?
                .into_iter()
                .filter(|e| e.id <= upto)
                .collect();
            if entries.iter().all(|e| e.delivered_at.is_some()) {
                let row = self.services.load(game_id).await?.row;
                let channel = row.thread_id.unwrap_or(row.channel_id);
                let board = entries
                    .iter()
                    .rev()
                    .find(|e| e.kind == "board")
                    .and_then(|e| e.message_id)
                    .map(|m| (channel, m));
                return Ok(Settled::Delivered {
                    board,
                    thread: row.thread_id,
                });
            }
            if entries
                .iter()
                .any(|e| e.delivered_at.is_none() && (e.attempts > 0 || e.failed_at.is_some()))
            {
                return Ok(Settled::Pending);
            }
            match tokio::time::timeout_at(deadline, done.changed()).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) | Err(_) => return Ok(Settled::Pending),
            }
        }
    }
}
