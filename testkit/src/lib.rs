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
//!   and scheduler [`Notifier`](kaboom_bot::scheduler::Notifier) for tests;
//! - [`temp_db`]: a fresh SQLite database in a temporary directory.
#![deny(missing_docs)]

pub mod clock;
pub mod demo;
pub mod driver;
pub mod notifier;
pub mod painter;

use std::sync::Arc;

use kaboom_bot::domain::clock::Clock;
use kaboom_bot::scheduler::{Notifier, Scheduler, SchedulerConfig};
use kaboom_bot::storage::Db;

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

/// The bot's scheduler over `db`, reading the time from `clock` and delivering through
/// `notifier`, with the default configuration ([`SchedulerConfig::default`]) and the bot's
/// own wording: what scheduler tests and the sweep benchmark start from.
pub fn default_scheduler(db: Db, clock: Arc<dyn Clock>, notifier: Arc<dyn Notifier>) -> Scheduler {
    Scheduler::new(
        db,
        clock,
        notifier,
        SchedulerConfig::default(),
        kaboom_bot::discord::messages::scheduler_wording(),
    )
}
