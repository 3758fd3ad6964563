//! Commands per player per minute ([`Limit::CommandsPerMinute`]): one player's flood of
//! slash commands, button clicks or move forms is refused with a private "slow down"
//! before it costs the other players anything. Discord limits a bot's own requests, not how
//! often a user may interact with it, so this is the bot's to do.
//!
//! Each rate is a GCRA limiter of [`governor`], keyed by player, reading the time from the
//! bot's [`Clock`] (tests set it): a player may send the server's `n` at once, and one more
//! every `60 / n` seconds after that. A server's chosen rate is read from the database at
//! most once a [`CACHE_TTL`] per process, and at once after `/settings server` changes it
//! here.
//!
//! Typing into a command's suggestions (autocomplete) is counted apart, at
//! [`KEYSTROKES_PER_COMMAND`] times the commands' rate ([`Counted::Keystroke`]): Discord
//! sends one autocomplete interaction for each keystroke, so a player typing a move sends
//! several for one command, and a flood of them (a modified client) is cut off without
//! costing the player their commands.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use governor::clock::Clock as GovernorClock;
use governor::middleware::NoOpMiddleware;
use governor::nanos::Nanos;
use governor::state::keyed::DashMapStateStore;
use governor::{Quota, RateLimiter};
use kaboom_domain::clock::Clock;
use kaboom_domain::ids::{GuildId, UserId};
use kaboom_domain::settings::Limit;
use kaboom_service::{ServiceError, Services};

/// How long a server's chosen rate is used before it is read again (another process may
/// have changed it).
pub const CACHE_TTL: Duration = Duration::from_secs(60);

/// Autocomplete interactions a player may send for each command of their rate: 300 a
/// minute at the default 30 commands, a burst of that many and then five a second, more
/// than anyone types.
pub const KEYSTROKES_PER_COMMAND: u32 = 10;

/// What a check counts.
#[derive(Clone, Copy, Debug, Eq, PartialEq, Hash)]
pub enum Counted {
    /// A slash command, a button click or a submitted form.
    Command,
    /// An autocomplete interaction (one per keystroke in an option with suggestions).
    Keystroke,
}

impl Counted {
    /// How many of these a player may send a minute where `commands_per_minute` applies.
    pub fn per_minute(self, commands_per_minute: u32) -> u32 {
        match self {
            Counted::Command => commands_per_minute,
            Counted::Keystroke => commands_per_minute.saturating_mul(KEYSTROKES_PER_COMMAND),
        }
    }
}

/// Checks between two sweeps of players who have not sent anything for a while (their
/// state is dropped; memory stays bounded by the players active in the last minute).
const SWEEP_EVERY: u64 = 4096;

/// The bot's clock as governor reads time: whole seconds since the Unix epoch.
#[derive(Clone)]
struct BotClock(Arc<dyn Clock>);

impl GovernorClock for BotClock {
    type Instant = Nanos;

    fn now(&self) -> Nanos {
        Nanos::from(Duration::from_secs(
            u64::try_from(self.0.now()).unwrap_or(0),
        ))
    }
}

type PlayerLimiter =
    RateLimiter<UserId, DashMapStateStore<UserId>, BotClock, NoOpMiddleware<Nanos>>;

/// A player sent more than their rate allows.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
pub struct SlowDown {
    /// The rate that applies: commands per minute (for keystrokes,
    /// [`KEYSTROKES_PER_COMMAND`] times it is what was exceeded).
    pub per_minute: u32,
    /// Whole seconds until the next command is accepted (at least 1).
    pub retry_after_secs: u64,
}

/// The limiter of every rate in use, shared by all commands and components.
pub struct CommandLimiter {
    clock: BotClock,
    by_rate: Mutex<HashMap<(Counted, u32), Arc<PlayerLimiter>>>,
    guild_rates: Mutex<HashMap<GuildId, (u32, Instant)>>,
    checks: std::sync::atomic::AtomicU64,
}

impl CommandLimiter {
    /// A limiter reading the time from `clock` (the services' clock).
    pub fn new(clock: Arc<dyn Clock>) -> CommandLimiter {
        CommandLimiter {
            clock: BotClock(clock),
            by_rate: Mutex::new(HashMap::new()),
            guild_rates: Mutex::new(HashMap::new()),
            checks: std::sync::atomic::AtomicU64::new(0),
        }
    }

    /// Counts one command, click or form (or, with [`Counted::Keystroke`], one
    /// autocomplete interaction) of `user` in `guild` (`None`: outside servers), against
    /// the rate that applies there.
    ///
    /// # Errors
    /// [`LimitError::SlowDown`] when the player is over it; [`LimitError::Service`] when
    /// the server's rate cannot be read.
    pub async fn check(
        &self,
        services: &Services,
        counted: Counted,
        user: UserId,
        guild: Option<GuildId>,
    ) -> Result<(), LimitError> {
        let per_minute = self.rate(services, guild).await?;
        let limiter = self.limiter(counted, per_minute);
        if self
            .checks
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            .is_multiple_of(SWEEP_EVERY)
        {
            limiter.retain_recent();
        }
        limiter.check_key(&user).map_err(|not_until| {
            let wait = not_until.wait_time_from(self.clock.now());
            LimitError::SlowDown(SlowDown {
                per_minute,
                retry_after_secs: wait.as_secs().max(1),
            })
        })
    }

