//! Wiring: the poise framework (commands, the one error handler, component routing) and
//! `kaboom serve`.

use std::sync::Arc;

use poise::serenity_prelude as serenity;

use crate::config::Config;
use crate::types::{Data, Error};
use kaboom_domain::clock::SystemClock;
use kaboom_service::Services;
use kaboom_service::painter::RendererPainter;
use kaboom_store::Db;

async fn event_handler(
    framework: poise::FrameworkContext<'_, Data, Error>,
    event: &serenity::FullEvent,
) -> Result<(), Error> {
    match event {
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Component(ic),
        } => crate::components::handle(framework.serenity_context, framework.user_data, ic).await,
        serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Modal(mi),
        } => {
            crate::components::submit_move(framework.serenity_context, framework.user_data, mi)
                .await
        }
        serenity::FullEvent::Ready { data_about_bot } => {
            tracing::info!(user = %data_about_bot.user.name, "connected to Discord");
            Ok(())
        }
        // Removed from a server (not an outage: "If the unavailable field is not set, the
        // user was removed from the guild",
        // https://discord.com/developers/docs/events/gateway-events#guild-delete): its
        // running leagues pause, as nothing can be posted there any more.
        serenity::FullEvent::GuildDelete { incomplete, .. } if !incomplete.unavailable => {
            let guild = crate::ids::Domain::domain(incomplete.id);
            framework
                .user_data
                .services
                .leagues()
                .pause_guild(guild)
                .await?;
            Ok(())
        }
        _ => Ok(()),
    }
}

/// The gateway intents the bot needs: only `GUILDS` (no privileged ones).
///
/// Slash commands, autocomplete, buttons and menus arrive as interactions whatever the
/// intents; `GUILDS` keeps the cache of servers, channels, threads and roles that the
/// framework's permission checks (`/settings server`: Manage Server) read. Every other
/// event would be traffic the bot ignores. Source: Discord API docs, "Gateway Intents".
pub fn intents() -> serenity::GatewayIntents {
    serenity::GatewayIntents::GUILDS
}

/// The poise framework over `services`. Commands are registered at start-up: in
/// `dev_guild` only (instant) if given, else globally.
pub fn framework(services: Services, dev_guild: Option<u64>) -> poise::Framework<Data, Error> {
    poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: crate::commands::all(),
            // Replies ping nobody unless they say whom.
            allowed_mentions: Some(crate::messages::mentions::none()),
            on_error: |error| Box::pin(crate::commands::on_error(error)),
            // Commands per player per minute, before anything else a command does.
            command_check: Some(|ctx| Box::pin(crate::commands::within_rate(ctx))),
            // What a player missed while their DMs were refused comes with their next
            // answer.
            post_command: |ctx| Box::pin(crate::commands::show_missed(ctx)),
            event_handler: |framework, event| Box::pin(event_handler(framework, event)),
            ..Default::default()
        })
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                let commands = &framework.options().commands;
                // Retried (a bulk overwrite, so repeating it changes nothing): a 429 or a
                // 5xx here would leave the bot connected but serving nothing.
                let policy = crate::respond::STARTUP;
                match dev_guild {
                    Some(g) => {
                        let guild = serenity::GuildId::new(g);
                        crate::respond::later("register the commands", policy, || {
                            poise::builtins::register_in_guild(ctx, commands, guild)
                        })
                        .await?;
                    }
                    None => {
                        crate::respond::later("register the commands", policy, || {
                            poise::builtins::register_globally(ctx, commands)
                        })
                        .await?;
                    }
                }
                // Every side effect of a change goes through the outbox; its
                // deliverer first posts what a crash or a failure left.
                let planner = crate::outbox::DiscordEffects::for_services(&services);
                let membership = crate::members::DiscordMembership::new(ctx.http.clone());
                let services = services
                    .with_effects(planner)
                    .with_membership(Arc::new(membership));
                let outbox = crate::outbox::Deliverer::spawn(services.clone(), ctx.http.clone());
                // The practice opponent plays as the bot's own user; its worker
                // first plays whatever turns a restart left.
                let engine = kaboom_service::engine::EnginePlayer {
                    user: crate::ids::Domain::domain(ready.user.id),
                    name: ready.user.name.clone(),
                };
                let practice =
                    kaboom_service::engine::spawn_worker(services.clone(), engine.clone());
                // Post-game analyses, one at a time on their own pool; the worker first
                // finishes what a restart left.
                let analyses = kaboom_service::analysis::spawn_worker(services.clone());
                let limiter = crate::limiter::CommandLimiter::new(services.clock().clone());
                Ok(Data {
                    services,
                    outbox,
                    engine,
                    limiter,
                    workers: crate::types::Workers(vec![practice, analyses]),
                })
            })
        })
        .build()
}

