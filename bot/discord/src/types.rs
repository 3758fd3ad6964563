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
}

/// The error type of commands (defined with the layer, so that modules `Data` holds can
/// use it too).
pub use super::Error;

/// The poise context.
pub type Context<'a> = poise::Context<'a, Data, Error>;
