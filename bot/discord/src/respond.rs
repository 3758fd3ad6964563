//! Answering interactions through Discord's faults: every reply path of the
//! commands and components goes through here, so that a rate limit, a server error or a
//! connection reset on the way does not leave a player without an answer.
//!
//! Discord's windows (<https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction>):
//! "you must send an initial response within 3 seconds of receiving the event. If the 3
//! second deadline is exceeded, the token will be invalidated"; after it, "Interaction
//! tokens are valid for 15 minutes" for edits and followups. So:
//!
//! - the **initial callback** (a deferral or an answer) is tried as [`INITIAL`] says
//!   (up to 6 tries within 2.2 s);
//! - the **final answer after a deferral** is an Edit Original Interaction Response (`PATCH
//!   .../messages/@original`), which replaces "thinking..." and sets the whole message, so
//!   repeating it after a lost answer changes nothing (a followup would post a second
//!   message); it is tried as [`LATER`] says (5 tries, a few seconds in all), far
//!   inside the 15 minutes;
//! - a callback whose answer was lost (a 5xx, a reset) may have reached Discord: a repeat
//!   then gets 40060 "Interaction has already been acknowledged"
//!   (<https://discord.com/developers/docs/topics/opcodes-and-status-codes#json>), which
//!   counts as done; a deferral that still fails that way is taken as made (the command
//!   goes on and answers by editing the original), since Discord may well have it.
//!
//! What is retried ([`retry_delay`]): 429 Too Many Requests, 5xx, and transport errors
//! (a reset connection, a timeout). Other 4xx are the request's own fault and fail at once.
//!
//! Rate limits (<https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit>):
//! Discord's 429 says how long to wait (`retry_after` in the body, `X-RateLimit-Reset-After`,
//! `Retry-After`, and `X-RateLimit-Global` for the global limit). With its rate limiter on
//! (the default), serenity reads these and waits before it ever returns, so a 429 reaches
//! this module only when the limiter is off (`kaboom serve` with `DISCORD_API_BASE`, see
//! `discord::bot::serve`). Then serenity 0.12 keeps neither the headers nor the body's
//! `retry_after` (its `DiscordJsonError` has no such field, and a 429 body without `code`
//! does not even decode), so the bot waits [`Policy::rate_limit_wait`] (1 s, the length of
//! Discord's usual per-route window), or its own backoff when that is longer.

use std::future::Future;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use tokio::time::Instant;

use crate::types::{Context, Error};

/// How often, and how long, a request is retried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Tries in all (the first included).
    pub attempts: u32,
    /// The first retry's delay; each later one doubles it.
    pub first_delay: Duration,
    /// The least wait after a 429 whose `retry_after` serenity did not keep (see the
    /// module docs).
    pub rate_limit_wait: Duration,
    /// How long after the first try a retry may still start (`None`: no limit).
    pub budget: Option<Duration>,
}

/// The initial callback: up to 6 tries starting within 2.2 s of the first (Discord allows
/// 3 s from the interaction's creation, and the event took some of it to arrive); delays
/// 0.1, 0.2, 0.4, 0.8 s, at least 0.5 s after a 429 (interaction callbacks are not bound
/// to the global limit: "Interaction endpoints are not bound to the bot's Global Rate
/// Limit", <https://discord.com/developers/docs/topics/rate-limits#global-rate-limit>).
pub const INITIAL: Policy = Policy {
    attempts: 6,
    first_delay: Duration::from_millis(100),
    rate_limit_wait: Duration::from_millis(500),
    budget: Some(Duration::from_millis(2_200)),
};

/// Later requests of an interaction (edits of the original response, followups, reading
/// the answer back): 5 tries, delays 0.25, 0.5, 1 and 2 s (at least 1 s after a 429), a few
/// seconds in all, far inside the token's 15 minutes.
pub const LATER: Policy = Policy {
    attempts: 5,
    first_delay: Duration::from_millis(250),
    rate_limit_wait: Duration::from_millis(1_000),
    budget: None,
};

/// The start-up's requests (checking the token, registering the commands): 8 tries,
/// delays 0.5, 1, 2, 4, 8, 16 and 32 s (at least 1 s after a 429), about a minute in all.
/// A process started again at once after a stop shares Discord's global limit with the
/// posts the other processes of the bot (or the one just stopped) send, and must not die of
/// a 429 that says to wait a second.
pub const STARTUP: Policy = Policy {
    attempts: 8,
    first_delay: Duration::from_millis(500),
    rate_limit_wait: Duration::from_millis(1_000),
    budget: None,
};