/// Asks Discord who the bot is (`GET /users/@me`, Get Current User) before anything else
/// starts, so that a wrong token stops `kaboom serve` with one line instead of a shard
/// that retries every few seconds forever (Discord answers 401 Unauthorized to a REST
/// request with an invalid token, and closes the gateway with 4004 Authentication failed:
/// <https://discord.com/developers/docs/topics/opcodes-and-status-codes>).
///
/// # Errors
/// One line naming `DISCORD_TOKEN` on 401; the HTTP error otherwise (Discord unreachable).
async fn check_token(http: &serenity::Http) -> Result<(), Error> {
    let me = crate::respond::later("check the token", crate::respond::STARTUP, || {
        http.get_current_user()
    });
    match me.await {
        Ok(user) => {
            tracing::info!(user = %user.name, "token accepted");
            Ok(())
        }
        Err(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response)))
            if response.status_code == serenity::StatusCode::UNAUTHORIZED =>
        {
            Err(Error::Stopped(
                "Discord refused DISCORD_TOKEN (401 Unauthorized): copy the bot's token again \
                 from the Developer Portal (Bot -> Reset Token) into .env"
                    .into(),
            ))
        }
        Err(e) => Err(Error::Stopped(format!(
            "cannot reach Discord to check the token: {e}"
        ))),
    }
}

/// Runs the bot until it is stopped: checks the token, opens the database (applying
/// migrations), connects to Discord and serves. A token Discord refuses stops it with one
/// line: 401 on the first REST request (`check_token`), or close code 4004 on the gateway
/// ([`run_gateway`]).
///
/// # Errors
/// Database or Discord failures, as one line each.
pub async fn serve(config: Config) -> Result<(), Error> {
    let scheduler_config = config.scheduler.clone();
    // With DISCORD_API_BASE every REST route goes to that base. serenity 0.12.5 applies
    // `proxy` only to requests sent without its rate limiter: `Ratelimiter::perform` builds
    // each request with no proxy (http/ratelimiting.rs), so with the limiter on every
    // request still went to https://discord.com. The limiter is therefore off with a base:
    // the server behind it (a REST proxy such as nirn-proxy, or the fake) owns the limits.
    let mut http = serenity::HttpBuilder::new(&config.token);
    if let Some(base) = &config.api_base {
        tracing::info!(api_base = %base, "Discord REST API base overridden");
        http = http.proxy(base.as_str()).ratelimiter_disabled(true);
    }
    let http = http.build();
    check_token(&http).await?;
    let db = Db::connect(&config.database_url).await?;
    tracing::info!(database = %config.database_url_for_logs(), "database ready");
    let waker = kaboom_service::scheduler::SchedulerWaker::default();
    let services = Services::new(db.clone(), Arc::new(SystemClock), Arc::new(RendererPainter))
        .with_scheduler_config(scheduler_config.clone())
        .with_scheduler_waker(waker.clone())
        .with_analysis_nodes(config.analysis_nodes);
    // The shipped puzzles (built into the binary) join the database on the first start
    // after an upgrade that brings new ones.
    let added = services.puzzles().load_shipped().await?;
    tracing::info!(added, "puzzles ready");
    // The scheduler writes its notices into the same outbox and wakes the same deliverer.
    let outbox_waker = services.outbox_waker().clone();
    // The scheduler sweeps the leagues too: their rounds and standings are posted as the
    // bot's own changes are.
    let league_services = services
        .clone()
        .with_effects(crate::outbox::DiscordEffects::for_services(&services));
    let mut client = serenity::ClientBuilder::new_with_http(http, intents())
        .framework(framework(services, config.dev_guild_id))
        .await?;
    if config.api_base.is_some() {
        // serenity reads the gateway's URL once (`GET /gateway`) and, when that fails (a
        // 429 from the global limit the REST base shares), falls back to Discord's own
        // wss://gateway.discord.gg, which a REST base's gateway is not: read it with retries.
        let gateway =
            crate::respond::later("read the gateway URL", crate::respond::STARTUP, || {
                client.http.get_gateway()
            })
            .await?;
        *client.ws_url.lock().await = gateway.url;
    }
    // Scheduler hook: one task sweeping due nudges, forfeits and expiries.
    let _scheduler = kaboom_service::scheduler::Scheduler::new(
        db,
        Arc::new(SystemClock),
        Arc::new(crate::notifier::DiscordNotifier::new(outbox_waker)),
        scheduler_config,
        crate::messages::scheduler_wording(),
    )
    .with_waker(waker)
    .with_leagues(league_services.with_membership(Arc::new(
        crate::members::DiscordMembership::new(client.http.clone()),
    )))
    .spawn();
    // SIGTERM (systemd's stop, `docker stop`) or Ctrl-C closes the gateway connection and
    // `kaboom serve` exits 0. Nothing is lost either way: every change is committed with
    // its outbox entries, which the next start delivers.
    let shard_manager = client.shard_manager.clone();
    tokio::spawn(async move {
        let signal = stop_signal().await;
        tracing::info!(signal, "stopping: closing the gateway connection");
        shard_manager.shutdown_all().await;
    });
    run_gateway(&mut client, config.shards).await
}