    /// Forgets `guild`'s cached rate (after `/settings server` changed it here).
    pub fn forget_guild(&self, guild: GuildId) {
        self.guild_rates
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&guild);
    }

    /// The commands per minute that apply in `guild`.
    async fn rate(&self, services: &Services, guild: Option<GuildId>) -> Result<u32, LimitError> {
        // Outside servers the host's rate applies: nothing to read, nothing to cache.
        let Some(g) = guild else {
            let limits = services.settings().limits(None).await?;
            return Ok(limits.get(Limit::CommandsPerMinute));
        };
        let cached = self
            .guild_rates
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&g)
            .filter(|(_, read)| read.elapsed() < CACHE_TTL)
            .map(|(rate, _)| *rate);
        if let Some(rate) = cached {
            return Ok(rate);
        }
        let rate = services
            .settings()
            .limits(Some(g))
            .await?
            .get(Limit::CommandsPerMinute);
        self.guild_rates
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(g, (rate, Instant::now()));
        Ok(rate)
    }

    /// The keyed limiter of `counted` where `per_minute` commands apply (made on first use).
    fn limiter(&self, counted: Counted, per_minute: u32) -> Arc<PlayerLimiter> {
        let mut by_rate = self
            .by_rate
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        by_rate
            .entry((counted, per_minute))
            .or_insert_with(|| {
                let rate = counted.per_minute(per_minute);
                let quota = Quota::per_minute(NonZeroU32::new(rate).unwrap_or(NonZeroU32::MIN));
                Arc::new(RateLimiter::dashmap_with_clock(quota, self.clock.clone()))
            })
            .clone()
    }
}

/// Why [`CommandLimiter::check`] refused.
#[derive(Debug, thiserror::Error)]
pub enum LimitError {
    /// The player is over the rate.
    #[error("over {} commands a minute: retry after {} s", .0.per_minute, .0.retry_after_secs)]
    SlowDown(SlowDown),
    /// The server's rate could not be read.
    #[error(transparent)]
    Service(#[from] ServiceError),
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicI64, Ordering};

    struct Manual(AtomicI64);
    impl Clock for Manual {
        fn now(&self) -> i64 {
            self.0.load(Ordering::Relaxed)
        }
    }

    /// A player gets the rate at once, then one command every 60/n seconds; another
    /// player is not held up by the first.
    #[test]
    fn a_burst_of_the_rate_then_one_every_sixtieth_of_a_minute() {
        let clock = Arc::new(Manual(AtomicI64::new(1_000_000)));
        let limiter = CommandLimiter::new(clock.clone());
        let per_minute = 30;
        let players = limiter.limiter(Counted::Command, per_minute);
        let alice = UserId(1);
        for _ in 0..30 {
            assert!(players.check_key(&alice).is_ok());
        }
        let refused = players.check_key(&alice).expect_err("the 31st");
        assert_eq!(
            refused.wait_time_from(limiter.clock.now()),
            Duration::from_secs(2)
        );
        assert!(players.check_key(&UserId(2)).is_ok(), "bob is not alice");
        clock.0.fetch_add(2, Ordering::Relaxed);
        assert!(players.check_key(&alice).is_ok());
        assert!(players.check_key(&alice).is_err());
    }

    /// Keystrokes are counted apart from commands, at ten times their rate: a player out
    /// of keystrokes still has their commands, and the reverse.
    #[test]
    fn keystrokes_have_their_own_tenfold_rate() {
        let clock = Arc::new(Manual(AtomicI64::new(1_000_000)));
        let limiter = CommandLimiter::new(clock.clone());
        let keystrokes = limiter.limiter(Counted::Keystroke, 30);
        let commands = limiter.limiter(Counted::Command, 30);
        let alice = UserId(1);
        for _ in 0..300 {
            assert!(keystrokes.check_key(&alice).is_ok());
        }
        let refused = keystrokes.check_key(&alice).expect_err("the 301st");
        assert_eq!(
            refused.wait_time_from(limiter.clock.now()),
            Duration::from_millis(200),
            "one keystroke every 0.2 s after the burst"
        );
        assert!(commands.check_key(&alice).is_ok(), "commands are apart");
        // A server at 300 commands a minute does not share its players' count with a
        // server at 30 whose keystrokes come to 300 a minute.
        assert!(
            limiter
                .limiter(Counted::Command, 300)
                .check_key(&alice)
                .is_ok()
        );
    }
}
