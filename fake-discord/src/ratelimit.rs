//! Discord's rate-limit headers on the fake's REST responses.
//!
//! Follows Discord's "Rate Limits" page,
//! <https://discord.com/developers/docs/topics/rate-limits> (sections "Header Format" and
//! "Rate Limit Header Examples"): every REST response carries
//!
//! | header | value here |
//! | --- | --- |
//! | `X-RateLimit-Limit` | [`LIMIT`] requests per window |
//! | `X-RateLimit-Remaining` | requests left in the current window, never below 1 (see below) |
//! | `X-RateLimit-Reset` | Unix time (seconds, 3 decimals) at which the window ends |
//! | `X-RateLimit-Reset-After` | seconds (3 decimals) until the window ends |
//! | `X-RateLimit-Bucket` | an opaque id of the route, shared by all its top-level resources |
//!
//! Per the same page, per-route limits are counted per bucket *and* per top-level resource
//! ("major parameter": `channel_id`, `guild_id`, `webhook_id` + `webhook_token`), so
//! `/channels/1/messages` and `/channels/2/messages` have the same bucket id but separate
//! counts; the bucket id is "non-inclusive of top-level resources in the path".
//!
//! By default the fake **enforces** that limit, [`LIMIT`] requests per [`WINDOW`] per bucket
//! and resource, as its headers announce: `X-RateLimit-Remaining` counts down to 0 and the
//! next request in the window gets a 429 with `X-RateLimit-Scope: user` and `retry_after`
//! the time left in the window ("If you exceed a rate limit, you will receive a HTTP 429",
//! section "Exceeding A Rate Limit"), without doing anything. Discord publishes no
//! per-route figures; 50 a second is its global limit, which no route's own limit exceeds
//! in practice, so the fake refuses only what Discord would surely refuse. Windows are
//! fixed: [`WINDOW`] long, starting with the first request of the bucket and resource.
//! [`crate::FakeDiscord::set_route_rate_limit`] (`fake-discord --no-route-rate-limit`)
//! switches it off: the headers still count, `X-RateLimit-Remaining` then never below 1
//! (a client that reads 0, such as serenity's rate limiter, waits until the reset).
//!
//! The global limit (50 requests per second, section "Global Rate Limit") **is** enforced by
//! default, on every route but the interaction endpoints, which it does not bind: the 51st
//! request of a second gets the global 429 (`"global": true`, `X-RateLimit-Global`,
//! `X-RateLimit-Scope: global`), as Discord sends it. A test or a benchmark that measures
//! the bot rather than Discord's budget switches it off
//! ([`crate::FakeDiscord::set_global_rate_limit`], `fake-discord --no-global-rate-limit`).
//!
//! A fault plan with [`crate::EnforcedRateLimits`] enforces its own limit and window
//! instead (tighter ones, such as the 5 messages per 5 s per channel client libraries
//! observe), even with the default switched off; see [`crate::RestFault::RateLimit`] for
//! the 429's shape.

use std::collections::HashMap;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Requests allowed per bucket, resource and window: Discord's global limit for bots is 50
/// requests per second, and per-route limits are at most that.
pub const LIMIT: u32 = 50;

/// The length of a window.
pub const WINDOW: Duration = Duration::from_secs(1);

/// The headers of one response, as (name, value) pairs in Discord's spelling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RateLimitHeaders {
    /// `X-RateLimit-Limit`.
    pub limit: u32,
    /// `X-RateLimit-Remaining` (at least 1, see the [module docs](self)).
    pub remaining: u32,
    /// `X-RateLimit-Reset`: Unix seconds with 3 decimals, e.g. `1735689601.250`.
    pub reset: String,
    /// `X-RateLimit-Reset-After`: seconds with 3 decimals, e.g. `0.750`.
    pub reset_after: String,
    /// `X-RateLimit-Bucket`: 16 hex digits.
    pub bucket: String,
}

