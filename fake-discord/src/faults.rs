//! Injected failures, for tests of the bot's retries and recovery, and Discord's
//! message nonce check.
//!
//! ## One-shot failures
//!
//! [`FakeDiscord::fail_next`] makes the next `count` requests whose method and path (after
//! `/api/v10`) match answer `status` without doing anything; [`FakeDiscord::fail_next_after`]
//! lets them do their work and then answers `status` (an answer lost on the way back).
//!
//! ## The fault plan: seeded, per route, switchable
//!
//! A [`FaultPlan`] ([`FakeDiscord::set_fault_plan`], or `PUT /_control/faults` from another
//! process) injects faults at random into the REST API, the gateway and DMs:
//!
//! - [`RestFault::RateLimit`]: a 429 exactly as Discord sends it (body, `Retry-After`,
//!   `X-RateLimit-*`, `X-RateLimit-Scope`, and `X-RateLimit-Global` for the global limit).
//! - [`RestFault::Status`]: a 5xx answer (500, 502, 503, ...), before or after the work.
//! - [`RestFault::Slow`]: the answer comes `seconds` late.
//! - [`RestFault::Reset`]: the connection is dropped (TCP RST) without an answer, before or
//!   after the work.
//! - [`FaultPlan::dm_refusal`]: a Create Message in a DM channel fails with 403 / 50007.
//! - [`FaultPlan::gateway_every`]: a [`GatewayFault`] every `n` dispatched interactions.
//! - [`FaultPlan::rate_limits`]: Discord's per-bucket limits enforced for real.
//!
//! Each rule names a route pattern ([`FaultRule::path`]) and a probability. The random draws
//! are deterministic for a given [`FaultPlan::seed`]: every route (method and concrete path,
//! e.g. `POST /channels/7/messages`) has its own random stream seeded from the seed and the
//! route, so the n-th request to a route meets the same fault in every run, whatever the
//! interleaving of requests to other routes. Rules matching one request share one draw `u`
//! in `[0, 1)`: the first matching rule fires when `u < p1`, the second when
//! `p1 <= u < p1 + p2`, and so on (so disjoint percentages add up as written).
//!
//! Gateway faults can also be sent at once ([`FakeDiscord::gateway_fault`]); see
//! [`crate::gateway`] for what the fake's gateway does on each.
//!
//! ## The nonce check
//!
//! Create Message with `enforce_nonce: true` and a `nonce` returns the message the bot
//! already created in that channel with that nonce instead of creating another
//! (<https://discord.com/developers/docs/resources/message#create-message>: "If another
//! message was created by the same author with the same nonce, that message will be
//! returned and no new message will be created"; the fake keeps no time window).

use std::collections::HashMap;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rand::{Rng as _, SeedableRng as _};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::FakeDiscord;
use crate::records::RecordedBody;
use crate::state::State;

/// The longest [`RestFault::Slow`] delay and [`RestFault::RateLimit`] `retry_after`: 60 s.
pub const MAX_FAULT_SECONDS: f64 = 60.0;

/// A seeded, switchable plan of random faults (see the [module docs](self)). Its JSON form
/// is what `PUT /_control/faults` takes:
///
/// ```json
/// {"seed": 7, "rules": [
///   {"method": "POST", "path": "/channels/*/messages", "probability": 0.05,
///    "fault": {"kind": "rate_limit", "retry_after": 0.25}},
///   {"probability": 0.03, "fault": {"kind": "status", "status": 503}},
///   {"path": "/webhooks", "probability": 0.02, "fault": {"kind": "reset", "after": true}}],
///  "dm_refusal": 0.1,
///  "gateway_every": {"interactions": 30, "fault": {"kind": "close", "code": 4000}}}
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultPlan {
    /// The seed of every random draw (default 0).
    #[serde(default)]
    pub seed: u64,
    /// Whether the plan injects anything (default `true`); switched with
    /// [`FakeDiscord::set_faults_enabled`] without losing the plan or its random streams.
    #[serde(default = "enabled_by_default")]
    pub enabled: bool,
    /// The REST faults, tried in order (see the [module docs](self) for the shared draw).
    #[serde(default)]
    pub rules: Vec<FaultRule>,
    /// Probability (0 to 1) that a Create Message in a DM channel fails with 403 / 50007
    /// "Cannot send messages to this user", as when the user closed their DMs
    /// (<https://discord.com/developers/docs/topics/opcodes-and-status-codes#json>).
    #[serde(default)]
    pub dm_refusal: f64,
    /// Enforce per-bucket rate limits (429 past the limit); `None`: headers only.
    #[serde(default)]
    pub rate_limits: Option<EnforcedRateLimits>,
    /// A gateway fault after every `interactions` dispatched interactions.
    #[serde(default)]
    pub gateway_every: Option<PeriodicGatewayFault>,
}

