//! Injected failures and Discord's message nonce check, for tests of the bot's retries.
//!
//! [`FakeDiscord::fail_next`] makes the next `count` requests whose method and path (after
//! `/api/v10`) match answer `status` without doing anything; [`FakeDiscord::fail_next_after`]
//! lets them do their work and then answers `status` (an answer lost on the way back).
//!
//! Create Message with `enforce_nonce: true` and a `nonce` returns the message the bot
//! already created in that channel with that nonce instead of creating another
//! (<https://discord.com/developers/docs/resources/message#create-message>: "If another
//! message was created by the same author with the same nonce, that message will be
//! returned and no new message will be created"; the fake keeps no time window).

use serde_json::{Value, json};

use crate::FakeDiscord;
use crate::records::RecordedBody;
use crate::state::State;

/// One injected failure rule.
#[derive(Clone, Debug)]
struct Rule {
    method: String,
    path_prefix: String,
    status: u16,
    remaining: usize,
    after: bool,
}

/// The pending injected failures.
#[derive(Debug, Default)]
pub(crate) struct Faults {
    rules: Vec<Rule>,
}

/// What a request meets before routing.
pub(crate) enum Intercept {
    /// Answer this at once, doing nothing.
    Answer(u16, Value),
    /// Do the work, then answer this status.
    After(u16),
    /// Route it as usual.
    Pass,
}

impl Faults {
    /// The rule for `method path`, if one matches (counted down).
    pub(crate) fn check(&mut self, method: &str, path: &str) -> Intercept {
        let Some(rule) = self
            .rules
            .iter_mut()
            .find(|r| r.remaining > 0 && r.method == method && path.starts_with(&r.path_prefix))
        else {
            return Intercept::Pass;
        };
        rule.remaining -= 1;
        let (status, after) = (rule.status, rule.after);
        self.rules.retain(|r| r.remaining > 0);
        if after {
            Intercept::After(status)
        } else {
            Intercept::Answer(
                status,
                json!({ "message": format!("{status}: injected failure"), "code": 0 }),
            )
        }
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
    state
        .messages
        .iter()
        .find(|m| m.channel_id == channel && m.json.get("nonce") == Some(nonce))
        .map(|m| m.json.clone())
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
        self.shared
            .faults
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .rules
            .push(Rule {
                method: method.to_uppercase(),
                path_prefix: path_prefix.to_string(),
                status,
                remaining: count,
                after,
            });
    }
}
