//! Nudge settings: how a player wants to be reminded, and a server's settings (reminder
//! defaults, league organisers, per-player limits).
//! Stored by the store crate (`kaboom_store::settings`); read by the deadline policy.

use crate::ids::RoleId;

/// Where a player's nudges go; stored as its name ([`NudgeVia::name`], and `FromStr` back).
#[derive(Copy, Clone, Eq, PartialEq, Debug, strum::EnumString, strum::IntoStaticStr)]
#[strum(serialize_all = "lowercase")]
pub enum NudgeVia {
    /// A direct message with a link to the game's thread (a mention in the thread if the
    /// DM fails).
    Dm,
    /// A mention in the game's thread.
    Thread,
}

impl NudgeVia {
    /// Stored form: `dm` or `thread`.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// A player's notification choices.
#[derive(Copy, Clone, Eq, PartialEq, Debug)]
pub struct UserSettings {
    /// Whether the bot reminds them at all.
    pub nudges: bool,
    /// Where reminders go.
    pub via: NudgeVia,
}

impl Default for UserSettings {
    /// Nudges on, by DM.
    fn default() -> UserSettings {
        UserSettings {
            nudges: true,
            via: NudgeVia::Dm,
        }
    }
}

/// A server's settings (`/settings server`): its reminder thresholds and who may run leagues.
#[derive(Clone, Eq, PartialEq, Debug)]
pub struct GuildSettings {
    /// Shares of the time per move (percent, 1-99, ascending) at which the player to move
    /// is reminded.
    pub nudge_shares: Vec<u8>,
    /// Untimed games: first reminder after this many seconds without a move.
    pub idle_first_secs: i64,
    /// Untimed games: then again every this many seconds.
    pub idle_repeat_secs: i64,
    /// The role whose members may create and manage leagues, besides the members with the
    /// Manage Server permission; `None`: those members only.
    pub league_organisers: Option<RoleId>,
    /// What one player may do at once or per minute in the server.
    pub limits: PlayerLimits,
}

/// A per-player limit a server may set (`/settings server`), for what Discord itself does
/// not limit: each protects the other players from one player's flood (the bot's one
/// engine, the channel's challenge messages, the bot's answers). Outside servers, and in a
/// server that never set it, the [`Limit::default_value`] applies.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
pub enum Limit {
    /// Practice games against the bot a player may have unfinished at once: the engine
    /// thinks for one game at a time, shared by everyone.
    PracticeGames,
    /// Open challenges (not seeks) a player may have waiting at once in the server: each is
    /// a public message with buttons.
    OpenChallenges,
    /// Commands, button clicks and move forms a player may send per minute (typing into a
    /// command's suggestions not counted).
    CommandsPerMinute,
}

impl Limit {
    /// Every limit, in the order `/settings server` shows them.
    pub const ALL: [Limit; 3] = [
        Limit::PracticeGames,
        Limit::OpenChallenges,
        Limit::CommandsPerMinute,
    ];

    /// The value where none is set: 3 practice games, 10 open challenges, 30 commands per
    /// minute (a correspondence player sends a few a minute at most; a script hundreds).
    pub fn default_value(self) -> u32 {
        match self {
            Limit::PracticeGames => 3,
            Limit::OpenChallenges => 10,
            Limit::CommandsPerMinute => 30,
        }
    }

    /// The values a server may choose: 1-50 practice games, 1-25 open challenges, 5-120
    /// commands per minute.
    pub fn allowed(self) -> std::ops::RangeInclusive<u32> {
        match self {
            Limit::PracticeGames => 1..=50,
            Limit::OpenChallenges => 1..=25,
            Limit::CommandsPerMinute => 5..=120,
        }
    }

    /// The `/settings server` option and stored column name, e.g. `practice_games`.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// A server's per-player limits: the values it chose, `None` for each it left at its
/// default.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct PlayerLimits {
    /// [`Limit::PracticeGames`], if chosen.
    pub practice_games: Option<u32>,
    /// [`Limit::OpenChallenges`], if chosen.
    pub open_challenges: Option<u32>,
    /// [`Limit::CommandsPerMinute`], if chosen.
    pub commands_per_minute: Option<u32>,
}

impl PlayerLimits {
    /// The chosen value of `limit`, if any.
    pub fn chosen(&self, limit: Limit) -> Option<u32> {
        match limit {
            Limit::PracticeGames => self.practice_games,
            Limit::OpenChallenges => self.open_challenges,
            Limit::CommandsPerMinute => self.commands_per_minute,
        }
    }

