//! The `user_settings` and `guild_settings` tables: how a player wants to be
//! nudged, and a server's settings (nudge defaults, league organisers, per-player limits). A missing row means
//! "the defaults".

use super::sql::{On, query};

use super::{Db, StorageError, parse_stored};
use kaboom_domain::ids::{GuildId, RoleId, UserId};

pub use kaboom_domain::settings::{
    GuildSettings, Limit, NudgeVia, PlayerLimits, UserSettings, format_shares, parse_shares,
};

/// A stored nudge channel (`dm` or `thread`).
fn parse_via(s: &str) -> Result<NudgeVia, StorageError> {
    parse_stored("nudge channel", s)
}

/// `user`'s settings (the defaults if they never chose).
///
/// # Errors
/// [`StorageError`] on a database failure or an unreadable row.
pub async fn user(db: &Db, user: UserId) -> Result<UserSettings, StorageError> {
    let row: Option<(bool, String)> =
        query("SELECT nudges, nudge_via FROM user_settings WHERE user_id = $1")
            .bind(user)
            .fetch_optional(db)
            .await?;
    match row {
        None => Ok(UserSettings::default()),
        Some((nudges, via)) => Ok(UserSettings {
            nudges,
            via: parse_via(&via)?,
        }),
    }
}

/// A player's settings from the columns of a joined query (`None`, `None`: no row, the
/// defaults).
///
/// # Errors
/// [`StorageError::Corrupt`] for an unknown nudge channel or half a row.
pub fn user_from_columns(
    nudges: Option<bool>,
    via: Option<String>,
) -> Result<UserSettings, StorageError> {
    match (nudges, via) {
        (None, None) => Ok(UserSettings::default()),
        (Some(nudges), Some(via)) => Ok(UserSettings {
            nudges,
            via: parse_via(&via)?,
        }),
        _ => Err(StorageError::Corrupt("half a user_settings row".into())),
    }
}

/// Stores `user`'s settings.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn put_user(
    db: &Db,
    user: UserId,
    s: UserSettings,
    now: i64,
) -> Result<(), StorageError> {
    query(
        "INSERT INTO user_settings (user_id, nudges, nudge_via, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (user_id) DO UPDATE SET nudges = excluded.nudges,
            nudge_via = excluded.nudge_via, updated_at = excluded.updated_at",
    )
    .bind(user)
    .bind(s.nudges)
    .bind(s.via.name())
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

/// A `guild_settings` row as [`GUILD`] reads it: [`GuildSettings`] once its shares are read.
#[derive(sqlx::FromRow)]
struct StoredGuild {
    nudge_shares: String,
    idle_first_secs: i64,
    idle_repeat_secs: i64,
    league_role_id: Option<i64>,
    practice_games: Option<i64>,
    open_challenges: Option<i64>,
    commands_per_minute: Option<i64>,
}

/// A stored limit: `None` (the default) or a count.
fn read_limit(stored: Option<i64>) -> Result<Option<u32>, StorageError> {
    stored
        .map(|n| u32::try_from(n).map_err(|e| StorageError::Corrupt(format!("limit {n}: {e}"))))
        .transpose()
}

fn read_guild(row: Option<StoredGuild>) -> Result<Option<GuildSettings>, StorageError> {
    row.map(|r| {
        Ok(GuildSettings {
            nudge_shares: parse_shares(&r.nudge_shares).map_err(StorageError::Corrupt)?,
            idle_first_secs: r.idle_first_secs,
            idle_repeat_secs: r.idle_repeat_secs,
            league_organisers: r
                .league_role_id
                .map(RoleId::try_from)
                .transpose()
                .map_err(|e| StorageError::Corrupt(e.to_string()))?,
            limits: PlayerLimits {
                practice_games: read_limit(r.practice_games)?,
                open_challenges: read_limit(r.open_challenges)?,
                commands_per_minute: read_limit(r.commands_per_minute)?,
            },
        })
    })
    .transpose()
}

/// The query of [`guild`] (for `EXPLAIN QUERY PLAN` in the benchmark).
pub const GUILD: &str = "SELECT nudge_shares, idle_first_secs, idle_repeat_secs, league_role_id,
    practice_games, open_challenges, commands_per_minute FROM guild_settings WHERE guild_id = $1";

/// The server's stored settings, if an admin set any, on the pool or inside a transaction.
///
/// # Errors
/// [`StorageError`] on a database failure or an unreadable row.
pub async fn guild<'a>(
    on: impl Into<On<'a>>,
    guild: GuildId,
) -> Result<Option<GuildSettings>, StorageError> {
    read_guild(query(GUILD).bind(guild).fetch_optional(on).await?)
}

