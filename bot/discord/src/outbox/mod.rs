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
//! row stays, marked failed). Discord's 429 Too Many Requests is not a failure: the entry
//! is tried again after [`RATE_LIMITED_RETRY_SECS`], however often, and never given up
//! for it.
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
//! auto-archive duration (7 days); a post into a thread Discord archived after 7 idle days
//! unarchives it by itself ("Sending a message will automatically unarchive the thread,
//! unless the thread has been locked by a moderator", same page as below), and with each
//! nudge (which may go by DM only) and before an edit of a posted analysis the deliverer
//! unarchives it (`Deliverer::ensure_open`). Players cannot use application commands in an
//! archived thread ("Users cannot edit messages, add reactions, use application commands, or join
//! archived threads", <https://discord.com/developers/docs/topics/threads#active-archived-threads>),
//! so the nudge, which comes within the time per move, reopens it, and says that
//! `/move game:<id>` works from any channel.
//!
//! Boards are painted at delivery time, off the async runtime, from the stored game at the
//! ply the entry shows, so the payload stays small.

mod deliver;
mod effect;
mod plan;
mod post;
mod settle;

pub use deliver::{
    DELIVERY_CONCURRENCY, Deliverer, MAX_ATTEMPTS, MAX_BACKOFF_SECS, PERIOD,
    RATE_LIMITED_RETRY_SECS, SHARED_PERIOD, backoff_secs,
};
pub use effect::Effect;
pub use plan::DiscordEffects;
pub use settle::{OutboxHandle, SETTLE, SETTLE_POLL, Settled};