    /// These limits, with each one not chosen taken from `fallback` (a server's own
    /// choices over the host's defaults).
    pub fn or(self, fallback: PlayerLimits) -> PlayerLimits {
        PlayerLimits {
            practice_games: self.practice_games.or(fallback.practice_games),
            open_challenges: self.open_challenges.or(fallback.open_challenges),
            commands_per_minute: self.commands_per_minute.or(fallback.commands_per_minute),
        }
    }

    /// The value of `limit` that applies: the chosen one, else its default.
    pub fn get(&self, limit: Limit) -> u32 {
        self.chosen(limit).unwrap_or_else(|| limit.default_value())
    }

    /// Chooses `value` for `limit` (`None`: back to the default).
    ///
    /// # Errors
    /// A sentence saying which values are allowed when `value` is outside
    /// [`Limit::allowed`].
    pub fn set(&mut self, limit: Limit, value: Option<u32>) -> Result<(), String> {
        if let Some(v) = value {
            let allowed = limit.allowed();
            if !allowed.contains(&v) {
                return Err(format!(
                    "{} must be from {} to {}, not {v}.",
                    limit.name(),
                    allowed.start(),
                    allowed.end()
                ));
            }
        }
        let slot = match limit {
            Limit::PracticeGames => &mut self.practice_games,
            Limit::OpenChallenges => &mut self.open_challenges,
            Limit::CommandsPerMinute => &mut self.commands_per_minute,
        };
        *slot = value;
        Ok(())
    }
}

/// `50,80` -> `[50, 80]`: percentages 1-99, sorted, duplicates removed.
///
/// # Errors
/// A sentence saying what is wrong and what would be right.
pub fn parse_shares(text: &str) -> Result<Vec<u8>, String> {
    let mut shares = Vec::new();
    for part in text.split([',', ' ']).filter(|p| !p.trim().is_empty()) {
        let p = part.trim().trim_end_matches('%');
        match p.parse::<u8>() {
            Ok(v) if (1..=99).contains(&v) => shares.push(v),
            _ => {
                return Err(format!(
                    "'{part}' is not a share of the time: give percentages from 1 to 99, e.g. 50,80."
                ));
            }
        }
    }
    if shares.is_empty() {
        return Err("Give at least one percentage, e.g. 50,80.".into());
    }
    shares.sort_unstable();
    shares.dedup();
    Ok(shares)
}

/// `[50, 80]` -> `50,80`.
pub fn format_shares(shares: &[u8]) -> String {
    shares
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// When a player sees an explosion preview before an action is played; stored as its name
/// ([`PreviewMode::name`], [`PreviewMode::parse`]).
#[derive(Copy, Clone, Eq, PartialEq, Debug, Default, strum::EnumString, strum::IntoStaticStr)]
pub enum PreviewMode {
    /// Before every action that would remove pieces in the player's first
    /// [`PREVIEW_GAMES`] finished games of a variant, then only when asked (the default:
    /// a player who knows the game is not asked to confirm every capture).
    #[default]
    #[strum(serialize = "first-games")]
    FirstGames,
    /// Before every action that would remove pieces, and when asked.
    #[strum(serialize = "always")]
    Always,
    /// Only when asked (`/move ... preview:True`).
    #[strum(serialize = "asked")]
    WhenAsked,
}

/// How many finished games of a variant [`PreviewMode::FirstGames`] shows previews for.
pub const PREVIEW_GAMES: i64 = 3;

impl PreviewMode {
    /// Stored form: `first-games`, `always` or `asked`.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Reads the stored form (`None` for any other text).
    pub fn parse(s: &str) -> Option<PreviewMode> {
        s.parse().ok()
    }
}

#[cfg(test)]
mod limit_tests {
    use super::*;

    #[test]
    fn a_limit_is_its_default_until_chosen_and_only_allowed_values_are() {
        let mut limits = PlayerLimits::default();
        assert_eq!(limits.get(Limit::PracticeGames), 3);
        assert_eq!(limits.get(Limit::OpenChallenges), 10);
        assert_eq!(limits.get(Limit::CommandsPerMinute), 30);
        limits.set(Limit::PracticeGames, Some(30)).unwrap();
        assert_eq!(limits.get(Limit::PracticeGames), 30);
        assert_eq!(
            limits.set(Limit::CommandsPerMinute, Some(4)),
            Err("commands_per_minute must be from 5 to 120, not 4.".to_string())
        );
        assert_eq!(limits.chosen(Limit::CommandsPerMinute), None);
        limits.set(Limit::PracticeGames, None).unwrap();
        assert_eq!(limits, PlayerLimits::default());
    }
}