impl RateLimitHeaders {
    /// The headers as (name, value) pairs.
    pub fn pairs(&self) -> [(&'static str, String); 5] {
        [
            ("x-ratelimit-limit", self.limit.to_string()),
            ("x-ratelimit-remaining", self.remaining.to_string()),
            ("x-ratelimit-reset", self.reset.clone()),
            ("x-ratelimit-reset-after", self.reset_after.clone()),
            ("x-ratelimit-bucket", self.bucket.clone()),
        ]
    }
}

/// Discord's global limit: "All bots can make up to 50 requests per second to our API"
/// (section "Global Rate Limit"), counted here in fixed one-second windows.
pub const GLOBAL_LIMIT: u32 = 50;

/// The fixed windows, per (bucket, top-level resource), and the global window.
#[derive(Debug)]
pub struct RateLimits {
    windows: HashMap<(String, String), Window>,
    /// The global limit's window (requests to interaction routes are not counted).
    global: Option<Window>,
    /// Whether the global limit is enforced: on unless switched off
    /// ([`crate::FakeDiscord::set_global_rate_limit`]).
    pub global_enforced: bool,
    /// Whether the per-route limit ([`LIMIT`] per [`WINDOW`]) is enforced: on unless
    /// switched off ([`crate::FakeDiscord::set_route_rate_limit`]).
    pub route_enforced: bool,
}

impl Default for RateLimits {
    fn default() -> RateLimits {
        RateLimits {
            windows: HashMap::new(),
            global: None,
            global_enforced: true,
            route_enforced: true,
        }
    }
}

/// Whether a request on `segments` is one of the interaction endpoints, which "are not
/// bound to the bot's Global Rate Limit" (section "Global Rate Limit"): an interaction's
/// callback (`/interactions/{id}/{token}/callback`) and its webhook routes
/// (`/webhooks/{application_id}/{token}/...`: the original response and follow-ups).
pub fn is_interaction_route(segments: &[&str]) -> bool {
    matches!(segments.first(), Some(&"interactions"))
        || (segments.first() == Some(&"webhooks") && segments.len() >= 3)
}

#[derive(Clone, Debug)]
pub(crate) struct Window {
    started: Instant,
    ends_at: SystemTime,
    used: u32,
}

impl Window {
    /// A window of `length` opened at `now`, nothing counted yet.
    fn open(now: Instant, length: Duration) -> Window {
        Window {
            started: now,
            ends_at: SystemTime::now() + length,
            used: 0,
        }
    }

    /// Counts one request at `now`, first opening a new window if this one has ended;
    /// returns the time left in the window.
    fn count(&mut self, now: Instant, length: Duration) -> Duration {
        if now.duration_since(self.started) >= length {
            *self = Window::open(now, length);
        }
        self.used = self.used.saturating_add(1);
        length.saturating_sub(now.duration_since(self.started))
    }
}

/// The route's bucket template and its top-level resource, from the path segments after
/// `/api/v10`: ids and tokens become placeholders, except that the top-level resource
/// (`channels/{id}`, `guilds/{id}`, `webhooks/{id}/{token}`) is returned apart.
///
/// An interaction's callback (`interactions/{id}/{token}/callback`) counts per
/// interaction, as a webhook's routes count per id and token: the token stands for that
/// one interaction, which gets one response within 3 seconds ("Receiving and Responding",
/// <https://discord.com/developers/docs/interactions/receiving-and-responding>), and a
/// bot answering many users at once is not held to one shared count of callbacks.
pub fn route_key(method: &str, segments: &[&str]) -> (String, String) {
    let mut template = vec![method.to_string()];
    let mut major = String::new();
    let mut i = 0;
    while i < segments.len() {
        let segment = segments[i];
        let previous = i.checked_sub(1).map(|p| segments[p]);
        let top_level = i == 1 && matches!(previous, Some("channels" | "guilds" | "webhooks"));
        if i == 1 && previous == Some("interactions") {
            let token = segments.get(2).copied().unwrap_or_default();
            major = format!("{segment}/{token}");
            template.push("{id}".into());
            template.push("{token}".into());
            i += 1;
        } else if top_level {
            major = segment.to_string();
            template.push(format!("{{{}}}", previous.unwrap_or_default()));
            if previous == Some("webhooks")
                && let Some(token) = segments.get(2)
            {
                major = format!("{segment}/{token}");
                template.push("{token}".into());
                i += 1;
            }
        } else if segment.bytes().all(|b| b.is_ascii_digit()) {
            template.push("{id}".into());
        } else {
            template.push(segment.to_string());
        }
        i += 1;
    }
    (template.join(" "), major)
}

/// 16 hex digits naming `template` (FNV-1a, so the same route always gets the same bucket).
fn bucket_id(template: &str) -> String {
    let hash = template.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
}

impl RateLimits {
    /// Puts a copy of the per-route windows in their place and returns the windows
    /// themselves, for [`crate::FakeDiscord::take_records_leaving_copies`].
    pub(crate) fn replace_windows_with_copy(&mut self) -> HashMap<(String, String), Window> {
        let copy = self.windows.clone();
        std::mem::replace(&mut self.windows, copy)
    }

