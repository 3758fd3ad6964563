//! Configuration from the environment and `.env` (dotenvy): see `.env.example`.

use kaboom_store::DEFAULT_DATABASE_URL;

/// What `kaboom serve` needs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The bot token (`DISCORD_TOKEN`, required).
    pub token: String,
    /// The database (`DATABASE_URL`, default `sqlite://kaboom.db`).
    pub database_url: String,
    /// Register commands in this server only, instantly (`DEV_GUILD_ID`, optional).
    pub dev_guild_id: Option<u64>,
    /// Where Discord's REST API is (`DISCORD_API_BASE`, optional): a base URL such as
    /// `http://127.0.0.1:8080` that replaces `https://discord.com` in every request
    /// (serenity's `HttpBuilder::proxy`). For a REST proxy that shares one rate limit
    /// between processes (nirn-proxy) or a fake Discord in tests; the gateway URL then
    /// comes from that server's `GET /gateway/bot`, and serenity's own rate limiter is off
    /// (the server behind the base owns the limits). `None`: Discord itself.
    pub api_base: Option<String>,
    /// The gateway shards this process runs (`SHARD_COUNT`, `SHARD_IDS`); `None`:
    /// one shard, as before.
    pub shards: Option<Shards>,
}

/// Which gateway shards a process runs: shards `first..=last` of `count` (Discord's
/// Gateway "Sharding": a guild's events go to shard `(guild_id >> 22) % count`, DMs to
/// shard 0; sharding is required from 2,500 servers,
/// <https://discord.com/developers/docs/events/gateway#sharding>). Several processes on
/// one PostgreSQL database each run their own range; together they cover `0..count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shards {
    /// The total number of shards (every process gives the same).
    pub count: u32,
    /// This process's first shard id.
    pub first: u32,
    /// This process's last shard id (inclusive).
    pub last: u32,
}

impl Shards {
    /// Reads `SHARD_COUNT` (a positive number) and `SHARD_IDS` (`3`, or an inclusive
    /// range `0-2`; default: every shard). `None` when neither is set.
    ///
    /// # Errors
    /// [`ConfigError::BadShards`] for a count that is not a positive number, ids that are
    /// not a number or a range, a range out of `0..count`, or `SHARD_IDS` without
    /// `SHARD_COUNT`.
    pub fn from_values(
        count: Option<&str>,
        ids: Option<&str>,
    ) -> Result<Option<Shards>, ConfigError> {
        let bad = |why: &str| ConfigError::BadShards(why.to_string());
        let count = match count {
            None => {
                return match ids {
                    None => Ok(None),
                    Some(_) => Err(bad(
                        "SHARD_IDS needs SHARD_COUNT (the total number of shards)",
                    )),
                };
            }
            Some(c) => c
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| bad(&format!("SHARD_COUNT must be a positive number, not '{c}'")))?,
        };
        let (first, last) = match ids.map(str::trim) {
            None => (0, count - 1),
            Some(ids) => {
                let number = |s: &str| {
                    s.trim().parse::<u32>().map_err(|_| {
                        bad(&format!("SHARD_IDS must be a shard id such as 2 or a range such as 0-2, not '{ids}'"))
                    })
                };
                match ids.split_once('-') {
                    Some((a, b)) => (number(a)?, number(b)?),
                    None => (number(ids)?, number(ids)?),
                }
            }
        };
        if first > last || last >= count {
            return Err(bad(&format!(
                "SHARD_IDS {first}-{last} is not within shards 0-{} of SHARD_COUNT {count}",
                count - 1
            )));
        }
        Ok(Some(Shards { count, first, last }))
    }
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
    /// A REST base that is not an http(s) URL.
    #[error(
        "DISCORD_API_BASE must be an http:// or https:// URL such as http://127.0.0.1:8080, not '{0}'"
    )]
    BadApiBase(String),
    /// `SHARD_COUNT` or `SHARD_IDS` do not name shards.
    #[error("{0}")]
    BadShards(String),
    /// A line of `.env` that is not `NAME=value` (dotenvy could not parse it). The line's
    /// text is not repeated: it may hold the token.
    #[error(
        "{path} line {line}: not a NAME=value line{}; fix or remove it (quote values with spaces or #)",
        name.as_deref().map(|n| format!(" (it sets {n})")).unwrap_or_default()
    )]
    EnvFileLine {
        /// The `.env` file.
        path: String,
        /// Its 1-based line number.
        line: usize,
        /// The variable the line seems to set, when it has a `NAME=` start.
        name: Option<String>,
    },
    /// `.env` exists but cannot be read.
    #[error("{path}: cannot be read: {reason}")]
    EnvFileUnreadable {
        /// The `.env` file.
        path: String,
        /// Why, from the operating system.
        reason: String,
    },
}