/// 40060 "Interaction has already been acknowledged".
const ALREADY_ACKNOWLEDGED: isize = 40_060;
/// 10008 "Unknown message" (same page): no original response to edit.
const UNKNOWN_MESSAGE: isize = 10_008;
/// 10015 "Unknown webhook" (same page).
const UNKNOWN_WEBHOOK: isize = 10_015;

/// How long to wait before repeating a request that failed with `e` after `attempt` tries
/// (1 for the first) under `policy`, or `None` if repeating it cannot help: the doubling
/// backoff from [`Policy::first_delay`] for a 5xx or a transport error, at least
/// [`Policy::rate_limit_wait`] for a 429.
pub fn retry_delay(e: &serenity::Error, attempt: u32, policy: Policy) -> Option<Duration> {
    let backoff = policy.first_delay * 2u32.saturating_pow(attempt.saturating_sub(1).min(10));
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            let status = r.status_code.as_u16();
            if status == 429 {
                Some(backoff.max(policy.rate_limit_wait))
            } else if r.status_code.is_server_error() {
                Some(backoff)
            } else {
                None
            }
        }
        serenity::Error::Http(serenity::HttpError::Request(_)) | serenity::Error::Io(_) => {
            Some(backoff)
        }
        _ => None,
    }
}

/// Whether the request that failed with `e` may have been carried out (its answer lost): a
/// 5xx or a transport error, not a 429 (Discord did nothing) nor another 4xx.
fn maybe_done(e: &serenity::Error) -> bool {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            r.status_code.is_server_error()
        }
        serenity::Error::Http(serenity::HttpError::Request(_)) | serenity::Error::Io(_) => true,
        _ => false,
    }
}

fn discord_code(e: &serenity::Error) -> Option<isize> {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => Some(r.error.code),
        _ => None,
    }
}

fn already_acknowledged(e: &serenity::Error) -> bool {
    discord_code(e) == Some(ALREADY_ACKNOWLEDGED)
}

/// Whether `e` says there is no original response to edit (a deferral taken as made that
/// never reached Discord).
fn no_original(e: &serenity::Error) -> bool {
    matches!(discord_code(e), Some(UNKNOWN_MESSAGE | UNKNOWN_WEBHOOK))
}

/// How a retried request ended badly: the last error, and whether any attempt may have
/// been carried out.
struct Failed {
    error: serenity::Error,
    maybe_done: bool,
}

/// Runs `op` until it succeeds, fails for good, has run [`Policy::attempts`] times, or the
/// next try would start after [`Policy::budget`].
async fn retrying<T, F, Fut>(what: &'static str, policy: Policy, mut op: F) -> Result<T, Failed>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, serenity::Error>>,
{
    let deadline = policy.budget.map(|b| Instant::now() + b);
    let mut any_done = false;
    let mut attempt = 0;
    loop {
        attempt += 1;
        let error = match op().await {
            Ok(value) => return Ok(value),
            Err(e) => e,
        };
        let delay = retry_delay(&error, attempt, policy);
        let in_time = |d: Duration| deadline.is_none_or(|end| Instant::now() + d < end);
        match delay {
            Some(d) if attempt < policy.attempts && in_time(d) => {
                tracing::warn!(what, attempt, error = %error, delay_ms = d.as_millis() as u64, "interaction response failed; retrying");
                any_done |= maybe_done(&error);
                tokio::time::sleep(d).await;
            }
            _ => {
                let maybe_done = any_done || maybe_done(&error);
                return Err(Failed { error, maybe_done });
            }
        }
    }
}

/// How an initial callback ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Initial {
    /// Discord has it (a repeat's 40060 after a lost answer counts).
    Done,
    /// Every attempt failed, but one may have reached Discord (a 5xx or a reset).
    Unknown,
}

/// Sends an initial callback with `send` (which must send the same callback each time),
/// retried as the module docs say.
///
/// # Errors
/// The last error when Discord surely does not have the callback.
pub async fn initial<F, Fut>(
    what: &'static str,
    policy: Policy,
    send: F,
) -> Result<Initial, serenity::Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<(), serenity::Error>>,
{
    match retrying(what, policy, send).await {
        Ok(()) => Ok(Initial::Done),
        Err(Failed { error, maybe_done }) if maybe_done && already_acknowledged(&error) => {
            Ok(Initial::Done)
        }
        Err(Failed {
            error,
            maybe_done: true,
        }) if retry_delay(&error, 1, policy).is_some() => {
            tracing::warn!(what, error = %error, "initial interaction response may not have arrived; answering by editing it");
            Ok(Initial::Unknown)
        }
        Err(Failed { error, .. }) => Err(error),
    }
}

