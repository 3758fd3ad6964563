//! Configuration from the environment and `.env` (dotenvy): see `.env.example`.

use crate::storage::DEFAULT_DATABASE_URL;

/// What `kaboom serve` needs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The bot token (`DISCORD_TOKEN`, required).
    pub token: String,
    /// The database (`DATABASE_URL`, default `sqlite://kaboom.db`).
    pub database_url: String,
    /// Register commands in this server only, instantly (`DEV_GUILD_ID`, optional).
    pub dev_guild_id: Option<u64>,
}

/// A configuration problem, as one line for the user.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// No token.
    #[error(
        "DISCORD_TOKEN is not set: put it in the environment or in a .env file (see .env.example), or try `kaboom demo` to play without Discord"
    )]
    MissingToken,
    /// A malformed server id.
    #[error("DEV_GUILD_ID must be a Discord server id (a number), not '{0}'")]
    BadGuild(String),
}

impl Config {
    /// Reads `.env` (if present) then the environment.
    ///
    /// # Errors
    /// [`ConfigError`] when the token is missing or `DEV_GUILD_ID` is not a number.
    pub fn from_env() -> Result<Config, ConfigError> {
        let _ = dotenvy::dotenv();
        Config::from_lookup(|k| std::env::var(k).ok())
    }

    /// Reads the configuration through `get` (tests pass a map).
    ///
    /// # Errors
    /// As [`Config::from_env`].
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        let token = get("DISCORD_TOKEN")
            .filter(|t| !t.trim().is_empty())
            .ok_or(ConfigError::MissingToken)?;
        let database_url = get("DATABASE_URL")
            .filter(|u| !u.trim().is_empty())
            .unwrap_or_else(|| DEFAULT_DATABASE_URL.to_string());
        let dev_guild_id = match get("DEV_GUILD_ID").filter(|g| !g.trim().is_empty()) {
            None => None,
            Some(g) => Some(g.trim().parse().map_err(|_| ConfigError::BadGuild(g))?),
        };
        Ok(Config {
            token,
            database_url,
            dev_guild_id,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn lookup(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn missing_token_points_to_env_example_and_demo() {
        let e = Config::from_lookup(lookup(&[])).unwrap_err().to_string();
        assert!(
            e.contains(".env.example") && e.contains("kaboom demo"),
            "{e}"
        );
        assert!(!e.contains('\n'));
    }

    #[test]
    fn defaults_and_overrides() {
        let c = Config::from_lookup(lookup(&[("DISCORD_TOKEN", "t")])).unwrap();
        assert_eq!(c.database_url, "sqlite://kaboom.db");
        assert_eq!(c.dev_guild_id, None);
        let c = Config::from_lookup(lookup(&[
            ("DISCORD_TOKEN", "t"),
            ("DATABASE_URL", "sqlite://x.db"),
            ("DEV_GUILD_ID", "42"),
        ]))
        .unwrap();
        assert_eq!(
            (c.database_url.as_str(), c.dev_guild_id),
            ("sqlite://x.db", Some(42))
        );
        assert!(
            Config::from_lookup(lookup(&[("DISCORD_TOKEN", "t"), ("DEV_GUILD_ID", "x")])).is_err()
        );
    }
}
