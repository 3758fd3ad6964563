//! The types every command shares (ferrisbot style): [`Data`], [`Error`], [`Context`].

use kaboom_service::Services;

/// What every command and event handler can reach.
pub struct Data {
    /// The games service.
    pub services: Services,
    /// The Discord outbox's deliverer.
    pub outbox: crate::outbox::OutboxHandle,
    /// The bot's own user, which takes the practice opponent's seat.
    pub engine: kaboom_service::engine::EnginePlayer,
    /// Commands per player per minute.
    pub limiter: crate::limiter::CommandLimiter,
    /// The practice engine's and the analyses' workers, which end with the bot.
    pub workers: Workers,
}

/// The bot's background workers (the practice engine's, the post-game analyses'). They
/// end when the bot that started them is gone (its framework, and with it this, dropped),
/// as the outbox's deliverer does: a bot stopped and started again within one process
/// (the tests' restarts, the soak's kills) would otherwise leave a pair of workers per
/// start sweeping a closed database forever, each holding its services and their Discord
/// client's connections.
pub struct Workers(pub Vec<tokio::task::JoinHandle<()>>);

impl Drop for Workers {
    /// Stops every worker (at its next await; a transaction it had open rolls back).
    fn drop(&mut self) {
        for worker in &self.0 {
            worker.abort();
        }
    }
}

/// The error type of commands (defined with the layer, so that modules `Data` holds can
/// use it too).
pub use super::Error;

/// The poise context.
pub type Context<'a> = poise::Context<'a, Data, Error>;
