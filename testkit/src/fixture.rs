//! The one fixture of the bot's integration tests: the real bot on a fresh database, at a
//! fixed time on a [`TestClock`], driven through a [`FakeDiscord`], with the `/challenge`
//! choice numbers the tests send.
//!
//! ```no_run
//! # async fn example() -> Result<(), kaboom_testkit::demo::DemoError> {
//! use kaboom_testkit::fixture::{ATOMIC, TestBot};
//!
//! let bot = TestBot::start().await?;
//! let game = bot.start_game(ATOMIC).await?;
//! bot.play(&bot.alice, game.thread.get(), "e4").await?;
//! # Ok(())
//! # }
//! ```

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use fake_discord::FakeDiscord;
use kaboom_service::Services;
use kaboom_service::painter::RendererPainter;
use kaboom_store::Db;

use crate::TempDb;
use crate::clock::TestClock;
use crate::demo::DemoError;
use crate::driver::{Driver, ServicesFor};

/// The time every [`TestBot`] starts at: 2025-11-21 04:40:00 UTC, in Unix seconds.
pub const T0: i64 = 1_763_700_000;

/// `/challenge variant:` choice number of Atomic (the order of
/// `kaboom_discord::commands::challenge::VariantChoice`; [`variant_choice`] checks it).
pub const ATOMIC: i64 = 0;
/// `/challenge variant:` choice number of Beirut.
pub const BEIRUT: i64 = 1;
/// `/challenge variant:` choice number of Nuke.
pub const NUKE: i64 = 2;
/// `/challenge variant:` choice number of Bomberman Chess.
pub const BOMBERMAN: i64 = 3;
/// `/challenge variant:` choice number of Bombalot.
pub const BOMBALOT: i64 = 4;

/// The `/challenge variant:` choice number that picks `variant`, as Discord sends it (the
/// choice's index in the command's registered list).
///
/// # Panics
/// When the command offers no choice for `variant` (a test cannot go on).
pub fn variant_choice(variant: kaboom_rules::Variant) -> i64 {
    use kaboom_discord::commands::challenge::VariantChoice;
    use poise::ChoiceParameter;
    (0..)
        .map_while(VariantChoice::from_index)
        .position(|choice| kaboom_rules::Variant::from(choice) == variant)
        .and_then(|index| i64::try_from(index).ok())
        .unwrap_or_else(|| panic!("/challenge offers no choice for {variant}"))
}

/// The bot under test: a [`Driver`] (which it dereferences to) over a fresh [`TempDb`]
/// (SQLite, or PostgreSQL in a [`crate::dbtest!`]'s PostgreSQL case), its services reading
/// the time from [`TestBot::clock`], which starts at [`T0`].
pub struct TestBot {
    /// The fake Discord, the running bot and the simulated users.
    pub driver: Driver,
    /// The bot's clock; advancing it moves deadlines closer.
    pub clock: Arc<TestClock>,
    /// The database's guard: removed when the bot is dropped (the bot's connection is
    /// [`Driver::db`]).
    pub database: TempDb,
}

impl TestBot {
    /// Starts the bot with the renderer's painter (real board images).
    ///
    /// # Errors
    /// [`DemoError`] when the fake or the bot does not start.
    pub async fn start() -> Result<TestBot, DemoError> {
        TestBot::start_with(|db, clock| Services::new(db, clock, Arc::new(RendererPainter))).await
    }

    /// Starts the bot with the services `make` builds over the database and the clock
    /// (another painter, a scheduler configuration); a restart builds them the same way.
    ///
    /// # Errors
    /// As [`TestBot::start`].
    pub async fn start_with(
        make: impl Fn(Db, Arc<TestClock>) -> Services + Send + Sync + 'static,
    ) -> Result<TestBot, DemoError> {
        TestBot::start_on(FakeDiscord::start().await?, make).await
    }

    /// Starts the bot with the renderer's painter on a fake Discord of `guilds` servers,
    /// the bot a member of each ([`FakeDiscord::start_with_guilds`]; its first server is
    /// [`FakeDiscord::guild_id`]).
    ///
    /// # Errors
    /// As [`TestBot::start`].
    pub async fn start_in_guilds(guilds: usize) -> Result<TestBot, DemoError> {
        TestBot::start_on(
            FakeDiscord::start_with_guilds(0, guilds).await?,
            |db, clock| Services::new(db, clock, Arc::new(RendererPainter)),
        )
        .await
    }

    /// Starts the bot on `fake` with the services `make` builds (see
    /// [`TestBot::start_with`]).
    ///
    /// # Errors
    /// As [`TestBot::start`].
    pub async fn start_on(
        fake: FakeDiscord,
        make: impl Fn(Db, Arc<TestClock>) -> Services + Send + Sync + 'static,
    ) -> Result<TestBot, DemoError> {
        TestBot::start_on_database(fake, TempDb::new().await, T0, make).await
    }

    /// Starts the bot on `fake` over `db` as it is (a database made earlier, such as an
    /// upgrade fixture loaded with [`crate::load_sql_dump`]; the bot applies the
    /// migrations it lacks, as `kaboom serve` does), its clock at `now` (Unix seconds),
    /// with the services `make` builds (see [`TestBot::start_with`]).
    ///
    /// # Errors
    /// As [`TestBot::start`]; a migration the database refuses is a
    /// [`DemoError`] too.
    pub async fn start_on_database(
        fake: FakeDiscord,
        db: TempDb,
        now: i64,
        make: impl Fn(Db, Arc<TestClock>) -> Services + Send + Sync + 'static,
    ) -> Result<TestBot, DemoError> {
        let clock = Arc::new(TestClock::new(now));
        let services_for: ServicesFor = {
            let clock = clock.clone();
            Arc::new(move |database| make(database, clock.clone()))
        };
        let driver = Driver::start_with(fake, db.url(), services_for).await?;
        Ok(TestBot {
            driver,
            clock,
            database: db,
        })
    }

    /// Stops the bot ([`Driver::stop`]), then removes its database. A test that ends without
    /// it leaves the bot running until the runtime shuts down, after its database is gone:
    /// on PostgreSQL its tasks then hold the runtime's shutdown for up to about 40 seconds.
    pub async fn stop(self) {
        let TestBot {
            driver, database, ..
        } = self;
        driver.stop().await;
        drop(database);
    }

    /// The database's URL (for a second connection or a `kaboom serve` process).
    pub fn url(&self) -> &str {
        self.database.url()
    }
}

impl Deref for TestBot {
    type Target = Driver;

    fn deref(&self) -> &Driver {
        &self.driver
    }
}

impl DerefMut for TestBot {
    fn deref_mut(&mut self) -> &mut Driver {
        &mut self.driver
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kaboom_rules::Variant;

    #[test]
    fn choice_numbers_follow_the_registered_choices() {
        assert_eq!(
            [
                Variant::Atomic,
                Variant::Beirut,
                Variant::Nuke,
                Variant::Bomberman,
                Variant::Bombalot
            ]
            .map(variant_choice),
            [ATOMIC, BEIRUT, NUKE, BOMBERMAN, BOMBALOT]
        );
    }
}
