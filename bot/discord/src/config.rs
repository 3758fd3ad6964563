//! Configuration of `kaboom serve`: flags, or the environment variables beside them, read
//! by clap's `env` feature after `.env` is loaded (dotenvy); see `.env.example`.
//!
//! ```
//! use clap::Parser;
//! use kaboom_discord::config::{Config, ServeArgs};
//!
//! #[derive(Parser)]
//! struct Serve {
//!     #[command(flatten)]
//!     args: ServeArgs,
//! }
//!
//! let serve = Serve::try_parse_from([
//!     "kaboom", "--discord-token", "t", "--database-url", "sqlite://x.db", "--shard-count", "3",
//!     "--shard-ids", "1-2", "--scheduler-interval-secs", "30",
//! ])
//! .unwrap();
//! let config = Config::from_args(serve.args).unwrap();
//! assert_eq!(config.database_url, "sqlite://x.db");
//! assert_eq!(config.shards.map(|s| (s.count, s.first, s.last)), Some((3, 1, 2)));
//! assert_eq!(config.scheduler.interval.as_secs(), 30);
//! ```

use std::str::FromStr;
use std::time::Duration;

use kaboom_domain::deadline::{HOUR, SchedulerConfig};
use kaboom_domain::settings::{self, PlayerLimits};
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
    /// The correspondence scheduler's settings (`SCHEDULER_INTERVAL_SECS` and the others of
    /// [`SchedulerArgs`]).
    pub scheduler: SchedulerConfig,
    /// Positions a post-game analysis searches per move (`ANALYSIS_NODES`); `None`: the
    /// engine's default per variant (`kaboom_engine::review::default_nodes`).
    pub analysis_nodes: Option<u64>,
    /// How log lines are written (`LOG_FORMAT`, default [`LogFormat::Text`]).
    pub log_format: LogFormat,
}

/// How `kaboom serve` writes its log lines to standard output (`LOG_FORMAT`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LogFormat {
    /// One human-readable line per event, coloured only when standard output is a terminal
    /// (a journal or a file gets no ANSI escape codes).
    #[default]
    Text,
    /// One JSON object per line (`timestamp`, `level`, `target`, `fields` with `message`),
    /// for hosts who ship logs to a collector; never coloured.
    Json,
}

impl FromStr for LogFormat {
    type Err = String;

    fn from_str(text: &str) -> Result<LogFormat, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "text" => Ok(LogFormat::Text),
            "json" => Ok(LogFormat::Json),
            _ => Err("give text or json".to_string()),
        }
    }
}

fn log_format(text: &str) -> Result<Blankable<LogFormat>, String> {
    blankable(text, LogFormat::from_str)
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

/// A setting's value where a blank one means "not set", as `.env.example` leaves the
/// optional settings (`DEV_GUILD_ID=`). clap hands an environment variable's value over as
/// it is, blank too (clap_builder's `Parser::add_env`), so every optional setting parses
/// through this, with a blank default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Blankable<T>(pub Option<T>);

/// Reads a blank text as "not set" and anything else through `parse`.
fn blankable<T>(
    text: &str,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Result<Blankable<T>, String> {
    match text.trim() {
        "" => Ok(Blankable(None)),
        value => parse(value).map(|v| Blankable(Some(v))),
    }
}

fn any_text(text: &str) -> Result<Blankable<String>, String> {
    blankable(text, |t| Ok(t.to_string()))
}

fn guild_id(text: &str) -> Result<Blankable<u64>, String> {
    blankable(text, |t| {
        t.parse()
            .map_err(|_| "a Discord server id is a number such as 1190000000000000000".to_string())
    })
}

fn api_base(text: &str) -> Result<Blankable<String>, String> {
    blankable(text, |t| {
        let base = t.trim_end_matches('/');
        if (base.starts_with("http://") || base.starts_with("https://"))
            && !base.contains(char::is_whitespace)
        {
            Ok(base.to_string())
        } else {
            Err("give an http:// or https:// URL such as http://127.0.0.1:8080".to_string())
        }
    })
}

fn shard_count(text: &str) -> Result<Blankable<u32>, String> {
    blankable(text, |t| {
        t.parse()
            .ok()
            .filter(|&n: &u32| n > 0)
            .ok_or_else(|| "the number of shards is a whole number above 0".to_string())
    })
}

/// `SHARD_IDS`: one shard id (`2`) or an inclusive range (`0-2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardIds {
    /// The first shard id.
    pub first: u32,
    /// The last shard id (inclusive).
    pub last: u32,
}

impl FromStr for ShardIds {
    type Err = String;

    fn from_str(text: &str) -> Result<ShardIds, String> {
        let bad = || "give a shard id such as 2 or a range such as 0-2".to_string();
        let number = |s: &str| s.trim().parse::<u32>().map_err(|_| bad());
        let (first, last) = match text.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(text)?, number(text)?),
        };
        Ok(ShardIds { first, last })
    }
}

