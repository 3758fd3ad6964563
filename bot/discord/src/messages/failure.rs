//! What a player reads when a command or button failed for a reason that is not a refusal:
//! never the game's state or its actions, which a damaged or no longer
//! replaying game's error carries (its FEN with the carriers, the mover's legal actions
//! with Booms). The details go to the host's log only.

use kaboom_service::ServiceError;
use kaboom_store::StorageError;

/// The answer when a game's stored data does not read or replay.
pub const UNREADABLE_GAME: &str = "This game's data could not be read; the host has been told.";

/// Whether `e` says that stored game data does not read or replay, or that a computation on
/// it panicked (its text may carry the full state: show it to nobody but the host's log).
pub fn is_unreadable(e: &ServiceError) -> bool {
    matches!(
        e,
        ServiceError::Corrupt(_)
            | ServiceError::TaskPanicked(_)
            | ServiceError::Storage(StorageError::Corrupt(_))
    )
}

/// The player's text when Discord kept failing (rate limits, server errors, lost
/// connections) after the bot's retries (`discord::respond`): no HTTP details.
pub const DISCORD_TROUBLE: &str = "Sorry, Discord had trouble answering just now. If your action does not show in the game's thread, try again in a moment.";

/// The player's text for an error that is not a refusal: [`UNREADABLE_GAME`] for damaged
/// game data, [`DISCORD_TROUBLE`] for a Discord error, else `Sorry, that failed: ...`. The
/// caller logs the details.
pub fn failure_text(e: &crate::Error) -> String {
    match e {
        crate::Error::Discord(_) => DISCORD_TROUBLE.to_string(),
        crate::Error::Service(s) if is_unreadable(s) => UNREADABLE_GAME.to_string(),
        crate::Error::Service(s) => failed(&super::service_error(s)),
        other => failed(&other.to_string()),
    }
}

/// `Sorry, that failed: ` and `what`.
pub fn failed(what: &str) -> String {
    format!("Sorry, that failed: {what}")
}
