//! # kaboom-testkit
//!
//! What Kaboom's tests and its offline demo share, and nothing the bot's production code
//! uses (issue 15):
//! - [`driver::Driver`]: the real bot, started in-process against a
//!   [`fake_discord::FakeDiscord`] on loopback, driven as simulated users (slash commands,
//!   autocomplete, buttons), restartable on the same database;
//! - [`demo`]: `kaboom demo`, one scripted game per variant (the `kaboom-demo` program,
//!   which `kaboom demo` runs);
//! - [`clock::TestClock`], [`painter::PlainPainter`], [`notifier::RecordingNotifier`]: the
//!   bot's [`Clock`](kaboom_bot::domain::clock::Clock), [`BoardPainter`](kaboom_bot::service::painter::BoardPainter)
//!   and scheduler [`NoticePlanner`](kaboom_bot::scheduler::NoticePlanner) for tests;
//! - [`temp_db`]: a fresh SQLite database in a temporary directory;
//! - [`discord_scheduler`], [`wait_for_outbox`]: the scheduler writing into the Discord
//!   outbox and its deliverer posting to a fake Discord, as the running bot has them.
#![deny(missing_docs)]

pub mod clock;
pub mod demo;
pub mod driver;
pub mod notifier;
pub mod page;
pub mod painter;

use std::sync::Arc;

use std::time::Duration;

use kaboom_bot::discord::notifier::DiscordNotifier;
use kaboom_bot::discord::outbox::{Deliverer, OutboxHandle};
use kaboom_bot::domain::clock::Clock;
use kaboom_bot::scheduler::{NoticePlanner, Scheduler, SchedulerConfig};
use kaboom_bot::service::Services;
use kaboom_bot::storage::{Db, outbox};
use poise::serenity_prelude as serenity;

/// A fresh database with every migration applied, in a temporary directory that lives as
/// long as the returned guard.
///
/// # Panics
/// When the temporary directory or the database cannot be made: a test cannot go on.
pub async fn temp_db() -> (Db, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("test.db").display());
    (Db::connect(&url).await.expect("open test db"), dir)
}

/// The bot's scheduler over `db`, reading the time from `clock` and planning its notices
/// with `notifier`, with the default configuration ([`SchedulerConfig::default`]) and the
/// bot's own wording: what scheduler tests and the sweep benchmark start from.
pub fn default_scheduler(
    db: Db,
    clock: Arc<dyn Clock>,
    notifier: Arc<dyn NoticePlanner>,
) -> Scheduler {
    Scheduler::new(
        db,
        clock,
        notifier,
        SchedulerConfig::default(),
        kaboom_bot::discord::messages::scheduler_wording(),
    )
}

/// The scheduler as the running bot has it (over `services`' database, on `clock`, with
/// `config`): its notices go into the Discord outbox, and an outbox deliverer over
/// `services`, started here, posts them with `http` (a fake Discord's client). Keep the
/// handle: the deliverer stops when it is dropped.
pub fn discord_scheduler(
    services: &Services,
    clock: Arc<dyn Clock>,
    http: Arc<serenity::Http>,
    config: SchedulerConfig,
) -> (Scheduler, OutboxHandle) {
    let handle = Deliverer::spawn(services.clone(), http);
    let scheduler = Scheduler::new(
        services.db.clone(),
        clock,
        Arc::new(DiscordNotifier::new(services.outbox_waker.clone())),
        config,
        kaboom_bot::discord::messages::scheduler_wording(),
    );
    (scheduler, handle)
}

/// Waits (at most `timeout`) until `db`'s outbox holds no entry still to deliver; `false`
/// at the time limit.
///
/// # Panics
/// When the outbox cannot be read: a test cannot go on.
pub async fn wait_for_outbox(db: &Db, timeout: Duration) -> bool {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        if outbox::pending(db)
            .await
            .expect("read the outbox")
            .is_empty()
        {
            return true;
        }
        if tokio::time::Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