fn shard_ids(text: &str) -> Result<Blankable<ShardIds>, String> {
    blankable(text, ShardIds::from_str)
}

fn whole_above_zero(text: &str) -> Result<Blankable<i64>, String> {
    blankable(text, |t| {
        t.parse()
            .ok()
            .filter(|&n: &i64| n > 0)
            .ok_or_else(|| "give a whole number above 0".to_string())
    })
}

fn nudge_shares(text: &str) -> Result<Blankable<Vec<u8>>, String> {
    blankable(text, settings::parse_shares)
}

/// The flags of `kaboom serve`; each also reads the environment variable in its help (and
/// so `.env`). A blank variable, as `.env.example` leaves the optional ones, means "not
/// set".
#[derive(Clone, Debug, clap::Args)]
pub struct ServeArgs {
    /// The bot token (Developer Portal -> Bot -> Reset Token). Prefer the variable or .env:
    /// a flag shows in the process list.
    #[arg(long = "discord-token", env = "DISCORD_TOKEN", hide_env_values = true, value_name = "DISCORD_TOKEN",
          value_parser = any_text, default_value = "", hide_default_value = true)]
    token: Blankable<String>,
    /// Where games are stored: sqlite://FILE (created if missing) or postgres://... [default:
    /// sqlite://kaboom.db]
    #[arg(long, env = "DATABASE_URL", hide_env_values = true, value_name = "DATABASE_URL", value_parser = any_text,
          default_value = "", hide_default_value = true)]
    database_url: Blankable<String>,
    /// Register the commands in this server only, which takes effect at once.
    #[arg(long, env = "DEV_GUILD_ID", value_name = "DEV_GUILD_ID", value_parser = guild_id,
          default_value = "", hide_default_value = true)]
    dev_guild_id: Blankable<u64>,
    /// Send Discord's REST requests to this base instead of https://discord.com (a REST
    /// proxy, or a fake Discord in tests).
    #[arg(long = "discord-api-base", env = "DISCORD_API_BASE", value_name = "DISCORD_API_BASE", value_parser = api_base,
          default_value = "", hide_default_value = true)]
    api_base: Blankable<String>,
    /// The total number of gateway shards, the same in every process [default: one shard].
    #[arg(long, env = "SHARD_COUNT", value_name = "SHARD_COUNT", value_parser = shard_count,
          default_value = "", hide_default_value = true)]
    shard_count: Blankable<u32>,
    /// The shards this process runs: one id (2) or an inclusive range (0-3) [default: all].
    #[arg(long, env = "SHARD_IDS", value_name = "SHARD_IDS", value_parser = shard_ids,
          default_value = "", hide_default_value = true)]
    shard_ids: Blankable<ShardIds>,
    /// Post-game analysis: positions the engine searches per move [default: about a minute
    /// of one core for a 40-move game, per variant].
    #[arg(long, env = "ANALYSIS_NODES", value_name = "ANALYSIS_NODES", value_parser = whole_above_zero,
          default_value = "", hide_default_value = true)]
    analysis_nodes: Blankable<i64>,
    /// How log lines are written: text (coloured only on a terminal) or json (one object
    /// per line) [default: text].
    #[arg(long, env = "LOG_FORMAT", value_name = "LOG_FORMAT", value_parser = log_format,
          default_value = "", hide_default_value = true)]
    log_format: Blankable<LogFormat>,
    /// The correspondence scheduler's settings.
    #[command(flatten)]
    scheduler: SchedulerArgs,
}