fn enabled_by_default() -> bool {
    true
}

impl Default for FaultPlan {
    /// Seed 0, enabled, no faults.
    fn default() -> Self {
        FaultPlan {
            seed: 0,
            enabled: true,
            rules: Vec::new(),
            dm_refusal: 0.0,
            rate_limits: None,
            gateway_every: None,
        }
    }
}

/// One REST fault rule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultRule {
    /// The HTTP method (`"POST"`, any case); `None` (absent): every method.
    #[serde(default)]
    pub method: Option<String>,
    /// The route pattern, over the path after `/api/v10`: `/`-separated segments where `*`
    /// matches any one segment, matched as a prefix of the path's segments. `"/"` (the
    /// default) matches every path; `"/channels/*/messages"` matches
    /// `/channels/7/messages` and `/channels/7/messages/9`.
    #[serde(default = "every_path")]
    pub path: String,
    /// Probability (0 to 1) that a matching request meets the fault.
    pub probability: f64,
    /// The fault.
    pub fault: RestFault,
}

fn every_path() -> String {
    "/".into()
}

/// A fault on one REST request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum RestFault {
    /// HTTP 429, nothing done, as Discord's "Exceeding A Rate Limit" section
    /// (<https://discord.com/developers/docs/topics/rate-limits#exceeding-a-rate-limit>):
    /// body `{"message": "You are being rate limited.", "retry_after": <seconds, float>,
    /// "global": <bool>}`, header `Retry-After` (whole seconds, rounded up), and
    /// `X-RateLimit-Scope` (`user` for a per-route limit, `global` for the global one). A
    /// per-route 429 carries the bucket's `X-RateLimit-Limit`, `X-RateLimit-Remaining: 0`,
    /// `X-RateLimit-Reset`, `X-RateLimit-Reset-After` (= `retry_after`) and
    /// `X-RateLimit-Bucket`; a global one `X-RateLimit-Global: true` ("Returned only on HTTP
    /// 429 responses if the rate limit encountered is the global rate limit (not
    /// per-route)", section "Header Format").
    RateLimit {
        /// Seconds to wait, 0 to [`MAX_FAULT_SECONDS`].
        retry_after: f64,
        /// The global limit rather than the route's.
        #[serde(default)]
        global: bool,
    },
    /// An HTTP error status (500 to 599) with Discord's error shape
    /// `{"message": "<status>: <reason>", "code": 0}`.
    Status {
        /// The status, 500 to 599.
        status: u16,
        /// Do the work first and then answer the status (the answer is lost).
        #[serde(default)]
        after: bool,
    },
    /// The answer is delayed (the request is then served as usual).
    Slow {
        /// Seconds, 0 to [`MAX_FAULT_SECONDS`].
        seconds: f64,
    },
    /// The connection is reset (TCP RST) without any answer: the client sees a transport
    /// error, not a status.
    Reset {
        /// Do the work first, then reset (the answer is lost).
        #[serde(default)]
        after: bool,
    },
}

/// Discord's per-bucket limits, enforced: within one window of a bucket and top-level
/// resource (see [`crate::ratelimit`]), request `limit + 1` and later get a 429 with
/// `X-RateLimit-Scope: user` and `retry_after` = the time left in the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnforcedRateLimits {
    /// Requests per window, at least 1.
    pub limit: u32,
    /// The window, milliseconds, at least 1.
    pub window_ms: u64,
}

/// A gateway fault every `interactions` dispatched interactions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PeriodicGatewayFault {
    /// After how many dispatched interactions (at least 1); the count starts when the plan
    /// is set.
    pub interactions: u64,
    /// The fault, sent to every connected session.
    pub fault: GatewayFault,
}