/// Sends a later request of an interaction (an edit of the original response, reading it)
/// with `send`, which must be idempotent, retried as the module docs say.
///
/// # Errors
/// The last error.
pub async fn later<T, F, Fut>(
    what: &'static str,
    policy: Policy,
    send: F,
) -> Result<T, serenity::Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, serenity::Error>>,
{
    retrying(what, policy, send).await.map_err(|f| f.error)
}

/// Marks a command invocation whose initial response was a deferral (poise's invocation
/// data): its answer edits the deferred response.
struct Deferred;

/// Defers the command's response ("thinking...", only the caller sees it if `ephemeral`),
/// retried; a later [`send`] edits it into the answer.
///
/// # Errors
/// A Discord error when the deferral surely did not reach Discord.
pub async fn defer(ctx: Context<'_>, ephemeral: bool) -> Result<(), Error> {
    let poise::Context::Application(app) = ctx else {
        return Ok(());
    };
    if app
        .has_sent_initial_response
        .load(std::sync::atomic::Ordering::SeqCst)
    {
        return Ok(());
    }
    let http = &ctx.serenity_context().http;
    let response = serenity::CreateInteractionResponse::Defer(
        serenity::CreateInteractionResponseMessage::new().ephemeral(ephemeral),
    );
    initial("defer", INITIAL, || {
        app.interaction.create_response(http, response.clone())
    })
    .await?;
    app.has_sent_initial_response
        .store(true, std::sync::atomic::Ordering::SeqCst);
    ctx.set_invocation_data(Deferred).await;
    Ok(())
}

/// The command's answer `reply` (with the framework's defaults): the initial response, or
/// the edit of a deferred one, or else a followup; retried as the module docs say. Returns
/// the answer's message when Discord gave it (an edit or a followup, or read back after an
/// initial answer when `want_message`).
///
/// # Errors
/// A Discord error once the retries are spent.
pub async fn send_reply(
    ctx: Context<'_>,
    reply: poise::CreateReply,
    want_message: bool,
) -> Result<Option<serenity::Message>, Error> {
    let poise::Context::Application(app) = ctx else {
        let handle = ctx.send(reply).await?;
        return Ok(Some(handle.into_message().await?));
    };
    if app.interaction_type == poise::CommandInteractionType::Autocomplete {
        return Ok(None);
    }
    let http = &ctx.serenity_context().http;
    let interaction = app.interaction;
    let reply = ctx.reply_builder(reply);
    let flag = &app.has_sent_initial_response;
    if !flag.load(std::sync::atomic::Ordering::SeqCst) {
        let message =
            reply.to_slash_initial_response(serenity::CreateInteractionResponseMessage::new());
        let response = serenity::CreateInteractionResponse::Message(message);
        let sent = initial("answer", INITIAL, || {
            interaction.create_response(http, response.clone())
        })
        .await?;
        flag.store(true, std::sync::atomic::Ordering::SeqCst);
        if !want_message {
            return Ok(None);
        }
        if sent == Initial::Unknown {
            tracing::warn!("reading back an answer that may not have arrived");
        }
        let message = later("read answer", LATER, || interaction.get_response(http)).await?;
        return Ok(Some(message));
    }
    // The first answer after a deferral edits it; the marker is taken, so a second answer
    // (an error after the answer, say) is a followup rather than replacing the first.
    let deferred = ctx.invocation_data::<Deferred>().await.is_some();
    if deferred {
        ctx.set_invocation_data(()).await;
        let edit = reply
            .clone()
            .to_slash_initial_response_edit(serenity::EditInteractionResponse::new());
        match later("edit answer", LATER, || {
            interaction.edit_response(http, edit.clone())
        })
        .await
        {
            Ok(message) => return Ok(Some(message)),
            // The deferral was taken as made (its tries all failed) but never arrived:
            // answer with a followup, the one way left.
            Err(e) if no_original(&e) => {
                tracing::warn!(error = %e, "the deferred response is missing; answering with a followup");
            }
            Err(e) => return Err(e.into()),
        }
    }
    let followup =
        reply.to_slash_followup_response(serenity::CreateInteractionResponseFollowup::new());
    let message = later("followup", LATER, || {
        interaction.create_followup(http, followup.clone())
    })
    .await?;
    Ok(Some(message))
}