    /// Counts one request on `segments` against the global limit, when enforced and the
    /// route is not an interaction endpoint ([`is_interaction_route`]): `Some(retry_after)`
    /// (seconds left in the window) for a request past [`GLOBAL_LIMIT`], which must be
    /// answered with the global 429 without doing anything.
    pub fn hit_global(&mut self, segments: &[&str]) -> Option<f64> {
        if !self.global_enforced || is_interaction_route(segments) {
            return None;
        }
        let now = Instant::now();
        let window = self.global.get_or_insert_with(|| Window::open(now, WINDOW));
        let left = window.count(now, WINDOW);
        (window.used > GLOBAL_LIMIT).then_some(left.as_secs_f64())
    }

    /// Counts one request of `method` on `segments` (the path after `/api/v10`) and returns
    /// the headers of its response.
    pub fn hit(&mut self, method: &str, segments: &[&str]) -> RateLimitHeaders {
        self.hit_limited(method, segments, None).0
    }

    /// As [`RateLimits::hit`], with `enforced` = `Some((limit, window))` to enforce that
    /// limit (else [`LIMIT`] per [`WINDOW`], enforced when `route_enforced`): the second
    /// value is `Some(retry_after)` (seconds left in the window) for a request past an
    /// enforced limit, which must be answered 429 without doing anything.
    pub fn hit_limited(
        &mut self,
        method: &str,
        segments: &[&str],
        enforced: Option<(u32, Duration)>,
    ) -> (RateLimitHeaders, Option<f64>) {
        let enforced = enforced.or(self.route_enforced.then_some((LIMIT, WINDOW)));
        let (limit, length) = enforced.unwrap_or((LIMIT, WINDOW));
        let (template, major) = route_key(method, segments);
        let bucket = bucket_id(&template);
        let now = Instant::now();
        let window = self
            .windows
            .entry((bucket.clone(), major))
            .or_insert_with(|| Window::open(now, length));
        let left = window.count(now, length);
        let reset = window
            .ends_at
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs_f64();
        let remaining = limit.saturating_sub(window.used);
        let headers = RateLimitHeaders {
            limit,
            remaining: if enforced.is_some() {
                remaining
            } else {
                remaining.max(1)
            },
            reset: format!("{reset:.3}"),
            reset_after: format!("{:.3}", left.as_secs_f64()),
            bucket,
        };
        let over = enforced.is_some() && window.used > limit;
        (headers, over.then_some(left.as_secs_f64()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_level_resources_share_the_bucket_but_not_the_count() {
        let (a, major_a) = route_key("POST", &["channels", "1", "messages"]);
        let (b, major_b) = route_key("POST", &["channels", "2", "messages"]);
        assert_eq!(a, b);
        assert_eq!((major_a.as_str(), major_b.as_str()), ("1", "2"));
        let (edit, _) = route_key("PATCH", &["channels", "1", "messages", "99"]);
        assert_eq!(edit, "PATCH channels {channels} messages {id}");
        let (hook, major) = route_key("PATCH", &["webhooks", "7", "tok", "messages", "@original"]);
        assert_eq!(hook, "PATCH webhooks {webhooks} {token} messages @original");
        assert_eq!(major, "7/tok");
        let (callback, major) = route_key("POST", &["interactions", "5", "tok", "callback"]);
        assert_eq!(callback, "POST interactions {id} {token} callback");
        assert_eq!(major, "5/tok", "each interaction's callback counts apart");

        let mut limits = RateLimits::default();
        let first = limits.hit("POST", &["channels", "1", "messages"]);
        let second = limits.hit("POST", &["channels", "1", "messages"]);
        let other = limits.hit("POST", &["channels", "2", "messages"]);
        assert_eq!((first.remaining, second.remaining), (LIMIT - 1, LIMIT - 2));
        assert_eq!(other.remaining, LIMIT - 1);
        assert_eq!(first.bucket, other.bucket);
        let after: f64 = second.reset_after.parse().unwrap();
        assert!((0.0..=1.0).contains(&after), "{after}");
        // Enforced by default: the request past the limit is refused until the window
        // ends, and the headers count down to 0.
        let hits: Vec<_> = (0..=LIMIT)
            .map(|_| limits.hit_limited("GET", &["users", "@me"], None))
            .collect();
        assert_eq!(hits[LIMIT as usize - 1].0.remaining, 0);
        assert_eq!(hits[LIMIT as usize - 1].1, None);
        let (refused, retry_after) = &hits[LIMIT as usize];
        assert_eq!(refused.remaining, 0);
        assert!(
            retry_after.is_some_and(|s| (0.0..=1.0).contains(&s)),
            "{retry_after:?}"
        );
        // Switched off: counted in the headers, never below 1, never refused.
        limits.route_enforced = false;
        let last = (0..2 * LIMIT)
            .map(|_| limits.hit_limited("GET", &["users", "@me", "guilds"], None))
            .last()
            .unwrap();
        assert_eq!((last.0.remaining, last.1), (1, None));
    }
}
