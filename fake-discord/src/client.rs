//! The recipe for connecting a real serenity 0.12 / poise 0.7 client to the fake.
//!
//! What serenity needs, and why this works on plain `ws://` and `http://` loopback:
//! - REST: [`HttpBuilder::proxy`] makes serenity replace `https://discord.com` in every route
//!   URL (`https://discord.com/api/v10/...`) with the given base, so requests go to
//!   `http://127.0.0.1:PORT/api/v10/...`. `ratelimiter_disabled(true)` sends them directly:
//!   the fake sends Discord's `X-RateLimit-*` headers (see [`crate::ratelimit`]) and
//!   serenity's limiter works against it (`kaboom serve` keeps it on), but in-process tests
//!   need no second bookkeeping of a limit the fake does not enforce.
//!   The reqwest client is built with `no_proxy()` so an `HTTP(S)_PROXY` variable in the
//!   environment can never divert loopback traffic.
//! - Gateway: [`Client::start`](serenity::Client::start) asks `GET /gateway`
//!   for the URL (through the proxy, so it is the fake's `ws://127.0.0.1:PORT/gateway`) and
//!   connects to it with `?v=10` appended; tokio-tungstenite accepts `ws://` without TLS.
//!   The fake answers with uncompressed JSON text frames, which serenity reads as is.
//! - Token: [`Http`] only prefixes `Bot `; nothing validates the token's format, but the
//!   fake answers 401 to requests without a `Bot ` authorization header, as Discord does.
//! - Application id: serenity sets it from READY's `application.id`, which poise's command
//!   registration (`PUT /applications/{id}/commands`) and interaction responses need.

use serenity::all::{self as serenity, ClientBuilder, GatewayIntents, Http, HttpBuilder};

/// A token of Discord's shape (three base64 parts) that the fake accepts. Any string works;
/// this one just looks like a token in logs.
pub const FAKE_TOKEN: &str =
    "MTMyNzk4MDUyOTg5MzE5MzY2NA.GfakeD.ZmFrZS1kaXNjb3JkLXRva2VuLWZvci1rYWJvb20";

/// A serenity [`Http`] that sends every request to the fake at `base_url`
/// (`http://127.0.0.1:PORT`, from [`super::FakeDiscord::url`]).
///
/// Panics never; the reqwest client falls back to serenity's own if it cannot be built.
pub fn http(base_url: &str, token: &str) -> Http {
    let builder = HttpBuilder::new(token)
        .proxy(base_url.trim_end_matches('/'))
        .ratelimiter_disabled(true);
    match reqwest::Client::builder().no_proxy().build() {
        Ok(client) => builder.client(client).build(),
        Err(_) => builder.build(),
    }
}

/// A serenity [`ClientBuilder`] wired to the fake at `base_url`: add the poise framework
/// (`.framework(framework)`) and event handlers, `.await` it, then run
/// [`Client::start`](serenity::Client::start) in a task.
///
/// ```no_run
/// # async fn demo<F: serenity::all::Framework + 'static>(framework: F) -> Result<(), Box<dyn std::error::Error>> {
/// use fake_discord::{self, FakeDiscord};
/// use serenity::all as serenity;
/// let fake = FakeDiscord::start().await?;
/// let mut client = fake_discord::client_builder(&fake.url(), fake_discord::FAKE_TOKEN,
///         serenity::GatewayIntents::non_privileged())
///     .framework(framework)
///     .await?;
/// tokio::spawn(async move { client.start().await });
/// fake.wait_until_ready(std::time::Duration::from_secs(10)).await?;
/// # Ok(()) }
/// ```
pub fn client_builder(base_url: &str, token: &str, intents: GatewayIntents) -> ClientBuilder {
    serenity::ClientBuilder::new_with_http(http(base_url, token), intents)
}