/// [`send_reply`] without the message.
///
/// # Errors
/// As [`send_reply`].
pub async fn send(ctx: Context<'_>, reply: poise::CreateReply) -> Result<(), Error> {
    send_reply(ctx, reply, false).await?;
    Ok(())
}

/// Defers a component interaction's response privately, retried (see [`defer`]).
///
/// # Errors
/// As [`defer`].
pub async fn defer_component(
    http: &serenity::Http,
    ic: &serenity::ComponentInteraction,
) -> Result<(), Error> {
    let response = serenity::CreateInteractionResponse::Defer(
        serenity::CreateInteractionResponseMessage::new().ephemeral(true),
    );
    initial("defer component", INITIAL, || {
        ic.create_response(http, response.clone())
    })
    .await?;
    Ok(())
}

/// Answers a component interaction at once with `response`, retried (see [`initial`]).
///
/// # Errors
/// As [`initial`].
pub async fn answer_component(
    http: &serenity::Http,
    ic: &serenity::ComponentInteraction,
    response: serenity::CreateInteractionResponse,
) -> Result<(), Error> {
    initial("answer component", INITIAL, || {
        ic.create_response(http, response.clone())
    })
    .await?;
    Ok(())
}

/// Edits a deferred component interaction's response into `edit`, retried (see [`later`]).
///
/// # Errors
/// As [`later`].
pub async fn edit_component(
    http: &serenity::Http,
    ic: &serenity::ComponentInteraction,
    edit: serenity::EditInteractionResponse,
) -> Result<(), Error> {
    later("edit component answer", LATER, || {
        ic.edit_response(http, edit.clone())
    })
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, Ordering};

    use super::*;

    const QUICK: Policy = Policy {
        attempts: 4,
        first_delay: Duration::from_millis(1),
        rate_limit_wait: Duration::from_millis(2),
        budget: Some(Duration::from_millis(500)),
    };

    fn reset() -> serenity::Error {
        serenity::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionReset))
    }

    #[tokio::test]
    async fn transport_errors_are_retried_until_the_attempts_are_spent() {
        let tries = AtomicU32::new(0);
        let result: Result<(), _> = later("test", QUICK, || async {
            tries.fetch_add(1, Ordering::SeqCst);
            Err(reset())
        })
        .await;
        assert!(result.is_err());
        assert_eq!(tries.load(Ordering::SeqCst), QUICK.attempts);
    }

    #[tokio::test]
    async fn a_retry_that_succeeds_ends_the_loop() {
        let tries = AtomicU32::new(0);
        let result = later("test", QUICK, || async {
            match tries.fetch_add(1, Ordering::SeqCst) {
                0 | 1 => Err(reset()),
                n => Ok(n),
            }
        })
        .await;
        assert_eq!(result.unwrap(), 2);
    }

    #[tokio::test]
    async fn other_errors_are_not_retried() {
        let tries = AtomicU32::new(0);
        let result: Result<(), _> = later("test", QUICK, || async {
            tries.fetch_add(1, Ordering::SeqCst);
            Err(serenity::Error::Other("the request's own fault"))
        })
        .await;
        assert!(result.is_err());
        assert_eq!(tries.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn no_retry_starts_after_the_budget() {
        let policy = Policy {
            attempts: 100,
            first_delay: Duration::from_millis(40),
            budget: Some(Duration::from_millis(100)),
            ..QUICK
        };
        let tries = AtomicU32::new(0);
        let started = Instant::now();
        let result = initial("test", policy, || async {
            tries.fetch_add(1, Ordering::SeqCst);
            Err(reset())
        })
        .await;
        // Delays 40 + 80 ms: the third try starts at 120 ms, past the budget.
        assert_eq!(tries.load(Ordering::SeqCst), 2);
        assert!(started.elapsed() < Duration::from_millis(100));
        // A reset may have carried the callback out: taken as made, not an error.
        assert_eq!(result.unwrap(), Initial::Unknown);
    }

    #[test]
    fn backoff_doubles() {
        let e = reset();
        assert_eq!(retry_delay(&e, 1, LATER), Some(Duration::from_millis(250)));
        assert_eq!(retry_delay(&e, 3, LATER), Some(Duration::from_millis(1000)));
        assert_eq!(retry_delay(&serenity::Error::Other("x"), 1, LATER), None);
    }
}
