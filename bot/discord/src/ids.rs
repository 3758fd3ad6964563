//! Discord's ids to the domain's ([`kaboom_domain::ids`]) and back, at the edge of the
//! Discord layer.

use poise::serenity_prelude as serenity;

use kaboom_domain::ids::{ChannelId, GuildId, MessageId, RoleId, UserId};

/// A serenity id as the domain's.
pub(crate) trait Domain {
    /// The domain's id type.
    type Id;
    /// The same id.
    fn domain(self) -> Self::Id;
}

/// A domain id as serenity's (the domain crate knows nothing of serenity, and Rust's orphan
/// rule keeps a `From` between two foreign types out of this crate).
pub(crate) trait Serenity {
    /// serenity's id type.
    type Id;
    /// The same id.
    fn serenity(self) -> Self::Id;
}

macro_rules! both_ways {
    ($($id:ident),*) => {$(
        impl Domain for serenity::$id {
            type Id = $id;
            fn domain(self) -> $id {
                $id(self.get())
            }
        }

        impl Serenity for $id {
            type Id = serenity::$id;
            fn serenity(self) -> serenity::$id {
                serenity::$id::new(self.get())
            }
        }
    )*};
}

both_ways!(UserId, ChannelId, GuildId, MessageId, RoleId);
