//! What the scheduler tells people ([`Notice`], already worded), and the
//! [`NoticePlanner`] that turns each notice into Discord outbox entries inside the
//! transaction that decided it (the one outbox; the Discord layer implements it,
//! a recorder stands in for it in tests).

use kaboom_domain::ids::{ChannelId, GameId, MessageId, UserId};
use kaboom_store::outbox::NewEffect;
use kaboom_store::settings::NudgeVia;

/// One message the scheduler wants delivered, already worded.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum Notice {
    /// A reminder to the player to move.
    Nudge {
        /// The game.
        game_id: GameId,
        /// The ply the reminder is about: it is dropped undelivered once the game has moved
        /// on (or ended) before it could be posted.
        ply: i64,
        /// The player to move.
        user_id: UserId,
        /// Where they want it (a DM falls back to a thread mention).
        via: NudgeVia,
        /// The game's thread (or the challenge channel when it has none).
        channel_id: ChannelId,
        /// The text, without a mention (the thread fallback adds one).
        text: String,
    },
    /// A game ended by the scheduler (time forfeit, designation timeout): posted in the
    /// game's thread, whose latest board then gets the finished game's buttons.
    GameEnded {
        /// The game.
        game_id: GameId,
        /// The text (with mentions of both players).
        text: String,
    },
    /// A player's vacation ran out by itself: posted in the thread of each of
    /// their games in play, as `/vacation end` does when they end it early.
    VacationOver {
        /// The game.
        game_id: GameId,
        /// The text.
        text: String,
    },
    /// An open challenge expired.
    ChallengeExpired {
        /// The challenge.
        challenge_id: i64,
        /// Its channel.
        channel_id: ChannelId,
        /// Its message, to be marked expired (its buttons removed).
        message_id: Option<MessageId>,
        /// The line to add.
        text: String,
    },
}

impl Notice {
    /// The game or challenge id it is about.
    pub fn subject(&self) -> i64 {
        match self {
            Notice::Nudge { game_id, .. }
            | Notice::GameEnded { game_id, .. }
            | Notice::VacationOver { game_id, .. } => game_id.get(),
            Notice::ChallengeExpired { challenge_id, .. } => *challenge_id,
        }
    }
}

/// Turns the scheduler's notices into outbox entries (`storage::outbox`), written by the
/// write transaction that decides them, so that they are posted exactly once by the
/// outbox's deliverer even across crashes. Implemented by the Discord layer
/// (`discord::notifier::DiscordNotifier`); tests record the notices instead.
pub trait NoticePlanner: Send + Sync {
    /// The entries that post `notice`, in delivery order.
    fn plan(&self, notice: &Notice) -> Vec<NewEffect>;

    /// The transaction that wrote the entries of the notices planned since the last call
    /// has committed: wake whoever delivers them.
    fn committed(&self);
}