/// A fault on the gateway connections (see [`crate::gateway`] for the protocol; doc:
/// <https://discord.com/developers/docs/events/gateway#resuming> and
/// <https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-close-event-codes>).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum GatewayFault {
    /// Close the connection with this close code. Discord's resumable codes (4000-4003,
    /// 4005, 4007-4009) keep the session for a RESUME; 4004 and 4010-4014 end it.
    Close {
        /// The WebSocket close code (4000 to 4999).
        code: u16,
    },
    /// Drop the TCP connection without a Close frame (the session stays resumable).
    Drop,
    /// Send op 7 Reconnect: the client should reconnect and resume.
    Reconnect,
    /// Send op 9 Invalid Session with `d` = `resumable`; when `false` the session ends and
    /// the client must IDENTIFY again.
    InvalidSession {
        /// `d` of the op 9 payload.
        resumable: bool,
    },
    /// Leave the next `count` heartbeats (op 1) without a HEARTBEAT_ACK (op 11), so the
    /// client takes the connection for a zombie and reconnects.
    SkipHeartbeatAcks {
        /// How many heartbeats.
        count: u32,
    },
}

/// Close codes after which Discord lets a session resume ("Reconnect" column `true`,
/// <https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-close-event-codes>).
pub(crate) fn resumable_close_code(code: u16) -> bool {
    matches!(code, 4000..=4003 | 4005 | 4007..=4009) || !(4000..=4999).contains(&code)
}

/// A [`FaultPlan`] that is not valid, with what is wrong.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("invalid fault plan: {0}")]
pub struct FaultPlanError(pub String);

impl FaultPlan {
    /// Checks the ranges given on each field.
    ///
    /// # Errors
    /// [`FaultPlanError`] naming the first bad field.
    pub fn validate(&self) -> Result<(), FaultPlanError> {
        let bad = |what: String| Err(FaultPlanError(what));
        let probability = |p: f64| (0.0..=1.0).contains(&p);
        let seconds = |s: f64| (0.0..=MAX_FAULT_SECONDS).contains(&s);
        for (i, rule) in self.rules.iter().enumerate() {
            if !probability(rule.probability) {
                return bad(format!(
                    "rules[{i}].probability must be in 0..=1, not {}",
                    rule.probability
                ));
            }
            if !rule.path.starts_with('/') {
                return bad(format!(
                    "rules[{i}].path must start with '/', not '{}'",
                    rule.path
                ));
            }
            match &rule.fault {
                RestFault::RateLimit { retry_after, .. } if !seconds(*retry_after) => {
                    return bad(format!(
                        "rules[{i}].fault.retry_after must be 0..={MAX_FAULT_SECONDS} seconds, not {retry_after}"
                    ));
                }
                RestFault::Slow { seconds: s } if !seconds(*s) => {
                    return bad(format!(
                        "rules[{i}].fault.seconds must be 0..={MAX_FAULT_SECONDS}, not {s}"
                    ));
                }
                RestFault::Status { status, .. } if !(500..=599).contains(status) => {
                    return bad(format!(
                        "rules[{i}].fault.status must be 500..=599, not {status}"
                    ));
                }
                _ => {}
            }
        }
        if !probability(self.dm_refusal) {
            return bad(format!(
                "dm_refusal must be in 0..=1, not {}",
                self.dm_refusal
            ));
        }
        if let Some(limits) = self.rate_limits
            && (limits.limit == 0 || limits.window_ms == 0)
        {
            return bad("rate_limits.limit and rate_limits.window_ms must be at least 1".into());
        }
        if let Some(every) = &self.gateway_every {
            if every.interactions == 0 {
                return bad("gateway_every.interactions must be at least 1".into());
            }
            if let GatewayFault::Close { code } = every.fault
                && !(4000..=4999).contains(&code)
            {
                return bad(format!(
                    "gateway_every.fault.code must be 4000..=4999, not {code}"
                ));
            }
        }
        Ok(())
    }
}

/// One fault the plan (or a one-shot failure) injected, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InjectedFault {
    /// The request's method (`"POST"`), or `"GATEWAY"` for a gateway fault.
    pub method: String,
    /// The request's path after `/api/v10`, or `""` for a gateway fault.
    pub path: String,
    /// What was injected: `rate_limit`, `global_rate_limit`, `status 503`,
    /// `status 502 after`, `slow 1.5s`, `reset`, `reset after`, `dm_refusal`,
    /// `enforced_rate_limit`, or a gateway fault's kind (`close 4000`, `reconnect`, ...).
    pub fault: String,
}

/// One injected one-shot failure rule ([`FakeDiscord::fail_next`]).
#[derive(Clone, Debug)]
struct OneShot {
    method: String,
    path_prefix: String,
    status: u16,
    remaining: usize,
    after: bool,
}

