//! # kaboom-discord
//!
//! The Discord layer: the poise framework and its wiring ([`bot`]), slash [`commands`],
//! [`components`] (buttons and menus), [`flows`] (what both do after a change), [`outbox`] (posting every change's
//! effects exactly once), [`board`] (the board picture), [`respond`] (answering interactions through Discord's faults), the
//! scheduler's notice planner ([`notifier`], into the outbox), and every text players and hosts read
//! ([`messages`]). The top library layer: the `kaboom` binary wires it up.
#![deny(missing_docs)]

pub mod board;
pub mod bot;
pub mod commands;
pub mod components;
pub mod config;
pub mod flows;
pub(crate) mod ids;
pub mod limiter;
pub mod members;
pub mod messages;
pub mod notifier;
pub mod outbox;
pub mod place;
pub mod preview;
pub mod puzzle;
pub mod respond;
pub mod types;

/// The error of commands, components, the outbox and the bot's start: one enum for the
/// Discord edge, with a variant per layer it calls into. Handlers match on it
/// (`messages::failure::failure_text`, `commands::on_error`) to pick the player's text; the
/// `Display` text of every variant is the wrapped error's own, for the host's log and the
/// outbox's `last_error`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A service refused the action ([`kaboom_service::ServiceError::Refused`], answered
    /// with its reason) or failed (a database failure, damaged data, a panicked
    /// computation).
    #[error(transparent)]
    Service(#[from] kaboom_service::ServiceError),
    /// The database could not be opened at start-up.
    #[error(transparent)]
    Storage(#[from] kaboom_store::StorageError),
    /// A Discord request failed (after `respond`'s retries, where it retries).
    #[error(transparent)]
    Discord(#[from] poise::serenity_prelude::Error),
    /// A board picture or a replay was not drawn.
    #[error(transparent)]
    Paint(#[from] kaboom_service::painter::PaintError),
    /// A standings picture was not drawn.
    #[error(transparent)]
    Render(#[from] kaboom_renderer::RenderError),
    /// An outbox entry's payload does not read as an `outbox::Effect`.
    #[error(transparent)]
    Payload(#[from] serde_json::Error),
    /// Something this layer expects is not there (an outbox entry of a game that names
    /// none, a game gone): a bug or a damaged database. The text says what.
    #[error("{0}")]
    Missing(&'static str),
    /// The bot could not start or stopped: the text says why (for the host).
    #[error("{0}")]
    Stopped(String),
    /// A player sent more commands than the rate allows (answered privately with
    /// [`messages::slow_down`]).
    #[error("too many commands: {0:?}")]
    SlowDown(limiter::SlowDown),
    /// No player of a game played by DM could be sent its post: Discord refused every DM
    /// (closed DMs, no server shared). What they missed is kept for their next
    /// interaction, so the outbox counts the entry as delivered, with no message, rather
    /// than hold the game's later posts behind it.
    #[error("no player of the game could be sent this post by DM; kept for their next interaction")]
    NobodyReached,
}

impl From<limiter::LimitError> for Error {
    /// [`Error::SlowDown`] for a player over the rate, [`Error::Service`] otherwise.
    fn from(e: limiter::LimitError) -> Error {
        match e {
            limiter::LimitError::SlowDown(slow) => Error::SlowDown(slow),
            limiter::LimitError::Service(e) => Error::Service(e),
        }
    }
}
