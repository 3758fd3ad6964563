//! The Discord outbox: every Discord side effect of a committed change is
//! worded here ([`DiscordEffects`], the services' [`EffectPlanner`]; the scheduler's
//! notices through `discord::notifier`, its [`kaboom_service::scheduler::NoticePlanner`]) inside the
//! change's transaction, stored in `discord_outbox`, and posted by the deliverer
//! ([`Deliverer`]) after the commit, at start-up (what a crash left) and periodically.
//! What goes through it: the game's thread, the challenge message's edits (accepted,
//! declined, cancelled, expired), boards, carrier menus, announcements in the thread (draw
//! offers, designations, the scheduler's time forfeits and aborts), and nudges.
//!
//! Delivery order: a game's entries go out in the order they were written (the thread
//! before its first board, a board before the next one), and so do a challenge's; an entry
//! that fails holds back the later entries of its game (or challenge) until it is delivered
//! or given up. Different games (and challenges) are delivered side by side, at most
//! [`DELIVERY_CONCURRENCY`] at once, each in its own order. Failed attempts are retried with exponential backoff (1 s, 2 s, 4 s, ...
//! capped at 10 minutes), and given up after [`MAX_ATTEMPTS`] with an error log line (the
//! row stays, marked failed).
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
//! - the game's thread is started from the challenge's own message (Start Thread from
//!   Message). A message holds at most one thread, and "the created thread and the message
//!   it was started from will share the same id"
//!   (<https://discord.com/developers/docs/topics/threads#public-private-threads>): a retry
//!   after a lost answer or a crash before the thread was recorded gets error 160004 "A
//!   thread has already been created for this message"
//!   (<https://discord.com/developers/docs/topics/opcodes-and-status-codes#json>) and takes
//!   that thread, whose id is the message's. Only a challenge whose message is unknown or
//!   was deleted gets a thread without a message (Start Thread without Message), which a
//!   retry could repeat. The thread is recorded on the game (`games.thread_id`) as soon as
//!   it is known, and an entry for a game whose thread is recorded creates none;
//! - edits (a challenge message, an old board's buttons) set the whole new state, so
//!   repeating one changes nothing.
//!
//! Threads stay usable for the game's whole life: they are created with the longest
//! auto-archive duration (7 days), and before each post into a game's thread and with each
//! nudge the deliverer unarchives the thread if Discord archived it after 7 idle days
//! (`Deliverer::ensure_open`). Players cannot use application commands in an archived
//! thread ("Users cannot edit messages, add reactions, use application commands, or join
//! archived threads", <https://discord.com/developers/docs/topics/threads#active-archived-threads>),
//! so the nudge, which comes within the time per move, reopens it, and says that
//! `/move game:<id>` works from any channel.
//!
//! Boards are painted at delivery time, off the async runtime, from the stored game at the
//! ply the entry shows, so the payload stays small.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use kaboom_rules::Viewer;
use poise::serenity_prelude as serenity;
use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use crate::Error;
use crate::board;
use crate::ids::{Domain, Serenity};
use crate::messages;
use kaboom_domain::ids::{ChannelId, GameId, MessageId, UserId};
use kaboom_service::outbox::{Committed, EffectPlanner, OutboxWaker, unix_now};
use kaboom_service::{DrawResult, ServiceError, Services};
use kaboom_store::challenges::ChallengeState;
use kaboom_store::games::GameState;
use kaboom_store::outbox::{self, Entry, NewEffect};

/// Attempts before an entry is given up.
pub const MAX_ATTEMPTS: i64 = 12;
/// The longest wait between two attempts (seconds).
pub const MAX_BACKOFF_SECS: i64 = 600;
/// How often the deliverer looks for entries without being woken.
pub const PERIOD: Duration = Duration::from_secs(30);
/// How long a command waits for its own entries before answering "saved, will follow".
pub const SETTLE: Duration = Duration::from_millis(2500);
/// On PostgreSQL, how often a waiting command looks at its entries again when this process
/// could not listen for other processes' deliveries (`kaboom_store::outbox::OutboxListener`;
/// another process may hold the queue's claim and post them). While it listens, a waiting
/// command wakes on every delivery instead, and never polls.
pub const SETTLE_POLL: Duration = Duration::from_millis(40);
/// On PostgreSQL, how often the deliverer looks for entries without being woken: entries
/// another process wrote and could not post (it died) are taken over within this and
/// [`outbox::CLAIM_LEASE_SECS`].
pub const SHARED_PERIOD: Duration = Duration::from_secs(outbox::CLAIM_LEASE_SECS as u64);