/// The fault plan's random streams, by route ([`Faults`]).
pub(crate) type Streams = HashMap<String, ChaCha8Rng>;

/// The pending failures, the plan and its random streams.
#[derive(Debug, Default)]
pub(crate) struct Faults {
    one_shots: Vec<OneShot>,
    plan: Option<FaultPlan>,
    /// One random stream per route (`METHOD /path`, or `dm METHOD /path`): one for each
    /// path drawn for, so it grows with the ids a run's requests name.
    pub(crate) streams: Streams,
    /// Interactions dispatched since the plan was set.
    interactions: u64,
    pub(crate) injected: Vec<InjectedFault>,
}

/// What a request meets before routing.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Intercept {
    /// Answer this at once, doing nothing: status, body, extra headers.
    Answer(u16, Value, Vec<(&'static str, String)>),
    /// Do the work, then answer this status.
    After(u16),
    /// Wait this long, then route as usual.
    Slow(Duration),
    /// Drop the connection without an answer; `true`: after doing the work.
    Reset(bool),
    /// Route it as usual.
    Pass,
}

/// Discord's error body for an HTTP error status (`{"message": "503: Service Unavailable",
/// "code": 0}`, as in <https://discord.com/developers/docs/reference#error-messages>).
pub(crate) fn status_body(status: u16) -> Value {
    let reason = axum::http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("Error");
    json!({ "message": format!("{status}: {reason}"), "code": 0 })
}

/// Whether `path` (after `/api/v10`) matches the rule pattern `pattern` (see
/// [`FaultRule::path`]).
pub(crate) fn path_matches(pattern: &str, path: &str) -> bool {
    let mut path = path.split('/').filter(|s| !s.is_empty());
    pattern
        .split('/')
        .filter(|s| !s.is_empty())
        .all(|want| path.next().is_some_and(|got| want == "*" || want == got))
}

/// Seconds as Discord writes them in `retry_after` and `X-RateLimit-Reset-After` (3
/// decimals).
fn seconds_3(seconds: f64) -> String {
    format!("{seconds:.3}")
}

/// The 429 answer for `retry_after` seconds (see [`RestFault::RateLimit`] for the source).
/// `bucket` is the route's `(X-RateLimit-Bucket, X-RateLimit-Limit)`, absent for a global
/// limit.
pub(crate) fn rate_limited(retry_after: f64, bucket: Option<(String, u32)>) -> Intercept {
    let global = bucket.is_none();
    let body = json!({
        "message": "You are being rate limited.",
        "retry_after": (retry_after * 1000.0).round() / 1000.0,
        "global": global,
    });
    let mut headers = vec![(
        "retry-after",
        format!("{}", retry_after.ceil().max(0.0) as u64),
    )];
    match bucket {
        None => {
            headers.push(("x-ratelimit-global", "true".into()));
            headers.push(("x-ratelimit-scope", "global".into()));
        }
        Some((bucket, limit)) => {
            let reset = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default()
                .as_secs_f64()
                + retry_after;
            headers.extend([
                ("x-ratelimit-limit", limit.to_string()),
                ("x-ratelimit-remaining", "0".into()),
                ("x-ratelimit-reset", seconds_3(reset)),
                ("x-ratelimit-reset-after", seconds_3(retry_after)),
                ("x-ratelimit-bucket", bucket),
                ("x-ratelimit-scope", "user".into()),
            ]);
        }
    }
    Intercept::Answer(429, body, headers)
}

impl Faults {
    /// The one-shot rule for `method path`, if one matches (counted down).
    pub(crate) fn check(&mut self, method: &str, path: &str) -> Intercept {
        let Some(rule) = self
            .one_shots
            .iter_mut()
            .find(|r| r.remaining > 0 && r.method == method && path.starts_with(&r.path_prefix))
        else {
            return Intercept::Pass;
        };
        rule.remaining -= 1;
        let (status, after) = (rule.status, rule.after);
        self.one_shots.retain(|r| r.remaining > 0);
        if after {
            Intercept::After(status)
        } else {
            Intercept::Answer(
                status,
                json!({ "message": format!("{status}: injected failure"), "code": 0 }),
                Vec::new(),
            )
        }
    }

    /// The enabled plan, if any.
    fn active(&self) -> Option<&FaultPlan> {
        self.plan.as_ref().filter(|p| p.enabled)
    }

    /// The next draw in `[0, 1)` of the stream named `key`.
    fn draw(&mut self, key: &str) -> f64 {
        let seed = self.plan.as_ref().map_or(0, |p| p.seed);
        self.streams
            .entry(key.to_string())
            .or_insert_with(|| {
                // FNV-1a of the route, mixed with the seed: one stream per route.
                let hash = key.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                    (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
                });
                ChaCha8Rng::seed_from_u64(seed ^ hash)
            })
            .random::<f64>()
    }

    fn log(&mut self, method: &str, path: &str, fault: String) {
        self.injected.push(InjectedFault {
            method: method.to_string(),
            path: path.to_string(),
            fault,
        });
    }

    /// The plan's fault, if any, for one REST request `method path` (path after `/api/v10`);
    /// `bucket` is the route's (`X-RateLimit-Bucket`, `X-RateLimit-Limit`) for a 429.
    pub(crate) fn plan_fault(
        &mut self,
        method: &str,
        path: &str,
        bucket: (String, u32),
    ) -> Intercept {
        let Some(plan) = self.active() else {
            return Intercept::Pass;
        };
        let matching: Vec<(f64, RestFault)> = plan
            .rules
            .iter()
            .filter(|r| {
                r.method
                    .as_deref()
                    .is_none_or(|m| m.eq_ignore_ascii_case(method))
                    && path_matches(&r.path, path)
            })
            .map(|r| (r.probability, r.fault.clone()))
            .collect();
        if matching.is_empty() {
            return Intercept::Pass;
        }
        let u = self.draw(&format!("{method} {path}"));
        let mut upto = 0.0;
        let Some(fault) = matching.into_iter().find_map(|(p, fault)| {
            upto += p;
            (u < upto).then_some(fault)
        }) else {
            return Intercept::Pass;
        };
        let (intercept, name) = match fault {
            RestFault::RateLimit {
                retry_after,
                global,
            } => (
                rate_limited(retry_after, (!global).then_some(bucket)),
                if global {
                    "global_rate_limit".to_string()
                } else {
                    "rate_limit".to_string()
                },
            ),
            RestFault::Status { status, after } => (
                if after {
                    Intercept::After(status)
                } else {
                    Intercept::Answer(status, status_body(status), Vec::new())
                },
                format!("status {status}{}", if after { " after" } else { "" }),
            ),
            RestFault::Slow { seconds } => (
                Intercept::Slow(Duration::from_secs_f64(seconds)),
                format!("slow {seconds}s"),
            ),
            RestFault::Reset { after } => (
                Intercept::Reset(after),
                format!("reset{}", if after { " after" } else { "" }),
            ),
        };
        self.log(method, path, name);
        intercept
    }

    /// Whether the plan refuses this Create Message in a DM channel (50007).
    pub(crate) fn refuse_dm(&mut self, method: &str, path: &str) -> bool {
        let Some(p) = self
            .active()
            .map(|plan| plan.dm_refusal)
            .filter(|p| *p > 0.0)
        else {
            return false;
        };
        let refused = self.draw(&format!("dm {method} {path}")) < p;
        if refused {
            self.log(method, path, "dm_refusal".into());
        }
        refused
    }

    /// The enforced per-bucket limits, if the plan switches them on.
    pub(crate) fn enforced_limits(&self) -> Option<EnforcedRateLimits> {
        self.active().and_then(|p| p.rate_limits)
    }

    /// Logs a 429 from an enforced limit.
    pub(crate) fn log_enforced(&mut self, method: &str, path: &str) {
        self.log(method, path, "enforced_rate_limit".into());
    }

    /// Counts one dispatched interaction; the gateway fault due now, if any.
    pub(crate) fn count_interaction(&mut self) -> Option<GatewayFault> {
        let every = self.active()?.gateway_every.clone()?;
        self.interactions += 1;
        if !self.interactions.is_multiple_of(every.interactions) {
            return None;
        }
        self.log_gateway(&every.fault);
        Some(every.fault)
    }

    /// Logs a gateway fault.
    pub(crate) fn log_gateway(&mut self, fault: &GatewayFault) {
        let name = match fault {
            GatewayFault::Close { code } => format!("close {code}"),
            GatewayFault::Drop => "drop".into(),
            GatewayFault::Reconnect => "reconnect".into(),
            GatewayFault::InvalidSession { resumable } => format!("invalid_session {resumable}"),
            GatewayFault::SkipHeartbeatAcks { count } => format!("skip_heartbeat_acks {count}"),
        };
        self.log("GATEWAY", "", name);
    }
}

