//! What the scheduler tells people, and the [`Notifier`] that delivers it (Discord in the
//! bot, a recorder in tests).

use crate::domain::ids::{ChannelId, GameId, MessageId, UserId};
use crate::storage::schedule::OutboxEntry;
use crate::storage::settings::NudgeVia;

const GAME_ENDED: &str = "game-ended";
const CHALLENGE_EXPIRED: &str = "challenge-expired";

/// One message the scheduler wants delivered, already worded.
#[derive(Clone, Eq, PartialEq, Debug)]
pub enum Notice {
    /// A reminder to the player to move.
    Nudge {
        /// The game.
        game_id: GameId,
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
    /// game's thread.
    GameEnded {
        /// The game.
        game_id: GameId,
        /// The game's thread (or channel).
        channel_id: ChannelId,
        /// The game's latest board message, whose in-game buttons (Resign, Offer draw) are
        /// replaced by the finished game's (My view).
        board_message_id: Option<MessageId>,
        /// The text (with mentions of both players).
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
    /// The outbox form of an announcement (game ended, challenge expired); `None` for a
    /// nudge (nudges are at most once, never in the outbox).
    pub fn to_outbox(&self) -> Option<OutboxEntry> {
        match self {
            Notice::Nudge { .. } => None,
            Notice::GameEnded {
                game_id,
                channel_id,
                board_message_id,
                text,
            } => Some(OutboxEntry {
                kind: GAME_ENDED.into(),
                subject_id: game_id.get(),
                channel_id: *channel_id,
                message_id: *board_message_id,
                text: text.clone(),
            }),
            Notice::ChallengeExpired {
                challenge_id,
                channel_id,
                message_id,
                text,
            } => Some(OutboxEntry {
                kind: CHALLENGE_EXPIRED.into(),
                subject_id: *challenge_id,
                channel_id: *channel_id,
                message_id: *message_id,
                text: text.clone(),
            }),
        }
    }

    /// The announcement stored as `entry`; `None` for an unknown kind.
    pub fn from_outbox(entry: OutboxEntry) -> Option<Notice> {
        match entry.kind.as_str() {
            GAME_ENDED => Some(Notice::GameEnded {
                game_id: GameId(entry.subject_id),
                channel_id: entry.channel_id,
                board_message_id: entry.message_id,
                text: entry.text,
            }),
            CHALLENGE_EXPIRED => Some(Notice::ChallengeExpired {
                challenge_id: entry.subject_id,
                channel_id: entry.channel_id,
                message_id: entry.message_id,
                text: entry.text,
            }),
            _ => None,
        }
    }

    /// The game or challenge id it is about.
    pub fn subject(&self) -> i64 {
        match self {
            Notice::Nudge { game_id, .. } | Notice::GameEnded { game_id, .. } => game_id.get(),
            Notice::ChallengeExpired { challenge_id, .. } => *challenge_id,
        }
    }
}

/// How a notice was delivered.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub enum Delivery {
    /// By direct message.
    Dm,
    /// In the game's thread or the challenge's channel.
    Channel,
    /// A DM was refused; a mention in the thread was posted instead.
    FellBackToThread,
    /// Nothing could be delivered (logged; a nudge is not retried, an announcement is
    /// retried from the outbox at the next sweeps, up to 5 attempts).
    Failed,
}

/// Delivers notices. Called after the decision is committed; a failure is logged (nudges
/// are not retried; announcements are, from the outbox).
#[async_trait::async_trait]
pub trait Notifier: Send + Sync {
    /// Delivers `notice`.
    async fn deliver(&self, notice: &Notice) -> Delivery;
}