/// What an outbox entry posts (its `payload`; `kind` is the tag).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Effect {
    /// The game's public thread, in the challenge's channel, started from the challenge's
    /// message when it is known.
    Thread {
        /// The challenge's channel.
        channel_id: ChannelId,
        /// The thread's name.
        name: String,
        /// The challenge's message, which the thread is started from (entries written
        /// before it was recorded have none).
        #[serde(default)]
        message_id: Option<MessageId>,
    },
    /// The accepted challenge's message says who accepted it and links the game's thread,
    /// and loses its buttons (the entry's `challenge_id` names the challenge).
    ChallengeAccepted {
        /// Who accepted it.
        by: UserId,
    },
    /// A challenge that was declined, cancelled or expired: its message gets `content` (or,
    /// without one, its own text with `line` as the expiry note) and loses its buttons; if
    /// there is no message (unknown, or deleted), `line` is posted in the channel.
    ChallengeClosed {
        /// The challenge's channel.
        channel_id: ChannelId,
        /// The challenge's message, if known.
        message_id: Option<MessageId>,
        /// The message's new text; `None`: its text, marked expired with `line`.
        content: Option<String>,
        /// The line saying what happened.
        line: String,
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
        /// The users it may ping (no one else, whatever the text holds).
        pings: Vec<UserId>,
        /// Whether it carries the draw offer's buttons.
        draw_buttons: bool,
    },
    /// A game the scheduler ended (time forfeit, designation timeout), announced in its
    /// thread; it may ping the players mentioned at the end of its first line; the game's
    /// latest board then gets the finished game's buttons.
    GameEnded {
        /// The text, already worded.
        text: String,
    },
    /// A reminder to move for `user`, dropped if the game has left `ply` by delivery time.
    Nudge {
        /// The player to move.
        user: UserId,
        /// By DM (falling back to a mention in the thread) rather than in the thread.
        dm: bool,
        /// The ply the reminder is about.
        ply: i64,
        /// The text, already worded (without a mention).
        text: String,
    },
    /// A private message to `user` by DM (their dropped conditional lines). A DM
    /// that Discord refuses is given up, never posted in the thread instead: its text is
    /// private.
    Private {
        /// The player.
        user: UserId,
        /// The text, already worded.
        text: String,
    },
    /// A text in the game's thread with buttons (a takeback proposal).
    Prompt {
        /// The text, already worded.
        text: String,
        /// The users it may ping.
        pings: Vec<UserId>,
        /// The buttons: (custom id, label, style `primary|secondary|success|danger`).
        buttons: Vec<(String, String, String)>,
    },
    /// The game's standing prompts lose their buttons (a takeback proposal declined). A
    /// board or a game's end does the same on its own: a prompt's buttons never outlive the
    /// answer or the move that settles it.
    ClosePrompts,
    /// A challenge posted in `channel_id` with its Accept/Decline/Cancel buttons (a
    /// rematch); its message is recorded on the challenge (the entry's `challenge_id`),
    /// so that the game's thread can start from it.
    ChallengePost {
        /// The channel.
        channel_id: ChannelId,
        /// The text, already worded.
        text: String,
        /// The users it may ping (the challenged player).
        pings: Vec<UserId>,
    },
    /// The replay GIF of a finished game in its thread, after the result's
    /// board: the whole game up to `ply` with every secret shown (the game is over), White
    /// at the bottom. Encoded at delivery time, off the async runtime; a game without plies
    /// gets none.
    ReplayGif {
        /// The ply the game ended at; -1: the stored game as it is (the scheduler's
        /// endings, whose notices do not carry the ply).
        ply: i64,
    },
}

