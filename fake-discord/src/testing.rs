//! Plain HTTP helpers for tests that talk to a fake over REST themselves (as a bot would,
//! but without serenity): one place for the JSON body, the bot token and reading the answer.
//!
//! They panic on transport errors: they are for tests.

use serde_json::Value;

use crate::{FAKE_TOKEN, FakeDiscord};

/// Adds `body` as a JSON body (with its `Content-Type`), or leaves `request` without one.
pub fn with_json(request: reqwest::RequestBuilder, body: Option<Value>) -> reqwest::RequestBuilder {
    match body {
        Some(body) => request
            .header("Content-Type", "application/json")
            .body(body.to_string()),
        None => request,
    }
}

/// Adds `body` as a `multipart/form-data` body whose parts are separated by `boundary`.
pub fn with_multipart(
    request: reqwest::RequestBuilder,
    boundary: &str,
    body: String,
) -> reqwest::RequestBuilder {
    request
        .header(
            "Content-Type",
            format!("multipart/form-data; boundary={boundary}"),
        )
        .body(body)
}

/// The JSON of a response body, [`Value::Null`] for an empty one.
///
/// # Panics
/// If the body is not JSON.
pub fn json_or_null(bytes: &[u8]) -> Value {
    if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(bytes).unwrap()
    }
}

/// The status and the JSON body ([`json_or_null`]) of a response.
///
/// # Panics
/// If the body cannot be read or is not JSON.
pub async fn read(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    let bytes = response.bytes().await.unwrap();
    (status, json_or_null(&bytes))
}

impl FakeDiscord {
    /// Sends `method /api/v10{path}` to this fake as the bot (`Authorization: Bot` with
    /// [`FAKE_TOKEN`]), with `body` as JSON if any; answers the status and the JSON body
    /// ([`Value::Null`] when empty).
    ///
    /// # Panics
    /// On a transport error or a body that is not JSON: this is for tests.
    pub async fn bot_request(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> (u16, Value) {
        let client = reqwest::Client::builder().no_proxy().build().unwrap();
        let request = client
            .request(method, format!("{}/api/v10{path}", self.url()))
            .header("Authorization", format!("Bot {FAKE_TOKEN}"));
        read(with_json(request, body).send().await.unwrap()).await
    }
}