/// The scheduler's flags (and their environment variables), each with the default of
/// [`SchedulerConfig::default`] when not set.
#[derive(Clone, Debug, clap::Args)]
pub struct SchedulerArgs {
    /// How often deadlines, reminders and expiries are checked, in seconds [default: 60].
    #[arg(long, env = "SCHEDULER_INTERVAL_SECS", value_name = "SCHEDULER_INTERVAL_SECS",
          value_parser = whole_above_zero, default_value = "", hide_default_value = true)]
    scheduler_interval_secs: Blankable<i64>,
    /// An unanswered challenge expires after this many hours [default: 168].
    #[arg(long, env = "CHALLENGE_EXPIRY_HOURS", value_name = "CHALLENGE_EXPIRY_HOURS",
          value_parser = whole_above_zero, default_value = "", hide_default_value = true)]
    challenge_expiry_hours: Blankable<i64>,
    /// A Beirut or Nuke game whose carriers are not all chosen is aborted after this many
    /// hours [default: 48].
    #[arg(long, env = "DESIGNATION_TIMEOUT_HOURS", value_name = "DESIGNATION_TIMEOUT_HOURS",
          value_parser = whole_above_zero, default_value = "", hide_default_value = true)]
    designation_timeout_hours: Blankable<i64>,
    /// Timed games, in servers without their own settings: remind the player to move at
    /// these percentages of their time [default: 50,80].
    #[arg(long, env = "NUDGE_SHARES", value_name = "NUDGE_SHARES",
          value_parser = nudge_shares, default_value = "", hide_default_value = true)]
    nudge_shares: Blankable<Vec<u8>>,
    /// Untimed games, in servers without their own settings: the first reminder after this
    /// many hours [default: 48].
    #[arg(long, env = "IDLE_NUDGE_HOURS", value_name = "IDLE_NUDGE_HOURS",
          value_parser = whole_above_zero, default_value = "", hide_default_value = true)]
    idle_nudge_hours: Blankable<i64>,
    /// Untimed games: then a reminder every this many hours [default: 168].
    #[arg(long, env = "IDLE_REPEAT_HOURS", value_name = "IDLE_REPEAT_HOURS",
          value_parser = whole_above_zero, default_value = "", hide_default_value = true)]
    idle_repeat_hours: Blankable<i64>,
    /// Practice games against the bot one player may have at once, in servers that did not
    /// choose their own (`/settings server practice_games`) and outside servers [default: 3].
    #[arg(long, env = "PRACTICE_GAMES", value_name = "PRACTICE_GAMES",
          value_parser = whole_above_zero, default_value = "", hide_default_value = true)]
    practice_games: Blankable<i64>,
    /// Open challenges one player may have waiting at once per server (and outside
    /// servers), where the server did not choose [default: 10].
    #[arg(long, env = "OPEN_CHALLENGES", value_name = "OPEN_CHALLENGES",
          value_parser = whole_above_zero, default_value = "", hide_default_value = true)]
    open_challenges: Blankable<i64>,
    /// Commands, clicks and move forms one player may send a minute, where the server did
    /// not choose [default: 30]. A load test from one machine raises it.
    #[arg(long, env = "COMMANDS_PER_MINUTE", value_name = "COMMANDS_PER_MINUTE",
          value_parser = whole_above_zero, default_value = "", hide_default_value = true)]
    commands_per_minute: Blankable<i64>,
}