impl Effect {
    /// The `kind` column's value.
    pub fn kind(&self) -> &'static str {
        match self {
            Effect::Thread { .. } => "thread",
            Effect::ChallengeAccepted { .. } => "challenge-accepted",
            Effect::ChallengeClosed { .. } => "challenge-closed",
            Effect::Board { .. } => "board",
            Effect::CarrierMenu { .. } => "carrier-menu",
            Effect::Announcement { .. } => "announcement",
            Effect::GameEnded { .. } => "game-ended",
            Effect::Nudge { .. } => "nudge",
            Effect::Private { .. } => "private",
            Effect::Prompt { .. } => "prompt",
            Effect::ClosePrompts => "close-prompts",
            Effect::ChallengePost { .. } => "challenge-post",
            Effect::ReplayGif { .. } => "replay-gif",
        }
    }

    fn entry(&self, game_id: Option<GameId>, challenge_id: Option<i64>) -> NewEffect {
        NewEffect {
            game_id,
            challenge_id,
            kind: self.kind().to_string(),
            // Plain strings, numbers and booleans: serializing cannot fail.
            payload: serde_json::to_string(self).unwrap_or_default(),
        }
    }

    /// The outbox entry of this effect of game `game_id`.
    pub fn for_game(&self, game_id: GameId) -> NewEffect {
        self.entry(Some(game_id), None)
    }

    /// The outbox entry of this effect of challenge `challenge_id` (no game).
    pub fn for_challenge(&self, challenge_id: i64) -> NewEffect {
        self.entry(None, Some(challenge_id))
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
            designation_timeout_secs: services.scheduler_config().designation_timeout_secs,
        })
    }

    fn effects(&self, change: Committed<'_>) -> Vec<NewEffect> {
        let (game_id, effects) = match change {
            Committed::Accepted {
                game,
                challenge,
                by,
            } => return self.accepted(game, challenge, by),
            Committed::ChallengeClosed { challenge, by } => {
                let cancel = challenge.state == ChallengeState::Cancelled;
                let effect = Effect::ChallengeClosed {
                    channel_id: challenge.spec.channel_id,
                    message_id: challenge.message_id,
                    content: Some(messages::challenge_closed(challenge, cancel, by)),
                    line: messages::challenge_closed_line(challenge.id, cancel, by),
                };
                return vec![effect.for_challenge(challenge.id)];
            }
            Committed::Comfort(change) => return comfort_effects(change),
            other => match self.game_effects(other) {
                Some(effects) => effects,
                None => return Vec::new(),
            },
        };
        effects.iter().map(|e| e.for_game(game_id)).collect()
    }

    /// An accepted challenge: the thread (from the challenge's message), the challenge
    /// message's edit, the first board, the carrier menus.
    fn accepted(
        &self,
        snap: &kaboom_service::Snapshot,
        challenge: &kaboom_store::challenges::Challenge,
        by: UserId,
    ) -> Vec<NewEffect> {
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
                message_id: challenge.message_id,
            }
            .for_game(row.id),
            Effect::ChallengeAccepted { by }.entry(Some(row.id), Some(challenge.id)),
            Effect::Board {
                ply: row.ply,
                caption,
                finished: snap.outcome().is_some(),
            }
            .for_game(row.id),
        ];
        if row.variant.has_designation() {
            for color in snap.game.awaiting_designation() {
                let menu = Effect::CarrierMenu {
                    user: row.player(color),
                };
                v.push(menu.for_game(row.id));
            }
        }
        v
    }

    /// The effects of a change to a game in play (`None` for the changes of challenges).
    fn game_effects(&self, change: Committed<'_>) -> Option<(GameId, Vec<Effect>)> {
        Some(match change {
            Committed::Accepted { .. }
            | Committed::ChallengeClosed { .. }
            | Committed::Comfort(_) => return None,
            Committed::Played(played) => {
                let mut notes = Vec::new();
                if played.declined_draw {
                    notes.push("(The draw offer lapsed with this move.)".to_string());
                }
                if played.by_conditional {
                    notes.push(messages::comforts::PLAYED_BY_CONDITIONAL.to_string());
                }
                let mut caption = messages::board_caption(
                    &played.snap,
                    Some(&played.ply),
                    &played.reveal,
                    &notes,
                );
                let snap = &played.snap;
                if let Some(outcome) = snap.outcome() {
                    with_result_lines(&mut caption, &snap.row, &outcome, played.rating.as_ref());
                }
                let mut effects = vec![Effect::Board {
                    ply: snap.row.ply,
                    caption,
                    finished: snap.outcome().is_some(),
                }];
                if snap.outcome().is_some() {
                    effects.push(Effect::ReplayGif { ply: snap.row.ply });
                }
                (snap.row.id, effects)
            }
            Committed::Designated(d) => {
                let row = &d.snap.row;
                if !d.started {
                    let text = format!(
                        "{} ({}) has chosen.",
                        row.name(d.color),
                        messages::side(d.color)
                    );
                    return Some((row.id, vec![announcement(text, Vec::new(), false)]));
                }
                let mut lines = vec!["Both players have chosen: play starts.".to_string()];
                // Beirut commitments are behind "Verify fairness".
                lines.extend(messages::fairness::start_lines(&d.snap.game, &d.all));
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
                let mut caption = messages::board_caption(&ended.snap, None, &ended.reveal, &[]);
                with_result_lines(
                    &mut caption,
                    &ended.snap.row,
                    &ended.outcome,
                    ended.rating.as_deref(),
                );
                (
                    ended.snap.row.id,
                    vec![
                        Effect::Board {
                            ply: ended.snap.row.ply,
                            caption,
                            finished: true,
                        },
                        Effect::ReplayGif {
                            ply: ended.snap.row.ply,
                        },
                    ],
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
            Committed::Draw(DrawResult::Agreed(ended)) => {
                return self.game_effects(Committed::Ended(ended));
            }
        })
    }
}

/// Adds the rating lines of a finished game under its result.
fn with_result_lines(
    caption: &mut String,
    row: &kaboom_store::games::GameRow,
    outcome: &kaboom_rules::Outcome,
    rating: Option<&kaboom_store::ratings::GameChange>,
) {
    for line in messages::ratings::result_lines(row, outcome, rating) {
        caption.push('\n');
        caption.push_str(&line);
    }
}

/// The effects of a change of the comforts.
fn comfort_effects(change: &kaboom_service::comforts::ComfortChange) -> Vec<NewEffect> {
    use kaboom_service::comforts::ComfortChange;
    use messages::comforts as words;
    match change {
        ComfortChange::LinesDropped { game, notices } => notices
            .iter()
            .map(|(user, lines)| {
                Effect::Private {
                    user: *user,
                    text: words::lines_dropped(*game, lines),
                }
                .for_game(*game)
            })
            .collect(),
        ComfortChange::VacationStarted { vacation, games } => games
            .iter()
            .map(|g| {
                announcement(words::vacation_started(g, vacation), Vec::new(), false).for_game(g.id)
            })
            .collect(),
        ComfortChange::VacationEnded { vacation, games } => games
            .iter()
            .map(|g| {
                announcement(words::vacation_ended(g, vacation), Vec::new(), false).for_game(g.id)
            })
            .collect(),
        ComfortChange::TakebackProposed { snap, by, plies } => {
            let row = &snap.row;
            vec![
                Effect::Prompt {
                    text: words::takeback_proposed(row, *by, plies),
                    pings: vec![row.player(by.other())],
                    buttons: words::takeback_buttons(row.id),
                }
                .for_game(row.id),
            ]
        }
        ComfortChange::TakebackDeclined { snap, by } => vec![
            announcement(words::takeback_declined(&snap.row, *by), Vec::new(), false)
                .for_game(snap.row.id),
            Effect::ClosePrompts.for_game(snap.row.id),
        ],
        ComfortChange::TakenBack { snap, by, plies } => {
            let note = words::taken_back(&snap.row, *by, plies);
            let caption = messages::board_caption(snap, snap.game.plies().last(), &[], &[note]);
            vec![
                Effect::Board {
                    ply: snap.row.ply,
                    caption,
                    finished: false,
                }
                .for_game(snap.row.id),
            ]
        }
        ComfortChange::Rematch { challenge, from } => vec![
            Effect::ChallengePost {
                channel_id: challenge.spec.channel_id,
                text: words::rematch_text(challenge, *from),
                pings: challenge.spec.opponent_id.into_iter().collect(),
            }
            .for_challenge(challenge.id),
        ],
    }
}

fn announcement(text: String, pings: Vec<UserId>, draw_buttons: bool) -> Effect {
    Effect::Announcement {
        text,
        pings,
        draw_buttons,
    }
}

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

impl EffectPlanner for DiscordEffects {
    fn plan(&self, change: Committed<'_>) -> Vec<NewEffect> {
        self.effects(change)
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

/// Which entries keep their order among themselves: a game's, else a challenge's, else the
/// entry alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Queue {
    Game(GameId),
    Challenge(i64),
    Entry(i64),
}

impl Queue {
    /// The queue's name in `outbox_claims`.
    fn claim_key(self) -> String {
        match self {
            Queue::Game(id) => format!("game:{id}"),
            Queue::Challenge(id) => format!("challenge:{id}"),
            Queue::Entry(id) => format!("entry:{id}"),
        }
    }
}

fn queue(entry: &Entry) -> Queue {
    entry
        .game_id
        .map(Queue::Game)
        .or(entry.challenge_id.map(Queue::Challenge))
        .unwrap_or(Queue::Entry(entry.id))
}

/// How many queues (games, challenges) are delivered at once. Each queue stays in order;
/// different games' boards go out side by side, so one slow post (a large image, a slow
/// answer from Discord) does not hold back every other game. Discord counts message
/// creation per channel (each game has its own thread) and globally (50 requests per
/// second for a bot, <https://discord.com/developers/docs/topics/rate-limits#global-rate-limit>),
/// which a handful of concurrent posts stays well inside.
pub const DELIVERY_CONCURRENCY: usize = 8;

/// The outbox deliverer: one dispatching task per bot, which hands each queue with a due
/// entry to a delivery task (at most [`DELIVERY_CONCURRENCY`] at once) that posts the
/// queue's entries in order.
pub struct Deliverer {
    services: Services,
    http: Arc<serenity::Http>,
    kick: OutboxWaker,
    done: watch::Sender<u64>,
    /// The queues a delivery task is posting now: the dispatcher leaves them alone.
    in_flight: std::sync::Mutex<HashSet<Queue>>,
    /// The delivery tasks' slots.
    slots: Arc<tokio::sync::Semaphore>,
    /// This process's name in `outbox_claims`: host, process id and 8 random
    /// hex digits, so that a restarted process with a reused pid is another owner.
    owner: String,
    /// Whether this process hears other processes' deliveries (PostgreSQL's `LISTEN`).
    listening: Arc<AtomicBool>,
}

/// A name for this process among those sharing the database ([`Deliverer`]'s `owner`).
fn process_name() -> String {
    let host = std::env::var("HOSTNAME").unwrap_or_else(|_| "host".to_string());
    let mut b = [0u8; 4];
    let _ = getrandom::fill(&mut b);
    format!(
        "{host}:{}:{:08x}",
        std::process::id(),
        u32::from_be_bytes(b)
    )
}

/// A handle on the running deliverer: wake it, wait for a game's or a challenge's entries.
#[derive(Clone)]
pub struct OutboxHandle {
    services: Services,
    kick: OutboxWaker,
    done: watch::Receiver<u64>,
    /// Whether the deliverer hears other processes' deliveries ([`SETTLE_POLL`]).
    listening: Arc<AtomicBool>,
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
    /// Starts the deliverer over `services`, posting with `http` and woken by the services'
    /// [`Services::outbox_waker`] (the scheduler's planner shares it); it first delivers
    /// what is left from before (a crash, failures).
    pub fn spawn(services: Services, http: Arc<serenity::Http>) -> OutboxHandle {
        let kick = services.outbox_waker().clone();
        let (done, rx) = watch::channel(0);
        let deliverer = Deliverer {
            services: services.clone(),
            http,
            kick: kick.clone(),
            done,
            in_flight: std::sync::Mutex::new(HashSet::new()),
            slots: Arc::new(tokio::sync::Semaphore::new(DELIVERY_CONCURRENCY)),
            owner: process_name(),
            listening: Arc::new(AtomicBool::new(false)),
        };
        let listening = deliverer.listening.clone();
        let deliverer = Arc::new(deliverer);
        if services.db().engine() == kaboom_store::Engine::Postgres {
            tokio::spawn(deliverer.clone().listen());
            tokio::spawn(deliverer.clone().renew_claims());
        }
        tokio::spawn(deliverer.run());
        OutboxHandle {
            services,
            kick,
            done: rx,
            listening,
        }
    }

    /// Wakes this process's waiting commands whenever any process delivers an entry or
    /// records a failed attempt (PostgreSQL's `LISTEN`), and the dispatcher after a lost
    /// connection. Ends with the deliverer.
    async fn listen(self: Arc<Self>) {
        let mut listener = match outbox::OutboxListener::start(self.services.db()).await {
            Ok(Some(listener)) => listener,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(error = %e, "outbox listener not started: waiting commands poll");
                return;
            }
        };
        loop {
            self.listening.store(true, Ordering::Relaxed);
            tokio::select! {
                heard = listener.recv() => match heard {
                    Ok(outbox::Heard::Attempted) => self.done.send_modify(|v| *v += 1),
                    Ok(outbox::Heard::Reconnected) => {
                        self.done.send_modify(|v| *v += 1);
                        self.kick.wake();
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "outbox listener lost its connection");
                        self.listening.store(false, Ordering::Relaxed);
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                },
                () = self.done.closed() => return,
            }
        }
    }

    /// Renews every outbox claim this process holds every [`outbox::CLAIM_RENEW_SECS`]
    /// (PostgreSQL), so they lapse only when it dies: then another process, or this one
    /// restarted under a new name, takes its queues over within [`outbox::CLAIM_LEASE_SECS`].
    /// Ends with the deliverer.
    async fn renew_claims(self: Arc<Self>) {
        let mut tick = tokio::time::interval(Duration::from_secs(outbox::CLAIM_RENEW_SECS));
        loop {
            tokio::select! {
                _ = tick.tick() => {
                    if let Err(e) = outbox::renew_claims(self.services.db(), &self.owner, unix_now()).await {
                        tracing::warn!(error = %e, "outbox claims not renewed");
                    }
                }
                () = self.done.closed() => return,
            }
        }
    }

    async fn run(self: Arc<Self>) {
        let period = match self.services.db().engine() {
            kaboom_store::Engine::Sqlite => PERIOD,
            kaboom_store::Engine::Postgres => SHARED_PERIOD,
        };
        // Ends when the bot that holds the handle is gone (every receiver dropped).
        while !self.done.is_closed() {
            let next = match self.clone().dispatch().await {
                Ok(next) => next,
                Err(e) => {
                    tracing::warn!(error = %e, "outbox sweep failed");
                    None
                }
            };
            let wait = next.map_or(period, |at| {
                Duration::from_secs(u64::try_from(at - unix_now()).unwrap_or(0)).min(period)
            });
            tokio::select! {
                () = self.kick.notified() => {}
                () = tokio::time::sleep(wait.max(Duration::from_millis(200))) => {}
            }
        }
    }

    /// Hands every queue whose first pending entry is due, and which no delivery task is
    /// posting already, to a delivery task; returns when the earliest held-back entry is
    /// due. A delivery task wakes the dispatcher when it ends, so entries written while it
    /// posted are picked up at once.
    async fn dispatch(self: Arc<Self>) -> Result<Option<i64>, Error> {
        let mut queues: Vec<(Queue, Vec<Entry>)> = Vec::new();
        for entry in outbox::pending(self.services.db()).await? {
            let key = queue(&entry);
            match queues.iter_mut().find(|(k, _)| *k == key) {
                Some((_, entries)) => entries.push(entry),
                None => queues.push((key, vec![entry])),
            }
        }
        let mut next: Option<i64> = None;
        let now = unix_now();
        for (key, entries) in queues {
            let due = entries[0].next_attempt_at;
            if due > now {
                next = Some(next.map_or(due, |n| n.min(due)));
                continue;
            }
            if !self
                .in_flight
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .insert(key)
            {
                continue;
            }
            let Ok(slot) = self.slots.clone().acquire_owned().await else {
                break;
            };
            // Several processes on one database: only the one that holds the
            // queue's claim posts its entries.
            let claim = key.claim_key();
            let db = &self.services.db();
            if !outbox::claim_queue(db, &claim, &self.owner, now).await? {
                self.in_flight
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .remove(&key);
                // Look again when its holder's claim could have lapsed.
                let at = now + outbox::CLAIM_LEASE_SECS;
                next = Some(next.map_or(at, |n| n.min(at)));
                continue;
            }
            let me = self.clone();
            tokio::spawn(async move {
                let _slot = slot;
                if let Err(e) = me.deliver_queue(&claim, entries).await {
                    tracing::warn!(error = %e, "outbox delivery failed");
                }
                if let Err(e) = outbox::release_queue(me.services.db(), &claim, &me.owner).await {
                    tracing::warn!(error = %e, "outbox claim not released; it lapses");
                }
                me.in_flight
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .remove(&key);
                me.kick.wake();
            });
        }
        Ok(next)
    }

    /// Delivers one queue's entries in order, until one fails (it is retried after its
    /// backoff and holds back the rest) or is not due yet. An entry given up after
    /// [`MAX_ATTEMPTS`] no longer holds the queue back. The queue's claim (`claim`) is
    /// renewed before each entry; lost (this process stalled past its lease and another
    /// took the queue over), the delivery stops.
    async fn deliver_queue(&self, claim: &str, entries: Vec<Entry>) -> Result<(), Error> {
        let db = &self.services.db();
        for listed in entries {
            if !outbox::claim_queue(db, claim, &self.owner, unix_now()).await? {
                tracing::warn!(queue = claim, "outbox queue taken over by another process");
                return Ok(());
            }
            // Read again: the list may be older than a delivery task that just finished
            // this queue (the dispatcher listed it before the task left `in_flight`).
            let Some(entry) = outbox::get(db, listed.id).await? else {
                continue;
            };
            if entry.delivered_at.is_some() || entry.failed_at.is_some() {
                continue;
            }
            let now = unix_now();
            if entry.next_attempt_at > now {
                return Ok(());
            }
            match self.deliver(&entry).await {
                Ok(posted) => {
                    outbox::mark_delivered(db, entry.id, posted.message_id, posted.thread_id, now)
                        .await?;
                    tracing::debug!(entry = entry.id, game_id = ?entry.game_id, challenge_id = ?entry.challenge_id, kind = %entry.kind, "outbox entry delivered");
                    self.done.send_modify(|v| *v += 1);
                }
                Err(e) => {
                    let attempts = entry.attempts + 1;
                    let give_up = attempts >= MAX_ATTEMPTS;
                    let at = now + backoff_secs(attempts);
                    outbox::mark_failed(db, entry.id, &e.to_string(), at, give_up, now).await?;
                    self.done.send_modify(|v| *v += 1);
                    if give_up {
                        tracing::error!(entry = entry.id, game_id = ?entry.game_id, challenge_id = ?entry.challenge_id, kind = %entry.kind, attempts, error = %e, "outbox entry given up");
                    } else {
                        tracing::warn!(entry = entry.id, game_id = ?entry.game_id, challenge_id = ?entry.challenge_id, kind = %entry.kind, attempts, error = %e, "outbox entry failed; will retry");
                        return Ok(());
                    }
                }
            }
        }
        Ok(())
    }

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
    async fn ensure_open(&self, channel: serenity::ChannelId) -> Result<(), Error> {
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

    async fn deliver(&self, entry: &Entry) -> Result<Posted, Error> {
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
                let row = services.games().load(game_id).await?.row;
                if let Some(thread) = row.thread_id {
                    return Ok(Posted {
                        thread_id: Some(thread),
                        ..Posted::default()
                    });
                }
                let thread = self.create_thread(channel_id, name, message_id).await?;
                services
                    .games()
                    .set_thread(game_id, thread.domain())
                    .await?;
                Ok(Posted {
                    thread_id: Some(thread.domain()),
                    ..Posted::default()
                })
            }
            Effect::ChallengeAccepted { by } => {
                let challenge_id = entry
                    .challenge_id
                    .ok_or("an accepted challenge's entry names no challenge")?;
                let challenge = services.challenges().get(challenge_id).await?;
                let Some(message) = challenge.message_id else {
                    return Ok(Posted::default());
                };
                let row = services.games().load(game_id).await?.row;
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
                let snap = services.games().load_at(game_id, ply).await?;
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
                services
                    .games()
                    .set_board_message(game_id, msg.id.domain())
                    .await?;
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
                let snap = services.games().load(game_id).await?;
                let menu = match services.games().carrier_menu(game_id, user).await {
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
                let snap = services.games().load(game_id).await?;
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
                let snap = services.games().load(game_id).await?;
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
                let snap = services.games().load(game_id).await?;
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
                    services.games().load(game_id).await?
                } else {
                    services.games().load_at(game_id, ply).await?
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
                let snap = services.games().load(game_id).await?;
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
        let prompts = outbox::open_prompts(self.services.db(), game_id, entry.id).await?;
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
            .challenges()
            .set_message(challenge_id, msg.id.domain())
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
        let snap = self.services.games().load(game_id).await?;
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

impl OutboxHandle {
    /// Wakes the deliverer (after a commit).
    pub fn kick(&self) {
        self.kick.wake();
    }

    /// Waits (at most [`SETTLE`]) until `owner`'s entries written so far are delivered:
    /// `Some(last id)` then; `None` at the time limit or as soon as one of them failed. Each
    /// wake (any entry delivered) costs one indexed query of what is still undelivered.
    async fn wait_for(&self, owner: outbox::Owner) -> Result<Option<i64>, Error> {
        let db = &self.services.db();
        let Some(upto) = outbox::last_id(db, owner).await? else {
            return Ok(Some(0));
        };
        let mut done = self.done.clone();
        done.mark_unchanged();
        self.kick();
        let deadline = tokio::time::Instant::now() + SETTLE;
        // Another process may post these entries: without its deliveries heard, poll.
        let poll = db.engine() == kaboom_store::Engine::Postgres
            && !self.listening.load(Ordering::Relaxed);
        loop {
            let waiting = outbox::undelivered_upto(db, owner, upto).await?;
            if waiting.is_empty() {
                return Ok(Some(upto));
            }
            if waiting
                .iter()
                .any(|e| e.attempts > 0 || e.failed_at.is_some())
            {
                return Ok(None);
            }
            let now = tokio::time::Instant::now();
            if now >= deadline {
                return Ok(None);
            }
            let wake = if poll {
                deadline.min(now + SETTLE_POLL)
            } else {
                deadline
            };
            match tokio::time::timeout_at(wake, done.changed()).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) => return Ok(None),
                // The deadline is checked above; or a poll.
                Err(_) => {}
            }
        }
    }

    /// Wakes the deliverer and waits (at most [`SETTLE`]) until every entry game `game_id`
    /// has so far is delivered. [`Settled::Pending`] as soon as one of them failed, or at the
    /// time limit: the change is saved and its posts follow.
    ///
    /// # Errors
    /// A storage error.
    pub async fn settle(&self, game_id: GameId) -> Result<Settled, Error> {
        let db = &self.services.db();
        let Some(upto) = self.wait_for(outbox::Owner::Game(game_id)).await? else {
            return Ok(Settled::Pending);
        };
        let row = kaboom_store::games::get(db, game_id)
            .await?
            .ok_or("the game of a settled outbox entry is gone")?;
        let channel = row.thread_id.unwrap_or(row.channel_id);
        let board = outbox::last_board_upto(db, game_id, upto)
            .await?
            .map(|m| (channel, m));
        Ok(Settled::Delivered {
            board,
            thread: row.thread_id,
        })
    }

    /// As [`OutboxHandle::settle`] for challenge `challenge_id`'s entries (its message's
    /// edits): whether they are out.
    ///
    /// # Errors
    /// A storage error.
    pub async fn settle_challenge(&self, challenge_id: i64) -> Result<bool, Error> {
        Ok(self
            .wait_for(outbox::Owner::Challenge(challenge_id))
            .await?
            .is_some())
    }
}