/// The message already created in the channel of a Create Message request with
/// `enforce_nonce: true` and the same `nonce`, if any.
pub(crate) fn nonce_repeat(
    state: &State,
    method: &str,
    segments: &[&str],
    body: &RecordedBody,
) -> Option<Value> {
    let ("POST", ["channels", channel, "messages"]) = (method, segments) else {
        return None;
    };
    let body = body.json()?;
    if body["enforce_nonce"] != json!(true) {
        return None;
    }
    let nonce = body.get("nonce").filter(|n| !n.is_null())?;
    let channel: u64 = channel.parse().ok()?;
    let id = state.message_by_nonce.get(&(channel, nonce.to_string()))?;
    state.message(*id).map(|m| m.json.clone())
}

impl FakeDiscord {
    /// Makes the next `count` `method` requests whose path (after `/api/v10`, e.g.
    /// `/channels/123/messages`) starts with `path_prefix` fail with `status`, doing nothing.
    pub fn fail_next(&self, method: &str, path_prefix: &str, status: u16, count: usize) {
        self.add_fault(method, path_prefix, status, count, false);
    }

    /// As [`FakeDiscord::fail_next`], but the requests do their work first (the answer is
    /// lost: e.g. a message is created and the bot sees a 500).
    pub fn fail_next_after(&self, method: &str, path_prefix: &str, status: u16, count: usize) {
        self.add_fault(method, path_prefix, status, count, true);
    }

