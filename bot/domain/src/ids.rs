//! Ids as types: a game's id and the Discord snowflakes the bot keeps (users, channels and
//! threads, servers, messages), so that one is not passed for another.
//!
//! Each converts to and from its plain number (`From`, [`GameId::get`] and the like) and
//! prints as that number. Storage keeps each as a signed 64-bit integer: `i64::from(id)`
//! to write it, `TryFrom<i64>` to read it back (snowflakes fit in 63 bits, so they are
//! stored as the same bits: a stored snowflake is never negative).

use std::fmt;

/// A game's id (the `games` row id; in component custom ids and the `/move game` option).
#[derive(
    Copy,
    Clone,
    Eq,
    PartialEq,
    Ord,
    PartialOrd,
    Hash,
    Debug,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(transparent)]
pub struct GameId(pub i64);

impl GameId {
    /// The plain number.
    pub fn get(self) -> i64 {
        self.0
    }
}

impl From<i64> for GameId {
    fn from(id: i64) -> GameId {
        GameId(id)
    }
}

impl From<GameId> for i64 {
    fn from(id: GameId) -> i64 {
        id.0
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::str::FromStr for GameId {
    type Err = std::num::ParseIntError;
    fn from_str(s: &str) -> Result<GameId, Self::Err> {
        s.parse().map(GameId)
    }
}

/// A stored number that is no Discord snowflake (a negative one): the error of the
/// snowflakes' `TryFrom<i64>`.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct NotASnowflake(pub i64);

impl fmt::Display for NotASnowflake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a Discord snowflake", self.0)
    }
}

impl std::error::Error for NotASnowflake {}

macro_rules! snowflake {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(
            Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Debug, Default,
            serde::Serialize, serde::Deserialize,
        )]
        #[serde(transparent)]
        pub struct $name(pub u64);

        impl $name {
            /// The plain snowflake.
            pub fn get(self) -> u64 {
                self.0
            }
        }

        impl From<u64> for $name {
            fn from(id: u64) -> $name {
                $name(id)
            }
        }

        impl From<$name> for u64 {
            fn from(id: $name) -> u64 {
                id.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        impl std::str::FromStr for $name {
            type Err = std::num::ParseIntError;
            fn from_str(s: &str) -> Result<$name, Self::Err> {
                s.parse().map($name)
            }
        }

        // Snowflakes fit in 63 bits: stored as the same bits.
        impl From<$name> for i64 {
            fn from(id: $name) -> i64 {
                id.0 as i64
            }
        }

        impl TryFrom<i64> for $name {
            type Error = NotASnowflake;
            /// The id stored as `v`: [`NotASnowflake`] for a negative `v` (no snowflake
            /// sets the 64th bit).
            fn try_from(v: i64) -> Result<$name, NotASnowflake> {
                u64::try_from(v).map($name).map_err(|_| NotASnowflake(v))
            }
        }
    };
}

snowflake!(
    /// A Discord user's id.
    UserId
);
snowflake!(
    /// A Discord channel's id (a text channel, a DM or a game's thread).
    ChannelId
);
snowflake!(
    /// A Discord server's id.
    GuildId
);
snowflake!(
    /// A Discord message's id.
    MessageId
);
snowflake!(
    /// A Discord role's id (a server's roles: `/settings server league_organisers`).
    RoleId
);
