//! The types every command shares (ferrisbot style): [`Data`], [`Error`], [`Context`].

use crate::service::Services;

/// What every command and event handler can reach.
pub struct Data {
    /// The games service.
    pub services: Services,
    /// The Discord outbox's deliverer (issue 16).
    pub outbox: crate::discord::outbox::OutboxHandle,
}

/// The error type of commands.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// The poise context.
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// Discord's ids to the domain's ([`crate::domain::ids`]) and back, at the edge of the
/// Discord layer.
pub(crate) mod ids {
    use poise::serenity_prelude as serenity;

    use crate::domain::ids::{ChannelId, GuildId, MessageId, UserId};

    /// A serenity id as the domain's.
    pub(crate) trait Domain {
        /// The domain's id type.
        type Id;
        /// The same id.
        fn domain(self) -> Self::Id;
    }

    macro_rules! both_ways {
        ($($id:ident),*) => {$(
            impl Domain for serenity::$id {
                type Id = $id;
                fn domain(self) -> $id {
                    $id(self.get())
                }
            }

            impl From<$id> for serenity::$id {
                fn from(id: $id) -> serenity::$id {
                    serenity::$id::new(id.get())
                }
            }
        )*};
    }

    both_ways!(UserId, ChannelId, GuildId, MessageId);
}