/// Stores the server's settings, and makes the scheduler reconsider the server's unfinished
/// games (their next due time depends on the thresholds).
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn put_guild(
    db: &Db,
    guild: GuildId,
    s: &GuildSettings,
    now: i64,
) -> Result<(), StorageError> {
    let mut tx = db.begin_write().await?;
    query(
        "INSERT INTO guild_settings (guild_id, nudge_shares, idle_first_secs, idle_repeat_secs,
            league_role_id, practice_games, open_challenges, commands_per_minute, updated_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (guild_id) DO UPDATE SET nudge_shares = excluded.nudge_shares,
            idle_first_secs = excluded.idle_first_secs,
            idle_repeat_secs = excluded.idle_repeat_secs,
            league_role_id = excluded.league_role_id,
            practice_games = excluded.practice_games,
            open_challenges = excluded.open_challenges,
            commands_per_minute = excluded.commands_per_minute, updated_at = excluded.updated_at",
    )
    .bind(guild)
    .bind(format_shares(&s.nudge_shares))
    .bind(s.idle_first_secs)
    .bind(s.idle_repeat_secs)
    .bind(s.league_organisers)
    .bind(s.limits.practice_games.map(i64::from))
    .bind(s.limits.open_challenges.map(i64::from))
    .bind(s.limits.commands_per_minute.map(i64::from))
    .bind(now)
    .execute(&mut tx)
    .await?;
    query(
        "UPDATE games SET next_due_at = $1 WHERE guild_id = $2 AND state <> 'finished'
            AND (next_due_at IS NULL OR next_due_at > $3)",
    )
    .bind(now)
    .bind(guild)
    .bind(now)
    .execute(&mut tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// `user`'s explosion preview choice (`always` if they never chose).
///
/// # Errors
/// [`StorageError`] on a database failure or an unknown stored value.
pub async fn preview_mode(
    db: &Db,
    user: UserId,
) -> Result<kaboom_domain::settings::PreviewMode, StorageError> {
    let mode: Option<(String,)> = query("SELECT mode FROM preview_settings WHERE user_id = $1")
        .bind(user)
        .fetch_optional(db)
        .await?;
    match mode {
        None => Ok(kaboom_domain::settings::PreviewMode::default()),
        Some((m,)) => kaboom_domain::settings::PreviewMode::parse(&m)
            .ok_or_else(|| StorageError::Corrupt(format!("preview mode '{m}'"))),
    }
}

/// Stores `user`'s explosion preview choice.
///
/// # Errors
/// [`StorageError`] on a database failure.
pub async fn put_preview_mode(
    db: &Db,
    user: UserId,
    mode: kaboom_domain::settings::PreviewMode,
    now: i64,
) -> Result<(), StorageError> {
    query(
        "INSERT INTO preview_settings (user_id, mode, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (user_id) DO UPDATE SET mode = excluded.mode, updated_at = excluded.updated_at",
    )
    .bind(user)
    .bind(mode.name())
    .bind(now)
    .execute(db)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_parse_sorted_and_checked() {
        assert_eq!(parse_shares("80, 50%,50").unwrap(), vec![50, 80]);
        assert!(parse_shares("0").unwrap_err().contains("1 to 99"));
        assert!(parse_shares("100").is_err());
        assert!(parse_shares("").is_err());
        assert_eq!(format_shares(&[50, 80]), "50,80");
    }
}