/// Waits for SIGTERM or SIGINT (Ctrl-C) and names it.
async fn stop_signal() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut terminate) = signal(SignalKind::terminate()) {
            return tokio::select! {
                _ = terminate.recv() => "SIGTERM",
                _ = tokio::signal::ctrl_c() => "SIGINT",
            };
        }
    }
    // Without a SIGTERM handler (not Unix, or it could not be installed): Ctrl-C only; if
    // even that cannot be listened for, never.
    match tokio::signal::ctrl_c().await {
        Ok(()) => "SIGINT",
        Err(_) => std::future::pending().await,
    }
}

/// The line `kaboom serve` stops with when the gateway refuses the token (close code 4004).
pub const GATEWAY_REFUSED_TOKEN: &str = "Discord refused DISCORD_TOKEN on the gateway (close code 4004 Authentication failed): \
     the token was reset or revoked; copy the bot's token again from the Developer Portal \
     (Bot -> Reset Token) into .env";

/// The `Range` to give serenity 0.12's `Client::start_shard_range` for shards
/// `first..=last`: `first..last`. Serenity reads the range's end as the last shard to run,
/// not one past it ("initialize shards 4 through 7" for `4..7` in its documentation; its
/// `start_connection` starts `end - start + 1` shards), so `first..last + 1` would also run
/// shard `last + 1`: a shard of another process, or one Discord refuses (4010 Invalid
/// shard) past the last.
fn serenity_shard_range(shards: &crate::config::Shards) -> std::ops::Range<u32> {
    shards.first..shards.last
}

/// Runs `client`'s gateway connection until it ends. A gateway that closes with 4004
/// Authentication failed ("reconnect: false" in Discord's Gateway Close Event Codes,
/// <https://discord.com/developers/docs/topics/opcodes-and-status-codes#gateway-gateway-close-event-codes>:
/// the token was reset while the bot ran, or REST and the gateway disagree) ends it with
/// the one line [`GATEWAY_REFUSED_TOKEN`] instead of a shard that retries forever;
/// serenity 0.12 returns [`serenity::GatewayError::InvalidAuthentication`] from
/// `Client::start` for it.
///
/// With `shards`, the client runs shards `first..=last` of `count` (serenity's
/// `start_shard_range`; Discord's Gateway "Sharding",
/// <https://discord.com/developers/docs/events/gateway#sharding>); without, one shard.
///
/// # Errors
/// [`GATEWAY_REFUSED_TOKEN`] on 4004; serenity's error otherwise.
pub async fn run_gateway(
    client: &mut serenity::Client,
    shards: Option<crate::config::Shards>,
) -> Result<(), Error> {
    let started = match shards {
        None => client.start().await,
        Some(s) => {
            tracing::info!(
                count = s.count,
                first = s.first,
                last = s.last,
                "running gateway shards"
            );
            client
                .start_shard_range(serenity_shard_range(&s), s.count)
                .await
        }
    };
    match started {
        Ok(()) => Ok(()),
        Err(serenity::Error::Gateway(serenity::GatewayError::InvalidAuthentication)) => {
            client.shard_manager.shutdown_all().await;
            Err(Error::Stopped(GATEWAY_REFUSED_TOKEN.into()))
        }
        Err(e) => Err(Error::Stopped(format!(
            "the Discord connection stopped: {e}"
        ))),
    }
}

#[cfg(test)]
mod shard_range_tests {
    use super::serenity_shard_range;
    use crate::config::Shards;

    /// Serenity 0.12 starts `end - start + 1` shards from `start` (`start_connection`):
    /// the range given must make that exactly `first..=last`.
    #[test]
    fn serenity_runs_exactly_the_configured_shards() {
        for (first, last) in [(0, 0), (2, 2), (0, 2), (3, 5)] {
            let range = serenity_shard_range(&Shards {
                count: 6,
                first,
                last,
            });
            let started: Vec<u32> = (range.start..=range.end).collect();
            assert_eq!(started, (first..=last).collect::<Vec<_>>());
        }
    }
}
