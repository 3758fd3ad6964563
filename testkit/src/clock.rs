//! A clock for tests: it stands still until told to move.

use std::sync::atomic::{AtomicI64, Ordering};

use kaboom_domain::clock::Clock;

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
