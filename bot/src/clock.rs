//! Time, behind a trait so tests can set it: deadlines are stored in Unix seconds.

use std::sync::atomic::{AtomicI64, Ordering};

/// A source of the current time.
pub trait Clock: Send + Sync + 'static {
    /// Now, in Unix seconds (UTC).
    fn now(&self) -> i64;
}

/// The system clock.
#[derive(Copy, Clone, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64)
    }
}

/// A clock that stands still until told otherwise (tests).
#[derive(Debug)]
pub struct TestClock(AtomicI64);

impl TestClock {
    /// A clock showing `now` (Unix seconds).
    pub fn new(now: i64) -> TestClock {
        TestClock(AtomicI64::new(now))
    }

    /// Moves the clock forward by `seconds`.
    pub fn advance(&self, seconds: i64) {
        self.0.fetch_add(seconds, Ordering::SeqCst);
    }
}

impl Clock for TestClock {
    fn now(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}
