//! Time, behind a trait so tests can set it: deadlines are stored in Unix seconds.

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
