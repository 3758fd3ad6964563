//! The scheduler's [`NoticePlanner`] in the running bot: each notice becomes an entry of
//! the one Discord outbox (`discord::outbox`), written by the transaction that
//! decided it and posted by the outbox's deliverer, exactly once:
//!
//! - a nudge ([`Effect::Nudge`]): by DM when the player wants it, falling back to a mention
//!   in the game's thread when Discord refuses the DM (error 50007, any 4xx); the game's
//!   thread is unarchived first, so the link in the DM leads to a thread where commands
//!   work, and the text names `/move game:<id>` as the way to move from anywhere;
//! - a game the scheduler ended ([`Effect::GameEnded`]): announced in its thread (which the
//!   post reopens), its latest board then gets the finished game's buttons;
//! - an expired challenge ([`Effect::ChallengeClosed`]): its message gets the expiry line
//!   and loses its buttons; without a stored message the line is posted in the channel.

use crate::outbox::Effect;
use kaboom_service::outbox::OutboxWaker;
use kaboom_service::scheduler::notice::{Notice, NoticePlanner};
use kaboom_store::outbox::NewEffect;
use kaboom_store::settings::NudgeVia;

/// Plans the scheduler's notices into the outbox and wakes its deliverer.
#[derive(Clone, Debug)]
pub struct DiscordNotifier {
    waker: OutboxWaker,
}

impl DiscordNotifier {
    /// A planner waking the deliverer through `waker` (the bot services'
    /// [`kaboom_service::Services::outbox_waker`]).
    pub fn new(waker: OutboxWaker) -> DiscordNotifier {
        DiscordNotifier { waker }
    }
}

impl NoticePlanner for DiscordNotifier {
    fn plan(&self, notice: &Notice) -> Vec<NewEffect> {
        let effect = match notice {
            Notice::Nudge {
                game_id,
                ply,
                user_id,
                via,
                text,
                ..
            } => Effect::Nudge {
                user: *user_id,
                dm: *via == NudgeVia::Dm,
                ply: *ply,
                text: text.clone(),
            }
            .for_game(*game_id),
            Notice::GameEnded { game_id, text } => {
                // The announcement, then the finished game's replay.
                return vec![
                    Effect::GameEnded { text: text.clone() }.for_game(*game_id),
                    Effect::ReplayGif { ply: -1 }.for_game(*game_id),
                ];
            }
            Notice::VacationOver { game_id, text } => Effect::Announcement {
                text: text.clone(),
                pings: Vec::new(),
                draw_buttons: false,
            }
            .for_game(*game_id),
            Notice::ChallengeExpired {
                challenge_id,
                channel_id,
                message_id,
                text,
            } => Effect::ChallengeClosed {
                channel_id: *channel_id,
                message_id: *message_id,
                content: None,
                line: text.clone(),
            }
            .for_challenge(*challenge_id),
        };
        vec![effect]
    }

    fn committed(&self) {
        self.waker.wake();
    }
}