/// Loads `.env` from the working directory or the nearest parent that has one, as
/// `dotenvy::dotenv` does (variables already in the environment win), but reports a
/// malformed file instead of ignoring it.
///
/// # Errors
/// [`ConfigError::EnvFileLine`] with the 1-based line number of the first line dotenvy
/// cannot parse; [`ConfigError::EnvFileUnreadable`] when the file cannot be read.
pub fn load_dotenv() -> Result<(), ConfigError> {
    let Ok(dir) = std::env::current_dir() else {
        return Ok(());
    };
    let Some(path) = dir
        .ancestors()
        .map(|d| d.join(".env"))
        .find(|p| p.is_file())
    else {
        return Ok(());
    };
    let shown = path.display().to_string();
    match dotenvy::from_path(&path) {
        Ok(()) => Ok(()),
        Err(dotenvy::Error::LineParse(bad, _)) => {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let first = bad.lines().next().unwrap_or_default().trim();
            let line = text
                .lines()
                .position(|l| l.trim() == first)
                .map_or(0, |i| i + 1);
            let name = first
                .trim_start_matches("export ")
                .split_once('=')
                .map(|(n, _)| n.trim().to_string())
                .filter(|n| {
                    !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                });
            Err(ConfigError::EnvFileLine {
                path: shown,
                line,
                name,
            })
        }
        Err(dotenvy::Error::Io(e)) => Err(ConfigError::EnvFileUnreadable {
            path: shown,
            reason: e.to_string(),
        }),
        Err(e) => Err(ConfigError::EnvFileUnreadable {
            path: shown,
            reason: e.to_string(),
        }),
    }
}

impl Config {
    /// Reads `.env` (if present, see [`load_dotenv`]) then the environment.
    ///
    /// # Errors
    /// [`ConfigError`] when `.env` is malformed, the token is missing, `DEV_GUILD_ID` is
    /// not a number or `DISCORD_API_BASE` is not an http(s) URL.
    pub fn from_env() -> Result<Config, ConfigError> {
        load_dotenv()?;
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
        let api_base = match get("DISCORD_API_BASE").filter(|b| !b.trim().is_empty()) {
            None => None,
            Some(base) => {
                let trimmed = base.trim().trim_end_matches('/');
                if !(trimmed.starts_with("http://") || trimmed.starts_with("https://"))
                    || trimmed.contains(char::is_whitespace)
                {
                    return Err(ConfigError::BadApiBase(base));
                }
                Some(trimmed.to_string())
            }
        };
        let shards = Shards::from_values(
            get("SHARD_COUNT")
                .filter(|v| !v.trim().is_empty())
                .as_deref(),
            get("SHARD_IDS").filter(|v| !v.trim().is_empty()).as_deref(),
        )?;
        Ok(Config {
            token,
            database_url,
            dev_guild_id,
            api_base,
            shards,
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
    fn shard_ranges_are_read_and_checked() {
        let read = |c: Option<&str>, i: Option<&str>| Shards::from_values(c, i);
        assert_eq!(read(None, None).unwrap(), None);
        assert_eq!(
            read(Some("3"), None).unwrap(),
            Some(Shards {
                count: 3,
                first: 0,
                last: 2
            })
        );
        assert_eq!(
            read(Some("3"), Some("1")).unwrap(),
            Some(Shards {
                count: 3,
                first: 1,
                last: 1
            })
        );
        assert_eq!(
            read(Some("8"), Some(" 4-7 ")).unwrap(),
            Some(Shards {
                count: 8,
                first: 4,
                last: 7
            })
        );
        for (c, i) in [
            (Some("0"), None),
            (Some("x"), None),
            (Some("3"), Some("3")),
            (Some("3"), Some("2-1")),
            (Some("3"), Some("a-b")),
            (None, Some("1")),
        ] {
            let e = read(c, i).unwrap_err().to_string();
            assert!(e.contains("SHARD_"), "{c:?} {i:?}: {e}");
        }
        let c = Config::from_lookup(lookup(&[
            ("DISCORD_TOKEN", "t"),
            ("SHARD_COUNT", "3"),
            ("SHARD_IDS", "2"),
        ]))
        .unwrap();
        assert_eq!(
            c.shards,
            Some(Shards {
                count: 3,
                first: 2,
                last: 2
            })
        );
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

    #[test]
    fn api_base_is_an_http_url_without_trailing_slash() {
        let config = Config::from_lookup(lookup(&[
            ("DISCORD_TOKEN", "t"),
            ("DISCORD_API_BASE", " http://127.0.0.1:8080/ "),
        ]))
        .unwrap();
        assert_eq!(config.api_base.as_deref(), Some("http://127.0.0.1:8080"));
        let config = Config::from_lookup(lookup(&[("DISCORD_TOKEN", "t")])).unwrap();
        assert_eq!(config.api_base, None);
        let err = Config::from_lookup(lookup(&[
            ("DISCORD_TOKEN", "t"),
            ("DISCORD_API_BASE", "127.0.0.1:8080"),
        ]))
        .unwrap_err();
        assert!(matches!(err, ConfigError::BadApiBase(ref b) if b == "127.0.0.1:8080"));
        assert!(err.to_string().contains("http://127.0.0.1:8080"), "{err}");
    }
}