    fn add_fault(&self, method: &str, path_prefix: &str, status: u16, count: usize, after: bool) {
        self.faults().one_shots.push(OneShot {
            method: method.to_uppercase(),
            path_prefix: path_prefix.to_string(),
            status,
            remaining: count,
            after,
        });
    }

    pub(crate) fn faults(&self) -> std::sync::MutexGuard<'_, Faults> {
        self.shared.faults_lock()
    }

    /// Sets the fault plan (replacing any other, restarting its random streams and its
    /// interaction count; the log of injected faults is kept).
    ///
    /// # Errors
    /// [`FaultPlanError`] if a field is out of range ([`FaultPlan::validate`]); the old plan
    /// then stays.
    pub fn set_fault_plan(&self, plan: FaultPlan) -> Result<(), FaultPlanError> {
        plan.validate()?;
        let mut faults = self.faults();
        faults.plan = Some(plan);
        faults.streams.clear();
        faults.interactions = 0;
        Ok(())
    }

    /// The current fault plan, if any.
    pub fn fault_plan(&self) -> Option<FaultPlan> {
        self.faults().plan.clone()
    }

    /// Switches the plan on or off, keeping it and its random streams; returns whether
    /// there is a plan to switch.
    pub fn set_faults_enabled(&self, enabled: bool) -> bool {
        match self.faults().plan.as_mut() {
            Some(plan) => {
                plan.enabled = enabled;
                true
            }
            None => false,
        }
    }

    /// Removes the fault plan (the one-shot failures of [`FakeDiscord::fail_next`] stay).
    pub fn clear_fault_plan(&self) {
        self.faults().plan = None;
    }

    /// Every fault the plan injected so far (and every gateway fault sent), in order.
    pub fn injected_faults(&self) -> Vec<InjectedFault> {
        self.faults().injected.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_segments_as_a_prefix() {
        assert!(path_matches("/", "/channels/1/messages"));
        assert!(path_matches("/channels/*/messages", "/channels/1/messages"));
        assert!(path_matches(
            "/channels/*/messages",
            "/channels/1/messages/2"
        ));
        assert!(!path_matches("/channels/*/messages", "/channels/1"));
        assert!(!path_matches(
            "/channels/*/messages",
            "/webhooks/1/messages"
        ));
        assert!(path_matches("/webhooks", "/webhooks/1/tok"));
    }

    #[test]
    fn close_codes_follow_discords_reconnect_column() {
        for code in [4000, 4001, 4002, 4003, 4005, 4007, 4008, 4009] {
            assert!(resumable_close_code(code), "{code}");
        }
        for code in [4004, 4010, 4011, 4012, 4013, 4014] {
            assert!(!resumable_close_code(code), "{code}");
        }
    }
}
