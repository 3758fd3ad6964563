//! Ids as types: a game's id and the Discord snowflakes the bot keeps (users, channels and
//! threads, servers, messages), so that one is not passed for another.
//!
//! Each converts to and from its plain number (`From`, [`GameId::get`] and the like),
//! prints as that number, and is stored as an SQL `INTEGER` on SQLite and a `BIGINT` on PostgreSQL (snowflakes fit in
//! 63 bits: the same bits, read back as `u64`).

use std::fmt;

use sqlx::encode::IsNull;
use sqlx::error::BoxDynError;
use sqlx::postgres::{PgArgumentBuffer, PgTypeInfo, PgValueRef, Postgres};
use sqlx::sqlite::{Sqlite, SqliteArgumentValue, SqliteTypeInfo, SqliteValueRef};
use sqlx::{Decode, Encode, Type};

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
    sqlx::Type,
    serde::Serialize,
    serde::Deserialize,
)]
#[sqlx(transparent)]
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

        impl Type<Sqlite> for $name {
            fn type_info() -> SqliteTypeInfo {
                <i64 as Type<Sqlite>>::type_info()
            }
            fn compatible(ty: &SqliteTypeInfo) -> bool {
                <i64 as Type<Sqlite>>::compatible(ty)
            }
        }

        impl<'q> Encode<'q, Sqlite> for $name {
            fn encode_by_ref(
                &self,
                buf: &mut Vec<SqliteArgumentValue<'q>>,
            ) -> Result<IsNull, BoxDynError> {
                // Snowflakes fit in 63 bits; stored as the same bits.
                <i64 as Encode<'q, Sqlite>>::encode_by_ref(&(self.0 as i64), buf)
            }
        }

        impl<'r> Decode<'r, Sqlite> for $name {
            fn decode(value: SqliteValueRef<'r>) -> Result<$name, BoxDynError> {
                Ok($name(<i64 as Decode<'r, Sqlite>>::decode(value)? as u64))
            }
        }

        // PostgreSQL: a `BIGINT` (int8), as on SQLite.
        impl Type<Postgres> for $name {
            fn type_info() -> PgTypeInfo {
                <i64 as Type<Postgres>>::type_info()
            }
            fn compatible(ty: &PgTypeInfo) -> bool {
                <i64 as Type<Postgres>>::compatible(ty)
            }
        }

        impl Encode<'_, Postgres> for $name {
            fn encode_by_ref(&self, buf: &mut PgArgumentBuffer) -> Result<IsNull, BoxDynError> {
                <i64 as Encode<'_, Postgres>>::encode_by_ref(&(self.0 as i64), buf)
            }
        }

        impl<'r> Decode<'r, Postgres> for $name {
            fn decode(value: PgValueRef<'r>) -> Result<$name, BoxDynError> {
                Ok($name(<i64 as Decode<'r, Postgres>>::decode(value)? as u64))
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