impl SchedulerArgs {
    /// The scheduler configuration: [`SchedulerConfig::default`] with what is set.
    pub fn config(&self) -> SchedulerConfig {
        let mut c = SchedulerConfig::default();
        if let Some(secs) = self.scheduler_interval_secs.0 {
            c.interval = Duration::from_secs(secs.unsigned_abs());
        }
        if let Some(hours) = self.challenge_expiry_hours.0 {
            c.challenge_ttl_secs = hours.saturating_mul(HOUR);
        }
        if let Some(hours) = self.designation_timeout_hours.0 {
            c.designation_timeout_secs = hours.saturating_mul(HOUR);
        }
        if let Some(shares) = &self.nudge_shares.0 {
            c.defaults.nudge_shares.clone_from(shares);
        }
        if let Some(hours) = self.idle_nudge_hours.0 {
            c.defaults.idle_first_secs = hours.saturating_mul(HOUR);
        }
        if let Some(hours) = self.idle_repeat_hours.0 {
            c.defaults.idle_repeat_secs = hours.saturating_mul(HOUR);
        }
        let count = |n: i64| u32::try_from(n).unwrap_or(u32::MAX);
        c.defaults.limits = PlayerLimits {
            practice_games: self.practice_games.0.map(count),
            open_challenges: self.open_challenges.0.map(count),
            commands_per_minute: self.commands_per_minute.0.map(count),
        };
        c
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
    /// `SHARD_IDS` without `SHARD_COUNT`, or ids outside `0..SHARD_COUNT`.
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
    /// [`Config::database_url`] fit for a log line: a password in it
    /// (`postgres://user:secret@host/db`) is shown as `***`.
    pub fn database_url_for_logs(&self) -> String {
        let url = &self.database_url;
        let Some(scheme_end) = url.find("://").map(|i| i + 3) else {
            return url.clone();
        };
        let authority_end = url[scheme_end..]
            .find(['/', '?'])
            .map_or(url.len(), |i| scheme_end + i);
        let authority = &url[scheme_end..authority_end];
        match (authority.rfind('@'), authority.find(':')) {
            (Some(at), Some(colon)) if colon < at => format!(
                "{}{}:***{}",
                &url[..scheme_end],
                &authority[..colon],
                &url[scheme_end + at..]
            ),
            _ => url.clone(),
        }
    }

    /// The configuration from parsed flags (and their variables).
    ///
    /// # Errors
    /// [`ConfigError::MissingToken`] without a token; [`ConfigError::BadShards`] for
    /// `SHARD_IDS` without `SHARD_COUNT` or outside `0..SHARD_COUNT`.
    pub fn from_args(args: ServeArgs) -> Result<Config, ConfigError> {
        let token = args.token.0.ok_or(ConfigError::MissingToken)?;
        let shards = match (args.shard_count.0, args.shard_ids.0) {
            (None, None) => None,
            (None, Some(_)) => {
                return Err(ConfigError::BadShards(
                    "SHARD_IDS needs SHARD_COUNT (the total number of shards)".to_string(),
                ));
            }
            (Some(count), None) => Some(Shards {
                count,
                first: 0,
                last: count - 1,
            }),
            (Some(count), Some(ShardIds { first, last })) => {
                if first > last || last >= count {
                    return Err(ConfigError::BadShards(format!(
                        "SHARD_IDS {first}-{last} is not within shards 0-{} of SHARD_COUNT {count}",
                        count - 1
                    )));
                }
                Some(Shards { count, first, last })
            }
        };
        Ok(Config {
            token,
            database_url: args
                .database_url
                .0
                .unwrap_or_else(|| DEFAULT_DATABASE_URL.to_string()),
            dev_guild_id: args.dev_guild_id.0,
            api_base: args.api_base.0,
            shards,
            scheduler: args.scheduler.config(),
            analysis_nodes: args.analysis_nodes.0.and_then(|n| u64::try_from(n).ok()),
            log_format: args.log_format.0.unwrap_or_default(),
        })
    }
}

/// The crates whose `debug` and `trace` lines carry whole Discord requests and answers:
/// serenity logs each request's body (`payload_json`, with ephemeral replies such as a
/// player's hidden carriers, and attachments as byte arrays), and the HTTP and WebSocket
/// layers under it their frames.
pub const WIRE_CRATES: [&str; 7] = [
    "serenity",
    "h2",
    "hyper",
    "hyper_util",
    "reqwest",
    "tungstenite",
    "tokio_tungstenite",
];

/// The log filter for `RUST_LOG` (`None`: unset or empty): `info` by default, and
/// whatever the host asks for, except that each of [`WIRE_CRATES`] stays at `info` unless
/// the host names it, and serenity's HTTP client (`serenity::http`) at `warn` unless the
/// host names serenity (`RUST_LOG=debug` debugs Kaboom, not Discord's wire; `RUST_LOG=debug,
/// serenity=trace` shows serenity's requests, secrets and all: docs/hosting.md, "Logs").
/// A directive more specific than the global level wins in `tracing_subscriber`'s
/// `EnvFilter`, so `debug,serenity=info` keeps serenity at `info`.
pub fn log_filter(rust_log: Option<&str>) -> String {
    let asked = rust_log.map(str::trim).filter(|s| !s.is_empty());
    let Some(asked) = asked else {
        return "info,serenity::http=warn".to_string();
    };
    let named = |krate: &str| {
        asked.split(',').any(|directive| {
            let target = directive.split(['=', '[']).next().unwrap_or("").trim();
            target == krate || target.starts_with(&format!("{krate}::"))
        })
    };
    let mut filter = asked.to_string();
    for krate in WIRE_CRATES {
        if !named(krate) {
            filter.push_str(&format!(",{krate}=info"));
            if krate == "serenity" {
                // serenity's HTTP client opens an `info` span per request whose fields are
                // the whole request, body and attachments included: recorded (formatted as
                // text) when the span opens, and printed with any line logged inside it. Its
                // module logs nothing at `info` itself, so `warn` loses no line and drops
                // the spans: no formatting of every board as a byte list (about a tenth of
                // the bot's CPU under load, docs/PERFORMANCE.md "Load"), no private
                // answer in a warning's context.
                filter.push_str(",serenity::http=warn");
            }
        }
    }
    filter
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// `kaboom serve`'s flags alone. Every test passes `--discord-token` (blank or not) so that a
    /// DISCORD_TOKEN in the developer's environment changes nothing.
    #[derive(Parser)]
    struct Serve {
        #[command(flatten)]
        args: ServeArgs,
    }

    /// A PostgreSQL password never reaches the log; URLs without one are shown whole.
    #[test]
    fn the_database_url_in_logs_hides_its_password() {
        let shown = |url: &str| {
            parse(&["--discord-token", "t", "--database-url", url])
                .unwrap()
                .database_url_for_logs()
        };
        assert_eq!(
            shown("postgres://kaboom:s3cret@db.example:5432/kaboom?sslmode=require"),
            "postgres://kaboom:***@db.example:5432/kaboom?sslmode=require"
        );
        assert_eq!(
            shown("postgres://kaboom@127.0.0.1/kaboom"),
            "postgres://kaboom@127.0.0.1/kaboom"
        );
        assert_eq!(shown("sqlite://kaboom.db"), "sqlite://kaboom.db");
    }

    /// LOG_FORMAT: text or json, any case; blank is the default, text; anything else is
    /// refused with what is expected.
    #[test]
    fn log_format_reads_text_or_json() {
        let format = |value: &str| {
            parse(&["--discord-token", "t", "--log-format", value]).map(|c| c.log_format)
        };
        assert_eq!(format("json"), Ok(LogFormat::Json));
        assert_eq!(format("JSON"), Ok(LogFormat::Json));
        assert_eq!(format("text"), Ok(LogFormat::Text));
        assert_eq!(format(""), Ok(LogFormat::Text));
        assert_eq!(
            invalid(&["--discord-token", "t", "--log-format", "yaml"]),
            "error: invalid value 'yaml' for '--log-format <LOG_FORMAT>': give text or json"
        );
    }

    fn parse(flags: &[&str]) -> Result<Config, String> {
        let argv = std::iter::once("kaboom").chain(flags.iter().copied());
        let serve = Serve::try_parse_from(argv).map_err(|e| e.kind().to_string())?;
        Config::from_args(serve.args).map_err(|e| e.to_string())
    }

    fn invalid(flags: &[&str]) -> String {
        let argv = std::iter::once("kaboom").chain(flags.iter().copied());
        match Serve::try_parse_from(argv) {
            Ok(_) => panic!("{flags:?} parsed"),
            Err(e) => e.to_string().lines().next().unwrap_or_default().to_string(),
        }
    }

    #[test]
    fn shard_ranges_are_read_and_checked() {
        let shards = |flags: &[&str]| {
            let mut all = vec!["--discord-token", "t"];
            all.extend_from_slice(flags);
            parse(&all).map(|c| c.shards.map(|s| (s.count, s.first, s.last)))
        };
        assert_eq!(shards(&[]), Ok(None));
        assert_eq!(shards(&["--shard-count", "", "--shard-ids", ""]), Ok(None));
        assert_eq!(shards(&["--shard-count", "3"]), Ok(Some((3, 0, 2))));
        assert_eq!(
            shards(&["--shard-count", "3", "--shard-ids", "1"]),
            Ok(Some((3, 1, 1)))
        );
        assert_eq!(
            shards(&["--shard-count", "8", "--shard-ids", " 4-7 "]),
            Ok(Some((8, 4, 7)))
        );
        assert_eq!(
            shards(&["--shard-count", "3", "--shard-ids", "3"]),
            Err("SHARD_IDS 3-3 is not within shards 0-2 of SHARD_COUNT 3".to_string())
        );
        assert_eq!(
            shards(&["--shard-count", "3", "--shard-ids", "2-1"]),
            Err("SHARD_IDS 2-1 is not within shards 0-2 of SHARD_COUNT 3".to_string())
        );
        assert_eq!(
            shards(&["--shard-ids", "1"]),
            Err("SHARD_IDS needs SHARD_COUNT (the total number of shards)".to_string())
        );
        assert_eq!(
            invalid(&["--shard-count", "0"]),
            "error: invalid value '0' for '--shard-count <SHARD_COUNT>': the number of shards is a whole number above 0"
        );
        assert_eq!(
            invalid(&["--shard-count", "3", "--shard-ids", "a-b"]),
            "error: invalid value 'a-b' for '--shard-ids <SHARD_IDS>': give a shard id such as 2 or a range such as 0-2"
        );
    }

    #[test]
    fn missing_token_points_to_env_example_and_demo() {
        assert_eq!(
            parse(&["--discord-token", ""]).unwrap_err(),
            "DISCORD_TOKEN is not set: put it in the environment or in a .env file (see .env.example), or try `kaboom demo` to play without Discord"
        );
    }

    #[test]
    fn defaults_and_overrides() {
        let c = parse(&[
            "--discord-token",
            "t",
            "--database-url",
            "",
            "--dev-guild-id",
            "",
        ])
        .unwrap();
        assert_eq!(c.token, "t");
        assert_eq!(c.database_url, "sqlite://kaboom.db");
        assert_eq!(c.dev_guild_id, None);
        assert_eq!(c.scheduler, SchedulerConfig::default());
        let c = parse(&[
            "--discord-token",
            "t",
            "--database-url",
            "sqlite://x.db",
            "--dev-guild-id",
            "42",
        ])
        .unwrap();
        assert_eq!(
            (c.database_url.as_str(), c.dev_guild_id),
            ("sqlite://x.db", Some(42))
        );
        assert_eq!(
            invalid(&["--discord-token", "t", "--dev-guild-id", "x"]),
            "error: invalid value 'x' for '--dev-guild-id <DEV_GUILD_ID>': a Discord server id is a number such as 1190000000000000000"
        );
    }

    #[test]
    fn api_base_is_an_http_url_without_trailing_slash() {
        let c = parse(&[
            "--discord-token",
            "t",
            "--discord-api-base",
            " http://127.0.0.1:8080/ ",
        ])
        .unwrap();
        assert_eq!(c.api_base.as_deref(), Some("http://127.0.0.1:8080"));
        let c = parse(&["--discord-token", "t", "--discord-api-base", ""]).unwrap();
        assert_eq!(c.api_base, None);
        assert_eq!(
            invalid(&[
                "--discord-token",
                "t",
                "--discord-api-base",
                "127.0.0.1:8080"
            ]),
            "error: invalid value '127.0.0.1:8080' for '--discord-api-base <DISCORD_API_BASE>': give an http:// or https:// URL such as http://127.0.0.1:8080"
        );
    }

    #[test]
    fn scheduler_settings_override_the_defaults() {
        let c = parse(&[
            "--discord-token",
            "t",
            "--scheduler-interval-secs",
            "5",
            "--nudge-shares",
            "30,60,90",
            "--challenge-expiry-hours",
            "24",
            "--designation-timeout-hours",
            "12",
            "--idle-nudge-hours",
            " 72 ",
            "--idle-repeat-hours",
            "24",
        ])
        .unwrap()
        .scheduler;
        assert_eq!(c.interval.as_secs(), 5);
        assert_eq!(c.defaults.nudge_shares, vec![30, 60, 90]);
        assert_eq!(c.challenge_ttl_secs, 24 * HOUR);
        assert_eq!(c.designation_timeout_secs, 12 * HOUR);
        assert_eq!(
            (c.defaults.idle_first_secs, c.defaults.idle_repeat_secs),
            (72 * HOUR, 24 * HOUR)
        );
        assert_eq!(
            invalid(&["--discord-token", "t", "--idle-repeat-hours", "0"]),
            "error: invalid value '0' for '--idle-repeat-hours <IDLE_REPEAT_HOURS>': give a whole number above 0"
        );
        assert_eq!(
            invalid(&["--discord-token", "t", "--nudge-shares", "50,150"]),
            "error: invalid value '50,150' for '--nudge-shares <NUDGE_SHARES>': '150' is not a share of the time: give percentages from 1 to 99, e.g. 50,80."
        );
        assert_eq!(
            invalid(&["--discord-token", "t", "--scheduler-interval-secs", "soon"]),
            "error: invalid value 'soon' for '--scheduler-interval-secs <SCHEDULER_INTERVAL_SECS>': give a whole number above 0"
        );
    }

    #[test]
    fn the_log_filter_keeps_discords_wire_at_info_unless_named() {
        assert_eq!(log_filter(None), "info,serenity::http=warn");
        assert_eq!(log_filter(Some("  ")), "info,serenity::http=warn");
        assert_eq!(
            log_filter(Some("debug")),
            "debug,serenity=info,serenity::http=warn,h2=info,hyper=info,hyper_util=info,reqwest=info,tungstenite=info,tokio_tungstenite=info"
        );
        assert_eq!(
            log_filter(Some(
                "info,kaboom_discord=debug,serenity::http=trace,hyper=debug"
            )),
            "info,kaboom_discord=debug,serenity::http=trace,hyper=debug,h2=info,hyper_util=info,reqwest=info,tungstenite=info,tokio_tungstenite=info"
        );
    }
}
